/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Template synthesis (pktgen range mode), pcap templates, per-worker
 * generators, mbuf pools (layout and order).
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf_pool_ops.h>

#include "base.h"
#include "pkt.h"
#include "pkt_pvt.h"

#define PKT_MAX_FLOWS (1u << 20)
#define PKT_RING_MAX 8192

void
pkt_flow_conf_default(struct pkt_flow_conf *c)
{
	static const struct rte_ether_addr dmac = PKT_GEN_PORT_MAC;
	static const struct rte_ether_addr smac = {{ 0x02, 0, 0, 0, 0, 0x02 }};

	memset(c, 0, sizeof(*c));
	c->pkt_size = 60;
	c->dst_mac = dmac;
	c->src_mac = smac;
	c->src_lo = UINT32_C(0xc6120001);	/* 198.18.0.1 */
	c->src_hi = UINT32_C(0xc61200fe);	/* 198.18.0.254 */
	c->dst_lo = c->dst_hi = UINT32_C(0xc6130001);	/* 198.19.0.1 */
	c->sport_lo = 1024;
	c->sport_hi = 65535;
	c->dport_lo = c->dport_hi = 9;
	c->flows = 64;
	c->ttl = 64;
	c->tos = 0;
	c->udp_csum = false;
	c->family = PKT_FAMILY_IPV4;
	c->l4 = PKT_L4_UDP;
	/* RFC 5180's benchmarking prefix: 2001:2::1-fe to 2001:2:0:1::1 */
	c->src6[0] = c->dst6[0] = 0x20;
	c->src6[1] = c->dst6[1] = 0x01;
	c->src6[3] = c->dst6[3] = 0x02;
	c->dst6[7] = 0x01;
	c->src6[15] = c->dst6[15] = 0x01;
	c->src6_n = 254;
	c->dst6_n = 1;
}

static struct pkt_templates *
__tpl_alloc(uint32_t n)
{
	struct pkt_templates *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->len = calloc(n ? n : 1, sizeof(*t->len));
	t->data = calloc(n ? n : 1, sizeof(*t->data));
	if (t->len == NULL || t->data == NULL) {
		pkt_templates_free(t);
		return NULL;
	}
	return t;
}

void
pkt_templates_free(struct pkt_templates *t)
{
	uint32_t i;

	if (t == NULL)
		return;
	for (i = 0; t->data != NULL && i < t->n; i++)
		free(t->data[i]);
	free(t->data);
	free(t->len);
	free(t);
}

/* The glibc allocator's header and alignment: what a malloc(len) takes. */
static uint64_t
__tpl_chunk(uint64_t len)
{
	return (len + 8 + 15) / 16 * 16;
}

uint64_t
pkt_templates_bytes(uint64_t n, uint64_t len)
{
	return n * (__tpl_chunk(len) + sizeof(uint8_t *) + sizeof(uint16_t));
}

static bool
__cancelled(const struct pkt_limits *lim)
{
	return lim != NULL && lim->cancel != NULL && *lim->cancel != 0;
}

/* pkt_templates_build() with c->frag_size: each flow's frame split. */
static struct pkt_templates *
__tpl_build_frag(const struct pkt_flow_conf *c, const struct pkt_limits *lim)
{
	uint32_t k = pkt_frag_max(c), i;
	struct pkt_templates *t;
	uint8_t *frame = malloc(c->pkt_size);
	int n = 0;

	t = frame == NULL || (uint64_t)c->flows * k > UINT32_MAX
		    ? NULL
		    : __tpl_alloc(c->flows * k);
	for (i = 0; t != NULL && i < c->flows; i++) {
		if (__cancelled(lim)) {
			n = -EINTR;
			break;
		}
		n = pkt_build(c, i, frame, c->pkt_size);
		if (n >= 0)
			n = pkt_frag_split(c, i, frame, (uint16_t)n, t->data + t->n,
					   t->len + t->n);
		if (n < 0)
			break;
		t->n += (uint32_t)n;
	}
	free(frame);
	if (t == NULL || n < 0) {
		pkt_templates_free(t);
		errno = t == NULL ? ENOMEM : -n;
		return NULL;
	}
	/* An IPv6 fragment adds its 8-byte header: a first fragment may be
	 * longer than the datagram's frame (the pool's room follows this). */
	t->max_len = c->pkt_size;
	for (i = 0; i < t->n; i++)
		t->max_len = RTE_MAX(t->max_len, t->len[i]);
	return t;
}

