/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/ingress unit tests, the hook and its guards (cmocka, EAL without
 * hugepages, lcores 0-1):
 *
 *  - names: mode and scope names round trip
 *  - hook_single: every mode and scope on the main lcore: verdicts, marks,
 *    counters, refusals (-EPERM, -EINVAL, -ENOENT), the updater over
 *    several runs
 *  - info_from_ops: what ingress_info() reports of kinds the hook does not
 *    know, through their ops table (a rule count, or none)
 *  - worker_lifecycle: start/stop edge cases, QSBR state checked directly
 *  - writer_vs_stopped_worker: a writer completes while a registered worker
 *    is stopped, or running in lock mode; QSBR state checked directly
 *
 * The 2-lcore stress test (writers against a classifying worker) is
 * test_ingress_stress.c.
 *
 * No test depends on timing: waits are for progress (a burst counter, a
 * stage flag), never for a duration. A watchdog turns a writer blocked
 * forever into a failure instead of a hang.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include "ingress_pvt.h"
#include "test_ingress.h"

/* Designated-initializer defaults overridden per frame (F() in test_ingress.h). */
#pragma GCC diagnostic ignored "-Woverride-init"

/* ------------------------------------------------------------------ */
/* names                                                               */
/* ------------------------------------------------------------------ */

static void
test_names(void **state)
{
	enum ingress_mode m;
	enum ingress_scope s;
	unsigned int i;

	(void)state;
	for (i = 0; i < INGRESS_MODE_MAX; i++) {
		assert_non_null(ingress_mode_name(i));
		assert_int_equal(ingress_mode_parse(ingress_mode_name(i), &m), 0);
		assert_int_equal(m, i);
	}
	assert_string_equal(ingress_mode_name(INGRESS_RWLOCK), "rwlock");
	assert_string_equal(ingress_mode_name(INGRESS_MODE_MAX), "?");
	m = INGRESS_LOCK;
	assert_int_equal(ingress_mode_parse("RCU", &m), -EINVAL);
	assert_int_equal(ingress_mode_parse("", &m), -EINVAL);
	assert_int_equal(ingress_mode_parse(NULL, &m), -EINVAL);
	assert_int_equal(m, INGRESS_LOCK);
	for (i = 0; i < INGRESS_SCOPE_MAX; i++) {
		assert_int_equal(ingress_scope_parse(ingress_scope_name(i), &s), 0);
		assert_int_equal(s, i);
	}
	assert_string_equal(ingress_scope_name(INGRESS_SCOPE_PACKET), "packet");
	assert_int_equal(ingress_scope_parse("bursts", &s), -EINVAL);
	assert_string_equal(ingress_scope_name(INGRESS_SCOPE_MAX), "?");
}

/* ------------------------------------------------------------------ */
/* hook_single                                                         */
/* ------------------------------------------------------------------ */

/* An updater source that records the seq of every update it is asked for. */
static const struct ingress_classifier *upd_src;
static unsigned int upd_seen[4096], upd_seen_n;

static struct ingress_classifier *
make_recorded(void *arg, unsigned int seq)
{
	(void)arg;
	if (upd_seen_n < RTE_DIM(upd_seen))
		upd_seen[upd_seen_n++] = seq;
	return ingress_classifier_clone(upd_src);
}

