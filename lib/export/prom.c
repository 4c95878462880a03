/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Text writers over a snapshot: the Prometheus exposition format 0.0.4
 * (/metrics) and the two-line-per-group layout of /proc/net/snmp and
 * /proc/net/netstat (/snmp, /netstat). See export.h for which values each
 * one exports (raw totals vs baseline-relative) and why.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "export_pvt.h"

/* ---- /proc/net/snmp and /proc/net/netstat ---- */

/* A sparse group (IcmpMsg) as proc.c's icmpmsg_put prints it: only the
 * non-zero fields, and nothing at all when every one is zero. */
static void
__snmp_sparse(FILE *out, enum mib_group g, const uint64_t *v)
{
	unsigned int first = mib_group_first(g), n = mib_group_count(g), i;
	int any = 0;

	for (i = 0; i < n; i++)
		any |= v[first + i] != 0;
	if (!any)
		return;
	fprintf(out, "%s:", mib_group_name(g));
	for (i = 0; i < n; i++)
		if (v[first + i] != 0)
			fprintf(out, " %s", mib_field_name(first + i));
	fprintf(out, "\n%s:", mib_group_name(g));
	for (i = 0; i < n; i++)
		if (v[first + i] != 0)
			fprintf(out, " %" PRIu64, v[first + i]);
	fputc('\n', out);
}

static void
__snmp_group(FILE *out, const char *name, unsigned int first,
	     unsigned int count, const uint64_t *v)
{
	unsigned int i;

	fprintf(out, "%s:", name);
	for (i = 0; i < count; i++)
		fprintf(out, " %s", mib_field_name(first + i));
	fprintf(out, "\n%s:", name);
	for (i = 0; i < count; i++) {
		unsigned int f = first + i;

		/* Linux prints the constants signed (Tcp MaxConn is -1). */
		if (mib_field_kind(f) == MIB_KIND_CONST)
			fprintf(out, " %" PRId64, (int64_t)v[f]);
		else
			fprintf(out, " %" PRIu64, v[f]);
	}
	fputc('\n', out);
}

int
export_snmp_write(FILE *out, const struct stats_snapshot *snap,
		  enum export_snmp_file which)
{
	static const enum mib_group snmp[] = {
		MIB_GRP_IP, MIB_GRP_ICMP, MIB_GRP_ICMPMSG, MIB_GRP_TCP,
		MIB_GRP_UDP, MIB_GRP_UDPLITE };
	static const enum mib_group netstat[] = {
		MIB_GRP_IPEXT, MIB_GRP_RX, MIB_GRP_PATH, MIB_GRP_INGRESS,
		MIB_GRP_PEER, MIB_GRP_CAPTURE, MIB_GRP_MODE, MIB_GRP_STAGE };
	const enum mib_group *g;
	unsigned int i, n;

	if (out == NULL || snap == NULL)
		return -EINVAL;
	switch (which) {
	case EXPORT_SNMP:
		g = snmp;
		n = RTE_DIM(snmp);
		break;
	case EXPORT_NETSTAT:
		g = netstat;
		n = RTE_DIM(netstat);
		break;
	case EXPORT_SNMP6:
		return __export_snmp6(out, snap->totals);
	default:
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (mib_group_sparse(g[i]))
			__snmp_sparse(out, g[i], snap->totals);
		else
			__snmp_group(out, mib_group_name(g[i]), mib_group_first(g[i]),
				     mib_group_count(g[i]), snap->totals);
	}
	__export_sections_snmp(out, snap, which);
	return ferror(out) ? -EIO : 0;
}

/* ---- Prometheus text format 0.0.4 ---- */

/* A family that is one MIB field: its HELP is the field's, from the table
 * (whose texts need no escaping: test_mib checks them). */
