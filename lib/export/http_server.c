/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTTP endpoint's server side: the listening socket, the libmicrohttpd
 * daemon (poll(2) threads, connection limits), the watchdog that bounds each
 * phase of a request, and the thread that runs the control hooks.
 *
 * Why a watchdog: libmicrohttpd 0.9.75 (Debian 12) has only an idle
 * timeout, which every byte restarts: 32 clients sending one header line a
 * second held all 32 thread-per-connection slots for as long as they liked
 * and /metrics and /healthz were refused meanwhile. Connections are now
 * served by a pool of poll(2) threads (a slow client costs a socket, not a
 * thread; level-triggered poll, because with epoll 0.9.75 missed a client's
 * half-close now and then and kept the connection until its timeout), and
 * the watchdog closes (shutdown(2): libmicrohttpd then sees the end of the
 * stream and cleans up) every connection that spent longer than timeout_s
 * in one phase, and the oldest of those still waiting for a request when
 * they hold more than half of the slots.
 *
 * Why a control thread: on a polling thread a hook that waits (a grace
 * period, a mode flip, compiling 10,000 rules) would stall every
 * connection of that thread. The request is suspended
 * (MHD_suspend_connection), queued, run here, and resumed with its answer.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "base.h"
#include "http_pvt.h"
#include "pkt.h"

RTE_LOG_REGISTER(export_http_logtype, pktpath.http, INFO);

#define DOG_TICK_MS 200

static uint64_t
__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- connections ---- */

static struct conn *
__conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci != NULL ? ci->socket_context : NULL;
}

void
__http_conn_phase(struct export_http *h, struct MHD_Connection *c,
		  enum conn_phase p)
{
	struct conn *k = __conn_of(c);

	if (k == NULL)
		return;
	pthread_mutex_lock(&h->conn_lock);
	k->phase = p;
	k->since_ns = __now_ns();
	pthread_mutex_unlock(&h->conn_lock);
}

/* libmicrohttpd calls this on its thread when it accepts a connection and
 * when it has finished with one, before it closes the socket: so the fd is
 * never closed (and reused) while it is on our list. */
static void
__conn_notify(void *cls, struct MHD_Connection *c, void **sctx,
	      enum MHD_ConnectionNotificationCode toe)
{
	struct export_http *h = cls;
	struct conn *k;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

		k = calloc(1, sizeof(*k));
		if (k == NULL || ci == NULL) {	/* untracked: only the idle timeout */
			free(k);
			*sctx = NULL;
			return;
		}
		k->fd = ci->connect_fd;
		k->phase = CONN_HEADERS;
		k->since_ns = __now_ns();
		pthread_mutex_lock(&h->conn_lock);
		k->next = h->conns;
		if (h->conns != NULL)
			h->conns->prev = k;
		h->conns = k;
		h->n_conns++;
		pthread_mutex_unlock(&h->conn_lock);
		*sctx = k;
		return;
	}
	k = *sctx;
	if (k == NULL)
		return;
	pthread_mutex_lock(&h->conn_lock);
	if (k->prev != NULL)
		k->prev->next = k->next;
	else
		h->conns = k->next;
	if (k->next != NULL)
		k->next->prev = k->prev;
	h->n_conns--;
	pthread_mutex_unlock(&h->conn_lock);
	free(k);
	*sctx = NULL;
}

/* Under conn_lock. */
static void
__cut(struct export_http *h, struct conn *k)
{
	/* Not close(): the socket stays libmicrohttpd's, which now reads the
	 * end of the stream and closes it (and calls __conn_notify first). */
	shutdown(k->fd, SHUT_RDWR);
	k->cut = true;
	h->cuts++;
}

