/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_COMPARE_PVT_H
#define PKTPATH_COMPARE_PVT_H

/*
 * What compare.c (the phases) and compare_table.c (the tables, every
 * pair's interval, the JSON) share. The thread that runs --compare only.
 */

#include <jansson.h>

#include "app.h"
#include "compare_pmu.h"

/* A phase's figures, per worker and in all: ns per packet (1e9 / pps),
 * cycles per busy packet, the stats thread's mean fold in ns (in all only:
 * what --compare fold=... is about), the readers' folds (stats_read(): the
 * endpoint's and --reader's) per second and their mean in ns (in all
 * only), and each stage's cycles per packet
 * that entered it (--stage-cycles); NaN where there is none (no packet, no
 * fold, a stage that did not run). */
enum {
	CMP_M_NS,
	CMP_M_CYC,
	CMP_M_FOLD,
	CMP_M_READS,
	CMP_M_READ_NS,
	CMP_M_STAGE,
	CMP_M_MAX = CMP_M_STAGE + MIB_STAGES
};

struct cmp_phase {
	struct stats_rate total;
	struct stats_rate *lcore; /* n_workers */
	uint64_t acquires, contended, quiescent;
	unsigned int n_iv;
	/* The phase's per-interval pps: n_iv x (n_workers + 1), the total
	 * first in each row (row k: interval k). */
	double *iv_pps;
	/* Its figures, (n_workers + 1) x CMP_M_MAX, the total first; and each
	 * interval's, n_iv rows of those. */
	double *fig;
	double *iv_fig;
	/* --perf-detail: the phase's poll_cycles histogram, n_workers + 1,
	 * all workers merged first (NULL without). */
	struct stats_hist *hist;
	/* --stage-cycles: the phase's Stage group, (n_workers + 1) rows of
	 * MIB_STAGE_MAX, the total first. */
	uint64_t *stg;
	/* Lost time: the workers' seconds not run in the phase (summed), and
	 * whether one of them lost its share; the tries it took. */
	double lost_s;
	bool lost;
	unsigned int tries;
	/* The switch into its variant before it (over its tries): the
	 * seconds the workers were paused, 0 for live switches. */
	double switch_s;
};

/* Figure m of lcore w (the total when w < 0) of a phase, or of its
 * interval k. */
static inline double
cmp_fig(const struct cmp_phase *ph, unsigned int n_workers, int w, unsigned int m)
{
	RTE_SET_USED(n_workers);
	return ph->fig[(size_t)(w + 1) * CMP_M_MAX + m];
}

static inline double
cmp_iv_fig(const struct cmp_phase *ph, unsigned int n_workers, int w, unsigned int k,
	   unsigned int m)
{
	return ph
		->iv_fig[((size_t)k * (n_workers + 1) + (size_t)(w + 1)) * CMP_M_MAX + m];
}

/* Whether the tables show the stats thread's fold time: what --compare
 * fold=... is about, and part of what mib-layout=... shows (the fold
 * reads the blocks the workers write). */
static inline bool
cmp_shows_fold(const struct app *a)
{
	return app_compare_knob(&a->opt.cmp, APP_KNOB_FOLD) >= 0 ||
	       app_compare_knob(&a->opt.cmp, APP_KNOB_MIB_LAYOUT) >= 0;
}

/* A --compare run: its variants' phases, res[v][round]. */
struct cmp_run {
	struct app *a;
	unsigned int nv, rounds, base;
	struct cmp_phase *res[APP_MAX_VARIANTS];
	struct app_cmp_pmu *pm[APP_MAX_VARIANTS];
	char names[APP_MAX_VARIANTS][64];
};

/* compare_table.c: the table of lcore w (the total when w < 0) with every
 * pair's intervals below it; its figures into jmodes' entries (the
 * total's, or their "lcores") and its pairs into jpairs (the total's; an
 * lcore's go in each pair's "lcores"). 0, or -ENOMEM. */
int cmp_table(const struct cmp_run *c, int w, json_t *jmodes, json_t *jpairs);

#endif
