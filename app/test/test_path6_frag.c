/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/path's IPv6 reassembly (path_frag.c, reached through
 * path6_exthdrs.c's ipv6_frag_rcv) against Linux 6.18's ipv6_frag_rcv,
 * fq_find, ip6_frag_queue, inet_frag_queue_insert, ip6_frag_reasm and
 * ip6_frag_expire: datagrams split into fragments sent in every order,
 * with duplicates, overlaps (RFC 5722), inconsistent ends, the two
 * parameter problems (which leave the queue fq_find made to its timer),
 * atomic fragments, mixed ECN, the 65535-byte payload limit, the timeout
 * on a clock the test moves, apart from IPv4's, and the memory limit,
 * apart from IPv4's. After every scenario the conservation laws hold (the
 * reassembly law among them: Ip6 ReasmReqds = Ip6FragQueued +
 * Ip6FragDropped + Ip6 ReasmOKs + Ip6FragHdrErrors, every fragment a
 * header check ended), and a context with no queue left holds no memory.
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
#include "pkt.h"
#include "wire.h"

#define PORT	 9
#define TIMEOUT	 1000u
#define TIMEOUT6 2500u
#define NOOPT	 false
#define OPT	 true /* a destination options header before the fragment header */

static const uint8_t our_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t local6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const uint8_t src6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 }; /* on-link */
static const uint8_t src6b[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 3 };
static struct path_conf conf;

/* A datagram's fragmentable part (an upper-layer header and its data). */
static uint8_t dgram[70000];

/* One scenario: a MIB block, a reassembly context, the fragments a
 * parameter problem ended. */
struct run {
	struct mib_set *s;
	struct mib_block b;
	struct path_frag *f;
	uint64_t hdrerrs;
};

static void
__p6f_begin(struct run *r, uint64_t high6)
{
	struct path_frag_conf fc = { .high_thresh = PATH_FRAG_HIGH_DEFAULT,
				     .timeout = TIMEOUT,
				     .high_thresh6 = high6,
				     .timeout6 = TIMEOUT6 };

	r->s = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(r->s);
	r->b = mib_set_block(r->s, 0);
	r->f = path_frag_create(&fc, -1);
	assert_non_null(r->f);
	r->hdrerrs = 0;
}

static uint64_t
__p6f_rd(const struct run *r, unsigned int f)
{
	return mib_read(&r->b, f);
}

/* The laws, the fragments' own, and no memory without a queue. */
static void
__p6f_end(struct run *r)
{
	uint64_t tot[MIB_FIELD_MAX];
	char why[256];

	mib_fold(r->s, MIB_FOLD_LCORE, tot, NULL);
	if (mib_check_conservation(tot, why, sizeof(why)) != 0)
		fail_msg("conservation: %s", why);
	/* the reassembly law (mib_check_conservation's reasm6) counts the
	 * fragments a header check ended in Ip6FragHdrErrors: all of them */
	assert_int_equal(tot[MIB_F(PATH, IP6FRAGHDRERRORS)], r->hdrerrs);
	assert_int_equal(tot[MIB_F(IP6, INHDRERRORS)], r->hdrerrs);
	if (r->f->fam[1].n_queues == 0)
		assert_int_equal(r->f->fam[1].mem, 0);
	if (r->f->n_queues == 0)
		assert_int_equal(r->f->mem, 0);
	path_frag_free(r->f);
	mib_set_free(r->s);
}

/* s plus the pseudo-header of an upper-layer packet of len bytes. */
static uint32_t
__pseudo(const uint8_t *src, uint32_t len, uint8_t nh)
{
	uint32_t s = wire_sum(src, 16, 0);

	s = wire_sum(local6, 16, s);
	return s + (len >> 16) + (len & 0xffff) + nh;
}

/* A UDP datagram to PORT of len bytes (header included) in dgram. */
static void
__p6f_udp(uint32_t len)
{
	uint32_t i;
	uint16_t c;

	for (i = 8; i < len; i++)
		dgram[i] = (uint8_t)(i * 7 + 1);
	wire_put16(dgram, 1000);
	wire_put16(dgram + 2, PORT);
	wire_put16(dgram + 4, len);
	wire_put16(dgram + 6, 0);
	c = wire_csum(wire_sum(dgram, len, __pseudo(src6, len, IPPROTO_UDP)));
	wire_put16(dgram + 6, c ? c : 0xffff);
}

/* An ICMPv6 echo request of len bytes in dgram. */
static void
__p6f_echo(uint32_t len)
{
	uint32_t i;

	memset(dgram, 0, 8);
	dgram[0] = 128;
	for (i = 8; i < len; i++)
		dgram[i] = (uint8_t)i;
	wire_put16(dgram + 2,
		   wire_csum(wire_sum(dgram, len, __pseudo(src6, len, IPPROTO_ICMPV6))));
}

/* Send bytes [off, off + len) of dgram, whose first header is nh, from src
 * as the fragment of id at offset off (MF if mf), after a destination
 * options header if opt; ecn its ECN field. */
