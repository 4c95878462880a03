/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --pmu in the reports: each worker's events per packet and IPC in the
 * console (per interval, the summary's table), the JSON, /metrics; the stats
 * thread's and the readers' folds. An event that was not counted is
 * "unknown" (null in JSON, no series in /metrics): never a zero.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <rte_common.h>

#include "export_pvt.h"

static json_t *
__pmu_jreal(double x)
{
	return isnan(x) || isinf(x) ? json_null() : json_real(x);
}

json_t *
export_pmu_rate_json(const struct stats_pmu_rate *r)
{
	json_t *per = json_object(), *cnt = json_object();
	bool known = r->conf != NULL && r->d.known;
	unsigned int i;

	for (i = 0; r->conf != NULL && i < r->conf->n; i++) {
		json_object_set_new(per, r->conf->ev[i].name, known && r->packets ?
				    json_real(r->per_pkt[i]) : json_null());
		json_object_set_new(cnt, r->conf->ev[i].name, known ?
				    json_real(r->d.v[i]) : json_null());
	}
	return json_pack("{s:b, s:b, s:o, s:o, s:o, s:o}", "known", known, "scaled",
			 known && r->d.scaled, "packets", export_json_u64(r->packets),
			 "per_pkt", per, "counts", cnt, "ipc",
			 known ? __pmu_jreal(r->ipc) : json_null());
}

/* One fold's (or the mean fold's) counts: {"known", "scaled", ev: n...}. */
static json_t *
__pmu_fold_json(const struct stats_pmu_conf *c, const struct stats_pmu_delta *d,
	    uint64_t n)
{
	json_t *o = json_object();
	unsigned int i;

	json_object_set_new(o, "known", json_boolean(d->known && n > 0));
	json_object_set_new(o, "scaled", json_boolean(d->known && d->scaled));
	for (i = 0; i < c->n; i++)
		json_object_set_new(o, c->ev[i].name, d->known && n > 0 ?
				    json_real(d->v[i] / (double)n) : json_null());
	return o;
}

static json_t *
__pmu_json(const struct stats_snapshot *snap)
{
	const struct stats_pmu_conf *c = snap->pmu;
	json_t *ev = json_array(), *lc = json_array(), *o;
	unsigned int i, w;

	for (i = 0; i < c->n; i++)
		json_array_append_new(ev, json_pack("{s:s, s:b}", "name",
			c->ev[i].name, "hardware", stats_pmu_event_is_hw(&c->ev[i])));
	for (w = 0; w < snap->n_workers; w++) {
		const struct stats_thread *t = snap->thread ? &snap->thread[w] : NULL;
		json_t *tot = json_object();

		for (i = 0; i < c->n; i++)
			json_object_set_new(tot, c->ev[i].name, t && t->pmu.known ?
				json_real(stats_pmu_scale(&t->pmu, i)) : json_null());
		o = json_pack("{s:i, s:b, s:o}", "lcore",
			      (int)stats_snapshot_lcore(snap, w), "known",
			      t && t->pmu.known, "counts", tot);
		if (snap->pmu_iv != NULL)
			json_object_set_new(o, "interval",
					    export_pmu_rate_json(&snap->pmu_iv[w]));
		json_array_append_new(lc, o);
	}
	o = json_pack("{s:o, s:o}", "events", ev, "lcores", lc);
	if (snap->pmu_iv != NULL)
		json_object_set_new(o, "interval", export_pmu_rate_json(
			&snap->pmu_iv[snap->n_workers]));
	json_object_set_new(
		o, "fold",
		json_pack("{s:o, s:o, s:o, s:o, s:o}", "last",
			  __pmu_fold_json(c, &snap->fold_pmu, 1), "scheduled_folds",
			  export_json_u64(snap->fold_pmu_n), "scheduled_per_fold",
			  __pmu_fold_json(c, &snap->fold_pmu_sum, snap->fold_pmu_n),
			  "read_folds", export_json_u64(snap->read_pmu_n),
			  "read_per_fold",
			  __pmu_fold_json(c, &snap->read_pmu_sum, snap->read_pmu_n)));
	return o;
}

static json_t *
__pmu_summary_json(const struct stats_summary *sum, const struct stats_snapshot *snap)
{
	json_t *lc = json_array(), *o;
	unsigned int w;

	for (w = 0; w < sum->n_workers; w++) {
		o = export_pmu_rate_json(&sum->pmu[w]);
		json_object_set_new(o, "lcore",
				    json_integer(stats_snapshot_lcore(snap, w)));
		json_array_append_new(lc, o);
	}
	return json_pack("{s:s, s:o, s:o}", "window", sum->pmu_steady ? "after_warmup" : "run",
			 "lcores", lc, "total", export_pmu_rate_json(&sum->pmu[sum->n_workers]));
}

/* "cycles 78.12/pkt, instructions 280.3/pkt, IPC 3.59" into buf: per packet
 * (or counts, without packets), "unknown" when not counted. */
static void
__pmu_rate_text(char *buf, size_t len, const struct stats_pmu_rate *r)
{
	size_t o = 0;
	unsigned int i;

	buf[0] = '\0';
	if (r->conf == NULL || !r->d.known) {
		snprintf(buf, len, "unknown (not counted)");
		return;
	}
	for (i = 0; i < r->conf->n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, r->packets ? "%s%s %.4g/pkt" :
				      "%s%s %.4g", i ? ", " : "", r->conf->ev[i].name,
				      r->packets ? r->per_pkt[i] : r->d.v[i]);
	if (!isnan(r->ipc) && o < len)
		o += (size_t)snprintf(buf + o, len - o, ", IPC %.2f", r->ipc);
	if (r->d.scaled && o < len)
		snprintf(buf + o, len - o, " (scaled: the PMU ran the group %.0f%% "
			 "of the time)", 100.0 * (double)r->d.running_ns /
			 (double)(r->d.enabled_ns ? r->d.enabled_ns : 1));
}

static void
__pmu_print_interval(FILE *out, const struct stats_snapshot *snap,
		     const struct stats_snapshot *prev __rte_unused)
{
	char text[1024], label[32];
	unsigned int w;

	if (snap->pmu_iv == NULL)
		return;
	for (w = 0; w <= snap->n_workers; w++) {
		if (w == snap->n_workers && snap->n_workers == 1)
			break;	/* the total is the one lcore */
		if (w < snap->n_workers)
			snprintf(label, sizeof(label),
				 "pmu l%u:", stats_snapshot_lcore(snap, w));
		else
			snprintf(label, sizeof(label), "pmu all:");
		__pmu_rate_text(text, sizeof(text), &snap->pmu_iv[w]);
		fprintf(out, "  %-10s %s\n", label, text);
	}
}

bool
__export_pmu_ipc_column(const struct stats_pmu_conf *c)
{
	/* stats_pmu_ipc()'s events, whatever this window counted */
	return stats_pmu_conf_find(c, "cycles") >= 0 &&
	       stats_pmu_conf_find(c, "instructions") >= 0;
}

void
__export_pmu_head(FILE *out, const struct stats_pmu_conf *c, unsigned int *wd)
{
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		wd[i] = RTE_MAX((unsigned int)strlen(c->ev[i].name), 10u);
		fprintf(out, " %*s", (int)wd[i], c->ev[i].name);
	}
	fprintf(out, "%s\n", __export_pmu_ipc_column(c) ? "     IPC" : "");
}

