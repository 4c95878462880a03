/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a port needs from the host: the kernel interface behind a port
 * (net_af_packet, net_tap: dev_info.if_index) and its flags and MTU, so
 * that pktpath leaves them as it found them; the devargs a PMD was given
 * (net_af_packet framesz, qpairs); and lcores that share a CPU. (Hugepage
 * files and the EAL's runtime directory: lib/host.)
 */
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>
#include <rte_kvargs.h>
#include <rte_lcore.h>

#include "app.h"
#include "port.h"

static int
__ifreq(const char *ifname, unsigned long req, struct ifreq *ifr)
{
	int s, rc = 0;

	if (ifname == NULL || ifname[0] == '\0')
		return -ENODEV;
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0)
		return -errno;
	snprintf(ifr->ifr_name, sizeof(ifr->ifr_name), "%s", ifname);
	if (ioctl(s, req, ifr) != 0)
		rc = -errno;
	close(s);
	return rc;
}

int
app_host_if_flags(const char *ifname, unsigned int *flags)
{
	struct ifreq ifr;
	int rc;

	memset(&ifr, 0, sizeof(ifr));
	rc = __ifreq(ifname, SIOCGIFFLAGS, &ifr);
	if (rc == 0)
		*flags = (unsigned int)(uint16_t)ifr.ifr_flags;
	return rc;
}

int
app_host_if_mtu(const char *ifname, unsigned int *mtu)
{
	struct ifreq ifr;
	int rc;

	memset(&ifr, 0, sizeof(ifr));
	rc = __ifreq(ifname, SIOCGIFMTU, &ifr);
	if (rc == 0)
		*mtu = (unsigned int)ifr.ifr_mtu;
	return rc;
}

int
app_host_if_set_mtu(const char *ifname, unsigned int mtu)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_mtu = (int)mtu;
	return __ifreq(ifname, SIOCSIFMTU, &ifr);
}

long
app_host_devarg(uint16_t port_id, const char *key, long dflt)
{
	struct rte_eth_dev_info info;
	const struct rte_devargs *da;
	struct rte_kvargs *kv;
	const char *v;
	char *end;
	long x = dflt;

	if (rte_eth_dev_info_get(port_id, &info) != 0 || info.device == NULL)
		return dflt;
	da = rte_dev_devargs(info.device);
	if (da == NULL || da->args == NULL || da->args[0] == '\0')
		return dflt;
	kv = rte_kvargs_parse(da->args, NULL);
	if (kv == NULL)
		return dflt;
	v = rte_kvargs_get(kv, key);
	if (v != NULL) {
		x = strtol(v, &end, 0);
		if (*end != '\0' || x <= 0)
			x = dflt;
	}
	rte_kvargs_free(kv);
	return x;
}

/* net_af_packet's ring geometry (TPACKET_V2, SOCK_RAW): a frame lands at
 * tp_mac = TPACKET_ALIGN(TPACKET2_HDRLEN + 16) - 14 in its slot of
 * framesz bytes (tpacket_rcv), longer ones are cut to fit; the PMD copies
 * framesz - (TPACKET2_HDRLEN - sizeof(sockaddr_ll)) bytes of room into one
 * mbuf (eth_rx_queue_setup refuses smaller mbufs). */
#define AFP_DFLT_FRAMESZ 2048	/* DFLT_FRAME_SIZE of the PMD */

unsigned int
app_host_afp_framesz(uint16_t port_id)
{
	return (unsigned int)app_host_devarg(port_id, "framesz", AFP_DFLT_FRAMESZ);
}

unsigned int
app_host_afp_max_frame(unsigned int framesz)
{
	unsigned int mac = TPACKET_ALIGN(TPACKET2_HDRLEN + 16) - RTE_ETHER_HDR_LEN;

	return framesz > mac ? framesz - mac : 0;
}

unsigned int
app_host_afp_room(unsigned int framesz)
{
	unsigned int hdr = TPACKET2_HDRLEN - sizeof(struct sockaddr_ll);

	return framesz > hdr ? framesz - hdr : 0;
}

void
app_host_warn_shared_cpus(const struct app *a)
{
	unsigned int i, j, cpu;

	for (i = 0; i < a->n_workers; i++) {
		rte_cpuset_t ci = rte_lcore_cpuset(a->workers[i].lcore);

		for (j = i + 1; j < a->n_workers; j++) {
			rte_cpuset_t cj = rte_lcore_cpuset(a->workers[j].lcore);

			for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
				if (!CPU_ISSET(cpu, &ci) || !CPU_ISSET(cpu, &cj))
					continue;
				/* Once: one pair is enough to void the figures. */
				APP_LOG(WARNING, "lcores %u and %u share CPU %u: "
					"busy-polling lcores on one CPU take turns, so "
					"busy%%, cycles/pkt and Mpps of every lcore are "
					"meaningless (give each worker lcore its own CPU, "
					"-l or --lcores)", a->workers[i].lcore,
					a->workers[j].lcore, cpu);
				return;
			}
		}
	}
}

