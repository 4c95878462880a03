/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/path's ICMP rate limits (path_rlim.c, applied by
 * path6_out.c and at a reassembly timeout by path_frag.c) against Linux
 * 6.18's icmp_global_allow, icmp_global_consume, inet_peer_xrlim_allow and
 * icmpv6_global_allow / icmpv6_xrlim_allow, on a clock the test moves (in
 * milliseconds: 4 to a jiffy at PATH_RLIM_HZ 250): a peer's burst of 6 and
 * its refill, peers apart, the global bucket's burst and refill (exact: the
 * test replays the fixed-seed random credit), the types out of the
 * ratemask, no route, 0 = no per-peer limit, limits off, a bad conf, and a
 * reassembly timeout's time exceeded limited at the timer. After every
 * scenario the conservation laws hold.
 *
 * No EAL: mbufs on the stack, MIB blocks from mib_set_create(..., NULL),
 * contexts made with socket -1.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <netinet/in.h>
#include <cmocka.h>

#include <rte_errno.h>
#include <rte_mbuf.h>

#include "mib.h"
#include "path.h"
#include "wire.h"

#define HZ_MS	 1000u /* the test's clock: milliseconds */
#define CLOSED	 7     /* a UDP port nobody listens on */
#define TIMEOUT6 50u   /* ms */

static const uint8_t our_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t local6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const uint8_t src_a[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 }; /* on-link */
static const uint8_t src_b[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 3 }; /* on-link */
static const uint8_t offlink[16] = { 0x20, 0x01, 0x0d, 0xb9, [15] = 2 };
static struct path_conf conf;

struct run {
	struct mib_set *s;
	struct mib_block b;
	struct path_frag *f;
};

static struct path_rlim_conf
__rl_rc(uint32_t per_sec, uint32_t burst, uint32_t ms)
{
	struct path_rlim_conf c = { .on = true,
				    .msgs_per_sec = per_sec,
				    .msgs_burst = burst,
				    .ratelimit6_ms = ms,
				    .hz = HZ_MS,
				    .seed = PATH_RLIM_SEED };
	return c;
}

static void
__rl_begin(struct run *r, const struct path_rlim_conf *rc)
{
	struct path_frag_conf fc = { .high_thresh = PATH_FRAG_HIGH_DEFAULT,
				     .timeout = 1000,
				     .high_thresh6 = PATH_FRAG_HIGH_DEFAULT,
				     .timeout6 = TIMEOUT6 };

	if (rc != NULL)
		fc.rlim = *rc;
	r->s = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(r->s);
	r->b = mib_set_block(r->s, 0);
	r->f = path_frag_create(&fc, -1);
	assert_non_null(r->f);
	path_frag_tick(r->f, 0, &r->b);
}

static uint64_t
__rl_rd(const struct run *r, unsigned int f)
{
	return mib_read(&r->b, f);
}

static void
__rl_end(struct run *r)
{
	uint64_t tot[MIB_FIELD_MAX];
	char why[256];

	mib_fold(r->s, MIB_FOLD_LCORE, tot, NULL);
	if (mib_check_conservation(tot, why, sizeof(why)) != 0)
		fail_msg("conservation: %s", why);
	path_frag_free(r->f);
	mib_set_free(r->s);
}

static uint32_t
__rl_pseudo(const uint8_t *src, uint32_t len, uint8_t nh)
{
	uint32_t s = wire_sum(src, 16, 0);

	s = wire_sum(local6, 16, s);
	return s + (len >> 16) + (len & 0xffff) + nh;
}

/* One frame from src to local6: a UDP datagram to port CLOSED (a port
 * unreachable), or with frag, the first fragment of one (a time exceeded
 * when its queue times out). */
