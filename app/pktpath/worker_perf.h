/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_WORKER_PERF_H
#define PKTPATH_WORKER_PERF_H

/*
 * --perf-detail in the worker's loop (worker.c, LOOP_PERF): what a poll
 * and an ingress stage add to the worker's struct stats_perf (the
 * histograms, the history of its last polls, the suspicious check:
 * lib/stats/stats_hist.h). Plain single-writer stores, no locked
 * instruction; without --perf-detail a test a poll skips it.
 */

#include <rte_common.h>

#include "app.h"
#include "stats_hist.h"

/* A poll of the worker ended at tsc after cycles cycles, with n packets,
 * counted in ingress mode mode (hook loops), lost (longer than --stall-us)
 * or not: its histograms, history and suspicious check; a suspicious one counts in Rx SuspiciousPolls. The
 * control activity word is read once per poll (hook loops): one relaxed
 * load of a line that only control operations write. */
static __rte_always_inline void
__perf_poll(struct app_worker *w, struct mib_block *mib, uint64_t cycles,
	    uint16_t n, unsigned int mode, const bool hook, uint64_t tsc, bool lost)
{
	uint64_t ctl = hook ? ingress_activity(w->ig) : 0;

	if (unlikely(stats_perf_poll(w->perf, cycles, n,
				     hook ? mode : STATS_PERF_NO_MODE, ctl, tsc, lost)))
		mib_inc(mib, MIB_F(RX, SUSPICIOUSPOLLS));
}

/* The ingress stage of one burst took cycles. */
static __rte_always_inline void
__perf_ingress(struct app_worker *w, uint64_t cycles)
{
	stats_hist_add(&w->perf->h[STATS_PERF_INGRESS_CYCLES], cycles);
}

#endif
