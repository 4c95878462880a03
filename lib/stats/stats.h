/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STATS_H
#define PKTPATH_STATS_H

/**
 * @file
 * The stats thread: folds the per-lcore MIB blocks every interval, computes
 * rates, and publishes immutable snapshots that reporters (console, JSON,
 * HTTP, telemetry) read. Reporters never touch worker memory.
 *
 * Rates of a worker over an interval (testpmd / OVS pmd-perf-show style):
 *   pps        = dRxPackets / dt            (dt from the TSC)
 *   ns/pkt     = 1e9 / pps
 *   cycles/pkt = dBusyCycles / dRxPackets   (busy: polls that carried packets)
 *   busy %     = dBusyCycles / (dBusyCycles + dIdleCycles)
 *   Gbit/s     = 8 * dRxOctets / dt         (L2 bytes, no FCS/preamble/IFG)
 * For the total: pps and Gbit/s are sums, ns/pkt = 1e9 / total pps (the
 * aggregate cost of a packet), cycles/pkt = sum busy / sum packets. Every
 * division is guarded: a zero denominator gives 0.
 *
 * Clearing keeps a baseline (the raw totals at the time of the clear) and
 * subtracts it from every later snapshot; worker blocks are never written.
 * Rates are computed from raw values, so a clear never produces a negative
 * rate, and counters published after a clear never go below zero.
 *
 * Thread-safety: stats_get()/stats_put()/stats_clear() may be called from
 * any non-worker thread at any time; the rest is for the owning (main)
 * thread.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "mib.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Rates over one interval (or over a run). */
struct stats_rate {
	double seconds;
	uint64_t packets;
	uint64_t octets;
	uint64_t busy_cycles;
	uint64_t idle_cycles;
	double pps;
	double gbps;
	double ns_per_pkt;
	double cycles_per_pkt;
	double busy_pct;
};

/** An immutable, reference-counted snapshot. */
struct stats_snapshot {
	uint64_t seq;		/**< 0 for the first fold */
	uint64_t tsc;		/**< TSC at the fold */
	double uptime_s;	/**< since stats_start() */
	unsigned int n_workers;
	unsigned int n_blocks;	/**< workers + the control block */
	const unsigned int *lcore_ids;	/**< lcore of each worker */
	uint64_t totals[MIB_FIELD_MAX];	/**< since start or the last clear */
	uint64_t *per_block;	/**< n_blocks x MIB_FIELD_MAX, same base */
	struct stats_rate total;	/**< over the last interval */
	struct stats_rate *lcore;	/**< n_workers, over the last interval */
	double fold_ns;		/**< duration of this fold */
	double fold_ns_max;	/**< longest fold so far */
	double fold_ns_mean;
	uint64_t folds;
	uint64_t clears;
	/* private */
	uint64_t *raw_totals;
	uint64_t *raw_per_block;
	int refcnt;
};

struct stats_conf {
	struct mib_set *set;	/**< blocks: one per worker, then the control block */
	unsigned int n_workers;
	const unsigned int *lcore_ids;
	enum mib_fold fold;
	double interval_s;	/**< > 0 */
	double warmup_s;	/**< steady state starts after this */
	bool quiet;		/**< no per-interval console lines */
	FILE *out;		/**< console (stdout) */
};

struct stats;

/** Create (no thread yet). NULL with rte_errno on failure. */
struct stats *stats_create(const struct stats_conf *conf);
/** Take the first (zero) fold and start the stats control thread. 0/-errno. */
int stats_start(struct stats *s);
/** Stop the thread and take the final fold (call after workers stopped). */
void stats_stop(struct stats *s);
void stats_free(struct stats *s);

/** Latest snapshot with a reference taken (never NULL after stats_start). */
struct stats_snapshot *stats_get(struct stats *s);
/** Drop a reference. */
void stats_put(struct stats *s, struct stats_snapshot *snap);
/** Clear by baseline: the next snapshot counts from now. */
void stats_clear(struct stats *s);
/** Fold now (outside the thread's schedule) and publish. */
void stats_fold_now(struct stats *s);

/** Run summary: whole run (start..final) and steady (warm-up..final). */
struct stats_summary {
	struct stats_rate total;
	struct stats_rate steady;
	unsigned int n_workers;
	struct stats_rate *lcore;	 /**< n_workers */
	struct stats_rate *lcore_steady; /**< n_workers */
	bool steady_valid;		/**< the run lasted past the warm-up */
};

/** Compute the summary after stats_stop(); free with stats_summary_free. */
struct stats_summary *stats_summary(struct stats *s);
void stats_summary_free(struct stats_summary *sum);

/** Compute rates from raw deltas (exposed for tests). */
void stats_rate_compute(struct stats_rate *r, uint64_t packets, uint64_t octets,
			uint64_t busy, uint64_t idle, double seconds);

/** Print the summary, with environment (TSC Hz, DPDK version, CPU). */
void stats_print_summary(FILE *out, const struct stats_summary *sum,
			 const struct stats_snapshot *final);

/**
 * The snapshot as JSON (the --json and /stats.json schema, see README):
 * "mib" totals by group, "lcores" per worker (rates and, if lcore_mib, every
 * MIB field), "interval" rates, "fold", "conservation". info (may be NULL) is
 * added as "info" (borrowed reference). summary (may be NULL) as "summary".
 */
json_t *stats_json(const struct stats_snapshot *snap,
		   const struct stats_summary *sum, json_t *info,
		   bool lcore_mib);

/** Terminal drop outcomes, in path order ("drops by reason"). */
extern const unsigned int stats_drop_fields[];
extern const unsigned int stats_n_drop_fields;

/** CPU model name from /proc/cpuinfo into buf ("unknown" if absent). */
void stats_cpu_model(char *buf, size_t len);

/** The per-interval console line(s), as the stats thread prints them. */
void stats_print_interval(FILE *out, const struct stats_snapshot *snap,
			  const struct stats_snapshot *prev);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_STATS_H */
