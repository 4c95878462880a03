/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A model of DPDK 22.11's x86-64 JIT (lib/bpf/bpf_jit_x86.c): what it
 * writes for a program, predicted without running it.
 *
 * It is a byte-exact account of the code size of every native instruction
 * the JIT emits for every eBPF instruction form -- REX prefix rules, 8- or
 * 32-bit immediates and displacements, which moves it skips, the spills of
 * MUL/DIV, the three parts of LD_ABS/LD_IND with their own inner dry run,
 * prologue and epilogue from the callee-saved registers used so far,
 * rel8/rel32 from the same offsets the JIT reads -- run through the same
 * do/while sizing loop, which stops when two passes give the same total
 * size. It yields the native offset of every eBPF instruction in the final
 * pass (the one that writes the code), and every native jump of that pass:
 * where it is, its size, its condition, where the JIT's encoding makes it
 * land and where it should land. Equal totals do not mean equal offsets:
 * jumps can still move, and the final pass then encodes jumps to where
 * their targets were one pass earlier (fault C); and the JIT's rel8 test
 * lets a backward jump of 127 or 128 bytes overflow its displacement
 * (fault J). bpfjit.c checks real code against this and settles programs
 * the model says the JIT gets wrong.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "pktbpf_pvt.h"

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };

/* eBPF register -> x86 register, as bpf_jit_x86.c maps them. */
static const uint8_t x86[EBPF_REG_NUM] = {
	RAX, RDI, RSI, RDX, RCX, R8, RBX, R13, R14, R15, RBP,
};
static const uint8_t save_regs[] = { RBX, R12, R13, R14, R15, RBP };


enum { J_INSN, J_EXIT, J_ABS };

struct jrec {
	uint32_t pos;		/* native offset of the jump */
	uint8_t size;		/* 2, 5 or 6 bytes */
	uint8_t cc;		/* x86 condition nibble, or PKTBPF_JIT_JMP */
	uint8_t kind;		/* J_INSN: tgt is an eBPF index; J_EXIT; J_ABS:
				   tgt is a native offset */
	uint32_t tgt;
	int64_t used;		/* where the JIT's encoding makes it land */
	uint32_t from, to;	/* eBPF instructions: the jump's, its target's */
};

struct jm {
	int64_t sz;
	uint32_t idx;
	int32_t *off;		/* st->off: native start of each instruction */
	uint32_t exit_num;
	int32_t exit_off;
	uint32_t stack_ofs;
	uint32_t reguse;
	bool rec;		/* final pass: record the jumps */
	uint32_t first_exit;	/* eBPF index of the first EXIT (the epilogue) */
	struct jrec *j;
	uint32_t nj, capj;
	bool oom;
};

static unsigned int
isz(int64_t v)
{
	int32_t w = (int32_t)v;

	/* The JIT computes in int32 (wrapping in practice): same answer. */
	if ((int64_t)w != v)
		return 4;
	return w == (int8_t)w ? 1 : 4;
}

static void
b(struct jm *m, unsigned int n)
{
	m->sz += n;
}

static void
rex(struct jm *m, uint32_t op, uint32_t reg, uint32_t rm)
{
	unsigned int r = 0;

	m->reguse |= 1u << reg | 1u << rm;
	if (BPF_CLASS(op) == EBPF_ALU64 || op == (BPF_ST | BPF_MEM | EBPF_DW) ||
	    op == (BPF_STX | BPF_MEM | EBPF_DW) ||
	    op == (BPF_STX | EBPF_XADD | EBPF_DW) ||
	    op == (BPF_LD | BPF_IMM | EBPF_DW) ||
	    (BPF_CLASS(op) == BPF_LDX && BPF_MODE(op) == BPF_MEM &&
	     BPF_SIZE(op) != BPF_W))
		r = 1;
	if (reg >= R8 || rm >= R8)
		r = 1;
	if (op == (BPF_STX | BPF_MEM | BPF_B) && (reg == RDI || reg == RSI))
		r = 1;
	b(m, r);
}

