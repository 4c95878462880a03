/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A run's history of folds (stats_series.h) and its steady state.
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
#include "stats_series.h"

struct __series_point {
	double uptime_s;
	double late_s;
	uint64_t tsc;
	uint64_t *v;	/* (n_workers + 1) x STATS_SERIES_F_MAX, the total last */
	struct stats_pmu_count *pmu;	/* --pmu: each worker's group, or NULL */
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
	struct stats_pmu_conf pmu;	/* --pmu: the first point's events */
};

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

static inline size_t
__row_len(unsigned int n_workers)
{
	return (size_t)(n_workers + 1) * STATS_SERIES_F_MAX;
}

/* A snapshot's values, laid out as a point's. */
static void
__series_take(unsigned int n_workers, const struct stats_snapshot *snap,
	      uint64_t *v)
{
	uint64_t *tot = v + (size_t)n_workers * STATS_SERIES_F_MAX;
	unsigned int w, k, m;

	memset(v, 0, __row_len(n_workers) * sizeof(*v));
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
	const size_t row = __row_len(se->n_workers) * sizeof(uint64_t);
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
	pt->v = malloc(__row_len(se->n_workers) * sizeof(uint64_t));
	if (pt->v == NULL)
		return -ENOMEM;
	__series_take(se->n_workers, snap, pt->v);
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

static uint64_t
__grew(const uint64_t *x, const uint64_t *y, unsigned int f)
{
	return y[f] >= x[f] ? y[f] - x[f] : 0;
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

	stats_rate_compute(r, __grew(x, y, STATS_SERIES_PACKETS),
			   __grew(x, y, STATS_SERIES_OCTETS),
			   __grew(x, y, STATS_SERIES_BUSY),
			   __grew(x, y, STATS_SERIES_IDLE), dt);
	r->stalled_polls = __grew(x, y, STATS_SERIES_STALLPOLLS);
	r->stalled_s = hz ? (double)__grew(x, y, STATS_SERIES_STALLCYCLES) /
		       (double)hz : 0;
	r->lost_known = lo < hi;
	for (i = lo; i < hi; i++) {
		const uint64_t *a = __row(xs, se->n_workers, (int)i);
		const uint64_t *b = __row(ys, se->n_workers, (int)i);
		double lost;

		if (!b[STATS_SERIES_KNOWN]) {
			r->lost_known = false;
			continue;
		}
		lost = (double)__grew(a, b, STATS_SERIES_LOSTNS) / 1e9;
		r->lost_s += lost;
		if (lost > se->lost_share * dt)
			r->lost_flag = true;
		r->involuntary_switches += __grew(a, b, STATS_SERIES_IVCSW);
		if (lost > worst) {
			worst = lost;
			cause = (uint8_t)stats_lost_cause_of(
				(char)b[STATS_SERIES_STATE],
				__grew(a, b, STATS_SERIES_IVCSW),
				__grew(a, b, STATS_SERIES_VCSW));
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

		r->packets += __grew(x, __row(se->p[j].v, se->n_workers, (int)k),
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

/* Whether any worker of rows xs -> ys (dt seconds) lost its share. */
static bool
__rows_lost(const struct stats_series *se, const uint64_t *xs,
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
	return __rows_lost(se, se->p[k].v, se->p[k + 1].v, se->p[k].tsc,
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
		if (__grew(x, y, STATS_SERIES_MODE0 + m) == 0 &&
		    __grew(x, y, STATS_SERIES_MODECYC0 + m) == 0)
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

/* ---- the steady state ---------------------------------------------------- */

static const char *const iv_use_names[] = {
	[STATS_IV_KEPT] = "kept", [STATS_IV_WARMUP] = "warm-up",
	[STATS_IV_LOST] = "lost", [STATS_IV_MIXED] = "mixed", [STATS_IV_OUT] = "out",
};

const char *
stats_iv_use_name(enum stats_iv_use u)
{
	return BASE_ENUM_NAME(iv_use_names, u);
}

/* The use of a stretch's intervals: kept, lost, else before the first kept
 * (a warm-up) or out. */
static void
__mark(uint8_t *use, const unsigned int *iv, const bool *keep, const bool *lost,
       unsigned int n, unsigned int first)
{
	unsigned int j;

	if (use == NULL)
		return;
	for (j = 0; j < n; j++)
		use[iv[j]] = keep[j] ? STATS_IV_KEPT : lost[iv[j]] ? STATS_IV_LOST :
			     j < first ? STATS_IV_WARMUP : STATS_IV_OUT;
}

/* What a steady part adds up: per worker and the total (last), the
 * series' first ACC_F fields (packets, octets, busy, idle, the stalled
 * polls' cycles and count, lost ns, involuntary switches). */
#define ACC_F (STATS_SERIES_IVCSW + 1)

struct __acc {
	uint64_t *v;		/* (n_workers + 1) x ACC_F */
	double seconds;
};

static void
__acc_add(const struct stats_series *se, struct __acc *a, const uint64_t *xs,
	  const uint64_t *ys, double seconds)
{
	unsigned int w, k;

	for (w = 0; w <= se->n_workers; w++) {
		const uint64_t *x = xs + (size_t)w * STATS_SERIES_F_MAX;
		const uint64_t *y = ys + (size_t)w * STATS_SERIES_F_MAX;

		for (k = 0; k < ACC_F; k++)
			a->v[w * ACC_F + k] += __grew(x, y, k);
	}
	a->seconds += seconds;
}

/* The rates of what a holds, for worker w (the total: n_workers). The
 * intervals it adds lost less than their share: their lost time is said,
 * without a cause. */
static void
__acc_rate(const struct stats_series *se, const struct __acc *a,
	   unsigned int w, struct stats_rate *r)
{
	const uint64_t *v = a->v + (size_t)w * ACC_F;

	stats_rate_compute(r, v[STATS_SERIES_PACKETS], v[STATS_SERIES_OCTETS],
			   v[STATS_SERIES_BUSY], v[STATS_SERIES_IDLE], a->seconds);
	r->stalled_s = se->hz ? (double)v[STATS_SERIES_STALLCYCLES] / (double)se->hz : 0;
	r->stalled_polls = v[STATS_SERIES_STALLPOLLS];
	r->lost_s = (double)v[STATS_SERIES_LOSTNS] / 1e9;
	r->involuntary_switches = v[STATS_SERIES_IVCSW];
	r->lost_known = true;
}

static double
__iv_seconds(const struct stats_series *se, unsigned int k)
{
	return se->hz ? (double)(se->p[k + 1].tsc - se->p[k].tsc) / (double)se->hz : 0;
}

/*
 * The steady part of the stretch of intervals iv[0..n-1] (indices in the
 * run, consecutive): those that did not lose time, after the stretch's
 * warm-up (detected, or --warmup from the stretch's start). keep[j] says
 * which of iv are in it. *detected, *at_limit, *first (the first kept,
 * index into iv; n when none) as for a run; *undetected when too few to
 * detect. Returns the warm-up intervals left out.
 */
static unsigned int
__stretch(const struct stats_series *se, const unsigned int *iv, unsigned int n,
	  const bool *lost, double warmup_s, double interval_s, bool *keep,
	  bool *detected, bool *at_limit, unsigned int *first, bool *undetected)
{
	double *mpps = calloc(n ? n : 1, sizeof(*mpps));
	unsigned int *at = calloc(n ? n : 1, sizeof(*at));
	unsigned int j, u = 0, d = 0, warm = 0;

	*detected = *at_limit = *undetected = false;
	*first = n;
	if (n == 0 || mpps == NULL || at == NULL) {
		*undetected = n == 0 && warmup_s < 0;
		free(mpps);
		free(at);
		return 0;
	}
	for (j = 0; j < n; j++) {
		struct stats_rate r;

		keep[j] = false;
		if (lost[iv[j]])
			continue;
		stats_series_rate(se, iv[j], iv[j] + 1, -1, &r);
		mpps[u] = r.pps / 1e6;
		at[u++] = j;
	}
	if (warmup_s >= 0) {
		double slack = fmin(0.05 * interval_s, 0.05);
		double t0 = n ? se->p[iv[0]].uptime_s : 0;

		/* the run's warm-up counts from its start (0), a later
		 * stretch's from its own */
		if (iv[0] == 0)
			t0 = 0;
		for (d = 0; d < u && se->p[iv[at[d]]].uptime_s + slack < t0 + warmup_s; d++)
			;
	} else if (stats_warmup_detect(mpps, u, &d) == 0) {
		*detected = true;
		*at_limit = d > 0 && d == u / 2;
	} else {
		d = 0;
		*undetected = true;
	}
	for (j = 0; j < u; j++) {
		keep[at[j]] = j >= d;
		warm += j < d;
	}
	if (d < u)
		*first = at[d];
	free(mpps);
	free(at);
	return warm;
}

/* The spread of the kept intervals' total Mpps. */
static void
__kept_spread(const struct stats_series *se, const unsigned int *iv,
	      const bool *keep, unsigned int n, struct stats_spread *sp,
	      bool *unstable)
{
	double *v = calloc(n ? n : 1, sizeof(*v));
	unsigned int j, m = 0;

	memset(sp, 0, sizeof(*sp));
	*unstable = false;
	if (v == NULL)
		return;
	for (j = 0; j < n; j++) {
		struct stats_rate r;

		if (!keep[j])
			continue;
		stats_series_rate(se, iv[j], iv[j] + 1, -1, &r);
		v[m++] = r.pps / 1e6;
	}
	stats_spread_of(v, m, sp);
	/* a CV of 2 samples says little: no verdict below 3 */
	*unstable = sp->n >= 3 && sp->cv > STATS_CV_UNSTABLE;
	free(v);
}

static int
__acc_init(const struct stats_series *se, struct __acc *a)
{
	a->seconds = 0;
	a->v = calloc((size_t)(se->n_workers + 1) * ACC_F, sizeof(uint64_t));
	return a->v != NULL ? 0 : -ENOMEM;
}

/* The run's single steady state (the mode did not change). */
static int
__steady_run(const struct stats_series *se, const struct stats_snapshot *final,
	     double interval_s, double warmup_s, const bool *lost, unsigned int n,
	     struct stats_summary *sum, struct stats_steady *st)
{
	unsigned int *iv = calloc(n ? n : 1, sizeof(*iv));
	bool *keep = calloc(n ? n : 1, sizeof(*keep));
	uint64_t *tail = malloc(__row_len(se->n_workers) * sizeof(uint64_t));
	unsigned int j, first, w;
	bool undetected;
	struct __acc a = { 0 };

	if (iv == NULL || keep == NULL || tail == NULL || __acc_init(se, &a) != 0) {
		free(iv);
		free(keep);
		free(tail);
		return -ENOMEM;
	}
	for (j = 0; j < n; j++)
		iv[j] = j;
	st->explicit_warmup = warmup_s >= 0;
	__stretch(se, iv, n, lost, warmup_s, interval_s, keep, &st->detected,
		  &st->at_limit, &first, &undetected);
	st->first_interval = first;
	if (first < n)
		st->start_s = se->p[first].uptime_s;
	__mark(st->iv, iv, keep, lost, n, first);
	__kept_spread(se, iv, keep, n, &st->spread, &st->unstable);
	if (undetected) {
		for (j = 0; st->iv != NULL && j < n; j++)
			st->iv[j] = lost[j] ? STATS_IV_LOST : STATS_IV_OUT;
		snprintf(st->why, sizeof(st->why), "warm-up detection needs %u "
			 "intervals, the run had %u%s (--warmup SECONDS sets it by "
			 "hand)", STATS_WARMUP_MIN_INTERVALS, n - st->lost,
			 st->lost ? " that did not lose time" : "");
		sum->steady_valid = false;
		snprintf(sum->steady_reason, sizeof(sum->steady_reason), "%s", st->why);
		memset(&sum->steady, 0, sizeof(sum->steady));
		st->first_interval = n;
		st->start_s = -1;
		memset(&st->spread, 0, sizeof(st->spread));
		st->unstable = false;
		goto out;
	}
	for (j = 0; j < n; j++)
		if (keep[j])
			__acc_add(se, &a, se->p[j].v, se->p[j + 1].v, __iv_seconds(se, j));
	/* The tail: the last point to the final fold, after the last interval
	 * (the run's end between two scheduled folds), unless it lost time. */
	if (first < n && se->n > 0 && final->tsc > se->p[se->n - 1].tsc) {
		const struct __series_point *last = &se->p[se->n - 1];

		__series_take(se->n_workers, final, tail);
		if (!__rows_lost(se, last->v, tail, last->tsc, final->tsc, final->tsc_hz))
			__acc_add(se, &a, last->v, tail, (double)(final->tsc - last->tsc) /
				  (double)final->tsc_hz);
	}
	if (!st->explicit_warmup) {
		sum->steady_valid = a.seconds >= 0.95 * interval_s;
		if (sum->steady_valid)
			sum->steady_reason[0] = '\0';
		else
			snprintf(sum->steady_reason, sizeof(sum->steady_reason),
				 "only %.3f s after the detected warm-up (%.2f s)%s, less "
				 "than one stats interval (%.2f s)", a.seconds, st->start_s,
				 st->lost ? " and without lost time" : "", interval_s);
	} else if (st->lost > 0 && sum->steady_valid && a.seconds < 0.95 * interval_s) {
		sum->steady_valid = false;
		snprintf(sum->steady_reason, sizeof(sum->steady_reason),
			 "only %.3f s after --warmup without lost time, less than "
			 "one stats interval (%.2f s)", a.seconds, interval_s);
	}
	/* --warmup SECONDS without lost time keeps stats_summary()'s rates
	 * (the fold closest to the warm-up's end to final: the same span) */
	if (sum->steady_valid && (!st->explicit_warmup || st->lost > 0)) {
		__acc_rate(se, &a, se->n_workers, &sum->steady);
		for (w = 0; w < sum->n_workers && w < se->n_workers; w++)
			__acc_rate(se, &a, w, &sum->lcore_steady[w]);
	}
out:
	free(a.v);
	free(iv);
	free(keep);
	free(tail);
	return 0;
}

/* One steady state per mode with pure intervals (the mode changed). */
static int
__steady_modes(const struct stats_series *se, double interval_s, double warmup_s,
	       const bool *lost, const int *mode, unsigned int n,
	       struct stats_steady *st)
{
	unsigned int *iv = calloc(n ? n : 1, sizeof(*iv));
	bool *keep = calloc(n ? n : 1, sizeof(*keep));
	unsigned int m, k, j, w;
	int rc = 0;

	if (iv == NULL || keep == NULL) {
		free(iv);
		free(keep);
		return -ENOMEM;
	}
	for (m = 0; m < MIB_MODES && rc == 0; m++) {
		struct stats_mode_steady *ms = &st->modes[st->n_modes];
		struct __acc a = { 0 };
		unsigned int *all = calloc(n ? n : 1, sizeof(*all)), n_all = 0;
		bool *kept_all = calloc(n ? n : 1, sizeof(*kept_all));

		if (all == NULL || kept_all == NULL || __acc_init(se, &a) != 0) {
			free(all);
			free(kept_all);
			rc = -ENOMEM;
			break;
		}
		memset(ms, 0, sizeof(*ms));
		ms->mode = m;
		for (k = 0; k < n;) {
			unsigned int len = 0, first;
			bool det, lim, und;

			if (mode[k] != (int)m) {
				k++;
				continue;
			}
			while (k + len < n && mode[k + len] == (int)m) {
				iv[len] = k + len;
				len++;
			}
			if (ms->stretches++ == 0)
				ms->first_s = se->p[k].uptime_s;
			ms->warmup += __stretch(se, iv, len, lost, warmup_s, interval_s,
						keep, &det, &lim, &first, &und);
			ms->undetected += und;
			__mark(st->iv, iv, keep, lost, len, first);
			for (j = 0; j < len; j++) {
				ms->intervals++;
				ms->lost += lost[iv[j]];
				if (!keep[j])
					continue;
				ms->kept++;
				__acc_add(se, &a, se->p[iv[j]].v, se->p[iv[j] + 1].v,
					  __iv_seconds(se, iv[j]));
				all[n_all] = iv[j];
				kept_all[n_all++] = true;
			}
			k += len;
		}
		if (ms->stretches > 0) {
			ms->lcore = calloc(se->n_workers ? se->n_workers : 1,
					   sizeof(*ms->lcore));
			if (ms->lcore == NULL) {
				rc = -ENOMEM;
			} else {
				ms->total_workers = se->n_workers;
				__acc_rate(se, &a, se->n_workers, &ms->total);
				for (w = 0; w < se->n_workers; w++)
					__acc_rate(se, &a, w, &ms->lcore[w]);
				__kept_spread(se, all, kept_all, n_all, &ms->spread,
					      &ms->unstable);
				st->n_modes++;
			}
		}
		free(a.v);
		free(all);
		free(kept_all);
	}
	free(iv);
	free(keep);
	return rc;
}

int
stats_series_steady(const struct stats_series *se,
		    const struct stats_snapshot *final, double interval_s,
		    double warmup_s, struct stats_summary *sum,
		    struct stats_steady *st)
{
	unsigned int n, k, pure_modes = 0;
	bool *lost;
	int *mode, rc;

	if (se == NULL || st == NULL || sum == NULL || final == NULL)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->start_s = -1;
	n = se->n > 0 ? se->n - 1 : 0;
	st->intervals = n;
	lost = calloc(n ? n : 1, sizeof(*lost));
	mode = calloc(n ? n : 1, sizeof(*mode));
	st->iv = malloc(n ? n : 1);
	if (lost == NULL || mode == NULL || st->iv == NULL) {
		free(lost);
		free(mode);
		free(st->iv);
		st->iv = NULL;
		return -ENOMEM;
	}
	memset(st->iv, STATS_IV_OUT, n ? n : 1);
	for (k = 0; k < n; k++) {
		lost[k] = stats_series_lost(se, k);
		st->lost += lost[k];
		mode[k] = stats_series_mode(se, k);
		st->mixed += mode[k] == STATS_SERIES_MIXED;
		if (mode[k] >= 0)
			pure_modes |= 1u << mode[k];
		if (mode[k] == STATS_SERIES_MIXED)
			st->iv[k] = STATS_IV_MIXED;
	}
	st->by_mode = st->mixed > 0 || (pure_modes & (pure_modes - 1)) != 0;
	if (st->by_mode) {
		sum->steady_valid = false;
		memset(&sum->steady, 0, sizeof(sum->steady));
		snprintf(sum->steady_reason, sizeof(sum->steady_reason),
			 "the ingress mode changed during the run: a steady state "
			 "per mode instead");
		snprintf(st->why, sizeof(st->why), "%s", sum->steady_reason);
		st->first_interval = n;
		st->explicit_warmup = warmup_s >= 0;
		rc = __steady_modes(se, interval_s, warmup_s, lost, mode, n, st);
	} else {
		rc = __steady_run(se, final, interval_s, warmup_s, lost, n, sum, st);
	}
	free(lost);
	free(mode);
	return rc;
}

void
stats_steady_fini(struct stats_steady *st)
{
	unsigned int m;

	if (st == NULL)
		return;
	free(st->iv);
	st->iv = NULL;
	for (m = 0; m < st->n_modes; m++) {
		free(st->modes[m].lcore);
		st->modes[m].lcore = NULL;
	}
	st->n_modes = 0;
}
