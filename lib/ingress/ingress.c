/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ingress hook: mode flips, the writer protocol, grace periods and the
 * updater thread. The reader fast path is inline in ingress.h; the protocol
 * is described there.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include "base.h"
#include "ingress_pvt.h"

/* "pktpath", the app's type: whoever registers first creates it, the other
 * gets the same id, so --log-level=pktpath:debug covers this library too. */
RTE_LOG_REGISTER(ingress_logtype, pktpath.ingress, INFO);

#define GP_LOG_US_DEFAULT 1000
#define SPINS_BEFORE_YIELD 1000
#define MAX_WORKERS 1024

/* ---------------------------------------------------------------- */
/* Names                                                             */
/* ---------------------------------------------------------------- */

const char *const ingress_mode_names[] = {
	[INGRESS_OFF] = "off", [INGRESS_NONE] = "none", [INGRESS_LOCK] = "lock",
	[INGRESS_RWLOCK] = "rwlock", [INGRESS_RCU] = "rcu",
};
static_assert(RTE_DIM(ingress_mode_names) == INGRESS_MODE_MAX, "mode_names");

const char *const ingress_scope_names[] = {
	[INGRESS_SCOPE_PACKET] = "packet", [INGRESS_SCOPE_BURST] = "burst",
};
static_assert(RTE_DIM(ingress_scope_names) == INGRESS_SCOPE_MAX, "scope_names");

const char *
ingress_mode_name(enum ingress_mode m)
{
	return BASE_ENUM_NAME(ingress_mode_names, m);
}

int
ingress_mode_parse(const char *s, enum ingress_mode *out)
{
	int i = base_name_index(ingress_mode_names, INGRESS_MODE_MAX, s);

	if (i < 0)
		return -EINVAL;
	*out = (enum ingress_mode)i;
	return 0;
}

const char *
ingress_scope_name(enum ingress_scope s)
{
	return BASE_ENUM_NAME(ingress_scope_names, s);
}

int
ingress_scope_parse(const char *s, enum ingress_scope *out)
{
	int i = base_name_index(ingress_scope_names, INGRESS_SCOPE_MAX, s);

	if (i < 0)
		return -EINVAL;
	*out = (enum ingress_scope)i;
	return 0;
}

/* ---------------------------------------------------------------- */
/* Create / free                                                     */
/* ---------------------------------------------------------------- */

/* Copy what ingress_info() reports about c (the classifier now installed). */
static void
__info_set(struct __ingress_ctl *c, const struct ingress_classifier *cls)
{
	struct ingress_info in;

	memset(&in, 0, sizeof(in));
	in.rules = -1;
	snprintf(in.desc, sizeof(in.desc), "none");
	if (cls != NULL) {
		snprintf(in.kind, sizeof(in.kind), "%s", ingress_classifier_kind(cls));
		snprintf(in.desc, sizeof(in.desc), "%s", ingress_classifier_desc(cls));
		in.rules = ingress_classifier_rules(cls);
		in.id = cls->id;
	}
	pthread_mutex_lock(&c->info_mtx);
	c->info = in;
	pthread_mutex_unlock(&c->info_mtx);
}

struct ingress *
ingress_create(unsigned int n_workers, enum ingress_mode mode,
	       enum ingress_scope scope, struct ingress_classifier *initial,
	       struct mib_block ctl, int socket)
{
	struct ingress *ing;
	struct __ingress_ctl *c;
	size_t qsz;
	unsigned int i;

