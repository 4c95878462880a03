/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the inetpeer-like stage of lib/path (peer.h), with an EAL
 * of 2 lcores and no hugepages (the table lives in rte_malloc memory):
 *
 *  - peer_table: creation refusals, layout names, exact Peer counters,
 *    last-use times, refcounts back to 0
 *  - peer_tree: for tables of 1..1000 peers added in several orders, every
 *    key is found within ceil(log2(n + 1)) comparisons, every other address
 *    misses, and the nodes sit where each layout promises (the key and the
 *    hot fields on one line in shared, on two in split)
 *  - peer_share: which peer each lcore looks up for a source address, for
 *    shares of 0..100 %, and the refusals
 *  - peer_lines: what the experiment claims, counted: two simulated lcores
 *    take turns, and every cache line a lookup reads is checked against the
 *    stores the other lcore made since this one last touched it. split:
 *    no key line is ever dirty; shared: key lines are dirty on the way to
 *    peers nobody else uses (false sharing), even at share 0
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
	assert_int_equal(peer_table_bytes(0, PEER_LAYOUT_SHARED), 0);
	assert_int_equal(peer_table_bytes(8, PEER_LAYOUT_SHARED) -
				 peer_table_bytes(4, PEER_LAYOUT_SHARED),
			 4 * 64);
	assert_int_equal(peer_table_bytes(8, PEER_LAYOUT_SPLIT) -
				 peer_table_bytes(4, PEER_LAYOUT_SPLIT),
			 4 * 128);
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
		assert_int_equal(peer_table_add_range(t, 0, 2), -EINVAL);
		assert_int_equal(peer_table_add_range(t, UINT32_MAX, 2), -EINVAL);
		assert_int_equal(peer_table_add_range(t, PEER_BASE, 65), -ENOSPC);
		assert_int_equal(peer_table_count(t), 0);
		assert_int_equal(peer_table_add_range(t, PEER_BASE + 2, 62), 0);
		/* all or none: one already there adds nothing */
		assert_int_equal(peer_table_add_range(t, PEER_BASE + 1, 2), -EEXIST);
		assert_int_equal(peer_table_count(t), 62);
		assert_int_equal(peer_table_add_range(t, PEER_BASE, 2), 0);
		assert_int_equal(peer_table_count(t), 64);
		assert_int_equal(peer_table_add(t, PEER_BASE), -EEXIST);
		assert_int_equal(peer_table_add(t, PEER_BASE + 64), -ENOSPC);
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

/* ceil(log2(n + 1)): the depth of a complete tree of n nodes. */
static unsigned int
depth_of(unsigned int n)
{
	unsigned int d = 0;

	while ((1ull << d) < (uint64_t)n + 1)
		d++;
	return d;
}

/* Where the nodes are: the key and the hot fields of every node on one
 * line (shared) or on two (split), and no two nodes on one line. */
static void
check_layout(const struct peer_table *t)
{
	uintptr_t prev_hot = 0;
	uint32_t i;

	for (i = 0; i < t->count; i++) {
		uintptr_t k = (uintptr_t)(t->keys + (size_t)i * t->stride);
		uintptr_t h = (uintptr_t)(t->hot + (size_t)i * t->stride);
		uintptr_t rc = h + offsetof(struct peer_hot, refcnt);
		uintptr_t dt = h + offsetof(struct peer_hot, dtime) + 7;

		assert_int_equal(k % 64, 0);
		assert_int_equal(rc / 64, dt / 64);
		if (peer_table_layout(t) == PEER_LAYOUT_SHARED)
			assert_int_equal(k / 64, rc / 64);
		else
			assert_int_equal(k / 64 + 1, rc / 64);
		assert_true(i == 0 || k / 64 > prev_hot / 64);
		prev_hot = dt;
	}
}

