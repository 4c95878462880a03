/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/path: every frame is built by hand, run through
 * path_l2() + path_rcv() on a fresh zeroed MIB block, and EVERY field of the
 * block is compared with the expected list (all others must be 0), plus the
 * returned outcome and the conservation laws. Expectations follow Linux 6.18
 * (the references of path.c and path_l4.c):
 * eth_type_trans, skb_vlan_untag, ip_rcv_core, ip_rcv_finish_core,
 * ip_route_input_slow / ip_route_input_mc / ip_mc_validate_source,
 * __ip_options_compile, ip_error, ip_local_deliver / ip_defrag,
 * ip_protocol_deliver_rcu, __udp4_lib_rcv, tcp_v4_rcv, icmp_rcv.
 *
 * No EAL: mbufs are built on the stack around malloc'd buffers of exactly the
 * frame's length (an over-read shows up under ASan), MIB blocks come from
 * mib_set_create(..., NULL).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <cmocka.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "mib.h"
#include "path.h"
#include "test_rand.h"
#include "wire.h"

/* The case tables start from a default spec and override a few fields. */
#pragma GCC diagnostic ignored "-Woverride-init"

#define IP4(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))
#define SRC IP4(198, 18, 0, 1)
#define DST IP4(10, 0, 0, 1)
#define LBCAST IP4(255, 255, 255, 255)
#define MAXF 256

static const uint8_t our_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t src_mac[6] = { 0x02, 0, 0, 0, 0, 0x02 };
static const uint8_t other_mac[6] = { 0x02, 0, 0, 0, 0, 0x99 };
static const uint8_t bcast_mac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t mc_mac[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };

static struct path_conf conf;

/* ---- frame builder ---- */

enum { CS_GOOD = 0, CS_BAD, CS_ZERO };
#define P_UDPLITE 136
#define IM(t) { MIB_ICMPMSG_IN(t), 1 }	/* IcmpMsg InType<t> */
#define ULEN0 0x10000	/* .ulen value that writes a UDP length of 0 */

struct fspec {
	const uint8_t *dmac;		/* NULL: our MAC */
	uint16_t etype;			/* 0: IPv4 */
	uint8_t vlan;			/* one 802.1Q tag (TCI tci) before etype */
	uint16_t tci;
	uint8_t ver, ihl, tos;		/* 0: 4, (20 + optlen) / 4, 0 */
	uint16_t frag;			/* flags | offset */
	uint8_t proto;
	uint32_t saddr, daddr;
	const uint8_t *opt;		/* IP options, optlen bytes */
	uint8_t optlen;
	uint8_t bad_ipcsum;
	uint32_t tot_len;		/* 0: header + L4 bytes */
	uint16_t sport, dport;
	uint32_t ulen;			/* 0: 8 + pay; ULEN0 writes 0 */
	uint8_t csum;			/* L4 checksum: CS_GOOD, CS_BAD, CS_ZERO */
	uint8_t icmp_type, doff;	/* doff 0: 5 */
	uint8_t tcpflags;		/* 0: SYN */
	uint8_t icmp_code;
	uint16_t pay;			/* L4 payload bytes */
	uint16_t l4len;			/* 0: header + pay; else keep that many */
	uint16_t pad_to;		/* Ethernet padding (0xa5) up to this */
	uint16_t flen;			/* 0: natural; else cut/extend the frame */
	const uint8_t *quote;		/* ICMP: the quoted datagram, quote_len bytes */
	uint8_t quote_len;		/*   at the start of the payload (pay >= it) */
};

/* A wrong checksum: never c, nor its one's complement twin, nor 0. */
static uint16_t
__bad(uint16_t c)
{
	uint16_t b = c ^ 1;

	return b == 0 || b == 0xffff ? 0x1234 : b;
}

/* UDP/TCP checksum over n bytes with the pseudo header's length plen. */
static uint16_t
__l4_csum(const struct fspec *f, const uint8_t *l4, uint32_t n, uint32_t plen)
{
	uint32_t ph = (f->saddr >> 16) + (f->saddr & 0xffff) + (f->daddr >> 16) +
		      (f->daddr & 0xffff) + f->proto + plen;
	uint16_t c = wire_csum(wire_sum(l4, n, ph));

	return c == 0 ? 0xffff : c;
}

/* Build the frame of f into b; returns its length. */
static uint16_t
__build(const struct fspec *f, uint8_t *b)
{
	uint32_t ip, hl, nat, l4n, len, i, ulen;
	uint8_t *u;
	uint16_t c;

	memset(b, 0, MAXF);
	memcpy(b, f->dmac ? f->dmac : our_mac, 6);
	memcpy(b + 6, src_mac, 6);
	ip = 14;
	if (f->vlan) {
		wire_put16(b + 12, 0x8100);
		wire_put16(b + 14, f->tci);
		ip = 18;
	}
	wire_put16(b + ip - 2, f->etype ? f->etype : 0x0800);
	hl = 20 + f->optlen;
	u = b + ip + hl;

	/* L4 header and payload */
	nat = f->proto == IPPROTO_TCP ? 20 : f->proto == IPPROTO_UDP ||
	      f->proto == P_UDPLITE || f->proto == IPPROTO_ICMP ||
	      f->proto == IPPROTO_IGMP ? 8 : 0;
	for (i = 0; i < f->pay; i++)
		u[nat + i] = (uint8_t)(i * 7 + 1);
	nat += f->pay;
	l4n = f->l4len ? f->l4len : nat;
	ulen = f->ulen == ULEN0 ? 0 : f->ulen ? f->ulen : nat;
	if (f->proto == IPPROTO_UDP || f->proto == IPPROTO_TCP || f->proto == P_UDPLITE) {
		wire_put16(u, f->sport);
		wire_put16(u + 2, f->dport);
	}
	if (f->proto == P_UDPLITE) {
		/* the length field is the checksum coverage (0: all) */
		wire_put16(u + 4, ulen);
		if (f->csum != CS_ZERO) {
			c = __l4_csum(f, u, ulen == 0 || ulen > nat ? nat : ulen, nat);
			wire_put16(u + 6, f->csum == CS_BAD ? __bad(c) : c);
		}
	} else if (f->proto == IPPROTO_UDP) {
		wire_put16(u + 4, ulen);
		if (f->csum != CS_ZERO) {
			c = __l4_csum(f, u, RTE_MIN(ulen, nat), ulen);
			wire_put16(u + 6, f->csum == CS_BAD ? __bad(c) : c);
		}
	} else if (f->proto == IPPROTO_TCP) {
		wire_put32(u + 4, 1000);
		u[12] = (uint8_t)((f->doff ? f->doff : 5) << 4);
		u[13] = f->tcpflags ? f->tcpflags : 0x02; /* SYN */
		wire_put16(u + 14, 65535);
		if (l4n >= 18) {
			c = __l4_csum(f, u, l4n, l4n);
			wire_put16(u + 16, f->csum == CS_BAD ? __bad(c) : c);
		}
	} else if (f->proto == IPPROTO_ICMP || f->proto == IPPROTO_IGMP) {
		u[0] = f->proto == IPPROTO_ICMP ? f->icmp_type : 0x11;
		u[1] = f->proto == IPPROTO_ICMP ? f->icmp_code : 0;
		if (f->proto == IPPROTO_ICMP && f->pay > 0)
			u[8] = 0x45;	/* a plausible inner IPv4 header */
		if (f->quote_len)
			memcpy(u + 8, f->quote, f->quote_len);
		if (l4n >= 4) {
			c = wire_csum(wire_sum(u, l4n, 0));
			wire_put16(u + 2, f->csum == CS_BAD ? __bad(c) : c);
		}
	}

	/* IPv4 header */
	b[ip] = (uint8_t)((f->ver ? f->ver : 4) << 4 | (f->ihl ? f->ihl : hl / 4));
	b[ip + 1] = f->tos;
	wire_put16(b + ip + 2, f->tot_len ? f->tot_len : hl + l4n);
	wire_put16(b + ip + 4, 0x1234);
	wire_put16(b + ip + 6, f->frag);
	b[ip + 8] = 64;
	b[ip + 9] = f->proto;
	wire_put32(b + ip + 12, f->saddr);
	wire_put32(b + ip + 16, f->daddr);
	if (f->optlen)
		memcpy(b + ip + 20, f->opt, f->optlen);
	c = wire_csum(wire_sum(b + ip, hl, 0));
	wire_put16(b + ip + 10, f->bad_ipcsum ? (uint16_t)(c ^ 1) : c);

	len = ip + hl + l4n;
	if (f->pad_to > len) {
		memset(b + len, 0xa5, f->pad_to - len);
		len = f->pad_to;
	}
	if (f->flen > len)
		memset(b + len, 0xa5, f->flen - len);
	return (uint16_t)(f->flen ? f->flen : len);
}

/* ---- running a frame ---- */

