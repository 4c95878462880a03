/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The context and return codes of pktpath's eBPF ingress classifiers
 * (--ingress-kind bpf). Built with: clang -O2 -target bpf -mcpu=v2 -c
 * Compiler built-in types only, so no host header is needed.
 *
 * r1 points to struct pktpath_skb: the frame's length, then the frame
 * itself (raw Ethernet, as tc ingress sees it). Bytes past len up to
 * PKTPATH_BPF_MAX_DATA are readable but meaningless: check len first. The
 * program is run by DPDK's rte_bpf (interpreter or x86-64 JIT): no maps, no
 * helper calls, no tail calls, no writes to the context.
 *
 * Return (cls_bpf direct-action style):
 *   PKTPATH_PASS (0, TC_ACT_OK)      matched, pass
 *   PKTPATH_DROP (2, TC_ACT_SHOT)    matched, drop (never reaches ip_rcv)
 *   PKTPATH_NOMATCH (-1, TC_ACT_UNSPEC)  not matched: the default (pass)
 *   PKTPATH_MARK(m)                  matched, pass with mbuf mark m
 */
#ifndef PKTPATH_BPF_H
#define PKTPATH_BPF_H

#define PKTPATH_BPF_MAX_DATA 2048

struct pktpath_skb {
	unsigned int len;
	unsigned int reserved;
	unsigned char data[PKTPATH_BPF_MAX_DATA];
};

#define PKTPATH_PASS 0ULL
#define PKTPATH_DROP 2ULL
#define PKTPATH_NOMATCH (~0ULL)
#define PKTPATH_MARK(m) ((1ULL << 32) | (unsigned long long)(unsigned int)(m))

#define SEC(name) __attribute__((section(name), used))

/*
 * rte_bpf's verifier (DPDK 22.11) follows "pointer += scalar" but refuses
 * "scalar += pointer", which clang emits for skb->data[variable]. So every
 * packet access here is at a constant offset: the helpers below take the
 * L3 offset as a compile-time constant and the callers instantiate them for
 * an untagged (14) and a single-tagged (18) frame.
 */
#define PKTPATH_B(skb, off) ((unsigned int)(skb)->data[(off)])
#define PKTPATH_W(skb, off) (PKTPATH_B(skb, off) << 8 | PKTPATH_B(skb, (off) + 1))

/* 0x8100 if one 802.1Q tag, else the ethertype; 0 if too short. */
static inline __attribute__((always_inline)) unsigned int
pktpath_outer_type(const struct pktpath_skb *skb)
{
	if (skb->len < 14)
		return 0;
	return PKTPATH_W(skb, 12);
}

/* Call F(skb, 14) for untagged IPv4, F(skb, 18) for 802.1Q-tagged IPv4;
 * NOMATCH otherwise. */
#define PKTPATH_DISPATCH_IPV4(skb, F)					\
	do {								\
		unsigned int __t = pktpath_outer_type(skb);		\
		if (__t == 0x0800)					\
			return F(skb, 14);				\
		if (__t == 0x8100 && (skb)->len >= 18 &&		\
		    PKTPATH_W(skb, 16) == 0x0800)			\
			return F(skb, 18);				\
		return PKTPATH_NOMATCH;					\
	} while (0)

/* The same for IPv6 (ethertype 0x86dd): F(skb, 14) or F(skb, 18). */
#define PKTPATH_DISPATCH_IPV6(skb, F)					\
	do {								\
		unsigned int __t = pktpath_outer_type(skb);		\
		if (__t == 0x86dd)					\
			return F(skb, 14);				\
		if (__t == 0x8100 && (skb)->len >= 18 &&		\
		    PKTPATH_W(skb, 16) == 0x86dd)			\
			return F(skb, 18);				\
		return PKTPATH_NOMATCH;					\
	} while (0)

#endif
