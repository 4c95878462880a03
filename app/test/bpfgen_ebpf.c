/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Random loop-free eBPF programs within what rte_bpf (DPDK 22.11) accepts,
 * and a reference interpreter of the eBPF instruction set, for the
 * generated test of the bpf kind (test_bpf.c).
 *
 * A program is a list of units (short straight sequences; a jump only ever
 * lands on a unit's start, so sequences that must stay together do):
 * register set-up, then random units -- ALU of every operator, byte
 * swaps, context loads, stack stores/loads/atomic adds (also through a
 * register derived from r10), LD_IMM64, conditional jumps to any later
 * unit (near and far), if/else diamonds with "ja" -- and one exit.
 */
#include <stdlib.h>
#include <string.h>

#include "bpfgen.h"

#define CTX_SIZE 2056
#define SLOTS 16
#define MAX_UNITS 512

struct unit {
	uint32_t start, n;
	int32_t target;		/* unit index the last instruction jumps to, -1 */
};

struct pg {
	struct gen_rng *r;
	struct ebpf_insn *ins;
	uint32_t n, max;
	struct unit u[MAX_UNITS];
	uint32_t nu;
	uint8_t regs[10];	/* the registers this program computes with */
	uint32_t nregs;
	uint8_t slot_size[SLOTS + 1];	/* slot k at r10 - 8k */
	uint32_t jumps;		/* jumps that multiply paths, left: rte_bpf's
				   verifier walks every path, so a handful */
	bool big;		/* long, with many jumps to the exit */
};

static void
ins(struct pg *p, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	if (p->n < p->max)
		p->ins[p->n++] = (struct ebpf_insn){ .code = code, .dst_reg = dst,
			.src_reg = src, .off = off, .imm = imm };
}

static struct unit *
unit_begin(struct pg *p)
{
	struct unit *u = &p->u[p->nu < MAX_UNITS ? p->nu : MAX_UNITS - 1];

	u->start = p->n;
	u->target = -1;
	return u;
}

static void
unit_end(struct pg *p, struct unit *u)
{
	u->n = p->n - u->start;
	if (p->nu < MAX_UNITS)
		p->nu++;
}

static uint8_t
reg(struct pg *p)
{
	return p->regs[gen_below(p->r, p->nregs)];
}

static int32_t
imm(struct gen_rng *r)
{
	static const int32_t v[] = { 0, 1, -1, 2, 7, 8, 31, 32, 63, 64, 100, 127,
		128, -128, -129, 255, 256, 0x7fff, 0x8000, 0xffff, 0x10000,
		0x7fffffff, INT32_MIN };

	return gen_pct(r, 70) ? v[gen_below(r, sizeof(v) / sizeof(v[0]))] :
	       (int32_t)(uint32_t)gen_u64(r);
}

static void
alu(struct pg *p)
{
	static const uint8_t ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR,
		BPF_AND, BPF_LSH, BPF_RSH, BPF_NEG, BPF_MOD, BPF_XOR, EBPF_MOV, EBPF_ARSH };
	struct gen_rng *r = p->r;
	uint8_t op = ops[gen_below(r, sizeof(ops))], cls = gen_pct(r, 50) ? EBPF_ALU64 : BPF_ALU;
	uint8_t d = reg(p), s = reg(p);
	bool x = gen_pct(r, 50);
	uint32_t width = cls == EBPF_ALU64 ? 64 : 32;
	int32_t k = imm(r);

	if (op == EBPF_ARSH)
		cls = EBPF_ALU64, width = 64;	/* 22.11's JIT has no 32-bit ARSH */
	if (op == BPF_NEG) {
		ins(p, cls | BPF_NEG, d, 0, 0, 0);
		return;
	}
	if (op == BPF_DIV || op == BPF_MOD) {
		if (x)
			ins(p, EBPF_ALU64 | BPF_OR | BPF_K, s, 0, 0, 1);
		else if (k == 0)
			k = 3;
	}
	if (op == BPF_LSH || op == BPF_RSH || op == EBPF_ARSH) {
		if (x)
			ins(p, EBPF_ALU64 | BPF_AND | BPF_K, s, 0, 0, (int32_t)width - 1);
		else
			k = (int32_t)gen_below(r, width);
	}
	if (x)
		ins(p, cls | op | BPF_X, d, s, 0, 0);
	else
		ins(p, cls | op | BPF_K, d, 0, 0, k);
}

