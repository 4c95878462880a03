/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/ingress unit test, the stress test (cmocka, EAL without hugepages,
 * lcores 0-1): a worker on lcore 1 classifies bursts in a loop (pausing now
 * and then) while the main lcore replaces rulesets thousands of times and
 * flips mode and scope across all five modes, then the same with the
 * updater thread as the writer: conservation, no burst classified by two
 * rulesets (except where documented), every flip taken when
 * ingress_set_mode() returns, exact counters; then that a flip goes before
 * a late updater's next replace (test_flip_priority).
 *
 * No test depends on timing: waits are for progress (a burst counter),
 * never for a duration. A watchdog turns a writer blocked forever into a
 * failure instead of a hang.
 */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include <cmocka.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_random.h>

#include "ingress_pvt.h"
#include "test_ingress.h"

/* Designated-initializer defaults overridden per frame (F() in test_ingress.h). */
#pragma GCC diagnostic ignored "-Woverride-init"

/* ------------------------------------------------------------------ */
/* concurrency                                                         */
/* ------------------------------------------------------------------ */

/*
 * Ruleset A drops sources .1-.15 and marks the others 1; B marks all 2.
 * Every packet's outcome names the ruleset that classified it:
 *   OFF: kept, no mark    A: dropped (low) or mark 1 (high)    B: mark 2
 */
#define RULES_A "default pass\nprio 1 src 198.18.0.0/28 action drop\nprio 2 proto udp action mark 1\n"
#define RULES_B "default pass\nprio 1 proto udp action mark 2\n"
#define CONC_N 32
enum { ID_OFF, ID_A, ID_B, ID_BAD };

struct conc {
	struct ingress *ing;
	struct mib_block mib;
	struct ingress_classifier *A, *B;
	struct rte_mbuf *pkts[CONC_N];
	uint32_t stop;			/* main -> worker */
	uint64_t bursts;		/* worker -> main (progress) */
	/* the worker's own tallies, read after it returned */
	uint64_t packets, dropped, marked, matched;
	uint64_t by_cfg[INGRESS_MODE_MAX][INGRESS_SCOPE_MAX];
	uint64_t mixed_allowed, mixed_bad, bad_outcome, off_bad, pauses;
	/* the updater's make() during a flip: how many saw the mode it
	 * flips from while the flip waited for the writer mutex (all but
	 * the last are replaces that went before it) */
	uint32_t watch_on;		/* main -> updater */
	uint32_t watch_mode;		/* atomic */
	uint64_t watch_before;		/* updater -> main */
};

static int
outcome(const struct rte_mbuf *m, uint8_t keep, unsigned int i)
{
	bool low = i + 1 < 16;		/* sources 198.18.0.(i+1) */
	bool flag = (m->ol_flags & RTE_MBUF_F_RX_FDIR_ID) != 0;

	if (!keep)
		return low ? ID_A : ID_BAD;
	if (!flag)
		return ID_OFF;
	if (m->hash.fdir.hi == 2)
		return ID_B;
	if (m->hash.fdir.hi == 1 && !low)
		return ID_A;
	return ID_BAD;
}

