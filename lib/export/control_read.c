/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control table's reading commands that answer named values
 * (export_control.h): the MIB by group, the rates, the lcores, --pmu, the
 * ingress, the run's configuration, the ports and the run's history in
 * columns. Each writes through the
 * writer: telemetry makes a dict of it (/pktpath/rates), HTTP a JSON
 * document (GET /rates), with the same values.
 *
 * Written for telemetry's limits (DPDK 22.11): a dict holds at most
 * RTE_TEL_MAX_DICT_ENTRIES (256) members, a list RTE_TEL_MAX_ARRAY_ENTRIES
 * (512) values, a string RTE_TEL_MAX_STRING_LEN (128) bytes, a reply 16 KiB
 * of JSON, and there is no floating-point type. So the MIB is served one
 * group per request (the largest, Icmp, has 27 fields), per-lcore figures
 * as lists, one lcore in detail per request, and decimals as strings
 * ("14.523"). Each handler reads one snapshot reference, never worker
 * memory; thread-safe.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_telemetry.h>

#include "base.h"
#include "control_pvt.h"
#include "stats_series.h"

/* A parameter refused: -errno, why in c->msg. */
static int
__rd_bad(struct export_ctl_ctx *c, int rc, const char *why)
{
	char q[BASE_QUOTE_LEN];

	snprintf(c->msg, sizeof(c->msg), "%s '%s': %s", c->request,
		 base_quote(q, sizeof(q), c->text != NULL ? c->text : ""), why);
	return rc;
}

static void
__rd_dbl(const struct export_ctl_ctx *c, const char *name, const char *fmt, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, v);
	__ctl_str(c, name, buf);
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
__group(const struct export_ctl_ctx *c, enum mib_group g, const uint64_t *v)
{
	unsigned int i, f;

	for (i = 0; i < mib_group_count(g); i++) {
		f = mib_group_first(g) + i;
		/* IcmpMsg: only the non-zero types (a telemetry dict holds at
		 * most RTE_TEL_MAX_DICT_ENTRIES, and Linux prints no more). */
		if (v[f] == 0 && mib_group_sparse(g))
			continue;
		if (mib_field_kind(f) == MIB_KIND_CONST)
			__ctl_i64(c, mib_field_name(f), (int)(int64_t)v[f]);
		else
			__ctl_u64(c, mib_field_name(f), v[f]);
	}
}

/* The MIB's group names, a list. */
static int
__groups(struct export_ctl_ctx *c)
{
	unsigned int i;
	int rc = __ctl_list(c, NULL, EXPORT_CTL_STR);

	for (i = 0; rc == 0 && i < MIB_GRP_MAX; i++)
		__ctl_str(c, NULL, mib_group_name((enum mib_group)i));
	return rc == 0 ? __ctl_end(c) : rc;
}

