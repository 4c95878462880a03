/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STATS_SERIES_H
#define PKTPATH_STATS_SERIES_H

/**
 * @file
 * A run's history, one point per scheduled fold: the raw counters the
 * interval rates are made of (per worker and total), the workers' lost
 * time and, with --pmu, their groups' counts, the control block's RuleUpdates and ModeFlips and the Mode group's
 * packets and cycles per mode, with the fold's time. What the JSON's
 * "intervals" and "events" arrays, the spread of per-interval Mpps and the
 * steady state (warm-up detection, per ingress mode when it changed) are
 * computed from.
 *
 * An interval (point k to k + 1) is
 *   lost   when a worker did not run for the series' lost share of it or
 *          more (stats_rate_lost(): the kernel's accounting of its thread);
 *   pure   in ingress mode m when every packet and every polled cycle of it
 *          counted in m (the Mode group), else mixed (a flip fell in it).
 * The steady state leaves out lost intervals, and when the mode changed
 * during the run there is none for the run: each mode that has pure
 * intervals gets its own (stats_steady.modes), its warm-up detected within
 * each of its stretches (its runs of consecutive pure intervals), since
 * every flip starts a warm-up of its own.
 *
 * Points are raw (never baseline-cleared): a POST /stats/clear changes no
 * interval. Thread-safety: one thread adds (the stats thread, from
 * stats_conf.on_publish); the rest reads after stats_stop(), from that same
 * thread, or from any thread between stats_series_lock() and
 * stats_series_unlock() (GET /history while the run goes on).
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
	STATS_SERIES_STALLCYCLES,	/**< Rx LostCycles */
	STATS_SERIES_STALLPOLLS,	/**< Rx LostPolls */
	STATS_SERIES_LOSTNS,		/**< stats_thread.lost_ns (the total: sum) */
	STATS_SERIES_IVCSW,		/**< stats_thread.ivcsw (the total: sum) */
	STATS_SERIES_VCSW,		/**< stats_thread.vcsw (the total: sum) */
	STATS_SERIES_KNOWN,		/**< stats_thread.known (the total: count) */
	STATS_SERIES_STATE,		/**< stats_thread.state (the total: 0) */
	STATS_SERIES_RULEUPDATES,	/**< Ingress RuleUpdates (total only) */
	STATS_SERIES_MODEFLIPS,		/**< Ingress ModeFlips (total only) */
	STATS_SERIES_MODE0,		/**< Mode packets of mode 0 .. MIB_MODES-1 */
	/** Mode busy + idle + lost cycles of mode 0 .. MIB_MODES-1 */
	STATS_SERIES_MODECYC0 = STATS_SERIES_MODE0 + MIB_MODES,
	STATS_SERIES_F_MAX = STATS_SERIES_MODECYC0 + MIB_MODES
};

/** stats_series_mode(): an interval with packets or cycles in several
 *  modes; one with none (no worker had begun). */
#define STATS_SERIES_MIXED (-1)
#define STATS_SERIES_NONE (-2)

struct stats_series;

/**
 * An empty history for n_workers workers (NULL: out of memory). Points
 * closer than min_gap_s to the last one are not kept (an unscheduled fold
 * just after a scheduled one: pktpath passes half the --interval). An
 * interval is lost when a worker did not run for lost_share of it or more
 * (0: STATS_LOST_SHARE_DEFAULT).
 */
struct stats_series *stats_series_create(unsigned int n_workers, double min_gap_s,
					 double lost_share);
void stats_series_free(struct stats_series *se);

/** Hold off stats_series_add() while a reader on another thread reads a
 *  consistent history (every read of it between the two). Not recursive;
 *  never call stats_series_add() in between. */
void stats_series_lock(const struct stats_series *se);
void stats_series_unlock(const struct stats_series *se);

/** A copy of se, taken under its lock (held only for the copy: a reader
 *  that renders the whole history, up to the window's points, does not
 *  hold off the stats thread's stats_series_add() meanwhile). Free with
 *  stats_series_free(). NULL when out of memory. Thread-safe. */
