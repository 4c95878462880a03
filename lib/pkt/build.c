/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's frames (pkt.h, pkt_build_udp() and pkt_build()): IPv4
 * UDP, IPv6 with its extension headers, a TCP SYN or an echo request over
 * either family, and flows of both families mixed. Flow i decomposes over
 * the ranges in one mixed radix: source address fastest, source port,
 * destination address, destination port. pkt.c's templates are made of
 * them.
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "pkt.h"

const char *const pkt_family_names[PKT_FAMILY_MAX] = { [PKT_FAMILY_IPV4] = "ipv4",
						       [PKT_FAMILY_IPV6] = "ipv6",
						       [PKT_FAMILY_MIXED] = "mixed" };
const char *const pkt_l4_names[PKT_L4_MAX] = {
	[PKT_L4_UDP] = "udp", [PKT_L4_TCP] = "tcp", [PKT_L4_ICMP] = "icmp"
};

int
pkt_build_udp(const struct pkt_flow_conf *c, uint32_t i, uint8_t *buf, uint16_t buf_len)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;
	uint16_t l2len = (uint16_t)(sizeof(*eth) + 4 * c->n_tags);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(buf + l2len);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint8_t *tag = buf + 2 * RTE_ETHER_ADDR_LEN;
	uint64_t nsrc = (uint64_t)c->src_hi - c->src_lo + 1;
	uint64_t nsport = (uint64_t)c->sport_hi - c->sport_lo + 1;
	uint64_t ndst = (uint64_t)c->dst_hi - c->dst_lo + 1;
	uint64_t ndport = (uint64_t)c->dport_hi - c->dport_lo + 1;
	uint64_t r = i;
	uint32_t src, dst;
	uint16_t sport, dport, l3len;
	unsigned int k;

	if (c->n_tags > PKT_VLAN_DEPTH || c->pkt_size < PKT_MIN_SIZE + 4 * c->n_tags ||
	    buf_len < c->pkt_size)
		return -EINVAL;
	/* Mixed radix: source address fastest, then ports, then destination. */
	src = c->src_lo + (uint32_t)(r % nsrc);
	r /= nsrc;
	sport = (uint16_t)(c->sport_lo + r % nsport);
	r /= nsport;
	dst = c->dst_lo + (uint32_t)(r % ndst);
	r /= ndst;
	dport = (uint16_t)(c->dport_lo + r % ndport);

	memset(buf, 0, c->pkt_size);
	rte_ether_addr_copy(&c->dst_mac, &eth->dst_addr);
	rte_ether_addr_copy(&c->src_mac, &eth->src_addr);
	/* TPID and TCI of each tag, then the ethertype (byte stores: a tag
	 * moves the IP header off its 4-byte alignment). */
	for (k = 0; k < c->n_tags; k++, tag += 4) {
		tag[0] = (uint8_t)(c->tags[k].tpid >> 8);
		tag[1] = (uint8_t)c->tags[k].tpid;
		tag[2] = (uint8_t)(c->tags[k].tci >> 8);
		tag[3] = (uint8_t)c->tags[k].tci;
	}
	tag[0] = (uint8_t)(RTE_ETHER_TYPE_IPV4 >> 8);
	tag[1] = (uint8_t)RTE_ETHER_TYPE_IPV4;

	l3len = (uint16_t)(c->pkt_size - l2len);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->type_of_service = c->tos;
	ip->total_length = rte_cpu_to_be_16(l3len);
	ip->packet_id = rte_cpu_to_be_16((uint16_t)i);
	ip->fragment_offset = 0;
	ip->time_to_live = c->ttl;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);

	udp->src_port = rte_cpu_to_be_16(sport);
	udp->dst_port = rte_cpu_to_be_16(dport);
	udp->dgram_len = rte_cpu_to_be_16((uint16_t)(l3len - sizeof(*ip)));
	udp->dgram_cksum = 0;
	if (c->udp_csum)
		udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	return c->pkt_size;
}

#define IPV6_HLEN 40
#define EXT6_LEN  8 /* every header the generator puts is 8 bytes */

static uint16_t
__l4_len(uint8_t l4)
{
	return l4 == PKT_L4_TCP ? 20 : 8;
}

