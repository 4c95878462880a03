/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPDK telemetry commands under /pktpath/ (dpdk-telemetry.py -f PREFIX).
 *
 * The telemetry library runs each client on its own thread and calls these
 * callbacks there; they read one snapshot reference each, never worker
 * memory. The 22.11 callback has no user argument, so the state is one
 * static struct behind a mutex, which export_telemetry_unregister() clears
 * (the callbacks then answer null, DPDK's convention for "no data").
 *
 * Limits: a reply is at most 16 KiB of JSON, a dict at most
 * RTE_TEL_MAX_DICT_ENTRIES (256), an array RTE_TEL_MAX_ARRAY_ENTRIES (512),
 * a string RTE_TEL_MAX_STRING_LEN (128) -- the library silently drops what
 * does not fit. So the MIB is served one group per request (the largest,
 * Icmp, has 27 fields), per-lcore figures as columns of at most
 * RTE_MAX_LCORE entries, and one lcore in detail per request. 22.11 has no
 * floating-point value type: decimals are strings ("14.523").
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
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

static pthread_mutex_t tel_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	struct stats *s;
	json_t *info;
	struct export_hooks hooks;
	bool control;			/* the control table's changing commands */
	unsigned int n_registered;	/* commands registered, once per process */
} tel;

/* A request refused (the client sees null): -EINVAL, and why in the
 * debug log, which is all dpdk-telemetry.py does not show. */
static int
__refuse(const char *cmd, const char *params, const char *why)
{
	char q[BASE_QUOTE_LEN];

	TEL_LOG(DEBUG, "%s,%s: %s", cmd, base_quote(q, sizeof(q), params), why);
	return -EINVAL;
}

static void
__dict_dbl(struct rte_tel_data *d, const char *name, const char *fmt, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, v);
	rte_tel_data_add_dict_string(d, name, buf);
}

/* Take tel_lock and the latest snapshot (read: stats_read()'s, folded now
 * with --fold-on-read); NULL (and the lock released) when detached or not
 * started: the command answers null. */
static struct stats_snapshot *
__snap_lock_how(bool read)
{
	struct stats_snapshot *snap = NULL;

	pthread_mutex_lock(&tel_lock);
	if (tel.s != NULL)
		snap = read ? stats_read(tel.s) : stats_get(tel.s);
	if (snap == NULL)
		pthread_mutex_unlock(&tel_lock);
	return snap;
}

static struct stats_snapshot *
__snap_lock(void)
{
	return __snap_lock_how(false);
}

/* __snap_lock() for a command that takes no parameter: NULL with *rc
 * -EINVAL (a parameter given) or -ENODEV (no snapshot). */
static struct stats_snapshot *
__snap_lock_noparam(const char *cmd, const char *params, int *rc)
{
	struct stats_snapshot *snap = NULL;

	if (params != NULL && params[0] != '\0')
		*rc = __refuse(cmd, params, "takes no parameter");
	else if ((snap = __snap_lock()) == NULL)
		*rc = -ENODEV;
	return snap;
}

/* Drop the snapshot of __snap_lock() and the lock. */
static void
__snap_unlock(struct stats_snapshot *snap)
{
	stats_put(tel.s, snap);
	pthread_mutex_unlock(&tel_lock);
}

/* Worker index of lcore id given as text, or -1. */
static int
__worker(const struct stats_snapshot *snap, const char *txt)
{
	char *end;
	unsigned long id;
	unsigned int w;

	if (txt == NULL || *txt < '0' || *txt > '9')
		return -1;
	id = strtoul(txt, &end, 10);
	if (*end != '\0')
		return -1;
	for (w = 0; w < snap->n_workers; w++)
		if ((snap->lcore_ids ? snap->lcore_ids[w] : w) == id)
			return (int)w;
	return -1;
}

static void
__group(struct rte_tel_data *d, enum mib_group g, const uint64_t *v)
{
	unsigned int i, f;

	for (i = 0; i < mib_group_count(g); i++) {
		f = mib_group_first(g) + i;
		/* IcmpMsg: only the non-zero types (a telemetry dict holds at
		 * most RTE_TEL_MAX_DICT_ENTRIES, and Linux prints no more). */
		if (v[f] == 0 && mib_group_sparse(g))
			continue;
		if (mib_field_kind(f) == MIB_KIND_CONST)
			rte_tel_data_add_dict_int(d, mib_field_name(f),
						  (int)(int64_t)v[f]);
		else
			rte_tel_data_add_dict_u64(d, mib_field_name(f), v[f]);
	}
}

