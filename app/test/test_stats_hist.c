/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of --perf-detail's histograms and suspicious polls
 * (lib/stats/stats_hist.h): every bin boundary, the values 0, 1 and
 * UINT64_MAX, nearest-rank percentiles on synthetic histograms with known
 * answers, the window after a clear, the worker's record of a suspicious
 * poll and the polls around it, and the reader's drain. Pure functions:
 * no EAL, no timing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats_hist.h"

static void
test_bins(void **state)
{
	/* the first bins' lowest values, by hand */
	static const uint64_t lo[] = { 0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48,
				       64, 96, 128, 192, 256 };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(lo) / sizeof(lo[0]); i++)
		assert_int_equal(stats_hist_lower(i), lo[i]);
	/* every boundary: a bin holds its lowest and highest values, and the
	 * value after its highest is the next bin's lowest */
	for (i = 0; i < STATS_HIST_BINS; i++) {
		assert_int_equal(stats_hist_bin(stats_hist_lower(i)), i);
		assert_int_equal(stats_hist_bin(stats_hist_upper(i)), i);
		if (i + 1 < STATS_HIST_BINS) {
			assert_int_equal(stats_hist_upper(i) + 1, stats_hist_lower(i + 1));
			assert_int_equal(stats_hist_bin(stats_hist_upper(i) + 1), i + 1);
		}
		if (i > 0)
			assert_int_equal(stats_hist_bin(stats_hist_lower(i) - 1), i - 1);
	}
	assert_int_equal(stats_hist_bin(0), 0);
	assert_int_equal(stats_hist_bin(1), 1);
	assert_int_equal(stats_hist_bin(5), 4);
	assert_int_equal(stats_hist_bin(6), 5);
	assert_int_equal(stats_hist_bin(100), 13);	/* 96 .. 127 */
	/* the last finite bin and the open one */
	assert_int_equal(stats_hist_lower(62), 1ull << 31);
	assert_int_equal(stats_hist_upper(62), 3221225471ull);
	assert_int_equal(stats_hist_lower(63), 3221225472ull);
	assert_true(stats_hist_upper(63) == UINT64_MAX);
	assert_int_equal(stats_hist_bin(3221225471ull), 62);
	assert_int_equal(stats_hist_bin(3221225472ull), 63);
	assert_int_equal(stats_hist_bin(1ull << 32), 63);
	assert_int_equal(stats_hist_bin(1ull << 63), 63);
	assert_int_equal(stats_hist_bin(UINT64_MAX), 63);
}

static void
test_add(void **state)
{
	struct stats_hist h;

	(void)state;
	memset(&h, 0, sizeof(h));
	stats_hist_add(&h, 0);
	stats_hist_add(&h, 1);
	stats_hist_add(&h, UINT64_MAX);
	assert_int_equal(h.bins[0], 1);
	assert_int_equal(h.bins[1], 1);
	assert_int_equal(h.bins[63], 1);
	assert_int_equal(stats_hist_count(&h), 3);
	assert_true(h.max == UINT64_MAX);
	assert_int_equal(h.sum, 0);	/* 1 + UINT64_MAX wraps: documented */
	assert_true(stats_hist_percentile(&h, 1000000) == UINT64_MAX);
	assert_int_equal(stats_hist_percentile(&h, 1), 0);	/* rank 1 */
	assert_int_equal(stats_hist_percentile(&h, 500000), 1);	/* rank 2 */
}

static void
test_percentiles(void **state)
{
	struct stats_hist h;
	unsigned int i;

	(void)state;
	memset(&h, 0, sizeof(h));
	assert_int_equal(stats_hist_percentile(&h, 500000), 0);	/* empty */
	/* 90 x 10, 9 x 100, 1 x 5000 */
	for (i = 0; i < 90; i++)
		stats_hist_add(&h, 10);
	for (i = 0; i < 9; i++)
		stats_hist_add(&h, 100);
	stats_hist_add(&h, 5000);
	assert_int_equal(stats_hist_count(&h), 100);
	assert_int_equal(h.sum, 900 + 900 + 5000);
	/* rank 50 and 90: 10, in 8 .. 11 */
	assert_int_equal(stats_hist_percentile(&h, 500000), 11);
	assert_int_equal(stats_hist_percentile(&h, 900000), 11);
	/* rank 91: 100, in 96 .. 127 */
	assert_int_equal(stats_hist_percentile(&h, 910000), 127);
	assert_int_equal(stats_hist_percentile(&h, 990000), 127);
	/* rank ceil(99.9) = 100: 5000, in 4096 .. 6143, capped at the max */
	assert_int_equal(stats_hist_percentile(&h, 999000), 5000);
	assert_int_equal(stats_hist_percentile(&h, 1000000), 5000);
	assert_int_equal(stats_hist_percentile(&h, 2000000), 5000);	/* clamped */
	/* the printed set */
	assert_int_equal(stats_hist_pct_ppm[0], 500000);
	assert_string_equal(stats_hist_pct_names[3], "p99.9");
	assert_int_equal(stats_hist_pct_ppm[4], 1000000);

	/* nearest rank at p99.9 of 1000 values: rank 999 */
	memset(&h, 0, sizeof(h));
	for (i = 0; i < 999; i++)
		stats_hist_add(&h, 1);
	stats_hist_add(&h, 1000);
	assert_int_equal(stats_hist_percentile(&h, 999000), 1);
	assert_int_equal(stats_hist_percentile(&h, 999001), 1000);
	/* of 3 values the median is rank 2 */
	memset(&h, 0, sizeof(h));
	stats_hist_add(&h, 2);
	stats_hist_add(&h, 4);
	stats_hist_add(&h, 8);
	assert_int_equal(stats_hist_percentile(&h, 500000), 5);	/* 4 .. 5 */
	assert_int_equal(stats_hist_percentile(&h, 333333), 2);	/* rank 1 */
	assert_int_equal(stats_hist_percentile(&h, 333334), 5);	/* rank 2 */
}

