/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 extension headers on receive, with Linux 6.18's checks and
 * counters, for a host with the default sysctls (max_hbh_opts_cnt and
 * max_dst_opts_cnt 8, their lengths unbounded, seg6_enabled and
 * rpl_seg_enabled 0, ioam6_enabled 0, suppress_frag_ndisc 1) and without
 * CONFIG_IPV6_MIP6 (no home address option, no type 2 routing header):
 *   net/ipv6/exthdrs.c       ip6_parse_tlv, ip6_tlvopt_unknown, ipv6_hop_ra,
 *                            ipv6_hop_ioam, ipv6_hop_jumbo, ipv6_hop_calipso,
 *                            ipv6_parse_hopopts, ipv6_destopt_rcv,
 *                            ipv6_rthdr_rcv, ipv6_srh_rcv, ipv6_rpl_srh_rcv
 *   net/ipv6/reassembly.c    ipv6_frag_rcv (the queues: path_frag.c)
 *   include/net/ipv6_frag.h  ipv6frag_thdr_truncated
 *   net/ipv6/calipso.c       calipso_validate (with NetLabel, no DOI)
 */
#include "path6_pvt.h"

#define IPV6_TLV_PAD1		 0
#define IPV6_TLV_PADN		 1
#define IPV6_TLV_ROUTERALERT	 5
#define IPV6_TLV_CALIPSO	 7
#define IPV6_TLV_IOAM		 49
#define IPV6_TLV_JUMBO		 194
#define IPV6_MAXPLEN		 65535
#define IP6_DEFAULT_MAX_OPTS_CNT 8
#define IPV6_SRCRT_TYPE_3	 3 /* RPL */
#define IPV6_SRCRT_TYPE_4	 4 /* segment routing */

/* The header at p->th is len bytes long and in the packet (pskb_may_pull). */
static bool
__p6_may_pull(const struct path6_pkt *p, uint32_t len)
{
	return p->th + len <= p->len;
}

/* (hdrlen + 1) * 8 of the header at p->th, or 0 if its first 8 bytes are
 * not there. */
static uint32_t
__p6_optlen(const struct path6_pkt *p)
{
	uint8_t b[2];
	const uint8_t *h = __p6_may_pull(p, 8) ? __p6_read(p, p->th, 2, b) : NULL;

	return h != NULL ? ((uint32_t)h[1] + 1) * 8 : 0;
}

/* ip6_tlvopt_unknown: by the option type's two high bits. */
static bool
__p6_tlvopt_unknown(const struct path6_pkt *p, uint8_t type)
{
	switch (type >> 6) {
	case 0: /* skip */
		return true;
	case 1: /* drop */
		return false;
	case 3: /* ICMP unless to multicast */
		if (__p6_mcast(p->daddr))
			return false;
		/* fall through */
	default: /* 2: ICMP even to multicast */
		__p6_icmp6_send(p, ICMPV6_PARAMPROB, ICMPV6_UNK_OPTION,
				(type & 0xc0) == 0x80);
		return false;
	}
}

/* ipv6_hop_jumbo: true when the jumbo payload length holds (the packet
 * then is that long: p->len trimmed to it). opt: the option, its length
 * byte first checked (the rest is read only when it says 4). */
static bool
__p6_hop_jumbo(struct path6_pkt *p, const uint8_t *opt, uint32_t optoff)
{
	uint8_t b[2];
	const uint8_t *plen = __p6_read(p, 4, 2, b);
	uint32_t jlen;

	if (opt[1] != 4 || (optoff & 3) != 2)
		return false;
	jlen = (uint32_t)opt[2] << 24 | (uint32_t)opt[3] << 16 | (uint32_t)opt[4] << 8 |
	       opt[5];
	if (jlen <= IPV6_MAXPLEN || (plen[0] | plen[1]) != 0) {
		__p6_icmp6_send(p, ICMPV6_PARAMPROB, ICMPV6_HDR_FIELD, false);
		return false;
	}
	if (jlen > p->len - 40)
		return false;
	p->len = jlen + 40; /* pskb_trim_rcsum */
	p->flags |= P6_JUMBOGRAM;
	return true;
}

/* ipv6_hop_calipso: with NetLabel, calipso_validate finds no DOI (a host
 * that does not use CALIPSO) and every option is refused; without, the
 * stub accepts what passes the length checks. */
static bool
__p6_hop_calipso(const struct path6_pkt *p, const uint8_t *opt)
{
	if (opt[1] < 8 || opt[6] * 4u + 8 > opt[1])
		return false;
	return !p->c->netlabel;
}

