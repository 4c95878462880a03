/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Confidence intervals, spread and warm-up detection (stats_confidence.h):
 * pure functions over arrays.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "base.h"
#include "stats_confidence.h"

/*
 * t(0.975, df) for any real df >= 1 (Welch's df is fractional): the root of
 * P(T > t) = 0.025, with P(T > t) = I_x(df/2, 1/2) / 2, x = df / (df + t^2),
 * the regularized incomplete beta function by its continued fraction
 * (modified Lentz), found by bisection between the normal quantile and
 * t(0.975, 1) = 12.7062. Accurate to ~1e-12; a few thousand flops, called
 * once per interval printed. (An earlier version interpolated a table
 * linearly in 1/df and was up to 18% wide between df 1 and 3.)
 */
static double
__betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	unsigned int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 1000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b), 0 <= x <= 1. */
static double
__ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * __betacf(a, b, x) / a;
	return 1 - bt * __betacf(b, a, 1 - x) / b;
}

double
stats_t_upper(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (t < 0)
		return 1 - stats_t_upper(-t, df);
	return 0.5 * __ibeta(df / 2, 0.5, df / (df + t * t));
}

double
stats_t975(double df)
{
	double lo = 1.959963984540054, hi = 12.7063, mid;
	unsigned int i;

	if (!(df >= 1))
		return NAN;
	if (isinf(df))
		return lo;
	for (i = 0; i < 200 && hi - lo > 1e-13; i++) {
		mid = (lo + hi) / 2;
		if (stats_t_upper(mid, df) > 0.025)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static const char *const ci_method_names[] = {
	[STATS_CI_NONE] = "none",
	[STATS_CI_PAIRED_T] = "paired-t",
	[STATS_CI_WELCH] = "welch",
};

const char *
stats_ci_method_name(enum stats_ci_method m)
{
	return BASE_ENUM_NAME(ci_method_names, m);
}

static void
__ci_none(struct stats_ci *ci, double estimate, unsigned int n)
{
	memset(ci, 0, sizeof(*ci));
	ci->method = STATS_CI_NONE;
	ci->estimate = estimate;
	ci->lo = ci->hi = ci->half = NAN;
	ci->df = 0;
	ci->n = n;
}

/* Mean and sample variance (n - 1) of v[0..n-1], n >= 1. */
static void
__mean_var(const double *v, unsigned int n, double *mean, double *var)
{
	double m = 0, s = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		m += v[i];
	m /= (double)n;
	for (i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	*mean = m;
	*var = n > 1 ? s / (double)(n - 1) : 0;
}

int
stats_ci_paired_t(const double *a, const double *b, unsigned int n,
		  struct stats_ci *ci)
{
	double *d, mean, var;
	unsigned int i;

	if (ci == NULL || (n > 0 && (a == NULL || b == NULL)))
		return -EINVAL;
	if (n < 2) {
		__ci_none(ci, n == 1 ? a[0] - b[0] : NAN, n);
		return 0;
	}
	d = malloc(n * sizeof(*d));
	if (d == NULL) {
		__ci_none(ci, NAN, n);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		d[i] = a[i] - b[i];
		if (!isfinite(d[i])) {	/* a round without a figure */
			free(d);
			__ci_none(ci, NAN, n);
			return 0;
		}
	}
	__mean_var(d, n, &mean, &var);
	free(d);
	memset(ci, 0, sizeof(*ci));
	ci->method = STATS_CI_PAIRED_T;
	ci->estimate = mean;
	ci->df = (double)(n - 1);
	ci->half = stats_t975(ci->df) * sqrt(var / (double)n);
	ci->lo = mean - ci->half;
	ci->hi = mean + ci->half;
	ci->n = n;
	return 0;
}

int
stats_ci_welch(const double *a, unsigned int na, const double *b,
	       unsigned int nb, struct stats_ci *ci)
{
	double ma, va, mb, vb, sa, sb, se2;

	if (ci == NULL || (na > 0 && a == NULL) || (nb > 0 && b == NULL))
		return -EINVAL;
	if (na < 2 || nb < 2) {
		double est = NAN;

		if (na > 0 && nb > 0) {
			__mean_var(a, na, &ma, &va);
			__mean_var(b, nb, &mb, &vb);
			est = ma - mb;
		}
		__ci_none(ci, est, na + nb);
		return 0;
	}
	__mean_var(a, na, &ma, &va);
	__mean_var(b, nb, &mb, &vb);
	if (!isfinite(ma) || !isfinite(mb)) {	/* an interval without a figure */
		__ci_none(ci, NAN, na + nb);
		return 0;
	}
	sa = va / (double)na;
	sb = vb / (double)nb;
	se2 = sa + sb;
	memset(ci, 0, sizeof(*ci));
	ci->method = STATS_CI_WELCH;
	ci->estimate = ma - mb;
	ci->n = na + nb;
	if (se2 == 0) {
		/* two constant samples: no doubt about the difference */
		ci->df = (double)(na + nb - 2);
		ci->half = 0;
	} else {
		ci->df = se2 * se2 / (sa * sa / (double)(na - 1) +
				      sb * sb / (double)(nb - 1));
		if (ci->df < 1)
			ci->df = 1;
		ci->half = stats_t975(ci->df) * sqrt(se2);
	}
	ci->lo = ci->estimate - ci->half;
	ci->hi = ci->estimate + ci->half;
	return 0;
}

int
stats_ci_rounds(const double *a_round, const double *b_round,
		unsigned int rounds, const double *a_int, unsigned int na,
		const double *b_int, unsigned int nb, struct stats_ci *ci)
{
	int rc;

	if (rounds >= 2)
		return stats_ci_paired_t(a_round, b_round, rounds, ci);
	rc = stats_ci_welch(a_int, na, b_int, nb, ci);
	/* The estimate is the difference of the phases' own figures (what
	 * the table prints), not of the mean of their intervals. */
	if (rc == 0 && rounds == 1 && a_round != NULL && b_round != NULL) {
		double shift = a_round[0] - b_round[0] - ci->estimate;

		ci->estimate += shift;
		ci->lo += shift;
		ci->hi += shift;
	}
	return rc;
}

/* One round's per-interval samples of variant v, without the NaN ones,
 * into buf (n_iv entries); how many. */
static unsigned int
__iv_samples(const double *iv, unsigned int n_iv, unsigned int v, double *buf)
{
	unsigned int k, n = 0;

	for (k = 0; k < n_iv; k++)
		if (!isnan(iv[(size_t)v * n_iv + k]))
			buf[n++] = iv[(size_t)v * n_iv + k];
	return n;
}

/* The interval of pair (a, b) into *p: figure(b) - figure(a). */
static int
__pair(const double *round, unsigned int rounds, const double *iv, unsigned int n_iv,
       unsigned int a, unsigned int b, double *ba, double *bb, struct stats_ci_pair *p)
{
	unsigned int na = 0, nb = 0;

	p->a = a;
	p->b = b;
	if (rounds == 1) {
		na = __iv_samples(iv, n_iv, a, ba);
		nb = __iv_samples(iv, n_iv, b, bb);
	}
	return stats_ci_rounds(round + (size_t)b * rounds, round + (size_t)a * rounds,
			       rounds, bb, nb, ba, na, &p->ci);
}

int
stats_ci_pairs(const double *round, unsigned int n, unsigned int rounds, const double *iv,
	       unsigned int n_iv, unsigned int baseline, struct stats_ci_pair *out)
{
	double *ba = NULL, *bb = NULL;
	unsigned int a, b, k = 0;
	int rc = 0;

	if (round == NULL || out == NULL || baseline >= n || rounds == 0 ||
	    (rounds == 1 && iv == NULL && n_iv > 0))
		return -EINVAL;
	if (rounds == 1 && n_iv > 0) {
		ba = malloc(2 * (size_t)n_iv * sizeof(*ba));
		if (ba == NULL)
			return -ENOMEM;
		bb = ba + n_iv;
	}
	for (b = 0; b < n && rc == 0; b++)
		if (b != baseline)
			rc = __pair(round, rounds, iv, n_iv, baseline, b, ba, bb,
				    &out[k++]);
	for (a = 0; a < n && rc == 0; a++)
		for (b = a + 1; b < n && rc == 0; b++)
			if (a != baseline && b != baseline)
				rc = __pair(round, rounds, iv, n_iv, a, b, ba, bb,
					    &out[k++]);
	free(ba);
	return rc != 0 ? rc : (int)k;
}

enum stats_verdict
stats_ci_verdict(const struct stats_ci *ci)
{
	if (ci == NULL || ci->method == STATS_CI_NONE || isnan(ci->lo) ||
	    isnan(ci->hi))
		return STATS_VERDICT_NONE;
	if (ci->lo > 0)
		return STATS_VERDICT_ABOVE;
	if (ci->hi < 0)
		return STATS_VERDICT_BELOW;
	return STATS_VERDICT_NOISE;
}

int
stats_spread_of(const double *v, unsigned int n, struct stats_spread *sp)
{
	double *c;

	if (sp == NULL || (n > 0 && v == NULL))
		return -EINVAL;
	memset(sp, 0, sizeof(*sp));
	sp->n = n;
	if (n == 0)
		return 0;
	c = malloc(n * sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	memcpy(c, v, n * sizeof(*c));
	sp->median = base_median(c, n, &sp->min, &sp->max);
	free(c);
	__mean_var(v, n, &sp->mean, &sp->sd);
	sp->sd = sqrt(sp->sd);
	sp->cv = n >= 2 && sp->mean != 0 ? sp->sd / fabs(sp->mean) : 0;
	return 0;
}

int
stats_warmup_detect(const double *v, unsigned int n, unsigned int *start)
{
	double best = INFINITY, mp = 0, mt = 0, st = 0, k;
	unsigned int d, i, at = 0;

	if (start == NULL || (n > 0 && v == NULL))
		return -EINVAL;
	if (n < STATS_WARMUP_MIN_INTERVALS)
		return -ENODATA;
	for (d = 0; d <= n / 2; d++) {
		double m = 0, s = 0, mser;

		k = (double)(n - d);
		for (i = d; i < n; i++)
			m += v[i];
		m /= k;
		for (i = d; i < n; i++)
			s += (v[i] - m) * (v[i] - m);
		mser = s / (k * k);
		/* a relative tie (rounding) keeps the earlier start */
		if (mser < best * (1 - 1e-12)) {
			best = mser;
			at = d;
		}
	}
	/* MSER's start, kept only if the samples it drops are not the steady
	 * state's: their mean lies outside the 95% interval of the tail's,
	 * t(0.975, k - 1) s sqrt(1/d + 1/k), s the tail's deviation. On few
	 * samples MSER alone drops a "warm-up" from a flat series about half
	 * the time (by chance one tail has a small variance). */
	if (at > 0) {
		k = (double)(n - at);
		for (i = 0; i < at; i++)
			mp += v[i];
		mp /= (double)at;
		for (i = at; i < n; i++)
			mt += v[i];
		mt /= k;
		for (i = at; i < n; i++)
			st += (v[i] - mt) * (v[i] - mt);
		st = sqrt(st / (k - 1));
		if (!(fabs(mp - mt) > stats_t975(k - 1) * st * sqrt(1 / (double)at + 1 / k)))
			at = 0;
	}
	*start = at;
	return 0;
}
