/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-lcore receive loop (pktgen netif_receive style): one loop
 * (__loop()), one burst pipeline (__burst(): rx, l2, ingress, ip/l4, peer,
 * capture, free, each stage marked where it ends) and a table of named
 * variants (loop_variants[]). As in VPP's ip4_input, the loop is one
 * inline body taking the run's options as flags (enum loop_flag); a
 * variant is a function that fixes some of them as constants, so that it
 * carries none of the code of the options it has not and tests none of
 * those it has, and tests the rest at run time. A run takes the first
 * row whose fixed flags are its own, loop_generic() (every flag tested at
 * run time) if none is. The path's stages (path.h, inline) are compiled
 * into each.
 */
#include <assert.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "app.h"
#include "worker_perf.h"

struct app *app_worker_app;

void
app_workers_bind(struct app *a)
{
	app_worker_app = a;
}

static __rte_always_inline bool
__running(void)
{
	return __atomic_load_n(&app_worker_app->run, __ATOMIC_RELAXED) != 0;
}

/* The run's options, as the loop sees them (__run_flags()). */
enum loop_flag {
	LOOP_GEN = 1 << 0,	/* --source gen (else port) */
	LOOP_FULL = 1 << 1,	/* --path full (else rx-only: none of the next 4) */
	LOOP_PREFETCH = 1 << 2, /* --prefetch on */
	LOOP_HOOK = 1 << 3,	/* the ingress hook (--ingress, --compare) */
	LOOP_PEER = 1 << 4,	/* --peer on */
	LOOP_CAPTURE = 1 << 5,	/* --capture */
	LOOP_STAGES = 1 << 6,	/* --stage-cycles: the stage marks */
	LOOP_PERF = 1 << 7,	/* --perf-detail: the histograms */
	LOOP_STAGE_PMU = 1 << 8, /* --pmu with --stage-cycles: marks read it */
	LOOP_DEVS = 1 << 9,	 /* --mib-devices: each burst to its device */
};
#define LOOP_ALL ((unsigned int)LOOP_DEVS * 2 - 1)

/* Per-poll Rx counters are kept in registers and flushed to the MIB block
 * every APP_FLUSH_POLLS polls (and when the loop ends): a few microseconds
 * of staleness for the stats thread, no memory traffic per burst. */
#define FLUSH_POLLS APP_FLUSH_POLLS

struct rx_acc {
	uint64_t packets, bursts, empty, nombuf, nopath, busy, idle;
	uint64_t lost, lost_polls;	/* polls longer than --stall-us */
	uint64_t rcu_quiescent;	/* Ingress RcuQuiescent (hook loops) */
	/* The same packets and cycles, for the Mode group: all in mode. */
	uint64_t m_packets, m_busy, m_idle, m_lost;
	unsigned int mode;
};

/* The Mode group counts per enum ingress_mode, in its order. */
static_assert(MIB_MODES == INGRESS_MODE_MAX && INGRESS_OFF == 0 &&
	      INGRESS_RCU == MIB_MODES - 1, "Mode group and ingress modes disagree");

static __rte_always_inline void
__flush_mode(struct mib_block *mib, struct rx_acc *a)
{
	mib_add(mib, MIB_MODE_F(a->mode, MIB_MODE_K_PACKETS), a->m_packets);
	mib_add(mib, MIB_MODE_F(a->mode, MIB_MODE_K_BUSY), a->m_busy);
	mib_add(mib, MIB_MODE_F(a->mode, MIB_MODE_K_IDLE), a->m_idle);
	mib_add(mib, MIB_MODE_F(a->mode, MIB_MODE_K_LOST), a->m_lost);
	a->m_packets = a->m_busy = a->m_idle = a->m_lost = 0;
}

