/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/pkt: frame synthesis (pktgen range mode), template
 * validation, pcap templates (round trip and every error), and generators in
 * both alloc modes. The generators need a mempool, so this program starts EAL
 * (no hugepages, no PCI, its own file prefix) in the group setup.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <cmocka.h>

#include <pcap/pcap.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "pkt.h"
#include "wire.h"

static char tmpdir[64];

#define IP4(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

/* ---- helpers ---- */

static void
__path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

/* Check a frame built by pkt_build_udp for flow i of c. */
static void
__check_frame(const struct pkt_flow_conf *c, uint32_t i, const uint8_t *f, int len)
{
	uint64_t nsrc = (uint64_t)c->src_hi - c->src_lo + 1;
	uint64_t nsport = (uint64_t)c->sport_hi - c->sport_lo + 1;
	uint64_t ndst = (uint64_t)c->dst_hi - c->dst_lo + 1;
	uint64_t ndport = (uint64_t)c->dport_hi - c->dport_lo + 1;
	const uint8_t *ip = f + 14, *udp = f + 34;
	uint64_t r = i;
	uint32_t src, dst, k;
	uint16_t sport, dport, ulen;

	assert_int_equal(len, c->pkt_size);
	assert_memory_equal(f, c->dst_mac.addr_bytes, 6);
	assert_memory_equal(f + 6, c->src_mac.addr_bytes, 6);
	assert_int_equal(wire_get16(f + 12), 0x0800);
	assert_int_equal(ip[0], 0x45);
	assert_int_equal(ip[1], c->tos);
	assert_int_equal(wire_get16(ip + 2), c->pkt_size - 14);
	assert_int_equal(wire_get16(ip + 6), 0);	/* not a fragment */
	assert_int_equal(ip[8], c->ttl);
	assert_int_equal(ip[9], IPPROTO_UDP);
	assert_int_equal(wire_fold(wire_sum(ip, 20, 0)), 0xffff);	/* header checksum */
	/* mixed radix, source address fastest */
	src = c->src_lo + (uint32_t)(r % nsrc);
	r /= nsrc;
	sport = (uint16_t)(c->sport_lo + r % nsport);
	r /= nsport;
	dst = c->dst_lo + (uint32_t)(r % ndst);
	r /= ndst;
	dport = (uint16_t)(c->dport_lo + r % ndport);
	assert_int_equal(wire_get32(ip + 12), src);
	assert_int_equal(wire_get32(ip + 16), dst);
	assert_int_equal(wire_get16(udp), sport);
	assert_int_equal(wire_get16(udp + 2), dport);
	ulen = wire_get16(udp + 4);
	assert_int_equal(ulen, c->pkt_size - 34);
	if (!c->udp_csum) {
		assert_int_equal(wire_get16(udp + 6), 0);
	} else {
		uint32_t ph = (src >> 16) + (src & 0xffff) + (dst >> 16) + (dst & 0xffff) +
			      IPPROTO_UDP + ulen;

		assert_int_not_equal(wire_get16(udp + 6), 0);
		assert_int_equal(wire_fold(wire_sum(udp, ulen, ph)), 0xffff);
	}
	for (k = 42; k < c->pkt_size; k++)
		assert_int_equal(f[k], 0);
}

/* ---- synthesis ---- */

static void
test_defaults(void **state)
{
	static const struct rte_ether_addr port = PKT_GEN_PORT_MAC;
	struct pkt_flow_conf c;

	(void)state;
	memset(&c, 0x5a, sizeof(c));
	pkt_flow_conf_default(&c);
	assert_int_equal(c.pkt_size, 60);
	assert_memory_equal(c.dst_mac.addr_bytes, port.addr_bytes, 6);
	assert_int_equal(c.src_lo, IP4(198, 18, 0, 1));
	assert_int_equal(c.src_hi, IP4(198, 18, 0, 254));
	assert_int_equal(c.dst_lo, IP4(198, 19, 0, 1));
	assert_int_equal(c.dst_hi, IP4(198, 19, 0, 1));
	assert_int_equal(c.dport_lo, 9);
	assert_int_equal(c.dport_hi, 9);
	assert_int_equal(c.flows, 64);
	assert_int_equal(c.ttl, 64);
	assert_false(c.udp_csum);
	assert_string_equal(pkt_alloc_name(PKT_ALLOC_REUSE), "reuse");
	assert_string_equal(pkt_alloc_name(PKT_ALLOC_BULK), "bulk");
	assert_string_equal(pkt_alloc_name(PKT_ALLOC_MAX), "?");
	{
		enum pkt_alloc a = PKT_ALLOC_MAX;

		assert_int_equal(pkt_alloc_parse("bulk", &a), 0);
		assert_int_equal(a, PKT_ALLOC_BULK);
		assert_int_equal(pkt_alloc_parse("reuse", &a), 0);
		assert_int_equal(a, PKT_ALLOC_REUSE);
		assert_int_equal(pkt_alloc_parse("clone", &a), -EINVAL);
		assert_int_equal(pkt_alloc_parse(NULL, &a), -EINVAL);
		assert_int_equal(a, PKT_ALLOC_REUSE);
	}
}

