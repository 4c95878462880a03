/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/stats' readers on other threads than the stats
 * thread: stats_read()'s own folds (counted, timed, racing a clear),
 * stats_read_note() (--reader-links' folds) and stats_series_copy() (GET
 * /history's) racing stats_series_add(). What they assert is
 * deterministic: counts and consistency, never a time.
 *
 * EAL runs without hugepages or PCI (fixture_stats.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>

#include <rte_common.h>

#include "base.h"
#include "fixture_stats.h"
#include "stats_series.h"

/* stats_read() counts its folds (the quantile of the fold times is
 * base_quantile(), tested in test_base.c). */
static void
test_quantile_read(void **state)
{
	struct stats_snapshot *a, *b, *c;
	uint64_t n;
	unsigned int i;

	(void)state;
	/* the fixture's st has no fold_on_read: stats_read() is stats_get() */
	a = stats_get(st);
	b = stats_read(st);
	assert_ptr_equal(a, b);
	assert_false(b->read_fold);
	assert_int_equal(b->read_folds, 0);
	stats_put(st, b);
	stats_put(st, a);
	{
		struct mib_set *ms;
		struct stats_conf sc;
		struct stats *s;

		ms = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
		assert_non_null(ms);
		fixture_stats_conf(&sc, ms, 3600, 0, 0);
		sc.fold_on_read = true;
		s = stats_create(&sc);
		assert_non_null(s);
		assert_int_equal(stats_start(s), 0);
		b = stats_read(s);
		c = stats_read(s);
		assert_ptr_not_equal(b, c);
		assert_int_equal(b->read_folds, 1);
		assert_int_equal(c->read_folds, 2);
		assert_true(c->fold_on_read);
		for (n = 0, i = 0; i < STATS_READ_BUCKETS; i++)
			n += c->read_fold_buckets[i];
		assert_int_equal(n, 2);
		assert_true(c->read_fold_s_sum > 0);
		a = stats_get(s); /* never a read fold's snapshot */
		assert_false(a->read_fold);
		assert_int_equal(a->seq, c->seq);
		stats_put(s, a);
		stats_put(s, b);
		stats_put(s, c);
		stats_stop(s);
		{
			struct stats_summary *sum = stats_summary(s);

			assert_non_null(sum);
			assert_int_equal(sum->read_folds, 2);
			assert_true(sum->read_fold_p50_ns > 0);
			assert_true(sum->read_fold_p99_ns >= sum->read_fold_p50_ns);
			assert_int_equal(sum->folds, 0); /* none scheduled */
			stats_summary_free(sum);
		}
		own_stats_free(s, ms);
	}
}

/* stats_read() against stats_clear() on another thread, while a worker
 * counts: a read fold must never subtract a baseline newer than itself
 * (it wrapped to ~1.8e19 before: found by review, 6 in 100000 reads), and
 * each read is a fold of its own whose raw counters are at least the
 * previous read's (never the published snapshot instead: it is older). */
struct race {
	struct mib_set *ms;
	struct stats *s;
	volatile int stop;
};

static void *
race_writer(void *arg)
{
	struct race *r = arg;
	struct mib_block b = mib_set_block(r->ms, 0);

	while (!r->stop)
		mib_inc(&b, MIB_F(RX, PACKETS));
	return NULL;
}

static void *
race_clearer(void *arg)
{
	struct race *r = arg;

	while (!r->stop)
		stats_clear(r->s);
	return NULL;
}

static void
test_read_clear_race(void **state)
{
	struct race r = { .stop = 0 };
	struct stats_snapshot *p;
	struct stats_conf sc;
	pthread_t tw, tc;
	uint64_t clears = 0, reads = 0, v, w, raw, prev = 0;
	unsigned int i;

	(void)state;
	r.ms = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(r.ms);
	fixture_stats_conf(&sc, r.ms, 3600, 0, 0);
	sc.fold_on_read = true;
	r.s = stats_create(&sc);
	assert_non_null(r.s);
	assert_int_equal(stats_start(r.s), 0);
	assert_int_equal(pthread_create(&tw, NULL, race_writer, &r), 0);
	assert_int_equal(pthread_create(&tc, NULL, race_clearer, &r), 0);
	/* Until enough clears happened during the reads (or a bound). */
	for (i = 0; i < 200000 && (clears < 2000 || reads < 20000); i++) {
		p = stats_read(r.s);
		v = p->totals[MIB_F(RX, PACKETS)];
		w = p->per_block[MIB_F(RX, PACKETS)]; /* block 0 */
		if (v > p->raw_totals[MIB_F(RX, PACKETS)] || w > v)
			fail_msg("read %u: RxPackets %" PRIu64 " since clear %" PRIu64
				 ", block 0 %" PRIu64 ", raw %" PRIu64,
				 i, v, p->clears, w, p->raw_totals[MIB_F(RX, PACKETS)]);
		raw = p->raw_totals[MIB_F(RX, PACKETS)];
		if (!p->read_fold || raw < prev)
			fail_msg("read %u: %s, raw RxPackets %" PRIu64 " after %" PRIu64,
				 i, p->read_fold ? "a fold" : "no fold", raw, prev);
		prev = raw;
		clears = p->clears;
		reads++;
		stats_put(r.s, p);
	}
	r.stop = 1;
	pthread_join(tw, NULL);
	pthread_join(tc, NULL);
	print_message("read_clear_race: %" PRIu64 " reads across %" PRIu64 " clears\n",
		      reads, clears);
	assert_true(clears > 0);
	stats_stop(r.s);
	own_stats_free(r.s, r.ms);
}

/* stats_read_note() (--reader-links' folds): each note lands in the bucket
 * of its duration, counted, summed and in the summary's quantiles as a
 * stats_read() fold is; notes from two threads at once all counted (the
 * lock: unlocked, increments are lost). */
#define NOTES 1000000

struct notes {
	struct stats *s;
	pthread_barrier_t go; /* both threads start noting together */
};

static void *
note_thread(void *arg)
{
	struct notes *nt = arg;
	unsigned int i;

	pthread_barrier_wait(&nt->go);
	for (i = 0; i < NOTES; i++)
		stats_read_note(nt->s, 1500); /* bucket 1: 1 us < t <= 2.5 us */
	return NULL;
}

static void
test_read_note(void **state)
{
	double v[STATS_READ_BUCKETS * (STATS_READ_BUCKETS + 1) / 2], sum = 0;
	const double *bd = stats_read_fold_bounds_s;
	struct stats_summary *sm;
	struct stats_snapshot *p;
	struct mib_set *ms;
	unsigned int b, i, n = 0;
	struct notes nt;
	pthread_t t[2];
	struct stats *s;

	(void)state;
	s = own_stats(&ms, 3600, 0, 0);
	/* bucket b: b + 1 notes, halfway between its bounds (the last:
	 * twice the last bound) */
	for (b = 0; b < STATS_READ_BUCKETS; b++)
		for (i = 0; i <= b; i++) {
			double sec = b == 0 ? bd[0] / 2
				     : b == STATS_READ_BUCKETS - 1
					     ? 2 * bd[b - 1]
					     : (bd[b - 1] + bd[b]) / 2;

			v[n++] = sec * 1e9;
			sum += sec;
			stats_read_note(s, sec * 1e9);
		}
	stats_fold_now(s);
	p = stats_get(s);
	assert_int_equal(p->read_folds, n);
	for (b = 0; b < STATS_READ_BUCKETS; b++)
		if (p->read_fold_buckets[b] != b + 1)
			fail_msg("bucket %u: %" PRIu64 " notes, want %u", b,
				 p->read_fold_buckets[b], b + 1);
	assert_true(fabs(p->read_fold_s_sum - sum) <= 1e-9 * sum);
	stats_put(s, p);
	stats_stop(s);
	sm = stats_summary(s);
	assert_non_null(sm);
	assert_int_equal(sm->read_folds, n);
	assert_true(sm->read_fold_p50_ns == base_median(v, n, NULL, NULL));
	assert_true(sm->read_fold_p99_ns == base_quantile(v, n, 0.99));
	stats_summary_free(sm);
	own_stats_free(s, ms);

	s = own_stats(&ms, 3600, 0, 0);
	nt.s = s;
	assert_int_equal(pthread_barrier_init(&nt.go, NULL, RTE_DIM(t)), 0);
	for (i = 0; i < RTE_DIM(t); i++)
		assert_int_equal(pthread_create(&t[i], NULL, note_thread, &nt), 0);
	for (i = 0; i < RTE_DIM(t); i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&nt.go);
	stats_fold_now(s);
	p = stats_get(s);
	assert_int_equal(p->read_folds, RTE_DIM(t) * NOTES);
	assert_int_equal(p->read_fold_buckets[1], RTE_DIM(t) * NOTES);
	stats_put(s, p);
	stats_stop(s);
	own_stats_free(s, ms);
}

/* stats_series_copy() (GET /history) against stats_series_add() on another
 * thread, the window full so that every add drops the oldest point (the
 * point array moves): each copy must be one history, as of one moment.
 * Point k (the k-th added, from 0) has uptime k, worker w k * (w + 1)
 * packets and the total their sum, so a copy is consistent when its points
 * are consecutive, each one's values match its uptime, and the last is the
 * point numbered dropped + count - 1. Without the series lock a copy read
 * points the add was moving or freeing. */
#define SERIES_ADDS   200000
#define SERIES_WINDOW 256

struct series_race {
	struct stats_series *se;
	volatile int done;
};

static void *
series_adder(void *arg)
{
	struct series_race *r = arg;
	uint64_t *blk = calloc((size_t)NW * MIB_FIELD_MAX, sizeof(*blk));
	uint64_t *tot = calloc(MIB_FIELD_MAX, sizeof(*tot));
	struct stats_snapshot sn;
	unsigned int k, w;

	assert_non_null(blk);
	assert_non_null(tot);
	memset(&sn, 0, sizeof(sn));
	sn.n_workers = NW;
	sn.tsc_hz = 1000000000;
	sn.raw_per_block = blk;
	sn.raw_totals = tot;
	for (k = 0; k < SERIES_ADDS; k++) {
		tot[MIB_F(RX, PACKETS)] = 0;
		for (w = 0; w < NW; w++) {
			blk[(size_t)w * MIB_FIELD_MAX + MIB_F(RX, PACKETS)] =
				(uint64_t)k * (w + 1);
			tot[MIB_F(RX, PACKETS)] += (uint64_t)k * (w + 1);
		}
		sn.tsc = k + 1;
		sn.uptime_s = k;
		if (stats_series_add(r->se, &sn) != 0)
			fail_msg("add %u refused", k);
	}
	/* after the last add: its store of the points is seen by whoever
	 * sees done (the copier then makes one more copy) */
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	free(blk);
	free(tot);
	return NULL;
}

/* c is one history as of one moment (see above), or the test fails. */
static void
series_check(const struct stats_series *c)
{
	unsigned int n = stats_series_count(c), i, w;
	uint64_t first = stats_series_dropped(c), sum;

	if (n == 0 || n > SERIES_WINDOW)
		fail_msg("%u points (window %u)", n, SERIES_WINDOW);
	for (i = 0; i < n; i++) {
		uint64_t k = first + i;

		if (stats_series_uptime(c, i) != (double)k)
			fail_msg("point %u of %u (dropped %" PRIu64
				 "): uptime %g, want %" PRIu64,
				 i, n, first, stats_series_uptime(c, i), k);
		for (w = 0, sum = 0; w < NW; w++) {
			uint64_t v =
				stats_series_value(c, i, (int)w, STATS_SERIES_PACKETS);

			if (v != k * (w + 1))
				fail_msg("point %" PRIu64 " worker %u: %" PRIu64
					 " packets",
					 k, w, v);
			sum += v;
		}
		if (stats_series_value(c, i, -1, STATS_SERIES_PACKETS) != sum)
			fail_msg("point %" PRIu64 ": total %" PRIu64 ", workers %" PRIu64,
				 k, stats_series_value(c, i, -1, STATS_SERIES_PACKETS),
				 sum);
	}
}

static void
test_series_copy_race(void **state)
{
	struct series_race r = { .se = stats_series_create(NW, 0, 0) };
	struct stats_series *c;
	unsigned long copies = 0;
	pthread_t t;
	int done;

	(void)state;
	assert_non_null(r.se);
	assert_int_equal(stats_series_window(r.se, SERIES_WINDOW), 0);
	assert_int_equal(pthread_create(&t, NULL, series_adder, &r), 0);
	do {
		done = __atomic_load_n(&r.done, __ATOMIC_ACQUIRE);
		c = stats_series_copy(r.se);
		assert_non_null(c);
		if (stats_series_count(c) > 0)
			series_check(c);
		copies++;
		stats_series_free(c);
	} while (!done);
	pthread_join(t, NULL);
	/* the last copy was made after the last add */
	c = stats_series_copy(r.se);
	assert_non_null(c);
	assert_int_equal(stats_series_count(c), SERIES_WINDOW);
	assert_int_equal(stats_series_dropped(c), SERIES_ADDS - SERIES_WINDOW);
	series_check(c);
	stats_series_free(c);
	stats_series_free(r.se);
	print_message("series: %lu copies raced %u adds\n", copies, SERIES_ADDS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantile_read),
		cmocka_unit_test(test_read_clear_race),
		cmocka_unit_test(test_read_note),
		cmocka_unit_test(test_series_copy_race),
	};

	return cmocka_run_group_tests(tests, fixture_stats_setup, fixture_stats_teardown);
}
