/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/stats: rate arithmetic, fold/baseline/clear over a MIB
 * set filled by hand, snapshot reference counting, the text writers, the
 * HTTP endpoint (every endpoint and error, slow and vanishing clients,
 * connection limits; plain sockets, no HTTP library) and the DPDK telemetry
 * commands over the real telemetry socket.
 *
 * EAL runs without hugepages or PCI; the stats thread runs with a one-hour
 * interval so that every snapshot is taken by stats_fold_now() here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <inttypes.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include "mib.h"
#include "export.h"

#define NW 2
static const unsigned int lcores[NW] = { 1, 2 };
static struct mib_set *set;
static struct stats *st;
static json_t *info;

/* ---- hooks: a fake ingress ---- */

static pthread_mutex_t hk_lock = PTHREAD_MUTEX_INITIALIZER;
static char hk_mode[32] = "off";
static int hk_mode_calls, hk_rules_calls;

static int
hk_set_mode(void *arg, const char *mode, char *err, size_t len)
{
	(void)arg;
	/* "slow": a flip that waits 1.5 s (a long grace period) */
	if (strcmp(mode, "slow") == 0) {
		usleep(1500 * 1000);
		return 0;
	}
	if (strcmp(mode, "off") && strcmp(mode, "lock") && strcmp(mode, "rcu")) {
		snprintf(err, len, "unknown mode '%s' (off|lock|rcu)", mode);
		return -EINVAL;
	}
	pthread_mutex_lock(&hk_lock);
	snprintf(hk_mode, sizeof(hk_mode), "%s", mode);
	hk_mode_calls++;
	pthread_mutex_unlock(&hk_lock);
	return 0;
}

static int
hk_load_rules(void *arg, const char *body, size_t len, char *err, size_t elen)
{
	(void)arg;
	assert_int_equal(strlen(body), len);	/* NUL-terminated by the server */
	if (strncmp(body, "rule ", 5) != 0) {
		snprintf(err, elen, "line 1: expected 'rule'");
		return -EINVAL;
	}
	__atomic_add_fetch(&hk_rules_calls, 1, __ATOMIC_RELAXED);
	return 0;
}

static json_t *
hk_state(void *arg)
{
	json_t *j;

	(void)arg;
	pthread_mutex_lock(&hk_lock);
	j = json_pack("{s:s, s:[s,s,s], s:s}", "mode", hk_mode, "modes", "off",
		      "lock", "rcu", "scope", "burst");
	pthread_mutex_unlock(&hk_lock);
	return j;
}

static const struct export_hooks hooks = {
	hk_set_mode, hk_load_rules, hk_state, NULL };

/* ---- fixture ---- */

static void
fill(unsigned int w, uint64_t pkts, uint64_t hdrerr)
{
	struct mib_block b = mib_set_block(set, w);

	mib_add(&b, MIB_F(RX, PACKETS), pkts);
	mib_add(&b, MIB_F(RX, OCTETS), pkts * 60);
	mib_add(&b, MIB_F(RX, BURSTS), pkts / 32);
	mib_add(&b, MIB_F(RX, BUSYCYCLES), pkts * 100);
	mib_add(&b, MIB_F(RX, IDLECYCLES), pkts * 10);
	mib_add(&b, MIB_F(IP, INRECEIVES), pkts);
	mib_add(&b, MIB_F(IP, INHDRERRORS), hdrerr);
	mib_add(&b, MIB_F(IP, INDELIVERS), pkts - hdrerr);
	mib_add(&b, MIB_F(UDP, INDATAGRAMS), pkts - hdrerr);
	mib_add(&b, MIB_F(IPEXT, INOCTETS), pkts * 46);
}

static int
group_setup(void **state)
{
	char *argv[] = { "test_stats", "--no-huge", "--no-shconf", "-m", "256",
		"--no-pci", "--file-prefix", "test_stats", "--log-level",
		"lib.eal:error", NULL };
	struct stats_conf sc;
	struct mib_block ctl;

	(void)state;
	if (rte_eal_init((int)RTE_DIM(argv) - 1, argv) < 0)
		return -1;
	set = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	if (set == NULL)
		return -1;
	memset(&sc, 0, sizeof(sc));
	sc.set = set;
	sc.n_workers = NW;
	sc.lcore_ids = lcores;
	sc.fold = MIB_FOLD_LCORE;
	sc.interval_s = 3600;
	st = stats_create(&sc);
	if (st == NULL || stats_start(st) != 0)
		return -1;
	fill(0, 1000, 10);
	fill(1, 500, 0);
	ctl = mib_set_block(set, NW);
	mib_add(&ctl, MIB_F(INGRESS, GRACEPERIODS), 3);
	mib_max(&ctl, MIB_F(INGRESS, GRACEPERIODMAXUS), 250);
	stats_fold_now(st);
	info = json_pack("{s:s, s:s, s:s, s:I, s:[s,s], s:{s:s, s:s, s:i, s:[i,i]}}",
		"version", "0.1.0", "dpdk", "DPDK 22.11.11", "cpu", "Test \"CPU\"",
		"tsc_hz", (json_int_t)2000000000, "args", "pktpath", "--quiet",
		"config", "fold", "lcore", "source", "gen", "burst", 32,
		"worker_lcores", 1, 2);
	return info == NULL ? -1 : 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	export_telemetry_unregister();
	stats_stop(st);
	stats_free(st);
	mib_set_free(set);
	json_decref(info);
	rte_eal_cleanup();
	return 0;
}

/* ---- rates, fold, clear, refcounts ---- */

static void
test_rate_compute(void **state)
{
	struct stats_rate r;

	(void)state;
	stats_rate_compute(&r, 1000000, 60000000, 200000000, 200000000, 0.5);
	assert_true(r.pps == 2e6);
	assert_true(r.gbps > 0.96 - 1e-12 && r.gbps < 0.96 + 1e-12);
	assert_true(r.ns_per_pkt == 500.0);
	assert_true(r.cycles_per_pkt == 200.0);
	assert_true(r.busy_pct == 50.0);
	/* Every division guarded. */
	stats_rate_compute(&r, 1000, 0, 5, 0, 0);
	assert_true(r.pps == 0 && r.ns_per_pkt == 0 && r.gbps == 0);
	assert_true(r.cycles_per_pkt == 0.005);
	stats_rate_compute(&r, 0, 0, 0, 0, 1);
	assert_true(r.pps == 0 && r.ns_per_pkt == 0 && r.cycles_per_pkt == 0 &&
		    r.busy_pct == 0);
}

