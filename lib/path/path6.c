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
 */
#include "path6_pvt.h"

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

/* ipv6_rcv -> ip6_rcv_core -> ip6_rcv_finish -> dst_input. */
unsigned int
__path_ipv6_rcv(const struct path_conf *c, const struct rte_mbuf *m,
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
