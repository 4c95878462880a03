/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/path's IPv6 path (path6*.c): frames built by hand, run
 * through path_l2() + path_rcv() on a fresh zeroed MIB block, EVERY field
 * compared with the expected list (all others 0), the outcome and the
 * conservation laws checked. Each expectation is what Linux 6.18 counted
 * for the same frame in a namespace set up as the kernel-differential
 * test's receiver (integration/kdiff.sh: fd70::1/64 on the port, the
 * neighbours fd70::2 and fe80::2, no default route, net.ipv6.icmp.ratelimit
 * 0 and a global ICMP bucket that never runs out: here no limits at all,
 * test_path_rlim.c has them), which checks every class of them against the
 * running kernel; here they are fixed, so that a change of the model shows
 * where it is made.
 * Then random IPv6 frames, mutated: exactly one terminal per frame, every
 * law, tallies per burst equal to counting per frame. No EAL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include <rte_mbuf.h>

#include "mib.h"
#include "path.h"
#include "pkt.h"
#include "test_rand.h"
#include "wire.h"
#include "test_mib_name.h"

#pragma GCC diagnostic ignored "-Woverride-init"

#define MAXF 512

static const uint8_t our_mac[6] = { 0x02, 0x70, 0x63, 0x61, 0x70, 0x00 };
static const uint8_t src_mac[6] = { 0x02, 0x6b, 0x64, 0x69, 0x66, 0x01 };
static const uint8_t other_mac[6] = { 0x02, 0, 0, 0, 0, 0x99 };
static const uint8_t mc1_mac[6] = { 0x33, 0x33, 0, 0, 0, 1 }; /* ff02::1 */

static struct path_conf conf;
static uint64_t rng_state;

#define LOCAL6	"fd70::1"
#define PEER6	"fd70::2"
#define LL6	"fe80::70:63ff:fe61:7000" /* the port's, from its MAC */
#define OFFLINK "2001:db8::7"

/* ---- frame builder ---- */

enum {
	CS_GOOD = 0,
	CS_BAD,
	CS_ZERO
};

struct f6 {
	const uint8_t *dmac;   /* NULL: our MAC */
	uint8_t ver;	       /* 0: 6 */
	uint8_t tc, hlim;      /* hlim 0: 64 */
	const char *src, *dst; /* NULL: PEER6, LOCAL6 */
	uint8_t nh;	       /* the IPv6 header's next header */
	const uint8_t *ext;    /* extension headers, their own next header bytes */
	uint16_t extlen;
	uint8_t proto; /* the upper layer built after them */
	uint16_t sport, dport;
	uint32_t ulen; /* UDP length field; 0: natural; 0x10000: write 0 */
	uint8_t csum;
	uint8_t type, code;   /* ICMPv6 */
	const uint8_t *l4raw; /* ICMPv6 body after its 4 first bytes */
	uint16_t l4rawlen;
	uint16_t pay;	  /* payload bytes after the L4 header */
	uint8_t tcpflags; /* 0: SYN */
	int32_t plen;	  /* payload length field; 0: natural; -1: write 0 */
	uint16_t pad;	  /* bytes after the packet */
	uint16_t flen;	  /* 0: natural; else cut the frame there */
};

static void
__addr(const char *s, const char *dflt, uint8_t *out)
{
	assert_int_equal(inet_pton(AF_INET6, s ? s : dflt, out), 1);
}

static uint16_t
__f6_csum6(const uint8_t *src, const uint8_t *dst, uint8_t proto, const uint8_t *l4,
	   uint32_t n, uint32_t plen)
{
	uint32_t s = wire_sum(src, 16, 0);

	s = wire_sum(dst, 16, s);
	s += (plen >> 16) + (plen & 0xffff) + proto;
	return wire_csum(wire_sum(l4, n, s));
}

static uint16_t
__f6_build(const struct f6 *f, uint8_t *b)
{
	uint8_t *ip = b + 14, *u, src[16], dst[16];
	uint32_t l4n = 0, i, ulen;
	uint16_t c, len;

	memset(b, 0, MAXF);
	memcpy(b, f->dmac ? f->dmac : our_mac, 6);
	memcpy(b + 6, src_mac, 6);
	wire_put16(b + 12, 0x86dd);
	__addr(f->src, PEER6, src);
	__addr(f->dst, LOCAL6, dst);
	if (f->extlen != 0) /* memcpy's source may not be NULL, even for 0 bytes */
		memcpy(ip + 40, f->ext, f->extlen);
	u = ip + 40 + f->extlen;
	switch (f->proto) {
	case IPPROTO_UDP:
	case 136:
		l4n = 8 + f->pay;
		for (i = 0; i < f->pay; i++)
			u[8 + i] = (uint8_t)(i * 7 + 1);
		wire_put16(u, f->sport ? f->sport : 7);
		wire_put16(u + 2, f->dport ? f->dport : 9);
		ulen = f->ulen == 0x10000 ? 0
		       : f->ulen	  ? f->ulen
					  : (f->proto == 136 ? 0 : l4n);
		wire_put16(u + 4, ulen);
		if (f->csum != CS_ZERO) {
			uint32_t cov = f->proto == 136
					       ? (ulen == 0 || ulen > l4n ? l4n : ulen)
					       : RTE_MIN(ulen ? ulen : l4n, l4n);

			c = __f6_csum6(src, dst, f->proto, u, cov,
				       f->proto == 136 ? l4n : (ulen ? ulen : l4n));
			wire_put16(u + 6, f->csum == CS_BAD ? (uint16_t)(c ^ 0x1234)
					  : c		    ? c
							    : 0xffff);
		}
		break;
	case IPPROTO_TCP:
		l4n = 20 + f->pay;
		wire_put16(u, f->sport ? f->sport : 40000);
		wire_put16(u + 2, f->dport ? f->dport : 80);
		wire_put32(u + 4, 1000);
		u[12] = 5 << 4;
		u[13] = f->tcpflags ? f->tcpflags : 0x02;
		wire_put16(u + 14, 1024);
		c = __f6_csum6(src, dst, IPPROTO_TCP, u, l4n, l4n);
		wire_put16(u + 16, f->csum == CS_BAD ? (uint16_t)(c ^ 0x4321) : c);
		break;
	case IPPROTO_ICMPV6:
		l4n = 4 + f->l4rawlen + f->pay;
		u[0] = f->type;
		u[1] = f->code;
		if (f->l4rawlen != 0)
			memcpy(u + 4, f->l4raw, f->l4rawlen);
		c = __f6_csum6(src, dst, IPPROTO_ICMPV6, u, l4n, l4n);
		wire_put16(u + 2, f->csum == CS_BAD ? (uint16_t)(c ^ 0xff) : c);
		break;
	default:
		l4n = f->pay;
		break;
	}
	ip[0] = (uint8_t)((f->ver ? f->ver : 6) << 4 | f->tc >> 4);
	ip[1] = (uint8_t)(f->tc << 4);
	wire_put16(ip + 4, f->plen < 0 ? 0
			   : f->plen   ? (uint32_t)f->plen
				       : f->extlen + l4n);
	ip[6] = f->nh;
	ip[7] = f->hlim ? f->hlim : 64;
	memcpy(ip + 8, src, 16);
	memcpy(ip + 24, dst, 16);
	len = (uint16_t)(14 + 40 + f->extlen + l4n + f->pad);
	return f->flen ? f->flen : len;
}