static void
__rl_send(struct run *r, const uint8_t *src, bool frag)
{
	uint32_t ext = frag ? 8 : 0, ulen = 16, n = 14 + 40 + ext + ulen;
	uint8_t p[14 + 40 + 8 + 16], *u = p + 54 + ext;
	struct rte_mbuf m;
	struct path_l2 l2;
	uint16_t c;

	memcpy(p, our_mac, 6);
	memset(p + 6, 0x02, 6);
	wire_put16(p + 12, 0x86dd);
	p[14] = 0x60;
	p[15] = p[16] = p[17] = 0;
	wire_put16(p + 18, ext + ulen);
	p[20] = frag ? 44 : IPPROTO_UDP;
	p[21] = 64;
	memcpy(p + 22, src, 16);
	memcpy(p + 38, local6, 16);
	if (frag) { /* offset 0, more fragments */
		uint8_t *fh = p + 54;

		fh[0] = IPPROTO_UDP;
		fh[1] = 0;
		wire_put16(fh + 2, 1);
		wire_put32(fh + 4, 0x1234);
	}
	memset(u, 0x5a, ulen);
	wire_put16(u, 1000);
	wire_put16(u + 2, CLOSED);
	wire_put16(u + 4, frag ? 64 : ulen);
	wire_put16(u + 6, 0);
	c = wire_csum(wire_sum(u, ulen, __rl_pseudo(src, ulen, IPPROTO_UDP)));
	wire_put16(u + 6, c ? c : 0xffff);
	memset(&m, 0, sizeof(m));
	m.buf_addr = p;
	m.buf_len = m.data_len = (uint16_t)n;
	m.pkt_len = n;
	m.nb_segs = 1;
	mib_inc(&r->b, MIB_F(RX, PACKETS));
	mib_add(&r->b, MIB_F(RX, OCTETS), n);
	path_l2(&conf, &m, &l2, &r->b);
	path_rcv_frag(&conf, &m, &l2, &r->b, r->f);
}

static void
__rl_sendn(struct run *r, const uint8_t *src, unsigned int n)
{
	while (n-- > 0)
		__rl_send(r, src, false);
}

#define SENT(r)	   __rl_rd(r, MIB_ICMP6MSG_OUT(1))
#define HOST(r)	   __rl_rd(r, MIB_F(ICMP6, OUTRATELIMITHOST))
#define GLOBAL(r)  __rl_rd(r, MIB_F(ICMP, OUTRATELIMITGLOBAL))
#define NOROUTE(r) __rl_rd(r, MIB_F(IP6, OUTNOROUTES))

/* The global bucket huge: only the peers limit. */
#define BIG 1000000u

static void
test_off(void **state)
{
	struct path_rlim_conf rc = __rl_rc(BIG, BIG, 0);
	struct run r;

	(void)state;
	/* no limits (a conf that does not name them) */
	__rl_begin(&r, NULL);
	__rl_sendn(&r, src_a, 100);
	assert_int_equal(SENT(&r), 100);
	assert_int_equal(HOST(&r) + GLOBAL(&r), 0);
	__rl_end(&r);
	/* ratelimit 0: no per-peer limit (the global bucket never empties) */
	__rl_begin(&r, &rc);
	__rl_sendn(&r, src_a, 100);
	assert_int_equal(SENT(&r), 100);
	assert_int_equal(HOST(&r) + GLOBAL(&r), 0);
	assert_int_equal(__rl_rd(&r, MIB_F(ICMP6, OUTMSGS)), 100);
	__rl_end(&r);
}

static void
test_peer(void **state)
{
	struct path_rlim_conf rc = __rl_rc(BIG, BIG, 100); /* 25 jiffies */
	struct run r;

	(void)state;
	__rl_begin(&r, &rc);
	/* a new peer: a burst of XRLIM_BURST_FACTOR (6) */
	__rl_sendn(&r, src_a, 10);
	assert_int_equal(SENT(&r), 6);
	assert_int_equal(HOST(&r), 4);
	assert_int_equal(__rl_rd(&r, MIB_F(ICMP6, OUTMSGS)), 6);
	assert_int_equal(__rl_rd(&r, MIB_F(IP6, OUTREQUESTS)), 6);
	/* another peer has its own bucket */
	__rl_sendn(&r, src_b, 7);
	assert_int_equal(SENT(&r), 12);
	assert_int_equal(HOST(&r), 5);
	/* 24 jiffies later: one short of a token */
	path_frag_tick(r.f, 96, &r.b);
	__rl_sendn(&r, src_a, 1);
	assert_int_equal(SENT(&r), 12);
	assert_int_equal(HOST(&r), 6);
	/* 25: one */
	path_frag_tick(r.f, 100, &r.b);
	__rl_sendn(&r, src_a, 2);
	assert_int_equal(SENT(&r), 13);
	assert_int_equal(HOST(&r), 7);
	/* idle 6 * 25 jiffies: the full burst again, no more */
	path_frag_tick(r.f, 100 + 600, &r.b);
	__rl_sendn(&r, src_a, 8);
	assert_int_equal(SENT(&r), 19);
	assert_int_equal(HOST(&r), 9);
	/* an own address as the source: the route back is the loopback
	 * device, never a peer's limit */
	__rl_sendn(&r, local6, 20);
	assert_int_equal(SENT(&r), 39);
	assert_int_equal(HOST(&r), 9);
	assert_int_equal(GLOBAL(&r), 0);
	__rl_end(&r);
}

