/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/ingress unit tests, the "rules" kind over IPv6 and mixed traffic
 * (cmocka, EAL without hugepages; the IPv4 cases are test_ingress_rules.c):
 *
 *  - match6_table: one rule set + one frame + the expected verdict per row,
 *    for IPv6 prefixes (each 32-bit word of rte_acl's layout), ports, DSCP,
 *    VLAN, extension header chains (hop-by-hop, routing, destination
 *    options, fragments, the walk's bound, cut headers), rules of either
 *    family and of none, each family's context missing, through the
 *    default lookup and rte_acl, the linear walk and the reference
 *  - prefix6_edges: dst /L for every L in 0..128, frames on each side of
 *    the prefix's last bit, through every lookup
 *  - parse6_errors: exact "FILE:LINE: reason" lines of bad IPv6 rules;
 *    every control and high byte in an IPv6 word: one line, quoted
 *  - mixed_vs_linear: generated rule sets mixing IPv4, IPv6 and
 *    family-less rules (10 and 300 rules) against the reference on
 *    random bursts of IPv4, IPv6 and odd frames, through rte_acl and the
 *    linear walk: 0 mismatches
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_random.h>

#include "ingress_pvt.h"
#include "test_ingress.h"
#include "test_oneline.h"

/* Designated-initializer defaults overridden per row. */
#pragma GCC diagnostic ignored "-Woverride-init"

/* ------------------------------------------------------------------ */
/* IPv6 frames                                                         */
/* ------------------------------------------------------------------ */

#define EXT_MAX 12

struct f6 {
	int vlan; /* -1: untagged */
	uint8_t version;
	uint8_t tc; /* traffic class */
	uint8_t src[16], dst[16];
	int n_ext;		  /* extension headers, in order: */
	uint8_t ext[EXT_MAX];	  /* their types (0, 43, 44, 60, ...) */
	uint8_t ext_len[EXT_MAX]; /* their length byte (not for 44) */
	uint16_t frag;		  /* a fragment header's offset field */
	uint8_t proto;		  /* the upper layer */
	uint16_t sport, dport;
	int len; /* > 0: the frame cut to len bytes */
};

/* 2001:db8:<a>:<b>::<c> */
#define DB8(a, b, c)                                                                     \
	{                                                                                \
		0x20, 0x01, 0x0d, 0xb8, (a) >> 8, (a)&0xff, (b) >> 8, (b)&0xff, 0, 0, 0, \
			0, 0, 0, (c) >> 8, (c)&0xff                                      \
	}
#define F6S(...)                                                                       \
	{                                                                              \
		.vlan = -1, .version = 6, .src = DB8(0, 0, 1), .dst = DB8(0x19, 0, 1), \
		.proto = IPPROTO_UDP, .sport = 1024, .dport = 9, __VA_ARGS__           \
	}
#define F6(...) ((struct f6)F6S(__VA_ARGS__))

/* Where the upper layer starts in f's frame. */
static uint32_t
f6_l4_off(const struct f6 *f)
{
	uint32_t off = 14 + (f->vlan >= 0 ? 4 : 0) + 40;
	int i;

	for (i = 0; i < f->n_ext; i++)
		off += f->ext[i] == IPPROTO_FRAGMENT ? 8 : (f->ext_len[i] + 1u) * 8;
	return off;
}

static struct rte_mbuf *
f6_fill(struct rte_mbuf *m, const struct f6 *f)
{
	uint8_t *p, *ip;
	uint32_t off = 12, total;
	uint32_t vtc = (uint32_t)f->version << 28 | (uint32_t)f->tc << 20;
	int i;

	rte_pktmbuf_reset(m);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	memset(p, 0, 512);
	memcpy(p, "\x33\x33\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02", 12);
	if (f->vlan >= 0) {
		*(uint16_t *)(p + off) = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		*(uint16_t *)(p + off + 2) = rte_cpu_to_be_16((uint16_t)f->vlan);
		off += 4;
	}
	*(uint16_t *)(p + off) = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	off += 2;
	ip = p + off;
	vtc = rte_cpu_to_be_32(vtc);
	memcpy(ip, &vtc, 4); /* ip is 2-byte aligned */
	ip[6] = f->n_ext ? f->ext[0] : f->proto;
	ip[7] = 64;
	memcpy(ip + 8, f->src, 16);
	memcpy(ip + 24, f->dst, 16);
	off += 40;
	for (i = 0; i < f->n_ext; i++) {
		p[off] = i + 1 < f->n_ext ? f->ext[i + 1] : f->proto;
		if (f->ext[i] == IPPROTO_FRAGMENT) {
			*(uint16_t *)(p + off + 2) = rte_cpu_to_be_16(f->frag);
			off += 8;
		} else {
			p[off + 1] = f->ext_len[i];
			off += (f->ext_len[i] + 1u) * 8;
		}
	}
	*(uint16_t *)(p + off) = rte_cpu_to_be_16(f->sport);
	*(uint16_t *)(p + off + 2) = rte_cpu_to_be_16(f->dport);
	off += f->proto == IPPROTO_TCP ? 20 : 8;
	*(uint16_t *)(ip + 4) = rte_cpu_to_be_16((uint16_t)(p + off - ip - 40));
	total = RTE_MAX(off, 60u);
	if (f->len > 0)
		total = (uint32_t)f->len;
	m->data_len = (uint16_t)total;
	m->pkt_len = total;
	return m;
}

/* ------------------------------------------------------------------ */
/* match6_table                                                        */
/* ------------------------------------------------------------------ */

struct m6case {
	const char *name;
	const char *rules;
	uint8_t action, matched, marked;
	uint32_t mark, rule; /* rule: source line, 0 = default */
	bool v4;	     /* the frame is f4 (IPv4 or other), not f6 */
	struct f6 f6;
	struct fspec f4;
};

#define V6(...) .f6 = F6S(__VA_ARGS__)
#define V4(...) .v4 = true, .f4 = FS(__VA_ARGS__)
#define HOP(n)	.n_ext = 1, .ext = { 0 }, .ext_len = { (n) }

#define R_SRC48	 "src 2001:db8:1::/48 action drop\n"
#define R_ZERO6	 "src ::/0 action drop\n"
#define R_HOST6	 "dst 2001:db8:19::1 action drop\n"
#define R_DPORTS "proto udp dport 100-200 action drop\n"
#define R_EXT	 "dport 9 action drop\nproto udp action mark 3\n"
#define R_ORDER                                                                              \
	"prio 10 src 198.18.0.0/15 action mark 4\nprio 20 src 2001:db8::/32 action mark 6\n" \
	"prio 30 proto udp action count\nprio 40 action drop\n"
#define R_VLAN6	   "vlan 100 src 2001:db8::/32 action drop\n"
#define R_DEFDROP6 "default drop\nsrc 2001:db8::/32 action pass\n"
#define R_ONLY4	   "src 10.0.0.0/8 action drop\nproto udp src 0.0.0.0/0 action count\n"
#define R_ONLY6	   "src 2001:db8::/32 action drop\nproto tcp dst ::/0 action count\n"

static const struct m6case mcases[] = {
	/* src /48: both ends and just outside, an IPv4 frame */
	{ "src /48 first", R_SRC48, DROP, 1, 0, 0, 1, V6(.src = DB8(1, 0, 0)) },
	{ "src /48 last", R_SRC48, DROP, 1, 0, 0, 1,
	  V6(.src = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		      0xff, 0xff, 0xff, 0xff }) },
	{ "src /48 above", R_SRC48, PASS, 0, 0, 0, 0, V6(.src = DB8(2, 0, 0)) },
	{ "src /48 below", R_SRC48, PASS, 0, 0, 0, 0,
	  V6(.src = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		      0xff, 0xff, 0xff, 0xff }) },
	{ "src /48 ipv4 frame", R_SRC48, PASS, 0, 0, 0, 0, V4() },
	/* ::/0: every IPv6 frame with its header, nothing else */
	{ "::/0 ipv6", R_ZERO6, DROP, 1, 0, 0, 1, V6() },
	{ "::/0 tcp", R_ZERO6, DROP, 1, 0, 0, 1, V6(.proto = IPPROTO_TCP) },
	{ "::/0 ipv4", R_ZERO6, PASS, 0, 0, 0, 0, V4() },
	{ "::/0 arp", R_ZERO6, PASS, 0, 0, 0, 0, V4(.etype = RTE_ETHER_TYPE_ARP) },
	{ "::/0 86dd, version 4", R_ZERO6, PASS, 0, 0, 0, 0, V6(.version = 4) },
	{ "::/0 86dd over an IPv4 header", R_ZERO6, PASS, 0, 0, 0, 0,
	  V4(.etype = RTE_ETHER_TYPE_IPV6) },
	{ "::/0 header cut", R_ZERO6, PASS, 0, 0, 0, 0, V6(.len = 14 + 39) },
	{ "::/0 header complete", R_ZERO6, DROP, 1, 0, 0, 1, V6(.len = 14 + 40) },
	{ "::/0 tagged, header cut", R_ZERO6, PASS, 0, 0, 0, 0,
	  V6(.vlan = 3, .len = 18 + 39) },
	/* /128: a difference in each 32-bit word */
	{ "/128 hit", R_HOST6, DROP, 1, 0, 0, 1, V6() },
	{ "/128 word 3", R_HOST6, PASS, 0, 0, 0, 0, V6(.dst = DB8(0x19, 0, 2)) },
	{ "/128 word 2", R_HOST6, PASS, 0, 0, 0, 0,
	  V6(.dst = { 0x20, 0x01, 0x0d, 0xb8, 0, 0x19, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1 }) },
	{ "/128 word 1", R_HOST6, PASS, 0, 0, 0, 0, V6(.dst = DB8(0x19, 1, 1)) },
	{ "/128 word 0", R_HOST6, PASS, 0, 0, 0, 0,
	  V6(.dst = { 0xa0, 0x01, 0x0d, 0xb8, 0, 0x19, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }) },
	/* ports and protocols of either family */
	{ "dport lo-1", R_DPORTS, PASS, 0, 0, 0, 0, V6(.dport = 99) },
	{ "dport lo", R_DPORTS, DROP, 1, 0, 0, 1, V6(.dport = 100) },
	{ "dport hi", R_DPORTS, DROP, 1, 0, 0, 1, V6(.dport = 200) },
	{ "dport hi+1", R_DPORTS, PASS, 0, 0, 0, 0, V6(.dport = 201) },
	{ "dport tcp", R_DPORTS, PASS, 0, 0, 0, 0,
	  V6(.proto = IPPROTO_TCP, .dport = 150) },
	{ "dport ipv4 too", R_DPORTS, DROP, 1, 0, 0, 1, V4(.dport = 150) },
	{ "icmp6", "proto icmp6 action drop\n", DROP, 1, 0, 0, 1,
	  V6(.proto = IPPROTO_ICMPV6) },
	{ "icmp6 vs udp", "proto icmp6 action drop\n", PASS, 0, 0, 0, 0, V6() },
	{ "dscp 46 + ecn", "dscp 46 action drop\n", DROP, 1, 0, 0, 1,
	  V6(.tc = 46 << 2 | 3) },
	{ "dscp 47", "dscp 46 action drop\n", PASS, 0, 0, 0, 0, V6(.tc = 47 << 2) },
	/* extension headers: ports after them; fragments have none */
	{ "hop-by-hop", R_EXT, DROP, 1, 0, 0, 1, V6(HOP(0)) },
	{ "hop-by-hop, 24 bytes", R_EXT, DROP, 1, 0, 0, 1, V6(HOP(2)) },
	{ "hop, routing, dest", R_EXT, DROP, 1, 0, 0, 1,
	  V6(.n_ext = 3, .ext = { 0, 43, 60 }, .ext_len = { 0, 2, 1 }) },
	{ "8 headers", R_EXT, DROP, 1, 0, 0, 1,
	  V6(.n_ext = 8, .ext = { 0, 60, 60, 60, 60, 43, 43, 60 }) },
	{ "9 headers: the walk stops", R_EXT, PASS, 0, 0, 0, 0,
	  V6(.n_ext = 9, .ext = { 0, 60, 60, 60, 60, 43, 43, 60, 60 }) },
	{ "9 headers: proto is the 9th's", "proto 60 action drop\n", DROP, 1, 0, 0, 1,
	  V6(.n_ext = 9, .ext = { 0, 60, 60, 60, 60, 43, 43, 60, 60 }) },
	{ "first fragment", R_EXT, PASS, 1, 1, 3, 2,
	  V6(.n_ext = 1, .ext = { 44 }, .frag = 1) },
	{ "later fragment", R_EXT, PASS, 1, 1, 3, 2,
	  V6(.n_ext = 1, .ext = { 44 }, .frag = 0x100) },
	{ "atomic fragment", R_EXT, PASS, 1, 1, 3, 2, V6(.n_ext = 1, .ext = { 44 }) },
	{ "hop then fragment", R_EXT, PASS, 1, 1, 3, 2,
	  V6(.n_ext = 2, .ext = { 0, 44 }, .frag = 1) },
	{ "fragment then dest: proto is dest", "proto 60 action drop\n", DROP, 1, 0, 0, 1,
	  V6(.n_ext = 2, .ext = { 44, 60 }, .frag = 0x100) },
	{ "hop-by-hop cut", "proto 0 action drop\n", DROP, 1, 0, 0, 1,
	  V6(HOP(2), .len = 14 + 40 + 23) },
	{ "hop-by-hop whole, udp after", "proto 0 action drop\n", PASS, 0, 0, 0, 0,
	  V6(HOP(2), .len = 14 + 40 + 24) },
	{ "ports cut", R_EXT, PASS, 1, 1, 3, 2, V6(HOP(0), .len = 14 + 48 + 3) },
	{ "ports complete", R_EXT, DROP, 1, 0, 0, 1, V6(HOP(0), .len = 14 + 48 + 4) },
	{ "tagged ports complete", R_EXT, DROP, 1, 0, 0, 1,
	  V6(.vlan = 5, .len = 18 + 40 + 4) },
	{ "tagged ports cut", R_EXT, PASS, 1, 1, 3, 2,
	  V6(.vlan = 5, .len = 18 + 40 + 3) },
	/* vlan */
	{ "vlan + src6 tagged", R_VLAN6, DROP, 1, 0, 0, 1, V6(.vlan = 100) },
	{ "vlan + src6 untagged", R_VLAN6, PASS, 0, 0, 0, 0, V6() },
	{ "vlan + src6 ipv4", R_VLAN6, PASS, 0, 0, 0, 0, V4(.vlan = 100) },
	{ "vlan none ipv6", "vlan none action drop\n", DROP, 1, 0, 0, 1, V6() },
	{ "vlan 7 ipv6", "vlan 7 action drop\n", DROP, 1, 0, 0, 1, V6(.vlan = 7) },
	/* both families in one set, in prio order, count, default */
	{ "order: ipv4 rule", R_ORDER, PASS, 1, 1, 4, 1, V4() },
	{ "order: ipv6 rule", R_ORDER, PASS, 1, 1, 6, 2, V6() },
	{ "order: count, then drop", R_ORDER, DROP, 1, 0, 0, 4,
	  V6(.src = { 0x20, 0x01, 0x0d, 0xb9 }) },
	{ "order: arp", R_ORDER, DROP, 1, 0, 0, 4, V4(.etype = RTE_ETHER_TYPE_ARP) },
	{ "default drop, ipv6 in", R_DEFDROP6, PASS, 1, 0, 0, 2, V6() },
	{ "default drop, ipv6 out", R_DEFDROP6, DROP, 0, 0, 0, 0, V6(.src = { 0x30 }) },
	{ "default drop, ipv4", R_DEFDROP6, DROP, 0, 0, 0, 0, V4() },
	/* one family's context missing */
	{ "only ipv4 rules: ipv6", R_ONLY4, PASS, 0, 0, 0, 0, V6(.src = { 10 }) },
	{ "only ipv4 rules: ipv4 count", R_ONLY4, PASS, 1, 0, 0, 0, V4() },
	{ "only ipv6 rules: ipv4", R_ONLY6, PASS, 0, 0, 0, 0, V4(.proto = IPPROTO_TCP) },
	{ "only ipv6 rules: ipv6 count", R_ONLY6, PASS, 1, 0, 0, 0,
	  V6(.src = { 0x30 }, .proto = IPPROTO_TCP) },
	{ "only ipv6 rules: drop", R_ONLY6, DROP, 1, 0, 0, 1, V6() },
};

