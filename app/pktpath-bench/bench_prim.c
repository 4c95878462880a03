/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Primitives in a tight loop (one lcore), and the contended / false-sharing
 * versions of some of them on every lcore at once.
 */
#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_rwlock.h>
#include <rte_spinlock.h>

#include "mib.h"
#include "pktpath_bench.h"

volatile uint64_t pb_sink;

/* Everything a primitive may touch, each on its own cache line. */
struct prim_state {
	rte_spinlock_t lock __rte_cache_aligned;
	rte_rwlock_t rwlock __rte_cache_aligned;
	uint64_t counter __rte_cache_aligned;
	struct mib_set *mib;
};

static int
b_empty(struct bench_rec *rec, void *arg)
{
	uint64_t i;

	RTE_SET_USED(arg);
	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		__asm__ volatile("" ::: "memory");
	bench_stop(rec, rec->loops);
	return 0;
}

/* Not inlined, and opaque (the asm) so that the call is kept. */
static __rte_noinline uint64_t
pb_nop(uint64_t x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

/* Read from memory at every call, as an ops-table entry would be. */
static uint64_t (*volatile pb_nop_ptr)(uint64_t) = pb_nop;

static int
b_call(struct bench_rec *rec, void *arg)
{
	uint64_t i, x = 0;

	RTE_SET_USED(arg);
	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		x = pb_nop(x);
	bench_stop(rec, rec->loops);
	pb_sink = x;
	return 0;
}

static int
b_call_ptr(struct bench_rec *rec, void *arg)
{
	uint64_t i, x = 0;

	RTE_SET_USED(arg);
	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		x = pb_nop_ptr(x);
	bench_stop(rec, rec->loops);
	pb_sink = x;
	return 0;
}

static int
b_rdtsc(struct bench_rec *rec, void *arg)
{
	uint64_t i, x = 0;

	RTE_SET_USED(arg);
	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		x += rte_rdtsc();
	bench_stop(rec, rec->loops);
	pb_sink = x;
	return 0;
}

/* A MIB counter update (relaxed load + store, no lock prefix) into this
 * worker's block: percpu blocks are private, shared ones interleaved. */
static int
b_counter(struct bench_rec *rec, void *arg)
{
	struct prim_state *s = arg;
	struct mib_block blk = mib_set_block(s->mib, rec->worker);
	uint64_t i;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		mib_inc(&blk, MIB_F(IP, INRECEIVES));
	bench_stop(rec, rec->loops);
	return 0;
}

static int
b_atomic(struct bench_rec *rec, void *arg)
{
	struct prim_state *s = arg;
	uint64_t i;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		__atomic_fetch_add(&s->counter, 1, __ATOMIC_RELAXED);
	bench_stop(rec, rec->loops);
	return 0;
}

static int
b_spinlock(struct bench_rec *rec, void *arg)
{
	struct prim_state *s = arg;
	uint64_t i;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		rte_spinlock_lock(&s->lock);
		rte_spinlock_unlock(&s->lock);
	}
	bench_stop(rec, rec->loops);
	return 0;
}

static int
b_trylock(struct bench_rec *rec, void *arg)
{
	struct prim_state *s = arg;
	uint64_t i, got = 0;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		if (rte_spinlock_trylock(&s->lock)) {
			rte_spinlock_unlock(&s->lock);
			got++;
		}
	bench_stop(rec, rec->loops);
	pb_sink = got;
	return 0;
}

static int
b_rwlock_read(struct bench_rec *rec, void *arg)
{
	struct prim_state *s = arg;
	uint64_t i;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		rte_rwlock_read_lock(&s->rwlock);
		rte_rwlock_read_unlock(&s->rwlock);
	}
	bench_stop(rec, rec->loops);
	return 0;
}

/*
 * Cache-line ping-pong between workers 0 and 1: worker 0 moves the shared
 * word from even to odd, worker 1 from odd to even, each waiting for its
 * turn with loads and rte_pause(), as DPDK spin loops do. Per element: one
 * hand-off, i.e. the line moving to the other core and back to exclusive
 * there -- the unit every contended figure is made of. Workers beyond the
 * first two run the empty loop. The word is never reset: only its parity
 * matters.
 */
static int
b_pingpong(struct bench_rec *rec, void *arg)
{
	struct prim_state *s = arg;
	uint64_t i, v, w = rec->worker;

	if (w > 1)
		return b_empty(rec, arg);
	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		/* Acquire: our store below follows the other's store. */
		while (((v = __atomic_load_n(&s->counter, __ATOMIC_ACQUIRE)) & 1) != w)
			rte_pause();
		__atomic_store_n(&s->counter, v + 1, __ATOMIC_RELEASE);
	}
	bench_stop(rec, rec->loops);
	return 0;
}

enum prim {
	P_EMPTY, P_CALL, P_CALL_PTR, P_RDTSC, P_COUNTER, P_ATOMIC,
	P_SPINLOCK, P_TRYLOCK, P_RWLOCK_READ,
	P_MIB_PERCPU, P_MIB_SHARED, P_PINGPONG,	/* concurrent only */
	P_MAX
};