/* /pktpath/mib[,GROUP[,LCORE]] */
static int
__cmd_mib(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct stats_snapshot *snap;
	char grp[32];
	const char *comma = params ? strchr(params, ',') : NULL;
	const uint64_t *v;
	int g, w, rc = 0;
	unsigned int i;

	if (params == NULL || params[0] == '\0') {
		rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
		for (i = 0; i < MIB_GRP_MAX; i++)
			rte_tel_data_add_array_string(d,
				mib_group_name((enum mib_group)i));
		return 0;
	}
	snprintf(grp, sizeof(grp), "%.*s",
		 (int)(comma ? (size_t)(comma - params) : strlen(params)), params);
	g = mib_group_lookup(grp);
	if (g < 0)
		return __refuse(cmd, params, "no such MIB group");
	snap = __snap_lock_how(true);	/* a MIB read: folds with --fold-on-read */
	if (snap == NULL)
		return -ENODEV;
	v = snap->totals;
	if (comma != NULL) {
		w = __worker(snap, comma + 1);
		if (w < 0) {
			rc = __refuse(cmd, params, "no worker on that lcore");
			goto put;
		}
		v = snap->per_block + (size_t)w * MIB_FIELD_MAX;
	}
	rte_tel_data_start_dict(d);
	__group(d, (enum mib_group)g, v);
put:
	__snap_unlock(snap);
	return rc;
}

/* s with its first number replaced by N, in buf. */
static const char *
__number_n(char *buf, size_t len, const char *s)
{
	size_t i = strcspn(s, "0123456789"), j = i;

	while (s[j] >= '0' && s[j] <= '9')
		j++;
	snprintf(buf, len, "%.*sN%s", (int)i, s, s + j);
	return buf;
}

/* /pktpath/mib_help[,GROUP]: the group names, or what each field of GROUP
 * counts (its help in the field table; no snapshot needed). */
static int
__cmd_mib_help(const char *cmd, const char *params, struct rte_tel_data *d)
{
	enum mib_group g;
	unsigned int f, end;

	if (params == NULL || params[0] == '\0')
		return __cmd_mib(cmd, params, d);
	if (mib_group_lookup(params) < 0)
		return -EINVAL;
	g = (enum mib_group)mib_group_lookup(params);
	rte_tel_data_start_dict(d);
	end = mib_group_first(g) + mib_group_count(g);
	for (f = mib_group_first(g); f < end; f++) {
		char key[MIB_NAME_MAX], help[MIB_HELP_MAX], k0[MIB_NAME_MAX];

		if (!mib_group_sparse(g)) {
			rte_tel_data_add_dict_string(d, mib_field_name(f),
						     mib_field_help(f));
			continue;
		}
		/* A sparse group's fields differ in their number only (IcmpMsg's
		 * InTypeN; Icmp6Msg's InTypeN, OutTypeN: more than a dict
		 * holds): one entry per name, N for the number. */
		__number_n(key, sizeof(key), mib_field_name(f));
		if (f > mib_group_first(g) &&
		    strcmp(__number_n(k0, sizeof(k0), mib_field_name(f - 1)), key) == 0)
			continue;
		rte_tel_data_add_dict_string(
			d, key, __number_n(help, sizeof(help), mib_field_help(f)));
	}
	return 0;
}

static void
__rate(struct rte_tel_data *d, const struct stats_rate *r)
{
	rte_tel_data_add_dict_u64(d, "packets", r->packets);
	rte_tel_data_add_dict_u64(d, "octets", r->octets);
	rte_tel_data_add_dict_u64(d, "busy_cycles", r->busy_cycles);
	rte_tel_data_add_dict_u64(d, "idle_cycles", r->idle_cycles);
	rte_tel_data_add_dict_u64(d, "pps", (uint64_t)(r->pps + 0.5));
	__dict_dbl(d, "seconds", "%.6f", r->seconds);
	__dict_dbl(d, "mpps", "%.6f", r->pps / 1e6);
	__dict_dbl(d, "gbps", "%.6f", r->gbps);
	__dict_dbl(d, "ns_per_pkt", "%.3f", r->ns_per_pkt);
	__dict_dbl(d, "cycles_per_pkt", "%.3f", r->cycles_per_pkt);
	__dict_dbl(d, "busy_pct", "%.2f", r->busy_pct);
}