	if (n_workers == 0 || n_workers > MAX_WORKERS ||
	    (unsigned int)mode >= INGRESS_MODE_MAX ||
	    (unsigned int)scope >= INGRESS_SCOPE_MAX ||
	    (initial == NULL && mode != INGRESS_OFF) || ctl.base == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	ing = rte_zmalloc_socket("ingress", sizeof(*ing) +
				 n_workers * sizeof(ing->w[0]),
				 RTE_CACHE_LINE_SIZE, socket);
	c = calloc(1, sizeof(*c));
	qsz = rte_rcu_qsbr_get_memsize(n_workers);
	if (ing)
		ing->qsv = rte_zmalloc_socket("ingress_qsbr", qsz,
					      RTE_CACHE_LINE_SIZE, socket);
	if (ing == NULL || c == NULL || ing->qsv == NULL ||
	    rte_rcu_qsbr_init(ing->qsv, n_workers) != 0) {
		if (ing)
			rte_free(ing->qsv);
		rte_free(ing);
		free(c);
		rte_errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&c->mtx, NULL);
	pthread_mutex_init(&c->upd_mtx, NULL);
	pthread_mutex_init(&c->info_mtx, NULL);
	__info_set(c, initial);
	c->mib = ctl;
	c->gp_log_us = GP_LOG_US_DEFAULT;
	c->socket = socket;
	ing->ctl = c;
	ing->n_workers = n_workers;
	ing->cfg = __INGRESS_CFG(mode, scope);
	ing->cur = initial;
	rte_spinlock_init(&ing->lock);
	rte_rwlock_init(&ing->rwlock);
	for (i = 0; i < n_workers; i++) {
		ing->w[i].cfg = __INGRESS_W_STOPPED;
		ing->w[i].lcore = LCORE_ID_ANY;
	}
	INGRESS_LOG(DEBUG, "hook for %u workers, mode %s, scope %s, %s",
		    n_workers, ingress_mode_names[mode], ingress_scope_names[scope],
		    initial ? ingress_classifier_desc(initial) : "no classifier");
	return ing;
}

void
ingress_free(struct ingress *ing)
{
	if (ing == NULL)
		return;
	ingress_updater_stop(ing);
	ingress_classifier_free(ing->cur);
	pthread_mutex_destroy(&ing->ctl->mtx);
	pthread_mutex_destroy(&ing->ctl->upd_mtx);
	pthread_mutex_destroy(&ing->ctl->info_mtx);
	free(ing->ctl);
	rte_free(ing->qsv);
	rte_free(ing);
}

/* ---------------------------------------------------------------- */
/* Worker side (the cold part)                                       */
/* ---------------------------------------------------------------- */

static bool
cfg_is_rcu(uint32_t cfg)
{
	return cfg != __INGRESS_W_STOPPED && cfg != __INGRESS_W_STARTING &&
	       __INGRESS_CFG_MODE(cfg) == INGRESS_RCU;
}

void
__ingress_worker_switch(struct ingress *ing, unsigned int wid, uint32_t cfg)
{
	struct __ingress_worker *w = &ing->w[wid];
	uint32_t old = __atomic_load_n(&w->cfg, __ATOMIC_RELAXED);

	if (unlikely(old == __INGRESS_W_STOPPED)) {
		/* A burst from a stopped (or never started) worker: go
		 * through the whole start protocol, fence included, rather
		 * than publish a cfg loaded before it. */
		ingress_worker_start(ing, wid);
		return;
	}
	if (cfg_is_rcu(old) && !cfg_is_rcu(cfg)) {
		/* Leaving rcu: our last pointer use was in an earlier burst.
		 * The store-release inside orders it before "offline", after
		 * which a writer no longer waits for us. */
		rte_rcu_qsbr_thread_offline(ing->qsv, wid);
	} else if (!cfg_is_rcu(old) && cfg_is_rcu(cfg)) {
		/* Entering rcu: online BEFORE the first pointer load. The
		 * seq_cst fence inside keeps our next loads of the pointer
		 * from moving above the store that makes us visible online. */
		rte_rcu_qsbr_thread_online(ing->qsv, wid);
	}
	/* Release: every access this worker made under the old cfg (the
	 * unguarded reads of none mode in particular) is ordered before the
	 * control side's acquire load that sees the new cfg. */
	__atomic_store_n(&w->cfg, cfg, __ATOMIC_RELEASE);
}

void
ingress_worker_start(struct ingress *ing, unsigned int wid)
{
	struct __ingress_worker *w = &ing->w[wid];

	RTE_VERIFY(wid < ing->n_workers);
	/* Started twice: restart from offline (release: as in stop). */
	if (cfg_is_rcu(__atomic_load_n(&w->cfg, __ATOMIC_RELAXED)))
		rte_rcu_qsbr_thread_offline(ing->qsv, wid);
	/* Registered but offline until the switch below (thread-safe,
	 * idempotent). */
	rte_rcu_qsbr_thread_register(ing->qsv, wid);
	/* Relaxed: for logs and self_worker(); ordered by the fence below. */
	__atomic_store_n(&w->lcore, rte_lcore_id(), __ATOMIC_RELAXED);
	__atomic_store_n(&w->cfg, __INGRESS_W_STARTING, __ATOMIC_RELAXED);
	/* Store-load fence, the other half of the one in set_cfg(): our
	 * "running" store is globally visible before we load the hook's cfg,
	 * so either the control side sees us running and waits for us, or
	 * we see its new cfg. */
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* Acquire: as in __ingress_sync(). */
	__ingress_worker_switch(ing, wid,
				__atomic_load_n(&ing->cfg, __ATOMIC_ACQUIRE));
}

void
ingress_worker_stop(struct ingress *ing, unsigned int wid)
{
	struct __ingress_worker *w = &ing->w[wid];

	RTE_VERIFY(wid < ing->n_workers);
	if (cfg_is_rcu(__atomic_load_n(&w->cfg, __ATOMIC_RELAXED)))
		rte_rcu_qsbr_thread_offline(ing->qsv, wid);	/* release */
	/* Release: our last burst's accesses come before a control thread
	 * sees "stopped" and stops waiting for us. */
	__atomic_store_n(&w->cfg, __INGRESS_W_STOPPED, __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------- */
/* Control side                                                      */
/* ---------------------------------------------------------------- */

static void
backoff(unsigned int *spins)
{
	if (++*spins < SPINS_BEFORE_YIELD)
		rte_pause();
	else
		sched_yield();	/* the control thread may share a CPU */
}

/* Append "i (lcore L)" to a list. */
static void
who_append(char *buf, size_t len, unsigned int i, unsigned int lcore)
{
	size_t n = strlen(buf);

	if (n + 1 >= len)
		return;
	if (lcore == LCORE_ID_ANY)
		snprintf(buf + n, len - n, "%s%u", n ? ", " : "", i);
	else
		snprintf(buf + n, len - n, "%s%u (lcore %u)", n ? ", " : "", i,
			 lcore);
}

/*
 * The worker the calling thread is, or UINT_MAX. A worker calling the
 * control side does so between two bursts, so it holds nothing: it is not
 * waited for. Only EAL lcores are recognised (a non-EAL thread has no
 * unique id).
 */
static unsigned int
self_worker(const struct ingress *ing)
{
	unsigned int self = rte_lcore_id(), i;

	if (self == LCORE_ID_ANY)
		return UINT_MAX;
	for (i = 0; i < ing->n_workers; i++)
		if (__atomic_load_n(&ing->w[i].lcore, __ATOMIC_RELAXED) == self &&
		    __atomic_load_n(&ing->w[i].cfg, __ATOMIC_RELAXED) !=
		    __INGRESS_W_STOPPED)
			return i;
	return UINT_MAX;
}

/* Wait until every started worker runs with cfg. */
static void
wait_workers(struct ingress *ing, uint32_t cfg)
{
	const uint64_t hz = rte_get_tsc_hz();
	const unsigned int self = self_worker(ing);
	uint64_t t0 = rte_rdtsc(), next_log = t0 + hz;
	unsigned int i, spins = 0;
	uint32_t v;

	for (i = 0; i < ing->n_workers; i++) {
		if (i == self)
			continue;
		for (;;) {
			/* Acquire: pairs with the worker's store-release in
			 * its switch/stop: what it did under the old cfg is
			 * over once we read the new value or "stopped". */
			v = __atomic_load_n(&ing->w[i].cfg, __ATOMIC_ACQUIRE);
			if (v == cfg || v == __INGRESS_W_STOPPED)
				break;
			if (rte_rdtsc() > next_log) {
				INGRESS_LOG(
					WARNING,
					"flip to %s/%s: waiting %" PRIu64
					" ms for worker %u (lcore %u); does its loop call ingress_worker_quiescent() or ingress_worker_stop()?",
					ingress_mode_names[__INGRESS_CFG_MODE(cfg)],
					ingress_scope_names[__INGRESS_CFG_SCOPE(cfg)],
					base_scale(rte_rdtsc() - t0, 1000, hz), i,
					__atomic_load_n(&ing->w[i].lcore,
							__ATOMIC_RELAXED));
				next_log += hz;
			}
			backoff(&spins);
		}
	}
}

/* The control activity word (under the writer mutex: one writer). Each
 * 16-bit count wraps within its own field: a carry out of one must not
 * count a begun activity of the next kind. */
static void
act_begin(struct ingress *ing, unsigned int bit, unsigned int shift)
{
	uint64_t v = __atomic_load_n(&ing->activity, __ATOMIC_RELAXED);
	uint64_t field = UINT64_C(0xffff) << shift;

	v = (v & ~field) | ((v + (UINT64_C(1) << shift)) & field);
	__atomic_store_n(&ing->activity, v | bit, __ATOMIC_RELAXED);
}

static void
act_end(struct ingress *ing, unsigned int bit)
{
	uint64_t v = __atomic_load_n(&ing->activity, __ATOMIC_RELAXED);

	__atomic_store_n(&ing->activity, v & ~(uint64_t)bit, __ATOMIC_RELAXED);
}

int
ingress_activity_describe(uint64_t start, uint64_t end, char *buf, size_t len)
{
	static const struct {
		unsigned int bit, shift;
		const char *one, *many;
	} k[] = {
		{ INGRESS_ACT_FLIP, INGRESS_ACT_SHIFT_FLIP, "flip", "flips" },
		{ INGRESS_ACT_UPDATE, INGRESS_ACT_SHIFT_UPDATE, "rule update",
		  "rule updates" },
		{ INGRESS_ACT_GRACE, INGRESS_ACT_SHIFT_GRACE, "grace period",
		  "grace periods" },
	};
	uint64_t now = (start | end) & 0xff;
	unsigned int i, n = 0, any = 0;
	size_t o = 0;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < RTE_DIM(k); i++) {
		if (!(now & k[i].bit) || o >= len)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", any++ ? ", " : "",
				      k[i].one);
	}
	if (any && o < len)
		o += (size_t)snprintf(buf + o, len - o, " in progress");
	for (i = 0; i < RTE_DIM(k); i++) {
		unsigned int d = (unsigned int)(((end >> k[i].shift) -
						 (start >> k[i].shift)) & 0xffff);

		if (d == 0 || o >= len)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%u %s",
				      n++ ? ", " : any ? "; begun: " : "begun: ", d,
				      d == 1 ? k[i].one : k[i].many);
	}
	if (!any && n == 0)
		o = (size_t)snprintf(buf, len, "idle");
	return (int)o;
}

