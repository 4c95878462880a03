/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What lib/bpf checks in an eBPF program before rte_bpf_load sees
 * it, and the rewrite of the one form DPDK 22.11's JIT encodes wrongly.
 *
 * rte_bpf's verifier lets a program write wherever it may read: to the
 * context, which for pktpath is the frame itself, so a classifier could
 * rewrite the packets it classifies (the context header says it must
 * not). A store is accepted here only when its base register provably
 * holds a stack pointer on every path: r10, or a register copied from one
 * and moved by constants (a forward dataflow over the loop-free program:
 * a stack pointer reloaded from a spill slot is not recognised, so such a
 * store is refused too -- the conservative side). Loops are refused
 * before that (clang's backward jumps to a shared block are fine: only a
 * jump that closes a cycle is a loop), and shifts by the operand width or
 * more (the JIT's shift encodes an 8-bit count and emits 4 bytes for
 * counts of 128 or more; the kernel refuses any such shift).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pktbpf_pvt.h"

static bool
is_jump(uint8_t code)
{
	return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != EBPF_CALL &&
	       BPF_OP(code) != EBPF_EXIT;
}

static bool
is_store(uint8_t code)
{
	uint8_t cls = BPF_CLASS(code);

	return (cls == BPF_ST || cls == BPF_STX) &&
	       (BPF_MODE(code) == BPF_MEM || BPF_MODE(code) == EBPF_XADD);
}

static const char *
size_name(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return "1 byte";
	case BPF_H: return "2 bytes";
	case BPF_W: return "4 bytes";
	default: return "8 bytes";
	}
}

int
__pktbpf_succ(const struct ebpf_insn *ins, uint32_t n, uint32_t i, uint32_t s[2])
{
	const struct ebpf_insn *p = &ins[i];
	int k = 0;

	if (p->code == (BPF_JMP | EBPF_EXIT))
		return 0;
	if (is_jump(p->code)) {
		int64_t t = (int64_t)i + p->off + 1;

		if (t < 0 || t >= n)
			return -1;
		s[k++] = (uint32_t)t;
		if (BPF_OP(p->code) == BPF_JA || t == i + 1)
			return k;
	}
	s[k] = p->code == (BPF_LD | BPF_IMM | EBPF_DW) ? i + 2 : i + 1;
	return s[k] < n ? k + 1 : -1;
}

