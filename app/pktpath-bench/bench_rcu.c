/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_rcu_qsbr: a reader's quiescent-state report, and a writer's check /
 * synchronize while 1 or 2 reader lcores report quiescent states.
 *
 * Readers report in a tight loop (quiescent + pause), so a grace period
 * here is the lower bound: the cost of the token and counter cache lines
 * moving between cores, not of waiting for a reader to finish a burst.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_rcu_qsbr.h>

#include "pktpath_bench.h"

#define RCU_SYNC 0x100		/* param flag: synchronize, not check */
#define RCU_READERS(p) ((unsigned int)(p) & 0xff)

struct rcu_bench {
	struct rte_rcu_qsbr *v;
	unsigned int writer_tid;	/* the writer's own reader id, or INVALID */
	uint32_t stop __rte_cache_aligned;
	uint64_t checks;		/* writer only */
	uint64_t complete;		/* writer only */
};

static int
b_rcu_quiescent(struct bench_rec *rec, void *arg)
{
	struct rte_rcu_qsbr *v = arg;
	unsigned int tid = rte_lcore_id();
	uint64_t i;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		rte_rcu_qsbr_quiescent(v, tid);
	bench_stop(rec, rec->loops);
	return 0;
}

/* One poll per loop: start a grace period, check it without waiting. */
static int
b_rcu_check(struct bench_rec *rec, void *arg)
{
	struct rcu_bench *rb = arg;
	uint64_t i, complete = 0;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		uint64_t t = rte_rcu_qsbr_start(rb->v);

		if (rb->writer_tid != RTE_QSBR_THRID_INVALID)
			rte_rcu_qsbr_quiescent(rb->v, rb->writer_tid);
		complete += rte_rcu_qsbr_check(rb->v, t, false);
	}
	bench_stop(rec, rec->loops);
	rb->checks += rec->loops;
	rb->complete += complete;
	return 0;
}

/* A full grace period per loop. */
static int
b_rcu_sync(struct bench_rec *rec, void *arg)
{
	struct rcu_bench *rb = arg;
	uint64_t i;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		rte_rcu_qsbr_synchronize(rb->v, rb->writer_tid);
	bench_stop(rec, rec->loops);
	return 0;
}

/* A reader lcore: registered and put online by the main lcore before the
 * launch; reports quiescent states until told to stop, then goes offline
 * so that no later grace period waits on it. */
static int
rcu_reader(void *arg)
{
	struct rcu_bench *rb = arg;
	unsigned int tid = rte_lcore_id();

	/* Acquire pairs with the main lcore's release of stop. */
	while (!__atomic_load_n(&rb->stop, __ATOMIC_ACQUIRE)) {
		rte_rcu_qsbr_quiescent(rb->v, tid);
		rte_pause();
	}
	rte_rcu_qsbr_thread_offline(rb->v, tid);
	return 0;
}

static struct rte_rcu_qsbr *
rcu_create(void)
{
	size_t sz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);
	struct rte_rcu_qsbr *v = rte_zmalloc("pb_rcu", sz, RTE_CACHE_LINE_SIZE);

	if (v != NULL && rte_rcu_qsbr_init(v, RTE_MAX_LCORE) != 0) {
		rte_free(v);
		v = NULL;
	}
	return v;
}

static int
rcu_quiescent_run(struct pb_ctx *ctx, const struct pb_bench *b)
{
	struct rte_rcu_qsbr *v = rcu_create();
	unsigned int tid = rte_lcore_id();
	int ret;

	if (v == NULL)
		return pb_fail(ctx, b->name, -ENOMEM, "QSBR variable");
	rte_rcu_qsbr_thread_register(v, tid);
	rte_rcu_qsbr_thread_online(v, tid);
	ret = pb_run(ctx, false, b->name, b_rcu_quiescent, v, 0,
		     pb_loops(ctx, b->loops), NULL);
	rte_rcu_qsbr_thread_offline(v, tid);
	rte_rcu_qsbr_thread_unregister(v, tid);
	rte_free(v);
	return ret;
}

