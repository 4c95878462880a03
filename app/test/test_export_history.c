/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the run's history as a registered section (export_series.h,
 * the series section of series_export.c): GET /history serves it live,
 * one interval more per point the stats thread adds (counts, no timing),
 * the document --json ends with (the same renderer, export_history_add():
 * "intervals" in their shape, "events" with the mode flips,
 * "intervals_dropped" past the window); a section registered with a
 * history callback adds its members; GET /history/columns (telemetry's
 * /pktpath/history) lists the same intervals' figures, the last 64; a run
 * without a history is a 501, a wrong method a 405, a path below it a 404.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "export_section.h"
#include "export_series.h"
#include "fixture_http.h"

/* A flip the fake application made, as its events carry it. */
static json_t *
hist_flips(void *arg)
{
	(void)arg;
	return json_pack("[{s:s, s:f, s:s, s:s, s:s}]", "kind", "mode-flip", "t_s", 0.0,
			 "from", "off", "mode", "lock", "source", "test");
}

/* st's newest snapshot, after a fold of pkts more packets, into se. */
static void
hist_point(struct stats_series *se, uint64_t pkts)
{
	struct stats_snapshot *snap;

	fill(0, pkts, 0);
	stats_fold_now(st);
	snap = stats_get(st);
	assert_non_null(snap);
	assert_int_equal(stats_series_add(se, snap), 0);
	stats_put(st, snap);
}

static json_t *
hist_get(uint16_t port)
{
	char *body = get_body(port, "/history", "application/json");
	json_error_t jerr;
	json_t *j = json_loads(body, 0, &jerr);

	if (j == NULL)
		fail_msg("GET /history: invalid JSON: %s", jerr.text);
	free(body);
	return j;
}

/* GET /history/columns (telemetry's /pktpath/history: the walk of
 * test_export_control says they agree) has doc's intervals as lists. */
static void
hist_columns(uint16_t port, const json_t *doc)
{
	const json_t *ivs = json_object_get(doc, "intervals");
	char *body = get_body(port, "/history/columns", "application/json");
	json_t *col = json_loads(body, 0, NULL);
	char want[64];
	size_t k;

	assert_non_null(col);
	assert_int_equal(json_integer_value(json_object_get(col, "intervals")),
			 json_array_size(ivs));
	assert_int_equal(json_integer_value(json_object_get(col, "first")), 0);
	assert_int_equal(json_array_size(json_object_get(col, "mpps")),
			 json_array_size(ivs));
	for (k = 0; k < json_array_size(ivs); k++) {
		const json_t *iv = json_array_get(ivs, k);

		snprintf(want, sizeof(want), "%.3f",
			 json_real_value(json_object_get(iv, "t_s")));
		assert_string_equal(
			json_string_value(json_array_get(json_object_get(col, "t_s"), k)),
			want);
		snprintf(want, sizeof(want), "%.6f",
			 json_real_value(json_object_get(iv, "mpps")));
		assert_string_equal(json_string_value(json_array_get(
					    json_object_get(col, "mpps"), k)),
				    want);
		assert_string_equal(
			json_string_value(
				json_array_get(json_object_get(col, "mode"), k)),
			json_is_string(json_object_get(iv, "mode"))
				? json_string_value(json_object_get(iv, "mode"))
				: "none");
		assert_int_equal(json_integer_value(json_array_get(
					 json_object_get(col, "mode_flips"), k)),
				 json_integer_value(json_object_get(iv, "mode_flips")));
	}
	json_decref(col);
	free(body);
}

static void
test_history_live(void **state)
{
	static const char *const keys[] = { "t0_s",	   "t_s",	 "seconds",
					    "mpps",	   "ns_per_pkt", "cycles_per_pkt",
					    "late_s",	   "lost",	 "lcores",
					    "mode",	   "steady",	 "mode_flips",
					    "rule_updates" };
	struct stats_series *se = stats_series_create(NW, 0, 0);
	struct export_hooks hk = hooks;
	struct export_history hi = { .se = se, .lcore_ids = lcores };
	struct export_http_conf c;
	struct export_http *h;
	json_t *doc = NULL, *want, *iv, *flips;
	unsigned int k, i;

	(void)state;
	assert_non_null(se);
	hk.series = se;
	hk.lcore_ids = lcores;
	hk.flips = hist_flips;
	conf_for(&c, false, &hk, 8, 10);
	h = start_stats(st, &c);
	hist_point(se, 0); /* the first point: no interval yet */
	doc = hist_get(export_http_port(h));
	assert_int_equal(json_array_size(json_object_get(doc, "intervals")), 0);
	for (k = 1; k <= 3; k++) {
		json_decref(doc);
		hist_point(se, 100 * k);
		doc = hist_get(export_http_port(h));
		assert_int_equal(json_array_size(json_object_get(doc, "intervals")), k);
		assert_int_equal(
			json_integer_value(json_object_get(doc, "intervals_dropped")), 0);
	}
	/* --json's document: the same renderer over the same series */
	flips = hist_flips(NULL);
	hi.flips = flips;
	want = json_object();
	assert_int_equal(export_history_add(want, &hi), 0);
	if (!json_equal(doc, want))
		fail_msg("GET /history is not --json's history:\n%s\n%s",
			 json_dumps(doc, JSON_COMPACT), json_dumps(want, JSON_COMPACT));
	iv = json_array_get(json_object_get(doc, "intervals"), 2);
	for (i = 0; i < RTE_DIM(keys); i++)
		if (json_object_get(iv, keys[i]) == NULL)
			fail_msg("an interval without \"%s\": %s", keys[i],
				 json_dumps(iv, JSON_COMPACT));
	assert_int_equal(json_object_size(iv), RTE_DIM(keys));
	assert_int_equal(json_array_size(json_object_get(iv, "lcores")), NW);
	assert_true(json_is_null(json_object_get(iv, "steady"))); /* the end's */
	assert_int_equal(
		json_integer_value(json_object_get(
			json_array_get(json_object_get(iv, "lcores"), 0), "lcore")),
		lcores[0]);
	assert_string_equal(
		json_string_value(json_object_get(
			json_array_get(json_object_get(doc, "events"), 0), "kind")),
		"mode-flip");
	hist_columns(export_http_port(h), doc);
	json_decref(want);
	json_decref(flips);
	json_decref(doc);
	export_http_stop(h);
	stats_series_free(se);
}