static void
test_build_udp(void **state)
{
	static const uint16_t sizes[] = { 42, 43, 60, 64, 1500, 9000 };
	uint8_t *buf = malloc(PKT_MAX_SIZE + 16);
	struct pkt_flow_conf c;
	unsigned int k, csum;
	uint32_t i;

	(void)state;
	assert_non_null(buf);
	for (csum = 0; csum < 2; csum++) {
		for (k = 0; k < RTE_DIM(sizes); k++) {
			pkt_flow_conf_default(&c);
			c.pkt_size = sizes[k];
			c.udp_csum = csum;
			c.tos = 0xb8;
			c.ttl = 3;
			for (i = 0; i < 300; i += 7) {
				memset(buf, 0xee, PKT_MAX_SIZE + 16);
				__check_frame(&c, i, buf,
					      pkt_build_udp(&c, i, buf, PKT_MAX_SIZE + 16));
				assert_int_equal(buf[sizes[k]], 0xee);	/* no overrun */
			}
		}
	}
	pkt_flow_conf_default(&c);
	assert_int_equal(pkt_build_udp(&c, 0, buf, 59), -EINVAL);
	assert_int_equal(pkt_build_udp(&c, 0, buf, 60), 60);
	c.pkt_size = 41;
	assert_int_equal(pkt_build_udp(&c, 0, buf, 100), -EINVAL);
	free(buf);
}

/* N flows over ranges whose product is N are N distinct 4-tuples, in
 * mixed-radix order; flow N wraps to flow 0. */
static void
test_flow_enumeration(void **state)
{
	struct pkt_flow_conf c;
	uint8_t a[64], b[64];
	uint64_t *keys;
	uint32_t i, j, n;

	(void)state;
	pkt_flow_conf_default(&c);
	c.src_lo = IP4(10, 1, 0, 250);
	c.src_hi = IP4(10, 1, 1, 0);	/* 7 addresses across a byte carry */
	c.sport_lo = 65533;
	c.sport_hi = 65535;		/* 3 ports up to the top */
	c.dst_lo = IP4(10, 2, 0, 1);
	c.dst_hi = IP4(10, 2, 0, 2);	/* 2 */
	c.dport_lo = 0;
	c.dport_hi = 4;			/* 5 */
	n = 7 * 3 * 2 * 5;
	keys = calloc(n, sizeof(*keys));
	assert_non_null(keys);
	for (i = 0; i < n; i++) {
		assert_int_equal(pkt_build_udp(&c, i, a, sizeof(a)), 60);
		__check_frame(&c, i, a, 60);
		keys[i] = (uint64_t)(wire_get32(a + 26) - c.src_lo) << 48 |
			  (uint64_t)wire_get16(a + 34) << 32 |
			  (uint64_t)(wire_get32(a + 30) - c.dst_lo) << 16 | wire_get16(a + 36);
		for (j = 0; j < i; j++)
			if (keys[j] == keys[i])
				fail_msg("flows %u and %u share a 4-tuple", j, i);
	}
	assert_int_equal(pkt_build_udp(&c, n, a, sizeof(a)), 60);
	assert_int_equal(pkt_build_udp(&c, 0, b, sizeof(b)), 60);
	assert_memory_equal(a + 26, b + 26, 12);	/* same addresses and ports */
	free(keys);

	/* full ranges: no overflow in the radix arithmetic */
	c.src_lo = 0;
	c.src_hi = UINT32_MAX;
	c.sport_lo = 0;
	c.sport_hi = UINT16_MAX;
	for (i = 0; i < 5; i++) {
		uint32_t f = UINT32_MAX - i;

		assert_int_equal(pkt_build_udp(&c, f, a, sizeof(a)), 60);
		__check_frame(&c, f, a, 60);
	}
}

static void
test_templates_build(void **state)
{
	struct pkt_flow_conf c, bad;
	struct pkt_templates *t;
	uint8_t f[128];
	uint32_t i;

	(void)state;
	pkt_flow_conf_default(&c);
	c.flows = 100;
	c.pkt_size = 100;
	c.udp_csum = true;
	t = pkt_templates_build(&c, NULL);
	assert_non_null(t);
	assert_int_equal(t->n, 100);
	assert_int_equal(t->max_len, 100);
	for (i = 0; i < t->n; i++) {
		assert_int_equal(t->len[i], 100);
		assert_int_equal(pkt_build_udp(&c, i, f, sizeof(f)), 100);
		assert_memory_equal(t->data[i], f, 100);
	}
	pkt_templates_free(t);
	pkt_templates_free(NULL);

	/* one flow, smallest and largest sizes */
	c.flows = 1;
	c.pkt_size = PKT_MIN_SIZE;
	t = pkt_templates_build(&c, NULL);
	assert_non_null(t);
	assert_int_equal(t->n, 1);
	pkt_templates_free(t);
	c.pkt_size = PKT_MAX_SIZE;
	t = pkt_templates_build(&c, NULL);
	assert_non_null(t);
	assert_int_equal(t->max_len, PKT_MAX_SIZE);
	pkt_templates_free(t);

#define BAD(field, value) do {						\
		bad = c;						\
		bad.pkt_size = 60;					\
		bad.field = value;					\
		errno = 0;						\
		assert_null(pkt_templates_build(&bad, NULL));		\
		assert_int_equal(errno, EINVAL);			\
	} while (0)
	BAD(flows, 0);
	BAD(flows, (1u << 20) + 1);
	BAD(pkt_size, PKT_MIN_SIZE - 1);
	BAD(pkt_size, PKT_MAX_SIZE + 1);
	BAD(src_lo, c.src_hi + 1);
	BAD(dst_lo, c.dst_hi + 1);
	BAD(sport_hi, (uint16_t)(c.sport_lo - 1));
	BAD(dport_lo, (uint16_t)(c.dport_hi + 1));
#undef BAD
}

/* ---- pcap ---- */

static struct pkt_templates *
__tpl_varied(uint32_t n)
{
	struct pkt_templates *t = calloc(1, sizeof(*t));
	uint32_t i, k;

	assert_non_null(t);
	t->len = calloc(n, sizeof(*t->len));
	t->data = calloc(n, sizeof(*t->data));
	assert_non_null(t->len);
	assert_non_null(t->data);
	for (i = 0; i < n; i++) {
		t->len[i] = (uint16_t)(1 + (i * 37) % 1514);
		t->data[i] = malloc(t->len[i]);
		assert_non_null(t->data[i]);
		for (k = 0; k < t->len[i]; k++)
			t->data[i][k] = (uint8_t)(i + k * 13);
		if (t->len[i] > t->max_len)
			t->max_len = t->len[i];
	}
	t->n = n;
	return t;
}

