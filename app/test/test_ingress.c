/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/ingress unit tests (cmocka, EAL without hugepages, lcores 0-1).
 *
 *  - names: mode and scope names round trip
 *  - match_table: one rule set + one frame + the expected verdict per row,
 *    for every key and edge; every row also checked against the linear
 *    reference
 *  - parse_errors: exact "FILE:LINE: reason" messages; *out untouched
 *  - shipped_rules: config/rules/ parse, with their documented effect on
 *    the generator's traffic
 *  - acl_vs_linear: acl-100 and acl-10000 against the naive linear matcher
 *    on 100,000 random frames each
 *  - clone_refcount: kind data freed once, after the last clone
 *  - hook_single: every mode and scope on the main lcore: verdicts, marks,
 *    counters, refusals (-EPERM, -EINVAL, -ENOENT)
 *  - writer_vs_stopped_worker: a writer completes while a registered worker
 *    is stopped, or running in lock mode; QSBR state checked directly
 *  - concurrency: a worker on lcore 1 classifies bursts in a loop (pausing
 *    now and then) while the main lcore replaces rulesets thousands of times
 *    and flips mode and scope across all five modes, then the same with the
 *    updater thread: conservation, no burst classified by two rulesets
 *    (except where documented), exact counters.
 *
 * INGRESS_BENCH=1 adds a measurement (ns/pkt of classification for 1, 100
 * and 10,000 rules, rte_acl vs linear, and the hook's modes on one lcore);
 * it asserts nothing.
 *
 * No test depends on timing: waits are for progress (a burst counter, a
 * stage flag), never for a duration. A watchdog turns a writer blocked
 * forever into a failure instead of a hang.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_random.h>
#include <rte_spinlock.h>

#include "ingress.h"
#include "ingress_pvt.h"
#include "mib.h"
#include "pkt.h"

/* Designated-initializer defaults overridden per row (F() below). */
#pragma GCC diagnostic ignored "-Woverride-init"

/* RTE_IPV4 shifts a signed int by 24 (undefined for a >= 128): cast first. */
#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static struct rte_mempool *pool;
static char srcdir[2 * PATH_MAX + 16];

/* ------------------------------------------------------------------ */
/* Frames                                                              */
/* ------------------------------------------------------------------ */

struct fspec {
	int vlan;		/* -1: untagged; else VID */
	uint8_t pcp;
	uint16_t tpid;		/* outer tag's TPID when vlan >= 0 */
	uint16_t etype;		/* (inner) ethertype */
	uint16_t inner_tpid;	/* if set: a second tag with this ethertype
				   after the first one (QinQ-like) */
	uint8_t version;	/* IP version nibble */
	uint8_t ihl;		/* 32-bit words */
	uint8_t proto;
	uint32_t src, dst;
	uint16_t sport, dport;
	uint8_t tos;
	uint16_t frag;		/* host-order flags+offset field */
	int len;		/* > 0: truncate the frame to len bytes */
};

#define FS(...) { .vlan = -1, .tpid = RTE_ETHER_TYPE_VLAN, \
	.etype = RTE_ETHER_TYPE_IPV4, .version = 4, .ihl = 5, \
	.proto = IPPROTO_UDP, .src = IP4(198, 18, 0, 1), \
	.dst = IP4(198, 19, 0, 1), .sport = 1024, .dport = 9, __VA_ARGS__ }
#define F(...) ((struct fspec)FS(__VA_ARGS__))

/* Write the frame into m (reset). Returns m. */
static struct rte_mbuf *
frame_fill(struct rte_mbuf *m, const struct fspec *f)
{
	uint8_t *p;
	uint32_t off = 0, ihl = f->ihl * 4u, total;

	rte_pktmbuf_reset(m);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	memset(p, 0, 256);
	memcpy(p, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02", 12);
	off = 12;
	if (f->vlan >= 0) {
		uint16_t tci = (uint16_t)(f->pcp << 13 | (f->vlan & 0xfff));

		*(uint16_t *)(p + off) = rte_cpu_to_be_16(f->tpid);
		*(uint16_t *)(p + off + 2) = rte_cpu_to_be_16(tci);
		off += 4;
		if (f->inner_tpid) {
			*(uint16_t *)(p + off) = rte_cpu_to_be_16(f->inner_tpid);
			*(uint16_t *)(p + off + 2) = rte_cpu_to_be_16(5);
			off += 4;
		}
	}
	*(uint16_t *)(p + off) = rte_cpu_to_be_16(f->etype);
	off += 2;
	if (f->etype == RTE_ETHER_TYPE_IPV4 && !f->inner_tpid) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + off);

		ip->version_ihl = (uint8_t)(f->version << 4 | (f->ihl & 0xf));
		ip->type_of_service = f->tos;
		ip->total_length = rte_cpu_to_be_16((uint16_t)(ihl + 20));
		ip->fragment_offset = rte_cpu_to_be_16(f->frag);
		ip->time_to_live = 64;
		ip->next_proto_id = f->proto;
		ip->src_addr = rte_cpu_to_be_32(f->src);
		ip->dst_addr = rte_cpu_to_be_32(f->dst);
		if (ihl > 20)
			memset(p + off + 20, 1, ihl - 20);	/* NOPs */
		*(uint16_t *)(p + off + ihl) = rte_cpu_to_be_16(f->sport);
		*(uint16_t *)(p + off + ihl + 2) = rte_cpu_to_be_16(f->dport);
		total = off + (ihl < 20 ? 20 : ihl) + 20;
	} else {
		total = off + 46;
	}
	if (total < 60)
		total = 60;
	if (f->len > 0)
		total = (uint32_t)f->len;
	m->data_len = (uint16_t)total;
	m->pkt_len = total;
	return m;
}

static struct rte_mbuf *
frame(const struct fspec *f)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	assert_non_null(m);
	return frame_fill(m, f);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static struct ingress_classifier *
must_parse(const char *text)
{
	struct ingress_classifier *c = NULL;
	char err[256];
	int rc = ingress_rules_parse_string(text, "t.rules", &c, err, sizeof(err));

	if (rc)
		print_error("parse failed: %s\n", err);
	assert_int_equal(rc, 0);
	assert_non_null(c);
	return c;
}

static const char *
src_path(const char *rel, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", srcdir, rel);
	return buf;
}

/* Locate the source tree: $INGRESS_SRCDIR, or from __FILE__ (relative to
 * the build root, which is two levels above this executable). */
static void
find_srcdir(void)
{
	const char *env = getenv("INGRESS_SRCDIR");
	const char *suffix = "app/test/test_ingress.c";
	char file[PATH_MAX], exe[PATH_MAX];
	size_t fl;
	ssize_t n;
	int i;

	if (env) {
		snprintf(srcdir, sizeof(srcdir), "%s", env);
		return;
	}
	snprintf(file, sizeof(file), "%s", __FILE__);
	fl = strlen(file);
	if (fl >= strlen(suffix))
		file[fl - strlen(suffix)] = '\0';
	if (file[0] == '/') {
		snprintf(srcdir, sizeof(srcdir), "%s.", file);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(srcdir, sizeof(srcdir), "%s.", file);
		return;
	}
	exe[n] = '\0';
	for (i = 0; i < 3; i++) {
		char *s = strrchr(exe, '/');

		if (s)
			*s = '\0';
	}
	snprintf(srcdir, sizeof(srcdir), "%s/%s.", exe, file);
}

/* ------------------------------------------------------------------ */
/* names                                                               */
/* ------------------------------------------------------------------ */

