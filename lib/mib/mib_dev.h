/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_MIB_DEV_H
#define PKTPATH_MIB_DEV_H

/**
 * @file
 * Per-device IPv6 MIBs, as the kernel's struct inet6_dev keeps them.
 *
 * Every IPv6 device of Linux has its own statistics beside the namespace's
 * (include/net/if_inet6.h, struct ipv6_devstat): `ipv6`, a per-CPU
 * struct ipstats_mib (IPSTATS_MIB_MAX 64-bit counters), and `icmpv6dev`,
 * `icmpv6msgdev`, one atomic_long_t per ICMPv6 counter and per ICMPv6
 * message type for the whole device (no per-CPU copy). The receive path
 * counts into both the namespace's and the receiving device's
 * (__IP6_INC_STATS(net, idev, ...)); /proc/net/dev_snmp6/DEV prints a
 * device's, and every RTM_NEWLINK message of a link dump folds them
 * (rtnl_fill_ifinfo -> inet6_fill_link_af -> inet6_fill_ifla6_attrs ->
 * snmp6_fill_stats -> __snmp6_fill_stats64: every per-CPU copy of every
 * Ip6 counter, for every device). With 1000 veth devices on 160 CPUs that
 * fold was 50.7% of `docker run`.
 *
 * A device set holds D devices' statistics for L lcores, sized as the
 * kernel sizes them -- the counters themselves, not a page per block:
 *
 *   - the Ip6 group (MIB_IP6_MAX counters, 264 bytes) per device per
 *     lcore. Lcore l's blocks of every device lie end to end in one
 *     page-aligned region of its own (its "per-CPU unit"), so device d's
 *     block has the same offset in every lcore's region: field f of a
 *     device maps to the same L1 set on every lcore, as a per-CPU
 *     allocation does in the kernel, which is what the field-major fold
 *     pays for. One writer per region: its lcore.
 *   - the Icmp6 and Icmp6Msg groups (MIB_DEV_ICMP counters) once per
 *     device, written with an atomic add by any lcore, as the kernel's
 *     ICMP6_INC_STATS(net, idev, ...) does (atomic_long_inc): the one
 *     exception to pktpath's single-writer rule, kept because it is the
 *     kernel's layout (ICMPv6 is rare on a receive path; a per-lcore copy
 *     of 518 counters would cost 4 KiB per device per lcore, 1 GiB at
 *     1000 x 256).
 *
 * 1000 devices x 256 lcores take 69.0 MiB (mib_devset_bytes_for()); the
 * kernel's take 78.2 MiB (IPSTATS_MIB_MAX = 38 per-CPU counters per
 * device, and 7 + 512 ICMPv6 ones).
 *
 * Folding a device (mib_dev_fold()) gives its MIB_DEV_FIELDS values in the
 * flat order of the field table from MIB_BASE_IP6: value i is field
 * MIB_BASE_IP6 + i (Ip6, then Icmp6, then Icmp6Msg), so that a printer
 * names it with mib_field_linux_name(). The Ip6 group folds with the
 * strategy asked for -- MIB_FOLD_FIELD walks every lcore for each field
 * (snmp_fold_field, the kernel before 4.9), MIB_FOLD_LCORE every field of
 * each lcore into a zeroed buffer (__snmp6_fill_stats64 since "ipv6:
 * optimize snmp6_fill_stats64", the fix of the docker thread); the
 * per-device ICMPv6 counters are read once each, with either. A link
 * message carries the Ip6 and Icmp6 groups only (mib_dev_fold_link(),
 * mib_dev_dump()): 33 counters on every lcore and 6 once. Every field
 * of these groups is a counter (MIB_KIND_SUM): a fold is a sum.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>

#include "mib.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Ip6 counters per device per lcore. */
#define MIB_DEV_IP6	    ((unsigned int)MIB_IP6_MAX)
/** ICMPv6 counters per device (Icmp6, then Icmp6Msg), shared by its lcores. */
#define MIB_DEV_ICMP	    ((unsigned int)(MIB_ICMP6_MAX + MIB_ICMP6MSG_MAX))
/** Values of a folded device: the flat fields MIB_BASE_IP6 .. MIB_BASE_UDP6 - 1. */
#define MIB_DEV_FIELDS	    (MIB_DEV_IP6 + MIB_DEV_ICMP)
/** Values a link message carries: Ip6, then Icmp6 (MIB_BASE_IP6 .. MIB_BASE_ICMP6MSG - 1). */
#define MIB_DEV_LINK_FIELDS (MIB_DEV_IP6 + (unsigned int)MIB_ICMP6_MAX)
/** Most devices in a set. */
#define MIB_DEV_MAX	    4096u

/** Alignment of an lcore's region (a page, as a per-CPU unit). */
#define MIB_DEV_REGION_ALIGN 4096u

/** D devices' IPv6 statistics on L lcores. Opaque. */
struct mib_devset;

