/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Sets of per-lcore blocks, the two fold strategies and baseline deltas.
 * The schema (the field table and what derives from it) is mib_schema.c.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "base.h"
#include "mib.h"
#include "mib_pvt.h"

const char *const mib_layout_names[] = {
	[MIB_LAYOUT_PERCPU] = "percpu", [MIB_LAYOUT_SHARED] = "shared" };
static_assert(RTE_DIM(mib_layout_names) == MIB_LAYOUT_MAX, "layout names");
const char *const mib_fold_names[] = {
	[MIB_FOLD_FIELD] = "field", [MIB_FOLD_LCORE] = "lcore" };
static_assert(RTE_DIM(mib_fold_names) == MIB_FOLD_MAX, "fold names");

const char *
mib_layout_name(enum mib_layout l)
{
	return BASE_ENUM_NAME(mib_layout_names, l);
}

const char *
mib_fold_name(enum mib_fold f)
{
	return BASE_ENUM_NAME(mib_fold_names, f);
}

int
mib_layout_parse(const char *s, enum mib_layout *out)
{
	int i = base_name_index(mib_layout_names, MIB_LAYOUT_MAX, s);

	if (i < 0)
		return -EINVAL;
	*out = (enum mib_layout)i;
	return 0;
}

int
mib_fold_parse(const char *s, enum mib_fold *out)
{
	int i = base_name_index(mib_fold_names, MIB_FOLD_MAX, s);

	if (i < 0)
		return -EINVAL;
	*out = (enum mib_fold)i;
	return 0;
}

/* ---- sets ---- */

/* A percpu block is its own page-aligned allocation, a whole number of
 * pages, as a Linux per-CPU unit is: field f of every block has the same
 * offset in its page, so it maps to the same L1 set in every block (what
 * makes snmp_fold_field's field-major walk miss on every block). */
#define BLOCK_BYTES MIB_BLOCK_BYTES
static_assert(MIB_BLOCK_BYTES % MIB_BLOCK_ALIGN == 0 &&
	      MIB_BLOCK_BYTES >= MIB_FIELD_MAX * sizeof(uint64_t), "block size");

struct mib_set {
	unsigned int n;
	enum mib_layout layout;			/* mib_set_block()'s: the first store */
	unsigned int n_stores;			/* 1, or 2 after mib_set_add_layout() */
	enum mib_layout stores[MIB_LAYOUT_MAX]; /* in fold order */
	bool rte;		/* allocated with rte_malloc */
	unsigned int shift;	/* shared layout: log2(stride) */
	uint64_t *shared;	/* shared layout: MIB_FIELD_MAX << shift words */
	uint64_t *blocks[];	/* percpu layout: n blocks of BLOCK_BYTES */
};

void *
__mib_zalloc(const char *tag, size_t sz, size_t align, int socket, bool rte)
{
	void *p = NULL;

	if (rte)
		return rte_zmalloc_socket(tag, sz, (unsigned int)align, socket);
	if (posix_memalign(&p, align, sz) != 0)
		return NULL;
	memset(p, 0, sz);
	return p;
}

void
__mib_zfree(void *p, bool rte)
{
	if (rte)
		rte_free(p);
	else
		free(p);
}

/* Storage of s's n blocks in layout (which s does not have yet); 0 or
 * -ENOMEM (what was allocated is freed by mib_set_free()). */
static int
__mib_store_alloc(struct mib_set *s, enum mib_layout layout, const int *sockets)
{
	unsigned int i;

	if (layout == MIB_LAYOUT_SHARED) {
		while ((1u << s->shift) < s->n)
			s->shift++;
		s->shared = __mib_zalloc(
			"pktpath_mib",
			((size_t)MIB_FIELD_MAX << s->shift) * sizeof(uint64_t),
			RTE_CACHE_LINE_SIZE, s->rte ? sockets[0] : 0, s->rte);
		return s->shared == NULL ? -ENOMEM : 0;
	}
	for (i = 0; i < s->n; i++) {
		s->blocks[i] = __mib_zalloc("pktpath_mib", BLOCK_BYTES, MIB_BLOCK_ALIGN,
					    s->rte ? sockets[i] : 0, s->rte);
		if (s->blocks[i] == NULL)
			return -ENOMEM;
	}
	return 0;
}

struct mib_set *
mib_set_create(unsigned int n, enum mib_layout layout, const int *sockets)
{
	struct mib_set *s;

	if (n == 0 || n > MIB_SET_MAX || (unsigned int)layout >= MIB_LAYOUT_MAX) {
		rte_errno = errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s) + n * sizeof(s->blocks[0]));
	if (s == NULL) {
		rte_errno = errno = ENOMEM;
		return NULL;
	}
	s->n = n;
	s->layout = layout;
	s->stores[s->n_stores++] = layout;
	s->rte = sockets != NULL;
	if (__mib_store_alloc(s, layout, sockets) != 0) {
		mib_set_free(s);
		rte_errno = errno = ENOMEM;
		return NULL;
	}
	return s;
}

