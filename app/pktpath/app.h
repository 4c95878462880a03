/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_APP_H
#define PKTPATH_APP_H

/*
 * Application state shared by the files of app/pktpath (main.c, worker.c,
 * port.c, port_host.c, ingress_control.c, compare.c). Everything here is
 * set up by the main thread before the workers are launched and is
 * read-only for them, except each worker's own struct app_worker and the
 * run flag they poll.
 */

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_mempool.h>

#include "export.h"
#include "ingress.h"
#include "mib.h"
#include "options.h"
#include "path.h"
#include "pkt.h"
#include "stats.h"
#include "stats_series.h"
#include "stage.h"
#include "stage_pmu.h"
#include "conditions.h"

extern int pktpath_logtype;
#define APP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, pktpath_logtype, "pktpath: " fmt "\n", ##__VA_ARGS__)

/* An endless run's (--duration 0) history keeps its last intervals in
 * this much memory (stats_series_window()). */
#define APP_HISTORY_ENDLESS_BYTES (64ull << 20)

/* Polls a worker counts in registers before flushing its Rx counters. */
#define APP_FLUSH_POLLS 32

/* --mib-devices: a worker's share of the per-device MIBs (devices.c). */
struct app_dev_acc;

/* One receive loop. Owned by its lcore once launched. */
struct app_worker {
	unsigned int idx;		/* 0..n_workers-1, also its MIB block */
	unsigned int lcore;
	int socket;
	struct mib_block mib;
	const struct path_conf *pc;
	enum app_source source;
	struct pkt_gen gen;		/* source gen */
	struct rte_mempool *mp;		/* source gen: this worker's pool */
	uint16_t port, queue;		/* source port */
	uint16_t burst;
	/* A poll longer than this (--stall-us) is lost time, not work. */
	uint64_t stall_cycles;
	/* Where it began and ended polling, for the stats thread's lost-time
	 * accounting (stats_worker_begin(), stats_worker_end()). */
	struct stats_worker_clock *clock;
	bool prefetch;
	bool full;			/* --path full */
	struct ingress *ig;		/* NULL: no ingress hook at all */
	struct pkt_capture *cap;	/* NULL: no capture */
	enum pkt_capture_what cap_what;
	const struct peer_table *peers;	/* NULL: no peer stage */
	struct path_frag *frag;		/* its reassembly queues, both families */
	/* Flags of the worker's loop, as the source, the path, ... (worker.c). */
	bool stage_cycles;		/* --stage-cycles */
	bool perf_detail;		/* --perf-detail */
	struct stats_perf *perf;	/* --perf-detail: its own block */
	/* --stage-cycles: this worker's stage counters (stage.h), flushed
	 * into mib with the Rx counters. */
	struct app_stage_acc stage_acc;
	struct app_dev_acc *dev; /* --mib-devices: its share, else NULL */
	/* --pmu with --stage-cycles: each mark also reads clock->group
	 * (stage_pmu.h), stored into clock->stage_pmu with the flush. */
	bool stage_pmu;
	struct app_stage_pmu stage_pmu_acc;
} __rte_cache_aligned;

struct app_port {
	uint16_t id;
	uint16_t nb_rxq;
	uint16_t nb_txq;
	uint16_t nb_rxd;		/* after the driver's adjustment */
	struct rte_mempool *mp;
	struct path_conf pc;
	bool csum_capa; /* offloads IPv4, UDP and TCP RX checksums */
	bool started;
	bool configured;
	/* The host as it was (port.c restores it at close). */
	char ifname[32];		/* the kernel interface, if any */
	bool promisc_off;		/* we turned promiscuous mode on */
	unsigned int mtu_restore;	/* kernel MTU to put back, 0: none */
};

