/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_STATS_H
#define PKTPATH_STATS_H

/**
 * @file
 * The stats thread: folds the per-lcore MIB blocks every interval, computes
 * rates, and publishes immutable snapshots that reporters (console, JSON,
 * HTTP, telemetry) read. Reporters never touch worker memory.
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
 * stats_laws(), stats_conservation(), stats_port_check(), stats_median())
 * from any thread; the rest is for the owning (main) thread.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "mib.h"

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
};

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

/** An immutable, reference-counted snapshot. */
struct stats_snapshot {
	uint64_t seq;		/**< 0 for the first fold */
	uint64_t tsc;		/**< TSC at the fold */
	double uptime_s;	/**< since stats_start() */
	unsigned int n_workers;
	unsigned int n_blocks;	/**< workers + the control block */
	const unsigned int *lcore_ids;	/**< lcore of each worker */
	uint64_t totals[MIB_FIELD_MAX];	/**< since start or the last clear */
	uint64_t *per_block;	/**< n_blocks x MIB_FIELD_MAX, same base */
	struct stats_rate total;	/**< over the last interval */
	struct stats_rate *lcore;	/**< n_workers, over the last interval */
	double fold_ns;		/**< duration of this fold */
	double fold_ns_max;	/**< longest fold so far */
	double fold_ns_mean;
	uint64_t folds;
	uint64_t clears;
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
	/* private: the reference count, under the stats object's lock */
	int refcnt;
};

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
/** Clear by baseline: the next snapshot counts from now. */
void stats_clear(struct stats *s);
/** Fold now (outside the thread's schedule) and publish. */
void stats_fold_now(struct stats *s);
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
	char steady_reason[160];	/**< why not, when !steady_valid */
};

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
 * The median of n values (the mean of the middle two when n is even; 0 when
 * n is 0), for figures over repeated rounds (--compare). Sorts v in place;
 * min and max (may be NULL) get the extremes (0 when n is 0). Thread-safe.
 */
double stats_median(double *v, unsigned int n, double *min, double *max);

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

/** Print the summary, with environment (TSC Hz, DPDK version, CPU). */
void stats_print_summary(FILE *out, const struct stats_summary *sum,
			 const struct stats_snapshot *final);

/**
 * The snapshot as JSON (the --json and /stats.json schema, see README):
 * "mib" totals by group, "lcores" per worker (rates and, if lcore_mib, every
 * MIB field), "interval" rates, "fold", "ports" (--source port: every
 * port's counters), "conservation" (every law of mib_conservation_eval()
 * on the raw totals, with both sides: exact on a final snapshot, within
 * inflight_max packets on a live one; and stats_conservation()'s "line"
 * with the port boundary and "port_dropped"). info (may be
 * NULL) is added as "info" (borrowed reference). summary (may be NULL) as
 * "summary", with "steady": null and "steady_reason" when there is no
 * steady part.
 */
json_t *stats_json(const struct stats_snapshot *snap,
		   const struct stats_summary *sum, json_t *info,
		   bool lcore_mib);

/** Terminal drop outcomes, in path order ("drops by reason"). */
extern const unsigned int stats_drop_fields[];
extern const unsigned int stats_n_drop_fields;

/** CPU model name from /proc/cpuinfo into buf ("unknown" if absent). */
void stats_cpu_model(char *buf, size_t len);

/** The per-interval console line(s), as the stats thread prints them. */
void stats_print_interval(FILE *out, const struct stats_snapshot *snap,
			  const struct stats_snapshot *prev);

/* ====================================================================
 * Exporters: Prometheus text, /proc/net/snmp text, the HTTP endpoint and
 * DPDK telemetry commands (prom.c, http.c, telemetry.c).
 *
 * All of them read snapshots (stats_get()/stats_put()), never worker memory,
 * and run on their own threads (libmicrohttpd's, the telemetry library's),
 * which are created with the control-thread CPU affinity, never on a worker
 * lcore.
 *
 * Which values, and why
 * ---------------------
 *  - /metrics and the pktpath_* counters export the RAW totals (since
 *    start, never baseline-cleared): a Prometheus counter may only go down
 *    on a process restart, and rate()/increase() would read a clear as a
 *    counter reset and make up a spike. Clears are visible as
 *    pktpath_stats_clears_total instead. Counters are monotonic across
 *    scrapes, mode flips and clears because each snapshot is a newer fold of
 *    single-writer, only-increasing per-lcore counters.
 *  - /snmp, /netstat, /stats.json and /pktpath/mib honour POST /stats/clear
 *    (the snapshot's baseline-relative totals), exactly as --json and the
 *    console do: they are what a human or nstat reads "since the clear".
 *  - MIB_KIND_CONST fields (Ip Forwarding, Tcp MaxConn = -1...) and
 *    MIB_KIND_MAX fields (Ingress GracePeriodMaxUs) are gauges, printed
 *    signed; they are never cleared.
 * ==================================================================== */