static unsigned int
__send_from(struct run *r, const uint8_t *src, uint32_t id, uint8_t nh, uint32_t off,
	    uint32_t len, bool mf, bool opt, uint8_t ecn)
{
	uint32_t ext = opt ? 8 : 0, n = 14 + 40 + ext + 8 + len;
	uint8_t *p = malloc(n), *fh = p + 54 + ext;
	struct rte_mbuf m;
	struct path_l2 l2;
	unsigned int out;

	assert_non_null(p);
	memcpy(p, our_mac, 6);
	memset(p + 6, 0x02, 6);
	wire_put16(p + 12, 0x86dd);
	p[14] = 0x60;
	p[15] = (uint8_t)(ecn << 4);
	p[16] = p[17] = 0;
	wire_put16(p + 18, ext + 8 + len);
	p[20] = opt ? 60 : 44;
	p[21] = 64;
	memcpy(p + 22, src, 16);
	memcpy(p + 38, local6, 16);
	if (opt) { /* next header 44, PadN of 4 bytes */
		static const uint8_t dst[8] = { 44, 0, 1, 4, 0, 0, 0, 0 };

		memcpy(p + 54, dst, 8);
	}
	fh[0] = nh;
	fh[1] = 0;
	wire_put16(fh + 2, off | (mf ? 1 : 0));
	wire_put32(fh + 4, id);
	memcpy(fh + 8, dgram + off, len);
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
	if (out == MIB_F(IP6, INHDRERRORS))
		r->hdrerrs++;
	return out;
}

static unsigned int
__p6f_send(struct run *r, uint32_t id, uint32_t off, uint32_t len, bool mf, bool opt)
{
	return __send_from(r, src6, id, IPPROTO_UDP, off, len, mf, opt, 0);
}

#define QUEUED	  MIB_F(PATH, IP6FRAGQUEUED)
#define DROPPED	  MIB_F(PATH, IP6FRAGDROPPED)
#define DELIVERED MIB_F(UDP6, INDATAGRAMS)
#define HDRERR	  MIB_F(IP6, INHDRERRORS)

/* A 4000-byte UDP datagram in 4 fragments, sent in every order, with and
 * without a destination options header in the unfragmentable part; each
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
	__p6f_udp(4000);
	for (p = 0; p < 2 * np; p++) {
		for (dup = 0; dup < 4; dup++) { /* 0: none; k: before the k-th */
			const unsigned int *o = perm[p % np];
			bool opt = p >= np;
			struct run r;

			__p6f_begin(&r, PATH_FRAG_HIGH_DEFAULT);
			for (k = 0; k < 4; k++) {
				unsigned int i = o[k], want = k < 3 ? QUEUED : DELIVERED;

				if (dup != 0 && k == dup) {
					unsigned int j = o[k - 1];

					assert_int_equal(__p6f_send(&r, 7, off[j],
								    off[j + 1] - off[j],
								    j < 3, opt),
							 DROPPED);
				}
				if (__p6f_send(&r, 7, off[i], off[i + 1] - off[i], i < 3,
					       opt) != want)
					fail_msg(
						"order %u%u%u%u opt %d dup %u: fragment %u",
						o[0], o[1], o[2], o[3], opt, dup, k);
			}
			assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMREQDS)),
					 4 + (dup != 0));
			assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMOKS)), 1);
			assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMFAILS)), 0);
			assert_int_equal(__p6f_rd(&r, MIB_F(IP6, INDELIVERS)), 1);
			assert_int_equal(__p6f_rd(&r, MIB_F(UDP6, INDATAGRAMS)), 1);
			assert_int_equal(__p6f_rd(&r, MIB_F(UDP6, INCSUMERRORS)), 0);
			assert_int_equal(r.f->n_queues, 0);
			__p6f_end(&r);
		}
	}
}

/* Overlaps (RFC 5722: the whole queue dropped, Ip6ReasmOverlaps) and
 * duplicates (only the fragment freed) as inet_frag_queue_insert decides
 * them: the steps, (offset, end, MF) in 8-byte units. */
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
	};
	unsigned int i, k, out = 0;

	(void)state;
	__p6f_udp(64);
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct run r;

		__p6f_begin(&r, PATH_FRAG_HIGH_DEFAULT);
		for (k = 0; k < cases[i].n; k++) {
			const uint8_t *s = cases[i].s[k];

			out = __p6f_send(&r, 9, s[0] * 8u, (s[1] - s[0]) * 8u, s[2],
					 NOOPT);
			if (k + 1 < cases[i].n && out != QUEUED)
				fail_msg("[%s] step %u not queued", cases[i].name, k);
		}
		if (out != DROPPED)
			fail_msg("[%s] last step: %u", cases[i].name, out);
		assert_int_equal(__p6f_rd(&r, MIB_F(PATH, IP6REASMOVERLAPS)),
				 cases[i].overlap);
		assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMFAILS)), cases[i].overlap);
		assert_int_equal(r.f->n_queues, cases[i].overlap ? 0 : 1);
		__p6f_end(&r);
	}
}

