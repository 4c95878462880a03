/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STATS_PVT_H
#define PKTPATH_STATS_PVT_H

/* Internals of lib/stats; not for other modules. */

#include <pthread.h>
#include <stdbool.h>

#include <rte_log.h>

#include "stats.h"
#include "stats_tcount.h"

/* The log type pktpath.stats (--log-level=pktpath.stats:debug; log.c). */
extern int stats_logtype;
#define STATS_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, stats_logtype, "pktpath: stats: " fmt "\n", \
		##__VA_ARGS__)

/* One sampled port: its identity, kernel counters and baseline (port.c). */
struct stats_port_state {
	struct stats_port_conf conf;
	char driver[64];
	char name[64];
	char iface[32];
	char kernel[160];		/* what kernel_* count, "" for none */
	unsigned int n_xstats;
	char **xstat_names;		/* n_xstats, owned */
	uint64_t *xstat_ids;
	/* kernel counters (port_kernel.c), touched under fold_lock only */
	int kind;			/* STATS_KPORT_* */
	int fds[STATS_PORT_MAX_QUEUES];	/* net_af_packet: the PMD's sockets */
	unsigned int n_fds;
	unsigned int if_index;
	uint64_t k_packets, k_drops;	/* summed since stats_create() */
	uint32_t tap_last;		/* net_tap: last tx_dropped read */
	uint32_t tap_last_pkts;		/* net_tap: last tx_packets read */
	/* baseline (under lock) */
	uint64_t base[STATS_PORT_F_MAX];
	uint64_t q_base[STATS_PORT_MAX_QUEUES][STATS_PORT_Q_MAX];
	uint64_t *x_base;
	uint64_t rx_base;
};

enum { STATS_KPORT_NONE, STATS_KPORT_AF_PACKET, STATS_KPORT_TAP };

/* port_kernel.c */
void __stats_kport_init(struct stats_port_state *st,
			const struct stats_port_state *prev, unsigned int n_prev);
void __stats_kport_sample(struct stats_port_state *st);
void __stats_kport_fini(struct stats_port_state *st);

/* A worker's thread, as the folds follow it (tcount.c reads it; stats.c
 * accumulates; under fold_lock). */
struct stats_tstate {
	struct stats_tcount_reader rd;
	bool begun;		/* its clock said it began */
	bool ended;		/* its end has been accounted */
	uint64_t a_tsc;		/* the last point accounted: TSC, CPU time */
	uint64_t a_run_ns;
	uint64_t run_ns;	/* CPU time since it began */
	uint64_t lost_ns;	/* accumulated: wall less CPU time */
	bool base_taken;	/* the first reading: the counts' baseline */
	struct stats_tcount base, last;
	struct stats_pmu_count pmu;	/* --pmu: its group's last reading */
};

/* lost.c: called by stats.c */
/* r's lost-time fields between a and b, for worker w or all (w < 0). */
void __stats_rate_lost(const struct stats_snapshot *a, const struct stats_snapshot *b,
		       int w, struct stats_rate *r);

/* pmu_fold.c: --pmu on the stats object's side (called by stats.c) */
#define STATS_PMU_READERS 16	/* threads whose read folds are counted */
struct stats_pmu_reader {
	int tid;		/* 0: a free slot */
	struct stats_pmu_group g;
};
int __stats_pmu_init(struct stats *s);		/* 0 or -errno */
void __stats_pmu_free(struct stats *s);
void __stats_pmu_thread_open(struct stats *s);	/* on the stats thread */
void __stats_pmu_thread_close(struct stats *s);
/* The calling thread's group for its read folds (opened at its first),
 * or NULL (none, full, failed). */
const struct stats_pmu_group *__stats_pmu_reader(struct stats *s);
/* Read g (the caller's own; NULL or closed: c unknown) into c, before and
 * after a fold. */
void __stats_pmu_mark(const struct stats_pmu_group *g, struct stats_pmu_count *c);
/* A snapshot's pmu_iv (none without --pmu); 0 or -ENOMEM. Its figures
 * over the interval from prev. */
int __stats_pmu_snap_alloc(const struct stats *s, struct stats_snapshot *p);
void __stats_pmu_interval(const struct stats_snapshot *prev, struct stats_snapshot *p);
/* p's sums, adding its fold_pmu (a scheduled fold, or a read fold), under
 * lock. */
void __stats_pmu_sums(struct stats *s, struct stats_snapshot *p, bool read);
/* The summary's figures (sum->lcore and sum->steady done). */
int __stats_pmu_summary(const struct stats *s, const struct stats_snapshot *from,
			const struct stats_snapshot *to, struct stats_summary *sum);

struct stats {
	struct stats_conf conf;
	unsigned int n_blocks;
	uint64_t hz;
	uint64_t start_tsc;