/** Which /proc/net file stats_snmp_write() mimics. */
enum stats_snmp_file {
	STATS_SNMP,	/**< /proc/net/snmp: Ip, Icmp, IcmpMsg (its non-zero
			 *   types), Tcp, Udp, UdpLite */
	STATS_NETSTAT,	/**< /proc/net/netstat: IpExt, then Rx, Path, Ingress,
			 *   Peer, Capture, Mode and one PortN per port in the
			 *   same two-line layout */
	STATS_SNMP_MAX
};

/**
 * Write the baseline-relative totals of snap in the layout of Linux's
 * /proc/net/snmp or /proc/net/netstat: per group, a line "Grp: Name1 Name2
 * ..." then a line "Grp: v1 v2 ...", values unsigned except the constants
 * (signed, so Tcp MaxConn prints -1 as Linux does).
 *
 * @param out    stream to write to
 * @param snap   a snapshot (a reference held by the caller)
 * @param which  STATS_SNMP or STATS_NETSTAT
 * @return 0, or -EINVAL (bad which), -EIO (write error).
 * Thread-safe (reads only the immutable snapshot).
 */
int stats_snmp_write(FILE *out, const struct stats_snapshot *snap,
		     enum stats_snmp_file which);

/** Options of stats_prom_write(). */
struct stats_prom_opts {
	/** Run info (stats_json's "info": version, dpdk, cpu, config.fold,
	 *  config.mib_layout, ...) for pktpath_info; may be NULL. Only read,
	 *  but not thread-safe against a writer of the same object. */
	const json_t *info;
	/** Ingress state {"mode": "rcu", "modes": ["off", ...]} as returned by
	 *  the ingress_state hook, for pktpath_ingress_mode and the "mode"
	 *  label of pktpath_info; may be NULL. */
	const json_t *ingress;
	/** Add pktpath_lcore_mib_total{lcore,group,field} for every counter of
	 *  every worker (large: workers x ~140 series). */
	bool lcore_mib;
	/** Process memory (stats_memory_read()) for
	 *  pktpath_resident_memory_bytes and pktpath_heap_inuse_bytes; NULL
	 *  leaves them out. */
	const struct stats_memory *mem;
};

/** The process's memory, read at one moment. */
struct stats_memory {
	uint64_t rss_bytes;	/**< resident set (/proc/self/statm) */
	/** Live malloc() bytes: glibc's in-use bytes (mallinfo2 uordblks +
	 *  hblkhd), or the allocator's own count in an AddressSanitizer build. */
	uint64_t heap_bytes;
	uint64_t eal_heap_bytes;	/**< live rte_malloc() bytes, all sockets */
	bool eal;		/**< eal_heap_bytes was read (EAL initialised) */
};

/**
 * Read the process's memory into m; the rte_malloc heaps only if eal (the
 * EAL must be initialised then).
 * @return 0, or -EINVAL (m NULL), -EIO (/proc/self/statm unreadable: the
 * other fields are still set).
 */
int stats_memory_read(struct stats_memory *m, bool eal);

/**
 * What the EAL's memory is, for every report: "hugepages (2 MiB)" or
 * "no-huge (4 KiB pages)" (figures differ between the two: README,
 * Performance). Needs EAL; the string is static. Thread-safe once EAL is up
 * (the first call is from the main thread).
 */
const char *stats_memory_kind(void);

