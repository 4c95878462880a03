/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STATS_PMU_H
#define PKTPATH_STATS_PMU_H

/**
 * @file
 * Counters the kernel keeps for one thread through perf_event_open(2): a
 * group of events (hardware: cycles, instructions, cache misses...; software:
 * task-clock, context-switches...) that count together, read at once. What
 * `--pmu EVENTS` measures: each worker's thread, per interval and per run
 * (events per packet, instructions per cycle), and the stats thread's own
 * folds (L1 misses per fold, field- against lcore-major, the snmp thread's
 * figure) and each --fold-on-read fold.
 *
 * Events are named as `perf list` names them: the generic hardware events
 * (cycles, instructions, cache-references, cache-misses, branches,
 * branch-misses, bus-cycles, stalled-cycles-frontend, stalled-cycles-backend,
 * ref-cycles and their aliases), the generic cache events (L1-dcache,
 * L1-icache, LLC, dTLB, iTLB, branch, node, each with -loads, -load-misses,
 * -stores, -store-misses, -prefetches, -prefetch-misses), raw codes rNNNN
 * (hexadecimal, the CPU's own event and umask), and the software events
 * (task-clock, cpu-clock, context-switches, cpu-migrations, page-faults,
 * minor-faults, major-faults, alignment-faults, emulation-faults).
 * "default" is cycles, instructions, L1-dcache-load-misses, LLC-load-misses,
 * branch-misses. A group holds at most STATS_PMU_MAX events; the hardware
 * ones lead it (a group led by a software event cannot hold a hardware one
 * on every kernel), in the order given, then the software ones.
 *
 * Hardware events count user space only (exclude_kernel, exclude_hv: perf's
 * ":u"): the path is user-space code, and kernel.perf_event_paranoid 2 (the
 * default) allows that much to any user. Software events count every mode
 * (a context switch happens in the kernel: excluding it counts none).
 *
 * Reading:
 *   another thread's group   read(2) on its leader (PERF_FORMAT_GROUP with
 *                            the times enabled and running): the stats
 *                            thread, at each fold, for every worker
 *                            (stats_tcount_read(): the one reader of a
 *                            thread's kernel counters);
 *   the caller's own group   stats_pmu_self_read(): rdpmc where the event's
 *                            page allows it (no system call: what a stage
 *                            mark of the worker's burst can afford), else
 *                            read(2); the stats thread around each fold.
 * When the PMU has fewer counters than the group needs, the kernel
 * multiplexes it: a value counted for part of the time is scaled by
 * enabled/running (stats_pmu_scale()) and said to be (scaled); a group that
 * never ran counted nothing, and is unknown, never zero.
 *
 * Where counting is impossible, stats_pmu_explain() says why in one line and
 * what to do: no PMU driver (a VM without a virtual PMU: "PMU not available
 * due to virtualization, using software events only" in dmesg),
 * kernel.perf_event_paranoid, rdpmc disabled
 * (/sys/bus/event_source/devices/cpu/rdpmc), an event the CPU does not
 * have. Its readers take a root folder (NULL: "/") under which "sys/..." and
 * "proc/..." are read, so that tests give fake trees.
 *
 * Thread-safety: parsing and the explanations are pure (any thread); a group
 * is opened, self-read and closed by one thread, and read(2) by one thread
 * at a time (the stats thread under its fold lock).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include <rte_common.h>
#include <rte_cycles.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most events of a group. */
#define STATS_PMU_MAX 8
/** Longest event name kept. */
#define STATS_PMU_NAME_LEN 40

/** One event of a group. */
struct stats_pmu_event {
	char name[STATS_PMU_NAME_LEN];	/**< as perf names it, or "rNNNN" */
	uint32_t type;			/**< PERF_TYPE_* */
	uint64_t config;
};

/** The events of a group, hardware ones first (see the file comment). */
struct stats_pmu_conf {
	unsigned int n;		/**< 0: no --pmu */
	struct stats_pmu_event ev[STATS_PMU_MAX];
};

/**
 * Parse a comma-separated list of event names into c (replacing it):
 * "default" expands to the default events; a name twice is an error.
 * @return 0, or -EINVAL with the reason in err (naming the event: "'cycels'
 *         is not an event perf names (see perf list: cycles, instructions,
 *         ..., task-clock, or rNNNN)"), without the option's name.
 */
