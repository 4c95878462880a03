/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --compare's tables (compare.c measures, this prints): per variant, Mpps
 * median/min/max over the rounds, ns/pkt and cycles/pkt of the median and
 * the differences against the baseline; then every pair of variants, each
 * difference (ns/pkt, cycles/pkt, and each stage's cycles/pkt with
 * --stage-cycles) the mean over the rounds of the paired per-round
 * differences, with its 95% interval and verdict (stats_ci_pairs()). The
 * JSON: each variant's figures and samples in "modes" (the name of old,
 * when the variants were ingress modes only), every pair in "pairs".
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "base.h"
#include "compare_pvt.h"
#include "stats_confidence.h"

/* Pairs of the most variants. */
#define CMP_MAX_PAIRS (APP_MAX_VARIANTS * (APP_MAX_VARIANTS - 1) / 2)

struct agg {
	double mpps_med, mpps_min, mpps_max, ns, cyc;
	double fold_ns;		     /* the median round's mean fold */
	double reads, read_ns;	     /* --reader: the medians of reads/s, ns/read */
	uint64_t poll_p50, poll_p99; /* --perf-detail, over the rounds */
	bool perf;
	/* --stage-cycles, over all rounds: each stage's cycles and packets,
	 * and the packets received (ran: whether the stage ran at all). */
	uint64_t st_cyc[MIB_STAGES], st_pkts[MIB_STAGES], rx_pkts;
	bool st_ran[MIB_STAGES];
};

/* Aggregate one variant over rounds, for lcore w (or the total if w < 0). */
static struct agg
aggregate(const struct cmp_phase *ph, unsigned int rounds, int w)
{
	double pps[1024], cyc[1024];
	struct agg g;
	unsigned int r;

	memset(&g, 0, sizeof(g));
	for (r = 0; r < rounds && r < RTE_DIM(pps); r++) {
		const struct stats_rate *x = w < 0 ? &ph[r].total : &ph[r].lcore[w];

		pps[r] = x->pps;
		cyc[r] = x->cycles_per_pkt;
	}
	g.mpps_med = base_median(pps, r, &g.mpps_min, &g.mpps_max) / 1e6;
	g.mpps_min /= 1e6;
	g.mpps_max /= 1e6;
	g.ns = g.mpps_med > 0 ? 1e3 / g.mpps_med : 0;
	g.cyc = base_median(cyc, r, NULL, NULL);
	for (r = 0; r < rounds && r < RTE_DIM(cyc); r++)
		cyc[r] = ph[r].fig[CMP_M_FOLD];
	g.fold_ns = base_median(cyc, r, NULL, NULL);
	for (r = 0; r < rounds && r < RTE_DIM(cyc); r++)
		cyc[r] = ph[r].fig[CMP_M_READS];
	g.reads = base_median(cyc, r, NULL, NULL);
	for (r = 0; r < rounds && r < RTE_DIM(cyc); r++)
		cyc[r] = ph[r].fig[CMP_M_READ_NS];
	g.read_ns = base_median(cyc, r, NULL, NULL);
	if (ph[0].hist != NULL) {
		struct stats_hist m;

		memset(&m, 0, sizeof(m));
		for (r = 0; r < rounds; r++)
			stats_hist_merge(&m, &ph[r].hist[w < 0 ? 0 : 1 + w]);
		g.perf = true;
		g.poll_p50 = stats_hist_percentile(&m, 500000);
		g.poll_p99 = stats_hist_percentile(&m, 990000);
	}
	for (r = 0; r < rounds; r++) {
		const uint64_t *v = ph[r].stg + (size_t)(w + 1) * MIB_STAGE_MAX;
		unsigned int s;

		g.rx_pkts += w < 0 ? ph[r].total.packets : ph[r].lcore[w].packets;
		for (s = 0; s < MIB_STAGES; s++) {
			g.st_cyc[s] += v[s * MIB_STAGE_K_MAX + MIB_STAGE_K_CYCLES];
			g.st_pkts[s] += v[s * MIB_STAGE_K_MAX + MIB_STAGE_K_PACKETS];
			g.st_ran[s] |= v[s * MIB_STAGE_K_MAX + MIB_STAGE_K_CALLS] != 0;
		}
	}
	return g;
}