/* ---- running a frame ---- */

struct exp {
	unsigned int f; /* 0 ends the list */
	uint64_t v;
};

#define E(G, N, V)               \
	{                        \
		MIB_F(G, N), (V) \
	}
#define IN6(oct) E(IP6, INRECEIVES, 1), E(IP6, INOCTETS, oct)
#define NOECT	 E(IP6, INNOECTPKTS, 1)
#define DLV	 E(IP6, INDELIVERS, 1)
#define MC6(oct) E(IP6, INMCASTPKTS, 1), E(IP6, INMCASTOCTETS, oct)
#define IM(t)                         \
	{                             \
		MIB_ICMP6MSG_IN(t), 1 \
	}
/* an ICMPv6 message of type t, len bytes, sent (to a unicast address) */
#define SENT(t, len)                                                              \
	{ MIB_ICMP6MSG_OUT(t), 1 }, E(ICMP6, OUTMSGS, 1), E(IP6, OUTREQUESTS, 1), \
		E(IP6, OUTOCTETS, len), E(IP6, OUTTRANSMITS, 1)

static unsigned int
__f6_process(const uint8_t *frame, uint16_t len, struct mib_block *b)
{
	uint8_t *buf = malloc(len ? len : 1); /* exact size: ASan sees over-reads */
	struct rte_mbuf m;
	struct path_l2 l2;
	unsigned int out;

	assert_non_null(buf);
	memcpy(buf, frame, len);
	memset(&m, 0, sizeof(m));
	m.buf_addr = buf;
	m.buf_len = m.data_len = len;
	m.pkt_len = len;
	m.nb_segs = 1;
	mib_inc(b, MIB_F(RX, PACKETS));
	mib_add(b, MIB_F(RX, OCTETS), len);
	path_l2(&conf, &m, &l2, b);
	out = path_rcv(&conf, &m, &l2, b);
	free(buf);
	return out;
}

/* One frame in a fresh block: every field, the outcome (the list's one
 * terminal), the laws. Returns the number of mismatches (printed). */
static int
__f6_run(const char *name, const uint8_t *frame, uint16_t len, const struct exp *e)
{
	struct mib_set *s = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	struct mib_block b;
	unsigned int i, k, f, want = MIB_FIELD_MAX, nterm = 0, out;
	uint64_t tot[MIB_FIELD_MAX];
	char why[256];
	int bad = 0;

	for (i = 0; e[i].f != 0; i++)
		for (k = 0; k < mib_n_terminals; k++)
			if (e[i].f == mib_terminals[k] && ++nterm)
				want = e[i].f;
	if (nterm != 1)
		fail_msg("[%s] the expected list holds %u terminal counters", name,
			 nterm);
	assert_non_null(s);
	b = mib_set_block(s, 0);
	out = __f6_process(frame, len, &b);
	if (out != want && ++bad)
		print_error("[%s] outcome %s, expected %s\n", name, test_mib_name(out),
			    test_mib_name(want));
	for (f = 0; f < MIB_FIELD_MAX; f++) {
		uint64_t exp = f == MIB_F(RX, PACKETS)	? 1
			       : f == MIB_F(RX, OCTETS) ? len
							: 0;

		for (i = 0; e[i].f != 0; i++)
			if (e[i].f == f)
				exp = e[i].v;
		if (mib_read(&b, f) != exp && ++bad)
			print_error("[%s] %s = %" PRIu64 ", expected %" PRIu64 "\n", name,
				    test_mib_name(f), mib_read(&b, f), exp);
	}
	mib_fold(s, MIB_FOLD_LCORE, tot, NULL);
	if (mib_check_conservation(tot, why, sizeof(why)) != 0 && ++bad)
		print_error("[%s] conservation: %s\n", name, why);
	mib_set_free(s);
	return bad;
}

/* ---- the cases ---- */

#define UDP6(...)                                                    \
	{                                                            \
		.nh = IPPROTO_UDP, .proto = IPPROTO_UDP, __VA_ARGS__ \
	}
#define TCP6(...)                                                    \
	{                                                            \
		.nh = IPPROTO_TCP, .proto = IPPROTO_TCP, __VA_ARGS__ \
	}
