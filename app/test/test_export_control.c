/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/export's control table (control.c, control_signal.c),
 * walked row by row. Every reading command is reachable over HTTP (GET)
 * and, where it names one, telemetry, with the same values both ways (its
 * parameters too); a bad parameter is a 4xx and one line over HTTP, null
 * over telemetry; /snmp and /netstat say what /pktpath/mib says group by
 * group. Every changing command is reachable over HTTP (POST), over DPDK
 * telemetry (its socket) and, where the row says so, by its signal, and
 * each transport gives the same result line and makes the same hook call
 * (source aside); a changing command is refused where control is off and
 * calls nothing; a bad argument of each type gets one line and a 400 (HTTP),
 * {"error", "status": 400} (telemetry) or a refusal line (signals), and
 * calls nothing; a command the run cannot serve answers 501. The reference
 * in lib/export/README.md is what the table prints
 * (CONTROL_README_WRITE=1 rewrites it).
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>
#include <sys/socket.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_log.h>

#include "export_control.h"
#include "fixture_http.h"
#include "stats_series.h"
#include "mib.h"
#include "mib_dev.h"

#ifndef PKTPATH_SOURCE_ROOT
#error "PKTPATH_SOURCE_ROOT: the source tree (app/test/meson.build sets it)"
#endif
#define README PKTPATH_SOURCE_ROOT "/lib/export/README.md"
#define BEGIN_MARK \
	"<!-- control table: CONTROL_README_WRITE=1 build/app/test/test_export_control -->\n"
#define END_MARK "<!-- end of the control table -->\n"

/* ---- hooks that record their calls ---- */

static struct {
	unsigned int n; /* calls */
	char call[512]; /* the last: "set_mode rcu", "load_rules TEXT", ... */
	char source[96];
	char mode[32]; /* the fake ingress's mode */
} rec = { .mode = "off" };

static int
rec_set_mode(void *arg, const char *mode, const char *source, char *err, size_t len)
{
	static const char *const next[][2] = { { "off", "lock" },
					       { "lock", "rcu" },
					       { "rcu", "off" } };
	unsigned int i;

	(void)arg;
	if (mode != NULL && strcmp(mode, "off") && strcmp(mode, "lock") &&
	    strcmp(mode, "rcu")) {
		snprintf(err, len, "unknown mode '%s' (off|lock|rcu)", mode);
		return -EINVAL;
	}
	for (i = 0; mode == NULL && i < RTE_DIM(next); i++)
		if (strcmp(rec.mode, next[i][0]) == 0) {
			mode = next[i][1];
			break;
		}
	snprintf(rec.mode, sizeof(rec.mode), "%s", mode);
	snprintf(rec.call, sizeof(rec.call), "set_mode %s", mode);
	snprintf(rec.source, sizeof(rec.source), "%s", source);
	rec.n++;
	return 0;
}

static int
rec_load_rules(void *arg, const char *body, size_t len, char *err, size_t elen)
{
	(void)arg;
	assert_int_equal(strlen(body), len);
	if (strncmp(body, "rule ", 5) != 0) {
		snprintf(err, elen, "line 1: expected 'rule'");
		return -EINVAL;
	}
	snprintf(rec.call, sizeof(rec.call), "load_rules %s", body);
	rec.source[0] = '\0';
	rec.n++;
	return 0;
}

static int
rec_reload(void *arg, const char *source, char *err, size_t errlen)
{
	(void)arg;
	snprintf(rec.call, sizeof(rec.call), "reload");
	snprintf(rec.source, sizeof(rec.source), "%s", source);
	snprintf(err, errlen, "--rules reloaded");
	rec.n++;
	return 0;
}

static json_t *
rec_state(void *arg)
{
	(void)arg;
	return json_pack("{s:s, s:[s,s,s]}", "mode", rec.mode, "modes", "off", "lock",
			 "rcu");
}

static const struct export_hooks rec_hooks = {
	.set_mode = rec_set_mode,
	.load_rules = rec_load_rules,
	.ingress_state = rec_state,
	.reload = rec_reload,
};

/* A valid argument of each type: HTTP body, telemetry parameter, signal
 * value (< 0: none), and a bad one of each (the signal's: out of range). */