/**
 * Write snap in the Prometheus text exposition format 0.0.4 (# HELP and
 * # TYPE for every family, pktpath_ prefix). Families (README has the list):
 * pktpath_mib_total{group,field} (every counter field, raw),
 * pktpath_mib_value{group,field} (constants and high-water marks),
 * pktpath_drops_total{group,field} (the terminal drop outcomes),
 * pktpath_lcore_*{lcore} (packets, bytes, busy/idle cycles, drops as
 * counters; pps, seconds per packet, cycles per packet, busy ratio of the
 * last interval as gauges), the same rates for all workers, fold and
 * grace-period figures, pktpath_ingress_mode{mode}, pktpath_info{...} 1,
 * and with opts->mem pktpath_resident_memory_bytes and
 * pktpath_heap_inuse_bytes{allocator="malloc"|"rte_malloc"}.
 *
 * One family for all MIB fields, with group and field labels, rather than
 * ~140 families: the field names stay exactly Linux's (label values may be
 * CamelCase, metric names should not), a group or a regex over fields is
 * one selector (rate(pktpath_mib_total{group="Udp"}[1m])), a new field
 * needs no new family, and the schema only has one help text per group.
 *
 * @return 0, or -EINVAL (NULL argument), -EIO (write error).
 * Thread-safe as long as opts->info and opts->ingress are not modified
 * concurrently.
 */
int stats_prom_write(FILE *out, const struct stats_snapshot *snap,
		     const struct stats_prom_opts *opts);

/**
 * Control and state hooks, implemented by the application. Any of them may
 * be NULL: the matching request then gets 501 (HTTP) or the field is left
 * out (telemetry, /metrics). The HTTP server calls set_mode and load_rules
 * one at a time (it holds a mutex around them), from one of its threads; a
 * hook may block (a grace period), which only delays its own request.
 */
struct stats_http_hooks {
	/**
	 * POST /ingress/mode with body "mode=NAME": switch the ingress guard.
	 * Return 0, or a negative errno with a one-line reason in err:
	 * -EINVAL -> 400 (unknown mode), -EPERM/-EBUSY -> 409, -ENOTSUP ->
	 * 501, others -> 500. Must change nothing when it fails.
	 */
	int (*set_mode)(void *arg, const char *mode, char *err, size_t errlen);
	/**
	 * POST /ingress/rules: body is the text of a rules file (len bytes,
	 * NUL-terminated by the server). Parse all of it, then install it, or
	 * change nothing and return a negative errno as for set_mode.
	 */
	int (*load_rules)(void *arg, const char *body, size_t len, char *err,
			  size_t errlen);
	/**
	 * Current ingress state as a new JSON object, at least
	 * {"mode": "off", "modes": ["off", ...available modes]}; other string
	 * or number members (e.g. "scope", "rules") are shown by
	 * /pktpath/ingress. Called from HTTP and telemetry threads at any time:
	 * must be thread-safe. NULL return: no ingress state.
	 */
	json_t *(*ingress_state)(void *arg);
	void *arg;	/**< passed to every hook */
};

/** Configuration of stats_http_start(). Start from stats_http_conf_init(). */
struct stats_http_conf {
	/** "ADDR:PORT": a numeric IPv4 address, or an IPv6 literal in brackets
	 *  ("[::1]:9120"); port 0 picks a free port (see stats_http_port()). */
	const char *listen;
	bool control;		/**< serve the POST endpoints (else 403) */
	bool lcore_mib;		/**< per-lcore MIB series in /metrics, and per-
				 *   lcore "mib" in /stats.json */
	size_t body_limit;	/**< largest POST body accepted (else 413) */
	unsigned int max_conns;	/**< concurrent connections (beyond: refused) */
	unsigned int per_ip_conns; /**< of them from one client address (0: no
				    *   limit of its own) */
	/** Idle timeout, and the time a connection has for each phase of a
	 *  request: its headers (from the accept or the previous response),
	 *  its body, sending the response. Past it the connection is closed,
	 *  however slowly the client keeps sending. */
	unsigned int timeout_s;
	unsigned int threads;	/**< polling threads (poll(2)), >= 1 */
	/** Run info, copied at start (the caller keeps its reference): the
	 *  "info" of /stats.json, the labels of pktpath_info. May be NULL. */
	const json_t *info;
	struct stats_http_hooks hooks;
};

/** Defaults: 127.0.0.1:9120, no control, 1 MiB bodies, 256 connections
 *  (64 per client address), 10 s timeouts, 2 threads, no info, no hooks.
 *  Thread-safe. */
void stats_http_conf_init(struct stats_http_conf *c);

