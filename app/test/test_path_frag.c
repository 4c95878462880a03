/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/path's IPv4 reassembly (path_frag.c) against Linux
 * 6.18's ip_defrag, ip_frag_queue, inet_frag_queue_insert, ip_frag_reasm
 * and ip_expire: datagrams split into fragments sent in every order, with
 * duplicates, overlaps as the kernel's runs decide them, inconsistent last
 * fragments, mixed ECN, the 65535-byte limit, the timeout on a clock the
 * test moves, and the memory limit under a flood. After every scenario the
 * conservation laws hold (ReasmReqds = IpFragQueued + IpFragDropped +
 * ReasmOKs among them), and a context with no queue left holds no memory.
 *
 * No EAL: mbufs on the stack around malloc'd buffers of the frame's exact
 * length, MIB blocks from mib_set_create(..., NULL), contexts made with
 * socket -1.
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
#define SRC	IP4(198, 18, 0, 1)
#define DST	IP4(10, 0, 0, 1)
#define PORT	4242
#define TIMEOUT 1000u
#define MF	0x2000
#define DF	0x4000

static const uint8_t our_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static struct path_conf conf;

/* A datagram's IP payload (an L4 header and its data), room for the
 * largest. */
static uint8_t dgram[70000];

/* One scenario: a MIB block and a reassembly context. */
struct run {
	struct mib_set *s;
	struct mib_block b;
	struct path_frag *f;
};

static void
__begin(struct run *r, uint64_t high)
{
	struct path_frag_conf fc = { .high_thresh = high, .timeout = TIMEOUT };

	r->s = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(r->s);
	r->b = mib_set_block(r->s, 0);
	r->f = path_frag_create(&fc, -1);
	assert_non_null(r->f);
}

static uint64_t
__rd(const struct run *r, unsigned int f)
{
	return mib_read(&r->b, f);
}

/* The laws, the fragments' own, and no memory without a queue. */
static void
__end(struct run *r)
{
	uint64_t tot[MIB_FIELD_MAX];
	char why[256];

	mib_fold(r->s, MIB_FOLD_LCORE, tot, NULL);
	/* the reassembly law among them: ReasmReqds = IpFragQueued +
	 * IpFragDropped + ReasmOKs */
	if (mib_check_conservation(tot, why, sizeof(why)) != 0)
		fail_msg("conservation: %s", why);
	if (r->f->n_queues == 0)
		assert_int_equal(r->f->mem, 0);
	path_frag_free(r->f);
	mib_set_free(r->s);
}

/* A UDP datagram to PORT of len bytes (header included) in dgram. */
static void
__udp(uint32_t len)
{
	uint32_t i, s;

	for (i = 8; i < len; i++)
		dgram[i] = (uint8_t)(i * 7 + 1);
	wire_put16(dgram, 1000);
	wire_put16(dgram + 2, PORT);
	wire_put16(dgram + 4, len);
	wire_put16(dgram + 6, 0);
	s = wire_sum(dgram, len, 0);
	s += (SRC >> 16) + (SRC & 0xffff) + (DST >> 16) + (DST & 0xffff);
	s += IPPROTO_UDP + len;
	wire_put16(dgram + 6, wire_csum(s) ? wire_csum(s) : 0xffff);
}

/* An ICMP echo request of len bytes in dgram. */
static void
__echo(uint32_t len)
{
	uint32_t i;

	memset(dgram, 0, 8);
	dgram[0] = 8;
	for (i = 8; i < len; i++)
		dgram[i] = (uint8_t)i;
	wire_put16(dgram + 2, wire_csum(wire_sum(dgram, len, 0)));
}

/* Send bytes [off, off + len) of dgram as a fragment: its frag_off is
 * off / 8 with flags (MF, DF); tos's low bits its ECN field. */
