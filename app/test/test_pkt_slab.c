/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/pkt's generator under --alloc slab (PKT_ALLOC_SLAB):
 * for bursts of 1 to 512, every packet has its own head from the
 * generator's slab cache, built around it as pkt_skb_head_build() says;
 * the mbufs are reuse's, in reuse's order; after pkt_gen_done() every head
 * is back on the cache's free list and the pool lends nothing more; the
 * prefetch switch hands out the same heads; pkt_gen_fini() gives it all
 * back. EAL: fixture_eal.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "fixture_eal.h"
#include "pkt.h"

#define MAX_BURST 512

/* Head h must be built around m: cleared to tail, then set. */
static void
__check_head(const struct pkt_skb_head *h, const struct rte_mbuf *m)
{
	unsigned int i;

	assert_ptr_equal(h->m, m);
	assert_int_equal(h->len, rte_pktmbuf_pkt_len(m));
	assert_int_equal(h->data_len, 0);
	for (i = 0; i < sizeof(h->cleared); i++)
		assert_int_equal(h->cleared[i], 0);
	assert_ptr_equal(h->head, m->buf_addr);
	assert_ptr_equal(h->data, rte_pktmbuf_mtod(m, const void *));
	assert_int_equal(h->tail, m->data_off + rte_pktmbuf_data_len(m));
	assert_int_equal(h->end, m->buf_len);
	assert_int_equal(h->users, 1);
}

static void
test_gen_slab(void **state)
{
	static const uint16_t bursts[] = { 1, 2, 31, 32, 33, 64, 250, 512 };
	static struct rte_mbuf *pkts[2][MAX_BURST];
	static void *heads[2][MAX_BURST];
	struct pkt_flow_conf fc;
	struct pkt_templates *t;
	struct rte_mempool *mp;
	unsigned int b, r, i, k, avail;

	(void)state;
	pkt_flow_conf_default(&fc);
	fc.flows = 7;
	fc.pkt_size = 64;
	t = pkt_templates_build(&fc, NULL);
	assert_non_null(t);
	mp = pkt_pool_create("slab_gen", 2 * MAX_BURST + 255, 0,
			     RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id(), 0);
	if (mp == NULL)
		fail_msg("mempool: %s", rte_strerror(rte_errno));
	avail = rte_mempool_avail_count(mp);
	for (b = 0; b < RTE_DIM(bursts); b++) {
		const uint16_t n = bursts[b];
		struct pkt_gen g[2]; /* prefetch off, on */
		uint64_t cap;

		for (k = 0; k < 2; k++) {
			assert_int_equal(pkt_gen_init(&g[k], mp, t, PKT_ALLOC_SLAB, n),
					 0);
			pkt_gen_prefetch(&g[k], k == 1);
		}
		cap = slab_cache_capacity(&g[0].slab);
		assert_true(cap >= n);
		for (r = 0; r < 5; r++) {
			for (k = 0; k < 2; k++) {
				assert_int_equal(pkt_gen_burst(&g[k], pkts[k], n), n);
				memcpy(heads[k], g[k].heads, n * sizeof(void *));
				for (i = 0; i < n; i++) {
					assert_true(
						slab_cache_owns(&g[k].slab, heads[k][i]));
					__check_head(heads[k][i], pkts[k][i]);
					/* reuse's mbufs, in reuse's order */
					assert_ptr_equal(
						pkts[k][i],
						g[k].ring[(r * n + i) % g[k].ring_n]);
				}
			}
			/* the same heads with and without the prefetch */
			for (i = 0; i < n; i++)
				assert_int_equal((char *)heads[0][i] - g[0].slab.mem,
						 (char *)heads[1][i] - g[1].slab.mem);
			for (k = 0; k < 2; k++) {
				pkt_gen_done(&g[k], pkts[k], n);
				assert_int_equal(slab_cache_count_free(&g[k].slab) +
							 (int64_t)(g[k].slab.n_pages -
								   g[k].slab.next_page) *
								 g[k].slab.per_page,
						 (int64_t)cap);
			}
		}
		assert_int_equal(g[0].slab.fails, 0);
		for (k = 0; k < 2; k++)
			pkt_gen_fini(&g[k]);
		assert_int_equal(rte_mempool_avail_count(mp), avail);
	}
	pkt_templates_free(t);
	rte_mempool_free(mp);
}

/* The cache exhausted (its heads held by bursts never done): the burst is
 * refused (0), counted, and the generator goes on once heads come back. */
