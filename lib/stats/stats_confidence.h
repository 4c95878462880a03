/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STATS_CONFIDENCE_H
#define PKTPATH_STATS_CONFIDENCE_H

/**
 * @file
 * How sure a figure is: 95% confidence intervals on a difference (what
 * --compare prints as Δns), the spread of a run's per-interval rates, and
 * where a run's warm-up ended. Pure functions over plain arrays: no state,
 * no allocation visible to the caller, thread-safe.
 *
 * The interval on a difference of two modes measured in interleaved rounds
 * (stats_ci_rounds()):
 *   - 2 rounds or more: a paired t-interval over the rounds. Round r of A
 *     and round r of B ran back to back, so they share the slow drift
 *     (frequency, neighbours, thermal); the difference d_r = a_r - b_r
 *     cancels it, and the rounds are the independent replicates:
 *     mean(d) +- t(0.975, R-1) * sd(d) / sqrt(R). Each a_r is a phase's
 *     figure, i.e. already the mean of that phase's intervals, so the
 *     within-phase noise is in sd(d) too. The intervals inside a phase are
 *     not used as replicates: they follow one another under the same
 *     conditions (autocorrelated), and counting them as independent would
 *     give an interval too narrow by the ignored round-to-round variation.
 *   - 1 round: nothing tells round-to-round variation; a Welch t-interval
 *     over the two phases' per-interval samples (mean difference, the
 *     Welch-Satterthwaite degrees of freedom). It says only how noisy the
 *     intervals were: method STATS_CI_WELCH marks it as such.
 * A t-interval rather than a bootstrap: with the usual 3 to 10 rounds a
 * percentile bootstrap covers far less than 95% (with 3 rounds its interval
 * lies inside the rounds' range, which holds the true median only 75% of
 * the time), while the t
 * quantile accounts for few replicates exactly under normal errors.
 */

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** How an interval was computed. */
enum stats_ci_method {
	STATS_CI_NONE,		/**< too few samples: no interval */
	STATS_CI_PAIRED_T,	/**< paired t over rounds */
	STATS_CI_WELCH,		/**< Welch t over per-interval samples */
};

/** A 95% confidence interval on a difference A - B. */
struct stats_ci {
	enum stats_ci_method method;
	double estimate;	/**< the mean difference */
	double lo, hi;		/**< estimate -+ half; both NaN without one */
	double half;		/**< half-width; NaN without an interval */
	double df;		/**< degrees of freedom of the t quantile */
	unsigned int n;		/**< rounds (paired) or intervals of A + B */
};

/** "none", "paired-t", "welch"; "?" out of range. Thread-safe. */
const char *stats_ci_method_name(enum stats_ci_method m);

/** The 0.975 quantile of Student's t with df degrees of freedom, any real
 *  df >= 1 (to ~1e-12: the inverse of stats_t_upper()); the normal
 *  quantile for an infinite df; NaN for df < 1 or NaN. */
double stats_t975(double df);

/** P(T > t) for Student's t with df > 0 degrees of freedom (by the
 *  regularized incomplete beta function); NaN for df <= 0 or t NaN. */
double stats_t_upper(double t, double df);

/**
 * Paired t-interval on d_i = a[i] - b[i], i < n. n >= 2, or
 * method STATS_CI_NONE (the estimate is then a[0] - b[0] when n is 1).
 * @return 0, or -EINVAL (NULL array with n > 0, ci NULL).
 */
int stats_ci_paired_t(const double *a, const double *b, unsigned int n,
		      struct stats_ci *ci);

/**
 * Welch t-interval on mean(a) - mean(b): na >= 2 and nb >= 2, or
 * STATS_CI_NONE. Two constant samples give a zero-width interval.
 * @return 0, or -EINVAL.
 */
int stats_ci_welch(const double *a, unsigned int na, const double *b,
		   unsigned int nb, struct stats_ci *ci);

/**
 * The interval --compare uses (see the file comment): a_round and b_round
 * the per-round figures of A and B (rounds of each); with one round, the
 * per-interval samples a_int (na) and b_int (nb) of its two phases.
 * @return 0, or -EINVAL.
 */
