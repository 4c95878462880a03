/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_EXPORT_H
#define PKTPATH_EXPORT_H

/**
 * @file
 * What reads snapshots: the console lines and the run summary, the JSON
 * document (--json, /stats.json), the /proc/net/snmp and Prometheus text
 * writers, the HTTP endpoint and the DPDK telemetry commands.
 *
 * lib/stats folds and publishes; this library only reads what it
 * publishes: immutable snapshots (stats_get()/stats_put(), or
 * stats_read() for what a MIB reader answers: /snmp, /netstat, /snmp6,
 * /metrics, /stats.json and /pktpath/mib, which with --fold-on-read is a fold of its
 * own) and the functions stats.h documents over them (rates, conservation,
 * ports), never worker memory directly and never the stats object's
 * internals. The application wires the two together:
 * stats_conf.on_publish calls export_print_interval() for the console, and
 * the endpoints are started over the stats object. The HTTP and telemetry
 * threads are created from DPDK control threads, so they run with the
 * control-thread CPU affinity, never on a worker lcore.
 *
 * What the ports, --perf-detail, --stage-cycles and --pmu add to each of
 * these outputs are sections that register (export_section.h): the
 * writers here ask them, never one by name.
 *
 * Thread-safety: the writers over a snapshot (export_print_*,
 * export_json(), export_snmp_write(), export_prom_write()) are thread-safe
 * for distinct output streams; the endpoints document their own.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ====================================================================
 * Console and JSON (report.c, port_export.c)
 * ==================================================================== */

/**
 * The per-interval console line(s): one per worker and the total (Mpps,
 * Gbit/s, ns/pkt, cycles/pkt, busy %, packets), the drops by reason and the
 * port drops of the interval between prev and snap; a header every 20
 * intervals. What the application's stats_conf.on_publish prints.
 */
void export_print_interval(FILE *out, const struct stats_snapshot *snap,
			   const struct stats_snapshot *prev);

/** Print the summary, with environment (TSC Hz, DPDK version, CPU). */
void export_print_summary(FILE *out, const struct stats_summary *sum,
			  const struct stats_snapshot *final);

/**
 * The snapshot as JSON (the --json and /stats.json schema, see app/pktpath/README.md):
 * "mib" totals by group, "lcores" per worker (rates and, if lcore_mib, every
 * MIB field), "interval" rates, "fold" (with the read folds), "mib_lcores"
 * (the blocks every fold walks, phantom ones and their memory, and
 * "phantom_counted": what the phantom blocks added to the totals, 0),
 * "ports" (--source port: every port's counters), "conservation" (every law
 * of stats_laws() on the raw totals, with both sides: exact on a final
 * snapshot, within inflight_max packets on a live one; and
 * stats_conservation()'s "line" with the port boundary and "port_dropped").
 * info (may be NULL) is added as "info"
 * (borrowed reference). summary (may be NULL) as "summary", with
 * "steady": null and "steady_reason" when there is no steady part, and
 * "fold": the scheduled folds' and the read folds' counts, medians and
 * 99th percentiles (stats_summary).
 * --perf-detail (snap->hist): each lcore's "perf_detail" (its histograms
 * since the last clear, export_hist_json() each, by stats_perf_kind_name())
 * and the root's "perf_detail" (all lcores merged); with a summary,
 * "summary"."perf_detail": {"window": "steady"|"run", "lcores": [...],
 * "total": {...}} over the summary's window.
 */
json_t *export_json(const struct stats_snapshot *snap,
		    const struct stats_summary *sum, json_t *info,
		    bool lcore_mib);

/**
 * One histogram as JSON: {"count", "sum", "mean", "percentiles": {"p50",
 * "p90", "p99", "p99.9", "max"} (stats_hist_percentile()), "bins":
 * [[lowest, highest or null (open), count], ...] the non-empty bins}.
 */
json_t *export_hist_json(const struct stats_hist *h);

