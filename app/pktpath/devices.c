/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mib-devices N: per-device IPv6 MIBs (lib/mib/mib_dev.h), as each
 * inet6_dev of Linux keeps them beside the namespace's.
 *
 * The devices: the run's own first -- each port (named as DPDK names it,
 * "net_null0"), or the generator's device "gen0" -- then N phantom ones,
 * "veth0" ... "vethN-1", as docker's containers add veth devices: they
 * are folded by every link dump. Device d's ifIndex is d + 1. The set has
 * a block per MIB lcore (the workers', the control block's, the phantom
 * lcores' of --mib-lcores), so that a dump at D devices x L lcores folds
 * what a kernel with D devices on L CPUs folds.
 *
 * Counting. The receive path counts into the worker's MIB block as
 * before (the global MIB stays exactly as it was); after each burst, the
 * worker adds what the burst moved in its block's Ip6, Icmp6 and Icmp6Msg
 * groups to the device that received the burst (app_devices_burst()): the
 * same counters the kernel's __IP6_INC_STATS(net, idev, ...) and
 * ICMP6_INC_STATS(net, idev, ...) move in both. So the path (lib/path)
 * knows nothing of devices and a run without --mib-devices runs the loop
 * it ran before (a variant that fixes the devices off). A port's bursts
 * go to the port's device. The generator's bursts go to the generator's
 * device and the phantom ones in turn, burst by burst (each worker starts
 * at a device of its own): every device receives traffic, and the sum
 * over the devices is the global count. Differences from the kernel,
 * each a class:
 *   - Icmp6OutRateLimitHost is never added (the kernel counts it per
 *     namespace only since 6.17);
 *   - what the reassembly's timer counts between two bursts
 *     (ReasmTimeout, ReasmFails of an expired queue) goes to the next
 *     burst's device, not to the device of the expired queue;
 *   - the kernel counts the local delivery's counters (InDelivers, and
 *     ip6_input_finish's drops) on the route's device (ip6_dst_idev), the
 *     one holding the address: in pktpath the device that received it.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "app.h"
#include "mib_dev.h"

/* A worker's share: the devices it counts into and what its MIB block's
 * IPv6 groups held after its last burst. Written by its worker only. */
struct app_dev_acc {
	struct mib_devset *ds;
	unsigned int lcore;	       /* its blocks' index in ds */
	unsigned int first, n;	       /* the devices its bursts go to */
	unsigned int next;	       /* the next burst's: first + next */
	uint64_t last[MIB_DEV_FIELDS]; /* flat field MIB_BASE_IP6 + i */
} __rte_cache_aligned;

static_assert(MIB_BASE_ICMP6 == MIB_BASE_IP6 + MIB_DEV_IP6 &&
		      MIB_BASE_ICMP6MSG == MIB_BASE_ICMP6 + MIB_ICMP6_MAX,
	      "the device groups are not end to end");

void
app_devices_sync(struct app_dev_acc *d, const struct mib_block *mib)
{
	unsigned int i;

	for (i = 0; i < MIB_DEV_FIELDS; i++)
		d->last[i] = mib_read(mib, MIB_BASE_IP6 + i);
}

void
app_devices_burst(struct app_dev_acc *d, const struct mib_block *mib)
{
	unsigned int dev = d->first + d->next, i;
	uint64_t *blk = mib_dev_ip6_block(d->ds, dev, d->lcore);
	bool icmp = false;
	uint64_t v;

	if (++d->next == d->n)
		d->next = 0;
	for (i = 0; i < MIB_DEV_IP6; i++) {
		v = mib_read(mib, MIB_BASE_IP6 + i);
		if (v != d->last[i]) {
			mib_dev_ip6_add(blk, i, v - d->last[i]);
			d->last[i] = v;
		}
	}
	/* Icmp6 but OutRateLimitHost; an Icmp6Msg counter moves only with
	 * InMsgs or OutMsgs (icmpv6_rcv, __ip6_make_skb), so the 512 are
	 * compared only after a burst that moved one of those. */
	for (i = MIB_DEV_IP6; i < MIB_DEV_IP6 + MIB_ICMP6_OUTRATELIMITHOST; i++) {
		v = mib_read(mib, MIB_BASE_IP6 + i);
		if (v != d->last[i]) {
			mib_dev_icmp6_add(d->ds, dev, MIB_BASE_IP6 + i, v - d->last[i]);
			d->last[i] = v;
			icmp = true;
		}
	}
	if (likely(!icmp))
		return;
	for (i = MIB_BASE_ICMP6MSG - MIB_BASE_IP6; i < MIB_DEV_FIELDS; i++) {
		v = mib_read(mib, MIB_BASE_IP6 + i);
		if (v != d->last[i]) {
			mib_dev_icmp6_add(d->ds, dev, MIB_BASE_IP6 + i, v - d->last[i]);
			d->last[i] = v;
		}
	}
}

/* The name of device d: a port's, "gen0", then "vethN". */
static int
__name(const struct app *a, unsigned int d, char *buf, size_t len)
{
	if (d >= a->n_dev_own) {
		snprintf(buf, len, "veth%u", d - a->n_dev_own);
		return 0;
	}
	if (a->opt.source == APP_SRC_GEN) {
		snprintf(buf, len, "gen0");
		return 0;
	}
	return rte_eth_dev_get_name_by_port(a->ports[d].id, buf);
}

void
app_devices_setup(struct app *a)
{
	unsigned int n_blocks = a->n_workers + 1 + a->n_phantom, d, i;
	char what[160], name[RTE_ETH_NAME_MAX_LEN];
	int *sockets;
	uint64_t need;

	if (a->opt.mib_devices == 0)
		return;
	a->n_dev_own = a->opt.source == APP_SRC_GEN ? 1 : a->n_ports;
	a->n_devs = a->n_dev_own + a->opt.mib_devices;
	need = mib_devset_bytes_for(a->n_devs, n_blocks);
	if (need == 0)
		app_usage_exit("pktpath: --mib-devices %u: %u devices with the run's "
			       "%u, at most %u",
			       a->opt.mib_devices, a->n_devs, a->n_dev_own, MIB_DEV_MAX);
	snprintf(what, sizeof(what),
		 "the per-device IPv6 MIBs (%u devices x %u "
		 "lcores: %.1f MiB)",
		 a->n_devs, n_blocks, (double)need / (1 << 20));
	app_mem_need(APP_MEM_EAL, what, need,
		     "fewer devices (--mib-devices) or "
		     "lcores (--mib-lcores)");
	sockets = calloc(n_blocks, sizeof(*sockets));
	a->dev_names = calloc(a->n_devs, sizeof(*a->dev_names));
	if (sockets == NULL || a->dev_names == NULL)
		rte_exit(EXIT_FAILURE, "calloc(devices) failed\n");
	for (i = 0; i < n_blocks; i++)
		sockets[i] = i < a->n_workers
				     ? a->workers[i].socket
				     : rte_socket_id_by_idx(i % rte_socket_count());
	a->devs = mib_devset_create(a->n_devs, n_blocks, sockets);
	free(sockets);
	if (a->devs == NULL && rte_errno == ENOMEM)
		app_oom_exit(what, need, "fewer devices (--mib-devices)");
	if (a->devs == NULL)
		rte_exit(EXIT_FAILURE, "mib_devset_create(%u, %u): %s\n", a->n_devs,
			 n_blocks, rte_strerror(rte_errno));
	for (d = 0; d < a->n_devs; d++) {
		if (__name(a, d, name, sizeof(name)) != 0 ||
		    (a->dev_names[d] = strdup(name)) == NULL)
			rte_exit(EXIT_FAILURE, "the name of device %u failed\n", d);
	}
	for (i = 0; i < a->n_workers; i++) {
		struct app_worker *w = &a->workers[i];
		struct app_dev_acc *acc = rte_zmalloc_socket(
			"dev_acc", sizeof(*acc), RTE_CACHE_LINE_SIZE, w->socket);

		if (acc == NULL)
			app_oom_exit("a worker's per-device counts", sizeof(*acc),
				     "fewer workers (-l)");
		acc->ds = a->devs;
		acc->lcore = i;
		if (a->opt.source == APP_SRC_GEN) {
			acc->n = a->n_devs;
			acc->next = i % a->n_devs;
		} else {
			/* a port's worker: its port's device only */
			for (d = 0; d < a->n_ports; d++)
				if (a->ports[d].id == w->port)
					acc->first = d;
			acc->n = 1;
		}
		w->dev = acc;
	}
}

int
app_devices_register(struct app *a)
{
	struct export_devices d = {
		.ds = a->devs,
		.names = (const char *const *)a->dev_names,
		.s = a->stats,
	};

	return a->devs == NULL ? 0 : export_devices_register(&d);
}

void
app_devices_free(struct app *a)
{
	unsigned int i;

	export_devices_unregister();
	for (i = 0; i < a->n_workers; i++) {
		rte_free(a->workers[i].dev);
		a->workers[i].dev = NULL;
	}
	for (i = 0; a->dev_names != NULL && i < a->n_devs; i++)
		free(a->dev_names[i]);
	free(a->dev_names);
	a->dev_names = NULL;
	mib_devset_free(a->devs);
	a->devs = NULL;
}

const char *
app_devices_text(const struct app *a, char *buf, size_t len)
{
	if (a->devs == NULL)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len,
			 "; per-device IPv6 MIBs: %u devices (%u of the "
			 "run's, %u phantom) x %u lcores, %zu KiB",
			 a->n_devs, a->n_dev_own, a->opt.mib_devices,
			 mib_devset_lcores(a->devs), mib_devset_bytes(a->devs) >> 10);
	return buf;
}
