/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_bpf's fixed cases: each DPDK 22.11 lib/bpf fault on its reproducer
 * (what DPDK does, printed; what pktpath gives, checked against libpcap or
 * the reference interpreter), the bpf kind's exact refusal lines, the
 * timeout and the cancel of a load, the JIT-form rewrites, the engines.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <pcap/pcap.h>

#include <rte_bpf.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "pktbpf_pvt.h"
#include "bpfgen.h"
#include "ingress_bpf.h"
#include "test_bpf.h"
#include "test_oneline.h"

/* An Ethernet/IPv4 frame: proto, tos, payload (L4) bytes. */
static uint32_t
ip4_frame(uint8_t *f, uint8_t proto, uint8_t tos, const uint8_t *l4, uint32_t l4n,
	  uint32_t dst)
{
	static const uint8_t eth[14] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0,
		0, 2, 0x08, 0x00 };
	uint32_t n = 14 + 20 + l4n;

	memcpy(f, eth, 14);
	memset(f + 14, 0, 20);
	f[14] = 0x45;
	f[15] = tos;
	f[16] = (uint8_t)((n - 14) >> 8);
	f[17] = (uint8_t)(n - 14);
	f[22] = 64;
	f[23] = proto;
	f[26] = 10, f[27] = 0, f[28] = 0, f[29] = 1;
	f[30] = (uint8_t)(dst >> 24), f[31] = (uint8_t)(dst >> 16);
	f[32] = (uint8_t)(dst >> 8), f[33] = (uint8_t)dst;
	memcpy(f + 34, l4, l4n);
	return n;
}

/* Every engine's value for expr on one frame, and libpcap's. */
static void
check_expr(const char *expr, const uint8_t *f, uint32_t n, uint32_t netmask,
	   u_int expect)
{
	struct bpf_program fp;
	struct rte_mbuf *m = mbuf_one(f, n);
	unsigned int e;
	struct ref rf;
	bool undef, forever;

	assert_int_equal(compile(expr, netmask, &fp), 0);
	ref_make(&fp, &rf);
	if (ref_run(&rf, f, n, &undef, &forever) != expect)
		fprintf(stderr, "'%s': libpcap says %u\n", expr,
			ref_run(&rf, f, n, &undef, &forever));
	assert_int_equal(ref_run(&rf, f, n, &undef, &forever), expect);
	ref_free(&rf);
	for (e = 0; e < PKTBPF_ENGINE_MAX; e++) {
		struct ingress_classifier *c = filter(expr, (enum pktbpf_engine)e, netmask);
		uint64_t got;

		assert_non_null(c);
		got = frun(c, m);
		if (got != expect)
			fprintf(stderr, "'%s' on %s: %" PRIu64 ", libpcap %u\n", expr,
				ingress_classifier_desc(c), got, expect);
		assert_int_equal(got, expect);
		ingress_classifier_free(c);
	}
	rte_pktmbuf_free(m);
	pcap_freecode(&fp);
}

/* What DPDK's own rte_bpf_convert + rte_bpf_load + JIT give, printed. */
static void
dpdk_says(const char *expr, const uint8_t *f, uint32_t n, u_int libpcap)
{
	struct bpf_program fp;
	struct rte_bpf_prm *prm;
	struct rte_bpf *b;
	struct rte_mbuf *m;

	assert_int_equal(compile(expr, 0, &fp), 0);
	prm = rte_bpf_convert(&fp);
	pcap_freecode(&fp);
	if (prm == NULL) {
		printf("  DPDK: '%s': rte_bpf_convert refuses it (%s)\n", expr,
		       rte_strerror(rte_errno));
		return;
	}
	b = rte_bpf_load(prm);
	rte_free(prm);
	if (b == NULL) {
		printf("  DPDK: '%s': rte_bpf_load refuses it (%s)\n", expr,
		       rte_strerror(rte_errno));
		return;
	}
	m = mbuf_one(f, n);
	printf("  DPDK: '%s': interpreter %" PRIu64 ", libpcap %u%s\n", expr,
	       rte_bpf_exec(b, m), libpcap, " (JIT not run: it may crash)");
	rte_pktmbuf_free(m);
	rte_bpf_destroy(b);
}

