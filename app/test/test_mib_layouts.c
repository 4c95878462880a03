/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/mib's sets in two layouts (mib_set_add_layout(), what
 * --compare mib-layout=percpu,shared runs on): every fold reads both copies
 * of every block, so that a writer that moves from one copy to the other
 * loses nothing and counts nothing twice, for every block count, field,
 * kind and fold strategy; and, with writers moving between the copies
 * while a reader folds, no total read ever goes down and the last one is
 * exactly what was written (run under ASan too: nothing a reader folds is
 * ever freed under it). No EAL needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_common.h>

#include "mib.h"
#include "test_rand.h"

/* The blocks a test walks: their counts, the powers of two and their
 * neighbours (the shared layout's stride). */
static const unsigned int set_sizes[] = { 1, 2, 3, 4, 5, 7, 8, 9, 64, 65 };

/* Set-up and refusals of a set in two layouts, and its sizes. */
static void
test_add_layout(void **state)
{
	enum mib_layout first, other;
	unsigned int i, k;

	(void)state;
	for (first = 0; first < MIB_LAYOUT_MAX; first++)
		for (k = 0; k < RTE_DIM(set_sizes); k++) {
			unsigned int n = set_sizes[k];
			struct mib_set *s = mib_set_create(n, first, NULL);
			int socket = 0;

			other = first == MIB_LAYOUT_PERCPU ? MIB_LAYOUT_SHARED
							   : MIB_LAYOUT_PERCPU;
			assert_non_null(s);
			assert_true(mib_set_has_layout(s, first));
			assert_false(mib_set_has_layout(s, other));
			assert_null(mib_set_block_in(s, 0, other).base);
			assert_int_equal(mib_set_layout_bytes(s, other), 0);
			assert_int_equal(mib_set_add_layout(s, first, NULL), -EEXIST);
			assert_int_equal(mib_set_add_layout(s, MIB_LAYOUT_MAX, NULL),
					 -EINVAL);
			/* sockets as at creation: none */
			assert_int_equal(mib_set_add_layout(s, other, &socket), -EINVAL);
			assert_false(mib_set_has_layout(s, other));
			assert_int_equal(mib_set_add_layout(s, other, NULL), 0);
			assert_int_equal(mib_set_add_layout(s, other, NULL), -EEXIST);
			assert_true(mib_set_has_layout(s, other));
			assert_int_equal(mib_set_layout(s), first);
			assert_int_equal(mib_set_count(s), n);
			assert_int_equal(mib_set_layout_bytes(s, first),
					 mib_set_bytes_for(n, first));
			assert_int_equal(mib_set_layout_bytes(s, other),
					 mib_set_bytes_for(n, other));
			assert_int_equal(mib_set_bytes(s),
					 mib_set_bytes_for(n, first) +
						 mib_set_bytes_for(n, other));
			assert_int_equal(mib_set_bytes_n(s, 1),
					 mib_set_bytes_for(1, first) +
						 mib_set_bytes_for(1, other));
			for (i = 0; i < n; i++) {
				struct mib_block a = mib_set_block(s, i);
				struct mib_block b = mib_set_block_in(s, i, first);
				struct mib_block c = mib_set_block_in(s, i, other);

				assert_ptr_equal(a.base, b.base);
				assert_int_equal(a.shift, b.shift);
				assert_non_null(c.base);
				assert_ptr_not_equal(c.base, a.base);
				/* other's copy is zeroed */
				assert_int_equal(mib_read(&c, MIB_F(IP, INRECEIVES)), 0);
			}
			assert_null(mib_set_block_in(s, n, other).base);
			mib_set_free(s);
		}
}

/* Random writes spread over both copies of every block, against the sum
 * (max) per block computed here, by both strategies, totals and per
 * block, and mib_fold_part(). */
