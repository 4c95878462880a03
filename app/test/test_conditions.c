/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The conditions of a run (app/pktpath/conditions.c) over fake sysfs and
 * procfs trees: what each file makes of the JSON and which warnings it
 * raises, file by file, and the CPU-list parser.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conditions.h"

static char root[] = "/tmp/pktpath-cond-XXXXXX";

/* root/path with its folders, holding text. */
static void
put(const char *path, const char *text)
{
	char p[1024], *s;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, path);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(p, 0700);
		*s = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void
wipe(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/sys %s/proc", root, root);
	assert_int_equal(system(cmd), 0);
}

static bool
has_warning(const struct app_conditions *c, const char *text)
{
	unsigned int i;

	for (i = 0; i < c->n_warn; i++)
		if (strcmp(c->warn[i], text) == 0)
			return true;
	return false;
}

static void
dump(const struct app_conditions *c)
{
	unsigned int i;

	for (i = 0; i < c->n_warn; i++)
		print_message("warning: %s\n", c->warn[i]);
}

static void
test_cpulist(void **state)
{
	(void)state;
	assert_true(app_cond_cpulist_has("0-3,8,10-11", 0));
	assert_true(app_cond_cpulist_has("0-3,8,10-11", 3));
	assert_false(app_cond_cpulist_has("0-3,8,10-11", 4));
	assert_true(app_cond_cpulist_has("0-3,8,10-11", 8));
	assert_true(app_cond_cpulist_has("0-3,8,10-11", 11));
	assert_false(app_cond_cpulist_has("0-3,8,10-11", 12));
	assert_false(app_cond_cpulist_has("", 0));
	assert_false(app_cond_cpulist_has(NULL, 0));
	assert_false(app_cond_cpulist_has("x", 0));
	assert_false(app_cond_cpulist_has("1-", 1));
	assert_true(app_cond_cpulist_has("5", 5));
	assert_false(app_cond_cpulist_has("5", -1));
}

/* A tuned server: isolated, tickless CPUs, performance governor, turbo
 * off, each worker on its own core, everything on one node: no warning. */
static void
test_tuned(void **state)
{
	static const unsigned int lcores[] = { 2, 4 };
	static const int cpus[] = { 2, 4 }, pools[] = { 0, 0 }, ports[] = { 0 };
	struct app_cond_in in = { .n_workers = 2, .lcores = lcores, .cpus = cpus,
		.main_lcore = 0, .main_cpu = 0, .n_ports = 1, .port_nodes = ports,
		.pool_nodes = pools, .hugepages = "hugepages (1 GiB)", .dpdk = "DPDK 22.11.11" };
	struct app_conditions c;
	const json_t *w;
	int cpu;

	(void)state;
	put("proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU 9000\nmicrocode\t: 0xabc\n");
	put("proc/sys/kernel/osrelease", "6.1.0-test\n");
	put("proc/cmdline", "ro quiet isolcpus=2-5 nohz_full=2-5 rcu_nocbs=2-5\n");
	put("sys/devices/system/cpu/isolated", "2-5\n");
	put("sys/devices/system/cpu/nohz_full", "2-5\n");
	put("sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	for (cpu = 0; cpu < 6; cpu++) {
		char p[128], sib[16];

		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		snprintf(sib, sizeof(sib), "%d\n", cpu);
		put(p, sib);
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
		put(p, "performance\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/node0/x", cpu);
		put(p, "");
	}
	assert_int_equal(app_conditions_read(&in, root, &c), 0);
	dump(&c);
	assert_int_equal(c.n_warn, 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(c.json, "cpu"),
							       "model")), "Test CPU 9000");
	assert_string_equal(json_string_value(json_object_get(json_object_get(c.json, "cpu"),
							       "microcode")), "0xabc");
	assert_string_equal(json_string_value(json_object_get(c.json, "kernel")), "6.1.0-test");
	assert_true(json_is_false(json_object_get(c.json, "turbo")));
	w = json_array_get(json_object_get(c.json, "workers"), 1);
	assert_int_equal(json_integer_value(json_object_get(w, "lcore")), 4);
	assert_int_equal(json_integer_value(json_object_get(w, "cpu")), 4);
	assert_int_equal(json_integer_value(json_object_get(w, "node")), 0);
	assert_string_equal(json_string_value(json_object_get(w, "governor")), "performance");
	assert_true(json_is_true(json_object_get(w, "isolated")));
	assert_true(json_is_true(json_object_get(w, "nohz_full")));
	assert_true(json_is_true(json_object_get(w, "rcu_nocbs")));
	assert_string_equal(json_string_value(json_object_get(c.json, "hugepages")),
			    "hugepages (1 GiB)");
	assert_int_equal(json_array_size(json_object_get(c.json, "warnings")), 0);
	app_conditions_free(&c);
	wipe();
}

