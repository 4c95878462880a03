/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_INGRESS_H
#define PKTPATH_INGRESS_H

/**
 * @file
 * The ingress hook: a classifier reached through one published pointer, read
 * under a spinlock, a rwlock or RCU (QSBR), with live mode flips and rule
 * churn -- tc ingress as the kernel had it (one qdisc lock per packet) and as
 * it has it now (lockless, RCU).
 *
 * Classifiers
 * -----------
 * A classifier is an immutable object behind an ops table
 * (struct ingress_classifier_ops: classify_burst, free, a kind name, its
 * rule count). The hook knows kinds only through that table. lib/ingress
 * has three, each with its own header: "rules" (ingress_rules.h: tc
 * flower-like rules, looked up by a linear walk over a per-frame key for
 * small sets and by rte_acl for larger ones), "pcap-filter"
 * (ingress_pcap.h: a tcpdump expression) and "bpf" (ingress_bpf.h: an eBPF
 * ELF object), the last two over lib/bpf (pktbpf.h); another kind plugs in
 * through ingress_classifier_create().
 * A classifier is built by a control thread, handed to the hook, and from
 * then on owned by the hook, which frees it after a grace period. Freed
 * classifiers are poisoned (INGRESS_POISON) before free(), so a reader that
 * still used one would crash, trip AddressSanitizer or return garbage -- never
 * silently "work". ingress_classifier_clone() makes a cheap new object that
 * shares the compiled lookup data (reference counted), which is what the
 * updater thread installs thousands of times a second.
 *
 * The hook and its modes
 * ----------------------
 * struct ingress holds the published classifier pointer, the guard mode,
 * one global rte_spinlock and one global rte_rwlock (shared by all workers:
 * contention is the experiment) and a QSBR variable (rte_rcu_qsbr) with one
 * reader slot per worker. Modes (enum ingress_mode):
 *
 *   off     no hook: ingress_burst() keeps every packet and moves no counter.
 *   none    no guard: the pointer is read with no protection. Only safe
 *           because rule updates are refused in this mode (-EPERM) and a
 *           flip out of it waits for every worker to leave it.
 *   lock    rte_spinlock around pointer load + classification.
 *   rwlock  rte_rwlock read side around pointer load + classification.
 *   rcu     the pointer is loaded with acquire semantics, once per burst; the
 *           worker reports a quiescent state once per loop iteration.
 *
 * The scope (enum ingress_scope) is the unit of classification, in every
 * mode: "packet" classifies one packet per classify_burst() call and, in
 * lock/rwlock mode, takes and releases the lock around each packet (the old
 * ingress qdisc); "burst" classifies the whole burst in one call under one
 * acquisition. none and rcu load the pointer once per burst in both scopes,
 * so "lock packet" minus "none packet" is the lock's cost, with the same
 * classification work on both sides.
 *
 * Reader protocol (worker lcore wid, 0 <= wid < n_workers)
 * ----------------------------------------------------------
 * @code
 *	ingress_worker_start(ing, wid);          // on the worker lcore
 *	while (running) {
 *		n = rx(pkts);
 *		if (n) {
 *			kept = ingress_burst(ing, wid, pkts, n, keep, mib);
 *			... path for pkts[i] with keep[i] == 1, free the others ...
 *		}
 *		ingress_worker_quiescent(ing, wid, mib);  // EVERY iteration,
 *	}                                             // empty polls too
 *	ingress_worker_stop(ing, wid);           // before leaving or pausing
 * @endcode
 * Each worker has a one-word state (the mode/scope it is in, or "stopped")
 * that only it writes. At a burst boundary -- entry of ingress_burst() or
 * ingress_worker_quiescent() -- it compares the hook's mode with its own; on a
 * change it goes offline in the QSBR variable if it leaves rcu (its last use
 * of the pointer is over), goes online if it enters rcu (before its first
 * pointer load), then publishes its new state with a store-release. Workers
 * are thus online in QSBR only while in rcu mode: a writer never waits for a
 * worker that is stopped, paused (after ingress_worker_stop) or in another
 * mode.
 *
 * Writer protocol (any non-worker thread; ingress_replace())
 * ------------------------------------------------------------
 * Writers are serialised by a mutex. A writer takes the spinlock AND the
 * rwlock's write side, swaps the pointer with a store-release, releases
 * both, then waits for a QSBR grace period (rte_rcu_qsbr_start + check: the
 * protocol of rte_rcu_qsbr_synchronize, spelled out so that a slow grace
 * period can name the workers it waited for), then poisons and frees the old
 * classifier. Lock readers are safe because they load the pointer inside the
 * lock the writer took to swap it; rcu readers because the writer waits for
 * each of them to pass a quiescent state; none readers because updates are
 * refused in none mode and ingress_set_mode() does not return before every
 * running worker has left the previous mode. A grace period slower than a
 * threshold (ingress_set_gp_log_us(), default 1000 us) is logged through the
 * rte_log type "pktpath" with its duration and the workers still online
 * without a quiescent state at the threshold.
 *
 * Counters (lib/mib, group Ingress)
 * ---------------------------------
 * Worker blocks, written by ingress_burst()/ingress_worker_quiescent() once
 * per burst: IngressPackets, IngressMatched, IngressPassed, IngressDropped,
 * IngressMarked, LockAcquires, LockContended (acquisitions whose first
 * trylock failed and that then spun), RcuQuiescent. The control block given
 * to ingress_create(), written only by ingress under its writer mutex (one
 * writer at a time): RuleUpdates, GracePeriods, GracePeriodMaxUs (mib_max),
 * ModeFlips. Invariant at any burst boundary: IngressPackets =
 * IngressPassed + IngressDropped; IngressMarked <= IngressPassed.
 *
 * What is NOT guaranteed
 * ----------------------
 *  - In lock/rwlock mode with scope "packet", each packet sees the ruleset
 *    current when its lock was taken, so a burst may straddle an update (as
 *    a kernel NAPI batch does). Every other mode/scope classifies a burst
 *    with exactly one ruleset.
 *  - A flip takes effect at each worker's next burst boundary, not at once;
 *    ingress_set_mode() returns once every running worker has taken it.
 *  - No fairness between workers on the spinlock; the rwlock prefers the
 *    writer (DPDK 22.11 rte_rwlock), so readers spin while an update waits.
 *  - Counters are per burst: a reader folding mid-burst may see
 *    IngressPackets ahead of IngressPassed + IngressDropped.
 *  - Nothing here is async-signal-safe: call the control functions from a
 *    control loop, not from a signal handler.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_rcu_qsbr.h>
#include <rte_rwlock.h>
#include <rte_spinlock.h>

#include "mib.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Modes and scopes                                                    */
/* ------------------------------------------------------------------ */