static void
endian(struct pg *p)
{
	static const int32_t w[] = { 16, 32, 64 };

	ins(p, BPF_ALU | EBPF_END | (gen_pct(p->r, 50) ? EBPF_TO_BE : EBPF_TO_LE),
	    reg(p), 0, 0, w[gen_below(p->r, 3)]);
}

static const uint8_t size_code[] = { BPF_B, BPF_H, BPF_W, EBPF_DW };
static const uint8_t size_len[] = { 1, 2, 4, 8 };

static void
ctx_load(struct pg *p)
{
	uint32_t z = gen_below(p->r, 4);
	uint32_t off = gen_pct(p->r, 60) ? gen_below(p->r, 80) :
		       gen_below(p->r, CTX_SIZE - size_len[z] + 1);

	if (off + size_len[z] > CTX_SIZE)
		off = CTX_SIZE - size_len[z];
	ins(p, BPF_LDX | BPF_MEM | size_code[z], reg(p), EBPF_REG_1, (int16_t)off, 0);
}

static uint32_t
size_idx(uint8_t len)
{
	return len == 1 ? 0 : len == 2 ? 1 : len == 4 ? 2 : 3;
}

static void
stack_op(struct pg *p)
{
	struct gen_rng *r = p->r;
	uint32_t k = 1 + gen_below(r, SLOTS), z = size_idx(p->slot_size[k]);
	int16_t off = (int16_t)(-8 * (int)k);
	uint8_t t, v;

	switch (gen_below(r, 5)) {
	case 0:		/* load, any size up to the slot's */
		ins(p, BPF_LDX | BPF_MEM | size_code[gen_below(r, z + 1)], reg(p),
		    EBPF_REG_10, off, 0);
		break;
	case 1:
		ins(p, BPF_STX | BPF_MEM | size_code[z], EBPF_REG_10, reg(p), off, 0);
		break;
	case 2:
		ins(p, BPF_ST | BPF_MEM | size_code[z], EBPF_REG_10, 0, off, imm(r));
		break;
	case 3:		/* atomic add, on 4- and 8-byte slots */
		if (z >= 2)
			ins(p, BPF_STX | EBPF_XADD | size_code[z], EBPF_REG_10, reg(p), off, 0);
		else
			ins(p, BPF_LDX | BPF_MEM | size_code[z], reg(p), EBPF_REG_10, off, 0);
		break;
	default:	/* through a register derived from r10, then scalar again */
		t = p->regs[1 + gen_below(r, p->nregs - 1)];	/* not r0 */
		v = reg(p);
		if (v == t)
			v = EBPF_REG_0;
		ins(p, EBPF_ALU64 | EBPF_MOV | BPF_X, t, EBPF_REG_10, 0, 0);
		ins(p, EBPF_ALU64 | BPF_ADD | BPF_K, t, 0, 0, off + 8);
		ins(p, BPF_STX | BPF_MEM | size_code[z], t, v, -8, 0);
		ins(p, BPF_LDX | BPF_MEM | size_code[z], t, t, -8, 0);
		break;
	}
}

static void
ld_imm64(struct pg *p)
{
	uint64_t v = gen_u64(p->r);

	ins(p, BPF_LD | BPF_IMM | EBPF_DW, reg(p), 0, 0, (int32_t)(uint32_t)v);
	ins(p, 0, 0, 0, 0, (int32_t)(uint32_t)(v >> 32));
}

