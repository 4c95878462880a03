/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The DPDK 22.11 x86 JIT's code, checked against bpfjit_model.c's
 * prediction; programs it would get wrong, settled.
 *
 * Why the check is sound: __pktbpf_jit_check() reads the real code and
 * requires (1) the real size to equal the predicted one and (2) at every
 * predicted jump position, the opcode of that jump and a displacement
 * landing exactly on the first native byte of the jump's target (an eBPF
 * instruction, the epilogue, or LD_ABS's slow path and load). If the
 * model were wrong about any size before a jump, that jump's bytes would
 * be read at the wrong place and fail the opcode or the landing test (to
 * pass, the wrong bytes would have to be that very jump to that very
 * target, at every jump), so a model error makes the check fail and the
 * interpreter is used. If the JIT did not converge (fault C), or a
 * backward rel8 overflowed (fault J), some jump lands elsewhere and the
 * check fails. Code that passes has the eBPF program's control flow
 * exactly; the straight-line code between jumps is the JIT's, trusted as
 * the differential tests check it (forms it encodes wrongly -- faults B, F,
 * G, I -- are never given to it: bpfconv.c does not emit them, bpfcheck.c
 * rewrites them).
 *
 * Prediction lets the loader avoid the faults instead of only detecting
 * them: __pktbpf_jit_settle() inserts no-op jumps where the prediction says a
 * different layout gets every jump right.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pktbpf_pvt.h"



static int32_t
rd32(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;

	return (int32_t)v;
}

/* 0, or -EFAULT with the first difference. */
static int
check_jumps(const struct __pktbpf_jit_jump *j, uint32_t nj,
	    const struct __pktbpf_jit_layout *l, const uint8_t *c, size_t sz,
	    char *why, size_t whylen)
{
	uint32_t i;

	if (l->final_sz != sz) {
		snprintf(why, whylen, "%zu bytes of code where %zu were predicted",
			 sz, l->final_sz);
		return -EFAULT;
	}
	for (i = 0; i < nj; i++) {
		const struct __pktbpf_jit_jump *r = &j[i];
		int64_t land;
		bool op;

		if ((size_t)r->pos + r->size > sz)
			goto bad;
		if (r->cc == PKTBPF_JIT_JMP)
			op = r->size == 2 ? c[r->pos] == 0xeb : c[r->pos] == 0xe9;
		else
			op = r->size == 2 ? c[r->pos] == (0x70 | r->cc) :
			     c[r->pos] == 0x0f && c[r->pos + 1] == (0x80 | r->cc);
		if (!op)
			goto bad;
		land = r->pos + r->size + (r->size == 2 ? (int8_t)c[r->pos + 1] :
					   rd32(&c[r->pos + r->size - 4]));
		if (land != (int64_t)r->tgt) {
			snprintf(why, whylen, "the native jump at +%u lands at +%" PRId64
				 " instead of +%u (%u of %u jumps predicted wrong: "
				 "offsets of an earlier sizing pass, or a backward rel8 "
				 "that overflows)", r->pos, land, r->tgt, l->wrong_jumps, nj);
			return -EFAULT;
		}
		continue;
bad:
		snprintf(why, whylen, "no %u-byte jump at +%u where one was predicted",
			 r->size, r->pos);
		return -EFAULT;
	}
	return 0;
}

/* The stack size in the prologue the JIT wrote (its last "sub $N, %rsp"),
 * or -1: what rte_bpf's verifier computed, which pktpath only estimates.
 * The prologue: sub $8n, %rsp (4 bytes); n stores of callee-saved
 * registers (5 bytes each); mov %rsp, %rbp (3); sub $N, %rsp. */
static int64_t
prologue_stack(unsigned int spills, bool rbp, const uint8_t *c, size_t sz)
{
	size_t p = 4 + 5 * (size_t)spills + 3;

	if (!rbp || spills == 0 || p + 4 > sz)
		return -1;
	if (c[p] == 0x48 && c[p + 1] == 0x83 && c[p + 2] == 0xec)
		return (int8_t)c[p + 3];
	if (c[p] == 0x48 && c[p + 1] == 0x81 && c[p + 2] == 0xec && p + 7 <= sz)
		return rd32(&c[p + 3]);
	return -1;
}

