/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fields_generated: the bpf kind accepts exactly what rte_bpf accepts,
 * whatever the instruction's fields hold.
 *
 * pktpath rewrites some instructions before rte_bpf_load sees them (the
 * JIT-fault forms, the interpreter's le16/le32: bpfcheck.c) and inserts
 * no-op jumps (bpfjit.c). A rewrite drops or moves fields, so it can turn
 * a program rte_bpf refuses into one it accepts: the fuzzer found a jset
 * whose unused src field held 11, which loaded on the JIT engine (rewritten
 * to "mov rT, K; jset rD, rT") and was refused on the interpreter. The
 * reference is rte_bpf_load on the program as written. Every opcode byte
 * (the rewritten ones many times more) with random registers 0-15, offsets
 * and immediates, in a small program that sets some registers first (its
 * own ones mostly, leaving others free for a rewrite's scratch register);
 * for each:
 *  - rte_bpf refuses it -> both engines refuse it, naming the program;
 *  - rte_bpf accepts it -> both engines give the same answer (pktpath
 *    refuses more on purpose: loops, context writes, shifts past the width);
 *  - whatever is accepted returns the same value on both engines.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <rte_bpf.h>
#include <rte_log.h>

#include "test_bpf.h"

/* The opcodes pktpath may rewrite (bpfcheck.c __pktbpf_fix_forms). */
static bool
rewritten(uint8_t code)
{
	uint8_t cls = BPF_CLASS(code), op = BPF_OP(code);

	if (code == (BPF_JMP | BPF_JSET | BPF_K) ||
	    code == (BPF_ALU | EBPF_END | EBPF_TO_LE))
		return true;
	return (cls == BPF_ALU || cls == EBPF_ALU64) && BPF_SRC(code) == BPF_X &&
	       (op == BPF_DIV || op == BPF_MOD || op == BPF_LSH || op == BPF_RSH ||
		op == EBPF_ARSH);
}

static uint8_t
reg(struct gen_rng *r)
{
	return (uint8_t)(gen_below(r, 4) ? gen_below(r, 11) : gen_below(r, 16));
}

static const int32_t imms[] = { 0, 1, -1, 2, 7, 16, 32, 63, 64, 127, -128, 128, -129,
				0x7fffffff, INT32_MIN };

/* r0, the instruction's own registers (mostly) and a few others set, the
 * rest left free for a rewrite's scratch register (r1 is the context, r10
 * the frame); a branch to the tail, so that no instruction is unreachable
 * (rte_bpf refuses that); the instruction (and the second half of a 64-bit
 * immediate); exit; the tail "mov r0, 1; exit", a target for the
 * instruction's own jumps too. */
static uint32_t
program(struct gen_rng *r, uint8_t code, struct ebpf_insn *p, struct ebpf_insn *ins)
{
	bool wide = code == (BPF_LD | BPF_IMM | EBPF_DW);
	struct ebpf_insn x = { .code = code, .dst_reg = reg(r), .src_reg = reg(r) };
	uint32_t n = 0, k;

	if (gen_below(r, 3) == 0)
		x.src_reg = 0;
	if (gen_below(r, 3) == 0)
		x.off = (int16_t)(gen_below(r, 2) ? (int)gen_below(r, 5) - 2 :
				  (int)(int16_t)gen_u64(r));
	if (gen_below(r, 2))
		x.imm = gen_below(r, 4) ? imms[gen_below(r, RTE_DIM(imms))] :
			(int32_t)gen_u64(r);
	for (k = 0; k <= 9; k++) {
		bool own = k == x.dst_reg || k == x.src_reg;

		if (k == 1 || (k != 0 && gen_below(r, 8) >= (own ? 7u : 2u)))
			continue;
		p[n++] = (struct ebpf_insn){ .code = EBPF_ALU64 | EBPF_MOV | BPF_K,
			.dst_reg = (uint8_t)k, .imm = (int32_t)(k * 3 + 1) };
	}
	p[n++] = (struct ebpf_insn){ .code = BPF_JMP | BPF_JEQ | BPF_K,
				     .off = wide ? 3 : 2, .imm = 4 };
	p[n++] = x;
	*ins = x;
	if (wide)
		p[n++] = (struct ebpf_insn){ .code = 0, .imm = gen_below(r, 4) ?
					     0 : (int32_t)gen_u64(r) };
	p[n++] = (struct ebpf_insn){ .code = BPF_JMP | EBPF_EXIT };
	p[n++] = (struct ebpf_insn){ .code = EBPF_ALU64 | EBPF_MOV | BPF_K, .imm = 1 };
	p[n++] = (struct ebpf_insn){ .code = BPF_JMP | EBPF_EXIT };
	return n;
}

void
test_fields_generated(void **state)
{
	/* Each refusal costs a fork (bpfload.c gets rte_bpf's reason in a
	 * child), a few ms here: PKTPATH_BPF_FIELDS scales the run up. */
	unsigned long scale = env_ul("PKTPATH_BPF_FIELDS", getenv("PKTPATH_SANITIZED") ? 1 : 2);
	unsigned int code, k, programs = 0, refused = 0, accepted = 0, own = 0, bad = 0;
	unsigned int runs = 0, budget = 5, rw = 0, rw_loaded = 0;
	struct gen_rng r = { seed ^ 0xf1e1d5 };
	struct ebpf_insn p[16];
	time_t t0 = time(NULL);
	uint8_t *ctx = malloc(CTX_SIZE);
	char ej[512], ei[512];

	(void)state;
	assert_non_null(ctx);
	rte_log_set_level_pattern("lib.bpf", RTE_LOG_EMERG);
	for (code = 0; code < 256; code++) {
		unsigned int samples = (unsigned int)scale * (rewritten((uint8_t)code) ? 30 : 2);

		for (k = 0; k < samples; k++) {
			struct ebpf_insn x;
			uint32_t n = program(&r, (uint8_t)code, p, &x);
			struct rte_bpf *b = ctx_load(p, n);
			bool ref = b != NULL;
			struct pktbpf_prog *cj, *ci;
			int rj, ri;
			const char *what = NULL;

			rte_bpf_destroy(b);
			programs++;
			ej[0] = ei[0] = '\0';
			cj = obj(p, n, PKTBPF_JIT, ej, sizeof(ej), &rj);
			ci = obj(p, n, PKTBPF_INTERP, ei, sizeof(ei), &ri);
			if (!ref && (cj != NULL || ci != NULL))
				what = "rte_bpf refuses it, pktpath loads it";
			else if ((cj == NULL) != (ci == NULL))
				what = "one engine loads it, the other refuses it";
			else if (cj == NULL && strcmp(ej, ei) != 0)
				what = "the engines refuse it for different reasons";
			else if (cj == NULL && strncmp(ej, "prog: ", 6) != 0)
				what = "the refusal does not name the program";
			refused += cj == NULL;
			rw += rewritten((uint8_t)code);
			rw_loaded += rewritten((uint8_t)code) && cj != NULL;
			accepted += cj != NULL;
			own += ref && cj == NULL;
			/* r10 is each engine's own stack: not compared. */
			if (what == NULL && cj != NULL && x.src_reg != EBPF_REG_10) {
				unsigned int m;

				for (m = 0; m < 4 && what == NULL; m++) {
					struct rte_mbuf *mb = ctx_mbuf(&r, ctx);

					runs++;
					if (pktbpf_run(cj, mb) != pktbpf_run(ci, mb))
						what = "the engines return different values";
					rte_pktmbuf_free(mb);
				}
			}
			if (what != NULL) {
				bad++;
				if (budget > 0) {
					budget--;
					fprintf(stderr, "seed %" PRIu64 " opcode %#04x: %s "
						"(rte_bpf %s; jit: %s; interpreter: %s)\n", seed,
						code, what, ref ? "accepts" : "refuses",
						cj ? "loaded" : ej, ci ? "loaded" : ei);
					dump_ebpf(p, n);
				}
			}
			pktbpf_prog_free(cj);
			pktbpf_prog_free(ci);
		}
	}
	rte_log_set_level_pattern("lib.bpf", RTE_LOG_ERR);
	printf("fields_generated: seed %" PRIu64 ", %u programs (every opcode byte, "
	       "random fields): %u loaded, %u refused (%u of them by pktpath's own "
	       "checks); of the %u with an opcode pktpath may rewrite, %u loaded; %u runs on both engines, %u disagreements (%ld s)\n", seed,
	       programs, accepted, refused, own, rw, rw_loaded, runs, bad, (long)(time(NULL) - t0));
	free(ctx);
	assert_true(accepted > 0 && refused > 0);
	assert_int_equal(bad, 0);
}