static int
rcu_writer_run(struct pb_ctx *ctx, const struct pb_bench *b)
{
	unsigned int want = RCU_READERS(b->param), on_workers = 0, lcore;
	unsigned int main_lcore = rte_lcore_id();
	unsigned int readers[RTE_MAX_LCORE];
	struct rcu_bench *rb;
	char who[128];
	size_t w = 0;
	int ret = 0;
	unsigned int i;

	rb = rte_zmalloc("pb_rcu_bench", sizeof(*rb), RTE_CACHE_LINE_SIZE);
	if (rb == NULL || (rb->v = rcu_create()) == NULL) {
		rte_free(rb);
		return pb_fail(ctx, b->name, -ENOMEM, "QSBR variable");
	}
	rb->writer_tid = RTE_QSBR_THRID_INVALID;
	/* Readers on worker lcores first; when there are not enough, the
	 * writer's own lcore is a reader too (it reports its own quiescent
	 * state, as a CPU calling synchronize_rcu() does). */
	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (on_workers == want)
			break;
		readers[on_workers++] = lcore;
		rte_rcu_qsbr_thread_register(rb->v, lcore);
		rte_rcu_qsbr_thread_online(rb->v, lcore);
		w += snprintf(who + w, sizeof(who) - w, "%s%u",
			      w ? ", " : "", lcore);
	}
	if (on_workers < want) {
		rb->writer_tid = main_lcore;
		rte_rcu_qsbr_thread_register(rb->v, main_lcore);
		rte_rcu_qsbr_thread_online(rb->v, main_lcore);
		snprintf(who + w, sizeof(who) - w,
			 "%s%u (the writer's own lcore, reporting its own quiescent state)",
			 w ? ", " : "", main_lcore);
	}
	printf("# %s: writer on lcore %u, reader lcores %s\n", b->name,
	       main_lcore, who);
	for (i = 0; i < on_workers; i++) {
		ret = rte_eal_remote_launch(rcu_reader, rb, readers[i]);
		if (ret < 0) {
			on_workers = i;
			pb_fail(ctx, b->name, ret, "launching a reader lcore");
			break;
		}
	}
	if (ret == 0)
		ret = pb_run(ctx, false, b->name,
			     b->param & RCU_SYNC ? b_rcu_sync : b_rcu_check, rb,
			     0, pb_loops(ctx, b->loops), NULL);
	/* Release: the readers stop after the writer's last grace period. */
	__atomic_store_n(&rb->stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < on_workers; i++)
		rte_eal_wait_lcore(readers[i]);
	if (ret == 0 && !(b->param & RCU_SYNC) && rb->checks)
		printf("# %s: the grace period had already ended at the first check in %.1f%% of loops\n",
		       b->name, 100.0 * (double)rb->complete / (double)rb->checks);
	if (rb->writer_tid != RTE_QSBR_THRID_INVALID)
		rte_rcu_qsbr_thread_offline(rb->v, rb->writer_tid);
	rte_free(rb->v);
	rte_free(rb);
	return ret;
}

const struct pb_bench pb_rcu_benches[] = {
	{ "rcu_quiescent", "rcu", 1, 10000000, "rte_rcu_qsbr_quiescent() by an online reader, no writer",
	  rcu_quiescent_run, 0 },
	{ "rcu_check_1r", "rcu", 2, 200000, "writer: rte_rcu_qsbr_start + one non-blocking rte_rcu_qsbr_check, 1 reader lcore",
	  rcu_writer_run, 1 },
	{ "rcu_check_2r", "rcu", 2, 200000, "writer: rte_rcu_qsbr_start + one non-blocking rte_rcu_qsbr_check, 2 reader lcores",
	  rcu_writer_run, 2 },
	{ "rcu_sync_1r", "rcu", 2, 100000, "writer: rte_rcu_qsbr_synchronize (a full grace period), 1 reader lcore",
	  rcu_writer_run, RCU_SYNC | 1 },
	{ "rcu_sync_2r", "rcu", 2, 100000, "writer: rte_rcu_qsbr_synchronize (a full grace period), 2 reader lcores",
	  rcu_writer_run, RCU_SYNC | 2 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};