static void
__family_field(FILE *out, const char *name, const char *type, unsigned int f)
{
	const char *h = mib_field_help(f);

	fprintf(out, "# HELP pktpath_%s %c%s (%s %s)\n# TYPE pktpath_%s %s\n", name,
		toupper((unsigned char)h[0]), h + 1,
		mib_group_name(mib_field_group(f)), mib_field_name(f), name, type);
}

/* Floating-point samples: 10 significant digits (rounding keeps a growing
 * counter growing), never NaN (every division is guarded). */
static void
__dbl(FILE *out, double v)
{
	fprintf(out, " %.10g\n", v);
}

static const uint64_t *
__raw_block(const struct stats_snapshot *snap, unsigned int w)
{
	return snap->raw_per_block + (size_t)w * MIB_FIELD_MAX;
}

static unsigned int
__lcore(const struct stats_snapshot *snap, unsigned int w)
{
	return snap->lcore_ids != NULL ? snap->lcore_ids[w] : w;
}

/* A zero field of a sparse group (IcmpMsg InTypeN): left out, as Linux
 * leaves it out of /proc/net/snmp; its series appears when it first moves
 * and never goes away (these totals are never cleared). */
static inline bool
__sparse_zero(unsigned int f, uint64_t v)
{
	return v == 0 && mib_group_sparse(mib_field_group(f));
}

static void
__mib_families(FILE *out, const struct stats_snapshot *snap,
	       const struct export_prom_opts *o)
{
	const uint64_t *raw = snap->raw_totals;
	unsigned int f, i, w;

	__export_prom_family(out, "mib_total", "counter", "MIB counter as in /proc/net/snmp "
		 "and /proc/net/netstat (and pktpath's groups), summed over "
		 "lcores, since start: never cleared. What each field counts: "
		 "telemetry /pktpath/mib_help,GROUP or lib/mib/README.md");
	for (f = 0; f < MIB_FIELD_MAX; f++) {
		if (mib_field_kind(f) != MIB_KIND_SUM || __sparse_zero(f, raw[f]))
			continue;
		fprintf(out, "pktpath_mib_total{group=\"%s\",field=\"%s\"} %" PRIu64
			"\n", mib_group_name(mib_field_group(f)), mib_field_name(f),
			raw[f]);
	}
	__export_prom_family(out, "mib_value", "gauge", "MIB constant (Linux prints it, e.g. Tcp "
		 "MaxConn -1) or high-water mark (Ingress GracePeriodMaxUs)");
	for (f = 0; f < MIB_FIELD_MAX; f++) {
		if (mib_field_kind(f) == MIB_KIND_SUM)
			continue;
		fprintf(out, "pktpath_mib_value{group=\"%s\",field=\"%s\"} ",
			mib_group_name(mib_field_group(f)), mib_field_name(f));
		if (mib_field_kind(f) == MIB_KIND_CONST)
			fprintf(out, "%" PRId64 "\n", (int64_t)raw[f]);
		else
			fprintf(out, "%" PRIu64 "\n", raw[f]);
	}
	__export_prom_family(out, "drops_total", "counter", "Packets dropped, by the MIB "
		 "counter that recorded the drop, one per packet (a subset of "
		 "pktpath_mib_total)");
	for (i = 0; i < mib_n_drop_fields; i++) {
		f = mib_drop_fields[i];
		fprintf(out, "pktpath_drops_total{group=\"%s\",field=\"%s\"} %" PRIu64
			"\n", mib_group_name(mib_field_group(f)), mib_field_name(f),
			raw[f]);
	}
	if (!o->lcore_mib)
		return;
	__export_prom_family(out, "lcore_mib_total", "counter", "MIB counter of one worker "
		 "lcore, since start: never cleared");
	for (w = 0; w < snap->n_workers; w++) {
		const uint64_t *b = __raw_block(snap, w);

		for (f = 0; f < MIB_FIELD_MAX; f++) {
			if (mib_field_kind(f) != MIB_KIND_SUM || __sparse_zero(f, b[f]))
				continue;
			fprintf(out, "pktpath_lcore_mib_total{lcore=\"%u\",group=\"%s\","
				"field=\"%s\"} %" PRIu64 "\n", __lcore(snap, w),
				mib_group_name(mib_field_group(f)),
				mib_field_name(f), b[f]);
		}
	}
}

