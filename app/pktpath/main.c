/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pktpath: the Linux IPv4 receive path in user space, measured.
 *
 * main(): EAL -> options -> setup -> launch -> wait -> report -> cleanup, in
 * the order of DPDK's l2fwd; the signal handlers are there before main()
 * (signals_init()). Every setup failure names the call
 * that failed and its error; a user mistake exits with code 2.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_version.h>

#include "app.h"
#include "base.h"
#include "export_control.h"
#include "host.h"
#include "perf_log.h"
#include "export_series.h"
#include "port.h"

int pktpath_logtype;
volatile sig_atomic_t app_quit;

static struct app the_app;
static int app_argc;
static char **app_argv;

static void
on_signal(int sig)
{
	static const char msg[] = "pktpath: second signal, exiting now\n";

	switch (sig) {
	case SIGINT:
	case SIGTERM:
		if (app_quit) {
			/* Shutdown is stuck or too slow for the user. */
			if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
				_exit(130);
			_exit(130);
		}
		app_quit = sig;		/* non-zero: the signal that asked */
		break;
	}
}

/*
 * The handlers, as early as the process allows: from the executable's
 * .preinit_array, which the dynamic loader runs once it has mapped and
 * relocated every library and before it runs their initialisers (DPDK's
 * constructors: buses, drivers, log types) or main() -- the earliest code
 * of the executable that can run at all. Before it, from exec, the loader
 * maps and relocates (a few milliseconds, more under ASan): a SIGINT or
 * SIGTERM then takes its default action, and the process, which has made
 * nothing yet (no file, no runtime directory, no hugepage), ends by the
 * signal (status 128 + the signal). From here on one ends the run as soon
 * as it can, with its report (app/test/README.md, Hardening). Runs single-threaded,
 * before main(): sigaction() is all it calls.
 */
static void
signals_init(int argc, char **argv, char **envp)
{
	struct sigaction sa;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	RTE_SET_USED(envp);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* SIGHUP, SIGUSR1: the control table's (lib/export control.c) */
	export_control_signals_install();
}
__attribute__((section(".preinit_array"), used))
static void (*const signals_preinit)(int, char **, char **) = signals_init;

static json_t *
run_info(const struct app *a)
{
	const struct app_options *o = &a->opt;
	json_t *args = json_array(), *lcores = json_array(), *cfg, *info;
	struct app_option_value v;
	char cpu[256];
	int i, rc;

	for (i = 0; i < app_argc; i++)
		json_array_append_new(args, export_json_text(app_argv[i]));
	for (i = 0; i < (int)a->n_workers; i++)
		json_array_append_new(lcores, json_integer(a->lcore_ids[i]));
	/* every option with a value of its own that has an effect, from the
	 * option table; then what the run made of them */
	cfg = json_object();
	for (i = 0; (rc = app_options_value(o, (unsigned int)i, &v)) >= 0; i++) {
		if (rc == 0)
			continue;
		json_object_set_new(cfg, v.key,
				    v.type == APP_VAL_UINT     ? export_json_u64(v.u)
				    : v.type == APP_VAL_DOUBLE ? json_real(v.d)
				    : v.type == APP_VAL_BOOL   ? json_boolean(v.b)
							     : export_json_text(v.text));
	}
	json_object_set_new(cfg, "mib_lcores", json_integer(a->n_workers + a->n_phantom));
	json_object_set_new(cfg, "worker_lcores", lcores);
	json_object_set_new(cfg, "warmup_s",
			    o->warmup_s < 0 ? json_string("auto")
					    : json_real(o->warmup_s));
	if (o->pmu.n > 0) {
		char names[STATS_PMU_MAX * STATS_PMU_NAME_LEN];

		stats_pmu_conf_names(&o->pmu, names, sizeof(names));
		json_object_set_new(cfg, "pmu", json_string(names));
	} else {
		json_object_set_new(cfg, "pmu", json_null());
	}
	/* each variant's loop under --compare, in its order, as a compared
	 * knob says its values ("full-capture,full-prefetch-capture") */
	if (o->cmp.n > 0) {
		char loops[APP_MAX_VARIANTS * 48] = "";
		size_t at = 0;
		unsigned int vi;

		for (vi = 0; vi < o->cmp.n && at < sizeof(loops); vi++)
			at += (size_t)snprintf(loops + at, sizeof(loops) - at, "%s%s",
					       vi > 0 ? "," : "",
					       app_compare_loop_name(a, vi));
		json_object_set_new(cfg, "loop", json_string(loops));
	} else {
		json_object_set_new(cfg, "loop",
				    json_string(app_worker_loop_name(&a->workers[0])));
	}
	if (o->source == APP_SRC_GEN)
		json_object_set_new(cfg, "templates", json_integer(a->tpl ? a->tpl->n : 0));
	else
		json_object_set_new(cfg, "ports", json_integer(a->n_ports));
	json_object_set_new(cfg, "memory", json_string(export_memory_kind()));
	export_cpu_model(cpu, sizeof(cpu));
	info = json_pack("{s:s, s:s, s:s, s:I, s:o, s:o}",
		"version", PKTPATH_VERSION,
		"dpdk", rte_version(),
		"cpu", cpu,
		"tsc_hz", (json_int_t)rte_get_tsc_hz(),
		"args", args,
		"config", cfg);
	if (info != NULL && a->cond.json != NULL)
		json_object_set(info, "conditions", a->cond.json);
	return info;
}

