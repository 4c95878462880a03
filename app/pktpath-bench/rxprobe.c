/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LD_PRELOAD module: where the mbufs of a receive loop sit. Preloaded into
 * any DPDK program that starts its ports with rte_eth_dev_start()
 * (dpdk-testpmd, pktpath), it adds an RX callback to every queue and, at
 * the PKTPATH_RXPROBE_BURST-th non-empty burst of each (default 100000),
 * prints one line about that burst's mbufs: how many, the runs of
 * consecutive 4 KiB pages they make (sorted by address), and, where
 * /proc/self/pagemap gives physical frames (root), the most that share a
 * page colour (frame number mod 32: a 1 MiB 8-way L2's page colours).
 *
 *   LD_PRELOAD=build/app/pktpath-bench/pktpath-rxprobe.so dpdk-testpmd ...
 *
 * Measurement aid for the journal's "Pool order" (scripts/bench.d/journal/); it does nothing else.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#define PROBE_COLOURS 32

static uint64_t probe_at = 100000;

struct probe_q {
	uint16_t port, queue;
	uint64_t bursts;
};

static int
cmp_page(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void
probe_print(const struct probe_q *pq, struct rte_mbuf **pkts, uint16_t nb)
{
	uint64_t page[512];
	unsigned int colour[PROBE_COLOURS] = { 0 }, max_colour = 0;
	char runs[512];
	size_t off = 0;
	unsigned int i, run = 1;
	FILE *pm = fopen("/proc/self/pagemap", "rb");
	int pfn_ok = pm != NULL;

	nb = RTE_MIN(nb, (uint16_t)RTE_DIM(page));
	for (i = 0; i < nb; i++) {
		page[i] = (uint64_t)(uintptr_t)pkts[i] >> 12;
		if (pfn_ok) {
			uint64_t e = 0, pfn;

			if (fseek(pm, (long)(page[i] * 8), SEEK_SET) != 0 ||
			    fread(&e, 8, 1, pm) != 1)
				e = 0;
			pfn = e & ((1ull << 55) - 1);
			if (!(e >> 63) || pfn == 0)	/* not present, or hidden */
				pfn_ok = 0;
			else if (++colour[pfn % PROBE_COLOURS] > max_colour)
				max_colour = colour[pfn % PROBE_COLOURS];
		}
	}
	if (pm != NULL)
		fclose(pm);
	qsort(page, nb, sizeof(page[0]), cmp_page);
	runs[0] = '\0';
	for (i = 1; i <= nb; i++) {
		if (i < nb && page[i] == page[i - 1] + 1) {
			run++;
			continue;
		}
		if (off < sizeof(runs))
			off += (size_t)snprintf(runs + off, sizeof(runs) - off, " %u", run);
		run = 1;
	}
	fprintf(stderr, "pktpath-rxprobe: port %u queue %u burst %" PRIu64 ": %u mbufs, "
		"runs of consecutive pages:%s; ", pq->port, pq->queue, pq->bursts, nb, runs);
	if (pfn_ok)
		fprintf(stderr, "at most %u to a page colour (pfn mod %u)\n",
			max_colour, PROBE_COLOURS);
	else
		fprintf(stderr, "page colours unknown (no /proc/self/pagemap frames)\n");
}

static uint16_t
probe_cb(uint16_t port, uint16_t queue, struct rte_mbuf **pkts, uint16_t nb,
	 uint16_t max, void *arg)
{
	struct probe_q *pq = arg;

	RTE_SET_USED(port);
	RTE_SET_USED(queue);
	RTE_SET_USED(max);
	if (nb > 0 && ++pq->bursts == probe_at)
		probe_print(pq, pkts, nb);
	return nb;
}

int
rte_eth_dev_start(uint16_t port)
{
	int (*real)(uint16_t) = (int (*)(uint16_t))dlsym(RTLD_NEXT, "rte_eth_dev_start");
	struct rte_eth_dev_info info;
	const char *at = getenv("PKTPATH_RXPROBE_BURST");
	uint16_t q;
	int rc;

	if (real == NULL) {
		fprintf(stderr, "pktpath-rxprobe: rte_eth_dev_start not found\n");
		return -ENOSYS;
	}
	rc = real(port);
	if (rc != 0)
		return rc;
	if (at != NULL && strtoull(at, NULL, 10) > 0)
		probe_at = strtoull(at, NULL, 10);
	if (rte_eth_dev_info_get(port, &info) != 0)
		return rc;
	for (q = 0; q < info.nb_rx_queues; q++) {
		struct probe_q *pq = calloc(1, sizeof(*pq));	/* for the run's life */

		if (pq == NULL)
			break;
		pq->port = port;
		pq->queue = q;
		if (rte_eth_add_rx_callback(port, q, probe_cb, pq) == NULL) {
			fprintf(stderr, "pktpath-rxprobe: port %u queue %u: no RX callbacks (%s)\n",
				port, q, rte_strerror(rte_errno));
			free(pq);
		}
	}
	return rc;
}
