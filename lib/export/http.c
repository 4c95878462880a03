/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTTP endpoint (libmicrohttpd): the control table's rows (control.c)
 * that have a path. GET and HEAD: its reading commands (/, /healthz,
 * /metrics, /snmp, ..., a page in its Content-Type; /rates, /mib/GROUP,
 * ..., named values as JSON) over the latest snapshot; POST: its changing
 * commands (/ingress/mode, /ingress/rules, ...), run through the
 * application's hooks.
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
#include "http_pvt.h"

#define CT_TEXT "text/plain; charset=utf-8"
#define CT_JSON "application/json"
#define CT_FORM "application/x-www-form-urlencoded"

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

/* Named values into a JSON document: the object (or the list) at root,
 * the list being filled at list under key. */
struct jout {
	json_t *root, *list;
	char key[128];
	bool failed; /* out of memory: the answer is a 500 */
};

static void
__jput(struct jout *o, const char *key, json_t *v)
{
	int rc = v == NULL		  ? -1
		 : o->list != NULL	  ? json_array_append_new(o->list, v)
		 : json_is_array(o->root) ? json_array_append_new(o->root, v)
					  : json_object_set_new(o->root, key, v);

	if (rc != 0)
		o->failed = true;
}

static void
__jstr(void *arg, const char *key, const char *v)
{
	__jput(arg, key, export_json_text(v));
}

static void
__ju64(void *arg, const char *key, uint64_t v)
{
	__jput(arg, key, export_json_u64(v));
}

static void
__ji64(void *arg, const char *key, int64_t v)
{
	__jput(arg, key, json_integer((json_int_t)v));
}

static int
__jlist(void *arg, const char *key, enum export_ctl_type t)
{
	struct jout *o = arg;
	json_t *a = json_array();

	RTE_SET_USED(t);
	if (a == NULL)
		return -ENOMEM;
	if (key == NULL) {
		json_decref(o->root);
		o->root = a;
		return 0;
	}
	o->list = a;
	snprintf(o->key, sizeof(o->key), "%s", key);
	return 0;
}

static int
__jend(void *arg)
{
	struct jout *o = arg;
	json_t *a = o->list;

	o->list = NULL;
	if (a != NULL && json_object_set_new(o->root, o->key, a) != 0) {
		o->failed = true;
		return -ENOMEM;
	}
	return 0;
}

static void
__prom_tail(void *arg, FILE *f)
{
	__http_prom_write(arg, f);
}

/* Run the reading row cmd (param: its parameter, or NULL) and queue its
 * answer: a page in the row's Content-Type, named values as JSON, or the
 * refusal's one line (export_control_status()). A MIB read with
 * --fold-on-read says how long its fold took in X-Pktpath-Fold-Ns. */
static enum MHD_Result
__serve(struct export_http *h, struct MHD_Connection *c, const struct export_ctl_cmd *cmd,
	const char *param)
{
	struct jout jo = { .root = json_object() };
	struct export_ctl_writer w = { .str = __jstr,
				       .u64 = __ju64,
				       .i64 = __ji64,
				       .list = __jlist,
				       .end = __jend,
				       .arg = &jo };
	char *buf = NULL, fold_ns[32] = "", rq[64];
	struct export_ctl_ctx x;
	size_t len = 0;
	FILE *f;
	int rc;

	f = jo.root != NULL ? open_memstream(&buf, &len) : NULL;
	if (f == NULL) {
		json_decref(jo.root);
		return __replyf(h, c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				"out of memory\n");
	}
	if (cmd->ctype != NULL)
		w.text = f;
	snprintf(rq, sizeof(rq), "GET %s", cmd->http);
	memset(&x, 0, sizeof(x));
	x.s = h->s;
	x.hooks = &h->conf.hooks;
	x.source = rq;
	x.request = rq;
	x.argword = "parameter";
	x.out = &w;
	x.lcore_mib = h->conf.lcore_mib;
	x.control = h->conf.control;
	x.prom_tail = __prom_tail;
	x.prom_tail_arg = h;
	x.info = h->info;
	x.info_lock = &h->info_lock; /* the handler holds it while it reads info */
	rc = export_control_run(cmd, param, param != NULL ? strlen(param) : 0, false, &x);
	if (rc == 0 && jo.failed)
		rc = -ENOMEM;
	if (rc == 0 && cmd->ctype == NULL)
		rc = export_json_dumpf(jo.root, f, JSON_INDENT(2)) == 0 &&
				     fputc('\n', f) != EOF
			     ? 0
			     : -ENOMEM;
	json_decref(jo.root);
	if (x.read_fold)
		snprintf(fold_ns, sizeof(fold_ns), "%.0f", x.read_fold_ns);
	if (fclose(f) != 0 && rc == 0) {
		rc = -errno;
		snprintf(x.msg, sizeof(x.msg), "cannot render the snapshot (%s)",
			 strerror(errno));
	}
	if (rc != 0) {
		free(buf);
		if (rc == -ENOMEM && x.msg[0] == '\0')
			snprintf(x.msg, sizeof(x.msg), "out of memory");
		return __replyf(h, c, export_control_status(rc), NULL, "%s\n", x.msg);
	}
	return __reply_fold(h, c, MHD_HTTP_OK, cmd->ctype != NULL ? cmd->ctype : CT_JSON,
			    buf, len, NULL, fold_ns[0] != '\0' ? fold_ns : NULL);
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

/* Answer what the request line and headers decide: every GET (a reading
 * row of the control table), and every
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
	const struct export_ctl_cmd *cmd = export_control_by_http(url), *rd;
	char u[88], m[24];	/* 80 characters of the path, 16 of the method */
	const char *cl, *param;

	/* what the lines below echo, quoted (base_quote(): \n, \x1b...) */
	base_quote(u, sizeof(u), url);
	base_quote(m, sizeof(m), method);
	if (r->nul) {
		*ret = __replyf(h, c, MHD_HTTP_BAD_REQUEST, NULL, "the path '%s' has "
				"an escaped NUL byte (%%00)\n", u);
		return true;
	}
	if (cmd != NULL && !cmd->change)
		cmd = NULL; /* a reading row: rd */
	rd = cmd == NULL ? export_control_by_get(url, &param) : NULL;
	if (rd == NULL && cmd == NULL) {
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
		*ret = __serve(h, c, rd, param);
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
