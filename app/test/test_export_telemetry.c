/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/export's DPDK telemetry commands (telemetry.c), over
 * the real telemetry socket of this process: every command and parameter,
 * bad parameters and a detached state answering null.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <inttypes.h>
#include <unistd.h>
#include <sys/socket.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "fixture_export.h"

static void
test_telemetry(void **state)
{
	struct stats_snapshot *snap;
	json_t *v;
	char buf[1024];
	unsigned int i;
	int fd;

	(void)state;
	assert_int_equal(export_telemetry_register(st, info, &hooks), 0);
	assert_int_equal(export_telemetry_register(st, info, &hooks), 0); /* again */
	fd = tel_connect();
	fill(0, 100, 0);
	stats_fold_now(st);
	snap = stats_get(st);
	{
		/* command, member, expected integer value (or array size) */
		const struct { const char *cmd, *key; int64_t want; } c[] = {
			{ "/pktpath/mib", NULL, MIB_GRP_MAX },
			{ "/pktpath/mib,Ip", "InReceives",
			  (int64_t)snap->totals[MIB_F(IP, INRECEIVES)] },
			{ "/pktpath/mib,Ip", "Forwarding", 2 },
			{ "/pktpath/mib,Tcp", "MaxConn", -1 },
			{ "/pktpath/mib,Rx,2", "RxPackets",
			  (int64_t)snap->per_block[MIB_FIELD_MAX + MIB_F(RX, PACKETS)] },
			{ "/pktpath/rates", "seq", (int64_t)snap->seq },
			{ "/pktpath/lcores", "lcore", NW },
			{ "/pktpath/lcores", "busy_pct", NW },
			{ "/pktpath/lcores,1", "lcore", 1 },
			{ "/pktpath/ingress", "modes", 3 },
			{ "/pktpath/ingress", "GracePeriods",
			  (int64_t)snap->totals[MIB_F(INGRESS, GRACEPERIODS)] },
			{ "/pktpath/config", "worker_lcores", 2 },
			{ "/pktpath/config", "args", 2 },
			{ "/pktpath/config", "ingress_modes", 3 },
		};

		for (i = 0; i < RTE_DIM(c); i++) {
			json_t *r = tel_query(fd, c[i].cmd);
			json_t *x = c[i].key ? json_object_get(r, c[i].key) : r;
			int64_t got = json_is_array(x) ? (int64_t)json_array_size(x) :
				json_is_integer(x) ? json_integer_value(x) : INT64_MIN;

			if (got != c[i].want)
				fail_msg("%s %s: %" PRId64 ", want %" PRId64, c[i].cmd,
					 c[i].key ? c[i].key : "", got, c[i].want);
			json_decref(r);
		}
	}
	stats_put(st, snap);
	v = tel_query(fd, "/pktpath/rates");
	assert_true(json_is_string(json_object_get(v, "mpps")));	/* decimals */
	json_decref(v);
	v = tel_query(fd, "/pktpath/config");
	assert_string_equal(json_string_value(json_object_get(v, "fold")), "lcore");
	json_decref(v);
	v = tel_query(fd, "/pktpath/ingress");
	assert_string_equal(json_string_value(json_object_get(v, "mode")), "off");
	json_decref(v);
	/* what each field counts: the field table's help, every group */
	v = tel_query(fd, "/pktpath/mib_help");
	assert_int_equal(json_array_size(v), MIB_GRP_MAX);
	json_decref(v);
	for (i = 0; i < MIB_GRP_MAX; i++) {
		enum mib_group g = (enum mib_group)i;
		unsigned int f;

		snprintf(buf, sizeof(buf), "/pktpath/mib_help,%s", mib_group_name(g));
		v = tel_query(fd, buf);
		if (mib_group_sparse(g)) {
			/* one entry per name, its number N: IcmpMsg InTypeN;
			 * Icmp6Msg InTypeN, OutTypeN */
			assert_int_equal(json_object_size(v),
					 g == MIB_GRP_ICMPMSG ? 1 : 2);
			assert_non_null(
				strstr(json_string_value(json_object_get(v, "InTypeN")),
				       "type N "));
			json_decref(v);
			continue;
		}
		assert_int_equal(json_object_size(v), mib_group_count(g));
		for (f = mib_group_first(g); f < mib_group_first(g) + mib_group_count(g); f++)
			assert_string_equal(json_string_value(json_object_get(v,
					    mib_field_name(f))), mib_field_help(f));
		json_decref(v);
	}
	/* Bad parameters: a refusal with its HTTP status; then detached:
	 * null, never a crash. */
	for (i = 0; i < 4; i++) {
		static const struct {
			const char *cmd;
			int status;
		} bad[] = { { "/pktpath/mib,Nope", 404 },
			    { "/pktpath/lcores,7", 404 },
			    { "/pktpath/rates,x", 400 },
			    { "/pktpath/mib_help,Nope", 404 } };

		v = tel_query(fd, bad[i].cmd);
		assert_int_equal(json_object_size(v), 2);
		assert_int_equal(json_integer_value(json_object_get(v, "status")),
				 bad[i].status);
		assert_true(json_is_string(json_object_get(v, "error")));
		json_decref(v);
	}
	export_telemetry_unregister();
	v = tel_query(fd, "/pktpath/rates");
	assert_true(json_is_null(v));
	json_decref(v);
	v = tel_query(fd, "/pktpath/mib,Ip"); /* a snapshot's: null too */
	assert_true(json_is_null(v));
	json_decref(v);
	/* what needs no run still answers: the groups, what fields count */
	v = tel_query(fd, "/pktpath/mib");
	assert_int_equal(json_array_size(v), MIB_GRP_MAX);
	json_decref(v);
	v = tel_query(fd, "/pktpath/mib_help");
	assert_int_equal(json_array_size(v), MIB_GRP_MAX);
	json_decref(v);
	v = tel_query(fd, "/pktpath/mib_help,Ip");
	assert_string_equal(json_string_value(json_object_get(v, "InReceives")),
			    mib_field_help(MIB_F(IP, INRECEIVES)));
	json_decref(v);
	close(fd);
}

