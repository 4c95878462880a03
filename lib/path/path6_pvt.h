/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_PATH6_PVT_H
#define PKTPATH_PATH6_PVT_H

/*
 * Internal to lib/path: what the IPv6 receive path's files share (path6.c:
 * ipv6_rcv to the protocol handlers; path6_exthdrs.c: the extension
 * headers; path6_l4.c: UDP, TCP and ICMPv6 over IPv6; path6_out.c: what
 * the host would send in answer, and the addresses and routes it decides
 * with). Not for other modules.
 *
 * One struct path6_pkt follows a packet through the stages as Linux's skb
 * and IP6CB do: where its IPv6 header is, how long it is since the trim to
 * its payload length (skb->len from the network header), where the header
 * being processed is (the transport header), and the offset of the byte
 * that named it (IP6CB nhoff).
 *
 * References are to Linux 6.18 (net/ipv6/ unless said otherwise).
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_mbuf.h>

#include "mib.h"
#include "path.h"

#define NEXTHDR_HOP	 0
#define NEXTHDR_TCP	 6
#define NEXTHDR_UDP	 17
#define NEXTHDR_ROUTING	 43
#define NEXTHDR_FRAGMENT 44
#define NEXTHDR_AUTH	 51
#define NEXTHDR_ICMP	 58
#define NEXTHDR_NONE	 59
#define NEXTHDR_DEST	 60
#define NEXTHDR_PIM	 103
#define NEXTHDR_UDPLITE	 136

#define ICMPV6_DEST_UNREACH	      1
#define ICMPV6_PKT_TOOBIG	      2
#define ICMPV6_TIME_EXCEED	      3
#define ICMPV6_PARAMPROB	      4
#define ICMPV6_ECHO_REQUEST	      128
#define ICMPV6_ECHO_REPLY	      129
#define NDISC_NEIGHBOUR_SOLICITATION  135
#define NDISC_NEIGHBOUR_ADVERTISEMENT 136

/* ICMPV6_DEST_UNREACH codes */
#define ICMPV6_NOROUTE	    0
#define ICMPV6_PORT_UNREACH 4
/* ICMPV6_TIME_EXCEED codes */
#define ICMPV6_EXC_FRAGTIME 1
/* ICMPV6_PARAMPROB codes */
#define ICMPV6_HDR_FIELD    0
#define ICMPV6_UNK_NEXTHDR  1
#define ICMPV6_UNK_OPTION   2
#define ICMPV6_HDR_INCOMP   3

/* IP6CB flags pktpath follows */
#define P6_FRAGMENTED 0x1 /* IP6SKB_FRAGMENTED: a fragment header was taken */
#define P6_JUMBOGRAM  0x2 /* IP6SKB_JUMBOGRAM */

/* Route types of ip6_route_input's answer (the dst's input). */
enum rt6_type {
	RT6_LOCAL,     /* ip6_input: a local address */
	RT6_MULTICAST, /* ip6_mc_input: ff00::/8 */
	RT6_FORWARD,   /* ip6_forward: an on-link prefix, not local */
	RT6_NOROUTE,   /* ip6_pkt_discard: ip6_null_entry */
};

/* A packet on the IPv6 path: skb and IP6CB, as far as the counters need. */
struct path6_pkt {
	const struct path_conf *c;
	const struct rte_mbuf *m;
	struct mib_block *mib;
	struct path_tally *t;
	struct path_frag *frag; /* the worker's reassembly queues, or NULL */
	uint32_t nh;	/* skb_network_header: offset of the IPv6 header in m */
	uint32_t len;	/* skb->len from the network header (trimmed) */
	uint32_t th;	/* skb_transport_header, from the network header */
	uint32_t nhoff; /* IP6CB nhoff: the byte naming the header at th */
	uint8_t saddr[16];
	uint8_t daddr[16];
	uint8_t pkt_type; /* enum path_pkt_type */
	uint8_t hop_limit;
	uint8_t rt;    /* enum rt6_type */
	uint8_t flags; /* P6_* */
};

/* ---- addresses (path6_out.c keeps the host's, as addrconf does) ---- */

static inline bool
__p6_mcast(const uint8_t *a)
{
	return a[0] == 0xff;
}
/* IPV6_ADDR_MC_SCOPE */
static inline unsigned int
__p6_mc_scope(const uint8_t *a)
{
	return a[1] & 0xf;
}

static inline bool
__p6_any(const uint8_t *a)
{
	static const uint8_t zero[16];

	return memcmp(a, zero, 16) == 0;
}

static inline bool
__p6_loopback(const uint8_t *a)
{
	static const uint8_t lo[16] = { [15] = 1 };

	return memcmp(a, lo, 16) == 0;
}

/* The port's link-local address: fe80::/64 with the EUI-64 of its MAC
 * (addrconf_ifid_eui48, addr_gen_mode eui64). */
void __p6_link_local(const struct path_conf *c, uint8_t out[16]);

/* a is one of the port's addresses (ipv6_chk_addr): a --local6 one or its
 * link-local one. Inline: every packet to the host asks (ip6_route_input),
 * and out of line it was a call, a stack copy of the link-local address
 * and two memcmp calls for 22 instructions a packet (callgrind); the
 * link-local address is made only for an address in fe80::/16. */
static inline bool
__p6_is_local(const struct path_conf *c, const uint8_t *a)
{
	uint8_t ll[16];
	unsigned int i;

	for (i = 0; i < c->n_local6; i++)
		if (memcmp(c->local6[i].addr, a, 16) == 0)
			return true;
	if (a[0] != 0xfe || a[1] != 0x80)
		return false;
	__p6_link_local(c, ll);
	return memcmp(ll, a, 16) == 0;
}

