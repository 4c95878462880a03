/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit test of --stage-cycles' accounting (app/pktpath/stage.h), no EAL:
 * a poll's stage cycles join the Stage group at its end unless the poll
 * was lost (longer than --stall-us), whatever each stage took, so that
 * the stages never hold cycles that busy does not; packets and calls
 * count either way.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stage.h"

#define CYC(s) (acc.v[(s) * MIB_STAGE_K_MAX + MIB_STAGE_K_CYCLES])
#define PKTS(s) (acc.v[(s) * MIB_STAGE_K_MAX + MIB_STAGE_K_PACKETS])
#define CALLS(s) (acc.v[(s) * MIB_STAGE_K_MAX + MIB_STAGE_K_CALLS])

static struct app_stage_acc acc;

/* One poll: rx then ip marked, their begin 1000 cycles back each. */
static void
__stage_poll(bool lost)
{
	uint64_t t = rte_rdtsc() - 1000;

	app_stage_mark(&acc, MIB_STAGE_RX, &t, 32);
	t -= 1000;
	app_stage_mark(&acc, MIB_STAGE_IP, &t, 30);
	app_stage_poll_end(&acc, lost);
}

static void
test_lost_poll(void **state)
{
	unsigned int s;

	(void)state;
	memset(&acc, 0, sizeof(acc));
	/* a lost poll whose stages were each short: no cycles */
	__stage_poll(true);
	for (s = 0; s < MIB_STAGES; s++)
		assert_int_equal(CYC(s), 0);
	assert_int_equal(PKTS(MIB_STAGE_RX), 32);
	assert_int_equal(CALLS(MIB_STAGE_IP), 1);
	/* a poll that was not: its cycles, at least the 1000 each took */
	__stage_poll(false);
	assert_true(CYC(MIB_STAGE_RX) >= 1000);
	assert_true(CYC(MIB_STAGE_IP) >= 1000);
	assert_int_equal(CYC(MIB_STAGE_L2), 0);
	assert_int_equal(PKTS(MIB_STAGE_IP), 60);
	assert_int_equal(CALLS(MIB_STAGE_RX), 2);
	/* nothing of a poll carries into the next */
	for (s = 0; s < MIB_STAGES; s++)
		assert_int_equal(acc.poll[s], 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lost_poll),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