static unsigned int
__send(struct run *r, uint16_t id, uint8_t proto, uint32_t off, uint32_t len,
       uint16_t flags, uint8_t tos)
{
	uint32_t n = 14 + 20 + len;
	uint8_t *p = malloc(n);
	struct rte_mbuf m;
	struct path_l2 l2;
	unsigned int out;

	assert_non_null(p);
	memcpy(p, our_mac, 6);
	memset(p + 6, 0x02, 6);
	wire_put16(p + 12, 0x0800);
	p[14] = 0x45;
	p[15] = tos;
	wire_put16(p + 16, 20 + len);
	wire_put16(p + 18, id);
	wire_put16(p + 20, (off / 8) | flags);
	p[22] = 64;
	p[23] = proto;
	wire_put16(p + 24, 0);
	wire_put32(p + 26, SRC);
	wire_put32(p + 30, DST);
	wire_put16(p + 24, wire_csum(wire_sum(p + 14, 20, 0)));
	memcpy(p + 34, dgram + off, len);
	memset(&m, 0, sizeof(m));
	m.buf_addr = p;
	m.buf_len = m.data_len = (uint16_t)n;
	m.pkt_len = n;
	m.nb_segs = 1;
	mib_inc(&r->b, MIB_F(RX, PACKETS));
	mib_add(&r->b, MIB_F(RX, OCTETS), n);
	path_l2(&conf, &m, &l2, &r->b);
	out = path_rcv_frag(&conf, &m, &l2, &r->b, r->f);
	free(p);
	return out;
}

#define QUEUED	  MIB_F(PATH, IPFRAGQUEUED)
#define DROPPED	  MIB_F(PATH, IPFRAGDROPPED)
#define DELIVERED MIB_F(UDP, INDATAGRAMS)

/* A 4000-byte UDP datagram in 4 fragments, sent in every order; each
 * order again with a duplicate of an earlier fragment before each later
 * one. The last one sent delivers the datagram. */
static void
test_orders(void **state)
{
	static const uint32_t off[5] = { 0, 1024, 2048, 3072, 4000 };
	unsigned int perm[24][4], np = 0, a, b, c, d, p, dup, k;

	(void)state;
	for (a = 0; a < 4; a++)
		for (b = 0; b < 4; b++)
			for (c = 0; c < 4; c++)
				for (d = 0; d < 4; d++)
					if (a != b && a != c && a != d && b != c &&
					    b != d && c != d) {
						perm[np][0] = a, perm[np][1] = b;
						perm[np][2] = c, perm[np][3] = d;
						np++;
					}
	__udp(4000);
	for (p = 0; p < np; p++) {
		for (dup = 0; dup < 4; dup++) { /* 0: none; k: before the k-th */
			struct run r;
			unsigned int want;

			__begin(&r, PATH_FRAG_HIGH_DEFAULT);
			for (k = 0; k < 4; k++) {
				unsigned int i = perm[p][k];

				if (dup != 0 && k == dup) {
					unsigned int j = perm[p][k - 1];

					assert_int_equal(__send(&r, 7, IPPROTO_UDP,
								off[j],
								off[j + 1] - off[j],
								j < 3 ? MF : 0, 0),
							 DROPPED);
				}
				want = k < 3 ? QUEUED : DELIVERED;
				if (__send(&r, 7, IPPROTO_UDP, off[i],
					   off[i + 1] - off[i], i < 3 ? MF : 0,
					   0) != want)
					fail_msg("order %u%u%u%u dup %u: fragment %u",
						 perm[p][0], perm[p][1], perm[p][2],
						 perm[p][3], dup, k);
			}
			assert_int_equal(__rd(&r, MIB_F(IP, REASMREQDS)), 4 + (dup != 0));
			assert_int_equal(__rd(&r, MIB_F(IP, REASMOKS)), 1);
			assert_int_equal(__rd(&r, MIB_F(IP, REASMFAILS)), 0);
			assert_int_equal(__rd(&r, MIB_F(IP, INDELIVERS)), 1);
			assert_int_equal(__rd(&r, MIB_F(UDP, INDATAGRAMS)), 1);
			assert_int_equal(r.f->n_queues, 0);
			__end(&r);
		}
	}
}

/* Overlaps and duplicates as inet_frag_queue_insert decides them over its
 * runs (a fragment and those appended after it at the tail): the steps,
 * (offset, end, MF) in 8-byte units, and the last step's outcome. */
