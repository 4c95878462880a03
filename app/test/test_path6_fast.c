/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 fast path (path6.c __p6_udp_fast) against the full path
 * (__p6_rcv_full): for every frame, the fast path either declines having
 * counted nothing, or gives the full path's verdict with the full path's
 * counters, every field of the MIB (Ip6, Udp6, UdpLite6, Icmp6, the Out
 * counters of what the host would send, Path...). The frames: a valid UDP
 * datagram to a local address, then each byte of its headers changed and
 * each length cut (exhaustively over payload lengths and header
 * alignments), then random frames: addresses local, on-link, off-link,
 * link-local, loopback, unspecified, multicast of each scope; next
 * headers; lengths (payload and UDP, short, long, 0); hop limits, traffic
 * classes; checksums right, wrong, zero, partial; UDP-Lite; truncations,
 * padding, a second segment; the device's checksum flags with --rx-csum hw.
 * path_rcv() (the dispatch, both in turn) must agree too. No EAL.
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
#include "path6_pvt.h"
#include "test_rand.h"
#include "wire.h"
#include "test_mib_name.h"

#define MAXF 2048

static const uint8_t our_mac[6] = { 0x02, 0x70, 0x63, 0x61, 0x70, 0x00 };

static struct path_conf conf;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* The destinations and sources a frame is given: the port's (fd70::1 and
 * fd70::5 from --local6, its link-local one), others. */
static const char *const dsts[] = {
	"fd70::1",
	"fd70::5",
	"fe80::70:63ff:fe61:7000",
	"fd70::9",
	"2001:db8::9",
	"::1",
	"::",
	"ff02::1",
	"ff01::1",
	"ff00::1",
	"ff02::5",
	"ff02::1:ff00:1",
	"ff05::5",
	"fe80::9",
	"fe80::70:63ff:fe61:7001",
	"fe80::1:70:63ff:fe61:7000",
	"::ffff:10.0.0.1",
	"fd70::101",
};
static const char *const srcs[] = {
	"fd70::2", "fe80::2", "2001:db8::7", "::1",
	"ff02::9", "::",      "fd70::1",     "fe80::70:63ff:fe61:7000",
	"ff01::1",
};
static uint8_t dst_a[sizeof(dsts) / sizeof(dsts[0])][16];
static uint8_t src_a[sizeof(srcs) / sizeof(srcs[0])][16];

/* ---- frames ---- */

struct frame {
	uint8_t b[MAXF];
	uint32_t len;	/* bytes of the frame */
	uint16_t l3;	/* offset of the IPv6 header */
	uint32_t split; /* 0: one segment; else the first one's length */
	uint64_t flags; /* the mbuf's ol_flags */
	uint8_t pkt_type;
};

/* The UDP or UDP-Lite checksum over cov bytes at u, pseudo length plen. */
static uint16_t
__fast_l4_csum(const uint8_t *ip, const uint8_t *u, uint32_t cov, uint32_t plen,
	       uint8_t proto)
{
	uint32_t s = wire_sum(ip + 8, 32, 0);

	s += (plen >> 16) + (plen & 0xffff) + proto;
	return wire_csum(wire_sum(u, cov, s));
}

/* The pseudo header's folded sum: a partial checksum (CHECKSUM_PARTIAL). */
static uint16_t
__fast_partial(const uint8_t *ip, uint32_t plen, uint8_t proto)
{
	uint32_t s = wire_sum(ip + 8, 32, 0);

	return wire_fold(s + (plen >> 16) + (plen & 0xffff) + proto);
}

/* A valid UDP datagram from src to dst, port dport, pay payload bytes, at
 * offset l3 of fr. */
static void
__fast_build(struct frame *fr, uint16_t l3, const uint8_t *src, const uint8_t *dst,
	     uint16_t dport, uint32_t pay)
{
	uint8_t *ip = fr->b + l3, *u = ip + 40;
	uint32_t i, ul = 8 + pay;

	memset(fr->b, 0, sizeof(fr->b));
	memcpy(fr->b, our_mac, 6);
	wire_put16(fr->b + l3 - 2, 0x86dd);
	ip[0] = 0x60;
	wire_put16(ip + 4, ul);
	ip[6] = 17;
	ip[7] = 64;
	memcpy(ip + 8, src, 16);
	memcpy(ip + 24, dst, 16);
	wire_put16(u, 40000);
	wire_put16(u + 2, dport);
	wire_put16(u + 4, ul);
	for (i = 0; i < pay; i++)
		u[8 + i] = (uint8_t)(i * 37 + 11);
	wire_put16(u + 6, __fast_l4_csum(ip, u, ul, ul, 17));
	if (wire_get16(u + 6) == 0)
		wire_put16(u + 6, 0xffff);
	fr->l3 = l3;
	fr->len = l3 + 40 + ul;
	fr->split = 0;
	fr->flags = 0;
	fr->pkt_type = PATH_PKT_HOST;
}