uint16_t
pkt_min_size(const struct pkt_flow_conf *c, enum pkt_family family)
{
	uint16_t l2 = (uint16_t)(RTE_ETHER_HDR_LEN + 4 * c->n_tags);

	if (family == PKT_FAMILY_IPV6)
		return (uint16_t)(l2 + IPV6_HLEN + EXT6_LEN * c->n_ext6 +
				  __l4_len(c->l4));
	return (uint16_t)(l2 + 20 + __l4_len(c->l4));
}

/* The sum of the pseudo header and len bytes from l4, with the checksum
 * field already zero: the value to store (never 0 for UDP: 0xffff). */
static uint16_t
__csum6(const uint8_t *src, const uint8_t *dst, uint8_t proto, const uint8_t *l4,
	uint32_t len)
{
	uint8_t ph[40] = { 0 };
	uint32_t sum;
	uint16_t c;

	memcpy(ph, src, 16);
	memcpy(ph + 16, dst, 16);
	ph[34] = (uint8_t)(len >> 8);
	ph[35] = (uint8_t)len;
	ph[39] = proto;
	sum = (uint32_t)rte_raw_cksum(ph, sizeof(ph)) + rte_raw_cksum(l4, len);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	c = (uint16_t)~sum;
	return c == 0 && proto == IPPROTO_UDP ? 0xffff : c;
}

/* The upper layer at l4 (len bytes, zeroed) for ports sport, dport and
 * flow i; its checksum field left at zero. Returns the IP protocol. */
static uint8_t
__put_l4(uint8_t l4kind, bool v6, uint8_t *l4, uint32_t len, uint16_t sport,
	 uint16_t dport, uint32_t i)
{
	switch (l4kind) {
	case PKT_L4_TCP:
		l4[0] = (uint8_t)(sport >> 8);
		l4[1] = (uint8_t)sport;
		l4[2] = (uint8_t)(dport >> 8);
		l4[3] = (uint8_t)dport;
		l4[4] = (uint8_t)(i >> 24); /* sequence number */
		l4[5] = (uint8_t)(i >> 16);
		l4[6] = (uint8_t)(i >> 8);
		l4[7] = (uint8_t)i;
		l4[12] = 5 << 4; /* data offset */
		l4[13] = 0x02;	 /* SYN */
		l4[14] = 0x04;	 /* window 1024 */
		return IPPROTO_TCP;
	case PKT_L4_ICMP:
		l4[0] = v6 ? 128 : 8;	       /* echo request */
		l4[4] = (uint8_t)(sport >> 8); /* identifier */
		l4[5] = (uint8_t)sport;
		l4[6] = (uint8_t)(i >> 8); /* sequence */
		l4[7] = (uint8_t)i;
		return v6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP;
	default:
		l4[0] = (uint8_t)(sport >> 8);
		l4[1] = (uint8_t)sport;
		l4[2] = (uint8_t)(dport >> 8);
		l4[3] = (uint8_t)dport;
		l4[4] = (uint8_t)(len >> 8);
		l4[5] = (uint8_t)len;
		return IPPROTO_UDP;
	}
}

/* The offset of the checksum field in the upper layer of protocol proto. */
static uint32_t
__csum_off(uint8_t proto)
{
	return proto == IPPROTO_TCP ? 16 : proto == IPPROTO_UDP ? 6 : 2;
}

static void
__add32(uint8_t *a, uint32_t n)
{
	uint32_t low = (uint32_t)a[12] << 24 | (uint32_t)a[13] << 16 |
		       (uint32_t)a[14] << 8 | a[15];

	low += n;
	a[12] = (uint8_t)(low >> 24);
	a[13] = (uint8_t)(low >> 16);
	a[14] = (uint8_t)(low >> 8);
	a[15] = (uint8_t)low;
}