/* The port has joined group g (ipv6_chk_mcast_addr): ff02::1, ff01::1,
 * the solicited-node group of each of its addresses, --mcast6. */
bool __p6_mc_joined(const struct path_conf *c, const uint8_t *g);
/* ip6_route_output to a: an on-link prefix of the port (fe80::/64 and the
 * --local6 ones), or a local address (through lo); with no default route,
 * nothing else. *loopback: the route is a local one. */
bool __p6_route_out(const struct path_conf *c, const uint8_t *a, bool *loopback);

/* A socket is bound to port (the --udp-ports or --udplite-ports bitmap). */
static inline bool
__p6_port_open(const uint64_t *bitmap, uint16_t port)
{
	return (bitmap[port / 64] >> (port % 64)) & 1;
}

/* ---- counting ---- */

static inline void
__p6_inc(const struct path6_pkt *p, unsigned int f)
{
	mib_inc(p->mib, f);
}

static inline void
__p6_add(const struct path6_pkt *p, unsigned int f, uint64_t v)
{
	mib_add(p->mib, f, v);
}

static inline unsigned int
__p6_drop(const struct path6_pkt *p, unsigned int f)
{
	__p6_inc(p, f);
	return f;
}

/* Bytes of m at off (len <= sizeof(*buf)), or NULL beyond the packet's
 * len bytes from its network header. */
static inline const uint8_t *
__p6_read(const struct path6_pkt *p, uint32_t off, uint32_t len, void *buf)
{
	if (off + len > p->len || off + len < off)
		return NULL;
	return rte_pktmbuf_read(p->m, p->nh + off, len, buf);
}

/* ---- the stages ---- */

/* The answer of __p6_udp_fast() that it did not take the packet. */
#define P6_FULL_PATH MIB_FIELD_MAX

/* path6.c: ipv6_rcv for the common case alone, a UDP datagram with no
 * extension header to one of the port's unicast addresses, a listener on
 * its port and a right checksum, in one segment: its terminal (Udp6
 * InDatagrams) with what the full path tallies for it in t (Ip6
 * InReceives, InOctets, the ECN field's counter, InDelivers, Udp6
 * InDatagrams); for anything else P6_FULL_PATH, having counted nothing,
 * and __p6_rcv_full() decides. __path_ipv6_rcv() is the one and then the
 * other; both are here for test_path6_fast.c, which holds them to the
 * same verdict and the same counters. */
unsigned int __p6_udp_fast(const struct path_conf *c, const struct rte_mbuf *m,
			   uint32_t nh, struct path_tally *t);
/* The whole of ipv6_rcv (path6.c), whatever the packet. */
unsigned int __p6_rcv_full(const struct path_conf *c, const struct rte_mbuf *m,
			   const struct path_l2 *l2, struct mib_block *mib,
			   struct path_tally *t, struct path_frag *fr);

/* path6_exthdrs.c */
/* ipv6_parse_hopopts: 0, or -1 (ip6_rcv_core counts InHdrErrors). */
int __p6_parse_hopopts(struct path6_pkt *p);
/* The extension header handlers of inet6_protos[], as
 * ip6_protocol_deliver_rcu calls them at p->th: P6_RESUBMIT (their 1:
 * p->th and p->nhoff moved past the header), or the terminal they counted
 * (their -1). */
#define P6_RESUBMIT MIB_FIELD_MAX
unsigned int __p6_destopt_rcv(struct path6_pkt *p);
unsigned int __p6_rthdr_rcv(struct path6_pkt *p);
unsigned int __p6_frag_rcv(struct path6_pkt *p);

/* path6_exthdrs_core.c */
/* ipv6_skip_exthdr over the packet from start (an offset from the network
 * header) with next header *nexthdr: the upper-layer header's offset, or
 * -1; *frag_off is the fragment header's offset field (host order),
 * 0 if none. Stops at a non-first fragment (nexthdr 44). */
int __p6_skip_exthdr(const struct path6_pkt *p, uint32_t start, uint8_t *nexthdr,
		     uint16_t *frag_off);

/* path6_l4.c: the final protocols; each returns its terminal. */
unsigned int __p6_udp_rcv(struct path6_pkt *p, uint8_t proto);
unsigned int __p6_tcp_rcv(struct path6_pkt *p);
unsigned int __p6_icmp_rcv(struct path6_pkt *p);

/* path6_out.c: what the host would send. */
/* icmp6_send(skb, type, code, info) for p, after its rules and rate limits
 * (net.ipv6.icmp.ratelimit 0, no global limit). opt_unrec: a parameter
 * problem for an unrecognised option whose type says "send even to
 * multicast" (opt_unrec()). */
void __p6_icmp6_send(const struct path6_pkt *p, uint8_t type, uint8_t code,
		     bool opt_unrec);
/* What __p6_icmp6_send(p, ...) counts, decided and not counted. */
struct path_icmp6_answer __p6_icmp6_answer(const struct path6_pkt *p, uint8_t type,
					   uint8_t code, bool opt_unrec);
/* icmpv6_echo_reply for an echo request of icmp_len bytes. */
void __p6_echo_reply(const struct path6_pkt *p, uint32_t icmp_len);
/* ndisc_send_na: a neighbour advertisement of len bytes (IPv6 header
 * included) to dst (multicast: ff02::1 for DAD). */
void __p6_send_na(const struct path6_pkt *p, uint32_t len, bool mcast);
/* tcp_v6_send_reset, without a socket. */
void __p6_send_reset(const struct path6_pkt *p);

#endif /* PKTPATH_PATH6_PVT_H */