/* The host's conditions of this run (conditions.h), and their warnings
 * after the banner, one "conditions:" line each. */
static void
read_conditions(struct app *a)
{
	struct app_cond_in in;
	int *cpus = calloc(a->n_workers + 1, sizeof(int));
	int *pools = calloc(a->n_workers + 1, sizeof(int));
	int *pnodes = calloc(a->n_ports + 1, sizeof(int));
	rte_cpuset_t cs;
	unsigned int i, c;

	memset(&in, 0, sizeof(in));
	if (cpus == NULL || pools == NULL || pnodes == NULL)
		goto out;
	/* an lcore's CPU: the one of its cpuset, -1 when it floats */
	for (i = 0; i <= a->n_workers; i++) {
		unsigned int lc = i < a->n_workers ? a->workers[i].lcore :
				  rte_get_main_lcore();
		int cpu = -1, n = 0;

		cs = rte_lcore_cpuset(lc);
		for (c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &cs)) {
				cpu = (int)c;
				n++;
			}
		if (i < a->n_workers) {
			cpus[i] = n == 1 ? cpu : -1;
			pools[i] = a->workers[i].mp != NULL ? a->workers[i].mp->socket_id :
				   a->workers[i].source == APP_SRC_PORT && a->ports != NULL ?
				   a->ports[0].mp->socket_id : -1;
		} else {
			in.main_cpu = n == 1 ? cpu : -1;
		}
	}
	for (i = 0; i < a->n_ports; i++)
		pnodes[i] = rte_eth_dev_socket_id(a->ports[i].id);
	in.n_workers = a->n_workers;
	in.lcores = a->lcore_ids;
	in.cpus = cpus;
	in.main_lcore = rte_get_main_lcore();
	in.n_ports = a->n_ports;
	in.port_nodes = pnodes;
	in.pool_nodes = pools;
	in.hugepages = export_memory_kind();
	in.dpdk = rte_version();
	if (app_conditions_read(&in, NULL, &a->cond) != 0)
		APP_LOG(WARNING, "the run's conditions: out of memory");
	app_conditions_print(stdout, &a->cond);
out:
	free(cpus);
	free(pools);
	free(pnodes);
}

/* Wait for the end of the run, acting on signals. Runs on the main thread,
 * or on a control thread when the main lcore is a worker. */
