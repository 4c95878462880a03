/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STATS_SERIES_H
#define PKTPATH_STATS_SERIES_H

/**
 * @file
 * A run's history, one point per scheduled fold: the raw counters the
 * interval rates are made of (per worker and total), the control block's
 * RuleUpdates and ModeFlips and the Mode group's packets per mode, with
 * the fold's time. What the JSON's "intervals" and "events" arrays, the
 * spread of per-interval Mpps and warm-up detection are computed from.
 *
 * Points are raw (never baseline-cleared): a POST /stats/clear changes no
 * interval. Thread-safety: one thread adds (the stats thread, from
 * stats_conf.on_publish); the rest reads only after stats_stop() (or from
 * that same thread).
 */

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"
#include "stats_confidence.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a point keeps of each worker and of the total. */
enum stats_series_field {
	STATS_SERIES_PACKETS,		/**< Rx RxPackets */
	STATS_SERIES_OCTETS,		/**< Rx RxOctets */
	STATS_SERIES_BUSY,		/**< Rx BusyCycles */
	STATS_SERIES_IDLE,		/**< Rx IdleCycles */
	STATS_SERIES_RULEUPDATES,	/**< Ingress RuleUpdates (total only) */
	STATS_SERIES_MODEFLIPS,		/**< Ingress ModeFlips (total only) */
	STATS_SERIES_MODE0,		/**< Mode packets of mode 0 .. MIB_MODES-1 */
	STATS_SERIES_F_MAX = STATS_SERIES_MODE0 + MIB_MODES
};

struct stats_series;

/**
 * An empty history for n_workers workers (NULL: out of memory). Points
 * closer than min_gap_s to the last one are not kept: when the stats thread
 * was starved, it folds the deadlines it missed back to back, and those
 * folds would be intervals of microseconds (pktpath passes half the
 * --interval: the stalled stretch becomes one long, slow interval).
 */
struct stats_series *stats_series_create(unsigned int n_workers, double min_gap_s);
void stats_series_free(struct stats_series *se);

/** Bytes of the C allocator a history of n_workers workers takes for
 *  points points (the values, the point array at its largest). Thread-safe. */
uint64_t stats_series_bytes(unsigned int n_workers, uint64_t points);

/** Append snap (its raw values, TSC and uptime). 0; 1: not kept (closer
 *  than min_gap_s to the last point); -EINVAL (snap's workers differ, or
 *  it is not later than the last point), -ENOMEM. */
int stats_series_add(struct stats_series *se, const struct stats_snapshot *snap);

/** The workers of each point. */
unsigned int stats_series_workers(const struct stats_series *se);
/** Points so far (the intervals are one fewer). */
unsigned int stats_series_count(const struct stats_series *se);
/** Point i's uptime (seconds since stats_start()). */
double stats_series_uptime(const struct stats_series *se, unsigned int i);
/** Point i's raw value of field f, of worker w (or the total when w < 0;
 *  the total only for RULEUPDATES, MODEFLIPS and the modes). */
uint64_t stats_series_value(const struct stats_series *se, unsigned int i,
			    int w, enum stats_series_field f);

/** The rates from point i to point j (i < j) of worker w or the total
 *  (w < 0), as stats_rate_between() gives them. 0 or -EINVAL. */
int stats_series_rate(const struct stats_series *se, unsigned int i,
		      unsigned int j, int w, struct stats_rate *r);

/** Per-interval total Mpps of intervals first .. count-2 (interval k is
 *  point k to point k+1) into mpps (room for count - 1). The number written. */
unsigned int stats_series_mpps(const struct stats_series *se, unsigned int first,
			       double *mpps);

/** Where the steady state of a run begins, and how steady it is. */
struct stats_steady {
	bool detected;		/**< auto: MSER answered */
	/** auto: MSER chose the last start it may (half the intervals): the
	 *  series did not settle (a trend, a mode flip, a stall), and what
	 *  follows is the second half rather than a steady state. */
	bool at_limit;
	bool explicit_warmup;	/**< --warmup SECONDS: no detection */
	unsigned int first_interval;	/**< the first steady interval */
	double start_s;		/**< its start (uptime), -1 when none */
	unsigned int intervals;	/**< intervals in the run */
	struct stats_spread spread;	/**< per-interval total Mpps, steady part */
	bool unstable;		/**< spread.cv > STATS_CV_UNSTABLE */
	char why[160];		/**< no detection: why */
};

/**
 * The steady state of a run: warmup_s < 0 detects it (stats_warmup_detect()
 * on the per-interval total Mpps) and sets sum's steady rates from the start
 * of the first steady interval to final, the summary's usual rule applying
 * (at least 0.95 interval_s of it, else no steady part, with the reason);
 * warmup_s >= 0 keeps sum's steady rates (stats_summary()'s) and takes the
 * spread over the intervals that start at or after warmup_s (0.05 s or 5%
 * of an interval of slack). Without detection (too few intervals) sum has
 * no steady part and st->why says why.
 * @return 0, or -EINVAL.
 */
int stats_series_steady(const struct stats_series *se,
			const struct stats_snapshot *final, double interval_s,
			double warmup_s, struct stats_summary *sum,
			struct stats_steady *st);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_STATS_SERIES_H */