static int
__build6(const struct pkt_flow_conf *c, uint32_t i, uint8_t *buf)
{
	uint16_t l2len = (uint16_t)(RTE_ETHER_HDR_LEN + 4 * c->n_tags);
	uint8_t *ip = buf + l2len, *h, *l4, src[16], dst[16], proto;
	uint64_t nsport = (uint64_t)c->sport_hi - c->sport_lo + 1;
	uint64_t ndport = (uint64_t)c->dport_hi - c->dport_lo + 1, r = i;
	uint32_t l3len = c->pkt_size - l2len, l4len, k;
	uint16_t sport, dport, sum;

	memcpy(src, c->src6, 16);
	__add32(src, (uint32_t)(r % c->src6_n));
	r /= c->src6_n;
	sport = (uint16_t)(c->sport_lo + r % nsport);
	r /= nsport;
	memcpy(dst, c->dst6, 16);
	__add32(dst, (uint32_t)(r % c->dst6_n));
	r /= c->dst6_n;
	dport = (uint16_t)(c->dport_lo + r % ndport);

	/* the ethertype after the tags pkt_build_udp wrote */
	buf[l2len - 2] = (uint8_t)(RTE_ETHER_TYPE_IPV6 >> 8);
	buf[l2len - 1] = (uint8_t)RTE_ETHER_TYPE_IPV6;
	memset(ip, 0, l3len);
	ip[0] = (uint8_t)(0x60 | c->tos >> 4); /* version, traffic class */
	ip[1] = (uint8_t)(c->tos << 4);
	ip[4] = (uint8_t)((l3len - IPV6_HLEN) >> 8);
	ip[5] = (uint8_t)(l3len - IPV6_HLEN);
	ip[7] = c->ttl; /* hop limit */
	memcpy(ip + 8, src, 16);
	memcpy(ip + 24, dst, 16);
	h = ip + 6; /* the byte naming the next header */
	l4 = ip + IPV6_HLEN;
	for (k = 0; k < c->n_ext6; k++, l4 += EXT6_LEN) {
		*h = c->ext6[k];
		h = l4;
		switch (c->ext6[k]) {
		case PKT_EXT6_HOP:
		case PKT_EXT6_DST:
			l4[2] = 1; /* PadN of 4 data bytes */
			l4[3] = 4;
			break;
		case PKT_EXT6_FRAG:
			l4[4] = (uint8_t)(i >> 24); /* identification */
			l4[5] = (uint8_t)(i >> 16);
			l4[6] = (uint8_t)(i >> 8);
			l4[7] = (uint8_t)i;
			break;
		default: /* routing: type 0, none left */
			break;
		}
	}
	l4len = (uint32_t)(ip + l3len - l4);
	proto = __put_l4(c->l4, true, l4, l4len, sport, dport, i);
	*h = proto;
	sum = __csum6(src, dst, proto, l4, l4len);
	memcpy(l4 + __csum_off(proto), &sum, sizeof(sum));
	return c->pkt_size;
}

/* pkt_build_udp()'s IPv4 frame, its upper layer replaced by a SYN or an
 * echo request. */
static void
__build4_l4(const struct pkt_flow_conf *c, uint32_t i, uint8_t *buf)
{
	uint16_t l2len = (uint16_t)(RTE_ETHER_HDR_LEN + 4 * c->n_tags);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(buf + l2len);
	uint8_t *l4 = (uint8_t *)(ip + 1);
	uint32_t l4len = c->pkt_size - l2len - (uint32_t)sizeof(*ip);
	uint16_t sport = (uint16_t)(l4[0] << 8 | l4[1]);
	uint16_t dport = (uint16_t)(l4[2] << 8 | l4[3]);
	uint16_t sum;

	memset(l4, 0, l4len);
	ip->next_proto_id = __put_l4(c->l4, false, l4, l4len, sport, dport, i);
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	if (c->l4 == PKT_L4_TCP)
		sum = rte_ipv4_udptcp_cksum(ip, l4);
	else
		sum = (uint16_t)~rte_raw_cksum(l4, l4len);
	memcpy(l4 + __csum_off(ip->next_proto_id), &sum, sizeof(sum));
}

int
pkt_build(const struct pkt_flow_conf *c, uint32_t i, uint8_t *buf, uint16_t buf_len)
{
	bool v6 = c->family == PKT_FAMILY_IPV6 ||
		  (c->family == PKT_FAMILY_MIXED && (i & 1));
	int rc;

	if (c->family >= PKT_FAMILY_MAX || c->l4 >= PKT_L4_MAX ||
	    c->n_ext6 > PKT_EXT6_MAX || c->n_tags > PKT_VLAN_DEPTH ||
	    buf_len < c->pkt_size ||
	    c->pkt_size < pkt_min_size(c, v6 ? PKT_FAMILY_IPV6 : PKT_FAMILY_IPV4) ||
	    (v6 && (c->src6_n == 0 || c->dst6_n == 0)))
		return -EINVAL;
	/* Ethernet, the tags and an IPv4 frame to start from */
	rc = pkt_build_udp(c, i, buf, buf_len);
	if (rc < 0)
		return rc;
	if (v6)
		return __build6(c, i, buf);
	if (c->l4 != PKT_L4_UDP)
		__build4_l4(c, i, buf);
	return rc;
}
