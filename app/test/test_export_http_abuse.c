/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/export's HTTP endpoint under abuse (http_conn.c,
 * http.c):
 *
 * - floods: silent, slowloris, half-open and half-closed connections from
 *   the scraper's own address (127.0.0.1, the default listen address, so
 *   every local scraper's) and from others, in numbers at and beyond the
 *   per-address and the global limits: every scrape is answered 200, and
 *   the endpoint never holds more than its limit;
 * - requests generated over their sizes (query strings, paths, header
 *   counts and sizes, cookies) and a table of malformed ones (request
 *   lines, methods, bodies on GET, framing): each gets a status line, or
 *   is closed and counted in pktpath_http_closed_total, never dropped
 *   silently.
 *
 * Counts only: every wait is bounded (generous) and none is a measurement.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <cmocka.h>

#include <rte_common.h>

#include "fixture_http.h"

#define UNANSWERED "pktpath_http_closed_total{reason=\"unanswered\"}"
#define TIMEOUTS "pktpath_http_closed_total{reason=\"timeout\"}"
#define BY_ADDRESS "pktpath_http_closed_total{reason=\"address_limit\"}"
#define BY_LIMIT "pktpath_http_closed_total{reason=\"connection_limit\"}"
#define OPEN "pktpath_http_connections"

/* ---- floods ---- */

enum flood {
	SILENT,		/* connects, sends nothing */
	SLOWLORIS,	/* a request line, then one header line now and then */
	HALF_OPEN,	/* half a request line, then gone without a FIN or RST */
	HALF_CLOSED,	/* half a request line, then shutdown(SHUT_WR) */
	SLOW_READER,	/* 200 pipelined requests, a 1 KiB receive buffer,
			 * never a read: the server blocks sending */
	FLOOD_MAX
};

static const char *const flood_names[FLOOD_MAX] = {
	"silent", "slowloris", "half-open", "half-closed", "slow reader" };

/* tcp_connect_from() with a receive buffer of rcvbuf bytes (set before the
 * connection, so that the window is small from the start). */
static int
connect_rcvbuf(uint16_t port, unsigned int src, int rcvbuf)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct sockaddr_in me = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	me.sin_addr.s_addr = htonl(INADDR_LOOPBACK - 1 + src);
	assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				    sizeof(rcvbuf)), 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&me, sizeof(me)), 0);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		fail_msg("slow reader from 127.0.0.%u: %s", src, strerror(errno));
	return fd;
}

/* One flooding connection of kind k from 127.0.0.src: its fd (-1 for the
 * half-open, whose client socket is gone). */
static int
flood_one(uint16_t port, enum flood k, unsigned int src)
{
	static const char get[] = "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n";
	int fd, one = 1, i;

	if (k == SLOW_READER) {
		fd = connect_rcvbuf(port, src, 1024);
		for (i = 0; i < 200; i++)
			assert_int_equal(send(fd, get, sizeof(get) - 1, MSG_NOSIGNAL),
					 (ssize_t)sizeof(get) - 1);
		return fd;
	}
	fd = tcp_connect_from(port, src);
	if (fd < 0)
		fail_msg("%s from 127.0.0.%u: cannot connect", flood_names[k], src);
	switch (k) {
	case SILENT:
		return fd;
	case SLOWLORIS:
		assert_int_equal(send(fd, "GET /metrics HTTP/1.1\r\nHost: t\r\n", 32,
				      MSG_NOSIGNAL), 32);
		return fd;
	case HALF_OPEN:
		assert_int_equal(send(fd, "GET /met", 8, MSG_NOSIGNAL), 8);
		/* In repair mode close() sends nothing: the server keeps an
		 * established connection whose client is gone. */
		if (setsockopt(fd, IPPROTO_TCP, TCP_REPAIR, &one, sizeof(one)) != 0)
			fail_msg("TCP_REPAIR: %s (the half-open connections need "
				 "CAP_NET_ADMIN)", strerror(errno));
		close(fd);
		return -1;
	case HALF_CLOSED:
		assert_int_equal(send(fd, "GET /met", 8, MSG_NOSIGNAL), 8);
		assert_int_equal(shutdown(fd, SHUT_WR), 0);
		return fd;
	default:
		fail();
	}
	return -1;
}