static struct rte_mbuf *
mcase_frame(const struct m6case *c)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	assert_non_null(m);
	return c->v4 ? frame_fill(m, &c->f4) : f6_fill(m, &c->f6);
}

static bool
result_is(const struct ingress_result *r, uint8_t action, uint8_t matched, uint8_t marked,
	  uint32_t mark, uint32_t rule)
{
	return r->action == action && r->matched == matched && r->marked == marked &&
	       r->mark == mark && r->rule == rule;
}

static const char *const vname[INGRESS_RULES_VIEW_MAX] = { "acl", "small", "reference" };

/* c's frame m through the default lookup and each view, alone and last
 * in a burst behind an IPv4 and an IPv6 frame. */
static void
check_all(const char *name, const char *rules, struct rte_mbuf *m, uint8_t action,
	  uint8_t matched, uint8_t marked, uint32_t mark, uint32_t rule)
{
	struct ingress_classifier *cl = must_parse(rules);
	struct rte_mbuf *b4 = frame(&F()), *b6 = f6_fill(rte_pktmbuf_alloc(pool), &F6());
	struct rte_mbuf *three[3] = { b4, b6, m };
	struct ingress_result r, rb[3];
	unsigned int v;

	memset(&r, 0xee, sizeof(r));
	ingress_classify_burst(cl, &m, 1, &r);
	if (!result_is(&r, action, matched, marked, mark, rule))
		fail_msg(
			"default '%s': got action %u matched %u marked %u mark %u rule %u, "
			"want %u %u %u %u %u",
			name, r.action, r.matched, r.marked, r.mark, r.rule, action,
			matched, marked, mark, rule);
	for (v = 0; v < INGRESS_RULES_VIEW_MAX; v++) {
		struct ingress_classifier *view = ingress_rules_view(cl, v);

		assert_non_null(view);
		memset(&r, 0xee, sizeof(r));
		ingress_classify_burst(view, &m, 1, &r);
		memset(rb, 0xee, sizeof(rb));
		ingress_classify_burst(view, three, 3, rb);
		if (!result_is(&r, action, matched, marked, mark, rule) ||
		    !result_is(&rb[2], action, matched, marked, mark, rule))
			fail_msg(
				"%s '%s': got action %u matched %u marked %u mark %u rule %u "
				"(in a burst: rule %u), want %u %u %u %u %u",
				vname[v], name, r.action, r.matched, r.marked, r.mark,
				r.rule, rb[2].rule, action, matched, marked, mark, rule);
		ingress_classifier_free(view);
	}
	rte_pktmbuf_free(b4);
	rte_pktmbuf_free(b6);
	ingress_classifier_free(cl);
}

