/* SPDX-License-Identifier: BSD-3-Clause */
/* Drop IPv4 UDP to destination port 9 (the generator's default traffic),
 * untagged or with one 802.1Q tag: the same policy as
 * config/rules/drop-udp-9.rules, including its tc-flower treatment of
 * fragments (no ports for any fragment, the first one included), and as the
 * pcap-filter "(udp dst port 9 or (vlan and udp dst port 9)) and not
 * ip[6:2] & 0x3fff != 0"-style expression the bpf integration test uses. */
#include "pktpath_bpf.h"

#define PORT 9

/* The UDP destination port at a constant offset for each IHL. */
#define IHL_CASE(k)							\
	case k:								\
		if (skb->len < L3 + (k) * 4 + 4)			\
			return PKTPATH_NOMATCH;				\
		port = PKTPATH_W(skb, L3 + (k) * 4 + 2);		\
		break

static inline __attribute__((always_inline)) unsigned long long
udp_port(const struct pktpath_skb *skb, const unsigned int L3)
{
	unsigned int port;

	if (skb->len < L3 + 20 || PKTPATH_B(skb, L3 + 9) != 17)
		return PKTPATH_NOMATCH;
	/* tc flower: no ports for a fragment, the first one (MF) included. */
	if ((PKTPATH_B(skb, L3 + 6) & 0x3f) != 0 || PKTPATH_B(skb, L3 + 7) != 0)
		return PKTPATH_NOMATCH;
	switch (PKTPATH_B(skb, L3) & 0xf) {
	IHL_CASE(5); IHL_CASE(6); IHL_CASE(7); IHL_CASE(8); IHL_CASE(9);
	IHL_CASE(10); IHL_CASE(11); IHL_CASE(12); IHL_CASE(13); IHL_CASE(14);
	IHL_CASE(15);
	default:
		return PKTPATH_NOMATCH;
	}
	return port == PORT ? PKTPATH_DROP : PKTPATH_NOMATCH;
}

SEC("classifier")
unsigned long long
drop_udp_port(const struct pktpath_skb *skb)
{
	PKTPATH_DISPATCH_IPV4(skb, udp_port);
}
