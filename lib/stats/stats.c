/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stats thread: fold, baseline, rates, snapshots (the run's summary
 * over them: summary.c). Reports nothing itself: each scheduled fold is
 * handed to conf.on_publish.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "base.h"
#include "stats.h"
#include "stats_pvt.h"

const double stats_read_fold_bounds_s[STATS_READ_BUCKETS - 1] = {
	1e-6, 2.5e-6, 5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3,
	2.5e-3, 5e-3, 1e-2 };

static inline double
__div(double a, double b)
{
	return b != 0 ? a / b : 0;
}

void
stats_rate_compute(struct stats_rate *r, uint64_t packets, uint64_t octets,
		   uint64_t busy, uint64_t idle, double seconds)
{
	memset(r, 0, sizeof(*r));
	r->seconds = seconds;
	r->packets = packets;
	r->octets = octets;
	r->busy_cycles = busy;
	r->idle_cycles = idle;
	r->pps = __div((double)packets, seconds);
	r->gbps = __div(8.0 * (double)octets, seconds) / 1e9;
	r->ns_per_pkt = __div(1e9, r->pps);
	r->cycles_per_pkt = __div((double)busy, (double)packets);
	r->busy_pct = 100.0 * __div((double)busy, (double)busy + (double)idle);
}

/* --perf-detail: load the workers' histograms (relaxed, as the MIB fold). */
static void
__hist_load(const struct stats *s, struct stats_snapshot *p)
{
	unsigned int w, k;

	if (s->conf.perf == NULL)
		return;
	for (w = 0; w < s->conf.n_workers; w++)
		for (k = 0; k < STATS_PERF_MAX; k++)
			stats_hist_load(&p->raw_hist[w * STATS_PERF_MAX + k],
					&s->conf.perf[w]->h[k]);
}

/* The histograms since the last clear (under lock). */
static void
__hist_rebase(const struct stats *s, struct stats_snapshot *p)
{
	size_t i;

	if (s->conf.perf == NULL)
		return;
	for (i = 0; i < (size_t)s->conf.n_workers * STATS_PERF_MAX; i++)
		stats_hist_delta(&p->hist[i], &p->raw_hist[i], &s->base_hist[i]);
	memcpy(p->hist_clear_lead, s->hist_clear_lead,
	       __n_hist(s) * sizeof(*p->hist_clear_lead));
}

static void
__snap_free(struct stats_snapshot *p)
{
	if (p == NULL)
		return;
	free(p->per_block);
	free(p->raw_totals);
	free(p->raw_per_block);
	free(p->iv_from);
	free(p->hist);
	free(p->raw_hist);
	free(p->hist_clear_lead);
	free(p->lcore);
	free(p->thread);
	free(p->pmu_iv);
	free(p->pmu_stage_iv);
	__stats_samplers_snap_free(p);
	free(p);
}