struct app {
	struct app_options opt;
	unsigned int n_workers;
	struct app_worker *workers;
	unsigned int *lcore_ids;	/* lcore of each worker */
	struct mib_set *mibs;		/* n_workers blocks + the control block
					 * + n_phantom (--mib-lcores) */
	unsigned int n_phantom;
	size_t mib_heap_bytes;		/* what the blocks took of EAL's heap */
	struct mib_block ctl_mib;	/* the control thread's block */
	struct path_conf gen_pc;	/* path conf for the generator */
	struct pkt_templates *tpl;
	unsigned int n_ports;
	struct app_port *ports;
	struct stats *stats;
	struct ingress *ig;		/* the ingress hook, if any */
	/* What the updater alternates: A is the primary source (--rules,
	 * --filter, --bpf-obj) or the last reload (SIGHUP, POST
	 * /ingress/rules); B is --rules-alt. Replaced only while the updater
	 * is stopped, under ctl_lock, so make() never sees a change. */
	struct ingress_classifier *rules_a;
	struct ingress_classifier *rules_b;
	/* Serialises the control operations (mode flips, reloads, the
	 * updater's start and stop) of the control loop, SIGHUP/SIGUSR1, the
	 * HTTP and telemetry threads and --compare. */
	pthread_mutex_t ctl_lock;
	bool compare_running;		/* atomic: --compare owns the mode */
	bool ctl_closed;		/* under ctl_lock: the run is ending */
	/* Every mode flip, in order (under ctl_lock): {"kind": "mode-flip",
	 * "t_s" (since the stats start), "from", "mode", "source"}; the
	 * JSON's "events" (export_events_json()). */
	json_t *flips;
	json_t *compare;		/* --compare results, for the JSON */
	struct stats_series *series;	/* the run's history (stats thread adds) */
	struct pkt_capture *cap;	/* --capture */
	struct export_http *http;	/* --http */
	struct stats_perf **perf;	/* --perf-detail: n_workers blocks */
	struct app_perf_log *perf_log;	/* --perf-detail: suspicious polls */
	uint64_t perf_start_tsc;	/* TSC at stats_start() (event times) */
	/* The run's end (main.c report_end()): when the control loop saw the
	 * end, when the control had stopped, when the workers had. */
	uint64_t run_start_tsc, end_asked_tsc, ctl_stopped_tsc, workers_done_tsc;
	struct peer_table *peers; /* --peer on: the workers' table */
	/* --peer on: a table per layout the run uses (--peer-layout, and
	 * --compare peer-layout=...), peers one of them */
	struct peer_table *peer_tables[PEER_LAYOUT_MAX];
	/* --compare: the workers paused between two phases (compare_switch.c) */
	struct app_pause {
		pthread_mutex_t mu;
		pthread_cond_t cv;
		bool asked;	     /* a switch stops the workers, not the end */
		unsigned int paused; /* workers waiting for the next epoch */
		uint64_t epoch;
	} pause;
	struct app_readers *readers;	/* --reader (reader.c) */
	/* --mib-devices (devices.c): the run's own devices (the ports, or the
	 * generator's), then the phantom ones; NULL/0 without it */
	struct mib_devset *devs;
	char **dev_names; /* n_devs */
	unsigned int n_devs, n_dev_own;
	json_t *info;			/* run info (JSON "info") */
	struct app_conditions cond;	/* the host's conditions (info.conditions) */
	struct stats_worker_clock *clocks;	/* n_workers, for the stats */
	struct stats_port_conf *stats_ports;	/* n_ports, for the stats */
	int *worker_port;		/* n_workers: index in ports[] */
	/* Workers poll this (relaxed): 1 while they must run. */
	volatile int run;
};

/* SIGINT/SIGTERM set it (the signal); the control loop ends the run. The
 * control signals (SIGHUP, SIGUSR1) are lib/export's control table's:
 * app_ingress_signals() runs them. */
extern volatile sig_atomic_t app_quit;

/* A user mistake exits with this code (an EAL or setup failure: 1). */
#define APP_EXIT_USAGE 2

/* reader.c: --reader N, threads that fold back to back through
 * stats_read() (the endpoint's fold-on-read) until stopped. Start after
 * stats_start(), stop before stats_stop(); main thread only. start: 0 (no
 * reader asked, or all started, one line saying so) or -errno (none left
 * running). stop: joins them; a reader that failed is said on stderr. */
int app_readers_start(struct app *a);
void app_readers_stop(struct app *a);

/* setup.c: everything between the options and the launch; exits on any
 * failure, with one line. */
void app_setup(struct app *a);
/* A user error after EAL is up: the line (none if fmt is NULL), EAL
 * released, exit APP_EXIT_USAGE. */
void app_usage_exit(const char *fmt, ...) __rte_format_printf(1, 2) __rte_noreturn;

/* setup_mem.c: what set-up allocates, sized before it is allocated, and
 * set-up's end on a signal (main thread, set-up only). */
enum app_mem_kind {
	APP_MEM_EAL,	/* rte_malloc(): EAL's heap, and the hugepages it may grow on */
	APP_MEM_HOST,	/* malloc(): MemAvailable, RLIMIT_DATA/AS, the cgroup's memory limit */
};
/* What there is for an allocation of that kind, in bytes; says gets where
 * the figure comes from ("EAL's heap has 512 MiB, 497 MiB free",
 * "RLIMIT_DATA 4.0 GiB, 600 MiB in use"). */
uint64_t app_mem_eal(char *says, size_t len);
uint64_t app_mem_host(char *says, size_t len);
/* The size of EAL's pages (4 KiB with --no-huge). */
uint64_t app_mem_eal_page(void);
/* 0 if need bytes fit; else one line on stderr ("pktpath: out of memory
 * for WHAT: needs N, ...; FIX") and -1. */
int app_mem_fits(enum app_mem_kind kind, const char *what, uint64_t need,
		 const char *fix);
/* app_mem_fits(), and exit APP_EXIT_USAGE if it does not. */
void app_mem_need(enum app_mem_kind kind, const char *what, uint64_t need,
		  const char *fix);
/* EAL's memory could not hold need bytes for what after all: the same
 * line, exit APP_EXIT_USAGE. */
void app_oom_exit(const char *what, uint64_t need, const char *fix) __rte_noreturn;
/* A SIGINT/SIGTERM arrived (app_quit): one line naming the step, EAL
 * released, exit 128 + the signal. Returns if none did. */
void app_setup_quit(const char *step);