static void
__same(const struct pkt_templates *a, const struct pkt_templates *b)
{
	uint32_t i;

	assert_int_equal(a->n, b->n);
	assert_int_equal(a->max_len, b->max_len);
	for (i = 0; i < a->n; i++) {
		assert_int_equal(a->len[i], b->len[i]);
		assert_memory_equal(a->data[i], b->data[i], a->len[i]);
	}
}

static void
test_pcap_roundtrip(void **state)
{
	struct pkt_flow_conf c;
	struct pkt_templates *t, *u;
	char file[128], err[256] = "";

	(void)state;
	pkt_flow_conf_default(&c);
	c.flows = 17;
	c.udp_csum = true;
	t = pkt_templates_build(&c, NULL);
	assert_non_null(t);
	__path(file, sizeof(file), "gen.pcap");
	assert_int_equal(pkt_templates_to_pcap(t, file), 0);
	u = pkt_templates_from_pcap(file, 60, NULL, err, sizeof(err));
	if (u == NULL)
		fail_msg("%s", err);
	__same(t, u);
	pkt_templates_free(u);
	pkt_templates_free(t);

	/* every length from 1 to 1514, more than the initial capacity */
	t = __tpl_varied(300);
	__path(file, sizeof(file), "varied.pcap");
	assert_int_equal(pkt_templates_to_pcap(t, file), 0);
	u = pkt_templates_from_pcap(file, 1514, NULL, err, sizeof(err));
	if (u == NULL)
		fail_msg("%s", err);
	__same(t, u);
	pkt_templates_free(u);
	pkt_templates_free(t);

	t = __tpl_varied(2);
	assert_true(pkt_templates_to_pcap(t, "/nonexistent-dir/x.pcap") < 0);
	pkt_templates_free(t);
}

/* Write a pcap with the given link type, snaplen and frames (caplen may be
 * cut below len). */
static void
__write_pcap(const char *file, int dlt, const uint16_t *len, const uint16_t *cap,
	     unsigned int n)
{
	pcap_t *p = pcap_open_dead(dlt, 65535);
	pcap_dumper_t *d;
	uint8_t frame[2048];
	unsigned int i;

	assert_non_null(p);
	d = pcap_dump_open(p, file);
	assert_non_null(d);
	memset(frame, 0x11, sizeof(frame));
	for (i = 0; i < n; i++) {
		struct pcap_pkthdr h = { .caplen = cap[i], .len = len[i] };

		pcap_dump((u_char *)d, &h, frame);
	}
	pcap_dump_close(d);
	pcap_close(p);
}

static void
__truncate(const char *file, long cut)
{
	FILE *fp = fopen(file, "r+");
	long size;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	size = ftell(fp);
	assert_int_equal(ftruncate(fileno(fp), size - cut), 0);
	fclose(fp);
}

/* from_pcap must fail, and err must name the file and contain what. */
static void
__expect_error(const char *file, uint16_t max_len, const char *what)
{
	char err[512];
	struct pkt_templates *t;

	memset(err, 0, sizeof(err));
	t = pkt_templates_from_pcap(file, max_len, NULL, err, sizeof(err));
	if (t != NULL) {
		pkt_templates_free(t);
		fail_msg("%s accepted", file);
	}
	if (strstr(err, file) == NULL || (what != NULL && strstr(err, what) == NULL))
		fail_msg("error \"%s\" does not name %s / \"%s\"", err, file, what);
	print_message("  %s\n", err);
}

static void
test_pcap_errors(void **state)
{
	static const uint16_t l3[] = { 60, 60, 60 }, lbig[] = { 60, 64, 100, 60 };
	static const uint16_t lcut[] = { 60, 60 }, ccut[] = { 60, 30 }, lbig1[] = { 64, 65 };
	char file[128];
	FILE *fp;

	(void)state;
	__path(file, sizeof(file), "missing.pcap");
	__expect_error(file, 1514, NULL);

	__path(file, sizeof(file), "text.pcap");
	fp = fopen(file, "w");
	assert_non_null(fp);
	fputs("this is not a capture file, but it is long enough to be read\n", fp);
	fclose(fp);
	__expect_error(file, 1514, NULL);

	__path(file, sizeof(file), "empty.pcap");
	fp = fopen(file, "w");
	assert_non_null(fp);
	fclose(fp);
	__expect_error(file, 1514, NULL);

	/* cut in the middle of the last frame's data */
	__path(file, sizeof(file), "cut-data.pcap");
	__write_pcap(file, DLT_EN10MB, l3, l3, 3);
	__truncate(file, 10);
	__expect_error(file, 1514, "frame 2");

	/* cut in the middle of the last record header */
	__path(file, sizeof(file), "cut-hdr.pcap");
	__write_pcap(file, DLT_EN10MB, l3, l3, 3);
	__truncate(file, 60 + 10);
	__expect_error(file, 1514, "frame 2");

	/* a frame longer than max_len */
	__path(file, sizeof(file), "big.pcap");
	__write_pcap(file, DLT_EN10MB, lbig, lbig, 4);
	__expect_error(file, 64, "frame 2");
	__expect_error(file, 64, "100");
	__path(file, sizeof(file), "big1.pcap");	/* one byte over */
	__write_pcap(file, DLT_EN10MB, lbig1, lbig1, 2);
	__expect_error(file, 64, "frame 1 is 65 bytes");

	/* captured with a small snaplen */
	__path(file, sizeof(file), "snap.pcap");
	__write_pcap(file, DLT_EN10MB, lcut, ccut, 2);
	__expect_error(file, 1514, "frame 1");

	/* no frames at all */
	__path(file, sizeof(file), "none.pcap");
	__write_pcap(file, DLT_EN10MB, l3, l3, 0);
	__expect_error(file, 1514, "no frames");

	/* not Ethernet */
	__path(file, sizeof(file), "raw.pcap");
	__write_pcap(file, DLT_RAW, l3, l3, 1);
	__expect_error(file, 1514, "link type");
}

