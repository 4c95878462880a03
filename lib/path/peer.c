/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The inetpeer-like table: creation in the shared or split layout, set-up
 * inserts, and the slow-path readers. The fast path is in peer.h.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "base.h"
#include "peer.h"

/* Split layout: each slot's hot fields alone on a cache line. */
struct __peer_hot_line {
	struct peer_entry e;
} __rte_cache_aligned;

static_assert(sizeof(struct peer_entry) == 16, "4 shared entries per line");
static_assert(sizeof(struct __peer_hot_line) == RTE_CACHE_LINE_SIZE,
	      "one split entry per line");

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
	__peer_free(t->mem_keys, t->rte);
	__peer_free(t->mem_hot, t->rte);
	__peer_free(t, t->rte);
}

/* At least 2n slots: the load factor stays <= 1/2, so probes are short
 * and always end on an empty slot. */
static unsigned int
__peer_bits(unsigned int n)
{
	unsigned int bits = 1;

	while ((1ul << bits) < 2ul * n)
		bits++;
	return bits;
}

size_t
peer_table_bytes(unsigned int n, enum peer_layout layout)
{
	size_t slots;

	if (n == 0 || n > PEER_MAX || (unsigned int)layout >= PEER_LAYOUT_MAX)
		return 0;
	slots = (size_t)1 << __peer_bits(n);
	return sizeof(struct peer_table) + (layout == PEER_LAYOUT_SHARED ?
		slots * sizeof(struct peer_entry) :
		slots * (sizeof(uint32_t) + sizeof(struct __peer_hot_line)));
}

struct peer_table *
peer_table_create(unsigned int n, enum peer_layout layout, int socket)
{
	struct peer_table *t;
	unsigned int bits;
	size_t slots;

	if (n == 0 || n > PEER_MAX || (unsigned int)layout >= PEER_LAYOUT_MAX) {
		rte_errno = errno = EINVAL;
		return NULL;
	}
	bits = __peer_bits(n);
	slots = 1ul << bits;
	t = __peer_zalloc(sizeof(*t), socket);
	if (t == NULL)
		goto nomem;
	t->rte = socket >= 0;
	t->layout = layout;
	t->n_max = n;
	t->mask = (uint32_t)(slots - 1);
	t->hash_shift = 32 - bits;
	if (layout == PEER_LAYOUT_SHARED) {
		t->mem_hot = __peer_zalloc(slots * sizeof(struct peer_entry),
					   socket);
		if (t->mem_hot == NULL)
			goto nomem;
		t->hot = t->mem_hot;
		t->hot_stride = sizeof(struct peer_entry);
		t->keys = t->hot + offsetof(struct peer_entry, key);
		t->key_stride = t->hot_stride;
	} else {
		t->mem_keys = __peer_zalloc(slots * sizeof(uint32_t), socket);
		t->mem_hot = __peer_zalloc(slots * sizeof(struct __peer_hot_line),
					   socket);
		if (t->mem_keys == NULL || t->mem_hot == NULL)
			goto nomem;
		t->keys = t->mem_keys;
		t->key_stride = sizeof(uint32_t);
		t->hot = t->mem_hot;
		t->hot_stride = sizeof(struct __peer_hot_line);
	}
	return t;
nomem:
	peer_table_free(t);
	rte_errno = errno = ENOMEM;
	return NULL;
}

static inline uint32_t *
__peer_key(const struct peer_table *t, uint32_t i)
{
	return (uint32_t *)(uintptr_t)(t->keys + (size_t)i * t->key_stride);
}

static inline struct peer_entry *
__peer_entry(const struct peer_table *t, uint32_t i)
{
	return (struct peer_entry *)(t->hot + (size_t)i * t->hot_stride);
}

/* Slot of addr, or of the empty slot that ends its probe sequence. */
static uint32_t
__peer_find(const struct peer_table *t, uint32_t addr, bool *found)
{
	uint32_t i = (uint32_t)(addr * PEER_HASH_MUL) >> t->hash_shift;

	for (;;) {
		uint32_t k = *__peer_key(t, i);

		if (k == 0 || k == addr) {
			*found = k != 0;
			return i;
		}
		i = (i + 1) & t->mask;
	}
}

int
peer_table_add(struct peer_table *t, uint32_t addr)
{
	bool found;
	uint32_t i;

	if (addr == 0)
		return -EINVAL;
	i = __peer_find(t, addr, &found);
	if (found)
		return -EEXIST;
	if (t->count >= t->n_max)
		return -ENOSPC;
	*__peer_key(t, i) = addr;
	__peer_entry(t, i)->key = addr;	/* split: informational copy */
	t->count++;
	return 0;
}

int
peer_table_add_range(struct peer_table *t, uint32_t first, unsigned int count)
{
	unsigned int i;
	int ret;

	for (i = 0; i < count; i++) {
		ret = peer_table_add(t, first + i);
		if (ret < 0)
			return ret;
	}
	return 0;
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

	for (i = 0; i <= t->mask; i++)
		if (*__peer_key(t, i) != 0)
			sum += (int32_t)__atomic_load_n(&__peer_entry(t, i)->refcnt,
							__ATOMIC_RELAXED);
	return sum;
}

int
peer_table_info(const struct peer_table *t, uint32_t addr, uint32_t *refcnt,
		uint64_t *dtime)
{
	struct peer_entry *e;
	bool found;
	uint32_t i;

	if (addr == 0)
		return -ENOENT;
	i = __peer_find(t, addr, &found);
	if (!found)
		return -ENOENT;
	e = __peer_entry(t, i);
	if (refcnt != NULL)
		*refcnt = __atomic_load_n(&e->refcnt, __ATOMIC_RELAXED);
	if (dtime != NULL)
		*dtime = __atomic_load_n(&e->dtime, __ATOMIC_RELAXED);
	return 0;
}
