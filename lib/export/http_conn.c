/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTTP endpoint's connections: a table of every connection that
 * libmicrohttpd holds, what each waits for and since when (http_pvt.h's
 * conn_phase); the limits; the watchdog; the counters of what was answered
 * and of what was closed unanswered.
 *
 * Limits never refuse a new connection. libmicrohttpd's own would: at
 * MHD_OPTION_PER_IP_CONNECTION_LIMIT it accepts and closes the newcomer
 * unanswered, so with 127.0.0.1, the default listen address, 64 silent
 * connections from any local process locked every local scraper out
 * (4 of 36 scrapes answered). Here libmicrohttpd's per-address limit is off
 * and its connection limit far above ours; when an accepted connection
 * takes its address over per_ip_conns, or the endpoint over max_conns, the
 * most stalled connection is closed instead, of that address or of all:
 * the oldest one waiting for input (its headers, idle keep-alive included,
 * or its body) whose socket does not hold a complete request yet, else the
 * oldest one whose response is still being sent. A client that sends a
 * complete request is therefore answered however many connections others
 * hold, and a connection is closed only once it is the oldest of the
 * stalled ones. Connections answered now or suspended for a control hook
 * are never closed: when only those are left, the newcomer is admitted
 * beyond the limit.
 *
 * "Closed" is shutdown(2), never close(2): the socket stays
 * libmicrohttpd's, which reads the end of the stream and closes it (after
 * __http_conn_notify(), so an fd on the table is never reused). Shutting
 * only the reading side of a connection waiting for input lets a request
 * that libmicrohttpd has just read (the race with its thread) still be
 * answered; one that is sending is shut both ways.
 *
 * The watchdog bounds each paced phase: libmicrohttpd 0.9.75 has only an
 * idle timeout, which every byte restarts (32 clients sending one header
 * line a second held every slot for as long as they liked). A connection
 * longer than timeout_s in HEADERS, BODY or SEND is closed.
 *
 * Input left unanswered: libmicrohttpd closes some requests without an
 * answer (a request line without a space; a request line or header records
 * that exhaust its 32 KiB per-connection memory before its 414 or 431
 * could be built), and tells nobody. At every close the connection's TCP
 * counts tell: data received after its last answer went out, none sent
 * since, and the client not seen to leave first (it had not closed its end
 * when libmicrohttpd did, nor aborted the request): "unanswered". A client
 * that gives up in the middle of its request line may be counted too.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "export_pvt.h"
#include "http_pvt.h"

/* The log type of the whole endpoint (HTTP_LOG), here below the files
 * that log: http.c and http_server.c use this file, not each other. */
RTE_LOG_REGISTER(export_http_logtype, pktpath.http, INFO);

#define DOG_TICK_MS 200
/* A complete request head is looked for in this much of what a socket
 * holds unread (a scrape's is ~100 bytes). */
#define PEEK_BYTES 4096
/* tcp_info.tcpi_state values (include/net/tcp_states.h) of a connection
 * whose client closed its end first. Numbers, because <netinet/tcp.h>'s
 * enum cannot be included beside <linux/tcp.h>, whose tcp_info has the
 * segment counts. */
#define TCP_STATE_CLOSE_WAIT 8
#define TCP_STATE_LAST_ACK 9

static const char *const close_names[HTTP_CLOSE_MAX] = {
	[HTTP_CLOSE_ADDRESS] = "address_limit",
	[HTTP_CLOSE_LIMIT] = "connection_limit",
	[HTTP_CLOSE_TIMEOUT] = "timeout",
	[HTTP_CLOSE_UNANSWERED] = "unanswered",
};

static uint64_t
__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static struct conn *
__conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci != NULL ? ci->socket_context : NULL;
}

/* The socket's data segments received and sent (a FIN alone is not one),
 * and whether the client has closed its end before the server: 0, or
 * -errno. */
static int
__tcp_segs(int fd, uint32_t *in, uint32_t *out, bool *client_closed)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
		return -errno;
	*in = ti.tcpi_data_segs_in;
	*out = ti.tcpi_data_segs_out;
	*client_closed = ti.tcpi_state == TCP_STATE_CLOSE_WAIT ||
		ti.tcpi_state == TCP_STATE_LAST_ACK;
	return 0;
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

void
__http_conn_done(struct export_http *h, struct MHD_Connection *c,
		 enum MHD_RequestTerminationCode toe)
{
	struct conn *k = __conn_of(c);
	uint32_t in, out;
	bool closed;

