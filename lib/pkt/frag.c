/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's fragments (--frag SIZE, --frag-order): a frame of
 * pkt_build() split as a host's ip_fragment / ip6_fragment splits a
 * datagram, so that the receive path's reassembly has work to do.
 *
 * IPv4: the header (20 bytes, the generator's) copied into each fragment,
 * tot_len, the offset and MF set, DF cleared, the checksum redone.
 * IPv6: the unfragmentable part (the IPv6 header, then the extension
 * headers ip6_find_1stfragopt keeps before the fragment header) copied
 * into each fragment, then a fragment header (its next header the byte
 * that named it, which now names 44), then the fragment's data; payload
 * length set. Every fragment but the last carries a multiple of 8 bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ip.h>

#include "pkt.h"

#define EXT6_LEN 8

const char *const pkt_frag_order_names[PKT_FRAG_ORDER_MAX] = {
	[PKT_FRAG_IN] = "in",
	[PKT_FRAG_REVERSE] = "reverse",
	[PKT_FRAG_SHUFFLE] = "shuffle",
};

uint16_t
pkt_frag_min(const struct pkt_flow_conf *c)
{
	uint32_t n = EXT6_LEN * c->n_ext6 + (c->l4 == PKT_L4_TCP ? 20 : 8);

	return (uint16_t)RTE_ALIGN_CEIL(n, 8);
}

uint32_t
pkt_frag_max(const struct pkt_flow_conf *c)
{
	uint32_t l2 = RTE_ETHER_HDR_LEN + 4 * c->n_tags, data;

	if (c->frag_size == 0 || c->pkt_size <= l2 + 20)
		return 1;
	data = c->pkt_size - l2 - 20; /* IPv4's, the longer */
	return RTE_MAX((data + c->frag_size - 1) / c->frag_size, 1u);
}

/* The k fragments' indexes in the order they are sent (seed: the flow). */
static void
__order(uint8_t order, uint32_t *idx, uint32_t k, uint32_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
	uint32_t j;

	for (j = 0; j < k; j++)
		idx[j] = order == PKT_FRAG_REVERSE ? k - 1 - j : j;
	if (order != PKT_FRAG_SHUFFLE)
		return;
	for (j = k; j > 1; j--) { /* Fisher-Yates over a 64-bit LCG */
		uint32_t r, t;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		r = (uint32_t)((x >> 33) % j);
		t = idx[j - 1];
		idx[j - 1] = idx[r];
		idx[r] = t;
	}
}

/* The unfragmentable extension headers of c's IPv6 frames, where Linux's
 * ip6_find_1stfragopt (net/ipv6/output_core.c) puts the fragment header:
 * hop-by-hop and routing headers, and destination options before any
 * routing header, up to the first other header or the first destination
 * options after a routing header. That is Linux's choice, not RFC 8200
 * 4.5's rule: the RFC's per-fragment part ends with the routing header
 * (else the hop-by-hop), so destination options with no routing header
 * after them would be fragmentable; Linux keeps them in every fragment. */
static uint32_t
__unfrag6(const struct pkt_flow_conf *c)
{
	bool rt = false;
	uint32_t j;

	for (j = 0; j < c->n_ext6; j++) {
		if (c->ext6[j] == PKT_EXT6_RT)
			rt = true;
		else if (c->ext6[j] != PKT_EXT6_HOP && (c->ext6[j] != PKT_EXT6_DST || rt))
			break;
	}
	return j;
}

int
pkt_frag_split(const struct pkt_flow_conf *c, uint32_t i, const uint8_t *frame,
	       uint16_t len, uint8_t **out, uint16_t *out_len)
{
	uint32_t l2 = RTE_ETHER_HDR_LEN + 4 * c->n_tags, size = c->frag_size;
	bool v6 = c->family == PKT_FAMILY_IPV6 ||
		  (c->family == PKT_FAMILY_MIXED && (i & 1));
	uint32_t hdr, data, k, j, nhoff = 0, idx[PKT_MAX_SIZE / 8 + 1];
	uint8_t nh = 0;

	if (size == 0 || size % 8 != 0 || size < pkt_frag_min(c) || len <= l2 + 40)
		return -EINVAL;
	if (v6) {
		uint32_t u = __unfrag6(c);

		for (j = 0; j < c->n_ext6; j++)
			if (c->ext6[j] == PKT_EXT6_FRAG)
				return -EINVAL; /* a second fragment header */
		hdr = 40 + EXT6_LEN * u;
		nhoff = u == 0 ? 6 : 40 + EXT6_LEN * (u - 1);
		nh = frame[l2 + nhoff];
		data = 40 + ((uint32_t)frame[l2 + 4] << 8 | frame[l2 + 5]) - hdr;
	} else {
		hdr = (frame[l2] & 0xf) * 4u;
		data = ((uint32_t)frame[l2 + 2] << 8 | frame[l2 + 3]) - hdr;
	}
	if (l2 + hdr + data > len)
		return -EINVAL;
	if (data <= size) { /* nothing to split: the frame as it is */
		out[0] = malloc(len);
		if (out[0] == NULL)
			return -ENOMEM;
		memcpy(out[0], frame, len);
		out_len[0] = len;
		return 1;
	}
	k = (data + size - 1) / size;
	__order(c->frag_order, idx, k, i);
	for (j = 0; j < k; j++) {
		uint32_t f = idx[j], off = f * size, n = RTE_MIN(size, data - off);
		uint32_t flen = l2 + hdr + (v6 ? 8 : 0) + n;
		uint8_t *p = malloc(flen), *ip;

		if (p == NULL) {
			while (j > 0)
				free(out[--j]);
			return -ENOMEM;
		}
		memcpy(p, frame, l2 + hdr);
		ip = p + l2;
		if (v6) {
			uint8_t *fh = ip + hdr;
			uint32_t plen = hdr - 40 + 8 + n;
			uint32_t id = i + 1;

			ip[4] = (uint8_t)(plen >> 8);
			ip[5] = (uint8_t)plen;
			ip[nhoff] = 44;
			fh[0] = nh;
			fh[1] = 0;
			fh[2] = (uint8_t)(off >> 8);
			fh[3] = (uint8_t)((off & 0xf8) | (f + 1 < k ? 1 : 0));
			fh[4] = (uint8_t)(id >> 24);
			fh[5] = (uint8_t)(id >> 16);
			fh[6] = (uint8_t)(id >> 8);
			fh[7] = (uint8_t)id;
			memcpy(fh + 8, frame + l2 + hdr + off, n);
		} else {
			uint16_t fo = (uint16_t)(off / 8) |
				      (f + 1 < k ? RTE_IPV4_HDR_MF_FLAG : 0);
			uint16_t ck;

			ip[2] = (uint8_t)((hdr + n) >> 8);
			ip[3] = (uint8_t)(hdr + n);
			ip[6] = (uint8_t)(fo >> 8);
			ip[7] = (uint8_t)fo;
			ip[10] = ip[11] = 0;
			ck = (uint16_t)~rte_raw_cksum(ip, hdr);
			memcpy(ip + 10, &ck, sizeof(ck));
			memcpy(ip + hdr, frame + l2 + hdr + off, n);
		}
		out[j] = p;
		out_len[j] = (uint16_t)flen;
	}
	return (int)k;
}
