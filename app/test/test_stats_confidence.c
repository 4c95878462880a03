/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/stats' confidence intervals, spread, warm-up detection
 * and run history (stats_confidence.h, stats_series.h), on synthetic
 * samples whose answer is known: hand-computed intervals, the t table, the
 * coverage of the paired interval over seeded normal samples, step and
 * ramp series for MSER, and a history of hand-made snapshots. Pure
 * functions: no EAL, no timing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>

#include "stats.h"
#include "stats_confidence.h"
#include "stats_series.h"

#define NEAR(x, y, eps) assert_true(fabs((x) - (y)) <= (eps))

static void
test_t975(void **state)
{
	(void)state;
	/* closed forms: df 1 is Cauchy, tan(pi (p - 1/2)); df 2 is
	 * (2p - 1) / sqrt(2 p (1 - p)) */
	NEAR(stats_t975(1), tan(M_PI * 0.475), 1e-9);
	NEAR(stats_t975(2), 0.95 / sqrt(2 * 0.975 * 0.025), 1e-9);
	/* the usual tables (6 digits) */
	NEAR(stats_t975(3), 3.182446, 1e-6);
	NEAR(stats_t975(10), 2.228139, 1e-6);
	NEAR(stats_t975(30), 2.042272, 1e-6);
	NEAR(stats_t975(31), 2.039513, 1e-6);
	NEAR(stats_t975(100), 1.983972, 1e-6);
	NEAR(stats_t975(1e9), 1.959964, 1e-6);
	NEAR(stats_t975(INFINITY), 1.959964, 1e-6);
	/* fractional df (Welch's), by numerical integration of the density
	 * (review, 2026-12-01): a 1/df interpolation gave 7.1038 and 3.6305 */
	NEAR(stats_t975(1.5), 6.0167, 1e-3);
	NEAR(stats_t975(2.5), 3.5747, 1e-3);
	/* the tail it inverts: df 1, P(T > 1) = 1/4; symmetric */
	NEAR(stats_t_upper(1, 1), 0.25, 1e-12);
	NEAR(stats_t_upper(0, 7.3), 0.5, 1e-12);
	NEAR(stats_t_upper(-2, 4) + stats_t_upper(2, 4), 1, 1e-12);
	NEAR(stats_t_upper(stats_t975(5.37), 5.37), 0.025, 1e-12);
	/* monotone in df */
	{
		double df, prev = INFINITY;

		for (df = 1; df < 200; df += 0.125) {
			assert_true(stats_t975(df) < prev);
			prev = stats_t975(df);
		}
	}
	assert_true(isnan(stats_t975(0.5)));
	assert_true(isnan(stats_t975(NAN)));
	assert_true(isnan(stats_t_upper(1, 0)));
	assert_string_equal(stats_ci_method_name(STATS_CI_NONE), "none");
	assert_string_equal(stats_ci_method_name(STATS_CI_WELCH), "welch");
	assert_string_equal(stats_ci_method_name((enum stats_ci_method)3), "?");
}

static void
test_paired_t(void **state)
{
	const double a[] = { 10, 12, 14 }, b[] = { 9, 10, 11 };
	const double c[] = { 12, 12.1, 11.9 }, z[] = { 10, 10, 10 };
	struct stats_ci ci;

	(void)state;
	/* d = 1, 2, 3: mean 2, sd 1, half = t(0.975, 2) / sqrt(3) */
	assert_int_equal(stats_ci_paired_t(a, b, 3, &ci), 0);
	assert_int_equal(ci.method, STATS_CI_PAIRED_T);
	NEAR(ci.estimate, 2, 1e-12);
	NEAR(ci.df, 2, 0);
	NEAR(ci.half, 4.302653 / sqrt(3), 1e-6);
	NEAR(ci.lo, 2 - 2.484138, 1e-6);
	NEAR(ci.hi, 2 + 2.484138, 1e-6);
	assert_int_equal(ci.n, 3);
	assert_int_equal(stats_ci_verdict(&ci), STATS_VERDICT_NOISE);
	/* d = 2, 2.1, 1.9: sd 0.1, half 0.248414: clearly above 0 */
	assert_int_equal(stats_ci_paired_t(c, z, 3, &ci), 0);
	NEAR(ci.half, 4.302653 * 0.1 / sqrt(3), 1e-6);
	assert_int_equal(stats_ci_verdict(&ci), STATS_VERDICT_ABOVE);
	assert_int_equal(stats_ci_paired_t(z, c, 3, &ci), 0);
	assert_int_equal(stats_ci_verdict(&ci), STATS_VERDICT_BELOW);
	NEAR(ci.estimate, -2, 1e-12);
	/* identical rounds: a zero-width interval at 0, within noise */
	assert_int_equal(stats_ci_paired_t(z, z, 3, &ci), 0);
	assert_true(ci.lo == 0 && ci.hi == 0);
	assert_int_equal(stats_ci_verdict(&ci), STATS_VERDICT_NOISE);
	/* one round: no interval, the estimate is still there */
	assert_int_equal(stats_ci_paired_t(a, b, 1, &ci), 0);
	assert_int_equal(ci.method, STATS_CI_NONE);
	NEAR(ci.estimate, 1, 0);
	assert_true(isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_ci_verdict(&ci), STATS_VERDICT_NONE);
	assert_int_equal(stats_ci_paired_t(NULL, b, 2, &ci), -EINVAL);
	assert_int_equal(stats_ci_paired_t(a, b, 2, NULL), -EINVAL);
	/* a round without a figure (no packets: NaN ns/pkt): no interval and
	 * no estimate, not "paired-t" with NaN bounds */
	{
		const double n1[] = { 10, NAN, 14 }, i1[] = { 10, INFINITY, 14 };

		assert_int_equal(stats_ci_paired_t(n1, b, 3, &ci), 0);
		assert_int_equal(ci.method, STATS_CI_NONE);
		assert_true(isnan(ci.estimate) && isnan(ci.lo));
		assert_int_equal(stats_ci_verdict(&ci), STATS_VERDICT_NONE);
		assert_int_equal(stats_ci_paired_t(b, i1, 3, &ci), 0);
		assert_int_equal(ci.method, STATS_CI_NONE);
	}
}