/* An endless run's window: the last points only, the rest counted. */
static void
test_history_window(void **state)
{
	struct stats_series *se = stats_series_create(NW, 0, 0);
	struct export_hooks hk = hooks;
	struct export_http_conf c;
	struct export_http *h;
	unsigned int k;
	char *body;
	json_t *doc;

	(void)state;
	assert_int_equal(stats_series_window(se, 3), 0);
	hk.series = se;
	conf_for(&c, false, &hk, 8, 10);
	h = start_stats(st, &c);
	for (k = 0; k < 6; k++)
		hist_point(se, 10);
	doc = hist_get(export_http_port(h));
	assert_int_equal(json_array_size(json_object_get(doc, "intervals")), 2);
	assert_int_equal(json_integer_value(json_object_get(doc, "intervals_dropped")),
			 3);
	json_decref(doc);
	body = get_body(export_http_port(h), "/history/columns", NULL);
	doc = json_loads(body, 0, NULL);
	free(body);
	assert_int_equal(json_integer_value(json_object_get(doc, "intervals_dropped")),
			 3);
	assert_int_equal(json_array_size(json_object_get(doc, "t_s")), 2);
	json_decref(doc);
	export_http_stop(h);
	stats_series_free(se);
}

static void
hist_mine(json_t *root, const struct export_history *h)
{
	json_object_set_new(root, "mine", json_integer(stats_series_count(h->se)));
}

/* A section of its own adds its members; unregistered, they are gone. */
static void
test_history_section(void **state)
{
	static const struct export_section mine = { .name = "mine",
						    .history = hist_mine };
	struct stats_series *se = stats_series_create(NW, 0, 0);
	struct export_history hi = { .se = se };
	json_t *root = json_object();

	(void)state;
	hist_point(se, 1);
	hist_point(se, 1);
	assert_int_equal(export_section_register(&mine), 0);
	assert_int_equal(export_history_add(root, &hi), 0);
	assert_int_equal(json_integer_value(json_object_get(root, "mine")), 2);
	assert_int_equal(json_array_size(json_object_get(root, "intervals")), 1);
	assert_int_equal(export_section_unregister(&mine), 0);
	json_decref(root);
	root = json_object();
	assert_int_equal(export_history_add(root, &hi), 0);
	assert_null(json_object_get(root, "mine"));
	hi.se = NULL;
	assert_int_equal(export_history_add(root, &hi), -EINVAL);
	json_decref(root);
	stats_series_free(se);
}

/* Bad requests: 4xx and one line, nothing served. */
static void
test_history_refused(void **state)
{
	struct stats_series *se = stats_series_create(NW, 0, 0);
	struct export_hooks hk = hooks;
	struct export_http_conf c;
	struct export_http *with, *without;

	(void)state;
	hk.series = se;
	conf_for(&c, true, &hk, 8, 10);
	with = start_stats(st, &c);
	without = start(true, &hooks, 8, 10); /* no series */
	expect(export_http_port(without), "GET", "/history", NULL, NULL, 501,
	       "no history in this run");
	expect(export_http_port(without), "GET", "/history/columns", NULL, NULL, 501,
	       "no history in this run");
	expect(export_http_port(with), "POST", "/history", NULL, NULL, 405, "use GET");
	expect(export_http_port(with), "GET", "/history/1", NULL, NULL, 404,
	       "no such endpoint");
	expect(export_http_port(with), "GET", "/history", NULL, "x", 400,
	       "takes no body");
	expect(export_http_port(with), "GET", "/history", NULL, NULL, 200,
	       "\"intervals\"");
	export_http_stop(without);
	export_http_stop(with);
	stats_series_free(se);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_history_live),
		cmocka_unit_test(test_history_window),
		cmocka_unit_test(test_history_section),
		cmocka_unit_test(test_history_refused),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
