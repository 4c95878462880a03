/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/ingress unit tests, classifiers and the "rules" kind (cmocka, EAL
 * without hugepages):
 *
 *  - match_table: one rule set + one frame + the expected verdict per row,
 *    for every key and edge, through the default lookup and each of
 *    rte_acl, the linear walk over the key and the naive reference, one
 *    packet a call and in a burst; a multi-segment frame
 *  - parse_errors: exact "FILE:LINE: reason" messages; *out untouched;
 *    files (missing, a directory, an error on line 5); every control and
 *    high byte in a word or the name: one line, quoted
 *  - shipped_rules: config/rules/ parse, with their documented effect on
 *    the generator's traffic
 *  - acl_vs_linear: acl-100 and acl-10000 against the naive linear matcher
 *    on 100,000 random frames each (and the linear walk on acl-100)
 *  - clone_refcount: kind data freed once, after the last clone
 *
 * The hook is test_ingress_hook.c, the 2-lcore stress test
 * test_ingress_stress.c, the measurements pktpath-bench's "ingress" group.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_random.h>

#include "ingress_pvt.h"
#include "test_ingress.h"
#include "test_oneline.h"

/* Designated-initializer defaults overridden per row (FS() in test_ingress.h). */
#pragma GCC diagnostic ignored "-Woverride-init"

/* ------------------------------------------------------------------ */
/* match_table                                                         */
/* ------------------------------------------------------------------ */

struct mcase {
	const char *name;
	const char *rules;
	struct fspec f;
	uint8_t action, matched, marked;
	uint32_t mark, rule;		/* rule: source line, 0 = default */
};

/* Rule sets shared by several rows. */
#define R_SRC24 "src 10.1.2.0/24 action drop\n"
#define R_ZERO "src 0.0.0.0/0 action drop\n"
#define R_HOST "dst 198.19.0.1/32 action drop\n"
#define R_HOST_IMPLICIT "dst 198.19.0.1 action drop\n"
#define R_DPORTS "proto udp dport 100-200 action drop\n"
#define R_SPORT_EDGES "sport 0 action drop\nsport 65535 action mark 7\n"
#define R_PRIO "prio 20 proto udp action drop\nprio 10 dst 198.19.0.1/32 action mark 5\n"
#define R_TIE "prio 5 proto udp action mark 1\nprio 5 proto udp action mark 2\n"
#define R_DEFPRIO "proto udp action mark 1\nprio 40000 proto udp action mark 2\nprio 100 proto udp action mark 3\n"
#define R_VLAN "vlan 100 action drop\n"
#define R_VLAN_NONE "vlan none action drop\n"
#define R_VLAN0 "vlan 0 action drop\n"
#define R_VLAN_IP "vlan 7 proto udp dport 9 action drop\n"
#define R_DSCP "dscp 46 action drop\n"
#define R_COUNT "prio 1 proto udp action count\nprio 2 dport 9 action drop\n"
#define R_DEFDROP "default drop\nproto udp action pass\n"
#define R_ALL "action drop\n"
#define R_UDP "proto udp action drop\n"
#define R_DPORT9 "dport 9 action drop\n"
#define R_FRAG "dport 9 action drop\nproto udp action mark 3\n"
#define R_PORTS_OPT "sport 1024 dport 9 action drop\n"
#define R_QINQ "vlan 5 action drop\nsrc 0.0.0.0/0 action mark 1\n"
#define R_MIX "# comment line\n\nprio 3 proto tcp src 10.0.0.0/8 dst 192.168.1.0/24 sport 1-1024 dport 53 vlan 100 action drop # trailing\n" \
	"prio 4 proto tcp dport 53 action mark 53\n"