/* Per-lcore counters: one family, one sample per worker; help NULL: the
 * field's own, from the table. */
static void
__lcore_counter(FILE *out, const struct stats_snapshot *snap, const char *name,
		const char *help, unsigned int field)
{
	unsigned int w;

	if (help != NULL)
		__export_prom_family(out, name, "counter", help);
	else
		__family_field(out, name, "counter", field);
	for (w = 0; w < snap->n_workers; w++) {
		const uint64_t *b = __raw_block(snap, w);

		fprintf(out, "pktpath_%s{lcore=\"%u\"} %" PRIu64 "\n", name,
			__lcore(snap, w), field < MIB_FIELD_MAX ? b[field] : mib_drops_total(b));
	}
}

enum rate_kind { R_PPS, R_SPP, R_CPP, R_BUSY, R_BPS };

static double
__rate_val(const struct stats_rate *r, enum rate_kind k)
{
	switch (k) {
	case R_PPS: return r->pps;
	case R_SPP: return r->ns_per_pkt / 1e9;
	case R_CPP: return r->cycles_per_pkt;
	case R_BUSY: return r->busy_pct / 100.0;
	case R_BPS: return r->gbps * 1e9 / 8.0;
	}
	return 0;
}

/* A rate gauge: the total, then (if lcore_name) one sample per worker. */
static void
__rate_gauge(FILE *out, const struct stats_snapshot *snap, const char *name,
	     const char *lcore_name, const char *help, enum rate_kind k)
{
	unsigned int w;

	__export_prom_family(out, name, "gauge", help);
	fprintf(out, "pktpath_%s", name);
	__dbl(out, __rate_val(&snap->total, k));
	if (lcore_name == NULL)
		return;
	__export_prom_family(out, lcore_name, "gauge", help);
	for (w = 0; w < snap->n_workers; w++) {
		fprintf(out, "pktpath_%s{lcore=\"%u\"}", lcore_name, __lcore(snap, w));
		__dbl(out, __rate_val(&snap->lcore[w], k));
	}
}

static void
__rate_families(FILE *out, const struct stats_snapshot *snap)
{
	/* One field per worker: HELP from the field table. */
	__lcore_counter(out, snap, "lcore_packets_total", NULL, MIB_F(RX, PACKETS));
	__lcore_counter(out, snap, "lcore_bytes_total", NULL, MIB_F(RX, OCTETS));
	__lcore_counter(out, snap, "lcore_busy_cycles_total", NULL,
			MIB_F(RX, BUSYCYCLES));
	__lcore_counter(out, snap, "lcore_idle_cycles_total", NULL,
			MIB_F(RX, IDLECYCLES));
	__lcore_counter(out, snap, "lcore_drops_total", "Packets the worker "
			"lcore dropped, all reasons (see pktpath_drops_total)",
			MIB_FIELD_MAX);
	__rate_gauge(out, snap, "packets_per_second", "lcore_packets_per_second",
		     "Packets per second over the last stats interval", R_PPS);
	__rate_gauge(out, snap, "seconds_per_packet", "lcore_seconds_per_packet",
		     "1 / packets per second over the last stats interval (ns/pkt "
		     "* 1e-9); 0 when idle", R_SPP);
	__rate_gauge(out, snap, "cycles_per_packet", "lcore_cycles_per_packet",
		     "Busy TSC cycles per packet over the last stats interval",
		     R_CPP);
	__rate_gauge(out, snap, "busy_ratio", "lcore_busy_ratio", "Busy cycles / "
		     "(busy + idle cycles) over the last stats interval", R_BUSY);
	__rate_gauge(out, snap, "receive_bytes_per_second", NULL, "L2 bytes per "
		     "second over the last stats interval", R_BPS);
}