/* ---- generators (EAL) ---- */

static struct rte_mempool *
__pool(const char *name, unsigned int n)
{
	/* pkt_pool_create(): rte_errno is the failure's own, never stale */
	struct rte_mempool *mp = pkt_pool_create(name, n, n >= 64 ? 32 : 0,
						 RTE_MBUF_DEFAULT_BUF_SIZE,
						 (int)rte_socket_id(), 0);

	if (mp == NULL)
		fail_msg("mempool %s of %u: %s", name, n, rte_strerror(rte_errno));
	return mp;
}

static struct pkt_templates *
__tpl(uint32_t flows)
{
	struct pkt_flow_conf c;
	struct pkt_templates *t;

	pkt_flow_conf_default(&c);
	c.flows = flows;
	c.pkt_size = 64;
	t = pkt_templates_build(&c, NULL);
	assert_non_null(t);
	return t;
}

/* Frame k of the stream must be template k mod n. */
static void
__check_mbuf(const struct pkt_templates *t, const struct rte_mbuf *m, uint64_t k)
{
	uint32_t i = (uint32_t)(k % t->n);

	assert_int_equal(m->nb_segs, 1);
	assert_int_equal(rte_pktmbuf_pkt_len(m), t->len[i]);
	assert_int_equal(rte_pktmbuf_data_len(m), t->len[i]);
	assert_int_equal(m->ol_flags, 0);
	assert_int_equal(m->packet_type, 0);
	if (memcmp(rte_pktmbuf_mtod(m, const void *), t->data[i], t->len[i]) != 0)
		fail_msg("frame %" PRIu64 " is not template %u", k, i);
}

static void
__reuse(uint32_t flows, uint16_t burst, unsigned int pool_n, unsigned int rounds)
{
	char name[32];
	struct rte_mempool *mp;
	struct pkt_templates *t = __tpl(flows);
	struct rte_mbuf *pkts[64], **first;
	struct pkt_gen g;
	unsigned int avail, r, i;
	uint64_t k = 0;

	snprintf(name, sizeof(name), "reuse_%u_%u", flows, burst);
	mp = __pool(name, pool_n);
	avail = rte_mempool_avail_count(mp);
	assert_int_equal(pkt_gen_init(&g, mp, t, PKT_ALLOC_REUSE, burst), 0);
	assert_true(g.ring_n >= burst);
	assert_int_equal(rte_mempool_avail_count(mp), avail - g.ring_n);
	first = calloc(g.ring_n, sizeof(*first));
	assert_non_null(first);
	for (r = 0; r < rounds; r++) {
		assert_int_equal(pkt_gen_burst(&g, pkts, burst), burst);
		for (i = 0; i < burst; i++, k++) {
			__check_mbuf(t, pkts[i], k);
			/* the same mbufs come round again, every ring_n frames */
			if (k < g.ring_n)
				first[k] = pkts[i];
			else
				assert_ptr_equal(pkts[i], first[k % g.ring_n]);
			/* what the path may touch is reset on hand-out */
			pkts[i]->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_GOOD;
			pkts[i]->packet_type = 1;
		}
		pkt_gen_done(&g, pkts, burst);	/* nothing freed */
		assert_int_equal(rte_mempool_avail_count(mp), avail - g.ring_n);
	}
	assert_true(k > g.ring_n);
	pkt_gen_fini(&g);
	assert_int_equal(rte_mempool_avail_count(mp), avail);
	free(first);
	pkt_templates_free(t);
	rte_mempool_free(mp);
}

static void
test_gen_reuse(void **state)
{
	(void)state;
	__reuse(1, 32, 255, 4);
	__reuse(3, 4, 255, 10);		/* templates do not divide the burst */
	__reuse(64, 32, 255, 9);
	__reuse(100, 32, 255, 13);	/* burst does not divide the templates */
	__reuse(8192 + 37, 32, 8192 + 256, 260);	/* rewrite on hand-out */
}

static void
test_gen_bulk(void **state)
{
	static const struct { uint32_t flows; uint16_t burst; } cfg[] = {
		{ 1, 32 }, { 5, 8 }, { 64, 32 }, { 7, 64 } };
	struct rte_mbuf *pkts[64];
	unsigned int c, r, i, avail;

	(void)state;
	for (c = 0; c < RTE_DIM(cfg); c++) {
		struct pkt_templates *t = __tpl(cfg[c].flows);
		struct rte_mempool *mp;
		struct pkt_gen g;
		char name[32];
		uint64_t k = 0;

		snprintf(name, sizeof(name), "bulk_%u", c);
		mp = __pool(name, 511);
		avail = rte_mempool_avail_count(mp);
		assert_int_equal(pkt_gen_init(&g, mp, t, PKT_ALLOC_BULK, cfg[c].burst), 0);
		assert_int_equal(rte_mempool_avail_count(mp), avail);
		for (r = 0; r < 20; r++) {
			assert_int_equal(pkt_gen_burst(&g, pkts, cfg[c].burst), cfg[c].burst);
			assert_int_equal(rte_mempool_avail_count(mp), avail - cfg[c].burst);
			for (i = 0; i < cfg[c].burst; i++, k++)
				__check_mbuf(t, pkts[i], k);
			pkt_gen_done(&g, pkts, cfg[c].burst);
			assert_int_equal(rte_mempool_avail_count(mp), avail);
		}
		/* a short burst continues the round robin */
		assert_int_equal(pkt_gen_burst(&g, pkts, 3), 3);
		for (i = 0; i < 3; i++, k++)
			__check_mbuf(t, pkts[i], k);
		pkt_gen_done(&g, pkts, 3);
		pkt_gen_fini(&g);
		assert_int_equal(rte_mempool_avail_count(mp), avail);
		pkt_templates_free(t);
		rte_mempool_free(mp);
	}
}

