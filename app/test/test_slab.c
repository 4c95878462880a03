/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/slab: every bulk size 1..250 with the prefetch off and
 * on, every object handed out once and none lost down to exhaustion, the
 * all-or-nothing failure and its counter, the refill page by page, the free
 * pointer kept at its offset and nothing else of a free object written,
 * the same objects in the same order with and without the prefetch, the
 * walk's refusal of a double free and of a foreign object, and every bad
 * shape refused. The pages come from DPDK's heap: EAL (fixture_eal.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_memory.h>

#include "fixture_eal.h"
#include "slab.h"

#define MAX_BULK 250 /* the SLUB thread's largest */
#define SIZE	 256
#define PAGE	 8192
#define PER_PAGE (PAGE / SIZE)

static struct slab_conf
__conf(uint32_t n_pages, uint32_t offset, bool prefetch)
{
	return (struct slab_conf){ .size = SIZE,
				   .offset = offset,
				   .page_size = PAGE,
				   .n_pages = n_pages,
				   .socket = SOCKET_ID_ANY,
				   .prefetch = prefetch };
}

/* The index of object o of c (its page, its slot). */
static uint32_t
__idx(const struct slab_cache *c, const void *o)
{
	uintptr_t d = (uintptr_t)o - (uintptr_t)c->mem;

	assert_true(slab_cache_owns(c, o));
	return (uint32_t)(d / c->page_size * c->per_page + d % c->page_size / c->size);
}

/* Objects not yet on the free list: those of the pages never taken. */
static uint64_t
__untaken(const struct slab_cache *c)
{
	return (uint64_t)(c->n_pages - c->next_page) * c->per_page;
}

/* The cache's books: free + in use + untaken = capacity. */
static void
__check_books(const struct slab_cache *c, uint64_t in_use)
{
	int64_t f = slab_cache_count_free(c);

	assert_true(f >= 0);
	assert_int_equal((uint64_t)f + in_use + __untaken(c), slab_cache_capacity(c));
}

/* Every bulk size, prefetch off and on: n distinct objects of the cache,
 * the books balanced after each alloc and free, over rounds that reuse
 * the freed objects and cross page boundaries. */
static void
test_every_bulk(void **state)
{
	const uint32_t pages = (2 * MAX_BULK + PER_PAGE - 1) / PER_PAGE;
	void *objs[MAX_BULK];
	uint8_t *seen = calloc((size_t)pages * PER_PAGE, 1);
	unsigned int n, r, i, pf;

	(void)state;
	assert_non_null(seen);
	for (pf = 0; pf < 2; pf++)
		for (n = 1; n <= MAX_BULK; n++) {
			struct slab_conf conf = __conf(pages, 112, pf != 0);
			struct slab_cache c;

			assert_int_equal(slab_cache_init(&c, &conf), 0);
			for (r = 0; r < 3; r++) {
				assert_int_equal(slab_alloc_bulk(&c, objs, n), n);
				__check_books(&c, n);
				memset(seen, 0, (size_t)pages * PER_PAGE);
				for (i = 0; i < n; i++) {
					uint32_t k = __idx(&c, objs[i]);

					assert_int_equal(seen[k], 0);
					seen[k] = 1;
				}
				/* two bulks at once: no object in both */
				if (r == 1) {
					void *more[MAX_BULK];

					assert_int_equal(slab_alloc_bulk(&c, more, n), n);
					for (i = 0; i < n; i++)
						assert_int_equal(seen[__idx(&c, more[i])],
								 0);
					__check_books(&c, 2 * (uint64_t)n);
					slab_free_bulk(&c, more, n);
				}
				slab_free_bulk(&c, objs, n);
				__check_books(&c, 0);
			}
			assert_int_equal(c.fails, 0);
			assert_true(c.refills <= pages);
			slab_cache_fini(&c);
		}
	free(seen);
}

/* Down to exhaustion in bulks of n, for several n: every object handed out
 * exactly once, then a refused call (0, nothing handed out, nothing lost,
 * fails counted, every page taken once); all freed, all handed out again. */