#define ICMP6(...)                                                         \
	{                                                                  \
		.nh = IPPROTO_ICMPV6, .proto = IPPROTO_ICMPV6, __VA_ARGS__ \
	}
#define EXT(x) .ext = (x), .extlen = sizeof(x)

static const uint8_t rest0[4];
/* an echo request's identifier and sequence, and 20 bytes of data */
static const uint8_t echo[24] = { 0, 1, 0, 1 };
/* a neighbour solicitation for fd70::1, with a source link-layer address */
static const uint8_t ns_local[4 + 16 + 8] = { 0,    0,	      0,    0,	  0xfd,
					      0x70, [19] = 1, 1,    1,	  0x02,
					      0x6b, 0x64,     0x69, 0x66, 0x01 };
/* the same for the DAD of fd70::1 (no option) */
static const uint8_t ns_dad[4 + 16] = { 0, 0, 0, 0, 0xfd, 0x70, [19] = 1 };
/* a destination unreachable's unused word, then a quoted IPv6/UDP header
 * from fd70::1 port 9 (bound) or port 10 (not), to fd70::2 */
static const uint8_t quote_bound[4 + 40 + 8] = {
	[4] = 0x60,  [8] = 0,  [9] = 8,	    [10] = 17,	 [11] = 64, [12] = 0xfd,
	[13] = 0x70, [27] = 1, [28] = 0xfd, [29] = 0x70, [43] = 2,  [44] = 0,
	[45] = 9,    [46] = 0, [47] = 53,   [48] = 0,	 [49] = 8
};
static const uint8_t quote_unbound[4 + 40 + 8] = {
	[4] = 0x60,  [8] = 0,  [9] = 8,	    [10] = 17,	 [11] = 64, [12] = 0xfd,
	[13] = 0x70, [27] = 1, [28] = 0xfd, [29] = 0x70, [43] = 2,  [44] = 0,
	[45] = 10,   [46] = 0, [47] = 53,   [48] = 0,	 [49] = 8
};
/* hop-by-hop: PadN (fine), bad padding, unknown option types by action */
static const uint8_t hbh_ok[] = { 17, 0, 1, 4, 0, 0, 0, 0 };
static const uint8_t hbh_badpad[] = { 17, 0, 1, 4, 1, 0, 0, 0 };
static const uint8_t hbh_skip[] = { 17, 0, 0x3e, 0, 1, 2, 0, 0 };
static const uint8_t hbh_drop[] = { 17, 0, 0x7e, 0, 1, 2, 0, 0 };
static const uint8_t hbh_icmp[] = { 17, 0, 0xbe, 0, 1, 2, 0, 0 };
static const uint8_t hbh_jumbo_plen[] = { 17, 0, 0xc2, 4, 0, 1, 0x11, 0x70 };
static const uint8_t hbh_ra[] = { 17, 0, 5, 2, 0, 0, 1, 0 };
static const uint8_t hbh_calipso[] = { 17, 1, 7, 10, 0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 0, 0 };
static const uint8_t dst_icmp3[] = { 17, 0, 0xfe, 0, 1, 2, 0, 0 };
/* routing headers of one address (24 bytes) */
static const uint8_t rt0_left1[24] = { 17, 2, 0, 1, [8] = 0x20, [9] = 0x01 };
static const uint8_t rt0_left0[24] = { 17, 2, 0, 0, [8] = 0x20, [9] = 0x01 };
static const uint8_t rt4[24] = { 17, 2, 4, 1, [8] = 0x20, [9] = 0x01 };
static const uint8_t frag_atomic[] = { 17, 0, 0, 0, 0, 0, 0, 7 };
static const uint8_t frag_first[] = { 17, 0, 0, 1, 0, 0, 0, 8 };
static const uint8_t frag_beyond[] = { 17, 0, 0xff, 0xf8, 0, 0, 0, 11 };
static const uint8_t frag_twice[] = {
	44, 0, 0, 0, 0, 0, 0, 12, 17, 0, 0, 0, 0, 0, 0, 13
};
static const uint8_t frag_hop_later[] = {
	0, 0, 0, 0, 0, 0, 0, 9, 17, 0, 1, 4, 0, 0, 0, 0
};

struct case6 {
	const char *name;
	struct f6 f;
	struct exp e[16];
};

