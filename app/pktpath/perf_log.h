/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_PERF_LOG_H
#define PKTPATH_PERF_LOG_H

/* --perf-detail, the application's side (perf_log.c). */

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

struct app;

/* Allocate each worker's block (after the workers are set up); -1 out of
 * memory. Nothing without --perf-detail. */
int app_perf_setup(struct app *a);
void app_perf_free(struct app *a);
/* Read, log (rate-limited) and keep the workers' new suspicious polls: the
 * stats thread at each fold, the control loop every 5 ms, the main thread
 * once the workers stopped (serialised by the log's mutex). */
void app_perf_drain(struct app *a);
/* "suspicious": the threshold, the counts, the first events kept. */
json_t *app_perf_json(struct app *a);
/* The summary's line. */
void app_perf_report(struct app *a, uint64_t suspicious, FILE *out);

#endif
