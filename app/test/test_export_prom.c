/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/export's text writers (prom.c, memory.c): the
 * /proc/net/snmp and /netstat layouts checked field by field, the
 * Prometheus families (raw counters, gauges, per-lcore and per-mode
 * series, run info, memory gauges, --perf-detail histograms and their
 * clear), each text through promtool when it is
 * installed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include <cmocka.h>

#include <rte_malloc.h>

#include "fixture_export.h"

static void
test_writers(void **state)
{
	static const enum export_snmp_file which[] = { EXPORT_SNMP, EXPORT_NETSTAT };
	struct export_prom_opts o = { info, NULL, true, NULL };
	struct stats_snapshot *snap;
	unsigned int i, icmpmsg = 0;
	char *t;

	(void)state;
	snap = stats_get(st);
	/* IcmpMsg prints only its non-zero types, as Linux does */
	for (i = 0; i < MIB_ICMPMSG_MAX; i++)
		icmpmsg += snap->totals[MIB_ICMPMSG_IN(i)] != 0;
	t = render(w_snmp, &which[0]);
	assert_true(strncmp(t, "Ip: Forwarding DefaultTTL InReceives", 36) == 0);
	assert_non_null(strstr(t, "\nIp: 2 64 "));
	assert_non_null(strstr(t, "Tcp: 1 200 120000 -1 "));
	assert_non_null(strstr(t, "\nUdpLite: InDatagrams NoPorts "));
	assert_int_equal(snmp_check(t, snap->totals), MIB_IP_MAX + MIB_ICMP_MAX +
			 icmpmsg + MIB_TCP_MAX + MIB_UDP_MAX + MIB_UDPLITE_MAX);
	free(t);
	t = render(w_snmp, &which[1]);
	assert_true(strncmp(t, "IpExt: InNoRoutes InTruncatedPkts", 33) == 0);
	assert_int_equal(snmp_check(t, snap->totals),
			 MIB_BASE_IP6 - (MIB_IP_MAX + MIB_ICMP_MAX + MIB_ICMPMSG_MAX +
					 MIB_TCP_MAX + MIB_UDP_MAX + MIB_UDPLITE_MAX));
	free(t);

	t = render(w_prom, &o);
	assert_true(prom_value(t, "pktpath_mib_total{group=\"Ip\",field=\"InReceives\"}")
		    == (double)snap->raw_totals[MIB_F(IP, INRECEIVES)]);
	assert_true(prom_value(t, "pktpath_mib_value{group=\"Tcp\",field=\"MaxConn\"}")
		    == -1);
	assert_true(prom_value(t, "pktpath_lcore_packets_total{lcore=\"2\"}") ==
		    (double)snap->raw_per_block[MIB_FIELD_MAX + MIB_F(RX, PACKETS)]);
	assert_true(prom_value(t, "pktpath_lcore_drops_total{lcore=\"1\"}") == 10);
	assert_true(prom_value(t, "pktpath_ingress_grace_period_max_seconds") ==
		    250e-6);
	assert_non_null(strstr(t, "pktpath_lcore_mib_total{lcore=\"1\",group=\"Ip\","
			       "field=\"InHdrErrors\"} 10\n"));
	{
		/* a family that is one field has the field's help */
		const char *h = mib_field_help(MIB_F(RX, PACKETS));
		char want[256];

		snprintf(want, sizeof(want), "# HELP pktpath_lcore_packets_total %c%s "
			 "(Rx RxPackets)\n", toupper((unsigned char)h[0]), h + 1);
		assert_non_null(strstr(t, want));
	}
	assert_non_null(strstr(t, "pktpath_info{mode=\"off\",version=\"0.1.0\","
			       "dpdk=\"DPDK 22.11.11\",fold=\"lcore\""));
	assert_non_null(strstr(t, "cpu=\"Test \\\"CPU\\\"\",microcode=\"0x1\","
			       "kernel=\"6.1.0\",compiler=\"gcc 12\"} 1\n"));
	/* the run's conditions that make its figures noisier, one each */
	assert_non_null(strstr(t, "pktpath_condition_warning{warning=\"lcore 1 not "
			       "\\\"isolated\\\"\"} 1\n"));
	assert_non_null(strstr(t, "pktpath_condition_warning{warning=\"turbo on\"} 1\n"));
	promtool_ok(t);
	free(t);
	o.lcore_mib = false;
	o.info = NULL;
	t = render(w_prom, &o);
	assert_null(strstr(t, "pktpath_lcore_mib_total"));
	promtool_ok(t);
	free(t);
	stats_put(st, snap);
}

