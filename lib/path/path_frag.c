/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv4 and IPv6 reassembly as Linux 6.18 does it for a local destination,
 * in one worker's struct path_frag (path.h). References:
 *   net/ipv4/ip_fragment.c     ip_defrag, ip_find, ip_frag_queue,
 *                              ip_frag_reasm, ip_expire
 *   net/ipv6/reassembly.c      fq_find, ip6_frag_queue, ip6_frag_reasm,
 *                              ip6_frag_expire (ipv6_frag_rcv's checks
 *                              before the queue are path6_exthdrs.c's)
 *   net/ipv4/inet_fragment.c   inet_frag_find (the high_thresh check),
 *                              inet_frag_queue_insert (runs, RFC 5722),
 *                              inet_frag_kill, ip_frag_ecn_table
 *
 * The two families share the queues, fragment records and blocks; each has
 * its memory, limit, timeout and queue order (struct path_frag_fam), as the
 * kernel's two fqdirs have. A queue is keyed as ip_find keys it: saddr,
 * daddr, id, protocol (the user is IP_DEFRAG_LOCAL_DELIVER and the vif 0
 * for every fragment here), or as fq_find does: saddr, daddr, the 32-bit
 * id (the user IP6_DEFRAG_LOCAL_DELIVER, the iif 0: pktpath's port is the
 * one device, see lib/path/README.md).
 * Its fragments' data is copied into blocks of PATH_FRAG_BLOCK bytes; a
 * fragment is charged its blocks (the kernel charges its skb's truesize),
 * a queue sizeof(struct path_frag_queue) (the kernel's qsize). The
 * kernel's rb-tree of runs is replaced by a list scanned per fragment
 * that only reaches the middle of what is queued (out of order): a run
 * is a fragment and the ones appended right after it at the tail, as
 * fragrun_append_to_last makes them, and a fragment inside one run is a
 * duplicate, one over more than one run, or partly over one, an overlap,
 * exactly as the kernel's binary search decides.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_jhash.h>
#include <rte_malloc.h>

#include "path.h"

#define NIL	  UINT32_MAX
#define DGRAM_MAX 65535u
/* The longest IPv6 packet without a jumbo option, and so the most a first
 * fragment's record holds: its headers and its data. */
#define PKT6_MAX  (40u + DGRAM_MAX)
#define MBUF_SZ	  RTE_ALIGN_CEIL(sizeof(struct rte_mbuf), 64)
#define KEY_WORDS 10 /* saddr[4], daddr[4], id, family << 8 | protocol */

#define FIRST_IN 1 /* INET_FRAG_FIRST_IN */
#define LAST_IN	 2 /* INET_FRAG_LAST_IN */

/* inet_frag_queue_insert's results. */
enum {
	FRAG_OK,
	FRAG_DUP,
	FRAG_OVERLAP
};

/* One queue (struct ipq, struct frag_queue). */
struct path_frag_queue {
	uint32_t key[KEY_WORDS]; /* IPv4's addresses in words 0 and 4 */
	uint8_t fam;		 /* 0 IPv4, 1 IPv6 */
	uint8_t flags;		 /* FIRST_IN, LAST_IN */
	uint16_t nhoff;		 /* IPv6: the first fragment's (nhoffset) */
	uint32_t hnext;	     /* its hash chain; free list */
	uint32_t prev, next; /* creation order */
	uint64_t deadline;   /* TSC */
	uint64_t mem;	     /* bytes charged for it and its fragments */
	uint32_t ents;	     /* its fragments, newest first */
	uint32_t len, meat;  /* q.len, q.meat */
	uint32_t tail_end;   /* where its tail fragment ends */
	uint32_t tail_run;   /* the offset of the run the tail is in */
	uint32_t max_size, max_df_size;
	uint8_t ecn;	  /* IPFRAG_ECN_* of its fragments */
	uint8_t pkt_type; /* the first fragment's */
	uint8_t hl;	  /* the first fragment's header length */
	uint8_t hdr[60];  /* the first fragment's header */
	/* IPv6: the time exceeded the first fragment's expiry sends */
	struct path_icmp6_answer te;
};

/* One queued fragment. */
struct path_frag_ent {
	uint32_t offset, end; /* its data in the datagram */
	uint32_t pre;	      /* bytes in its blocks before its data: an IPv6
			       * first fragment's headers, fragment header
			       * included */
	uint32_t run;	      /* the offset of its run */
	uint32_t next;	      /* the queue's next fragment; free list */
	uint32_t block;	      /* its first block */
};

/* ip_frag_ecn_table: 0xff for a mix of Not-ECT with ECT or CE. */
static const uint8_t ecn_table[16] = {
	[8 | 4] = 3,	    [8 | 2] = 3,
	[8 | 4 | 2] = 3,    [1 | 8] = 0xff,
	[1 | 4] = 0xff,	    [1 | 2] = 0xff,
	[1 | 4 | 2] = 0xff, [1 | 8 | 4] = 0xff,
	[1 | 8 | 2] = 0xff, [1 | 8 | 4 | 2] = 0xff,
};

static uint32_t
__blocks_for(uint32_t len)
{
	return (len + PATH_FRAG_BLOCK - 1) / PATH_FRAG_BLOCK;
}

/* Blocks of a family: high_thresh of them, plus the largest fragment,
 * which may cross it (the limit is checked before a fragment is queued). */
static uint32_t
__n_blocks1(uint64_t high)
{
	if (high == 0)
		return 0;
	return (uint32_t)((high + PATH_FRAG_BLOCK - 1) / PATH_FRAG_BLOCK) +
	       __blocks_for(PKT6_MAX);
}

static uint32_t
__n_blocks(const struct path_frag_conf *fc)
{
	return __n_blocks1(fc->high_thresh) + __n_blocks1(fc->high_thresh6);
}

/* Queues: as many as blocks, each family its share (path_frag_fam's
 * max_queues). An IPv4 queue holds a block at least (one without is freed
 * at once); an IPv6 one may stay without (ip6_frag_queue's parameter
 * problems leave it to its timer), and past its share fq_find fails
 * (ReasmFails) where the kernel would make one more; the other family's
 * queues stay free, as the kernel's two fqdirs are apart. */
static uint32_t
__n_queues(const struct path_frag_conf *fc)
{
	return RTE_MAX(__n_blocks(fc), 1u);
}

static uint32_t
__n_buckets(uint32_t n)
{
	return rte_align32pow2(n);
}

static uint64_t
__layout(const struct path_frag_conf *fc, uint64_t off[6])
{
	uint32_t nb = __n_blocks(fc), nq = __n_queues(fc);
	uint64_t o = RTE_ALIGN_CEIL(sizeof(struct path_frag), RTE_CACHE_LINE_SIZE);

	off[0] = o; /* buckets */
	o = RTE_ALIGN_CEIL(o + (uint64_t)__n_buckets(nq) * sizeof(uint32_t), 64);
	off[1] = o; /* queues */
	o = RTE_ALIGN_CEIL(o + (uint64_t)nq * sizeof(struct path_frag_queue), 64);
	off[2] = o; /* fragment records */
	o = RTE_ALIGN_CEIL(o + (uint64_t)nb * sizeof(struct path_frag_ent), 64);
	off[3] = o; /* block links */
	o = RTE_ALIGN_CEIL(o + (uint64_t)nb * sizeof(uint32_t), 64);
	off[4] = o; /* blocks */
	o += (uint64_t)nb * PATH_FRAG_BLOCK;
	off[5] = o; /* the datagram's mbuf and its data */
	o += 2 * MBUF_SZ + PKT6_MAX;
	return o;
}

uint64_t
path_frag_bytes(const struct path_frag_conf *fc)
{
	uint64_t off[6];

	return __layout(fc, off);
}

struct path_frag *
path_frag_create(const struct path_frag_conf *fc, int socket)
{
	uint64_t off[6], sz;
	struct path_frag *f;
	uint8_t *p = NULL;
	uint32_t i;

	if (fc->high_thresh > (UINT64_C(1) << 40) || fc->timeout == 0 ||
	    fc->high_thresh6 > (UINT64_C(1) << 40) ||
	    (fc->high_thresh6 != 0 && fc->timeout6 == 0)) {
		rte_errno = EINVAL;
		return NULL;
	}
	sz = __layout(fc, off);
	{
		struct path_rlim probe;

		if (path_rlim_init(&probe, &fc->rlim) != 0) {
			rte_errno = EINVAL;
			return NULL;
		}
	}
	if (socket >= 0)
		p = rte_zmalloc_socket("pktpath_frag", sz, RTE_CACHE_LINE_SIZE, socket);
	else if (posix_memalign((void **)&p, RTE_CACHE_LINE_SIZE, sz) == 0)
		memset(p, 0, sz);
	else
		p = NULL;
	if (p == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	f = (struct path_frag *)p;
	f->rte = socket >= 0;
	f->conf = *fc;
	path_rlim_init(&f->rlim, &fc->rlim);
	f->next_expiry = UINT64_MAX;
	f->n_blocks = __n_blocks(fc);
	f->max_queues = __n_queues(fc);
	f->n_buckets = __n_buckets(f->max_queues);
	f->bucket = (uint32_t *)(p + off[0]);
	f->queue = (struct path_frag_queue *)(p + off[1]);
	f->ent = (struct path_frag_ent *)(p + off[2]);
	f->block_next = (uint32_t *)(p + off[3]);
	f->block = p + off[4];
	/* two segments over one buffer: a datagram may pass data_len's 65535
	 * bytes (an IPv6 one, by its header) */
	f->dgram = (struct rte_mbuf *)(p + off[5]);
	f->dgram_tail = (struct rte_mbuf *)(p + off[5] + MBUF_SZ);
	f->dgram->buf_addr = p + off[5] + 2 * MBUF_SZ;
	f->dgram->buf_len = DGRAM_MAX;
	f->dgram_tail->buf_addr = (uint8_t *)f->dgram->buf_addr + DGRAM_MAX;
	f->dgram_tail->buf_len = PKT6_MAX - DGRAM_MAX;
	for (i = 0; i < 2; i++) {
		f->fam[i].high_thresh = i == 0 ? fc->high_thresh : fc->high_thresh6;
		f->fam[i].timeout = i == 0 ? fc->timeout : fc->timeout6;
		f->fam[i].oldest = f->fam[i].newest = NIL;
		f->fam[i].max_queues = __n_blocks1(f->fam[i].high_thresh);
	}
	for (i = 0; i < f->n_buckets; i++)
		f->bucket[i] = NIL;
	for (i = 0; i < f->max_queues; i++)
		f->queue[i].hnext = i + 1 < f->max_queues ? i + 1 : NIL;
	for (i = 0; i < f->n_blocks; i++) {
		f->ent[i].next = i + 1 < f->n_blocks ? i + 1 : NIL;
		f->block_next[i] = i + 1 < f->n_blocks ? i + 1 : NIL;
	}
	f->free_queue = 0;
	f->free_ent = f->n_blocks > 0 ? 0 : NIL;
	f->free_block = f->n_blocks > 0 ? 0 : NIL;
	return f;
}

void
path_frag_free(struct path_frag *f)
{
	if (f == NULL)
		return;
	if (f->rte)
		rte_free(f);
	else
		free(f);
}

static uint32_t
__hash(const struct path_frag *f, const uint32_t key[KEY_WORDS])
{
	return rte_jhash_32b(key, KEY_WORDS, 0) & (f->n_buckets - 1);
}

/* The earlier of the two families' oldest deadlines. */
static void
__next_expiry(struct path_frag *f)
{
	uint64_t t = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (f->fam[i].oldest != NIL)
			t = RTE_MIN(t, f->queue[f->fam[i].oldest].deadline);
	f->next_expiry = t;
}

/* inet_frag_kill + inet_frag_destroy: out of the hash and the creation
 * order, its fragments and blocks back to the free lists, its memory
 * given back. */
static void
__kill(struct path_frag *f, uint32_t qi)
{
	struct path_frag_queue *q = &f->queue[qi];
	struct path_frag_fam *fa = &f->fam[q->fam];
	uint32_t *pp = &f->bucket[__hash(f, q->key)];
	uint32_t e, b;

	while (*pp != qi)
		pp = &f->queue[*pp].hnext;
	*pp = q->hnext;
	if (q->prev != NIL)
		f->queue[q->prev].next = q->next;
	else
		fa->oldest = q->next;
	if (q->next != NIL)
		f->queue[q->next].prev = q->prev;
	else
		fa->newest = q->prev;
	__next_expiry(f);
	for (e = q->ents; e != NIL;) {
		struct path_frag_ent *x = &f->ent[e];
		uint32_t next = x->next;

		for (b = x->block; b != NIL;) {
			uint32_t nb = f->block_next[b];

			f->block_next[b] = f->free_block;
			f->free_block = b;
			b = nb;
		}
		x->next = f->free_ent;
		f->free_ent = e;
		e = next;
	}
	f->mem -= q->mem;
	fa->mem -= q->mem;
	f->n_queues--;
	fa->n_queues--;
	q->hnext = f->free_queue;
	f->free_queue = qi;
}

void
__path_frag_expire(struct path_frag *f, struct mib_block *mib)
{
	static const unsigned int fails[2] = { MIB_F(IP, REASMFAILS),
					       MIB_F(IP6, REASMFAILS) };
	static const unsigned int timeouts[2] = { MIB_F(IP, REASMTIMEOUT),
						  MIB_F(IP6, REASMTIMEOUT) };
	unsigned int i;

	/* ip_expire, ip6_frag_expire: the queue's timer fired (an IPv6 one
	 * without its first fragment too). ip6frag_expire_frag_queue sends
	 * a time exceeded when the first fragment is in, decided when it
	 * came (q->te) but for the rate limits, which are the timer's (to
	 * the first fragment's source, the key's first words); ip_expire's
	 * IPv4 one is not counted (pktpath counts no IPv4 message it would
	 * send: lib/path/README.md). */
	for (i = 0; i < 2; i++) {
		struct path_frag_fam *fa = &f->fam[i];

		while (fa->oldest != NIL && f->queue[fa->oldest].deadline <= f->now) {
			struct path_frag_queue *q = &f->queue[fa->oldest];

			mib_inc(mib, fails[i]);
			mib_inc(mib, timeouts[i]);
			if (i == 1 && (q->flags & FIRST_IN)) {
				struct path_icmp6_answer te = q->te;

				__path_icmp6_rlim(&f->rlim, f->now, &te,
						  (const uint8_t *)q->key);
				__path_icmp6_count(mib, &te);
			}
			__kill(f, fa->oldest);
		}
	}
}

/* ip_find, fq_find: the queue of the key in family fam, or a new one
 * (inet_frag_create: its deadline set once, now + the family's timeout).
 * NIL when the family's share is in use: for IPv4 the memory check before
 * it makes that impossible; IPv6 queues left empty by a parameter problem
 * can fill it. */
static uint32_t
__find(struct path_frag *f, unsigned int fam, const uint32_t key[KEY_WORDS])
{
	uint32_t h = __hash(f, key), qi;
	struct path_frag_fam *fa = &f->fam[fam];
	struct path_frag_queue *q;

	for (qi = f->bucket[h]; qi != NIL; qi = f->queue[qi].hnext) {
		q = &f->queue[qi];
		if (memcmp(q->key, key, sizeof(q->key)) == 0)
			return qi;
	}
	qi = f->free_queue;
	if (qi == NIL || fa->n_queues >= fa->max_queues)
		return NIL;
	q = &f->queue[qi];
	f->free_queue = q->hnext;
	memset(q, 0, sizeof(*q));
	memcpy(q->key, key, sizeof(q->key));
	q->fam = (uint8_t)fam;
	q->ents = NIL;
	q->deadline = f->now + fa->timeout;
	q->mem = sizeof(*q);
	f->mem += q->mem;
	fa->mem += q->mem;
	f->n_queues++;
	fa->n_queues++;
	q->hnext = f->bucket[h];
	f->bucket[h] = qi;
	q->next = NIL;
	q->prev = fa->newest;
	if (fa->newest != NIL)
		f->queue[fa->newest].next = qi;
	else
		fa->oldest = qi;
	fa->newest = qi;
	__next_expiry(f);
	return qi;
}

/* inet_frag_queue_insert's decision for [offset, end), and the run the
 * fragment joins (*run). */
static int
__insert_where(const struct path_frag *f, const struct path_frag_queue *q,
	       uint32_t offset, uint32_t end, uint32_t *run)
{
	uint32_t e, r = NIL, run_end = 0;

	if (q->ents == NIL) { /* the first fragment */
		*run = offset;
		return FRAG_OK;
	}
	if (q->tail_end < end) { /* the common case: after the tail */
		if (offset < q->tail_end)
			return FRAG_OVERLAP;
		*run = offset == q->tail_end ? q->tail_run : offset;
		return FRAG_OK;
	}
	/* the binary search over the runs, as a scan */
	for (e = q->ents; e != NIL; e = f->ent[e].next) {
		const struct path_frag_ent *x = &f->ent[e];

		if (x->offset < end && offset < x->end) {
			if (r != NIL && x->run != r)
				return FRAG_OVERLAP; /* over two runs */
			r = x->run;
		}
	}
	if (r == NIL) {
		*run = offset;
		return FRAG_OK;
	}
	for (e = q->ents; e != NIL; e = f->ent[e].next)
		if (f->ent[e].run == r)
			run_end = RTE_MAX(run_end, f->ent[e].end);
	return offset >= r && end <= run_end ? FRAG_DUP : FRAG_OVERLAP;
}

/* Copy the fragment's data into blocks taken from the free list; NIL if
 * they ran out (the memory check before makes it impossible). */
static uint32_t
__store(struct path_frag *f, const struct rte_mbuf *m, uint32_t off, uint32_t len,
	uint32_t *n)
{
	uint32_t head = NIL, *link = &head, done = 0;

	*n = 0;
	while (done < len) {
		uint32_t b = f->free_block, l = RTE_MIN(len - done, PATH_FRAG_BLOCK);
		uint8_t *dst;
		const void *src;

		if (b == NIL)
			break;
		f->free_block = f->block_next[b];
		f->block_next[b] = NIL;
		*link = b;
		link = &f->block_next[b];
		dst = f->block + (uint64_t)b * PATH_FRAG_BLOCK;
		src = rte_pktmbuf_read(m, off + done, l, dst);
		if (src != dst)
			memcpy(dst, src, l);
		done += l;
		(*n)++;
	}
	if (done < len) {
		while (head != NIL) {
			uint32_t nb = f->block_next[head];

			f->block_next[head] = f->free_block;
			f->free_block = head;
			head = nb;
		}
		return NIL;
	}
	return head;
}

/* The fragment [offset, end) in record ei, its data after pre bytes in
 * its n blocks from blk, into q: its runs, meat and memory. */
static void
__add(struct path_frag *f, struct path_frag_queue *q, uint32_t ei, uint32_t offset,
      uint32_t end, uint32_t pre, uint32_t run, uint32_t blk, uint32_t n)
{
	f->free_ent = f->ent[ei].next;
	f->ent[ei] = (struct path_frag_ent){ .offset = offset,
					     .end = end,
					     .pre = pre,
					     .run = run,
					     .next = q->ents,
					     .block = blk };
	q->ents = ei;
	if (end > q->tail_end) {
		q->tail_end = end;
		q->tail_run = run;
	}
	q->meat += end - offset;
	q->mem += (uint64_t)n * PATH_FRAG_BLOCK;
	f->fam[q->fam].mem += (uint64_t)n * PATH_FRAG_BLOCK;
	f->mem += (uint64_t)n * PATH_FRAG_BLOCK;
}

/* Copy n bytes held in the blocks from b to dst. */
static void
__copy(const struct path_frag *f, uint32_t b, uint8_t *dst, uint32_t n)
{
	for (; b != NIL && n > 0; b = f->block_next[b]) {
		uint32_t l = RTE_MIN(n, PATH_FRAG_BLOCK);

		memcpy(dst, f->block + (uint64_t)b * PATH_FRAG_BLOCK, l);
		dst += l;
		n -= l;
	}
}

/* The datagram of len bytes built at f->dgram's buffer: its one or two
 * segments. */
static struct rte_mbuf *
__dgram(struct path_frag *f, uint32_t len)
{
	struct rte_mbuf *dm = f->dgram;

	dm->data_off = 0;
	dm->pkt_len = len;
	dm->ol_flags = 0; /* CHECKSUM_NONE: L4 verifies in software */
	dm->data_len = (uint16_t)RTE_MIN(len, DGRAM_MAX);
	dm->nb_segs = len > DGRAM_MAX ? 2 : 1;
	dm->next = len > DGRAM_MAX ? f->dgram_tail : NULL;
	f->dgram_tail->data_off = 0;
	f->dgram_tail->data_len = (uint16_t)(len > DGRAM_MAX ? len - DGRAM_MAX : 0);
	f->dgram_tail->nb_segs = 1;
	return dm;
}

/* ip_frag_reasm: the queue is complete; build the datagram in f->dgram. */
static unsigned int
__reasm(struct path_frag *f, uint32_t qi, struct mib_block *mib, struct path_dgram *d)
{
	struct path_frag_queue *q = &f->queue[qi];
	uint8_t *buf = f->dgram->buf_addr, ecn = ecn_table[q->ecn], hl = q->hl;
	uint32_t len = hl + q->len, e;
	uint16_t frag_off = 0, ck;

	/* ipq_kill comes first; the fragments go with the queue, the last one
	 * too: it was queued. */
	if (ecn == 0xff || len > DGRAM_MAX) {
		__kill(f, qi);
		mib_inc(mib, MIB_F(IP, REASMFAILS));
		mib_inc(mib, MIB_F(PATH, IPFRAGQUEUED));
		return MIB_F(PATH, IPFRAGQUEUED);
	}
	memcpy(buf, q->hdr, hl);
	for (e = q->ents; e != NIL; e = f->ent[e].next) {
		const struct path_frag_ent *x = &f->ent[e];

		__copy(f, x->block, buf + hl + x->offset, x->end - x->offset);
	}
	buf[2] = (uint8_t)(len >> 8);
	buf[3] = (uint8_t)len;
	buf[1] |= ecn;
	/* DF when the largest fragment had DF (IPSKB_FRAG_PMTU) */
	if (q->max_df_size == q->max_size)
		frag_off = 0x4000;
	buf[6] = (uint8_t)(frag_off >> 8);
	buf[7] = (uint8_t)frag_off;
	buf[10] = buf[11] = 0; /* ip_send_check */
	ck = (uint16_t)~rte_raw_cksum(buf, hl);
	memcpy(buf + 10, &ck, sizeof(ck));
	d->m = __dgram(f, len);
	d->hl = hl;
	d->len = len;
	d->pkt_type = q->pkt_type;
	__kill(f, qi);
	mib_inc(mib, MIB_F(IP, REASMOKS));
	return 0;
}

static unsigned int
__drop(struct mib_block *mib, bool fail)
{
	if (fail)
		mib_inc(mib, MIB_F(IP, REASMFAILS));
	mib_inc(mib, MIB_F(PATH, IPFRAGDROPPED));
	return MIB_F(PATH, IPFRAGDROPPED);
}

unsigned int
__path_ip_defrag(struct path_frag *f, const struct rte_mbuf *m, uint32_t off,
		 uint32_t len, const uint8_t *iph, uint32_t hl, uint8_t pkt_type,
		 struct mib_block *mib, struct path_dgram *d)
{
	uint16_t fo = (uint16_t)(iph[6] << 8 | iph[7]);
	uint32_t offset = (uint32_t)(fo & 0x1fff) << 3, end, qi, run, ei, blk, n;
	uint32_t key[KEY_WORDS] = { 0 };
	struct path_frag_queue *q;
	int where;

	mib_inc(mib, MIB_F(IP, REASMREQDS));
	/* inet_frag_find: no memory for it (high_thresh 0 or crossed) */
	if (f == NULL || f->fam[0].high_thresh == 0 ||
	    f->fam[0].mem > f->fam[0].high_thresh)
		return __drop(mib, true);
	memcpy(&key[0], iph + 12, 4);
	memcpy(&key[4], iph + 16, 4);
	key[8] = (uint32_t)iph[4] << 8 | iph[5];
	key[9] = iph[9];
	qi = __find(f, 0, key);
	if (qi == NIL)
		return __drop(mib, true);
	q = &f->queue[qi];

	/* ip_frag_queue */
	end = offset + len - hl;
	if (!(fo & 0x2000)) { /* the last fragment */
		if (end < q->len || ((q->flags & LAST_IN) && end != q->len))
			goto discard_qp;
		q->flags |= LAST_IN;
		q->len = end;
	} else {
		end &= ~7u;
		if (end > q->len) {
			if (q->flags & LAST_IN)
				goto discard_qp;
			q->len = end;
		}
	}
	if (end == offset)
		goto discard_qp;
	where = __insert_where(f, q, offset, end, &run);
	if (where == FRAG_DUP)
		return __drop(mib, false);
	if (where == FRAG_OVERLAP) {
		mib_inc(mib, MIB_F(IPEXT, REASMOVERLAPS));
		goto discard_qp;
	}
	ei = f->free_ent;
	blk = ei == NIL ? NIL : __store(f, m, off + hl, end - offset, &n);
	if (blk == NIL) /* cannot happen: memory is checked first */
		goto discard_qp;
	__add(f, q, ei, offset, end, 0, run, blk, n);
	q->ecn |= (uint8_t)(1u << (iph[1] & 3)); /* ip4_frag_ecn */
	if (offset == 0) {
		q->flags |= FIRST_IN;
		q->hl = (uint8_t)hl;
		q->pkt_type = pkt_type;
		memcpy(q->hdr, iph, hl);
	}
	if (end - offset + hl > q->max_size)
		q->max_size = end - offset + hl;
	if ((fo & 0x4000) && end - offset + hl > q->max_df_size)
		q->max_df_size = end - offset + hl;
	if (q->flags == (FIRST_IN | LAST_IN) && q->meat == q->len)
		return __reasm(f, qi, mib, d);
	mib_inc(mib, MIB_F(PATH, IPFRAGQUEUED));
	return MIB_F(PATH, IPFRAGQUEUED);

discard_qp:
	__kill(f, qi);
	return __drop(mib, true);
}

/* ---- IPv6 ---- */

static unsigned int
__drop6(struct mib_block *mib, bool fail)
{
	if (fail)
		mib_inc(mib, MIB_F(IP6, REASMFAILS));
	mib_inc(mib, MIB_F(PATH, IP6FRAGDROPPED));
	return MIB_F(PATH, IP6FRAGDROPPED);
}

/* ip6_frag_reasm: the queue is complete; build the datagram in f->dgram:
 * the first fragment's headers without its fragment header (the byte that
 * named it now names what followed it), then the data. */
static unsigned int
__reasm6(struct path_frag *f, uint32_t qi, struct mib_block *mib, struct path_dgram *d)
{
	struct path_frag_queue *q = &f->queue[qi];
	uint8_t *buf = f->dgram->buf_addr, ecn = ecn_table[q->ecn];
	const struct path_frag_ent *first = NULL;
	uint32_t fh, plen, len, e;

	for (e = q->ents; e != NIL; e = f->ent[e].next)
		if (f->ent[e].offset == 0)
			first = &f->ent[e];
	fh = first->pre - 8; /* where the fragment header was */
	plen = fh - 40 + q->len;
	/* inet_frag_kill comes first; out_fail: the last fragment was queued
	 * and goes with the queue */
	if (ecn == 0xff || plen > DGRAM_MAX) {
		__kill(f, qi);
		mib_inc(mib, MIB_F(IP6, REASMFAILS));
		mib_inc(mib, MIB_F(PATH, IP6FRAGQUEUED));
		return MIB_F(PATH, IP6FRAGQUEUED);
	}
	__copy(f, first->block, buf, first->pre + first->end);
	buf[q->nhoff] = buf[fh]; /* the fragment header's next header */
	memmove(buf + fh, buf + fh + 8, first->end);
	for (e = q->ents; e != NIL; e = f->ent[e].next) {
		const struct path_frag_ent *x = &f->ent[e];

		if (x != first)
			__copy(f, x->block, buf + fh + x->offset, x->end - x->offset);
	}
	len = 40 + plen;
	buf[4] = (uint8_t)(plen >> 8);
	buf[5] = (uint8_t)plen;
	buf[1] |= (uint8_t)(ecn << 4); /* ipv6_change_dsfield(0xff, ecn) */
	d->m = __dgram(f, len);
	d->hl = fh;
	d->len = len;
	d->nhoff = q->nhoff;
	d->pkt_type = q->pkt_type;
	__kill(f, qi);
	mib_inc(mib, MIB_F(IP6, REASMOKS));
	return 0;
}

unsigned int
__path_ipv6_defrag(struct path_frag *f, const struct rte_mbuf *m, uint32_t nh,
		   uint32_t len, uint32_t fh, uint32_t nhoff, uint8_t pkt_type,
		   const struct path_icmp6_answer *te, struct mib_block *mib,
		   struct path_dgram *d)
{
	uint8_t hbuf[40], fbuf[8];
	const uint8_t *h = rte_pktmbuf_read(m, nh, 40, hbuf);
	const uint8_t *fhdr = rte_pktmbuf_read(m, nh + fh, 8, fbuf);
	uint32_t offset = (uint32_t)(fhdr[2] << 8 | fhdr[3]) & ~7u, end, qi, run, ei;
	uint32_t blk, n, pre = offset == 0 ? fh + 8 : 0;
	uint32_t key[KEY_WORDS];
	struct path_frag_queue *q;
	bool mf = fhdr[3] & 1;
	int where;

	/* inet_frag_find: no memory for it (high_thresh 0 or crossed) */
	if (f == NULL || f->fam[1].high_thresh == 0 ||
	    f->fam[1].mem > f->fam[1].high_thresh)
		return __drop6(mib, true);
	memcpy(&key[0], h + 8, 32);
	memcpy(&key[8], fhdr + 4, 4);
	key[9] = 1u << 8;
	qi = __find(f, 1, key);
	if (qi == NIL)
		return __drop6(mib, true);
	q = &f->queue[qi];

	/* ip6_frag_queue: the two parameter problems leave the queue as
	 * fq_find made it (to its timer when it was new) */
	end = offset + len - 40 - (fh + 8 - 40);
	if (end > DGRAM_MAX)
		return MIB_F(IP6, INHDRERRORS);
	if (!mf) { /* the last fragment */
		if (end < q->len || ((q->flags & LAST_IN) && end != q->len))
			goto discard_fq;
		q->flags |= LAST_IN;
		q->len = end;
	} else {
		if (end & 7) /* RFC 8200 4.5: always a parameter problem */
			return MIB_F(IP6, INHDRERRORS);
		if (end > q->len) {
			if (q->flags & LAST_IN)
				goto discard_fq;
			q->len = end;
		}
	}
	if (end == offset)
		goto discard_fq;
	where = __insert_where(f, q, offset, end, &run);
	if (where == FRAG_DUP)
		return __drop6(mib, false);
	if (where == FRAG_OVERLAP) {
		mib_inc(mib, MIB_F(PATH, IP6REASMOVERLAPS));
		goto discard_fq;
	}
	ei = f->free_ent;
	blk = ei == NIL ? NIL : __store(f, m, nh + fh + 8 - pre, pre + end - offset, &n);
	if (blk == NIL) /* cannot happen: memory is checked first */
		goto discard_fq;
	__add(f, q, ei, offset, end, pre, run, blk, n);
	q->ecn |= (uint8_t)(1u << ((h[1] >> 4) & 3)); /* ip6_frag_ecn */
	if (offset == 0) {
		q->flags |= FIRST_IN;
		q->nhoff = (uint16_t)nhoff;
		q->pkt_type = pkt_type;
		q->te = *te;
	}
	if (q->flags == (FIRST_IN | LAST_IN) && q->meat == q->len)
		return __reasm6(f, qi, mib, d);
	mib_inc(mib, MIB_F(PATH, IP6FRAGQUEUED));
	return MIB_F(PATH, IP6FRAGQUEUED);

discard_fq:
	__kill(f, qi);
	return __drop6(mib, true);
}