struct stats_series *stats_series_copy(const struct stats_series *se);

/** Bytes of the C allocator a history of n_workers workers takes for
 *  points points (the values, the point array at its largest). Thread-safe. */
uint64_t stats_series_bytes(unsigned int n_workers, uint64_t points);

/**
 * Keep at most max_points points (0: no bound, the default): beyond it,
 * each point added drops the oldest, so that an endless run's history
 * (--duration 0) stays flat in memory; its intervals, steady state and
 * JSON then cover the last max_points - 1 intervals. 0, or -EINVAL
 * (max_points 1, or fewer than the points already kept).
 */
int stats_series_window(struct stats_series *se, unsigned int max_points);
/** Points dropped by the window so far (stats_series_window()). */
uint64_t stats_series_dropped(const struct stats_series *se);
/** Points that fit in bytes of the C allocator for n_workers workers (the
 *  inverse of stats_series_bytes(); at least 2). Thread-safe. */
unsigned int stats_series_points_in(unsigned int n_workers, uint64_t bytes);

/** Append snap (its raw values, TSC, uptime and lateness), dropping the
 *  oldest point at the window (stats_series_window()). 0; 1: not kept
 *  (closer than min_gap_s to the last point); -EINVAL (snap's workers
 *  differ, or it is not later than the last point), -ENOMEM. */
int stats_series_add(struct stats_series *se, const struct stats_snapshot *snap);

/** The workers of each point. */
unsigned int stats_series_workers(const struct stats_series *se);
/** Points so far (the intervals are one fewer). */
unsigned int stats_series_count(const struct stats_series *se);
/** Point i's uptime (seconds since stats_start()). */
double stats_series_uptime(const struct stats_series *se, unsigned int i);
/** Point i's stats_snapshot.late_s: how late the stats thread woke for it. */
double stats_series_late(const struct stats_series *se, unsigned int i);
/** Point i's raw value of field f, of worker w (or the total when w < 0;
 *  the total only for RULEUPDATES, MODEFLIPS and the modes). */
uint64_t stats_series_value(const struct stats_series *se, unsigned int i,
			    int w, enum stats_series_field f);

/** The rates from point i to point j (i < j) of worker w or the total
 *  (w < 0), as stats_rate_between() gives them, lost time included. 0 or
 *  -EINVAL. */
int stats_series_rate(const struct stats_series *se, unsigned int i,
		      unsigned int j, int w, struct stats_rate *r);

/** --pmu: the events of worker w (or all, w < 0) from point i to point j
 *  (i < j), with their packets, as stats_pmu_between() gives them. 0, or
 *  -EINVAL (no --pmu, out of range). */
int stats_series_pmu(const struct stats_series *se, unsigned int i,
		     unsigned int j, int w, struct stats_pmu_rate *r);

/** Whether interval k (point k to k + 1) lost time: a worker did not run
 *  for the series' lost share of it or more. */
bool stats_series_lost(const struct stats_series *se, unsigned int k);

/** The ingress mode interval k was pure in (0 .. MIB_MODES - 1), or
 *  STATS_SERIES_MIXED, or STATS_SERIES_NONE. A lost interval in which
 *  nothing was counted (the workers did not run at all) is in the mode of
 *  the interval before it. */
int stats_series_mode(const struct stats_series *se, unsigned int k);

/** Per-interval total Mpps of intervals first .. count-2 (interval k is
 *  point k to point k+1) into mpps (room for count - 1). The number written. */
unsigned int stats_series_mpps(const struct stats_series *se, unsigned int first,
			       double *mpps);