static int
conc_worker(void *arg)
{
	struct conc *x = arg;
	uint8_t keep[CONC_N];
	uint64_t b = 0;
	unsigned int i;

	ingress_worker_start(x->ing, 0);
	while (!__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE)) {
		unsigned int seen = 0, n_marked = 0;
		uint16_t kept;
		uint32_t cfg;
		enum ingress_mode mode;
		enum ingress_scope scope;

		for (i = 0; i < CONC_N; i++) {
			x->pkts[i]->ol_flags = 0;
			x->pkts[i]->hash.fdir.hi = 0;
		}
		kept = ingress_burst(x->ing, 0, x->pkts, CONC_N, keep, &x->mib);
		/* The cfg this burst ran with: only this worker writes it,
		 * at a burst boundary. */
		cfg = __atomic_load_n(&x->ing->w[0].cfg, __ATOMIC_RELAXED);
		mode = __INGRESS_CFG_MODE(cfg);
		scope = __INGRESS_CFG_SCOPE(cfg);
		x->by_cfg[mode][scope]++;
		for (i = 0; i < CONC_N; i++) {
			int id = outcome(x->pkts[i], keep[i], i);

			if (id == ID_BAD)
				x->bad_outcome++;
			seen |= 1u << id;
			n_marked += (x->pkts[i]->ol_flags & RTE_MBUF_F_RX_FDIR_ID) != 0;
		}
		if (mode == INGRESS_OFF) {
			if (seen != 1u << ID_OFF || kept != CONC_N)
				x->off_bad++;
		} else {
			if (seen & (1u << ID_OFF))
				x->off_bad++;
			if (__builtin_popcount(seen) > 1) {
				if ((mode == INGRESS_LOCK || mode == INGRESS_RWLOCK) &&
				    scope == INGRESS_SCOPE_PACKET)
					x->mixed_allowed++;
				else
					x->mixed_bad++;
			}
			x->packets += CONC_N;
			x->dropped += CONC_N - kept;
			x->marked += n_marked;
			x->matched += CONC_N;	/* every packet hits a rule */
		}
		ingress_worker_quiescent(x->ing, 0, &x->mib);
		__atomic_store_n(&x->bursts, ++b, __ATOMIC_RELEASE);
		if (b % 997 == 0) {	/* pause: offline, writers go on */
			ingress_worker_stop(x->ing, 0);
			for (i = 0; i < 500; i++)
				rte_pause();
			ingress_worker_start(x->ing, 0);
			x->pauses++;
		}
	}
	ingress_worker_stop(x->ing, 0);
	return 0;
}

/* ingress_set_mode()/set_scope() return only once the running worker has
 * taken the new cfg (it may be stopped, or restarting: it then reads it). */
static void
check_flip_taken(const struct ingress *ing)
{
	uint32_t hook = __atomic_load_n(&ing->cfg, __ATOMIC_RELAXED);
	uint32_t w = __atomic_load_n(&ing->w[0].cfg, __ATOMIC_ACQUIRE);

	assert_true(w == hook || w == __INGRESS_W_STOPPED ||
		    w == __INGRESS_W_STARTING);
}

static void
wait_bursts(struct conc *x, uint64_t n)
{
	uint64_t b0 = __atomic_load_n(&x->bursts, __ATOMIC_ACQUIRE);

	while (__atomic_load_n(&x->bursts, __ATOMIC_ACQUIRE) < b0 + n)
		rte_pause();
}

static struct ingress_classifier *
make_alternate(void *arg, unsigned int seq)
{
	struct conc *x = arg;

	/* Counted while the flip waits for the writer mutex (not before it
	 * asks: its thread may lose the CPU between watch_on and the ask). */
	if (__atomic_load_n(&x->watch_on, __ATOMIC_ACQUIRE) &&
	    __atomic_load_n(&x->ing->ctl->ctl_waiting, __ATOMIC_RELAXED) != 0 &&
	    ingress_get_mode(x->ing) ==
	    __atomic_load_n(&x->watch_mode, __ATOMIC_RELAXED))
		__atomic_fetch_add(&x->watch_before, 1, __ATOMIC_RELAXED);
	return ingress_classifier_clone(seq & 1 ? x->B : x->A);
}

/* The rulesets, the frames and the hook (1 worker, burst scope) of a
 * test, its MIB blocks from ms: the worker's 0, the control block 1. */
static struct conc *
conc_new(struct mib_set *ms, enum ingress_mode mode)
{
	struct conc *x = calloc(1, sizeof(*x));
	unsigned int i;

	assert_non_null(x);
	x->A = must_parse(RULES_A);
	x->B = must_parse(RULES_B);
	x->mib = mib_set_block(ms, 0);
	for (i = 0; i < CONC_N; i++)
		x->pkts[i] = frame(&F(.src = IP4(198, 18, 0, 1 + i)));
	x->ing = ingress_create(1, mode, INGRESS_SCOPE_BURST,
				ingress_classifier_clone(x->A),
				mib_set_block(ms, 1), SOCKET_ID_ANY);
	assert_non_null(x->ing);
	return x;
}

