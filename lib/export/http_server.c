/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTTP endpoint's server side: the listening socket, the libmicrohttpd
 * daemon, and the thread that runs the control hooks. The connections,
 * their limits, the watchdog and the control queue's entry are http_conn.c's.
 *
 * Connections are served by a pool of poll(2) threads (a slow client costs
 * a socket, not a thread; level-triggered poll, because with epoll 0.9.75
 * missed a client's half-close now and then and kept the connection until
 * its timeout). libmicrohttpd's own limits are set so that they never act
 * (http_conn.c enforces ours, without refusing anyone): no limit per
 * address, and twice max_conns per thread, which only connections that
 * cannot be closed (answered now, or waiting for a hook) could reach.
 *
 * Why a control thread: on a polling thread a hook that waits (a grace
 * period, a mode flip, compiling 10,000 rules) would stall every
 * connection of that thread. The request is suspended
 * (MHD_suspend_connection), queued, run here, and resumed with its answer.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "base.h"
#include "http_pvt.h"
#include "pkt.h"

/* ---- the control thread ---- */

static void *
__ctl_thread(void *arg)
{
	struct export_http *h = arg;
	struct req *r;

	pthread_mutex_lock(&h->q_lock);
	for (;;) {
		while (h->q_head == NULL && !h->q_closing)
			pthread_cond_wait(&h->q_cond, &h->q_lock);
		r = h->q_head;
		if (r == NULL)		/* closing, and nothing left to answer */
			break;
		h->q_head = r->qnext;
		if (h->q_head == NULL)
			h->q_tail = NULL;
		pthread_mutex_unlock(&h->q_lock);
		__http_control_run(h, r);
		r->done = true;
		/* Resume is the release: libmicrohttpd's thread that calls us
		 * back for r sees code and text. r may be freed right after:
		 * not touched again. */
		MHD_resume_connection(r->c);
		pthread_mutex_lock(&h->q_lock);
	}
	pthread_mutex_unlock(&h->q_lock);
	return NULL;
}

/* ---- set-up ---- */

void
export_http_conf_init(struct export_http_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->listen = HTTP_DEFAULT_LISTEN;
	c->body_limit = 1 << 20;
	c->max_conns = 256;
	c->per_ip_conns = 64;
	c->timeout_s = 10;
	c->threads = 2;
}

