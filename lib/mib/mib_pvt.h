/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_MIB_PVT_H
#define PKTPATH_MIB_PVT_H

/*
 * Internal to lib/mib: what mib_schema.c (the field table) gives mib.c (the
 * folds), and the fold over any kinds that test_mib uses to check that both
 * strategies treat every high-water mark alike. Not for other modules.
 */

#include <stdint.h>

#include "mib.h"

/** The kind column of the field table, one byte per field. */
extern const uint8_t __mib_kinds[MIB_FIELD_MAX];
/** The table's MIB_KIND_HWM fields, in order, then MIB_FIELD_MAX: the
 *  fields both folds max (and only those). */
extern const uint16_t __mib_hwm[];

/**
 * mib_fold() with kinds[f] (enum mib_kind) in place of the table's kind of
 * field f; a MIB_KIND_CONST field folds to mib_fields[f].value. mib_fold()
 * is this with __mib_kinds (and its __mib_hwm). Same thread-safety as
 * mib_fold().
 */
void __mib_fold_kinds(const struct mib_set *s, enum mib_fold strategy,
		      const uint8_t *kinds, uint64_t *totals, uint64_t *per_block);

/**
 * Zeroed memory of sz bytes aligned on align: from DPDK's heap on socket
 * (named tag) when rte, else from the C allocator (no EAL: the tests).
 * NULL when there is none. Thread-safe.
 */
void *__mib_zalloc(const char *tag, size_t sz, size_t align, int socket, bool rte);
/** Give back what __mib_zalloc() gave with the same rte. */
void __mib_zfree(void *p, bool rte);

#endif /* PKTPATH_MIB_PVT_H */
