/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --perf-detail in the reports: the workers' histograms as Prometheus
 * histograms, in the JSON, as the summary's percentiles; the suspicious
 * polls as a log line and a JSON event.
 */
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>

#include "export_pvt.h"

/* The Prometheus family of each histogram, its unit and help. */
static const struct {
	const char *family, *help;
} prom_hist[STATS_PERF_MAX] = {
	[STATS_PERF_POLL_CYCLES] = { "poll_cycles", "TSC cycles of each busy poll "
		"(one that returned packets) of the worker lcore, since start "
		"(--perf-detail; bins: lib/stats/stats_hist.h)" },
	[STATS_PERF_POLL_PACKETS] = { "poll_packets", "Packets of each busy poll "
		"of the worker lcore, since start (--perf-detail)" },
	[STATS_PERF_PKT_CYCLES] = { "poll_packet_cycles", "TSC cycles per packet "
		"of each busy poll (its cycles / its packets, rounded down), since "
		"start (--perf-detail)" },
	[STATS_PERF_INGRESS_CYCLES] = { "ingress_burst_cycles", "TSC cycles of the "
		"ingress stage (ingress_burst()) of each burst, since start "
		"(--perf-detail with the ingress hook; empty without)" },
};

static void
__perf_prom(FILE *out, const struct stats_snapshot *snap,
	    const struct export_prom_opts *o __rte_unused)
{
	unsigned int k, w, i;

	if (snap->raw_hist == NULL)
		return;
	for (k = 0; k < STATS_PERF_MAX; k++) {
		__export_prom_family(out, prom_hist[k].family, "histogram",
				     prom_hist[k].help);
		for (w = 0; w < snap->n_workers; w++) {
			const struct stats_hist *h = &snap->raw_hist[w * STATS_PERF_MAX + k];
			unsigned int lc = snap->lcore_ids ? snap->lcore_ids[w] : w;
			uint64_t cum = 0;

			for (i = 0; i < STATS_HIST_BINS; i++) {
				cum += h->bins[i];
				if (i < STATS_HIST_BINS - 1)
					fprintf(out, "pktpath_%s_bucket{lcore=\"%u\",le=\"%"
						PRIu64 "\"} %" PRIu64 "\n", prom_hist[k].family,
						lc, stats_hist_upper(i), cum);
				else
					fprintf(out, "pktpath_%s_bucket{lcore=\"%u\",le=\"+Inf\"} %"
						PRIu64 "\n", prom_hist[k].family, lc, cum);
			}
			fprintf(out, "pktpath_%s_sum{lcore=\"%u\"} %" PRIu64 "\n",
				prom_hist[k].family, lc, h->sum);
			fprintf(out, "pktpath_%s_count{lcore=\"%u\"} %" PRIu64 "\n",
				prom_hist[k].family, lc, cum);
		}
	}
}

/* One histogram: count, sum, mean, the percentiles, the non-empty bins as
 * [lowest, highest (null: open), count]. */
json_t *
export_hist_json(const struct stats_hist *h)
{
	json_t *o, *bins = json_array(), *pct = json_object();
	uint64_t n = stats_hist_count(h);
	unsigned int i;

	for (i = 0; i < STATS_HIST_BINS; i++) {
		if (h->bins[i] == 0)
			continue;
		json_array_append_new(
			bins, json_pack("[o, o, o]", export_json_u64(stats_hist_lower(i)),
					i < STATS_HIST_BINS - 1
						? export_json_u64(stats_hist_upper(i))
						: json_null(),
					export_json_u64(h->bins[i])));
	}
	for (i = 0; i < STATS_HIST_N_PCT; i++)
		json_object_set_new(
			pct, stats_hist_pct_names[i],
			export_json_u64(stats_hist_percentile(h, stats_hist_pct_ppm[i])));
	o = json_pack("{s:o, s:o, s:f, s:o, s:o}", "count", export_json_u64(n), "sum",
		      export_json_u64(h->sum), "mean",
		      n ? (double)h->sum / (double)n : 0.0, "percentiles", pct, "bins",
		      bins);
	return o;
}