static void
test_match6_table(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(mcases); i++) {
		const struct m6case *c = &mcases[i];
		struct rte_mbuf *m = mcase_frame(c);

		check_all(c->name, c->rules, m, c->action, c->matched, c->marked, c->mark,
			  c->rule);
		rte_pktmbuf_free(m);
	}
}

/* ------------------------------------------------------------------ */
/* prefix6_edges                                                       */
/* ------------------------------------------------------------------ */

static void
flip_bit(uint8_t a[16], unsigned int bit)
{
	a[bit / 8] ^= (uint8_t)(0x80 >> (bit % 8));
}

static void
test_prefix6_edges(void **state)
{
	static const uint8_t net[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x12, 0x34, 0x56, 0x78,
					 0x9a, 0xbc, 0xde, 0xf0, 0x11, 0x22, 0x33, 0x44 };
	unsigned int len, b;

	(void)state;
	for (len = 0; len <= 128; len++) {
		uint8_t p[16], in[16], out[16];
		char rules[128], addr[64], name[64];
		struct rte_mbuf *m;

		memcpy(p, net, 16);
		for (b = len; b < 128; b++) /* host bits clear */
			if (p[b / 8] & (0x80 >> (b % 8)))
				flip_bit(p, b);
		inet_ntop(AF_INET6, p, addr, sizeof(addr));
		snprintf(rules, sizeof(rules), "dst %s/%u action drop\n", addr, len);
		memcpy(in, p, 16);
		if (len < 128)
			flip_bit(in, len); /* first host bit: inside */
		snprintf(name, sizeof(name), "/%u inside", len);
		m = f6_fill(rte_pktmbuf_alloc(pool), &F6());
		memcpy(rte_pktmbuf_mtod_offset(m, uint8_t *, 14 + 24), in, 16);
		check_all(name, rules, m, DROP, 1, 0, 0, 1);
		if (len > 0) {
			memcpy(out, p, 16);
			flip_bit(out, len - 1); /* last prefix bit: outside */
			snprintf(name, sizeof(name), "/%u outside", len);
			memcpy(rte_pktmbuf_mtod_offset(m, uint8_t *, 14 + 24), out, 16);
			check_all(name, rules, m, PASS, 0, 0, 0, 0);
		}
		rte_pktmbuf_free(m);
	}
}

