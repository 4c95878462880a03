/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A run's history of folds (stats_series.h); its steady state is
 * series_steady.c's.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "base.h"
#include "stats.h"
#include "series_pvt.h"

struct stats_series *
stats_series_create(unsigned int n_workers, double min_gap_s, double lost_share)
{
	struct stats_series *se = calloc(1, sizeof(*se));

	if (se != NULL) {
		pthread_mutex_init(&se->lock, NULL);
		se->n_workers = n_workers;
		se->min_gap_s = min_gap_s > 0 ? min_gap_s : 0;
		se->lost_share = lost_share > 0 ? lost_share : STATS_LOST_SHARE_DEFAULT;
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

unsigned int
stats_series_points_in(unsigned int n_workers, uint64_t bytes)
{
	uint64_t per = stats_series_bytes(n_workers, 1);
	uint64_t n = per > 0 ? bytes / per : 0;

	return n < 2 ? 2 : n > UINT32_MAX / 2 ? UINT32_MAX / 2 : (unsigned int)n;
}

int
stats_series_window(struct stats_series *se, unsigned int max_points)
{
	if (se == NULL || max_points == 1 || (max_points != 0 && se->n > max_points))
		return -EINVAL;
	se->max_points = max_points;
	return 0;
}

uint64_t
stats_series_dropped(const struct stats_series *se)
{
	return se != NULL ? se->dropped : 0;
}

void
stats_series_free(struct stats_series *se)
{
	unsigned int i;

	if (se == NULL)
		return;
	for (i = 0; i < se->n; i++) {
		free(se->p[i].v);
		free(se->p[i].pmu);
	}
	free(se->p);
	pthread_mutex_destroy(&se->lock);
	free(se);
}

void
stats_series_lock(const struct stats_series *se)
{
	pthread_mutex_lock(&((struct stats_series *)(uintptr_t)se)->lock);
}

void
stats_series_unlock(const struct stats_series *se)
{
	pthread_mutex_unlock(&((struct stats_series *)(uintptr_t)se)->lock);
}

static const unsigned int __rx_field[] = {
	[STATS_SERIES_PACKETS] = MIB_F(RX, PACKETS),
	[STATS_SERIES_OCTETS] = MIB_F(RX, OCTETS),
	[STATS_SERIES_BUSY] = MIB_F(RX, BUSYCYCLES),
	[STATS_SERIES_IDLE] = MIB_F(RX, IDLECYCLES),
	[STATS_SERIES_STALLCYCLES] = MIB_F(RX, LOSTCYCLES),
	[STATS_SERIES_STALLPOLLS] = MIB_F(RX, LOSTPOLLS),
};

void
__stats_series_take(unsigned int n_workers, const struct stats_snapshot *snap,
		    uint64_t *v)
{
	uint64_t *tot = v + (size_t)n_workers * STATS_SERIES_F_MAX;
	unsigned int w, k, m;

	memset(v, 0, __stats_series_row_len(n_workers) * sizeof(*v));
	for (w = 0; w < n_workers; w++) {
		uint64_t *row = v + (size_t)w * STATS_SERIES_F_MAX;
		const struct stats_thread *t = snap->thread ? &snap->thread[w] : NULL;

		for (k = 0; k < RTE_DIM(__rx_field); k++)
			row[k] = snap->raw_per_block[(size_t)w * MIB_FIELD_MAX +
						     __rx_field[k]];
		if (t != NULL && t->known) {
			row[STATS_SERIES_LOSTNS] = t->lost_ns;
			row[STATS_SERIES_IVCSW] = t->ivcsw;
			row[STATS_SERIES_VCSW] = t->vcsw;
			row[STATS_SERIES_KNOWN] = 1;
			row[STATS_SERIES_STATE] = (uint64_t)(unsigned char)t->state;
			tot[STATS_SERIES_LOSTNS] += t->lost_ns;
			tot[STATS_SERIES_IVCSW] += t->ivcsw;
			tot[STATS_SERIES_VCSW] += t->vcsw;
			tot[STATS_SERIES_KNOWN]++;
		}
	}
	for (k = 0; k < RTE_DIM(__rx_field); k++)
		tot[k] = snap->raw_totals[__rx_field[k]];
	tot[STATS_SERIES_RULEUPDATES] = snap->raw_totals[MIB_F(INGRESS, RULEUPDATES)];
	tot[STATS_SERIES_MODEFLIPS] = snap->raw_totals[MIB_F(INGRESS, MODEFLIPS)];
	for (m = 0; m < MIB_MODES; m++) {
		tot[STATS_SERIES_MODE0 + m] =
			snap->raw_totals[MIB_MODE_F(m, MIB_MODE_K_PACKETS)];
		tot[STATS_SERIES_MODECYC0 + m] =
			snap->raw_totals[MIB_MODE_F(m, MIB_MODE_K_BUSY)] +
			snap->raw_totals[MIB_MODE_F(m, MIB_MODE_K_IDLE)] +
			snap->raw_totals[MIB_MODE_F(m, MIB_MODE_K_LOST)];
	}
}

struct stats_series *
stats_series_copy(const struct stats_series *se)
{
	struct stats_series *lk = (struct stats_series *)(uintptr_t)se;
	const size_t row = __stats_series_row_len(se->n_workers) * sizeof(uint64_t);
	const size_t pb =
		(se->n_workers ? se->n_workers : 1) * sizeof(struct stats_pmu_count);
	struct stats_series *c;
	bool ok = true;
	unsigned int i;

	c = stats_series_create(se->n_workers, se->min_gap_s, se->lost_share);
	if (c == NULL)
		return NULL;
	pthread_mutex_lock(&lk->lock);
	c->hz = se->hz;
	c->max_points = se->max_points;
	c->dropped = se->dropped;
	c->pmu = se->pmu;
	if (se->n > 0) {
		c->p = calloc(se->n, sizeof(*c->p));
		c->cap = se->n;
		ok = c->p != NULL;
	}
	for (i = 0; ok && i < se->n; i++) {
		const struct __series_point *f = &se->p[i];
		struct __series_point *t = &c->p[i];

		*t = *f;
		t->v = malloc(row);
		t->pmu = f->pmu != NULL ? malloc(pb) : NULL;
		c->n = i + 1; /* freed with the copy, even half made */
		ok = t->v != NULL && (f->pmu == NULL || t->pmu != NULL);
		if (ok) {
			memcpy(t->v, f->v, row);
			if (f->pmu != NULL)
				memcpy(t->pmu, f->pmu, pb);
		}
	}
	pthread_mutex_unlock(&lk->lock);
	if (!ok) {
		stats_series_free(c);
		return NULL;
	}
	return c;
}

static int __series_add(struct stats_series *se, const struct stats_snapshot *snap);

int
stats_series_add(struct stats_series *se, const struct stats_snapshot *snap)
{
	int rc;

	if (se == NULL)
		return -EINVAL;
	pthread_mutex_lock(&se->lock);
	rc = __series_add(se, snap);
	pthread_mutex_unlock(&se->lock);
	return rc;
}

static int
__series_add(struct stats_series *se, const struct stats_snapshot *snap)
{
	struct __series_point *pt;

	if (snap == NULL || snap->n_workers != se->n_workers ||
	    (se->n > 0 && snap->tsc <= se->p[se->n - 1].tsc))
		return -EINVAL;
	if (se->n > 0 && snap->tsc_hz > 0 &&
	    (double)(snap->tsc - se->p[se->n - 1].tsc) <
	    se->min_gap_s * (double)snap->tsc_hz)
		return 1;
	if (se->max_points != 0 && se->n == se->max_points) {
		/* the window is full: the oldest point goes (one memmove of
		 * the point array a fold; the values stay where they are) */
		free(se->p[0].v);
		free(se->p[0].pmu);
		memmove(&se->p[0], &se->p[1], (se->n - 1) * sizeof(se->p[0]));
		se->n--;
		se->dropped++;
	}
	if (se->n == se->cap) {
		unsigned int cap = se->cap ? 2 * se->cap : 64;
		struct __series_point *p;

		if (se->max_points != 0 && cap > se->max_points)
			cap = se->max_points;
		p = realloc(se->p, cap * sizeof(*p));
		if (p == NULL)
			return -ENOMEM;
		se->p = p;
		se->cap = cap;
	}
	pt = &se->p[se->n];
	pt->v = malloc(__stats_series_row_len(se->n_workers) * sizeof(uint64_t));
	if (pt->v == NULL)
		return -ENOMEM;
	__stats_series_take(se->n_workers, snap, pt->v);
	pt->pmu = NULL;
	if (snap->pmu != NULL && snap->thread != NULL) {
		unsigned int w;

		pt->pmu = malloc((se->n_workers ? se->n_workers : 1) * sizeof(*pt->pmu));
		if (pt->pmu == NULL) {
			free(pt->v);
			return -ENOMEM;
		}
		for (w = 0; w < se->n_workers; w++)
			pt->pmu[w] = snap->thread[w].pmu;
		se->pmu = *snap->pmu;
	}
	pt->tsc = snap->tsc;
	pt->uptime_s = snap->uptime_s;
	pt->late_s = snap->late_s;
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

double
stats_series_late(const struct stats_series *se, unsigned int i)
{
	return se != NULL && i < se->n ? se->p[i].late_s : NAN;
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

/*
 * The rates between two rows x and y of worker w (or the total, w < 0),
 * taken at t0 and t1, lost time included (as stats_rate_between() gives
 * it). A total's lost time is known when every worker's is; its cause is
 * the cause of the worker that lost the most (xs, ys: the points' whole
 * rows, for the per-worker states).
 */
static void
__series_rate(const struct stats_series *se, const uint64_t *xs,
	      const uint64_t *ys, int w, uint64_t t0, uint64_t t1, uint64_t hz,
	      struct stats_rate *r)
{
	const uint64_t *x = __row(xs, se->n_workers, w), *y = __row(ys, se->n_workers, w);
	double dt = t1 > t0 && hz > 0 ? (double)(t1 - t0) / (double)hz : 0;
	unsigned int i, lo = w < 0 ? 0 : (unsigned int)w,
		     hi = w < 0 ? se->n_workers : (unsigned int)w + 1;
	double worst = 0;
	uint8_t cause = STATS_LOST_NONE;

	stats_rate_compute(r, __stats_series_grew(x, y, STATS_SERIES_PACKETS),
			   __stats_series_grew(x, y, STATS_SERIES_OCTETS),
			   __stats_series_grew(x, y, STATS_SERIES_BUSY),
			   __stats_series_grew(x, y, STATS_SERIES_IDLE), dt);
	r->stalled_polls = __stats_series_grew(x, y, STATS_SERIES_STALLPOLLS);
	r->stalled_s = hz ? (double)__stats_series_grew(x, y, STATS_SERIES_STALLCYCLES) /
				       (double)hz
			  : 0;
	r->lost_known = lo < hi;
	for (i = lo; i < hi; i++) {
		const uint64_t *a = __row(xs, se->n_workers, (int)i);
		const uint64_t *b = __row(ys, se->n_workers, (int)i);
		double lost;

		if (!b[STATS_SERIES_KNOWN]) {
			r->lost_known = false;
			continue;
		}
		lost = (double)__stats_series_grew(a, b, STATS_SERIES_LOSTNS) / 1e9;
		r->lost_s += lost;
		if (lost > se->lost_share * dt)
			r->lost_flag = true;
		r->involuntary_switches += __stats_series_grew(a, b, STATS_SERIES_IVCSW);
		if (lost > worst) {
			worst = lost;
			cause = (uint8_t)stats_lost_cause_of(
				(char)b[STATS_SERIES_STATE],
				__stats_series_grew(a, b, STATS_SERIES_IVCSW),
				__stats_series_grew(a, b, STATS_SERIES_VCSW));
		}
	}
	r->lost_cause = r->lost_flag ? cause : STATS_LOST_NONE;
}

int
stats_series_rate(const struct stats_series *se, unsigned int i, unsigned int j,
		  int w, struct stats_rate *r)
{
	if (se == NULL || r == NULL || i >= j || j >= se->n ||
	    (w >= 0 && (unsigned int)w >= se->n_workers))
		return -EINVAL;
	__series_rate(se, se->p[i].v, se->p[j].v, w, se->p[i].tsc, se->p[j].tsc,
		      se->hz, r);
	return 0;
}

int
stats_series_pmu(const struct stats_series *se, unsigned int i, unsigned int j,
		 int w, struct stats_pmu_rate *r)
{
	unsigned int k, e, lo = w < 0 ? 0 : (unsigned int)w,
		     hi = w < 0 ? se->n_workers : (unsigned int)w + 1;

	if (r == NULL)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	if (se == NULL || i >= j || j >= se->n || hi > se->n_workers ||
	    se->p[i].pmu == NULL || se->p[j].pmu == NULL)
		return -EINVAL;
	r->d.n = (uint8_t)se->pmu.n;
	r->d.known = lo < hi;
	for (k = lo; k < hi; k++) {
		const uint64_t *x = __row(se->p[i].v, se->n_workers, (int)k);
		struct stats_pmu_delta d;

		r->packets +=
			__stats_series_grew(x, __row(se->p[j].v, se->n_workers, (int)k),
					    STATS_SERIES_PACKETS);
		/* not begun at i: counted from its begin, where it opened */
		stats_pmu_delta(x[STATS_SERIES_KNOWN] ? &se->p[i].pmu[k] : NULL,
				&se->p[j].pmu[k], &d);
		r->d.known &= d.known;
		r->d.scaled |= d.scaled;
		for (e = 0; d.known && e < d.n && e < r->d.n; e++)
			r->d.v[e] += d.v[e];
	}
	if (!r->d.known)
		memset(r->d.v, 0, sizeof(r->d.v));
	stats_pmu_rate_finish(&se->pmu, r);
	return 0;
}

bool
__stats_series_rows_lost(const struct stats_series *se, const uint64_t *xs,
			 const uint64_t *ys, uint64_t t0, uint64_t t1, uint64_t hz)
{
	struct stats_rate r;

	__series_rate(se, xs, ys, -1, t0, t1, hz, &r);
	return stats_rate_lost(&r);
}

bool
stats_series_lost(const struct stats_series *se, unsigned int k)
{
	if (se == NULL || k + 1 >= se->n)
		return false;
	return __stats_series_rows_lost(se, se->p[k].v, se->p[k + 1].v, se->p[k].tsc,
					se->p[k + 1].tsc, se->hz);
}

/* Interval k's mode by its own counters alone. */
static int
__mode_of(const struct stats_series *se, unsigned int k)
{
	const uint64_t *x = __row(se->p[k].v, se->n_workers, -1);
	const uint64_t *y = __row(se->p[k + 1].v, se->n_workers, -1);
	unsigned int m;
	int at = STATS_SERIES_NONE;

	for (m = 0; m < MIB_MODES; m++) {
		if (__stats_series_grew(x, y, STATS_SERIES_MODE0 + m) == 0 &&
		    __stats_series_grew(x, y, STATS_SERIES_MODECYC0 + m) == 0)
			continue;
		if (at != STATS_SERIES_NONE)
			return STATS_SERIES_MIXED;
		at = (int)m;
	}
	return at;
}

/* An interval in which the workers counted nothing because they did not
 * run (lost) is in the mode they were in: a worker takes a flip at its
 * next burst, so its mode did not change while it did not run. */
int
stats_series_mode(const struct stats_series *se, unsigned int k)
{
	unsigned int j;
	int m;

	if (se == NULL || k + 1 >= se->n)
		return STATS_SERIES_NONE;
	for (j = k;; j--) {
		m = __mode_of(se, j);
		if (m != STATS_SERIES_NONE || j == 0 || !stats_series_lost(se, j))
			return m;
	}
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
