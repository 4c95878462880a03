/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTTP endpoint (libmicrohttpd): GET /, /healthz, /metrics, /snmp,
 * /netstat, /stats.json over the latest snapshot; POST /ingress/mode,
 * /ingress/rules, /stats/clear through the application's hooks.
 *
 * Threads: libmicrohttpd's polling thread accepts, one thread per
 * connection serves it (so a slow client, a vanished one, or a control hook
 * waiting for a grace period holds only its own connection). They are
 * started from a DPDK control thread and inherit its CPU affinity. Nothing
 * here touches worker memory: every answer is built from one snapshot
 * reference (stats_get/stats_put).
 *
 * Request life: libmicrohttpd calls __access() once with the headers
 * (*con_cls == NULL), then once per chunk of body, then once more with no
 * data. A request that announces a body and must be refused (404, 405,
 * 403, 501, 413 by Content-Length) is refused at the first call, before the
 * body is read; everything else is answered at the last call (so that
 * keep-alive works); POST bodies are accumulated up to body_limit.
 * __completed() frees the per-request state however the request ended (a
 * client that disconnects mid-body never reaches a hook).
 */
#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "stats.h"
#include "stats_pvt.h"

#define HTTP_DEFAULT_LISTEN "127.0.0.1:9120"
#define CT_TEXT "text/plain; charset=utf-8"
#define CT_PROM "text/plain; version=0.0.4; charset=utf-8"
#define CT_JSON "application/json"
#define CT_FORM "application/x-www-form-urlencoded"
#define MODE_MAX 32

static int http_logtype = -1;
#define HTTP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, http_logtype, "pktpath: http: " fmt "\n", \
		##__VA_ARGS__)

struct stats_http {
	struct stats *s;
	struct stats_http_conf conf;
	json_t *info;			/* our deep copy, under info_lock */
	pthread_mutex_t info_lock;	/* jansson objects are not for sharing */
	pthread_mutex_t ctl_lock;	/* one control hook at a time */
	struct MHD_Daemon *d;
	int fd;				/* listening socket, then MHD's */
	uint16_t port;
	char url[INET6_ADDRSTRLEN + 32];
};

enum route {
	RT_INDEX, RT_HEALTHZ, RT_METRICS, RT_SNMP, RT_NETSTAT, RT_JSON,
	RT_MODE, RT_RULES, RT_CLEAR, RT_MAX
};

static const struct {
	const char *path;
	bool post;		/* a control endpoint (POST), else GET/HEAD */
	const char *ctype;	/* of a GET's answer */
	const char *what;
} routes[] = {
	[RT_INDEX] = { "/", false, CT_TEXT, "this index" },
	[RT_HEALTHZ] = { "/healthz", false, CT_TEXT, "200 ok while the stats "
			 "thread publishes fresh snapshots, else 503" },
	[RT_METRICS] = { "/metrics", false, CT_PROM, "Prometheus text format "
			 "0.0.4 (raw counters, never cleared)" },
	[RT_SNMP] = { "/snmp", false, CT_TEXT, "MIB totals in the layout of "
		      "/proc/net/snmp (since the last clear)" },
	[RT_NETSTAT] = { "/netstat", false, CT_TEXT, "IpExt in the layout of "
			 "/proc/net/netstat, then pktpath's own groups" },
	[RT_JSON] = { "/stats.json", false, CT_JSON, "the snapshot as JSON (the "
		      "--json schema)" },
	[RT_MODE] = { "/ingress/mode", true, NULL, "body mode=off|none|lock|"
		      "rwlock|rcu: switch the ingress guard" },
	[RT_RULES] = { "/ingress/rules", true, NULL, "body: a rules file; "
		       "replaces the ingress rules" },
	[RT_CLEAR] = { "/stats/clear", true, NULL, "no body: clear by baseline "
		       "(/snmp, /netstat, /stats.json)" },
};
static_assert(RTE_DIM(routes) == RT_MAX, "routes and enum disagree");