static const struct {
	const char *body, *param;
	int value;
	const char *bad_body, *bad_param;
	int bad_value;
} args[EXPORT_CTL_ARG_MAX] = {
	[EXPORT_CTL_ARG_NONE] = { NULL, NULL, -1, "x", "x", -1 },
	/* 4: rcu, enum ingress_mode's number */
	[EXPORT_CTL_ARG_MODE] = { "mode=rcu", "rcu", 4, "mode=r%u", "r%u", 9 },
	[EXPORT_CTL_ARG_TEXT] = { "rule drop udp", "rule drop udp", -1, "", "", -1 },
};

/* The line with every run of digits as "N" (a clear's count grows). */
static void
shape(char *s)
{
	char *w = s;

	for (; *s != '\0'; s++) {
		if (isdigit((unsigned char)*s)) {
			if (w == s || !isdigit((unsigned char)s[-1]))
				*w++ = 'N';
			continue;
		}
		*w++ = *s;
	}
	*w = '\0';
}

/* ---- the three transports ---- */

static int tel_fd = -1;

/* Telemetry: cmd (with ",PARAM") -> its reply's value (a new ref). */
static json_t *
tel(const char *cmd)
{
	return tel_query(tel_fd, cmd);
}

static json_t *
tel_cmd(const struct export_ctl_cmd *c, const char *param)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s%s%s", c->telemetry, param ? "," : "",
		 param ? param : "");
	return tel(buf);
}

/* HTTP: POST the row's path; the status, the body in line (no '\n'). */
static int
post(uint16_t port, const struct export_ctl_cmd *c, const char *body, char *line,
     size_t len)
{
	struct resp r;
	int status;

	if (http(port, "POST", c->http,
		 c->arg == EXPORT_CTL_ARG_MODE ? "application/x-www-form-urlencoded"
					       : NULL,
		 body, &r) != 0)
		fail_msg("POST %s: no response", c->http);
	if (r.len == 0 || r.body[r.len - 1] != '\n' ||
	    memchr(r.body, '\n', r.len - 1) != NULL)
		fail_msg("POST %s: not one line: '%s'", c->http, r.body);
	snprintf(line, len, "%.*s", (int)r.len - 1, r.body);
	status = r.status;
	free(r.body);
	return status;
}

/* A signal: the row's, with value (< 0: none), to this thread (delivered
 * before pthread_sigqueue() / raise() return), run, its log line in line. */
static void
signal_run(const struct export_ctl_cmd *c, int value, char *line, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	assert_int_equal(rte_openlog_stream(f), 0);
	if (value >= 0)
		assert_int_equal(pthread_sigqueue(pthread_self(), c->signal,
						  (union sigval){ .sival_int = value }),
				 0);
	else
		assert_int_equal(raise(c->signal), 0);
	export_control_signals_run(st, &rec_hooks);
	rte_openlog_stream(NULL);
	fclose(f);
	if (n == 0 || buf[n - 1] != '\n' || memchr(buf, '\n', n - 1) != NULL)
		fail_msg("%s: not one log line: '%s'", c->name, buf ? buf : "");
	snprintf(line, len, "%.*s", (int)n - 1, buf);
	free(buf);
}

/* ---- tests ---- */

