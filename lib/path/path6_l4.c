/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The final protocols of the IPv6 path, with Linux 6.18's checks in
 * Linux's order and Linux's counters:
 *   net/ipv6/udp.c          __udp6_lib_rcv, __udp6_lib_mcast_deliver,
 *                           __udp6_lib_err (no socket: Icmp6 InErrors)
 *   net/ipv6/ip6_checksum.c udp6_csum_init
 *   include/net/udplite.h   udplite_checksum_init
 *   net/ipv6/tcp_ipv6.c     tcp_v6_rcv, tcp_v6_err
 *   net/ipv6/icmp.c         icmpv6_rcv, icmpv6_notify
 *   net/ipv6/ndisc.c        ndisc_rcv, ndisc_recv_ns, ndisc_redirect_rcv,
 *                           ndisc_parse_options
 *   net/ipv6/mcast.c        igmp6_event_query, igmp6_event_report
 * UDP and UDP-Lite sockets are bound to [::] on --udp-ports and
 * --udplite-ports (IPV6_V6ONLY beside the IPv4 ones); there is no TCP
 * socket, no raw socket, no ping socket.
 */
#include <rte_byteorder.h>

#include "path6_pvt.h"
#include "path_csum.h"

/* include/linux/skbuff.h: datagrams up to this length are verified when
 * the checksum is initialised (__skb_checksum_validate_needed). */
#define CHECKSUM_BREAK 76

/* The one's complement sum of the IPv6 pseudo header (RFC 8200 8.1) for
 * an upper-layer length of len and the bytes of p from off, folded: 0xffff
 * when the checksum in them is right. */
static uint16_t
__p6_l4_sum(const struct path6_pkt *p, uint32_t off, uint32_t len, uint32_t pseudo_len,
	    uint8_t proto)
{
	uint16_t sum = 0;

	if (path_csum_sum_mbuf(p->m, p->nh + off, len,
			       path_csum_pseudo6(p->saddr, p->daddr, proto, pseudo_len),
			       &sum) != 0)
		return 0;
	return sum;
}

/*
 * The checksum of the L4 header at off (len bytes covered, pseudo_len in
 * the pseudo header): right, trusted from the device (CHECKSUM_UNNECESSARY
 * under --rx-csum hw), or a partial checksum the sender left to a device:
 * the field at off + field holds the folded pseudo-header sum
 * (path_csum.h, as for IPv4).
 */
static bool
__p6_csum_ok(const struct path6_pkt *p, uint32_t off, uint32_t len, uint32_t pseudo_len,
	     uint8_t proto, uint32_t field)
{
	uint8_t ph[40], b[2];
	const uint8_t *f;
	uint16_t v;

	if (path_csum_l4_trusted(p->c, p->m))
		return true;
	if (__p6_l4_sum(p, off, len, pseudo_len, proto) == 0xffff)
		return true;
	if (!p->c->csum_partial)
		return false;
	memcpy(ph, p->saddr, 16);
	memcpy(ph + 16, p->daddr, 16);
	ph[32] = ph[33] = 0;
	ph[34] = (uint8_t)(pseudo_len >> 8);
	ph[35] = (uint8_t)pseudo_len;
	ph[36] = ph[37] = ph[38] = 0;
	ph[39] = proto;
	f = __p6_read(p, off + field, 2, b);
	if (f == NULL)
		return false;
	memcpy(&v, f, sizeof(v));
	return v == rte_raw_cksum(ph, sizeof(ph));
}

/* ---- UDP and UDP-Lite ---- */

static inline unsigned int
__p6_udp_f(uint8_t proto, unsigned int udp6_field)
{
	return proto == NEXTHDR_UDPLITE ? udp6_field - MIB_BASE_UDP6 + MIB_BASE_UDPLITE6
					: udp6_field;
}

