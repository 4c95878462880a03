/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_PEER_H
#define PKTPATH_PEER_H

/**
 * @file
 * An inetpeer-like table: long-lived per-remote-host entries, looked up by
 * IPv4 address on the receive path, each with a reference count and a
 * last-use time -- the structure behind the netdev false-sharing thread.
 *
 * Linux's inet_getpeer() walked an AVL tree, comparing the address with the
 * key of every node on its search path (addr_compare); refcnt and dtime,
 * written by every user of a peer, once sat on the cache line of that key.
 * Each get/put by one CPU then invalidated a line that the lookups of every
 * other CPU had to read on their way to other peers (addr_compare second in
 * perf top); the fix moved the keys to a line of their own. This table
 * reproduces the search and the two layouts, chosen at creation:
 *
 *  - PEER_LAYOUT_SHARED: one cache line a peer (struct peer_node_shared),
 *    the key and the hot fields (refcnt, dtime) on it.
 *  - PEER_LAYOUT_SPLIT: two lines a peer (struct peer_node_split), the key
 *    on the first (never written after set-up), the hot fields on the
 *    second: the kernel patch.
 *
 * The search: the peers form a complete binary search tree stored in
 * breadth-first (Eytzinger) order -- node i's children are 2i + 1 and
 * 2i + 2 -- built at set-up from the sorted keys. A lookup compares the
 * address with the key of each node from the root down, ceil(log2(n + 1))
 * comparisons at most, and so reads the key lines of nodes other lcores
 * use: the root on every lookup, one node of each level below.
 *
 * Both layouts are reached through the same code: node i's key is at
 * keys + i * stride and its hot fields at hot + i * stride, so the fast
 * path has no layout branch (as struct mib_block does for MIB layouts).
 *
 * Peers are added at set-up (peer_table_add(), peer_table_add_range()); the
 * fast path never inserts: an unknown address counts a miss and nothing
 * else. Inserting from the receive path would let any packet grow the
 * table (Linux limits and garbage-collects inetpeer for that reason); the
 * stage exists to measure the cost of sharing existing entries.
 *
 * Sharing between lcores (peer_table_share(), peer_target()): the peers'
 * addresses, counted from the lowest, fall in blocks of one address per
 * lcore. A block is shared (every lcore looks up the packet's own source)
 * or private (lcore w looks up member w of the block: as RSS steers one
 * host's flows to one CPU); PCT of every 100 consecutive blocks are shared.
 * With the generator's sources spread evenly, PCT % of each lcore's
 * lookups reach peers every lcore writes, the rest peers only it writes --
 * and every lookup's search path crosses both kinds.
 *
 * Thread-safety
 * -------------
 *  - peer_table_create/add/add_range/share/free: set-up only, one thread,
 *    while no lcore uses the table. rte_eal_remote_launch() (or any release
 *    / acquire pair) publishes the nodes to the workers.
 *  - peer_lookup(), peer_lookup_get_put*(), peer_target(),
 *    peer_lookup_lines(): any number of lcores at once. Keys are read with
 *    plain loads (immutable after set-up); refcnt is changed with atomic
 *    read-modify-writes; dtime with a relaxed atomic store (the last writer
 *    wins, as Linux's plain store of jiffies). Each lcore passes its own
 *    MIB block (single writer).
 *  - peer_table_refcnt_sum/peer_table_info: any thread, relaxed loads; the
 *    sum is exact only while no lookup is in flight.
 *
 * What is NOT guaranteed: a reference is held only inside
 * peer_lookup_get_put(); peers are never freed while the table exists, so
 * the refcount here is a cost being measured, not a lifetime guard.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_reciprocal.h>

#include "mib.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most peers a table may hold. */
#define PEER_MAX (1u << 20)
/** Most nodes a search path holds: ceil(log2(PEER_MAX + 1)). */
#define PEER_DEPTH_MAX 21

enum peer_layout {
	PEER_LAYOUT_SHARED,	/**< refcnt and dtime on the key's cache line */
	PEER_LAYOUT_SPLIT,	/**< refcnt and dtime on their own cache line */
	PEER_LAYOUT_MAX
};

/** The fields every user of a peer writes. */
struct peer_hot {
	uint32_t refcnt;	/**< references held (atomic) */
	uint32_t pad;
	uint64_t dtime;		/**< TSC of the last use (relaxed atomic) */
};

/** A node of the shared layout: key and hot fields on one line. */
struct peer_node_shared {
	uint32_t key; /**< IPv4 address, host order */
	uint32_t pad;
	struct peer_hot hot;
} __rte_cache_aligned;

/** A node of the split layout: the key's line, then the hot fields'. */
struct peer_node_split {
	uint32_t key; /**< IPv4 address, host order */
	struct peer_hot hot __rte_cache_aligned;
} __rte_cache_aligned;