/* Whether mode m is one the run offers (the ingress state's "modes"; all
 * of them without a state). */
static bool
__mode_offered(const struct export_prom_opts *o, unsigned int m)
{
	const json_t *modes = o->ingress ? json_object_get(o->ingress, "modes") : NULL;
	size_t i;

	if (!json_is_array(modes) || json_array_size(modes) == 0)
		return true;
	for (i = 0; i < json_array_size(modes); i++) {
		const char *n = json_string_value(json_array_get(modes, i));

		if (n != NULL && strcmp(n, mib_mode_name(m)) == 0)
			return true;
	}
	return false;
}

/*
 * Per lcore and ingress mode: packets, busy cycles and seconds counted only
 * while that mode was in force (the Mode group, tagged by the worker at
 * each burst), so that rate(packets{mode=M}) / rate(seconds{mode=M}) is the
 * packet rate in M alone, exact across flips.
 */
static void
__mode_families(FILE *out, const struct stats_snapshot *snap,
		const struct export_prom_opts *o)
{
	static const struct {
		const char *name, *help;
	} fam[] = {
		{ "lcore_mode_packets_total", "Frames the worker lcore received while "
		  "the ingress mode was in force (Mode Mode<M>Packets)" },
		{ "lcore_mode_busy_cycles_total", "TSC cycles of polls that carried "
		  "packets, while the ingress mode was in force" },
		{ "lcore_mode_seconds_total", "Seconds the worker lcore polled (busy "
		  "and idle) while the ingress mode was in force; lost time (polls "
		  "longer than --stall-us) is not in them" },
		{ "lcore_mode_lost_seconds_total", "Seconds of the worker lcore's "
		  "polls longer than --stall-us (time it did not run) while the "
		  "ingress mode was in force" },
	};
	unsigned int k, w, m;

	for (k = 0; k < RTE_DIM(fam); k++) {
		__export_prom_family(out, fam[k].name, "counter", fam[k].help);
		for (w = 0; w < snap->n_workers; w++) {
			const uint64_t *b = __raw_block(snap, w);

			for (m = 0; m < MIB_MODES; m++) {
				if (!__mode_offered(o, m))
					continue;
				fprintf(out, "pktpath_%s{lcore=\"%u\",mode=\"%s\"}",
					fam[k].name, __lcore(snap, w), mib_mode_name(m));
				if (k == 0)
					fprintf(out, " %" PRIu64 "\n",
						b[MIB_MODE_F(m, MIB_MODE_K_PACKETS)]);
				else if (k == 1)
					fprintf(out, " %" PRIu64 "\n",
						b[MIB_MODE_F(m, MIB_MODE_K_BUSY)]);
				else if (k == 2)
					__dbl(out, snap->tsc_hz == 0 ? 0 :
					      (double)(b[MIB_MODE_F(m, MIB_MODE_K_BUSY)] +
						       b[MIB_MODE_F(m, MIB_MODE_K_IDLE)]) /
					      (double)snap->tsc_hz);
				else
					__dbl(out, snap->tsc_hz == 0 ? 0 :
					      (double)b[MIB_MODE_F(m, MIB_MODE_K_LOST)] /
					      (double)snap->tsc_hz);
			}
		}
	}
}

/*
 * Lost time per worker: the kernel's accounting of its thread (the seconds
 * it did not run since it began, its involuntary context switches) and the
 * polls the worker found longer than --stall-us, whose cycles no busy or
 * idle counter holds. Omitted without the thread accounting.
 */
