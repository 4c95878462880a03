/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/export's reporters (report.c): the JSON document's
 * summary and conservation objects, and the console's interval line and
 * run summary, over snapshots of hand-filled MIB sets; a made-up section
 * registered (export_section.h) in every output, at each of its places.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>

#include "export_pvt.h"
#include "export_section.h"
#include "fixture_export.h"
#include "stats_pmu.h"

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
	assert_string_equal(
		json_string_value(json_object_get(json_array_get(laws, 0), "law")),
		"RxPackets = RxNotIp + RxOtherHost + RxNoPath + IngressDropped + "
		"InReceives + Ip6InReceives");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(laws, 0),
		"diff")), -40);
	assert_int_equal(json_integer_value(json_object_get(
				 json_array_get(laws, MIB_LAW_MODE), "rhs")),
			 1000);
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
	assert_string_equal(
		json_string_value(json_object_get(c, "detail")),
		"RxPackets 1000 != RxNotIp + RxOtherHost + RxNoPath + IngressDropped + "
		"InReceives + Ip6InReceives 1140 (beyond what is in flight)");
	assert_string_equal(
		json_string_value(json_object_get(c, "line")),
		"BROKEN: RxPackets 1000 != RxNotIp + RxOtherHost + RxNoPath + "
		"IngressDropped + InReceives + Ip6InReceives 1140 (beyond what is in flight)");
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
	assert_null(strstr(buf, "\nstages"));	/* no --stage-cycles */
	free(buf);
	stats_put(s, b);
	stats_summary_free(sum);
	own_stats_free(s, ms);
}

/* --stage-cycles: export_stages() over hand-filled values: the stages
 * that ran and only those, per packet, per call, shares of the busy
 * cycles, a baseline; the table's text and the JSON. */
static void
test_stages(void **state)
{
	uint64_t a[MIB_FIELD_MAX], b[MIB_FIELD_MAX];
	struct export_stages t;
	char *buf = NULL;
	size_t len = 0;
	json_t *j, *rows;
	FILE *f;

	(void)state;
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	assert_int_equal(export_stages(NULL, b, &t), 0);	/* nothing ran */
	f = open_memstream(&buf, &len);
	export_print_stages(f, "lcore 1", &t);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);

	b[MIB_F(RX, BUSYCYCLES)] = 10000;
	b[MIB_F(RX, PACKETS)] = 64;
	/* rx: 2 calls, 64 packets, 1000 cycles; ip: 2, 32, 6400; free: 2,
	 * 64, 600. l2 took cycles but no call: not a stage that ran. */
	b[MIB_STAGE_F(MIB_STAGE_RX, MIB_STAGE_K_CALLS)] = 2;
	b[MIB_STAGE_F(MIB_STAGE_RX, MIB_STAGE_K_PACKETS)] = 64;
	b[MIB_STAGE_F(MIB_STAGE_RX, MIB_STAGE_K_CYCLES)] = 1000;
	b[MIB_STAGE_F(MIB_STAGE_L2, MIB_STAGE_K_CYCLES)] = 5;
	b[MIB_STAGE_F(MIB_STAGE_IP, MIB_STAGE_K_CALLS)] = 2;
	b[MIB_STAGE_F(MIB_STAGE_IP, MIB_STAGE_K_PACKETS)] = 32;
	b[MIB_STAGE_F(MIB_STAGE_IP, MIB_STAGE_K_CYCLES)] = 6400;
	b[MIB_STAGE_F(MIB_STAGE_FREE, MIB_STAGE_K_CALLS)] = 2;
	b[MIB_STAGE_F(MIB_STAGE_FREE, MIB_STAGE_K_PACKETS)] = 64;
	b[MIB_STAGE_F(MIB_STAGE_FREE, MIB_STAGE_K_CYCLES)] = 600;
	assert_int_equal(export_stages(NULL, b, &t), 3);
	assert_int_equal(t.s[0].stage, MIB_STAGE_RX);
	assert_int_equal(t.s[1].stage, MIB_STAGE_IP);
	assert_int_equal(t.s[2].stage, MIB_STAGE_FREE);
	assert_int_equal(t.busy, 10000);
	assert_int_equal(t.packets, 64);
	assert_int_equal(t.cycles, 8000);
	assert_int_equal(t.unstaged, 2000);
	assert_float_equal(t.s[1].cycles_per_pkt, 200.0, 1e-12);	/* its own packets */
	assert_float_equal(t.s[1].cycles_per_call, 3200.0, 1e-12);
	assert_float_equal(t.s[0].share, 0.1, 1e-12);
	assert_float_equal(t.s[1].share, 0.64, 1e-12);
	assert_float_equal(t.s[2].share, 0.06, 1e-12);

	f = open_memstream(&buf, &len);
	export_print_stages(f, "lcore 1", &t);
	fclose(f);
	assert_string_equal(buf,
		"lcore 1             calls        packets    cyc/pkt    cyc/call   busy%\n"
		"  rx                    2             64      15.62       500.0    10.0\n"
		"  ip                    2             32     200.00      3200.0    64.0\n"
		"  free                  2             64       9.38       300.0     6.0\n"
		"  staged                2             64     125.00      4000.0    80.0\n"
		"  unstaged                                    31.25      1000.0    20.0\n");
	free(buf);

	j = export_stages_json(&t);
	rows = json_object_get(j, "stages");
	assert_int_equal(json_array_size(rows), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 1),
							      "stage")), "ip");
	assert_int_equal(json_integer_value(json_object_get(j, "unstaged_cycles")), 2000);
	assert_float_equal(json_real_value(json_object_get(j, "staged_share")), 0.8, 1e-12);
	json_decref(j);

	/* less a baseline: rx only ran in between; a counter below its
	 * baseline counts 0 */
	memcpy(a, b, sizeof(a));
	b[MIB_STAGE_F(MIB_STAGE_RX, MIB_STAGE_K_CALLS)] += 1;
	b[MIB_STAGE_F(MIB_STAGE_RX, MIB_STAGE_K_PACKETS)] += 32;
	b[MIB_STAGE_F(MIB_STAGE_RX, MIB_STAGE_K_CYCLES)] += 300;
	b[MIB_F(RX, BUSYCYCLES)] += 400;
	a[MIB_STAGE_F(MIB_STAGE_FREE, MIB_STAGE_K_CALLS)] += 5;
	assert_int_equal(export_stages(a, b, &t), 1);
	assert_int_equal(t.s[0].stage, MIB_STAGE_RX);
	assert_int_equal(t.s[0].cycles, 300);
	assert_float_equal(t.s[0].share, 0.75, 1e-12);
	assert_int_equal(t.unstaged, 100);
}