static void
test_fold_clear(void **state)
{
	struct stats_snapshot *a, *b;
	uint64_t raw_before;
	unsigned int f;

	(void)state;
	a = stats_get(st);
	assert_non_null(a);
	assert_int_equal(a->n_workers, NW);
	assert_int_equal(a->raw_totals[MIB_F(RX, PACKETS)], 1500);
	assert_int_equal(a->per_block[MIB_F(RX, PACKETS)], 1000);
	assert_int_equal(a->per_block[MIB_FIELD_MAX + MIB_F(RX, PACKETS)], 500);
	assert_int_equal(a->raw_totals[MIB_F(INGRESS, GRACEPERIODMAXUS)], 250);
	assert_int_equal((int64_t)a->totals[MIB_F(TCP, MAXCONN)], -1);
	assert_int_equal(a->totals[MIB_F(IP, FORWARDING)], 2);
	assert_int_equal(mib_check_conservation(a->totals, NULL, 0), 0);
	/* Both strategies agree. */
	{
		uint64_t t1[MIB_FIELD_MAX], t2[MIB_FIELD_MAX];

		mib_fold(set, MIB_FOLD_FIELD, t1, NULL);
		mib_fold(set, MIB_FOLD_LCORE, t2, NULL);
		assert_memory_equal(t1, t2, sizeof(t1));
		for (f = 0; f < MIB_FIELD_MAX; f++)
			assert_int_equal(t1[f], a->raw_totals[f]);
	}
	raw_before = a->raw_totals[MIB_F(IP, INRECEIVES)];
	stats_put(st, a);

	stats_clear(st);
	b = stats_get(st);
	assert_int_equal(b->clears, 1);
	assert_int_equal(b->totals[MIB_F(IP, INRECEIVES)], 0);
	assert_int_equal(b->raw_totals[MIB_F(IP, INRECEIVES)], raw_before);
	/* Not cleared: constants and high-water marks. */
	assert_int_equal(b->totals[MIB_F(INGRESS, GRACEPERIODMAXUS)], 250);
	assert_int_equal((int64_t)b->totals[MIB_F(TCP, MAXCONN)], -1);
	stats_put(st, b);

	fill(0, 64, 0);
	stats_fold_now(st);
	b = stats_get(st);
	assert_int_equal(b->totals[MIB_F(IP, INRECEIVES)], 64);
	assert_int_equal(b->per_block[MIB_F(IP, INRECEIVES)], 64);
	assert_int_equal(b->per_block[MIB_FIELD_MAX + MIB_F(IP, INRECEIVES)], 0);
	assert_int_equal(b->raw_totals[MIB_F(IP, INRECEIVES)], raw_before + 64);
	assert_int_equal(mib_check_conservation(b->totals, NULL, 0), 0);
	assert_true(b->seq > 0 && b->folds == b->seq + 1);
	stats_put(st, b);
}

static void
test_refcount(void **state)
{
	struct stats_snapshot *a, *a2, *b;
	uint64_t seq;

	(void)state;
	a = stats_get(st);
	a2 = stats_get(st);
	assert_ptr_equal(a, a2);
	assert_int_equal(a->refcnt, 3);	/* latest's + ours x2 */
	stats_put(st, a2);
	seq = a->seq;
	stats_fold_now(st);
	stats_fold_now(st);
	b = stats_get(st);
	assert_ptr_not_equal(a, b);
	assert_int_equal(b->seq, seq + 2);
	/* a is no longer published but still ours, intact. */
	assert_int_equal(a->refcnt, 1);
	assert_int_equal(a->seq, seq);
	assert_int_equal(a->n_workers, NW);
	stats_put(st, a);		/* freed here */
	stats_put(st, b);
}

/* ---- text parsers ---- */

/* "Grp: a b c\nGrp: 1 2 3\n" -> check every value against v; returns the
 * number of fields checked. */
static unsigned int
snmp_check(const char *text, const uint64_t *v)
{
	char *dup = strdup(text), *save = NULL, *hdr, *val;
	unsigned int n = 0;

	for (hdr = strtok_r(dup, "\n", &save); hdr != NULL;
	     hdr = strtok_r(NULL, "\n", &save)) {
		char *hs = NULL, *vs = NULL, *hn, *vn, grp[32];
		size_t gl = strcspn(hdr, ":");

		val = strtok_r(NULL, "\n", &save);
		assert_non_null(val);
		assert_int_equal(strncmp(hdr, val, gl + 1), 0);
		snprintf(grp, sizeof(grp), "%.*s", (int)gl, hdr);
		hn = strtok_r(hdr + gl + 1, " ", &hs);
		vn = strtok_r(val + gl + 1, " ", &vs);
		for (; hn != NULL; hn = strtok_r(NULL, " ", &hs),
		     vn = strtok_r(NULL, " ", &vs)) {
			int f;

			assert_non_null(vn);
			f = mib_field_lookup(grp, hn);
			assert_true(f >= 0);
			if (mib_field_kind((unsigned int)f) == MIB_KIND_CONST)
				assert_int_equal(strtoll(vn, NULL, 10),
						 (int64_t)v[f]);
			else
				assert_int_equal(strtoull(vn, NULL, 10), v[f]);
			n++;
		}
		assert_null(vn);
	}
	free(dup);
	return n;
}

static unsigned int
__icmpmsg_nonzero(const uint64_t *v)
{
	unsigned int i, n = 0;

	for (i = 0; i < MIB_ICMPMSG_MAX; i++)
		n += v[MIB_ICMPMSG_IN(i)] != 0;
	return n;
}

/* Value of sample "name{labels}" in a Prometheus text, or -1. */
static double
prom_value(const char *text, const char *sample)
{
	size_t n = strlen(sample);
	const char *p = text;

	while ((p = strstr(p, sample)) != NULL) {
		if ((p == text || p[-1] == '\n') && p[n] == ' ')
			return strtod(p + n + 1, NULL);
		p += n;
	}
	return -1;
}

/* Every counter sample of b is >= the same sample in a. */
static void
prom_monotonic(const char *a, const char *b)
{
	char *dup = strdup(b), *save = NULL, *line;
	unsigned int n = 0;

	for (line = strtok_r(dup, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' '), *brace;
		double old, now;

		if (line[0] == '#' || sp == NULL)
			continue;
		*sp = '\0';
		brace = strchr(line, '{');
		if (brace ? strncmp(brace - 6, "_total", 6) != 0 :
		    strcmp(line + strlen(line) - 6, "_total") != 0)
			continue;
		old = prom_value(a, line);
		now = strtod(sp + 1, NULL);
		if (old > now)
			fail_msg("counter %s went back: %g -> %g", line, old, now);
		n++;
	}
	assert_true(n > 100);
	free(dup);
}

