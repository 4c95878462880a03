/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_SERIES_PVT_H
#define PKTPATH_SERIES_PVT_H

/* A series' internals, shared by series.c (the points, the rates) and
 * series_steady.c (the steady state); not for other modules. */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "stats.h"
#include "stats_series.h"

struct __series_point {
	double uptime_s;
	double late_s;
	uint64_t tsc;
	uint64_t *v; /* (n_workers + 1) x STATS_SERIES_F_MAX, the total last */
	struct stats_pmu_count *pmu; /* --pmu: each worker's group, or NULL */
};

struct stats_series {
	/* held by stats_series_add() and by a reader on another thread
	 * (stats_series_lock()): the points change under it */
	pthread_mutex_t lock;
	unsigned int n_workers;
	double min_gap_s;
	double lost_share;
	uint64_t hz;
	unsigned int n, cap;
	unsigned int max_points; /* 0: no bound */
	uint64_t dropped;	 /* points the window dropped */
	struct __series_point *p;
	struct stats_pmu_conf pmu; /* --pmu: the first point's events */
};

static inline size_t
__stats_series_row_len(unsigned int n_workers)
{
	return (size_t)(n_workers + 1) * STATS_SERIES_F_MAX;
}

/* What field f grew by from row x to row y (0 if it went back). */
static inline uint64_t
__stats_series_grew(const uint64_t *x, const uint64_t *y, unsigned int f)
{
	return y[f] >= x[f] ? y[f] - x[f] : 0;
}

/* A snapshot's values, laid out as a point's (n_workers rows and the
 * total, __stats_series_row_len() values in v). */
void __stats_series_take(unsigned int n_workers, const struct stats_snapshot *snap,
			 uint64_t *v);

/* Whether any worker of rows xs -> ys (TSC t0 -> t1, hz) lost its share. */
bool __stats_series_rows_lost(const struct stats_series *se, const uint64_t *xs,
			      const uint64_t *ys, uint64_t t0, uint64_t t1, uint64_t hz);

#endif /* PKTPATH_SERIES_PVT_H */
