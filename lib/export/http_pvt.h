/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_HTTP_PVT_H
#define PKTPATH_HTTP_PVT_H

/*
 * Internals of the HTTP endpoint, shared by http.c (requests: routes,
 * rendering, control), http_server.c (the daemon and the control thread)
 * and http_conn.c (the connections, their limits, the watchdog and the
 * counters). Not for other modules.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <microhttpd.h>

#include "export.h"
#include "export_control.h"

#define HTTP_DEFAULT_LISTEN "127.0.0.1:9120"

/* The log type pktpath.http (--log-level=pktpath.http:debug; http_conn.c). */
extern int export_http_logtype;
#define HTTP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, export_http_logtype, "pktpath: http: " fmt "\n", \
		##__VA_ARGS__)

/*
 * What a connection is waiting for. The phases with a deadline (timeout_s)
 * are the ones a client paces: HEADERS, BODY, SEND. When a new connection
 * takes its address over per_ip_conns, or the endpoint over max_conns, the
 * most stalled connection is closed instead of the new one being refused:
 * the oldest of those waiting for input (HEADERS, BODY), unless a complete
 * request waits unread in its socket, else the oldest SEND.
 */
enum conn_phase {
	CONN_HEADERS,	/* the next request's headers (idle keep-alive too) */
	CONN_BODY,	/* headers in: the rest of the request's body */
	CONN_ANSWER,	/* a complete request, being answered on its thread */
	CONN_HOOK,	/* a control hook runs for it (suspended) */
	CONN_SEND,	/* a response is queued and being sent */
};

/* Why the endpoint closed a connection without answering it (counted:
 * pktpath_http_closed_total{reason}). */
enum http_close {
	HTTP_CLOSE_ADDRESS,	/* its address was over per_ip_conns */
	HTTP_CLOSE_LIMIT,	/* the endpoint was over max_conns */
	HTTP_CLOSE_TIMEOUT,	/* a phase took longer than timeout_s */
	HTTP_CLOSE_UNANSWERED,	/* input left unanswered (libmicrohttpd could
				 * not parse or store a request) */
	HTTP_CLOSE_MAX
};

/* Status codes counted per value (pktpath_http_responses_total{code}). */
#define HTTP_CODE_MIN 100
#define HTTP_CODE_MAX 599

/* One accepted connection (MHD's socket context), on h->conns. */
struct conn {
	struct conn *prev, *next;
	int fd;
	enum conn_phase phase;
	uint64_t since_ns;		/* CLOCK_MONOTONIC: phase start */
	int family;			/* the client's address: AF_INET(6) */
	uint8_t addr[16];
	bool cut;			/* shut down by the endpoint */
	unsigned int busy_pass;		/* __victim() pass that found a
					 * complete request unread in it */
	/* TCP data segments received and sent when its last answer had gone
	 * out: more received and none sent since, at the close, is input
	 * the endpoint left unanswered (unless the client left first). */
	uint32_t in_mark, out_mark;
	bool client_left;		/* aborted a request */
};

enum route {
	RT_INDEX,
	RT_HEALTHZ,
	RT_METRICS,
	RT_SNMP,
	RT_NETSTAT,
	RT_SNMP6,
	RT_JSON,
	RT_DEV_SNMP6, /* a prefix: /dev_snmp6/DEV */
	RT_LINKS,
	RT_MAX /* the POST routes: the control table's rows */
};

/* Per-request state, from the request line (__http_uri()) to
 * __completed(). */
