/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "rules" kind's naive reference (__ingress_rules_match_linear): the
 * frame parsed again, apart from the keys on purpose -- with the rte_*_hdr
 * structs and one rte_pktmbuf_read per header -- and the rules walked in
 * order. The unit tests hold rte_acl and the linear walk (rules.c) against
 * it; ingress_rules_view(INGRESS_RULES_VIEW_REFERENCE) runs it.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "ingress_pvt.h"

struct lin_pkt {
	uint8_t family; /* RULE_FAM_4/6 with a complete header,
					   else RULE_FAM_ANY */
	bool ports;
	int vlan; /* -1: untagged */
	uint8_t proto, dscp;
	uint32_t src, dst;	    /* IPv4, host order */
	uint8_t src6[16], dst6[16]; /* IPv6 */
	uint16_t sport, dport;
};

static void
lin_ports(const struct rte_mbuf *m, uint32_t off, struct lin_pkt *q)
{
	uint16_t l4b[2];
	const uint16_t *l4;

	if (q->proto != IPPROTO_UDP && q->proto != IPPROTO_TCP)
		return;
	l4 = rte_pktmbuf_read(m, off, sizeof(l4b), l4b);
	if (l4 == NULL)
		return;
	q->ports = true;
	q->sport = rte_be_to_cpu_16(l4[0]);
	q->dport = rte_be_to_cpu_16(l4[1]);
}

static void
lin_parse4(const struct rte_mbuf *m, uint32_t off, struct lin_pkt *q)
{
	struct rte_ipv4_hdr ihb;
	const struct rte_ipv4_hdr *ih;
	uint32_t ihl;

	ih = rte_pktmbuf_read(m, off, sizeof(*ih), &ihb);
	if (ih == NULL || (ih->version_ihl >> 4) != 4)
		return;
	ihl = rte_ipv4_hdr_len(ih);
	if (ihl < sizeof(*ih) || off + ihl > rte_pktmbuf_pkt_len(m))
		return;
	q->family = RULE_FAM_4;
	q->proto = ih->next_proto_id;
	q->dscp = ih->type_of_service >> 2;
	q->src = rte_be_to_cpu_32(ih->src_addr);
	q->dst = rte_be_to_cpu_32(ih->dst_addr);
	if (rte_be_to_cpu_16(ih->fragment_offset) &
	    (RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK))
		return;
	lin_ports(m, off + ihl, q);
}

static bool
lin_ext(uint8_t nh)
{
	return nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING || nh == IPPROTO_DSTOPTS ||
	       nh == IPPROTO_FRAGMENT;
}

static void
lin_parse6(const struct rte_mbuf *m, uint32_t off, struct lin_pkt *q)
{
	struct rte_ipv6_hdr ihb;
	const struct rte_ipv6_hdr *ih;
	struct { /* every extension header's start */
		uint8_t next_hdr, hdr_len, rest[6];
	} eb;
	const __typeof__(eb) *e;
	unsigned int n;

	ih = rte_pktmbuf_read(m, off, sizeof(*ih), &ihb);
	if (ih == NULL || (rte_be_to_cpu_32(ih->vtc_flow) >> 28) != 6)
		return;
	q->family = RULE_FAM_6;
	q->dscp = (uint8_t)(rte_be_to_cpu_32(ih->vtc_flow) >> 22 & 0x3f);
	memcpy(q->src6, ih->src_addr, 16);
	memcpy(q->dst6, ih->dst_addr, 16);
	q->proto = ih->proto;
	off += sizeof(*ih);
	/* each extension header complete in the frame, at most KEY6_EXT_MAX:
	 * where the walk stops, proto is the type of the header it stopped at */
	for (n = 0; lin_ext(q->proto); n++) {
		if (n == KEY6_EXT_MAX)
			return;
		e = rte_pktmbuf_read(m, off, sizeof(*e), &eb);
		if (e == NULL)
			return;
		if (q->proto == IPPROTO_FRAGMENT) { /* 8 bytes, no ports */
			q->proto = e->next_hdr;
			return;
		}
		if (off + (e->hdr_len + 1u) * 8 > rte_pktmbuf_pkt_len(m))
			return;
		q->proto = e->next_hdr;
		off += (e->hdr_len + 1u) * 8;
	}
	lin_ports(m, off, q);
}

