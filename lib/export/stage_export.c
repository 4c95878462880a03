/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --stage-cycles: the Stage MIB group as VPP's `show runtime` prints its
 * nodes (calls, vectors, clocks per vector), per lcore and in total, for
 * the summary, the JSON (--json and /stats.json) and /metrics.
 */
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>

#include "export_pvt.h"

static uint64_t
__stage_grown(const uint64_t *a, const uint64_t *b, unsigned int f)
{
	uint64_t x = a != NULL ? a[f] : 0;

	return b[f] > x ? b[f] - x : 0;
}

unsigned int
export_stages(const uint64_t *a, const uint64_t *b, struct export_stages *t)
{
	unsigned int s;

	memset(t, 0, sizeof(*t));
	t->busy = __stage_grown(a, b, MIB_F(RX, BUSYCYCLES));
	t->packets = __stage_grown(a, b, MIB_F(RX, PACKETS));
	for (s = 0; s < MIB_STAGES; s++) {
		struct export_stage *e = &t->s[t->n];

		e->calls = __stage_grown(a, b, MIB_STAGE_F(s, MIB_STAGE_K_CALLS));
		if (e->calls == 0)
			continue;
		e->stage = s;
		e->packets = __stage_grown(a, b, MIB_STAGE_F(s, MIB_STAGE_K_PACKETS));
		e->cycles = __stage_grown(a, b, MIB_STAGE_F(s, MIB_STAGE_K_CYCLES));
		e->cycles_per_pkt = e->packets ? (double)e->cycles / (double)e->packets : 0;
		e->cycles_per_call = (double)e->cycles / (double)e->calls;
		e->share = t->busy ? (double)e->cycles / (double)t->busy : 0;
		t->cycles += e->cycles;
		t->n++;
	}
	t->unstaged = t->busy > t->cycles ? t->busy - t->cycles : 0;
	return t->n;
}

void
export_print_stages(FILE *out, const char *title, const struct export_stages *t)
{
	uint64_t calls;
	unsigned int i;

	if (t->n == 0)
		return;
	calls = t->s[0].calls;	/* rx: every busy poll */
	fprintf(out, "%-12s %12s %14s %10s %11s %7s\n", title, "calls", "packets",
		"cyc/pkt", "cyc/call", "busy%");
	for (i = 0; i < t->n; i++) {
		const struct export_stage *e = &t->s[i];

		fprintf(out, "  %-10s %12" PRIu64 " %14" PRIu64 " %10.2f %11.1f %7.1f\n",
			mib_stage_name(e->stage), e->calls, e->packets,
			e->cycles_per_pkt, e->cycles_per_call, 100.0 * e->share);
	}
	fprintf(out, "  %-10s %12" PRIu64 " %14" PRIu64 " %10.2f %11.1f %7.1f\n",
		"staged", calls, t->packets,
		t->packets ? (double)t->cycles / (double)t->packets : 0,
		calls ? (double)t->cycles / (double)calls : 0,
		t->busy ? 100.0 * (double)t->cycles / (double)t->busy : 0);
	fprintf(out, "  %-10s %12s %14s %10.2f %11.1f %7.1f\n", "unstaged", "", "",
		t->packets ? (double)t->unstaged / (double)t->packets : 0,
		calls ? (double)t->unstaged / (double)calls : 0,
		t->busy ? 100.0 * (double)t->unstaged / (double)t->busy : 0);
}

json_t *
export_stages_json(const struct export_stages *t)
{
	json_t *rows = json_array();
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		const struct export_stage *e = &t->s[i];

		json_array_append_new(
			rows, json_pack("{s:s, s:o, s:o, s:o, s:f, s:f, s:f}", "stage",
					mib_stage_name(e->stage), "calls",
					export_json_u64(e->calls), "packets",
					export_json_u64(e->packets), "cycles",
					export_json_u64(e->cycles), "cycles_per_pkt",
					e->cycles_per_pkt, "cycles_per_call",
					e->cycles_per_call, "share", e->share));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:f, s:o}", "busy_cycles",
			 export_json_u64(t->busy), "packets", export_json_u64(t->packets),
			 "cycles", export_json_u64(t->cycles), "unstaged_cycles",
			 export_json_u64(t->unstaged), "staged_share",
			 t->busy ? (double)t->cycles / (double)t->busy : 0.0, "stages",
			 rows);
}

/* /metrics: per lcore and stage, the raw counters since start (a
 * Prometheus counter never goes down), only for the stages that ran. */
