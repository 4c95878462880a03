/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STATS_PVT_H
#define PKTPATH_STATS_PVT_H

/* Internals of lib/stats; not for other modules. */

#include <pthread.h>
#include <stdbool.h>

#include "stats.h"

struct stats {
	struct stats_conf conf;
	unsigned int n_blocks;
	uint64_t hz;
	uint64_t start_tsc;

	pthread_t tid;
	bool thread_running;
	bool stop;			/* under wait_lock */
	pthread_mutex_t wait_lock;
	pthread_cond_t wait_cond;

	pthread_mutex_t fold_lock;	/* one fold at a time */
	pthread_mutex_t lock;		/* snapshots, refcounts, baseline */
	struct stats_snapshot *latest;
	struct stats_snapshot *first;	/* at stats_start() */
	struct stats_snapshot *warm;	/* first one past the warm-up */
	struct stats_snapshot *final;	/* at stats_stop() */
	uint64_t *base_totals;		/* raw values at the last clear */
	uint64_t *base_per_block;
	uint64_t clears;
	uint64_t folds;
	double fold_ns_sum;
	double fold_ns_max;
};

#endif