static bool
have_promtool(void)
{
	return system("command -v promtool > /dev/null 2>&1") == 0;
}

/* promtool check metrics accepts text (skipped with a message if absent). */
static void
promtool_ok(const char *text)
{
	char path[] = "/tmp/test_stats_metrics_XXXXXX", cmd[256], out[4096];
	FILE *p;
	size_t n;
	int fd, rc;

	if (!have_promtool()) {
		print_message("promtool not found: 'promtool check metrics' skipped\n");
		return;
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 2>&1", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	rc = pclose(p);
	unlink(path);
	if (rc != 0)
		fail_msg("promtool check metrics: %s", out);
}

static char *
render(int (*fn)(FILE *, const struct stats_snapshot *, const void *),
       const void *arg)
{
	struct stats_snapshot *snap = stats_get(st);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(fn(f, snap, arg), 0);
	fclose(f);
	stats_put(st, snap);
	return buf;
}

static int
w_prom(FILE *f, const struct stats_snapshot *s, const void *arg)
{
	return export_prom_write(f, s, arg);
}

static int
w_snmp(FILE *f, const struct stats_snapshot *s, const void *arg)
{
	return export_snmp_write(f, s, *(const enum export_snmp_file *)arg);
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

/* A stats object of its own over a fresh set of nw blocks (+ control). */
static struct stats *
own_stats(struct mib_set **ms, double interval, double warmup, uint64_t inflight)
{
	struct stats_conf sc;
	struct stats *s;

	*ms = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(*ms);
	memset(&sc, 0, sizeof(sc));
	sc.set = *ms;
	sc.n_workers = NW;
	sc.lcore_ids = lcores;
	sc.fold = MIB_FOLD_LCORE;
	sc.interval_s = interval;
	sc.warmup_s = warmup;
	sc.inflight_max = inflight;
	s = stats_create(&sc);
	assert_non_null(s);
	assert_int_equal(stats_start(s), 0);
	return s;
}

/* The steady part: from the first fold at or after the warm-up to the end,
 * reported only if it spans one stats interval; else null with a reason. */
static void
test_steady(void **state)
{
	struct stats_summary *sum;
	struct mib_set *ms;
	struct stats *s;
	json_t *j, *sj;
	struct stats_snapshot *fin;

	(void)state;
	/* The run ends inside the warm-up. */
	s = own_stats(&ms, 3600, 5, 0);
	stats_fold_now(s);
	stats_stop(s);
	sum = stats_summary(s);
	assert_non_null(sum);
	assert_false(sum->steady_valid);
	assert_non_null(strstr(sum->steady_reason, "ended before the warm-up (5.00 s) was over"));
	stats_summary_free(sum);
	stats_free(s);
	mib_set_free(ms);

	/* A fold just past the warm-up, then the end: a window far shorter
	 * than one interval (--duration == --warmup gave such a one). */
	s = own_stats(&ms, 3600, 0.05, 0);
	usleep(100 * 1000);
	stats_fold_now(s);		/* uptime >= 0.05: opens the steady part */
	stats_stop(s);
	sum = stats_summary(s);
	assert_false(sum->steady_valid);
	assert_non_null(strstr(sum->steady_reason, " after the warm-up (0.05 s), less "
			       "than one stats interval (3600.00 s)"));
	fin = stats_get(s);
	j = export_json(fin, sum, NULL, false);
	sj = json_object_get(json_object_get(j, "summary"), "steady");
	assert_true(json_is_null(sj));
	assert_string_equal(json_string_value(json_object_get(json_object_get(j,
		"summary"), "steady_reason")), sum->steady_reason);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(j,
		"lcores"), 0), "steady")));
	json_decref(j);
	stats_put(s, fin);
	stats_summary_free(sum);
	stats_free(s);
	mib_set_free(ms);

	/* No warm-up: the steady part is the whole run, one interval long. */
	s = own_stats(&ms, 0.1, 0, 0);
	usleep(300 * 1000);
	stats_stop(s);
	sum = stats_summary(s);
	assert_true(sum->steady_valid);
	assert_string_equal(sum->steady_reason, "");
	assert_true(sum->steady.seconds == sum->total.seconds);
	stats_summary_free(sum);
	stats_free(s);
	mib_set_free(ms);
}

/* The JSON conservation object: every law with both sides; exact on the
 * final snapshot, within inflight_max on a live one. */