/** Guard mode of the hook. */
enum ingress_mode {
	INGRESS_OFF,	/**< no hook: nothing classified, nothing counted */
	INGRESS_NONE,	/**< no guard (updates refused) */
	INGRESS_LOCK,	/**< one global rte_spinlock */
	INGRESS_RWLOCK,	/**< one global rte_rwlock, read side */
	INGRESS_RCU,	/**< rte_rcu_qsbr readers */
	INGRESS_MODE_MAX
};

/** Unit of classification (and of lock acquisition in lock modes). */
enum ingress_scope {
	INGRESS_SCOPE_PACKET,	/**< one packet per classify call / per lock */
	INGRESS_SCOPE_BURST,	/**< the whole burst */
	INGRESS_SCOPE_MAX
};

/** The names of the modes and scopes, indexed by the enum. */
extern const char *const ingress_mode_names[INGRESS_MODE_MAX];
extern const char *const ingress_scope_names[INGRESS_SCOPE_MAX];
/** "off", "none", "lock", "rwlock", "rcu"; "?" if m is out of range. Thread-safe. */
const char *ingress_mode_name(enum ingress_mode m);
/**
 * Parse a mode name (exact, lower case).
 * @return 0 and *out set, or -EINVAL (out untouched). Thread-safe.
 */
int ingress_mode_parse(const char *s, enum ingress_mode *out);
/** "packet", "burst"; "?" if out of range. Thread-safe. */
const char *ingress_scope_name(enum ingress_scope s);
/** Parse "packet" / "burst". @return 0, or -EINVAL. Thread-safe. */
int ingress_scope_parse(const char *s, enum ingress_scope *out);

/* ------------------------------------------------------------------ */
/* Classifiers                                                         */
/* ------------------------------------------------------------------ */

/** Verdicts (struct ingress_result.action). */
#define INGRESS_ACT_PASS 0	/**< continue to ip_rcv */
#define INGRESS_ACT_DROP 1	/**< counted in IngressDropped, never reaches ip_rcv */

/** The verdict on one packet. */
struct ingress_result {
	uint8_t action;		/**< INGRESS_ACT_PASS or INGRESS_ACT_DROP */
	uint8_t matched;	/**< 1 if any rule matched (count rules included);
				     0 if the default action applied alone */
	uint8_t marked;		/**< 1 if the mark must be set (implies PASS) */
	uint32_t mark;		/**< the mark, if marked */
	uint32_t rule;		/**< kind-defined id of the deciding rule, 0 for
				     the default (rules: its source line) */
};

/** Byte written over a classifier (and its kind's data) before free(). */
#define INGRESS_POISON 0x6b

/** Longest description, NUL included. */
#define INGRESS_DESC_MAX 160

