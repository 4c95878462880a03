/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ethdev ports for --source port: check the lcore/queue map against what
 * the device has, configure (RX queues as mapped, as many TX queues as the
 * PMD needs, RSS only where the device spreads traffic, checksum offload,
 * MTU, scattered RX when a frame can exceed an mbuf), start; at the end put
 * the host back as it was (promiscuous mode, MTU), stop and close.
 *
 * Every refusal is one line naming the port, its driver and the reason.
 */
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "app.h"
#include "port.h"

#define MBUF_CACHE 256

/* PMDs whose RX queues exist and receive whether or not they are
 * configured: net_af_packet opens one packet socket per queue pair at
 * probe, in one PACKET_FANOUT group, so the kernel spreads frames over all
 * of them. Configuring fewer leaves the others' rings to fill and drop. */
static bool
__queues_fixed(const char *driver)
{
	return strcmp(driver, "net_af_packet") == 0;
}

static const struct {
	uint64_t bit;
	const char *name;
} rss_names[] = {
	{ RTE_ETH_RSS_IPV4, "ipv4" }, { RTE_ETH_RSS_FRAG_IPV4, "ipv4-frag" },
	{ RTE_ETH_RSS_NONFRAG_IPV4_TCP, "ipv4-tcp" },
	{ RTE_ETH_RSS_NONFRAG_IPV4_UDP, "ipv4-udp" },
	{ RTE_ETH_RSS_NONFRAG_IPV4_SCTP, "ipv4-sctp" },
	{ RTE_ETH_RSS_NONFRAG_IPV4_OTHER, "ipv4-other" },
	{ RTE_ETH_RSS_IPV6, "ipv6" }, { RTE_ETH_RSS_FRAG_IPV6, "ipv6-frag" },
	{ RTE_ETH_RSS_NONFRAG_IPV6_TCP, "ipv6-tcp" },
	{ RTE_ETH_RSS_NONFRAG_IPV6_UDP, "ipv6-udp" },
	{ RTE_ETH_RSS_NONFRAG_IPV6_OTHER, "ipv6-other" },
	{ RTE_ETH_RSS_L2_PAYLOAD, "l2-payload" },
};

static void
__rss_names(uint64_t rss_hf, char *hf, size_t len)
{
	unsigned int i;

	hf[0] = '\0';
	for (i = 0; i < RTE_DIM(rss_names); i++)
		if (rss_hf & rss_names[i].bit)
			snprintf(hf + strlen(hf), len - strlen(hf), "%s%s",
				 hf[0] ? "," : "", rss_names[i].name);
}

static void
__rss_log(const struct app_port *p, const char *driver, uint64_t asked,
	  uint8_t key_size)
{
	struct rte_eth_rss_conf rc;
	uint8_t key[128];
	char hf[256], hex[2 * sizeof(key) + 1] = "";
	unsigned int i;
	int ret;

	memset(&rc, 0, sizeof(rc));
	rc.rss_key = key_size > 0 && key_size <= sizeof(key) ? key : NULL;
	rc.rss_key_len = rc.rss_key ? key_size : 0;
	ret = rte_eth_dev_rss_hash_conf_get(p->id, &rc);
	if (ret != 0) {
		__rss_names(asked, hf, sizeof(hf));
		APP_LOG(INFO, "port %u (%s): RSS over %u queues, hash fields %s asked "
			"(rss_hf 0x%" PRIx64 "); the driver does not report what it "
			"uses: %s", p->id, driver, p->nb_rxq, hf, asked,
			rte_strerror(-ret));
		return;
	}
	__rss_names(rc.rss_hf, hf, sizeof(hf));
	for (i = 0; rc.rss_key != NULL && i < rc.rss_key_len && i < sizeof(key); i++)
		snprintf(hex + 2 * i, 3, "%02x", key[i]);
	APP_LOG(INFO, "port %u (%s): RSS over %u queues, hash fields %s "
		"(rss_hf 0x%" PRIx64 "), key %s", p->id, driver, p->nb_rxq,
		hf[0] ? hf : "none", rc.rss_hf, hex[0] ? hex : "(none)");
}

