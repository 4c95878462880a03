/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_PKT_H
#define PKTPATH_PKT_H

/**
 * @file
 * Packet synthesis for the built-in generator, the user-space counterpart of
 * kernel pktgen in "xmit_mode netif_receive".
 *
 * Templates: a read-only set of frames (pkt_templates), built from a flow
 * description in pktgen's range mode (pkt_templates_build()). Flow i is the
 * mixed-radix decomposition of i over the source address, source port,
 * destination address and destination port ranges, in that order (the source
 * address varies fastest), so N flows are N distinct 4-tuples as long as N
 * does not exceed the product of the range sizes.
 *
 * Generators: one per worker (pkt_gen), owning its mempool and mbufs.
 *  - PKT_ALLOC_REUSE (pktgen clone_skb): a ring of pre-built mbufs is handed
 *    out burst after burst and never freed; only the metadata the path may
 *    touch (ol_flags, packet_type) is reset on hand-out.
 *  - PKT_ALLOC_BULK (mempool bulk alloc): every burst is allocated with
 *    rte_pktmbuf_alloc_bulk, filled from the templates and, after the path,
 *    freed with rte_pktmbuf_free_bulk.
 *  - PKT_ALLOC_SLAB (SLUB bulk alloc, lib/slab): the mbufs of reuse, and
 *    for every packet an sk_buff-like head (struct pkt_skb_head) taken from
 *    the generator's slab cache in one bulk allocation per burst, written
 *    as the kernel writes an sk_buff it builds around received data
 *    (pkt_skb_head_build()), and given back in one bulk free after the
 *    path: what the kernel's receive path allocates per packet, so the
 *    difference from reuse is the cost of SLUB's bulk alloc + build + bulk
 *    free. pkt_gen_prefetch() switches the cache's next-object prefetch.
 *
 * Also here: mbuf pools in the layout and order a run asks for
 * (pkt_pool_create(), pkt_pool_shuffle()) and packet capture, per-worker
 * rings written to a pcap file by a control thread (capture.c).
 *
 * Thread-safety: templates are immutable once built and may be shared; a
 * pkt_gen belongs to exactly one worker lcore; capture as documented below.
 */

#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_memcpy.h>
#include <rte_ring.h>

#include "mib.h"
#include "slab.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The MAC of the generator's imaginary port: frames sent to it are
 * PACKET_HOST; --dst-mac can aim the frames elsewhere (PACKET_OTHERHOST). */
#define PKT_GEN_PORT_MAC {{ 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 }}

#define PKT_MIN_SIZE 42		/**< Ethernet + IPv4 + UDP headers */
#define PKT_MAX_SIZE 9000	/**< jumbo; must also fit the data room */

#define PKT_ETH_P_8021Q  0x8100	/**< 802.1Q tag (C-tag) TPID */
#define PKT_ETH_P_8021AD 0x88a8	/**< 802.1ad tag (S-tag) TPID */
#define PKT_VLAN_DEPTH 2	/**< tags in a stack: one, or two (QinQ) */

/** A VLAN tag as it is on the wire. */
struct pkt_vlan_tag {
	uint16_t tpid;	/**< PKT_ETH_P_8021Q or PKT_ETH_P_8021AD */
	uint16_t tci;	/**< PCP, DEI and VID, host order */
};

/** The generated frames' families (--family). */
enum pkt_family {
	PKT_FAMILY_IPV4,
	PKT_FAMILY_IPV6,
	PKT_FAMILY_MIXED, /**< flow i IPv6 if i is odd, IPv4 if even */
	PKT_FAMILY_MAX
};

/** The generated frames' upper layer (--l4). */
enum pkt_l4 {
	PKT_L4_UDP,
	PKT_L4_TCP,  /**< a SYN */
	PKT_L4_ICMP, /**< an echo request (ICMP or ICMPv6) */
	PKT_L4_MAX
};

/** IPv6 extension headers the generator can put before the upper layer
 *  (--ext6), by their next-header value. */
#define PKT_EXT6_HOP  0	 /**< hop-by-hop options, 6 bytes of PadN */
#define PKT_EXT6_RT   43 /**< a type 0 routing header, segments left 0 */
#define PKT_EXT6_FRAG 44 /**< an atomic fragment (offset 0, M 0) */
#define PKT_EXT6_DST  60 /**< destination options, 6 bytes of PadN */
#define PKT_EXT6_MAX  8	 /**< headers in a chain */

/** The order the fragments of a datagram are sent in (--frag-order). */
enum pkt_frag_order {
	PKT_FRAG_IN,	  /**< offset order */
	PKT_FRAG_REVERSE, /**< the last first */
	PKT_FRAG_SHUFFLE, /**< a fixed random order per flow */
	PKT_FRAG_ORDER_MAX
};

