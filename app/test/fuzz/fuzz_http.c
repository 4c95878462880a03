/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: any bytes as an HTTP request (request line, headers, body) to
 * the live endpoint, control POSTs enabled. The server runs in this process
 * (libmicrohttpd threads), so AddressSanitizer sees any bad access in the
 * handlers; every response must be a well-formed HTTP status line or a
 * closed connection, and the server must answer GET /healthz afterwards.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "mib.h"
#include "export.h"

static struct mib_set *set;
static struct stats *st;
static struct export_http *http;
static uint16_t port;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
set_mode(void *arg, const char *mode, const char *source, char *err, size_t len)
{
	(void)arg;
	if (strcmp(mode, "off") != 0) {
		snprintf(err, len, "unknown mode '%s'", mode);
		return -22;
	}
	return 0;
}

static int
load_rules(void *arg, const char *body, size_t len, char *err, size_t errlen)
{
	(void)arg;
	(void)body;
	if (len == 0) {
		snprintf(err, errlen, "empty");
		return -22;
	}
	return 0;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *eal[] = { "fuzz_http", "--no-huge", "--no-shconf", "-m", "256",
			"--no-pci", "--file-prefix", "fuzz_http",
			"--log-level", "*:crit", NULL };
	struct stats_conf sc;
	struct export_http_conf hc;
	static unsigned int lcores[1] = { 1 };
	char err[256];

	(void)argc;
	(void)argv;
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0)
		return 1;
	set = mib_set_create(2, MIB_LAYOUT_PERCPU, NULL);
	memset(&sc, 0, sizeof(sc));
	sc.set = set;
	sc.n_workers = 1;
	sc.lcore_ids = lcores;
	sc.fold = MIB_FOLD_LCORE;
	sc.interval_s = 0.5;
	st = stats_create(&sc);
	if (st == NULL || stats_start(st) != 0)
		return 1;
	export_http_conf_init(&hc);
	hc.listen = "127.0.0.1:0";
	hc.control = true;
	hc.body_limit = 4096;
	hc.timeout_s = 1;
	hc.hooks.set_mode = set_mode;
	hc.hooks.load_rules = load_rules;
	http = export_http_start(st, &hc, err, sizeof(err));
	if (http == NULL) {
		fprintf(stderr, "export_http_start: %s\n", err);
		return 1;
	}
	port = export_http_port(http);
	return 0;
}

/* Send req, read the answer (until close or 1 s); returns its length. */
static ssize_t
exchange(const void *req, size_t len, char *out, size_t out_len)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct pollfd pfd;
	ssize_t got = 0, n;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	if (len > 0 && send(fd, req, len, MSG_NOSIGNAL) < 0) {
		close(fd);
		return 0;
	}
	shutdown(fd, SHUT_WR);
	pfd.fd = fd;
	pfd.events = POLLIN;
	while ((size_t)got < out_len - 1 && poll(&pfd, 1, 1000) > 0) {
		n = recv(fd, out + got, out_len - 1 - (size_t)got, 0);
		if (n <= 0)
			break;
		got += n;
	}
	out[got] = '\0';
	close(fd);
	return got;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char health[] = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	static char out[1 << 16];
	ssize_t n;

	if (size > 8192)
		return 0;
	n = exchange(data, size, out, sizeof(out));
	if (n > 0 && strncmp(out, "HTTP/1.", 7) != 0) {
		fprintf(stderr, "fuzz_http: a response that is not HTTP: %.60s\n", out);
		abort();
	}
	/* The server must still serve. Thousands of connections a second,
	 * each on its own server thread, can briefly fill the connection
	 * limit (the connection is then closed unanswered): retry for up to
	 * 2 s before calling the server dead. */
	for (int i = 0; i < 40; i++) {
		n = exchange(health, sizeof(health) - 1, out, sizeof(out));
		if (n > 0)
			break;
		usleep(50 * 1000);
	}
	if (n <= 0 || strncmp(out, "HTTP/1.1 200", 12) != 0) {
		fprintf(stderr, "fuzz_http: the server stopped serving: /healthz got %zd bytes: %.60s\n",
			n, n > 0 ? out : "");
		abort();
	}
	return 0;
}
