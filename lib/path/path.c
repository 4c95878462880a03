/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 receive path with Linux's checks, in Linux's order, moving the
 * counters Linux moves. References are to Linux 6.1:
 *   net/core/dev.c           __netif_receive_skb_core
 *   net/ethernet/eth.c       eth_type_trans
 *   net/ipv4/ip_input.c      ip_rcv_core, ip_rcv_finish_core, ip_local_deliver
 *   net/ipv4/ip_options.c    __ip_options_compile
 *   net/ipv4/route.c         ip_route_input_rcu, ip_route_input_slow, ip_error
 *   net/ipv4/udp.c           __udp4_lib_rcv, __udp4_lib_mcast_deliver
 *   net/ipv4/tcp_ipv4.c      tcp_v4_rcv
 *   net/ipv4/icmp.c          icmp_rcv
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "path.h"
#include "path_csum.h"

#define ETH_P_IP	0x0800
#define ETH_P_8021Q	0x8100

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

#define NR_ICMP_TYPES	18

/* Route types, as rtable->rt_type. */
enum rt_type { RT_LOCAL, RT_BROADCAST, RT_MULTICAST, RT_UNREACHABLE };

void
path_conf_init(struct path_conf *c)
{
	memset(c, 0, sizeof(*c));
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

static inline bool
__udp_listening(const struct path_conf *c, uint16_t port)
{
	return (c->udp_ports[port / 64] >> (port % 64)) & 1;
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
	if (et == ETH_P_8021Q) {
		if (len < RTE_ETHER_HDR_LEN + 4 + 2) {	/* skb_vlan_untag */
			l2->runt = 1;
			mib_inc(mib, MIB_F(RX, RUNTS));
			return;
		}
		l2->vlan = 1;
		l2->vlan_tci = (uint16_t)(p[14] << 8 | p[15]);
		et = (uint16_t)(p[16] << 8 | p[17]);
		l2->l3_off += 4;
		mib_inc(mib, MIB_F(RX, VLAN));
	}
	l2->ethertype = et;
}

/* ---- helpers ---- */

static inline bool ipv4_is_multicast(uint32_t a) { return (a & 0xf0000000) == 0xe0000000; }
static inline bool ipv4_is_lbcast(uint32_t a) { return a == 0xffffffff; }
static inline bool ipv4_is_zeronet(uint32_t a) { return (a & 0xff000000) == 0; }
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

/* fib_validate_source with rp_filter=0 and accept_local=0: a source that is
 * one of our own addresses is martian. */
static inline bool
__source_ok(const struct path_conf *c, uint32_t saddr)
{
	return !__is_local(c, saddr);
}

static inline unsigned int
__drop(struct mib_block *mib, unsigned int f)
{
	mib_inc(mib, f);
	return f;
}

/*
 * ip_route_input_rcu / ip_route_input_mc / ip_route_input_slow.
 * Returns 0 and the route type, or the Path counter of a failed route.
 */
static unsigned int
__route(const struct path_conf *c, uint32_t saddr, uint32_t daddr,
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
 * __ip_options_compile for a received packet (skb != NULL, so unknown options
 * are accepted). Returns 0 if valid, -1 on a malformed option; *srr set if a
 * source route option is present.
 */
static int
__ip_options(const uint8_t *opt, unsigned int l, bool *srr)
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
		case OPT_CIPSO:	/* cipso_v4_validate */
			if (cipso || optlen < 8)
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

/* Internet checksum of the pseudo header plus len bytes of m at off; the
 * folded sum is 0xffff when the packet's checksum is right. */
static uint16_t
__l4_sum(const struct rte_mbuf *m, uint32_t off, uint32_t len,
	 uint32_t saddr, uint32_t daddr, uint8_t proto)
{
	/* The pseudo header in wire order, summed the way rte_raw_cksum sums
	 * the segment, so that both halves are in the same byte order. */
	uint8_t ph[12] = {
		(uint8_t)(saddr >> 24), (uint8_t)(saddr >> 16),
		(uint8_t)(saddr >> 8), (uint8_t)saddr,
		(uint8_t)(daddr >> 24), (uint8_t)(daddr >> 16),
		(uint8_t)(daddr >> 8), (uint8_t)daddr,
		0, proto, (uint8_t)(len >> 8), (uint8_t)len,
	};
	uint16_t raw = 0;
	uint32_t sum;

	if (path_csum_raw_mbuf(m, off, len, &raw) != 0)
		return 0;
	sum = (uint32_t)raw + rte_raw_cksum(ph, sizeof(ph));
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* TCP/UDP checksum: trusted (path_csum.h), right, or partial. field is
 * the checksum's offset in the L4 header. */
static inline bool
__l4_csum_ok(const struct path_conf *c, const struct rte_mbuf *m, uint32_t off,
	     uint32_t len, uint32_t saddr, uint32_t daddr, uint8_t proto,
	     uint32_t field)
{
	if (path_csum_l4_trusted(c, m))
		return true;
	if (__l4_sum(m, off, len, saddr, daddr, proto) == 0xffff)
		return true;
	return path_csum_partial(c, m, off + field, saddr, daddr, proto, len);
}

/* __udp4_lib_rcv. len is the L4 length after ip_rcv's trim. */
static unsigned int
__udp_rcv(const struct path_conf *c, const struct rte_mbuf *m, uint32_t off,
	  uint32_t len, uint32_t saddr, uint32_t daddr, enum rt_type rt,
	  struct mib_block *mib)
{
	struct rte_udp_hdr hbuf;
	const struct rte_udp_hdr *uh;
	uint32_t ulen;
	uint16_t dport;

	if (len < sizeof(*uh))		/* pskb_may_pull */
		return __drop(mib, MIB_F(UDP, INERRORS));
	uh = rte_pktmbuf_read(m, off, sizeof(*uh), &hbuf);
	ulen = rte_be_to_cpu_16(uh->dgram_len);
	if (ulen > len || ulen < sizeof(*uh))	/* short_packet */
		return __drop(mib, MIB_F(UDP, INERRORS));
	dport = rte_be_to_cpu_16(uh->dst_port);

	if (rt == RT_BROADCAST || rt == RT_MULTICAST) {
		/* __udp4_lib_mcast_deliver: no listener -> IgnoredMulti; a
		 * listener verifies the checksum when it reads. */
		if (!__udp_listening(c, dport))
			return __drop(mib, MIB_F(UDP, IGNOREDMULTI));
	}
	/* A zero checksum means none was sent (udp4_csum_init). */
	if (uh->dgram_cksum != 0 &&
	    !__l4_csum_ok(c, m, off, ulen, saddr, daddr, IPPROTO_UDP, 6)) {
		mib_inc(mib, MIB_F(UDP, INCSUMERRORS));
		return __drop(mib, MIB_F(UDP, INERRORS));
	}
	if (!__udp_listening(c, dport))
		return __drop(mib, MIB_F(UDP, NOPORTS));
	mib_inc(mib, MIB_F(UDP, INDATAGRAMS));
	return MIB_F(UDP, INDATAGRAMS);
}

/* tcp_v4_rcv, no socket: count InSegs, validate, "send" a reset (not sent). */
static unsigned int
__tcp_rcv(const struct path_conf *c, const struct rte_mbuf *m, uint32_t off, uint32_t len,
	  uint32_t saddr, uint32_t daddr, uint8_t pkt_type,
	  struct mib_block *mib)
{
	uint8_t buf[20];
	const uint8_t *th;
	unsigned int doff;

	if (pkt_type != PATH_PKT_HOST)
		return __drop(mib, MIB_F(PATH, TCPNOTHOST));
	mib_inc(mib, MIB_F(TCP, INSEGS));
	if (len < 20)			/* pskb_may_pull: discard_it */
		return MIB_F(TCP, INSEGS);
	th = rte_pktmbuf_read(m, off, 20, buf);
	doff = th[12] >> 4;
	if (doff < 5) {			/* bad_packet */
		mib_inc(mib, MIB_F(TCP, INERRS));
		return MIB_F(TCP, INSEGS);
	}
	if (len < doff * 4)		/* discard_it */
		return MIB_F(TCP, INSEGS);
	if (!__l4_csum_ok(c, m, off, len, saddr, daddr, IPPROTO_TCP, 16)) {
		mib_inc(mib, MIB_F(TCP, INCSUMERRORS));
		mib_inc(mib, MIB_F(TCP, INERRS));
	}
	return MIB_F(TCP, INSEGS);
}

#define ICMP_EXT_ECHO 42

/* The length checks of icmp_unreach, icmp_redirect (both then
 * icmp_socket_deliver) and icmp_timestamp, which count Icmp InErrors. */
static bool
__icmp_handler_error(const struct rte_mbuf *m, uint32_t off, uint32_t hlen, uint8_t type)
{
	uint8_t b[2];
	const uint8_t *p;
	unsigned int ihl;

	switch (type) {
	case 3: case 4: case 11: case 12: case 5:
		if (hlen < 20)
			return true;
		p = rte_pktmbuf_read(m, off, 1, b);
		ihl = p[0] & 0xf;
		if (type != 5 && ihl < 5)
			return true;
		if (type == 3) {
			p = rte_pktmbuf_read(m, off - 7, 1, b);	/* icmph->code */
			if (p[0] > 15)		/* NR_ICMP_UNREACH: goto out */
				return false;
		}
		return hlen < ihl * 4 + 8;
	case 13:
		return hlen < 4;
	default:
		return false;
	}
}

/* icmp_rcv */
static unsigned int
__icmp_rcv(const struct path_conf *c, const struct rte_mbuf *m, uint32_t off, uint32_t len,
	   enum rt_type rt, struct mib_block *mib)
{
	static const uint16_t in_type[NR_ICMP_TYPES + 1] = {
		[0] = MIB_F(ICMP, INECHOREPS),
		[3] = MIB_F(ICMP, INDESTUNREACHS),
		[4] = MIB_F(ICMP, INSRCQUENCHS),
		[5] = MIB_F(ICMP, INREDIRECTS),
		[8] = MIB_F(ICMP, INECHOS),
		[11] = MIB_F(ICMP, INTIMEEXCDS),
		[12] = MIB_F(ICMP, INPARMPROBS),
		[13] = MIB_F(ICMP, INTIMESTAMPS),
		[14] = MIB_F(ICMP, INTIMESTAMPREPS),
		[17] = MIB_F(ICMP, INADDRMASKS),
		[18] = MIB_F(ICMP, INADDRMASKREPS),
	};
	uint8_t type;
	uint16_t raw = 0;

	mib_inc(mib, MIB_F(ICMP, INMSGS));
	/* skb_checksum_simple_validate: the sum over the message. */
	if (!path_csum_l4_trusted(c, m) &&
	    (path_csum_raw_mbuf(m, off, len, &raw) != 0 || raw != 0xffff)) {
		mib_inc(mib, MIB_F(ICMP, INCSUMERRORS));
		goto error;
	}
	if (len < 8)			/* pskb_pull(sizeof(struct icmphdr)) */
		goto error;
	type = *(const uint8_t *)rte_pktmbuf_read(m, off, 1, &type);
	if (type <= NR_ICMP_TYPES && in_type[type] != 0)
		mib_inc(mib, in_type[type]);
	if (type == ICMP_EXT_ECHO)	/* icmp_echo; probes are off by default */
		return MIB_F(ICMP, INMSGS);
	if (type > NR_ICMP_TYPES)
		goto error;
	if (rt == RT_BROADCAST || rt == RT_MULTICAST) {
		/* icmp_echo_ignore_broadcasts=1; only these types to bcast. */
		if (type == 8 || type == 13)
			goto error;
		if (type != 17 && type != 18)
			goto error;
	}
	if (__icmp_handler_error(m, off + 8, len - 8, type))
		goto error;
	return MIB_F(ICMP, INMSGS);
error:
	mib_inc(mib, MIB_F(ICMP, INERRORS));
	return MIB_F(ICMP, INMSGS);
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
		return __drop(mib, MIB_F(IPEXT, INTRUNCATEDPKTS));
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
	f = __route(c, saddr, daddr, proto, &rt);
	if (f != 0)
		return __drop(mib, f);
	if (ihl > 5) {
		bool srr;

		if (__ip_options(iph + 20, hl - 20, &srr) != 0)
			goto inhdr_error;
		if (srr)	/* accept_source_route=0 */
			return __drop(mib, MIB_F(PATH, IPSRCROUTE));
	}
	if (rt == RT_MULTICAST) {
		mib_inc(mib, MIB_F(IPEXT, INMCASTPKTS));
		mib_add(mib, MIB_F(IPEXT, INMCASTOCTETS), len);
	} else if (rt == RT_BROADCAST) {
		mib_inc(mib, MIB_F(IPEXT, INBCASTPKTS));
		mib_add(mib, MIB_F(IPEXT, INBCASTOCTETS), len);
	}
	if (rt == RT_UNREACHABLE)	/* ip_error, forwarding off */
		return __drop(mib, MIB_F(IP, INADDRERRORS));

	/* ip_local_deliver */
	if (frag & (IP_MF | IP_OFFSET))	/* ip_defrag queues it */
		return __drop(mib, MIB_F(IP, REASMREQDS));

	/* ip_protocol_deliver_rcu */
	switch (proto) {
	case IPPROTO_UDP:
		f = __udp_rcv(c, m, off + hl, len - hl, saddr, daddr, rt, mib);
		break;
	case IPPROTO_TCP:
		f = __tcp_rcv(c, m, off + hl, len - hl, saddr, daddr,
			      l2->pkt_type, mib);
		break;
	case IPPROTO_ICMP:
		f = __icmp_rcv(c, m, off + hl, len - hl, rt, mib);
		break;
	case IPPROTO_IGMP:
		f = __drop(mib, MIB_F(PATH, IGMPDELIVERED));
		break;
	default:
		return __drop(mib, MIB_F(IP, INUNKNOWNPROTOS));
	}
	mib_inc(mib, MIB_F(IP, INDELIVERS));
	return f;

csum_error:
	mib_inc(mib, MIB_F(IPEXT, INCSUMERRORS));
inhdr_error:
	return __drop(mib, MIB_F(IP, INHDRERRORS));
}

unsigned int
path_rcv(const struct path_conf *c, const struct rte_mbuf *m,
	 const struct path_l2 *l2, struct mib_block *mib)
{
	if (l2->runt || l2->ethertype != ETH_P_IP)
		return __drop(mib, MIB_F(RX, NOTIP));
	/* ip_rcv_core drops PACKET_OTHERHOST before counting InReceives. */
	if (l2->pkt_type == PATH_PKT_OTHERHOST)
		return __drop(mib, MIB_F(RX, OTHERHOST));
	return __ip_rcv(c, m, l2, mib);
}

bool
path_outcome_delivered(unsigned int outcome)
{
	return outcome == MIB_F(UDP, INDATAGRAMS) ||
	       outcome == MIB_F(TCP, INSEGS) ||
	       outcome == MIB_F(ICMP, INMSGS) ||
	       outcome == MIB_F(PATH, IGMPDELIVERED);
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
