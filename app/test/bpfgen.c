/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frames and tcpdump expressions for the generated pcap-filter test. Both
 * draw their addresses, ports, tags and numbers from the same small pools,
 * so that random expressions match random frames often enough to test
 * both answers. (The eBPF program generator and reference interpreter are
 * in bpfgen_ebpf.c.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfgen.h"

/* ---- shared pools ---- */

static const uint8_t mac_pool[][6] = {
	{ 0x02, 0, 0, 0, 0, 0x01 }, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	{ 0x01, 0x00, 0x5e, 0, 0, 0x01 }, { 0x33, 0x33, 0, 0, 0, 0x01 },
	{ 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 }, { 0x01, 0x80, 0xc2, 0, 0, 0 },
};
static const char *const mac_str[] = {
	"02:00:00:00:00:01", "ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:01",
	"33:33:00:00:00:01", "00:11:22:33:44:55", "01:80:c2:00:00:00",
};
static const uint32_t ip4_pool[] = {
	0x0a000001, 0x0a000002, 0xc0a80101, 0xc0a801ff, 0xffffffff, 0xe0000001,
	0x00000000, 0x0a010203, 0xc6120001, 0xc0a80181,
};
static const char *const ip4_str[] = {
	"10.0.0.1", "10.0.0.2", "192.168.1.1", "192.168.1.255", "255.255.255.255",
	"224.0.0.1", "0.0.0.0", "10.1.2.3", "198.18.0.1", "192.168.1.129",
};
static const char *const net4_str[] = {
	"10.0.0.0/8", "192.168.1.0/24", "10.1.0.0/16", "224.0.0.0/4",
	"192.168.1.128/25", "0.0.0.0/0", "10.0.0.0/30", "10.0.0.2/32",
};
static const char *const mask4_str[] = {
	"10.0.0.0 mask 255.0.0.0", "192.168.0.0 mask 255.255.0.0",
	"192.168.1.0 mask 255.255.255.128",
};
static const uint8_t ip6_pool[][16] = {
	{ 0xfe, 0x80, [15] = 1 }, { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
	{ 0xff, 0x02, [15] = 1 }, { [15] = 1 }, { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 },
};
static const char *const ip6_str[] = {
	"fe80::1", "2001:db8::1", "ff02::1", "::1", "2001:db8::2",
};
static const char *const net6_str[] = {
	"2001:db8::/32", "fe80::/10", "ff00::/8", "2001:db8::/127",
};
static const uint16_t port_pool[] = {
	0, 22, 53, 67, 68, 80, 443, 4000, 4789, 6081, 8080, 44000, 65535, 1234,
};
static const uint16_t vid_pool[] = { 0, 1, 100, 200, 4095 };
static const uint32_t label_pool[] = { 0, 16, 100, 1000, 0xfffff };
static const uint16_t sess_pool[] = { 1, 5, 0x1234 };
static const uint32_t vni_pool[] = { 0, 1, 42, 0xffffff };
static const uint8_t l4_pool[] = { 6, 17, 1, 2, 47, 50, 51, 58, 103, 112, 132, 4, 41, 0, 59, 60, 43, 44 };

#define PICK(r, a) ((a)[gen_below(r, sizeof(a) / sizeof((a)[0]))])
#define PICKI(r, a) gen_below(r, sizeof(a) / sizeof((a)[0]))

/* ---- frames ---- */

struct fb {
	uint8_t b[GEN_FRAME_MAX];
	uint32_t n;
};

static void
p8(struct fb *f, uint32_t v)
{
	if (f->n < GEN_FRAME_MAX)
		f->b[f->n++] = (uint8_t)v;
}

static void
p16(struct fb *f, uint32_t v)
{
	p8(f, v >> 8);
	p8(f, v);
}

static void
p32(struct fb *f, uint32_t v)
{
	p16(f, v >> 16);
	p16(f, v);
}

static void
pb(struct fb *f, const uint8_t *b, uint32_t n)
{
	while (n--)
		p8(f, *b++);
}

static void
prand(struct gen_rng *r, struct fb *f, uint32_t n)
{
	while (n--)
		p8(f, (uint32_t)gen_u64(r));
}

static void
set16(struct fb *f, uint32_t at, uint32_t v)
{
	if (at + 1 < f->n) {
		f->b[at] = (uint8_t)(v >> 8);
		f->b[at + 1] = (uint8_t)v;
	}
}

static void
eth(struct gen_rng *r, struct fb *f)
{
	pb(f, PICK(r, mac_pool), 6);
	pb(f, PICK(r, mac_pool), 6);
}

static uint32_t
ip4(struct gen_rng *r)
{
	return gen_pct(r, 85) ? PICK(r, ip4_pool) : (uint32_t)gen_u64(r);
}

static uint32_t
port(struct gen_rng *r)
{
	return gen_pct(r, 85) ? PICK(r, port_pool) : gen_below(r, 65536);
}

static void l4(struct gen_rng *r, struct fb *f, uint32_t proto, int depth);
static void l3(struct gen_rng *r, struct fb *f, uint32_t type, int depth);

/* An IPv4 header (options, fragments) and its payload. */
static void
ipv4(struct gen_rng *r, struct fb *f, int depth)
{
	uint32_t ihl = gen_pct(r, 70) ? 5 : 5 + gen_below(r, 11);
	uint32_t start = f->n, proto = gen_pct(r, 85) ? PICK(r, l4_pool) : gen_below(r, 256);
	uint32_t frag = 0, i;

	if (gen_pct(r, 15))
		frag = (gen_pct(r, 50) ? 0x2000 : 0) | (gen_pct(r, 60) ? gen_below(r, 0x2000) : 0);
	else if (gen_pct(r, 30))
		frag = 0x4000;
	p8(f, 0x40 | ihl);
	p8(f, gen_pct(r, 70) ? 0 : gen_below(r, 256));
	p16(f, 0);			/* total length, set below */
	p16(f, gen_below(r, 65536));
	p16(f, frag);
	p8(f, gen_pct(r, 80) ? 64 : gen_below(r, 256));
	p8(f, proto);
	p16(f, 0);
	p32(f, ip4(r));
	p32(f, ip4(r));
	for (i = 20; i < ihl * 4; i++)	/* options: NOP, RR, timestamp, junk */
		p8(f, i == 20 && gen_pct(r, 50) ? PICK(r, ((const uint8_t[]){ 1, 7, 68, 130, 148 })) :
		   gen_pct(r, 60) ? 1 : gen_below(r, 256));
	if ((frag & 0x1fff) == 0 || gen_pct(r, 30))
		l4(r, f, proto, depth);
	else
		prand(r, f, gen_below(r, 40));
	set16(f, start + 2, gen_pct(r, 90) ? f->n - start : gen_below(r, 65536));
}

/* An IPv6 header, extension headers and the payload. */
static void
ipv6(struct gen_rng *r, struct fb *f, int depth)
{
	static const uint8_t ext[] = { 0, 43, 44, 60, 51 };
	uint32_t start = f->n, n_ext = gen_pct(r, 40) ? 1 + gen_below(r, 3) : 0, i;
	uint32_t next = n_ext ? PICK(r, ext) : (gen_pct(r, 85) ? PICK(r, l4_pool) : gen_below(r, 256));

	p32(f, 0x60000000 | gen_below(r, 1u << 20));
	p16(f, 0);
	p8(f, next);
	p8(f, gen_pct(r, 80) ? 64 : 255);
	pb(f, gen_pct(r, 85) ? PICK(r, ip6_pool) : ip6_pool[0], 16);
	pb(f, gen_pct(r, 85) ? PICK(r, ip6_pool) : ip6_pool[1], 16);
	for (i = 0; i < n_ext; i++) {
		uint32_t cur = next;

		next = i + 1 < n_ext ? PICK(r, ext) : PICK(r, l4_pool);
		p8(f, next);
		if (cur == 44) {			/* fragment: 8 bytes */
			p8(f, 0);
			p16(f, gen_pct(r, 50) ? 0 : gen_below(r, 65536));
			p32(f, (uint32_t)gen_u64(r));
		} else if (cur == 51) {			/* AH: len in 4-byte words - 2 */
			p8(f, 4);
			prand(r, f, 22);
		} else {
			uint32_t len = gen_below(r, 3);

			p8(f, len);
			prand(r, f, 6 + len * 8);
		}
	}
	l4(r, f, next, depth);
	set16(f, start + 4, f->n - start - 40);
}

static void
inner_eth(struct gen_rng *r, struct fb *f, int depth)
{
	static const uint16_t types[] = { 0x0800, 0x86dd, 0x0806, 0x8100 };

	eth(r, f);
	l3(r, f, PICK(r, types), depth + 1);
}

static void
l4(struct gen_rng *r, struct fb *f, uint32_t proto, int depth)
{
	uint32_t start = f->n, sp, dp;

	switch (proto) {
	case 6:
		p16(f, port(r));
		p16(f, port(r));
		p32(f, (uint32_t)gen_u64(r));
		p32(f, (uint32_t)gen_u64(r));
		p8(f, gen_pct(r, 80) ? 0x50 : gen_below(r, 256));
		p8(f, gen_pct(r, 70) ? PICK(r, ((const uint8_t[]){ 0x02, 0x10, 0x12, 0x11, 0x04, 0x18, 0x29, 0xff })) :
		   gen_below(r, 256));
		p16(f, gen_below(r, 65536));
		p32(f, 0);
		prand(r, f, gen_below(r, 20));
		break;
	case 17:
		sp = port(r);
		dp = port(r);
		if (depth < 2 && gen_pct(r, 20))
			dp = gen_pct(r, 50) ? 4789 : 6081;
		p16(f, sp);
		p16(f, dp);
		p16(f, 0);
		p16(f, 0);
		if (dp == 4789 && depth < 2) {			/* VXLAN */
			p32(f, 0x08000000);
			p32(f, PICK(r, vni_pool) << 8);
			inner_eth(r, f, depth);
		} else if (dp == 6081 && depth < 2) {		/* Geneve */
			uint32_t opt = gen_pct(r, 70) ? 0 : 1 + gen_below(r, 3);

			p8(f, opt);
			p8(f, gen_pct(r, 80) ? 0 : 0x80);
			p16(f, gen_pct(r, 70) ? 0x6558 : 0x0800);
			p32(f, PICK(r, vni_pool) << 8);
			prand(r, f, opt * 4);
			inner_eth(r, f, depth);
		} else {
			prand(r, f, gen_below(r, 32));
		}
		set16(f, start + 4, f->n - start);
		break;
	case 1:
	case 58:
		p8(f, gen_pct(r, 70) ? PICK(r, ((const uint8_t[]){ 0, 3, 8, 11, 128, 129, 135, 136, 5 })) :
		   gen_below(r, 256));
		p8(f, gen_below(r, 4));
		p16(f, 0);
		prand(r, f, gen_below(r, 40));
		break;
	case 47:					/* GRE */
		p16(f, gen_pct(r, 70) ? 0 : 0x2000);
		p16(f, gen_pct(r, 50) ? 0x0800 : 0x86dd);
		if (f->b[start] & 0x20)
			p32(f, (uint32_t)gen_u64(r));
		if (depth < 2)
			l3(r, f, (f->b[start + 2] << 8) | f->b[start + 3], depth + 1);
		break;
	case 4:
		if (depth < 2)
			ipv4(r, f, depth + 1);
		break;
	case 41:
		if (depth < 2)
			ipv6(r, f, depth + 1);
		break;
	case 132:					/* SCTP */
		p16(f, port(r));
		p16(f, port(r));
		prand(r, f, 8 + gen_below(r, 16));
		break;
	default:
		prand(r, f, gen_below(r, 48));
		break;
	}
}

static void
vlan_tags(struct gen_rng *r, struct fb *f, uint32_t n, uint32_t inner)
{
	static const uint16_t tpid[] = { 0x8100, 0x88a8, 0x9100 };

	while (n--) {
		p16(f, PICK(r, tpid));
		p16(f, (gen_below(r, 8) << 13) | (gen_pct(r, 85) ? PICK(r, vid_pool) : gen_below(r, 4096)));
	}
	p16(f, inner);
}

static void
l3(struct gen_rng *r, struct fb *f, uint32_t type, int depth)
{
	uint32_t i, n;

	switch (type) {
	case 0x0800:
		ipv4(r, f, depth);
		break;
	case 0x86dd:
		ipv6(r, f, depth);
		break;
	case 0x0806:
	case 0x8035:
		p16(f, 1);
		p16(f, 0x0800);
		p8(f, 6);
		p8(f, 4);
		p16(f, gen_below(r, 5));
		pb(f, PICK(r, mac_pool), 6);
		p32(f, ip4(r));
		pb(f, PICK(r, mac_pool), 6);
		p32(f, ip4(r));
		break;
	case 0x8100:					/* a tag inside a tunnel */
		n = PICK(r, ((const uint16_t[]){ 0x0800, 0x86dd, 0x0806 }));
		p16(f, PICK(r, vid_pool));
		p16(f, n);
		l3(r, f, n, depth);
		break;
	case 0x8847:
	case 0x8848:
		n = 1 + gen_below(r, 3);
		for (i = 0; i < n; i++)
			p32(f, (PICK(r, label_pool) << 12) | ((i + 1 == n) ? 0x100 : 0) | 64);
		if (gen_pct(r, 70))
			ipv4(r, f, depth);
		else
			ipv6(r, f, depth);
		break;
	case 0x8864:
		p8(f, 0x11);
		p8(f, 0);
		p16(f, PICK(r, sess_pool));
		p16(f, 0);
		n = f->n;
		if (gen_pct(r, 70)) {
			p16(f, 0x0021);
			ipv4(r, f, depth);
		} else {
			p16(f, 0x0057);
			ipv6(r, f, depth);
		}
		set16(f, n - 2, f->n - n);
		break;
	case 0x8863:
		p8(f, 0x11);
		p8(f, PICK(r, ((const uint8_t[]){ 0x09, 0x07, 0x19, 0x65, 0xa7 })));
		p16(f, 0);
		p16(f, 4);
		p32(f, 0x01010000);
		break;
	default:
		prand(r, f, gen_below(r, 64));
		break;
	}
}

static void
random_frame(struct gen_rng *r, struct fb *f)
{
	static const uint16_t types[] = { 0x0800, 0x0800, 0x0800, 0x86dd, 0x86dd,
		0x0806, 0x8035, 0x8847, 0x8864, 0x8863, 0x809b, 0x6003, 0x8137, 0x88cc };
	uint32_t type = gen_pct(r, 92) ? PICK(r, types) : gen_below(r, 65536), k;

	f->n = 0;
	eth(r, f);
	if (gen_pct(r, 7)) {			/* 802.3 length + LLC */
		p16(f, 38 + gen_below(r, 1400));
		k = PICK(r, ((const uint8_t[]){ 0xaa, 0x42, 0xe0, 0xf0, 0xfe, 0x06 }));
		p8(f, k);
		p8(f, k);
		p8(f, 0x03);
		if (k == 0xaa) {
			p8(f, 0);
			p16(f, 0);
			p16(f, PICK(r, ((const uint16_t[]){ 0x0800, 0x809b, 0x80f3, 0x8137 })));
		}
		prand(r, f, gen_below(r, 60));
	} else if (gen_pct(r, 25)) {
		vlan_tags(r, f, 1 + gen_below(r, 3), type);
		l3(r, f, type, 0);
	} else {
		p16(f, type);
		l3(r, f, type, 0);
	}
	if (gen_pct(r, 12))
		f->n = gen_below(r, f->n + 1);		/* truncated: runts too */
	if (gen_pct(r, 10)) {				/* a few flipped bytes */
		for (k = gen_below(r, 3) + 1; k-- > 0 && f->n;)
			f->b[gen_below(r, f->n)] ^= (uint8_t)(1u << gen_below(r, 8));
	}
}

static int
keep(struct gen_frame *f, size_t *n, size_t max, const struct fb *b, const char *kind)
{
	if (*n >= max)
		return -1;
	f[*n].data = malloc(b->n ? b->n : 1);
	if (f[*n].data == NULL)
		return -1;
	memcpy(f[*n].data, b->b, b->n);
	f[*n].len = b->n;
	f[*n].kind = kind;
	(*n)++;
	return 0;
}

size_t
gen_frames(struct gen_rng *r, size_t n_random, struct gen_frame *out, size_t max)
{
	static const struct {
		const char *kind;
		uint16_t type;
		uint8_t tags;
	} made[] = {
		{ "ipv4", 0x0800, 0 }, { "ipv6", 0x86dd, 0 }, { "arp", 0x0806, 0 },
		{ "rarp", 0x8035, 0 }, { "mpls", 0x8847, 0 }, { "pppoe-session", 0x8864, 0 },
		{ "pppoe-discovery", 0x8863, 0 }, { "vlan ipv4", 0x0800, 1 },
		{ "qinq ipv4", 0x0800, 2 }, { "3 tags ipv4", 0x0800, 3 },
		{ "vlan ipv6", 0x86dd, 1 }, { "vlan arp", 0x0806, 1 },
		{ "vlan mpls", 0x8847, 1 }, { "vlan pppoe", 0x8864, 1 },
	};
	struct fb *b = malloc(sizeof(*b));
	struct fb *big;
	size_t n = 0, i, k;

	if (b == NULL)
		return 0;
	/* Each hand-made kind several times (its fields still vary). */
	for (k = 0; k < 6; k++) {
		for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
			b->n = 0;
			eth(r, b);
			if (made[i].tags)
				vlan_tags(r, b, made[i].tags, made[i].type);
			else
				p16(b, made[i].type);
			l3(r, b, made[i].type, 0);
			keep(out, &n, max, b, made[i].kind);
		}
	}
	/* Runts: 0..33 bytes of an IPv4 frame. */
	for (k = 0; k <= 33; k += 3) {
		b->n = 0;
		eth(r, b);
		p16(b, 0x0800);
		ipv4(r, b, 0);
		b->n = (uint32_t)k;
		keep(out, &n, max, b, "runt");
	}
	/* IPv4 with every option length and fragments; tunnels. */
	for (k = 0; k < 24; k++) {
		b->n = 0;
		eth(r, b);
		p16(b, 0x0800);
		ipv4(r, b, k & 1 ? 0 : 1);
		keep(out, &n, max, b, "ipv4 options/fragments/tunnels");
	}
	/* Jumbo frames: 9000 bytes of IPv4/UDP, and of IPv6/TCP. */
	big = b;
	for (k = 0; k < 2; k++) {
		big->n = 0;
		eth(r, big);
		p16(big, k ? 0x86dd : 0x0800);
		if (k) {
			p32(big, 0x60000000);
			p16(big, 9000 - 54);
			p8(big, 6);
			p8(big, 64);
			pb(big, ip6_pool[1], 16);
			pb(big, ip6_pool[4], 16);
			p16(big, 443);
			p16(big, 80);
			prand(r, big, 9000 - big->n);
		} else {
			p32(big, 0x45000000 | (9000 - 14));
			p32(big, 0);
			p32(big, 0x40110000);
			p32(big, ip4_pool[0]);
			p32(big, ip4_pool[2]);
			p16(big, 53);
			p16(big, 53);
			p16(big, 9000 - 34);
			p16(big, 0);
			prand(r, big, 9000 - big->n);
		}
		keep(out, &n, max, big, "jumbo");
	}
	for (i = 0; i < n_random; i++) {
		random_frame(r, b);
		keep(out, &n, max, b, "random");
	}
	free(b);
	return n;
}

void
gen_frames_free(struct gen_frame *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(f[i].data);
}

/* ---- tcpdump expressions ---- */

struct sb {
	char *b;
	size_t n, cap;
};

static void
sput(struct sb *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void
sput(struct sb *s, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (s->n + 1 >= s->cap)
		return;
	va_start(ap, fmt);
	k = vsnprintf(s->b + s->n, s->cap - s->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		s->n = s->n + (size_t)k < s->cap ? s->n + (size_t)k : s->cap - 1;
}

static const char *
dir(struct gen_rng *r)
{
	static const char *const d[] = { "", "src ", "dst ", "src or dst ", "src and dst " };

	return gen_pct(r, 50) ? "" : PICK(r, d);
}

static void
number(struct gen_rng *r, struct sb *s)
{
	static const char *const names[] = {
		"tcp-fin", "tcp-syn", "tcp-rst", "tcp-push", "tcp-ack", "tcp-urg",
		"tcp-ece", "tcp-cwr", "icmp-echo", "icmp-echoreply", "icmp-unreach",
		"icmp-timxceed", "icmp-redirect", "icmp6-echo", "icmp6-neighborsolicit",
		"icmptype", "icmpcode", "tcpflags",
	};
	static const uint32_t vals[] = { 0, 1, 2, 3, 4, 5, 6, 8, 13, 14, 16, 17, 20,
		31, 32, 33, 40, 47, 58, 64, 0x45, 0x60, 0xff, 0x100, 0x800, 0x86dd,
		0x8100, 0x1fff, 0x3fff, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
		0xffffffff, 53, 80, 443, 4789 };
	uint32_t v = gen_pct(r, 75) ? PICK(r, vals) : (uint32_t)gen_u64(r) >> gen_below(r, 32);

	if (gen_pct(r, 12)) {
		sput(s, "%s", PICK(r, names));
		return;
	}
	switch (gen_below(r, 6)) {
	case 0:
		sput(s, "0x%x", v);
		break;
	case 1:
		sput(s, "0%o", v);
		break;
	default:
		sput(s, "%u", v);
		break;
	}
}

static void arith(struct gen_rng *r, struct sb *s, int d);

static void
accessor(struct gen_rng *r, struct sb *s, int d)
{
	static const char *const protos[] = { "ether", "ip", "ip6", "tcp", "udp",
		"icmp", "icmp6", "arp", "rarp", "igmp", "sctp", "vrrp", "link" };
	static const char *const sizes[] = { "", ":1", ":2", ":4" };
	const char *p = PICK(r, protos);

	if (gen_pct(r, 10)) {
		sput(s, "%s", PICK(r, ((const char *const[]){ "tcp[tcpflags]",
			"icmp[icmptype]", "icmp[icmpcode]", "icmp6[icmp6type]",
			"tcp[13]", "ip[0] & 0xf" })));
		return;
	}
	sput(s, "%s[", p);
	if (d > 0 && gen_pct(r, 30))
		arith(r, s, d - 1);
	else
		sput(s, "%u", gen_pct(r, 90) ? gen_below(r, 64) : gen_below(r, 1u << gen_below(r, 32)));
	sput(s, "%s]", PICK(r, sizes));
}

static void
arith(struct gen_rng *r, struct sb *s, int d)
{
	static const char *const ops[] = { "+", "-", "*", "/", "%", "&", "|", "^",
		"<<", ">>", "&", "&", "+" };
	uint32_t k = gen_below(r, 100);

	if (d <= 0 || k < 45) {
		if (k < 15)
			number(r, s);
		else if (k < 19)
			sput(s, "len");
		else
			accessor(r, s, d);
		return;
	}
	if (k < 52) {
		sput(s, "-");
		arith(r, s, d - 1);
		return;
	}
	if (k < 60) {
		sput(s, "(");
		arith(r, s, d - 1);
		sput(s, ")");
		return;
	}
	arith(r, s, d - 1);
	sput(s, " %s ", PICK(r, ops));
	if (gen_pct(r, 50))
		number(r, s);
	else
		arith(r, s, d - 1);
}

static void
primitive(struct gen_rng *r, struct sb *s)
{
	static const char *const rel[] = { "=", "==", "!=", ">", "<", ">=", "<=" };
	static const char *const l4p[] = { "", "tcp ", "udp ", "sctp ", "ip and tcp ", "ip6 and udp " };
	static const char *const names[] = { "ip", "ip6", "arp", "rarp", "tcp", "udp",
		"icmp", "icmp6", "igmp", "igrp", "pim", "ah", "esp", "vrrp", "sctp",
		"atalk", "aarp", "decnet", "lat", "sca", "moprc", "mopdl", "iso", "stp",
		"ipx", "netbeui", "llc", "carp", "ip multicast", "ip6 multicast",
		"ether broadcast", "ether multicast", "ip broadcast", "broadcast",
		"multicast", "pppoed", "pppoes", "vlan", "mpls", "geneve",
		"ether proto \\ip", "ether proto \\arp", "ether proto \\ip6",
		"ip proto \\tcp", "ip6 proto \\udp", "proto \\icmp", "esis", "isis",
		"clnp", "llc i", "llc s", "llc u" };
	uint32_t k = gen_below(r, 100), a, b;

	if (k < 14) {
		switch (gen_below(r, 7)) {
		case 0: sput(s, "%shost %s", dir(r), PICK(r, ip4_str)); break;
		case 1: sput(s, "ip %shost %s", dir(r), PICK(r, ip4_str)); break;
		case 2: sput(s, "ip6 %shost %s", dir(r), PICK(r, ip6_str)); break;
		case 3: sput(s, "ether %shost %s", dir(r), PICK(r, mac_str)); break;
		case 4: sput(s, "%snet %s", dir(r), PICK(r, net4_str)); break;
		case 5: sput(s, "net %s", PICK(r, mask4_str)); break;
		default: sput(s, "ip6 %snet %s", dir(r), PICK(r, net6_str)); break;
		}
	} else if (k < 26) {
		a = port(r);
		b = port(r);
		if (gen_pct(r, 60))
			sput(s, "%s%sport %u", PICK(r, l4p), dir(r), a);
		else
			sput(s, "%s%sportrange %u-%u", PICK(r, l4p), dir(r), a < b ? a : b,
			     a < b ? b : a);
	} else if (k < 31) {
		sput(s, "%s %u", gen_pct(r, 50) ? "less" : "greater",
		     PICK(r, ((const uint32_t[]){ 0, 14, 42, 60, 64, 100, 1500, 2048, 9000 })));
	} else if (k < 45) {
		sput(s, "%s", PICK(r, names));
	} else if (k < 53) {
		switch (gen_below(r, 6)) {
		case 0: sput(s, "ip proto %u", PICK(r, l4_pool)); break;
		case 1: sput(s, "ip6 proto %u", PICK(r, l4_pool)); break;
		case 2: sput(s, "proto %u", PICK(r, l4_pool)); break;
		case 3: sput(s, "ether proto 0x%x", PICK(r, ((const uint32_t[]){ 0x800, 0x86dd,
			0x806, 0x8035, 0x8100, 0x88cc, 0x8847, 0x8864 }))); break;
		case 4: sput(s, "ip protochain %u", PICK(r, l4_pool)); break;
		default: sput(s, "ip6 protochain %u", PICK(r, l4_pool)); break;
		}
	} else if (k < 63) {
		switch (gen_below(r, 5)) {
		case 0: sput(s, "vlan %u", PICK(r, vid_pool)); break;
		case 1: sput(s, "mpls %u", PICK(r, label_pool)); break;
		case 2: sput(s, "pppoes %u", PICK(r, sess_pool)); break;
		case 3: sput(s, "geneve %u", PICK(r, vni_pool)); break;
		default: sput(s, "vlan and vlan %u", PICK(r, vid_pool)); break;
		}
	} else {
		arith(r, s, 1 + gen_below(r, 3));
		sput(s, " %s ", PICK(r, rel));
		if (gen_pct(r, 60))
			number(r, s);
		else
			arith(r, s, gen_below(r, 3));
	}
}

static void
expr(struct gen_rng *r, struct sb *s, int d)
{
	uint32_t k = gen_below(r, 100);

	if (d <= 0 || k < 35) {
		primitive(r, s);
		return;
	}
	if (k < 45) {
		sput(s, "%s", gen_pct(r, 70) ? "not " : "!");
		expr(r, s, d - 1);
		return;
	}
	if (k < 55) {
		sput(s, "(");
		expr(r, s, d - 1);
		sput(s, ")");
		return;
	}
	expr(r, s, d - 1);
	sput(s, "%s", PICK(r, ((const char *const[]){ " and ", " or ", " && ", " || ", " and ", " or " })));
	expr(r, s, d - 1);
}

void
gen_expr(struct gen_rng *r, char *buf, size_t len)
{
	struct sb s = { buf, 0, len };

	buf[0] = '\0';
	expr(r, &s, 1 + gen_below(r, 4));
}
