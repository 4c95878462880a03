/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bulk allocation, after the SLUB bulk-alloc thread (slab_bulk_test01):
 * cycles per object of get + use + put of `bulk` objects at a time, for
 * rte_mempool_get_bulk/put_bulk (raw objects) and rte_pktmbuf_alloc_bulk/
 * free_bulk (the same mbuf pool, with the mbuf reset and free checks), with
 * and without prefetching every returned object before it is used.
 *
 * "Use" is one store into the first cache line of the packet data, as a
 * generator writing a header does; it reads the mbuf header to find it.
 * The prefetch variant issues rte_prefetch0() on every returned mbuf header
 * first, so the loads of buf_addr can overlap.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_prefetch.h>

#include "pkt.h"
#include "pktpath_bench.h"

#define ALLOC_POOL_SIZE 8191
#define ALLOC_CACHE 256
#define ALLOC_MAX_BULK 256

static const unsigned int alloc_bulks[] = {
	1, 2, 3, 4, 8, 16, 30, 32, 34, 48, 64, 128, 158, 250
};

enum alloc_col { AC_MEMPOOL, AC_MEMPOOL_PF, AC_MBUF, AC_MBUF_PF, AC_MAX };

static const char *const alloc_col_names[AC_MAX] = {
	[AC_MEMPOOL] = "mempool", [AC_MEMPOOL_PF] = "mempool_pf",
	[AC_MBUF] = "mbuf", [AC_MBUF_PF] = "mbuf_pf",
};

struct alloc_bench {
	struct rte_mempool *pool;
	unsigned int bulk;
	struct rte_mbuf *objs[ALLOC_MAX_BULK];
};

static __rte_always_inline void
alloc_use(struct rte_mbuf **m, unsigned int n, bool prefetch)
{
	unsigned int j;

	if (prefetch)
		for (j = 0; j < n; j++)
			rte_prefetch0(m[j]);
	for (j = 0; j < n; j++)
		*((volatile uint8_t *)m[j]->buf_addr + RTE_PKTMBUF_HEADROOM) =
			(uint8_t)j;
}

static __rte_always_inline int
alloc_mempool(struct bench_rec *rec, struct alloc_bench *a, bool prefetch)
{
	void **objs = (void **)a->objs;
	unsigned int n = a->bulk;
	uint64_t i;
	int ret = 0;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		if (unlikely(rte_mempool_get_bulk(a->pool, objs, n) < 0)) {
			ret = -ENOMEM;
			break;
		}
		alloc_use(a->objs, n, prefetch);
		rte_mempool_put_bulk(a->pool, objs, n);
	}
	bench_stop(rec, i * n);
	return ret;
}

static __rte_always_inline int
alloc_mbuf(struct bench_rec *rec, struct alloc_bench *a, bool prefetch)
{
	unsigned int n = a->bulk;
	uint64_t i;
	int ret = 0;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		if (unlikely(rte_pktmbuf_alloc_bulk(a->pool, a->objs, n) != 0)) {
			ret = -ENOMEM;
			break;
		}
		alloc_use(a->objs, n, prefetch);
		rte_pktmbuf_free_bulk(a->objs, n);
	}
	bench_stop(rec, i * n);
	return ret;
}

static int
b_mempool(struct bench_rec *rec, void *arg)
{
	return alloc_mempool(rec, arg, false);
}

static int
b_mempool_pf(struct bench_rec *rec, void *arg)
{
	return alloc_mempool(rec, arg, true);
}

static int
b_mbuf(struct bench_rec *rec, void *arg)
{
	return alloc_mbuf(rec, arg, false);
}

static int
b_mbuf_pf(struct bench_rec *rec, void *arg)
{
	return alloc_mbuf(rec, arg, true);
}

static const bench_fn alloc_fns[AC_MAX] = {
	[AC_MEMPOOL] = b_mempool, [AC_MEMPOOL_PF] = b_mempool_pf,
	[AC_MBUF] = b_mbuf, [AC_MBUF_PF] = b_mbuf_pf,
};

static int
alloc_run(struct pb_ctx *ctx, const struct pb_bench *b)
{
	double cyc[RTE_DIM(alloc_bulks)][AC_MAX] = { { 0 } };
	struct bench_result res;
	struct alloc_bench a = { 0 };
	unsigned int i, c;
	char name[BENCH_NAME_LEN];
	int ret = 0;

	/* pkt_pool_create(): rte_errno is the failure's own, never stale */
	a.pool = pkt_pool_create("pb_alloc", ALLOC_POOL_SIZE, ALLOC_CACHE,
				 RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id(), 0);
	if (a.pool == NULL)
		return pb_fail(ctx, b->name, -rte_errno, "rte_pktmbuf_pool_create");
	for (i = 0; i < RTE_DIM(alloc_bulks); i++) {
		a.bulk = alloc_bulks[i];
		for (c = 0; c < AC_MAX; c++) {
			snprintf(name, sizeof(name), "alloc_%s/bulk%u",
				 alloc_col_names[c], a.bulk);
			ret = pb_run(ctx, false, name, alloc_fns[c], &a, a.bulk,
				     pb_loops(ctx, b->loops), &res);
			if (ret < 0)
				goto out;
			cyc[i][c] = res.cycles.median;
		}
	}
	printf("# alloc: cycles per object (median of %u reps), get + one store into the packet data + put,\n"
	       "#   %u mbufs of %u bytes, per-lcore cache %u; pf = rte_prefetch0 of every object returned\n",
	       ctx->reps, ALLOC_POOL_SIZE, RTE_MBUF_DEFAULT_BUF_SIZE,
	       ALLOC_CACHE);
	printf("| bulk | mempool get/put | mempool + pf | pktmbuf alloc/free_bulk | pktmbuf + pf |\n");
	printf("| ---: | ---: | ---: | ---: | ---: |\n");
	for (i = 0; i < RTE_DIM(alloc_bulks); i++)
		printf("| %u | %.1f | %.1f | %.1f | %.1f |\n", alloc_bulks[i],
		       cyc[i][AC_MEMPOOL], cyc[i][AC_MEMPOOL_PF],
		       cyc[i][AC_MBUF], cyc[i][AC_MBUF_PF]);
out:
	rte_mempool_free(a.pool);
	return ret;
}

const struct pb_bench pb_alloc_benches[] = {
	{ "alloc", "alloc", 1, 20000, "table: mempool get/put and pktmbuf alloc/free bulk, bulk 1..250, with and without prefetch",
	  alloc_run, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};