static void
test_delta_merge(void **state)
{
	struct stats_hist a, b, c, d, m;
	unsigned int i;

	(void)state;
	memset(&a, 0, sizeof(a));
	for (i = 0; i < 10; i++)
		stats_hist_add(&a, 1000);	/* before the clear, the run's max */
	b = a;
	for (i = 0; i < 5; i++)
		stats_hist_add(&b, 20);
	assert_false(stats_hist_delta(&d, &b, &a));
	assert_int_equal(stats_hist_count(&d), 5);
	assert_int_equal(d.sum, 100);
	/* the run's max (1000) is not in the window: the highest bin's
	 * upper bound (16 .. 23), not exact */
	assert_int_equal(d.max, 23);
	assert_int_equal(stats_hist_percentile(&d, 1000000), 23);
	/* ... nor when it falls in the window's highest bin: 1000 again */
	c = b;
	stats_hist_add(&c, 900);	/* 768 .. 1023 */
	assert_false(stats_hist_delta(&d, &c, &a));
	assert_int_equal(d.max, 1000);
	/* the run's max in the window: exact */
	stats_hist_add(&b, 3000);
	assert_true(stats_hist_delta(&d, &b, &a));
	assert_int_equal(d.max, 3000);
	/* from an empty start: exact */
	memset(&c, 0, sizeof(c));
	assert_true(stats_hist_delta(&d, &b, &c));
	assert_int_equal(d.max, 3000);
	/* empty window */
	assert_true(stats_hist_delta(&d, &a, &a));
	assert_int_equal(d.max, 0);
	assert_int_equal(stats_hist_count(&d), 0);
	/* merge */
	memset(&m, 0, sizeof(m));
	stats_hist_merge(&m, &a);
	stats_hist_merge(&m, &b);
	assert_int_equal(stats_hist_count(&m), 10 + 16);
	assert_int_equal(m.max, 3000);
	stats_hist_load(&d, &m);
	assert_memory_equal(&d, &m, sizeof(d));
}

static struct stats_perf *
__perf(uint64_t threshold)
{
	struct stats_perf *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	p->threshold = threshold;
	return p;
}

