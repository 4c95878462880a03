/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reporters that read snapshots: the console lines, the run summary and
 * the JSON document.
 */
#include <inttypes.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_version.h>

#include "export_pvt.h"

static void
__print_rate(FILE *out, const char *label, const struct stats_rate *r)
{
	fprintf(out, "  %-10s %9.3f %8.3f %9.2f %9.2f %6.1f %14" PRIu64 "\n",
		label, r->pps / 1e6, r->gbps, r->ns_per_pkt, r->cycles_per_pkt,
		r->busy_pct, r->packets);
}

static void
__print_header(FILE *out, const char *title)
{
	fprintf(out, "%-12s %9s %8s %9s %9s %6s %14s\n", title, "Mpps",
		"Gbit/s", "ns/pkt", "cyc/pkt", "busy%", "packets");
}

static void
__print_drops(FILE *out, const uint64_t *now, const uint64_t *before)
{
	unsigned int i;
	int any = 0;

	for (i = 0; i < mib_n_drop_fields; i++) {
		unsigned int f = mib_drop_fields[i];
		uint64_t d = now[f] - (before ? before[f] : 0);

		if (d == 0)
			continue;
		fprintf(out, "%s%s.%s=%" PRIu64, any ? " " : "  drops: ",
			mib_group_name(mib_field_group(f)), mib_field_name(f), d);
		any = 1;
	}
	if (any)
		fputc('\n', out);
}

/* What a rate line adds when its worker (or any, for a total of n) lost
 * time: "  lost 0.998 s preempted, 3 switches; 1 poll > --stall-us", or
 * nothing. */
static void
__lost_suffix(char *buf, size_t len, const struct stats_rate *r)
{
	size_t o = 0;

	buf[0] = '\0';
	if (stats_rate_lost(r))
		o += (size_t)snprintf(buf, len, "  lost %.3f s%s%s, %" PRIu64 " switch%s",
				      r->lost_s, r->lost_cause ? " " : "",
				      stats_lost_cause_name(r->lost_cause),
				      r->involuntary_switches,
				      r->involuntary_switches == 1 ? "" : "es");
	if (r->stalled_polls > 0 && o < len)
		snprintf(buf + o, len - o, "%s%" PRIu64 " poll%s > --stall-us (%.3f s "
			 "not counted)", o ? "; " : "  ", r->stalled_polls,
			 r->stalled_polls == 1 ? "" : "s", r->stalled_s);
}

static void
__print_rate_lost(FILE *out, const char *label, const struct stats_rate *r)
{
	char sfx[160];

	__lost_suffix(sfx, sizeof(sfx), r);
	fprintf(out, "  %-10s %9.3f %8.3f %9.2f %9.2f %6.1f %14" PRIu64 "%s\n",
		label, r->pps / 1e6, r->gbps, r->ns_per_pkt, r->cycles_per_pkt,
		r->busy_pct, r->packets, sfx);
}

void
export_print_interval(FILE *out, const struct stats_snapshot *snap,
		      const struct stats_snapshot *prev)
{
	char label[32];
	unsigned int w;

	if (snap->seq == 1 || (snap->seq % 20) == 1)
		__print_header(out, "time");
	for (w = 0; w < snap->n_workers; w++) {
		snprintf(label, sizeof(label), "%6.1fs l%u", snap->uptime_s,
			 snap->lcore_ids ? snap->lcore_ids[w] : w);
		__print_rate_lost(out, label, &snap->lcore[w]);
	}
	snprintf(label, sizeof(label), "%6.1fs all", snap->uptime_s);
	__print_rate_lost(out, label, &snap->total);
	/* The stats thread woke late (starved, or the process was stopped):
	 * this one line covers the whole stretch. */
	if (snap->late_s > 0.05 * snap->total.seconds && snap->late_s >= 0.01)
		fprintf(out, "  %-10s the stats thread woke %.3f s late: this interval "
			"is %.3f s long\n", "", snap->late_s, snap->total.seconds);
	__export_sections_interval(out, snap, prev, EXPORT_AT_RATES);
	if (prev != NULL)
		__print_drops(out, snap->raw_totals, prev->raw_totals);
	__export_sections_interval(out, snap, prev, EXPORT_AT_END);
	fflush(out);
}