/* The messages a bucket of burst credits refilled at time 0 lets go (the
 * last one takes it to 0 or below), replaying the fixed-seed credit. */
static unsigned int
__rl_replay(uint64_t *rng, int64_t *credit)
{
	unsigned int n = 0;

	while (*credit > 0) {
		*credit -= path_rlim_rand3(rng);
		n++;
	}
	return n;
}

static void
test_global(void **state)
{
	struct path_rlim_conf rc = __rl_rc(1000, 50, 0);
	uint64_t rng = PATH_RLIM_SEED;
	int64_t credit = 50;
	unsigned int sent;
	struct run r;

	(void)state;
	__rl_begin(&r, &rc);
	/* the first message refills the bucket to its burst (delta is HZ) */
	sent = __rl_replay(&rng, &credit);
	assert_true(sent >= 25);
	__rl_sendn(&r, src_a, 200);
	assert_int_equal(SENT(&r), sent);
	assert_int_equal(GLOBAL(&r), 200 - sent);
	assert_int_equal(HOST(&r), 0);
	/* no route: counted after the global check, consumes nothing */
	__rl_sendn(&r, offlink, 3);
	assert_int_equal(GLOBAL(&r), 203 - sent);
	assert_int_equal(NOROUTE(&r), 0);
	/* 19 ms = 4 jiffies: less than HZ / 50, no refill */
	path_frag_tick(r.f, 19, &r.b);
	__rl_sendn(&r, src_a, 1);
	assert_int_equal(SENT(&r), sent);
	/* 20 ms = 5 jiffies: 1000 * 5 / 250 = 20 credits */
	path_frag_tick(r.f, 20, &r.b);
	credit += 20;
	/* no route now passes the global check: Ip6 OutNoRoutes and Icmp6
	 * OutRateLimitHost, the credit untouched */
	__rl_sendn(&r, offlink, 5);
	assert_int_equal(NOROUTE(&r), 5);
	assert_int_equal(HOST(&r), 5);
	sent += __rl_replay(&rng, &credit);
	__rl_sendn(&r, src_a, 100);
	assert_int_equal(SENT(&r), sent);
	/* a second later the bucket holds its burst at most */
	path_frag_tick(r.f, 2000, &r.b);
	credit = RTE_MIN(credit + 1000, 50);
	sent += __rl_replay(&rng, &credit);
	__rl_sendn(&r, src_a, 100);
	assert_int_equal(SENT(&r), sent);
	assert_int_equal(SENT(&r) + GLOBAL(&r) + HOST(&r), 200 + 3 + 1 + 5 + 100 + 100);
	__rl_end(&r);

	/* icmp_msgs_per_sec 0: never refilled, nothing of the ratemask sent */
	rc = __rl_rc(0, 50, 0);
	__rl_begin(&r, &rc);
	__rl_sendn(&r, src_a, 10);
	__rl_sendn(&r, offlink, 10);
	assert_int_equal(SENT(&r), 0);
	assert_int_equal(GLOBAL(&r), 20);
	assert_int_equal(NOROUTE(&r), 0);
	__rl_end(&r);
}

