/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv4 reassembly as Linux 6.18 does it for a local destination, in one
 * worker's struct path_frag (path.h). References:
 *   net/ipv4/ip_fragment.c     ip_defrag, ip_find, ip_frag_queue,
 *                              ip_frag_reasm, ip_expire
 *   net/ipv4/inet_fragment.c   inet_frag_find (the high_thresh check),
 *                              inet_frag_queue_insert (runs, RFC 5722),
 *                              inet_frag_kill, ip_frag_ecn_table
 *
 * A queue is keyed as ip_find keys it: saddr, daddr, id, protocol (the
 * user is IP_DEFRAG_LOCAL_DELIVER and the vif 0 for every fragment here).
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

#define FIRST_IN 1 /* INET_FRAG_FIRST_IN */
#define LAST_IN	 2 /* INET_FRAG_LAST_IN */

/* inet_frag_queue_insert's results. */
enum {
	FRAG_OK,
	FRAG_DUP,
	FRAG_OVERLAP
};

/* One queue (struct ipq). */
struct path_frag_queue {
	uint32_t saddr, daddr; /* the key, host order */
	uint16_t id;
	uint8_t proto;
	uint8_t flags;	     /* FIRST_IN, LAST_IN */
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
};

/* One queued fragment. */
struct path_frag_ent {
	uint32_t offset, end; /* its data in the datagram */
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

/* Blocks: high_thresh of them, plus the largest fragment, which may cross
 * it (the limit is checked before a fragment is queued). */
static uint32_t
__n_blocks(const struct path_frag_conf *fc)
{
	return (uint32_t)((fc->high_thresh + PATH_FRAG_BLOCK - 1) / PATH_FRAG_BLOCK) +
	       __blocks_for(DGRAM_MAX);
}

/* A live queue holds a block at least (one without is freed at once). */
static uint32_t
__n_buckets(uint32_t n)
{
	return rte_align32pow2(n);
}

static uint64_t
__layout(const struct path_frag_conf *fc, uint64_t off[6])
{
	uint32_t nb = __n_blocks(fc), nq = nb;
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
	o += RTE_ALIGN_CEIL(sizeof(struct rte_mbuf), 64) + DGRAM_MAX;
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

	if (fc->high_thresh > (UINT64_C(1) << 40) || fc->timeout == 0) {
		rte_errno = EINVAL;
		return NULL;
	}
	sz = __layout(fc, off);
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
	f->next_expiry = UINT64_MAX;
	f->n_blocks = __n_blocks(fc);
	f->max_queues = f->n_blocks;
	f->n_buckets = __n_buckets(f->max_queues);
	f->bucket = (uint32_t *)(p + off[0]);
	f->queue = (struct path_frag_queue *)(p + off[1]);
	f->ent = (struct path_frag_ent *)(p + off[2]);
	f->block_next = (uint32_t *)(p + off[3]);
	f->block = p + off[4];
	f->dgram = (struct rte_mbuf *)(p + off[5]);
	f->dgram->buf_addr = p + off[5] + RTE_ALIGN_CEIL(sizeof(struct rte_mbuf), 64);
	f->dgram->buf_len = DGRAM_MAX;
	f->dgram->nb_segs = 1;
	f->oldest = f->newest = NIL;
	for (i = 0; i < f->n_buckets; i++)
		f->bucket[i] = NIL;
	for (i = 0; i < f->max_queues; i++)
		f->queue[i].hnext = i + 1 < f->max_queues ? i + 1 : NIL;
	for (i = 0; i < f->n_blocks; i++) {
		f->ent[i].next = i + 1 < f->n_blocks ? i + 1 : NIL;
		f->block_next[i] = i + 1 < f->n_blocks ? i + 1 : NIL;
	}
	f->free_queue = f->max_queues > 0 ? 0 : NIL;
	f->free_ent = f->free_block = 0;
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
__hash(const struct path_frag *f, uint32_t saddr, uint32_t daddr, uint16_t id,
       uint8_t proto)
{
	return rte_jhash_3words(saddr, daddr, (uint32_t)id << 8 | proto, 0) &
	       (f->n_buckets - 1);
}

/* inet_frag_kill + inet_frag_destroy: out of the hash and the creation
 * order, its fragments and blocks back to the free lists, its memory
 * given back. */
static void
__kill(struct path_frag *f, uint32_t qi)
{
	struct path_frag_queue *q = &f->queue[qi];
	uint32_t *pp = &f->bucket[__hash(f, q->saddr, q->daddr, q->id, q->proto)];
	uint32_t e, b;

	while (*pp != qi)
		pp = &f->queue[*pp].hnext;
	*pp = q->hnext;
	if (q->prev != NIL)
		f->queue[q->prev].next = q->next;
	else
		f->oldest = q->next;
	if (q->next != NIL)
		f->queue[q->next].prev = q->prev;
	else
		f->newest = q->prev;
	f->next_expiry = f->oldest == NIL ? UINT64_MAX : f->queue[f->oldest].deadline;
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
	f->n_queues--;
	q->hnext = f->free_queue;
	f->free_queue = qi;
}

void
__path_frag_expire(struct path_frag *f, struct mib_block *mib)
{
	/* ip_expire: the queue's timer fired */
	while (f->oldest != NIL && f->queue[f->oldest].deadline <= f->now) {
		__kill(f, f->oldest);
		mib_inc(mib, MIB_F(IP, REASMFAILS));
		mib_inc(mib, MIB_F(IP, REASMTIMEOUT));
	}
}

/* ip_find: the queue of the key, or a new one (inet_frag_create: its
 * deadline set once, now + ipfrag_time). NIL when none is free, which the
 * memory check before it makes impossible. */
static uint32_t
__find(struct path_frag *f, uint32_t saddr, uint32_t daddr, uint16_t id, uint8_t proto)
{
	uint32_t h = __hash(f, saddr, daddr, id, proto), qi;
	struct path_frag_queue *q;

	for (qi = f->bucket[h]; qi != NIL; qi = f->queue[qi].hnext) {
		q = &f->queue[qi];
		if (q->saddr == saddr && q->daddr == daddr && q->id == id &&
		    q->proto == proto)
			return qi;
	}
	qi = f->free_queue;
	if (qi == NIL)
		return NIL;
	q = &f->queue[qi];
	f->free_queue = q->hnext;
	memset(q, 0, sizeof(*q));
	q->saddr = saddr;
	q->daddr = daddr;
	q->id = id;
	q->proto = proto;
	q->ents = NIL;
	q->deadline = f->now + f->conf.timeout;
	q->mem = sizeof(*q);
	f->mem += q->mem;
	f->n_queues++;
	q->hnext = f->bucket[h];
	f->bucket[h] = qi;
	q->next = NIL;
	q->prev = f->newest;
	if (f->newest != NIL)
		f->queue[f->newest].next = qi;
	else
		f->oldest = qi;
	f->newest = qi;
	f->next_expiry = f->queue[f->oldest].deadline;
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

/* ip_frag_reasm: the queue is complete; build the datagram in f->dgram. */
static unsigned int
__reasm(struct path_frag *f, uint32_t qi, struct mib_block *mib, struct path_dgram *d)
{
	struct path_frag_queue *q = &f->queue[qi];
	struct rte_mbuf *dm = f->dgram;
	uint8_t *buf = dm->buf_addr, ecn = ecn_table[q->ecn], hl = q->hl;
	uint32_t len = hl + q->len, e, b;
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
		uint32_t at = x->offset;

		for (b = x->block; b != NIL; b = f->block_next[b]) {
			uint32_t l = RTE_MIN(x->end - at, PATH_FRAG_BLOCK);

			memcpy(buf + hl + at, f->block + (uint64_t)b * PATH_FRAG_BLOCK,
			       l);
			at += l;
		}
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
	dm->data_off = 0;
	dm->data_len = (uint16_t)len;
	dm->pkt_len = len;
	dm->ol_flags = 0; /* CHECKSUM_NONE: L4 verifies in software */
	d->m = dm;
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
	struct path_frag_queue *q;
	int where;

	mib_inc(mib, MIB_F(IP, REASMREQDS));
	/* inet_frag_find: no memory for it (high_thresh 0 or crossed) */
	if (f == NULL || f->conf.high_thresh == 0 || f->mem > f->conf.high_thresh)
		return __drop(mib, true);
	qi = __find(f,
		    (uint32_t)iph[12] << 24 | (uint32_t)iph[13] << 16 |
			    (uint32_t)iph[14] << 8 | iph[15],
		    (uint32_t)iph[16] << 24 | (uint32_t)iph[17] << 16 |
			    (uint32_t)iph[18] << 8 | iph[19],
		    (uint16_t)(iph[4] << 8 | iph[5]), iph[9]);
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
	f->free_ent = f->ent[ei].next;
	f->ent[ei] = (struct path_frag_ent){
		.offset = offset, .end = end, .run = run, .next = q->ents, .block = blk
	};
	q->ents = ei;
	if (end > q->tail_end) {
		q->tail_end = end;
		q->tail_run = run;
	}
	q->meat += end - offset;
	q->ecn |= (uint8_t)(1u << (iph[1] & 3)); /* ip4_frag_ecn */
	q->mem += (uint64_t)n * PATH_FRAG_BLOCK;
	f->mem += (uint64_t)n * PATH_FRAG_BLOCK;
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
