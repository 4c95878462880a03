/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Classic BPF (what pcap_compile produces) to eBPF (what rte_bpf runs),
 * pktpath's own conversion, used instead of DPDK's rte_bpf_convert().
 *
 * It follows the shape of the Linux kernel's bpf_convert_filter()
 * (net/core/filter.c: A in r0, X in r7, the context in r6, a scratch
 * register, one eBPF block per classic instruction) with the semantics of
 * libpcap 1.10's interpreter (bpf_filter.c), which is the reference
 * tcpdump uses, and it never emits a form DPDK 22.11's x86 JIT gets wrong:
 *
 *  - Indirect loads "ld [x + k]" are indexed by X (rte_bpf_convert indexes
 *    byte and word loads by A: fault A). X + k is computed in 64 bits and
 *    checked when X can be large, so it never wraps in 32 bits as
 *    rte_bpf's offset arithmetic would; libpcap returns 0 then.
 *  - Loads past the frame return 0 from the filter (rte_bpf's LD_ABS does
 *    that itself); constant offsets beyond PKTBPF_CONV_OFF_MAX cannot be in
 *    any frame and become "return 0" (rte_bpf_convert refuses them, or
 *    takes them for Linux's ancillary-data offsets).
 *  - "jset #k" is always "mov r8, k; jset r0, r8" (the JIT encodes TEST
 *    with an 8-bit immediate, which x86 does not have: fault B); other
 *    compares with k >= 2^31 go through r8 as well (eBPF immediates are
 *    sign-extended, classic ones are not).
 *  - Shifts by X of 32 or more give 0, as libpcap's do (x86 and rte_bpf
 *    shift by X & 31: fault D). Shifts by a constant of 32 or more (which
 *    pcap_compile refuses to build) give 0 too.
 *  - Division and modulo by a zero X return 0 from the filter, as libpcap;
 *    the check is made here, so rte_bpf's own (which logs an error per
 *    packet in the interpreter) never fires.
 *  - M[] is zeroed in the prologue for every slot that some path reads
 *    before writing (libpcap leaves it uninitialised; rte_bpf's verifier
 *    refuses such reads: "geneve or vlan 200").
 *  - Only instructions reachable from the first are emitted (the verifier
 *    refuses unreachable code, which constant folding above creates).
 *  - A backward jump (libpcap's "protochain" loops) is not converted:
 *    -ENOTSUP, and bpfpcap.c runs such programs on the libpcap engine.
 *
 * A small interval analysis of A, X and M[] (forward, in instruction
 * order: classic jumps only go forward here) lets the common cases
 * ("ldxb 4*([14]&0xf); ldh [x + 16]") skip the 64-bit index check and the
 * division and shift checks.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/bpf.h>

#include <rte_mbuf.h>

#include "pktbpf_pvt.h"

#define R_A EBPF_REG_0
#define R_CTX EBPF_REG_6
#define R_X EBPF_REG_7
#define R_T EBPF_REG_8
#define R_FP EBPF_REG_10

#define MEMWORDS 16
#define U32MAX 0xffffffffull

/* Slot of M[k] on the eBPF stack. */
#define MEM_OFF(k) ((int16_t)(-8 * (MEMWORDS - (int)(k))))

/* [lo, hi] of a 32-bit value. */
struct ival {
	uint32_t lo, hi;
};

/* What the analysis knows at an instruction's entry. */
struct cstate {
	uint8_t valid;		/* reached by some path */
	uint16_t written;	/* M[] slots written on every path to here */
	struct ival a, x, m[MEMWORDS];
};

static const struct ival FULL = { 0, 0xffffffffu };

static struct ival
iv(uint64_t lo, uint64_t hi)
{
	struct ival r;

	if (hi > U32MAX || lo > hi)
		return FULL;
	r.lo = (uint32_t)lo;
	r.hi = (uint32_t)hi;
	return r;
}

static struct ival
ijoin(struct ival a, struct ival b)
{
	return iv(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

/* All ones up to the highest bit of v. */
static uint64_t
ones_to(uint64_t v)
{
	uint64_t m = 0;

	while (m < v)
		m = m << 1 | 1;
	return m;
}

static struct ival
ialu(uint16_t op, struct ival a, struct ival b)
{
	switch (op) {
	case BPF_ADD:
		return iv((uint64_t)a.lo + b.lo, (uint64_t)a.hi + b.hi);
	case BPF_SUB:
		if (a.lo >= b.hi)
			return iv((uint64_t)a.lo - b.hi, (uint64_t)a.hi - b.lo);
		return FULL;
	case BPF_MUL:
		return iv((uint64_t)a.lo * b.lo, (uint64_t)a.hi * b.hi);
	case BPF_DIV:
		return iv(b.hi ? a.lo / b.hi : 0, a.hi / (b.lo ? b.lo : 1));
	case BPF_MOD:
		return iv(0, b.hi ? (a.hi < b.hi - 1 ? a.hi : b.hi - 1) : 0);
	case BPF_AND:
		return iv(0, a.hi < b.hi ? a.hi : b.hi);
	case BPF_OR:
	case BPF_XOR:
		return iv(0, ones_to(a.hi > b.hi ? a.hi : b.hi));
	case BPF_LSH:
		if (b.hi >= 32)
			return b.lo >= 32 ? iv(0, 0) : FULL;
		return iv((uint64_t)a.lo << b.lo, (uint64_t)a.hi << b.hi);
	case BPF_RSH:
		if (b.hi >= 32)
			return iv(0, a.hi >> (b.lo < 32 ? b.lo : 31));
		return iv(a.lo >> b.hi, a.hi >> b.lo);
	default:
		return FULL;
	}
}

static struct ival
iload(uint16_t size)
{
	return size == BPF_B ? iv(0, 0xff) : size == BPF_H ? iv(0, 0xffff) : FULL;
}

/* Successors of instruction i: 0, 1 or 2 into s[]. -1 if malformed (a
 * jump out of the program, falling off its end), -2 for a backward jump. */
static int
succ(const struct bpf_insn *p, uint32_t len, uint32_t i, uint32_t s[2])
{
	const struct bpf_insn *f = &p[i];
	uint64_t t;

	switch (BPF_CLASS(f->code)) {
	case BPF_RET:
		return 0;
	case BPF_JMP:
		if (BPF_OP(f->code) == BPF_JA) {
			if ((int32_t)f->k < 0)
				return -2;
			t = (uint64_t)i + 1 + f->k;
			if (t >= len)
				return -1;
			s[0] = (uint32_t)t;
			return 1;
		}
		if ((uint64_t)i + 1 + f->jt >= len || (uint64_t)i + 1 + f->jf >= len)
			return -1;
		s[0] = i + 1 + f->jt;
		s[1] = i + 1 + f->jf;
		return s[0] == s[1] ? 1 : 2;
	default:
		if (i + 1 >= len)
			return -1;
		s[0] = i + 1;
		return 1;
	}
}

/* The opcodes libpcap's interpreter runs (and so the only ones accepted). */
static bool
known(const struct bpf_insn *f)
{
	switch (f->code) {
	case BPF_RET | BPF_K: case BPF_RET | BPF_A:
	case BPF_LD | BPF_W | BPF_ABS: case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS:
	case BPF_LD | BPF_W | BPF_IND: case BPF_LD | BPF_H | BPF_IND:
	case BPF_LD | BPF_B | BPF_IND:
	case BPF_LD | BPF_W | BPF_LEN: case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_MSH | BPF_B:
	case BPF_LD | BPF_IMM: case BPF_LDX | BPF_IMM:
	case BPF_MISC | BPF_TAX: case BPF_MISC | BPF_TXA:
	case BPF_JMP | BPF_JA:
	case BPF_ALU | BPF_NEG:
		return true;
	case BPF_LD | BPF_MEM: case BPF_LDX | BPF_MEM: case BPF_ST: case BPF_STX:
		return f->k < MEMWORDS;
	}
	if (BPF_CLASS(f->code) == BPF_JMP) {
		switch (BPF_OP(f->code)) {
		case BPF_JEQ: case BPF_JGT: case BPF_JGE: case BPF_JSET:
			return (f->code & ~(BPF_OP(f->code) | BPF_SRC(f->code))) == BPF_JMP;
		}
		return false;
	}
	if (BPF_CLASS(f->code) == BPF_ALU) {
		switch (BPF_OP(f->code)) {
		case BPF_ADD: case BPF_SUB: case BPF_MUL: case BPF_DIV:
		case BPF_MOD: case BPF_AND: case BPF_OR: case BPF_XOR:
		case BPF_LSH: case BPF_RSH:
			return (f->code & ~(BPF_OP(f->code) | BPF_SRC(f->code))) == BPF_ALU;
		}
	}
	return false;
}

/* Instructions on which every path returns 0 at once: loads that can never
 * be in a frame, division by zero (pcap_compile refuses to build the
 * constant cases, but the code must be right for any classic program).
 * They end their path: what follows them may be unreachable. */
static bool
ret0_always(const struct bpf_insn *f, const struct cstate *s)
{
	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS: case BPF_LD | BPF_W | BPF_IND:
		return f->k > PKTBPF_CONV_OFF_MAX - 4;
	case BPF_LD | BPF_H | BPF_ABS: case BPF_LD | BPF_H | BPF_IND:
		return f->k > PKTBPF_CONV_OFF_MAX - 2;
	case BPF_LD | BPF_B | BPF_ABS: case BPF_LD | BPF_B | BPF_IND:
	case BPF_LDX | BPF_MSH | BPF_B:
		return f->k > PKTBPF_CONV_OFF_MAX - 1;
	case BPF_ALU | BPF_DIV | BPF_K: case BPF_ALU | BPF_MOD | BPF_K:
		return f->k == 0;
	case BPF_ALU | BPF_DIV | BPF_X: case BPF_ALU | BPF_MOD | BPF_X:
		return s->x.hi == 0;
	}
	return false;
}

/* The state after instruction f, given the state s before it. */
static void
step(const struct bpf_insn *f, struct cstate *s)
{
	struct ival k = iv(f->k, f->k);

	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS: case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS: case BPF_LD | BPF_W | BPF_IND:
	case BPF_LD | BPF_H | BPF_IND: case BPF_LD | BPF_B | BPF_IND:
		s->a = iload(BPF_SIZE(f->code));
		break;
	case BPF_LD | BPF_W | BPF_LEN:
		s->a = FULL;
		break;
	case BPF_LDX | BPF_W | BPF_LEN:
		s->x = FULL;
		break;
	case BPF_LDX | BPF_MSH | BPF_B:
		s->x = iv(0, 60);
		break;
	case BPF_LD | BPF_IMM:
		s->a = k;
		break;
	case BPF_LDX | BPF_IMM:
		s->x = k;
		break;
	case BPF_LD | BPF_MEM:
		s->a = s->m[f->k];
		break;
	case BPF_LDX | BPF_MEM:
		s->x = s->m[f->k];
		break;
	case BPF_ST:
		s->m[f->k] = s->a;
		s->written |= 1u << f->k;
		break;
	case BPF_STX:
		s->m[f->k] = s->x;
		s->written |= 1u << f->k;
		break;
	case BPF_MISC | BPF_TAX:
		s->x = s->a;
		break;
	case BPF_MISC | BPF_TXA:
		s->a = s->x;
		break;
	case BPF_ALU | BPF_NEG:
		s->a = FULL;
		break;
	default:
		if (BPF_CLASS(f->code) == BPF_ALU)
			s->a = ialu(BPF_OP(f->code), s->a,
				    BPF_SRC(f->code) == BPF_X ? s->x : k);
		break;
	}
}

static void
merge(struct cstate *d, const struct cstate *s)
{
	unsigned int k;

	if (!d->valid) {
		*d = *s;
		return;
	}
	d->written &= s->written;
	d->a = ijoin(d->a, s->a);
	d->x = ijoin(d->x, s->x);
	for (k = 0; k < MEMWORDS; k++)
		d->m[k] = ijoin(d->m[k], s->m[k]);
}

/*
 * Run the analysis: st[i] is the state at i's entry (valid = reachable).
 * M[] starts as [0, 0] (the prologue zeroes what is read before written).
 * Returns 0, -1 (malformed: why set), -2 (backward jump at *bad).
 */
static int
analyse(const struct bpf_insn *p, uint32_t len, struct cstate *st,
	uint32_t *bad, char *why, size_t whylen)
{
	uint32_t i, s[2];
	int j, ns;

	if (len == 0) {
		snprintf(why, whylen, "empty program");
		return -1;
	}
	memset(st, 0, sizeof(*st) * len);
	st[0].valid = 1;
	for (i = 0; i < len; i++) {
		struct cstate out;

		if (!st[i].valid)
			continue;
		if (!known(&p[i])) {
			snprintf(why, whylen, "instruction %u: opcode 0x%02x, which "
				 "libpcap's interpreter does not run", i, p[i].code);
			return -1;
		}
		if (ret0_always(&p[i], &st[i]))
			continue;
		ns = succ(p, len, i, s);
		if (ns == -2) {
			*bad = i;
			return -2;
		}
		if (ns < 0) {
			snprintf(why, whylen, "instruction %u jumps or falls out of "
				 "the program", i);
			return -1;
		}
		out = st[i];
		step(&p[i], &out);
		for (j = 0; j < ns; j++)
			merge(&st[s[j]], &out);
	}
	return 0;
}

int
__pktbpf_cbpf_uninit_mem(const void *cbpf, uint32_t len, uint16_t *mask)
{
	const struct bpf_insn *p = cbpf;
	struct cstate *st;
	char why[128];
	uint32_t i, bad;
	int rc;

	*mask = 0;
	st = malloc(sizeof(*st) * (len ? len : 1));
	if (st == NULL)
		return -ENOMEM;
	/* Backward jumps (protochain) are fine here: the must-write analysis
	 * only needs the forward edges to be conservative when the loop body
	 * writes nothing that it reads first, which libpcap's loops satisfy;
	 * to stay safe, a backward jump marks every slot read. */
	rc = analyse(p, len, st, &bad, why, sizeof(why));
	if (rc == -1) {
		free(st);
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		uint16_t code = p[i].code;

		if (code != (BPF_LD | BPF_MEM) && code != (BPF_LDX | BPF_MEM))
			continue;
		if (p[i].k >= MEMWORDS) {
			free(st);
			return -EINVAL;
		}
		if (rc == -2 || !st[i].valid || !(st[i].written & (1u << p[i].k)))
			*mask |= 1u << p[i].k;
	}
	free(st);
	return 0;
}

/* ---- emission ---- */

enum { T_NONE, T_CBPF, T_RET0, T_REL };

struct emitter {
	struct ebpf_insn *ins;
	uint32_t n, cap;
	uint32_t *tkind;	/* per emitted jump: T_* */
	uint32_t *target;	/* classic index, or relative target */
	bool ret0_used;
	bool oom;
};

static uint32_t
put(struct emitter *e, uint8_t code, uint8_t dst, uint8_t src, int16_t off,
    int32_t imm, uint32_t tk, uint32_t tgt)
{
	if (e->n == e->cap) {
		uint32_t cap = e->cap ? e->cap * 2 : 256;
		struct ebpf_insn *ni = realloc(e->ins, sizeof(*ni) * cap);
		uint32_t *nk = realloc(e->tkind, sizeof(*nk) * cap);
		uint32_t *nt = realloc(e->target, sizeof(*nt) * cap);

		if (ni)
			e->ins = ni;
		if (nk)
			e->tkind = nk;
		if (nt)
			e->target = nt;
		if (!ni || !nk || !nt) {
			e->oom = true;
			return e->n;
		}
		e->cap = cap;
	}
	e->ins[e->n] = (struct ebpf_insn){ .code = code, .dst_reg = dst,
		.src_reg = src, .off = off, .imm = imm };
	e->tkind[e->n] = tk;
	e->target[e->n] = tgt;
	if (tk == T_RET0)
		e->ret0_used = true;
	return e->n++;
}

#define EMIT(e, code, dst, src, off, imm) put(e, code, dst, src, off, imm, T_NONE, 0)
#define MOV32K(e, d, k) EMIT(e, BPF_ALU | EBPF_MOV | BPF_K, d, 0, 0, (int32_t)(k))
#define MOV64X(e, d, s) EMIT(e, EBPF_ALU64 | EBPF_MOV | BPF_X, d, s, 0, 0)
#define TO_RET0(e) put(e, BPF_JMP | BPF_JA, 0, 0, 0, 0, T_RET0, 0)
#define TO_CBPF(e, code, dst, src, imm, t) put(e, code, dst, src, 0, imm, T_CBPF, t)

static const uint16_t ldsz[] = { [BPF_W >> 3] = 4, [BPF_H >> 3] = 2, [BPF_B >> 3] = 1 };

/* A = P[k:size] / A = P[X + k:size]. */
static void
emit_load(struct emitter *e, const struct bpf_insn *f, const struct cstate *s)
{
	uint32_t size = ldsz[BPF_SIZE(f->code) >> 3];
	uint8_t code = BPF_LD | BPF_SIZE(f->code) | BPF_MODE(f->code);

	if (BPF_MODE(f->code) == BPF_ABS) {
		EMIT(e, code, 0, 0, 0, (int32_t)f->k);
		return;
	}
	if ((uint64_t)s->x.hi + f->k + size <= PKTBPF_CONV_OFF_MAX) {
		EMIT(e, code, 0, R_X, 0, (int32_t)f->k);
		return;
	}
	/* r8 = X + k in 64 bits; past any frame: return 0 (never wraps). */
	MOV32K(e, R_T, f->k);
	EMIT(e, EBPF_ALU64 | BPF_ADD | BPF_X, R_T, R_X, 0, 0);
	put(e, BPF_JMP | BPF_JGT | BPF_K, R_T, 0, 0,
	    (int32_t)(PKTBPF_CONV_OFF_MAX - size), T_RET0, 0);
	EMIT(e, code, 0, R_T, 0, 0);
}

static void
emit_alu(struct emitter *e, const struct bpf_insn *f, const struct cstate *s)
{
	uint16_t op = BPF_OP(f->code);
	bool x = BPF_SRC(f->code) == BPF_X;
	uint8_t code = BPF_ALU | op | (x ? BPF_X : BPF_K);

	if (op == BPF_NEG) {
		EMIT(e, BPF_ALU | BPF_NEG, R_A, 0, 0, 0);
		return;
	}
	if (op == BPF_DIV || op == BPF_MOD) {
		if (x && s->x.lo == 0)		/* libpcap: X == 0 -> 0 */
			put(e, BPF_JMP | BPF_JEQ | BPF_K, R_X, 0, 0, 0, T_RET0, 0);
		EMIT(e, code, R_A, x ? R_X : 0, 0, x ? 0 : (int32_t)f->k);
		return;
	}
	if (op == BPF_LSH || op == BPF_RSH) {
		if (x ? s->x.lo >= 32 : f->k >= 32) {
			MOV32K(e, R_A, 0);	/* libpcap: shift by >= 32 -> 0 */
			return;
		}
		if (!x || s->x.hi < 32) {
			EMIT(e, code, R_A, x ? R_X : 0, 0, x ? 0 : (int32_t)f->k);
			return;
		}
		EMIT(e, BPF_JMP | BPF_JGT | BPF_K, R_X, 0, 2, 31);
		EMIT(e, code, R_A, R_X, 0, 0);
		EMIT(e, BPF_JMP | BPF_JA, 0, 0, 1, 0);
		MOV32K(e, R_A, 0);
		return;
	}
	EMIT(e, code, R_A, x ? R_X : 0, 0, x ? 0 : (int32_t)f->k);
}

/* Conditional jump to classic targets t (true) and fl (false); fl or t may
 * be the next classic instruction, which is emitted right after. */
static void
emit_jcc(struct emitter *e, const struct bpf_insn *f, uint32_t i)
{
	uint16_t op = BPF_OP(f->code);
	uint32_t t = i + 1 + f->jt, fl = i + 1 + f->jf;
	uint8_t src = 0, mode = BPF_K;
	int32_t imm = 0;

	if (t == fl) {
		if (t != i + 1)
			TO_CBPF(e, BPF_JMP | BPF_JA, 0, 0, 0, t);
		return;
	}
	if (BPF_SRC(f->code) == BPF_X) {
		src = R_X;
		mode = BPF_X;
	} else if (op == BPF_JSET || f->k > 0x7fffffffu) {
		/* jset: never the JIT's TEST-immediate (fault B); k >= 2^31:
		 * eBPF sign-extends immediates, classic compares unsigned. */
		MOV32K(e, R_T, f->k);
		src = R_T;
		mode = BPF_X;
	} else {
		imm = (int32_t)f->k;
	}
	if (f->jf == 0) {
		TO_CBPF(e, BPF_JMP | op | mode, R_A, src, imm, t);
		return;
	}
	if (f->jt == 0 && op != BPF_JSET) {
		uint16_t inv = op == BPF_JEQ ? EBPF_JNE : op == BPF_JGT ? EBPF_JLE :
			       EBPF_JLT;

		TO_CBPF(e, BPF_JMP | inv | mode, R_A, src, imm, fl);
		return;
	}
	TO_CBPF(e, BPF_JMP | op | mode, R_A, src, imm, t);
	TO_CBPF(e, BPF_JMP | BPF_JA, 0, 0, 0, fl);
}

static void
emit_one(struct emitter *e, const struct bpf_insn *f, uint32_t i,
	 const struct cstate *s)
{
	if (ret0_always(f, s)) {
		TO_RET0(e);		/* as libpcap: the filter returns 0 */
		return;
	}
	switch (f->code) {
	case BPF_RET | BPF_K:
		MOV32K(e, R_A, f->k);
		EMIT(e, BPF_JMP | EBPF_EXIT, 0, 0, 0, 0);
		return;
	case BPF_RET | BPF_A:
		EMIT(e, BPF_JMP | EBPF_EXIT, 0, 0, 0, 0);
		return;
	case BPF_LD | BPF_W | BPF_ABS: case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS: case BPF_LD | BPF_W | BPF_IND:
	case BPF_LD | BPF_H | BPF_IND: case BPF_LD | BPF_B | BPF_IND:
		emit_load(e, f, s);
		return;
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_W | BPF_LEN:
		EMIT(e, BPF_LDX | BPF_MEM | BPF_W, BPF_CLASS(f->code) == BPF_LD ?
		     R_A : R_X, R_CTX, (int16_t)offsetof(struct rte_mbuf, pkt_len), 0);
		return;
	case BPF_LDX | BPF_MSH | BPF_B:
		/* X = 4 * (P[k] & 0xf), A kept in r8 across the load. */
		MOV64X(e, R_T, R_A);
		EMIT(e, BPF_LD | BPF_ABS | BPF_B, 0, 0, 0, (int32_t)f->k);
		EMIT(e, BPF_ALU | BPF_AND | BPF_K, R_A, 0, 0, 0xf);
		EMIT(e, BPF_ALU | BPF_LSH | BPF_K, R_A, 0, 0, 2);
		MOV64X(e, R_X, R_A);
		MOV64X(e, R_A, R_T);
		return;
	case BPF_LD | BPF_IMM:
		MOV32K(e, R_A, f->k);
		return;
	case BPF_LDX | BPF_IMM:
		MOV32K(e, R_X, f->k);
		return;
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
		EMIT(e, BPF_LDX | BPF_MEM | BPF_W, BPF_CLASS(f->code) == BPF_LD ?
		     R_A : R_X, R_FP, MEM_OFF(f->k), 0);
		return;
	case BPF_ST:
	case BPF_STX:
		EMIT(e, BPF_STX | BPF_MEM | BPF_W, R_FP, BPF_CLASS(f->code) == BPF_ST ?
		     R_A : R_X, MEM_OFF(f->k), 0);
		return;
	case BPF_MISC | BPF_TAX:
		MOV64X(e, R_X, R_A);
		return;
	case BPF_MISC | BPF_TXA:
		MOV64X(e, R_A, R_X);
		return;
	case BPF_JMP | BPF_JA:
		if (f->k != 0)
			TO_CBPF(e, BPF_JMP | BPF_JA, 0, 0, 0, i + 1 + f->k);
		return;
	}
	if (BPF_CLASS(f->code) == BPF_JMP)
		emit_jcc(e, f, i);
	else
		emit_alu(e, f, s);
}

int
__pktbpf_convert(const void *cbpf, uint32_t len, struct ebpf_insn **out,
		 uint32_t *nout, char *why, size_t whylen)
{
	const struct bpf_insn *p = cbpf;
	struct emitter e;
	struct cstate *st;
	uint32_t *pos = NULL, i, k, bad = 0, ret0 = 0;
	uint16_t init = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	if (len > PKTBPF_CONV_MAX_INS) {
		snprintf(why, whylen, "%u classic instructions: more than %u", len,
			 PKTBPF_CONV_MAX_INS);
		return -ENOTSUP;
	}
	st = malloc(sizeof(*st) * (len ? len : 1));
	if (st == NULL)
		return -ENOMEM;
	rc = analyse(p, len, st, &bad, why, whylen);
	if (rc == -2) {
		snprintf(why, whylen, "instruction %u jumps backwards (ja %d, as "
			 "libpcap's protochain loops do): rte_bpf runs loop-free "
			 "programs only", bad, (int32_t)p[bad].k);
		free(st);
		return -ENOTSUP;
	}
	if (rc != 0) {
		free(st);
		return -ENOTSUP;
	}
	for (i = 0; i < len; i++)
		if (st[i].valid && (p[i].code == (BPF_LD | BPF_MEM) ||
				    p[i].code == (BPF_LDX | BPF_MEM)) &&
		    !(st[i].written & (1u << p[i].k)))
			init |= 1u << p[i].k;

	memset(&e, 0, sizeof(e));
	pos = calloc(len, sizeof(*pos));
	if (pos == NULL) {
		free(st);
		return -ENOMEM;
	}
	/* Prologue: the mbuf in r6, A = X = 0, M[] read before written = 0. */
	MOV64X(&e, R_CTX, EBPF_REG_1);
	MOV32K(&e, R_A, 0);
	MOV32K(&e, R_X, 0);
	for (k = 0; k < MEMWORDS; k++)
		if (init & (1u << k))
			EMIT(&e, BPF_ST | BPF_MEM | BPF_W, R_FP, 0, MEM_OFF(k), 0);
	for (i = 0; i < len; i++) {
		if (!st[i].valid)
			continue;
		pos[i] = e.n;
		emit_one(&e, &p[i], i, &st[i]);
	}
	if (e.ret0_used) {
		ret0 = e.n;
		MOV32K(&e, R_A, 0);
		EMIT(&e, BPF_JMP | EBPF_EXIT, 0, 0, 0, 0);
	}
	free(st);
	if (e.oom) {
		free(pos);
		free(e.ins);
		free(e.tkind);
		free(e.target);
		return -ENOMEM;
	}
	rc = 0;
	for (i = 0; i < e.n && rc == 0; i++) {
		int64_t d;

		if (e.tkind[i] == T_NONE)
			continue;
		d = (int64_t)(e.tkind[i] == T_RET0 ? ret0 : pos[e.target[i]]) - i - 1;
		if (d < INT16_MIN || d > INT16_MAX) {
			snprintf(why, whylen, "%u eBPF instructions: a jump is too "
				 "long for eBPF's 16-bit offsets", e.n);
			rc = -ENOTSUP;
		}
		e.ins[i].off = (int16_t)d;
	}
	if (rc == 0 && e.n > PKTBPF_CONV_MAX_INS) {
		snprintf(why, whylen, "%u eBPF instructions: more than %u", e.n,
			 PKTBPF_CONV_MAX_INS);
		rc = -ENOTSUP;
	}
	free(pos);
	free(e.tkind);
	free(e.target);
	if (rc != 0) {
		free(e.ins);
		return rc;
	}
	*out = e.ins;
	*nout = e.n;
	return 0;
}