/* Every pair's interval on figure m of lcore w (the total if w < 0), in
 * stats_ci_pairs()'s order; 0 or -ENOMEM. */
static int
pairs_of(const struct cmp_run *c, int w, unsigned int m, struct stats_ci_pair *out)
{
	unsigned int nw = c->a->n_workers, n_iv = c->rounds == 1 ? c->res[0][0].n_iv : 0;
	double *round = malloc((size_t)c->nv * c->rounds * sizeof(double));
	double *iv = n_iv ? malloc((size_t)c->nv * n_iv * sizeof(double)) : NULL;
	unsigned int v, r, k;
	int rc = -ENOMEM;

	if (round != NULL && (n_iv == 0 || iv != NULL)) {
		for (v = 0; v < c->nv; v++) {
			for (r = 0; r < c->rounds; r++)
				round[(size_t)v * c->rounds + r] =
					cmp_fig(&c->res[v][r], nw, w, m);
			for (k = 0; k < n_iv; k++)
				iv[(size_t)v * n_iv + k] =
					cmp_iv_fig(&c->res[v][0], nw, w, k, m);
		}
		rc = stats_ci_pairs(round, c->nv, c->rounds, iv, n_iv, c->base, out);
	}
	free(round);
	free(iv);
	return rc < 0 ? rc : 0;
}

/* The index in stats_ci_pairs()'s order of (baseline, v), v != base. */
static unsigned int
base_pair(const struct cmp_run *c, unsigned int v)
{
	return v < c->base ? v : v - 1;
}

static const char *
verdict_name(const struct stats_ci *ci)
{
	switch (stats_ci_verdict(ci)) {
	case STATS_VERDICT_NOISE:
		return "within noise";
	case STATS_VERDICT_ABOVE:
		return "slower";
	case STATS_VERDICT_BELOW:
		return "faster";
	default:
		return "no interval";
	}
}

static json_t *
jreal(double x)
{
	return isnan(x) || isinf(x) ? json_null() : json_real(x);
}

/* A difference with its interval, as the JSON carries it. */
static json_t *
ci_json(const struct stats_ci *ci)
{
	return json_pack("{s:s, s:f, s:o, s:o, s:o, s:o, s:f, s:i, s:s}", "method",
			 stats_ci_method_name(ci->method), "level", 0.95, "estimate",
			 jreal(ci->estimate), "lo", jreal(ci->lo), "hi", jreal(ci->hi),
			 "half", jreal(ci->half), "df", ci->df, "n", (int)ci->n,
			 "verdict", verdict_name(ci));
}

/* The samples behind lcore w's (or the total's) figures of a variant:
 * each round's ns/pkt and cycles/pkt, and each round's per-interval Mpps. */
static void
samples_json(const struct cmp_run *c, const struct cmp_phase *ph, int w, json_t *o)
{
	json_t *rns = json_array(), *rcyc = json_array(), *riv = json_array();
	unsigned int nw = c->a->n_workers, r, k;

	for (r = 0; r < c->rounds; r++) {
		json_t *iv = json_array();

		json_array_append_new(rns, jreal(cmp_fig(&ph[r], nw, w, CMP_M_NS)));
		json_array_append_new(rcyc, jreal(cmp_fig(&ph[r], nw, w, CMP_M_CYC)));
		for (k = 0; k < ph[r].n_iv; k++)
			json_array_append_new(
				iv, json_real(ph[r].iv_pps[(size_t)k * (nw + 1) +
							   (size_t)(w + 1)] /
					      1e6));
		json_array_append_new(riv, iv);
	}
	json_object_set_new(o, "rounds_ns", rns);
	json_object_set_new(o, "rounds_cycles", rcyc);
	json_object_set_new(o, "rounds_intervals_mpps", riv);
}

/* --stage-cycles: a stage's cycles per packet that entered it; NaN if it
 * did not run. */
static double
stage_cpp(const struct agg *g, unsigned int s)
{
	return g->st_ran[s] && g->st_pkts[s]
		       ? (double)g->st_cyc[s] / (double)g->st_pkts[s]
		       : NAN;
}

/* The stages of a variant in the JSON: "stages", each stage's ns per
 * packet received (what stacks up to the path's: scripts/plot.py's
 * stacked bars), in path order, and "stage_cycles_per_pkt", per packet
 * that entered the stage. */
