/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cache's cold parts (slab.h): set-up, carving, the refill, and the
 * walks the tests use.
 */
#include <errno.h>

#include <rte_malloc.h>

#include "slab.h"

#define SLAB_MIN_PAGE 4096u
#define SLAB_MAX_PAGE (1u << 20)

/* Thread page p's objects into its own free list, in address order
 * (allocate_slab() without CONFIG_SLAB_FREELIST_RANDOM); the last one's
 * free pointer is NULL. */
static void *
__carve(const struct slab_cache *c, uint32_t p)
{
	char *page = c->mem + (size_t)p * c->page_size;
	uint32_t i;

	for (i = 0; i < c->per_page; i++)
		__slab_set_fp(c, page + (size_t)i * c->size,
			      i + 1 < c->per_page ? page + (size_t)(i + 1) * c->size
						  : NULL);
	return page;
}

int
slab_cache_init(struct slab_cache *c, const struct slab_conf *conf)
{
	struct slab_cache n = { 0 };
	uint32_t p;

	if (conf->size < sizeof(void *) || conf->size % sizeof(void *) != 0 ||
	    conf->offset % sizeof(void *) != 0 ||
	    conf->offset > conf->size - sizeof(void *) ||
	    conf->page_size < SLAB_MIN_PAGE || conf->page_size > SLAB_MAX_PAGE ||
	    !rte_is_power_of_2(conf->page_size) || conf->size > conf->page_size ||
	    conf->n_pages == 0 || conf->n_pages > UINT32_MAX / conf->page_size)
		return -EINVAL;
	n.offset = conf->offset;
	n.prefetch = conf->prefetch;
	n.size = conf->size;
	n.per_page = conf->page_size / conf->size;
	n.n_pages = conf->n_pages;
	n.page_size = conf->page_size;
	/* Pages aligned on their size, as the page allocator gives them. */
	n.mem = rte_malloc_socket("slab_pages", (size_t)conf->n_pages * conf->page_size,
				  conf->page_size, conf->socket);
	if (n.mem == NULL)
		return -ENOMEM;
	for (p = 0; p < n.n_pages; p++)
		__carve(&n, p);
	*c = n;
	return 0;
}

void
slab_cache_fini(struct slab_cache *c)
{
	rte_free(c->mem);
	memset(c, 0, sizeof(*c));
}

void *
slab_cache_refill(struct slab_cache *c)
{
	if (c->next_page == c->n_pages)
		return NULL;
	c->refills++;
	/* The page's list, as carved at set-up: its objects were never
	 * handed out, so their free pointers are the carved ones. */
	c->freelist = c->mem + (size_t)c->next_page++ * c->page_size;
	return c->freelist;
}

bool
slab_cache_owns(const struct slab_cache *c, const void *obj)
{
	uintptr_t lo = (uintptr_t)c->mem, o = (uintptr_t)obj, in;

	if (c->mem == NULL || o < lo || o - lo >= (uintptr_t)c->n_pages * c->page_size)
		return false;
	in = (o - lo) % c->page_size;
	return in % c->size == 0 && in / c->size < c->per_page;
}

int64_t
slab_cache_count_free(const struct slab_cache *c)
{
	uint64_t cap = slab_cache_capacity(c), n = 0;
	const void *o;

	for (o = c->freelist; o != NULL; o = __slab_get_fp(c, o)) {
		if (!slab_cache_owns(c, o))
			return -EFAULT;
		if (++n > cap)
			return -ELOOP;
	}
	return (int64_t)n;
}
