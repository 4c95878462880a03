/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTTP endpoint (libmicrohttpd): GET /, /healthz, /metrics, /snmp,
 * /netstat, /snmp6, /stats.json over the latest snapshot; POST: the control
 * table's commands (control.c: /ingress/mode, /ingress/rules, ...), run
 * through the application's hooks.
 *
 * Threads (http_server.c, http_conn.c): libmicrohttpd's polling threads
 * serve every connection, a watchdog bounds each phase of a request, limits
 * make room by closing the most stalled connection, and control hooks
 * run on a thread of their own while their connection is suspended, so a
 * slow client, a vanished one, or a hook waiting for a grace period holds
 * only its own connection. Nothing here touches worker memory: every
 * answer is built from one snapshot reference (stats_get/stats_put).
 *
 * Request life: libmicrohttpd calls __access() once with the headers
 * (*con_cls == NULL), then once per chunk of body, then once more with no
 * data. A request that announces a body and must be refused (404, 405,
 * 403, 501, 413 by Content-Length, 400 for conflicting framing headers) is
 * refused at the first call, before the body is read; everything else is
 * answered at the last call (so that keep-alive works); POST bodies are
 * accumulated up to body_limit. A control request is then suspended and
 * queued for the control thread, which runs its hook and resumes it;
 * libmicrohttpd calls once more and the answer is queued. __completed()
 * frees the per-request state however the request ended (a client that
 * disconnects mid-body never reaches a hook). A reply or a log line that
 * echoes the request (its path, method, a header, the body) quotes it
 * (base_quote()): one line, no raw control byte.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "base.h"
#include "export_pvt.h"
#include "http_pvt.h"

#define CT_TEXT "text/plain; charset=utf-8"
#define CT_PROM "text/plain; version=0.0.4; charset=utf-8"
#define CT_JSON "application/json"
#define CT_FORM "application/x-www-form-urlencoded"

/* The GET routes; the POST ones are the control table's (control.c). */
static const struct {
	const char *path;
	const char *ctype; /* of the answer */
	const char *what;
} routes[] = {
	[RT_INDEX] = { "/", CT_TEXT, "this index" },
	[RT_HEALTHZ] = { "/healthz", CT_TEXT,
			 "200 ok while the stats "
			 "thread publishes fresh snapshots, else 503" },
	[RT_METRICS] = { "/metrics", CT_PROM,
			 "Prometheus text format "
			 "0.0.4 (raw counters, never cleared)" },
	[RT_SNMP] = { "/snmp", CT_TEXT,
		      "MIB totals in the layout of "
		      "/proc/net/snmp (since the last clear)" },
	[RT_NETSTAT] = { "/netstat", CT_TEXT,
			 "IpExt in the layout of "
			 "/proc/net/netstat, then pktpath's own groups" },
	[RT_SNMP6] = { "/snmp6", CT_TEXT,
		       "the IPv6 MIB totals in the layout "
		       "of /proc/net/snmp6 (since the last clear)" },
	[RT_JSON] = { "/stats.json", CT_JSON,
		      "the snapshot as JSON (the "
		      "--json schema)" },
	[RT_DEV_SNMP6] = { "/dev_snmp6/DEV", CT_TEXT,
			   "--mib-devices: device DEV's IPv6 MIBs in the "
			   "layout of /proc/net/dev_snmp6/DEV (never cleared)" },
	[RT_LINKS] = { "/links", CT_JSON,
		       "--mib-devices: a timed link dump folding every "
		       "device's Ip6 and Icmp6 counters" },
};
#define DEV_SNMP6_PREFIX "/dev_snmp6/"
static_assert(RTE_DIM(routes) == RT_MAX, "routes and enum disagree");

/* ---- responses ---- */

/* Queue buf (malloc'd, ownership taken) as the response. */
static enum MHD_Result
__reply_fold(struct export_http *h, struct MHD_Connection *c, unsigned int code,
	     const char *ctype, char *buf, size_t len, const char *allow,
	     const char *fold_ns)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	/* From now on the deadline is the response's. */
	__http_conn_phase(h, c, CONN_SEND);
	r = MHD_create_response_from_buffer(len, buf, MHD_RESPMEM_MUST_FREE);
	if (r == NULL) {
		free(buf);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (allow != NULL)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	if (fold_ns != NULL)
		MHD_add_response_header(r, "X-Pktpath-Fold-Ns", fold_ns);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	if (ret == MHD_YES)
		__http_count_response(h, code);
	return ret;
}