static const struct mcase mcases[] = {
	/* src prefix /24: both ends and just outside */
	{ "src /24 first", R_SRC24, FS(.src = IP4(10, 1, 2, 0)), DROP, 1, 0, 0, 1 },
	{ "src /24 last", R_SRC24, FS(.src = IP4(10, 1, 2, 255)), DROP, 1, 0, 0, 1 },
	{ "src /24 above", R_SRC24, FS(.src = IP4(10, 1, 3, 0)), PASS, 0, 0, 0, 0 },
	{ "src /24 below", R_SRC24, FS(.src = IP4(10, 1, 1, 255)), PASS, 0, 0, 0, 0 },
	/* /0: every IPv4 frame, no non-IP frame */
	{ "src /0 ipv4", R_ZERO, FS(.src = IP4(255, 255, 255, 255)), DROP, 1, 0, 0, 1 },
	{ "src /0 tcp", R_ZERO, FS(.proto = IPPROTO_TCP, .src = 0), DROP, 1, 0, 0, 1 },
	{ "src /0 arp", R_ZERO, FS(.etype = RTE_ETHER_TYPE_ARP), PASS, 0, 0, 0, 0 },
	{ "src /0 ipv6", R_ZERO, FS(.etype = RTE_ETHER_TYPE_IPV6), PASS, 0, 0, 0, 0 },
	{ "src /0 version 6 in v4", R_ZERO, FS(.version = 6), PASS, 0, 0, 0, 0 },
	{ "src /0 ihl 4", R_ZERO, FS(.ihl = 4), PASS, 0, 0, 0, 0 },
	/* /32, explicit and implicit */
	{ "dst /32 hit", R_HOST, FS(.dst = IP4(198, 19, 0, 1)), DROP, 1, 0, 0, 1 },
	{ "dst /32 +1", R_HOST, FS(.dst = IP4(198, 19, 0, 2)), PASS, 0, 0, 0, 0 },
	{ "dst /32 -1", R_HOST, FS(.dst = IP4(198, 19, 0, 0)), PASS, 0, 0, 0, 0 },
	{ "dst implicit /32", R_HOST_IMPLICIT, FS(.dst = IP4(198, 19, 0, 1)), DROP, 1, 0, 0, 1 },
	{ "dst implicit /32 miss", R_HOST_IMPLICIT, FS(.dst = IP4(198, 19, 1, 1)), PASS, 0, 0, 0, 0 },
	/* port range bounds */
	{ "dport lo-1", R_DPORTS, FS(.dport = 99), PASS, 0, 0, 0, 0 },
	{ "dport lo", R_DPORTS, FS(.dport = 100), DROP, 1, 0, 0, 1 },
	{ "dport hi", R_DPORTS, FS(.dport = 200), DROP, 1, 0, 0, 1 },
	{ "dport hi+1", R_DPORTS, FS(.dport = 201), PASS, 0, 0, 0, 0 },
	{ "dport other proto", R_DPORTS, FS(.proto = IPPROTO_TCP, .dport = 150), PASS, 0, 0, 0, 0 },
	{ "sport 0 udp", R_SPORT_EDGES, FS(.sport = 0), DROP, 1, 0, 0, 1 },
	{ "sport 65535 tcp", R_SPORT_EDGES, FS(.proto = IPPROTO_TCP, .sport = 65535), PASS, 1, 1, 7, 2 },
	{ "sport: icmp has none", R_SPORT_EDGES, FS(.proto = IPPROTO_ICMP, .sport = 0), PASS, 0, 0, 0, 0 },
	{ "sport 1", R_SPORT_EDGES, FS(.sport = 1), PASS, 0, 0, 0, 0 },
	/* priority order, ties, default prio */
	{ "lower prio wins over file order", R_PRIO, FS(), PASS, 1, 1, 5, 2 },
	{ "higher prio when lower misses", R_PRIO, FS(.dst = IP4(1, 2, 3, 4)), DROP, 1, 0, 0, 1 },
	{ "tie: file order", R_TIE, FS(), PASS, 1, 1, 1, 1 },
	{ "default prio 32768", R_DEFPRIO, FS(), PASS, 1, 1, 3, 3 },
	/* vlan */
	{ "vlan 100 tagged", R_VLAN, FS(.vlan = 100), DROP, 1, 0, 0, 1 },
	{ "vlan 100 pcp ignored", R_VLAN, FS(.vlan = 100, .pcp = 5), DROP, 1, 0, 0, 1 },
	{ "vlan 100 vs 101", R_VLAN, FS(.vlan = 101), PASS, 0, 0, 0, 0 },
	{ "vlan 100 untagged", R_VLAN, FS(), PASS, 0, 0, 0, 0 },
	{ "vlan 100 arp (no IP key)", R_VLAN, FS(.vlan = 100, .etype = RTE_ETHER_TYPE_ARP), DROP, 1, 0, 0, 1 },
	{ "vlan none untagged", R_VLAN_NONE, FS(), DROP, 1, 0, 0, 1 },
	{ "vlan none tagged", R_VLAN_NONE, FS(.vlan = 3), PASS, 0, 0, 0, 0 },
	{ "vlan none untagged arp", R_VLAN_NONE, FS(.etype = RTE_ETHER_TYPE_ARP), DROP, 1, 0, 0, 1 },
	{ "vlan 0 priority-tagged", R_VLAN0, FS(.vlan = 0), DROP, 1, 0, 0, 1 },
	{ "vlan 0 untagged", R_VLAN0, FS(), PASS, 0, 0, 0, 0 },
	{ "vlan 4095", "vlan 4095 action drop\n", FS(.vlan = 4095), DROP, 1, 0, 0, 1 },
	{ "vlan + ip keys tagged", R_VLAN_IP, FS(.vlan = 7), DROP, 1, 0, 0, 1 },
	{ "vlan + ip keys untagged", R_VLAN_IP, FS(), PASS, 0, 0, 0, 0 },
	{ "vlan + ip keys other port", R_VLAN_IP, FS(.vlan = 7, .dport = 10), PASS, 0, 0, 0, 0 },
	{ "tagged ip src /24", R_SRC24, FS(.vlan = 9, .src = IP4(10, 1, 2, 3)), DROP, 1, 0, 0, 1 },
	{ "qinq: outer vid, not ip", R_QINQ, FS(.vlan = 5, .inner_tpid = RTE_ETHER_TYPE_VLAN), DROP, 1, 0, 0, 1 },
	{ "qinq: inner ip not parsed", R_QINQ, FS(.vlan = 6, .inner_tpid = RTE_ETHER_TYPE_VLAN), PASS, 0, 0, 0, 0 },
	{ "s-tag 88a8 is no vlan", R_QINQ, FS(.vlan = 5, .tpid = RTE_ETHER_TYPE_QINQ), PASS, 0, 0, 0, 0 },
	{ "tagged runt (tag cut)", R_VLAN_NONE, FS(.vlan = 5, .len = 16), DROP, 1, 0, 0, 1 },
	/* dscp */
	{ "dscp 46", R_DSCP, FS(.tos = 46 << 2), DROP, 1, 0, 0, 1 },
	{ "dscp 46 + ecn", R_DSCP, FS(.tos = 46 << 2 | 3), DROP, 1, 0, 0, 1 },
	{ "dscp 0", R_DSCP, FS(), PASS, 0, 0, 0, 0 },
	{ "dscp 47", R_DSCP, FS(.tos = 47 << 2), PASS, 0, 0, 0, 0 },
	/* count continues */
	{ "count then drop", R_COUNT, FS(), DROP, 1, 0, 0, 2 },
	{ "count then default", R_COUNT, FS(.dport = 10), PASS, 1, 0, 0, 0 },
	{ "count misses, drop hits", R_COUNT, FS(.proto = IPPROTO_TCP), DROP, 1, 0, 0, 2 },
	{ "nothing", R_COUNT, FS(.proto = IPPROTO_TCP, .dport = 10), PASS, 0, 0, 0, 0 },
	{ "count only", "proto udp action count\n", FS(), PASS, 1, 0, 0, 0 },
	{ "count after the decision", "prio 1 proto udp action mark 4\nprio 2 action count\n", FS(), PASS, 1, 1, 4, 1 },
	/* default action */
	{ "default drop, pass rule", R_DEFDROP, FS(), PASS, 1, 0, 0, 2 },
	{ "default drop applies", R_DEFDROP, FS(.proto = IPPROTO_TCP), DROP, 0, 0, 0, 0 },
	{ "default drop non-ip", R_DEFDROP, FS(.etype = RTE_ETHER_TYPE_ARP), DROP, 0, 0, 0, 0 },
	{ "no rule at all", "", FS(), PASS, 0, 0, 0, 0 },
	{ "only default drop", "default drop\n", FS(), DROP, 0, 0, 0, 0 },
	/* actions */
	{ "mark max", "proto udp action mark 4294967295\n", FS(), PASS, 1, 1, UINT32_MAX, 1 },
	{ "mark 0", "action mark 0\n", FS(), PASS, 1, 1, 0, 1 },
	{ "pass", "action pass\ndefault drop\n", FS(), PASS, 1, 0, 0, 1 },
	/* non-IP, truncated, fragments, options */
	{ "match-all arp", R_ALL, FS(.etype = RTE_ETHER_TYPE_ARP), DROP, 1, 0, 0, 1 },
	{ "match-all runt", R_ALL, FS(.len = 10), DROP, 1, 0, 0, 1 },
	{ "match-all empty", R_ALL, FS(.len = 0 + 1), DROP, 1, 0, 0, 1 },
	{ "ip header cut", R_UDP, FS(.len = 14 + 19), PASS, 0, 0, 0, 0 },
	{ "ip header complete, no l4", R_UDP, FS(.len = 14 + 20), DROP, 1, 0, 0, 1 },
	{ "ports cut", R_DPORT9, FS(.len = 14 + 20 + 3), PASS, 0, 0, 0, 0 },
	{ "ports complete", R_DPORT9, FS(.len = 14 + 20 + 4), DROP, 1, 0, 0, 1 },
	{ "tagged ports complete", R_DPORT9, FS(.vlan = 1, .len = 18 + 20 + 4), DROP, 1, 0, 0, 1 },
	{ "tagged ports cut", R_DPORT9, FS(.vlan = 1, .len = 18 + 20 + 3), PASS, 0, 0, 0, 0 },
	{ "options: ports after them", R_PORTS_OPT, FS(.ihl = 6), DROP, 1, 0, 0, 1 },
	{ "options max", R_PORTS_OPT, FS(.ihl = 15), DROP, 1, 0, 0, 1 },
	{ "options cut", R_UDP, FS(.ihl = 15, .len = 14 + 59), PASS, 0, 0, 0, 0 },
	{ "unfragmented", R_FRAG, FS(), DROP, 1, 0, 0, 1 },
	{ "DF is no fragment", R_FRAG, FS(.frag = 0x4000), DROP, 1, 0, 0, 1 },
	{ "first fragment: no ports", R_FRAG, FS(.frag = 0x2000), PASS, 1, 1, 3, 2 },
	{ "later fragment: no ports", R_FRAG, FS(.frag = 100), PASS, 1, 1, 3, 2 },
	{ "ports without proto: tcp", R_DPORT9, FS(.proto = IPPROTO_TCP), DROP, 1, 0, 0, 1 },
	{ "ports without proto: sctp", R_DPORT9, FS(.proto = 132), PASS, 0, 0, 0, 0 },
	/* protocols */
	{ "proto icmp", "proto icmp action drop\n", FS(.proto = IPPROTO_ICMP), DROP, 1, 0, 0, 1 },
	{ "proto 47", "proto 47 action drop\n", FS(.proto = 47), DROP, 1, 0, 0, 1 },
	{ "proto 47 vs udp", "proto 47 action drop\n", FS(), PASS, 0, 0, 0, 0 },
	{ "proto 0", "proto 0 action drop\n", FS(.proto = 0), DROP, 1, 0, 0, 1 },
	{ "proto 0 arp", "proto 0 action drop\n", FS(.etype = RTE_ETHER_TYPE_ARP), PASS, 0, 0, 0, 0 },
	{ "proto 17 + ports", "proto 17 dport 9 action drop\n", FS(), DROP, 1, 0, 0, 1 },
	/* the example, with comments and blank lines */
	{ "example: all keys", R_MIX, FS(.vlan = 100, .proto = IPPROTO_TCP, .src = IP4(10, 9, 9, 9),
	  .dst = IP4(192, 168, 1, 7), .sport = 1024, .dport = 53), DROP, 1, 0, 0, 3 },
	{ "example: sport 1025", R_MIX, FS(.vlan = 100, .proto = IPPROTO_TCP, .src = IP4(10, 9, 9, 9),
	  .dst = IP4(192, 168, 1, 7), .sport = 1025, .dport = 53), PASS, 1, 1, 53, 4 },
	{ "example: untagged", R_MIX, FS(.proto = IPPROTO_TCP, .src = IP4(10, 9, 9, 9),
	  .dst = IP4(192, 168, 1, 7), .sport = 1, .dport = 53), PASS, 1, 1, 53, 4 },
};