static void
jcc(struct pg *p)
{
	static const uint8_t ops[] = { BPF_JEQ, EBPF_JNE, BPF_JGT, EBPF_JLT, BPF_JGE,
		EBPF_JLE, EBPF_JSGT, EBPF_JSLT, EBPF_JSGE, EBPF_JSLE, BPF_JSET, BPF_JSET };
	struct gen_rng *r = p->r;
	uint8_t op = ops[gen_below(r, sizeof(ops))];
	int32_t k = op == BPF_JSET && gen_pct(r, 60) ? (int32_t)gen_below(r, 256) - 128 : imm(r);

	if (gen_pct(r, 40))
		ins(p, BPF_JMP | op | BPF_X, reg(p), reg(p), 0, 0);
	else
		ins(p, BPF_JMP | op | BPF_K, reg(p), 0, 0, k);
}

static void body(struct pg *p, uint32_t units, int depth);

static void
one_unit(struct pg *p, int depth)
{
	struct gen_rng *r = p->r;
	uint32_t k = gen_below(r, 100);
	struct unit *u;

	if (p->big && gen_pct(r, 25)) {		/* far, to the exit: one more path */
		u = unit_begin(p);
		jcc(p);
		u->target = -3;
		unit_end(p, u);
		return;
	}
	if (k < 30 && p->jumps == 0)
		k = 30 + gen_below(r, 70);
	if (k < 30)
		p->jumps--;
	if (k < 12 && depth < 3 && p->nu + 8 < MAX_UNITS) {	/* if/else */
		struct unit *j = unit_begin(p);
		uint32_t ju = p->nu, ja;

		jcc(p);
		unit_end(p, j);
		body(p, 1 + gen_below(r, 4), depth + 1);
		u = unit_begin(p);
		ja = p->nu;
		ins(p, BPF_JMP | BPF_JA, 0, 0, 0, 0);
		unit_end(p, u);
		p->u[ju].target = (int32_t)p->nu;	/* the else part */
		body(p, 1 + gen_below(r, 4), depth + 1);
		p->u[ja].target = (int32_t)p->nu;	/* after it */
		return;
	}
	u = unit_begin(p);
	if (k < 30) {
		jcc(p);
		u->target = -2;				/* any later unit: below */
	} else if (k < 62) {
		alu(p);
	} else if (k < 67) {
		endian(p);
	} else if (k < 80) {
		ctx_load(p);
	} else if (k < 94) {
		stack_op(p);
	} else {
		ld_imm64(p);
	}
	unit_end(p, u);
}

static void
body(struct pg *p, uint32_t units, int depth)
{
	while (units-- > 0 && p->nu + 4 < MAX_UNITS && p->n + 16 < p->max)
		one_unit(p, depth);
}