static void
test_gen_slab_exhausted(void **state)
{
	static struct rte_mbuf *pkts[64];
	struct pkt_flow_conf fc;
	struct pkt_templates *t;
	struct rte_mempool *mp;
	struct pkt_gen g;
	void *held[4096];
	uint64_t cap;
	unsigned int got = 0;

	(void)state;
	pkt_flow_conf_default(&fc);
	t = pkt_templates_build(&fc, NULL);
	assert_non_null(t);
	mp = pkt_pool_create("slab_ex", 255, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
			     (int)rte_socket_id(), 0);
	assert_non_null(mp);
	assert_int_equal(pkt_gen_init(&g, mp, t, PKT_ALLOC_SLAB, 64), 0);
	cap = slab_cache_capacity(&g.slab);
	assert_true(cap <= RTE_DIM(held));
	/* take the heads the way a burst does, and keep them */
	while (got + 64 <= cap) {
		assert_int_equal(pkt_gen_burst(&g, pkts, 64), 64);
		memcpy(held + got, g.heads, 64 * sizeof(void *));
		got += 64;
	}
	assert_true(cap - got < 64);
	assert_int_equal(pkt_gen_burst(&g, pkts, 64), 0);
	assert_int_equal(g.slab.fails, 1);
	slab_free_bulk(&g.slab, held, 64);
	assert_int_equal(pkt_gen_burst(&g, pkts, 64), 64);
	pkt_gen_done(&g, pkts, 64);
	pkt_gen_fini(&g);
	pkt_templates_free(t);
	rte_mempool_free(mp);
}

/* pkt_gen_bytes(), what set-up's memory check counts for the generator, is
 * what pkt_gen_init() takes from EAL's heap, within the heap's own overhead
 * (a header and trailer and the cache-line alignment of each of its three
 * allocations) and, under slab, the pages' alignment on their size (the
 * estimate counts a page for it), for every mode and bursts of 1 to 512. */
static uint64_t
__heap_bytes(void)
{
	struct rte_malloc_socket_stats st;

	assert_int_equal(rte_malloc_get_socket_stats((int)rte_socket_id(), &st), 0);
	return st.heap_allocsz_bytes;
}

static void
test_gen_bytes(void **state)
{
	static const uint16_t bursts[] = { 1, 32, 33, 250, 512 };
	struct pkt_flow_conf fc;
	struct pkt_templates *t;
	struct rte_mempool *mp;
	struct pkt_gen g;
	uint64_t before, took, est;
	unsigned int b, a;

	(void)state;
	pkt_flow_conf_default(&fc);
	fc.flows = 100;
	t = pkt_templates_build(&fc, NULL);
	assert_non_null(t);
	mp = pkt_pool_create("slab_bytes", 2047, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
			     (int)rte_socket_id(), 0);
	assert_non_null(mp);
	for (a = 0; a < PKT_ALLOC_MAX; a++)
		for (b = 0; b < RTE_DIM(bursts); b++) {
			before = __heap_bytes();
			assert_int_equal(
				pkt_gen_init(&g, mp, t, (enum pkt_alloc)a, bursts[b]), 0);
			took = __heap_bytes() - before;
			est = pkt_gen_bytes(t, (enum pkt_alloc)a, bursts[b]);
			print_message(
				"%s burst %u: estimate %" PRIu64 ", heap %" PRIu64 "\n",
				pkt_alloc_name((enum pkt_alloc)a), bursts[b], est, took);
			assert_true(took <= est + 3 * 4 * RTE_CACHE_LINE_SIZE);
			assert_true(
				took + (a == PKT_ALLOC_SLAB ? PKT_SKB_HEAD_PAGE : 0) >=
				est);
			if (a == PKT_ALLOC_SLAB)
				assert_true(est >= 2 * PKT_SKB_HEAD_PAGE);
			pkt_gen_fini(&g);
			assert_int_equal(__heap_bytes(), before);
		}
	assert_int_equal(pkt_gen_bytes(NULL, PKT_ALLOC_SLAB, 32), 0);
	pkt_templates_free(t);
	rte_mempool_free(mp);
}

/* "slab" is a name of the alloc modes, parsed back to itself. */
static void
test_gen_slab_name(void **state)
{
	enum pkt_alloc a = PKT_ALLOC_REUSE;

	(void)state;
	assert_string_equal(pkt_alloc_name(PKT_ALLOC_SLAB), "slab");
	assert_int_equal(pkt_alloc_parse("slab", &a), 0);
	assert_int_equal(a, PKT_ALLOC_SLAB);
	assert_int_equal(pkt_alloc_parse("slub", &a), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gen_slab),
		cmocka_unit_test(test_gen_slab_exhausted),
		cmocka_unit_test(test_gen_slab_name),
		cmocka_unit_test(test_gen_bytes),
	};

	return cmocka_run_group_tests(tests, fixture_eal_setup, fixture_eal_teardown);
}