/* __udp6_lib_rcv(skb, table, proto) for UDP and UDP-Lite. */
unsigned int
__p6_udp_rcv(struct path6_pkt *p, uint8_t proto)
{
	const uint64_t *ports =
		proto == NEXTHDR_UDPLITE ? p->c->udplite_ports : p->c->udp_ports;
	uint32_t off = p->th, len = p->len - p->th, ulen, cov;
	uint8_t b[8];
	const uint8_t *uh;
	bool listener, zero, verified = false;

	uh = __p6_read(p, off, 8, b);
	if (uh == NULL) /* pskb_may_pull: discard */
		goto inerrors;
	ulen = (uint32_t)uh[4] << 8 | uh[5];
	if (ulen > len) /* short_packet */
		goto inerrors;
	if (proto == NEXTHDR_UDP) {
		if (ulen == 0) /* a jumbogram's */
			ulen = len;
		if (ulen < 8)
			goto inerrors;
		len = ulen; /* pskb_trim_rcsum */
	}
	zero = (uh[6] | uh[7]) == 0;
	listener = __p6_port_open(ports, (uint16_t)(uh[2] << 8 | uh[3]));

	/* udp6_csum_init */
	cov = len;
	if (proto == NEXTHDR_UDPLITE) {
		/* udplite_checksum_init: the length field is the coverage, a
		 * checksum mandatory; a partial coverage is verified later,
		 * over the covered bytes. */
		if (zero)
			goto csum_error;
		if (ulen != 0 && (ulen < 8 || ulen > len))
			goto csum_error;
		if (ulen != 0 && ulen < len)
			cov = ulen;
	}
	if (cov == len && !zero && len <= CHECKSUM_BREAK) {
		/* skb_checksum_init_zero_check: zero is let through here
		 * (RFC 6936, for sockets that allow it); a short datagram is
		 * verified now. */
		if (!__p6_csum_ok(p, off, len, len, proto, 6))
			goto csum_error;
		verified = true;
	}

	if (__p6_mcast(p->daddr)) {
		/* __udp6_lib_mcast_deliver: a socket that does not allow a
		 * zero checksum (none does) is skipped; with none left, the
		 * datagram is ignored. A listener verifies when it reads. */
		if (!listener || zero)
			return __p6_drop(p, __p6_udp_f(proto, MIB_F(UDP6, IGNOREDMULTI)));
	} else if (zero) {
		/* report_csum_error, with a socket or without */
		goto csum_error;
	}
	/* A listener verifies in recvmsg; without one, before NoPorts. */
	if (!verified && !__p6_csum_ok(p, off, cov, len, proto, 6))
		goto csum_error;
	if (!listener) {
		__p6_inc(p, __p6_udp_f(proto, MIB_F(UDP6, NOPORTS)));
		__p6_icmp6_send(p, ICMPV6_DEST_UNREACH, ICMPV6_PORT_UNREACH, false);
		return __p6_udp_f(proto, MIB_F(UDP6, NOPORTS));
	}
	p->t->udp6_delivered[proto == NEXTHDR_UDPLITE]++;
	return __p6_udp_f(proto, MIB_F(UDP6, INDATAGRAMS));

csum_error:
	__p6_inc(p, __p6_udp_f(proto, MIB_F(UDP6, INCSUMERRORS)));
inerrors:
	return __p6_drop(p, __p6_udp_f(proto, MIB_F(UDP6, INERRORS)));
}

/* ---- TCP ---- */

/* tcp_v6_rcv without a socket: InSegs, then a reset unless the segment is
 * bad (InErrs, InCsumErrors) or itself a reset. */
unsigned int
__p6_tcp_rcv(struct path6_pkt *p)
{
	uint32_t off = p->th, len = p->len - p->th, doff;
	uint8_t b[20];
	const uint8_t *th;

	if (p->pkt_type != PATH_PKT_HOST)
		return __p6_drop(p, MIB_F(PATH, TCPNOTHOST));
	__p6_inc(p, MIB_F(TCP, INSEGS));
	th = __p6_read(p, off, 20, b);
	if (th == NULL) /* discard_it */
		return MIB_F(TCP, INSEGS);
	doff = (uint32_t)(th[12] >> 4) * 4;
	if (doff < 20) { /* bad_packet */
		__p6_inc(p, MIB_F(TCP, INERRS));
		return MIB_F(TCP, INSEGS);
	}
	if (doff > len)
		return MIB_F(TCP, INSEGS);
	/* skb_checksum_init, then tcp_checksum_complete: the same verdict. */
	if (!__p6_csum_ok(p, off, len, len, NEXTHDR_TCP, 16)) {
		__p6_inc(p, MIB_F(TCP, INCSUMERRORS));
		__p6_inc(p, MIB_F(TCP, INERRS));
		return MIB_F(TCP, INSEGS);
	}
	/* tcp_v6_send_reset: not for a reset, nor to a destination that is
	 * not a local unicast address (ipv6_unicast_destination). */
	if (!(th[13] & 0x04) && p->rt == RT6_LOCAL) {
		uint8_t buf[40];
		const uint8_t *o = __p6_read(p, p->th + 20, doff - 20, buf);

		if (__path_tcp_auth_ok(o, (int)doff - 20))
			__p6_send_reset(p);
	}
	return MIB_F(TCP, INSEGS);
}