/* Names of the offload bits in capa missing from want, for a message. */
static void
__missing_offloads(uint64_t want, uint64_t capa, char *buf, size_t len)
{
	uint64_t m = want & ~capa;

	buf[0] = '\0';
	while (m) {
		uint64_t bit = m & -m;

		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 buf[0] ? ", " : "", rte_eth_dev_rx_offload_name(bit));
		m &= ~bit;
	}
}

bool
app_port_csum_hw(const struct app_port *p, enum app_rx_csum m)
{
	return m != APP_CSUM_SW && p->csum_capa;
}

/*
 * The checksum conf of the port's path: --rx-csum, --rx-csum-partial. With
 * --compare rx-csum=..., every variant's value is checked here, the offload
 * is enabled once if a variant may trust it, and the phases switch only
 * whether the path trusts the flags (compare_switch.c): a port is not
 * reconfigured between phases, since rte_eth_dev_stop() drops the frames
 * of its RX rings uncounted (no conservation law would hold) and some
 * drivers reset their counters or their kernel interface on a restart.
 * The driver's own cost of filling the flags is then in every variant.
 */
static int
__csum_setup(struct app *a, struct app_port *p,
	     const struct rte_eth_dev_info *info, uint64_t *offloads)
{
	const uint64_t want = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_RX_OFFLOAD_UDP_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM;
	const struct app_compare *c = &a->opt.cmp;
	int k = app_compare_knob(c, APP_KNOB_RX_CSUM);
	enum app_rx_csum m = a->opt.rx_csum;
	bool trust = false;
	char miss[128];
	unsigned int i;

	p->csum_capa = (info->rx_offload_capa & want) == want;
	for (i = 0; i < (k < 0 ? 1 : c->k[k].n); i++) {
		if (k >= 0)
			m = (enum app_rx_csum)c->k[k].val[i];
		if (m == APP_CSUM_HW && !p->csum_capa) {
			__missing_offloads(want, info->rx_offload_capa, miss,
					   sizeof(miss));
			fprintf(stderr,
				"pktpath: %s: port %u (%s) does not offload "
				"RX checksums (it lacks %s); %s sw or auto\n",
				k < 0 ? "--rx-csum hw" : "--compare rx-csum=...,hw",
				p->id, info->driver_name, miss,
				k < 0 ? "use --rx-csum" : "compare");
			return -1;
		}
		trust |= app_port_csum_hw(p, m);
	}
	/* the first variant's until the first phase sets its own */
	p->pc.csum_hw = app_port_csum_hw(p, k < 0 ? a->opt.rx_csum
						  : (enum app_rx_csum)c->k[k].val[0]);
	if (trust)
		*offloads |= want;
	p->pc.csum_partial = a->opt.csum_partial == APP_PARTIAL_ON ||
		(a->opt.csum_partial == APP_PARTIAL_AUTO &&
		 strcmp(info->driver_name, "net_af_packet") == 0);
	return 0;
}

int
app_gen_csum_setup(struct app *a)
{
	/* The generator is a port that offloads: it built its frames and
	 * marks them IP and L4 checksum GOOD, as a NIC that verified them
	 * would (pkt_gen_burst). Not for frames read from a pcap. */
	if (a->opt.rx_csum == APP_CSUM_HW && a->opt.template_file[0] != '\0') {
		fprintf(stderr, "pktpath: --rx-csum hw: the generator cannot vouch for "
			"the checksums of --template frames; use --rx-csum sw or auto\n");
		return -1;
	}
	a->gen_pc.csum_hw = a->opt.rx_csum == APP_CSUM_HW;
	a->gen_pc.csum_partial = a->opt.csum_partial == APP_PARTIAL_ON;
	return 0;
}

/* Descriptors: --rxd within the driver's limits, or refused; the default
 * is adjusted to them. */
