/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The protocol handlers of ip_protocol_deliver_rcu, with Linux 6.18's checks
 * in Linux's order and Linux's counters:
 *   net/ipv4/udp.c       __udp4_lib_rcv, udp4_csum_init, __udp4_lib_mcast_deliver,
 *                        __udp4_lib_err
 *   include/net/udplite.h udplite_checksum_init (UDP-Lite coverage)
 *   net/ipv4/tcp_ipv4.c  tcp_v4_rcv, tcp_v4_err
 *   net/ipv4/icmp.c      icmp_rcv, icmp_unreach, icmp_redirect, icmp_timestamp,
 *                        icmp_socket_deliver, icmp_err; ping.c ping_rcv, ping_err
 */
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "path_csum.h"
#include "path_pvt.h"

/* include/linux/skbuff.h: datagrams up to this length are verified when the
 * checksum is initialised, longer ones when a socket or the no-socket path
 * needs it. */
#define CHECKSUM_BREAK	76

#define NR_ICMP_TYPES	18
#define NR_ICMP_UNREACH	15
#define ICMP_EXC_FRAGTIME	1
#define ICMP_EXT_ECHO		42
#define ICMP_EXT_ECHOREPLY	43

/* ---- checksums ---- */

/* Internet checksum of the pseudo header plus len bytes of m at off; the
 * folded sum is 0xffff when the packet's checksum is right. */