static void
test_exhaustion(void **state)
{
	static const unsigned int bulks[] = { 1, 3, 7, 32, 33, 64, 100, 250 };
	const uint32_t pages = 9;
	const uint32_t cap = pages * PER_PAGE;
	void **all = calloc(cap + MAX_BULK, sizeof(*all)); /* room for a refused call */
	uint8_t *seen = calloc(cap, 1);
	unsigned int b, i, round;

	(void)state;
	assert_non_null(all);
	assert_non_null(seen);
	for (b = 0; b < RTE_DIM(bulks); b++) {
		const unsigned int n = bulks[b];
		struct slab_conf conf = __conf(pages, 0, b % 2 == 0);
		struct slab_cache c;

		assert_int_equal(slab_cache_init(&c, &conf), 0);
		for (round = 0; round < 2; round++) {
			uint32_t got = 0;
			uint64_t fails = c.fails;

			memset(seen, 0, cap);
			while (cap - got >= n) {
				assert_int_equal(slab_alloc_bulk(&c, all + got, n), n);
				got += n;
			}
			/* what is left cannot give n: refused, kept */
			assert_int_equal(slab_alloc_bulk(&c, all + got, n), 0);
			assert_int_equal(c.fails, fails + 1);
			assert_int_equal(slab_cache_count_free(&c), cap - got);
			assert_int_equal(c.refills, pages);
			/* the rest one by one: the last object, then nothing */
			while (got < cap)
				assert_int_equal(slab_alloc_bulk(&c, all + got++, 1), 1);
			assert_int_equal(slab_alloc_bulk(&c, all + got, 1), 0);
			assert_int_equal(c.fails, fails + 2);
			assert_null(c.freelist);
			for (i = 0; i < cap; i++) {
				uint32_t k = __idx(&c, all[i]);

				assert_int_equal(seen[k], 0);
				seen[k] = 1;
			}
			slab_free_bulk(&c, all, cap);
			assert_int_equal(slab_cache_count_free(&c), cap);
		}
		assert_int_equal(c.refills, pages); /* never again */
		slab_cache_fini(&c);
	}
	free(all);
	free(seen);
}

/* The refill: the cache starts empty, takes a page when its list runs
 * out, hands a fresh page's objects out in address order. */
static void
test_refill(void **state)
{
	struct slab_conf conf = __conf(3, 112, false);
	struct slab_cache c;
	void *objs[2 * PER_PAGE + 1];
	unsigned int i;

	(void)state;
	assert_int_equal(slab_cache_init(&c, &conf), 0);
	assert_null(c.freelist);
	assert_int_equal(c.refills, 0);
	assert_int_equal(slab_cache_count_free(&c), 0);
	assert_int_equal(slab_alloc_bulk(&c, objs, 1), 1);
	assert_int_equal(c.refills, 1);
	assert_int_equal(slab_alloc_bulk(&c, objs + 1, PER_PAGE), PER_PAGE);
	assert_int_equal(c.refills, 2);
	for (i = 0; i <= PER_PAGE; i++)
		assert_int_equal(__idx(&c, objs[i]), i);
	assert_int_equal(slab_cache_count_free(&c), PER_PAGE - 1);
	/* freed objects come back before a page is taken: LIFO */
	slab_free_bulk(&c, objs, 2);
	assert_int_equal(slab_alloc_bulk(&c, objs + PER_PAGE + 1, 2), 2);
	assert_int_equal(__idx(&c, objs[PER_PAGE + 1]), 1);
	assert_int_equal(__idx(&c, objs[PER_PAGE + 2]), 0);
	assert_int_equal(c.refills, 2);
	slab_cache_fini(&c);
}

/* A free object holds its free pointer at the offset and nothing of it
 * else is written: for offsets at the start, the middle and the end. */
static void
test_free_pointer(void **state)
{
	static const uint32_t offsets[] = { 0, 8, 112, SIZE / 2, SIZE - 8 };
	unsigned int k, i, j;

	(void)state;
	for (k = 0; k < RTE_DIM(offsets); k++) {
		struct slab_conf conf = __conf(1, offsets[k], k % 2 == 1);
		struct slab_cache c;
		void *objs[4];

		assert_int_equal(slab_cache_init(&c, &conf), 0);
		assert_int_equal(slab_alloc_bulk(&c, objs, 4), 4);
		for (i = 0; i < 4; i++)
			memset(objs[i], 0xa5, SIZE);
		slab_free_bulk(&c, objs, 4);
		assert_ptr_equal(c.freelist, objs[3]);
		for (i = 0; i < 4; i++) {
			const uint8_t *b = objs[i];
			void *next;

			memcpy(&next, b + offsets[k], sizeof(next));
			/* the first freed points at the list it was pushed
			 * onto: the page's fifth object */
			assert_ptr_equal(next,
					 i ? objs[i - 1] : (void *)(c.mem + 4 * SIZE));
			for (j = 0; j < SIZE; j++)
				if (j < offsets[k] || j >= offsets[k] + 8)
					assert_int_equal(b[j], 0xa5);
		}
		slab_cache_fini(&c);
	}
}

/* A deterministic sequence of bulk allocations and frees of random sizes
 * (xorshift), on two caches of one shape, prefetch off and on: the same
 * objects (by index) in the same order, the same counters. */
