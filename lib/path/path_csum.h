/* SPDX-License-Identifier: BSD-3-Clause */
/* struct path_conf first, outside the guard: path.h includes the inline
 * stages (path_inline.h), which include this header and need its
 * functions defined whichever of path.h and this header comes first. */
#include "path.h"

#ifndef PKTPATH_PATH_CSUM_H
#define PKTPATH_PATH_CSUM_H

/**
 * @file
 * When the receive path verifies a checksum in software, as Linux decides
 * it (include/linux/skbuff.h, "Checksumming of received packets";
 * __skb_checksum_validate_needed, skb_csum_unnecessary, udp4_csum_init).
 *
 * A Linux driver hands each skb up with ip_summed:
 *   CHECKSUM_UNNECESSARY  the device verified the L4 checksum: not verified
 *                         again (skb_csum_unnecessary() is true);
 *   CHECKSUM_NONE         no information, or the device found it bad:
 *                         verified in software, a bad one counted
 *                         (InCsumErrors) by the protocol;
 *   CHECKSUM_COMPLETE     the device summed the packet: the protocol checks
 *                         that sum (DPDK 22.11 has no such flag);
 *   CHECKSUM_PARTIAL      local traffic (veth, loopback, a tap with offloads)
 *                         whose checksum the sender left to a device: the
 *                         field holds the pseudo-header sum, the data is
 *                         intact; skb_csum_unnecessary() is true.
 * Linux verifies the IPv4 header checksum in ip_rcv_core always.
 *
 * pktpath, from the mbuf (path_conf.csum_hw set by --rx-csum hw, or auto on
 * a port that offloads):
 *   RTE_MBUF_F_RX_L4_CKSUM_GOOD     CHECKSUM_UNNECESSARY: trusted
 *   RTE_MBUF_F_RX_L4_CKSUM_NONE     ("integrity verified, the field is not
 *                                   correct"): CHECKSUM_PARTIAL: trusted
 *   RTE_MBUF_F_RX_L4_CKSUM_BAD      CHECKSUM_NONE: verified in software, as
 *                                   Linux verifies what a driver found bad
 *   RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN  CHECKSUM_NONE: verified in software
 *   RTE_MBUF_F_RX_IP_CKSUM_GOOD/NONE  the header checksum is not summed again
 *                                   (the offload's saving; a header the
 *                                   device verified counts the same);
 *                                   BAD/UNKNOWN: verified in software.
 * With csum_hw 0 (--rx-csum sw) every flag is ignored and everything is
 * verified in software.
 *
 * path_conf.csum_partial: a PMD that reads frames from the kernel and drops
 * their checksum state (net_af_packet in DPDK 22.11 does not pass on
 * TP_STATUS_CSUMNOTREADY) hands CHECKSUM_PARTIAL frames over with their
 * partial field. Such a frame is recognised by its value: a TCP or UDP
 * checksum that fails verification but equals the folded pseudo-header sum
 * (what udp4_hwcsum and __tcp_v4_send_check write) is counted as Linux
 * counts CHECKSUM_PARTIAL: valid. Any other wrong value is an error, so a
 * corrupted or forged frame still counts InCsumErrors unless its field
 * happens to be that one value (1 in 65536 for a random corruption).
 *
 * Thread-safety: pure functions of the conf (read-only) and the mbuf.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

/** The device verified the IPv4 header checksum and --rx-csum hw trusts it. */
static inline bool
path_csum_ip_trusted(const struct path_conf *c, const struct rte_mbuf *m)
{
	uint64_t f = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;

	return c->csum_hw && (f == RTE_MBUF_F_RX_IP_CKSUM_GOOD ||
			      f == RTE_MBUF_F_RX_IP_CKSUM_NONE);
}

/** The L4 (TCP, UDP, ICMP) checksum need not be verified in software:
 *  CHECKSUM_UNNECESSARY or CHECKSUM_PARTIAL by the mbuf's flags. */