/* Publish cfg and wait for the workers; under the writer mutex. */
static void
set_cfg(struct ingress *ing, uint32_t cfg)
{
	act_begin(ing, INGRESS_ACT_FLIP, INGRESS_ACT_SHIFT_FLIP);
	/* Release: pairs with the workers' acquire load in __ingress_sync():
	 * what we wrote before (e.g. a classifier installed while off) is
	 * visible to a worker that takes the new cfg. */
	__atomic_store_n(&ing->cfg, cfg, __ATOMIC_RELEASE);
	/* Store-load fence, the other half of ingress_worker_start()'s: the
	 * new cfg is visible before we read the workers' states, so a
	 * worker we read as stopped loads the new cfg when it starts. */
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	wait_workers(ing, cfg);
	act_end(ing, INGRESS_ACT_FLIP);
}

/*
 * The writer mutex for every caller but the updater's replaces: counted
 * while it waits. A pthread mutex is not fair (a thread that unlocks and
 * locks again usually wins), and an updater running late replaces back to
 * back, so a flip could wait behind a run of replaces (lib/ingress/README.md
 * has the measurement); the updater lets these callers in before each
 * replace (updater_defer()), so that one waits for at most one replace: the
 * one in progress, or begun, when it asked.
 */
static void
ctl_lock(struct __ingress_ctl *c)
{
	/* Relaxed: a hint for the updater's order, it guards no data. */
	__atomic_fetch_add(&c->ctl_waiting, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&c->mtx);
	__atomic_fetch_sub(&c->ctl_waiting, 1, __ATOMIC_RELAXED);
}

