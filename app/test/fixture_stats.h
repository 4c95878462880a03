/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_FIXTURE_STATS_H
#define PKTPATH_TEST_FIXTURE_STATS_H

/*
 * The unit tests' shared fixture over lib/stats (test_stats.c and every
 * test_export_*.c): EAL without hugepages or PCI, a MIB set of NW workers
 * plus the control block filled by hand, and a stats object over it with a
 * one-hour interval, so that every snapshot is taken by stats_fold_now()
 * in the test. cmocka's assertions fail the test that calls these.
 */

#include <stdint.h>

#include "mib.h"
#include "stats.h"

#define NW 2
extern const unsigned int lcores[NW];	/* { 1, 2 } */
extern struct mib_set *set;
extern struct stats *st;

/*
 * cmocka group setup: EAL (--file-prefix the program's name), set and st,
 * then one fold of: worker 0 1000 packets of which 10 InHdrErrors, worker 1
 * 500 packets, the control block GracePeriods 3 and GracePeriodMaxUs 250.
 * 0, or -1.
 */
int fixture_stats_setup(void **state);
/* cmocka group teardown: stop and free st and set, EAL cleanup. */
int fixture_stats_teardown(void **state);

/* Worker w receives pkts UDP datagrams (hdrerr of them InHdrErrors). */
void fill(unsigned int w, uint64_t pkts, uint64_t hdrerr);

/* What every stats object of these tests has: NW workers on lcores over
 * ms, the lcore fold, interval, warm-up, inflight_max. */
void fixture_stats_conf(struct stats_conf *sc, struct mib_set *ms,
			double interval, double warmup, uint64_t inflight);

/* A stats object of its own over a fresh set of NW blocks (+ control),
 * started. */
struct stats *own_stats(struct mib_set **ms, double interval, double warmup,
			uint64_t inflight);
/* A run whose steady part is far shorter than one interval: own_stats()
 * with a 0.05 s warm-up, one fold past it, stopped (--duration equal to
 * --warmup gave such a one). */
struct stats *short_steady(struct mib_set **ms);
/* Free what own_stats() made. */
void own_stats_free(struct stats *s, struct mib_set *ms);

#endif