/**
 * A classifier kind. Each kind provides one static const instance.
 *
 * classify_burst(ctx, pkts, n, res): write res[i] for pkts[i], 0 <= i < n,
 * n >= 1. Called concurrently by any number of workers on the same ctx
 * (ctx is immutable once built); must not modify the mbufs (the hook sets
 * the mark itself) and must not block. Frames are raw Ethernet, possibly
 * tagged, possibly not IPv4, possibly truncated.
 *
 * free(ctx): release ctx, after writing INGRESS_POISON over it. Called once,
 * when the last classifier object sharing ctx is freed, never concurrently
 * with classify_burst on that ctx.
 *
 * rules(ctx): the number of rules ctx holds, for ingress_info(); optional:
 * a kind without rules to count leaves it NULL. Called by any thread while
 * the caller keeps a classifier sharing ctx alive; must not block.
 */
struct ingress_classifier_ops {
	const char *kind;	/**< "rules", "pcap-filter", "bpf" */
	void (*classify_burst)(const void *ctx, struct rte_mbuf **pkts,
			       uint16_t n, struct ingress_result *res);
	void (*free)(void *ctx);
	int (*rules)(const void *ctx);	/**< optional (NULL: no rules) */
};

/**
 * A classifier object. Readers use ops and ctx only; everything else is the
 * library's. Treat as opaque; build with ingress_classifier_create() or a
 * kind's constructor, never on the stack.
 */
struct ingress_classifier {
	const struct ingress_classifier_ops *ops;
	const void *ctx;
	struct __ingress_body *body;	/**< shared, refcounted: ctx + desc */
	uint32_t id;			/**< unique per object, for logs */
};

/**
 * Wrap a kind's compiled data into a classifier object.
 *
 * @param ops   the kind (static storage; kind, classify_burst and free set)
 * @param ctx   the kind's data; owned by the object from now on (freed with
 *              ops->free when the last clone goes), even on failure
 * @param desc  one line describing it ("rules acl-100.rules: ..."), copied
 *              and truncated to INGRESS_DESC_MAX - 1 characters
 * @return the object, or NULL with rte_errno = EINVAL or ENOMEM.
 * Thread-safe. Uses malloc (so AddressSanitizer tracks it), not rte_malloc.
 */
struct ingress_classifier *
ingress_classifier_create(const struct ingress_classifier_ops *ops, void *ctx,
			  const char *desc);

/**
 * A new classifier object sharing c's compiled data (reference count + 1).
 * Costs one malloc: this is how a churn source produces "new" rulesets at
 * thousands per second. c must stay valid during the call.
 * @return the clone, or NULL with rte_errno = ENOMEM (EINVAL if c is NULL).
 * Thread-safe (the count is atomic).
 */
struct ingress_classifier *
ingress_classifier_clone(const struct ingress_classifier *c);

/**
 * Free a classifier object: poison it, free it, and when it was the last
 * one sharing its data, let the kind poison and free the data. NULL is a
 * no-op. The caller must own c: never free a classifier handed to
 * ingress_create() or ingress_replace() (the hook frees it).
 */
void ingress_classifier_free(struct ingress_classifier *c);

/** The kind name ("rules"...). c must be owned by the caller. */
const char *ingress_classifier_kind(const struct ingress_classifier *c);
/** The description given at creation. c must be owned by the caller. */
const char *ingress_classifier_desc(const struct ingress_classifier *c);
/** The number of rules c holds (its kind's rules op), or -1 for a kind
 *  without rules. c must be owned by the caller. Thread-safe. */
int ingress_classifier_rules(const struct ingress_classifier *c);

/**
 * Classify a burst directly with c, with no guard and no counter: for
 * tests, benchmarks and --compare's calibration. n >= 1.
 * Thread-safe if the caller keeps c alive.
 */
static inline void
ingress_classify_burst(const struct ingress_classifier *c,
		       struct rte_mbuf **pkts, uint16_t n,
		       struct ingress_result *res)
{
	c->ops->classify_burst(c->ctx, pkts, n, res);
}

/* ------------------------------------------------------------------ */
/* The hook                                                            */
/* ------------------------------------------------------------------ */

/** Largest burst classified as one unit; longer ones are split. */
#define INGRESS_BURST_MAX 512

/**
 * Create the hook.
 *
 * @param n_workers  worker ids 0..n_workers-1 (QSBR reader slots), >= 1
 * @param mode       initial mode
 * @param scope      initial scope
 * @param initial    initial classifier; owned by the hook on success, still
 *                   the caller's on failure. May be NULL only if mode is
 *                   INGRESS_OFF (install one with ingress_replace() before
 *                   leaving off).
 * @param ctl        the control block: the hook writes RuleUpdates,
 *                   GracePeriods, GracePeriodMaxUs and ModeFlips there, under
 *                   its writer mutex; nobody else may write those fields
 * @param socket     NUMA socket for the hook's memory (SOCKET_ID_ANY ok)
 * @return the hook, or NULL with rte_errno = EINVAL or ENOMEM.
 * Needs EAL. Not thread-safe: call at set-up.
 */
