/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port counters: what each port delivered and what it dropped, sampled by
 * the stats thread at every fold (rte_eth_stats_get, rte_eth_xstats_get and
 * the kernel counters of port_kernel.c), cleared by baseline like the MIB,
 * and the conservation check across the port boundary. See stats.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "base.h"
#include "stats.h"
#include "stats_pvt.h"

static const char *const port_field_names[STATS_PORT_F_MAX] = {
	[STATS_PORT_IPACKETS] = "ipackets",
	[STATS_PORT_IBYTES] = "ibytes",
	[STATS_PORT_IMISSED] = "imissed",
	[STATS_PORT_IERRORS] = "ierrors",
	[STATS_PORT_RX_NOMBUF] = "rx_nombuf",
	[STATS_PORT_KERNEL_PACKETS] = "kernel_packets",
	[STATS_PORT_KERNEL_DROPS] = "kernel_drops",
};

static const char *const port_qfield_names[STATS_PORT_Q_MAX] = {
	[STATS_PORT_Q_IPACKETS] = "q_ipackets",
	[STATS_PORT_Q_IBYTES] = "q_ibytes",
	[STATS_PORT_Q_ERRORS] = "q_errors",
};

const char *
stats_port_field_name(enum stats_port_field f)
{
	return BASE_ENUM_NAME(port_field_names, f);
}

const char *
stats_port_qfield_name(enum stats_port_qfield f)
{
	return BASE_ENUM_NAME(port_qfield_names, f);
}

uint64_t
stats_port_dropped(const uint64_t *v)
{
	return v[STATS_PORT_IMISSED] + v[STATS_PORT_IERRORS] +
	       v[STATS_PORT_RX_NOMBUF] + v[STATS_PORT_KERNEL_DROPS];
}

/* The xstat names, once: they do not change while the port runs. */
static int
__xstats_init(struct stats_port_state *st)
{
	struct rte_eth_xstat_name *names;
	int n, i;

	n = rte_eth_xstats_get_names(st->conf.port_id, NULL, 0);
	if (n <= 0)
		return 0;		/* a PMD without xstats */
	names = calloc((size_t)n, sizeof(*names));
	st->xstat_names = calloc((size_t)n, sizeof(*st->xstat_names));
	st->x_base = calloc((size_t)n, sizeof(*st->x_base));
	if (names == NULL || st->xstat_names == NULL || st->x_base == NULL) {
		free(names);
		return -ENOMEM;
	}
	n = rte_eth_xstats_get_names(st->conf.port_id, names, (unsigned int)n);
	for (i = 0; i < n; i++) {
		st->xstat_names[i] = strdup(names[i].name);
		if (st->xstat_names[i] == NULL) {
			free(names);
			return -ENOMEM;
		}
		st->n_xstats = (unsigned int)i + 1;
	}
	free(names);
	return 0;
}

static int
__stats_ports_init(struct stats *s)
{
	unsigned int i;
	int rc;

	s->n_ports = s->conf.n_ports;
	if (s->n_ports == 0)
		return 0;
	s->port_st = calloc(s->n_ports, sizeof(*s->port_st));
	if (s->port_st == NULL)
		return -ENOMEM;
	if (s->conf.worker_port != NULL && s->conf.n_workers > 0) {
		s->worker_port = calloc(s->conf.n_workers, sizeof(int));
		if (s->worker_port == NULL)
			return -ENOMEM;
		memcpy(s->worker_port, s->conf.worker_port,
		       s->conf.n_workers * sizeof(int));
	}
	for (i = 0; i < s->n_ports; i++) {
		struct stats_port_state *st = &s->port_st[i];
		struct rte_eth_dev_info info;
		char ifname[IF_NAMESIZE];

		st->conf = s->conf.ports[i];
		if (st->conf.nb_rxq > STATS_PORT_MAX_QUEUES)
			st->conf.nb_rxq = STATS_PORT_MAX_QUEUES;
		for (rc = 0; rc < STATS_PORT_MAX_QUEUES; rc++)
			st->fds[rc] = -1;
		if (rte_eth_dev_info_get(st->conf.port_id, &info) == 0) {
			snprintf(st->driver, sizeof(st->driver), "%s",
				 info.driver_name ? info.driver_name : "");
			st->if_index = info.if_index;
			if (info.if_index != 0 &&
			    if_indextoname(info.if_index, ifname) != NULL)
				snprintf(st->iface, sizeof(st->iface), "%s", ifname);
		}
		if (rte_eth_dev_get_name_by_port(st->conf.port_id, st->name) != 0)
			snprintf(st->name, sizeof(st->name), "port%u",
				 st->conf.port_id);
		rc = __xstats_init(st);
		if (rc != 0)
			return rc;
		__stats_kport_init(st, s->port_st, i);
		STATS_LOG(DEBUG, "port %u (%s, %s%s%s): %u RX queue%s, %u xstats, "
			  "kernel counters: %s", st->conf.port_id, st->name,
			  st->driver, st->iface[0] ? ", " : "", st->iface,
			  st->conf.nb_rxq, st->conf.nb_rxq == 1 ? "" : "s",
			  st->n_xstats, st->kernel[0] ? st->kernel : "none");
	}
	return 0;
}