static void
test_welch(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 2, 4, 6, 8, 10 };
	const double k[] = { 3, 3, 3 }, l[] = { 1, 1 };
	struct stats_ci ci;

	(void)state;
	/* var 2.5 and 10 over 5 each: se^2 = 0.5 + 2 = 2.5, df =
	 * 2.5^2 / (0.5^2 / 4 + 2^2 / 4) = 5.882353 */
	assert_int_equal(stats_ci_welch(a, 5, b, 5, &ci), 0);
	assert_int_equal(ci.method, STATS_CI_WELCH);
	NEAR(ci.estimate, -3, 1e-12);
	NEAR(ci.df, 6.25 / 1.0625, 1e-9);
	/* t(0.975, 5.88) lies between t(0.975, 6) and t(0.975, 5) */
	assert_true(ci.half > 2.446912 * sqrt(2.5) && ci.half < 2.570582 * sqrt(2.5));
	NEAR(ci.half, 2.459 * sqrt(2.5), 0.01);
	assert_int_equal(stats_ci_verdict(&ci), STATS_VERDICT_NOISE);
	assert_int_equal(ci.n, 10);
	/* two constant samples: zero width, clearly apart */
	assert_int_equal(stats_ci_welch(k, 3, l, 2, &ci), 0);
	assert_true(ci.half == 0 && ci.lo == 2 && ci.hi == 2);
	assert_int_equal(stats_ci_verdict(&ci), STATS_VERDICT_ABOVE);
	/* one sample on a side: none */
	assert_int_equal(stats_ci_welch(k, 3, l, 1, &ci), 0);
	assert_int_equal(ci.method, STATS_CI_NONE);
	NEAR(ci.estimate, 2, 0);
	/* an interval without a figure: none, no estimate */
	{
		const double n1[] = { 1, NAN, 3 };

		assert_int_equal(stats_ci_welch(n1, 3, a, 5, &ci), 0);
		assert_int_equal(ci.method, STATS_CI_NONE);
		assert_true(isnan(ci.estimate));
	}
}

static void
test_rounds(void **state)
{
	const double ar[] = { 10, 12, 14 }, br[] = { 9, 10, 11 };
	const double ai[] = { 1, 2, 3, 4, 5 }, bi[] = { 2, 4, 6, 8, 10 };
	const double a1[] = { 3.5 }, b1[] = { 6.5 };
	struct stats_ci ci;

	(void)state;
	/* rounds >= 2: the paired interval, the intervals ignored */
	assert_int_equal(stats_ci_rounds(ar, br, 3, ai, 5, bi, 5, &ci), 0);
	assert_int_equal(ci.method, STATS_CI_PAIRED_T);
	NEAR(ci.estimate, 2, 1e-12);
	/* one round: Welch over the intervals, centred on the phases' own
	 * figures (3.5 - 6.5), as wide as Welch's */
	assert_int_equal(stats_ci_rounds(a1, b1, 1, ai, 5, bi, 5, &ci), 0);
	assert_int_equal(ci.method, STATS_CI_WELCH);
	NEAR(ci.estimate, -3, 1e-12);
	NEAR(ci.hi - ci.lo, 2 * ci.half, 1e-12);
	NEAR(ci.lo, -3 - ci.half, 1e-12);
}

/* Every pair of three variants, the second the baseline: its pairs
 * first, each on b - a, then the others; the known paired intervals
 * (t(0.975, 2) = 4.302652729911275, sd of each difference 1/sqrt(3) or
 * 1), their verdicts; one round's Welch without its NaN interval. */