static enum MHD_Result
__reply(struct export_http *h, struct MHD_Connection *c, unsigned int code,
	const char *ctype, char *buf, size_t len, const char *allow)
{
	return __reply_fold(h, c, code, ctype, buf, len, allow, NULL);
}

static enum MHD_Result
__replyf(struct export_http *h, struct MHD_Connection *c, unsigned int code,
	 const char *allow, const char *fmt, ...) __rte_format_printf(5, 6);

/* A one-line text/plain answer (errors and control results). */
static enum MHD_Result
__replyf(struct export_http *h, struct MHD_Connection *c, unsigned int code,
	 const char *allow, const char *fmt, ...)
{
	char *buf = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return MHD_NO;
	return __reply(h, c, code, CT_TEXT, buf, (size_t)n, allow);
}

/* ---- GET endpoints ---- */

/* Write the body of GET route rt, from snap, into f. 0 or -errno. */
static int
__render(struct export_http *h, FILE *f, const struct stats_snapshot *snap,
	 enum route rt)
{
	struct export_prom_opts o = { NULL, NULL, h->conf.lcore_mib, NULL };
	const struct export_ctl_cmd *cmds;
	struct export_memory mem;
	json_t *ing = NULL, *root;
	unsigned int i, n;
	int rc;

	switch (rt) {
	case RT_SNMP:
		return export_snmp_write(f, snap, EXPORT_SNMP);
	case RT_NETSTAT:
		return export_snmp_write(f, snap, EXPORT_NETSTAT);
	case RT_SNMP6:
		return export_snmp_write(f, snap, EXPORT_SNMP6);
	case RT_METRICS:
		if (h->conf.hooks.ingress_state != NULL)
			ing = h->conf.hooks.ingress_state(h->conf.hooks.arg);
		o.ingress = ing;
		/* Read before the body grows: the heaps then hold what the
		 * process keeps, not this response. */
		export_memory_read(&mem, true);
		o.mem = &mem;
		pthread_mutex_lock(&h->info_lock);
		o.info = h->info;
		rc = export_prom_write(f, snap, &o);
		pthread_mutex_unlock(&h->info_lock);
		json_decref(ing);
		if (rc == 0)
			__http_prom_write(h, f);
		return rc;
	case RT_JSON:
		if (h->conf.hooks.ingress_state != NULL)
			ing = h->conf.hooks.ingress_state(h->conf.hooks.arg);
		pthread_mutex_lock(&h->info_lock);
		root = export_json(snap, NULL, h->info, h->conf.lcore_mib);
		if (root != NULL)
			json_object_set_new(root, "ingress", ing != NULL ? ing :
					    json_pack("{s:s}", "mode", "off"));
		else
			json_decref(ing);
		rc = root == NULL ? -1 :
			json_dumpf(root, f, JSON_INDENT(2) | JSON_SORT_KEYS);
		json_decref(root);	/* drops root's reference on info, too */
		pthread_mutex_unlock(&h->info_lock);
		fputc('\n', f);
		return rc == 0 ? 0 : -EIO;
	default:	/* the index */
		fprintf(f, "pktpath %s stats endpoint\n\n", PKTPATH_VERSION);
		for (i = 0; i < RT_MAX; i++)
			fprintf(f, "%-4s %-16s %s\n", "GET", routes[i].path,
				routes[i].what);
		cmds = export_control_table(&n);
		for (i = 0; i < n; i++)
			if (cmds[i].http != NULL)
				fprintf(f, "%-4s %-16s %s%s%s%s\n", "POST", cmds[i].http,
					cmds[i].http_arg ? "body " : "",
					cmds[i].http_arg ? cmds[i].http_arg : "",
					cmds[i].http_arg ? ": " : "", cmds[i].help);
		fprintf(f, "\ncontrol (POST) is %s\n", h->conf.control ? "enabled" :
			"disabled: start pktpath with --http-control");
		return 0;
	}
}