static __rte_always_inline void
__flush(struct mib_block *mib, struct rx_acc *a)
{
	mib_add(mib, MIB_F(RX, PACKETS), a->packets);
	mib_add(mib, MIB_F(RX, BURSTS), a->bursts);
	mib_add(mib, MIB_F(RX, EMPTYPOLLS), a->empty);
	mib_add(mib, MIB_F(RX, NOMBUF), a->nombuf);
	mib_add(mib, MIB_F(RX, NOPATH), a->nopath);
	mib_add(mib, MIB_F(RX, BUSYCYCLES), a->busy);
	mib_add(mib, MIB_F(RX, IDLECYCLES), a->idle);
	mib_add(mib, MIB_F(RX, LOSTCYCLES), a->lost);
	mib_add(mib, MIB_F(RX, LOSTPOLLS), a->lost_polls);
	mib_add(mib, MIB_F(INGRESS, RCUQUIESCENT), a->rcu_quiescent);
	__flush_mode(mib, a);
	a->packets = a->bursts = a->empty = a->nombuf = a->nopath = 0;
	a->busy = a->idle = a->lost = a->lost_polls = a->rcu_quiescent = 0;
}

/* Follow the worker's ingress mode (hook loops): what was counted so far
 * belongs to the mode it was counted in, so a change flushes it first. A
 * burst then counts in the mode ingress_burst() classified it in, an empty
 * poll in the mode the worker took at the top of the loop. */
static __rte_always_inline void
__sync_mode(const struct app_worker *w, struct mib_block *mib, struct rx_acc *a)
{
	unsigned int m = ingress_worker_mode(w->ig, w->idx);

	if (unlikely(m != a->mode)) {
		__flush_mode(mib, a);
		a->mode = m;
	}
}

/* --capture: copy the packet if it is of the kind asked for (what). */
static __rte_always_inline void
__capture(struct app_worker *w, enum pkt_capture_what what, const struct rte_mbuf *m,
	  unsigned int out, uint64_t tsc)
{
	bool take;

	switch (what) {
	case PKT_CAPTURE_DROPS:
		take = !path_outcome_delivered(out);
		break;
	case PKT_CAPTURE_MARKED:
		take = (m->ol_flags & RTE_MBUF_F_RX_FDIR_ID) != 0;
		break;
	default:
		take = true;
		break;
	}
	if (take)
		pkt_capture_packet(w->cap, w->idx, m, tsc, &w->mib);
}

/* A poll's cycles (those since the previous poll's TSC read) to busy if it
 * carried packets (n), else idle; and to the histograms under
 * --perf-detail. A poll longer than --stall-us spans time the worker did
 * not run (a preemption, SIGSTOP, a hypervisor's steal: no burst of the
 * path comes near it), so its cycles are lost, neither busy nor idle, and
 * no rate charges them to the packets; its packets still count. */
static __rte_always_inline void
__poll_end(struct app_worker *w, struct mib_block *mib, struct rx_acc *acc,
	   uint64_t cycles, uint16_t n, uint64_t now, const unsigned int f)
{
	bool lost = cycles > w->stall_cycles;

	if (unlikely(lost)) {
		acc->lost += cycles;
		acc->m_lost += cycles;
		acc->lost_polls++;
	} else if (n) {
		acc->busy += cycles;
		acc->m_busy += cycles;
	} else {
		acc->idle += cycles;
		acc->m_idle += cycles;
	}
	if (f & LOOP_STAGES)
		app_stage_poll_end(&w->stage_acc, lost);
	if (f & LOOP_STAGE_PMU)
		app_stage_pmu_poll_end(&w->stage_pmu_acc, lost);
	if (f & LOOP_PERF)
		__perf_poll(w, mib, cycles, n, acc->mode, (f & LOOP_HOOK) != 0, now,
			    lost);
}

/* What a loop reads of its worker once, before its first poll (so that
 * no store to the worker's MIB block, which lies in it, makes the
 * compiler read them again), and keeps between two bursts. */
struct loop_ctx {
	struct app_worker *w;
	struct mib_block *mib;
	const struct path_conf *pc;
	const struct peer_table *peers;
	struct ingress *ig;
	enum pkt_capture_what cap_what;
	struct rx_acc *acc;	  /* the Rx counters (flushed by the loop) */
	struct path_tally *tally; /* the path's, flushed every burst */
	struct path_frag *frag;	  /* its reassembly queues */
	unsigned int idx;
	uint16_t burst;
	uint16_t port, queue;
};

/* --stage-cycles: the stage that began at *t ends now (stage.h). Nothing
 * where f's LOOP_STAGES is a constant 0. With --pmu (LOOP_STAGE_PMU) the
 * worker's group is read there too (stage_pmu.h), and the next stage
 * begins after the read: its cycles leave the read out. */
