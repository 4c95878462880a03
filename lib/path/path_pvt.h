/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_PATH_PVT_H
#define PKTPATH_PATH_PVT_H

/*
 * Internal to lib/path: what path.c (L2, ip_rcv, route, options) and
 * path_l4.c (the protocol handlers and the ICMP error handlers) share.
 * Not for other modules.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "mib.h"
#include "path.h"

#define PATH_IPPROTO_PIM	103
#define PATH_IPPROTO_UDPLITE	136

/* Route types, as rtable->rt_type. */
enum rt_type { RT_LOCAL, RT_BROADCAST, RT_MULTICAST, RT_UNREACHABLE };

/* What the L4 handlers need of the IP layer. */
struct path_l4_ctx {
	uint32_t off;		/* L4 header offset in the mbuf */
	uint32_t len;		/* L4 length after ip_rcv's trim to tot_len */
	uint32_t saddr, daddr;	/* host order */
	enum rt_type rt;
	uint8_t pkt_type;	/* enum path_pkt_type */
};

static inline unsigned int
__path_drop(struct mib_block *mib, unsigned int f)
{
	mib_inc(mib, f);
	return f;
}

static inline bool
__path_port_open(const uint64_t *bitmap, uint16_t port)
{
	return (bitmap[port / 64] >> (port % 64)) & 1;
}

/*
 * The L4 checksum of len bytes at off with the pseudo header (pseudo_len is
 * the length the pseudo header carries: UDP-Lite covers fewer bytes than
 * it declares). True when right, when the PMD verified it and --rx-csum hw
 * trusts that (CHECKSUM_UNNECESSARY), or when the field at off + field
 * holds a partial checksum the sender's kernel left to the device
 * (path_csum.h). The one place TCP and UDP checksums are decided.
 */
bool __path_l4_csum_ok(const struct path_conf *c, const struct rte_mbuf *m,
		       uint32_t off, uint32_t len, uint32_t pseudo_len,
		       uint32_t saddr, uint32_t daddr, uint8_t proto,
		       uint32_t field);

/* The handlers of ip_protocol_deliver_rcu; each returns its terminal. */
unsigned int __path_udp_rcv(const struct path_conf *c, const struct rte_mbuf *m,
			    const struct path_l4_ctx *x, uint8_t proto,
			    struct mib_block *mib);
unsigned int __path_tcp_rcv(const struct path_conf *c, const struct rte_mbuf *m,
			    const struct path_l4_ctx *x,
			    struct mib_block *mib);
unsigned int __path_icmp_rcv(const struct path_conf *c, const struct rte_mbuf *m,
			     const struct path_l4_ctx *x, struct mib_block *mib);

#endif /* PKTPATH_PATH_PVT_H */
