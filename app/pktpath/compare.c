/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --compare MODES: the ingress modes as back-to-back phases in one process,
 * rounds interleaved (A B C A B C ...) so that drift (thermal, neighbours)
 * spreads over every mode, then the table of the netdev thread it imitates:
 * Mpps median/min/max over rounds, ns/pkt and cycles/pkt of the median, and
 * the differences in ns/pkt (1e9/pps) against off and against lock: the mean
 * over rounds of the paired per-round differences, each with its 95%
 * confidence interval and verdict (stats_ci_rounds(): paired t over the
 * rounds, Welch over the phases' per-interval samples with one round).
 * Each phase is cut into per-interval samples by folds of its own
 * (phase_intervals()); the JSON carries them with the intervals. With
 * --perf-detail, each mode's p50 and p99 cycles per busy poll (its
 * phases' poll_cycles histograms merged over the rounds), so that a tail
 * shows even when the median does not move.
 * With --stage-cycles each phase also takes the workers' Stage group, and
 * the table gains the ingress stage's cycles/pkt per mode, beside the
 * whole path's differences (the JSON: each mode's "stages", ns per
 * received packet per stage, as scripts/plot.py stacks them). With --pmu,
 * each mode's events per packet with their differences and intervals
 * (compare_pmu.h).
 *
 * A phase is measured in one mode only: flips from outside (SIGUSR1, POST
 * /ingress/mode) and reloads are refused while the phases run, and each
 * phase checks, on the workers' per-mode counters (the Mode group), that
 * no packet of it was counted in another mode; one that was is measured
 * again. So is a phase in which a worker lost time (it did not run for
 * --lost-share of the phase or more: stats_rate_lost()): a stall is
 * never charged to a mode. After COMPARE_TRIES such phases in a row the
 * last is kept, marked (the round's line, the JSON's "rounds_lost_s"), and
 * the table says how many rounds it holds. Deltas are taken on raw
 * counters, so a POST /stats/clear during a phase changes nothing.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "app.h"
#include "base.h"
#include "compare_pmu.h"
#include "stats_confidence.h"

struct phase {
	struct stats_rate total;
	struct stats_rate *lcore;	/* n_workers */
	uint64_t acquires, contended, quiescent;
	/* The phase's per-interval pps: n_iv x (n_workers + 1), the total
	 * first in each row (row k: interval k). */
	double *iv_pps;
	unsigned int n_iv;
	/* --perf-detail: the phase's poll_cycles histogram, n_workers + 1,
	 * all workers merged first (NULL without). */
	struct stats_hist *hist;
	/* --stage-cycles: the phase's Stage group, (n_workers + 1) rows of
	 * MIB_STAGE_MAX, the total first. */
	uint64_t *stg;
	/* Lost time: the workers' seconds not run in the phase (summed), and
	 * whether one of them lost its share; the tries it took. */
	double lost_s;
	bool lost;
	unsigned int tries;
};

/* Measures of a phase, when the mode changed under it or a worker lost
 * time in it, before the last is kept. */
#define COMPARE_TRIES 3

/* Intervals a phase is cut into, for the confidence intervals: one per
 * --interval, at least COMPARE_MIN_IV (so that one round still gives
 * samples), at most COMPARE_MAX_IV. */
#define COMPARE_MIN_IV 4
#define COMPARE_MAX_IV 1000

static unsigned int
phase_intervals(const struct app_options *o)
{
	double k = floor(o->duration_s / o->interval_s + 0.5);

	return k < COMPARE_MIN_IV ? COMPARE_MIN_IV :
	       k > COMPARE_MAX_IV ? COMPARE_MAX_IV : (unsigned int)k;
}

/* Sleep s seconds in small steps; false if the run is being stopped. */
static bool
nap(struct app *a, double s)
{
	uint64_t end = rte_get_tsc_cycles() + (uint64_t)(s * (double)rte_get_tsc_hz());
	struct timespec tick = { 0, 2 * 1000 * 1000 };

	while (rte_get_tsc_cycles() < end) {
		if (app_quit)
			return false;
		app_ingress_signals(a);
		nanosleep(&tick, NULL);
	}
	return !app_quit;
}

