/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the inetpeer-like stage of lib/path (peer.h), with an EAL
 * of 2 lcores and no hugepages (the table lives in rte_malloc memory):
 *
 *  - peer_table: creation refusals, layout names, where the hot fields sit
 *    relative to the key's cache line in each layout, hits, misses, exact
 *    Peer counters, last-use times, refcounts back to 0
 *  - peer_two_lcores: 2 lcores over the same peers at once, each layout:
 *    Lookups = Hits + Misses, Gets = Puts = Hits, refcount sum 0, exact
 *    hit counts whatever the interleaving
 *
 * No timing: the cost of each layout is pktpath-bench's "peer" group.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "fixture_eal.h"
#include "mib.h"
#include "peer.h"

#define PEER_BASE 0x0a000001u	/* 10.0.0.1 */

static void
test_peer_table(void **state)
{
	enum peer_layout l;
	struct mib_set *set;
	struct mib_block b;
	struct peer_table *t;
	uint32_t refs;
	uint64_t dtime;
	unsigned int i;

	(void)state;
	assert_null(peer_table_create(0, PEER_LAYOUT_SHARED, -1));
	assert_int_equal(errno, EINVAL);
	assert_null(peer_table_create(PEER_MAX + 1, PEER_LAYOUT_SPLIT, -1));
	assert_null(peer_table_create(8, PEER_LAYOUT_MAX, -1));
	assert_int_equal(peer_layout_parse("shared", &l), 0);
	assert_int_equal(l, PEER_LAYOUT_SHARED);
	assert_int_equal(peer_layout_parse("split", &l), 0);
	assert_int_equal(l, PEER_LAYOUT_SPLIT);
	assert_int_equal(peer_layout_parse("Split", &l), -EINVAL);
	assert_int_equal(peer_layout_parse(NULL, &l), -EINVAL);
	assert_string_equal(peer_layout_name(PEER_LAYOUT_SPLIT), "split");
	assert_string_equal(peer_layout_name(PEER_LAYOUT_MAX), "?");

	for (l = 0; l < PEER_LAYOUT_MAX; l++) {
		set = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
		assert_non_null(set);
		b = mib_set_block(set, 0);
		t = peer_table_create(64, l, -1);
		assert_non_null(t);
		assert_int_equal(peer_table_layout(t), l);
		assert_int_equal(peer_table_add(t, 0), -EINVAL);
		assert_int_equal(peer_table_add_range(t, PEER_BASE, 64), 0);
		assert_int_equal(peer_table_count(t), 64);
		assert_int_equal(peer_table_add(t, PEER_BASE), -EEXIST);
		assert_int_equal(peer_table_add(t, PEER_BASE + 64), -ENOSPC);
		/* Where the hot fields are, relative to the key's line. */
		for (i = 0; i <= t->mask; i++) {
			uintptr_t k = (uintptr_t)(t->keys + (size_t)i * t->key_stride);
			uintptr_t h = (uintptr_t)(t->hot + (size_t)i * t->hot_stride);
			uintptr_t rc = h + offsetof(struct peer_entry, refcnt);
			uintptr_t dt = h + offsetof(struct peer_entry, dtime);

			if (l == PEER_LAYOUT_SHARED) {
				assert_int_equal(k / 64, rc / 64);
				assert_int_equal(k / 64, dt / 64);
			} else {
				assert_int_equal(h % 64, 0);
				assert_true(k / 64 != rc / 64);
				assert_int_equal(rc / 64, dt / 64);
			}
		}
		/* Every known address hits, every unknown one misses. */
		for (i = 0; i < 64; i++)
			assert_true(peer_lookup_get_put(t, PEER_BASE + i, 1000 + i, &b));
		for (i = 64; i < 164; i++)
			assert_false(peer_lookup_get_put(t, PEER_BASE + i, 5, &b));
		assert_false(peer_lookup_get_put(t, 0, 5, &b));
		assert_int_equal(mib_read(&b, MIB_F(PEER, LOOKUPS)), 165);
		assert_int_equal(mib_read(&b, MIB_F(PEER, HITS)), 64);
		assert_int_equal(mib_read(&b, MIB_F(PEER, MISSES)), 101);
		assert_int_equal(mib_read(&b, MIB_F(PEER, GETS)), 64);
		assert_int_equal(mib_read(&b, MIB_F(PEER, PUTS)), 64);
		/* Misses never insert; a hit touches last-use. */
		assert_int_equal(peer_table_count(t), 64);
		assert_int_equal(peer_table_info(t, PEER_BASE + 100, NULL, NULL),
				 -ENOENT);
		assert_int_equal(peer_table_info(t, PEER_BASE + 7, &refs, &dtime), 0);
		assert_int_equal(refs, 0);
		assert_int_equal(dtime, 1007);
		assert_int_equal(peer_table_refcnt_sum(t), 0);
		peer_table_free(t);
		mib_set_free(set);
	}
	peer_table_free(NULL);
}

