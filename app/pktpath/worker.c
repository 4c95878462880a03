/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-lcore receive loop (pktgen netif_receive style). One inline body
 * takes its variants as constant flags (VPP ip4_input style): the source,
 * the path, prefetch, the ingress hook, the peer stage and capture. Thin
 * wrappers instantiate every combination, so no variant pays for another's
 * branches, and the path's stages (path.h, inline) are compiled into each.
 */
#include <assert.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "app.h"
#include "worker_perf.h"
#include "worker_pvt.h"

/* This file is compiled twice: here the default variants (instr false),
 * and in worker_instr.c, which defines WORKER_INSTR 1 and includes it,
 * the instrumented ones. Each in a unit of its own, so that the
 * instrumented ones (twice the code) leave the compiler's inlining budget
 * for the default ones as it was: those stay exactly as compiled before. */
#ifndef WORKER_INSTR
#define WORKER_INSTR 0
#endif

#if !WORKER_INSTR
struct app *app_worker_app;

void
app_workers_bind(struct app *a)
{
	app_worker_app = a;
}
#endif

static __rte_always_inline bool
__running(void)
{
	return __atomic_load_n(&app_worker_app->run, __ATOMIC_RELAXED) != 0;
}

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

/* --capture: copy the packet if it is of the kind asked for. */
static __rte_always_inline void
__capture(struct app_worker *w, const struct rte_mbuf *m, unsigned int out,
	  uint64_t tsc)
{
	bool take;

	switch (w->cap_what) {
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

/* L2 for a whole burst (before the ingress hook, which sees raw frames),
 * and the burst's RxOctets. */
static __rte_always_inline void
__l2_burst(const struct path_conf *pc, struct rte_mbuf **pkts, uint16_t n,
	   struct path_l2 *l2, struct mib_block *mib, const bool prefetch)
{
	uint64_t octets = 0;
	uint16_t i;

	if (prefetch)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[0], void *));
	for (i = 0; i < n; i++) {
		if (prefetch && i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		octets += rte_pktmbuf_pkt_len(pkts[i]);
		path_l2(pc, pkts[i], &l2[i], mib);
	}
	mib_add(mib, MIB_F(RX, OCTETS), octets);
}

/* A poll's cycles (those since the previous poll's TSC read) to busy if it
 * carried packets (n), else idle; and to the histograms under
 * --perf-detail. A poll longer than --stall-us spans time the worker did
 * not run (a preemption, SIGSTOP, a hypervisor's steal: no burst of the
 * path comes near it), so its cycles are lost, neither busy nor idle, and
 * no rate charges them to the packets; its packets still count. */
static __rte_always_inline void
__poll_end(struct app_worker *w, struct mib_block *mib, struct rx_acc *acc,
	   uint64_t cycles, uint16_t n, const bool hook, uint64_t now,
	   const bool instr)
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
	if (instr && w->perf_detail)
		__perf_poll(w, mib, cycles, n, acc->mode, hook, now, lost);
}

/*
 * The loop. The path's per-burst counters (path.h, struct path_tally) go to
 * tally, flushed into the block at the end of each burst; the Rx counters
 * to acc, flushed every FLUSH_POLLS polls.
 */
