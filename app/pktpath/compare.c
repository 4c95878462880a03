/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --compare KNOB=V1,V2,... (options.h, struct app_compare): the variants as
 * back-to-back phases in one process, rounds interleaved and their order
 * alternated (A B C, C B A, A B C, ...) so that drift (thermal,
 * neighbours) spreads over every variant and no variant always follows the
 * same one; then the table: Mpps median/min/max over rounds, ns/pkt and
 * cycles/pkt of the median, the differences against the baseline (the
 * first variant, or --baseline), and below it every pair of variants with
 * the 95% confidence intervals of its differences in ns/pkt and in
 * cycles/pkt, and in each stage's cycles/pkt with --stage-cycles, and
 * their verdicts (compare_table.c; stats_ci_pairs(): paired t over the
 * rounds, Welch over the phases' per-interval samples with one round).
 * Each phase is cut into per-interval samples by folds of its own
 * (phase_intervals()); the JSON carries them with the intervals. With
 * --perf-detail, each variant's p50 and p99 cycles per busy poll; with
 * --pmu, each variant's events per packet with their differences and
 * intervals (compare_pmu.h).
 *
 * Before each phase its variant is put in force (compare_switch.c): live
 * for the ingress mode, the lock scope and the fold, with the workers
 * paused and started again for the others; the pause is measured, said on
 * the round's line and left out of every phase (the phase's first fold
 * comes after it and the settle time).
 *
 * A phase is measured in one ingress mode only: flips from outside
 * (SIGUSR1, POST /ingress/mode) and reloads are refused while the phases
 * run, and each phase checks, on the workers' per-mode counters (the Mode
 * group), that no packet of it was counted in another mode; one that was
 * is measured again. So is a phase in which a worker lost time (it did not
 * run for --lost-share of the phase or more: stats_rate_lost()): a stall
 * is never charged to a variant. After COMPARE_TRIES such phases in a row
 * the last is kept, marked (the round's line, the JSON's "rounds_lost_s"),
 * and the table says how many rounds it holds. Deltas are taken on raw
 * counters, so a POST /stats/clear during a phase changes nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "base.h"
#include "compare_pvt.h"
#include "stats_confidence.h"

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

/* Field f's growth from x to y, of lcore w (in all when w < 0). */
static double
grown(const struct stats_snapshot *x, const struct stats_snapshot *y, int w,
      unsigned int f)
{
	uint64_t p, q;

	if (w < 0)
		return (double)stats_grown(x, y, f);
	p = x->raw_per_block[(size_t)w * MIB_FIELD_MAX + f];
	q = y->raw_per_block[(size_t)w * MIB_FIELD_MAX + f];
	return q > p ? (double)(q - p) : 0;
}

/* The figures (CMP_M_*) of lcore w (w < 0: all) from x to y, into f. */
static void
figures(const struct stats_snapshot *x, const struct stats_snapshot *y, int w, double *f)
{
	struct stats_rate r;
	unsigned int s;

	stats_rate_between(x, y, w, &r);
	f[CMP_M_NS] = r.pps > 0 ? 1e9 / r.pps : NAN;
	f[CMP_M_CYC] = r.packets > 0 ? r.cycles_per_pkt : NAN;
	/* every fold is timed: the mean of those between x and y */
	f[CMP_M_FOLD] = w < 0 && y->folds > x->folds
				? (y->fold_ns_mean * (double)y->folds -
				   x->fold_ns_mean * (double)x->folds) /
					  (double)(y->folds - x->folds)
				: NAN;
	/* the readers' folds between x and y, counted and timed by stats_read() */
	f[CMP_M_READS] = w < 0 && y->tsc > x->tsc
				 ? (double)(y->read_folds - x->read_folds) *
					   (double)y->tsc_hz / (double)(y->tsc - x->tsc)
				 : NAN;
	f[CMP_M_READ_NS] = w < 0 && y->read_folds > x->read_folds
				   ? (y->read_fold_s_sum - x->read_fold_s_sum) * 1e9 /
					     (double)(y->read_folds - x->read_folds)
				   : NAN;
	for (s = 0; s < MIB_STAGES; s++) {
		unsigned int b = MIB_BASE_STAGE + s * MIB_STAGE_K_MAX;
		double cyc = grown(x, y, w, b + MIB_STAGE_K_CYCLES);
		double pk = grown(x, y, w, b + MIB_STAGE_K_PACKETS);

		f[CMP_M_STAGE + s] = grown(x, y, w, b + MIB_STAGE_K_CALLS) > 0 && pk > 0
					     ? cyc / pk
					     : NAN;
	}
}