static void *
control_loop(void *arg)
{
	struct app *a = arg;
	uint64_t hz = rte_get_tsc_hz();
	uint64_t end;

	a->run_start_tsc = rte_get_tsc_cycles();
	end = a->opt.duration_s > 0 ?
	      a->run_start_tsc + (uint64_t)(a->opt.duration_s * (double)hz) :
	      UINT64_MAX;
	struct timespec tick = { 0, 5 * 1000 * 1000 };

	app_ingress_start(a);
	if (a->opt.cmp.n > 0) {
		app_compare_run(a);
	} else {
		/* A signal is acted on only before the end: one that comes
		 * while the last sleep runs is not applied after it. */
		while (!app_quit) {
			nanosleep(&tick, NULL);
			if (rte_get_tsc_cycles() >= end)
				break;
			app_ingress_signals(a);
			app_perf_drain(a);
		}
	}
	a->end_asked_tsc = rte_get_tsc_cycles();
	/* No rule update may wait on a worker that is about to stop, and no
	 * control request may start one again: refused from here on. */
	app_ingress_stop(a);
	a->ctl_stopped_tsc = rte_get_tsc_cycles();
	/* Workers stop at their next burst boundary. */
	__atomic_store_n(&a->run, 0, __ATOMIC_RELEASE);
	return NULL;
}

static void cleanup(struct app *a);

/* The stats thread's per-interval report: the run's history (the JSON's
 * "intervals" and "events", the spread and warm-up detection), then the
 * console line(s) unless --quiet. */
static void
print_interval(const struct stats_snapshot *snap,
	       const struct stats_snapshot *prev, void *arg)
{
	struct app *a = arg;

	app_perf_drain(a);	/* --perf-detail: the suspicious polls */
	if (a->series != NULL) {
		/* the first interval starts at stats_start()'s fold */
		if (stats_series_count(a->series) == 0)
			stats_series_add(a->series, prev);
		if (stats_series_add(a->series, snap) == -ENOMEM)
			APP_LOG(WARNING, "interval history: out of memory");
	}
	if (!a->opt.quiet)
		export_print_interval(stdout, snap, prev);
}

/* DPDK telemetry commands, and the HTTP endpoint unless --http off. */
static int
start_endpoints(struct app *a)
{
	struct export_hooks hooks;
	struct export_http_conf hc;
	char err[256];
	int rc;

	app_ingress_hooks(a, &hooks);
	hooks.series = a->series; /* GET /history */
	hooks.lcore_ids = a->lcore_ids;
	a->info = run_info(a);
	rc = export_telemetry_register(a->stats, a->info, &hooks);
	if (rc != 0)
		APP_LOG(WARNING, "telemetry commands: %s", strerror(-rc));
	export_telemetry_control(a->opt.http_control);
	rc = app_devices_register(a);
	if (rc != 0)
		APP_LOG(WARNING, "per-device MIBs' telemetry commands: %s",
			strerror(-rc));
	if (a->opt.http[0] == '\0')
		return 0;
	export_http_conf_init(&hc);
	hc.listen = a->opt.http;
	hc.control = a->opt.http_control;
	hc.lcore_mib = a->opt.metrics_lcore_mib;
	hc.info = a->info;
	hc.hooks = hooks;
	a->http = export_http_start(a->stats, &hc, err, sizeof(err));
	if (a->http == NULL && errno == EADDRINUSE) {
		/* The same address with port 0: the kernel picks a free one. */
		const char *colon = strrchr(a->opt.http, ':');

		fprintf(stderr, "pktpath: --http %s: %s; port in use: --http %.*s:0 "
			"picks a free one\n", a->opt.http, err,
			colon ? (int)(colon - a->opt.http) : 0, a->opt.http);
		return -1;
	}
	if (a->http == NULL) {
		fprintf(stderr, "pktpath: --http %s: %s\n", a->opt.http, err);
		return -1;
	}
	printf("http: listening on %s\n", export_http_url(a->http));
	fflush(stdout);
	return 0;
}

