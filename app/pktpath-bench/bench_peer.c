/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The inetpeer false-sharing stage in a tight loop: peer_lookup_get_put()
 * (lookup, atomic get, touch last-use, atomic put, Peer MIB counters) on
 * PB_PEERS peers, in the shared and the split layout,
 *  - on one lcore (no sharing: the reference figure),
 *  - on every lcore over the same peers (each walks all of them, starting
 *    at a different offset): refcnt lines are truly shared in both layouts,
 *    the key lines are dirtied too in the shared one,
 *  - on every lcore over disjoint peers (interleaved in the table): nothing
 *    is truly shared, so whatever the shared layout costs more is false
 *    sharing alone;
 *  - one reader and writers (the kernel thread's case reduced to its
 *    core): lcore 0 only looks peers up (peer_lookup(): the keys along the
 *    search path, no store), every other lcore takes and drops references
 *    and touches the last-use time of every peer. The reader's figure is
 *    the one to read: in the split layout no store reaches a line it reads.
 * After each run the stage's invariants are checked: refcounts sum to 0,
 * Lookups = Hits + Misses, Gets = Puts = Hits.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "mib.h"
#include "peer.h"
#include "pktpath_bench.h"

#define PB_PEERS 256u			/* a power of 2 */
#define PB_PEER_BASE 0x0a000001u	/* 10.0.0.1, host order */

enum peer_mode {
	PM_ONE,
	PM_SAME,
	PM_DISJOINT,
	PM_RW
};
#define PEER_PARAM(layout, mode) ((uintptr_t)(layout) | ((uintptr_t)(mode) << 4))
#define PEER_LAYOUT_OF(p) ((enum peer_layout)((p) & 0xf))
#define PEER_MODE_OF(p) ((enum peer_mode)((p) >> 4))

struct peer_bench {
	struct peer_table *table;
	struct mib_set *mib;		/* percpu, one block per worker */
	enum peer_mode mode;
	unsigned int per;		/* addresses per worker list (power of 2) */
	uint32_t *addrs[RTE_MAX_LCORE];	/* per worker: the order it visits */
};

static int
b_peer(struct bench_rec *rec, void *arg)
{
	struct peer_bench *p = arg;
	struct mib_block blk = mib_set_block(p->mib, rec->worker);
	const uint32_t *a = p->addrs[rec->worker];
	uint32_t mask = p->per - 1;
	uint64_t i, hits = 0;

	bench_start(rec);
	if (p->mode == PM_RW && rec->worker == 0)
		for (i = 0; i < rec->loops; i++)
			hits += peer_lookup(p->table, a[i & mask]) != NULL;
	else
		for (i = 0; i < rec->loops; i++)
			hits += peer_lookup_get_put(p->table, a[i & mask], i, &blk);
	bench_stop(rec, rec->loops);
	pb_sink = hits;
	return 0;
}

static void
peer_bench_free(struct peer_bench *p)
{
	unsigned int w;

	for (w = 0; w < RTE_DIM(p->addrs); w++)
		free(p->addrs[w]);
	mib_set_free(p->mib);
	peer_table_free(p->table);
}

/* Each worker's visiting order. */
static int
peer_bench_lists(struct peer_bench *p, enum peer_mode mode, unsigned int n)
{
	unsigned int w, j;

	p->per = PB_PEERS;
	if (mode == PM_DISJOINT)
		while (p->per * n > PB_PEERS)
			p->per /= 2;
	for (w = 0; w < n; w++) {
		p->addrs[w] = malloc(p->per * sizeof(uint32_t));
		if (p->addrs[w] == NULL)
			return -ENOMEM;
		for (j = 0; j < p->per; j++)
			p->addrs[w][j] = PB_PEER_BASE + (mode == PM_DISJOINT ?
				/* worker w: peers w, w + n, w + 2n... */
				j * n + w :
				/* all peers, starting at w's share */
				(j + w * PB_PEERS / n) % PB_PEERS);
	}
	return 0;
}

