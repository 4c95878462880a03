/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/stats's port counters (port.c, port_export.c): a real
 * net_null port with two RX queues polled by this thread as two "workers"
 * would, sampled by stats_fold_now(); the baseline clear; the JSON, /metrics
 * and /netstat writers; and the conservation check across the port
 * boundary on hand-made snapshots (every branch, with its exact line).
 * EAL without hugepages or PCI.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "mib.h"
#include "export.h"

#define NW 2
static const unsigned int lcores[NW] = { 1, 2 };
static const int worker_port[NW] = { 0, 0 };
static struct mib_set *set;
static struct stats *st;
static struct rte_mempool *mp;
static uint16_t pid;

/* One worker's poll: rx_burst on its queue, counted as worker.c counts. */
static unsigned int
__poll(unsigned int w, unsigned int bursts)
{
	struct mib_block b = mib_set_block(set, w);
	struct rte_mbuf *pkts[32];
	unsigned int i, total = 0;
	uint16_t n;

	for (i = 0; i < bursts; i++) {
		n = rte_eth_rx_burst(pid, (uint16_t)w, pkts, 32);
		mib_add(&b, MIB_F(RX, PACKETS), n);
		mib_add(&b, MIB_F(RX, NOTIP), n);	/* net_null: zeros */
		mib_add(&b, MIB_MODE_F(0, MIB_MODE_K_PACKETS), n); /* no hook: off */
		rte_pktmbuf_free_bulk(pkts, n);
		total += n;
	}
	return total;
}

static int
group_setup(void **state)
{
	char *argv[] = { "test_ports", "--no-huge", "--no-shconf", "-m", "256",
		"--no-pci", "--vdev", "net_null0", "--file-prefix", "test_ports",
		"--log-level", "lib.eal:error", NULL };
	struct rte_eth_conf conf;
	struct stats_port_conf pc;
	struct stats_conf sc;
	uint16_t q;

	(void)state;
	if (rte_eal_init((int)RTE_DIM(argv) - 1, argv) < 0)
		return -1;
	if (rte_eth_dev_get_port_by_name("net_null0", &pid) != 0)
		return -1;
	mp = rte_pktmbuf_pool_create("test_ports", 4096, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	memset(&conf, 0, sizeof(conf));
	if (mp == NULL || rte_eth_dev_configure(pid, NW, 1, &conf) != 0)
		return -1;
	for (q = 0; q < NW; q++)
		if (rte_eth_rx_queue_setup(pid, q, 256, SOCKET_ID_ANY, NULL, mp) != 0)
			return -1;
	if (rte_eth_tx_queue_setup(pid, 0, 256, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(pid) != 0)
		return -1;
	set = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	if (set == NULL)
		return -1;
	pc.port_id = pid;
	pc.nb_rxq = NW;
	pc.nb_rxd = 256;
	memset(&sc, 0, sizeof(sc));
	sc.set = set;
	sc.n_workers = NW;
	sc.lcore_ids = lcores;
	sc.fold = MIB_FOLD_LCORE;
	sc.interval_s = 3600;
	sc.n_ports = 1;
	sc.ports = &pc;		/* copied by stats_create */
	sc.worker_port = worker_port;
	st = stats_create(&sc);
	return st == NULL || stats_start(st) != 0 ? -1 : 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	stats_stop(st);
	stats_free(st);
	mib_set_free(set);
	rte_eth_dev_stop(pid);
	rte_eth_dev_close(pid);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}

static char *
__write(int (*fn)(FILE *, const struct stats_snapshot *), const struct stats_snapshot *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, s), 0);
	fclose(f);
	return buf;
}

static int
__prom(FILE *f, const struct stats_snapshot *s)
{
	return export_prom_write(f, s, NULL);
}

static int
__netstat(FILE *f, const struct stats_snapshot *s)
{
	return export_snmp_write(f, s, EXPORT_NETSTAT);
}