static void
test_names(void **state)
{
	enum ingress_mode m;
	enum ingress_scope s;
	unsigned int i;

	(void)state;
	for (i = 0; i < INGRESS_MODE_MAX; i++) {
		assert_non_null(ingress_mode_name(i));
		assert_int_equal(ingress_mode_parse(ingress_mode_name(i), &m), 0);
		assert_int_equal(m, i);
	}
	assert_string_equal(ingress_mode_name(INGRESS_RWLOCK), "rwlock");
	assert_null(ingress_mode_name(INGRESS_MODE_MAX));
	m = INGRESS_LOCK;
	assert_int_equal(ingress_mode_parse("RCU", &m), -EINVAL);
	assert_int_equal(ingress_mode_parse("", &m), -EINVAL);
	assert_int_equal(ingress_mode_parse(NULL, &m), -EINVAL);
	assert_int_equal(m, INGRESS_LOCK);
	for (i = 0; i < INGRESS_SCOPE_MAX; i++) {
		assert_int_equal(ingress_scope_parse(ingress_scope_name(i), &s), 0);
		assert_int_equal(s, i);
	}
	assert_string_equal(ingress_scope_name(INGRESS_SCOPE_PACKET), "packet");
	assert_int_equal(ingress_scope_parse("bursts", &s), -EINVAL);
	assert_null(ingress_scope_name(INGRESS_SCOPE_MAX));
}

/* ------------------------------------------------------------------ */
/* match_table                                                         */
/* ------------------------------------------------------------------ */

#define PASS INGRESS_ACT_PASS
#define DROP INGRESS_ACT_DROP

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
		static const char *const vname[RULES_VIEW_MAX] = {
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
		for (v = 0; v < RULES_VIEW_MAX; v++) {
			struct ingress_classifier *view = __ingress_rules_view(cl, v);
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
	  "t.rules:4: src: '10.0.0.0/33' is not an address A.B.C.D[/LEN]: length '33' is out of range 0..32", -EINVAL },
	{ "action pass\nsrc 10.0.0.1/8 action drop\n",
	  "t.rules:2: src: '10.0.0.1/8' has host bits set (did you mean 10.0.0.0/8?)", -EINVAL },
	{ "dst 10.0.0 action drop", "t.rules:1: dst: '10.0.0' is not an address A.B.C.D[/LEN]", -EINVAL },
	{ "dst 10.0.0.0/ action drop",
	  "t.rules:1: dst: '10.0.0.0/' is not an address A.B.C.D[/LEN]: length '' is not a number", -EINVAL },
	{ "dst 300.0.0.0/8 action drop", "t.rules:1: dst: '300.0.0.0/8' is not an address A.B.C.D[/LEN]", -EINVAL },
	{ "dport 200-100 action drop", "t.rules:1: dport: '200-100': range is reversed", -EINVAL },
	{ "sport 7-6 action drop", "t.rules:1: sport: '7-6': range is reversed", -EINVAL },
	{ "dport 9 dport 10 action drop", "t.rules:1: duplicate key 'dport'", -EINVAL },
	{ "action drop action pass", "t.rules:1: duplicate key 'action'", -EINVAL },
	{ "\nproto udp dport 9\n", "t.rules:2: missing action", -EINVAL },
	{ "prio 5\n", "t.rules:1: missing action", -EINVAL },
	{ "dport 70000 action drop", "t.rules:1: dport: '70000' is not a port or range P-Q (decimal, 0..65535)", -EINVAL },
	{ "dport 1-70000 action drop", "t.rules:1: dport: '1-70000' is not a port or range P-Q (decimal, 0..65535)", -EINVAL },
	{ "dport -5 action drop", "t.rules:1: dport: '-5' is not a port or range P-Q (decimal, 0..65535)", -EINVAL },
	{ "dport 1-2-3 action drop", "t.rules:1: dport: '1-2-3' is not a port or range P-Q (decimal, 0..65535)", -EINVAL },
	{ "dport 0x10 action drop", "t.rules:1: dport: '0x10' is not a port or range P-Q (decimal, 0..65535)", -EINVAL },
	{ "vlan 4096 action drop", "t.rules:1: vlan: '4096' is out of range 0..4095", -EINVAL },
	{ "vlan any action drop", "t.rules:1: vlan: 'any' is not a VLAN ID 0..4095 or none", -EINVAL },
	{ "dscp 64 action drop", "t.rules:1: dscp: '64' is out of range 0..63", -EINVAL },
	{ "prio 65536 action drop", "t.rules:1: prio: '65536' is out of range 0..65535", -EINVAL },
	{ "prio 99999999999999999999999 action drop",
	  "t.rules:1: prio: '99999999999999999999999' is out of range 0..65535", -EINVAL },
	{ "proto 256 action drop", "t.rules:1: proto: '256' is out of range 0..255", -EINVAL },
	{ "proto foo action drop", "t.rules:1: proto: 'foo' is not udp, tcp, icmp or a number 0..255", -EINVAL },
	{ "action mark", "t.rules:1: 'action mark' needs a value", -EINVAL },
	{ "action mark 4294967296", "t.rules:1: mark: '4294967296' is out of range 0..4294967295", -EINVAL },
	/* numbers are pkt_parse_u64()'s everywhere: decimal, hexadecimal refused */
	{ "prio 0x10 action drop",
	  "t.rules:1: prio: '0x10' is not a decimal number (hexadecimal is not accepted)", -EINVAL },
	{ "dscp +5 action drop", "t.rules:1: dscp: '+5' is not a number", -EINVAL },
	{ "vlan 0x10 action drop",
	  "t.rules:1: vlan: '0x10' is not a decimal number (hexadecimal is not accepted)", -EINVAL },
	{ "proto 0x6 action drop",
	  "t.rules:1: proto: '0x6' is not a decimal number (hexadecimal is not accepted)", -EINVAL },
	{ "proto 6a action drop", "t.rules:1: proto: '6a' is not a number", -EINVAL },
	{ "action mark -1", "t.rules:1: mark: '-1' is not a number", -EINVAL },
	{ "dst 10.0.0.0/0x8 action drop",
	  "t.rules:1: dst: '10.0.0.0/0x8' is not an address A.B.C.D[/LEN]: length '0x8' is not a "
	  "decimal number (hexadecimal is not accepted)", -EINVAL },
	{ "dst 010.0.0.0/8 action drop", "t.rules:1: dst: '010.0.0.0/8' is not an address A.B.C.D[/LEN]",
	  -EINVAL },
	{ "action reject", "t.rules:1: unknown action 'reject' (expected pass, drop, mark N or count)", -EINVAL },
	{ "proto icmp dport 9 action drop",
	  "t.rules:1: sport/dport need proto udp or tcp (or no proto), not 1", -EINVAL },
	{ "default pass\naction drop\ndefault drop\n",
	  "t.rules:3: duplicate 'default' (first at line 1)", -EINVAL },
	{ "default maybe", "t.rules:1: 'default' takes exactly one of pass, drop", -EINVAL },
	{ "default", "t.rules:1: 'default' takes exactly one of pass, drop", -EINVAL },
	{ "default mark 3", "t.rules:1: 'default' takes exactly one of pass, drop", -EINVAL },
	{ "action drop default pass", "t.rules:1: 'default' must be alone on its line", -EINVAL },
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

/* ------------------------------------------------------------------ */
/* shipped_rules                                                       */
/* ------------------------------------------------------------------ */

/* The built-in generator's default frames (64 flows). */
static struct pkt_templates *
gen_templates(void)
{
	struct pkt_flow_conf fc;
	struct pkt_templates *t;

	pkt_flow_conf_default(&fc);
	t = pkt_templates_build(&fc);
	assert_non_null(t);
	return t;
}

static struct rte_mbuf *
from_template(const struct pkt_templates *t, uint32_t i)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	assert_non_null(m);
	memcpy(rte_pktmbuf_mtod(m, void *), t->data[i % t->n], t->len[i % t->n]);
	m->data_len = t->len[i % t->n];
	m->pkt_len = t->len[i % t->n];
	return m;
}