/* One measured phase between two fresh folds, in ingress mode m, cut into
 * n_iv intervals by folds of its own (each a per-interval sample), its
 * events into pm (--pmu). *mixed: packets the workers counted in another
 * mode meanwhile (0 unless something flipped the mode under the phase). */
static bool
measure(struct app *a, struct cmp_phase *ph, struct app_cmp_pmu *pm, enum ingress_mode m,
	uint64_t *mixed)
{
	struct stats_snapshot *s0, *s1, *prev;
	unsigned int w, k, nw = a->n_workers, stride = a->n_workers + 1;
	double step = a->opt.duration_s / (double)ph->n_iv;
	int x;

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
		for (x = -1; x < (int)nw; x++)
			figures(prev, s1, x,
				&ph->iv_fig[((size_t)k * stride + (size_t)(x + 1)) *
					    CMP_M_MAX]);
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
	for (x = -1; x < (int)nw; x++)
		figures(s0, s1, x, &ph->fig[(size_t)(x + 1) * CMP_M_MAX]);
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

		for (x = -1; x < (int)nw; x++)
			ph->stg[(size_t)(x + 1) * MIB_STAGE_MAX + k] =
				(uint64_t)grown(s0, s1, x, f);
	}
	*mixed = 0;
	for (k = 0; k < MIB_MODES; k++)
		if (k != (unsigned int)m)
			*mixed += stats_grown(s0, s1, MIB_MODE_F(k, MIB_MODE_K_PACKETS));
	stats_put(a->stats, s0);
	stats_put(a->stats, s1);
	return true;
}

/* Variant v's phases, sized for the run; -ENOMEM. */
static int
phases_alloc(struct cmp_run *c, unsigned int v)
{
	struct app *a = c->a;
	const struct app_options *o = &a->opt;
	size_t rows = (size_t)a->n_workers + 1;
	unsigned int r;

	c->res[v] = calloc(c->rounds, sizeof(*c->res[v]));
	c->pm[v] = calloc(c->rounds, sizeof(*c->pm[v]));
	if (c->res[v] == NULL || c->pm[v] == NULL)
		return -ENOMEM;
	for (r = 0; r < c->rounds; r++) {
		struct cmp_phase *ph = &c->res[v][r];

		if (app_cmp_pmu_alloc(&c->pm[v][r], o->pmu.n ? &o->pmu : NULL,
				      a->n_workers, phase_intervals(o)) != 0)
			return -ENOMEM;
		ph->n_iv = phase_intervals(o);
		ph->lcore = calloc(a->n_workers, sizeof(struct stats_rate));
		ph->iv_pps = calloc((size_t)ph->n_iv * rows, sizeof(double));
		ph->fig = calloc(rows * CMP_M_MAX, sizeof(double));
		ph->iv_fig = calloc((size_t)ph->n_iv * rows * CMP_M_MAX, sizeof(double));
		if (a->perf != NULL)
			ph->hist = calloc(rows, sizeof(struct stats_hist));
		ph->stg = calloc(rows * MIB_STAGE_MAX, sizeof(uint64_t));
		if (ph->lcore == NULL || ph->iv_pps == NULL || ph->fig == NULL ||
		    ph->iv_fig == NULL || ph->stg == NULL ||
		    (a->perf != NULL && ph->hist == NULL))
			return -ENOMEM;
	}
	return 0;
}

static void
phases_free(struct cmp_run *c, unsigned int v)
{
	unsigned int r;

	for (r = 0; c->res[v] != NULL && r < c->rounds; r++) {
		free(c->res[v][r].lcore);
		free(c->res[v][r].iv_pps);
		free(c->res[v][r].fig);
		free(c->res[v][r].iv_fig);
		free(c->res[v][r].hist);
		free(c->res[v][r].stg);
	}
	for (r = 0; c->pm[v] != NULL && r < c->rounds; r++)
		app_cmp_pmu_free(&c->pm[v][r]);
	free(c->res[v]);
	free(c->pm[v]);
}

/* Variant v's phase of round r: switched to, settled, measured, measured
 * again while the mode changed under it or a worker lost time, at most
 * COMPARE_TRIES times. false when the run stops or cannot go on. */