struct pkt_templates *
pkt_templates_build(const struct pkt_flow_conf *c, const struct pkt_limits *lim)
{
	struct pkt_templates *t;
	uint32_t i;

	if (c->flows == 0 || c->flows > PKT_MAX_FLOWS || c->n_tags > PKT_VLAN_DEPTH ||
	    c->family >= PKT_FAMILY_MAX ||
	    (c->family != PKT_FAMILY_IPV6 &&
	     c->pkt_size < pkt_min_size(c, PKT_FAMILY_IPV4)) ||
	    (c->family != PKT_FAMILY_IPV4 &&
	     (c->pkt_size < pkt_min_size(c, PKT_FAMILY_IPV6) || c->src6_n == 0 ||
	      c->dst6_n == 0)) ||
	    c->pkt_size > PKT_MAX_SIZE || c->src_lo > c->src_hi ||
	    c->dst_lo > c->dst_hi || c->sport_lo > c->sport_hi ||
	    c->dport_lo > c->dport_hi) {
		errno = EINVAL;
		return NULL;
	}
	/* Sized before anything is allocated: 1M flows of 9000 bytes are
	 * 9.4 GB, which the allocator would grant and the kernel then fail
	 * to back, page by page. */
	if (c->frag_size != 0 &&
	    (c->frag_size % 8 != 0 || c->frag_size < pkt_frag_min(c) ||
	     c->frag_order >= PKT_FRAG_ORDER_MAX)) {
		errno = EINVAL;
		return NULL;
	}
	if (lim != NULL && lim->mem_max != 0 &&
	    pkt_templates_bytes((uint64_t)c->flows * pkt_frag_max(c), c->pkt_size) >
		    lim->mem_max) {
		errno = ENOMEM;
		return NULL;
	}
	if (c->frag_size != 0)
		return __tpl_build_frag(c, lim);
	t = __tpl_alloc(c->flows);
	if (t == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < c->flows; i++) {
		if (__cancelled(lim)) {
			pkt_templates_free(t);
			errno = EINTR;
			return NULL;
		}
		t->data[i] = malloc(c->pkt_size);
		if (t->data[i] == NULL) {
			pkt_templates_free(t);
			errno = ENOMEM;
			return NULL;
		}
		t->n = i + 1;
		t->len[i] = (uint16_t)pkt_build(c, i, t->data[i], c->pkt_size);
	}
	t->max_len = c->pkt_size;
	return t;
}

/* "9.4 GiB", "12.0 MiB": a size for a message. */
static void
__size_str(uint64_t n, char *s, size_t len)
{
	if (n >= (UINT64_C(1) << 30))
		snprintf(s, len, "%.1f GiB", (double)n / (1 << 30));
	else
		snprintf(s, len, "%.1f MiB", (double)n / (1 << 20));
}

/* The pcap file opened as every input is (base.h, "Files"), or NULL with
 * the reason in err and errno set. */