	if (k == NULL || __tcp_segs(k->fd, &in, &out, &closed) != 0)
		return;
	pthread_mutex_lock(&h->conn_lock);
	/* Only if the answer went out: libmicrohttpd may have queued one
	 * (its 431) that it could not send. */
	if (out != k->out_mark) {
		k->in_mark = in;
		k->out_mark = out;
	}
	if (toe == MHD_REQUEST_TERMINATED_CLIENT_ABORT ||
	    toe == MHD_REQUEST_TERMINATED_READ_ERROR)
		k->client_left = true;
	pthread_mutex_unlock(&h->conn_lock);
}

void
__http_count_response(struct export_http *h, unsigned int code)
{
	if (code >= HTTP_CODE_MIN && code <= HTTP_CODE_MAX)
		__atomic_fetch_add(&h->responses[code - HTTP_CODE_MIN], 1,
				   __ATOMIC_RELAXED);
}

/* Under conn_lock. */
static void
__cut(struct export_http *h, struct conn *k, enum http_close why)
{
	shutdown(k->fd, k->phase == CONN_SEND ? SHUT_RDWR : SHUT_RD);
	k->cut = true;
	h->n_live--;
	h->closed[why]++;
	h->unlogged++;
}

/* Whether fd holds, unread, the end of a request head (a blank line). */
static bool
__request_waits(int fd)
{
	char buf[PEEK_BYTES];
	ssize_t n = recv(fd, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT);

	return n > 0 && (memmem(buf, (size_t)n, "\r\n\r\n", 4) != NULL ||
			 memmem(buf, (size_t)n, "\n\n", 2) != NULL);
}

static bool
__same_addr(const struct conn *a, const struct conn *b)
{
	return a->family == b->family && memcmp(a->addr, b->addr, 16) == 0;
}

/* The most stalled connection other than k (of k's address only, if
 * mine), or NULL: see the file comment. Under conn_lock. */
static struct conn *
__victim(struct export_http *h, const struct conn *k, bool mine)
{
	unsigned int pass = ++h->victim_pass;
	struct conn *v, *in, *out;

	for (;;) {
		in = out = NULL;
		for (v = h->conns; v != NULL; v = v->next) {
			if (v == k || v->cut || v->busy_pass == pass ||
			    (mine && !__same_addr(v, k)))
				continue;
			if (v->phase == CONN_HEADERS || v->phase == CONN_BODY) {
				if (in == NULL || v->since_ns < in->since_ns)
					in = v;
			} else if (v->phase == CONN_SEND) {
				if (out == NULL || v->since_ns < out->since_ns)
					out = v;
			}
		}
		if (in == NULL)
			return out;
		if (in->phase != CONN_HEADERS || !__request_waits(in->fd))
			return in;
		in->busy_pass = pass;	/* about to be answered: the next */
	}
}

