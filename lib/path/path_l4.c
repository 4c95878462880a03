/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The protocol handlers of ip_protocol_deliver_rcu but UDP's (inline, in
 * path_inline.h), with Linux 6.18's checks in Linux's order and Linux's
 * counters:
 *   net/ipv4/udp.c       __udp4_lib_err
 *   net/ipv4/tcp_ipv4.c  tcp_v4_rcv, tcp_v4_err
 *   net/ipv4/icmp.c      icmp_rcv, icmp_unreach, icmp_redirect, icmp_timestamp,
 *                        icmp_socket_deliver, icmp_err; ping.c ping_rcv, ping_err
 */
#include "path.h"

#define NR_ICMP_TYPES	18
#define NR_ICMP_UNREACH	15
#define ICMP_EXC_FRAGTIME	1
#define ICMP_EXT_ECHO		42
#define ICMP_EXT_ECHOREPLY	43

/* ---- TCP ---- */

/*
 * tcp_parse_auth_options (CONFIG_TCP_MD5SIG, no TCP-AO): the options of a
 * segment are fit for a reset: no option of a bad size, not two MD5
 * signatures. Both families' resets ask it.
 */
bool
__path_tcp_auth_ok(const uint8_t *o, int length)
{
	bool md5 = false;

	while (length >= 18) { /* TCPOLEN_MD5SIG: nothing shorter matters */
		uint8_t opcode = *o++, opsize;

		if (opcode == 0) /* TCPOPT_EOL */
			return true;
		if (opcode == 1) { /* TCPOPT_NOP */
			length--;
			continue;
		}
		opsize = *o++;
		if (opsize < 2 || opsize > length)
			return false;
		if (opcode == 19) { /* TCPOPT_MD5SIG */
			if (opsize != 18 || md5)
				return false;
			md5 = true;
		}
		o += opsize - 2;
		length -= opsize;
	}
	return true;
}

/*
 * tcp_v4_rcv, no socket: count InSegs, validate, then tcp_v4_send_reset:
 * not for a reset, nor to a destination that is not a local address
 * (rt_type RTN_LOCAL), nor with unfit authentication options; a reset
 * counts Tcp OutSegs and OutRsts whether ip_send_unicast_reply finds a
 * route or not (nothing is sent, and Ip's Out side is not modelled).
 */
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
		return MIB_F(TCP, INSEGS);
	}
	if (!(th[13] & 0x04) && x->rt == RT_LOCAL) {
		uint8_t opt[40];
		const uint8_t *o = rte_pktmbuf_read(m, x->off + 20, doff * 4 - 20, opt);

		if (__path_tcp_auth_ok(o, (int)doff * 4 - 20)) {
			mib_inc(mib, MIB_F(TCP, OUTSEGS));
			mib_inc(mib, MIB_F(TCP, OUTRSTS));
		}
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
