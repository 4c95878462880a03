/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A run's history and steady state, as JSON and console lines
 * (export_series.h), and the section that puts the history in the history
 * document (export_history_add()).
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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

/* Interval k's mode as the JSON names it: the mode it was pure in,
 * "mixed" (a flip fell in it), or null (nothing counted). */
static json_t *
__mode_json(const struct stats_series *se, unsigned int k)
{
	int m = stats_series_mode(se, k);

	return m >= 0 ? json_string(mib_mode_name((unsigned int)m)) :
	       m == STATS_SERIES_MIXED ? json_string("mixed") : json_null();
}

json_t *
export_intervals_json(const struct stats_series *se,
		      const unsigned int *lcore_ids, const struct stats_steady *st)
{
	unsigned int n = stats_series_count(se), k, w, nw;
	json_t *arr = json_array();
	struct stats_pmu_rate pr;
	struct stats_rate r;

	nw = stats_series_workers(se);
	for (k = 0; k + 1 < n; k++) {
		json_t *lc = json_array(), *o;

		stats_series_rate(se, k, k + 1, -1, &r);
		o = json_pack(
			"{s:f, s:f, s:f, s:f, s:o, s:f, s:f, s:o}", "t0_s",
			stats_series_uptime(se, k), "t_s", stats_series_uptime(se, k + 1),
			"seconds", r.seconds, "mpps", r.pps / 1e6, "ns_per_pkt",
			__series_real(r.pps > 0 ? 1e9 / r.pps : NAN), "cycles_per_pkt",
			r.cycles_per_pkt, "late_s", stats_series_late(se, k + 1), "lost",
			export_rate_lost_json(&r));
		/* --pmu: each worker's events, and all of them */
		if (stats_series_pmu(se, k, k + 1, -1, &pr) == 0)
			json_object_set_new(o, "pmu", export_pmu_rate_json(&pr));
		for (w = 0; w < nw; w++) {
			json_t *l;

			stats_series_rate(se, k, k + 1, (int)w, &r);
			l = json_pack("{s:i, s:f, s:f, s:o}", "lcore",
				      lcore_ids ? (int)lcore_ids[w] : (int)w, "mpps",
				      r.pps / 1e6, "cycles_per_pkt", r.cycles_per_pkt,
				      "lost", export_rate_lost_json(&r));
			if (stats_series_pmu(se, k, k + 1, (int)w, &pr) == 0)
				json_object_set_new(l, "pmu", export_pmu_rate_json(&pr));
			json_array_append_new(lc, l);
		}
		json_object_set_new(o, "lcores", lc);
		json_object_set_new(o, "mode", __mode_json(se, k));
		json_object_set_new(o, "steady", st != NULL && st->iv != NULL &&
				    k < st->intervals ? json_string(stats_iv_use_name(
				    (enum stats_iv_use)st->iv[k])) : json_null());
		json_object_set_new(
			o, "mode_flips",
			export_json_u64(__series_delta(se, k, STATS_SERIES_MODEFLIPS)));
		json_object_set_new(
			o, "rule_updates",
			export_json_u64(__series_delta(se, k, STATS_SERIES_RULEUPDATES)));
		json_array_append_new(arr, o);
	}
	return arr;
}

static int
__by_time(const void *a, const void *b)
{
	double x = json_real_value(json_object_get(*(json_t *const *)a, "t_s"));
	double y = json_real_value(json_object_get(*(json_t *const *)b, "t_s"));

	return x < y ? -1 : x > y;
}

json_t *
export_events_json(const struct stats_series *se, const json_t *flips)
{
	unsigned int n = stats_series_count(se), k;
	json_t *arr = json_array(), **ev, *sorted;
	size_t i, m;

	for (k = 0; k + 1 < n; k++) {
		uint64_t upd = __series_delta(se, k, STATS_SERIES_RULEUPDATES);
		double t0 = stats_series_uptime(se, k), t1 = stats_series_uptime(se, k + 1);

		if (upd > 0)
			json_array_append_new(
				arr, json_pack("{s:s, s:f, s:f, s:o}", "kind",
					       "rule-updates", "t0_s", t0, "t_s", t1,
					       "count", export_json_u64(upd)));
	}
	for (i = 0; flips != NULL && i < json_array_size(flips); i++)
		json_array_append(arr, json_array_get(flips, i));
	m = json_array_size(arr);
	ev = calloc(m ? m : 1, sizeof(*ev));
	if (ev == NULL)
		return arr;
	for (i = 0; i < m; i++)
		ev[i] = json_array_get(arr, i);
	qsort(ev, m, sizeof(*ev), __by_time);
	sorted = json_array();
	for (i = 0; i < m; i++)
		json_array_append(sorted, ev[i]);
	free(ev);
	json_decref(arr);
	return sorted;
}