static void
test_gen_errors(void **state)
{
	struct pkt_templates *t = __tpl(100), *big;
	struct rte_mempool *mp = __pool("small", 63);
	struct rte_mbuf *pkts[64];
	struct pkt_flow_conf c;
	struct pkt_gen g;
	unsigned int avail = rte_mempool_avail_count(mp);

	(void)state;
	assert_int_equal(pkt_gen_init(&g, mp, NULL, PKT_ALLOC_BULK, 32), -EINVAL);
	assert_int_equal(pkt_gen_init(&g, mp, t, PKT_ALLOC_BULK, 0), -EINVAL);
	pkt_flow_conf_default(&c);
	c.pkt_size = 4000;	/* beyond the 2048-byte data room */
	c.flows = 2;
	big = pkt_templates_build(&c, NULL);
	assert_non_null(big);
	assert_int_equal(pkt_gen_init(&g, mp, big, PKT_ALLOC_REUSE, 32), -EINVAL);
	assert_int_equal(pkt_gen_init(&g, mp, big, PKT_ALLOC_BULK, 32), -EINVAL);
	/* 100 mbufs wanted, 63 in the pool: no leak */
	assert_int_equal(pkt_gen_init(&g, mp, t, PKT_ALLOC_REUSE, 32), -ENOMEM);
	assert_int_equal(rte_mempool_avail_count(mp), avail);
	/* bulk: an empty pool gives 0 packets and takes none */
	assert_int_equal(pkt_gen_init(&g, mp, t, PKT_ALLOC_BULK, 64), 0);
	assert_int_equal(pkt_gen_burst(&g, pkts, 64), 0);
	assert_int_equal(rte_mempool_avail_count(mp), avail);
	pkt_gen_fini(&g);
	pkt_templates_free(big);
	pkt_templates_free(t);
	rte_mempool_free(mp);
}

