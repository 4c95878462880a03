/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_CONDITIONS_H
#define PKTPATH_CONDITIONS_H

/*
 * The conditions of a run: what a reviewer asks before believing a figure,
 * read from sysfs and procfs (nothing required, everything said), and the
 * ones that make the figures noisier, as warning lines:
 *
 *   the CPU model and microcode; each worker's CPU, its SMT siblings, its
 *   NUMA node, its frequency governor and whether it is isolated
 *   (isolcpus), tickless (nohz_full) and free of RCU callbacks (rcu_nocbs);
 *   turbo / boost; the NUMA node of each port and packet pool; the hugepage
 *   size; the kernel; DPDK; the compiler and its flags.
 *
 * Warnings, one line each: "lcore 1 shares its core with lcore 2" (SMT
 * siblings, or one CPU), "lcore 1 shares its core with the main lcore 0",
 * "lcore 1 is not isolated (isolcpus)", "lcore 1 has the scheduler tick
 * (no nohz_full)", "lcore 1: governor powersave", "turbo on", "lcore 1 on
 * node 0, its port on node 1", "no cpufreq: frequency unknown (a VM?)".
 *
 * The readers take a root folder (NULL: "/"), under which "sys/..." and
 * "proc/..." are read, so that the tests give fake trees. Main thread only.
 */

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/* What the application knows of the run that the host files do not say. */
struct app_cond_in {
	unsigned int n_workers;
	const unsigned int *lcores;	/* the workers' lcores */
	const int *cpus;		/* the CPU of each (-1: floating over several) */
	unsigned int main_lcore;
	int main_cpu;			/* -1: floating */
	unsigned int n_ports;
	const int *port_nodes;		/* NUMA node of each port (-1: unknown) */
	const int *pool_nodes;		/* of each worker's packet pool (-1: none) */
	const char *hugepages;		/* "hugepages (2 MiB)", "no-huge (4 KiB pages)" */
	const char *dpdk;		/* rte_version() */
};

#define APP_COND_WARN_MAX 64
#define APP_COND_WARN_LEN 160

struct app_conditions {
	json_t *json;			/* the "conditions" object */
	unsigned int n_warn;
	char warn[APP_COND_WARN_MAX][APP_COND_WARN_LEN];
};

/*
 * Read the conditions of a run with in's workers under root (NULL: "/").
 * c->json: {"cpu": {"model", "microcode"}, "kernel", "cmdline", "dpdk",
 * "compiler", "cflags", "hugepages", "turbo" (true, false or null),
 * "workers": [{"lcore", "cpu", "siblings" (a CPU list), "node",
 * "governor", "isolated", "nohz_full", "rcu_nocbs", "pool_node"}],
 * "main": {"lcore", "cpu", "siblings"}, "ports": [{"port", "node"}],
 * "warnings": [the lines]}. 0, or -ENOMEM.
 */
int app_conditions_read(const struct app_cond_in *in, const char *root,
			struct app_conditions *c);
void app_conditions_free(struct app_conditions *c);

/* The banner's lines: "host: CPU (microcode), kernel, compiler, turbo",
 * one "host: lcore L on CPU C (SMT siblings, node), governor, isolated,
 * tickless" per worker (the first 8), then one "conditions: WARNING" per
 * warning. */
void app_conditions_print(FILE *out, const struct app_conditions *c);

/* Whether CPU cpu is in the kernel's CPU list text ("0-3,8,10-11"). */
bool app_cond_cpulist_has(const char *list, int cpu);

#endif
