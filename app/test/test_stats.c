/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/stats, linked with it alone: rate arithmetic, fold,
 * baseline and clear over a MIB set filled by hand, snapshot reference
 * counting, rates between snapshots, the conservation verdict, the run
 * summary's steady part and the publish callback. The exporters' tests are
 * test_export_*.c; the port counters', test_ports.c; the median (lib/base),
 * test_base.c.
 *
 * EAL runs without hugepages or PCI; the stats thread runs with a one-hour
 * interval so that every snapshot is taken by stats_fold_now() here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <pthread.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "fixture_stats.h"

/* ---- rates, fold, clear, refcounts ---- */

static void
test_rate_compute(void **state)
{
	struct stats_rate r;

	(void)state;
	stats_rate_compute(&r, 1000000, 60000000, 200000000, 200000000, 0.5);
	assert_true(r.pps == 2e6);
	assert_true(r.gbps > 0.96 - 1e-12 && r.gbps < 0.96 + 1e-12);
	assert_true(r.ns_per_pkt == 500.0);
	assert_true(r.cycles_per_pkt == 200.0);
	assert_true(r.busy_pct == 50.0);
	/* Every division guarded. */
	stats_rate_compute(&r, 1000, 0, 5, 0, 0);
	assert_true(r.pps == 0 && r.ns_per_pkt == 0 && r.gbps == 0);
	assert_true(r.cycles_per_pkt == 0.005);
	stats_rate_compute(&r, 0, 0, 0, 0, 1);
	assert_true(r.pps == 0 && r.ns_per_pkt == 0 && r.cycles_per_pkt == 0 &&
		    r.busy_pct == 0);
}

static void
test_fold_clear(void **state)
{
	struct stats_snapshot *a, *b;
	uint64_t raw_before;
	unsigned int f;

	(void)state;
	a = stats_get(st);
	assert_non_null(a);
	assert_int_equal(a->n_workers, NW);
	assert_int_equal(a->raw_totals[MIB_F(RX, PACKETS)], 1500);
	assert_int_equal(a->per_block[MIB_F(RX, PACKETS)], 1000);
	assert_int_equal(a->per_block[MIB_FIELD_MAX + MIB_F(RX, PACKETS)], 500);
	assert_int_equal(a->raw_totals[MIB_F(INGRESS, GRACEPERIODMAXUS)], 250);
	assert_int_equal((int64_t)a->totals[MIB_F(TCP, MAXCONN)], -1);
	assert_int_equal(a->totals[MIB_F(IP, FORWARDING)], 2);
	assert_int_equal(mib_check_conservation(a->totals, NULL, 0), 0);
	/* Both strategies agree. */
	{
		uint64_t t1[MIB_FIELD_MAX], t2[MIB_FIELD_MAX];

		mib_fold(set, MIB_FOLD_FIELD, t1, NULL);
		mib_fold(set, MIB_FOLD_LCORE, t2, NULL);
		assert_memory_equal(t1, t2, sizeof(t1));
		for (f = 0; f < MIB_FIELD_MAX; f++)
			assert_int_equal(t1[f], a->raw_totals[f]);
	}
	raw_before = a->raw_totals[MIB_F(IP, INRECEIVES)];
	stats_put(st, a);

	stats_clear(st);
	b = stats_get(st);
	assert_int_equal(b->clears, 1);
	assert_int_equal(b->totals[MIB_F(IP, INRECEIVES)], 0);
	assert_int_equal(b->raw_totals[MIB_F(IP, INRECEIVES)], raw_before);
	/* Not cleared: constants and high-water marks. */
	assert_int_equal(b->totals[MIB_F(INGRESS, GRACEPERIODMAXUS)], 250);
	assert_int_equal((int64_t)b->totals[MIB_F(TCP, MAXCONN)], -1);
	stats_put(st, b);

	fill(0, 64, 0);
	stats_fold_now(st);
	b = stats_get(st);
	assert_int_equal(b->totals[MIB_F(IP, INRECEIVES)], 64);
	assert_int_equal(b->per_block[MIB_F(IP, INRECEIVES)], 64);
	assert_int_equal(b->per_block[MIB_FIELD_MAX + MIB_F(IP, INRECEIVES)], 0);
	assert_int_equal(b->raw_totals[MIB_F(IP, INRECEIVES)], raw_before + 64);
	assert_int_equal(mib_check_conservation(b->totals, NULL, 0), 0);
	assert_true(b->seq > 0 && b->folds == b->seq + 1);
	stats_put(st, b);
}