static void
launch_and_wait(struct app *a)
{
	unsigned int main_lcore = rte_get_main_lcore(), i;
	struct app_worker *main_w = NULL;
	pthread_t ctl;
	int rc;

	__atomic_store_n(&a->run, 1, __ATOMIC_RELEASE);
	app_workers_bind(a);
	app_pause_init(a);
	a->perf_start_tsc = rte_rdtsc();
	rc = stats_start(a->stats);
	if (rc != 0)
		rte_exit(EXIT_FAILURE, "stats_start: %s\n", strerror(-rc));
	if (start_endpoints(a) != 0) {
		stats_stop(a->stats);
		cleanup(a);
		rte_eal_cleanup();
		exit(APP_EXIT_USAGE);
	}
	rc = app_readers_start(a);
	if (rc != 0)
		rte_exit(EXIT_FAILURE, "--reader: starting the readers: %s\n",
			 strerror(-rc));
	if (a->cap != NULL) {
		rc = pkt_capture_start(a->cap);
		if (rc != 0)
			rte_exit(EXIT_FAILURE, "pkt_capture_start: %s\n", strerror(-rc));
	}
	for (i = 0; i < a->n_workers; i++) {
		struct app_worker *w = &a->workers[i];

		if (w->lcore == main_lcore) {
			main_w = w;
			continue;
		}
		rc = rte_eal_remote_launch(app_worker_main, w, w->lcore);
		if (rc != 0)
			rte_exit(EXIT_FAILURE, "rte_eal_remote_launch(lcore %u): %s\n",
				 w->lcore, rte_strerror(-rc));
	}
	if (main_w != NULL) {
		rc = rte_ctrl_thread_create(&ctl, "pktpath-ctl", NULL,
					    control_loop, a);
		if (rc != 0)
			rte_exit(EXIT_FAILURE, "rte_ctrl_thread_create: %s\n",
				 strerror(-rc));
		app_worker_main(main_w);
		pthread_join(ctl, NULL);
	} else {
		control_loop(a);
	}
	rte_eal_mp_wait_lcore();
	a->workers_done_tsc = rte_get_tsc_cycles();
	pkt_capture_stop(a->cap);	/* the workers are done: drain, close */
	app_readers_stop(a);		/* before the stats they read stop */
	stats_stop(a->stats);
}

/*
 * How the run ended against --duration: "end: ..." when it ran over by more
 * than END_SLACK_S (the control loop's tick is 5 ms), naming what took
 * the time (the control's stop: the rule updater's last replace and its
 * grace period; the workers' stop: their last burst). Nothing is said of a
 * run that ended on time or by a signal.
 */
#define END_SLACK_S 0.05

static void
report_end(const struct app *a, FILE *out)
{
	double hz = (double)rte_get_tsc_hz(), over, ctl, wk;

	if (a->opt.duration_s <= 0 || a->opt.cmp.n > 0 || app_quit ||
	    a->end_asked_tsc == 0)
		return;
	over = (double)(a->workers_done_tsc - a->run_start_tsc) / hz - a->opt.duration_s;
	if (over <= END_SLACK_S)
		return;
	ctl = (double)(a->ctl_stopped_tsc - a->end_asked_tsc) / hz;
	wk = (double)(a->workers_done_tsc - a->ctl_stopped_tsc) / hz;
	fprintf(out, "end: the workers stopped %.3f s after --duration %g: the "
		"control loop ended %.3f s late, stopping the control (rule "
		"updater) took %.3f s, the workers' last bursts %.3f s\n", over,
		a->opt.duration_s, (double)(a->end_asked_tsc - a->run_start_tsc) / hz -
		a->opt.duration_s, ctl, wk);
}

