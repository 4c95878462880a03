/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_EXPORT_SECTION_H
#define PKTPATH_EXPORT_SECTION_H

/**
 * @file
 * Sections of the reports that register: a part of pktpath that has
 * something to report (the ports, --perf-detail, --stage-cycles, --pmu, the
 * next one) describes what it adds to each output in one struct
 * export_section, and every writer of lib/export asks the registered
 * sections in turn: the console's interval lines (export_print_interval()),
 * the summary (export_print_summary()), the JSON document (export_json():
 * --json and /stats.json), /metrics (export_prom_write()), /snmp,
 * /netstat (export_snmp_write()) and the run's history (export_history_add():
 * --json's "intervals" and GET /history). No writer knows a section by
 * name.
 *
 * Where a section's part goes in an output is its *_at: after which part of
 * the core's output (enum export_at); sections at one place follow each
 * other in registration order, the built-in ones first (in the order
 * sections.c lists them: perf, stages, pmu, ports, series). Each callback may be
 * NULL (the section has nothing for that output) and writes nothing when
 * its data is absent from the snapshot (its option was not given).
 *
 * A sketch, a section of its own:
 *
 *     static void
 *     my_prom(FILE *out, const struct stats_snapshot *snap,
 *             const struct export_prom_opts *o)
 *     {
 *             __export_prom_family(out, "my_total", "counter", "...");
 *             fprintf(out, "pktpath_my_total %" PRIu64 "\n", ...);
 *     }
 *     static const struct export_section my = {
 *             .name = "my", .prom = my_prom, .prom_at = EXPORT_AT_END };
 *     export_section_register(&my);
 */

#include <stdio.h>

#include <jansson.h>

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

struct export_history; /* export_series.h */

/** Where a section's part goes in an output: after which part of the
 *  core's. Not every output has every place (see each callback). */
enum export_at {
	/** The end: the console line's last (after the drops line), the
	 *  summary's before its closing "TSC ..." line, /metrics' last (after
	 *  the memory families), the JSON root's before "conservation". */
	EXPORT_AT_END,
	/** Console line: after the rate lines (before the drops line);
	 *  /metrics: after the rate, mode and lost-time families. */
	EXPORT_AT_RATES,
	/** Summary: after the drops line; called with a final snapshot only. */
	EXPORT_AT_DROPS,
	/** Summary: after the fold and conservation lines; with a final
	 *  snapshot only. */
	EXPORT_AT_FOLD,
	/** JSON root: after "mib"; /metrics: after the MIB families. */
	EXPORT_AT_MIB,
	EXPORT_AT_MAX
};

/** One section: its parts of each output. Registered by pointer: the
 *  struct must outlive its registration (a static const one). */
struct export_section {
	const char *name; /**< unique ("ports", "stages", ...) */
	/** Console: what the interval between prev (NULL: the first) and
	 *  snap adds; at interval_at (EXPORT_AT_RATES or EXPORT_AT_END). */
	void (*interval)(FILE *out, const struct stats_snapshot *snap,
			 const struct stats_snapshot *prev);
	enum export_at interval_at;
	/** Summary of the run; final may be NULL (not at EXPORT_AT_DROPS and
	 *  EXPORT_AT_FOLD); at summary_at (END, DROPS or FOLD). */
	void (*summary)(FILE *out, const struct stats_summary *sum,
			const struct stats_snapshot *final);
	enum export_at summary_at;
	/** JSON: members of worker w's object in "lcores", after the core's. */
	void (*json_lcore)(json_t *lcore, const struct stats_snapshot *snap,
			   unsigned int w);
	/** JSON: members of "summary" (when there is one), after the core's. */
	void (*json_summary)(json_t *summary, const struct stats_summary *sum,
			     const struct stats_snapshot *snap);
	/** JSON: members of the root; at json_at (EXPORT_AT_MIB or END). */
	void (*json)(json_t *root, const struct stats_snapshot *snap);
	enum export_at json_at;
	/** /metrics: families (raw counters, never cleared: export.h); at
	 *  prom_at (EXPORT_AT_RATES, EXPORT_AT_MIB or EXPORT_AT_END). */
	void (*prom)(FILE *out, const struct stats_snapshot *snap,
		     const struct export_prom_opts *o);
	enum export_at prom_at;
	/** /snmp or /netstat (which): groups after the core's, in the
	 *  two-line layout. */
	void (*snmp)(FILE *out, const struct stats_snapshot *snap,
		     enum export_snmp_file which);
	/** The history document (export_history_add(): --json's root at the
	 *  end, GET /history live): members of root from the run's history
	 *  h, the series itself rather than a snapshot; called with the
	 *  series locked. */
	void (*history)(json_t *root, const struct export_history *h);
};

/** Most sections registered at once, the built-in ones included. */
#define EXPORT_SECTIONS_MAX 16

/**
 * Add s after the registered sections (the built-in ones are there from
 * the start). Register before any writer runs (at start, from the main
 * thread): not thread-safe against the writers.
 * @return 0, or -EINVAL (s or its name NULL, or an *_at its output has
 * no place for), -EEXIST (a section of that name is registered), -ENOSPC
 * (EXPORT_SECTIONS_MAX reached).
 */
int export_section_register(const struct export_section *s);

/**
 * Remove s, which export_section_register() added (the built-in sections
 * stay). Not thread-safe against the writers.
 * @return 0, or -ENOENT (s was not added).
 */
int export_section_unregister(const struct export_section *s);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_EXPORT_SECTION_H */