static struct ingress_classifier *
must_parse_file(const char *rel)
{
	struct ingress_classifier *c = NULL;
	char path[sizeof(srcdir) + 64], err[512];
	int rc = ingress_rules_parse_file(src_path(rel, path, sizeof(path)), &c,
					  err, sizeof(err));

	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	return c;
}

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
	struct ingress_classifier *c = __ingress_rules_view(parsed, v);
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
		      file, v == RULES_VIEW_ACL ? "rte_acl" : "small-set matcher",
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
	acl_vs_linear("config/rules/acl-100.rules", 100000, RULES_VIEW_ACL);
	acl_vs_linear("config/rules/acl-10000.rules", 100000, RULES_VIEW_ACL);
	/* the small-set matcher too, on a rich set (it is the default only
	 * up to RULES_SMALL_MAX rules) */
	acl_vs_linear("config/rules/acl-100.rules", 100000, RULES_VIEW_SMALL);
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
/* hook_single                                                         */
/* ------------------------------------------------------------------ */

static struct mib_set *
mibs_new(unsigned int n)
{
	struct mib_set *s = mib_set_create(n, MIB_LAYOUT_PERCPU, NULL);

	assert_non_null(s);
	return s;
}

#define RD(b, name) mib_read(&(b), MIB_F(INGRESS, name))

static void watchdog(int sig);

/* An updater source that records the seq of every update it is asked for. */
static const struct ingress_classifier *upd_src;
static unsigned int upd_seen[4096], upd_seen_n;

static struct ingress_classifier *
make_recorded(void *arg, unsigned int seq)
{
	(void)arg;
	if (upd_seen_n < RTE_DIM(upd_seen))
		upd_seen[upd_seen_n++] = seq;
	return ingress_classifier_clone(upd_src);
}

