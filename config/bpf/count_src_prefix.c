/* SPDX-License-Identifier: BSD-3-Clause */
/* Count (match and pass) IPv4 packets from 198.18.0.0/24, the generator's
 * default sources: IngressMatched counts them, nothing is dropped. (rte_bpf
 * has no maps, so the count is pktpath's IngressMatched counter.) */
#include "pktpath_bpf.h"

static inline __attribute__((always_inline)) unsigned long long
src24(const struct pktpath_skb *skb, const unsigned int L3)
{
	if (skb->len < L3 + 20)
		return PKTPATH_NOMATCH;
	if (PKTPATH_B(skb, L3 + 12) == 198 && PKTPATH_B(skb, L3 + 13) == 18 &&
	    PKTPATH_B(skb, L3 + 14) == 0)
		return PKTPATH_PASS;
	return PKTPATH_NOMATCH;
}

SEC("classifier")
unsigned long long
count_src_prefix(const struct pktpath_skb *skb)
{
	PKTPATH_DISPATCH_IPV4(skb, src24);
}
