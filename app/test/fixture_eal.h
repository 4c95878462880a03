/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_FIXTURE_EAL_H
#define PKTPATH_TEST_FIXTURE_EAL_H

/*
 * The EAL of the unit tests that need nothing else from their group set-up
 * (test_bench.c, test_peer.c): no hugepages, no PCI, no shared config,
 * lcores 0-1, 256 MB, --file-prefix the program's name. An EAL that
 * cannot start fails the group: setup.sh gives a machine where it starts,
 * so a test that skipped instead would pass without testing anything.
 */

/* cmocka group set-up: the EAL as above. 0, or -1 with rte_eal_init()'s
 * error on stderr (cmocka then fails every test of the group). */
int fixture_eal_setup(void **state);
/* cmocka group tear-down: rte_eal_cleanup(). 0. */
int fixture_eal_teardown(void **state);

#endif /* PKTPATH_TEST_FIXTURE_EAL_H */
