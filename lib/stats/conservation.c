/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The conservation verdict of a snapshot: the MIB laws on its raw totals,
 * exact on the final snapshot and within inflight_max packets on a live
 * one, then the port boundary (port.c). What the summary's
 * "conservation:" line and the JSON "conservation" object say.
 */
#include <inttypes.h>
#include <stdio.h>

#include "stats.h"
#include "stats_pvt.h"

unsigned int
stats_laws(const struct stats_snapshot *snap, struct mib_law laws[MIB_N_LAWS],
	   char *why, size_t len)
{
	uint64_t tol = stats_tolerance(snap);
	unsigned int i, broken = 0;

	mib_conservation_eval(snap->raw_totals, laws);
	if (len > 0)
		why[0] = '\0';
	for (i = 0; i < MIB_N_LAWS; i++) {
		uint64_t d = laws[i].lhs > laws[i].rhs ? laws[i].lhs - laws[i].rhs :
			     laws[i].rhs - laws[i].lhs;

		if (d <= tol)
			continue;
		if (broken++ == 0)
			snprintf(why, len, "%s %" PRIu64 " != %s %" PRIu64 "%s",
				 laws[i].lhs_name, laws[i].lhs, laws[i].rhs_name,
				 laws[i].rhs, tol ? " (beyond what is in flight)" : "");
	}
	return broken;
}

int
stats_conservation(const struct stats_snapshot *snap, char *line, size_t len)
{
	struct mib_law laws[MIB_N_LAWS];
	char why[256], ports[768];
	uint64_t drops = 0;
	int prc;

	prc = snap->n_ports > 0 ?
		stats_port_check(snap, ports, sizeof(ports), &drops) : 0;
	/* Every MIB law, on raw totals (a clear's baseline may cut through a
	 * burst), within what may be in flight on a live snapshot. */
	if (stats_laws(snap, laws, why, sizeof(why)) != 0) {
		snprintf(line, len, "BROKEN: %s%s%s", why,
			 prc == 0 && drops > 0 ? "; " : "",
			 prc == 0 && drops > 0 ? ports : "");
		return -1;
	}
	if (prc != 0) {
		snprintf(line, len, "BROKEN: %s", ports);
		return -1;
	}
	if (snap->n_ports > 0)
		snprintf(line, len, "ok; %s", ports);
	else
		snprintf(line, len, "ok");
	return 0;
}