/* outputs.c: the files a run writes (base.h "Files"), main thread only */
/* --json's path refused now (exit 2) if it is not an output. */
void app_outputs_setup(struct app *a);
/* root written to --json whole; 0, or -1 with one line on stderr. */
int app_json_write(const struct app *a, const json_t *root);
/* --capture's line in the summary: 0, or 1 when the file is incomplete. */
int app_capture_report(const struct app *a, const struct stats_snapshot *fin,
		       FILE *out);
/* --capture's object in the JSON (a->cap set). */
json_t *app_capture_json(const struct app *a, const struct stats_snapshot *fin);
/* stdout flushed and checked (and stderr): 0, or -1 with a line on stderr. */
int app_console_check(void);
/* The console: stdout made a stream that keeps its first write error's
 * errno, for app_console_check(). First thing in main(). */
void app_console_open(void);

/* worker.c */
int app_worker_main(void *arg);	/* lcore entry point: arg is struct app_worker */
void app_workers_bind(struct app *a);	/* the app the workers read */
/* The app the workers read (set by app_workers_bind()); compare_switch.c
 * reads it too. */
extern struct app *app_worker_app;
/* The name of the loop variant a worker runs for its options ("full-prefetch",
 * ..., "generic"): worker.c's table. */
const char *app_worker_loop_name(const struct app_worker *w);

/* ingress_control.c (the hook's app side: set-up, churn, reloads, flips from
 * signals and HTTP) */
int app_ingress_setup(struct app *a);	/* 0 or -1 (message printed) */
void app_ingress_signals(struct app *a); /* run the control signals */
/* Flip the mode: -EBUSY while --compare runs (which flips with
 * app_ingress_compare_mode()) or once the run has ended, or
 * ingress_set_mode()'s error; 0. source names who asked ("SIGUSR1 from pid
 * 42", "POST /ingress/mode from 127.0.0.1"): the flip's log line and event
 * carry it with the time since the start. */
int app_ingress_set_mode(struct app *a, enum ingress_mode m, const char *source,
			 char *err, size_t len);
int app_ingress_compare_mode(struct app *a, enum ingress_mode m, char *err, size_t len);
/* --compare lock-scope=...: the scope, as app_ingress_compare_mode() the mode. */
int app_ingress_compare_scope(struct app *a, enum ingress_scope sc, char *err,
			      size_t len);
int app_ingress_load_rules(struct app *a, const char *text, size_t len,
			   const char *name, char *err, size_t errlen);
void app_ingress_start(struct app *a);	/* after launch: the rule updater */
void app_ingress_stop(struct app *a);	/* end of run: updater off, control refused */
void app_ingress_teardown(struct app *a);
json_t *app_ingress_info(struct app *a);
/* "update rate N/s requested, M/s achieved" when the churn fell behind. */
void app_ingress_report_rate(struct app *a, double seconds, FILE *out);
void app_ingress_hooks(struct app *a, struct export_hooks *h);

/* compare.c */
void app_compare_run(struct app *a);	/* the --compare phases; sets a->compare */

/* compare_switch.c: a variant put in force between two phases (the
 * control thread that runs --compare) */
/* Set up the pause (before the launch). */
void app_pause_init(struct app *a);
/* A worker's loop has ended: true when it must loop again (the workers
 * were stopped for a switch; it waits, offline, until the switch is
 * done), false when the run ends. On the worker's lcore. */
bool app_worker_pause(struct app_worker *w);
/* Put variant v of --compare in force: the live knobs (ingress mode and
 * scope, fold) directly, the others with the workers paused; *switch_s: the
 * seconds the workers were paused (0: none). 0, or -1 with the reason in err. */
int app_compare_switch(struct app *a, unsigned int v, double *switch_s, char *err,
		       size_t len);
/* The ingress mode variant v runs in. */
enum ingress_mode app_compare_mode(const struct app *a, unsigned int v);
/* The loop (app_worker_loop_name()) the workers run in variant v: --compare
 * prefetch=off,on and alloc=... choose another. Main thread only. */
const char *app_compare_loop_name(const struct app *a, unsigned int v);

/* devices.c: --mib-devices (main thread, but app_devices_burst()) */
/* The set, the names and each worker's share, after the MIB blocks; exits
 * (2 with one line) if it does not fit. Nothing without --mib-devices. */
void app_devices_setup(struct app *a);
/* After a burst, on the worker's lcore: what it moved in mib's IPv6
 * groups, added to the device that received it. */
void app_devices_burst(struct app_dev_acc *d, const struct mib_block *mib);
/* At a loop's start, on the worker's lcore: what mib holds now is counted
 * (a --compare switch may have moved the worker to another block). */
void app_devices_sync(struct app_dev_acc *d, const struct mib_block *mib);
/* Serve them (export_devices_register()): 0 or its -errno. */
int app_devices_register(struct app *a);
/* Unregister and free (after the endpoints stopped). */
void app_devices_free(struct app *a);
/* The mib: line's part ("" without devices), into buf. */
const char *app_devices_text(const struct app *a, char *buf, size_t len);

/* port.c */
int app_ports_setup(struct app *a);	/* 0 or -1 (message printed) */
void app_ports_close(struct app *a);

#endif