/* A new connection: on the table, then within the limits. */
static void
__conn_open(struct export_http *h, struct MHD_Connection *c, void **sctx)
{
	const union MHD_ConnectionInfo *fi =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	const union MHD_ConnectionInfo *ai =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ai != NULL ? ai->client_addr : NULL;
	struct conn *k = calloc(1, sizeof(*k)), *v;
	unsigned int same = 0;

	*sctx = NULL;
	if (k == NULL || fi == NULL) {	/* untracked: only the idle timeout */
		free(k);
		return;
	}
	k->fd = fi->connect_fd;
	k->phase = CONN_HEADERS;
	k->since_ns = __now_ns();
	if (sa != NULL && sa->sa_family == AF_INET) {
		k->family = AF_INET;
		memcpy(k->addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa != NULL && sa->sa_family == AF_INET6) {
		k->family = AF_INET6;
		memcpy(k->addr, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
	}
	pthread_mutex_lock(&h->conn_lock);
	k->next = h->conns;
	if (h->conns != NULL)
		h->conns->prev = k;
	h->conns = k;
	h->n_conns++;
	h->n_live++;
	for (v = h->conns; v != NULL; v = v->next)
		same += !v->cut && __same_addr(v, k);
	if (h->conf.per_ip_conns != 0 && same > h->conf.per_ip_conns &&
	    (v = __victim(h, k, true)) != NULL)
		__cut(h, v, HTTP_CLOSE_ADDRESS);
	if (h->n_live > h->conf.max_conns && (v = __victim(h, k, false)) != NULL)
		__cut(h, v, HTTP_CLOSE_LIMIT);
	pthread_mutex_unlock(&h->conn_lock);
	*sctx = k;
}

/* libmicrohttpd is done with the connection (its socket not closed yet). */
static void
__conn_close(struct export_http *h, struct conn *k)
{
	uint32_t in = 0, out = 0;
	bool closed = true, lost;

	lost = __tcp_segs(k->fd, &in, &out, &closed) == 0 && !closed &&
		!k->client_left && in != k->in_mark && out == k->out_mark;
	pthread_mutex_lock(&h->conn_lock);
	if (!k->cut) {
		h->n_live--;
		if (lost) {
			h->closed[HTTP_CLOSE_UNANSWERED]++;
			h->unlogged++;
		}
	}
	if (k->prev != NULL)
		k->prev->next = k->next;
	else
		h->conns = k->next;
	if (k->next != NULL)
		k->next->prev = k->prev;
	h->n_conns--;
	pthread_mutex_unlock(&h->conn_lock);
	free(k);
}

void
__http_conn_notify(void *cls, struct MHD_Connection *c, void **sctx,
		   enum MHD_ConnectionNotificationCode toe)
{
	struct export_http *h = cls;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		__conn_open(h, c, sctx);
	} else if (*sctx != NULL) {
		__conn_close(h, *sctx);
		*sctx = NULL;
	}
}

/* ---- the watchdog ---- */

/* One pass over the deadlines. Under conn_lock. */
static void
__dog_pass(struct export_http *h, uint64_t now)
{
	uint64_t limit = (uint64_t)h->conf.timeout_s * 1000000000ull;
	struct conn *k;

	for (k = h->conns; k != NULL; k = k->next)
		if (!k->cut && (k->phase == CONN_HEADERS || k->phase == CONN_BODY ||
				k->phase == CONN_SEND) &&
		    now - k->since_ns > limit)
			__cut(h, k, HTTP_CLOSE_TIMEOUT);
}

static void *
__dog_thread(void *arg)
{
	struct export_http *h = arg;
	uint64_t logged_at = 0;

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
		__dog_pass(h, now);
		/* One line per 10 s at most, however many are closed. */
		if (h->unlogged > 0 && now - logged_at > 10000000000ull) {
			HTTP_LOG(WARNING, "closed %" PRIu64 " connection%s unanswered "
				 "(so far: %" PRIu64 " over the address limit, %"
				 PRIu64 " over the connection limit, %" PRIu64
				 " past the %u s timeout, %" PRIu64 " requests "
				 "libmicrohttpd could not read)", h->unlogged,
				 h->unlogged == 1 ? "" : "s",
				 h->closed[HTTP_CLOSE_ADDRESS],
				 h->closed[HTTP_CLOSE_LIMIT],
				 h->closed[HTTP_CLOSE_TIMEOUT], h->conf.timeout_s,
				 h->closed[HTTP_CLOSE_UNANSWERED]);
			logged_at = now;
			h->unlogged = 0;
		}
	}
	pthread_mutex_unlock(&h->conn_lock);
	return NULL;
}

int
__http_dog_start(struct export_http *h)
{
	int rc = rte_ctrl_thread_create(&h->dog, "pktpath-httpdog", NULL,
					__dog_thread, h);

	h->dog_started = rc == 0;
	return rc;
}

void
__http_dog_stop(struct export_http *h)
{
	if (!h->dog_started)
		return;
	pthread_mutex_lock(&h->conn_lock);
	h->dog_stop = true;
	pthread_cond_signal(&h->dog_cond);
	pthread_mutex_unlock(&h->conn_lock);
	pthread_join(h->dog, NULL);
	h->dog_started = false;
}

/* ---- the control queue's entry (the control thread: http_server.c) ---- */

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

/* ---- /metrics ---- */

void
__http_prom_write(struct export_http *h, FILE *f)
{
	uint64_t closed[HTTP_CLOSE_MAX];
	unsigned int i, open;

	pthread_mutex_lock(&h->conn_lock);
	memcpy(closed, h->closed, sizeof(closed));
	open = h->n_live;
	pthread_mutex_unlock(&h->conn_lock);
	__export_prom_family(f, "http_responses_total", "counter", "Responses of "
			     "the HTTP endpoint by status code, libmicrohttpd's "
			     "own refusals included");
	for (i = 0; i <= HTTP_CODE_MAX - HTTP_CODE_MIN; i++) {
		uint64_t n = __atomic_load_n(&h->responses[i], __ATOMIC_RELAXED);

		if (n != 0)
			fprintf(f, "pktpath_http_responses_total{code=\"%u\"} %" PRIu64
				"\n", i + HTTP_CODE_MIN, n);
	}
	__export_prom_family(f, "http_closed_total", "counter", "Connections "
			     "the HTTP endpoint closed without an answer, by reason");
	for (i = 0; i < HTTP_CLOSE_MAX; i++)
		fprintf(f, "pktpath_http_closed_total{reason=\"%s\"} %" PRIu64 "\n",
			close_names[i], closed[i]);
	__export_prom_family(f, "http_connections", "gauge", "Connections the "
			     "HTTP endpoint holds open");
	fprintf(f, "pktpath_http_connections %u\n", open);
}
