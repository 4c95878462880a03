/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_PATH_INLINE_H
#define PKTPATH_PATH_INLINE_H

/*
 * The per-packet stages of the receive path, inline: path_l2(), the IP
 * layer of path_rcv() (ip_rcv_core, the route, ip_local_deliver) and the
 * UDP / UDP-Lite handler, which every frame of the generator's default
 * traffic runs through. Included by path.h, whose API it implements; not
 * to be included directly. The rarely taken stages (IP options, TCP, ICMP)
 * stay out of line in path.c and path_l4.c, called from here.
 *
 * References are to Linux 6.18:
 *   net/core/dev.c           __netif_receive_skb_core (VLAN tags)
 *   net/core/skbuff.c        skb_vlan_untag
 *   net/8021q/vlan_core.c    vlan_do_receive
 *   include/linux/if_vlan.h  vlan_find_dev, eth_type_vlan
 *   net/ethernet/eth.c       eth_type_trans
 *   net/ipv4/ip_input.c      ip_rcv_core, ip_rcv_finish_core, ip_local_deliver,
 *                            ip_protocol_deliver_rcu
 *   net/ipv4/route.c         ip_route_input_rcu, ip_route_input_slow, ip_error
 *   net/ipv4/fib_frontend.c  fib_validate_source (rp_filter=0)
 *   net/ipv4/udp.c           __udp4_lib_rcv, udp4_csum_init,
 *                            __udp4_lib_mcast_deliver
 *   include/net/udplite.h    udplite_checksum_init (UDP-Lite coverage)
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "mib.h"
#include "path.h"
#include "path_csum.h"
#include "peer.h"

#define PATH_ETH_P_IP		0x0800
#define PATH_ETH_P_IPV6		0x86dd
#define PATH_ETH_P_8021Q	0x8100
#define PATH_ETH_P_8021AD	0x88a8

#define PATH_IPPROTO_PIM	103
#define PATH_IPPROTO_UDPLITE	136

#define PATH_IP_MF		0x2000
#define PATH_IP_OFFSET		0x1fff

#define PATH_INADDR_LOOPBACK	UINT32_C(0x7f000001)

/* include/linux/skbuff.h: datagrams up to this length are verified when the
 * checksum is initialised, longer ones when a socket or the no-socket path
 * needs it. */
#define PATH_CHECKSUM_BREAK	76

/* Route types, as rtable->rt_type. */
enum rt_type { RT_LOCAL, RT_BROADCAST, RT_MULTICAST, RT_UNREACHABLE };

/* What the L4 handlers need of the IP layer. */
struct path_l4_ctx {
	uint32_t off;		/* L4 header offset in the mbuf */
	uint32_t len;		/* L4 length after ip_rcv's trim to tot_len */
	uint32_t saddr, daddr;	/* host order */
	enum rt_type rt;
	uint8_t pkt_type;	/* enum path_pkt_type */
};

/* ---- the out-of-line stages (path.c, path_l4.c) ---- */

/* __ip_options_compile for a received packet: 0 if valid, -1 on a malformed
 * option; *srr set if a source route option is present. */
int __path_ip_options(const struct path_conf *c, const uint8_t *opt,
		      unsigned int l, bool *srr);
/* tcp_v4_rcv and icmp_rcv; each returns its terminal. */
unsigned int __path_tcp_rcv(const struct path_conf *c, const struct rte_mbuf *m,
			    const struct path_l4_ctx *x,
			    struct mib_block *mib);
unsigned int __path_icmp_rcv(const struct path_conf *c, const struct rte_mbuf *m,
			     const struct path_l4_ctx *x, struct mib_block *mib);
/* tcp_parse_auth_options (CONFIG_TCP_MD5SIG, no TCP-AO) over a TCP
 * header's n option bytes: true if fit for a reset (path_l4.c). */
bool __path_tcp_auth_ok(const uint8_t *opt, int n);
/* The IPv6 path (path6.c): ipv6_rcv for a frame not to another host; its
 * tallied counters go to t. Out of line: the IPv4 path's code stays as it
 * was. */
unsigned int __path_ipv6_rcv(const struct path_conf *c, const struct rte_mbuf *m,
			     const struct path_l2 *l2, struct mib_block *mib,
			     struct path_tally *t, struct path_frag *fr);
/* A datagram ip_defrag reassembled: in f->dgram at 0, its header (that of
 * its first fragment) hl bytes, tot_len len, the first fragment's packet
 * type. */
struct path_dgram {
	const struct rte_mbuf *m;
	uint32_t hl, len;
	uint32_t nhoff; /* IPv6: the byte naming the header at hl (IP6CB nhoff) */
	uint8_t pkt_type;
};
/* ip_defrag (path_frag.c) for a fragment of len bytes (tot_len) at off in
 * m, its header iph (hl bytes): 0 with *d when it completed a datagram,
 * else its terminal (Path IpFragQueued or IpFragDropped). f may be NULL. */
