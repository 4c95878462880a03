/* SPDX-License-Identifier: BSD-3-Clause */
/* Drop frames sent to a group address (the destination MAC's first byte
 * has bit 0 set: "ether multicast"), with a hand-encoded "jset r2, 1", a
 * form clang does not emit but DPDK 22.11's x86 JIT encodes wrongly (fault
 * B in the README): run unchanged, it crashes. pktpath rewrites it with a
 * free register before JIT-compiling. */
#include "pktpath_bpf.h"

SEC("classifier")
__attribute__((naked)) unsigned long long
jset_small(const struct pktpath_skb *skb)
{
	asm volatile(
		"r0 = -1\n"
		"r2 = *(u32 *)(r1 + 0)\n"
		"if r2 < 14 goto +4\n"
		"r2 = *(u8 *)(r1 + 8)\n"
		".quad 0x0000000100010245\n"	/* jset r2, 1, +1 */
		"exit\n"
		"r0 = 2\n"
		"exit\n");
}
