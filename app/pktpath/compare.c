/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --compare MODES: the ingress modes as back-to-back phases in one process,
 * rounds interleaved (A B C A B C ...) so that drift (thermal, neighbours)
 * spreads over every mode, then the table of the netdev thread it imitates:
 * Mpps median/min/max over rounds, ns/pkt and cycles/pkt of the median, and
 * the differences in ns/pkt (1e9/pps) against off and against lock.
 *
 * A phase is measured in one mode only: flips from outside (SIGUSR1, POST
 * /ingress/mode) and reloads are refused while the phases run, and each
 * phase checks, on the workers' per-mode counters (the Mode group), that
 * no packet of it was counted in another mode; one that was is measured
 * again. Deltas are taken on raw counters, so a POST /stats/clear during a
 * phase changes nothing.
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

struct phase {
	struct stats_rate total;
	struct stats_rate *lcore;	/* n_workers */
	uint64_t acquires, contended, quiescent;
};

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

/* One measured phase between two fresh folds, in mode m. *mixed: packets
 * the workers counted in another mode meanwhile (0 unless something
 * flipped the mode under the phase). */
static bool
measure(struct app *a, struct phase *ph, enum ingress_mode m, uint64_t *mixed)
{
	struct stats_snapshot *s0, *s1;
	unsigned int w, k;

	stats_fold_now(a->stats);
	s0 = stats_get(a->stats);
	if (!nap(a, a->opt.duration_s)) {
		stats_put(a->stats, s0);
		return false;
	}
	stats_fold_now(a->stats);
	s1 = stats_get(a->stats);
	/* Raw: a clear's baseline must not cut through a phase. */
	stats_rate_between(s0, s1, -1, &ph->total);
	for (w = 0; w < a->n_workers; w++)
		stats_rate_between(s0, s1, (int)w, &ph->lcore[w]);
	ph->acquires = stats_grown(s0, s1, MIB_F(INGRESS, LOCKACQUIRES));
	ph->contended = stats_grown(s0, s1, MIB_F(INGRESS, LOCKCONTENDED));
	ph->quiescent = stats_grown(s0, s1, MIB_F(INGRESS, RCUQUIESCENT));
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

static void
print_table(struct app *a, struct phase **res, unsigned int rounds, int w,
	    json_t *jmodes)
{
	unsigned int nm = a->opt.n_compare, i;
	int ioff = mode_index(a, INGRESS_OFF), ilock = mode_index(a, INGRESS_LOCK);
	struct agg g[APP_MAX_COMPARE];

	for (i = 0; i < nm; i++)
		g[i] = aggregate(res[i], rounds, w);
	if (w < 0)
		printf("total (%u worker%s)\n", a->n_workers, a->n_workers == 1 ? "" : "s");
	else
		printf("lcore %u\n", a->lcore_ids[w]);
	printf("%-8s %7s %7s %7s  %8s %10s %11s %12s %14s\n", "mode", "Mpps",
	       "min", "max", "ns/pkt", "cycles/pkt", "dns vs off", "dns vs lock",
	       w < 0 ? "lock contended" : "");
	for (i = 0; i < nm; i++) {
		char doff[16] = "", dlock[16] = "", cont[24] = "";
		double vs_off = NAN, vs_lock = NAN;

		if (ioff >= 0 && g[ioff].ns > 0 && g[i].ns > 0) {
			vs_off = g[i].ns - g[ioff].ns;
			snprintf(doff, sizeof(doff), "%+.2f", vs_off);
		}
		if (ilock >= 0 && g[ilock].ns > 0 && g[i].ns > 0) {
			vs_lock = g[i].ns - g[ilock].ns;
			snprintf(dlock, sizeof(dlock), "%+.2f", vs_lock);
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
		printf("%-8s %7.3f %7.3f %7.3f  %8.2f %10.2f %11s %12s %14s\n",
		       ingress_mode_name(a->opt.compare[i]), g[i].mpps_med,
		       g[i].mpps_min, g[i].mpps_max, g[i].ns, g[i].cyc, doff, dlock,
		       cont);
		if (jmodes != NULL) {
			json_t *m = json_array_get(jmodes, i);
			json_t *o = json_pack("{s:f, s:f, s:f, s:f, s:f, s:o, s:o}",
				"mpps_median", g[i].mpps_med, "mpps_min", g[i].mpps_min,
				"mpps_max", g[i].mpps_max, "ns_per_pkt", g[i].ns,
				"cycles_per_pkt", g[i].cyc,
				"delta_ns_vs_off", isnan(vs_off) ? json_null() : json_real(vs_off),
				"delta_ns_vs_lock", isnan(vs_lock) ? json_null() : json_real(vs_lock));

			if (w < 0) {
				json_object_update(m, o);
				json_decref(o);
			} else {
				json_object_set_new(o, "lcore", json_integer(a->lcore_ids[w]));
				json_array_append_new(json_object_get(m, "lcores"), o);
			}
		}
	}
}

void
app_compare_run(struct app *a)
{
	const struct app_options *o = &a->opt;
	unsigned int nm = o->n_compare, rounds = o->rounds, i, r, w;
	struct phase *res[APP_MAX_COMPARE];
	json_t *jmodes = json_array();
	char err[256];
	bool done = true;

	printf("== compare: %u round%s x %u modes, %.2f s phases after %.2f s settle, "
	       "scope %s, %u worker%s%s\n", rounds, rounds == 1 ? "" : "s", nm,
	       o->duration_s, o->phase_warmup_s, ingress_scope_name(o->lock_scope),
	       a->n_workers, a->n_workers == 1 ? "" : "s",
	       o->update_rate > 0 ? ", rule churn on (paused in none)" : "");
	fflush(stdout);
	for (i = 0; i < nm; i++) {
		res[i] = calloc(rounds, sizeof(*res[i]));
		for (r = 0; res[i] != NULL && r < rounds; r++)
			res[i][r].lcore = calloc(a->n_workers, sizeof(struct stats_rate));
	}
	/* From here to the table, the phases own the mode (and the rules). */
	__atomic_store_n(&a->compare_running, true, __ATOMIC_RELEASE);
	for (r = 0; r < rounds && done; r++) {
		for (i = 0; i < nm && done; i++) {
			uint64_t mixed = 0;
			unsigned int tries = 0;

			do {
				if (mixed != 0)
					APP_LOG(WARNING, "--compare: round %u %s: %" PRIu64
						" packets counted in another mode: "
						"measuring the phase again", r + 1,
						ingress_mode_name(o->compare[i]), mixed);
				if (app_ingress_compare_mode(a, o->compare[i], err,
							     sizeof(err)) != 0) {
					fprintf(stderr, "pktpath: --compare: %s\n", err);
					done = false;
				} else if (!nap(a, o->phase_warmup_s) ||
					   !measure(a, &res[i][r], o->compare[i], &mixed)) {
					done = false;
				}
			} while (done && mixed != 0 && ++tries < 3);
			if (done && mixed != 0) {
				fprintf(stderr, "pktpath: --compare: round %u %s: the mode "
					"changed under the phase three times; no table\n",
					r + 1, ingress_mode_name(o->compare[i]));
				done = false;
			}
			if (!done)
				break;
			printf("  round %u %-7s %8.3f Mpps %8.2f ns/pkt %8.2f cycles/pkt\n",
			       r + 1, ingress_mode_name(o->compare[i]),
			       res[i][r].total.pps / 1e6, res[i][r].total.ns_per_pkt,
			       res[i][r].total.cycles_per_pkt);
			fflush(stdout);
		}
	}
	if (done) {
		for (i = 0; i < nm; i++) {
			json_t *per = json_array();

			for (r = 0; r < rounds; r++)
				json_array_append_new(per, json_real(res[i][r].total.pps / 1e6));
			json_array_append_new(jmodes, json_pack("{s:s, s:o, s:o, s:I, s:I}",
				"mode", ingress_mode_name(o->compare[i]),
				"rounds_mpps", per, "lcores", json_array(),
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
		print_table(a, res, rounds, -1, jmodes);
		for (w = 0; a->n_workers > 1 && w < a->n_workers; w++) {
			printf("\n");
			print_table(a, res, rounds, (int)w, jmodes);
		}
		a->compare = json_pack("{s:f, s:f, s:i, s:s, s:f, s:o}",
			"phase_s", o->duration_s, "settle_s", o->phase_warmup_s,
			"rounds", (int)rounds, "scope", ingress_scope_name(o->lock_scope),
			"update_rate", o->update_rate, "modes", jmodes);
	} else {
		json_decref(jmodes);
		printf("compare: interrupted, no table\n");
	}
	__atomic_store_n(&a->compare_running, false, __ATOMIC_RELEASE);
	fflush(stdout);
	for (i = 0; i < nm; i++) {
		for (r = 0; res[i] != NULL && r < rounds; r++)
			free(res[i][r].lcore);
		free(res[i]);
	}
}