static void
__stats_ports_free(struct stats *s)
{
	unsigned int i, j;

	for (i = 0; s->port_st != NULL && i < s->n_ports; i++) {
		struct stats_port_state *st = &s->port_st[i];

		__stats_kport_fini(st);
		for (j = 0; st->xstat_names != NULL && j < st->n_xstats; j++)
			free(st->xstat_names[j]);
		free(st->xstat_names);
		free(st->x_base);
	}
	free(s->port_st);
	free(s->worker_port);
	s->port_st = NULL;
	s->worker_port = NULL;
}

static int
__stats_snap_ports_alloc(const struct stats *s, struct stats_snapshot *p)
{
	unsigned int i;

	p->n_ports = 0;
	if (s->n_ports == 0)
		return 0;
	p->ports = calloc(s->n_ports, sizeof(*p->ports));
	if (p->ports == NULL)
		return -ENOMEM;
	p->n_ports = s->n_ports;
	for (i = 0; i < s->n_ports; i++) {
		const struct stats_port_state *st = &s->port_st[i];
		struct stats_port *pp = &p->ports[i];

		pp->port_id = st->conf.port_id;
		pp->nb_rxq = st->conf.nb_rxq;
		pp->nb_rxd = st->conf.nb_rxd;
		pp->driver = st->driver;
		pp->name = st->name;
		pp->iface = st->iface;
		pp->kernel = st->kernel[0] ? st->kernel : NULL;
		pp->n_xstats = st->n_xstats;
		pp->xstat_names = (const char *const *)st->xstat_names;
		if (st->n_xstats == 0)
			continue;
		pp->xstats = calloc(st->n_xstats, sizeof(uint64_t));
		pp->xstats_raw = calloc(st->n_xstats, sizeof(uint64_t));
		if (pp->xstats == NULL || pp->xstats_raw == NULL)
			return -ENOMEM;
	}
	return 0;
}

static void
__stats_snap_ports_free(struct stats_snapshot *p)
{
	unsigned int i;

	for (i = 0; p->ports != NULL && i < p->n_ports; i++) {
		free(p->ports[i].xstats);
		free(p->ports[i].xstats_raw);
	}
	free(p->ports);
	p->ports = NULL;
}

/* Raw values: the device's counters and the kernel's. Under fold_lock
 * (one sampler at a time: the kernel counters are clear-on-read). Called
 * after the MIB fold of the same snapshot, so rx_packets is of that fold. */