int
ingress_set_mode(struct ingress *ing, enum ingress_mode mode)
{
	struct __ingress_ctl *c = ing->ctl;
	uint32_t old;
	int rc = 0;

	if ((unsigned int)mode >= INGRESS_MODE_MAX)
		return -EINVAL;
	ctl_lock(c);
	/* cfg is only written under this mutex: relaxed is enough. */
	old = __atomic_load_n(&ing->cfg, __ATOMIC_RELAXED);
	if (mode == INGRESS_NONE && c->upd_running)
		rc = -EINVAL;
	else if (mode != INGRESS_OFF && ing->cur == NULL)
		rc = -ENOENT;
	else if (__INGRESS_CFG_MODE(old) != mode) {
		set_cfg(ing, __INGRESS_CFG(mode, __INGRESS_CFG_SCOPE(old)));
		mib_inc(&c->mib, MIB_F(INGRESS, MODEFLIPS));
		INGRESS_LOG(DEBUG, "mode %s -> %s",
			    ingress_mode_names[__INGRESS_CFG_MODE(old)],
			    ingress_mode_names[mode]);
	}
	pthread_mutex_unlock(&c->mtx);
	return rc;
}

enum ingress_mode
ingress_get_mode(const struct ingress *ing)
{
	return __INGRESS_CFG_MODE(__atomic_load_n(&ing->cfg, __ATOMIC_RELAXED));
}