static void
test_peer_tree(void **state)
{
	static const unsigned int sizes[] = { 1, 2, 3, 4, 7, 8, 9, 100, 255, 1000 };
	uintptr_t lines[PEER_DEPTH_MAX], hot;
	unsigned int s, order, i, n, d;
	enum peer_layout l;

	(void)state;
	/* The promises, as the compiler sees them. */
	assert_int_equal(sizeof(struct peer_node_shared), 64);
	assert_int_equal(
		offsetof(struct peer_node_shared, key) / 64,
		(offsetof(struct peer_node_shared, hot) + sizeof(struct peer_hot) - 1) /
			64);
	assert_int_equal(sizeof(struct peer_node_split), 128);
	assert_int_equal(offsetof(struct peer_node_split, key) / 64, 0);
	assert_int_equal(offsetof(struct peer_node_split, hot), 64);
	for (l = 0; l < PEER_LAYOUT_MAX; l++)
		for (s = 0; s < RTE_DIM(sizes); s++)
			for (order = 0; order < 3; order++) {
				struct peer_table *t;

				n = sizes[s];
				t = peer_table_create(n, l, -1);
				assert_non_null(t);
				/* a range; one at a time, upwards; one at a time
				 * in a scattered order (a stride coprime with n,
				 * else downwards): the keys of the last two are
				 * 2 apart, so that the gaps miss */
				if (order == 0)
					assert_int_equal(
						peer_table_add_range(t, PEER_BASE, n), 0);
				for (i = 0; order != 0 && i < n; i++) {
					uint32_t k = order == 1	  ? i
						     : n % 7 != 0 ? i * 7 % n
								  : n - 1 - i;

					assert_int_equal(
						peer_table_add(t, PEER_BASE + 2 * k), 0);
				}
				assert_int_equal(peer_table_count(t), n);
				check_layout(t);
				d = depth_of(n);
				for (i = 0; i < n; i++) {
					uint32_t k = PEER_BASE + (order ? 2 * i : i);

					assert_non_null(peer_lookup(t, k));
					assert_in_range(
						peer_lookup_lines(t, k, lines, &hot), 1,
						d);
					assert_int_not_equal(hot, 0);
					if (order != 0) /* the gaps miss */
						assert_null(peer_lookup(t, k + 1));
				}
				assert_null(peer_lookup(t, PEER_BASE - 1));
				assert_null(peer_lookup(t, 0));
				assert_int_equal(
					peer_lookup_lines(t, PEER_BASE - 1, lines, &hot),
					d);
				assert_int_equal(hot, 0);
				peer_table_free(t);
			}
}

static void
test_peer_share(void **state)
{
	struct peer_table *t = peer_table_create(1000, PEER_LAYOUT_SPLIT, -1);
	unsigned int pct, j, w, shared;

	(void)state;
	assert_non_null(t);
	assert_int_equal(peer_table_add_range(t, PEER_BASE, 1000), 0);
	/* one lcore (the default): every address is its own */
	assert_int_equal(peer_target(t, PEER_BASE + 5, 0), PEER_BASE + 5);
	assert_int_equal(peer_table_share(t, 0, 50), -EINVAL);
	assert_int_equal(peer_table_share(t, RTE_MAX_LCORE + 1, 50), -EINVAL);
	assert_int_equal(peer_table_share(t, 2, 101), -EINVAL);
	for (pct = 0; pct <= 100; pct++)
		for (w = 2; w <= 4; w++) {
			assert_int_equal(peer_table_share(t, w, pct), 0);
			/* blocks of w addresses: shared ones map to themselves
			 * on every lcore, the others to the lcore's member */
			shared = 0;
			for (j = 0; j < 100; j++) {
				/* a member of block j, and an lcore it is not
				 * the member of */
				uint32_t a = PEER_BASE + j * w + j % w;
				bool sh = peer_target(t, a, (j + 1) % w) == a;
				unsigned int x;

				for (x = 0; x < w; x++)
					assert_int_equal(peer_target(t, a, x),
							 sh ? a : PEER_BASE + j * w + x);
				shared += sh;
			}
			/* exactly pct of every 100 blocks */
			assert_int_equal(shared, pct);
			/* outside the peers' range: the address itself */
			assert_int_equal(peer_target(t, PEER_BASE - 1, 1), PEER_BASE - 1);
			assert_int_equal(peer_target(t, PEER_BASE + 1000, 1),
					 PEER_BASE + 1000);
		}
	peer_table_free(t);
}

/*
 * Two lcores take turns, lookup by lookup, each through the sources of a
 * generator (every address, a stride apart, from its own offset), as
 * path_peer() looks them up. Cache lines are modelled as MESI keeps them
 * for a reader: a store by one lcore invalidates the line for the other,
 * and the other's next read of it is a coherence miss -- a line read that
 * the other lcore wrote since. Counted per lookup: key lines read dirty
 * (what the kernel patch removed) and hot lines read dirty by the get
 * (true sharing: the same peer used by both).
 */
#define LINES_PEERS  256u
#define LINES_ROUNDS 8u

struct lines_count {
	uint64_t lookups, keys_read, keys_dirty, hot_dirty;
};