/*
 * ip6_parse_tlv over the options header at p->th: true if every option
 * passes. Its option handlers and ip6_tlvopt_unknown may send an ICMPv6
 * parameter problem; the caller counts the drop.
 */
static bool
__p6_parse_tlv(struct path6_pkt *p, bool hopbyhop)
{
	uint8_t buf[256 * 8]; /* the longest an options header can be */
	uint32_t hlen = __p6_optlen(p), off = 2, padlen = 0;
	unsigned int tlv_count = 0;
	const uint8_t *h = __p6_read(p, p->th, hlen, buf);

	while (off < hlen) {
		const uint8_t *o = h + off;
		uint32_t optlen, i;

		if (o[0] == IPV6_TLV_PAD1) {
			if (++padlen > 7)
				return false;
			off++;
			continue;
		}
		if (hlen - off < 2)
			return false;
		optlen = o[1] + 2u;
		if (optlen > hlen - off)
			return false;
		if (o[0] == IPV6_TLV_PADN) {
			/* RFC 4942 2.1.9.5: 7 bytes of padding at most, all
			 * zero. */
			padlen += optlen;
			if (padlen > 7)
				return false;
			for (i = 2; i < optlen; i++)
				if (o[i] != 0)
					return false;
			off += optlen;
			continue;
		}
		if (++tlv_count > IP6_DEFAULT_MAX_OPTS_CNT)
			return false;
		if (!hopbyhop) {
			if (!__p6_tlvopt_unknown(p, o[0]))
				return false;
		} else {
			switch (o[0]) {
			case IPV6_TLV_ROUTERALERT: /* ipv6_hop_ra */
				if (o[1] != 2)
					return false;
				break;
			case IPV6_TLV_IOAM: /* ipv6_hop_ioam, ioam6_enabled 0 */
				if ((p->th + off) & 3)
					return false;
				break;
			case IPV6_TLV_JUMBO:
				if (!__p6_hop_jumbo(p, o, p->th + off))
					return false;
				break;
			case IPV6_TLV_CALIPSO:
				if (!__p6_hop_calipso(p, o))
					return false;
				break;
			default:
				if (!__p6_tlvopt_unknown(p, o[0]))
					return false;
				break;
			}
		}
		padlen = 0;
		off += optlen;
	}
	return off == hlen;
}

int
__p6_parse_hopopts(struct path6_pkt *p)
{
	uint32_t extlen = __p6_optlen(p);

	/* pskb_may_pull of the first 8 bytes, then of the whole header */
	if (extlen == 0 || !__p6_may_pull(p, extlen))
		return -1;
	if (!__p6_parse_tlv(p, true))
		return -1;
	p->th += extlen;
	p->nhoff = 40; /* sizeof(struct ipv6hdr) */
	return 0;
}

unsigned int
__p6_destopt_rcv(struct path6_pkt *p)
{
	uint32_t extlen = __p6_optlen(p);

	if (extlen == 0 || !__p6_may_pull(p, extlen) || !__p6_parse_tlv(p, false))
		return __p6_drop(p, MIB_F(IP6, INHDRERRORS));
	p->nhoff = p->th;
	p->th += extlen;
	return P6_RESUBMIT;
}

unsigned int
__p6_rthdr_rcv(struct path6_pkt *p)
{
	uint32_t extlen = __p6_optlen(p);
	uint8_t b[4];
	const uint8_t *h;

	if (extlen == 0 || !__p6_may_pull(p, extlen))
		return __p6_drop(p, MIB_F(IP6, INHDRERRORS));
	if (__p6_mcast(p->daddr) || p->pkt_type != PATH_PKT_HOST)
		return __p6_drop(p, MIB_F(IP6, INADDRERRORS));
	h = __p6_read(p, p->th, 4, b);
	/* ipv6_srh_rcv and ipv6_rpl_srh_rcv: off by default, freed before
	 * anything is counted. */
	if (h[2] == IPV6_SRCRT_TYPE_4 || h[2] == IPV6_SRCRT_TYPE_3)
		return __p6_drop(p, MIB_F(PATH, IP6SEGROUTINGOFF));
	if (h[3] == 0) { /* segments_left: a header to skip */
		p->nhoff = p->th;
		p->th += extlen;
		return P6_RESUBMIT;
	}
	/* unknown_rh: type 0 among them, deprecated (RFC 5095); type 2
	 * without CONFIG_IPV6_MIP6. */
	__p6_inc(p, MIB_F(IP6, INHDRERRORS));
	__p6_icmp6_send(p, ICMPV6_PARAMPROB, ICMPV6_HDR_FIELD, false);
	return MIB_F(IP6, INHDRERRORS);
}

