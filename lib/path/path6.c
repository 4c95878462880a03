/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 receive path, from ipv6_rcv to the protocol handlers, with
 * Linux 6.18's checks in Linux's order and Linux's counters:
 *   net/ipv6/ip6_input.c   ip6_rcv_core, ip6_rcv_finish, ip6_input_finish,
 *                          ip6_protocol_deliver_rcu, ip6_mc_input
 *   net/ipv6/route.c       ip6_route_input (the host's routes: its on-link
 *                          prefixes, its addresses, ff00::/8; no default
 *                          route), ip6_pkt_discard / ip6_pkt_drop
 *   net/ipv6/ip6_output.c  ip6_forward (forwarding off: InAddrErrors)
 *   net/ipv6/protocol.c    inet6_protos[]: the handlers this kernel has
 * The dispatch to it, by ethertype, is path_rcv_tally()'s (path_inline.h),
 * as __netif_receive_skb_core delivers to ip_rcv or ipv6_rcv.
 *
 * The common case goes first through __p6_udp_fast(): what the full path
 * checks and counts for a UDP datagram delivered to a local unicast
 * address, in one pass over the packet's bytes; anything else (a check
 * that fails, a header it does not know, a second segment) goes the full
 * way as if the fast one had not been tried.
 */
#include <rte_byteorder.h>

#include "path6_pvt.h"
#include "path_csum.h"

#define IPV6_HLEN 40

void
__path6_tally_flush(struct path_tally *t, struct mib_block *mib)
{
	mib_add(mib, MIB_F(IP6, INRECEIVES), t->in6_receives);
	mib_add(mib, MIB_F(IP6, INOCTETS), t->in6_octets);
	mib_add(mib, MIB_F(IP6, INNOECTPKTS), t->ecn6[0]);
	mib_add(mib, MIB_F(IP6, INECT1PKTS), t->ecn6[1]);
	mib_add(mib, MIB_F(IP6, INECT0PKTS), t->ecn6[2]);
	mib_add(mib, MIB_F(IP6, INCEPKTS), t->ecn6[3]);
	mib_add(mib, MIB_F(IP6, INDELIVERS), t->in6_delivers);
	mib_add(mib, MIB_F(UDP6, INDATAGRAMS), t->udp6_delivered[0]);
	mib_add(mib, MIB_F(UDPLITE6, INDATAGRAMS), t->udp6_delivered[1]);
}

/*
 * ip6_route_input, for a host with forwarding off and no default route:
 * ff00::/8 goes to ip6_mc_input, a local address to ip6_input, an address
 * of an on-link prefix to ip6_forward, anything else to ip6_null_entry.
 */
static enum rt6_type
__p6_route_input(const struct path_conf *c, const uint8_t *daddr)
{
	bool lo;

	if (__p6_mcast(daddr))
		return RT6_MULTICAST;
	if (__p6_is_local(c, daddr))
		return RT6_LOCAL;
	if (__p6_route_out(c, daddr, &lo))
		return RT6_FORWARD;
	return RT6_NOROUTE;
}