static int
__rxd(struct app *a, struct app_port *p, const struct rte_eth_dev_info *info,
      uint16_t *rxd, uint16_t *txd)
{
	const struct rte_eth_desc_lim *l = &info->rx_desc_lim;
	uint16_t want = *rxd;
	int rc;

	if (want != APP_RXD_DEFAULT &&
	    (want < l->nb_min || want > l->nb_max ||
	     (l->nb_align > 1 && want % l->nb_align != 0))) {
		fprintf(stderr, "pktpath: --rxd %u: port %u (%s) takes %u..%u RX "
			"descriptors, a multiple of %u\n", want, p->id,
			info->driver_name, l->nb_min, l->nb_max,
			l->nb_align ? l->nb_align : 1);
		return -1;
	}
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(p->id, rxd, txd);
	if (rc != 0) {
		fprintf(stderr, "pktpath: port %u: rte_eth_dev_adjust_nb_rx_tx_desc: %s\n",
			p->id, rte_strerror(-rc));
		return -1;
	}
	if (*rxd != want)
		APP_LOG(INFO, "port %u (%s): %u RX descriptors (the driver's limits "
			"%u..%u, align %u)", p->id, info->driver_name, *rxd,
			l->nb_min, l->nb_max, l->nb_align);
	return 0;
}

/*
 * --vlan on a port whose driver cannot tell 802.1ad from 802.1Q: on a kernel
 * interface, __netif_receive_skb_core moves the outer tag into the skb's
 * metadata (skb_vlan_untag) before AF_PACKET sees the frame, and DPDK
 * 22.11's net_af_packet writes it back with rte_vlan_insert(), always as
 * 802.1Q (0x8100). An 802.1ad device on the port would take nothing.
 */
static int
__vlan_check(const struct app_port *p, const struct rte_eth_dev_info *info)
{
	unsigned int i;

	if (strcmp(info->driver_name, "net_af_packet") != 0)
		return 0;
	for (i = 0; i < RTE_DIM(p->pc.vlan.port[1]); i++)
		if (p->pc.vlan.port[1][i] != 0) {
			fprintf(stderr, "pktpath: --vlan: port %u (net_af_packet) "
				"cannot have 802.1ad devices (adVID): the kernel hands "
				"it the outer tag apart from the frame and DPDK writes it "
				"back as 802.1Q, so declare VID instead\n", p->id);
			return -1;
		}
	return 0;
}