static uint16_t
__l4_sum(const struct rte_mbuf *m, uint32_t off, uint32_t len,
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

bool
__path_l4_csum_ok(const struct path_conf *c, const struct rte_mbuf *m,
		  uint32_t off, uint32_t len, uint32_t pseudo_len,
		  uint32_t saddr, uint32_t daddr, uint8_t proto, uint32_t field)
{
	/* The PMD verified it and --rx-csum hw trusts it (path_csum.h). */
	if (path_csum_l4_trusted(c, m))
		return true;
	if (__l4_sum(m, off, len, pseudo_len, saddr, daddr, proto) == 0xffff)
		return true;
	/* Left for the device by the sender's kernel (CHECKSUM_PARTIAL). */
	return path_csum_partial(c, m, off + field, saddr, daddr, proto,
				 pseudo_len);
}

/* ---- UDP and UDP-Lite ---- */

/* The UDP and UDP-Lite groups have the same layout. */
static inline unsigned int
__udp_f(uint8_t proto, unsigned int udp_field)
{
	return proto == PATH_IPPROTO_UDPLITE ?
		udp_field - MIB_BASE_UDP + MIB_BASE_UDPLITE : udp_field;
}

/* __udp4_lib_rcv(skb, table, proto) for IPPROTO_UDP and IPPROTO_UDPLITE. */
unsigned int
__path_udp_rcv(const struct path_conf *c, const struct rte_mbuf *m,
	       const struct path_l4_ctx *x, uint8_t proto, struct mib_block *mib)
{
	const uint64_t *ports = proto == PATH_IPPROTO_UDPLITE ?
		c->udplite_ports : c->udp_ports;
	struct rte_udp_hdr hbuf;
	const struct rte_udp_hdr *uh;
	uint32_t len = x->len, ulen, cov;
	bool listener, verified = false;

	if (len < sizeof(*uh))		/* pskb_may_pull: drop */
		return __path_drop(mib, __udp_f(proto, MIB_F(UDP, INERRORS)));
	uh = rte_pktmbuf_read(m, x->off, sizeof(*uh), &hbuf);
	ulen = rte_be_to_cpu_16(uh->dgram_len);
	if (ulen > len)			/* short_packet */
		return __path_drop(mib, __udp_f(proto, MIB_F(UDP, INERRORS)));
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
		else if (len <= CHECKSUM_BREAK) {
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
			return __path_drop(mib, __udp_f(proto, MIB_F(UDP, IGNOREDMULTI)));
	}
	/* A listener verifies at recvmsg; the no-socket path verifies before
	 * counting NoPorts (udp_lib_checksum_complete). */
	if (!verified && !__path_l4_csum_ok(c, m, x->off, cov, len, x->saddr,
					    x->daddr, proto, 6))
		goto csum_error;
	if (!listener)
		return __path_drop(mib, __udp_f(proto, MIB_F(UDP, NOPORTS)));
	return __path_drop(mib, __udp_f(proto, MIB_F(UDP, INDATAGRAMS)));

csum_error:
	mib_inc(mib, __udp_f(proto, MIB_F(UDP, INCSUMERRORS)));
	return __path_drop(mib, __udp_f(proto, MIB_F(UDP, INERRORS)));
}

/* ---- TCP ---- */

/* tcp_v4_rcv, no socket: count InSegs, validate, "send" a reset (not sent). */
unsigned int
__path_tcp_rcv(const struct path_conf *c, const struct rte_mbuf *m,
	       const struct path_l4_ctx *x, struct mib_block *mib)
{
	uint8_t buf[20];
	const uint8_t *th;
	unsigned int doff;

	if (x->pkt_type != PATH_PKT_HOST)
		return __path_drop(mib, MIB_F(PATH, TCPNOTHOST));
	mib_inc(mib, MIB_F(TCP, INSEGS));
	if (x->len < 20)		/* pskb_may_pull: discard_it */
		return MIB_F(TCP, INSEGS);
	th = rte_pktmbuf_read(m, x->off, 20, buf);
	doff = th[12] >> 4;
	if (doff < 5) {			/* bad_packet */
		mib_inc(mib, MIB_F(TCP, INERRS));
		return MIB_F(TCP, INSEGS);
	}
	if (x->len < doff * 4)		/* discard_it */
		return MIB_F(TCP, INSEGS);
	if (!__path_l4_csum_ok(c, m, x->off, x->len, x->len, x->saddr, x->daddr,
			       IPPROTO_TCP, 16)) {
		mib_inc(mib, MIB_F(TCP, INCSUMERRORS));
		mib_inc(mib, MIB_F(TCP, INERRS));
	}
	return MIB_F(TCP, INSEGS);
}

/* ---- ICMP ---- */

/*
 * icmp_socket_deliver for a quote of qlen bytes at off (the quoted IP header
 * first): the full quoted header plus 8 bytes must be there, then the quoted
 * protocol's err_handler looks for the socket that sent the datagram. True
 * if Icmp InErrors is counted.
 */
static bool
__icmp_socket_deliver(const struct path_conf *c, const struct rte_mbuf *m,
		      uint32_t off, uint32_t qlen)
{
	uint8_t b[2];
	const uint8_t *p;
	uint32_t ihl;
	uint8_t proto;

	p = rte_pktmbuf_read(m, off, 1, b);
	ihl = (p[0] & 0xfu) * 4;
	if (qlen < ihl + 8)		/* pskb_may_pull(ihl * 4 + 8) */
		return true;
	p = rte_pktmbuf_read(m, off + 9, 1, b);
	proto = p[0];
	switch (proto) {
	case IPPROTO_RAW:
		/* "IPPROTO_RAW sockets are not supposed to receive anything"
		 * (6.x, before raw_icmp_error). */
		return true;
	case IPPROTO_TCP:
		/* tcp_v4_err: __inet_lookup_established finds no socket. */
		return true;
	case IPPROTO_UDP:
	case PATH_IPPROTO_UDPLITE:
		/* __udp4_lib_err: the socket that sent the quoted datagram is
		 * bound to its source port (the sockets of --udp-ports and
		 * --udplite-ports are bound to every local address). */
		p = rte_pktmbuf_read(m, off + ihl, 2, b);
		return !__path_port_open(proto == IPPROTO_UDP ? c->udp_ports :
					 c->udplite_ports,
					 (uint16_t)(p[0] << 8 | p[1]));
	default:
		/* ICMP: ping_err finds no ping socket, no counter. IGMP and PIM
		 * have no err_handler; other protocols no handler at all. */
		return false;
	}
}

/*
 * The handlers of icmp_pointers[] (and their length checks) that count
 * Icmp InErrors. off/qlen: the message after its 8-byte header.
 */
static bool
__icmp_handler_error(const struct path_conf *c, const struct rte_mbuf *m,
		     uint32_t off, uint32_t qlen, uint8_t type, uint8_t code)
{
	uint8_t b[1];
	const uint8_t *p;

	switch (type) {
	case 3: case 4: case 11: case 12:	/* icmp_unreach */
		if (qlen < 20)
			return true;
		p = rte_pktmbuf_read(m, off, 1, b);
		if ((p[0] & 0xf) < 5)	/* mangled header */
			return true;
		if (type == 3 && code > NR_ICMP_UNREACH)
			return false;
		if (type == 11 && code == ICMP_EXC_FRAGTIME)
			return false;
		return __icmp_socket_deliver(c, m, off, qlen);
	case 5:					/* icmp_redirect */
		if (qlen < 20)
			return true;
		return __icmp_socket_deliver(c, m, off, qlen);
	case 13:				/* icmp_timestamp */
		return qlen < 4;
	default:	/* ping_rcv (no socket), icmp_echo, icmp_discard */
		return false;
	}
}

/* icmp_rcv */
unsigned int
__path_icmp_rcv(const struct path_conf *c, const struct rte_mbuf *m,
		const struct path_l4_ctx *x, struct mib_block *mib)
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
	uint8_t hb[2];
	const uint8_t *h;
	uint8_t type, code;
	uint16_t raw = 0;

	mib_inc(mib, MIB_F(ICMP, INMSGS));
	/* skb_checksum_simple_validate: the sum over the message. */
	if (!path_csum_l4_trusted(c, m) &&
	    (path_csum_raw_mbuf(m, x->off, x->len, &raw) != 0 || raw != 0xffff)) {
		mib_inc(mib, MIB_F(ICMP, INCSUMERRORS));
		goto error;
	}
	if (x->len < 8)			/* pskb_pull(sizeof(struct icmphdr)) */
		goto error;
	h = rte_pktmbuf_read(m, x->off, 2, hb);
	type = h[0];
	code = h[1];
	/* ICMPMSGIN_INC_STATS: /proc/net/snmp prints the Icmp per-type
	 * fields from these same counts. */
	mib_inc(mib, MIB_ICMPMSG_IN(type));
	if (type <= NR_ICMP_TYPES && in_type[type] != 0)
		mib_inc(mib, in_type[type]);
	/* icmp_echo for PROBE (off by default: no reply), before every other
	 * check; then the broadcast rule; then ping_rcv for a PROBE reply (no
	 * socket) before the "type > 18" check. */
	if (type == ICMP_EXT_ECHO)
		return MIB_F(ICMP, INMSGS);
	if (x->rt == RT_BROADCAST || x->rt == RT_MULTICAST) {
		/* icmp_echo_ignore_broadcasts=1: echo and timestamp refused;
		 * only address mask messages otherwise. */
		if (type != 17 && type != 18)
			goto error;
	}
	if (type == ICMP_EXT_ECHOREPLY)
		return MIB_F(ICMP, INMSGS);
	if (type > NR_ICMP_TYPES)
		goto error;
	if (__icmp_handler_error(c, m, x->off + 8, x->len - 8, type, code))
		goto error;
	return MIB_F(ICMP, INMSGS);
error:
	mib_inc(mib, MIB_F(ICMP, INERRORS));
	return MIB_F(ICMP, INMSGS);
}
