/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_CONTROL_PVT_H
#define PKTPATH_CONTROL_PVT_H

/*
 * Internals of the control table (export_control.h), shared by control.c
 * (the table), control_page.c (the reading commands that write a page)
 * and control_read.c (those that write named values). Not for other
 * modules.
 */

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_errno.h>

#include "export_control.h"
#include "export_pvt.h"

/* The writer's calls; nothing without a writer. */
static inline void
__ctl_str(const struct export_ctl_ctx *c, const char *key, const char *v)
{
	if (c->out != NULL && c->out->str != NULL)
		c->out->str(c->out->arg, key, v);
}

static inline void
__ctl_u64(const struct export_ctl_ctx *c, const char *key, uint64_t v)
{
	if (c->out != NULL && c->out->u64 != NULL)
		c->out->u64(c->out->arg, key, v);
}

static inline void
__ctl_i64(const struct export_ctl_ctx *c, const char *key, int64_t v)
{
	if (c->out != NULL && c->out->i64 != NULL)
		c->out->i64(c->out->arg, key, v);
}

static inline int
__ctl_list(const struct export_ctl_ctx *c, const char *key, enum export_ctl_type t)
{
	return c->out != NULL && c->out->list != NULL ? c->out->list(c->out->arg, key, t)
						      : -ENOTSUP;
}

static inline int
__ctl_end(const struct export_ctl_ctx *c)
{
	return c->out != NULL && c->out->end != NULL ? c->out->end(c->out->arg) : 0;
}

/* A page's stream (the writer's text), or NULL with *rc -ENOTSUP and the
 * line in c->msg: pages are HTTP's only (a telemetry reply is a dict). */
static inline FILE *
__ctl_page(struct export_ctl_ctx *c, int *rc)
{
	if (c->out == NULL || c->out->text == NULL) {
		snprintf(c->msg, sizeof(c->msg), "%s: a page, served over HTTP only",
			 c->request);
		*rc = -ENOTSUP;
		return NULL;
	}
	return c->out->text;
}

/* The ingress state the hooks h report now (a new reference), or NULL
 * without hooks or ingress_state. */
static inline json_t *
__ctl_ingress_state(const struct export_hooks *h)
{
	return h != NULL && h->ingress_state != NULL ? h->ingress_state(h->arg) : NULL;
}

/* Around every use of c->info. */
static inline void
__ctl_info_lock(const struct export_ctl_ctx *c)
{
	if (c->info_lock != NULL)
		pthread_mutex_lock(c->info_lock);
}

static inline void
__ctl_info_unlock(const struct export_ctl_ctx *c)
{
	if (c->info_lock != NULL)
		pthread_mutex_unlock(c->info_lock);
}

/* The latest snapshot of c->s (read: stats_read()'s, folded for this
 * request with --fold-on-read, its cost then in c->read_fold_ns), or NULL
 * with *rc -EAGAIN and the reason in c->msg; -ENODEV without a run (c->s
 * NULL: a no_run row served after the run unregistered). */
static inline struct stats_snapshot *
__ctl_snap(struct export_ctl_ctx *c, bool read, int *rc)
{
	struct stats_snapshot *snap;

	if (c->s == NULL) {
		snprintf(c->msg, sizeof(c->msg), "no run: its state is unregistered");
		*rc = -ENODEV;
		return NULL;
	}
	snap = read ? stats_read(c->s) : stats_get(c->s);

	if (snap == NULL) {
		snprintf(c->msg, sizeof(c->msg), "%s",
			 read && rte_errno == ENOMEM
				 ? "out of memory for this read's fold"
				 : "no snapshot yet: the stats thread has not started");
		*rc = -EAGAIN;
		return NULL;
	}
	if (snap->read_fold) {
		c->read_fold = true;
		c->read_fold_ns = snap->read_fold_ns;
	}
	return snap;
}

/* control_page.c: the pages (HTTP's text bodies). */
int __ctl_page_healthz(struct export_ctl_ctx *c);
int __ctl_page_metrics(struct export_ctl_ctx *c);
int __ctl_page_snmp(struct export_ctl_ctx *c);
int __ctl_page_netstat(struct export_ctl_ctx *c);
int __ctl_page_snmp6(struct export_ctl_ctx *c);
int __ctl_page_json(struct export_ctl_ctx *c);
int __ctl_page_history(struct export_ctl_ctx *c);

/* control_read.c: named values (telemetry's dicts, HTTP's JSON). */
int __ctl_read_mib(struct export_ctl_ctx *c);
int __ctl_read_mib_help(struct export_ctl_ctx *c);
int __ctl_read_rates(struct export_ctl_ctx *c);
int __ctl_read_lcores(struct export_ctl_ctx *c);
int __ctl_read_ingress(struct export_ctl_ctx *c);
int __ctl_read_config(struct export_ctl_ctx *c);
int __ctl_read_pmu(struct export_ctl_ctx *c);
int __ctl_read_ports(struct export_ctl_ctx *c);
int __ctl_read_history(struct export_ctl_ctx *c);

/* devices.c: --mib-devices' pages and their telemetry twins. */
int __ctl_page_dev_snmp6(struct export_ctl_ctx *c);
int __ctl_page_links(struct export_ctl_ctx *c);
int __ctl_read_dev_snmp6(struct export_ctl_ctx *c);
int __ctl_read_links(struct export_ctl_ctx *c);

#endif
