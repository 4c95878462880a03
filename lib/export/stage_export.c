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

		json_array_append_new(rows, json_pack("{s:s, s:I, s:I, s:I, s:f, s:f, s:f}",
			"stage", mib_stage_name(e->stage),
			"calls", (json_int_t)e->calls, "packets", (json_int_t)e->packets,
			"cycles", (json_int_t)e->cycles,
			"cycles_per_pkt", e->cycles_per_pkt,
			"cycles_per_call", e->cycles_per_call, "share", e->share));
	}
	return json_pack("{s:I, s:I, s:I, s:I, s:f, s:o}",
		"busy_cycles", (json_int_t)t->busy, "packets", (json_int_t)t->packets,
		"cycles", (json_int_t)t->cycles,
		"unstaged_cycles", (json_int_t)t->unstaged,
		"staged_share", t->busy ? (double)t->cycles / (double)t->busy : 0.0,
		"stages", rows);
}

/* /metrics: per lcore and stage, the raw counters since start (a
 * Prometheus counter never goes down), only for the stages that ran. */
void
__export_stage_prom(FILE *out, const struct stats_snapshot *snap)
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