static json_t *
__spread_json(const struct stats_spread *sp, bool unstable)
{
	return json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b}",
		"n", (int)sp->n, "min", sp->min, "median", sp->median,
		"max", sp->max, "mean", sp->mean, "sd", sp->sd, "cv", sp->cv,
		"cv_threshold", STATS_CV_UNSTABLE, "unstable", unstable);
}

json_t *
export_steady_json(const struct stats_steady *st, const unsigned int *lcore_ids)
{
	const struct stats_spread *sp = &st->spread;
	json_t *o, *modes = json_array();
	unsigned int m, w;

	o = json_pack("{s:s, s:b, s:b, s:o, s:i, s:i, s:i, s:{s:i, s:f, s:f, s:f, s:f, "
		      "s:f, s:f}, s:f, s:b, s:o, s:b, s:i}",
		"warmup", st->explicit_warmup ? "explicit" : "auto",
		"detected", st->detected, "at_limit", st->at_limit,
		"start_s", st->start_s >= 0 ? json_real(st->start_s) : json_null(),
		"first_interval", (int)st->first_interval,
		"intervals", (int)st->intervals,
		"lost_intervals", (int)st->lost,
		"spread_mpps", "n", (int)sp->n, "min", sp->min, "median", sp->median,
		"max", sp->max, "mean", sp->mean, "sd", sp->sd, "cv", sp->cv,
		"cv_threshold", STATS_CV_UNSTABLE, "unstable", st->unstable,
		"why", st->why[0] != '\0' ? json_string(st->why) : json_null(),
		"by_mode", st->by_mode, "mixed_intervals", (int)st->mixed);
	for (m = 0; m < st->n_modes; m++) {
		const struct stats_mode_steady *ms = &st->modes[m];
		json_t *lc = json_array();

		for (w = 0; ms->kept && ms->lcore != NULL && w < ms->total_workers; w++) {
			json_t *r = export_rate_json(&ms->lcore[w]);

			json_object_set_new(r, "lcore", json_integer(lcore_ids ?
				(int)lcore_ids[w] : (int)w));
			json_array_append_new(lc, r);
		}
		json_array_append_new(modes, json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, "
			"s:i, s:f, s:o, s:o, s:o}",
			"mode", mib_mode_name(ms->mode), "stretches", (int)ms->stretches,
			"intervals", (int)ms->intervals, "kept", (int)ms->kept,
			"lost", (int)ms->lost, "warmup", (int)ms->warmup,
			"undetected_stretches", (int)ms->undetected,
			"first_s", ms->first_s,
			"total", ms->kept ? export_rate_json(&ms->total) :
			json_null(), "lcores", lc, "spread_mpps", __spread_json(&ms->spread,
								   ms->unstable)));
	}
	json_object_set_new(o, "modes", modes);
	return o;
}

static void
__print_spread(FILE *out, const char *what, const struct stats_spread *sp,
	       bool unstable)
{
	if (sp->n == 0)
		return;
	if (sp->n < 3) {
		fprintf(out, "spread%s: %u intervals, Mpps min %.3f max %.3f (too few "
			"for a CV)\n", what, sp->n, sp->min, sp->max);
		return;
	}
	fprintf(out, "spread%s: %u intervals, Mpps min %.3f median %.3f max %.3f, "
		"CV %.1f%% %s %.1f%%%s\n", what, sp->n, sp->min, sp->median, sp->max,
		100 * sp->cv, unstable ? "UNSTABLE: above" : "steady: at most",
		100 * STATS_CV_UNSTABLE, unstable ? " (a difference smaller "
		"than the spread needs more rounds or longer phases)" : "");
}

/* One block per mode: its rates (each lcore with several), then how its
 * steady part was made and its spread. */