static void
test_refcount(void **state)
{
	struct stats_snapshot *a, *a2, *b;
	uint64_t seq;

	(void)state;
	a = stats_get(st);
	a2 = stats_get(st);
	assert_ptr_equal(a, a2);
	assert_int_equal(a->refcnt, 3);	/* latest's + ours x2 */
	stats_put(st, a2);
	seq = a->seq;
	stats_fold_now(st);
	stats_fold_now(st);
	b = stats_get(st);
	assert_ptr_not_equal(a, b);
	assert_int_equal(b->seq, seq + 2);
	/* a is no longer published but still ours, intact. */
	assert_int_equal(a->refcnt, 1);
	assert_int_equal(a->seq, seq);
	assert_int_equal(a->n_workers, NW);
	stats_put(st, a);		/* freed here */
	stats_put(st, b);
}

/* Rates between any two snapshots: raw (a clear between them changes
 * nothing), per worker or all, the TSC between the folds. */
static void
test_rate_between(void **state)
{
	struct stats_snapshot *a, *b;
	struct stats_rate r, w0, w1;
	double dt;

	(void)state;
	stats_fold_now(st);
	a = stats_get(st);
	fill(0, 320, 0);
	fill(1, 64, 0);
	stats_clear(st);
	fill(1, 16, 0);
	stats_fold_now(st);
	b = stats_get(st);
	dt = (double)(b->tsc - a->tsc) / (double)b->tsc_hz;
	assert_int_equal(stats_rate_between(a, b, -1, &r), 0);
	assert_int_equal(r.packets, 400);
	assert_int_equal(r.octets, 400 * 60);
	assert_int_equal(r.busy_cycles, 400 * 100);
	assert_true(r.seconds == dt && dt > 0);
	assert_true(r.ns_per_pkt == 1e9 / r.pps);
	assert_int_equal(stats_rate_between(a, b, 0, &w0), 0);
	assert_int_equal(stats_rate_between(a, b, 1, &w1), 0);
	assert_int_equal(w0.packets, 320);
	assert_int_equal(w1.packets, 80);
	assert_true(fabs(w0.pps + w1.pps - r.pps) <= 1e-9 * r.pps);
	/* The same growth field by field, raw across the clear. */
	assert_int_equal(stats_grown(a, b, MIB_F(RX, PACKETS)), 400);
	assert_int_equal(stats_grown(a, b, MIB_F(RX, OCTETS)), 400 * 60);
	assert_int_equal(stats_grown(a, b, MIB_FIELD_MAX), 0);
	/* Backwards: every counter "fell", none is counted. */
	assert_int_equal(stats_rate_between(b, a, -1, &r), 0);
	assert_int_equal(r.packets, 0);
	assert_true(r.pps == 0 && r.seconds == 0);
	assert_int_equal(stats_grown(b, a, MIB_F(RX, PACKETS)), 0);
	assert_int_equal(stats_rate_between(a, b, NW, &r), -EINVAL);
	assert_int_equal(stats_rate_between(NULL, b, 0, &r), -EINVAL);
	stats_put(st, a);
	stats_put(st, b);
}

/* The verdict itself (the JSON's is test_export_report.c's): each law
 * within what may be in flight on a live snapshot, exact on the final. */