int
__pktbpf_topo(const struct ebpf_insn *ins, uint32_t n, uint32_t *order,
	      uint32_t *norder, uint32_t *from, uint32_t *to)
{
	uint8_t *colour;		/* 0 unseen, 1 on the stack, 2 done */
	uint32_t *stk, *edge, sp = 0, k = 0, s[2];
	int rc = 0, ns;

	*norder = 0;
	if (n == 0)
		return 0;
	colour = calloc(n, 1);
	stk = malloc(sizeof(*stk) * n);
	edge = calloc(n, sizeof(*edge));
	if (colour == NULL || stk == NULL || edge == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	stk[sp++] = 0;
	colour[0] = 1;
	while (sp > 0 && rc == 0) {
		uint32_t i = stk[sp - 1];

		ns = __pktbpf_succ(ins, n, i, s);
		if (ns < 0) {
			*from = i;
			rc = -EINVAL;
		} else if (edge[i] < (uint32_t)ns) {
			uint32_t t = s[edge[i]++];

			if (colour[t] == 1) {
				*from = i;
				*to = t;
				rc = -ELOOP;
			} else if (colour[t] == 0) {
				colour[t] = 1;
				stk[sp++] = t;
			}
		} else {
			colour[i] = 2;
			order[k++] = i;		/* postorder */
			sp--;
		}
	}
	/* Reverse: a topological order of the reachable instructions. */
	for (sp = 0; rc == 0 && sp < k / 2; sp++) {
		uint32_t t = order[sp];

		order[sp] = order[k - 1 - sp];
		order[k - 1 - sp] = t;
	}
	*norder = k;
out:
	free(colour);
	free(stk);
	free(edge);
	return rc;
}

/* Registers that hold a stack pointer after p, given those before. */
static uint16_t
stack_after(const struct ebpf_insn *p, uint16_t in)
{
	uint16_t d = (uint16_t)(1u << p->dst_reg), s = (uint16_t)(1u << p->src_reg);
	uint8_t cls = BPF_CLASS(p->code), op = BPF_OP(p->code);
	uint16_t out = in;

	if (cls == BPF_ALU || cls == EBPF_ALU64) {
		out &= (uint16_t)~d;
		if (p->code == (EBPF_ALU64 | EBPF_MOV | BPF_X) && (in & s))
			out |= d;
		else if (cls == EBPF_ALU64 && BPF_SRC(p->code) == BPF_K &&
			 (op == BPF_ADD || op == BPF_SUB) && (in & d))
			out |= d;
		else if (cls == EBPF_ALU64 && BPF_SRC(p->code) == BPF_X &&
			 (op == BPF_ADD || op == BPF_SUB) && (in & d) && !(in & s))
			out |= d;	/* pointer +- scalar: still the stack */
	} else if (cls == BPF_LDX || p->code == (BPF_LD | BPF_IMM | EBPF_DW)) {
		out &= (uint16_t)~d;
	} else if (cls == BPF_LD || p->code == (BPF_JMP | EBPF_CALL)) {
		out &= (uint16_t)~0x3fu;	/* r0-r5 clobbered */
	}
	return out | 1u << EBPF_REG_10;
}

int
__pktbpf_obj_check(const struct ebpf_insn *ins, uint32_t n, char *why, size_t whylen)
{
	uint16_t *st;			/* stack-pointer registers at entry */
	uint32_t *order = NULL, norder, from = 0, to = 0, i, k, s[2];
	uint8_t *seen;
	int rc, ns;

	if (n == 0) {
		snprintf(why, whylen, "the program has no instructions");
		return -ENOTSUP;
	}
	if (n > PKTBPF_LOAD_MAX_INS) {
		snprintf(why, whylen, "%u instructions: more than %u (rte_bpf's "
			 "verifier walks every path)", n, PKTBPF_LOAD_MAX_INS);
		return -E2BIG;
	}
	for (i = 0; i < n; i++) {
		const struct ebpf_insn *p = &ins[i];
		uint8_t cls = BPF_CLASS(p->code), op = BPF_OP(p->code);

		if (p->code == (BPF_LD | BPF_IMM | EBPF_DW)) {
			i++;
			continue;
		}
		if ((cls == BPF_ALU || cls == EBPF_ALU64) && BPF_SRC(p->code) == BPF_K &&
		    (op == BPF_LSH || op == BPF_RSH || op == EBPF_ARSH) &&
		    (uint32_t)p->imm >= (cls == BPF_ALU ? 32u : 64u)) {
			snprintf(why, whylen, "instruction %u shifts by %u: more than %u "
				 "bits", i, (uint32_t)p->imm, cls == BPF_ALU ? 31 : 63);
			return -ENOTSUP;
		}
	}
	order = malloc(sizeof(*order) * n);
	st = calloc(n, sizeof(*st));
	seen = calloc(n, 1);
	if (order == NULL || st == NULL || seen == NULL) {
		snprintf(why, whylen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	rc = __pktbpf_topo(ins, n, order, &norder, &from, &to);
	if (rc == -ELOOP) {
		snprintf(why, whylen, "instruction %u jumps back to %u, which closes a "
			 "loop: loops are refused (rte_bpf runs loop-free programs)",
			 from, to);
		rc = -ENOTSUP;
		goto out;
	}
	if (rc != 0) {
		snprintf(why, whylen, rc == -ENOMEM ? "out of memory" :
			 "instruction %u jumps or falls out of the program", from);
		rc = rc == -ENOMEM ? rc : -ENOTSUP;
		goto out;
	}
	/* Stack pointers, forward in topological order: every predecessor of
	 * an instruction is done before it. */
	st[0] = 1u << EBPF_REG_10;
	seen[0] = 1;
	for (k = 0; k < norder; k++) {
		const struct ebpf_insn *p = &ins[i = order[k]];
		uint16_t out;
		int j;

		if (is_store(p->code) && !(st[i] & (1u << p->dst_reg))) {
			snprintf(why, whylen, "instruction %u stores %s through r%u "
				 "(at r%u%+d), which is not a stack pointer: a classifier "
				 "must not write to its context (the frame)", i,
				 size_name(p->code), p->dst_reg, p->dst_reg, p->off);
			rc = -ENOTSUP;
			goto out;
		}
		out = stack_after(p, st[i]);
		ns = __pktbpf_succ(ins, n, i, s);
		for (j = 0; j < ns; j++) {
			st[s[j]] = seen[s[j]] ? (uint16_t)(st[s[j]] & out) : out;
			seen[s[j]] = 1;
		}
	}
	rc = 0;
out:
	free(order);
	free(st);
	free(seen);
	return rc;
}

/*
 * Does an instruction pktpath may rewrite pass rte_bpf's syntax check
 * (DPDK 22.11 bpf_validate.c check_syntax(): the registers, off and imm
 * each form allows)? A rewrite drops or moves fields, so rewriting an
 * ill-formed one could turn a program rte_bpf refuses into one it
 * accepts (a jset whose unused src field holds 11, rewritten to
 * "mov rT, K; jset rD, rT", loaded on the JIT engine and was refused on
 * the interpreter). Ill-formed instructions are left as they are, for
 * rte_bpf to refuse with its own reason on either engine.
 */
static bool
well_formed(const struct ebpf_insn *p)
{
	if (p->code == (BPF_ALU | EBPF_END | EBPF_TO_LE))	/* dst writable */
		return p->dst_reg < EBPF_REG_10 && p->src_reg == 0 && p->off == 0;
	if (p->code == (BPF_JMP | BPF_JSET | BPF_K))	/* off: any target */
		return p->dst_reg < EBPF_REG_NUM && p->src_reg == 0;
	/* ALU and ALU64 register forms: dst writable, no off, no imm. */
	return p->dst_reg < EBPF_REG_10 && p->src_reg < EBPF_REG_NUM &&
	       p->off == 0 && p->imm == 0;
}

/*
 * Forms DPDK 22.11's x86 JIT compiles wrongly, each fixed with a scratch
 * register rT the program never uses (returns how many instructions go
 * before the rewritten one):
 *  - B: "jset rD, K" with K in -128..127: TEST has no 8-bit immediate form,
 *    the JIT writes one and the following bytes are misdecoded
 *    -> "mov rT, K; jset rD, rT";
 *  - F: a shift by a register that is its destination ("lsh rD, rD", rD
 *    not r4): the JIT swaps the count into rcx and then shifts rD, which
 *    now holds rcx's old value -> "mov rT, rD; lsh rD, rT";
 *  - G: a 64-bit division or modulo of r0 or r3 by itself: the JIT divides
 *    by a scratch register it saved only when the destination is another
 *    one (a wrong result, or SIGFPE) -> "mov rT, rD; div rD, rT";
 *  - I: a 32-bit division or modulo by a register: its zero check is a
 *    32-bit CMOV into rax, which clears rax's upper half whether or not
 *    it moves, so r0 loses its upper 32 bits
 *    -> "mov32 rT, rS; mov32 rD, rD; div64 rD, rT" (the same quotient,
 *    the same exit on a zero divisor).
 */
static unsigned int
needs_tmp(const struct ebpf_insn *p)
{
	uint8_t cls = BPF_CLASS(p->code), op = BPF_OP(p->code);

	if (p->code == (BPF_JMP | BPF_JSET | BPF_K))
		return well_formed(p) && p->imm >= -128 && p->imm <= 127;
	if ((cls != BPF_ALU && cls != EBPF_ALU64) || BPF_SRC(p->code) != BPF_X ||
	    !well_formed(p))
		return 0;
	if (op == BPF_DIV || op == BPF_MOD) {
		if (cls == BPF_ALU)
			return 2;
		return p->src_reg == p->dst_reg &&
		       (p->dst_reg == EBPF_REG_0 || p->dst_reg == EBPF_REG_3);
	}
	if (op == BPF_LSH || op == BPF_RSH || op == EBPF_ARSH)
		return p->src_reg == p->dst_reg && p->dst_reg != EBPF_REG_4;
	return 0;
}

/* Registers an instruction names (not what it clobbers implicitly). */
static uint16_t
regs_of(const struct ebpf_insn *p)
{
	uint8_t cls = BPF_CLASS(p->code);
	uint16_t r = 0;

	if (p->code == (BPF_JMP | EBPF_EXIT))
		return 1u << EBPF_REG_0;
	if (p->code == (BPF_JMP | EBPF_CALL))
		return 0x3fu;
	if (p->code == (BPF_JMP | BPF_JA))
		return 0;
	if (cls == BPF_LD && (BPF_MODE(p->code) == BPF_ABS ||
			      BPF_MODE(p->code) == BPF_IND))
		return 0x7fu | 1u << p->src_reg;	/* r0-r6 implied */
	r |= 1u << p->dst_reg;
	if (cls == BPF_LDX || cls == BPF_STX ||
	    ((cls == BPF_ALU || cls == EBPF_ALU64 || cls == BPF_JMP) &&
	     BPF_SRC(p->code) == BPF_X))
		r |= 1u << p->src_reg;
	return r;
}

int
__pktbpf_fix_forms(struct ebpf_insn **pins, uint32_t *pn, bool *owned, bool jit)
{
	const struct ebpf_insn *ins = *pins;
	static const uint8_t pref[] = { 5, 4, 3, 2, 1, 9, 8, 7, 6 };
	uint32_t n = *pn, i, c = 0, *pos;
	struct ebpf_insn *o;
	uint16_t used = 1u << EBPF_REG_1;	/* the context, on entry */
	int tmp = -1;
	unsigned int k;

	/* H (the interpreter): "le16"/"le32" do not truncate there. Rewritten
	 * in place as what they are on x86, for both engines. */
	for (i = 0; i < n; i++) {
		if (ins[i].code != (BPF_ALU | EBPF_END | EBPF_TO_LE) ||
		    (ins[i].imm != 16 && ins[i].imm != 32) || !well_formed(&ins[i]))
			continue;
		if (!*owned) {
			o = malloc(sizeof(*o) * n);
			if (o == NULL)
				return -ENOMEM;
			memcpy(o, ins, sizeof(*o) * n);
			*pins = o;
			*owned = true;
			ins = o;
		}
		o = (struct ebpf_insn *)(uintptr_t)&ins[i];
		if (o->imm == 16)
			*o = (struct ebpf_insn){ .code = BPF_ALU | BPF_AND | BPF_K,
				.dst_reg = o->dst_reg, .imm = 0xffff };
		else
			*o = (struct ebpf_insn){ .code = BPF_ALU | EBPF_MOV | BPF_X,
				.dst_reg = o->dst_reg, .src_reg = o->dst_reg };
	}
	for (i = 0; i < n && jit; i++) {
		c += needs_tmp(&ins[i]);
		used |= regs_of(&ins[i]);
		if (ins[i].code == (BPF_LD | BPF_IMM | EBPF_DW))
			i++;
	}
	if (c == 0)
		return 0;
	for (k = 0; k < sizeof(pref) && tmp < 0; k++)
		if (!(used & (1u << pref[k])))
			tmp = pref[k];
	if (tmp < 0)
		return -ENOSPC;
	pos = malloc(sizeof(*pos) * (n + 1));
	o = malloc(sizeof(*o) * (n + c));
	if (pos == NULL || o == NULL) {
		free(pos);
		free(o);
		return -ENOMEM;
	}
	for (i = 0, k = 0; i <= n; i++) {
		pos[i] = i + k;
		if (i < n)
			k += needs_tmp(&ins[i]);
	}
	for (i = 0; i < n; i++) {
		struct ebpf_insn x = ins[i];
		uint32_t at = pos[i];

		if (needs_tmp(&x) && BPF_CLASS(x.code) == BPF_JMP) {
			/* mov64 sign-extends imm as jset's immediate is. */
			o[at++] = (struct ebpf_insn){ .code = EBPF_ALU64 | EBPF_MOV | BPF_K,
				.dst_reg = (uint8_t)tmp, .imm = x.imm };
			x.code = BPF_JMP | BPF_JSET | BPF_X;
			x.src_reg = (uint8_t)tmp;
			x.imm = 0;
		} else if (needs_tmp(&x) == 2) {	/* 32-bit div/mod */
			o[at++] = (struct ebpf_insn){ .code = BPF_ALU | EBPF_MOV | BPF_X,
				.dst_reg = (uint8_t)tmp, .src_reg = x.src_reg };
			o[at++] = (struct ebpf_insn){ .code = BPF_ALU | EBPF_MOV | BPF_X,
				.dst_reg = x.dst_reg, .src_reg = x.dst_reg };
			x.code = (uint8_t)(EBPF_ALU64 | BPF_OP(x.code) | BPF_X);
			x.src_reg = (uint8_t)tmp;
		} else if (needs_tmp(&x)) {
			o[at++] = (struct ebpf_insn){ .code = EBPF_ALU64 | EBPF_MOV | BPF_X,
				.dst_reg = (uint8_t)tmp, .src_reg = x.src_reg };
			x.src_reg = (uint8_t)tmp;
		}
		if (is_jump(x.code)) {
			int64_t t = (int64_t)i + x.off + 1;

			if (t >= 0 && t <= n)
				x.off = (int16_t)((int64_t)pos[t] - at - 1);
		}
		o[at] = x;
	}
	free(pos);
	if (*owned)
		free(*pins);
	*pins = o;
	*pn = n + c;
	*owned = true;
	return (int)c;
}
