/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --compare: a variant put in force between two phases (options.h, struct
 * app_compare). The ingress mode and scope flip live at a burst boundary
 * (lib/ingress), the fold strategy is the stats thread's (stats_set_fold());
 * the knobs that a worker's loop takes at its start (prefetch, burst,
 * alloc, peer-layout, mib-layout: the copy of its MIB block it writes;
 * rx-csum, its port's path conf) pause the workers:
 * the control thread asks them to stop (the run flag, as at the end), each
 * leaves its loop, flushes its counters, goes offline for the ingress hook
 * and waits here (app_worker_pause()); once all wait, the control thread
 * sets their new variant (a port's path conf too), raises the run flag and
 * starts a new epoch, and each enters its loop again. The workers' threads never end, so their kernel accounting
 * (lost time) and their --pmu groups go on as one; the pause lies before
 * the phase's first fold, so it is charged to no phase, and its length is
 * said (the round's line, the JSON's "switch_s").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "app.h"
#include "port.h"

void
app_pause_init(struct app *a)
{
	pthread_mutex_init(&a->pause.mu, NULL);
	pthread_cond_init(&a->pause.cv, NULL);
}

bool
app_worker_pause(struct app_worker *w)
{
	struct app *a = app_worker_app;
	bool hook = w->ig != NULL && w->full;
	uint64_t e;

	pthread_mutex_lock(&a->pause.mu);
	if (!a->pause.asked) { /* the run ends */
		pthread_mutex_unlock(&a->pause.mu);
		return false;
	}
	/* Offline before waiting: no grace period waits for a paused lcore. */
	if (hook)
		ingress_worker_stop(w->ig, w->idx);
	a->pause.paused++;
	pthread_cond_broadcast(&a->pause.cv);
	for (e = a->pause.epoch; a->pause.epoch == e;)
		pthread_cond_wait(&a->pause.cv, &a->pause.mu);
	a->pause.paused--;
	pthread_mutex_unlock(&a->pause.mu);
	if (hook)
		ingress_worker_start(w->ig, w->idx);
	return true;
}

enum ingress_mode
app_compare_mode(const struct app *a, unsigned int v)
{
	int k = app_compare_knob(&a->opt.cmp, APP_KNOB_INGRESS);

	return k < 0 ? a->opt.ingress_mode
		     : (enum ingress_mode)app_compare_value(&a->opt.cmp, (unsigned int)k,
							    v);
}

const char *
app_compare_loop_name(const struct app *a, unsigned int v)
{
	static struct app_worker w; /* main thread only */
	const struct app_compare *c = &a->opt.cmp;
	unsigned int k;

	w = a->workers[0];
	for (k = 0; k < c->n_knobs; k++) {
		uint32_t x = app_compare_value(c, k, v);

		/* the knobs that choose a loop (worker.c, __run_flags()) */
		if (c->k[k].knob == APP_KNOB_PREFETCH)
			w.prefetch = x != 0;
		else if (c->k[k].knob == APP_KNOB_ALLOC)
			w.gen.alloc = (enum pkt_alloc)x;
	}
	return app_worker_loop_name(&w);
}

/* Whether worker w's loop differs from what variant v asks. */
static bool
__worker_differs(const struct app *a, const struct app_worker *w, unsigned int v)
{
	const struct app_compare *c = &a->opt.cmp;
	bool differs = false;
	unsigned int k;

	for (k = 0; k < c->n_knobs; k++) {
		uint32_t x = app_compare_value(c, k, v);

		switch (c->k[k].knob) {
		case APP_KNOB_PREFETCH:
			differs |= w->prefetch != (bool)x;
			break;
		case APP_KNOB_BURST:
			differs |= w->burst != x;
			break;
		case APP_KNOB_ALLOC:
			differs |= w->gen.alloc != (enum pkt_alloc)x;
			break;
		case APP_KNOB_PEER_LAYOUT:
			differs |= w->peers != a->peer_tables[x];
			break;
		case APP_KNOB_MIB_LAYOUT:
			differs |= w->mib.base !=
				   mib_set_block_in(a->mibs, w->idx, (enum mib_layout)x)
					   .base;
			break;
		case APP_KNOB_RX_CSUM: {
			int i = a->worker_port[w->idx]; /* -1: it polls no port */
			const struct app_port *p = i < 0 ? NULL : &a->ports[i];

			differs |=
				p != NULL &&
				p->pc.csum_hw != app_port_csum_hw(p, (enum app_rx_csum)x);
			break;
		}
		default: /* live knobs */
			break;
		}
	}
	return differs;
}

/* Worker w in variant v (paused). */
static int
__worker_set(struct app *a, struct app_worker *w, unsigned int v, char *err, size_t len)
{
	const struct app_compare *c = &a->opt.cmp;
	enum pkt_alloc alloc = w->gen.alloc;
	uint16_t burst = w->burst;
	unsigned int k;
	uint64_t ol;
	int rc;

	for (k = 0; k < c->n_knobs; k++) {
		uint32_t x = app_compare_value(c, k, v);

		switch (c->k[k].knob) {
		case APP_KNOB_PREFETCH:
			w->prefetch = x != 0;
			break;
		case APP_KNOB_BURST:
			burst = (uint16_t)x;
			break;
		case APP_KNOB_ALLOC:
			alloc = (enum pkt_alloc)x;
			break;
		case APP_KNOB_PEER_LAYOUT:
			w->peers = a->peer_tables[x];
			break;
		case APP_KNOB_MIB_LAYOUT:
			/* Its block's copy in that layout: the copy it leaves
			 * keeps what it counted (flushed before the pause), and
			 * every fold adds both (mib_set_add_layout()). */
			w->mib = mib_set_block_in(a->mibs, w->idx, (enum mib_layout)x);
			break;
		default:
			break;
		}
	}
	if (w->source == APP_SRC_GEN && (alloc != w->gen.alloc || burst != w->burst)) {
		/* The generator's mbufs go back to the pool, its new ones
		 * come from it: the same pool, sized for the largest burst. */
		ol = w->gen.ol_flags;
		pkt_gen_fini(&w->gen);
		rc = pkt_gen_init(&w->gen, w->mp, a->tpl, alloc, burst);
		if (rc != 0) {
			snprintf(err, len,
				 "worker %u: the generator for alloc %s, "
				 "burst %u: %s",
				 w->idx, pkt_alloc_name(alloc), burst, strerror(-rc));
			return rc;
		}
		w->gen.ol_flags = ol;
	}
	w->burst = burst;
	return 0;
}

/* The ports' paths in variant v (the workers paused): whether each trusts
 * its checksum flags (the port's offload stays as set up: port.c). */
static void
__ports_set(struct app *a, unsigned int v)
{
	int k = app_compare_knob(&a->opt.cmp, APP_KNOB_RX_CSUM);
	enum app_rx_csum m;
	unsigned int i;

	if (k < 0)
		return;
	m = (enum app_rx_csum)app_compare_value(&a->opt.cmp, (unsigned int)k, v);
	for (i = 0; i < a->n_ports; i++)
		a->ports[i].pc.csum_hw = app_port_csum_hw(&a->ports[i], m);
}

/* Pause the workers, put them in variant v, start them again; 0 or -errno. */
static int
__restart(struct app *a, unsigned int v, char *err, size_t len)
{
	unsigned int i;
	int rc = 0;

	pthread_mutex_lock(&a->pause.mu);
	a->pause.asked = true;
	pthread_mutex_unlock(&a->pause.mu);
	/* Release: a worker that sees 0 leaves its loop (as at the end). */
	__atomic_store_n(&a->run, 0, __ATOMIC_RELEASE);
	pthread_mutex_lock(&a->pause.mu);
	while (a->pause.paused < a->n_workers)
		pthread_cond_wait(&a->pause.cv, &a->pause.mu);
	pthread_mutex_unlock(&a->pause.mu);
	/* The mutex ordered the workers' last writes before these, and
	 * orders these before their next loop (the epoch, under it). */
	for (i = 0; i < a->n_workers && rc == 0; i++)
		rc = __worker_set(a, &a->workers[i], v, err, len);
	__ports_set(a, v);
	/* A worker that could not be set (its generator lost) must not poll:
	 * the run flag stays down, and each worker, woken, ends. */
	if (rc == 0)
		__atomic_store_n(&a->run, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&a->pause.mu);
	a->pause.asked = false;
	a->pause.epoch++;
	pthread_cond_broadcast(&a->pause.cv);
	pthread_mutex_unlock(&a->pause.mu);
	return rc;
}

int
app_compare_switch(struct app *a, unsigned int v, double *switch_s, char *err, size_t len)
{
	const struct app_compare *c = &a->opt.cmp;
	bool restart = false;
	unsigned int k, i;
	uint64_t t0;
	int rc = 0;

	*switch_s = 0;
	for (i = 0; i < a->n_workers; i++)
		restart |= __worker_differs(a, &a->workers[i], v);
	if (restart) {
		t0 = rte_get_tsc_cycles();
		rc = __restart(a, v, err, len);
		*switch_s =
			(double)(rte_get_tsc_cycles() - t0) / (double)rte_get_tsc_hz();
		if (rc != 0)
			return -1;
	}
	for (k = 0; k < c->n_knobs && rc == 0; k++) {
		uint32_t x = app_compare_value(c, k, v);

		switch (c->k[k].knob) {
		case APP_KNOB_INGRESS:
			rc = app_ingress_compare_mode(a, (enum ingress_mode)x, err, len);
			break;
		case APP_KNOB_LOCK_SCOPE:
			rc = app_ingress_compare_scope(a, (enum ingress_scope)x, err,
						       len);
			break;
		case APP_KNOB_FOLD:
			stats_set_fold(a->stats, (enum mib_fold)x);
			break;
		default: /* in force since the restart */
			break;
		}
	}
	return rc != 0 ? -1 : 0;
}