static void
stages_json(const struct agg *g, json_t *o)
{
	json_t *ns = json_object(), *cpp = json_object();
	double ghz = (double)rte_get_tsc_hz() / 1e9;
	unsigned int s;

	for (s = 0; s < MIB_STAGES; s++) {
		if (!g->st_ran[s])
			continue;
		json_object_set_new(ns, mib_stage_name(s),
				    json_real(g->rx_pkts
						      ? (double)g->st_cyc[s] /
								(double)g->rx_pkts / ghz
						      : 0.0));
		json_object_set_new(cpp, mib_stage_name(s), jreal(stage_cpp(g, s)));
	}
	json_object_set_new(o, "stages", ns);
	json_object_set_new(o, "stage_cycles_per_pkt", cpp);
	json_object_set_new(o, "ingress_cycles_per_pkt",
			    jreal(stage_cpp(g, MIB_STAGE_INGRESS)));
}

/* "+1.23 [+0.50, +1.96] slower" into buf, or what there is of it; the
 * verdict padded to its column unless last. */
static const char *
ci_text(const struct stats_ci *ci, bool last, char *buf, size_t len)
{
	char est[24] = "-", iv[48] = "";

	if (isfinite(ci->estimate)) /* a round without packets: none */
		snprintf(est, sizeof(est), "%+.2f", ci->estimate);
	if (!isnan(ci->lo))
		snprintf(iv, sizeof(iv), "[%+.2f, %+.2f]", ci->lo, ci->hi);
	snprintf(buf, len, "%8s %20s %-*s", est, iv, last ? 0 : 12, verdict_name(ci));
	return buf;
}

/* Every pair below a table, and into the JSON (the total's pairs are
 * made; an lcore's go into their "lcores"). */
static int
print_pairs(const struct cmp_run *c, int w, const struct stats_ci_pair *pn,
	    const struct stats_ci_pair *pc, json_t *jpairs)
{
	unsigned int np = stats_ci_n_pairs(c->nv), p, s, m;
	static struct stats_ci_pair ps[MIB_STAGES][CMP_MAX_PAIRS], pf[CMP_MAX_PAIRS];
	static struct stats_ci_pair prn[CMP_MAX_PAIRS];
	bool ran[MIB_STAGES] = { false };
	/* --compare fold=... or mib-layout=...: the fold's time, in all */
	bool fold = w < 0 && cmp_shows_fold(c->a);
	/* --reader: the readers' ns per read fold, in all (their reads/s,
	 * more being better, gets no slower/faster verdict: in the table) */
	bool reader = w < 0 && c->a->opt.readers > 0;
	char t1[64], t2[64];

	if (np == 0)
		return 0;
	if (fold && pairs_of(c, w, CMP_M_FOLD, pf) != 0)
		return -ENOMEM;
	if (reader && pairs_of(c, w, CMP_M_READ_NS, prn) != 0)
		return -ENOMEM;
	if (c->a->opt.stage_cycles && w < 0)
		for (s = 0; s < MIB_STAGES; s++) {
			for (m = 0; m < c->nv; m++)
				ran[s] |= !isnan(cmp_fig(&c->res[m][0], c->a->n_workers,
							 w, CMP_M_STAGE + s));
			if (ran[s] && pairs_of(c, w, CMP_M_STAGE + s, ps[s]) != 0)
				return -ENOMEM;
		}
	if (c->rounds >= 2)
		printf("  every pair, b - a, 95%% confidence intervals: paired t over "
		       "%u rounds (%u df)\n",
		       c->rounds, c->rounds - 1);
	else
		printf("  every pair, b - a, 95%% confidence intervals: Welch t over the "
		       "%u intervals of each phase (1 round: round-to-round drift not "
		       "included)\n",
		       c->res[0][0].n_iv);
	printf("  %-12s %-12s %8s %20s %-12s %8s %20s %s\n", "b", "a", "dns/pkt",
	       "95% CI", "verdict", "dcyc/pkt", "95% CI", "verdict");
	for (p = 0; p < np; p++) {
		json_t *o;

		printf("  %-12s %-12s %s %s\n", c->names[pn[p].b], c->names[pn[p].a],
		       ci_text(&pn[p].ci, false, t1, sizeof(t1)),
		       ci_text(&pc[p].ci, true, t2, sizeof(t2)));
		if (fold)
			printf("  %25s fold ns/fold       %s\n", "",
			       ci_text(&pf[p].ci, true, t1, sizeof(t1)));
		if (reader)
			printf("  %25s read ns/fold      %s\n", "",
			       ci_text(&prn[p].ci, true, t1, sizeof(t1)));
		for (s = 0; s < MIB_STAGES; s++)
			if (ran[s])
				printf("  %25s stage %-8s dcyc/pkt %s\n", "",
				       mib_stage_name(s),
				       ci_text(&ps[s][p].ci, true, t1, sizeof(t1)));
		if (jpairs == NULL)
			continue;
		o = json_pack("{s:o, s:o}", "ns", ci_json(&pn[p].ci), "cycles",
			      ci_json(&pc[p].ci));
		if (w >= 0) {
			json_object_set_new(o, "lcore", json_integer(c->a->lcore_ids[w]));
			json_array_append_new(
				json_object_get(json_array_get(jpairs, p), "lcores"), o);
			continue;
		}
		json_object_set_new(o, "a", json_string(c->names[pn[p].a]));
		json_object_set_new(o, "b", json_string(c->names[pn[p].b]));
		json_object_set_new(o, "lcores", json_array());
		if (fold)
			json_object_set_new(o, "fold_ns", ci_json(&pf[p].ci));
		if (reader)
			json_object_set_new(o, "read_fold_ns", ci_json(&prn[p].ci));
		if (c->a->opt.stage_cycles) {
			json_t *st = json_object();

			for (s = 0; s < MIB_STAGES; s++)
				if (ran[s])
					json_object_set_new(st, mib_stage_name(s),
							    ci_json(&ps[s][p].ci));
			json_object_set_new(o, "stage_cycles", st);
		}
		json_array_append_new(jpairs, o);
	}
	return 0;
}

