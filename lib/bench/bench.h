/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_BENCH_H
#define PKTPATH_BENCH_H

/**
 * @file
 * A time_bench-style micro-benchmark harness (after the Linux kernel's
 * lib/time_bench.c, used on netdev to measure spin_lock, SLUB bulk
 * allocation, page_pool...).
 *
 * A benchmark is a function that runs rec->loops iterations of the code
 * under test between bench_start() and bench_stop(), and tells bench_stop()
 * how many elements it processed (usually rec->loops; loops * bulk for a
 * bulk operation). The harness:
 *
 *  - serialises the two TSC reads, so that the timed code neither leaks out
 *    of the interval nor is overlapped by it: `lfence; rdtsc; lfence` at the
 *    start (nothing earlier still running, nothing later already started),
 *    and at the end `rdtscp; lfence` where the CPU has rdtscp (it waits for
 *    every earlier instruction to execute; the lfence keeps later ones from
 *    starting before the read), `lfence; rdtsc; lfence` on a CPU without it
 *    (the kernel's rdtsc_ordered() and Intel's benchmarking note: every
 *    x86-64 CPU has it). The end-of-interval timer is chosen once, from
 *    cpuid (see bench_timer_select()), and named in every result;
 *  - measures an empty loop of the same length (the loop overhead) and
 *    reports it beside the result, never subtracted from it;
 *  - runs one unmeasured warm-up, then R repetitions, and reports the
 *    minimum, median and maximum cycles per element over them; the median is
 *    the headline figure;
 *  - refuses loop counts too small to give a meaningful figure: fewer than
 *    BENCH_MIN_LOOPS, or a repetition shorter than BENCH_MIN_CYCLES (the two
 *    TSC reads would then weigh more than about 0.5% of the interval);
 *  - counts the repetitions during which a benchmark thread lost more than
 *    BENCH_PREEMPT_PCT of its time to other tasks, and says so;
 *  - prints `Type:NAME Per elem: C cycles(tsc) N.NNN ns (step:S)` lines, as
 *    time_bench does, and builds JSON (jansson) for result files;
 *  - in concurrent mode runs the same function on every lcore of the EAL set
 *    at once (the main lcore included), each repetition started by a
 *    barrier, and reports per-lcore figures and their average and sum.
 *
 * A function may also time several laps in one repetition (bench_start() /
 * bench_stop() pairs with untimed work between, e.g. evicting caches): the
 * laps are summed. Each lap then carries the cost of one TSC-read pair,
 * reported as lap_overhead_cycles beside the result.
 *
 * Usage:
 * @code
 * static int
 * bench_atomic(struct bench_rec *rec, void *arg)
 * {
 *	uint64_t *c = arg, i;
 *
 *	bench_start(rec);
 *	for (i = 0; i < rec->loops; i++)
 *		__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
 *	bench_stop(rec, rec->loops);
 *	return 0;
 * }
 *
 * struct bench_spec spec = { .name = "atomic", .fn = bench_atomic,
 *			      .arg = &counter };
 * struct bench_result res;
 * if (bench_run(&spec, 1000000, 5, &res) < 0)
 *	fprintf(stderr, "%s\n", res.error);
 * else
 *	bench_print(stdout, &res);
 * @endcode
 *
 * What is NOT guaranteed: absolute figures are those of this machine at this
 * moment (frequency scaling, a hypervisor, noisy neighbours all show);
 * compare figures measured side by side in one run, never against constants.
 *
 * All functions need an initialised EAL (rte_get_tsc_hz()).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>
#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cycles.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Fewer loops than this are refused (-EINVAL). */
#define BENCH_MIN_LOOPS 1000
/** A repetition shorter than this many TSC cycles is refused (-ERANGE). */
#define BENCH_MIN_CYCLES 20000
/** A repetition losing more than this % of its wall time is "preempted". */
#define BENCH_PREEMPT_PCT 1.0
/** Most repetitions accepted. */
#define BENCH_MAX_REPS 1000
/** Longest benchmark name (including the NUL). */
#define BENCH_NAME_LEN 64
/** Room for a one-line error. */
#define BENCH_ERR_LEN 256

/**
 * How the TSC is read at the end of a timed interval. Both forms wait for
 * every instruction of the interval to complete before the read and keep
 * later instructions from starting before it; they differ only in cost
 * (reported as lap_overhead_cycles) and in which CPUs have them.
 */