static void
check_result(const char *what, const char *name, const struct ingress_result *r,
	     const struct mcase *c)
{
	if (r->action != c->action || r->matched != c->matched ||
	    r->marked != c->marked || r->mark != c->mark || r->rule != c->rule) {
		print_error("%s '%s': got action %u matched %u marked %u mark %u rule %u, "
			    "want %u %u %u %u %u\n", what, name, r->action, r->matched,
			    r->marked, r->mark, r->rule, c->action, c->matched,
			    c->marked, c->mark, c->rule);
		fail();
	}
}

static void
test_match_table(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(mcases); i++) {
		const struct mcase *c = &mcases[i];
		static const char *const vname[INGRESS_RULES_VIEW_MAX] = {
			"acl", "small", "reference" };
		struct ingress_classifier *cl = must_parse(c->rules);
		struct rte_mbuf *m = frame(&c->f);
		struct rte_mbuf *three[3] = { m, m, m };
		unsigned int v;

		/* the default lookup, then each one explicitly */
		{
			struct ingress_result r;

			memset(&r, 0xee, sizeof(r));
			ingress_classify_burst(cl, &m, 1, &r);
			check_result("default", c->name, &r, c);
		}
		for (v = 0; v < INGRESS_RULES_VIEW_MAX; v++) {
			struct ingress_classifier *view = ingress_rules_view(cl, v);
			struct ingress_result r, rb[3];

			assert_non_null(view);
			memset(&r, 0xee, sizeof(r));
			ingress_classify_burst(view, &m, 1, &r);
			check_result(vname[v], c->name, &r, c);
			memset(rb, 0xee, sizeof(rb));
			ingress_classify_burst(view, three, 3, rb);	/* in a burst */
			check_result(vname[v], c->name, &rb[2], c);
			ingress_classifier_free(view);
		}
		rte_pktmbuf_free(m);
		ingress_classifier_free(cl);
	}
}

