/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lost time (lib/stats tcount.c, lost.c): the readers of a thread's kernel
 * counters over text, a fake /proc and this process's own threads; the
 * stats thread's accounting of a worker that did not run (it slept, it
 * was stopped), from its begin to its end and never outside. Counts and
 * lower bounds only: a thread that sleeps 200 ms did not run for at least
 * about that long, whatever the machine's load; nothing is asserted of how
 * fast anything is.
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
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "fixture_stats.h"
#include "stats_tcount.h"

/* ---- parsing ---- */

static void
test_parse(void **state)
{
	struct stats_tcount c;
	static const char status[] =
		"Name:\tlcore-worker-1\nUmask:\t0022\nState:\tR (running)\n"
		"Tgid:\t100\nvoluntary_ctxt_switches:\t12\n"
		"nonvoluntary_ctxt_switches:\t345\n";
	static const char *const bad_sched[] = { "", "x 1 2", "12", "12\n",
		"18446744073709551616 1 1", "1 x" };
	unsigned int i;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_int_equal(stats_tcount_parse_schedstat("123456789 4242 17\n", &c), 0);
	assert_true(c.run_ns == 123456789 && c.wait_ns == 4242);
	for (i = 0; i < RTE_DIM(bad_sched); i++)
		assert_int_equal(stats_tcount_parse_schedstat(bad_sched[i], &c), -EINVAL);
	assert_int_equal(stats_tcount_parse_status(status, &c), 0);
	assert_true(c.vcsw == 12 && c.ivcsw == 345 && c.state == 'R');
	/* the field names must be whole: "voluntary" is not found inside
	 * "nonvoluntary" when it is missing */
	assert_int_equal(stats_tcount_parse_status(
		"State:\tT (stopped)\nnonvoluntary_ctxt_switches:\t3\n", &c), -EINVAL);
	assert_int_equal(stats_tcount_parse_status(
		"State:\tT (stopped)\nvoluntary_ctxt_switches:\t1\n"
		"nonvoluntary_ctxt_switches:\t3\n", &c), 0);
	assert_true(c.state == 'T' && c.vcsw == 1 && c.ivcsw == 3);
	assert_string_equal(stats_tcount_src_name(STATS_TCOUNT_SRC_CLOCK), "clock");
	assert_string_equal(stats_tcount_src_name(STATS_TCOUNT_SRC_MAX), "?");
	assert_string_equal(stats_lost_cause_name(STATS_LOST_STOPPED), "stopped");
	assert_string_equal(stats_lost_cause_name(STATS_LOST_CAUSE_MAX), "?");
	assert_int_equal(stats_lost_cause_of('T', 0, 1), STATS_LOST_STOPPED);
	assert_int_equal(stats_lost_cause_of('S', 5, 0), STATS_LOST_SLEEPING);
	assert_int_equal(stats_lost_cause_of('R', 3, 1), STATS_LOST_SUSPENDED);
	assert_int_equal(stats_lost_cause_of('R', 0, 0), STATS_LOST_PREEMPTED);
	assert_int_equal(stats_lost_cause_of(0, 2, 0), STATS_LOST_PREEMPTED);
	assert_int_equal(stats_lost_cause_of(0, 0, 0), STATS_LOST_OFFCPU);
}

/* ---- a reader over a fake root, and over this process ---- */

