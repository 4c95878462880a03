/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ipv6_skip_exthdr (net/ipv6/exthdrs_core.c, Linux 6.18): the walk over an
 * IPv6 packet's extension headers to its upper layer that the fragment
 * handler, UDP's and ICMPv6's error paths and icmp6_send all take. Below
 * the stages that use it (path6_pvt.h), as exthdrs_core.c is below
 * exthdrs.c and icmp.c in Linux.
 */
#include "path6_pvt.h"

int
__p6_skip_exthdr(const struct path6_pkt *p, uint32_t start, uint8_t *nexthdr,
		 uint16_t *frag_off)
{
	uint8_t b[4];
	const uint8_t *h;

	*frag_off = 0;
	/* ipv6_ext_hdr: hop-by-hop, routing, fragment, AH, none, destination */
	while (*nexthdr == NEXTHDR_HOP || *nexthdr == NEXTHDR_ROUTING ||
	       *nexthdr == NEXTHDR_FRAGMENT || *nexthdr == NEXTHDR_AUTH ||
	       *nexthdr == NEXTHDR_NONE || *nexthdr == NEXTHDR_DEST) {
		uint32_t hdrlen;

		if (*nexthdr == NEXTHDR_NONE)
			return -1;
		h = __p6_read(p, start, 2, b);
		if (h == NULL)
			return -1;
		if (*nexthdr == NEXTHDR_FRAGMENT) {
			const uint8_t *fo = __p6_read(p, start + 2, 2, b + 2);

			if (fo == NULL)
				return -1;
			*frag_off = (uint16_t)(fo[0] << 8 | fo[1]);
			if (*frag_off & ~0x7) /* not the first fragment */
				break;
			hdrlen = 8;
		} else if (*nexthdr == NEXTHDR_AUTH) {
			hdrlen = (h[1] + 2u) * 4; /* ipv6_authlen */
		} else {
			hdrlen = (h[1] + 1u) * 8; /* ipv6_optlen */
		}
		*nexthdr = h[0];
		start += hdrlen;
	}
	return (int)start;
}