/* ip6_frag_queue's checks of where a fragment ends, in its order: each
 * step (offset, length in bytes, MF), its outcome and the queues after. A
 * parameter problem (past 65535 bytes, or MF and not on 8 bytes) comes
 * after fq_find: the queue stays, to its timer (ReasmTimeout). */
static void
test_ends(void **state)
{
	static const struct {
		const char *name;
		unsigned int n;
		struct {
			uint32_t off, len;
			bool mf;
			unsigned int out, queues;
		} s[3];
		unsigned int timeouts; /* queues left to the timer */
	} cases[] = {
		{ "two different ends",
		  2,
		  { { 8, 16, 0, QUEUED, 1 }, { 8, 24, 0, DROPPED, 0 } },
		  0 },
		{ "a last fragment before data",
		  2,
		  { { 32, 8, 1, QUEUED, 1 }, { 8, 16, 0, DROPPED, 0 } },
		  0 },
		{ "data past the last fragment",
		  2,
		  { { 8, 16, 0, QUEUED, 1 }, { 24, 8, 1, DROPPED, 0 } },
		  0 },
		{ "no data", 1, { { 8, 0, 1, DROPPED, 0 } }, 0 },
		{ "more to come, not on 8 bytes", 1, { { 8, 12, 1, HDRERR, 1 } }, 1 },
		{ "past 65535 bytes", 1, { { 65528, 16, 0, HDRERR, 1 } }, 1 },
		{ "a parameter problem in a queue",
		  2,
		  { { 0, 16, 1, QUEUED, 1 }, { 16, 12, 1, HDRERR, 1 } },
		  1 },
	};
	unsigned int i, k;

	(void)state;
	__p6f_udp(65600 - 40);
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct run r;

		__p6f_begin(&r, PATH_FRAG_HIGH_DEFAULT);
		for (k = 0; k < cases[i].n; k++) {
			unsigned int out =
				__p6f_send(&r, 3, cases[i].s[k].off, cases[i].s[k].len,
					   cases[i].s[k].mf, NOOPT);

			if (out != cases[i].s[k].out ||
			    r.f->n_queues != cases[i].s[k].queues)
				fail_msg("[%s] step %u: outcome %u, %u queues",
					 cases[i].name, k, out, r.f->n_queues);
		}
		/* a parameter problem is answered (ICMPV6_HDR_FIELD) */
		assert_int_equal(__p6f_rd(&r, MIB_ICMP6MSG_OUT(4)), r.hdrerrs);
		path_frag_tick(r.f, TIMEOUT6, &r.b);
		assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMTIMEOUT)),
				 cases[i].timeouts);
		assert_int_equal(r.f->n_queues, 0);
		__p6f_end(&r);
	}
}

/* RFC 6946: offset 0 and no more fragments is the datagram at once, with
 * no queue, beside a queue of the same id. */
static void
test_atomic(void **state)
{
	struct run r;

	(void)state;
	__p6f_udp(100);
	__p6f_begin(&r, PATH_FRAG_HIGH_DEFAULT);
	assert_int_equal(__p6f_send(&r, 5, 0, 16, true, OPT), QUEUED);
	assert_int_equal(__p6f_send(&r, 5, 0, 100, false, NOOPT), DELIVERED);
	assert_int_equal(__p6f_send(&r, 5, 0, 100, false, OPT), DELIVERED);
	assert_int_equal(r.f->n_queues, 1);
	assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMREQDS)), 3);
	assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMOKS)), 2);
	/* and with no queues at all (ip6frag_high_thresh 0) */
	__p6f_end(&r);
	__p6f_begin(&r, 0);
	assert_int_equal(__p6f_send(&r, 5, 0, 100, false, NOOPT), DELIVERED);
	assert_int_equal(__p6f_send(&r, 5, 0, 16, true, NOOPT), DROPPED);
	assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMFAILS)), 1);
	__p6f_end(&r);
}

/* ip_frag_ecn_table over IPv6 fragments: Not-ECT with ECT or CE fails the
 * datagram when it completes (the last fragment was queued); ECT with CE
 * is delivered. The datagram goes on as any other: an echo request. */
