/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The inetpeer-like table: creation in the shared or split layout, set-up
 * inserts (each rebuilds the tree from the sorted keys), the sharing
 * between lcores, and the slow-path readers. The fast path is in peer.h.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "base.h"
#include "peer.h"

/* The layouts' promises, which test_peer checks too. */
static_assert(sizeof(struct peer_node_shared) == RTE_CACHE_LINE_SIZE,
	      "shared: one line a peer");
static_assert(offsetof(struct peer_node_shared, hot) + sizeof(struct peer_hot) <=
		      RTE_CACHE_LINE_SIZE,
	      "shared: the hot fields on the key's line");
static_assert(sizeof(struct peer_node_split) == 2 * RTE_CACHE_LINE_SIZE,
	      "split: two lines a peer");
static_assert(offsetof(struct peer_node_split, hot) == RTE_CACHE_LINE_SIZE,
	      "split: the hot fields on the second line");

const char *const peer_layout_names[] = {
	[PEER_LAYOUT_SHARED] = "shared",
	[PEER_LAYOUT_SPLIT] = "split",
};
static_assert(RTE_DIM(peer_layout_names) == PEER_LAYOUT_MAX,
	      "peer layout names and enum disagree");

const char *
peer_layout_name(enum peer_layout l)
{
	return BASE_ENUM_NAME(peer_layout_names, l);
}

int
peer_layout_parse(const char *s, enum peer_layout *out)
{
	int i = base_name_index(peer_layout_names, PEER_LAYOUT_MAX, s);

	if (i < 0)
		return -EINVAL;
	*out = (enum peer_layout)i;
	return 0;
}

static void *
__peer_zalloc(size_t sz, int socket)
{
	void *p = NULL;

	if (socket >= 0)
		return rte_zmalloc_socket("pktpath_peer", sz,
					  RTE_CACHE_LINE_SIZE, socket);
	if (posix_memalign(&p, RTE_CACHE_LINE_SIZE, sz) != 0)
		return NULL;
	memset(p, 0, sz);
	return p;
}

static void
__peer_free(void *p, bool rte)
{
	if (rte)
		rte_free(p);
	else
		free(p);
}

void
peer_table_free(struct peer_table *t)
{
	if (t == NULL)
		return;
	__peer_free(t->mem, t->rte);
	__peer_free(t, t->rte);
}

static size_t
__peer_node_size(enum peer_layout layout)
{
	return layout == PEER_LAYOUT_SHARED ? sizeof(struct peer_node_shared)
					    : sizeof(struct peer_node_split);
}

size_t
peer_table_bytes(unsigned int n, enum peer_layout layout)
{
	if (n == 0 || n > PEER_MAX || (unsigned int)layout >= PEER_LAYOUT_MAX)
		return 0;
	return sizeof(struct peer_table) + (size_t)n * __peer_node_size(layout);
}

struct peer_table *
peer_table_create(unsigned int n, enum peer_layout layout, int socket)
{
	struct peer_table *t;

	if (n == 0 || n > PEER_MAX || (unsigned int)layout >= PEER_LAYOUT_MAX) {
		rte_errno = errno = EINVAL;
		return NULL;
	}
	t = __peer_zalloc(sizeof(*t), socket);
	if (t == NULL)
		goto nomem;
	t->rte = socket >= 0;
	t->layout = layout;
	t->n_max = n;
	t->stride = (uint32_t)__peer_node_size(layout);
	t->lcores = 1;
	t->mem = __peer_zalloc((size_t)n * t->stride, socket);
	if (t->mem == NULL)
		goto nomem;
	t->keys = t->mem; /* the key is first in both node types */
	t->hot = (uint8_t *)t->mem + (layout == PEER_LAYOUT_SHARED
					      ? offsetof(struct peer_node_shared, hot)
					      : offsetof(struct peer_node_split, hot));
	return t;
nomem:
	peer_table_free(t);
	rte_errno = errno = ENOMEM;
	return NULL;
}

static inline uint32_t *
__peer_key(const struct peer_table *t, uint32_t i)
{
	return (uint32_t *)(uintptr_t)(t->keys + (size_t)i * t->stride);
}

static inline struct peer_hot *
__peer_hot(const struct peer_table *t, uint32_t i)
{
	return (struct peer_hot *)(t->hot + (size_t)i * t->stride);
}

