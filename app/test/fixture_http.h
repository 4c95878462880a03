/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_FIXTURE_HTTP_H
#define PKTPATH_TEST_FIXTURE_HTTP_H

/*
 * The test_export_http*.c programs' shared fixture, on top of
 * fixture_export.h: an HTTP client over plain sockets (no HTTP library),
 * and test servers on an ephemeral port of 127.0.0.1. Every socket has a
 * 5 s receive timeout, so that a server that never answers fails the test
 * instead of hanging it. cmocka's assertions fail the test that calls
 * these.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixture_export.h"

/* A response: the status, the head (status line and headers) and the
 * body (malloc'd, NUL-terminated; the caller frees it). */
struct resp {
	int status;
	char head[4096];
	char *body;
	size_t len;
};

/* A connection to 127.0.0.1:port from 127.0.0.src (1: the server's own
 * address, as a local scraper's), or -1. */
int tcp_connect_from(uint16_t port, unsigned int src);
int tcp_connect(uint16_t port);
/* Read a whole response until the server closes fd (closed here): 0, or
 * -1 if none came (an empty reply). */
int read_resp(int fd, struct resp *r);
/* One request on a new connection: raw bytes, or METHOD PATH with an
 * optional Content-Type and body ("Connection: close"). 0 or -1. */
int http_raw(uint16_t port, const char *req, size_t len, struct resp *r);
int http(uint16_t port, const char *method, const char *path, const char *ctype,
	 const char *body, struct resp *r);
/* The value of header name in r (a static buffer), or NULL. */
const char *hdr(const struct resp *r, const char *name);
/* Request; the status must be status and the body contain want (if not
 * NULL); an error's body must be one line. */
void expect(uint16_t port, const char *method, const char *path,
	    const char *ctype, const char *body, int status, const char *want);
/* GET path: 200, Content-Type starting with ctype_prefix (if not NULL);
 * the body, malloc'd. */
char *get_body(uint16_t port, const char *path, const char *ctype_prefix);
/* The value of sample "name{labels}" in GET /metrics, or -1. */
double metric(uint16_t port, const char *sample);
/* Until metric() reaches want (true), or secs pass (false). */
bool wait_metric(uint16_t port, const char *sample, double want, double secs);

/* A test server's configuration: an ephemeral port on 127.0.0.1, 64-byte
 * bodies, the fixture's info, and what the test says. */
void conf_for(struct export_http_conf *c, bool control,
	      const struct export_hooks *hk, unsigned int max_conns,
	      unsigned int timeout_s);
/* The server of c over the stats s (start_conf: the fixture's st),
 * listening (fails the test otherwise). */
struct export_http *start_stats(struct stats *s,
				const struct export_http_conf *c);
struct export_http *start_conf(const struct export_http_conf *c);
struct export_http *start(bool control, const struct export_hooks *hk,
			  unsigned int max_conns, unsigned int timeout_s);

/* CLOCK_MONOTONIC in seconds. */
double now_s(void);
/* A connection that sends a request line and one header, never the end
 * of its headers, or -1. */
int slowloris(uint16_t port);
/* Whether the server has closed fd (reads the end or an error). */
bool closed_by_server(int fd);

#endif