static __rte_always_inline void
__stage_end(const struct loop_ctx *c, const unsigned int f, unsigned int stage,
	    uint64_t *t, unsigned int pkts)
{
	if (!(f & LOOP_STAGES))
		return;
	app_stage_mark(&c->w->stage_acc, stage, t, pkts);
	if (f & LOOP_STAGE_PMU) {
		app_stage_pmu_read(&c->w->stage_pmu_acc, &c->w->clock->group, stage);
		*t = rte_rdtsc();
	}
}

/*
 * The pipeline: one burst from the receive to the free, its stages in
 * their order, each marked where it ends (__stage_end(): its cycles under
 * --stage-cycles). t0 is the poll's TSC read, where the rx stage begins.
 * Returns the packets received, 0 for an empty poll.
 *
 * The burst goes through the stages one after the other, each over all
 * its packets (VPP's vector style), except where the variant fuses them:
 * one that fixes LOOP_STAGES off (nothing marked) and has a peer or a
 * capture stage takes each packet through ip, peer and capture in turn
 * (one pass a packet: lo = p, hi = p + 1; one slot for its outcome), as
 * the kernel's receive path does, which spares it the re-reading of every
 * packet a stage (callgrind: 5.5 instructions a packet fewer with the peer
 * stage, 8.6 with a capture). The burst's counters go into the MIB block
 * where their stage ends (RxOctets: l2; the path's tally: the last stage
 * that adds to it, or, fused, the end of the passes).
 */
static_assert(MIB_FIELD_MAX <= UINT16_MAX, "an outcome fits a uint16_t");

/*
 * STAGE(name, code...): a stage's code in __burst(). In pktpath the code in
 * place. In pktpath-stages (-Dstage_functions: worker.c built with
 * APP_STAGE_FUNCTIONS) a function of its own, stage_<name>, never inlined,
 * so that callgrind and its cache simulator count each stage apart
 * (scripts/counts.py): a GNU C nested function, which reads the burst's
 * variables through its frame and gets the run's flags f as its argument
 * (a constant there, which gcc's cloning may fold).
 */
/* clang-format would reflow the code STAGE() takes */
/* clang-format off */
#ifdef APP_STAGE_FUNCTIONS
#define STAGE(name, ...)                                                        \
	do {                                                                    \
		__rte_noinline void stage_##name(const unsigned int f)          \
		{                                                               \
			__VA_ARGS__                                             \
		}                                                               \
		stage_##name(f);                                                \
	} while (0)
#else
#define STAGE(name, ...)                                                        \
	do {                                                                    \
		__VA_ARGS__                                                     \
	} while (0)
#endif