/* One measured phase between two fresh folds, in mode m, cut into n_iv
 * intervals by folds of its own (each a per-interval sample), its events
 * into pm (--pmu). *mixed: packets the workers counted in another mode
 * meanwhile (0 unless something flipped the mode under the phase). */
static bool
measure(struct app *a, struct phase *ph, struct app_cmp_pmu *pm,
	enum ingress_mode m, uint64_t *mixed)
{
	struct stats_snapshot *s0, *s1, *prev;
	unsigned int w, k, nw = a->n_workers, stride = a->n_workers + 1;
	double step = a->opt.duration_s / (double)ph->n_iv;

	stats_fold_now(a->stats);
	s0 = stats_get(a->stats);
	prev = s0;
	for (k = 0; k < ph->n_iv; k++) {
		struct stats_rate r;

		if (!nap(a, step)) {
			if (prev != s0)
				stats_put(a->stats, prev);
			stats_put(a->stats, s0);
			return false;
		}
		stats_fold_now(a->stats);
		s1 = stats_get(a->stats);
		stats_rate_between(prev, s1, -1, &r);
		ph->iv_pps[(size_t)k * stride] = r.pps;
		for (w = 0; w < nw; w++) {
			stats_rate_between(prev, s1, (int)w, &r);
			ph->iv_pps[(size_t)k * stride + 1 + w] = r.pps;
		}
		app_cmp_pmu_interval(pm, k, prev, s1);
		if (prev != s0)
			stats_put(a->stats, prev);
		prev = s1;
	}
	s1 = prev;
	/* Raw: a clear's baseline must not cut through a phase. */
	stats_rate_between(s0, s1, -1, &ph->total);
	for (w = 0; w < nw; w++)
		stats_rate_between(s0, s1, (int)w, &ph->lcore[w]);
	app_cmp_pmu_phase(pm, s0, s1);
	if (ph->hist != NULL && s0->raw_hist != NULL && s1->raw_hist != NULL) {
		memset(&ph->hist[0], 0, sizeof(ph->hist[0]));
		for (w = 0; w < nw; w++) {
			size_t h = (size_t)w * STATS_PERF_MAX + STATS_PERF_POLL_CYCLES;

			stats_hist_delta(&ph->hist[1 + w], &s1->raw_hist[h],
					 &s0->raw_hist[h]);
			stats_hist_merge(&ph->hist[0], &ph->hist[1 + w]);
		}
	}
	ph->lost = false;
	for (w = 0; w < nw; w++)
		ph->lost |= stats_rate_lost(&ph->lcore[w]);
	ph->lost_s = ph->total.lost_s;
	ph->acquires = stats_grown(s0, s1, MIB_F(INGRESS, LOCKACQUIRES));
	ph->contended = stats_grown(s0, s1, MIB_F(INGRESS, LOCKCONTENDED));
	ph->quiescent = stats_grown(s0, s1, MIB_F(INGRESS, RCUQUIESCENT));
	for (k = 0; k < MIB_STAGE_MAX; k++) {
		unsigned int f = MIB_BASE_STAGE + k;

		ph->stg[k] = stats_grown(s0, s1, f);
		for (w = 0; w < nw; w++) {
			uint64_t x = s0->raw_per_block[(size_t)w * MIB_FIELD_MAX + f];
			uint64_t y = s1->raw_per_block[(size_t)w * MIB_FIELD_MAX + f];

			ph->stg[(size_t)(w + 1) * MIB_STAGE_MAX + k] = y > x ? y - x : 0;
		}
	}
	*mixed = 0;
	for (k = 0; k < MIB_MODES; k++)
		if (k != (unsigned int)m)
			*mixed += stats_grown(s0, s1, MIB_MODE_F(k, MIB_MODE_K_PACKETS));
	stats_put(a->stats, s0);
	stats_put(a->stats, s1);
	return true;
}

struct agg {
	double mpps_med, mpps_min, mpps_max, ns, cyc;
	uint64_t poll_p50, poll_p99;	/* --perf-detail, over the rounds */
	bool perf;
	/* --stage-cycles, over all rounds: each stage's cycles and packets,
	 * and the packets received (ran: whether the stage ran at all). */
	uint64_t st_cyc[MIB_STAGES], st_pkts[MIB_STAGES], rx_pkts;
	bool st_ran[MIB_STAGES];
};