/* ------------------------------------------------------------------ */
/* parse6_errors                                                       */
/* ------------------------------------------------------------------ */

static const struct {
	const char *text;
	const char *err;
} ecases[] = {
	{ "src 2001:db8::/129 action drop",
	  "t.rules:1: src: '2001:db8::/129' is not an IPv6 address A[/LEN]: length '129' is out of range 0..128" },
	{ "\nsrc 2001:db8::1/32 action drop",
	  "t.rules:2: src: '2001:db8::1/32' has host bits set (did you mean 2001:db8::/32?)" },
	{ "dst 2001:db8::8000/112 action drop",
	  "t.rules:1: dst: '2001:db8::8000/112' has host bits set (did you mean 2001:db8::/112?)" },
	{ "dst 2001:db8::8000/113 action drop\ndst 2001:db8::c000/113 action drop",
	  "t.rules:2: dst: '2001:db8::c000/113' has host bits set (did you mean 2001:db8::8000/113?)" },
	{ "src 2001:db8:::1 action drop",
	  "t.rules:1: src: '2001:db8:::1' is not an IPv6 address A[/LEN]" },
	{ "src fe80::1%eth0 action drop",
	  "t.rules:1: src: 'fe80::1%eth0' is not an IPv6 address A[/LEN]" },
	{ "src gggg::1 action drop",
	  "t.rules:1: src: 'gggg::1' is not an IPv6 address A[/LEN]" },
	{ "src 2001:db8::/ action drop",
	  "t.rules:1: src: '2001:db8::/' is not an IPv6 address A[/LEN]: length '' is not a number" },
	{ "src 2001:db8::/0x20 action drop",
	  "t.rules:1: src: '2001:db8::/0x20' is not an IPv6 address A[/LEN]: length '0x20' is not a "
	  "decimal number (hexadecimal is not accepted)" },
	{ "src 2001:db8::/32/1 action drop",
	  "t.rules:1: src: '2001:db8::/32/1' is not an IPv6 address A[/LEN]: length '32/1' is not a number" },
	{ "src 10.0.0.0/8 dst 2001:db8::/32 action drop",
	  "t.rules:1: dst: an IPv6 prefix in an IPv4 rule (src and dst must be of one family)" },
	{ "dst ::1 src 10.0.0.1 action drop",
	  "t.rules:1: src: an IPv4 prefix in an IPv6 rule (src and dst must be of one family)" },
	{ "proto icmp6 dport 9 action drop",
	  "t.rules:1: sport/dport need proto udp or tcp (or no proto), not 58" },
	{ "proto foo action drop",
	  "t.rules:1: proto: 'foo' is not udp, tcp, icmp, icmp6 or a number 0..255" },
	{ "src 2001:db8::/32 src ::/0 action drop", "t.rules:1: duplicate key 'src'" },
	{ "action drop\nsrc 2001:0db8:0000:0000:0000:0000:0000:0000:0000 action drop",
	  "t.rules:2: src: '2001:0db8:0000:0000:0000:0000:0000:0000:0000' is not an IPv6 address A[/LEN]" },
};