static __rte_always_inline uint16_t
__burst(struct loop_ctx *c, const uint64_t t0, const unsigned int f,
	const unsigned int fixed)
{
	const bool fused = (fixed & LOOP_STAGES) && !(f & LOOP_STAGES) &&
			   (f & (LOOP_PEER | LOOP_CAPTURE));
	struct rte_mbuf *pkts[APP_MAX_BURST];
	struct path_l2 l2[APP_MAX_BURST];
	uint16_t out[APP_MAX_BURST];
	uint8_t keep[APP_MAX_BURST];
	struct app_worker *w = c->w;
	struct mib_block *mib = c->mib;
	unsigned int kept = 0, delivered = 0, passes, p;
	uint64_t t = t0, t_ig = 0;
	uint16_t n = 0;

	/* --pmu per stage: the group where the rx stage begins */
	if ((f & LOOP_STAGES) && (f & LOOP_STAGE_PMU)) {
		app_stage_pmu_read(&w->stage_pmu_acc, &w->clock->group, MIB_STAGES);
		t = rte_rdtsc();
	}

	/* rx */
	STAGE(rx,
		if (f & LOOP_GEN)
			n = pkt_gen_burst(&w->gen, pkts, c->burst);
		else
			n = rte_eth_rx_burst(c->port, c->queue, pkts, c->burst);
	);
	if (unlikely(n == 0)) {
		c->acc->empty++;
		if (f & LOOP_GEN)
			c->acc->nombuf++;
		return 0;
	}
	c->acc->packets += n;
	c->acc->bursts++;
	__stage_end(c, f, MIB_STAGE_RX, &t, n);

	if (!(f & LOOP_FULL)) {
		/* The testpmd rxonly baseline: receive and free, touching
		 * no packet (so RxOctets is not counted). */
		c->acc->nopath += n;
		goto stage_free;
	}

	/* l2: eth_type_trans, RxOctets */
	STAGE(l2,
		uint64_t octets = 0;
		unsigned int i;

		if (f & LOOP_PREFETCH)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[0], void *));
		for (i = 0; i < n; i++) {
			if ((f & LOOP_PREFETCH) && i + 1 < n)
				rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
			octets += rte_pktmbuf_pkt_len(pkts[i]);
			path_l2(c->pc, pkts[i], &l2[i], mib);
		}
		mib_add(mib, MIB_F(RX, OCTETS), octets);
	);
	__stage_end(c, f, MIB_STAGE_L2, &t, n);

	/* ingress: the hook on the raw frames, as tc ingress sees them */
	if (f & LOOP_HOOK) {
		if (f & LOOP_PERF)
			t_ig = (f & LOOP_STAGES) ? t : rte_rdtsc();
		STAGE(ingress, ingress_burst(c->ig, c->idx, pkts, n, keep, mib););
		__stage_end(c, f, MIB_STAGE_INGRESS, &t, n);
		if (f & LOOP_PERF)
			__perf_ingress(w, ((f & LOOP_STAGES) ? t : rte_rdtsc()) - t_ig);
	}

	passes = fused ? n : 1;
	for (p = 0; p < passes; p++) {
		const unsigned int lo = fused ? p : 0, hi = fused ? p + 1 : n;

		/* ip: ip_rcv to the L4 handler, for the frames kept */
		STAGE(ip,
			unsigned int i;

			for (i = lo; i < hi; i++) {
				uint16_t *o = &out[fused ? 0 : i];

				*o = MIB_F(INGRESS, DROPPED);
				if (!(f & LOOP_HOOK) || keep[i]) {
					*o = (uint16_t)path_rcv_tally(c->pc, pkts[i], &l2[i],
								      mib, c->tally, c->frag);
					kept++;
				}
			}
		);
		if (!fused && !(f & LOOP_PEER))
			path_tally_flush(c->tally, mib);
		__stage_end(c, f, MIB_STAGE_IP, &t, kept);

		/* peer: the inetpeer-like stage, for the frames delivered */
		if (f & LOOP_PEER) {
			STAGE(peer,
				unsigned int i;

				for (i = lo; i < hi; i++)
					if (path_outcome_delivered(out[fused ? 0 : i])) {
						path_peer_tally(c->peers, pkts[i], &l2[i], c->idx,
								t0, c->tally);
						delivered++;
					}
			);
			if (!fused)
				path_tally_flush(c->tally, mib);
			__stage_end(c, f, MIB_STAGE_PEER, &t, delivered);
		}

		/* capture: --capture's test and copy */
		if (f & LOOP_CAPTURE) {
			STAGE(capture,
				unsigned int i;

				for (i = lo; i < hi; i++)
					__capture(w, c->cap_what, pkts[i], out[fused ? 0 : i],
						  t0);
			);
			__stage_end(c, f, MIB_STAGE_CAPTURE, &t, n);
		}
	}
	if (fused)
		path_tally_flush(c->tally, mib);
	/* --mib-devices: the burst's IPv6 counters, all flushed now */
	if (f & LOOP_DEVS)
		app_devices_burst(w->dev, mib);

stage_free:
	/* free: a port's burst as testpmd frees it where its mbufs allow */
	STAGE(free,
		if (f & LOOP_GEN)
			pkt_gen_done(&w->gen, pkts, n);
		else
			pkt_free_burst(pkts, n);
	);
	__stage_end(c, f, MIB_STAGE_FREE, &t, n);

	if (f & LOOP_HOOK)
		__sync_mode(w, mib, c->acc); /* the mode it ran in */
	c->acc->m_packets += n;
	return n;
}
/* clang-format on */