static void
__lost_families(FILE *out, const struct stats_snapshot *snap)
{
	unsigned int w;

	if (snap->thread == NULL)
		return;
	__export_prom_family(out, "lcore_lost_seconds_total", "counter", "Seconds the "
		 "worker lcore's thread did not run since it began polling (wall "
		 "time less its CPU time: preempted, stopped, stolen)");
	for (w = 0; w < snap->n_workers; w++) {
		fprintf(out, "pktpath_lcore_lost_seconds_total{lcore=\"%u\"}",
			__lcore(snap, w));
		__dbl(out, (double)snap->thread[w].lost_ns / 1e9);
	}
	__export_prom_family(out, "lcore_involuntary_switches_total", "counter",
		 "Involuntary context switches of the worker lcore's thread (it was "
		 "preempted) since the first fold after it began");
	for (w = 0; w < snap->n_workers; w++)
		fprintf(out, "pktpath_lcore_involuntary_switches_total{lcore=\"%u\"} %"
			PRIu64 "\n", __lcore(snap, w), snap->thread[w].ivcsw);
	__export_prom_family(out, "lcore_stalled_seconds_total", "counter", "Seconds "
		 "of the worker lcore's polls longer than --stall-us (Rx LostCycles): "
		 "time it did not run, in no busy or idle counter");
	for (w = 0; w < snap->n_workers; w++) {
		fprintf(out, "pktpath_lcore_stalled_seconds_total{lcore=\"%u\"}",
			__lcore(snap, w));
		__dbl(out, snap->tsc_hz == 0 ? 0 :
		      (double)__raw_block(snap, w)[MIB_F(RX, LOSTCYCLES)] /
		      (double)snap->tsc_hz);
	}
}

/* --fold-on-read: the readers' own folds, as a histogram; and the blocks
 * every fold walks (--mib-lcores). */
static void
__read_fold_families(FILE *out, const struct stats_snapshot *snap)
{
	uint64_t cum = 0;
	unsigned int i;

	__export_prom_family(out, "read_folds_total", "counter", "Folds of the MIB "
		 "blocks made for one read (--fold-on-read: /snmp, /netstat, "
		 "/metrics, /stats.json, /pktpath/mib)");
	fprintf(out, "pktpath_read_folds_total %" PRIu64 "\n", snap->read_folds);
	__export_prom_family(out, "read_fold_seconds", "histogram", "Duration of "
		 "the folds made for one read (--fold-on-read)");
	for (i = 0; i < STATS_READ_BUCKETS; i++) {
		cum += snap->read_fold_buckets[i];
		if (i < STATS_READ_BUCKETS - 1)
			fprintf(out, "pktpath_read_fold_seconds_bucket{le=\"%g\"} %"
				PRIu64 "\n", stats_read_fold_bounds_s[i], cum);
		else
			fprintf(out, "pktpath_read_fold_seconds_bucket{le=\"+Inf\"} %"
				PRIu64 "\n", cum);
	}
	fprintf(out, "pktpath_read_fold_seconds_sum");
	__dbl(out, snap->read_fold_s_sum);
	fprintf(out, "pktpath_read_fold_seconds_count %" PRIu64 "\n", cum);
	__export_prom_family(out, "mib_lcores", "gauge", "Lcores whose MIB blocks "
		 "every fold walks: the workers' and the phantom ones (--mib-lcores)");
	fprintf(out, "pktpath_mib_lcores{kind=\"worker\"} %u\n", snap->n_workers);
	fprintf(out, "pktpath_mib_lcores{kind=\"phantom\"} %u\n", snap->n_phantom);
	__export_prom_family(out, "mib_block_bytes", "gauge", "Memory of the MIB "
		 "blocks, one per lcore and the control block (--mib-layout percpu: "
		 "a page-aligned allocation each; shared: one interleaved region, "
		 "padded to a power-of-two stride)");
	fprintf(out, "pktpath_mib_block_bytes{kind=\"all\"} %" PRIu64 "\n",
		snap->mib_bytes);
	fprintf(out, "pktpath_mib_block_bytes{kind=\"phantom\"} %" PRIu64 "\n",
		snap->phantom_bytes);
}

