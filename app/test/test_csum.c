/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/path's checksum decisions (path_csum.h) and of every
 * path stage on multi-segment mbufs.
 *
 *  - test_flags: every RX checksum flag (IP and L4: UNKNOWN, BAD, GOOD,
 *    NONE) x --rx-csum hw/sw x partial on/off, on frames whose checksums are
 *    right, wrong or partial (the field written as Linux writes it for
 *    CHECKSUM_PARTIAL: ~csum_tcpudp_magic(saddr, daddr, len, proto, 0),
 *    computed here from RFC 1071 sums, not with path.c's code). The
 *    expected counters follow the table in path_csum.h, restated below.
 *  - test_partial_only_that_value: with the partial rule on, every wrong
 *    UDP/TCP checksum but the partial value still counts InCsumErrors.
 *  - test_segments: frames of every kind (IPv4 and IPv6) split into 2 and
 *    3 segments at every offset (headers straddling segments, 1-byte segments) give the
 *    same outcome and the same counters as the contiguous frame.
 *  - test_ip_hdr_sum, test_sum_words: the sums of 32-bit words equal
 *    rte_raw_cksum()'s of 16-bit words (every length, alignment, extreme).
 * No EAL; each segment is a malloc'd buffer of exactly its length (ASan
 * sees an over-read).
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

#include <rte_mbuf.h>

#include "mib.h"
#include "path.h"
#include "wire.h"

#define IP4(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))
#define SRC IP4(198, 51, 100, 2)
#define DST IP4(198, 51, 100, 1)
#define MAXF 1600

static const uint8_t our_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t src_mac[6] = { 0x02, 0, 0, 0, 0, 0x02 };
static struct path_conf conf;

enum l4cs { CS_RIGHT, CS_WRONG, CS_PARTIAL };

/* The upper-layer header at u (UDP to dport, a TCP SYN with MSS, SACK and
 * timestamp-like options when tcp_opts, or an ICMP echo request of type
 * echo) and pay bytes of payload after it, its checksum field left 0;
 * *l4n its length. Returns the checksum field's offset in it. */
static uint16_t
__l4(uint8_t *u, uint8_t proto, uint8_t echo, uint16_t dport, uint16_t pay, bool tcp_opts,
     uint32_t *l4n)
{
	uint32_t l4h = proto == IPPROTO_TCP ? (tcp_opts ? 20u + 12u : 20u) : 8u, i;

	*l4n = l4h + pay;
	for (i = 0; i < pay; i++)
		u[l4h + i] = (uint8_t)(i * 13 + 5);
	if (proto == IPPROTO_UDP) {
		wire_put16(u, 40000);
		wire_put16(u + 2, dport);
		wire_put16(u + 4, *l4n);
		return 6;
	}
	if (proto == IPPROTO_TCP) {
		wire_put16(u, 40000);
		wire_put16(u + 2, dport);
		wire_put32(u + 4, 12345);
		u[12] = (uint8_t)((l4h / 4) << 4);
		u[13] = 0x02; /* SYN */
		wire_put16(u + 14, 64240);
		if (tcp_opts) {
			/* MSS 1460, SACK permitted, NOPs, window scale 7 */
			static const uint8_t opts[12] = { 2, 4, 1460 >> 8, 1460 & 0xff,
							  4, 2, 1,	   1,
							  1, 3, 3,	   7 };

			memcpy(u + 20, opts, sizeof(opts));
		}
		return 16;
	}
	u[0] = echo; /* echo request */
	wire_put16(u + 4, 77);
	wire_put16(u + 6, 1);
	return 2;
}

/* Ethernet + IPv4 (+ options) + UDP/TCP/ICMP with pay bytes of payload;
 * the L4 checksum right, wrong (by one bit) or partial; the IP header
 * checksum right unless bad_ip. Returns the frame length. */
