/* SPDX-License-Identifier: BSD-3-Clause */
/* Mark every IPv4 packet with its DSCP (the TOS byte's upper 6 bits) + 1,
 * so that DSCP 0 is marked 1: IngressMarked counts every IPv4 packet. */
#include "pktpath_bpf.h"

static inline __attribute__((always_inline)) unsigned long long
dscp(const struct pktpath_skb *skb, const unsigned int L3)
{
	if (skb->len < L3 + 20)
		return PKTPATH_NOMATCH;
	return PKTPATH_MARK((PKTPATH_B(skb, L3 + 1) >> 2) + 1);
}

SEC("classifier")
unsigned long long
mark_dscp(const struct pktpath_skb *skb)
{
	PKTPATH_DISPATCH_IPV4(skb, dscp);
}