static void
test_pairs(void **state)
{
	const double t2 = 4.302652729911275;
	const double r3[] = { 10, 11, 12, 12, 13, 15, 10, 12, 14 };
	const double r1[] = { 5, 6 };
	const double iv1[] = { 1, 2, 3, NAN, 2, 4, 6, 8 };
	struct stats_ci_pair p[3];

	(void)state;
	assert_int_equal(stats_ci_n_pairs(0), 0);
	assert_int_equal(stats_ci_n_pairs(1), 0);
	assert_int_equal(stats_ci_n_pairs(3), 3);
	assert_int_equal(stats_ci_n_pairs(8), 28);
	assert_int_equal(stats_ci_pairs(r3, 3, 3, NULL, 0, 1, p), 3);
	/* the baseline (1) against 0, then against 2 */
	assert_int_equal(p[0].a, 1);
	assert_int_equal(p[0].b, 0);
	assert_int_equal(p[0].ci.method, STATS_CI_PAIRED_T);
	NEAR(p[0].ci.estimate, -7.0 / 3, 1e-12);
	NEAR(p[0].ci.half, t2 / 3, 1e-9);
	assert_int_equal(stats_ci_verdict(&p[0].ci), STATS_VERDICT_BELOW);
	assert_int_equal(p[1].a, 1);
	assert_int_equal(p[1].b, 2);
	NEAR(p[1].ci.estimate, -4.0 / 3, 1e-12);
	NEAR(p[1].ci.half, t2 / 3, 1e-9);
	assert_int_equal(stats_ci_verdict(&p[1].ci), STATS_VERDICT_NOISE);
	/* then the pair without the baseline */
	assert_int_equal(p[2].a, 0);
	assert_int_equal(p[2].b, 2);
	NEAR(p[2].ci.estimate, 1, 1e-12);
	NEAR(p[2].ci.half, t2 / sqrt(3), 1e-9);
	assert_int_equal(p[2].ci.df, 2);
	/* the first as baseline: the same pairs, another order and sign */
	assert_int_equal(stats_ci_pairs(r3, 3, 3, NULL, 0, 0, p), 3);
	assert_int_equal(p[0].a * 10 + p[0].b, 1);
	assert_int_equal(p[1].a * 10 + p[1].b, 2);
	assert_int_equal(p[2].a * 10 + p[2].b, 12);
	NEAR(p[0].ci.estimate, 7.0 / 3, 1e-12);
	NEAR(p[2].ci.estimate, -4.0 / 3, 1e-12);
	/* one round: Welch over 3 + 4 intervals (the NaN left out), centred
	 * on the phases' own figures (6 - 5) */
	assert_int_equal(stats_ci_pairs(r1, 2, 1, iv1, 4, 0, p), 1);
	assert_int_equal(p[0].ci.method, STATS_CI_WELCH);
	assert_int_equal(p[0].ci.n, 7);
	NEAR(p[0].ci.estimate, 1, 1e-12);
	NEAR(p[0].ci.hi - p[0].ci.lo, 2 * p[0].ci.half, 1e-12);
	/* one variant: no pair; refusals */
	assert_int_equal(stats_ci_pairs(r3, 1, 3, NULL, 0, 0, p), 0);
	assert_int_equal(stats_ci_pairs(r3, 3, 3, NULL, 0, 3, p), -EINVAL);
	assert_int_equal(stats_ci_pairs(r1, 2, 1, NULL, 4, 0, p), -EINVAL);
	assert_int_equal(stats_ci_pairs(r3, 3, 0, NULL, 0, 0, p), -EINVAL);
	assert_int_equal(stats_ci_pairs(NULL, 3, 3, NULL, 0, 0, p), -EINVAL);
}

/* A seeded generator: the test's answer does not depend on the libc. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double
__uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double
__normal(void)
{
	return sqrt(-2 * log(__uniform())) * cos(2 * M_PI * __uniform());
}

/* Rounds of a (true difference 1.5) and b with a shared drift per round
 * and independent noise: the paired interval holds 1.5 95% of the time. */
static void
test_coverage(void **state)
{
	const unsigned int trials = 4000, rounds = 3;
	unsigned int t, r, hit = 0, noise_when_equal = 0;
	double a[3], b[3];
	struct stats_ci ci;

	(void)state;
	for (t = 0; t < trials; t++) {
		for (r = 0; r < rounds; r++) {
			double drift = 5 * __normal();

			a[r] = 100 + 1.5 + drift + __normal();
			b[r] = 100 + drift + __normal();
		}
		assert_int_equal(stats_ci_paired_t(a, b, rounds, &ci), 0);
		hit += ci.lo <= 1.5 && 1.5 <= ci.hi;
		/* the same with no true difference: "within noise" 95% */
		for (r = 0; r < rounds; r++)
			a[r] -= 1.5;
		assert_int_equal(stats_ci_paired_t(a, b, rounds, &ci), 0);
		noise_when_equal += stats_ci_verdict(&ci) == STATS_VERDICT_NOISE;
	}
	/* binomial(4000, 0.95): sd 0.0034; 4 sd either side */
	assert_true(hit >= (unsigned int)(0.936 * trials) &&
		    hit <= (unsigned int)(0.964 * trials));
	assert_true(noise_when_equal >= (unsigned int)(0.936 * trials) &&
		    noise_when_equal <= (unsigned int)(0.964 * trials));
}

