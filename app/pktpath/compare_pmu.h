/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_COMPARE_PMU_H
#define PKTPATH_COMPARE_PMU_H

/*
 * --compare with --pmu (compare.c's phases): each phase's events per
 * packet, of each worker and of all, over the phase and over each of its
 * intervals; per variant, the median over the rounds and the difference
 * against the baseline with its 95% interval, by the same
 * statistics as the ns/pkt differences (stats_ci_rounds(): paired t over
 * the rounds, Welch over one round's intervals). So a variant's cost shows in
 * counts as well as in time: instructions per packet, L1 misses per packet.
 * With --stage-cycles the same per stage (stats_pmu_stage_between(): per
 * packet that entered the stage), for the stages that ran in some variant.
 * Used by the thread that runs --compare only.
 */

#include <jansson.h>

#include "stats.h"

/* One phase's figures (zeroed: none; app_cmp_pmu_alloc() sizes it). */
struct app_cmp_pmu {
	const struct stats_pmu_conf *conf;
	unsigned int n_workers, n_iv;
	/* per packet, NaN where not counted or without packets (or a stage
	 * that did not run): the phase's (n_workers + 1) x (1 + MIB_STAGES) x
	 * STATS_PMU_MAX (a lcore's thread, then its stages), then each
	 * interval's, all workers first in each row */
	double *phase;
	double *iv;
};

/* Size p for a run's workers and a phase's intervals; 0, or -ENOMEM. conf
 * NULL (no --pmu): nothing, and the functions below do nothing. */
int app_cmp_pmu_alloc(struct app_cmp_pmu *p, const struct stats_pmu_conf *conf,
		      unsigned int n_workers, unsigned int n_iv);
void app_cmp_pmu_free(struct app_cmp_pmu *p);

/* Interval k of the phase, from snapshot a to b; the whole phase. */
void app_cmp_pmu_interval(struct app_cmp_pmu *p, unsigned int k,
			  const struct stats_snapshot *a, const struct stats_snapshot *b);
void app_cmp_pmu_phase(struct app_cmp_pmu *p, const struct stats_snapshot *a,
		       const struct stats_snapshot *b);

/*
 * The events' table of lcore w (all workers when w < 0): per event, each
 * variant's median per packet over the rounds (min, max) and its
 * difference against the baseline (variant base) with its 95% interval.
 * ph[i][r]: variant i's round r. Each variant's JSON object of jmode (the
 * total's, or its "lcores" entry for w) gains "pmu": {EVENT:
 * {"per_pkt_median", "per_pkt_min", "per_pkt_max", "rounds_per_pkt",
 * "delta", "delta_ci"}} (no delta for the baseline); with --stage-cycles,
 * the same per stage after the events' rows ("STAGE: EVENT"), and
 * "pmu_stages": {STAGE: {EVENT: {...}}} (a stage that ran in another
 * variant only: per_pkt_median null).
 */
void app_cmp_pmu_table(const struct app_cmp_pmu *const *ph, unsigned int modes,
		       const char *const *mode_names, unsigned int rounds, int w,
		       unsigned int base, json_t *const *jmode);

#endif
