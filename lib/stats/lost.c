/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lost time: what the kernel counted of each worker's thread, followed
 * fold by fold (stats.h: struct stats_worker_clock, struct stats_thread).
 *
 * A worker publishes where it began polling (its tid, the TSC and its
 * thread's CPU time) and where it ended. At each fold the stats thread
 * reads the thread's CPU time (stats_tcount.h) and adds to the worker's
 * lost time the wall time since the last point it accounted less the CPU
 * time the thread got in it: from the worker's begin to its end, and never
 * outside (a worker that has not begun or has ended loses nothing: the
 * lcore's thread then waits for work, which is not the path's time).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "base.h"
#include "stats_pvt.h"

static const char *const cause_names[] = {
	[STATS_LOST_NONE] = "",
	[STATS_LOST_PREEMPTED] = "preempted",
	[STATS_LOST_STOPPED] = "stopped",
	[STATS_LOST_SLEEPING] = "sleeping",
	[STATS_LOST_SUSPENDED] = "suspended",
	[STATS_LOST_OFFCPU] = "off-cpu",
};

const char *
stats_lost_cause_name(enum stats_lost_cause c)
{
	return BASE_ENUM_NAME(cause_names, c);
}

static uint64_t
__own_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void
stats_worker_begin(struct stats_worker_clock *c)
{
	c->end_tsc = 0;
	c->pmu_err = 0;
	if (c->pmu != NULL && c->group.n == 0) {
		unsigned int failed = 0;

		/* On the worker's own thread, mapped for its own reads (the
		 * stage marks'); counting from here, before the first poll. */
		c->pmu_err = stats_pmu_open(&c->group, c->pmu, 0, true, &failed);
		if (c->pmu_err != 0) {
			char line[512];

			stats_pmu_explain(c->pmu, failed, c->pmu_err, NULL, line,
					  sizeof(line));
			STATS_LOG(WARNING, "worker thread %d: its --pmu group: %s; "
				  "its events are unknown", rte_sys_gettid(), line);
		}
	}
	c->begin_run_ns = __own_cpu_ns();
	c->begin_tsc = rte_rdtsc();
	/* Release: a reader that sees the tid sees begin_*. */
	__atomic_store_n(&c->tid, rte_sys_gettid(), __ATOMIC_RELEASE);
}

void
stats_worker_end(struct stats_worker_clock *c)
{
	uint64_t tsc;

	/* The group stops with the loop: what it counted is the loop's. */
	if (c->group.n > 0)
		stats_pmu_disable(&c->group);
	tsc = rte_rdtsc();
	c->end_run_ns = __own_cpu_ns();
	/* Release: a reader that sees end_tsc sees end_run_ns. */
	__atomic_store_n(&c->end_tsc, tsc, __ATOMIC_RELEASE);
}

static int
__stats_threads_init(struct stats *s)
{
	unsigned int w;

	if (s->conf.clocks == NULL || s->conf.n_workers == 0)
		return 0;
	s->tst = calloc(s->conf.n_workers, sizeof(*s->tst));
	if (s->tst == NULL)
		return -ENOMEM;
	for (w = 0; w < s->conf.n_workers; w++)
		stats_tcount_init(&s->tst[w].rd);
	return 0;
}

static void
__stats_threads_free(struct stats *s)
{
	unsigned int w;

	if (s->tst == NULL)
		return;
	for (w = 0; w < s->conf.n_workers; w++)
		stats_tcount_close(&s->tst[w].rd);
	free(s->tst);
	s->tst = NULL;
}

/* Account worker t's time from its last point to (tsc, run_ns). */
static void
__lost_account(struct stats_tstate *t, uint64_t hz, uint64_t tsc, uint64_t run_ns)
{
	double wall;
	uint64_t ran;

	if (tsc <= t->a_tsc)
		return;
	wall = (double)(tsc - t->a_tsc) * 1e9 / (double)hz;
	ran = run_ns > t->a_run_ns ? run_ns - t->a_run_ns : 0;
	if (wall > (double)ran)
		t->lost_ns += (uint64_t)(wall - (double)ran);
	t->run_ns += ran;
	t->a_tsc = tsc;
	t->a_run_ns = run_ns;
}

static void
__counts(struct stats_tstate *t, const struct stats_tcount *c)
{
	if (!c->csw && !c->wait)
		return;
	if (!t->base_taken) {
		t->base = *c;
		t->base_taken = true;
	}
	t->last = *c;
}

/* --pmu --stage-cycles: the worker's stage events as it last stored them
 * (relaxed: each value is whole, and the fold that reads them is a point
 * as close to the Stage group's as the Rx counters' flush makes it). */
static void
__stage_pmu_load(const struct stats_worker_clock *c, struct stats_thread *o)
{
	unsigned int st, k;

	for (st = 0; st < MIB_STAGES; st++)
		for (k = 0; k < c->group.n; k++)
			o->stage_pmu[st][k] =
				__atomic_load_n(&c->stage_pmu[st][k], __ATOMIC_RELAXED);
}

static void
__stats_threads_sample(struct stats *s, struct stats_snapshot *p)
{
	unsigned int w;

	if (s->tst == NULL || p->thread == NULL)
		return;
	for (w = 0; w < s->conf.n_workers; w++) {
		const struct stats_worker_clock *c = &s->conf.clocks[w];
		struct stats_tstate *t = &s->tst[w];
		struct stats_thread *o = &p->thread[w];
		struct stats_tcount tc;
		uint64_t end, tsc;
		int tid;

		memset(o, 0, sizeof(*o));
		/* Acquire: begin_* (and end_run_ns) as the worker wrote them. */
		tid = __atomic_load_n(&c->tid, __ATOMIC_ACQUIRE);
		if (tid == 0)
			continue;
		if (!t->begun) {
			t->begun = true;
			t->a_tsc = c->begin_tsc;
			t->a_run_ns = c->begin_run_ns;
			stats_tcount_open(&t->rd, tid, s->conf.task_root);
			/* --pmu: its group, opened at its begin (before the tid
			 * was published), read with the rest */
			if (c->group.n > 0)
				stats_tcount_attach_pmu(&t->rd, &c->group);
		}
		end = __atomic_load_n(&c->end_tsc, __ATOMIC_ACQUIRE);
		/* the stage events before the group they are compared with:
		 * the stages' sum is then at most the group's reading */
		if (c->group.n > 0)
			__stage_pmu_load(c, o);
		tsc = rte_rdtsc();
		stats_tcount_read(&t->rd, &tc);
		if (!t->ended) {
			if (end != 0) {
				__lost_account(t, s->hz, end, c->end_run_ns);
				t->ended = true;
			} else if (tc.src != STATS_TCOUNT_SRC_NONE) {
				__lost_account(t, s->hz, tsc, tc.run_ns);
			}
			__counts(t, &tc);
		}
		if (tc.pmu.known)
			t->pmu = tc.pmu;
		o->pmu = t->pmu;
		o->known = true;
		o->lost_ns = t->lost_ns;
		o->run_ns = t->run_ns;
		o->src = tc.src;
		o->state = t->ended ? 0 : tc.state;
		if (t->base_taken) {
			o->wait_ns = t->last.wait_ns - t->base.wait_ns;
			o->vcsw = t->last.vcsw - t->base.vcsw;
			o->ivcsw = t->last.ivcsw - t->base.ivcsw;
		}
	}
}

/* The workers' threads: read at the scheduled folds only (a read fold
 * copies the latest snapshot's accounting). */
const struct stats_sampler __stats_sampler_threads = {
	.name = "threads",
	.init = __stats_threads_init,
	.free = __stats_threads_free,
	.sample = __stats_threads_sample,
};

enum stats_lost_cause
stats_lost_cause_of(char state, uint64_t ivcsw, uint64_t vcsw)
{
	switch (state) {
	case 'T':
	case 't':
		return STATS_LOST_STOPPED;
	case 'S':
	case 'D':
		return STATS_LOST_SLEEPING;
	default:
		break;
	}
	if (vcsw > 0)
		return STATS_LOST_SUSPENDED;
	if (ivcsw > 0 || state == 'R')
		return STATS_LOST_PREEMPTED;
	return STATS_LOST_OFFCPU;
}

void
__stats_rate_lost(const struct stats_snapshot *a, const struct stats_snapshot *b,
		  int w, struct stats_rate *r)
{
	unsigned int i, lo = w < 0 ? 0 : (unsigned int)w,
		     hi = w < 0 ? b->n_workers : (unsigned int)w + 1;
	enum stats_lost_cause cause = STATS_LOST_NONE;
	double worst = 0;

	r->lost_s = 0;
	r->lost_flag = false;
	r->involuntary_switches = 0;
	r->lost_known = a->thread != NULL && b->thread != NULL && lo < hi;
	if (!r->lost_known)
		return;
	for (i = lo; i < hi; i++) {
		const struct stats_thread *x = &a->thread[i], *y = &b->thread[i];
		double lost;

		/* A worker not yet begun at a has lost nothing before it did:
		 * its lost time counts from its begin (0 at a). */
		if (!y->known) {
			r->lost_known = false;
			continue;
		}
		lost = (double)(y->lost_ns - (x->known ? x->lost_ns : 0)) / 1e9;
		r->lost_s += lost;
		r->involuntary_switches += y->ivcsw - (x->known ? x->ivcsw : 0);
		if (lost > b->lost_share * r->seconds)
			r->lost_flag = true;
		if (lost > worst) {
			worst = lost;
			cause = stats_lost_cause_of(y->state, y->ivcsw -
						    (x->known ? x->ivcsw : 0), y->vcsw -
						    (x->known ? x->vcsw : 0));
		}
	}
	r->lost_cause = (uint8_t)(r->lost_flag ? cause : STATS_LOST_NONE);
}