/* Aggregate one mode over rounds, for lcore w (or the total if w < 0). */
static struct agg
aggregate(struct phase *ph, unsigned int rounds, int w)
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
		const uint64_t *v = ph[r].stg + (size_t)(w < 0 ? 0 : w + 1) * MIB_STAGE_MAX;
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

static int
mode_index(const struct app *a, enum ingress_mode m)
{
	unsigned int i;

	for (i = 0; i < a->opt.n_compare; i++)
		if (a->opt.compare[i] == m)
			return (int)i;
	return -1;
}

/* ns/pkt of a rate; NaN without packets (no figure, no interval). */
static double
ns_of(double pps)
{
	return pps > 0 ? 1e9 / pps : NAN;
}

/* pps of phase ph for lcore w (the total when w < 0), the whole phase or
 * its interval k. */
static double
phase_pps(const struct phase *ph, int w)
{
	return w < 0 ? ph->total.pps : ph->lcore[w].pps;
}

static double
iv_pps(const struct phase *ph, unsigned int n_workers, int w, unsigned int k)
{
	return ph->iv_pps[(size_t)k * (n_workers + 1) + (w < 0 ? 0 : 1 + (unsigned int)w)];
}

/* The 95% interval on ns/pkt of mode i minus mode ref, lcore w (or the
 * total): stats_ci_rounds() over the rounds' ns/pkt, or, with one round,
 * its phases' per-interval ns/pkt. */
static void
delta_ci(const struct app *a, struct phase **res, unsigned int rounds, int w,
	 unsigned int i, unsigned int ref, struct stats_ci *ci)
{
	double ra[1024], rb[1024], ia[COMPARE_MAX_IV], ib[COMPARE_MAX_IV];
	unsigned int r, k, na = 0, nb = 0, n = RTE_MIN(rounds, RTE_DIM(ra));

	for (r = 0; r < n; r++) {
		ra[r] = ns_of(phase_pps(&res[i][r], w));
		rb[r] = ns_of(phase_pps(&res[ref][r], w));
	}
	if (rounds == 1) {
		for (k = 0; k < res[i][0].n_iv; k++) {
			double x = ns_of(iv_pps(&res[i][0], a->n_workers, w, k));

			if (!isnan(x))
				ia[na++] = x;
		}
		for (k = 0; k < res[ref][0].n_iv; k++) {
			double x = ns_of(iv_pps(&res[ref][0], a->n_workers, w, k));

			if (!isnan(x))
				ib[nb++] = x;
		}
	}
	stats_ci_rounds(ra, rb, n, ia, na, ib, nb, ci);
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
	return json_pack("{s:s, s:f, s:o, s:o, s:o, s:o, s:f, s:i, s:s}",
		"method", stats_ci_method_name(ci->method), "level", 0.95,
		"estimate", jreal(ci->estimate), "lo", jreal(ci->lo),
		"hi", jreal(ci->hi), "half", jreal(ci->half), "df", ci->df,
		"n", (int)ci->n, "verdict", verdict_name(ci));
}

/* The samples behind lcore w's (or the total's) figures of mode i: each
 * round's ns/pkt and each round's per-interval Mpps. */
static void
samples_json(const struct app *a, const struct phase *ph, unsigned int rounds,
	     int w, json_t *o)
{
	json_t *rns = json_array(), *riv = json_array();
	unsigned int r, k;

	for (r = 0; r < rounds; r++) {
		json_t *iv = json_array();

		json_array_append_new(rns, jreal(ns_of(phase_pps(&ph[r], w))));
		for (k = 0; k < ph[r].n_iv; k++)
			json_array_append_new(iv, json_real(iv_pps(&ph[r], a->n_workers,
								   w, k) / 1e6));
		json_array_append_new(riv, iv);
	}
	json_object_set_new(o, "rounds_ns", rns);
	json_object_set_new(o, "rounds_intervals_mpps", riv);
}

/* --stage-cycles: a stage's cycles per packet that entered it; NaN if it
 * did not run. */
static double
stage_cpp(const struct agg *g, unsigned int s)
{
	return g->st_ran[s] && g->st_pkts[s] ? (double)g->st_cyc[s] /
	       (double)g->st_pkts[s] : NAN;
}

