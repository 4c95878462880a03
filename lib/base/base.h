/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_BASE_H
#define PKTPATH_BASE_H

/**
 * @file
 * What every library may use, lib/bench included: functions of plain values
 * that more than one library needs and no layer owns. No state, no
 * allocation, no DPDK: libc only, so that lib/bench, which stands apart from
 * the layers (app -> export -> stats -> ingress -> path -> pkt -> mib), can
 * depend on it as the layers do, and nothing here can reach up into them.
 *
 *  - Enum names: each enum's name table stands next to its enum, in its
 *    library's header (mib_fold_names[], ingress_mode_names[], ...), and
 *    every parse() of a name is base_name_index() over that table; the
 *    option parser reads the same tables for its choices.
 *  - Figures over repetitions: base_median(), the min/median/max that
 *    lib/bench reports for its repetitions and --compare for its rounds;
 *    base_quantile(), the p99 of the fold times the stats report.
 *
 * Thread-safety: every function is safe from any thread (they touch only
 * their arguments).
 */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The index of s in names[0 .. n-1] (exact, case-sensitive match; NULL
 * entries never match), or -1 when s is NULL or none matches.
 */
int base_name_index(const char *const *names, unsigned int n, const char *s);

/**
 * The median of n values (the mean of the middle two when n is even; 0 when
 * n is 0). Sorts v in place; min and max (may be NULL) get the extremes (0
 * when n is 0).
 */
double base_median(double *v, unsigned int n, double *min, double *max);

/**
 * The q-quantile (0 < q <= 1) of n values by the nearest-rank method (the
 * smallest value with at least q * n values at or below it; 0 when n is 0).
 * Sorts v in place.
 */
double base_quantile(double *v, unsigned int n, double q);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_BASE_H */