static void
__fold_families(FILE *out, const struct stats_snapshot *snap)
{
	const uint64_t *raw = snap->raw_totals;

	__export_prom_family(out, "fold_duration_seconds", "gauge", "Duration of the last "
		 "fold of the per-lcore MIB blocks");
	fprintf(out, "pktpath_fold_duration_seconds");
	__dbl(out, snap->fold_ns / 1e9);
	__export_prom_family(out, "fold_duration_max_seconds", "gauge", "Longest fold since "
		 "start");
	fprintf(out, "pktpath_fold_duration_max_seconds");
	__dbl(out, snap->fold_ns_max / 1e9);
	__export_prom_family(out, "fold_seconds_total", "counter", "Time spent folding since "
		 "start");
	fprintf(out, "pktpath_fold_seconds_total");
	__dbl(out, snap->fold_ns_mean * (double)snap->folds / 1e9);
	__export_prom_family(out, "folds_total", "counter", "Folds since start");
	fprintf(out, "pktpath_folds_total %" PRIu64 "\n", snap->folds);
	__read_fold_families(out, snap);
	__export_prom_family(out, "stats_clears_total", "counter", "Baseline clears (POST "
		 "/stats/clear); pktpath_*_total counters ignore them");
	fprintf(out, "pktpath_stats_clears_total %" PRIu64 "\n", snap->clears);
	__export_prom_family(out, "uptime_seconds", "gauge", "Seconds since the stats "
		 "thread started, at the snapshot");
	fprintf(out, "pktpath_uptime_seconds");
	__dbl(out, snap->uptime_s);
	__export_prom_family(out, "workers", "gauge", "Worker lcores");
	fprintf(out, "pktpath_workers %u\n", snap->n_workers);
	__family_field(out, "ingress_grace_periods_total", "counter",
		       MIB_F(INGRESS, GRACEPERIODS));
	fprintf(out, "pktpath_ingress_grace_periods_total %" PRIu64 "\n",
		raw[MIB_F(INGRESS, GRACEPERIODS)]);
	__export_prom_family(out, "ingress_grace_period_max_seconds", "gauge", "Longest RCU "
		 "grace period since start (Ingress GracePeriodMaxUs)");
	fprintf(out, "pktpath_ingress_grace_period_max_seconds");
	__dbl(out, (double)raw[MIB_F(INGRESS, GRACEPERIODMAXUS)] / 1e6);
}

/* info["a"]["b"]["c"] (b, c may be NULL) as text ("" if absent); numbers
 * and booleans printed. */
static void
__info_str(const json_t *info, const char *a, const char *b, const char *c,
	   char *buf, size_t len)
{
	const json_t *v = info ? json_object_get(info, a) : NULL;

	if (v != NULL && b != NULL)
		v = json_object_get(v, b);
	if (v != NULL && c != NULL)
		v = json_object_get(v, c);
	buf[0] = '\0';
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
}

static const char *
__cur_mode(const struct export_prom_opts *o, char *buf, size_t len)
{
	const json_t *m = o->ingress ? json_object_get(o->ingress, "mode") : NULL;

	if (json_is_string(m))
		return json_string_value(m);
	__info_str(o->info, "config", "ingress", NULL, buf, len);
	return buf[0] ? buf : "off";
}