/** Flow description, pktgen range mode. Addresses in host byte order. */
struct pkt_flow_conf {
	uint16_t pkt_size;		/**< frame size without FCS */
	struct rte_ether_addr src_mac;
	struct rte_ether_addr dst_mac;
	uint32_t src_lo, src_hi;
	uint32_t dst_lo, dst_hi;
	uint16_t sport_lo, sport_hi;
	uint16_t dport_lo, dport_hi;
	uint32_t flows;			/**< number of distinct templates, >= 1 */
	uint8_t ttl;
	uint8_t tos;
	bool udp_csum;			/**< compute the UDP checksum (pktgen UDPCSUM) */
	/** VLAN tags of every frame, outermost first (pktgen's svlan and
	 *  vlan): inside pkt_size, as pktgen counts them. */
	unsigned int n_tags;		/**< 0..PKT_VLAN_DEPTH */
	struct pkt_vlan_tag tags[PKT_VLAN_DEPTH];
	uint8_t family; /**< enum pkt_family */
	uint8_t l4;	/**< enum pkt_l4 */
	/** IPv6 addresses, network order: src6 .. src6 + src6_n - 1 (the
	 *  low 32 bits count), the same for dst6; flow i decomposes over them
	 *  as over the IPv4 ranges. */
	uint8_t src6[16], dst6[16];
	uint32_t src6_n, dst6_n;    /**< >= 1 */
	unsigned int n_ext6;	    /**< 0..PKT_EXT6_MAX */
	uint8_t ext6[PKT_EXT6_MAX]; /**< PKT_EXT6_*, outermost first */
	/** Split each frame's datagram into fragments of at most this many
	 *  bytes of data (a multiple of 8, at least pkt_frag_min()); 0: no. */
	uint16_t frag_size;
	uint8_t frag_order; /**< enum pkt_frag_order */
};

/** The smallest frame of c's flows of family (PKT_FAMILY_IPV4 or _IPV6):
 *  the L2 header and tags, the IP header (and IPv6 extension headers),
 *  the upper layer's header. Thread-safe. */
uint16_t pkt_min_size(const struct pkt_flow_conf *c, enum pkt_family family);

/** "ipv4", "ipv6", "mixed"; "udp", "tcp", "icmp"; "in", "reverse",
 *  "shuffle": names by enum. */
extern const char *const pkt_family_names[PKT_FAMILY_MAX];
extern const char *const pkt_frag_order_names[PKT_FRAG_ORDER_MAX];
extern const char *const pkt_l4_names[PKT_L4_MAX];

/**
 * Write the frame of flow i into buf (c->pkt_size bytes): Ethernet,
 * c->tags, IPv4 or IPv6 by c->family (the IPv6 extension headers of
 * c->ext6), then c->l4: UDP, a TCP SYN or an echo request, every
 * checksum right (UDP's over IPv4 only with c->udp_csum; over IPv6 it is
 * mandatory), zero payload.
 * @return the frame length, or -EINVAL if buf_len or c->pkt_size is too
 *         small (pkt_min_size()) or c is out of range.
 */
int pkt_build(const struct pkt_flow_conf *c, uint32_t i, uint8_t *buf, uint16_t buf_len);

/** The smallest c->frag_size for c's frames: every header that may follow
 *  the fragment header (--ext6's, the upper layer's) fits in the first
 *  fragment, as RFC 8200 4.5 wants it, rounded up to 8. Thread-safe. */
uint16_t pkt_frag_min(const struct pkt_flow_conf *c);

/** The most fragments a frame of c becomes (1 without c->frag_size).
 *  Thread-safe. */
uint32_t pkt_frag_max(const struct pkt_flow_conf *c);

/**
 * Split frame (len bytes, pkt_build(c, i, ...)'s) into fragments of at
 * most c->frag_size bytes of data, in c->frag_order (frag.c says how): a
 * datagram no longer than that is one frame, unchanged. out[] and
 * out_len[] have pkt_frag_max(c) entries; each frame is malloc'd.
 * Thread-safe.
 * @return the number of frames, or -EINVAL (c->frag_size 0, not a multiple
 *         of 8 or below pkt_frag_min(), --ext6 holding a fragment header,
 *         a frame that is not c's) or -ENOMEM (nothing left allocated).
 */
int pkt_frag_split(const struct pkt_flow_conf *c, uint32_t i, const uint8_t *frame,
		   uint16_t len, uint8_t **out, uint16_t *out_len);

/** Immutable set of frames. */
struct pkt_templates {
	uint32_t n;
	uint16_t *len;
	uint8_t **data;
	uint16_t max_len;
};

/** Fill c with pktpath's defaults (see --help; ttl 64, which no option
 *  sets). pktpath's option table holds the same defaults, and its unit test
 *  checks that the two agree. */
void pkt_flow_conf_default(struct pkt_flow_conf *c);