static void
test_fold_both(void **state)
{
	enum mib_layout first;
	enum mib_fold st;
	unsigned int k, l, f;
	uint64_t seed = 0x6d69626c;

	(void)state;
	for (first = 0; first < MIB_LAYOUT_MAX; first++)
		for (k = 0; k < RTE_DIM(set_sizes); k++) {
			unsigned int n = set_sizes[k];
			struct mib_set *s = mib_set_create(n, first, NULL);
			uint64_t *want =
				calloc((size_t)n * MIB_FIELD_MAX, sizeof(uint64_t));
			uint64_t *pb =
				calloc((size_t)n * MIB_FIELD_MAX, sizeof(uint64_t));
			uint64_t tot[MIB_FIELD_MAX], wtot[MIB_FIELD_MAX];

			assert_non_null(s);
			assert_non_null(want);
			assert_non_null(pb);
			assert_int_equal(mib_set_add_layout(s, !first, NULL), 0);
			for (l = 0; l < n; l++)
				for (f = 0; f < MIB_FIELD_MAX; f++) {
					struct mib_block c[2] = {
						mib_set_block_in(s, l, MIB_LAYOUT_PERCPU),
						mib_set_block_in(s, l, MIB_LAYOUT_SHARED)
					};
					uint64_t v0 = test_rand(&seed) % 1000,
						 v1 = test_rand(&seed) % 1000;
					uint64_t *w =
						&want[(size_t)l * MIB_FIELD_MAX + f];

					/* some fields in one copy only */
					if (test_rand(&seed) % 4 == 0)
						v0 = 0;
					else if (test_rand(&seed) % 4 == 0)
						v1 = 0;
					if (mib_field_kind(f) == MIB_KIND_HWM) {
						mib_max(&c[0], f, v0);
						mib_max(&c[1], f, v1);
						*w = RTE_MAX(v0, v1);
					} else {
						mib_add(&c[0], f, v0);
						mib_add(&c[1], f, v1);
						*w = v0 + v1;
					}
				}
			for (f = 0; f < MIB_FIELD_MAX; f++) {
				wtot[f] = 0;
				for (l = 0; l < n; l++) {
					uint64_t v = want[(size_t)l * MIB_FIELD_MAX + f];

					wtot[f] = mib_field_kind(f) == MIB_KIND_HWM
							  ? RTE_MAX(wtot[f], v)
							  : wtot[f] + v;
				}
				if (mib_field_kind(f) == MIB_KIND_CONST)
					wtot[f] = (uint64_t)mib_field_const(f);
			}
			for (st = 0; st < MIB_FOLD_MAX; st++) {
				memset(pb, 0xa5,
				       (size_t)n * MIB_FIELD_MAX * sizeof(uint64_t));
				mib_fold(s, st, tot, pb);
				assert_memory_equal(tot, wtot, sizeof(tot));
				assert_memory_equal(pb, want,
						    (size_t)n * MIB_FIELD_MAX *
							    sizeof(uint64_t));
				mib_fold(s, st, tot, NULL);
				assert_memory_equal(tot, wtot, sizeof(tot));
				/* the first block's values only, every block's totals */
				memset(pb, 0xa5,
				       (size_t)n * MIB_FIELD_MAX * sizeof(uint64_t));
				mib_fold_part(s, st, tot, pb, 1);
				assert_memory_equal(tot, wtot, sizeof(tot));
				assert_memory_equal(pb, want,
						    MIB_FIELD_MAX * sizeof(uint64_t));
				if (n > 1)
					assert_int_equal(pb[MIB_FIELD_MAX],
							 0xa5a5a5a5a5a5a5a5ull);
			}
			free(want);
			free(pb);
			mib_set_free(s);
		}
}

/* ---- writers moving between the copies while a reader folds ---- */

#define SW_WRITERS 2
#define SW_INCS	   200000u /* per writer */
#define SW_EVERY   997u	   /* increments between two moves */

/* The counters the writers move (and a high-water mark, below). */
static const unsigned int sw_fields[] = { MIB_F(RX, PACKETS), MIB_F(IP, INRECEIVES) };

struct sw {
	struct mib_set *s;
	unsigned int done;  /* writers finished (atomic) */
	unsigned int moves; /* moves from one copy to the other (atomic) */
	uint64_t folds;	    /* the reader's */
	int bad;	    /* a total went down (the reader's) */
};