static int
__pkt_setup(void **state)
{
	char *argv[] = { "test_pkt", "--no-huge", "--no-shconf", "-m", "256", "--no-pci",
			 "--file-prefix", "test_pkt", "--log-level", "lib.eal:error" };

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_pkt.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	if (rte_eal_init((int)RTE_DIM(argv), argv) < 0) {
		fprintf(stderr, "rte_eal_init: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

static int
__pkt_teardown(void **state)
{
	char cmd[128];

	(void)state;
	rte_eal_cleanup();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The first SHUF_N objects of a pool, in creation (address) order. */
#define SHUF_N 1000u

struct pool_index {
	uintptr_t addr[SHUF_N];
	unsigned int n;
};

static void
pool_index_obj(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	struct pool_index *pi = arg;

	(void)mp;
	(void)idx;
	if (pi->n < SHUF_N)
		pi->addr[pi->n++] = (uintptr_t)obj;
}

/* pkt_pool_create(): the default layout keeps each mbuf in one 4 KiB page
 * (with --no-huge, one per page at the same offset); packed puts them back
 * to back, so some share a page. Both give working mbufs. */
static void
test_pool_layout(void **state)
{
	struct rte_mempool *mp[2];
	struct rte_mbuf *m[8];
	unsigned int p, i, same_page;

	(void)state;
	for (p = 0; p < 2; p++) {
		static struct pool_index w;

		mp[p] = pkt_pool_create(p ? "t_packed" : "t_page", 1023, 32,
					RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY,
					p == 1 ? PKT_POOL_PACKED : 0);
		assert_non_null(mp[p]);
		assert_int_equal(rte_mempool_avail_count(mp[p]), 1023);
		assert_int_equal(rte_pktmbuf_data_room_size(mp[p]), RTE_MBUF_DEFAULT_BUF_SIZE);
		w.n = 0;
		rte_mempool_obj_iter(mp[p], pool_index_obj, &w);
		assert_int_equal(w.n, SHUF_N);
		for (same_page = 0, i = 1; i < 64; i++)
			if ((w.addr[i] >> 12) == (w.addr[i - 1] >> 12))
				same_page++;
		if (p == 1)
			assert_true(same_page > 0);	/* packed: pages shared */
		else if (!rte_eal_has_hugepages())
			assert_int_equal(same_page, 0);	/* one mbuf per page */
		assert_int_equal(rte_pktmbuf_alloc_bulk(mp[p], m, RTE_DIM(m)), 0);
		for (i = 0; i < RTE_DIM(m); i++) {
			assert_ptr_equal(m[i]->pool, mp[p]);
			assert_int_equal(m[i]->buf_len, RTE_MBUF_DEFAULT_BUF_SIZE);
			assert_int_equal(rte_pktmbuf_headroom(m[i]), RTE_PKTMBUF_HEADROOM);
			memset(rte_pktmbuf_mtod(m[i], void *), 0xab,
			       rte_pktmbuf_tailroom(m[i]));
		}
		rte_pktmbuf_free_bulk(m, RTE_DIM(m));
		assert_int_equal(rte_mempool_avail_count(mp[p]), 1023);
		rte_mempool_free(mp[p]);
	}
}

/* Object i of the pool's creation (address) order, or -1. */
static int
pool_index_of(const struct pool_index *pi, const void *obj)
{
	unsigned int i;

	for (i = 0; i < pi->n; i++)
		if (pi->addr[i] == (uintptr_t)obj)
			return (int)i;
	return -1;
}

/* Take every object (no cache: the backend's order), note each one's
 * creation index, and put them back in the same order. */
static void
pool_order(struct rte_mempool *mp, int *idx)
{
	static void *obj[SHUF_N];
	struct pool_index pi = { .n = 0 };
	unsigned int i;

	rte_mempool_obj_iter(mp, pool_index_obj, &pi);
	assert_int_equal(pi.n, SHUF_N);
	assert_int_equal(rte_mempool_generic_get(mp, obj, SHUF_N, NULL), 0);
	for (i = 0; i < SHUF_N; i++) {
		idx[i] = pool_index_of(&pi, obj[i]);
		assert_true(idx[i] >= 0);
	}
	rte_mempool_generic_put(mp, obj, SHUF_N, NULL);
	assert_int_equal(rte_mempool_avail_count(mp), SHUF_N);
}

/* pkt_pool_shuffle(): every object still there exactly once, in an order
 * that is not the address order, the same for the same seed, another for
 * another seed; pkt_pool_create(PKT_POOL_SHUFFLE) gives that order. */
static void
test_pool_shuffle(void **state)
{
	static int created[SHUF_N], a[SHUF_N], b[SHUF_N], c[SHUF_N];
	static unsigned char seen[SHUF_N];
	struct rte_mempool *mp;
	unsigned int i, moved = 0, run, max_run = 0;

	(void)state;
	mp = pkt_pool_create("t_shuf", SHUF_N, 32, RTE_MBUF_DEFAULT_BUF_SIZE,
			     SOCKET_ID_ANY, 0);
	assert_non_null(mp);
	pool_order(mp, created);
	for (i = 0; i < SHUF_N; i++)
		assert_int_equal(created[i], (int)i);	/* address order */

	assert_int_equal(pkt_pool_shuffle(mp, PKT_POOL_SEED), 0);
	pool_order(mp, a);
	memset(seen, 0, sizeof(seen));
	for (i = 0, run = 1; i < SHUF_N; i++) {
		assert_int_equal(seen[a[i]], 0);	/* a permutation */
		seen[a[i]] = 1;
		moved += a[i] != (int)i;
		run = i > 0 && a[i] == a[i - 1] + 1 ? run + 1 : 1;
		max_run = RTE_MAX(max_run, run);
	}
	assert_true(moved > SHUF_N * 9 / 10);
	assert_true(max_run <= 4);	/* no run of neighbours to recycle */

	/* The same seed from the same start: the same order. */
	rte_mempool_free(mp);
	mp = pkt_pool_create("t_shuf", SHUF_N, 32, RTE_MBUF_DEFAULT_BUF_SIZE,
			     SOCKET_ID_ANY, PKT_POOL_SHUFFLE);
	assert_non_null(mp);
	pool_order(mp, b);
	assert_memory_equal(a, b, sizeof(a));
	/* Another seed: another order. */
	rte_mempool_free(mp);
	mp = pkt_pool_create("t_shuf", SHUF_N, 32, RTE_MBUF_DEFAULT_BUF_SIZE,
			     SOCKET_ID_ANY, 0);
	assert_non_null(mp);
	assert_int_equal(pkt_pool_shuffle(mp, PKT_POOL_SEED + 1), 0);
	pool_order(mp, c);
	assert_memory_not_equal(a, c, sizeof(a));
	/* The mbufs still work through the per-lcore cache. */
	{
		struct rte_mbuf *m[64];

		assert_int_equal(rte_pktmbuf_alloc_bulk(mp, m, RTE_DIM(m)), 0);
		for (i = 0; i < RTE_DIM(m); i++) {
			assert_ptr_equal(m[i]->pool, mp);
			assert_int_equal(rte_mbuf_refcnt_read(m[i]), 1);
			assert_int_equal(m[i]->nb_segs, 1);
		}
		rte_pktmbuf_free_bulk(m, RTE_DIM(m));
	}
	assert_int_equal(rte_mempool_avail_count(mp), SHUF_N);
	/* Too late: this lcore's cache now holds mbufs, which a shuffle
	 * cannot reach. It refuses, and the backend's order is unchanged. */
	{
		static void *before[SHUF_N], *after[SHUF_N];
		struct rte_mempool_cache *cache =
			rte_mempool_default_cache(mp, rte_lcore_id());
		unsigned int inring;

		assert_non_null(cache);
		assert_true(cache->len > 0);
		inring = SHUF_N - cache->len;
		assert_int_equal(rte_mempool_generic_get(mp, before, inring, NULL), 0);
		rte_mempool_generic_put(mp, before, inring, NULL);
		assert_true(pkt_pool_shuffle(mp, PKT_POOL_SEED) < 0);
		assert_int_equal(rte_mempool_avail_count(mp), SHUF_N);
		assert_int_equal(rte_mempool_generic_get(mp, after, inring, NULL), 0);
		rte_mempool_generic_put(mp, after, inring, NULL);
		assert_memory_equal(before, after, inring * sizeof(before[0]));
	}
	rte_mempool_free(mp);
}

/* ---- pkt_parse_*(): numbers, addresses, prefixes, port ranges ---- */

static void
test_parse(void **state)
{
	static const struct {
		const char *s;
		uint64_t lo, hi, want;
		int rc;
		const char *err;
	} nums[] = {
		{ "0", 0, 9, 0, 0, NULL },
		{ "010", 0, 99, 10, 0, NULL },	/* leading zeros are decimal */
		{ "0009", 0, 9, 9, 0, NULL },
		{ "18446744073709551615", 0, UINT64_MAX, UINT64_MAX, 0, NULL },
		{ "18446744073709551616", 0, UINT64_MAX, 0, -ERANGE,
		  "'18446744073709551616' is out of range 0..18446744073709551615" },
		{ "99999999999999999999999", 0, 65535, 0, -ERANGE,
		  "'99999999999999999999999' is out of range 0..65535" },
		{ "10", 11, 20, 0, -ERANGE, "'10' is out of range 11..20" },
		{ "0x10", 0, 99, 0, -EINVAL,
		  "'0x10' is not a decimal number (hexadecimal is not accepted)" },
		{ "0X1", 0, 99, 0, -EINVAL,
		  "'0X1' is not a decimal number (hexadecimal is not accepted)" },
		{ "", 0, 9, 0, -EINVAL, "'' is not a number" },
		{ NULL, 0, 9, 0, -EINVAL, "'' is not a number" },
		{ "+5", 0, 9, 0, -EINVAL, "'+5' is not a number" },
		{ "-0", 0, 9, 0, -EINVAL, "'-0' is not a number" },
		{ " 5", 0, 9, 0, -EINVAL, "' 5' is not a number" },
		{ "5 ", 0, 9, 0, -EINVAL, "'5 ' is not a number" },
		{ "99999999999999999999999x", 0, 9, 0, -EINVAL,
		  "'99999999999999999999999x' is not a number" },
	};
	static const struct {
		const char *s;
		bool host_bits;
		uint32_t addr;
		uint8_t len;
		const char *err;
	} prefixes[] = {
		{ "10.0.0.0/8", false, IP4(10, 0, 0, 0), 8, NULL },
		{ "10.1.2.3", false, IP4(10, 1, 2, 3), 32, NULL },
		{ "0.0.0.0/0", false, 0, 0, NULL },
		{ "10.0.0.0/08", false, IP4(10, 0, 0, 0), 8, NULL },
		{ "198.51.100.1/24", true, IP4(198, 51, 100, 1), 24, NULL },
		{ "198.51.100.1/24", false, 0, 0,
		  "'198.51.100.1/24' has host bits set (did you mean 198.51.100.0/24?)" },
		{ "10.0.0.0/33", true, 0, 0,
		  "'10.0.0.0/33' is not an address A.B.C.D[/LEN]: length '33' is out of range 0..32" },
		{ "10.0.0.0/", true, 0, 0,
		  "'10.0.0.0/' is not an address A.B.C.D[/LEN]: length '' is not a number" },
		{ "10.0.0.0/0x8", true, 0, 0,
		  "'10.0.0.0/0x8' is not an address A.B.C.D[/LEN]: length '0x8' is not a decimal "
		  "number (hexadecimal is not accepted)" },
		{ "10.0.0", true, 0, 0, "'10.0.0' is not an address A.B.C.D[/LEN]" },
		{ "010.0.0.1", true, 0, 0, "'010.0.0.1' is not an address A.B.C.D[/LEN]" },
		{ "0x0a.0.0.1", true, 0, 0, "'0x0a.0.0.1' is not an address A.B.C.D[/LEN]" },
		{ "256.0.0.1", true, 0, 0, "'256.0.0.1' is not an address A.B.C.D[/LEN]" },
		{ "/8", true, 0, 0, "'/8' is not an address A.B.C.D[/LEN]" },
		{ "1.2.3.4 ", true, 0, 0, "'1.2.3.4 ' is not an address A.B.C.D[/LEN]" },
		{ "", true, 0, 0, "'' is not an address A.B.C.D[/LEN]" },
		{ NULL, true, 0, 0, "'' is not an address A.B.C.D[/LEN]" },
	};
	static const struct {
		const char *s;
		uint16_t lo, hi;
		const char *err;
	} ports[] = {
		{ "9", 9, 9, NULL },
		{ "080", 80, 80, NULL },
		{ "0-65535", 0, 65535, NULL },
		{ "1024-1024", 1024, 1024, NULL },
		{ "200-100", 0, 0, "'200-100': range is reversed" },
		{ "70000", 0, 0, "'70000' is not a port or range P-Q (decimal, 0..65535)" },
		{ "1-70000", 0, 0, "'1-70000' is not a port or range P-Q (decimal, 0..65535)" },
		{ "0x50", 0, 0, "'0x50' is not a port or range P-Q (decimal, 0..65535)" },
		{ "-5", 0, 0, "'-5' is not a port or range P-Q (decimal, 0..65535)" },
		{ "5-", 0, 0, "'5-' is not a port or range P-Q (decimal, 0..65535)" },
		{ "1-2-3", 0, 0, "'1-2-3' is not a port or range P-Q (decimal, 0..65535)" },
		{ "", 0, 0, "'' is not a port or range P-Q (decimal, 0..65535)" },
		{ "111111111111111111111111111111111", 0, 0,
		  "'111111111111111111111111111111111' is not a port or range P-Q (decimal, 0..65535)" },
	};
	char err[256];
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(nums); i++) {
		uint64_t v = 0x5a5a;
		int rc = pkt_parse_u64(nums[i].s, nums[i].lo, nums[i].hi, &v, err,
				       sizeof(err));

		if (rc != nums[i].rc || (rc == 0 && v != nums[i].want) ||
		    (rc != 0 && (v != 0x5a5a || strcmp(err, nums[i].err) != 0)))
			fail_msg("number '%s': rc %d value %" PRIu64 " err \"%s\"",
				 nums[i].s ? nums[i].s : "(null)", rc, v, rc ? err : "");
	}
	for (i = 0; i < RTE_DIM(prefixes); i++) {
		uint32_t a = 7;
		uint8_t l = 7;
		int rc = pkt_parse_prefix(prefixes[i].s, prefixes[i].host_bits, &a, &l,
					  err, sizeof(err));

		if (prefixes[i].err == NULL ?
		    rc != 0 || a != prefixes[i].addr || l != prefixes[i].len :
		    rc != -EINVAL || a != 7 || l != 7 || strcmp(err, prefixes[i].err) != 0)
			fail_msg("prefix '%s': rc %d %08x/%u err \"%s\"",
				 prefixes[i].s ? prefixes[i].s : "(null)", rc, a, l,
				 rc ? err : "");
	}
	for (i = 0; i < RTE_DIM(ports); i++) {
		uint16_t lo = 7, hi = 7;
		int rc = pkt_parse_port_range(ports[i].s, &lo, &hi, err, sizeof(err));

		if (ports[i].err == NULL ?
		    rc != 0 || lo != ports[i].lo || hi != ports[i].hi :
		    rc != -EINVAL || lo != 7 || hi != 7 || strcmp(err, ports[i].err) != 0)
			fail_msg("ports '%s': rc %d %u-%u err \"%s\"", ports[i].s, rc,
				 lo, hi, rc ? err : "");
	}
	{
		uint32_t lo = 7, hi = 7;

		assert_int_equal(pkt_parse_ipv4_range("10.0.0.9-10.0.0.1", &lo, &hi, err,
						      sizeof(err)), -EINVAL);
		assert_string_equal(err, "'10.0.0.9-10.0.0.1': range is reversed");
		assert_int_equal(pkt_parse_ipv4_range("10.0.0.1-10.0.0", &lo, &hi, err,
						      sizeof(err)), -EINVAL);
		assert_string_equal(err, "'10.0.0.1-10.0.0' is not an IPv4 address or range A-B");
		assert_int_equal(lo, 7);
		assert_int_equal(pkt_parse_ipv4_range("255.255.255.255-255.255.255.255",
						      &lo, &hi, err, sizeof(err)), 0);
		assert_int_equal(lo, UINT32_MAX);
		assert_int_equal(hi, UINT32_MAX);
		assert_int_equal(pkt_parse_ipv4_range("10.0.0.1", &lo, &hi, err,
						      sizeof(err)), 0);
		assert_int_equal(lo, IP4(10, 0, 0, 1));
		assert_int_equal(hi, IP4(10, 0, 0, 1));
		assert_int_equal(pkt_parse_ipv4("1.2.3.04", &lo, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, "'1.2.3.04' is not an IPv4 address A.B.C.D");
		assert_int_equal(pkt_parse_ipv4("224.0.0.1", &lo, err, sizeof(err)), 0);
		assert_int_equal(lo, IP4(224, 0, 0, 1));
	}
	/* A short buffer truncates the reason, never overflows. */
	assert_int_equal(pkt_parse_u64("0x1", 0, 9, &(uint64_t){ 0 }, err, 8), -EINVAL);
	assert_string_equal(err, "'0x1' i");
}

/* The enums' name tables: every entry named, name() and parse() agree. */
static void
test_names(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < PKT_POOL_LAYOUT_MAX; i++) {
		enum pkt_pool_layout l = PKT_POOL_LAYOUT_MAX;

		assert_non_null(pkt_pool_layout_names[i]);
		assert_string_equal(pkt_pool_layout_name(i), pkt_pool_layout_names[i]);
		assert_int_equal(pkt_pool_layout_parse(pkt_pool_layout_names[i], &l), 0);
		assert_int_equal(l, i);
	}
	for (i = 0; i < PKT_POOL_ORDER_MAX; i++) {
		enum pkt_pool_order o = PKT_POOL_ORDER_MAX;

		assert_non_null(pkt_pool_order_names[i]);
		assert_string_equal(pkt_pool_order_name(i), pkt_pool_order_names[i]);
		assert_int_equal(pkt_pool_order_parse(pkt_pool_order_names[i], &o), 0);
		assert_int_equal(o, i);
	}
	for (i = 0; i < PKT_CAPTURE_MAX; i++) {
		enum pkt_capture_what w = PKT_CAPTURE_MAX;

		assert_non_null(pkt_capture_what_names[i]);
		assert_string_equal(pkt_capture_what_name(i), pkt_capture_what_names[i]);
		assert_int_equal(pkt_capture_what_parse(pkt_capture_what_names[i], &w), 0);
		assert_int_equal(w, i);
	}
	for (i = 0; i < PKT_ALLOC_MAX; i++)
		assert_string_equal(pkt_alloc_name(i), pkt_alloc_names[i]);
	assert_string_equal(pkt_pool_layout_name(PKT_POOL_LAYOUT_MAX), "?");
	assert_int_equal(pkt_pool_order_parse("random", &(enum pkt_pool_order){ 0 }), -EINVAL);
	assert_int_equal(pkt_pool_flags(PKT_POOL_LAYOUT_PAGE, PKT_POOL_ORDER_ADDRESS), 0);
	assert_int_equal(pkt_pool_flags(PKT_POOL_LAYOUT_PACKED, PKT_POOL_ORDER_SHUFFLE),
			 PKT_POOL_PACKED | PKT_POOL_SHUFFLE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_pool_layout),
		cmocka_unit_test(test_pool_shuffle),
		cmocka_unit_test(test_build_udp),
		cmocka_unit_test(test_flow_enumeration),
		cmocka_unit_test(test_templates_build),
		cmocka_unit_test(test_pcap_roundtrip),
		cmocka_unit_test(test_pcap_errors),
		cmocka_unit_test(test_gen_reuse),
		cmocka_unit_test(test_gen_bulk),
		cmocka_unit_test(test_gen_errors),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, __pkt_setup, __pkt_teardown);
}