/**
 * Write the frame of flow i into buf (c->pkt_size bytes). Valid Ethernet /
 * c->tags / IPv4 (correct header checksum) / UDP, zero payload.
 * @return the frame length, or -EINVAL if buf_len is too small, or
 *         c->pkt_size too small for the headers (PKT_MIN_SIZE and 4 bytes
 *         per tag), or c->n_tags above PKT_VLAN_DEPTH.
 */
int pkt_build_udp(const struct pkt_flow_conf *c, uint32_t i, uint8_t *buf,
		  uint16_t buf_len);

/**
 * The bounds of a long set-up step (templates of a million flows, or of a
 * pcap file of gigabytes): what it may allocate, and a flag that stops it.
 * A NULL struct pkt_limits * is no bound and no flag.
 */
struct pkt_limits {
	/** Refuse (ENOMEM) before allocating when the step needs more bytes
	 *  than this; 0: no bound. */
	uint64_t mem_max;
	/** Stop (EINTR, everything freed) at the next item once it is
	 *  non-zero; pktpath points it at the flag its SIGINT/SIGTERM handler
	 *  sets. NULL: never. */
	const volatile sig_atomic_t *cancel;
};

/** Bytes n templates of len bytes take from the C allocator: the frames,
 *  their lengths and pointers, and each frame's allocator header.
 *  Thread-safe. */
uint64_t pkt_templates_bytes(uint64_t n, uint64_t len);

/**
 * Build c->flows templates (at most 1 << 20); with c->frag_size, the
 * fragments of each flow's frame (pkt_frag_split()), one after another,
 * flow after flow: as many templates as fragments.
 * @param lim  NULL, or the bounds: pkt_templates_bytes(flows *
 *             pkt_frag_max(c), pkt_size) over lim->mem_max is refused
 *             before any allocation
 * @return the templates (free with pkt_templates_free) or NULL, errno set:
 *         EINVAL (c), ENOMEM (over lim->mem_max, or the allocator said
 *         so), EINTR (*lim->cancel was set).
 */
struct pkt_templates *pkt_templates_build(const struct pkt_flow_conf *c,
					  const struct pkt_limits *lim);

/**
 * Load every frame of a pcap file (libpcap, on the file opened as every
 * input is: a regular file, base.h "Files") as templates. Frames longer
 * than max_len are refused.
 * @param lim  NULL, or the bounds: a file larger than lim->mem_max is
 *             refused before a frame is read (the frames take about the
 *             file's size: each record's 16-byte header in the file is
 *             about what a frame costs the allocator beside its bytes);
 *             *lim->cancel stops the load between two frames
 * @param err  one-line reason on failure (names the file, and the frame
 *             index where relevant)
 * @return templates, or NULL with errno: EINTR (cancelled), ENOMEM (over
 *         the bound or out of memory), EINVAL (any other reason).
 */
struct pkt_templates *pkt_templates_from_pcap(const char *file,
					      uint16_t max_len,
					      const struct pkt_limits *lim,
					      char *err, size_t err_len);

/** Free templates (NULL is a no-op). */
void pkt_templates_free(struct pkt_templates *t);

/** Write templates to a pcap file (DLT_EN10MB), opened as every output is
 *  (base.h "Files"): 0, or -errno (the open's refusal; -ENOSPC, -EIO...
 *  of a write or of the final fsync/close). */
int pkt_templates_to_pcap(const struct pkt_templates *t, const char *file);

/** pkt_pool_create() flags. */
#define PKT_POOL_PACKED  0x1u	/**< back to back whatever the pages */
#define PKT_POOL_SHUFFLE 0x2u	/**< free objects in a fixed random order */
#define PKT_POOL_SEED 0x706b7470617468ull	/**< "pktpath": the order PKT_POOL_SHUFFLE gives */

/**
 * An mbuf pool. Without PKT_POOL_PACKED it is rte_pktmbuf_pool_create(),
 * which keeps every mbuf within one page: on hugepages that packs them back
 * to back, but with --no-huge (4 KiB pages) each mbuf gets a page of its
 * own at the same offset, and the mbufs of a burst then share the same L1
 * sets (what that costs: the journal's "--no-huge artefact",
 * scripts/bench.d/journal/). PKT_POOL_PACKED lays them out back to back
 * whatever the pages (RTE_MEMPOOL_F_NO_IOVA_CONTIG): only for IOVA-as-VA,
 * where a page-spanning mbuf is still contiguous for DMA.
 * PKT_POOL_SHUFFLE then applies pkt_pool_shuffle().
 * @return the pool, or NULL with rte_errno set.
 */
struct rte_mempool *pkt_pool_create(const char *name, unsigned int n,
				    unsigned int cache, uint16_t room,
				    int socket, unsigned int flags);

/**
 * Bytes of EAL memory pkt_pool_create(n, cache, room, flags) takes when
 * EAL's pages are page_sz bytes: the mbufs (without PKT_POOL_PACKED each
 * within one page, so on 4 KiB pages one mbuf a page), the ring of their
 * pointers and the per-lcore caches. Thread-safe.
 */
