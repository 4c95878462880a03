/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/export's HTTP endpoint (http.c, http_server.c): every
 * endpoint answers exactly what its writer gives for the same snapshot,
 * every error (one line of text/plain, nothing changed), slow and
 * vanishing clients, connection limits, request smuggling by framing;
 * requests holding every control and high byte answered on one line.
 * Plain sockets, no HTTP library.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <strings.h>
#include <inttypes.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <rte_common.h>

#include "fixture_export.h"
#include "test_oneline.h"

/* ---- HTTP client (plain sockets) ---- */

struct resp {
	int status;
	char head[4096];
	char *body;
	size_t len;
};

static int
tcp_connect(uint16_t port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct timeval tv = { 5, 0 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(fd >= 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Read a whole response until the server closes; -1 if none. */
static int
read_resp(int fd, struct resp *r)
{
	char *buf = NULL, *sep;
	size_t len = 0, cap = 0;
	ssize_t n;

	memset(r, 0, sizeof(*r));
	for (;;) {
		if (len + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap + 1);
		}
		n = recv(fd, buf + len, cap - len, 0);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (buf == NULL || len == 0) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	sep = strstr(buf, "\r\n\r\n");
	if (sep == NULL || sscanf(buf, "HTTP/1.%*d %d", &r->status) != 1) {
		free(buf);
		return -1;
	}
	snprintf(r->head, sizeof(r->head), "%.*s", (int)(sep - buf), buf);
	r->len = len - (size_t)(sep + 4 - buf);
	r->body = malloc(r->len + 1);
	memcpy(r->body, sep + 4, r->len);
	r->body[r->len] = '\0';
	free(buf);
	return 0;
}

static int
http_raw(uint16_t port, const char *req, size_t len, struct resp *r)
{
	int fd = tcp_connect(port);

	if (fd < 0)
		return -1;
	if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return read_resp(fd, r);
}

static int
http(uint16_t port, const char *method, const char *path, const char *ctype,
     const char *body, struct resp *r)
{
	char req[8192];
	int n = snprintf(req, sizeof(req), "%s %s HTTP/1.1\r\nHost: test\r\n"
			 "Connection: close\r\n", method, path);

	if (ctype != NULL)
		n += snprintf(req + n, sizeof(req) - (size_t)n,
			      "Content-Type: %s\r\n", ctype);
	if (body != NULL)
		n += snprintf(req + n, sizeof(req) - (size_t)n,
			      "Content-Length: %zu\r\n", strlen(body));
	n += snprintf(req + n, sizeof(req) - (size_t)n, "\r\n%s", body ? body : "");
	return http_raw(port, req, (size_t)n, r);
}

static const char *
hdr(const struct resp *r, const char *name)
{
	static char val[256];
	const char *p = r->head;
	size_t n = strlen(name);

	while ((p = strstr(p, "\r\n")) != NULL) {
		p += 2;
		if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
			snprintf(val, sizeof(val), "%.*s", (int)strcspn(p + n + 2, "\r"),
				 p + n + 2);
			return val;
		}
	}
	return NULL;
}

/* Request, expect status (and, if want != NULL, that text in the body). */
static void
expect(uint16_t port, const char *method, const char *path, const char *ctype,
       const char *body, int status, const char *want)
{
	struct resp r;

	if (http(port, method, path, ctype, body, &r) != 0)
		fail_msg("%s %s: no response", method, path);
	if (r.status != status || (want && strstr(r.body, want) == NULL))
		fail_msg("%s %s: %d '%s', want %d '%s'", method, path, r.status,
			 r.body, status, want ? want : "");
	/* Errors: exactly one line of text. */
	if (status >= 400 && (r.len == 0 || r.body[r.len - 1] != '\n' ||
			      memchr(r.body, '\n', r.len - 1) != NULL))
		fail_msg("%s %s: error body is not one line: '%s'", method, path,
			 r.body);
	free(r.body);
}

static char *
get_body(uint16_t port, const char *path, const char *ctype_prefix)
{
	struct resp r;

	assert_int_equal(http(port, "GET", path, NULL, NULL, &r), 0);
	assert_int_equal(r.status, 200);
	if (ctype_prefix != NULL) {
		const char *ct = hdr(&r, "Content-Type");

		assert_non_null(ct);
		assert_true(strncmp(ct, ctype_prefix, strlen(ctype_prefix)) == 0);
	}
	return r.body;
}

/* A test server's configuration: an ephemeral port on 127.0.0.1, 64-byte
 * bodies, the fixture's info, and what the test says. */
static void
conf_for(struct export_http_conf *c, bool control, const struct export_hooks *hk,
	 unsigned int max_conns, unsigned int timeout_s)
{
	export_http_conf_init(c);
	c->listen = "127.0.0.1:0";
	c->control = control;
	c->body_limit = 64;
	c->info = info;
	c->max_conns = max_conns;
	c->timeout_s = timeout_s;
	if (hk != NULL)
		c->hooks = *hk;
}

/* The server of c, listening (fails the test otherwise). */
static struct export_http *
start_conf(const struct export_http_conf *c)
{
	struct export_http *h;
	char err[256];

	h = export_http_start(st, c, err, sizeof(err));
	if (h == NULL)
		fail_msg("export_http_start: %s", err);
	assert_true(export_http_port(h) != 0);
	return h;
}

static struct export_http *
start(bool control, const struct export_hooks *hk, unsigned int max_conns,
      unsigned int timeout_s)
{
	struct export_http_conf c;

	conf_for(&c, control, hk, max_conns, timeout_s);
	return start_conf(&c);
}

/* The body of an error reply r is one line with no raw control byte. */
static void
expect_oneline(const char *what, unsigned int b, struct resp *r)
{
	const char *bad;

	if (r->status < 400 || r->len == 0 || r->body[r->len - 1] != '\n')
		fail_msg("%s byte 0x%02x: %d '%s'", what, b, r->status, r->body);
	r->body[r->len - 1] = '\0';
	if ((bad = test_oneline_bad(r->body)) != NULL)
		fail_msg("%s byte 0x%02x: %s in '%s'", what, b, bad, r->body);
	free(r->body);
}

/* A request's path, method, Content-Type and body holding every control
 * and high byte, where a reply echoes them: one line, quoted. */
static void
test_http_quoting(void **state)
{
	struct export_http *h = start(true, &hooks, 32, 10);
	uint16_t port = export_http_port(h);
	const char *form = "application/x-www-form-urlencoded";
	char path[32], body[32], ctype[48], req[256];
	struct resp r;
	unsigned int k, b;

	(void)state;
	for (k = 0; k < TEST_ONELINE_BYTES; k++) {
		b = test_oneline_byte(k);
		/* percent-encoded: libmicrohttpd decodes the path */
		snprintf(path, sizeof(path), "/x%%%02xy", b);
		assert_int_equal(http(port, "GET", path, NULL, NULL, &r), 0);
		expect_oneline("path", b, &r);
		snprintf(body, sizeof(body), "mode=r%cu", (char)b);
		assert_int_equal(http(port, "POST", "/ingress/mode", form, body, &r), 0);
		expect_oneline("mode value", b, &r);
		snprintf(body, sizeof(body), "mo%cde=rcu", (char)b);
		assert_int_equal(http(port, "POST", "/ingress/mode", form, body, &r), 0);
		expect_oneline("mode key", b, &r);
		if (b == '\n' || b == '\r')
			continue;	/* they end a header */
		snprintf(ctype, sizeof(ctype), "text/pl%cin", (char)b);
		assert_int_equal(http(port, "POST", "/ingress/mode", ctype, "mode=rcu",
				      &r), 0);
		expect_oneline("Content-Type", b, &r);
		snprintf(req, sizeof(req), "G%cT /healthz HTTP/1.1\r\nHost: t\r\n"
			 "Connection: close\r\n\r\n", (char)b);
		if (http_raw(port, req, strlen(req), &r) == 0)
			expect_oneline("method", b, &r);
	}
	export_http_stop(h);
}

static void
test_http_listen_errors(void **state)
{
	struct export_http_conf c;
	struct export_http *h, *h2;
	char err[256], addr[64];

	(void)state;
	{
		const struct { const char *addr; int rc; const char *why; } c[] = {
			{ "127.0.0.1:9120", 0, NULL }, { "[::1]:0", 0, NULL },
			{ "localhost:0", 0, NULL },
			{ "1.2.3:80", -EINVAL, "not an IPv4 address" },
			{ "::1:80", -EINVAL, "expected ADDR:PORT" },
			{ "127.0.0.1:70000", -EINVAL, "port '70000'" },
			{ "127.0.0.1:", -EINVAL, "port ''" },
			{ "127.0.0.1", -EINVAL, "expected ADDR:PORT" },
			{ "[::1]", -EINVAL, "expected [IPV6]:PORT" },
			{ "[1.2.3.4]:80", -EINVAL, "not an IPv6 address" },
		};
		unsigned int i;

		for (i = 0; i < RTE_DIM(c); i++) {
			err[0] = '\0';
			if (export_http_check_listen(c[i].addr, err, sizeof(err)) != c[i].rc ||
			    (c[i].why && strstr(err, c[i].why) == NULL))
				fail_msg("'%s': '%s'", c[i].addr, err);
		}
	}

	/* A port in use: NULL, errno and a one-line reason. */
	h = start(false, NULL, 4, 10);
	export_http_conf_init(&c);
	snprintf(addr, sizeof(addr), "127.0.0.1:%u", export_http_port(h));
	c.listen = addr;
	h2 = export_http_start(st, &c, err, sizeof(err));
	assert_null(h2);
	assert_int_equal(errno, EADDRINUSE);
	assert_non_null(strstr(err, "Address already in use"));
	assert_null(strchr(err, '\n'));
	export_http_stop(h);

	/* IPv6 loopback, when the host has it: only a host without IPv6
	 * (no such family, or no ::1) skips; any other error fails. */
	c.listen = "[::1]:0";
	h = export_http_start(st, &c, err, sizeof(err));
	if (h == NULL) {
		if (errno != EAFNOSUPPORT && errno != EADDRNOTAVAIL)
			fail_msg("[::1]: %s", err);
		print_message("no IPv6 loopback (%s): [::1] skipped\n", err);
		return;
	}
	assert_true(strncmp(export_http_url(h), "http://[::1]:", 13) == 0);
	export_http_stop(h);
}

/* The body of GET path must be exactly what the writer gives for the same
 * snapshot (nothing folds in between here). */
static void
same_as(uint16_t port, const char *path, const char *ctype, const char *want)
{
	char *got = get_body(port, path, ctype);

	if (strcmp(got, want) != 0)
		fail_msg("GET %s differs from the writer's output:\n%s\n---\n%s",
			 path, got, want);
	free(got);
}

static void
test_http_get(void **state)
{
	static const enum export_snmp_file which[] = { EXPORT_SNMP, EXPORT_NETSTAT };
	struct export_http *h = start(true, &hooks, 32, 10);
	uint16_t port = export_http_port(h);
	json_t *ing = hk_state(NULL), *mine;
	struct export_prom_opts o = { info, ing, false, NULL };
	struct stats_snapshot *snap;
	char *t, *m1, *m2, url[64];
	struct resp r;

	(void)state;
	snprintf(url, sizeof(url), "http://127.0.0.1:%u/", port);
	assert_string_equal(export_http_url(h), url);
	t = get_body(port, "/", "text/plain");
	assert_non_null(strstr(t, "/metrics"));
	free(t);
	t = get_body(port, "/healthz", "text/plain");
	assert_true(strncmp(t, "ok", 2) == 0);
	free(t);

	snap = stats_get(st);
	t = render(w_snmp, &which[0]);
	same_as(port, "/snmp", "text/plain", t);
	assert_int_equal(snmp_check(t, snap->totals), MIB_IP_MAX + MIB_ICMP_MAX +
			 __icmpmsg_nonzero(snap->totals) + MIB_TCP_MAX + MIB_UDP_MAX +
			 MIB_UDPLITE_MAX);
	free(t);
	t = render(w_snmp, &which[1]);
	same_as(port, "/netstat", "text/plain", t);
	free(t);
	/* /stats.json: export_json() of the same snapshot, as --json dumps it. */
	mine = export_json(snap, NULL, info, false);
	/* ...with the hook's ingress state */
	json_object_set_new(mine, "ingress", hk_state(NULL));
	assert_non_null(json_object_get(mine, "conservation"));
	t = json_dumps(mine, JSON_INDENT(2) | JSON_SORT_KEYS);
	t = realloc(t, strlen(t) + 2);
	strcat(t, "\n");
	same_as(port, "/stats.json", "application/json", t);
	free(t);
	json_decref(mine);
	m1 = render(w_prom, &o);
	/* /metrics: the writer's output, then the process memory families,
	 * read at the request (so not comparable byte for byte). */
	t = get_body(port, "/metrics", "text/plain; version=0.0.4");
	{
		char *mem = strstr(t, "# HELP pktpath_resident_memory_bytes ");

		assert_non_null(mem);
		assert_true(prom_value(mem, "pktpath_resident_memory_bytes") > 1e6);
		assert_true(prom_value(mem, "pktpath_heap_inuse_bytes{allocator=\"malloc\"}") > 0);
		assert_true(prom_value(mem, "pktpath_heap_inuse_bytes{allocator=\"rte_malloc\"}") > 0);
		*mem = '\0';
		if (strcmp(t, m1) != 0)
			fail_msg("GET /metrics differs from the writer's output:\n%s\n---\n%s",
				 t, m1);
	}
	free(t);
	assert_true(prom_value(m1, "pktpath_ingress_mode{mode=\"off\"}") == 1);
	assert_true(prom_value(m1, "pktpath_ingress_mode{mode=\"rcu\"}") == 0);
	stats_put(st, snap);
	json_decref(ing);

	/* HEAD: headers only. */
	assert_int_equal(http(port, "HEAD", "/metrics", NULL, NULL, &r), 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.len, 0);
	free(r.body);

	/* Monotonic across traffic, a mode flip and a clear. */
	fill(1, 7, 1);
	stats_fold_now(st);
	expect(port, "POST", "/ingress/mode", "application/x-www-form-urlencoded",
	       "mode=rcu", 200, "mode rcu");
	expect(port, "POST", "/stats/clear", NULL, NULL, 200, "cleared");
	m2 = get_body(port, "/metrics", NULL);
	prom_monotonic(m1, m2);
	assert_true(prom_value(m2, "pktpath_ingress_mode{mode=\"rcu\"}") == 1);
	assert_non_null(strstr(m2, "pktpath_info{mode=\"rcu\""));
	assert_true(prom_value(m2, "pktpath_stats_clears_total") >= 1);
	free(m1);
	free(m2);
	/* ...while /snmp honours the clear. */
	t = get_body(port, "/snmp", NULL);
	assert_non_null(strstr(t, "\nIp: 2 64 0 0 "));
	free(t);
	expect(port, "POST", "/ingress/mode", NULL, "mode=off", 200, "mode off");
	export_http_stop(h);
}

static void
test_http_errors(void **state)
{
	struct export_http *h = start(true, &hooks, 32, 10), *h2, *h3;
	uint16_t port = export_http_port(h);
	const char *form = "application/x-www-form-urlencoded";
	char big[200], req[512];
	int modes, rules;
	uint64_t clears;
	struct stats_snapshot *snap;
	struct resp r;

	(void)state;
	snap = stats_get(st);
	clears = snap->clears;
	stats_put(st, snap);
	modes = hk_mode_calls;
	rules = hk_rules_calls;

	expect(port, "GET", "/nope", NULL, NULL, 404, "no such endpoint");
	expect(port, "GET", "/metrics/", NULL, NULL, 404, NULL);
	expect(port, "DELETE", "/nope", NULL, NULL, 404, NULL);
	assert_int_equal(http(port, "POST", "/metrics", form, "x=1", &r), 0);
	assert_int_equal(r.status, 405);
	assert_string_equal(hdr(&r, "Allow"), "GET, HEAD");
	free(r.body);
	assert_int_equal(http(port, "GET", "/stats/clear", NULL, NULL, &r), 0);
	assert_int_equal(r.status, 405);
	assert_string_equal(hdr(&r, "Allow"), "POST");
	free(r.body);
	expect(port, "PUT", "/ingress/mode", form, "mode=rcu", 405, NULL);

	/* 400: malformed bodies, and what the hook refuses. */
	expect(port, "POST", "/ingress/mode", form, "", 400, "empty body");
	expect(port, "POST", "/ingress/mode", form, "mode=", 400, "bad mode");
	expect(port, "POST", "/ingress/mode", form, "foo=bar", 400, "unexpected");
	expect(port, "POST", "/ingress/mode", form, "mode=rcu&mode=off", 400, "bad mode");
	expect(port, "POST", "/ingress/mode", form, "mode=%72cu", 400, "bad mode");
	expect(port, "POST", "/ingress/mode", "application/json", "{\"mode\":\"rcu\"}",
	       400, "Content-Type");
	expect(port, "POST", "/ingress/mode", form, "mode=bogus", 400, "unknown mode");
	expect(port, "POST", "/ingress/rules", "text/plain", "", 400, "empty body");
	expect(port, "POST", "/ingress/rules", "text/plain", "garbage", 400, "line 1");
	expect(port, "POST", "/stats/clear", NULL, "x", 400, "takes no body");

	/* 413: by Content-Length, before the body is sent... */
	snprintf(req, sizeof(req), "POST /ingress/rules HTTP/1.1\r\nHost: t\r\n"
		 "Content-Length: 100000\r\n\r\n");
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 413);
	free(r.body);
	/* ...and chunked, without one. */
	memset(big, 'r', sizeof(big));
	snprintf(req, sizeof(req), "POST /ingress/rules HTTP/1.1\r\nHost: t\r\n"
		 "Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
		 "40\r\n%.64s\r\n40\r\n%.64s\r\n0\r\n\r\n", big, big);
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 413);
	free(r.body);
	memset(big, 'x', sizeof(big));
	big[100] = '\0';
	expect(port, "POST", "/ingress/rules", "text/plain", big, 413, "limit");

	/* Nothing changed. */
	assert_int_equal(hk_mode_calls, modes);
	assert_int_equal(hk_rules_calls, rules);
	assert_string_equal(hk_mode, "off");
	snap = stats_get(st);
	assert_int_equal(snap->clears, clears);
	stats_put(st, snap);

	/* Accepted ones do change things. */
	expect(port, "POST", "/ingress/rules", "text/plain", "rule drop udp\n", 200,
	       "rules loaded");
	assert_int_equal(hk_rules_calls, rules + 1);

	/* A client that half-closes after its request (keep-alive asked for)
	 * is answered, and the server closes at once: not at the 10 s timeout
	 * (libmicrohttpd's epoll mode missed such an end now and then). */
	for (int i = 0; i < 20; i++) {
		static const char rq[] = "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n";
		struct timeval tv = { 5, 0 };
		int fd = tcp_connect(port);

		assert_true(fd >= 0);
		assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
		assert_int_equal(send(fd, rq, sizeof(rq) - 1, 0), (ssize_t)sizeof(rq) - 1);
		assert_int_equal(shutdown(fd, SHUT_WR), 0);
		{
			char buf[4096];
			size_t got = 0;
			ssize_t n;

			while ((n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0)) > 0)
				got += (size_t)n;
			if (n < 0)
				fail_msg("half-closed request %d: no close from the server "
					 "within 5 s (%s)", i, strerror(errno));
			buf[got] = '\0';
			assert_true(strncmp(buf, "HTTP/1.1 200", 12) == 0);
		}
		close(fd);
	}

	/* 403: control disabled; 501: no hook. */
	h2 = start(false, &hooks, 4, 10);
	expect(export_http_port(h2), "POST", "/stats/clear", NULL, NULL, 403,
	       "--http-control");
	expect(export_http_port(h2), "POST", "/ingress/mode", form, "mode=rcu", 403,
	       NULL);
	expect(export_http_port(h2), "GET", "/ingress/mode", NULL, NULL, 405, NULL);
	h3 = start(true, NULL, 4, 10);
	expect(export_http_port(h3), "POST", "/ingress/mode", form, "mode=rcu", 501,
	       NULL);
	expect(export_http_port(h3), "POST", "/ingress/rules", "text/plain", "rule x",
	       501, NULL);
	assert_int_equal(hk_mode_calls, modes);
	export_http_stop(h3);
	export_http_stop(h2);
	export_http_stop(h);
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A client sending one header line at a time, never the end of them. */
static int
slowloris(uint16_t port)
{
	static const char head[] = "GET /metrics HTTP/1.1\r\nHost: t\r\n";
	int fd = tcp_connect(port);

	if (fd >= 0 && send(fd, head, sizeof(head) - 1, MSG_NOSIGNAL) !=
			(ssize_t)sizeof(head) - 1) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Whether the server has closed fd (reads the end or an error). */
static bool
closed_by_server(int fd)
{
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);

	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

struct slow_post {
	uint16_t port;
	int status;
};

static void *
slow_post_thread(void *arg)
{
	struct slow_post *p = arg;
	struct resp r;

	if (http(p->port, "POST", "/ingress/mode",
		 "application/x-www-form-urlencoded", "mode=slow", &r) == 0) {
		p->status = r.status;
		free(r.body);
	}
	return NULL;
}

#define N_SLOW 32

static void
test_http_slow_clients(void **state)
{
	struct export_http *h = start(true, &hooks, 64, 2), *h2;
	uint16_t port = export_http_port(h);
	int slow, gone, lor[N_SLOW], idle[64], i, k, modes = hk_mode_calls;
	struct slow_post sp = { port, 0 };
	pthread_t tid;
	char c, req[512];
	double t0;
	ssize_t n;
	struct resp r;

	(void)state;
	/* Half a request line, then silence. */
	slow = tcp_connect(port);
	assert_true(slow >= 0);
	assert_int_equal(send(slow, "GET /metr", 9, 0), 9);
	/* Headers and part of a body, then gone. */
	gone = tcp_connect(port);
	assert_true(gone >= 0);
	{
		const char *rq = "POST /ingress/mode HTTP/1.1\r\nHost: t\r\n"
			"Content-Type: application/x-www-form-urlencoded\r\n"
			"Content-Length: 20\r\n\r\nmode=r";

		assert_int_equal(send(gone, rq, strlen(rq), 0), (ssize_t)strlen(rq));
	}
	usleep(100 * 1000);
	close(gone);
	/* Others are served meanwhile. */
	for (i = 0; i < 20; i++)
		expect(port, "GET", "/healthz", NULL, NULL, 200, "ok");
	assert_int_equal(hk_mode_calls, modes);	/* the vanished POST did nothing */
	/* The stalled client is dropped after the timeout (2 s); the bound
	 * only keeps a broken timeout from hanging the test. */
	t0 = now_s();
	n = recv(slow, &c, 1, 0);
	assert_true(n <= 0);
	assert_true(now_s() - t0 < 60);
	close(slow);

	/* 32 clients sending a header line every 0.3 s: every byte would
	 * restart an idle timeout, but each request has 2 s for its headers.
	 * /metrics and /healthz are served all along (no thread per client),
	 * and every slow one is closed by the server while still sending.
	 * On a server of its own with 128 slots: on the 64-slot one, 32 slow
	 * clients are exactly half the slots, and the scrapes' own waiting
	 * would make the room-for-new-clients rule (below) close the oldest
	 * slow ones early, depending on when the watchdog looks. */
	{
		struct export_http_conf c;

		conf_for(&c, true, &hooks, 128, 2);
		c.per_ip_conns = 128;
		h2 = start_conf(&c);
		port = export_http_port(h2);
	}
	t0 = now_s();
	for (i = 0; i < N_SLOW; i++) {
		lor[i] = slowloris(port);
		assert_true(lor[i] >= 0);
	}
	for (k = 0; k < 40; k++) {
		int open = 0;

		for (i = 0; i < N_SLOW; i++) {
			if (lor[i] < 0)
				continue;
			if (closed_by_server(lor[i]) ||
			    send(lor[i], "X-Slow: y\r\n", 11, MSG_NOSIGNAL) != 11) {
				close(lor[i]);
				lor[i] = -1;
				continue;
			}
			open++;
		}
		/* all still there (well within their 2 s): the scrapes below
		 * compete with them */
		if (now_s() - t0 < 1.0)
			assert_int_equal(open, N_SLOW);
		expect(port, "GET", "/healthz", NULL, NULL, 200, "ok");
		free(get_body(port, "/metrics", "text/plain; version=0.0.4"));
		if (open == 0)
			break;
		usleep(300 * 1000);
	}
	/* 40 rounds of 0.3 s are 12 s: far past the 2 s, whatever the load */
	for (i = 0; i < N_SLOW; i++)
		if (lor[i] >= 0)
			fail_msg("slow client %d still open after %d rounds", i, k);
	export_http_stop(h2);
	port = export_http_port(h);

	/* Room for new clients: when more than half of the slots wait for a
	 * request, the oldest waiters are closed. 64 idle connections on a
	 * 64-slot server: a scrape still gets through, and the oldest idle
	 * ones are the ones closed. */
	for (i = 0; i < 64; i++) {
		idle[i] = tcp_connect(port);
		assert_true(idle[i] >= 0);
		usleep(5 * 1000);
	}
	for (k = 0; k < 50; k++) {
		if (http(port, "GET", "/healthz", NULL, NULL, &r) == 0) {
			assert_int_equal(r.status, 200);
			free(r.body);
			break;
		}
		usleep(100 * 1000);
	}
	assert_true(k < 50);
	usleep(500 * 1000);
	assert_true(closed_by_server(idle[0]));
	for (i = 0; i < 64; i++)
		close(idle[i]);

	/* A control hook that takes 1.5 s holds up only its own request. */
	assert_int_equal(pthread_create(&tid, NULL, slow_post_thread, &sp), 0);
	usleep(200 * 1000);
	for (i = 0; i < 10; i++)
		expect(port, "GET", "/healthz", NULL, NULL, 200, "ok");
	assert_int_equal(sp.status, 0);		/* still in its hook */
	pthread_join(tid, NULL);
	assert_int_equal(sp.status, 200);

	/* Framing that could smuggle a request: 400, one line, no hook. */
	modes = hk_mode_calls;
	snprintf(req, sizeof(req), "POST /ingress/mode HTTP/1.1\r\nHost: t\r\n"
		 "Content-Type: application/x-www-form-urlencoded\r\n"
		 "Content-Length: 8\r\nContent-Length: 14\r\n\r\nmode=rcu");
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 400);
	assert_string_equal(r.body, "conflicting Content-Length headers (2 given, "
			    "the first '8')\n");
	free(r.body);
	snprintf(req, sizeof(req), "GET /healthz HTTP/1.1\r\nHost: t\r\n"
		 "Connection: close\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n");
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 400);
	free(r.body);
	snprintf(req, sizeof(req), "POST /ingress/mode HTTP/1.1\r\nHost: t\r\n"
		 "Content-Type: application/x-www-form-urlencoded\r\n"
		 "Transfer-Encoding: chunked\r\nContent-Length: 8\r\n\r\n"
		 "8\r\nmode=rcu\r\n0\r\n\r\n");
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 400);
	assert_string_equal(r.body, "both Transfer-Encoding and Content-Length\n");
	free(r.body);
	assert_int_equal(hk_mode_calls, modes);
	/* Two equal ones say one thing: accepted. */
	snprintf(req, sizeof(req), "POST /ingress/mode HTTP/1.1\r\nHost: t\r\n"
		 "Connection: close\r\nContent-Type: application/x-www-form-urlencoded\r\n"
		 "Content-Length: 8\r\nContent-Length: 8\r\n\r\nmode=rcu");
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 200);
	free(r.body);
	assert_int_equal(hk_mode_calls, modes + 1);
	expect(port, "POST", "/ingress/mode", "application/x-www-form-urlencoded",
	       "mode=off", 200, "mode off");
	export_http_stop(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_http_listen_errors),
		cmocka_unit_test(test_http_get),
		cmocka_unit_test(test_http_errors),
		cmocka_unit_test(test_http_quoting),
		cmocka_unit_test(test_http_slow_clients),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