/* ip6_protocol_deliver_rcu from p->th, the header named at p->nhoff. */
static unsigned int
__p6_deliver(struct path6_pkt *p)
{
	uint8_t b[1];
	const uint8_t *nh;
	unsigned int f;

	for (;;) {
		nh = __p6_read(p, p->nhoff, 1, b);
		switch (nh[0]) {
		case NEXTHDR_UDP:
		case NEXTHDR_UDPLITE:
			/* INET6_PROTO_FINAL: the multicast source filter of
			 * ipv6_chk_mcast_addr(dev, daddr, saddr) passes every
			 * source of the groups pktpath joins (no filter). */
			f = __p6_udp_rcv(p, nh[0]);
			break;
		case NEXTHDR_TCP:
			f = __p6_tcp_rcv(p);
			break;
		case NEXTHDR_ICMP:
			f = __p6_icmp_rcv(p);
			break;
		case NEXTHDR_NONE:
			/* nodata_protocol: dst_discard, which returns 0. */
			f = __p6_drop(p, MIB_F(PATH, IP6NONEXTHDR));
			break;
		case NEXTHDR_DEST:
		case NEXTHDR_ROUTING:
		case NEXTHDR_FRAGMENT:
			f = nh[0] == NEXTHDR_DEST      ? __p6_destopt_rcv(p)
			    : nh[0] == NEXTHDR_ROUTING ? __p6_rthdr_rcv(p)
						       : __p6_frag_rcv(p);
			if (f == P6_RESUBMIT)
				continue;
			return f;
		case NEXTHDR_PIM:
			/* pim6_rcv (CONFIG_IPV6_PIMSM_V2) consumes every packet
			 * and returns 0. */
			if (p->c->pim) {
				f = __p6_drop(p, MIB_F(PATH, PIMDELIVERED));
				break;
			}
			/* fall through */
		default:
			/* No handler (a hop-by-hop header after the first
			 * included): no raw socket either. */
			__p6_inc(p, MIB_F(IP6, INUNKNOWNPROTOS));
			__p6_icmp6_send(p, ICMPV6_PARAMPROB, ICMPV6_UNK_NEXTHDR, false);
			return MIB_F(IP6, INUNKNOWNPROTOS);
		}
		p->t->in6_delivers++;
		return f;
	}
}

/* ipv6_rcv -> ip6_rcv_core -> ip6_rcv_finish -> dst_input. Out of line:
 * the fast path before it keeps few registers to save. */
__rte_noinline unsigned int
__p6_rcv_full(const struct path_conf *c, const struct rte_mbuf *m,
	      const struct path_l2 *l2, struct mib_block *mib, struct path_tally *t,
	      struct path_frag *fr)
{
	struct path6_pkt p = {
		.c = c,
		.m = m,
		.mib = mib,
		.t = t,
		.frag = fr,
		.nh = l2->l3_off,
		.len = rte_pktmbuf_pkt_len(m) - l2->l3_off,
		.pkt_type = l2->pkt_type,
	};
	uint8_t hbuf[IPV6_HLEN];
	const uint8_t *h;
	uint32_t plen;

	/* __IP6_UPD_PO_STATS(IPSTATS_MIB_IN): skb->len, before the trim. */
	t->in6_receives++;
	t->in6_octets += p.len;
	h = __p6_read(&p, 0, IPV6_HLEN, hbuf);
	if (h == NULL || (h[0] >> 4) != 6) /* pskb_may_pull, version */
		goto err;
	/* IPSTATS_MIB_NOECTPKTS + (ipv6_get_dsfield & INET_ECN_MASK) */
	t->ecn6[(h[1] >> 4) & 3]++;
	memcpy(p.saddr, h + 8, 16);
	memcpy(p.daddr, h + 24, 16);
	p.hop_limit = h[7];
	/* RFC 4291 2.5.3: loopback on a device that is not lo. */
	if (__p6_loopback(p.saddr) || __p6_loopback(p.daddr))
		goto err;
	/* RFC 4291 errata 3480: interface-local multicast from another node. */
	if (__p6_mcast(p.daddr) && __p6_mc_scope(p.daddr) == 1)
		goto err;
	/* (drop_unicast_in_l2_multicast is 0.) RFC 4291 2.7: scope 0. */
	if (__p6_mcast(p.daddr) && __p6_mc_scope(p.daddr) == 0)
		goto err;
	if (__p6_mcast(p.saddr))
		goto err;
	p.th = IPV6_HLEN;
	p.nhoff = 6; /* offsetof(struct ipv6hdr, nexthdr) */
	plen = (uint32_t)h[4] << 8 | h[5];
	/* A zero payload length may come with a jumbo payload option. */
	if (plen != 0 || h[6] != NEXTHDR_HOP) {
		if (plen + IPV6_HLEN > p.len)
			return __p6_drop(&p, MIB_F(IP6, INTRUNCATEDPKTS));
		p.len = plen + IPV6_HLEN; /* pskb_trim_rcsum */
	}
	if (h[6] == NEXTHDR_HOP && __p6_parse_hopopts(&p) < 0)
		goto err;

