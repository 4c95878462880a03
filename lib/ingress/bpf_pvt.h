/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_BPF_PVT_H
#define PKTPATH_BPF_PVT_H

/*
 * lib/ingress internals of the pcap-filter and bpf kinds: what pcapfilter.c,
 * bpfobj.c, bpfconv.c, bpfcbpf.c, bpfcheck.c, bpfjit.c, bpfjit_model.c,
 * bpfload.c and the unit tests share.
 *
 * Only rte_bpf's struct ebpf_insn appears here: libpcap's and Linux's
 * struct bpf_insn (classic and extended) cannot be in one translation unit,
 * so the classic-BPF side (the converter) takes libpcap's instructions as
 * an opaque pointer.
 *
 * Why this exists: DPDK 22.11's lib/bpf converts, verifies and JIT-compiles
 * programs with faults that crash or give wrong verdicts (see the README,
 * "DPDK 22.11 lib/bpf faults"). pktpath therefore converts classic BPF
 * itself (bpfconv.c), predicts and checks what the x86 JIT writes
 * (bpfjit.c), and loads programs under limits (bpfload.c). Everything
 * here is thread-safe unless said otherwise (no shared state).
 */

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_bpf.h>

#include "ingress.h"

/* ---- classic BPF -> eBPF (bpfconv.c) ---- */

/*
 * Registers of converted programs: A in r0 (where LD_ABS/LD_IND leave
 * their result), X in r7 and the mbuf in r6 (both kept across LD_ABS,
 * which clobbers r1-r5), scratch in r8. M[k] is the 32-bit word at
 * r10 - 8 * (16 - k) (one 8-byte slot each).
 */
#define BPFCONV_MAX_INS 16384	/* eBPF jumps have 16-bit offsets */

/* Largest constant offset a load may have and still be tried: offsets
 * beyond it are past the end of any frame (2 GiB), and loads from them
 * return 0 from the filter as libpcap's do. Keeps every offset the JIT and
 * the interpreter compute positive in 32 bits. */
#define BPFCONV_OFF_MAX 0x7fffffffu

/*
 * Convert libpcap's program (cbpf: const struct bpf_insn *, as in struct
 * bpf_program; len instructions) to an eBPF program over an rte_mbuf
 * (RTE_BPF_ARG_PTR_MBUF) with libpcap's semantics (bpf_filter.c, 1.10):
 * out-of-frame loads, division by zero and shifts by 32 or more give what
 * libpcap gives, scratch memory starts zeroed (libpcap leaves it
 * uninitialised), unreachable instructions are dropped.
 *
 * @return 0 and *out (malloc'ed, *nout instructions); -ENOTSUP with the
 *         reason in why (a backward jump, as "protochain" has; an opcode
 *         libpcap never emits; a program too long for eBPF); -ENOMEM.
 */
int __bpf_convert(const void *cbpf, uint32_t len, struct ebpf_insn **out,
		  uint32_t *nout, char *why, size_t whylen);

/* The scratch words a classic program reads somewhere without having
 * written them on every path to that read (bit k: M[k]). -EINVAL if the
 * program is malformed. */
int __bpf_cbpf_uninit_mem(const void *cbpf, uint32_t len, uint16_t *mask);

/* ---- classic BPF with libpcap's semantics, bounded (bpfcbpf.c) ---- */

/*
 * Run a classic program (const struct bpf_insn *, len instructions, loops
 * of them backward jumps) on frame p as libpcap's bpf_filter() does, with
 * scratch memory zeroed, stopping after a budget no ending run of
 * libpcap's protochain loops can need (bpfcbpf.c says why): then 0 and
 * *exhausted -- libpcap itself would loop forever there (its protochain AH
 * bug). Thread-safe.
 */
uint32_t __bpf_cbpf_run(const void *prog, uint32_t len, uint32_t loops,
			const uint8_t *p, uint32_t wirelen, uint32_t buflen,
			bool *exhausted);
/* The number of backward jumps of a classic program. */
uint32_t __bpf_cbpf_loops(const void *prog, uint32_t len);

/* ---- the DPDK 22.11 x86-64 JIT: model (bpfjit_model.c), check (bpfjit.c) ---- */

/* Native layout of a program as DPDK 22.11's bpf_jit_x86() produces it. */
struct __bpf_jit_layout {
	uint32_t n;		/* eBPF instructions */
	uint32_t passes;	/* sizing passes the JIT makes */
	size_t alloc_sz;	/* bytes it maps (its last sizing pass) */
	size_t final_sz;	/* bytes it writes (the final pass) */
	bool wrong;		/* some native jump lands elsewhere than its
				   target -- encoded from an earlier pass's
				   offsets (fault C) or a backward rel8 that
				   overflows (fault J) -- or final_sz !=
				   alloc_sz */
	uint32_t wrong_jumps;	/* how many native jumps are wrong */
	uint32_t wrong_from;	/* the first wrong one's eBPF instruction */
	uint32_t wrong_to;	/* and its target's (the first EXIT for a jump
				   to the epilogue) */
};