static void
__print_modes(FILE *out, const struct stats_steady *st, const unsigned int *lcore_ids)
{
	unsigned int m, w;

	fprintf(out, "steady state: the ingress mode changed during the run (%u "
		"interval%s mixed): one steady state per mode, each stretch's "
		"warm-up %s\n", st->mixed, st->mixed == 1 ? "" : "s",
		st->explicit_warmup ? "by --warmup" : "detected");
	fprintf(out, "%-12s %9s %8s %9s %9s %6s %14s\n", "steady/mode", "Mpps",
		"Gbit/s", "ns/pkt", "cyc/pkt", "busy%", "packets");
	for (m = 0; m < st->n_modes; m++) {
		const struct stats_mode_steady *ms = &st->modes[m];
		char label[32];

		for (w = 0; ms->kept && ms->total_workers > 1 && w < ms->total_workers; w++) {
			const struct stats_rate *r = &ms->lcore[w];

			snprintf(label, sizeof(label), "%s l%u", mib_mode_name(ms->mode),
				 lcore_ids ? lcore_ids[w] : w);
			fprintf(out, "  %-10s %9.3f %8.3f %9.2f %9.2f %6.1f %14" PRIu64 "\n",
				label, r->pps / 1e6, r->gbps, r->ns_per_pkt,
				r->cycles_per_pkt, r->busy_pct, r->packets);
		}
		snprintf(label, sizeof(label), "%s", mib_mode_name(ms->mode));
		if (ms->kept == 0) {
			fprintf(out, "  %-10s none: no pure interval of it without lost "
				"time\n", label);
			continue;
		}
		fprintf(out, "  %-10s %9.3f %8.3f %9.2f %9.2f %6.1f %14" PRIu64 "\n",
			label, ms->total.pps / 1e6, ms->total.gbps, ms->total.ns_per_pkt,
			ms->total.cycles_per_pkt, ms->total.busy_pct, ms->total.packets);
	}
	for (m = 0; m < st->n_modes; m++) {
		const struct stats_mode_steady *ms = &st->modes[m];
		char what[48];

		fprintf(out, "steady %s: %u of its %u pure intervals in %u stretch%s "
			"(from %.2f s); left out: %u lost, %u warm-up%s\n",
			mib_mode_name(ms->mode), ms->kept, ms->intervals, ms->stretches,
			ms->stretches == 1 ? "" : "es", ms->first_s, ms->lost, ms->warmup,
			ms->undetected && ms->kept ? "; stretches too short to detect a "
			"warm-up kept whole" : "");
		snprintf(what, sizeof(what), " %s", mib_mode_name(ms->mode));
		__print_spread(out, what, &ms->spread, ms->unstable);
	}
}

void
export_print_steady(FILE *out, const struct stats_steady *st,
		    const unsigned int *lcore_ids)
{
	if (st->by_mode) {
		__print_modes(out, st, lcore_ids);
	} else if (st->explicit_warmup && st->start_s < 0) {
		fprintf(out, "steady state: none of the %u intervals starts after "
			"--warmup%s\n", st->intervals, st->lost ? " without lost time" : "");
	} else if (st->explicit_warmup) {
		fprintf(out, "steady state: from %.2f s (--warmup), interval %u of %u\n",
			st->start_s, st->first_interval + 1, st->intervals);
	} else if (st->detected && st->first_interval == 0) {
		fprintf(out, "steady state: from %.2f s (no warm-up detected in %u "
			"intervals)\n", st->start_s, st->intervals - st->lost);
	} else if (st->detected) {
		fprintf(out, "steady state: from %.2f s (warm-up detected: interval "
			"%u of %u)%s\n", st->start_s, st->first_interval + 1,
			st->intervals, st->at_limit ? "; at the search limit (half "
			"the run): the rate never settled" : "");
	} else {
		fprintf(out, "steady state: not detected: %s\n", st->why);
	}
	if (st->lost > 0)
		fprintf(out, "steady state: %u of %u intervals left out: a worker did not "
			"run for --lost-share of the interval or more (see \"lost:\")\n",
			st->lost, st->intervals);
	if (!st->by_mode)
		__print_spread(out, "", &st->spread, st->unstable);
	fflush(out);
}

/* The series section: the history document's "intervals", "events" and
 * "intervals_dropped" (the points the window dropped). */
static void
__series_history(json_t *root, const struct export_history *h)
{
	json_object_set_new(root, "intervals",
			    export_intervals_json(h->se, h->lcore_ids, h->st));
	json_object_set_new(root, "events", export_events_json(h->se, h->flips));
	json_object_set_new(root, "intervals_dropped",
			    json_integer((json_int_t)stats_series_dropped(h->se)));
}

const struct export_section __export_section_series = {
	.name = "series",
	.history = __series_history,
};