static pcap_t *
__pcap_open_in(const char *file, const struct pkt_limits *lim, char *err,
	       size_t err_len)
{
	char ebuf[PCAP_ERRBUF_SIZE], qf[2 * BASE_QUOTE_LEN], qe[2 * BASE_QUOTE_LEN];
	uint64_t size;
	pcap_t *p;
	FILE *f;
	int fd;

	/* The file's name and libpcap's messages (which may hold it) are
	 * quoted (base.h) in every reason. */
	base_quote(qf, sizeof(qf), file);
	fd = base_file_open_in(file, 0, &size, err, err_len);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	if (lim != NULL && lim->mem_max != 0 && size > lim->mem_max) {
		char need[32], have[32];

		__size_str(size, need, sizeof(need));
		__size_str(lim->mem_max, have, sizeof(have));
		snprintf(err, err_len, "%s: its frames need about %s (the file's "
			 "size), more than the %s of memory available", qf, need,
			 have);
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	f = fdopen(fd, "rb");
	if (f == NULL) {
		snprintf(err, err_len, "%s: %s", qf, strerror(errno));
		close(fd);
		return NULL;
	}
	p = pcap_fopen_offline(f, ebuf);	/* owns f from now on */
	if (p == NULL) {
		fclose(f);
		/* libpcap names the file in some messages, not in others. */
		if (strstr(ebuf, file) != NULL)
			snprintf(err, err_len, "%s", base_quote(qe, sizeof(qe), ebuf));
		else
			snprintf(err, err_len, "%s: %s", qf,
				 base_quote(qe, sizeof(qe), ebuf));
		errno = EINVAL;
		return NULL;
	}
	return p;
}

struct pkt_templates *
pkt_templates_from_pcap(const char *file, uint16_t max_len,
			const struct pkt_limits *lim, char *err, size_t err_len)
{
	char qf[2 * BASE_QUOTE_LEN], qe[2 * BASE_QUOTE_LEN];
	struct pcap_pkthdr *h;
	const u_char *data;
	struct pkt_templates *t = NULL;
	uint32_t cap = 0;
	int rc, why = EINVAL;
	pcap_t *p;

	/* The file's name and libpcap's messages (which may hold it) are
	 * quoted (base.h) in every reason. */
	base_quote(qf, sizeof(qf), file);
	p = __pcap_open_in(file, lim, err, err_len);
	if (p == NULL)
		return NULL;
	if (pcap_datalink(p) != DLT_EN10MB) {
		snprintf(err, err_len, "%s: link type %s, need Ethernet (EN10MB)",
			 qf, pcap_datalink_val_to_name(pcap_datalink(p)) ?
			 pcap_datalink_val_to_name(pcap_datalink(p)) : "?");
		goto fail;
	}
	t = __tpl_alloc(64);
	if (t == NULL)
		goto nomem;
	cap = 64;
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		if (__cancelled(lim)) {
			snprintf(err, err_len, "%s: interrupted at frame %u", qf, t->n);
			why = EINTR;
			goto fail;
		}
		if (h->caplen != h->len) {
			snprintf(err, err_len, "%s: frame %u captured %u of %u bytes "
				 "(snaplen too small)", qf, t->n, h->caplen, h->len);
			goto fail;
		}
		if (h->caplen > max_len || h->caplen == 0) {
			snprintf(err, err_len, "%s: frame %u is %u bytes, the mbuf data "
				 "room holds 1..%u", qf, t->n, h->caplen, max_len);
			goto fail;
		}
		if (t->n == PKT_MAX_FLOWS) {
			snprintf(err, err_len, "%s: more than %u frames", qf,
				 PKT_MAX_FLOWS);
			goto fail;
		}
		if (t->n == cap) {
			uint16_t *l = realloc(t->len, 2 * cap * sizeof(*l));
			uint8_t **d;

			if (l == NULL)
				goto nomem;
			t->len = l;
			d = realloc(t->data, 2 * cap * sizeof(*d));
			if (d == NULL)
				goto nomem;
			t->data = d;
			cap *= 2;
		}
		t->data[t->n] = malloc(h->caplen);
		if (t->data[t->n] == NULL)
			goto nomem;
		memcpy(t->data[t->n], data, h->caplen);
		t->len[t->n] = (uint16_t)h->caplen;
		if (h->caplen > t->max_len)
			t->max_len = (uint16_t)h->caplen;
		t->n++;
	}
	if (rc == -1) {
		snprintf(err, err_len, "%s: frame %u: %s", qf, t->n,
			 base_quote(qe, sizeof(qe), pcap_geterr(p)));
		goto fail;
	}
	if (t->n == 0) {
		snprintf(err, err_len, "%s: no frames", qf);
		goto fail;
	}
	pcap_close(p);
	return t;
nomem:
	snprintf(err, err_len, "%s: out of memory", qf);
	why = ENOMEM;
fail:
	pkt_templates_free(t);
	pcap_close(p);
	errno = why;
	return NULL;
}