/* The stage's invariants after a run (no lookup in flight). */
static int
peer_bench_check(struct pb_ctx *ctx, const char *name, struct peer_bench *p)
{
	uint64_t tot[MIB_FIELD_MAX];
	int64_t refs = peer_table_refcnt_sum(p->table);
	uint64_t lk, hi, mi, ge, pu;

	mib_fold(p->mib, MIB_FOLD_LCORE, tot, NULL);
	lk = tot[MIB_F(PEER, LOOKUPS)];
	hi = tot[MIB_F(PEER, HITS)];
	mi = tot[MIB_F(PEER, MISSES)];
	ge = tot[MIB_F(PEER, GETS)];
	pu = tot[MIB_F(PEER, PUTS)];
	if (refs != 0 || lk != hi + mi || ge != pu || ge != hi || mi != 0) {
		fprintf(stderr, "pktpath-bench: %s: peer invariants broken: refcount sum %" PRId64 ", Lookups %" PRIu64 " Hits %" PRIu64 " Misses %" PRIu64 " Gets %" PRIu64 " Puts %" PRIu64 "\n",
			name, refs, lk, hi, mi, ge, pu);
		ctx->failures++;
		return -EPROTO;
	}
	printf("# %s: %" PRIu64 " lookups, all hits, every get had its put (refcount sum 0)\n",
	       name, lk);
	return 0;
}

static int
peer_run(struct pb_ctx *ctx, const struct pb_bench *b)
{
	enum peer_layout layout = PEER_LAYOUT_OF(b->param);
	enum peer_mode mode = PEER_MODE_OF(b->param);
	unsigned int n = mode == PM_ONE ? 1 : rte_lcore_count();
	int sockets[RTE_MAX_LCORE], ret;
	unsigned int i = 0, lcore;
	struct peer_bench p = { .mode = mode };

	sockets[i++] = (int)rte_socket_id();
	RTE_LCORE_FOREACH_WORKER(lcore)
		if (i < n)
			sockets[i++] = (int)rte_lcore_to_socket_id(lcore);
	p.table = peer_table_create(PB_PEERS, layout, (int)rte_socket_id());
	p.mib = mib_set_create(n, MIB_LAYOUT_PERCPU, sockets);
	if (p.table == NULL || p.mib == NULL ||
	    peer_bench_lists(&p, mode, n) < 0) {
		peer_bench_free(&p);
		return pb_fail(ctx, b->name, -ENOMEM, "peer table");
	}
	ret = peer_table_add_range(p.table, PB_PEER_BASE, PB_PEERS);
	if (ret < 0) {
		peer_bench_free(&p);
		return pb_fail(ctx, b->name, ret, "adding peers");
	}
	printf("# %s: %u peers, %s layout, %u lcore(s), %u peers visited per lcore%s\n",
	       b->name, PB_PEERS, peer_layout_name(layout), n, p.per,
	       mode == PM_RW ? "; worker 0 only reads, the others write" : "");
	ret = pb_run(ctx, mode != PM_ONE, b->name, b_peer, &p, 0,
		     pb_loops(ctx, b->loops), NULL);
	if (ret == 0)
		ret = peer_bench_check(ctx, b->name, &p);
	peer_bench_free(&p);
	return ret;
}

const struct pb_bench pb_peer_benches[] = {
	{ "peer_shared_1l", "peer", 1, 5000000,
	  "peer lookup + get + touch + put, shared layout, one lcore (reference)",
	  peer_run, PEER_PARAM(PEER_LAYOUT_SHARED, PM_ONE) },
	{ "peer_split_1l", "peer", 1, 5000000,
	  "peer lookup + get + touch + put, split layout, one lcore (reference)",
	  peer_run, PEER_PARAM(PEER_LAYOUT_SPLIT, PM_ONE) },
	{ "peer_shared", "peer", 2, 2000000,
	  "the same, every lcore over the same peers, shared layout (refcnt on the key's line)",
	  peer_run, PEER_PARAM(PEER_LAYOUT_SHARED, PM_SAME) },
	{ "peer_split", "peer", 2, 2000000,
	  "the same, every lcore over the same peers, split layout (refcnt on its own line)",
	  peer_run, PEER_PARAM(PEER_LAYOUT_SPLIT, PM_SAME) },
	{ "peer_shared_disjoint", "peer", 2, 2000000,
	  "every lcore over its own peers, shared layout: false sharing only", peer_run,
	  PEER_PARAM(PEER_LAYOUT_SHARED, PM_DISJOINT) },
	{ "peer_split_disjoint", "peer", 2, 2000000,
	  "every lcore over its own peers, split layout: nothing shared", peer_run,
	  PEER_PARAM(PEER_LAYOUT_SPLIT, PM_DISJOINT) },
	{ "peer_shared_rw", "peer", 2, 2000000,
	  "lcore 0 looks every peer up (no store), the others get/touch/put every peer, shared layout",
	  peer_run, PEER_PARAM(PEER_LAYOUT_SHARED, PM_RW) },
	{ "peer_split_rw", "peer", 2, 2000000,
	  "the same, split layout: no store reaches a line the reader reads", peer_run,
	  PEER_PARAM(PEER_LAYOUT_SPLIT, PM_RW) },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};