/* ---- ICMPv6 ---- */

/*
 * icmpv6_notify for the quote at off (the quoted IPv6 header first, to the
 * end of the packet): the quoted upper-layer protocol's err_handler looks
 * for the socket that sent it. True if Icmp6 InErrors is counted.
 */
static bool
__p6_notify(const struct path6_pkt *p, uint32_t off)
{
	struct path6_pkt q = *p;
	uint8_t b[8], nexthdr;
	const uint8_t *h;
	uint16_t frag_off;
	int inner;

	/* The quote as a packet of its own, for ipv6_skip_exthdr. */
	q.nh = p->nh + off;
	q.len = p->len - off;
	h = __p6_read(&q, 0, 40, b) != NULL ? __p6_read(&q, 6, 1, b) : NULL;
	if (h == NULL) /* pskb_may_pull(40) */
		return true;
	nexthdr = h[0];
	inner = __p6_skip_exthdr(&q, 40, &nexthdr, &frag_off);
	if (inner < 0)
		return true;
	h = __p6_read(&q, (uint32_t)inner, 8, b);
	if (h == NULL) /* inner offset + 8 */
		return true;
	switch (nexthdr) {
	case NEXTHDR_UDP:
	case NEXTHDR_UDPLITE:
		/* __udp6_lib_err: the socket bound to the quote's source port
		 * (every local address). */
		return !__p6_port_open(nexthdr == NEXTHDR_UDP ? p->c->udp_ports
							      : p->c->udplite_ports,
				       (uint16_t)(h[0] << 8 | h[1]));
	case NEXTHDR_TCP:
		/* tcp_v6_err: __inet6_lookup_established finds nothing. */
		return true;
	default:
		/* icmpv6_err (ping_err: no socket), or no err_handler. */
		return false;
	}
}

/* The neighbour discovery options from off to the end: ndisc_parse_options
 * accepts them (no option of length 0 or past the end); the first source
 * link-layer address option's length in *slla (0: none), and the offset of
 * the first redirected header option in *rh (0: none). */
static bool
__p6_nd_options(const struct path6_pkt *p, uint32_t off, uint32_t *slla, uint32_t *rh)
{
	uint8_t b[2];
	const uint8_t *o;

	*slla = 0;
	*rh = 0;
	while (off < p->len) {
		uint32_t l;

		o = __p6_read(p, off, 2, b);
		if (o == NULL)
			return false;
		l = o[1] * 8u;
		if (l == 0 || l > p->len - off)
			return false;
		if (o[0] == 1 && *slla == 0) /* ND_OPT_SOURCE_LL_ADDR */
			*slla = l;
		if (o[0] == 4 && *rh == 0) /* ND_OPT_REDIRECT_HDR */
			*rh = off;
		off += l;
	}
	return true;
}

/*
 * ndisc_rcv for the message at off (len bytes): what is counted is what
 * the host sends, a neighbour advertisement for a solicitation of one of
 * its addresses, and the Icmp6 InErrors of a redirect's quote. True if
 * Icmp6 InErrors is counted.
 */
