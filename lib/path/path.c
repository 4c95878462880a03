/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 receive path with Linux's checks, in Linux's order, moving the
 * counters Linux moves: L2, ip_rcv, the route, IP options and the dispatch
 * to the protocol handlers (path_l4.c). References are to Linux 6.18:
 *   net/core/dev.c           __netif_receive_skb_core (VLAN tags)
 *   net/ethernet/eth.c       eth_type_trans
 *   net/ipv4/ip_input.c      ip_rcv_core, ip_rcv_finish_core, ip_rcv_options,
 *                            ip_local_deliver, ip_protocol_deliver_rcu
 *   net/ipv4/ip_options.c    __ip_options_compile
 *   net/ipv4/cipso_ipv4.c    cipso_v4_validate (and its !CONFIG_NETLABEL stub)
 *   net/ipv4/route.c         ip_route_input_rcu, ip_route_input_slow, ip_error
 *   net/ipv4/fib_frontend.c  fib_validate_source (rp_filter=0)
 *   net/ipv4/af_inet.c       inet_init: the protocols with a handler
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "path_csum.h"
#include "path_pvt.h"

#define ETH_P_IP	0x0800
#define ETH_P_8021Q	0x8100
#define ETH_P_8021AD	0x88a8

#define OPT_END	0
#define OPT_NOOP	1
#define OPT_RR	7
#define OPT_TIMESTAMP	68
#define OPT_LSRR	131
#define OPT_SSRR	137
#define OPT_RA	148
#define OPT_CIPSO	134
#define OPT_TS_TSONLY		0
#define OPT_TS_TSANDADDR	1
#define OPT_TS_PRESPEC	3

#define IP_MF		0x2000
#define IP_OFFSET	0x1fff


void
path_conf_init(struct path_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->netlabel = true;
	c->pim = true;
	/* Every interface is in the all-hosts group (ip_mc_init_dev). */
	c->mcast[c->n_mcast++] = UINT32_C(0xe0000001);	/* 224.0.0.1 */
}

int
path_conf_add_local(struct path_conf *c, uint32_t addr, uint8_t prefix_len)
{
	if (prefix_len > 32)
		return -EINVAL;
	if (c->n_local >= PATH_MAX_LOCAL)
		return -ENOSPC;
	c->local[c->n_local].addr = addr;
	c->local[c->n_local].prefix_len = prefix_len;
	c->n_local++;
	return 0;
}

int
path_conf_add_mcast(struct path_conf *c, uint32_t group)
{
	unsigned int i;

	if ((group >> 28) != 0xe)
		return -EINVAL;
	for (i = 0; i < c->n_mcast; i++)
		if (c->mcast[i] == group)
			return 0;
	if (c->n_mcast >= PATH_MAX_MCAST)
		return -ENOSPC;
	c->mcast[c->n_mcast++] = group;
	return 0;
}

void
path_conf_add_udp_ports(struct path_conf *c, uint16_t lo, uint16_t hi)
{
	uint32_t p;

	for (p = lo; p <= hi; p++)
		c->udp_ports[p / 64] |= UINT64_C(1) << (p % 64);
}

void
path_conf_add_udplite_ports(struct path_conf *c, uint16_t lo, uint16_t hi)
{
	uint32_t p;

	for (p = lo; p <= hi; p++)
		c->udplite_ports[p / 64] |= UINT64_C(1) << (p % 64);
}

/* ---- L2 ---- */

void
path_l2(const struct path_conf *c, const struct rte_mbuf *m,
	struct path_l2 *l2, struct mib_block *mib)
{
	uint8_t buf[RTE_ETHER_HDR_LEN + 4];
	const uint8_t *p;
	uint32_t len = rte_pktmbuf_pkt_len(m);
	uint16_t et;

	memset(l2, 0, sizeof(*l2));
	if (len < RTE_ETHER_HDR_LEN) {
		/* eth_type_trans cannot even pull the header. */
		l2->runt = 1;
		l2->pkt_type = PATH_PKT_OTHERHOST;
		mib_inc(mib, MIB_F(RX, RUNTS));
		return;
	}
	p = rte_pktmbuf_read(m, 0, RTE_MIN(len, (uint32_t)sizeof(buf)), buf);

