/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --pmu (lib/stats pmu.c, pmu_fold.c): event names (generic, cache, raw,
 * bad), a group of software events opened and read on this thread and on
 * another, stopped, multiplexed values scaled, the refusal lines over fake
 * sysfs and procfs trees (no PMU, perf_event_paranoid, rdpmc off), and a
 * stats object whose worker and stats thread count with a group. Software
 * events work on every Linux machine; the hardware path is tested where a
 * PMU exists (test_hardware says clearly when there is none). Counts only:
 * a thread that sleeps 5 times switched at least 5 times; nothing is
 * asserted of how fast anything is.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>

#include "fixture_stats.h"
#include "stats_pmu.h"

static const char sw_events[] = "task-clock,context-switches,page-faults";

/* ---- names ---- */

static void
test_parse(void **state)
{
	static const char *const bad[] = { "", ",", "cycles,", ",cycles", "cycels",
		"r", "rxyz", "r12345678901234567", "L1-dcache", "L1-dcache-loads-x",
		"LLC-misses", "cycles:u", "cycles,cpu-cycles", "cs,context-switches",
		"cycles,instructions,branches,branch-misses,cache-misses,"
		"cache-references,bus-cycles,ref-cycles,task-clock" };
	struct stats_pmu_conf c;
	char err[512], names[256];
	unsigned int i;

	(void)state;
	assert_int_equal(stats_pmu_parse("cycles", &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.ev[0].type, PERF_TYPE_HARDWARE);
	assert_int_equal(c.ev[0].config, PERF_COUNT_HW_CPU_CYCLES);
	/* the hardware events lead, in their order, then the software ones */
	assert_int_equal(stats_pmu_parse("task-clock,instructions,cs,r1c2", &c, err,
					 sizeof(err)), 0);
	stats_pmu_conf_names(&c, names, sizeof(names));
	assert_string_equal(names, "instructions,r1c2,task-clock,cs");
	assert_int_equal(c.ev[1].type, PERF_TYPE_RAW);
	assert_int_equal(c.ev[1].config, 0x1c2);
	assert_int_equal(c.ev[3].type, PERF_TYPE_SOFTWARE);
	assert_int_equal(c.ev[3].config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_true(stats_pmu_conf_has_hw(&c));
	/* an alias finds its event */
	assert_int_equal(stats_pmu_conf_find(&c, "context-switches"), 3);
	assert_int_equal(stats_pmu_conf_find(&c, "cycles"), -1);
	assert_int_equal(stats_pmu_conf_find(&c, "nonsense"), -1);
	/* the cache events: CACHE-OP-RESULT */
	assert_int_equal(stats_pmu_parse("L1-dcache-load-misses,LLC-load-misses,"
					 "dTLB-store-misses,L1-icache-prefetches",
					 &c, err, sizeof(err)), 0);
	assert_int_equal(c.ev[0].type, PERF_TYPE_HW_CACHE);
	assert_int_equal(c.ev[0].config, PERF_COUNT_HW_CACHE_L1D |
			 PERF_COUNT_HW_CACHE_OP_READ << 8 |
			 PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	assert_int_equal(c.ev[1].config, PERF_COUNT_HW_CACHE_LL |
			 PERF_COUNT_HW_CACHE_OP_READ << 8 |
			 PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	assert_int_equal(c.ev[2].config, PERF_COUNT_HW_CACHE_DTLB |
			 PERF_COUNT_HW_CACHE_OP_WRITE << 8 |
			 PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	assert_int_equal(c.ev[3].config, PERF_COUNT_HW_CACHE_L1I |
			 PERF_COUNT_HW_CACHE_OP_PREFETCH << 8 |
			 PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16);
	/* default, and a software event beside it */
	assert_int_equal(stats_pmu_parse("default,task-clock", &c, err, sizeof(err)), 0);
	stats_pmu_conf_names(&c, names, sizeof(names));
	assert_string_equal(names, "cycles,instructions,L1-dcache-load-misses,"
			    "LLC-load-misses,branch-misses,task-clock");
	assert_int_equal(stats_pmu_parse("rFFFFFFFFFFFFFFFF", &c, err, sizeof(err)), 0);
	assert_true(c.ev[0].config == UINT64_MAX);
	assert_int_equal(stats_pmu_parse(sw_events, &c, err, sizeof(err)), 0);
	assert_false(stats_pmu_conf_has_hw(&c));
	/* a refusal names the event and leaves nothing half parsed */
	for (i = 0; i < RTE_DIM(bad); i++) {
		err[0] = '\0';
		assert_int_equal(stats_pmu_parse(bad[i], &c, err, sizeof(err)), -EINVAL);
		assert_true(err[0] != '\0');
	}
	stats_pmu_parse("cycels", &c, err, sizeof(err));
	assert_non_null(strstr(err, "'cycels' is not an event perf names"));
	stats_pmu_parse("cycles,cpu-cycles", &c, err, sizeof(err));
	assert_non_null(strstr(err, "'cpu-cycles' is named twice"));
	stats_pmu_parse("default,cycles", &c, err, sizeof(err));
	assert_non_null(strstr(err, "'cycles' is named twice"));
}

/* ---- values ---- */

static void
test_values(void **state)
{
	uint64_t buf[6] = { 2, 200, 100, 7, 50, 99 };
	struct stats_pmu_count a, b;
	struct stats_pmu_delta d, sum;
	struct stats_pmu_conf c;
	char err[256];

	(void)state;
	assert_int_equal(stats_pmu_parse_read(buf, 5 * 8, 2, &a), 0);
	assert_true(a.known && a.n == 2 && a.v[0] == 7 && a.v[1] == 50);
	assert_int_equal(stats_pmu_parse_read(buf, 4 * 8, 2, &a), -EINVAL);
	assert_false(a.known);
	assert_int_equal(stats_pmu_parse_read(buf, 6 * 8, 3, &a), -EINVAL);
	/* multiplexed: on the PMU half the time, scaled to the whole */
	stats_pmu_parse_read(buf, 5 * 8, 2, &a);
	assert_true(stats_pmu_scale(&a, 0) == 14 && stats_pmu_scale(&a, 1) == 100);
	stats_pmu_delta(NULL, &a, &d);
	assert_true(d.known && d.scaled && d.v[0] == 14 && d.v[1] == 100);
	/* an interval scales by its own times */
	b = a;
	b.enabled_ns = 400;	/* +200 */
	b.running_ns = 150;	/* +50: a quarter */
	b.v[0] = 17;		/* +10 */
	b.v[1] = 50;
	stats_pmu_delta(&a, &b, &d);
	assert_true(d.known && d.scaled && d.v[0] == 40 && d.v[1] == 0);
	/* enabled but never on the PMU: unknown, never 0 */
	b = a;
	b.enabled_ns = 300;
	stats_pmu_delta(&a, &b, &d);
	assert_false(d.known);
	/* nothing elapsed (a stopped group): exactly 0 */
	stats_pmu_delta(&a, &a, &d);
	assert_true(d.known && !d.scaled && d.v[0] == 0);
	/* either end unknown: unknown */
	b.known = false;
	stats_pmu_delta(&a, &b, &d);
	assert_false(d.known);
	stats_pmu_delta(&b, &a, &d);
	assert_false(d.known);
	/* sums */
	stats_pmu_delta(NULL, &a, &d);
	memset(&sum, 0, sizeof(sum));
	stats_pmu_delta_add(&sum, &d);
	stats_pmu_delta_add(&sum, &d);
	assert_true(sum.known && sum.v[0] == 28 && sum.enabled_ns == 400);
	/* IPC: instructions / cycles, when the group has both */
	assert_int_equal(stats_pmu_parse("cycles,instructions", &c, err, sizeof(err)), 0);
	assert_true(stats_pmu_ipc(&c, &d) == 100.0 / 14.0);
	assert_int_equal(stats_pmu_parse("cycles,task-clock", &c, err, sizeof(err)), 0);
	assert_true(isnan(stats_pmu_ipc(&c, &d)));
}

/* ---- groups of software events ---- */

static void
__pmu_sleep_ms(unsigned int ms)
{
	struct timespec ts = { 0, (long)ms * 1000000 };

	nanosleep(&ts, NULL);
}

/* Touch n new pages (each a page fault: no huge page). */
static void
__pmu_fault_pages(unsigned int n)
{
	long pg = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)pg * n, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned int i;

	assert_true(p != MAP_FAILED);
	madvise((void *)p, (size_t)pg * n, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		p[(size_t)i * (size_t)pg] = 1;
	munmap((void *)p, (size_t)pg * n);
}

static void
test_group_self(void **state)
{
	struct stats_pmu_count a, b, c, s;
	struct stats_pmu_group g;
	struct stats_pmu_conf conf;
	struct stats_pmu_delta d;
	char err[256], line[512];
	unsigned int i;

	(void)state;
	assert_int_equal(stats_pmu_parse(sw_events, &conf, err, sizeof(err)), 0);
	assert_int_equal(stats_pmu_probe(&conf, NULL, line, sizeof(line)), 0);
	assert_int_equal(stats_pmu_open(&g, &conf, 0, true, NULL), 0);
	assert_int_equal(g.n, 3);
	assert_false(g.rdpmc);	/* software events: read(2) */
	assert_int_equal(stats_pmu_read(&g, &a), 0);
	for (i = 0; i < 5; i++)
		__pmu_sleep_ms(2);
	__pmu_fault_pages(100);
	assert_int_equal(stats_pmu_self_read(&g, &b), 0);
	stats_pmu_delta(&a, &b, &d);
	assert_true(d.known && !d.scaled);
	assert_true(d.v[0] > 0);		/* task-clock, ns */
	assert_true(d.v[1] >= 5);		/* it slept 5 times */
	assert_true(d.v[2] >= 100);		/* 100 new pages */
	/* stopped: nothing more counts */
	assert_int_equal(stats_pmu_disable(&g), 0);
	assert_int_equal(stats_pmu_read(&g, &c), 0);
	for (i = 0; i < 3; i++)
		__pmu_sleep_ms(2);
	__pmu_fault_pages(10);
	assert_int_equal(stats_pmu_read(&g, &s), 0);
	assert_true(s.v[1] == c.v[1] && s.v[2] == c.v[2] && s.v[0] == c.v[0]);
	stats_pmu_close(&g);
	assert_int_equal(g.n, 0);
	assert_int_equal(stats_pmu_read(&g, &s), -EBADF);
	assert_false(s.known);
	/* nothing to open */
	conf.n = 0;
	assert_int_equal(stats_pmu_open(&g, &conf, 0, false, NULL), -EINVAL);
}

struct sleeper {
	volatile int tid;
	volatile int go, done;
	unsigned int sleeps;
};

static void *
sleeper(void *arg)
{
	struct sleeper *z = arg;
	unsigned int i;

	__atomic_store_n(&z->tid, (int)rte_sys_gettid(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&z->go, __ATOMIC_ACQUIRE))
		usleep(100);
	for (i = 0; i < z->sleeps; i++)
		__pmu_sleep_ms(1);
	__atomic_store_n(&z->done, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&z->go, __ATOMIC_ACQUIRE))
		usleep(100);
	return NULL;
}

/* A group on another thread of this process, read from this one. */
static void
test_group_other(void **state)
{
	struct sleeper z = { .sleeps = 20 };
	struct stats_pmu_count a, b;
	struct stats_pmu_group g;
	struct stats_pmu_conf conf;
	struct stats_pmu_delta d;
	char err[256];
	pthread_t t;

	(void)state;
	assert_int_equal(stats_pmu_parse("context-switches", &conf, err, sizeof(err)), 0);
	assert_int_equal(pthread_create(&t, NULL, sleeper, &z), 0);
	while (__atomic_load_n(&z.tid, __ATOMIC_ACQUIRE) == 0)
		usleep(100);
	assert_int_equal(stats_pmu_open(&g, &conf, z.tid, false, NULL), 0);
	assert_null(g.page[0]);
	assert_int_equal(stats_pmu_read(&g, &a), 0);
	__atomic_store_n(&z.go, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&z.done, __ATOMIC_ACQUIRE))
		usleep(1000);
	assert_int_equal(stats_pmu_read(&g, &b), 0);
	stats_pmu_delta(&a, &b, &d);
	assert_true(d.known && d.v[0] >= z.sleeps);
	__atomic_store_n(&z.go, 0, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	stats_pmu_close(&g);
	/* no such thread */
	assert_int_equal(stats_pmu_open(&g, &conf, 0x7ffffff0, false, NULL), -ESRCH);
	assert_int_equal(g.n, 0);
}

/* ---- the refusal lines, over fake trees ---- */

static char root[64];

static void
__pmu_put(const char *path, const char *text)
{
	char p[256], cmd[512];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s/%s)\"", root, path);
	assert_int_equal(system(cmd), 0);
	snprintf(p, sizeof(p), "%s/%s", root, path);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
__pmu_rm_root(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

static void
test_explain(void **state)
{
	struct stats_pmu_conf c;
	char err[256], line[512];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/pmu_root_%d", (int)getpid());
	assert_int_equal(stats_pmu_parse("cycles,task-clock", &c, err, sizeof(err)), 0);
	/* a VM without a virtual PMU: software event sources only */
	__pmu_put("sys/bus/event_source/devices/software/type", "1\n");
	__pmu_put("sys/bus/event_source/devices/tracepoint/type", "2\n");
	stats_pmu_explain(&c, 0, -ENOENT, root, line, sizeof(line));
	assert_non_null(strstr(line, "--pmu cycles: no hardware PMU"));
	assert_non_null(strstr(line, "only software events count"));
	/* a PMU that lacks the event */
	__pmu_put("sys/bus/event_source/devices/cpu/type", "4\n");
	stats_pmu_explain(&c, 0, -ENOENT, root, line, sizeof(line));
	assert_non_null(strstr(line, "the CPU's PMU (cpu) does not count this event"));
	/* perf_event_paranoid: the value read, what each kind needs */
	__pmu_put("proc/sys/kernel/perf_event_paranoid", "3\n");
	stats_pmu_explain(&c, 0, -EACCES, root, line, sizeof(line));
	assert_non_null(strstr(line, "--pmu cycles: perf_event_open refused"));
	assert_non_null(strstr(line, "kernel.perf_event_paranoid is 3"));
	assert_non_null(strstr(line, "sysctl -w kernel.perf_event_paranoid=2"));
	stats_pmu_explain(&c, 1, -EACCES, root, line, sizeof(line));
	assert_non_null(strstr(line, "--pmu task-clock"));
	assert_non_null(strstr(line, "sysctl -w kernel.perf_event_paranoid=1"));
	/* rdpmc off, and no file to turn it on */
	__pmu_put("sys/bus/event_source/devices/cpu/rdpmc", "0\n");
	stats_pmu_explain_rdpmc(root, line, sizeof(line));
	assert_non_null(strstr(line, "rdpmc is not allowed in user space "
			       "(/sys/bus/event_source/devices/cpu/rdpmc is 0)"));
	assert_non_null(strstr(line, "echo 1 > /sys/bus/event_source/devices/cpu/rdpmc"));
	__pmu_rm_root();
	__pmu_put("sys/bus/event_source/devices/software/type", "1\n");
	stats_pmu_explain_rdpmc(root, line, sizeof(line));
	assert_non_null(strstr(line, "do not allow rdpmc"));
	/* a software event missing is not a PMU's doing */
	stats_pmu_explain(&c, 1, -ENOENT, root, line, sizeof(line));
	assert_null(strstr(line, "PMU"));
	assert_non_null(strstr(line, "--pmu task-clock: perf_event_open failed"));
	stats_pmu_explain(&c, 1, -EMFILE, root, line, sizeof(line));
	assert_non_null(strstr(line, "ulimit -n"));
	__pmu_rm_root();
}

/* ---- the hardware path, where there is a PMU ---- */

static void
test_hardware(void **state)
{
	struct stats_pmu_count a, b;
	struct stats_pmu_group g;
	struct stats_pmu_conf c;
	struct stats_pmu_delta d;
	char err[256], line[512];
	volatile uint64_t x = 0;
	uint64_t i;
	int rc;

	(void)state;
	assert_int_equal(stats_pmu_parse("cycles,instructions", &c, err, sizeof(err)), 0);
	rc = stats_pmu_probe(&c, NULL, line, sizeof(line));
	if (rc == -ENOENT && strstr(line, "no hardware PMU") != NULL) {
		/* the line must be the one the user gets, not zeros */
		print_message("[ NOTE     ] test_hardware did not run: this machine "
			      "has no hardware PMU (%s); the hardware path "
			      "(rdpmc, cycles, instructions) is untested here\n", line);
		return;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(stats_pmu_open(&g, &c, 0, true, NULL), 0);
	assert_true(g.rdpmc);
	assert_int_equal(stats_pmu_self_read(&g, &a), 0);
	for (i = 0; i < 1000000; i++)
		x += i;
	assert_int_equal(stats_pmu_self_read(&g, &b), 0);
	stats_pmu_delta(&a, &b, &d);
	assert_true(d.known);
	/* a million iterations are at least a million instructions */
	assert_true(d.v[1] >= 1000000);
	assert_true(d.v[0] > 0);
	print_message("[ NOTE     ] test_hardware ran: %.0f cycles, %.0f instructions "
		      "(IPC %.2f) for 1e6 additions, read with rdpmc\n", d.v[0],
		      d.v[1], stats_pmu_ipc(&c, &d));
	stats_pmu_close(&g);
}

/* ---- a stats object whose worker and stats thread count ---- */

struct worker {
	struct stats_worker_clock *clk;
	volatile int go, done, after;
	unsigned int sleeps;
};

static void *
worker(void *arg)
{
	struct worker *k = arg;
	unsigned int i;

	while (!__atomic_load_n(&k->go, __ATOMIC_ACQUIRE))
		usleep(100);
	stats_worker_begin(k->clk);
	/* what a flush of its stage events stores (stage_pmu.h) */
	__atomic_store_n(&k->clk->stage_pmu[MIB_STAGE_IP][1], 12345, __ATOMIC_RELAXED);
	for (i = 0; i < k->sleeps; i++)
		__pmu_sleep_ms(1);
	stats_worker_end(k->clk);
	__atomic_store_n(&k->done, 1, __ATOMIC_RELEASE);
	/* after its end: what it does is not counted */
	while (!__atomic_load_n(&k->after, __ATOMIC_ACQUIRE))
		usleep(100);
	for (i = 0; i < 10; i++)
		__pmu_sleep_ms(1);
	__atomic_store_n(&k->done, 2, __ATOMIC_RELEASE);
	while (__atomic_load_n(&k->go, __ATOMIC_ACQUIRE))
		usleep(100);
	return NULL;
}

static void
test_stats(void **state)
{
	struct stats_worker_clock clocks[NW];
	struct worker k = { .clk = &clocks[0], .sleeps = 30 };
	struct stats_snapshot *s0, *s1, *s2, *r;
	struct stats_pmu_rate pr;
	struct stats_pmu_conf conf;
	struct stats_conf sc;
	struct mib_set *ms;
	struct stats *s;
	char err[256];
	uint64_t n0;
	pthread_t t;
	int cs;

	(void)state;
	memset(clocks, 0, sizeof(clocks));
	assert_int_equal(stats_pmu_parse(sw_events, &conf, err, sizeof(err)), 0);
	cs = stats_pmu_conf_find(&conf, "context-switches");
	ms = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(ms);
	fixture_stats_conf(&sc, ms, 0.02, 0, 0);
	sc.clocks = clocks;
	sc.pmu = &conf;
	sc.fold_on_read = true;
	s = stats_create(&sc);
	assert_non_null(s);
	assert_true(clocks[0].pmu != NULL && clocks[1].pmu != NULL);
	assert_int_equal(stats_start(s), 0);
	s0 = stats_get(s);
	assert_non_null(s0->pmu);
	assert_int_equal(s0->pmu->n, 3);
	assert_false(s0->thread[0].pmu.known);	/* not begun */
	assert_int_equal(pthread_create(&t, NULL, worker, &k), 0);
	__atomic_store_n(&k.go, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&k.done, __ATOMIC_ACQUIRE))
		usleep(1000);
	assert_int_equal(clocks[0].pmu_err, 0);
	stats_fold_now(s);
	s1 = stats_get(s);
	assert_true(s1->thread[0].pmu.known);
	assert_false(s1->thread[1].pmu.known);	/* never began */
	/* the stage events it stored, loaded at the fold */
	assert_int_equal(s1->thread[0].stage_pmu[MIB_STAGE_IP][1], 12345);
	assert_int_equal(s1->thread[0].stage_pmu[MIB_STAGE_RX][1], 0);
	/* from its begin (after s0) to its end: its sleeps */
	assert_int_equal(stats_pmu_between(s0, s1, 0, &pr), 0);
	assert_true(pr.d.known);
	assert_true(pr.d.v[cs] >= k.sleeps);
	assert_true(isnan(pr.ipc));
	/* its thread sleeps 10 times after its end: not counted */
	__atomic_store_n(&k.after, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&k.done, __ATOMIC_ACQUIRE) != 2)
		usleep(1000);
	stats_fold_now(s);
	s2 = stats_get(s);
	assert_true(s2->thread[0].pmu.known);
	assert_memory_equal(s2->thread[0].pmu.v, s1->thread[0].pmu.v,
			    sizeof(s1->thread[0].pmu.v));
	assert_int_equal(stats_pmu_between(s1, s2, 0, &pr), 0);
	assert_true(pr.d.known && pr.d.v[cs] == 0);
	stats_put(s, s2);
	/* the total needs every worker's */
	assert_int_equal(stats_pmu_between(s0, s1, -1, &pr), 0);
	assert_false(pr.d.known);
	assert_true(pr.d.v[cs] == 0);
	assert_int_equal(stats_pmu_between(s0, s1, NW, &pr), -EINVAL);
	/* the stats thread counted its scheduled folds (every 20 ms) */
	while (s1->fold_pmu_n < 3) {
		stats_put(s, s1);
		usleep(20 * 1000);
		s1 = stats_get(s);
	}
	assert_true(s1->fold_pmu_sum.known);
	assert_true(s1->fold_pmu_sum.v[0] > 0);	/* task-clock of the folds */
	/* a read fold counts on the reader's own group */
	n0 = s1->read_pmu_n;
	r = stats_read(s);
	assert_non_null(r);
	assert_true(r->read_fold && r->fold_pmu.known);
	assert_true(r->read_pmu_n == n0 + 1);
	stats_put(s, r);
	r = stats_read(s);
	assert_true(r->read_pmu_n == n0 + 2);
	stats_put(s, r);
	stats_put(s, s0);
	stats_put(s, s1);
	__atomic_store_n(&k.go, 0, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	stats_stop(s);
	own_stats_free(s, ms);
	/* stats_free() closed the worker's group */
	assert_int_equal(clocks[0].group.n, 0);
}

/* A hand-made snapshot of 2 workers: worker w's group read at enabled /
 * running ns, event k of stage ip at (k + 1) * base, the stage's packets
 * at pkts. */
struct snap2 {
	struct stats_snapshot s;
	struct stats_thread th[2];
	uint64_t raw[2 * MIB_FIELD_MAX];
};

static void
__snap2(struct snap2 *p, const struct stats_pmu_conf *c, uint64_t enabled,
	uint64_t running, uint64_t base, uint64_t pkts)
{
	unsigned int w, k;

	memset(p, 0, sizeof(*p));
	p->s.pmu = c;
	p->s.n_workers = 2;
	p->s.thread = p->th;
	p->s.raw_per_block = p->raw;
	for (w = 0; w < 2; w++) {
		struct stats_thread *t = &p->th[w];

		t->known = true;
		t->pmu.known = true;
		t->pmu.n = (uint8_t)c->n;
		t->pmu.enabled_ns = enabled;
		t->pmu.running_ns = running;
		for (k = 0; k < c->n; k++) {
			t->pmu.v[k] = 10 * (k + 1) * base; /* the group's */
			t->stage_pmu[MIB_STAGE_IP][k] = (k + 1) * base;
		}
		p->raw[(size_t)w * MIB_FIELD_MAX +
		       MIB_STAGE_F(MIB_STAGE_IP, MIB_STAGE_K_PACKETS)] = pkts;
	}
}

/* stats_pmu_stage_between(): each stage's events between two snapshots,
 * per packet of the stage, scaled as the group over the same window. */
static void
test_stage_between(void **state)
{
	struct snap2 a, b;
	struct stats_pmu_conf c;
	struct stats_pmu_rate r;
	char err[256];
	unsigned int k;

	(void)state;
	assert_int_equal(
		stats_pmu_parse("cycles,instructions,task-clock", &c, err, sizeof(err)),
		0);
	__snap2(&a, &c, 1000, 1000, 100, 10);
	__snap2(&b, &c, 3000, 2000, 300, 50); /* ran half the window */
	assert_int_equal(stats_pmu_stage_between(&a.s, &b.s, 0, MIB_STAGE_IP, &r), 0);
	assert_true(r.d.known && r.d.scaled);
	assert_int_equal(r.packets, 40);
	for (k = 0; k < c.n; k++) {
		/* 200 (k + 1) counted, in half the time: 400 (k + 1) */
		assert_true(r.d.v[k] == 400.0 * (k + 1));
		assert_true(r.per_pkt[k] == 10.0 * (k + 1));
	}
	assert_true(r.ipc == 2.0);
	/* all workers: the sum */
	assert_int_equal(stats_pmu_stage_between(&a.s, &b.s, -1, MIB_STAGE_IP, &r), 0);
	assert_int_equal(r.packets, 80);
	assert_true(r.d.v[0] == 800.0);
	/* since the begin: from 0 */
	assert_int_equal(stats_pmu_stage_between(NULL, &b.s, 1, MIB_STAGE_IP, &r), 0);
	assert_true(r.d.known && r.d.scaled && r.d.v[1] == 900.0);
	assert_int_equal(r.packets, 50);
	/* a stage that did not run: 0 events, 0 packets, known */
	assert_int_equal(stats_pmu_stage_between(&a.s, &b.s, 0, MIB_STAGE_PEER, &r), 0);
	assert_true(r.d.known && r.packets == 0 && r.d.v[0] == 0);
	/* a worker whose group was not read: unknown, never zero counts */
	b.th[1].pmu.known = false;
	assert_int_equal(stats_pmu_stage_between(&a.s, &b.s, -1, MIB_STAGE_IP, &r), 0);
	assert_false(r.d.known);
	/* the first one's: still every worker's packets */
	b.th[1].pmu.known = true;
	b.th[0].pmu.known = false;
	assert_int_equal(stats_pmu_stage_between(&a.s, &b.s, -1, MIB_STAGE_IP, &r), 0);
	assert_false(r.d.known);
	assert_int_equal(r.packets, 80);
	/* out of range */
	assert_int_equal(stats_pmu_stage_between(&a.s, &b.s, 2, MIB_STAGE_IP, &r),
			 -EINVAL);
	assert_int_equal(stats_pmu_stage_between(&a.s, &b.s, 0, MIB_STAGES, &r), -EINVAL);
}

static int
setup(void **state)
{
	return fixture_stats_setup(state);
}

static int
teardown(void **state)
{
	return fixture_stats_teardown(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),	   cmocka_unit_test(test_values),
		cmocka_unit_test(test_group_self), cmocka_unit_test(test_group_other),
		cmocka_unit_test(test_explain),	   cmocka_unit_test(test_hardware),
		cmocka_unit_test(test_stats),	   cmocka_unit_test(test_stage_between),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
