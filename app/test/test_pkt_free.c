/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit test of pkt_free_burst() (lib/pkt/pkt.h), the free of a received
 * burst as testpmd's rxonly frees it: a burst of direct, single-reference,
 * one-segment mbufs of one pool goes back to it whole; a burst with any
 * other mbuf anywhere in it (another pool's, a second reference, a chain,
 * an indirect clone) is freed as rte_pktmbuf_free_bulk() frees it. Every
 * kind of mbuf at every place of the burst (first, middle, last): each
 * pool gets back exactly what it lent, no mbuf twice (the pools' counts),
 * and what it gives again is a clean mbuf (refcnt 1, one segment).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "fixture_eal.h"
#include "pkt.h"

#define POOL  255u
#define BURST 32u

static struct rte_mempool *pa, *pb;

/* The kinds of mbuf a burst may hold at one place. */
enum kind {
	K_PLAIN,
	K_OTHER_POOL,
	K_REFCNT2,
	K_CHAIN,
	K_INDIRECT,
	K_MAX
};
static const char *const kind_name[K_MAX] = { "plain", "other pool", "refcnt 2", "chain",
					      "indirect" };

static void
__full(const char *what, enum kind k, unsigned int at)
{
	if (rte_mempool_avail_count(pa) != POOL || rte_mempool_avail_count(pb) != POOL)
		fail_msg("%s at %u: %s: pools hold %u and %u of %u", kind_name[k], at,
			 what, rte_mempool_avail_count(pa), rte_mempool_avail_count(pb),
			 POOL);
}

/* A burst of BURST mbufs of pa, with one of kind k at place at; freed by
 * pkt_free_burst(); then what the test kept, freed. */
static void
__free_case(enum kind k, unsigned int at)
{
	struct rte_mbuf *pkts[BURST], *kept = NULL, *all[POOL];
	unsigned int i;

	assert_int_equal(rte_pktmbuf_alloc_bulk(pa, pkts, BURST), 0);
	switch (k) {
	case K_OTHER_POOL:
		rte_pktmbuf_free(pkts[at]);
		pkts[at] = rte_pktmbuf_alloc(pb);
		break;
	case K_REFCNT2:
		rte_mbuf_refcnt_update(pkts[at], 1);
		kept = pkts[at];
		break;
	case K_CHAIN: {
		struct rte_mbuf *tail = rte_pktmbuf_alloc(pb);

		assert_non_null(tail);
		assert_int_equal(rte_pktmbuf_chain(pkts[at], tail), 0);
		break;
	}
	case K_INDIRECT:
		kept = pkts[at];
		pkts[at] = rte_pktmbuf_clone(kept, pb);
		break;
	default:
		break;
	}
	assert_non_null(pkts[at]);
	pkt_free_burst(pkts, BURST);
	if (kept != NULL) {
		/* the burst gave back its reference, not the test's */
		if (rte_mbuf_refcnt_read(kept) != 1 ||
		    rte_mempool_avail_count(pa) != POOL - 1)
			fail_msg("%s at %u: the test's mbuf: refcnt %u, pool %u of %u",
				 kind_name[k], at, rte_mbuf_refcnt_read(kept),
				 rte_mempool_avail_count(pa), POOL);
		rte_pktmbuf_free(kept);
	}
	__full("after the free", k, at);
	/* every mbuf comes back clean, none twice */
	assert_int_equal(rte_pktmbuf_alloc_bulk(pa, all, POOL), 0);
	for (i = 0; i < POOL; i++)
		if (rte_mbuf_refcnt_read(all[i]) != 1 || all[i]->nb_segs != 1 ||
		    all[i]->next != NULL || !RTE_MBUF_DIRECT(all[i]))
			fail_msg("%s at %u: mbuf %u given again: refcnt %u, %u segments",
				 kind_name[k], at, i, rte_mbuf_refcnt_read(all[i]),
				 all[i]->nb_segs);
	rte_pktmbuf_free_bulk(all, POOL);
	__full("after a second round", k, at);
}

static void
test_free_burst(void **state)
{
	const unsigned int places[] = { 0, BURST / 2, BURST - 1 };
	unsigned int k, p;

	(void)state;
	for (k = 0; k < K_MAX; k++)
		for (p = 0; p < RTE_DIM(places); p++)
			__free_case((enum kind)k, places[p]);
}

/* A burst of one mbuf, either kind. */
static void
test_free_one(void **state)
{
	struct rte_mbuf *m;

	(void)state;
	m = rte_pktmbuf_alloc(pb);
	assert_non_null(m);
	pkt_free_burst(&m, 1);
	__full("one mbuf", K_PLAIN, 0);
	m = rte_pktmbuf_alloc(pa);
	assert_non_null(m);
	rte_mbuf_refcnt_update(m, 1);
	pkt_free_burst(&m, 1);
	assert_int_equal(rte_mbuf_refcnt_read(m), 1);
	pkt_free_burst(&m, 1);
	__full("one mbuf, refcnt 2", K_REFCNT2, 0);
}

static int
setup(void **state)
{
	if (fixture_eal_setup(state) != 0)
		return -1;
	/* no per-lcore cache: the counts are the pools' own */
	pa = rte_pktmbuf_pool_create("free_a", POOL, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     SOCKET_ID_ANY);
	pb = rte_pktmbuf_pool_create("free_b", POOL, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     SOCKET_ID_ANY);
	return pa != NULL && pb != NULL ? 0 : -1;
}

static int
teardown(void **state)
{
	rte_mempool_free(pa);
	rte_mempool_free(pb);
	return fixture_eal_teardown(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_burst),
		cmocka_unit_test(test_free_one),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
