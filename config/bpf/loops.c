/* SPDX-License-Identifier: BSD-3-Clause */
/* A program pktpath refuses: a loop (the sum of the first 8 bytes, not
 * unrolled). rte_bpf runs loop-free programs only; pktpath names the jump
 * that closes the loop. Kept to test that refusal. */
#include "pktpath_bpf.h"

SEC("classifier")
unsigned long long
loops(const struct pktpath_skb *skb)
{
	unsigned long long sum = 0;
	unsigned int i;

#pragma clang loop unroll(disable)
	for (i = 0; i < 8 && i < skb->len; i++)
		sum += skb->len >> i;
	return sum == 0x5a ? PKTPATH_DROP : PKTPATH_NOMATCH;
}