struct sw_writer {
	struct sw *x;
	unsigned int idx;
};

static void *
sw_write(void *arg)
{
	struct sw_writer *wr = arg;
	struct sw *x = wr->x;
	enum mib_layout lay = mib_set_layout(x->s);
	struct mib_block b = mib_set_block(x->s, wr->idx);
	unsigned int i, k;

	for (i = 1; i <= SW_INCS; i++) {
		for (k = 0; k < RTE_DIM(sw_fields); k++)
			mib_inc(&b, sw_fields[k]);
		mib_max(&b, MIB_F(INGRESS, GRACEPERIODMAXUS), i);
		if (i % SW_EVERY == 0) {
			/* between two writes, as a paused worker is moved */
			lay = lay == MIB_LAYOUT_PERCPU ? MIB_LAYOUT_SHARED
						       : MIB_LAYOUT_PERCPU;
			b = mib_set_block_in(x->s, wr->idx, lay);
			__atomic_fetch_add(&x->moves, 1, __ATOMIC_RELAXED);
		}
	}
	/* Release: the reader's last fold, after it sees done, sees all. */
	__atomic_fetch_add(&x->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *
sw_read(void *arg)
{
	struct sw *x = arg;
	uint64_t prev[MIB_FIELD_MAX] = { 0 }, tot[MIB_FIELD_MAX];
	enum mib_fold st = MIB_FOLD_FIELD;
	unsigned int f;
	bool last = false;

	while (!last) {
		/* Acquire: pairs with the writers' release, so that the fold
		 * after the last writer ended reads every write. */
		last = __atomic_load_n(&x->done, __ATOMIC_ACQUIRE) == SW_WRITERS;
		mib_fold(x->s, st, tot, NULL);
		st = st == MIB_FOLD_FIELD ? MIB_FOLD_LCORE : MIB_FOLD_FIELD;
		for (f = 0; f < MIB_FIELD_MAX; f++)
			if (tot[f] < prev[f])
				x->bad = 1;
		memcpy(prev, tot, sizeof(prev));
		x->folds++;
	}
	return NULL;
}

static void
test_switch_monotonic(void **state)
{
	enum mib_layout first;

	(void)state;
	for (first = 0; first < MIB_LAYOUT_MAX; first++) {
		struct sw x = { .s = mib_set_create(SW_WRITERS + 1, first, NULL) };
		struct sw_writer wr[SW_WRITERS];
		pthread_t tw[SW_WRITERS], tr;
		uint64_t tot[MIB_FIELD_MAX];
		unsigned int i, k;

		assert_non_null(x.s);
		assert_int_equal(mib_set_add_layout(x.s, !first, NULL), 0);
		assert_int_equal(pthread_create(&tr, NULL, sw_read, &x), 0);
		for (i = 0; i < SW_WRITERS; i++) {
			wr[i] = (struct sw_writer){ &x, i };
			assert_int_equal(pthread_create(&tw[i], NULL, sw_write, &wr[i]),
					 0);
		}
		for (i = 0; i < SW_WRITERS; i++)
			assert_int_equal(pthread_join(tw[i], NULL), 0);
		assert_int_equal(pthread_join(tr, NULL), 0);
		assert_int_equal(x.bad, 0);
		assert_true(x.folds > 0);
		assert_int_equal(x.moves, SW_WRITERS * (SW_INCS / SW_EVERY));
		/* nothing lost, nothing counted twice */
		mib_fold(x.s, MIB_FOLD_LCORE, tot, NULL);
		for (k = 0; k < RTE_DIM(sw_fields); k++)
			assert_int_equal(tot[sw_fields[k]],
					 (uint64_t)SW_WRITERS * SW_INCS);
		assert_int_equal(tot[MIB_F(INGRESS, GRACEPERIODMAXUS)], SW_INCS);
		/* the readers are done: only now is the set freed */
		mib_set_free(x.s);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_layout),
		cmocka_unit_test(test_fold_both),
		cmocka_unit_test(test_switch_monotonic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