static void
test_control_same_everywhere(void **state)
{
	const struct export_ctl_cmd *t;
	struct export_http *h = start(true, &rec_hooks, 8, 10);
	uint16_t port = export_http_port(h);
	char line[512], want[512], call[512], src[96], got[512];
	unsigned int i, n, calls;
	json_t *v;

	(void)state;
	export_telemetry_control(true);
	t = export_control_table(&n);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		const struct export_ctl_cmd *c = &t[i];

		if (!c->change)
			continue; /* test_control_reading */
		if (c->http == NULL || c->telemetry == NULL)
			fail_msg("%s: not served over HTTP and telemetry", c->name);
		assert_ptr_equal(export_control_by_http(c->http), c);
		assert_ptr_equal(export_control_by_telemetry(c->telemetry), c);
		snprintf(rec.mode, sizeof(rec.mode), "off");
		calls = rec.n;
		if (post(port, c, args[c->arg].body, want, sizeof(want)) != 200)
			fail_msg("POST %s: '%s'", c->http, want);
		shape(want);
		snprintf(call, sizeof(call), "%s", rec.call);
		snprintf(src, sizeof(src), "POST %s from 127.0.0.1", c->http);
		if (strcmp(c->name, "stats/clear") != 0)
			assert_int_equal(rec.n, calls + 1);
		if (rec.n != calls && rec.source[0] != '\0')
			assert_string_equal(rec.source, src);

		/* telemetry: the same line, the same call */
		snprintf(rec.mode, sizeof(rec.mode), "off");
		calls = rec.n;
		v = tel_cmd(c, args[c->arg].param);
		if (!json_is_string(json_object_get(v, "result")))
			fail_msg("%s: no result: %s", c->telemetry,
				 json_dumps(v, JSON_COMPACT));
		snprintf(got, sizeof(got), "%s",
			 json_string_value(json_object_get(v, "result")));
		json_decref(v);
		shape(got);
		assert_string_equal(got, want);
		if (strcmp(c->name, "stats/clear") != 0) {
			assert_int_equal(rec.n, calls + 1);
			assert_string_equal(rec.call, call);
		}
		snprintf(src, sizeof(src), "telemetry %s", c->telemetry);
		if (rec.n != calls && rec.source[0] != '\0')
			assert_string_equal(rec.source, src);

		/* the signal, where the row has one */
		if (c->signal == 0)
			continue;
		snprintf(rec.mode, sizeof(rec.mode), "off");
		calls = rec.n;
		signal_run(c, args[c->arg].value, line, sizeof(line));
		assert_int_equal(rec.n, calls + 1);
		assert_string_equal(rec.call, call);
		snprintf(src, sizeof(src), "SIG%s%s", sigabbrev_np(c->signal),
			 c->signal_pid ? " from pid " : "");
		if (c->signal_pid)
			snprintf(src + strlen(src), sizeof(src) - strlen(src), "%d",
				 (int)getpid());
		assert_string_equal(rec.source, src);
		snprintf(got, sizeof(got), "pktpath: %s: ", src);
		if (strncmp(line, got, strlen(got)) != 0)
			fail_msg("%s: log line '%s', want '%s...'", c->name, line, got);
		memmove(line, line + strlen(got), strlen(line + strlen(got)) + 1);
		shape(line);
		assert_string_equal(line, want);
	}
	/* SIGUSR1 without a value: the next mode (off -> lock here) */
	snprintf(rec.mode, sizeof(rec.mode), "off");
	signal_run(export_control_by_signal(SIGUSR1), -1, line, sizeof(line));
	assert_string_equal(rec.call, "set_mode lock");
	assert_non_null(strstr(line, ": mode lock"));
	export_http_stop(h);
}

