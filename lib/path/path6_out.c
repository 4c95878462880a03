/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host's IPv6 addresses, groups and routes as the kernel has them for
 * the port (net/ipv6/addrconf.c, mcast.c, route.c), and what it would send
 * in answer to what it receives: ICMPv6 errors, echo replies, neighbour
 * advertisements and TCP resets, counted as Linux 6.18 counts them when it
 * sends them (nothing is sent):
 *   net/ipv6/icmp.c       icmp6_send, is_ineligible, icmpv6_xrlim_allow,
 *                         icmpv6_echo_reply
 *   net/ipv6/ip6_output.c ip6_dst_lookup_tail (OutNoRoutes), ip6_output
 *   net/ipv6/ndisc.c      ndisc_send_na, ndisc_send_skb
 *   net/ipv6/tcp_ipv6.c   tcp_v6_send_reset, tcp_v6_send_response
 * The route back is the host's: an on-link prefix, or one of its own
 * addresses; with no default route, nothing else (ip6_dst_lookup fails:
 * OutNoRoutes). Neighbours on the link are resolved (as with permanent
 * entries): an answer goes out at once. The rate limits are the
 * worker's (path_rlim.c, in its struct path_frag): none without one.
 */
#include "path6_pvt.h"

#define IPV6_MIN_MTU 1280
#define ICMP6_HLEN   8

/* ---- addresses ---- */

void
__p6_link_local(const struct path_conf *c, uint8_t out[16])
{
	const uint8_t *mac = c->mac.addr_bytes;

	memset(out, 0, 16);
	out[0] = 0xfe;
	out[1] = 0x80;
	out[8] = mac[0] ^ 0x02; /* the universal/local bit */
	out[9] = mac[1];
	out[10] = mac[2];
	out[11] = 0xff;
	out[12] = 0xfe;
	out[13] = mac[3];
	out[14] = mac[4];
	out[15] = mac[5];
}

/* a is the solicited-node group ff02::1:ffXX:XXXX of address u. */
static bool
__p6_solicited(const uint8_t *g, const uint8_t *u)
{
	static const uint8_t sn[13] = { 0xff, 0x02, [11] = 0x01, [12] = 0xff };

	return memcmp(g, sn, 13) == 0 && memcmp(g + 13, u + 13, 3) == 0;
}

bool
__p6_mc_joined(const struct path_conf *c, const uint8_t *g)
{
	static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 1 };
	static const uint8_t node_local[16] = { 0xff, 0x01, [15] = 1 };
	uint8_t ll[16];
	unsigned int i;

	if (memcmp(g, all_nodes, 16) == 0 || memcmp(g, node_local, 16) == 0)
		return true;
	__p6_link_local(c, ll);
	if (__p6_solicited(g, ll))
		return true;
	for (i = 0; i < c->n_local6; i++)
		if (__p6_solicited(g, c->local6[i].addr))
			return true;
	for (i = 0; i < c->n_mcast6; i++)
		if (memcmp(c->mcast6[i], g, 16) == 0)
			return true;
	return false;
}

static bool
__p6_prefix_match(const uint8_t *a, const uint8_t *b, unsigned int plen)
{
	unsigned int bytes = plen / 8, bits = plen % 8;

	if (memcmp(a, b, bytes) != 0)
		return false;
	return bits == 0 || ((a[bytes] ^ b[bytes]) & (0xff00 >> bits) & 0xff) == 0;
}

bool
__p6_route_out(const struct path_conf *c, const uint8_t *a, bool *loopback)
{
	static const uint8_t fe80[16] = { 0xfe, 0x80 };
	unsigned int i;

	*loopback = __p6_is_local(c, a);
	if (*loopback)
		return true;
	if (__p6_prefix_match(a, fe80, 64))
		return true;
	for (i = 0; i < c->n_local6; i++)
		if (__p6_prefix_match(a, c->local6[i].addr, c->local6[i].prefix_len))
			return true;
	return false;
}

/* ---- sending ---- */