bool
mib_set_has_layout(const struct mib_set *s, enum mib_layout layout)
{
	unsigned int k;

	for (k = 0; k < s->n_stores; k++)
		if (s->stores[k] == layout)
			return true;
	return false;
}

int
mib_set_add_layout(struct mib_set *s, enum mib_layout layout, const int *sockets)
{
	if ((unsigned int)layout >= MIB_LAYOUT_MAX || s->rte != (sockets != NULL))
		return -EINVAL;
	if (mib_set_has_layout(s, layout))
		return -EEXIST;
	if (__mib_store_alloc(s, layout, sockets) != 0)
		return -ENOMEM; /* freed with the set */
	s->stores[s->n_stores++] = layout;
	return 0;
}

void
mib_set_free(struct mib_set *s)
{
	unsigned int i;

	if (s == NULL)
		return;
	__mib_zfree(s->shared, s->rte);
	for (i = 0; i < s->n; i++)
		__mib_zfree(s->blocks[i], s->rte);
	free(s);
}

unsigned int
mib_set_count(const struct mib_set *s)
{
	return s->n;
}

size_t
mib_set_bytes_for(unsigned int n, enum mib_layout layout)
{
	unsigned int shift = 0;

	if (layout != MIB_LAYOUT_SHARED)
		return (size_t)n * BLOCK_BYTES;
	while ((1u << shift) < n)
		shift++;
	return ((size_t)MIB_FIELD_MAX << shift) * sizeof(uint64_t);
}

size_t
mib_set_bytes_n(const struct mib_set *s, unsigned int n)
{
	size_t sz = 0;
	unsigned int k;

	for (k = 0; k < s->n_stores; k++)
		sz += mib_set_bytes_for(n, s->stores[k]);
	return sz;
}

size_t
mib_set_bytes(const struct mib_set *s)
{
	return mib_set_bytes_n(s, s->n);
}

size_t
mib_set_layout_bytes(const struct mib_set *s, enum mib_layout layout)
{
	return mib_set_has_layout(s, layout) ? mib_set_bytes_for(s->n, layout) : 0;
}

enum mib_layout
mib_set_layout(const struct mib_set *s)
{
	return s->layout;
}

/* Block i (< s->n) in layout, which s has. */
static inline struct mib_block
__mib_block_in(const struct mib_set *s, unsigned int i, enum mib_layout layout)
{
	struct mib_block b = { NULL, 0 };

	if (layout == MIB_LAYOUT_SHARED) {
		b.base = s->shared + i;
		b.shift = s->shift;
	} else {
		b.base = s->blocks[i];
	}
	return b;
}

struct mib_block
mib_set_block(const struct mib_set *s, unsigned int i)
{
	struct mib_block b = { NULL, 0 };

	return i < s->n ? __mib_block_in(s, i, s->layout) : b;
}

struct mib_block
mib_set_block_in(const struct mib_set *s, unsigned int i, enum mib_layout layout)
{
	struct mib_block b = { NULL, 0 };

	return i < s->n && mib_set_has_layout(s, layout) ? __mib_block_in(s, i, layout)
							 : b;
}

static inline uint64_t
__mib_load(const uint64_t *base, unsigned int shift, unsigned int f)
{
	return __atomic_load_n(base + ((size_t)f << shift), __ATOMIC_RELAXED);
}

/* Constants fold to their value, whatever the blocks hold. */
static void
__mib_finish(const uint8_t *kinds, uint64_t *totals)
{
	unsigned int f;

	for (f = 0; f < MIB_FIELD_MAX; f++)
		if (kinds[f] == MIB_KIND_CONST)
			totals[f] = (uint64_t)mib_fields[f].value;
}

/*
 * The high-water marks among kinds, in field order, then MIB_FIELD_MAX: the
 * one test of a field's kind that decides how blocks combine, so that both
 * strategies max exactly the same fields and sum all the others.
 */
static void
__mib_hwm_list(const uint8_t *kinds, uint16_t *out)
{
	unsigned int f, n = 0;

	for (f = 0; f < MIB_FIELD_MAX; f++)
		if (kinds[f] == MIB_KIND_HWM)
			out[n++] = (uint16_t)f;
	out[n] = MIB_FIELD_MAX;
}

/* a and b combined: the larger for a high-water mark, else the sum. */
static inline uint64_t
__mib_combine(bool is_max, uint64_t a, uint64_t b)
{
	return is_max ? RTE_MAX(a, b) : a + b;
}

