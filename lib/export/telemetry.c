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
 * limits of a reply (control_read.c) are the handlers' to respect: the
 * library silently drops what does not fit.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
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

/* The writer's adapter: named values into the dict d, or the list being
 * filled (d itself when the result is a list). */
struct tel_out {
	struct rte_tel_data *d, *list;
	char key[RTE_TEL_MAX_STRING_LEN];
};

static void
__out_str(void *arg, const char *key, const char *v)
{
	struct tel_out *o = arg;

	if (o->list != NULL)
		rte_tel_data_add_array_string(o->list, v);
	else
		rte_tel_data_add_dict_string(o->d, key, v);
}

static void
__out_u64(void *arg, const char *key, uint64_t v)
{
	struct tel_out *o = arg;

	if (o->list != NULL)
		rte_tel_data_add_array_u64(o->list, v);
	else
		rte_tel_data_add_dict_u64(o->d, key, v);
}

static void
__out_i64(void *arg, const char *key, int64_t v)
{
	struct tel_out *o = arg;

	if (o->list != NULL)
		rte_tel_data_add_array_int(o->list, (int)v);
	else
		rte_tel_data_add_dict_int(o->d, key, (int)v);
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
	rte_tel_data_start_array(o->list, type[t]);
	snprintf(o->key, sizeof(o->key), "%s", key != NULL ? key : "");
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
		return -ENOMEM;
	}
	return 0;
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
		rte_tel_data_add_dict_string(d, "error", x.c.msg);
		rte_tel_data_add_dict_int(d, "status", (int)status);
	} else if (x.t->change) {
		rte_tel_data_add_dict_string(d, "result", x.c.msg);
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