/* The stages of a mode in the JSON: "stages", each stage's ns per packet
 * received (what stacks up to the path's: scripts/plot.py's stacked
 * bars), and "stage_cycles_per_pkt", per packet that entered the stage. */
static void
stages_json(const struct agg *g, json_t *o)
{
	json_t *ns = json_object(), *cpp = json_object();
	double ghz = (double)rte_get_tsc_hz() / 1e9;
	unsigned int s;

	for (s = 0; s < MIB_STAGES; s++) {
		if (!g->st_ran[s])
			continue;
		json_object_set_new(ns, mib_stage_name(s), json_real(g->rx_pkts ?
			(double)g->st_cyc[s] / (double)g->rx_pkts / ghz : 0.0));
		json_object_set_new(cpp, mib_stage_name(s), jreal(stage_cpp(g, s)));
	}
	json_object_set_new(o, "stages", ns);
	json_object_set_new(o, "stage_cycles_per_pkt", cpp);
	json_object_set_new(o, "ingress_cycles_per_pkt",
			    jreal(stage_cpp(g, MIB_STAGE_INGRESS)));
}

static void
print_cis(const struct app *a, struct stats_ci ci[][2], const int ref[2],
	  unsigned int rounds)
{
	unsigned int nm = a->opt.n_compare, i, j;
	bool any = false;

	for (i = 0; i < nm; i++)
		for (j = 0; j < 2; j++)
			any |= ref[j] >= 0 && (unsigned int)ref[j] != i;
	if (!any)
		return;
	if (rounds >= 2)
		printf("  95%% confidence intervals: paired t over %u rounds (%u df)\n",
		       rounds, rounds - 1);
	else
		printf("  95%% confidence intervals: Welch t over the %u intervals of "
		       "each phase (1 round: round-to-round drift not included)\n",
		       phase_intervals(&a->opt));
	printf("  %-8s %-7s %9s %21s  %s\n", "mode", "vs", "dns/pkt", "95% CI",
	       "verdict");
	for (i = 0; i < nm; i++) {
		for (j = 0; j < 2; j++) {
			const struct stats_ci *c = &ci[i][j];
			char iv[48] = "", est[16] = "";

			if (ref[j] < 0 || (unsigned int)ref[j] == i)
				continue;
			if (!isnan(c->lo))
				snprintf(iv, sizeof(iv), "[%+8.2f, %+8.2f]", c->lo, c->hi);
			if (isfinite(c->estimate))	/* a round without packets: none */
				snprintf(est, sizeof(est), "%+9.2f", c->estimate);
			printf("  %-8s %-7s %9s %21s  %s\n",
			       ingress_mode_name(a->opt.compare[i]),
			       ingress_mode_name(a->opt.compare[ref[j]]), est,
			       iv, verdict_name(c));
		}
	}
}

/*
 * One table: the total (w < 0) or lcore w. Mpps median/min/max over the
 * rounds and ns/pkt, cycles/pkt of the median; the differences (dns vs
 * off, vs lock) are the mean over rounds of the paired differences of
 * ns/pkt (round r of a mode minus round r of the reference), the figure
 * their 95% interval is about, listed below the table with its verdict.
 */