/* "lost: ...": what each worker lost over the whole run (the kernel's
 * accounting of its thread, and its polls over --stall-us), or none. */
static void
__print_lost(FILE *out, const struct stats_summary *sum,
	     const struct stats_snapshot *final)
{
	unsigned int w;
	bool any = false, known = true;

	for (w = 0; w < sum->n_workers; w++) {
		const struct stats_rate *r = &sum->lcore[w];
		unsigned int id = final && final->lcore_ids ? final->lcore_ids[w] : w;

		known &= r->lost_known;
		if (r->lost_s < 0.0005 && r->stalled_polls == 0)
			continue;
		any = true;
		fprintf(out, "lost: lcore %u did not run for %.3f s of %.2f s (%.2f%%; "
			"%" PRIu64 " involuntary switch%s); %" PRIu64 " poll%s over "
			"--stall-us: %.3f s not counted as work\n", id, r->lost_s,
			r->seconds, r->seconds > 0 ? 100 * r->lost_s / r->seconds : 0,
			r->involuntary_switches, r->involuntary_switches == 1 ? "" : "es",
			r->stalled_polls, r->stalled_polls == 1 ? "" : "s", r->stalled_s);
	}
	if (!any)
		fprintf(out, "lost: none%s\n", known ? " (every worker ran the whole "
			"run, by the kernel's accounting of its thread)" :
			" seen (a worker's thread was not accounted)");
}

void
export_print_summary(FILE *out, const struct stats_summary *sum,
		     const struct stats_snapshot *final)
{
	char cpu[256], label[32];
	unsigned int w;

	fprintf(out, "\n== summary: %.2f s, %u worker%s ==\n", sum->total.seconds,
		sum->n_workers, sum->n_workers == 1 ? "" : "s");
	__print_header(out, "whole run");
	for (w = 0; w < sum->n_workers; w++) {
		snprintf(label, sizeof(label), "lcore %u",
			 final && final->lcore_ids ? final->lcore_ids[w] : w);
		__print_rate(out, label, &sum->lcore[w]);
	}
	__print_rate(out, "total", &sum->total);
	if (sum->steady_valid) {
		__print_header(out, "steady");
		for (w = 0; w < sum->n_workers; w++) {
			snprintf(label, sizeof(label), "lcore %u",
				 final && final->lcore_ids ? final->lcore_ids[w] : w);
			__print_rate(out, label, &sum->lcore_steady[w]);
		}
		__print_rate(out, "total", &sum->steady);
	} else {
		fprintf(out, "steady: none: %s\n", sum->steady_reason);
	}
	__print_lost(out, sum, final);
	if (final != NULL) {
		char line[1024];

		__print_drops(out, final->totals, NULL);
		__export_sections_summary(out, sum, final, EXPORT_AT_DROPS);
		fprintf(out, "fold: last %.0f ns, mean %.0f ns, max %.0f ns over %"
			PRIu64 " folds\n", final->fold_ns, final->fold_ns_mean,
			final->fold_ns_max, final->folds);
		fprintf(out, "fold: %u lcores' blocks (%u phantom, %" PRIu64
			" KiB), per interval median %.0f ns, p99 %.0f ns over %"
			PRIu64 " scheduled folds\n", final->mib_lcores,
			final->n_phantom, final->phantom_bytes >> 10,
			sum->fold_p50_ns, sum->fold_p99_ns, sum->folds);
		if (final->fold_on_read)
			fprintf(out, "fold on read: %" PRIu64 " folds, median %.0f ns, "
				"p99 %.0f ns\n", sum->read_folds,
				sum->read_fold_p50_ns, sum->read_fold_p99_ns);
		stats_conservation(final, line, sizeof(line));
		fprintf(out, "conservation: %s\n", line);
		__export_sections_summary(out, sum, final, EXPORT_AT_FOLD);
	}
	__export_sections_summary(out, sum, final, EXPORT_AT_END);
	export_cpu_model(cpu, sizeof(cpu));
	fprintf(out, "TSC %.3f GHz, %s, CPU %s, memory %s\n",
		(double)rte_get_tsc_hz() / 1e9, rte_version(), cpu,
		export_memory_kind());
	fflush(out);
}

