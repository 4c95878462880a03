/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The registered sections (export_section.h) and the calls every writer
 * makes at each of its places: the writers (report.c, prom.c) call these,
 * these call the sections, and no section calls a writer back.
 */
#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "export_pvt.h"
#include "export_series.h"

/* The built-in sections, in the order of their parts at one place; then
 * those export_section_register() added. */
static const struct export_section *const builtin[] = {
	&__export_section_perf,	 &__export_section_stages, &__export_section_pmu,
	&__export_section_ports, &__export_section_series, &__export_section_pmu_stages,
};
static const struct export_section *added[EXPORT_SECTIONS_MAX - RTE_DIM(builtin)];
static unsigned int n_added;

static unsigned int
__n_sections(void)
{
	return RTE_DIM(builtin) + n_added;
}

static const struct export_section *
__section(unsigned int i)
{
	return i < RTE_DIM(builtin) ? builtin[i] : added[i - RTE_DIM(builtin)];
}

/* Whether at is one of the n places of an output (the callback set). */
static bool
__at_ok(const void *fn, enum export_at at, const enum export_at *places, unsigned int n)
{
	unsigned int i;

	if (fn == NULL)
		return true;
	for (i = 0; i < n; i++)
		if (places[i] == at)
			return true;
	return false;
}

int
export_section_register(const struct export_section *s)
{
	static const enum export_at interval[] = { EXPORT_AT_RATES, EXPORT_AT_END };
	static const enum export_at summary[] = { EXPORT_AT_DROPS, EXPORT_AT_FOLD,
						  EXPORT_AT_END };
	static const enum export_at json[] = { EXPORT_AT_MIB, EXPORT_AT_END };
	static const enum export_at prom[] = { EXPORT_AT_RATES, EXPORT_AT_MIB,
					       EXPORT_AT_END };
	unsigned int i;

	if (s == NULL || s->name == NULL ||
	    !__at_ok((const void *)s->interval, s->interval_at, interval,
		     RTE_DIM(interval)) ||
	    !__at_ok((const void *)s->summary, s->summary_at, summary,
		     RTE_DIM(summary)) ||
	    !__at_ok((const void *)s->json, s->json_at, json, RTE_DIM(json)) ||
	    !__at_ok((const void *)s->prom, s->prom_at, prom, RTE_DIM(prom)))
		return -EINVAL;
	for (i = 0; i < __n_sections(); i++)
		if (strcmp(__section(i)->name, s->name) == 0)
			return -EEXIST;
	if (n_added == RTE_DIM(added))
		return -ENOSPC;
	added[n_added++] = s;
	return 0;
}

int
export_section_unregister(const struct export_section *s)
{
	unsigned int i;

	for (i = 0; i < n_added; i++) {
		if (added[i] != s)
			continue;
		memmove(&added[i], &added[i + 1], (n_added - i - 1) * sizeof(added[0]));
		added[--n_added] = NULL;
		return 0;
	}
	return -ENOENT;
}

void
__export_sections_interval(FILE *out, const struct stats_snapshot *snap,
			   const struct stats_snapshot *prev, enum export_at at)
{
	unsigned int i;

	for (i = 0; i < __n_sections(); i++) {
		const struct export_section *sc = __section(i);

		if (sc->interval != NULL && sc->interval_at == at)
			sc->interval(out, snap, prev);
	}
}

void
__export_sections_summary(FILE *out, const struct stats_summary *sum,
			  const struct stats_snapshot *final, enum export_at at)
{
	unsigned int i;

	for (i = 0; i < __n_sections(); i++) {
		const struct export_section *sc = __section(i);

		if (sc->summary != NULL && sc->summary_at == at)
			sc->summary(out, sum, final);
	}
}

void
__export_sections_json_lcore(json_t *lcore, const struct stats_snapshot *snap,
			     unsigned int w)
{
	unsigned int i;

	for (i = 0; i < __n_sections(); i++) {
		const struct export_section *sc = __section(i);

		if (sc->json_lcore != NULL)
			sc->json_lcore(lcore, snap, w);
	}
}

void
__export_sections_json_summary(json_t *summary, const struct stats_summary *sum,
			       const struct stats_snapshot *snap)
{
	unsigned int i;

	for (i = 0; i < __n_sections(); i++) {
		const struct export_section *sc = __section(i);

		if (sc->json_summary != NULL)
			sc->json_summary(summary, sum, snap);
	}
}

void
__export_sections_json(json_t *root, const struct stats_snapshot *snap, enum export_at at)
{
	unsigned int i;

	for (i = 0; i < __n_sections(); i++) {
		const struct export_section *sc = __section(i);

		if (sc->json != NULL && sc->json_at == at)
			sc->json(root, snap);
	}
}

void
__export_sections_prom(FILE *out, const struct stats_snapshot *snap,
		       const struct export_prom_opts *o, enum export_at at)
{
	unsigned int i;

	for (i = 0; i < __n_sections(); i++) {
		const struct export_section *sc = __section(i);

		if (sc->prom != NULL && sc->prom_at == at)
			sc->prom(out, snap, o);
	}
}

void
__export_sections_snmp(FILE *out, const struct stats_snapshot *snap,
		       enum export_snmp_file which)
{
	unsigned int i;

	for (i = 0; i < __n_sections(); i++) {
		const struct export_section *sc = __section(i);

		if (sc->snmp != NULL)
			sc->snmp(out, snap, which);
	}
}

int
export_history_add(json_t *root, const struct export_history *h)
{
	struct export_history c;
	struct stats_series *se;
	unsigned int i;

	if (root == NULL || h == NULL || h->se == NULL)
		return -EINVAL;
	/* The sections read a copy: rendering an endless run's window
	 * takes long, and the stats thread adds its points meanwhile. */
	se = stats_series_copy(h->se);
	if (se == NULL)
		return -ENOMEM;
	c = *h;
	c.se = se;
	for (i = 0; i < __n_sections(); i++) {
		const struct export_section *sc = __section(i);

		if (sc->history != NULL)
			sc->history(root, &c);
	}
	stats_series_free(se);
	return 0;
}
