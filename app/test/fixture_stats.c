/* SPDX-License-Identifier: BSD-3-Clause */
/* The unit tests' fixture over lib/stats (fixture_stats.h). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "fixture_stats.h"

const unsigned int lcores[NW] = { 1, 2 };
struct mib_set *set;
struct stats *st;

void
fill(unsigned int w, uint64_t pkts, uint64_t hdrerr)
{
	struct mib_block b = mib_set_block(set, w);

	mib_add(&b, MIB_F(RX, PACKETS), pkts);
	mib_add(&b, MIB_F(RX, OCTETS), pkts * 60);
	mib_add(&b, MIB_F(RX, BURSTS), pkts / 32);
	mib_add(&b, MIB_F(RX, BUSYCYCLES), pkts * 100);
	mib_add(&b, MIB_F(RX, IDLECYCLES), pkts * 10);
	mib_add(&b, MIB_F(IP, INRECEIVES), pkts);
	mib_add(&b, MIB_F(IP, INHDRERRORS), hdrerr);
	mib_add(&b, MIB_F(IP, INDELIVERS), pkts - hdrerr);
	mib_add(&b, MIB_F(UDP, INDATAGRAMS), pkts - hdrerr);
	mib_add(&b, MIB_F(IPEXT, INOCTETS), pkts * 46);
}

void
fixture_stats_conf(struct stats_conf *sc, struct mib_set *ms, double interval,
		   double warmup, uint64_t inflight)
{
	memset(sc, 0, sizeof(*sc));
	sc->set = ms;
	sc->n_workers = NW;
	sc->lcore_ids = lcores;
	sc->fold = MIB_FOLD_LCORE;
	sc->interval_s = interval;
	sc->warmup_s = warmup;
	sc->inflight_max = inflight;
}

int
fixture_stats_setup(void **state)
{
	char *argv[] = { program_invocation_short_name, "--no-huge", "--no-shconf",
		"-m", "256", "--no-pci", "--file-prefix", program_invocation_short_name,
		"--log-level", "lib.eal:error", NULL };
	struct stats_conf sc;
	struct mib_block ctl;

	(void)state;
	if (rte_eal_init((int)RTE_DIM(argv) - 1, argv) < 0)
		return -1;
	set = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	if (set == NULL)
		return -1;
	fixture_stats_conf(&sc, set, 3600, 0, 0);
	st = stats_create(&sc);
	if (st == NULL || stats_start(st) != 0)
		return -1;
	fill(0, 1000, 10);
	fill(1, 500, 0);
	ctl = mib_set_block(set, NW);
	mib_add(&ctl, MIB_F(INGRESS, GRACEPERIODS), 3);
	mib_max(&ctl, MIB_F(INGRESS, GRACEPERIODMAXUS), 250);
	stats_fold_now(st);
	return 0;
}

int
fixture_stats_teardown(void **state)
{
	(void)state;
	stats_stop(st);
	stats_free(st);
	mib_set_free(set);
	rte_eal_cleanup();
	return 0;
}

struct stats *
own_stats(struct mib_set **ms, double interval, double warmup, uint64_t inflight)
{
	struct stats_conf sc;
	struct stats *s;

	*ms = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(*ms);
	fixture_stats_conf(&sc, *ms, interval, warmup, inflight);
	s = stats_create(&sc);
	assert_non_null(s);
	assert_int_equal(stats_start(s), 0);
	return s;
}

struct stats *
short_steady(struct mib_set **ms)
{
	struct stats *s = own_stats(ms, 3600, 0.05, 0);

	usleep(100 * 1000);
	stats_fold_now(s);		/* uptime >= 0.05: opens the steady part */
	stats_stop(s);
	return s;
}

void
own_stats_free(struct stats *s, struct mib_set *ms)
{
	stats_free(s);
	mib_set_free(ms);
}