/* Frame size, mbuf size and scattered RX; *room is the pool's data room. */
static int
__frames(struct app *a, struct app_port *p, const struct rte_eth_dev_info *info,
	 uint64_t *offloads, uint16_t *room)
{
	const bool afp = strcmp(info->driver_name, "net_af_packet") == 0;
	unsigned int overhead, mtu = a->opt.mtu, frame, need, kmtu = 0;
	unsigned int data;

	if (info->max_mtu != UINT16_MAX && info->max_rx_pktlen > info->max_mtu)
		overhead = info->max_rx_pktlen - info->max_mtu;
	else
		overhead = RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;
	if (mtu != 0 && (mtu < info->min_mtu || mtu > info->max_mtu ||
			 mtu + overhead > info->max_rx_pktlen)) {
		fprintf(stderr, "pktpath: --mtu %u: port %u (%s) takes MTU %u..%u "
			"(frames of at most %u bytes)\n", mtu, p->id,
			info->driver_name, info->min_mtu,
			RTE_MIN((unsigned int)info->max_mtu,
				info->max_rx_pktlen > overhead ?
				info->max_rx_pktlen - overhead : 0),
			info->max_rx_pktlen);
		return -1;
	}
	if (p->ifname[0] != '\0')
		app_host_if_mtu(p->ifname, &kmtu);
	if (mtu == 0) {
		uint16_t cur = RTE_ETHER_MTU;

		rte_eth_dev_get_mtu(p->id, &cur);
		/* A kernel interface's MTU can be raised under us. */
		mtu = RTE_MAX((unsigned int)cur, kmtu);
	}
	frame = mtu + overhead;

	if (afp) {
		/* No scatter: one slot of framesz is copied into one mbuf. */
		unsigned int fsz = app_host_afp_framesz(p->id);
		unsigned int max = app_host_afp_max_frame(fsz);

		need = app_host_afp_room(fsz) + RTE_PKTMBUF_HEADROOM;
		if (a->opt.mbuf_size != 0 && a->opt.mbuf_size < need) {
			fprintf(stderr, "pktpath: --mbuf-size %u: port %u (%s) framesz=%u "
				"needs mbufs of at least %u bytes (%u of frame room + "
				"%u headroom)\n", a->opt.mbuf_size, p->id,
				info->driver_name, fsz, need, need - RTE_PKTMBUF_HEADROOM,
				RTE_PKTMBUF_HEADROOM);
			return -1;
		}
		*room = (uint16_t)RTE_MAX(need, a->opt.mbuf_size ?
			(unsigned int)a->opt.mbuf_size : RTE_MBUF_DEFAULT_BUF_SIZE);
		if (mtu + RTE_ETHER_HDR_LEN > max)
			APP_LOG(WARNING, "port %u (%s): %s MTU %u is more than framesz=%u "
				"holds (frames of %u bytes): the kernel cuts longer "
				"frames, which then count IpExt InTruncatedPkts; give the "
				"vdev framesz=%u,blocksz=%u or more", p->id,
				info->driver_name, p->ifname, mtu, fsz, max,
				rte_align32pow2(mtu + RTE_ETHER_HDR_LEN + (fsz - max)),
				RTE_MAX(rte_align32pow2(mtu + RTE_ETHER_HDR_LEN +
							(fsz - max)), 4096u));
		return 0;
	}
	*room = a->opt.mbuf_size ? a->opt.mbuf_size : RTE_MBUF_DEFAULT_BUF_SIZE;
	if (*room < RTE_PKTMBUF_HEADROOM + 64 ||
	    (info->min_rx_bufsize && (uint32_t)(*room - RTE_PKTMBUF_HEADROOM) < info->min_rx_bufsize)) {
		fprintf(stderr, "pktpath: --mbuf-size %u: port %u (%s) needs at least %u "
			"bytes of room after the %u-byte headroom\n", *room, p->id,
			info->driver_name, RTE_MAX(info->min_rx_bufsize, 64u),
			RTE_PKTMBUF_HEADROOM);
		return -1;
	}
	data = *room - RTE_PKTMBUF_HEADROOM;
	/* Scatter when a frame can exceed one mbuf, or always on a kernel
	 * interface that can (its MTU may be raised while we run). */
	if ((info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER) &&
	    (frame > data || p->ifname[0] != '\0')) {
		*offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
		APP_LOG(INFO, "port %u (%s): scattered RX: frames up to %u bytes, "
			"%u-byte mbufs", p->id, info->driver_name, frame, data);
	} else if (frame > data) {
		fprintf(stderr, "pktpath: port %u (%s): a %u-byte frame (MTU %u) does not "
			"fit a %u-byte mbuf and the driver cannot scatter: give "
			"--mbuf-size %u or more\n", p->id, info->driver_name, frame,
			mtu, data, frame + RTE_PKTMBUF_HEADROOM);
		return -1;
	}
	return 0;
}

