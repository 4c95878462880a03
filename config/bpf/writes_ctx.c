/* SPDX-License-Identifier: BSD-3-Clause */
/* A program pktpath refuses: it writes to its context, which is the frame
 * itself (it clears the destination MAC's group bit). rte_bpf's verifier
 * would accept it; pktpath's check names the store. Kept to test that
 * refusal. */
#include "pktpath_bpf.h"

SEC("classifier")
unsigned long long
writes_ctx(struct pktpath_skb *skb)
{
	if (skb->len < 14)
		return PKTPATH_NOMATCH;
	skb->data[0] &= 0xfe;
	return PKTPATH_PASS;
}