int
ingress_set_scope(struct ingress *ing, enum ingress_scope scope)
{
	struct __ingress_ctl *c = ing->ctl;
	uint32_t old;

	if ((unsigned int)scope >= INGRESS_SCOPE_MAX)
		return -EINVAL;
	ctl_lock(c);
	old = __atomic_load_n(&ing->cfg, __ATOMIC_RELAXED);
	if (__INGRESS_CFG_SCOPE(old) != scope)
		set_cfg(ing, __INGRESS_CFG(__INGRESS_CFG_MODE(old), scope));
	pthread_mutex_unlock(&c->mtx);
	return 0;
}

enum ingress_scope
ingress_get_scope(const struct ingress *ing)
{
	return __INGRESS_CFG_SCOPE(__atomic_load_n(&ing->cfg, __ATOMIC_RELAXED));
}

void
ingress_set_gp_log_us(struct ingress *ing, uint32_t us)
{
	__atomic_store_n(&ing->ctl->gp_log_us, us, __ATOMIC_RELAXED);
}

/*
 * Workers online in the QSBR variable that have not reported token tok.
 * Diagnostic only: reads the per-reader counters that rte_rcu_qsbr.h's
 * inline functions use (0 = offline), as rte_rcu_qsbr_check() does.
 */
static void
gp_laggards(struct ingress *ing, uint64_t tok, char *buf, size_t len)
{
	unsigned int i;
	uint64_t c;

	buf[0] = '\0';
	for (i = 0; i < ing->n_workers; i++) {
		c = __atomic_load_n(&ing->qsv->qsbr_cnt[i].cnt, __ATOMIC_RELAXED);
		if (c != 0 && c < tok)
			who_append(buf, len, i,
				   __atomic_load_n(&ing->w[i].lcore,
						   __ATOMIC_RELAXED));
	}
}