uint64_t pkt_pool_bytes(unsigned int n, uint16_t room, unsigned int flags,
			uint64_t page_sz);

/**
 * Put a pool's free objects in a pseudo-random order fixed by seed (the
 * same order every run). A new pool hands out its objects in address
 * order, so the few dozen mbufs a receive loop recycles through its
 * per-lcore cache are neighbours; with one mbuf per 4 KiB page that is a
 * run of consecutive pages, measurably slower to recycle than the
 * scattered set a pool in use for a while holds (scripts/bench.d/journal/, "Pool order").
 * Call it before any lcore takes from the pool: it reorders what the
 * pool's backend holds, not what is in per-lcore caches.
 * @return 0, or -errno (the pool is then unchanged).
 */
int pkt_pool_shuffle(struct rte_mempool *mp, uint64_t seed);

/** --pool-layout: rte_pktmbuf_pool_create()'s, or PKT_POOL_PACKED. */
enum pkt_pool_layout { PKT_POOL_LAYOUT_PAGE, PKT_POOL_LAYOUT_PACKED, PKT_POOL_LAYOUT_MAX };
/** --pool-order: as created, or PKT_POOL_SHUFFLE. */
enum pkt_pool_order { PKT_POOL_ORDER_ADDRESS, PKT_POOL_ORDER_SHUFFLE, PKT_POOL_ORDER_MAX };

/** Names of the pool layouts and orders ("page", "packed"; "address",
 *  "shuffle"), indexed by the enum. */
extern const char *const pkt_pool_layout_names[PKT_POOL_LAYOUT_MAX];
extern const char *const pkt_pool_order_names[PKT_POOL_ORDER_MAX];

/** The name, or "?" out of range. Thread-safe. */
const char *pkt_pool_layout_name(enum pkt_pool_layout l);
const char *pkt_pool_order_name(enum pkt_pool_order o);
/** Parse a name (exact); 0, or -EINVAL (out untouched). Thread-safe. */
int pkt_pool_layout_parse(const char *s, enum pkt_pool_layout *out);
int pkt_pool_order_parse(const char *s, enum pkt_pool_order *out);

/** pkt_pool_create()'s flags for a layout and an order. */
static inline unsigned int
pkt_pool_flags(enum pkt_pool_layout l, enum pkt_pool_order o)
{
	return (l == PKT_POOL_LAYOUT_PACKED ? PKT_POOL_PACKED : 0u) |
	       (o == PKT_POOL_ORDER_SHUFFLE ? PKT_POOL_SHUFFLE : 0u);
}

enum pkt_alloc {
	PKT_ALLOC_REUSE,
	PKT_ALLOC_BULK,
	PKT_ALLOC_SLAB,
	PKT_ALLOC_MAX
};

/** "reuse", "bulk", "slab", indexed by enum pkt_alloc. */
extern const char *const pkt_alloc_names[PKT_ALLOC_MAX];
/** The name, or "?" out of range. Thread-safe. */
const char *pkt_alloc_name(enum pkt_alloc a);
/** Parse a name (exact); 0, or -EINVAL (out untouched). Thread-safe. */
int pkt_alloc_parse(const char *s, enum pkt_alloc *out);

/*
 * --alloc slab: the object the generator takes for every packet, shaped as
 * an sk_buff of skbuff_head_cache on x86-64 (Linux 6.1): 232 bytes in a
 * 256-byte slot (SLAB_HWCACHE_ALIGN), its free pointer where SLUB has put
 * it since 5.7, in the middle of the object (ALIGN_DOWN(232 / 2, 8)).
 */
#define PKT_SKB_HEAD_SIZE  256	/**< the slab's object stride */
#define PKT_SKB_HEAD_FP	   112	/**< the free pointer's offset */
#define PKT_SKB_HEAD_CLEAR 184	/**< offsetof(struct sk_buff, tail) */
#define PKT_SKB_HEAD_PAGE  8192 /**< an order-1 slab: 32 objects */

/** The head: what __build_skb_around() clears and sets (same offsets for
 *  the fields after the cleared part; those before it are the ones the
 *  receive path sets first: length, protocol, headers). */
struct pkt_skb_head {
	struct rte_mbuf *m; /**< the packet's buffer (the kernel: its page) */
	uint32_t len;	    /**< skb->len */
	uint32_t data_len;  /**< skb->data_len (0: linear) */
	uint8_t cleared[PKT_SKB_HEAD_CLEAR - 16]; /**< the rest up to tail */
	uint32_t tail, end; /**< offsets of the data's end, the buffer's end */
	void *head, *data;  /**< the buffer, the packet's first byte */
	uint32_t truesize;  /**< buffer + head, as SKB_TRUESIZE */
	uint32_t users;	    /**< the reference count, 1 */
	uint8_t pad[PKT_SKB_HEAD_SIZE - PKT_SKB_HEAD_CLEAR - 32];
};
static_assert(sizeof(struct pkt_skb_head) == PKT_SKB_HEAD_SIZE, "skb head size");
static_assert(offsetof(struct pkt_skb_head, tail) == PKT_SKB_HEAD_CLEAR,
	      "skb head: tail where the clearing ends");