/* one case a row or two, laid out by hand */
/* clang-format off */
static const struct case6 cases[] = {
	/* __udp6_lib_rcv */
	{ "udp to a listened port", UDP6(.pay = 20),
	  { IN6(68), NOECT, DLV, E(UDP6, INDATAGRAMS, 1) } },
	{ "udp no listener: port unreachable sent", UDP6(.dport = 4242, .pay = 20),
	  { IN6(68), NOECT, DLV, E(UDP6, NOPORTS, 1), SENT(1, 116) } },
	{ "udp no listener, off-link source: no route back",
	  UDP6(.src = OFFLINK, .dport = 4242, .pay = 20),
	  { IN6(68), NOECT, DLV, E(UDP6, NOPORTS, 1), E(IP6, OUTNOROUTES, 1),
	    E(ICMP6, OUTRATELIMITHOST, 1) } },
	{ "udp bad checksum", UDP6(.csum = CS_BAD, .pay = 20),
	  { IN6(68), NOECT, DLV, E(UDP6, INERRORS, 1), E(UDP6, INCSUMERRORS, 1) } },
	{ "udp zero checksum (mandatory over IPv6)", UDP6(.csum = CS_ZERO, .pay = 20),
	  { IN6(68), NOECT, DLV, E(UDP6, INERRORS, 1), E(UDP6, INCSUMERRORS, 1) } },
	{ "udp zero checksum to ff02::1: ignored",
	  UDP6(.csum = CS_ZERO, .pay = 20, .dst = "ff02::1", .dmac = mc1_mac),
	  { IN6(68), NOECT, MC6(68), DLV, E(UDP6, IGNOREDMULTI, 1), E(RX, MULTICAST, 1) } },
	{ "udp length 0: a jumbogram's, the payload's", UDP6(.ulen = 0x10000, .pay = 20),
	  { IN6(68), NOECT, DLV, E(UDP6, INDATAGRAMS, 1) } },
	{ "udp length beyond the payload", UDP6(.ulen = 40, .pay = 20),
	  { IN6(68), NOECT, DLV, E(UDP6, INERRORS, 1) } },
	/* ip6_rcv_core */
	{ "version 4", UDP6(.ver = 4, .pay = 20), { IN6(68), E(IP6, INHDRERRORS, 1) } },
	{ "loopback destination", UDP6(.dst = "::1", .pay = 20),
	  { IN6(68), NOECT, E(IP6, INHDRERRORS, 1) } },
	{ "multicast source", UDP6(.src = "ff02::9", .pay = 20),
	  { IN6(68), NOECT, E(IP6, INHDRERRORS, 1) } },
	{ "interface-local multicast", UDP6(.dst = "ff01::1", .pay = 20),
	  { IN6(68), NOECT, E(IP6, INHDRERRORS, 1) } },
	{ "payload length beyond the frame", UDP6(.plen = 100, .pay = 20),
	  { IN6(68), NOECT, E(IP6, INTRUNCATEDPKTS, 1) } },
	{ "padding beyond the payload length: InOctets untrimmed", UDP6(.pay = 4, .pad = 10),
	  { IN6(62), NOECT, DLV, E(UDP6, INDATAGRAMS, 1) } },
	{ "ecn ce", UDP6(.tc = 3, .pay = 20),
	  { IN6(68), E(IP6, INCEPKTS, 1), DLV, E(UDP6, INDATAGRAMS, 1) } },
	{ "to another host's mac", UDP6(.dmac = other_mac), { E(RX, OTHERHOST, 1) } },
	/* ip6_route_input */
	{ "on-link, not local: forwarding off", UDP6(.dst = "fd70::9", .pay = 20),
	  { IN6(68), NOECT, E(IP6, INADDRERRORS, 1) } },
	{ "no route: unreachable sent", UDP6(.dst = "2001:db8::9", .pay = 20),
	  { IN6(68), NOECT, E(IP6, INNOROUTES, 1), SENT(1, 116) } },
	{ "to ::", UDP6(.dst = "::", .pay = 20),
	  { IN6(68), NOECT, E(IP6, INADDRERRORS, 1), SENT(1, 116) } },
	{ "group not joined", UDP6(.dst = "ff02::5", .pay = 20, .dmac = mc1_mac),
	  { IN6(68), NOECT, MC6(68), E(RX, MULTICAST, 1), E(PATH, IP6MCASTNOTJOINED, 1) } },
	{ "link-local destination, listened", UDP6(.src = "fe80::2", .dst = LL6, .pay = 20),
	  { IN6(68), NOECT, DLV, E(UDP6, INDATAGRAMS, 1) } },
	/* ip6_protocol_deliver_rcu */
	{ "unknown next header: parameter problem", { .nh = 200, .pay = 20 },
	  { IN6(60), NOECT, E(IP6, INUNKNOWNPROTOS, 1), SENT(4, 108) } },
	{ "no next header", { .nh = 59, .pay = 20 },
	  { IN6(60), NOECT, DLV, E(PATH, IP6NONEXTHDR, 1) } },
	/* tcp_v6_rcv */
	{ "tcp syn: a reset", TCP6(),
	  { IN6(60), NOECT, DLV, E(TCP, INSEGS, 1), E(IP6, OUTREQUESTS, 1),
	    E(IP6, OUTOCTETS, 60), E(IP6, OUTTRANSMITS, 1), E(TCP, OUTSEGS, 1),
	    E(TCP, OUTRSTS, 1) } },
	{ "tcp reset: none back", TCP6(.tcpflags = 0x04),
	  { IN6(60), NOECT, DLV, E(TCP, INSEGS, 1) } },
	{ "tcp bad checksum", TCP6(.csum = CS_BAD),
	  { IN6(60), NOECT, DLV, E(TCP, INSEGS, 1), E(TCP, INERRS, 1),
	    E(TCP, INCSUMERRORS, 1) } },
	{ "tcp in a multicast frame", TCP6(.dmac = mc1_mac),
	  { IN6(60), NOECT, DLV, E(PATH, TCPNOTHOST, 1), E(RX, MULTICAST, 1) } },
	/* icmpv6_rcv */
	{ "echo request: a reply", ICMP6(.type = 128, .l4raw = echo, .l4rawlen = 24),
	  { IN6(68), NOECT, DLV, E(ICMP6, INMSGS, 1), IM(128), SENT(129, 68) } },
	{ "icmp bad checksum", ICMP6(.type = 128, .l4raw = echo, .l4rawlen = 24, .csum = CS_BAD),
	  { IN6(68), NOECT, DLV, E(ICMP6, INMSGS, 1), E(ICMP6, INERRORS, 1),
	    E(ICMP6, INCSUMERRORS, 1) } },
	{ "unreachable quoting a bound port", ICMP6(.type = 1, .l4raw = quote_bound,
	  .l4rawlen = sizeof(quote_bound)),
	  { IN6(96), NOECT, DLV, E(ICMP6, INMSGS, 1), IM(1) } },
	{ "unreachable quoting an unbound port", ICMP6(.type = 1, .l4raw = quote_unbound,
	  .l4rawlen = sizeof(quote_unbound)),
	  { IN6(96), NOECT, DLV, E(ICMP6, INMSGS, 1), IM(1), E(ICMP6, INERRORS, 1) } },
	{ "unreachable, short quote", ICMP6(.type = 1, .l4raw = rest0, .l4rawlen = 4, .pay = 30),
	  { IN6(78), NOECT, DLV, E(ICMP6, INMSGS, 1), IM(1), E(ICMP6, INERRORS, 1) } },
	{ "neighbour solicitation for fd70::1: an advertisement",
	  ICMP6(.type = 135, .l4raw = ns_local, .l4rawlen = sizeof(ns_local), .hlim = 255,
	  .dst = "ff02::1:ff00:1", .dmac = mc1_mac),
	  { IN6(72), NOECT, MC6(72), DLV, E(ICMP6, INMSGS, 1), IM(135), SENT(136, 72),
	    E(RX, MULTICAST, 1) } },
	{ "duplicate address detection: an advertisement to ff02::1",
	  ICMP6(.type = 135, .l4raw = ns_dad, .l4rawlen = sizeof(ns_dad), .hlim = 255,
	  .src = "::", .dst = "ff02::1:ff00:1", .dmac = mc1_mac),
	  { IN6(64), NOECT, MC6(64), DLV, E(ICMP6, INMSGS, 1), IM(135), SENT(136, 72),
	    E(IP6, OUTMCASTPKTS, 1), E(IP6, OUTMCASTOCTETS, 72), E(RX, MULTICAST, 1) } },
	{ "neighbour solicitation, hop limit 64: ignored",
	  ICMP6(.type = 135, .l4raw = ns_local, .l4rawlen = sizeof(ns_local)),
	  { IN6(72), NOECT, DLV, E(ICMP6, INMSGS, 1), IM(135) } },
	/* extension headers */
	{ "hop-by-hop padding, then udp", UDP6(.nh = 0, EXT(hbh_ok), .pay = 12),
	  { IN6(68), NOECT, DLV, E(UDP6, INDATAGRAMS, 1) } },
	{ "hop-by-hop padding not zero", UDP6(.nh = 0, EXT(hbh_badpad), .pay = 12),
	  { IN6(68), NOECT, E(IP6, INHDRERRORS, 1) } },
	{ "hop-by-hop unknown option, skip", UDP6(.nh = 0, EXT(hbh_skip), .pay = 12),
	  { IN6(68), NOECT, DLV, E(UDP6, INDATAGRAMS, 1) } },
	{ "hop-by-hop unknown option, drop", UDP6(.nh = 0, EXT(hbh_drop), .pay = 12),
	  { IN6(68), NOECT, E(IP6, INHDRERRORS, 1) } },
	{ "hop-by-hop unknown option, icmp", UDP6(.nh = 0, EXT(hbh_icmp), .pay = 12),
	  { IN6(68), NOECT, E(IP6, INHDRERRORS, 1), SENT(4, 116) } },
	{ "hop-by-hop unknown option, icmp even to multicast",
	  UDP6(.nh = 0, EXT(hbh_icmp), .pay = 12, .dst = "ff02::1", .dmac = mc1_mac),
	  { IN6(68), NOECT, E(IP6, INHDRERRORS, 1), SENT(4, 116), E(RX, MULTICAST, 1) } },
	{ "jumbo option with a payload length", UDP6(.nh = 0, EXT(hbh_jumbo_plen), .pay = 12),
	  { IN6(68), NOECT, E(IP6, INHDRERRORS, 1), SENT(4, 116) } },
	{ "router alert", UDP6(.nh = 0, EXT(hbh_ra), .pay = 12),
	  { IN6(68), NOECT, DLV, E(UDP6, INDATAGRAMS, 1) } },
	{ "calipso: no DOI", UDP6(.nh = 0, EXT(hbh_calipso), .pay = 4),
	  { IN6(68), NOECT, E(IP6, INHDRERRORS, 1) } },
	{ "destination option, icmp unless multicast", UDP6(.nh = 60, EXT(dst_icmp3), .pay = 12),
	  { IN6(68), NOECT, E(IP6, INHDRERRORS, 1), SENT(4, 116) } },
	{ "routing header type 0 with a segment left: refused",
	  UDP6(.nh = 43, EXT(rt0_left1), .pay = 4),
	  { IN6(76), NOECT, E(IP6, INHDRERRORS, 1), SENT(4, 124) } },
	{ "routing header type 0, none left: skipped", UDP6(.nh = 43, EXT(rt0_left0), .pay = 4),
	  { IN6(76), NOECT, DLV, E(UDP6, INDATAGRAMS, 1) } },
	{ "segment routing header: off", UDP6(.nh = 43, EXT(rt4), .pay = 4),
	  { IN6(76), NOECT, E(PATH, IP6SEGROUTINGOFF, 1) } },
	{ "atomic fragment", UDP6(.nh = 44, EXT(frag_atomic), .pay = 12),
	  { IN6(68), NOECT, E(IP6, REASMREQDS, 1), E(IP6, REASMOKS, 1), DLV,
	    E(UDP6, INDATAGRAMS, 1) } },
	/* no reassembly queues here (ip6frag_high_thresh 0): fq_find fails
	 * before ip6_frag_queue looks at the fragment (test_path6_frag.c
	 * reassembles) */
	{ "first fragment, no queues", UDP6(.nh = 44, EXT(frag_first), .pay = 16),
	  { IN6(72), NOECT, E(IP6, REASMREQDS, 1), E(IP6, REASMFAILS, 1),
	    E(PATH, IP6FRAGDROPPED, 1) } },
	{ "fragment not on 8 bytes, no queues", UDP6(.nh = 44, EXT(frag_first), .pay = 12),
	  { IN6(68), NOECT, E(IP6, REASMREQDS, 1), E(IP6, REASMFAILS, 1),
	    E(PATH, IP6FRAGDROPPED, 1) } },
	{ "fragment beyond 65535 bytes, no queues", UDP6(.nh = 44, EXT(frag_beyond), .pay = 12),
	  { IN6(68), NOECT, E(IP6, REASMREQDS, 1), E(IP6, REASMFAILS, 1),
	    E(PATH, IP6FRAGDROPPED, 1) } },
	{ "two atomic fragment headers", UDP6(.nh = 44, EXT(frag_twice), .pay = 4),
	  { IN6(68), NOECT, E(IP6, REASMREQDS, 1), E(IP6, REASMOKS, 1),
	    E(IP6, INHDRERRORS, 1), SENT(4, 116) } },
	{ "hop-by-hop after a fragment header: unknown", UDP6(.nh = 44, EXT(frag_hop_later),
	  .pay = 4),
	  { IN6(68), NOECT, E(IP6, REASMREQDS, 1), E(IP6, REASMOKS, 1),
	    E(IP6, INUNKNOWNPROTOS, 1), SENT(4, 116) } },
};
/* clang-format on */