/* Variant v's figures of lcore w into the JSON (the total's object, or a
 * new entry of its "lcores"); its object. */
static json_t *
variant_json(const struct cmp_run *c, unsigned int v, int w, const struct agg *g,
	     const struct stats_ci_pair *pn, const struct stats_ci_pair *pc,
	     json_t *jmodes)
{
	json_t *m = json_array_get(jmodes, v);
	json_t *o = json_pack("{s:f, s:f, s:f, s:f, s:f}", "mpps_median", g->mpps_med,
			      "mpps_min", g->mpps_min, "mpps_max", g->mpps_max,
			      "ns_per_pkt", g->ns, "cycles_per_pkt", g->cyc);
	bool base = v == c->base;

	if (g->perf) {
		json_object_set_new(o, "poll_cycles_p50",
				    json_integer((json_int_t)g->poll_p50));
		json_object_set_new(o, "poll_cycles_p99",
				    json_integer((json_int_t)g->poll_p99));
	}
	/* the baseline against itself: exactly 0, no interval */
	json_object_set_new(o, "delta_ns",
			    base ? json_real(0) : jreal(pn[base_pair(c, v)].ci.estimate));
	json_object_set_new(o, "delta_ns_ci",
			    base ? json_null() : ci_json(&pn[base_pair(c, v)].ci));
	json_object_set_new(o, "delta_cycles",
			    base ? json_real(0) : jreal(pc[base_pair(c, v)].ci.estimate));
	json_object_set_new(o, "delta_cycles_ci",
			    base ? json_null() : ci_json(&pc[base_pair(c, v)].ci));
	if (w < 0 && cmp_shows_fold(c->a))
		json_object_set_new(o, "fold_ns_median", jreal(g->fold_ns));
	if (w < 0 && c->a->opt.readers > 0) {
		json_object_set_new(o, "reads_per_s_median", jreal(g->reads));
		json_object_set_new(o, "read_fold_ns_median", jreal(g->read_ns));
	}
	samples_json(c, c->res[v], w, o);
	if (c->a->opt.stage_cycles)
		stages_json(g, o);
	if (w < 0) {
		json_object_update(m, o);
		json_decref(o);
		return m;
	}
	json_object_set_new(o, "lcore", json_integer(c->a->lcore_ids[w]));
	json_array_append_new(json_object_get(m, "lcores"), o);
	return o;
}