static void
test_ecn(void **state)
{
	static const struct {
		uint8_t a, b;
		bool ok;
	} cases[] = { { 0, 0, true },
		      { 2, 3, true },
		      { 1, 1, true },
		      { 0, 2, false },
		      { 3, 0, false } };
	unsigned int i;

	(void)state;
	__p6f_echo(64);
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct run r;
		unsigned int out;

		__p6f_begin(&r, PATH_FRAG_HIGH_DEFAULT);
		assert_int_equal(__send_from(&r, src6, 1, IPPROTO_ICMPV6, 0, 32, true,
					     OPT, cases[i].a),
				 QUEUED);
		out = __send_from(&r, src6, 1, IPPROTO_ICMPV6, 32, 32, false, NOOPT,
				  cases[i].b);
		assert_int_equal(out, cases[i].ok ? MIB_F(ICMP6, INMSGS) : QUEUED);
		assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMFAILS)), !cases[i].ok);
		assert_int_equal(__p6f_rd(&r, MIB_ICMP6MSG_IN(128)), cases[i].ok);
		assert_int_equal(r.f->n_queues, 0);
		__p6f_end(&r);
	}
}

/* ip6_frag_reasm's limit: the payload (the unfragmentable headers after
 * the IPv6 header, then the data) at most 65535 bytes; a datagram past
 * 65535 bytes in all is delivered over two segments. */
static void
test_max_size(void **state)
{
	static const struct {
		uint32_t len;
		bool opt, ok;
	} cases[] = {
		{ 65527, true, true },	/* payload 8 + 65527 */
		{ 65528, true, false }, /* 8 + 65528 */
		{ 65535, false, true }, /* the largest UDP datagram */
		{ 65528, false, true },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(cases); i++) {
		uint32_t len = cases[i].len, off;
		struct run r;

		__p6f_udp(len);
		__p6f_begin(&r, PATH_FRAG_HIGH_DEFAULT);
		for (off = 0; off + 1456 < len; off += 1456)
			assert_int_equal(
				__p6f_send(&r, 11, off, 1456, true, cases[i].opt),
				QUEUED);
		assert_int_equal(__p6f_send(&r, 11, off, len - off, false, cases[i].opt),
				 cases[i].ok ? DELIVERED : QUEUED);
		assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMOKS)), cases[i].ok);
		assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMFAILS)), !cases[i].ok);
		assert_int_equal(__p6f_rd(&r, MIB_F(UDP6, INCSUMERRORS)), 0);
		assert_int_equal(r.f->n_queues, 0);
		__p6f_end(&r);
	}
}

/* fq_find's key: source, destination, id; IPv4 queues are another
 * family's. */
static void
test_keys(void **state)
{
	struct run r;

	(void)state;
	__p6f_udp(64);
	__p6f_begin(&r, PATH_FRAG_HIGH_DEFAULT);
	assert_int_equal(__p6f_send(&r, 1, 0, 32, true, NOOPT), QUEUED);
	assert_int_equal(__send_from(&r, src6b, 1, IPPROTO_UDP, 32, 32, false, NOOPT, 0),
			 QUEUED);
	assert_int_equal(__p6f_send(&r, 0x10001, 32, 32, false, NOOPT), QUEUED);
	assert_int_equal(r.f->fam[1].n_queues, 3);
	assert_int_equal(r.f->fam[0].n_queues, 0);
	assert_int_equal(__p6f_send(&r, 1, 32, 32, false, NOOPT), DELIVERED);
	assert_int_equal(r.f->n_queues, 2);
	path_frag_tick(r.f, TIMEOUT6, &r.b);
	assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMTIMEOUT)), 2);
	__p6f_end(&r);
}

/* ip6_frag_expire on ip6frag_time, apart from ipfrag_time: queues of the
 * two families made at the same time expire each on its own timeout, with
 * their own family's counters. */
static void
test_timeout(void **state)
{
	struct run r;

	(void)state;
	__p6f_udp(64);
	__p6f_begin(&r, PATH_FRAG_HIGH_DEFAULT);
	path_frag_tick(r.f, 100, &r.b);
	assert_int_equal(__p6f_send(&r, 1, 0, 16, true, NOOPT), QUEUED);
	path_frag_tick(r.f, 600, &r.b);
	assert_int_equal(__p6f_send(&r, 2, 0, 16, true, NOOPT), QUEUED);
	assert_int_equal(__p6f_send(&r, 1, 16, 16, true, NOOPT), QUEUED);
	path_frag_tick(r.f, 100 + TIMEOUT, &r.b);
	assert_int_equal(r.f->n_queues, 2);
	path_frag_tick(r.f, 100 + TIMEOUT6 - 1, &r.b);
	assert_int_equal(r.f->n_queues, 2);
	path_frag_tick(r.f, 100 + TIMEOUT6, &r.b);
	assert_int_equal(r.f->n_queues, 1);
	assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMTIMEOUT)), 1);
	assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMFAILS)), 1);
	assert_int_equal(__p6f_rd(&r, MIB_F(IP, REASMTIMEOUT)), 0);
	/* the rest of datagram 1 finds no queue: a new one */
	assert_int_equal(__p6f_send(&r, 1, 32, 32, false, NOOPT), QUEUED);
	path_frag_tick(r.f, 600 + TIMEOUT6 + TIMEOUT6, &r.b);
	assert_int_equal(r.f->n_queues, 0);
	assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMTIMEOUT)), 3);
	assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMFAILS)), 3);
	assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMOKS)), 0);
	__p6f_end(&r);
}

