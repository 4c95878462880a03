/* SPDX-License-Identifier: BSD-3-Clause */
/* The unit tests' plain EAL (fixture_eal.h). */
#include <errno.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "fixture_eal.h"

bool fixture_eal_ok;

int
fixture_eal_setup(void **state)
{
	char *prog = program_invocation_short_name;
	char *argv[] = {
		prog, "--no-huge", "--no-shconf", "-m", "256",
		"--no-pci", "--file-prefix", prog, "-l", "0-1",
		"--log-level", "lib.eal:error", NULL,
	};

	(void)state;
	fixture_eal_ok = rte_eal_init((int)RTE_DIM(argv) - 1, argv) >= 0;
	if (!fixture_eal_ok)
		fprintf(stderr, "%s: rte_eal_init failed; EAL tests skipped\n", prog);
	return 0;
}

int
fixture_eal_teardown(void **state)
{
	(void)state;
	if (fixture_eal_ok)
		rte_eal_cleanup();
	return 0;
}
