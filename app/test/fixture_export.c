/* SPDX-License-Identifier: BSD-3-Clause */
/* The test_export_*.c programs' fixture (fixture_export.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include <cmocka.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <rte_eal.h>

#include "fixture_export.h"

json_t *info;

/* ---- hooks: a fake ingress ---- */

static pthread_mutex_t hk_lock = PTHREAD_MUTEX_INITIALIZER;
char hk_mode[32] = "off";
int hk_mode_calls, hk_rules_calls;

static int
hk_set_mode(void *arg, const char *mode, const char *source, char *err, size_t len)
{
	(void)arg;
	/* "slow": a flip that waits 1.5 s (a long grace period) */
	if (strcmp(mode, "slow") == 0) {
		usleep(1500 * 1000);
		return 0;
	}
	if (strcmp(mode, "off") && strcmp(mode, "lock") && strcmp(mode, "rcu")) {
		snprintf(err, len, "unknown mode '%s' (off|lock|rcu)", mode);
		return -EINVAL;
	}
	pthread_mutex_lock(&hk_lock);
	snprintf(hk_mode, sizeof(hk_mode), "%s", mode);
	hk_mode_calls++;
	pthread_mutex_unlock(&hk_lock);
	return 0;
}

static int
hk_load_rules(void *arg, const char *body, size_t len, char *err, size_t elen)
{
	(void)arg;
	/* NUL-terminated by the server. On the server's thread: no cmocka
	 * assertion (its longjmp belongs to the test's thread), a refusal the
	 * test sees in the reply instead. */
	if (strlen(body) != len) {
		snprintf(err, elen, "body of %zu bytes not NUL-terminated at its length",
			 len);
		return -EINVAL;
	}
	if (strncmp(body, "rule ", 5) != 0) {
		snprintf(err, elen, "line 1: expected 'rule'");
		return -EINVAL;
	}
	__atomic_add_fetch(&hk_rules_calls, 1, __ATOMIC_RELAXED);
	return 0;
}

json_t *
hk_state(void *arg)
{
	json_t *j;

	(void)arg;
	pthread_mutex_lock(&hk_lock);
	j = json_pack("{s:s, s:[s,s,s], s:s}", "mode", hk_mode, "modes", "off",
		      "lock", "rcu", "scope", "burst");
	pthread_mutex_unlock(&hk_lock);
	return j;
}

const struct export_hooks hooks = {
	hk_set_mode, hk_load_rules, hk_state, NULL };

int
fixture_export_setup(void **state)
{
	if (fixture_stats_setup(state) != 0)
		return -1;
	info = json_pack("{s:s, s:s, s:s, s:I, s:[s,s], s:{s:s, s:s, s:i, s:[i,i]}}",
		"version", "0.1.0", "dpdk", "DPDK 22.11.11", "cpu", "Test \"CPU\"",
		"tsc_hz", (json_int_t)2000000000, "args", "pktpath", "--quiet",
		"config", "fold", "lcore", "source", "gen", "burst", 32,
		"worker_lcores", 1, 2);
	if (info != NULL)
		json_object_set_new(info, "conditions", json_pack("{s:{s:s}, s:s, s:s, "
			"s:[s,s]}", "cpu", "microcode", "0x1", "kernel", "6.1.0",
			"compiler", "gcc 12", "warnings", "lcore 1 not \"isolated\"",
			"turbo on"));
	return info == NULL ? -1 : 0;
}

int
fixture_export_teardown(void **state)
{
	export_telemetry_unregister();
	fixture_stats_teardown(state);
	json_decref(info);
	return 0;
}

/* ---- text parsers ---- */

/* "Grp: a b c\nGrp: 1 2 3\n" -> check every value against v; returns the
 * number of fields checked. */
unsigned int
snmp_check(const char *text, const uint64_t *v)
{
	char *dup = strdup(text), *save = NULL, *hdr, *val;
	unsigned int n = 0;

	for (hdr = strtok_r(dup, "\n", &save); hdr != NULL;
	     hdr = strtok_r(NULL, "\n", &save)) {
		char *hs = NULL, *vs = NULL, *hn, *vn, grp[32];
		size_t gl = strcspn(hdr, ":");

		val = strtok_r(NULL, "\n", &save);
		assert_non_null(val);
		assert_int_equal(strncmp(hdr, val, gl + 1), 0);
		snprintf(grp, sizeof(grp), "%.*s", (int)gl, hdr);
		hn = strtok_r(hdr + gl + 1, " ", &hs);
		vn = strtok_r(val + gl + 1, " ", &vs);
		for (; hn != NULL; hn = strtok_r(NULL, " ", &hs),
		     vn = strtok_r(NULL, " ", &vs)) {
			int f;

			assert_non_null(vn);
			f = mib_field_lookup(grp, hn);
			assert_true(f >= 0);
			if (mib_field_kind((unsigned int)f) == MIB_KIND_CONST)
				assert_int_equal(strtoll(vn, NULL, 10),
						 (int64_t)v[f]);
			else
				assert_int_equal(strtoull(vn, NULL, 10), v[f]);
			n++;
		}
		assert_null(vn);
	}
	free(dup);
	return n;
}