static void
__stage_prom(FILE *out, const struct stats_snapshot *snap,
	     const struct export_prom_opts *o __rte_unused)
{
	static const struct {
		const char *name, *help;
		enum mib_stage_kind k;
	} fam[] = {
		{ "stage_cycles_total", "TSC cycles the worker lcore spent in the "
		  "stage of its bursts (--stage-cycles; Stage Stage<S>Cycles)",
		  MIB_STAGE_K_CYCLES },
		{ "stage_packets_total", "Packets that entered the stage "
		  "(--stage-cycles; Stage Stage<S>Packets)", MIB_STAGE_K_PACKETS },
		{ "stage_calls_total", "Bursts the stage ran on (--stage-cycles; "
		  "Stage Stage<S>Calls)", MIB_STAGE_K_CALLS },
	};
	unsigned int k, w, s;
	bool any = false;

	for (s = 0; s < MIB_STAGES; s++)
		any |= snap->raw_totals[MIB_STAGE_F(s, MIB_STAGE_K_CALLS)] != 0;
	if (!any)
		return;
	for (k = 0; k < RTE_DIM(fam); k++) {
		__export_prom_family(out, fam[k].name, "counter", fam[k].help);
		for (w = 0; w < snap->n_workers; w++) {
			const uint64_t *b = snap->raw_per_block + (size_t)w * MIB_FIELD_MAX;

			for (s = 0; s < MIB_STAGES; s++) {
				if (b[MIB_STAGE_F(s, MIB_STAGE_K_CALLS)] == 0)
					continue;
				fprintf(out, "pktpath_%s{lcore=\"%u\",stage=\"%s\"} %" PRIu64
					"\n", fam[k].name, snap->lcore_ids != NULL ?
					snap->lcore_ids[w] : w, mib_stage_name(s),
					b[MIB_STAGE_F(s, fam[k].k)]);
			}
		}
	}
}

/* --stage-cycles: the stage table of each worker and (with several) of
 * all, since start or the last clear. */
static void
__stage_print_summary(FILE *out, const struct stats_summary *sum __rte_unused,
		      const struct stats_snapshot *final)
{
	struct export_stages t;
	char title[32];
	unsigned int w;

	if (export_stages(NULL, final->totals, &t) == 0)
		return;
	fprintf(out, "stages (--stage-cycles), cycles of the busy polls:\n");
	for (w = 0; w < final->n_workers; w++) {
		struct export_stages l;

		export_stages(NULL, final->per_block + (size_t)w * MIB_FIELD_MAX, &l);
		snprintf(title, sizeof(title), "lcore %u",
			 final->lcore_ids ? final->lcore_ids[w] : w);
		export_print_stages(out, title, &l);
	}
	if (final->n_workers > 1)
		export_print_stages(out, "total", &t);
}

/* JSON: worker w's "stages" since the last clear and "interval_stages". */
static void
__stage_json_lcore(json_t *l, const struct stats_snapshot *snap, unsigned int w)
{
	struct export_stages st;

	if (export_stages(NULL, snap->per_block + (size_t)w * MIB_FIELD_MAX, &st) > 0)
		json_object_set_new(l, "stages", export_stages_json(&st));
	if (snap->iv_from != NULL &&
	    export_stages(snap->iv_from + (size_t)(1 + w) * MIB_FIELD_MAX,
			  snap->raw_per_block + (size_t)w * MIB_FIELD_MAX, &st) > 0)
		json_object_set_new(l, "interval_stages", export_stages_json(&st));
}

/* JSON: the totals' "stages" and "interval_stages". */
static void
__stage_json(json_t *root, const struct stats_snapshot *snap)
{
	struct export_stages st;

	if (export_stages(NULL, snap->totals, &st) > 0)
		json_object_set_new(root, "stages", export_stages_json(&st));
	if (snap->iv_from != NULL &&
	    export_stages(snap->iv_from, snap->raw_totals, &st) > 0)
		json_object_set_new(root, "interval_stages", export_stages_json(&st));
}

const struct export_section __export_section_stages = {
	.name = "stages",
	.summary = __stage_print_summary,
	.summary_at = EXPORT_AT_FOLD,
	.json_lcore = __stage_json_lcore,
	.json = __stage_json,
	.json_at = EXPORT_AT_MIB,
	.prom = __stage_prom,
	.prom_at = EXPORT_AT_RATES,
};