static void
test_conservation_json(void **state)
{
	struct stats_summary *sum;
	struct stats_snapshot *snap;
	struct mib_set *ms;
	struct mib_block b;
	struct stats *s;
	json_t *j, *c, *laws;
	unsigned int m;

	(void)state;
	s = own_stats(&ms, 3600, 0, 100);
	b = mib_set_block(ms, 0);
	mib_add(&b, MIB_F(RX, PACKETS), 1000);
	mib_add(&b, MIB_F(IP, INRECEIVES), 1000);
	mib_add(&b, MIB_F(IP, INDELIVERS), 1000);
	mib_add(&b, MIB_F(UDP, INDATAGRAMS), 1000);
	for (m = 0; m < MIB_MODES; m++)
		mib_add(&b, MIB_MODE_F(m, MIB_MODE_K_PACKETS), 200);
	/* 40 packets through the path whose Rx counters are not flushed yet:
	 * a live snapshot of a healthy run. */
	mib_add(&b, MIB_F(IP, INRECEIVES), 40);
	mib_add(&b, MIB_F(IP, INDELIVERS), 40);
	mib_add(&b, MIB_F(UDP, INDATAGRAMS), 40);
	stats_fold_now(s);
	snap = stats_get(s);
	assert_false(snap->final);
	j = export_json(snap, NULL, NULL, false);
	c = json_object_get(j, "conservation");
	assert_true(json_is_true(json_object_get(c, "ok")));
	assert_true(json_is_false(json_object_get(c, "exact")));
	assert_int_equal(json_integer_value(json_object_get(c, "tolerance")), 100);
	assert_string_equal(json_string_value(json_object_get(c, "line")), "ok");
	assert_int_equal(json_integer_value(json_object_get(c, "port_dropped")), 0);
	assert_string_equal(json_string_value(json_object_get(c, "detail")), "");
	laws = json_object_get(c, "laws");
	assert_int_equal(json_array_size(laws), MIB_N_LAWS);
	assert_string_equal(json_string_value(json_object_get(json_array_get(laws, 0),
		"law")), "RxPackets = RxNotIp + RxOtherHost + RxNoPath + IngressDropped + "
		"InReceives");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(laws, 0),
		"diff")), -40);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(laws, 4),
		"rhs")), 1000);
	json_decref(j);
	stats_put(s, snap);

	/* Beyond what can be in flight: broken, live or not. */
	mib_add(&b, MIB_F(IP, INRECEIVES), 100);
	mib_add(&b, MIB_F(IP, INDELIVERS), 100);
	mib_add(&b, MIB_F(UDP, INDATAGRAMS), 100);
	stats_fold_now(s);
	snap = stats_get(s);
	j = export_json(snap, NULL, NULL, false);
	c = json_object_get(j, "conservation");
	assert_true(json_is_false(json_object_get(c, "ok")));
	assert_string_equal(json_string_value(json_object_get(c, "detail")),
		"RxPackets 1000 != RxNotIp + RxOtherHost + RxNoPath + IngressDropped + "
		"InReceives 1140 (beyond what is in flight)");
	assert_string_equal(json_string_value(json_object_get(c, "line")),
		"BROKEN: RxPackets 1000 != RxNotIp + RxOtherHost + RxNoPath + "
		"IngressDropped + InReceives 1140 (beyond what is in flight)");
	json_decref(j);
	stats_put(s, snap);

	/* The workers "flush": the final snapshot is checked exactly. */
	mib_add(&b, MIB_F(RX, PACKETS), 140);
	mib_add(&b, MIB_MODE_F(2, MIB_MODE_K_PACKETS), 139);
	stats_stop(s);
	sum = stats_summary(s);
	snap = stats_get(s);
	assert_true(snap->final);
	j = export_json(snap, sum, NULL, false);
	c = json_object_get(j, "conservation");
	assert_true(json_is_true(json_object_get(c, "exact")));
	assert_int_equal(json_integer_value(json_object_get(c, "tolerance")), 0);
	assert_true(json_is_false(json_object_get(c, "ok")));	/* one short */
	assert_string_equal(json_string_value(json_object_get(c, "detail")),
		"RxPackets 1140 != Mode packets (ModeOffPackets + ... + ModeRcuPackets) 1139");
	json_decref(j);
	stats_put(s, snap);
	stats_summary_free(sum);
	stats_free(s);
	mib_set_free(ms);
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
	assert_int_equal(snmp_check(t, snap->totals), MIB_FIELD_MAX -
			 (MIB_IP_MAX + MIB_ICMP_MAX + MIB_ICMPMSG_MAX + MIB_TCP_MAX +
			  MIB_UDP_MAX + MIB_UDPLITE_MAX));
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
	assert_non_null(strstr(t, "pktpath_info{mode=\"off\",version=\"0.1.0\","
			       "dpdk=\"DPDK 22.11.11\",fold=\"lcore\""));
	assert_non_null(strstr(t, "cpu=\"Test \\\"CPU\\\"\"} 1\n"));
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

/* ---- HTTP client (plain sockets) ---- */

struct resp {
	int status;
	char head[4096];
	char *body;
	size_t len;
};