/* "ADDR:PORT" -> sockaddr (numeric addresses only; IPv6 in brackets). */
static int
__parse_listen(const char *addr, struct sockaddr_storage *ss, socklen_t *sl,
	       char *err, size_t errlen)
{
	char host[INET6_ADDRSTRLEN + IF_NAMESIZE + 2], why[96];
	const char *colon, *port, *h0 = addr;
	struct addrinfo hints, *ai = NULL;
	bool v6 = false;
	uint64_t p;
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
	/* Decimal, as every number pktpath reads (lib/pkt's parser). */
	if (pkt_parse_u64(port, 0, 65535, &p, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "port %s", why);
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
		char q[BASE_QUOTE_LEN];

		snprintf(err, errlen, "'%s' is not an %s address%s",
			 base_quote(q, sizeof(q), host), v6 ? "IPv6" : "IPv4",
			 v6 ? "" : " (IPv6 goes in brackets: [::1]:9120)");
		return -EINVAL;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*sl = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

int
export_http_check_listen(const char *addr, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;

	return __parse_listen(addr, &ss, &sl, err, errlen);
}

/* Socket, bind, listen ourselves: errors name the call and the cause
 * ("bind: Address already in use"). */
static int
__listen_socket(struct export_http *h, const char *where, char *err,
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
	/* A flood of connections waits here, in order, while the polling
	 * threads accept one per loop each: as many as the system allows. */
	if (listen(fd, SOMAXCONN) != 0 || getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
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

/* libmicrohttpd's error responses (400, 413, 414, 431, 505: a request it
 * cannot parse or store) reach the application only as this log line,
 * the status its first argument (transmit_error_response(), 0.9.75 to
 * 0.9.77): counted from it. */
#define MHD_ERROR_RESPONSE_FMT "Error processing request (HTTP response code is %u"

static void
__mhd_log(void *cls, const char *fmt, va_list ap)
{
	struct export_http *h = cls;
	char buf[256], q[2 * BASE_QUOTE_LEN];
	va_list aq;
	size_t n;

	if (strncmp(fmt, MHD_ERROR_RESPONSE_FMT,
		    sizeof(MHD_ERROR_RESPONSE_FMT) - 1) == 0) {
		va_copy(aq, ap);
		__http_count_response(h, va_arg(aq, unsigned int));
		va_end(aq);
	}
	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	/* its messages may hold a request's bytes */
	HTTP_LOG(DEBUG, "libmicrohttpd: %s", base_quote(q, sizeof(q), buf));
}

struct start_ctx {
	struct export_http *h;
	int v6;
};

/* On a DPDK control thread: libmicrohttpd's threads inherit its affinity. */
static void *
__start_daemon(void *arg)
{
	struct start_ctx *x = arg;
	struct export_http *h = x->h;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
		MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;

	if (x->v6)
		flags |= MHD_USE_IPv6;
	/* The logger first: libmicrohttpd prints what comes before it on
	 * stderr. */
	h->d = MHD_start_daemon(flags, 0, NULL, NULL, __http_access, h,
		MHD_OPTION_EXTERNAL_LOGGER, __mhd_log, h,
		MHD_OPTION_LISTEN_SOCKET, (MHD_socket)h->fd,
		MHD_OPTION_THREAD_POOL_SIZE, h->conf.threads,
		MHD_OPTION_CONNECTION_LIMIT, 2 * h->conf.max_conns * h->conf.threads,
		/* the watchdog's deadlines act first */
		MHD_OPTION_CONNECTION_TIMEOUT, h->conf.timeout_s + 1,
		MHD_OPTION_URI_LOG_CALLBACK, __http_uri, h,
		MHD_OPTION_NOTIFY_COMPLETED, __http_completed, h,
		MHD_OPTION_NOTIFY_CONNECTION, __http_conn_notify, h,
		MHD_OPTION_END);
	return NULL;
}

static void
__free(struct export_http *h)
{
	json_decref(h->info);
	pthread_mutex_destroy(&h->info_lock);
	pthread_mutex_destroy(&h->conn_lock);
	pthread_cond_destroy(&h->dog_cond);
	pthread_mutex_destroy(&h->q_lock);
	pthread_cond_destroy(&h->q_cond);
	free(h);
}

/* Stop and join the watchdog and the control thread (answering what is
 * queued first). */
static void
__threads_stop(struct export_http *h)
{
	__http_dog_stop(h);
	pthread_mutex_lock(&h->q_lock);
	h->q_closing = true;
	pthread_cond_signal(&h->q_cond);
	pthread_mutex_unlock(&h->q_lock);
	if (h->ctl_started) {
		pthread_join(h->ctl, NULL);
		h->ctl_started = false;
	}
}

struct export_http *
export_http_start(struct stats *s, const struct export_http_conf *c, char *err,
		  size_t errlen)
{
	struct export_http *h;
	struct start_ctx x;
	pthread_condattr_t ca;
	pthread_t tid;
	int rc;

	if (s == NULL || c == NULL || c->body_limit == 0 || c->max_conns == 0 ||
	    c->threads == 0 || c->timeout_s == 0) {
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
	pthread_mutex_init(&h->conn_lock, NULL);
	pthread_mutex_init(&h->q_lock, NULL);
	pthread_cond_init(&h->q_cond, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->dog_cond, &ca);
	pthread_condattr_destroy(&ca);
	rc = __listen_socket(h, c->listen ? c->listen : HTTP_DEFAULT_LISTEN, err,
			     errlen);
	if (rc != 0)
		goto fail;
	rc = rte_ctrl_thread_create(&h->ctl, "pktpath-httpctl", NULL,
				    __ctl_thread, h);	/* 0 or -errno */
	if (rc == 0) {
		h->ctl_started = true;
		rc = __http_dog_start(h);
	}
	if (rc != 0) {
		snprintf(err, errlen, "rte_ctrl_thread_create: %s", strerror(-rc));
		goto fail;
	}
	x.h = h;
	x.v6 = strchr(h->url, '[') != NULL;
	rc = rte_ctrl_thread_create(&tid, "pktpath-http", NULL, __start_daemon,
				    &x);
	if (rc != 0) {
		snprintf(err, errlen, "rte_ctrl_thread_create: %s", strerror(-rc));
		goto fail;
	}
	pthread_join(tid, NULL);
	if (h->d == NULL) {
		rc = -EIO;
		snprintf(err, errlen, "libmicrohttpd did not start (see "
			 "--log-level=pktpath.http:debug)");
		goto fail;
	}
	HTTP_LOG(DEBUG, "serving %s (control %s, %u threads, %u connections, "
		 "%u per address, %u s per request phase)", h->url,
		 h->conf.control ? "on" : "off", h->conf.threads,
		 h->conf.max_conns, h->conf.per_ip_conns, h->conf.timeout_s);
	return h;
fail:
	__threads_stop(h);
	if (h->fd >= 0)
		close(h->fd);
	__free(h);
	errno = -rc;
	return NULL;
}

uint16_t
export_http_port(const struct export_http *h)
{
	return h->port;
}

const char *
export_http_url(const struct export_http *h)
{
	return h->url;
}

void
export_http_stop(struct export_http *h)
{
	if (h == NULL)
		return;
	/* Control requests already queued are answered (and resumed) first;
	 * later ones get 503: libmicrohttpd must not be stopped with a
	 * suspended connection. Then it closes the listening socket, every
	 * connection and joins its threads: nothing of h is used after. */
	__threads_stop(h);
	MHD_stop_daemon(h->d);
	__free(h);
}