static void
record(struct jm *m, unsigned int size, uint8_t cc, uint8_t kind, uint32_t tgt,
       int64_t used)
{
	struct jrec *r;

	if (!m->rec)
		return;
	if (m->nj == m->capj) {
		uint32_t cap = m->capj ? m->capj * 2 : 64;
		struct jrec *n = realloc(m->j, sizeof(*n) * cap);

		if (n == NULL) {
			m->oom = true;
			return;
		}
		m->j = n;
		m->capj = cap;
	}
	r = &m->j[m->nj++];
	r->pos = (uint32_t)m->sz;
	r->size = (uint8_t)size;
	r->cc = cc;
	r->kind = kind;
	r->tgt = tgt;
	r->used = used;
	r->from = m->idx;
	r->to = kind == J_INSN ? tgt : kind == J_EXIT ? m->first_exit : m->idx;
}

/* ---- the native instructions, sizes only (bpf_jit_x86.c's emit_*) ---- */

static void
xchg(struct jm *m, uint32_t s, uint32_t d)
{
	rex(m, EBPF_ALU64, s, d);
	b(m, 2);
}

static void
mov_reg(struct jm *m, uint32_t op, uint32_t s, uint32_t d)
{
	if (s != d || BPF_CLASS(op) == BPF_ALU) {
		rex(m, op, s, d);
		b(m, 2);
	}
}

static void
movzwl(struct jm *m, uint32_t s, uint32_t d)
{
	rex(m, BPF_ALU, s, d);
	b(m, 3);
}

static void
be2le(struct jm *m, uint32_t d, uint32_t imm)
{
	if (imm == 16) {
		b(m, 1);			/* 0x66: ror $8, %<d>w */
		rex(m, BPF_ALU, 0, d);
		b(m, 2 + isz(8));
		movzwl(m, d, d);
	} else {
		rex(m, imm == 64 ? EBPF_ALU64 : BPF_ALU, 0, d);
		b(m, 2);			/* bswap */
	}
}

static void
le2be(struct jm *m, uint32_t d, uint32_t imm)
{
	if (imm == 16)
		movzwl(m, d, d);
	else if (imm == 32)
		mov_reg(m, BPF_ALU | EBPF_MOV | BPF_X, d, d);
}

static void
alu_imm(struct jm *m, uint32_t op, uint32_t d, int32_t imm)
{
	rex(m, op, 0, d);
	b(m, 2 + isz(imm));
}

static void
alu_reg(struct jm *m, uint32_t op, uint32_t s, uint32_t d)
{
	rex(m, op, s, d);
	b(m, 2);
}

static void
shift(struct jm *m, uint32_t op, uint32_t d)
{
	rex(m, op, 0, d);
	b(m, 2);
}

static void
shift_reg(struct jm *m, uint32_t op, uint32_t s, uint32_t d)
{
	if (s != RCX)
		xchg(m, RCX, s);
	shift(m, op, d == RCX ? s : d);
	if (s != RCX)
		xchg(m, RCX, s);
}

static void
mov_imm(struct jm *m, uint32_t op, uint32_t d, int32_t imm)
{
	if (imm == 0) {
		alu_reg(m, BPF_CLASS(op) | BPF_XOR | BPF_X, d, d);
		return;
	}
	rex(m, op, 0, d);
	b(m, 2 + 4);
}

static void
ld_imm64(struct jm *m, uint32_t d, uint32_t imm0, uint32_t imm1)
{
	(void)imm0;
	rex(m, imm1 == 0 ? BPF_ALU : EBPF_ALU64, 0, d);
	b(m, 1 + 4 + (imm1 != 0 ? 4 : 0));
}

static void
mul(struct jm *m, uint32_t op, uint32_t s, uint32_t d, int32_t imm)
{
	const uint32_t mv = EBPF_ALU64 | EBPF_MOV | BPF_X;

	mov_reg(m, mv, RAX, R11);
	mov_reg(m, mv, RDX, R10);
	mov_reg(m, mv, d, RAX);
	if (BPF_SRC(op) == BPF_X)
		mov_reg(m, mv, s == RAX ? R11 : s, RDX);
	else
		mov_imm(m, EBPF_ALU64 | EBPF_MOV | BPF_K, RDX, imm);
	rex(m, op, RAX, RDX);
	b(m, 2);
	if (d != RDX)
		mov_reg(m, mv, R10, RDX);
	if (d != RAX) {
		mov_reg(m, mv, RAX, d);
		mov_reg(m, mv, R11, RAX);
	}
}