/* ---- a made-up section: "early" at every place but the end, "late" at
 * the end of every output ---- */

static void
mk_interval(FILE *out, const struct stats_snapshot *snap,
	    const struct stats_snapshot *prev)
{
	(void)snap;
	fprintf(out, "madeup-interval-%s\n", prev != NULL ? "prev" : "first");
}

static void
mk_summary(FILE *out, const struct stats_summary *sum, const struct stats_snapshot *final)
{
	(void)sum;
	fprintf(out, "madeup-summary-%s\n", final != NULL ? "final" : "none");
}

static void
mk_json_lcore(json_t *l, const struct stats_snapshot *snap, unsigned int w)
{
	(void)snap;
	json_object_set_new(l, "madeup", json_integer(w));
}

static void
mk_json_summary(json_t *summary, const struct stats_summary *sum,
		const struct stats_snapshot *snap)
{
	(void)sum;
	(void)snap;
	json_object_set_new(summary, "madeup", json_true());
}

static void
mk_json(json_t *root, const struct stats_snapshot *snap)
{
	(void)snap;
	json_object_set_new(
		root, json_object_get(root, "mib_lcores") ? "madeup_end" : "madeup_mib",
		json_true());
}

static void
__mk_prom(FILE *out, const char *place)
{
	fprintf(out,
		"# HELP pktpath_madeup_%s Made up\n# TYPE pktpath_madeup_%s "
		"gauge\npktpath_madeup_%s 1\n",
		place, place, place);
}

static void
mk_prom_rates(FILE *out, const struct stats_snapshot *snap,
	      const struct export_prom_opts *o)
{
	(void)snap;
	(void)o;
	__mk_prom(out, "rates");
}

static void
mk_prom_mib(FILE *out, const struct stats_snapshot *snap,
	    const struct export_prom_opts *o)
{
	(void)snap;
	(void)o;
	__mk_prom(out, "mib");
}

static void
mk_prom_end(FILE *out, const struct stats_snapshot *snap,
	    const struct export_prom_opts *o)
{
	(void)snap;
	(void)o;
	__mk_prom(out, "end");
}

static void
mk_snmp(FILE *out, const struct stats_snapshot *snap, enum export_snmp_file which)
{
	(void)snap;
	fprintf(out, "Madeup%d: Field\nMadeup%d: 1\n", which, which);
}