void
test_dpdk_faults(void **state)
{
	static const uint8_t icmp_echo[16] = { 8, 0, 0, 0, 0, 1, 0, 1 };
	static const uint8_t tcp67[20] = { 0x0f, 0xa0, 0, 67, 0, 0, 0, 0, 0, 0, 0, 0,
		0x50, 0x12 };
	static const uint8_t udp0[12] = { 0, 53, 0, 53, 0, 12, 0, 0, 0, 0, 0, 0 };
	uint8_t f[128], big[20000];
	struct bpf_program fp;
	struct rte_bpf_prm *prm;
	struct rte_bpf *b;
	struct rte_bpf_jit j;
	struct __pktbpf_jit_layout l;
	struct __pktbpf_load_req rq;
	struct __pktbpf_loaded ld;
	char why[320];
	uint32_t n, ss;

	(void)state;
	/* A: indirect byte and word loads. */
	n = ip4_frame(f, 1, 0, icmp_echo, sizeof(icmp_echo), 0x0a000002);
	check_expr("icmp[0] == 8", f, n, 0, 65535);
	check_expr("icmp[icmptype] == icmp-echo", f, n, 0, 65535);
	dpdk_says("icmp[0] == 8", f, n, 65535);
	n = ip4_frame(f, 17, 0, udp0, sizeof(udp0), 0x0a000002);
	check_expr("udp[4] == 0", f, n, 0, 65535);
	check_expr("udp[8:4] = 0", f, n, 0, 65535);
	/* B: jset with a small immediate. */
	check_expr("ether multicast", f, n, 0, 65535);
	check_expr("ether multicast or greater 2048", f, n, 0, 65535);
	check_expr("ip[1] & 2 != 0", f, n, 0, 0);
	check_expr("ether[0] & 1 = 0", f, n, 0, 0);
	n = ip4_frame(f, 6, 0, tcp67, sizeof(tcp67), 0x0a000002);
	check_expr("tcp[tcpflags] & tcp-syn != 0", f, n, 0, 65535);
	/* D: shifts by X >= 32 give 0 in libpcap. */
	n = ip4_frame(f, 17, 0x40, udp0, sizeof(udp0), 0x0a000002);
	check_expr("ip[8] << ip[1] = 0", f, n, 0, 65535);
	check_expr("ip[8] >> (ip[1] - 30) = 0", f, n, 0, 65535);
	dpdk_says("ip[8] << ip[1] = 0", f, n, 65535);
	/* E: refused by DPDK, run by pktpath. */
	check_expr("ip protochain 17", f, n, 0, 65535);
	check_expr("geneve or vlan 200", f, n, 0, 0);
	check_expr("ether[0xfffff000] = 1", f, n, 0, 0);
	/* A load past the frame ends the filter with 0, "or" or not. */
	check_expr("ether[0x7ffffff0:4] = 1 or udp", f, n, 0, 0);
	check_expr("udp or ether[0x7ffffff0:4] = 1", f, n, 0, 65535);
	check_expr("ip[0] / (ip[1] - 64) = 1 or udp", f, n, 0, 0);
	n = ip4_frame(f, 17, 0, udp0, sizeof(udp0), 0xffffffff);
	check_expr("ip broadcast", f, n, 0, 65535);
	n = ip4_frame(f, 17, 0, udp0, sizeof(udp0), 0xc0a801ff);
	check_expr("ip broadcast", f, n, 0, 0);
	check_expr("ip broadcast", f, n, 0xffffff00, 65535);
	dpdk_says("ip protochain 17", f, n, 65535);
	dpdk_says("geneve or vlan 200", f, n, 0);
	/* libpcap's protochain AH step sets X instead of adding to it: an AH
	 * header of length 3 right after a 20-byte IPv4 header points back at
	 * itself, and libpcap's bpf_filter (tcpdump -r) loops forever. pktpath
	 * stops and does not match; the frame after it still works. */
	{
		static const uint8_t ah[16] = { 51, 3, 0, 0 };
		struct bpf_program lp;
		struct rte_mbuf *m;
		unsigned int e;
		bool gave_up;

		n = ip4_frame(f, 51, 0, ah, sizeof(ah), 0x0a000002);
		assert_int_equal(compile("ip protochain 6", 0, &lp), 0);
		assert_int_equal(__pktbpf_cbpf_run(lp.bf_insns, lp.bf_len,
						   __pktbpf_cbpf_loops(lp.bf_insns, lp.bf_len),
						f, n, n, &gave_up), 0);
		assert_true(gave_up);
		pcap_freecode(&lp);
		m = mbuf_one(f, n);
		for (e = 0; e < PKTBPF_ENGINE_MAX; e++) {
			struct ingress_classifier *c = filter("ip protochain 6 or udp",
							      (enum pktbpf_engine)e, 0);

			assert_non_null(c);
			assert_int_equal(frun(c, m), 0);
			ingress_classifier_free(c);
		}
		rte_pktmbuf_free(m);
		n = ip4_frame(f, 6, 0, tcp67, sizeof(tcp67), 0x0a000002);
		check_expr("ip protochain 6", f, n, 0, 65535);
	}
	{
		struct ingress_classifier *c = filter("ip protochain 6", PKTBPF_JIT, 0);

		assert_non_null(c);
		assert_int_equal(fengine(c), PKTBPF_LIBPCAP);
		assert_non_null(strstr(ingress_classifier_desc(c), " libpcap -> pass"));
		ingress_classifier_free(c);
	}

	/* C: the jump-offset fault, on DPDK's own conversion of the issue's
	 * expression (whose loads are all "ldh [x + k]", the one form fault A
	 * spares, so its verdicts are right once the jumps are). */
	n = ip4_frame(f, 6, 0, tcp67, sizeof(tcp67), 0x0a000002);
	assert_int_equal(compile("(src portrange 4000-44000 or greater 100) and tcp port 67",
				 0, &fp), 0);
	prm = rte_bpf_convert(&fp);
	assert_non_null(prm);
	ss = __pktbpf_stack_size(prm->ins, prm->nb_ins);
	assert_int_equal(__pktbpf_jit_predict(prm->ins, prm->nb_ins, ss, &l), 0);
	printf("  fault C: %u passes, %zu bytes mapped, %zu written, %u of its "
	       "jumps stale\n", l.passes, l.alloc_sz, l.final_sz, l.wrong_jumps);
	assert_true(l.wrong);
	b = rte_bpf_load(prm);
	assert_non_null(b);
	assert_int_equal(rte_bpf_get_jit(b, &j), 0);
	assert_non_null(j.func);
	assert_int_equal(__pktbpf_jit_check(prm->ins, prm->nb_ins, ss, (void *)j.func,
					    j.sz, why, sizeof(why)), -EFAULT);
	printf("  fault C caught: %s\n", why);
	assert_non_null(strstr(why, "lands at"));
	rte_bpf_destroy(b);
	memset(&rq, 0, sizeof(rq));
	rq.ins = prm->ins;
	rq.n = prm->nb_ins;
	rq.arg = prm->prog_arg;
	rq.want_jit = true;
	rq.timeout_s = 5;
	rq.what = "fault C";
	assert_int_equal(__pktbpf_load(&rq, &ld, why, sizeof(why)), 0);
	assert_int_equal(ld.engine, PKTBPF_JIT);	/* settled, checked */
	{
		struct rte_mbuf *m = mbuf_one(f, n);

		assert_int_equal(ld.jit(m), bpf_filter(fp.bf_insns, f, n, n));
		assert_int_equal(ld.jit(m), 65535);
		rte_pktmbuf_free(m);
	}
	rte_bpf_destroy(ld.bpf);
	rte_free(prm);
	pcap_freecode(&fp);

	/* The libpcap engine on a chain longer than its stack buffer. */
	memset(big, 0, sizeof(big));
	n = ip4_frame(big, 17, 0, udp0, sizeof(udp0), 0x0a000002);
	big[19000] = 7;
	{
		struct gen_rng r = { 5 };
		struct rte_mbuf *m = mbuf_chain(&r, big, sizeof(big), 256);
		struct ingress_classifier *c = filter("ether[19000] = 7 and udp",
						      PKTBPF_LIBPCAP, 0);

		assert_non_null(c);
		assert_int_equal(frun(c, m), 65535);
		ingress_classifier_free(c);
		c = filter("ether[19000] = 7 and udp", PKTBPF_JIT, 0);
		assert_int_equal(frun(c, m), 65535);
		ingress_classifier_free(c);
		rte_pktmbuf_free(m);
	}
}