/* ip6frag_expire_frag_queue: a queue that times out with its first
 * fragment sends icmpv6_send(head, ICMPV6_TIME_EXCEED, ICMPV6_EXC_FRAGTIME),
 * counted as icmp6_send counts it: the head (the first fragment as it came,
 * up to the minimum MTU) quoted, to its source; nothing without the first
 * fragment, nothing in answer to an ICMPv6 error, the null route's
 * counters for a source with no route back. Each case: the fragments
 * (offset, length, MF; the datagram's first header nh) from src, with or
 * without a destination options header, then the timeout. */
static void
test_time_exceeded(void **state)
{
	static const uint8_t offlink[16] = { 0x20, 0x01, 0x0d, 0xb9, [15] = 2 };
	static const struct {
		const char *name;
		const uint8_t *src;
		uint8_t nh; /* IPPROTO_UDP, or ICMPv6 of type icmp */
		uint8_t icmp;
		bool opt;
		unsigned int n;
		uint32_t off[2], len[2];
		uint64_t msgs, octets, noroutes, ratelimit;
	} cases[] = {
		/* clang-format off */
		{ "first fragment in", src6, IPPROTO_UDP, 0, NOOPT, 1, { 0 }, { 16 },
		  1, 40 + 8 + 40 + 8 + 16, 0, 0 },
		{ "first fragment after a destination option", src6, IPPROTO_UDP, 0,
		  OPT, 1, { 0 }, { 16 }, 1, 40 + 8 + 40 + 8 + 8 + 16, 0, 0 },
		{ "first and third of three", src6, IPPROTO_UDP, 0, NOOPT, 2,
		  { 0, 32 }, { 16, 16 }, 1, 40 + 8 + 40 + 8 + 16, 0, 0 },
		{ "no first fragment", src6, IPPROTO_UDP, 0, NOOPT, 1, { 16 }, { 16 },
		  0, 0, 0, 0 },
		{ "a first fragment of 1400 bytes, quoted to the minimum MTU", src6,
		  IPPROTO_UDP, 0, NOOPT, 1, { 0 }, { 1400 }, 1, 1280, 0, 0 },
		{ "an echo request's first fragment", src6, IPPROTO_ICMPV6, 128, NOOPT,
		  1, { 0 }, { 16 }, 1, 40 + 8 + 40 + 8 + 16, 0, 0 },
		{ "an ICMPv6 error's first fragment", src6, IPPROTO_ICMPV6, 1, NOOPT, 1,
		  { 0 }, { 16 }, 0, 0, 0, 0 },
		{ "no route back to the source", offlink, IPPROTO_UDP, 0, NOOPT, 1, { 0 },
		  { 16 }, 0, 0, 1, 1 },
		/* clang-format on */
	};
	unsigned int i, k;

	(void)state;
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct run r;

		if (cases[i].nh == IPPROTO_UDP) {
			__p6f_udp(2000);
		} else {
			__p6f_echo(2000);
			dgram[0] = cases[i].icmp;
		}
		__p6f_begin(&r, PATH_FRAG_HIGH_DEFAULT);
		for (k = 0; k < cases[i].n; k++)
			if (__send_from(&r, cases[i].src, 5, cases[i].nh, cases[i].off[k],
					cases[i].len[k], true, cases[i].opt, 0) != QUEUED)
				fail_msg("%s: fragment %u not queued", cases[i].name, k);
		path_frag_tick(r.f, TIMEOUT6, &r.b);
		if (__p6f_rd(&r, MIB_F(IP6, REASMTIMEOUT)) != 1 ||
		    __p6f_rd(&r, MIB_ICMP6MSG_OUT(3)) != cases[i].msgs ||
		    __p6f_rd(&r, MIB_F(ICMP6, OUTMSGS)) != cases[i].msgs ||
		    __p6f_rd(&r, MIB_F(IP6, OUTREQUESTS)) != cases[i].msgs ||
		    __p6f_rd(&r, MIB_F(IP6, OUTTRANSMITS)) != cases[i].msgs ||
		    __p6f_rd(&r, MIB_F(IP6, OUTOCTETS)) != cases[i].octets ||
		    __p6f_rd(&r, MIB_F(IP6, OUTNOROUTES)) != cases[i].noroutes ||
		    __p6f_rd(&r, MIB_F(ICMP6, OUTRATELIMITHOST)) != cases[i].ratelimit)
			fail_msg("%s: timeout %" PRIu64 ", out type 3 %" PRIu64
				 ", OutMsgs %" PRIu64 ", OutOctets %" PRIu64
				 ", OutNoRoutes %" PRIu64,
				 cases[i].name, __p6f_rd(&r, MIB_F(IP6, REASMTIMEOUT)),
				 __p6f_rd(&r, MIB_ICMP6MSG_OUT(3)),
				 __p6f_rd(&r, MIB_F(ICMP6, OUTMSGS)),
				 __p6f_rd(&r, MIB_F(IP6, OUTOCTETS)),
				 __p6f_rd(&r, MIB_F(IP6, OUTNOROUTES)));
		__p6f_end(&r);
	}
}