static void
test_spread(void **state)
{
	const double v[] = { 4, 1, 3, 2 }, one[] = { 7 };
	double keep[4];
	struct stats_spread sp;

	(void)state;
	memcpy(keep, v, sizeof(keep));
	assert_int_equal(stats_spread_of(v, 4, &sp), 0);
	assert_memory_equal(keep, v, sizeof(keep));	/* not sorted in place */
	assert_int_equal(sp.n, 4);
	NEAR(sp.min, 1, 0);
	NEAR(sp.max, 4, 0);
	NEAR(sp.median, 2.5, 0);
	NEAR(sp.mean, 2.5, 1e-12);
	NEAR(sp.sd, sqrt(5.0 / 3.0), 1e-12);
	NEAR(sp.cv, sqrt(5.0 / 3.0) / 2.5, 1e-12);
	assert_int_equal(stats_spread_of(one, 1, &sp), 0);
	assert_true(sp.cv == 0 && sp.sd == 0 && sp.median == 7);
	assert_int_equal(stats_spread_of(NULL, 0, &sp), 0);
	assert_int_equal(sp.n, 0);
	assert_int_equal(stats_spread_of(NULL, 2, &sp), -EINVAL);
}

static void
test_warmup(void **state)
{
	double v[40];
	unsigned int i, d = 99;

	(void)state;
	/* flat: nothing to drop */
	for (i = 0; i < 20; i++)
		v[i] = 5;
	assert_int_equal(stats_warmup_detect(v, 20, &d), 0);
	assert_int_equal(d, 0);
	/* a ramp of 5 intervals, then 5 +- 0.01: the steady state is at 5 */
	v[0] = 1;
	v[1] = 2;
	v[2] = 3;
	v[3] = 4;
	v[4] = 4.5;
	for (i = 5; i < 20; i++)
		v[i] = 5 + ((i & 1) ? 0.01 : -0.01);
	assert_int_equal(stats_warmup_detect(v, 20, &d), 0);
	assert_int_equal(d, 5);
	/* one slow first interval among noise */
	for (i = 0; i < 40; i++)
		v[i] = 10 + 0.2 * __normal();
	v[0] = 2;
	assert_int_equal(stats_warmup_detect(v, 40, &d), 0);
	assert_true(d >= 1);
	assert_true(d <= 20);
	/* never steady (a ramp): MSER stops at n/2 */
	for (i = 0; i < 20; i++)
		v[i] = i;
	assert_int_equal(stats_warmup_detect(v, 20, &d), 0);
	assert_int_equal(d, 10);
	/* too short to tell */
	assert_int_equal(stats_warmup_detect(v, STATS_WARMUP_MIN_INTERVALS - 1, &d),
			 -ENODATA);
	assert_int_equal(stats_warmup_detect(v, STATS_WARMUP_MIN_INTERVALS, &d), 0);
	assert_int_equal(stats_warmup_detect(NULL, 5, &d), -EINVAL);
	/* Seeded rates on the default run's 10 intervals (CV 6%): a flat
	 * series loses a "warm-up" rarely (MSER alone: 45% of the time, found
	 * in review; with the test on the dropped samples ~13%), and a real
	 * one (the first 2 at 80%) is found most of the time (~86%). */
	{
		unsigned int r, flat = 0, found = 0, limit = 0;

		for (r = 0; r < 4000; r++) {
			for (i = 0; i < 10; i++)
				v[i] = 10 + 0.6 * __normal();
			assert_int_equal(stats_warmup_detect(v, 10, &d), 0);
			flat += d > 0;
			limit += d == 5;
			for (i = 0; i < 10; i++)
				v[i] = (10 + 0.6 * __normal()) * (i < 2 ? 0.8 : 1);
			assert_int_equal(stats_warmup_detect(v, 10, &d), 0);
			found += d > 0;
		}
		print_message("warm-up on 10 intervals: flat series cut %.1f%% "
			      "(at the limit %.1f%%), 2 slow intervals found %.1f%%\n",
			      flat / 40.0, limit / 40.0, found / 40.0);
		assert_true(flat < 4000 * 20 / 100);
		assert_true(limit < 4000 * 5 / 100);
		assert_true(found > 4000 * 70 / 100);
	}
}

/* ---- the history, over hand-made snapshots ---- */

#define SW 2			/* workers */
#define HZ 1000000000ull	/* 1 GHz: a tick is a nanosecond */

struct fake {
	struct stats_snapshot s;
	uint64_t tot[MIB_FIELD_MAX];
	uint64_t blk[(SW + 1) * MIB_FIELD_MAX];
	struct stats_thread th[SW];
};