/* ------------------------------------------------------------------ */

#define I(c, d, s, o, k) ((struct ebpf_insn){ .code = (c), .dst_reg = (d), \
	.src_reg = (s), .off = (o), .imm = (k) })
#define EXIT I(BPF_JMP | EBPF_EXIT, 0, 0, 0, 0)
#define MOV64K(d, k) I(EBPF_ALU64 | EBPF_MOV | BPF_K, d, 0, 0, k)

static void
expect_refusal(const struct ebpf_insn *p, uint32_t n, int want_rc, const char *msg)
{
	char err[512];
	int rc;
	struct pktbpf_prog *c = obj(p, n, PKTBPF_JIT, err, sizeof(err), &rc);

	if (c != NULL || rc != want_rc || strcmp(err, msg) != 0)
		fprintf(stderr, "got %d '%s'\nwant %d '%s'\n", rc, c ? "(loaded)" : err,
			want_rc, msg);
	assert_null(c);
	assert_int_equal(rc, want_rc);
	assert_string_equal(err, msg);
}

/* 3 instructions per if, each adding a different constant: no two paths
 * leave the same state, so rte_bpf's verifier walks all 2^k of them. */
static uint32_t
exponential(struct ebpf_insn *p, uint32_t ifs)
{
	uint32_t n = 0, k;

	p[n++] = MOV64K(0, 0);
	for (k = 0; k < ifs; k++) {
		p[n++] = I(BPF_LDX | BPF_MEM | BPF_B, 2, 1, (int16_t)(8 + k), 0);
		p[n++] = I(BPF_JMP | EBPF_JNE | BPF_K, 2, 0, 1, 0x5a);
		p[n++] = I(EBPF_ALU64 | BPF_ADD | BPF_K, 0, 0, 0, (int32_t)(2654435761u * (k + 1) >> 1));
	}
	p[n++] = EXIT;
	return n;
}

