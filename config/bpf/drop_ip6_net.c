/* SPDX-License-Identifier: BSD-3-Clause */
/* Drop IPv6 UDP from 2001:db8::/32, untagged or with one 802.1Q tag: UDP
 * right after the fixed header, or after one hop-by-hop, fragment or
 * destination-options header (whose next header is at byte 40, as
 * libpcap's "udp" reads it behind a fragment header). The same as the
 * tcpdump expression
 *   E or (vlan and E), E = ip6[8:4] == 0x20010db8 and (ip6[6] == 17 or
 *     ((ip6[6] == 0 or ip6[6] == 44 or ip6[6] == 60) and ip6[40] == 17))
 * which the bpf6 integration test holds it against, frame by frame. */
#include "pktpath_bpf.h"

static inline __attribute__((always_inline)) unsigned long long
udp_from_db8(const struct pktpath_skb *skb, const unsigned int L3)
{
	unsigned int nh;

	if (skb->len < L3 + 12 || PKTPATH_W(skb, L3 + 8) != 0x2001 ||
	    PKTPATH_W(skb, L3 + 10) != 0x0db8)
		return PKTPATH_NOMATCH;
	nh = PKTPATH_B(skb, L3 + 6);
	if (nh == 17)
		return PKTPATH_DROP;
	if ((nh == 0 || nh == 44 || nh == 60) && skb->len >= L3 + 41 &&
	    PKTPATH_B(skb, L3 + 40) == 17)
		return PKTPATH_DROP;
	return PKTPATH_NOMATCH;
}

SEC("classifier")
unsigned long long
drop_ip6_net(const struct pktpath_skb *skb)
{
	PKTPATH_DISPATCH_IPV6(skb, udp_from_db8);
}
