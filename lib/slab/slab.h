/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_SLAB_H
#define PKTPATH_SLAB_H

/**
 * @file
 * A per-lcore object cache in the manner of Linux's SLUB allocator, for
 * measuring what SLUB's bulk allocation costs (kmem_cache_alloc_bulk,
 * kmem_cache_free_bulk) and what its next-object prefetch
 * (prefetch_freepointer) changes.
 *
 * The free list is threaded through the free objects themselves: a free
 * object holds, at a fixed offset (SLUB's s->offset), the address of the
 * next free object (get_freepointer / set_freepointer); the cache keeps
 * only the first (c->freelist). Allocation pops from it, free pushes onto
 * it: no array of pointers, no counter, one load and one store an object.
 *
 * Backing slab: at set-up, n_pages pages of page_size bytes are taken
 * from DPDK's heap (hugepages when the EAL has them) on the cache's socket,
 * each carved into page_size / size objects threaded into the page's own
 * free list in address order (allocate_slab()). The cache starts empty;
 * when its free list runs out, the refill (SLUB's slow path,
 * ___slab_alloc() taking a new slab's freelist) moves the next untouched
 * page's list onto it. When every page has been taken and the list is
 * empty, an allocation fails: the call returns 0, hands out nothing and
 * counts the failure (fails). Nothing is allocated after set-up.
 *
 * Freed objects go onto the cache's free list, whatever their page: SLUB's
 * fast free path, which holds when the object belongs to the CPU's slab.
 * Remote frees, partial lists and pages going back to the page allocator
 * are not modelled, so after the first refills the cache stays on its
 * fast path: what is measured is the fast path's cost, the one the SLUB
 * thread's bulk figures are dominated by.
 *
 * Prefetch (SLUB's prefetch_freepointer): when on, handing out an object
 * prefetches the line of the next free object that holds its free
 * pointer, the load the next allocation starts with. It changes when the
 * lines are read, never which objects are handed out or in which order.
 *
 * Thread-safety: a cache belongs to one lcore; none of its functions may
 * run on it from two threads at once. Caches are independent.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_prefetch.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The shape of a cache (slab_cache_init()). */
struct slab_conf {
	uint32_t size;	    /**< object size (stride): a multiple of 8, >= 8 */
	uint32_t offset;    /**< where a free object keeps its free pointer:
			     *   a multiple of 8, offset + 8 <= size */
	uint32_t page_size; /**< bytes a page: a power of two, 4096..1 MiB,
			     *   holding at least one object */
	uint32_t n_pages;   /**< pages carved at set-up, >= 1 */
	int socket;	    /**< NUMA socket of the pages (SOCKET_ID_ANY) */
	bool prefetch;	    /**< prefetch the next free object's pointer */
};

/** A cache. Read its fields; change them only through the functions. */
struct slab_cache {
	void *freelist;	    /**< first free object, NULL when empty */
	uint32_t offset;    /**< the free pointer's offset in an object */
	bool prefetch;	    /**< slab_cache_prefetch() */
	uint32_t size;	    /**< object stride */
	uint32_t per_page;  /**< objects a page */
	uint32_t n_pages;   /**< pages carved */
	uint32_t next_page; /**< first page not yet on the free list */
	uint32_t page_size;
	uint64_t refills; /**< pages moved onto the free list */
	uint64_t fails;	  /**< allocations refused: every page taken, none free */
	char *mem;	  /**< the pages, n_pages * page_size bytes */
};

/**
 * Set up a cache: take and carve its pages (nothing is allocated later).
 * @return 0, or -EINVAL (a conf field outside what struct slab_conf says;
 *         c untouched) or -ENOMEM (the heap could not give the pages).
 * Needs the EAL initialised. Thread-safe for distinct caches.
 */
int slab_cache_init(struct slab_cache *c, const struct slab_conf *conf);

