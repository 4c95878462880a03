/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A classic BPF interpreter with libpcap 1.10's semantics (bpf_filter.c's
 * pcap_filter_with_aux_data, instruction for instruction) that stops: the
 * libpcap engine runs programs with loops on it instead of on libpcap.
 *
 * Why: libpcap's code for "protochain" (gencode.c, gen_protochain, up to
 * its current master) walks an AH header with "X = (P[X + 1] + 2) * 4"
 * where it means "X = X + ...": an AH header whose length points back at
 * itself (IPv4, IHL 5, AH with next header 51 and length 3) makes
 * bpf_filter() loop forever -- tcpdump -r on that one frame with 'ip
 * protochain 6' hangs, and ignores SIGTERM. So this interpreter counts
 * steps and returns 0 ("no match") past a budget no run that ends can
 * need: at the head of a protochain loop the state is (A, X) -- the next
 * header and its offset; the body uses nothing else but the frame and a
 * scratch word holding A -- and a run that ends never repeats it, so it
 * makes at most (header values that continue the loop, at most 6) x
 * (offsets below the captured length) iterations of at most 32
 * instructions each, and each loop is run to its end before the next one.
 * The budget is (loops + 1) * 256 * (buflen + 1) + 16 * len steps; a
 * program without backward jumps never reaches it.
 *
 * Scratch memory starts zeroed (libpcap leaves it uninitialised), as
 * everywhere in pktpath.
 */
#include <sys/types.h>

#include <pcap/bpf.h>

#include "pktbpf_pvt.h"

#define MEMWORDS 16

static inline uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint32_t
be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

