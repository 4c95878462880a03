/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The log type pktpath.stats (STATS_LOG in stats_pvt.h), below every file
 * of lib/stats that logs: the stats thread (stats.c) and what it calls
 * (port.c, lost.c, pmu_fold.c) share it without using each other.
 */
#include <rte_log.h>

#include "stats_pvt.h"

RTE_LOG_REGISTER(stats_logtype, pktpath.stats, INFO);