static void
test_hook_single(void **state)
{
	static const char *rules = "default pass\n"
		"prio 1 src 198.18.0.0/31 action drop\n"	/* .1 */
		"prio 2 src 198.18.0.2/32 action mark 77\n"	/* .2 */
		"prio 3 src 198.18.0.3/32 action count\n";	/* .3: count */
	struct mib_set *ms = mibs_new(2);
	struct mib_block w = mib_set_block(ms, 0), ctl = mib_set_block(ms, 1);
	struct ingress_classifier *c = must_parse(rules);
	struct rte_mbuf *pkts[8];
	uint8_t keep[8];
	struct ingress *ing;
	unsigned int i, mode, scope;
	uint64_t flips = 0, pk = 0;
	char desc[INGRESS_DESC_MAX];

	(void)state;
	signal(SIGALRM, watchdog);
	alarm(120);	/* the worker is this thread: a flip must not wait for it */
	for (i = 0; i < 8; i++)
		pkts[i] = frame(&F(.src = IP4(198, 18, 0, 1 + i)));

	/* creation errors */
	assert_null(ingress_create(0, INGRESS_RCU, INGRESS_SCOPE_BURST, c, ctl, SOCKET_ID_ANY));
	assert_int_equal(rte_errno, EINVAL);
	assert_null(ingress_create(1, INGRESS_RCU, INGRESS_SCOPE_BURST, NULL, ctl, SOCKET_ID_ANY));
	assert_null(ingress_create(1, INGRESS_MODE_MAX, INGRESS_SCOPE_BURST, c, ctl, SOCKET_ID_ANY));

	/* off with no classifier: can't leave off until one is installed */
	ing = ingress_create(1, INGRESS_OFF, INGRESS_SCOPE_PACKET, NULL, ctl, SOCKET_ID_ANY);
	assert_non_null(ing);
	ingress_describe(ing, desc, sizeof(desc));
	assert_string_equal(desc, "none");
	ingress_worker_start(ing, 0);
	memset(keep, 7, sizeof(keep));
	assert_int_equal(ingress_burst(ing, 0, pkts, 8, keep, &w), 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(keep[i], 1);
	assert_int_equal(RD(w, PACKETS), 0);
	assert_int_equal(ingress_set_mode(ing, INGRESS_LOCK), -ENOENT);
	assert_int_equal(ingress_get_mode(ing), INGRESS_OFF);
	assert_int_equal(ingress_replace(ing, NULL), -EINVAL);
	assert_int_equal(ingress_replace(ing, c), 0);
	assert_int_equal(ingress_replace(ing, c), -EINVAL);	/* already in */
	ingress_describe(ing, desc, sizeof(desc));
	assert_string_equal(desc, "rules t.rules: 3 rules (1 count), default pass");
	{
		struct ingress_info in;

		ingress_info(ing, &in);
		assert_string_equal(in.kind, "rules");
		assert_string_equal(in.desc, desc);
		assert_int_equal(in.rules, 3);
		assert_int_equal(in.id, c->id);
	}
	assert_int_equal(RD(ctl, RULEUPDATES), 1);
	assert_int_equal(RD(ctl, GRACEPERIODS), 1);

	for (mode = INGRESS_NONE; mode < INGRESS_MODE_MAX; mode++) {
		for (scope = 0; scope < INGRESS_SCOPE_MAX; scope++) {
			uint64_t acq0 = RD(w, LOCKACQUIRES), q0 = RD(w, RCUQUIESCENT);

			assert_int_equal(ingress_set_scope(ing, scope), 0);
			assert_int_equal(ingress_get_scope(ing), scope);
			if (ingress_get_mode(ing) != mode)
				flips++;
			assert_int_equal(ingress_set_mode(ing, mode), 0);
			assert_int_equal(ingress_get_mode(ing), mode);
			for (i = 0; i < 8; i++) {
				pkts[i]->ol_flags = 0;
				pkts[i]->hash.fdir.hi = 0;
			}
			assert_int_equal(ingress_burst(ing, 0, pkts, 8, keep, &w), 7);
			/* the mode the burst ran in, for the Mode group */
			assert_int_equal(ingress_worker_mode(ing, 0), mode);
			pk += 8;
			assert_int_equal(keep[0], 0);
			for (i = 1; i < 8; i++)
				assert_int_equal(keep[i], 1);
			assert_int_equal(pkts[1]->hash.fdir.hi, 77);
			assert_true((pkts[1]->ol_flags & (RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID)) ==
				    (RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID));
			assert_int_equal(pkts[2]->ol_flags, 0);
			ingress_worker_quiescent(ing, 0, &w);
			if (mode == INGRESS_LOCK || mode == INGRESS_RWLOCK)
				assert_int_equal(RD(w, LOCKACQUIRES) - acq0,
						 scope == INGRESS_SCOPE_PACKET ? 8 : 1);
			else
				assert_int_equal(RD(w, LOCKACQUIRES), acq0);
			assert_int_equal(RD(w, RCUQUIESCENT) - q0, mode == INGRESS_RCU);
		}
	}
	assert_int_equal(RD(w, PACKETS), pk);
	assert_int_equal(RD(w, PASSED), pk / 8 * 7);
	assert_int_equal(RD(w, DROPPED), pk / 8);
	assert_int_equal(RD(w, MARKED), pk / 8);
	assert_int_equal(RD(w, MATCHED), pk / 8 * 3);	/* .1 .2 .3 */
	assert_int_equal(RD(w, LOCKCONTENDED), 0);	/* alone */
	assert_int_equal(RD(ctl, MODEFLIPS), flips);

	/* bursts longer than INGRESS_BURST_MAX, and empty ones */
	{
		struct rte_mbuf *big[INGRESS_BURST_MAX + 3];
		uint8_t bk[INGRESS_BURST_MAX + 3];

		for (i = 0; i < RTE_DIM(big); i++)
			big[i] = pkts[i % 8];
		assert_int_equal(ingress_burst(ing, 0, big, RTE_DIM(big), bk, &w),
				 RTE_DIM(big) - (RTE_DIM(big) + 7) / 8);
		assert_int_equal(bk[INGRESS_BURST_MAX], 0);	/* pkts[0] */
		assert_int_equal(ingress_burst(ing, 0, big, 0, bk, &w), 0);
	}

	/* The updater over several runs: its count and its seq go on. */
	assert_int_equal(ingress_set_mode(ing, INGRESS_LOCK), 0);
	/* This thread is worker 0: it takes lock (leaving rcu, going
	 * offline) at its next burst boundary, which the updater's grace
	 * periods would otherwise wait for. */
	ingress_worker_quiescent(ing, 0, &w);
	upd_seen_n = 0;
	upd_src = ingress_classifier_clone(c);	/* ours: c goes with the first update */
	assert_non_null(upd_src);
	assert_int_equal(ingress_updater_runs(ing), 0);
	for (i = 0; i < 3; i++) {
		uint64_t u0 = ingress_updater_count(ing);

		assert_int_equal(ingress_updater_start(ing, 2000, make_recorded, NULL), 0);
		while (ingress_updater_count(ing) < u0 + 5) {
			ingress_worker_quiescent(ing, 0, &w);
			rte_delay_us_sleep(1000);
		}
		ingress_updater_stop(ing);
		assert_int_equal(ingress_updater_runs(ing), i + 1);
	}
	assert_int_equal(ingress_updater_count(ing), upd_seen_n);
	for (i = 0; i < upd_seen_n; i++)
		assert_int_equal(upd_seen[i], i);	/* 0, 1, 2... across runs */
	c = NULL;	/* freed by the hook with the first update */

	/* none refuses updates; the updater refuses none */
	assert_int_equal(ingress_set_mode(ing, INGRESS_NONE), 0);
	{
		struct ingress_classifier *n = ingress_classifier_clone(upd_src);

		assert_int_equal(ingress_replace(ing, n), -EPERM);
		ingress_classifier_free(n);
	}
	assert_int_equal(ingress_updater_start(ing, 10, (ingress_make_fn)NULL, NULL), -EINVAL);
	assert_int_equal(ingress_set_mode(ing, INGRESS_MODE_MAX), -EINVAL);
	assert_int_equal(ingress_set_scope(ing, INGRESS_SCOPE_MAX), -EINVAL);

	ingress_worker_stop(ing, 0);
	ingress_free(ing);
	ingress_classifier_free((struct ingress_classifier *)upd_src);
	alarm(0);
	for (i = 0; i < 8; i++)
		rte_pktmbuf_free(pkts[i]);
	mib_set_free(ms);
}

/* Start/stop edge cases, on the main lcore (worker 0 is this thread). */
static void
test_worker_lifecycle(void **state)
{
	struct mib_set *ms = mibs_new(2);
	struct mib_block w = mib_set_block(ms, 0);
	struct ingress_classifier *a = must_parse("action pass\n");
	struct rte_mbuf *m = frame(&F());
	struct ingress *ing;
	uint8_t keep;
	uint64_t tok;

	(void)state;
	signal(SIGALRM, watchdog);
	alarm(120);
	ing = ingress_create(1, INGRESS_RCU, INGRESS_SCOPE_BURST,
			     ingress_classifier_clone(a), mib_set_block(ms, 1),
			     SOCKET_ID_ANY);
	assert_non_null(ing);
	/* A burst without ingress_worker_start(): started implicitly, online. */
	assert_int_equal(ingress_burst(ing, 0, &m, 1, &keep, &w), 1);
	assert_int_equal(ing->w[0].cfg, __INGRESS_CFG(INGRESS_RCU, INGRESS_SCOPE_BURST));
	tok = rte_rcu_qsbr_start(ing->qsv);
	assert_int_equal(rte_rcu_qsbr_check(ing->qsv, tok, false), 0);
	ingress_worker_quiescent(ing, 0, &w);
	assert_int_equal(rte_rcu_qsbr_check(ing->qsv, tok, false), 1);
	/* Started twice, then flipped to lock by itself between bursts: the
	 * flip does not wait for the caller, and a replace by the caller
	 * (still online in rcu) reports its own quiescent state. */
	ingress_worker_start(ing, 0);
	ingress_worker_start(ing, 0);
	assert_int_equal(ingress_set_mode(ing, INGRESS_LOCK), 0);
	assert_int_equal(ingress_replace(ing, ingress_classifier_clone(a)), 0);
	assert_int_equal(ingress_burst(ing, 0, &m, 1, &keep, &w), 1);
	tok = rte_rcu_qsbr_start(ing->qsv);
	assert_int_equal(rte_rcu_qsbr_check(ing->qsv, tok, false), 1);	/* offline */
	/* Stopped, then a burst: restarts with the current cfg. */
	ingress_worker_stop(ing, 0);
	assert_int_equal(ing->w[0].cfg, __INGRESS_W_STOPPED);
	assert_int_equal(ingress_set_mode(ing, INGRESS_RCU), 0);
	assert_int_equal(ingress_burst(ing, 0, &m, 1, &keep, &w), 1);
	assert_int_equal(ing->w[0].cfg, __INGRESS_CFG(INGRESS_RCU, INGRESS_SCOPE_BURST));
	assert_int_equal(ingress_replace(ing, ingress_classifier_clone(a)), 0);
	ingress_worker_stop(ing, 0);
	alarm(0);
	assert_int_equal(RD(w, PACKETS), 3);
	ingress_free(ing);
	ingress_classifier_free(a);
	rte_pktmbuf_free(m);
	mib_set_free(ms);
}

/* ------------------------------------------------------------------ */
/* writer_vs_stopped_worker                                            */
/* ------------------------------------------------------------------ */

static void
watchdog(int sig)
{
	static const char msg[] = "test_ingress: watchdog: a writer or a flip blocked\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

struct stage_ctx {
	struct ingress *ing;
	struct mib_block mib;
	struct rte_mbuf *pkts[4];
	uint32_t stage;		/* worker -> main */
	uint32_t go;		/* main -> worker */
	uint64_t bursts;
};

/*
 * rte_eal_remote_launch()/rte_eal_wait_lcore() with explicit
 * release/acquire edges: EAL's own are inside libdpdk, which
 * ThreadSanitizer does not see.
 */
static struct {
	lcore_function_t *fn;
	void *arg;
	uint32_t go, done;
	int rc;
} launch_ctx;

static int
launch_tramp(void *unused)
{
	(void)unused;
	while (!__atomic_load_n(&launch_ctx.go, __ATOMIC_ACQUIRE))
		rte_pause();
	launch_ctx.rc = launch_ctx.fn(launch_ctx.arg);
	__atomic_store_n(&launch_ctx.done, 1, __ATOMIC_RELEASE);
	return 0;
}

static int
launch(lcore_function_t *fn, void *arg, unsigned int lcore)
{
	launch_ctx.fn = fn;
	launch_ctx.arg = arg;
	launch_ctx.done = 0;
	__atomic_store_n(&launch_ctx.go, 1, __ATOMIC_RELEASE);
	return rte_eal_remote_launch(launch_tramp, NULL, lcore);
}

static int
join(unsigned int lcore)
{
	rte_eal_wait_lcore(lcore);
	while (!__atomic_load_n(&launch_ctx.done, __ATOMIC_ACQUIRE))
		rte_pause();
	__atomic_store_n(&launch_ctx.go, 0, __ATOMIC_RELAXED);
	return launch_ctx.rc;
}

static void
wait_u32(const uint32_t *p, uint32_t v)
{
	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != v)
		rte_pause();
}

/* Worker 1: start (rcu: online), one burst, no quiescent report; wait;
 * stop. */
static int
lcore_rcu_then_stop(void *arg)
{
	struct stage_ctx *x = arg;
	uint8_t keep[4];

	ingress_worker_start(x->ing, 1);
	ingress_burst(x->ing, 1, x->pkts, 4, keep, &x->mib);
	__atomic_store_n(&x->stage, 1, __ATOMIC_RELEASE);
	wait_u32(&x->go, 1);
	ingress_worker_stop(x->ing, 1);
	__atomic_store_n(&x->stage, 2, __ATOMIC_RELEASE);
	return 0;
}

/* Worker 1 in a loop that never reports a quiescent state. */
static int
lcore_spin_no_qs(void *arg)
{
	struct stage_ctx *x = arg;
	uint8_t keep[4];

	ingress_worker_start(x->ing, 1);
	while (!__atomic_load_n(&x->go, __ATOMIC_ACQUIRE)) {
		ingress_burst(x->ing, 1, x->pkts, 4, keep, &x->mib);
		__atomic_store_n(&x->bursts, x->bursts + 1, __ATOMIC_RELEASE);
	}
	ingress_worker_stop(x->ing, 1);
	return 0;
}

static void
test_writer_vs_stopped_worker(void **state)
{
	struct mib_set *ms = mibs_new(3);
	struct ingress_classifier *a = must_parse("action pass\n");
	struct stage_ctx x;
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0), i;
	uint64_t tok, b0;

	(void)state;
	assert_true(lcore < RTE_MAX_LCORE);
	memset(&x, 0, sizeof(x));
	for (i = 0; i < 4; i++)
		x.pkts[i] = frame(&F());
	x.mib = mib_set_block(ms, 1);
	x.ing = ingress_create(2, INGRESS_RCU, INGRESS_SCOPE_BURST,
			       ingress_classifier_clone(a), mib_set_block(ms, 2),
			       SOCKET_ID_ANY);
	assert_non_null(x.ing);
	signal(SIGALRM, watchdog);
	alarm(120);

	/* 1. A registered reader online without a quiescent report holds a
	 *    grace period (checked without waiting); once stopped, it does
	 *    not, and a writer completes although worker 0 never started. */
	assert_int_equal(launch(lcore_rcu_then_stop, &x, lcore), 0);
	wait_u32(&x.stage, 1);
	tok = rte_rcu_qsbr_start(x.ing->qsv);
	assert_int_equal(rte_rcu_qsbr_check(x.ing->qsv, tok, false), 0);
	__atomic_store_n(&x.go, 1, __ATOMIC_RELEASE);
	wait_u32(&x.stage, 2);
	assert_int_equal(rte_rcu_qsbr_check(x.ing->qsv, tok, false), 1);
	assert_int_equal(join(lcore), 0);
	/* worker 1 registered and stopped, worker 0 never started: */
	assert_int_equal(ingress_replace(x.ing, ingress_classifier_clone(a)), 0);
	assert_int_equal(ingress_set_mode(x.ing, INGRESS_LOCK), 0);
	assert_int_equal(ingress_set_mode(x.ing, INGRESS_RCU), 0);
	assert_int_equal(ingress_replace(x.ing, ingress_classifier_clone(a)), 0);

	/* 2. A worker running in lock mode and never reporting a quiescent
	 *    state is offline in QSBR: writers complete while it runs. */
	assert_int_equal(ingress_set_mode(x.ing, INGRESS_LOCK), 0);
	__atomic_store_n(&x.go, 0, __ATOMIC_RELAXED);
	assert_int_equal(launch(lcore_spin_no_qs, &x, lcore), 0);
	b0 = __atomic_load_n(&x.bursts, __ATOMIC_ACQUIRE);
	while (__atomic_load_n(&x.bursts, __ATOMIC_ACQUIRE) < b0 + 10)
		rte_pause();
	for (i = 0; i < 100; i++)
		assert_int_equal(ingress_replace(x.ing, ingress_classifier_clone(a)), 0);
	assert_int_equal(ingress_set_mode(x.ing, INGRESS_RWLOCK), 0);
	for (i = 0; i < 100; i++)
		assert_int_equal(ingress_replace(x.ing, ingress_classifier_clone(a)), 0);
	/* ... and in rcu it is online: a grace period needs its report (it
	 * never makes one in this loop: check without waiting). */
	assert_int_equal(ingress_set_mode(x.ing, INGRESS_RCU), 0);
	tok = rte_rcu_qsbr_start(x.ing->qsv);
	assert_int_equal(rte_rcu_qsbr_check(x.ing->qsv, tok, false), 0);
	__atomic_store_n(&x.go, 1, __ATOMIC_RELEASE);
	assert_int_equal(join(lcore), 0);
	assert_int_equal(rte_rcu_qsbr_check(x.ing->qsv, tok, false), 1);
	assert_int_equal(ingress_replace(x.ing, ingress_classifier_clone(a)), 0);
	alarm(0);

	{
		struct mib_block cb = mib_set_block(ms, 2);

		assert_int_equal(mib_read(&cb, MIB_F(INGRESS, RULEUPDATES)), 203);
	}
	ingress_free(x.ing);
	ingress_classifier_free(a);
	for (i = 0; i < 4; i++)
		rte_pktmbuf_free(x.pkts[i]);
	mib_set_free(ms);
}