int stats_ci_rounds(const double *a_round, const double *b_round,
		    unsigned int rounds, const double *a_int, unsigned int na,
		    const double *b_int, unsigned int nb, struct stats_ci *ci);

/** One pair of variants of a comparison: the interval on figure(b) -
 *  figure(a), a and b indexes of the variants. */
struct stats_ci_pair {
	unsigned int a, b;
	struct stats_ci ci;
};

/** The pairs of n variants: n (n - 1) / 2. */
static inline unsigned int
stats_ci_n_pairs(unsigned int n)
{
	return n * (n - (n > 0)) / 2;
}

/**
 * Every pair of n variants measured in interleaved rounds, each interval
 * by stats_ci_rounds(): variant v's figure of round r is
 * round[v * rounds + r]; with one round, its per-interval samples are
 * iv[v * n_iv + k] (NaN: no sample, left out; iv may be NULL with more
 * rounds). Thread-safe (it allocates its scratch). The pairs come in this order: the baseline against every other
 * variant, in their order (a the baseline), then the other pairs (a, b),
 * a < b, in the variants' order; each interval is on figure(b) -
 * figure(a), so a positive difference says b's figure is the larger.
 * @param out  stats_ci_n_pairs(n) entries
 * @return the number of pairs, -EINVAL (round or out NULL, baseline >= n,
 *         rounds 0, or one round with iv NULL and n_iv > 0), -ENOMEM.
 */
int stats_ci_pairs(const double *round, unsigned int n, unsigned int rounds,
		   const double *iv, unsigned int n_iv, unsigned int baseline,
		   struct stats_ci_pair *out);

/** What an interval says about its difference. */
enum stats_verdict {
	STATS_VERDICT_NONE,	/**< no interval */
	STATS_VERDICT_NOISE,	/**< the interval contains 0: within noise */
	STATS_VERDICT_ABOVE,	/**< lo > 0: A - B is positive */
	STATS_VERDICT_BELOW,	/**< hi < 0: A - B is negative */
};

enum stats_verdict stats_ci_verdict(const struct stats_ci *ci);

/** The spread of a series (per-interval Mpps of a run). */
struct stats_spread {
	unsigned int n;
	double min, median, max;
	double mean;
	double sd;		/**< sample standard deviation (n - 1) */
	double cv;		/**< sd / mean; 0 when n < 2 or mean is 0 */
};

/** Coefficient of variation of the per-interval Mpps above which a run's
 *  summary is flagged as unstable: 5%. */
#define STATS_CV_UNSTABLE 0.05

/** The spread of v[0..n-1] (v is not modified; n may be 0: all zero).
 *  @return 0, or -EINVAL (v NULL with n > 0, sp NULL). */
int stats_spread_of(const double *v, unsigned int n, struct stats_spread *sp);

/** Intervals below which warm-up detection does not answer. */
#define STATS_WARMUP_MIN_INTERVALS 4

/**
 * Where the steady state of a series begins: MSER, the Marginal Standard
 * Error Rule (White, 1997). For each candidate start d in 0 .. n/2, the
 * squared standard error of the mean of v[d..n-1],
 *   MSER(d) = sum_{i >= d} (v_i - mean_d)^2 / (n - d)^2,
 * and the d that minimises it (the smallest on a tie): dropping a first
 * sample pays when it is far enough from the rest to shrink the error of
 * the mean more than losing it grows it. No threshold to tune, and a flat
 * series keeps (nearly) everything. Searched up to n/2 only, as MSER
 * prescribes: a series whose second half is not steady has no steady
 * state to find. On the few samples of a run (10 intervals by default)
 * MSER alone drops a "warm-up" from a flat series about half the time, so
 * its d is kept only when the dropped samples' mean lies outside the 95%
 * interval of the rest's, t(0.975, n-d-1) s sqrt(1/d + 1/(n-d)) with s the
 * rest's deviation; else d = 0 (test_warmup measures both rates).
 * @return 0 with *start = d, -ENODATA when n < STATS_WARMUP_MIN_INTERVALS,
 *         -EINVAL (NULL).
 */
int stats_warmup_detect(const double *v, unsigned int n, unsigned int *start);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_STATS_CONFIDENCE_H */