/* mib[,GROUP[,LCORE]] */
int
__ctl_read_mib(struct export_ctl_ctx *c)
{
	const char *comma = c->text ? strchr(c->text, ',') : NULL;
	struct stats_snapshot *snap;
	const uint64_t *v;
	char grp[32];
	int g, w, rc = 0;

	if (c->text == NULL)
		return __groups(c);
	snprintf(grp, sizeof(grp), "%.*s",
		 (int)(comma ? (size_t)(comma - c->text) : c->len), c->text);
	g = mib_group_lookup(grp);
	if (g < 0)
		return __rd_bad(c, -ENOENT, "no such MIB group");
	snap = __ctl_snap(c, true, &rc); /* a MIB read: folds with --fold-on-read */
	if (snap == NULL)
		return rc;
	v = snap->totals;
	if (comma != NULL) {
		w = __worker(snap, comma + 1);
		if (w < 0) {
			rc = __rd_bad(c, -ENOENT, "no worker on that lcore");
			goto put;
		}
		v = snap->per_block + (size_t)w * MIB_FIELD_MAX;
	}
	__group(c, (enum mib_group)g, v);
put:
	stats_put(c->s, snap);
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

/* mib_help[,GROUP]: the group names, or what each field of GROUP counts
 * (its help in the field table; no snapshot needed). */
int
__ctl_read_mib_help(struct export_ctl_ctx *c)
{
	enum mib_group g;
	unsigned int f, end;

	if (c->text == NULL)
		return __groups(c);
	if (mib_group_lookup(c->text) < 0)
		return __rd_bad(c, -ENOENT, "no such MIB group");
	g = (enum mib_group)mib_group_lookup(c->text);
	end = mib_group_first(g) + mib_group_count(g);
	for (f = mib_group_first(g); f < end; f++) {
		char key[MIB_NAME_MAX], help[MIB_HELP_MAX], k0[MIB_NAME_MAX];

		if (!mib_group_sparse(g)) {
			__ctl_str(c, mib_field_name(f), mib_field_help(f));
			continue;
		}
		/* A sparse group's fields differ in their number only (IcmpMsg's
		 * InTypeN; Icmp6Msg's InTypeN, OutTypeN: more than a dict
		 * holds): one entry per name, N for the number. */
		__number_n(key, sizeof(key), mib_field_name(f));
		if (f > mib_group_first(g) &&
		    strcmp(__number_n(k0, sizeof(k0), mib_field_name(f - 1)), key) == 0)
			continue;
		__ctl_str(c, key, __number_n(help, sizeof(help), mib_field_help(f)));
	}
	return 0;
}

static void
__rate(const struct export_ctl_ctx *c, const struct stats_rate *r)
{
	__ctl_u64(c, "packets", r->packets);
	__ctl_u64(c, "octets", r->octets);
	__ctl_u64(c, "busy_cycles", r->busy_cycles);
	__ctl_u64(c, "idle_cycles", r->idle_cycles);
	__ctl_u64(c, "pps", (uint64_t)(r->pps + 0.5));
	__rd_dbl(c, "seconds", "%.6f", r->seconds);
	__rd_dbl(c, "mpps", "%.6f", r->pps / 1e6);
	__rd_dbl(c, "gbps", "%.6f", r->gbps);
	__rd_dbl(c, "ns_per_pkt", "%.3f", r->ns_per_pkt);
	__rd_dbl(c, "cycles_per_pkt", "%.3f", r->cycles_per_pkt);
	__rd_dbl(c, "busy_pct", "%.2f", r->busy_pct);
}

/* rates */
int
__ctl_read_rates(struct export_ctl_ctx *c)
{
	struct stats_snapshot *snap;
	int rc = 0;

	snap = __ctl_snap(c, false, &rc);
	if (snap == NULL)
		return rc;
	__ctl_u64(c, "seq", snap->seq);
	__rd_dbl(c, "uptime_s", "%.3f", snap->uptime_s);
	__ctl_i64(c, "workers", (int)snap->n_workers);
	__rate(c, &snap->total);
	__ctl_u64(c, "drops", mib_drops_total(snap->totals));
	__ctl_u64(c, "fold_ns", (uint64_t)snap->fold_ns);
	__ctl_u64(c, "fold_ns_mean", (uint64_t)snap->fold_ns_mean);
	__ctl_u64(c, "fold_ns_max", (uint64_t)snap->fold_ns_max);
	__ctl_u64(c, "folds", snap->folds);
	__ctl_u64(c, "read_folds", snap->read_folds);
	__ctl_i64(c, "mib_lcores", (int)snap->mib_lcores);
	__ctl_u64(c, "clears", snap->clears);
	stats_put(c->s, snap);
	return 0;
}

/* A list of per-worker values, the member what. */
static int
__column(const struct export_ctl_ctx *c, const struct stats_snapshot *snap,
	 const char *what)
{
	bool is_id = strcmp(what, "lcore") == 0, is_pps = strcmp(what, "pps") == 0;
	unsigned int w;
	char buf[32];
	int rc;

	rc = __ctl_list(c, what,
			is_id	 ? EXPORT_CTL_INT
			: is_pps ? EXPORT_CTL_U64
				 : EXPORT_CTL_STR);
	for (w = 0; rc == 0 && w < snap->n_workers && w < RTE_TEL_MAX_ARRAY_ENTRIES;
	     w++) {
		const struct stats_rate *r = &snap->lcore[w];

		if (is_id) {
			__ctl_i64(c, NULL, (int)stats_snapshot_lcore(snap, w));
			continue;
		}
		if (is_pps) {
			__ctl_u64(c, NULL, (uint64_t)(r->pps + 0.5));
			continue;
		}
		if (strcmp(what, "ns_per_pkt") == 0)
			snprintf(buf, sizeof(buf), "%.3f", r->ns_per_pkt);
		else if (strcmp(what, "cycles_per_pkt") == 0)
			snprintf(buf, sizeof(buf), "%.3f", r->cycles_per_pkt);
		else
			snprintf(buf, sizeof(buf), "%.2f", r->busy_pct);
		__ctl_str(c, NULL, buf);
	}
	return rc == 0 ? __ctl_end(c) : rc;
}

/* lcores[,LCORE] */
int
__ctl_read_lcores(struct export_ctl_ctx *c)
{
	static const char *const cols[] = { "lcore", "pps", "ns_per_pkt",
					    "cycles_per_pkt", "busy_pct" };
	struct stats_snapshot *snap;
	unsigned int i;
	int w, rc = 0;

	snap = __ctl_snap(c, false, &rc);
	if (snap == NULL)
		return rc;
	if (c->text == NULL) {
		for (i = 0; rc == 0 && i < RTE_DIM(cols); i++)
			rc = __column(c, snap, cols[i]);
	} else if ((w = __worker(snap, c->text)) < 0) {
		rc = __rd_bad(c, -ENOENT, "no worker on that lcore");
	} else {
		const uint64_t *b = snap->per_block + (size_t)w * MIB_FIELD_MAX;

		__ctl_i64(c, "lcore", (int)stats_snapshot_lcore(snap, (unsigned int)w));
		__ctl_i64(c, "worker", w);
		__rate(c, &snap->lcore[w]);
		__ctl_u64(c, "total_packets", b[MIB_F(RX, PACKETS)]);
		__ctl_u64(c, "total_drops", mib_drops_total(b));
	}
	stats_put(c->s, snap);
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

/* pmu: each event's per-packet figure of the last interval per lcore
 * (lists of strings: "unknown" when not counted). */
static int
__pmu_columns(const struct export_ctl_ctx *c, const struct stats_snapshot *snap)
{
	const struct stats_pmu_conf *pc = snap->pmu;
	unsigned int i, w;
	char buf[64];
	int rc;

	rc = __column(c, snap, "lcore");
	for (i = 0; rc == 0 && i < pc->n; i++) {
		__tel_name(buf, sizeof(buf), pc->ev[i].name, "per_pkt");
		rc = __ctl_list(c, buf, EXPORT_CTL_STR);
		for (w = 0;
		     rc == 0 && w < snap->n_workers && w < RTE_TEL_MAX_ARRAY_ENTRIES;
		     w++) {
			const struct stats_pmu_rate *r = &snap->pmu_iv[w];

			if (r->conf != NULL && r->d.known && r->packets)
				snprintf(buf, sizeof(buf), "%.4g", r->per_pkt[i]);
			else
				snprintf(buf, sizeof(buf), "unknown");
			__ctl_str(c, NULL, buf);
		}
		if (rc == 0)
			rc = __ctl_end(c);
	}
	return rc;
}

/* pmu,LCORE: its events since its first poll (raw, and scaled when the
 * PMU was shared) and per packet of the last interval. */
static void
__rd_pmu_lcore(const struct export_ctl_ctx *c, const struct stats_snapshot *snap, int k)
{
	const struct stats_pmu_conf *pc = snap->pmu;
	const struct stats_pmu_count *p = &snap->thread[k].pmu;
	const struct stats_pmu_rate *r = &snap->pmu_iv[k];
	unsigned int i;
	char buf[64];

	__ctl_i64(c, "lcore", (int)stats_snapshot_lcore(snap, (unsigned int)k));
	__ctl_str(c, "known", p->known ? "true" : "false");
	for (i = 0; p->known && i < pc->n; i++) {
		__tel_name(buf, sizeof(buf), pc->ev[i].name, "total");
		__ctl_u64(c, buf, p->v[i]);
		__tel_name(buf, sizeof(buf), pc->ev[i].name, "scaled");
		__rd_dbl(c, buf, "%.0f", stats_pmu_scale(p, i));
		if (r->conf == NULL || !r->d.known || r->packets == 0)
			continue;
		__tel_name(buf, sizeof(buf), pc->ev[i].name, "per_pkt");
		__rd_dbl(c, buf, "%.4g", r->per_pkt[i]);
	}
	if (p->known) {
		__ctl_u64(c, "enabled_ns", p->enabled_ns);
		__ctl_u64(c, "running_ns", p->running_ns);
	}
	if (r->conf != NULL && r->d.known && !isnan(r->ipc))
		__rd_dbl(c, "ipc", "%.3f", r->ipc);
}

/* pmu[,LCORE] */
int
__ctl_read_pmu(struct export_ctl_ctx *c)
{
	struct stats_snapshot *snap;
	int k, rc = 0;

	snap = __ctl_snap(c, false, &rc);
	if (snap == NULL)
		return rc;
	if (snap->pmu == NULL || snap->pmu_iv == NULL || snap->thread == NULL)
		__ctl_str(c, "pmu", "off (no --pmu)");
	else if (c->text == NULL)
		rc = __pmu_columns(c, snap);
	else if ((k = __worker(snap, c->text)) < 0)
		rc = __rd_bad(c, -ENOENT, "no worker on that lcore");
	else
		__rd_pmu_lcore(c, snap, k);
	stats_put(c->s, snap);
	return rc;
}

/* A JSON array element as a string: a string as is, any other scalar
 * as JSON writes it (into buf). */
static const char *
__json_elem_str(const json_t *e, char *buf, size_t len)
{
	uint64_t u;

	if (json_is_string(e))
		return json_string_value(e);
	if (export_json_u64_value(e, &u))
		snprintf(buf, len, "%" PRIu64, u);
	else if (json_is_integer(e))
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(e));
	else if (json_is_real(e))
		snprintf(buf, len, "%.17g", json_real_value(e));
	else if (json_is_boolean(e))
		snprintf(buf, len, "%s", json_is_true(e) ? "true" : "false");
	else
		snprintf(buf, len, "%s", json_is_null(e) ? "null" : "?");
	return buf;
}

/* A JSON scalar, or a list, as member name, with its whole value: a
 * string whatever its length, an integer whatever its sign, a list of
 * unsigned integers when every element is one (else of strings, each
 * element as JSON writes it), every element. The writer keeps within
 * what its transport carries (telemetry.c). */
static void
__json_entry(const struct export_ctl_ctx *c, const char *name, const json_t *v)
{
	char buf[64];
	uint64_t u;
	size_t i;

	if (export_json_u64_value(v, &u)) { /* above 2^63 too: a placeholder */
		__ctl_u64(c, name, u);
	} else if (json_is_string(v)) {
		__ctl_str(c, name, json_string_value(v));
	} else if (json_is_integer(v)) {
		__ctl_i64(c, name, json_integer_value(v));
	} else if (json_is_real(v)) {
		__rd_dbl(c, name, "%g", json_real_value(v));
	} else if (json_is_boolean(v)) {
		__ctl_str(c, name, json_is_true(v) ? "true" : "false");
	} else if (json_is_array(v)) {
		bool ints = json_array_size(v) > 0;

		for (i = 0; i < json_array_size(v) && ints; i++)
			ints = export_json_u64_value(json_array_get(v, i), &u);
		if (__ctl_list(c, name, ints ? EXPORT_CTL_U64 : EXPORT_CTL_STR) != 0)
			return;
		for (i = 0; i < json_array_size(v); i++) {
			const json_t *e = json_array_get(v, i);

			if (ints && export_json_u64_value(e, &u))
				__ctl_u64(c, NULL, u);
			else
				__ctl_str(c, NULL, __json_elem_str(e, buf, sizeof(buf)));
		}
		__ctl_end(c);
	}
	/* nested objects and null: left out (flattened by the caller) */
}

/* The members of an object; "config"-like sub-objects flattened with
 * a "name_" prefix (the run info's "config" without one). */
static void
__flatten(const struct export_ctl_ctx *c, const json_t *o, const char *prefix)
{
	const char *key;
	json_t *v;
	char name[RTE_TEL_MAX_STRING_LEN];

	json_object_foreach((json_t *)(uintptr_t)o, key, v)
	{
		if (json_is_object(v)) {
			if (prefix[0] == '\0')
				__flatten(c, v, strcmp(key, "config") == 0 ? "" : key);
			continue;
		}
		snprintf(name, sizeof(name), "%s%s%s", prefix, prefix[0] ? "_" : "", key);
		__json_entry(c, name, v);
	}
}

/* ingress */
int
__ctl_read_ingress(struct export_ctl_ctx *c)
{
	struct stats_snapshot *snap;
	json_t *st;
	int rc = 0;

	snap = __ctl_snap(c, false, &rc);
	if (snap == NULL)
		return rc;
	st = __ctl_ingress_state(c->hooks);
	if (st != NULL)
		__flatten(c, st, "");
	else
		__ctl_str(c, "mode", "off");
	json_decref(st);
	__group(c, MIB_GRP_INGRESS, snap->totals);
	stats_put(c->s, snap);
	return 0;
}

/* config */
int
__ctl_read_config(struct export_ctl_ctx *c)
{
	json_t *st;

	__ctl_info_lock(c);
	if (c->info != NULL)
		__flatten(c, c->info, "");
	__ctl_info_unlock(c);
	st = __ctl_ingress_state(c->hooks);
	if (st != NULL) {
		const json_t *m = json_object_get(st, "mode");
		const json_t *ms = json_object_get(st, "modes");

		if (m != NULL)
			__json_entry(c, "ingress_mode", m);
		if (ms != NULL)
			__json_entry(c, "ingress_modes", ms);
	}
	json_decref(st);
	return 0;
}

/* port p's counters since the last clear (DPDK names) */
static int
__port(const struct export_ctl_ctx *c, const struct stats_port *p)
{
	unsigned int f, q;
	int rc = 0;

	__ctl_i64(c, "port", p->port_id);
	__ctl_str(c, "driver", p->driver);
	__ctl_str(c, "name", p->name);
	__ctl_str(c, "iface", p->iface);
	for (f = 0; f < STATS_PORT_F_MAX; f++)
		if (p->kernel != NULL ||
		    (f != STATS_PORT_KERNEL_PACKETS && f != STATS_PORT_KERNEL_DROPS))
			__ctl_u64(c, stats_port_field_name(f), p->v[f]);
	__ctl_u64(c, "dropped", stats_port_dropped(p->v));
	__ctl_u64(c, "rx_packets", p->rx_packets_v);
	if (p->kernel != NULL) {
		char k[RTE_TEL_MAX_STRING_LEN];

		snprintf(k, sizeof(k), "%s", p->kernel);
		__ctl_str(c, "kernel", k);
	}
	for (f = 0; rc == 0 && f < STATS_PORT_Q_MAX; f++) {
		rc = __ctl_list(c, stats_port_qfield_name(f), EXPORT_CTL_U64);
		for (q = 0; rc == 0 && q < p->nb_rxq; q++)
			__ctl_u64(c, NULL, p->q[q][f]);
		if (rc == 0)
			rc = __ctl_end(c);
	}
	return rc;
}

/* ports[,PORT] */
int
__ctl_read_ports(struct export_ctl_ctx *c)
{
	struct stats_snapshot *snap;
	const struct stats_port *p = NULL;
	unsigned int i;
	int rc = 0;

	snap = __ctl_snap(c, false, &rc);
	if (snap == NULL)
		return rc;
	if (c->text == NULL) {
		rc = __ctl_list(c, NULL, EXPORT_CTL_INT);
		for (i = 0; rc == 0 && i < snap->n_ports; i++)
			__ctl_i64(c, NULL, snap->ports[i].port_id);
		if (rc == 0)
			rc = __ctl_end(c);
		goto put;
	}
	for (i = 0; i < snap->n_ports; i++) {
		char id[8];

		snprintf(id, sizeof(id), "%u", snap->ports[i].port_id);
		if (strcmp(id, c->text) == 0)
			p = &snap->ports[i];
	}
	rc = p != NULL ? __port(c, p) : __rd_bad(c, -ENOENT, "no such port sampled");
put:
	stats_put(c->s, snap);
	return rc;
}

/* The history's intervals history/columns serves, the last ones: seven
 * lists of 64 values fit telemetry's 16 KiB reply with room to spare. */
#define HISTORY_COLUMNS 64

static const char *const hist_cols[] = { "t_s",	 "mpps",       "cycles_per_pkt", "lost",
					 "mode", "mode_flips", "rule_updates" };

static uint64_t
__rd_delta(const struct stats_series *se, unsigned int k, enum stats_series_field f)
{
	uint64_t x = stats_series_value(se, k, -1, f);
	uint64_t y = stats_series_value(se, k + 1, -1, f);

	return y >= x ? y - x : 0;
}

/* Column col's value of interval k (point k to k + 1). */
static void
__rd_hist_value(const struct export_ctl_ctx *c, const struct stats_series *se,
		unsigned int col, unsigned int k)
{
	struct stats_rate r;
	int m;

	stats_series_rate(se, k, k + 1, -1, &r);
	switch (col) {
	case 0:
		__rd_dbl(c, NULL, "%.3f", stats_series_uptime(se, k + 1));
		break;
	case 1:
		__rd_dbl(c, NULL, "%.6f", r.pps / 1e6);
		break;
	case 2:
		__rd_dbl(c, NULL, "%.3f", r.cycles_per_pkt);
		break;
	case 3:
		__ctl_str(c, NULL, stats_rate_lost(&r) ? "true" : "false");
		break;
	case 4:
		m = stats_series_mode(se, k);
		__ctl_str(c, NULL,
			  m >= 0		    ? mib_mode_name((unsigned int)m)
			  : m == STATS_SERIES_MIXED ? "mixed"
						    : "none");
		break;
	case 5:
		__ctl_u64(c, NULL, __rd_delta(se, k, STATS_SERIES_MODEFLIPS));
		break;
	default:
		__ctl_u64(c, NULL, __rd_delta(se, k, STATS_SERIES_RULEUPDATES));
		break;
	}
}

/* history/columns: the last HISTORY_COLUMNS intervals of the run's history
 * (the series the hooks name, read under its lock), a list per figure,
 * with how many intervals there are, the first one listed and how many the
 * window dropped. -ENOTSUP without a history. */
int
__ctl_read_history(struct export_ctl_ctx *c)
{
	const struct stats_series *se = c->hooks != NULL ? c->hooks->series : NULL;
	unsigned int n, first, col, k;
	int rc = 0;

	if (se == NULL) {
		snprintf(c->msg, sizeof(c->msg), "%s: no history in this run",
			 c->request);
		return -ENOTSUP;
	}
	stats_series_lock(se);
	n = stats_series_count(se) > 0 ? stats_series_count(se) - 1 : 0;
	first = n > HISTORY_COLUMNS ? n - HISTORY_COLUMNS : 0;
	__ctl_u64(c, "intervals", n);
	__ctl_u64(c, "first", first);
	__ctl_u64(c, "intervals_dropped", stats_series_dropped(se));
	for (col = 0; rc == 0 && col < RTE_DIM(hist_cols); col++) {
		rc = __ctl_list(c, hist_cols[col],
				col >= 5 ? EXPORT_CTL_U64 : EXPORT_CTL_STR);
		for (k = first; rc == 0 && k < n; k++)
			__rd_hist_value(c, se, col, k);
		if (rc == 0)
			rc = __ctl_end(c);
	}
	stats_series_unlock(se);
	return rc;
}
