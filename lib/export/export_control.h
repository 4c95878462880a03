/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_EXPORT_CONTROL_H
#define PKTPATH_EXPORT_CONTROL_H

/**
 * @file
 * The one table of control commands (control.c): what changes a run from
 * outside, served alike by the HTTP endpoint (POST), DPDK telemetry and the
 * signals. A row names the command, its argument (type and range), whether
 * it changes the run, where each transport serves it (an HTTP path, a
 * telemetry command, a signal or none) and its handler. Adding a command is
 * one row and one handler; the transports, the HTTP index and the
 * reference in lib/export/README.md ("Control commands") are generated from
 * the table.
 *
 * A transport turns its request into the raw argument (HTTP: the body, or
 * the value of its form key; telemetry: the parameter after the comma; a
 * signal: its sigqueue() value), and export_control_run() parses it once
 * into a typed value, checks it, and runs the handler with a context: the
 * stats object, the application's hooks, the request's source (for the log
 * line of a mode flip) and a writer that the transport adapts (HTTP: the
 * body's one line; telemetry: a dict; a signal: a log line). The result is
 * one line of text, the same on every transport, plus named values
 * (telemetry's dict members); an error is one line too, and changes nothing.
 *
 * Reading commands are rows too (change false): HTTP serves them by GET
 * (a row with a parameter also at PATH/PARAM), telemetry by its command.
 * A reading handler writes through the same writer: a page (the HTTP
 * text bodies: /metrics, /snmp, ...) into its text stream, from the
 * registered sections of export_section.h where they render it; a result
 * made of named values (telemetry's dicts) through str/u64/i64 and list,
 * which HTTP renders as JSON and telemetry as its dict, so that both carry
 * the same values.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a command takes. */
enum export_ctl_arg {
	EXPORT_CTL_ARG_NONE, /**< nothing (HTTP: no body; telemetry: no parameter) */
	EXPORT_CTL_ARG_MODE, /**< an ingress mode name, [A-Za-z0-9_-], < 32
				 *   characters (HTTP: form key "mode"; a signal:
				 *   its number 0..INGRESS_MODE_MAX-1, none: the
				 *   next mode) */
	EXPORT_CTL_ARG_TEXT, /**< a non-empty text without NUL bytes (HTTP:
				 *   the body; telemetry: the parameter) */
	EXPORT_CTL_ARG_WORDS, /**< a reading command's optional parameter,
				  *   words separated by commas (HTTP: the
				  *   path's rest after PATH/; telemetry: the
				  *   parameter), which the handler checks */
	EXPORT_CTL_ARG_MAX
};

/** The type of a list's values (export_ctl_writer.list). */
enum export_ctl_type {
	EXPORT_CTL_STR,
	EXPORT_CTL_U64,
	EXPORT_CTL_INT,
};

/** Where the result goes: the transport's adapter. A result of named
 *  values is an object (telemetry: a dict), or a list when the handler
 *  calls list() with key NULL first. */
struct export_ctl_writer {
	/** A named value of the result (telemetry: a dict member); inside a
	 *  list, its next value (key NULL). */
	void (*str)(void *arg, const char *key, const char *value);
	void (*u64)(void *arg, const char *key, uint64_t value);
	void (*i64)(void *arg, const char *key, int64_t value);
	/** Start a list of values of type t, the member key (NULL: the result
	 *  itself), until end(): 0 or -ENOMEM (nothing started). Not nested. */
	int (*list)(void *arg, const char *key, enum export_ctl_type t);
	/** End the list: 0 or -ENOMEM (it is dropped). */
	int (*end)(void *arg);
	void *arg;
	/** A reading command's page (HTTP's text body), or NULL: a page's
	 *  handler then answers -ENOTSUP. */
	FILE *text;
};

/** One command's execution: filled by export_control_run(). */
struct export_ctl_ctx {
	struct stats *s;		  /**< the run's stats object */
	const struct export_hooks *hooks; /**< the application's hooks */
	const char *source;		  /**< who asks ("POST /ingress/mode from ADDR",
				 *   "telemetry /pktpath/ingress_mode",
				 *   "SIGUSR1 from pid N"), for the change's log */
	const char *request; /**< the request, for errors ("POST /stats/clear") */
	const char *argword; /**< what carries the argument ("body",
				 *   "parameter", "value"), for errors */
	const struct export_ctl_writer *out; /**< may be NULL */
	/* What a reading command reads besides c->s (the transport's): */
	const json_t *info; /**< run info, or NULL */
	/** Held around every use of info (jansson objects are not for
	 *  sharing), or NULL: the caller holds what guards it. */
	pthread_mutex_t *info_lock;
	bool lcore_mib; /**< /metrics' and /stats.json's per-lcore MIB */
	bool control;	/**< the transport serves changing commands */
	/** /metrics: the transport's own families (HTTP's pktpath_http_*),
	 *  appended to the page; may be NULL. */
	void (*prom_tail)(void *arg, FILE *f);
	void *prom_tail_arg;
	/** Set by a MIB read folded for it (--fold-on-read): its cost. */
	bool read_fold;
	double read_fold_ns;
	/** The argument, parsed (valid while export_control_run() runs). */
	const char *mode;   /**< ARG_MODE: the name; NULL: the next mode */
	const char *text;   /**< ARG_TEXT, ARG_WORDS: NUL-terminated (WORDS:
			     *   NULL when none given) */
	size_t len;	    /**< ARG_TEXT, ARG_WORDS: strlen(text) */
	char msg[256];	    /**< the result's or the error's one line; a
				 *   handler's error as "WHAT: REASON" */
	const char *reason; /**< in msg: the error without its "WHAT: " */
};

