/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The path's configuration, and the IP options of a received packet, out of
 * line (a packet with options is rare). L2, ip_rcv, the route and the
 * dispatch to the protocol handlers are inline, in path_inline.h; TCP and
 * ICMP in path_l4.c. References are to Linux 6.18:
 *   net/8021q/vlan.c         register_vlan_dev (a VLAN device on a device)
 *   net/ipv4/ip_input.c      ip_rcv_options
 *   net/ipv4/ip_options.c    __ip_options_compile
 *   net/ipv4/cipso_ipv4.c    cipso_v4_validate (and its !CONFIG_NETLABEL stub)
 */
#include <errno.h>
#include <string.h>

#include "path.h"

#define OPT_END	0
#define OPT_NOOP	1
#define OPT_RR	7
#define OPT_TIMESTAMP	68
#define OPT_LSRR	131
#define OPT_SSRR	137
#define OPT_RA	148
#define OPT_CIPSO	134
#define OPT_TS_TSONLY		0
#define OPT_TS_TSANDADDR	1
#define OPT_TS_PRESPEC	3


void
path_conf_init(struct path_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->netlabel = true;
	c->pim = true;
	/* Every interface is in the all-hosts group (ip_mc_init_dev). */
	c->mcast[c->n_mcast++] = UINT32_C(0xe0000001);	/* 224.0.0.1 */
}

int
path_conf_add_local(struct path_conf *c, uint32_t addr, uint8_t prefix_len)
{
	if (prefix_len > 32)
		return -EINVAL;
	if (c->n_local >= PATH_MAX_LOCAL)
		return -ENOSPC;
	c->local[c->n_local].addr = addr;
	c->local[c->n_local].prefix_len = prefix_len;
	c->n_local++;
	return 0;
}

int
path_conf_add_mcast(struct path_conf *c, uint32_t group)
{
	unsigned int i;

	if ((group >> 28) != 0xe)
		return -EINVAL;
	for (i = 0; i < c->n_mcast; i++)
		if (c->mcast[i] == group)
			return 0;
	if (c->n_mcast >= PATH_MAX_MCAST)
		return -ENOSPC;
	c->mcast[c->n_mcast++] = group;
	return 0;
}

int
path_conf_add_local6(struct path_conf *c, const uint8_t addr[16], uint8_t prefix_len)
{
	static const uint8_t zero[16], lo[16] = { [15] = 1 };

	if (prefix_len < 1 || prefix_len > 128)
		return -EINVAL;
	if (memcmp(addr, zero, 16) == 0 || memcmp(addr, lo, 16) == 0 || addr[0] == 0xff ||
	    (addr[0] == 0xfe && (addr[1] & 0xc0) == 0x80))
		return -EINVAL;
	if (c->n_local6 >= PATH_MAX_LOCAL6)
		return -ENOSPC;
	memcpy(c->local6[c->n_local6].addr, addr, 16);
	c->local6[c->n_local6].prefix_len = prefix_len;
	c->n_local6++;
	return 0;
}

int
path_conf_add_mcast6(struct path_conf *c, const uint8_t g[16])
{
	unsigned int i;

	/* ip6_rcv_core drops interface-local (1) and reserved (0) scopes. */
	if (g[0] != 0xff || (g[1] & 0xf) <= 1)
		return -EINVAL;
	for (i = 0; i < c->n_mcast6; i++)
		if (memcmp(c->mcast6[i], g, 16) == 0)
			return 0;
	if (c->n_mcast6 >= PATH_MAX_MCAST6)
		return -ENOSPC;
	memcpy(c->mcast6[c->n_mcast6++], g, 16);
	return 0;
}

void
path_conf_add_udp_ports(struct path_conf *c, uint16_t lo, uint16_t hi)
{
	uint32_t p;

	for (p = lo; p <= hi; p++)
		c->udp_ports[p / 64] |= UINT64_C(1) << (p % 64);
}

void
path_conf_add_udplite_ports(struct path_conf *c, uint16_t lo, uint16_t hi)
{
	uint32_t p;

	for (p = lo; p <= hi; p++)
		c->udplite_ports[p / 64] |= UINT64_C(1) << (p % 64);
}

/* ---- VLAN devices ---- */