/* ------------------------------------------------------------------ */
/* concurrency                                                         */
/* ------------------------------------------------------------------ */

/*
 * Ruleset A drops sources .1-.15 and marks the others 1; B marks all 2.
 * Every packet's outcome names the ruleset that classified it:
 *   OFF: kept, no mark    A: dropped (low) or mark 1 (high)    B: mark 2
 */
#define RULES_A "default pass\nprio 1 src 198.18.0.0/28 action drop\nprio 2 proto udp action mark 1\n"
#define RULES_B "default pass\nprio 1 proto udp action mark 2\n"
#define CONC_N 32
enum { ID_OFF, ID_A, ID_B, ID_BAD };

struct conc {
	struct ingress *ing;
	struct mib_block mib;
	struct ingress_classifier *A, *B;
	struct rte_mbuf *pkts[CONC_N];
	uint32_t stop;			/* main -> worker */
	uint64_t bursts;		/* worker -> main (progress) */
	/* the worker's own tallies, read after it returned */
	uint64_t packets, dropped, marked, matched;
	uint64_t by_cfg[INGRESS_MODE_MAX][INGRESS_SCOPE_MAX];
	uint64_t mixed_allowed, mixed_bad, bad_outcome, off_bad, pauses;
};

static int
outcome(const struct rte_mbuf *m, uint8_t keep, unsigned int i)
{
	bool low = i + 1 < 16;		/* sources 198.18.0.(i+1) */
	bool flag = (m->ol_flags & RTE_MBUF_F_RX_FDIR_ID) != 0;

	if (!keep)
		return low ? ID_A : ID_BAD;
	if (!flag)
		return ID_OFF;
	if (m->hash.fdir.hi == 2)
		return ID_B;
	if (m->hash.fdir.hi == 1 && !low)
		return ID_A;
	return ID_BAD;
}