/* The UDP checksum of fr made right again for its current addresses and
 * UDP length (or what the frame holds past the header, when the length is
 * 0 or beyond it): so that a changed header byte is seen by the checks
 * after the checksum's, not only by the checksum. */
static void
__fast_fix_csum(struct frame *fr)
{
	uint8_t *ip = fr->b + fr->l3, *u = ip + 40;
	uint32_t have = fr->len > fr->l3 + 40u ? fr->len - fr->l3 - 40u : 0, ul;
	uint16_t c;

	if (have < 8)
		return;
	ul = wire_get16(u + 4);
	if (ul < 8 || ul > have)
		ul = have;
	wire_put16(u + 6, 0);
	c = __fast_l4_csum(ip, u, ul, ul, 17);
	wire_put16(u + 6, c ? c : 0xffff);
}

/* ---- running one ---- */

struct sets {
	struct mib_set *s[3];
	struct mib_block b[3]; /* fast then full, full alone, path_rcv */
	unsigned long frames, fast, cut_fast;
	unsigned long verdicts[MIB_FIELD_MAX + 1];
};

static void
__fast_hex(const struct frame *fr)
{
	uint32_t i;

	print_message("frame (%u bytes, l3 at %u, split %u, flags %#" PRIx64 "):",
		      fr->len, fr->l3, fr->split, fr->flags);
	for (i = fr->l3; i < fr->len && i < fr->l3 + 96u; i++)
		print_message("%s%02x", (i - fr->l3) % 16 ? " " : "\n  ", fr->b[i]);
	print_message("\n");
}

/* Every field of blocks a and b the same; else the first differences. */
static void
__fast_same(const struct mib_block *a, const struct mib_block *b, const char *what,
	    const struct frame *fr)
{
	unsigned int f, n = 0;

	if (memcmp(a->base, b->base, MIB_FIELD_MAX * sizeof(uint64_t)) == 0)
		return;
	for (f = 0; f < MIB_FIELD_MAX; f++)
		if (mib_read(a, f) != mib_read(b, f) && n++ < 8)
			print_error("%s: %s %" PRIu64 " against %" PRIu64 "\n", what,
				    test_mib_name(f), mib_read(a, f), mib_read(b, f));
	__fast_hex(fr);
	fail_msg("%s: %u fields differ", what, n);
}

static void
__fast_mbuf(const struct frame *fr, uint8_t *copy, struct rte_mbuf *m,
	    struct rte_mbuf *m2)
{
	memcpy(copy, fr->b, fr->len);
	memset(m, 0, sizeof(*m));
	memset(m2, 0, sizeof(*m2));
	m->buf_addr = copy;
	m->pkt_len = fr->len;
	m->ol_flags = fr->flags;
	m->nb_segs = 1;
	if (fr->split == 0 || fr->split >= fr->len) {
		m->buf_len = m->data_len = (uint16_t)fr->len;
		return;
	}
	m->buf_len = m->data_len = (uint16_t)fr->split;
	m2->buf_addr = copy + fr->split;
	m2->buf_len = m2->data_len = (uint16_t)(fr->len - fr->split);
	m2->nb_segs = 1;
	m->nb_segs = 2;
	m->next = m2;
}

/* One frame through the fast path then (if it declines) the full one into
 * b[0], through the full path alone into b[1], through path_rcv() into
 * b[2]: the same verdict, the same fields (the blocks were the same
 * before). */