static void
test_cases6(void **state)
{
	uint8_t frame[MAXF];
	unsigned int i;
	int bad = 0;

	(void)state;
	for (i = 0; i < RTE_DIM(cases); i++) {
		uint16_t len = __f6_build(&cases[i].f, frame);

		bad += __f6_run(cases[i].name, frame, len, cases[i].e);
	}
	if (bad)
		fail_msg("%d mismatches", bad);
}

/* ---- random frames ---- */

/* the seeds, laid out by hand */
/* clang-format off */
static const struct f6 seeds[] = {
	UDP6(.pay = 20), UDP6(.dport = 4242), UDP6(.dst = "ff02::1", .dmac = mc1_mac),
	UDP6(.nh = 0, EXT(hbh_ok), .pay = 12), UDP6(.nh = 60, EXT(dst_icmp3), .pay = 12),
	UDP6(.nh = 43, EXT(rt0_left0)), UDP6(.nh = 44, EXT(frag_atomic)),
	UDP6(.nh = 44, EXT(frag_first)), TCP6(), TCP6(.pay = 30),
	ICMP6(.type = 128, .l4raw = echo, .l4rawlen = 24),
	ICMP6(.type = 1, .l4raw = quote_unbound, .l4rawlen = sizeof(quote_unbound)),
	ICMP6(.type = 135, .l4raw = ns_local, .l4rawlen = sizeof(ns_local), .hlim = 255,
	      .dst = "ff02::1:ff00:1", .dmac = mc1_mac),
	{ .nh = 136, .proto = 136, .pay = 30 }, { .nh = 59 },
};
/* clang-format on */

