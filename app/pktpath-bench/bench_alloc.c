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
 *
 * "slab" is the thread's own table over lib/slab (SLUB's fast path): cycles
 * per object of slab_alloc_bulk + slab_free_bulk of `bulk` 256-byte
 * objects (slab_bulk_test01), the next-object prefetch off and on, then
 * the reviewer's case: objects taken one at a time with work between the
 * prefetch and the use (each object built as an sk_buff head before the
 * next pop), off and on. Each repetition is its own bench_run(); one that
 * lost more than BENCH_PREEMPT_PCT of its time is dropped, and the table
 * says per row how many were, beside min/median/max of the rest.
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

#include "base.h"
#include "pkt.h"
#include "pktpath_bench.h"
#include "slab.h"

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

/* ---- slab: the SLUB thread's table ---- */

enum slab_col {
	SC_BULK,
	SC_BULK_PF,
	SC_WORK,
	SC_WORK_PF,
	SC_MAX
};

static const char *const slab_col_names[SC_MAX] = {
	[SC_BULK] = "bulk",
	[SC_BULK_PF] = "bulk_pf",
	[SC_WORK] = "work",
	[SC_WORK_PF] = "work_pf",
};

/* The thread's figures (slab_nomerge), cycles per object, before -> with
 * the next-object prefetch, in alloc_bulks[]' order. */
static const unsigned int slub_before[] = { 49, 30, 23, 20, 18, 17, 18,
					    18, 23, 21, 20, 27, 30, 37 };
static const unsigned int slub_after[] = { 49, 31, 25, 22, 19, 18, 17,
					   19, 24, 22, 21, 27, 30, 37 };
static_assert(RTE_DIM(slub_before) == RTE_DIM(alloc_bulks) &&
		      RTE_DIM(slub_after) == RTE_DIM(alloc_bulks),
	      "the thread's figures, a bulk size each");

/* Objects a repetition handles, whatever the bulk: loops = this / bulk
 * (short repetitions: fewer of them preempted on a shared machine). */
#define SLAB_OBJS_PER_REP 25000
/* Repetitions run at most, per repetition asked, to keep enough of them. */
#define SLAB_TRIES	  3
/* Pages of 32 objects: room for the largest bulk and a page more. */
#define SLAB_PAGES	  ((ALLOC_MAX_BULK + 31) / 32 + 1)

struct slab_bench {
	struct slab_cache c;
	unsigned int bulk;
	void *objs[ALLOC_MAX_BULK];
};

/* alloc_bulk + free_bulk of n, nothing between (slab_bulk_test01). */
static __rte_always_inline int
slab_bulk(struct bench_rec *rec, struct slab_bench *s)
{
	unsigned int n = s->bulk;
	uint64_t i;
	int ret = 0;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		if (unlikely(slab_alloc_bulk(&s->c, s->objs, n) != n)) {
			ret = -ENOMEM;
			break;
		}
		slab_free_bulk(&s->c, s->objs, n);
	}
	bench_stop(rec, i * n);
	return ret;
}

/* n objects taken one at a time, each built as an sk_buff head (184
 * bytes cleared, a few fields set) before the next pop: work between the
 * prefetch of the next object and its use. Then one bulk free. */
static __rte_always_inline int
slab_work(struct bench_rec *rec, struct slab_bench *s)
{
	unsigned int n = s->bulk, j;
	uint64_t i;
	int ret = 0;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		for (j = 0; j < n; j++) {
			if (unlikely(slab_alloc_bulk(&s->c, &s->objs[j], 1) != 1)) {
				ret = -ENOMEM;
				goto out;
			}
			memset(s->objs[j], 0, PKT_SKB_HEAD_CLEAR);
			((struct pkt_skb_head *)s->objs[j])->len = j;
			((struct pkt_skb_head *)s->objs[j])->users = 1;
		}
		slab_free_bulk(&s->c, s->objs, n);
	}
out:
	bench_stop(rec, i * n);
	return ret;
}

static int
b_slab_bulk(struct bench_rec *rec, void *arg)
{
	return slab_bulk(rec, arg);
}

static int
b_slab_work(struct bench_rec *rec, void *arg)
{
	return slab_work(rec, arg);
}

static const bench_fn slab_fns[SC_MAX] = {
	[SC_BULK] = b_slab_bulk,
	[SC_BULK_PF] = b_slab_bulk,
	[SC_WORK] = b_slab_work,
	[SC_WORK_PF] = b_slab_work,
};

/* One cell: repetitions, each its own bench_run(), until ctx->reps were
 * not preempted or SLAB_TRIES * ctx->reps were run; those preempted are
 * dropped (*dropped), min/median/max of the rest in *st (*kept of them;
 * all 0 when none is left). The result recorded in the JSON is the last
 * repetition's with these figures: reps run, preempted_reps dropped. */
static int
slab_cell(struct pb_ctx *ctx, struct slab_bench *s, enum slab_col col, uint64_t loops,
	  struct bench_stat *st, unsigned int *kept_n, unsigned int *dropped)
{
	struct bench_result res;
	struct bench_spec spec = { .fn = slab_fns[col], .arg = s, .step = s->bulk };
	char name[BENCH_NAME_LEN];
	double kept[BENCH_MAX_REPS]; /* reps <= BENCH_MAX_REPS */
	unsigned int r, k = 0;
	int ret;