unsigned int __path_ip_defrag(struct path_frag *f, const struct rte_mbuf *m, uint32_t off,
			      uint32_t len, const uint8_t *iph, uint32_t hl,
			      uint8_t pkt_type, struct mib_block *mib,
			      struct path_dgram *d);
/* What icmp6_send would count for one message, decided when its cause was
 * received (path6_out.c: __p6_icmp6_answer) and counted then or later (a
 * reassembly queue's time exceeded, when its timer fires: path_frag.c).
 * The decision depends on nothing that changes in between: the packet,
 * the host's addresses and routes. */
enum path_icmp6_verdict {
	P6_ANSWER_NONE,	     /* not sent, nothing counted */
	P6_ANSWER_SEND,	     /* sent: Icmp6MsgOutType, OutMsgs, the Ip6 Out* */
	P6_ANSWER_NOROUTE,   /* ip6_dst_lookup failed: Ip6 OutNoRoutes */
	P6_ANSWER_RATELIMIT, /* icmpv6_xrlim_allow's lookup failed: Ip6
			      * OutNoRoutes and Icmp6 OutRateLimitHost */
	/* the rate limits' (__path_icmp6_rlim), from SEND or RATELIMIT: */
	P6_ANSWER_GLOBAL, /* icmpv6_global_allow: Icmp OutRateLimitGlobal */
	P6_ANSWER_HOST,	  /* inet_peer_xrlim_allow: Icmp6 OutRateLimitHost */
};
struct path_icmp6_answer {
	uint8_t verdict; /* enum path_icmp6_verdict */
	uint8_t type;	 /* the ICMPv6 type */
	uint16_t len;	 /* the message's bytes, its IPv6 header included */
	uint8_t lo;	 /* the route back is the host's own (loopback) */
};

/* icmpv6_global_allow and icmpv6_xrlim_allow's limits (path6_out.c) for
 * answer a to destination dst at clock now: a SEND or RATELIMIT of a
 * type in the ratemask may become GLOBAL or HOST. Nothing with r's limits
 * off. Single writer: r's owner. */
void __path_icmp6_rlim(struct path_rlim *r, uint64_t now, struct path_icmp6_answer *a,
		       const uint8_t dst[16]);

/* Count answer a in mib as icmp6_send does (a no-op for P6_ANSWER_NONE).
 * Single writer: mib's owner. */
static inline void
__path_icmp6_count(struct mib_block *mib, const struct path_icmp6_answer *a)
{
	switch (a->verdict) {
	case P6_ANSWER_SEND:
		/* icmpv6_push_pending_frames: ICMP6MSGOUT_INC_STATS, OutMsgs;
		 * ip6_local_out and ip6_output: OutRequests, OutOctets,
		 * OutTransmits (a unicast destination) */
		mib_inc(mib, MIB_ICMP6MSG_OUT(a->type));
		mib_inc(mib, MIB_F(ICMP6, OUTMSGS));
		mib_inc(mib, MIB_F(IP6, OUTREQUESTS));
		mib_add(mib, MIB_F(IP6, OUTOCTETS), a->len);
		mib_inc(mib, MIB_F(IP6, OUTTRANSMITS));
		break;
	case P6_ANSWER_RATELIMIT:
		mib_inc(mib, MIB_F(ICMP6, OUTRATELIMITHOST));
		/* fall through */
	case P6_ANSWER_NOROUTE:
		mib_inc(mib, MIB_F(IP6, OUTNOROUTES));
		break;
	case P6_ANSWER_GLOBAL:
		mib_inc(mib, MIB_F(ICMP, OUTRATELIMITGLOBAL));
		break;
	case P6_ANSWER_HOST:
		mib_inc(mib, MIB_F(ICMP6, OUTRATELIMITHOST));
		break;
	default:
		break;
	}
}

/* ip6_frag_queue (path_frag.c) for the IPv6 packet at nh in m, len bytes
 * (40 + payload_len), whose fragment header is at fh from nh and named by
 * the byte at nhoff: 0 with *d when it completed a datagram (its upper-layer
 * header at d->hl, named at d->nhoff), else its terminal, counted (Path
 * Ip6FragQueued or Ip6FragDropped), or Ip6 InHdrErrors NOT counted: the
 * parameter problem ip6_frag_queue asks of ipv6_frag_rcv. f may be NULL.
 * te: the time exceeded (ICMPV6_EXC_FRAGTIME) icmp6_send would count for
 * this packet, kept with its queue when it is the first fragment and
 * counted if the queue times out with it (ip6frag_expire_frag_queue). */