/* A multi-segment frame: headers split across two segments. */
static void
test_match_multiseg(void **state)
{
	struct ingress_classifier *cl = must_parse(R_VLAN_IP);
	struct rte_mbuf *m = frame(&F(.vlan = 7)), *m2 = rte_pktmbuf_alloc(pool);
	struct ingress_result r;
	uint16_t cut = 18 + 21;		/* inside the IP header */

	(void)state;
	assert_non_null(m2);
	memcpy(rte_pktmbuf_mtod(m2, uint8_t *),
	       rte_pktmbuf_mtod_offset(m, uint8_t *, cut), m->data_len - cut);
	m2->data_len = (uint16_t)(m->data_len - cut);
	m->data_len = cut;
	assert_int_equal(rte_pktmbuf_chain(m, m2), 0);
	ingress_classify_burst(cl, &m, 1, &r);
	assert_int_equal(r.action, DROP);
	assert_int_equal(r.rule, 1);
	rte_pktmbuf_free(m);
	ingress_classifier_free(cl);
}

/* ------------------------------------------------------------------ */
/* parse_errors                                                        */
/* ------------------------------------------------------------------ */

static const struct {
	const char *text;
	const char *err;
	int rc;
} ecases[] = {
	{ "prio 1 sprt 5 action drop\n", "t.rules:1: unknown keyword 'sprt'", -EINVAL },
	{ "\n\n# comment\nsrc 10.0.0.0/33 action drop\n",
	  "t.rules:4: src: '10.0.0.0/33' is not an address A.B.C.D[/LEN]: length '33' is out of range 0..32",
	  -EINVAL },
	{ "action pass\nsrc 10.0.0.1/8 action drop\n",
	  "t.rules:2: src: '10.0.0.1/8' has host bits set (did you mean 10.0.0.0/8?)",
	  -EINVAL },
	{ "dst 10.0.0 action drop",
	  "t.rules:1: dst: '10.0.0' is not an address A.B.C.D[/LEN]", -EINVAL },
	{ "dst 10.0.0.0/ action drop",
	  "t.rules:1: dst: '10.0.0.0/' is not an address A.B.C.D[/LEN]: length '' is not a number",
	  -EINVAL },
	{ "dst 300.0.0.0/8 action drop",
	  "t.rules:1: dst: '300.0.0.0/8' is not an address A.B.C.D[/LEN]", -EINVAL },
	{ "dport 200-100 action drop", "t.rules:1: dport: '200-100': range is reversed",
	  -EINVAL },
	{ "sport 7-6 action drop", "t.rules:1: sport: '7-6': range is reversed",
	  -EINVAL },
	{ "dport 9 dport 10 action drop", "t.rules:1: duplicate key 'dport'", -EINVAL },
	{ "action drop action pass", "t.rules:1: duplicate key 'action'", -EINVAL },
	{ "\nproto udp dport 9\n", "t.rules:2: missing action", -EINVAL },
	{ "prio 5\n", "t.rules:1: missing action", -EINVAL },
	{ "dport 70000 action drop",
	  "t.rules:1: dport: '70000' is not a port or range P-Q (decimal, 0..65535)",
	  -EINVAL },
	{ "dport 1-70000 action drop",
	  "t.rules:1: dport: '1-70000' is not a port or range P-Q (decimal, 0..65535)",
	  -EINVAL },
	{ "dport -5 action drop",
	  "t.rules:1: dport: '-5' is not a port or range P-Q (decimal, 0..65535)",
	  -EINVAL },
	{ "dport 1-2-3 action drop",
	  "t.rules:1: dport: '1-2-3' is not a port or range P-Q (decimal, 0..65535)",
	  -EINVAL },
	{ "dport 0x10 action drop",
	  "t.rules:1: dport: '0x10' is not a port or range P-Q (decimal, 0..65535)",
	  -EINVAL },
	{ "vlan 4096 action drop", "t.rules:1: vlan: '4096' is out of range 0..4095",
	  -EINVAL },
	{ "vlan any action drop",
	  "t.rules:1: vlan: 'any' is not a VLAN ID 0..4095 or none", -EINVAL },
	{ "dscp 64 action drop", "t.rules:1: dscp: '64' is out of range 0..63", -EINVAL },
	{ "prio 65536 action drop", "t.rules:1: prio: '65536' is out of range 0..65535",
	  -EINVAL },
	{ "prio 99999999999999999999999 action drop",
	  "t.rules:1: prio: '99999999999999999999999' is out of range 0..65535",
	  -EINVAL },
	{ "proto 256 action drop", "t.rules:1: proto: '256' is out of range 0..255",
	  -EINVAL },
	{ "action mark", "t.rules:1: 'action mark' needs a value", -EINVAL },
	{ "action mark 4294967296",
	  "t.rules:1: mark: '4294967296' is out of range 0..4294967295", -EINVAL },
	/* numbers are pkt_parse_u64()'s everywhere: decimal, hexadecimal refused */
	{ "prio 0x10 action drop",
	  "t.rules:1: prio: '0x10' is not a decimal number (hexadecimal is not accepted)",
	  -EINVAL },
	{ "dscp +5 action drop", "t.rules:1: dscp: '+5' is not a number", -EINVAL },
	{ "vlan 0x10 action drop",
	  "t.rules:1: vlan: '0x10' is not a decimal number (hexadecimal is not accepted)",
	  -EINVAL },
	{ "proto 0x6 action drop",
	  "t.rules:1: proto: '0x6' is not a decimal number (hexadecimal is not accepted)",
	  -EINVAL },
	{ "proto 6a action drop", "t.rules:1: proto: '6a' is not a number", -EINVAL },
	{ "action mark -1", "t.rules:1: mark: '-1' is not a number", -EINVAL },
	{ "dst 10.0.0.0/0x8 action drop",
	  "t.rules:1: dst: '10.0.0.0/0x8' is not an address A.B.C.D[/LEN]: length '0x8' is not a "
	  "decimal number (hexadecimal is not accepted)",
	  -EINVAL },
	{ "dst 010.0.0.0/8 action drop",
	  "t.rules:1: dst: '010.0.0.0/8' is not an address A.B.C.D[/LEN]", -EINVAL },
	{ "action reject",
	  "t.rules:1: unknown action 'reject' (expected pass, drop, mark N or count)",
	  -EINVAL },
	{ "proto icmp dport 9 action drop",
	  "t.rules:1: sport/dport need proto udp or tcp (or no proto), not 1", -EINVAL },
	{ "default pass\naction drop\ndefault drop\n",
	  "t.rules:3: duplicate 'default' (first at line 1)", -EINVAL },
	{ "default maybe", "t.rules:1: 'default' takes exactly one of pass, drop",
	  -EINVAL },
	{ "default", "t.rules:1: 'default' takes exactly one of pass, drop", -EINVAL },
	{ "default mark 3", "t.rules:1: 'default' takes exactly one of pass, drop",
	  -EINVAL },
	{ "action drop default pass", "t.rules:1: 'default' must be alone on its line",
	  -EINVAL },
	{ "src", "t.rules:1: 'src' needs a value", -EINVAL },
	{ "action drop\r\nbogus\r\n", "t.rules:2: unknown keyword 'bogus'", -EINVAL },
	{ "action drop # fine\n  # fine\n\tproto udp action pass extra\n",
	  "t.rules:3: unknown keyword 'extra'", -EINVAL },
	{ "ACTION drop", "t.rules:1: unknown keyword 'ACTION'", -EINVAL },
};