static inline bool
path_csum_l4_trusted(const struct path_conf *c, const struct rte_mbuf *m)
{
	uint64_t f = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;

	return c->csum_hw && (f == RTE_MBUF_F_RX_L4_CKSUM_GOOD ||
			      f == RTE_MBUF_F_RX_L4_CKSUM_NONE);
}

/**
 * The one's complement sum of an IPv4 header of hl bytes (hl a multiple of
 * 4, 20..60), folded as rte_raw_cksum() folds it and equal to it: 0xffff
 * when the header checksum is right (ip_fast_csum() == 0 in Linux). Sums
 * 32-bit words into 64 bits, as Linux's ip_fast_csum does, where
 * rte_raw_cksum() adds one 16-bit word at a time: the end-around carry
 * makes the folded sum the same whatever the word size.
 */
/* The 32-bit word at p, at any alignment: one load. */
static __rte_always_inline uint64_t
__path_csum_word(const uint8_t *p)
{
	uint32_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* Without options each word is loaded into the register it is added
 * from: a memcpy of the whole header into a uint32_t[5] went through the
 * stack (a 16-byte copy, a store, five reloads: 3 instructions a packet
 * more, callgrind). */
static inline uint16_t
path_csum_ip_hdr(const void *iph, uint32_t hl)
{
	const uint8_t *p = iph;
	uint64_t sum = 0;
	uint32_t i;

	if (likely(hl == 20)) {		/* no options: unrolled */
		sum = __path_csum_word(p) + __path_csum_word(p + 4) +
		      __path_csum_word(p + 8) + __path_csum_word(p + 12) +
		      __path_csum_word(p + 16);
	} else {
		for (i = 0; i < hl; i += 4)
			sum += __path_csum_word(p + i);
	}
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/**
 * With c->csum_partial: the 16-bit checksum field at field_off of m holds
 * the folded pseudo-header sum of (saddr, daddr, proto, len), i.e. a
 * CHECKSUM_PARTIAL frame (see above). Addresses in host order; len is the
 * L4 length of the pseudo header. Call only after a failed verification.
 */
static inline bool
path_csum_partial(const struct path_conf *c, const struct rte_mbuf *m,
		  uint32_t field_off, uint32_t saddr, uint32_t daddr,
		  uint8_t proto, uint32_t len)
{
	/* The pseudo header in wire order, summed as rte_raw_cksum sums the
	 * field, so both are in the same byte order. */
	const uint8_t ph[12] = {
		(uint8_t)(saddr >> 24), (uint8_t)(saddr >> 16),
		(uint8_t)(saddr >> 8), (uint8_t)saddr,
		(uint8_t)(daddr >> 24), (uint8_t)(daddr >> 16),
		(uint8_t)(daddr >> 8), (uint8_t)daddr,
		0, proto, (uint8_t)(len >> 8), (uint8_t)len,
	};
	uint8_t b[2];
	const uint8_t *p;
	uint16_t field;

	if (!c->csum_partial)
		return false;
	p = rte_pktmbuf_read(m, field_off, 2, b);
	if (p == NULL)
		return false;
	memcpy(&field, p, sizeof(field));
	return field == rte_raw_cksum(ph, sizeof(ph));
}

/**
 * Add len bytes at buf to sum as 32-bit words, in memory order, with the
 * trailing 16-bit word and odd byte as rte_raw_cksum() adds them (the odd
 * byte in the first byte of a zeroed word); unfolded. Linux's csum_partial
 * adds 64 bits at a time with the carry; rte_raw_cksum() one 16-bit word,
 * ~3.5 instructions for every 2 bytes (a UDP checksum over a 64-byte
 * frame was 40 % of the IPv6 path). Folding gives the same value whatever
 * the word size: 2^16 = 1 modulo 0xffff. At most 2^32 words before the
 * 64-bit sum could carry out, far beyond a 64 KiB datagram.
 */
static inline uint64_t
path_csum_add(const void *buf, uint32_t len, uint64_t sum)
{
	const uint8_t *p = buf;
	uint32_t w[4];
	uint16_t h = 0;

	for (; len >= 16; len -= 16, p += 16) {
		memcpy(w, p, sizeof(w));
		sum += (uint64_t)w[0] + w[1] + w[2] + w[3];
	}
	for (; len >= 4; len -= 4, p += 4) {
		memcpy(w, p, sizeof(w[0]));
		sum += w[0];
	}
	if (len >= 2) {
		memcpy(&h, p, sizeof(h));
		sum += h;
		p += 2;
		len -= 2;
	}
	if (len != 0) {
		h = 0;
		memcpy(&h, p, 1);
		sum += h;
	}
	return sum;
}

/* The 64-bit word at p, at any alignment: one load. */
static __rte_always_inline uint64_t
__path_csum_word64(const uint8_t *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* s + w with the carry out added back in (add, adc): a sum of 64-bit words
 * that folds to the one's complement sum of their 16-bit words, 2^64 being
 * 1 modulo 0xffff; never 0 once a non-zero word is in it. */
static __rte_always_inline uint64_t
__path_csum_adc64(uint64_t s, uint64_t w)
{
	s += w;
	return s + (s < w);
}

/* s plus the len bytes at p, in 64-bit words with the carry (IPv6's
 * fast path, path6.c): 32 a step as four 64-bit words with the
 * carry (path_csum_add() adds 32-bit words: about twice the instructions
 * over a 1500-byte datagram), then 8 at a time, the tail as
 * path_csum_add() adds it. p is at an even offset of the sum's first
 * byte, so each 16-bit word keeps its lane. */
static __rte_always_inline uint64_t
path_csum_add64(uint64_t s, const uint8_t *p, uint32_t len)
{
	for (; len >= 32; len -= 32, p += 32) {
		s = __path_csum_adc64(s, __path_csum_word64(p));
		s = __path_csum_adc64(s, __path_csum_word64(p + 8));
		s = __path_csum_adc64(s, __path_csum_word64(p + 16));
		s = __path_csum_adc64(s, __path_csum_word64(p + 24));
	}
	for (; len >= 8; len -= 8, p += 8)
		s = __path_csum_adc64(s, __path_csum_word64(p));
	if (len != 0)
		s = __path_csum_adc64(s, path_csum_add(p, len, 0));
	return s;
}

/**
 * A path_csum_add() sum folded to 16 bits with the end-around carry, as
 * rte_raw_cksum() folds its own: 0 only for a sum of 0, 0xffff for a
 * right checksum.
 */
static inline uint16_t
path_csum_fold(uint64_t sum)
{
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* path_csum_sum_mbuf() of a chain whose bytes do not all sit in the first
 * segment: out of line, to keep the one-segment case small where it is
 * inlined (the receive loops). */
static __rte_noinline int
__path_csum_sum_chain(const struct rte_mbuf *m, uint32_t off, uint32_t len, uint64_t init,
		      uint16_t *sum)
{
	const struct rte_mbuf *seg = m;
	uint64_t acc = init;
	uint32_t done = 0;

	while (seg != NULL && off >= rte_pktmbuf_data_len(seg)) {
		off -= rte_pktmbuf_data_len(seg);
		seg = seg->next;
	}
	while (seg != NULL && done < len) {
		uint32_t n =
			RTE_MIN((uint32_t)rte_pktmbuf_data_len(seg) - off, len - done);
		uint16_t part = path_csum_fold(path_csum_add(
			rte_pktmbuf_mtod_offset(seg, const void *, off), n, 0));

		/* A chunk that starts at an odd offset has its bytes in the
		 * other half of each word. */
		if (done & 1)
			part = rte_bswap16(part);
		acc += part;
		done += n;
		off = 0;
		seg = seg->next;
	}
	if (done < len)
		return -1;
	*sum = path_csum_fold(acc);
	return 0;
}

/**
 * The one's complement sum (folded, not complemented, as rte_raw_cksum())
 * of init (a path_csum_add() sum: a pseudo header) and len bytes of m from
 * off, across segments. DPDK 22.11's rte_raw_cksum_mbuf() truncates a
 * segment's 32-bit sum to 16 bits before byte-swapping the segments that
 * start at an odd offset, which loses the carries: a right checksum over
 * such a chain reads as wrong. Here each segment's sum is folded first.
 * @return 0 and *sum, or -1 if off + len is beyond the packet.
 */
static inline int
path_csum_sum_mbuf(const struct rte_mbuf *m, uint32_t off, uint32_t len, uint64_t init,
		   uint16_t *sum)
{
	if (off + len > rte_pktmbuf_pkt_len(m) || off + len < off)
		return -1;
	if (unlikely(off + len > rte_pktmbuf_data_len(m)))
		return __path_csum_sum_chain(m, off, len, init, sum);
	*sum = path_csum_fold(
		path_csum_add(rte_pktmbuf_mtod_offset(m, const void *, off), len, init));
	return 0;
}

/**
 * The one's complement sum (folded, not complemented, as rte_raw_cksum())
 * of len bytes of m from off, across segments. DPDK 22.11's
 * rte_raw_cksum_mbuf() truncates a segment's 32-bit sum to 16 bits before
 * byte-swapping the segments that start at an odd offset, which loses the
 * carries: a right checksum over such a chain reads as wrong. Here each
 * segment's sum is folded first. IPv4's (the same sum as
 * path_csum_sum_mbuf(), 16-bit words as rte_raw_cksum() adds them: the
 * IPv4 receive loop's instructions move with any change of its inlined
 * code).
 * @return 0 and *sum, or -1 if off + len is beyond the packet.
 */
static inline int
path_csum_raw_mbuf(const struct rte_mbuf *m, uint32_t off, uint32_t len,
		   uint16_t *sum)
{
	const struct rte_mbuf *seg = m;
	uint32_t acc = 0, done = 0;

	if (off + len > rte_pktmbuf_pkt_len(m) || off + len < off)
		return -1;
	if (off + len <= rte_pktmbuf_data_len(m)) {
		*sum = rte_raw_cksum(rte_pktmbuf_mtod_offset(m, const char *, off),
				     len);
		return 0;
	}
	while (seg != NULL && off >= rte_pktmbuf_data_len(seg)) {
		off -= rte_pktmbuf_data_len(seg);
		seg = seg->next;
	}
	while (seg != NULL && done < len) {
		uint32_t n = RTE_MIN((uint32_t)rte_pktmbuf_data_len(seg) - off,
				     len - done);
		uint16_t part = __rte_raw_cksum_reduce(__rte_raw_cksum(
			rte_pktmbuf_mtod_offset(seg, const char *, off), n, 0));

		/* A chunk that starts at an odd offset has its bytes in the
		 * other half of each word. */
		if (done & 1)
			part = rte_bswap16(part);
		acc += part;
		done += n;
		off = 0;
		seg = seg->next;
	}
	if (done < len)
		return -1;
	*sum = __rte_raw_cksum_reduce(acc);
	return 0;
}

/**
 * The IPv6 pseudo header's sum (RFC 8200 8.1: addresses as on the wire,
 * the 32-bit upper-layer length, three zero bytes and the next header).
 */
static inline uint64_t
path_csum_pseudo6(const uint8_t saddr[16], const uint8_t daddr[16], uint8_t proto,
		  uint32_t len)
{
	return path_csum_add(daddr, 16, path_csum_add(saddr, 16, 0)) +
	       rte_cpu_to_be_32(len) + rte_cpu_to_be_32(proto);
}

#endif /* PKTPATH_PATH_CSUM_H */
