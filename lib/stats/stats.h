/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STATS_H
#define PKTPATH_STATS_H

/**
 * @file
 * The stats thread: folds the per-lcore MIB blocks every interval, computes
 * rates, and publishes immutable snapshots that reporters (console, JSON,
 * HTTP, telemetry) read. Reporters never write worker memory: they read
 * snapshots, or, with stats_conf.fold_on_read, fold the blocks themselves
 * through stats_read() (relaxed loads only), as procfs folds per-CPU MIBs
 * for each reader of /proc/net/snmp.
 *
 * Phantom lcores (stats_conf.n_phantom, --mib-lcores): blocks after the
 * control block that no lcore writes, so that every fold walks as many
 * blocks as an N-CPU server's; they add zero to every total and are not
 * kept per block in snapshots (stats_snapshot.n_blocks excludes them).
 *
 * Rates of a worker over an interval (testpmd / OVS pmd-perf-show style):
 *   pps        = dRxPackets / dt            (dt from the TSC)
 *   ns/pkt     = 1e9 / pps
 *   cycles/pkt = dBusyCycles / dRxPackets   (busy: polls that carried packets)
 *   busy %     = dBusyCycles / (dBusyCycles + dIdleCycles)
 *   Gbit/s     = 8 * dRxOctets / dt         (L2 bytes, no FCS/preamble/IFG)
 * For the total: pps and Gbit/s are sums, ns/pkt = 1e9 / total pps (the
 * aggregate cost of a packet), cycles/pkt = sum busy / sum packets. Every
 * division is guarded: a zero denominator gives 0.
 *
 * Clearing keeps a baseline (the raw totals at the time of the clear) and
 * subtracts it from every later snapshot; worker blocks are never written.
 * Rates are computed from raw values, so a clear never produces a negative
 * rate, and counters published after a clear never go below zero.
 *
 * lib/stats publishes; it reports nothing itself. What reads snapshots
 * (the console and JSON reporters, Prometheus, HTTP, telemetry: lib/export)
 * sits above it and is reached only through stats_conf.on_publish, which
 * the application sets: nothing here calls an exporter.
 *
 * Thread-safety: stats_get()/stats_put()/stats_clear()/stats_running()/
 * stats_interval() may be called from any non-worker thread at any time;
 * the functions over a snapshot or plain values (stats_rate_*,
 * stats_laws(), stats_conservation(), stats_port_check()) from any thread;
 * the rest is for the owning (main) thread.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mib.h"
#include "stats_hist.h"
#include "stats_pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Rates over one interval (or over a run). */
struct stats_rate {
	double seconds;
	uint64_t packets;
	uint64_t octets;
	uint64_t busy_cycles;
	uint64_t idle_cycles;
	double pps;
	double gbps;
	double ns_per_pkt;
	double cycles_per_pkt;
	double busy_pct;
	/**
	 * Lost time (stats_rate_between(); 0 from stats_rate_compute()):
	 * seconds the worker (all workers summed, for a total) did not run
	 * in the interval, by the kernel's accounting of its thread (wall
	 * time less its CPU time: preempted, stopped, stolen); why, as far as
	 * the kernel says (enum stats_lost_cause); its involuntary context
	 * switches; and the polls the worker itself found longer than
	 * --stall-us (Rx LostPolls) with their seconds (Rx LostCycles: what
	 * busy and idle cycles exclude). lost_known: the kernel's accounting
	 * covered the interval (a worker's thread is known once it runs).
	 */
	double lost_s;
	uint64_t involuntary_switches;
	uint64_t stalled_polls;
	double stalled_s;
	uint8_t lost_cause;
	bool lost_known;
	/** A worker did not run for its share of the interval or more
	 *  (stats_conf.lost_share; for a total: any worker): the interval is
	 *  flagged, and left out of steady states and --compare. */
	bool lost_flag;
};

/** Why a worker did not run, as far as the kernel's counters say. */
enum stats_lost_cause {
	STATS_LOST_NONE,	/**< it ran (or lost nothing worth a cause) */
	STATS_LOST_PREEMPTED,	/**< runnable, another task had its CPU */
	STATS_LOST_STOPPED,	/**< stopped (SIGSTOP, a debugger) */
	STATS_LOST_SLEEPING,	/**< blocked in the kernel (a page fault, a
				 *   system call that waited) */
	STATS_LOST_SUSPENDED,	/**< it left its CPU of itself (voluntary
				 *   switches: stopped, or blocked) and runs
				 *   again at the fold */
	STATS_LOST_OFFCPU,	/**< none of those seen: steal, interrupts */
	STATS_LOST_CAUSE_MAX
};