static int
__port_setup(struct app *a, struct app_port *p)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	struct rte_ether_addr mac;
	uint16_t rxd = a->opt.rxd, txd = 512, q, room = 0;
	uint64_t offloads = 0;
	char name[RTE_MEMPOOL_NAMESIZE], what[96];
	unsigned int nb_mbufs, kflags = 0;
	bool kprom, was;
	int socket = rte_eth_dev_socket_id(p->id);
	int rc;

	if (socket < 0)
		socket = (int)rte_socket_id();
	rc = rte_eth_dev_info_get(p->id, &info);
	if (rc != 0) {
		fprintf(stderr, "pktpath: port %u: rte_eth_dev_info_get: %s\n",
			p->id, rte_strerror(-rc));
		return -1;
	}
	if (info.if_index != 0 && if_indextoname(info.if_index, name) != NULL)
		snprintf(p->ifname, sizeof(p->ifname), "%s", name);
	if (p->nb_rxq > info.max_rx_queues) {
		fprintf(stderr, "pktpath: --rxq: port %u (%s) has %u RX queue%s, %u mapped\n",
			p->id, info.driver_name, info.max_rx_queues,
			info.max_rx_queues == 1 ? "" : "s", p->nb_rxq);
		return -1;
	}
	if (__queues_fixed(info.driver_name) && p->nb_rxq < info.max_rx_queues) {
		if (!a->opt.unpolled_warn) {
			fprintf(stderr, "pktpath: port %u (%s): the device has %u RX queues "
				"(qpairs), %u polled: the kernel spreads frames over all "
				"of them and an unpolled one drops its share; map every "
				"queue with --rxq, or --unpolled-queues warn\n", p->id,
				info.driver_name, info.max_rx_queues, p->nb_rxq);
			return -1;
		}
		APP_LOG(WARNING, "port %u (%s): %u of its %u RX queues polled: frames "
			"the kernel puts in the others are lost (--unpolled-queues warn)",
			p->id, info.driver_name, p->nb_rxq, info.max_rx_queues);
	}
	/* pktpath transmits nothing, but some PMDs (net_tap) need as many TX
	 * queues as RX queues. */
	p->nb_txq = (uint16_t)RTE_MAX(1u, RTE_MIN((unsigned int)p->nb_rxq,
						  (unsigned int)info.max_tx_queues));

	memset(&conf, 0, sizeof(conf));
	if (__csum_setup(a, p, &info, &offloads) != 0 ||
	    __vlan_check(p, &info) != 0 ||
	    __frames(a, p, &info, &offloads, &room) != 0)
		return -1;
	conf.rxmode.offloads = offloads;
	if (a->opt.mtu != 0)
		conf.rxmode.mtu = a->opt.mtu;
	if (p->nb_rxq > 1) {
		conf.rx_adv_conf.rss_conf.rss_hf =
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP) &
			info.flow_type_rss_offloads;
		/* RSS only where the device hashes: otherwise how traffic
		 * reaches each queue is the driver's business. */
		conf.rxmode.mq_mode = conf.rx_adv_conf.rss_conf.rss_hf ?
			RTE_ETH_MQ_RX_RSS : RTE_ETH_MQ_RX_NONE;
	}
	rc = rte_eth_dev_configure(p->id, p->nb_rxq, p->nb_txq, &conf);
	if (rc != 0) {
		fprintf(stderr, "pktpath: port %u (%s): rte_eth_dev_configure(%u RX, %u TX "
			"queues, offloads 0x%" PRIx64 "): %s\n", p->id, info.driver_name,
			p->nb_rxq, p->nb_txq, offloads, rte_strerror(-rc));
		return -1;
	}
	p->configured = true;
	if (a->opt.mtu != 0) {
		/* The PMD may apply it to a kernel interface: keep the old one. */
		if (p->ifname[0] != '\0' && app_host_if_mtu(p->ifname, &p->mtu_restore) != 0)
			p->mtu_restore = 0;
		rc = rte_eth_dev_set_mtu(p->id, a->opt.mtu);
		if (rc != 0) {
			fprintf(stderr, "pktpath: --mtu %u: port %u (%s): "
				"rte_eth_dev_set_mtu: %s\n", a->opt.mtu, p->id,
				info.driver_name, rte_strerror(-rc));
			return -1;
		}
	}
	if (__rxd(a, p, &info, &rxd, &txd) != 0)
		return -1;
	p->nb_rxd = rxd;
	nb_mbufs = RTE_MAX(
		p->nb_rxq * (rxd +
			     app_compare_max(&a->opt.cmp, APP_KNOB_BURST, a->opt.burst) +
			     MBUF_CACHE) +
			1024u,
		a->opt.mbufs);
	/* sized before it is made (setup_mem.c): refused with what it needs */
	snprintf(what, sizeof(what), "the mbuf pool of port %u (%u mbufs of %u bytes)",
		 p->id, nb_mbufs, (unsigned int)room);
	if (app_mem_fits(APP_MEM_EAL, what, pkt_pool_bytes(nb_mbufs, room,
			 app_pool_flags(&a->opt), app_mem_eal_page()),
			 "fewer mbufs (--mbufs) or descriptors (--rxd)") != 0)
		return -1;
	snprintf(name, sizeof(name), "port%u_pool", p->id);
	p->mp = pkt_pool_create(name, nb_mbufs, MBUF_CACHE, room, socket,
				app_pool_flags(&a->opt));
	if (p->mp == NULL) {
		fprintf(stderr, "pktpath: port %u: mbuf pool (%u mbufs of %u bytes): %s\n",
			p->id, nb_mbufs, room, rte_strerror(rte_errno));
		return -1;
	}
	for (q = 0; q < p->nb_rxq; q++) {
		struct rte_eth_rxconf rxc = info.default_rxconf;

		rxc.offloads = offloads;
		rc = rte_eth_rx_queue_setup(p->id, q, rxd, (unsigned int)socket,
					    &rxc, p->mp);
		if (rc != 0) {
			fprintf(stderr, "pktpath: port %u (%s): rte_eth_rx_queue_setup(%u, "
				"%u descriptors, %u-byte mbufs): %s (the driver takes "
				"%u..%u descriptors, mbufs of at least %u bytes after "
				"the headroom; see its log line above)\n", p->id,
				info.driver_name, q, rxd, room - RTE_PKTMBUF_HEADROOM,
				rte_strerror(-rc), info.rx_desc_lim.nb_min,
				info.rx_desc_lim.nb_max, info.min_rx_bufsize);
			return -1;
		}
	}
	for (q = 0; q < p->nb_txq; q++) {
		rc = rte_eth_tx_queue_setup(p->id, q, txd, (unsigned int)socket, NULL);
		if (rc != 0) {
			fprintf(stderr, "pktpath: port %u (%s): rte_eth_tx_queue_setup(%u): %s\n",
				p->id, info.driver_name, q, rte_strerror(-rc));
			return -1;
		}
	}
	/* rte_eth_dev_start() applies ethdev's promiscuous state (off) to the
	 * device: on a kernel interface (net_af_packet) that clears a
	 * promiscuous mode someone else set. Read it first. */
	kprom = p->ifname[0] != '\0' && app_host_if_flags(p->ifname, &kflags) == 0 &&
		(kflags & IFF_PROMISC);
	was = rte_eth_promiscuous_get(p->id) == 1 || kprom;
	rc = rte_eth_dev_start(p->id);
	if (rc != 0) {
		fprintf(stderr, "pktpath: port %u (%s): rte_eth_dev_start: %s\n",
			p->id, info.driver_name, rte_strerror(-rc));
		return -1;
	}
	p->started = true;
	if (a->opt.promisc || kprom) {
		/* Leave it as found: off again at exit unless it was on. */
		rc = rte_eth_promiscuous_enable(p->id);
		if (rc != 0)
			APP_LOG(WARNING, "port %u: promiscuous mode: %s", p->id,
				rte_strerror(-rc));
		else
			p->promisc_off = !was;
		if (kprom && !a->opt.promisc)
			APP_LOG(NOTICE, "port %u: %s was promiscuous and stays so: "
				"frames to other MACs count Rx RxOtherHost", p->id,
				p->ifname);
	}
	if (rte_eth_macaddr_get(p->id, &mac) == 0)
		p->pc.mac = mac;
	APP_LOG(INFO, "port %u (%s%s%s): %u RX queue%s, %u TX queue%s, %u descriptors, "
		"%u-byte mbufs, checksums %s%s, MAC " RTE_ETHER_ADDR_PRT_FMT, p->id,
		info.driver_name, p->ifname[0] ? ", " : "", p->ifname, p->nb_rxq,
		p->nb_rxq == 1 ? "" : "s", p->nb_txq, p->nb_txq == 1 ? "" : "s",
		rxd, room - RTE_PKTMBUF_HEADROOM,
		p->pc.csum_hw ? "hw (offload on)" : "sw",
		p->pc.csum_partial ? ", partial ones recognised" : "",
		RTE_ETHER_ADDR_BYTES(&mac));
	if (p->nb_rxq > 1 && conf.rxmode.mq_mode == RTE_ETH_MQ_RX_RSS)
		__rss_log(p, info.driver_name, conf.rx_adv_conf.rss_conf.rss_hf,
			  info.hash_key_size);
	else if (p->nb_rxq > 1)
		APP_LOG(INFO, "port %u (%s): no RSS (the driver reports no hash "
			"function): the driver decides which queue gets a frame%s",
			p->id, info.driver_name, __queues_fixed(info.driver_name) ?
			" (net_af_packet: the kernel's PACKET_FANOUT_HASH by flow)" : "");
	return 0;
}