/*
 * Predict the JIT's output for ins (stack_sz: the stack size rte_bpf's
 * verifier computes, which the prologue and LD_ABS/LD_IND use).
 * @return 0; -ENOTSUP if the program has an instruction the JIT does not
 *         compile (it then runs interpreted), -ENOMEM.
 */
int __bpf_jit_predict(const struct ebpf_insn *ins, uint32_t n, uint32_t stack_sz,
		      struct __bpf_jit_layout *l);

/* One native jump of the JIT's final pass, as the model predicts it. */
#define BPF_JIT_JMP 0xff	/* cc of an unconditional jmp */
struct __bpf_jit_jump {
	uint32_t pos;		/* native offset of the jump */
	uint8_t size;		/* 2, 5 or 6 bytes */
	uint8_t cc;		/* x86 condition nibble, or BPF_JIT_JMP */
	uint32_t tgt;		/* where it must land (native offset) */
	int64_t lands;		/* where the JIT's encoding makes it land */
	uint32_t from, to;	/* eBPF instructions: the jump's, its target's */
};

/*
 * The prediction and every native jump (*jumps malloc'ed, *nj of them),
 * with the callee-saved registers the prologue spills and whether it sets
 * up rbp (the stack). @return as __bpf_jit_predict().
 */
int __bpf_jit_model(const struct ebpf_insn *ins, uint32_t n, uint32_t stack_sz,
		    struct __bpf_jit_layout *l, struct __bpf_jit_jump **jumps,
		    uint32_t *nj, unsigned int *n_spills, bool *rbp);

/*
 * Check what the JIT wrote (code, sz from rte_bpf_get_jit) against the
 * prediction: the sizes agree and every native jump of every instruction
 * (the eBPF jumps, the jumps to the epilogue, LD_ABS/LD_IND's inner
 * jumps) is where the prediction puts it and lands exactly on the first
 * native byte of its target. bpfjit.c says why this check is sound.
 * @return 0 if the code is right; -EFAULT with the first difference in why.
 */
int __bpf_jit_check(const struct ebpf_insn *ins, uint32_t n, uint32_t stack_sz,
		    const void *code, size_t sz, char *why, size_t whylen);

/*
 * When the prediction says a jump will be wrong (faults C, J), move it out
 * of the way: insert no-op jumps ("ja +0"), first between a wrong jump and
 * its target, keeping each that reduces the wrong jumps, until none is
 * left. On success *ins and *n are replaced (malloc'ed, *owned set; the
 * old array is freed if it was owned) and 1 is returned; 0 if the program
 * was fine; -EAGAIN if some jump stays wrong (*ins may have changed);
 * -ENOMEM.
 */
int __bpf_jit_settle(struct ebpf_insn **ins, uint32_t *n, uint32_t stack_sz,
		     bool *owned);

/* The stack size rte_bpf's verifier will compute: the deepest r10-relative
 * access (through r10 or a register copied from it plus constants), plus
 * 8 when the program has LD_ABS/LD_IND, rounded up to 8. */
uint32_t __bpf_stack_size(const struct ebpf_insn *ins, uint32_t n);

/* Insert "ja +0" before instruction pos, fixing every jump. Returns the new
 * array (malloc'ed) or NULL. */
struct ebpf_insn *__bpf_insert_nop(const struct ebpf_insn *ins, uint32_t n,
				   uint32_t pos);

/* ---- loading under limits (bpfload.c) ---- */

/* Program size and verifier-work limits. The work estimate is the number
 * of instruction evaluations the verifier makes without pruning (the sum
 * of the lengths of all paths); up to BPFLOAD_WORK_FAST it is loaded
 * in-process at once (its cost: the README's "Loading under limits"),
 * beyond it a trial load in a child process, bounded in time, comes
 * first. */
#define BPFLOAD_MAX_INS 4096
#define BPFLOAD_WORK_FAST (1ull << 21)

/* What to load. */
struct __bpf_load_req {
	const struct ebpf_insn *ins;
	uint32_t n;
	struct rte_bpf_arg arg;		/* the program's argument */
	bool want_jit;			/* use the JIT's code if it checks out */
	double timeout_s;		/* > 0 */
	const volatile sig_atomic_t *cancel;	/* may be NULL */
	const char *what;		/* for log lines ("filter 'udp'") */
};

/* What was loaded. */
struct __bpf_loaded {
	struct rte_bpf *bpf;
	uint64_t (*jit)(void *);	/* NULL: interpret with bpf */
	enum ingress_bpf_engine engine;	/* JIT or INTERP */
	uint64_t work;			/* the verifier-work estimate */
	char note[320];			/* why the JIT is not used, or "" */
};