/** Build head h around packet m, as __build_skb_around() does: clear the
 *  head up to tail, then set the buffer's pointers and sizes. */
static __rte_always_inline void
pkt_skb_head_build(struct pkt_skb_head *h, struct rte_mbuf *m)
{
	memset(h, 0, PKT_SKB_HEAD_CLEAR);
	h->m = m;
	h->len = rte_pktmbuf_pkt_len(m);
	h->head = m->buf_addr;
	h->data = rte_pktmbuf_mtod(m, void *);
	h->tail = (uint32_t)m->data_off + rte_pktmbuf_data_len(m);
	h->end = m->buf_len;
	h->truesize = (uint32_t)m->buf_len + PKT_SKB_HEAD_SIZE;
	h->users = 1;
}

/** One worker's generator. */
struct pkt_gen {
	struct rte_mempool *mp;
	const struct pkt_templates *tpl;
	enum pkt_alloc alloc;
	uint16_t burst;
	uint32_t next_tpl;	/**< next template (bulk mode, reuse rewrite) */
	uint32_t ring_n;	/**< reuse: number of pre-built mbufs */
	uint32_t ring_pos;
	bool rewrite;		/**< reuse: more templates than mbufs */
	struct rte_mbuf **ring;
	/** RX flags stamped on every frame (0 after pkt_gen_init()): e.g.
	 *  RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD to play
	 *  a NIC that verified the checksums of the frames it synthesised. */
	uint64_t ol_flags;
	/** slab: the heads of the burst being processed, and their cache */
	void **heads;
	struct slab_cache slab;
};

/**
 * Set up a generator: in reuse and slab modes, pre-build its mbufs from
 * mp; in slab mode, carve its slab cache (PKT_SKB_HEAD_SIZE objects on
 * PKT_SKB_HEAD_PAGE pages, enough for a burst and one page more, on mp's
 * socket), its next-object prefetch off until pkt_gen_prefetch().
 * @return 0 or -errno (ENOMEM when mp is too small, or the heap for the
 *         slab's pages).
 */
int pkt_gen_init(struct pkt_gen *g, struct rte_mempool *mp,
		 const struct pkt_templates *tpl, enum pkt_alloc alloc,
		 uint16_t burst);

/**
 * The bytes pkt_gen_init() takes from EAL's heap besides mp's mbufs: the
 * reuse ring's pointers, and in slab mode the heads' array and the slab's
 * pages with their alignment (for set-up's memory check, before anything
 * is allocated; the heap's own headers not counted).
 */
uint64_t pkt_gen_bytes(const struct pkt_templates *tpl, enum pkt_alloc alloc,
		       uint16_t burst);

/** Release a generator's mbufs (reuse ring) and slab cache. */
void pkt_gen_fini(struct pkt_gen *g);

/** --alloc slab: switch the slab cache's next-object prefetch (SLUB's
 *  prefetch_freepointer). Nothing in the other modes. Not while the
 *  generator's worker runs. */
static inline void
pkt_gen_prefetch(struct pkt_gen *g, bool on)
{
	slab_cache_prefetch(&g->slab, on);
}

/**
 * Produce up to n (<= the generator's burst) packets.
 * @return the number produced; 0 only if an allocation failed (bulk: the
 *         mempool; slab: the slab cache, counted in g->slab.fails).
 */
/* The reuse ring's next n mbufs (reuse and slab), each built a head from
 * g->heads when slab (a constant at each call: the reuse loop carries no
 * test of it). */
static __rte_always_inline void
__pkt_gen_ring(struct pkt_gen *g, struct rte_mbuf **pkts, uint16_t n, const bool slab)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = g->ring[g->ring_pos];

		if (++g->ring_pos == g->ring_n)
			g->ring_pos = 0;
		if (g->rewrite) {
			uint32_t t = g->next_tpl;

			if (++g->next_tpl == g->tpl->n)
				g->next_tpl = 0;
			rte_memcpy(rte_pktmbuf_mtod(m, void *), g->tpl->data[t],
				   g->tpl->len[t]);
			m->data_len = g->tpl->len[t];
			m->pkt_len = g->tpl->len[t];
		}
		m->ol_flags = g->ol_flags;
		m->packet_type = 0;
		if (slab)
			pkt_skb_head_build(g->heads[i], m);
		pkts[i] = m;
	}
}

