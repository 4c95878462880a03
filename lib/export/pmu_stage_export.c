/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --pmu with --stage-cycles in the reports: each worker's events per stage
 * of its bursts (VPP perfmon's per-node view), per packet that entered the
 * stage and IPC, in the summary's console table, the JSON (--json and
 * /stats.json: since the workers began, the last interval, the summary's
 * window) and /metrics (pktpath_pmu_stage_events_total, raw as
 * pktpath_pmu_events_total is). Only the stages that ran; nothing without
 * both options. An event that was not counted is "unknown" (null), never a
 * zero.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <rte_common.h>

#include "export_pvt.h"

/* Whether stage st ran on worker w (w == n_workers: on any) since start. */
static bool
__ps_ran(const struct stats_snapshot *snap, unsigned int w, unsigned int st)
{
	unsigned int f = MIB_STAGE_F(st, MIB_STAGE_K_CALLS);

	if (w < snap->n_workers)
		return snap->raw_per_block[(size_t)w * MIB_FIELD_MAX + f] != 0;
	for (w = 0; w < snap->n_workers; w++)
		if (snap->raw_per_block[(size_t)w * MIB_FIELD_MAX + f] != 0)
			return true;
	return false;
}

/* Whether the report has stage events at all. */
static bool
__ps_on(const struct stats_snapshot *snap)
{
	unsigned int st;

	if (snap == NULL || snap->pmu == NULL || snap->thread == NULL)
		return false;
	for (st = 0; st < MIB_STAGES; st++)
		if (__ps_ran(snap, snap->n_workers, st))
			return true;
	return false;
}

/* [{"stage": "rx", <export_pmu_rate_json()>}...] of worker w (n_workers:
 * all) from rates (MIB_STAGES of them, NULL: since start, computed). */
static json_t *
__ps_stages_json(const struct stats_snapshot *snap, unsigned int w,
		 const struct stats_pmu_rate *rates)
{
	json_t *rows = json_array();
	unsigned int st;

	for (st = 0; st < MIB_STAGES; st++) {
		struct stats_pmu_rate r;
		json_t *o;

		if (!__ps_ran(snap, w, st))
			continue;
		if (rates != NULL)
			r = rates[st];
		else
			stats_pmu_stage_between(
				NULL, snap, w < snap->n_workers ? (int)w : -1, st, &r);
		o = export_pmu_rate_json(&r);
		json_object_set_new(o, "stage", json_string(mib_stage_name(st)));
		json_array_append_new(rows, o);
	}
	return rows;
}

/* JSON: worker w's "pmu_stages" since it began and "interval_pmu_stages". */
static void
__ps_json_lcore(json_t *l, const struct stats_snapshot *snap, unsigned int w)
{
	if (!__ps_on(snap))
		return;
	json_object_set_new(l, "pmu_stages", __ps_stages_json(snap, w, NULL));
	if (snap->pmu_stage_iv != NULL)
		json_object_set_new(
			l, "interval_pmu_stages",
			__ps_stages_json(snap, w,
					 &snap->pmu_stage_iv[(size_t)w * MIB_STAGES]));
}

/* JSON: all workers' "pmu_stages" and "interval_pmu_stages". */
static void
__ps_json_root(json_t *root, const struct stats_snapshot *snap)
{
	unsigned int n;

	if (!__ps_on(snap))
		return;
	n = snap->n_workers;
	json_object_set_new(root, "pmu_stages", __ps_stages_json(snap, n, NULL));
	if (snap->pmu_stage_iv != NULL)
		json_object_set_new(
			root, "interval_pmu_stages",
			__ps_stages_json(snap, n,
					 &snap->pmu_stage_iv[(size_t)n * MIB_STAGES]));
}