int
pkt_templates_to_pcap(const struct pkt_templates *t, const char *file)
{
	struct pkt_pcap_out o;
	char err[256];
	uint32_t i;
	int rc;

	rc = pkt_pcap_out_open(&o, file, 65535, err, sizeof(err));
	if (rc != 0)
		return rc;
	for (i = 0; i < t->n; i++)
		if (pkt_pcap_out_add(&o, 0, t->len[i], t->len[i], t->data[i]) != 0)
			break;
	return pkt_pcap_out_close(&o);	/* the first error, if any */
}

const char *const pkt_alloc_names[] = {
	[PKT_ALLOC_REUSE] = "reuse", [PKT_ALLOC_BULK] = "bulk", [PKT_ALLOC_SLAB] = "slab"
};
static_assert(RTE_DIM(pkt_alloc_names) == PKT_ALLOC_MAX, "alloc names");
const char *const pkt_pool_layout_names[] = {
	[PKT_POOL_LAYOUT_PAGE] = "page", [PKT_POOL_LAYOUT_PACKED] = "packed" };
static_assert(RTE_DIM(pkt_pool_layout_names) == PKT_POOL_LAYOUT_MAX, "pool layouts");
const char *const pkt_pool_order_names[] = {
	[PKT_POOL_ORDER_ADDRESS] = "address", [PKT_POOL_ORDER_SHUFFLE] = "shuffle" };
static_assert(RTE_DIM(pkt_pool_order_names) == PKT_POOL_ORDER_MAX, "pool orders");

const char *
pkt_alloc_name(enum pkt_alloc a)
{
	return BASE_ENUM_NAME(pkt_alloc_names, a);
}

int
pkt_alloc_parse(const char *s, enum pkt_alloc *out)
{
	int i = base_name_index(pkt_alloc_names, PKT_ALLOC_MAX, s);

	if (i < 0)
		return -EINVAL;
	*out = (enum pkt_alloc)i;
	return 0;
}

const char *
pkt_pool_layout_name(enum pkt_pool_layout l)
{
	return BASE_ENUM_NAME(pkt_pool_layout_names, l);
}

int
pkt_pool_layout_parse(const char *s, enum pkt_pool_layout *out)
{
	int i = base_name_index(pkt_pool_layout_names, PKT_POOL_LAYOUT_MAX, s);

	if (i < 0)
		return -EINVAL;
	*out = (enum pkt_pool_layout)i;
	return 0;
}

const char *
pkt_pool_order_name(enum pkt_pool_order o)
{
	return BASE_ENUM_NAME(pkt_pool_order_names, o);
}

int
pkt_pool_order_parse(const char *s, enum pkt_pool_order *out)
{
	int i = base_name_index(pkt_pool_order_names, PKT_POOL_ORDER_MAX, s);

	if (i < 0)
		return -EINVAL;
	*out = (enum pkt_pool_order)i;
	return 0;
}

/* --alloc slab: a burst of heads and a page more (__gen_slab_init). */
static uint32_t
__gen_slab_pages(uint16_t burst)
{
	const uint32_t per_page = PKT_SKB_HEAD_PAGE / PKT_SKB_HEAD_SIZE;

	return (burst + per_page - 1) / per_page + 1;
}