static void
test_suspicious(void **state)
{
	struct stats_perf *p = __perf(100);
	struct stats_perf_event ev[STATS_PERF_EVENTS];
	uint64_t cur = 0, lost = 0;
	unsigned int i, n = 0;

	(void)state;
	/* 20 busy polls, an empty one, the suspicious one, 15 more */
	for (i = 0; i < 20; i++)
		n += stats_perf_poll(p, 10 + i, 32, 2, 0, i, false);
	n += stats_perf_poll(p, 5, 0, 2, 0, 20, false);
	n += stats_perf_poll(p, 500, 7, 2, 0x10000, 21, false);
	for (i = 0; i < 15; i++)
		n += stats_perf_poll(p, 10, 32, 2, 0x10000, 22 + i, false);
	assert_int_equal(n, 1);
	/* its window is not over: nothing published yet */
	assert_int_equal(stats_perf_drain(p, &cur, ev, STATS_PERF_EVENTS, &lost), 0);
	/* a second suspicious poll inside the window: counted, no event */
	n += stats_perf_poll(p, 101, 1, 2, 0x10000, 37, false);
	assert_int_equal(n, 2);
	assert_int_equal(stats_perf_drain(p, &cur, ev, STATS_PERF_EVENTS, &lost), 1);
	assert_int_equal(lost, 0);
	assert_int_equal(ev[0].poll, 21);
	assert_int_equal(ev[0].cycles, 500);
	assert_int_equal(ev[0].packets, 7);
	assert_int_equal(ev[0].mode, 2);
	assert_int_equal(ev[0].tsc, 21);
	assert_int_equal(ev[0].ctl_start, 0);
	assert_int_equal(ev[0].ctl_end, 0x10000);
	assert_int_equal(ev[0].suspicious, 2);
	assert_int_equal(ev[0].n_before, STATS_PERF_WINDOW);
	assert_int_equal(ev[0].n_after, STATS_PERF_WINDOW);
	assert_int_equal(ev[0].win[STATS_PERF_WINDOW].cycles, 500);
	assert_int_equal(ev[0].win[STATS_PERF_WINDOW - 1].cycles, 5);
	assert_int_equal(ev[0].win[STATS_PERF_WINDOW - 1].packets, 0);
	assert_int_equal(ev[0].win[0].cycles, 10 + 5);	/* poll 5 */
	assert_int_equal(ev[0].win[2 * STATS_PERF_WINDOW].cycles, 101);
	/* histograms: busy polls only */
	assert_int_equal(stats_hist_count(&p->h[STATS_PERF_POLL_CYCLES]), 37);
	assert_int_equal(stats_hist_count(&p->h[STATS_PERF_POLL_PACKETS]), 37);
	assert_int_equal(p->h[STATS_PERF_POLL_PACKETS].max, 32);
	assert_int_equal(p->h[STATS_PERF_PKT_CYCLES].max, 500 / 7 > 101 ? 500 / 7 : 101);
	assert_int_equal(p->h[STATS_PERF_POLL_CYCLES].max, 500);
	/* a poll of exactly the threshold is not suspicious */
	assert_false(stats_perf_poll(p, 100, 1, 2, 0, 38, false));
	assert_int_equal(stats_hist_count(&p->h[STATS_PERF_POLL_CYCLES]), 38);
	/* a lost poll (longer than --stall-us: time not run): suspicious, in
	 * no histogram (no busy cycle holds it either) */
	assert_true(stats_perf_poll(p, 5000, 32, 2, 0, 39, true));
	assert_int_equal(stats_hist_count(&p->h[STATS_PERF_POLL_CYCLES]), 38);
	assert_int_equal(stats_hist_count(&p->h[STATS_PERF_PKT_CYCLES]), 38);
	/* early in the run, with the run ending inside its window */
	free(p);
	p = __perf(100);
	cur = 0;
	stats_perf_poll(p, 10, 1, STATS_PERF_NO_MODE, 0, 0, false);
	stats_perf_poll(p, 1000, 1, STATS_PERF_NO_MODE, 0, 1, false);
	stats_perf_poll(p, 10, 1, STATS_PERF_NO_MODE, 0, 2, false);
	stats_perf_finish(p);
	assert_int_equal(stats_perf_drain(p, &cur, ev, STATS_PERF_EVENTS, &lost), 1);
	assert_int_equal(ev[0].n_before, 1);
	assert_int_equal(ev[0].n_after, 1);
	assert_int_equal(ev[0].win[1].cycles, 1000);
	assert_int_equal(ev[0].mode, STATS_PERF_NO_MODE);
	stats_perf_finish(p);	/* nothing open: nothing more */
	assert_int_equal(stats_perf_drain(p, &cur, ev, STATS_PERF_EVENTS, &lost), 0);
	/* threshold 0: none is suspicious */
	free(p);
	p = __perf(0);
	assert_false(stats_perf_poll(p, UINT64_MAX, 1, 0, 0, 0, false));
	free(p);
}

static void
test_drain_lost(void **state)
{
	struct stats_perf *p = __perf(100);
	struct stats_perf_event ev[STATS_PERF_EVENTS];
	uint64_t cur = 0, lost = 0;
	unsigned int i, j, n;

	(void)state;
	/* STATS_PERF_EVENTS + 6 events, none read meanwhile */
	for (i = 0; i < STATS_PERF_EVENTS + 6; i++) {
		stats_perf_poll(p, 1000 + i, 1, 0, 0, 0, false);
		for (j = 0; j < STATS_PERF_WINDOW; j++)
			stats_perf_poll(p, 1, 1, 0, 0, 0, false);
	}
	n = stats_perf_drain(p, &cur, ev, STATS_PERF_EVENTS, &lost);
	assert_int_equal(n, STATS_PERF_EVENTS - 1);
	assert_int_equal(lost, 7);
	assert_int_equal(ev[0].cycles, 1000 + 7);	/* the oldest kept */
	assert_int_equal(ev[n - 1].cycles, 1000 + STATS_PERF_EVENTS + 5);
	assert_int_equal(cur, STATS_PERF_EVENTS + 6);
	/* a reader taking fewer than there are resumes where it stopped */
	stats_perf_poll(p, 2000, 1, 0, 0, 0, false);
	stats_perf_finish(p);
	stats_perf_poll(p, 3000, 1, 0, 0, 0, false);
	stats_perf_finish(p);
	assert_int_equal(stats_perf_drain(p, &cur, ev, 1, &lost), 1);
	assert_int_equal(ev[0].cycles, 2000);
	assert_int_equal(stats_perf_drain(p, &cur, ev, 1, &lost), 1);
	assert_int_equal(ev[0].cycles, 3000);
	assert_int_equal(lost, 7);
	assert_string_equal(stats_perf_kind_name(STATS_PERF_INGRESS_CYCLES),
			    "ingress_cycles");
	free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bins),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_delta_merge),
		cmocka_unit_test(test_suspicious),
		cmocka_unit_test(test_drain_lost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
