/* SPDX-License-Identifier: BSD-3-Clause */
/* A loop-free program rte_bpf's verifier cannot verify in any reasonable
 * time: 30 independent tests, each adding its own constant, so that no two
 * of the 2^30 paths end in the same state and the verifier's pruning never
 * applies (DPDK 22.11 walks every path: hours). pktpath stops the load at
 * --bpf-load-timeout, or at SIGINT/SIGTERM. Kept to test those. */
#include "pktpath_bpf.h"

#define T(i) if (skb->data[i] == 0x5a) x += 0x9e3779b1ull * ((i) + 1);

SEC("classifier")
unsigned long long
branchy(const struct pktpath_skb *skb)
{
	unsigned long long x = 0;

	if (skb->len < 64)
		return PKTPATH_NOMATCH;
	T(0) T(1) T(2) T(3) T(4) T(5) T(6) T(7) T(8) T(9)
	T(10) T(11) T(12) T(13) T(14) T(15) T(16) T(17) T(18) T(19)
	T(20) T(21) T(22) T(23) T(24) T(25) T(26) T(27) T(28) T(29)
	return PKTPATH_MARK(x);
}