/* The reuse ring's mbufs: whole rounds of the templates, at least one
 * burst, so that the ring replays them in round-robin order; past
 * PKT_RING_MAX templates the ring's mbufs are rewritten from the next
 * template on hand-out. */
static uint32_t
__gen_ring_n(const struct pkt_templates *tpl, uint16_t burst)
{
	if (tpl->n <= PKT_RING_MAX)
		return tpl->n * ((burst + tpl->n - 1) / tpl->n);
	return PKT_RING_MAX;
}

uint64_t
pkt_gen_bytes(const struct pkt_templates *tpl, enum pkt_alloc alloc, uint16_t burst)
{
	uint64_t b = 0;

	if (tpl == NULL || tpl->n == 0 || alloc == PKT_ALLOC_BULK)
		return 0;
	/* the pages aligned on their size: up to a page more */
	if (alloc == PKT_ALLOC_SLAB)
		b += (uint64_t)burst * sizeof(void *) +
		     (uint64_t)(__gen_slab_pages(burst) + 1) * PKT_SKB_HEAD_PAGE;
	return b + (uint64_t)__gen_ring_n(tpl, burst) * sizeof(struct rte_mbuf *);
}

/* --alloc slab: the heads' cache, and the burst's array of them. */
static int
__gen_slab_init(struct pkt_gen *g, int socket)
{
	const struct slab_conf conf = {
		.size = PKT_SKB_HEAD_SIZE,
		.offset = PKT_SKB_HEAD_FP,
		.page_size = PKT_SKB_HEAD_PAGE,
		.n_pages = __gen_slab_pages(g->burst),
		.socket = socket,
		.prefetch = false,
	};
	int rc;

	g->heads = rte_zmalloc_socket("pkt_gen_heads", g->burst * sizeof(*g->heads),
				      RTE_CACHE_LINE_SIZE, socket);
	if (g->heads == NULL)
		return -ENOMEM;
	rc = slab_cache_init(&g->slab, &conf);
	if (rc != 0) {
		rte_free(g->heads);
		g->heads = NULL;
	}
	return rc;
}

int
pkt_gen_init(struct pkt_gen *g, struct rte_mempool *mp,
	     const struct pkt_templates *tpl, enum pkt_alloc alloc,
	     uint16_t burst)
{
	uint32_t i, n;
	int rc;

	memset(g, 0, sizeof(*g));
	if (tpl == NULL || tpl->n == 0 || burst == 0 ||
	    tpl->max_len > rte_pktmbuf_data_room_size(mp) - RTE_PKTMBUF_HEADROOM)
		return -EINVAL;
	g->mp = mp;
	g->tpl = tpl;
	g->alloc = alloc;
	g->burst = burst;
	if (alloc == PKT_ALLOC_BULK)
		return 0;
	if (alloc == PKT_ALLOC_SLAB) {
		rc = __gen_slab_init(g, mp->socket_id);
		if (rc != 0)
			return rc;
	}

	n = __gen_ring_n(tpl, burst);
	g->ring = rte_zmalloc_socket("pkt_gen_ring", n * sizeof(*g->ring),
				     RTE_CACHE_LINE_SIZE, mp->socket_id);
	if (g->ring == NULL || rte_pktmbuf_alloc_bulk(mp, g->ring, n) != 0) {
		rte_free(g->ring);
		g->ring = NULL;
		pkt_gen_fini(g);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = g->ring[i];
		uint32_t t = i % tpl->n;

		rte_memcpy(rte_pktmbuf_mtod(m, void *), tpl->data[t], tpl->len[t]);
		m->data_len = tpl->len[t];
		m->pkt_len = tpl->len[t];
	}
	g->ring_n = n;
	g->rewrite = tpl->n > n;
	g->next_tpl = 0;
	return 0;
}

void
pkt_gen_fini(struct pkt_gen *g)
{
	if (g->ring != NULL) {
		rte_pktmbuf_free_bulk(g->ring, g->ring_n);
		rte_free(g->ring);
		g->ring = NULL;
	}
	if (g->heads != NULL) {
		slab_cache_fini(&g->slab);
		rte_free(g->heads);
		g->heads = NULL;
	}
}

