/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pktpath-cachesim: short, fixed workloads of pktpath's own code, made to
 * run under valgrind's cache simulator (scripts/counts.py cachesim): no EAL
 * (its start-up would dominate a simulated run), the C allocator, and each
 * measured part in a function of its own, never inlined, so that a
 * profile's inclusive cost of that function is the part's and nothing else:
 *
 *   pktpath-cachesim fold field|lcore LCORES FOLDS
 *	A set of LCORES page-aligned per-lcore MIB blocks of every field
 *	(lib/mib, MIB_FIELD_MAX counters), folded as pktpath's stats thread
 *	folds it with one worker and --mib-lcores LCORES (mib_fold_part(),
 *	the worker's and the control block's values kept): the first fold
 *	after set-up in cs_fold_first(), then FOLDS more in cs_fold_next().
 *   pktpath-cachesim devdump field|lcore DEVICES LCORES
 *	A link dump (lib/mib mib_dev.h, mib_dev_dump()) of DEVICES devices'
 *	per-device IPv6 MIBs on LCORES lcores, every counter non-zero: the
 *	first dump after set-up in cs_dump_first(), one more in
 *	cs_dump_next().
 *   pktpath-cachesim peer shared|split PEERS LOOKUPS
 *	The inetpeer stage (lib/path peer.h) of PEERS peers in one layout,
 *	looked up, referenced and released by one thread: every peer once in
 *	cs_peer_first(), then LOOKUPS lookups in a scattered order in
 *	cs_peer_next().
 *
 * It prints what it did and a checksum of what it read (so that nothing is
 * optimised away); exit 0, or 2 on a usage error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mib.h"
#include "mib_dev.h"
#include "peer.h"

static uint64_t sink;

struct fold_run {
	struct mib_set *set;
	enum mib_fold strategy;
	uint64_t totals[MIB_FIELD_MAX];
	uint64_t per_block[2 * MIB_FIELD_MAX];	/* the worker's, the control's */
};

static void __attribute__((noinline))
cs_fold_first(struct fold_run *r)
{
	mib_fold_part(r->set, r->strategy, r->totals, r->per_block, 2);
	sink += r->totals[MIB_F(RX, PACKETS)];
}

static void __attribute__((noinline))
cs_fold_next(struct fold_run *r, unsigned long folds)
{
	unsigned long i;

	for (i = 0; i < folds; i++) {
		mib_fold_part(r->set, r->strategy, r->totals, r->per_block, 2);
		sink += r->totals[MIB_F(RX, PACKETS)];
	}
}

static int
run_fold(const char *strategy, unsigned long lcores, unsigned long folds)
{
	struct fold_run *r = calloc(1, sizeof(*r));
	struct mib_block b;

	if (r == NULL)
		return -ENOMEM;
	if (mib_fold_parse(strategy, &r->strategy) != 0 || lcores < 2 ||
	    lcores > MIB_SET_MAX) {
		free(r);
		return -EINVAL;
	}
	/* the worker's block, the control block, then the phantom ones */
	r->set = mib_set_create((unsigned int)lcores, MIB_LAYOUT_PERCPU, NULL);
	if (r->set == NULL) {
		free(r);
		return -ENOMEM;
	}
	b = mib_set_block(r->set, 0);
	mib_add(&b, MIB_F(RX, PACKETS), 32);
	cs_fold_first(r);
	cs_fold_next(r, folds);
	printf("fold %s: %lu blocks of %u fields (%u bytes each, page-aligned), "
	       "1 + %lu folds (checksum %llu)\n", mib_fold_name(r->strategy), lcores,
	       (unsigned int)MIB_FIELD_MAX, (unsigned int)MIB_BLOCK_BYTES, folds,
	       (unsigned long long)sink);
	mib_set_free(r->set);
	free(r);
	return 0;
}

struct dump_run {
	struct mib_devset *ds;
	enum mib_fold strategy;
	uint64_t *out; /* DEVICES x MIB_DEV_LINK_FIELDS */
};

static void __attribute__((noinline)) cs_dump_first(struct dump_run *r)
{
	mib_dev_dump(r->ds, r->strategy, r->out);
	sink += r->out[0];
}

/* Dumps after the first: a variable, so that no constant-propagated clone
 * (cs_dump_next.constprop.0) hides the function from --toggle-collect. */
static volatile unsigned int dumps_next = 1;

/* Not cs_dump_first()'s twin (a compiler may fold identical functions
 * into one, and a profile could no longer tell them apart): dumps of them. */
static void __attribute__((noinline)) cs_dump_next(struct dump_run *r, unsigned int dumps)
{
	unsigned int i;

	for (i = 0; i < dumps; i++) {
		mib_dev_dump(r->ds, r->strategy, r->out);
		sink += r->out[0];
	}
}