/* Everything a reviewer would frown at, one file at a time. */
static void
test_noisy(void **state)
{
	static const unsigned int lcores[] = { 1, 2, 3 };
	static const int cpus[] = { 1, 2, -1 }, pools[] = { 0, 1, -1 }, ports[] = { 1 };
	struct app_cond_in in = { .n_workers = 3, .lcores = lcores, .cpus = cpus,
		.main_lcore = 0, .main_cpu = 0, .n_ports = 1, .port_nodes = ports,
		.pool_nodes = pools, .hugepages = "no-huge (4 KiB pages)", .dpdk = "DPDK" };
	struct app_conditions c;

	(void)state;
	put("proc/cpuinfo", "model name\t: Noisy\n");
	put("proc/cmdline", "ro\n");
	put("sys/devices/system/cpu/isolated", "\n");
	put("sys/devices/system/cpu/cpufreq/boost", "1\n");
	/* CPUs 0 and 1 are siblings: lcore 1 shares the main lcore's core;
	 * CPU 2 is on node 1 */
	put("sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0-1\n");
	put("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "0-1\n");
	put("sys/devices/system/cpu/cpu2/topology/thread_siblings_list", "2\n");
	put("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
	put("sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "performance\n");
	put("sys/devices/system/cpu/cpu1/node0/x", "");
	put("sys/devices/system/cpu/cpu2/node1/x", "");
	assert_int_equal(app_conditions_read(&in, root, &c), 0);
	dump(&c);
	assert_true(has_warning(&c, "lcore 1 shares a core with the main lcore 0 (the "
				"stats and control threads)"));
	assert_true(has_warning(&c, "lcore 3 not pinned to one CPU: the scheduler moves them"));
	assert_true(has_warning(&c, "lcores 1, 2 not isolated (isolcpus): other tasks may run there"));
	assert_true(has_warning(&c, "lcores 1, 2 not tickless (nohz_full): the scheduler "
				"tick interrupts them"));
	assert_true(has_warning(&c, "lcore 1: frequency governor powersave, not performance"));
	assert_true(has_warning(&c, "turbo on: the frequency follows load and temperature"));
	assert_true(has_warning(&c, "lcore 1 on node 0, port 0 on node 1"));
	assert_true(has_warning(&c, "lcore 2 on node 1, its packet pool on node 1") == false);
	assert_int_equal(c.n_warn, 7);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(c.json,
		"workers"), 2), "cpu")));
	assert_string_equal(json_string_value(json_object_get(c.json, "kernel")), "unknown");
	app_conditions_free(&c);
	wipe();

	/* two workers on one core (SMT siblings), and no cpufreq at all */
	{
		static const int sib[] = { 4, 5 };
		struct app_cond_in in2 = in;

		in2.n_workers = 2;
		in2.cpus = sib;
		in2.pool_nodes = NULL;
		in2.n_ports = 0;
		put("sys/devices/system/cpu/cpu4/topology/thread_siblings_list", "4-5\n");
		put("sys/devices/system/cpu/cpu5/topology/thread_siblings_list", "4-5\n");
		assert_int_equal(app_conditions_read(&in2, root, &c), 0);
		dump(&c);
		assert_true(has_warning(&c, "lcore 1 shares its core with lcore 2 (SMT siblings)"));
		assert_true(has_warning(&c, "frequency governor unknown (no cpufreq in sysfs: "
					"a VM, or a driver that hides it)"));
		assert_true(json_is_null(json_object_get(c.json, "turbo")));
		app_conditions_free(&c);
		wipe();
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_tuned),
		cmocka_unit_test(test_noisy),
	};
	int rc;

	if (mkdtemp(root) == NULL)
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(root);
	return rc;
}