static void
test_parse6_errors(void **state)
{
	static const char *const good[] = {
		"src 2001:db8::/32 dst ::1 sport 1-1024 dport 53 proto udp vlan 100 dscp 46 action drop\n",
		"src ::/0 action count\ndst 2001:DB8::1/128 action mark 7\nsrc 10.0.0.0/8 action pass\n",
		"src ::ffff:10.0.0.0/104 action drop\nproto icmp6 action drop\nproto 58 action drop\n",
	};
	char tmpl[] = "src 2001:db8::/3%c2 action drop", text[64], name[32], err[512];
	const char *bad;
	unsigned int i, k;

	(void)state;
	for (i = 0; i < RTE_DIM(ecases); i++) {
		struct ingress_classifier *c =
			(struct ingress_classifier *)(uintptr_t)0x1;
		int rc = ingress_rules_parse_string(ecases[i].text, "t.rules", &c, err,
						    sizeof(err));

		if (rc != -EINVAL || strcmp(err, ecases[i].err) != 0)
			fail_msg("case %u: rc %d err \"%s\"\n          want \"%s\"", i,
				 rc, err, ecases[i].err);
		assert_ptr_equal(c, (struct ingress_classifier *)(uintptr_t)0x1);
	}
	for (i = 0; i < RTE_DIM(good); i++) {
		struct ingress_classifier *c = must_parse(good[i]);
		const struct ingress_ruleset *rs = __ingress_rules_of(c);

		assert_int_equal(rs->n, 3 - (i == 0) * 2);
		ingress_classifier_free(c);
	}
	for (k = 0; k < TEST_ONELINE_BYTES; k++) {
		unsigned int b = test_oneline_byte(k);
		struct ingress_classifier *c = NULL;

		snprintf(name, sizeof(name), "t%c.rules", (char)b);
		snprintf(text, sizeof(text), tmpl, (char)b);
		if (ingress_rules_parse_string(text, name, &c, err, sizeof(err)) == 0) {
			ingress_classifier_free(c);
			continue; /* a separator: still a rule */
		}
		if ((bad = test_oneline_bad(err)) != NULL)
			fail_msg("byte 0x%02x: %s in \"%s\"", b, bad, err);
	}
}

