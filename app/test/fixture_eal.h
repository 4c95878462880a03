/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_FIXTURE_EAL_H
#define PKTPATH_TEST_FIXTURE_EAL_H

/*
 * The EAL of the unit tests that need nothing else from their group set-up
 * (test_bench.c, test_peer.c): no hugepages, no PCI, no shared config,
 * lcores 0-1, 256 MB, --file-prefix the program's name. Where the EAL
 * cannot start, the program still runs: fixture_eal_ok is false, and each
 * test that needs the EAL skips.
 */

#include <stdbool.h>

/* rte_eal_init() succeeded (fixture_eal_setup()). */
extern bool fixture_eal_ok;

/* cmocka group set-up: the EAL as above; always 0 (a failure is said on
 * stderr, and fixture_eal_ok is false). */
int fixture_eal_setup(void **state);
/* cmocka group tear-down: rte_eal_cleanup() if it started. 0. */
int fixture_eal_teardown(void **state);

#endif /* PKTPATH_TEST_FIXTURE_EAL_H */
