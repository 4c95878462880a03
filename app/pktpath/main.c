/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pktpath: the Linux IPv4 receive path in user space, measured.
 *
 * main(): signals -> EAL -> options -> setup -> launch -> wait -> report ->
 * cleanup, in the order of DPDK's l2fwd. Every setup failure names the call
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
#include "perf_log.h"
#include "export_series.h"
#include "port.h"

#define EXIT_USAGE 2

int pktpath_logtype;
volatile sig_atomic_t app_quit;
volatile sig_atomic_t app_sighup;
volatile sig_atomic_t app_sigusr1;

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
	case SIGHUP:
		app_sighup = 1;
		break;
	case SIGUSR1:
		app_sigusr1 = 1;
		break;
	}
}

static void
signals_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
}

static void
usage_exit(const char *fmt, ...) __rte_format_printf(1, 2) __rte_noreturn;

/* A user error after EAL is up: one line, release EAL, exit 2. */
static void
usage_exit(const char *fmt, ...)
{
	va_list ap;

	if (fmt != NULL) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	rte_eal_cleanup();
	exit(EXIT_USAGE);
}

static void
oom_exit(const char *what, const char *fix) __rte_noreturn;

/* EAL's memory cannot hold what the options ask for: that is a user
 * mistake like any other (one line naming the options to change, exit 2),
 * not EAL's two-line rte_exit. */
static void
oom_exit(const char *what, const char *fix)
{
	struct rte_malloc_socket_stats st;
	size_t total = 0, avail = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) == 0) {
			total += st.heap_totalsz_bytes;
			avail += st.heap_freesz_bytes;
		}
	usage_exit("pktpath: out of memory for %s: EAL's heap has %zu MiB, %zu MiB "
		   "free; give EAL more memory (-m MB, or hugepages) or %s", what,
		   total >> 20, avail >> 20, fix);
}

static bool
lcore_in_use(const struct app *a, unsigned int lcore)
{
	unsigned int i;

	for (i = 0; i < a->n_workers; i++)
		if (a->workers[i].lcore == lcore)
			return true;
	return false;
}