static int
model_and_check(const struct ebpf_insn *ins, uint32_t n, uint32_t stack_sz,
		const void *code, size_t sz, char *why, size_t whylen,
		int64_t *real)
{
	struct __pktbpf_jit_layout l;
	struct __pktbpf_jit_jump *j;
	unsigned int spills;
	uint32_t nj;
	bool rbp;
	int rc;

	rc = __pktbpf_jit_model(ins, n, stack_sz, &l, &j, &nj, &spills, &rbp);
	if (rc != 0) {
		snprintf(why, whylen, "no prediction for this program (%s)",
			 rc == -ENOMEM ? "out of memory" : "an instruction the "
			 "model does not know");
		return -EFAULT;
	}
	rc = check_jumps(j, nj, &l, code, sz, why, whylen);
	*real = rc != 0 ? prologue_stack(spills, rbp, code, sz) : -1;
	free(j);
	return rc;
}

int
__pktbpf_jit_check(const struct ebpf_insn *ins, uint32_t n, uint32_t stack_sz,
		   const void *code, size_t sz, char *why, size_t whylen)
{
	int64_t real;
	int rc;

	rc = model_and_check(ins, n, stack_sz, code, sz, why, whylen, &real);
	if (rc != 0 && real >= 0 && real != stack_sz)	/* again with the stack
							   size the verifier found */
		rc = model_and_check(ins, n, (uint32_t)real, code, sz, why, whylen,
				     &real);
	return rc;
}

struct ebpf_insn *
__pktbpf_insert_nop(const struct ebpf_insn *ins, uint32_t n, uint32_t pos)
{
	struct ebpf_insn *o = malloc(sizeof(*o) * (n + 1));
	uint32_t i;

	if (o == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		struct ebpf_insn x = ins[i];
		uint32_t ni = i < pos ? i : i + 1;
		uint8_t cls = BPF_CLASS(x.code);

		if (cls == BPF_JMP && BPF_OP(x.code) != EBPF_CALL &&
		    BPF_OP(x.code) != EBPF_EXIT) {
			/* A jump to pos lands on the nop (which falls through
			 * to the instruction): the nop stays reachable even
			 * after an exit or a ja. */
			int64_t t = (int64_t)i + x.off + 1;
			int64_t nt = t <= pos ? t : t + 1;

			x.off = (int16_t)(nt - ni - 1);
		}
		o[ni] = x;
	}
	o[pos] = (struct ebpf_insn){ .code = BPF_JMP | BPF_JA };
	return o;
}

/* Where a nop may go: not between the two halves of LD_IMM64. */
static bool
nop_ok(const struct ebpf_insn *ins, uint32_t pos)
{
	return pos == 0 || ins[pos - 1].code != (BPF_LD | BPF_IMM | EBPF_DW);
}

/* The layout with a no-op jump before instruction pos, if it has fewer
 * wrong jumps than best (then *best and the program are replaced). */
static int
try_nop(struct ebpf_insn **cur, uint32_t *n, uint32_t pos, uint32_t stack_sz,
	struct __pktbpf_jit_layout *best, bool *owned)
{
	struct __pktbpf_jit_layout l;
	struct ebpf_insn *c;

	if (pos >= *n || !nop_ok(*cur, pos))
		return 0;
	c = __pktbpf_insert_nop(*cur, *n, pos);
	if (c == NULL)
		return -ENOMEM;
	if (__pktbpf_jit_predict(c, *n + 1, stack_sz, &l) != 0 ||
	    (l.wrong && l.wrong_jumps >= best->wrong_jumps)) {
		free(c);
		return 0;
	}
	if (*owned)
		free(*cur);
	*cur = c;
	*n += 1;
	*owned = true;
	*best = l;
	return 1;
}