static void
print_table(struct app *a, struct phase **res, struct app_cmp_pmu *const *pm,
	    unsigned int rounds, int w, json_t *jmodes)
{
	unsigned int nm = a->opt.n_compare, i, j;
	const int ref[2] = { mode_index(a, INGRESS_OFF), mode_index(a, INGRESS_LOCK) };
	static const char *const ref_key[2] = { "delta_ns_vs_off", "delta_ns_vs_lock" };
	struct agg g[APP_MAX_COMPARE];
	struct stats_ci ci[APP_MAX_COMPARE][2];

	for (i = 0; i < nm; i++) {
		g[i] = aggregate(res[i], rounds, w);
		for (j = 0; j < 2; j++)
			if (ref[j] >= 0)
				delta_ci(a, res, rounds, w, i, (unsigned int)ref[j],
					 &ci[i][j]);
	}
	if (w < 0)
		printf("total (%u worker%s)\n", a->n_workers, a->n_workers == 1 ? "" : "s");
	else
		printf("lcore %u\n", a->lcore_ids[w]);
	printf("%-8s %7s %7s %7s  %8s %10s %11s %12s %14s", "mode", "Mpps",
	       "min", "max", "ns/pkt", "cycles/pkt", "dns vs off", "dns vs lock",
	       w < 0 ? "lock contended" : "");
	if (a->perf != NULL)
		printf(" %12s %12s", "p50 cyc/poll", "p99 cyc/poll");
	if (a->opt.stage_cycles)
		printf(" %16s", "ingress cyc/pkt");
	printf("\n");
	for (i = 0; i < nm; i++) {
		char dcol[2][16] = { "", "" }, cont[24] = "";
		double dv[2] = { NAN, NAN };

		for (j = 0; j < 2; j++) {
			if (ref[j] < 0 || isnan(ci[i][j].estimate))
				continue;
			dv[j] = ci[i][j].estimate;
			snprintf(dcol[j], sizeof(dcol[j]), "%+.2f", dv[j]);
		}
		if (w < 0 && (a->opt.compare[i] == INGRESS_LOCK ||
			      a->opt.compare[i] == INGRESS_RWLOCK)) {
			uint64_t acq = 0, con = 0;
			unsigned int r;

			for (r = 0; r < rounds; r++) {
				acq += res[i][r].acquires;
				con += res[i][r].contended;
			}
			snprintf(cont, sizeof(cont), "%.3f%%",
				 acq ? 100.0 * (double)con / (double)acq : 0.0);
		}
		printf("%-8s %7.3f %7.3f %7.3f  %8.2f %10.2f %11s %12s %14s",
		       ingress_mode_name(a->opt.compare[i]), g[i].mpps_med,
		       g[i].mpps_min, g[i].mpps_max, g[i].ns, g[i].cyc, dcol[0],
		       dcol[1], cont);
		if (g[i].perf)
			printf(" %12" PRIu64 " %12" PRIu64, g[i].poll_p50, g[i].poll_p99);
		if (a->opt.stage_cycles)
			printf(" %16.2f", stage_cpp(&g[i], MIB_STAGE_INGRESS));
		printf("\n");
		if (jmodes != NULL) {
			json_t *m = json_array_get(jmodes, i);
			json_t *o = json_pack("{s:f, s:f, s:f, s:f, s:f}",
				"mpps_median", g[i].mpps_med, "mpps_min", g[i].mpps_min,
				"mpps_max", g[i].mpps_max, "ns_per_pkt", g[i].ns,
				"cycles_per_pkt", g[i].cyc);

			if (g[i].perf) {
				json_object_set_new(o, "poll_cycles_p50",
						    json_integer((json_int_t)g[i].poll_p50));
				json_object_set_new(o, "poll_cycles_p99",
						    json_integer((json_int_t)g[i].poll_p99));
			}

			for (j = 0; j < 2; j++) {
				char key[40];

				json_object_set_new(o, ref_key[j], jreal(dv[j]));
				snprintf(key, sizeof(key), "%s_ci", ref_key[j]);
				/* a mode against itself: exactly 0, no interval */
				json_object_set_new(o, key, ref[j] >= 0 &&
						    (unsigned int)ref[j] != i ?
						    ci_json(&ci[i][j]) : json_null());
			}
			samples_json(a, res[i], rounds, w, o);
			if (a->opt.stage_cycles)
				stages_json(&g[i], o);
			if (w < 0) {
				json_object_update(m, o);
				json_decref(o);
			} else {
				json_object_set_new(o, "lcore", json_integer(a->lcore_ids[w]));
				json_array_append_new(json_object_get(m, "lcores"), o);
			}
		}
	}
	print_cis(a, ci, ref, rounds);
	if (pm[0][0].conf != NULL) {
		const char *names[APP_MAX_COMPARE];
		json_t *jm[APP_MAX_COMPARE];

		for (i = 0; i < nm; i++) {
			json_t *m = jmodes != NULL ? json_array_get(jmodes, i) : NULL;
			json_t *l = m != NULL && w >= 0 ? json_object_get(m, "lcores") : NULL;

			names[i] = ingress_mode_name(a->opt.compare[i]);
			/* the total's object, or this lcore's (just appended) */
			jm[i] = w < 0 ? m : l != NULL ?
				json_array_get(l, json_array_size(l) - 1) : NULL;
		}
		app_cmp_pmu_table((const struct app_cmp_pmu *const *)pm, nm, names,
				  rounds, w, ref, jm);
	}
}

