/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-device IPv6 MIBs (mib_dev.h): per-lcore regions of every device's
 * Ip6 block, per-device ICMPv6 blocks, and the two folds of a device, of
 * what a link message carries of it, and of a link dump.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "mib_dev.h"
#include "mib_pvt.h"

static_assert(MIB_BASE_ICMP6 == MIB_BASE_IP6 + MIB_IP6_MAX &&
		      MIB_BASE_ICMP6MSG == MIB_BASE_ICMP6 + MIB_ICMP6_MAX &&
		      MIB_BASE_UDP6 == MIB_BASE_IP6 + MIB_DEV_FIELDS,
	      "a device's values are the flat fields Ip6, Icmp6, Icmp6Msg");

/* Bytes of one Ip6 block, and of one device's ICMPv6 block. */
#define DEV_IP6_BYTES ((size_t)MIB_DEV_IP6 * sizeof(uint64_t))
#define DEV_ICMP_BYTES                                          \
	RTE_ALIGN_CEIL((size_t)MIB_DEV_ICMP * sizeof(uint64_t), \
		       (size_t)RTE_CACHE_LINE_SIZE)

struct mib_devset {
	unsigned int devs;
	unsigned int lcores;
	bool rte;	     /* allocated with rte_malloc */
	uint64_t *icmp;	     /* devs blocks of DEV_ICMP_BYTES */
	uint64_t *regions[]; /* lcores regions of devs Ip6 blocks */
};

static size_t
__region_bytes(unsigned int devs)
{
	return RTE_ALIGN_CEIL((size_t)devs * DEV_IP6_BYTES, (size_t)MIB_DEV_REGION_ALIGN);
}

size_t
mib_devset_bytes_for(unsigned int devs, unsigned int lcores)
{
	if (devs == 0 || devs > MIB_DEV_MAX || lcores == 0 || lcores > MIB_SET_MAX)
		return 0;
	return (size_t)lcores * __region_bytes(devs) + (size_t)devs * DEV_ICMP_BYTES;
}

int
mib_devset_check(unsigned int devs, unsigned int lcores, uint64_t avail, char *why,
		 size_t len)
{
	size_t need = mib_devset_bytes_for(devs, lcores);

	if (need == 0) {
		if (why != NULL)
			snprintf(
				why, len,
				"%u devices x %u lcores: devices must be 1..%u and lcores 1..%u",
				devs, lcores, MIB_DEV_MAX, MIB_SET_MAX);
		return -EINVAL;
	}
	if (need <= avail)
		return 0;
	if (why != NULL)
		snprintf(
			why, len,
			"%u devices x %u lcores need %.1f MiB of per-device IPv6 MIBs, %.1f MiB available",
			devs, lcores, (double)need / (1 << 20),
			(double)avail / (1 << 20));
	return -ENOMEM;
}

struct mib_devset *
mib_devset_create(unsigned int devs, unsigned int lcores, const int *sockets)
{
	struct mib_devset *ds;
	unsigned int l;

	if (mib_devset_bytes_for(devs, lcores) == 0) {
		rte_errno = errno = EINVAL;
		return NULL;
	}
	ds = calloc(1, sizeof(*ds) + lcores * sizeof(ds->regions[0]));
	if (ds == NULL) {
		rte_errno = errno = ENOMEM;
		return NULL;
	}
	ds->devs = devs;
	ds->lcores = lcores;
	ds->rte = sockets != NULL;
	ds->icmp = __mib_zalloc("pktpath_mib_dev", (size_t)devs * DEV_ICMP_BYTES,
				RTE_CACHE_LINE_SIZE, ds->rte ? sockets[0] : 0, ds->rte);
	if (ds->icmp == NULL)
		goto nomem;
	for (l = 0; l < lcores; l++) {
		/* Each lcore's region its own page-aligned allocation on its
		 * socket, as a per-CPU unit. */
		ds->regions[l] = __mib_zalloc("pktpath_mib_dev", __region_bytes(devs),
					      MIB_DEV_REGION_ALIGN,
					      ds->rte ? sockets[l] : 0, ds->rte);
		if (ds->regions[l] == NULL)
			goto nomem;
	}
	return ds;
nomem:
	mib_devset_free(ds);
	rte_errno = errno = ENOMEM;
	return NULL;
}