static void
conc_free(struct conc *x)
{
	unsigned int i;

	ingress_free(x->ing);
	ingress_classifier_free(x->A);
	ingress_classifier_free(x->B);
	for (i = 0; i < CONC_N; i++)
		rte_pktmbuf_free(x->pkts[i]);
	free(x);
}

static void
test_concurrency(void **state)
{
	/* Every ordered pair of modes, then a seeded random walk. */
	static const uint8_t walk[] = {
		INGRESS_OFF, INGRESS_NONE, INGRESS_LOCK, INGRESS_RWLOCK, INGRESS_RCU,
		INGRESS_OFF, INGRESS_LOCK, INGRESS_RCU, INGRESS_NONE, INGRESS_RWLOCK,
		INGRESS_OFF, INGRESS_RWLOCK, INGRESS_NONE, INGRESS_RCU, INGRESS_LOCK,
		INGRESS_OFF, INGRESS_RCU, INGRESS_RWLOCK, INGRESS_LOCK, INGRESS_NONE,
		INGRESS_OFF,
	};
	struct mib_set *ms = mibs_new(2);
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0), step, r, i;
	uint64_t replaces = 0, flips = 0, refused = 0, upd, before, before_max = 0;
	enum ingress_mode cur = INGRESS_RCU, next;
	struct conc *x = conc_new(ms, cur);
	uint64_t t[MIB_FIELD_MAX];

	(void)state;
	signal(SIGALRM, watchdog);
	alarm(250);
	assert_int_equal(launch(conc_worker, x, lcore), 0);
	wait_bursts(x, 10);

	/* Phase 1: the main lcore is the writer. */
	rte_srand(7);
	for (step = 0; step < 300; step++) {
		next = step < RTE_DIM(walk) ? walk[step] :
		       (enum ingress_mode)(rte_rand() % INGRESS_MODE_MAX);
		if (step % 3 == 0) {
			assert_int_equal(ingress_set_scope(x->ing, (step / 3) % 2), 0);
			check_flip_taken(x->ing);
		}
		assert_int_equal(ingress_set_mode(x->ing, next), 0);
		check_flip_taken(x->ing);
		flips += next != cur;
		cur = next;
		wait_bursts(x, 2);	/* the worker runs in the new mode */
		if (cur == INGRESS_NONE) {
			struct ingress_classifier *n = ingress_classifier_clone(x->B);

			assert_int_equal(ingress_replace(x->ing, n), -EPERM);
			ingress_classifier_free(n);
			refused++;
			wait_bursts(x, 20);
			continue;
		}
		for (r = 0; r < 16; r++) {
			assert_int_equal(ingress_replace(x->ing,
				make_alternate(x, (unsigned int)replaces)), 0);
			replaces++;
			if (r % 4 == 0)
				wait_bursts(x, 1);
		}
	}

	/* Phase 2: the updater thread is the writer; flips go on. */
	if (cur == INGRESS_NONE) {
		assert_int_equal(ingress_set_mode(x->ing, INGRESS_RCU), 0);
		flips++;
		cur = INGRESS_RCU;
	}
	assert_int_equal(ingress_updater_start(x->ing, 20000, make_alternate, x), 0);
	assert_int_equal(ingress_updater_start(x->ing, 20000, make_alternate, x), -EBUSY);
	for (step = 0; step < 60; step++) {
		static const uint8_t m4[] = { INGRESS_OFF, INGRESS_LOCK, INGRESS_RWLOCK, INGRESS_RCU };
		uint64_t u0 = ingress_updater_count(x->ing);

		next = m4[step % 4];
		if (step % 5 == 0)
			assert_int_equal(ingress_set_scope(x->ing, step % 2), 0);
		assert_int_equal(ingress_set_mode(x->ing, INGRESS_NONE), -EINVAL);
		/* The flip waits for at most the replace in progress: at most
		 * one make() sees the old mode while it waits (that one's
		 * replace is deferred until after the flip). */
		__atomic_store_n(&x->watch_before, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&x->watch_mode, cur, __ATOMIC_RELAXED);
		__atomic_store_n(&x->watch_on, 1, __ATOMIC_RELEASE);
		assert_int_equal(ingress_set_mode(x->ing, next), 0);
		__atomic_store_n(&x->watch_on, 0, __ATOMIC_RELAXED);
		before = __atomic_load_n(&x->watch_before, __ATOMIC_RELAXED);
		before_max = RTE_MAX(before_max, before);
		if (next != cur)
			assert_true(before <= 1);
		check_flip_taken(x->ing);
		flips += next != cur;
		cur = next;
		wait_bursts(x, 2);
		while (ingress_updater_count(x->ing) < u0 + 10)
			rte_pause();
	}
	ingress_updater_stop(x->ing);
	upd = ingress_updater_count(x->ing);
	ingress_updater_stop(x->ing);		/* idempotent */

	__atomic_store_n(&x->stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(join(lcore), 0);
	alarm(0);

	mib_fold(ms, MIB_FOLD_FIELD, t, NULL);
	print_message("  %" PRIu64 " bursts (%" PRIu64 " pauses), %" PRIu64 " replaces by main + %"
		      PRIu64 " by the updater, %" PRIu64 " flips, %" PRIu64 " packet-scope bursts "
		      "straddling an update, LockContended %" PRIu64 ", GracePeriodMaxUs %" PRIu64
		      "; at most %" PRIu64 " of the updater's make() while a flip waited\n",
		      x->bursts, x->pauses, replaces, upd, flips, x->mixed_allowed,
		      t[MIB_F(INGRESS, LOCKCONTENDED)], t[MIB_F(INGRESS, GRACEPERIODMAXUS)],
		      before_max);
	for (i = 0; i < INGRESS_MODE_MAX; i++)
		print_message("  %-6s packet %8" PRIu64 " bursts, burst %8" PRIu64 " bursts\n",
			      ingress_mode_name(i), x->by_cfg[i][0], x->by_cfg[i][1]);

	/* every packet was classified by exactly one ruleset, every burst by
	 * one (except where documented) */
	assert_int_equal(x->bad_outcome, 0);
	assert_int_equal(x->off_bad, 0);
	assert_int_equal(x->mixed_bad, 0);
	/* all five modes ran, in both scopes */
	for (i = 0; i < INGRESS_MODE_MAX; i++) {
		assert_true(x->by_cfg[i][0] > 0);
		assert_true(x->by_cfg[i][1] > 0);
	}
	/* conservation, and exact agreement with the worker's own tally */
	assert_int_equal(t[MIB_F(INGRESS, PACKETS)],
			 t[MIB_F(INGRESS, PASSED)] + t[MIB_F(INGRESS, DROPPED)]);
	assert_int_equal(t[MIB_F(INGRESS, PACKETS)], x->packets);
	assert_int_equal(t[MIB_F(INGRESS, DROPPED)], x->dropped);
	assert_int_equal(t[MIB_F(INGRESS, MARKED)], x->marked);
	assert_int_equal(t[MIB_F(INGRESS, MATCHED)], x->matched);
	assert_true(x->dropped > 0 && x->marked > 0);
	/* the control block */
	assert_int_equal(t[MIB_F(INGRESS, RULEUPDATES)], replaces + upd);
	assert_int_equal(t[MIB_F(INGRESS, GRACEPERIODS)], replaces + upd);
	assert_int_equal(t[MIB_F(INGRESS, MODEFLIPS)], flips);
	assert_true(t[MIB_F(INGRESS, LOCKACQUIRES)] > 0);
	assert_true(t[MIB_F(INGRESS, RCUQUIESCENT)] > 0);
	assert_true(replaces >= 3000);
	assert_true(refused > 0);

	conc_free(x);
	mib_set_free(ms);
}