/** "preempted", "stopped", "sleeping", "suspended", "off-cpu" ("" for
 *  none). */
const char *stats_lost_cause_name(enum stats_lost_cause c);

/** The cause of a worker's lost time, by its state at the end (stats_thread
 *  .state) and its voluntary and involuntary switches in the interval:
 *  stopped ('T', 't'), sleeping ('S', 'D'), suspended (a voluntary switch:
 *  a busy-polling worker never sleeps of itself, so it was stopped or
 *  blocked, and runs again), preempted (an involuntary switch, or runnable
 *  at the end), else off-cpu. */
enum stats_lost_cause stats_lost_cause_of(char state, uint64_t ivcsw, uint64_t vcsw);

/**
 * The default share of an interval (or a run) a worker may lose before the
 * interval is flagged (stats_conf.lost_share, --lost-share): its rates are
 * flagged, and the steady state, the spread and --compare leave it out (a
 * preempted 10 ms costs a 1 s interval 1% of its Mpps).
 */
#define STATS_LOST_SHARE_DEFAULT 0.01

/** Whether r lost time: stats_rate.lost_flag. */
static inline bool
stats_rate_lost(const struct stats_rate *r)
{
	return r->lost_flag;
}

/**
 * What a worker publishes of itself for lost-time accounting: its kernel
 * thread id and, where it began and ended polling, the TSC and its
 * thread's CPU time. Written by the worker only (stats_worker_begin(),
 * stats_worker_end()); the stats thread reads it. One per worker, in
 * stats_conf.clocks, zeroed before its worker begins (stats_create() then
 * sets pmu).
 */
struct stats_worker_clock {
	int tid;		/**< 0 until stats_worker_begin() */
	uint64_t begin_tsc;
	uint64_t begin_run_ns;
	uint64_t end_tsc;	/**< 0 until stats_worker_end() */
	uint64_t end_run_ns;
	/** --pmu: the events its begin opens as a group on the worker's own
	 *  thread, so that they count from its first poll (stats_create()
	 *  sets it from stats_conf.pmu; NULL: none); the group, which the
	 *  stats thread reads and stats_free() closes; and the error when it
	 *  could not be opened (0: it was, or none was asked for). */
	const struct stats_pmu_conf *pmu;
	struct stats_pmu_group group;
	int pmu_err;
	/** --pmu with --stage-cycles: the events of group counted in each
	 *  stage of the worker's bursts (enum mib_stage_id) since its begin,
	 *  raw (counted while the group ran), the polls that were lost left
	 *  out: the worker stores them (relaxed: it is their one writer) when
	 *  it flushes its Rx counters; the stats thread loads them at each
	 *  fold into stats_thread.stage_pmu. */
	uint64_t stage_pmu[MIB_STAGES][STATS_PMU_MAX];
};

/** The calling worker begins polling: with --pmu its group opened (a few
 *  system calls, before anything is timed), then its tid, TSC and CPU time
 *  (one clock_gettime(), at the start of the loop; never per poll). */
void stats_worker_begin(struct stats_worker_clock *c);
/** The calling worker stopped polling (after its last poll): its group, if
 *  any, stops counting (the final fold reads what the loop counted). */
void stats_worker_end(struct stats_worker_clock *c);

/** A worker's thread as the kernel counted it, at a fold (raw: since the
 *  worker began polling; lost_ns only grows). */
struct stats_thread {
	uint64_t lost_ns;	/**< wall time less CPU time, since it began */
	uint64_t run_ns;	/**< CPU time since it began */
	uint64_t wait_ns;	/**< run-queue wait since the first reading */
	uint64_t vcsw;		/**< context switches since the first reading */
	uint64_t ivcsw;
	uint8_t src;		/**< enum stats_tcount_src of the last read */
	char state;		/**< its state at the fold ('R', 'S', 'T'...;
				 *   0: not read) */
	bool known;		/**< it has begun: the values hold */
	/** --pmu: its group at the fold (raw, since its begin; frozen at its
	 *  end); pmu.known false when not read (no --pmu, not begun, its
	 *  group could not be opened). */
	struct stats_pmu_count pmu;
	/** --pmu with --stage-cycles: stats_worker_clock.stage_pmu at the
	 *  fold (all 0 without). */
	uint64_t stage_pmu[MIB_STAGES][STATS_PMU_MAX];
};

