/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_WORKER_PVT_H
#define PKTPATH_WORKER_PVT_H

/*
 * What the two units of the receive loop share (worker.c: the default
 * variants; worker_instr.c, the same file again: the instrumented ones and
 * the staged bursts of --stage-cycles).
 */

#include <stdbool.h>
#include <stdint.h>

#include "app.h"

/* The loop variants (worker.c: the default ones, worker_instr.c: the
 * instrumented ones), indexed [gen] and [gen][prefetch][hook][peer]
 * [capture]; and the app whose run flag they poll. */
typedef void (*app_loop_fn)(struct app_worker *w);
extern const app_loop_fn app_loops_rxonly_0[2], app_loops_rxonly_1[2];
extern const app_loop_fn app_loops_full_0[2][2][2][2][2];
extern const app_loop_fn app_loops_full_1[2][2][2][2][2];
extern struct app *app_worker_app;

/* The staged burst (stage.h) for a loop's flags (rx-only's if !full);
 * worker_instr.c. */
app_stage_burst_fn app_stage_burst(bool gen, bool full, bool prefetch, bool hook,
				   bool peer, bool cap);

#endif