int stats_pmu_parse(const char *list, struct stats_pmu_conf *c, char *err,
		    size_t len);

/** Whether e counts on the CPU's PMU (hardware, cache or raw), not in
 *  software. */
bool stats_pmu_event_is_hw(const struct stats_pmu_event *e);
/** Whether any event of c does. */
bool stats_pmu_conf_has_hw(const struct stats_pmu_conf *c);
/** The index in c of the event named name (after its aliases: "cs" is
 *  "context-switches"), or -1. */
int stats_pmu_conf_find(const struct stats_pmu_conf *c, const char *name);
/** "cycles,instructions,..." into buf. */
void stats_pmu_conf_names(const struct stats_pmu_conf *c, char *buf, size_t len);

/** A thread's group of counters. A zeroed group is closed (n == 0). */
struct stats_pmu_group {
	unsigned int n;		/**< events open (0: closed) */
	int fd[STATS_PMU_MAX];	/**< fd[0] leads the group */
	/** The events' pages, mapped by stats_pmu_open() with self (NULL
	 *  otherwise): what stats_pmu_self_read() reads with rdpmc. */
	void *page[STATS_PMU_MAX];
	int tid;		/**< the thread counted (0: the opener) */
	bool rdpmc;		/**< every page allows rdpmc (cap_user_rdpmc) */
};

/** One reading of a group, cumulative since it was opened. */
struct stats_pmu_count {
	uint64_t v[STATS_PMU_MAX];	/**< raw: counted while running */
	uint64_t enabled_ns;		/**< time the group was enabled */
	uint64_t running_ns;		/**< time it was on the PMU */
	uint8_t n;			/**< events */
	bool known;			/**< read (else every value is unknown) */
};

/**
 * Open c's events as one group counting thread tid (0: the calling thread),
 * on any CPU, enabled at once. self: the caller will read it itself
 * (stats_pmu_self_read()): each event's page is mapped, and g->rdpmc says
 * whether rdpmc may read it. The group stays closed on failure.
 * @return 0, or -errno of the first event that failed (*failed its index in
 *         c, may be NULL): -ENOENT (no such event here: no PMU, or the CPU
 *         lacks it), -EACCES/-EPERM (perf_event_paranoid), -ESRCH (no such
 *         thread), -EMFILE, -EINVAL (c empty)...
 */
int stats_pmu_open(struct stats_pmu_group *g, const struct stats_pmu_conf *c,
		   int tid, bool self, unsigned int *failed);

/** Stop counting (every event of the group); the values stay readable. 0 or
 *  -errno. */
int stats_pmu_disable(struct stats_pmu_group *g);

/** Close the group (a closed group: nothing). */
void stats_pmu_close(struct stats_pmu_group *g);

/**
 * Read the group (read(2) on its leader) into out. From any thread.
 * @return 0, or -errno (out->known false).
 */
int stats_pmu_read(const struct stats_pmu_group *g, struct stats_pmu_count *out);

/**
 * Parse a PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING
 * reading (nr, enabled, running, values...) of len bytes into out. For
 * stats_pmu_read() and the tests. @return 0, or -EINVAL (short, or nr not
 * n).
 */
int stats_pmu_parse_read(const uint64_t *buf, size_t len, unsigned int n,
			 struct stats_pmu_count *out);

/** The value of event i scaled to the whole time enabled (v * enabled /
 *  running); 0 when it never ran. */
double stats_pmu_scale(const struct stats_pmu_count *c, unsigned int i);

/** What an interval (or a run) of a group counted: b - a. */
struct stats_pmu_delta {
	double v[STATS_PMU_MAX];	/**< scaled to the interval's enabled time */
	uint64_t enabled_ns, running_ns;
	uint8_t n;
	bool known;		/**< both ends read (or a from the opening), and
				 *   the group ran in the interval */
	bool scaled;		/**< running < enabled: v are estimates */
};

/** The delta from a (NULL: the group's opening, when every value was 0)
 *  to b. */
void stats_pmu_delta(const struct stats_pmu_count *a,
		     const struct stats_pmu_count *b, struct stats_pmu_delta *d);
/** Add d to sum (sum->n 0: sum = d); known and scaled combine. */
void stats_pmu_delta_add(struct stats_pmu_delta *sum, const struct stats_pmu_delta *d);

/**
 * Instructions per cycle of d under c's events: instructions / cycles when
 * c has both and d counted cycles; NAN otherwise.
 */
