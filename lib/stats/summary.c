/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run's summary (stats_summary()): its rates from the first snapshot
 * to the last and over the steady part, the quantiles of the scheduled and
 * the read folds' durations, --pmu's and --perf-detail's steady figures.
 * Reads the stats object's snapshots under its lock; folds nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "base.h"
#include "stats.h"
#include "stats_pvt.h"

/* Percentiles of the last (at most STATS_FOLD_RING) durations of a ring
 * holding n in all. */
static void
__ring_quantiles(const double *ring, uint64_t n, double *p50, double *p99)
{
	unsigned int k = (unsigned int)RTE_MIN(n, (uint64_t)STATS_FOLD_RING);
	double *v = k > 0 ? malloc(k * sizeof(*v)) : NULL;

	*p50 = *p99 = 0;
	if (v == NULL)
		return;
	memcpy(v, ring, k * sizeof(*v));
	*p50 = base_median(v, k, NULL, NULL);
	*p99 = base_quantile(v, k, 0.99);
	free(v);
}

static void
__summary_folds(struct stats *s, struct stats_summary *sum)
{
	pthread_mutex_lock(&s->lock);
	sum->folds = s->fold_ring_n;
	__ring_quantiles(s->fold_ring, s->fold_ring_n, &sum->fold_p50_ns,
			 &sum->fold_p99_ns);
	sum->read_folds = s->read_folds;
	__ring_quantiles(s->read_ring, s->read_folds, &sum->read_fold_p50_ns,
			 &sum->read_fold_p99_ns);
	pthread_mutex_unlock(&s->lock);
}

struct stats_summary *
stats_summary(struct stats *s)
{
	struct stats_summary *sum;
	const struct stats_snapshot *a, *z, *w;
	unsigned int i;

	pthread_mutex_lock(&s->lock);
	a = s->first;
	z = s->final ? s->final : s->latest;
	w = s->warm;
	pthread_mutex_unlock(&s->lock);
	if (a == NULL || z == NULL)
		return NULL;
	sum = calloc(1, sizeof(*sum));
	if (sum == NULL)
		return NULL;
	sum->n_workers = s->conf.n_workers;
	sum->lcore = calloc(sum->n_workers + 1, sizeof(*sum->lcore));
	sum->lcore_steady = calloc(sum->n_workers + 1, sizeof(*sum->lcore_steady));
	if (sum->lcore == NULL || sum->lcore_steady == NULL) {
		stats_summary_free(sum);
		return NULL;
	}
	stats_rate_between(a, z, -1, &sum->total);
	for (i = 0; i < sum->n_workers; i++)
		stats_rate_between(a, z, (int)i, &sum->lcore[i]);
	if (w == NULL || w == z || w->tsc >= z->tsc) {
		snprintf(sum->steady_reason, sizeof(sum->steady_reason),
			 "the run (%.2f s) ended before the warm-up (%.2f s) was over",
			 sum->total.seconds, s->conf.warmup_s);
	} else {
		double win = s->hz ? (double)(z->tsc - w->tsc) / (double)s->hz : 0;

		sum->steady_valid = win >= 0.95 * s->conf.interval_s;
		if (!sum->steady_valid)
			snprintf(sum->steady_reason, sizeof(sum->steady_reason),
				 "only %.3f s after the warm-up (%.2f s), less than one "
				 "stats interval (%.2f s)",
				 win, s->conf.warmup_s, s->conf.interval_s);
	}
	__summary_folds(s, sum);
	if (sum->steady_valid) {
		stats_rate_between(w, z, -1, &sum->steady);
		for (i = 0; i < sum->n_workers; i++)
			stats_rate_between(w, z, (int)i, &sum->lcore_steady[i]);
	}
	if (__stats_pmu_summary(s, sum->steady_valid ? w : a, z, sum) != 0) {
		stats_summary_free(sum);
		return NULL;
	}
	if (s->conf.perf != NULL && z->raw_hist != NULL) {
		const struct stats_snapshot *from = sum->steady_valid ? w : a;
		size_t k;

		sum->hist = calloc(__n_hist(s), sizeof(*sum->hist));
		if (sum->hist == NULL) {
			stats_summary_free(sum);
			return NULL;
		}
		sum->hist_steady = sum->steady_valid;
		sum->hist_max_exact = true;
		for (k = 0; k < (size_t)sum->n_workers * STATS_PERF_MAX; k++)
			sum->hist_max_exact &= stats_hist_delta(
				&sum->hist[k], &z->raw_hist[k], &from->raw_hist[k]);
	}
	return sum;
}

void
stats_summary_free(struct stats_summary *sum)
{
	if (sum == NULL)
		return;
	free(sum->lcore);
	free(sum->lcore_steady);
	free(sum->hist);
	free(sum->pmu);
	free(sum->pmu_stage);
	free(sum);
}
