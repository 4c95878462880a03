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

/* t(0.975, df) for df = 1..30 (the usual tables, 6 digits). */
static const double __t975_tab[30] = {
	12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624,
	2.306004, 2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787,
	2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963, 2.079614,
	2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407,
	2.045230, 2.042272,
};

/* Cornish-Fisher expansion of the t quantile around the normal one. */
static double
__t975_cf(double df)
{
	const double z = 1.959963984540054;
	double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;

	return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df) +
	       (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df * df * df);
}

static double
__t975_whole(unsigned int df)
{
	return df <= 30 ? __t975_tab[df - 1] : __t975_cf((double)df);
}

double
stats_t975(double df)
{
	unsigned int k;
	double lo, hi, f;

	if (!(df >= 1))
		return NAN;
	if (df > 1e6)
		return __t975_cf(df);
	k = (unsigned int)floor(df);
	if ((double)k == df)
		return __t975_whole(k);
	/* linear in 1/df between the whole values around it */
	lo = __t975_whole(k);
	hi = __t975_whole(k + 1);
	f = (1.0 / (double)k - 1.0 / df) / (1.0 / (double)k - 1.0 / (double)(k + 1));
	return lo + f * (hi - lo);
}

const char *
stats_ci_method_name(enum stats_ci_method m)
{
	switch (m) {
	case STATS_CI_PAIRED_T:
		return "paired-t";
	case STATS_CI_WELCH:
		return "welch";
	default:
		return "none";
	}
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
	for (i = 0; i < n; i++)
		d[i] = a[i] - b[i];
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
	double best = INFINITY;
	unsigned int d, i, at = 0;

	if (start == NULL || (n > 0 && v == NULL))
		return -EINVAL;
	if (n < STATS_WARMUP_MIN_INTERVALS)
		return -ENODATA;
	for (d = 0; d <= n / 2; d++) {
		double m = 0, s = 0, k = (double)(n - d), mser;

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
	*start = at;
	return 0;
}
