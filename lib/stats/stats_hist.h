/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STATS_HIST_H
#define PKTPATH_STATS_HIST_H

/**
 * @file
 * --perf-detail: log-scale histograms of the worker's polls and the record
 * of its suspicious polls (OVS dpif-netdev-perf's histograms and
 * "suspicious iterations").
 *
 * Bins. Every histogram has STATS_HIST_BINS (64) bins of integer values,
 * two per octave (OVS has 32 per histogram, log-scale; two per octave
 * bound a percentile's error by a factor 1.5 instead of 2):
 *
 *     bin 0:       0
 *     bin 1:       1
 *     bin 2k:      2^k         .. 3 * 2^(k-1) - 1     (k = 1 .. 31)
 *     bin 2k + 1:  3 * 2^(k-1) .. 2^(k+1) - 1         (k = 1 .. 30)
 *     bin 63:      3 * 2^30    .. UINT64_MAX          (open)
 *
 * that is 0, 1, 2, 3, 4-5, 6-7, 8-11, 12-15, 16-23, 24-31, ..., 2^31 ..
 * 3221225471, 3221225472 and above (about 1.1 s of a 3 GHz TSC).
 * stats_hist_upper() is a bin's inclusive upper bound, the Prometheus
 * `le` of its bucket.
 *
 * Percentiles (stats_hist_percentile()): nearest rank. Of n values the
 * q-th percentile is the value of rank r = ceil(q * n) (1 <= r <= n) in
 * ascending order; the histogram answers the upper bound of the bin
 * holding rank r, capped at the maximum (stats_hist.max). So the answer is
 * never below the true percentile and less than 1.5 times it (above 1),
 * and the 100th percentile is the maximum itself, which the worker keeps
 * exactly.
 *
 * Concurrency: a histogram in struct stats_perf is written by its worker
 * only, by plain single-writer stores (no locked instruction); readers
 * load each word relaxed (stats_hist_load()), as the MIB blocks are read.
 * A reader may see a bin and the sum from different polls: count and sum
 * can be off by the poll in flight, never more.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STATS_HIST_BINS 64

/** One histogram: the bins, the sum of the values and their maximum. */
struct stats_hist {
	uint64_t bins[STATS_HIST_BINS];
	uint64_t sum;	/**< of the values recorded (wraps at 2^64) */
	uint64_t max;	/**< the largest value recorded (0 when none) */
};

/** The bin of value v. */
static inline unsigned int
stats_hist_bin(uint64_t v)
{
	unsigned int k, i;

	if (v < 2)
		return (unsigned int)v;
	k = 63u - (unsigned int)__builtin_clzll(v);
	i = 2 * k + (unsigned int)((v >> (k - 1)) & 1);
	return i < STATS_HIST_BINS ? i : STATS_HIST_BINS - 1;
}

/** Smallest value of bin i (i < STATS_HIST_BINS). */
uint64_t stats_hist_lower(unsigned int i);
/** Largest value of bin i (UINT64_MAX for the last one). */
uint64_t stats_hist_upper(unsigned int i);

/** Record v (single writer: relaxed loads and stores, no locked
 *  instruction; stats_hist_load() reads it while it runs). */