/* ipv6frag_thdr_truncated: the first fragment stops before the upper-layer
 * header's first bytes. */
static bool
__p6_thdr_truncated(const struct path6_pkt *p)
{
	uint8_t b[1], nexthdr = *__p6_read(p, 6, 1, b);
	uint16_t frag_off;
	int off = __p6_skip_exthdr(p, 40, &nexthdr, &frag_off);

	if (off < 0 || (frag_off & 0xfff8))
		return false;
	switch (nexthdr) {
	case NEXTHDR_TCP:
		off += 20;
		break;
	case NEXTHDR_UDP:
		off += 8;
		break;
	case NEXTHDR_ICMP:
		off += 8;
		break;
	default:
		off += 1;
	}
	return (uint32_t)off > p->len;
}

unsigned int
__p6_frag_rcv(struct path6_pkt *p)
{
	struct path_icmp6_answer te = { .verdict = P6_ANSWER_NONE };
	uint8_t b[4], pb[2];
	const uint8_t *h, *plen;
	struct path_dgram d;
	unsigned int f;

	if (p->flags & P6_FRAGMENTED) /* a second fragment header */
		goto fail_hdr;
	__p6_inc(p, MIB_F(IP6, REASMREQDS));
	plen = __p6_read(p, 4, 2, pb);
	if ((plen[0] | plen[1]) == 0) /* a jumbogram cannot be fragmented */
		goto fail_frag_hdr;
	if (!__p6_may_pull(p, 8))
		goto fail_frag_hdr;
	h = __p6_read(p, p->th, 4, b);
	if (((h[2] << 8 | h[3]) & 0xfff9) == 0) { /* IP6_OFFSET | IP6_MF */
		/* Offset 0 and no more fragments: an atomic fragment, the
		 * datagram at once (RFC 6946). */
		__p6_inc(p, MIB_F(IP6, REASMOKS));
		p->nhoff = p->th;
		p->th += 8;
		p->flags |= P6_FRAGMENTED;
		return P6_RESUBMIT;
	}
	/* RFC 8200 4.5: a first fragment without every header up to the
	 * upper-layer one. */
	if (__p6_thdr_truncated(p)) {
		__p6_inc(p, MIB_F(PATH, IP6FRAGHDRERRORS));
		__p6_inc(p, MIB_F(IP6, INHDRERRORS));
		__p6_icmp6_send(p, ICMPV6_PARAMPROB, ICMPV6_HDR_INCOMP, false);
		return MIB_F(IP6, INHDRERRORS);
	}
	/* The time exceeded its queue would send on expiry if this is the
	 * first fragment (ip6frag_expire_frag_queue: icmpv6_send(head)). */
	if (((h[2] << 8 | h[3]) & 0xfff8) == 0)
		te = __p6_icmp6_answer(p, ICMPV6_TIME_EXCEED, ICMPV6_EXC_FRAGTIME, false);
	/* fq_find and ip6_frag_queue, in the worker's queues */
	f = __path_ipv6_defrag(p->frag, p->m, p->nh, p->len, p->th, p->nhoff, p->pkt_type,
			       &te, p->mib, &d);
	if (f == MIB_F(IP6, INHDRERRORS)) {
		__p6_inc(p, MIB_F(PATH, IP6FRAGHDRERRORS));
		__p6_inc(p, f);
		__p6_icmp6_send(p, ICMPV6_PARAMPROB, ICMPV6_HDR_FIELD, false);
		return f;
	}
	if (f != 0)
		return f;
	/* ip6_frag_reasm's datagram goes on in the fragment's place */
	p->m = d.m;
	p->nh = 0;
	p->len = d.len;
	p->th = d.hl;
	p->nhoff = d.nhoff;
	p->pkt_type = d.pkt_type;
	p->hop_limit = *__p6_read(p, 7, 1, b);
	p->flags |= P6_FRAGMENTED;
	return P6_RESUBMIT;
fail_frag_hdr: /* after ReasmReqds: the reassembly law's fourth term */
	__p6_inc(p, MIB_F(PATH, IP6FRAGHDRERRORS));
fail_hdr:
	__p6_inc(p, MIB_F(IP6, INHDRERRORS));
	__p6_icmp6_send(p, ICMPV6_PARAMPROB, ICMPV6_HDR_FIELD, false);
	return MIB_F(IP6, INHDRERRORS);
}
