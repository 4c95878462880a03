/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive floor: the barest receive loop on the first ethdev port
 * (--vdev net_null0): rte_eth_rx_burst() of 32 and free, nothing else, in
 * four variants -- freed with rte_pktmbuf_free_bulk() or with an inlined
 * rte_pktmbuf_free() per packet (as testpmd 22.11's rxonly does), each with
 * and without one rte_rdtsc() per poll (what busy/idle accounting costs).
 * Then free_bulk again with the pool packed (see rx_pool_packed()).
 * Cycles per packet; set beside `pktpath --path rx-only` and `dpdk-testpmd
 * --forward-mode=rxonly` on the same vdev (scripts/bench.sh rxonly), it
 * tells what of a difference is the loop and what is the free and the TSC.
 *
 * Runs on the main lcore: put it where the others run (-l 1).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>

#include "pktpath_bench.h"

#define RX_BURST 32
#define RX_POOL_SIZE 16384
#define RX_CACHE 256
#define RX_DESC 1024

enum rx_variant {
	RV_BULK, RV_BULK_TSC, RV_PERPKT, RV_PERPKT_TSC,
	RV_PACKED, RV_PACKED_TSC,	/* free_bulk, the pool packed */
	RV_MAX
};

static const char *const rx_variant_names[RV_MAX] = {
	[RV_BULK] = "rx_free_bulk", [RV_BULK_TSC] = "rx_free_bulk_tsc",
	[RV_PERPKT] = "rx_free_each", [RV_PERPKT_TSC] = "rx_free_each_tsc",
	[RV_PACKED] = "rx_packed_free_bulk",
	[RV_PACKED_TSC] = "rx_packed_free_bulk_tsc",
};

struct rx_bench {
	uint16_t port;
	uint64_t tsc_sum;	/**< keeps the TSC reads live */
};

static __rte_always_inline int
rx_loop(struct bench_rec *rec, struct rx_bench *r, const bool each,
	const bool tsc)
{
	struct rte_mbuf *pkts[RX_BURST];
	uint64_t i, n = 0, prev = tsc ? rte_rdtsc() : 0, acc = 0;
	uint16_t k, j;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		if (tsc) {
			uint64_t now = rte_rdtsc();

			acc += now - prev;
			prev = now;
		}
		k = rte_eth_rx_burst(r->port, 0, pkts, RX_BURST);
		n += k;
		if (each)
			for (j = 0; j < k; j++)
				rte_pktmbuf_free(pkts[j]);
		else
			rte_pktmbuf_free_bulk(pkts, k);
	}
	bench_stop(rec, n);
	r->tsc_sum += acc;
	/* A port that never delivers would time empty polls as packets. */
	return n == 0 ? -EIO : 0;
}

static int
b_bulk(struct bench_rec *rec, void *arg)
{
	return rx_loop(rec, arg, false, false);
}

static int
b_bulk_tsc(struct bench_rec *rec, void *arg)
{
	return rx_loop(rec, arg, false, true);
}

static int
b_each(struct bench_rec *rec, void *arg)
{
	return rx_loop(rec, arg, true, false);
}

static int
b_each_tsc(struct bench_rec *rec, void *arg)
{
	return rx_loop(rec, arg, true, true);
}

static const bench_fn rx_fns[RV_MAX] = {
	[RV_BULK] = b_bulk, [RV_BULK_TSC] = b_bulk_tsc,
	[RV_PERPKT] = b_each, [RV_PERPKT_TSC] = b_each_tsc,
	[RV_PACKED] = b_bulk, [RV_PACKED_TSC] = b_bulk_tsc,
};

/*
 * The same mbufs, packed back to back. rte_pktmbuf_pool_create() keeps
 * every object within one page of the memory it gets: on hugepages that
 * packs them (2368-byte stride), but with --no-huge (4 KiB pages) each mbuf
 * gets a page of its own at the same offset, so every mbuf header maps to
 * the same L1 sets and the 32 of a burst evict each other. Without IOVA
 * contiguity per object (no DMA here) they pack as on a hugepage server.
 */
static struct rte_mempool *
rx_pool_packed(void)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = RTE_MBUF_DEFAULT_BUF_SIZE,
		.mbuf_priv_size = 0,
	};
	struct rte_mempool *mp;

	mp = rte_mempool_create_empty("pb_rx_packed", RX_POOL_SIZE,
				      sizeof(struct rte_mbuf) + RTE_MBUF_DEFAULT_BUF_SIZE,
				      RX_CACHE, sizeof(priv), (int)rte_socket_id(),
				      RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	if (mp == NULL)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL) != 0)
		goto fail;
	rte_pktmbuf_pool_init(mp, &priv);
	if (rte_mempool_populate_default(mp) < 0)
		goto fail;
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
fail:
	rte_mempool_free(mp);
	return NULL;
}