static void
__fast_one(struct sets *x, const struct frame *fr)
{
	/* exact size: ASan sees an over-read */
	uint8_t *copy = malloc(fr->len ? fr->len : 1);
	static const struct path_tally zero;
	struct path_tally t0, t1;
	struct rte_mbuf m, m2;
	struct path_l2 l2 = {
		.ethertype = 0x86dd,
		.l3_off = fr->l3,
		.pkt_type = fr->pkt_type,
	};
	unsigned int f0, f1, f2;

	assert_non_null(copy);
	__fast_mbuf(fr, copy, &m, &m2);
	path_tally_init(&t0);
	path_tally_init(&t1);
	f0 = __p6_udp_fast(&conf, &m, l2.l3_off, &t0);
	if (f0 == P6_FULL_PATH) {
		if (memcmp(&t0, &zero, sizeof(t0)) != 0) {
			__fast_hex(fr);
			fail_msg("the fast path declined with something tallied");
		}
		__fast_same(&x->b[0], &x->b[1], "the fast path declined", fr);
		f0 = __p6_rcv_full(&conf, &m, &l2, &x->b[0], &t0, NULL);
	} else {
		x->fast++;
		if (fr->split != 0 && fr->split < fr->len)
			x->cut_fast++;
	}
	path_tally_flush(&t0, &x->b[0]);
	f1 = __p6_rcv_full(&conf, &m, &l2, &x->b[1], &t1, NULL);
	path_tally_flush(&t1, &x->b[1]);
	f2 = path_rcv(&conf, &m, &l2, &x->b[2]);
	if (f0 != f1 || f2 != f1) {
		__fast_hex(fr);
		fail_msg("verdicts: fast %s, full %s, path_rcv %s", test_mib_name(f0),
			 test_mib_name(f1), test_mib_name(f2));
	}
	__fast_same(&x->b[0], &x->b[1], "fast against full", fr);
	__fast_same(&x->b[2], &x->b[1], "path_rcv against full", fr);
	x->verdicts[f1 < MIB_FIELD_MAX ? f1 : MIB_FIELD_MAX]++;
	x->frames++;
	free(copy);
}

static void
__fast_sets(struct sets *x)
{
	unsigned int i;

	memset(x, 0, sizeof(*x));
	for (i = 0; i < 3; i++) {
		x->s[i] = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
		assert_non_null(x->s[i]);
		x->b[i] = mib_set_block(x->s[i], 0);
		assert_int_equal(x->b[i].shift, 0);
	}
}

static void
__fast_sets_free(struct sets *x, const char *what)
{
	unsigned int i, f, n = 0;

	print_message("%s: %lu frames, %lu by the fast path (%lu of them in two "
		      "segments); verdicts:",
		      what, x->frames, x->fast, x->cut_fast);
	for (f = 0; f <= MIB_FIELD_MAX; f++)
		if (x->verdicts[f] != 0)
			print_message("%s %s %lu", n++ % 4 ? "," : "\n ",
				      test_mib_name(f), x->verdicts[f]);
	print_message("\n");
	for (i = 0; i < 3; i++)
		mib_set_free(x->s[i]);
}

/* ---- the frames ---- */

/* The valid datagram, then each byte of the IPv6 and UDP headers (and the
 * first payload bytes) changed in turn, each length cut, for payloads
 * about the 16-byte steps of the sum and CHECKSUM_BREAK, at an even and
 * an odd header offset. */
static void
test_fast_mutations(void **state)
{
	static const uint32_t pays[] = { 0,  1,	 2,  3,	 4,  7,	 8,  15, 16,  17,
					 24, 31, 32, 33, 36, 37, 68, 69, 100, 1400 };
	static const uint16_t l3s[] = { 14, 15, 18 };
	static const uint8_t xors[] = { 0x01, 0x02, 0x10, 0x40, 0x80, 0xff };
	static struct sets x;
	static struct frame fr, base;
	unsigned int p, a, i, k;

	(void)state;
	__fast_sets(&x);
	for (a = 0; a < sizeof(l3s) / sizeof(l3s[0]); a++) {
		for (p = 0; p < sizeof(pays) / sizeof(pays[0]); p++) {
			__fast_build(&base, l3s[a], src_a[0], dst_a[0], 9, pays[p]);
			__fast_one(&x, &base);
			/* each byte of the headers and 8 of the payload */
			for (i = base.l3; i < base.l3 + 56u && i < base.len; i++)
				for (k = 0; k < sizeof(xors); k++) {
					fr = base;
					fr.b[i] ^= xors[k];
					__fast_one(&x, &fr);
					__fast_fix_csum(&fr);
					__fast_one(&x, &fr);
					fr.b[i] = 0;
					__fast_one(&x, &fr);
					__fast_fix_csum(&fr);
					__fast_one(&x, &fr);
				}
			/* every length, short and long */
			for (i = base.l3; i <= base.len + 3; i++) {
				fr = base;
				fr.len = i;
				__fast_one(&x, &fr);
			}
			/* every split into two segments */
			for (i = 1; i < base.len; i++) {
				fr = base;
				fr.split = i;
				__fast_one(&x, &fr);
			}
		}
	}
	assert_true(x.fast >= 3 * 20);
	__fast_sets_free(&x, "mutations");
}