static int
conc_worker(void *arg)
{
	struct conc *x = arg;
	uint8_t keep[CONC_N];
	uint64_t b = 0;
	unsigned int i;

	ingress_worker_start(x->ing, 0);
	while (!__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE)) {
		unsigned int seen = 0, n_marked = 0;
		uint16_t kept;
		uint32_t cfg;
		enum ingress_mode mode;
		enum ingress_scope scope;

		for (i = 0; i < CONC_N; i++) {
			x->pkts[i]->ol_flags = 0;
			x->pkts[i]->hash.fdir.hi = 0;
		}
		kept = ingress_burst(x->ing, 0, x->pkts, CONC_N, keep, &x->mib);
		/* The cfg this burst ran with: only this worker writes it,
		 * at a burst boundary. */
		cfg = __atomic_load_n(&x->ing->w[0].cfg, __ATOMIC_RELAXED);
		mode = __INGRESS_CFG_MODE(cfg);
		scope = __INGRESS_CFG_SCOPE(cfg);
		x->by_cfg[mode][scope]++;
		for (i = 0; i < CONC_N; i++) {
			int id = outcome(x->pkts[i], keep[i], i);

			if (id == ID_BAD)
				x->bad_outcome++;
			seen |= 1u << id;
			n_marked += (x->pkts[i]->ol_flags & RTE_MBUF_F_RX_FDIR_ID) != 0;
		}
		if (mode == INGRESS_OFF) {
			if (seen != 1u << ID_OFF || kept != CONC_N)
				x->off_bad++;
		} else {
			if (seen & (1u << ID_OFF))
				x->off_bad++;
			if (__builtin_popcount(seen) > 1) {
				if ((mode == INGRESS_LOCK || mode == INGRESS_RWLOCK) &&
				    scope == INGRESS_SCOPE_PACKET)
					x->mixed_allowed++;
				else
					x->mixed_bad++;
			}
			x->packets += CONC_N;
			x->dropped += CONC_N - kept;
			x->marked += n_marked;
			x->matched += CONC_N;	/* every packet hits a rule */
		}
		ingress_worker_quiescent(x->ing, 0, &x->mib);
		__atomic_store_n(&x->bursts, ++b, __ATOMIC_RELEASE);
		if (b % 997 == 0) {	/* pause: offline, writers go on */
			ingress_worker_stop(x->ing, 0);
			for (i = 0; i < 500; i++)
				rte_pause();
			ingress_worker_start(x->ing, 0);
			x->pauses++;
		}
	}
	ingress_worker_stop(x->ing, 0);
	return 0;
}

/* ingress_set_mode()/set_scope() return only once the running worker has
 * taken the new cfg (it may be stopped, or restarting: it then reads it). */
static void
check_flip_taken(const struct ingress *ing)
{
	uint32_t hook = __atomic_load_n(&ing->cfg, __ATOMIC_RELAXED);
	uint32_t w = __atomic_load_n(&ing->w[0].cfg, __ATOMIC_ACQUIRE);

	assert_true(w == hook || w == __INGRESS_W_STOPPED ||
		    w == __INGRESS_W_STARTING);
}

static void
wait_bursts(struct conc *x, uint64_t n)
{
	uint64_t b0 = __atomic_load_n(&x->bursts, __ATOMIC_ACQUIRE);

	while (__atomic_load_n(&x->bursts, __ATOMIC_ACQUIRE) < b0 + n)
		rte_pause();
}

static struct ingress_classifier *
make_alternate(void *arg, unsigned int seq)
{
	struct conc *x = arg;

	return ingress_classifier_clone(seq & 1 ? x->B : x->A);
}

static void
test_concurrency(void **state)
{
	/* Every ordered pair of modes, then a seeded random walk. */
	static const uint8_t walk[] = {
		INGRESS_OFF, INGRESS_NONE, INGRESS_LOCK, INGRESS_RWLOCK, INGRESS_RCU,
		INGRESS_OFF, INGRESS_LOCK, INGRESS_RCU, INGRESS_NONE, INGRESS_RWLOCK,
		INGRESS_OFF, INGRESS_RWLOCK, INGRESS_NONE, INGRESS_RCU, INGRESS_LOCK,
		INGRESS_OFF, INGRESS_RCU, INGRESS_RWLOCK, INGRESS_LOCK, INGRESS_NONE,
		INGRESS_OFF,
	};
	struct mib_set *ms = mibs_new(2);
	struct mib_block ctl = mib_set_block(ms, 1);
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0), step, r, i;
	uint64_t replaces = 0, flips = 0, refused = 0, upd;
	enum ingress_mode cur = INGRESS_RCU, next;
	struct conc *x = calloc(1, sizeof(*x));
	uint64_t t[MIB_FIELD_MAX];

	(void)state;
	assert_non_null(x);
	x->A = must_parse(RULES_A);
	x->B = must_parse(RULES_B);
	x->mib = mib_set_block(ms, 0);
	for (i = 0; i < CONC_N; i++)
		x->pkts[i] = frame(&F(.src = IP4(198, 18, 0, 1 + i)));
	x->ing = ingress_create(1, cur, INGRESS_SCOPE_BURST,
				ingress_classifier_clone(x->A), ctl, SOCKET_ID_ANY);
	assert_non_null(x->ing);
	signal(SIGALRM, watchdog);
	alarm(250);
	assert_int_equal(launch(conc_worker, x, lcore), 0);
	wait_bursts(x, 10);

	/* Phase 1: the main lcore is the writer. */
	rte_srand(7);
	for (step = 0; step < 300; step++) {
		next = step < RTE_DIM(walk) ? walk[step] :
		       (enum ingress_mode)(rte_rand() % INGRESS_MODE_MAX);
		if (step % 3 == 0) {
			assert_int_equal(ingress_set_scope(x->ing, (step / 3) % 2), 0);
			check_flip_taken(x->ing);
		}
		assert_int_equal(ingress_set_mode(x->ing, next), 0);
		check_flip_taken(x->ing);
		flips += next != cur;
		cur = next;
		wait_bursts(x, 2);	/* the worker runs in the new mode */
		if (cur == INGRESS_NONE) {
			struct ingress_classifier *n = ingress_classifier_clone(x->B);

			assert_int_equal(ingress_replace(x->ing, n), -EPERM);
			ingress_classifier_free(n);
			refused++;
			wait_bursts(x, 20);
			continue;
		}
		for (r = 0; r < 16; r++) {
			assert_int_equal(ingress_replace(x->ing,
				make_alternate(x, (unsigned int)replaces)), 0);
			replaces++;
			if (r % 4 == 0)
				wait_bursts(x, 1);
		}
	}

	/* Phase 2: the updater thread is the writer; flips go on. */
	if (cur == INGRESS_NONE) {
		assert_int_equal(ingress_set_mode(x->ing, INGRESS_RCU), 0);
		flips++;
		cur = INGRESS_RCU;
	}
	assert_int_equal(ingress_updater_start(x->ing, 20000, make_alternate, x), 0);
	assert_int_equal(ingress_updater_start(x->ing, 20000, make_alternate, x), -EBUSY);
	for (step = 0; step < 60; step++) {
		static const uint8_t m4[] = { INGRESS_OFF, INGRESS_LOCK, INGRESS_RWLOCK, INGRESS_RCU };
		uint64_t u0 = ingress_updater_count(x->ing);

		next = m4[step % 4];
		if (step % 5 == 0)
			assert_int_equal(ingress_set_scope(x->ing, step % 2), 0);
		assert_int_equal(ingress_set_mode(x->ing, INGRESS_NONE), -EINVAL);
		assert_int_equal(ingress_set_mode(x->ing, next), 0);
		check_flip_taken(x->ing);
		flips += next != cur;
		cur = next;
		wait_bursts(x, 2);
		while (ingress_updater_count(x->ing) < u0 + 10)
			rte_pause();
	}
	ingress_updater_stop(x->ing);
	upd = ingress_updater_count(x->ing);
	ingress_updater_stop(x->ing);		/* idempotent */

	__atomic_store_n(&x->stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(join(lcore), 0);
	alarm(0);

	mib_fold(ms, MIB_FOLD_FIELD, t, NULL);
	print_message("  %" PRIu64 " bursts (%" PRIu64 " pauses), %" PRIu64 " replaces by main + %"
		      PRIu64 " by the updater, %" PRIu64 " flips, %" PRIu64 " packet-scope bursts "
		      "straddling an update, LockContended %" PRIu64 ", GracePeriodMaxUs %" PRIu64 "\n",
		      x->bursts, x->pauses, replaces, upd, flips, x->mixed_allowed,
		      t[MIB_F(INGRESS, LOCKCONTENDED)], t[MIB_F(INGRESS, GRACEPERIODMAXUS)]);
	for (i = 0; i < INGRESS_MODE_MAX; i++)
		print_message("  %-6s packet %8" PRIu64 " bursts, burst %8" PRIu64 " bursts\n",
			      ingress_mode_name(i), x->by_cfg[i][0], x->by_cfg[i][1]);

	/* every packet was classified by exactly one ruleset, every burst by
	 * one (except where documented) */
	assert_int_equal(x->bad_outcome, 0);
	assert_int_equal(x->off_bad, 0);
	assert_int_equal(x->mixed_bad, 0);
	/* all five modes ran, in both scopes */
	for (i = 0; i < INGRESS_MODE_MAX; i++) {
		assert_true(x->by_cfg[i][0] > 0);
		assert_true(x->by_cfg[i][1] > 0);
	}
	/* conservation, and exact agreement with the worker's own tally */
	assert_int_equal(t[MIB_F(INGRESS, PACKETS)],
			 t[MIB_F(INGRESS, PASSED)] + t[MIB_F(INGRESS, DROPPED)]);
	assert_int_equal(t[MIB_F(INGRESS, PACKETS)], x->packets);
	assert_int_equal(t[MIB_F(INGRESS, DROPPED)], x->dropped);
	assert_int_equal(t[MIB_F(INGRESS, MARKED)], x->marked);
	assert_int_equal(t[MIB_F(INGRESS, MATCHED)], x->matched);
	assert_true(x->dropped > 0 && x->marked > 0);
	/* the control block */
	assert_int_equal(t[MIB_F(INGRESS, RULEUPDATES)], replaces + upd);
	assert_int_equal(t[MIB_F(INGRESS, GRACEPERIODS)], replaces + upd);
	assert_int_equal(t[MIB_F(INGRESS, MODEFLIPS)], flips);
	assert_true(t[MIB_F(INGRESS, LOCKACQUIRES)] > 0);
	assert_true(t[MIB_F(INGRESS, RCUQUIESCENT)] > 0);
	assert_true(replaces >= 3000);
	assert_true(refused > 0);

	ingress_free(x->ing);
	ingress_classifier_free(x->A);
	ingress_classifier_free(x->B);
	for (i = 0; i < CONC_N; i++)
		rte_pktmbuf_free(x->pkts[i]);
	free(x);
	mib_set_free(ms);
}

