/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_INGRESS_H
#define PKTPATH_TEST_INGRESS_H

/*
 * What the lib/ingress unit tests share (test_ingress_lib.c): hand-built
 * frames, parsing that must succeed, the generator's frames, MIB blocks, a
 * watchdog, and an lcore launch with edges ThreadSanitizer sees. Three
 * programs use it, one per concept:
 *
 *   test_ingress_rules.c   classifier objects, rules parsing and lookup
 *   test_ingress_hook.c    the hook: modes, scopes, counters, refusals,
 *                          start/stop, writers against QSBR readers
 *   test_ingress_stress.c  a worker classifying while writers replace
 *                          rulesets and flip modes thousands of times
 *
 * The classification and hook measurements are pktpath-bench's "ingress"
 * group (app/pktpath-bench/bench_ingress.c), not tests.
 *
 * Single-threaded (the main lcore) except launch()/join().
 */

#include <netinet/in.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_launch.h>
#include <rte_mbuf.h>

#include "ingress.h"
#include "ingress_rules.h"
#include "mib.h"
#include "pkt.h"

/* RTE_IPV4 shifts a signed int by 24 (undefined for a >= 128): cast first. */
#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

#define PASS INGRESS_ACT_PASS
#define DROP INGRESS_ACT_DROP

/* The pool every test frame comes from (ingress_test_setup()). */
extern struct rte_mempool *pool;

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

/* Designated-initializer defaults overridden per row: a file using FS()
 * needs #pragma GCC diagnostic ignored "-Woverride-init". */
#define FS(...) { .vlan = -1, .tpid = RTE_ETHER_TYPE_VLAN, \
	.etype = RTE_ETHER_TYPE_IPV4, .version = 4, .ihl = 5, \
	.proto = IPPROTO_UDP, .src = IP4(198, 18, 0, 1), \
	.dst = IP4(198, 19, 0, 1), .sport = 1024, .dport = 9, __VA_ARGS__ }
#define F(...) ((struct fspec)FS(__VA_ARGS__))

/* Write the frame into m (reset). Returns m. */
struct rte_mbuf *frame_fill(struct rte_mbuf *m, const struct fspec *f);

/* A new mbuf from pool holding the frame (fails the test if none). */
struct rte_mbuf *frame(const struct fspec *f);

/* ------------------------------------------------------------------ */
/* Classifiers, generator frames, counters                             */
/* ------------------------------------------------------------------ */

/* Rules from a string, named "t.rules"; fails the test on an error. */
struct ingress_classifier *must_parse(const char *text);

/* A rules file of the source tree (rel: "config/rules/x.rules"). */
struct ingress_classifier *must_parse_file(const char *rel);

/* The built-in generator's default frames (64 flows). */
struct pkt_templates *gen_templates(void);

/* A new mbuf holding template i (modulo the count). */
struct rte_mbuf *from_template(const struct pkt_templates *t, uint32_t i);

/* n per-lcore MIB blocks (percpu layout). */
struct mib_set *mibs_new(unsigned int n);

#define RD(b, name) mib_read(&(b), MIB_F(INGRESS, name))

/* ------------------------------------------------------------------ */
/* Threads                                                             */
/* ------------------------------------------------------------------ */

/* SIGALRM handler: a writer or a flip blocked; exits 1 with one line. */
void watchdog(int sig);

/*
 * rte_eal_remote_launch()/rte_eal_wait_lcore() with explicit
 * release/acquire edges: EAL's own are inside libdpdk, which
 * ThreadSanitizer does not see. One launched lcore at a time.
 */
int launch(lcore_function_t *fn, void *arg, unsigned int lcore);
int join(unsigned int lcore);	/* fn's return value */

/* ------------------------------------------------------------------ */
/* cmocka group set-up                                                 */
/* ------------------------------------------------------------------ */

/* The group set-up and tear-down of each program's cmocka_run_group_tests():
 * EAL (no hugepages, lcores 0-1, --file-prefix the program's name), the
 * pool, the source tree ($INGRESS_SRCDIR, or found from this file's path).
 * 0 or -1. */
int ingress_test_setup(void **state);
int ingress_test_teardown(void **state);

#endif /* PKTPATH_TEST_INGRESS_H */