static uint16_t
__frame(uint8_t *b, uint8_t proto, uint16_t dport, uint16_t pay, enum l4cs cs,
	bool bad_ip, uint8_t optlen, bool vlan)
{
	uint32_t ip = vlan ? 18 : 14, hl = 20u + optlen, l4n, i, ph;
	uint8_t *u;
	uint16_t c, off;

	memset(b, 0, MAXF);
	memcpy(b, our_mac, 6);
	memcpy(b + 6, src_mac, 6);
	if (vlan) {
		wire_put16(b + 12, 0x8100);
		wire_put16(b + 14, 5);
	}
	wire_put16(b + ip - 2, 0x0800);
	u = b + ip + hl;
	off = __l4(u, proto, 8, dport, pay, true, &l4n);
	/* IPv4 header */
	b[ip] = (uint8_t)(0x40 | hl / 4);
	wire_put16(b + ip + 2, hl + l4n);
	wire_put16(b + ip + 4, 0x4321);
	wire_put16(b + ip + 6, 0x4000);	/* DF */
	b[ip + 8] = 64;
	b[ip + 9] = proto;
	wire_put32(b + ip + 12, SRC);
	wire_put32(b + ip + 16, DST);
	for (i = 0; i + 1 < optlen; i++)	/* NOPs, then an EOL */
		b[ip + 20 + i] = 1;
	c = wire_csum(wire_sum(b + ip, hl, 0));
	wire_put16(b + ip + 10, bad_ip ? (uint16_t)(c ^ 0x0100) : c);

	/* L4 checksum: the pseudo header (RFC 768/793) only for UDP/TCP. */
	ph = proto == IPPROTO_ICMP ? 0 : (SRC >> 16) + (SRC & 0xffff) +
		(DST >> 16) + (DST & 0xffff) + proto + l4n;
	if (cs == CS_PARTIAL) {
		/* udp4_hwcsum / __tcp_v4_send_check: ~csum_tcpudp_magic(.., 0),
		 * the folded pseudo-header sum, left for the device. */
		c = wire_fold(ph);
	} else {
		c = wire_csum(wire_sum(u, l4n, ph));
		if (proto == IPPROTO_UDP && c == 0)
			c = 0xffff;
		if (cs == CS_WRONG)
			c ^= 0x0010;
	}
	wire_put16(u + off, c);
	return (uint16_t)(ip + hl + l4n);
}

static const uint8_t src6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
static const uint8_t dst6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

/* Ethernet + IPv6 (+ an 8-byte destination options header when dopt) +
 * UDP/TCP/ICMPv6 with pay bytes of payload; the L4 checksum over the
 * IPv6 pseudo header (RFC 8200 8.1) right or wrong (by one bit). Returns
 * the frame length. */
static uint16_t
__frame6(uint8_t *b, uint8_t proto, uint16_t dport, uint16_t pay, enum l4cs cs, bool dopt)
{
	uint32_t ip = 14, ext = dopt ? 8u : 0u, l4n;
	uint8_t *u, ph[40];
	uint16_t c, off;

	memset(b, 0, MAXF);
	memcpy(b, our_mac, 6);
	memcpy(b + 6, src_mac, 6);
	wire_put16(b + 12, 0x86dd);
	u = b + ip + 40 + ext;
	off = __l4(u, proto, 128, dport, pay, false, &l4n);
	b[ip] = 0x60;
	wire_put16(b + ip + 4, ext + l4n);
	b[ip + 6] = dopt ? 60 : proto;
	b[ip + 7] = 64;
	memcpy(b + ip + 8, src6, 16);
	memcpy(b + ip + 24, dst6, 16);
	if (dopt) { /* next header, length 0, a PadN of 4 bytes */
		b[ip + 40] = proto;
		b[ip + 42] = 1;
		b[ip + 43] = 4;
	}
	memcpy(ph, src6, 16);
	memcpy(ph + 16, dst6, 16);
	memset(ph + 32, 0, 8);
	wire_put16(ph + 34, l4n);
	ph[39] = proto;
	c = wire_csum(wire_sum(u, l4n, wire_sum(ph, sizeof(ph), 0)));
	if (proto == IPPROTO_UDP && c == 0)
		c = 0xffff;
	if (cs == CS_WRONG)
		c ^= 0x0010;
	wire_put16(u + off, c);
	return (uint16_t)(ip + 40 + ext + l4n);
}