/*
 * The loop: the poll's bookkeeping (the quiescent report, the poll's
 * cycles, the mode, the Rx counters' flush every FLUSH_POLLS polls), then
 * a burst through the pipeline. run is the run's flags; a variant fixes
 * those in fixed to their values in v (constants: the code of the others
 * is compiled out), and tests the rest at run time.
 */
static __rte_always_inline void
__loop(struct app_worker *w, unsigned int run, const unsigned int fixed,
       const unsigned int v)
{
	const unsigned int f = (run & ~fixed) | v;
	struct rx_acc acc = { .mode = INGRESS_OFF };
	struct path_tally tally;
	struct loop_ctx c = {
		.w = w,
		.mib = &w->mib,
		.pc = w->pc,
		.peers = w->peers,
		.ig = w->ig,
		.cap_what = w->cap_what,
		.acc = &acc,
		.tally = &tally,
		.frag = w->frag,
		.idx = w->idx,
		.burst = w->burst,
		.port = w->port,
		.queue = w->queue,
	};
	struct mib_block *mib = &w->mib;
	uint64_t prev = rte_rdtsc(), now;
	unsigned int polls = 0;
	uint16_t n = 0;

	path_tally_init(&tally);
	if (f & LOOP_DEVS)
		app_devices_sync(w->dev, mib);
	/* The first poll counts in the mode the worker is in (it was started
	 * in it: ingress_worker_start()), not in off. */
	if (f & LOOP_HOOK)
		acc.mode = ingress_worker_mode(c.ig, c.idx);
	/* A first poll's control activity is what began after this. */
	if ((f & LOOP_PERF) && (f & LOOP_HOOK))
		w->perf->ctl_last = ingress_activity(c.ig);
	/* The reassembly clock starts at the loop's first TSC read. */
	if (f & LOOP_FULL)
		path_frag_tick(c.frag, prev, mib);
	while (__running()) {
		/* A loop iteration is a quiescent state: nothing of the
		 * classifier is held across it. Also where a mode flip is
		 * taken when no traffic comes. Counted in the flush. */
		if (f & LOOP_HOOK)
			acc.rcu_quiescent +=
				ingress_worker_quiescent_uncounted(c.ig, c.idx);
		/* One TSC read per poll: the cycles since the previous read
		 * belong to the previous poll. */
		now = rte_rdtsc();
		__poll_end(w, mib, &acc, now - prev, n, now, f);
		prev = now;
		if (f & LOOP_HOOK)
			__sync_mode(w, mib, &acc);
		if (unlikely(++polls == FLUSH_POLLS)) {
			polls = 0;
			__flush(mib, &acc);
			/* reassembly: the clock, and the queues whose
			 * ipfrag_time passed (one compare), every FLUSH_POLLS
			 * polls, not every burst: a queue's deadline is then
			 * early by at most that many polls of ipfrag_time's
			 * seconds */
			if (f & LOOP_FULL)
				path_frag_tick(c.frag, now, mib);
			/* what the timer counted, on idle polls too */
			if (f & LOOP_DEVS)
				app_devices_burst(w->dev, mib);
			if (f & LOOP_STAGES)
				app_stage_flush(mib, &w->stage_acc);
			if (f & LOOP_STAGE_PMU)
				app_stage_pmu_flush(&w->stage_pmu_acc,
						    w->clock->stage_pmu);
		}
		n = __burst(&c, now, f, fixed);
	}
	now = rte_rdtsc();
	__poll_end(w, mib, &acc, now - prev, n, now, f);
	if (f & LOOP_PERF)
		stats_perf_finish(w->perf);
	__flush(mib, &acc);
	if (f & LOOP_DEVS) /* the loop's start's tick, if no flush came */
		app_devices_burst(w->dev, mib);
	if (f & LOOP_STAGES)
		app_stage_flush(mib, &w->stage_acc);
	if (f & LOOP_STAGE_PMU)
		app_stage_pmu_flush(&w->stage_pmu_acc, w->clock->stage_pmu);
}

/* Whether the worker generates under --alloc slab. */
static bool
__slab_gen(const struct app_worker *w)
{
	return w->source == APP_SRC_GEN && w->gen.alloc == PKT_ALLOC_SLAB;
}

