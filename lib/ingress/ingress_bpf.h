/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_INGRESS_BPF_H
#define PKTPATH_INGRESS_BPF_H

/**
 * @file
 * The "bpf" classifier kind (kind_bpf.c): an eBPF ELF object's program,
 * made a program by lib/bpf (pktbpf_object_load(): the file read as every
 * input is, libbpf opens it from memory, no kernel load; checked, loaded
 * under limits), run on the context of
 * config/bpf/pktpath_bpf.h, whose return code is the verdict, as cls_bpf's
 * direct action: 0 pass (TC_ACT_OK, matched), 2 drop (TC_ACT_SHOT),
 * all-ones no match (TC_ACT_UNSPEC: the default, pass), (1 << 32) | m pass
 * with mark m; any other value passes, matched. The classifier objects and
 * the hook that runs them are in ingress.h; engines, refusals, limits and
 * DPDK's faults in pktbpf.h and lib/bpf/README.md.
 */

#include <stddef.h>

#include "ingress.h"
#include "pktbpf.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * An eBPF ELF object's program as a classifier: section (or program name)
 * sec of the object at path, as pktbpf_object_load() makes it (its
 * refusals: maps, helper calls, tail calls, bpf-to-bpf calls, loops,
 * stores through anything but a stack pointer, shifts by the operand
 * width or more, more than 4096 instructions; path is read as every input
 * is: a regular file of at most PKTBPF_OBJ_MAX bytes). Its description
 * names the object, the section (both quoted: base_quote()) and the engine
 * ("bpf FILE:SEC jit").
 *
 * @param bc  NULL for the defaults (pktbpf_conf_init()); engine libpcap is
 *            refused (-EINVAL)
 * @return 0 and *out; pktbpf_object_load()'s errors: -EINVAL (non-ELF
 *         file, not a regular file, rte_bpf refused the program: the
 *         verifier's reason), the file's errno (-ENOENT, -EACCES,
 *         -EFBIG...), -ENOENT (no such section: the message lists the ones
 *         there are), -ENOTSUP (the refusals above), -E2BIG (too many
 *         instructions), -ETIMEDOUT (the verifier did not finish in time),
 *         -EINTR, -ENOMEM; one line in err naming the file (its name and
 *         the sections' quoted: base_quote()).
 * Needs EAL. Thread-safe.
 */
int ingress_bpf_create(const char *path, const char *sec,
		       const struct pktbpf_conf *bc,
		       struct ingress_classifier **out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_INGRESS_BPF_H */