/* --fold-on-read: /pktpath/mib folds for its reader (counted), with the
 * baseline, and answers what the snapshot answers once nothing writes. */
static void
test_telemetry_fold_on_read(void **state)
{
	struct stats_snapshot *snap, *rd;
	struct mib_set *ms = mib_set_create(NW + 1 + 13, MIB_LAYOUT_PERCPU, NULL);
	struct mib_block b;
	struct stats_conf sc;
	struct stats *s;
	json_t *v;
	int fd;

	(void)state;
	assert_non_null(ms);
	fixture_stats_conf(&sc, ms, 3600, 0, 0);
	sc.n_phantom = 13;
	sc.fold_on_read = true;
	s = stats_create(&sc);
	assert_non_null(s);
	assert_int_equal(stats_start(s), 0);
	assert_int_equal(export_telemetry_register(s, info, &hooks), 0);
	fd = tel_connect();
	b = mib_set_block(ms, 1);
	mib_add(&b, MIB_F(IP, INRECEIVES), 77);
	stats_clear(s);
	mib_add(&b, MIB_F(IP, INRECEIVES), 5);	/* after the clear */
	v = tel_query(fd, "/pktpath/mib,Ip");	/* folds now: sees the 5 */
	assert_int_equal(json_integer_value(json_object_get(v, "InReceives")), 5);
	json_decref(v);
	v = tel_query(fd, "/pktpath/mib,Ip,2");
	assert_int_equal(json_integer_value(json_object_get(v, "InReceives")), 5);
	json_decref(v);
	stats_fold_now(s);
	snap = stats_get(s);
	rd = stats_read(s);
	assert_int_equal(rd->read_folds, 3);	/* two commands, and this */
	assert_int_equal(snap->totals[MIB_F(IP, INRECEIVES)], 5);
	stats_put(s, rd);
	stats_put(s, snap);
	v = tel_query(fd, "/pktpath/rates");	/* a snapshot's: no fold */
	assert_int_equal(json_integer_value(json_object_get(v, "mib_lcores")), NW + 13);
	json_decref(v);
	rd = stats_read(s);
	assert_int_equal(rd->read_folds, 4);
	stats_put(s, rd);
	close(fd);
	/* back to the fixture's stats for the teardown */
	assert_int_equal(export_telemetry_register(st, info, &hooks), 0);
	stats_stop(s);
	stats_free(s);
	mib_set_free(ms);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_telemetry),
		cmocka_unit_test(test_telemetry_fold_on_read),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