/* ====================================================================
 * --pmu: events per packet (stats_pmu.h counts; these are the rates)
 * ==================================================================== */

struct stats_snapshot;

/** What a worker's group (or all workers') counted between two snapshots,
 *  and per packet. */
struct stats_pmu_rate {
	const struct stats_pmu_conf *conf;	/**< the events (their names) */
	struct stats_pmu_delta d;	/**< the counts (d.known: all read) */
	uint64_t packets;		/**< Rx RxPackets in the same window */
	double per_pkt[STATS_PMU_MAX];	/**< d.v / packets (0 without packets) */
	double ipc;			/**< instructions / cycles, NAN without
					 *   both events */
};

/**
 * The events of worker w (or of all workers, summed, when w < 0) between
 * snapshots a and b of one stats object (a folded first), with the packets
 * of the same window: what the interval and summary figures are. A worker
 * not begun at a counts from its begin (its group opened there); one whose
 * group is unknown at b (or at a, once begun) leaves r->d.known false.
 * @return 0, or -EINVAL (NULL, no --pmu, w out of range). Thread-safe.
 */
int stats_pmu_between(const struct stats_snapshot *a, const struct stats_snapshot *b,
		      int w, struct stats_pmu_rate *r);

/** r's per-packet figures and IPC from its counts (r->d, r->packets) under
 *  c's events, and r->conf (stats_pmu_between() calls it; for counts made
 *  elsewhere). */
void stats_pmu_rate_finish(const struct stats_pmu_conf *c, struct stats_pmu_rate *r);

/**
 * What worker w's (w < 0: all workers') group counted in stage stage
 * (enum mib_stage_id) between snapshots a (NULL: since the workers began)
 * and b, with --stage-cycles: r->d the events (each worker's scaled by its
 * group's enabled / running over the same window, as stats_pmu_between()
 * scales the interval's; d.scaled then), r->packets the packets that
 * entered the stage (Stage <S>Packets), r->per_pkt and r->ipc. A stage
 * that did not run has 0 packets and 0 events. Thread-safe.
 * @return 0, or -EINVAL (b NULL, no --pmu, w or stage out of range).
 */
int stats_pmu_stage_between(const struct stats_snapshot *a,
			    const struct stats_snapshot *b, int w, unsigned int stage,
			    struct stats_pmu_rate *r);

/* ====================================================================
 * Port counters (--source port)
 *
 * Each fold, the stats thread (never a worker) samples every port's
 * rte_eth_stats_get() and rte_eth_xstats_get(), and, for the two PMDs that
 * receive from the Linux kernel and do not report what the kernel dropped
 * on the way, the kernel's own counter of it:
 *   net_af_packet  PACKET_STATISTICS of the PMD's packet sockets (the count
 *                  tcpdump prints as "dropped by kernel": frames that found
 *                  the socket's ring full), read clear-on-read and summed;
 *   net_tap        tx_dropped of the tap interface (frames the kernel could
 *                  not queue to the PMD's file descriptor).
 * Field names are DPDK's (struct rte_eth_stats) and the PMD's xstat names.
 *
 * Values in a snapshot: raw (since the port started, as the device counts;
 * the kernel counters since stats_create()) and baseline-relative (cleared by
 * stats_clear(), like the MIB).
 *
 * Conservation across the port boundary (stats_port_check()): the frames
 * the workers received (Rx RxPackets of the workers polling a port) are
 * those the port delivered. Where the PMD counts ipackets, at the end of a
 * run: RxPackets <= ipackets <= RxPackets + nb_rxq * nb_rxd (what the RX
 * rings can still hold unpolled when the workers stop; 0 for a PMD that
 * counts in rte_eth_rx_burst(), as every software PMD does). Frames the
 * port dropped before pktpath saw them are imissed + ierrors + rx_nombuf +
 * kernel_drops, stated with every conservation line.
 * ==================================================================== */

#define STATS_PORT_MAX_QUEUES 16	/**< RTE_ETHDEV_QUEUE_STAT_CNTRS */