unsigned int __path_ipv6_defrag(struct path_frag *f, const struct rte_mbuf *m,
				uint32_t nh, uint32_t len, uint32_t fh, uint32_t nhoff,
				uint8_t pkt_type, const struct path_icmp6_answer *te,
				struct mib_block *mib, struct path_dgram *d);
/* path_tally_flush()'s IPv6 half (path6.c). */
void __path6_tally_flush(struct path_tally *t, struct mib_block *mib);

/* ---- helpers ---- */

/* rte_pktmbuf_read() with its fast path always inline: GCC compiles DPDK's
 * static inline out of line, a call per read, once a unit has grown past
 * its inlining budget (the worker's, with its loop variants). */
static __rte_always_inline const void *
__path_read(const struct rte_mbuf *m, uint32_t off, uint32_t len, void *buf)
{
	if (likely(off + len <= rte_pktmbuf_data_len(m)))
		return rte_pktmbuf_mtod_offset(m, const char *, off);
	return __rte_pktmbuf_read(m, off, len, buf);
}

static __rte_always_inline unsigned int
__path_drop(struct mib_block *mib, unsigned int f)
{
	mib_inc(mib, f);
	return f;
}

static inline bool
__path_port_open(const uint64_t *bitmap, uint16_t port)
{
	return (bitmap[port / 64] >> (port % 64)) & 1;
}

static inline bool __path_ipv4_mcast(uint32_t a) { return (a & 0xf0000000) == 0xe0000000; }
static inline bool __path_ipv4_lbcast(uint32_t a) { return a == 0xffffffff; }
/* Since Linux 5.3 (96125bf9985a, "Allow 0.0.0.0/8 as a valid address
 * range") only 0.0.0.0 itself is a zero address. */
static inline bool __path_ipv4_zeronet(uint32_t a) { return a == 0; }
static inline bool __path_ipv4_loopback(uint32_t a) { return (a & 0xff000000) == 0x7f000000; }
static inline bool __path_ipv4_local_mcast(uint32_t a) { return (a & 0xffffff00) == 0xe0000000; }

static inline uint32_t
__path_prefix_mask(uint8_t len)
{
	return len == 0 ? 0 : ~UINT32_C(0) << (32 - len);
}

static inline bool
__path_is_local(const struct path_conf *c, uint32_t a)
{
	unsigned int i;

	for (i = 0; i < c->n_local; i++)
		if (c->local[i].addr == a)
			return true;
	return false;
}

/* Directed broadcast of a local subnet (Linux adds "broadcast" routes for
 * the all-ones host address of every prefix shorter than /31). */
static inline bool
__path_is_subnet_bcast(const struct path_conf *c, uint32_t a)
{
	unsigned int i;

	for (i = 0; i < c->n_local; i++) {
		uint32_t mask = __path_prefix_mask(c->local[i].prefix_len);

		if (c->local[i].prefix_len < 31 &&
		    a == ((c->local[i].addr & mask) | ~mask))
			return true;
	}
	return false;
}

static inline bool
__path_mc_joined(const struct path_conf *c, uint32_t g)
{
	unsigned int i;

	for (i = 0; i < c->n_mcast; i++)
		if (c->mcast[i] == g)
			return true;
	return false;
}

/* fib_validate_source with rp_filter=0 and accept_local=0: a source that is
 * one of the host's own addresses (inet_lookup_ifaddr_rcu: the local ones and
 * lo's 127.0.0.1) is martian. */
static inline bool
__path_source_ok(const struct path_conf *c, uint32_t saddr)
{
	return !__path_is_local(c, saddr) && saddr != PATH_INADDR_LOOPBACK;
}

/* ---- VLAN devices ---- */

/* A VLAN device's key in struct path_vlans: the TPID bit (802.1ad) and the
 * VID, as vlan_find_dev() indexes vlan_group by vlan_proto_idx() and VID. */
static inline uint16_t
__path_vlan_key(uint16_t tpid, uint16_t vid)
{
	return (uint16_t)((tpid == PATH_ETH_P_8021AD) << 12 | vid);
}

/* The key of a device (inner) on a VLAN device of the port (outer). */
static inline uint32_t
__path_vlan_qinq_key(uint16_t outer, uint16_t inner)
{
	return (uint32_t)outer << 13 | inner;
}

/*
 * vlan_find_dev(dev, proto, vid): has the device the frame is on (the port
 * at depth 0, else the VLAN device of key outer) a VLAN device for key?
 * VID 0 and 4095 never have one (path_vlans_add refuses them).
 */