static void
test_parse_errors(void **state)
{
	struct ingress_classifier *sentinel = (struct ingress_classifier *)(uintptr_t)0x1;
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(ecases); i++) {
		struct ingress_classifier *c = sentinel;
		char err[256];
		int rc = ingress_rules_parse_string(ecases[i].text, "t.rules", &c,
						    err, sizeof(err));

		if (rc != ecases[i].rc || strcmp(err, ecases[i].err) != 0) {
			print_error("case %u: rc %d err \"%s\"\n          want %d \"%s\"\n",
				    i, rc, err, ecases[i].rc, ecases[i].err);
			fail();
		}
		assert_ptr_equal(c, sentinel);	/* untouched */
	}
}

static void
test_parse_file(void **state)
{
	struct ingress_classifier *c = NULL;
	char err[512], path[PATH_MAX + 64], tmpl[] = "/tmp/test_ingress_XXXXXX";
	int fd, rc;
	FILE *f;

	(void)state;
	rc = ingress_rules_parse_file("/nonexistent/x.rules", &c, err, sizeof(err));
	assert_int_equal(rc, -ENOENT);
	assert_string_equal(err, "/nonexistent/x.rules: cannot open: No such file or directory");
	assert_null(c);
	rc = ingress_rules_parse_file("/tmp", &c, err, sizeof(err));
	assert_int_equal(rc, -EISDIR);
	fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("# a file\ndefault drop\nprio 1 proto udp action pass\n\nprio 2 proto udp dport 5-4 action drop\n", f);
	fclose(f);
	rc = ingress_rules_parse_file(tmpl, &c, err, sizeof(err));
	assert_int_equal(rc, -EINVAL);
	snprintf(path, sizeof(path), "%s:5: dport: '5-4': range is reversed", tmpl);
	assert_string_equal(err, path);
	assert_null(c);
	/* errlen 0 / NULL err must not crash */
	assert_int_equal(ingress_rules_parse_file(tmpl, &c, NULL, 0), -EINVAL);
	unlink(tmpl);
}