#define PER_IP 8
#define MAX_CONNS 24
#define SCRAPES 8

/* Who floods: n_own connections from 127.0.0.1 (the scraper's address),
 * n_other from 127.0.0.2 on, PER_IP per address at most. */
static const struct {
	unsigned int n_own, n_other;
} floods[] = {
	{ PER_IP, 0 },			/* at the per-address limit */
	{ PER_IP + 1, 0 },		/* beyond it */
	{ 4 * PER_IP, 0 },
	{ 0, MAX_CONNS },		/* at the global limit */
	{ 0, MAX_CONNS + PER_IP },	/* beyond it */
	{ PER_IP, MAX_CONNS },		/* both */
};

/* The scrapes of one flood: new connections from 127.0.0.1, each answered
 * 200 (an empty reply, a reset or 5 s of silence fails). */
static void
scrape_through(uint16_t port, enum flood k, unsigned int n_own,
	       unsigned int n_other, const int *fds, unsigned int n)
{
	unsigned int i, j;
	struct resp r;

	for (i = 0; i < SCRAPES; i++) {
		if (http(port, "GET", "/metrics", NULL, NULL, &r) != 0)
			fail_msg("%s, %u from 127.0.0.1 and %u from others: scrape %u "
				 "got no answer", flood_names[k], n_own, n_other, i);
		if (r.status != 200)
			fail_msg("%s, %u + %u: scrape %u: %d", flood_names[k], n_own,
				 n_other, i, r.status);
		free(r.body);
		for (j = 0; k == SLOWLORIS && j < n; j++)	/* one more line */
			if (fds[j] >= 0)
				send(fds[j], "X-Slow: y\r\n", 11, MSG_NOSIGNAL);
	}
}

static void
test_http_floods(void **state)
{
	struct export_http_conf c;
	unsigned int f, i, n;
	int k, fds[PER_IP + MAX_CONNS + PER_IP];

	(void)state;
	for (k = 0; k < FLOOD_MAX; k++) {
		for (f = 0; f < RTE_DIM(floods); f++) {
			struct export_http *h;
			uint16_t port;

			/* A server of its own each time (the half-open ones
			 * stay until closed), and a timeout far beyond the
			 * test: the limits, not the watchdog, make room. */
			conf_for(&c, false, NULL, MAX_CONNS, 600);
			c.per_ip_conns = PER_IP;
			h = start_conf(&c);
			port = export_http_port(h);
			n = 0;
			for (i = 0; i < floods[f].n_own; i++)
				fds[n++] = flood_one(port, (enum flood)k, 1);
			for (i = 0; i < floods[f].n_other; i++)
				fds[n++] = flood_one(port, (enum flood)k, 2 + i / PER_IP);
			scrape_through(port, (enum flood)k, floods[f].n_own,
				       floods[f].n_other, fds, n);
			/* Never more than the limit (the scrape included). */
			if (metric(port, OPEN) > MAX_CONNS)
				fail_msg("%s, %u + %u: %g connections open",
					 flood_names[k], floods[f].n_own,
					 floods[f].n_other, metric(port, OPEN));
			/* What stalled was closed, and counted, once over a
			 * limit (half-closed ones go by themselves): the oldest
			 * of the address, or of all (the own ones, opened
			 * first, when others fill the endpoint). */
			if (k != HALF_CLOSED && floods[f].n_other == 0 &&
			    floods[f].n_own >= PER_IP)
				assert_true(metric(port, BY_ADDRESS) > 0);
			if (k != HALF_CLOSED && floods[f].n_other +
			    RTE_MIN(floods[f].n_own, (unsigned int)PER_IP) >= MAX_CONNS)
				assert_true(metric(port, BY_LIMIT) > 0);
			for (i = 0; i < n; i++)
				if (fds[i] >= 0)
					close(fds[i]);
			export_http_stop(h);
		}
		print_message("floods: %s: %zu cases x %d scrapes, all answered\n",
			      flood_names[k], RTE_DIM(floods), SCRAPES);
	}
}

/* ---- malformed and oversized requests ---- */

/* Send raw (or as much as the server takes) on a new connection and read
 * until the server closes, at most secs: the status, or -1 if the server
 * closed without a status line. */