/* Snapshot at t seconds after worker w received pk[w] packets in all. */
static void
__fake(struct fake *f, double t, const uint64_t pk[SW], uint64_t flips,
       unsigned int mode)
{
	unsigned int w;

	memset(f, 0, sizeof(*f));
	f->s.n_workers = SW;
	f->s.n_blocks = SW + 1;
	f->s.tsc_hz = HZ;
	f->s.tsc = (uint64_t)llround(t * (double)HZ) + 1000;
	f->s.uptime_s = t;
	f->s.raw_totals = f->tot;
	f->s.raw_per_block = f->blk;
	for (w = 0; w < SW; w++) {
		f->blk[w * MIB_FIELD_MAX + MIB_F(RX, PACKETS)] = pk[w];
		f->blk[w * MIB_FIELD_MAX + MIB_F(RX, OCTETS)] = 60 * pk[w];
		f->tot[MIB_F(RX, PACKETS)] += pk[w];
		f->tot[MIB_F(RX, OCTETS)] += 60 * pk[w];
	}
	f->tot[MIB_F(INGRESS, MODEFLIPS)] = flips;
	f->tot[MIB_MODE_F(mode, MIB_MODE_K_PACKETS)] = f->tot[MIB_F(RX, PACKETS)];
}

/* The same, with the workers' threads known: worker w lost lost_ns[w] in
 * all (its state 'R'), and the packets of each mode m cumulated in
 * mode_pk[m] (their cycles: as many). */
static void
__fake_lt(struct fake *f, double t, const uint64_t pk[SW], const uint64_t lost_ns[SW],
	  const uint64_t mode_pk[MIB_MODES])
{
	unsigned int w, m;

	__fake(f, t, pk, 0, 0);
	f->tot[MIB_MODE_F(0, MIB_MODE_K_PACKETS)] = 0;
	for (m = 0; m < MIB_MODES; m++) {
		f->tot[MIB_MODE_F(m, MIB_MODE_K_PACKETS)] = mode_pk[m];
		f->tot[MIB_MODE_F(m, MIB_MODE_K_BUSY)] = mode_pk[m];
	}
	for (w = 0; w < SW; w++) {
		f->th[w].known = true;
		f->th[w].lost_ns = lost_ns[w];
		f->th[w].state = 'R';
	}
	f->s.thread = f->th;
}