static void
lost_put(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void
test_reader_fake(void **state)
{
	char root[] = "/tmp/pktpath-tcount-XXXXXX", dir[600];
	struct stats_tcount_reader r;
	struct stats_tcount c;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/4242", root);
	assert_int_equal(mkdir(dir, 0700), 0);
	lost_put(dir, "schedstat", "1000 20 3\n");
	lost_put(dir, "status", "State:\tS (sleeping)\nvoluntary_ctxt_switches:\t4\n"
		"nonvoluntary_ctxt_switches:\t5\n");
	stats_tcount_init(&r);
	assert_int_equal(stats_tcount_read(&r, &c), -EINVAL);	/* not opened */
	assert_int_equal(stats_tcount_open(&r, 4243, root), -ESRCH);
	assert_int_equal(stats_tcount_open(&r, 0, root), -EINVAL);
	assert_int_equal(stats_tcount_open(&r, 4242, root), 0);
	assert_int_equal(stats_tcount_read(&r, &c), 0);
	/* a test's root: the run time is schedstat's, never a clock's */
	assert_int_equal(c.src, STATS_TCOUNT_SRC_SCHEDSTAT);
	assert_true(c.run_ns == 1000 && c.wait_ns == 20 && c.wait);
	assert_true(c.csw && c.vcsw == 4 && c.ivcsw == 5 && c.state == 'S');
	/* the files are read again at each read */
	lost_put(dir, "schedstat", "5000 70 9\n");
	assert_int_equal(stats_tcount_read(&r, &c), 0);
	assert_true(c.run_ns == 5000 && c.wait_ns == 70);
	/* garbage: nothing from that file, the other still read */
	lost_put(dir, "schedstat", "garbage\n");
	assert_int_equal(stats_tcount_read(&r, &c), 0);
	assert_int_equal(c.src, STATS_TCOUNT_SRC_NONE);
	assert_true(c.run_ns == 0 && c.csw);
	stats_tcount_close(&r);
	snprintf(dir, sizeof(dir), "rm -rf %s", root);
	assert_int_equal(system(dir), 0);
}

struct spin {
	volatile int go;
	int tid;
	struct stats_worker_clock *clk;
	unsigned int sleep_ms;		/* after begin, before the end */
	unsigned int spin_ms;		/* then spin this long */
	volatile int done;
};

/* Spin until this thread has had ms of CPU time (not of wall time: on a
 * loaded machine a wall-time spin may get less). */
static void
__burn_ms(unsigned int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000ll + (t.tv_nsec - t0.tv_nsec) <
		 (long long)ms * 1000000);
}

static void *
lost_worker(void *arg)
{
	struct spin *s = arg;
	struct timespec ts = { (time_t)(s->sleep_ms / 1000),
			       (long)(s->sleep_ms % 1000) * 1000000 };

	s->tid = (int)rte_sys_gettid();
	while (!s->go)
		;
	stats_worker_begin(s->clk);
	nanosleep(&ts, NULL);
	__burn_ms(s->spin_ms);
	stats_worker_end(s->clk);
	s->done = 1;
	while (s->go)		/* after its end: what it does is not the path's */
		usleep(1000);
	return NULL;
}

static void
test_reader_self(void **state)
{
	struct stats_worker_clock clk = { .tid = 0 };
	struct spin sp = { .sleep_ms = 0, .spin_ms = 50, .clk = &clk };
	struct stats_tcount_reader r;
	struct stats_tcount a, b;
	pthread_t t;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, lost_worker, &sp), 0);
	while (__atomic_load_n(&sp.tid, __ATOMIC_ACQUIRE) == 0)
		usleep(100);
	stats_tcount_init(&r);
	assert_int_equal(stats_tcount_open(&r, sp.tid, NULL), 0);
	assert_int_equal(stats_tcount_read(&r, &a), 0);
	assert_int_equal(a.src, STATS_TCOUNT_SRC_CLOCK);
	assert_true(a.csw);
	sp.go = 1;
	while (!sp.done)
		usleep(1000);
	assert_int_equal(stats_tcount_read(&r, &b), 0);
	/* it spun until it had 50 ms of CPU time */
	assert_true(b.run_ns >= a.run_ns + 50 * 1000000ull);
	sp.go = 0;
	pthread_join(t, NULL);
	stats_tcount_close(&r);
}

/* ---- the stats thread's accounting ---- */

static struct stats *
__stats_with(struct mib_set **ms, struct stats_worker_clock *clocks)
{
	struct stats_conf sc;
	struct stats *s;

	*ms = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(*ms);
	fixture_stats_conf(&sc, *ms, 3600, 0, 0);
	sc.clocks = clocks;
	s = stats_create(&sc);
	assert_non_null(s);
	assert_int_equal(stats_start(s), 0);
	return s;
}

