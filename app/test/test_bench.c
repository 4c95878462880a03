/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/bench (the time_bench harness), with an EAL of 2 lcores
 * and no hugepages (the peer stage's tests are test_peer.c).
 *
 * No timing threshold anywhere: the harness is checked on functions of
 * known relative cost (an empty loop vs 100 dependent additions per
 * iteration) by comparing the two figures with each other, never with a
 * constant; refusals and the JSON schema are checked exactly, each with
 * both end-of-interval timers (rdtscp, and the lfence fallback of CPUs
 * without it, forced).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "fixture_eal.h"
#include "bench.h"
#include "bench_pvt.h"

/* ---- benchmark functions of known relative cost ---- */

static int
fn_empty(struct bench_rec *rec, void *arg)
{
	uint64_t i;

	(void)arg;
	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		__asm__ volatile("" ::: "memory");
	bench_stop(rec, rec->loops);
	return 0;
}

/* 100 additions per iteration, each depending on the previous one (the
 * empty asm makes x opaque, so the compiler can neither fold nor reorder
 * them). */
static int
fn_add100(struct bench_rec *rec, void *arg)
{
	uint64_t i, x = rec->worker;
	unsigned int j;

	(void)arg;
	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		for (j = 0; j < 100; j++) {
			x += j;
			__asm__ volatile("" : "+r"(x));
		}
	bench_stop(rec, rec->loops);
	return 0;
}

/* Times nothing: a TSC-read pair only. */
static int
fn_too_short(struct bench_rec *rec, void *arg)
{
	(void)arg;
	bench_start(rec);
	bench_stop(rec, rec->loops);
	return 0;
}

static int
fn_untimed(struct bench_rec *rec, void *arg)
{
	(void)rec;
	(void)arg;
	return 0;
}

static int
fn_unpaired(struct bench_rec *rec, void *arg)
{
	(void)arg;
	bench_start(rec);
	return 0;
}

static int
fn_fails(struct bench_rec *rec, void *arg)
{
	(void)arg;
	bench_start(rec);
	bench_stop(rec, rec->loops);
	return -EIO;
}

/* ---- harness ---- */

static void
test_relative_cost(void **state)
{
	struct bench_spec e = { .name = "empty", .fn = fn_empty };
	struct bench_spec a = { .name = "add100", .fn = fn_add100, .step = 100 };
	struct bench_result re, ra;

	(void)state;
	assert_int_equal(bench_run(&e, 200000, 5, &re), 0);
	assert_int_equal(bench_run(&a, 200000, 5, &ra), 0);
	assert_string_equal(re.name, "empty");
	assert_int_equal(ra.step, 100);
	assert_int_equal(re.elems, 200000);
	assert_int_equal(re.reps, 5);
	assert_false(re.concurrent);
	/* The only timing claim: more work reports more cycles per element.
	 * Compared on the fastest repetitions: preemption by another task
	 * only ever lengthens a repetition, so the minima are the figures
	 * least disturbed on a loaded machine. */
	assert_true(ra.cycles.min > re.cycles.min);
	assert_true(re.cycles.min <= re.cycles.median &&
		    re.cycles.median <= re.cycles.max);
	assert_true(ra.ns.min > re.ns.min);
	assert_true(re.baseline_cycles > 0);
	assert_true(re.lap_overhead_cycles > 0);
}

static void
test_concurrent(void **state)
{
	struct bench_spec e = { .name = "empty", .fn = fn_empty };
	struct bench_spec a = { .name = "add100", .fn = fn_add100 };
	struct bench_result re, ra;
	unsigned int i;

	(void)state;
	assert_true(rte_lcore_count() >= 2);	/* -l 0-1 */
	assert_int_equal(bench_run_concurrent(&e, 200000, 3, &re), 0);
	assert_int_equal(bench_run_concurrent(&a, 200000, 3, &ra), 0);
	assert_true(ra.concurrent);
	assert_int_equal(ra.n_lcores, rte_lcore_count());
	assert_int_equal(ra.lcore[0].lcore_id, rte_get_main_lcore());
	for (i = 0; i < ra.n_lcores; i++) {
		assert_int_equal(ra.lcore[i].elems, 200000);
		assert_true(ra.lcore[i].cycles.min > re.lcore[i].cycles.min);
	}
	assert_true(ra.cycles.min > re.cycles.min);
	assert_true(ra.sum_mops > 0 && ra.sum_mops < re.sum_mops);
	/* The workers are idle again: a second run launches fine. */
	assert_int_equal(bench_run_concurrent(&e, 200000, 1, &re), 0);
	/* A failing function aborts every worker and reports its error. */
	e.fn = fn_fails;
	assert_int_equal(bench_run_concurrent(&e, 200000, 3, &re), -EIO);
	assert_non_null(strstr(re.error, "failed"));
	for (i = 0; i < RTE_MAX_LCORE; i++)
		if (rte_lcore_is_enabled(i) && i != rte_get_main_lcore())
			assert_int_equal(rte_eal_get_lcore_state(i), WAIT);
}

static void
test_refusals(void **state)
{
	struct bench_spec s = { .name = "x", .fn = fn_empty };
	struct bench_result r;
	int i, ret = 0;

	(void)state;
	assert_int_equal(bench_run(&s, 0, 3, &r), -EINVAL);
	assert_int_equal(bench_run(&s, BENCH_MIN_LOOPS - 1, 3, &r), -EINVAL);
	assert_non_null(strstr(r.error, "below the minimum"));
	assert_non_null(strstr(r.error, "x:"));
	assert_int_equal(bench_run(&s, BENCH_MIN_LOOPS, 0, &r), -EINVAL);
	assert_int_equal(bench_run(&s, BENCH_MIN_LOOPS, BENCH_MAX_REPS + 1, &r),
			 -EINVAL);
	if (rte_lcore_count() >= 2)
		assert_int_equal(bench_run_concurrent(&s, 10, 3, &r), -EINVAL);
	s.fn = NULL;
	assert_int_equal(bench_run(&s, BENCH_MIN_LOOPS, 1, &r), -EINVAL);
	s.fn = fn_empty;
	s.name = "";
	assert_int_equal(bench_run(&s, BENCH_MIN_LOOPS, 1, &r), -EINVAL);
	s.name = "x";
	s.fn = fn_untimed;
	assert_int_equal(bench_run(&s, BENCH_MIN_LOOPS, 1, &r), -EINVAL);
	assert_non_null(strstr(r.error, "did not time"));
	s.fn = fn_unpaired;
	assert_int_equal(bench_run(&s, BENCH_MIN_LOOPS, 1, &r), -EINVAL);
	s.fn = fn_fails;
	assert_int_equal(bench_run(&s, BENCH_MIN_LOOPS, 1, &r), -EIO);
	/* An interval of nothing but the two TSC reads is refused as too
	 * short. (Retried: only an interrupt landing inside that window of a
	 * few dozen cycles could lengthen it, three times in a row.) */
	s.fn = fn_too_short;
	for (i = 0; i < 3 && ret != -ERANGE; i++)
		ret = bench_run(&s, BENCH_MIN_LOOPS, 1, &r);
	assert_int_equal(ret, -ERANGE);
	assert_non_null(strstr(r.error, "raise --loops"));
}

static void
test_json_schema(void **state)
{
	struct bench_spec s = { .name = "add100", .fn = fn_add100, .step = 7 };
	struct bench_result r, rc;
	char err[BENCH_ERR_LEN], path[] = "/tmp/test_bench_XXXXXX";
	json_t *o, *doc, *back, *x;
	json_error_t jerr;
	size_t i;
	int fd;

	(void)state;
	assert_int_equal(bench_run(&s, 20000, 3, &r), 0);
	o = bench_result_json(&r);
	assert_non_null(o);
	assert_int_equal(bench_result_json_check(o, err, sizeof(err)), 0);
	assert_string_equal(json_string_value(json_object_get(o, "name")), "add100");
	assert_string_equal(json_string_value(json_object_get(o, "mode")), "single");
	assert_int_equal(json_integer_value(json_object_get(o, "step")), 7);
	assert_int_equal(json_integer_value(json_object_get(o, "loops")), 20000);
	assert_int_equal(json_integer_value(json_object_get(o, "reps")), 3);
	assert_int_equal(json_integer_value(json_object_get(o, "elems")), 20000);
	assert_int_equal(json_integer_value(json_object_get(o, "tsc_hz")),
			 (json_int_t)rte_get_tsc_hz());
	assert_string_equal(json_string_value(json_object_get(o, "timer")),
			    bench_timer_name(bench_timer_get()));
	assert_int_equal(r.timer, bench_timer_get());
	assert_null(json_object_get(o, "lcores"));
	/* The checker catches a broken result. */
	x = json_deep_copy(o);
	json_object_del(x, "cycles_per_elem");
	assert_int_equal(bench_result_json_check(x, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cycles_per_elem"));
	json_decref(x);
	x = json_deep_copy(o);
	json_object_set_new(json_object_get(x, "ns_per_elem"), "min",
			    json_real(1e12));
	assert_int_equal(bench_result_json_check(x, err, sizeof(err)), -EINVAL);
	json_decref(x);
	x = json_deep_copy(o);
	json_object_set_new(x, "mode", json_string("sideways"));
	assert_int_equal(bench_result_json_check(x, NULL, 0), -EINVAL);
	json_decref(x);

	/* A document with a single, a concurrent and a skipped entry, written
	 * to a file and read back. */
	doc = bench_doc_new();
	assert_non_null(doc);
	assert_int_equal(bench_doc_add(doc, &r), 0);
	if (rte_lcore_count() >= 2) {
		assert_int_equal(bench_run_concurrent(&s, 20000, 3, &rc), 0);
		assert_int_equal(bench_doc_add(doc, &rc), 0);
	}
	assert_int_equal(bench_doc_skip(doc, "rcu_sync_2r", "needs 2 lcores"), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(bench_doc_write(doc, path, err), 0);
	back = json_load_file(path, 0, &jerr);
	unlink(path);
	assert_non_null(back);
	assert_string_equal(json_string_value(json_object_get(back, "schema")),
			    "pktpath-bench/1");
	assert_true(json_is_string(json_object_get(back, "version")));
	assert_string_equal(json_string_value(json_object_get(back, "timer")),
			    bench_timer_name(bench_timer_get()));
	assert_string_equal(json_string_value(json_object_get(back, "timer_insns")),
			    bench_timer_insns(bench_timer_get()));
	assert_true(json_is_boolean(json_object_get(back, "cpu_has_rdtscp")));
	assert_true(json_is_boolean(json_object_get(back, "invariant_tsc")));
	assert_int_equal(json_integer_value(json_object_get(back, "lcores")),
			 rte_lcore_count());
	assert_int_equal(json_array_size(json_object_get(back, "results")),
			 rte_lcore_count() >= 2 ? 2 : 1);
	json_array_foreach(json_object_get(back, "results"), i, x)
		assert_int_equal(bench_result_json_check(x, err, sizeof(err)), 0);
	if (rte_lcore_count() >= 2) {
		x = json_array_get(json_object_get(back, "results"), 1);
		assert_string_equal(json_string_value(json_object_get(x, "mode")),
				    "concurrent");
		assert_int_equal(json_array_size(json_object_get(x, "lcores")),
				 rte_lcore_count());
	}
	x = json_array_get(json_object_get(back, "skipped"), 0);
	assert_string_equal(json_string_value(json_object_get(x, "name")),
			    "rcu_sync_2r");
	assert_int_equal(bench_doc_write(doc, "/nonexistent/dir/x.json", err),
			 -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/dir/x.json"));
	json_decref(back);
	json_decref(doc);
	json_decref(o);
}

/* ---- the end-of-interval timer ---- */

static void
test_timer_select(void **state)
{
	struct bench_spec s = { .name = "add100", .fn = fn_add100 };
	struct bench_result r;
	char err[BENCH_ERR_LEN];
	json_t *o;

	(void)state;
	assert_string_equal(bench_timer_name(BENCH_TIMER_RDTSCP), "rdtscp");
	assert_string_equal(bench_timer_name(BENCH_TIMER_LFENCE), "lfence");
	assert_string_equal(bench_timer_name(BENCH_TIMER_MAX), "?");
	assert_int_equal(bench_timer_select("auto", err, sizeof(err)), 0);
	assert_int_equal(bench_timer_get(), bench_cpu_has_rdtscp() ?
			 BENCH_TIMER_RDTSCP : BENCH_TIMER_LFENCE);
	assert_int_equal(bench_timer_select("lfence", err, sizeof(err)), 0);
	assert_int_equal(bench_timer_get(), BENCH_TIMER_LFENCE);
	assert_int_equal(bench_timer_select("rdtsc", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "timer 'rdtsc': unknown timer (auto, rdtscp or lfence)");
	assert_int_equal(bench_timer_get(), BENCH_TIMER_LFENCE);	/* unchanged */
	/* The environment, when no name is given. */
	setenv("PKTPATH_BENCH_TIMER", "lfence", 1);
	assert_int_equal(bench_timer_select(NULL, err, sizeof(err)), 0);
	assert_int_equal(bench_timer_get(), BENCH_TIMER_LFENCE);
	setenv("PKTPATH_BENCH_TIMER", "fast", 1);
	assert_int_equal(bench_timer_select(NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "PKTPATH_BENCH_TIMER 'fast': unknown timer (auto, rdtscp or lfence)");
	unsetenv("PKTPATH_BENCH_TIMER");

	/* A CPU without rdtscp (pretended, so that this runs everywhere):
	 * auto falls back to lfence, rdtscp is refused with one line, and
	 * benchmarks run and say which timer they used. */
	__bench_cpu_pretend_no_rdtscp(true);
	assert_false(bench_cpu_has_rdtscp());
	assert_int_equal(bench_timer_select("rdtscp", err, sizeof(err)), -ENOTSUP);
	assert_string_equal(err, "timer rdtscp: this CPU has no rdtscp (cpuid 80000001h EDX bit 27); use lfence (lfence; rdtsc; lfence), which auto picks here");
	assert_int_equal(bench_timer_select("auto", err, sizeof(err)), 0);
	assert_int_equal(bench_timer_get(), BENCH_TIMER_LFENCE);
	assert_int_equal(bench_run(&s, 20000, 3, &r), 0);
	assert_int_equal(r.timer, BENCH_TIMER_LFENCE);
	assert_true(r.lap_overhead_cycles > 0);
	o = bench_result_json(&r);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "timer")), "lfence");
	assert_int_equal(bench_result_json_check(o, err, sizeof(err)), 0);
	json_object_set_new(o, "timer", json_string("hpet"));
	assert_int_equal(bench_result_json_check(o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "timer"));
	json_decref(o);
	__bench_cpu_pretend_no_rdtscp(false);
	/* Where the CPU has rdtscp, asking for it works again. */
	if (bench_cpu_has_rdtscp()) {
		assert_int_equal(bench_timer_select("rdtscp", err, sizeof(err)), 0);
		assert_int_equal(bench_run(&s, 20000, 3, &r), 0);
		assert_int_equal(r.timer, BENCH_TIMER_RDTSCP);
	}
	assert_int_equal(bench_timer_select("auto", err, sizeof(err)), 0);
}

/* Run a harness test with the fallback timer forced (setup), then put
 * auto back (teardown). */
static int
__timer_lfence(void **state)
{
	(void)state;
	return bench_timer_select("lfence", NULL, 0) == 0 ? 0 : -1;
}

static int
__timer_auto(void **state)
{
	(void)state;
	return bench_timer_select("auto", NULL, 0) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relative_cost),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_json_schema),
		cmocka_unit_test(test_concurrent),
		cmocka_unit_test(test_timer_select),
		/* The same harness tests with the fallback timer. */
		cmocka_unit_test_setup_teardown(test_relative_cost,
						__timer_lfence, __timer_auto),
		cmocka_unit_test_setup_teardown(test_refusals,
						__timer_lfence, __timer_auto),
		cmocka_unit_test_setup_teardown(test_json_schema,
						__timer_lfence, __timer_auto),
		cmocka_unit_test_setup_teardown(test_concurrent,
						__timer_lfence, __timer_auto),
	};

	return cmocka_run_group_tests(tests, fixture_eal_setup,
				      fixture_eal_teardown);
}