/* /pktpath/rates */
static int
__cmd_rates(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct stats_snapshot *snap;
	int rc;

	snap = __snap_lock_noparam(cmd, params, &rc);
	if (snap == NULL)
		return rc;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "seq", snap->seq);
	__dict_dbl(d, "uptime_s", "%.3f", snap->uptime_s);
	rte_tel_data_add_dict_int(d, "workers", (int)snap->n_workers);
	__rate(d, &snap->total);
	rte_tel_data_add_dict_u64(d, "drops", mib_drops_total(snap->totals));
	rte_tel_data_add_dict_u64(d, "fold_ns", (uint64_t)snap->fold_ns);
	rte_tel_data_add_dict_u64(d, "fold_ns_mean", (uint64_t)snap->fold_ns_mean);
	rte_tel_data_add_dict_u64(d, "fold_ns_max", (uint64_t)snap->fold_ns_max);
	rte_tel_data_add_dict_u64(d, "folds", snap->folds);
	rte_tel_data_add_dict_u64(d, "read_folds", snap->read_folds);
	rte_tel_data_add_dict_int(d, "mib_lcores", (int)snap->mib_lcores);
	rte_tel_data_add_dict_u64(d, "clears", snap->clears);
	__snap_unlock(snap);
	return 0;
}

/* A column of per-worker values; the caller owns it until it is added to
 * the dict with keep = 0 (then the library frees it). */
static struct rte_tel_data *
__column(const struct stats_snapshot *snap, const char *what)
{
	struct rte_tel_data *a = rte_tel_data_alloc();
	bool is_id = strcmp(what, "lcore") == 0, is_pps = strcmp(what, "pps") == 0;
	unsigned int w;
	char buf[32];

	if (a == NULL)
		return NULL;
	rte_tel_data_start_array(a, is_id ? RTE_TEL_INT_VAL : is_pps ?
				 RTE_TEL_U64_VAL : RTE_TEL_STRING_VAL);
	for (w = 0; w < snap->n_workers && w < RTE_TEL_MAX_ARRAY_ENTRIES; w++) {
		const struct stats_rate *r = &snap->lcore[w];

		if (is_id) {
			rte_tel_data_add_array_int(a, (int)(snap->lcore_ids ?
				snap->lcore_ids[w] : w));
			continue;
		}
		if (is_pps) {
			rte_tel_data_add_array_u64(a, (uint64_t)(r->pps + 0.5));
			continue;
		}
		if (strcmp(what, "ns_per_pkt") == 0)
			snprintf(buf, sizeof(buf), "%.3f", r->ns_per_pkt);
		else if (strcmp(what, "cycles_per_pkt") == 0)
			snprintf(buf, sizeof(buf), "%.3f", r->cycles_per_pkt);
		else
			snprintf(buf, sizeof(buf), "%.2f", r->busy_pct);
		rte_tel_data_add_array_string(a, buf);
	}
	return a;
}

/* /pktpath/lcores[,LCORE] */
static int
__cmd_lcores(const char *cmd, const char *params, struct rte_tel_data *d)
{
	static const char *const cols[] = { "lcore", "pps", "ns_per_pkt",
					    "cycles_per_pkt", "busy_pct" };
	struct stats_snapshot *snap;
	unsigned int i;
	int w, rc = 0;

	snap = __snap_lock();
	if (snap == NULL)
		return -ENODEV;
	rte_tel_data_start_dict(d);
	if (params == NULL || params[0] == '\0') {
		for (i = 0; i < RTE_DIM(cols); i++) {
			struct rte_tel_data *a = __column(snap, cols[i]);

			if (a == NULL || rte_tel_data_add_dict_container(d, cols[i],
									 a, 0) != 0) {
				rte_tel_data_free(a);
				rc = -ENOMEM;
				break;
			}
		}
	} else if ((w = __worker(snap, params)) < 0) {
		rc = __refuse(cmd, params, "no worker on that lcore");
	} else {
		const uint64_t *b = snap->per_block + (size_t)w * MIB_FIELD_MAX;

		rte_tel_data_add_dict_int(d, "lcore", (int)(snap->lcore_ids ?
			snap->lcore_ids[w] : (unsigned int)w));
		rte_tel_data_add_dict_int(d, "worker", w);
		__rate(d, &snap->lcore[w]);
		rte_tel_data_add_dict_u64(d, "total_packets", b[MIB_F(RX, PACKETS)]);
		rte_tel_data_add_dict_u64(d, "total_drops", mib_drops_total(b));
	}
	__snap_unlock(snap);
	return rc;
}