static struct stats_snapshot *
__snap_alloc(const struct stats *s)
{
	struct stats_snapshot *p = calloc(1, sizeof(*p));
	size_t nb = (size_t)s->n_blocks * MIB_FIELD_MAX;

	if (p == NULL)
		return NULL;
	p->per_block = calloc(nb, sizeof(uint64_t));
	p->raw_per_block = calloc(nb, sizeof(uint64_t));
	p->raw_totals = calloc(MIB_FIELD_MAX, sizeof(uint64_t));
	p->lcore = calloc(s->conf.n_workers ? s->conf.n_workers : 1,
			  sizeof(*p->lcore));
	if (s->conf.perf != NULL) {
		p->hist = calloc(__n_hist(s), sizeof(*p->hist));
		p->raw_hist = calloc(__n_hist(s), sizeof(*p->raw_hist));
		p->hist_clear_lead = calloc(__n_hist(s), sizeof(*p->hist_clear_lead));
		if (p->hist == NULL || p->raw_hist == NULL ||
		    p->hist_clear_lead == NULL) {
			__snap_free(p);
			return NULL;
		}
	}
	if (s->conf.clocks != NULL) {
		p->thread = calloc(s->conf.n_workers ? s->conf.n_workers : 1,
				   sizeof(*p->thread));
		if (p->thread == NULL) {
			__snap_free(p);
			return NULL;
		}
	}
	if (p->per_block == NULL || p->raw_per_block == NULL || p->raw_totals == NULL ||
	    p->lcore == NULL || __stats_samplers_snap_alloc(s, p) != 0 ||
	    __stats_pmu_snap_alloc(s, p) != 0) {
		__snap_free(p);
		return NULL;
	}
	p->n_workers = s->conf.n_workers;
	p->n_blocks = s->n_blocks;
	p->mib_lcores = s->conf.n_workers + s->conf.n_phantom;
	p->n_phantom = s->conf.n_phantom;
	p->mib_bytes = mib_set_bytes(s->conf.set);
	p->phantom_bytes =
		p->mib_bytes - mib_set_bytes_n(s->conf.set, mib_set_count(s->conf.set) -
								    s->conf.n_phantom);
	p->fold_on_read = s->conf.fold_on_read;
	p->lost_share = s->conf.lost_share > 0 ? s->conf.lost_share :
			STATS_LOST_SHARE_DEFAULT;
	p->tsc_hz = s->hz;
	p->pmu = s->conf.pmu;
	p->lcore_ids = s->conf.lcore_ids;
	p->refcnt = 1;
	return p;
}

static inline const uint64_t *
__blk(const uint64_t *per_block, unsigned int b)
{
	return per_block + (size_t)b * MIB_FIELD_MAX;
}

static inline uint64_t
__grown(const uint64_t *x, const uint64_t *y, unsigned int f)
{
	return y[f] >= x[f] ? y[f] - x[f] : 0;
}

uint64_t
stats_grown(const struct stats_snapshot *a, const struct stats_snapshot *b,
	    unsigned int f)
{
	return f < MIB_FIELD_MAX ? __grown(a->raw_totals, b->raw_totals, f) : 0;
}

/* The total's ns/pkt is 1e9 / the total pps, as stats_rate_compute()
 * gives it: the aggregate cost of a packet, not a mean of the workers'. */
int
stats_rate_between(const struct stats_snapshot *a,
		   const struct stats_snapshot *b, int w, struct stats_rate *r)
{
	const uint64_t *x, *y;
	double dt;

	if (a == NULL || b == NULL || r == NULL ||
	    (w >= 0 && ((unsigned int)w >= a->n_workers ||
			(unsigned int)w >= b->n_workers)))
		return -EINVAL;
	dt = b->tsc >= a->tsc ? __div((double)(b->tsc - a->tsc),
				      (double)b->tsc_hz) : 0;
	if (w < 0) {
		x = a->raw_totals;
		y = b->raw_totals;
	} else {
		x = __blk(a->raw_per_block, (unsigned int)w);
		y = __blk(b->raw_per_block, (unsigned int)w);
	}
	stats_rate_compute(r, __grown(x, y, MIB_F(RX, PACKETS)),
			   __grown(x, y, MIB_F(RX, OCTETS)),
			   __grown(x, y, MIB_F(RX, BUSYCYCLES)),
			   __grown(x, y, MIB_F(RX, IDLECYCLES)), dt);
	r->stalled_polls = __grown(x, y, MIB_F(RX, LOSTPOLLS));
	r->stalled_s = __div((double)__grown(x, y, MIB_F(RX, LOSTCYCLES)),
			     (double)b->tsc_hz);
	__stats_rate_lost(a, b, w, r);
	return 0;
}