/** Port-level counters, DPDK's names (stats_port_field_name()). */
enum stats_port_field {
	STATS_PORT_IPACKETS,	/**< frames the port delivered */
	STATS_PORT_IBYTES,
	STATS_PORT_IMISSED,	/**< dropped: RX ring full (the device's count) */
	STATS_PORT_IERRORS,	/**< dropped: erroneous or oversized frames */
	STATS_PORT_RX_NOMBUF,	/**< dropped: no mbuf to receive into */
	STATS_PORT_KERNEL_PACKETS, /**< net_af_packet: frames the kernel offered
				    *   the PMD's sockets (tp_packets) */
	STATS_PORT_KERNEL_DROPS, /**< dropped by the kernel before the PMD
				  *   (af_packet tp_drops, tap tx_dropped) */
	STATS_PORT_F_MAX
};

/** Per-queue counters (q_ipackets, q_ibytes, q_errors). */
enum stats_port_qfield { STATS_PORT_Q_IPACKETS, STATS_PORT_Q_IBYTES,
			 STATS_PORT_Q_ERRORS, STATS_PORT_Q_MAX };

/** One port the stats thread samples. */
struct stats_port_conf {
	uint16_t port_id;
	uint16_t nb_rxq;	/**< RX queues configured, all of them polled */
	uint16_t nb_rxd;	/**< descriptors per RX queue */
};

/** One port in a snapshot. Strings belong to the stats object. */
struct stats_port {
	uint16_t port_id;
	uint16_t nb_rxq;
	uint16_t nb_rxd;
	const char *driver;	/**< "net_af_packet" */
	const char *name;	/**< the ethdev name, "net_af_packet0" */
	const char *iface;	/**< kernel interface, or "" */
	const char *kernel;	/**< what kernel_* count, or NULL: none */
	uint64_t v[STATS_PORT_F_MAX];	/**< since the last clear */
	uint64_t raw[STATS_PORT_F_MAX];	/**< since the port started */
	uint64_t q[STATS_PORT_MAX_QUEUES][STATS_PORT_Q_MAX];	/**< since clear */
	uint64_t q_raw[STATS_PORT_MAX_QUEUES][STATS_PORT_Q_MAX];
	unsigned int n_xstats;
	const char *const *xstat_names;	/**< n_xstats names */
	uint64_t *xstats;		/**< since the last clear */
	uint64_t *xstats_raw;
	uint64_t rx_packets;	/**< Rx RxPackets of its workers, raw */
	uint64_t rx_packets_v;	/**< the same since the last clear */
	bool sampled;		/**< rte_eth_stats_get() answered */
};

/** "ipackets", "imissed", ... */
const char *stats_port_field_name(enum stats_port_field f);
/** "q_ipackets", "q_ibytes", "q_errors" */
const char *stats_port_qfield_name(enum stats_port_qfield f);

/** imissed + ierrors + rx_nombuf + kernel_drops of v (raw or since clear). */
uint64_t stats_port_dropped(const uint64_t *v);

struct stats_snapshot;

/**
 * Conservation across the port boundary, on the raw values of every port of
 * snap (see above). Fills line with what holds or the first thing that
 * does not, and, whenever a port dropped frames, how many and by which
 * counter, e.g. "port 0: ipackets 512 = RxPackets 512; dropped before
 * pktpath: 4488 (port 0 kernel_drops 4488)". Exact on the final snapshot
 * (workers stopped); a live one may be off by inflight_max more, as its MIB
 * laws may. Thread-safe (reads the immutable snapshot).
 * @return 0 (holds), -1 (broken); *dropped (may be NULL) the frames dropped
 *         before pktpath, all ports.
 */
int stats_port_check(const struct stats_snapshot *snap, char *line, size_t len,
		     uint64_t *dropped);

/**
 * The whole conservation line, MIB laws (every law of
 * mib_conservation_eval(), the Mode group's included, with the snapshot's
 * tolerance) then ports: "ok", "ok; port 0: ipackets 5000 = RxPackets
 * 5000", "ok; ...; dropped before pktpath: ...", or "BROKEN: the first
 * broken law", always with the port drops when there are any (never a bare
 * "ok" when a port dropped frames).
 * @return 0 (every law holds) or -1. Thread-safe.
 */
int stats_conservation(const struct stats_snapshot *snap, char *line, size_t len);

/**
 * Upper bounds (seconds) of the buckets of the read-fold histogram
 * (stats_snapshot.read_fold_buckets): STATS_READ_BUCKETS - 1 finite bounds,
 * the last bucket being +Inf. From 1 us to 10 ms: a fold of 2 blocks to
 * one of a thousand.
 */
