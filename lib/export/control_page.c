/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control table's reading commands that write a page (export_control.h):
 * HTTP's text bodies, /healthz, /metrics, /snmp, /netstat, /snmp6,
 * /stats.json and /history, into the writer's text stream. Each is rendered by the
 * writers of lib/export over the registered sections (export_section.h)
 * from one snapshot reference; the MIB pages read through stats_read()
 * (with --fold-on-read they fold for this request, c->read_fold_ns says
 * how long it took). Thread-safe for distinct contexts.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "control_pvt.h"
#include "export_series.h"

/* A writer's result as the handler's: 0, or -errno with the line. */
static int
__rendered(struct export_ctl_ctx *c, int rc)
{
	if (rc != 0)
		snprintf(c->msg, sizeof(c->msg), "cannot render the snapshot (%s)",
			 strerror(rc < 0 ? -rc : EIO));
	return rc < 0 ? rc : rc != 0 ? -EIO : 0;
}

/* 200 while the stats thread publishes fresh snapshots, else -EAGAIN
 * (HTTP 503) with why. */
int
__ctl_page_healthz(struct export_ctl_ctx *c)
{
	FILE *f;
	struct stats_snapshot *snap;
	bool running;
	double age, limit;
	uint64_t seq;
	int rc = 0;

	if ((f = __ctl_page(c, &rc)) == NULL)
		return rc;
	snap = stats_get(c->s);
	running = stats_running(c->s);
	limit = RTE_MAX(3 * stats_interval(c->s), 2.0);
	if (snap == NULL) {
		snprintf(c->msg, sizeof(c->msg), "no snapshot yet");
		return -EAGAIN;
	}
	age = (double)(rte_rdtsc() - snap->tsc) / (double)snap->tsc_hz;
	seq = snap->seq;
	stats_put(c->s, snap);
	if (!running) {
		snprintf(c->msg, sizeof(c->msg),
			 "stats thread stopped (last snapshot %" PRIu64 ", %.1f s old)",
			 seq, age);
		return -EAGAIN;
	}
	if (age > limit) {
		snprintf(c->msg, sizeof(c->msg),
			 "stale: last snapshot %" PRIu64 " is %.1f s old (limit %.1f s)",
			 seq, age, limit);
		return -EAGAIN;
	}
	fprintf(f, "ok snapshot %" PRIu64 " %.3f s old\n", seq, age);
	return 0;
}

int
__ctl_page_metrics(struct export_ctl_ctx *c)
{
	struct export_prom_opts o = { NULL, NULL, c->lcore_mib, NULL };
	const struct export_hooks *h = c->hooks;
	struct stats_snapshot *snap;
	struct export_memory mem;
	json_t *ing = NULL;
	FILE *f;
	int rc = 0;

	if ((f = __ctl_page(c, &rc)) == NULL || (snap = __ctl_snap(c, true, &rc)) == NULL)
		return rc;
	ing = __ctl_ingress_state(h);
	o.ingress = ing;
	/* Read before the body grows: the heaps then hold what the process
	 * keeps, not this response. */
	export_memory_read(&mem, true);
	o.mem = &mem;
	__ctl_info_lock(c);
	o.info = c->info;
	rc = export_prom_write(f, snap, &o);
	__ctl_info_unlock(c);
	json_decref(ing);
	stats_put(c->s, snap);
	if (rc == 0 && c->prom_tail != NULL)
		c->prom_tail(c->prom_tail_arg, f);
	return __rendered(c, rc);
}

static int
__snmp(struct export_ctl_ctx *c, enum export_snmp_file which)
{
	struct stats_snapshot *snap;
	FILE *f;
	int rc = 0;

	if ((f = __ctl_page(c, &rc)) == NULL || (snap = __ctl_snap(c, true, &rc)) == NULL)
		return rc;
	rc = export_snmp_write(f, snap, which);
	stats_put(c->s, snap);
	return __rendered(c, rc);
}

int
__ctl_page_snmp(struct export_ctl_ctx *c)
{
	return __snmp(c, EXPORT_SNMP);
}

int
__ctl_page_netstat(struct export_ctl_ctx *c)
{
	return __snmp(c, EXPORT_NETSTAT);
}

int
__ctl_page_snmp6(struct export_ctl_ctx *c)
{
	return __snmp(c, EXPORT_SNMP6);
}

/* The snapshot as JSON (the --json schema), "ingress" the hook's state. */
int
__ctl_page_json(struct export_ctl_ctx *c)
{
	const struct export_hooks *h = c->hooks;
	struct stats_snapshot *snap;
	json_t *ing = NULL, *root;
	FILE *f;
	int rc = 0;

	if ((f = __ctl_page(c, &rc)) == NULL || (snap = __ctl_snap(c, true, &rc)) == NULL)
		return rc;
	ing = __ctl_ingress_state(h);
	/* export_json() takes a reference on info: held until root is gone */
	__ctl_info_lock(c);
	root = export_json(snap, NULL, (json_t *)(uintptr_t)c->info, c->lcore_mib);
	if (root != NULL)
		json_object_set_new(root, "ingress",
				    ing != NULL ? ing
						: json_pack("{s:s}", "mode", "off"));
	else
		json_decref(ing);
	rc = root == NULL ? -1
			  : export_json_dumpf(root, f, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	__ctl_info_unlock(c);
	stats_put(c->s, snap);
	fputc('\n', f);
	return __rendered(c, rc == 0 ? 0 : -EIO);
}

/* The run's history so far (export_history_add(), as --json's at the
 * end): the series the hooks name, read under its lock; "steady" is null
 * (the steady state is the end's). -ENOTSUP (HTTP 501) without one. */
int
__ctl_page_history(struct export_ctl_ctx *c)
{
	const struct export_hooks *h = c->hooks;
	struct export_history hi;
	json_t *root, *flips;
	FILE *f;
	int rc = 0;

	if ((f = __ctl_page(c, &rc)) == NULL)
		return rc;
	if (h == NULL || h->series == NULL) {
		snprintf(c->msg, sizeof(c->msg), "%s: no history in this run",
			 c->request);
		return -ENOTSUP;
	}
	flips = h->flips != NULL ? h->flips(h->arg) : NULL;
	memset(&hi, 0, sizeof(hi));
	hi.se = h->series;
	hi.lcore_ids = h->lcore_ids;
	hi.flips = flips;
	root = json_object();
	rc = root == NULL ? -ENOMEM : export_history_add(root, &hi);
	if (rc == 0)
		rc = export_json_dumpf(root, f, JSON_INDENT(2) | JSON_SORT_KEYS) == 0
			     ? 0
			     : -EIO;
	json_decref(root);
	json_decref(flips);
	fputc('\n', f);
	return __rendered(c, rc);
}