/* ------------------------------------------------------------------ */
/* mixed_vs_linear                                                     */
/* ------------------------------------------------------------------ */

static void
rnd6(uint8_t a[16])
{
	uint64_t x = rte_rand(), y = rte_rand();

	memcpy(a, &x, 8);
	memcpy(a + 8, &y, 8);
}

/* a within p/len, its host bits random */
static void
rnd6_in(const uint8_t p[16], unsigned int len, uint8_t a[16])
{
	unsigned int b;

	rnd6(a);
	for (b = 0; b < len; b++)
		if (((a[b / 8] ^ p[b / 8]) >> (7 - b % 8)) & 1)
			flip_bit(a, b);
}

/* A random rule: IPv4, IPv6 or family-less keys, over a few networks so
 * that frames near them hit. Appends to text. */
static void
rnd_rule(char *text, size_t cap, unsigned int prio)
{
	static const char *const acts[] = { "drop", "pass", "mark 5", "count" };
	size_t l = strlen(text);
	unsigned int fam = (unsigned int)(rte_rand() % 3), len;
	char addr[64];
	uint8_t base[16] = { 0x20, 0x01, 0x0d, 0xb8, (uint8_t)(rte_rand() % 4) }, p[16];

	l += (size_t)snprintf(text + l, cap - l, "prio %u", prio);
	if (rte_rand() % 3 == 0)
		l += (size_t)snprintf(text + l, cap - l, " proto %s",
				      rte_rand() & 1 ? "udp" : "tcp");
	if (fam == 1) {
		len = (unsigned int)(rte_rand() % 129);
		rnd6_in(base, 40, p);
		for (unsigned int b = len; b < 128; b++)
			if (p[b / 8] & (0x80 >> (b % 8)))
				flip_bit(p, b);
		inet_ntop(AF_INET6, p, addr, sizeof(addr));
		l += (size_t)snprintf(text + l, cap - l, " %s %s/%u",
				      rte_rand() & 1 ? "src" : "dst", addr, len);
	} else if (fam == 2) {
		static const char *const nets[] = { "0.0.0.0/0", "10.0.0.0/8",
						    "10.1.0.0/16", "10.2.0.0/16",
						    "10.3.0.0/16" };

		l += (size_t)snprintf(text + l, cap - l, " src %s",
				      nets[rte_rand() % RTE_DIM(nets)]);
	}
	if (fam == 0 || rte_rand() % 2) /* every rule has a key */
		l += (size_t)snprintf(text + l, cap - l, " dport %u-%u",
				      (unsigned int)(rte_rand() % 20),
				      (unsigned int)(20 + rte_rand() % 20));
	if (rte_rand() % 6 == 0)
		l += (size_t)snprintf(text + l, cap - l, " vlan %u",
				      (unsigned int)(rte_rand() % 3));
	if (rte_rand() % 8 == 0)
		l += (size_t)snprintf(text + l, cap - l, " dscp %u",
				      (unsigned int)(rte_rand() % 3));
	snprintf(text + l, cap - l, " action %s\n", acts[rte_rand() % RTE_DIM(acts)]);
}