/* One pass: deadlines, then room for new clients. Under conn_lock. */
static unsigned int
__dog_pass(struct export_http *h, uint64_t now)
{
	uint64_t limit = (uint64_t)h->conf.timeout_s * 1000000000ull;
	unsigned int waiting = 0, cut = 0;
	struct conn *k;

	for (k = h->conns; k != NULL; k = k->next) {
		if (k->cut)
			continue;
		if (k->phase != CONN_HOOK && now - k->since_ns > limit) {
			__cut(h, k);
			cut++;
			continue;
		}
		waiting += k->phase == CONN_HEADERS;
	}
	/* At most half of the slots may wait for a request: close the
	 * oldest waiters beyond that (idle keep-alive ones included). */
	while (waiting > h->conf.max_conns / 2) {
		struct conn *old = NULL;

		for (k = h->conns; k != NULL; k = k->next)
			if (!k->cut && k->phase == CONN_HEADERS &&
			    (old == NULL || k->since_ns < old->since_ns))
				old = k;
		if (old == NULL)
			break;
		__cut(h, old);
		cut++;
		waiting--;
	}
	return cut;
}

static void *
__dog_thread(void *arg)
{
	struct export_http *h = arg;
	uint64_t logged_at = 0, unlogged = 0;

	pthread_mutex_lock(&h->conn_lock);
	while (!h->dog_stop) {
		struct timespec ts;
		uint64_t t = __now_ns() + DOG_TICK_MS * 1000000ull, now;

		ts.tv_sec = (time_t)(t / 1000000000ull);
		ts.tv_nsec = (long)(t % 1000000000ull);
		pthread_cond_timedwait(&h->dog_cond, &h->conn_lock, &ts);
		if (h->dog_stop)
			break;
		now = __now_ns();
		unlogged += __dog_pass(h, now);
		/* One line per 10 s at most, however many are cut. */
		if (unlogged > 0 && now - logged_at > 10000000000ull) {
			HTTP_LOG(WARNING, "closed %" PRIu64 " connection%s that took "
				 "longer than %u s over a request (or held a slot "
				 "others needed)", unlogged, unlogged == 1 ? "" : "s",
				 h->conf.timeout_s);
			logged_at = now;
			unlogged = 0;
		}
	}
	pthread_mutex_unlock(&h->conn_lock);
	return NULL;
}

/* ---- the control thread ---- */

bool
__http_ctl_enqueue(struct export_http *h, struct req *r)
{
	pthread_mutex_lock(&h->q_lock);
	if (h->q_closing) {
		pthread_mutex_unlock(&h->q_lock);
		return false;
	}
	/* Suspended before it can be resumed: both under q_lock, and the
	 * control thread resumes only what it took off the queue. */
	MHD_suspend_connection(r->c);
	r->queued = true;
	r->qnext = NULL;
	if (h->q_tail != NULL)
		h->q_tail->qnext = r;
	else
		h->q_head = r;
	h->q_tail = r;
	pthread_cond_signal(&h->q_cond);
	pthread_mutex_unlock(&h->q_lock);
	return true;
}

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

static void
__mhd_log(void *cls, const char *fmt, va_list ap)
{
	char buf[256], q[2 * BASE_QUOTE_LEN];
	size_t n;

	RTE_SET_USED(cls);
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
		MHD_OPTION_CONNECTION_LIMIT, h->conf.max_conns,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, h->conf.per_ip_conns,
		MHD_OPTION_CONNECTION_TIMEOUT, h->conf.timeout_s,
		MHD_OPTION_NOTIFY_COMPLETED, __http_completed, h,
		MHD_OPTION_NOTIFY_CONNECTION, __conn_notify, h,
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
	if (h->dog_started) {
		pthread_mutex_lock(&h->conn_lock);
		h->dog_stop = true;
		pthread_cond_signal(&h->dog_cond);
		pthread_mutex_unlock(&h->conn_lock);
		pthread_join(h->dog, NULL);
		h->dog_started = false;
	}
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
		rc = rte_ctrl_thread_create(&h->dog, "pktpath-httpdog", NULL,
					    __dog_thread, h);
		h->dog_started = rc == 0;
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