static void
test_control_refused(void **state)
{
	const struct export_ctl_cmd *t;
	struct export_http *off = start(false, &rec_hooks, 8, 10);
	struct export_http *on = start(true, &rec_hooks, 8, 10);
	struct export_http *none = start(true, NULL, 8, 10);
	const struct export_hooks no_hooks = { .ingress_state = rec_state };
	char line[512];
	unsigned int i, n, calls = rec.n;
	json_t *v;

	(void)state;
	t = export_control_table(&n);
	for (i = 0; i < n; i++) {
		const struct export_ctl_cmd *c = &t[i];

		if (!c->change)
			continue; /* test_control_reading */
		/* control off: 403, an error over telemetry, nothing called */
		if (c->change) {
			export_telemetry_control(false);
			if (post(export_http_port(off), c, args[c->arg].body, line,
				 sizeof(line)) != 403 ||
			    strstr(line, "--http-control") == NULL)
				fail_msg("%s, control off: '%s'", c->http, line);
			v = tel_cmd(c, args[c->arg].param);
			assert_int_equal(json_integer_value(json_object_get(v, "status")),
					 403);
			assert_non_null(
				strstr(json_string_value(json_object_get(v, "error")),
				       "--http-control"));
			json_decref(v);
		}
		/* a bad argument: 400, one line; nothing called */
		export_telemetry_control(true);
		if (args[c->arg].bad_body != NULL) {
			if (post(export_http_port(on), c, args[c->arg].bad_body, line,
				 sizeof(line)) != 400)
				fail_msg("%s '%s': '%s'", c->http, args[c->arg].bad_body,
					 line);
			v = tel_cmd(c, args[c->arg].bad_param);
			if (json_integer_value(json_object_get(v, "status")) != 400 ||
			    !json_is_string(json_object_get(v, "error")))
				fail_msg("%s '%s': %s", c->telemetry,
					 args[c->arg].bad_param,
					 json_dumps(v, JSON_COMPACT));
			json_decref(v);
		}
		if (c->signal != 0 && args[c->arg].bad_value >= 0) {
			signal_run(c, args[c->arg].bad_value, line, sizeof(line));
			if (strstr(line, ": refused: value ") == NULL)
				fail_msg("%s: '%s'", c->name, line);
		}
		/* a run without the hook: 501 over both */
		if (!c->avail(&no_hooks)) {
			if (post(export_http_port(none), c, args[c->arg].body, line,
				 sizeof(line)) != 501)
				fail_msg("%s without a hook: '%s'", c->http, line);
			assert_int_equal(export_telemetry_register(st, info, &no_hooks),
					 0);
			export_telemetry_control(true);
			v = tel_cmd(c, args[c->arg].param);
			assert_int_equal(json_integer_value(json_object_get(v, "status")),
					 501);
			json_decref(v);
			assert_int_equal(export_telemetry_register(st, info, &rec_hooks),
					 0);
		}
	}
	/* a hook's refusal: "mode NAME: REASON", 400 both ways */
	v = tel("/pktpath/ingress_mode,lockless");
	assert_int_equal(json_integer_value(json_object_get(v, "status")), 400);
	assert_string_equal(json_string_value(json_object_get(v, "error")),
			    "mode lockless: unknown mode 'lockless' (off|lock|rcu)");
	json_decref(v);
	assert_int_equal(rec.n, calls);
	export_telemetry_control(true);
	export_http_stop(none);
	export_http_stop(on);
	export_http_stop(off);
}

/* A parameter of the reading rows that take one: one that the fixture
 * serves (NULL: none), a bad one (NULL: none refused here) and its status. */
static const struct param_case {
	const char *name, *good, *bad;
	int bad_status;
} params[] = {
	{ "mib", "Ip", "Nope", 404 },
	{ "mib", "Rx,2", "Rx,7", 404 },
	{ "mib", "Tcp", "Ip,x", 404 },
	{ "mib_help", "Ip", "Nope", 404 },
	{ "mib_help", "IcmpMsg", NULL, 0 },
	{ "lcores", "1", "7", 404 },
	{ "lcores", "2", "x", 404 },
	{ "pmu", "1", NULL, 0 },
	{ "ports", NULL, "0", 404 },
	{ "dev_snmp6", "veth0", "nope", 404 },
	{ "dev_snmp6/values", "veth0", "nope", 404 },
};

/* GET path: the status, the body (malloc'd) in *body, the Content-Type. */
static int
get(uint16_t port, const char *path, char **body, char *ctype, size_t len)
{
	struct resp r;
	const char *ct;

	if (http(port, "GET", path, NULL, NULL, &r) != 0)
		fail_msg("GET %s: no response", path);
	ct = hdr(&r, "Content-Type");
	snprintf(ctype, len, "%s", ct != NULL ? ct : "");
	*body = r.body;
	return r.status;
}

/* GET path and telemetry's cmd (",param"): the same values. */
static void
same_values(uint16_t port, const char *path, const char *cmd)
{
	char *body, ctype[128];
	json_error_t jerr;
	json_t *h, *v;

	if (get(port, path, &body, ctype, sizeof(ctype)) != 200)
		fail_msg("GET %s: '%s'", path, body);
	assert_string_equal(ctype, "application/json");
	h = json_loads(body, 0, &jerr);
	if (h == NULL)
		fail_msg("GET %s: invalid JSON: %s", path, jerr.text);
	v = tel(cmd);
	if (v == NULL || !json_equal(h, v))
		fail_msg("GET %s and %s differ:\n%s\n%s", path, cmd,
			 json_dumps(h, JSON_COMPACT),
			 v ? json_dumps(v, JSON_COMPACT) : "");
	/* something, but the fixture's ports: it samples none */
	if (json_object_size(h) == 0 && json_array_size(h) == 0 &&
	    strcmp(path, "/ports") != 0)
		fail_msg("GET %s: empty", path);
	json_decref(h);
	json_decref(v);
	free(body);
}