#define STATS_READ_BUCKETS 14
extern const double stats_read_fold_bounds_s[STATS_READ_BUCKETS - 1];

/** An immutable, reference-counted snapshot. */
struct stats_snapshot {
	uint64_t seq;		/**< 0 for the first fold */
	uint64_t tsc;		/**< TSC at the fold */
	double uptime_s;	/**< since stats_start() */
	unsigned int n_workers;
	unsigned int n_blocks;	/**< workers + the control block (per_block's
				 *   blocks; never the phantom ones) */
	/** --mib-lcores: the lcores whose blocks every fold walks, the
	 *  workers' and n_phantom phantom ones (never written, so they add
	 *  zero to every total); mib_lcores == n_workers without phantoms. */
	unsigned int mib_lcores;
	unsigned int n_phantom;
	uint64_t mib_bytes;	/**< every block of the set (mib_set_bytes()) */
	uint64_t phantom_bytes;	/**< of them the phantom blocks' */
	const unsigned int *lcore_ids;	/**< lcore of each worker */
	uint64_t totals[MIB_FIELD_MAX];	/**< since start or the last clear */
	uint64_t *per_block;	/**< n_blocks x MIB_FIELD_MAX, same base */
	struct stats_rate total;	/**< over the last interval */
	struct stats_rate *lcore;	/**< n_workers, over the last interval */
	double fold_ns;		/**< duration of the stats thread's fold (of
				 *   the latest one, in a read fold's snapshot) */
	double fold_ns_max;	/**< longest fold so far */
	double fold_ns_mean;
	uint64_t folds;
	uint64_t clears;
	/** stats_conf.fold_on_read: readers fold (stats_read()). */
	bool fold_on_read;
	/** This snapshot was folded by stats_read() for one reader. */
	bool read_fold;
	double read_fold_ns;	/**< that fold's duration (0 if !read_fold) */
	/** Folds of stats_read() so far (this one included), their total
	 *  duration, and how many took at most each stats_read_fold_bounds_s
	 *  (not cumulative: bucket i counts bounds[i-1] < t <= bounds[i]; the
	 *  last one is beyond the last bound). */
	uint64_t read_folds;
	double read_fold_s_sum;
	uint64_t read_fold_buckets[STATS_READ_BUCKETS];
	/** Taken by stats_stop(), after the workers stopped: the conservation
	 *  laws hold exactly. A live snapshot may be off by inflight_max. */
	bool final;
	uint64_t inflight_max;	/**< stats_conf.inflight_max */
	uint64_t tsc_hz;	/**< TSC ticks per second (cycles to seconds) */
	unsigned int n_ports;	/**< --source port: the ports sampled */
	struct stats_port *ports;
	/**
	 * The same values raw: since start, never baseline-cleared (as the
	 * workers counted them). Public fields rather than an accessor: they
	 * are as immutable as totals and per_block (same layout: MIB_FIELD_MAX
	 * totals, n_blocks x MIB_FIELD_MAX per block), and what must not see a
	 * clear reads them directly: rates (stats_rate_between()), the
	 * conservation laws (a clear's baseline may cut through a burst), and
	 * /metrics (a Prometheus counter may not go down).
	 */
	uint64_t *raw_totals;
	uint64_t *raw_per_block;
	/**
	 * The previous scheduled snapshot's raw totals, then its workers' raw
	 * blocks ((1 + n_workers) x MIB_FIELD_MAX), so that an interval's
	 * table of any group is raw - iv_from (the Stage group's, in
	 * /stats.json); NULL for the first fold and for read folds.
	 */
	uint64_t *iv_from;
	/**
	 * --perf-detail (stats_conf.perf): each worker's histograms,
	 * n_workers x STATS_PERF_MAX (worker w's kind k at
	 * [w * STATS_PERF_MAX + k]), since the last clear (hist: bins and sums
	 * less the clear's, max as stats_hist_delta() says) and raw (since
	 * start: what /metrics exports). NULL without --perf-detail.
	 */
	struct stats_hist *hist;
	struct stats_hist *raw_hist;
	/**
	 * --perf-detail: by how many polls each histogram's baseline at the
	 * last clear led its worker's RxBursts (same layout as hist; 0 before
	 * any clear). A worker flushes RxBursts to its block every few polls
	 * and the fold reads the histograms after the blocks, so the two
	 * baselines are taken some polls apart: once the workers stopped, a
	 * histogram's count since the clear plus its lead is exactly RxBursts
	 * since the clear. 0 for a histogram empty at the clear: one that
	 * counts no polls in this run (ingress_cycles without the hook).
	 */
	int64_t *hist_clear_lead;
	/** Each worker's thread at this fold (n_workers; never cleared: lost
	 *  time is raw, as the rates are). All unknown without
	 *  stats_conf.clocks. */
	struct stats_thread *thread;
	/** The stats thread woke this much after this fold's deadline (it
	 *  was not scheduled: the whole process may have been stopped); the
	 *  interval that ends here is longer than stats_conf.interval_s by
	 *  about as much. 0 for unscheduled folds. */
	double late_s;
	/** stats_conf.lost_share (what rates between snapshots flag by). */
	double lost_share;
	/**
	 * --pmu (stats_conf.pmu; NULL: none): the events, each worker's group
	 * in thread[w].pmu; and the stats thread's own counts of the fold
	 * (mib_fold_part() alone, between two reads of its group): fold_pmu of
	 * this fold (a scheduled fold's; in a read fold's snapshot, that
	 * read's; unknown for the folds of stats_start(), stats_stop(),
	 * stats_clear() and stats_fold_now()), and the sums over every
	 * scheduled fold (fold_pmu_sum, fold_pmu_n of them counted) and every
	 * read fold (read_pmu_sum, read_pmu_n) so far.
	 */
	const struct stats_pmu_conf *pmu;
	/** Each worker's events over the last interval, n_workers + 1 (all
	 *  workers last; a read fold's: the latest snapshot's); NULL without
	 *  --pmu. */
	struct stats_pmu_rate *pmu_iv;
	/** The same per stage (stats_pmu_stage_between()): (n_workers + 1) x
	 *  MIB_STAGES, worker-major, all workers last; NULL without --pmu. */
	struct stats_pmu_rate *pmu_stage_iv;
	struct stats_pmu_delta fold_pmu;
	struct stats_pmu_delta fold_pmu_sum;
	uint64_t fold_pmu_n;
	struct stats_pmu_delta read_pmu_sum;
	uint64_t read_pmu_n;
	/* private: the reference count, under the stats object's lock */
	int refcnt;
};