	/* ip6_rcv_finish: ip6_route_input, then the dst's input. */
	p.rt = (uint8_t)__p6_route_input(c, p.daddr);
	switch (p.rt) {
	case RT6_MULTICAST:
		/* ip6_mc_input: counted whether the group is joined or not,
		 * skb->len as trimmed. */
		__p6_inc(&p, MIB_F(IP6, INMCASTPKTS));
		__p6_add(&p, MIB_F(IP6, INMCASTOCTETS), p.len);
		if (!__p6_mc_joined(c, p.daddr)) /* freed, no counter */
			return __p6_drop(&p, MIB_F(PATH, IP6MCASTNOTJOINED));
		return __p6_deliver(&p);
	case RT6_LOCAL:
		return __p6_deliver(&p);
	case RT6_FORWARD:
		/* ip6_forward with forwarding off: no ICMP error. */
		return __p6_drop(&p, MIB_F(IP6, INADDRERRORS));
	default:
		/* ip6_pkt_drop(skb, ICMPV6_NOROUTE, IPSTATS_MIB_INNOROUTES):
		 * the unspecified address is an address error. */
		__p6_inc(&p, __p6_any(p.daddr) ? MIB_F(IP6, INADDRERRORS)
					       : MIB_F(IP6, INNOROUTES));
		__p6_icmp6_send(&p, ICMPV6_DEST_UNREACH, ICMPV6_NOROUTE, false);
		return __p6_any(p.daddr) ? MIB_F(IP6, INADDRERRORS)
					 : MIB_F(IP6, INNOROUTES);
	}
err:
	return __p6_drop(&p, MIB_F(IP6, INHDRERRORS));
}

/* ---- the fast path ---- */

/*
 * __p6_udp_fast() past its first checks (both headers in the first
 * segment, UDP next). What the full path does for the packet, when it ends in Udp6
 * InDatagrams, checked in one pass: each condition below is one the full
 * path passes through on its way there (ip6_rcv_core, ip6_route_input,
 * ip6_protocol_deliver_rcu, __udp6_lib_rcv, udp6_csum_init), any packet
 * that fails one goes to __p6_rcv_full() with nothing counted. The UDP
 * checksum is verified here too (mandatory over IPv6), unless the device
 * did (path_csum_l4_trusted); a wrong one, or a partial one
 * (--rx-csum-partial), is for the full path to count.
 */
static __rte_always_inline unsigned int
__p6_udp_fast_at(const struct path_conf *c, const struct rte_mbuf *m, uint32_t nh,
		 struct path_tally *t)
{
	const uint64_t lo = rte_cpu_to_be_64(1); /* the low half of ::1 */
	const uint8_t *h, *uh;
	uint64_t s0, s1, d0, d1, sum;
	uint32_t len, plen, ulen;

