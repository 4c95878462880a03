/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A run's history of folds (stats_series.h) and its steady state.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "stats.h"
#include "stats_series.h"

struct __series_point {
	double uptime_s;
	uint64_t tsc;
	uint64_t *v;	/* (n_workers + 1) x STATS_SERIES_F_MAX, the total last */
};

struct stats_series {
	unsigned int n_workers;
	double min_gap_s;
	uint64_t hz;
	unsigned int n, cap;
	struct __series_point *p;
};

struct stats_series *
stats_series_create(unsigned int n_workers, double min_gap_s)
{
	struct stats_series *se = calloc(1, sizeof(*se));

	if (se != NULL) {
		se->n_workers = n_workers;
		se->min_gap_s = min_gap_s > 0 ? min_gap_s : 0;
	}
	return se;
}

uint64_t
stats_series_bytes(unsigned int n_workers, uint64_t points)
{
	/* each point's values with the allocator's header, and the array of
	 * points, which doubles: twice what it holds at most */
	uint64_t v = ((uint64_t)(n_workers + 1) * STATS_SERIES_F_MAX *
		      sizeof(uint64_t) + 8 + 15) / 16 * 16;

	return points * (v + 2 * sizeof(struct __series_point));
}

void
stats_series_free(struct stats_series *se)
{
	unsigned int i;

	if (se == NULL)
		return;
	for (i = 0; i < se->n; i++)
		free(se->p[i].v);
	free(se->p);
	free(se);
}

static const unsigned int __rx_field[4] = {
	[STATS_SERIES_PACKETS] = MIB_F(RX, PACKETS),
	[STATS_SERIES_OCTETS] = MIB_F(RX, OCTETS),
	[STATS_SERIES_BUSY] = MIB_F(RX, BUSYCYCLES),
	[STATS_SERIES_IDLE] = MIB_F(RX, IDLECYCLES),
};

/* A snapshot's values, laid out as a point's. */
static void
__series_take(unsigned int n_workers, const struct stats_snapshot *snap,
	      uint64_t *v)
{
	uint64_t *tot = v + (size_t)n_workers * STATS_SERIES_F_MAX;
	unsigned int w, k, m;

	memset(v, 0, (size_t)(n_workers + 1) * STATS_SERIES_F_MAX * sizeof(*v));
	for (w = 0; w < n_workers; w++)
		for (k = 0; k < RTE_DIM(__rx_field); k++)
			v[(size_t)w * STATS_SERIES_F_MAX + k] =
				snap->raw_per_block[(size_t)w * MIB_FIELD_MAX +
						    __rx_field[k]];
	for (k = 0; k < RTE_DIM(__rx_field); k++)
		tot[k] = snap->raw_totals[__rx_field[k]];
	tot[STATS_SERIES_RULEUPDATES] = snap->raw_totals[MIB_F(INGRESS, RULEUPDATES)];
	tot[STATS_SERIES_MODEFLIPS] = snap->raw_totals[MIB_F(INGRESS, MODEFLIPS)];
	for (m = 0; m < MIB_MODES; m++)
		tot[STATS_SERIES_MODE0 + m] =
			snap->raw_totals[MIB_MODE_F(m, MIB_MODE_K_PACKETS)];
}

int
stats_series_add(struct stats_series *se, const struct stats_snapshot *snap)
{
	struct __series_point *pt;

	if (se == NULL || snap == NULL || snap->n_workers != se->n_workers ||
	    (se->n > 0 && snap->tsc <= se->p[se->n - 1].tsc))
		return -EINVAL;
	if (se->n > 0 && snap->tsc_hz > 0 &&
	    (double)(snap->tsc - se->p[se->n - 1].tsc) <
	    se->min_gap_s * (double)snap->tsc_hz)
		return 1;
	if (se->n == se->cap) {
		unsigned int cap = se->cap ? 2 * se->cap : 64;
		struct __series_point *p = realloc(se->p, cap * sizeof(*p));

		if (p == NULL)
			return -ENOMEM;
		se->p = p;
		se->cap = cap;
	}
	pt = &se->p[se->n];
	pt->v = malloc((size_t)(se->n_workers + 1) * STATS_SERIES_F_MAX *
		       sizeof(uint64_t));
	if (pt->v == NULL)
		return -ENOMEM;
	__series_take(se->n_workers, snap, pt->v);
	pt->tsc = snap->tsc;
	pt->uptime_s = snap->uptime_s;
	se->hz = snap->tsc_hz;
	se->n++;
	return 0;
}

unsigned int
stats_series_workers(const struct stats_series *se)
{
	return se != NULL ? se->n_workers : 0;
}

unsigned int
stats_series_count(const struct stats_series *se)
{
	return se != NULL ? se->n : 0;
}

double
stats_series_uptime(const struct stats_series *se, unsigned int i)
{
	return se != NULL && i < se->n ? se->p[i].uptime_s : NAN;
}

static const uint64_t *
__row(const uint64_t *v, unsigned int n_workers, int w)
{
	return v + (size_t)(w < 0 ? n_workers : (unsigned int)w) * STATS_SERIES_F_MAX;
}

uint64_t
stats_series_value(const struct stats_series *se, unsigned int i, int w,
		   enum stats_series_field f)
{
	if (se == NULL || i >= se->n || (unsigned int)f >= STATS_SERIES_F_MAX ||
	    (w >= 0 && (unsigned int)w >= se->n_workers))
		return 0;
	return __row(se->p[i].v, se->n_workers, w)[f];
}

