/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --pmu on the stats object's side: the events given to every worker's
 * clock, the stats thread's own group and each --fold-on-read reader's
 * (read around their folds), and the rates between snapshots (stats.h:
 * stats_pmu_between(); the groups themselves: stats_pmu.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "stats_pvt.h"

int
__stats_pmu_init(struct stats *s)
{
	unsigned int w;

	pthread_mutex_init(&s->pmu_lock, NULL);
	if (s->conf.pmu == NULL || s->conf.pmu->n == 0 ||
	    s->conf.pmu->n > STATS_PMU_MAX) {
		s->conf.pmu = NULL;
		return 0;
	}
	s->pmu = *s->conf.pmu;
	s->conf.pmu = &s->pmu;
	for (w = 0; s->conf.clocks != NULL && w < s->conf.n_workers; w++)
		s->conf.clocks[w].pmu = &s->pmu;
	return 0;
}

void
__stats_pmu_free(struct stats *s)
{
	unsigned int i;

	for (i = 0; i < STATS_PMU_READERS; i++)
		stats_pmu_close(&s->pmu_readers[i].g);
	stats_pmu_close(&s->fold_grp);
	/* the workers' groups: they have stopped (stats.h: clocks) */
	for (i = 0; s->conf.clocks != NULL && i < s->conf.n_workers; i++)
		stats_pmu_close(&s->conf.clocks[i].group);
	pthread_mutex_destroy(&s->pmu_lock);
}

/* Open a group on the calling thread for its folds; a log line if not. */
static int
__open_self(struct stats *s, struct stats_pmu_group *g, const char *who)
{
	unsigned int failed = 0;
	int rc = stats_pmu_open(g, &s->pmu, 0, true, &failed);

	if (rc != 0) {
		char line[512];

		stats_pmu_explain(&s->pmu, failed, rc, NULL, line, sizeof(line));
		STATS_LOG(WARNING, "%s: its folds are not counted: %s", who, line);
	}
	return rc;
}

void
__stats_pmu_thread_open(struct stats *s)
{
	if (s->conf.pmu != NULL)
		__open_self(s, &s->fold_grp, "the stats thread's --pmu group");
}

void
__stats_pmu_thread_close(struct stats *s)
{
	stats_pmu_close(&s->fold_grp);
}

const struct stats_pmu_group *
__stats_pmu_reader(struct stats *s)
{
	struct stats_pmu_reader *r = NULL;
	int tid = rte_sys_gettid();
	unsigned int i;

	if (s->conf.pmu == NULL)
		return NULL;
	pthread_mutex_lock(&s->pmu_lock);
	for (i = 0; i < STATS_PMU_READERS; i++) {
		if (s->pmu_readers[i].tid == tid) {
			r = &s->pmu_readers[i];
			break;
		}
		if (s->pmu_readers[i].tid == 0) {
			/* A slot is never given back: a thread that failed
			 * to open its group does not try at every read. */
			r = &s->pmu_readers[i];
			r->tid = tid;
			__open_self(s, &r->g, "a --fold-on-read reader's --pmu group");
			break;
		}
	}
	pthread_mutex_unlock(&s->pmu_lock);
	/* Only this thread uses its slot's group from here on. */
	return r != NULL && r->g.n > 0 ? &r->g : NULL;
}

void
__stats_pmu_mark(const struct stats_pmu_group *g, struct stats_pmu_count *c)
{
	if (g == NULL || g->n == 0 || stats_pmu_self_read(g, c) != 0)
		memset(c, 0, sizeof(*c));
}

int
__stats_pmu_snap_alloc(const struct stats *s, struct stats_snapshot *p)
{
	if (s->conf.pmu == NULL)
		return 0;
	p->pmu_iv = calloc(s->conf.n_workers + 1, sizeof(*p->pmu_iv));
	p->pmu_stage_iv = calloc((size_t)(s->conf.n_workers + 1) * MIB_STAGES,
				 sizeof(*p->pmu_stage_iv));
	return p->pmu_iv != NULL && p->pmu_stage_iv != NULL ? 0 : -ENOMEM;
}

/* Every worker's (and all workers') stage rates from a to b into out,
 * (n + 1) x MIB_STAGES. */
static void
__stats_pmu_stages(const struct stats_snapshot *a, const struct stats_snapshot *b,
		   unsigned int n, struct stats_pmu_rate *out)
{
	unsigned int w, st;

	if (out == NULL)
		return;
	for (w = 0; w <= n; w++)
		for (st = 0; st < MIB_STAGES; st++)
			stats_pmu_stage_between(a, b, w < n ? (int)w : -1, st,
						&out[(size_t)w * MIB_STAGES + st]);
}

void
__stats_pmu_interval(const struct stats_snapshot *prev, struct stats_snapshot *p)
{
	unsigned int w;

	if (p->pmu_iv == NULL)
		return;
	for (w = 0; w < p->n_workers; w++)
		stats_pmu_between(prev, p, (int)w, &p->pmu_iv[w]);
	stats_pmu_between(prev, p, -1, &p->pmu_iv[p->n_workers]);
	__stats_pmu_stages(prev, p, p->n_workers, p->pmu_stage_iv);
}

void
__stats_pmu_sums(struct stats *s, struct stats_snapshot *p, bool read)
{
	if (p->pmu == NULL)
		return;
	if (p->fold_pmu.known && read) {
		stats_pmu_delta_add(&s->read_pmu_sum, &p->fold_pmu);
		s->read_pmu_n++;
	} else if (p->fold_pmu.known) {
		stats_pmu_delta_add(&s->fold_pmu_sum, &p->fold_pmu);
		s->fold_pmu_n++;
	}
	p->fold_pmu_sum = s->fold_pmu_sum;
	p->fold_pmu_n = s->fold_pmu_n;
	p->read_pmu_sum = s->read_pmu_sum;
	p->read_pmu_n = s->read_pmu_n;
}

void
stats_pmu_rate_finish(const struct stats_pmu_conf *c, struct stats_pmu_rate *r)
{
	unsigned int i;

	r->conf = c;
	for (i = 0; i < r->d.n; i++)
		r->per_pkt[i] = r->packets ? r->d.v[i] / (double)r->packets : 0;
	r->ipc = stats_pmu_ipc(c, &r->d);
}

int
stats_pmu_between(const struct stats_snapshot *a, const struct stats_snapshot *b,
		  int w, struct stats_pmu_rate *r)
{
	unsigned int i, k, lo, hi;

	if (r == NULL)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->ipc = NAN;
	if (a == NULL || b == NULL || b->pmu == NULL ||
	    (w >= 0 && ((unsigned int)w >= b->n_workers ||
			(unsigned int)w >= a->n_workers)))
		return -EINVAL;
	lo = w < 0 ? 0 : (unsigned int)w;
	hi = w < 0 ? b->n_workers : (unsigned int)w + 1;
	r->d.n = (uint8_t)b->pmu->n;
	r->d.known = b->thread != NULL && lo < hi;
	for (i = lo; i < hi; i++) {
		const struct stats_thread *x = a->thread ? &a->thread[i] : NULL;
		const struct stats_thread *y = b->thread ? &b->thread[i] : NULL;
		const uint64_t *pa = a->raw_per_block + (size_t)i * MIB_FIELD_MAX;
		const uint64_t *pb = b->raw_per_block + (size_t)i * MIB_FIELD_MAX;
		unsigned int f = MIB_F(RX, PACKETS);
		struct stats_pmu_delta d;

		r->packets += pb[f] > pa[f] ? pb[f] - pa[f] : 0;
		if (y == NULL || !y->pmu.known) {
			r->d.known = false;
			continue;
		}
		/* not begun at a: counted from its begin, where it opened */
		stats_pmu_delta(x != NULL && x->known ? &x->pmu : NULL, &y->pmu, &d);
		if (!d.known) {
			r->d.known = false;
			continue;
		}
		r->d.scaled |= d.scaled;
		r->d.enabled_ns += d.enabled_ns;
		r->d.running_ns += d.running_ns;
		for (k = 0; k < d.n && k < r->d.n; k++)
			r->d.v[k] += d.v[k];
	}
	if (!r->d.known)
		memset(r->d.v, 0, sizeof(r->d.v));
	stats_pmu_rate_finish(b->pmu, r);
	return 0;
}

/* What field f of block i grew by from a (NULL: 0) to b. */
static uint64_t
__stage_pmu_grown(const struct stats_snapshot *a, const struct stats_snapshot *b,
		  unsigned int i, unsigned int f)
{
	uint64_t x = a != NULL ? a->raw_per_block[(size_t)i * MIB_FIELD_MAX + f] : 0;
	uint64_t y = b->raw_per_block[(size_t)i * MIB_FIELD_MAX + f];

	return y > x ? y - x : 0;
}

int
stats_pmu_stage_between(const struct stats_snapshot *a, const struct stats_snapshot *b,
			int w, unsigned int stage, struct stats_pmu_rate *r)
{
	unsigned int i, k, lo, hi;

	if (r == NULL)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->ipc = NAN;
	if (b == NULL || b->pmu == NULL || stage >= MIB_STAGES ||
	    (w >= 0 && ((unsigned int)w >= b->n_workers ||
			(a != NULL && (unsigned int)w >= a->n_workers))))
		return -EINVAL;
	lo = w < 0 ? 0 : (unsigned int)w;
	hi = w < 0 ? b->n_workers : (unsigned int)w + 1;
	r->d.n = (uint8_t)b->pmu->n;
	r->d.known = b->thread != NULL && lo < hi;
	/* every worker's packets, as stats_pmu_between() counts them, even
	 * when one's group is unknown (the events are then unknown) */
	for (i = lo; i < hi && b->thread != NULL; i++) {
		const struct stats_thread *x =
			a != NULL && a->thread != NULL && a->thread[i].known
				? &a->thread[i]
				: NULL;
		const struct stats_thread *y = &b->thread[i];
		struct stats_pmu_delta d;
		double scale = 1;

		r->packets += __stage_pmu_grown(a, b, i,
						MIB_STAGE_F(stage, MIB_STAGE_K_PACKETS));
		if (!y->known || !y->pmu.known) {
			r->d.known = false;
			continue;
		}
		/* The group over the same window: its scale is the stage's. */
		stats_pmu_delta(x != NULL ? &x->pmu : NULL, &y->pmu, &d);
		if (!d.known) {
			r->d.known = false;
			continue;
		}
		if (d.scaled)
			scale = (double)d.enabled_ns / (double)d.running_ns;
		r->d.scaled |= d.scaled;
		r->d.enabled_ns += d.enabled_ns;
		r->d.running_ns += d.running_ns;
		for (k = 0; k < r->d.n; k++) {
			uint64_t v0 = x != NULL ? x->stage_pmu[stage][k] : 0;
			uint64_t v1 = y->stage_pmu[stage][k];

			r->d.v[k] += (double)(v1 > v0 ? v1 - v0 : 0) * scale;
		}
	}
	if (!r->d.known)
		memset(r->d.v, 0, sizeof(r->d.v));
	stats_pmu_rate_finish(b->pmu, r);
	return 0;
}

int
__stats_pmu_summary(const struct stats *s, const struct stats_snapshot *from,
		    const struct stats_snapshot *to, struct stats_summary *sum)
{
	unsigned int w;

	if (s->conf.pmu == NULL || to->pmu == NULL)
		return 0;
	sum->pmu = calloc(sum->n_workers + 1, sizeof(*sum->pmu));
	if (sum->pmu == NULL)
		return -ENOMEM;
	/* after an explicit warm-up; else (none, or one the application
	 * detects later from the run's history) the whole run */
	sum->pmu_steady = sum->steady_valid && s->conf.warmup_s > 0;
	if (!sum->pmu_steady)
		from = s->first;
	for (w = 0; w < sum->n_workers; w++)
		stats_pmu_between(from, to, (int)w, &sum->pmu[w]);
	stats_pmu_between(from, to, -1, &sum->pmu[sum->n_workers]);
	sum->pmu_stage = calloc((size_t)(sum->n_workers + 1) * MIB_STAGES,
				sizeof(*sum->pmu_stage));
	if (sum->pmu_stage == NULL)
		return -ENOMEM;
	__stats_pmu_stages(from, to, sum->n_workers, sum->pmu_stage);
	return 0;
}