/* Render route rt from one snapshot into a malloc'd buffer and queue it.
 * The MIB routes read through stats_read(): with --fold-on-read they fold
 * the blocks for this request, and say how long it took in the header
 * X-Pktpath-Fold-Ns. */
static enum MHD_Result
__serve(struct export_http *h, struct MHD_Connection *c, enum route rt)
{
	bool mib = rt == RT_METRICS || rt == RT_SNMP || rt == RT_NETSTAT ||
		   rt == RT_SNMP6 || rt == RT_JSON;
	struct stats_snapshot *snap = mib ? stats_read(h->s) : stats_get(h->s);
	char *buf = NULL, fold_ns[32] = "";
	size_t len = 0;
	FILE *f;
	int rc;

	if (snap == NULL)
		return __replyf(h, c, MHD_HTTP_SERVICE_UNAVAILABLE, NULL, "%s\n",
				mib && rte_errno == ENOMEM ? "out of memory for this "
				"read's fold" : "no snapshot yet: the stats thread "
				"has not started");
	f = open_memstream(&buf, &len);
	if (f == NULL) {
		stats_put(h->s, snap);
		return __replyf(h, c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				"out of memory\n");
	}
	rc = __render(h, f, snap, rt);
	if (snap->read_fold)
		snprintf(fold_ns, sizeof(fold_ns), "%.0f", snap->read_fold_ns);
	stats_put(h->s, snap);
	if (fclose(f) != 0 || rc != 0) {
		free(buf);
		return __replyf(h, c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				"cannot render the snapshot (%s)\n",
				strerror(rc ? -rc : errno));
	}
	return __reply_fold(h, c, MHD_HTTP_OK, routes[rt].ctype, buf, len, NULL,
			    fold_ns[0] != '\0' ? fold_ns : NULL);
}

/* GET /dev_snmp6/DEV or /links (devices.c): read at request time, no
 * snapshot; an unknown device, or a run without devices, is 404. */
static enum MHD_Result
__serve_devices(struct export_http *h, struct MHD_Connection *c, const char *url,
		enum route rt)
{
	const char *dev = url + strlen(DEV_SNMP6_PREFIX);
	char *buf = NULL, err[192] = "";
	size_t len = 0;
	FILE *f;
	int rc;

	f = open_memstream(&buf, &len);
	if (f == NULL)
		return __replyf(h, c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				"out of memory\n");
	rc = __export_devices_http(f, rt == RT_LINKS ? NULL : dev, rt == RT_LINKS, err,
				   sizeof(err));
	if (fclose(f) != 0 && rc == 0)
		rc = -EIO;
	if (rc != 0) {
		free(buf);
		return __replyf(h, c,
				rc == -ENOENT || rc == -ENODEV
					? MHD_HTTP_NOT_FOUND
					: MHD_HTTP_INTERNAL_SERVER_ERROR,
				NULL, "%s\n", err[0] != '\0' ? err : strerror(-rc));
	}
	return __reply(h, c, MHD_HTTP_OK, routes[rt].ctype, buf, len, NULL);
}

static enum MHD_Result
__healthz(struct export_http *h, struct MHD_Connection *c)
{
	struct stats_snapshot *snap = stats_get(h->s);
	bool running = stats_running(h->s);
	double age, limit = RTE_MAX(3 * stats_interval(h->s), 2.0);
	uint64_t seq;

	if (snap == NULL)
		return __replyf(h, c, MHD_HTTP_SERVICE_UNAVAILABLE, NULL,
				"no snapshot yet\n");
	age = (double)(rte_rdtsc() - snap->tsc) / (double)snap->tsc_hz;
	seq = snap->seq;
	stats_put(h->s, snap);
	if (!running)
		return __replyf(h, c, MHD_HTTP_SERVICE_UNAVAILABLE, NULL,
				"stats thread stopped (last snapshot %" PRIu64
				", %.1f s old)\n", seq, age);
	if (age > limit)
		return __replyf(h, c, MHD_HTTP_SERVICE_UNAVAILABLE, NULL,
				"stale: last snapshot %" PRIu64 " is %.1f s old "
				"(limit %.1f s)\n", seq, age, limit);
	return __replyf(h, c, MHD_HTTP_OK, NULL, "ok snapshot %" PRIu64 " %.3f s "
			"old\n", seq, age);
}