/* "EVENT_suffix" into buf as a telemetry name (letters, digits, '_' and
 * '/' only: perf's '-' become '_', "task_clock_total"). */
static void
__tel_name(char *buf, size_t len, const char *event, const char *suffix)
{
	char *p;

	snprintf(buf, len, "%s_%s", event, suffix);
	for (p = buf; *p != '\0'; p++)
		if (*p == '-')
			*p = '_';
}

/* /pktpath/pmu: no parameter, each event's per-packet figure of the last
 * interval per lcore (columns, strings: "unknown" when not counted);
 * "LCORE": its events since its first poll (raw, and scaled when the PMU
 * was shared) and per packet of the last interval. Names: __tel_name(). */
static int
__cmd_pmu(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct stats_snapshot *snap = __snap_lock();
	const struct stats_pmu_conf *c;
	struct rte_tel_data *a;
	unsigned int i, w;
	char buf[64];
	int k, rc = 0;

	if (snap == NULL)
		return -ENODEV;
	c = snap->pmu;
	rte_tel_data_start_dict(d);
	if (c == NULL || snap->pmu_iv == NULL || snap->thread == NULL) {
		rte_tel_data_add_dict_string(d, "pmu", "off (no --pmu)");
	} else if (params == NULL || params[0] == '\0') {
		if ((a = __column(snap, "lcore")) == NULL ||
		    rte_tel_data_add_dict_container(d, "lcore", a, 0) != 0) {
			rte_tel_data_free(a);
			rc = -ENOMEM;
		}
		for (i = 0; rc == 0 && i < c->n; i++) {
			if ((a = rte_tel_data_alloc()) == NULL) {
				rc = -ENOMEM;
				break;
			}
			rte_tel_data_start_array(a, RTE_TEL_STRING_VAL);
			for (w = 0; w < snap->n_workers && w < RTE_TEL_MAX_ARRAY_ENTRIES; w++) {
				const struct stats_pmu_rate *r = &snap->pmu_iv[w];

				if (r->conf != NULL && r->d.known && r->packets)
					snprintf(buf, sizeof(buf), "%.4g", r->per_pkt[i]);
				else
					snprintf(buf, sizeof(buf), "unknown");
				rte_tel_data_add_array_string(a, buf);
			}
			__tel_name(buf, sizeof(buf), c->ev[i].name, "per_pkt");
			if (rte_tel_data_add_dict_container(d, buf, a, 0) != 0) {
				rte_tel_data_free(a);
				rc = -ENOMEM;
			}
		}
	} else if ((k = __worker(snap, params)) < 0) {
		rc = __refuse(cmd, params, "no worker on that lcore");
	} else {
		const struct stats_pmu_count *p = &snap->thread[k].pmu;
		const struct stats_pmu_rate *r = &snap->pmu_iv[k];

		rte_tel_data_add_dict_int(d, "lcore", (int)(snap->lcore_ids ?
			snap->lcore_ids[k] : (unsigned int)k));
		rte_tel_data_add_dict_string(d, "known", p->known ? "true" : "false");
		for (i = 0; p->known && i < c->n; i++) {
			__tel_name(buf, sizeof(buf), c->ev[i].name, "total");
			rte_tel_data_add_dict_u64(d, buf, p->v[i]);
			__tel_name(buf, sizeof(buf), c->ev[i].name, "scaled");
			__dict_dbl(d, buf, "%.0f", stats_pmu_scale(p, i));
			if (r->conf == NULL || !r->d.known || r->packets == 0)
				continue;
			__tel_name(buf, sizeof(buf), c->ev[i].name, "per_pkt");
			__dict_dbl(d, buf, "%.4g", r->per_pkt[i]);
		}
		if (p->known) {
			rte_tel_data_add_dict_u64(d, "enabled_ns", p->enabled_ns);
			rte_tel_data_add_dict_u64(d, "running_ns", p->running_ns);
		}
		if (r->conf != NULL && r->d.known && !isnan(r->ipc))
			__dict_dbl(d, "ipc", "%.3f", r->ipc);
	}
	__snap_unlock(snap);
	return rc;
}

