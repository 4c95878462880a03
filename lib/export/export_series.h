/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_EXPORT_SERIES_H
#define PKTPATH_EXPORT_SERIES_H

/**
 * @file
 * A run's history (stats_series.h) and its steady state as the console and
 * the JSON show them: the "intervals" and "events" arrays and
 * "summary.steady_state" (app/pktpath/README.md, The JSON document), and the summary's
 * steady-state line. The functions below read the series as it is: after
 * stats_stop(), or under stats_series_lock() (export_history_add() takes
 * it); thread-safe over a history that does not change meanwhile.
 */

#include <stdio.h>

#include <jansson.h>

#include "stats_series.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The run's history as the sections render it (export_section.history):
 *  what they are given instead of a snapshot. */
struct export_history {
	const struct stats_series *se; /**< the series (copied, then read) */
	const unsigned int *lcore_ids; /**< n_workers lcores, or NULL */
	const struct stats_steady *st; /**< the steady state (at the end), or
					*   NULL (live: "steady" is null) */
	const json_t *flips;	       /**< the mode flips (borrowed), or NULL */
};

/**
 * The history document: each registered section's members of it, added
 * to root -- the series section's "intervals", "events" and
 * "intervals_dropped" (below). --json adds them to its root at the end,
 * GET /history serves them live (the window stats_series_window() keeps).
 * The sections read a copy of the series (stats_series_copy(), its lock
 * held only for the copy): callable from any thread while the stats
 * thread adds points.
 * @return 0, -EINVAL (no series) or -ENOMEM.
 */
int export_history_add(json_t *root, const struct export_history *h);

/**
 * "intervals": one object per scheduled interval k (point k to k+1):
 *   {"t0_s", "t_s" (its start and end, seconds since the start), "seconds",
 *    "mpps", "ns_per_pkt", "cycles_per_pkt", "late_s" (how late the stats
 *    thread woke for its end), "lost": {"flagged", "known", "seconds",
 *    "cause", "involuntary_switches", "stalled_polls", "stalled_seconds"}
 *    (all workers), "lcores": [{"lcore", "mpps", "cycles_per_pkt",
 *    "lost"}, ...], "mode": the ingress mode it was pure in, "mixed" when a
 *    flip fell in it, null when nothing was counted, "mode_flips",
 *    "rule_updates" (in the interval), "steady": what the steady state
 *    made of it (stats_iv_use_name(): "kept", "warm-up", "lost", "mixed",
 *    "out"; null without st)}.
 * lcore_ids: n_workers lcores, or NULL (the worker index); st: the run's
 * steady state (stats_series_steady()), or NULL.
 */
json_t *export_intervals_json(const struct stats_series *se,
			      const unsigned int *lcore_ids,
			      const struct stats_steady *st);

/**
 * "events": what changed the path during the run, in time order: the
 * rule updates at the resolution of an interval (the counters say in which
 * interval, not when in it), {"kind": "rule-updates", "t0_s", "t_s",
 * "count"}, and the objects of flips (borrowed; NULL: none), each with its
 * "t_s" (the application's exact mode flips: {"kind": "mode-flip", "t_s",
 * "from", "mode", "source"}).
 */
json_t *export_events_json(const struct stats_series *se, const json_t *flips);

/** "summary.steady_state": how the steady part was found ("warmup" auto or
 *  explicit, "detected", "at_limit", "start_s", "first_interval",
 *  "intervals", "lost_intervals" (left out), "why"), its spread
 *  ("spread_mpps": n, min, median, max, mean, sd, cv; "cv_threshold"
 *  STATS_CV_UNSTABLE, "unstable" above it); and when the mode changed
 *  ("by_mode" true, "mixed_intervals"), "modes": one per mode with pure
 *  intervals: {"mode", "stretches", "intervals", "kept", "lost", "warmup",
 *  "undetected_stretches", "first_s", "total": a rate, "lcores": [a rate
 *  with its "lcore"], "spread_mpps"}. lcore_ids: as above. */
json_t *export_steady_json(const struct stats_steady *st,
			   const unsigned int *lcore_ids);

/** The summary's steady-state lines: where it began (detected or
 *  --warmup), the intervals left out for lost time, and the spread of the
 *  per-interval Mpps, flagged above STATS_CV_UNSTABLE; when the mode
 *  changed, the table of the modes' steady states and each one's lines. */
void export_print_steady(FILE *out, const struct stats_steady *st,
			 const unsigned int *lcore_ids);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_EXPORT_SERIES_H */