static inline void
stats_hist_add(struct stats_hist *h, uint64_t v)
{
	uint64_t *b = &h->bins[stats_hist_bin(v)];

	__atomic_store_n(b, __atomic_load_n(b, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&h->sum, __atomic_load_n(&h->sum, __ATOMIC_RELAXED) + v,
			 __ATOMIC_RELAXED);
	if (v > __atomic_load_n(&h->max, __ATOMIC_RELAXED))
		__atomic_store_n(&h->max, v, __ATOMIC_RELAXED);
}

/** Values recorded: the sum of the bins. */
uint64_t stats_hist_count(const struct stats_hist *h);

/** Copy src with relaxed loads of each word (src's writer may be running). */
void stats_hist_load(struct stats_hist *dst, const struct stats_hist *src);

/** acc += h (bins and sums added, the larger max). */
void stats_hist_merge(struct stats_hist *acc, const struct stats_hist *h);

/**
 * What was recorded between two loads of one histogram, early then late:
 * bins and sum subtracted (a bin lower in late counts as 0). The maximum of
 * that window cannot always be known from two maxima: out->max is late's
 * maximum (the run's) capped at the upper bound of the highest non-empty
 * bin of the window; 0 for an empty window.
 * @return true when out->max is the window's exact maximum (the run's
 *   maximum was recorded in the window: late's is above early's, or early
 *   is empty), false when it is only an upper bound.
 */
bool stats_hist_delta(struct stats_hist *out, const struct stats_hist *late,
		      const struct stats_hist *early);

/**
 * The percentile ppm / 1e6 (500000: the median, 1000000: the maximum) of
 * h by the rule of the file comment; 0 for an empty histogram.
 */
uint64_t stats_hist_percentile(const struct stats_hist *h, uint32_t ppm);

/** The percentiles every report prints: p50, p90, p99, p99.9, max. */
#define STATS_HIST_N_PCT 5
extern const uint32_t stats_hist_pct_ppm[STATS_HIST_N_PCT];
extern const char *const stats_hist_pct_names[STATS_HIST_N_PCT]; /**< "p50".. "max" */

/* ====================================================================
 * The worker's --perf-detail block
 * ==================================================================== */

/** The histograms of one worker. */
enum stats_perf_kind {
	STATS_PERF_POLL_CYCLES,		/**< TSC cycles of a busy poll */
	STATS_PERF_POLL_PACKETS,	/**< packets of a busy poll */
	STATS_PERF_PKT_CYCLES,		/**< cycles / packets of a busy poll */
	STATS_PERF_INGRESS_CYCLES,	/**< cycles of ingress_burst() per burst */
	STATS_PERF_MAX
};

/** "poll_cycles", "poll_packets", "packet_cycles", "ingress_cycles" */
const char *stats_perf_kind_name(enum stats_perf_kind k);

/** Polls kept around a suspicious one, before and after it (OVS: the
 *  iterations around a suspicious one in its history). */
#define STATS_PERF_WINDOW 16
/** The worker's history of its last polls (a power of two, > 2 windows). */
#define STATS_PERF_RING 64
/** Events a worker holds for the reader (stats_perf_drain()). */
#define STATS_PERF_EVENTS 64
/** stats_perf_event.mode of a loop without the ingress hook. */
#define STATS_PERF_NO_MODE 0xffu

/** One poll of the history: its cycles and its packets (0: empty). */
struct stats_perf_poll {
	uint64_t cycles;
	uint32_t packets;
	uint32_t pad;
};

/** A suspicious poll and the polls around it. */
struct stats_perf_event {
	uint64_t poll;		/**< its number in the worker's polls (0 first) */
	uint64_t tsc;		/**< TSC at its end */
	uint64_t cycles;	/**< its duration */
	uint32_t packets;
	uint32_t mode;		/**< enum ingress_mode in force, or STATS_PERF_NO_MODE */
	uint64_t ctl_start;	/**< the control activity word at its start */
	uint64_t ctl_end;	/**< and at its end (ingress_activity()) */
	/** Suspicious polls from this one to the end of the window (1: only
	 *  this one; the others count in SuspiciousPolls, no event of their
	 *  own). */
	uint32_t suspicious;
	uint32_t n_before;	/**< polls of win before it (< WINDOW at start) */
	uint32_t n_after;	/**< after it (< WINDOW when the run ended) */
	uint32_t pad;
	/** n_before polls, this one, n_after polls, oldest first. */
	struct stats_perf_poll win[2 * STATS_PERF_WINDOW + 1];
};

/**
 * A worker's --perf-detail block, in its own (page-aligned) memory. The
 * worker writes everything; the reader loads h (stats_hist_load()) and the
 * events through stats_perf_drain(). threshold is set before the worker
 * starts.
 */
struct stats_perf {
	struct stats_hist h[STATS_PERF_MAX];
	uint64_t events;	/**< events published (store-release) */
	struct stats_perf_event ev[STATS_PERF_EVENTS];
	/* Set before the worker starts. */
	uint64_t threshold;	/**< cycles: a longer poll is suspicious; 0: none */
	/* The worker's own state. */
	uint64_t polls;
	uint64_t ctl_last;	/**< activity word at the end of the last poll */
	uint32_t pending;	/**< polls of cur's after-window still to come */
	struct stats_perf_poll ring[STATS_PERF_RING];
	struct stats_perf_event cur;
} __attribute__((aligned(64)));

/** Publish cur (the worker). */
static inline void
__stats_perf_publish(struct stats_perf *p)
{
	uint64_t e = p->events, s = p->cur.poll;
	uint32_t i, n;
	struct stats_perf_event *ev = &p->ev[e % STATS_PERF_EVENTS];

	/* Release fence: the count stored by the last publish (which let
	 * this slot's old event go) is ordered before any byte of the new
	 * one, so a reader whose copy met the new bytes then loads a count
	 * that says so (stats_perf_drain(): a seqlock's writer side, the
	 * count its sequence number). A compiler barrier on x86. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	p->cur.n_after = (uint32_t)(p->polls - 1 - s);
	n = p->cur.n_before + 1 + p->cur.n_after;
	for (i = 0; i < n; i++)
		p->cur.win[i] = p->ring[(s - p->cur.n_before + i) % STATS_PERF_RING];
	memcpy(ev, &p->cur, sizeof(*ev));
	/* Release: the event is written before the reader sees the count
	 * (a plain store on x86). */
	__atomic_store_n(&p->events, e + 1, __ATOMIC_RELEASE);
	p->pending = 0;
}

/**
 * One poll ended (the worker, once per poll, with the cycles since the
 * previous poll ended): into the history, the histograms if it was busy
 * and not lost (longer than --stall-us: time the worker did not run, which
 * no busy cycle holds either, so that the poll_cycles histogram's sum is
 * BusyCycles), and the suspicious check (a lost poll is the first suspect).
 * ctl: the control activity word now (0 without the hook), mode: the
 * ingress mode it ran in. @return true when the poll was suspicious (the
 * caller counts it in SuspiciousPolls).
 */
static inline bool
stats_perf_poll(struct stats_perf *p, uint64_t cycles, uint32_t packets,
		uint32_t mode, uint64_t ctl, uint64_t tsc, bool lost)
{
	uint64_t s = p->polls++;
	struct stats_perf_poll *r = &p->ring[s % STATS_PERF_RING];
	bool sus = cycles > p->threshold && p->threshold != 0;
	uint64_t ctl_start = p->ctl_last;

	r->cycles = cycles;
	r->packets = packets;
	p->ctl_last = ctl;
	if (packets != 0 && !lost) {
		stats_hist_add(&p->h[STATS_PERF_POLL_CYCLES], cycles);
		stats_hist_add(&p->h[STATS_PERF_POLL_PACKETS], packets);
		stats_hist_add(&p->h[STATS_PERF_PKT_CYCLES], cycles / packets);
	}
	if (__builtin_expect(p->pending != 0, 0)) {
		p->cur.suspicious += sus;
		if (--p->pending == 0)
			__stats_perf_publish(p);
	} else if (__builtin_expect(sus, 0)) {
		p->cur.poll = s;
		p->cur.tsc = tsc;
		p->cur.cycles = cycles;
		p->cur.packets = packets;
		p->cur.mode = mode;
		p->cur.ctl_start = ctl_start;
		p->cur.ctl_end = ctl;
		p->cur.suspicious = 1;
		p->cur.n_before = (uint32_t)(s < STATS_PERF_WINDOW ? s : STATS_PERF_WINDOW);
		p->cur.n_after = 0;
		p->pending = STATS_PERF_WINDOW;
	}
	return sus;
}

/** The loop ended (the worker): publish an event whose window is open. */
static inline void
stats_perf_finish(struct stats_perf *p)
{
	if (p->pending != 0)
		__stats_perf_publish(p);
}

/**
 * Copy the events published since *cursor (the reader's, 0 at first) into
 * out (at most max), oldest first, and advance *cursor. The last
 * STATS_PERF_EVENTS - 1 events published are readable (the oldest slot is
 * the one the worker writes next); older ones, overwritten before they
 * were read, are added to *lost. One reader per block. @return events copied.
 */
unsigned int stats_perf_drain(const struct stats_perf *p, uint64_t *cursor,
			      struct stats_perf_event *out, unsigned int max,
			      uint64_t *lost);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_STATS_HIST_H */
