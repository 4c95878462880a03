/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --compare with --pmu: events per packet per mode, with intervals, and
 * per stage with --stage-cycles (compare_pmu.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "base.h"
#include "compare_pmu.h"
#include "stats_confidence.h"

/* Most rounds and intervals a table reads (compare.c's own bounds). */
#define CMP_PMU_MAX_SAMPLES 1024

/* A lcore's figures: slot 0 its thread's, slot 1 + s its stage s's (per
 * packet that entered the stage), STATS_PMU_MAX events each. */
#define CMP_PMU_SLOTS (1 + MIB_STAGES)
#define CMP_PMU_LCORE ((size_t)CMP_PMU_SLOTS * STATS_PMU_MAX)

int
app_cmp_pmu_alloc(struct app_cmp_pmu *p, const struct stats_pmu_conf *conf,
		  unsigned int n_workers, unsigned int n_iv)
{
	size_t row = (size_t)(n_workers + 1) * CMP_PMU_LCORE;

	memset(p, 0, sizeof(*p));
	if (conf == NULL || conf->n == 0)
		return 0;
	p->conf = conf;
	p->n_workers = n_workers;
	p->n_iv = n_iv;
	p->phase = calloc(row, sizeof(double));
	p->iv = calloc(row * (n_iv ? n_iv : 1), sizeof(double));
	if (p->phase == NULL || p->iv == NULL) {
		app_cmp_pmu_free(p);
		return -ENOMEM;
	}
	return 0;
}

void
app_cmp_pmu_free(struct app_cmp_pmu *p)
{
	free(p->phase);
	free(p->iv);
	memset(p, 0, sizeof(*p));
}

/* r's per-packet figures into v, NaN where not counted or no packet. */
static void
__cmp_slot(int rc, const struct stats_pmu_rate *r, double *v)
{
	bool ok = rc == 0 && r->d.known && r->packets > 0;
	unsigned int e;

	for (e = 0; e < STATS_PMU_MAX; e++)
		v[e] = ok && e < r->d.n ? r->per_pkt[e] : NAN;
}

/* A row of n_workers + 1 lcores' CMP_PMU_LCORE figures, all first. */
static void
__cmp_row(const struct app_cmp_pmu *p, const struct stats_snapshot *a,
      const struct stats_snapshot *b, double *row)
{
	unsigned int c, st;

	for (c = 0; c <= p->n_workers; c++) {
		double *v = row + (size_t)c * CMP_PMU_LCORE;
		int w = c == 0 ? -1 : (int)c - 1;
		struct stats_pmu_rate r;

		__cmp_slot(stats_pmu_between(a, b, w, &r), &r, v);
		for (st = 0; st < MIB_STAGES; st++)
			__cmp_slot(stats_pmu_stage_between(a, b, w, st, &r), &r,
				   v + (size_t)(1 + st) * STATS_PMU_MAX);
	}
}

void
app_cmp_pmu_interval(struct app_cmp_pmu *p, unsigned int k,
		     const struct stats_snapshot *a, const struct stats_snapshot *b)
{
	if (p->conf != NULL && k < p->n_iv)
		__cmp_row(p, a, b,
			  p->iv + (size_t)k * (p->n_workers + 1) * CMP_PMU_LCORE);
}

void
app_cmp_pmu_phase(struct app_cmp_pmu *p, const struct stats_snapshot *a,
		  const struct stats_snapshot *b)
{
	if (p->conf != NULL)
		__cmp_row(p, a, b, p->phase);
}

/* Where lcore w's (-1: all) event e of slot sl is in a row. */
static size_t
__cmp_at(int w, unsigned int sl, unsigned int e)
{
	return (size_t)(w < 0 ? 0 : w + 1) * CMP_PMU_LCORE + (size_t)sl * STATS_PMU_MAX +
	       e;
}

static double
__cmp_val(const struct app_cmp_pmu *p, int w, unsigned int sl, unsigned int e)
{
	return p->phase[__cmp_at(w, sl, e)];
}

/* The per-interval samples of phase p (NaN left out) into v; how many. */
static unsigned int
__cmp_iv_samples(const struct app_cmp_pmu *p, int w, unsigned int sl, unsigned int e,
		 double *v)
{
	unsigned int k, n = 0;

	for (k = 0; k < p->n_iv && n < CMP_PMU_MAX_SAMPLES; k++) {
		double x = p->iv[(size_t)k * (p->n_workers + 1) * CMP_PMU_LCORE +
				 __cmp_at(w, sl, e)];

		if (!isnan(x))
			v[n++] = x;
	}
	return n;
}

static const char *
__cmp_verdict(const struct stats_ci *ci)
{
	switch (stats_ci_verdict(ci)) {
	case STATS_VERDICT_NOISE:
		return "within noise";
	case STATS_VERDICT_ABOVE:
		return "more";
	case STATS_VERDICT_BELOW:
		return "fewer";
	default:
		return "no interval";
	}
}

static json_t *
__cmp_jreal(double x)
{
	return isnan(x) || isinf(x) ? json_null() : json_real(x);
}

/* Variant i's difference against variant ref on event e of slot sl, lcore
 * w. false when a round of either was not counted. */
static bool
__cmp_delta(const struct app_cmp_pmu *const *ph, unsigned int rounds, int w,
	    unsigned int sl, unsigned int e, unsigned int i, unsigned int ref,
	    struct stats_ci *ci)
{
	static double ra[CMP_PMU_MAX_SAMPLES], rb[CMP_PMU_MAX_SAMPLES],
		      ia[CMP_PMU_MAX_SAMPLES], ib[CMP_PMU_MAX_SAMPLES];
	unsigned int r, n = RTE_MIN(rounds, (unsigned int)CMP_PMU_MAX_SAMPLES);
	unsigned int na = 0, nb = 0;

	for (r = 0; r < n; r++) {
		ra[r] = __cmp_val(&ph[i][r], w, sl, e);
		rb[r] = __cmp_val(&ph[ref][r], w, sl, e);
		if (isnan(ra[r]) || isnan(rb[r]))
			return false;
	}
	if (rounds == 1) {
		na = __cmp_iv_samples(&ph[i][0], w, sl, e, ia);
		nb = __cmp_iv_samples(&ph[ref][0], w, sl, e, ib);
	}
	stats_ci_rounds(ra, rb, n, ia, na, ib, nb, ci);
	return true;
}

static json_t *
__cmp_ci_json(const struct stats_ci *ci)
{
	return json_pack("{s:s, s:o, s:o, s:o, s:s}", "method",
			 stats_ci_method_name(ci->method), "estimate", __cmp_jreal(ci->estimate),
			 "lo", __cmp_jreal(ci->lo), "hi", __cmp_jreal(ci->hi),
			 "verdict", __cmp_verdict(ci));
}

/* Whether slot sl was counted in some round of some variant (a stage that
 * ran somewhere: the table shows it for every variant). */
static bool
__cmp_slot_ran(const struct app_cmp_pmu *const *ph, unsigned int modes,
	       unsigned int rounds, int w, unsigned int sl)
{
	unsigned int i, r;

	for (i = 0; i < modes; i++)
		for (r = 0; r < rounds; r++)
			if (!isnan(__cmp_val(&ph[i][r], w, sl, 0)))
				return true;
	return false;
}

/* The rows of slot sl (0: the thread's, labelled by the event; 1 + s:
 * stage s's, "STAGE: EVENT"), each variant's JSON under its "pmu" (slot
 * 0) or "pmu_stages"."STAGE" (the others). */
static void
__cmp_slot_table(const struct app_cmp_pmu *const *ph, unsigned int modes,
		 const char *const *mode_names, unsigned int rounds, int w,
		 unsigned int base, json_t *const *jmode, unsigned int sl)
{
	const struct stats_pmu_conf *c = ph[0][0].conf;
	double v[CMP_PMU_MAX_SAMPLES];
	unsigned int e, i, r, n = RTE_MIN(rounds, (unsigned int)CMP_PMU_MAX_SAMPLES);
	char label[64];

	for (e = 0; e < c->n; e++) {
		if (sl == 0)
			snprintf(label, sizeof(label), "%s", c->ev[e].name);
		else
			snprintf(label, sizeof(label), "%s: %s", mib_stage_name(sl - 1),
				 c->ev[e].name);
		for (i = 0; i < modes; i++) {
			json_t *je = json_object(), *jr = json_array();
			struct stats_ci ci;
			double med, lo, hi;
			bool known = true;

			for (r = 0; r < n; r++) {
				v[r] = __cmp_val(&ph[i][r], w, sl, e);
				known &= !isnan(v[r]);
				json_array_append_new(jr, __cmp_jreal(v[r]));
			}
			json_object_set_new(je, "rounds_per_pkt", jr);
			if (!known) {
				printf("  %-24s %-12s unknown (not counted in a round%s)\n",
				       label, mode_names[i],
				       sl ? ", or the stage did not "
					    "run"
					  : "");
				json_object_set_new(je, "per_pkt_median", json_null());
			} else {
				med = base_median(v, n, &lo, &hi);
				printf("  %-24s %-12s %10.4g [%.4g, %.4g]", label,
				       mode_names[i], med, lo, hi);
				json_object_set_new(je, "per_pkt_median", json_real(med));
				json_object_set_new(je, "per_pkt_min", json_real(lo));
				json_object_set_new(je, "per_pkt_max", json_real(hi));
			}
			if (known && i != base) {
				if (!__cmp_delta(ph, rounds, w, sl, e, i, base, &ci)) {
					printf("  vs %s: unknown", mode_names[base]);
					json_object_set_new(je, "delta", json_null());
				} else {
					printf("  vs %s %+.4g", mode_names[base],
					       ci.estimate);
					if (!isnan(ci.lo))
						printf(" [%+.4g, %+.4g]", ci.lo, ci.hi);
					printf(" %s", __cmp_verdict(&ci));
					json_object_set_new(je, "delta",
							    __cmp_jreal(ci.estimate));
					json_object_set_new(je, "delta_ci",
							    __cmp_ci_json(&ci));
				}
			}
			if (known)
				printf("\n");
			if (jmode != NULL && jmode[i] != NULL) {
				const char *key = sl == 0 ? "pmu" : "pmu_stages";
				json_t *pm = json_object_get(jmode[i], key);

				if (pm == NULL) {
					pm = json_object();
					json_object_set_new(jmode[i], key, pm);
				}
				if (sl > 0) {
					json_t *st = json_object_get(
						pm, mib_stage_name(sl - 1));

					if (st == NULL) {
						st = json_object();
						json_object_set_new(
							pm, mib_stage_name(sl - 1), st);
					}
					pm = st;
				}
				json_object_set_new(pm, c->ev[e].name, je);
			} else {
				json_decref(je);
			}
		}
	}
}

void
app_cmp_pmu_table(const struct app_cmp_pmu *const *ph, unsigned int modes,
		  const char *const *mode_names, unsigned int rounds, int w,
		  unsigned int base, json_t *const *jmode)
{
	bool said = false;
	unsigned int sl;

	if (ph[0][0].conf == NULL)
		return;
	printf("  pmu: events per packet, median of %u round%s [min, max]; against "
	       "%s: the mean paired difference and its 95%% interval\n",
	       rounds, rounds == 1 ? "" : "s", mode_names[base]);
	__cmp_slot_table(ph, modes, mode_names, rounds, w, base, jmode, 0);
	for (sl = 1; sl < CMP_PMU_SLOTS; sl++) {
		if (!__cmp_slot_ran(ph, modes, rounds, w, sl))
			continue;
		if (!said)
			printf("  pmu per stage (--stage-cycles): per packet that "
			       "entered the stage\n");
		said = true;
		__cmp_slot_table(ph, modes, mode_names, rounds, w, base, jmode, sl);
	}
}