/* Per-request state, from the first call to __completed(). */
struct req {
	enum route rt;
	char *body;
	size_t len, cap;
	size_t discarded;	/* body bytes dropped past the limit */
	bool too_big;
	bool has_body;		/* Content-Length > 0 or chunked */
	bool answered;		/* refused at the first call */
};

/* ---- responses ---- */

/* Queue buf (malloc'd, ownership taken) as the response. */
static enum MHD_Result
__reply(struct MHD_Connection *c, unsigned int code, const char *ctype,
	char *buf, size_t len, const char *allow)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, buf, MHD_RESPMEM_MUST_FREE);
	if (r == NULL) {
		free(buf);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (allow != NULL)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result
__replyf(struct MHD_Connection *c, unsigned int code, const char *allow,
	 const char *fmt, ...) __rte_format_printf(4, 5);

/* A one-line text/plain answer (errors and control results). */
static enum MHD_Result
__replyf(struct MHD_Connection *c, unsigned int code, const char *allow,
	 const char *fmt, ...)
{
	char *buf = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return MHD_NO;
	return __reply(c, code, CT_TEXT, buf, (size_t)n, allow);
}

/* ---- GET endpoints ---- */

/* Write the body of GET route rt, from snap, into f. 0 or -errno. */
static int
__render(struct stats_http *h, FILE *f, const struct stats_snapshot *snap,
	 enum route rt)
{
	struct stats_prom_opts o = { NULL, NULL, h->conf.lcore_mib, NULL };
	struct stats_memory mem;
	json_t *ing = NULL, *root;
	unsigned int i;
	int rc;

	switch (rt) {
	case RT_SNMP:
		return stats_snmp_write(f, snap, STATS_SNMP);
	case RT_NETSTAT:
		return stats_snmp_write(f, snap, STATS_NETSTAT);
	case RT_METRICS:
		if (h->conf.hooks.ingress_state != NULL)
			ing = h->conf.hooks.ingress_state(h->conf.hooks.arg);
		o.ingress = ing;
		/* Read before the body grows: the heaps then hold what the
		 * process keeps, not this response. */
		stats_memory_read(&mem, true);
		o.mem = &mem;
		pthread_mutex_lock(&h->info_lock);
		o.info = h->info;
		rc = stats_prom_write(f, snap, &o);
		pthread_mutex_unlock(&h->info_lock);
		json_decref(ing);
		return rc;
	case RT_JSON:
		if (h->conf.hooks.ingress_state != NULL)
			ing = h->conf.hooks.ingress_state(h->conf.hooks.arg);
		pthread_mutex_lock(&h->info_lock);
		root = stats_json(snap, NULL, h->info, h->conf.lcore_mib);
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
			fprintf(f, "%-4s %-16s %s\n", routes[i].post ? "POST" : "GET",
				routes[i].path, routes[i].what);
		fprintf(f, "\ncontrol (POST) is %s\n", h->conf.control ? "enabled" :
			"disabled: start pktpath with --http-control");
		return 0;
	}
}

/* Render route rt from one snapshot into a malloc'd buffer and queue it. */
static enum MHD_Result
__serve(struct stats_http *h, struct MHD_Connection *c, enum route rt)
{
	struct stats_snapshot *snap = stats_get(h->s);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (snap == NULL)
		return __replyf(c, MHD_HTTP_SERVICE_UNAVAILABLE, NULL,
				"no snapshot yet: the stats thread has not started\n");
	f = open_memstream(&buf, &len);
	if (f == NULL) {
		stats_put(h->s, snap);
		return __replyf(c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				"out of memory\n");
	}
	rc = __render(h, f, snap, rt);
	stats_put(h->s, snap);
	if (fclose(f) != 0 || rc != 0) {
		free(buf);
		return __replyf(c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				"cannot render the snapshot (%s)\n",
				strerror(rc ? -rc : errno));
	}
	return __reply(c, MHD_HTTP_OK, routes[rt].ctype, buf, len, NULL);
}

static enum MHD_Result
__healthz(struct stats_http *h, struct MHD_Connection *c)
{
	struct stats_snapshot *snap = stats_get(h->s);
	bool running = __atomic_load_n(&h->s->thread_running, __ATOMIC_RELAXED);
	double age, limit = RTE_MAX(3 * h->s->conf.interval_s, 2.0);
	uint64_t seq;

	if (snap == NULL)
		return __replyf(c, MHD_HTTP_SERVICE_UNAVAILABLE, NULL,
				"no snapshot yet\n");
	age = (double)(rte_rdtsc() - snap->tsc) / (double)h->s->hz;
	seq = snap->seq;
	stats_put(h->s, snap);
	if (!running)
		return __replyf(c, MHD_HTTP_SERVICE_UNAVAILABLE, NULL,
				"stats thread stopped (last snapshot %" PRIu64
				", %.1f s old)\n", seq, age);
	if (age > limit)
		return __replyf(c, MHD_HTTP_SERVICE_UNAVAILABLE, NULL,
				"stale: last snapshot %" PRIu64 " is %.1f s old "
				"(limit %.1f s)\n", seq, age, limit);
	return __replyf(c, MHD_HTTP_OK, NULL, "ok snapshot %" PRIu64 " %.3f s "
			"old\n", seq, age);
}

/* ---- control ---- */

/* Parse "mode=NAME" (form-urlencoded, the only key; names need no
 * escapes: [A-Za-z0-9_-] only) into mode. */
static int
__parse_mode(const char *body, size_t len, char *mode, size_t mlen,
	     char *err, size_t errlen)
{
	size_t i, n;

	while (len > 0 && (body[len - 1] == '\n' || body[len - 1] == '\r'))
		len--;
	if (len == 0) {
		snprintf(err, errlen, "empty body: expected mode=NAME");
		return -EINVAL;
	}
	if (len < 5 || memcmp(body, "mode=", 5) != 0) {
		snprintf(err, errlen, "unexpected '%.*s': expected mode=NAME",
			 (int)RTE_MIN(len, 40u), body);
		return -EINVAL;
	}
	n = len - 5;
	for (i = 0; i < n; i++) {
		char ch = body[5 + i];

		if (!(ch == '_' || ch == '-' || (ch >= '0' && ch <= '9') ||
		      ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z')))
			break;
	}
	if (n == 0 || i < n || n >= mlen) {
		snprintf(err, errlen, "bad mode value '%.*s' (one mode name)",
			 (int)RTE_MIN(n, 40u), body + 5);
		return -EINVAL;
	}
	memcpy(mode, body + 5, n);
	mode[n] = '\0';
	return 0;
}

/* A hook's -errno as an HTTP status. */
static unsigned int
__hook_status(int rc)
{
	switch (rc) {
	case -EINVAL: return MHD_HTTP_BAD_REQUEST;
	case -EPERM:
	case -EBUSY: return MHD_HTTP_CONFLICT;
	case -ENOTSUP: return MHD_HTTP_NOT_IMPLEMENTED;
	default: return MHD_HTTP_INTERNAL_SERVER_ERROR;
	}
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

static enum MHD_Result
__control(struct stats_http *h, struct MHD_Connection *c, struct req *r)
{
	const struct stats_http_hooks *k = &h->conf.hooks;
	char err[256] = "", mode[MODE_MAX], peer[INET6_ADDRSTRLEN];
	struct stats_snapshot *snap;
	const char *ct;
	uint64_t clears;
	int rc;

	__peer(c, peer, sizeof(peer));
	switch (r->rt) {
	case RT_MODE:
		ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						 MHD_HTTP_HEADER_CONTENT_TYPE);
		if (ct != NULL && strncasecmp(ct, CT_FORM, strlen(CT_FORM)) != 0)
			return __replyf(c, MHD_HTTP_BAD_REQUEST, NULL, "Content-Type "
					"'%.60s': expected " CT_FORM " (mode=NAME)\n", ct);
		if (__parse_mode(r->body ? r->body : "", r->len, mode, sizeof(mode),
				 err, sizeof(err)) != 0)
			return __replyf(c, MHD_HTTP_BAD_REQUEST, NULL, "%s\n", err);
		pthread_mutex_lock(&h->ctl_lock);
		rc = k->set_mode(k->arg, mode, err, sizeof(err));
		pthread_mutex_unlock(&h->ctl_lock);
		HTTP_LOG(INFO, "POST /ingress/mode mode=%s from %s: %s", mode, peer,
			 rc == 0 ? "ok" : err);
		if (rc != 0)
			return __replyf(c, __hook_status(rc), NULL, "mode %s: %s\n",
					mode, err[0] ? err : strerror(-rc));
		return __replyf(c, MHD_HTTP_OK, NULL, "mode %s\n", mode);
	case RT_RULES:
		if (r->len == 0)
			return __replyf(c, MHD_HTTP_BAD_REQUEST, NULL,
					"empty body: expected the text of a rules file\n");
		if (memchr(r->body, '\0', r->len) != NULL)
			return __replyf(c, MHD_HTTP_BAD_REQUEST, NULL,
					"body contains a NUL byte: expected text\n");
		pthread_mutex_lock(&h->ctl_lock);
		rc = k->load_rules(k->arg, r->body, r->len, err, sizeof(err));
		pthread_mutex_unlock(&h->ctl_lock);
		HTTP_LOG(INFO, "POST /ingress/rules (%zu bytes) from %s: %s", r->len,
			 peer, rc == 0 ? "ok" : err);
		if (rc != 0)
			return __replyf(c, __hook_status(rc), NULL, "rules: %s\n",
					err[0] ? err : strerror(-rc));
		return __replyf(c, MHD_HTTP_OK, NULL, "rules loaded (%zu bytes)\n",
				r->len);
	case RT_CLEAR:
		if (r->len != 0)
			return __replyf(c, MHD_HTTP_BAD_REQUEST, NULL,
					"POST /stats/clear takes no body (%zu bytes "
					"given)\n", r->len);
		pthread_mutex_lock(&h->ctl_lock);
		stats_clear(h->s);	/* publishes a snapshot after the clear */
		snap = stats_get(h->s);
		clears = snap->clears;
		stats_put(h->s, snap);
		pthread_mutex_unlock(&h->ctl_lock);
		HTTP_LOG(INFO, "POST /stats/clear from %s: clear %" PRIu64, peer,
			 clears);
		return __replyf(c, MHD_HTTP_OK, NULL, "cleared (clear %" PRIu64 ")\n",
				clears);
	default:
		return MHD_NO;
	}
}

/* ---- dispatch ---- */

static int
__route(const char *url)
{
	unsigned int i;

	for (i = 0; i < RT_MAX; i++)
		if (strcmp(url, routes[i].path) == 0)
			return (int)i;
	return -1;
}

/* Answer what the request line and headers decide: every GET, and every
 * refusal of a POST (404, 405, 403, 501, 413 by Content-Length). Returns
 * false, with nothing queued, for a control request to act on. */
static bool
__decide(struct stats_http *h, struct MHD_Connection *c, struct req *r,
	 const char *url, const char *method, enum MHD_Result *ret)
{
	bool get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 ||
		   strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
	bool post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
	const char *cl;
	int rt = __route(url);

	if (rt < 0) {
		*ret = __replyf(c, MHD_HTTP_NOT_FOUND, NULL, "no such endpoint "
				"'%.80s' (GET / lists them)\n", url);
		return true;
	}
	r->rt = (enum route)rt;
	if (routes[rt].post && !post) {
		*ret = __replyf(c, MHD_HTTP_METHOD_NOT_ALLOWED, "POST", "%s %s: "
				"method not allowed (use POST)\n", method, url);
		return true;
	}
	if (!routes[rt].post && !get) {
		*ret = __replyf(c, MHD_HTTP_METHOD_NOT_ALLOWED, "GET, HEAD", "%s %s: "
				"method not allowed (use GET)\n", method, url);
		return true;
	}
	if (!routes[rt].post) {
		*ret = r->rt == RT_HEALTHZ ? __healthz(h, c) : __serve(h, c, r->rt);
		return true;
	}
	if (!h->conf.control) {
		*ret = __replyf(c, MHD_HTTP_FORBIDDEN, NULL, "POST %s: control is "
				"disabled (start pktpath with --http-control)\n", url);
		return true;
	}
	if ((r->rt == RT_MODE && h->conf.hooks.set_mode == NULL) ||
	    (r->rt == RT_RULES && h->conf.hooks.load_rules == NULL)) {
		*ret = __replyf(c, MHD_HTTP_NOT_IMPLEMENTED, NULL, "POST %s: not "
				"available in this run (no ingress hook)\n", url);
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
			*ret = __replyf(c, MHD_HTTP_CONTENT_TOO_LARGE, NULL, "POST %s: "
					"body of %llu bytes is over the limit of "
					"%zu\n", url, n, h->conf.body_limit);
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
__body(struct stats_http *h, struct req *r, const char *data, size_t n)
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

static enum MHD_Result
__access(void *cls, struct MHD_Connection *c, const char *url,
	 const char *method, const char *version, const char *upload_data,
	 size_t *upload_data_size, void **con_cls)
{
	struct stats_http *h = cls;
	struct req *r = *con_cls;
	enum MHD_Result ret;

	RTE_SET_USED(version);
	if (r == NULL) {
		/* Headers only. A request without a body is answered at the
		 * last call (a response queued now would cost the keep-alive);
		 * one with a body is refused now if it must be, so that the body
		 * is never read (libmicrohttpd then closes the connection). */
		r = calloc(1, sizeof(*r));
		if (r == NULL)
			return MHD_NO;
		*con_cls = r;
		r->has_body = __has_body(c);
		if (r->has_body && __decide(h, c, r, url, method, &ret)) {
			r->answered = true;
			return ret;
		}
		return MHD_YES;
	}
	if (*upload_data_size != 0) {
		ret = r->answered ? MHD_YES : __body(h, r, upload_data,
						     *upload_data_size);
		*upload_data_size = 0;
		return ret;
	}
	if (r->answered)
		return MHD_YES;
	if (!r->has_body && __decide(h, c, r, url, method, &ret))
		return ret;
	if (r->too_big)
		return __replyf(c, MHD_HTTP_CONTENT_TOO_LARGE, NULL, "POST %s: body "
				"is over the limit of %zu bytes\n", url,
				h->conf.body_limit);
	return __control(h, c, r);
}

static void
__completed(void *cls, struct MHD_Connection *c, void **con_cls,
	    enum MHD_RequestTerminationCode toe)
{
	struct req *r = *con_cls;

	RTE_SET_USED(cls);
	RTE_SET_USED(c);
	RTE_SET_USED(toe);
	if (r != NULL) {
		free(r->body);
		free(r);
		*con_cls = NULL;
	}
}

static void
__mhd_log(void *cls, const char *fmt, va_list ap)
{
	char buf[256];
	size_t n;

	RTE_SET_USED(cls);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	HTTP_LOG(DEBUG, "libmicrohttpd: %s", buf);
}

/* ---- set-up ---- */

void
stats_http_conf_init(struct stats_http_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->listen = HTTP_DEFAULT_LISTEN;
	c->body_limit = 1 << 20;
	c->max_conns = 32;
	c->timeout_s = 10;
}

/* "ADDR:PORT" -> sockaddr (numeric addresses only; IPv6 in brackets). */
static int
__parse_listen(const char *addr, struct sockaddr_storage *ss, socklen_t *sl,
	       char *err, size_t errlen)
{
	char host[INET6_ADDRSTRLEN + IF_NAMESIZE + 2], *end;
	const char *colon, *port, *h0 = addr;
	struct addrinfo hints, *ai = NULL;
	bool v6 = false;
	unsigned long p;
	size_t hl;
	int rc;

	if (addr == NULL || addr[0] == '\0') {
		snprintf(err, errlen, "empty address: expected ADDR:PORT");
		return -EINVAL;
	}
	if (addr[0] == '[') {
		const char *rb = strchr(addr, ']');

		if (rb == NULL || rb[1] != ':') {
			snprintf(err, errlen, "expected [IPV6]:PORT");
			return -EINVAL;
		}
		v6 = true;
		h0 = addr + 1;
		hl = (size_t)(rb - h0);
		colon = rb + 1;
	} else {
		colon = strrchr(addr, ':');
		if (colon == NULL || memchr(addr, ':', (size_t)(colon - addr))) {
			snprintf(err, errlen, "expected ADDR:PORT (127.0.0.1:9120 "
				 "or [::1]:9120)");
			return -EINVAL;
		}
		hl = (size_t)(colon - addr);
	}
	if (hl == 0 || hl >= sizeof(host)) {
		snprintf(err, errlen, "missing or overlong address");
		return -EINVAL;
	}
	memcpy(host, h0, hl);
	host[hl] = '\0';
	port = colon + 1;
	errno = 0;
	p = strtoul(port, &end, 10);
	if (*port < '0' || *port > '9' || *end != '\0' || errno != 0 || p > 65535) {
		snprintf(err, errlen, "port '%s' is not 0..65535", port);
		return -EINVAL;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
	hints.ai_family = v6 ? AF_INET6 : AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	if (strcmp(host, "localhost") == 0)
		snprintf(host, sizeof(host), "127.0.0.1");
	/* getaddrinfo() takes inet_aton()'s forms ("1.2.3", "127.1"): IPv4
	 * must be a dotted quad, as inet_pton() wants. */
	if (!v6 && inet_pton(AF_INET, host, &(struct in_addr){ 0 }) != 1)
		rc = EAI_NONAME;
	else
		rc = getaddrinfo(host, port, &hints, &ai);
	if (rc != 0 || ai == NULL) {
		snprintf(err, errlen, "'%s' is not an %s address%s", host,
			 v6 ? "IPv6" : "IPv4",
			 v6 ? "" : " (IPv6 goes in brackets: [::1]:9120)");
		return -EINVAL;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*sl = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

int
stats_http_check_listen(const char *addr, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;

	return __parse_listen(addr, &ss, &sl, err, errlen);
}

/* Socket, bind, listen ourselves: errors name the call and the cause
 * ("bind: Address already in use"). */
static int
__listen_socket(struct stats_http *h, const char *where, char *err,
		size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd, one = 1, rc;
	const char *call = "socket";
	char addr[INET6_ADDRSTRLEN];

	rc = __parse_listen(where, &ss, &sl, err, errlen);
	if (rc != 0)
		return rc;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		goto fail_errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	call = "bind";
	if (bind(fd, (struct sockaddr *)&ss, sl) != 0)
		goto fail_errno;
	call = "listen";
	sl = sizeof(ss);
	if (listen(fd, 64) != 0 || getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
		goto fail_errno;
	if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)&ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, addr, sizeof(addr));
		h->port = ntohs(s6->sin6_port);
	} else {
		const struct sockaddr_in *s4 = (const void *)&ss;

		inet_ntop(AF_INET, &s4->sin_addr, addr, sizeof(addr));
		h->port = ntohs(s4->sin_port);
	}
	snprintf(h->url, sizeof(h->url), ss.ss_family == AF_INET6 ?
		 "http://[%s]:%u/" : "http://%s:%u/", addr, h->port);
	h->fd = fd;
	return 0;
fail_errno:
	rc = -errno;
	snprintf(err, errlen, "%s: %s", call, strerror(errno));
	if (fd >= 0)
		close(fd);
	return rc;
}

struct start_ctx {
	struct stats_http *h;
	int v6;
};

/* On a DPDK control thread: libmicrohttpd's threads inherit its affinity. */
static void *
__start_daemon(void *arg)
{
	struct start_ctx *x = arg;
	struct stats_http *h = x->h;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD |
		MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL | MHD_USE_ERROR_LOG;

	if (x->v6)
		flags |= MHD_USE_IPv6;
	h->d = MHD_start_daemon(flags, 0, NULL, NULL, __access, h,
		MHD_OPTION_LISTEN_SOCKET, (MHD_socket)h->fd,
		MHD_OPTION_CONNECTION_LIMIT, h->conf.max_conns,
		MHD_OPTION_CONNECTION_TIMEOUT, h->conf.timeout_s,
		MHD_OPTION_NOTIFY_COMPLETED, __completed, h,
		MHD_OPTION_EXTERNAL_LOGGER, __mhd_log, h,
		MHD_OPTION_END);
	return NULL;
}

struct stats_http *
stats_http_start(struct stats *s, const struct stats_http_conf *c, char *err,
		 size_t errlen)
{
	struct stats_http *h;
	struct start_ctx x;
	pthread_t tid;
	int rc;

	if (http_logtype < 0)
		http_logtype = rte_log_register_type_and_pick_level("pktpath",
								    RTE_LOG_INFO);
	if (s == NULL || c == NULL || c->body_limit == 0 || c->max_conns == 0) {
		snprintf(err, errlen, "invalid HTTP configuration");
		errno = EINVAL;
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (h == NULL) {
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	h->s = s;
	h->conf = *c;
	h->fd = -1;
	h->conf.listen = NULL;	/* not kept: the caller's string */
	if (c->info != NULL)
		h->info = json_deep_copy(c->info);
	pthread_mutex_init(&h->info_lock, NULL);
	pthread_mutex_init(&h->ctl_lock, NULL);
	rc = __listen_socket(h, c->listen ? c->listen : HTTP_DEFAULT_LISTEN, err,
			     errlen);
	if (rc != 0)
		goto fail;
	x.h = h;
	x.v6 = strchr(h->url, '[') != NULL;
	rc = rte_ctrl_thread_create(&tid, "pktpath-http", NULL, __start_daemon,
				    &x);	/* 0 or -errno */
	if (rc != 0) {
		snprintf(err, errlen, "rte_ctrl_thread_create: %s", strerror(-rc));
		goto fail;
	}
	pthread_join(tid, NULL);
	if (h->d == NULL) {
		rc = -EIO;
		snprintf(err, errlen, "libmicrohttpd did not start (see "
			 "--log-level=pktpath:debug)");
		goto fail;
	}
	HTTP_LOG(DEBUG, "serving %s (control %s)", h->url,
		 h->conf.control ? "on" : "off");
	return h;
fail:
	if (h->fd >= 0)
		close(h->fd);
	json_decref(h->info);
	pthread_mutex_destroy(&h->info_lock);
	pthread_mutex_destroy(&h->ctl_lock);
	free(h);
	errno = -rc;
	return NULL;
}

uint16_t
stats_http_port(const struct stats_http *h)
{
	return h->port;
}

const char *
stats_http_url(const struct stats_http *h)
{
	return h->url;
}

void
stats_http_stop(struct stats_http *h)
{
	if (h == NULL)
		return;
	/* Closes the listening socket, joins every thread (and any hook in
	 * progress with it): nothing of h is used after this. */
	MHD_stop_daemon(h->d);
	json_decref(h->info);
	pthread_mutex_destroy(&h->info_lock);
	pthread_mutex_destroy(&h->ctl_lock);
	free(h);
}