uint32_t
gen_ebpf(struct gen_rng *r, struct ebpf_insn *out, uint32_t max)
{
	static const uint8_t all[] = { 0, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct pg *p = calloc(1, sizeof(*p));
	uint32_t i, k, exit_unit = 0, end_unit, skip = 0;
	struct unit *u;
	bool big, early;

	if (p == NULL)
		return 0;
	p->r = r;
	p->ins = out;
	p->max = max;
	/* Most programs have a handful of jumps; some have dozens over a long
	 * body, where DPDK's JIT sizing goes wrong (fault C). */
	big = p->big = gen_pct(r, 25);
	p->jumps = 2 + gen_below(r, 12);
	/* r0 and a random subset of r2-r9 (some programs leave registers free,
	 * which the jset rewrite needs). */
	p->regs[p->nregs++] = EBPF_REG_0;
	for (k = 1; k < sizeof(all); k++)
		if (gen_pct(r, 65))
			p->regs[p->nregs++] = all[k];
	if (p->nregs < 3) {
		p->regs[p->nregs++] = EBPF_REG_2;
		p->regs[p->nregs++] = EBPF_REG_7;
	}
	u = unit_begin(p);
	for (k = 0; k < p->nregs; k++) {
		if (gen_pct(r, 30))
			ld_imm64(p), p->ins[p->n - 2].dst_reg = p->regs[k];
		else
			ins(p, EBPF_ALU64 | EBPF_MOV | BPF_K, p->regs[k], 0, 0, imm(r));
	}
	for (k = 1; k <= SLOTS; k++) {
		p->slot_size[k] = k <= 12 ? 8 : size_len[(k - 13) & 3];
		ins(p, BPF_STX | BPF_MEM | size_code[size_idx(p->slot_size[k])],
		    EBPF_REG_10, reg(p), (int16_t)(-8 * (int)k), 0);
	}
	unit_end(p, u);
	/* The exit either last, or (as clang lays out shared blocks) right
	 * after the set-up, jumped over, and reached by jumps back to it. */
	early = gen_pct(r, 20);
	if (early) {
		u = unit_begin(p);
		skip = p->nu;
		ins(p, BPF_JMP | BPF_JA, 0, 0, 0, 0);
		unit_end(p, u);
		exit_unit = p->nu;
		u = unit_begin(p);
		ins(p, BPF_JMP | EBPF_EXIT, 0, 0, 0, 0);
		unit_end(p, u);
		p->u[skip].target = (int32_t)p->nu;
	}
	body(p, 5 + gen_below(r, big ? 300 : 60), 0);
	end_unit = p->nu;
	u = unit_begin(p);
	if (early) {
		ins(p, BPF_JMP | BPF_JA, 0, 0, 0, 0);
		u->target = (int32_t)exit_unit;
	} else {
		exit_unit = end_unit;
		ins(p, BPF_JMP | EBPF_EXIT, 0, 0, 0, 0);
	}
	unit_end(p, u);
	/* Resolve: random jumps to any later unit, some far. */
	for (i = 0; i < p->nu; i++) {
		struct unit *x = &p->u[i];
		int32_t t = x->target;
		struct ebpf_insn *j;

		if (t == -1)
			continue;
		if (t == -3)
			t = (int32_t)exit_unit;
		if (t == -2) {
			uint32_t span = end_unit - i;

			t = (int32_t)(i + 1 + (gen_pct(r, 70) ? gen_below(r, span < 6 ? span : 6) :
					       gen_below(r, span)));
		}
		j = &p->ins[x->start + x->n - 1];
		j->off = (int16_t)((int32_t)p->u[t].start - (int32_t)(x->start + x->n));
	}
	k = p->n;
	free(p);
	return k;
}

/* ---- the reference interpreter ---- */

static int
mem_ok(uint64_t a, uint32_t len, const uint8_t *ctx, size_t clen, const uint8_t *stk)
{
	uintptr_t c = (uintptr_t)ctx, s = (uintptr_t)stk;

	return (a >= c && a + len <= c + clen) || (a >= s && a + len <= s + 512);
}

static uint64_t
rd(uint64_t a, uint32_t len)
{
	uint64_t v = 0;

	memcpy(&v, (const void *)(uintptr_t)a, len);	/* little endian */
	return v;
}

static void
wr(uint64_t a, uint32_t len, uint64_t v)
{
	memcpy((void *)(uintptr_t)a, &v, len);
}

static uint64_t
bswap(uint64_t v, int32_t w)
{
	if (w == 16)
		return __builtin_bswap16((uint16_t)v);
	if (w == 32)
		return __builtin_bswap32((uint32_t)v);
	return __builtin_bswap64(v);
}

uint64_t
ref_ebpf(const struct ebpf_insn *prog, uint32_t n, void *ctx, size_t ctx_len, int *ok)
{
	uint64_t reg[EBPF_REG_NUM] = { 0 };
	uint8_t stk[512];
	uint32_t pc = 0, steps = 0;

	memset(stk, 0, sizeof(stk));
	*ok = 1;
	reg[EBPF_REG_1] = (uintptr_t)ctx;
	reg[EBPF_REG_10] = (uintptr_t)(stk + sizeof(stk));
	while (pc < n) {
		const struct ebpf_insn *i = &prog[pc];
		uint8_t cls = BPF_CLASS(i->code), op = BPF_OP(i->code);
		uint64_t *d = &reg[i->dst_reg];
		uint64_t s = BPF_SRC(i->code) == BPF_X ? reg[i->src_reg] : (uint64_t)(int64_t)i->imm;
		uint32_t len = BPF_SIZE(i->code) == BPF_B ? 1 : BPF_SIZE(i->code) == BPF_H ? 2 :
			       BPF_SIZE(i->code) == BPF_W ? 4 : 8;
		uint64_t a;
		bool t;

		pc++;
		if (cls == BPF_ALU || cls == EBPF_ALU64) {
			bool w = cls == EBPF_ALU64;
			uint64_t x = w ? *d : (uint32_t)*d, y = w ? s : (uint32_t)s, v;

			switch (op) {
			case BPF_ADD: v = x + y; break;
			case BPF_SUB: v = x - y; break;
			case BPF_MUL: v = x * y; break;
			case BPF_DIV: if (!y) goto bad; v = x / y; break;
			case BPF_MOD: if (!y) goto bad; v = x % y; break;
			case BPF_OR: v = x | y; break;
			case BPF_AND: v = x & y; break;
			case BPF_XOR: v = x ^ y; break;
			case BPF_LSH: if (y >= (w ? 64u : 32u)) goto bad; v = x << y; break;
			case BPF_RSH: if (y >= (w ? 64u : 32u)) goto bad; v = x >> y; break;
			case EBPF_ARSH:
				if (!w || y >= 64) goto bad;
				v = (uint64_t)((int64_t)x >> y);
				break;
			case BPF_NEG: v = -x; break;
			case EBPF_MOV: v = y; break;
			case EBPF_END:
				if (BPF_SRC(i->code) == EBPF_TO_BE)
					v = bswap(*d, i->imm);
				else
					v = i->imm == 16 ? (uint16_t)*d : i->imm == 32 ?
					    (uint32_t)*d : *d;
				*d = v;
				continue;
			default: goto bad;
			}
			*d = w ? v : (uint32_t)v;
			continue;
		}
		switch (cls) {
		case BPF_LDX:
			a = reg[i->src_reg] + i->off;
			if (!mem_ok(a, len, ctx, ctx_len, stk))
				goto bad;
			*d = rd(a, len);
			continue;
		case BPF_STX:
		case BPF_ST:
			a = *d + i->off;
			if (!mem_ok(a, len, ctx, ctx_len, stk))
				goto bad;
			if (BPF_MODE(i->code) == EBPF_XADD)
				wr(a, len, rd(a, len) + reg[i->src_reg]);
			else
				wr(a, len, cls == BPF_STX ? reg[i->src_reg] : (uint64_t)(int64_t)i->imm);
			continue;
		case BPF_LD:
			if (i->code != (BPF_LD | BPF_IMM | EBPF_DW) || pc >= n)
				goto bad;
			*d = (uint32_t)i->imm | (uint64_t)(uint32_t)prog[pc].imm << 32;
			pc++;
			continue;
		case BPF_JMP:
			if (op == EBPF_EXIT)
				return reg[EBPF_REG_0];
			switch (op) {
			case BPF_JA: t = true; break;
			case BPF_JEQ: t = *d == s; break;
			case EBPF_JNE: t = *d != s; break;
			case BPF_JGT: t = *d > s; break;
			case EBPF_JLT: t = *d < s; break;
			case BPF_JGE: t = *d >= s; break;
			case EBPF_JLE: t = *d <= s; break;
			case EBPF_JSGT: t = (int64_t)*d > (int64_t)s; break;
			case EBPF_JSLT: t = (int64_t)*d < (int64_t)s; break;
			case EBPF_JSGE: t = (int64_t)*d >= (int64_t)s; break;
			case EBPF_JSLE: t = (int64_t)*d <= (int64_t)s; break;
			case BPF_JSET: t = (*d & s) != 0; break;
			default: goto bad;
			}
			if (t)
				pc = (uint32_t)((int64_t)pc + i->off);
			if (++steps > 1000000)
				goto bad;	/* a loop: gen_ebpf makes none */
			continue;
		default:
			goto bad;
		}
	}
bad:
	*ok = 0;
	return 0;
}