/*
 * One grace period: rte_rcu_qsbr_synchronize()'s protocol (start, then
 * check until every online reader has reported the new token), spelled out
 * so that a slow one can name the workers it waited for. Returns its
 * duration in microseconds.
 */
static uint64_t
grace_period(struct ingress *ing)
{
	const uint64_t hz = rte_get_tsc_hz();
	const uint32_t log_us = __atomic_load_n(&ing->ctl->gp_log_us,
						__ATOMIC_RELAXED);
	const uint64_t thr = (uint64_t)log_us * hz / 1000000;
	const unsigned int self = self_worker(ing);
	uint64_t t0 = rte_rdtsc(), dt, us, tok;
	unsigned int spins = 0;
	bool late = false;
	char who[256] = "";	/* workers still holding it at the threshold */

	/* Store-release of the new token: the pointer swap before it is
	 * visible to a reader that acquires this token in its quiescent
	 * report. */
	tok = rte_rcu_qsbr_start(ing->qsv);
	/* A worker replacing between two of its bursts holds nothing: it
	 * reports for itself, as rte_rcu_qsbr_synchronize(v, thread_id) does
	 * (not counted in its RcuQuiescent: its block is not ours). */
	if (self != UINT_MAX && cfg_is_rcu(__atomic_load_n(&ing->w[self].cfg,
							   __ATOMIC_RELAXED)))
		rte_rcu_qsbr_quiescent(ing->qsv, self);
	/* Acquire loads of each reader's counter inside: everything a reader
	 * did before its report (its uses of the old pointer) happens before
	 * our return, hence before the free. */
	while (rte_rcu_qsbr_check(ing->qsv, tok, false) == 0) {
		if (!late && rte_rdtsc() - t0 >= thr) {
			late = true;
			gp_laggards(ing, tok, who, sizeof(who));
		}
		backoff(&spins);
	}
	dt = rte_rdtsc() - t0;
	us = base_scale(dt, 1000000, hz);
	if (dt >= thr)
		INGRESS_LOG(WARNING,
			    "grace period took %" PRIu64 " us (threshold %u us); %s%s",
			    us, log_us,
			    who[0] ? "workers online without a quiescent state at the threshold: " :
			    "no worker held it at the threshold (the writer thread itself was delayed)",
			    who);
	return us;
}

/* ingress_replace() with the writer mutex taken by ctl_lock() (control)
 * or, for the updater, after updater_defer(). */
static int
replace(struct ingress *ing, struct ingress_classifier *next, bool updater)
{
	struct __ingress_ctl *c = ing->ctl;
	struct ingress_classifier *old;
	uint64_t us;

	if (next == NULL)
		return -EINVAL;
	if (updater)
		pthread_mutex_lock(&c->mtx);
	else
		ctl_lock(c);
	if (__INGRESS_CFG_MODE(__atomic_load_n(&ing->cfg, __ATOMIC_RELAXED)) ==
	    INGRESS_NONE) {
		pthread_mutex_unlock(&c->mtx);
		return -EPERM;
	}
	old = ing->cur;
	if (next == old) {
		pthread_mutex_unlock(&c->mtx);
		return -EINVAL;
	}
	/* Both locks, in this order (readers take one each): no lock reader
	 * is between its pointer load and its last use while we swap. */
	act_begin(ing, INGRESS_ACT_UPDATE, INGRESS_ACT_SHIFT_UPDATE);
	rte_spinlock_lock(&ing->lock);
	rte_rwlock_write_lock(&ing->rwlock);
	/* Store-release: next's contents, written before this call, are
	 * visible to none/rcu readers that load the pointer with acquire. */
	__atomic_store_n(&ing->cur, next, __ATOMIC_RELEASE);
	/* The unlocks are releases: a lock reader that acquires after them
	 * loads next. One that loaded old finished before we got the lock. */
	rte_rwlock_write_unlock(&ing->rwlock);
	rte_spinlock_unlock(&ing->lock);
	act_end(ing, INGRESS_ACT_UPDATE);
	__info_set(c, next);
	/* rcu readers may still hold old until their next quiescent report. */
	act_begin(ing, INGRESS_ACT_GRACE, INGRESS_ACT_SHIFT_GRACE);
	us = grace_period(ing);
	act_end(ing, INGRESS_ACT_GRACE);
	mib_inc(&c->mib, MIB_F(INGRESS, RULEUPDATES));
	mib_inc(&c->mib, MIB_F(INGRESS, GRACEPERIODS));
	mib_max(&c->mib, MIB_F(INGRESS, GRACEPERIODMAXUS), us);
	/* No reader of any kind can reach old any more. */
	ingress_classifier_free(old);
	pthread_mutex_unlock(&c->mtx);
	return 0;
}