static void
test_series(void **state)
{
	/* 12 intervals of 0.1 s: worker 0 at 0.2, 0.5, 0.8 Mpps for the
	 * first three, then 1 Mpps; worker 1 at 1 Mpps throughout. */
	const double rate0[12] = { 0.2, 0.5, 0.8, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	struct stats_series *se = stats_series_create(SW, 0, 0);
	struct stats_summary sum;
	struct stats_rate lst[SW], r;
	struct stats_steady sd;
	struct fake f, fin;
	uint64_t pk[SW] = { 0, 0 };
	double mpps[16];
	unsigned int k, n;

	(void)state;
	assert_non_null(se);
	__fake(&f, 0, pk, 0, 2);
	assert_int_equal(stats_series_add(se, &f.s), 0);
	for (k = 0; k < 12; k++) {
		pk[0] += (uint64_t)llround(rate0[k] * 1e5);
		pk[1] += 100000;
		__fake(&f, 0.1 * (k + 1), pk, k >= 6 ? 1 : 0, 2);
		assert_int_equal(stats_series_add(se, &f.s), 0);
	}
	/* not later than the last point */
	assert_int_equal(stats_series_add(se, &f.s), -EINVAL);
	assert_int_equal(stats_series_count(se), 13);
	NEAR(stats_series_uptime(se, 4), 0.4, 1e-12);
	assert_int_equal(stats_series_value(se, 12, -1, STATS_SERIES_MODEFLIPS), 1);
	assert_int_equal(stats_series_value(se, 12, -1, STATS_SERIES_MODE0 + 2),
			 pk[0] + pk[1]);
	assert_int_equal(stats_series_value(se, 12, 1, STATS_SERIES_PACKETS), pk[1]);
	assert_int_equal(stats_series_rate(se, 0, 1, 0, &r), 0);
	NEAR(r.pps, 0.2e6, 1e-3);
	NEAR(r.seconds, 0.1, 1e-12);
	assert_int_equal(stats_series_rate(se, 1, 1, 0, &r), -EINVAL);
	assert_int_equal(stats_series_rate(se, 0, 1, SW, &r), -EINVAL);
	n = stats_series_mpps(se, 0, mpps);
	assert_int_equal(n, 12);
	NEAR(mpps[0], 1.2, 1e-9);
	NEAR(mpps[11], 2.0, 1e-9);

	/* auto: the warm-up ends at the start of interval 3 (0.3 s); the
	 * steady rates run from there to the final snapshot, 0.05 s later
	 * than the last point with 2 Mpps more of both workers */
	pk[0] += 50000;
	pk[1] += 50000;
	__fake(&fin, 1.25, pk, 1, 2);
	memset(&sum, 0, sizeof(sum));
	sum.n_workers = SW;
	sum.lcore_steady = lst;
	assert_int_equal(stats_series_steady(se, &fin.s, 0.1, -1, &sum, &sd), 0);
	assert_true(sd.detected && !sd.explicit_warmup);
	assert_false(sd.at_limit);
	assert_int_equal(sd.first_interval, 3);
	NEAR(sd.start_s, 0.3, 1e-12);
	assert_int_equal(sd.intervals, 12);
	assert_true(sum.steady_valid);
	NEAR(sum.steady.seconds, 0.95, 1e-9);
	NEAR(sum.steady.pps, 2e6, 1e-3);
	NEAR(lst[0].pps, 1e6, 1e-3);
	NEAR(lst[1].pps, 1e6, 1e-3);
	/* the steady intervals are all 2 Mpps: no spread */
	assert_int_equal(sd.spread.n, 9);
	NEAR(sd.spread.cv, 0, 1e-9);
	assert_false(sd.unstable);

	/* explicit --warmup 0: the summary's own steady rates stay; the
	 * spread takes every interval, and the ramp makes it unstable */
	memset(&sum, 0, sizeof(sum));
	sum.n_workers = SW;
	sum.lcore_steady = lst;
	sum.steady_valid = true;
	sum.steady.pps = 123;
	stats_steady_fini(&sd);
	assert_int_equal(stats_series_steady(se, &fin.s, 0.1, 0, &sum, &sd), 0);
	assert_true(sd.explicit_warmup && !sd.detected);
	assert_int_equal(sd.first_interval, 0);
	assert_true(sum.steady_valid && sum.steady.pps == 123);
	assert_int_equal(sd.spread.n, 12);
	NEAR(sd.spread.min, 1.2, 1e-9);
	NEAR(sd.spread.max, 2.0, 1e-9);
	assert_true(sd.spread.cv > STATS_CV_UNSTABLE);
	assert_true(sd.unstable);
	/* --warmup 0.5: from the interval that starts at 0.5 s */
	stats_steady_fini(&sd);
	assert_int_equal(stats_series_steady(se, &fin.s, 0.1, 0.5, &sum, &sd), 0);
	assert_int_equal(sd.first_interval, 5);
	assert_int_equal(sd.spread.n, 7);
	stats_steady_fini(&sd);
	stats_series_free(se);

	/* a rate that keeps rising: MSER stops at half the run, flagged */
	se = stats_series_create(SW, 0, 0);
	pk[0] = pk[1] = 0;
	for (k = 0; k <= 8; k++) {
		__fake(&f, 0.1 * k, pk, 0, 0);
		assert_int_equal(stats_series_add(se, &f.s), 0);
		pk[0] += 1000 * (k + 1);
	}
	memset(&sum, 0, sizeof(sum));
	sum.n_workers = SW;
	sum.lcore_steady = lst;
	assert_int_equal(stats_series_steady(se, &f.s, 0.1, -1, &sum, &sd), 0);
	assert_true(sd.detected && sd.at_limit);
	assert_int_equal(sd.first_interval, 4);
	assert_true(sum.steady_valid);
	stats_steady_fini(&sd);
	stats_series_free(se);

	/* folds back to back (a starved stats thread catching up on its
	 * deadlines) are not intervals: closer than min_gap_s, not kept; the
	 * next kept point's interval counts their packets */
	se = stats_series_create(SW, 0.05, 0);
	pk[0] = pk[1] = 0;
	__fake(&f, 0, pk, 0, 0);
	assert_int_equal(stats_series_add(se, &f.s), 0);
	pk[0] = 1000;
	__fake(&f, 0.1, pk, 0, 0);
	assert_int_equal(stats_series_add(se, &f.s), 0);
	pk[0] = 1010;
	__fake(&f, 0.101, pk, 0, 0);
	assert_int_equal(stats_series_add(se, &f.s), 1);
	pk[0] = 1020;
	__fake(&f, 0.102, pk, 0, 0);
	assert_int_equal(stats_series_add(se, &f.s), 1);
	pk[0] = 2000;
	__fake(&f, 0.2, pk, 0, 0);
	assert_int_equal(stats_series_add(se, &f.s), 0);
	assert_int_equal(stats_series_count(se), 3);
	assert_int_equal(stats_series_rate(se, 1, 2, 0, &r), 0);
	NEAR(r.seconds, 0.1, 1e-9);
	assert_int_equal(r.packets, 1000);
	stats_steady_fini(&sd);
	stats_series_free(se);

	/* three intervals: too few to detect; no steady part, and why */
	se = stats_series_create(SW, 0, 0);
	pk[0] = pk[1] = 0;
	for (k = 0; k < 4; k++) {
		__fake(&f, 0.1 * k, pk, 0, 0);
		assert_int_equal(stats_series_add(se, &f.s), 0);
		pk[0] += 1000;
	}
	memset(&sum, 0, sizeof(sum));
	sum.n_workers = SW;
	sum.lcore_steady = lst;
	sum.steady_valid = true;
	assert_int_equal(stats_series_steady(se, &f.s, 0.1, -1, &sum, &sd), 0);
	assert_false(sd.detected);
	assert_false(sum.steady_valid);
	assert_non_null(strstr(sum.steady_reason, "warm-up detection needs 4 intervals"));
	assert_non_null(strstr(sd.why, "the run had 3"));
	stats_steady_fini(&sd);
	stats_series_free(se);
}

/* Lost intervals are left out of the steady state, its spread and its
 * rates; a worker that lost less than its share is not. */
static void
test_series_lost(void **state)
{
	struct stats_series *se = stats_series_create(SW, 0, 0);
	uint64_t pk[SW] = { 0, 0 }, lost[SW] = { 0, 0 }, mp[MIB_MODES] = { 0 };
	struct stats_summary sum;
	struct stats_rate lst[SW], r;
	struct stats_steady sd;
	struct fake f;
	unsigned int k;

	(void)state;
	__fake_lt(&f, 0, pk, lost, mp);
	assert_int_equal(stats_series_add(se, &f.s), 0);
	for (k = 0; k < 10; k++) {
		/* intervals 4 and 5: worker 1 did not run for half of them, and
		 * received half as much; interval 7: 0.5 ms lost (< 1%) */
		pk[0] += 100000;
		pk[1] += k == 4 || k == 5 ? 50000 : 100000;
		lost[1] += k == 4 || k == 5 ? 50000000 : k == 7 ? 500000 : 0;
		mp[3] = pk[0] + pk[1];
		__fake_lt(&f, 0.1 * (k + 1), pk, lost, mp);
		assert_int_equal(stats_series_add(se, &f.s), 0);
	}
	for (k = 0; k < 10; k++) {
		assert_int_equal(stats_series_lost(se, k), k == 4 || k == 5);
		assert_int_equal(stats_series_mode(se, k), 3);
	}
	assert_int_equal(stats_series_rate(se, 4, 5, 1, &r), 0);
	assert_true(r.lost_known);
	NEAR(r.lost_s, 0.05, 1e-9);
	assert_int_equal(r.lost_cause, STATS_LOST_PREEMPTED);
	assert_int_equal(stats_series_rate(se, 4, 5, 0, &r), 0);
	NEAR(r.lost_s, 0, 1e-12);
	assert_int_equal(r.lost_cause, STATS_LOST_NONE);
	assert_int_equal(stats_series_rate(se, 7, 8, -1, &r), 0);
	assert_false(stats_rate_lost(&r));
	memset(&sum, 0, sizeof(sum));
	sum.n_workers = SW;
	sum.lcore_steady = lst;
	assert_int_equal(stats_series_steady(se, &f.s, 0.1, -1, &sum, &sd), 0);
	assert_false(sd.by_mode);
	assert_int_equal(sd.lost, 2);
	assert_true(sd.detected);
	assert_int_equal(sd.first_interval, 0);
	/* 8 intervals at 2 Mpps: no spread; the lost ones (1.5 Mpps) out */
	assert_int_equal(sd.spread.n, 8);
	NEAR(sd.spread.min, 2.0, 1e-9);
	assert_true(sum.steady_valid);
	NEAR(sum.steady.seconds, 0.8, 1e-9);
	NEAR(sum.steady.pps, 2e6, 1e-3);
	NEAR(lst[1].pps, 1e6, 1e-3);
	NEAR(sum.steady.lost_s, 0.0005, 1e-12);
	stats_steady_fini(&sd);
	stats_series_free(se);
}

/* A run whose mode changed: no steady state for the run, one per mode,
 * each stretch's warm-up detected on its own, the mixed interval out. */
static void
test_series_modes(void **state)
{
	struct stats_series *se = stats_series_create(SW, 0, 0);
	uint64_t pk[SW] = { 0, 0 }, lost[SW] = { 0, 0 }, mp[MIB_MODES] = { 0 };
	struct stats_summary sum;
	struct stats_rate lst[SW];
	struct stats_steady sd;
	struct fake f;
	unsigned int k;

	(void)state;
	__fake_lt(&f, 0, pk, lost, mp);
	assert_int_equal(stats_series_add(se, &f.s), 0);
	/* 8 intervals of lock (2: 0.5 then 1 Mpps a worker from the 2nd on),
	 * 1 interval flipped in its middle (half lock, half rcu), 8 of rcu
	 * (the first at 0.5 Mpps a worker, then 1.5), then 8 of lock again at
	 * 1 Mpps */
	for (k = 0; k < 25; k++) {
		uint64_t d = k == 0 || k == 9 ? 50000 : k < 8 || k >= 17 ? 100000 : 150000;

		pk[0] += d;
		pk[1] += d;
		if (k == 8) {
			mp[2] += d;
			mp[4] += d;
		} else {
			mp[k < 8 || k >= 17 ? 2 : 4] += 2 * d;
		}
		__fake_lt(&f, 0.1 * (k + 1), pk, lost, mp);
		assert_int_equal(stats_series_add(se, &f.s), 0);
	}
	assert_int_equal(stats_series_mode(se, 7), 2);
	assert_int_equal(stats_series_mode(se, 8), STATS_SERIES_MIXED);
	assert_int_equal(stats_series_mode(se, 9), 4);
	memset(&sum, 0, sizeof(sum));
	sum.n_workers = SW;
	sum.lcore_steady = lst;
	sum.steady_valid = true;
	assert_int_equal(stats_series_steady(se, &f.s, 0.1, -1, &sum, &sd), 0);
	assert_true(sd.by_mode);
	assert_false(sum.steady_valid);
	assert_non_null(strstr(sum.steady_reason, "mode changed"));
	assert_int_equal(sd.mixed, 1);
	assert_int_equal(sd.n_modes, 2);
	/* lock: two stretches of 8; the first one's slow interval is its
	 * warm-up, the second has none */
	assert_int_equal(sd.modes[0].mode, 2);
	assert_int_equal(sd.modes[0].stretches, 2);
	assert_int_equal(sd.modes[0].intervals, 16);
	assert_int_equal(sd.modes[0].warmup, 1);
	assert_int_equal(sd.modes[0].kept, 15);
	NEAR(sd.modes[0].total.pps, 2e6, 1e-3);
	NEAR(sd.modes[0].lcore[1].pps, 1e6, 1e-3);
	NEAR(sd.modes[0].spread.cv, 0, 1e-9);
	/* rcu: one stretch, its first interval a warm-up */
	assert_int_equal(sd.modes[1].mode, 4);
	assert_int_equal(sd.modes[1].stretches, 1);
	assert_int_equal(sd.modes[1].warmup, 1);
	assert_int_equal(sd.modes[1].kept, 7);
	NEAR(sd.modes[1].total.pps, 3e6, 1e-3);
	NEAR(sd.modes[1].first_s, 0.9, 1e-9);
	stats_steady_fini(&sd);
	stats_series_free(se);
}

/*
 * An endless run's history (stats_series_window()): 1000 points added to
 * a window of 8 keep the last 8 in order, count what was dropped, and the
 * spread of the steady state is that of the last 7 intervals.
 */
static void
test_series_window(void **state)
{
	struct stats_series *se = stats_series_create(SW, 0, 0);
	struct stats_summary sum;
	struct stats_rate lst[SW];
	struct stats_steady sd;
	struct fake f;
	uint64_t pk[SW] = { 0, 0 };
	unsigned int k;

	(void)state;
	assert_non_null(se);
	assert_int_equal(stats_series_window(se, 1), -EINVAL);
	assert_int_equal(stats_series_window(se, 8), 0);
	for (k = 0; k < 1000; k++) {
		/* 0.5 Mpps a worker, 1 Mpps from point 990 */
		pk[0] += k > 990 ? 100000 : 50000;
		pk[1] += k > 990 ? 100000 : 50000;
		__fake(&f, 0.1 * k, pk, 0, 2);
		assert_int_equal(stats_series_add(se, &f.s), 0);
		assert_int_equal(stats_series_count(se), k < 8 ? k + 1 : 8);
	}
	assert_int_equal(stats_series_dropped(se), 992);
	NEAR(stats_series_uptime(se, 0), 99.2, 1e-9);
	NEAR(stats_series_uptime(se, 7), 99.9, 1e-9);
	assert_int_equal(stats_series_value(se, 7, 0, STATS_SERIES_PACKETS), pk[0]);
	/* fewer than the points already kept */
	assert_int_equal(stats_series_window(se, 4), -EINVAL);
	memset(&sum, 0, sizeof(sum));
	sum.n_workers = SW;
	sum.lcore_steady = lst;
	assert_int_equal(stats_series_steady(se, &f.s, 0.1, 0, &sum, &sd), 0);
	assert_int_equal(sd.intervals, 7);
	assert_int_equal(sd.spread.n, 7);
	NEAR(sd.spread.min, 2.0, 1e-9);
	NEAR(sd.spread.max, 2.0, 1e-9);
	stats_steady_fini(&sd);
	/* what a window of 64 MiB holds for 2 and for 160 workers */
	assert_true(stats_series_bytes(SW, stats_series_points_in(SW, 64 << 20)) <=
		    64u << 20);
	assert_true(stats_series_bytes(160, stats_series_points_in(160, 64 << 20)) <=
		    64u << 20);
	assert_int_equal(stats_series_points_in(160, 0), 2);
	stats_series_free(se);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t975),	     cmocka_unit_test(test_paired_t),
		cmocka_unit_test(test_welch),	     cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_pairs),	     cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_spread),	     cmocka_unit_test(test_warmup),
		cmocka_unit_test(test_series),	     cmocka_unit_test(test_series_lost),
		cmocka_unit_test(test_series_modes), cmocka_unit_test(test_series_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