static void
test_overlaps(void **state)
{
	static const struct {
		const char *name;
		unsigned int n;
		uint8_t s[4][3];
		bool overlap; /* else a duplicate */
	} cases[] = {
		{ "past the tail, into it", 2, { { 0, 2, 1 }, { 1, 3, 1 } }, true },
		{ "past the tail, from before it",
		  2,
		  { { 1, 2, 1 }, { 0, 3, 1 } },
		  true },
		{ "inside one run of two",
		  3,
		  { { 0, 1, 1 }, { 1, 2, 1 }, { 0, 2, 1 } },
		  false },
		{ "the same fragment", 2, { { 1, 2, 1 }, { 1, 2, 1 } }, false },
		{ "the same last fragment", 2, { { 1, 2, 0 }, { 1, 2, 0 } }, false },
		{ "over two runs",
		  4,
		  { { 0, 1, 1 }, { 2, 3, 1 }, { 1, 2, 1 }, { 0, 2, 1 } },
		  true },
		{ "part of a run", 3, { { 0, 1, 1 }, { 2, 3, 1 }, { 0, 2, 1 } }, true },
		{ "inside a middle run",
		  4,
		  { { 0, 1, 1 }, { 3, 4, 1 }, { 1, 3, 1 }, { 2, 3, 1 } },
		  false },
	};
	unsigned int i, k, out = 0;

	(void)state;
	__udp(64);
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct run r;

		__begin(&r, PATH_FRAG_HIGH_DEFAULT);
		for (k = 0; k < cases[i].n; k++) {
			const uint8_t *s = cases[i].s[k];

			out = __send(&r, 9, IPPROTO_UDP, s[0] * 8u, (s[1] - s[0]) * 8u,
				     s[2] ? MF : 0, 0);
			if (k + 1 < cases[i].n && out != QUEUED)
				fail_msg("[%s] step %u not queued", cases[i].name, k);
		}
		if (out != DROPPED)
			fail_msg("[%s] last step: %u", cases[i].name, out);
		assert_int_equal(__rd(&r, MIB_F(IPEXT, REASMOVERLAPS)), cases[i].overlap);
		assert_int_equal(__rd(&r, MIB_F(IP, REASMFAILS)), cases[i].overlap);
		/* an overlap drops the whole queue, a duplicate only itself */
		assert_int_equal(r.f->n_queues, cases[i].overlap ? 0 : 1);
		__end(&r);
	}
}

/* ip_frag_queue's checks of where a fragment ends: each step's outcome
 * (offset, end in 8-byte units, MF, the outcome, queues after). */
static void
test_ends(void **state)
{
	static const struct {
		const char *name;
		unsigned int n;
		struct {
			uint8_t o, e, mf;
			unsigned int out, queues;
		} s[3];
		unsigned int fails;
	} cases[] = {
		{ "an empty fragment", 1, { { 1, 1, 1, DROPPED, 0 } }, 1 },
		{ "an empty last fragment", 1, { { 1, 1, 0, DROPPED, 0 } }, 1 },
		{ "a last one before queued data",
		  2,
		  { { 1, 3, 1, QUEUED, 1 }, { 1, 2, 0, DROPPED, 0 } },
		  1 },
		{ "a second, other last one",
		  2,
		  { { 1, 2, 0, QUEUED, 1 }, { 2, 3, 0, DROPPED, 0 } },
		  1 },
		{ "data past the last one",
		  2,
		  { { 1, 2, 0, QUEUED, 1 }, { 2, 3, 1, DROPPED, 0 } },
		  1 },
		{ "the queue goes, not the next one",
		  3,
		  { { 1, 2, 0, QUEUED, 1 },
		    { 2, 3, 1, DROPPED, 0 },
		    { 0, 1, 1, QUEUED, 1 } },
		  1 },
	};
	unsigned int i, k;

	(void)state;
	__udp(64);
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct run r;

		__begin(&r, PATH_FRAG_HIGH_DEFAULT);
		for (k = 0; k < cases[i].n; k++) {
			unsigned int out =
				__send(&r, 3, IPPROTO_UDP, cases[i].s[k].o * 8u,
				       (cases[i].s[k].e - cases[i].s[k].o) * 8u,
				       cases[i].s[k].mf ? MF : 0, 0);

			if (out != cases[i].s[k].out ||
			    r.f->n_queues != cases[i].s[k].queues)
				fail_msg("[%s] step %u: outcome %u, %u queues",
					 cases[i].name, k, out, r.f->n_queues);
		}
		assert_int_equal(__rd(&r, MIB_F(IP, REASMFAILS)), cases[i].fails);
		__end(&r);
	}
}

/* A fragment with more to come ends on 8 bytes: the rest is cut (and
 * comes again in the next one); the datagram is the sender's. */
static void
test_unaligned(void **state)
{
	struct run r;

	(void)state;
	__udp(30);
	__begin(&r, PATH_FRAG_HIGH_DEFAULT);
	assert_int_equal(__send(&r, 4, IPPROTO_UDP, 0, 13, MF, 0), QUEUED);
	assert_int_equal(__send(&r, 4, IPPROTO_UDP, 8, 22, 0, 0), DELIVERED);
	assert_int_equal(__rd(&r, MIB_F(IP, REASMOKS)), 1);
	__end(&r);
}