/* A JSON scalar, or an array of strings/integers, as entry name of d. */
static void
__json_entry(struct rte_tel_data *d, const char *name, const json_t *v)
{
	char buf[RTE_TEL_MAX_STRING_LEN];
	struct rte_tel_data *a;
	size_t i;

	if (json_is_string(v)) {
		snprintf(buf, sizeof(buf), "%s", json_string_value(v));
		rte_tel_data_add_dict_string(d, name, buf);
	} else if (json_is_integer(v) && json_integer_value(v) >= 0) {
		rte_tel_data_add_dict_u64(d, name, (uint64_t)json_integer_value(v));
	} else if (json_is_integer(v)) {
		rte_tel_data_add_dict_int(d, name, (int)json_integer_value(v));
	} else if (json_is_real(v)) {
		__dict_dbl(d, name, "%g", json_real_value(v));
	} else if (json_is_boolean(v)) {
		rte_tel_data_add_dict_string(d, name, json_is_true(v) ? "true" : "false");
	} else if (json_is_array(v)) {
		bool ints = json_array_size(v) > 0 && json_is_integer(json_array_get(v, 0));

		a = rte_tel_data_alloc();
		if (a == NULL)
			return;
		rte_tel_data_start_array(a, ints ? RTE_TEL_U64_VAL : RTE_TEL_STRING_VAL);
		for (i = 0; i < json_array_size(v) && i < RTE_TEL_MAX_ARRAY_ENTRIES; i++) {
			const json_t *e = json_array_get(v, i);

			if (ints) {
				rte_tel_data_add_array_u64(a, (uint64_t)json_integer_value(e));
			} else {
				snprintf(buf, sizeof(buf), "%s", json_is_string(e) ?
					 json_string_value(e) : "?");
				rte_tel_data_add_array_string(a, buf);
			}
		}
		if (rte_tel_data_add_dict_container(d, name, a, 0) != 0)
			rte_tel_data_free(a);
	}
	/* nested objects and null: left out (flattened by the caller) */
}

/* The members of an object; "config"-like sub-objects flattened with
 * a "name_" prefix (the run info's "config" without one). */
static void
__flatten(struct rte_tel_data *d, const json_t *o, const char *prefix)
{
	const char *key;
	json_t *v;
	char name[RTE_TEL_MAX_STRING_LEN];

	json_object_foreach((json_t *)(uintptr_t)o, key, v) {
		if (json_is_object(v)) {
			if (prefix[0] == '\0')
				__flatten(d, v, strcmp(key, "config") == 0 ? "" : key);
			continue;
		}
		snprintf(name, sizeof(name), "%s%s%s", prefix, prefix[0] ? "_" : "",
			 key);
		__json_entry(d, name, v);
	}
}

static json_t *
__ingress_state(void)
{
	return tel.hooks.ingress_state ? tel.hooks.ingress_state(tel.hooks.arg) :
		NULL;
}

/* /pktpath/ingress */
static int
__cmd_ingress(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct stats_snapshot *snap;
	json_t *st;
	int rc;

	snap = __snap_lock_noparam(cmd, params, &rc);
	if (snap == NULL)
		return rc;
	rte_tel_data_start_dict(d);
	st = __ingress_state();
	if (st != NULL)
		__flatten(d, st, "");
	else
		rte_tel_data_add_dict_string(d, "mode", "off");
	json_decref(st);
	__group(d, MIB_GRP_INGRESS, snap->totals);
	__snap_unlock(snap);
	return 0;
}