/** The lcore of snapshot s's worker w (w itself when the run gave none). */
static inline unsigned int
stats_snapshot_lcore(const struct stats_snapshot *s, unsigned int w)
{
	return s->lcore_ids != NULL ? s->lcore_ids[w] : w;
}

/**
 * Called by the stats thread after each fold of its schedule (one every
 * interval_s), with the new snapshot and the one before it; not for the
 * folds of stats_start(), stats_stop(), stats_clear() or stats_fold_now().
 * The application reports through it (the console's per-interval line:
 * export_print_interval()). Both references are held for the duration of
 * the call only. It runs on the stats thread while the fold is still
 * serialised: it must not call stats_clear() or stats_fold_now() (they
 * would wait for it), and it delays the next fold by as long as it takes.
 */
typedef void (*stats_publish_fn)(const struct stats_snapshot *snap,
				 const struct stats_snapshot *prev, void *arg);

struct stats_conf {
	struct mib_set *set;	/**< blocks: one per worker, then the control block */
	unsigned int n_workers;
	const unsigned int *lcore_ids;
	enum mib_fold fold;
	double interval_s;	/**< > 0 */
	double warmup_s;	/**< steady state starts after this */
	stats_publish_fn on_publish;	/**< NULL: nothing per interval */
	void *publish_arg;		/**< passed to on_publish */
	/** Packets by which a live snapshot's conservation laws may be off:
	 *  what the workers have counted in some fields and not yet in others
	 *  (their batched Rx counters, a burst in flight, a fold racing them).
	 *  0: live snapshots are checked exactly. */
	uint64_t inflight_max;
	/** Ports to sample each fold (started, EAL up); 0 for none. */
	unsigned int n_ports;
	const struct stats_port_conf *ports;
	/** n_workers entries: the index in ports[] of the port each worker
	 *  polls, or -1 (NULL: no worker polls a port). */
	const int *worker_port;
	/** The last n_phantom blocks of set belong to no lcore (--mib-lcores):
	 *  nobody writes them, every fold walks them, no snapshot keeps their
	 *  per-block values. 0: none. set has n_workers + 1 + n_phantom
	 *  blocks then. */
	unsigned int n_phantom;
	/** --perf-detail: n_workers blocks that each fold loads into the
	 *  snapshot's histograms (NULL: none). */
	struct stats_perf *const *perf;
	/** Every stats_read() folds the blocks itself (as procfs folds at each
	 *  read) instead of returning the latest snapshot. */
	bool fold_on_read;
	/** n_workers clocks the workers publish (stats_worker_begin()): each
	 *  fold reads their threads' kernel counters (stats_tcount.h) into
	 *  stats_snapshot.thread, and rates carry lost time. NULL: none.
	 *  stats_create() sets their pmu; stats_free() closes their groups. */
	struct stats_worker_clock *clocks;
	/** Replaces /proc/self/task for the thread counters (tests); NULL. */
	const char *task_root;
	/** The share of an interval a worker may lose before the interval is
	 *  flagged (stats_rate.lost_flag); 0: STATS_LOST_SHARE_DEFAULT. */
	double lost_share;
	/** --pmu: the events (copied) each worker counts from its begin (with
	 *  clocks: their groups are read with the rest of their threads'
	 *  counters) and the stats thread and every --fold-on-read reader count
	 *  around their folds; NULL or none: no group is opened. Check it
	 *  first with stats_pmu_probe(): a group that fails to open later is
	 *  unknown in every figure, with a log line. */
	const struct stats_pmu_conf *pmu;
};