double stats_pmu_ipc(const struct stats_pmu_conf *c, const struct stats_pmu_delta *d);

/**
 * Why opening event ev of c failed with err (negative errno), in one line
 * with what to do, read under root (NULL: "/"): "--pmu cycles: no hardware
 * PMU: the kernel has no PMU driver here (no /sys/bus/event_source/devices/cpu;
 * a VM without a virtual PMU?): only software events count (task-clock,
 * context-switches, cpu-migrations, page-faults)", "--pmu task-clock:
 * perf_event_open refused (Permission denied): kernel.perf_event_paranoid
 * is 3; ...", ...
 */
void stats_pmu_explain(const struct stats_pmu_conf *c, unsigned int ev, int err,
		       const char *root, char *line, size_t len);

/** Why rdpmc is not allowed here, in one line with what to do (the value of
 *  root/sys/bus/event_source/devices/cpu/rdpmc). */
void stats_pmu_explain_rdpmc(const char *root, char *line, size_t len);

/**
 * Whether c can be counted by this process: its group opened on the calling
 * thread and, with hardware events, rdpmc allowed on its pages (what the
 * fold reads use, and the stage marks will); closed again. On failure, line
 * says why (stats_pmu_explain(), stats_pmu_explain_rdpmc()).
 * @return 0, or -errno (-EACCES for rdpmc).
 */
int stats_pmu_probe(const struct stats_pmu_conf *c, const char *root, char *line,
		    size_t len);

#if defined(RTE_ARCH_X86)
/* rdpmc: counter (the page's index - 1) of the PMU, in user space. */
static __rte_always_inline uint64_t
__stats_pmu_rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (counter));
	return lo | (uint64_t)hi << 32;
}
#endif

/**
 * Read the calling thread's own group g (opened with self) into out, as
 * the kernel's documentation of struct perf_event_mmap_page reads it: for
 * each event, under its page's sequence lock, the page's offset plus the
 * counter's value by rdpmc, and the times enabled and running brought up
 * to date from the TSC (cap_user_time). Where that cannot be done (not
 * x86, a software event, a page that forbids rdpmc or has no time, an
 * event not on a counter at the moment) it reads the group with read(2).
 * No system call otherwise: what a stage mark of the worker's burst will
 * call with --pmu; today the stats thread around each fold.
 * @return 0, or -errno (out->known false).
 */
static inline int
stats_pmu_self_read(const struct stats_pmu_group *g, struct stats_pmu_count *out)
{
#if defined(RTE_ARCH_X86)
	unsigned int i;

	if (!g->rdpmc || g->n == 0)
		return stats_pmu_read(g, out);
	for (i = 0; i < g->n; i++) {
		const volatile struct perf_event_mmap_page *pc = g->page[i];
		uint64_t count, en = 0, run = 0, pmc, cyc, quot, rem, delta;
		uint32_t seq, idx;
		uint16_t width;

		do {
			seq = pc->lock;
			/* The page's fields after the sequence number... */
			rte_compiler_barrier();
			idx = pc->index;
			count = pc->offset;
			width = pc->pmc_width;
			if (idx == 0 || !pc->cap_user_rdpmc || !pc->cap_user_time ||
			    width == 0 || width > 64)
				return stats_pmu_read(g, out);
			pmc = __stats_pmu_rdpmc(idx - 1);
			/* sign-extend the counter's width */
			if (width < 64)
				pmc = (uint64_t)((int64_t)(pmc << (64 - width)) >>
						 (64 - width));
			count += pmc;
			if (i == 0) {
				cyc = rte_rdtsc();
				quot = cyc >> pc->time_shift;
				rem = cyc & (((uint64_t)1 << pc->time_shift) - 1);
				delta = pc->time_offset + quot * pc->time_mult +
					((rem * pc->time_mult) >> pc->time_shift);
				en = pc->time_enabled + delta;
				run = pc->time_running + delta;
			}
			/* ...and before it is checked again. */
			rte_compiler_barrier();
		} while (pc->lock != seq);
		out->v[i] = count;
		if (i == 0) {
			out->enabled_ns = en;
			out->running_ns = run;
		}
	}
	out->n = (uint8_t)g->n;
	out->known = true;
	return 0;
#else
	return stats_pmu_read(g, out);
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_STATS_PMU_H */