static const struct export_section madeup_early = {
	.name = "madeup-early",
	.interval = mk_interval,
	.interval_at = EXPORT_AT_RATES,
	.summary = mk_summary,
	.summary_at = EXPORT_AT_DROPS,
	.json_lcore = mk_json_lcore,
	.json_summary = mk_json_summary,
	.json = mk_json,
	.json_at = EXPORT_AT_MIB,
	.prom = mk_prom_rates,
	.prom_at = EXPORT_AT_RATES,
	.snmp = mk_snmp,
};
static const struct export_section madeup_fold = {
	.name = "madeup-fold",
	.summary = mk_summary,
	.summary_at = EXPORT_AT_FOLD,
	.prom = mk_prom_mib,
	.prom_at = EXPORT_AT_MIB,
};
static const struct export_section madeup_late = {
	.name = "madeup-late",
	.interval = mk_interval,
	.interval_at = EXPORT_AT_END,
	.summary = mk_summary,
	.summary_at = EXPORT_AT_END,
	.json = mk_json,
	.json_at = EXPORT_AT_END,
	.prom = mk_prom_end,
	.prom_at = EXPORT_AT_END,
};

/* a appears in text, before b (NULL: anywhere after a) */
static const char *
__before(const char *text, const char *a, const char *b)
{
	const char *pa = strstr(text, a), *pb = b ? strstr(text, b) : NULL;

	assert_non_null(pa);
	if (b != NULL) {
		assert_non_null(pb);
		assert_true(pa < pb);
	}
	return pa;
}

static char *
__out(FILE **f, char **buf, size_t *len)
{
	if (*f != NULL) {
		fclose(*f);
		*f = NULL;
		return *buf;
	}
	free(*buf);
	*buf = NULL;
	*f = open_memstream(buf, len);
	return NULL;
}

/* Every writer asks the registered sections, each at the place it asked
 * for; an unregistered one is gone from every output. */
static void
test_section_registered(void **state)
{
	static const struct export_section bad_place = { .name = "bad",
							 .interval = mk_interval,
							 .interval_at = EXPORT_AT_MIB };
	static const struct export_section dup = { .name = "ports" };
	struct stats_snapshot *a, *b, *fin;
	struct stats_summary *sum;
	struct mib_set *ms;
	struct stats *s;
	char *buf = NULL, *j, *t;
	size_t len = 0;
	FILE *f = NULL;
	json_t *doc;
	unsigned int pass;

	(void)state;
	assert_int_equal(export_section_register(NULL), -EINVAL);
	assert_int_equal(export_section_register(&bad_place), -EINVAL);
	assert_int_equal(export_section_register(&dup), -EEXIST);
	assert_int_equal(export_section_unregister(&madeup_early), -ENOENT);
	assert_int_equal(export_section_register(&madeup_early), 0);
	assert_int_equal(export_section_register(&madeup_early), -EEXIST);
	assert_int_equal(export_section_register(&madeup_fold), 0);
	assert_int_equal(export_section_register(&madeup_late), 0);

	s = own_stats(&ms, 3600, 5, 0);
	for (pass = 0; pass < 2; pass++) {
		a = stats_get(st);
		fill(0, 64, 3);
		stats_fold_now(st);
		b = stats_get(st);
		__out(&f, &buf, &len);
		export_print_interval(f, b, a);
		t = __out(&f, &buf, &len);
		if (pass == 1) { /* unregistered: gone */
			assert_null(strstr(t, "madeup"));
		} else {
			__before(t, "s all ", "madeup-interval-prev\n  drops:");
			assert_string_equal(strstr(t, "  drops:"),
					    "  drops: "
					    "Ip.InHdrErrors=3\nmadeup-interval-prev\n");
		}

		__out(&f, &buf, &len);
		assert_int_equal(export_prom_write(f, b, NULL), 0);
		t = __out(&f, &buf, &len);
		if (pass == 1) {
			assert_null(strstr(t, "madeup"));
		} else {
			promtool_ok(t);
			__before(
				t, "pktpath_lcore_busy_ratio",
				"pktpath_madeup_rates 1\n# HELP pktpath_fold_duration_seconds");
			__before(t, "pktpath_drops_total", "pktpath_madeup_mib 1\n");
			__before(t, "pktpath_madeup_mib 1\n", "pktpath_madeup_end 1\n");
			assert_string_equal(t + strlen(t) -
						    strlen("pktpath_madeup_end 1\n"),
					    "pktpath_madeup_end 1\n");
		}

		__out(&f, &buf, &len);
		assert_int_equal(export_snmp_write(f, b, EXPORT_NETSTAT), 0);
		assert_int_equal(export_snmp_write(f, b, EXPORT_SNMP), 0);
		t = __out(&f, &buf, &len);
		if (pass == 1) {
			assert_null(strstr(t, "Madeup"));
		} else {
			__before(t, "\nStage: ", "Madeup1: Field\nMadeup1: 1\nIp: ");
			assert_string_equal(t + strlen(t) - strlen("Madeup0: 1\n"),
					    "Madeup0: 1\n");
		}

		stats_stop(s);
		sum = stats_summary(s);
		fin = stats_get(s);
		__out(&f, &buf, &len);
		export_print_summary(f, sum, fin);
		t = __out(&f, &buf, &len);
		if (pass == 1) {
			assert_null(strstr(t, "madeup"));
		} else {
			__before(t, "\nlost: ", "madeup-summary-final\nfold: ");
			__before(t, "\nconservation: ",
				 "madeup-summary-final\n"
				 "madeup-summary-final\nTSC ");
		}

		doc = export_json(b, sum, NULL, false);
		j = json_dumps(doc, JSON_COMPACT);
		if (pass == 1) {
			assert_null(strstr(j, "madeup"));
		} else {
			__before(j, "\"mib\":", "\"madeup_mib\":true,\"mib_lcores\"");
			__before(j, "\"mib_lcores\"",
				 "\"madeup_end\":true,\"conservation\"");
			assert_true(json_is_true(json_object_get(
				json_object_get(doc, "summary"), "madeup")));
			assert_int_equal(
				json_integer_value(json_object_get(
					json_array_get(json_object_get(doc, "lcores"), 1),
					"madeup")),
				1);
		}
		free(j);
		json_decref(doc);
		stats_put(s, fin);
		stats_summary_free(sum);
		stats_put(st, a);
		stats_put(st, b);
		if (pass == 0) {
			assert_int_equal(export_section_unregister(&madeup_fold), 0);
			assert_int_equal(export_section_unregister(&madeup_early), 0);
			assert_int_equal(export_section_unregister(&madeup_late), 0);
		}
	}
	free(buf);
	own_stats_free(s, ms);
}