/**
 * Check an "ADDR:PORT" listen string without binding anything (for option
 * parsing). @return 0, or -EINVAL with a one-line reason in err that names
 * the faulty part ("'1.2.3' is not an IPv4 address ...", "port '99999' is
 * not 0..65535") but not the option or the whole string: the caller
 * prefixes them. Thread-safe.
 */
int stats_http_check_listen(const char *listen, char *err, size_t errlen);

struct stats_http;

/**
 * Bind, listen and start serving. Endpoints: GET/HEAD /, /healthz,
 * /metrics, /snmp, /netstat, /stats.json; POST /ingress/mode,
 * /ingress/rules, /stats/clear when c->control. Errors: unknown path 404,
 * wrong method 405 (with Allow), control disabled 403, body over
 * c->body_limit 413, malformed body or framing 400 (two Content-Length
 * headers that differ, or one with Transfer-Encoding); every error is one
 * line of text/plain, and a rejected request changes nothing.
 *
 * libmicrohttpd serves every connection from c->threads poll(2) threads
 * (c->max_conns connections at most, c->per_ip_conns from one address); a
 * slow client costs a connection, not a thread. A watchdog closes a
 * connection whose request headers (or body, or response) take longer than
 * c->timeout_s, however slowly they trickle in, and, when more than half of
 * the connections have not sent a complete request, the oldest of those:
 * a scrape always finds room. Control hooks run on a thread of their own,
 * the connection suspended meanwhile, so that a grace period or a rules
 * compile holds up only its own request. Every thread is created from a
 * DPDK control thread and so inherits its CPU affinity (never a worker
 * lcore's).
 *
 * @param s    the stats (stats_start() done, or done before any request
 *             matters: requests before the first snapshot get 503)
 * @param c    configuration (copied; c->info deep-copied)
 * @param err  out: a one-line reason on failure, naming the failing call
 *             but not the address (the caller prefixes it): "bind: Address
 *             already in use", or as stats_http_check_listen()
 * @return the server, or NULL with errno set (EINVAL bad address,
 *         EADDRINUSE, EACCES, ENOMEM, ...) and err filled.
 * Not thread-safe against stats_http_stop() of the same server; needs EAL.
 */
struct stats_http *stats_http_start(struct stats *s,
				    const struct stats_http_conf *c,
				    char *err, size_t errlen);

/** The bound port (the chosen one when the configuration said 0). */
uint16_t stats_http_port(const struct stats_http *h);

/** "http://127.0.0.1:9120/" or "http://[::1]:9120/" with the bound port. */
const char *stats_http_url(const struct stats_http *h);

/**
 * Stop serving: closes the listening socket, waits for the requests in
 * progress (and their hooks) to finish, frees h. NULL is a no-op. Call
 * before stats_free() and before whatever the hooks use is destroyed.
 */
void stats_http_stop(struct stats_http *h);

/**
 * Register the DPDK telemetry commands (dpdk-telemetry.py, socket
 * <runtime dir>/dpdk_telemetry.v2):
 *   /pktpath/mib       no parameter: the group names; "GROUP": its totals
 *                      (honour clears); "GROUP,LCORE": one worker's block
 *   /pktpath/rates     total rates of the last interval, fold figures
 *   /pktpath/lcores    no parameter: per-worker columns (lcore, pps,
 *                      ns/pkt, cycles/pkt, busy%); "LCORE": one worker
 *   /pktpath/ingress   hook ingress_state, plus the Ingress group totals
 *   /pktpath/config    the run info, flattened, and the ingress modes
 *   /pktpath/ports     no parameter: the port ids; "PORT": its counters
 *                      since the last clear, DPDK's names, per-queue columns
 * Every reply fits the library's limits (RTE_TEL_MAX_DICT_ENTRIES, the
 * 16 KiB reply): big things are split by group or by lcore. DPDK 22.11
 * telemetry has no floating-point type: decimals are strings ("14.52").
 *
 * Commands are registered once per process; a later call only points them
 * at new state. info is deep-copied; hooks copied (may be NULL).
 * @return 0, or -errno (EINVAL s NULL, ENOMEM, or the registration error).
 * Thread-safe against the command callbacks.
 */
int stats_telemetry_register(struct stats *s, const json_t *info,
			     const struct stats_http_hooks *hooks);

/**
 * Detach the commands from s (they answer null from now on) and free the
 * copies; call before stats_free(). Waits for a callback in progress.
 */
void stats_telemetry_unregister(void);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_STATS_H */