static void
test_exempt(void **state)
{
	struct path_rlim_conf rc = __rl_rc(0, 0, 100);
	struct path_rlim rl;
	unsigned int t;

	(void)state;
	assert_int_equal(path_rlim_init(&rl, &rc), 0);
	/* net.ipv6.icmp.ratemask 0-1,3-127: Packet Too Big and the
	 * informational messages are never limited */
	for (t = 0; t < 256; t++) {
		struct path_icmp6_answer a = { .verdict = P6_ANSWER_SEND,
					       .type = (uint8_t)t };
		bool limited = t <= 1 || (t >= 3 && t <= 127);

		__path_icmp6_rlim(&rl, 0, &a, src_a);
		assert_int_equal(a.verdict, limited ? P6_ANSWER_GLOBAL : P6_ANSWER_SEND);
	}
	/* nothing to limit: not sent, or no route for a type out of it */
	{
		struct path_icmp6_answer a = { .verdict = P6_ANSWER_NONE, .type = 1 };
		struct path_icmp6_answer b = { .verdict = P6_ANSWER_NOROUTE, .type = 2 };

		__path_icmp6_rlim(&rl, 0, &a, src_a);
		__path_icmp6_rlim(&rl, 0, &b, src_a);
		assert_int_equal(a.verdict, P6_ANSWER_NONE);
		assert_int_equal(b.verdict, P6_ANSWER_NOROUTE);
	}
	/* limits off: nothing */
	rc.on = false;
	assert_int_equal(path_rlim_init(&rl, &rc), 0);
	{
		struct path_icmp6_answer a = { .verdict = P6_ANSWER_SEND, .type = 1 };

		__path_icmp6_rlim(&rl, 0, &a, src_a);
		assert_int_equal(a.verdict, P6_ANSWER_SEND);
	}
}

static void
test_conf(void **state)
{
	struct path_frag_conf fc = { .high_thresh = 0, .timeout = 1 };
	struct path_rlim rl;

	(void)state;
	fc.rlim = __rl_rc(1000, 50, 100);
	fc.rlim.hz = 0;
	assert_int_equal(path_rlim_init(&rl, &fc.rlim), -EINVAL);
	assert_null(path_frag_create(&fc, -1));
	assert_int_equal(rte_errno, EINVAL);
	fc.rlim = __rl_rc((uint32_t)INT32_MAX + 1, 50, 100);
	assert_int_equal(path_rlim_init(&rl, &fc.rlim), -EINVAL);
	fc.rlim = __rl_rc(INT32_MAX, INT32_MAX, INT32_MAX);
	assert_int_equal(path_rlim_init(&rl, &fc.rlim), 0);
	/* msecs_to_jiffies rounds up: 1 ms is a jiffy, 100 ms 25 */
	fc.rlim = __rl_rc(1000, 50, 1);
	assert_int_equal(path_rlim_init(&rl, &fc.rlim), 0);
	assert_int_equal(rl.tmo, 1);
	fc.rlim = __rl_rc(1000, 50, 100);
	assert_int_equal(path_rlim_init(&rl, &fc.rlim), 0);
	assert_int_equal(rl.tmo, 25);
}

static void
test_frag_timeout(void **state)
{
	struct path_rlim_conf rc = __rl_rc(BIG, BIG, 100);
	struct run r;

	(void)state;
	__rl_begin(&r, &rc);
	/* the peer's burst used, then a first fragment whose queue times
	 * out 50 ms (12 jiffies) later: its time exceeded is limited then */
	__rl_sendn(&r, src_a, 6);
	__rl_send(&r, src_a, true);
	assert_int_equal(SENT(&r), 6);
	path_frag_tick(r.f, TIMEOUT6, &r.b);
	assert_int_equal(__rl_rd(&r, MIB_F(IP6, REASMTIMEOUT)), 1);
	assert_int_equal(__rl_rd(&r, MIB_ICMP6MSG_OUT(3)), 0);
	assert_int_equal(HOST(&r), 1);
	/* another source's queue, after 100 ms more: sent */
	__rl_send(&r, src_b, true);
	path_frag_tick(r.f, 3 * TIMEOUT6, &r.b);
	assert_int_equal(__rl_rd(&r, MIB_ICMP6MSG_OUT(3)), 1);
	assert_int_equal(HOST(&r), 1);
	__rl_end(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_off),    cmocka_unit_test(test_peer),
		cmocka_unit_test(test_global), cmocka_unit_test(test_exempt),
		cmocka_unit_test(test_conf),   cmocka_unit_test(test_frag_timeout),
	};
	struct rte_ether_addr mac = { { 0x02, 0, 0, 0, 0, 0x01 } };

	path_conf_init(&conf);
	conf.mac = mac;
	if (path_conf_add_local6(&conf, local6, 64) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
