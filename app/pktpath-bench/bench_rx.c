/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive floor: the barest receive loop on the first ethdev port
 * (--vdev net_null0): rte_eth_rx_burst() of 32 and free, nothing else, in
 * four variants -- freed with rte_pktmbuf_free_bulk() or with an inlined
 * rte_pktmbuf_free() per packet (as testpmd 22.11's rxonly does), each with
 * and without one rte_rdtsc() per poll (what busy/idle accounting costs),
 * on a new pool in address order; then free_bulk again on a new pool
 * shuffled (pkt_pool_shuffle(), pktpath's default) and on one packed.
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

#include "pkt.h"
#include "pktpath_bench.h"

#define RX_BURST 32
#define RX_POOL_SIZE 16384
#define RX_CACHE 256
#define RX_DESC 1024

enum rx_variant {
	RV_BULK, RV_BULK_TSC, RV_PERPKT, RV_PERPKT_TSC,	/* address order */
	RV_SHUF, RV_SHUF_TSC,		/* free_bulk, the pool shuffled */
	RV_PACKED, RV_PACKED_TSC,	/* free_bulk, the pool packed */
	RV_MAX
};

/* The pool each variant runs on: a new one where the flags change. */
static const unsigned int rx_variant_pool[RV_MAX] = {
	[RV_SHUF] = PKT_POOL_SHUFFLE, [RV_SHUF_TSC] = PKT_POOL_SHUFFLE,
	[RV_PACKED] = PKT_POOL_PACKED, [RV_PACKED_TSC] = PKT_POOL_PACKED,
};

static const char *const rx_variant_names[RV_MAX] = {
	[RV_BULK] = "rx_free_bulk", [RV_BULK_TSC] = "rx_free_bulk_tsc",
	[RV_PERPKT] = "rx_free_each", [RV_PERPKT_TSC] = "rx_free_each_tsc",
	[RV_SHUF] = "rx_shuffled_free_bulk",
	[RV_SHUF_TSC] = "rx_shuffled_free_bulk_tsc",
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

/* One function per variant, the flags constant in each (worker.c style). */
#define RX_VARIANT(name, each, tsc) \
	static int name(struct bench_rec *rec, void *arg) \
	{ return rx_loop(rec, arg, each, tsc); }
RX_VARIANT(b_bulk, false, false)
RX_VARIANT(b_bulk_tsc, false, true)
RX_VARIANT(b_each, true, false)
RX_VARIANT(b_each_tsc, true, true)

static const bench_fn rx_fns[RV_MAX] = {
	[RV_BULK] = b_bulk, [RV_BULK_TSC] = b_bulk_tsc,
	[RV_PERPKT] = b_each, [RV_PERPKT_TSC] = b_each_tsc,
	[RV_SHUF] = b_bulk, [RV_SHUF_TSC] = b_bulk_tsc,
	[RV_PACKED] = b_bulk, [RV_PACKED_TSC] = b_bulk_tsc,
};

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

/* The port's queue refilled from a new pool of these flags. */
static int
rx_pool_switch(uint16_t port, unsigned int flags, struct rte_mempool **mp)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	int rc;

	snprintf(name, sizeof(name), "pb_rx_%u", flags);
	*mp = pkt_pool_create(name, RX_POOL_SIZE, RX_CACHE,
			      RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id(), flags);
	if (*mp == NULL)
		return -rte_errno;
	rc = rte_eth_dev_stop(port);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, RX_DESC,
					    (unsigned int)rte_socket_id(), NULL, *mp);
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
	struct rte_mempool *mp[RV_MAX] = { NULL };
	unsigned int v, flags = 0;
	int ret = 0, rc;

	if (rte_eth_dev_count_avail() == 0) {
		const char *why = "needs an ethdev port (--vdev net_null0)";

		fprintf(stderr, "pktpath-bench: %s skipped: %s\n", b->name, why);
		return bench_doc_skip(ctx->doc, b->name, why) < 0 ?
			pb_fail(ctx, b->name, -ENOMEM, "JSON result") : 0;
	}
	RTE_ETH_FOREACH_DEV(r.port)
		break;
	mp[0] = pkt_pool_create("pb_rx", RX_POOL_SIZE, RX_CACHE,
				RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id(), 0);
	if (mp[0] == NULL)
		return pb_fail(ctx, b->name, -rte_errno, "rte_pktmbuf_pool_create");
	rc = rx_port_start(r.port, mp[0]);
	if (rc != 0) {
		rte_mempool_free(mp[0]);
		return pb_fail(ctx, b->name, rc, "port set-up");
	}
	for (v = 0; v < RV_MAX; v++) {
		if (rx_variant_pool[v] != flags) {
			flags = rx_variant_pool[v];
			rc = rx_pool_switch(r.port, flags, &mp[v]);
			if (rc != 0) {
				ret = pb_fail(ctx, b->name, rc, "port set-up (new pool)");
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
		static const struct {
			const char *label;
			enum rx_variant v, v_tsc;
		} rows[] = {
			{ "rte_pktmbuf_free_bulk", RV_BULK, RV_BULK_TSC },
			{ "rte_pktmbuf_free each", RV_PERPKT, RV_PERPKT_TSC },
			{ "rte_pktmbuf_free_bulk, pool shuffled", RV_SHUF, RV_SHUF_TSC },
			{ "rte_pktmbuf_free_bulk, pool packed", RV_PACKED, RV_PACKED_TSC },
		};
		double hz = (double)rte_get_tsc_hz();
		unsigned int i;

		printf("# rx: rte_eth_rx_burst(%u) + free on port %u, cycles per packet (median of %u reps)\n",
		       RX_BURST, r.port, ctx->reps);
		printf("| free | cycles/pkt | Mpps | + rdtsc per poll: cycles/pkt | Mpps |\n");
		printf("| :--- | ---: | ---: | ---: | ---: |\n");
		for (i = 0; i < RTE_DIM(rows); i++)
			printf("| %s | %.2f | %.2f | %.2f | %.2f |\n", rows[i].label,
			       cyc[rows[i].v], hz / cyc[rows[i].v] / 1e6,
			       cyc[rows[i].v_tsc], hz / cyc[rows[i].v_tsc] / 1e6);
		printf("# pool: rte_pktmbuf_pool_create() in address order (%s); "
		       "then shuffled (pkt_pool_shuffle()); then packed back to back "
		       "(RTE_MEMPOOL_F_NO_IOVA_CONTIG)\n",
		       rte_eal_has_hugepages() ? "hugepages: already packed" :
		       "--no-huge: one mbuf per 4 KiB page, all at the same offset");
	}
	rc = rte_eth_dev_stop(r.port);
	if (rc == 0)
		rc = rte_eth_dev_close(r.port);
	if (rc != 0 && ret == 0)
		ret = pb_fail(ctx, b->name, rc, "port stop/close");
	for (v = 0; v < RV_MAX; v++)
		rte_mempool_free(mp[v]);
	return ret;
}

const struct pb_bench pb_rx_benches[] = {
	{ "rx", "rx", 1, 1000000, "table: rx_burst(32) + free on the first port (--vdev net_null0): free_bulk vs free each, with/without rdtsc per poll, pool in address order vs shuffled vs packed",
	  rx_run, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 },
};