/* Decide the workers: lcores, and for the port source their queues. */
static void
setup_workers(struct app *a)
{
	const struct app_options *o = &a->opt;
	unsigned int lcore, main_lcore = rte_get_main_lcore();
	unsigned int n = 0, i;
	uint16_t nb_ports = rte_eth_dev_count_avail();

	/* A packed mbuf may span two pages: contiguous for DMA only as VA. */
	if (o->pool_layout == PKT_POOL_LAYOUT_PACKED &&
	    rte_eal_iova_mode() != RTE_IOVA_VA)
		usage_exit("pktpath: --pool-layout packed: needs IOVA as VA "
			   "(EAL --iova-mode=va); the EAL chose PA");

	a->workers = rte_zmalloc("workers", RTE_MAX_LCORE * sizeof(*a->workers),
				 RTE_CACHE_LINE_SIZE);
	a->lcore_ids = calloc(RTE_MAX_LCORE, sizeof(*a->lcore_ids));
	if (a->workers == NULL || a->lcore_ids == NULL)
		rte_exit(EXIT_FAILURE, "rte_zmalloc(workers): %s\n",
			 rte_strerror(rte_errno));

	if (o->source == APP_SRC_PORT && nb_ports == 0)
		usage_exit("pktpath: --source port: no ethdev port (give -a PCI_ADDR "
			   "or --vdev net_null0)");

	if (o->source == APP_SRC_PORT && o->n_rxq > 0) {
		for (i = 0; i < o->n_rxq; i++) {
			const struct app_rxq *q = &o->rxq[i];

			if (!rte_lcore_is_enabled(q->lcore))
				usage_exit("pktpath: --rxq: lcore %u is not enabled (-l)",
					   q->lcore);
			if (q->lcore == main_lcore && !o->main_worker)
				usage_exit("pktpath: --rxq: lcore %u is the main lcore; "
					   "add --main-worker to poll on it", q->lcore);
			if (lcore_in_use(a, q->lcore))
				usage_exit("pktpath: --rxq: lcore %u is mapped twice",
					   q->lcore);
			if (!rte_eth_dev_is_valid_port(q->port))
				usage_exit("pktpath: --rxq: port %u does not exist "
					   "(%u port%s)", q->port, nb_ports,
					   nb_ports == 1 ? "" : "s");
			a->workers[n].lcore = q->lcore;
			a->workers[n].port = q->port;
			a->workers[n].queue = q->queue;
			n++;
			a->n_workers = n;
		}
	} else {
		if (o->main_worker)
			a->workers[n++].lcore = main_lcore;
		RTE_LCORE_FOREACH_WORKER(lcore)
			a->workers[n++].lcore = lcore;
		for (i = 0; i < n; i++) {
			a->workers[i].port = (uint16_t)(nb_ports ? i % nb_ports : 0);
			a->workers[i].queue = (uint16_t)(nb_ports ? i / nb_ports : 0);
		}
	}
	a->n_workers = n;
	if (n == 0)
		usage_exit("pktpath: no worker lcore: give -l with 2 or more lcores "
			   "(e.g. -l 0-1), or --main-worker");
	for (i = 0; i < n; i++) {
		struct app_worker *w = &a->workers[i];

		w->idx = i;
		w->socket = (int)rte_lcore_to_socket_id(w->lcore);
		w->source = o->source;
		w->burst = o->burst;
		w->prefetch = o->prefetch;
		w->stage_cycles = o->stage_cycles;
		w->full = o->path == APP_PATH_FULL;
		a->lcore_ids[i] = w->lcore;
	}

	if (o->source == APP_SRC_PORT) {
		uint16_t pid;

		a->ports = calloc(RTE_MAX_ETHPORTS, sizeof(*a->ports));
		if (a->ports == NULL)
			rte_exit(EXIT_FAILURE, "calloc(ports) failed\n");
		RTE_ETH_FOREACH_DEV(pid) {
			struct app_port *p = NULL;

			for (i = 0; i < n; i++) {
				if (a->workers[i].port != pid)
					continue;
				if (p == NULL) {
					p = &a->ports[a->n_ports++];
					p->id = pid;
				}
				if (a->workers[i].queue + 1u > p->nb_rxq)
					p->nb_rxq = a->workers[i].queue + 1u;
			}
		}
	}
}

static void
setup_path_conf(struct app *a, struct path_conf *pc)
{
	const struct app_options *o = &a->opt;
	unsigned int i;
	uint32_t d;

	path_conf_init(pc);
	if (o->n_local > 0) {
		for (i = 0; i < o->n_local; i++)
			path_conf_add_local(pc, o->local[i].addr, o->local[i].prefix_len);
	} else {
		for (d = o->flow.dst_lo; d <= o->flow.dst_hi && d != 0; d++)
			if (path_conf_add_local(pc, d, 24) != 0 || d == UINT32_MAX)
				break;
	}
	for (i = 0; i < o->n_mcast; i++)
		path_conf_add_mcast(pc, o->mcast[i]);
	if (o->udp_ports_set) {
		for (i = 0; i < o->n_udp_ports; i++)
			path_conf_add_udp_ports(pc, o->udp_ports[i][0],
						o->udp_ports[i][1]);
	} else {
		path_conf_add_udp_ports(pc, o->flow.dport_lo, o->flow.dport_hi);
	}
	for (i = 0; i < o->n_udplite_ports; i++)
		path_conf_add_udplite_ports(pc, o->udplite_ports[i][0],
					    o->udplite_ports[i][1]);
	pc->netlabel = o->kernel_netlabel;
	pc->pim = o->kernel_pim;
}