/* A peer while the tree is rebuilt. */
struct __peer_rec {
	uint32_t key;
	struct peer_hot hot;
};

static int
__peer_rec_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct __peer_rec *)a)->key;
	uint32_t y = ((const struct __peer_rec *)b)->key;

	return (x > y) - (x < y);
}

/* In-order walk of the Eytzinger tree of count nodes: node i takes the
 * next record of the sorted array (fill) or gives its own (!fill). */
static void
__peer_inorder(struct peer_table *t, uint32_t i, uint32_t count, struct __peer_rec *r,
	       uint32_t *next, bool fill)
{
	if (i >= count)
		return;
	__peer_inorder(t, 2 * i + 1, count, r, next, fill);
	if (fill) {
		*__peer_key(t, i) = r[*next].key;
		*__peer_hot(t, i) = r[*next].hot;
	} else {
		r[*next].key = *__peer_key(t, i);
		r[*next].hot = *__peer_hot(t, i);
	}
	(*next)++;
	__peer_inorder(t, 2 * i + 2, count, r, next, fill);
}

int
peer_table_add_range(struct peer_table *t, uint32_t first, unsigned int count)
{
	struct __peer_rec *r;
	uint32_t i, n = 0;

	if (count == 0)
		return 0;
	if (first == 0 || first - 1 > UINT32_MAX - count)
		return -EINVAL; /* holds 0.0.0.0, or wraps to it */
	if (count > t->n_max)
		return -ENOSPC;
	r = calloc((size_t)t->count + count, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	__peer_inorder(t, 0, t->count, r, &n, false);
	for (i = 0; i < count; i++)
		r[n + i].key = first + i;
	n += count;
	qsort(r, n, sizeof(*r), __peer_rec_cmp);
	for (i = 1; i < n; i++)
		if (r[i].key == r[i - 1].key) {
			free(r);
			return -EEXIST;
		}
	if (n > t->n_max) {
		free(r);
		return -ENOSPC;
	}
	t->count = n;
	t->key_lo = r[0].key;
	t->span = r[n - 1].key - r[0].key + 1;
	n = 0;
	__peer_inorder(t, 0, t->count, r, &n, true);
	free(r);
	return 0;
}

int
peer_table_add(struct peer_table *t, uint32_t addr)
{
	return peer_table_add_range(t, addr, 1);
}

int
peer_table_share(struct peer_table *t, unsigned int lcores, unsigned int pct)
{
	if (lcores == 0 || lcores > RTE_MAX_LCORE || pct > 100)
		return -EINVAL;
	t->lcores = lcores;
	t->share_pct = pct;
	t->lcores_rcp = rte_reciprocal_value(lcores);
	return 0;
}

unsigned int
peer_lookup_lines(const struct peer_table *t, uint32_t addr,
		  uintptr_t keys[PEER_DEPTH_MAX], uintptr_t *hot)
{
	unsigned int n = 0, i;
	struct peer_hot *e = __peer_search(t, addr, keys, &n);

	for (i = 0; i < n; i++)
		keys[i] /= RTE_CACHE_LINE_SIZE;
	*hot = e == NULL ? 0 : (uintptr_t)e / RTE_CACHE_LINE_SIZE;
	return n;
}

unsigned int
peer_table_count(const struct peer_table *t)
{
	return t->count;
}

enum peer_layout
peer_table_layout(const struct peer_table *t)
{
	return t->layout;
}

int64_t
peer_table_refcnt_sum(const struct peer_table *t)
{
	int64_t sum = 0;
	uint32_t i;

	for (i = 0; i < t->count; i++)
		sum += (int32_t)__atomic_load_n(&__peer_hot(t, i)->refcnt,
						__ATOMIC_RELAXED);
	return sum;
}

int
peer_table_info(const struct peer_table *t, uint32_t addr, uint32_t *refcnt,
		uint64_t *dtime)
{
	struct peer_hot *e = peer_lookup(t, addr);

	if (e == NULL)
		return -ENOENT;
	if (refcnt != NULL)
		*refcnt = __atomic_load_n(&e->refcnt, __ATOMIC_RELAXED);
	if (dtime != NULL)
		*dtime = __atomic_load_n(&e->dtime, __ATOMIC_RELAXED);
	return 0;
}
