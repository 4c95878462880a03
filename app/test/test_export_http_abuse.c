/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/export's HTTP endpoint under abuse (http_conn.c):
 * floods of silent, slowloris, half-open, half-closed and slow-reading
 * connections from the scraper's own address (127.0.0.1, the default
 * listen address, so every local scraper's) and from others, in numbers
 * at and beyond the per-address and the global limits: every scrape is
 * answered 200, and the endpoint never holds more than its limit.
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_http_floods),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