/*
 * The field of a /proc/net/snmp6 line's name: a group's field under its
 * snmp6 name, or an ICMPv6 type by name (Icmp6InEchos) or by number
 * (Icmp6OutType129); MIB_FIELD_MAX for none.
 */
static unsigned int
__snmp6_field(const char *name)
{
	unsigned int f, t;
	char n[64];

	for (f = MIB_BASE_IP6; f < MIB_FIELD_MAX; f++)
		if (mib_field_group(f) != MIB_GRP_ICMP6MSG &&
		    strcmp(mib_field_linux_name(f, n, sizeof(n)), name) == 0)
			return f;
	for (t = 0; t < 256; t++) {
		const char *tn = mib_icmp6_type_name(t);

		snprintf(n, sizeof(n), "Icmp6InType%u", t);
		if (strcmp(n, name) == 0)
			return MIB_ICMP6MSG_IN(t);
		snprintf(n, sizeof(n), "Icmp6OutType%u", t);
		if (strcmp(n, name) == 0)
			return MIB_ICMP6MSG_OUT(t);
		if (tn == NULL)
			continue;
		snprintf(n, sizeof(n), "Icmp6In%s", tn);
		if (strcmp(n, name) == 0)
			return MIB_ICMP6MSG_IN(t);
		snprintf(n, sizeof(n), "Icmp6Out%s", tn);
		if (strcmp(n, name) == 0)
			return MIB_ICMP6MSG_OUT(t);
	}
	return MIB_FIELD_MAX;
}

/* /snmp6: /proc/net/snmp6's layout (net/ipv6/proc.c) of random totals:
 * "%-32s\t%lu" lines, every field once under its name, the named ICMPv6
 * types always, the by-number ones when not zero, UdpLite6 without
 * IgnoredMulti; the same as a snapshot from the stats thread's fold. */
static void
test_snmp6(void **state)
{
	static struct stats_snapshot snap;
	unsigned int f, t, n = 0, named = 0, types = 0, last = 0;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	uint64_t seed = 42;
	FILE *fp;

	(void)state;
	for (f = 0; f < MIB_FIELD_MAX; f++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		snap.totals[f] = (seed >> 33) % 3 == 0 ? 0 : seed >> 40;
	}
	for (t = 0; t < 512; t++) {
		named += mib_icmp6_type_name(t & 0xff) != NULL;
		types += snap.totals[MIB_BASE_ICMP6MSG + t] != 0;
	}
	assert_int_equal(named, 30);
	fp = open_memstream(&buf, &len);
	assert_int_equal(export_snmp_write(fp, &snap, EXPORT_SNMP6), 0);
	fclose(fp);
	assert_true(strncmp(buf, "Ip6InReceives                   \t", 33) == 0);
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		unsigned long long v;
		int k = 0;

		assert_int_equal(sscanf(line, "%63s%n", name, &k), 1);
		/* the name, padded to 32, a tab, the value */
		assert_true(k <= 32 && line[32] == '\t');
		assert_int_equal(strspn(line + k, " "), 32 - (size_t)k);
		v = strtoull(line + 33, NULL, 10);
		f = __snmp6_field(name);
		if (f == MIB_FIELD_MAX)
			fail_msg("/snmp6: unknown line \"%s\"", line);
		assert_int_equal(v, snap.totals[f]);
		assert_true(f != MIB_F(UDPLITE6, IGNOREDMULTI));
		/* in order, but for the ICMPv6 types (names, then numbers) */
		if (mib_field_group(f) != MIB_GRP_ICMP6MSG) {
			assert_true(f > last || n == 0);
			last = f;
		}
		n++;
	}
	assert_int_equal(n, MIB_IP6_MAX + MIB_ICMP6_MAX + named + types + MIB_UDP6_MAX +
				    MIB_UDPLITE6_MAX - 1);
	free(buf);
	{
		/* the stats thread's snapshot: its totals */
		static const enum export_snmp_file w = EXPORT_SNMP6;
		char *t6 = render(w_snmp, &w);

		assert_true(strncmp(t6, "Ip6InReceives", 13) == 0);
		assert_non_null(strstr(t6, "\nUdpLite6MemErrors               \t"));
		assert_null(strstr(t6, "UdpLite6IgnoredMulti"));
		free(t6);
	}
}

