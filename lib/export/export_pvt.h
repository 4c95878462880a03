/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_EXPORT_PVT_H
#define PKTPATH_EXPORT_PVT_H

/* Internals of lib/export, shared by its .c files; not for other modules. */

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "export.h"

/* port_export.c: the port counters in the console, the summary, the JSON,
 * /metrics and /netstat (called by report.c, prom.c). */
void __export_port_print_interval(FILE *out, const struct stats_snapshot *snap,
				  const struct stats_snapshot *prev);
void __export_port_print_summary(FILE *out, const struct stats_snapshot *snap);
json_t *__export_port_json(const struct stats_snapshot *snap);
void __export_port_prom(FILE *out, const struct stats_snapshot *snap);
void __export_port_netstat(FILE *out, const struct stats_snapshot *snap);

/* prom.c: the Prometheus text format's pieces, shared with port_export.c:
 * "# HELP pktpath_NAME HELP" and "# TYPE pktpath_NAME TYPE" lines, and a
 * label value with backslash, double quote and newline escaped. */
void __export_prom_family(FILE *out, const char *name, const char *type,
			  const char *help);
void __export_prom_escape(FILE *out, const char *s);

/* perf_export.c: --perf-detail's histograms (report.c, prom.c): the
 * Prometheus histograms of snap->raw_hist (nothing without them), the
 * summary's percentiles, and one lcore's (w >= 0) or all lcores' merged
 * (w < 0) histograms of hist (n workers x STATS_PERF_MAX) as JSON, null
 * for a NULL hist. */
void __export_perf_prom(FILE *out, const struct stats_snapshot *snap);
void __export_perf_print_summary(FILE *out, const struct stats_summary *sum,
				 const struct stats_snapshot *final);
json_t *__export_perf_lcore_json(const struct stats_hist *hist, unsigned int n,
				 int w);
/* pmu_export.c: --pmu (nothing without snap->pmu / sum->pmu): the
 * interval's lines, the summary's table and fold lines (report.c), the
 * snapshot's "pmu" and the summary's (report.c: snap->pmu set), /metrics'
 * families (prom.c). */
void __export_pmu_print_interval(FILE *out, const struct stats_snapshot *snap);
void __export_pmu_print_summary(FILE *out, const struct stats_summary *sum,
				const struct stats_snapshot *final);
json_t *__export_pmu_json(const struct stats_snapshot *snap);
json_t *__export_pmu_summary_json(const struct stats_summary *sum,
				  const struct stats_snapshot *snap);
void __export_pmu_prom(FILE *out, const struct stats_snapshot *snap);
/* stage_export.c: pktpath_stage_*_total{lcore,stage} (called by prom.c). */
void __export_stage_prom(FILE *out, const struct stats_snapshot *snap);

/* snmp6.c: /proc/net/snmp6's layout of the MIB totals v (export_snmp_write's
 * EXPORT_SNMP6), and its ICMPv6 message lines of the 512 counters msg. */
int __export_snmp6(FILE *out, const uint64_t *v);
void __export_snmp6_icmp6msg(FILE *out, const uint64_t *msg);

#endif /* PKTPATH_EXPORT_PVT_H */