/**
 * A table. The fields are public only so that the fast path can be inline;
 * use the functions below.
 */
struct peer_table {
	/* Read by the fast path, never written after set-up. */
	const uint8_t *keys; /**< key of node i: keys + i * stride */
	uint8_t *hot;	     /**< hot fields of node i: hot + i * stride */
	uint32_t stride;     /**< bytes a node */
	uint32_t count;	     /**< nodes (peers added) */
	/* peer_target(): the blocks of addresses shared between lcores */
	uint32_t key_lo;		  /**< lowest key */
	uint32_t span;			  /**< highest key - key_lo + 1 (0: empty) */
	uint32_t lcores;		  /**< lcores sharing the table (1: no mapping) */
	uint32_t share_pct;		  /**< shared blocks out of every 100 */
	struct rte_reciprocal lcores_rcp; /**< divides by lcores */
	/* Set-up state. */
	enum peer_layout layout;
	unsigned int n_max;	/**< peers it may hold */
	bool rte;		/**< memory from rte_malloc */
	void *mem;		/**< the nodes */
};

/**
 * Create an empty table for up to n peers.
 *
 * @param n       peers it may hold, 1..PEER_MAX
 * @param layout  PEER_LAYOUT_SHARED or PEER_LAYOUT_SPLIT
 * @param socket  NUMA socket for rte_zmalloc_socket(); < 0 to use the C
 *                allocator (unit tests without EAL; pass rte_socket_id()
 *                for rte_malloc memory on the caller's socket)
 * @return the table, or NULL with rte_errno and errno set: EINVAL (n or
 *         layout out of range), ENOMEM.
 * Memory: n nodes of 64 bytes (shared) or 128 bytes (split).
 * Not thread-safe (set-up).
 */
struct peer_table *peer_table_create(unsigned int n, enum peer_layout layout,
				     int socket);

/** Bytes peer_table_create(n, layout) allocates (0 for n or layout out of
 *  range). Thread-safe. */
size_t peer_table_bytes(unsigned int n, enum peer_layout layout);

/** Free a table (NULL is a no-op). No lcore may use it any more. */
void peer_table_free(struct peer_table *t);

/**
 * Add a peer (refcnt 0, dtime 0), rebuilding the tree: O(n log n).
 * @param addr  IPv4 address, host byte order, not 0.0.0.0
 * @return 0; -EINVAL (addr 0), -EEXIST (already there), -ENOSPC (full),
 *         -ENOMEM (the rebuild's scratch array).
 * Not thread-safe (set-up, before any lookup).
 */
int peer_table_add(struct peer_table *t, uint32_t addr);

/**
 * Add the peers first, first + 1, ..., first + count - 1 (host order), all
 * or none, with one rebuild of the tree.
 * @return 0; -EINVAL (the range holds 0.0.0.0 or wraps), -EEXIST (one of
 *         them is there already), -ENOSPC, -ENOMEM. Not thread-safe (set-up).
 */
int peer_table_add_range(struct peer_table *t, uint32_t first,
			 unsigned int count);

/** Peers added. */
unsigned int peer_table_count(const struct peer_table *t);
/** The layout chosen at creation. */
enum peer_layout peer_table_layout(const struct peer_table *t);

/**
 * Sum of every peer's refcount, as signed 32-bit values (a put without its
 * get shows as a negative sum). 0 when every get had its put. Exact only
 * while no lookup runs. Thread-safe (relaxed loads).
 */
int64_t peer_table_refcnt_sum(const struct peer_table *t);

/**
 * Current refcount and last-use time of a peer.
 * @return 0, or -ENOENT if addr is not in the table. Thread-safe.
 */
int peer_table_info(const struct peer_table *t, uint32_t addr,
		    uint32_t *refcnt, uint64_t *dtime);

/** "shared", "split", indexed by enum peer_layout. */
extern const char *const peer_layout_names[PEER_LAYOUT_MAX];
/** "shared" / "split" (or "?"). Thread-safe. */
const char *peer_layout_name(enum peer_layout l);
/** Parse "shared" / "split"; -EINVAL if s is anything else. Thread-safe. */
int peer_layout_parse(const char *s, enum peer_layout *out);

/**
 * Set how lcores share the peers (peer_target()). Until it is called, a
 * table has one lcore: peer_target() returns the address it is given.
 *
 * @param lcores  lcores that look the table up, 1..RTE_MAX_LCORE
 * @param pct     shared blocks out of every 100 consecutive ones, 0..100
 * @return 0, or -EINVAL (lcores or pct out of range).
 * Not thread-safe (set-up, after the peers are added).
 */
int peer_table_share(struct peer_table *t, unsigned int lcores, unsigned int pct);

/**
 * The address lcore looks up for a packet from addr: addr itself when its
 * block is shared (or addr is outside the peers' range, or the table has
 * one lcore), else member lcore of addr's block (which may lie past the
 * highest peer: a miss, as for any unknown address).
 *
 * @param lcore  the caller's index, 0..lcores-1 of peer_table_share()
 * Thread-safe: reads set-up state only.
 */