static void
__info_family(FILE *out, const struct export_prom_opts *o)
{
	/* label, info object, member, its member */
	static const char *const labels[][4] = {
		{ "version", "version", NULL, NULL }, { "dpdk", "dpdk", NULL, NULL },
		{ "fold", "config", "fold", NULL },
		{ "mib_layout", "config", "mib_layout", NULL },
		{ "source", "config", "source", NULL }, { "path", "config", "path", NULL },
		{ "burst", "config", "burst", NULL }, { "alloc", "config", "alloc", NULL },
		{ "prefetch", "config", "prefetch", NULL }, { "cpu", "cpu", NULL, NULL },
		{ "microcode", "conditions", "cpu", "microcode" },
		{ "kernel", "conditions", "kernel", NULL },
		{ "compiler", "conditions", "compiler", NULL },
	};
	const json_t *warn = o->info ? json_object_get(json_object_get(o->info,
					"conditions"), "warnings") : NULL;
	const json_t *modes = o->ingress ? json_object_get(o->ingress, "modes") : NULL;
	char buf[256], mb[64];
	const char *mode = __cur_mode(o, mb, sizeof(mb));
	unsigned int i;

	__export_prom_family(out, "info", "gauge", "Build and run information, always 1");
	fputs("pktpath_info{mode=\"", out);
	__export_prom_escape(out, mode);
	fputc('"', out);
	for (i = 0; i < RTE_DIM(labels); i++) {
		__info_str(o->info, labels[i][1], labels[i][2], labels[i][3], buf,
			   sizeof(buf));
		if (buf[0] == '\0')	/* an empty label is an absent one */
			continue;
		fprintf(out, ",%s=\"", labels[i][0]);
		__export_prom_escape(out, buf);
		fputc('"', out);
	}
	fputs("} 1\n", out);
	if (json_is_array(warn)) {
		__export_prom_family(out, "condition_warning", "gauge", "1 for each "
			 "condition of the host that makes the figures noisier (the "
			 "banner's conditions: lines)");
		for (i = 0; i < json_array_size(warn); i++) {
			fputs("pktpath_condition_warning{warning=\"", out);
			__export_prom_escape(out, json_string_value(json_array_get(warn, i)));
			fputs("\"} 1\n", out);
		}
	}

	__export_prom_family(out, "ingress_mode", "gauge", "1 for the current ingress guard "
		 "mode, 0 for the other available ones");
	if (!json_is_array(modes) || json_array_size(modes) == 0) {
		fputs("pktpath_ingress_mode{mode=\"", out);
		__export_prom_escape(out, mode);
		fputs("\"} 1\n", out);
		return;
	}
	for (i = 0; i < json_array_size(modes); i++) {
		const char *m = json_string_value(json_array_get(modes, i));

		if (m == NULL)
			continue;
		fputs("pktpath_ingress_mode{mode=\"", out);
		__export_prom_escape(out, m);
		fprintf(out, "\"} %d\n", strcmp(m, mode) == 0);
	}
}

static void
__memory_families(FILE *out, const struct export_memory *m)
{
	__export_prom_family(out, "resident_memory_bytes", "gauge", "Resident set size of "
		 "the process");
	fprintf(out, "pktpath_resident_memory_bytes %" PRIu64 "\n", m->rss_bytes);
	__export_prom_family(out, "heap_inuse_bytes", "gauge", "Live heap bytes: malloc() "
		 "(glibc in-use, or the sanitizer allocator's count in a "
		 "sanitized build) and rte_malloc() (all sockets)");
	fprintf(out, "pktpath_heap_inuse_bytes{allocator=\"malloc\"} %" PRIu64 "\n",
		m->heap_bytes);
	if (m->eal)
		fprintf(out, "pktpath_heap_inuse_bytes{allocator=\"rte_malloc\"} %"
			PRIu64 "\n", m->eal_heap_bytes);
}

int
export_prom_write(FILE *out, const struct stats_snapshot *snap,
		  const struct export_prom_opts *opts)
{
	struct export_prom_opts none = { NULL, NULL, false, NULL };

	if (out == NULL || snap == NULL)
		return -EINVAL;
	if (opts == NULL)
		opts = &none;
	__info_family(out, opts);
	__rate_families(out, snap);
	__mode_families(out, snap, opts);
	__lost_families(out, snap);
	__export_sections_prom(out, snap, opts, EXPORT_AT_RATES);
	__fold_families(out, snap);
	__mib_families(out, snap, opts);
	__export_sections_prom(out, snap, opts, EXPORT_AT_MIB);
	if (opts->mem != NULL)
		__memory_families(out, opts->mem);
	__export_sections_prom(out, snap, opts, EXPORT_AT_END);
	return ferror(out) ? -EIO : 0;
}