static void
test_hook_single(void **state)
{
	static const char *rules = "default pass\n"
		"prio 1 src 198.18.0.0/31 action drop\n"	/* .1 */
		"prio 2 src 198.18.0.2/32 action mark 77\n"	/* .2 */
		"prio 3 src 198.18.0.3/32 action count\n";	/* .3: count */
	struct mib_set *ms = mibs_new(2);
	struct mib_block w = mib_set_block(ms, 0), ctl = mib_set_block(ms, 1);
	struct ingress_classifier *c = must_parse(rules);
	struct rte_mbuf *pkts[8];
	uint8_t keep[8];
	struct ingress *ing;
	unsigned int i, mode, scope;
	uint64_t flips = 0, pk = 0;
	char desc[INGRESS_DESC_MAX];

	(void)state;
	signal(SIGALRM, watchdog);
	alarm(120);	/* the worker is this thread: a flip must not wait for it */
	for (i = 0; i < 8; i++)
		pkts[i] = frame(&F(.src = IP4(198, 18, 0, 1 + i)));

	/* creation errors */
	assert_null(ingress_create(0, INGRESS_RCU, INGRESS_SCOPE_BURST, c, ctl, SOCKET_ID_ANY));
	assert_int_equal(rte_errno, EINVAL);
	assert_null(ingress_create(1, INGRESS_RCU, INGRESS_SCOPE_BURST, NULL, ctl, SOCKET_ID_ANY));
	assert_null(ingress_create(1, INGRESS_MODE_MAX, INGRESS_SCOPE_BURST, c, ctl, SOCKET_ID_ANY));

	/* off with no classifier: can't leave off until one is installed */
	ing = ingress_create(1, INGRESS_OFF, INGRESS_SCOPE_PACKET, NULL, ctl, SOCKET_ID_ANY);
	assert_non_null(ing);
	ingress_describe(ing, desc, sizeof(desc));
	assert_string_equal(desc, "none");
	ingress_worker_start(ing, 0);
	memset(keep, 7, sizeof(keep));
	assert_int_equal(ingress_burst(ing, 0, pkts, 8, keep, &w), 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(keep[i], 1);
	assert_int_equal(RD(w, PACKETS), 0);
	assert_int_equal(ingress_set_mode(ing, INGRESS_LOCK), -ENOENT);
	assert_int_equal(ingress_get_mode(ing), INGRESS_OFF);
	assert_int_equal(ingress_replace(ing, NULL), -EINVAL);
	assert_int_equal(ingress_replace(ing, c), 0);
	assert_int_equal(ingress_replace(ing, c), -EINVAL);	/* already in */
	ingress_describe(ing, desc, sizeof(desc));
	assert_string_equal(desc, "rules t.rules: 3 rules (1 count), default pass");
	{
		struct ingress_info in;

		ingress_info(ing, &in);
		assert_string_equal(in.kind, "rules");
		assert_string_equal(in.desc, desc);
		assert_int_equal(in.rules, 3);
		assert_int_equal(in.id, c->id);
	}
	assert_int_equal(RD(ctl, RULEUPDATES), 1);
	assert_int_equal(RD(ctl, GRACEPERIODS), 1);

	for (mode = INGRESS_NONE; mode < INGRESS_MODE_MAX; mode++) {
		for (scope = 0; scope < INGRESS_SCOPE_MAX; scope++) {
			uint64_t acq0 = RD(w, LOCKACQUIRES), q0 = RD(w, RCUQUIESCENT);

			assert_int_equal(ingress_set_scope(ing, scope), 0);
			assert_int_equal(ingress_get_scope(ing), scope);
			if (ingress_get_mode(ing) != mode)
				flips++;
			assert_int_equal(ingress_set_mode(ing, mode), 0);
			assert_int_equal(ingress_get_mode(ing), mode);
			for (i = 0; i < 8; i++) {
				pkts[i]->ol_flags = 0;
				pkts[i]->hash.fdir.hi = 0;
			}
			assert_int_equal(ingress_burst(ing, 0, pkts, 8, keep, &w), 7);
			/* the mode the burst ran in, for the Mode group */
			assert_int_equal(ingress_worker_mode(ing, 0), mode);
			pk += 8;
			assert_int_equal(keep[0], 0);
			for (i = 1; i < 8; i++)
				assert_int_equal(keep[i], 1);
			assert_int_equal(pkts[1]->hash.fdir.hi, 77);
			assert_true((pkts[1]->ol_flags & (RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID)) ==
				    (RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID));
			assert_int_equal(pkts[2]->ol_flags, 0);
			ingress_worker_quiescent(ing, 0, &w);
			if (mode == INGRESS_LOCK || mode == INGRESS_RWLOCK)
				assert_int_equal(RD(w, LOCKACQUIRES) - acq0,
						 scope == INGRESS_SCOPE_PACKET ? 8 : 1);
			else
				assert_int_equal(RD(w, LOCKACQUIRES), acq0);
			assert_int_equal(RD(w, RCUQUIESCENT) - q0, mode == INGRESS_RCU);
		}
	}
	assert_int_equal(RD(w, PACKETS), pk);
	assert_int_equal(RD(w, PASSED), pk / 8 * 7);
	assert_int_equal(RD(w, DROPPED), pk / 8);
	assert_int_equal(RD(w, MARKED), pk / 8);
	assert_int_equal(RD(w, MATCHED), pk / 8 * 3);	/* .1 .2 .3 */
	assert_int_equal(RD(w, LOCKCONTENDED), 0);	/* alone */
	assert_int_equal(RD(ctl, MODEFLIPS), flips);

	/* bursts longer than INGRESS_BURST_MAX, and empty ones */
	{
		struct rte_mbuf *big[INGRESS_BURST_MAX + 3];
		uint8_t bk[INGRESS_BURST_MAX + 3];

		for (i = 0; i < RTE_DIM(big); i++)
			big[i] = pkts[i % 8];
		assert_int_equal(ingress_burst(ing, 0, big, RTE_DIM(big), bk, &w),
				 RTE_DIM(big) - (RTE_DIM(big) + 7) / 8);
		assert_int_equal(bk[INGRESS_BURST_MAX], 0);	/* pkts[0] */
		assert_int_equal(ingress_burst(ing, 0, big, 0, bk, &w), 0);
	}

	/* The updater over several runs: its count and its seq go on. */
	assert_int_equal(ingress_set_mode(ing, INGRESS_LOCK), 0);
	/* This thread is worker 0: it takes lock (leaving rcu, going
	 * offline) at its next burst boundary, which the updater's grace
	 * periods would otherwise wait for. */
	ingress_worker_quiescent(ing, 0, &w);
	upd_seen_n = 0;
	upd_src = ingress_classifier_clone(c);	/* ours: c goes with the first update */
	assert_non_null(upd_src);
	assert_int_equal(ingress_updater_runs(ing), 0);
	for (i = 0; i < 3; i++) {
		uint64_t u0 = ingress_updater_count(ing);

		assert_int_equal(ingress_updater_start(ing, 2000, make_recorded, NULL), 0);
		while (ingress_updater_count(ing) < u0 + 5) {
			ingress_worker_quiescent(ing, 0, &w);
			rte_delay_us_sleep(1000);
		}
		ingress_updater_stop(ing);
		assert_int_equal(ingress_updater_runs(ing), i + 1);
	}
	assert_int_equal(ingress_updater_count(ing), upd_seen_n);
	for (i = 0; i < upd_seen_n; i++)
		assert_int_equal(upd_seen[i], i);	/* 0, 1, 2... across runs */
	c = NULL;	/* freed by the hook with the first update */

	/* none refuses updates; the updater refuses none */
	assert_int_equal(ingress_set_mode(ing, INGRESS_NONE), 0);
	{
		struct ingress_classifier *n = ingress_classifier_clone(upd_src);

		assert_int_equal(ingress_replace(ing, n), -EPERM);
		ingress_classifier_free(n);
	}
	assert_int_equal(ingress_updater_start(ing, 10, (ingress_make_fn)NULL, NULL), -EINVAL);
	assert_int_equal(ingress_set_mode(ing, INGRESS_MODE_MAX), -EINVAL);
	assert_int_equal(ingress_set_scope(ing, INGRESS_SCOPE_MAX), -EINVAL);

	ingress_worker_stop(ing, 0);
	ingress_free(ing);
	ingress_classifier_free((struct ingress_classifier *)upd_src);
	alarm(0);
	for (i = 0; i < 8; i++)
		rte_pktmbuf_free(pkts[i]);
	mib_set_free(ms);
}

/* Two kinds the hook knows only through their ops: one that counts its
 * rules (ctx: the count), one without a rules op. */
static void
counted_classify(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
		 struct ingress_result *res)
{
	(void)ctx;
	(void)pkts;
	memset(res, 0, sizeof(*res) * n);
}

static void
counted_free(void *ctx)
{
	__ingress_poison(ctx, sizeof(int));
	free(ctx);
}

static int
counted_rules(const void *ctx)
{
	return *(const int *)ctx;
}

static const struct ingress_classifier_ops counted_ops = {
	.kind = "counted", .classify_burst = counted_classify,
	.free = counted_free, .rules = counted_rules,
};
static const struct ingress_classifier_ops uncounted_ops = {
	.kind = "uncounted", .classify_burst = counted_classify,
	.free = counted_free,
};

static struct ingress_classifier *
counted(const struct ingress_classifier_ops *ops, int rules)
{
	int *ctx = malloc(sizeof(*ctx));
	struct ingress_classifier *c;

	assert_non_null(ctx);
	*ctx = rules;
	c = ingress_classifier_create(ops, ctx, ops->kind);
	assert_non_null(c);
	return c;
}

static void
test_info_from_ops(void **state)
{
	struct mib_set *ms = mibs_new(1);
	struct ingress_classifier *a = counted(&counted_ops, 42);
	struct ingress_classifier *b = counted(&uncounted_ops, 7);
	struct ingress_info in;
	struct ingress *ing;

	(void)state;
	assert_int_equal(ingress_classifier_rules(a), 42);
	assert_int_equal(ingress_classifier_rules(b), -1);
	ing = ingress_create(1, INGRESS_OFF, INGRESS_SCOPE_BURST, a,
			     mib_set_block(ms, 0), SOCKET_ID_ANY);
	assert_non_null(ing);
	ingress_info(ing, &in);
	assert_string_equal(in.kind, "counted");
	assert_int_equal(in.rules, 42);
	assert_int_equal(ingress_replace(ing, b), 0);
	ingress_info(ing, &in);
	assert_string_equal(in.kind, "uncounted");
	assert_string_equal(in.desc, "uncounted");
	assert_int_equal(in.rules, -1);
	assert_int_equal(in.id, b->id);
	ingress_free(ing);
	mib_set_free(ms);
}

/* Start/stop edge cases, on the main lcore (worker 0 is this thread). */
static void
test_worker_lifecycle(void **state)
{
	struct mib_set *ms = mibs_new(2);
	struct mib_block w = mib_set_block(ms, 0);
	struct ingress_classifier *a = must_parse("action pass\n");
	struct rte_mbuf *m = frame(&F());
	struct ingress *ing;
	uint8_t keep;
	uint64_t tok;

	(void)state;
	signal(SIGALRM, watchdog);
	alarm(120);
	ing = ingress_create(1, INGRESS_RCU, INGRESS_SCOPE_BURST,
			     ingress_classifier_clone(a), mib_set_block(ms, 1),
			     SOCKET_ID_ANY);
	assert_non_null(ing);
	/* A burst without ingress_worker_start(): started implicitly, online. */
	assert_int_equal(ingress_burst(ing, 0, &m, 1, &keep, &w), 1);
	assert_int_equal(ing->w[0].cfg, __INGRESS_CFG(INGRESS_RCU, INGRESS_SCOPE_BURST));
	tok = rte_rcu_qsbr_start(ing->qsv);
	assert_int_equal(rte_rcu_qsbr_check(ing->qsv, tok, false), 0);
	ingress_worker_quiescent(ing, 0, &w);
	assert_int_equal(rte_rcu_qsbr_check(ing->qsv, tok, false), 1);
	/* Started twice, then flipped to lock by itself between bursts: the
	 * flip does not wait for the caller, and a replace by the caller
	 * (still online in rcu) reports its own quiescent state. */
	ingress_worker_start(ing, 0);
	ingress_worker_start(ing, 0);
	assert_int_equal(ingress_set_mode(ing, INGRESS_LOCK), 0);
	assert_int_equal(ingress_replace(ing, ingress_classifier_clone(a)), 0);
	assert_int_equal(ingress_burst(ing, 0, &m, 1, &keep, &w), 1);
	tok = rte_rcu_qsbr_start(ing->qsv);
	assert_int_equal(rte_rcu_qsbr_check(ing->qsv, tok, false), 1);	/* offline */
	/* Stopped, then a burst: restarts with the current cfg. */
	ingress_worker_stop(ing, 0);
	assert_int_equal(ing->w[0].cfg, __INGRESS_W_STOPPED);
	assert_int_equal(ingress_set_mode(ing, INGRESS_RCU), 0);
	assert_int_equal(ingress_burst(ing, 0, &m, 1, &keep, &w), 1);
	assert_int_equal(ing->w[0].cfg, __INGRESS_CFG(INGRESS_RCU, INGRESS_SCOPE_BURST));
	assert_int_equal(ingress_replace(ing, ingress_classifier_clone(a)), 0);
	ingress_worker_stop(ing, 0);
	alarm(0);
	/* The control activity word: 2 flips, 2 updates and their grace
	 * periods begun, none in progress. */
	{
		uint64_t act = ingress_activity(ing);
		char buf[160];

		assert_int_equal(act & 0xff, 0);
		assert_int_equal((act >> INGRESS_ACT_SHIFT_FLIP) & 0xffff, 2);
		assert_int_equal((act >> INGRESS_ACT_SHIFT_UPDATE) & 0xffff, 2);
		assert_int_equal((act >> INGRESS_ACT_SHIFT_GRACE) & 0xffff, 2);
		ingress_activity_describe(act, act, buf, sizeof(buf));
		assert_string_equal(buf, "idle");
		ingress_activity_describe(0, act, buf, sizeof(buf));
		assert_string_equal(buf, "begun: 2 flips, 2 rule updates, 2 grace periods");
		ingress_activity_describe(act, act + (1ull << INGRESS_ACT_SHIFT_UPDATE) +
					  (1ull << INGRESS_ACT_SHIFT_GRACE) + INGRESS_ACT_GRACE,
					  buf, sizeof(buf));
		assert_string_equal(buf, "grace period in progress; begun: 1 rule update, "
				    "1 grace period");
		ingress_activity_describe(INGRESS_ACT_FLIP, INGRESS_ACT_UPDATE, buf,
					  sizeof(buf));
		assert_string_equal(buf, "flip, rule update in progress");
		/* the counters wrap at 2^16 */
		ingress_activity_describe(0xffffull << INGRESS_ACT_SHIFT_FLIP, 0, buf,
					  sizeof(buf));
		assert_string_equal(buf, "begun: 1 flip");
		/* ... on the writer's side too: a flip count wrapping to 0
		 * leaves the rule update count as it was. */
		ing->activity = 0xffffull << INGRESS_ACT_SHIFT_FLIP |
				5ull << INGRESS_ACT_SHIFT_UPDATE;
		assert_int_equal(ingress_set_mode(ing, INGRESS_LOCK), 0);
		act = ingress_activity(ing);
		assert_int_equal((act >> INGRESS_ACT_SHIFT_FLIP) & 0xffff, 0);
		assert_int_equal((act >> INGRESS_ACT_SHIFT_UPDATE) & 0xffff, 5);
		assert_int_equal(act >> INGRESS_ACT_SHIFT_GRACE, 0);
	}
	assert_int_equal(RD(w, PACKETS), 3);
	ingress_free(ing);
	ingress_classifier_free(a);
	rte_pktmbuf_free(m);
	mib_set_free(ms);
}

/* ------------------------------------------------------------------ */
/* writer_vs_stopped_worker                                            */
/* ------------------------------------------------------------------ */

struct stage_ctx {
	struct ingress *ing;
	struct mib_block mib;
	struct rte_mbuf *pkts[4];
	uint32_t stage;		/* worker -> main */
	uint32_t go;		/* main -> worker */
	uint64_t bursts;
};

static void
wait_u32(const uint32_t *p, uint32_t v)
{
	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != v)
		rte_pause();
}