/* An mbuf chain over frame, cut at the offsets cuts[0..n-1] (increasing,
 * inside the frame); segments are exact-size heap buffers. */
static struct rte_mbuf *
__chain(const uint8_t *frame, uint16_t len, const uint16_t *cuts, unsigned int n)
{
	struct rte_mbuf *head = NULL, *prev = NULL;
	unsigned int i;
	uint16_t at = 0;

	for (i = 0; i <= n; i++) {
		uint16_t end = i < n ? cuts[i] : len, sl = (uint16_t)(end - at);
		struct rte_mbuf *m = calloc(1, sizeof(*m));
		uint8_t *buf = malloc(sl ? sl : 1);

		assert_non_null(m);
		assert_non_null(buf);
		memcpy(buf, frame + at, sl);
		m->buf_addr = buf;
		m->buf_len = sl;
		m->data_len = sl;
		m->nb_segs = 1;
		if (prev != NULL)
			prev->next = m;
		else
			head = m;
		prev = m;
		at = end;
	}
	head->pkt_len = len;
	head->nb_segs = (uint16_t)(n + 1);
	return head;
}

static void
__chain_free(struct rte_mbuf *m)
{
	while (m != NULL) {
		struct rte_mbuf *next = m->next;

		free(m->buf_addr);
		free(m);
		m = next;
	}
}

/* Run m through path_l2 + path_rcv with c in a fresh block; the counters
 * into v[MIB_FIELD_MAX]; returns the outcome. */
static unsigned int
__csum_run(const struct path_conf *c, struct rte_mbuf *m, uint64_t *v)
{
	struct mib_set *s = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	struct mib_block b;
	struct path_l2 l2;
	unsigned int out, f;

	assert_non_null(s);
	b = mib_set_block(s, 0);
	path_l2(c, m, &l2, &b);
	out = path_rcv(c, m, &l2, &b);
	for (f = 0; f < MIB_FIELD_MAX; f++)
		v[f] = mib_read(&b, f);
	mib_set_free(s);
	return out;
}

static unsigned int
__run_flat(const struct path_conf *c, const uint8_t *frame, uint16_t len,
	   uint64_t ol_flags, uint64_t *v)
{
	struct rte_mbuf *m = __chain(frame, len, NULL, 0);
	unsigned int out;

	m->ol_flags = ol_flags;
	out = __csum_run(c, m, v);
	__chain_free(m);
	return out;
}

static const uint64_t ip_flags[] = { RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN,
	RTE_MBUF_F_RX_IP_CKSUM_BAD, RTE_MBUF_F_RX_IP_CKSUM_GOOD,
	RTE_MBUF_F_RX_IP_CKSUM_NONE };
static const uint64_t l4_flags[] = { RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN,
	RTE_MBUF_F_RX_L4_CKSUM_BAD, RTE_MBUF_F_RX_L4_CKSUM_GOOD,
	RTE_MBUF_F_RX_L4_CKSUM_NONE };

/* The mapping of path_csum.h, restated: what Linux does for the matching
 * ip_summed. hw: --rx-csum hw honours the flags; sw ignores them. */
static bool
__trusted(bool hw, uint64_t flag, uint64_t good, uint64_t none)
{
	return hw && (flag == good || flag == none);
}

