/* SPDX-License-Identifier: BSD-3-Clause */
/* A program rte_bpf cannot run: it calls a kernel helper
 * (bpf_get_prandom_u32, helper #7). pktpath refuses it with a clear line;
 * kept to test that message. */
#include "pktpath_bpf.h"

static unsigned long long (*bpf_get_prandom_u32)(void) = (void *)7;

SEC("classifier")
unsigned long long
uses_helper(const struct pktpath_skb *skb)
{
	(void)skb;
	return bpf_get_prandom_u32() & 1 ? PKTPATH_DROP : PKTPATH_PASS;
}
