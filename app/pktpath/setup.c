/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The application's set-up, between the options and the launch (main.c):
 * the workers (lcores, and the queues they poll), the path configuration,
 * the generator, the MIB blocks, --perf-detail, the ingress hook, the
 * peers, capture and the ports. Every user mistake it finds is one line
 * and exit code 2 (app_usage_exit()), EAL's memory running short included
 * (app_oom_exit()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "app.h"
#include "base.h"
#include "perf_log.h"
#include "port.h"

/* A user error after EAL is up: one line, release EAL, exit 2. */
void
app_usage_exit(const char *fmt, ...)
{
	va_list ap;

	if (fmt != NULL) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	rte_eal_cleanup();
	exit(APP_EXIT_USAGE);
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
		app_usage_exit("pktpath: --pool-layout packed: needs IOVA as VA "
			   "(EAL --iova-mode=va); the EAL chose PA");

	a->workers = rte_zmalloc("workers", RTE_MAX_LCORE * sizeof(*a->workers),
				 RTE_CACHE_LINE_SIZE);
	a->lcore_ids = calloc(RTE_MAX_LCORE, sizeof(*a->lcore_ids));
	a->clocks = calloc(RTE_MAX_LCORE, sizeof(*a->clocks));
	/* rte_zmalloc() sets no rte_errno: its failure is said as what it is */
	if (a->workers == NULL)
		app_oom_exit("the workers' state", RTE_MAX_LCORE * sizeof(*a->workers),
			     "fewer lcores (-l)");
	if (a->lcore_ids == NULL || a->clocks == NULL)
		rte_exit(EXIT_FAILURE, "calloc(lcore_ids, clocks): %s\n", strerror(errno));

	if (o->source == APP_SRC_PORT && nb_ports == 0)
		app_usage_exit("pktpath: --source port: no ethdev port (give -a PCI_ADDR "
			   "or --vdev net_null0)");

	if (o->source == APP_SRC_PORT && o->n_rxq > 0) {
		for (i = 0; i < o->n_rxq; i++) {
			const struct app_rxq *q = &o->rxq[i];

			if (!rte_lcore_is_enabled(q->lcore))
				app_usage_exit("pktpath: --rxq: lcore %u is not enabled (-l)",
					   q->lcore);
			if (q->lcore == main_lcore && !o->main_worker)
				app_usage_exit("pktpath: --rxq: lcore %u is the main lcore; "
					   "add --main-worker to poll on it", q->lcore);
			if (lcore_in_use(a, q->lcore))
				app_usage_exit("pktpath: --rxq: lcore %u is mapped twice",
					   q->lcore);
			if (!rte_eth_dev_is_valid_port(q->port))
				app_usage_exit("pktpath: --rxq: port %u does not exist "
					   "(%u port%s)", q->port, nb_ports,
					   nb_ports == 1 ? "" : "s");
			a->workers[n].lcore = q->lcore;
			a->workers[n].port = q->port;
			a->workers[n].queue = q->queue;
			n++;
			a->n_workers = n;
		}
		/* the one option whose effect the EAL's lcores decide */
		if (o->main_worker && !lcore_in_use(a, main_lcore))
			app_usage_exit("pktpath: --main-worker has no effect: --rxq maps "
				   "no queue to the main lcore %u (it needs --rxq "
				   "%u:PORT.QUEUE)", main_lcore, main_lcore);
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
		app_usage_exit("pktpath: no worker lcore: give -l with 2 or more lcores "
			   "(e.g. -l 0-1), or --main-worker");
	for (i = 0; i < n; i++) {
		struct app_worker *w = &a->workers[i];

		w->idx = i;
		w->clock = &a->clocks[i];
		w->socket = (int)rte_lcore_to_socket_id(w->lcore);
		w->source = o->source;
		w->burst = o->burst;
		w->stall_cycles = o->stall_us == 0 ? UINT64_MAX :
				  RTE_MAX((uint64_t)o->stall_us * rte_get_tsc_hz() /
					  1000000, (uint64_t)1);
		w->prefetch = o->prefetch;
		w->stage_cycles = o->stage_cycles;
		w->stage_pmu = o->stage_cycles && o->pmu.n > 0;
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
	if (o->n_local6 > 0) {
		for (i = 0; i < o->n_local6; i++)
			path_conf_add_local6(pc, o->local6[i].addr,
					     o->local6[i].prefix_len);
	} else if (o->flow.family != PKT_FAMILY_IPV4) {
		/* the generator's destinations, each in its /64 */
		uint8_t a[16];
		uint32_t k;

		memcpy(a, o->flow.dst6, 16);
		for (k = 0; k < o->flow.dst6_n && k < PATH_MAX_LOCAL6; k++) {
			path_conf_add_local6(pc, a, 64);
			if (++a[15] == 0 && ++a[14] == 0 && ++a[13] == 0)
				++a[12];
		}
	}
	for (i = 0; i < o->n_mcast6; i++)
		path_conf_add_mcast6(pc, o->mcast6[i]);
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
	pc->vlan = o->vlan;
}

/* The templates: synthesised (--flows x --pkt-size) or a pcap file's
 * frames (--template), sized against the machine first; a signal stops
 * them between two frames. */
/* The fragments --frag makes of flow 0's datagram in family fam (0: the
 * flow description cannot be built, which its own checks report). */
static uint32_t
__frag_count(const struct pkt_flow_conf *c, enum pkt_family fam)
{
	struct pkt_flow_conf x = *c;
	struct pkt_templates *t;
	uint32_t n;

	x.family = (uint8_t)fam;
	x.flows = 1;
	t = pkt_templates_build(&x, NULL);
	n = t != NULL ? t->n : 0;
	pkt_templates_free(t);
	return n;
}

/* --frag: every family the generator sends must be split, or --frag
 * measures nothing there (exit 2). */
static void
setup_frag_check(const struct pkt_flow_conf *c)
{
	unsigned int f;

	for (f = 0; c->frag_size != 0 && f < PKT_FAMILY_MIXED; f++)
		if ((c->family == PKT_FAMILY_MIXED || c->family == f) &&
		    __frag_count(c, (enum pkt_family)f) == 1)
			app_usage_exit("pktpath: --frag: %u bytes: an %s datagram of "
				       "--pkt-size %u fits in one fragment (nothing to "
				       "reassemble): a smaller --frag or a larger "
				       "--pkt-size",
				       c->frag_size,
				       f == PKT_FAMILY_IPV4 ? "IPv4" : "IPv6",
				       c->pkt_size);
}

static void
setup_templates(struct app *a)
{
	const struct app_options *o = &a->opt;
	struct pkt_limits lim = { .cancel = &app_quit };
	char err[512], says[160], what[128];

	if (o->template_file[0] != '\0') {
		/* the file's size is about the frames': known once it is open */
		lim.mem_max = app_mem_host(says, sizeof(says));
		a->tpl = pkt_templates_from_pcap(o->template_file,
			(uint16_t)RTE_MIN(PKT_MAX_SIZE, UINT16_MAX), &lim, err,
			sizeof(err));
		if (a->tpl == NULL && errno == EINTR)
			app_setup_quit("--template");
		if (a->tpl == NULL && errno == ENOMEM)
			app_usage_exit("pktpath: --template %s (%s)", err, says);
		if (a->tpl == NULL)
			app_usage_exit("pktpath: --template %s", err);
		return;
	}
	setup_frag_check(&o->flow);
	/* --frag named only when on (a datagram's fragments are templates) */
	if (o->flow.frag_size != 0)
		snprintf(what, sizeof(what),
			 "the templates of --flows %u --pkt-size %u --frag %u",
			 o->flow.flows, o->flow.pkt_size, o->flow.frag_size);
	else
		snprintf(what, sizeof(what), "the templates of --flows %u --pkt-size %u",
			 o->flow.flows, o->flow.pkt_size);
	app_mem_need(APP_MEM_HOST, what,
		     pkt_templates_bytes((uint64_t)o->flow.flows * pkt_frag_max(&o->flow),
					 o->flow.pkt_size),
		     "fewer flows (--flows) or smaller frames (--pkt-size)");
	a->tpl = pkt_templates_build(&o->flow, &lim);
	if (a->tpl == NULL && errno == EINTR)
		app_setup_quit("the templates");
	if (a->tpl == NULL && errno == ENOMEM)
		app_usage_exit("pktpath: out of memory for %s (%" PRIu64 " bytes)", what,
			       pkt_templates_bytes((uint64_t)o->flow.flows *
							   pkt_frag_max(&o->flow),
						   o->flow.pkt_size));
	if (a->tpl == NULL)
		app_usage_exit("pktpath: generator: invalid flow description (%s)",
			   strerror(errno));
}

static void
setup_generator(struct app *a)
{
	const struct app_options *o = &a->opt;
	enum pkt_alloc al;
	uint32_t nb;
	uint16_t room, burst;
	uint64_t need, gen;
	char what[160];
	const char *fix;
	unsigned int i;

	setup_templates(a);
	nb = RTE_MAX(o->mbufs, RTE_MIN(a->tpl->n, 8192u) + 3u * APP_MAX_BURST);
	room = (uint16_t)RTE_MAX((unsigned int)RTE_MBUF_DEFAULT_BUF_SIZE,
				 (unsigned int)a->tpl->max_len + RTE_PKTMBUF_HEADROOM);
	need = pkt_pool_bytes(nb, room, app_pool_flags(o), app_mem_eal_page());
	/* and the generator's own beside its pool (--alloc slab: its
	 * pages), for the variant that takes most (--compare switches them
	 * in place): counted with the pool, the message names the pool */
	burst = (uint16_t)app_compare_max(&o->cmp, APP_KNOB_BURST, o->burst);
	gen = 0;
	for (al = 0; al < PKT_ALLOC_MAX; al++)
		if (al == o->alloc || app_compare_has(&o->cmp, APP_KNOB_ALLOC, al))
			gen = RTE_MAX(gen, pkt_gen_bytes(a->tpl, al, burst));
	need += gen;
	fix = a->n_workers > 1 ? "fewer mbufs per worker (--mbufs) or fewer "
	      "workers (-l)" : "fewer mbufs (--mbufs)";
	snprintf(what, sizeof(what), "the mbuf pools of %u worker%s (%u mbufs of "
		 "%u bytes each)", a->n_workers, a->n_workers == 1 ? "" : "s", nb,
		 (unsigned int)room);
	app_mem_need(APP_MEM_EAL, what, need * a->n_workers, fix);
	for (i = 0; i < a->n_workers; i++) {
		struct app_worker *w = &a->workers[i];
		char name[RTE_MEMPOOL_NAMESIZE];
		int rc;

		app_setup_quit("the mbuf pools");
		snprintf(name, sizeof(name), "gen%u_pool", i);
		w->mp = pkt_pool_create(name, nb, 256, room, w->socket,
					app_pool_flags(o));
		if (w->mp == NULL && rte_errno == ENOMEM) {
			snprintf(what, sizeof(what), "the mbuf pool of worker %u of %u "
				 "(%u mbufs of %u bytes)", i + 1, a->n_workers, nb,
				 (unsigned int)room);
			app_oom_exit(what, need, fix);
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

/* The run's history keeps a point per interval (main.c, the stats
 * thread): over a long run at a short --interval, gigabytes. */
static void
setup_history(struct app *a)
{
	const struct app_options *o = &a->opt;
	double run_s = o->cmp.n > 0 ? (double)o->rounds * o->cmp.n *
					      (o->duration_s + o->phase_warmup_s)
				    : o->duration_s;
	double points = run_s / o->interval_s + 2;
	char what[160];

	if (run_s <= 0)		/* until a signal: as long as the machine lasts */
		return;
	snprintf(what, sizeof(what), "the run's history (%.0f intervals of "
		 "--interval %g)", points - 1, o->interval_s);
	app_mem_need(APP_MEM_HOST, what,
		     points >= (double)UINT64_MAX / 4096 ? UINT64_MAX :
		     stats_series_bytes(a->n_workers, (uint64_t)points),
		     "a longer --interval or a shorter --duration");
}

void
app_setup(struct app *a)
{
	int *sockets;
	unsigned int i, n_blocks;
	enum mib_layout l;
	size_t heap0;
	int rc;
	uint64_t need = 0;
	const char *fix;
	char what[192];

	app_setup_quit("EAL's start");
	setup_workers(a);
	/* --pmu: what this machine cannot count is refused here, in one
	 * line, rather than printed as zeros */
	if (a->opt.pmu.n > 0) {
		char line[512];

		if (stats_pmu_probe(&a->opt.pmu, NULL, line, sizeof(line)) != 0)
			app_usage_exit("pktpath: %s", line);
	}
	/* --json, stdout: refused now, not after the run (outputs.c) */
	app_outputs_setup(a);
	setup_history(a);

	/* One MIB block per worker, on its socket, the control block, then
	 * the phantom lcores' (--mib-lcores), round-robin over the sockets
	 * as an N-CPU server's would be: nobody writes them. */
	if (a->opt.mib_lcores != 0 && a->opt.mib_lcores < a->n_workers)
		app_usage_exit("pktpath: --mib-lcores %u: fewer than the %u worker%s' "
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
	/* --compare mib-layout=...: a copy of every block in each layout it
	 * lists, the workers writing one (compare_switch.c) */
	for (l = 0; l < MIB_LAYOUT_MAX; l++)
		if (l == a->opt.mib_layout ||
		    app_compare_has(&a->opt.cmp, APP_KNOB_MIB_LAYOUT, l))
			need += mib_set_bytes_for(n_blocks, l);
	snprintf(what, sizeof(what),
		 "the MIB blocks of %u lcores (%u blocks of %u "
		 "bytes, %s: %" PRIu64 " KiB)",
		 a->n_workers + a->n_phantom, n_blocks, MIB_BLOCK_BYTES,
		 app_compare_knob(&a->opt.cmp, APP_KNOB_MIB_LAYOUT) >= 0
			 ? "in both layouts"
			 : "page-aligned",
		 need >> 10);
	fix = a->n_phantom ? "fewer lcores (--mib-lcores)" : "fewer workers (-l)";
	if (app_mem_fits(APP_MEM_EAL, what, need, fix) != 0) {
		free(sockets);
		app_usage_exit(NULL);
	}
	heap0 = heap_alloc_bytes();
	a->mibs = mib_set_create(n_blocks, a->opt.mib_layout, sockets);
	if (a->mibs == NULL && rte_errno == ENOMEM)
		app_oom_exit(what, need, fix);
	if (a->mibs == NULL)
		rte_exit(EXIT_FAILURE, "mib_set_create(%u): %s\n", n_blocks,
			 rte_strerror(rte_errno));
	for (l = 0, rc = 0; l < MIB_LAYOUT_MAX && rc == 0; l++)
		if (l != a->opt.mib_layout &&
		    app_compare_has(&a->opt.cmp, APP_KNOB_MIB_LAYOUT, l))
			rc = mib_set_add_layout(a->mibs, l, sockets);
	a->mib_heap_bytes = heap_alloc_bytes() - heap0;
	free(sockets);
	if (rc == -ENOMEM)
		app_oom_exit(what, need, fix);
	if (rc != 0)
		rte_exit(EXIT_FAILURE, "mib_set_add_layout(%u): %s\n", n_blocks,
			 strerror(-rc));
	for (i = 0; i < a->n_workers; i++)
		a->workers[i].mib = mib_set_block(a->mibs, i);
	a->ctl_mib = mib_set_block(a->mibs, a->n_workers);
	if (a->opt.perf_detail) {
		need = (uint64_t)a->n_workers *
		       RTE_ALIGN_CEIL(sizeof(struct stats_perf), 4096);
		app_mem_need(APP_MEM_EAL, "the --perf-detail blocks", need,
			     "fewer workers (-l)");
	}
	if (app_perf_setup(a) != 0)
		app_oom_exit("the --perf-detail blocks", need, "fewer workers (-l)");

	app_devices_setup(a);
	app_setup_quit("the MIB blocks");
	if (app_ingress_setup(a) != 0)
		app_usage_exit(NULL);
	app_setup_quit("the ingress hook");

	if (a->opt.peer) {
		uint32_t n = a->opt.peers ? a->opt.peers :
			a->opt.flow.src_hi - a->opt.flow.src_lo + 1;
		enum peer_layout l;
		int rc;

		if (n > PEER_MAX)
			app_usage_exit("pktpath: --peers: %u source addresses, at most %u peers "
				   "(give --peers)", n, PEER_MAX);
		for (l = 0; l < PEER_LAYOUT_MAX; l++) {
			struct peer_table *t;

			/* --compare peer-layout=...: a table per layout */
			if (l != a->opt.peer_layout &&
			    !app_compare_has(&a->opt.cmp, APP_KNOB_PEER_LAYOUT, l))
				continue;
			/* the layout named when there are two tables */
			if (app_compare_knob(&a->opt.cmp, APP_KNOB_PEER_LAYOUT) >= 0)
				snprintf(what, sizeof(what),
					 "the peer table (%u peers, %s)", n,
					 peer_layout_name(l));
			else
				snprintf(what, sizeof(what), "the peer table (%u peers)",
					 n);
			need = peer_table_bytes(n, l);
			app_mem_need(APP_MEM_EAL, what, need, "fewer peers (--peers)");
			t = peer_table_create(n, l, (int)rte_socket_id());
			if (t == NULL && rte_errno == ENOMEM)
				app_oom_exit(what, need, "fewer peers (--peers)");
			if (t == NULL)
				rte_exit(EXIT_FAILURE, "peer_table_create(%u): %s\n", n,
					 rte_strerror(rte_errno));
			rc = peer_table_add_range(t, a->opt.flow.src_lo, n);
			if (rc != 0)
				rte_exit(EXIT_FAILURE, "peer_table_add_range: %s\n",
					 strerror(-rc));
			rc = peer_table_share(t, a->n_workers, a->opt.peer_share);
			if (rc != 0)
				rte_exit(EXIT_FAILURE, "peer_table_share(%u, %u): %s\n",
					 a->n_workers, a->opt.peer_share, strerror(-rc));
			a->peer_tables[l] = t;
		}
		a->peers = a->peer_tables[a->opt.peer_layout];
		for (i = 0; i < a->n_workers; i++)
			a->workers[i].peers = a->peers;
	}

	/* reassembly, both families: each worker's queues, on its socket */
	for (i = 0; i < a->n_workers; i++) {
		struct path_frag_conf fc = {
			.high_thresh = a->opt.frag_high,
			.timeout = (uint64_t)a->opt.frag_time * rte_get_tsc_hz(),
			.high_thresh6 = a->opt.frag6_high,
			.timeout6 = (uint64_t)a->opt.frag6_time * rte_get_tsc_hz(),
			.rlim = {
				.on = true,
				.msgs_per_sec = a->opt.icmp_msgs_per_sec,
				.msgs_burst = a->opt.icmp_msgs_burst,
				.ratelimit6_ms = a->opt.icmp6_ratelimit,
				.hz = rte_get_tsc_hz(),
				.seed = PATH_RLIM_SEED ^ i,
			},
		};
		struct app_worker *w = &a->workers[i];

		snprintf(what, sizeof(what),
			 "the reassembly queues of worker %u "
			 "(--frag-high %" PRIu64 ", --frag6-high %" PRIu64 ")",
			 i, a->opt.frag_high, a->opt.frag6_high);
		need = path_frag_bytes(&fc);
		app_mem_need(APP_MEM_EAL, what, need,
			     "a smaller --frag-high or --frag6-high");
		w->frag = path_frag_create(&fc, w->socket);
		if (w->frag == NULL && rte_errno == ENOMEM)
			app_oom_exit(what, need, "a smaller --frag-high or --frag6-high");
		if (w->frag == NULL)
			rte_exit(EXIT_FAILURE, "path_frag_create: %s\n",
				 rte_strerror(rte_errno));
	}

	if (a->opt.capture[0] != '\0') {
		char err[512];

		snprintf(what, sizeof(what), "the capture rings of %u worker%s (%u "
			 "slots of %u bytes each)", a->n_workers,
			 a->n_workers == 1 ? "" : "s", a->opt.capture_ring,
			 a->opt.capture_snaplen);
		fix = "fewer slots (--capture-ring) or fewer bytes a slot "
		      "(--capture-snaplen)";
		need = pkt_capture_bytes(a->n_workers, a->opt.capture_ring,
					 a->opt.capture_snaplen);
		app_mem_need(APP_MEM_EAL, what, need, fix);
		a->cap = pkt_capture_create(a->opt.capture, a->n_workers,
					    a->opt.capture_max, a->opt.capture_ring,
					    a->opt.capture_snaplen, a->ctl_mib, err,
					    sizeof(err));
		if (a->cap == NULL && errno == ENOMEM)
			app_oom_exit(what, need, fix);
		if (a->cap == NULL)
			app_usage_exit("pktpath: --capture %s", err);
		for (i = 0; i < a->n_workers; i++) {
			a->workers[i].cap = a->cap;
			a->workers[i].cap_what = a->opt.capture_what;
		}
	}

	app_setup_quit("the capture");
	if (a->opt.source == APP_SRC_GEN) {
		setup_path_conf(a, &a->gen_pc);
		{
			static const struct rte_ether_addr port_mac = PKT_GEN_PORT_MAC;

			a->gen_pc.mac = port_mac;
		}
		if (app_gen_csum_setup(a) != 0)
			app_usage_exit(NULL);
		for (i = 0; i < a->n_workers; i++)
			a->workers[i].pc = &a->gen_pc;
		setup_generator(a);
		app_setup_quit("the generator");
	} else {
		for (i = 0; i < a->n_ports; i++)
			setup_path_conf(a, &a->ports[i].pc);
		/* the last step: a signal after it ends the run, which then
		 * puts the ports back as they were */
		if (app_ports_setup(a) != 0) {
			app_ports_close(a);
			app_usage_exit(NULL);
		}
		for (i = 0; i < a->n_workers; i++) {
			unsigned int p;

			for (p = 0; p < a->n_ports; p++)
				if (a->ports[p].id == a->workers[i].port)
					a->workers[i].pc = &a->ports[p].pc;
		}
	}
}
