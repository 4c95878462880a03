/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A rate as JSON (export_rate_json(), export.h): below every writer and
 * section that prints one (report.c's document, series_export.c's steady
 * state), so that none of them calls another round a circle.
 */
#include <jansson.h>

#include "export.h"

json_t *
export_rate_json(const struct stats_rate *r)
{
	json_t *o =
		json_pack("{s:f, s:o, s:o, s:o, s:o, s:f, s:f, s:f, s:f, s:f}", "seconds",
			  r->seconds, "packets", export_json_u64(r->packets), "octets",
			  export_json_u64(r->octets), "busy_cycles",
			  export_json_u64(r->busy_cycles), "idle_cycles",
			  export_json_u64(r->idle_cycles), "mpps", r->pps / 1e6, "gbps",
			  r->gbps, "ns_per_pkt", r->ns_per_pkt, "cycles_per_pkt",
			  r->cycles_per_pkt, "busy_pct", r->busy_pct);

	json_object_set_new(o, "lost", export_rate_lost_json(r));
	return o;
}

json_t *
export_rate_lost_json(const struct stats_rate *r)
{
	return json_pack("{s:b, s:b, s:f, s:o, s:o, s:o, s:f}", "flagged",
			 stats_rate_lost(r), "known", r->lost_known, "seconds", r->lost_s,
			 "cause",
			 r->lost_cause ? json_string(stats_lost_cause_name(r->lost_cause))
				       : json_null(),
			 "involuntary_switches", export_json_u64(r->involuntary_switches),
			 "stalled_polls", export_json_u64(r->stalled_polls),
			 "stalled_seconds", r->stalled_s);
}