static bool
run_phase(struct cmp_run *c, unsigned int v, unsigned int r)
{
	struct app *a = c->a;
	const struct app_options *o = &a->opt;
	struct cmp_phase *ph = &c->res[v][r];
	enum ingress_mode m = app_compare_mode(a, v);
	uint64_t mixed = 0;
	char err[256];
	double sw;

	ph->tries = 0;
	ph->switch_s = 0;
	do {
		if (mixed != 0)
			APP_LOG(WARNING,
				"--compare: round %u %s: %" PRIu64 " packets "
				"counted in another mode: measuring the phase again",
				r + 1, c->names[v], mixed);
		else if (ph->tries > 0)
			APP_LOG(WARNING,
				"--compare: round %u %s: a worker did not run "
				"for %.3f s of it: measuring the phase again",
				r + 1, c->names[v], ph->lost_s);
		ph->tries++;
		if (app_compare_switch(a, v, &sw, err, sizeof(err)) != 0) {
			fprintf(stderr, "pktpath: --compare: %s: %s\n", c->names[v], err);
			return false;
		}
		ph->switch_s += sw;
		if (!nap(a, o->phase_warmup_s) ||
		    !measure(a, ph, &c->pm[v][r], m, &mixed))
			return false;
	} while ((mixed != 0 || ph->lost) && ph->tries < COMPARE_TRIES);
	if (mixed != 0) {
		fprintf(stderr,
			"pktpath: --compare: round %u %s: the mode changed "
			"under the phase %u times; no table\n",
			r + 1, c->names[v], COMPARE_TRIES);
		return false;
	}
	printf("  round %u %-12s %8.3f Mpps %8.2f ns/pkt %8.2f cycles/pkt", r + 1,
	       c->names[v], ph->total.pps / 1e6, ph->total.ns_per_pkt,
	       ph->total.cycles_per_pkt);
	if (ph->switch_s > 0)
		printf("  (switch %.3f s, excluded)", ph->switch_s);
	if (ph->lost)
		printf("  LOST %.3f s (kept after %u tries)", ph->lost_s, ph->tries);
	else if (ph->tries > 1)
		printf("  (try %u)", ph->tries);
	printf("\n");
	fflush(stdout);
	return true;
}

/* The variants' entries of the JSON, before the tables fill them. */
static json_t *
variants_json(const struct cmp_run *c)
{
	const struct app_compare *cmp = &c->a->opt.cmp;
	json_t *jmodes = json_array();
	unsigned int v, r, k;

	for (v = 0; v < c->nv; v++) {
		json_t *per = json_array(), *lost = json_array(), *tries = json_array();
		json_t *sw = json_array(), *var = json_object();
		uint64_t acq = 0, con = 0;

		for (r = 0; r < c->rounds; r++) {
			const struct cmp_phase *ph = &c->res[v][r];

			json_array_append_new(per, json_real(ph->total.pps / 1e6));
			json_array_append_new(lost, ph->lost ? json_real(ph->lost_s)
							     : json_null());
			json_array_append_new(tries, json_integer(ph->tries));
			json_array_append_new(sw, json_real(ph->switch_s));
			acq += ph->acquires;
			con += ph->contended;
		}
		for (k = 0; k < cmp->n_knobs; k++)
			json_object_set_new(
				var, app_knob_names[cmp->k[k].knob],
				json_string(
					cmp->k[k].name[app_compare_index(cmp, k, v)]));
		json_array_append_new(jmodes,
				      json_pack("{s:s, s:o, s:o, s:o, s:o, "
						"s:o, s:o, s:I, s:I}",
						"mode", c->names[v], "variant", var,
						"rounds_mpps", per, "rounds_lost_s", lost,
						"rounds_tries", tries, "rounds_switch_s",
						sw, "lcores", json_array(),
						"lock_acquires", (json_int_t)acq,
						"lock_contended", (json_int_t)con));
	}
	return jmodes;
}

/* The knobs in the JSON: {"KNOB": [values]}, in their order. */
static json_t *
knobs_json(const struct app_compare *cmp)
{
	json_t *o = json_object();
	unsigned int k, i;

	for (k = 0; k < cmp->n_knobs; k++) {
		json_t *vals = json_array();

		for (i = 0; i < cmp->k[k].n; i++)
			json_array_append_new(vals, json_string(cmp->k[k].name[i]));
		json_object_set_new(o, app_knob_names[cmp->k[k].knob], vals);
	}
	return o;
}