/* The run's flags: what its options ask of the loop. */
static unsigned int
__run_flags(const struct app_worker *w)
{
	unsigned int f = 0;

	if (w->source == APP_SRC_GEN)
		f |= LOOP_GEN;
	if (w->full) {
		f |= LOOP_FULL;
		/* Under --alloc slab, --prefetch is the slab's next-object
		 * prefetch (app_worker_main()): the header's stays on. */
		if (w->prefetch || __slab_gen(w))
			f |= LOOP_PREFETCH;
		if (w->ig != NULL)
			f |= LOOP_HOOK;
		if (w->peers != NULL)
			f |= LOOP_PEER;
		if (w->cap != NULL)
			f |= LOOP_CAPTURE;
		if (w->dev != NULL)
			f |= LOOP_DEVS;
	}
	if (w->stage_cycles)
		f |= LOOP_STAGES;
	if (w->stage_pmu)
		f |= LOOP_STAGE_PMU;
	if (w->perf_detail)
		f |= LOOP_PERF;
	return f;
}

/*
 * What the variants fix, measured with callgrind (the performance journal,
 * scripts/bench.d/journal/2026-12-02-dev.md): tested at run time instead
 * of fixed, the prefetch, the hook, the peer stage and the capture each
 * cost the full path 1.2-4.4% more instructions, the source and
 * --perf-detail (a test a poll) nothing. So the full path's variants fix
 * the former and test the latter. Every named variant fixes --stage-cycles
 * (issue 22: an uninstrumented loop has no mark, not a test of the flag
 * per stage), the default and the hook with a marked twin beside the plain
 * one (the runs that ask for stages: 2026-12-02-stages.md); the peer and
 * capture variants fix it off to fuse their stages (__burst()). On
 * rx-only's 16 instructions a packet a test a burst costs 1-2%: its
 * variants fix every flag.
 */
#define FIXED_FULL                                                          \
	(LOOP_FULL | LOOP_PREFETCH | LOOP_HOOK | LOOP_PEER | LOOP_CAPTURE | \
	 LOOP_STAGES | LOOP_STAGE_PMU | LOOP_DEVS)

static void
loop_full_prefetch(struct app_worker *w, unsigned int run)
{
	__loop(w, run, FIXED_FULL, LOOP_FULL | LOOP_PREFETCH);
}

static void
loop_full_prefetch_stages(struct app_worker *w, unsigned int run)
{
	__loop(w, run, FIXED_FULL, LOOP_FULL | LOOP_PREFETCH | LOOP_STAGES);
}

static void
loop_full(struct app_worker *w, unsigned int run)
{
	__loop(w, run, FIXED_FULL, LOOP_FULL);
}

static void
loop_full_prefetch_hook(struct app_worker *w, unsigned int run)
{
	__loop(w, run, FIXED_FULL, LOOP_FULL | LOOP_PREFETCH | LOOP_HOOK);
}

static void
loop_full_prefetch_hook_stages(struct app_worker *w, unsigned int run)
{
	__loop(w, run, FIXED_FULL, LOOP_FULL | LOOP_PREFETCH | LOOP_HOOK | LOOP_STAGES);
}

static void
loop_full_prefetch_peer(struct app_worker *w, unsigned int run)
{
	__loop(w, run, FIXED_FULL, LOOP_FULL | LOOP_PREFETCH | LOOP_PEER);
}

static void
loop_full_prefetch_capture(struct app_worker *w, unsigned int run)
{
	__loop(w, run, FIXED_FULL, LOOP_FULL | LOOP_PREFETCH | LOOP_CAPTURE);
}

static void
loop_full_prefetch_devs(struct app_worker *w, unsigned int run)
{
	__loop(w, run, FIXED_FULL, LOOP_FULL | LOOP_PREFETCH | LOOP_DEVS);
}

static void
loop_gen_rx_only(struct app_worker *w, unsigned int run)
{
	__loop(w, run, LOOP_ALL, LOOP_GEN);
}

static void
loop_port_rx_only(struct app_worker *w, unsigned int run)
{
	__loop(w, run, LOOP_ALL, 0);
}

/* Every other run: each flag tested at run time. */
static void
loop_generic(struct app_worker *w, unsigned int run)
{
	__loop(w, run, 0, 0);
}