/*
 * Fold the blocks of one store of s (layout) into totals and the first
 * n_per_block blocks' per_block values. The first store sets them (more is
 * false), the next ones combine into them (more): block l's value is the
 * sum (or max) of its copies in every store. more is a constant, so that
 * the first store's pass is the code of a set that has one.
 */
static __rte_always_inline void
__mib_fold_store(const struct mib_set *s, enum mib_layout layout, enum mib_fold strategy,
		 const uint16_t *hwm, uint64_t *totals, uint64_t *per_block,
		 unsigned int n_per_block, const bool more)
{
	unsigned int f, l;

	if (strategy == MIB_FOLD_FIELD) {
		/* snmp_fold_field: one field at a time, across every block. */
		const uint16_t *h = hwm;

		for (f = 0; f < MIB_FIELD_MAX; f++) {
			bool is_max = f == *h;
			uint64_t acc = more ? totals[f] : 0;

			h += is_max;
			for (l = 0; l < s->n; l++) {
				struct mib_block b = __mib_block_in(s, l, layout);
				uint64_t v = __mib_load(b.base, b.shift, f);

				if (l < n_per_block) {
					uint64_t *pb =
						per_block + (size_t)l * MIB_FIELD_MAX + f;

					*pb = more ? __mib_combine(is_max, *pb, v) : v;
				}
				acc = __mib_combine(is_max, acc, v);
			}
			totals[f] = acc;
		}
		return;
	}
	/* snmp_get_cpu_field64_batch: one block at a time, all fields.
	 * Between two high-water marks the loop is a plain sum, with no
	 * per-field test: as fast as a fold that had none. */
	if (!more)
		memset(totals, 0, MIB_FIELD_MAX * sizeof(*totals));
	for (l = 0; l < s->n; l++) {
		struct mib_block b = __mib_block_in(s, l, layout);
		const uint64_t *base = b.base;
		unsigned int shift = b.shift;
		uint64_t *pb =
			l < n_per_block ? per_block + (size_t)l * MIB_FIELD_MAX : NULL;
		const uint16_t *h = hwm;

		for (f = 0;; f++) {
			unsigned int end = *h++;
			uint64_t v;

			for (; f < end; f++) {
				v = __mib_load(base, shift, f);
				if (pb != NULL)
					pb[f] = more ? pb[f] + v : v;
				totals[f] += v;
			}
			if (end == MIB_FIELD_MAX)
				break;
			v = __mib_load(base, shift, f);
			if (pb != NULL)
				pb[f] = more ? RTE_MAX(pb[f], v) : v;
			totals[f] = RTE_MAX(totals[f], v);
		}
	}
}

static void
__mib_fold_hwm(const struct mib_set *s, enum mib_fold strategy, const uint8_t *kinds,
	       const uint16_t *hwm, uint64_t *totals, uint64_t *per_block,
	       unsigned int n_per_block)
{
	unsigned int k;

	if (per_block == NULL)
		n_per_block = 0;
	__mib_fold_store(s, s->stores[0], strategy, hwm, totals, per_block, n_per_block,
			 false);
	/* A set in two layouts (mib_set_add_layout()): the other store's
	 * blocks add to the same totals and per-block values. */
	for (k = 1; k < s->n_stores; k++)
		__mib_fold_store(s, s->stores[k], strategy, hwm, totals, per_block,
				 n_per_block, true);
	__mib_finish(kinds, totals);
}

void
__mib_fold_kinds(const struct mib_set *s, enum mib_fold strategy,
		 const uint8_t *kinds, uint64_t *totals, uint64_t *per_block)
{
	uint16_t hwm[MIB_FIELD_MAX + 1];

	__mib_hwm_list(kinds, hwm);
	__mib_fold_hwm(s, strategy, kinds, hwm, totals, per_block, s->n);
}

void
mib_fold(const struct mib_set *s, enum mib_fold strategy, uint64_t *totals,
	 uint64_t *per_block)
{
	/* The table's list, made at compile time: the fold's cost stays that
	 * of reading the blocks. */
	__mib_fold_hwm(s, strategy, __mib_kinds, __mib_hwm, totals, per_block,
		       s->n);
}

void
mib_fold_part(const struct mib_set *s, enum mib_fold strategy, uint64_t *totals,
	      uint64_t *per_block, unsigned int n_per_block)
{
	__mib_fold_hwm(s, strategy, __mib_kinds, __mib_hwm, totals, per_block,
		       RTE_MIN(n_per_block, s->n));
}

void
mib_delta(const uint64_t *cur, const uint64_t *base, uint64_t *out)
{
	unsigned int f;

	for (f = 0; f < MIB_FIELD_MAX; f++)
		out[f] = __mib_kinds[f] == MIB_KIND_SUM ? cur[f] - base[f] : cur[f];
}