static bool
__p6_ndisc_rcv(const struct path6_pkt *p, uint32_t off, uint32_t len, uint8_t type)
{
	uint8_t b[24];
	const uint8_t *msg;
	uint32_t slla, rh;

	/* ndisc_suppress_frag_ndisc, then the hop limit and the code */
	if ((p->flags & P6_FRAGMENTED) || p->hop_limit != 255)
		return false;
	msg = __p6_read(p, off, 2, b);
	if (msg[1] != 0)
		return false;
	if (type == NDISC_NEIGHBOUR_SOLICITATION) { /* ndisc_recv_ns */
		bool dad = __p6_any(p->saddr);
		const uint8_t *target;

		if (len < 24)
			return false;
		target = __p6_read(p, off + 8, 16, b + 8);
		if (__p6_mcast(target))
			return false;
		/* DAD goes to the solicited-node group (RFC 4861 7.1.1). */
		if (dad && !(p->daddr[0] == 0xff && p->daddr[1] == 0x02 &&
			     p->daddr[11] == 1 && p->daddr[12] == 0xff))
			return false;
		if (!__p6_nd_options(p, off + 24, &slla, &rh))
			return false;
		/* an Ethernet address option is 8 bytes; none with DAD */
		if (slla != 0 && (slla != 8 || dad))
			return false;
		if (!__p6_is_local(p->c, target)) /* no anycast, no proxy */
			return false;
		/* To ff02::1 for DAD, else to the source (a neighbour: the
		 * entry exists, or the solicitation makes one), the target's
		 * link-layer address included when solicited by multicast. */
		__p6_send_na(p, 40 + 24 + (dad || __p6_mcast(p->daddr) ? 8 : 0), dad);
		return false;
	}
	if (type == 137) { /* ndisc_redirect_rcv */
		if (len < 40 || p->saddr[0] != 0xfe || (p->saddr[1] & 0xc0) != 0x80)
			return false;
		if (!__p6_nd_options(p, off + 40, &slla, &rh) || rh == 0)
			return false;
		/* icmpv6_notify on what follows the option's 8-byte header,
		 * to the end of the packet */
		return __p6_notify(p, rh + 8);
	}
	/* A neighbour advertisement, a router solicitation (not a router)
	 * or advertisement (accept_ra 0): nothing counted. */
	return false;
}

/* icmpv6_rcv */
unsigned int
__p6_icmp_rcv(struct path6_pkt *p)
{
	uint32_t off = p->th, len = p->len - p->th;
	uint8_t b[2], type;
	const uint8_t *h;

	__p6_inc(p, MIB_F(ICMP6, INMSGS));
	/* skb_checksum_validate with the pseudo header */
	if (!path_csum_l4_trusted(p->c, p->m) &&
	    __p6_l4_sum(p, off, len, len, NEXTHDR_ICMP) != 0xffff) {
		__p6_inc(p, MIB_F(ICMP6, INCSUMERRORS));
		goto error;
	}
	if (len < 8) /* pskb_pull(sizeof(struct icmp6hdr)) */
		goto error;
	h = __p6_read(p, off, 2, b);
	type = h[0];
	__p6_inc(p, MIB_ICMP6MSG_IN(type)); /* ICMP6MSGIN_INC_STATS */
	switch (type) {
	case ICMPV6_ECHO_REQUEST:
		__p6_echo_reply(p, len);
		break;
	case ICMPV6_PKT_TOOBIG:
		if (len < 8 + 40) /* pskb_may_pull(sizeof(struct ipv6hdr)) */
			goto error;
		/* fall through */
	case ICMPV6_DEST_UNREACH:
	case ICMPV6_TIME_EXCEED:
	case ICMPV6_PARAMPROB:
		if (__p6_notify(p, off + 8))
			goto error;
		break;
	case 133:
	case 134:
	case 135:
	case 136:
	case 137:
		if (__p6_ndisc_rcv(p, off, len, type))
			goto error;
		break;
	default:
		/* Echo replies and extended echo replies (ping_rcv: no
		 * socket), an extended echo (icmp_echo_enable_probe 0), MLD
		 * (queued for mld_query_work and mld_report_work: pktpath
		 * sends no report), informational types: nothing more. An
		 * error of an unknown type goes to the upper level. */
		if (type & 0x80)
			break;
		if (__p6_notify(p, off + 8))
			goto error;
		break;
	}
	return MIB_F(ICMP6, INMSGS);
error:
	__p6_inc(p, MIB_F(ICMP6, INERRORS));
	return MIB_F(ICMP6, INMSGS);
}
