/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A run's steady state (stats_series.h: stats_series_steady()): which
 * intervals are kept, warm-up, lost, mixed or out, and what the kept
 * ones add up to, from the points series.c keeps.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "base.h"
#include "series_pvt.h"

static const char *const iv_use_names[] = {
	[STATS_IV_KEPT] = "kept", [STATS_IV_WARMUP] = "warm-up",
	[STATS_IV_LOST] = "lost", [STATS_IV_MIXED] = "mixed",
	[STATS_IV_OUT] = "out",
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
		use[iv[j]] = keep[j]	   ? STATS_IV_KEPT
			     : lost[iv[j]] ? STATS_IV_LOST
			     : j < first   ? STATS_IV_WARMUP
					   : STATS_IV_OUT;
}

/* What a steady part adds up: per worker and the total (last), the
 * series' first ACC_F fields (packets, octets, busy, idle, the stalled
 * polls' cycles and count, lost ns, involuntary switches). */
#define ACC_F (STATS_SERIES_IVCSW + 1)

struct __acc {
	uint64_t *v; /* (n_workers + 1) x ACC_F */
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
			a->v[w * ACC_F + k] += __stats_series_grew(x, y, k);
	}
	a->seconds += seconds;
}

/* The rates of what a holds, for worker w (the total: n_workers). The
 * intervals it adds lost less than their share: their lost time is said,
 * without a cause. */
static void
__acc_rate(const struct stats_series *se, const struct __acc *a, unsigned int w,
	   struct stats_rate *r)
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
		for (d = 0; d < u && se->p[iv[at[d]]].uptime_s + slack < t0 + warmup_s;
		     d++)
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
__kept_spread(const struct stats_series *se, const unsigned int *iv, const bool *keep,
	      unsigned int n, struct stats_spread *sp, bool *unstable)
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
	uint64_t *tail = malloc(__stats_series_row_len(se->n_workers) * sizeof(uint64_t));
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
		snprintf(st->why, sizeof(st->why),
			 "warm-up detection needs %u "
			 "intervals, the run had %u%s (--warmup SECONDS sets it by "
			 "hand)",
			 STATS_WARMUP_MIN_INTERVALS, n - st->lost,
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
			__acc_add(se, &a, se->p[j].v, se->p[j + 1].v,
				  __iv_seconds(se, j));
	/* The tail: the last point to the final fold, after the last interval
	 * (the run's end between two scheduled folds), unless it lost time. */
	if (first < n && se->n > 0 && final->tsc > se->p[se->n - 1].tsc) {
		const struct __series_point *last = &se->p[se->n - 1];

		__stats_series_take(se->n_workers, final, tail);
		if (!__stats_series_rows_lost(se, last->v, tail, last->tsc, final->tsc,
					      final->tsc_hz))
			__acc_add(se, &a, last->v, tail,
				  (double)(final->tsc - last->tsc) /
					  (double) final->tsc_hz);
	}
	if (!st->explicit_warmup) {
		sum->steady_valid = a.seconds >= 0.95 * interval_s;
		if (sum->steady_valid)
			sum->steady_reason[0] = '\0';
		else
			snprintf(
				sum->steady_reason, sizeof(sum->steady_reason),
				"only %.3f s after the detected warm-up (%.2f s)%s, less "
				"than one stats interval (%.2f s)",
				a.seconds, st->start_s,
				st->lost ? " and without lost time" : "", interval_s);
	} else if (st->lost > 0 && sum->steady_valid && a.seconds < 0.95 * interval_s) {
		sum->steady_valid = false;
		snprintf(sum->steady_reason, sizeof(sum->steady_reason),
			 "only %.3f s after --warmup without lost time, less than "
			 "one stats interval (%.2f s)",
			 a.seconds, interval_s);
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
	       const bool *lost, const int *mode, unsigned int n, struct stats_steady *st)
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
stats_series_steady(const struct stats_series *se, const struct stats_snapshot *final,
		    double interval_s, double warmup_s, struct stats_summary *sum,
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