static void
test_sample(void **state)
{
	struct stats_snapshot *s;
	const struct stats_port *p;
	unsigned int a, b, x;
	char line[1024], want[256], *txt;
	json_t *j, *jp;
	bool good = false;

	(void)state;
	a = __poll(0, 10);
	b = __poll(1, 3);
	stats_fold_now(st);
	s = stats_get(st);
	assert_int_equal(s->n_ports, 1);
	p = &s->ports[0];
	assert_true(p->sampled);
	assert_string_equal(p->driver, "net_null");
	assert_string_equal(p->name, "net_null0");
	assert_null(p->kernel);
	assert_int_equal(p->raw[STATS_PORT_IPACKETS], a + b);
	assert_int_equal(p->v[STATS_PORT_IPACKETS], a + b);
	assert_int_equal(p->q_raw[0][STATS_PORT_Q_IPACKETS], a);
	assert_int_equal(p->q_raw[1][STATS_PORT_Q_IPACKETS], b);
	assert_int_equal(p->rx_packets, a + b);
	assert_int_equal(stats_port_dropped(p->raw), 0);
	for (x = 0; x < p->n_xstats; x++)
		if (strcmp(p->xstat_names[x], "rx_good_packets") == 0)
			good = p->xstats_raw[x] == a + b;
	assert_true(good);
	assert_int_equal(stats_port_check(s, line, sizeof(line), NULL), 0);
	snprintf(want, sizeof(want), "port %u: ipackets %u = RxPackets %u", pid,
		 a + b, a + b);
	assert_string_equal(line, want);
	assert_int_equal(stats_conservation(s, line, sizeof(line)), 0);
	assert_true(strncmp(line, "ok; port", 8) == 0);

	j = export_json(s, NULL, NULL, false);
	jp = json_array_get(json_object_get(j, "ports"), 0);
	assert_non_null(jp);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(jp, "stats"),
		"ipackets")), a + b);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
		json_object_get(jp, "queues"), 1), "q_ipackets")), b);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(jp, "xstats"),
		"rx_good_packets")), a + b);
	json_decref(j);
	txt = __write(__prom, s);
	snprintf(want, sizeof(want), "pktpath_port_ipackets_total{port=\"%u\"} %u\n",
		 pid, a + b);
	assert_non_null(strstr(txt, want));
	snprintf(want, sizeof(want), "pktpath_port_q_ipackets_total{port=\"%u\",queue=\"1\"} %u\n",
		 pid, b);
	assert_non_null(strstr(txt, want));
	assert_non_null(strstr(txt, "pktpath_port_xstat_total{port=\"0\",name=\"rx_good_packets\"}"));
	assert_null(strstr(txt, "pktpath_port_kernel_drops_total{"));	/* no kernel side */
	free(txt);
	stats_put(st, s);

	/* Clear: since-clear values restart, raw ones do not. */
	stats_clear(st);
	a = __poll(0, 2);
	stats_fold_now(st);
	s = stats_get(st);
	p = &s->ports[0];
	assert_int_equal(p->v[STATS_PORT_IPACKETS], a);
	assert_int_equal(p->q[0][STATS_PORT_Q_IPACKETS], a);
	assert_int_equal(p->q[1][STATS_PORT_Q_IPACKETS], 0);
	assert_int_equal(p->rx_packets_v, a);
	assert_true(p->raw[STATS_PORT_IPACKETS] > a);
	txt = __write(__netstat, s);
	snprintf(want, sizeof(want), "Port%u: ipackets ibytes imissed ierrors rx_nombuf "
		 "kernel_packets kernel_drops dropped\nPort%u: %u 0 0 0 0 0 0 0\n", pid,
		 pid, a);
	assert_non_null(strstr(txt, want));
	free(txt);
	stats_put(st, s);

	/* A worker that counts frames the port never delivered: broken. */
	{
		struct mib_block w0 = mib_set_block(set, 0);

		mib_add(&w0, MIB_F(RX, PACKETS), 5);
		mib_add(&w0, MIB_F(RX, NOTIP), 5);
		mib_add(&w0, MIB_MODE_F(0, MIB_MODE_K_PACKETS), 5);
		stats_fold_now(st);
		s = stats_get(st);
		assert_int_equal(stats_port_check(s, line, sizeof(line), NULL), -1);
		snprintf(want, sizeof(want), "port %u: ipackets %" PRIu64 " != RxPackets %"
			 PRIu64 " of its workers", pid, s->ports[0].raw[STATS_PORT_IPACKETS],
			 s->ports[0].rx_packets);
		assert_string_equal(line, want);
		assert_int_equal(stats_conservation(s, line, sizeof(line)), -1);
		assert_true(strncmp(line, "BROKEN: port", 12) == 0);
		stats_put(st, s);
	}
}