struct exp {
	unsigned int f;	/* 0 (Ip.Forwarding, never moved) ends the list */
	uint64_t v;
};

#define E(G, N, V) { MIB_F(G, N), (V) }
#define OUT(G, N) MIB_F(G, N)
#define IN(oct) E(IP, INRECEIVES, 1), E(IPEXT, INOCTETS, oct)
#define NOECT E(IPEXT, INNOECTPKTS, 1)
#define DLV E(IP, INDELIVERS, 1)
#define BC(oct) E(RX, BROADCAST, 1), E(IPEXT, INBCASTPKTS, 1), E(IPEXT, INBCASTOCTETS, oct)
#define MC(oct) E(RX, MULTICAST, 1), E(IPEXT, INMCASTPKTS, 1), E(IPEXT, INMCASTOCTETS, oct)
#define IPBC(oct) E(IPEXT, INBCASTPKTS, 1), E(IPEXT, INBCASTOCTETS, oct)	/* no L2 bcast */

static void
__mbuf(struct rte_mbuf *m, void *buf, uint16_t len)
{
	memset(m, 0, sizeof(*m));
	m->buf_addr = buf;
	m->buf_len = m->data_len = len;
	m->pkt_len = len;
	m->nb_segs = 1;
}

/* RxPackets/RxOctets as the worker counts them, then the path. */
static unsigned int
__process(const uint8_t *frame, uint16_t len, struct mib_block *b)
{
	uint8_t *buf = malloc(len ? len : 1);	/* exact size: ASan sees over-reads */
	struct rte_mbuf m;
	struct path_l2 l2;
	unsigned int out;

	assert_non_null(buf);
	memcpy(buf, frame, len);
	__mbuf(&m, buf, len);
	mib_inc(b, MIB_F(RX, PACKETS));
	mib_add(b, MIB_F(RX, OCTETS), len);
	path_l2(&conf, &m, &l2, b);
	out = path_rcv(&conf, &m, &l2, b);
	free(buf);
	return out;
}

static uint64_t
__expected(const struct exp *e, unsigned int f, uint16_t len)
{
	if (f == MIB_F(RX, PACKETS) || f == MIB_F(RX, OCTETS))
		return f == MIB_F(RX, PACKETS) ? 1 : len;
	for (; e->f != 0; e++)
		if (e->f == f)
			return e->v;
	return 0;
}

static const char *
__fname(unsigned int f)
{
	static char s[2][64];
	static int k;

	k ^= 1;
	if (f >= MIB_FIELD_MAX)
		snprintf(s[k], sizeof(s[k]), "field#%u", f);
	else
		snprintf(s[k], sizeof(s[k]), "%s.%s",
			 mib_group_name(mib_field_group(f)), mib_field_name(f));
	return s[k];
}


/*
 * Run one frame in a fresh percpu block and again in block 1 of a fresh
 * 3-block shared set; compare every field of every block, the outcome and
 * the conservation laws. Returns the number of mismatches (printed).
 */
static int
__run(const char *name, const uint8_t *frame, uint16_t len, const struct exp *e)
{
	static const struct { enum mib_layout l; unsigned int n, idx; } lay[] = {
		{ MIB_LAYOUT_PERCPU, 1, 0 }, { MIB_LAYOUT_SHARED, 3, 1 } };
	uint64_t tot[MIB_FIELD_MAX];
	char why[256];
	int bad = 0;
	unsigned int k, i, f, want = MIB_FIELD_MAX, nterm = 0;

	for (i = 0; e[i].f != 0; i++)
		for (k = 0; k < mib_n_terminals; k++)
			if (e[i].f == mib_terminals[k] && ++nterm)
				want = e[i].f;
	if (nterm != 1)
		fail_msg("[%s] the expected list holds %u terminal counters", name, nterm);
	for (k = 0; k < RTE_DIM(lay); k++) {
		struct mib_set *s = mib_set_create(lay[k].n, lay[k].l, NULL);
		const char *ln = mib_layout_name(lay[k].l);
		struct mib_block b;
		unsigned int out;

		assert_non_null(s);
		b = mib_set_block(s, lay[k].idx);
		out = __process(frame, len, &b);
		if (out != want && ++bad)
			print_error("[%s/%s] outcome %s, expected %s\n", name, ln,
				    __fname(out), __fname(want));
		for (i = 0; i < lay[k].n; i++) {
			struct mib_block bi = mib_set_block(s, i);

			for (f = 0; f < MIB_FIELD_MAX; f++) {
				uint64_t got = mib_read(&bi, f);
				uint64_t exp = i == lay[k].idx ? __expected(e, f, len) : 0;

				if (got != exp && ++bad)
					print_error("[%s/%s] block %u %s = %" PRIu64 ", expected %"
						    PRIu64 "\n", name, ln, i, __fname(f), got, exp);
			}
		}
		mib_fold(s, MIB_FOLD_LCORE, tot, NULL);
		if (mib_check_conservation(tot, why, sizeof(why)) != 0 && ++bad)
			print_error("[%s] conservation: %s\n", name, why);
		mib_set_free(s);
	}
	return bad;
}

/* ---- the table ---- */


#define UDP(...) { .proto = IPPROTO_UDP, .saddr = SRC, .daddr = DST, \
		   .sport = 1024, .dport = 9, __VA_ARGS__ }
#define TCP(...) { .proto = IPPROTO_TCP, .saddr = SRC, .daddr = DST, \
		   .sport = 40000, .dport = 80, __VA_ARGS__ }
#define ICMP(...) { .proto = IPPROTO_ICMP, .saddr = SRC, .daddr = DST, \
		    .icmp_type = 8, .pay = 8, __VA_ARGS__ }
#define IGMP(...) { .proto = IPPROTO_IGMP, .saddr = SRC, .daddr = IP4(224, 0, 0, 1), \
		    .dmac = mc_mac, __VA_ARGS__ }

struct pcase {
	const char *name;
	struct fspec f;
	struct exp e[12];	/* its one terminal field is the expected outcome */
};

static const uint8_t opt_nop_eol[] = { 1, 1, 1, 0 };
static const uint8_t opt_rr[] = { 7, 7, 4, 0, 0, 0, 0, 0 };
static const uint8_t opt_ts[] = { 68, 12, 5, 0x00, 0, 0, 0, 0, 0, 0, 0, 0 };
static const uint8_t opt_ra[] = { 148, 4, 0, 0 };
static const uint8_t opt_len1[] = { 7, 1, 0, 0 };
static const uint8_t opt_len_over[] = { 68, 40, 5, 0 };
static const uint8_t opt_rr_ptr3[] = { 7, 7, 3, 0, 0, 0, 0, 0 };
static const uint8_t opt_rr_twice[] = { 7, 3, 4, 7, 3, 4, 0, 0 };
static const uint8_t opt_lone_byte[] = { 1, 1, 1, 7 };
static const uint8_t opt_eol_garbage[] = { 0, 7, 1, 0xff };
static const uint8_t opt_lsrr[] = { 131, 7, 4, 10, 0, 0, 9, 0 };
static const uint8_t opt_ssrr[] = { 137, 7, 4, 10, 0, 0, 9, 0 };
static const uint8_t opt_lsrr_ptr3[] = { 131, 7, 3, 10, 0, 0, 9, 0 };
static const uint8_t opt_ts_short[] = { 68, 7, 5, 0, 0, 0, 0, 0 };	/* ptr + 3 > len */
static const uint8_t opt_ts_addr_short[] = { 68, 8, 5, 1, 0, 0, 0, 0 };	/* needs 8 */
static const uint8_t opt_ts_full_of14[] = { 68, 8, 9, 0xe0, 0, 0, 0, 0 };
static const uint8_t opt_ts_full_of15[] = { 68, 8, 9, 0xf0, 0, 0, 0, 0 };
#define OPT(o) .opt = (o), .optlen = sizeof(o)

/* Shorthands for the expected lists. */
#define L4(o, G, N) IN(o), NOECT, DLV, E(G, N, 1)	/* delivered, one L4 outcome */
/* clang-format off */
#define RST E(TCP, OUTSEGS, 1), E(TCP, OUTRSTS, 1)	/* tcp_v4_send_reset */
/* clang-format on */
#define DROP(o, G, N) IN(o), NOECT, E(G, N, 1)		/* dropped at the IP level */
#define FRAGNOMEM(o) \
	DROP(o, PATH, IPFRAGDROPPED), E(IP, REASMREQDS, 1), E(IP, REASMFAILS, 1)
#define UCSUM(o) L4(o, UDP, INERRORS), E(UDP, INCSUMERRORS, 1)
#define RUNT E(RX, RUNTS, 1), E(RX, NOTIP, 1)
#define O_DGRAM OUT(UDP, INDATAGRAMS)
#define O_HDR OUT(IP, INHDRERRORS)

