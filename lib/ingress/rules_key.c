/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "rules" kind's IPv6 key (struct __ingress_key6, rte_acl's IPv6
 * layout): the IPv4 key's parse (__ingress_key_extract() in ingress_pvt.h,
 * inlined in both lookups) leaves for this one at the ethertype test IPv4
 * frames do not take. It reads one extension header at a time, as the
 * kernel's flow dissector walks them.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "ingress_pvt.h"

/* IPv6 next-header values the key walks over (the flow dissector's). */
#define NH_HOP	    0
#define NH_ROUTING  43
#define NH_FRAGMENT 44
#define NH_DEST	    60

/*
 * The key of the IPv6 frame whose IPv6 header starts at off: proto is the
 * first next header that is not hop-by-hop, routing, destination options
 * or fragment, each of those complete in the frame (a cut one, or a
 * (KEY6_EXT_MAX + 1)-th, ends the walk: proto is its type, no ports). A
 * fragment header (any: first fragments too, as for IPv4) ends it with its
 * next header as proto and no ports, as tc flower's dissector does by
 * default.
 */
int
__ingress_key6_extract(const struct rte_mbuf *m, uint32_t off, uint16_t vlan,
		       struct __ingress_key6 *k)
{
	uint8_t hb[40], eb[8];
	const uint8_t *ip = rte_pktmbuf_read(m, off, sizeof(hb), hb), *e;
	uint32_t len = rte_pktmbuf_pkt_len(m);
	uint8_t nh;
	int n;

	memset(k, 0, sizeof(*k));
	k->vlan = vlan;
	k->flags = KEY_F_IP;
	k->dscp = (uint8_t)(((ip[0] & 0xf) << 4 | ip[1] >> 4) >> 2);
	memcpy(k->src, ip + 8, 16);
	memcpy(k->dst, ip + 24, 16);
	nh = ip[6];
	off += 40;
	for (n = 0; n < KEY6_EXT_MAX; n++) {
		if (nh != NH_HOP && nh != NH_ROUTING && nh != NH_DEST &&
		    nh != NH_FRAGMENT)
			break;
		e = rte_pktmbuf_read(m, off, sizeof(eb), eb);
		if (e != NULL && nh == NH_FRAGMENT) { /* 8 bytes */
			k->proto = e[0];	      /* a fragment has no ports */
			return 6;
		}
		if (e == NULL || off + ((uint32_t)e[1] + 1) * 8 > len) {
			k->proto = nh; /* a cut header */
			return 6;
		}
		nh = e[0];
		off += ((uint32_t)e[1] + 1) * 8;
	}
	k->proto = nh;
	if ((nh != IPPROTO_UDP && nh != IPPROTO_TCP) || off + 4 > len)
		return 6; /* a (KEY6_EXT_MAX + 1)-th header too */
	e = rte_pktmbuf_read(m, off, 4, eb);
	memcpy(&k->sport, e, 2);
	memcpy(&k->dport, e + 2, 2);
	k->flags |= KEY_F_PORTS;
	return 6;
}
