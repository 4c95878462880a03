/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/export's reporters (report.c): the JSON document's
 * summary and conservation objects, and the console's interval line and
 * run summary, over snapshots of hand-filled MIB sets.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>

#include "fixture_export.h"

/* No steady part (a window far shorter than one interval after the
 * warm-up): "steady" null and the reason, in the summary and per lcore. */
static void
test_steady_json(void **state)
{
	struct stats_summary *sum;
	struct mib_set *ms;
	struct stats *s;
	json_t *j, *sj;
	struct stats_snapshot *fin;

	(void)state;
	s = short_steady(&ms);
	sum = stats_summary(s);
	assert_false(sum->steady_valid);
	fin = stats_get(s);
	j = export_json(fin, sum, NULL, false);
	sj = json_object_get(json_object_get(j, "summary"), "steady");
	assert_true(json_is_null(sj));
	assert_string_equal(json_string_value(json_object_get(json_object_get(j,
		"summary"), "steady_reason")), sum->steady_reason);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(j,
		"lcores"), 0), "steady")));
	json_decref(j);
	stats_put(s, fin);
	stats_summary_free(sum);
	own_stats_free(s, ms);
}

/* The JSON conservation object: every law with both sides; exact on the
 * final snapshot, within inflight_max on a live one. */
static void
test_conservation_json(void **state)
{
	struct stats_summary *sum;
	struct stats_snapshot *snap;
	struct mib_set *ms;
	struct mib_block b;
	struct stats *s;
	json_t *j, *c, *laws;
	unsigned int m;

	(void)state;
	s = own_stats(&ms, 3600, 0, 100);
	b = mib_set_block(ms, 0);
	mib_add(&b, MIB_F(RX, PACKETS), 1000);
	mib_add(&b, MIB_F(IP, INRECEIVES), 1000);
	mib_add(&b, MIB_F(IP, INDELIVERS), 1000);
	mib_add(&b, MIB_F(UDP, INDATAGRAMS), 1000);
	for (m = 0; m < MIB_MODES; m++)
		mib_add(&b, MIB_MODE_F(m, MIB_MODE_K_PACKETS), 200);
	/* 40 packets through the path whose Rx counters are not flushed yet:
	 * a live snapshot of a healthy run. */
	mib_add(&b, MIB_F(IP, INRECEIVES), 40);
	mib_add(&b, MIB_F(IP, INDELIVERS), 40);
	mib_add(&b, MIB_F(UDP, INDATAGRAMS), 40);
	stats_fold_now(s);
	snap = stats_get(s);
	assert_false(snap->final);
	j = export_json(snap, NULL, NULL, false);
	c = json_object_get(j, "conservation");
	assert_true(json_is_true(json_object_get(c, "ok")));
	assert_true(json_is_false(json_object_get(c, "exact")));
	assert_int_equal(json_integer_value(json_object_get(c, "tolerance")), 100);
	assert_string_equal(json_string_value(json_object_get(c, "line")), "ok");
	assert_int_equal(json_integer_value(json_object_get(c, "port_dropped")), 0);
	assert_string_equal(json_string_value(json_object_get(c, "detail")), "");
	laws = json_object_get(c, "laws");
	assert_int_equal(json_array_size(laws), MIB_N_LAWS);
	assert_string_equal(json_string_value(json_object_get(json_array_get(laws, 0),
		"law")), "RxPackets = RxNotIp + RxOtherHost + RxNoPath + IngressDropped + "
		"InReceives");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(laws, 0),
		"diff")), -40);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(laws, 4),
		"rhs")), 1000);
	json_decref(j);
	stats_put(s, snap);

	/* Beyond what can be in flight: broken, live or not. */
	mib_add(&b, MIB_F(IP, INRECEIVES), 100);
	mib_add(&b, MIB_F(IP, INDELIVERS), 100);
	mib_add(&b, MIB_F(UDP, INDATAGRAMS), 100);
	stats_fold_now(s);
	snap = stats_get(s);
	j = export_json(snap, NULL, NULL, false);
	c = json_object_get(j, "conservation");
	assert_true(json_is_false(json_object_get(c, "ok")));
	assert_string_equal(json_string_value(json_object_get(c, "detail")),
		"RxPackets 1000 != RxNotIp + RxOtherHost + RxNoPath + IngressDropped + "
		"InReceives 1140 (beyond what is in flight)");
	assert_string_equal(json_string_value(json_object_get(c, "line")),
		"BROKEN: RxPackets 1000 != RxNotIp + RxOtherHost + RxNoPath + "
		"IngressDropped + InReceives 1140 (beyond what is in flight)");
	json_decref(j);
	stats_put(s, snap);

	/* The workers "flush": the final snapshot is checked exactly. */
	mib_add(&b, MIB_F(RX, PACKETS), 140);
	mib_add(&b, MIB_MODE_F(2, MIB_MODE_K_PACKETS), 139);
	stats_stop(s);
	sum = stats_summary(s);
	snap = stats_get(s);
	assert_true(snap->final);
	j = export_json(snap, sum, NULL, false);
	c = json_object_get(j, "conservation");
	assert_true(json_is_true(json_object_get(c, "exact")));
	assert_int_equal(json_integer_value(json_object_get(c, "tolerance")), 0);
	assert_true(json_is_false(json_object_get(c, "ok")));	/* one short */
	assert_string_equal(json_string_value(json_object_get(c, "detail")),
		"RxPackets 1140 != Mode packets (ModeOffPackets + ... + ModeRcuPackets) 1139");
	json_decref(j);
	stats_put(s, snap);
	stats_summary_free(sum);
	own_stats_free(s, ms);
}

/* The console: the interval lines (per worker, all, drops of the
 * interval) and the summary (whole run, steady or why not, drops, fold,
 * conservation, environment). */
static void
test_console(void **state)
{
	struct stats_snapshot *a, *b;
	struct stats_summary *sum;
	struct mib_set *ms;
	struct stats *s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	a = stats_get(st);
	fill(0, 64, 3);
	stats_fold_now(st);
	b = stats_get(st);
	f = open_memstream(&buf, &len);
	export_print_interval(f, b, a);
	fclose(f);
	/* a header every 20 intervals, the first after the start */
	if (b->seq == 1 || b->seq % 20 == 1)
		assert_non_null(strstr(buf, "Mpps   Gbit/s    ns/pkt   cyc/pkt  busy%"));
	else
		assert_null(strstr(buf, "Mpps"));
	assert_non_null(strstr(buf, "s l1 "));
	assert_non_null(strstr(buf, "s l2 "));
	assert_non_null(strstr(buf, "s all "));
	assert_non_null(strstr(buf, "  drops: Ip.InHdrErrors=3\n"));
	free(buf);
	stats_put(st, a);
	stats_put(st, b);

	s = own_stats(&ms, 3600, 5, 0);
	stats_stop(s);
	sum = stats_summary(s);
	b = stats_get(s);
	buf = NULL;
	f = open_memstream(&buf, &len);
	export_print_summary(f, sum, b);
	fclose(f);
	assert_non_null(strstr(buf, "\n== summary: "));
	assert_non_null(strstr(buf, " 2 workers ==\n"));
	assert_non_null(strstr(buf, "\nsteady: none: the run ("));
	assert_non_null(strstr(buf, "\nconservation: ok\n"));
	assert_non_null(strstr(buf, "\nTSC "));
	free(buf);
	stats_put(s, b);
	stats_summary_free(sum);
	own_stats_free(s, ms);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_json),
		cmocka_unit_test(test_conservation_json),
		cmocka_unit_test(test_console),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