/*
 * A packet of len bytes (its IPv6 header included) handed to the output
 * path (ip6_local_out, ip6_output, ip6_finish_output2): OutRequests,
 * OutOctets, OutTransmits, and the multicast pair for a group.
 */
static void
__p6_xmit(const struct path6_pkt *p, uint32_t len, bool mcast)
{
	__p6_inc(p, MIB_F(IP6, OUTREQUESTS));
	__p6_add(p, MIB_F(IP6, OUTOCTETS), len);
	if (mcast) {
		__p6_inc(p, MIB_F(IP6, OUTMCASTPKTS));
		__p6_add(p, MIB_F(IP6, OUTMCASTOCTETS), len);
	}
	__p6_inc(p, MIB_F(IP6, OUTTRANSMITS));
}

/* An ICMPv6 message of type through icmpv6_push_pending_frames
 * (__ip6_make_skb counts it: ICMP6MSGOUT_INC_STATS, OutMsgs). */
static void
__p6_xmit_icmp(const struct path6_pkt *p, uint8_t type, uint32_t len)
{
	__p6_inc(p, MIB_ICMP6MSG_OUT(type));
	__p6_inc(p, MIB_F(ICMP6, OUTMSGS));
	__p6_xmit(p, len, false);
}

/*
 * is_ineligible: an ICMPv6 error in answer to an ICMPv6 error, or to a
 * packet cut before its ICMPv6 type, is not sent (RFC 4443 2.4 (e)).
 */
static bool
__p6_ineligible(const struct path6_pkt *p)
{
	uint8_t nexthdr, b[1];
	const uint8_t *tp;
	uint16_t frag_off;
	int ptr;

	if (p->len < 40)
		return true;
	tp = __p6_read(p, 6, 1, b);
	nexthdr = tp[0];
	ptr = __p6_skip_exthdr(p, 40, &nexthdr, &frag_off);
	if (ptr < 0)
		return false;
	if (nexthdr == NEXTHDR_ICMP) {
		tp = __p6_read(p, (uint32_t)ptr, 1, b);
		/* RFC 8200 4.5: a fragment without the ICMPv6 header. */
		if (tp == NULL && frag_off != 0)
			return false;
		if (tp == NULL || !(tp[0] & 0x80))
			return true;
	}
	return false;
}

/* The ICMPv6 types of net.ipv6.icmp.ratemask (default 0-1,3-127): the
 * errors but Packet Too Big. */
static bool
__p6_ratemask(uint8_t type)
{
	return type <= 1 || (type >= 3 && type <= 127);
}

struct path_icmp6_answer
__p6_icmp6_answer(const struct path6_pkt *p, uint8_t type, uint8_t code, bool opt_unrec)
{
	struct path_icmp6_answer a = { .verdict = P6_ANSWER_NONE, .type = type };
	bool lo;

	/* Not to a multicast destination, nor for a frame not to the host,
	 * but Packet Too Big and a parameter problem for an option that says
	 * so (RFC 4443 2.4 (e.3)). */
	if (__p6_mcast(p->daddr) || p->pkt_type != PATH_PKT_HOST) {
		if (type != ICMPV6_PKT_TOOBIG &&
		    !(type == ICMPV6_PARAMPROB && code == ICMPV6_UNK_OPTION && opt_unrec))
			return a;
	}
	/* Nor to a source that is not one node (RFC 4443 2.4 (e.4)). */
	if (__p6_any(p->saddr) || __p6_mcast(p->saddr))
		return a;
	if (__p6_ineligible(p))
		return a;
	/* icmpv6_xrlim_allow: the types of the ratemask look the route back
	 * up first; none is a host rate limit (the ICMP error is not sent),
	 * counted on the null route. Otherwise icmpv6_route_lookup ->
	 * ip6_dst_lookup: -ENETUNREACH. The limits before it
	 * (icmpv6_global_allow) and after it: __path_icmp6_rlim. */
	if (!__p6_route_out(p->c, p->saddr, &lo)) {
		a.verdict = __p6_ratemask(type) ? P6_ANSWER_RATELIMIT : P6_ANSWER_NOROUTE;
		return a;
	}
	/* The offending packet, as far as it fits the minimum MTU. */
	a.verdict = P6_ANSWER_SEND;
	a.lo = lo;
	a.len = (uint16_t)(40 + ICMP6_HLEN +
			   RTE_MIN(p->len, (uint32_t)(IPV6_MIN_MTU - 40 - ICMP6_HLEN)));
	return a;
}

