/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one table of control commands (export_control.h): one row per
 * command, reading or changing, the changing ones' handlers and the index
 * beside it (the reading ones' in control_page.c and control_read.c), the
 * argument parsed once for every transport, and the reference it prints
 * for lib/export/README.md.
 *
 * The transports (http.c, telemetry.c, control_signal.c) call this file;
 * it calls none of them.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "base.h"
#include "control_pvt.h"
#include "ingress.h"
#include "stats.h"

#define MODE_LEN 32 /* a mode name's room, NUL included */

/* ---- handlers ---- */

static bool
__has_set_mode(const struct export_hooks *h)
{
	return h != NULL && h->set_mode != NULL;
}

static bool
__has_load_rules(const struct export_hooks *h)
{
	return h != NULL && h->load_rules != NULL;
}

static bool
__has_reload(const struct export_hooks *h)
{
	return h != NULL && h->reload != NULL;
}

static bool
__always(const struct export_hooks *h)
{
	RTE_SET_USED(h);
	return true;
}

/* The mode the hooks report now ("?" without ingress_state). */
static void
__mode_now(const struct export_hooks *h, char *buf, size_t len)
{
	json_t *st = __ctl_ingress_state(h);
	const char *m = json_string_value(json_object_get(st, "mode"));

	snprintf(buf, len, "%s", m != NULL ? m : "?");
	json_decref(st);
}

static int
__run_mode(struct export_ctl_ctx *c)
{
	const struct export_hooks *h = c->hooks;
	char err[sizeof(c->msg) - MODE_LEN - 8] = "", now[MODE_LEN];
	int rc;

	rc = h->set_mode(h->arg, c->mode, c->source, err, sizeof(err));
	if (rc != 0) {
		snprintf(c->msg, sizeof(c->msg), "%s", err[0] ? err : strerror(-rc));
		return rc;
	}
	if (c->mode != NULL)
		snprintf(now, sizeof(now), "%s", c->mode);
	else
		__mode_now(h, now, sizeof(now));
	__ctl_str(c, "mode", now);
	snprintf(c->msg, sizeof(c->msg), "mode %s", now);
	return 0;
}

static int
__run_rules(struct export_ctl_ctx *c)
{
	const struct export_hooks *h = c->hooks;
	char err[sizeof(c->msg) - 8] = "";
	int rc;

	rc = h->load_rules(h->arg, c->text, c->len, err, sizeof(err));
	if (rc != 0) {
		snprintf(c->msg, sizeof(c->msg), "%s", err[0] ? err : strerror(-rc));
		return rc;
	}
	__ctl_u64(c, "bytes", c->len);
	snprintf(c->msg, sizeof(c->msg), "rules loaded (%zu bytes)", c->len);
	return 0;
}

static int
__run_reload(struct export_ctl_ctx *c)
{
	const struct export_hooks *h = c->hooks;
	char err[sizeof(c->msg)] = "";
	int rc;

	rc = h->reload(h->arg, c->source, err, sizeof(err));
	snprintf(c->msg, sizeof(c->msg), "%s", err[0] ? err : strerror(-rc));
	return rc;
}

static int
__run_clear(struct export_ctl_ctx *c)
{
	struct stats_snapshot *snap;
	uint64_t clears;

	stats_clear(c->s); /* publishes a snapshot after the clear */
	snap = stats_get(c->s);
	clears = snap->clears;
	stats_put(c->s, snap);
	__ctl_u64(c, "clears", clears);
	snprintf(c->msg, sizeof(c->msg), "cleared (clear %" PRIu64 ")", clears);
	return 0;
}

static int __run_index(struct export_ctl_ctx *c);

/* ---- the table ---- */

#define CT_TEXT "text/plain; charset=utf-8"
#define CT_PROM "text/plain; version=0.0.4; charset=utf-8"
#define CT_JSON "application/json"

/* The reading rows first (HTTP's index lists them in this order), then
 * the changing ones. */
static const struct export_ctl_cmd cmds[] = {
	{ .name = "index",
	  .http = "/",
	  .ctype = CT_TEXT,
	  .avail = __always,
	  .run = __run_index,
	  .help = "this index" },
	{ .name = "healthz",
	  .http = "/healthz",
	  .ctype = CT_TEXT,
	  .avail = __always,
	  .run = __ctl_page_healthz,
	  .help = "200 ok while the stats thread publishes fresh snapshots, else 503" },
	{ .name = "metrics",
	  .http = "/metrics",
	  .ctype = CT_PROM,
	  .avail = __always,
	  .run = __ctl_page_metrics,
	  .help = "Prometheus text format 0.0.4 (raw counters, never cleared)" },
	{ .name = "snmp",
	  .http = "/snmp",
	  .ctype = CT_TEXT,
	  .avail = __always,
	  .run = __ctl_page_snmp,
	  .help = "MIB totals in the layout of /proc/net/snmp (since the last clear)" },
	{ .name = "netstat",
	  .http = "/netstat",
	  .ctype = CT_TEXT,
	  .avail = __always,
	  .run = __ctl_page_netstat,
	  .help = "IpExt in the layout of /proc/net/netstat, then pktpath's own groups" },
	{ .name = "snmp6",
	  .http = "/snmp6",
	  .ctype = CT_TEXT,
	  .avail = __always,
	  .run = __ctl_page_snmp6,
	  .help = "the IPv6 MIB totals in the layout of /proc/net/snmp6 (since the "
		  "last clear)" },
	{ .name = "stats.json",
	  .http = "/stats.json",
	  .ctype = CT_JSON,
	  .avail = __always,
	  .run = __ctl_page_json,
	  .help = "the snapshot as JSON (the --json schema)" },
	{ .name = "history",
	  .http = "/history",
	  .ctype = CT_JSON,
	  .avail = __always,
	  .run = __ctl_page_history,
	  .help = "the run's history so far: --json's intervals, events and "
		  "intervals_dropped (an endless run: its window)" },
	{ .name = "history/columns",
	  .http = "/history/columns",
	  .telemetry = "/pktpath/history",
	  .avail = __always,
	  .run = __ctl_read_history,
	  .help = "the history's last 64 intervals as lists: t_s, mpps, cycles_per_pkt, "
		  "lost, mode, mode_flips, rule_updates" },
	{ .name = "mib",
	  .arg = EXPORT_CTL_ARG_WORDS,
	  .http = "/mib",
	  .telemetry = "/pktpath/mib",
	  .no_run = true,
	  .http_arg = "GROUP[,LCORE]",
	  .avail = __always,
	  .run = __ctl_read_mib,
	  .help = "MIB groups; param GROUP[,LCORE]: its totals" },
	{ .name = "mib_help",
	  .arg = EXPORT_CTL_ARG_WORDS,
	  .http = "/mib_help",
	  .telemetry = "/pktpath/mib_help",
	  .no_run = true,
	  .http_arg = "GROUP",
	  .avail = __always,
	  .run = __ctl_read_mib_help,
	  .help = "MIB groups; param GROUP: what each field counts" },
	{ .name = "rates",
	  .http = "/rates",
	  .telemetry = "/pktpath/rates",
	  .avail = __always,
	  .run = __ctl_read_rates,
	  .help = "Total rates of the last interval, fold" },
	{ .name = "lcores",
	  .arg = EXPORT_CTL_ARG_WORDS,
	  .http = "/lcores",
	  .telemetry = "/pktpath/lcores",
	  .http_arg = "LCORE",
	  .avail = __always,
	  .run = __ctl_read_lcores,
	  .help = "Per-lcore rates; param LCORE: one lcore" },
	{ .name = "ingress",
	  .http = "/ingress",
	  .telemetry = "/pktpath/ingress",
	  .avail = __always,
	  .run = __ctl_read_ingress,
	  .help = "Ingress mode and counters" },
	{ .name = "config",
	  .http = "/config",
	  .telemetry = "/pktpath/config",
	  .avail = __always,
	  .run = __ctl_read_config,
	  .help = "Run configuration and build info" },
	{ .name = "pmu",
	  .arg = EXPORT_CTL_ARG_WORDS,
	  .http = "/pmu",
	  .telemetry = "/pktpath/pmu",
	  .http_arg = "LCORE",
	  .avail = __always,
	  .run = __ctl_read_pmu,
	  .help = "--pmu: events per packet per lcore; param LCORE: its counts" },
	{ .name = "ports",
	  .arg = EXPORT_CTL_ARG_WORDS,
	  .http = "/ports",
	  .telemetry = "/pktpath/ports",
	  .http_arg = "PORT",
	  .avail = __always,
	  .run = __ctl_read_ports,
	  .help = "Ports sampled; param PORT: its counters since the last clear (DPDK "
		  "names)" },
	{ .name = "dev_snmp6",
	  .arg = EXPORT_CTL_ARG_WORDS,
	  .http = "/dev_snmp6",
	  .ctype = CT_TEXT,
	  .http_arg = "DEV",
	  .avail = __always,
	  .run = __ctl_page_dev_snmp6,
	  .help = "--mib-devices: param DEV: its IPv6 MIBs in the layout of "
		  "/proc/net/dev_snmp6/DEV (never cleared); else 404" },
	{ .name = "dev_snmp6/values",
	  .arg = EXPORT_CTL_ARG_WORDS,
	  .telemetry = "/pktpath/dev_snmp6",
	  .http_arg = "DEV",
	  .avail = __always,
	  .run = __ctl_read_dev_snmp6,
	  .help = "--mib-devices: the devices; param DEV: GET /dev_snmp6/DEV's lines" },
	{ .name = "links",
	  .http = "/links",
	  .ctype = CT_JSON,
	  .avail = __always,
	  .run = __ctl_page_links,
	  .help = "--mib-devices: a timed link dump folding every device's Ip6 and "
		  "Icmp6 counters; else 404" },
	{ .name = "links/values",
	  .telemetry = "/pktpath/links",
	  .avail = __always,
	  .run = __ctl_read_links,
	  .help = "--mib-devices: a timed link dump of every device (GET /links' "
		  "figures)" },
	{ .name = "ingress/mode",
	  .arg = EXPORT_CTL_ARG_MODE,
	  .change = true,
	  .http = "/ingress/mode",
	  .telemetry = "/pktpath/ingress_mode",
	  .signal = SIGUSR1,
	  .signal_pid = true,
	  .http_arg = "mode=NAME",
	  .what = "mode",
	  .avail = __has_set_mode,
	  .run = __run_mode,
	  .help = "switch the ingress guard: off|none|lock|rwlock|rcu (a "
		  "signal: its number 0..4, none: the next mode)" },
	{ .name = "ingress/rules",
	  .arg = EXPORT_CTL_ARG_TEXT,
	  .change = true,
	  .http = "/ingress/rules",
	  .telemetry = "/pktpath/ingress_rules",
	  .http_arg = "a rules file",
	  .what = "rules",
	  .avail = __has_load_rules,
	  .run = __run_rules,
	  .help = "replace the ingress rules by the text of a rules file" },
	{ .name = "ingress/reload",
	  .arg = EXPORT_CTL_ARG_NONE,
	  .change = true,
	  .http = "/ingress/reload",
	  .telemetry = "/pktpath/ingress_reload",
	  .signal = SIGHUP,
	  .what = "reload",
	  .avail = __has_reload,
	  .run = __run_reload,
	  .help = "reload --rules, --filter or --bpf-obj from its file" },
	{ .name = "stats/clear",
	  .arg = EXPORT_CTL_ARG_NONE,
	  .change = true,
	  .http = "/stats/clear",
	  .telemetry = "/pktpath/stats_clear",
	  .what = "clear",
	  .avail = __always,
	  .run = __run_clear,
	  .help = "clear by baseline (/snmp, /netstat, /snmp6, /stats.json; "
		  "/metrics never goes down)" },
};

const struct export_ctl_cmd *
export_control_table(unsigned int *n)
{
	*n = RTE_DIM(cmds);
	return cmds;
}

const struct export_ctl_cmd *
export_control_by_http(const char *path)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(cmds); i++)
		if (cmds[i].http != NULL && strcmp(cmds[i].http, path) == 0)
			return &cmds[i];
	return NULL;
}