static void
peer_lines_run(enum peer_layout l, unsigned int pct, struct lines_count *c)
{
	struct peer_table *t = peer_table_create(LINES_PEERS, l, -1);
	uintptr_t keys[PEER_DEPTH_MAX], hot, base;
	size_t n_lines = LINES_PEERS * 2;
	bool *inval[2];
	unsigned int k, i, w, n;

	assert_non_null(t);
	assert_int_equal(peer_table_add_range(t, PEER_BASE, LINES_PEERS), 0);
	assert_int_equal(peer_table_share(t, 2, pct), 0);
	base = (uintptr_t)t->mem / 64;
	for (w = 0; w < 2; w++) {
		inval[w] = calloc(n_lines, sizeof(bool));
		assert_non_null(inval[w]);
	}
	memset(c, 0, sizeof(*c));
	for (k = 0; k < LINES_PEERS * LINES_ROUNDS; k++)
		for (w = 0; w < 2; w++) {
			uint32_t src = PEER_BASE + (k * 37 + w * 101) % LINES_PEERS;
			uint32_t a = peer_target(t, src, w);

			n = peer_lookup_lines(t, a, keys, &hot);
			assert_true(peer_lookup_get_put_raw(t, a, k) == (hot != 0));
			c->lookups++;
			c->keys_read += n;
			for (i = 0; i < n; i++) {
				assert_in_range(keys[i] - base, 0, n_lines - 1);
				c->keys_dirty += inval[w][keys[i] - base];
				inval[w][keys[i] - base] = false;
			}
			assert_int_not_equal(hot, 0);
			/* the get reads the hot line, then writes it */
			c->hot_dirty += inval[w][hot - base];
			inval[w][hot - base] = false;
			inval[!w][hot - base] = true;
		}
	assert_int_equal(peer_table_refcnt_sum(t), 0);
	for (w = 0; w < 2; w++)
		free(inval[w]);
	peer_table_free(t);
}

static void
test_peer_lines(void **state)
{
	static const unsigned int pcts[] = { 0, 25, 50, 100 };
	struct lines_count c[PEER_LAYOUT_MAX];
	unsigned int p;
	enum peer_layout l;

	(void)state;
	printf("%u peers, 2 lcores taking turns, per lookup:\n", LINES_PEERS);
	printf("share  layout  keys read  key lines dirty  hot lines dirty\n");
	for (p = 0; p < RTE_DIM(pcts); p++) {
		for (l = 0; l < PEER_LAYOUT_MAX; l++) {
			peer_lines_run(l, pcts[p], &c[l]);
			printf("%4u%%  %-6s  %9.2f  %15.3f  %15.3f\n", pcts[p],
			       peer_layout_name(l), (double)c[l].keys_read / c[l].lookups,
			       (double)c[l].keys_dirty / c[l].lookups,
			       (double)c[l].hot_dirty / c[l].lookups);
		}
		/* The same search in both layouts. */
		assert_int_equal(c[PEER_LAYOUT_SHARED].keys_read,
				 c[PEER_LAYOUT_SPLIT].keys_read);
		assert_true(c[PEER_LAYOUT_SPLIT].keys_read >
			    5 * c[PEER_LAYOUT_SPLIT].lookups);
		/* split: no store ever reaches a key line */
		assert_int_equal(c[PEER_LAYOUT_SPLIT].keys_dirty, 0);
		/* split: the hot line of a peer both use is truly shared, and
		 * only then */
		if (pcts[p] == 0)
			assert_int_equal(c[PEER_LAYOUT_SPLIT].hot_dirty, 0);
		else
			assert_true(c[PEER_LAYOUT_SPLIT].hot_dirty > 0);
		/* shared: the dirty hot line is the key's (counted there) */
		assert_int_equal(c[PEER_LAYOUT_SHARED].hot_dirty, 0);
		/* shared: more than the true sharing, at every share: the
		 * key lines of the other lcore's peers on the way (at most
		 * one a lookup: the other lcore writes one line a lookup) */
		assert_true(c[PEER_LAYOUT_SHARED].keys_dirty >
			    c[PEER_LAYOUT_SPLIT].hot_dirty);
		if (pcts[p] == 0) /* false sharing alone */
			assert_true(c[PEER_LAYOUT_SHARED].keys_dirty >
				    c[PEER_LAYOUT_SHARED].lookups / 4);
		assert_true(c[PEER_LAYOUT_SHARED].keys_dirty <=
			    c[PEER_LAYOUT_SHARED].lookups);
	}
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
		cmocka_unit_test(test_peer_table),	cmocka_unit_test(test_peer_tree),
		cmocka_unit_test(test_peer_share),	cmocka_unit_test(test_peer_lines),
		cmocka_unit_test(test_peer_two_lcores),
	};

	return cmocka_run_group_tests(tests, fixture_eal_setup,
				      fixture_eal_teardown);
}