/* --pmu's summary tables: the IPC column is there when the group counts
 * cycles and instructions, whatever the window counted (a total the PMU
 * did not count prints unknown, the lcores their IPC), and not without. */
static void
test_pmu_ipc_column(void **state)
{
	static const struct {
		const char *events;
		bool ipc;
	} t[] = {
		{ "cycles,instructions", true },
		{ "task-clock,instructions,cpu-cycles", true },
		{ "cycles,task-clock", false },
		{ "task-clock", false },
	};
	struct stats_pmu_rate r[3];
	struct stats_summary sum = { .n_workers = 2, .pmu = r };
	struct stats_pmu_conf conf;
	struct stats_snapshot final = { .n_workers = 2, .pmu = &conf };
	char err[256], *buf = NULL;
	unsigned int i, k;
	size_t len = 0;
	FILE *f;

	(void)state;
	for (k = 0; k < RTE_DIM(t); k++) {
		assert_int_equal(stats_pmu_parse(t[k].events, &conf, err, sizeof(err)),
				 0);
		memset(r, 0, sizeof(r));
		for (i = 0; i < 2; i++) { /* the lcores counted, the total not */
			r[i].conf = &conf;
			r[i].d.known = true;
			r[i].packets = 100;
			r[i].ipc = t[k].ipc ? 1.25 * (i + 1) : NAN;
		}
		r[2].conf = &conf;
		r[2].ipc = NAN;
		f = open_memstream(&buf, &len);
		assert_non_null(f);
		__export_section_pmu.summary(f, &sum, &final);
		fclose(f);
		if ((strstr(buf, " IPC\n") != NULL) != t[k].ipc)
			fail_msg("--pmu %s: IPC column %s:\n%s", t[k].events,
				 t[k].ipc ? "missing" : "extra", buf);
		if (t[k].ipc && (strstr(buf, "    1.25\n") == NULL ||
				 strstr(buf, "    2.50\n") == NULL ||
				 strstr(buf, " unknown\n") == NULL))
			fail_msg("--pmu %s: IPC cells:\n%s", t[k].events, buf);
		free(buf);
		buf = NULL;
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_json),
		cmocka_unit_test(test_conservation_json),
		cmocka_unit_test(test_console),
		cmocka_unit_test(test_stages),
		cmocka_unit_test(test_section_registered),
		cmocka_unit_test(test_pmu_ipc_column),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