static int
report(struct app *a)
{
	struct stats_summary *sum = stats_summary(a->stats);
	struct stats_snapshot *fin = stats_get(a->stats);
	struct stats_steady steady;
	bool have_steady = false;
	int rc = 0;

	memset(&steady, 0, sizeof(steady));
	app_perf_drain(a);	/* the workers stopped: their last events */
	/* The steady part: detected (--warmup auto) or from --warmup. Not
	 * for --compare: its intervals mix modes, and each phase has its own
	 * figures in the compare table. */
	if (sum != NULL && fin != NULL && a->series != NULL && a->opt.cmp.n == 0)
		have_steady = stats_series_steady(a->series, fin, a->opt.interval_s,
						  a->opt.warmup_s, sum, &steady) == 0;
	/* The histograms' window is the summary's fixed one: with --warmup
	 * auto that is the whole run (the detected start moves only the
	 * rates), so they say so. */
	if (sum != NULL && a->opt.warmup_s < 0)
		sum->hist_steady = false;
	if (sum != NULL && fin != NULL)
		export_print_summary(stdout, sum, fin);
	if (have_steady)
		export_print_steady(stdout, &steady, a->lcore_ids);
	if (stats_series_dropped(a->series) > 0)
		printf("history: the first %" PRIu64 " intervals were dropped to keep "
		       "memory flat (an endless run keeps its last %u); the steady "
		       "state and the JSON's intervals cover the rest\n",
		       stats_series_dropped(a->series),
		       stats_series_count(a->series) - 1);
	else if (a->opt.cmp.n > 0)
		printf("spread: none for the whole --compare run (its intervals mix "
		       "modes); each phase's intervals are in the JSON "
		       "(compare.modes[].rounds_intervals_mpps)\n");
	if (sum != NULL)
		app_ingress_report_rate(a, sum->total.seconds, stdout);
	report_end(a, stdout);
	if (fin != NULL)
		app_perf_report(a, fin->totals[MIB_F(RX, SUSPICIOUSPOLLS)], stdout);
	if (app_capture_report(a, fin, stdout) != 0)
		rc = 1;
	if (a->opt.json[0] != '\0' && fin != NULL) {
		json_t *info = json_incref(a->info);
		json_t *root = export_json(fin, sum, info, true);

		json_object_set_new(root, "ingress", app_ingress_info(a));
		if (a->perf_log != NULL)
			json_object_set_new(root, "suspicious", app_perf_json(a));
		if (a->peers != NULL)
			json_object_set_new(
				root, "peer",
				json_pack("{s:s, s:i, s:i, s:I}", "layout",
					  peer_layout_name(peer_table_layout(a->peers)),
					  "peers", (int)peer_table_count(a->peers),
					  "share_pct", (int)a->opt.peer_share,
					  "refcnt_sum",
					  (json_int_t)peer_table_refcnt_sum(a->peers)));
		if (a->compare != NULL)
			json_object_set(root, "compare", a->compare);
		if (a->cap != NULL)
			json_object_set_new(root, "capture", app_capture_json(a, fin));
		if (a->devs != NULL) /* --mib-devices: a last link dump */
			json_object_set_new(root, "links", export_devices_json());
		if (a->series != NULL) {
			/* the history section, as GET /history serves it live */
			const struct export_history hi = {
				.se = a->series,
				.lcore_ids = a->lcore_ids,
				.st = have_steady ? &steady : NULL,
				.flips = a->flips,
			};

			export_history_add(root, &hi);
		}
		if (have_steady && json_object_get(root, "summary") != NULL)
			json_object_set_new(json_object_get(root, "summary"),
					    "steady_state", export_steady_json(&steady,
										a->lcore_ids));

		if (app_json_write(a, root) != 0)
			rc = 1;
		json_decref(root);
		json_decref(info);
	}
	stats_put(a->stats, fin);
	stats_summary_free(sum);
	stats_steady_fini(&steady);
	if (app_console_check() != 0)
		rc = 1;
	return rc;
}

/* The MIB's memory line: its blocks, in each layout it has. */
static void
print_mib(const struct app *a)
{
	enum mib_layout l;
	char devtext[160];

	printf("mib: %u lcores' blocks (%u worker%s, %u phantom), %u bytes each, ",
	       a->n_workers + a->n_phantom, a->n_workers, a->n_workers == 1 ? "" : "s",
	       a->n_phantom, MIB_BLOCK_BYTES);
	if (app_compare_knob(&a->opt.cmp, APP_KNOB_MIB_LAYOUT) >= 0) {
		/* --compare mib-layout=...: a copy in each, folded together */
		for (l = 0; l < MIB_LAYOUT_MAX; l++)
			if (mib_set_has_layout(a->mibs, l))
				printf("%s %s %zu KiB, ", mib_layout_name(l),
				       l == MIB_LAYOUT_PERCPU ? "page-aligned"
							      : "interleaved",
				       mib_set_layout_bytes(a->mibs, l) >> 10);
		printf("folded together: %zu KiB", mib_set_bytes(a->mibs) >> 10);
	} else {
		printf("%s: %zu KiB",
		       a->opt.mib_layout == MIB_LAYOUT_PERCPU
			       ? "page-aligned"
			       : "interleaved, power-of-two stride",
		       mib_set_bytes(a->mibs) >> 10);
	}
	printf(" (%zu KiB of EAL heap)%s%s\n", a->mib_heap_bytes >> 10,
	       a->opt.fold_on_read ? "; readers fold" : "",
	       app_devices_text(a, devtext, sizeof(devtext)));
}