struct ingress *ingress_create(unsigned int n_workers, enum ingress_mode mode,
			       enum ingress_scope scope,
			       struct ingress_classifier *initial,
			       struct mib_block ctl, int socket);

/**
 * Free the hook: stop the updater, free the current classifier and all
 * memory. No worker may be between ingress_worker_start() and
 * ingress_worker_stop(). NULL is a no-op.
 */
void ingress_free(struct ingress *ing);

/* ---- worker side ---- */

/**
 * Join the hook on the calling worker lcore, before its loop: registers
 * reader slot wid with the QSBR variable (offline) and takes the current
 * mode (going online if it is rcu). Call again after ingress_worker_stop()
 * to resume.
 * @param wid  0 <= wid < n_workers, one lcore per id.
 * Thread-safe with the control side; one call per wid at a time.
 */
void ingress_worker_start(struct ingress *ing, unsigned int wid);

/**
 * Leave the hook (loop over, or pausing): goes offline in QSBR and marks
 * the worker stopped, so no writer and no mode flip ever waits for it.
 * Must come after the worker's last ingress_burst().
 * Thread-safe with the control side; called by worker wid only.
 */
void ingress_worker_stop(struct ingress *ing, unsigned int wid);

/**
 * Classify a burst (see below); returns the number of packets kept.
 *
 * @param ing   the hook
 * @param wid   the calling worker (started)
 * @param pkts  n frames (raw Ethernet)
 * @param n     burst size (>= 0); bursts longer than INGRESS_BURST_MAX are
 *              classified as consecutive bursts of at most that size
 * @param keep  out: keep[i] = 1 if pkts[i] continues to the path, 0 if it
 *              was dropped (the caller frees it; it never reaches ip_rcv)
 * @param mib   the worker's own block (Ingress fields moved once per burst)
 * @return the number of keep[i] == 1.
 *
 * Takes the current mode at this burst boundary (acquire load), handles the
 * worker's rcu online/offline transitions, applies the guard per packet or
 * per burst, classifies, sets the mbuf mark for mark verdicts
 * (m->hash.fdir.hi = mark, ol_flags |= RTE_MBUF_F_RX_FDIR |
 * RTE_MBUF_F_RX_FDIR_ID; other packets' flags are left alone) and counts.
 * In mode off: keep[] all 1, returns n, no counter moved. Called by a
 * stopped worker, it restarts it (ingress_worker_start()) first.
 * Worker wid only; lock-free except for the guard itself.
 */
static inline uint16_t ingress_burst(struct ingress *ing, unsigned int wid,
				     struct rte_mbuf **pkts, uint16_t n,
				     uint8_t *keep, struct mib_block *mib);

/**
 * End of a loop iteration, called every iteration (empty polls included):
 * follows a mode flip even when no traffic comes, and in rcu mode reports
 * a quiescent state (rte_rcu_qsbr_quiescent) and counts RcuQuiescent.
 * Nothing of the classifier may be held across this call.
 * Worker wid only; wait-free.
 */
static inline void ingress_worker_quiescent(struct ingress *ing,
					    unsigned int wid,
					    struct mib_block *mib);

/**
 * ingress_worker_quiescent() counting nothing: returns 1 if it reported a
 * quiescent state (rcu mode), 0 otherwise, for a caller that adds the
 * reports to RcuQuiescent itself (pktpath's workers, in their periodic
 * flush). Worker wid only; wait-free.
 */
static inline unsigned int ingress_worker_quiescent_uncounted(struct ingress *ing,
							      unsigned int wid);

/*
 * ---- control side: serialised by the writer mutex ----
 *
 * Meant for control threads. A worker lcore may call them too, between two
 * of its bursts (a single-lcore set-up, a test): it is then not waited for
 * (it holds nothing), and in rcu mode ingress_replace() reports its
 * quiescent state for it, as rte_rcu_qsbr_synchronize(v, thread_id) does.
 * Only EAL lcores are recognised that way; from a non-EAL worker thread a
 * control call would wait for itself forever.
 */