static void
test_laws(void **state)
{
	struct mib_law laws[MIB_N_LAWS];
	struct stats_snapshot *snap;
	struct mib_set *ms;
	struct mib_block b;
	struct stats *s;
	char why[256], line[512];

	(void)state;
	s = own_stats(&ms, 3600, 0, 8);
	b = mib_set_block(ms, 0);
	mib_add(&b, MIB_F(RX, PACKETS), 100);
	mib_add(&b, MIB_MODE_F(0, MIB_MODE_K_PACKETS), 100);
	mib_add(&b, MIB_F(RX, NOTIP), 95);	/* 5 still in flight */
	stats_fold_now(s);
	snap = stats_get(s);
	assert_int_equal(stats_tolerance(snap), 8);
	assert_int_equal(stats_laws(snap, laws, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(laws[0].lhs, 100);
	assert_int_equal(laws[0].rhs, 95);
	assert_int_equal(stats_conservation(snap, line, sizeof(line)), 0);
	assert_string_equal(line, "ok");
	stats_put(s, snap);
	stats_stop(s);			/* final: exact */
	snap = stats_get(s);
	assert_int_equal(stats_tolerance(snap), 0);
	assert_int_equal(stats_laws(snap, laws, why, sizeof(why)), 1);
	assert_string_equal(why, "RxPackets 100 != RxNotIp + RxOtherHost + RxNoPath + "
				 "IngressDropped + InReceives + Ip6InReceives 95");
	assert_int_equal(stats_conservation(snap, line, sizeof(line)), -1);
	assert_string_equal(line,
			    "BROKEN: RxPackets 100 != RxNotIp + RxOtherHost + "
			    "RxNoPath + IngressDropped + InReceives + Ip6InReceives 95");
	stats_put(s, snap);
	own_stats_free(s, ms);
}

/* on_publish: after every fold of the thread's schedule, with the one
 * before; never for stats_start/fold_now/clear/stop. */
struct pub {
	pthread_mutex_t lock;
	unsigned int calls;
	bool in_order;
	uint64_t last_seq;
};

static void
on_publish(const struct stats_snapshot *snap, const struct stats_snapshot *prev,
	   void *arg)
{
	struct pub *p = arg;

	pthread_mutex_lock(&p->lock);
	p->calls++;
	if (prev == NULL || prev->seq + 1 != snap->seq || snap->final)
		p->in_order = false;
	p->last_seq = snap->seq;
	pthread_mutex_unlock(&p->lock);
}

static struct stats *
publishing(struct mib_set *ms, double interval, struct pub *p)
{
	struct stats_conf sc;
	struct stats *s;

	fixture_stats_conf(&sc, ms, interval, 0, 0);
	sc.on_publish = on_publish;
	sc.publish_arg = p;
	s = stats_create(&sc);
	assert_non_null(s);
	assert_false(stats_running(s));
	assert_true(stats_interval(s) == interval);
	assert_int_equal(stats_start(s), 0);
	assert_true(stats_running(s));
	return s;
}

static void
test_publish(void **state)
{
	struct pub p = { PTHREAD_MUTEX_INITIALIZER, 0, true, 0 };
	struct mib_set *ms;
	struct stats *s;
	unsigned int calls, k;

	(void)state;
	ms = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(ms);
	s = publishing(ms, 3600, &p);
	stats_fold_now(s);
	stats_clear(s);
	stats_stop(s);
	assert_false(stats_running(s));
	assert_int_equal(p.calls, 0);		/* none of them a scheduled fold */
	stats_free(s);

	/* A 50 ms schedule: called, in order, until the stop. */
	s = publishing(ms, 0.05, &p);
	for (k = 0; k < 200; k++) {
		pthread_mutex_lock(&p.lock);
		calls = p.calls;
		pthread_mutex_unlock(&p.lock);
		if (calls >= 3)
			break;
		usleep(50 * 1000);
	}
	stats_stop(s);
	calls = p.calls;
	assert_true(calls >= 3);
	assert_true(p.in_order);
	stats_free(s);
	assert_int_equal(p.calls, calls);	/* nothing after the stop */
	mib_set_free(ms);
}

/* The steady part: from the first fold at or after the warm-up to the end,
 * reported only if it spans one stats interval; else null with a reason. */
static void
test_steady(void **state)
{
	struct stats_summary *sum;
	struct mib_set *ms;
	struct stats *s;

	(void)state;
	/* The run ends inside the warm-up. */
	s = own_stats(&ms, 3600, 5, 0);
	stats_fold_now(s);
	stats_stop(s);
	sum = stats_summary(s);
	assert_non_null(sum);
	assert_false(sum->steady_valid);
	assert_non_null(strstr(sum->steady_reason, "ended before the warm-up (5.00 s) was over"));
	stats_summary_free(sum);
	own_stats_free(s, ms);

	/* A fold just past the warm-up, then the end: a window far shorter
	 * than one interval (--duration == --warmup gave such a one). */
	s = short_steady(&ms);
	sum = stats_summary(s);
	assert_false(sum->steady_valid);
	assert_non_null(strstr(sum->steady_reason, " after the warm-up (0.05 s), less "
			       "than one stats interval (3600.00 s)"));
	stats_summary_free(sum);
	own_stats_free(s, ms);

	/* No warm-up: the steady part is the whole run, one interval long. */
	s = own_stats(&ms, 0.1, 0, 0);
	usleep(300 * 1000);
	stats_stop(s);
	sum = stats_summary(s);
	assert_true(sum->steady_valid);
	assert_string_equal(sum->steady_reason, "");
	assert_true(sum->steady.seconds == sum->total.seconds);
	stats_summary_free(sum);
	own_stats_free(s, ms);
}


/* Worker block b of ms receives pkts UDP datagrams, of which hdrerr are
 * InHdrErrors, in mode "off": every law holds. */
static void
__fill_set(struct mib_set *ms, unsigned int b, uint64_t pkts, uint64_t hdrerr)
{
	struct mib_block k = mib_set_block(ms, b);

	mib_add(&k, MIB_F(RX, PACKETS), pkts);
	mib_add(&k, MIB_F(RX, OCTETS), pkts * 60);
	mib_add(&k, MIB_F(RX, BUSYCYCLES), pkts * 100);
	mib_add(&k, MIB_MODE_F(0, MIB_MODE_K_PACKETS), pkts);
	mib_add(&k, MIB_F(IP, INRECEIVES), pkts);
	mib_add(&k, MIB_F(IP, INHDRERRORS), hdrerr);
	mib_add(&k, MIB_F(IP, INDELIVERS), pkts - hdrerr);
	mib_add(&k, MIB_F(UDP, INDATAGRAMS), pkts - hdrerr);
	mib_max(&k, MIB_F(INGRESS, GRACEPERIODMAXUS), 100 + b);
}

/*
 * --mib-lcores N: phantom blocks after the control block change no total
 * and break no law, for both fold strategies, at N = 1, 2, 255, 256 lcores
 * (N = 1 with one worker), in the scheduled folds and stats_read()'s; the
 * snapshots keep the real blocks only.
 */
static void
test_phantom(void **state)
{
	static const unsigned int ns[] = { 1, 2, 255, 256 };
	uint64_t want[MIB_FIELD_MAX], got[MIB_FOLD_MAX][MIB_FIELD_MAX];
	struct mib_law laws[MIB_N_LAWS];
	char why[256];
	unsigned int k, fo, w, nw, f;

	(void)state;
	for (k = 0; k < RTE_DIM(ns); k++) {
		nw = RTE_MIN(ns[k], (unsigned int)NW);
		for (fo = 0; fo < MIB_FOLD_MAX; fo++) {
			unsigned int np = ns[k] - nw;
			struct mib_set *ms = mib_set_create(nw + 1 + np,
							    MIB_LAYOUT_PERCPU, NULL);
			struct mib_set *ref = mib_set_create(nw + 1, MIB_LAYOUT_PERCPU,
							     NULL);
			struct stats_snapshot *snap, *rd;
			struct stats_conf sc;
			struct stats *s;

			assert_non_null(ms);
			assert_non_null(ref);
			fixture_stats_conf(&sc, ms, 3600, 0, 0);
			sc.n_workers = nw;
			sc.fold = (enum mib_fold)fo;
			sc.n_phantom = np;
			sc.fold_on_read = true;
			s = stats_create(&sc);
			assert_non_null(s);
			assert_int_equal(stats_start(s), 0);
			for (w = 0; w < nw; w++) {
				__fill_set(ms, w, 1000 + 7 * w, w);
				__fill_set(ref, w, 1000 + 7 * w, w);
			}
			stats_fold_now(s);
			mib_fold(ref, MIB_FOLD_FIELD, want, NULL);
			snap = stats_get(s);
			rd = stats_read(s);
			assert_int_equal(snap->n_blocks, nw + 1);
			assert_int_equal(snap->mib_lcores, ns[k]);
			assert_int_equal(snap->n_phantom, np);
			assert_int_equal(snap->phantom_bytes,
					 (uint64_t)np * MIB_BLOCK_BYTES);
			assert_int_equal(snap->mib_bytes,
					 (uint64_t)(nw + 1 + np) * MIB_BLOCK_BYTES);
			assert_false(snap->read_fold);
			assert_true(rd->read_fold);
			for (f = 0; f < MIB_FIELD_MAX; f++) {
				assert_int_equal(snap->raw_totals[f], want[f]);
				assert_int_equal(rd->raw_totals[f], want[f]);
				assert_int_equal(rd->totals[f], snap->totals[f]);
			}
			assert_memory_equal(rd->raw_per_block, snap->raw_per_block,
					    (nw + 1) * MIB_FIELD_MAX * sizeof(uint64_t));
			memcpy(got[fo], snap->raw_totals, sizeof(got[fo]));
			stats_put(s, rd);
			stats_put(s, snap);
			stats_stop(s);
			snap = stats_get(s);
			assert_true(snap->final);
			assert_int_equal(stats_laws(snap, laws, why, sizeof(why)), 0);
			assert_int_equal(mib_check_conservation(snap->raw_totals, why,
								sizeof(why)), 0);
			stats_put(s, snap);
			stats_free(s);
			mib_set_free(ms);
			mib_set_free(ref);
		}
		assert_memory_equal(got[MIB_FOLD_FIELD], got[MIB_FOLD_LCORE],
				    sizeof(got[0]));
	}
}

/* stats_create() refuses phantoms that leave no room for the workers. */
static void
test_phantom_refused(void **state)
{
	struct mib_set *ms = mib_set_create(NW + 3, MIB_LAYOUT_PERCPU, NULL);
	struct stats_conf sc;

	(void)state;
	assert_non_null(ms);
	fixture_stats_conf(&sc, ms, 3600, 0, 0);
	sc.n_phantom = 4;	/* NW + 3 - 4 blocks: fewer than NW workers */
	rte_errno = 0;
	assert_null(stats_create(&sc));
	assert_int_equal(rte_errno, EINVAL);
	sc.n_phantom = NW + 3;	/* every block */
	assert_null(stats_create(&sc));
	sc.n_phantom = 2;	/* NW workers and one more block */
	{
		struct stats *s = stats_create(&sc);

		assert_non_null(s);
		stats_free(s);
	}
	mib_set_free(ms);
}

/* --perf-detail across a clear: each histogram's baseline leads its worker's
 * RxBursts by the polls the worker had not flushed yet, and the snapshot
 * says by how many, so that count + lead is RxBursts since the clear. */
static void
__polls(struct stats_perf *p, struct mib_set *ms, unsigned int w, unsigned int polls,
	unsigned int flushed)
{
	struct mib_block b = mib_set_block(ms, w);
	unsigned int i, k;

	for (i = 0; i < polls; i++)
		for (k = 0; k < STATS_PERF_MAX; k++)
			stats_hist_add(&p->h[k], 100 + i);
	mib_add(&b, MIB_F(RX, BURSTS), flushed);
}

static void
test_clear_lead(void **state)
{
	struct stats_perf *perf[NW];
	struct stats_snapshot *p;
	struct stats_conf sc;
	struct mib_set *ms;
	struct stats *s;
	unsigned int w, k;

	(void)state;
	ms = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(ms);
	for (w = 0; w < NW; w++)
		assert_non_null(perf[w] = calloc(1, sizeof(*perf[w])));
	fixture_stats_conf(&sc, ms, 3600, 0, 0);
	sc.perf = perf;
	s = stats_create(&sc);
	assert_non_null(s);
	assert_int_equal(stats_start(s), 0);
	/* worker 0: 40 polls, 32 flushed; worker 1: 10, none flushed */
	__polls(perf[0], ms, 0, 40, 32);
	__polls(perf[1], ms, 1, 10, 0);
	stats_fold_now(s);
	p = stats_get(s);
	for (k = 0; k < NW * STATS_PERF_MAX; k++)
		assert_int_equal(p->hist_clear_lead[k], 0); /* no clear yet */
	stats_put(s, p);
	stats_clear(s);
	/* then worker 0 5 polls and flushes 13 (all its 45), worker 1 22
	 * polls and flushes 32 */
	__polls(perf[0], ms, 0, 5, 13);
	__polls(perf[1], ms, 1, 22, 32);
	stats_fold_now(s);
	p = stats_get(s);
	assert_int_equal(p->clears, 1);
	for (k = 0; k < STATS_PERF_MAX; k++) {
		assert_int_equal(p->hist_clear_lead[k], 8);
		assert_int_equal(p->hist_clear_lead[STATS_PERF_MAX + k], 10);
		assert_int_equal(stats_hist_count(&p->hist[k]), 5);
		assert_int_equal(stats_hist_count(&p->hist[STATS_PERF_MAX + k]), 22);
		for (w = 0; w < NW; w++)
			assert_int_equal(
				stats_hist_count(&p->hist[w * STATS_PERF_MAX + k]) +
					(uint64_t)p
						->hist_clear_lead[w * STATS_PERF_MAX + k],
				p->per_block[w * MIB_FIELD_MAX + MIB_F(RX, BURSTS)]);
	}
	stats_put(s, p);
	stats_stop(s);
	own_stats_free(s, ms);
	for (w = 0; w < NW; w++)
		free(perf[w]);
}

/* A histogram that counts nothing (ingress_cycles without the hook) has no
 * lead at a clear, whatever RxBursts the worker flushed. */
static void
test_clear_lead_empty(void **state)
{
	struct stats_perf *perf[NW];
	struct stats_snapshot *p;
	struct stats_conf sc;
	struct mib_set *ms;
	struct stats *s;
	struct mib_block b;
	unsigned int w, i;

	(void)state;
	ms = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(ms);
	for (w = 0; w < NW; w++)
		assert_non_null(perf[w] = calloc(1, sizeof(*perf[w])));
	fixture_stats_conf(&sc, ms, 3600, 0, 0);
	sc.perf = perf;
	s = stats_create(&sc);
	assert_non_null(s);
	assert_int_equal(stats_start(s), 0);
	/* worker 0: 40 polls, 32 flushed, its ingress histogram never fed */
	b = mib_set_block(ms, 0);
	for (i = 0; i < 40; i++)
		stats_hist_add(&perf[0]->h[STATS_PERF_POLL_CYCLES], 100);
	mib_add(&b, MIB_F(RX, BURSTS), 32);
	stats_clear(s);
	p = stats_get(s);
	assert_int_equal(p->hist_clear_lead[STATS_PERF_POLL_CYCLES], 8);
	assert_int_equal(p->hist_clear_lead[STATS_PERF_INGRESS_CYCLES], 0);
	assert_int_equal(stats_hist_count(&p->hist[STATS_PERF_INGRESS_CYCLES]), 0);
	stats_put(s, p);
	stats_stop(s);
	own_stats_free(s, ms);
	for (w = 0; w < NW; w++)
		free(perf[w]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_compute),
		cmocka_unit_test(test_fold_clear),
		cmocka_unit_test(test_refcount),
		cmocka_unit_test(test_rate_between),
		cmocka_unit_test(test_laws),
		cmocka_unit_test(test_publish),
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_phantom),
		cmocka_unit_test(test_phantom_refused),
		cmocka_unit_test(test_clear_lead),
		cmocka_unit_test(test_clear_lead_empty),
	};

	return cmocka_run_group_tests(tests, fixture_stats_setup,
				      fixture_stats_teardown);
}