static void
__snap_release(struct stats *s, struct stats_snapshot *p)
{
	int last;

	if (p == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	last = --p->refcnt == 0;
	pthread_mutex_unlock(&s->lock);
	if (last)
		__snap_free(p);
}

/* The read folds' counters into snapshot p (under lock). */
static void
__read_counts(const struct stats *s, struct stats_snapshot *p)
{
	p->read_folds = s->read_folds;
	p->read_fold_s_sum = s->read_fold_s_sum;
	memcpy(p->read_fold_buckets, s->read_fold_buckets,
	       sizeof(p->read_fold_buckets));
}

/* Fold, apply the baseline, compute rates, publish. Serialised by fold_lock.
 * final: the workers have stopped (stats_stop()). */
static void
__fold_publish(struct stats *s, bool print, bool final)
{
	/* --pmu: the stats thread's own group around its scheduled folds */
	const struct stats_pmu_group *pg = print && s->fold_grp.n > 0 ?
					   &s->fold_grp : NULL;
	struct stats_snapshot *p, *prev, *old;
	struct stats_pmu_count c0, c1;
	uint64_t t0, t1;
	unsigned int b, w;

	pthread_mutex_lock(&s->fold_lock);
	p = __snap_alloc(s);
	if (p == NULL) {
		pthread_mutex_unlock(&s->fold_lock);
		return;
	}
	if (pg != NULL)
		__stats_pmu_mark(pg, &c0);
	t0 = rte_rdtsc_precise();
	mib_fold_part(s->conf.set, stats_get_fold(s), p->raw_totals, p->raw_per_block,
		      s->n_blocks);
	t1 = rte_rdtsc_precise();
	if (pg != NULL) {
		__stats_pmu_mark(pg, &c1);
		stats_pmu_delta(&c0, &c1, &p->fold_pmu);
	}
	__hist_load(s, p);
	p->tsc = t1;
	p->final = final;
	p->inflight_max = s->conf.inflight_max;
	p->fold_ns = __div((double)(t1 - t0) * 1e9, (double)s->hz);
	p->uptime_s = __div((double)(t1 - s->start_tsc), (double)s->hz);
	/* The samplers after the fold (a port's RxPackets are this fold's),
	 * not part of the fold's timing. */
	__stats_samplers_sample(s, p, false);
	if (print)
		p->late_s = s->late_s;

	pthread_mutex_lock(&s->lock);
	prev = s->latest;
	p->seq = prev ? prev->seq + 1 : 0;
	s->folds++;
	s->fold_ns_sum += p->fold_ns;
	if (p->fold_ns > s->fold_ns_max)
		s->fold_ns_max = p->fold_ns;
	p->folds = s->folds;
	p->fold_ns_max = s->fold_ns_max;
	p->fold_ns_mean = s->fold_ns_sum / (double)s->folds;
	p->clears = s->clears;
	if (print)	/* a scheduled fold: the ones of stats_summary() */
		s->fold_ring[s->fold_ring_n++ % STATS_FOLD_RING] = p->fold_ns;
	__read_counts(s, p);
	__stats_pmu_sums(s, p, false);
	mib_delta(p->raw_totals, s->base_totals, p->totals);
	__stats_samplers_rebase(s, p);
	for (b = 0; b < s->n_blocks; b++)
		mib_delta(__blk(p->raw_per_block, b), __blk(s->base_per_block, b),
			  p->per_block + (size_t)b * MIB_FIELD_MAX);
	__hist_rebase(s, p);
	if (prev != NULL) {
		stats_rate_between(prev, p, -1, &p->total);
		for (w = 0; w < p->n_workers; w++)
			stats_rate_between(prev, p, (int)w, &p->lcore[w]);
		__stats_pmu_interval(prev, p);
		/* the interval's starting point, for per-interval tables (a
		 * missing copy only leaves them out) */
		p->iv_from = malloc((size_t)(1 + p->n_workers) * MIB_FIELD_MAX *
				    sizeof(uint64_t));
		if (p->iv_from != NULL) {
			memcpy(p->iv_from, prev->raw_totals,
			       MIB_FIELD_MAX * sizeof(uint64_t));
			memcpy(p->iv_from + MIB_FIELD_MAX, prev->raw_per_block,
			       (size_t)p->n_workers * MIB_FIELD_MAX * sizeof(uint64_t));
		}
	}
	old = prev;
	s->latest = p;
	p->refcnt++;			/* ours, until printed */
	if (s->first == NULL) {
		s->first = p;
		p->refcnt++;
	}
	/* The fold closest to the end of the warm-up opens the steady
	 * state (the start itself without a warm-up); the tolerance (5% of an
	 * interval, at most 50 ms) absorbs TSC-vs-clock jitter of the
	 * schedule. */
	if (s->warm == NULL && (p != s->first || s->conf.warmup_s <= 0) &&
	    p->uptime_s + RTE_MIN(0.05 * s->conf.interval_s, 0.05) >=
	    s->conf.warmup_s) {
		s->warm = p;
		p->refcnt++;
	}
	pthread_mutex_unlock(&s->lock);

	if (print && s->conf.on_publish != NULL && prev != NULL)
		s->conf.on_publish(p, prev, s->conf.publish_arg);
	__snap_release(s, p);
	__snap_release(s, old);		/* latest's reference on prev */
	pthread_mutex_unlock(&s->fold_lock);
}

struct stats *
stats_create(const struct stats_conf *conf)
{
	struct stats *s;

	if (conf == NULL || conf->set == NULL || conf->interval_s <= 0 ||
	    mib_set_count(conf->set) <= conf->n_phantom ||
	    mib_set_count(conf->set) - conf->n_phantom < conf->n_workers ||
	    (conf->n_ports > 0 && conf->ports == NULL)) {
		rte_errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	s->conf = *conf;
	__stats_pmu_init(s);
	s->n_blocks = mib_set_count(conf->set) - conf->n_phantom;
	s->hz = rte_get_tsc_hz();
	s->base_totals = calloc(MIB_FIELD_MAX, sizeof(uint64_t));
	s->base_per_block = calloc((size_t)s->n_blocks * MIB_FIELD_MAX,
				   sizeof(uint64_t));
	s->fold_ring = calloc(STATS_FOLD_RING, sizeof(double));
	s->read_ring = calloc(STATS_FOLD_RING, sizeof(double));
	if (conf->perf != NULL) {
		s->base_hist = calloc(__n_hist(s), sizeof(*s->base_hist));
		s->hist_clear_lead = calloc(__n_hist(s), sizeof(*s->hist_clear_lead));
	}
	if (s->base_totals == NULL || s->base_per_block == NULL || s->fold_ring == NULL ||
	    s->read_ring == NULL ||
	    (conf->perf != NULL &&
	     (s->base_hist == NULL || s->hist_clear_lead == NULL))) {
		stats_free(s);
		rte_errno = ENOMEM;
		return NULL;
	}
	if (__stats_samplers_init(s) != 0) {
		stats_free(s);
		rte_errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->fold_lock, NULL);
	pthread_mutex_init(&s->wait_lock, NULL);
	{
		pthread_condattr_t a;

		pthread_condattr_init(&a);
		pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
		pthread_cond_init(&s->wait_cond, &a);
		pthread_condattr_destroy(&a);
	}
	return s;
}

static uint64_t
__ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

/*
 * Deadlines, not sleeps: the schedule does not drift. A wake-up that comes
 * a whole interval or more after its deadline (the thread was not
 * scheduled: starved, or the process stopped) folds once, then skips the
 * deadlines that passed: one long interval, flagged with its lateness
 * (stats_snapshot.late_s), never a burst of back-to-back folds that would
 * print intervals of microseconds stamped with the same time.
 */
static void *
__stats_thread(void *arg)
{
	struct stats *s = arg;
	struct timespec next, now;
	uint64_t ns_step = (uint64_t)(s->conf.interval_s * 1e9);

	__stats_pmu_thread_open(s);
	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&s->wait_lock);
	while (!s->stop) {
		uint64_t ns = (uint64_t)next.tv_nsec + ns_step, late;

		next.tv_sec += (time_t)(ns / 1000000000u);
		next.tv_nsec = (long)(ns % 1000000000u);
		while (!s->stop &&
		       pthread_cond_timedwait(&s->wait_cond, &s->wait_lock,
					      &next) != ETIMEDOUT)
			;
		if (s->stop)
			break;
		pthread_mutex_unlock(&s->wait_lock);
		clock_gettime(CLOCK_MONOTONIC, &now);
		late = __ts_ns(&now) > __ts_ns(&next) ? __ts_ns(&now) - __ts_ns(&next) : 0;
		s->late_s = (double)late / 1e9;
		__fold_publish(s, true, false);
		if (late >= ns_step) {
			/* the deadline is the latest one that passed */
			uint64_t skip = late / ns_step * ns_step + (uint64_t)next.tv_nsec;

			next.tv_sec += (time_t)(skip / 1000000000u);
			next.tv_nsec = (long)(skip % 1000000000u);
			STATS_LOG(DEBUG, "woke %.3f s late: %" PRIu64 " deadlines "
				  "skipped", s->late_s, late / ns_step);
		}
		pthread_mutex_lock(&s->wait_lock);
	}
	pthread_mutex_unlock(&s->wait_lock);
	__stats_pmu_thread_close(s);
	return NULL;
}

int
stats_start(struct stats *s)
{
	int rc;

	s->start_tsc = rte_rdtsc_precise();
	__fold_publish(s, false, false);
	__atomic_store_n(&s->thread_running, true, __ATOMIC_RELAXED);
	rc = rte_ctrl_thread_create(&s->tid, "pktpath-stats", NULL,
				    __stats_thread, s);
	if (rc != 0) {		/* a negative errno */
		__atomic_store_n(&s->thread_running, false, __ATOMIC_RELAXED);
		return rc;
	}
	STATS_LOG(DEBUG,
		  "thread started: %u worker%s, %u port%s, fold %s, "
		  "interval %.3f s, warm-up %.3f s, first fold %.0f ns",
		  s->conf.n_workers, s->conf.n_workers == 1 ? "" : "s", s->n_ports,
		  s->n_ports == 1 ? "" : "s", mib_fold_name(stats_get_fold(s)),
		  s->conf.interval_s, s->conf.warmup_s, s->fold_ns_max);
	return 0;
}

void
stats_set_fold(struct stats *s, enum mib_fold f)
{
	/* Relaxed: a fold takes one strategy or the other, whole. */
	__atomic_store_n(&s->conf.fold, f, __ATOMIC_RELAXED);
}

enum mib_fold
stats_get_fold(const struct stats *s)
{
	return __atomic_load_n(&s->conf.fold, __ATOMIC_RELAXED);
}

void
stats_stop(struct stats *s)
{
	if (s->thread_running) {
		pthread_mutex_lock(&s->wait_lock);
		s->stop = true;
		pthread_cond_signal(&s->wait_cond);
		pthread_mutex_unlock(&s->wait_lock);
		pthread_join(s->tid, NULL);
		__atomic_store_n(&s->thread_running, false, __ATOMIC_RELAXED);
	}
	if (s->latest != NULL)
		__fold_publish(s, false, true);
	pthread_mutex_lock(&s->lock);
	if (s->final == NULL && s->latest != NULL) {
		s->final = s->latest;
		s->final->refcnt++;
		STATS_LOG(DEBUG, "stopped: %" PRIu64 " folds, mean %.0f ns, max "
			  "%.0f ns, %" PRIu64 " clears", s->folds,
			  s->fold_ns_sum / (double)s->folds, s->fold_ns_max,
			  s->clears);
	}
	pthread_mutex_unlock(&s->lock);
}

void
stats_free(struct stats *s)
{
	if (s == NULL)
		return;
	if (s->thread_running)
		stats_stop(s);
	__snap_release(s, s->latest);
	__snap_release(s, s->first);
	__snap_release(s, s->warm);
	__snap_release(s, s->final);
	free(s->base_totals);
	free(s->base_per_block);
	free(s->base_hist);
	free(s->hist_clear_lead);
	free(s->fold_ring);
	free(s->read_ring);
	__stats_samplers_free(s);
	__stats_pmu_free(s);
	free(s);
}

struct stats_snapshot *
stats_get(struct stats *s)
{
	struct stats_snapshot *p;

	pthread_mutex_lock(&s->lock);
	p = s->latest;
	if (p != NULL)
		p->refcnt++;
	pthread_mutex_unlock(&s->lock);
	return p;
}

void
stats_put(struct stats *s, struct stats_snapshot *snap)
{
	__snap_release(s, snap);
}

/* How many times stats_read() folds unlocked while a clear keeps landing
 * during its fold, before it folds under fold_lock. */
#define READ_FOLD_TRIES 4

/* A read's fold of ns nanoseconds, counted and timed. Under s->lock. */
static void
__read_note(struct stats *s, double ns)
{
	double sec = ns / 1e9;
	unsigned int i;

	for (i = 0; i < STATS_READ_BUCKETS - 1; i++)
		if (sec <= stats_read_fold_bounds_s[i])
			break;
	s->read_ring[s->read_folds % STATS_FOLD_RING] = ns;
	s->read_folds++;
	s->read_fold_s_sum += sec;
	s->read_fold_buckets[i]++;
}

void
stats_read_note(struct stats *s, double ns)
{
	pthread_mutex_lock(&s->lock);
	__read_note(s, ns);
	pthread_mutex_unlock(&s->lock);
}

struct stats_snapshot *
stats_read(struct stats *s)
{
	struct stats_snapshot *p, *latest = stats_get(s);
	const struct stats_pmu_group *rg;
	struct stats_pmu_count c0, c1;
	uint64_t t0, t1, clears;
	unsigned int b, tries;
	bool last;

	if (latest == NULL) {
		rte_errno = ENOENT;
		return NULL;
	}
	if (!s->conf.fold_on_read)
		return latest;
	rg = __stats_pmu_reader(s);	/* --pmu: this reader's own group */
	p = __snap_alloc(s);
	if (p == NULL) {
		/* Not the published snapshot: it is older than the folds
		 * this reader may have had, and a counter must not go back. */
		stats_put(s, latest);
		rte_errno = ENOMEM;
		return NULL;
	}
	/*
	 * The fold runs unlocked; the baseline is applied after it, under the
	 * lock. A clear that installs its baseline in between took it from a
	 * fold newer than this one, and raw - base would wrap: so the clear
	 * count is noted before the fold, and the fold is done again if it
	 * moved (the baseline only changes with it). The last try holds
	 * fold_lock from before its fold until s->lock is taken: a clear's
	 * baseline is a snapshot published under fold_lock, so whatever
	 * baseline is installed meanwhile is older than this fold. Never the
	 * published snapshot instead: it is older than this reader's previous
	 * answer may have been. The loop leaves with s->lock held.
	 */
	for (tries = 0;; tries++) {
		last = tries + 1 == READ_FOLD_TRIES;
		pthread_mutex_lock(&s->lock);
		clears = s->clears;
		pthread_mutex_unlock(&s->lock);
		if (last)
			pthread_mutex_lock(&s->fold_lock);
		if (rg != NULL)
			__stats_pmu_mark(rg, &c0);
		t0 = rte_rdtsc_precise();
		mib_fold_part(s->conf.set, stats_get_fold(s), p->raw_totals,
			      p->raw_per_block, s->n_blocks);
		t1 = rte_rdtsc_precise();
		if (rg != NULL)
			__stats_pmu_mark(rg, &c1);
		__hist_load(s, p);
		/* One sampler at a time: a port's kernel counters are
		 * read-and-clear. */
		if (__stats_samplers_on_read(s)) {
			if (!last)
				pthread_mutex_lock(&s->fold_lock);
			__stats_samplers_sample(s, p, true);
			if (!last)
				pthread_mutex_unlock(&s->fold_lock);
		}
		pthread_mutex_lock(&s->lock);	/* after fold_lock, as everywhere */
		if (last)
			pthread_mutex_unlock(&s->fold_lock);
		if (last || s->clears == clears)
			break;
		pthread_mutex_unlock(&s->lock);
	}
	p->tsc = t1;
	p->final = latest->final;
	p->inflight_max = s->conf.inflight_max;
	p->read_fold = true;
	if (rg != NULL)
		stats_pmu_delta(&c0, &c1, &p->fold_pmu);
	p->read_fold_ns = __div((double)(t1 - t0) * 1e9, (double)s->hz);
	p->uptime_s = __div((double)(t1 - s->start_tsc), (double)s->hz);
	__read_note(s, p->read_fold_ns);
	__read_counts(s, p);
	__stats_pmu_sums(s, p, true);
	p->seq = latest->seq;
	p->fold_ns = latest->fold_ns;
	p->fold_ns_max = latest->fold_ns_max;
	p->fold_ns_mean = latest->fold_ns_mean;
	p->folds = latest->folds;
	p->clears = s->clears;
	p->total = latest->total;
	memcpy(p->lcore, latest->lcore, (size_t)p->n_workers * sizeof(*p->lcore));
	if (p->thread != NULL && latest->thread != NULL)
		memcpy(p->thread, latest->thread,
		       (size_t)p->n_workers * sizeof(*p->thread));
	if (p->pmu_iv != NULL && latest->pmu_iv != NULL)
		memcpy(p->pmu_iv, latest->pmu_iv,
		       (size_t)(p->n_workers + 1) * sizeof(*p->pmu_iv));
	if (p->pmu_stage_iv != NULL && latest->pmu_stage_iv != NULL)
		memcpy(p->pmu_stage_iv, latest->pmu_stage_iv,
		       (size_t)(p->n_workers + 1) * MIB_STAGES *
			       sizeof(*p->pmu_stage_iv));
	mib_delta(p->raw_totals, s->base_totals, p->totals);
	__stats_samplers_rebase(s, p);
	for (b = 0; b < s->n_blocks; b++)
		mib_delta(__blk(p->raw_per_block, b), __blk(s->base_per_block, b),
			  p->per_block + (size_t)b * MIB_FIELD_MAX);
	__hist_rebase(s, p);
	pthread_mutex_unlock(&s->lock);
	stats_put(s, latest);
	return p;
}

/*
 * --perf-detail at a clear: the histograms' baseline, and by how many polls
 * it leads the MIB's. A worker adds to its histograms at every poll but
 * flushes RxBursts to its block every few polls, and the fold
 * reads the blocks before the histograms: a preempted stats thread may read
 * them any number of polls apart. A histogram's count since the clear plus
 * its lead is RxBursts since the clear once the workers stopped (under lock),
 * for every histogram that counts the polls (all four with the hook).
 */
static void
__hist_clear(struct stats *s, const struct stats_snapshot *p)
{
	unsigned int w, k;
	size_t i;

	uint64_t n;

	memcpy(s->base_hist, p->raw_hist, __n_hist(s) * sizeof(*s->base_hist));
	for (w = 0; w < s->conf.n_workers; w++)
		for (k = 0; k < STATS_PERF_MAX; k++) {
			i = (size_t)w * STATS_PERF_MAX + k;
			n = stats_hist_count(&p->raw_hist[i]);
			/* An empty histogram counts no polls in this run
			 * (ingress_cycles without the hook): no lead. */
			s->hist_clear_lead[i] =
				n == 0 ? 0
				       : (int64_t)(n - __blk(p->raw_per_block,
							     w)[MIB_F(RX, BURSTS)]);
		}
}

void
stats_clear(struct stats *s)
{
	/* Fold now so that the baseline is exact, then adopt it. Workers are
	 * never written: later snapshots subtract the baseline. */
	__fold_publish(s, false, false);
	pthread_mutex_lock(&s->lock);
	if (s->latest != NULL) {
		memcpy(s->base_totals, s->latest->raw_totals,
		       MIB_FIELD_MAX * sizeof(uint64_t));
		memcpy(s->base_per_block, s->latest->raw_per_block,
		       (size_t)s->n_blocks * MIB_FIELD_MAX * sizeof(uint64_t));
		__stats_samplers_clear(s, s->latest);
		if (s->conf.perf != NULL)
			__hist_clear(s, s->latest);
		s->clears++;
		STATS_LOG(DEBUG, "clear %" PRIu64 ": baseline of fold %" PRIu64,
			  s->clears, s->latest->seq);
	}
	pthread_mutex_unlock(&s->lock);
	__fold_publish(s, false, false);
}

void
stats_fold_now(struct stats *s)
{
	__fold_publish(s, false, false);
}

bool
stats_running(const struct stats *s)
{
	/* Written by the owning thread in stats_start()/stats_stop(). */
	return __atomic_load_n(&s->thread_running, __ATOMIC_RELAXED);
}

double
stats_interval(const struct stats *s)
{
	return s->conf.interval_s;
}