	/* eth_type_trans: packet type by destination MAC. */
	if (p[0] & 1) {
		if ((p[0] & p[1] & p[2] & p[3] & p[4] & p[5]) == 0xff) {
			l2->pkt_type = PATH_PKT_BROADCAST;
			mib_inc(mib, MIB_F(RX, BROADCAST));
		} else {
			l2->pkt_type = PATH_PKT_MULTICAST;
			mib_inc(mib, MIB_F(RX, MULTICAST));
		}
	} else if (memcmp(p, c->mac.addr_bytes, RTE_ETHER_ADDR_LEN) == 0) {
		l2->pkt_type = PATH_PKT_HOST;
	} else {
		l2->pkt_type = PATH_PKT_OTHERHOST;
	}

	et = (uint16_t)(p[12] << 8 | p[13]);
	l2->l3_off = RTE_ETHER_HDR_LEN;
	/* skb_vlan_untag, then check_vlan_id in __netif_receive_skb_core: a
	 * VID-0 (priority) tag is stripped and the next header looked at; the
	 * first tag with a VID goes to the VLAN device pktpath assumes, a
	 * second one finds none and the frame is PACKET_OTHERHOST. */
	while (et == ETH_P_8021Q || et == ETH_P_8021AD) {
		uint8_t tag[4];
		const uint8_t *t;
		uint16_t tci;

		if (len < l2->l3_off + 4u + 2u) {	/* pskb_may_pull */
			l2->runt = 1;
			mib_inc(mib, MIB_F(RX, RUNTS));
			if (l2->tags > 0)
				mib_inc(mib, MIB_F(RX, VLAN));
			return;
		}
		t = rte_pktmbuf_read(m, l2->l3_off, 4, tag);
		tci = (uint16_t)(t[0] << 8 | t[1]);
		et = (uint16_t)(t[2] << 8 | t[3]);
		l2->l3_off += 4;
		l2->tags++;
		if ((tci & 0xfff) == 0)
			continue;
		if (l2->vlan) {
			l2->pkt_type = PATH_PKT_OTHERHOST;
			break;
		}
		l2->vlan = 1;
		l2->vlan_tci = tci;
	}
	if (l2->tags > 0)
		mib_inc(mib, MIB_F(RX, VLAN));
	l2->ethertype = et;
}

/* ---- helpers ---- */

static inline bool ipv4_is_multicast(uint32_t a) { return (a & 0xf0000000) == 0xe0000000; }
static inline bool ipv4_is_lbcast(uint32_t a) { return a == 0xffffffff; }
/* Since Linux 5.3 (96125bf9985a, "Allow 0.0.0.0/8 as a valid address
 * range") only 0.0.0.0 itself is a zero address. */
static inline bool ipv4_is_zeronet(uint32_t a) { return a == 0; }
static inline bool ipv4_is_loopback(uint32_t a) { return (a & 0xff000000) == 0x7f000000; }
static inline bool ipv4_is_local_multicast(uint32_t a) { return (a & 0xffffff00) == 0xe0000000; }

static inline uint32_t
__prefix_mask(uint8_t len)
{
	return len == 0 ? 0 : ~UINT32_C(0) << (32 - len);
}

static bool
__is_local(const struct path_conf *c, uint32_t a)
{
	unsigned int i;

	for (i = 0; i < c->n_local; i++)
		if (c->local[i].addr == a)
			return true;
	return false;
}

/* Directed broadcast of a local subnet (Linux adds "broadcast" routes for
 * the all-ones host address of every prefix shorter than /31). */
static bool
__is_subnet_bcast(const struct path_conf *c, uint32_t a)
{
	unsigned int i;

	for (i = 0; i < c->n_local; i++) {
		uint32_t mask = __prefix_mask(c->local[i].prefix_len);

		if (c->local[i].prefix_len < 31 &&
		    a == ((c->local[i].addr & mask) | ~mask))
			return true;
	}
	return false;
}

static bool
__mc_joined(const struct path_conf *c, uint32_t g)
{
	unsigned int i;

	for (i = 0; i < c->n_mcast; i++)
		if (c->mcast[i] == g)
			return true;
	return false;
}