/**
 * Bytes a set of devs devices on lcores lcores takes: lcores regions of
 * devs Ip6 blocks each, rounded up to MIB_DEV_REGION_ALIGN, and devs ICMPv6
 * blocks rounded up to a cache line. 0 if devs is 0 or over MIB_DEV_MAX,
 * or lcores 0 or over MIB_SET_MAX. Thread-safe.
 */
size_t mib_devset_bytes_for(unsigned int devs, unsigned int lcores);

/**
 * Check, before allocating, that a set of devs x lcores fits in avail
 * bytes.
 *
 * @return 0 if it does; -EINVAL (devs or lcores out of range) or -ENOMEM,
 *   with one line in why (if non-NULL) naming the configuration and the
 *   figure it would need: "1000 devices x 256 lcores need 69.0 MiB of
 *   per-device IPv6 MIBs, 64.0 MiB available". Thread-safe.
 */
int mib_devset_check(unsigned int devs, unsigned int lcores, uint64_t avail, char *why,
		     size_t len);

/**
 * Allocate a zeroed set of devs devices on lcores lcores.
 *
 * @param sockets  NUMA socket of each lcore's region (rte_zmalloc_socket;
 *                 the ICMPv6 blocks go on sockets[0]), or NULL for the C
 *                 allocator (unit tests without EAL).
 * @return the set, or NULL with rte_errno/errno set: EINVAL (out of range),
 *   ENOMEM. Not thread-safe; call once at set-up.
 */
struct mib_devset *mib_devset_create(unsigned int devs, unsigned int lcores,
				     const int *sockets);
/** Free a set (NULL is a no-op). No writer or reader may use it any more. */
void mib_devset_free(struct mib_devset *ds);
/** Number of devices, of lcores; bytes (mib_devset_bytes_for() of both). */
unsigned int mib_devset_devs(const struct mib_devset *ds);
unsigned int mib_devset_lcores(const struct mib_devset *ds);
size_t mib_devset_bytes(const struct mib_devset *ds);

/**
 * Lcore l's Ip6 block of device dev: MIB_DEV_IP6 counters indexed by enum
 * mib_ip6, for mib_dev_ip6_add(). NULL if dev or l is out of range.
 * Thread-safe (constant once created).
 */
uint64_t *mib_dev_ip6_block(const struct mib_devset *ds, unsigned int dev,
			    unsigned int l);

/**
 * Add v to Ip6 counter f (enum mib_ip6) of a block from
 * mib_dev_ip6_block(). Single writer: the block's lcore; relaxed atomic
 * load and store, as mib_add().
 */
static __rte_always_inline void
mib_dev_ip6_add(uint64_t *blk, unsigned int f, uint64_t v)
{
	__atomic_store_n(blk + f, __atomic_load_n(blk + f, __ATOMIC_RELAXED) + v,
			 __ATOMIC_RELAXED);
}

/**
 * Add v to ICMPv6 counter f of device dev: f is a flat field of the Icmp6
 * or Icmp6Msg group (MIB_F(ICMP6, INMSGS), MIB_ICMP6MSG_IN(135)).
 * Any thread: an atomic add (a locked instruction), as the kernel's
 * per-device ICMPv6 counters. Returns -EINVAL for a device or field out
 * of range.
 */
int mib_dev_icmp6_add(struct mib_devset *ds, unsigned int dev, unsigned int f,
		      uint64_t v);

/**
 * Fold device dev: out gets its MIB_DEV_FIELDS values (out[i] is flat
 * field MIB_BASE_IP6 + i), the Ip6 group folded over every lcore with
 * strategy. Thread-safe against the writers (relaxed atomic loads); one
 * reader per output buffer. Returns 0, or -EINVAL (dev or strategy out of
 * range).
 */
int mib_dev_fold(const struct mib_devset *ds, unsigned int dev, enum mib_fold strategy,
		 uint64_t *out);

/**
 * Fold what a link message carries of device dev (inet6_fill_ifla6_attrs:
 * IFLA_INET6_STATS, the Ip6 group folded over every lcore, and
 * IFLA_INET6_ICMP6STATS, the Icmp6 group; not the messages by type): out
 * gets MIB_DEV_LINK_FIELDS values, out[i] being flat field MIB_BASE_IP6 +
 * i. Same thread-safety and return values as mib_dev_fold().
 */
int mib_dev_fold_link(const struct mib_devset *ds, unsigned int dev,
		      enum mib_fold strategy, uint64_t *out);

/**
 * A link dump: mib_dev_fold_link() of every device in turn, as
 * rtnl_fill_ifinfo runs for every link of an RTM_GETLINK dump; out holds
 * devs * MIB_DEV_LINK_FIELDS values, device major. Same thread-safety as
 * mib_dev_fold(). Returns 0 or -EINVAL (strategy out of range).
 */
int mib_dev_dump(const struct mib_devset *ds, enum mib_fold strategy, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_MIB_DEV_H */