/* /metrics: the per-mode families, for the modes the run offers. */
static void
test_mode_metrics(void **state)
{
	json_t *ing = hk_state(NULL);	/* modes off, lock, rcu */
	struct export_prom_opts o = { info, ing, false, NULL };
	struct mib_block b = mib_set_block(set, 1);
	struct stats_snapshot *snap;
	char want[256], *t;
	double hz;

	(void)state;
	mib_add(&b, MIB_MODE_F(2, MIB_MODE_K_PACKETS), 777);
	mib_add(&b, MIB_MODE_F(2, MIB_MODE_K_BUSY), 5000);
	mib_add(&b, MIB_MODE_F(2, MIB_MODE_K_IDLE), 1000);
	mib_add(&b, MIB_MODE_F(1, MIB_MODE_K_PACKETS), 5);	/* none: not offered */
	stats_fold_now(st);
	snap = stats_get(st);
	hz = (double)snap->tsc_hz;
	assert_true(hz > 0);
	t = render(w_prom, &o);
	assert_non_null(strstr(t, "# TYPE pktpath_lcore_mode_packets_total counter\n"));
	assert_non_null(strstr(t, "pktpath_lcore_mode_packets_total{lcore=\"2\",mode=\"lock\"} 777\n"));
	assert_non_null(strstr(t, "pktpath_lcore_mode_packets_total{lcore=\"1\",mode=\"rcu\"} 0\n"));
	assert_non_null(strstr(t, "pktpath_lcore_mode_busy_cycles_total{lcore=\"2\",mode=\"lock\"} 5000\n"));
	snprintf(want, sizeof(want), "pktpath_lcore_mode_seconds_total{lcore=\"2\","
		 "mode=\"lock\"} %.10g\n", 6000.0 / hz);
	assert_non_null(strstr(t, want));
	assert_null(strstr(t, "mode=\"none\""));
	assert_non_null(strstr(t, "pktpath_mib_total{group=\"Mode\",field=\"ModeNonePackets\"} "));
	promtool_ok(t);
	free(t);
	stats_put(st, snap);
	json_decref(ing);
}

/* The memory gauges: real readings move with a real allocation; the
 * families print exactly what they are given. */
static void
test_memory(void **state)
{
	const struct export_memory fixed = { 123 << 20, 4567, 89, true };
	struct export_prom_opts o = { NULL, NULL, false, &fixed };
	struct export_memory m0, m1, m2;
	const size_t big = 8u << 20;
	char *p, *e, *t;

	(void)state;
	assert_int_equal(export_memory_read(NULL, false), -EINVAL);
	assert_int_equal(export_memory_read(&m0, true), 0);
	assert_true(m0.rss_bytes > 0 && m0.heap_bytes > 0 && m0.eal);
	assert_true(m0.eal_heap_bytes > 0);	/* the stats blocks, at least */
	p = malloc(big);
	assert_non_null(p);
	memset(p, 1, big);
	e = rte_malloc("test_memory", 1u << 20, 0);
	assert_non_null(e);
	assert_int_equal(export_memory_read(&m1, true), 0);
	assert_true(m1.heap_bytes >= m0.heap_bytes + big);
	assert_true(m1.eal_heap_bytes >= m0.eal_heap_bytes + (1u << 20));
	assert_true(m1.rss_bytes >= m0.rss_bytes + big / 2);
	free(p);
	rte_free(e);
	assert_int_equal(export_memory_read(&m2, false), 0);
	assert_true(m2.heap_bytes < m1.heap_bytes - big / 2);
	assert_false(m2.eal);

	t = render(w_prom, &o);
	assert_non_null(strstr(t, "# TYPE pktpath_resident_memory_bytes gauge\n"
				  "pktpath_resident_memory_bytes 128974848\n"));
	assert_non_null(strstr(t, "# TYPE pktpath_heap_inuse_bytes gauge\n"
				  "pktpath_heap_inuse_bytes{allocator=\"malloc\"} 4567\n"
				  "pktpath_heap_inuse_bytes{allocator=\"rte_malloc\"} 89\n"));
	free(t);
	o.mem = NULL;
	t = render(w_prom, &o);
	assert_null(strstr(t, "pktpath_heap_inuse_bytes"));
	assert_null(strstr(t, "pktpath_resident_memory_bytes"));
	free(t);
}

/* What writer k writes of snap: /snmp, /netstat, /metrics' MIB families
 * (the lines of pktpath_mib_* and pktpath_drops_total; the others say how
 * the snapshot was made), or /stats.json's "mib" and "mib_lcores". */