/* GET path is refused with status and one line; telemetry's cmd with
 * {"error": the same line, "status": the same status}. */
static void
refused(uint16_t port, const char *path, int status, const char *cmd)
{
	char *body, ctype[128];
	const char *why;
	json_t *v;

	if (get(port, path, &body, ctype, sizeof(ctype)) != status)
		fail_msg("GET %s: '%s', want %d", path, body, status);
	if (strchr(body, '\n') != body + strlen(body) - 1)
		fail_msg("GET %s: not one line: '%s'", path, body);
	if (cmd == NULL) {
		free(body);
		return;
	}
	/* telemetry: the same line and status; where HTTP has no row at the
	 * path (a parameter to a row that takes none), a 400 of its own */
	body[strlen(body) - 1] = '\0';
	why = body; /* the line without its request, which each names its way */
	if (strncmp(why, "GET ", 4) == 0 && strchr(why + 4, ' ') != NULL)
		why = strchr(why + 4, ' ');
	if (strncmp(body, "no such endpoint", 16) == 0) {
		status = 400;
		why = "";
	}
	v = tel(cmd);
	if (json_integer_value(json_object_get(v, "status")) != status ||
	    strstr(json_string_value(json_object_get(v, "error")) ?: "", why) == NULL)
		fail_msg("%s: %s, want {\"error\": \"...%s\", \"status\": %d}", cmd,
			 v ? json_dumps(v, JSON_COMPACT) : "null", why, status);
	json_decref(v);
	free(body);
}

/* Each group of the two-line text of /snmp or /netstat that is a MIB group
 * has the values of /pktpath/mib,GROUP; returns the values compared. */
static unsigned int
snmp_same(const char *text)
{
	unsigned int n = 0;
	char *copy = strdup(text), *names, *vals, *save = NULL;

	assert_non_null(copy);
	for (names = strtok_r(copy, "\n", &save); names != NULL;
	     names = strtok_r(NULL, "\n", &save)) {
		char cmd[64], *colon = strchr(names, ':'), *sn, *sv, *name, *val;
		json_t *v;

		vals = strtok_r(NULL, "\n", &save);
		assert_non_null(vals);
		assert_non_null(colon);
		*colon = '\0';
		assert_int_equal(strncmp(vals, names, strlen(names)), 0);
		if (mib_group_lookup(names) < 0)
			continue; /* a section's group */
		snprintf(cmd, sizeof(cmd), "/pktpath/mib,%s", names);
		v = tel(cmd);
		assert_true(json_is_object(v));
		name = strtok_r(colon + 1, " ", &sn);
		val = strtok_r(vals + strlen(names) + 1, " ", &sv);
		for (; name != NULL && val != NULL;
		     name = strtok_r(NULL, " ", &sn), val = strtok_r(NULL, " ", &sv), n++)
			if (json_integer_value(json_object_get(v, name)) !=
			    strtoll(val, NULL, 10))
				fail_msg("%s %s: %s over HTTP, %" JSON_INTEGER_FORMAT
					 " over telemetry",
					 names, name, val,
					 json_integer_value(json_object_get(v, name)));
		assert_null(name);
		assert_null(val);
		json_decref(v);
	}
	free(copy);
	return n;
}

/* Telemetry's cmd refuses with {"error": LINE naming why, "status": 404}. */
static void
tel_refused(const char *cmd, const char *why)
{
	json_t *v = tel(cmd);

	if (json_integer_value(json_object_get(v, "status")) != 404 ||
	    strstr(json_string_value(json_object_get(v, "error")) ?: "", why) == NULL)
		fail_msg("%s: %s, want a 404 naming '%s'", cmd,
			 v ? json_dumps(v, JSON_COMPACT) : "null", why);
	json_decref(v);
}