#define PATH_INADDR_LOOPBACK	UINT32_C(0x7f000001)

/* fib_validate_source with rp_filter=0 and accept_local=0: a source that is
 * one of the host's own addresses (inet_lookup_ifaddr_rcu: the local ones and
 * lo's 127.0.0.1) is martian. */
static inline bool
__source_ok(const struct path_conf *c, uint32_t saddr)
{
	return !__is_local(c, saddr) && saddr != PATH_INADDR_LOOPBACK;
}


/*
 * ip_route_input_rcu / ip_route_input_mc / ip_route_input_slow.
 * Returns 0 and the route type, or the Path counter of a failed route.
 */
static unsigned int
__ip_route_input(const struct path_conf *c, uint32_t saddr, uint32_t daddr,
	uint8_t proto, enum rt_type *rt)
{
	if (ipv4_is_multicast(daddr)) {
		if (!__mc_joined(c, daddr))
			return MIB_F(PATH, IPMCASTNOTJOINED);
		/* ip_route_input_mc -> ip_mc_validate_source */
		if (ipv4_is_multicast(saddr) || ipv4_is_lbcast(saddr) ||
		    ipv4_is_loopback(saddr))
			return MIB_F(PATH, IPINVALIDSOURCE);
		if (ipv4_is_zeronet(saddr)) {
			if (!ipv4_is_local_multicast(daddr) &&
			    proto != IPPROTO_IGMP)
				return MIB_F(PATH, IPINVALIDSOURCE);
		} else if (!__source_ok(c, saddr)) {
			return MIB_F(PATH, IPINVALIDSOURCE);
		}
		*rt = RT_MULTICAST;
		return 0;
	}
	/* ip_route_input_slow */
	if (ipv4_is_multicast(saddr) || ipv4_is_lbcast(saddr))
		return MIB_F(PATH, IPINVALIDSOURCE);
	if (ipv4_is_lbcast(daddr) || (saddr == 0 && daddr == 0))
		goto brd_input;
	if (ipv4_is_zeronet(saddr))
		return MIB_F(PATH, IPINVALIDSOURCE);
	if (ipv4_is_zeronet(daddr))
		return MIB_F(PATH, IPINVALIDDEST);
	if (ipv4_is_loopback(daddr))	/* route_localnet=0 */
		return MIB_F(PATH, IPINVALIDDEST);
	if (ipv4_is_loopback(saddr))
		return MIB_F(PATH, IPINVALIDSOURCE);
	if (__is_local(c, daddr)) {
		if (!__source_ok(c, saddr))
			return MIB_F(PATH, IPINVALIDSOURCE);
		*rt = RT_LOCAL;
		return 0;
	}
	if (__is_subnet_bcast(c, daddr))
		goto brd_input;
	/* No route, or a route elsewhere with forwarding off: -EHOSTUNREACH,
	 * the dst's input becomes ip_error. */
	*rt = RT_UNREACHABLE;
	return 0;
brd_input:
	if (saddr != 0 && !__source_ok(c, saddr))
		return MIB_F(PATH, IPINVALIDSOURCE);
	*rt = RT_BROADCAST;
	return 0;
}

/*
 * cipso_v4_validate. With NetLabel, the DOI must be one the host knows: none
 * is configured on a host that does not use CIPSO, so every option is refused
 * (err_offset 2). Without NetLabel, the stub checks the DOI is not 0 and that
 * the tags fill the option.
 */
static int
__cipso_validate(const struct path_conf *c, const uint8_t *opt)
{
	unsigned int optlen = opt[1], i;

	if (optlen < 8)
		return -1;
	if (c->netlabel)
		return -1;	/* cipso_v4_doi_search: no DOI */
	if ((opt[2] | opt[3] | opt[4] | opt[5]) == 0)
		return -1;
	for (i = 6; i < optlen;) {
		unsigned int tag_len;

		if (i + 1 == optlen)
			return -1;
		tag_len = opt[i + 1];
		if (tag_len == 0 || tag_len > optlen - i)
			return -1;
		i += tag_len;
	}
	return 0;
}