/* A random frame: IPv6 near the rules' networks, with random extension
 * header chains, fragments and cuts; IPv4; or odd. */
static void
rnd_frame(struct rte_mbuf *m)
{
	static const uint8_t exts[] = { 0, 43, 44, 60 };
	unsigned int kind = (unsigned int)(rte_rand() % 8), i;
	uint8_t p[16] = { 0x20, 0x01, 0x0d, 0xb8, (uint8_t)(rte_rand() % 4) };
	struct f6 f = F6S(.proto = rte_rand() & 1 ? IPPROTO_UDP : IPPROTO_TCP,
			  .sport = (uint16_t)(rte_rand() % 50),
			  .dport = (uint16_t)(rte_rand() % 50),
			  .tc = (uint8_t)(rte_rand() % 16));

	if (kind < 2) {
		struct fspec s = F(.src = IP4(10, rte_rand() % 5, rte_rand() % 256, 1),
				   .proto = rte_rand() & 1 ? IPPROTO_UDP : IPPROTO_TCP,
				   .sport = (uint16_t)(rte_rand() % 50),
				   .dport = (uint16_t)(rte_rand() % 50),
				   .tos = (uint8_t)(rte_rand() % 16));

		if (rte_rand() % 4 == 0)
			s.vlan = (int)(rte_rand() % 3);
		if (kind == 1 && rte_rand() % 2)
			s.etype = RTE_ETHER_TYPE_ARP;
		frame_fill(m, &s);
		return;
	}
	rnd6_in(p, 40, f.src);
	rnd6_in(p, 40, f.dst);
	if (rte_rand() % 4 == 0)
		f.vlan = (int)(rte_rand() % 3);
	if (kind >= 5) {
		f.n_ext = (int)(rte_rand() % 11);
		for (i = 0; i < (unsigned int)f.n_ext; i++) {
			f.ext[i] = exts[rte_rand() % RTE_DIM(exts)];
			f.ext_len[i] = (uint8_t)(rte_rand() % 3);
		}
		f.frag = (uint16_t)(rte_rand() % 3 == 0 ? 0 : rte_rand());
	}
	if (kind == 7) {
		switch (rte_rand() % 3) {
		case 0:
			f.len = (int)(14 + rte_rand() % (f6_l4_off(&f) - 10));
			break;
		case 1:
			f.version = (uint8_t)(rte_rand() % 16);
			break;
		default:
			f.proto = (uint8_t)rte_rand();
			break;
		}
	}
	f6_fill(m, &f);
}