static volatile sig_atomic_t cancel_flag;

static void *
cancel_later(void *arg)
{
	struct timespec d = { 0, 200 * 1000000L };

	(void)arg;
	nanosleep(&d, NULL);
	cancel_flag = 1;
	return NULL;
}

void
test_obj_refusals(void **state)
{
	struct ebpf_insn p[4200];
	struct pktbpf_conf bc;
	struct pktbpf_prog *c;
	struct gen_rng r = { 9 };
	uint8_t ctx[CTX_SIZE];
	pthread_t tid;
	char err[512], want[512];
	uint32_t n, k;
	int rc, ok;

	(void)state;
	/* A store to the context (the frame). */
	p[0] = MOV64K(2, 1);
	p[1] = I(BPF_STX | BPF_MEM | BPF_B, 1, 2, 8, 0);
	p[2] = MOV64K(0, 0);
	p[3] = EXIT;
	expect_refusal(p, 4, -ENOTSUP, "prog: instruction 1 stores 1 byte through r1 "
		       "(at r1+8), which is not a stack pointer: a classifier must not "
		       "write to its context (the frame)");
	p[1] = I(BPF_ST | BPF_MEM | BPF_W, 1, 0, 0, 7);
	expect_refusal(p, 4, -ENOTSUP, "prog: instruction 1 stores 4 bytes through r1 "
		       "(at r1+0), which is not a stack pointer: a classifier must not "
		       "write to its context (the frame)");
	/* Through a copy of r1 on one path only, and through a stack pointer
	 * spilled and reloaded (refused: not provably the stack). */
	p[0] = I(EBPF_ALU64 | EBPF_MOV | BPF_X, 3, 10, 0, 0);
	p[1] = I(BPF_LDX | BPF_MEM | BPF_W, 2, 1, 0, 0);
	p[2] = I(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 1, 0);
	p[3] = I(EBPF_ALU64 | EBPF_MOV | BPF_X, 3, 1, 0, 0);
	p[4] = I(BPF_STX | BPF_MEM | EBPF_DW, 3, 2, -8, 0);
	p[5] = MOV64K(0, 0);
	p[6] = EXIT;
	expect_refusal(p, 7, -ENOTSUP, "prog: instruction 4 stores 8 bytes through r3 "
		       "(at r3-8), which is not a stack pointer: a classifier must not "
		       "write to its context (the frame)");
	p[0] = I(BPF_STX | BPF_MEM | EBPF_DW, 10, 10, -8, 0);
	p[1] = I(BPF_LDX | BPF_MEM | EBPF_DW, 3, 10, -8, 0);
	p[2] = I(BPF_ST | BPF_MEM | EBPF_DW, 3, 0, -16, 0);
	p[3] = MOV64K(0, 0);
	p[4] = EXIT;
	expect_refusal(p, 5, -ENOTSUP, "prog: instruction 2 stores 8 bytes through r3 "
		       "(at r3-16), which is not a stack pointer: a classifier must not "
		       "write to its context (the frame)");
	/* Through a register derived from r10: accepted, and it works. */
	p[0] = I(EBPF_ALU64 | EBPF_MOV | BPF_X, 3, 10, 0, 0);
	p[1] = I(EBPF_ALU64 | BPF_ADD | BPF_K, 3, 0, 0, -16);
	p[2] = I(BPF_LDX | BPF_MEM | BPF_W, 2, 1, 0, 0);
	p[3] = I(BPF_STX | BPF_MEM | EBPF_DW, 3, 2, 8, 0);
	p[4] = I(BPF_LDX | BPF_MEM | EBPF_DW, 0, 10, -8, 0);
	p[5] = EXIT;
	c = obj(p, 6, PKTBPF_JIT, err, sizeof(err), &rc);
	assert_non_null(c);
	{
		struct rte_mbuf *m = ctx_mbuf(&r, ctx);

		assert_int_equal(pktbpf_run(c, m), ref_ebpf(p, 6, ctx, CTX_SIZE, &ok));
		assert_int_equal(pktbpf_run(c, m), rte_pktmbuf_pkt_len(m));
		rte_pktmbuf_free(m);
	}
	pktbpf_prog_free(c);
	/* A loop. */
	p[0] = MOV64K(0, 0);
	p[1] = I(EBPF_ALU64 | BPF_ADD | BPF_K, 0, 0, 0, 1);
	p[2] = I(BPF_JMP | BPF_JGT | BPF_K, 0, 0, 1, 9);
	p[3] = I(BPF_JMP | BPF_JA, 0, 0, -3, 0);
	p[4] = EXIT;
	expect_refusal(p, 5, -ENOTSUP, "prog: instruction 3 jumps back to 1, which "
		       "closes a loop: loops are refused (rte_bpf runs loop-free programs)");
	/* A backward jump that is no loop (clang jumps back to shared exits). */
	p[0] = MOV64K(0, 0);
	p[1] = I(BPF_JMP | BPF_JA, 0, 0, 1, 0);
	p[2] = EXIT;
	p[3] = I(BPF_JMP | BPF_JA, 0, 0, -2, 0);
	c = obj(p, 4, PKTBPF_JIT, err, sizeof(err), &rc);
	assert_non_null(c);
	assert_int_equal(pktbpf_prog_engine(c), PKTBPF_JIT);
	pktbpf_prog_free(c);
	/* Shifts the JIT encodes wrongly and the kernel refuses. */
	p[0] = MOV64K(0, 1);
	p[1] = I(BPF_ALU | BPF_LSH | BPF_K, 0, 0, 0, 40);
	p[2] = EXIT;
	expect_refusal(p, 3, -ENOTSUP, "prog: instruction 1 shifts by 40: more than 31 bits");
	p[1] = I(EBPF_ALU64 | EBPF_ARSH | BPF_K, 0, 0, 0, 200);
	expect_refusal(p, 3, -ENOTSUP, "prog: instruction 1 shifts by 200: more than 63 bits");
	/* Size. */
	for (k = 0; k < 4096; k++)
		p[k] = MOV64K(0, (int32_t)k);
	p[4096] = EXIT;
	expect_refusal(p, 4097, -E2BIG, "prog: 4097 instructions: more than 4096 "
		       "(rte_bpf's verifier walks every path)");
	/* The verifier's own reason. */
	p[0] = I(BPF_LDX | BPF_MEM | EBPF_DW, 0, 10, -8, 0);
	p[1] = EXIT;
	expect_refusal(p, 2, -EINVAL, "prog: rte_bpf_load refused it: evaluate: "
		       "undefined value on the stack at pc: 0");
	/* Too complex: the trial load is stopped at the timeout... */
	n = exponential(p, 40);
	pktbpf_conf_init(&bc);
	bc.load_timeout_s = 0.5;
	rc = pktbpf_ebpf_load(p, n, "prog", &bc, &c, err, sizeof(err));
	assert_int_equal(rc, -ETIMEDOUT);
	snprintf(want, sizeof(want), "prog: rte_bpf_load did not finish within 0.5 s: "
		 "its verifier walks every path, about %" PRIu64 " instruction "
		 "evaluations here", __pktbpf_work(p, n));
	assert_string_equal(err, want);
	/* ... or when the cancel flag (pktpath's SIGINT/SIGTERM) is set. */
	bc.load_timeout_s = 3600;
	bc.cancel = &cancel_flag;
	cancel_flag = 0;
	assert_int_equal(pthread_create(&tid, NULL, cancel_later, NULL), 0);
	rc = pktbpf_ebpf_load(p, n, "prog", &bc, &c, err, sizeof(err));
	pthread_join(tid, NULL);
	assert_int_equal(rc, -EINTR);
	assert_string_equal(err, "prog: loading interrupted by a signal");
	/* A moderately branchy one goes through the trial and loads. */
	n = exponential(p, 19);
	assert_true(__pktbpf_work(p, n) > PKTBPF_LOAD_WORK_FAST);
	bc.cancel = NULL;
	bc.load_timeout_s = 600;
	assert_int_equal(pktbpf_ebpf_load(p, n, "prog", &bc, &c, err, sizeof(err)), 0);
	{
		struct rte_mbuf *m = ctx_mbuf(&r, ctx);

		assert_int_equal(pktbpf_run(c, m), ref_ebpf(p, n, ctx, CTX_SIZE, &ok));
		rte_pktmbuf_free(m);
	}
	pktbpf_prog_free(c);

	/* jset with a small immediate (fault B): rewritten with a free
	 * register and JIT-compiled; interpreted when there is none. */
	p[0] = I(BPF_LDX | BPF_MEM | BPF_B, 2, 1, 8, 0);
	p[1] = MOV64K(0, 1);
	p[2] = I(BPF_JMP | BPF_JSET | BPF_K, 2, 0, 1, 1);
	p[3] = MOV64K(0, 2);
	p[4] = EXIT;
	c = obj(p, 5, PKTBPF_JIT, err, sizeof(err), &rc);
	assert_non_null(c);
	assert_int_equal(pktbpf_prog_engine(c), PKTBPF_JIT);
	for (k = 0; k < 8; k++) {
		struct rte_mbuf *m = ctx_mbuf(&r, ctx);

		assert_int_equal(pktbpf_run(c, m), ref_ebpf(p, 5, ctx, CTX_SIZE, &ok));
		rte_pktmbuf_free(m);
	}
	pktbpf_prog_free(c);
	/* Every register used: r3-r9 set, r2 tested, r0 += r2..r9. */
	n = 0;
	for (k = 3; k <= 9; k++)
		p[n++] = MOV64K((uint8_t)k, (int32_t)k);
	p[n++] = I(BPF_LDX | BPF_MEM | BPF_B, 2, 1, 8, 0);
	p[n++] = MOV64K(0, 1);
	p[n++] = I(BPF_JMP | BPF_JSET | BPF_K, 2, 0, 1, 1);
	p[n++] = MOV64K(0, 2);
	for (k = 2; k <= 9; k++)
		p[n++] = I(EBPF_ALU64 | BPF_ADD | BPF_X, 0, (uint8_t)k, 0, 0);
	p[n++] = EXIT;
	c = obj(p, n, PKTBPF_JIT, err, sizeof(err), &rc);
	assert_non_null(c);
	assert_int_equal(pktbpf_prog_engine(c), PKTBPF_INTERP);
	{
		struct rte_mbuf *m = ctx_mbuf(&r, ctx);

		assert_int_equal(pktbpf_run(c, m), ref_ebpf(p, n, ctx, CTX_SIZE, &ok));
		rte_pktmbuf_free(m);
	}
	pktbpf_prog_free(c);
	/* The libpcap engine is for tcpdump expressions only. */
	pktbpf_conf_init(&bc);
	bc.engine = PKTBPF_LIBPCAP;
	assert_int_equal(pktbpf_ebpf_load(p, n, "prog", &bc, &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "prog: the libpcap engine runs tcpdump expressions "
			    "only (pcap-filter)");
}

void
test_engines(void **state)
{
	enum pktbpf_engine e;
	struct ingress_classifier *c;
	unsigned int i;

	(void)state;
	for (i = 0; i < PKTBPF_ENGINE_MAX; i++) {
		assert_int_equal(pktbpf_engine_parse(pktbpf_engine_name(i), &e), 0);
		assert_int_equal(e, i);
	}
	assert_int_equal(pktbpf_engine_parse("JIT", &e), -EINVAL);
	assert_string_equal(pktbpf_engine_name(PKTBPF_ENGINE_MAX), "?");
	c = filter("udp and dst port 9", PKTBPF_JIT, 0);
	assert_string_equal(ingress_classifier_desc(c), "pcap-filter 'udp and dst port 9' jit -> pass");
	ingress_classifier_free(c);
	c = filter("udp and dst port 9", PKTBPF_INTERP, 0);
	assert_string_equal(ingress_classifier_desc(c), "pcap-filter 'udp and dst port 9' interp -> pass");
	ingress_classifier_free(c);
	c = filter("udp and dst port 9", PKTBPF_LIBPCAP, 0);
	assert_string_equal(ingress_classifier_desc(c), "pcap-filter 'udp and dst port 9' libpcap -> pass");
	assert_int_equal(fengine(c), PKTBPF_LIBPCAP);
	ingress_classifier_free(c);
	assert_null(ingress_pcap_filter_prog(NULL));
}


/* A tcpdump expression and an object's name holding every control and
 * high byte: libpcap's reason, which quotes the word it stumbled on, and
 * pktpath's line are one line with no raw byte. */
void
test_quoting(void **state)
{
	static const char *const exprs[] = {
		"udp and 1%c2", "host a%cb", "udp%c", "ether proto \\x%c",
	};
	struct pktbpf_conf bc;
	struct ingress_classifier *c;
	char expr[32], path[48], err[512];
	const char *bad;
	unsigned int k, i;

	(void)state;
	pktbpf_conf_init(&bc);
	bc.engine = PKTBPF_INTERP;
	for (k = 0; k < TEST_ONELINE_BYTES; k++) {
		unsigned int b = test_oneline_byte(k);

		for (i = 0; i < RTE_DIM(exprs); i++) {
			snprintf(expr, sizeof(expr), exprs[i], (char)b);
			c = NULL;
			err[0] = '\0';
			if (ingress_pcap_filter_create(expr, &match_pass, &bc, &c, err,
						       sizeof(err)) == 0) {
				ingress_classifier_free(c);	/* a blank */
				continue;
			}
			if ((bad = test_oneline_bad(err)) != NULL)
				fail_msg("\"%s\" byte 0x%02x: %s in \"%s\"", exprs[i], b,
					 bad, err);
		}
		snprintf(path, sizeof(path), "/nonexistent/x%c.o", (char)b);
		assert_int_not_equal(ingress_bpf_create(path, "s", &bc, &c, err,
							sizeof(err)), 0);
		if ((bad = test_oneline_bad(err)) != NULL)
			fail_msg("object name byte 0x%02x: %s in \"%s\"", b, bad, err);
	}
}

/*
 * __pktbpf_work against a brute-force reference on generated programs whose
 * codes are any of the 256 bytes (a jump-class byte with an exit or call
 * operator and the X bit, 0x9d, is what once sent __pktbpf_work's own idea of
 * a jump past the end of its arrays) and whose offsets reach just outside
 * the program. The reference reads the ISA, not pktpath's code: only a
 * BPF_JMP-class code whose operator is neither call nor exit jumps (to
 * i + off + 1; ja has no fall-through), exit (0x95 exactly) ends a path,
 * lddw takes two slots; it walks every path, adding its length, and
 * answers UINT64_MAX / 4 for a loop or a step out of the program.
 */
#define WORK_SAT (UINT64_MAX / 4)

/* The paths from i to an exit, and the sum of their lengths (counted from
 * i): every path enumerated, none remembered. -1 for a loop or a step out. */
static int
ref_walk(const struct ebpf_insn *p, uint32_t n, uint32_t i, uint32_t depth,
	 uint64_t *paths, uint64_t *work)
{
	uint8_t c = p[i].code;
	int64_t t[2];
	int nt = 0, k;

	*paths = 0;
	*work = 0;
	if (depth > n)
		return -1;		/* longer than the program: a loop */
	if (c == 0x95) {
		*paths = 1;
		*work = 1;
		return 0;
	}
	if ((c & 0x07) == 0x05 && (c & 0xf0) != 0x80 && (c & 0xf0) != 0x90) {
		t[nt++] = (int64_t)i + p[i].off + 1;
		if ((c & 0xf0) != 0x00 && t[0] != i + 1)
			t[nt++] = i + 1;
	} else {
		t[nt++] = c == 0x18 ? i + 2 : i + 1;
	}
	for (k = 0; k < nt; k++) {
		uint64_t sp, sw;

		if (t[k] < 0 || t[k] >= n ||
		    ref_walk(p, n, (uint32_t)t[k], depth + 1, &sp, &sw) != 0)
			return -1;
		/* each of the sp paths through t[k] is one longer from i */
		*paths += sp;
		*work += sw + sp;
	}
	return 0;
}

static uint64_t
ref_work(const struct ebpf_insn *p, uint32_t n)
{
	uint64_t paths, work;

	return ref_walk(p, n, 0, 0, &paths, &work) == 0 ? work : WORK_SAT;
}

void
test_work_generated(void **state)
{
	struct gen_rng r = { .s = 20261201 };
	struct ebpf_insn p[12];
	uint32_t round, n, i;

	(void)state;
	for (round = 0; round < 200000; round++) {
		n = 1 + gen_below(&r, RTE_DIM(p));
		for (i = 0; i < n; i++) {
			/* Half the codes any byte, half from the jump/exit/lddw
			 * codes that shape the control flow. */
			static const uint8_t flow[] = { 0x05, 0x15, 0x1d, 0x25, 0x85,
				0x8d, 0x95, 0x9d, 0xb7, 0x18, 0xa5, 0xdd };

			p[i] = (struct ebpf_insn){
				.code = gen_pct(&r, 50) ? (uint8_t)gen_below(&r, 256) :
					flow[gen_below(&r, RTE_DIM(flow))],
				.off = (int16_t)((int32_t)gen_below(&r, n + 5) -
						 (int32_t)n - 2 + (int32_t)gen_below(&r, n + 1)),
			};
		}
		if (gen_pct(&r, 70))
			p[n - 1].code = 0x95;
		if (__pktbpf_work(p, n) != ref_work(p, n)) {
			fprintf(stderr, "round %u: __pktbpf_work %" PRIu64 ", reference %"
				PRIu64 "\n", round, __pktbpf_work(p, n), ref_work(p, n));
			for (i = 0; i < n; i++)
				fprintf(stderr, "  %u: code 0x%02x off %d\n", i,
					p[i].code, p[i].off);
			fail();
		}
	}
}