static inline uint16_t
pkt_gen_burst(struct pkt_gen *g, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	if (g->alloc == PKT_ALLOC_REUSE) {
		__pkt_gen_ring(g, pkts, n, false);
		return n;
	}
	if (g->alloc == PKT_ALLOC_SLAB) {
		if (unlikely(slab_alloc_bulk(&g->slab, g->heads, n) == 0))
			return 0;
		__pkt_gen_ring(g, pkts, n, true);
		return n;
	}
	if (rte_pktmbuf_alloc_bulk(g->mp, pkts, n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t t = g->next_tpl;

		if (++g->next_tpl == g->tpl->n)
			g->next_tpl = 0;
		rte_memcpy(rte_pktmbuf_mtod(m, void *), g->tpl->data[t],
			   g->tpl->len[t]);
		m->data_len = g->tpl->len[t];
		m->pkt_len = g->tpl->len[t];
		m->ol_flags = g->ol_flags;
	}
	return n;
}

/** The sink for generated packets: recycle (reuse), free (bulk), or
 *  recycle the mbufs and free the burst's heads in bulk (slab). Reuse,
 *  the default, has nothing to do: one test a burst for it (a test of
 *  bulk, then of slab, was two). */
static inline void
pkt_gen_done(struct pkt_gen *g, struct rte_mbuf **pkts, uint16_t n)
{
	if (likely(g->alloc == PKT_ALLOC_REUSE))
		return;
	if (g->alloc == PKT_ALLOC_BULK)
		rte_pktmbuf_free_bulk(pkts, n);
	else
		slab_free_bulk(&g->slab, g->heads, n);
}

/**
 * Free a received burst (n >= 1) as testpmd's rxonly frees it: when every
 * mbuf is direct (no attached or external buffer), its only reference
 * (refcnt 1), one segment (nb_segs 1, no next) and of the first one's
 * pool -- what a PMD's receive gives -- they go back to that pool in one
 * rte_mempool_put_bulk(), which is what rte_pktmbuf_free_bulk() ends in
 * for such mbufs after its rte_pktmbuf_prefree_seg() of each (which
 * changes nothing in them) and its grouping by pool; any other burst goes
 * to rte_pktmbuf_free_bulk(), whole. The checks are ORed together, one
 * branch a burst. Thread-safety: as rte_pktmbuf_free_bulk() (the calling
 * lcore's mempool cache).
 */
static inline void
pkt_free_burst(struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mempool *mp = pkts[0]->pool;
	uint64_t other = 0;
	uint16_t i;

	for (i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];

		other |= (uintptr_t)m->pool ^ (uintptr_t)mp;
		other |= m->ol_flags & (RTE_MBUF_F_INDIRECT | RTE_MBUF_F_EXTERNAL);
		other |= (uint64_t)(rte_mbuf_refcnt_read(m) ^ 1u);
		other |= (uint64_t)(m->nb_segs ^ 1u);
		other |= (uintptr_t)m->next;
	}
	if (likely(other == 0))
		rte_mempool_put_bulk(mp, (void **)pkts, n);
	else
		rte_pktmbuf_free_bulk(pkts, n);
}

/* ------------------------------------------------------------------ */
/* Parsing: the values users write for packet fields                   */
/* ------------------------------------------------------------------ */

/*
 * Numbers, IPv4 addresses, address ranges, prefixes, port ranges and VLAN
 * tag stacks as users write them in options, INI files and rules files: one
 * parser for all of
 * them, here because these are the values of a packet's fields (the flow
 * ranges of struct pkt_flow_conf are made of them) and lib/pkt is the lowest
 * library that knows them, so lib/path, lib/ingress and the application can
 * all use it.
 *
 *  - Integers are decimal: digits only (no sign, no blank), the whole string,
 *    leading zeros included ("010" is ten); hexadecimal is refused with its
 *    own reason; a value outside lo..hi (however many digits) is out of range.
 *  - Addresses are dotted quads as inet_pton(3) takes them: four decimal
 *    parts 0..255 and no leading zero ("010.0.0.1" is refused: inet_aton(3)
 *    would read it as octal, so no reading is guessed). Host byte order.
 *  - Ranges are "A" or "A-B" with A <= B.
 *
 * Each returns 0, or a negative errno (-ERANGE for a number out of range,
 * -EINVAL otherwise) with one reason in err that quotes the input:
 *   '0x10' is not a decimal number (hexadecimal is not accepted)
 *   '70000' is not a port or range P-Q (decimal, 0..65535)
 * The caller prefixes what was parsed ("--dport: ", "FILE:LINE: dport: ").
 * Outputs are untouched on error. Thread-safe (no state).
 */

/** A decimal integer in lo..hi. */
int pkt_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
		  char *err, size_t errlen);
/** An IPv4 address A.B.C.D. */
int pkt_parse_ipv4(const char *s, uint32_t *addr, char *err, size_t errlen);
/** An IPv4 address A or range A-B. */
int pkt_parse_ipv4_range(const char *s, uint32_t *lo, uint32_t *hi, char *err,
			 size_t errlen);