static void
mixed_vs_linear(unsigned int n_rules, unsigned int n_pkts)
{
	size_t cap = (size_t)n_rules * 128 + 64;
	char *text = calloc(1, cap);
	struct ingress_classifier *parsed, *views[2];
	const struct ingress_ruleset *rs;
	struct rte_mbuf *pkts[32];
	struct ingress_result res[32], lin;
	unsigned int i, j, v, bad = 0, decided = 0, v6 = 0;

	assert_non_null(text);
	rte_srand(6 + n_rules);
	if (rte_rand() & 1)
		strcat(text, "default drop\n");
	for (i = 0; i < n_rules; i++)
		rnd_rule(text, cap, (unsigned int)(rte_rand() % 100));
	parsed = must_parse(text);
	rs = __ingress_rules_of(parsed);
	views[0] = ingress_rules_view(parsed, INGRESS_RULES_VIEW_ACL);
	views[1] = ingress_rules_view(parsed, INGRESS_RULES_VIEW_SMALL);
	for (j = 0; j < 32; j++)
		assert_non_null(pkts[j] = rte_pktmbuf_alloc(pool));
	for (i = 0; i < n_pkts; i += 32) {
		for (j = 0; j < 32; j++)
			rnd_frame(pkts[j]);
		for (v = 0; v < 2; v++) {
			ingress_classify_burst(views[v], pkts, 32, res);
			for (j = 0; j < 32; j++) {
				__ingress_rules_match_linear(rs, pkts[j], &lin);
				if (!result_is(&res[j], lin.action, lin.matched,
					       lin.marked, lin.mark, lin.rule) &&
				    bad++ < 5)
					print_error(
						"%u rules, %s, frame %u: action %u matched %u "
						"mark %u/%u rule %u; reference %u %u %u/%u rule %u\n",
						n_rules, vname[v], i + j, res[j].action,
						res[j].matched, res[j].marked,
						res[j].mark, res[j].rule, lin.action,
						lin.matched, lin.marked, lin.mark,
						lin.rule);
				decided += v == 0 && lin.rule != 0;
				v6 += v == 0 && lin.rule != 0 &&
				      rte_pktmbuf_mtod_offset(pkts[j], uint8_t *,
							      12)[0] == 0x86;
			}
		}
	}
	print_message("  %u rules: %u frames, %u decided by a rule (%u untagged IPv6), "
		      "%u mismatches\n",
		      n_rules, n_pkts, decided, v6, bad);
	assert_int_equal(bad, 0);
	/* the frames exercise the rules, and not one catch-all */
	assert_true(decided > n_pkts / 4 && decided < n_pkts * 9 / 10);
	assert_true(v6 > n_pkts / 10);
	for (j = 0; j < 32; j++)
		rte_pktmbuf_free(pkts[j]);
	ingress_classifier_free(views[0]);
	ingress_classifier_free(views[1]);
	ingress_classifier_free(parsed);
	free(text);
}

static void
test_mixed_vs_linear(void **state)
{
	(void)state;
	mixed_vs_linear(10, 20000);
	mixed_vs_linear(300, 50000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match6_table),
		cmocka_unit_test(test_prefix6_edges),
		cmocka_unit_test(test_parse6_errors),
		cmocka_unit_test(test_mixed_vs_linear),
	};

	return cmocka_run_group_tests(tests, ingress_test_setup, ingress_test_teardown);
}
