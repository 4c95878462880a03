/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STATS_TCOUNT_H
#define PKTPATH_STATS_TCOUNT_H

/**
 * @file
 * What the kernel counts of one thread: the time it ran on a CPU, the time
 * it waited on a run queue while runnable, and its voluntary and
 * involuntary context switches. The stats thread reads them for every
 * worker at each fold, so that an interval in which a worker did not run
 * (another task took its CPU, the process was stopped, the hypervisor
 * stole the vCPU) is known as such: lost time = the interval's wall time
 * less the time the worker ran in it.
 *
 * Sources (a reading says which gave the run time, STATS_TCOUNT_SRC_*):
 *   the thread's CPU-time clock    run time, exact to the call (clock_gettime()
 *                                  on the clock id of TID, as
 *                                  pthread_getcpuclockid() builds it: the
 *                                  kernel brings the running thread's time
 *                                  up to date first)
 *   /proc/self/task/TID/schedstat  run-queue wait, ns (CONFIG_SCHED_INFO, on by
 *                                  default); its run time too, which lags a
 *                                  running thread by up to a tick, used only
 *                                  where the clock is not (a test's root)
 *   /proc/self/task/TID/status     State, voluntary_ctxt_switches,
 *                                  nonvoluntary_ctxt_switches
 *   a perf_event_open group      --pmu: the events of stats_pmu.h counting the
 *                                  thread (hardware counters, task-clock,
 *                                  context-switches...), read(2) on its
 *                                  leader at the same moment as the rest
 *                                  (stats_tcount.pmu), when one is attached
 *                                  (stats_tcount_attach_pmu())
 * The kernel's run time excludes the time its interrupts and a paravirt
 * hypervisor's steal took (CONFIG_IRQ_TIME_ACCOUNTING,
 * CONFIG_PARAVIRT_TIME_ACCOUNTING), so lost time includes them too.
 *
 * The group's task-clock is the same kernel count as the thread's CPU-time
 * clock (the scheduler's sum_exec_runtime), and its context-switches the
 * sum of status's two: lost time keeps reading the clock and status, which
 * exist without --pmu (so a run's lost time does not depend on its events,
 * and the cause needs voluntary and involuntary apart); the group's values
 * are what --pmu reports, per interval beside them.
 *
 * A reader keeps its files open and rereads them with pread(): two system
 * calls a thread per read, never on a worker. root (for tests) replaces
 * "/proc/self/task" (NULL: the real one).
 *
 * Thread-safety: a reader is used by one thread at a time (the stats
 * thread, under its fold lock); the thread it reads may be any.
 */

#include <stdbool.h>
#include <stdint.h>

#include "stats_pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where the run time came from. */
enum stats_tcount_src {
	STATS_TCOUNT_SRC_NONE,		/**< not read (no thread, or it failed) */
	STATS_TCOUNT_SRC_CLOCK,		/**< the thread's CPU-time clock */
	STATS_TCOUNT_SRC_SCHEDSTAT,	/**< /proc/.../schedstat */
	STATS_TCOUNT_SRC_MAX
};

/** One reading, cumulative since the thread began. */
struct stats_tcount {
	uint64_t run_ns;	/**< time on a CPU */
	uint64_t wait_ns;	/**< time runnable, waiting for a CPU */
	uint64_t vcsw;		/**< voluntary context switches */
	uint64_t ivcsw;		/**< involuntary: preempted */
	uint8_t src;		/**< enum stats_tcount_src */
	char state;		/**< status's State: 'R', 'S', 'D', 'T', 't'...
				 *   (0: not read) */
	bool wait;		/**< wait_ns was read (schedstat) */
	bool csw;		/**< vcsw and ivcsw were read (status) */
	struct stats_pmu_count pmu;	/**< the attached group's (pmu.known:
					 *   it was read) */
};

/** A reader of one thread's counters. */
struct stats_tcount_reader {
	int tid;		/**< 0: not opened */
	int fd_sched;		/**< schedstat, or -1 */
	int fd_status;		/**< status, or -1 */
	bool clock;		/**< the thread's clock may be read (the real
				 *   /proc/self/task: tid is this process's) */
	const struct stats_pmu_group *pmu;	/**< counts the thread, or NULL */
};

/** "schedstat", "clock", "none". */
const char *stats_tcount_src_name(enum stats_tcount_src s);

/** A reader that reads nothing yet (tid 0, no file). */
void stats_tcount_init(struct stats_tcount_reader *r);

/**
 * Open thread tid's files under root (NULL: /proc/self/task).
 * @return 0 (at least one source opened), -ESRCH (no such thread), or
 *         -errno; the reader stays usable (closed) on failure.
 */
int stats_tcount_open(struct stats_tcount_reader *r, int tid, const char *root);

/**
 * Read the thread's counters into c (c->src says which run time; NONE, with
 * everything 0, when nothing could be read: the thread exited), and the
 * attached group's into c->pmu.
 * @return 0, or -errno when no source answered.
 */
int stats_tcount_read(struct stats_tcount_reader *r, struct stats_tcount *c);

/** Read group g (NULL: none) with the thread's other counters from now
 *  on; the group stays its owner's (the reader never closes it). */
void stats_tcount_attach_pmu(struct stats_tcount_reader *r,
			     const struct stats_pmu_group *g);

/** Close the files (the reader can be opened again; no group attached). */
void stats_tcount_close(struct stats_tcount_reader *r);

/**
 * Parse a schedstat line ("RUN_NS WAIT_NS TIMESLICES\n"), and the State
 * and *_ctxt_switches lines of a status text, into c. For the reader and the
 * tests. @return 0, or -EINVAL when the text has not the fields.
 */
int stats_tcount_parse_schedstat(const char *text, struct stats_tcount *c);
int stats_tcount_parse_status(const char *text, struct stats_tcount *c);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_STATS_TCOUNT_H */