/**
 * Flip the guard mode live. Stores the new mode (release), then waits until
 * every started worker has taken it at a burst boundary (a worker leaving
 * none mode has then finished its unguarded burst). Stopped workers are not
 * waited for. A wait longer than a second is logged, once a second, with
 * the workers that hold it up.
 *
 * @return 0 (also when mode is unchanged; ModeFlips counts real changes);
 *         -EINVAL if mode is out of range, or INGRESS_NONE while the updater
 *         runs; -ENOENT if mode is not off and no classifier is installed.
 * Thread-safe (control side, see above; not from a signal handler).
 * Blocks for about one burst of each running worker.
 */
int ingress_set_mode(struct ingress *ing, enum ingress_mode mode);

/** The current mode (relaxed load). Thread-safe. */
enum ingress_mode ingress_get_mode(const struct ingress *ing);

/**
 * Change the scope live, with the same protocol as ingress_set_mode()
 * (does not count in ModeFlips).
 * @return 0, or -EINVAL if scope is out of range. Thread-safe (control side).
 */
int ingress_set_scope(struct ingress *ing, enum ingress_scope scope);

/** The current scope. Thread-safe. */
enum ingress_scope ingress_get_scope(const struct ingress *ing);

/**
 * Install next as the classifier: the writer protocol described at the top
 * of this file (spinlock + rwlock write side, store-release of the pointer,
 * unlock, grace period, poison and free the old one). Counts RuleUpdates,
 * GracePeriods and GracePeriodMaxUs in the control block.
 *
 * @param next  owned by the hook on success; still the caller's on failure
 * @return 0; -EPERM in mode none; -EINVAL if next is NULL or already
 *         installed. Thread-safe (control side, see above). Blocks for
 *         one grace period.
 */
int ingress_replace(struct ingress *ing, struct ingress_classifier *next);

/**
 * Copy the current classifier's description ("none" if there is none).
 * @return snprintf's result. Thread-safe; never waits for a writer (see
 * ingress_info()).
 */
int ingress_describe(struct ingress *ing, char *buf, size_t len);

/** The installed classifier, as ingress_info() reports it. */
struct ingress_info {
	char kind[16];			/**< "rules", "pcap-filter", "bpf", or "" */
	char desc[INGRESS_DESC_MAX];	/**< its description, or "none" */
	int rules;			/**< its rules (the kind's rules op), or -1 */
	uint32_t id;			/**< the object's id (changes on every
					     install, clones included) */
};

/**
 * The installed classifier's kind, description and rule count. Never waits
 * for a writer (a grace period, a flip): it reads a copy the writer makes
 * after each swap. Thread-safe.
 */
void ingress_info(struct ingress *ing, struct ingress_info *out);

/**
 * Threshold above which a grace period (and the wait of a mode flip) is
 * logged; 0 logs every grace period. Default 1000 us. Thread-safe.
 */
void ingress_set_gp_log_us(struct ingress *ing, uint32_t us);

/** Build a classifier for update number seq (0, 1, 2...); NULL skips it. */
typedef struct ingress_classifier *(*ingress_make_fn)(void *arg,
						      unsigned int seq);

/**
 * Start the updater: a control thread (rte_ctrl_thread_create, named
 * "ingress-upd") that calls make(arg, seq) and ingress_replace() with the
 * result rate_per_s times a second (absolute CLOCK_MONOTONIC deadlines;
 * when late by more than 10 periods it skips ahead instead of bursting).
 * seq goes on from where the previous run stopped (0 for the first run).
 * A NULL from make or a failed replace is logged and the object freed.
 * Every other caller of the writer mutex (a flip, a scope change, a
 * replace, a stop) goes before the updater's next replace: it waits for at
 * most one replace, the one in progress (or begun) when it asked, however
 * late the updater runs. To change what make() builds, stop the updater first: after
 * ingress_updater_stop() returns, nothing it built is installed any more
 * (see the application's reloads).
 *
 * @return 0; -EINVAL if rate_per_s is not in (0, 1e6] or make is NULL;
 *         -EPERM in mode none; -EBUSY if already running; -errno of the
 *         thread creation.
 * Thread-safe (control side); start/stop from one thread.
 */
int ingress_updater_start(struct ingress *ing, double rate_per_s,
			  ingress_make_fn make, void *arg);

/**
 * Stop and join the updater (no-op if not running). Returns after its last
 * replace completed. Thread-safe (control side); not from make().
 */
void ingress_updater_stop(struct ingress *ing);

/**
 * Number of replaces the updater has done, over all its runs since
 * ingress_create() (a stop, e.g. for mode none or a reload, does not reset
 * it). Thread-safe.
 */
uint64_t ingress_updater_count(const struct ingress *ing);

/** Number of times the updater was started. Thread-safe. */
uint64_t ingress_updater_runs(const struct ingress *ing);