static uint32_t
__fast_pick(uint32_t n)
{
	return (uint32_t)(test_rand(&rng) % n);
}

/* A random frame: most fields near a valid datagram's, each mutation at
 * some rate. */
static void
__fast_random(struct frame *fr)
{
	static const uint8_t nexthdrs[] = { 17, 17, 17, 17, 136, 136, 0,  6,
					    58, 44, 43, 60, 59,	 103, 200 };
	static const uint16_t dports[] = { 9, 9, 9, 53, 4242, 0, 65535 };
	static const uint16_t l3s[] = { 14, 14, 14, 15, 18, 22 };
	uint32_t pay = __fast_pick(8) == 0 ? __fast_pick(1500) : __fast_pick(80);
	uint8_t *ip, *u, nh;
	uint32_t plen, ul;
	uint16_t c;

	__fast_build(fr, l3s[__fast_pick(sizeof(l3s) / 2)],
		     __fast_pick(3) ? src_a[0]
				    : src_a[__fast_pick(sizeof(srcs) / sizeof(srcs[0]))],
		     __fast_pick(2) ? dst_a[__fast_pick(3)]
				    : dst_a[__fast_pick(sizeof(dsts) / sizeof(dsts[0]))],
		     dports[__fast_pick(sizeof(dports) / 2)], pay);
	ip = fr->b + fr->l3;
	u = ip + 40;
	plen = wire_get16(ip + 4);
	nh = __fast_pick(3) ? 17 : nexthdrs[__fast_pick(sizeof(nexthdrs))];
	ip[6] = nh;
	if (nh == 136) { /* UDP-Lite: coverage 0 (all) or some */
		ul = __fast_pick(2) ? 0 : __fast_pick(plen + 4);
		wire_put16(u + 4, ul);
		wire_put16(u + 6, 0);
		wire_put16(u + 6, __fast_l4_csum(ip, u, ul == 0 || ul > plen ? plen : ul,
						 plen, 136));
	}
	if (__fast_pick(8) == 0) /* version */
		ip[0] = (uint8_t)(__fast_pick(16) << 4 | (ip[0] & 0xf));
	ip[0] = (uint8_t)((ip[0] & 0xf0) | __fast_pick(16)); /* traffic class */
	ip[1] = (uint8_t)(__fast_pick(256));
	ip[7] = (uint8_t)(__fast_pick(4) ? 64 : __fast_pick(256)); /* hop limit */
	switch (__fast_pick(12)) { /* the payload length */
	case 0:
		wire_put16(ip + 4, 0);
		break;
	case 1:
		wire_put16(ip + 4, plen + 1 + __fast_pick(16));
		break;
	case 2:
		wire_put16(ip + 4, plen > 0 ? __fast_pick(plen) : 0);
		break;
	default:
		break;
	}
	switch (__fast_pick(12)) { /* the UDP length */
	case 0:
		wire_put16(u + 4, 0);
		break;
	case 1:
		wire_put16(u + 4, __fast_pick(8));
		break;
	case 2:
		wire_put16(u + 4, plen + 1 + __fast_pick(16));
		break;
	case 3: /* shorter than the payload, its checksum over it */
		ul = 8 + (plen > 8 ? __fast_pick(plen - 8) : 0);
		wire_put16(u + 4, ul);
		wire_put16(u + 6, 0);
		c = __fast_l4_csum(ip, u, ul, ul, 17);
		wire_put16(u + 6, c ? c : 0xffff);
		break;
	default:
		break;
	}
	switch (__fast_pick(10)) { /* the checksum */
	case 0:
		wire_put16(u + 6, 0);
		break;
	case 1:
		wire_put16(u + 6, wire_get16(u + 6) ^ (1u << __fast_pick(16)));
		break;
	case 2: /* right either way: 0xffff and 0 are the same sum */
		if (wire_get16(u + 6) == 0xffff)
			wire_put16(u + 6, 0);
		break;
	case 3: /* partial (what a sender leaves to its device) */
		wire_put16(u + 6,
			   __fast_partial(ip,
					  wire_get16(u + 4) ? wire_get16(u + 4) : plen,
					  ip[6]));
		break;
	default:
		break;
	}
	if (__fast_pick(10) == 0) /* a byte anywhere */
		fr->b[fr->l3 + __fast_pick(fr->len - fr->l3)] = (uint8_t)__fast_pick(256);
	switch (__fast_pick(10)) { /* the frame's length */
	case 0:
		fr->len = fr->l3 + __fast_pick(fr->len - fr->l3 + 1);
		break;
	case 1:
		fr->len += __fast_pick(40);
		break;
	default:
		break;
	}
	if (__fast_pick(8) == 0 && fr->len > 1)
		fr->split = 1 + __fast_pick(fr->len - 1);
	fr->pkt_type = (uint8_t)(__fast_pick(4) ? PATH_PKT_HOST : __fast_pick(3));
}