static inline uint32_t
peer_target(const struct peer_table *t, uint32_t addr, unsigned int lcore)
{
	uint32_t j = addr - t->key_lo;
	uint32_t b;

	if (t->lcores <= 1 || j >= t->span)
		return addr;
	b = rte_reciprocal_divide(j, t->lcores_rcp);
	/* pct of every 100 consecutive blocks, spread evenly */
	if (b * t->share_pct % 100u < t->share_pct)
		return addr;
	return t->key_lo + b * t->lcores + lcore;
}

/* The search (see the file comment), recording the address of each key it
 * reads in trace[] when trace is not NULL. */
static __rte_always_inline struct peer_hot *
__peer_search(const struct peer_table *t, uint32_t addr, uintptr_t *trace,
	      unsigned int *n_trace)
{
	uint32_t i = 0;

	while (i < t->count) {
		const uint8_t *node = t->keys + (size_t)i * t->stride;
		uint32_t k = *(const uint32_t *)node;

		if (trace != NULL)
			trace[(*n_trace)++] = (uintptr_t)node;
		if (k == addr)
			return (struct peer_hot *)(t->hot + (size_t)i * t->stride);
		i = 2 * i + 1 + (addr > k);
	}
	return NULL;
}

/**
 * Look addr up, reading the keys along its search path and writing
 * nothing.
 * @return the peer's hot fields, or NULL when addr is not in the table.
 * Thread-safe: any number of lcores.
 */
static inline struct peer_hot *
peer_lookup(const struct peer_table *t, uint32_t addr)
{
	return __peer_search(t, addr, NULL, NULL);
}

/**
 * The cache lines a lookup of addr touches, for the tests and tools that
 * count what a layout shares: the line of each key read along the search
 * path, in order, and the line of the hot fields its get/put reads and
 * writes (0 on a miss). A line is an address / RTE_CACHE_LINE_SIZE.
 *
 * @param keys  room for PEER_DEPTH_MAX lines
 * @return the number of key lines read (the nodes compared).
 * Thread-safe (reads only).
 */
unsigned int peer_lookup_lines(const struct peer_table *t, uint32_t addr,
			       uintptr_t keys[PEER_DEPTH_MAX], uintptr_t *hot);

/**
 * The fast path, counting nothing: look addr up; if found, take a reference
 * (atomic increment), set its last-use time to now, drop the reference
 * (atomic decrement with release semantics). For a caller that tallies the
 * Peer counters itself (the workers, per burst: path.h, struct path_tally):
 * a lookup is a hit (Hits, Gets, Puts) or a miss (Misses), and Lookups.
 *
 * @param t     the table (read-only after set-up)
 * @param addr  IPv4 address, host byte order (0 always misses)
 * @param now   the caller's TSC (read once per burst on the path)
 * @return true on a hit.
 * Thread-safe: any number of lcores.
 */
static inline bool
peer_lookup_get_put_raw(const struct peer_table *t, uint32_t addr, uint64_t now)
{
	struct peer_hot *e = peer_lookup(t, addr);

	if (e == NULL)
		return false;
	/* get: relaxed, as Linux's refcount_inc(): taking a reference orders
	 * nothing by itself. */
	__atomic_fetch_add(&e->refcnt, 1, __ATOMIC_RELAXED);
	/* touch: a relaxed store so a concurrent reader never sees a torn
	 * 64-bit time; concurrent users race, the last one wins. */
	__atomic_store_n(&e->dtime, now, __ATOMIC_RELAXED);
	/* put: release, so that our use of the entry (the dtime store) is
	 * ordered before the reference is seen dropped. */
	__atomic_fetch_sub(&e->refcnt, 1, __ATOMIC_RELEASE);
	return true;
}

/**
 * peer_lookup_get_put_raw(), moving the Peer MIB counters of the caller's
 * block: Lookups always, then Misses, or Hits + Gets + Puts.
 *
 * @param mib   the calling lcore's own MIB block
 * @return true on a hit.
 * Thread-safe: any number of lcores, each with its own mib block.
 */
static inline bool
peer_lookup_get_put(const struct peer_table *t, uint32_t addr, uint64_t now,
		    struct mib_block *mib)
{
	bool hit = peer_lookup_get_put_raw(t, addr, now);

	mib_inc(mib, MIB_F(PEER, LOOKUPS));
	if (!hit) {
		mib_inc(mib, MIB_F(PEER, MISSES));
		return false;
	}
	mib_inc(mib, MIB_F(PEER, HITS));
	mib_inc(mib, MIB_F(PEER, GETS));
	mib_inc(mib, MIB_F(PEER, PUTS));
	return true;
}

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_PEER_H */