/* A rules file's words and its name, each holding every control and high
 * byte, in every place a reason echoes them: one line, no raw byte. */
static void
test_parse_quoting(void **state)
{
	static const char *const tmpl[] = {
		"prio 1 dport 1%c2 action drop",	/* pkt_parse_port_range */
		"src 10.0.0.0/8%c action drop",	/* pkt_parse_prefix */
		"prio 1%c action drop",		/* pkt_parse_u64 */
		"pr%cio 1 action drop",		/* unknown keyword */
		"action dr%cop",		/* unknown action */
		"proto u%cdp action drop",	/* parse_num_or */
		"vlan n%cne action drop",
		"action drop",			/* the name alone */
	};
	char text[64], name[32], path[64], err[512];
	const char *bad;
	unsigned int k, i;

	(void)state;
	for (k = 0; k < TEST_ONELINE_BYTES; k++) {
		unsigned int b = test_oneline_byte(k);
		struct ingress_classifier *c = NULL;

		snprintf(name, sizeof(name), "t%c.rules", (char)b);
		for (i = 0; i < RTE_DIM(tmpl); i++) {
			snprintf(text, sizeof(text), tmpl[i], (char)b);
			/* the last one: a line that parses after the name */
			if (i + 1 == RTE_DIM(tmpl))
				snprintf(text, sizeof(text), "bogus%c", (char)b);
			err[0] = '\0';
			if (ingress_rules_parse_string(text, name, &c, err,
						       sizeof(err)) == 0) {
				ingress_classifier_free(c);
				continue;	/* a separator: still a rule */
			}
			if ((bad = test_oneline_bad(err)) != NULL)
				fail_msg("\"%s\" byte 0x%02x: %s in \"%s\"", tmpl[i], b,
					 bad, err);
		}
		snprintf(path, sizeof(path), "/nonexistent/x%c.rules", (char)b);
		assert_int_not_equal(ingress_rules_parse_file(path, &c, err,
							      sizeof(err)), 0);
		if ((bad = test_oneline_bad(err)) != NULL)
			fail_msg("file name byte 0x%02x: %s in \"%s\"", b, bad, err);
	}
	{
		struct ingress_classifier *c = NULL;

		assert_int_equal(ingress_rules_parse_string("action dr\x1bop\n", "a\nb",
							    &c, err, sizeof(err)), -EINVAL);
	}
	assert_string_equal(err, "a\\nb:1: unknown action 'dr\\x1bop' (expected pass, "
			    "drop, mark N or count)");
}

/* ------------------------------------------------------------------ */
/* shipped_rules                                                       */
/* ------------------------------------------------------------------ */

