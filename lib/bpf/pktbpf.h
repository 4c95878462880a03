/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_PKTBPF_H
#define PKTPATH_PKTBPF_H

/**
 * @file
 * Packet programs that DPDK 22.11's rte_bpf loads and runs correctly
 * (lib/bpf; lib/bpf/README.md).
 *
 * A program (struct pktbpf_prog) is made once, on a control thread, from
 *  - a tcpdump expression (pktbpf_filter_load()): libpcap compiles it to
 *    classic BPF, pktpath converts that to eBPF itself with libpcap's
 *    semantics (DPDK's rte_bpf_convert mistranslates indirect loads),
 *    rte_bpf_load loads it under limits, and it runs on the mbuf; what
 *    rte_bpf cannot run (loops, a program its verifier refuses or cannot
 *    verify in time) runs on libpcap's interpreter instead, so every
 *    expression tcpdump accepts runs, with libpcap's verdict;
 *  - an eBPF ELF object's program (pktbpf_object_load(): the file is read
 *    as every input is, libbpf opens it from memory, no kernel load, no
 *    privilege) or eBPF instructions
 *    (pktbpf_ebpf_load()): checked, rewritten where DPDK's JIT would
 *    compile them wrongly, loaded under limits, and run on a context built
 *    from the mbuf (below);
 * and is then run by any number of threads at once (pktbpf_run(),
 * pktbpf_run_burst()) until pktbpf_prog_free().
 *
 * Why a library of its own: DPDK 22.11's lib/bpf converts, verifies and
 * JIT-compiles programs with faults that crash or give wrong answers (the
 * README's "DPDK 22.11 lib/bpf faults"). pktpath converts classic BPF
 * itself, predicts byte for byte what the x86 JIT writes, uses the JIT's
 * code only when it checks out, rewrites the forms the JIT encodes
 * wrongly, and bounds the verifier's time (a trial load in a child process,
 * a timeout, a cancel flag).
 *
 * Engines (enum pktbpf_engine): the one asked for is a ceiling; a program
 * it cannot run correctly goes to the next safe one. pktbpf_prog_engine()
 * says which runs it, and the load logs why through the rte_log type
 * "pktpath.bpf" (lines "pktpath: bpf: ...").
 *
 * The context of eBPF programs (config/bpf/pktpath_bpf.h): r1 points to
 * {u32 len; u32 reserved; u8 data[2048]}, the frame's length and the frame.
 * pktbpf_run() builds it in the mbuf's headroom, writing the 8 bytes just
 * before the packet data, so nothing is copied; a frame without 8 bytes of
 * headroom, not contiguous, or whose buffer ends before data + 2048 is
 * copied into a buffer on the stack first. The program may only read it:
 * stores through anything but a stack pointer are refused before loading.
 *
 * This header is pktbpf.h, not bpf.h, and its names start with pktbpf_:
 * <bpf/bpf.h> (libbpf), <linux/bpf.h> and <pcap/bpf.h> exist, and bpf_* is
 * libbpf's namespace, so neither can shadow or be shadowed.
 */

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_bpf.h>
#include <rte_common.h>
#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * What runs a program.
 *
 *   jit      rte_bpf's x86-64 JIT, used only when its code passes pktpath's
 *            check (DPDK 22.11's JIT can emit wrong jumps); else interp.
 *   interp   rte_bpf's interpreter.
 *   libpcap  libpcap's own interpreter (bpf_filter) on the frame, made
 *            contiguous when it is not: tcpdump expressions only; used as
 *            well for those rte_bpf cannot run (loops, as "protochain"
 *            has, or programs its verifier refuses or cannot verify in
 *            time). Programs with loops run on pktpath's bounded classic
 *            interpreter, with libpcap's semantics, instead: libpcap's
 *            protochain code can loop forever.
 */
enum pktbpf_engine {
	PKTBPF_JIT,
	PKTBPF_INTERP,
	PKTBPF_LIBPCAP,
	PKTBPF_ENGINE_MAX
};

/** The engines' names, indexed by enum pktbpf_engine. */
extern const char *const pktbpf_engine_names[PKTBPF_ENGINE_MAX];
/** "jit", "interp", "libpcap"; "?" if out of range. Thread-safe. */
const char *pktbpf_engine_name(enum pktbpf_engine e);
/** Parse an engine name. @return 0, or -EINVAL (out untouched). Thread-safe. */
int pktbpf_engine_parse(const char *s, enum pktbpf_engine *out);

/** How to make a program. */
struct pktbpf_conf {
	enum pktbpf_engine engine;	/**< the engine wanted (default jit) */
	uint32_t netmask;		/**< tcpdump expressions: IPv4 netmask of
					     "ip broadcast", host byte order;
					     default 0, as tcpdump -r uses */
	double load_timeout_s;		/**< longest time rte_bpf_load may take
					     to verify a program (default 5) */
	const volatile sig_atomic_t *cancel; /**< if set to non-zero while a
					     load runs, it stops (-EINTR); NULL:
					     never */
};

/** The defaults above. Thread-safe. */
void pktbpf_conf_init(struct pktbpf_conf *c);

/** The eBPF context: its header (len, reserved) and the most frame it holds. */
#define PKTBPF_CTX_HDR 8
#define PKTBPF_CTX_DATA 2048

/**
 * A program, made by pktbpf_filter_load(), pktbpf_object_load() or
 * pktbpf_ebpf_load(). Immutable once made. Treat as opaque: run it with
 * pktbpf_run(), ask its engine with pktbpf_prog_engine(); its members are
 * here for the inline runners only.
 */
struct pktbpf_prog {
	enum pktbpf_engine engine;	/* what runs it */
	bool ctx;			/* an eBPF program on the context
					   (true) or a filter on the mbuf */
	uint64_t (*jit)(void *);	/* jit: the checked JIT code */
	struct rte_bpf *bpf;		/* jit, interp */
	void *cbpf;			/* libpcap: the classic program
					   (libpcap's struct bpf_insn[]) */
	uint32_t cbpf_len;		/* its instructions */
	uint32_t cbpf_loops;		/* its backward jumps (not 0: run by
					   pktpath's bounded interpreter) */
};

/**
 * A tcpdump expression as a program: compiled by libpcap (pcap_compile on
 * a DLT_EN10MB handle, optimised, with bc->netmask), converted to eBPF by
 * pktpath's own converter (libpcap's semantics: a load past the frame, a
 * division by zero or a shift by 32 or more do what bpf_filter() does,
 * scratch memory starts zeroed), loaded by rte_bpf_load under limits and
 * run on the mbuf; or run by libpcap (enum pktbpf_engine). pktbpf_run()
 * returns what libpcap's bpf_filter() returns on the frame: the snapshot
 * length, 0 for no match.
 *
 * @param bc  NULL for the defaults
 * @return 0 and *out; or -EINVAL (libpcap refused the expression: err is
 *         "'EXPR': " and its message; no expression or an engine out of
 *         range), -EINTR (bc->cancel was set during the load), -ENOMEM;
 *         one line in err, the expression and libpcap's reason quoted
 *         (base_quote()), as in the log lines.
 * Needs EAL. Thread-safe (no shared state). May block for a load (bounded
 * by bc->load_timeout_s: the README's "Loading under limits").
 */
int pktbpf_filter_load(const char *expr, const struct pktbpf_conf *bc,
		       struct pktbpf_prog **out, char *err, size_t errlen);

/** Largest eBPF ELF object pktbpf_object_load() reads: a classifier of
 *  4096 instructions with its BTF and relocations takes well under 1 MiB. */
#define PKTBPF_OBJ_MAX (64 << 20)

/**
 * An eBPF ELF object's program: path is read as every input is (a regular
 * file of at most PKTBPF_OBJ_MAX bytes; a FIFO is refused, never waited
 * on: base.h, "Files") and opened from memory by libbpf (no kernel load);
 * the program in section (or named) sec is made as pktbpf_ebpf_load()
 * makes it. An object that defines maps is refused.
 *
 * @return 0 and *out; -EINVAL (non-ELF file, not a regular file, or as
 *         pktbpf_ebpf_load()), the file's errno (-ENOENT, -EACCES,
 *         -EFBIG...), -ENOENT (no such section: err lists the ones there
 *         are), -ENOTSUP (maps, or as pktbpf_ebpf_load()), and
 *         pktbpf_ebpf_load()'s errors; one line in err starting with the
 *         file's name (it and the sections' quoted: base_quote()).
 *         Needs EAL. Thread-safe.
 */
int pktbpf_object_load(const char *path, const char *sec,
		       const struct pktbpf_conf *bc, struct pktbpf_prog **out,
		       char *err, size_t errlen);

/**
 * eBPF instructions as a program on the context (config/bpf/pktpath_bpf.h).
 *
 * Refused before loading, with the instruction named: maps, kernel helper
 * calls, tail calls and bpf-to-bpf calls (rte_bpf has none); classic packet
 * loads; backward jumps that close a loop; stores through anything but a
 * stack pointer (the context is the frame); shifts by the operand width or
 * more; more than 4096 instructions. The forms DPDK 22.11 runs wrongly are
 * rewritten (a rewrite never changes whether a program loads); rte_bpf_load
 * then runs under bc->load_timeout_s (in a child process first when the
 * verifier's work may be large) and stops on bc->cancel.
 *
 * @param name  what err and the log lines start with ("FILE: section 'S'"),
 *              as the caller quoted it (base_quote(): it echoes a file and
 *              a section)
 * @param bc    NULL for the defaults; engine libpcap is refused (-EINVAL)
 * @return 0 and *out; -EINVAL (rte_bpf refused the program: the verifier's
 *         reason), -ENOTSUP (the refusals above), -E2BIG (too many
 *         instructions), -ETIMEDOUT (the verifier did not finish in time),
 *         -EINTR, -EFAULT (the trial load crashed), -ECHILD (it could not
 *         start), -ENOMEM; one line in err starting with name.
 * Needs EAL. Thread-safe. May block for a load, as pktbpf_filter_load().
 */
int pktbpf_ebpf_load(const struct ebpf_insn *ins, uint32_t n, const char *name,
		     const struct pktbpf_conf *bc, struct pktbpf_prog **out,
		     char *err, size_t errlen);

/** Free a program (poisoned first). NULL is a no-op. No thread may still
 *  run it. */
void pktbpf_prog_free(struct pktbpf_prog *p);

/** The engine that runs p. Thread-safe. */
static inline enum pktbpf_engine
pktbpf_prog_engine(const struct pktbpf_prog *p)
{
	return p->engine;
}

/* Internals of the runners below: the libpcap engine, and an eBPF program
 * on a copy of the frame. */
uint64_t __pktbpf_run_libpcap(const struct pktbpf_prog *p,
			      const struct rte_mbuf *m);
uint64_t __pktbpf_run_copy(const struct pktbpf_prog *p,
			   const struct rte_mbuf *m);

static __rte_always_inline uint64_t
__pktbpf_exec(const struct pktbpf_prog *p, void *arg)
{
	return p->jit != NULL ? p->jit(arg) : rte_bpf_exec(p->bpf, arg);
}

/**
 * Run p on frame m and return what the program returns: a filter's
 * snapshot length (0: no match), an eBPF program's r0. m is not changed,
 * but for an eBPF program the 8 bytes of headroom before its data (the
 * context's header). Thread-safe (p is immutable); the libpcap engine
 * allocates memory for a chained frame over 16 KiB.
 */
static inline uint64_t
pktbpf_run(const struct pktbpf_prog *p, struct rte_mbuf *m)
{
	uint8_t *data;

	if (!p->ctx)
		return p->engine == PKTBPF_LIBPCAP ? __pktbpf_run_libpcap(p, m) :
						     __pktbpf_exec(p, m);
	data = rte_pktmbuf_mtod(m, uint8_t *);
	if (likely(rte_pktmbuf_headroom(m) >= PKTBPF_CTX_HDR &&
		   rte_pktmbuf_is_contiguous(m) &&
		   (size_t)(data - (uint8_t *)m->buf_addr) + PKTBPF_CTX_DATA <=
		   m->buf_len)) {
		uint32_t *hdr = (uint32_t *)(void *)(data - PKTBPF_CTX_HDR);

		hdr[0] = rte_pktmbuf_pkt_len(m);
		hdr[1] = 0;
		return __pktbpf_exec(p, hdr);
	}
	return __pktbpf_run_copy(p, m);
}

/** pktbpf_run() on n frames: rc[i] for pkts[i]. Thread-safe. */
static inline void
pktbpf_run_burst(const struct pktbpf_prog *p, struct rte_mbuf **pkts,
		 uint16_t n, uint64_t *rc)
{
	uint16_t i;

	if (!p->ctx && p->engine == PKTBPF_INTERP) {
		rte_bpf_exec_burst(p->bpf, (void **)pkts, rc, n);
		return;
	}
	for (i = 0; i < n; i++)
		rc[i] = pktbpf_run(p, pkts[i]);
}

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_PKTBPF_H */