struct req {
	bool started;		/* __access() has seen the headers */
	bool nul;		/* the path has an escaped NUL byte (%00) */
	enum route rt;		/* a GET route, when cmd is NULL */
	const struct export_ctl_cmd *cmd; /* a control command */
	char *body;
	size_t len, cap;
	size_t discarded;	/* body bytes dropped past the limit */
	bool too_big;
	bool has_body;		/* Content-Length > 0 or chunked */
	bool answered;		/* refused at the first call */
	/* A control request, handed to the control thread: */
	struct MHD_Connection *c;
	struct req *qnext;
	bool queued;		/* suspended, on or off the queue */
	bool done;		/* the hook has run: code and text are set */
	unsigned int code;
	char *text;		/* malloc'd one-line answer */
	char ctype[64];		/* the request's Content-Type ("" if none) */
	char peer[48];		/* the client's address, for the log */
};

struct export_http {
	struct stats *s;
	struct export_http_conf conf;
	json_t *info;			/* our deep copy, under info_lock */
	pthread_mutex_t info_lock;	/* jansson objects are not for sharing */
	struct MHD_Daemon *d;
	int fd;				/* listening socket, then MHD's */
	uint16_t port;
	char url[64 + 32];

	/* Connections (http_conn.c), under conn_lock. */
	pthread_mutex_t conn_lock;
	struct conn *conns;
	unsigned int n_conns;		/* on the list */
	unsigned int n_live;		/* of them not cut */
	unsigned int victim_pass;
	uint64_t closed[HTTP_CLOSE_MAX];
	uint64_t unlogged;		/* closes not yet logged */
	/* Responses by status (code - HTTP_CODE_MIN), relaxed atomics: every
	 * polling thread counts. */
	uint64_t responses[HTTP_CODE_MAX - HTTP_CODE_MIN + 1];
	pthread_t dog;
	bool dog_started;
	bool dog_stop;			/* under conn_lock */
	pthread_cond_t dog_cond;

	/* Control requests, run one at a time on their own thread. */
	pthread_mutex_t q_lock;
	pthread_cond_t q_cond;
	struct req *q_head, *q_tail;
	bool q_closing;			/* under q_lock: export_http_stop() */
	pthread_t ctl;
	bool ctl_started;
};

/* http.c: libmicrohttpd's callbacks. */
void *__http_uri(void *cls, const char *uri, struct MHD_Connection *c);
enum MHD_Result __http_access(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload_data,
			      size_t *upload_data_size, void **con_cls);
void __http_completed(void *cls, struct MHD_Connection *c, void **con_cls,
		      enum MHD_RequestTerminationCode toe);
/* http.c: run r's control request (the control thread); sets r->code and
 * r->text. */
void __http_control_run(struct export_http *h, struct req *r);

/* http_conn.c: the connections, their limits and the watchdog. Every
 * function takes conn_lock itself (callable from any thread), but
 * __http_ctl_enqueue, which takes q_lock. */
/* Suspend c and queue r for the control thread (http_server.c): false if
 * the server is stopping (then nothing was done). From c's thread. */
bool __http_ctl_enqueue(struct export_http *h, struct req *r);
/* libmicrohttpd's MHD_OPTION_NOTIFY_CONNECTION: admit (closing the most
 * stalled connection when a limit is passed), forget. */
void __http_conn_notify(void *cls, struct MHD_Connection *c, void **sctx,
			enum MHD_ConnectionNotificationCode toe);
/* The connection c enters phase p (from its thread). */
void __http_conn_phase(struct export_http *h, struct MHD_Connection *c,
		       enum conn_phase p);
/* c's request is over, for reason toe (from its thread): if an answer
 * went out, what the client sent so far is answered. */
void __http_conn_done(struct export_http *h, struct MHD_Connection *c,
		      enum MHD_RequestTerminationCode toe);
/* One response of status code queued (ours or libmicrohttpd's own). */
void __http_count_response(struct export_http *h, unsigned int code);
/* Start the watchdog: 0 or -errno. Stop (and join) it: a no-op if not
 * started. */
int __http_dog_start(struct export_http *h);
void __http_dog_stop(struct export_http *h);
/* pktpath_http_* families (responses, closes, open connections). */
void __http_prom_write(struct export_http *h, FILE *f);

#endif