enum bench_timer {
	BENCH_TIMER_RDTSCP,	/**< `rdtscp; lfence` (CPUID 80000001h EDX 27) */
	BENCH_TIMER_LFENCE,	/**< `lfence; rdtsc; lfence`: every x86-64 CPU */
	BENCH_TIMER_MAX		/**< count */
};

/**
 * Choose the end-of-interval timer for every later bench_run() and
 * bench_run_concurrent() of the process.
 *
 * @param name  "auto" (or NULL): rdtscp where cpuid says the CPU has it,
 *              else lfence; "rdtscp"; "lfence". When name is NULL the
 *              environment variable PKTPATH_BENCH_TIMER, if set, is used
 *              instead (so that a whole test suite can force the fallback).
 * @param err   one line on failure (may be NULL), len bytes
 * @return 0, or -EINVAL (unknown name) or -ENOTSUP (rdtscp asked for on a
 *         CPU without it; the error says so and names the fallback).
 * Not thread-safe against a benchmark running at the same time; cpuid is
 * read once per process.
 */
int bench_timer_select(const char *name, char *err, size_t len);

/** The timer in force (the default, before any selection: "auto"). */
enum bench_timer bench_timer_get(void);

/** "rdtscp" or "lfence" (as accepted by bench_timer_select()), or "?". */
const char *bench_timer_name(enum bench_timer t);

/** The instruction sequence of a timer, e.g. "rdtscp; lfence", or NULL. */
const char *bench_timer_insns(enum bench_timer t);

/** True if cpuid reports rdtscp (always false off x86). */
bool bench_cpu_has_rdtscp(void);

/**
 * True if cpuid reports an invariant TSC (80000007h EDX bit 8: constant
 * rate in every P-, C- and T-state), which every cycles(tsc) figure
 * assumes. Hypervisors do not always pass the bit on although their TSC is
 * stable; a false answer is a warning, not a refusal. Always false off x86.
 */
bool bench_cpu_invariant_tsc(void);

/**
 * One repetition on one lcore, handed to the benchmark function.
 * The function reads loops, worker, n_workers and lcore_id, and calls
 * bench_start()/bench_stop(); the other fields belong to the harness.
 */
struct bench_rec {
	uint64_t loops;		/**< iterations to run */
	enum bench_timer timer;	/**< how bench_stop() reads the TSC */
	/** 0..n_workers-1: 0 is the calling (main) lcore, then the worker
	 * lcores in RTE_LCORE_FOREACH_WORKER order. */
	unsigned int worker;
	unsigned int n_workers;	/**< lcores running this benchmark at once */
	unsigned int lcore_id;	/**< rte_lcore_id() of this worker */
	/* harness-owned */
	uint64_t t_start;	/**< TSC at the last bench_start() */
	uint64_t t_first;	/**< TSC at the first bench_start() */
	uint64_t t_last;	/**< TSC at the last bench_stop() */
	uint64_t cycles;	/**< sum of the timed laps */
	uint64_t elems;		/**< sum of the elements reported */
	unsigned int laps;	/**< bench_stop() calls */
	bool running;		/**< between bench_start() and bench_stop() */
};