static __rte_always_inline void
__loop(struct app_worker *w, const bool gen, const bool full,
       const bool prefetch, const bool hook, const bool peer, const bool cap,
       const bool instr)
{
	struct rte_mbuf *pkts[APP_MAX_BURST];
	struct path_l2 l2[APP_MAX_BURST];
	uint8_t keep[APP_MAX_BURST];
	struct ingress *ig = w->ig;
	const struct peer_table *peers = w->peers;
	struct mib_block *mib = &w->mib;
	const struct path_conf *pc = w->pc;
	const uint16_t burst = w->burst;
	struct rx_acc acc = { .mode = INGRESS_OFF };
	struct path_tally tally;
	uint64_t prev = rte_rdtsc(), now, t_ig = 0;
	unsigned int polls = 0;
	uint16_t n = 0, i;

	path_tally_init(&tally);
	/* The first poll counts in the mode the worker is in (it was started
	 * in it: ingress_worker_start()), not in off. */
	if (hook)
		acc.mode = ingress_worker_mode(ig, w->idx);
	/* A first poll's control activity is what began after this. */
	if (instr && w->perf_detail && hook)
		w->perf->ctl_last = ingress_activity(ig);
	while (__running()) {
		/* A loop iteration is a quiescent state: nothing of the
		 * classifier is held across it. Also where a mode flip is
		 * taken when no traffic comes. Counted in the flush. */
		if (hook)
			acc.rcu_quiescent += ingress_worker_quiescent_uncounted(ig, w->idx);
		/* One TSC read per poll: the cycles since the previous read
		 * belong to the previous poll. */
		now = rte_rdtsc();
		__poll_end(w, mib, &acc, now - prev, n, hook, now, instr);
		prev = now;
		if (hook)
			__sync_mode(w, mib, &acc);
		if (unlikely(++polls == FLUSH_POLLS)) {
			polls = 0;
			__flush(mib, &acc);
			if (instr && w->stage_cycles)
				app_stage_flush(mib, &w->stage_acc);
		}

		if (gen)
			n = pkt_gen_burst(&w->gen, pkts, burst);
		else
			n = rte_eth_rx_burst(w->port, w->queue, pkts, burst);
		if (unlikely(n == 0)) {
			acc.empty++;
			if (gen)
				acc.nombuf++;
			continue;
		}
		acc.packets += n;
		acc.bursts++;
		if (!hook)
			acc.m_packets += n;	/* always off */
		/* --stage-cycles: the burst stage by stage, out of line
		 * (below, in the instrumented unit only), then the Mode
		 * and RxNoPath counting the untimed burst does. */
		if (instr && w->stage_cycles) {
			w->stage_burst(w, pkts, n, now);
			if (!full)
				acc.nopath += n;
			if (hook) {
				__sync_mode(w, mib, &acc);	/* the mode it ran in */
				acc.m_packets += n;
			}
			continue;
		}

		if (full && !hook) {
			uint64_t octets = 0;

			if (prefetch)
				rte_prefetch0(rte_pktmbuf_mtod(pkts[0], void *));
			for (i = 0; i < n; i++) {
				struct path_l2 fl2;
				unsigned int out;

				if (prefetch && i + 1 < n)
					rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
				octets += rte_pktmbuf_pkt_len(pkts[i]);
				path_l2(pc, pkts[i], &fl2, mib);
				out = path_rcv_tally(pc, pkts[i], &fl2, mib, &tally);
				if (peer && path_outcome_delivered(out))
					path_peer_tally(peers, pkts[i], &fl2, now, &tally);
				if (cap)
					__capture(w, pkts[i], out, now);
			}
			mib_add(mib, MIB_F(RX, OCTETS), octets);
			path_tally_flush(&tally, mib);
		} else if (full) {
			/* L2 for the burst, then the ingress hook on the raw
			 * frames (as tc ingress sees them), then ip_rcv for the
			 * frames it kept. */
			__l2_burst(pc, pkts, n, l2, mib, prefetch);
			if (instr && w->perf_detail)
				t_ig = rte_rdtsc();
			ingress_burst(ig, w->idx, pkts, n, keep, mib);
			if (instr && w->perf_detail)
				__perf_ingress(w, rte_rdtsc() - t_ig);
			__sync_mode(w, mib, &acc);	/* the mode it ran in */
			acc.m_packets += n;
			for (i = 0; i < n; i++) {
				unsigned int out = MIB_F(INGRESS, DROPPED);

				if (keep[i])
					out = path_rcv_tally(pc, pkts[i], &l2[i], mib,
							     &tally);
				if (peer && path_outcome_delivered(out))
					path_peer_tally(peers, pkts[i], &l2[i], now,
							&tally);
				if (cap)
					__capture(w, pkts[i], out, now);
			}
			path_tally_flush(&tally, mib);
		} else {
			/* The testpmd rxonly baseline: receive and free, touching
			 * no packet (so RxOctets is not counted). */
			acc.nopath += n;
		}

		if (gen)
			pkt_gen_done(&w->gen, pkts, n);
		else
			rte_pktmbuf_free_bulk(pkts, n);
	}
	now = rte_rdtsc();
	__poll_end(w, mib, &acc, now - prev, n, hook, now, instr);
	if (instr && w->perf_detail)
		stats_perf_finish(w->perf);
	__flush(mib, &acc);
	if (instr && w->stage_cycles)
		app_stage_flush(mib, &w->stage_acc);
}