/* one case a row or two, laid out by hand */
/* clang-format off */
static const struct pcase cases[] = {
	/* UDP (__udp4_lib_rcv) */
	{ "udp valid, listened port", UDP(.pay = 18), { L4(46, UDP, INDATAGRAMS) } },
	{ "udp valid, other source", UDP(.saddr = IP4(192, 0, 2, 77), .pay = 3),
	  { L4(31, UDP, INDATAGRAMS) } },
	{ "udp no listener", UDP(.dport = 10), { L4(28, UDP, NOPORTS) } },
	{ "udp bad csum, listened", UDP(.csum = CS_BAD), { UCSUM(28) } },
	{ "udp bad csum before NoPorts", UDP(.dport = 10, .csum = CS_BAD), { UCSUM(28) } },
	{ "udp zero csum", UDP(.csum = CS_ZERO, .pay = 5), { L4(33, UDP, INDATAGRAMS) } },
	{ "udp length > ip payload", UDP(.pay = 4, .ulen = 13), { L4(32, UDP, INERRORS) } },
	{ "udp length 7", UDP(.ulen = 7), { L4(28, UDP, INERRORS) } },
	{ "udp length 0", UDP(.ulen = ULEN0), { L4(28, UDP, INERRORS) } },
	{ "udp length < ip payload: csum over ulen", UDP(.pay = 10, .ulen = 12),
	  { L4(38, UDP, INDATAGRAMS) } },
	{ "udp header cut by tot_len", UDP(.l4len = 4), { L4(24, UDP, INERRORS) } },
	/* ip_rcv_core */
	{ "ip version 6", UDP(.ver = 6), { IN(28), E(IP, INHDRERRORS, 1) } },
	{ "ip ihl 4", UDP(.ihl = 4), { IN(28), E(IP, INHDRERRORS, 1) } },
	{ "ip options longer than the frame", UDP(.ihl = 15), { DROP(28, IP, INHDRERRORS) } },
	{ "ip bad header csum", UDP(.bad_ipcsum = 1),
	  { DROP(28, IP, INHDRERRORS), E(IPEXT, INCSUMERRORS, 1) } },
	{ "ip bad header csum, CE counted first", UDP(.bad_ipcsum = 1, .tos = 3),
	  { IN(28), E(IPEXT, INCEPKTS, 1), E(IPEXT, INCSUMERRORS, 1), E(IP, INHDRERRORS, 1) } },
	{ "ip tot_len > frame", UDP(.pay = 18, .tot_len = 47),
	  { DROP(46, IPEXT, INTRUNCATEDPKTS) } },
	{ "ip tot_len < ihl*4", UDP(.tot_len = 19), { DROP(28, IP, INHDRERRORS) } },
	{ "ethernet padding beyond tot_len", UDP(.pad_to = 60), { L4(46, UDP, INDATAGRAMS) } },
	{ "tcp padded: csum over tot_len", TCP(.pad_to = 60), { L4(46, TCP, INSEGS), RST } },
	{ "icmp padded: csum over tot_len", ICMP(.pad_to = 60),
	  { L4(46, ICMP, INMSGS), E(ICMP, INECHOS, 1), IM(8) } },
	{ "bcast padded: InBcastOctets trimmed",
	  UDP(.dmac = bcast_mac, .daddr = LBCAST, .pad_to = 60),
	  { L4(46, UDP, INDATAGRAMS), BC(28) } },
	{ "mcast padded: InMcastOctets trimmed",
	  UDP(.dmac = mc_mac, .daddr = IP4(224, 0, 0, 1), .pad_to = 60),
	  { L4(46, UDP, INDATAGRAMS), MC(28) } },
#define ECN(name, t, F) { name, UDP(.tos = t), \
	{ IN(28), E(IPEXT, F, 1), DLV, E(UDP, INDATAGRAMS, 1) } }
	ECN("ecn ect1", 1, INECT1PKTS), ECN("ecn ect0", 2, INECT0PKTS), ECN("ecn ce", 3, INCEPKTS),
	ECN("dscp ef + ect1", 0xb9, INECT1PKTS),
	/* L2 */
	{ "ethertype ipv6, an ipv4 header: ipv6_rcv's version check",
	  UDP(.etype = 0x86dd), { E(IP6, INRECEIVES, 1), E(IP6, INOCTETS, 28),
	  E(IP6, INHDRERRORS, 1) } },
	{ "ethertype ipv6 to another host", UDP(.etype = 0x86dd, .dmac = other_mac),
	  { E(RX, OTHERHOST, 1) } },
	{ "ethertype arp", UDP(.etype = 0x0806), { E(RX, NOTIP, 1) } },
	{ "802.3 length field", UDP(.etype = 0x002e), { E(RX, NOTIP, 1) } },
	{ "otherhost mac", UDP(.dmac = other_mac), { E(RX, OTHERHOST, 1) } },
	{ "otherhost arp is not-ip", UDP(.dmac = other_mac, .etype = 0x0806), { E(RX, NOTIP, 1) } },
	/* VLAN tags (VIDs 5, 7 and 0xabc have 802.1Q devices: __path_setup;
	 * test_path_vlan.c covers the whole class) */
	{ "802.1q tag, udp", UDP(.vlan = 1, .tci = 5),
	  { E(RX, VLAN, 1), L4(28, UDP, INDATAGRAMS) } },
	{ "802.1q tag, arp", UDP(.vlan = 1, .tci = 5, .etype = 0x0806),
	  { E(RX, VLAN, 1), E(RX, NOTIP, 1) } },
	{ "802.1q tag with no VLAN device, udp", UDP(.vlan = 1, .tci = 6),
	  { E(RX, VLAN, 1), E(RX, VLANNODEVICE, 1), E(RX, OTHERHOST, 1) } },
	{ "802.1q tag with no VLAN device, arp", UDP(.vlan = 1, .tci = 6, .etype = 0x0806),
	  { E(RX, VLAN, 1), E(RX, VLANNODEVICE, 1), E(RX, NOTIP, 1) } },
	{ "802.1q tag cut (16 bytes)", UDP(.vlan = 1, .flen = 16), { RUNT } },
	{ "two 802.1q tags, the inner with no device",
	  UDP(.vlan = 1, .etype = 0x8100),
	  { E(RX, VLAN, 1), E(RX, VLANNODEVICE, 1), E(RX, NOTIP, 1) } },
	{ "802.1ad tag (VID 0x500, inner 802.3)", UDP(.etype = 0x88a8),
	  { E(RX, VLAN, 1), E(RX, VLANNODEVICE, 1), E(RX, NOTIP, 1) } },
	{ "802.1q priority tag (VID 0) stripped", UDP(.vlan = 1, .tci = 0x6000),
	  { E(RX, VLAN, 1), L4(28, UDP, INDATAGRAMS) } },
	{ "802.1q tag, otherhost", UDP(.vlan = 1, .dmac = other_mac),
	  { E(RX, VLAN, 1), E(RX, OTHERHOST, 1) } },
	/* broadcast */
	{ "limited bcast, listened", UDP(.dmac = bcast_mac, .daddr = LBCAST),
	  { L4(28, UDP, INDATAGRAMS), BC(28) } },
	{ "limited bcast, no listener", UDP(.dmac = bcast_mac, .daddr = LBCAST, .dport = 10),
	  { L4(28, UDP, IGNOREDMULTI), BC(28) } },
	{ "limited bcast, no listener, short: bad csum checked first",
	  UDP(.dmac = bcast_mac, .daddr = LBCAST, .dport = 10, .csum = CS_BAD),
	  { UCSUM(28), BC(28) } },
	{ "limited bcast, no listener, 77 bytes: bad csum not checked",
	  UDP(.dmac = bcast_mac, .daddr = LBCAST, .dport = 10, .csum = CS_BAD, .pay = 69),
	  { L4(97, UDP, IGNOREDMULTI), BC(97) } },
	{ "mcast, no listener, 76 bytes: bad csum checked",
	  UDP(.dmac = mc_mac, .daddr = IP4(224, 0, 0, 1), .dport = 10, .csum = CS_BAD, .pay = 68),
	  { UCSUM(96), MC(96) } },
	{ "limited bcast, listened, bad csum",
	  UDP(.dmac = bcast_mac, .daddr = LBCAST, .csum = CS_BAD), { UCSUM(28), BC(28) } },
	{ "subnet bcast", UDP(.dmac = bcast_mac, .daddr = IP4(10, 0, 0, 255), .pay = 4),
	  { L4(32, UDP, INDATAGRAMS), BC(32) } },
	{ "subnet bcast to our mac", UDP(.daddr = IP4(10, 0, 0, 255), .dport = 10),
	  { L4(28, UDP, IGNOREDMULTI), IPBC(28) } },
	{ "dhcp: 0.0.0.0 -> 255.255.255.255", UDP(.dmac = bcast_mac, .saddr = 0, .daddr = LBCAST),
	  { L4(28, UDP, INDATAGRAMS), BC(28) } },
	{ "0.0.0.0 -> 0.0.0.0 is brd_input", UDP(.saddr = 0, .daddr = 0),
	  { L4(28, UDP, INDATAGRAMS), IPBC(28) } },
	{ "second local /32", UDP(.daddr = IP4(172, 16, 5, 1)), { L4(28, UDP, INDATAGRAMS) } },
	{ "a /31 has no broadcast", UDP(.daddr = IP4(192, 168, 7, 1)),
	  { DROP(28, IP, INADDRERRORS) } },
	{ "a /30 has one", UDP(.daddr = IP4(192, 168, 8, 3)),
	  { L4(28, UDP, INDATAGRAMS), IPBC(28) } },
	{ "network address is not a broadcast", UDP(.daddr = IP4(192, 168, 8, 0)),
	  { DROP(28, IP, INADDRERRORS) } },
	/* multicast */
	{ "mcast 224.0.0.1 joined", UDP(.dmac = mc_mac, .daddr = IP4(224, 0, 0, 1)),
	  { L4(28, UDP, INDATAGRAMS), MC(28) } },
	{ "mcast joined, no listener", UDP(.dmac = mc_mac, .daddr = IP4(239, 1, 1, 1), .dport = 10),
	  { L4(28, UDP, IGNOREDMULTI), MC(28) } },