void
mib_devset_free(struct mib_devset *ds)
{
	unsigned int l;

	if (ds == NULL)
		return;
	for (l = 0; l < ds->lcores; l++)
		__mib_zfree(ds->regions[l], ds->rte);
	__mib_zfree(ds->icmp, ds->rte);
	free(ds);
}

unsigned int
mib_devset_devs(const struct mib_devset *ds)
{
	return ds->devs;
}

unsigned int
mib_devset_lcores(const struct mib_devset *ds)
{
	return ds->lcores;
}

size_t
mib_devset_bytes(const struct mib_devset *ds)
{
	return mib_devset_bytes_for(ds->devs, ds->lcores);
}

uint64_t *
mib_dev_ip6_block(const struct mib_devset *ds, unsigned int dev, unsigned int l)
{
	if (dev >= ds->devs || l >= ds->lcores)
		return NULL;
	return ds->regions[l] + (size_t)dev * MIB_DEV_IP6;
}

static inline uint64_t *
__icmp_block(const struct mib_devset *ds, unsigned int dev)
{
	return ds->icmp + (size_t)dev * (DEV_ICMP_BYTES / sizeof(uint64_t));
}

int
mib_dev_icmp6_add(struct mib_devset *ds, unsigned int dev, unsigned int f, uint64_t v)
{
	if (dev >= ds->devs || f < MIB_BASE_ICMP6 || f >= MIB_BASE_UDP6)
		return -EINVAL;
	/* Any lcore may add: an atomic read-modify-write (the kernel's
	 * atomic_long_add); it orders nothing else. */
	__atomic_fetch_add(__icmp_block(ds, dev) + (f - MIB_BASE_ICMP6), v,
			   __ATOMIC_RELAXED);
	return 0;
}

/* Fold device dev's Ip6 group with strategy, then its first n_icmp ICMPv6
 * counters. */
static inline void
__fold(const struct mib_devset *ds, unsigned int dev, enum mib_fold strategy,
       uint64_t *out, unsigned int n_icmp)
{
	const size_t off = (size_t)dev * MIB_DEV_IP6;
	const uint64_t *icmp = __icmp_block(ds, dev);
	unsigned int f, l;

	if (strategy == MIB_FOLD_FIELD) {
		/* snmp_fold_field: one field at a time, across every lcore. */
		for (f = 0; f < MIB_DEV_IP6; f++) {
			uint64_t acc = 0;

			for (l = 0; l < ds->lcores; l++)
				acc += __atomic_load_n(ds->regions[l] + off + f,
						       __ATOMIC_RELAXED);
			out[f] = acc;
		}
	} else {
		/* __snmp6_fill_stats64: every field of one lcore, lcore after
		 * lcore, into a zeroed buffer. */
		memset(out, 0, DEV_IP6_BYTES);
		for (l = 0; l < ds->lcores; l++) {
			const uint64_t *b = ds->regions[l] + off;

			for (f = 0; f < MIB_DEV_IP6; f++)
				out[f] += __atomic_load_n(b + f, __ATOMIC_RELAXED);
		}
	}
	/* __snmp6_fill_statsdev: the device's own atomics, once each. */
	for (f = 0; f < n_icmp; f++)
		out[MIB_DEV_IP6 + f] = __atomic_load_n(icmp + f, __ATOMIC_RELAXED);
}

int
mib_dev_fold(const struct mib_devset *ds, unsigned int dev, enum mib_fold strategy,
	     uint64_t *out)
{
	if (dev >= ds->devs || (unsigned int)strategy >= MIB_FOLD_MAX)
		return -EINVAL;
	__fold(ds, dev, strategy, out, MIB_DEV_ICMP);
	return 0;
}

int
mib_dev_fold_link(const struct mib_devset *ds, unsigned int dev, enum mib_fold strategy,
		  uint64_t *out)
{
	if (dev >= ds->devs || (unsigned int)strategy >= MIB_FOLD_MAX)
		return -EINVAL;
	__fold(ds, dev, strategy, out, MIB_ICMP6_MAX);
	return 0;
}

int
mib_dev_dump(const struct mib_devset *ds, enum mib_fold strategy, uint64_t *out)
{
	unsigned int d;

	if ((unsigned int)strategy >= MIB_FOLD_MAX)
		return -EINVAL;
	for (d = 0; d < ds->devs; d++)
		__fold(ds, d, strategy, out + (size_t)d * MIB_DEV_LINK_FIELDS,
		       MIB_ICMP6_MAX);
	return 0;
}