/* Worker 1: start (rcu: online), one burst, no quiescent report; wait;
 * stop. */
static int
lcore_rcu_then_stop(void *arg)
{
	struct stage_ctx *x = arg;
	uint8_t keep[4];

	ingress_worker_start(x->ing, 1);
	ingress_burst(x->ing, 1, x->pkts, 4, keep, &x->mib);
	__atomic_store_n(&x->stage, 1, __ATOMIC_RELEASE);
	wait_u32(&x->go, 1);
	ingress_worker_stop(x->ing, 1);
	__atomic_store_n(&x->stage, 2, __ATOMIC_RELEASE);
	return 0;
}

/* Worker 1 in a loop that never reports a quiescent state. */
static int
lcore_spin_no_qs(void *arg)
{
	struct stage_ctx *x = arg;
	uint8_t keep[4];

	ingress_worker_start(x->ing, 1);
	while (!__atomic_load_n(&x->go, __ATOMIC_ACQUIRE)) {
		ingress_burst(x->ing, 1, x->pkts, 4, keep, &x->mib);
		__atomic_store_n(&x->bursts, x->bursts + 1, __ATOMIC_RELEASE);
	}
	ingress_worker_stop(x->ing, 1);
	return 0;
}

static void
test_writer_vs_stopped_worker(void **state)
{
	struct mib_set *ms = mibs_new(3);
	struct ingress_classifier *a = must_parse("action pass\n");
	struct stage_ctx x;
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0), i;
	uint64_t tok, b0;

	(void)state;
	assert_true(lcore < RTE_MAX_LCORE);
	memset(&x, 0, sizeof(x));
	for (i = 0; i < 4; i++)
		x.pkts[i] = frame(&F());
	x.mib = mib_set_block(ms, 1);
	x.ing = ingress_create(2, INGRESS_RCU, INGRESS_SCOPE_BURST,
			       ingress_classifier_clone(a), mib_set_block(ms, 2),
			       SOCKET_ID_ANY);
	assert_non_null(x.ing);
	signal(SIGALRM, watchdog);
	alarm(120);

	/* 1. A registered reader online without a quiescent report holds a
	 *    grace period (checked without waiting); once stopped, it does
	 *    not, and a writer completes although worker 0 never started. */
	assert_int_equal(launch(lcore_rcu_then_stop, &x, lcore), 0);
	wait_u32(&x.stage, 1);
	tok = rte_rcu_qsbr_start(x.ing->qsv);
	assert_int_equal(rte_rcu_qsbr_check(x.ing->qsv, tok, false), 0);
	__atomic_store_n(&x.go, 1, __ATOMIC_RELEASE);
	wait_u32(&x.stage, 2);
	assert_int_equal(rte_rcu_qsbr_check(x.ing->qsv, tok, false), 1);
	assert_int_equal(join(lcore), 0);
	/* worker 1 registered and stopped, worker 0 never started: */
	assert_int_equal(ingress_replace(x.ing, ingress_classifier_clone(a)), 0);
	assert_int_equal(ingress_set_mode(x.ing, INGRESS_LOCK), 0);
	assert_int_equal(ingress_set_mode(x.ing, INGRESS_RCU), 0);
	assert_int_equal(ingress_replace(x.ing, ingress_classifier_clone(a)), 0);

	/* 2. A worker running in lock mode and never reporting a quiescent
	 *    state is offline in QSBR: writers complete while it runs. */
	assert_int_equal(ingress_set_mode(x.ing, INGRESS_LOCK), 0);
	__atomic_store_n(&x.go, 0, __ATOMIC_RELAXED);
	assert_int_equal(launch(lcore_spin_no_qs, &x, lcore), 0);
	b0 = __atomic_load_n(&x.bursts, __ATOMIC_ACQUIRE);
	while (__atomic_load_n(&x.bursts, __ATOMIC_ACQUIRE) < b0 + 10)
		rte_pause();
	for (i = 0; i < 100; i++)
		assert_int_equal(ingress_replace(x.ing, ingress_classifier_clone(a)), 0);
	assert_int_equal(ingress_set_mode(x.ing, INGRESS_RWLOCK), 0);
	for (i = 0; i < 100; i++)
		assert_int_equal(ingress_replace(x.ing, ingress_classifier_clone(a)), 0);
	/* ... and in rcu it is online: a grace period needs its report (it
	 * never makes one in this loop: check without waiting). */
	assert_int_equal(ingress_set_mode(x.ing, INGRESS_RCU), 0);
	tok = rte_rcu_qsbr_start(x.ing->qsv);
	assert_int_equal(rte_rcu_qsbr_check(x.ing->qsv, tok, false), 0);
	__atomic_store_n(&x.go, 1, __ATOMIC_RELEASE);
	assert_int_equal(join(lcore), 0);
	assert_int_equal(rte_rcu_qsbr_check(x.ing->qsv, tok, false), 1);
	assert_int_equal(ingress_replace(x.ing, ingress_classifier_clone(a)), 0);
	alarm(0);

	{
		struct mib_block cb = mib_set_block(ms, 2);

		assert_int_equal(mib_read(&cb, MIB_F(INGRESS, RULEUPDATES)), 203);
	}
	ingress_free(x.ing);
	ingress_classifier_free(a);
	for (i = 0; i < 4; i++)
		rte_pktmbuf_free(x.pkts[i]);
	mib_set_free(ms);
}

/* ------------------------------------------------------------------ */

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_hook_single),
		cmocka_unit_test(test_info_from_ops),
		cmocka_unit_test(test_worker_lifecycle),
		cmocka_unit_test(test_writer_vs_stopped_worker),
	};

	return cmocka_run_group_tests(tests, ingress_test_setup,
				      ingress_test_teardown);
}