/** One row of the table. */
struct export_ctl_cmd {
	const char *name; /**< "ingress/mode" */
	enum export_ctl_arg arg;
	bool change;	       /**< changes the run: refused where control is
				*   off; HTTP POST (else GET) */
	const char *http;      /**< HTTP path, or NULL */
	const char *ctype;     /**< a reading command's page: its HTTP
				*   Content-Type; NULL: named values (JSON) */
	const char *telemetry; /**< telemetry command, or NULL */
	/** Answers without a run (the field table's groups and help):
	 *  telemetry serves it after export_telemetry_unregister() too, with
	 *  no stats object; what needs a snapshot then answers null. */
	bool no_run;
	int signal;	       /**< signal number, or 0 */
	bool signal_pid;       /**< the signal's source names its sender */
	const char *what;      /**< a handler's error prefix ("rules"; the mode
				 *   command: "mode NAME") */
	const char *http_arg;  /**< what HTTP's body is ("mode=NAME", "a rules
				 *   file", NULL: none), for errors and docs;
				 *   ARG_WORDS: the parameter ("GROUP[,LCORE]") */
	/** Whether the run can serve it (else HTTP 501, telemetry error). */
	bool (*avail)(const struct export_hooks *h);
	/** Run it: 0, or -errno with the reason in c->msg. */
	int (*run)(struct export_ctl_ctx *c);
	const char *help; /**< one line, < 128 characters (telemetry's limit) */
};

/** The table: n rows. Thread-safe (constant). */
const struct export_ctl_cmd *export_control_table(unsigned int *n);

/** The row served at HTTP path, telemetry command or signal; NULL if none.
 *  Thread-safe; export_control_by_signal() is async-signal-safe. */
const struct export_ctl_cmd *export_control_by_http(const char *path);
/** The row a GET or HEAD of url asks: the reading row at url, or the
 *  ARG_WORDS one at PATH/PARAM (then *param points at PARAM, else NULL);
 *  NULL if none. Thread-safe. */
const struct export_ctl_cmd *export_control_by_get(const char *url, const char **param);
const struct export_ctl_cmd *export_control_by_telemetry(const char *name);
const struct export_ctl_cmd *export_control_by_signal(int sig);

/**
 * Parse raw (the transport's argument: len bytes, or NULL for none) for
 * cmd into c, then, if it is valid and the run serves cmd, run it.
 * c->s, c->hooks, c->source, c->request, c->argword and c->out are the
 * caller's. For ARG_MODE a
 * signal passes the mode's number as decimal text (raw NULL: the next
 * mode), with @p by_number.
 * @return 0 with the result line in c->msg; -EINVAL (bad argument),
 * -ENOTSUP (not served in this run) or the handler's -errno, with the one
 * line in c->msg. Thread-safe if the hooks are; a change runs the hook on
 * the calling thread.
 */
int export_control_run(const struct export_ctl_cmd *cmd, const char *raw, size_t len,
		       bool by_number, struct export_ctl_ctx *c);

/** A handler's -errno, reading or changing, as an HTTP status (telemetry's
 *  "status" of a refusal too): 400 (-EINVAL: a bad argument), 404
 *  (-ENOENT: no such group, lcore, port or device), 409 (-EPERM, -EBUSY:
 *  the run refuses the change now), 501 (-ENOTSUP: not served in this
 *  run), 503 (-EAGAIN: no snapshot yet, a stale one, no memory for a
 *  fold), 500 (any other). Thread-safe. */
unsigned int export_control_status(int rc);

/** Write the reference (lib/export/README.md, "Control commands"): one
 *  markdown table row per command. Thread-safe. */
void export_control_doc(FILE *f);

/**
 * Signals (control_signal.c). export_control_signals_install() installs
 * an SA_SIGINFO handler for every signal of the table (from a
 * .preinit_array function, before any thread exists; sigaction() only):
 * the handler records the signal, its value and sender. From the
 * application's control loop, export_control_signals_run() runs each
 * recorded command once, its result logged on one line as
 * "SIGNAME from pid N: RESULT" (INFO; a refusal WARNING). Not thread-safe:
 * one control loop calls it.
 */
void export_control_signals_install(void);
void export_control_signals_run(struct stats *s, const struct export_hooks *hooks);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_EXPORT_CONTROL_H */