/*
 * The specialised variants, by name, with what each fixes (as its
 * function does). A row is here because `scripts/bench.sh hotpath`
 * measures runs of it (app/pktpath/README.md): full-prefetch the default
 * (with --alloc bulk, --mib-layout, --fold, --main-worker, and --source
 * port), full --prefetch off, then --ingress, --peer on, --capture and
 * --path rx-only; port-rx-only is the testpmd comparison's; the -stages
 * rows are the default's and the hook's under --stage-cycles; -devs is the
 * default's under --mib-devices, so that the default keeps no test of it
 * (its cost a packet: scripts/bench.d/journal/2026-12-02-devapp.md). Every
 * row fixes LOOP_STAGE_PMU off: --pmu with --stage-cycles (each mark reads
 * the group: stage_pmu.h) takes generic, which tests it at each mark. A row of
 * its own changed gcc's inlining of the path into the default's variant
 * (callgrind, before the reassembly call was shortened: 275.41
 * instructions a packet to 273.42, its code no longer the same), which
 * must not move: the journal, 2026-12-02-stagepmu.md.
 */
static const struct loop_variant {
	const char *name;
	unsigned int fixed; /* the flags it fixes */
	unsigned int flags; /* their values */
	void (*loop)(struct app_worker *w, unsigned int run);
} loop_variants[] = {
	{ "full-prefetch", FIXED_FULL, LOOP_FULL | LOOP_PREFETCH, loop_full_prefetch },
	{ "full-prefetch-stages", FIXED_FULL, LOOP_FULL | LOOP_PREFETCH | LOOP_STAGES,
	  loop_full_prefetch_stages },
	{ "full", FIXED_FULL, LOOP_FULL, loop_full },
	{ "full-prefetch-hook", FIXED_FULL, LOOP_FULL | LOOP_PREFETCH | LOOP_HOOK,
	  loop_full_prefetch_hook },
	{ "full-prefetch-hook-stages", FIXED_FULL,
	  LOOP_FULL | LOOP_PREFETCH | LOOP_HOOK | LOOP_STAGES,
	  loop_full_prefetch_hook_stages },
	{ "full-prefetch-peer", FIXED_FULL, LOOP_FULL | LOOP_PREFETCH | LOOP_PEER,
	  loop_full_prefetch_peer },
	{ "full-prefetch-capture", FIXED_FULL, LOOP_FULL | LOOP_PREFETCH | LOOP_CAPTURE,
	  loop_full_prefetch_capture },
	{ "full-prefetch-devs", FIXED_FULL, LOOP_FULL | LOOP_PREFETCH | LOOP_DEVS,
	  loop_full_prefetch_devs },
	{ "gen-rx-only", LOOP_ALL, LOOP_GEN, loop_gen_rx_only },
	{ "port-rx-only", LOOP_ALL, 0, loop_port_rx_only },
	{ "generic", 0, 0, loop_generic }, /* the last: every run */
};

static const struct loop_variant *
__variant(unsigned int run)
{
	unsigned int i;

	for (i = 0; (run & loop_variants[i].fixed) != loop_variants[i].flags; i++)
		;
	return &loop_variants[i];
}

const char *
app_worker_loop_name(const struct app_worker *w)
{
	return __variant(__run_flags(w))->name;
}

int
app_worker_main(void *arg)
{
	struct app_worker *w = arg;
	const bool hook = (__run_flags(w) & LOOP_HOOK) != 0;
	const struct loop_variant *v;
	unsigned int run;

	if (hook)
		ingress_worker_start(w->ig, w->idx);
	stats_worker_begin(w->clock);
	/* Again after a --compare switch, in the variant of the new options. */
	do {
		/* --prefetch under --alloc slab: the slab cache's next-object
		 * prefetch, taken here as the loop's flags are. */
		if (__slab_gen(w))
			pkt_gen_prefetch(&w->gen, w->prefetch);
		run = __run_flags(w);
		v = __variant(run);
		APP_LOG(DEBUG, "worker %u on lcore %u: loop %s", w->idx, w->lcore,
			v->name);
		v->loop(w, run);
	} while (app_worker_pause(w));
	stats_worker_end(w->clock);
	/* Offline: no writer or mode flip waits for a stopped worker. */
	if (hook)
		ingress_worker_stop(w->ig, w->idx);
	return 0;
}