	pthread_t tid;
	bool thread_running;
	bool stop;			/* under wait_lock */
	pthread_mutex_t wait_lock;
	pthread_cond_t wait_cond;

	pthread_mutex_t fold_lock;	/* one fold at a time */
	pthread_mutex_t lock;		/* snapshots, refcounts, baseline */
	struct stats_snapshot *latest;
	struct stats_snapshot *first;	/* at stats_start() */
	struct stats_snapshot *warm;	/* first one past the warm-up */
	struct stats_snapshot *final;	/* at stats_stop() */
	uint64_t *base_totals;		/* raw values at the last clear */
	uint64_t *base_per_block;
	struct stats_hist *base_hist;	/* --perf-detail: raw at the last clear */
	int64_t *hist_clear_lead;	/* and its lead over RxBursts (__hist_clear) */
	uint64_t clears;
	uint64_t folds;
	double fold_ns_sum;
	double fold_ns_max;
	/* durations of the last STATS_FOLD_RING scheduled folds and read
	 * folds (rings, under lock), and the read folds' histogram */
	double *fold_ring;
	uint64_t fold_ring_n;		/* scheduled folds recorded */
	double *read_ring;
	uint64_t read_folds;
	double read_fold_s_sum;
	uint64_t read_fold_buckets[STATS_READ_BUCKETS];
	unsigned int n_ports;
	struct stats_port_state *port_st;	/* n_ports */
	int *worker_port;			/* n_workers, or NULL */
	struct stats_tstate *tst;		/* n_workers, with conf.clocks */
	double late_s;		/* the stats thread's lateness at its wake-up */
	/* --pmu (pmu_fold.c): the events (conf.pmu points here once
	 * created), the stats thread's group (its own), the sums of the
	 * scheduled and read folds' counts (under lock), the readers' groups
	 * (under pmu_lock) */
	struct stats_pmu_conf pmu;
	struct stats_pmu_group fold_grp;
	struct stats_pmu_delta fold_pmu_sum, read_pmu_sum;
	uint64_t fold_pmu_n, read_pmu_n;
	pthread_mutex_t pmu_lock;
	struct stats_pmu_reader pmu_readers[STATS_PMU_READERS];
};

/* --perf-detail's histograms of a stats object: STATS_PERF_MAX a worker. */
static inline size_t
__n_hist(const struct stats *s)
{
	return (size_t)(s->conf.n_workers ? s->conf.n_workers : 1) * STATS_PERF_MAX;
}

/*
 * A sampler: what the stats thread reads beside the MIB blocks at each
 * fold (the ports' counters, the workers' thread accounting), with its
 * state in the stats object and its values in each snapshot. sampler.c
 * lists them (ports, then threads) and stats.c calls them in that order
 * through __stats_samplers_*(), never one by name. Every callback may be
 * NULL, and does nothing for a stats object that has nothing of its kind
 * (no port, no worker clock).
 */
struct stats_sampler {
	const char *name;
	/** stats_create(): its state; 0 or -errno (then free is called). */
	int (*init)(struct stats *s);
	/** stats_free() (and after a failed init): its state. */
	void (*free)(struct stats *s);
	/** A snapshot's room for its values; 0 or -errno. */
	int (*snap_alloc)(const struct stats *s, struct stats_snapshot *p);
	/** Free what snap_alloc allocated (also after it failed half-way). */
	void (*snap_free)(struct stats_snapshot *p);
	/** Its raw values into p, after the fold of p; under fold_lock. */
	void (*sample)(struct stats *s, struct stats_snapshot *p);
	/** Whether a read fold (stats_read()) samples it too; NULL: never. */
	bool (*on_read)(const struct stats *s);
	/** p's baseline-relative values from its raw ones; under s->lock. */
	void (*rebase)(struct stats *s, struct stats_snapshot *p);
	/** Take p's raw values as the new baseline (a clear); under s->lock. */
	void (*clear)(struct stats *s, const struct stats_snapshot *p);
};

/* The samplers, each defined in its own file (port.c, lost.c). */
extern const struct stats_sampler __stats_sampler_ports;
extern const struct stats_sampler __stats_sampler_threads;

/* sampler.c: every sampler's callback in turn. init stops at the first
 * error and returns it; sample(read: a read fold) calls only the samplers
 * whose on_read says so; on_read is whether any does. */
int __stats_samplers_init(struct stats *s);
void __stats_samplers_free(struct stats *s);
int __stats_samplers_snap_alloc(const struct stats *s, struct stats_snapshot *p);
void __stats_samplers_snap_free(struct stats_snapshot *p);
void __stats_samplers_sample(struct stats *s, struct stats_snapshot *p, bool read);
bool __stats_samplers_on_read(const struct stats *s);
void __stats_samplers_rebase(struct stats *s, struct stats_snapshot *p);
void __stats_samplers_clear(struct stats *s, const struct stats_snapshot *p);

#endif
