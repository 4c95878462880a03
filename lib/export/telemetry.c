/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPDK telemetry commands under /pktpath/ (dpdk-telemetry.py -f PREFIX):
 * the control table's rows that name one (control.c), reading ones
 * (/pktpath/rates, /pktpath/mib, ...) and changing ones
 * (/pktpath/ingress_mode, ...), their named values written into the
 * reply's dict through a writer adapter.
 *
 * The telemetry library runs each client on its own thread and calls these
 * callbacks there; the handlers read one snapshot reference each, never
 * worker memory. The 22.11 callback has no user argument, so the state is
 * one static struct behind a readers-writer lock (clients share it),
 * which export_telemetry_unregister() clears (the callbacks then answer
 * null, DPDK's convention for "no data", but the rows that need no run,
 * no_run: the MIB's groups and field help). Every refusal, of a reading
 * or a changing command, is {"error": LINE, "status": N}: the line and
 * the HTTP status the same request gets over HTTP (a reading command's
 * also in the debug log, --log-level=pktpath.telemetry:debug). The
 * library cuts and drops what does not fit its limits silently: the
 * writer's adapter below keeps every value within them, or says it left
 * one out (lib/export/README.md, "Values telemetry cannot carry").
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_telemetry.h>

#include "base.h"
#include "export_control.h"
#include "export_pvt.h"

/* The log type pktpath.telemetry (--log-level=pktpath.telemetry:debug). */
RTE_LOG_REGISTER(export_telemetry_logtype, pktpath.telemetry, INFO);
#define TEL_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, export_telemetry_logtype, \
		"pktpath: telemetry: " fmt "\n", ##__VA_ARGS__)

/*
 * The state the commands serve, and tel_lock, a readers-writer lock over
 * it. Every command (each client on its own thread) holds the read side
 * while it runs, so clients run side by side: what a command reads
 * through the state is safe to read concurrently (the stats object's
 * snapshots are references, stats_read() folds into a buffer of its own,
 * info is this file's copy that nothing changes while registered and
 * that the handlers only read, the hooks are thread-safe by contract,
 * and changes serialise in the hooks). The write side is registration's,
 * unregistration's and export_telemetry_control()'s: it orders a change
 * of the state after every command that read the old one (so
 * unregistering returns once none uses tel.s or tel.info any more) and
 * before every command that follows. glibc's writer-preferring kind: a
 * stream of clients does not starve the teardown (so no command takes
 * the read side twice).
 */
static pthread_rwlock_t tel_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
static struct {
	struct stats *s;
	json_t *info;
	struct export_hooks hooks;
	bool control;			/* the control table's changing commands */
	unsigned int n_registered;	/* table rows registered, once per process */
} tel;

/*
 * The writer's adapter: named values into the dict d, or the list being
 * filled (d itself when the result is a list), within what DPDK 22.11's
 * telemetry can carry, and never a value that is not the value:
 *  - a string holds at most RTE_TEL_MAX_STRING_LEN - 1 bytes (the library
 *    cuts it silently): a longer named string is a list of its pieces,
 *    in order, each at most that long and cut between UTF-8 characters
 *    (joined, they are the value); a longer list element, which cannot
 *    be a list, is its beginning followed by "[+N bytes]", the bytes cut;
 *  - an integer is 32 bits: a signed value beyond that is a u64 when
 *    positive, its decimal string when negative;
 *  - a reply is at most TEL_REPLY_MAX bytes of JSON, a dict 256 entries,
 *    a list 512 (the library drops what does not fit, silently): what
 *    would not fit is left out and counted, and the reply then says so
 *    in "left_out" (tel_left_out()).
 */
#define TEL_REPLY_MAX 16384 /* MAX_OUTPUT_LEN of lib/telemetry, 22.11 */
#define TEL_STR_MAX   (RTE_TEL_MAX_STRING_LEN - 1)
struct tel_out {
	struct rte_tel_data *d, *list;
	char key[RTE_TEL_MAX_STRING_LEN];
	size_t used, room;     /* JSON bytes: an upper bound so far; the budget */
	unsigned int left_out; /* values that did not fit */
	bool top_list;	       /* the reply is a list, not a dict */
	bool list_cut;	       /* the list being filled left one out */
};

/* An upper bound of the JSON bytes of the string s, quoted: what DPDK's
 * writer escapes (" and \ as two bytes, control characters as six). */
static size_t
__json_len(const char *s)
{
	size_t n = 2;

	for (; *s != '\0'; s++)
		n += *s == '"' || *s == '\\' ? 2 : (unsigned char)*s < 0x20 ? 6 : 1;
	return n;
}

/* Whether n more JSON bytes fit: counted if they do, left out if not.
 * A list keeps its order: once one element is left out, so is every
 * one after it (the list is the first elements, never a gap). */
/* One value left out (of the list being filled: and every one after). */
static void
__left(struct tel_out *o)
{
	o->left_out++;
	o->list_cut = o->list != NULL;
}

static bool
__fits(struct tel_out *o, size_t n)
{
	if (o->used + n > o->room || (o->list != NULL && o->list_cut)) {
		o->left_out++;
		o->list_cut = o->list != NULL;
		return false;
	}
	o->used += n;
	return true;
}

/* The JSON bytes of an entry's name in the dict ("key": ,), 0 in a list. */
static size_t
__key_len(const struct tel_out *o, const char *key)
{
	return o->list != NULL ? 1 : __json_len(key) + 2;
}

/*
 * A string as telemetry can carry it. DPDK 22.11's writer escapes only
 * " \ and \t \n \r: it drops every other control character and, reading
 * a byte above 0x7f as a negative index, writes garbage for it, invalid
 * JSON that fails the whole reply (any non-ASCII character). So each
 * such character is written as the text \u{X} (its code point in hex:
 * "\u{e9}" for U+00E9), a byte that is not part of UTF-8 as \x{XX}; the
 * HTTP twin has the string as it is. The encoded text is built in units
 * (a character, or one escape) so that a cut never splits one.
 */
struct tel_str {
	char *t; /* the encoded text, NUL-terminated */
	size_t len;
	size_t *unit; /* unit[i]: where unit i begins; unit[n]: len */
	size_t n;
};

/* v encoded into e (malloc'd: __tel_str_free()); 0 or -ENOMEM. */
static int
__tel_str(struct tel_str *e, const char *v)
{
	const unsigned char *s = (const unsigned char *)v;
	size_t len = strlen(v), i = 0, k;
	uint32_t cp;

	/* at most 12 bytes ("\u{10ffff}") a byte, one unit a byte */
	e->t = malloc(len * 12 + 1);
	e->unit = malloc((len + 1) * sizeof(*e->unit));
	e->len = e->n = 0;
	if (e->t == NULL || e->unit == NULL) {
		free(e->t);
		free(e->unit);
		return -ENOMEM;
	}
	while (i < len) {
		e->unit[e->n++] = e->len;
		if (s[i] >= 0x20 && s[i] < 0x7f) {
			e->t[e->len++] = (char)s[i++];
		} else if (s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			e->t[e->len++] = (char)s[i++];
		} else if (s[i] >= 0x80 &&
			   (k = __export_utf8_char(s + i, len - i, &cp)) > 0) {
			e->len += (size_t)sprintf(e->t + e->len, "\\u{%" PRIx32 "}", cp);
			i += k;
		} else if (s[i] < 0x80) { /* a control character, DEL */
			e->len += (size_t)sprintf(e->t + e->len, "\\u{%x}", s[i++]);
		} else {
			e->len += (size_t)sprintf(e->t + e->len, "\\x{%02x}", s[i++]);
		}
	}
	e->unit[e->n] = e->len;
	e->t[e->len] = '\0';
	return 0;
}

static void
__tel_str_free(struct tel_str *e)
{
	free(e->t);
	free(e->unit);
}

/* The most units of e from unit u whose text is at most max bytes. */
static size_t
__tel_units(const struct tel_str *e, size_t u, size_t max)
{
	size_t k = u;

	while (k < e->n && e->unit[k + 1] - e->unit[u] <= max)
		k++;
	return k - u;
}

static void
__out_str(void *arg, const char *key, const char *v)
{
	struct tel_out *o = arg;
	char buf[RTE_TEL_MAX_STRING_LEN], mark[32];
	struct rte_tel_data *a = NULL;
	struct tel_str e;
	size_t u, k, n;

	if (__tel_str(&e, v) != 0) {
		__left(o);
		return;
	}
	if (e.len <= TEL_STR_MAX) {
		if (__fits(o, __key_len(o, key) + __json_len(e.t)) &&
		    (o->list != NULL ? rte_tel_data_add_array_string(o->list, e.t)
				     : rte_tel_data_add_dict_string(o->d, key, e.t)) != 0)
			__left(o);
	} else if (o->list != NULL) { /* a list element: visibly cut */
		snprintf(mark, sizeof(mark), "[+%zu bytes]", e.len);
		k = __tel_units(&e, 0, TEL_STR_MAX - strlen(mark));
		n = e.unit[k];
		snprintf(buf, sizeof(buf), "%.*s[+%zu bytes]", (int)n, e.t, e.len - n);
		if (__fits(o, 1 + __json_len(buf)) &&
		    rte_tel_data_add_array_string(o->list, buf) != 0)
			__left(o);
	} else if (!__fits(o, __json_len(key) + 2 + __json_len(e.t) +
				      3 * (e.len / (TEL_STR_MAX - 12) + 1))) {
		/* counted */
	} else if ((a = rte_tel_data_alloc()) == NULL) {
		__left(o);
	} else { /* a named string: the list of its pieces */
		rte_tel_data_start_array(a, RTE_TEL_STRING_VAL);
		for (u = 0; u < e.n; u += k) {
			k = __tel_units(&e, u, TEL_STR_MAX);
			n = e.unit[u + k] - e.unit[u];
			snprintf(buf, sizeof(buf), "%.*s", (int)n, e.t + e.unit[u]);
			if (rte_tel_data_add_array_string(a, buf) != 0)
				break;
		}
		/* keep 0: the dict frees it */
		if (u < e.n || rte_tel_data_add_dict_container(o->d, key, a, 0) != 0) {
			rte_tel_data_free(a);
			__left(o);
		}
	}
	__tel_str_free(&e);
}

static void
__out_u64(void *arg, const char *key, uint64_t v)
{
	struct tel_out *o = arg;

	if (!__fits(o, __key_len(o, key) + 20))
		return;
	if ((o->list != NULL ? rte_tel_data_add_array_u64(o->list, v)
			     : rte_tel_data_add_dict_u64(o->d, key, v)) != 0)
		__left(o);
}

static void
__out_i64(void *arg, const char *key, int64_t v)
{
	struct tel_out *o = arg;
	char buf[24];
	int rc;

	if (v > INT_MAX && o->list == NULL) {
		__out_u64(arg, key, (uint64_t)v);
		return;
	}
	if (v < INT_MIN && o->list == NULL) {
		snprintf(buf, sizeof(buf), "%" PRId64, v);
		__out_str(arg, key, buf);
		return;
	}
	if (!__fits(o, __key_len(o, key) + 11))
		return;
	if (v < INT_MIN || v > INT_MAX) /* a list of ints: no other kind fits */
		rc = -ERANGE;
	else if (o->list != NULL)
		rc = rte_tel_data_add_array_int(o->list, (int)v);
	else
		rc = rte_tel_data_add_dict_int(o->d, key, (int)v);
	if (rc != 0)
		__left(o);
}

static int
__out_list(void *arg, const char *key, enum export_ctl_type t)
{
	static const enum rte_tel_value_type type[] = {
		[EXPORT_CTL_STR] = RTE_TEL_STRING_VAL,
		[EXPORT_CTL_U64] = RTE_TEL_U64_VAL,
		[EXPORT_CTL_INT] = RTE_TEL_INT_VAL,
	};
	struct tel_out *o = arg;

	o->list = key == NULL ? o->d : rte_tel_data_alloc();
	if (o->list == NULL)
		return -ENOMEM;
	o->top_list |= key == NULL;
	o->list_cut = false;
	rte_tel_data_start_array(o->list, type[t]);
	snprintf(o->key, sizeof(o->key), "%s", key != NULL ? key : "");
	o->used += key != NULL ? __json_len(key) + 4 : 2;
	return 0;
}

static int
__out_end(void *arg)
{
	struct tel_out *o = arg;
	struct rte_tel_data *a = o->list;

	o->list = NULL;
	if (a == NULL || a == o->d)
		return 0;
	/* keep 0: the dict frees it */
	if (rte_tel_data_add_dict_container(o->d, o->key, a, 0) != 0) {
		rte_tel_data_free(a);
		__left(o);
		return -ENOMEM;
	}
	return 0;
}

/* The room kept out of a reply's budget for what __cmd() adds last: a
 * changing command's result line (export_ctl_ctx.msg, in pieces) and
 * "left_out". */
#define TEL_RESERVE 800

/* A dict reply's last entries, in the room kept for them: the result line
 * of a changing command (NULL: none) and, when values were left out,
 * how many. A list reply has no room for a note: its values are ids and
 * group names, far within the limits. */
static void
__out_last(struct tel_out *o, const char *result)
{
	char buf[RTE_TEL_MAX_STRING_LEN];
	unsigned int n = o->left_out;

	if (o->top_list)
		return;
	o->room = SIZE_MAX;
	if (result != NULL)
		__out_str(o, "result", result);
	if (n == 0)
		return;
	snprintf(buf, sizeof(buf),
		 "%u values over telemetry's limits (16 KiB a reply, 256 a dict, "
		 "512 a list): the HTTP twin has them",
		 n);
	rte_tel_data_add_dict_string(o->d, "left_out", buf);
}

/* A command run for telemetry: its row, the writer's adapter into the
 * reply's dict, the context. */
struct tel_run {
	const struct export_ctl_cmd *t;
	struct tel_out o;
	struct export_ctl_writer w;
	struct export_ctl_ctx c;
	char src[80];
};

/* Start running cmd into d: 0 with tel_lock's read side held (the
 * caller's to release), -EINVAL (no such command) or -ENODEV
 * (unregistered, and the row needs a run: null), not held. */
static int
__run_begin(struct tel_run *x, const char *cmd, struct rte_tel_data *d)
{
	x->t = export_control_by_telemetry(cmd);
	if (x->t == NULL)
		return -EINVAL;
	pthread_rwlock_rdlock(&tel_lock);
	if (tel.s == NULL && !x->t->no_run) {
		pthread_rwlock_unlock(&tel_lock);
		return -ENODEV;
	}
	x->o = (struct tel_out){ .d = d };
	x->w = (struct export_ctl_writer){ .str = __out_str,
					   .u64 = __out_u64,
					   .i64 = __out_i64,
					   .list = __out_list,
					   .end = __out_end,
					   .arg = &x->o };
	snprintf(x->src, sizeof(x->src), "telemetry %s", cmd);
	memset(&x->c, 0, sizeof(x->c));
	x->c.s = tel.s;
	x->c.hooks = &tel.hooks;
	x->c.source = x->src;
	x->c.request = cmd;
	x->c.argword = "parameter";
	x->c.out = &x->w;
	x->c.info = tel.info;
	x->c.control = tel.control;
	rte_tel_data_start_dict(d);
	return 0;
}

/* Every command of the control table (control.c), parameter the
 * argument: a reading command's dict (or list) of named values, a
 * changing command's {"result": LINE, named values...}; a refusal of
 * either, {"error": LINE, "status": the HTTP status the same refusal
 * gets}; changing commands only with export_telemetry_control() (403).
 * Unregistered: null. */
static int
__cmd(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char q[BASE_QUOTE_LEN];
	unsigned int status;
	struct tel_run x;
	int rc;

	rc = __run_begin(&x, cmd, d);
	if (rc != 0)
		return rc;
	/* the reply: {"CMD,PARAMS": VALUE} */
	x.o.room = TEL_REPLY_MAX - TEL_RESERVE - __json_len(cmd) -
		   (params != NULL ? __json_len(params) : 0) - 8;
	if (x.t->change && !x.c.control) {
		snprintf(x.c.msg, sizeof(x.c.msg),
			 "control is disabled (start pktpath "
			 "with --http-control)");
		rc = -EPERM;
		status = 403;
	} else {
		rc = export_control_run(x.t, params, params != NULL ? strlen(params) : 0,
					false, &x.c);
		status = export_control_status(rc);
	}
	pthread_rwlock_unlock(&tel_lock);
	if (rc == -ENODEV)
		return rc; /* no run any more: null, "no data" */
	if (x.t->change)
		TEL_LOG(INFO, "%s: %s", x.src, x.c.msg);
	else if (rc != 0)
		TEL_LOG(DEBUG, "%s,%s: %s", cmd,
			base_quote(q, sizeof(q), params != NULL ? params : ""), x.c.msg);
	if (rc != 0) {
		rte_tel_data_start_dict(d); /* nothing but the refusal */
		x.o = (struct tel_out){ .d = d, .room = SIZE_MAX };
		__out_str(&x.o, "error", x.c.msg);
		rte_tel_data_add_dict_int(d, "status", (int)status);
	} else {
		__out_last(&x.o, x.t->change ? x.c.msg : NULL);
	}
	return 0;
}

int
export_telemetry_register(struct stats *s, const json_t *info,
			  const struct export_hooks *hooks)
{
	const struct export_ctl_cmd *ctl;
	const char *failed = "?";
	unsigned int i, n_ctl;
	json_t *copy = NULL;
	int rc = 0;

	if (s == NULL)
		return -EINVAL;
	if (info != NULL && (copy = json_deep_copy(info)) == NULL)
		return -ENOMEM;
	ctl = export_control_table(&n_ctl);
	pthread_rwlock_wrlock(&tel_lock);
	/* the control table's rows that telemetry serves, once per process */
	for (i = tel.n_registered; i < n_ctl && rc == 0; i++) {
		if (ctl[i].telemetry != NULL)
			rc = rte_telemetry_register_cmd(ctl[i].telemetry, __cmd,
							ctl[i].help);
		if (rc == 0)
			tel.n_registered = i + 1;
		else
			failed = ctl[i].telemetry;
	}
	if (rc == 0) {
		TEL_LOG(DEBUG, "%u commands under /pktpath/ serve %s", tel.n_registered,
			tel.s == NULL ? "this run" : "new state");
		json_decref(tel.info);
		tel.s = s;
		tel.info = copy;
		memset(&tel.hooks, 0, sizeof(tel.hooks));
		if (hooks != NULL)
			tel.hooks = *hooks;
	} else {
		TEL_LOG(DEBUG, "%s: %s", failed, strerror(-rc));
		json_decref(copy);
	}
	pthread_rwlock_unlock(&tel_lock);
	return rc;
}

void
export_telemetry_unregister(void)
{
	pthread_rwlock_wrlock(&tel_lock);
	tel.s = NULL;
	json_decref(tel.info);
	tel.info = NULL;
	memset(&tel.hooks, 0, sizeof(tel.hooks));
	tel.control = false;
	pthread_rwlock_unlock(&tel_lock);
}

void
export_telemetry_control(bool on)
{
	pthread_rwlock_wrlock(&tel_lock);
	tel.control = on;
	pthread_rwlock_unlock(&tel_lock);
}