/* A reading row served over telemetry only (a page's twin):
 * named values, without a parameter and with its good one; its bad one
 * refused with a dict. */
static void
twin_values(const struct export_ctl_cmd *c, const struct param_case *p, size_t n)
{
	char cmd[128];
	json_t *v;
	size_t k;

	if (c->telemetry == NULL)
		fail_msg("%s: a reading command not served over HTTP", c->name);
	assert_ptr_equal(export_control_by_telemetry(c->telemetry), c);
	v = tel(c->telemetry);
	if (!json_is_object(v) || json_object_size(v) == 0 ||
	    json_object_get(v, "error") != NULL)
		fail_msg("%s: %s", c->telemetry,
			 v ? json_dumps(v, JSON_COMPACT) : "null");
	json_decref(v);
	for (k = 0; k < n; k++) {
		if (strcmp(p[k].name, c->name) != 0)
			continue;
		snprintf(cmd, sizeof(cmd), "%s,%s", c->telemetry, p[k].good);
		v = tel(cmd);
		if (json_object_size(v) < 2 || json_object_get(v, "error") != NULL)
			fail_msg("%s: %s", cmd, v ? json_dumps(v, JSON_COMPACT) : "null");
		json_decref(v);
		snprintf(cmd, sizeof(cmd), "%s,%s", c->telemetry, p[k].bad);
		tel_refused(cmd, "no device");
	}
}