void
app_compare_run(struct app *a)
{
	const struct app_options *o = &a->opt;
	struct cmp_run c;
	json_t *jmodes, *jpairs;
	unsigned int v, r, i, w, n_lost = 0;
	double sw_max = 0;
	char knobs[160] = "";
	bool done = true;

	memset(&c, 0, sizeof(c));
	c.a = a;
	c.nv = o->cmp.n;
	c.rounds = o->rounds;
	c.base = o->cmp.base;
	for (v = 0; v < c.nv; v++)
		app_compare_name(&o->cmp, v, c.names[v], sizeof(c.names[v]));
	for (i = 0; i < o->cmp.n_knobs; i++)
		snprintf(knobs + strlen(knobs), sizeof(knobs) - strlen(knobs), "%s%s",
			 i ? " x " : "", app_knob_names[o->cmp.k[i].knob]);
	printf("== compare %s: %u round%s x %u variants (baseline %s), %.2f s phases "
	       "(%u intervals) after %.2f s settle, scope %s, %u worker%s%s\n",
	       knobs, c.rounds, c.rounds == 1 ? "" : "s", c.nv, c.names[c.base],
	       o->duration_s, phase_intervals(o), o->phase_warmup_s,
	       ingress_scope_name(o->lock_scope), a->n_workers,
	       a->n_workers == 1 ? "" : "s",
	       o->update_rate > 0 ? ", rule churn on (paused in none)" : "");
	fflush(stdout);
	for (v = 0; v < c.nv; v++)
		if (phases_alloc(&c, v) != 0)
			rte_exit(EXIT_FAILURE, "--compare: out of memory\n");
	/* From here to the table, the phases own the mode (and the rules). */
	__atomic_store_n(&a->compare_running, true, __ATOMIC_RELEASE);
	for (r = 0; r < c.rounds && done; r++)
		for (i = 0; i < c.nv && done; i++) {
			/* odd rounds backwards: A B C, C B A, ... */
			v = r % 2 == 0 ? i : c.nv - 1 - i;
			done = run_phase(&c, v, r);
			if (done) {
				n_lost += c.res[v][r].lost;
				sw_max = RTE_MAX(sw_max, c.res[v][r].switch_s);
			}
		}
	if (done) {
		jmodes = variants_json(&c);
		jpairs = json_array();
		printf("\n");
		if (sw_max > 0)
			printf("switches: the workers paused at most %.3f s to change "
			       "variant, before each phase's settle time: in no phase\n",
			       sw_max);
		if (cmp_table(&c, -1, jmodes, jpairs) != 0)
			rte_exit(EXIT_FAILURE, "--compare: out of memory\n");
		if (n_lost > 0)
			printf("  LOST TIME: %u of the %u phases above lost time even after "
			       "%u tries (a worker did not run for %g%% of the phase or "
			       "more): their figures and the intervals include it (JSON "
			       "rounds_lost_s); rerun on a quieter machine or with "
			       "isolated CPUs\n",
			       n_lost, c.nv * c.rounds, COMPARE_TRIES, o->lost_share_pct);
		for (w = 0; a->n_workers > 1 && w < a->n_workers; w++) {
			printf("\n");
			if (cmp_table(&c, (int)w, jmodes, jpairs) != 0)
				rte_exit(EXIT_FAILURE, "--compare: out of memory\n");
		}
		a->compare = json_pack(
			"{s:o, s:s, s:f, s:f, s:i, s:s, s:s, s:f, s:i, "
			"s:s, s:f, s:o, s:o, s:i, s:f}",
			"knobs", knobs_json(&o->cmp), "baseline", c.names[c.base],
			"phase_s", o->duration_s, "settle_s", o->phase_warmup_s, "rounds",
			(int)c.rounds, "order", "alternated", "scope",
			ingress_scope_name(o->lock_scope), "update_rate", o->update_rate,
			"intervals_per_phase", (int)phase_intervals(o), "ci_method",
			stats_ci_method_name(c.rounds >= 2 ? STATS_CI_PAIRED_T
							   : STATS_CI_WELCH),
			"ci_level", 0.95, "modes", jmodes, "pairs", jpairs, "lost_phases",
			(int)n_lost, "switch_s_max", sw_max);
	} else {
		printf("compare: interrupted, no table\n");
	}
	__atomic_store_n(&a->compare_running, false, __ATOMIC_RELEASE);
	fflush(stdout);
	for (v = 0; v < c.nv; v++)
		phases_free(&c, v);
}