static void
cleanup(struct app *a)
{
	unsigned int i;

	export_http_stop(a->http);
	export_telemetry_unregister();
	app_devices_free(a);
	stats_free(a->stats);
	app_perf_free(a);
	json_decref(a->info);
	app_ingress_teardown(a);
	pkt_capture_free(a->cap);
	for (i = 0; i < PEER_LAYOUT_MAX; i++)
		peer_table_free(a->peer_tables[i]);
	json_decref(a->compare);
	json_decref(a->flips);
	app_conditions_free(&a->cond);
	stats_series_free(a->series);
	for (i = 0; i < a->n_workers; i++) {
		path_frag_free(a->workers[i].frag);
		pkt_gen_fini(&a->workers[i].gen);
		rte_mempool_free(a->workers[i].mp);
	}
	if (a->ports != NULL) {
		app_ports_close(a);
		for (i = 0; i < a->n_ports; i++)
			rte_mempool_free(a->ports[i].mp);
	}
	free(a->ports);
	pkt_templates_free(a->tpl);
	mib_set_free(a->mibs);
	rte_free(a->workers);
	free(a->lcore_ids);
	free(a->clocks);
}

int
main(int argc, char **argv)
{
	struct app *a = &the_app;
	struct stats_conf sc;
	enum app_help help = app_options_wants_help(argc, argv);
	char variants[512];
	int ret, rc;

	app_console_open();

	/* --help and its kin need no EAL */
	if (help != APP_HELP_NONE) {
		app_options_help(stdout, help, argv[0]);
		return 0;
	}
	/* EAL rewrites argv: keep a copy for the JSON "args". */
	app_argc = argc;
	app_argv = calloc((size_t)argc + 1, sizeof(*app_argv));
	for (ret = 0; app_argv != NULL && ret < argc; ret++)
		app_argv[ret] = strdup(argv[ret]);
	if (app_argv == NULL)
		app_argc = 0;

	/* EAL; hugepage files never outlive the process, nor what it makes
	 * of the EAL's runtime directory (host.h) */
	argv = host_eal_args(&argc, argv);
	host_leave_as_found(argc, argv);
	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		rte_exit(APP_EXIT_USAGE, "rte_eal_init: %s (see --help for EAL options)\n",
			 rte_strerror(rte_errno));
	argc -= ret;
	argv += ret;
	pktpath_logtype = rte_log_register_type_and_pick_level("pktpath",
							       RTE_LOG_INFO);
	if (pktpath_logtype < 0)
		pktpath_logtype = RTE_LOGTYPE_USER1;

	/* options */
	rc = app_options_parse(argc, argv, &a->opt);
	if (rc == 1) {
		rte_eal_cleanup();
		return 0;
	}
	if (rc != 0)
		app_usage_exit(NULL);

	/* setup */
	app_setup(a);
	memset(&sc, 0, sizeof(sc));
	sc.set = a->mibs;
	sc.n_workers = a->n_workers;
	sc.lcore_ids = a->lcore_ids;
	sc.fold = a->opt.fold;
	sc.n_phantom = a->n_phantom;
	sc.fold_on_read = a->opt.fold_on_read;
	sc.interval_s = a->opt.interval_s;
	/* --warmup auto: from the start; stats_series_steady() moves it */
	sc.warmup_s = a->opt.warmup_s < 0 ? 0 : a->opt.warmup_s;
	sc.on_publish = print_interval;
	sc.publish_arg = a;
	sc.perf = (struct stats_perf *const *)a->perf;
	sc.clocks = a->clocks;
	sc.pmu = a->opt.pmu.n > 0 ? &a->opt.pmu : NULL;
	sc.lost_share = a->opt.lost_share_pct / 100;
	a->series = stats_series_create(a->n_workers, 0.5 * a->opt.interval_s,
					sc.lost_share);
	if (a->series == NULL)
		rte_exit(EXIT_FAILURE, "stats_series_create: out of memory\n");
	if (a->opt.duration_s <= 0) {
		/* until a signal: the history keeps the last intervals that
		 * fit its budget, so that memory stays flat */
		unsigned int keep =
			stats_series_points_in(a->n_workers, APP_HISTORY_ENDLESS_BYTES);

		stats_series_window(a->series, keep);
		APP_LOG(INFO,
			"endless run: the history keeps its last %u intervals "
			"(%llu MiB); the steady state and the JSON's intervals cover them",
			keep - 1, APP_HISTORY_ENDLESS_BYTES >> 20);
	}
	/* A live snapshot's laws may be off by each worker's unflushed polls
	 * (path counters move per packet, Rx ones every APP_FLUSH_POLLS) plus
	 * a burst in flight and one raced by the fold. */
	sc.inflight_max = (uint64_t)a->n_workers * (APP_FLUSH_POLLS + 2) *
			  app_compare_max(&a->opt.cmp, APP_KNOB_BURST, a->opt.burst);
	if (app_ports_stats_conf(a, &sc) != 0)
		rte_exit(EXIT_FAILURE, "app_ports_stats_conf: out of memory\n");
	a->stats = stats_create(&sc);
	if (a->stats == NULL)
		rte_exit(EXIT_FAILURE, "stats_create: %s\n", rte_strerror(rte_errno));
	printf("pktpath %s: %u worker%s, source %s, path %s, %s, TSC %.3f GHz\n",
	       PKTPATH_VERSION, a->n_workers, a->n_workers == 1 ? "" : "s",
	       app_source_name(a->opt.source), app_path_name(a->opt.path),
	       app_options_variant_text(&a->opt, variants, sizeof(variants)),
	       (double)rte_get_tsc_hz() / 1e9);
	printf("memory: %s\n", export_memory_kind());
	read_conditions(a);
	print_mib(a);
	fflush(stdout);
	if (a->opt.duration_s > 0 && a->opt.cmp.n == 0 && a->opt.warmup_s < 0 &&
	    a->opt.duration_s < (STATS_WARMUP_MIN_INTERVALS - 0.05) * a->opt.interval_s)
		printf("note: no steady summary: warm-up detection needs %u "
		       "intervals; --duration %g is too short for "
		       "--interval %g (--warmup SECONDS sets the warm-up by hand)\n",
		       STATS_WARMUP_MIN_INTERVALS, a->opt.duration_s, a->opt.interval_s);
	if (a->opt.duration_s > 0 && a->opt.cmp.n == 0 && a->opt.warmup_s >= 0 &&
	    a->opt.duration_s < a->opt.warmup_s + 0.95 * a->opt.interval_s)
		printf("note: no steady summary: --duration %g ends before "
		       "--warmup %g + one --interval %g\n", a->opt.duration_s,
		       a->opt.warmup_s, a->opt.interval_s);
	if (a->opt.pmu.n > 0) {
		char names[STATS_PMU_MAX * STATS_PMU_NAME_LEN];

		stats_pmu_conf_names(&a->opt.pmu, names, sizeof(names));
		printf("pmu: %s on each worker's thread from its first poll%s, read "
		       "each interval; and around the stats thread's folds%s\n", names,
		       stats_pmu_conf_has_hw(&a->opt.pmu) ? " (hardware events in user "
		       "space)" : "", a->opt.fold_on_read ? " and every read's" : "");
		if (a->opt.stage_cycles) {
			const struct stats_pmu_event *sw = NULL;
			unsigned int i;

			for (i = 0; i < a->opt.pmu.n && sw == NULL; i++)
				if (!stats_pmu_event_is_hw(&a->opt.pmu.ev[i]))
					sw = &a->opt.pmu.ev[i];
			if (sw != NULL)
				printf("pmu: per stage (--stage-cycles): %s is a software "
				       "event, which rdpmc cannot read: every stage mark "
				       "reads the group with read(2), a system call each, "
				       "much slower than rdpmc (the stage cycles leave the "
				       "reads out, the busy cycles do not)\n",
				       sw->name);
			else
				printf("pmu: per stage (--stage-cycles): every stage mark "
				       "reads the group with rdpmc (no system call)\n");
		}
	}
	app_host_warn_shared_cpus(a);

	/* launch, wait */
	launch_and_wait(a);

	/* report */
	rc = report(a);

	/* cleanup */
	cleanup(a);
	rte_eal_cleanup();
	return rc;
}