/* --rxq: one lcore per queue, every configured queue polled. */
static int
__check_map(const struct app *a, const struct app_port *p)
{
	unsigned int j, k, l;

	for (k = 0; k < a->n_workers; k++) {
		const struct app_worker *w = &a->workers[k];

		if (w->port != p->id)
			continue;
		for (l = k + 1; l < a->n_workers; l++)
			if (a->workers[l].port == p->id &&
			    a->workers[l].queue == w->queue) {
				fprintf(stderr, "pktpath: --rxq: port %u queue %u is "
					"polled by lcores %u and %u (one lcore per "
					"queue: rte_eth_rx_burst is not thread-safe "
					"on a queue)\n", p->id, w->queue, w->lcore,
					a->workers[l].lcore);
				return -1;
			}
	}
	/* Every queue 0..max must be polled by someone, or RSS would drop
	 * traffic into an unpolled queue. */
	for (j = 0; j < p->nb_rxq; j++) {
		bool found = false;

		for (k = 0; k < a->n_workers && !found; k++)
			found = a->workers[k].port == p->id &&
				a->workers[k].queue == j;
		if (!found) {
			fprintf(stderr, "pktpath: --rxq: port %u queue %u is "
				"not polled by any lcore\n", p->id, j);
			return -1;
		}
	}
	return 0;
}