/**
 * A suspicious poll (--perf-detail) of the worker on lcore: the log line
 * ("suspicious poll on lcore 1: 50012.3 us (...), 32 packets, mode rcu,
 * control: idle; ...") and the JSON event (lcore, uptime_s, cycles, us,
 * poll, packets, mode, control, the activity words, suspicious_in_window,
 * window: [{offset, cycles, packets}], offset 0 the suspicious poll). mode
 * and activity are the caller's names (ingress_mode_name(),
 * ingress_activity_describe()).
 */
void export_perf_event_line(char *buf, size_t len,
			    const struct stats_perf_event *ev, unsigned int lcore,
			    uint64_t hz, const char *mode, const char *activity);
json_t *export_perf_event_json(const struct stats_perf_event *ev,
			       unsigned int lcore, uint64_t hz, double uptime_s,
			       const char *mode, const char *activity);

/**
 * A rate as JSON: "seconds", "packets", "octets", "busy_cycles",
 * "idle_cycles", "mpps", "gbps", "ns_per_pkt", "cycles_per_pkt",
 * "busy_pct", and "lost": {"flagged" (stats_rate_lost()),
 * "known", "seconds", "cause" (null: none), "involuntary_switches",
 * "stalled_polls", "stalled_seconds"}.
 */
json_t *export_rate_json(const struct stats_rate *r);
/** A rate's "lost" object alone (the history's intervals carry it). */
json_t *export_rate_lost_json(const struct stats_rate *r);

/**
 * Counters above 2^63 (json_u64.c): jansson's integer is signed, so every
 * unsigned counter of a JSON output is made by export_json_u64() and the
 * document printed by export_json_dumps() or export_json_dumpf(), which
 * print it as its unsigned decimal, the number telemetry and /metrics
 * print. export_json_u64(v) is json_integer(v) up to INT64_MAX; above, a
 * placeholder string that only these printers turn into the number
 * (json_integer_value() of it is 0: a reader of the document in memory
 * reads it with json_string_value(), a NUL and the digits).
 * export_json_dumps(): json_dumps()'s text (free() it), NULL out of
 * memory; export_json_dumpf(): json_dumpf()'s 0 or -1. Thread-safe.
 */
json_t *export_json_u64(uint64_t v);
/** The value of an export_json_u64() node (an integer >= 0 or a
 * placeholder) in *v: true, else false. Thread-safe. */
bool export_json_u64_value(const json_t *j, uint64_t *v);
char *export_json_dumps(const json_t *j, size_t flags);
/** Text from outside (argv, an option's value) as a JSON string
 *  (json_text.c): json_string(s) when s is UTF-8, else s with each byte
 *  that is not part of UTF-8 written as the text \x{XX} (jansson refuses
 *  such a string, and a setter drops the NULL silently); NULL: json_null().
 *  NULL out of memory. Thread-safe. */
json_t *export_json_text(const char *s);
int export_json_dumpf(const json_t *j, FILE *f, size_t flags);

/**
 * --pmu: events over a window as JSON: {"known", "scaled" (the PMU was
 * shared: estimates), "packets", "per_pkt": {EVENT: x}, "counts": {EVENT: x},
 * "ipc"}; every value null when not counted (never 0), per_pkt null without
 * packets, ipc null without cycles and instructions.
 */
json_t *export_pmu_rate_json(const struct stats_pmu_rate *r);

/** CPU model name from /proc/cpuinfo into buf ("unknown" if absent). */
void export_cpu_model(char *buf, size_t len);

/* ====================================================================
 * --stage-cycles: the Stage group as a table (stage_export.c)
 * ==================================================================== */

/** One stage of export_stages(): what the Stage group counts of it. */
struct export_stage {
	unsigned int stage;	/**< enum mib_stage_id (mib_stage_name()) */
	uint64_t calls;		/**< bursts it ran on */
	uint64_t packets;	/**< packets that entered it */
	uint64_t cycles;
	double cycles_per_pkt;	/**< cycles / packets (0 without packets) */
	double cycles_per_call;	/**< cycles / calls */
	double share;		/**< cycles / the busy cycles (0..1; 0 if none) */
};

