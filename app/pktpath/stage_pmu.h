/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STAGE_PMU_H
#define PKTPATH_STAGE_PMU_H

/*
 * --pmu with --stage-cycles, the worker's side: each stage's events (VPP
 * perfmon's per-node view), from the worker's own --pmu group
 * (stats_worker_clock.group) read at the poll's begin and at each stage
 * mark (stage.h) with stats_pmu_self_read(): rdpmc where every event's
 * page allows it, else read(2) (software events: a system call per read).
 * A stage's events are the group's growth from the read before it to the
 * one at its end, raw (counted while the group ran: the stats thread
 * scales them as it scales the interval's, stats_pmu_stage_between()).
 * What falls between a poll's last mark and the next poll's begin (the
 * top of the loop) and an empty poll count in no stage; a read's own cost
 * falls in the stage it delimits (part before its value is taken, part
 * after) but not in the stage's cycles (the marks take the TSC around it).
 *
 * Like the stage cycles, a poll's events join the accumulator at the
 * poll's end unless the poll was lost, and are stored for the stats
 * thread with the Rx counters' flush. A reading that failed (known false)
 * counts nothing in the stage it ends, nor in the one it would begin.
 *
 * Thread-safety: the worker's own (one writer); app_stage_pmu_flush()
 * stores with relaxed atomics for the stats thread's loads.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>

#include "mib.h"
#include "stats_pmu.h"

struct app_stage_pmu {
	/* since the worker began: each stage's events, the lost polls' out */
	uint64_t v[MIB_STAGES][STATS_PMU_MAX];
	/* the poll under way's, stage by stage */
	uint64_t poll[MIB_STAGES][STATS_PMU_MAX];
	struct stats_pmu_count last; /* the read before the next stage */
};

/* The poll begins: the reading c (known false: unread) opens its first
 * stage. */
static __rte_always_inline void
app_stage_pmu_begin(struct app_stage_pmu *s, const struct stats_pmu_count *c)
{
	s->last = *c;
}

/* Stage stage ends at the reading c: its events are c less the last. */
static __rte_always_inline void
app_stage_pmu_note(struct app_stage_pmu *s, unsigned int stage,
		   const struct stats_pmu_count *c)
{
	unsigned int k;

	if (c->known && s->last.known && c->n == s->last.n)
		for (k = 0; k < c->n; k++)
			s->poll[stage][k] += c->v[k] - s->last.v[k];
	s->last = *c;
}

/* Read g (the worker's own group) and end stage stage there; stage
 * MIB_STAGES: the poll's begin. Out of line (stage_pmu.c): inlined in
 * worker.c it changed gcc's inlining of the path into the other loop
 * variants, the default's included. */
void app_stage_pmu_read(struct app_stage_pmu *s, const struct stats_pmu_group *g,
			unsigned int stage);

/* The poll has ended: its events count unless it was lost. */
static __rte_always_inline void
app_stage_pmu_poll_end(struct app_stage_pmu *s, bool lost)
{
	unsigned int st, k;

	if (!lost)
		for (st = 0; st < MIB_STAGES; st++)
			for (k = 0; k < STATS_PMU_MAX; k++)
				s->v[st][k] += s->poll[st][k];
	memset(s->poll, 0, sizeof(s->poll));
}

/* Store the totals where the stats thread loads them (out: the worker's
 * stats_worker_clock.stage_pmu). */
static inline void
app_stage_pmu_flush(const struct app_stage_pmu *s, uint64_t (*out)[STATS_PMU_MAX])
{
	unsigned int st, k;

	for (st = 0; st < MIB_STAGES; st++)
		for (k = 0; k < STATS_PMU_MAX; k++)
			__atomic_store_n(&out[st][k], s->v[st][k], __ATOMIC_RELAXED);
}

#endif