/**
 * A.B.C.D or A.B.C.D/LEN, LEN 0..32 (32 without one). host_bits: an address
 * within its subnet (198.51.100.1/24); otherwise a prefix, whose host bits
 * must be clear (the reason then suggests the prefix that was meant).
 */
int pkt_parse_prefix(const char *s, bool host_bits, uint32_t *addr,
		     uint8_t *len, char *err, size_t errlen);
/** A port P or range P-Q, 0..65535. */
int pkt_parse_port_range(const char *s, uint16_t *lo, uint16_t *hi, char *err,
			 size_t errlen);
/** An IPv6 address (inet_pton's forms), network order. */
int pkt_parse_ipv6(const char *s, uint8_t addr[16], char *err, size_t errlen);
/** An IPv6 address A or range A-B whose ends differ in their low 32 bits
 *  only, B >= A: *lo = A, *n = B - A + 1. */
int pkt_parse_ipv6_range(const char *s, uint8_t lo[16], uint32_t *n, char *err,
			 size_t errlen);
/** A/LEN, LEN 1..128 (128 without one): an IPv6 address within its
 *  subnet. */
int pkt_parse_prefix6(const char *s, uint8_t addr[16], uint8_t *len, char *err,
		      size_t errlen);

/** One tag of a stack as users write it: a TPID and a range of VIDs. */
struct pkt_vlan_range {
	uint16_t tpid;		/**< PKT_ETH_P_8021Q or PKT_ETH_P_8021AD */
	uint16_t lo, hi;	/**< VIDs, lo <= hi */
};

/** A stack of VLAN tags, outermost first. */
struct pkt_vlan_stack {
	unsigned int depth;	/**< 1..PKT_VLAN_DEPTH */
	struct pkt_vlan_range tag[PKT_VLAN_DEPTH];
};

/**
 * A stack of VLAN tags TAG[.TAG], outermost first, as Linux names stacked
 * VLAN devices (eth0.100.200): TAG is VID (an 802.1Q tag, TPID 0x8100) or
 * adVID (an 802.1ad tag, 0x88a8), VID decimal in vid_lo..vid_hi; with
 * ranges, VID-VID too (lo <= hi). At most PKT_VLAN_DEPTH tags.
 */
int pkt_parse_vlan_stack(const char *s, uint16_t vid_lo, uint16_t vid_hi,
			 bool ranges, struct pkt_vlan_stack *out, char *err,
			 size_t errlen);

/* ------------------------------------------------------------------ */
/* Capture: workers copy chosen packets into per-worker rings, without  */
/* ever blocking; a control thread writes them to a pcap file.          */
/* ------------------------------------------------------------------ */

/*
 * The counters (MIB group Capture) say what became of every frame chosen:
 * CapturePackets, frames written whole to the file (the writer counts
 * them once a write carrying them succeeded, so they are what libpcap and
 * tcpdump read back); CaptureOverflow, frames a worker found no free slot
 * for; CaptureWriteErrors, frames not written because a write failed.
 * Once the run has stopped and pkt_capture_stop() returned, the three add
 * up to the frames chosen (up to --capture-max).
 *
 * A failed write (ENOSPC, EIO, EDQUOT, an fsync() at the end...) stops the
 * capture, for good: the error is logged once with its errno (log type
 * pktpath.capture), the file keeps the frames written before it, cut back
 * to the last whole frame when it is a regular file, and every frame
 * chosen from then on (those queued, those the workers choose later) is
 * counted in CaptureWriteErrors instead of being copied. The run itself
 * goes on; pkt_capture_status() says what happened.
 */

enum pkt_capture_what {
	PKT_CAPTURE_DROPS,	/**< packets that end in a drop outcome */
	PKT_CAPTURE_MARKED,	/**< packets the ingress hook marked */
	PKT_CAPTURE_ALL,	/**< every packet */
	PKT_CAPTURE_MAX
};

/** "drops", "marked", "all", indexed by enum pkt_capture_what. */
extern const char *const pkt_capture_what_names[PKT_CAPTURE_MAX];
/** The name, or "?" out of range. Thread-safe. */
const char *pkt_capture_what_name(enum pkt_capture_what w);
/** Parse a name (exact); 0, or -EINVAL (out untouched). Thread-safe. */
int pkt_capture_what_parse(const char *s, enum pkt_capture_what *out);

/** A copied frame. */
struct pkt_capture_slot {
	uint64_t tsc;
	uint32_t len;		/**< original length */
	uint32_t caplen;	/**< bytes copied (<= snaplen) */
	uint8_t data[];
};

/** One worker's pair of single-producer single-consumer rings. */
struct pkt_capture_lane {
	struct rte_ring *free;	/**< slots the worker may fill */
	struct rte_ring *full;	/**< slots for the writer */
	void *mem;
} __rte_cache_aligned;

struct pkt_pcap_out;