static json_t *
__rate_json(const struct stats_rate *r)
{
	return export_rate_json(r);
}

static json_t *
__mib_json(const uint64_t *v)
{
	json_t *o = json_object();
	unsigned int g, i;

	for (g = 0; g < MIB_GRP_MAX; g++) {
		json_t *grp = json_object();
		unsigned int first = mib_group_first((enum mib_group)g);

		for (i = 0; i < mib_group_count((enum mib_group)g); i++) {
			/* IcmpMsg: only the non-zero types, as Linux prints it. */
			if (v[first + i] == 0 && mib_group_sparse((enum mib_group)g))
				continue;
			/* Linux prints the constants signed (Tcp MaxConn is -1) */
			json_object_set_new(
				grp, mib_field_name(first + i),
				mib_field_kind(first + i) == MIB_KIND_CONST
					? json_integer((json_int_t)v[first + i])
					: export_json_u64(v[first + i]));
		}
		json_object_set_new(o, mib_group_name((enum mib_group)g), grp);
	}
	return o;
}

/* "conservation": the verdict, and every law with both sides. Exact on the
 * final snapshot; a live one may be off by what is in flight. With ports,
 * the port boundary too: "line" is what the summary prints after
 * "conservation: ", "port_dropped" the frames the ports dropped before
 * pktpath saw them. "detail": the first broken law, or the port that
 * broke it ("" when everything holds). */
static json_t *
__conservation_json(const struct stats_snapshot *snap)
{
	struct mib_law laws[MIB_N_LAWS];
	uint64_t tol = stats_tolerance(snap), dropped = 0;
	json_t *jl = json_array();
	char why[256], line[1024], ports[768] = "";
	unsigned int i;
	int ok, prc = 0;

	stats_laws(snap, laws, why, sizeof(why));
	ok = stats_conservation(snap, line, sizeof(line)) == 0;
	if (snap->n_ports > 0)
		prc = stats_port_check(snap, ports, sizeof(ports), &dropped);
	for (i = 0; i < MIB_N_LAWS; i++) {
		char text[192];

		snprintf(text, sizeof(text), "%s = %s", laws[i].lhs_name,
			 laws[i].rhs_name);
		json_array_append_new(
			jl, json_pack("{s:s, s:o, s:o, s:I}", "law", text, "lhs",
				      export_json_u64(laws[i].lhs), "rhs",
				      export_json_u64(laws[i].rhs), "diff",
				      (json_int_t)(laws[i].lhs - laws[i].rhs)));
	}
	return json_pack("{s:b, s:s, s:b, s:o, s:o, s:s, s:o}", "ok", ok, "detail",
			 why[0] != '\0' ? why
			 : prc != 0	? ports
					: "",
			 "exact", snap->final, "tolerance", export_json_u64(tol), "laws",
			 jl, "line", line, "port_dropped", export_json_u64(dropped));
}

/* "mib_lcores": the blocks every fold walks, and what the phantom ones
 * add to the totals: every summed counter's total less its real blocks'
 * sum, over all counters, from the same fold (0, as nobody writes them). */
static json_t *
__mib_lcores_json(const struct stats_snapshot *snap)
{
	uint64_t counted = 0;
	unsigned int f, b;

	for (f = 0; f < MIB_FIELD_MAX; f++) {
		uint64_t real = 0;

		if (mib_field_kind(f) != MIB_KIND_SUM)
			continue;
		for (b = 0; b < snap->n_blocks; b++)
			real += snap->raw_per_block[(size_t)b * MIB_FIELD_MAX + f];
		counted += snap->raw_totals[f] - real;
	}
	return json_pack("{s:i, s:i, s:i, s:i, s:o, s:o, s:o}", "lcores",
			 (int)snap->mib_lcores, "workers", (int)snap->n_workers,
			 "phantom", (int)snap->n_phantom, "block_bytes",
			 (int)MIB_BLOCK_BYTES, "bytes", export_json_u64(snap->mib_bytes),
			 "phantom_bytes", export_json_u64(snap->phantom_bytes),
			 "phantom_counted", export_json_u64(counted));
}