static char *
__fold_render(const struct stats_snapshot *snap, unsigned int k)
{
	char *buf = NULL, *out, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *j, *part;

	assert_non_null(f);
	switch (k) {
	case 0:
		assert_int_equal(export_snmp_write(f, snap, EXPORT_SNMP), 0);
		break;
	case 1:
		assert_int_equal(export_snmp_write(f, snap, EXPORT_NETSTAT), 0);
		break;
	case 2:
		assert_int_equal(export_prom_write(f, snap, NULL), 0);
		break;
	default:
		j = export_json(snap, NULL, NULL, true);
		part = json_pack("{s:O, s:O, s:O}", "mib", json_object_get(j, "mib"),
				 "mib_lcores", json_object_get(j, "mib_lcores"),
				 "lcores", json_object_get(j, "lcores"));
		json_dumpf(part, f, JSON_SORT_KEYS);
		json_decref(part);
		json_decref(j);
	}
	assert_int_equal(fclose(f), 0);
	if (k != 2)
		return buf;
	out = calloc(1, len + 1);
	assert_non_null(out);
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "pktpath_mib_", 12) == 0 ||
		    strncmp(line, "pktpath_drops_total", 19) == 0 ||
		    strncmp(line, "pktpath_lcore_packets", 21) == 0) {
			strcat(out, line);
			strcat(out, "\n");
		}
	free(buf);
	return out;
}

/*
 * --fold-on-read, workers stopped (nothing writes the blocks): every
 * reader's own fold answers exactly what the snapshot answers, before and
 * after a clear, in both fold strategies and with phantom blocks.
 */
static void
test_fold_on_read(void **state)
{
	unsigned int fo, k, w, round;

	(void)state;
	for (fo = 0; fo < MIB_FOLD_MAX; fo++) {
		struct mib_set *ms = mib_set_create(NW + 1 + 61, MIB_LAYOUT_PERCPU,
						    NULL);
		struct stats_conf sc;
		struct stats *s;

		assert_non_null(ms);
		fixture_stats_conf(&sc, ms, 3600, 0, 0);
		sc.fold = (enum mib_fold)fo;
		sc.n_phantom = 61;
		sc.fold_on_read = true;
		s = stats_create(&sc);
		assert_non_null(s);
		assert_int_equal(stats_start(s), 0);
		for (round = 0; round < 3; round++) {
			struct stats_snapshot *snap, *rd;

			for (w = 0; w < NW; w++) {
				struct mib_block b = mib_set_block(ms, w);

				mib_add(&b, MIB_F(RX, PACKETS), 100 + w);
				mib_add(&b, MIB_F(IP, INRECEIVES), 100 + w);
				mib_add(&b, MIB_F(IP, INDELIVERS), 100 + w);
				mib_add(&b, MIB_F(UDP, INDATAGRAMS), 90 + w);
				mib_add(&b, MIB_F(UDP, NOPORTS), 10);
				mib_add(&b, MIB_ICMPMSG_IN(3), w + round);
			}
			if (round == 1)
				stats_clear(s);	/* the baseline applies to both */
			else
				stats_fold_now(s);
			snap = stats_get(s);
			rd = stats_read(s);
			assert_false(snap->read_fold);
			assert_true(rd->read_fold);
			assert_int_equal(rd->read_folds, snap->read_folds + 1);
			for (k = 0; k < 4; k++) {
				char *a = __fold_render(snap, k), *b = __fold_render(rd, k);

				assert_string_equal(a, b);
				free(a);
				free(b);
			}
			stats_put(s, rd);
			stats_put(s, snap);
		}
		stats_stop(s);
		stats_free(s);
		mib_set_free(ms);
	}
}

/* --perf-detail: each fold loads the workers' histograms; /metrics writes
 * them raw as Prometheus histograms (64 cumulative buckets, +Inf, _sum,
 * _count) that never go down across a clear, while the snapshot's and the
 * JSON's count from the clear; the summary covers the run. */