/** A table: the stages that ran, and the busy cycles they are part of. */
struct export_stages {
	unsigned int n;		/**< stages that ran (calls > 0), in order */
	struct export_stage s[MIB_STAGES];
	uint64_t busy;		/**< Rx BusyCycles */
	uint64_t packets;	/**< Rx RxPackets */
	uint64_t cycles;	/**< the stages' cycles, summed */
	/** busy - cycles: the cycles between a burst's last stage and the
	 *  next poll's TSC read (the top of the loop), not in any stage. */
	uint64_t unstaged;
};

/**
 * The stage table of the MIB values b (a block's or the totals), less a
 * (NULL: none; else the same values earlier, for a phase or an interval;
 * a counter lower in b counts as 0). A stage that did not run (no call:
 * not in the loop variant) has no row. Returns t->n.
 */
unsigned int export_stages(const uint64_t *a, const uint64_t *b,
			   struct export_stages *t);

/**
 * Print the table (VPP `show runtime` style: stage, calls, packets,
 * cycles/pkt, cycles/call, % of the busy cycles), headed by title, and a
 * "staged" row (the stages' sum per received packet) and an "unstaged" one
 * (the rest of the busy cycles). Nothing if t has no stage.
 */
void export_print_stages(FILE *out, const char *title, const struct export_stages *t);

/** The table as JSON: {"busy_cycles", "packets", "cycles", "unstaged_cycles",
 *  "staged_share", "stages": [{"stage", "calls", "packets", "cycles",
 *  "cycles_per_pkt", "cycles_per_call", "share"}, ...]}. */
json_t *export_stages_json(const struct export_stages *t);

/* ====================================================================
 * Text writers, the HTTP endpoint and DPDK telemetry (prom.c, http.c,
 * http_server.c, telemetry.c, memory.c)
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
 *  - /snmp, /netstat, /snmp6, /stats.json and /pktpath/mib honour POST
 *    /stats/clear (the snapshot's baseline-relative totals), exactly as --json and the
 *    console do: they are what a human or nstat reads "since the clear".
 *  - MIB_KIND_CONST fields (Ip Forwarding, Tcp MaxConn = -1...) and
 *    MIB_KIND_HWM fields (Ingress GracePeriodMaxUs) are gauges, printed
 *    signed; they are never cleared.
 * ==================================================================== */

/** Which /proc/net file export_snmp_write() mimics. */
enum export_snmp_file {
	EXPORT_SNMP,	/**< /proc/net/snmp: Ip, Icmp, IcmpMsg (its non-zero
			 *   types), Tcp, Udp, UdpLite */
	EXPORT_NETSTAT,	/**< /proc/net/netstat: IpExt, then Rx, Path, Ingress,
			 *   Peer, Capture, Mode and one PortN per port in the
			 *   same two-line layout */
	EXPORT_SNMP6,	/**< /proc/net/snmp6: Ip6, Icmp6, the ICMPv6 types,
			 *   Udp6, UdpLite6, one "Name<spaces>\tvalue" line per
			 *   counter, as net/ipv6/proc.c prints them */
	EXPORT_SNMP_MAX
};

/**
 * Write the baseline-relative totals of snap in the layout of Linux's
 * /proc/net/snmp or /proc/net/netstat: per group, a line "Grp: Name1 Name2
 * ..." then a line "Grp: v1 v2 ...", values unsigned except the constants
 * (signed, so Tcp MaxConn prints -1 as Linux does); or of /proc/net/snmp6:
 * a "%-32s\t%lu" line per counter.
 *
 * @param out    stream to write to
 * @param snap   a snapshot (a reference held by the caller)
 * @param which  EXPORT_SNMP, EXPORT_NETSTAT or EXPORT_SNMP6
 * @return 0, or -EINVAL (bad which), -EIO (write error).
 * Thread-safe (reads only the immutable snapshot).
 */