/* A hand-made snapshot with one port and MIB totals that conserve. */
static struct stats_snapshot *
__ports_snap(const char *driver, uint64_t ip, uint64_t rx, uint64_t missed,
       uint64_t kdrops, const char *kernel)
{
	struct stats_snapshot *s = calloc(1, sizeof(*s));
	struct stats_port *p = calloc(1, sizeof(*p));

	assert_non_null(s);
	assert_non_null(p);
	s->raw_totals = calloc(MIB_FIELD_MAX, sizeof(uint64_t));
	assert_non_null(s->raw_totals);
	s->raw_totals[MIB_F(RX, PACKETS)] = rx;
	s->raw_totals[MIB_F(RX, NOTIP)] = rx;
	s->raw_totals[MIB_MODE_F(0, MIB_MODE_K_PACKETS)] = rx;
	p->port_id = 3;
	p->nb_rxq = 2;
	p->nb_rxd = 512;
	p->driver = driver;
	p->name = "x";
	p->iface = "";
	p->kernel = kernel;
	p->raw[STATS_PORT_IPACKETS] = ip;
	p->raw[STATS_PORT_IMISSED] = missed;
	p->raw[STATS_PORT_KERNEL_DROPS] = kdrops;
	p->rx_packets = rx;
	p->sampled = true;
	s->n_ports = 1;
	s->ports = p;
	return s;
}

static void
__ports_snap_free(struct stats_snapshot *s)
{
	free(s->ports);
	free(s->raw_totals);
	free(s);
}