static void
test_flags(void **state)
{
	static const uint8_t protos[] = { IPPROTO_UDP, IPPROTO_TCP, IPPROTO_ICMP };
	uint8_t frame[MAXF];
	uint64_t v[MIB_FIELD_MAX];
	unsigned int pi, cs, bip, hw, part, fi, fl, bad = 0, runs = 0;

	(void)state;
	for (pi = 0; pi < RTE_DIM(protos); pi++)
	for (cs = CS_RIGHT; cs <= CS_PARTIAL; cs++)
	for (bip = 0; bip < 2; bip++)
	for (hw = 0; hw < 2; hw++)
	for (part = 0; part < 2; part++)
	for (fi = 0; fi < RTE_DIM(ip_flags); fi++)
	for (fl = 0; fl < RTE_DIM(l4_flags); fl++) {
		uint8_t proto = protos[pi];
		struct path_conf c = conf;
		uint16_t len;
		unsigned int out;
		bool ip_ok, l4_ok, err_l4;

		if (proto == IPPROTO_ICMP && cs == CS_PARTIAL)
			continue;	/* Linux never leaves ICMP partial */
		c.csum_hw = (uint8_t)hw;
		c.csum_partial = (uint8_t)part;
		len = __frame(frame, proto, 9, 18, (enum l4cs)cs, bip, 0, false);
		out = __run_flat(&c, frame, len, ip_flags[fi] | l4_flags[fl], v);
		runs++;
		ip_ok = !bip || __trusted(hw, ip_flags[fi], RTE_MBUF_F_RX_IP_CKSUM_GOOD,
					  RTE_MBUF_F_RX_IP_CKSUM_NONE);
		l4_ok = cs == CS_RIGHT ||
			__trusted(hw, l4_flags[fl], RTE_MBUF_F_RX_L4_CKSUM_GOOD,
				  RTE_MBUF_F_RX_L4_CKSUM_NONE) ||
			(cs == CS_PARTIAL && part);
		err_l4 = ip_ok && !l4_ok;
#define CHECK(cond, ...) do { if (!(cond)) { bad++; print_error(__VA_ARGS__); } } while (0)
		CHECK(v[MIB_F(IPEXT, INCSUMERRORS)] == !ip_ok &&
		      v[MIB_F(IP, INHDRERRORS)] == !ip_ok,
		      "proto %u cs %u badip %u hw %u part %u flags %#" PRIx64 ": IP csum "
		      "errors %" PRIu64 "\n", proto, cs, bip, hw, part,
		      ip_flags[fi] | l4_flags[fl], v[MIB_F(IPEXT, INCSUMERRORS)]);
		if (proto == IPPROTO_UDP) {
			CHECK(v[MIB_F(UDP, INCSUMERRORS)] == err_l4 &&
			      v[MIB_F(UDP, INERRORS)] == err_l4 &&
			      v[MIB_F(UDP, INDATAGRAMS)] == (ip_ok && l4_ok) &&
			      out == (!ip_ok ? MIB_F(IP, INHDRERRORS) : err_l4 ?
				      MIB_F(UDP, INERRORS) : MIB_F(UDP, INDATAGRAMS)),
			      "udp cs %u badip %u hw %u part %u flags %#" PRIx64 ": "
			      "InCsumErrors %" PRIu64 " InDatagrams %" PRIu64 "\n", cs,
			      bip, hw, part, ip_flags[fi] | l4_flags[fl],
			      v[MIB_F(UDP, INCSUMERRORS)], v[MIB_F(UDP, INDATAGRAMS)]);
		} else if (proto == IPPROTO_TCP) {
			CHECK(v[MIB_F(TCP, INCSUMERRORS)] == err_l4 &&
			      v[MIB_F(TCP, INERRS)] == err_l4 &&
			      v[MIB_F(TCP, INSEGS)] == ip_ok,
			      "tcp cs %u badip %u hw %u part %u flags %#" PRIx64 ": "
			      "InCsumErrors %" PRIu64 "\n", cs, bip, hw, part,
			      ip_flags[fi] | l4_flags[fl], v[MIB_F(TCP, INCSUMERRORS)]);
		} else {
			CHECK(v[MIB_F(ICMP, INCSUMERRORS)] == err_l4 &&
			      v[MIB_F(ICMP, INERRORS)] == err_l4 &&
			      v[MIB_F(ICMP, INECHOS)] == (ip_ok && l4_ok),
			      "icmp cs %u badip %u hw %u flags %#" PRIx64 ": InCsumErrors %"
			      PRIu64 "\n", cs, bip, hw, ip_flags[fi] | l4_flags[fl],
			      v[MIB_F(ICMP, INCSUMERRORS)]);
		}
	}
	print_message("%u flag/mode/frame combinations\n", runs);
	assert_int_equal(bad, 0);
}

