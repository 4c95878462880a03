/* SPDX-License-Identifier: BSD-3-Clause */
/* The test_export_http*.c programs' fixture (fixture_http.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <cmocka.h>

#include "fixture_http.h"

int
tcp_connect_from(uint16_t port, unsigned int src)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct sockaddr_in me = { .sin_family = AF_INET };
	struct timeval tv = { 5, 0 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	me.sin_addr.s_addr = htonl(INADDR_LOOPBACK - 1 + src);
	assert_true(fd >= 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (src != 1 && bind(fd, (struct sockaddr *)&me, sizeof(me)) != 0)
		fail_msg("bind 127.0.0.%u: %s", src, strerror(errno));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int
tcp_connect(uint16_t port)
{
	return tcp_connect_from(port, 1);
}

/* Read a whole response until the server closes; -1 if none. */
int
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

int
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

int
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

const char *
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
void
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

char *
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
void
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

struct export_http *
start_conf(const struct export_http_conf *c)
{
	return start_stats(st, c);
}

struct export_http *
start_stats(struct stats *s, const struct export_http_conf *c)
{
	struct export_http *h;
	char err[256];

	h = export_http_start(s, c, err, sizeof(err));
	if (h == NULL)
		fail_msg("export_http_start: %s", err);
	assert_true(export_http_port(h) != 0);
	return h;
}

struct export_http *
start(bool control, const struct export_hooks *hk, unsigned int max_conns,
      unsigned int timeout_s)
{
	struct export_http_conf c;

	conf_for(&c, control, hk, max_conns, timeout_s);
	return start_conf(&c);
}

double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A client sending one header line at a time, never the end of them. */
int
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
bool
closed_by_server(int fd)
{
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);

	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

double
metric(uint16_t port, const char *sample)
{
	char *t = get_body(port, "/metrics", NULL);
	double v = prom_value(t, sample);

	free(t);
	return v;
}

bool
wait_metric(uint16_t port, const char *sample, double want, double secs)
{
	double t0 = now_s();

	while (metric(port, sample) < want) {
		if (now_s() - t0 > secs)
			return false;
		usleep(20 * 1000);
	}
	return true;
}
