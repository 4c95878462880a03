/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_BPF_H
#define PKTPATH_TEST_BPF_H

/* What test_bpf.c (the generated tests, set-up) and test_bpf_cases.c (the
 * faults, refusals and engines) share. */

#include <stdbool.h>
#include <stdint.h>

#include <pcap/pcap.h>

#include <rte_mbuf.h>

#include "bpf_pvt.h"
#include "bpfgen.h"

#define CTX_SIZE 2056	/* the bpf kind's context: {len, reserved, 2048 bytes} */

extern struct rte_mempool *big_pool, *seg_pool, *ctx_pool;
extern uint64_t seed;
extern const struct ingress_verdict_conf match_pass;

/* The number in environment variable name, or def. */
unsigned long env_ul(const char *name, unsigned long def);
void hex(const uint8_t *b, uint32_t n);
/* The frame as one segment / as a chain of 1..seg-byte segments. */
struct rte_mbuf *mbuf_one(const uint8_t *d, uint32_t n);
struct rte_mbuf *mbuf_chain(struct gen_rng *r, const uint8_t *d, uint32_t n,
			    uint32_t seg);

/* libpcap's bpf_filter on the program with its scratch memory zeroed (and,
 * to tell where libpcap's own verdict is undefined, all ones). For a
 * program with loops (protochain), pktpath's bounded interpreter runs
 * first: where it gives up (*forever), libpcap would never return, and 0
 * is the answer (ref_run does not call libpcap then). */
struct ref {
	struct bpf_insn *zero, *ones;
	uint32_t len, loops;
};
void ref_make(const struct bpf_program *p, struct ref *r);
void ref_free(struct ref *r);
u_int ref_run(const struct ref *r, const uint8_t *d, uint32_t n, bool *undef,
	      bool *forever);
void dump_cbpf(const struct bpf_program *p);

/* A pcap-filter classifier (match: pass) on engine e; NULL if refused. */
struct ingress_classifier *filter(const char *expr, enum ingress_bpf_engine e,
				  uint32_t netmask);
/* pcap_compile as pktpath does. */
int compile(const char *expr, uint32_t netmask, struct bpf_program *fp);

/* A context mbuf (buffer filled with a pattern, a random frame) and the
 * context the bpf kind gives the program for it, in ctx. */
struct rte_mbuf *ctx_mbuf(struct gen_rng *r, uint8_t *ctx);
/* A bpf classifier of the program on engine e; NULL with *rc and err. */
struct ingress_classifier *obj(const struct ebpf_insn *p, uint32_t n,
			       enum ingress_bpf_engine e, char *err, size_t errlen,
			       int *rc);
/* rte_bpf_load of the program as it is, on the bpf kind's context. */
struct rte_bpf *ctx_load(const struct ebpf_insn *p, uint32_t n);
void dump_ebpf(const struct ebpf_insn *p, uint32_t n);

void test_dpdk_faults(void **state);
void test_obj_refusals(void **state);
void test_engines(void **state);
void test_quoting(void **state);
void test_work_generated(void **state);
void test_fields_generated(void **state);

#endif