/*
 * Load r under the limits: estimate the verifier's work; settle bug C
 * (__bpf_jit_settle) so that the JIT neither writes past its buffer nor
 * emits wrong jumps; above BPFLOAD_WORK_FAST a trial load in a forked
 * child first (killed at timeout_s or when *cancel is set), then the real
 * load in a thread while this one watches *cancel; then the JIT's code is
 * checked (__bpf_jit_check) and used only if it passes.
 *
 * @return 0 and *out; on failure one line in err and:
 *   -EINVAL   rte_bpf_load refused it (err has the verifier's reason),
 *   -ETIMEDOUT the verifier did not finish within timeout_s,
 *   -EINTR    *cancel was set during the load,
 *   -EFAULT   the trial load crashed (it is never run in this process),
 *   -ENOTSUP  the JIT would write past its buffer and no settling helped,
 *   -ECHILD   the trial process could not be started (fork, pipe),
 *   -ENOMEM, -errno of pthread_create.
 * Thread-safe; blocks for the load (and the trial).
 */
int __bpf_load(const struct __bpf_load_req *r, struct __bpf_loaded *out,
	       char *err, size_t errlen);

/* The verifier-work estimate of a loop-free program (saturating at
 * UINT64_MAX / 4, which a program with a loop or a jump out of it gets). */
uint64_t __bpf_work(const struct ebpf_insn *ins, uint32_t n);

/* ---- the bpf kind's checks (bpfcheck.c) ---- */

/*
 * The successors of instruction i (at most 2, in s): the only definition of
 * the control flow that the checks, the topological order and __bpf_work
 * use. An exit has none; only a jump-class code other than call and exit
 * (whatever its source bit) jumps. @return their number; -1 if one lies
 * outside the program (a jump out, a fall off the end, a 16-byte load
 * cut by the end).
 */
int __bpf_succ(const struct ebpf_insn *ins, uint32_t n, uint32_t i, uint32_t s[2]);

/*
 * The instructions reachable from the first, in a topological order of the
 * control flow (order: n entries, *norder used). @return 0; -ELOOP with
 * the jump *from -> *to that closes a cycle; -EINVAL if instruction *from
 * jumps or falls out of the program; -ENOMEM.
 */
int __bpf_topo(const struct ebpf_insn *ins, uint32_t n, uint32_t *order,
	       uint32_t *norder, uint32_t *from, uint32_t *to);

/*
 * The checks an eBPF object's program passes before it is loaded: no loop,
 * no store through anything but a stack pointer, shifts by less than the
 * operand width, at most BPFLOAD_MAX_INS instructions.
 * @return 0, or -ENOTSUP / -E2BIG with one line (naming the instruction).
 */
int __bpf_obj_check(const struct ebpf_insn *ins, uint32_t n, char *why,
		    size_t whylen);

/*
 * Rewrite the forms DPDK 22.11 runs wrongly (README: faults B, F-I):
 * "le16"/"le32" (the interpreter does not truncate) in place, for any
 * engine; when jit, also "jset rD, K" with K in -128..127, shifts by their
 * own destination register, 32-bit divisions by a register and r0/r3
 * divided by themselves, each with "mov rT, ..." before it into a register
 * rT the program never uses (bpfcheck.c says why each is wrong).
 * @return the number of instructions added (*ins and *n replaced,
 *         malloc'ed, *owned set); 0 if none; -ENOSPC if a JIT form needs
 *         rT and every register is used (the program must be interpreted:
 *         *ins may still have been changed in place); -ENOMEM.
 */
int __bpf_fix_forms(struct ebpf_insn **ins, uint32_t *n, bool *owned, bool jit);

/*
 * An eBPF program (the bpf kind's context: config/bpf/pktpath_bpf.h) as a
 * classifier, as ingress_bpf_create() does after opening the object: the
 * refusals, the JSET rewrite, the load. name starts the error message
 * ("FILE: section 'S'"), label goes into the description ("FILE:S"); both
 * as the caller quoted them (base_quote(): they echo a file and a section).
 */
int __ingress_bpf_from_insns(const struct ebpf_insn *ins, uint32_t n,
			     const char *name, const char *label,
			     const struct ingress_bpf_conf *bc,
			     struct ingress_classifier **out, char *err,
			     size_t errlen);

/* The bpf kind's side of ingress_bpf_engine_of() and __ingress_bpf_run()
 * (-EINVAL / 0 for a classifier of another kind). */
int __ingress_bpfobj_engine(const struct ingress_classifier *c);
uint64_t __ingress_bpfobj_run(const struct ingress_classifier *c,
			      struct rte_mbuf *m);

/* Run a pcap-filter or bpf classifier's program on m and return what the
 * program returned (before it becomes a verdict). For tests. */
uint64_t __ingress_bpf_run(const struct ingress_classifier *c,
			   struct rte_mbuf *m);

#endif /* PKTPATH_BPF_PVT_H */