int
pkt_pool_shuffle(struct rte_mempool *mp, uint64_t seed)
{
	unsigned int n = rte_mempool_avail_count(mp), i;
	uint64_t x = seed;
	void **obj;
	int rc;

	if (n < 2)
		return 0;
	obj = malloc((size_t)n * sizeof(*obj));
	if (obj == NULL)
		return -ENOMEM;
	/* No cache: straight from and back to the backend (the ring). */
	rc = rte_mempool_generic_get(mp, obj, n, NULL);
	if (rc != 0) {
		free(obj);
		return rc < 0 ? rc : -EIO;
	}
	/* Fisher-Yates with splitmix64. */
	for (i = n - 1; i > 0; i--) {
		uint64_t z = (x += 0x9e3779b97f4a7c15ull);
		unsigned int j;
		void *t;

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		j = (unsigned int)(z % ((uint64_t)i + 1));
		t = obj[i];
		obj[i] = obj[j];
		obj[j] = t;
	}
	rte_mempool_generic_put(mp, obj, n, NULL);
	free(obj);
	return 0;
}

uint64_t
pkt_pool_bytes(unsigned int n, uint16_t room, unsigned int flags, uint64_t page_sz)
{
	uint64_t obj = rte_mempool_calc_obj_size(sizeof(struct rte_mbuf) + room,
		(flags & PKT_POOL_PACKED) ? RTE_MEMPOOL_F_NO_IOVA_CONTIG : 0, NULL);
	uint64_t objs, per_page;

	if (!(flags & PKT_POOL_PACKED) && page_sz >= obj) {
		per_page = page_sz / obj;
		objs = (n + per_page - 1) / per_page * page_sz;
	} else {
		objs = (uint64_t)n * obj;
	}
	return objs + rte_align64pow2((uint64_t)n + 1) * sizeof(void *) +
	       sizeof(struct rte_mempool) +
	       RTE_MAX_LCORE * sizeof(struct rte_mempool_cache);
}

struct rte_mempool *
pkt_pool_create(const char *name, unsigned int n, unsigned int cache,
		uint16_t room, int socket, unsigned int flags)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = room,
		.mbuf_priv_size = 0,
	};
	struct rte_mempool *mp;
	int rc;

	/* rte_mempool_create_empty() returns NULL without setting rte_errno
	 * when its tailq entry's rte_zmalloc() fails: cleared first, so that
	 * an earlier call's value is never reported as the reason */
	rte_errno = 0;
	if (!(flags & PKT_POOL_PACKED)) {
		mp = rte_pktmbuf_pool_create(name, n, cache, 0, room, socket);
		if (mp == NULL) {
			rte_errno = rte_errno ? rte_errno : ENOMEM;
			return NULL;
		}
	} else {
		mp = rte_mempool_create_empty(name, n,
					      sizeof(struct rte_mbuf) + room,
					      cache, sizeof(priv), socket,
					      RTE_MEMPOOL_F_NO_IOVA_CONTIG);
		if (mp == NULL) {
			rte_errno = rte_errno ? rte_errno : ENOMEM;
			return NULL;
		}
		rc = rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL);
		if (rc == 0) {
			rte_pktmbuf_pool_init(mp, &priv);
			rc = rte_mempool_populate_default(mp);
			rc = rc < 0 ? rc : 0;
		}
		if (rc != 0) {
			rte_mempool_free(mp);
			rte_errno = -rc;
			return NULL;
		}
		rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	}
	if (flags & PKT_POOL_SHUFFLE) {
		rc = pkt_pool_shuffle(mp, PKT_POOL_SEED);
		if (rc != 0) {
			rte_mempool_free(mp);
			rte_errno = -rc;
			return NULL;
		}
	}
	return mp;
}