/* ---- control ---- */

/* The first n bytes of s (no NUL needed after them) quoted into q (len
 * bytes), for a message that echoes a request's body. */
static const char *
__http_quote(char *q, size_t len, const char *s, size_t n)
{
	char part[64];

	snprintf(part, sizeof(part), "%.*s", (int)RTE_MIN(n, sizeof(part) - 1), s);
	return base_quote(q, len, part);
}

/* The value of POST /ingress/mode's form body "mode=NAME" (the only
 * key, no escapes: a mode name needs none), without the line ends a
 * client may add, into *val and *vlen; -EINVAL with the reason in err. */
static int
__form_mode(const char *body, size_t len, const char **val, size_t *vlen, char *err,
	    size_t errlen)
{
	char q[48]; /* 40 characters of the body at most */

	while (len > 0 && (body[len - 1] == '\n' || body[len - 1] == '\r'))
		len--;
	if (len == 0) {
		snprintf(err, errlen, "empty body: expected mode=NAME");
		return -EINVAL;
	}
	if (len < 5 || memcmp(body, "mode=", 5) != 0) {
		snprintf(err, errlen, "unexpected '%s': expected mode=NAME",
			 __http_quote(q, sizeof(q), body, len));
		return -EINVAL;
	}
	*val = body + 5;
	*vlen = len - 5;
	return 0;
}

static const char *
__peer(struct MHD_Connection *c, char *buf, size_t len)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;

	snprintf(buf, len, "?");
	if (sa != NULL && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
			  buf, (socklen_t)len);
	else if (sa != NULL && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr,
			  buf, (socklen_t)len);
	return buf;
}

static void
__setf(struct req *r, unsigned int code, const char *fmt, ...)
	__rte_format_printf(3, 4);

/* The control thread's answer for r: code and a one-line text. */
static void
__setf(struct req *r, unsigned int code, const char *fmt, ...)
{
	va_list ap;

	free(r->text);
	r->text = NULL;
	va_start(ap, fmt);
	if (vasprintf(&r->text, fmt, ap) < 0)
		r->text = NULL;
	va_end(ap);
	r->code = r->text != NULL ? code : MHD_HTTP_INTERNAL_SERVER_ERROR;
}

/* On the control thread, one request at a time (so the hooks are called
 * one at a time); r's connection is suspended meanwhile. Reads only r and
 * the hooks: nothing of the connection. The body becomes the command's
 * argument (ARG_MODE: the value of the form's "mode" key), which the
 * control table parses and runs. */
void
__http_control_run(struct export_http *h, struct req *r)
{
	const struct export_ctl_cmd *cmd = r->cmd;
	const char *raw = r->body != NULL ? r->body : "";
	char err[256], src[96], rq[64], q[64];
	struct export_ctl_ctx c;
	size_t len = r->len;
	int rc;

	if (cmd->arg == EXPORT_CTL_ARG_MODE) {
		if (r->ctype[0] != '\0' &&
		    strncasecmp(r->ctype, CT_FORM, strlen(CT_FORM)) != 0) {
			__setf(r, MHD_HTTP_BAD_REQUEST, "Content-Type '%s': expected "
			       CT_FORM " (mode=NAME)\n",
			       base_quote(q, sizeof(q), r->ctype));
			return;
		}
		if (__form_mode(raw, len, &raw, &len, err, sizeof(err)) != 0) {
			__setf(r, MHD_HTTP_BAD_REQUEST, "%s\n", err);
			return;
		}
	}
	snprintf(src, sizeof(src), "POST %s from %s", cmd->http, r->peer);
	snprintf(rq, sizeof(rq), "POST %s", cmd->http);
	memset(&c, 0, sizeof(c));
	c.s = h->s;
	c.hooks = &h->conf.hooks;
	c.source = src;
	c.request = rq;
	c.argword = "body";
	rc = export_control_run(cmd, raw, len, false, &c);
	HTTP_LOG(INFO, "%s: %s", src, c.msg);
	__setf(r, rc == 0 ? MHD_HTTP_OK : export_control_status(rc), "%s\n", c.msg);
}