uint32_t
__pktbpf_cbpf_run(const void *prog, uint32_t len, uint32_t loops, const uint8_t *p,
		  uint32_t wirelen, uint32_t buflen, bool *exhausted)
{
	const struct bpf_insn *pc = prog, *end = pc + len;
	uint64_t budget = ((uint64_t)loops + 1) * 256 * ((uint64_t)buflen + 1) +
			  16ull * len;
	uint32_t A = 0, X = 0, k, mem[MEMWORDS] = { 0 };

	*exhausted = false;
	for (; pc >= (const struct bpf_insn *)prog && pc < end; pc++) {
		if (budget-- == 0) {
			*exhausted = true;
			return 0;
		}
		switch (pc->code) {
		case BPF_RET | BPF_K:
			return pc->k;
		case BPF_RET | BPF_A:
			return A;
		case BPF_LD | BPF_W | BPF_ABS:
			k = pc->k;
			if (k > buflen || 4 > buflen - k)
				return 0;
			A = be32(&p[k]);
			continue;
		case BPF_LD | BPF_H | BPF_ABS:
			k = pc->k;
			if (k > buflen || 2 > buflen - k)
				return 0;
			A = be16(&p[k]);
			continue;
		case BPF_LD | BPF_B | BPF_ABS:
			k = pc->k;
			if (k >= buflen)
				return 0;
			A = p[k];
			continue;
		case BPF_LD | BPF_W | BPF_LEN:
			A = wirelen;
			continue;
		case BPF_LDX | BPF_W | BPF_LEN:
			X = wirelen;
			continue;
		case BPF_LD | BPF_W | BPF_IND:
			k = X + pc->k;
			if (pc->k > buflen || X > buflen - pc->k || 4 > buflen - k)
				return 0;
			A = be32(&p[k]);
			continue;
		case BPF_LD | BPF_H | BPF_IND:
			k = X + pc->k;
			if (X > buflen || pc->k > buflen - X || 2 > buflen - k)
				return 0;
			A = be16(&p[k]);
			continue;
		case BPF_LD | BPF_B | BPF_IND:
			k = X + pc->k;
			if (pc->k >= buflen || X >= buflen - pc->k)
				return 0;
			A = p[k];
			continue;
		case BPF_LDX | BPF_MSH | BPF_B:
			k = pc->k;
			if (k >= buflen)
				return 0;
			X = (uint32_t)(p[k] & 0xf) << 2;
			continue;
		case BPF_LD | BPF_IMM:
			A = pc->k;
			continue;
		case BPF_LDX | BPF_IMM:
			X = pc->k;
			continue;
		case BPF_LD | BPF_MEM:
			if (pc->k >= MEMWORDS)
				return 0;
			A = mem[pc->k];
			continue;
		case BPF_LDX | BPF_MEM:
			if (pc->k >= MEMWORDS)
				return 0;
			X = mem[pc->k];
			continue;
		case BPF_ST:
			if (pc->k >= MEMWORDS)
				return 0;
			mem[pc->k] = A;
			continue;
		case BPF_STX:
			if (pc->k >= MEMWORDS)
				return 0;
			mem[pc->k] = X;
			continue;
		case BPF_JMP | BPF_JA:
			pc += (int32_t)pc->k;	/* signed: protochain jumps back */
			continue;
		case BPF_JMP | BPF_JGT | BPF_K:
			pc += A > pc->k ? pc->jt : pc->jf;
			continue;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += A >= pc->k ? pc->jt : pc->jf;
			continue;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += A == pc->k ? pc->jt : pc->jf;
			continue;
		case BPF_JMP | BPF_JSET | BPF_K:
			pc += (A & pc->k) ? pc->jt : pc->jf;
			continue;
		case BPF_JMP | BPF_JGT | BPF_X:
			pc += A > X ? pc->jt : pc->jf;
			continue;
		case BPF_JMP | BPF_JGE | BPF_X:
			pc += A >= X ? pc->jt : pc->jf;
			continue;
		case BPF_JMP | BPF_JEQ | BPF_X:
			pc += A == X ? pc->jt : pc->jf;
			continue;
		case BPF_JMP | BPF_JSET | BPF_X:
			pc += (A & X) ? pc->jt : pc->jf;
			continue;
		case BPF_ALU | BPF_ADD | BPF_X: A += X; continue;
		case BPF_ALU | BPF_SUB | BPF_X: A -= X; continue;
		case BPF_ALU | BPF_MUL | BPF_X: A *= X; continue;
		case BPF_ALU | BPF_DIV | BPF_X:
			if (X == 0)
				return 0;
			A /= X;
			continue;
		case BPF_ALU | BPF_MOD | BPF_X:
			if (X == 0)
				return 0;
			A %= X;
			continue;
		case BPF_ALU | BPF_AND | BPF_X: A &= X; continue;
		case BPF_ALU | BPF_OR | BPF_X: A |= X; continue;
		case BPF_ALU | BPF_XOR | BPF_X: A ^= X; continue;
		case BPF_ALU | BPF_LSH | BPF_X: A = X < 32 ? A << X : 0; continue;
		case BPF_ALU | BPF_RSH | BPF_X: A = X < 32 ? A >> X : 0; continue;
		case BPF_ALU | BPF_ADD | BPF_K: A += pc->k; continue;
		case BPF_ALU | BPF_SUB | BPF_K: A -= pc->k; continue;
		case BPF_ALU | BPF_MUL | BPF_K: A *= pc->k; continue;
		case BPF_ALU | BPF_DIV | BPF_K:	/* pcap_compile refuses k == 0 */
			if (pc->k == 0)
				return 0;
			A /= pc->k;
			continue;
		case BPF_ALU | BPF_MOD | BPF_K:
			if (pc->k == 0)
				return 0;
			A %= pc->k;
			continue;
		case BPF_ALU | BPF_AND | BPF_K: A &= pc->k; continue;
		case BPF_ALU | BPF_OR | BPF_K: A |= pc->k; continue;
		case BPF_ALU | BPF_XOR | BPF_K: A ^= pc->k; continue;
		case BPF_ALU | BPF_LSH | BPF_K:	/* and shifts by k >= 32 */
			A = pc->k < 32 ? A << pc->k : 0;
			continue;
		case BPF_ALU | BPF_RSH | BPF_K:
			A = pc->k < 32 ? A >> pc->k : 0;
			continue;
		case BPF_ALU | BPF_NEG: A = 0u - A; continue;
		case BPF_MISC | BPF_TAX: X = A; continue;
		case BPF_MISC | BPF_TXA: A = X; continue;
		default:		/* libpcap aborts; pcap_compile never emits it */
			return 0;
		}
	}
	return 0;			/* fell out of the program */
}

uint32_t
__pktbpf_cbpf_loops(const void *prog, uint32_t len)
{
	const struct bpf_insn *p = prog;
	uint32_t i, n = 0;

	for (i = 0; i < len; i++)
		n += p[i].code == (BPF_JMP | BPF_JA) && (int32_t)p[i].k < 0;
	return n;
}
