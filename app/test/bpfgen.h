/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_BPFGEN_H
#define PKTPATH_TEST_BPFGEN_H

/*
 * Generators for the generated pcap-filter and eBPF tests (test_bpf.c):
 * frames (hand-made kinds and random layer stacks), tcpdump expressions
 * over libpcap's filter grammar, random loop-free eBPF programs within
 * what rte_bpf accepts, and a reference eBPF interpreter of pktpath's own.
 * All draw from one seeded generator so a run is reproduced by its seed.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_bpf.h>

struct gen_rng {
	uint64_t s;
};

static inline uint64_t
gen_u64(struct gen_rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0. */
static inline uint32_t
gen_below(struct gen_rng *r, uint32_t n)
{
	return (uint32_t)(gen_u64(r) % n);
}

/* 1 with probability p percent. */
static inline int
gen_pct(struct gen_rng *r, unsigned int p)
{
	return gen_below(r, 100) < p;
}

#define GEN_FRAME_MAX 9100

/* One frame. */
struct gen_frame {
	uint32_t len;
	uint8_t *data;		/* malloc'ed */
	const char *kind;	/* what it was built as */
};

/*
 * Hand-made frames of every kind (IPv4 with options and fragments, 1-3
 * VLAN tags, ARP/RARP, IPv6 with extension headers, MPLS, PPPoE, VXLAN,
 * Geneve, GRE, IP-in-IP, LLC/SNAP, runts, a jumbo frame...) followed by
 * n_random random layer stacks. Returns the number written into f (at
 * most max).
 */
size_t gen_frames(struct gen_rng *r, size_t n_random, struct gen_frame *f,
		  size_t max);
void gen_frames_free(struct gen_frame *f, size_t n);

/* A random tcpdump expression (it may be one libpcap refuses). */
void gen_expr(struct gen_rng *r, char *buf, size_t len);

/*
 * A random loop-free eBPF program over the bpf kind's context (r1: a
 * 2056-byte buffer) that rte_bpf's verifier accepts: ALU32/ALU64 with
 * every operator (divisors made non-zero, shift counts in range), byte
 * swaps, loads from the context, stores and loads and atomic adds on the
 * stack, jumps of every condition (jset with small immediates included)
 * over short and long distances, LD_IMM64, one exit, sometimes placed
 * early and reached by jumps back (no loops).
 * Returns the number of instructions (<= max).
 */
uint32_t gen_ebpf(struct gen_rng *r, struct ebpf_insn *out, uint32_t max);

/*
 * The eBPF instruction set's semantics (as rte_bpf implements them for the
 * programs gen_ebpf makes), on ctx of ctx_len bytes with a 512-byte stack.
 * Returns r0 at exit; *ok = 0 if the program did something gen_ebpf never
 * makes (out of bounds access, division by zero, a loop).
 */
uint64_t ref_ebpf(const struct ebpf_insn *ins, uint32_t n, void *ctx,
		  size_t ctx_len, int *ok);

#endif