/*
 * __ip_options_compile for a received packet (skb != NULL, so unknown options
 * are accepted). Returns 0 if valid, -1 on a malformed option; *srr set if a
 * source route option is present.
 */
static int
__ip_options(const struct path_conf *c, const uint8_t *opt, unsigned int l,
	     bool *srr)
{
	bool rr = false, ts = false, cipso = false;
	unsigned int optlen;

	*srr = false;
	while (l > 0) {
		switch (opt[0]) {
		case OPT_END:
			return 0;
		case OPT_NOOP:
			l--;
			opt++;
			continue;
		}
		if (l < 2)
			return -1;
		optlen = opt[1];
		if (optlen < 2 || optlen > l)
			return -1;
		switch (opt[0]) {
		case OPT_SSRR:
		case OPT_LSRR:
			if (optlen < 3 || opt[2] < 4 || *srr)
				return -1;
			*srr = true;
			break;
		case OPT_RR:
			if (rr || optlen < 3 || opt[2] < 4)
				return -1;
			if (opt[2] <= optlen && opt[2] + 3u > optlen)
				return -1;
			rr = true;
			break;
		case OPT_TIMESTAMP:
			if (ts || optlen < 4 || opt[2] < 5)
				return -1;
			if (opt[2] <= optlen) {
				if (opt[2] + 3u > optlen)
					return -1;
				switch (opt[3] & 0xf) {
				case OPT_TS_TSONLY:
					break;
				case OPT_TS_TSANDADDR:
				case OPT_TS_PRESPEC:
					if (opt[2] + 7u > optlen)
						return -1;
					break;
				default:
					break;
				}
			} else if ((opt[3] & 0xf) != OPT_TS_PRESPEC) {
				if ((opt[3] >> 4) == 15)
					return -1;
			}
			ts = true;
			break;
		case OPT_RA:
			if (optlen < 4)
				return -1;
			break;
		case OPT_CIPSO:
			if (cipso || __cipso_validate(c, opt) != 0)
				return -1;
			cipso = true;
			break;
		default:
			break;
		}
		l -= optlen;
		opt += optlen;
	}
	return 0;
}