static void
test_prefetch_same(void **state)
{
	const uint32_t pages = 12;
	struct slab_cache c[2];
	void *held[2][4 * MAX_BULK];
	unsigned int nh = 0, step, i, k;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct slab_conf conf = __conf(pages, 112, k == 1);

		assert_int_equal(slab_cache_init(&c[k], &conf), 0);
	}
	for (step = 0; step < 2000; step++) {
		unsigned int n, got[2];

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		n = (unsigned int)(x % MAX_BULK) + 1;
		if ((x >> 32) % 3 != 0 && nh + n <= RTE_DIM(held[0])) {
			for (k = 0; k < 2; k++)
				got[k] = slab_alloc_bulk(&c[k], held[k] + nh, n);
			assert_int_equal(got[0], got[1]);
			for (i = 0; i < got[0]; i++)
				assert_int_equal(__idx(&c[0], held[0][nh + i]),
						 __idx(&c[1], held[1][nh + i]));
			nh += got[0];
		} else {
			n = RTE_MIN(n, nh);
			for (k = 0; k < 2; k++)
				slab_free_bulk(&c[k], held[k] + nh - n, n);
			nh -= n;
		}
		for (k = 0; k < 2; k++)
			__check_books(&c[k], nh);
	}
	assert_int_equal(c[0].fails, c[1].fails);
	assert_int_equal(c[0].refills, c[1].refills);
	for (k = 0; k < 2; k++) {
		slab_cache_prefetch(&c[k], k == 0); /* switched: no change either */
		assert_int_equal(slab_alloc_bulk(&c[k], held[k], 1), 1);
	}
	assert_int_equal(__idx(&c[0], held[0][0]), __idx(&c[1], held[1][0]));
	for (k = 0; k < 2; k++)
		slab_cache_fini(&c[k]);
}

/* The walk finds a double free (a cycle) and a foreign object. */
static void
test_walk_refuses(void **state)
{
	struct slab_conf conf = __conf(2, 112, false);
	struct slab_cache c;
	uint64_t foreign[SIZE / 8];
	void *objs[3];

	(void)state;
	assert_int_equal(slab_cache_init(&c, &conf), 0);
	assert_false(slab_cache_owns(&c, c.mem + 1));
	assert_false(slab_cache_owns(&c, c.mem + (size_t)2 * PAGE));
	assert_false(slab_cache_owns(&c, foreign));
	assert_true(slab_cache_owns(&c, c.mem + PAGE + SIZE));
	assert_int_equal(slab_alloc_bulk(&c, objs, 3), 3);
	slab_free_bulk(&c, objs, 1);
	slab_free_bulk(&c, objs, 1); /* twice: objs[0] points at itself */
	assert_int_equal(slab_cache_count_free(&c), -ELOOP);
	slab_cache_fini(&c);

	assert_int_equal(slab_cache_init(&c, &conf), 0);
	assert_int_equal(slab_alloc_bulk(&c, objs, 1), 1);
	slab_free_bulk(&c, (void *[]){ foreign }, 1);
	assert_int_equal(slab_cache_count_free(&c), -EFAULT);
	slab_cache_fini(&c);
}

/* Every field of the shape outside what slab.h allows: -EINVAL, the cache
 * untouched. */
static void
test_bad_conf(void **state)
{
	static const struct {
		uint32_t size, offset, page_size, n_pages;
	} bad[] = {
		{ 0, 0, PAGE, 1 },	     /* no room for the free pointer */
		{ 4, 0, PAGE, 1 },	     /* smaller than a pointer */
		{ 260, 0, PAGE, 1 },	     /* not a multiple of 8 */
		{ SIZE, 4, PAGE, 1 },	     /* offset not a multiple of 8 */
		{ SIZE, SIZE - 4, PAGE, 1 }, /* free pointer past the end */
		{ SIZE, SIZE, PAGE, 1 },     { SIZE, UINT32_MAX - 7, PAGE, 1 },
		{ SIZE, 0, 2048, 1 },	     /* page under 4 KiB */
		{ SIZE, 0, 12288, 1 },	     /* not a power of two */
		{ SIZE, 0, 2u << 20, 1 },    /* over 1 MiB */
		{ 16384, 0, 8192, 1 },	     /* no object fits a page */
		{ SIZE, 0, PAGE, 0 },	     /* no page */
		{ SIZE, 0, 1u << 20, 4096 }, /* 4 GiB */
	};
	struct slab_cache c, before;
	unsigned int i;

	(void)state;
	memset(&c, 0x5a, sizeof(c));
	before = c;
	for (i = 0; i < RTE_DIM(bad); i++) {
		struct slab_conf conf = { .size = bad[i].size,
					  .offset = bad[i].offset,
					  .page_size = bad[i].page_size,
					  .n_pages = bad[i].n_pages,
					  .socket = SOCKET_ID_ANY };

		assert_int_equal(slab_cache_init(&c, &conf), -EINVAL);
		assert_memory_equal(&c, &before, sizeof(c));
	}
	/* the limits themselves are taken */
	{
		struct slab_conf conf = { .size = 8,
					  .offset = 0,
					  .page_size = 4096,
					  .n_pages = 1,
					  .socket = SOCKET_ID_ANY };

		assert_int_equal(slab_cache_init(&c, &conf), 0);
		assert_int_equal(slab_cache_capacity(&c), 512);
		slab_cache_fini(&c);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_bulk),    cmocka_unit_test(test_exhaustion),
		cmocka_unit_test(test_refill),	      cmocka_unit_test(test_free_pointer),
		cmocka_unit_test(test_prefetch_same), cmocka_unit_test(test_walk_refuses),
		cmocka_unit_test(test_bad_conf),
	};

	return cmocka_run_group_tests(tests, fixture_eal_setup, fixture_eal_teardown);
}