int
__pktbpf_jit_settle(struct ebpf_insn **ins, uint32_t *n, uint32_t stack_sz,
		    bool *owned)
{
	struct __pktbpf_jit_layout l;
	uint32_t round, k, lvl, j;
	int rc, moved = 0;

	rc = __pktbpf_jit_predict(*ins, *n, stack_sz, &l);
	if (rc == -ENOMEM)
		return rc;
	if (rc != 0 || !l.wrong)
		return 0;
	/* Greedy: a no-op between the first wrong jump and its target changes
	 * that distance (fault J, and the layouts fault C trips on); failing
	 * that, anywhere (0, n/2, n/4, 3n/4 ...). Keep what reduces the number
	 * of wrong jumps, until none is left. */
	for (round = 0; round < 16 && l.wrong; round++) {
		uint32_t lo = RTE_MIN(l.wrong_from, l.wrong_to) + 1;
		uint32_t hi = RTE_MAX(l.wrong_from, l.wrong_to);
		uint32_t span = hi >= lo ? hi - lo + 1 : 0;

		rc = 0;
		for (k = 0; k < span && k < 24 && rc == 0; k++)	/* mid, then out */
			rc = try_nop(ins, n, lo + (span / 2 + (k & 1 ? (k + 1) / 2 :
				     span - k / 2)) % span, stack_sz, &l, owned);
		for (k = 0; k < 32 && rc == 0; k++) {
			uint32_t pos = 0;

			if (k != 0) {	/* k = 2^lvl + j: (2j + 1) / 2^(lvl + 1) */
				for (lvl = 0; (2u << lvl) <= k; lvl++)
					;
				j = k - (1u << lvl);
				pos = (uint32_t)((uint64_t)*n * (2 * j + 1) >> (lvl + 1));
			}
			rc = try_nop(ins, n, pos, stack_sz, &l, owned);
		}
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
		moved = 1;
	}
	return l.wrong ? -EAGAIN : moved;
}

uint32_t
__pktbpf_stack_size(const struct ebpf_insn *ins, uint32_t n)
{
	int64_t fp[EBPF_REG_NUM];	/* r - r10, or INT64_MIN: unknown */
	int64_t deep = 0;
	bool ldmb = false;
	uint32_t i, r;

	for (r = 0; r < EBPF_REG_NUM; r++)
		fp[r] = INT64_MIN;
	fp[EBPF_REG_10] = 0;
	for (i = 0; i < n; i++) {
		const struct ebpf_insn *p = &ins[i];
		uint8_t cls = BPF_CLASS(p->code), d = p->dst_reg, s = p->src_reg;
		int64_t base = INT64_MIN;

		if (d >= EBPF_REG_NUM || s >= EBPF_REG_NUM)
			continue;
		if (BPF_MODE(p->code) == BPF_ABS || BPF_MODE(p->code) == BPF_IND) {
			if (cls == BPF_LD)
				ldmb = true;
		}
		if (cls == BPF_LDX && BPF_MODE(p->code) == BPF_MEM)
			base = fp[s];
		else if ((cls == BPF_ST || cls == BPF_STX) &&
			 (BPF_MODE(p->code) == BPF_MEM || BPF_MODE(p->code) == EBPF_XADD))
			base = fp[d];
		if (base != INT64_MIN && base + p->off < 0 && -(base + p->off) > deep)
			deep = -(base + p->off);
		/* What the instruction leaves in its destination. */
		if (p->code == (EBPF_ALU64 | EBPF_MOV | BPF_X))
			fp[d] = fp[s];
		else if (p->code == (EBPF_ALU64 | BPF_ADD | BPF_K) && fp[d] != INT64_MIN)
			fp[d] += p->imm;
		else if (p->code == (EBPF_ALU64 | BPF_SUB | BPF_K) && fp[d] != INT64_MIN)
			fp[d] -= p->imm;
		else if (cls == BPF_ALU || cls == EBPF_ALU64 || cls == BPF_LDX ||
			 p->code == (BPF_LD | BPF_IMM | EBPF_DW))
			fp[d] = INT64_MIN;
		if (cls == BPF_LD && (BPF_MODE(p->code) == BPF_ABS ||
				      BPF_MODE(p->code) == BPF_IND))
			for (r = EBPF_REG_0; r <= EBPF_REG_5; r++)
				fp[r] = INT64_MIN;
		if (p->code == (BPF_LD | BPF_IMM | EBPF_DW))
			i++;
	}
	if (deep > 512)
		deep = 512;
	if (ldmb)
		deep += 8;
	return (uint32_t)((deep + 7) & ~7);
}
