/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/export's HTTP endpoint (http.c, http_server.c): every
 * endpoint answers exactly what its writer gives for the same snapshot,
 * every error (one line of text/plain, nothing changed), slow and
 * vanishing clients, connection limits, request smuggling by framing,
 * --fold-on-read's order; requests holding every control and high byte
 * answered on one line. Plain sockets, no HTTP library (fixture_http.h);
 * floods and malformed requests: test_export_http_abuse.c.
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

#include "fixture_http.h"
#include "test_oneline.h"

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
	 * On a server of its own with 128 slots and no lower limit per
	 * address: what closes the slow ones must be their deadline, never
	 * the room the scrapes need (test_export_http_abuse.c tests that). */
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

	/* Room for new clients: a connection over the limit closes the
	 * oldest one waiting for a request. 64 idle connections on a 64-slot
	 * server: a scrape still gets through, and the oldest idle ones are
	 * the ones closed. */
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

/*
 * --fold-on-read: every answer is a fold made for it, the readers fold
 * concurrently (as procfs readers of /proc/net/snmp do), and one client's
 * successive answers never go back (a Prometheus counter must not), while
 * a worker counts and clears race with the folds. Answers of different
 * clients are not ordered: how often one came lower than the highest
 * another had already received is printed, not checked.
 */
#define ORDER_CLIENTS 4
#define ORDER_SCRAPES 60
#define RX_PACKETS "pktpath_mib_total{group=\"Rx\",field=\"RxPackets\"}"

struct order {
	struct mib_set *ms;
	struct stats *s;
	uint16_t port;
	volatile int stop;
	uint64_t seen;		/* the highest answer any client received */
	uint64_t behind;	/* answers below seen when their request left */
};

struct order_client {
	struct order *o;
	unsigned int answers, folded;
	char bad[160];		/* the first failure ("" if none) */
};

static void *
order_writer(void *arg)
{
	struct order *o = arg;
	struct mib_block b = mib_set_block(o->ms, 0);

	while (!o->stop)
		mib_inc(&b, MIB_F(RX, PACKETS));
	return NULL;
}

static void *
order_clearer(void *arg)
{
	struct order *o = arg;

	while (!o->stop) {
		stats_clear(o->s);
		usleep(1000);
	}
	return NULL;
}

static void *
order_client(void *arg)
{
	struct order_client *k = arg;
	struct order *o = k->o;
	uint64_t prev = 0, v, seen;
	unsigned int i;
	struct resp r;

	for (i = 0; i < ORDER_SCRAPES && k->bad[0] == '\0'; i++) {
		seen = __atomic_load_n(&o->seen, __ATOMIC_ACQUIRE);
		if (http(o->port, "GET", "/metrics", NULL, NULL, &r) != 0 ||
		    r.status != 200) {
			snprintf(k->bad, sizeof(k->bad), "scrape %u: no 200", i);
			break;
		}
		v = (uint64_t)prom_value(r.body, RX_PACKETS);
		k->folded += hdr(&r, "X-Pktpath-Fold-Ns") != NULL;
		free(r.body);
		if (v < prev)
			snprintf(k->bad, sizeof(k->bad), "scrape %u: RxPackets %" PRIu64
				 " after %" PRIu64, i, v, prev);
		if (v < seen)
			__atomic_fetch_add(&o->behind, 1, __ATOMIC_RELAXED);
		while (v > seen && !__atomic_compare_exchange_n(&o->seen, &seen, v,
				false, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
			;
		prev = v;
		k->answers++;
	}
	return NULL;
}

static void
test_http_fold_on_read_order(void **state)
{
	struct order_client k[ORDER_CLIENTS];
	struct order o = { .stop = 0 };
	struct export_http_conf c;
	struct stats_conf sc;
	struct export_http *h;
	pthread_t tw, tc, tk[ORDER_CLIENTS];
	unsigned int i;

	(void)state;
	/* 126 phantom blocks: folds long enough to overlap */
	o.ms = mib_set_create(NW + 1 + 126, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(o.ms);
	fixture_stats_conf(&sc, o.ms, 3600, 0, 0);
	sc.n_phantom = 126;
	sc.fold_on_read = true;
	o.s = stats_create(&sc);
	assert_non_null(o.s);
	assert_int_equal(stats_start(o.s), 0);
	conf_for(&c, false, NULL, 64, 10);
	h = start_stats(o.s, &c);
	o.port = export_http_port(h);
	assert_int_equal(pthread_create(&tw, NULL, order_writer, &o), 0);
	assert_int_equal(pthread_create(&tc, NULL, order_clearer, &o), 0);
	for (i = 0; i < ORDER_CLIENTS; i++) {
		memset(&k[i], 0, sizeof(k[i]));
		k[i].o = &o;
		assert_int_equal(pthread_create(&tk[i], NULL, order_client, &k[i]), 0);
	}
	for (i = 0; i < ORDER_CLIENTS; i++)
		pthread_join(tk[i], NULL);
	o.stop = 1;
	pthread_join(tw, NULL);
	pthread_join(tc, NULL);
	for (i = 0; i < ORDER_CLIENTS; i++) {
		if (k[i].bad[0] != '\0')
			fail_msg("client %u: %s", i, k[i].bad);
		assert_int_equal(k[i].answers, ORDER_SCRAPES);
		assert_int_equal(k[i].folded, ORDER_SCRAPES);	/* a fold each */
	}
	print_message("fold-on-read: %u clients x %u scrapes, each client's "
		      "monotonic; %" PRIu64 " answers below one another client "
		      "had already received\n", ORDER_CLIENTS, ORDER_SCRAPES,
		      o.behind);
	export_http_stop(h);
	stats_stop(o.s);
	own_stats_free(o.s, o.ms);
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
		cmocka_unit_test(test_http_fold_on_read_order),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