static void
setup_generator(struct app *a)
{
	const struct app_options *o = &a->opt;
	char err[512];
	unsigned int i;

	if (o->template_file[0] != '\0') {
		a->tpl = pkt_templates_from_pcap(o->template_file,
			(uint16_t)RTE_MIN(PKT_MAX_SIZE, UINT16_MAX), err, sizeof(err));
		if (a->tpl == NULL)
			usage_exit("pktpath: --template %s", err);
	} else {
		a->tpl = pkt_templates_build(&o->flow);
		if (a->tpl == NULL)
			usage_exit("pktpath: generator: invalid flow description (%s)",
				   strerror(errno));
	}
	for (i = 0; i < a->n_workers; i++) {
		struct app_worker *w = &a->workers[i];
		char name[RTE_MEMPOOL_NAMESIZE];
		uint32_t nb = RTE_MAX(o->mbufs,
			RTE_MIN(a->tpl->n, 8192u) + 3u * APP_MAX_BURST);
		uint16_t room = (uint16_t)RTE_MAX((unsigned int)RTE_MBUF_DEFAULT_BUF_SIZE,
			(unsigned int)a->tpl->max_len + RTE_PKTMBUF_HEADROOM);
		int rc;

		snprintf(name, sizeof(name), "gen%u_pool", i);
		w->mp = pkt_pool_create(name, nb, 256, room, w->socket,
					app_pool_flags(o));
		if (w->mp == NULL && rte_errno == ENOMEM) {
			char what[128];

			snprintf(what, sizeof(what), "the mbuf pool of worker %u of %u "
				 "(%u mbufs of %u bytes)", i + 1, a->n_workers, nb,
				 (unsigned int)room);
			oom_exit(what, a->n_workers > 1 ? "fewer mbufs per worker "
				 "(--mbufs) or fewer workers (-l)" : "fewer mbufs (--mbufs)");
		}
		if (w->mp == NULL)
			rte_exit(EXIT_FAILURE, "mbuf pool %s (%u mbufs): %s\n", name, nb,
				 rte_strerror(rte_errno));
		rc = pkt_gen_init(&w->gen, w->mp, a->tpl, o->alloc, o->burst);
		if (rc != 0)
			rte_exit(EXIT_FAILURE, "pkt_gen_init(worker %u): %s\n", i,
				 strerror(-rc));
		if (a->gen_pc.csum_hw)	/* --rx-csum hw: a NIC that verified them */
			w->gen.ol_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD |
					  RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	}
}

/* Bytes allocated from EAL's heaps, all sockets. */
static size_t
heap_alloc_bytes(void)
{
	struct rte_malloc_socket_stats st;
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) == 0)
			n += st.heap_allocsz_bytes;
	return n;
}