/** Give a cache's pages back (every object with them). c may be zeroed. */
void slab_cache_fini(struct slab_cache *c);

/** Objects a cache holds in all (free, in use, and on pages not taken). */
static inline uint64_t
slab_cache_capacity(const struct slab_cache *c)
{
	return (uint64_t)c->per_page * c->n_pages;
}

/** Switch the next-object prefetch (takes effect at the next allocation). */
static inline void
slab_cache_prefetch(struct slab_cache *c, bool on)
{
	c->prefetch = on;
}

/**
 * Whether obj is an object of c: inside its pages, at an object's start.
 */
bool slab_cache_owns(const struct slab_cache *c, const void *obj);

/**
 * Count the objects on the free list, walking it (for tests and checks).
 * @return the count, or -ELOOP when the list holds more entries than the
 *         cache has objects (a cycle: an object freed twice), or -EFAULT
 *         when an entry is not one of c's objects.
 */
int64_t slab_cache_count_free(const struct slab_cache *c);

/**
 * The slow path of an allocation: put the next untouched page's objects on
 * the free list (which must be empty). Called by slab_alloc_bulk().
 * @return the new first free object, or NULL when every page was taken.
 */
void *slab_cache_refill(struct slab_cache *c);

/* A free object's free pointer (get_freepointer / set_freepointer). */
static __rte_always_inline void *
__slab_get_fp(const struct slab_cache *c, const void *obj)
{
	void *next;

	memcpy(&next, (const char *)obj + c->offset, sizeof(next));
	return next;
}

static __rte_always_inline void
__slab_set_fp(const struct slab_cache *c, void *obj, void *next)
{
	memcpy((char *)obj + c->offset, &next, sizeof(next));
}

/**
 * Free n objects of c (kmem_cache_free_bulk): each goes onto the free list,
 * in order, so the last one freed is the first handed out next.
 * Objects must be c's, allocated and not freed since (not checked on this
 * path: slab_cache_count_free() finds a double free).
 */
static __rte_always_inline void
slab_free_bulk(struct slab_cache *c, void *const *objs, unsigned int n)
{
	void *head = c->freelist;
	unsigned int i;

	for (i = 0; i < n; i++) {
		__slab_set_fp(c, objs[i], head);
		head = objs[i];
	}
	c->freelist = head;
}

static __rte_always_inline unsigned int
__slab_alloc_bulk(struct slab_cache *c, void **objs, unsigned int n, const bool prefetch)
{
	void *obj = c->freelist, *next;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (unlikely(obj == NULL)) {
			obj = slab_cache_refill(c);
			if (obj == NULL) {
				/* All or nothing, as kmem_cache_alloc_bulk:
				 * what was taken goes back. */
				c->freelist = NULL;
				slab_free_bulk(c, objs, i);
				c->fails++;
				return 0;
			}
		}
		next = __slab_get_fp(c, obj);
		/* prefetch_freepointer(): the line of the next object that
		 * the next pop loads. An integer sum, so that a NULL next
		 * (the list's end) makes no pointer arithmetic on NULL; a
		 * prefetch never faults. */
		if (prefetch)
			rte_prefetch0((const void *)((uintptr_t)next + c->offset));
		objs[i] = obj;
		obj = next;
	}
	c->freelist = obj;
	return n;
}

/**
 * Allocate n objects of c (kmem_cache_alloc_bulk), 1 <= n: popped from the
 * free list in its order, refilled from the pages when it runs out.
 * @return n, or 0 when the cache is exhausted (nothing handed out; fails
 *         counted). Objects are not cleared: a free one's free pointer is
 *         still in it.
 */
static __rte_always_inline unsigned int
slab_alloc_bulk(struct slab_cache *c, void **objs, unsigned int n)
{
	return c->prefetch ? __slab_alloc_bulk(c, objs, n, true)
			   : __slab_alloc_bulk(c, objs, n, false);
}

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_SLAB_H */