/* Random frames under three configurations: software checksums; the
 * device's flags honoured (--rx-csum hw), each frame with random ones;
 * partial checksums recognised (--rx-csum-partial). */
static void
test_fast_random(void **state)
{
	static const uint64_t l4f[] = { RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN,
					RTE_MBUF_F_RX_L4_CKSUM_BAD,
					RTE_MBUF_F_RX_L4_CKSUM_GOOD,
					RTE_MBUF_F_RX_L4_CKSUM_NONE };
	static struct sets x;
	static struct frame fr;
	static const char *const names[] = { "random, --rx-csum sw",
					     "random, --rx-csum hw",
					     "random, partial checksums" };
	unsigned int mode, i;

	(void)state;
	for (mode = 0; mode < 3; mode++) {
		conf.csum_hw = mode == 1;
		conf.csum_partial = mode == 2;
		__fast_sets(&x);
		for (i = 0; i < 200000; i++) {
			__fast_random(&fr);
			if (mode == 1)
				fr.flags = l4f[__fast_pick(4)];
			__fast_one(&x, &fr);
		}
		/* the valid share took the fast path */
		assert_true(x.fast > x.frames / 20);
		assert_true(x.verdicts[MIB_F(UDP6, INERRORS)] > 0);
		assert_true(x.verdicts[MIB_F(UDP6, NOPORTS)] > 0);
		assert_true(x.verdicts[MIB_F(UDPLITE6, INDATAGRAMS)] > 0);
		assert_true(x.verdicts[MIB_F(IP6, INHDRERRORS)] > 0);
		assert_true(x.verdicts[MIB_F(IP6, INTRUNCATEDPKTS)] > 0);
		__fast_sets_free(&x, names[mode]);
	}
	conf.csum_hw = 0;
	conf.csum_partial = 0;
}

/* The generator's own frames (--family ipv6, its defaults but the
 * addresses: fd70::2 to fd70::1, port 9) take the fast path, each one. */
static void
test_fast_generated(void **state)
{
	static struct sets x;
	static struct frame fr;
	unsigned int i;

	(void)state;
	__fast_sets(&x);
	for (i = 0; i < 64; i++) {
		__fast_build(&fr, 14, src_a[0], dst_a[i % 2], 9, i % 3);
		fr.b[fr.l3 + 23] = (uint8_t)i; /* the source's last byte */
		wire_put16(fr.b + fr.l3 + 46, 0);
		{
			uint8_t *ip = fr.b + fr.l3;
			uint16_t c =
				__fast_l4_csum(ip, ip + 40, 8 + i % 3, 8 + i % 3, 17);

			wire_put16(ip + 46, c ? c : 0xffff);
		}
		__fast_one(&x, &fr);
	}
	assert_int_equal(x.fast, 64);
	assert_int_equal(x.verdicts[MIB_F(UDP6, INDATAGRAMS)], 64);
	__fast_sets_free(&x, "generated");
}

static int
__fast_setup(void **state)
{
	unsigned int i;

	(void)state;
	path_conf_init(&conf);
	memcpy(conf.mac.addr_bytes, our_mac, 6);
	for (i = 0; i < sizeof(dsts) / sizeof(dsts[0]); i++)
		if (inet_pton(AF_INET6, dsts[i], dst_a[i]) != 1)
			return -1;
	for (i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++)
		if (inet_pton(AF_INET6, srcs[i], src_a[i]) != 1)
			return -1;
	if (path_conf_add_local6(&conf, dst_a[0], 64) != 0 ||
	    path_conf_add_local6(&conf, dst_a[1], 64) != 0)
		return -1;
	path_conf_add_udp_ports(&conf, 9, 9);
	path_conf_add_udp_ports(&conf, 53, 53);
	path_conf_add_udplite_ports(&conf, 9, 9);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_generated),
		cmocka_unit_test(test_fast_mutations),
		cmocka_unit_test(test_fast_random),
	};

	return cmocka_run_group_tests(tests, __fast_setup, NULL);
}