static void
setup(struct app *a)
{
	int *sockets;
	unsigned int i, n_blocks;
	size_t heap0;

	setup_workers(a);

	if (a->opt.json[0] != '\0') {
		FILE *f = fopen(a->opt.json, "w");

		if (f == NULL)
			usage_exit("pktpath: --json %s: %s", a->opt.json, strerror(errno));
		fclose(f);
	}

	/* One MIB block per worker, on its socket, the control block, then
	 * the phantom lcores' (--mib-lcores), round-robin over the sockets
	 * as an N-CPU server's would be: nobody writes them. */
	if (a->opt.mib_lcores != 0 && a->opt.mib_lcores < a->n_workers)
		usage_exit("pktpath: --mib-lcores %u: fewer than the %u worker%s' "
			   "lcores (give at least %u, or 0 for the workers' only)",
			   a->opt.mib_lcores, a->n_workers,
			   a->n_workers == 1 ? "" : "s", a->n_workers);
	a->n_phantom = a->opt.mib_lcores ? a->opt.mib_lcores - a->n_workers : 0;
	n_blocks = a->n_workers + 1 + a->n_phantom;
	sockets = calloc(n_blocks, sizeof(*sockets));
	if (sockets == NULL)
		rte_exit(EXIT_FAILURE, "calloc(sockets) failed\n");
	for (i = 0; i < a->n_workers; i++)
		sockets[i] = a->workers[i].socket;
	sockets[a->n_workers] = (int)rte_socket_id();
	for (i = 0; i < a->n_phantom; i++)
		sockets[a->n_workers + 1 + i] =
			rte_socket_id_by_idx(i % rte_socket_count());
	heap0 = heap_alloc_bytes();
	a->mibs = mib_set_create(n_blocks, a->opt.mib_layout, sockets);
	a->mib_heap_bytes = heap_alloc_bytes() - heap0;
	free(sockets);
	if (a->mibs == NULL && rte_errno == ENOMEM) {
		char what[160];

		snprintf(what, sizeof(what), "the MIB blocks of %u lcores (%u blocks "
			 "of %u bytes, page-aligned: %zu KiB)", a->n_workers +
			 a->n_phantom, n_blocks, MIB_BLOCK_BYTES,
			 mib_set_bytes_for(n_blocks, a->opt.mib_layout) >> 10);
		oom_exit(what, a->n_phantom ? "fewer lcores (--mib-lcores)" :
			 "fewer workers (-l)");
	}
	if (a->mibs == NULL)
		rte_exit(EXIT_FAILURE, "mib_set_create(%u): %s\n", n_blocks,
			 rte_strerror(rte_errno));
	for (i = 0; i < a->n_workers; i++)
		a->workers[i].mib = mib_set_block(a->mibs, i);
	a->ctl_mib = mib_set_block(a->mibs, a->n_workers);
	if (app_perf_setup(a) != 0)
		oom_exit("the --perf-detail blocks", "fewer workers (-l)");

	if (app_ingress_setup(a) != 0)
		usage_exit(NULL);

	if (a->opt.peer) {
		uint32_t n = a->opt.peers ? a->opt.peers :
			a->opt.flow.src_hi - a->opt.flow.src_lo + 1;
		int rc;

		if (n > PEER_MAX)
			usage_exit("pktpath: --peers: %u source addresses, at most %u peers "
				   "(give --peers)", n, PEER_MAX);
		a->peers = peer_table_create(n, a->opt.peer_layout, (int)rte_socket_id());
		if (a->peers == NULL && rte_errno == ENOMEM)
			oom_exit("the peer table", "fewer peers (--peers)");
		if (a->peers == NULL)
			rte_exit(EXIT_FAILURE, "peer_table_create(%u): %s\n", n,
				 rte_strerror(rte_errno));
		rc = peer_table_add_range(a->peers, a->opt.flow.src_lo, n);
		if (rc != 0)
			rte_exit(EXIT_FAILURE, "peer_table_add_range: %s\n", strerror(-rc));
		for (i = 0; i < a->n_workers; i++)
			a->workers[i].peers = a->peers;
	}

	if (a->opt.capture[0] != '\0') {
		char err[512];

		a->cap = pkt_capture_create(a->opt.capture, a->n_workers,
					    a->opt.capture_max, a->opt.capture_ring,
					    a->opt.capture_snaplen, err, sizeof(err));
		if (a->cap == NULL)
			usage_exit("pktpath: --capture %s", err);
		for (i = 0; i < a->n_workers; i++) {
			a->workers[i].cap = a->cap;
			a->workers[i].cap_what = a->opt.capture_what;
		}
	}

	if (a->opt.source == APP_SRC_GEN) {
		setup_path_conf(a, &a->gen_pc);
		{
			static const struct rte_ether_addr port_mac = PKT_GEN_PORT_MAC;

			a->gen_pc.mac = port_mac;
		}
		if (app_gen_csum_setup(a) != 0)
			usage_exit(NULL);
		for (i = 0; i < a->n_workers; i++)
			a->workers[i].pc = &a->gen_pc;
		setup_generator(a);
	} else {
		for (i = 0; i < a->n_ports; i++)
			setup_path_conf(a, &a->ports[i].pc);
		if (app_ports_setup(a) != 0) {
			app_ports_close(a);
			usage_exit(NULL);
		}
		for (i = 0; i < a->n_workers; i++) {
			unsigned int p;

			for (p = 0; p < a->n_ports; p++)
				if (a->ports[p].id == a->workers[i].port)
					a->workers[i].pc = &a->ports[p].pc;
		}
	}
}