static int
tcp_connect(uint16_t port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct timeval tv = { 5, 0 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(fd >= 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Read a whole response until the server closes; -1 if none. */
static int
read_resp(int fd, struct resp *r)
{
	char *buf = NULL, *sep;
	size_t len = 0, cap = 0;
	ssize_t n;

	memset(r, 0, sizeof(*r));
	for (;;) {
		if (len + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap + 1);
		}
		n = recv(fd, buf + len, cap - len, 0);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (buf == NULL || len == 0) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	sep = strstr(buf, "\r\n\r\n");
	if (sep == NULL || sscanf(buf, "HTTP/1.%*d %d", &r->status) != 1) {
		free(buf);
		return -1;
	}
	snprintf(r->head, sizeof(r->head), "%.*s", (int)(sep - buf), buf);
	r->len = len - (size_t)(sep + 4 - buf);
	r->body = malloc(r->len + 1);
	memcpy(r->body, sep + 4, r->len);
	r->body[r->len] = '\0';
	free(buf);
	return 0;
}

static int
http_raw(uint16_t port, const char *req, size_t len, struct resp *r)
{
	int fd = tcp_connect(port);

	if (fd < 0)
		return -1;
	if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return read_resp(fd, r);
}

static int
http(uint16_t port, const char *method, const char *path, const char *ctype,
     const char *body, struct resp *r)
{
	char req[8192];
	int n = snprintf(req, sizeof(req), "%s %s HTTP/1.1\r\nHost: test\r\n"
			 "Connection: close\r\n", method, path);

	if (ctype != NULL)
		n += snprintf(req + n, sizeof(req) - (size_t)n,
			      "Content-Type: %s\r\n", ctype);
	if (body != NULL)
		n += snprintf(req + n, sizeof(req) - (size_t)n,
			      "Content-Length: %zu\r\n", strlen(body));
	n += snprintf(req + n, sizeof(req) - (size_t)n, "\r\n%s", body ? body : "");
	return http_raw(port, req, (size_t)n, r);
}

static const char *
hdr(const struct resp *r, const char *name)
{
	static char val[256];
	const char *p = r->head;
	size_t n = strlen(name);

	while ((p = strstr(p, "\r\n")) != NULL) {
		p += 2;
		if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
			snprintf(val, sizeof(val), "%.*s", (int)strcspn(p + n + 2, "\r"),
				 p + n + 2);
			return val;
		}
	}
	return NULL;
}

/* Request, expect status (and, if want != NULL, that text in the body). */
static void
expect(uint16_t port, const char *method, const char *path, const char *ctype,
       const char *body, int status, const char *want)
{
	struct resp r;

	if (http(port, method, path, ctype, body, &r) != 0)
		fail_msg("%s %s: no response", method, path);
	if (r.status != status || (want && strstr(r.body, want) == NULL))
		fail_msg("%s %s: %d '%s', want %d '%s'", method, path, r.status,
			 r.body, status, want ? want : "");
	/* Errors: exactly one line of text. */
	if (status >= 400 && (r.len == 0 || r.body[r.len - 1] != '\n' ||
			      memchr(r.body, '\n', r.len - 1) != NULL))
		fail_msg("%s %s: error body is not one line: '%s'", method, path,
			 r.body);
	free(r.body);
}

static char *
get_body(uint16_t port, const char *path, const char *ctype_prefix)
{
	struct resp r;

	assert_int_equal(http(port, "GET", path, NULL, NULL, &r), 0);
	assert_int_equal(r.status, 200);
	if (ctype_prefix != NULL) {
		const char *ct = hdr(&r, "Content-Type");

		assert_non_null(ct);
		assert_true(strncmp(ct, ctype_prefix, strlen(ctype_prefix)) == 0);
	}
	return r.body;
}

static struct export_http *
start(bool control, const struct export_hooks *hk, unsigned int max_conns,
      unsigned int timeout_s)
{
	struct export_http_conf c;
	struct export_http *h;
	char err[256];

	export_http_conf_init(&c);
	c.listen = "127.0.0.1:0";
	c.control = control;
	c.body_limit = 64;
	c.info = info;
	c.max_conns = max_conns;
	c.timeout_s = timeout_s;
	if (hk != NULL)
		c.hooks = *hk;
	h = export_http_start(st, &c, err, sizeof(err));
	if (h == NULL)
		fail_msg("export_http_start: %s", err);
	assert_true(export_http_port(h) != 0);
	return h;
}

static void
test_http_listen_errors(void **state)
{
	struct export_http_conf c;
	struct export_http *h, *h2;
	char err[256], addr[64];

	(void)state;
	{
		const struct { const char *addr; int rc; const char *why; } c[] = {
			{ "127.0.0.1:9120", 0, NULL }, { "[::1]:0", 0, NULL },
			{ "localhost:0", 0, NULL },
			{ "1.2.3:80", -EINVAL, "not an IPv4 address" },
			{ "::1:80", -EINVAL, "expected ADDR:PORT" },
			{ "127.0.0.1:70000", -EINVAL, "port '70000'" },
			{ "127.0.0.1:", -EINVAL, "port ''" },
			{ "127.0.0.1", -EINVAL, "expected ADDR:PORT" },
			{ "[::1]", -EINVAL, "expected [IPV6]:PORT" },
			{ "[1.2.3.4]:80", -EINVAL, "not an IPv6 address" },
		};
		unsigned int i;

		for (i = 0; i < RTE_DIM(c); i++) {
			err[0] = '\0';
			if (export_http_check_listen(c[i].addr, err, sizeof(err)) != c[i].rc ||
			    (c[i].why && strstr(err, c[i].why) == NULL))
				fail_msg("'%s': '%s'", c[i].addr, err);
		}
	}

	/* A port in use: NULL, errno and a one-line reason. */
	h = start(false, NULL, 4, 10);
	export_http_conf_init(&c);
	snprintf(addr, sizeof(addr), "127.0.0.1:%u", export_http_port(h));
	c.listen = addr;
	h2 = export_http_start(st, &c, err, sizeof(err));
	assert_null(h2);
	assert_int_equal(errno, EADDRINUSE);
	assert_non_null(strstr(err, "Address already in use"));
	assert_null(strchr(err, '\n'));
	export_http_stop(h);

	/* IPv6 loopback, when the host has it. */
	c.listen = "[::1]:0";
	h = export_http_start(st, &c, err, sizeof(err));
	if (h == NULL) {
		print_message("no IPv6 loopback (%s): [::1] skipped\n", err);
		return;
	}
	assert_true(strncmp(export_http_url(h), "http://[::1]:", 13) == 0);
	export_http_stop(h);
}

/* The body of GET path must be exactly what the writer gives for the same
 * snapshot (nothing folds in between here). */
static void
same_as(uint16_t port, const char *path, const char *ctype, const char *want)
{
	char *got = get_body(port, path, ctype);

	if (strcmp(got, want) != 0)
		fail_msg("GET %s differs from the writer's output:\n%s\n---\n%s",
			 path, got, want);
	free(got);
}

static void
test_http_get(void **state)
{
	static const enum export_snmp_file which[] = { EXPORT_SNMP, EXPORT_NETSTAT };
	struct export_http *h = start(true, &hooks, 32, 10);
	uint16_t port = export_http_port(h);
	json_t *ing = hk_state(NULL), *mine;
	struct export_prom_opts o = { info, ing, false, NULL };
	struct stats_snapshot *snap;
	char *t, *m1, *m2, url[64];
	struct resp r;

	(void)state;
	snprintf(url, sizeof(url), "http://127.0.0.1:%u/", port);
	assert_string_equal(export_http_url(h), url);
	t = get_body(port, "/", "text/plain");
	assert_non_null(strstr(t, "/metrics"));
	free(t);
	t = get_body(port, "/healthz", "text/plain");
	assert_true(strncmp(t, "ok", 2) == 0);
	free(t);

	snap = stats_get(st);
	t = render(w_snmp, &which[0]);
	same_as(port, "/snmp", "text/plain", t);
	assert_int_equal(snmp_check(t, snap->totals), MIB_IP_MAX + MIB_ICMP_MAX +
			 __icmpmsg_nonzero(snap->totals) + MIB_TCP_MAX + MIB_UDP_MAX +
			 MIB_UDPLITE_MAX);
	free(t);
	t = render(w_snmp, &which[1]);
	same_as(port, "/netstat", "text/plain", t);
	free(t);
	/* /stats.json: export_json() of the same snapshot, as --json dumps it. */
	mine = export_json(snap, NULL, info, false);
	/* ...with the hook's ingress state */
	json_object_set_new(mine, "ingress", hk_state(NULL));
	assert_non_null(json_object_get(mine, "conservation"));
	t = json_dumps(mine, JSON_INDENT(2) | JSON_SORT_KEYS);
	t = realloc(t, strlen(t) + 2);
	strcat(t, "\n");
	same_as(port, "/stats.json", "application/json", t);
	free(t);
	json_decref(mine);
	m1 = render(w_prom, &o);
	/* /metrics: the writer's output, then the process memory families,
	 * read at the request (so not comparable byte for byte). */
	t = get_body(port, "/metrics", "text/plain; version=0.0.4");
	{
		char *mem = strstr(t, "# HELP pktpath_resident_memory_bytes ");

		assert_non_null(mem);
		assert_true(prom_value(mem, "pktpath_resident_memory_bytes") > 1e6);
		assert_true(prom_value(mem, "pktpath_heap_inuse_bytes{allocator=\"malloc\"}") > 0);
		assert_true(prom_value(mem, "pktpath_heap_inuse_bytes{allocator=\"rte_malloc\"}") > 0);
		*mem = '\0';
		if (strcmp(t, m1) != 0)
			fail_msg("GET /metrics differs from the writer's output:\n%s\n---\n%s",
				 t, m1);
	}
	free(t);
	assert_true(prom_value(m1, "pktpath_ingress_mode{mode=\"off\"}") == 1);
	assert_true(prom_value(m1, "pktpath_ingress_mode{mode=\"rcu\"}") == 0);
	stats_put(st, snap);
	json_decref(ing);

	/* HEAD: headers only. */
	assert_int_equal(http(port, "HEAD", "/metrics", NULL, NULL, &r), 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.len, 0);
	free(r.body);

	/* Monotonic across traffic, a mode flip and a clear. */
	fill(1, 7, 1);
	stats_fold_now(st);
	expect(port, "POST", "/ingress/mode", "application/x-www-form-urlencoded",
	       "mode=rcu", 200, "mode rcu");
	expect(port, "POST", "/stats/clear", NULL, NULL, 200, "cleared");
	m2 = get_body(port, "/metrics", NULL);
	prom_monotonic(m1, m2);
	assert_true(prom_value(m2, "pktpath_ingress_mode{mode=\"rcu\"}") == 1);
	assert_non_null(strstr(m2, "pktpath_info{mode=\"rcu\""));
	assert_true(prom_value(m2, "pktpath_stats_clears_total") >= 1);
	free(m1);
	free(m2);
	/* ...while /snmp honours the clear. */
	t = get_body(port, "/snmp", NULL);
	assert_non_null(strstr(t, "\nIp: 2 64 0 0 "));
	free(t);
	expect(port, "POST", "/ingress/mode", NULL, "mode=off", 200, "mode off");
	export_http_stop(h);
}

static void
test_http_errors(void **state)
{
	struct export_http *h = start(true, &hooks, 32, 10), *h2, *h3;
	uint16_t port = export_http_port(h);
	const char *form = "application/x-www-form-urlencoded";
	char big[200], req[512];
	int modes, rules;
	uint64_t clears;
	struct stats_snapshot *snap;
	struct resp r;

	(void)state;
	snap = stats_get(st);
	clears = snap->clears;
	stats_put(st, snap);
	modes = hk_mode_calls;
	rules = hk_rules_calls;

	expect(port, "GET", "/nope", NULL, NULL, 404, "no such endpoint");
	expect(port, "GET", "/metrics/", NULL, NULL, 404, NULL);
	expect(port, "DELETE", "/nope", NULL, NULL, 404, NULL);
	assert_int_equal(http(port, "POST", "/metrics", form, "x=1", &r), 0);
	assert_int_equal(r.status, 405);
	assert_string_equal(hdr(&r, "Allow"), "GET, HEAD");
	free(r.body);
	assert_int_equal(http(port, "GET", "/stats/clear", NULL, NULL, &r), 0);
	assert_int_equal(r.status, 405);
	assert_string_equal(hdr(&r, "Allow"), "POST");
	free(r.body);
	expect(port, "PUT", "/ingress/mode", form, "mode=rcu", 405, NULL);

	/* 400: malformed bodies, and what the hook refuses. */
	expect(port, "POST", "/ingress/mode", form, "", 400, "empty body");
	expect(port, "POST", "/ingress/mode", form, "mode=", 400, "bad mode");
	expect(port, "POST", "/ingress/mode", form, "foo=bar", 400, "unexpected");
	expect(port, "POST", "/ingress/mode", form, "mode=rcu&mode=off", 400, "bad mode");
	expect(port, "POST", "/ingress/mode", form, "mode=%72cu", 400, "bad mode");
	expect(port, "POST", "/ingress/mode", "application/json", "{\"mode\":\"rcu\"}",
	       400, "Content-Type");
	expect(port, "POST", "/ingress/mode", form, "mode=bogus", 400, "unknown mode");
	expect(port, "POST", "/ingress/rules", "text/plain", "", 400, "empty body");
	expect(port, "POST", "/ingress/rules", "text/plain", "garbage", 400, "line 1");
	expect(port, "POST", "/stats/clear", NULL, "x", 400, "takes no body");

	/* 413: by Content-Length, before the body is sent... */
	snprintf(req, sizeof(req), "POST /ingress/rules HTTP/1.1\r\nHost: t\r\n"
		 "Content-Length: 100000\r\n\r\n");
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 413);
	free(r.body);
	/* ...and chunked, without one. */
	memset(big, 'r', sizeof(big));
	snprintf(req, sizeof(req), "POST /ingress/rules HTTP/1.1\r\nHost: t\r\n"
		 "Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
		 "40\r\n%.64s\r\n40\r\n%.64s\r\n0\r\n\r\n", big, big);
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 413);
	free(r.body);
	memset(big, 'x', sizeof(big));
	big[100] = '\0';
	expect(port, "POST", "/ingress/rules", "text/plain", big, 413, "limit");

	/* Nothing changed. */
	assert_int_equal(hk_mode_calls, modes);
	assert_int_equal(hk_rules_calls, rules);
	assert_string_equal(hk_mode, "off");
	snap = stats_get(st);
	assert_int_equal(snap->clears, clears);
	stats_put(st, snap);

	/* Accepted ones do change things. */
	expect(port, "POST", "/ingress/rules", "text/plain", "rule drop udp\n", 200,
	       "rules loaded");
	assert_int_equal(hk_rules_calls, rules + 1);

	/* A client that half-closes after its request (keep-alive asked for)
	 * is answered, and the server closes at once: not at the 10 s timeout
	 * (libmicrohttpd's epoll mode missed such an end now and then). */
	for (int i = 0; i < 20; i++) {
		static const char rq[] = "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n";
		struct timeval tv = { 5, 0 };
		int fd = tcp_connect(port);

		assert_true(fd >= 0);
		assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
		assert_int_equal(send(fd, rq, sizeof(rq) - 1, 0), (ssize_t)sizeof(rq) - 1);
		assert_int_equal(shutdown(fd, SHUT_WR), 0);
		{
			char buf[4096];
			size_t got = 0;
			ssize_t n;

			while ((n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0)) > 0)
				got += (size_t)n;
			if (n < 0)
				fail_msg("half-closed request %d: no close from the server "
					 "within 5 s (%s)", i, strerror(errno));
			buf[got] = '\0';
			assert_true(strncmp(buf, "HTTP/1.1 200", 12) == 0);
		}
		close(fd);
	}

	/* 403: control disabled; 501: no hook. */
	h2 = start(false, &hooks, 4, 10);
	expect(export_http_port(h2), "POST", "/stats/clear", NULL, NULL, 403,
	       "--http-control");
	expect(export_http_port(h2), "POST", "/ingress/mode", form, "mode=rcu", 403,
	       NULL);
	expect(export_http_port(h2), "GET", "/ingress/mode", NULL, NULL, 405, NULL);
	h3 = start(true, NULL, 4, 10);
	expect(export_http_port(h3), "POST", "/ingress/mode", form, "mode=rcu", 501,
	       NULL);
	expect(export_http_port(h3), "POST", "/ingress/rules", "text/plain", "rule x",
	       501, NULL);
	assert_int_equal(hk_mode_calls, modes);
	export_http_stop(h3);
	export_http_stop(h2);
	export_http_stop(h);
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A client sending one header line at a time, never the end of them. */
static int
slowloris(uint16_t port)
{
	static const char head[] = "GET /metrics HTTP/1.1\r\nHost: t\r\n";
	int fd = tcp_connect(port);

	if (fd >= 0 && send(fd, head, sizeof(head) - 1, MSG_NOSIGNAL) !=
			(ssize_t)sizeof(head) - 1) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Whether the server has closed fd (reads the end or an error). */
static bool
closed_by_server(int fd)
{
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);

	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

struct slow_post {
	uint16_t port;
	int status;
};

static void *
slow_post_thread(void *arg)
{
	struct slow_post *p = arg;
	struct resp r;

	if (http(p->port, "POST", "/ingress/mode",
		 "application/x-www-form-urlencoded", "mode=slow", &r) == 0) {
		p->status = r.status;
		free(r.body);
	}
	return NULL;
}

#define N_SLOW 32

static void
test_http_slow_clients(void **state)
{
	struct export_http *h = start(true, &hooks, 64, 2);
	uint16_t port = export_http_port(h);
	int slow, gone, lor[N_SLOW], idle[64], i, k, modes = hk_mode_calls;
	struct slow_post sp = { port, 0 };
	pthread_t tid;
	char c, req[512];
	double t0;
	ssize_t n;
	struct resp r;

	(void)state;
	/* Half a request line, then silence. */
	slow = tcp_connect(port);
	assert_true(slow >= 0);
	assert_int_equal(send(slow, "GET /metr", 9, 0), 9);
	/* Headers and part of a body, then gone. */
	gone = tcp_connect(port);
	assert_true(gone >= 0);
	{
		const char *rq = "POST /ingress/mode HTTP/1.1\r\nHost: t\r\n"
			"Content-Type: application/x-www-form-urlencoded\r\n"
			"Content-Length: 20\r\n\r\nmode=r";

		assert_int_equal(send(gone, rq, strlen(rq), 0), (ssize_t)strlen(rq));
	}
	usleep(100 * 1000);
	close(gone);
	/* Others are served meanwhile. */
	for (i = 0; i < 20; i++)
		expect(port, "GET", "/healthz", NULL, NULL, 200, "ok");
	assert_int_equal(hk_mode_calls, modes);	/* the vanished POST did nothing */
	/* The stalled client is dropped after the timeout (2 s); the bound
	 * only keeps a broken timeout from hanging the test. */
	t0 = now_s();
	n = recv(slow, &c, 1, 0);
	assert_true(n <= 0);
	assert_true(now_s() - t0 < 60);
	close(slow);

	/* 32 clients sending a header line every 0.3 s: every byte would
	 * restart an idle timeout, but each request has 2 s for its headers.
	 * /metrics and /healthz are served all along (no thread per client),
	 * and every slow one is closed by the server while still sending. */
	t0 = now_s();
	for (i = 0; i < N_SLOW; i++) {
		lor[i] = slowloris(port);
		assert_true(lor[i] >= 0);
	}
	for (k = 0; k < 40; k++) {
		int open = 0;

		for (i = 0; i < N_SLOW; i++) {
			if (lor[i] < 0)
				continue;
			if (closed_by_server(lor[i]) ||
			    send(lor[i], "X-Slow: y\r\n", 11, MSG_NOSIGNAL) != 11) {
				close(lor[i]);
				lor[i] = -1;
				continue;
			}
			open++;
		}
		/* all still there (well within their 2 s): the scrapes below
		 * compete with them */
		if (now_s() - t0 < 1.0)
			assert_int_equal(open, N_SLOW);
		expect(port, "GET", "/healthz", NULL, NULL, 200, "ok");
		free(get_body(port, "/metrics", "text/plain; version=0.0.4"));
		if (open == 0)
			break;
		usleep(300 * 1000);
	}
	/* 40 rounds of 0.3 s are 12 s: far past the 2 s, whatever the load */
	for (i = 0; i < N_SLOW; i++)
		if (lor[i] >= 0)
			fail_msg("slow client %d still open after %d rounds", i, k);

	/* Room for new clients: when more than half of the slots wait for a
	 * request, the oldest waiters are closed. 64 idle connections on a
	 * 64-slot server: a scrape still gets through, and the oldest idle
	 * ones are the ones closed. */
	for (i = 0; i < 64; i++) {
		idle[i] = tcp_connect(port);
		assert_true(idle[i] >= 0);
		usleep(5 * 1000);
	}
	for (k = 0; k < 50; k++) {
		if (http(port, "GET", "/healthz", NULL, NULL, &r) == 0) {
			assert_int_equal(r.status, 200);
			free(r.body);
			break;
		}
		usleep(100 * 1000);
	}
	assert_true(k < 50);
	usleep(500 * 1000);
	assert_true(closed_by_server(idle[0]));
	for (i = 0; i < 64; i++)
		close(idle[i]);

	/* A control hook that takes 1.5 s holds up only its own request. */
	assert_int_equal(pthread_create(&tid, NULL, slow_post_thread, &sp), 0);
	usleep(200 * 1000);
	for (i = 0; i < 10; i++)
		expect(port, "GET", "/healthz", NULL, NULL, 200, "ok");
	assert_int_equal(sp.status, 0);		/* still in its hook */
	pthread_join(tid, NULL);
	assert_int_equal(sp.status, 200);

	/* Framing that could smuggle a request: 400, one line, no hook. */
	modes = hk_mode_calls;
	snprintf(req, sizeof(req), "POST /ingress/mode HTTP/1.1\r\nHost: t\r\n"
		 "Content-Type: application/x-www-form-urlencoded\r\n"
		 "Content-Length: 8\r\nContent-Length: 14\r\n\r\nmode=rcu");
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 400);
	assert_string_equal(r.body, "conflicting Content-Length headers (2 given, "
			    "the first '8')\n");
	free(r.body);
	snprintf(req, sizeof(req), "GET /healthz HTTP/1.1\r\nHost: t\r\n"
		 "Connection: close\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n");
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 400);
	free(r.body);
	snprintf(req, sizeof(req), "POST /ingress/mode HTTP/1.1\r\nHost: t\r\n"
		 "Content-Type: application/x-www-form-urlencoded\r\n"
		 "Transfer-Encoding: chunked\r\nContent-Length: 8\r\n\r\n"
		 "8\r\nmode=rcu\r\n0\r\n\r\n");
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 400);
	assert_string_equal(r.body, "both Transfer-Encoding and Content-Length\n");
	free(r.body);
	assert_int_equal(hk_mode_calls, modes);
	/* Two equal ones say one thing: accepted. */
	snprintf(req, sizeof(req), "POST /ingress/mode HTTP/1.1\r\nHost: t\r\n"
		 "Connection: close\r\nContent-Type: application/x-www-form-urlencoded\r\n"
		 "Content-Length: 8\r\nContent-Length: 8\r\n\r\nmode=rcu");
	assert_int_equal(http_raw(port, req, strlen(req), &r), 0);
	assert_int_equal(r.status, 200);
	free(r.body);
	assert_int_equal(hk_mode_calls, modes + 1);
	expect(port, "POST", "/ingress/mode", "application/x-www-form-urlencoded",
	       "mode=off", 200, "mode off");
	export_http_stop(h);
}