/*
 * The control activity word (--perf-detail's suspicious polls): what the
 * control side is doing, for a worker or the stats thread to read with one
 * relaxed load (ingress_activity()), cheap enough to read once per poll.
 * Written only under the control mutex, on its own cache line.
 *   bits 0-7    in progress now: INGRESS_ACT_FLIP (a mode or scope flip:
 *               publishing the new cfg and waiting for the workers to take
 *               it), INGRESS_ACT_UPDATE (a rule update: the pointer swap
 *               under both locks), INGRESS_ACT_GRACE (the RCU grace period
 *               after it, until the old classifier is freed);
 *   bits 16-31  flips begun, bits 32-47 rule updates begun, bits 48-63
 *               grace periods begun (each modulo 2^16).
 * Two words read at the start and end of a poll say what ran during it
 * (ingress_activity_describe()).
 */
#define INGRESS_ACT_FLIP 0x1u
#define INGRESS_ACT_UPDATE 0x2u
#define INGRESS_ACT_GRACE 0x4u
#define INGRESS_ACT_SHIFT_FLIP 16
#define INGRESS_ACT_SHIFT_UPDATE 32
#define INGRESS_ACT_SHIFT_GRACE 48

/**
 * What the control side did between two activity words, start then end:
 * "idle" or e.g. "grace period in progress; begun: 1 rule update, 1 grace
 * period". Thread-safe (pure). @return the length snprintf() gives.
 */