/* inet_frag_find: past ip6frag_high_thresh every IPv6 fragment is refused,
 * that of a queue that exists too, until queues go; the memory stays within
 * the limit plus one fragment and its queue, whatever the flood, and it is
 * IPv6's alone: IPv4's limit is not touched. */
static void
test_memory(void **state)
{
	static const uint64_t highs[] = { 0, 1, 16384, 100000 };
	unsigned int i, k, queued;

	(void)state;
	__p6f_udp(3000);
	for (i = 0; i < RTE_DIM(highs); i++) {
		struct run r;
		uint64_t bound = highs[i] + PATH_FRAG_BLOCK + 256;

		__p6f_begin(&r, highs[i]);
		for (k = 0, queued = 0; k < 5000; k++) {
			unsigned int out = __p6f_send(&r, k, 0, 1456, true, OPT);

			queued += out == QUEUED;
			if (r.f->fam[1].mem > bound)
				fail_msg("high %" PRIu64 ": %" PRIu64 " bytes", highs[i],
					 r.f->fam[1].mem);
		}
		assert_int_equal(r.f->fam[0].mem, 0);
		assert_int_equal(r.f->n_queues, queued);
		assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMFAILS)), 5000 - queued);
		if (highs[i] == 0)
			assert_int_equal(queued, 0);
		else
			assert_true(queued >= 1 && queued < 5000);
		/* the rest of a queued datagram is refused too */
		if (queued > 0)
			assert_int_equal(__p6f_send(&r, 0, 1456, 1544, false, OPT),
					 r.f->fam[1].mem > highs[i] ? DROPPED
								    : DELIVERED);
		path_frag_tick(r.f, TIMEOUT6, &r.b);
		assert_int_equal(r.f->n_queues, 0);
		if (highs[i] >= 16384) { /* room again */
			assert_int_equal(__p6f_send(&r, 1, 1456, 1544, false, OPT),
					 QUEUED);
			assert_int_equal(__p6f_send(&r, 1, 0, 1456, true, OPT),
					 DELIVERED);
		}
		__p6f_end(&r);
	}
}

/* An IPv4 fragment of id (the first of a 16-byte UDP datagram, MF) to
 * 198.19.0.1, received through c. */
static unsigned int
__p6f_send4(struct run *r, const struct path_conf *c, uint16_t id)
{
	uint8_t p[14 + 20 + 8];
	struct rte_mbuf m;
	struct path_l2 l2;

	memset(p, 0, sizeof(p));
	memcpy(p, our_mac, 6);
	memset(p + 6, 0x02, 6);
	wire_put16(p + 12, 0x0800);
	p[14] = 0x45;
	wire_put16(p + 16, 28);
	wire_put16(p + 18, id);
	wire_put16(p + 20, 0x2000); /* MF, offset 0 */
	p[22] = 64;
	p[23] = IPPROTO_UDP;
	wire_put32(p + 26, 0xc6120001);
	wire_put32(p + 30, 0xc6130001);
	wire_put16(p + 24, wire_csum(wire_sum(p + 14, 20, 0)));
	memset(&m, 0, sizeof(m));
	m.buf_addr = p;
	m.buf_len = m.data_len = sizeof(p);
	m.pkt_len = sizeof(p);
	m.nb_segs = 1;
	mib_inc(&r->b, MIB_F(RX, PACKETS));
	mib_add(&r->b, MIB_F(RX, OCTETS), sizeof(p));
	path_l2(c, &m, &l2, &r->b);
	return path_rcv_frag(c, &m, &l2, &r->b, r->f);
}

/* IPv6 queues left empty by parameter problems (a fragment with more to
 * come not on 8 bytes) fill IPv6's share of the queues, never IPv4's: the
 * kernel's two fqdirs are apart, and an IPv4 fragment is still queued. */
static void
test_families_apart(void **state)
{
	struct path_conf c4 = conf;
	unsigned int k, hdr = 0;
	struct run r;

	(void)state;
	assert_int_equal(path_conf_add_local(&c4, 0xc6130001, 24), 0);
	__p6f_udp(3000);
	__p6f_begin(&r, PATH_FRAG_HIGH_DEFAULT);
	for (k = 0; k < 2 * r.f->max_queues; k++)
		hdr += __p6f_send(&r, k, 0, 1455, true, NOOPT) == HDRERR;
	assert_int_equal(r.f->fam[1].n_queues, r.f->fam[1].max_queues);
	assert_int_equal(hdr, r.f->fam[1].max_queues);
	assert_int_equal(__p6f_rd(&r, MIB_F(IP6, REASMFAILS)),
			 2 * r.f->max_queues - r.f->fam[1].max_queues);
	assert_int_equal(__p6f_send4(&r, &c4, 7), MIB_F(PATH, IPFRAGQUEUED));
	assert_int_equal(r.f->fam[0].n_queues, 1);
	path_frag_tick(r.f, TIMEOUT6 + TIMEOUT, &r.b);
	assert_int_equal(r.f->n_queues, 0);
	__p6f_end(&r);
}