unsigned int
__icmpmsg_nonzero(const uint64_t *v)
{
	unsigned int i, n = 0;

	for (i = 0; i < MIB_ICMPMSG_MAX; i++)
		n += v[MIB_ICMPMSG_IN(i)] != 0;
	return n;
}

/* Value of sample "name{labels}" in a Prometheus text, or -1. */
double
prom_value(const char *text, const char *sample)
{
	size_t n = strlen(sample);
	const char *p = text;

	while ((p = strstr(p, sample)) != NULL) {
		if ((p == text || p[-1] == '\n') && p[n] == ' ')
			return strtod(p + n + 1, NULL);
		p += n;
	}
	return -1;
}

/* Every counter sample of b is >= the same sample in a. */
void
prom_monotonic(const char *a, const char *b)
{
	char *dup = strdup(b), *save = NULL, *line;
	unsigned int n = 0;

	for (line = strtok_r(dup, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' '), *brace;
		double old, now;

		if (line[0] == '#' || sp == NULL)
			continue;
		*sp = '\0';
		brace = strchr(line, '{');
		if (brace ? strncmp(brace - 6, "_total", 6) != 0 :
		    strcmp(line + strlen(line) - 6, "_total") != 0)
			continue;
		old = prom_value(a, line);
		now = strtod(sp + 1, NULL);
		if (old > now)
			fail_msg("counter %s went back: %g -> %g", line, old, now);
		n++;
	}
	assert_true(n > 100);
	free(dup);
}

static bool
have_promtool(void)
{
	return system("command -v promtool > /dev/null 2>&1") == 0;
}

/* promtool check metrics accepts text. setup.sh installs promtool
 * (prometheus): its absence fails, as a skip would pass untested. */
void
promtool_ok(const char *text)
{
	char path[] = "/tmp/test_export_metrics_XXXXXX", cmd[256], out[4096];
	FILE *p;
	size_t n;
	int fd, rc;

	if (!have_promtool())
		fail_msg("promtool not found (scripts/setup.sh installs prometheus)");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 2>&1", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	rc = pclose(p);
	unlink(path);
	if (rc != 0)
		fail_msg("promtool check metrics: %s", out);
}

int
tel_connect(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char buf[1024];
	int fd;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0)
		fail_msg("no telemetry socket %s: %s", sun.sun_path, strerror(errno));
	assert_true(recv(fd, buf, sizeof(buf), 0) > 0); /* the info banner */
	return fd;
}

char *
tel_text(int fd, const char *cmd)
{
	char *buf = malloc(16384 + 1);
	ssize_t n;

	assert_non_null(buf);
	assert_int_equal(send(fd, cmd, strlen(cmd), 0), (ssize_t)strlen(cmd));
	n = recv(fd, buf, 16384, 0);
	assert_true(n > 0);
	buf[n] = '\0';
	return buf;
}

json_t *
tel_query(int fd, const char *cmd)
{
	char *buf = tel_text(fd, cmd), name[64];
	json_error_t jerr;
	json_t *j, *v;

	j = json_loads(buf, 0, &jerr);
	if (j == NULL)
		fail_msg("%s: invalid JSON '%s': %s", cmd, buf, jerr.text);
	free(buf);
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(cmd, ","), cmd);
	v = json_incref(json_object_get(j, name));
	json_decref(j);
	return v;
}

char *
render(int (*fn)(FILE *, const struct stats_snapshot *, const void *),
       const void *arg)
{
	struct stats_snapshot *snap = stats_get(st);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(fn(f, snap, arg), 0);
	fclose(f);
	stats_put(st, snap);
	return buf;
}

int
w_prom(FILE *f, const struct stats_snapshot *s, const void *arg)
{
	return export_prom_write(f, s, arg);
}

int
w_snmp(FILE *f, const struct stats_snapshot *s, const void *arg)
{
	return export_snmp_write(f, s, *(const enum export_snmp_file *)arg);
}