#define MCDROP(name, src, dst, N) { name, UDP(.dmac = mc_mac, .saddr = src, .daddr = dst), \
	{ DROP(28, PATH, N), E(RX, MULTICAST, 1) } }
	MCDROP("mcast not joined", SRC, IP4(239, 2, 2, 2), IPMCASTNOTJOINED),
	MCDROP("mcast from 0.0.0.0 to 239.x", 0, IP4(239, 1, 1, 1), IPINVALIDSOURCE),
	MCDROP("mcast from our own address", DST, IP4(224, 0, 0, 1), IPINVALIDSOURCE),
	MCDROP("mcast from loopback", IP4(127, 0, 0, 1), IP4(224, 0, 0, 1), IPINVALIDSOURCE),
	{ "mcast from 0.0.0.0 to 224.0.0.x",
	  UDP(.dmac = mc_mac, .saddr = 0, .daddr = IP4(224, 0, 0, 1)),
	  { L4(28, UDP, INDATAGRAMS), MC(28) } },
	{ "igmp from 0.0.0.0 to 239.x", IGMP(.saddr = 0, .daddr = IP4(239, 1, 1, 1)),
	  { L4(28, PATH, IGMPDELIVERED), MC(28) } },
	{ "igmp to 224.0.0.1", IGMP(), { L4(28, PATH, IGMPDELIVERED), MC(28) } },
	/* route */
	{ "unicast not local, same subnet", UDP(.daddr = IP4(10, 0, 0, 2)),
	  { DROP(28, IP, INADDRERRORS) } },
	{ "unicast not local, elsewhere", UDP(.daddr = IP4(8, 8, 8, 8)),
	  { DROP(28, IP, INADDRERRORS) } },
	{ "unicast not local, L2 bcast", UDP(.dmac = bcast_mac, .daddr = IP4(8, 8, 8, 8)),
	  { DROP(28, IP, INADDRERRORS), E(RX, BROADCAST, 1) } },
#define MARTIAN(name, spec, N) { name, spec, { DROP(28, PATH, N) } }
	MARTIAN("martian src multicast", UDP(.saddr = IP4(224, 0, 0, 5)), IPINVALIDSOURCE),
	MARTIAN("martian src 255.255.255.255", UDP(.saddr = LBCAST), IPINVALIDSOURCE),
	MARTIAN("martian src loopback", UDP(.saddr = IP4(127, 0, 0, 1)), IPINVALIDSOURCE),
	MARTIAN("martian src = our address", UDP(.saddr = DST), IPINVALIDSOURCE),
	MARTIAN("martian src 0.0.0.0 to unicast", UDP(.saddr = 0), IPINVALIDSOURCE),
	MARTIAN("martian src = ours, to bcast", UDP(.saddr = DST, .daddr = LBCAST),
		IPINVALIDSOURCE),
	/* since 5.3 only 0.0.0.0 is a zero address */
	{ "dst 0.x: no route, not martian", UDP(.daddr = IP4(0, 1, 2, 3)),
	  { DROP(28, IP, INADDRERRORS) } },
	{ "src 0.x to unicast: delivered", UDP(.saddr = IP4(0, 1, 2, 3)),
	  { L4(28, UDP, INDATAGRAMS) } },
	MARTIAN("martian dst 0.0.0.0", UDP(.daddr = 0), IPINVALIDDEST),
	/* brd_input skips the loopback check; lo's 127.0.0.1 is an own address */
	MARTIAN("src 127.0.0.1 (lo) to bcast", UDP(.saddr = IP4(127, 0, 0, 1), .daddr = LBCAST),
		IPINVALIDSOURCE),
	{ "src 127.0.0.2 to bcast: delivered",
	  UDP(.saddr = IP4(127, 0, 0, 2), .daddr = LBCAST), { L4(28, UDP, INDATAGRAMS), IPBC(28) } },
	MARTIAN("martian dst 127.x", UDP(.daddr = IP4(127, 0, 0, 1)), IPINVALIDDEST),
	MARTIAN("loopback dst before loopback src",
		UDP(.saddr = IP4(127, 0, 0, 2), .daddr = IP4(127, 0, 0, 1)), IPINVALIDDEST),
	/* fragments: ip_local_deliver -> ip_defrag; path_rcv() has no queue
	 * (ipfrag_high_thresh 0): each fails (test_path_frag.c reassembles) */
	{ "fragment MF", UDP(.frag = 0x2000), { FRAGNOMEM(28) } },
	{ "fragment offset", UDP(.frag = 100), { FRAGNOMEM(28) } },
	{ "DF is not a fragment", UDP(.frag = 0x4000), { L4(28, UDP, INDATAGRAMS) } },
	{ "fragment to another host: ip_error first",
	  UDP(.frag = 0x2000, .daddr = IP4(8, 8, 8, 8)), { DROP(28, IP, INADDRERRORS) } },
	{ "fragment to bcast", UDP(.frag = 0x2000, .dmac = bcast_mac, .daddr = LBCAST),
	  { FRAGNOMEM(28), BC(28) } },
	/* protocols */
	{ "unknown protocol", UDP(.proto = 253, .pay = 8), { DROP(28, IP, INUNKNOWNPROTOS) } },
	/* no socket: tcp_v4_send_reset answers (OutSegs, OutRsts) */
	{ "tcp valid", TCP(), { L4(40, TCP, INSEGS), RST } },
	{ "tcp valid with payload", TCP(.pay = 13), { L4(53, TCP, INSEGS), RST } },
	{ "tcp reset: none back", TCP(.tcpflags = 0x14), { L4(40, TCP, INSEGS) } },
	{ "tcp to a broadcast address in a unicast frame: no reset", TCP(.daddr = LBCAST),
	  { L4(40, TCP, INSEGS), E(IPEXT, INBCASTPKTS, 1), E(IPEXT, INBCASTOCTETS, 40) } },
	{ "tcp doff 4", TCP(.doff = 4), { L4(40, TCP, INSEGS), E(TCP, INERRS, 1) } },
	{ "tcp doff beyond segment", TCP(.doff = 6), { L4(40, TCP, INSEGS) } },
	{ "tcp header cut", TCP(.l4len = 12), { L4(32, TCP, INSEGS) } },
	{ "tcp bad csum", TCP(.csum = CS_BAD),
	  { L4(40, TCP, INSEGS), E(TCP, INCSUMERRORS, 1), E(TCP, INERRS, 1) } },
	{ "tcp to bcast", TCP(.dmac = bcast_mac, .daddr = LBCAST),
	  { L4(40, PATH, TCPNOTHOST), BC(40) } },
	{ "tcp to mcast", TCP(.dmac = mc_mac, .daddr = IP4(224, 0, 0, 1)),
	  { L4(40, PATH, TCPNOTHOST), MC(40) } },
	{ "tcp to our address in an L2 bcast", TCP(.dmac = bcast_mac),
	  { L4(40, PATH, TCPNOTHOST), E(RX, BROADCAST, 1) } },
	{ "icmp echo", ICMP(), { L4(36, ICMP, INMSGS), E(ICMP, INECHOS, 1), IM(8) } },
	{ "icmp echo reply", ICMP(.icmp_type = 0),
	  { L4(36, ICMP, INMSGS), E(ICMP, INECHOREPS, 1), IM(0) } },
	{ "icmp bad csum", ICMP(.csum = CS_BAD),
	  { L4(36, ICMP, INMSGS), E(ICMP, INCSUMERRORS, 1), E(ICMP, INERRORS, 1) } },
	{ "icmp echo to bcast", ICMP(.dmac = bcast_mac, .daddr = LBCAST),
	  { L4(36, ICMP, INMSGS), BC(36), E(ICMP, INECHOS, 1), IM(8), E(ICMP, INERRORS, 1) } },
	{ "icmp timestamp to bcast", ICMP(.icmp_type = 13, .dmac = bcast_mac, .daddr = LBCAST),
	  { L4(36, ICMP, INMSGS), BC(36), E(ICMP, INTIMESTAMPS, 1), IM(13), E(ICMP, INERRORS, 1) } },
	{ "icmp addr mask to bcast", ICMP(.icmp_type = 17, .dmac = bcast_mac, .daddr = LBCAST),
	  { L4(36, ICMP, INMSGS), BC(36), E(ICMP, INADDRMASKS, 1), IM(17) } },
	{ "icmp dest unreach to mcast",
	  ICMP(.icmp_type = 3, .pay = 28, .dmac = mc_mac, .daddr = IP4(224, 0, 0, 1)),
	  { L4(56, ICMP, INMSGS), MC(56), E(ICMP, INDESTUNREACHS, 1), IM(3), E(ICMP, INERRORS, 1) } },
	{ "icmp dest unreach", ICMP(.icmp_type = 3, .pay = 28),
	  { L4(56, ICMP, INMSGS), E(ICMP, INDESTUNREACHS, 1), IM(3) } },
	{ "icmp 4 bytes", ICMP(.pay = 0, .l4len = 4),
	  { L4(24, ICMP, INMSGS), E(ICMP, INERRORS, 1) } },
	{ "icmp unknown type 30", ICMP(.icmp_type = 30),
	  { L4(36, ICMP, INMSGS), E(ICMP, INERRORS, 1), IM(30) } },
	/* IP options (ip_rcv_options, after the route) */
	{ "opt nop nop nop eol", UDP(OPT(opt_nop_eol)), { L4(32, UDP, INDATAGRAMS) } },
	{ "opt rr", UDP(OPT(opt_rr)), { L4(36, UDP, INDATAGRAMS) } },
	{ "opt ts", UDP(OPT(opt_ts)), { L4(40, UDP, INDATAGRAMS) } },
	{ "opt router alert", UDP(OPT(opt_ra)), { L4(32, UDP, INDATAGRAMS) } },
	{ "opt eol then garbage", UDP(OPT(opt_eol_garbage)), { L4(32, UDP, INDATAGRAMS) } },
	{ "opt length 1", UDP(OPT(opt_len1)), { DROP(32, IP, INHDRERRORS) } },
	{ "opt length beyond header", UDP(OPT(opt_len_over)), { DROP(32, IP, INHDRERRORS) } },
	{ "opt rr pointer 3", UDP(OPT(opt_rr_ptr3)), { DROP(36, IP, INHDRERRORS) } },
	{ "opt rr twice", UDP(OPT(opt_rr_twice)), { DROP(36, IP, INHDRERRORS) } },
	{ "opt lone type byte", UDP(OPT(opt_lone_byte)), { DROP(32, IP, INHDRERRORS) } },
	{ "opt ts ptr beyond", UDP(OPT(opt_ts_short)), { DROP(36, IP, INHDRERRORS) } },
	{ "opt ts+addr short", UDP(OPT(opt_ts_addr_short)), { DROP(36, IP, INHDRERRORS) } },
	{ "opt ts full, overflow 14", UDP(OPT(opt_ts_full_of14)), { L4(36, UDP, INDATAGRAMS) } },
	{ "opt ts full, overflow 15", UDP(OPT(opt_ts_full_of15)), { DROP(36, IP, INHDRERRORS) } },
	{ "opt lsrr pointer 3", UDP(OPT(opt_lsrr_ptr3)), { DROP(36, IP, INHDRERRORS) } },
	{ "opt lsrr", UDP(OPT(opt_lsrr)), { DROP(36, PATH, IPSRCROUTE) } },
	{ "opt ssrr", UDP(OPT(opt_ssrr)), { DROP(36, PATH, IPSRCROUTE) } },
	{ "opt malformed, martian src: route first", UDP(OPT(opt_len1), .saddr = DST),
	  { DROP(32, PATH, IPINVALIDSOURCE) } },
	{ "opt malformed, not local: options before ip_error",
	  UDP(OPT(opt_len1), .daddr = IP4(8, 8, 8, 8)), { DROP(32, IP, INHDRERRORS) } },
	{ "opt lsrr, not local", UDP(OPT(opt_lsrr), .daddr = IP4(8, 8, 8, 8)),
	  { DROP(36, PATH, IPSRCROUTE) } },
};
/* clang-format on */