/* The generator's --frag: every flow's datagram, IPv4 and IPv6, with and
 * without extension headers (unfragmentable, fragmentable), split in every
 * order and sent one template after another, is reassembled once and
 * delivered: ReasmOKs and the deliveries equal the flows, every other
 * fragment is queued. */
static void
test_generator(void **state)
{
	static const struct {
		uint8_t family, l4;
		unsigned int n_ext6;
		uint8_t ext6[2];
		uint16_t pkt_size, frag;
		bool split;
	} cases[] = {
		{ PKT_FAMILY_IPV4, PKT_L4_UDP, 0, { 0 }, 1500, 256, true },
		{ PKT_FAMILY_IPV6, PKT_L4_UDP, 0, { 0 }, 1500, 256, true },
		{ PKT_FAMILY_MIXED, PKT_L4_UDP, 0, { 0 }, 9000, 1456, true },
		{ PKT_FAMILY_IPV6,
		  PKT_L4_UDP,
		  2,
		  { PKT_EXT6_HOP, PKT_EXT6_DST },
		  1000,
		  64,
		  true },
		{ PKT_FAMILY_IPV6, PKT_L4_ICMP, 1, { PKT_EXT6_DST }, 600, 16, true },
		{ PKT_FAMILY_MIXED, PKT_L4_ICMP, 1, { PKT_EXT6_RT }, 2000, 504, true },
		{ PKT_FAMILY_IPV4, PKT_L4_UDP, 0, { 0 }, 100, 512, false },
		/* a first fragment 6 bytes longer than the frame (its
		 * fragment header): the pool's room must hold it */
		{ PKT_FAMILY_IPV6, PKT_L4_UDP, 0, { 0 }, 2048, 1992, true },
	};
	static const unsigned int flows = 16;
	static const uint8_t a6[16] = { 0x20, 0x01, 0, 0x02, [7] = 0x01, [15] = 0x01 };
	static const struct rte_ether_addr gen_mac = PKT_GEN_PORT_MAC;
	struct path_conf gc;
	unsigned int i, o, j;

	(void)state;
	path_conf_init(&gc);
	gc.mac = gen_mac;
	assert_int_equal(path_conf_add_local(&gc, 0xc6130001, 24), 0);
	assert_int_equal(path_conf_add_local6(&gc, a6, 64), 0);
	path_conf_add_udp_ports(&gc, 9, 9);
	for (i = 0; i < RTE_DIM(cases); i++)
		for (o = 0; o < PKT_FRAG_ORDER_MAX; o++) {
			struct pkt_flow_conf c;
			struct pkt_templates *t;
			uint64_t oks, dlv, queued;
			struct run r;

			pkt_flow_conf_default(&c);
			c.family = cases[i].family;
			c.l4 = cases[i].l4;
			c.n_ext6 = cases[i].n_ext6;
			memcpy(c.ext6, cases[i].ext6, sizeof(cases[i].ext6));
			c.pkt_size = cases[i].pkt_size;
			c.udp_csum = true;
			c.flows = flows;
			c.frag_size = cases[i].frag;
			c.frag_order = (uint8_t)o;
			t = pkt_templates_build(&c, NULL);
			assert_non_null(t);
			__p6f_begin(&r, PATH_FRAG_HIGH_DEFAULT);
			for (j = 0; j < t->n; j++) {
				struct rte_mbuf m;
				struct path_l2 l2;

				/* what sizes the generator's mbufs */
				assert_true(t->len[j] <= t->max_len);
				memset(&m, 0, sizeof(m));
				m.buf_addr = t->data[j];
				m.buf_len = m.data_len = t->len[j];
				m.pkt_len = t->len[j];
				m.nb_segs = 1;
				mib_inc(&r.b, MIB_F(RX, PACKETS));
				mib_add(&r.b, MIB_F(RX, OCTETS), t->len[j]);
				path_l2(&gc, &m, &l2, &r.b);
				path_rcv_frag(&gc, &m, &l2, &r.b, r.f);
			}
			oks = __p6f_rd(&r, MIB_F(IP, REASMOKS)) +
			      __p6f_rd(&r, MIB_F(IP6, REASMOKS));
			dlv = __p6f_rd(&r, MIB_F(UDP, INDATAGRAMS)) +
			      __p6f_rd(&r, MIB_F(UDP6, INDATAGRAMS)) +
			      __p6f_rd(&r, MIB_ICMP6MSG_IN(128)) +
			      __p6f_rd(&r, MIB_F(ICMP, INECHOS));
			queued = __p6f_rd(&r, MIB_F(PATH, IPFRAGQUEUED)) +
				 __p6f_rd(&r, MIB_F(PATH, IP6FRAGQUEUED));
			if (oks != (cases[i].split ? flows : 0) || dlv != flows ||
			    queued != t->n - flows || (t->n > flows) != cases[i].split)
				fail_msg("case %u order %s: %u frames, %" PRIu64
					 " reassembled, %" PRIu64 " delivered, %" PRIu64
					 " queued",
					 i, pkt_frag_order_names[o], t->n, oks, dlv,
					 queued);
			assert_int_equal(r.f->n_queues, 0);
			__p6f_end(&r);
			pkt_templates_free(t);
		}
}