static json_t *
run_info(const struct app *a)
{
	const struct app_options *o = &a->opt;
	json_t *args = json_array(), *lcores = json_array(), *cfg, *info;
	char cpu[256];
	int i;

	for (i = 0; i < app_argc; i++)
		json_array_append_new(args, json_string(app_argv[i]));
	for (i = 0; i < (int)a->n_workers; i++)
		json_array_append_new(lcores, json_integer(a->lcore_ids[i]));
	cfg = json_pack("{s:s, s:s, s:i, s:b, s:s, s:s, s:b, s:b, s:i, s:s, s:s, s:f, s:f, "
			"s:f, s:o}",
		"source", app_source_name(o->source),
		"path", app_path_name(o->path),
		"burst", o->burst,
		"main_worker", o->main_worker,
		"mib_layout", mib_layout_name(o->mib_layout),
		"fold", mib_fold_name(o->fold),
		"fold_on_read", o->fold_on_read,
		"perf_detail", o->perf_detail,
		"mib_lcores", a->n_workers + a->n_phantom,
		"pool_layout", pkt_pool_layout_name(o->pool_layout),
		"pool_order", pkt_pool_order_name(o->pool_order),
		"duration_s", o->duration_s,
		"interval_s", o->interval_s,
		"warmup_s", o->warmup_s,
		"worker_lcores", lcores);
	json_object_set_new(cfg, "stage_cycles", json_boolean(o->stage_cycles));
	/* --warmup auto: the steady state is detected (summary.steady_state) */
	if (o->warmup_s < 0)
		json_object_set_new(cfg, "warmup_s", json_string("auto"));
	if (o->perf_detail)
		json_object_set_new(cfg, "suspicious_us", json_integer(o->suspicious_us));
	if (o->source == APP_SRC_GEN) {
		json_object_set_new(cfg, "alloc", json_string(pkt_alloc_name(o->alloc)));
		json_object_set_new(cfg, "prefetch", json_boolean(o->prefetch));
		json_object_set_new(cfg, "pkt_size", json_integer(o->flow.pkt_size));
		json_object_set_new(cfg, "flows", json_integer(o->flow.flows));
		json_object_set_new(cfg, "templates", json_integer(a->tpl ? a->tpl->n : 0));
		if (o->template_file[0])
			json_object_set_new(cfg, "template", json_string(o->template_file));
	} else {
		json_object_set_new(cfg, "prefetch", json_boolean(o->prefetch));
		json_object_set_new(cfg, "ports", json_integer(a->n_ports));
	}
	json_object_set_new(cfg, "memory", json_string(export_memory_kind()));
	export_cpu_model(cpu, sizeof(cpu));
	info = json_pack("{s:s, s:s, s:s, s:I, s:o, s:o}",
		"version", PKTPATH_VERSION,
		"dpdk", rte_version(),
		"cpu", cpu,
		"tsc_hz", (json_int_t)rte_get_tsc_hz(),
		"args", args,
		"config", cfg);
	return info;
}

/* Wait for the end of the run, acting on signals. Runs on the main thread,
 * or on a control thread when the main lcore is a worker. */