static void
__run_table(const struct pcase *t, size_t n)
{
	uint8_t frame[MAXF];
	int bad = 0;
	size_t i;

	for (i = 0; i < n; i++)
		bad += __run(t[i].name, frame, __build(&t[i].f, frame), t[i].e);
	assert_int_equal(bad, 0);
}

static void
test_cases(void **state)
{
	(void)state;
	__run_table(cases, RTE_DIM(cases));
}

/*
 * Linux behaviours path.c once got wrong or did not model (found by these
 * tests and by the kernel-differential test, integration/kdiff.sh), kept so
 * that they stay right. Each case is Linux 6.18's behaviour; see the
 * comment for the kernel reference.
 */
static const uint8_t opt_cipso_short[] = { 134, 6, 0, 0, 0, 1, 0, 0 };
static const uint8_t opt_cipso[] = { 134, 10, 0, 0, 0, 1, 1, 4, 0, 0, 0, 0 };
static const uint8_t opt_cipso_doi0[] = { 134, 10, 0, 0, 0, 0, 1, 4, 0, 0, 0, 0 };

/* Quoted datagrams: an IPv4 header from 10.0.0.1 and 8 bytes of L4 with
 * source port 9 or 10 (9 has a UDP and a UDP-Lite listener). */
#define QUOTE(proto, sport) { 0x45, 0, 0, 28, 0, 1, 0, 0, 64, proto, 0, 0, \
	10, 0, 0, 1, 192, 0, 2, 9, 0, sport, 0, 53, 0, 8, 0, 0 }
static const uint8_t q_udp9[] = QUOTE(17, 9), q_udp10[] = QUOTE(17, 10),
	q_lite9[] = QUOTE(136, 9), q_lite10[] = QUOTE(136, 10), q_tcp[] = QUOTE(6, 9),
	q_raw[] = QUOTE(255, 9), q_pim[] = QUOTE(103, 9), q_icmp[] = QUOTE(1, 9),
	q_igmp[] = QUOTE(2, 9), q_unknown[] = QUOTE(200, 9);