struct stats;

/** Create (no thread yet). NULL with rte_errno on failure. */
struct stats *stats_create(const struct stats_conf *conf);
/** Take the first (zero) fold and start the stats control thread. 0/-errno. */
int stats_start(struct stats *s);
/** Stop the thread and take the final fold (call after workers stopped). */
void stats_stop(struct stats *s);
void stats_free(struct stats *s);

/** Latest snapshot with a reference taken (never NULL after stats_start). */
struct stats_snapshot *stats_get(struct stats *s);
/** Drop a reference. */
void stats_put(struct stats *s, struct stats_snapshot *snap);

/**
 * What a reader answers from (/snmp, /netstat, /metrics, /stats.json, the
 * telemetry MIB command): stats_get() unless stats_conf.fold_on_read; with
 * it, a snapshot of its own, folded now with the configured strategy over
 * every block (the phantom ones too), timed and counted (read_fold,
 * read_fold_ns, read_folds, read_fold_buckets), with the baseline of the
 * last clear applied and the ports sampled as a scheduled fold does. Its
 * rates, seq and stats-thread fold figures are the latest snapshot's (a
 * rate needs an interval); it is not published (stats_get() never returns
 * it). The reader's fold only loads the blocks: no worker memory is
 * written. Drop it with stats_put().
 *
 * Order: a fold starts after stats_read() is called and ends before it
 * returns, and every counter only grows, so a caller that calls again after
 * the previous call returned gets raw counters at least as high (never an
 * older snapshot instead, whatever clears race with it). Calls that
 * overlap are not ordered: a fold that started first may end last.
 *
 * @return the snapshot, or NULL with rte_errno ENOENT (before
 *         stats_start()) or ENOMEM.
 * Thread-safe, from any non-worker thread; folds of several readers run
 * concurrently (port sampling is serialised with the stats thread's, and
 * a fold that clears interrupted three times in a row is made again under
 * the stats thread's fold lock).
 */
struct stats_snapshot *stats_read(struct stats *s);
/** A reader's fold made outside stats_read() (--reader-links: a link dump
 *  of the per-device MIBs), ns long: counted and timed as stats_read()'s
 *  are (read_folds, read_fold_s_sum, read_fold_buckets, the summary's
 *  quantiles). Thread-safe. */
void stats_read_note(struct stats *s, double ns);
/** Clear by baseline: the next snapshot counts from now. */
void stats_clear(struct stats *s);
/** Fold now (outside the thread's schedule) and publish. */
void stats_fold_now(struct stats *s);
/** The fold strategy of the next folds (stats_conf.fold at the start;
 *  --compare fold=field,lcore switches it between phases), and the one in
 *  force. Thread-safe: a fold takes one strategy or the other, whole. */
void stats_set_fold(struct stats *s, enum mib_fold f);
enum mib_fold stats_get_fold(const struct stats *s);
/** Whether the stats thread runs (between stats_start() and stats_stop()):
 *  snapshots stay fresh. Thread-safe. */
bool stats_running(const struct stats *s);
/** stats_conf.interval_s. Thread-safe. */
double stats_interval(const struct stats *s);