json_t *
export_json(const struct stats_snapshot *snap, const struct stats_summary *sum,
	    json_t *info, bool lcore_mib)
{
	json_t *root = json_object(), *lcores = json_array(), *fold;
	unsigned int w;

	if (info != NULL)
		json_object_set(root, "info", info);
	json_object_set_new(root, "seq", export_json_u64(snap->seq));
	json_object_set_new(root, "uptime_s", json_real(snap->uptime_s));
	json_object_set_new(root, "clears", export_json_u64(snap->clears));
	json_object_set_new(root, "interval", export_rate_json(&snap->total));
	json_object_set_new(root, "late_s", json_real(snap->late_s));
	for (w = 0; w < snap->n_workers; w++) {
		json_t *l = json_pack("{s:i, s:i, s:o}", "worker", (int)w,
			"lcore", snap->lcore_ids ? (int)snap->lcore_ids[w] : (int)w,
			"interval", __rate_json(&snap->lcore[w]));

		if (sum != NULL) {
			json_object_set_new(l, "run", __rate_json(&sum->lcore[w]));
			json_object_set_new(l, "steady", sum->steady_valid ?
				__rate_json(&sum->lcore_steady[w]) : json_null());
		}
		if (lcore_mib)
			json_object_set_new(l, "mib", __mib_json(snap->per_block +
				(size_t)w * MIB_FIELD_MAX));
		__export_sections_json_lcore(l, snap, w);
		json_array_append_new(lcores, l);
	}
	json_object_set_new(root, "lcores", lcores);
	if (sum != NULL) {
		json_object_set_new(root, "summary", json_pack("{s:o, s:o, s:o}",
			"run", export_rate_json(&sum->total),
			"steady", sum->steady_valid ? export_rate_json(&sum->steady) : json_null(),
			"steady_reason", sum->steady_valid ? json_null() :
			json_string(sum->steady_reason)));
		json_object_set_new(json_object_get(root, "summary"), "fold",
				    json_pack("{s:o, s:f, s:f, s:o, s:f, s:f}",
					      "scheduled", export_json_u64(sum->folds),
					      "p50_ns", sum->fold_p50_ns, "p99_ns",
					      sum->fold_p99_ns, "read_folds",
					      export_json_u64(sum->read_folds),
					      "read_p50_ns", sum->read_fold_p50_ns,
					      "read_p99_ns", sum->read_fold_p99_ns));
		__export_sections_json_summary(json_object_get(root, "summary"), sum,
					       snap);
	}
	fold = json_pack(
		"{s:f, s:f, s:f, s:o, s:b, s:o, s:f, s:o}", "last_ns", snap->fold_ns,
		"mean_ns", snap->fold_ns_mean, "max_ns", snap->fold_ns_max, "count",
		export_json_u64(snap->folds), "on_read", snap->fold_on_read, "read_folds",
		export_json_u64(snap->read_folds), "read_mean_ns",
		snap->read_folds ? snap->read_fold_s_sum * 1e9 / (double)snap->read_folds
				 : 0.0,
		"read_ns", snap->read_fold ? json_real(snap->read_fold_ns) : json_null());
	json_object_set_new(root, "fold", fold);
	json_object_set_new(root, "mib", __mib_json(snap->totals));
	__export_sections_json(root, snap, EXPORT_AT_MIB);
	json_object_set_new(root, "mib_lcores", __mib_lcores_json(snap));
	__export_sections_json(root, snap, EXPORT_AT_END);
	json_object_set_new(root, "conservation", __conservation_json(snap));
	return root;
}

void
export_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "model name", 10) == 0) {
			char *c = strchr(line, ':');

			if (c != NULL) {
				c++;
				while (*c == ' ' || *c == '\t')
					c++;
				c[strcspn(c, "\n")] = '\0';
				snprintf(buf, len, "%s", c);
			}
			break;
		}
	}
	fclose(f);
}