#define QCASE(name, t, c, q, err) { name, ICMP(.icmp_type = t, .icmp_code = c, \
	.pay = sizeof(q), .quote = q, .quote_len = sizeof(q)), \
	{ L4(56, ICMP, INMSGS), IM(t), E(ICMP, QF_##t, 1), err } }
#define QF_3 INDESTUNREACHS
#define QF_4 INSRCQUENCHS
#define QF_5 INREDIRECTS
#define QF_11 INTIMEEXCDS
#define QF_12 INPARMPROBS
#define IERR E(ICMP, INERRORS, 1)
#define NOERR E(ICMP, INERRORS, 0)

static const struct pcase linux_cases[] = {
	/* skb_vlan_untag: pskb_may_pull(skb, VLAN_HLEN + 2) fails -> freed at L2 */
	{ "802.1q tag, 18 bytes", UDP(.vlan = 1, .flen = 18), { RUNT } },
	{ "802.1q tag, 19 bytes", UDP(.vlan = 1, .flen = 19), { RUNT } },
	/* icmp_rcv: ICMP_EXT_ECHO (42) goes to icmp_echo before the type check */
	{ "icmp ext echo (probe)", ICMP(.icmp_type = 42), { L4(36, ICMP, INMSGS), IM(42) } },
	{ "icmp ext echo to bcast: before the broadcast rule",
	  ICMP(.icmp_type = 42, .dmac = bcast_mac, .daddr = LBCAST),
	  { L4(36, ICMP, INMSGS), BC(36), IM(42) } },
	/* icmp_rcv: ICMP_EXT_ECHOREPLY (43) goes to ping_rcv before "type > 18" */
	{ "icmp ext echo reply", ICMP(.icmp_type = 43), { L4(36, ICMP, INMSGS), IM(43) } },
	{ "icmp ext echo reply to bcast: after the broadcast rule",
	  ICMP(.icmp_type = 43, .dmac = bcast_mac, .daddr = LBCAST),
	  { L4(36, ICMP, INMSGS), BC(36), IM(43), E(ICMP, INERRORS, 1) } },
	{ "icmp type 44", ICMP(.icmp_type = 44), { L4(36, ICMP, INMSGS), IM(44), E(ICMP, INERRORS, 1) } },
	/* icmp_unreach: !pskb_may_pull(skb, sizeof(struct iphdr)) -> out_err */
	{ "icmp dest unreach without inner header", ICMP(.icmp_type = 3, .pay = 0),
	  { L4(28, ICMP, INMSGS), E(ICMP, INDESTUNREACHS, 1), IM(3), E(ICMP, INERRORS, 1) } },
	/* icmp_socket_deliver: !pskb_may_pull(skb, iph->ihl * 4 + 8) -> INERRORS */
	{ "icmp time exceeded, inner header without 8 bytes", ICMP(.icmp_type = 11, .pay = 20),
	  { L4(48, ICMP, INMSGS), E(ICMP, INTIMEEXCDS, 1), IM(11), E(ICMP, INERRORS, 1) } },
	/* icmp_redirect: skb->len < sizeof(struct iphdr) -> INERRORS */
	{ "icmp redirect, short", ICMP(.icmp_type = 5, .pay = 4),
	  { L4(32, ICMP, INMSGS), E(ICMP, INREDIRECTS, 1), IM(5), E(ICMP, INERRORS, 1) } },
	/* icmp_timestamp: skb->len < 4 -> out_err */
	{ "icmp timestamp, short", ICMP(.icmp_type = 13, .pay = 0),
	  { L4(28, ICMP, INMSGS), E(ICMP, INTIMESTAMPS, 1), IM(13), E(ICMP, INERRORS, 1) } },
	/* icmp_socket_deliver -> err_handler: no socket -> Icmp InErrors */
	QCASE("unreach quoting udp from a bound port", 3, 3, q_udp9, NOERR),
	QCASE("unreach quoting udp from an unbound port", 3, 3, q_udp10, IERR),
	QCASE("unreach quoting udp-lite from a bound port", 3, 3, q_lite9, NOERR),
	QCASE("unreach quoting udp-lite from an unbound port", 3, 3, q_lite10, IERR),
	QCASE("unreach quoting tcp (no established socket)", 3, 1, q_tcp, IERR),
	QCASE("source quench quoting tcp", 4, 0, q_tcp, IERR),
	QCASE("redirect quoting udp, unbound", 5, 1, q_udp10, IERR),
	QCASE("time exceeded quoting udp, unbound", 11, 0, q_udp10, IERR),
	QCASE("param problem quoting tcp", 12, 0, q_tcp, IERR),
	QCASE("unreach quoting IPPROTO_RAW", 3, 3, q_raw, IERR),
	QCASE("unreach quoting pim (no err_handler)", 3, 3, q_pim, NOERR),
	QCASE("unreach quoting icmp (ping_err, no socket)", 3, 3, q_icmp, NOERR),
	QCASE("unreach quoting igmp", 3, 3, q_igmp, NOERR),
	QCASE("unreach quoting protocol 200", 3, 3, q_unknown, NOERR),
	QCASE("unreach code 16 quoting tcp: out", 3, 16, q_tcp, NOERR),
	QCASE("time exceeded in reassembly quoting tcp: out", 11, 1, q_tcp, NOERR),
	/* icmp_unreach returns for ICMP_EXC_FRAGTIME before the length check */
	{ "time exceeded in reassembly, quote without its 8 bytes",
	  ICMP(.icmp_type = 11, .icmp_code = 1, .pay = 20),
	  { L4(48, ICMP, INMSGS), E(ICMP, INTIMEEXCDS, 1), IM(11) } },
	/* __udp4_lib_rcv(IPPROTO_UDPLITE): coverage, mandatory checksum */
	{ "udplite, listened", UDP(.proto = P_UDPLITE, .pay = 4), { L4(32, UDPLITE, INDATAGRAMS) } },
	{ "udplite coverage 0 is all", UDP(.proto = P_UDPLITE, .ulen = ULEN0),
	  { L4(28, UDPLITE, INDATAGRAMS) } },
	{ "udplite partial coverage", UDP(.proto = P_UDPLITE, .ulen = 8, .pay = 20),
	  { L4(48, UDPLITE, INDATAGRAMS) } },
	{ "udplite zero csum", UDP(.proto = P_UDPLITE, .csum = CS_ZERO),
	  { L4(28, UDPLITE, INERRORS), E(UDPLITE, INCSUMERRORS, 1) } },
	{ "udplite bad csum", UDP(.proto = P_UDPLITE, .csum = CS_BAD),
	  { L4(28, UDPLITE, INERRORS), E(UDPLITE, INCSUMERRORS, 1) } },
	{ "udplite coverage 4", UDP(.proto = P_UDPLITE, .ulen = 4),
	  { L4(28, UDPLITE, INERRORS), E(UDPLITE, INCSUMERRORS, 1) } },
	{ "udplite coverage beyond the datagram", UDP(.proto = P_UDPLITE, .ulen = 9),
	  { L4(28, UDPLITE, INERRORS) } },
	{ "udplite no listener", UDP(.proto = P_UDPLITE, .dport = 10),
	  { L4(28, UDPLITE, NOPORTS) } },
	{ "udplite bcast, no listener", UDP(.proto = P_UDPLITE, .dport = 10, .dmac = bcast_mac,
	  .daddr = LBCAST), { L4(28, UDPLITE, IGNOREDMULTI), BC(28) } },
	/* pim_rcv (CONFIG_IP_PIMSM_V2) consumes it */
	{ "pim", UDP(.proto = 103, .pay = 8), { L4(28, PATH, PIMDELIVERED) } },
	/* cipso_v4_validate with NetLabel and no DOI */
	{ "opt cipso, no DOI configured", UDP(OPT(opt_cipso)), { DROP(40, IP, INHDRERRORS) } },
	/* __ip_options_compile: IPOPT_CIPSO -> cipso_v4_validate: opt_len < 8 */
	{ "opt cipso length 6", UDP(OPT(opt_cipso_short)), { DROP(36, IP, INHDRERRORS) } },
};

/* The kernel configuration pktpath follows by default (NetLabel, PIM-SM v2)
 * and the other one (--netlabel off, --pim off). */
static const struct pcase kconf_off_cases[] = {
	{ "pim without CONFIG_IP_PIMSM_V2", UDP(.proto = 103, .pay = 8),
	  { DROP(28, IP, INUNKNOWNPROTOS) } },
	{ "opt cipso without NetLabel", UDP(OPT(opt_cipso)), { L4(40, UDP, INDATAGRAMS) } },
	{ "opt cipso DOI 0 without NetLabel", UDP(OPT(opt_cipso_doi0)),
	  { DROP(40, IP, INHDRERRORS) } },
	{ "opt cipso length 6 without NetLabel", UDP(OPT(opt_cipso_short)),
	  { DROP(36, IP, INHDRERRORS) } },
};

static void
test_kernel_config(void **state)
{
	(void)state;
	conf.netlabel = false;
	conf.pim = false;
	__run_table(kconf_off_cases, RTE_DIM(kconf_off_cases));
	conf.netlabel = true;
	conf.pim = true;
}

static void
test_linux_parity(void **state)
{
	(void)state;
	__run_table(linux_cases, RTE_DIM(linux_cases));
}

/*
 * A valid frame cut to every length, e.g. 60 bytes (tot_len 46) untagged:
 *   0..13   runt                          -> RxNotIp (+RxRunts)
 *   14..33  fewer than 20 IP bytes        -> InHdrErrors (no ECN count)
 *   34..59  header whole, csum verifiable -> InNoECTPkts, InTruncatedPkts
 *   60      the whole frame               -> delivered
 * and 64 bytes with a tag: 0..19 runt (skb_vlan_untag pulls 4 + 2 bytes),
 * 20..37 InHdrErrors, 38..63 truncated, 64 delivered; 18 and 19 are left to
 * test_linux_parity so that this sweep keeps guarding the other lengths.
 */
static int
__sweep(const struct fspec *f, unsigned int l2, unsigned int runt_below)
{
	uint8_t frame[MAXF];
	uint16_t full = __build(f, frame);
	int bad = 0;
	unsigned int len;

	assert_int_equal(full, l2 + 46);
	for (len = 0; len <= full; len++) {
		struct exp e[8] = { { 0, 0 } };
		unsigned int k = 0;
		char name[32];

		if (f->vlan && (len == 18 || len == 19))
			continue;
		snprintf(name, sizeof(name), "%scut to %u", f->vlan ? "tagged, " : "", len);
		if (f->vlan && len >= runt_below)
			e[k++] = (struct exp)E(RX, VLAN, 1);
		if (len < runt_below) {
			e[k++] = (struct exp)E(RX, RUNTS, 1);
			e[k++] = (struct exp)E(RX, NOTIP, 1);
		} else {
			e[k++] = (struct exp)E(IP, INRECEIVES, 1);
			e[k++] = (struct exp){ MIB_F(IPEXT, INOCTETS), len - l2 };
			if (len < l2 + 20) {
				e[k++] = (struct exp)E(IP, INHDRERRORS, 1);
			} else if (len < full) {
				e[k++] = (struct exp)NOECT;
				e[k++] = (struct exp)E(IPEXT, INTRUNCATEDPKTS, 1);
			} else {
				e[k++] = (struct exp)NOECT;
				e[k++] = (struct exp)DLV;
				e[k++] = (struct exp)E(UDP, INDATAGRAMS, 1);
			}
		}
		bad += __run(name, frame, (uint16_t)len, e);
	}
	return bad;
}

static void
test_truncated(void **state)
{
	const struct fspec plain = UDP(.pay = 18), tagged = UDP(.pay = 18, .vlan = 1, .tci = 7);

	(void)state;
	assert_int_equal(__sweep(&plain, 14, 14) + __sweep(&tagged, 18, 20), 0);
}

/* ---- randomized ---- */

static uint64_t rng_state;

static const struct fspec seeds[] = {
	UDP(.pay = 18), UDP(.dport = 10), UDP(.dmac = bcast_mac, .daddr = LBCAST),
	UDP(.dmac = mc_mac, .daddr = IP4(239, 1, 1, 1)), UDP(.vlan = 1, .pay = 30),
	UDP(OPT(opt_rr)), UDP(OPT(opt_ts)), UDP(.frag = 0x2000), UDP(.proto = 99, .pay = 8),
	TCP(), TCP(.pay = 40), ICMP(), ICMP(.icmp_type = 3, .pay = 28), IGMP(),
	UDP(.daddr = IP4(10, 0, 0, 255)),
};

static void
test_random(void **state)
{
	const unsigned int n = 100000;
	struct mib_set *acc = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	struct mib_block ab;
	uint64_t before[MIB_FIELD_MAX], tot[MIB_FIELD_MAX], sum = 0;
	uint8_t frame[MAXF];
	char why[256];
	unsigned int i, k, f;
	const char *env = getenv("PKTPATH_TEST_SEED");

	(void)state;
	rng_state = env ? strtoull(env, NULL, 0) : UINT64_C(0x9e3779b97f4a7c15);
	if (rng_state == 0)
		rng_state = 1;
	print_message("random seed 0x%" PRIx64 " (PKTPATH_TEST_SEED)\n", rng_state);
	assert_non_null(acc);
	ab = mib_set_block(acc, 0);
	for (i = 0; i < n; i++) {
		const struct fspec *sp = &seeds[test_rand(&rng_state) % RTE_DIM(seeds)];
		uint16_t len = __build(sp, frame);
		unsigned int flips = 1 + test_rand(&rng_state) % 4, r, out, moved = 0;
		uint64_t d[MIB_FIELD_MAX];

		for (k = 0; k < flips; k++) {
			/* mostly headers */
			unsigned int pos = (unsigned int)(test_rand(&rng_state) % (test_rand(&rng_state) & 1 ? 64 : MAXF));

			frame[pos] ^= (uint8_t)(1 + test_rand(&rng_state) % 255);
		}
		r = test_rand(&rng_state) % 10;
		if (r < 3)
			len = (uint16_t)(test_rand(&rng_state) % (len + 1u));
		else if (r < 5)
			len = (uint16_t)RTE_MIN(len + test_rand(&rng_state) % 64, (uint64_t)MAXF);
		if (test_rand(&rng_state) & 1) {	/* re-sum the IP header: reach deeper */
			unsigned int ip = frame[12] == 0x81 ? 18 : 14;
			unsigned int hl = (frame[ip] & 0xf) * 4u;

			if (hl >= 20 && ip + hl <= len) {
				frame[ip + 10] = frame[ip + 11] = 0;
				wire_put16(frame + ip + 10, wire_csum(wire_sum(frame + ip, hl, 0)));
			}
		}
		for (f = 0; f < MIB_FIELD_MAX; f++)
			before[f] = mib_read(&ab, f);
		out = __process(frame, len, &ab);
		for (f = 0; f < MIB_FIELD_MAX; f++)
			d[f] = mib_read(&ab, f) - before[f];
		for (k = 0; k < mib_n_terminals; k++) {
			moved += (unsigned int)d[mib_terminals[k]];
			if (d[mib_terminals[k]] != 0 && mib_terminals[k] != out)
				fail_msg("frame %u: terminal %s moved, outcome %s", i,
					 __fname(mib_terminals[k]), __fname(out));
		}
		if (out >= MIB_FIELD_MAX)
			fail_msg("frame %u: outcome %u out of range", i, out);
		if (moved != 1 || d[out] != 1)
			fail_msg("frame %u (len %u): %u terminal counters moved, outcome %s",
				 i, len, moved, __fname(out));
		if (mib_check_conservation(d, why, sizeof(why)) != 0)
			fail_msg("frame %u: %s", i, why);
		if (path_outcome_delivered(out) &&
		    d[MIB_F(IP, INDELIVERS)] + d[MIB_F(IP6, INDELIVERS)] != 1)
			fail_msg("frame %u: delivered without InDelivers", i);
	}
	mib_fold(acc, MIB_FOLD_FIELD, tot, NULL);
	assert_int_equal(mib_check_conservation(tot, why, sizeof(why)), 0);
	for (k = 0; k < mib_n_terminals; k++)
		sum += tot[mib_terminals[k]];
	assert_int_equal(sum, n);
	assert_int_equal(tot[MIB_F(RX, PACKETS)], n);
	mib_set_free(acc);
}

/*
 * The workers' per-burst tallies (path.h, struct path_tally): random frames
 * in bursts of 1..32, each run through path_l2() + path_rcv_tally() into one
 * tally flushed per burst (block t), and through path_l2() + path_rcv()
 * (block p, every counter at once). Same outcome for every frame; within a
 * burst no field of t is ahead of p and the untallied ones are equal; after
 * each flush both blocks are equal in every field.
 */
static void
test_tally_burst(void **state)
{
	const unsigned int n = 20000;
	struct mib_set *set = mib_set_create(2, MIB_LAYOUT_PERCPU, NULL);
	struct mib_block pb, tb;
	struct path_tally tally;
	uint8_t frame[MAXF];
	unsigned int i = 0, f, k;

	(void)state;
	rng_state = UINT64_C(0x2545f4914f6cdd1d);
	assert_non_null(set);
	pb = mib_set_block(set, 0);
	tb = mib_set_block(set, 1);
	path_tally_init(&tally);
	while (i < n) {
		unsigned int burst = 1 + (unsigned int)(test_rand(&rng_state) % 32);

		for (k = 0; k < burst && i < n; k++, i++) {
			const struct fspec *sp = &seeds[test_rand(&rng_state) % RTE_DIM(seeds)];
			uint16_t len = __build(sp, frame);
			struct rte_mbuf m;
			struct path_l2 l2p, l2t;
			unsigned int op, ot;

			if (test_rand(&rng_state) % 4 == 0)
				frame[(unsigned int)(test_rand(&rng_state) % 64)] ^=
					(uint8_t)(1 + test_rand(&rng_state) % 255);
			if (test_rand(&rng_state) % 8 == 0)
				len = (uint16_t)(test_rand(&rng_state) % (len + 1u));
			__mbuf(&m, frame, len);
			path_l2(&conf, &m, &l2p, &pb);
			op = path_rcv(&conf, &m, &l2p, &pb);
			path_l2(&conf, &m, &l2t, &tb);
			ot = path_rcv_tally(&conf, &m, &l2t, &tb, &tally, NULL);
			if (op != ot)
				fail_msg("frame %u: outcome %s per frame, %s tallied",
					 i, __fname(op), __fname(ot));
		}
		for (f = 0; f < MIB_FIELD_MAX; f++)
			if (mib_read(&tb, f) > mib_read(&pb, f))
				fail_msg("frame %u: %s tallied ahead: %" PRIu64 " > %" PRIu64,
					 i, __fname(f), mib_read(&tb, f), mib_read(&pb, f));
		assert_int_equal(mib_read(&tb, MIB_F(UDP, NOPORTS)),
				 mib_read(&pb, MIB_F(UDP, NOPORTS)));
		assert_int_equal(mib_read(&tb, MIB_F(IP, INHDRERRORS)),
				 mib_read(&pb, MIB_F(IP, INHDRERRORS)));
		path_tally_flush(&tally, &tb);
		for (f = 0; f < MIB_FIELD_MAX; f++)
			if (mib_read(&tb, f) != mib_read(&pb, f))
				fail_msg("after frame %u: %s %" PRIu64 " tallied, %" PRIu64
					 " per frame", i, __fname(f), mib_read(&tb, f),
					 mib_read(&pb, f));
		/* flushing emptied it */
		path_tally_flush(&tally, &tb);
		assert_int_equal(mib_read(&tb, MIB_F(IP, INRECEIVES)),
				 mib_read(&pb, MIB_F(IP, INRECEIVES)));
	}
	assert_true(mib_read(&pb, MIB_F(UDP, INDATAGRAMS)) > 0);
	assert_true(mib_read(&pb, MIB_F(IP, INRECEIVES)) > 0);
	mib_set_free(set);
}

/*
 * path_tally_flush() empties every field of the tally, each where it adds
 * it (the rare ones inside the test that guards them): each field alone
 * non-zero (with Ip6 InReceives for an IPv6 one, which every IPv6 count
 * comes with), flushed, leaves an all-zero tally, and a second flush adds
 * nothing. The table covers the struct byte for byte.
 */
#define TALLY_FIELD(f, v6)                                                               \
	{                                                                                \
#f, offsetof(struct path_tally, f), sizeof(((struct path_tally *)0)->f), \
			v6                                                               \
	}
static const struct {
	const char *name;
	size_t off, size;
	bool v6;
} tally_fields[] = {
	TALLY_FIELD(in_octets, false),	      TALLY_FIELD(in_receives, false),
	TALLY_FIELD(in_delivers, false),      TALLY_FIELD(ecn[0], false),
	TALLY_FIELD(ecn[1], false),	      TALLY_FIELD(ecn[2], false),
	TALLY_FIELD(ecn[3], false),	      TALLY_FIELD(udp_delivered[0], false),
	TALLY_FIELD(udp_delivered[1], false), TALLY_FIELD(peer_hits, false),
	TALLY_FIELD(peer_misses, false),      TALLY_FIELD(in6_receives, true),
	TALLY_FIELD(in6_delivers, true),      TALLY_FIELD(in6_octets, true),
	TALLY_FIELD(ecn6[0], true),	      TALLY_FIELD(ecn6[1], true),
	TALLY_FIELD(ecn6[2], true),	      TALLY_FIELD(ecn6[3], true),
	TALLY_FIELD(udp6_delivered[0], true), TALLY_FIELD(udp6_delivered[1], true),
};

static void
test_tally_flush_empties(void **state)
{
	struct mib_set *set = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	static const uint8_t zero[sizeof(struct path_tally)];
	uint64_t before[MIB_FIELD_MAX];
	struct path_tally t;
	struct mib_block b;
	size_t covered = 0;
	unsigned int i, f;

	(void)state;
	assert_non_null(set);
	b = mib_set_block(set, 0);
	for (i = 0; i < RTE_DIM(tally_fields); i++)
		covered += tally_fields[i].size;
	assert_int_equal(covered, sizeof(struct path_tally));
	for (i = 0; i < RTE_DIM(tally_fields); i++) {
		path_tally_init(&t);
		memset((uint8_t *)&t + tally_fields[i].off, 0x5a, tally_fields[i].size);
		if (tally_fields[i].v6 && t.in6_receives == 0)
			t.in6_receives = 1;
		path_tally_flush(&t, &b);
		if (memcmp(&t, zero, sizeof(t)) != 0)
			fail_msg("%s: the tally is not empty after a flush",
				 tally_fields[i].name);
		for (f = 0; f < MIB_FIELD_MAX; f++)
			before[f] = mib_read(&b, f);
		path_tally_flush(&t, &b);
		for (f = 0; f < MIB_FIELD_MAX; f++)
			if (mib_read(&b, f) != before[f])
				fail_msg("%s: a second flush added to %s",
					 tally_fields[i].name, __fname(f));
	}
	mib_set_free(set);
}

/* ---- path_l2 details, conf API ---- */

static void
test_l2(void **state)
{
	const struct fspec tagged = UDP(.vlan = 1, .tci = 0x2abc, .dmac = bcast_mac);
	const struct fspec mc = UDP(.dmac = mc_mac);
	struct mib_set *s = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	struct mib_block b = mib_set_block(s, 0);
	uint8_t frame[MAXF];
	struct rte_mbuf m;
	struct path_l2 l2;

	(void)state;
	__mbuf(&m, frame, __build(&tagged, frame));
	path_l2(&conf, &m, &l2, &b);
	assert_int_equal(l2.ethertype, 0x0800);
	assert_int_equal(l2.l3_off, 18);
	assert_int_equal(l2.pkt_type, PATH_PKT_BROADCAST);
	assert_int_equal(l2.vlan, 1);
	assert_int_equal(l2.vlan_tci, 0x2abc);
	assert_int_equal(l2.runt, 0);
	__mbuf(&m, frame, __build(&mc, frame));
	path_l2(&conf, &m, &l2, &b);
	assert_int_equal(l2.pkt_type, PATH_PKT_MULTICAST);
	assert_int_equal(l2.l3_off, 14);
	assert_int_equal(l2.vlan, 0);
	__mbuf(&m, frame, 13);
	path_l2(&conf, &m, &l2, &b);
	assert_int_equal(l2.runt, 1);
	assert_int_equal(l2.ethertype, 0);
	assert_int_equal(mib_read(&b, MIB_F(RX, RUNTS)), 1);
	assert_int_equal(mib_read(&b, MIB_F(RX, VLAN)), 1);
	assert_int_equal(mib_read(&b, MIB_F(RX, BROADCAST)), 1);
	assert_int_equal(mib_read(&b, MIB_F(RX, MULTICAST)), 1);
	mib_set_free(s);
}

static void
test_conf(void **state)
{
	struct path_conf *c = malloc(sizeof(*c));
	unsigned int i;

	(void)state;
	assert_non_null(c);
	path_conf_init(c);
	assert_int_equal(c->n_local, 0);
	assert_int_equal(c->n_mcast, 1);
	assert_int_equal(c->mcast[0], IP4(224, 0, 0, 1));
	assert_int_equal(path_conf_add_local(c, DST, 33), -EINVAL);
	for (i = 0; i < PATH_MAX_LOCAL; i++)
		assert_int_equal(path_conf_add_local(c, DST + i, 24), 0);
	assert_int_equal(path_conf_add_local(c, IP4(1, 1, 1, 1), 24), -ENOSPC);
	assert_int_equal(path_conf_add_mcast(c, IP4(10, 0, 0, 1)), -EINVAL);
	assert_int_equal(path_conf_add_mcast(c, IP4(240, 0, 0, 1)), -EINVAL);
	assert_int_equal(path_conf_add_mcast(c, IP4(224, 0, 0, 1)), 0);	/* dup */
	assert_int_equal(c->n_mcast, 1);
	for (i = 1; i < PATH_MAX_MCAST; i++)
		assert_int_equal(path_conf_add_mcast(c, IP4(239, 0, 0, 0) + i), 0);
	assert_int_equal(path_conf_add_mcast(c, IP4(238, 0, 0, 1)), -ENOSPC);
	path_conf_add_udp_ports(c, 65530, 65535);	/* up to the top: no wrap */
	path_conf_add_udp_ports(c, 0, 0);
	for (i = 0; i < 65536; i++)
		assert_int_equal((c->udp_ports[i / 64] >> (i % 64)) & 1, i == 0 || i >= 65530);
	free(c);
	for (i = 0; i < MIB_FIELD_MAX; i++)
		assert_int_equal(path_outcome_delivered(i),
				 i == MIB_F(UDP, INDATAGRAMS) ||
					 i == MIB_F(TCP, INSEGS) ||
					 i == MIB_F(ICMP, INMSGS) ||
					 i == MIB_F(PATH, IGMPDELIVERED) ||
					 i == MIB_F(UDPLITE, INDATAGRAMS) ||
					 i == MIB_F(PATH, PIMDELIVERED) ||
					 i == MIB_F(PATH, IP6NONEXTHDR) ||
					 i == MIB_F(ICMP6, INMSGS) ||
					 i == MIB_F(UDP6, INDATAGRAMS) ||
					 i == MIB_F(UDPLITE6, INDATAGRAMS));
}

static int
__path_setup(void **state)
{
	static const uint16_t vids[] = { 5, 7, 0xabc };
	unsigned int i;

	(void)state;
	path_conf_init(&conf);
	for (i = 0; i < RTE_DIM(vids); i++) {
		struct pkt_vlan_stack s = { 1, { { PKT_ETH_P_8021Q, vids[i], vids[i] } } };

		if (path_vlans_add(&conf.vlan, &s) != 0)
			return -1;
	}
	memcpy(conf.mac.addr_bytes, our_mac, 6);
	if (path_conf_add_local(&conf, DST, 24) != 0 ||
	    path_conf_add_local(&conf, IP4(172, 16, 5, 1), 32) != 0 ||
	    path_conf_add_local(&conf, IP4(192, 168, 7, 0), 31) != 0 ||
	    path_conf_add_local(&conf, IP4(192, 168, 8, 1), 30) != 0 ||
	    path_conf_add_mcast(&conf, IP4(239, 1, 1, 1)) != 0)
		return -1;
	path_conf_add_udp_ports(&conf, 9, 9);
	path_conf_add_udplite_ports(&conf, 9, 9);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf),
		cmocka_unit_test(test_l2),
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_tally_burst),
		cmocka_unit_test(test_tally_flush_empties),
		cmocka_unit_test(test_linux_parity),
		cmocka_unit_test(test_kernel_config),
	};

	return cmocka_run_group_tests(tests, __path_setup, NULL);
}