int ingress_activity_describe(uint64_t start, uint64_t end, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Internals: used by the inline fast path below, do not touch.         */
/* ------------------------------------------------------------------ */

/* A worker's published state: __INGRESS_CFG(mode, scope), or one of: */
#define __INGRESS_W_STOPPED 0xffffffffu	/* not started, or stopped */
#define __INGRESS_W_STARTING 0xfffffffeu	/* between start and its first switch */
#define __INGRESS_CFG(mode, scope) ((uint32_t)(mode) | ((uint32_t)(scope) << 8))
#define __INGRESS_CFG_MODE(cfg) ((enum ingress_mode)((cfg) & 0xff))
#define __INGRESS_CFG_SCOPE(cfg) ((enum ingress_scope)(((cfg) >> 8) & 0xff))

/* One per worker, alone on its cache line, written by that worker only. */
struct __ingress_worker {
	uint32_t cfg;		/* published state (store-release) */
	unsigned int lcore;	/* for logs */
} __rte_cache_aligned;

struct ingress {
	/* Read-mostly line: every worker reads it once per burst. */
	uint32_t cfg;				/* __INGRESS_CFG(mode, scope) */
	unsigned int n_workers;
	struct ingress_classifier *cur;		/* the published pointer */
	struct rte_rcu_qsbr *qsv;
	struct __ingress_ctl *ctl;		/* control side, ingress_pvt.h */
	/* The contended locks, one cache line each. */
	rte_spinlock_t lock __rte_cache_aligned;
	rte_rwlock_t rwlock __rte_cache_aligned;
	/* The control activity word (INGRESS_ACT_*), written under the
	 * control mutex, read by anyone. */
	uint64_t activity __rte_cache_aligned;
	struct __ingress_worker w[] __rte_cache_aligned;
};

/* Cold: a worker takes a new cfg (online/offline, publish); a stopped
 * worker restarts first (ingress_worker_start()). */
void __ingress_worker_switch(struct ingress *ing, unsigned int wid,
			     uint32_t cfg);

/* Per-burst tallies, added to the worker's block once per burst. */
struct __ingress_tally {
	uint64_t acquires, contended;
};

static __rte_always_inline void
__ingress_spin_lock(struct ingress *ing, struct __ingress_tally *t)
{
	t->acquires++;
	if (unlikely(!rte_spinlock_trylock(&ing->lock))) {
		t->contended++;
		rte_spinlock_lock(&ing->lock);
	}
}

static __rte_always_inline void
__ingress_read_lock(struct ingress *ing, struct __ingress_tally *t)
{
	t->acquires++;
	if (unlikely(rte_rwlock_read_trylock(&ing->rwlock) != 0)) {
		t->contended++;
		rte_rwlock_read_lock(&ing->rwlock);
	}
}

/* Inside the lock: the lock's acquire already orders this load after the
 * writer's unlock (release), so relaxed is enough. */
static __rte_always_inline const struct ingress_classifier *
__ingress_load_locked(const struct ingress *ing)
{
	return __atomic_load_n(&ing->cur, __ATOMIC_RELAXED);
}

/* Outside any lock (none, rcu): acquire pairs with the writer's
 * store-release of the pointer, so the classifier's contents, written
 * before it was published, are visible through it. */
static __rte_always_inline const struct ingress_classifier *
__ingress_load_bare(const struct ingress *ing)
{
	return __atomic_load_n(&ing->cur, __ATOMIC_ACQUIRE);
}

/* Guard + classify n <= INGRESS_BURST_MAX packets into res. mode and scope
 * are compile-time constants in each instantiation. */
static __rte_always_inline void
__ingress_guarded(struct ingress *ing, unsigned int wid,
		  struct rte_mbuf **pkts, uint16_t n,
		  struct ingress_result *res, struct __ingress_tally *t,
		  const enum ingress_mode mode, const enum ingress_scope scope)
{
	const struct ingress_classifier *c;
	uint16_t i;

	if (mode == INGRESS_LOCK || mode == INGRESS_RWLOCK) {
		if (scope == INGRESS_SCOPE_BURST) {
			if (mode == INGRESS_LOCK)
				__ingress_spin_lock(ing, t);
			else
				__ingress_read_lock(ing, t);
			c = __ingress_load_locked(ing);
			c->ops->classify_burst(c->ctx, pkts, n, res);
			if (mode == INGRESS_LOCK)
				rte_spinlock_unlock(&ing->lock);
			else
				rte_rwlock_read_unlock(&ing->rwlock);
			return;
		}
		for (i = 0; i < n; i++) {
			if (mode == INGRESS_LOCK)
				__ingress_spin_lock(ing, t);
			else
				__ingress_read_lock(ing, t);
			c = __ingress_load_locked(ing);
			c->ops->classify_burst(c->ctx, &pkts[i], 1, &res[i]);
			if (mode == INGRESS_LOCK)
				rte_spinlock_unlock(&ing->lock);
			else
				rte_rwlock_read_unlock(&ing->rwlock);
		}
		return;
	}

	/* none / rcu: one pointer load for the whole burst, so every packet
	 * of it is classified by the same ruleset. In rcu mode this worker is
	 * online (its switch went online before this load) and stays so until
	 * its next quiescent report or switch, which the writer waits for. */
	if (mode == INGRESS_RCU)
		rte_rcu_qsbr_lock(ing->qsv, wid);	/* debug builds only */
	c = __ingress_load_bare(ing);
	if (scope == INGRESS_SCOPE_BURST) {
		c->ops->classify_burst(c->ctx, pkts, n, res);
	} else {
		for (i = 0; i < n; i++)
			c->ops->classify_burst(c->ctx, &pkts[i], 1, &res[i]);
	}
	if (mode == INGRESS_RCU)
		rte_rcu_qsbr_unlock(ing->qsv, wid);
	RTE_SET_USED(wid);
}

/* Apply verdicts: keep[], marks, counts. No guard needed: res are values. */
static __rte_always_inline uint16_t
__ingress_apply(struct rte_mbuf **pkts, uint16_t n,
		const struct ingress_result *res, uint8_t *keep,
		struct mib_block *mib)
{
	uint64_t matched = 0, dropped = 0, marked = 0;
	uint16_t i;

	for (i = 0; i < n; i++) {
		const struct ingress_result *r = &res[i];
		uint8_t drop = r->action == INGRESS_ACT_DROP;

		keep[i] = !drop;
		dropped += drop;
		matched += r->matched;
		if (r->marked && !drop) {
			pkts[i]->hash.fdir.hi = r->mark;
			pkts[i]->ol_flags |= RTE_MBUF_F_RX_FDIR |
					     RTE_MBUF_F_RX_FDIR_ID;
			marked++;
		}
	}
	mib_add(mib, MIB_F(INGRESS, PACKETS), n);
	mib_add(mib, MIB_F(INGRESS, PASSED), n - dropped);
	mib_add(mib, MIB_F(INGRESS, DROPPED), dropped);
	if (matched)
		mib_add(mib, MIB_F(INGRESS, MATCHED), matched);
	if (marked)
		mib_add(mib, MIB_F(INGRESS, MARKED), marked);
	return (uint16_t)(n - dropped);
}

static __rte_always_inline uint16_t
__ingress_burst_one(struct ingress *ing, unsigned int wid,
		    struct rte_mbuf **pkts, uint16_t n, uint8_t *keep,
		    struct mib_block *mib, struct ingress_result *res,
		    const enum ingress_mode mode, const enum ingress_scope scope)
{
	struct __ingress_tally t = { 0, 0 };
	uint16_t kept;

	__ingress_guarded(ing, wid, pkts, n, res, &t, mode, scope);
	kept = __ingress_apply(pkts, n, res, keep, mib);
	if (mode == INGRESS_LOCK || mode == INGRESS_RWLOCK) {
		mib_add(mib, MIB_F(INGRESS, LOCKACQUIRES), t.acquires);
		if (t.contended)
			mib_add(mib, MIB_F(INGRESS, LOCKCONTENDED), t.contended);
	}
	return kept;
}

/* Follow the hook's cfg at a burst boundary; returns the cfg to use. */
static __rte_always_inline uint32_t
__ingress_sync(struct ingress *ing, unsigned int wid)
{
	/* Acquire pairs with the store-release in ingress_set_mode(): what the
	 * control thread wrote before the flip (e.g. a classifier installed
	 * while off) is visible once the new mode is. */
	uint32_t cfg = __atomic_load_n(&ing->cfg, __ATOMIC_ACQUIRE);

	/* Only this worker writes w[wid].cfg: a relaxed load reads its own. */
	if (unlikely(cfg != __atomic_load_n(&ing->w[wid].cfg,
					    __ATOMIC_RELAXED))) {
		__ingress_worker_switch(ing, wid, cfg);
		/* What the switch published (a stopped worker restarts and
		 * may take a newer cfg): the burst must run with that. */
		cfg = __atomic_load_n(&ing->w[wid].cfg, __ATOMIC_RELAXED);
	}
	return cfg;
}

#define __INGRESS_CASE(m, s) \
	case __INGRESS_CFG(m, s): \
		kept += __ingress_burst_one(ing, wid, pkts + off, k, \
					    keep + off, mib, res, m, s); \
		break

static inline uint16_t
ingress_burst(struct ingress *ing, unsigned int wid, struct rte_mbuf **pkts,
	      uint16_t n, uint8_t *keep, struct mib_block *mib)
{
	struct ingress_result res[INGRESS_BURST_MAX];
	uint32_t cfg = __ingress_sync(ing, wid);
	uint16_t off, k, kept = 0;

	if (__INGRESS_CFG_MODE(cfg) == INGRESS_OFF) {
		memset(keep, 1, n);
		return n;
	}
	for (off = 0; off < n; off += k) {
		k = RTE_MIN((uint16_t)(n - off), (uint16_t)INGRESS_BURST_MAX);
		switch (cfg) {
		__INGRESS_CASE(INGRESS_NONE, INGRESS_SCOPE_PACKET);
		__INGRESS_CASE(INGRESS_NONE, INGRESS_SCOPE_BURST);
		__INGRESS_CASE(INGRESS_LOCK, INGRESS_SCOPE_PACKET);
		__INGRESS_CASE(INGRESS_LOCK, INGRESS_SCOPE_BURST);
		__INGRESS_CASE(INGRESS_RWLOCK, INGRESS_SCOPE_PACKET);
		__INGRESS_CASE(INGRESS_RWLOCK, INGRESS_SCOPE_BURST);
		__INGRESS_CASE(INGRESS_RCU, INGRESS_SCOPE_PACKET);
		__INGRESS_CASE(INGRESS_RCU, INGRESS_SCOPE_BURST);
		default:	/* unreachable: set_* validate the cfg */
			RTE_ASSERT(0);
			memset(keep + off, 1, k);
			kept += k;
			break;
		}
	}
	return kept;
}

#undef __INGRESS_CASE

static inline unsigned int
ingress_worker_quiescent_uncounted(struct ingress *ing, unsigned int wid)
{
	uint32_t cfg = __ingress_sync(ing, wid);

	if (__INGRESS_CFG_MODE(cfg) == INGRESS_RCU) {
		/* Load-acquire of the token, store-release of this reader's
		 * counter (inside rte_rcu_qsbr_quiescent): every pointer use
		 * of the bursts before this call is ordered before the report
		 * the writer waits for. */
		rte_rcu_qsbr_quiescent(ing->qsv, wid);
		return 1;
	}
	return 0;
}

static inline void
ingress_worker_quiescent(struct ingress *ing, unsigned int wid,
			 struct mib_block *mib)
{
	if (ingress_worker_quiescent_uncounted(ing, wid))
		mib_inc(mib, MIB_F(INGRESS, RCUQUIESCENT));
}

/** The control activity word now (see INGRESS_ACT_FLIP). Wait-free, any
 *  thread: one relaxed load. */
static inline uint64_t
ingress_activity(const struct ingress *ing)
{
	return __atomic_load_n(&ing->activity, __ATOMIC_RELAXED);
}

/**
 * The mode worker wid is in: the one its last ingress_burst() classified
 * with, or its last ingress_worker_quiescent() took (INGRESS_OFF while it
 * is stopped). What a worker attributes its packets and cycles to, so that
 * per-mode figures are exact across flips. Worker wid only (it reads its
 * own published state, which only it writes); wait-free.
 */

static inline enum ingress_mode
ingress_worker_mode(const struct ingress *ing, unsigned int wid)
{
	uint32_t cfg = __atomic_load_n(&ing->w[wid].cfg, __ATOMIC_RELAXED);

	return cfg >= __INGRESS_W_STARTING ? INGRESS_OFF : __INGRESS_CFG_MODE(cfg);
}


#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_INGRESS_H */