/* ip_rcv_core -> ip_rcv_finish_core -> dst_input. */
static unsigned int
__ip_rcv(const struct path_conf *c, const struct rte_mbuf *m,
	 const struct path_l2 *l2, struct mib_block *mib)
{
	uint8_t hbuf[60];
	const uint8_t *iph;
	uint32_t off = l2->l3_off;
	uint32_t len = rte_pktmbuf_pkt_len(m) - off;	/* skb->len */
	uint32_t ihl, hl, tot, saddr, daddr;
	uint16_t frag;
	uint8_t proto;
	enum rt_type rt = RT_UNREACHABLE;
	struct path_l4_ctx x;
	unsigned int f;

	mib_inc(mib, MIB_F(IP, INRECEIVES));
	mib_add(mib, MIB_F(IPEXT, INOCTETS), len);

	if (len < 20)
		goto inhdr_error;
	iph = rte_pktmbuf_read(m, off, 20, hbuf);
	ihl = iph[0] & 0xf;
	if (ihl < 5 || (iph[0] >> 4) != 4)
		goto inhdr_error;
	/* IPSTATS_MIB_NOECTPKTS + (tos & INET_ECN_MASK) */
	mib_inc(mib, MIB_F(IPEXT, INNOECTPKTS) + (iph[1] & 3));
	hl = ihl * 4;
	if (len < hl)
		goto inhdr_error;
	if (hl > 20)
		iph = rte_pktmbuf_read(m, off, hl, hbuf);
	if (!path_csum_ip_trusted(c, m) &&
	    rte_raw_cksum(iph, hl) != 0xffff)	/* ip_fast_csum */
		goto csum_error;
	tot = (uint32_t)iph[2] << 8 | iph[3];
	if (len < tot)
		return __path_drop(mib, MIB_F(IPEXT, INTRUNCATEDPKTS));
	if (tot < hl)
		goto inhdr_error;
	len = tot;			/* pskb_trim_rcsum: drop the padding */

	saddr = (uint32_t)iph[12] << 24 | (uint32_t)iph[13] << 16 |
		(uint32_t)iph[14] << 8 | iph[15];
	daddr = (uint32_t)iph[16] << 24 | (uint32_t)iph[17] << 16 |
		(uint32_t)iph[18] << 8 | iph[19];
	proto = iph[9];
	frag = (uint16_t)(iph[6] << 8 | iph[7]);

	/* ip_rcv_finish_core: route, then options, then mcast/bcast stats. */
	f = __ip_route_input(c, saddr, daddr, proto, &rt);
	if (f != 0)
		return __path_drop(mib, f);
	if (ihl > 5) {
		bool srr;

		if (__ip_options(c, iph + 20, hl - 20, &srr) != 0)
			goto inhdr_error;
		if (srr)	/* accept_source_route=0 */
			return __path_drop(mib, MIB_F(PATH, IPSRCROUTE));
	}
	if (rt == RT_MULTICAST) {
		mib_inc(mib, MIB_F(IPEXT, INMCASTPKTS));
		mib_add(mib, MIB_F(IPEXT, INMCASTOCTETS), len);
	} else if (rt == RT_BROADCAST) {
		mib_inc(mib, MIB_F(IPEXT, INBCASTPKTS));
		mib_add(mib, MIB_F(IPEXT, INBCASTOCTETS), len);
	}
	if (rt == RT_UNREACHABLE)	/* ip_error, forwarding off */
		return __path_drop(mib, MIB_F(IP, INADDRERRORS));

	/* ip_local_deliver */
	if (frag & (IP_MF | IP_OFFSET))	/* ip_defrag queues it */
		return __path_drop(mib, MIB_F(IP, REASMREQDS));

	/* ip_protocol_deliver_rcu: the protocols inet_init (and ip_mr_init)
	 * registers a handler for; no raw socket exists. */
	x.off = off + hl;
	x.len = len - hl;
	x.saddr = saddr;
	x.daddr = daddr;
	x.rt = rt;
	x.pkt_type = l2->pkt_type;
	switch (proto) {
	case IPPROTO_UDP:
	case PATH_IPPROTO_UDPLITE:
		f = __path_udp_rcv(c, m, &x, proto, mib);
		break;
	case IPPROTO_TCP:
		f = __path_tcp_rcv(c, m, &x, mib);
		break;
	case IPPROTO_ICMP:
		f = __path_icmp_rcv(c, m, &x, mib);
		break;
	case IPPROTO_IGMP:
		f = __path_drop(mib, MIB_F(PATH, IGMPDELIVERED));
		break;
	case PATH_IPPROTO_PIM:
		/* pim_rcv consumes every packet it is given (registers it
		 * cannot use are freed): no MIB, InDelivers. */
		if (c->pim) {
			f = __path_drop(mib, MIB_F(PATH, PIMDELIVERED));
			break;
		}
		/* fall through */
	default:
		return __path_drop(mib, MIB_F(IP, INUNKNOWNPROTOS));
	}
	mib_inc(mib, MIB_F(IP, INDELIVERS));
	return f;

csum_error:
	mib_inc(mib, MIB_F(IPEXT, INCSUMERRORS));
inhdr_error:
	return __path_drop(mib, MIB_F(IP, INHDRERRORS));
}

unsigned int
path_rcv(const struct path_conf *c, const struct rte_mbuf *m,
	 const struct path_l2 *l2, struct mib_block *mib)
{
	if (l2->runt || l2->ethertype != ETH_P_IP)
		return __path_drop(mib, MIB_F(RX, NOTIP));
	/* ip_rcv_core drops PACKET_OTHERHOST before counting InReceives. */
	if (l2->pkt_type == PATH_PKT_OTHERHOST)
		return __path_drop(mib, MIB_F(RX, OTHERHOST));
	return __ip_rcv(c, m, l2, mib);
}

void
path_peer(const struct peer_table *t, const struct rte_mbuf *m,
	  const struct path_l2 *l2, uint64_t now, struct mib_block *mib)
{
	uint8_t buf[4];
	const uint8_t *p = rte_pktmbuf_read(m, l2->l3_off + 12u, 4, buf);

	if (p == NULL)
		return;
	peer_lookup_get_put(t, (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			    (uint32_t)p[2] << 8 | p[3], now, mib);
}