/* /pktpath/config */
static int
__cmd_config(const char *cmd, const char *params, struct rte_tel_data *d)
{
	json_t *st;

	if (params != NULL && params[0] != '\0')
		return __refuse(cmd, params, "takes no parameter");
	pthread_mutex_lock(&tel_lock);
	if (tel.s == NULL) {
		pthread_mutex_unlock(&tel_lock);
		return -ENODEV;
	}
	rte_tel_data_start_dict(d);
	if (tel.info != NULL)
		__flatten(d, tel.info, "");
	st = __ingress_state();
	if (st != NULL) {
		const json_t *m = json_object_get(st, "mode");
		const json_t *ms = json_object_get(st, "modes");

		if (m != NULL)
			__json_entry(d, "ingress_mode", m);
		if (ms != NULL)
			__json_entry(d, "ingress_modes", ms);
	}
	json_decref(st);
	pthread_mutex_unlock(&tel_lock);
	return 0;
}

/* A column of one per-queue counter of port p. */
static struct rte_tel_data *
__qcolumn(const struct stats_port *p, unsigned int f)
{
	struct rte_tel_data *a = rte_tel_data_alloc();
	unsigned int q;

	if (a == NULL)
		return NULL;
	rte_tel_data_start_array(a, RTE_TEL_U64_VAL);
	for (q = 0; q < p->nb_rxq; q++)
		rte_tel_data_add_array_u64(a, p->q[q][f]);
	return a;
}