/* Every variant of this unit: loop_<source>_rxonly_I, and
 * loop_<source>_full_PHECI, digits 0 or 1 for prefetch, the ingress hook,
 * the peer stage, capture and the instrumentation (I: WORKER_INSTR, for
 * --stage-cycles or --perf-detail, which the instrumented variants then
 * test at run time, so that the default loops carry none of it), in the
 * tables app_loops_rxonly_I[gen] and app_loops_full_I[gen][prefetch][hook]
 * [peer][capture] (worker_pvt.h). */
#define PASTE(a, b) a##b
#define XPASTE(a, b) PASTE(a, b)
/* The variant space, once for the loops and the staged bursts: DEF(s, gen,
 * full, prefetch, hook, peer, capture) for every combination, s the name's
 * suffix (<src>_rxonly_, <src>_full_PHEC), and the nested initialiser of a
 * [prefetch][hook][peer][capture] table of N(s). */
#define EACH_CA(DEF, src, g, p, h, pe) \
	DEF(src##_full_##p##h##pe##0, g, true, p, h, pe, false) \
	DEF(src##_full_##p##h##pe##1, g, true, p, h, pe, true)
#define EACH_PE(DEF, src, g, p, h) EACH_CA(DEF, src, g, p, h, 0) EACH_CA(DEF, src, g, p, h, 1)
#define EACH_IG(DEF, src, g, p) EACH_PE(DEF, src, g, p, 0) EACH_PE(DEF, src, g, p, 1)
#define EACH(DEF, src, g) \
	DEF(src##_rxonly_, g, false, false, false, false, false) \
	EACH_IG(DEF, src, g, 0) EACH_IG(DEF, src, g, 1)
#define ROW_CA(N, src, p, h, pe) { N(src##_full_##p##h##pe##0), N(src##_full_##p##h##pe##1) }
#define ROW_PE(N, src, p, h) { ROW_CA(N, src, p, h, 0), ROW_CA(N, src, p, h, 1) }
#define ROW_IG(N, src, p) { ROW_PE(N, src, p, 0), ROW_PE(N, src, p, 1) }
#define TABLE(N, src) { ROW_IG(N, src, 0), ROW_IG(N, src, 1) }

#define LOOP_FN(s) XPASTE(loop_##s, WORKER_INSTR)
#define LOOP_DEF(s, g, f, p, h, pe, ca) \
	static void LOOP_FN(s)(struct app_worker *w) \
	{ __loop(w, g, f, p, h, pe, ca, WORKER_INSTR); }
EACH(LOOP_DEF, gen, true)
EACH(LOOP_DEF, port, false)

const app_loop_fn XPASTE(app_loops_full_, WORKER_INSTR)[2][2][2][2][2] = {
	TABLE(LOOP_FN, port), TABLE(LOOP_FN, gen) };
const app_loop_fn XPASTE(app_loops_rxonly_, WORKER_INSTR)[2] = {
	LOOP_FN(port_rxonly_), LOOP_FN(gen_rxonly_) };

#if !WORKER_INSTR
int
app_worker_main(void *arg)
{
	struct app_worker *w = arg;
	bool gen = w->source == APP_SRC_GEN;
	bool hook = w->ig != NULL && w->full;
	bool instr = w->stage_cycles || w->perf_detail;

	APP_LOG(DEBUG, "worker %u on lcore %u: %s%s", w->idx, w->lcore,
		gen ? "gen" : "port", hook ? ", ingress hook" : "");
	if (hook)
		ingress_worker_start(w->ig, w->idx);
	stats_worker_begin(w->clock);
	/* Again after a --compare switch, in the new variant. */
	do {
		if (w->stage_cycles) {
			w->stage_burst =
				app_stage_burst(gen, w->full, w->prefetch, hook,
						w->peers != NULL, w->cap != NULL);
			w->stage_acc.stall_cycles = w->stall_cycles;
		}
		if (!w->full)
			(instr ? app_loops_rxonly_1 : app_loops_rxonly_0)[gen](w);
		else
			(instr ? app_loops_full_1
			       : app_loops_full_0)[gen][w->prefetch][hook]
						  [w->peers != NULL][w->cap != NULL](w);
	} while (app_worker_pause(w));
	stats_worker_end(w->clock);
	/* Offline: no writer or mode flip waits for a stopped worker. */
	if (hook)
		ingress_worker_stop(w->ig, w->idx);
	return 0;
}
#endif

#if WORKER_INSTR
static_assert(MIB_FIELD_MAX <= UINT16_MAX, "an outcome fits a uint16_t");

/*
 * --stage-cycles: a burst processed stage by stage over all its packets,
 * with one TSC read between two stages (stage.h), from t, the poll's read,
 * to the free; the same work as the loop above, reordered (its non-hook
 * loop interleaves L2 and ip_rcv per packet), so the same counters move.
 * Compiled in the instrumented unit only, out of line: the loop calls the
 * variant app_stage_burst() gave it, through w->stage_burst.
 * A stage the variant has not (no hook, no peer, no capture) is not timed.
 */
static __rte_always_inline void
__burst_staged(struct app_worker *w, struct rte_mbuf **pkts, uint16_t n,
	       const uint64_t t0, const bool gen, const bool full,
	       const bool prefetch, const bool hook, const bool peer,
	       const bool cap)
{
	struct app_stage_acc *st = &w->stage_acc;
	struct path_tally tally_s, *tally = &tally_s;
	struct path_l2 l2[APP_MAX_BURST];
	uint8_t keep[APP_MAX_BURST];
	uint16_t out[APP_MAX_BURST];
	struct mib_block *mib = &w->mib;
	const struct path_conf *pc = w->pc;
	uint64_t t = t0;
	unsigned int kept = 0, delivered = 0;
	uint16_t i;

	path_tally_init(tally);
	app_stage_mark(st, MIB_STAGE_RX, &t, n);
	if (full) {
		__l2_burst(pc, pkts, n, l2, mib, prefetch);
		app_stage_mark(st, MIB_STAGE_L2, &t, n);
		if (hook) {
			uint64_t t_ig = t;

			ingress_burst(w->ig, w->idx, pkts, n, keep, mib);
			app_stage_mark(st, MIB_STAGE_INGRESS, &t, n);
			if (w->perf_detail)	/* the same reads, both features on */
				__perf_ingress(w, t - t_ig);
		}
		for (i = 0; i < n; i++) {
			out[i] = MIB_F(INGRESS, DROPPED);
			if (!hook || keep[i]) {
				out[i] = (uint16_t)path_rcv_tally(pc, pkts[i], &l2[i],
								  mib, tally);
				kept++;
			}
		}
		if (!peer)
			path_tally_flush(tally, mib);
		app_stage_mark(st, MIB_STAGE_IP, &t, kept);
		if (peer) {
			for (i = 0; i < n; i++)
				if (path_outcome_delivered(out[i])) {
					path_peer_tally(w->peers, pkts[i], &l2[i], t0,
							tally);
					delivered++;
				}
			path_tally_flush(tally, mib);
			app_stage_mark(st, MIB_STAGE_PEER, &t, delivered);
		}
		if (cap) {
			for (i = 0; i < n; i++)
				__capture(w, pkts[i], out[i], t0);
			app_stage_mark(st, MIB_STAGE_CAPTURE, &t, n);
		}
	}
	if (gen)
		pkt_gen_done(&w->gen, pkts, n);
	else
		rte_pktmbuf_free_bulk(pkts, n);
	app_stage_mark(st, MIB_STAGE_FREE, &t, n);
}

/* Every staged variant: burst_<source>_rxonly_, burst_<source>_full_PHEC
 * (prefetch, the ingress hook, the peer stage, capture), as the loops'. */
#define BURST_FN(s) burst_##s
#define BURST_DEF(s, g, f, p, h, pe, ca) \
	static void BURST_FN(s)(struct app_worker *w, struct rte_mbuf **pkts, \
				uint16_t n, uint64_t t0) \
	{ __burst_staged(w, pkts, n, t0, g, f, p, h, pe, ca); }
EACH(BURST_DEF, gen, true)
EACH(BURST_DEF, port, false)

static const app_stage_burst_fn bursts_full[2][2][2][2][2] = {
	TABLE(BURST_FN, port), TABLE(BURST_FN, gen) };
static const app_stage_burst_fn bursts_rxonly[2] = {
	BURST_FN(port_rxonly_), BURST_FN(gen_rxonly_) };

app_stage_burst_fn
app_stage_burst(bool gen, bool full, bool prefetch, bool hook, bool peer, bool cap)
{
	if (!full)
		return bursts_rxonly[gen];
	return bursts_full[gen][prefetch][hook][peer][cap];
}
#endif