/** Read the TSC before the timed code (serialised both ways). */
static __rte_always_inline uint64_t
bench_tsc_begin(void)
{
#if defined(RTE_ARCH_X86)
	uint32_t lo, hi;

	/* First lfence: every earlier instruction has completed before the
	 * read. Second lfence: no later instruction starts before it. */
	__asm__ volatile("lfence\n\trdtsc\n\tlfence"
			 : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
#else
	return rte_rdtsc_precise();
#endif
}

/**
 * Read the TSC after the timed code (serialised both ways) with timer t.
 * The branch on t is taken before the read, inside the interval: it is part
 * of the lap overhead the harness measures and reports.
 */
static __rte_always_inline uint64_t
bench_tsc_end(enum bench_timer t)
{
#if defined(RTE_ARCH_X86)
	uint32_t lo, hi, aux;

	if (likely(t == BENCH_TIMER_RDTSCP)) {
		/* rdtscp waits until every earlier instruction has executed
		 * (and earlier loads are globally visible); the lfence keeps
		 * later instructions from starting before the read. */
		__asm__ volatile("rdtscp\n\tlfence"
				 : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
		RTE_SET_USED(aux);
	} else {
		/* First lfence: rdtsc does not execute before every earlier
		 * instruction has completed locally (on AMD this needs the
		 * LFENCE-serialising DE_CFG bit, which Linux sets at boot and
		 * KVM reports set to its guests). Second lfence: no later
		 * instruction starts before the read. */
		__asm__ volatile("lfence\n\trdtsc\n\tlfence"
				 : "=a"(lo), "=d"(hi) : : "memory");
	}
	return ((uint64_t)hi << 32) | lo;
#else
	RTE_SET_USED(t);
	return rte_rdtsc_precise();
#endif
}

/** Start a timed lap. Call from the benchmark function only. */
static __rte_always_inline void
bench_start(struct bench_rec *rec)
{
	rec->running = true;
	rec->t_start = bench_tsc_begin();
	if (rec->laps == 0)
		rec->t_first = rec->t_start;
}

/**
 * End a timed lap that processed elems elements. Call from the benchmark
 * function only, once per bench_start().
 */
static __rte_always_inline void
bench_stop(struct bench_rec *rec, uint64_t elems)
{
	uint64_t t = bench_tsc_end(rec->timer);

	rec->t_last = t;
	rec->cycles += t - rec->t_start;
	rec->elems += elems;
	rec->laps++;
	rec->running = false;
}

/**
 * A benchmark function: runs rec->loops iterations between bench_start()
 * and bench_stop() (or several timed laps). Returns 0, or a negative errno
 * that aborts the run (the harness reports it).
 * Must not block on anything another worker of the same run does not
 * provide: in concurrent mode every worker runs the same function.
 */
typedef int (*bench_fn)(struct bench_rec *rec, void *arg);

/** What to run. */
struct bench_spec {
	const char *name;	/**< printed as Type:NAME (< BENCH_NAME_LEN) */
	bench_fn fn;
	void *arg;		/**< passed to fn, shared by all workers */
	uint32_t step;		/**< printed as (step:S): bulk size, fields... */
};

/** Min / median / max over the repetitions. */
struct bench_stat {
	double min, median, max;
};

/** Figures of one lcore in a concurrent run. */
struct bench_lcore_result {
	unsigned int lcore_id;
	struct bench_stat cycles;	/**< cycles per element */
	struct bench_stat ns;		/**< ns per element */
	uint64_t elems;			/**< elements per repetition */
};

/** The outcome of bench_run() or bench_run_concurrent(). */
struct bench_result {
	char name[BENCH_NAME_LEN];
	uint32_t step;
	bool concurrent;
	uint64_t loops;			/**< per repetition (per lcore) */
	unsigned int reps;
	uint64_t elems;			/**< per repetition (per lcore, mean) */
	unsigned int laps;		/**< timed laps per repetition */
	uint64_t tsc_hz;
	enum bench_timer timer;		/**< how intervals were ended */
	/** Single: the run. Concurrent: the mean over lcores per rep. */
	struct bench_stat cycles;	/**< cycles per element */
	struct bench_stat ns;		/**< ns per element */
	double baseline_cycles;		/**< empty loop, cycles per loop */
	double lap_overhead_cycles;	/**< one TSC-read pair, cycles */
	/**
	 * Repetitions during which a benchmark thread lost more than
	 * BENCH_PREEMPT_PCT of its wall time to other tasks (monotonic time
	 * minus thread CPU time): the figure (and, concurrent, the
	 * contention) is then not what it claims. Time stolen by a hypervisor
	 * shows only if the guest kernel accounts steal time.
	 */
	unsigned int preempted_reps;
	double lost_pct_max;		/**< worst rep: % of wall time lost */
	/* concurrent only */
	unsigned int n_lcores;
	struct bench_lcore_result lcore[RTE_MAX_LCORE];
	/** Elements done by all lcores per second, median rep (Mops/s). */
	double sum_mops;
	/** Wall cycles of a rep / all lcores' elements (median rep). */
	double sum_cycles_per_elem;
	char error[BENCH_ERR_LEN];	/**< one line, set on failure */
};

/**
 * Run a benchmark on the calling lcore: one unmeasured warm-up, then reps
 * measured repetitions, plus the empty-loop baseline of the same length.
 *
 * @param spec   what to run (name and fn required)
 * @param loops  iterations per repetition, >= BENCH_MIN_LOOPS
 * @param reps   repetitions, 1..BENCH_MAX_REPS
 * @param out    the result; out->error holds one line on failure
 * @return 0, or a negative errno:
 *   -EINVAL  bad spec, loops < BENCH_MIN_LOOPS, reps out of range, or the
 *            function never called bench_start()/bench_stop() (or reported
 *            no element);
 *   -ERANGE  a repetition lasted fewer than BENCH_MIN_CYCLES cycles;
 *   -ENOTSUP the TSC frequency is unknown;
 *   -ENOMEM  out of memory;
 *   any negative value returned by spec->fn.
 * Thread-safe (no global state) if spec->fn is; needs the EAL initialised.
 */
int bench_run(const struct bench_spec *spec, uint64_t loops, unsigned int reps,
	      struct bench_result *out);

/**
 * Run the same benchmark on every lcore of the EAL set at once: the calling
 * (main) lcore is worker 0, every other enabled lcore is launched with
 * rte_eal_remote_launch(). Each repetition starts with a barrier that all
 * workers cross together; the baseline is measured on the main lcore.
 *
 * @return 0 or a negative errno, as bench_run(), plus:
 *   -ENODEV  fewer than 2 lcores in the EAL set (nothing concurrent to do);
 *   -EBUSY   a worker lcore is not idle, or not called from the main lcore.
 * Not thread-safe: call from the main lcore while every worker is idle.
 */
int bench_run_concurrent(const struct bench_spec *spec, uint64_t loops,
			 unsigned int reps, struct bench_result *out);

/**
 * Print the time_bench lines of a result:
 *   Type:NAME Per elem: C cycles(tsc) N.NNN ns (step:S) - <details>
 * and, for a concurrent run, one Type:NAME@lcoreK line per lcore.
 * Thread-safe (one result, one stream).
 */
void bench_print(FILE *f, const struct bench_result *r);

/**
 * The result as a JSON object:
 *   { "name": str, "mode": "single"|"concurrent", "step": int,
 *     "loops": int, "reps": int, "elems": int, "laps": int, "tsc_hz": int,
 *     "timer": "rdtscp"|"lfence",
 *     "preempted_reps": int, "lost_pct_max": real,
 *     "cycles_per_elem": {"min","median","max"}: real,
 *     "ns_per_elem": {"min","median","max"}: real,
 *     "baseline_cycles_per_loop": real, "lap_overhead_cycles": real,
 *     concurrent only:
 *     "lcores": [ {"lcore": int, "elems": int, "cycles_per_elem": {...},
 *                  "ns_per_elem": {...}} ],
 *     "sum": {"lcores": int, "mops": real, "cycles_per_elem": real} }
 * @return a new reference, or NULL (out of memory).
 */
json_t *bench_result_json(const struct bench_result *r);

/**
 * A new result document:
 *   { "schema": "pktpath-bench/1", "version": str, "tsc_hz": int,
 *     "timer": "rdtscp"|"lfence", "timer_insns": str,
 *     "cpu_has_rdtscp": bool, "invariant_tsc": bool, "lcores": int, "results": [], "skipped": [] }
 * @return a new reference, or NULL (out of memory).
 */
json_t *bench_doc_new(void);

/** Append a result (bench_result_json()) to doc's "results"; 0 or -ENOMEM. */
int bench_doc_add(json_t *doc, const struct bench_result *r);

/** Append {"name", "reason"} to doc's "skipped"; 0 or -ENOMEM. */
int bench_doc_skip(json_t *doc, const char *name, const char *reason);

/**
 * Write doc to path (indented, newline-terminated), as every output is
 * written (base.h "Files": a regular file or a character device, never a
 * FIFO; every write and the final fsync/close checked).
 * @return 0, or -errno (the open's refusal, -ENOSPC, -EIO...) with one
 *         line in err (BENCH_ERR_LEN) naming path.
 */
int bench_doc_write(const json_t *doc, const char *path, char *err);

/**
 * Check that a JSON object follows the bench_result_json() schema.
 * @return 0, or -EINVAL with a one-line description in err (may be NULL).
 * Thread-safe.
 */
int bench_result_json_check(const json_t *o, char *err, size_t len);

/** ns for a number of TSC cycles, at rte_get_tsc_hz(). */
double bench_cycles_to_ns(double cycles);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_BENCH_H */