void
__export_pmu_cells(FILE *out, const struct stats_pmu_conf *c, const unsigned int *wd,
		   const struct stats_pmu_rate *r)
{
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		if (r->d.known && r->packets)
			fprintf(out, " %*.4g", (int)wd[i], r->per_pkt[i]);
		else
			fprintf(out, " %*s", (int)wd[i], "unknown");
	}
	if (__export_pmu_ipc_column(c)) {
		if (isnan(r->ipc))
			fprintf(out, " %7s", "unknown");
		else
			fprintf(out, " %7.2f", r->ipc);
	}
	fprintf(out, "%s\n", r->d.known && r->d.scaled ? "  (scaled)" : "");
}

/* The summary's table: a row per lcore (and all), a column per event (per
 * packet), and IPC when the group has cycles and instructions. */
static void
__pmu_print_table(FILE *out, const struct stats_summary *sum,
	      const struct stats_snapshot *final)
{
	const struct stats_pmu_conf *c = final->pmu;
	unsigned int w, wd[STATS_PMU_MAX];
	char label[32];

	fprintf(out, "pmu (%s, per packet%s):\n  %-10s", sum->pmu_steady ?
		"after the warm-up" : "whole run", stats_pmu_conf_has_hw(c) ?
		"; hardware events in user space" : "", "");
	__export_pmu_head(out, c, wd);
	for (w = 0; w <= sum->n_workers; w++) {
		const struct stats_pmu_rate *r = &sum->pmu[w];

		if (w == sum->n_workers && sum->n_workers == 1)
			break;	/* the total is the one lcore */
		if (w < sum->n_workers)
			snprintf(label, sizeof(label), "lcore %u",
				 stats_snapshot_lcore(final, w));
		else
			snprintf(label, sizeof(label), "total");
		fprintf(out, "  %-10s", label);
		__export_pmu_cells(out, c, wd, r);
	}
}

/* "the stats thread's folds: N, per fold: EV x, ..." */
static void
__pmu_print_folds(FILE *out, const char *what, const struct stats_pmu_conf *c,
	      const struct stats_pmu_delta *d, uint64_t n)
{
	unsigned int i;

	if (n == 0 || !d->known) {
		fprintf(out, "pmu: %s: none counted\n", what);
		return;
	}
	fprintf(out, "pmu: %s: %" PRIu64 ", per fold:", what, n);
	for (i = 0; i < c->n; i++)
		fprintf(out, "%s %s %.4g", i ? "," : "", c->ev[i].name,
			d->v[i] / (double)n);
	fprintf(out, "%s\n", d->scaled ? " (scaled)" : "");
}