/* Every kind of worker w's histograms (hist: n x STATS_PERF_MAX), or of
 * all workers merged when w < 0; with lead (since a clear), each kind's
 * "clear_lead" (stats_snapshot.hist_clear_lead). */
static json_t *
__kinds_json(const struct stats_hist *hist, const int64_t *lead, unsigned int n, int w)
{
	json_t *o = json_object();
	unsigned int k, i;

	for (k = 0; k < STATS_PERF_MAX; k++) {
		struct stats_hist m;
		int64_t l = 0;
		json_t *h;

		if (w >= 0) {
			m = hist[(unsigned int)w * STATS_PERF_MAX + k];
			if (lead != NULL)
				l = lead[(unsigned int)w * STATS_PERF_MAX + k];
		} else {
			memset(&m, 0, sizeof(m));
			for (i = 0; i < n; i++) {
				stats_hist_merge(&m, &hist[i * STATS_PERF_MAX + k]);
				if (lead != NULL)
					l += lead[i * STATS_PERF_MAX + k];
			}
		}
		h = export_hist_json(&m);
		if (lead != NULL)
			json_object_set_new(h, "clear_lead", json_integer((json_int_t)l));
		json_object_set_new(o, stats_perf_kind_name(k), h);
	}
	return o;
}

/* JSON: each worker's "perf_detail", since the last clear. */
static void
__perf_json_lcore(json_t *l, const struct stats_snapshot *snap, unsigned int w)
{
	if (snap->hist != NULL)
		json_object_set_new(l, "perf_detail",
				    __kinds_json(snap->hist, snap->hist_clear_lead,
						 snap->n_workers, (int)w));
}

/* JSON: the root's "perf_detail", all lcores merged. */
static void
__perf_json(json_t *root, const struct stats_snapshot *snap)
{
	if (snap->hist != NULL)
		json_object_set_new(root, "perf_detail",
				    __kinds_json(snap->hist, snap->hist_clear_lead,
						 snap->n_workers, -1));
}

/* JSON: the summary's "perf_detail" over its window. */
static void
__perf_json_summary(json_t *summary, const struct stats_summary *sum,
		    const struct stats_snapshot *snap)
{
	json_t *pl;
	unsigned int w;

	if (sum->hist == NULL)
		return;
	pl = json_array();
	for (w = 0; w < sum->n_workers; w++) {
		json_t *o = __kinds_json(sum->hist, NULL, sum->n_workers, (int)w);

		json_object_set_new(
			o, "lcore",
			json_integer(snap->lcore_ids ? (int)snap->lcore_ids[w] : (int)w));
		json_array_append_new(pl, o);
	}
	json_object_set_new(summary, "perf_detail",
			    json_pack("{s:s, s:b, s:o, s:o}", "window",
				      sum->hist_steady ? "steady" : "run", "max_exact",
				      sum->hist_max_exact, "lcores", pl, "total",
				      __kinds_json(sum->hist, NULL, sum->n_workers, -1)));
}