/* Hand a complete control request to the control thread (suspending its
 * connection), or answer 503 if the server is stopping. */
static enum MHD_Result
__control(struct export_http *h, struct MHD_Connection *c, struct req *r)
{
	const char *ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						     MHD_HTTP_HEADER_CONTENT_TYPE);

	snprintf(r->ctype, sizeof(r->ctype), "%s", ct != NULL ? ct : "");
	__peer(c, r->peer, sizeof(r->peer));
	r->c = c;
	__http_conn_phase(h, c, CONN_HOOK);
	if (!__http_ctl_enqueue(h, r))
		return __replyf(h, c, MHD_HTTP_SERVICE_UNAVAILABLE, NULL,
				"the server is stopping\n");
	return MHD_YES;
}

/* ---- dispatch ---- */

static int
__route(const char *url)
{
	unsigned int i;

	if (strncmp(url, DEV_SNMP6_PREFIX, strlen(DEV_SNMP6_PREFIX)) == 0)
		return RT_DEV_SNMP6;
	for (i = 0; i < RT_MAX; i++)
		if (i != RT_DEV_SNMP6 && strcmp(url, routes[i].path) == 0)
			return (int)i;
	return -1;
}

/* Answer what the request line and headers decide: every GET, and every
 * refusal (400 for a NUL in the path or a GET with a body, 404, 405, 403,
 * 501, 413 by Content-Length). Returns false, with nothing queued, for a
 * control request to act on. */
static bool
__decide(struct export_http *h, struct MHD_Connection *c, struct req *r,
	 const char *url, const char *method, enum MHD_Result *ret)
{
	bool get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 ||
		   strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
	bool post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
	const struct export_ctl_cmd *cmd = export_control_by_http(url);
	char u[88], m[24];	/* 80 characters of the path, 16 of the method */
	const char *cl;
	int rt = __route(url);

	/* what the lines below echo, quoted (base_quote(): \n, \x1b...) */
	base_quote(u, sizeof(u), url);
	base_quote(m, sizeof(m), method);
	if (r->nul) {
		*ret = __replyf(h, c, MHD_HTTP_BAD_REQUEST, NULL, "the path '%s' has "
				"an escaped NUL byte (%%00)\n", u);
		return true;
	}
	if (rt < 0 && cmd == NULL) {
		*ret = __replyf(h, c, MHD_HTTP_NOT_FOUND, NULL, "no such endpoint "
				"'%s' (GET / lists them)\n", u);
		return true;
	}
	r->cmd = cmd;
	if (cmd != NULL && !post) {
		*ret = __replyf(h, c, MHD_HTTP_METHOD_NOT_ALLOWED, "POST", "%s %s: "
				"method not allowed (use POST)\n", m, u);
		return true;
	}
	if (cmd == NULL && !get) {
		*ret = __replyf(h, c, MHD_HTTP_METHOD_NOT_ALLOWED, "GET, HEAD", "%s %s: "
				"method not allowed (use GET)\n", m, u);
		return true;
	}
	if (cmd == NULL && r->has_body) {
		*ret = __replyf(h, c, MHD_HTTP_BAD_REQUEST, NULL, "%s %s takes no "
				"body\n", m, u);
		return true;
	}
	if (cmd == NULL) {
		r->rt = (enum route)rt;
		if (r->rt == RT_DEV_SNMP6 || r->rt == RT_LINKS)
			*ret = __serve_devices(h, c, url, r->rt);
		else
			*ret = r->rt == RT_HEALTHZ ? __healthz(h, c)
						   : __serve(h, c, r->rt);
		return true;
	}
	if (cmd->change && !h->conf.control) {
		*ret = __replyf(h, c, MHD_HTTP_FORBIDDEN, NULL, "POST %s: control is "
				"disabled (start pktpath with --http-control)\n", u);
		return true;
	}
	if (!cmd->avail(&h->conf.hooks)) {
		*ret = __replyf(h, c, MHD_HTTP_NOT_IMPLEMENTED, NULL, "POST %s: not "
				"available in this run (no ingress hook)\n", u);
		return true;
	}
	cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (cl != NULL) {
		char *end;
		unsigned long long n;

		errno = 0;
		n = strtoull(cl, &end, 10);
		if (errno == 0 && *end == '\0' && n > h->conf.body_limit) {
			*ret = __replyf(h, c, MHD_HTTP_CONTENT_TOO_LARGE, NULL, "POST %s: "
					"body of %llu bytes is over the limit of "
					"%zu\n", u, n, h->conf.body_limit);
			return true;
		}
	}
	return false;
}