static void
test_random6(void **state)
{
	const unsigned int n = 100000;
	uint8_t frame[MAXF];
	char why[256];
	unsigned int i, k, f;
	struct mib_set *acc = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	struct mib_block ab;
	uint64_t before[MIB_FIELD_MAX], tot[MIB_FIELD_MAX], sum = 0;
	unsigned int reached[MIB_FIELD_MAX] = { 0 };

	(void)state;
	rng_state = UINT64_C(0x6a09e667f3bcc908);
	assert_non_null(acc);
	ab = mib_set_block(acc, 0);
	for (i = 0; i < n; i++) {
		const struct f6 *sp = &seeds[test_rand(&rng_state) % RTE_DIM(seeds)];
		uint16_t len = __f6_build(sp, frame);
		unsigned int flips = (unsigned int)(test_rand(&rng_state) % 4), r, out,
			     moved = 0;
		uint64_t d[MIB_FIELD_MAX];

		for (k = 0; k < flips; k++) {
			/* mostly the IPv6 header and what follows it */
			unsigned int pos =
				14 +
				(unsigned int)(test_rand(&rng_state) %
					       (test_rand(&rng_state) & 1 ? 48 : 120));

			frame[pos] ^= (uint8_t)(1 + test_rand(&rng_state) % 255);
		}
		r = (unsigned int)(test_rand(&rng_state) % 10);
		if (r < 2)
			len = (uint16_t)(test_rand(&rng_state) % (len + 1u));
		else if (r < 4)
			len = (uint16_t)RTE_MIN(len + test_rand(&rng_state) % 64,
						(uint64_t)MAXF);
		for (f = 0; f < MIB_FIELD_MAX; f++)
			before[f] = mib_read(&ab, f);
		out = __f6_process(frame, len, &ab);
		for (f = 0; f < MIB_FIELD_MAX; f++)
			d[f] = mib_read(&ab, f) - before[f];
		for (k = 0; k < mib_n_terminals; k++) {
			moved += (unsigned int)d[mib_terminals[k]];
			if (d[mib_terminals[k]] != 0 && mib_terminals[k] != out)
				fail_msg("frame %u: terminal %s moved, outcome %s", i,
					 test_mib_name(mib_terminals[k]),
					 test_mib_name(out));
		}
		if (out >= MIB_FIELD_MAX || moved != 1 || d[out] != 1)
			fail_msg(
				"frame %u (len %u): %u terminal counters moved, outcome %s",
				i, len, moved, test_mib_name(out));
		if (mib_check_conservation(d, why, sizeof(why)) != 0)
			fail_msg("frame %u: %s", i, why);
		/* what is sent is whole: a message counted with its packet */
		if (d[MIB_F(ICMP6, OUTMSGS)] > d[MIB_F(IP6, OUTREQUESTS)] ||
		    d[MIB_F(IP6, OUTREQUESTS)] != d[MIB_F(IP6, OUTTRANSMITS)])
			fail_msg("frame %u: %" PRIu64 " ICMPv6 messages, %" PRIu64
				 " packets requested, %" PRIu64 " transmitted",
				 i, d[MIB_F(ICMP6, OUTMSGS)], d[MIB_F(IP6, OUTREQUESTS)],
				 d[MIB_F(IP6, OUTTRANSMITS)]);
		reached[out]++;
	}
	mib_fold(acc, MIB_FOLD_FIELD, tot, NULL);
	assert_int_equal(mib_check_conservation(tot, why, sizeof(why)), 0);
	for (k = 0; k < mib_n_terminals; k++)
		sum += tot[mib_terminals[k]];
	assert_int_equal(sum, n);
	/* the mutations reach the IPv6 classes */
	assert_true(reached[MIB_F(IP6, INHDRERRORS)] > 0);
	assert_true(reached[MIB_F(IP6, INTRUNCATEDPKTS)] > 0);
	assert_true(reached[MIB_F(UDP6, INERRORS)] > 0);
	assert_true(reached[MIB_F(ICMP6, INMSGS)] > 0);
	assert_true(reached[MIB_F(IP6, INUNKNOWNPROTOS)] > 0);
	assert_true(reached[MIB_F(PATH, IP6FRAGDROPPED)] > 0);
	mib_set_free(acc);
}