static int
run_devdump(const char *strategy, unsigned long devs, unsigned long lcores)
{
	struct dump_run r;
	unsigned int d, l, f;

	if (mib_fold_parse(strategy, &r.strategy) != 0 ||
	    mib_devset_bytes_for((unsigned int)RTE_MIN(devs, MIB_DEV_MAX + 1ul),
				 (unsigned int)RTE_MIN(lcores, MIB_SET_MAX + 1ul)) == 0)
		return -EINVAL;
	r.ds = mib_devset_create((unsigned int)devs, (unsigned int)lcores, NULL);
	r.out = calloc(devs * MIB_DEV_LINK_FIELDS, sizeof(uint64_t));
	if (r.ds == NULL || r.out == NULL) {
		mib_devset_free(r.ds);
		free(r.out);
		return -ENOMEM;
	}
	for (l = 0; l < lcores; l++)
		for (d = 0; d < devs; d++) {
			uint64_t *blk = mib_dev_ip6_block(r.ds, d, l);

			for (f = 0; f < MIB_DEV_IP6; f++)
				mib_dev_ip6_add(blk, f, (uint64_t)l + d + f + 1);
		}
	cs_dump_first(&r);
	cs_dump_next(&r, dumps_next);
	printf("devdump %s: %lu devices x %lu lcores (%zu bytes), 1 + 1 dumps (checksum "
	       "%llu)\n",
	       mib_fold_name(r.strategy), devs, lcores, mib_devset_bytes(r.ds),
	       (unsigned long long)sink);
	mib_devset_free(r.ds);
	free(r.out);
	return 0;
}

#define PEER_FIRST 0x0a000001u	/* 10.0.0.1, host order */

struct peer_run {
	struct peer_table *t;
	struct mib_block mib;
	unsigned long peers;
};

static void __attribute__((noinline))
cs_peer_first(struct peer_run *r)
{
	unsigned long i;
	uint64_t hits = 0;

	for (i = 0; i < r->peers; i++)
		hits += peer_lookup_get_put(r->t, PEER_FIRST + (uint32_t)i, i, &r->mib);
	sink += hits;
}

static void __attribute__((noinline))
cs_peer_next(struct peer_run *r, unsigned long lookups)
{
	unsigned long i, k = 0;
	uint64_t hits = 0;

	/* a stride coprime with the peers' count: every peer in turn, in an
	 * order unrelated to the table's */
	for (i = 0; i < lookups; i++) {
		k = (k + 40503) % r->peers;
		hits += peer_lookup_get_put(r->t, PEER_FIRST + (uint32_t)k, i, &r->mib);
	}
	sink += hits;
}

static int
run_peer(const char *layout, unsigned long peers, unsigned long lookups)
{
	struct mib_set *ms;
	struct peer_run r;
	enum peer_layout l;

	if (peer_layout_parse(layout, &l) != 0 || peers == 0 || peers > PEER_MAX ||
	    peers % 40503 == 0)
		return -EINVAL;
	ms = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	r.t = peer_table_create((unsigned int)peers, l, -1);
	if (ms == NULL || r.t == NULL ||
	    peer_table_add_range(r.t, PEER_FIRST, (unsigned int)peers) != 0) {
		peer_table_free(r.t);
		mib_set_free(ms);
		return -ENOMEM;
	}
	r.mib = mib_set_block(ms, 0);
	r.peers = peers;
	cs_peer_first(&r);
	cs_peer_next(&r, lookups);
	printf("peer %s: %lu peers, %lu + %lu lookups, refcounts sum %lld (checksum "
	       "%llu)\n", peer_layout_name(l), peers, peers, lookups,
	       (long long)peer_table_refcnt_sum(r.t), (unsigned long long)sink);
	peer_table_free(r.t);
	mib_set_free(ms);
	return 0;
}

static int
__num(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return end != s && *end == '\0' && errno == 0 ? 0 : -EINVAL;
}

int
main(int argc, char **argv)
{
	unsigned long a, b;
	int rc = -EINVAL;

	if (argc == 5 && __num(argv[3], &a) == 0 && __num(argv[4], &b) == 0) {
		if (strcmp(argv[1], "fold") == 0)
			rc = run_fold(argv[2], a, b);
		else if (strcmp(argv[1], "peer") == 0)
			rc = run_peer(argv[2], a, b);
		else if (strcmp(argv[1], "devdump") == 0)
			rc = run_devdump(argv[2], a, b);
	}
	if (rc == -ENOMEM) {
		fprintf(stderr, "pktpath-cachesim: out of memory\n");
		return 1;
	}
	if (rc != 0) {
		fprintf(stderr,
			"usage: %s fold field|lcore LCORES FOLDS (LCORES >= 2)\n"
			"       %s devdump field|lcore DEVICES LCORES\n"
			"       %s peer shared|split PEERS LOOKUPS\n",
			argv[0], argv[0], argv[0]);
		return 2;
	}
	return 0;
}