int
cmp_table(const struct cmp_run *c, int w, json_t *jmodes, json_t *jpairs)
{
	static struct stats_ci_pair pn[CMP_MAX_PAIRS], pc[CMP_MAX_PAIRS];
	const struct app *a = c->a;
	const char *bn = c->names[c->base];
	bool fold = w < 0 && cmp_shows_fold(a);
	bool reader = w < 0 && a->opt.readers > 0;
	struct agg g[APP_MAX_VARIANTS];
	json_t *jm[APP_MAX_VARIANTS];
	const char *names[APP_MAX_VARIANTS];
	char h1[48], h2[48];
	unsigned int v;

	if (pairs_of(c, w, CMP_M_NS, pn) != 0 || pairs_of(c, w, CMP_M_CYC, pc) != 0)
		return -ENOMEM;
	for (v = 0; v < c->nv; v++)
		g[v] = aggregate(c->res[v], c->rounds, w);
	if (w < 0)
		printf("total (%u worker%s)\n", a->n_workers,
		       a->n_workers == 1 ? "" : "s");
	else
		printf("lcore %u\n", a->lcore_ids[w]);
	snprintf(h1, sizeof(h1), "dns vs %s", bn);
	snprintf(h2, sizeof(h2), "dcyc vs %s", bn);
	printf("%-12s %7s %7s %7s  %8s %10s %16s %17s %14s", "variant", "Mpps", "min",
	       "max", "ns/pkt", "cycles/pkt", h1, h2,
	       w < 0 && a->ig != NULL ? "lock contended" : "");
	if (a->perf != NULL)
		printf(" %12s %12s", "p50 cyc/poll", "p99 cyc/poll");
	if (a->opt.stage_cycles)
		printf(" %16s", "ingress cyc/pkt");
	if (fold)
		printf(" %12s", "ns/fold");
	if (reader)
		printf(" %10s %12s", "reads/s", "read ns/fold");
	printf("\n");
	for (v = 0; v < c->nv; v++) {
		char d1[16] = "", d2[16] = "", cont[24] = "";
		enum ingress_mode m = app_compare_mode(a, v);

		if (v != c->base && isfinite(pn[base_pair(c, v)].ci.estimate))
			snprintf(d1, sizeof(d1), "%+.2f",
				 pn[base_pair(c, v)].ci.estimate);
		if (v != c->base && isfinite(pc[base_pair(c, v)].ci.estimate))
			snprintf(d2, sizeof(d2), "%+.2f",
				 pc[base_pair(c, v)].ci.estimate);
		if (w < 0 && a->ig != NULL &&
		    (m == INGRESS_LOCK || m == INGRESS_RWLOCK)) {
			uint64_t acq = 0, con = 0;
			unsigned int r;

			for (r = 0; r < c->rounds; r++) {
				acq += c->res[v][r].acquires;
				con += c->res[v][r].contended;
			}
			snprintf(cont, sizeof(cont), "%.3f%%",
				 acq ? 100.0 * (double)con / (double)acq : 0.0);
		}
		printf("%-12s %7.3f %7.3f %7.3f  %8.2f %10.2f %16s %17s %14s",
		       c->names[v], g[v].mpps_med, g[v].mpps_min, g[v].mpps_max, g[v].ns,
		       g[v].cyc, d1, d2, cont);
		if (g[v].perf)
			printf(" %12" PRIu64 " %12" PRIu64, g[v].poll_p50, g[v].poll_p99);
		if (a->opt.stage_cycles)
			printf(" %16.2f", stage_cpp(&g[v], MIB_STAGE_INGRESS));
		if (fold)
			printf(" %12.0f", g[v].fold_ns);
		if (reader)
			printf(" %10.0f %12.0f", g[v].reads, g[v].read_ns);
		printf("\n");
		jm[v] = jmodes != NULL ? variant_json(c, v, w, &g[v], pn, pc, jmodes)
				       : NULL;
		names[v] = c->names[v];
	}
	if (print_pairs(c, w, pn, pc, jpairs) != 0)
		return -ENOMEM;
	if (c->pm[0][0].conf != NULL)
		app_cmp_pmu_table((const struct app_cmp_pmu *const *)c->pm, c->nv, names,
				  c->rounds, w, c->base, jm);
	return 0;
}