const struct export_ctl_cmd *
export_control_by_get(const char *url, const char **param)
{
	unsigned int i;
	size_t n;

	*param = NULL;
	for (i = 0; i < RTE_DIM(cmds); i++)
		if (!cmds[i].change && cmds[i].http != NULL &&
		    strcmp(cmds[i].http, url) == 0)
			return &cmds[i];
	for (i = 0; i < RTE_DIM(cmds); i++) {
		if (cmds[i].change || cmds[i].http == NULL ||
		    cmds[i].arg != EXPORT_CTL_ARG_WORDS)
			continue;
		n = strlen(cmds[i].http);
		/* "/mib/" names no parameter: no row's (404), not the
		 * listing that "/mib" is */
		if (strncmp(cmds[i].http, url, n) == 0 && url[n] == '/' &&
		    url[n + 1] != '\0') {
			*param = url + n + 1;
			return &cmds[i];
		}
	}
	return NULL;
}

const struct export_ctl_cmd *
export_control_by_telemetry(const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(cmds); i++)
		if (cmds[i].telemetry != NULL && strcmp(cmds[i].telemetry, name) == 0)
			return &cmds[i];
	return NULL;
}

const struct export_ctl_cmd *
export_control_by_signal(int sig)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(cmds); i++)
		if (sig != 0 && cmds[i].signal == sig)
			return &cmds[i];
	return NULL;
}