/* Bursts tallied (path_rcv_tally, one flush per burst) against frames
 * counted one by one (path_rcv): equal in every field after each flush. */
static void
test_tally6(void **state)
{
	struct mib_set *set = mib_set_create(2, MIB_LAYOUT_PERCPU, NULL);
	struct mib_block pb, tb;
	struct path_tally tally;
	uint8_t frame[MAXF];
	unsigned int i = 0, f, k;

	(void)state;
	rng_state = UINT64_C(0xbb67ae8584caa73b);
	assert_non_null(set);
	pb = mib_set_block(set, 0);
	tb = mib_set_block(set, 1);
	path_tally_init(&tally);
	while (i < 20000) {
		unsigned int burst = 1 + (unsigned int)(test_rand(&rng_state) % 32);

		for (k = 0; k < burst; k++, i++) {
			const struct f6 *sp =
				&seeds[test_rand(&rng_state) % RTE_DIM(seeds)];
			uint16_t len = __f6_build(sp, frame);
			struct rte_mbuf m;
			struct path_l2 l2p, l2t;

			if (test_rand(&rng_state) % 4 == 0)
				frame[14 + (unsigned int)(test_rand(&rng_state) % 64)] ^=
					(uint8_t)(1 + test_rand(&rng_state) % 255);
			memset(&m, 0, sizeof(m));
			m.buf_addr = frame;
			m.buf_len = m.data_len = len;
			m.pkt_len = len;
			m.nb_segs = 1;
			path_l2(&conf, &m, &l2p, &pb);
			path_l2(&conf, &m, &l2t, &tb);
			assert_int_equal(
				path_rcv(&conf, &m, &l2p, &pb),
				path_rcv_tally(&conf, &m, &l2t, &tb, &tally, NULL));
		}
		path_tally_flush(&tally, &tb);
		for (f = 0; f < MIB_FIELD_MAX; f++)
			if (mib_read(&tb, f) != mib_read(&pb, f))
				fail_msg("after frame %u: %s %" PRIu64
					 " tallied, %" PRIu64 " per frame",
					 i, test_mib_name(f), mib_read(&tb, f),
					 mib_read(&pb, f));
	}
	assert_true(mib_read(&pb, MIB_F(UDP6, INDATAGRAMS)) > 0);
	mib_set_free(set);
}

/* ---- the generator's frames (pkt_build) ---- */

/* An --ext6 chain and where it ends over IPv6. */
struct chain6 {
	const char *ext6; /* --ext6's headers, by next header */
	uint8_t hdrs[4];
	unsigned int n;
	unsigned int v6_terminal; /* 0: the upper layer's */
};

/* Flow i of family fam, upper layer l4, extension headers ch, through the
 * path: delivered where its kind is (so every checksum the generator wrote
 * is right), its answer counted as sent, the laws kept. */
static void
__f6_generated(unsigned int fam, unsigned int l4, const struct chain6 *ch, uint32_t i)
{
	/* one upper layer a row, laid out by hand */
	/* clang-format off */
	static const unsigned int want4[PKT_L4_MAX] = {
		[PKT_L4_UDP] = MIB_F(UDP, INDATAGRAMS), [PKT_L4_TCP] = MIB_F(TCP, INSEGS),
		[PKT_L4_ICMP] = MIB_F(ICMP, INMSGS) };
	static const unsigned int want6[PKT_L4_MAX] = {
		[PKT_L4_UDP] = MIB_F(UDP6, INDATAGRAMS), [PKT_L4_TCP] = MIB_F(TCP, INSEGS),
		[PKT_L4_ICMP] = MIB_F(ICMP6, INMSGS) };
	/* clang-format on */
	struct mib_set *set = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	bool v6 = fam == PKT_FAMILY_IPV6 || (i & 1);
	uint64_t tot[MIB_FIELD_MAX];
	struct pkt_flow_conf fc;
	unsigned int want, out;
	uint8_t frame[MAXF];
	struct mib_block b;
	char why[256];
	int len;

	assert_non_null(set);
	b = mib_set_block(set, 0);
	pkt_flow_conf_default(&fc);
	memcpy(fc.dst_mac.addr_bytes, our_mac, 6);
	fc.family = (uint8_t)fam;
	fc.l4 = (uint8_t)l4;
	__addr(PEER6, NULL, fc.src6); /* on-link: answers go out */
	__addr(LOCAL6, NULL, fc.dst6);
	fc.src6_n = fc.dst6_n = 1;
	fc.src_lo = fc.src_hi = RTE_IPV4(10, 99, 0, 2);
	fc.dst_lo = fc.dst_hi = RTE_IPV4(10, 99, 0, 1);
	fc.n_ext6 = ch->n;
	memcpy(fc.ext6, ch->hdrs, ch->n);
	fc.pkt_size = (uint16_t)(pkt_min_size(&fc, PKT_FAMILY_IPV6) + 8 * (i / 2));
	len = pkt_build(&fc, i, frame, sizeof(frame));
	assert_int_equal(len, fc.pkt_size);
	out = __f6_process(frame, (uint16_t)len, &b);
	want = !v6 ? want4[l4] : ch->v6_terminal ? ch->v6_terminal : want6[l4];
	if (out != want)
		fail_msg("%s, %s, --ext6 %s, flow %u: outcome %s, expected %s",
			 pkt_family_names[fam], pkt_l4_names[l4], ch->ext6, i,
			 test_mib_name(out), test_mib_name(want));
	/* the answer: an echo reply, a reset, a parameter problem */
	if (v6 && out != MIB_F(UDP6, INDATAGRAMS))
		assert_int_equal(mib_read(&b, MIB_F(IP6, OUTREQUESTS)), 1);
	if (v6 && l4 == PKT_L4_ICMP && !ch->v6_terminal)
		assert_int_equal(mib_read(&b, MIB_ICMP6MSG_OUT(129)), 1);
	if (v6 && memchr(ch->hdrs, PKT_EXT6_FRAG, ch->n) != NULL)
		assert_int_equal(mib_read(&b, MIB_F(IP6, REASMOKS)), 1);
	mib_fold(set, MIB_FOLD_LCORE, tot, NULL);
	if (mib_check_conservation(tot, why, sizeof(why)) != 0)
		fail_msg("%s, %s: %s", pkt_family_names[fam], pkt_l4_names[l4], why);
	mib_set_free(set);
}