static void
test_shipped_rules(void **state)
{
	static const struct {
		const char *file;
		int n_rules;
		uint8_t action, matched, marked;
		uint32_t mark;
	} shipped[] = {
		{ "config/rules/match-all.rules", 1, PASS, 1, 0, 0 },
		{ "config/rules/drop-udp-9.rules", 1, DROP, 1, 0, 0 },
		{ "config/rules/mark-udp-9.rules", 1, PASS, 1, 1, 9 },
		{ "config/rules/acl-100.rules", 100, PASS, 1, 0, 0 },
		{ "config/rules/acl-10000.rules", 10000, PASS, 1, 0, 0 },
	};
	struct pkt_templates *t = gen_templates();
	struct rte_mbuf *pkts[64];
	struct ingress_result res[64], lin;
	unsigned int i, j;

	(void)state;
	for (j = 0; j < 64; j++)
		pkts[j] = from_template(t, j);
	for (i = 0; i < RTE_DIM(shipped); i++) {
		struct ingress_classifier *c = must_parse_file(shipped[i].file);
		const struct ingress_ruleset *rs = __ingress_rules_of(c);

		assert_int_equal(ingress_rules_count(c), shipped[i].n_rules);
		ingress_classify_burst(c, pkts, 64, res);
		for (j = 0; j < 64; j++) {
			assert_int_equal(res[j].action, shipped[i].action);
			assert_int_equal(res[j].matched, shipped[i].matched);
			assert_int_equal(res[j].marked, shipped[i].marked);
			assert_int_equal(res[j].mark, shipped[i].mark);
			__ingress_rules_match_linear(rs, pkts[j], &lin);
			assert_int_equal(lin.rule, res[j].rule);
		}
		/* The ACLs: the traffic's rule is near the end of the list. */
		if (shipped[i].n_rules >= 100) {
			uint32_t k;

			for (k = 0; k < rs->n && rs->rules[k].line != res[0].rule; k++)
				;
			assert_true(k < rs->n);
			assert_true(k >= rs->n - 5);
		}
		ingress_classifier_free(c);
	}
	for (j = 0; j < 64; j++)
		rte_pktmbuf_free(pkts[j]);
	pkt_templates_free(t);
}

/* ------------------------------------------------------------------ */
/* acl_vs_linear                                                       */
/* ------------------------------------------------------------------ */

static uint32_t
rnd_in_prefix(uint32_t net, uint8_t len)
{
	uint32_t host = len == 32 ? 0 : (uint32_t)rte_rand() & (0xffffffffu >> len);

	return net | host;
}

static uint16_t
rnd_port(uint16_t lo, uint16_t hi)
{
	switch (rte_rand() % 4) {
	case 0: return lo;
	case 1: return hi;
	case 2: return (uint16_t)(lo + rte_rand() % ((uint32_t)hi - lo + 1));
	default: return (uint16_t)rte_rand();	/* maybe outside */
	}
}

/* A random frame: near a random rule (so rules are hit, and their edges),
 * fully random, or odd (non-IP, truncated, fragment, tagged). */
static void
random_spec(const struct ingress_ruleset *rs, struct fspec *f)
{
	unsigned int kind = (unsigned int)(rte_rand() % 10);
	static const uint8_t protos[] = { IPPROTO_UDP, IPPROTO_TCP, IPPROTO_ICMP, 47, 132 };

	*f = F(.src = (uint32_t)rte_rand(), .dst = (uint32_t)rte_rand(),
	       .sport = (uint16_t)rte_rand(), .dport = (uint16_t)rte_rand(),
	       .proto = protos[rte_rand() % RTE_DIM(protos)]);
	if (kind < 6 && rs->n) {
		const struct ingress_rule *r = &rs->rules[rte_rand() % rs->n];

		if (r->keys & RULE_K_PROTO)
			f->proto = r->proto;
		else if (r->keys & RULE_K_PORTS)
			f->proto = rte_rand() & 1 ? IPPROTO_UDP : IPPROTO_TCP;
		if (r->keys & RULE_K_SRC)
			f->src = rnd_in_prefix(r->src, r->src_len);
		if (r->keys & RULE_K_DST)
			f->dst = rnd_in_prefix(r->dst, r->dst_len);
		if (r->keys & RULE_K_SPORT)
			f->sport = rnd_port(r->sport_lo, r->sport_hi);
		if (r->keys & RULE_K_DPORT)
			f->dport = rnd_port(r->dport_lo, r->dport_hi);
		if ((r->keys & RULE_K_VLAN) && r->vlan != RULE_VLAN_NONE)
			f->vlan = r->vlan;
		if (r->keys & RULE_K_DSCP)
			f->tos = (uint8_t)(r->dscp << 2);
		if (rte_rand() % 8 == 0)	/* perturb one bit somewhere */
			f->src ^= 1u << (rte_rand() % 32);
	} else if (kind == 6) {
		/* the generator's traffic */
		f->proto = IPPROTO_UDP;
		f->src = IP4(198, 18, 0, 1 + rte_rand() % 254);
		f->dst = IP4(198, 19, 0, 1);
		f->sport = (uint16_t)(1024 + rte_rand() % 64512);
		f->dport = 9;
	}
	if (kind == 7) {
		switch (rte_rand() % 6) {
		case 0: f->etype = RTE_ETHER_TYPE_ARP; break;
		case 1: f->len = (int)(1 + rte_rand() % 60); break;
		case 2: f->frag = (uint16_t)(rte_rand() & 0x3fff); break;
		case 3: f->ihl = (uint8_t)(rte_rand() % 16); break;
		case 4: f->etype = RTE_ETHER_TYPE_IPV6; break;
		default: f->version = (uint8_t)(rte_rand() % 16); break;
		}
	}
	if (rte_rand() % 10 == 0 && f->vlan < 0)
		f->vlan = (int)(rte_rand() % 4096);
	if (rte_rand() % 16 == 0)
		f->tos = (uint8_t)rte_rand();
}