static void
test_partial_only_that_value(void **state)
{
	static const uint8_t protos[] = { IPPROTO_UDP, IPPROTO_TCP };
	uint8_t frame[MAXF];
	uint64_t v[MIB_FIELD_MAX];
	struct path_conf c = conf;
	unsigned int pi, x, accepted = 0, wrong = 0;

	(void)state;
	c.csum_partial = 1;
	for (pi = 0; pi < RTE_DIM(protos); pi++) {
		uint8_t proto = protos[pi];
		uint16_t len = __frame(frame, proto, 9, 18, CS_PARTIAL, false, 0, false);
		unsigned int ip = 14, field = ip + 20 + (proto == IPPROTO_UDP ? 6 : 16);
		uint16_t partial = (uint16_t)(frame[field] << 8 | frame[field + 1]);
		uint8_t good[MAXF];
		uint16_t right;

		__frame(good, proto, 9, 18, CS_RIGHT, false, 0, false);
		right = (uint16_t)(good[field] << 8 | good[field + 1]);
		/* Every 16-bit value of the field: only the right checksum and
		 * the partial one are accepted (UDP: 0 too, "no checksum"). */
		for (x = 0; x < 65536; x++) {
			unsigned int err;

			wire_put16(frame + field, x);
			__run_flat(&c, frame, len, 0, v);
			err = (unsigned int)(proto == IPPROTO_UDP ?
				v[MIB_F(UDP, INCSUMERRORS)] : v[MIB_F(TCP, INCSUMERRORS)]);
			/* 0 and 0xffff are the same one's complement number. */
			if (x == right || x == partial ||
			    (proto == IPPROTO_UDP && x == 0) ||
			    (x == 0 && (right == 0xffff || partial == 0xffff))) {
				if (err != 0)
					wrong++;
				accepted++;
			} else if (err != 1) {
				wrong++;
				print_error("proto %u field %#x accepted\n", proto, x);
			}
		}
	}
	print_message("%u field values accepted, of 2 x 65536\n", accepted);
	assert_true(accepted >= 3 + 2);
	assert_int_equal(wrong, 0);
}

/* Same outcome and counters as the contiguous frame, for every split. */
static unsigned int
__segments(const struct path_conf *c, const uint8_t *frame, uint16_t len,
	   const char *what)
{
	uint64_t want[MIB_FIELD_MAX], got[MIB_FIELD_MAX];
	unsigned int out = __run_flat(c, frame, len, 0, want), bad = 0, f;
	uint16_t k, cuts[2];

	for (k = 1; k < len; k++) {
		unsigned int n, o;

		for (n = 1; n <= 2; n++) {
			struct rte_mbuf *m;

			cuts[0] = k;
			cuts[1] = (uint16_t)(k + 1 + (k % 7));	/* 1..7-byte middle */
			if (n == 2 && cuts[1] >= len)
				continue;
			m = __chain(frame, len, cuts, n);
			o = __csum_run(c, m, got);
			__chain_free(m);
			if (o != out) {
				bad++;
				print_error("%s: %u segments cut at %u: outcome %u, "
					    "contiguous %u\n", what, n + 1, k, o, out);
			}
			for (f = 0; f < MIB_FIELD_MAX; f++)
				if (got[f] != want[f]) {
					bad++;
					print_error("%s: %u segments cut at %u: %s.%s %"
						    PRIu64 ", contiguous %" PRIu64 "\n",
						    what, n + 1, k,
						    mib_group_name(mib_field_group(f)),
						    mib_field_name(f), got[f], want[f]);
				}
		}
	}
	return bad;
}

/* __segments() of an IPv6 frame whose contiguous run counts 1 in field
 * (so that no case passes by being dropped before its checksum). */
static unsigned int
__segments6(const uint8_t *frame, uint16_t len, unsigned int field, const char *what)
{
	uint64_t v[MIB_FIELD_MAX];

	__run_flat(&conf, frame, len, 0, v);
	if (v[field] != 1) {
		print_error("%s: %s.%s %" PRIu64 ", not 1\n", what,
			    mib_group_name(mib_field_group(field)), mib_field_name(field),
			    v[field]);
		return 1;
	}
	return __segments(&conf, frame, len, what);
}