static int
rx_port_start(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	int rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, RX_DESC,
					    (unsigned int)rte_socket_id(), NULL, mp);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, RX_DESC,
					    (unsigned int)rte_socket_id(), NULL);
	if (rc == 0)
		rc = rte_eth_dev_start(port);
	return rc;
}

static int
rx_run(struct pb_ctx *ctx, const struct pb_bench *b)
{
	double cyc[RV_MAX] = { 0 };
	struct bench_result res;
	struct rx_bench r = { 0 };
	struct rte_mempool *mp, *packed = NULL;
	unsigned int v;
	int ret = 0, rc;

	if (rte_eth_dev_count_avail() == 0) {
		const char *why = "needs an ethdev port (--vdev net_null0)";

		fprintf(stderr, "pktpath-bench: %s skipped: %s\n", b->name, why);
		return bench_doc_skip(ctx->doc, b->name, why) < 0 ?
			pb_fail(ctx, b->name, -ENOMEM, "JSON result") : 0;
	}
	RTE_ETH_FOREACH_DEV(r.port)
		break;
	mp = rte_pktmbuf_pool_create("pb_rx", RX_POOL_SIZE, RX_CACHE, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE,
				     (int)rte_socket_id());
	if (mp == NULL)
		return pb_fail(ctx, b->name, -rte_errno, "rte_pktmbuf_pool_create");
	rc = rx_port_start(r.port, mp);
	if (rc != 0) {
		rte_mempool_free(mp);
		return pb_fail(ctx, b->name, rc, "port set-up");
	}
	for (v = 0; v < RV_MAX; v++) {
		if (v == RV_PACKED) {
			/* The same port, its queue refilled from the packed pool. */
			packed = rx_pool_packed();
			if (packed == NULL) {
				ret = pb_fail(ctx, b->name, -rte_errno, "packed pool");
				break;
			}
			rc = rte_eth_dev_stop(r.port);
			if (rc == 0)
				rc = rte_eth_rx_queue_setup(r.port, 0, RX_DESC,
					(unsigned int)rte_socket_id(), NULL, packed);
			if (rc == 0)
				rc = rte_eth_dev_start(r.port);
			if (rc != 0) {
				ret = pb_fail(ctx, b->name, rc, "port set-up (packed pool)");
				break;
			}
		}
		ret = pb_run(ctx, false, rx_variant_names[v], rx_fns[v], &r,
			     RX_BURST, pb_loops(ctx, b->loops), &res);
		if (ret < 0)
			break;
		cyc[v] = res.cycles.median;
	}
	if (ret == 0) {
		double hz = (double)rte_get_tsc_hz();

		printf("# rx: rte_eth_rx_burst(%u) + free on port %u, cycles per packet (median of %u reps)\n",
		       RX_BURST, r.port, ctx->reps);
		printf("| free | cycles/pkt | Mpps | + rdtsc per poll: cycles/pkt | Mpps |\n");
		printf("| :--- | ---: | ---: | ---: | ---: |\n");
		printf("| rte_pktmbuf_free_bulk | %.2f | %.2f | %.2f | %.2f |\n",
		       cyc[RV_BULK], hz / cyc[RV_BULK] / 1e6,
		       cyc[RV_BULK_TSC], hz / cyc[RV_BULK_TSC] / 1e6);
		printf("| rte_pktmbuf_free each | %.2f | %.2f | %.2f | %.2f |\n",
		       cyc[RV_PERPKT], hz / cyc[RV_PERPKT] / 1e6,
		       cyc[RV_PERPKT_TSC], hz / cyc[RV_PERPKT_TSC] / 1e6);
		printf("| rte_pktmbuf_free_bulk, pool packed | %.2f | %.2f | %.2f | %.2f |\n",
		       cyc[RV_PACKED], hz / cyc[RV_PACKED] / 1e6,
		       cyc[RV_PACKED_TSC], hz / cyc[RV_PACKED_TSC] / 1e6);
		printf("# pool: rte_pktmbuf_pool_create() (%s), then packed back to back (RTE_MEMPOOL_F_NO_IOVA_CONTIG)\n",
		       rte_eal_has_hugepages() ? "hugepages: already packed" :
		       "--no-huge: one mbuf per 4 KiB page, all at the same offset");
	}
	rc = rte_eth_dev_stop(r.port);
	if (rc == 0)
		rc = rte_eth_dev_close(r.port);
	if (rc != 0 && ret == 0)
		ret = pb_fail(ctx, b->name, rc, "port stop/close");
	rte_mempool_free(mp);
	rte_mempool_free(packed);
	return ret;
}

const struct pb_bench pb_rx_benches[] = {
	{ "rx", "rx", 1, 1000000, "table: rx_burst(32) + free on the first port (--vdev net_null0): free_bulk vs free each, with/without rdtsc per poll, default vs packed pool",
	  rx_run, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 },
};