/**
 * Run summary: whole run (start..final) and steady state: from the first
 * fold at or after the warm-up (the start with warmup_s 0) to the final
 * fold. The steady part is reported only when it spans at least one stats
 * interval (5% slack for the schedule): a shorter window would be one
 * fold's jitter and the run's stop, not a steady state (--duration equal
 * to --warmup gave a "steady" rate over a few milliseconds).
 */
struct stats_summary {
	struct stats_rate total;
	struct stats_rate steady;
	unsigned int n_workers;
	struct stats_rate *lcore;	 /**< n_workers */
	struct stats_rate *lcore_steady; /**< n_workers */
	bool steady_valid;		/**< see above */
	/** The stats thread's scheduled folds (the last STATS_FOLD_RING of
	 *  them): how many, median and 99th percentile duration. */
	uint64_t folds;
	double fold_p50_ns;
	double fold_p99_ns;
	/** The same of stats_read()'s folds (fold_on_read). */
	uint64_t read_folds;
	double read_fold_p50_ns;
	double read_fold_p99_ns;
	char steady_reason[160];	/**< why not, when !steady_valid */
	/** --perf-detail: each worker's histograms over the steady state
	 *  (hist_steady) or the whole run, n_workers x STATS_PERF_MAX as in
	 *  the snapshot; NULL without. */
	struct stats_hist *hist;
	bool hist_steady;
	/** Every max of hist is exact (else some are the upper bound of the
	 *  window's highest bin: stats_hist_delta()). */
	bool hist_max_exact;
	/** --pmu: each worker's events after the warm-up (pmu_steady: a
	 *  steady part after stats_conf.warmup_s > 0) or over the whole run,
	 *  n_workers + 1 (all workers last); NULL without. */
	struct stats_pmu_rate *pmu;
	/** The same per stage (--stage-cycles), as snapshot.pmu_stage_iv. */
	struct stats_pmu_rate *pmu_stage;
	bool pmu_steady;
};

/** Fold durations kept for stats_summary()'s percentiles (the last ones). */
#define STATS_FOLD_RING 65536

/** Compute the summary after stats_stop(); free with stats_summary_free. */
struct stats_summary *stats_summary(struct stats *s);
void stats_summary_free(struct stats_summary *sum);

/** Compute rates from raw deltas (see the file comment). Thread-safe. */
void stats_rate_compute(struct stats_rate *r, uint64_t packets, uint64_t octets,
			uint64_t busy, uint64_t idle, double seconds);

/**
 * The rates between two snapshots of one stats object, a folded before b,
 * over their raw values (so a clear between them changes nothing), with
 * the time between the two folds from the TSC: of worker w (0 ..
 * n_workers - 1), or of all workers when w < 0. What the interval rates,
 * the run summary and --compare's phases all are. A counter lower in b
 * than in a (which never happens: they only grow) counts as 0.
 * @return 0, or -EINVAL (NULL argument, w >= n_workers). Thread-safe.
 */
int stats_rate_between(const struct stats_snapshot *a,
		       const struct stats_snapshot *b, int w,
		       struct stats_rate *r);

/**
 * How much MIB field f (MIB_F()) of all workers grew from a to b, a folded
 * before b, on their raw values (a clear between them changes nothing);
 * 0 if it is lower in b (counters only grow). What stats_rate_between()
 * is made of, for the fields it does not rate (--compare's lock and mode
 * counters). Thread-safe.
 */
uint64_t stats_grown(const struct stats_snapshot *a,
		     const struct stats_snapshot *b, unsigned int f);

/**
 * Packets by which snap's conservation laws may be off: 0 on the final
 * snapshot (the workers stopped), stats_conf.inflight_max on a live one.
 */
static inline uint64_t
stats_tolerance(const struct stats_snapshot *snap)
{
	return snap->final ? 0 : snap->inflight_max;
}

/**
 * The MIB laws (mib_conservation_eval()) on snap's raw totals (a clear's
 * baseline may cut through a burst), each within stats_tolerance(). Fills
 * laws with both sides of every law and why (len may be 0) with the first
 * broken one, "A 5 != B 6" (+ " (beyond what is in flight)" on a live
 * snapshot), or "". @return the number of laws broken. Thread-safe.
 */
unsigned int stats_laws(const struct stats_snapshot *snap,
			struct mib_law laws[MIB_N_LAWS], char *why, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_STATS_H */