static void
lin_parse(const struct rte_mbuf *m, struct lin_pkt *q)
{
	struct rte_ether_hdr ehb;
	struct rte_vlan_hdr vhb;
	const struct rte_ether_hdr *eh;
	const struct rte_vlan_hdr *vh;
	uint32_t off = sizeof(*eh);
	uint16_t et;

	memset(q, 0, sizeof(*q));
	q->vlan = -1;
	eh = rte_pktmbuf_read(m, 0, sizeof(*eh), &ehb);
	if (eh == NULL)
		return;
	et = rte_be_to_cpu_16(eh->ether_type);
	if (et == RTE_ETHER_TYPE_VLAN) {
		vh = rte_pktmbuf_read(m, off, sizeof(*vh), &vhb);
		if (vh == NULL)
			return;
		q->vlan = rte_be_to_cpu_16(vh->vlan_tci) & 0xfff;
		et = rte_be_to_cpu_16(vh->eth_proto);
		off += sizeof(*vh);
	}
	if (et == RTE_ETHER_TYPE_IPV4)
		lin_parse4(m, off, q);
	else if (et == RTE_ETHER_TYPE_IPV6)
		lin_parse6(m, off, q);
}

static bool
prefix_match(uint32_t a, uint32_t net, uint8_t len)
{
	return len == 0 || ((a ^ net) >> (32 - len)) == 0;
}

static bool
prefix6_match(const uint8_t *a, const uint8_t *net, uint8_t len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		if (((a[i / 8] ^ net[i / 8]) >> (7 - i % 8)) & 1)
			return false;
	return true;
}

static bool
lin_match(const struct ingress_rule *r, const struct lin_pkt *q)
{
	if (r->keys & RULE_K_VLAN) {
		if (r->vlan == RULE_VLAN_NONE ? q->vlan != -1 : q->vlan != r->vlan)
			return false;
	}
	if ((r->keys & RULE_K_IP) && q->family == RULE_FAM_ANY)
		return false;
	if (r->family != RULE_FAM_ANY && r->family != q->family)
		return false;
	if ((r->keys & RULE_K_PORTS) && !q->ports)
		return false;
	if ((r->keys & RULE_K_PROTO) && q->proto != r->proto)
		return false;
	if (r->family == RULE_FAM_4) {
		if ((r->keys & RULE_K_SRC) && !prefix_match(q->src, r->src, r->src_len))
			return false;
		if ((r->keys & RULE_K_DST) && !prefix_match(q->dst, r->dst, r->dst_len))
			return false;
	} else if (r->family == RULE_FAM_6) {
		if ((r->keys & RULE_K_SRC) &&
		    !prefix6_match(q->src6, r->src6, r->src_len))
			return false;
		if ((r->keys & RULE_K_DST) &&
		    !prefix6_match(q->dst6, r->dst6, r->dst_len))
			return false;
	}
	if ((r->keys & RULE_K_DSCP) && q->dscp != r->dscp)
		return false;
	if ((r->keys & RULE_K_SPORT) &&
	    (q->sport < r->sport_lo || q->sport > r->sport_hi))
		return false;
	if ((r->keys & RULE_K_DPORT) &&
	    (q->dport < r->dport_lo || q->dport > r->dport_hi))
		return false;
	return true;
}

void
__ingress_rules_match_linear(const struct ingress_ruleset *rs, const struct rte_mbuf *m,
			     struct ingress_result *o)
{
	struct lin_pkt q;
	uint32_t i;

	lin_parse(m, &q);
	memset(o, 0, sizeof(*o));
	o->action = rs->default_drop ? INGRESS_ACT_DROP : INGRESS_ACT_PASS;
	for (i = 0; i < rs->n; i++) {
		const struct ingress_rule *r = &rs->rules[i];

		if (!lin_match(r, &q))
			continue;
		o->matched = 1;
		if (r->action == RULE_COUNT)
			continue;
		o->action = r->action == RULE_DROP ? INGRESS_ACT_DROP : INGRESS_ACT_PASS;
		o->marked = r->action == RULE_MARK;
		o->mark = r->action == RULE_MARK ? r->mark : 0;
		o->rule = r->line;
		return;
	}
}