int
ingress_replace(struct ingress *ing, struct ingress_classifier *next)
{
	return replace(ing, next, false);
}

int
ingress_describe(struct ingress *ing, char *buf, size_t len)
{
	int n;

	pthread_mutex_lock(&ing->ctl->info_mtx);
	n = snprintf(buf, len, "%s", ing->ctl->info.desc);
	pthread_mutex_unlock(&ing->ctl->info_mtx);
	return n;
}

void
ingress_info(struct ingress *ing, struct ingress_info *out)
{
	pthread_mutex_lock(&ing->ctl->info_mtx);
	*out = ing->ctl->info;
	pthread_mutex_unlock(&ing->ctl->info_mtx);
}

/* ---------------------------------------------------------------- */
/* Updater                                                           */
/* ---------------------------------------------------------------- */

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sleep until deadline (CLOCK_MONOTONIC ns) in slices of at most 100 ms,
 * so that a stop request is seen quickly. Returns false if asked to stop. */
static bool
sleep_until(const struct __ingress_ctl *c, uint64_t deadline)
{
	const uint64_t slice = 100000000ull;
	uint64_t now, t;
	struct timespec ts;

	for (;;) {
		/* Relaxed: a flag that orders nothing, it only has to be
		 * seen (pthread_join orders the thread's end). */
		if (__atomic_load_n(&c->upd_stop, __ATOMIC_RELAXED))
			return false;
		now = mono_ns();
		if (now >= deadline)
			return true;
		t = RTE_MIN(deadline, now + slice);
		ts.tv_sec = (time_t)(t / 1000000000ull);
		ts.tv_nsec = (long)(t % 1000000000ull);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

/* Before each of the updater's replaces: wait while a ctl_lock() caller
 * waits for the writer mutex, in 20 us sleeps (it shares a CPU with the
 * control threads on a small machine). false if asked to stop. */
static bool
updater_defer(const struct __ingress_ctl *c)
{
	const struct timespec ts = { .tv_sec = 0, .tv_nsec = 20000 };

	while (__atomic_load_n(&c->ctl_waiting, __ATOMIC_RELAXED) != 0) {
		/* Relaxed: see sleep_until(). */
		if (__atomic_load_n(&c->upd_stop, __ATOMIC_RELAXED))
			return false;
		nanosleep(&ts, NULL);
	}
	return true;
}

static void *
updater_thread(void *arg)
{
	struct ingress *ing = arg;
	struct __ingress_ctl *c = ing->ctl;
	const uint64_t period = (uint64_t)llround(1e9 / c->upd_rate);
	uint64_t next = mono_ns(), now, nulls = 0, fails = 0, done = 0;
	uint64_t run = c->upd_runs;	/* set before the thread was created */
	struct ingress_classifier *cls;
	unsigned int seq = c->upd_seq;
	int rc;

	INGRESS_LOG(INFO, "updater: run %" PRIu64 ": %.1f replaces/s", run,
		    c->upd_rate);
	for (;;) {
		next += period ? period : 1;
		now = mono_ns();
		if (now > next + 10 * period)
			next = now;		/* too late: skip, don't burst */
		if (!sleep_until(c, next))
			break;
		cls = c->upd_make(c->upd_arg, seq++);
		if (cls == NULL) {
			if (nulls++ % 1000 == 0)
				INGRESS_LOG(WARNING, "updater: make() gave no classifier for update %u (%" PRIu64 " so far)",
					    seq - 1, nulls);
			continue;
		}
		if (!updater_defer(c)) {
			ingress_classifier_free(cls);
			break;
		}
		rc = replace(ing, cls, true);
		if (rc) {
			ingress_classifier_free(cls);
			if (fails++ % 1000 == 0)
				INGRESS_LOG(WARNING, "updater: replace: %s (%" PRIu64 " so far)",
					    strerror(-rc), fails);
			continue;
		}
		__atomic_fetch_add(&c->upd_count, 1, __ATOMIC_RELAXED);
		done++;
	}
	/* Read by the next start, after pthread_join (which orders it). */
	c->upd_seq = seq;
	INGRESS_LOG(INFO, "updater: run %" PRIu64 " stopped after %" PRIu64
		    " replaces (%" PRIu64 " over %" PRIu64 " run%s)", run, done,
		    __atomic_load_n(&c->upd_count, __ATOMIC_RELAXED), run,
		    run == 1 ? "" : "s");
	return NULL;
}

int
ingress_updater_start(struct ingress *ing, double rate_per_s,
		      ingress_make_fn make, void *arg)
{
	struct __ingress_ctl *c = ing->ctl;
	int rc = 0;

	if (!(rate_per_s > 0 && rate_per_s <= 1e6) || make == NULL)
		return -EINVAL;
	pthread_mutex_lock(&c->upd_mtx);
	ctl_lock(c);
	if (c->upd_running)
		rc = -EBUSY;
	else if (__INGRESS_CFG_MODE(__atomic_load_n(&ing->cfg,
						    __ATOMIC_RELAXED)) ==
		 INGRESS_NONE)
		rc = -EPERM;
	else {
		c->upd_running = true;
		c->upd_rate = rate_per_s;
		c->upd_make = make;
		c->upd_arg = arg;
		c->upd_stop = 0;
		/* Relaxed: a count; the thread reads it after pthread_create. */
		__atomic_store_n(&c->upd_runs, c->upd_runs + 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&c->mtx);
	if (rc == 0) {
		/* The thread sees the fields above: pthread_create orders. */
		rc = rte_ctrl_thread_create(&c->upd_tid, "ingress-upd", NULL,
					    updater_thread, ing);
		if (rc != 0) {
			rc = rc < 0 ? rc : -rc;
			ctl_lock(c);
			c->upd_running = false;
			__atomic_store_n(&c->upd_runs, c->upd_runs - 1,
					 __ATOMIC_RELAXED);
			pthread_mutex_unlock(&c->mtx);
		}
	}
	pthread_mutex_unlock(&c->upd_mtx);
	return rc;
}

void
ingress_updater_stop(struct ingress *ing)
{
	struct __ingress_ctl *c = ing->ctl;
	bool running;

	pthread_mutex_lock(&c->upd_mtx);
	ctl_lock(c);
	running = c->upd_running;
	pthread_mutex_unlock(&c->mtx);
	if (running) {
		/* Relaxed: see sleep_until(). */
		__atomic_store_n(&c->upd_stop, 1, __ATOMIC_RELAXED);
		pthread_join(c->upd_tid, NULL);
		ctl_lock(c);
		c->upd_running = false;
		pthread_mutex_unlock(&c->mtx);
	}
	pthread_mutex_unlock(&c->upd_mtx);
}

uint64_t
ingress_updater_count(const struct ingress *ing)
{
	return __atomic_load_n(&ing->ctl->upd_count, __ATOMIC_RELAXED);
}

uint64_t
ingress_updater_runs(const struct ingress *ing)
{
	return __atomic_load_n(&ing->ctl->upd_runs, __ATOMIC_RELAXED);
}