/* ip_frag_ecn_table: Not-ECT with CE is refused when the datagram is
 * complete; ECT(0) with CE is a CE datagram. */
static void
test_ecn(void **state)
{
	static const struct {
		uint8_t a, b;
		bool ok;
	} cases[] = { { 0, 3, false }, { 0, 2, false }, { 0, 1, false }, { 2, 3, true },
		      { 1, 2, true },  { 0, 0, true },	{ 3, 3, true } };
	unsigned int i;

	(void)state;
	__udp(64);
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct run r;

		__begin(&r, PATH_FRAG_HIGH_DEFAULT);
		assert_int_equal(__send(&r, 5, IPPROTO_UDP, 0, 32, MF, cases[i].a),
				 QUEUED);
		assert_int_equal(__send(&r, 5, IPPROTO_UDP, 32, 32, 0, cases[i].b),
				 cases[i].ok ? DELIVERED : QUEUED);
		assert_int_equal(__rd(&r, MIB_F(IP, REASMFAILS)), !cases[i].ok);
		assert_int_equal(__rd(&r, MIB_F(IP, REASMOKS)), cases[i].ok);
		assert_int_equal(r.f->n_queues, 0);
		__end(&r);
	}
}

/* 65535 bytes is the largest datagram (ip_frag_reasm: -E2BIG past it):
 * header and data ending at 65515, 65520 and 65536 (the furthest a
 * fragment offset reaches). */
static void
test_max_size(void **state)
{
	static const struct {
		uint32_t end;
		bool ok;
	} cases[] = { { 65515, true }, { 65520, false }, { 65536, false } };
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct run r;

		__udp(RTE_MIN(cases[i].end, 65515u));
		__begin(&r, PATH_FRAG_HIGH_DEFAULT);
		assert_int_equal(__send(&r, 6, IPPROTO_UDP, 0, 32768, MF, 0), QUEUED);
		assert_int_equal(
			__send(&r, 6, IPPROTO_UDP, 32768, cases[i].end - 32768, 0, 0),
			cases[i].ok ? DELIVERED : QUEUED);
		assert_int_equal(__rd(&r, MIB_F(IP, REASMOKS)), cases[i].ok);
		assert_int_equal(__rd(&r, MIB_F(IP, REASMFAILS)), !cases[i].ok);
		assert_int_equal(__rd(&r, MIB_F(UDP, INDATAGRAMS)), cases[i].ok);
		assert_int_equal(r.f->n_queues, 0);
		__end(&r);
	}
}

/* Fragments of datagrams that differ in one part of the key (id,
 * protocol, source) go to queues of their own, interleaved. */
static void
test_keys(void **state)
{
	struct run r;

	(void)state;
	__begin(&r, PATH_FRAG_HIGH_DEFAULT);
	__udp(48);
	assert_int_equal(__send(&r, 1, IPPROTO_UDP, 0, 24, MF, 0), QUEUED);
	assert_int_equal(__send(&r, 2, IPPROTO_UDP, 0, 24, MF, 0), QUEUED);
	__echo(48);
	assert_int_equal(__send(&r, 1, IPPROTO_ICMP, 0, 24, MF, 0), QUEUED);
	assert_int_equal(r.f->n_queues, 3);
	assert_int_equal(__send(&r, 1, IPPROTO_ICMP, 24, 24, 0, 0), MIB_F(ICMP, INMSGS));
	__udp(48);
	assert_int_equal(__send(&r, 2, IPPROTO_UDP, 24, 24, 0, 0), DELIVERED);
	assert_int_equal(__send(&r, 1, IPPROTO_UDP, 24, 24, 0, 0), DELIVERED);
	assert_int_equal(__rd(&r, MIB_F(IP, REASMOKS)), 3);
	assert_int_equal(__rd(&r, MIB_F(ICMP, INECHOS)), 1);
	assert_int_equal(__rd(&r, MIB_F(IP, INDELIVERS)), 3);
	__end(&r);
}

/* ip_expire: a queue is freed ipfrag_time after its first fragment (its
 * later ones do not move the deadline), oldest first; what comes after
 * starts a new queue. */