/* ------------------------------------------------------------------ */
/* bench (INGRESS_BENCH=1)                                             */
/* ------------------------------------------------------------------ */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

#define BENCH_ROUNDS 7
#define BENCH_BURST 32

/* Median over rounds of cycles per packet of fn, x1000. */
typedef void (*bench_fn)(void *arg, struct rte_mbuf **pkts, uint16_t n);

static double
bench_median(bench_fn fn, void *arg, struct rte_mbuf **pkts, unsigned int n_tpl,
	     uint64_t iters)
{
	uint64_t r[BENCH_ROUNDS];
	unsigned int k;
	uint64_t it, t0;

	for (k = 0; k < BENCH_ROUNDS; k++) {
		t0 = rte_rdtsc_precise();
		for (it = 0; it < iters; it++)
			fn(arg, pkts + (it % (n_tpl / BENCH_BURST)) * BENCH_BURST,
			   BENCH_BURST);
		r[k] = rte_rdtsc_precise() - t0;
	}
	qsort(r, BENCH_ROUNDS, sizeof(r[0]), cmp_u64);
	return (double)r[BENCH_ROUNDS / 2] / (double)(iters * BENCH_BURST);
}

static void
b_classify(void *arg, struct rte_mbuf **pkts, uint16_t n)
{
	struct ingress_result res[BENCH_BURST];

	ingress_classify_burst(arg, pkts, n, res);
	__asm__ volatile("" : : "r"(res) : "memory");
}

static void
b_classify_one(void *arg, struct rte_mbuf **pkts, uint16_t n)
{
	struct ingress_result res[BENCH_BURST];
	uint16_t i;

	for (i = 0; i < n; i++)
		ingress_classify_burst(arg, &pkts[i], 1, &res[i]);
	__asm__ volatile("" : : "r"(res) : "memory");
}

struct b_hook {
	struct ingress *ing;
	unsigned int wid;
	struct mib_block mib;
};

static void
b_hook(void *arg, struct rte_mbuf **pkts, uint16_t n)
{
	struct b_hook *h = arg;
	uint8_t keep[BENCH_BURST];

	ingress_burst(h->ing, h->wid, pkts, n, keep, &h->mib);
	ingress_worker_quiescent(h->ing, h->wid, &h->mib);
	__asm__ volatile("" : : "r"(keep) : "memory");
}

/* One worker of the hook benchmark. */
struct bh_worker {
	struct ingress *ing;
	unsigned int wid;
	struct mib_block mib;
	struct rte_mbuf *pkts[64];
	uint64_t iters;
	uint32_t *start;	/* both workers begin together */
	uint64_t cycles;
};

static int
bh_run(void *arg)
{
	struct bh_worker *w = arg;
	struct b_hook h = { .ing = w->ing, .wid = w->wid, .mib = w->mib };
	uint64_t it, t0;

	ingress_worker_start(w->ing, w->wid);
	__atomic_fetch_add(w->start, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(w->start, __ATOMIC_ACQUIRE) < 2)
		rte_pause();
	t0 = rte_rdtsc_precise();
	for (it = 0; it < w->iters; it++)
		b_hook(&h, w->pkts + (it & 1) * BENCH_BURST, BENCH_BURST);
	w->cycles = rte_rdtsc_precise() - t0;
	ingress_worker_stop(w->ing, w->wid);
	return 0;
}

/*
 * ingress_burst + ingress_worker_quiescent in every mode and scope, on 1 or
 * 2 workers (lcores 0 and 1) sharing the hook: median of rounds, cycles and
 * ns per packet per worker, and the share of lock acquisitions that spun.
 */