int
app_ports_setup(struct app *a)
{
	unsigned int i;

	for (i = 0; i < a->n_ports; i++) {
		struct app_port *p = &a->ports[i];

		if (__check_map(a, p) != 0 || __port_setup(a, p) != 0)
			return -1;
	}
	return 0;
}

int
app_ports_stats_conf(struct app *a, struct stats_conf *sc)
{
	unsigned int i, w;

	if (a->opt.source != APP_SRC_PORT || a->n_ports == 0)
		return 0;
	a->stats_ports = calloc(a->n_ports, sizeof(*a->stats_ports));
	a->worker_port = calloc(a->n_workers, sizeof(*a->worker_port));
	if (a->stats_ports == NULL || a->worker_port == NULL)
		return -1;
	for (i = 0; i < a->n_ports; i++) {
		a->stats_ports[i].port_id = a->ports[i].id;
		a->stats_ports[i].nb_rxq = a->ports[i].nb_rxq;
		a->stats_ports[i].nb_rxd = a->ports[i].nb_rxd;
	}
	for (w = 0; w < a->n_workers; w++) {
		a->worker_port[w] = -1;
		for (i = 0; i < a->n_ports; i++)
			if (a->ports[i].id == a->workers[w].port)
				a->worker_port[w] = (int)i;
	}
	sc->n_ports = a->n_ports;
	sc->ports = a->stats_ports;
	sc->worker_port = a->worker_port;
	return 0;
}

void
app_ports_close(struct app *a)
{
	unsigned int i;
	int rc;

	for (i = 0; i < a->n_ports; i++) {
		struct app_port *p = &a->ports[i];

		if (p->promisc_off) {
			rc = rte_eth_promiscuous_disable(p->id);
			if (rc != 0)
				APP_LOG(WARNING, "port %u: could not turn promiscuous mode "
					"off again: %s", p->id, rte_strerror(-rc));
			p->promisc_off = false;
		}
		if (p->started) {
			rte_eth_dev_stop(p->id);
			p->started = false;
		}
		if (p->mtu_restore != 0) {
			unsigned int now = 0;

			if (app_host_if_mtu(p->ifname, &now) == 0 && now != p->mtu_restore &&
			    (rc = app_host_if_set_mtu(p->ifname, p->mtu_restore)) != 0)
				APP_LOG(WARNING, "port %u: could not restore MTU %u of %s: %s",
					p->id, p->mtu_restore, p->ifname, strerror(-rc));
			p->mtu_restore = 0;
		}
		rte_eth_dev_close(p->id);
	}
	free(a->stats_ports);
	free(a->worker_port);
	a->stats_ports = NULL;
	a->worker_port = NULL;
}