/* Whether the request announces a body (libmicrohttpd has checked the
 * framing headers by the time it calls us). */
static bool
__has_body(struct MHD_Connection *c)
{
	const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
					MHD_HTTP_HEADER_CONTENT_LENGTH);

	return (cl != NULL && strcmp(cl, "0") != 0) ||
		MHD_lookup_connection_value(c, MHD_HEADER_KIND,
			MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL;
}

/* A chunk of body: keep it, or count it as too big (chunked uploads have
 * no Content-Length to refuse up front). */
static enum MHD_Result
__body(struct export_http *h, struct req *r, const char *data, size_t n)
{
	if (r->too_big || r->len + n > h->conf.body_limit) {
		r->too_big = true;
		r->discarded += n;
		/* Past 16x the limit, stop reading: drop the connection. */
		return r->discarded > 16 * (h->conf.body_limit + 1) ? MHD_NO : MHD_YES;
	}
	if (r->len + n + 1 > r->cap) {
		size_t cap = RTE_MAX(r->cap * 2, r->len + n + 1);
		char *b;

		cap = RTE_MIN(cap, h->conf.body_limit + 1);
		b = realloc(r->body, cap);
		if (b == NULL)
			return MHD_NO;
		r->body = b;
		r->cap = cap;
	}
	memcpy(r->body + r->len, data, n);
	r->len += n;
	r->body[r->len] = '\0';
	return MHD_YES;
}

/* The framing headers: every Content-Length (libmicrohttpd keeps each
 * one) and the Transfer-Encoding, if any. */
struct framing {
	unsigned int n_cl;
	char cl[32];
	bool conflict;
	bool te;
	char te_value[32];
};

static enum MHD_Result
__framing_header(void *cls, enum MHD_ValueKind kind, const char *key,
		 const char *value)
{
	struct framing *f = cls;

	RTE_SET_USED(kind);
	if (key == NULL)
		return MHD_YES;
	if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
		if (f->n_cl++ == 0)
			snprintf(f->cl, sizeof(f->cl), "%s", value ? value : "");
		else if (strcmp(f->cl, value ? value : "") != 0)
			f->conflict = true;
	} else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
		f->te = true;
		snprintf(f->te_value, sizeof(f->te_value), "%s", value ? value : "");
	}
	return MHD_YES;
}

/* A request whose body's end is ambiguous (two Content-Length headers
 * that differ, or one with Transfer-Encoding: RFC 9112 6.3's request
 * smuggling) is refused whatever libmicrohttpd would make of it; so is a
 * Transfer-Encoding other than chunked (501, RFC 9112 6.1: libmicrohttpd
 * 0.9.75 would read such a body until the client closes). */
static bool
__bad_framing(struct export_http *h, struct MHD_Connection *c,
	      enum MHD_Result *ret)
{
	struct framing f;
	char q[24];	/* 20 characters of the header at most */

	memset(&f, 0, sizeof(f));
	MHD_get_connection_values(c, MHD_HEADER_KIND, __framing_header, &f);
	if (f.conflict)
		*ret = __replyf(h, c, MHD_HTTP_BAD_REQUEST, NULL, "conflicting "
				"Content-Length headers (%u given, the first '%s')\n",
				f.n_cl, base_quote(q, sizeof(q), f.cl));
	else if (f.te && f.n_cl > 0)
		*ret = __replyf(h, c, MHD_HTTP_BAD_REQUEST, NULL, "both "
				"Transfer-Encoding and Content-Length\n");
	else if (f.te && strcasecmp(f.te_value, "chunked") != 0)
		*ret = __replyf(h, c, MHD_HTTP_NOT_IMPLEMENTED, NULL, "Transfer-"
				"Encoding '%s': only chunked is supported\n",
				base_quote(q, sizeof(q), f.te_value));
	else
		return false;
	return true;
}