static void
bench_hook(const char *file, const struct pkt_templates *t, unsigned int nw,
	   uint64_t iters)
{
	const double ghz = (double)rte_get_tsc_hz() / 1e9;
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0), m, s, k, i, r;
	struct mib_set *ms = mibs_new(3);
	struct bh_worker w[2];
	struct ingress *ing;
	uint32_t start;

	ing = ingress_create(nw, INGRESS_OFF, INGRESS_SCOPE_PACKET,
			     must_parse_file(file), mib_set_block(ms, 2), SOCKET_ID_ANY);
	assert_non_null(ing);
	for (k = 0; k < nw; k++) {
		w[k].ing = ing;
		w[k].wid = k;
		w[k].mib = mib_set_block(ms, k);
		w[k].iters = iters / 2;
		w[k].start = &start;
		for (i = 0; i < 64; i++)
			w[k].pkts[i] = from_template(t, i);
	}
	print_message("  hook, %s, %u worker%s: ns/pkt (cycles/pkt)%s\n", file + 13, nw,
		      nw > 1 ? "s" : "", nw > 1 ? " of each worker, LockContended/LockAcquires" : "");
	for (m = 0; m < INGRESS_MODE_MAX; m++) {
		char line[256];
		int n = snprintf(line, sizeof(line), "  %-7s", ingress_mode_name(m));

		for (s = 0; s < INGRESS_SCOPE_MAX; s++) {
			uint64_t c[2][BENCH_ROUNDS], acq0, con0, acq = 0, con = 0;

			assert_int_equal(ingress_set_mode(ing, m), 0);
			assert_int_equal(ingress_set_scope(ing, s), 0);
			for (r = 0; r < BENCH_ROUNDS; r++) {
				acq0 = mib_read(&w[0].mib, MIB_F(INGRESS, LOCKACQUIRES)) +
				       (nw > 1 ? mib_read(&w[1].mib, MIB_F(INGRESS, LOCKACQUIRES)) : 0);
				con0 = mib_read(&w[0].mib, MIB_F(INGRESS, LOCKCONTENDED)) +
				       (nw > 1 ? mib_read(&w[1].mib, MIB_F(INGRESS, LOCKCONTENDED)) : 0);
				start = nw == 1;	/* 1 worker: no partner to wait for */
				if (nw > 1)
					assert_int_equal(launch(bh_run, &w[1], lcore), 0);
				bh_run(&w[0]);
				if (nw > 1)
					assert_int_equal(join(lcore), 0);
				for (k = 0; k < nw; k++)
					c[k][r] = w[k].cycles;
				acq += mib_read(&w[0].mib, MIB_F(INGRESS, LOCKACQUIRES)) +
				       (nw > 1 ? mib_read(&w[1].mib, MIB_F(INGRESS, LOCKACQUIRES)) : 0) - acq0;
				con += mib_read(&w[0].mib, MIB_F(INGRESS, LOCKCONTENDED)) +
				       (nw > 1 ? mib_read(&w[1].mib, MIB_F(INGRESS, LOCKCONTENDED)) : 0) - con0;
			}
			n += snprintf(line + n, sizeof(line) - n, "  %s", ingress_scope_name(s));
			for (k = 0; k < nw; k++) {
				double v;

				qsort(c[k], BENCH_ROUNDS, sizeof(c[k][0]), cmp_u64);
				v = (double)c[k][BENCH_ROUNDS / 2] / (double)(w[k].iters * BENCH_BURST);
				n += snprintf(line + n, sizeof(line) - n, " %6.2f (%5.1f)", v / ghz, v);
			}
			if (nw > 1 && acq)
				n += snprintf(line + n, sizeof(line) - n, " %4.1f%%",
					      100.0 * (double)con / (double)acq);
			else if (nw > 1)
				n += snprintf(line + n, sizeof(line) - n, "   -  ");
		}
		print_message("%s\n", line);
	}
	ingress_free(ing);
	for (k = 0; k < nw; k++)
		for (i = 0; i < 64; i++)
			rte_pktmbuf_free(w[k].pkts[i]);
	mib_set_free(ms);
}

static void
test_bench(void **state)
{
	static const char *files[] = {
		"config/rules/drop-udp-9.rules", "config/rules/acl-100.rules",
		"config/rules/acl-10000.rules",
	};
	const double ghz = (double)rte_get_tsc_hz() / 1e9;
	const char *env = getenv("INGRESS_BENCH");
	struct pkt_templates *t;
	struct rte_mbuf *pkts[64];
	uint64_t iters = 200000;
	unsigned int i, f;

	(void)state;
	if (env == NULL || *env == '\0' || strcmp(env, "0") == 0)
		skip();
	signal(SIGALRM, watchdog);
	alarm(280);
	t = gen_templates();
	for (i = 0; i < 64; i++)
		pkts[i] = from_template(t, i);
	print_message("  TSC %.3f GHz, burst %u, generator frames (64 flows), median of %u rounds\n",
		      ghz, BENCH_BURST, BENCH_ROUNDS);
	print_message("  ns/pkt (cycles/pkt) of classify_burst: 'burst' = 32 packets a call, '1-by-1' = 1\n");
	print_message("  %-18s %6s %15s %15s %15s %15s %15s\n", "rules", "n", "rte_acl burst",
		      "rte_acl 1-by-1", "small burst", "small 1-by-1", "reference");
	for (f = 0; f < RTE_DIM(files) + 16; f++) {
		/* INGRESS_BENCH_FILES="a.rules b.rules": more rule files */
		const char *extra = getenv("INGRESS_BENCH_FILES");
		char name[PATH_MAX];
		struct ingress_classifier *c;

		if (f < RTE_DIM(files)) {
			snprintf(name, sizeof(name), "%s", files[f]);
			c = must_parse_file(files[f]);
		} else {
			unsigned int k = f - RTE_DIM(files);
			const char *p = extra;
			size_t len;
			char err[256];

			while (p && k--) {
				p = strchr(p, ' ');
				p = p ? p + 1 : NULL;
			}
			if (p == NULL || *p == '\0')
				break;
			len = strcspn(p, " ");
			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			assert_int_equal(ingress_rules_parse_file(name, &c, err, sizeof(err)), 0);
		}
		struct ingress_classifier *acl = __ingress_rules_view(c, RULES_VIEW_ACL);
		struct ingress_classifier *sm = __ingress_rules_view(c, RULES_VIEW_SMALL);
		struct ingress_classifier *lin = __ingress_rules_view(c, RULES_VIEW_REFERENCE);
		uint64_t slow = ingress_rules_count(c) > 1000 ? iters / 100 : iters;
		double a = bench_median(b_classify, acl, pkts, 64, iters);
		double o = bench_median(b_classify_one, acl, pkts, 64, iters);
		double sb = bench_median(b_classify, sm, pkts, 64, slow);
		double so = bench_median(b_classify_one, sm, pkts, 64, slow);
		double l = bench_median(b_classify, lin, pkts, 64, slow);

		print_message("  %-18s %6d %6.1f (%5.0f) %6.1f (%5.0f) %6.1f (%5.0f) %6.1f (%5.0f) %6.1f (%5.0f)\n",
			      strrchr(name, '/') ? strrchr(name, '/') + 1 : name,
			      ingress_rules_count(c), a / ghz, a, o / ghz, o,
			      sb / ghz, sb, so / ghz, so, l / ghz, l);
		ingress_classifier_free(lin);
		ingress_classifier_free(sm);
		ingress_classifier_free(acl);
		ingress_classifier_free(c);
	}

	bench_hook("config/rules/match-all.rules", t, 1, iters);
	bench_hook("config/rules/match-all.rules", t, 2, iters);
	bench_hook("config/rules/acl-100.rules", t, 1, iters);
	bench_hook("config/rules/acl-100.rules", t, 2, iters);
	{
		rte_spinlock_t sl;
		uint64_t t0, k, n_sl = 10000000;

		rte_spinlock_init(&sl);
		t0 = rte_rdtsc_precise();
		for (k = 0; k < n_sl; k++) {
			rte_spinlock_lock(&sl);
			__asm__ volatile("" : : : "memory");
			rte_spinlock_unlock(&sl);
		}
		t0 = rte_rdtsc_precise() - t0;
		print_message("  tight loop rte_spinlock_lock+unlock, 1 lcore: %.1f cycles, %.2f ns\n",
			      (double)t0 / n_sl, (double)t0 / n_sl / ghz);
	}
	alarm(0);
	for (i = 0; i < 64; i++)
		rte_pktmbuf_free(pkts[i]);
	pkt_templates_free(t);
}

/* ------------------------------------------------------------------ */

static int
setup(void **state)
{
	char *argv[] = { "test_ingress", "--no-huge", "--no-shconf", "-m", "512",
			 "--no-pci", "--file-prefix", "test_ingress", "-l", "0-1",
			 "--log-level", "lib.eal:error" };

	(void)state;
	if (rte_eal_init(RTE_DIM(argv), argv) < 0) {
		print_error("rte_eal_init: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	pool = rte_pktmbuf_pool_create("test_ingress", 4096, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (pool == NULL)
		return -1;
	find_srcdir();
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_match_table),
		cmocka_unit_test(test_match_multiseg),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_file),
		cmocka_unit_test(test_shipped_rules),
		cmocka_unit_test(test_acl_vs_linear),
		cmocka_unit_test(test_clone_refcount),
		cmocka_unit_test(test_hook_single),
		cmocka_unit_test(test_worker_lifecycle),
		cmocka_unit_test(test_writer_vs_stopped_worker),
		cmocka_unit_test(test_concurrency),
		cmocka_unit_test(test_bench),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