/* ---- parse once, run ---- */

/* The first n bytes of s quoted into q (len bytes), for a message. */
static const char *
__quote(char *q, size_t len, const char *s, size_t n)
{
	char part[64];

	snprintf(part, sizeof(part), "%.*s", (int)RTE_MIN(n, sizeof(part) - 1), s);
	return base_quote(q, len, part);
}

static int __ctl_bad(struct export_ctl_ctx *c, const char *fmt, ...)
	__rte_format_printf(2, 3);

static int
__ctl_bad(struct export_ctl_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A mode name: one [A-Za-z0-9_-]+ word that fits. */
static int
__parse_mode(struct export_ctl_ctx *c, const char *raw, size_t len, char *mode)
{
	char q[48];
	size_t i;

	for (i = 0; i < len; i++) {
		char ch = raw[i];

		if (!(ch == '_' || ch == '-' || (ch >= '0' && ch <= '9') ||
		      ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z')))
			break;
	}
	if (len == 0 || i < len || len >= MODE_LEN)
		return __ctl_bad(c, "bad mode value '%s' (one mode name)",
				 __quote(q, sizeof(q), raw, len));
	memcpy(mode, raw, len);
	mode[len] = '\0';
	return 0;
}

/* A signal's value: the number of a mode. */
static int
__mode_number(struct export_ctl_ctx *c, const char *raw, char *mode)
{
	char list[128] = "";
	size_t n = 0;
	char *end;
	long v;
	int i;

	v = strtol(raw, &end, 10);
	if (*end == '\0' && v >= 0 && v < INGRESS_MODE_MAX) {
		snprintf(mode, MODE_LEN, "%s", ingress_mode_name((enum ingress_mode)v));
		return 0;
	}
	for (i = 0; i < INGRESS_MODE_MAX && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%d %s",
				      i ? ", " : "", i, ingress_mode_name(i));
	return __ctl_bad(c, "value %s names no mode (%s)", raw, list);
}

static int
__ctl_parse(const struct export_ctl_cmd *cmd, const char *raw, size_t len, bool by_number,
	    struct export_ctl_ctx *c, char *mode)
{
	c->mode = NULL;
	c->text = NULL;
	c->len = 0;
	switch (cmd->arg) {
	case EXPORT_CTL_ARG_NONE:
		if (raw != NULL && len != 0)
			return __ctl_bad(c, "%s takes no %s (%zu bytes given)",
					 c->request, c->argword, len);
		return 0;
	case EXPORT_CTL_ARG_MODE:
		if (raw == NULL) {
			if (by_number)
				return 0; /* the next mode */
			return __ctl_bad(c, "empty %s: expected a mode name", c->argword);
		}
		if ((by_number ? __mode_number(c, raw, mode)
			       : __parse_mode(c, raw, len, mode)) != 0)
			return -EINVAL;
		c->mode = mode;
		return 0;
	case EXPORT_CTL_ARG_WORDS:
		if (raw == NULL || len == 0)
			return 0;
		if (memchr(raw, '\0', len) != NULL || raw[len] != '\0')
			return __ctl_bad(c, "%s contains a NUL byte: expected words",
					 c->argword);
		c->text = raw;
		c->len = len;
		return 0;
	case EXPORT_CTL_ARG_TEXT:
		if (raw == NULL || len == 0)
			return __ctl_bad(c, "empty %s: expected the text of %s",
					 c->argword, cmd->http_arg);
		if (memchr(raw, '\0', len) != NULL)
			return __ctl_bad(c, "%s contains a NUL byte: expected text",
					 c->argword);
		c->text = raw;
		c->len = len;
		return 0;
	default:
		return __ctl_bad(c, "%s: no parser for its argument", cmd->name);
	}
}

int
export_control_run(const struct export_ctl_cmd *cmd, const char *raw, size_t len,
		   bool by_number, struct export_ctl_ctx *c)
{
	char mode[MODE_LEN], reason[sizeof(c->msg)];
	int rc, n;

	c->msg[0] = '\0';
	c->reason = c->msg;
	rc = __ctl_parse(cmd, raw, len, by_number, c, mode);
	if (rc != 0)
		return rc;
	if (!cmd->avail(c->hooks)) {
		snprintf(c->msg, sizeof(c->msg),
			 "not available in this run (no "
			 "ingress hook)");
		return -ENOTSUP;
	}
	rc = cmd->run(c);
	if (rc == 0 || cmd->what == NULL) /* a reading one's line is whole */
		return rc;
	/* "WHAT: REASON"; reason points past the prefix */
	snprintf(reason, sizeof(reason), "%s", c->msg);
	n = c->mode != NULL
		    ? snprintf(c->msg, sizeof(c->msg), "%s %s: ", cmd->what, c->mode)
		    : snprintf(c->msg, sizeof(c->msg), "%s: ", cmd->what);
	n = RTE_MIN(n, (int)sizeof(c->msg) - 1);
	snprintf(c->msg + n, sizeof(c->msg) - (size_t)n, "%s", reason);
	c->reason = c->msg + n;
	return rc;
}

unsigned int
export_control_status(int rc)
{
	switch (rc) {
	case -EINVAL:
		return 400;
	case -ENOENT:
		return 404;
	case -EPERM:
	case -EBUSY:
		return 409;
	case -ENOTSUP:
		return 501;
	case -EAGAIN:
		return 503;
	default:
		return 500;
	}
}

/* The index of HTTP's rows (a page): GET, then POST. */
static int
__run_index(struct export_ctl_ctx *c)
{
	struct stats_snapshot *snap;
	unsigned int i, k;
	int rc = 0;
	FILE *f = __ctl_page(c, &rc);

	if (f == NULL)
		return rc;
	/* served once the stats thread has started, as every page */
	if ((snap = __ctl_snap(c, false, &rc)) == NULL)
		return rc;
	stats_put(c->s, snap);
	fprintf(f, "pktpath %s stats endpoint\n\n", PKTPATH_VERSION);
	for (k = 0; k < 2; k++)
		for (i = 0; i < RTE_DIM(cmds); i++) {
			const struct export_ctl_cmd *r = &cmds[i];

			if (r->http == NULL || r->change != (k == 1))
				continue;
			fprintf(f, "%-4s %-16s %s%s%s%s\n", r->change ? "POST" : "GET",
				r->http,
				r->http_arg ? (r->change ? "body " : "param /") : "",
				r->http_arg ? r->http_arg : "", r->http_arg ? ": " : "",
				r->help);
		}
	fprintf(f, "\ncontrol (POST) is %s\n",
		c->control ? "enabled" : "disabled: start pktpath with --http-control");
	return 0;
}

/* ---- the reference ---- */

static const char *const arg_doc[EXPORT_CTL_ARG_MAX] = {
	[EXPORT_CTL_ARG_NONE] = "none",
	[EXPORT_CTL_ARG_MODE] = "a mode name, [A-Za-z0-9_-], < 32 characters",
	[EXPORT_CTL_ARG_TEXT] = "a text, not empty, no NUL byte",
	[EXPORT_CTL_ARG_WORDS] = "none, or",
};

/* s into a markdown table's cell: '|' escaped. */
static void
__cell(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void
export_control_doc(FILE *f)
{
	unsigned int i;

	fprintf(f, "| command | argument | changes | HTTP | telemetry | signal | "
		   "what it does |\n");
	fprintf(f, "| --- | --- | --- | --- | --- | --- | --- |\n");
	for (i = 0; i < RTE_DIM(cmds); i++) {
		const struct export_ctl_cmd *c = &cmds[i];

		fprintf(f, "| `%s` | ", c->name);
		__cell(f, arg_doc[c->arg]);
		if (c->arg == EXPORT_CTL_ARG_WORDS)
			fprintf(f, " `%s`", c->http_arg);
		fprintf(f, " | %s | ", c->change ? "yes" : "no");
		if (c->http != NULL && c->change)
			fprintf(f, "`POST %s`%s%s%s", c->http, c->http_arg ? " (" : "",
				c->http_arg ? c->http_arg : "", c->http_arg ? ")" : "");
		else if (c->http != NULL)
			fprintf(f, "`GET %s`%s%s%s%s", c->http,
				c->arg == EXPORT_CTL_ARG_WORDS ? " or `GET " : "",
				c->arg == EXPORT_CTL_ARG_WORDS ? c->http : "",
				c->arg == EXPORT_CTL_ARG_WORDS ? "/PARAM`" : "",
				c->ctype == NULL ? " (JSON)" : "");
		fprintf(f, " | %s%s%s | ", c->telemetry ? "`" : "",
			c->telemetry ? c->telemetry : "", c->telemetry ? "`" : "");
		if (c->signal != 0)
			fprintf(f, "`SIG%s`", sigabbrev_np(c->signal));
		fputs(" | ", f);
		__cell(f, c->help);
		fputs(" |\n", f);
	}
}