void
app_compare_run(struct app *a)
{
	const struct app_options *o = &a->opt;
	unsigned int nm = o->n_compare, rounds = o->rounds, i, r, w;
	struct phase *res[APP_MAX_COMPARE];
	struct app_cmp_pmu *pm[APP_MAX_COMPARE];
	json_t *jmodes = json_array();
	unsigned int n_lost = 0;
	char err[256];
	bool done = true;

	printf("== compare: %u round%s x %u modes, %.2f s phases (%u intervals) after "
	       "%.2f s settle, scope %s, %u worker%s%s\n", rounds, rounds == 1 ? "" : "s",
	       nm, o->duration_s, phase_intervals(o), o->phase_warmup_s,
	       ingress_scope_name(o->lock_scope),
	       a->n_workers, a->n_workers == 1 ? "" : "s",
	       o->update_rate > 0 ? ", rule churn on (paused in none)" : "");
	fflush(stdout);
	for (i = 0; i < nm; i++) {
		res[i] = calloc(rounds, sizeof(*res[i]));
		pm[i] = calloc(rounds, sizeof(*pm[i]));
		for (r = 0; pm[i] != NULL && r < rounds; r++)
			if (app_cmp_pmu_alloc(&pm[i][r], o->pmu.n ? &o->pmu : NULL,
					      a->n_workers, phase_intervals(o)) != 0)
				rte_exit(EXIT_FAILURE, "--compare: out of memory\n");
		for (r = 0; res[i] != NULL && r < rounds; r++) {
			res[i][r].lcore = calloc(a->n_workers, sizeof(struct stats_rate));
			res[i][r].n_iv = phase_intervals(o);
			res[i][r].iv_pps = calloc((size_t)res[i][r].n_iv *
						  (a->n_workers + 1), sizeof(double));
			if (a->perf != NULL)
				res[i][r].hist = calloc(a->n_workers + 1,
							sizeof(struct stats_hist));
			res[i][r].stg = calloc((size_t)(a->n_workers + 1) * MIB_STAGE_MAX,
					       sizeof(uint64_t));
			if (res[i][r].lcore == NULL || res[i][r].iv_pps == NULL ||
			    res[i][r].stg == NULL ||
			    (a->perf != NULL && res[i][r].hist == NULL))
				rte_exit(EXIT_FAILURE, "--compare: out of memory\n");
		}
		if (res[i] == NULL || pm[i] == NULL)
			rte_exit(EXIT_FAILURE, "--compare: out of memory\n");
	}
	/* From here to the table, the phases own the mode (and the rules). */
	__atomic_store_n(&a->compare_running, true, __ATOMIC_RELEASE);
	for (r = 0; r < rounds && done; r++) {
		for (i = 0; i < nm && done; i++) {
			struct phase *ph = &res[i][r];
			uint64_t mixed = 0;

			ph->tries = 0;
			do {
				if (mixed != 0)
					APP_LOG(WARNING, "--compare: round %u %s: %" PRIu64
						" packets counted in another mode: "
						"measuring the phase again", r + 1,
						ingress_mode_name(o->compare[i]), mixed);
				else if (ph->tries > 0)
					APP_LOG(WARNING, "--compare: round %u %s: a worker "
						"did not run for %.3f s of it: measuring "
						"the phase again", r + 1,
						ingress_mode_name(o->compare[i]), ph->lost_s);
				ph->tries++;
				if (app_ingress_compare_mode(a, o->compare[i], err,
							     sizeof(err)) != 0) {
					fprintf(stderr, "pktpath: --compare: %s\n", err);
					done = false;
				} else if (!nap(a, o->phase_warmup_s) ||
					   !measure(a, ph, &pm[i][r], o->compare[i], &mixed)) {
					done = false;
				}
			} while (done && (mixed != 0 || ph->lost) &&
				 ph->tries < COMPARE_TRIES);
			if (done && mixed != 0) {
				fprintf(stderr, "pktpath: --compare: round %u %s: the mode "
					"changed under the phase %u times; no table\n",
					r + 1, ingress_mode_name(o->compare[i]),
					COMPARE_TRIES);
				done = false;
			}
			if (!done)
				break;
			n_lost += ph->lost;
			printf("  round %u %-7s %8.3f Mpps %8.2f ns/pkt %8.2f cycles/pkt",
			       r + 1, ingress_mode_name(o->compare[i]),
			       ph->total.pps / 1e6, ph->total.ns_per_pkt,
			       ph->total.cycles_per_pkt);
			if (ph->lost)
				printf("  LOST %.3f s (kept after %u tries)", ph->lost_s,
				       ph->tries);
			else if (ph->tries > 1)
				printf("  (try %u)", ph->tries);
			printf("\n");
			fflush(stdout);
		}
	}
	if (done) {
		for (i = 0; i < nm; i++) {
			json_t *per = json_array();

			json_t *lost = json_array(), *tries = json_array();

			for (r = 0; r < rounds; r++) {
				json_array_append_new(per, json_real(res[i][r].total.pps / 1e6));
				json_array_append_new(lost, res[i][r].lost ?
					json_real(res[i][r].lost_s) : json_null());
				json_array_append_new(tries, json_integer(res[i][r].tries));
			}
			json_array_append_new(jmodes, json_pack("{s:s, s:o, s:o, s:o, s:o, s:I, s:I}",
				"mode", ingress_mode_name(o->compare[i]),
				"rounds_mpps", per, "rounds_lost_s", lost, "rounds_tries", tries,
				"lcores", json_array(),
				"lock_acquires", (json_int_t)0, "lock_contended", (json_int_t)0));
			for (r = 0; r < rounds; r++) {
				json_t *m = json_array_get(jmodes, i);

				json_object_set_new(m, "lock_acquires", json_integer(
					json_integer_value(json_object_get(m, "lock_acquires")) +
					(json_int_t)res[i][r].acquires));
				json_object_set_new(m, "lock_contended", json_integer(
					json_integer_value(json_object_get(m, "lock_contended")) +
					(json_int_t)res[i][r].contended));
			}
		}
		printf("\n");
		print_table(a, res, pm, rounds, -1, jmodes);
		if (n_lost > 0)
			printf("  LOST TIME: %u of the %u phases above lost time even after "
			       "%u tries (a worker did not run for %g%% of the phase or "
			       "more): their figures and the intervals include it (JSON "
			       "rounds_lost_s); rerun on a quieter machine or with "
			       "isolated CPUs\n", n_lost, nm * rounds, COMPARE_TRIES,
			       o->lost_share_pct);
		for (w = 0; a->n_workers > 1 && w < a->n_workers; w++) {
			printf("\n");
			print_table(a, res, pm, rounds, (int)w, jmodes);
		}
		a->compare = json_pack("{s:f, s:f, s:i, s:s, s:f, s:i, s:s, s:f, s:o, s:i}",
			"phase_s", o->duration_s, "settle_s", o->phase_warmup_s,
			"rounds", (int)rounds, "scope", ingress_scope_name(o->lock_scope),
			"update_rate", o->update_rate,
			"intervals_per_phase", (int)phase_intervals(o),
			"ci_method", stats_ci_method_name(rounds >= 2 ? STATS_CI_PAIRED_T :
							 STATS_CI_WELCH),
			"ci_level", 0.95, "modes", jmodes, "lost_phases", (int)n_lost);
	} else {
		json_decref(jmodes);
		printf("compare: interrupted, no table\n");
	}
	__atomic_store_n(&a->compare_running, false, __ATOMIC_RELEASE);
	fflush(stdout);
	for (i = 0; i < nm; i++) {
		for (r = 0; res[i] != NULL && r < rounds; r++) {
			free(res[i][r].lcore);
			free(res[i][r].iv_pps);
			free(res[i][r].hist);
			free(res[i][r].stg);
		}
		for (r = 0; pm[i] != NULL && r < rounds; r++)
			app_cmp_pmu_free(&pm[i][r]);
		free(res[i]);
		free(pm[i]);
	}
}