/* ------------------------------------------------------------------ */
/* a flip goes before a late updater's next replace                    */
/* ------------------------------------------------------------------ */

#define PRIO_FLIPS 40

/* The flipper: on the updater's CPUs, at nice 19, so that when the
 * updater unlocks the writer mutex it would lock it again before the
 * flipper runs (as a control thread does on a small machine whose CPUs
 * its workers keep busy) unless it lets the flipper in first. */
static void *
prio_flipper(void *arg)
{
	struct conc *x = arg;
	enum ingress_mode cur = ingress_get_mode(x->ing), next;
	uint64_t before, *max = calloc(1, sizeof(*max));
	cpu_set_t cpus;
	unsigned int i;

	if (max == NULL ||
	    pthread_getaffinity_np(x->ing->ctl->upd_tid, sizeof(cpus), &cpus) != 0 ||
	    pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus) != 0 ||
	    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19) != 0) {
		free(max);
		return NULL;
	}
	for (i = 0; i < PRIO_FLIPS; i++) {
		next = cur == INGRESS_LOCK ? INGRESS_RCU : INGRESS_LOCK;
		__atomic_store_n(&x->watch_before, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&x->watch_mode, cur, __ATOMIC_RELAXED);
		__atomic_store_n(&x->watch_on, 1, __ATOMIC_RELEASE);
		if (ingress_set_mode(x->ing, next) != 0) {
			free(max);
			return NULL;
		}
		__atomic_store_n(&x->watch_on, 0, __ATOMIC_RELAXED);
		before = __atomic_load_n(&x->watch_before, __ATOMIC_RELAXED);
		*max = RTE_MAX(*max, before);
		cur = next;
		/* the updater runs a few replaces between two flips */
		before = ingress_updater_count(x->ing);
		while (ingress_updater_count(x->ing) < before + 3)
			sched_yield();
	}
	return max;
}