static void *
control_loop(void *arg)
{
	struct app *a = arg;
	uint64_t hz = rte_get_tsc_hz();
	uint64_t end = a->opt.duration_s > 0 ?
		rte_get_tsc_cycles() + (uint64_t)(a->opt.duration_s * (double)hz) :
		UINT64_MAX;
	struct timespec tick = { 0, 5 * 1000 * 1000 };

	app_ingress_start(a);
	if (a->opt.n_compare > 0) {
		app_compare_run(a);
	} else {
		while (!app_quit && rte_get_tsc_cycles() < end) {
			nanosleep(&tick, NULL);
			app_ingress_signals(a);
			app_perf_drain(a);
		}
	}
	/* No rule update may wait on a worker that is about to stop, and no
	 * control request may start one again. */
	app_ingress_stop(a);
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
	a->info = run_info(a);
	rc = export_telemetry_register(a->stats, a->info, &hooks);
	if (rc != 0)
		APP_LOG(WARNING, "telemetry commands: %s", strerror(-rc));
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
	a->perf_start_tsc = rte_rdtsc();
	rc = stats_start(a->stats);
	if (rc != 0)
		rte_exit(EXIT_FAILURE, "stats_start: %s\n", strerror(-rc));
	if (start_endpoints(a) != 0) {
		stats_stop(a->stats);
		cleanup(a);
		rte_eal_cleanup();
		exit(EXIT_USAGE);
	}
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
	pkt_capture_stop(a->cap);	/* the workers are done: drain, close */
	stats_stop(a->stats);
}

static int
report(struct app *a)
{
	struct stats_summary *sum = stats_summary(a->stats);
	struct stats_snapshot *fin = stats_get(a->stats);
	struct stats_steady steady;
	bool have_steady = false;
	int rc = 0;

	app_perf_drain(a);	/* the workers stopped: their last events */
	/* The steady part: detected (--warmup auto) or from --warmup. Not
	 * for --compare: its intervals mix modes, and each phase has its own
	 * figures in the compare table. */
	if (sum != NULL && fin != NULL && a->series != NULL && a->opt.n_compare == 0)
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
		export_print_steady(stdout, &steady);
	else if (a->opt.n_compare > 0)
		printf("spread: none for the whole --compare run (its intervals mix "
		       "modes); each phase's intervals are in the JSON "
		       "(compare.modes[].rounds_intervals_mpps)\n");
	if (sum != NULL)
		app_ingress_report_rate(a, sum->total.seconds, stdout);
	if (fin != NULL)
		app_perf_report(a, fin->totals[MIB_F(RX, SUSPICIOUSPOLLS)], stdout);
	if (a->opt.json[0] != '\0' && fin != NULL) {
		json_t *info = json_incref(a->info);
		json_t *root = export_json(fin, sum, info, true);

		json_object_set_new(root, "ingress", app_ingress_info(a));
		if (a->perf_log != NULL)
			json_object_set_new(root, "suspicious", app_perf_json(a));
		if (a->peers != NULL)
			json_object_set_new(root, "peer", json_pack("{s:s, s:i, s:I}",
				"layout", peer_layout_name(peer_table_layout(a->peers)),
				"peers", (int)peer_table_count(a->peers),
				"refcnt_sum", (json_int_t)peer_table_refcnt_sum(a->peers)));
		if (a->compare != NULL)
			json_object_set(root, "compare", a->compare);
		if (a->series != NULL) {
			json_object_set_new(root, "intervals",
				export_intervals_json(a->series, a->lcore_ids));
			json_object_set_new(root, "events", export_events_json(a->series));
		}
		if (have_steady && json_object_get(root, "summary") != NULL)
			json_object_set_new(json_object_get(root, "summary"),
					    "steady_state", export_steady_json(&steady));

		if (json_dump_file(root, a->opt.json, JSON_INDENT(2) | JSON_SORT_KEYS) != 0) {
			fprintf(stderr, "pktpath: --json %s: cannot write\n", a->opt.json);
			rc = 1;
		}
		json_decref(root);
		json_decref(info);
	}
	stats_put(a->stats, fin);
	stats_summary_free(sum);
	return rc;
}

