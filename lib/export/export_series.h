/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_EXPORT_SERIES_H
#define PKTPATH_EXPORT_SERIES_H

/**
 * @file
 * A run's history (stats_series.h) and its steady state as the console and
 * the JSON show them: the "intervals" and "events" arrays and
 * "summary.steady_state" (README, The JSON document), and the summary's
 * steady-state line. Read after stats_stop(); thread-safe over the
 * immutable history.
 */

#include <stdio.h>

#include <jansson.h>

#include "stats_series.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * "intervals": one object per scheduled interval k (point k to k+1):
 *   {"t0_s", "t_s" (its start and end, seconds since the start), "seconds",
 *    "mpps", "ns_per_pkt", "lcores": [{"lcore", "mpps"}, ...],
 *    "mode": the ingress mode that carried most of its packets (null: no
 *    packet), "mode_flips", "rule_updates" (in the interval)}.
 * lcore_ids: n_workers lcores, or NULL (the worker index).
 */
json_t *export_intervals_json(const struct stats_series *se,
			      const unsigned int *lcore_ids);

/**
 * "events": what changed the path during the run, at the resolution of an
 * interval (the counters say in which interval, not when in it):
 *   {"kind": "mode-flip", "t0_s", "t_s", "count", "mode": the mode of
 *    the next interval (or of this one, the last)},
 *   {"kind": "rule-updates", "t0_s", "t_s", "count"}.
 */
json_t *export_events_json(const struct stats_series *se);

/** "summary.steady_state": how the steady part was found ("warmup" auto or
 *  explicit, "detected", "at_limit", "start_s", "first_interval",
 *  "intervals", "why"), and its spread ("spread_mpps": n, min, median, max,
 *  mean, sd, cv; "cv_threshold" STATS_CV_UNSTABLE, "unstable" above it). */
json_t *export_steady_json(const struct stats_steady *st);

/** The summary's steady-state lines: where it began (detected or
 *  --warmup), and the spread of the per-interval Mpps, flagged above
 *  STATS_CV_UNSTABLE. */
void export_print_steady(FILE *out, const struct stats_steady *st);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_EXPORT_SERIES_H */