/*
 * The request line is in (libmicrohttpd's MHD_OPTION_URI_LOG_CALLBACK):
 * the request's state starts here, and the query string is dropped. No
 * route takes parameters, and libmicrohttpd 0.9.75 would split it into
 * one record per parameter from the connection's 32 KiB: past ~500 of them
 * (a 2 KiB URL) the memory ran out before the 431 could be built, and the
 * connection was closed unanswered. This callback runs before that split
 * (parse_initial_message_line(): the query starts at the '?', its end is
 * the string's), so ending the string after the '?' leaves no parameter:
 * the URL is then what routes see, however long the query was (up to the
 * request line's own limit: 414).
 */
void *
__http_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct req *r = calloc(1, sizeof(*r));
	char *q = strchr(uri, '?');
	const char *p;

	RTE_SET_USED(cls);
	RTE_SET_USED(c);
	if (q != NULL)
		q[1] = '\0';
	for (p = uri; r != NULL && (p = strchr(p, '%')) != NULL; p++)
		if (p[1] == '0' && p[2] == '0')
			r->nul = true;
	return r;	/* NULL: __http_access() allocates it */
}

enum MHD_Result
__http_access(void *cls, struct MHD_Connection *c, const char *url,
	      const char *method, const char *version, const char *upload_data,
	      size_t *upload_data_size, void **con_cls)
{
	struct export_http *h = cls;
	struct req *r = *con_cls;
	enum MHD_Result ret;

	RTE_SET_USED(version);
	if (r == NULL || !r->started) {
		/* Headers only. A request without a body is answered at the
		 * last call (a response queued now would cost the keep-alive);
		 * one with a body is refused now if it must be, so that the body
		 * is never read (libmicrohttpd then closes the connection). */
		if (r == NULL && (r = calloc(1, sizeof(*r))) == NULL)
			return MHD_NO;
		*con_cls = r;
		r->started = true;
		r->has_body = __has_body(c);
		/* Without a body the request is complete. */
		__http_conn_phase(h, c, r->has_body ? CONN_BODY : CONN_ANSWER);
		if (__bad_framing(h, c, &ret)) {
			r->answered = true;
			return ret;
		}
		if (r->has_body && __decide(h, c, r, url, method, &ret)) {
			r->answered = true;
			return ret;
		}
		return MHD_YES;
	}
	if (r->done) {		/* resumed: the control thread's answer */
		char *t = r->text;

		r->text = NULL;
		r->done = false;
		r->answered = true;
		if (t == NULL)
			return MHD_NO;
		return __reply(h, c, r->code, CT_TEXT, t, strlen(t), NULL);
	}
	if (r->queued)		/* not expected while suspended */
		return MHD_YES;
	if (*upload_data_size != 0) {
		ret = r->answered ? MHD_YES : __body(h, r, upload_data,
						     *upload_data_size);
		*upload_data_size = 0;
		return ret;
	}
	if (r->answered)
		return MHD_YES;
	__http_conn_phase(h, c, CONN_ANSWER);	/* the body is in */
	if (!r->has_body && __decide(h, c, r, url, method, &ret))
		return ret;
	if (r->too_big)
		return __replyf(h, c, MHD_HTTP_CONTENT_TOO_LARGE, NULL, "POST %s: body "
				"is over the limit of %zu bytes\n", url,
				h->conf.body_limit);
	return __control(h, c, r);
}

void
__http_completed(void *cls, struct MHD_Connection *c, void **con_cls,
		 enum MHD_RequestTerminationCode toe)
{
	struct export_http *h = cls;
	struct req *r = *con_cls;

	__http_conn_done(h, c, toe);
	/* Kept alive: the next request's headers have their own deadline. */
	__http_conn_phase(h, c, CONN_HEADERS);
	if (r != NULL) {
		free(r->body);
		free(r->text);
		free(r);
		*con_cls = NULL;
	}
}
