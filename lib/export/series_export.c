/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A run's history and steady state, as JSON and console lines
 * (export_series.h).
 */
#include <math.h>
#include <stdint.h>

#include "export_pvt.h"
#include "export_series.h"

static json_t *
__series_real(double x)
{
	return isnan(x) || isinf(x) ? json_null() : json_real(x);
}

static uint64_t
__series_delta(const struct stats_series *se, unsigned int k,
	       enum stats_series_field f)
{
	uint64_t x = stats_series_value(se, k, -1, f);
	uint64_t y = stats_series_value(se, k + 1, -1, f);

	return y >= x ? y - x : 0;
}

/* The mode that carried most of interval k's packets, or -1: none. */
static int
__series_mode(const struct stats_series *se, unsigned int k)
{
	uint64_t best = 0;
	unsigned int m;
	int at = -1;

	for (m = 0; m < MIB_MODES; m++) {
		uint64_t d = __series_delta(se, k, STATS_SERIES_MODE0 + m);

		if (d > best) {
			best = d;
			at = (int)m;
		}
	}
	return at;
}

json_t *
export_intervals_json(const struct stats_series *se,
		      const unsigned int *lcore_ids)
{
	unsigned int n = stats_series_count(se), k, w, nw;
	json_t *arr = json_array();
	struct stats_rate r;

	nw = stats_series_workers(se);
	for (k = 0; k + 1 < n; k++) {
		json_t *lc = json_array(), *o;
		int m = __series_mode(se, k);

		stats_series_rate(se, k, k + 1, -1, &r);
		o = json_pack("{s:f, s:f, s:f, s:f, s:o}",
			"t0_s", stats_series_uptime(se, k),
			"t_s", stats_series_uptime(se, k + 1),
			"seconds", r.seconds, "mpps", r.pps / 1e6,
			"ns_per_pkt", __series_real(r.pps > 0 ? 1e9 / r.pps : NAN));
		for (w = 0; w < nw; w++) {
			stats_series_rate(se, k, k + 1, (int)w, &r);
			json_array_append_new(lc, json_pack("{s:i, s:f}", "lcore",
				lcore_ids ? (int)lcore_ids[w] : (int)w, "mpps", r.pps / 1e6));
		}
		json_object_set_new(o, "lcores", lc);
		json_object_set_new(o, "mode", m >= 0 ? json_string(mib_mode_name(
			(unsigned int)m)) : json_null());
		json_object_set_new(o, "mode_flips", json_integer((json_int_t)
			__series_delta(se, k, STATS_SERIES_MODEFLIPS)));
		json_object_set_new(o, "rule_updates", json_integer((json_int_t)
			__series_delta(se, k, STATS_SERIES_RULEUPDATES)));
		json_array_append_new(arr, o);
	}
	return arr;
}

json_t *
export_events_json(const struct stats_series *se)
{
	unsigned int n = stats_series_count(se), k;
	json_t *arr = json_array();

	for (k = 0; k + 1 < n; k++) {
		uint64_t flips = __series_delta(se, k, STATS_SERIES_MODEFLIPS);
		uint64_t upd = __series_delta(se, k, STATS_SERIES_RULEUPDATES);
		double t0 = stats_series_uptime(se, k), t1 = stats_series_uptime(se, k + 1);

		if (flips > 0) {
			int m = k + 2 < n ? __series_mode(se, k + 1) : __series_mode(se, k);

			json_array_append_new(arr, json_pack("{s:s, s:f, s:f, s:I, s:o}",
				"kind", "mode-flip", "t0_s", t0, "t_s", t1,
				"count", (json_int_t)flips, "mode", m >= 0 ?
				json_string(mib_mode_name((unsigned int)m)) : json_null()));
		}
		if (upd > 0)
			json_array_append_new(arr, json_pack("{s:s, s:f, s:f, s:I}",
				"kind", "rule-updates", "t0_s", t0, "t_s", t1,
				"count", (json_int_t)upd));
	}
	return arr;
}

json_t *
export_steady_json(const struct stats_steady *st)
{
	const struct stats_spread *sp = &st->spread;

	return json_pack("{s:s, s:b, s:b, s:o, s:i, s:i, s:{s:i, s:f, s:f, s:f, s:f, s:f,"
			 " s:f}, s:f, s:b, s:o}",
		"warmup", st->explicit_warmup ? "explicit" : "auto",
		"detected", st->detected, "at_limit", st->at_limit,
		"start_s", st->start_s >= 0 ? json_real(st->start_s) : json_null(),
		"first_interval", (int)st->first_interval,
		"intervals", (int)st->intervals,
		"spread_mpps", "n", (int)sp->n, "min", sp->min, "median", sp->median,
		"max", sp->max, "mean", sp->mean, "sd", sp->sd, "cv", sp->cv,
		"cv_threshold", STATS_CV_UNSTABLE, "unstable", st->unstable,
		"why", st->why[0] != '\0' ? json_string(st->why) : json_null());
}

void
export_print_steady(FILE *out, const struct stats_steady *st)
{
	const struct stats_spread *sp = &st->spread;

	if (st->explicit_warmup && st->start_s < 0)
		fprintf(out, "steady state: none of the %u intervals starts after "
			"--warmup\n", st->intervals);
	else if (st->explicit_warmup)
		fprintf(out, "steady state: from %.2f s (--warmup), interval %u of %u\n",
			st->start_s, st->first_interval + 1, st->intervals);
	else if (st->detected && st->first_interval == 0)
		fprintf(out, "steady state: from %.2f s (no warm-up detected in %u "
			"intervals)\n", st->start_s, st->intervals);
	else if (st->detected)
		fprintf(out, "steady state: from %.2f s (warm-up detected: interval "
			"%u of %u)%s\n", st->start_s, st->first_interval + 1,
			st->intervals, st->at_limit ? "; at the search limit (half "
			"the run): the rate never settled" : "");
	else
		fprintf(out, "steady state: not detected: %s\n", st->why);
	if (sp->n == 0)
		return;
	if (sp->n < 3) {
		fprintf(out, "spread: %u intervals, Mpps min %.3f max %.3f (too few "
			"for a CV)\n", sp->n, sp->min, sp->max);
		fflush(out);
		return;
	}
	fprintf(out, "spread: %u intervals, Mpps min %.3f median %.3f max %.3f, "
		"CV %.1f%% %s %.1f%%%s\n", sp->n, sp->min, sp->median, sp->max,
		100 * sp->cv, st->unstable ? "UNSTABLE: above" : "steady: at most",
		100 * STATS_CV_UNSTABLE, st->unstable ? " (a difference smaller "
		"than the spread needs more rounds or longer phases)" : "");
	fflush(out);
}
