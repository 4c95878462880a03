/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The conditions of a run, from sysfs and procfs (conditions.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conditions.h"

#ifndef PKTPATH_CFLAGS
#define PKTPATH_CFLAGS "unknown"
#endif
#ifdef __clang__
#define COND_COMPILER "clang " __clang_version__
#else
#define COND_COMPILER "gcc " __VERSION__
#endif

/* The first line of root/path into buf (no newline); false if unreadable. */
static bool
__line(const char *root, const char *path, char *buf, size_t len)
{
	char p[PATH_MAX];
	FILE *f;
	bool ok;

	snprintf(p, sizeof(p), "%s/%s", root, path);
	f = fopen(p, "re");
	if (f == NULL)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static bool
__cpu_file(const char *root, int cpu, const char *file, char *buf, size_t len)
{
	char p[128];

	snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/%s", cpu, file);
	return __line(root, p, buf, len);
}

bool
app_cond_cpulist_has(const char *list, int cpu)
{
	const char *s = list;

	if (list == NULL || cpu < 0)
		return false;
	while (*s != '\0') {
		char *end;
		long lo = strtol(s, &end, 10), hi;

		if (end == s)
			return false;
		hi = lo;
		s = end;
		if (*s == '-') {
			hi = strtol(s + 1, &end, 10);
			if (end == s + 1)
				return false;
			s = end;
		}
		if (cpu >= lo && cpu <= hi)
			return true;
		while (*s == ',' || *s == ' ')
			s++;
		if (*s != '\0' && (*s < '0' || *s > '9'))
			return false;
	}
	return false;
}

/* The NUMA node of a CPU (its sysfs folder's nodeN link), or -1. */
static int
__cpu_node(const char *root, int cpu)
{
	char p[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int node = -1;

	snprintf(p, sizeof(p), "%s/sys/devices/system/cpu/cpu%d", root, cpu);
	d = opendir(p);
	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' &&
		    e->d_name[4] <= '9') {
			node = atoi(e->d_name + 4);
			break;
		}
	closedir(d);
	return node;
}

/* The value of KEY= in the kernel's command line, or "". */
static void
__cmdline_value(const char *cmdline, const char *key, char *buf, size_t len)
{
	size_t k = strlen(key);
	const char *s = cmdline;

	buf[0] = '\0';
	while ((s = strstr(s, key)) != NULL) {
		if ((s == cmdline || s[-1] == ' ') && s[k] == '=') {
			size_t n = strcspn(s + k + 1, " ");

			snprintf(buf, len, "%.*s", (int)n, s + k + 1);
			return;
		}
		s += k;
	}
}

/* /proc/cpuinfo's first "key : value" into buf. */
static void
__cpuinfo(const char *root, const char *key, char *buf, size_t len)
{
	char p[PATH_MAX], line[512];
	FILE *f;

	snprintf(buf, len, "unknown");
	snprintf(p, sizeof(p), "%s/proc/cpuinfo", root);
	f = fopen(p, "re");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *c = strchr(line, ':');

		if (strncmp(line, key, strlen(key)) != 0 || c == NULL)
			continue;
		c++;
		while (*c == ' ' || *c == '\t')
			c++;
		c[strcspn(c, "\n")] = '\0';
		snprintf(buf, len, "%s", c);
		break;
	}
	fclose(f);
}

static void
__warn(struct app_conditions *c, const char *fmt, ...)
{
	va_list ap;

	if (c->n_warn >= APP_COND_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(c->warn[c->n_warn++], APP_COND_WARN_LEN, fmt, ap);
	va_end(ap);
}

/* "lcore 1" or "lcores 1, 3, 4" of the workers flagged in set. */
static void
__lcores(char *buf, size_t len, const struct app_cond_in *in, const bool *set)
{
	unsigned int w, n = 0;
	size_t o;

	for (w = 0; w < in->n_workers; w++)
		n += set[w];
	o = (size_t)snprintf(buf, len, "%s", n == 1 ? "lcore" : "lcores");
	for (w = 0, n = 0; w < in->n_workers && o < len; w++)
		if (set[w])
			o += (size_t)snprintf(buf + o, len - o, "%s %u", n++ ? "," : "",
					      in->lcores[w]);
}

static bool
__any(const bool *set, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (set[i])
			return true;
	return false;
}

/* Whether CPUs a and b share a core (the same CPU, or SMT siblings). */
static bool
__same_core(const char *root, int a, int b)
{
	char sib[256];

	if (a < 0 || b < 0)
		return false;
	if (a == b)
		return true;
	return __cpu_file(root, a, "topology/thread_siblings_list", sib, sizeof(sib)) &&
	       app_cond_cpulist_has(sib, b);
}

/* The turbo / boost state: 1 on, 0 off, -1 unknown. */
static int
__turbo(const char *root)
{
	char v[32];

	if (__line(root, "sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof(v)))
		return v[0] == '0';
	if (__line(root, "sys/devices/system/cpu/cpufreq/boost", v, sizeof(v)))
		return v[0] == '1';
	return -1;
}

int
app_conditions_read(const struct app_cond_in *in, const char *root,
		    struct app_conditions *c)
{
	char model[256], ucode[64], kernel[256], cmdline[4096] = "", isolated[512] = "",
	     nohz[512] = "", nocbs[512] = "", buf[256], who[APP_COND_WARN_LEN];
	bool *not_iso = calloc(in->n_workers + 1, sizeof(bool));
	bool *not_nohz = calloc(in->n_workers + 1, sizeof(bool));
	bool *slow_gov = calloc(in->n_workers + 1, sizeof(bool));
	bool *with_main = calloc(in->n_workers + 1, sizeof(bool));
	bool *floating = calloc(in->n_workers + 1, sizeof(bool));
	json_t *workers = json_array(), *ports = json_array();
	unsigned int w, v;
	bool have_cpufreq = false;
	int turbo;

	memset(c, 0, sizeof(*c));
	if (root == NULL)
		root = "";
	if (not_iso == NULL || not_nohz == NULL || slow_gov == NULL ||
	    with_main == NULL || floating == NULL || workers == NULL || ports == NULL) {
		free(not_iso);
		free(not_nohz);
		free(slow_gov);
		free(with_main);
		free(floating);
		json_decref(workers);
		json_decref(ports);
		return -ENOMEM;
	}
	__cpuinfo(root, "model name", model, sizeof(model));
	__cpuinfo(root, "microcode", ucode, sizeof(ucode));
	if (!__line(root, "proc/sys/kernel/osrelease", kernel, sizeof(kernel)))
		snprintf(kernel, sizeof(kernel), "unknown");
	__line(root, "proc/cmdline", cmdline, sizeof(cmdline));
	__line(root, "sys/devices/system/cpu/isolated", isolated, sizeof(isolated));
	/* nohz_full: sysfs has it with CONFIG_NO_HZ_FULL; else the command line */
	if (!__line(root, "sys/devices/system/cpu/nohz_full", nohz, sizeof(nohz)))
		__cmdline_value(cmdline, "nohz_full", nohz, sizeof(nohz));
	/* rcu_nocbs: the command line's, and nohz_full's CPUs imply it */
	__cmdline_value(cmdline, "rcu_nocbs", nocbs, sizeof(nocbs));
	turbo = __turbo(root);

	for (w = 0; w < in->n_workers; w++) {
		int cpu = in->cpus[w];
		char sib[256] = "", gov[64] = "";
		json_t *o;

		floating[w] = cpu < 0;
		if (cpu >= 0) {
			__cpu_file(root, cpu, "topology/thread_siblings_list", sib, sizeof(sib));
			if (__cpu_file(root, cpu, "cpufreq/scaling_governor", gov, sizeof(gov)))
				have_cpufreq = true;
		}
		not_iso[w] = cpu >= 0 && !app_cond_cpulist_has(isolated, cpu);
		not_nohz[w] = cpu >= 0 && !app_cond_cpulist_has(nohz, cpu);
		slow_gov[w] = gov[0] != '\0' && strcmp(gov, "performance") != 0;
		with_main[w] = __same_core(root, cpu, in->main_cpu);
		o = json_pack("{s:i, s:o, s:o, s:o, s:o, s:b, s:b, s:b, s:o}",
			"lcore", (int)in->lcores[w],
			"cpu", cpu >= 0 ? json_integer(cpu) : json_null(),
			"siblings", sib[0] ? json_string(sib) : json_null(),
			"node", cpu >= 0 && __cpu_node(root, cpu) >= 0 ?
				json_integer(__cpu_node(root, cpu)) : json_null(),
			"governor", gov[0] ? json_string(gov) : json_null(),
			"isolated", cpu >= 0 && app_cond_cpulist_has(isolated, cpu),
			"nohz_full", cpu >= 0 && app_cond_cpulist_has(nohz, cpu),
			"rcu_nocbs", cpu >= 0 && (app_cond_cpulist_has(nocbs, cpu) ||
						  app_cond_cpulist_has(nohz, cpu)),
			"pool_node", in->pool_nodes != NULL && in->pool_nodes[w] >= 0 ?
				json_integer(in->pool_nodes[w]) : json_null());
		json_array_append_new(workers, o);
	}
	/* the warnings, most damaging first */
	for (w = 0; w < in->n_workers; w++)
		for (v = w + 1; v < in->n_workers; v++)
			if (__same_core(root, in->cpus[w], in->cpus[v]))
				__warn(c, "lcore %u shares its core with lcore %u%s",
				       in->lcores[w], in->lcores[v],
				       in->cpus[w] == in->cpus[v] ? " (the same CPU)" :
				       " (SMT siblings)");
	if (__any(with_main, in->n_workers)) {
		__lcores(who, sizeof(who), in, with_main);
		__warn(c, "%s share%s a core with the main lcore %u (the stats and "
		       "control threads)", who, strchr(who, ',') ? "" : "s",
		       in->main_lcore);
	}
	if (__any(floating, in->n_workers)) {
		__lcores(who, sizeof(who), in, floating);
		__warn(c, "%s not pinned to one CPU: the scheduler moves them", who);
	}
	if (__any(not_iso, in->n_workers)) {
		__lcores(who, sizeof(who), in, not_iso);
		__warn(c, "%s not isolated (isolcpus): other tasks may run there", who);
	}
	if (__any(not_nohz, in->n_workers)) {
		__lcores(who, sizeof(who), in, not_nohz);
		__warn(c, "%s not tickless (nohz_full): the scheduler tick interrupts "
		       "them", who);
	}
	if (__any(slow_gov, in->n_workers)) {
		buf[0] = '\0';
		for (w = 0; w < in->n_workers && buf[0] == '\0'; w++)
			if (slow_gov[w])
				__cpu_file(root, in->cpus[w], "cpufreq/scaling_governor",
					   buf, sizeof(buf));
		__lcores(who, sizeof(who), in, slow_gov);
		__warn(c, "%s: frequency governor %s, not performance", who, buf);
	}
	if (in->n_workers > 0 && !have_cpufreq)
		__warn(c, "frequency governor unknown (no cpufreq in sysfs: a VM, or a "
		       "driver that hides it)");
	if (turbo == 1)
		__warn(c, "turbo on: the frequency follows load and temperature");
	for (v = 0; v < in->n_ports; v++) {
		int pn = in->port_nodes[v];

		json_array_append_new(ports, json_pack("{s:i, s:o}", "port", (int)v,
			"node", pn >= 0 ? json_integer(pn) : json_null()));
	}
	for (w = 0; w < in->n_workers; w++) {
		int node = in->cpus[w] >= 0 ? __cpu_node(root, in->cpus[w]) : -1;

		if (node >= 0 && in->pool_nodes != NULL && in->pool_nodes[w] >= 0 &&
		    in->pool_nodes[w] != node)
			__warn(c, "lcore %u on node %d, its packet pool on node %d",
			       in->lcores[w], node, in->pool_nodes[w]);
		for (v = 0; v < in->n_ports && node >= 0; v++)
			if (in->port_nodes[v] >= 0 && in->port_nodes[v] != node) {
				__warn(c, "lcore %u on node %d, port %u on node %d",
				       in->lcores[w], node, v, in->port_nodes[v]);
				break;
			}
	}
	{
		json_t *warn = json_array();
		char msib[256] = "";

		for (w = 0; w < c->n_warn; w++)
			json_array_append_new(warn, json_string(c->warn[w]));
		if (in->main_cpu >= 0)
			__cpu_file(root, in->main_cpu, "topology/thread_siblings_list",
				   msib, sizeof(msib));
		c->json = json_pack("{s:{s:s, s:s}, s:s, s:s, s:s, s:s, s:s, s:s, s:o, "
				    "s:o, s:{s:i, s:o, s:o}, s:o, s:o}",
			"cpu", "model", model, "microcode", ucode,
			"kernel", kernel, "cmdline", cmdline,
			"dpdk", in->dpdk ? in->dpdk : "unknown",
			"compiler", COND_COMPILER, "cflags", PKTPATH_CFLAGS,
			"hugepages", in->hugepages ? in->hugepages : "unknown",
			"turbo", turbo < 0 ? json_null() : json_boolean(turbo),
			"workers", workers,
			"main", "lcore", (int)in->main_lcore,
			"cpu", in->main_cpu >= 0 ? json_integer(in->main_cpu) : json_null(),
			"siblings", msib[0] ? json_string(msib) : json_null(),
			"ports", ports, "warnings", warn);
	}
	free(not_iso);
	free(not_nohz);
	free(slow_gov);
	free(with_main);
	free(floating);
	return c->json != NULL ? 0 : -ENOMEM;
}

void
app_conditions_free(struct app_conditions *c)
{
	json_decref(c->json);
	c->json = NULL;
	c->n_warn = 0;
}

/* "x" of a JSON string member, or dflt. */
static const char *
__js(const json_t *o, const char *k, const char *dflt)
{
	const char *v = json_string_value(json_object_get(o, k));

	return v != NULL ? v : dflt;
}

void
app_conditions_print(FILE *out, const struct app_conditions *c)
{
	const json_t *j = c->json, *cpu, *ws, *t;
	size_t i, n;

	if (j == NULL)
		return;
	cpu = json_object_get(j, "cpu");
	t = json_object_get(j, "turbo");
	fprintf(out, "host: %s (microcode %s), kernel %s, %s, turbo %s\n",
		__js(cpu, "model", "unknown"), __js(cpu, "microcode", "unknown"),
		__js(j, "kernel", "unknown"), __js(j, "compiler", "unknown"),
		json_is_true(t) ? "on" : json_is_false(t) ? "off" : "unknown");
	ws = json_object_get(j, "workers");
	n = json_array_size(ws);
	for (i = 0; i < n && i < 8; i++) {
		const json_t *w = json_array_get(ws, i);
		const json_t *cp = json_object_get(w, "cpu"), *nd = json_object_get(w, "node");
		char where[48], node[24];

		if (json_is_integer(cp))
			snprintf(where, sizeof(where), "CPU %" JSON_INTEGER_FORMAT,
				 json_integer_value(cp));
		else
			snprintf(where, sizeof(where), "no single CPU");
		if (json_is_integer(nd))
			snprintf(node, sizeof(node), "%" JSON_INTEGER_FORMAT,
				 json_integer_value(nd));
		else
			snprintf(node, sizeof(node), "unknown");
		fprintf(out, "host: lcore %" JSON_INTEGER_FORMAT " on %s (SMT siblings %s, "
			"node %s), governor %s, %sisolated, %stickless\n",
			json_integer_value(json_object_get(w, "lcore")), where,
			__js(w, "siblings", "unknown"), node, __js(w, "governor", "unknown"),
			json_is_true(json_object_get(w, "isolated")) ? "" : "not ",
			json_is_true(json_object_get(w, "nohz_full")) ? "" : "not ");
	}
	if (n > 8)
		fprintf(out, "host: %zu more workers (the JSON's info.conditions.workers)\n",
			n - 8);
	for (i = 0; i < c->n_warn; i++)
		fprintf(out, "conditions: %s\n", c->warn[i]);
}
