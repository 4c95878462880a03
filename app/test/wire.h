/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_WIRE_H
#define PKTPATH_TEST_WIRE_H

/*
 * Bytes on the wire, for the tests and tools that build or read frames by
 * hand (test_path.c, test_csum.c, test_pkt.c, mkpcap.c): big-endian stores
 * and loads, and the Internet checksum (RFC 1071) the plain way, byte by
 * byte: the reference the libraries' own checksums are checked against, so
 * it uses none of them (nor DPDK's rte_raw_cksum()).
 */

#include <stddef.h>
#include <stdint.h>

/* v's low 16 (32) bits at p, most significant byte first. */
static inline void
wire_put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
wire_put32(uint8_t *p, uint32_t v)
{
	wire_put16(p, v >> 16);
	wire_put16(p + 2, v);
}

static inline uint16_t
wire_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
wire_get32(const uint8_t *p)
{
	return (uint32_t)wire_get16(p) << 16 | wire_get16(p + 2);
}

/* s plus the n bytes at p as big-endian 16-bit words (an odd last byte is
 * the high byte of a word), not folded. */
static inline uint32_t
wire_sum(const uint8_t *p, size_t n, uint32_t s)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

/* s folded to 16 bits with end-around carries: 0xffff over data that
 * holds its own right checksum. */
static inline uint16_t
wire_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* The checksum field for a sum s: the complement of its fold. */
static inline uint16_t
wire_csum(uint32_t s)
{
	return (uint16_t)~wire_fold(s);
}

#endif /* PKTPATH_TEST_WIRE_H */