static void
__stats_ports_sample(struct stats *s, struct stats_snapshot *p)
{
	struct rte_eth_xstat *xs = NULL;
	unsigned int i, q, w, nx = 0;

	for (i = 0; i < s->n_ports; i++)
		nx = RTE_MAX(nx, s->port_st[i].n_xstats);
	if (nx > 0)
		xs = calloc(nx, sizeof(*xs));
	for (i = 0; i < p->n_ports; i++) {
		struct stats_port_state *st = &s->port_st[i];
		struct stats_port *pp = &p->ports[i];
		struct rte_eth_stats es;
		int n, k;

		memset(&es, 0, sizeof(es));
		pp->sampled = rte_eth_stats_get(st->conf.port_id, &es) == 0;
		pp->raw[STATS_PORT_IPACKETS] = es.ipackets;
		pp->raw[STATS_PORT_IBYTES] = es.ibytes;
		pp->raw[STATS_PORT_IMISSED] = es.imissed;
		pp->raw[STATS_PORT_IERRORS] = es.ierrors;
		pp->raw[STATS_PORT_RX_NOMBUF] = es.rx_nombuf;
		for (q = 0; q < st->conf.nb_rxq; q++) {
			pp->q_raw[q][STATS_PORT_Q_IPACKETS] = es.q_ipackets[q];
			pp->q_raw[q][STATS_PORT_Q_IBYTES] = es.q_ibytes[q];
			pp->q_raw[q][STATS_PORT_Q_ERRORS] = es.q_errors[q];
		}
		__stats_kport_sample(st);
		pp->raw[STATS_PORT_KERNEL_PACKETS] = st->k_packets;
		pp->raw[STATS_PORT_KERNEL_DROPS] = st->k_drops;
		if (xs != NULL && st->n_xstats > 0) {
			n = rte_eth_xstats_get(st->conf.port_id, xs, st->n_xstats);
			for (k = 0; k < n && (unsigned int)k < st->n_xstats; k++)
				if (xs[k].id < st->n_xstats)
					pp->xstats_raw[xs[k].id] = xs[k].value;
		}
		pp->rx_packets = 0;
		for (w = 0; s->worker_port != NULL && w < p->n_workers; w++)
			if (s->worker_port[w] == (int)i)
				pp->rx_packets += p->raw_per_block[(size_t)w *
					MIB_FIELD_MAX + MIB_F(RX, PACKETS)];
	}
	free(xs);
}

/* Baseline-relative values; under s->lock (the baseline's lock). A counter
 * that went below its baseline (a PMD that reset it) reads 0, not 2^64. */
static inline uint64_t
__since(uint64_t now, uint64_t base)
{
	return now >= base ? now - base : 0;
}

static void
__stats_ports_rebase(struct stats *s, struct stats_snapshot *p)
{
	unsigned int i, f, q, x;

	for (i = 0; i < p->n_ports; i++) {
		const struct stats_port_state *st = &s->port_st[i];
		struct stats_port *pp = &p->ports[i];

		for (f = 0; f < STATS_PORT_F_MAX; f++)
			pp->v[f] = __since(pp->raw[f], st->base[f]);
		for (q = 0; q < pp->nb_rxq; q++)
			for (f = 0; f < STATS_PORT_Q_MAX; f++)
				pp->q[q][f] = __since(pp->q_raw[q][f], st->q_base[q][f]);
		for (x = 0; x < pp->n_xstats; x++)
			pp->xstats[x] = __since(pp->xstats_raw[x], st->x_base[x]);
		pp->rx_packets_v = __since(pp->rx_packets, st->rx_base);
	}
}

static void
__stats_ports_clear(struct stats *s, const struct stats_snapshot *p)
{
	unsigned int i;

	for (i = 0; i < p->n_ports && i < s->n_ports; i++) {
		struct stats_port_state *st = &s->port_st[i];
		const struct stats_port *pp = &p->ports[i];

		memcpy(st->base, pp->raw, sizeof(st->base));
		memcpy(st->q_base, pp->q_raw, sizeof(st->q_base));
		if (pp->n_xstats > 0)
			memcpy(st->x_base, pp->xstats_raw,
			       pp->n_xstats * sizeof(uint64_t));
		st->rx_base = pp->rx_packets;
	}
}

/* ---- conservation across the port boundary ---- */

/* PMDs that count ipackets in rte_eth_rx_burst() itself (software
 * counters): for them nothing can be counted and not polled, so the check
 * is an equality. The others may count a frame when it lands in the RX ring. */
static bool
__counts_at_burst(const char *driver)
{
	static const char *const sw[] = { "net_af_packet", "net_tap", "net_null",
		"net_pcap", "net_ring", "net_memif", "net_vhost", "net_virtio",
		"net_virtio_user" };
	unsigned int i;

	for (i = 0; driver != NULL && i < RTE_DIM(sw); i++)
		if (strcmp(driver, sw[i]) == 0)
			return true;
	return false;
}