/* Worker 0 sleeps 200 ms then spins 20 ms; worker 1 never begins. */
static void
test_lost_accounting(void **state)
{
	struct stats_worker_clock clocks[NW];
	struct spin sp = { .sleep_ms = 200, .spin_ms = 20, .clk = &clocks[0] };
	struct stats_snapshot *s0, *s1, *s2;
	struct stats_rate r;
	struct mib_set *ms;
	struct stats *s;
	pthread_t t;

	(void)state;
	memset(clocks, 0, sizeof(clocks));
	s = __stats_with(&ms, clocks);
	s0 = stats_get(s);
	assert_non_null(s0->thread);
	assert_false(s0->thread[0].known || s0->thread[1].known);
	assert_int_equal(pthread_create(&t, NULL, lost_worker, &sp), 0);
	while (__atomic_load_n(&sp.tid, __ATOMIC_ACQUIRE) == 0)
		usleep(100);
	sp.go = 1;
	while (!sp.done)
		usleep(1000);
	stats_fold_now(s);
	s1 = stats_get(s);
	assert_true(s1->thread[0].known);
	assert_false(s1->thread[1].known);
	/* it slept 200 ms of its begin..end: at least that much lost (the
	 * TSC and the clock read at its begin and end), and the 20 ms of CPU
	 * time it spun for ran */
	assert_true(s1->thread[0].lost_ns >= 199 * 1000000ull);
	assert_true(s1->thread[0].run_ns >= 20 * 1000000ull);
	assert_int_equal(stats_rate_between(s0, s1, 0, &r), 0);
	assert_true(r.lost_known);
	assert_true(r.lost_s >= 0.19);
	assert_true(stats_rate_lost(&r));
	/* worker 1 never began: the total's lost time is not known */
	assert_int_equal(stats_rate_between(s0, s1, -1, &r), 0);
	assert_false(r.lost_known);
	/* after its end nothing more is lost, whatever its thread does */
	usleep(100 * 1000);
	stats_fold_now(s);
	s2 = stats_get(s);
	assert_true(s2->thread[0].lost_ns == s1->thread[0].lost_ns);
	assert_int_equal(stats_rate_between(s1, s2, 0, &r), 0);
	assert_true(r.lost_s == 0);
	stats_put(s, s0);
	stats_put(s, s1);
	stats_put(s, s2);
	sp.go = 0;
	pthread_join(t, NULL);
	own_stats_free(s, ms);
}

/* A worker stopped by SIGSTOP is lost time, caused "stopped" while it is. */
static void
test_lost_stopped(void **state)
{
	struct stats_worker_clock clocks[NW];
	struct stats_snapshot *s0, *s1;
	struct stats_conf sc;
	struct stats_rate r;
	struct mib_set *ms;
	struct stats *s;
	char root[64];
	pid_t pid;
	int fd[2], st;

	(void)state;
	/* The stopped thread is a child process's (a stopped thread of this
	 * process would stop all of it): it publishes its clock through a
	 * pipe, and the stats object reads its thread under /proc/PID/task
	 * (the clock of another process's thread is not readable: schedstat
	 * gives the run time). */
	memset(clocks, 0, sizeof(clocks));
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct stats_worker_clock k = { .tid = 0 };

		stats_worker_begin(&k);
		if (write(fd[1], &k, sizeof(k)) != (ssize_t)sizeof(k))
			_exit(1);
		for (;;)
			;
	}
	assert_int_equal(read(fd[0], &clocks[0], sizeof(clocks[0])),
			 (ssize_t)sizeof(clocks[0]));
	snprintf(root, sizeof(root), "/proc/%d/task", (int)pid);
	ms = mib_set_create(NW + 1, MIB_LAYOUT_PERCPU, NULL);
	assert_non_null(ms);
	fixture_stats_conf(&sc, ms, 3600, 0, 0);
	sc.clocks = clocks;
	sc.task_root = root;
	s = stats_create(&sc);
	assert_non_null(s);
	assert_int_equal(stats_start(s), 0);
	s0 = stats_get(s);
	assert_true(s0->thread[0].known);
	assert_int_equal(kill(pid, SIGSTOP), 0);
	usleep(300 * 1000);
	stats_fold_now(s);
	s1 = stats_get(s);
	assert_int_equal(s1->thread[0].state, 'T');
	assert_int_equal(stats_rate_between(s0, s1, 0, &r), 0);
	/* stopped ~300 ms: at least 250 ms not run (schedstat may lag the
	 * run time by a tick of the child's last run) */
	assert_true(r.lost_s >= 0.25);
	assert_int_equal(r.lost_cause, STATS_LOST_STOPPED);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(fd[0]);
	close(fd[1]);
	stats_put(s, s0);
	stats_put(s, s1);
	own_stats_free(s, ms);
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
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_reader_fake),
		cmocka_unit_test(test_reader_self),
		cmocka_unit_test(test_lost_accounting),
		cmocka_unit_test(test_lost_stopped),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