#define PEER_N 512u
#define PEER_LOOPS 2000000u

struct peer_run {
	struct peer_table *t;
	struct mib_set *set;
	uint32_t go;
	uint64_t hits[2];
};

/* Worker w: lookups over the known peers (all shared with the other
 * worker) and one unknown address in every 8. */
static int
peer_worker(void *arg)
{
	struct peer_run *p = arg;
	unsigned int w = rte_lcore_id() == rte_get_main_lcore() ? 0 : 1;
	struct mib_block b = mib_set_block(p->set, w);
	uint64_t i, hits = 0;

	/* Start together: acquire pairs with the main lcore's release. */
	__atomic_fetch_add(&p->go, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&p->go, __ATOMIC_ACQUIRE) < 2)
		rte_pause();
	for (i = 0; i < PEER_LOOPS; i++) {
		uint32_t addr = (i & 7) == 7 ? PEER_BASE + PEER_N + (uint32_t)i :
			PEER_BASE + (uint32_t)((i * 7 + w * 100) % PEER_N);

		hits += peer_lookup_get_put(p->t, addr, i, &b);
	}
	p->hits[w] = hits;
	return 0;
}

static void
test_peer_two_lcores(void **state)
{
	uint64_t tot[MIB_FIELD_MAX];
	int sockets[2] = { 0, 0 };
	unsigned int worker;
	enum peer_layout l;

	(void)state;
	assert_true(rte_lcore_count() >= 2);	/* -l 0-1 */
	worker = rte_get_next_lcore(-1, 1, 0);
	for (l = 0; l < PEER_LAYOUT_MAX; l++) {
		struct peer_run p = { 0 };
		uint64_t hits = PEER_LOOPS - PEER_LOOPS / 8;

		p.t = peer_table_create(PEER_N, l, (int)rte_socket_id());
		assert_non_null(p.t);
		assert_int_equal(peer_table_add_range(p.t, PEER_BASE, PEER_N), 0);
		p.set = mib_set_create(2, MIB_LAYOUT_PERCPU, sockets);
		assert_non_null(p.set);
		assert_int_equal(rte_eal_remote_launch(peer_worker, &p, worker), 0);
		peer_worker(&p);
		assert_int_equal(rte_eal_wait_lcore(worker), 0);

		mib_fold(p.set, MIB_FOLD_FIELD, tot, NULL);
		assert_int_equal(tot[MIB_F(PEER, LOOKUPS)], 2 * PEER_LOOPS);
		assert_int_equal(tot[MIB_F(PEER, LOOKUPS)],
				 tot[MIB_F(PEER, HITS)] + tot[MIB_F(PEER, MISSES)]);
		assert_int_equal(tot[MIB_F(PEER, HITS)], 2 * hits);
		assert_int_equal(p.hits[0] + p.hits[1], 2 * hits);
		assert_int_equal(tot[MIB_F(PEER, GETS)], tot[MIB_F(PEER, HITS)]);
		assert_int_equal(tot[MIB_F(PEER, PUTS)], tot[MIB_F(PEER, GETS)]);
		/* Every get had its put, whatever the interleaving. */
		assert_int_equal(peer_table_refcnt_sum(p.t), 0);
		assert_int_equal(peer_table_count(p.t), PEER_N);
		assert_int_equal(mib_check_conservation(tot, NULL, 0), 0);
		peer_table_free(p.t);
		mib_set_free(p.set);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peer_table),
		cmocka_unit_test(test_peer_two_lcores),
	};

	return cmocka_run_group_tests(tests, fixture_eal_setup,
				      fixture_eal_teardown);
}
