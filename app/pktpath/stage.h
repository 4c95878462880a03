/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STAGE_H
#define PKTPATH_STAGE_H

/*
 * --stage-cycles, the worker's side: a burst's cycles split by stage (the
 * MIB's Stage group), kept in the worker's own accumulator and flushed into
 * its block with the Rx counters (every APP_FLUSH_POLLS polls and at the
 * end of the loop): plain adds, no locked instruction, no store per burst.
 *
 * A burst is processed stage by stage over all its packets (VPP's vector
 * style) and the TSC is read once between two stages: app_stage_mark() ends
 * the stage that began at *t, charges it the cycles since, the packets
 * that entered it and one call, and begins the next at the same read. The
 * first stage (rx) begins at the poll's own TSC read, so a burst's stages
 * add up to the cycles from that read to the last mark, which the poll's
 * busy cycles (to the next poll's read) contain: the difference is the top
 * of the loop (the run flag, the quiescent report, the TSC read itself).
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "mib.h"

struct app_stage_acc {
	uint64_t v[MIB_STAGE_MAX];	/* the Stage group's layout */
	/* The cycles of the poll under way, stage by stage: they join v at
	 * the poll's end unless the poll was lost (longer than --stall-us:
	 * it spans time the worker did not run, and __poll_end() counts none
	 * of its cycles as work), so that the stages never hold cycles that
	 * busy does not. */
	uint64_t poll[MIB_STAGES];
};

static __rte_always_inline void
app_stage_mark(struct app_stage_acc *s, unsigned int stage, uint64_t *t, unsigned int pkts)
{
	uint64_t now = rte_rdtsc();
	uint64_t *v = &s->v[stage * MIB_STAGE_K_MAX];

	s->poll[stage] += now - *t;
	v[MIB_STAGE_K_PACKETS] += pkts;
	v[MIB_STAGE_K_CALLS]++;
	*t = now;
}

/* The poll whose stages were marked has ended: its stage cycles count,
 * unless it was lost. */
static __rte_always_inline void
app_stage_poll_end(struct app_stage_acc *s, bool lost)
{
	unsigned int i;

	for (i = 0; i < MIB_STAGES; i++) {
		if (!lost)
			s->v[i * MIB_STAGE_K_MAX + MIB_STAGE_K_CYCLES] += s->poll[i];
		s->poll[i] = 0;
	}
}

/* Into the worker's block (its own: plain adds), then zero. */
static inline void
app_stage_flush(struct mib_block *mib, struct app_stage_acc *s)
{
	unsigned int i;

	for (i = 0; i < MIB_STAGE_MAX; i++)
		if (s->v[i] != 0)
			mib_add(mib, MIB_BASE_STAGE + i, s->v[i]);
	memset(s->v, 0, sizeof(s->v));
}

#endif