static void
acl_vs_linear(const char *file, unsigned int n_pkts, enum ingress_rules_view v)
{
	struct ingress_classifier *parsed = must_parse_file(file);
	struct ingress_classifier *c = ingress_rules_view(parsed, v);
	const struct ingress_ruleset *rs = __ingress_rules_of(c);
	struct rte_mbuf *pkts[32];
	struct ingress_result res[32], lin;
	unsigned int i, j, hits = 0, drops = 0, non_default = 0, bad = 0;

	rte_srand(12345);
	for (j = 0; j < 32; j++) {
		pkts[j] = rte_pktmbuf_alloc(pool);
		assert_non_null(pkts[j]);
	}
	for (i = 0; i < n_pkts; i += 32) {
		for (j = 0; j < 32; j++) {
			struct fspec f;

			random_spec(rs, &f);
			frame_fill(pkts[j], &f);
		}
		ingress_classify_burst(c, pkts, 32, res);
		for (j = 0; j < 32; j++) {
			__ingress_rules_match_linear(rs, pkts[j], &lin);
			if (lin.action != res[j].action || lin.matched != res[j].matched ||
			    lin.marked != res[j].marked || lin.mark != res[j].mark ||
			    lin.rule != res[j].rule) {
				if (bad++ < 5)
					print_error("%s packet %u: acl action %u matched %u mark %u/%u rule %u; "
						    "linear %u %u %u/%u rule %u\n", file, i + j,
						    res[j].action, res[j].matched, res[j].marked,
						    res[j].mark, res[j].rule, lin.action, lin.matched,
						    lin.marked, lin.mark, lin.rule);
			}
			hits += res[j].matched;
			drops += res[j].action == DROP;
			non_default += res[j].rule != 0;
		}
	}
	print_message("  %s (%s): %u frames, %u matched, %u dropped, %u decided by a rule, %u mismatches\n",
		      file, v == INGRESS_RULES_VIEW_ACL ? "rte_acl" : "small-set matcher",
		      n_pkts, hits, drops, non_default, bad);
	assert_int_equal(bad, 0);
	/* The frames really exercise the rules. */
	assert_true(non_default > n_pkts / 4);
	assert_true(drops > n_pkts / 10);
	for (j = 0; j < 32; j++)
		rte_pktmbuf_free(pkts[j]);
	ingress_classifier_free(c);
	ingress_classifier_free(parsed);
}

static void
test_acl_vs_linear(void **state)
{
	(void)state;
	acl_vs_linear("config/rules/acl-100.rules", 100000, INGRESS_RULES_VIEW_ACL);
	acl_vs_linear("config/rules/acl-10000.rules", 100000, INGRESS_RULES_VIEW_ACL);
	/* the small-set matcher too, on a rich set (it is the default only
	 * up to RULES_SMALL_MAX rules) */
	acl_vs_linear("config/rules/acl-100.rules", 100000, INGRESS_RULES_VIEW_SMALL);
}

/* ------------------------------------------------------------------ */
/* clone_refcount                                                      */
/* ------------------------------------------------------------------ */

static int fake_frees;

static void
fake_classify(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
	      struct ingress_result *res)
{
	uint16_t i;

	(void)pkts;
	for (i = 0; i < n; i++) {
		memset(&res[i], 0, sizeof(res[i]));
		res[i].action = *(const uint8_t *)ctx;
	}
}

static void
fake_free(void *ctx)
{
	fake_frees++;
	__ingress_poison(ctx, 1);
	free(ctx);
}

static const struct ingress_classifier_ops fake_ops = {
	.kind = "fake", .classify_burst = fake_classify, .free = fake_free,
};

static void
test_clone_refcount(void **state)
{
	uint8_t *ctx = malloc(1);
	struct ingress_classifier *a, *b, *c;
	struct ingress_result r;
	struct rte_mbuf *m = frame(&F());

	(void)state;
	*ctx = DROP;
	fake_frees = 0;
	a = ingress_classifier_create(&fake_ops, ctx, "fake one");
	assert_non_null(a);
	assert_string_equal(ingress_classifier_kind(a), "fake");
	assert_string_equal(ingress_classifier_desc(a), "fake one");
	b = ingress_classifier_clone(a);
	c = ingress_classifier_clone(b);
	assert_non_null(b);
	assert_non_null(c);
	assert_true(a->id != b->id && b->id != c->id);
	assert_ptr_equal(a->ctx, c->ctx);
	ingress_classifier_free(a);
	ingress_classifier_free(c);
	assert_int_equal(fake_frees, 0);
	ingress_classify_burst(b, &m, 1, &r);
	assert_int_equal(r.action, DROP);
	assert_string_equal(ingress_classifier_desc(b), "fake one");
	ingress_classifier_free(b);
	assert_int_equal(fake_frees, 1);
	ingress_classifier_free(NULL);
	assert_null(ingress_classifier_create(NULL, NULL, "x"));
	assert_int_equal(rte_errno, EINVAL);
	assert_null(ingress_classifier_clone(NULL));
	rte_pktmbuf_free(m);
}

/* ------------------------------------------------------------------ */

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match_table),
		cmocka_unit_test(test_match_multiseg),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_file),
		cmocka_unit_test(test_parse_quoting),
		cmocka_unit_test(test_shipped_rules),
		cmocka_unit_test(test_acl_vs_linear),
		cmocka_unit_test(test_clone_refcount),
	};

	return cmocka_run_group_tests(tests, ingress_test_setup,
				      ingress_test_teardown);
}