static void
test_control_reading(void **state)
{
	struct stats_series *se = stats_series_create(NW, 0, 0);
	struct export_hooks hk = rec_hooks;
	const struct export_ctl_cmd *t;
	struct export_http *h;
	uint16_t port;
	char path[128], cmd[128], *body, ctype[128];
	static const char *const dev_names[] = { "gen0", "veth0" };
	struct mib_devset *ds = mib_devset_create(2, 1, NULL);
	struct export_devices dv = { .ds = ds, .names = dev_names, .s = st };
	unsigned int i, k, n, reading = 0;
	int status;

	(void)state;
	/* a history of two intervals: GET /history, /pktpath/history */
	for (i = 0; i < 3; i++) {
		struct stats_snapshot *snap;

		stats_fold_now(st);
		snap = stats_get(st);
		assert_int_equal(stats_series_add(se, snap), 0);
		stats_put(st, snap);
	}
	hk.series = se;
	assert_int_equal(export_telemetry_register(st, info, &hk), 0);
	assert_non_null(ds);
	assert_int_equal(export_devices_register(&dv), 0);
	h = start(false, &hk, 8, 10);
	port = export_http_port(h);
	t = export_control_table(&n);
	for (i = 0; i < n; i++) {
		const struct export_ctl_cmd *c = &t[i];

		if (c->change)
			continue;
		reading++;
		if (c->http == NULL) {
			/* the telemetry twin of a page: its refusal a dict */
			twin_values(c, params, RTE_DIM(params));
			continue;
		}
		/* the other method: 405 */
		expect(port, "POST", c->http, NULL, NULL, 405, "use GET");
		if (c->ctype != NULL) {
			/* a page: HTTP's only (a stopped stats thread: 503) */
			assert_null(c->telemetry);
			snprintf(path, sizeof(path), "%s", c->http);
			for (k = 0; k < RTE_DIM(params); k++)
				if (strcmp(params[k].name, c->name) == 0) {
					snprintf(path, sizeof(path), "%s/%s", c->http,
						 params[k].good);
					refused(port, c->http, 404, NULL);
					snprintf(cmd, sizeof(cmd), "%s/%s", c->http,
						 params[k].bad);
					refused(port, cmd, params[k].bad_status, NULL);
				}
			status = get(port, path, &body, ctype, sizeof(ctype));
			if (status != 200 &&
			    !(status == 503 && strcmp(c->name, "healthz") == 0))
				fail_msg("GET %s: %d '%s'", path, status, body);
			if (status == 200)
				assert_string_equal(ctype, c->ctype);
			assert_true(strlen(body) > 0);
			if (strcmp(c->name, "snmp") == 0 ||
			    strcmp(c->name, "netstat") == 0)
				assert_true(snmp_same(body) > 10);
			free(body);
			continue;
		}
		/* named values: the same both ways */
		if (c->telemetry == NULL)
			fail_msg("%s: named values not served over telemetry", c->name);
		assert_ptr_equal(export_control_by_telemetry(c->telemetry), c);
		same_values(port, c->http, c->telemetry);
		snprintf(path, sizeof(path), "%s/x", c->http);
		snprintf(cmd, sizeof(cmd), "%s,x", c->telemetry);
		if (c->arg != EXPORT_CTL_ARG_WORDS) {
			refused(port, path, 404, cmd);
			continue;
		}
		/* an empty parameter after the slash is not the listing */
		snprintf(path, sizeof(path), "%s/", c->http);
		refused(port, path, 404, NULL);
		for (k = 0; k < RTE_DIM(params); k++) {
			if (strcmp(params[k].name, c->name) != 0)
				continue;
			if (params[k].good != NULL) {
				snprintf(path, sizeof(path), "%s/%s", c->http,
					 params[k].good);
				snprintf(cmd, sizeof(cmd), "%s,%s", c->telemetry,
					 params[k].good);
				same_values(port, path, cmd);
			}
			if (params[k].bad != NULL) {
				snprintf(path, sizeof(path), "%s/%s", c->http,
					 params[k].bad);
				snprintf(cmd, sizeof(cmd), "%s,%s", c->telemetry,
					 params[k].bad);
				refused(port, path, params[k].bad_status, cmd);
			}
		}
	}
	assert_true(reading >= 17);
	/* a path that is no row's, even below one that takes a parameter */
	refused(port, "/snmp/Ip", 404, NULL);
	refused(port, "/ingress/nope", 404, NULL);
	/* without devices: the pages 404, their twins a refusal */
	export_devices_unregister();
	refused(port, "/links", 404, NULL);
	refused(port, "/dev_snmp6/veth0", 404, NULL);
	tel_refused("/pktpath/links", "no per-device MIBs in this run");
	tel_refused("/pktpath/dev_snmp6,veth0", "no per-device MIBs in this run");
	mib_devset_free(ds);
	export_http_stop(h);
	assert_int_equal(export_telemetry_register(st, info, &rec_hooks), 0);
	stats_series_free(se);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* lib/export/README.md's "Control commands" table is the table's. */
static void
test_control_readme(void **state)
{
	const char *w = getenv("CONTROL_README_WRITE");
	char *gen = NULL, *doc, *b, *e;
	size_t len, glen = 0;
	FILE *f = open_memstream(&gen, &glen);

	(void)state;
	assert_non_null(f);
	fputs(BEGIN_MARK, f);
	export_control_doc(f);
	fputs(END_MARK, f);
	assert_int_equal(fclose(f), 0);
	doc = slurp(README, &len);
	b = strstr(doc, BEGIN_MARK);
	e = b != NULL ? strstr(b, END_MARK) : NULL;
	if (b == NULL || e == NULL)
		fail_msg("%s: no \"%.40s\" ... \"%.20s\" block", README, BEGIN_MARK,
			 END_MARK);
	e += strlen(END_MARK);
	if (w != NULL && strcmp(w, "1") == 0) {
		f = fopen(README, "w");
		assert_non_null(f);
		fprintf(f, "%.*s%s%s", (int)(b - doc), doc, gen, e);
		assert_int_equal(fclose(f), 0);
		print_message("%s rewritten\n", README);
	} else if ((size_t)(e - b) != glen || memcmp(b, gen, glen) != 0) {
		fail_msg("%s is not what the control table says: run "
			 "CONTROL_README_WRITE=1 build/app/test/test_export_control",
			 README);
	}
	free(doc);
	free(gen);
}

static int
setup(void **state)
{
	if (fixture_export_setup(state) != 0)
		return -1;
	export_control_signals_install();
	if (export_telemetry_register(st, info, &rec_hooks) != 0)
		return -1;
	tel_fd = tel_connect();
	return 0;
}

static int
teardown(void **state)
{
	close(tel_fd);
	return fixture_export_teardown(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_readme),
		cmocka_unit_test(test_control_reading),
		cmocka_unit_test(test_control_same_everywhere),
		cmocka_unit_test(test_control_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