/* Insert k into the sorted set v->qinq. */
static int
__vlan_qinq_insert(struct path_vlans *v, uint32_t k)
{
	unsigned int lo = 0, hi = v->n_qinq;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (v->qinq[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < v->n_qinq && v->qinq[lo] == k)
		return 0;
	if (v->n_qinq >= PATH_MAX_VLAN_QINQ)
		return -ENOSPC;
	memmove(&v->qinq[lo + 1], &v->qinq[lo],
		(v->n_qinq - lo) * sizeof(v->qinq[0]));
	v->qinq[lo] = k;
	v->n_qinq++;
	return 0;
}

int
path_vlans_add(struct path_vlans *v, const struct pkt_vlan_stack *s)
{
	const struct pkt_vlan_range *o = &s->tag[0], *in = &s->tag[1];
	unsigned int i;
	uint32_t a, b;
	int rc;

	if (s->depth < 1 || s->depth > PATH_VLAN_DEPTH)
		return -EINVAL;
	/* register_vlan_dev: VID 0 and 4095 (VLAN_VID_MASK) are no device's. */
	for (i = 0; i < s->depth; i++)
		if ((s->tag[i].tpid != PKT_ETH_P_8021Q &&
		     s->tag[i].tpid != PKT_ETH_P_8021AD) ||
		    s->tag[i].lo < 1 || s->tag[i].hi > 4094 ||
		    s->tag[i].lo > s->tag[i].hi)
			return -EINVAL;
	for (a = o->lo; a <= o->hi; a++) {
		v->port[o->tpid == PKT_ETH_P_8021AD][a / 64] |= UINT64_C(1) << (a % 64);
		for (b = in->lo; s->depth == 2 && b <= in->hi; b++) {
			rc = __vlan_qinq_insert(v, __path_vlan_qinq_key(
				__path_vlan_key(o->tpid, (uint16_t)a),
				__path_vlan_key(in->tpid, (uint16_t)b)));
			if (rc != 0)
				return rc;
		}
	}
	return 0;
}

/* ---- IP options ---- */

/*
 * cipso_v4_validate. With NetLabel, the DOI must be one the host knows: none
 * is configured on a host that does not use CIPSO, so every option is refused
 * (err_offset 2). Without NetLabel, the stub checks the DOI is not 0 and that
 * the tags fill the option.
 */
static int
__cipso_validate(const struct path_conf *c, const uint8_t *opt)
{
	unsigned int optlen = opt[1], i;

	if (optlen < 8)
		return -1;
	if (c->netlabel)
		return -1;	/* cipso_v4_doi_search: no DOI */
	if ((opt[2] | opt[3] | opt[4] | opt[5]) == 0)
		return -1;
	for (i = 6; i < optlen;) {
		unsigned int tag_len;

		if (i + 1 == optlen)
			return -1;
		tag_len = opt[i + 1];
		if (tag_len == 0 || tag_len > optlen - i)
			return -1;
		i += tag_len;
	}
	return 0;
}

/*
 * __ip_options_compile for a received packet (skb != NULL, so unknown options
 * are accepted): see path_inline.h.
 */
int
__path_ip_options(const struct path_conf *c, const uint8_t *opt, unsigned int l,
		  bool *srr)
{
	bool rr = false, ts = false, cipso = false;
	unsigned int optlen;

	*srr = false;
	while (l > 0) {
		switch (opt[0]) {
		case OPT_END:
			return 0;
		case OPT_NOOP:
			l--;
			opt++;
			continue;
		}
		if (l < 2)
			return -1;
		optlen = opt[1];
		if (optlen < 2 || optlen > l)
			return -1;
		switch (opt[0]) {
		case OPT_SSRR:
		case OPT_LSRR:
			if (optlen < 3 || opt[2] < 4 || *srr)
				return -1;
			*srr = true;
			break;
		case OPT_RR:
			if (rr || optlen < 3 || opt[2] < 4)
				return -1;
			if (opt[2] <= optlen && opt[2] + 3u > optlen)
				return -1;
			rr = true;
			break;
		case OPT_TIMESTAMP:
			if (ts || optlen < 4 || opt[2] < 5)
				return -1;
			if (opt[2] <= optlen) {
				if (opt[2] + 3u > optlen)
					return -1;
				switch (opt[3] & 0xf) {
				case OPT_TS_TSONLY:
					break;
				case OPT_TS_TSANDADDR:
				case OPT_TS_PRESPEC:
					if (opt[2] + 7u > optlen)
						return -1;
					break;
				default:
					break;
				}
			} else if ((opt[3] & 0xf) != OPT_TS_PRESPEC) {
				if ((opt[3] >> 4) == 15)
					return -1;
			}
			ts = true;
			break;
		case OPT_RA:
			if (optlen < 4)
				return -1;
			break;
		case OPT_CIPSO:
			if (cipso || __cipso_validate(c, opt) != 0)
				return -1;
			cipso = true;
			break;
		default:
			break;
		}
		l -= optlen;
		opt += optlen;
	}
	return 0;
}