static int
exchange(uint16_t port, const char *raw, size_t len, int secs)
{
	struct timeval tv = { secs, 0 };
	struct resp r;
	int fd = tcp_connect(port);

	assert_true(fd >= 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	send(fd, raw, len, MSG_NOSIGNAL);	/* it may close before the end */
	if (read_resp(fd, &r) != 0)
		return -1;
	free(r.body);
	return r.status;
}

/* The outcome of one generated request: a status, or closed and counted
 * in reason (want is the count that reason must then reach). */
static void
outcome(uint16_t port, const char *what, int status, const char *reason,
	double *want)
{
	if (status > 0)
		return;
	*want += 1;
	if (!wait_metric(port, reason, *want, 30))
		fail_msg("%s: closed without an answer, and %s is %g, not %g", what,
			 reason, metric(port, reason), *want);
}

/* A request with filler n times in place of %s in fmt (one of head's %s). */
static char *
gen(const char *fmt, const char *filler, unsigned int n, size_t *len)
{
	size_t fl = strlen(filler), k = 0;
	char *fill = malloc(fl * n + 1), *out;
	unsigned int i;

	assert_non_null(fill);
	for (i = 0; i < n; i++, k += fl)
		memcpy(fill + k, filler, fl);
	fill[k] = '\0';
	assert_true(asprintf(&out, fmt, fill) > 0);
	free(fill);
	*len = strlen(out);
	return out;
}

static const struct {
	const char *what;
	const char *fmt;	/* %s: the filler, n times */
	const char *filler;
	unsigned int max, step;
	int want;		/* status while the request line fits (0: any) */
} sizes[] = {
	/* Query strings: ignored (200) until the request line is over
	 * libmicrohttpd's 32 KiB (414); 500 parameters made an empty reply. */
	{ "parameters", "GET /healthz?x%s HTTP/1.1\r\nHost: t\r\n"
	  "Connection: close\r\n\r\n", "&a", 20000, 97, 200 },
	{ "named parameters", "GET /metrics?%s HTTP/1.1\r\nHost: t\r\n"
	  "Connection: close\r\n\r\n", "key=value&", 4000, 23, 200 },
	{ "path", "GET /x%s HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
	  "a", 70000, 509, 404 },
	{ "headers", "GET /healthz HTTP/1.1\r\nHost: t\r\n%sConnection: "
	  "close\r\n\r\n", "a:b\r\n", 800, 1, 0 },
	{ "header size", "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: %s\r\n"
	  "Connection: close\r\n\r\n", "a", 70000, 509, 0 },
	{ "cookies", "GET /healthz HTTP/1.1\r\nHost: t\r\nCookie: x=y%s\r\n"
	  "Connection: close\r\n\r\n", "; a=b", 8000, 7, 0 },
};

static void
test_http_oversized(void **state)
{
	struct export_http *h = start(false, NULL, 64, 2);
	uint16_t port = export_http_port(h);
	double unanswered = metric(port, UNANSWERED);
	unsigned int i, n, empty = 0, total = 0;

	(void)state;
	for (i = 0; i < RTE_DIM(sizes); i++) {
		for (n = 0; n <= sizes[i].max; n += sizes[i].step) {
			size_t len;
			char *req = gen(sizes[i].fmt, sizes[i].filler, n, &len), what[64];
			int st = exchange(port, req, len, 30);

			snprintf(what, sizeof(what), "%s x %u", sizes[i].what, n);
			/* While it fits in 16 KiB, the answer is the route's. */
			if (sizes[i].want != 0 && len < 16384 && st != sizes[i].want)
				fail_msg("%s (%zu bytes): %d, want %d", what, len, st,
					 sizes[i].want);
			if (st > 0 && st != 200 && st != 404 && st != 414 && st != 431)
				fail_msg("%s (%zu bytes): %d", what, len, st);
			outcome(port, what, st, UNANSWERED, &unanswered);
			empty += st < 0;
			total++;
			free(req);
		}
	}
	/* Each closed one counted once, and nothing else. */
	assert_true(metric(port, UNANSWERED) == unanswered);
	print_message("oversized: %u requests, %u closed without an answer "
		      "(counted)\n", total, empty);
	export_http_stop(h);
}

/* A table of malformed requests: their status, or closed and counted. */
static const struct {
	const char *req;
	int status;		/* 0: closed, counted in reason */
	const char *reason;
} malformed[] = {
	{ "GET\r\n\r\n", 0, UNANSWERED },
	{ "GET /healthz\r\n\r\n", 400, NULL },
	{ "GET  HTTP/1.1\r\nHost: t\r\n\r\n", 400, NULL },
	{ "GET /healthz HTTP/3.0\r\nHost: t\r\n\r\n", 505, NULL },
	{ "GET /healthz http/1.1\r\nHost: t\r\n\r\n", 400, NULL },
	{ "GET\t/healthz HTTP/1.1\r\nHost: t\r\n\r\n", 400, NULL },
	/* never a request line: the watchdog's timeout */
	{ "\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03", 0, TIMEOUTS },
	{ "\r\n\r\n\r\n", 0, TIMEOUTS },
	{ "GET /healthz HTTP/1.1\r\nHost: t\r\nnocolon\r\n\r\n", 400, NULL },
	/* methods */
	{ "FOO /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 405, NULL },
	{ "get /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 405, NULL },
	{ "OPTIONS * HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 404, NULL },
	{ "TRACE /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 405, NULL },
	{ "CONNECT t:80 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 404, NULL },
	{ "DELETE /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 405, NULL },
	{ "G\x01T /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 405, NULL },
	/* paths: an escaped NUL or newline */
	{ "GET /metrics%00 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 400, NULL },
	{ "GET /metrics%0a%0d HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 404, NULL },
	/* bodies on GET and HEAD */
	{ "GET /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
	  "Content-Length: 3\r\n\r\nabc", 400, NULL },
	{ "HEAD /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
	  "Content-Length: 3\r\n\r\nabc", 400, NULL },
	{ "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
	  "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400, NULL },
	{ "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
	  "Content-Length: 99999999999\r\n\r\nabc", 400, NULL },
	/* framing */
	{ "POST /stats/clear HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
	  "Transfer-Encoding: gzip\r\n\r\n", 501, NULL },
	{ "POST /stats/clear HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
	  "Content-Length: -1\r\n\r\n", 400, NULL },
	{ "POST /stats/clear HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
	  "Content-Length: 0x10\r\n\r\n", 400, NULL },
	{ "POST /ingress/rules HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
	  "Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", 400, NULL },
};

static void
test_http_malformed(void **state)
{
	struct export_http *h = start(true, &hooks, 64, 2);
	uint16_t port = export_http_port(h);
	double count[2] = { metric(port, UNANSWERED), metric(port, TIMEOUTS) };
	static const char nl[] = "GET /a%0Ab HTTP/1.1\r\nConnection: close\r\n\r\n";
	unsigned int i;
	struct resp r;
	char *m;

	(void)state;
	for (i = 0; i < RTE_DIM(malformed); i++) {
		const char *q = malformed[i].req;
		int st = exchange(port, q, strlen(q), 30);
		char what[32];

		snprintf(what, sizeof(what), "malformed request %u", i);
		if (st != (malformed[i].status ? malformed[i].status : -1))
			fail_msg("%s: %d, want %d", what, st,
				 malformed[i].status ? malformed[i].status : -1);
		if (st < 0)
			outcome(port, what, st, malformed[i].reason,
				&count[strcmp(malformed[i].reason, TIMEOUTS) == 0]);
	}
	/* Ours are one line of text, control characters escaped. */
	assert_int_equal(http_raw(port, nl, sizeof(nl) - 1, &r), 0);
	assert_int_equal(r.status, 404);
	assert_string_equal(r.body, "no such endpoint '/a\\nb' (GET / lists them)\n");
	free(r.body);
	/* Every refusal counted by status (libmicrohttpd's own too). */
	assert_true(metric(port, "pktpath_http_responses_total{code=\"505\"}") == 1);
	assert_true(metric(port, "pktpath_http_responses_total{code=\"501\"}") == 1);
	assert_true(metric(port, "pktpath_http_responses_total{code=\"405\"}") == 5);
	assert_true(metric(port, UNANSWERED) == count[0]);
	assert_true(metric(port, TIMEOUTS) == count[1]);
	m = get_body(port, "/metrics", NULL);
	promtool_ok(m);
	free(m);
	export_http_stop(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_http_floods),
		cmocka_unit_test(test_http_oversized),
		cmocka_unit_test(test_http_malformed),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
