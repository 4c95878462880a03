/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --perf-detail on the application side: each worker's block (allocated
 * here, page-aligned on its socket, as the MIB blocks are), and the
 * suspicious polls the workers record, drained by the stats thread at
 * each of its folds, by the control loop every 5 ms (so a long --interval
 * does not hold them back) and by the main thread once the workers
 * stopped: logged, rate-limited, and kept for the JSON. The workers never
 * log.
 *
 * Rate limit: a token bucket of APP_PERF_LOG_BURST lines refilled at
 * APP_PERF_LOG_RATE lines a second, over all lcores; an event it refuses
 * is counted, and the next line logged says how many were not. The JSON
 * keeps the first APP_PERF_KEEP events (all of them, logged or not).
 */
#include <inttypes.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "app.h"
#include "perf_log.h"

#define APP_PERF_LOG_BURST 10
#define APP_PERF_LOG_RATE 10
#define APP_PERF_KEEP 64

struct app_perf_log {
	pthread_mutex_t lock;	/* the stats thread, the control loop, the main thread drain */
	uint64_t *cursor;	/* n_workers: events read of each */
	uint64_t events;	/* read */
	uint64_t logged;
	uint64_t unlogged;	/* refused by the rate limit */
	uint64_t unlogged_line;	/* of them since the last line */
	uint64_t lost;		/* overwritten before they were read */
	double tokens;
	uint64_t last_tsc;
	json_t *kept;		/* the first APP_PERF_KEEP events */
};

int
app_perf_setup(struct app *a)
{
	uint64_t thr = (uint64_t)a->opt.suspicious_us * rte_get_tsc_hz() / 1000000;
	unsigned int i;

	if (!a->opt.perf_detail)
		return 0;
	a->perf = calloc(a->n_workers, sizeof(*a->perf));
	a->perf_log = calloc(1, sizeof(*a->perf_log));
	if (a->perf == NULL || a->perf_log == NULL)
		return -1;
	a->perf_log->cursor = calloc(a->n_workers, sizeof(uint64_t));
	a->perf_log->kept = json_array();
	if (a->perf_log->cursor == NULL || a->perf_log->kept == NULL)
		return -1;
	pthread_mutex_init(&a->perf_log->lock, NULL);
	a->perf_log->tokens = APP_PERF_LOG_BURST;
	a->perf_log->last_tsc = rte_rdtsc();
	for (i = 0; i < a->n_workers; i++) {
		/* Page-aligned, on the worker's socket: nothing else shares
		 * its lines (the MIB blocks' rule). */
		a->perf[i] = rte_zmalloc_socket("perf_detail", sizeof(struct stats_perf),
						4096, a->workers[i].socket);
		if (a->perf[i] == NULL)
			return -1;
		/* a poll of 0 cycles never is suspicious: 0 disables */
		a->perf[i]->threshold = a->opt.suspicious_us ? RTE_MAX(thr, (uint64_t)1) : 0;
		a->workers[i].perf = a->perf[i];
		a->workers[i].perf_detail = true;
	}
	return 0;
}

void
app_perf_free(struct app *a)
{
	unsigned int i;

	if (a->perf != NULL)
		for (i = 0; i < a->n_workers; i++)
			rte_free(a->perf[i]);
	free(a->perf);
	a->perf = NULL;
	if (a->perf_log != NULL) {
		free(a->perf_log->cursor);
		json_decref(a->perf_log->kept);
		pthread_mutex_destroy(&a->perf_log->lock);
		free(a->perf_log);
		a->perf_log = NULL;
	}
}

static bool
__take_token(struct app_perf_log *l)
{
	uint64_t now = rte_rdtsc(), hz = rte_get_tsc_hz();

	l->tokens += (double)(now - l->last_tsc) * APP_PERF_LOG_RATE / (double)hz;
	if (l->tokens > APP_PERF_LOG_BURST)
		l->tokens = APP_PERF_LOG_BURST;
	l->last_tsc = now;
	if (l->tokens < 1)
		return false;
	l->tokens -= 1;
	return true;
}

void
app_perf_drain(struct app *a)
{
	struct app_perf_log *l = a->perf_log;
	struct stats_perf_event ev[STATS_PERF_EVENTS];
	uint64_t hz = rte_get_tsc_hz();
	unsigned int w, n, i;

	if (l == NULL)
		return;
	pthread_mutex_lock(&l->lock);
	for (w = 0; w < a->n_workers; w++) {
		n = stats_perf_drain(a->perf[w], &l->cursor[w], ev, RTE_DIM(ev),
				     &l->lost);
		for (i = 0; i < n; i++) {
			const char *mode = ev[i].mode == STATS_PERF_NO_MODE ? "off (no hook)" :
				ingress_mode_name((enum ingress_mode)ev[i].mode);
			char act[160], line[512];
			double up = (double)(ev[i].tsc - a->perf_start_tsc) / (double)hz;

			if (a->ig != NULL)
				ingress_activity_describe(ev[i].ctl_start, ev[i].ctl_end,
							  act, sizeof(act));
			else
				snprintf(act, sizeof(act), "none (no ingress hook)");
			l->events++;
			if (json_array_size(l->kept) < APP_PERF_KEEP)
				json_array_append_new(l->kept, export_perf_event_json(
					&ev[i], a->lcore_ids[w], hz, up, mode, act));
			if (!__take_token(l)) {
				l->unlogged++;
				l->unlogged_line++;
				continue;
			}
			export_perf_event_line(line, sizeof(line), &ev[i],
					       a->lcore_ids[w], hz, mode, act);
			if (l->unlogged_line)
				APP_LOG(WARNING, "%s (%" PRIu64 " not logged before it: "
					"rate limit)", line, l->unlogged_line);
			else
				APP_LOG(WARNING, "%s", line);
			l->unlogged_line = 0;
			l->logged++;
		}
	}
	pthread_mutex_unlock(&l->lock);
}

json_t *
app_perf_json(struct app *a)
{
	struct app_perf_log *l = a->perf_log;
	json_t *o;

	if (l == NULL)
		return json_null();
	pthread_mutex_lock(&l->lock);
	o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:O}",
		"threshold_us", (json_int_t)a->opt.suspicious_us,
		"events", (json_int_t)l->events, "logged", (json_int_t)l->logged,
		"not_logged", (json_int_t)l->unlogged, "lost", (json_int_t)l->lost,
		"kept", l->kept);
	pthread_mutex_unlock(&l->lock);
	return o;
}

void
app_perf_report(struct app *a, uint64_t suspicious, FILE *out)
{
	struct app_perf_log *l = a->perf_log;

	if (l == NULL)
		return;
	pthread_mutex_lock(&l->lock);
	if (a->opt.suspicious_us == 0)
		fprintf(out, "suspicious polls: not looked for (--suspicious-us 0)\n");
	else
		fprintf(out, "suspicious polls (> %u us): %" PRIu64 " (Rx SuspiciousPolls, "
			"since the last clear), %" PRIu64 " events (a window of %u "
			"polls each way), %" PRIu64 " logged, %" PRIu64 " not (rate "
			"limit), %" PRIu64 " lost\n", a->opt.suspicious_us, suspicious,
			l->events, STATS_PERF_WINDOW, l->logged, l->unlogged, l->lost);
	pthread_mutex_unlock(&l->lock);
}