/* /pktpath/ports[,PORT] */
static int
__cmd_ports(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct stats_snapshot *snap;
	const struct stats_port *p = NULL;
	unsigned int i, f;
	int rc = 0;

	snap = __snap_lock();
	if (snap == NULL)
		return -ENODEV;
	if (params == NULL || params[0] == '\0') {
		rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
		for (i = 0; i < snap->n_ports; i++)
			rte_tel_data_add_array_int(d, snap->ports[i].port_id);
		goto put;
	}
	for (i = 0; i < snap->n_ports; i++) {
		char id[8];

		snprintf(id, sizeof(id), "%u", snap->ports[i].port_id);
		if (strcmp(id, params) == 0)
			p = &snap->ports[i];
	}
	if (p == NULL) {
		rc = __refuse(cmd, params, "no such port sampled");
		goto put;
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", p->port_id);
	rte_tel_data_add_dict_string(d, "driver", p->driver);
	rte_tel_data_add_dict_string(d, "name", p->name);
	rte_tel_data_add_dict_string(d, "iface", p->iface);
	for (f = 0; f < STATS_PORT_F_MAX; f++)
		if (p->kernel != NULL || (f != STATS_PORT_KERNEL_PACKETS &&
					  f != STATS_PORT_KERNEL_DROPS))
			rte_tel_data_add_dict_u64(d, stats_port_field_name(f), p->v[f]);
	rte_tel_data_add_dict_u64(d, "dropped", stats_port_dropped(p->v));
	rte_tel_data_add_dict_u64(d, "rx_packets", p->rx_packets_v);
	if (p->kernel != NULL) {
		char k[RTE_TEL_MAX_STRING_LEN];

		snprintf(k, sizeof(k), "%s", p->kernel);
		rte_tel_data_add_dict_string(d, "kernel", k);
	}
	for (f = 0; f < STATS_PORT_Q_MAX; f++) {
		struct rte_tel_data *a = __qcolumn(p, f);

		if (a == NULL || rte_tel_data_add_dict_container(d,
				stats_port_qfield_name(f), a, 0) != 0) {
			rte_tel_data_free(a);
			rc = -ENOMEM;
			break;
		}
	}
put:
	__snap_unlock(snap);
	return rc;
}

static void
__out_str(void *arg, const char *key, const char *v)
{
	rte_tel_data_add_dict_string(arg, key, v);
}

static void
__out_u64(void *arg, const char *key, uint64_t v)
{
	rte_tel_data_add_dict_u64(arg, key, v);
}

/* The control table's commands (control.c), parameter the argument: a dict
 * {"result": LINE, named values...}, or {"error": LINE, "status": the HTTP
 * status the same refusal gets}; changing commands only with
 * export_telemetry_control(). */
static int
__cmd_control(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct export_ctl_cmd *t = export_control_by_telemetry(cmd);
	const struct export_ctl_writer w = { __out_str, __out_u64, d };
	struct export_ctl_ctx c;
	unsigned int status;
	char src[80];
	int rc;

	if (t == NULL)
		return -EINVAL;
	pthread_mutex_lock(&tel_lock);
	if (tel.s == NULL) {
		pthread_mutex_unlock(&tel_lock);
		return -ENODEV;
	}
	snprintf(src, sizeof(src), "telemetry %s", cmd);
	memset(&c, 0, sizeof(c));
	c.s = tel.s;
	c.hooks = &tel.hooks;
	c.source = src;
	c.request = cmd;
	c.argword = "parameter";
	c.out = &w;
	rte_tel_data_start_dict(d);
	if (t->change && !tel.control) {
		snprintf(c.msg, sizeof(c.msg),
			 "control is disabled (start pktpath "
			 "with --http-control)");
		rc = -EPERM;
		status = 403;
	} else {
		rc = export_control_run(t, params, params != NULL ? strlen(params) : 0,
					false, &c);
		status = rc == 0 ? 200 : export_control_status(rc);
	}
	TEL_LOG(INFO, "%s: %s", src, c.msg);
	if (rc != 0) {
		rte_tel_data_start_dict(d); /* nothing but the refusal */
		rte_tel_data_add_dict_string(d, "error", c.msg);
		rte_tel_data_add_dict_int(d, "status", (int)status);
	} else {
		rte_tel_data_add_dict_string(d, "result", c.msg);
	}
	pthread_mutex_unlock(&tel_lock);
	return 0;
}

static const struct {
	const char *cmd;
	telemetry_cb fn;
	const char *help;
} cmds[] = {
	{ "/pktpath/mib", __cmd_mib, "MIB groups; param GROUP[,LCORE]: its totals" },
	{ "/pktpath/mib_help", __cmd_mib_help, "MIB groups; param GROUP: what each field counts" },
	{ "/pktpath/rates", __cmd_rates, "Total rates of the last interval, fold" },
	{ "/pktpath/lcores", __cmd_lcores, "Per-lcore rates; param LCORE: one lcore" },
	{ "/pktpath/ingress", __cmd_ingress, "Ingress mode and counters" },
	{ "/pktpath/config", __cmd_config, "Run configuration and build info" },
	{ "/pktpath/pmu", __cmd_pmu, "--pmu: events per packet per lcore; param LCORE: its counts" },
	{ "/pktpath/ports", __cmd_ports, "Ports sampled; param PORT: its counters since the last clear (DPDK names)" },
};

int
export_telemetry_register(struct stats *s, const json_t *info,
			  const struct export_hooks *hooks)
{
	const struct export_ctl_cmd *ctl;
	const char *name = NULL, *failed = "?";
	unsigned int i, n_ctl;
	json_t *copy = NULL;
	int rc = 0;

	if (s == NULL)
		return -EINVAL;
	if (info != NULL && (copy = json_deep_copy(info)) == NULL)
		return -ENOMEM;
	ctl = export_control_table(&n_ctl);
	pthread_mutex_lock(&tel_lock);
	/* ours, then the control table's rows that telemetry serves */
	for (i = tel.n_registered; i < RTE_DIM(cmds) + n_ctl && rc == 0; i++) {
		if (i < RTE_DIM(cmds))
			rc = rte_telemetry_register_cmd(cmds[i].cmd, cmds[i].fn,
							cmds[i].help);
		else if ((name = ctl[i - RTE_DIM(cmds)].telemetry) != NULL)
			rc = rte_telemetry_register_cmd(name, __cmd_control,
							ctl[i - RTE_DIM(cmds)].help);
		if (rc == 0)
			tel.n_registered = i + 1;
		else
			failed = i < RTE_DIM(cmds) ? cmds[i].cmd : name;
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
	pthread_mutex_unlock(&tel_lock);
	return rc;
}

void
export_telemetry_unregister(void)
{
	pthread_mutex_lock(&tel_lock);
	tel.s = NULL;
	json_decref(tel.info);
	tel.info = NULL;
	memset(&tel.hooks, 0, sizeof(tel.hooks));
	tel.control = false;
	pthread_mutex_unlock(&tel_lock);
}

void
export_telemetry_control(bool on)
{
	pthread_mutex_lock(&tel_lock);
	tel.control = on;
	pthread_mutex_unlock(&tel_lock);
}