/* ip6_find_1stfragopt (net/ipv6/output_core.c) over the IPv6 packet at ip:
 * the offset the fragment header goes to. */
static uint32_t
__1stfragopt(const uint8_t *ip)
{
	uint32_t off = 40;
	uint8_t nh = ip[6];
	bool found_rhdr = false;

	for (;;) {
		switch (nh) {
		case 0: /* NEXTHDR_HOP */
			break;
		case 43: /* NEXTHDR_ROUTING */
			found_rhdr = true;
			break;
		case 60: /* NEXTHDR_DEST */
			if (found_rhdr)
				return off;
			break;
		default:
			return off;
		}
		nh = ip[off];
		off += (ip[off + 1] + 1u) * 8;
	}
}

/* The generator's fragments of every chain of up to three hop-by-hop,
 * destination options and routing headers are those a Linux sender makes:
 * the fragment header where ip6_find_1stfragopt puts it in the datagram,
 * what is before it the datagram's own (the byte naming the next header
 * and the payload length aside), what is after it a piece of the rest. */
static void
test_generator_unfragmentable(void **state)
{
	static const uint8_t kinds[3] = { PKT_EXT6_HOP, PKT_EXT6_DST, PKT_EXT6_RT };
	unsigned int n, code, j, k, l2 = RTE_ETHER_HDR_LEN;

	(void)state;
	for (n = 1; n <= 3; n++)
		for (code = 0; code < 27u / (n == 1 ? 9 : n == 2 ? 3 : 1); code++) {
			struct pkt_templates *whole, *t;
			struct pkt_flow_conf c;
			uint32_t u, x = code, done = 0;
			const uint8_t *d;

			pkt_flow_conf_default(&c);
			c.family = PKT_FAMILY_IPV6;
			c.n_ext6 = n;
			for (k = 0; k < n; k++, x /= 3)
				c.ext6[k] = kinds[x % 3];
			c.pkt_size = 600;
			c.flows = 1;
			whole = pkt_templates_build(&c, NULL);
			c.frag_size = 64;
			t = pkt_templates_build(&c, NULL);
			assert_non_null(whole);
			assert_non_null(t);
			d = whole->data[0] + l2;
			u = __1stfragopt(d);
			assert_true(t->n > 1);
			for (j = 0; j < t->n; j++) {
				const uint8_t *f = t->data[j] + l2;
				uint32_t at = __1stfragopt(f), off, nhoff;

				/* where the datagram's header named what now
				 * follows the fragment header */
				nhoff = u == 40 ? 6 : u - 8;
				off = (uint32_t)(f[u + 2] << 8 | f[u + 3]) & ~7u;
				if (at != u || f[nhoff] != 44 || f[u] != d[nhoff] ||
				    memcmp(f, d, 4) != 0 ||
				    memcmp(f + 6, d + 6, nhoff - 6) != 0 ||
				    memcmp(f + nhoff + 1, d + nhoff + 1, u - nhoff - 1) !=
					    0 ||
				    memcmp(f + u + 8, d + u + off,
					   t->len[j] - l2 - u - 8) != 0)
					fail_msg(
						"chain %u %u %u: fragment %u: its header at "
						"%u, Linux puts it at %u",
						c.ext6[0], n > 1 ? c.ext6[1] : 0,
						n > 2 ? c.ext6[2] : 0, j, at, u);
				done += t->len[j] - l2 - u - 8;
			}
			assert_int_equal(done, whole->len[0] - l2 - u);
			pkt_templates_free(t);
			pkt_templates_free(whole);
		}
}

static int
__p6f_setup(void **state)
{
	(void)state;
	path_conf_init(&conf);
	memcpy(conf.mac.addr_bytes, our_mac, 6);
	if (path_conf_add_local6(&conf, local6, 64) != 0)
		return -1;
	path_conf_add_udp_ports(&conf, PORT, PORT);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_overlaps),
		cmocka_unit_test(test_ends),
		cmocka_unit_test(test_atomic),
		cmocka_unit_test(test_ecn),
		cmocka_unit_test(test_max_size),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_time_exceeded),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_generator),
		cmocka_unit_test(test_generator_unfragmentable),
		cmocka_unit_test(test_families_apart),
	};

	return cmocka_run_group_tests(tests, __p6f_setup, NULL);
}
