/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The port counters in every report: the console's "port drops" line, the
 * summary, the JSON "ports" array, /metrics pktpath_port_* families and the
 * Port<N> groups of /netstat. Like the rest of lib/export they read
 * snapshots only. Which values: the console, summary, JSON and /netstat
 * honour clears (v, q, xstats); /metrics exports raw counters (raw, q_raw,
 * xstats_raw), never cleared, as for the MIB (see export.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "export_pvt.h"

/* At most this many xstats per port in /metrics (those named rx_*, in the
 * PMD's order): a NIC may have hundreds; the JSON has them all. */
#define PROM_MAX_XSTATS 64

static bool
__has_kernel(const struct stats_port *p, unsigned int f)
{
	return p->kernel != NULL || (f != STATS_PORT_KERNEL_PACKETS &&
				     f != STATS_PORT_KERNEL_DROPS);
}

static void
__port_print_interval(FILE *out, const struct stats_snapshot *snap,
		      const struct stats_snapshot *prev)
{
	unsigned int i, f;
	bool any = false;

	for (i = 0; i < snap->n_ports && prev != NULL && i < prev->n_ports; i++) {
		const struct stats_port *p = &snap->ports[i], *o = &prev->ports[i];

		for (f = STATS_PORT_IMISSED; f < STATS_PORT_F_MAX; f++) {
			uint64_t d;

			if (f == STATS_PORT_KERNEL_PACKETS)
				continue;
			d = p->raw[f] - o->raw[f];
			if (d == 0 || p->raw[f] < o->raw[f])
				continue;
			fprintf(out, "%s%u:%s=%" PRIu64, any ? " " : "  port drops: ",
				p->port_id, stats_port_field_name(f), d);
			any = true;
		}
	}
	if (any)
		fputc('\n', out);
}

static void
__port_print_summary(FILE *out, const struct stats_summary *sum __rte_unused,
		     const struct stats_snapshot *snap)
{
	unsigned int i, f, q;

	for (i = 0; i < snap->n_ports; i++) {
		const struct stats_port *p = &snap->ports[i];

		fprintf(out, "port %u (%s, %s%s%s): ipackets %" PRIu64 ", ibytes %"
			PRIu64 ", dropped before pktpath %" PRIu64 ":", p->port_id,
			p->name, p->driver, p->iface[0] ? ", " : "", p->iface,
			p->v[STATS_PORT_IPACKETS], p->v[STATS_PORT_IBYTES],
			stats_port_dropped(p->v));
		for (f = STATS_PORT_IMISSED; f < STATS_PORT_F_MAX; f++)
			if (__has_kernel(p, f))
				fprintf(out, " %s %" PRIu64, stats_port_field_name(f),
					p->v[f]);
		fputc('\n', out);
		if (p->kernel != NULL)
			fprintf(out, "  kernel_*: %s\n", p->kernel);
		for (q = 0; q < p->nb_rxq; q++)
			fprintf(out, "  queue %u: q_ipackets %" PRIu64 " q_ibytes %"
				PRIu64 " q_errors %" PRIu64 "\n", q,
				p->q[q][STATS_PORT_Q_IPACKETS],
				p->q[q][STATS_PORT_Q_IBYTES],
				p->q[q][STATS_PORT_Q_ERRORS]);
	}
}

static json_t *
__port_json(const struct stats_snapshot *snap)
{
	json_t *a = json_array();
	unsigned int i, f, q, x;

	for (i = 0; i < snap->n_ports; i++) {
		const struct stats_port *p = &snap->ports[i];
		json_t *st = json_object(), *qs = json_array(), *xs = json_object();

		for (f = 0; f < STATS_PORT_F_MAX; f++)
			if (__has_kernel(p, f))
				json_object_set_new(st, stats_port_field_name(f),
						    export_json_u64(p->v[f]));
		for (q = 0; q < p->nb_rxq; q++) {
			json_t *o = json_pack("{s:i}", "queue", (int)q);

			for (f = 0; f < STATS_PORT_Q_MAX; f++)
				json_object_set_new(o, stats_port_qfield_name(f),
						    export_json_u64(p->q[q][f]));
			json_array_append_new(qs, o);
		}
		for (x = 0; x < p->n_xstats; x++)
			json_object_set_new(xs, p->xstat_names[x],
					    export_json_u64(p->xstats[x]));
		json_array_append_new(
			a, json_pack("{s:i, s:s, s:s, s:s, s:o, s:o, "
				     "s:o, s:o, s:o, s:o, s:o, s:i, s:i}",
				     "port", (int)p->port_id, "driver", p->driver, "name",
				     p->name, "iface", p->iface, "kernel",
				     p->kernel ? json_string(p->kernel) : json_null(),
				     "dropped", export_json_u64(stats_port_dropped(p->v)),
				     "rx_packets", export_json_u64(p->rx_packets_v),
				     "rx_packets_raw", export_json_u64(p->rx_packets),
				     "stats", st, "queues", qs, "xstats", xs, "nb_rxq",
				     (int)p->nb_rxq, "nb_rxd", (int)p->nb_rxd));
	}
	return a;
}

static void
__port_prom(FILE *out, const struct stats_snapshot *snap,
	    const struct export_prom_opts *o __rte_unused)
{
	static const char *const help[STATS_PORT_F_MAX] = {
		[STATS_PORT_IPACKETS] = "Frames the port delivered (rte_eth_stats ipackets)",
		[STATS_PORT_IBYTES] = "Bytes the port delivered (rte_eth_stats ibytes)",
		[STATS_PORT_IMISSED] = "Frames the device dropped, RX queue full (rte_eth_stats imissed)",
		[STATS_PORT_IERRORS] = "Erroneous frames dropped by the port (rte_eth_stats ierrors)",
		[STATS_PORT_RX_NOMBUF] = "Frames dropped for want of an mbuf (rte_eth_stats rx_nombuf)",
		[STATS_PORT_KERNEL_PACKETS] = "Frames the kernel offered the PMD (net_af_packet tp_packets; net_tap tx_packets + tx_dropped)",
		[STATS_PORT_KERNEL_DROPS] = "Frames the kernel dropped before the PMD (net_af_packet tp_drops; net_tap tx_dropped)",
	};
	static const char *const qhelp[STATS_PORT_Q_MAX] = {
		"Frames delivered by the RX queue (rte_eth_stats q_ipackets)",
		"Bytes delivered by the RX queue (rte_eth_stats q_ibytes)",
		"Errors of the RX queue (rte_eth_stats q_errors)",
	};
	char name[64];
	unsigned int i, f, q, x, n;

	if (snap->n_ports == 0)
		return;
	__export_prom_family(out, "port_info", "gauge", "An ethdev port pktpath receives from, always 1");
	for (i = 0; i < snap->n_ports; i++) {
		const struct stats_port *p = &snap->ports[i];

		fprintf(out, "pktpath_port_info{port=\"%u\",driver=\"", p->port_id);
		__export_prom_escape(out, p->driver);
		fputs("\",name=\"", out);
		__export_prom_escape(out, p->name);
		fputs("\",iface=\"", out);
		__export_prom_escape(out, p->iface);
		fprintf(out, "\",rx_queues=\"%u\"} 1\n", p->nb_rxq);
	}
	for (f = 0; f < STATS_PORT_F_MAX; f++) {
		bool head = false;

		for (i = 0; i < snap->n_ports; i++) {
			const struct stats_port *p = &snap->ports[i];

			if (!__has_kernel(p, f))
				continue;
			if (!head) {
				snprintf(name, sizeof(name), "port_%s_total",
					 stats_port_field_name(f));
				__export_prom_family(out, name, "counter", help[f]);
				head = true;
			}
			fprintf(out, "pktpath_port_%s_total{port=\"%u\"} %" PRIu64 "\n",
				stats_port_field_name(f), p->port_id, p->raw[f]);
		}
	}
	__export_prom_family(out, "port_dropped_total", "counter", "Frames the port dropped "
	      "before pktpath saw them: imissed + ierrors + rx_nombuf + kernel_drops");
	for (i = 0; i < snap->n_ports; i++)
		fprintf(out, "pktpath_port_dropped_total{port=\"%u\"} %" PRIu64 "\n",
			snap->ports[i].port_id, stats_port_dropped(snap->ports[i].raw));
	for (f = 0; f < STATS_PORT_Q_MAX; f++) {
		snprintf(name, sizeof(name), "port_%s_total", stats_port_qfield_name(f));
		__export_prom_family(out, name, "counter", qhelp[f]);
		for (i = 0; i < snap->n_ports; i++) {
			const struct stats_port *p = &snap->ports[i];

			for (q = 0; q < p->nb_rxq; q++)
				fprintf(out, "pktpath_%s{port=\"%u\",queue=\"%u\"} %" PRIu64
					"\n", name, p->port_id, q, p->q_raw[q][f]);
		}
	}
	__export_prom_family(out, "port_xstat_total", "counter", "The PMD's extended statistics "
	      "(rte_eth_xstats_get), those named rx_*, at most 64 per port");
	for (i = 0; i < snap->n_ports; i++) {
		const struct stats_port *p = &snap->ports[i];

		for (x = 0, n = 0; x < p->n_xstats && n < PROM_MAX_XSTATS; x++) {
			if (strncmp(p->xstat_names[x], "rx_", 3) != 0)
				continue;
			fprintf(out, "pktpath_port_xstat_total{port=\"%u\",name=\"",
				p->port_id);
			__export_prom_escape(out, p->xstat_names[x]);
			fprintf(out, "\"} %" PRIu64 "\n", p->xstats_raw[x]);
			n++;
		}
	}
}

static void
__port_netstat(FILE *out, const struct stats_snapshot *snap, enum export_snmp_file which)
{
	unsigned int i, f;

	if (which != EXPORT_NETSTAT)
		return;
	for (i = 0; i < snap->n_ports; i++) {
		const struct stats_port *p = &snap->ports[i];

		fprintf(out, "Port%u:", p->port_id);
		for (f = 0; f < STATS_PORT_F_MAX; f++)
			fprintf(out, " %s", stats_port_field_name(f));
		fprintf(out, " dropped\nPort%u:", p->port_id);
		for (f = 0; f < STATS_PORT_F_MAX; f++)
			fprintf(out, " %" PRIu64, p->v[f]);
		fprintf(out, " %" PRIu64 "\n", stats_port_dropped(p->v));
	}
}

/* JSON: "ports" (--source port). */
static void
__port_json_root(json_t *root, const struct stats_snapshot *snap)
{
	if (snap->n_ports > 0)
		json_object_set_new(root, "ports", __port_json(snap));
}

const struct export_section __export_section_ports = {
	.name = "ports",
	.interval = __port_print_interval,
	.interval_at = EXPORT_AT_END,
	.summary = __port_print_summary,
	.summary_at = EXPORT_AT_DROPS,
	.json = __port_json_root,
	.json_at = EXPORT_AT_END,
	.prom = __port_prom,
	.prom_at = EXPORT_AT_END,
	.snmp = __port_netstat,
};