/* JSON: the summary's "pmu_stages", over the window of its "pmu". */
static void
__ps_json_summary(json_t *summary, const struct stats_summary *sum,
		  const struct stats_snapshot *snap)
{
	json_t *lc = json_array();
	unsigned int w;

	if (sum->pmu_stage == NULL || !__ps_on(snap)) {
		json_decref(lc);
		return;
	}
	for (w = 0; w < sum->n_workers; w++)
		json_array_append_new(
			lc, json_pack("{s:i, s:o}", "lcore",
				      (int)stats_snapshot_lcore(snap, w), "stages",
				      __ps_stages_json(
					      snap, w,
					      &sum->pmu_stage[(size_t)w * MIB_STAGES])));
	json_object_set_new(
		summary, "pmu_stages",
		json_pack("{s:s, s:o, s:o}", "window",
			  sum->pmu_steady ? "after_warmup" : "run", "lcores", lc, "total",
			  __ps_stages_json(
				  snap, sum->n_workers,
				  &sum->pmu_stage[(size_t)sum->n_workers * MIB_STAGES])));
}

/* One table: a row per stage of rates (worker w's), a column per event. */
static void
__ps_print_table(FILE *out, const char *title, const struct stats_snapshot *final,
		 unsigned int w, const struct stats_pmu_rate *rates)
{
	const struct stats_pmu_conf *c = final->pmu;
	unsigned int st, wd[STATS_PMU_MAX];

	fprintf(out, "  %-10s %12s", title, "packets");
	__export_pmu_head(out, c, wd);
	for (st = 0; st < MIB_STAGES; st++) {
		const struct stats_pmu_rate *r = &rates[st];

		if (!__ps_ran(final, w, st))
			continue;
		fprintf(out, "    %-8s %12" PRIu64, mib_stage_name(st), r->packets);
		__export_pmu_cells(out, c, wd, r);
	}
}

/* The summary: per lcore (and all), per stage, events per packet. */
static void
__ps_print_summary(FILE *out, const struct stats_summary *sum,
		   const struct stats_snapshot *final)
{
	const struct stats_pmu_rate *t;
	char title[32];
	unsigned int w;

	if (sum->pmu_stage == NULL || !__ps_on(final))
		return;
	t = &sum->pmu_stage[(size_t)sum->n_workers * MIB_STAGES];
	fprintf(out,
		"pmu per stage (%s, per packet that entered the stage; the "
		"reads between stages in them):\n",
		sum->pmu_steady ? "after the warm-up" : "whole run");
	for (w = 0; w < sum->n_workers; w++) {
		snprintf(title, sizeof(title), "lcore %u",
			 stats_snapshot_lcore(final, w));
		__ps_print_table(out, title, final, w,
				 &sum->pmu_stage[(size_t)w * MIB_STAGES]);
	}
	if (sum->n_workers > 1)
		__ps_print_table(out, "total", final, sum->n_workers, t);
}

/* /metrics: per lcore, stage and event, raw since the worker began. */
static void
__ps_prom(FILE *out, const struct stats_snapshot *snap,
	  const struct export_prom_opts *o __rte_unused)
{
	const struct stats_pmu_conf *c = snap->pmu;
	unsigned int i, w, st;

	if (!__ps_on(snap))
		return;
	__export_prom_family(
		out, "pmu_stage_events_total", "counter",
		"Events the "
		"worker lcore's --pmu group counted in the stage of its bursts "
		"(--stage-cycles; the stage's share of pktpath_pmu_events_total, "
		"raw in the same way; the polls that were lost left out)");
	for (w = 0; w < snap->n_workers; w++) {
		const struct stats_thread *t = &snap->thread[w];

		if (!t->known || !t->pmu.known)
			continue;
		for (st = 0; st < MIB_STAGES; st++) {
			if (!__ps_ran(snap, w, st))
				continue;
			for (i = 0; i < c->n; i++)
				fprintf(out,
					"pktpath_pmu_stage_events_total{lcore=\"%u\","
					"stage=\"%s\",event=\"%s\"} %" PRIu64 "\n",
					stats_snapshot_lcore(snap, w), mib_stage_name(st),
					c->ev[i].name, t->stage_pmu[st][i]);
		}
	}
}

const struct export_section __export_section_pmu_stages = {
	.name = "pmu_stages",
	.summary = __ps_print_summary,
	.summary_at = EXPORT_AT_END,
	.json_lcore = __ps_json_lcore,
	.json_summary = __ps_json_summary,
	.json = __ps_json_root,
	.json_at = EXPORT_AT_END,
	.prom = __ps_prom,
	.prom_at = EXPORT_AT_MIB,
};
