/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --pmu with --stage-cycles: a stage mark's read of the worker's group
 * (stage_pmu.h).
 */
#include "stage_pmu.h"

void
app_stage_pmu_read(struct app_stage_pmu *s, const struct stats_pmu_group *g,
		   unsigned int stage)
{
	struct stats_pmu_count c;

	if (stats_pmu_self_read(g, &c) != 0)
		c.known = false;
	if (stage < MIB_STAGES)
		app_stage_pmu_note(s, stage, &c);
	else
		app_stage_pmu_begin(s, &c);
}