static void
test_check(void **state)
{
	static const struct {
		const char *driver;
		uint64_t ip, rx, missed, kdrops;
		int rc;
		const char *port_line, *line;
	} cases[] = {
		{ "net_af_packet", 512, 512, 0, 4488, 0,
		  "port 3: ipackets 512 = RxPackets 512; dropped before pktpath: 4488 "
		  "(port 3 kernel_drops 4488)",
		  "ok; port 3: ipackets 512 = RxPackets 512; dropped before pktpath: "
		  "4488 (port 3 kernel_drops 4488)" },
		/* a software PMD counts in rx_burst: any difference is a bug */
		{ "net_af_packet", 513, 512, 0, 0, -1,
		  "port 3: ipackets 513 != RxPackets 512 of its workers",
		  "BROKEN: port 3: ipackets 513 != RxPackets 512 of its workers" },
		/* a NIC counts on arrival: up to 2 x 512 may be left unpolled */
		{ "net_ixgbe", 1100, 100, 7, 0, 0,
		  "port 3: ipackets 1100 = RxPackets 100 + 1000 not polled at stop "
		  "(at most 2 queues x 512 descriptors); dropped before pktpath: 7 "
		  "(port 3 imissed 7)",
		  "ok; port 3: ipackets 1100 = RxPackets 100 + 1000 not polled at stop "
		  "(at most 2 queues x 512 descriptors); dropped before pktpath: 7 "
		  "(port 3 imissed 7)" },
		{ "net_ixgbe", 1125, 100, 0, 0, -1,
		  "port 3: ipackets 1125 != RxPackets 100 of its workers",
		  "BROKEN: port 3: ipackets 1125 != RxPackets 100 of its workers" },
		{ "net_ixgbe", 90, 100, 0, 0, -1,
		  "port 3: ipackets 90 != RxPackets 100 of its workers",
		  "BROKEN: port 3: ipackets 90 != RxPackets 100 of its workers" },
		{ "net_foo", 0, 100, 0, 0, 0,
		  "port 3: the PMD reports no ipackets (RxPackets 100)",
		  "ok; port 3: the PMD reports no ipackets (RxPackets 100)" },
	};
	char line[1024];
	uint64_t dropped;
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct stats_snapshot *s = __ports_snap(cases[i].driver, cases[i].ip,
			cases[i].rx, cases[i].missed, cases[i].kdrops,
			cases[i].kdrops ? "k" : NULL);

		assert_int_equal(stats_port_check(s, line, sizeof(line), &dropped),
				 cases[i].rc);
		assert_string_equal(line, cases[i].port_line);
		if (cases[i].rc == 0)
			assert_int_equal(dropped, cases[i].missed + cases[i].kdrops);
		assert_int_equal(stats_conservation(s, line, sizeof(line)), cases[i].rc);
		assert_string_equal(line, cases[i].line);
		__ports_snap_free(s);
	}
	/* The MIB broken and the port dropping: both are said. */
	{
		struct stats_snapshot *s = __ports_snap("net_tap", 10, 10, 0, 3, "k");

		s->raw_totals[MIB_F(RX, NOTIP)] = 9;
		assert_int_equal(stats_conservation(s, line, sizeof(line)), -1);
		assert_non_null(strstr(line, "BROKEN: RxPackets 10 != "));
		assert_non_null(strstr(line, "dropped before pktpath: 3 (port 3 kernel_drops 3)"));
		__ports_snap_free(s);
	}
	/* The fifth law (the Mode group's packets) is one of the MIB laws. */
	{
		struct stats_snapshot *s = __ports_snap("net_tap", 10, 10, 0, 0, NULL);

		s->raw_totals[MIB_MODE_F(0, MIB_MODE_K_PACKETS)] = 9;
		assert_int_equal(stats_conservation(s, line, sizeof(line)), -1);
		assert_string_equal(line, "BROKEN: RxPackets 10 != Mode packets "
			"(ModeOffPackets + ... + ModeRcuPackets) 9");
		__ports_snap_free(s);
	}
	/* A live snapshot: the port and the MIB may be off by what is in
	 * flight (the workers flush their Rx counters every few polls), not
	 * by more; the final one is exact. */
	{
		struct stats_snapshot *s = __ports_snap("net_af_packet", 540, 512, 0, 0, NULL);

		s->inflight_max = 100;
		assert_int_equal(stats_port_check(s, line, sizeof(line), NULL), 0);
		assert_string_equal(line, "port 3: ipackets 540 ~ RxPackets 512 (live: "
			"within 100 in flight)");
		assert_int_equal(stats_conservation(s, line, sizeof(line)), 0);
		assert_string_equal(line, "ok; port 3: ipackets 540 ~ RxPackets 512 "
			"(live: within 100 in flight)");
		s->ports[0].raw[STATS_PORT_IPACKETS] = 613;
		assert_int_equal(stats_port_check(s, line, sizeof(line), NULL), -1);
		assert_string_equal(line, "port 3: ipackets 613 != RxPackets 512 of its workers");
		s->ports[0].raw[STATS_PORT_IPACKETS] = 540;
		s->final = true;
		assert_int_equal(stats_conservation(s, line, sizeof(line)), -1);
		assert_string_equal(line, "BROKEN: port 3: ipackets 540 != RxPackets 512 "
			"of its workers");
		__ports_snap_free(s);
	}
	/* Names */
	assert_string_equal(stats_port_field_name(STATS_PORT_RX_NOMBUF), "rx_nombuf");
	assert_string_equal(stats_port_field_name(STATS_PORT_F_MAX), "?");
	assert_string_equal(stats_port_qfield_name(STATS_PORT_Q_ERRORS), "q_errors");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