/**
 * A capture. The first cache line is the workers': what they read per
 * captured packet, set up once, taken, which they all add to when a
 * maximum is set, and failed, which the writer sets once. The writer
 * thread's fields start a line of their own, so that its updates never
 * invalidate the line the workers read; the lanes follow, a line each.
 */
struct pkt_capture {
	uint64_t max;			/**< capture at most this many (0: no limit) */
	uint64_t taken;			/**< atomic: slots claimed, all workers */
	uint32_t snaplen;
	unsigned int n_lanes;
	int failed;			/**< atomic: the writer's first error (-errno) */
	/* writer side */
	struct pkt_pcap_out *out __rte_cache_aligned;	/**< the file */
	char *file;			/**< its name, for the log */
	struct mib_block mib;		/**< the control block: its Capture counters */
	uint64_t tsc0;
	uint64_t usec0;
	volatile int stop;
	pthread_t tid;
	bool running;
	struct pkt_capture_lane lane[];
};

/**
 * Open FILE for writing as every output is (base.h "Files": a regular
 * file or a character device, never a FIFO), write its pcap header
 * (DLT_EN10MB), and create one lane per worker with ring_size slots of
 * snaplen bytes each.
 * @param ctl  the control block: the writer thread counts CapturePackets
 *             and its CaptureWriteErrors there (their one writer)
 * @return the capture, or NULL with a one-line reason in err ("FILE: a
 *         FIFO, not a regular file or a character device", "capture
 *         rings: out of memory", ...) and errno (EINVAL, ENOMEM, the
 *         file's).
 * Needs EAL. Not thread-safe (set-up).
 */
struct pkt_capture *pkt_capture_create(const char *file, unsigned int n_workers,
				       uint64_t max, unsigned int ring_size,
				       uint32_t snaplen, struct mib_block ctl,
				       char *err, size_t errlen);

/** Bytes of EAL memory pkt_capture_create() takes for n_workers lanes of
 *  ring_size slots of snaplen bytes (rings, slots, the capture itself).
 *  Thread-safe. */
uint64_t pkt_capture_bytes(unsigned int n_workers, unsigned int ring_size,
			   uint32_t snaplen);

/** Start the writer (a DPDK control thread). 0 or -errno. */
int pkt_capture_start(struct pkt_capture *c);

/** Stop the writer, write what is left, finish the file (fsync, close).
 *  Workers must be done. */
void pkt_capture_stop(struct pkt_capture *c);

/** What became of the file. */
struct pkt_capture_status {
	uint64_t frames;	/**< whole frames in the file */
	int error;		/**< 0, or the -errno that stopped the capture */
	int cut_error;		/**< 0, or why the partial last frame stayed */
};

/** The file's status; after pkt_capture_stop(), final. Writer's thread or
 *  after pkt_capture_stop(). */
void pkt_capture_status(const struct pkt_capture *c, struct pkt_capture_status *st);

/** Free (stops first if needed). NULL is a no-op. */
void pkt_capture_free(struct pkt_capture *c);

/**
 * Copy m into worker wid's ring, never blocking: no free slot (or a full
 * ring) counts CaptureOverflow, a capture stopped by a failed write counts
 * CaptureWriteErrors; past --capture-max nothing is counted. Worker wid
 * only.
 */
static inline void
pkt_capture_packet(struct pkt_capture *c, unsigned int wid,
		   const struct rte_mbuf *m, uint64_t tsc, struct mib_block *mib)
{
	struct pkt_capture_lane *l = &c->lane[wid];
	struct pkt_capture_slot *s = NULL;
	uint32_t n;

	if (c->max != 0) {
		if (__atomic_load_n(&c->taken, __ATOMIC_RELAXED) >= c->max)
			return;
		if (__atomic_fetch_add(&c->taken, 1, __ATOMIC_RELAXED) >= c->max)
			return;
	}
	const void *p;

	/* Relaxed: a frame chosen just after the failure may still be
	 * copied; the writer then counts it. */
	if (unlikely(__atomic_load_n(&c->failed, __ATOMIC_RELAXED) != 0)) {
		mib_inc(mib, MIB_F(CAPTURE, WRITEERRORS));
		return;
	}
	if (unlikely(rte_ring_sc_dequeue(l->free, (void **)&s) != 0)) {
		mib_inc(mib, MIB_F(CAPTURE, OVERFLOW));
		return;
	}
	n = RTE_MIN(rte_pktmbuf_pkt_len(m), c->snaplen);
	s->tsc = tsc;
	s->len = rte_pktmbuf_pkt_len(m);
	s->caplen = n;
	p = rte_pktmbuf_read(m, 0, n, s->data);
	if (p != s->data)
		rte_memcpy(s->data, p, n);
	/* Both rings hold every slot (RING_F_EXACT_SZ), so this cannot fail;
	 * the enqueue is a store-release: the writer sees the copy. */
	rte_ring_sp_enqueue(l->full, s);
}

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_PKT_H */