static void
__pmu_print_summary(FILE *out, const struct stats_summary *sum,
		    const struct stats_snapshot *final)
{
	char what[128];

	if (sum->pmu == NULL || final == NULL || final->pmu == NULL)
		return;
	__pmu_print_table(out, sum, final);
	snprintf(what, sizeof(what), "the stats thread's scheduled folds (%u blocks "
		 "each)", final->mib_lcores + 1);
	__pmu_print_folds(out, what, final->pmu, &final->fold_pmu_sum, final->fold_pmu_n);
	if (final->fold_on_read)
		__pmu_print_folds(out, "the --fold-on-read folds", final->pmu,
			      &final->read_pmu_sum, final->read_pmu_n);
}

static void
__pmu_prom(FILE *out, const struct stats_snapshot *snap,
	   const struct export_prom_opts *o __rte_unused)
{
	const struct stats_pmu_conf *c = snap->pmu;
	unsigned int i, w;

	if (c == NULL || snap->thread == NULL)
		return;
	__export_prom_family(out, "pmu_events_total", "counter", "Events the worker "
		"lcore's thread counted since its first poll (--pmu; perf's names; "
		"hardware events in user space), raw: counted while the group was "
		"on the PMU; when pktpath_pmu_running_seconds_total is below "
		"pktpath_pmu_enabled_seconds_total the PMU was shared, and the "
		"estimate is the count times enabled/running, as perf scales it");
	for (w = 0; w < snap->n_workers; w++) {
		const struct stats_pmu_count *p = &snap->thread[w].pmu;

		for (i = 0; p->known && i < c->n; i++)
			fprintf(out,
				"pktpath_pmu_events_total{lcore=\"%u\",event=\"%s\"} %" PRIu64
				"\n",
				stats_snapshot_lcore(snap, w), c->ev[i].name, p->v[i]);
	}
	__export_prom_family(out, "pmu_enabled_seconds_total", "counter", "Time the "
		"worker lcore's --pmu group was enabled");
	for (w = 0; w < snap->n_workers; w++)
		if (snap->thread[w].pmu.known)
			fprintf(out,
				"pktpath_pmu_enabled_seconds_total{lcore=\"%u\"} "
				"%.9f\n",
				stats_snapshot_lcore(snap, w),
				(double)snap->thread[w].pmu.enabled_ns / 1e9);
	__export_prom_family(out, "pmu_running_seconds_total", "counter", "Time the "
		"worker lcore's --pmu group was on the PMU (counting)");
	for (w = 0; w < snap->n_workers; w++)
		if (snap->thread[w].pmu.known)
			fprintf(out,
				"pktpath_pmu_running_seconds_total{lcore=\"%u\"} "
				"%.9f\n",
				stats_snapshot_lcore(snap, w),
				(double)snap->thread[w].pmu.running_ns / 1e9);
	__export_prom_family(out, "pmu_fold_events_total", "counter", "Events of the "
		"MIB folds (--pmu): the stats thread's scheduled folds, and the "
		"folds of --fold-on-read readers, each on the folding thread's own "
		"group around mib_fold alone (scaled when the PMU was shared)");
	for (i = 0; i < c->n; i++) {
		if (snap->fold_pmu_sum.known && snap->fold_pmu_n > 0)
			fprintf(out, "pktpath_pmu_fold_events_total{fold=\"scheduled\","
				"event=\"%s\"} %.0f\n", c->ev[i].name,
				snap->fold_pmu_sum.v[i]);
		if (snap->read_pmu_sum.known && snap->read_pmu_n > 0)
			fprintf(out, "pktpath_pmu_fold_events_total{fold=\"read\","
				"event=\"%s\"} %.0f\n", c->ev[i].name,
				snap->read_pmu_sum.v[i]);
	}
	__export_prom_family(out, "pmu_folds_total", "counter", "MIB folds whose "
		"events were counted (--pmu)");
	fprintf(out, "pktpath_pmu_folds_total{fold=\"scheduled\"} %" PRIu64 "\n",
		snap->fold_pmu_n);
	fprintf(out, "pktpath_pmu_folds_total{fold=\"read\"} %" PRIu64 "\n",
		snap->read_pmu_n);
}

/* JSON: the snapshot's "pmu" (nothing without --pmu). */
static void
__pmu_json_root(json_t *root, const struct stats_snapshot *snap)
{
	if (snap->pmu != NULL)
		json_object_set_new(root, "pmu", __pmu_json(snap));
}

/* JSON: the summary's "pmu". */
static void
__pmu_json_summary(json_t *summary, const struct stats_summary *sum,
		   const struct stats_snapshot *snap)
{
	if (sum->pmu != NULL)
		json_object_set_new(summary, "pmu", __pmu_summary_json(sum, snap));
}

const struct export_section __export_section_pmu = {
	.name = "pmu",
	.interval = __pmu_print_interval,
	.interval_at = EXPORT_AT_RATES,
	.summary = __pmu_print_summary,
	.summary_at = EXPORT_AT_END,
	.json_summary = __pmu_json_summary,
	.json = __pmu_json_root,
	.json_at = EXPORT_AT_END,
	.prom = __pmu_prom,
	.prom_at = EXPORT_AT_MIB,
};