	h = rte_pktmbuf_mtod_offset(m, const uint8_t *, nh);
	len = rte_pktmbuf_pkt_len(m) - nh; /* skb->len */
	plen = (uint32_t)h[4] << 8 | h[5];
	/* ip6_rcv_core: version 6; (UDP next, seen by the caller: no
	 * hop-by-hop header, so the payload length is not a jumbogram's 0)
	 * a payload length within the packet, room for the UDP header in
	 * it. */
	if (unlikely((h[0] >> 4) != 6 || plen < 8 || plen + IPV6_HLEN > len))
		return P6_FULL_PATH;
	s0 = __path_csum_word64(h + 8);
	s1 = __path_csum_word64(h + 16);
	d0 = __path_csum_word64(h + 24);
	d1 = __path_csum_word64(h + 32);
	/* ip6_rcv_core: neither address loopback, no multicast source; a
	 * unicast destination (the multicast scope checks do not apply) ... */
	if (unlikely(h[8] == 0xff || h[24] == 0xff || (s0 == 0 && s1 == lo) ||
		     (d0 == 0 && d1 == lo)))
		return P6_FULL_PATH;
	/* ... that ip6_route_input finds local: ip6_input. */
	if (unlikely(!__p6_is_local(c, h + 24)))
		return P6_FULL_PATH;
	/* __udp6_lib_rcv: a length from 8 to the payload's (0, a jumbogram's,
	 * and any other go the full way); a checksum (0 is an error over
	 * IPv6); a socket on the port. */
	uh = h + IPV6_HLEN;
	ulen = (uint32_t)uh[4] << 8 | uh[5];
	if (unlikely(ulen < 8 || ulen > plen || (uh[6] | uh[7]) == 0 ||
		     !__p6_port_open(c->udp_ports, (uint16_t)(uh[2] << 8 | uh[3]))))
		return P6_FULL_PATH;
	/* udp6_csum_init (a datagram up to CHECKSUM_BREAK) or
	 * udp_lib_checksum_complete (longer): the pseudo header and the
	 * ulen bytes of the datagram (pskb_trim_rcsum to ulen). */
	if (!path_csum_l4_trusted(c, m)) {
		if (unlikely(nh + IPV6_HLEN + ulen > rte_pktmbuf_data_len(m)))
			return P6_FULL_PATH;
		sum = __path_csum_adc64(s0, s1);
		sum = __path_csum_adc64(sum, d0);
		sum = __path_csum_adc64(sum, d1);
		sum = __path_csum_adc64(sum, __path_csum_word64(uh));
		sum = __path_csum_adc64(sum, (uint64_t)rte_cpu_to_be_32(ulen) +
						     rte_cpu_to_be_32(NEXTHDR_UDP));
		if (ulen > 8)
			sum = path_csum_add64(sum, uh + 8, ulen - 8);
		if (unlikely(path_csum_fold(sum) != 0xffff))
			return P6_FULL_PATH;
	}
	/* What the full path tallies on the way. */
	t->in6_receives++;
	t->in6_octets += len;
	t->ecn6[(h[1] >> 4) & 3]++;
	t->in6_delivers++;
	t->udp6_delivered[0]++;
	return MIB_F(UDP6, INDATAGRAMS);
}

unsigned int
__p6_udp_fast(const struct path_conf *c, const struct rte_mbuf *m, uint32_t nh,
	      struct path_tally *t)
{
	/* The IPv6 and UDP headers in the first segment, UDP next. */
	if (unlikely(nh + IPV6_HLEN + 8 > rte_pktmbuf_data_len(m) ||
		     rte_pktmbuf_mtod_offset(m, const uint8_t *, nh)[6] != NEXTHDR_UDP))
		return P6_FULL_PATH;
	return __p6_udp_fast_at(c, m, nh, t);
}

/* __p6_udp_fast() once __path_ipv6_rcv() has seen both headers in the
 * first segment and UDP next, then the full path if it declines. */
static __rte_noinline unsigned int
__p6_udp_or_full(const struct path_conf *c, const struct rte_mbuf *m,
		 const struct path_l2 *l2, struct mib_block *mib, struct path_tally *t,
		 struct path_frag *fr)
{
	unsigned int f = __p6_udp_fast_at(c, m, l2->l3_off, t);

	if (likely(f != P6_FULL_PATH))
		return f;
	return __p6_rcv_full(c, m, l2, mib, t, fr);
}

/* Not UDP next (an extension header, a fragment, TCP, ICMPv6), or not
 * both headers in the first segment: to the full path at once, with no
 * register saved for the fast path (its prologue and epilogue were 16
 * instructions a packet on --frag 256's fragments). */
unsigned int
__path_ipv6_rcv(const struct path_conf *c, const struct rte_mbuf *m,
		const struct path_l2 *l2, struct mib_block *mib, struct path_tally *t,
		struct path_frag *fr)
{
	const uint32_t nh = l2->l3_off;

	if (unlikely(nh + IPV6_HLEN + 8 > rte_pktmbuf_data_len(m) ||
		     rte_pktmbuf_mtod_offset(m, const uint8_t *, nh)[6] != NEXTHDR_UDP))
		return __p6_rcv_full(c, m, l2, mib, t, fr);
	return __p6_udp_or_full(c, m, l2, mib, t, fr);
}