void
__p6_icmp6_send(const struct path6_pkt *p, uint8_t type, uint8_t code, bool opt_unrec)
{
	struct path_icmp6_answer a = __p6_icmp6_answer(p, type, code, opt_unrec);

	if (p->frag != NULL)
		__path_icmp6_rlim(&p->frag->rlim, p->frag->now, &a, p->saddr);
	__path_icmp6_count(p->mib, &a);
}

void
__path_icmp6_rlim(struct path_rlim *r, uint64_t now, struct path_icmp6_answer *a,
		  const uint8_t dst[16])
{
	uint64_t j;

	/* icmpv6_mask_allow: a type out of the ratemask is not limited at
	 * all (apply_ratelimit false: icmpv6_xrlim_allow says yes at once) */
	if (!r->conf.on ||
	    (a->verdict != P6_ANSWER_SEND && a->verdict != P6_ANSWER_RATELIMIT) ||
	    !__p6_ratemask(a->type))
		return;
	j = path_rlim_jiffies(r, now);
	/* icmpv6_global_allow, before the socket and the route: the bucket
	 * IPv4 shares (ICMP_MIB_RATELIMITGLOBAL, IPv4's counter) */
	if (!path_rlim_global_allow(r, j)) {
		a->verdict = P6_ANSWER_GLOBAL;
		return;
	}
	/* icmpv6_xrlim_allow: no route (RATELIMIT stays, nothing consumed);
	 * the loopback device (an own address) passes; else the peer's
	 * bucket (tmo 0: always). Passing consumes the random credit. */
	if (a->verdict == P6_ANSWER_RATELIMIT)
		return;
	if (!a->lo && r->tmo != 0 && !path_rlim_peer_allow(r, j, dst)) {
		a->verdict = P6_ANSWER_HOST;
		return;
	}
	path_rlim_global_consume(r);
}

void
__p6_echo_reply(const struct path6_pkt *p, uint32_t icmp_len)
{
	bool lo;

	/* icmpv6_echo_ignore_multicast and _anycast are 0: every request is
	 * answered, to its source: ip6_dst_lookup, then the echo reply (not
	 * in the ratemask: no limit), the request's data sent back. */
	if (!__p6_route_out(p->c, p->saddr, &lo)) {
		__p6_inc(p, MIB_F(IP6, OUTNOROUTES));
		return;
	}
	__p6_xmit_icmp(p, ICMPV6_ECHO_REPLY, 40 + icmp_len);
}

void
__p6_send_na(const struct path6_pkt *p, uint32_t len, bool mcast)
{
	/* ndisc_send_skb: OutRequests before the LOCAL_OUT hook, the
	 * ICMPv6 counters after it; a route of its own (icmp6_dst_alloc). */
	__p6_inc(p, MIB_ICMP6MSG_OUT(NDISC_NEIGHBOUR_ADVERTISEMENT));
	__p6_inc(p, MIB_F(ICMP6, OUTMSGS));
	__p6_xmit(p, len, mcast);
}

void
__p6_send_reset(const struct path6_pkt *p)
{
	bool lo;

	/* tcp_v6_send_response: ip6_dst_lookup_flow to the source, then a
	 * bare 20-byte reset through ip6_xmit, counted as a segment and a
	 * reset once routed. */
	if (!__p6_route_out(p->c, p->saddr, &lo)) {
		__p6_inc(p, MIB_F(IP6, OUTNOROUTES));
		return;
	}
	__p6_xmit(p, 40 + 20, false);
	__p6_inc(p, MIB_F(TCP, OUTSEGS));
	__p6_inc(p, MIB_F(TCP, OUTRSTS));
}