/* Every family, upper layer and extension header chain the generator
 * writes; mixed: flows 0 and 2 IPv4, 1 and 3 IPv6, two frame sizes. */
static void
test_generated6(void **state)
{
	/* one chain a row, laid out by hand */
	/* clang-format off */
	static const struct chain6 chains[] = {
		{ "none", { 0 }, 0, 0 },
		{ "hop", { PKT_EXT6_HOP }, 1, 0 },
		{ "dst", { PKT_EXT6_DST }, 1, 0 },
		{ "rt", { PKT_EXT6_RT }, 1, 0 },
		{ "frag", { PKT_EXT6_FRAG }, 1, 0 },
		{ "hop,dst,rt,frag", { PKT_EXT6_HOP, PKT_EXT6_DST, PKT_EXT6_RT,
		  PKT_EXT6_FRAG }, 4, 0 },
		{ "dst,hop: hop-by-hop not first", { PKT_EXT6_DST, PKT_EXT6_HOP }, 2,
		  MIB_F(IP6, INUNKNOWNPROTOS) },
	};
	/* clang-format on */
	unsigned int fam, l4, k, n = 0;
	uint32_t i;

	(void)state;
	for (fam = PKT_FAMILY_IPV6; fam < PKT_FAMILY_MAX; fam++)
		for (l4 = 0; l4 < PKT_L4_MAX; l4++)
			for (k = 0; k < RTE_DIM(chains); k++)
				for (i = 0; i < 4; i++, n++)
					__f6_generated(fam, l4, &chains[k], i);
	assert_int_equal(n, 2 * PKT_L4_MAX * RTE_DIM(chains) * 4);
}

/* ---- the configuration ---- */

static void
test_conf6(void **state)
{
	struct path_conf *c = malloc(sizeof(*c));
	uint8_t a[16];
	unsigned int i;

	(void)state;
	assert_non_null(c);
	path_conf_init(c);
	__addr("fd70::1", NULL, a);
	assert_int_equal(path_conf_add_local6(c, a, 0), -EINVAL);
	assert_int_equal(path_conf_add_local6(c, a, 129), -EINVAL);
	for (i = 0; i < PATH_MAX_LOCAL6; i++) {
		a[15] = (uint8_t)i + 1;
		assert_int_equal(path_conf_add_local6(c, a, 64), 0);
	}
	assert_int_equal(path_conf_add_local6(c, a, 64), -ENOSPC);
	c->n_local6 = 0;
	__addr("::", NULL, a);
	assert_int_equal(path_conf_add_local6(c, a, 64), -EINVAL);
	__addr("::1", NULL, a);
	assert_int_equal(path_conf_add_local6(c, a, 128), -EINVAL);
	__addr("ff02::1", NULL, a);
	assert_int_equal(path_conf_add_local6(c, a, 64), -EINVAL);
	__addr("fe80::5", NULL, a);
	assert_int_equal(path_conf_add_local6(c, a, 64), -EINVAL);
	/* groups: of link-local scope or wider, once */
	__addr("ff01::5", NULL, a);
	assert_int_equal(path_conf_add_mcast6(c, a), -EINVAL);
	__addr("ff00::5", NULL, a);
	assert_int_equal(path_conf_add_mcast6(c, a), -EINVAL);
	__addr("fd70::5", NULL, a);
	assert_int_equal(path_conf_add_mcast6(c, a), -EINVAL);
	__addr("ff05::5", NULL, a);
	assert_int_equal(path_conf_add_mcast6(c, a), 0);
	assert_int_equal(path_conf_add_mcast6(c, a), 0);
	assert_int_equal(c->n_mcast6, 1);
	free(c);
}

static int
__f6_setup(void **state)
{
	uint8_t a[16];

	(void)state;
	path_conf_init(&conf);
	memcpy(conf.mac.addr_bytes, our_mac, 6);
	__addr(LOCAL6, NULL, a);
	if (path_conf_add_local6(&conf, a, 64) != 0)
		return -1;
	path_conf_add_udp_ports(&conf, 9, 9);
	path_conf_add_udplite_ports(&conf, 9, 9);
	/* the generator's IPv4 frames of test_generated6 */
	return path_conf_add_local(&conf, RTE_IPV4(10, 99, 0, 1), 24);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf6),	   cmocka_unit_test(test_cases6),
		cmocka_unit_test(test_random6),	   cmocka_unit_test(test_tally6),
		cmocka_unit_test(test_generated6),
	};

	return cmocka_run_group_tests(tests, __f6_setup, NULL);
}