static uint64_t
__grew(const uint64_t *x, const uint64_t *y, unsigned int f)
{
	return y[f] >= x[f] ? y[f] - x[f] : 0;
}

static void
__series_rate(const uint64_t *x, const uint64_t *y, uint64_t t0, uint64_t t1,
	      uint64_t hz, struct stats_rate *r)
{
	double dt = t1 > t0 && hz > 0 ? (double)(t1 - t0) / (double)hz : 0;

	stats_rate_compute(r, __grew(x, y, STATS_SERIES_PACKETS),
			   __grew(x, y, STATS_SERIES_OCTETS),
			   __grew(x, y, STATS_SERIES_BUSY),
			   __grew(x, y, STATS_SERIES_IDLE), dt);
}

int
stats_series_rate(const struct stats_series *se, unsigned int i, unsigned int j,
		  int w, struct stats_rate *r)
{
	if (se == NULL || r == NULL || i >= j || j >= se->n ||
	    (w >= 0 && (unsigned int)w >= se->n_workers))
		return -EINVAL;
	__series_rate(__row(se->p[i].v, se->n_workers, w),
		      __row(se->p[j].v, se->n_workers, w), se->p[i].tsc,
		      se->p[j].tsc, se->hz, r);
	return 0;
}

unsigned int
stats_series_mpps(const struct stats_series *se, unsigned int first, double *mpps)
{
	struct stats_rate r;
	unsigned int k, n = 0;

	for (k = first; se != NULL && k + 1 < se->n; k++) {
		stats_series_rate(se, k, k + 1, -1, &r);
		mpps[n++] = r.pps / 1e6;
	}
	return n;
}

/* sum's steady rates from point i to final. */
static void
__steady_from(const struct stats_series *se, unsigned int i,
	      const struct stats_snapshot *final, struct stats_summary *sum)
{
	uint64_t *v = malloc((size_t)(se->n_workers + 1) * STATS_SERIES_F_MAX *
			     sizeof(uint64_t));
	unsigned int w;

	if (v == NULL) {
		sum->steady_valid = false;
		snprintf(sum->steady_reason, sizeof(sum->steady_reason),
			 "out of memory");
		return;
	}
	__series_take(se->n_workers, final, v);
	__series_rate(__row(se->p[i].v, se->n_workers, -1),
		      __row(v, se->n_workers, -1), se->p[i].tsc, final->tsc,
		      final->tsc_hz, &sum->steady);
	for (w = 0; w < sum->n_workers && w < se->n_workers; w++)
		__series_rate(__row(se->p[i].v, se->n_workers, (int)w),
			      __row(v, se->n_workers, (int)w), se->p[i].tsc,
			      final->tsc, final->tsc_hz, &sum->lcore_steady[w]);
	free(v);
}

int
stats_series_steady(const struct stats_series *se,
		    const struct stats_snapshot *final, double interval_s,
		    double warmup_s, struct stats_summary *sum,
		    struct stats_steady *st)
{
	unsigned int n, first = 0, k;
	double *mpps;
	int rc;

	if (se == NULL || st == NULL || sum == NULL || final == NULL)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->start_s = -1;
	n = se->n > 0 ? se->n - 1 : 0;
	st->intervals = n;
	mpps = calloc(n ? n : 1, sizeof(*mpps));
	if (mpps == NULL)
		return -ENOMEM;
	stats_series_mpps(se, 0, mpps);
	if (warmup_s >= 0) {
		double slack = fmin(0.05 * interval_s, 0.05);

		st->explicit_warmup = true;
		for (k = 0; k < n && se->p[k].uptime_s + slack < warmup_s; k++)
			;
		first = k;
		if (first < n)
			st->start_s = se->p[first].uptime_s;
	} else {
		rc = stats_warmup_detect(mpps, n, &first);
		if (rc != 0) {
			snprintf(st->why, sizeof(st->why), "warm-up detection needs "
				 "%u intervals, the run had %u (--warmup SECONDS "
				 "sets it by hand)", STATS_WARMUP_MIN_INTERVALS, n);
			sum->steady_valid = false;
			snprintf(sum->steady_reason, sizeof(sum->steady_reason),
				 "%s", st->why);
			memset(&sum->steady, 0, sizeof(sum->steady));
			first = n;
		} else {
			double win;

			st->detected = true;
			st->at_limit = first > 0 && first == n / 2;
			st->start_s = se->p[first].uptime_s;
			win = final->tsc > se->p[first].tsc && final->tsc_hz > 0 ?
			      (double)(final->tsc - se->p[first].tsc) /
			      (double)final->tsc_hz : 0;
			sum->steady_valid = win >= 0.95 * interval_s;
			if (sum->steady_valid) {
				sum->steady_reason[0] = '\0';
				__steady_from(se, first, final, sum);
			} else {
				snprintf(sum->steady_reason, sizeof(sum->steady_reason),
					 "only %.3f s after the detected warm-up "
					 "(%.2f s), less than one stats interval "
					 "(%.2f s)", win, st->start_s, interval_s);
			}
		}
	}
	st->first_interval = first;
	stats_spread_of(mpps + first, first < n ? n - first : 0, &st->spread);
	/* a CV of 2 samples says little: no verdict below 3 */
	st->unstable = st->spread.n >= 3 && st->spread.cv > STATS_CV_UNSTABLE;
	free(mpps);
	return 0;
}