static void
test_perf_hist(void **state)
{
	static struct stats_perf pf[NW];
	struct stats_perf *ptr[NW] = { &pf[0], &pf[1] };
	struct export_prom_opts o = { NULL, NULL, false, NULL };
	struct mib_set *ms;
	struct stats_conf sc;
	struct stats_snapshot *snap;
	struct stats_summary *sum;
	struct stats *s;
	char *t1, *t2;
	json_t *j;
	unsigned int i;
	FILE *f;
	size_t len;

	(void)state;
	memset(pf, 0, sizeof(pf));
	ms = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(ms);
	fixture_stats_conf(&sc, ms, 3600, 0, 0);
	sc.perf = ptr;
	s = stats_create(&sc);
	assert_non_null(s);
	assert_int_equal(stats_start(s), 0);
	for (i = 0; i < 10; i++)
		stats_perf_poll(&pf[0], 3000, 32, 0, 0, 0, false);	/* bin 22: 2048..3071 */
	stats_perf_poll(&pf[0], 9000, 30, 0, 0, 0, false);		/* 8192..12287 */
	stats_perf_poll(&pf[0], 50, 0, 0, 0, 0, false);		/* empty: not counted */
	stats_perf_poll(&pf[1], 100, 1, 0, 0, 0, false);
	stats_fold_now(s);
	snap = stats_get(s);
	assert_non_null(snap->hist);
	assert_int_equal(stats_hist_count(&snap->hist[STATS_PERF_POLL_CYCLES]), 11);
	assert_int_equal(snap->raw_hist[STATS_PERF_POLL_CYCLES].sum, 39000);
	assert_int_equal(snap->hist[STATS_PERF_MAX + STATS_PERF_POLL_PACKETS].max, 1);
	f = open_memstream(&t1, &len);
	assert_int_equal(export_prom_write(f, snap, &o), 0);
	fclose(f);
	j = export_json(snap, NULL, NULL, false);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(
		json_object_get(j, "perf_detail"), "poll_cycles"), "percentiles"), "p50")), 3071);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(
		json_object_get(j, "perf_detail"), "poll_cycles"), "percentiles"), "max")), 9000);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		json_object_get(j, "perf_detail"), "poll_cycles"), "count")), 12);
	json_decref(j);
	stats_put(s, snap);
	assert_true(prom_value(t1, "pktpath_poll_cycles_bucket{lcore=\"1\",le=\"2047\"}") == 0);
	assert_true(prom_value(t1, "pktpath_poll_cycles_bucket{lcore=\"1\",le=\"3071\"}") == 10);
	assert_true(prom_value(t1, "pktpath_poll_cycles_bucket{lcore=\"1\",le=\"12287\"}") == 11);
	assert_true(prom_value(t1, "pktpath_poll_cycles_bucket{lcore=\"1\",le=\"+Inf\"}") == 11);
	assert_true(prom_value(t1, "pktpath_poll_cycles_count{lcore=\"1\"}") == 11);
	assert_true(prom_value(t1, "pktpath_poll_cycles_sum{lcore=\"1\"}") == 39000);
	assert_true(prom_value(t1, "pktpath_poll_packets_bucket{lcore=\"2\",le=\"1\"}") == 1);
	assert_true(prom_value(t1, "pktpath_ingress_burst_cycles_count{lcore=\"2\"}") == 0);
	assert_non_null(strstr(t1, "# TYPE pktpath_poll_packet_cycles histogram\n"));
	promtool_ok(t1);

	/* a clear: the snapshot counts from it, /metrics does not go down */
	stats_clear(s);
	stats_perf_poll(&pf[0], 3000, 32, 0, 0, 0, false);
	stats_fold_now(s);
	snap = stats_get(s);
	assert_int_equal(stats_hist_count(&snap->hist[STATS_PERF_POLL_CYCLES]), 1);
	assert_int_equal(snap->hist[STATS_PERF_POLL_CYCLES].sum, 3000);
	/* the run's max (9000) is not in the window: its bin's bound */
	assert_int_equal(snap->hist[STATS_PERF_POLL_CYCLES].max, 3071);
	assert_int_equal(stats_hist_count(&snap->raw_hist[STATS_PERF_POLL_CYCLES]), 12);
	f = open_memstream(&t2, &len);
	assert_int_equal(export_prom_write(f, snap, &o), 0);
	fclose(f);
	stats_put(s, snap);
	prom_monotonic(t1, t2);
	assert_true(prom_value(t2, "pktpath_poll_cycles_count{lcore=\"1\"}") == 12);
	free(t1);
	free(t2);
	stats_stop(s);
	sum = stats_summary(s);
	assert_non_null(sum);
	assert_non_null(sum->hist);
	assert_int_equal(stats_hist_count(&sum->hist[STATS_PERF_POLL_CYCLES]), 12);
	assert_int_equal(stats_hist_percentile(&sum->hist[STATS_PERF_POLL_CYCLES], 1000000),
			 9000);
	stats_summary_free(sum);
	own_stats_free(s, ms);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writers),	     cmocka_unit_test(test_snmp6),
		cmocka_unit_test(test_mode_metrics), cmocka_unit_test(test_memory),
		cmocka_unit_test(test_fold_on_read), cmocka_unit_test(test_perf_hist),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