/* The summary's percentiles, one row per lcore and kind, then the total. */
static void
__perf_print_summary(FILE *out, const struct stats_summary *sum,
		     const struct stats_snapshot *final)
{
	unsigned int k, w, i;
	char label[32];

	if (sum->hist == NULL)
		return;
	fprintf(out, "perf-detail (%s): busy polls, percentiles (nearest rank, the "
		"upper bound of its bin; max %s)\n",
		sum->hist_steady ? "steady" : "whole run", sum->hist_max_exact ?
		"exact" : "exact or, where the run's came before the window, the "
		"upper bound of the window's highest bin");
	fprintf(out, "  %-10s %-14s %12s %10s %10s %10s %10s %10s %10s\n", "",
		"histogram", "count", "mean", "p50", "p90", "p99", "p99.9", "max");
	for (w = 0; w <= sum->n_workers; w++) {
		if (w < sum->n_workers)
			snprintf(label, sizeof(label), "lcore %u",
				 final && final->lcore_ids ? final->lcore_ids[w] : w);
		else
			snprintf(label, sizeof(label), "total");
		if (w == sum->n_workers && sum->n_workers == 1)
			break;	/* the total is the one lcore */
		for (k = 0; k < STATS_PERF_MAX; k++) {
			struct stats_hist m;
			uint64_t n;

			if (w < sum->n_workers) {
				m = sum->hist[w * STATS_PERF_MAX + k];
			} else {
				memset(&m, 0, sizeof(m));
				for (i = 0; i < sum->n_workers; i++)
					stats_hist_merge(&m, &sum->hist[i * STATS_PERF_MAX + k]);
			}
			n = stats_hist_count(&m);
			if (n == 0 && k == STATS_PERF_INGRESS_CYCLES)
				continue;	/* no hook */
			fprintf(out, "  %-10s %-14s %12" PRIu64 " %10.1f", k ? "" : label,
				stats_perf_kind_name(k), n,
				n ? (double)m.sum / (double)n : 0.0);
			for (i = 0; i < STATS_HIST_N_PCT; i++)
				fprintf(out, " %10" PRIu64,
					stats_hist_percentile(&m, stats_hist_pct_ppm[i]));
			fputc('\n', out);
		}
	}
}

const struct export_section __export_section_perf = {
	.name = "perf",
	.summary = __perf_print_summary,
	.summary_at = EXPORT_AT_END,
	.json_lcore = __perf_json_lcore,
	.json_summary = __perf_json_summary,
	.json = __perf_json,
	.json_at = EXPORT_AT_MIB,
	.prom = __perf_prom,
	.prom_at = EXPORT_AT_MIB,
};

void
export_perf_event_line(char *buf, size_t len, const struct stats_perf_event *ev,
		       unsigned int lcore, uint64_t hz, const char *mode,
		       const char *activity)
{
	snprintf(buf, len, "suspicious poll on lcore %u: %.1f us (%" PRIu64
		 " cycles), %u packets, mode %s, control: %s; poll %" PRIu64
		 ", %u suspicious in its window of %u before, %u after",
		 lcore, hz ? (double)ev->cycles * 1e6 / (double)hz : 0.0,
		 ev->cycles, ev->packets, mode, activity, ev->poll, ev->suspicious,
		 ev->n_before, ev->n_after);
}

json_t *
export_perf_event_json(const struct stats_perf_event *ev, unsigned int lcore,
		       uint64_t hz, double uptime_s, const char *mode,
		       const char *activity)
{
	json_t *win = json_array();
	uint32_t i, n = ev->n_before + 1 + ev->n_after;
	char c0[24], c1[24];

	snprintf(c0, sizeof(c0), "%#" PRIx64, ev->ctl_start);
	snprintf(c1, sizeof(c1), "%#" PRIx64, ev->ctl_end);
	for (i = 0; i < n && i < RTE_DIM(ev->win); i++)
		json_array_append_new(win, json_pack("{s:i, s:o, s:i}", "offset",
						     (int)i - (int)ev->n_before, "cycles",
						     export_json_u64(ev->win[i].cycles),
						     "packets", (int)ev->win[i].packets));
	return json_pack(
		"{s:i, s:f, s:o, s:f, s:o, s:i, s:s, s:s, s:s, s:s, s:i, s:o}", "lcore",
		(int)lcore, "uptime_s", uptime_s, "cycles", export_json_u64(ev->cycles),
		"us", hz ? (double)ev->cycles * 1e6 / (double)hz : 0.0, "poll",
		export_json_u64(ev->poll), "packets", (int)ev->packets, "mode", mode,
		"control", activity, "control_word_start", c0, "control_word_end", c1,
		"suspicious_in_window", (int)ev->suspicious, "window", win);
}