/** The steady state of one ingress mode, when the mode changed (below). */
struct stats_mode_steady {
	unsigned int mode;		/**< 0 .. MIB_MODES - 1 */
	unsigned int stretches;		/**< runs of consecutive pure intervals */
	unsigned int intervals;		/**< pure intervals in mode */
	unsigned int kept;		/**< of them in the steady state */
	unsigned int lost;		/**< left out: lost time */
	unsigned int warmup;		/**< left out: a stretch's warm-up */
	unsigned int undetected;	/**< stretches too short to detect one
					 *   (kept whole) */
	double first_s;			/**< start of its first pure interval */
	struct stats_rate total;	/**< over the kept intervals */
	struct stats_rate *lcore;	/**< total_workers, the same */
	unsigned int total_workers;	/**< the run's workers */
	struct stats_spread spread;	/**< their total Mpps */
	bool unstable;			/**< spread.cv > STATS_CV_UNSTABLE */
};

/** What the steady state made of an interval (stats_steady.iv). */
enum stats_iv_use {
	STATS_IV_KEPT,		/**< in the steady state (of the run or its mode) */
	STATS_IV_WARMUP,	/**< before the steady state (or an explicit
				 *   --warmup's end): a warm-up */
	STATS_IV_LOST,		/**< left out: a worker lost time in it */
	STATS_IV_MIXED,		/**< left out: a mode flip fell in it */
	STATS_IV_OUT,		/**< none: nothing counted, or no detection */
	STATS_IV_USE_MAX
};

/** "kept", "warm-up", "lost", "mixed", "out". */
const char *stats_iv_use_name(enum stats_iv_use u);

/** Where the steady state of a run begins, and how steady it is. */
struct stats_steady {
	bool detected;		/**< auto: MSER answered */
	/** auto: MSER chose the last start it may (half the intervals): the
	 *  series did not settle (a trend, a stall), and what follows is the
	 *  second half rather than a steady state. */
	bool at_limit;
	bool explicit_warmup;	/**< --warmup SECONDS: no detection */
	unsigned int first_interval;	/**< the first steady interval */
	double start_s;		/**< its start (uptime), -1 when none */
	unsigned int intervals;	/**< intervals in the run */
	unsigned int lost;	/**< of them lost (left out of everything) */
	struct stats_spread spread;	/**< per-interval total Mpps, steady part */
	bool unstable;		/**< spread.cv > STATS_CV_UNSTABLE */
	char why[160];		/**< no detection: why */
	/**
	 * The mode changed during the run (an interval was mixed, or two were
	 * pure in different modes): no steady state for the run (the
	 * summary's steady part is left empty, with the reason), one per mode
	 * instead, in mode order (n_modes of them: the modes with pure
	 * intervals). mixed: the intervals a flip fell in.
	 */
	bool by_mode;
	unsigned int mixed;
	unsigned int n_modes;
	struct stats_mode_steady modes[MIB_MODES];
	/** What became of each of the intervals (enum stats_iv_use), NULL
	 *  when out of memory. */
	uint8_t *iv;
};

/**
 * The steady state of a run, lost intervals left out: warmup_s < 0 detects
 * its start (stats_warmup_detect() on the per-interval total Mpps of the
 * intervals that did not lose time), warmup_s >= 0 starts it at the first
 * interval that starts at or after warmup_s (0.05 s or 5% of an interval
 * of slack); sum's steady rates are the sums over its intervals that did
 * not lose time, and over the tail from the last point to final unless
 * that lost time, if they span at least 0.95 interval_s (else no steady
 * part, with the reason). Without detection (too few intervals) sum has no
 * steady part and st->why says why. When the mode changed (by_mode), sum
 * has no steady part, and st->modes the per-mode ones (the same rules
 * within each stretch: an explicit warm-up counts from each stretch's
 * start). Free with stats_steady_fini().
 * @return 0, or -EINVAL, -ENOMEM.
 */
int stats_series_steady(const struct stats_series *se,
			const struct stats_snapshot *final, double interval_s,
			double warmup_s, struct stats_summary *sum,
			struct stats_steady *st);

/** Free what stats_series_steady() allocated in st. */
void stats_steady_fini(struct stats_steady *st);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_STATS_SERIES_H */