/* ---- telemetry, over its socket ---- */

/* Send cmd, return the value of the reply {"cmd": value} (a new ref). */
static json_t *
tel_query(int fd, const char *cmd)
{
	char buf[16384 + 1], name[64];
	json_error_t jerr;
	json_t *j, *v;
	ssize_t n;

	assert_int_equal(send(fd, cmd, strlen(cmd), 0), (ssize_t)strlen(cmd));
	n = recv(fd, buf, sizeof(buf) - 1, 0);
	assert_true(n > 0);
	buf[n] = '\0';
	j = json_loads(buf, 0, &jerr);
	if (j == NULL)
		fail_msg("%s: invalid JSON '%s': %s", cmd, buf, jerr.text);
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(cmd, ","), cmd);
	v = json_incref(json_object_get(j, name));
	json_decref(j);
	return v;
}

static void
test_telemetry(void **state)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct stats_snapshot *snap;
	json_t *v;
	char buf[1024];
	unsigned int i;
	int fd;

	(void)state;
	assert_int_equal(export_telemetry_register(st, info, &hooks), 0);
	assert_int_equal(export_telemetry_register(st, info, &hooks), 0); /* again */
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		print_message("no telemetry socket %s: skipped\n", sun.sun_path);
		close(fd);
		return;
	}
	assert_true(recv(fd, buf, sizeof(buf), 0) > 0);	/* the info banner */
	fill(0, 100, 0);
	stats_fold_now(st);
	snap = stats_get(st);
	{
		/* command, member, expected integer value (or array size) */
		const struct { const char *cmd, *key; int64_t want; } c[] = {
			{ "/pktpath/mib", NULL, MIB_GRP_MAX },
			{ "/pktpath/mib,Ip", "InReceives",
			  (int64_t)snap->totals[MIB_F(IP, INRECEIVES)] },
			{ "/pktpath/mib,Ip", "Forwarding", 2 },
			{ "/pktpath/mib,Tcp", "MaxConn", -1 },
			{ "/pktpath/mib,Rx,2", "RxPackets",
			  (int64_t)snap->per_block[MIB_FIELD_MAX + MIB_F(RX, PACKETS)] },
			{ "/pktpath/rates", "seq", (int64_t)snap->seq },
			{ "/pktpath/lcores", "lcore", NW },
			{ "/pktpath/lcores", "busy_pct", NW },
			{ "/pktpath/lcores,1", "lcore", 1 },
			{ "/pktpath/ingress", "modes", 3 },
			{ "/pktpath/ingress", "GracePeriods",
			  (int64_t)snap->totals[MIB_F(INGRESS, GRACEPERIODS)] },
			{ "/pktpath/config", "worker_lcores", 2 },
			{ "/pktpath/config", "args", 2 },
			{ "/pktpath/config", "ingress_modes", 3 },
		};

		for (i = 0; i < RTE_DIM(c); i++) {
			json_t *r = tel_query(fd, c[i].cmd);
			json_t *x = c[i].key ? json_object_get(r, c[i].key) : r;
			int64_t got = json_is_array(x) ? (int64_t)json_array_size(x) :
				json_is_integer(x) ? json_integer_value(x) : INT64_MIN;

			if (got != c[i].want)
				fail_msg("%s %s: %" PRId64 ", want %" PRId64, c[i].cmd,
					 c[i].key ? c[i].key : "", got, c[i].want);
			json_decref(r);
		}
	}
	stats_put(st, snap);
	v = tel_query(fd, "/pktpath/rates");
	assert_true(json_is_string(json_object_get(v, "mpps")));	/* decimals */
	json_decref(v);
	v = tel_query(fd, "/pktpath/config");
	assert_string_equal(json_string_value(json_object_get(v, "fold")), "lcore");
	json_decref(v);
	v = tel_query(fd, "/pktpath/ingress");
	assert_string_equal(json_string_value(json_object_get(v, "mode")), "off");
	json_decref(v);
	/* Bad parameters, then detached: null, never a crash. */
	for (i = 0; i < 3; i++) {
		static const char *const bad[] = { "/pktpath/mib,Nope",
			"/pktpath/lcores,7", "/pktpath/rates,x" };

		v = tel_query(fd, bad[i]);
		assert_true(json_is_null(v));
		json_decref(v);
	}
	export_telemetry_unregister();
	v = tel_query(fd, "/pktpath/rates");
	assert_true(json_is_null(v));
	json_decref(v);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_compute),
		cmocka_unit_test(test_fold_clear),
		cmocka_unit_test(test_refcount),
		cmocka_unit_test(test_writers),
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_conservation_json),
		cmocka_unit_test(test_mode_metrics),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_http_listen_errors),
		cmocka_unit_test(test_http_get),
		cmocka_unit_test(test_http_errors),
		cmocka_unit_test(test_http_slow_clients),
		cmocka_unit_test(test_telemetry),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
