/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_PEER_H
#define PKTPATH_PEER_H

/**
 * @file
 * An inetpeer-like table: long-lived per-remote-host entries, looked up by
 * IPv4 address on the receive path, each with a reference count and a
 * last-use time -- the structure behind the netdev false-sharing thread.
 *
 * Linux's struct inet_peer kept "avl_left, avl_right, daddr together to
 * speed up lookups", but refcnt and dtime, written by every user of a peer,
 * once sat on that same cache line: each get/put by one CPU invalidated the
 * line that every other CPU's lookup had to read. This table reproduces the
 * two layouts, chosen at creation:
 *
 *  - PEER_LAYOUT_SHARED: one 16-byte entry per slot, {key, refcnt, dtime},
 *    four to a cache line. A get/put dirties the line holding the key that
 *    lookups (of this peer and of its neighbours) read.
 *  - PEER_LAYOUT_SPLIT: the keys in a dense array that is never written
 *    after set-up (16 to a line, shared clean by every lcore), and each
 *    slot's refcnt and dtime on a cache line of its own.
 *
 * Both are reached through the same code: slot i's key is at
 * keys + i * key_stride and its hot fields at hot + i * hot_stride, so the
 * fast path has no layout branch (as struct mib_block does for MIB layouts).
 *
 * The table is open-addressed (linear probing, Fibonacci hashing) with at
 * least twice as many slots as peers, so a probe always ends on an empty
 * slot. Peers are added at set-up (peer_table_add()); the fast path never
 * inserts: an unknown address counts a miss and nothing else. Inserting
 * from the receive path would let any packet grow the table (Linux limits
 * and garbage-collects inetpeer for that reason); the stage exists to
 * measure the cost of sharing existing entries, not of managing them.
 *
 * Thread-safety
 * -------------
 *  - peer_table_create/add/add_range/free: set-up only, one thread, while
 *    no lcore uses the table. rte_eal_remote_launch() (or any release /
 *    acquire pair) publishes the keys to the workers.
 *  - peer_lookup_get_put(): any number of lcores at once. Keys are read
 *    with plain loads (immutable after set-up); refcnt is changed with
 *    atomic read-modify-writes; dtime with a relaxed atomic store (the last
 *    writer wins, as Linux's plain store of jiffies). Each lcore passes its
 *    own MIB block (single writer).
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

#include "mib.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most peers a table may hold. */
#define PEER_MAX (1u << 20)

/** Fibonacci hashing multiplier (2^32 / golden ratio). */
#define PEER_HASH_MUL 2654435769u

enum peer_layout {
	PEER_LAYOUT_SHARED,	/**< refcnt and dtime on the key's cache line */
	PEER_LAYOUT_SPLIT,	/**< refcnt and dtime on their own cache line */
	PEER_LAYOUT_MAX
};

/**
 * The fields of one peer. In the shared layout it is the slot itself
 * (key included); in the split layout key is a copy for peer_table_info()
 * and the fast path reads the dense key array instead.
 */
struct peer_entry {
	uint32_t key;		/**< IPv4 address, host order; 0 = empty */
	uint32_t refcnt;	/**< references held (atomic) */
	uint64_t dtime;		/**< TSC of the last use (relaxed atomic) */
};

/**
 * A table. The fields are public only so that the fast path can be inline;
 * use the functions below.
 */
struct peer_table {
	/* Read by the fast path, never written after set-up. */
	const uint8_t *keys;	/**< key of slot i: keys + i * key_stride */
	uint8_t *hot;		/**< entry of slot i: hot + i * hot_stride */
	uint32_t key_stride;
	uint32_t hot_stride;
	uint32_t mask;		/**< slots - 1 */
	uint32_t hash_shift;	/**< 32 - log2(slots) */
	/* Set-up state. */
	enum peer_layout layout;
	unsigned int n_max;	/**< peers it may hold */
	unsigned int count;	/**< peers added */
	bool rte;		/**< memory from rte_malloc */
	void *mem_keys;		/**< split: the key array (else NULL) */
	void *mem_hot;		/**< the entries */
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
 * Memory: 2n..4n slots of 16 bytes (shared) or of 4 + 64 bytes (split).
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
 * Add a peer (refcnt 0, dtime 0).
 * @param addr  IPv4 address, host byte order, not 0.0.0.0
 * @return 0; -EINVAL (addr 0), -EEXIST (already there), -ENOSPC (full).
 * Not thread-safe (set-up, before any lookup).
 */
int peer_table_add(struct peer_table *t, uint32_t addr);

/**
 * Add the peers first, first + 1, ..., first + count - 1 (host order).
 * @return 0, or the first error of peer_table_add() (the peers before it
 *         stay added). Not thread-safe (set-up).
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
	uint32_t i = (uint32_t)(addr * PEER_HASH_MUL) >> t->hash_shift;
	struct peer_entry *e;

	for (;;) {
		uint32_t k = *(const uint32_t *)(t->keys +
						 (size_t)i * t->key_stride);

		if (k == 0)
			return false;
		if (k == addr)
			break;
		i = (i + 1) & t->mask;
	}
	e = (struct peer_entry *)(t->hot + (size_t)i * t->hot_stride);
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
