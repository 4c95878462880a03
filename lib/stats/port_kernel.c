/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kernel's counters for the PMDs that receive from Linux and do not
 * report what Linux dropped on the way (DPDK 22.11):
 *
 *  net_af_packet  Each queue pair is a packet socket with an mmap'ed ring;
 *                 when the ring is full the kernel drops the frame and
 *                 counts it in the socket's tp_drops (tpacket_rcv), which
 *                 the PMD never reads. PACKET_STATISTICS returns tp_packets
 *                 (frames offered, drops included) and tp_drops, and clears
 *                 them: we are its only reader, so we sum what it returns.
 *                 The sockets are found as the process's AF_PACKET sockets
 *                 bound to the port's interface index, in descriptor order
 *                 (as many as the port has queue pairs).
 *  net_tap        The tun driver drops a frame it cannot queue to the
 *                 file descriptor the PMD reads (tun_net_xmit) and counts it
 *                 in the tap interface's tx_dropped; tx_packets counts the
 *                 frames the PMD read. Both are read with getifaddrs()
 *                 (netlink, the current network namespace), as deltas from
 *                 stats_create().
 *
 * Called with the stats' fold_lock held (one reader of the clear-on-read
 * counters at a time).
 */
#include <errno.h>
#include <dirent.h>
#include <ifaddrs.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_ethdev.h>

#include "stats.h"
#include "stats_pvt.h"

/* fd is an AF_PACKET socket bound to if_index. */
static bool
__is_packet_socket_of(int fd, unsigned int if_index)
{
	struct sockaddr_ll sll;
	socklen_t sl = sizeof(sll);
	int domain = 0;
	socklen_t dl = sizeof(domain);
	struct stat sb;

	if (fstat(fd, &sb) != 0 || !S_ISSOCK(sb.st_mode))
		return false;
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &dl) != 0 ||
	    domain != AF_PACKET)
		return false;
	memset(&sll, 0, sizeof(sll));
	if (getsockname(fd, (struct sockaddr *)&sll, &sl) != 0)
		return false;
	return sll.sll_ifindex > 0 && (unsigned int)sll.sll_ifindex == if_index;
}

static bool
__claimed(const struct stats_port_state *prev, unsigned int n_prev, int fd)
{
	unsigned int i, j;

	for (i = 0; i < n_prev; i++)
		for (j = 0; j < prev[i].n_fds; j++)
			if (prev[i].fds[j] == fd)
				return true;
	return false;
}

static int
__cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void
__af_packet_init(struct stats_port_state *st,
		 const struct stats_port_state *prev, unsigned int n_prev)
{
	struct rte_eth_dev_info info;
	unsigned int want = 1;
	int cand[256];
	unsigned int n = 0, i;
	struct dirent *de;
	DIR *d;

	if (rte_eth_dev_info_get(st->conf.port_id, &info) == 0 &&
	    info.max_rx_queues > 0)
		want = RTE_MIN((unsigned int)info.max_rx_queues,
			       (unsigned int)STATS_PORT_MAX_QUEUES);
	d = opendir("/proc/self/fd");
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL && n < RTE_DIM(cand)) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);

		if (de->d_name[0] == '.' || *end != '\0' || fd < 0 || fd == dirfd(d))
			continue;
		if (__is_packet_socket_of((int)fd, st->if_index) &&
		    !__claimed(prev, n_prev, (int)fd))
			cand[n++] = (int)fd;
	}
	closedir(d);
	qsort(cand, n, sizeof(cand[0]), __cmp_int);
	for (i = 0; i < n && st->n_fds < want; i++)
		st->fds[st->n_fds++] = cand[i];
	if (st->n_fds == 0)
		return;
	st->kind = STATS_KPORT_AF_PACKET;
	snprintf(st->kernel, sizeof(st->kernel), "PACKET_STATISTICS of %u packet "
		 "socket%s on %s (tp_packets, tp_drops)", st->n_fds,
		 st->n_fds == 1 ? "" : "s", st->iface);
	/* Start from zero: what the sockets counted before the run started. */
	__stats_kport_sample(st);
	st->k_packets = st->k_drops = 0;
}

/* tx_packets and tx_dropped of iface, as netlink reports them (32 bits). */
static int
__link_tx(const char *iface, uint32_t *tx_packets, uint32_t *tx_dropped)
{
	struct ifaddrs *ifa, *i;
	int rc = -ENOENT;

	if (getifaddrs(&ifa) != 0)
		return -errno;
	for (i = ifa; i != NULL; i = i->ifa_next) {
		const struct rtnl_link_stats *ls = i->ifa_data;

		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_PACKET ||
		    ls == NULL || strcmp(i->ifa_name, iface) != 0)
			continue;
		*tx_packets = ls->tx_packets;
		*tx_dropped = ls->tx_dropped;
		rc = 0;
		break;
	}
	freeifaddrs(ifa);
	return rc;
}

static void
__tap_init(struct stats_port_state *st)
{
	uint32_t p = 0, dr = 0;

	if (st->iface[0] == '\0' || __link_tx(st->iface, &p, &dr) != 0)
		return;
	st->kind = STATS_KPORT_TAP;
	st->tap_last = dr;
	st->tap_last_pkts = p;
	snprintf(st->kernel, sizeof(st->kernel), "tx_packets + tx_dropped, "
		 "tx_dropped of tap interface %s", st->iface);
}

void
__stats_kport_init(struct stats_port_state *st,
		   const struct stats_port_state *prev, unsigned int n_prev)
{
	if (strcmp(st->driver, "net_af_packet") == 0 && st->if_index != 0)
		__af_packet_init(st, prev, n_prev);
	else if (strcmp(st->driver, "net_tap") == 0)
		__tap_init(st);
}

void
__stats_kport_sample(struct stats_port_state *st)
{
	unsigned int i;

	switch (st->kind) {
	case STATS_KPORT_AF_PACKET:
		for (i = 0; i < st->n_fds; i++) {
			struct tpacket_stats ts;
			socklen_t l = sizeof(ts);

			memset(&ts, 0, sizeof(ts));
			if (getsockopt(st->fds[i], SOL_PACKET, PACKET_STATISTICS,
				       &ts, &l) != 0)
				continue;
			/* tp_packets includes tp_drops (packet_getsockopt). */
			st->k_packets += ts.tp_packets;
			st->k_drops += ts.tp_drops;
		}
		break;
	case STATS_KPORT_TAP: {
		uint32_t p = 0, dr = 0;

		if (__link_tx(st->iface, &p, &dr) != 0)
			break;
		/* Unsigned 32-bit differences: right across one wrap. */
		st->k_drops += (uint32_t)(dr - st->tap_last);
		st->k_packets += (uint32_t)(dr - st->tap_last) +
				 (uint32_t)(p - st->tap_last_pkts);
		st->tap_last = dr;
		st->tap_last_pkts = p;
		break;
	}
	default:
		break;
	}
}

void
__stats_kport_fini(struct stats_port_state *st)
{
	/* The sockets are the PMD's: it closes them. */
	st->n_fds = 0;
	st->kind = STATS_KPORT_NONE;
}