int export_snmp_write(FILE *out, const struct stats_snapshot *snap,
		      enum export_snmp_file which);

/** Options of export_prom_write(). */
struct export_prom_opts {
	/** Run info (export_json's "info": version, dpdk, cpu, config.fold,
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
	/** Process memory (export_memory_read()) for
	 *  pktpath_resident_memory_bytes and pktpath_heap_inuse_bytes; NULL
	 *  leaves them out. */
	const struct export_memory *mem;
};

/** The process's memory, read at one moment. */
struct export_memory {
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
int export_memory_read(struct export_memory *m, bool eal);

/**
 * What the EAL's memory is, for every report: "hugepages (2 MiB)" or
 * "no-huge (4 KiB pages)" (figures differ between the two: the journal,
 * Performance). Needs EAL; the string is static. Thread-safe once EAL is up
 * (the first call is from the main thread).
 */
const char *export_memory_kind(void);

/**
 * Write snap in the Prometheus text exposition format 0.0.4 (# HELP and
 * # TYPE for every family, pktpath_ prefix). Families (app/pktpath/README.md has the list):
 * pktpath_mib_total{group,field} (every counter field, raw),
 * pktpath_mib_value{group,field} (constants and high-water marks),
 * pktpath_drops_total{group,field} (the terminal drop outcomes),
 * pktpath_lcore_*{lcore} (packets, bytes, busy/idle cycles, drops as
 * counters; pps, seconds per packet, cycles per packet, busy ratio of the
 * last interval as gauges), the same rates for all workers, fold and
 * grace-period figures, the read folds (pktpath_read_folds_total, the
 * histogram pktpath_read_fold_seconds), the blocks every fold walks
 * (pktpath_mib_lcores{kind}, pktpath_mib_block_bytes{kind}),
 * pktpath_ingress_mode{mode}, pktpath_info{...} 1,
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
int export_prom_write(FILE *out, const struct stats_snapshot *snap,
		      const struct export_prom_opts *opts);

/**
 * Control and state hooks, implemented by the application. Any of them may
 * be NULL: the matching request then gets 501 (HTTP) or the field is left
 * out (telemetry, /metrics). The HTTP server calls set_mode and load_rules
 * one at a time (it holds a mutex around them), from one of its threads; a
 * hook may block (a grace period), which only delays its own request.
 */
struct stats_series; /* stats_series.h */

struct export_hooks {
	/**
	 * POST /ingress/mode with body "mode=NAME": switch the ingress guard;
	 * mode NULL (SIGUSR1 without a value): the next mode. source names
	 * the request ("POST /ingress/mode from ADDR"), for the flip's log
	 * line and event. Return 0, or a negative errno with a one-line reason in err:
	 * -EINVAL -> 400 (unknown mode), -EPERM/-EBUSY -> 409, -ENOTSUP ->
	 * 501, others -> 500. Must change nothing when it fails.
	 */
	int (*set_mode)(void *arg, const char *mode, const char *source, char *err,
			size_t errlen);
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
	/**
	 * Reload the classifier from its file (--rules, --filter,
	 * --bpf-obj), as SIGHUP does; source names the request. Return 0
	 * with a one-line result in err ("--rules reloaded"), or a
	 * negative errno with the reason there, as for set_mode.
	 */
	int (*reload)(void *arg, const char *source, char *err, size_t errlen);
	/**
	 * The run's history, for GET /history (export_history_add()): the
	 * series the stats thread adds to (NULL: none, 501), its lcore ids
	 * (or NULL), and flips: the mode flips so far as a new JSON array
	 * (or NULL), taken under the application's lock; thread-safe.
	 */
	const struct stats_series *series;
	const unsigned int *lcore_ids;
	json_t *(*flips)(void *arg);
};

/** Configuration of export_http_start(). Start from export_http_conf_init(). */
struct export_http_conf {
	/** "ADDR:PORT": a numeric IPv4 address, or an IPv6 literal in brackets
	 *  ("[::1]:9120"); port 0 picks a free port (see export_http_port()). */
	const char *listen;
	bool control;		/**< serve the POST endpoints (else 403) */
	bool lcore_mib;		/**< per-lcore MIB series in /metrics, and per-
				 *   lcore "mib" in /stats.json */
	size_t body_limit;	/**< largest POST body accepted (else 413) */
	/** Concurrent connections. Never a refusal: a connection that takes
	 *  the endpoint beyond it closes the most stalled one (the oldest
	 *  waiting for a request that has not arrived whole, else the oldest
	 *  being sent), counted in pktpath_http_closed_total. */
	unsigned int max_conns;
	unsigned int per_ip_conns; /**< the same per client address (0: no
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
	struct export_hooks hooks;
};

/** Defaults: 127.0.0.1:9120, no control, 1 MiB bodies, 256 connections
 *  (64 per client address), 10 s timeouts, 2 threads, no info, no hooks.
 *  Thread-safe. */
void export_http_conf_init(struct export_http_conf *c);

/**
 * Check an "ADDR:PORT" listen string without binding anything (for option
 * parsing). @return 0, or -EINVAL with a one-line reason in err that names
 * the faulty part ("'1.2.3' is not an IPv4 address ...", "port '99999' is
 * not 0..65535") but not the option or the whole string: the caller
 * prefixes them. Thread-safe.
 */
int export_http_check_listen(const char *listen, char *err, size_t errlen);

struct export_http;

/**
 * Bind, listen and start serving. Endpoints: GET/HEAD /, /healthz,
 * /metrics, /snmp, /netstat, /snmp6, /stats.json; POST /ingress/mode,
 * /ingress/rules, /stats/clear when c->control. Errors: unknown path 404,
 * wrong method 405 (with Allow), control disabled 403, body over
 * c->body_limit 413, malformed body or framing 400 (two Content-Length
 * headers that differ, or one with Transfer-Encoding; a body on GET or
 * HEAD; an escaped NUL in the path), a Transfer-Encoding other than
 * chunked 501; every error is one line of text/plain (control characters
 * of the request shown as '?'), and a rejected request changes nothing.
 * /metrics, /snmp, /netstat, /snmp6 and /stats.json answer from
 * stats_read(): with the stats object's fold_on_read, a fold made for that request, whose duration in
 * ns is the response header X-Pktpath-Fold-Ns (absent otherwise).
 *
 * libmicrohttpd serves every connection from c->threads poll(2) threads;
 * a slow client costs a connection, not a thread. A complete request is
 * answered however many connections others hold: a new connection that
 * takes its address beyond c->per_ip_conns, or the endpoint beyond
 * c->max_conns, closes the most stalled connection (of that address, or of
 * all) instead of being refused. A watchdog closes a connection whose
 * request headers (or body, or response) take longer than c->timeout_s,
 * however slowly they trickle in. Query strings are ignored; malformed or
 * oversized requests get a 4xx, or, where libmicrohttpd closes them
 * unanswered, are counted. /metrics ends with the endpoint's own counters
 * (pktpath_http_responses_total{code}, pktpath_http_closed_total{reason},
 * pktpath_http_connections). Control hooks run on a thread of their own,
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
 *             already in use", or as export_http_check_listen()
 * @return the server, or NULL with errno set (EINVAL bad address,
 *         EADDRINUSE, EACCES, ENOMEM, ...) and err filled.
 * Not thread-safe against export_http_stop() of the same server; needs EAL.
 */
struct export_http *export_http_start(struct stats *s,
				      const struct export_http_conf *c,
				      char *err, size_t errlen);

/** The bound port (the chosen one when the configuration said 0). */
uint16_t export_http_port(const struct export_http *h);

/** "http://127.0.0.1:9120/" or "http://[::1]:9120/" with the bound port. */
const char *export_http_url(const struct export_http *h);

/**
 * Stop serving: closes the listening socket, waits for the requests in
 * progress (and their hooks) to finish, frees h. NULL is a no-op. Call
 * before stats_free() and before whatever the hooks use is destroyed.
 */
void export_http_stop(struct export_http *h);

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
 *   /pktpath/pmu       --pmu: no parameter, per-lcore columns of each
 *                      event per packet (last interval); "LCORE": its
 *                      counts since its first poll, raw and scaled
 *                      (telemetry names: perf's '-' as '_', task_clock)
 *   /pktpath/ports     no parameter: the port ids; "PORT": its counters
 *                      since the last clear, DPDK's names, per-queue columns
 * and the control table's commands (export_control.h), parameter the
 * argument: {"result": LINE, values...} or {"error": LINE, "status": N}.
 * Every reply fits the library's limits (RTE_TEL_MAX_DICT_ENTRIES, the
 * 16 KiB reply): big things are split by group or by lcore. DPDK 22.11
 * telemetry has no floating-point type: decimals are strings ("14.52").
 *
 * Commands are registered once per process; a later call only points them
 * at new state. info is deep-copied; hooks copied (may be NULL).
 * @return 0, or -errno (EINVAL s NULL, ENOMEM, or the registration error).
 * Thread-safe against the command callbacks.
 */
int export_telemetry_register(struct stats *s, const json_t *info,
			      const struct export_hooks *hooks);

/**
 * Detach the commands from s (they answer null from now on) and free the
 * copies; call before stats_free(). Waits for a callback in progress.
 * Control is off again (export_telemetry_control()).
 */
void export_telemetry_unregister(void);

/**
 * Serve the control table's changing commands over telemetry
 * (export_control.h: /pktpath/ingress_mode, ...), as --http-control
 * does over HTTP; off, they answer {"error": ..., "status": 403}. The
 * commands are registered by export_telemetry_register() either way.
 * Thread-safe.
 */
void export_telemetry_control(bool on);

struct mib_devset;

/** A run's per-device IPv6 MIBs (--mib-devices): what /dev_snmp6/DEV,
 *  /links and their telemetry commands read. */
struct export_devices {
	const struct mib_devset *ds; /**< the devices' blocks (lib/mib/mib_dev.h) */
	/** Device d's name (its /dev_snmp6/NAME), ds's devices of them; its
	 *  ifIndex is d + 1. */
	const char *const *names;
	struct stats *s; /**< whose fold strategy the reads take */
};

/**
 * Serve d's devices: GET /dev_snmp6/DEV (/proc/net/dev_snmp6/DEV's text:
 * ifIndex, Ip6, Icmp6 without OutRateLimitHost, the messages by type, as
 * Linux 6.17+ prints it; 404 for a device not in d) and GET /links (JSON:
 * a link dump, every device's Ip6 and Icmp6 counters folded with the
 * stats' strategy of the moment as rtnl_fill_ifinfo folds them, timed:
 * "dump_us", "per_device_us", "fold"), and the telemetry commands
 * /pktpath/dev_snmp6,DEV and /pktpath/links (registered once per process).
 * Without a registration both endpoints answer 404. Both read the blocks
 * at request time and are never cleared, as /proc. d is copied; what it
 * points to must outlive export_devices_unregister().
 * @return 0, -EINVAL (d incomplete: nothing registered), or the telemetry
 * registration's error (the HTTP endpoints serve d all the same).
 * Thread-safe.
 */
int export_devices_register(const struct export_devices *d);

/** A link dump as GET /links makes it, without the document: *ns gets the
 *  fold's time. 0, -ENODEV (no devices) or -ENOMEM. Thread-safe
 *  (--reader-links' readers call it back to back). */
int export_devices_dump(double *ns);

/** GET /links' document, a link dump of the registered devices (the run's
 *  JSON "links" after the workers stopped); NULL without devices or out of
 *  memory. Thread-safe. */
json_t *export_devices_json(void);

/** Stop serving the devices (404 from now on); waits for a read in
 *  progress. Thread-safe. */
void export_devices_unregister(void);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_EXPORT_H */