static void
cleanup(struct app *a)
{
	unsigned int i;

	export_http_stop(a->http);
	export_telemetry_unregister();
	stats_free(a->stats);
	app_perf_free(a);
	json_decref(a->info);
	app_ingress_teardown(a);
	pkt_capture_free(a->cap);
	peer_table_free(a->peers);
	json_decref(a->compare);
	stats_series_free(a->series);
	for (i = 0; i < a->n_workers; i++) {
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
}

int
main(int argc, char **argv)
{
	struct app *a = &the_app;
	struct stats_conf sc;
	enum app_help help = app_options_wants_help(argc, argv);
	int ret, rc;

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

	/* signals: first, so that a signal during EAL init or set-up is not
	 * lost to its default action: the run then ends as soon as it can,
	 * with its (empty) report. */
	signals_init();

	/* EAL; hugepage files never outlive the process (port.h) */
	argv = app_host_eal_args(&argc, argv);
	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		rte_exit(EXIT_USAGE, "rte_eal_init: %s (see --help for EAL options)\n",
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
		usage_exit(NULL);

	/* setup */
	setup(a);
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
	a->series = stats_series_create(a->n_workers, 0.5 * a->opt.interval_s);
	if (a->series == NULL)
		rte_exit(EXIT_FAILURE, "stats_series_create: out of memory\n");
	/* A live snapshot's laws may be off by each worker's unflushed polls
	 * (path counters move per packet, Rx ones every APP_FLUSH_POLLS) plus
	 * a burst in flight and one raced by the fold. */
	sc.inflight_max = (uint64_t)a->n_workers * (APP_FLUSH_POLLS + 2) *
			  a->opt.burst;
	if (app_ports_stats_conf(a, &sc) != 0)
		rte_exit(EXIT_FAILURE, "app_ports_stats_conf: out of memory\n");
	a->stats = stats_create(&sc);
	if (a->stats == NULL)
		rte_exit(EXIT_FAILURE, "stats_create: %s\n", rte_strerror(rte_errno));
	printf("pktpath %s: %u worker%s, source %s, path %s, burst %u, fold %s, "
	       "mib-layout %s, TSC %.3f GHz\n", PKTPATH_VERSION, a->n_workers,
	       a->n_workers == 1 ? "" : "s", app_source_name(a->opt.source),
	       app_path_name(a->opt.path), a->opt.burst, mib_fold_name(a->opt.fold),
	       mib_layout_name(a->opt.mib_layout), (double)rte_get_tsc_hz() / 1e9);
	printf("memory: %s\n", export_memory_kind());
	printf("mib: %u lcores' blocks (%u worker%s, %u phantom), %u bytes each, "
	       "%s: %zu KiB (%zu KiB of EAL heap)%s\n",
	       a->n_workers + a->n_phantom, a->n_workers,
	       a->n_workers == 1 ? "" : "s", a->n_phantom, MIB_BLOCK_BYTES,
	       a->opt.mib_layout == MIB_LAYOUT_PERCPU ? "page-aligned" :
	       "interleaved, power-of-two stride",
	       mib_set_bytes(a->mibs) >> 10, a->mib_heap_bytes >> 10,
	       a->opt.fold_on_read ? "; readers fold" : "");
	fflush(stdout);
	if (a->opt.duration_s > 0 && a->opt.n_compare == 0 && a->opt.warmup_s < 0 &&
	    a->opt.duration_s < (STATS_WARMUP_MIN_INTERVALS - 0.05) * a->opt.interval_s)
		printf("note: no steady summary: warm-up detection needs %u "
		       "intervals; --duration %g is too short for "
		       "--interval %g (--warmup SECONDS sets the warm-up by hand)\n",
		       STATS_WARMUP_MIN_INTERVALS, a->opt.duration_s, a->opt.interval_s);
	if (a->opt.duration_s > 0 && a->opt.n_compare == 0 && a->opt.warmup_s >= 0 &&
	    a->opt.duration_s < a->opt.warmup_s + 0.95 * a->opt.interval_s)
		printf("note: no steady summary: --duration %g ends before "
		       "--warmup %g + one --interval %g\n", a->opt.duration_s,
		       a->opt.warmup_s, a->opt.interval_s);
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