static const bench_fn prim_fns[P_MAX] = {
	[P_EMPTY] = b_empty, [P_CALL] = b_call, [P_CALL_PTR] = b_call_ptr,
	[P_RDTSC] = b_rdtsc, [P_COUNTER] = b_counter, [P_ATOMIC] = b_atomic,
	[P_SPINLOCK] = b_spinlock, [P_TRYLOCK] = b_trylock,
	[P_RWLOCK_READ] = b_rwlock_read,
	[P_MIB_PERCPU] = b_counter, [P_MIB_SHARED] = b_counter,
	[P_PINGPONG] = b_pingpong,
};

/* One MIB block per lcore that runs the benchmark, on its socket, in the
 * harness's worker order (main lcore first, then the workers). */
static struct mib_set *
prim_mib_set(unsigned int n, enum mib_layout layout)
{
	int sockets[RTE_MAX_LCORE];
	unsigned int i = 0, lcore;

	sockets[i++] = (int)rte_socket_id();
	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (i >= n)
			break;
		sockets[i++] = (int)rte_lcore_to_socket_id(lcore);
	}
	return mib_set_create(n, layout, sockets);
}

static int
prim_run(struct pb_ctx *ctx, const struct pb_bench *b, bool concurrent)
{
	struct prim_state *s;
	unsigned int n = concurrent ? rte_lcore_count() : 1;
	int ret;

	s = rte_zmalloc("pb_prim", sizeof(*s), RTE_CACHE_LINE_SIZE);
	if (s == NULL)
		return pb_fail(ctx, b->name, -ENOMEM, "state");
	rte_spinlock_init(&s->lock);
	rte_rwlock_init(&s->rwlock);
	s->mib = prim_mib_set(n, b->param == P_MIB_SHARED ? MIB_LAYOUT_SHARED :
			      MIB_LAYOUT_PERCPU);
	if (s->mib == NULL) {
		rte_free(s);
		return pb_fail(ctx, b->name, -ENOMEM, "MIB blocks");
	}
	ret = pb_run(ctx, concurrent, b->name, prim_fns[b->param], s, 0,
		     pb_loops(ctx, b->loops), NULL);
	mib_set_free(s->mib);
	rte_free(s);
	return ret;
}

static int
prim_single(struct pb_ctx *ctx, const struct pb_bench *b)
{
	return prim_run(ctx, b, false);
}

static int
prim_concurrent(struct pb_ctx *ctx, const struct pb_bench *b)
{
	return prim_run(ctx, b, true);
}

const struct pb_bench pb_prim_benches[] = {
	{ "empty", "prim", 1, 10000000, "empty loop (a compiler barrier per iteration): the loop overhead",
	  prim_single, P_EMPTY },
	{ "call", "prim", 1, 10000000, "call of a non-inlined function",
	  prim_single, P_CALL },
	{ "call_ptr", "prim", 1, 10000000, "call through a function pointer loaded from memory (an ops table)",
	  prim_single, P_CALL_PTR },
	{ "rdtsc", "prim", 1, 2000000, "rte_rdtsc()",
	  prim_single, P_RDTSC },
	{ "counter", "prim", 1, 10000000, "MIB counter update: relaxed 64-bit load + store into the lcore's own block",
	  prim_single, P_COUNTER },
	{ "atomic", "prim", 1, 5000000, "__atomic_fetch_add (relaxed, a locked instruction), uncontended",
	  prim_single, P_ATOMIC },
	{ "spinlock", "prim", 1, 5000000, "rte_spinlock_lock + rte_spinlock_unlock, uncontended",
	  prim_single, P_SPINLOCK },
	{ "spinlock_trylock", "prim", 1, 5000000, "rte_spinlock_trylock (succeeds) + unlock, uncontended",
	  prim_single, P_TRYLOCK },
	{ "rwlock_read", "prim", 1, 5000000, "rte_rwlock_read_lock + read_unlock, uncontended",
	  prim_single, P_RWLOCK_READ },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};

const struct pb_bench pb_conc_benches[] = {
	{ "pingpong", "conc", 2, 200000, "one cache line handed back and forth between 2 lcores: cycles per hand-off",
	  prim_concurrent, P_PINGPONG },
	{ "spinlock_conc", "conc", 2, 1000000, "rte_spinlock lock + unlock of one lock by every lcore at once (contended)",
	  prim_concurrent, P_SPINLOCK },
	{ "atomic_conc", "conc", 2, 2000000, "__atomic_fetch_add on one counter by every lcore at once (contended)",
	  prim_concurrent, P_ATOMIC },
	{ "mib_percpu_conc", "conc", 2, 10000000, "MIB counter update, every lcore in its own block (percpu layout)",
	  prim_concurrent, P_MIB_PERCPU },
	{ "mib_shared_conc", "conc", 2, 2000000, "MIB counter update, blocks interleaved (shared layout): false sharing",
	  prim_concurrent, P_MIB_SHARED },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};
