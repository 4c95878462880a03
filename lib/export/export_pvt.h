/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_EXPORT_PVT_H
#define PKTPATH_EXPORT_PVT_H

/* Internals of lib/export, shared by its .c files; not for other modules. */

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "export.h"
#include "export_section.h"
#include "prom_text.h"

/* json_text.c: the length of the UTF-8 character at s (left bytes there,
 * left > 0) and its code point in *cp, or 0 if it is not one (a bad lead
 * or continuation byte, cut short, overlong, a surrogate, beyond U+10FFFF). */
size_t __export_utf8_char(const unsigned char *s, size_t left, uint32_t *cp);

/* The built-in sections (export_section.h), each defined in its own file
 * and listed by sections.c: --perf-detail's histograms (perf_export.c),
 * --stage-cycles' tables (stage_export.c), --pmu's events (pmu_export.c),
 * the port counters (port_export.c). */
extern const struct export_section __export_section_perf;
extern const struct export_section __export_section_stages;
extern const struct export_section __export_section_pmu;
extern const struct export_section __export_section_pmu_stages;
extern const struct export_section __export_section_ports;
/* the run's history (series_export.c) */
extern const struct export_section __export_section_series;

/* sections.c: each registered section's part at one place of an output,
 * in registration order (export_section.h has the places). Called by the
 * writers (report.c, prom.c); not thread-safe against registration. */
void __export_sections_interval(FILE *out, const struct stats_snapshot *snap,
				const struct stats_snapshot *prev, enum export_at at);
void __export_sections_summary(FILE *out, const struct stats_summary *sum,
			       const struct stats_snapshot *final, enum export_at at);
void __export_sections_json_lcore(json_t *lcore, const struct stats_snapshot *snap,
				  unsigned int w);
void __export_sections_json_summary(json_t *summary, const struct stats_summary *sum,
				    const struct stats_snapshot *snap);
void __export_sections_json(json_t *root, const struct stats_snapshot *snap,
			    enum export_at at);
void __export_sections_prom(FILE *out, const struct stats_snapshot *snap,
			    const struct export_prom_opts *o, enum export_at at);
void __export_sections_snmp(FILE *out, const struct stats_snapshot *snap,
			    enum export_snmp_file which);

/* pmu_export.c: the columns of --pmu's summary tables (the lcores' and,
 * in pmu_stage_export.c, the stages'): the events' names (their widths
 * into wd), then IPC when the group counts cycles and instructions
 * (__export_pmu_ipc_column(): the group decides, not a window's counts,
 * so every table of a run has the same columns); a row's cells: each
 * event per packet, IPC, "unknown" for what the window did not count. */
bool __export_pmu_ipc_column(const struct stats_pmu_conf *c);
void __export_pmu_head(FILE *out, const struct stats_pmu_conf *c, unsigned int *wd);
void __export_pmu_cells(FILE *out, const struct stats_pmu_conf *c, const unsigned int *wd,
			const struct stats_pmu_rate *r);

/* snmp6.c: /proc/net/snmp6's layout of the MIB totals v (export_snmp_write's
 * EXPORT_SNMP6), and its ICMPv6 message lines of the 512 counters msg. */
int __export_snmp6(FILE *out, const uint64_t *v);
void __export_snmp6_icmp6msg(FILE *out, const uint64_t *msg);

#endif /* PKTPATH_EXPORT_PVT_H */
