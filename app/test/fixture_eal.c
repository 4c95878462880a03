/* SPDX-License-Identifier: BSD-3-Clause */
/* The unit tests' plain EAL (fixture_eal.h). */
#include <errno.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "fixture_eal.h"

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
	if (rte_eal_init((int)RTE_DIM(argv) - 1, argv) < 0) {
		fprintf(stderr, "%s: rte_eal_init: %s\n", prog,
			rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

int
fixture_eal_teardown(void **state)
{
	(void)state;
	rte_eal_cleanup();
	return 0;
}