/*
 * An updater asked for 1e6 replaces a second runs late: it replaces back to
 * back, each replace holding the writer mutex for a grace period (the
 * worker on lcore 1 reports once a burst), so the mutex is free only for a
 * make() between two. A flip from a thread that gets the CPU last must
 * still wait for at most the replace in progress (updater_defer()): at most
 * one make() sees the old mode while it waits, and that one's replace comes
 * after the flip. Without the deferral, runs of replaces go first here
 * (lib/ingress/README.md). Counted, not timed.
 */
static void
test_flip_priority(void **state)
{
	struct mib_set *ms = mibs_new(2);
	struct conc *x = conc_new(ms, INGRESS_RCU);
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	pthread_t t;
	uint64_t *max = NULL;

	(void)state;
	signal(SIGALRM, watchdog);
	alarm(120);
	assert_int_equal(launch(conc_worker, x, lcore), 0);
	wait_bursts(x, 10);
	assert_int_equal(ingress_updater_start(x->ing, 1e6, make_alternate, x), 0);
	while (ingress_updater_count(x->ing) < 1000)
		sched_yield();
	assert_int_equal(pthread_create(&t, NULL, prio_flipper, x), 0);
	assert_int_equal(pthread_join(t, (void **)&max), 0);
	ingress_updater_stop(x->ing);
	__atomic_store_n(&x->stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(join(lcore), 0);
	alarm(0);
	assert_int_equal(x->bad_outcome, 0);
	assert_int_equal(x->mixed_bad, 0);
	assert_non_null(max);
	print_message("  %u flips against %" PRIu64 " replaces: at most %" PRIu64
		      " make() while a flip waited\n", PRIO_FLIPS,
		      ingress_updater_count(x->ing), *max);
	assert_true(*max <= 1);
	free(max);
	conc_free(x);
	mib_set_free(ms);
}

/* ------------------------------------------------------------------ */

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_concurrency),
		cmocka_unit_test(test_flip_priority),
	};

	return cmocka_run_group_tests(tests, ingress_test_setup,
				      ingress_test_teardown);
}