static void
test_segments(void **state)
{
	struct path_conf part = conf;
	uint8_t frame[MAXF];
	unsigned int bad = 0;

	(void)state;
	part.csum_partial = 1;
	bad += __segments(&conf, frame, __frame(frame, IPPROTO_UDP, 9, 40, CS_RIGHT,
		false, 0, false), "udp");
	bad += __segments(&conf, frame, __frame(frame, IPPROTO_UDP, 9, 40, CS_WRONG,
		false, 0, false), "udp, wrong checksum");
	bad += __segments(&part, frame, __frame(frame, IPPROTO_UDP, 10, 40, CS_PARTIAL,
		false, 0, true), "udp, partial, vlan");
	bad += __segments(&conf, frame, __frame(frame, IPPROTO_UDP, 9, 1400, CS_RIGHT,
		false, 0, false), "udp, 1400 bytes");
	bad += __segments(&conf, frame, __frame(frame, IPPROTO_TCP, 80, 0, CS_RIGHT,
		false, 12, false), "tcp syn, ip options");
	bad += __segments(&part, frame, __frame(frame, IPPROTO_TCP, 80, 3, CS_PARTIAL,
		false, 0, false), "tcp, partial");
	bad += __segments(&conf, frame, __frame(frame, IPPROTO_TCP, 80, 5, CS_WRONG,
		false, 0, false), "tcp, wrong checksum");
	bad += __segments(&conf, frame, __frame(frame, IPPROTO_ICMP, 0, 56, CS_RIGHT,
		false, 40, false), "icmp echo, 40 bytes of options");
	bad += __segments(&conf, frame, __frame(frame, IPPROTO_ICMP, 0, 33, CS_WRONG,
		true, 0, false), "icmp, bad ip header checksum");
	/* IPv6: the checksum is mandatory (path_csum_sum_mbuf() over the
	 * chain, the pseudo header added first), an odd payload, a
	 * destination options header before the upper layer. */
	bad += __segments6(frame, __frame6(frame, IPPROTO_UDP, 9, 41, CS_RIGHT, false),
			   MIB_F(UDP6, INDATAGRAMS), "udp6, 41 bytes");
	bad += __segments6(frame, __frame6(frame, IPPROTO_UDP, 9, 40, CS_WRONG, true),
			   MIB_F(UDP6, INCSUMERRORS),
			   "udp6, wrong checksum, destination options");
	bad += __segments6(frame, __frame6(frame, IPPROTO_UDP, 9, 1400, CS_RIGHT, false),
			   MIB_F(UDP6, INDATAGRAMS), "udp6, 1400 bytes");
	bad += __segments6(frame, __frame6(frame, IPPROTO_TCP, 80, 3, CS_RIGHT, true),
			   MIB_F(TCP, INSEGS), "tcp6 syn, destination options");
	bad += __segments6(frame, __frame6(frame, IPPROTO_TCP, 80, 5, CS_WRONG, false),
			   MIB_F(TCP, INCSUMERRORS), "tcp6, wrong checksum");
	bad += __segments6(frame, __frame6(frame, IPPROTO_ICMPV6, 0, 57, CS_RIGHT, false),
			   MIB_F(ICMP6, INMSGS), "icmp6 echo, 57 bytes");
	bad += __segments6(frame, __frame6(frame, IPPROTO_ICMPV6, 0, 56, CS_WRONG, false),
			   MIB_F(ICMP6, INCSUMERRORS), "icmp6 echo, wrong checksum");
	assert_int_equal(bad, 0);
}

static int
__csum_eal_setup(void **state)
{
	(void)state;
	path_conf_init(&conf);
	memcpy(conf.mac.addr_bytes, our_mac, 6);
	if (path_conf_add_local(&conf, DST, 24) != 0 ||
	    path_conf_add_local6(&conf, dst6, 64) != 0)
		return -1;
	path_conf_add_udp_ports(&conf, 9, 9);
	return 0;
}

/* path_csum_ip_hdr() (32-bit words into 64 bits) equals rte_raw_cksum() on
 * every header length, at every alignment, for random headers and for the
 * sums that fold to 0xffff (right checksums) and to its neighbours. */