static void
test_timeout(void **state)
{
	struct run r;

	(void)state;
	__udp(64);
	__begin(&r, PATH_FRAG_HIGH_DEFAULT);
	path_frag_tick(r.f, 100, &r.b);
	assert_int_equal(__send(&r, 1, IPPROTO_UDP, 0, 16, MF, 0), QUEUED);
	path_frag_tick(r.f, 600, &r.b);
	assert_int_equal(__send(&r, 2, IPPROTO_UDP, 0, 16, MF, 0), QUEUED);
	assert_int_equal(__send(&r, 1, IPPROTO_UDP, 16, 16, MF, 0), QUEUED);
	path_frag_tick(r.f, 100 + TIMEOUT - 1, &r.b);
	assert_int_equal(r.f->n_queues, 2);
	path_frag_tick(r.f, 100 + TIMEOUT, &r.b);
	assert_int_equal(r.f->n_queues, 1);
	assert_int_equal(__rd(&r, MIB_F(IP, REASMTIMEOUT)), 1);
	assert_int_equal(__rd(&r, MIB_F(IP, REASMFAILS)), 1);
	/* the rest of datagram 1 finds no queue: a new one */
	assert_int_equal(__send(&r, 1, IPPROTO_UDP, 32, 32, 0, 0), QUEUED);
	path_frag_tick(r.f, 600 + TIMEOUT + TIMEOUT, &r.b);
	assert_int_equal(r.f->n_queues, 0);
	assert_int_equal(__rd(&r, MIB_F(IP, REASMTIMEOUT)), 3);
	assert_int_equal(__rd(&r, MIB_F(IP, REASMFAILS)), 3);
	assert_int_equal(__rd(&r, MIB_F(IP, REASMOKS)), 0);
	__end(&r);
}

/* inet_frag_find: past ipfrag_high_thresh every fragment is refused, that
 * of a queue that exists too, until queues go; the memory stays within
 * the limit plus one fragment and its queue, whatever the flood. */
static void
test_memory(void **state)
{
	static const uint64_t highs[] = { 0, 1, 16384, 100000 };
	unsigned int i, k, queued;

	(void)state;
	__udp(3000);
	for (i = 0; i < RTE_DIM(highs); i++) {
		struct run r;
		uint64_t bound = highs[i] + PATH_FRAG_BLOCK + 256;

		__begin(&r, highs[i]);
		for (k = 0, queued = 0; k < 5000; k++) {
			unsigned int out =
				__send(&r, (uint16_t)k, IPPROTO_UDP, 0, 1480, MF, 0);

			queued += out == QUEUED;
			if (r.f->mem > bound)
				fail_msg("high %" PRIu64 ": %" PRIu64 " bytes", highs[i],
					 r.f->mem);
		}
		assert_int_equal(r.f->n_queues, queued);
		assert_int_equal(__rd(&r, MIB_F(IP, REASMFAILS)), 5000 - queued);
		if (highs[i] == 0)
			assert_int_equal(queued, 0);
		else
			assert_true(queued >= 1 && queued < 5000);
		/* the rest of a queued datagram is refused too */
		if (queued > 0)
			assert_int_equal(__send(&r, 0, IPPROTO_UDP, 1480, 1520, 0, 0),
					 r.f->mem > highs[i] ? DROPPED : DELIVERED);
		path_frag_tick(r.f, TIMEOUT, &r.b);
		assert_int_equal(r.f->n_queues, 0);
		if (highs[i] >= 16384) { /* room again */
			assert_int_equal(__send(&r, 1, IPPROTO_UDP, 1480, 1520, 0, 0),
					 QUEUED);
			assert_int_equal(__send(&r, 1, IPPROTO_UDP, 0, 1480, MF, 0),
					 DELIVERED);
		}
		__end(&r);
	}
}

static int
__frag_setup(void **state)
{
	(void)state;
	path_conf_init(&conf);
	memcpy(conf.mac.addr_bytes, our_mac, 6);
	if (path_conf_add_local(&conf, DST, 24) != 0)
		return -1;
	path_conf_add_udp_ports(&conf, PORT, PORT);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders), cmocka_unit_test(test_overlaps),
		cmocka_unit_test(test_ends),   cmocka_unit_test(test_unaligned),
		cmocka_unit_test(test_ecn),    cmocka_unit_test(test_max_size),
		cmocka_unit_test(test_keys),   cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_memory),
	};

	return cmocka_run_group_tests(tests, __frag_setup, NULL);
}