static void
ld_reg(struct jm *m, uint32_t op, uint32_t s, uint32_t d, int32_t ofs)
{
	rex(m, op, d, s);
	b(m, (BPF_SIZE(op) == BPF_B || BPF_SIZE(op) == BPF_H) ? 2 : 1);
	b(m, 1 + ((s == RSP || s == R12) ? 1 : 0) + isz(ofs));
}

static unsigned int
opsize(uint32_t op)
{
	switch (BPF_SIZE(op)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

static void
st_common(struct jm *m, uint32_t op, uint32_t s, uint32_t d, int32_t ofs)
{
	if (BPF_SIZE(op) == BPF_H)
		b(m, 1);
	rex(m, op, s, d);
	b(m, 2 + ((d == RSP || d == R12) ? 1 : 0) + isz(ofs));
	if (BPF_CLASS(op) != BPF_STX)
		b(m, opsize(op) < 4 ? opsize(op) : 4);
}

static void
xadd(struct jm *m, uint32_t op, uint32_t s, uint32_t d, int32_t ofs)
{
	b(m, 1);				/* lock */
	rex(m, op, s, d);
	b(m, 2 + isz(ofs));
}

/* Where a jump of s bytes at m->sz, encoded by the JIT for target ofs,
 * lands: its displacement is ofs - sz - s truncated to the encoding's
 * width. The JIT picks rel8 when ofs - sz and ofs - sz + 6 fit in 8 bits,
 * which for a backward jump of 127 or 128 bytes leaves a displacement of
 * -129 or -130 that does not (fault J). */
static int64_t
landing(const struct jm *m, int64_t ofs, unsigned int s)
{
	int64_t d = ofs - m->sz - s;

	return m->sz + s + (s == 2 ? (int8_t)d : (int32_t)d);
}

static void
abs_jmp(struct jm *m, int64_t ofs, uint8_t kind, uint32_t tgt)
{
	int64_t joff = ofs - m->sz;
	unsigned int s = (isz(joff) == 1 && isz(joff + 5) == 1) ? 2 : 5;

	record(m, s, PKTBPF_JIT_JMP, kind, tgt, landing(m, ofs, s));
	b(m, s);
}

/* x86 condition of an eBPF jump (bpf_jit_x86.c's op8 table). */
static uint8_t
cond(uint32_t op)
{
	switch (BPF_OP(op)) {
	case BPF_JEQ: return 0x4;
	case EBPF_JNE: return 0x5;
	case BPF_JGT: return 0x7;
	case EBPF_JLT: return 0x2;
	case BPF_JGE: return 0x3;
	case EBPF_JLE: return 0x6;
	case EBPF_JSGT: return 0xf;
	case EBPF_JSLT: return 0xc;
	case EBPF_JSGE: return 0xd;
	case EBPF_JSLE: return 0xe;
	case BPF_JSET: return 0x5;
	}
	return 0;
}

static void
abs_jcc(struct jm *m, uint32_t op, int64_t ofs, uint8_t kind, uint32_t tgt)
{
	int64_t joff = ofs - m->sz;
	unsigned int s = (isz(joff) == 1 && isz(joff + 6) == 1) ? 2 : 6;

	record(m, s, cond(op), kind, tgt, landing(m, ofs, s));
	b(m, s);
}

static void
jmp_insn(struct jm *m, int32_t rel)
{
	uint32_t t = m->idx + rel;

	abs_jmp(m, m->off[t], J_INSN, t);
}

static void
jcc_insn(struct jm *m, uint32_t op, int32_t rel)
{
	uint32_t t = m->idx + rel;

	abs_jcc(m, op, m->off[t], J_INSN, t);
}

static void
divmod(struct jm *m, uint32_t op, uint32_t s, uint32_t d, int32_t imm)
{
	const uint32_t mv = EBPF_ALU64 | EBPF_MOV | BPF_X;
	uint32_t sr;

	if (BPF_SRC(op) == BPF_X) {
		rex(m, BPF_CLASS(op), s, s);		/* test */
		b(m, 2);
		rex(m, BPF_CLASS(op) | BPF_JEQ | BPF_X, RAX, s);	/* cmovz */
		b(m, 3);
		abs_jcc(m, BPF_JMP | BPF_JEQ | BPF_K, m->exit_off, J_EXIT, 0);
	}
	if (d != RAX)
		mov_reg(m, mv, RAX, R11);
	if (d != RDX)
		mov_reg(m, mv, RDX, R10);
	mov_reg(m, mv, d, RAX);
	mov_imm(m, EBPF_ALU64 | EBPF_MOV | BPF_K, RDX, 0);
	if (BPF_SRC(op) == BPF_X) {
		sr = s == RAX ? R11 : s == RDX ? R10 : s;
	} else {
		sr = R9;
		mov_imm(m, EBPF_ALU64 | EBPF_MOV | BPF_K, sr, imm);
	}
	rex(m, op, 0, sr);
	b(m, 2);
	mov_reg(m, mv, BPF_OP(op) == BPF_DIV ? RAX : RDX, d);
	if (d != RAX)
		mov_reg(m, mv, R11, RAX);
	if (d != RDX)
		mov_reg(m, mv, R10, RDX);
}

enum { LDMB_FSP, LDMB_SLP, LDMB_FIN, LDMB_NUM };

static void
ldmb_fast(struct jm *m, uint32_t sreg, uint32_t mode, uint32_t sz, int32_t imm,
	  const int64_t ofs[LDMB_NUM], uint32_t *rj)
{
	if (sreg != RSI) {
		mov_imm(m, EBPF_ALU64 | EBPF_MOV | BPF_K, RSI, imm);
		if (mode == BPF_IND)
			alu_reg(m, EBPF_ALU64 | BPF_ADD | BPF_X, sreg, RSI);
	} else {
		alu_imm(m, EBPF_ALU64 | BPF_ADD | BPF_K, RSI, imm);
	}
	ld_reg(m, BPF_LDX | BPF_MEM | BPF_H, RBX, RDX,
	       offsetof(struct rte_mbuf, data_len));
	alu_reg(m, EBPF_ALU64 | BPF_SUB | BPF_X, RSI, RDX);
	alu_imm(m, EBPF_ALU64, RDX, (int32_t)sz);		/* cmp */
	rj[0] = m->nj;
	abs_jcc(m, BPF_JMP | EBPF_JSLT | BPF_K, ofs[LDMB_SLP], J_ABS, 0);
	ld_reg(m, BPF_LDX | BPF_MEM | BPF_H, RBX, RDX,
	       offsetof(struct rte_mbuf, data_off));
	ld_reg(m, BPF_LDX | BPF_MEM | EBPF_DW, RBX, RAX,
	       offsetof(struct rte_mbuf, buf_addr));
	alu_reg(m, EBPF_ALU64 | BPF_ADD | BPF_X, RDX, RAX);
	alu_reg(m, EBPF_ALU64 | BPF_ADD | BPF_X, RSI, RAX);
	rj[1] = m->nj;
	abs_jmp(m, ofs[LDMB_FIN], J_ABS, 0);
}

static void
ldmb_slow(struct jm *m, uint32_t sz)
{
	uintptr_t f = (uintptr_t)__rte_pktmbuf_read;

	mov_imm(m, EBPF_ALU64 | EBPF_MOV | BPF_K, RDX, (int32_t)sz);
	mov_reg(m, EBPF_ALU64 | EBPF_MOV | BPF_X, RBP, RCX);
	alu_imm(m, EBPF_ALU64 | BPF_SUB | BPF_K, RCX, (int32_t)m->stack_ofs);
	mov_reg(m, EBPF_ALU64 | EBPF_MOV | BPF_X, RBX, RDI);
	ld_imm64(m, RAX, (uint32_t)f, (uint32_t)((uint64_t)f >> 32));
	b(m, 2);					/* call *%rax */
	alu_reg(m, EBPF_ALU64, RAX, RAX);		/* test */
	abs_jcc(m, BPF_JMP | BPF_JEQ | BPF_K, m->exit_off, J_EXIT, 0);
}

static void
ldmb_fin(struct jm *m, uint32_t opsz, uint32_t sz)
{
	ld_reg(m, BPF_LDX | BPF_MEM | opsz, RAX, RAX, 0);
	if (sz != 1)
		be2le(m, RAX, sz * 8);
}

static void
ld_mbuf(struct jm *m, uint32_t op, uint32_t sreg, int32_t imm)
{
	uint32_t mode = BPF_MODE(op), opsz = BPF_SIZE(op), sz = opsize(op);
	int64_t ofs[LDMB_NUM];
	uint32_t rj[2], i;
	bool rec = m->rec;

	for (i = 0; i < LDMB_NUM; i++)
		ofs[i] = m->sz + INT8_MAX;
	/* The JIT's inner dry run, then the real one with its offsets. */
	m->rec = false;
	ofs[LDMB_FSP] = m->sz;
	ldmb_fast(m, sreg, mode, sz, imm, ofs, rj);
	ofs[LDMB_SLP] = m->sz;
	ldmb_slow(m, sz);
	ofs[LDMB_FIN] = m->sz;
	ldmb_fin(m, opsz, sz);
	m->rec = rec;
	m->sz = ofs[LDMB_FSP];
	ldmb_fast(m, sreg, mode, sz, imm, ofs, rj);
	if (rec && !m->oom)
		m->j[rj[0]].tgt = (uint32_t)m->sz;
	ldmb_slow(m, sz);
	if (rec && !m->oom)
		m->j[rj[1]].tgt = (uint32_t)m->sz;
	ldmb_fin(m, opsz, sz);
}

static unsigned int
spills(const struct jm *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < RTE_DIM(save_regs); i++)
		n += (m->reguse >> save_regs[i]) & 1;
	return n;
}

static void
prolog(struct jm *m, uint32_t stack_sz)
{
	unsigned int i, n = spills(m);
	int32_t ofs = 0;

	if (n == 0)
		return;
	alu_imm(m, EBPF_ALU64 | BPF_SUB | BPF_K, RSP, (int32_t)(n * 8));
	for (i = 0; i < RTE_DIM(save_regs); i++) {
		if ((m->reguse >> save_regs[i]) & 1) {
			st_common(m, BPF_STX | BPF_MEM | EBPF_DW, save_regs[i], RSP, ofs);
			ofs += 8;
		}
	}
	if ((m->reguse >> RBP) & 1) {
		mov_reg(m, EBPF_ALU64 | EBPF_MOV | BPF_X, RSP, RBP);
		alu_imm(m, EBPF_ALU64 | BPF_SUB | BPF_K, RSP, (int32_t)stack_sz);
	}
}

static void
epilog(struct jm *m)
{
	unsigned int i, n;
	int32_t ofs = 0;

	if (m->exit_num++ != 0) {
		abs_jmp(m, m->exit_off, J_EXIT, 0);
		return;
	}
	m->exit_off = (int32_t)m->sz;
	m->first_exit = m->idx;
	n = spills(m);
	if (n != 0) {
		if ((m->reguse >> RBP) & 1)
			mov_reg(m, EBPF_ALU64 | EBPF_MOV | BPF_X, RBP, RSP);
		for (i = 0; i < RTE_DIM(save_regs); i++) {
			if ((m->reguse >> save_regs[i]) & 1) {
				ld_reg(m, BPF_LDX | BPF_MEM | EBPF_DW, RSP, save_regs[i], ofs);
				ofs += 8;
			}
		}
		alu_imm(m, EBPF_ALU64 | BPF_ADD | BPF_K, RSP, (int32_t)(n * 8));
	}
	b(m, 1);				/* ret */
}

/* One pass of bpf_jit_x86.c's emit(). */
static int
pass(struct jm *m, const struct ebpf_insn *ins, uint32_t n, uint32_t stack_sz)
{
	uint32_t i;

	m->sz = 0;
	m->exit_num = 0;
	m->stack_ofs = stack_sz;
	prolog(m, stack_sz);
	for (i = 0; i < n; i++) {
		const struct ebpf_insn *p = &ins[i];
		uint32_t op = p->code, dr, sr;

		if (p->dst_reg >= EBPF_REG_NUM || p->src_reg >= EBPF_REG_NUM)
			return -ENOTSUP;
		m->idx = i;
		m->off[i] = (int32_t)m->sz;
		dr = x86[p->dst_reg];
		sr = x86[p->src_reg];
		switch (op) {
		case BPF_ALU | BPF_ADD | BPF_K: case BPF_ALU | BPF_SUB | BPF_K:
		case BPF_ALU | BPF_AND | BPF_K: case BPF_ALU | BPF_OR | BPF_K:
		case BPF_ALU | BPF_XOR | BPF_K:
		case EBPF_ALU64 | BPF_ADD | BPF_K: case EBPF_ALU64 | BPF_SUB | BPF_K:
		case EBPF_ALU64 | BPF_AND | BPF_K: case EBPF_ALU64 | BPF_OR | BPF_K:
		case EBPF_ALU64 | BPF_XOR | BPF_K:
			alu_imm(m, op, dr, p->imm);
			break;
		case BPF_ALU | BPF_LSH | BPF_K: case BPF_ALU | BPF_RSH | BPF_K:
		case EBPF_ALU64 | BPF_LSH | BPF_K: case EBPF_ALU64 | BPF_RSH | BPF_K:
		case EBPF_ALU64 | EBPF_ARSH | BPF_K:
			shift(m, op, dr);
			b(m, isz(p->imm));
			break;
		case BPF_ALU | EBPF_MOV | BPF_K: case EBPF_ALU64 | EBPF_MOV | BPF_K:
			mov_imm(m, op, dr, p->imm);
			break;
		case BPF_ALU | BPF_ADD | BPF_X: case BPF_ALU | BPF_SUB | BPF_X:
		case BPF_ALU | BPF_AND | BPF_X: case BPF_ALU | BPF_OR | BPF_X:
		case BPF_ALU | BPF_XOR | BPF_X:
		case EBPF_ALU64 | BPF_ADD | BPF_X: case EBPF_ALU64 | BPF_SUB | BPF_X:
		case EBPF_ALU64 | BPF_AND | BPF_X: case EBPF_ALU64 | BPF_OR | BPF_X:
		case EBPF_ALU64 | BPF_XOR | BPF_X:
			alu_reg(m, op, sr, dr);
			break;
		case BPF_ALU | BPF_LSH | BPF_X: case BPF_ALU | BPF_RSH | BPF_X:
		case EBPF_ALU64 | BPF_LSH | BPF_X: case EBPF_ALU64 | BPF_RSH | BPF_X:
		case EBPF_ALU64 | EBPF_ARSH | BPF_X:
			shift_reg(m, op, sr, dr);
			break;
		case BPF_ALU | EBPF_MOV | BPF_X: case EBPF_ALU64 | EBPF_MOV | BPF_X:
			mov_reg(m, op, sr, dr);
			break;
		case BPF_ALU | BPF_NEG: case EBPF_ALU64 | BPF_NEG:
			rex(m, op, 0, dr);
			b(m, 2);
			break;
		case BPF_ALU | EBPF_END | EBPF_TO_BE:
			be2le(m, dr, (uint32_t)p->imm);
			break;
		case BPF_ALU | EBPF_END | EBPF_TO_LE:
			le2be(m, dr, (uint32_t)p->imm);
			break;
		case BPF_ALU | BPF_MUL | BPF_K: case BPF_ALU | BPF_MUL | BPF_X:
		case EBPF_ALU64 | BPF_MUL | BPF_K: case EBPF_ALU64 | BPF_MUL | BPF_X:
			mul(m, op, sr, dr, p->imm);
			break;
		case BPF_ALU | BPF_DIV | BPF_K: case BPF_ALU | BPF_MOD | BPF_K:
		case BPF_ALU | BPF_DIV | BPF_X: case BPF_ALU | BPF_MOD | BPF_X:
		case EBPF_ALU64 | BPF_DIV | BPF_K: case EBPF_ALU64 | BPF_MOD | BPF_K:
		case EBPF_ALU64 | BPF_DIV | BPF_X: case EBPF_ALU64 | BPF_MOD | BPF_X:
			divmod(m, op, sr, dr, p->imm);
			break;
		case BPF_LDX | BPF_MEM | BPF_B: case BPF_LDX | BPF_MEM | BPF_H:
		case BPF_LDX | BPF_MEM | BPF_W: case BPF_LDX | BPF_MEM | EBPF_DW:
			ld_reg(m, op, sr, dr, p->off);
			break;
		case BPF_LD | BPF_IMM | EBPF_DW:
			if (i + 1 >= n)
				return -ENOTSUP;
			ld_imm64(m, dr, (uint32_t)p[0].imm, (uint32_t)p[1].imm);
			i++;
			break;
		case BPF_LD | BPF_ABS | BPF_B: case BPF_LD | BPF_ABS | BPF_H:
		case BPF_LD | BPF_ABS | BPF_W: case BPF_LD | BPF_IND | BPF_B:
		case BPF_LD | BPF_IND | BPF_H: case BPF_LD | BPF_IND | BPF_W:
			ld_mbuf(m, op, sr, p->imm);
			break;
		case BPF_STX | BPF_MEM | BPF_B: case BPF_STX | BPF_MEM | BPF_H:
		case BPF_STX | BPF_MEM | BPF_W: case BPF_STX | BPF_MEM | EBPF_DW:
			st_common(m, op, sr, dr, p->off);
			break;
		case BPF_ST | BPF_MEM | BPF_B: case BPF_ST | BPF_MEM | BPF_H:
		case BPF_ST | BPF_MEM | BPF_W: case BPF_ST | BPF_MEM | EBPF_DW:
			st_common(m, op, 0, dr, p->off);
			break;
		case BPF_STX | EBPF_XADD | BPF_W: case BPF_STX | EBPF_XADD | EBPF_DW:
			xadd(m, op, sr, dr, p->off);
			break;
		case BPF_JMP | BPF_JA:
			if ((int64_t)i + p->off + 1 < 0 || i + p->off + 1 >= n)
				return -ENOTSUP;
			jmp_insn(m, p->off + 1);
			break;
		case BPF_JMP | BPF_JEQ | BPF_K: case BPF_JMP | EBPF_JNE | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K: case BPF_JMP | EBPF_JLT | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K: case BPF_JMP | EBPF_JLE | BPF_K:
		case BPF_JMP | EBPF_JSGT | BPF_K: case BPF_JMP | EBPF_JSLT | BPF_K:
		case BPF_JMP | EBPF_JSGE | BPF_K: case BPF_JMP | EBPF_JSLE | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K:
			if ((int64_t)i + p->off + 1 < 0 || i + p->off + 1 >= n)
				return -ENOTSUP;
			alu_imm(m, EBPF_ALU64, dr, p->imm);	/* cmp / test */
			jcc_insn(m, op, p->off + 1);
			break;
		case BPF_JMP | BPF_JEQ | BPF_X: case BPF_JMP | EBPF_JNE | BPF_X:
		case BPF_JMP | BPF_JGT | BPF_X: case BPF_JMP | EBPF_JLT | BPF_X:
		case BPF_JMP | BPF_JGE | BPF_X: case BPF_JMP | EBPF_JLE | BPF_X:
		case BPF_JMP | EBPF_JSGT | BPF_X: case BPF_JMP | EBPF_JSLT | BPF_X:
		case BPF_JMP | EBPF_JSGE | BPF_X: case BPF_JMP | EBPF_JSLE | BPF_X:
		case BPF_JMP | BPF_JSET | BPF_X:
			if ((int64_t)i + p->off + 1 < 0 || i + p->off + 1 >= n)
				return -ENOTSUP;
			alu_reg(m, EBPF_ALU64, sr, dr);		/* cmp / test */
			jcc_insn(m, op, p->off + 1);
			break;
		case BPF_JMP | EBPF_EXIT:
			epilog(m);
			break;
		default:	/* calls (pktpath loads none) and what the JIT refuses */
			return -ENOTSUP;
		}
	}
	return m->oom ? -ENOMEM : 0;
}

/* The whole of bpf_jit_x86(): sizing loop, then the final pass, recorded. */
static int
predict(const struct ebpf_insn *ins, uint32_t n, uint32_t stack_sz,
	struct jm *m, struct __pktbpf_jit_layout *l)
{
	int64_t prev;
	uint32_t i;
	int rc;

	memset(m, 0, sizeof(*m));
	memset(l, 0, sizeof(*l));
	if (n == 0)
		return -ENOTSUP;
	m->off = malloc(sizeof(*m->off) * n);
	if (m->off == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		m->off[i] = INT32_MAX;
	m->exit_off = INT32_MAX;
	do {
		prev = m->sz;
		rc = pass(m, ins, n, stack_sz);
		l->passes++;
	} while (rc == 0 && prev != m->sz && l->passes < 1000);
	if (rc != 0)
		return rc;
	if (l->passes >= 1000)
		return -ENOTSUP;	/* the JIT would loop too: never seen */
	l->alloc_sz = (size_t)m->sz;
	m->rec = true;
	rc = pass(m, ins, n, stack_sz);
	if (rc != 0)
		return rc;
	l->n = n;
	l->final_sz = (size_t)m->sz;
	for (i = 0; i < m->nj; i++) {
		struct jrec *r = &m->j[i];

		if (r->kind == J_INSN)
			r->tgt = (uint32_t)m->off[r->tgt];
		else if (r->kind == J_EXIT)
			r->tgt = (uint32_t)m->exit_off;
		if (r->kind == J_EXIT)
			r->to = m->first_exit;
		r->kind = J_ABS;
		if (r->used != (int64_t)r->tgt && l->wrong_jumps++ == 0) {
			l->wrong_from = r->from;
			l->wrong_to = r->to;
		}
	}
	l->wrong = l->wrong_jumps != 0 || l->final_sz != l->alloc_sz;
	return 0;
}

static void
jm_free(struct jm *m)
{
	free(m->off);
	free(m->j);
}

int
__pktbpf_jit_predict(const struct ebpf_insn *ins, uint32_t n, uint32_t stack_sz,
		     struct __pktbpf_jit_layout *l)
{
	struct jm m;
	int rc = predict(ins, n, stack_sz, &m, l);

	jm_free(&m);
	return rc;
}

int
__pktbpf_jit_model(const struct ebpf_insn *ins, uint32_t n, uint32_t stack_sz,
		   struct __pktbpf_jit_layout *l, struct __pktbpf_jit_jump **jumps,
		uint32_t *nj, unsigned int *n_spills, bool *rbp)
{
	struct jm m;
	uint32_t i;
	int rc = predict(ins, n, stack_sz, &m, l);

	*jumps = NULL;
	*nj = 0;
	if (rc == 0 && m.nj > 0) {
		*jumps = malloc(sizeof(**jumps) * m.nj);
		if (*jumps == NULL)
			rc = -ENOMEM;
	}
	for (i = 0; rc == 0 && i < m.nj; i++)
		(*jumps)[i] = (struct __pktbpf_jit_jump){ .pos = m.j[i].pos,
			.size = m.j[i].size, .cc = m.j[i].cc, .tgt = m.j[i].tgt,
			.lands = m.j[i].used, .from = m.j[i].from, .to = m.j[i].to };
	if (rc == 0) {
		*nj = m.nj;
		*n_spills = spills(&m);
		*rbp = (m.reguse >> RBP) & 1;
	}
	jm_free(&m);
	return rc;
}
