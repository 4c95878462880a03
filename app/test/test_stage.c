/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit test of --stage-cycles' accounting (app/pktpath/stage.h), no EAL:
 * a poll's stage cycles join the Stage group at its end unless the poll
 * was lost (longer than --stall-us), whatever each stage took, so that
 * the stages never hold cycles that busy does not; packets and calls
 * count either way. And of its events under --pmu (stage_pmu.h), with
 * made-up readings of a group: a lost poll drops them too, and the
 * stages' events add up to the group's growth less what fell between a
 * poll's last mark and the next poll's begin, and less the stages a
 * failed read ended or began.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stage.h"
#include "stage_pmu.h"

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

static struct app_stage_pmu spmu;

/* A reading of a made-up group of n events, each at v[k]. */
static struct stats_pmu_count
__count(unsigned int n, const uint64_t *v, bool known)
{
	struct stats_pmu_count c;
	unsigned int k;

	memset(&c, 0, sizeof(c));
	c.n = (uint8_t)n;
	c.known = known;
	for (k = 0; k < n; k++)
		c.v[k] = v[k];
	return c;
}

static void
test_pmu_lost_poll(void **state)
{
	uint64_t v[2] = { 100, 7 };
	struct stats_pmu_count c;
	unsigned int st, k;

	(void)state;
	memset(&spmu, 0, sizeof(spmu));
	/* a lost poll: rx and ip each counted, none of it kept */
	c = __count(2, v, true);
	app_stage_pmu_begin(&spmu, &c);
	v[0] += 40, v[1] += 1;
	c = __count(2, v, true);
	app_stage_pmu_note(&spmu, MIB_STAGE_RX, &c);
	v[0] += 60, v[1] += 2;
	c = __count(2, v, true);
	app_stage_pmu_note(&spmu, MIB_STAGE_IP, &c);
	app_stage_pmu_poll_end(&spmu, true);
	for (st = 0; st < MIB_STAGES; st++)
		for (k = 0; k < STATS_PMU_MAX; k++)
			assert_int_equal(spmu.v[st][k], 0);
	/* the same poll not lost: kept, stage by stage */
	v[0] += 5; /* the top of the loop: no stage's */
	c = __count(2, v, true);
	app_stage_pmu_begin(&spmu, &c);
	v[0] += 40, v[1] += 1;
	c = __count(2, v, true);
	app_stage_pmu_note(&spmu, MIB_STAGE_RX, &c);
	v[0] += 60, v[1] += 2;
	c = __count(2, v, true);
	app_stage_pmu_note(&spmu, MIB_STAGE_IP, &c);
	app_stage_pmu_poll_end(&spmu, false);
	assert_int_equal(spmu.v[MIB_STAGE_RX][0], 40);
	assert_int_equal(spmu.v[MIB_STAGE_RX][1], 1);
	assert_int_equal(spmu.v[MIB_STAGE_IP][0], 60);
	assert_int_equal(spmu.v[MIB_STAGE_IP][1], 2);
	assert_int_equal(spmu.v[MIB_STAGE_L2][0], 0);
	for (st = 0; st < MIB_STAGES; st++)
		for (k = 0; k < STATS_PMU_MAX; k++)
			assert_int_equal(spmu.poll[st][k], 0);
}

/* A pseudo-random sequence (no libc rand state shared with anything). */
static uint64_t
__next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * Generated runs: polls of random stages (in the burst's order, some
 * skipped as a loop variant skips them), each stage and each gap between
 * polls growing every event by random amounts, some polls lost, some reads
 * failed. The stages' events must be the group's growth less the gaps,
 * the lost polls' stages and the stages a failed read ended or began; and
 * the flush must store exactly the totals.
 */
static void
test_pmu_sum(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned int run;

	(void)state;
	for (run = 0; run < 200; run++) {
		unsigned int n = 1 + (unsigned int)(__next(&x) % STATS_PMU_MAX);
		uint64_t v[STATS_PMU_MAX], want[MIB_STAGES][STATS_PMU_MAX];
		uint64_t out[MIB_STAGES][STATS_PMU_MAX];
		unsigned int polls = 1 + (unsigned int)(__next(&x) % 20), p, st, k;

		memset(&spmu, 0, sizeof(spmu));
		memset(want, 0, sizeof(want));
		for (k = 0; k < n; k++)
			v[k] = __next(&x) % 1000000;
		for (p = 0; p < polls; p++) {
			bool lost = __next(&x) % 5 == 0;
			bool ok = __next(&x) % 7 != 0, prev_ok;
			uint64_t poll[MIB_STAGES][STATS_PMU_MAX];
			struct stats_pmu_count c;

			memset(poll, 0, sizeof(poll));
			/* the gap: the top of the loop, in no stage */
			for (k = 0; k < n; k++)
				v[k] += __next(&x) % 100;
			c = __count(n, v, ok);
			app_stage_pmu_begin(&spmu, &c);
			for (st = 0; st < MIB_STAGES; st++) {
				if (__next(&x) % 3 == 0)
					continue; /* not in this variant */
				prev_ok = ok;
				ok = __next(&x) % 7 != 0;
				for (k = 0; k < n; k++) {
					uint64_t d = __next(&x) % 5000;

					v[k] += d;
					if (prev_ok && ok)
						poll[st][k] += d;
				}
				c = __count(n, v, ok);
				app_stage_pmu_note(&spmu, st, &c);
			}
			app_stage_pmu_poll_end(&spmu, lost);
			for (st = 0; !lost && st < MIB_STAGES; st++)
				for (k = 0; k < n; k++)
					want[st][k] += poll[st][k];
		}
		for (st = 0; st < MIB_STAGES; st++)
			for (k = 0; k < STATS_PMU_MAX; k++)
				assert_int_equal(spmu.v[st][k], k < n ? want[st][k] : 0);
		app_stage_pmu_flush(&spmu, out);
		assert_memory_equal(out, spmu.v, sizeof(out));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lost_poll),
		cmocka_unit_test(test_pmu_lost_poll),
		cmocka_unit_test(test_pmu_sum),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
