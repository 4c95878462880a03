/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The samplers the stats thread reads beside the MIB blocks (stats_pvt.h,
 * struct stats_sampler): the list, and each step of a fold or a clear
 * over all of them. stats.c calls these; these call the samplers; no
 * sampler calls stats.c back.
 */
#include <string.h>

#include <rte_common.h>

#include "stats_pvt.h"

/* In the order of their steps: the ports first (their RxPackets come from
 * the fold just made), then the workers' threads. */
static const struct stats_sampler *const samplers[] = {
	&__stats_sampler_ports,
	&__stats_sampler_threads,
};

int
__stats_samplers_init(struct stats *s)
{
	unsigned int i;
	int rc;

	for (i = 0; i < RTE_DIM(samplers); i++) {
		if (samplers[i]->init == NULL)
			continue;
		rc = samplers[i]->init(s);
		if (rc != 0) {
			STATS_LOG(DEBUG, "sampler %s: %s", samplers[i]->name,
				  strerror(-rc));
			return rc;
		}
	}
	return 0;
}

void
__stats_samplers_free(struct stats *s)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(samplers); i++)
		if (samplers[i]->free != NULL)
			samplers[i]->free(s);
}

int
__stats_samplers_snap_alloc(const struct stats *s, struct stats_snapshot *p)
{
	unsigned int i;
	int rc;

	for (i = 0; i < RTE_DIM(samplers); i++) {
		if (samplers[i]->snap_alloc == NULL)
			continue;
		rc = samplers[i]->snap_alloc(s, p);
		if (rc != 0)
			return rc;
	}
	return 0;
}

void
__stats_samplers_snap_free(struct stats_snapshot *p)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(samplers); i++)
		if (samplers[i]->snap_free != NULL)
			samplers[i]->snap_free(p);
}

static bool
__on_read(const struct stats_sampler *sp, const struct stats *s)
{
	return sp->on_read != NULL && sp->on_read(s);
}

void
__stats_samplers_sample(struct stats *s, struct stats_snapshot *p, bool read)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(samplers); i++)
		if (samplers[i]->sample != NULL && (!read || __on_read(samplers[i], s)))
			samplers[i]->sample(s, p);
}

bool
__stats_samplers_on_read(const struct stats *s)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(samplers); i++)
		if (__on_read(samplers[i], s))
			return true;
	return false;
}

void
__stats_samplers_rebase(struct stats *s, struct stats_snapshot *p)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(samplers); i++)
		if (samplers[i]->rebase != NULL)
			samplers[i]->rebase(s, p);
}

void
__stats_samplers_clear(struct stats *s, const struct stats_snapshot *p)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(samplers); i++)
		if (samplers[i]->clear != NULL)
			samplers[i]->clear(s, p);
}