static void
test_ip_hdr_sum(void **state)
{
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
	uint8_t buf[64 + 4];
	unsigned int i, k, hl, al, right = 0;

	(void)state;
	for (i = 0; i < 200000; i++) {
		hl = 20 + 4 * (i % 11);
		al = (i / 11) % 4;
		for (k = 0; k < hl; k++) {
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
			buf[al + k] = (uint8_t)((x * UINT64_C(2685821657736338717)) >> 56);
		}
		if (i % 3 == 0) {	/* a right checksum, or one bit off */
			uint16_t c;

			buf[al + 10] = buf[al + 11] = 0;
			c = (uint16_t)~rte_raw_cksum(buf + al, hl);
			memcpy(buf + al + 10, &c, 2);
			if (i % 6 == 3)
				buf[al + (i % hl)] ^= (uint8_t)(1u << (i % 8));
		}
		if (i % 1000 == 7)	/* all ones, all zero */
			memset(buf + al, i % 2000 == 7 ? 0xff : 0, hl);
		assert_int_equal(path_csum_ip_hdr(buf + al, hl), rte_raw_cksum(buf + al, hl));
		right += path_csum_ip_hdr(buf + al, hl) == 0xffff;
	}
	assert_true(right >= 200000 / 6);
}

/* The xorshift of test_ip_hdr_sum(): n bytes into b. */
static void
__fill(uint64_t *x, uint8_t *b, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		*x ^= *x >> 12;
		*x ^= *x << 25;
		*x ^= *x >> 27;
		b[k] = (uint8_t)((*x * UINT64_C(2685821657736338717)) >> 56);
	}
}

/*
 * path_csum_add() + path_csum_fold() (32-bit words into 64 bits), and
 * path_csum_add64() (64-bit words with the carry), equal
 * rte_raw_cksum() (16-bit words) for every length 0..1600, every alignment
 * 0..7, on random bytes, all ones and all zeros; and path_csum_pseudo6()
 * equals rte_raw_cksum() of the pseudo header written out byte by byte
 * (RFC 8200 8.1).
 */
static void
test_sum_words(void **state)
{
	uint64_t x = UINT64_C(0x243f6a8885a308d3);
	uint8_t buf[1600 + 8], ph[40];
	unsigned int len, al, kind;

	(void)state;
	for (len = 0; len <= 1600; len++) {
		for (al = 0; al < 8; al++) {
			for (kind = 0; kind < 3; kind++) {
				uint16_t raw;

				if (kind == 0)
					__fill(&x, buf + al, len);
				else
					memset(buf + al, kind == 1 ? 0xff : 0, len);
				raw = rte_raw_cksum(buf + al, len);
				assert_int_equal(
					path_csum_fold(path_csum_add(buf + al, len, 0)),
					raw);
				/* 64-bit words with the carry (IPv6's fast path) */
				assert_int_equal(
					path_csum_fold(path_csum_add64(0, buf + al, len)),
					raw);
			}
		}
	}
	for (len = 0; len < 20000; len++) {
		uint32_t l;
		uint8_t proto, s6[16], d6[16];
		uint16_t want;

		__fill(&x, buf, 5);
		memcpy(&l, buf, 4);
		proto = buf[4];
		__fill(&x, s6, 16);
		__fill(&x, d6, 16);
		if (len % 100 == 1) { /* the sums' extremes */
			l = len % 200 == 1 ? UINT32_MAX : 0;
			memset(s6, len % 200 == 1 ? 0xff : 0, 16);
			memset(d6, len % 200 == 1 ? 0xff : 0, 16);
		}
		memcpy(ph, s6, 16);
		memcpy(ph + 16, d6, 16);
		ph[32] = (uint8_t)(l >> 24), ph[33] = (uint8_t)(l >> 16);
		ph[34] = (uint8_t)(l >> 8), ph[35] = (uint8_t)l;
		ph[36] = ph[37] = ph[38] = 0, ph[39] = proto;
		want = rte_raw_cksum(ph, 40);
		assert_int_equal(path_csum_fold(path_csum_pseudo6(s6, d6, proto, l)),
				 want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_partial_only_that_value),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_ip_hdr_sum),
		cmocka_unit_test(test_sum_words),
	};

	return cmocka_run_group_tests(tests, __csum_eal_setup, NULL);
}