static __rte_always_inline bool
__path_vlan_dev(const struct path_vlans *v, unsigned int depth, uint16_t outer,
		uint16_t key)
{
	uint32_t k;
	unsigned int lo = 0, hi;

	if (depth == 0)
		return (v->port[key >> 12][(key & 0xfff) / 64] >> (key % 64)) & 1;
	if (depth > 1)
		return false;
	k = __path_vlan_qinq_key(outer, key);
	hi = v->n_qinq;
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (v->qinq[mid] == k)
			return true;
		if (v->qinq[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* ---- the burst tally ---- */

static inline void
path_tally_init(struct path_tally *t)
{
	memset(t, 0, sizeof(*t));
}

/* Each field is emptied where it is added, the rare ones inside the test
 * that guards them (which only sees them non-zero when they are): a
 * memset of the whole tally every burst was a rep stos of 11 words,
 * callgrind's 0.4 instructions a packet. The IPv6 fields are non-zero
 * only in a burst that counted Ip6 InReceives. */
static __rte_always_inline void
path_tally_flush(struct path_tally *t, struct mib_block *mib)
{
	mib_add(mib, MIB_F(IP, INRECEIVES), t->in_receives);
	mib_add(mib, MIB_F(IPEXT, INOCTETS), t->in_octets);
	mib_add(mib, MIB_F(IPEXT, INNOECTPKTS), t->ecn[0]);
	if (unlikely((t->ecn[1] | t->ecn[2] | t->ecn[3]) != 0)) {
		mib_add(mib, MIB_F(IPEXT, INECT1PKTS), t->ecn[1]);
		mib_add(mib, MIB_F(IPEXT, INECT0PKTS), t->ecn[2]);
		mib_add(mib, MIB_F(IPEXT, INCEPKTS), t->ecn[3]);
		t->ecn[1] = t->ecn[2] = t->ecn[3] = 0;
	}
	mib_add(mib, MIB_F(IP, INDELIVERS), t->in_delivers);
	mib_add(mib, MIB_F(UDP, INDATAGRAMS), t->udp_delivered[0]);
	if (unlikely(t->udp_delivered[1] != 0)) {
		mib_add(mib, MIB_F(UDPLITE, INDATAGRAMS), t->udp_delivered[1]);
		t->udp_delivered[1] = 0;
	}
	if (unlikely((t->peer_hits | t->peer_misses) != 0)) {
		mib_add(mib, MIB_F(PEER, LOOKUPS), t->peer_hits + t->peer_misses);
		mib_add(mib, MIB_F(PEER, HITS), t->peer_hits);
		mib_add(mib, MIB_F(PEER, MISSES), t->peer_misses);
		mib_add(mib, MIB_F(PEER, GETS), t->peer_hits);
		mib_add(mib, MIB_F(PEER, PUTS), t->peer_hits);
		t->peer_hits = t->peer_misses = 0;
	}
	if (unlikely(t->in6_receives != 0)) {
		__path6_tally_flush(t, mib);
		memset(&t->in6_receives, 0,
		       sizeof(*t) - offsetof(struct path_tally, in6_receives));
	}
	t->in_octets = 0;
	t->in_receives = t->in_delivers = t->ecn[0] = t->udp_delivered[0] = 0;
}

/* ---- L2 ---- */

static __rte_always_inline void
path_l2(const struct path_conf *c, const struct rte_mbuf *m,
	struct path_l2 *l2, struct mib_block *mib)
{
	uint8_t buf[RTE_ETHER_HDR_LEN + 4];
	const uint8_t *p;
	uint32_t len = rte_pktmbuf_pkt_len(m);
	uint16_t et, dev = 0;	/* the key of the VLAN device that has it, if any */

	memset(l2, 0, sizeof(*l2));
	if (unlikely(len < RTE_ETHER_HDR_LEN)) {
		/* eth_type_trans cannot even pull the header. */
		l2->runt = 1;
		l2->pkt_type = PATH_PKT_OTHERHOST;
		mib_inc(mib, MIB_F(RX, RUNTS));
		return;
	}
	p = __path_read(m, 0, RTE_MIN(len, (uint32_t)sizeof(buf)), buf);

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
	/*
	 * __netif_receive_skb_core's rounds: skb_vlan_untag takes the outer
	 * tag; vlan_do_receive hands the frame to the VLAN device of its TPID
	 * and VID on the device that has it, if there is one, and a round
	 * begins on that device (its MAC is the port's, so pkt_type stays);
	 * if there is none, check_vlan_id strips a VID-0 (priority) tag and
	 * looks at the tag behind it the same way, and makes the frame
	 * PACKET_OTHERHOST for any other VID, its ethertype then the header
	 * after that tag, whatever it is (a further tag has no handler).
	 */
	while (unlikely(et == PATH_ETH_P_8021Q || et == PATH_ETH_P_8021AD)) {
		uint8_t tag[4];
		const uint8_t *t;
		uint16_t tci, key;

		if (len < l2->l3_off + 4u + 2u) {	/* pskb_may_pull: freed */
			l2->runt = 1;
			mib_inc(mib, MIB_F(RX, RUNTS));
			if (l2->tags > 0)
				mib_inc(mib, MIB_F(RX, VLAN));
			return;
		}
		t = __path_read(m, l2->l3_off, 4, tag);
		tci = (uint16_t)(t[0] << 8 | t[1]);
		key = __path_vlan_key(et, tci & 0xfff);
		et = (uint16_t)(t[2] << 8 | t[3]);
		l2->l3_off += 4;
		l2->tags++;
		if (unlikely(__path_vlan_dev(&c->vlan, l2->vlan, dev, key))) {
			dev = key;
			l2->vlan++;
			l2->vlan_tci = tci;
			continue;
		}
		if ((tci & 0xfff) == 0)
			continue;
		l2->pkt_type = PATH_PKT_OTHERHOST;
		mib_inc(mib, MIB_F(RX, VLANNODEVICE));
		break;
	}
	if (unlikely(l2->tags > 0))
		mib_inc(mib, MIB_F(RX, VLAN));
	l2->ethertype = et;
}

/* ---- the route ---- */

/*
 * ip_route_input_rcu / ip_route_input_mc / ip_route_input_slow.
 * Returns 0 and the route type, or the Path counter of a failed route.
 */
static __rte_always_inline unsigned int
__path_route_input(const struct path_conf *c, uint32_t saddr, uint32_t daddr,
		   uint8_t proto, enum rt_type *rt)
{
	if (__path_ipv4_mcast(daddr)) {
		if (!__path_mc_joined(c, daddr))
			return MIB_F(PATH, IPMCASTNOTJOINED);
		/* ip_route_input_mc -> ip_mc_validate_source */
		if (__path_ipv4_mcast(saddr) || __path_ipv4_lbcast(saddr) ||
		    __path_ipv4_loopback(saddr))
			return MIB_F(PATH, IPINVALIDSOURCE);
		if (__path_ipv4_zeronet(saddr)) {
			if (!__path_ipv4_local_mcast(daddr) &&
			    proto != IPPROTO_IGMP)
				return MIB_F(PATH, IPINVALIDSOURCE);
		} else if (!__path_source_ok(c, saddr)) {
			return MIB_F(PATH, IPINVALIDSOURCE);
		}
		*rt = RT_MULTICAST;
		return 0;
	}
	/* ip_route_input_slow */
	if (__path_ipv4_mcast(saddr) || __path_ipv4_lbcast(saddr))
		return MIB_F(PATH, IPINVALIDSOURCE);
	if (__path_ipv4_lbcast(daddr) || (saddr == 0 && daddr == 0))
		goto brd_input;
	if (__path_ipv4_zeronet(saddr))
		return MIB_F(PATH, IPINVALIDSOURCE);
	if (__path_ipv4_zeronet(daddr))
		return MIB_F(PATH, IPINVALIDDEST);
	if (__path_ipv4_loopback(daddr))	/* route_localnet=0 */
		return MIB_F(PATH, IPINVALIDDEST);
	if (__path_ipv4_loopback(saddr))
		return MIB_F(PATH, IPINVALIDSOURCE);
	if (__path_is_local(c, daddr)) {
		if (!__path_source_ok(c, saddr))
			return MIB_F(PATH, IPINVALIDSOURCE);
		*rt = RT_LOCAL;
		return 0;
	}
	if (__path_is_subnet_bcast(c, daddr))
		goto brd_input;
	/* No route, or a route elsewhere with forwarding off: -EHOSTUNREACH,
	 * the dst's input becomes ip_error. */
	*rt = RT_UNREACHABLE;
	return 0;
brd_input:
	if (saddr != 0 && !__path_source_ok(c, saddr))
		return MIB_F(PATH, IPINVALIDSOURCE);
	*rt = RT_BROADCAST;
	return 0;
}

/* ---- checksums ---- */

/* Internet checksum of the pseudo header plus len bytes of m at off; the
 * folded sum is 0xffff when the packet's checksum is right. */
static inline uint16_t
__path_l4_sum(const struct rte_mbuf *m, uint32_t off, uint32_t len,
	      uint32_t pseudo_len, uint32_t saddr, uint32_t daddr, uint8_t proto)
{
	/* The pseudo header in wire order, summed the way rte_raw_cksum sums
	 * the segment, so that both halves are in the same byte order. */
	uint8_t ph[12] = {
		(uint8_t)(saddr >> 24), (uint8_t)(saddr >> 16),
		(uint8_t)(saddr >> 8), (uint8_t)saddr,
		(uint8_t)(daddr >> 24), (uint8_t)(daddr >> 16),
		(uint8_t)(daddr >> 8), (uint8_t)daddr,
		0, proto, (uint8_t)(pseudo_len >> 8), (uint8_t)pseudo_len,
	};
	uint16_t raw = 0;
	uint32_t sum;

	/* Not rte_raw_cksum_mbuf(): it loses carries (path_csum.h). */
	if (path_csum_raw_mbuf(m, off, len, &raw) != 0)
		return 0;
	sum = (uint32_t)raw + rte_raw_cksum(ph, sizeof(ph));
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/*
 * The L4 checksum of len bytes at off with the pseudo header (pseudo_len is
 * the length the pseudo header carries: UDP-Lite covers fewer bytes than
 * it declares). True when right, when the PMD verified it and --rx-csum hw
 * trusts that (CHECKSUM_UNNECESSARY), or when the field at off + field
 * holds a partial checksum the sender's kernel left to the device
 * (path_csum.h). The one place TCP and UDP checksums are decided.
 */
static inline bool
__path_l4_csum_ok(const struct path_conf *c, const struct rte_mbuf *m,
		  uint32_t off, uint32_t len, uint32_t pseudo_len,
		  uint32_t saddr, uint32_t daddr, uint8_t proto, uint32_t field)
{
	/* The PMD verified it and --rx-csum hw trusts it (path_csum.h). */
	if (path_csum_l4_trusted(c, m))
		return true;
	if (__path_l4_sum(m, off, len, pseudo_len, saddr, daddr, proto) == 0xffff)
		return true;
	/* Left for the device by the sender's kernel (CHECKSUM_PARTIAL). */
	return path_csum_partial(c, m, off + field, saddr, daddr, proto,
				 pseudo_len);
}

/* ---- UDP and UDP-Lite ---- */

/* The UDP and UDP-Lite groups have the same layout. */
static inline unsigned int
__path_udp_f(uint8_t proto, unsigned int udp_field)
{
	return proto == PATH_IPPROTO_UDPLITE ?
		udp_field - MIB_BASE_UDP + MIB_BASE_UDPLITE : udp_field;
}

/* __udp4_lib_rcv(skb, table, proto) for IPPROTO_UDP and IPPROTO_UDPLITE; a
 * delivery is tallied in t. */
static __rte_always_inline unsigned int
__path_udp_rcv(const struct path_conf *c, const struct rte_mbuf *m,
	       const struct path_l4_ctx *x, uint8_t proto, struct mib_block *mib,
	       struct path_tally *t)
{
	const uint64_t *ports = proto == PATH_IPPROTO_UDPLITE ?
		c->udplite_ports : c->udp_ports;
	struct rte_udp_hdr hbuf;
	const struct rte_udp_hdr *uh;
	uint32_t len = x->len, ulen, cov;
	bool listener, verified = false;

	if (len < sizeof(*uh))		/* pskb_may_pull: drop */
		return __path_drop(mib, __path_udp_f(proto, MIB_F(UDP, INERRORS)));
	uh = __path_read(m, x->off, sizeof(*uh), &hbuf);
	ulen = rte_be_to_cpu_16(uh->dgram_len);
	if (ulen > len)			/* short_packet */
		return __path_drop(mib, __path_udp_f(proto, MIB_F(UDP, INERRORS)));
	if (proto == IPPROTO_UDP) {
		if (ulen < sizeof(*uh))	/* short_packet */
			return __path_drop(mib, MIB_F(UDP, INERRORS));
		len = ulen;		/* pskb_trim_rcsum(skb, ulen) */
	}
	listener = __path_port_open(ports, rte_be_to_cpu_16(uh->dst_port));

	/* udp4_csum_init */
	cov = len;
	if (proto == PATH_IPPROTO_UDPLITE) {
		/* udplite_checksum_init: the length field is the coverage; a
		 * checksum is mandatory. */
		if (uh->dgram_cksum == 0)
			goto csum_error;
		if (ulen != 0 && (ulen < sizeof(*uh) || ulen > len))
			goto csum_error;
		if (ulen != 0 && ulen < len)
			cov = ulen;	/* partial coverage: verified later */
	}
	if (cov == len) {
		/* skb_checksum_init_zero_check: UDP's zero means none was sent;
		 * a short datagram is verified now, before any lookup. */
		if (proto == IPPROTO_UDP && uh->dgram_cksum == 0)
			verified = true;
		else if (len <= PATH_CHECKSUM_BREAK) {
			if (!__path_l4_csum_ok(c, m, x->off, len, len, x->saddr,
					       x->daddr, proto, 6))
				goto csum_error;
			verified = true;
		}
	}

	if (x->rt == RT_BROADCAST || x->rt == RT_MULTICAST) {
		/* __udp4_lib_mcast_deliver: no listener -> IgnoredMulti; a
		 * listener verifies the checksum when it reads. */
		if (!listener)
			return __path_drop(mib, __path_udp_f(proto, MIB_F(UDP, IGNOREDMULTI)));
	}
	/* A listener verifies at recvmsg; the no-socket path verifies before
	 * counting NoPorts (udp_lib_checksum_complete). */
	if (!verified && !__path_l4_csum_ok(c, m, x->off, cov, len, x->saddr,
					    x->daddr, proto, 6))
		goto csum_error;
	if (!listener)
		return __path_drop(mib, __path_udp_f(proto, MIB_F(UDP, NOPORTS)));
	t->udp_delivered[proto == PATH_IPPROTO_UDPLITE]++;
	return __path_udp_f(proto, MIB_F(UDP, INDATAGRAMS));

csum_error:
	mib_inc(mib, __path_udp_f(proto, MIB_F(UDP, INCSUMERRORS)));
	return __path_drop(mib, __path_udp_f(proto, MIB_F(UDP, INERRORS)));
}

/* ---- IP ---- */

/* ip_protocol_deliver_rcu: the protocols inet_init (and ip_mr_init)
 * registers a handler for; no raw socket exists. x is the L4 context of
 * the datagram in m. */
static __rte_always_inline unsigned int
__path_ip_deliver(const struct path_conf *c, const struct rte_mbuf *m,
		  const struct path_l4_ctx *x, uint8_t proto, struct mib_block *mib,
		  struct path_tally *t)
{
	unsigned int f;

	switch (proto) {
	case IPPROTO_UDP:
		f = __path_udp_rcv(c, m, x, IPPROTO_UDP, mib, t);
		break;
	case PATH_IPPROTO_UDPLITE:
		f = __path_udp_rcv(c, m, x, PATH_IPPROTO_UDPLITE, mib, t);
		break;
	case IPPROTO_TCP:
		f = __path_tcp_rcv(c, m, x, mib);
		break;
	case IPPROTO_ICMP:
		f = __path_icmp_rcv(c, m, x, mib);
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
	t->in_delivers++;
	return f;
}

/* ip_local_deliver for a fragment: ip_defrag keeps it or frees it (its
 * terminal), or the datagram it completed goes on in its place. Out of
 * line, and given only what the hot path holds anyway (the fragment's
 * header is read again from m, at l2->l3_off; rt is its route): the
 * unfragmented path pays nothing for it. Not cold: gcc would build the
 * reassembled datagram's delivery for size, and --frag measure that. */
static __rte_noinline unsigned int
__path_ip_defrag_deliver(const struct path_conf *c, struct path_frag *fr,
			 const struct rte_mbuf *m, const struct path_l2 *l2,
			 enum rt_type rt, struct mib_block *mib, struct path_tally *t)
{
	const uint32_t off = l2->l3_off;
	uint8_t hbuf[60];
	const uint8_t *iph = __path_read(m, off, 20, hbuf);
	const uint32_t hl = (iph[0] & 0xfu) * 4;
	struct path_l4_ctx x;
	struct path_dgram d;
	unsigned int f;

	uint8_t proto;

	if (hl > 20)
		iph = __path_read(m, off, hl, hbuf);
	proto = iph[9];
	/* bytewise, as __path_ip_rcv: the header may sit at any address
	 * (an odd L2 length), and unaligned_uint32_t is aligned on x86 */
	x.saddr = (uint32_t)iph[12] << 24 | (uint32_t)iph[13] << 16 |
		  (uint32_t)iph[14] << 8 | iph[15];
	x.daddr = (uint32_t)iph[16] << 24 | (uint32_t)iph[17] << 16 |
		  (uint32_t)iph[18] << 8 | iph[19];
	x.rt = rt;
	f = __path_ip_defrag(fr, m, off, (uint32_t)iph[2] << 8 | iph[3], iph, hl,
			     l2->pkt_type, mib, &d);
	if (f != 0)
		return f;
	x.off = d.hl;
	x.len = d.len - d.hl;
	x.pkt_type = d.pkt_type;
	return __path_ip_deliver(c, d.m, &x, proto, mib, t);
}

/* ip_rcv_core -> ip_rcv_finish_core -> dst_input. */
static __rte_always_inline unsigned int
__path_ip_rcv(const struct path_conf *c, const struct rte_mbuf *m,
	      const struct path_l2 *l2, struct mib_block *mib, struct path_tally *t,
	      struct path_frag *fr)
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

	t->in_receives++;
	t->in_octets += len;

	if (unlikely(len < 20))
		goto inhdr_error;
	iph = __path_read(m, off, 20, hbuf);
	ihl = iph[0] & 0xf;
	if (unlikely(ihl < 5 || (iph[0] >> 4) != 4))
		goto inhdr_error;
	/* IPSTATS_MIB_NOECTPKTS + (tos & INET_ECN_MASK) */
	t->ecn[iph[1] & 3]++;
	hl = ihl * 4;
	if (unlikely(len < hl))
		goto inhdr_error;
	if (unlikely(hl > 20))
		iph = __path_read(m, off, hl, hbuf);
	if (!path_csum_ip_trusted(c, m) &&
	    unlikely(path_csum_ip_hdr(iph, hl) != 0xffff))	/* ip_fast_csum */
		goto csum_error;
	tot = (uint32_t)iph[2] << 8 | iph[3];
	if (unlikely(len < tot))
		return __path_drop(mib, MIB_F(IPEXT, INTRUNCATEDPKTS));
	if (unlikely(tot < hl))
		goto inhdr_error;
	len = tot;			/* pskb_trim_rcsum: drop the padding */

	saddr = (uint32_t)iph[12] << 24 | (uint32_t)iph[13] << 16 |
		(uint32_t)iph[14] << 8 | iph[15];
	daddr = (uint32_t)iph[16] << 24 | (uint32_t)iph[17] << 16 |
		(uint32_t)iph[18] << 8 | iph[19];
	proto = iph[9];
	frag = (uint16_t)(iph[6] << 8 | iph[7]);

	/* ip_rcv_finish_core: route, then options, then mcast/bcast stats. */
	f = __path_route_input(c, saddr, daddr, proto, &rt);
	if (f != 0)
		return __path_drop(mib, f);
	if (unlikely(ihl > 5)) {
		bool srr;

		if (__path_ip_options(c, iph + 20, hl - 20, &srr) != 0)
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

	/* ip_local_deliver: a fragment goes to ip_defrag, out of line (the
	 * whole datagram's delivery too: the hot path keeps its registers) */
	if (unlikely(frag & (PATH_IP_MF | PATH_IP_OFFSET)))
		return __path_ip_defrag_deliver(c, fr, m, l2, rt, mib, t);
	x.off = off + hl;
	x.len = len - hl;
	x.pkt_type = l2->pkt_type;
	x.saddr = saddr;
	x.daddr = daddr;
	x.rt = rt;
	return __path_ip_deliver(c, m, &x, proto, mib, t);

csum_error:
	mib_inc(mib, MIB_F(IPEXT, INCSUMERRORS));
inhdr_error:
	return __path_drop(mib, MIB_F(IP, INHDRERRORS));
}

static __rte_always_inline unsigned int
path_rcv_tally(const struct path_conf *c, const struct rte_mbuf *m,
	       const struct path_l2 *l2, struct mib_block *mib, struct path_tally *t,
	       struct path_frag *frag)
{
	/* __netif_receive_skb_core: the packet_type of the ethertype, ip_rcv
	 * or ipv6_rcv; both ip_rcv_core and ip6_rcv_core drop
	 * PACKET_OTHERHOST before counting InReceives. */
	if (unlikely(l2->runt || l2->ethertype != PATH_ETH_P_IP)) {
		if (l2->runt || l2->ethertype != PATH_ETH_P_IPV6)
			return __path_drop(mib, MIB_F(RX, NOTIP));
		if (l2->pkt_type == PATH_PKT_OTHERHOST)
			return __path_drop(mib, MIB_F(RX, OTHERHOST));
		return __path_ipv6_rcv(c, m, l2, mib, t, frag);
	}
	if (unlikely(l2->pkt_type == PATH_PKT_OTHERHOST))
		return __path_drop(mib, MIB_F(RX, OTHERHOST));
	return __path_ip_rcv(c, m, l2, mib, t, frag);
}

static inline unsigned int
path_rcv_frag(const struct path_conf *c, const struct rte_mbuf *m,
	      const struct path_l2 *l2, struct mib_block *mib, struct path_frag *frag)
{
	struct path_tally t;
	unsigned int f;

	path_tally_init(&t);
	f = path_rcv_tally(c, m, l2, mib, &t, frag);
	path_tally_flush(&t, mib);
	return f;
}

static inline unsigned int
path_rcv(const struct path_conf *c, const struct rte_mbuf *m, const struct path_l2 *l2,
	 struct mib_block *mib)
{
	return path_rcv_frag(c, m, l2, mib, NULL);
}

/* ---- peer ---- */

static __rte_always_inline void
path_peer_tally(const struct peer_table *pt, const struct rte_mbuf *m,
		const struct path_l2 *l2, unsigned int lcore, uint64_t now,
		struct path_tally *t)
{
	uint8_t buf[4];
	const uint8_t *p = __path_read(m, l2->l3_off + 12u, 4, buf);
	uint32_t src;

	if (p == NULL)
		return;
	src = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	if (peer_lookup_get_put_raw(pt, peer_target(pt, src, lcore), now))
		t->peer_hits++;
	else
		t->peer_misses++;
}

static inline void
path_peer(const struct peer_table *pt, const struct rte_mbuf *m, const struct path_l2 *l2,
	  unsigned int lcore, uint64_t now, struct mib_block *mib)
{
	struct path_tally t;

	path_tally_init(&t);
	path_peer_tally(pt, m, l2, lcore, now, &t);
	path_tally_flush(&t, mib);
}

#endif /* PKTPATH_PATH_INLINE_H */