	snprintf(name, sizeof(name), "slab_%s/bulk%u", slab_col_names[col], s->bulk);
	spec.name = name;
	slab_cache_prefetch(&s->c, col == SC_BULK_PF || col == SC_WORK_PF);
	*dropped = 0;
	for (r = 0; k < ctx->reps && r < SLAB_TRIES * ctx->reps; r++) {
		memset(&res, 0, sizeof(res));
		ret = bench_run(&spec, loops, 1, &res);
		if (ret < 0) {
			fprintf(stderr, "pktpath-bench: %s\n", res.error);
			ctx->failures++;
			return ret;
		}
		if (res.preempted_reps)
			(*dropped)++;
		else
			kept[k++] = res.cycles.median;
	}
	memset(st, 0, sizeof(*st));
	if (k)
		st->median = base_median(kept, k, &st->min, &st->max);
	*kept_n = k;
	res.reps = r;
	res.preempted_reps = *dropped;
	res.cycles = *st;
	res.ns = (struct bench_stat){ bench_cycles_to_ns(st->min),
				      bench_cycles_to_ns(st->median),
				      bench_cycles_to_ns(st->max) };
	if (bench_doc_add(ctx->doc, &res) < 0) {
		fprintf(stderr, "pktpath-bench: %s: out of memory for the JSON result\n",
			name);
		ctx->failures++;
	}
	return 0;
}

static void
slab_print_cell(const struct bench_stat *st, unsigned int kept)
{
	if (kept == 0)
		printf(" all preempted |");
	else
		printf(" %.1f (%.1f–%.1f) |", st->median, st->min, st->max);
}

static int
slab_run(struct pb_ctx *ctx, const struct pb_bench *b)
{
	static struct bench_stat st[RTE_DIM(alloc_bulks)][SC_MAX];
	static unsigned int dropped[RTE_DIM(alloc_bulks)][SC_MAX];
	static unsigned int kept[RTE_DIM(alloc_bulks)][SC_MAX];
	const struct slab_conf conf = {
		.size = PKT_SKB_HEAD_SIZE,
		.offset = PKT_SKB_HEAD_FP,
		.page_size = PKT_SKB_HEAD_PAGE,
		.n_pages = SLAB_PAGES,
		.socket = (int)rte_socket_id(),
	};
	static struct slab_bench s;
	unsigned int i, c;
	uint64_t objs = pb_loops(ctx, b->loops);
	int ret;

	ret = slab_cache_init(&s.c, &conf);
	if (ret < 0)
		return pb_fail(ctx, b->name, ret, "slab_cache_init");
	for (i = 0; i < RTE_DIM(alloc_bulks); i++) {
		s.bulk = alloc_bulks[i];
		for (c = 0; c < SC_MAX; c++) {
			ret = slab_cell(ctx, &s, c,
					RTE_MAX(objs / s.bulk, (uint64_t)BENCH_MIN_LOOPS),
					&st[i][c], &kept[i][c], &dropped[i][c]);
			if (ret < 0)
				goto out;
		}
	}
	printf("# slab: cycles per object, median (min–max) of %u repetitions not preempted (up to %u run);\n"
	       "#   lib/slab, %u-byte objects, free pointer at %u, %u-byte pages; alloc_bulk + free_bulk,\n"
	       "#   pf = the next-object prefetch (prefetch_freepointer); work = one object at a time,\n"
	       "#   each cleared (%u bytes) before the next pop, then free_bulk; SLUB = the thread's\n"
	       "#   figures (another machine), before -> with the prefetch\n",
	       ctx->reps, SLAB_TRIES * ctx->reps, PKT_SKB_HEAD_SIZE, PKT_SKB_HEAD_FP,
	       PKT_SKB_HEAD_PAGE, PKT_SKB_HEAD_CLEAR);
	printf("| bulk | SLUB | bulk | bulk + pf | work | work + pf | dropped (preempted) |\n");
	printf("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (i = 0; i < RTE_DIM(alloc_bulks); i++) {
		printf("| %u | %u → %u |", alloc_bulks[i], slub_before[i], slub_after[i]);
		for (c = 0; c < SC_MAX; c++)
			slab_print_cell(&st[i][c], kept[i][c]);
		printf(" %u %u %u %u |\n", dropped[i][SC_BULK], dropped[i][SC_BULK_PF],
		       dropped[i][SC_WORK], dropped[i][SC_WORK_PF]);
	}
out:
	slab_cache_fini(&s.c);
	return ret;
}

const struct pb_bench pb_alloc_benches[] = {
	{ "alloc", "alloc", 1, 20000,
	  "table: mempool get/put and pktmbuf alloc/free bulk, bulk 1..250, with and without prefetch",
	  alloc_run, 0 },
	{ "slab", "alloc", 1, SLAB_OBJS_PER_REP,
	  "table: the SLUB thread's, lib/slab bulk alloc+free, bulk 1..250, prefetch off/on, "
	  "with and without work between prefetch and use; preempted reps dropped",
	  slab_run, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};