#define APPEND(buf, len, off, ...) do {					\
	int __n = snprintf((buf) + (off), (off) < (len) ? (len) - (off) : 0, \
			   __VA_ARGS__);					\
	if (__n > 0)							\
		(off) += (size_t)__n;					\
} while (0)

int
stats_port_check(const struct stats_snapshot *snap, char *line, size_t len,
		 uint64_t *dropped)
{
	uint64_t drops = 0, tol = stats_tolerance(snap);
	size_t off = 0;
	unsigned int i, f;
	int rc = 0;

	if (len > 0)
		line[0] = '\0';
	for (i = 0; i < snap->n_ports; i++) {
		const struct stats_port *p = &snap->ports[i];
		uint64_t ip = p->raw[STATS_PORT_IPACKETS], rx = p->rx_packets;
		uint64_t room = __counts_at_burst(p->driver) ? 0 :
			(uint64_t)p->nb_rxq * p->nb_rxd;
		uint64_t d = ip > rx ? ip - rx : rx - ip;

		drops += stats_port_dropped(p->raw);
		if (!p->sampled) {
			APPEND(line, len, off, "%sport %u: no ethdev counters",
			       off ? "; " : "", p->port_id);
		} else if (ip == 0 && rx > 0) {
			/* The PMD does not count ipackets: nothing to check. */
			APPEND(line, len, off, "%sport %u: the PMD reports no ipackets "
			       "(RxPackets %" PRIu64 ")", off ? "; " : "", p->port_id, rx);
		} else if (ip == rx) {
			APPEND(line, len, off, "%sport %u: ipackets %" PRIu64
			       " = RxPackets %" PRIu64, off ? "; " : "", p->port_id,
			       ip, rx);
		} else if (tol > 0 && d <= room + tol) {
			/* A live snapshot: the workers' Rx counters are flushed
			 * every few polls, the port's as it delivers. */
			APPEND(line, len, off, "%sport %u: ipackets %" PRIu64
			       " ~ RxPackets %" PRIu64 " (live: within %" PRIu64
			       " in flight)", off ? "; " : "", p->port_id, ip, rx,
			       room + tol);
		} else if (ip > rx && ip - rx <= room) {
			APPEND(line, len, off, "%sport %u: ipackets %" PRIu64
			       " = RxPackets %" PRIu64 " + %" PRIu64 " not polled "
			       "at stop (at most %u queue%s x %u descriptors)",
			       off ? "; " : "", p->port_id, ip, rx, ip - rx,
			       p->nb_rxq, p->nb_rxq == 1 ? "" : "s", p->nb_rxd);
		} else {
			off = 0;
			APPEND(line, len, off, "port %u: ipackets %" PRIu64 " != "
			       "RxPackets %" PRIu64 " of its workers", p->port_id,
			       ip, rx);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && drops > 0) {
		const char *sep = " (";

		APPEND(line, len, off, "%sdropped before pktpath: %" PRIu64,
		       off ? "; " : "", drops);
		for (i = 0; i < snap->n_ports; i++) {
			const struct stats_port *p = &snap->ports[i];

			for (f = STATS_PORT_IMISSED; f < STATS_PORT_F_MAX; f++) {
				if (f == STATS_PORT_KERNEL_PACKETS || p->raw[f] == 0)
					continue;
				APPEND(line, len, off, "%sport %u %s %" PRIu64, sep,
				       p->port_id, port_field_names[f], p->raw[f]);
				sep = ", ";
			}
		}
		APPEND(line, len, off, ")");
	}
	if (dropped != NULL)
		*dropped = drops;
	return rc;
}

/* A read fold samples the ports again: the console, /metrics and a
 * port's conservation line read the same instant as the MIB totals. */
static bool
__stats_ports_on_read(const struct stats *s)
{
	return s->n_ports > 0;
}

const struct stats_sampler __stats_sampler_ports = {
	.name = "ports",
	.init = __stats_ports_init,
	.free = __stats_ports_free,
	.snap_alloc = __stats_snap_ports_alloc,
	.snap_free = __stats_snap_ports_free,
	.sample = __stats_ports_sample,
	.on_read = __stats_ports_on_read,
	.rebase = __stats_ports_rebase,
	.clear = __stats_ports_clear,
};
