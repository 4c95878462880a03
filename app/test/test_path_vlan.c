/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * VLAN tags in lib/path against a model of Linux 6.18's decision, over the
 * whole class: every stack of 0 to 3 tags drawn from 802.1Q and 802.1ad
 * tags with VID 0 (priority), VIDs that have a VLAN device at that depth,
 * VIDs that have one only elsewhere, and VIDs that have none (4095
 * included); after them IPv4 or ARP; to the port's MAC, broadcast,
 * multicast and another host's MAC; with no VLAN device (the default, a host
 * without any) and with a set of devices on the port and on its VLAN
 * devices (QinQ). The frames come from the generator (pkt_build_udp with
 * its tags; a third tag is inserted in front). Each frame runs through
 * path_l2() + path_rcv() and every MIB field it moves is compared with what
 * the model says, and path_l2()'s depth and offsets with the model's.
 *
 * The model is __netif_receive_skb_core's control flow (net/core/dev.c)
 * with skb_vlan_untag (net/core/skbuff.c) and vlan_do_receive
 * (net/8021q/vlan_core.c), transcribed step by step over a table of
 * devices, and is itself checked against a table of answers worked out by
 * hand from that code. No EAL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <cmocka.h>

#include <rte_mbuf.h>

#include "mib.h"
#include "path.h"
#include "pkt.h"
#include "wire.h"

#define Q PKT_ETH_P_8021Q
#define AD PKT_ETH_P_8021AD
#define IP4(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))
#define LOCAL IP4(10, 0, 0, 1)
#define MAXT 3		/* tags in a frame */
#define L3LEN 46	/* IPv4 + UDP + 18 bytes of payload */

static const struct rte_ether_addr port_mac = {{ 0x02, 0, 0, 0, 0, 0x01 }};

enum mac_class { MAC_HOST, MAC_BCAST, MAC_MCAST, MAC_OTHER, MAC_MAX };
static const struct rte_ether_addr macs[MAC_MAX] = {
	[MAC_HOST] = {{ 0x02, 0, 0, 0, 0, 0x01 }},
	[MAC_BCAST] = {{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }},
	[MAC_MCAST] = {{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 }},
	[MAC_OTHER] = {{ 0x02, 0, 0, 0, 0, 0x99 }},
};
static const char *const mac_names[MAC_MAX] = { "host", "bcast", "mcast", "other" };

/* ---- the model ---- */

struct mtag {
	uint16_t tpid, tci;
};

/* A VLAN device: the tags that lead to it from the port, outermost first
 * (the last one is its own TPID and VID). */
struct mdev {
	unsigned int depth;
	struct mtag t[2];
};

/* The devices of the second configuration, as --vlan declares them:
 * "100,ad200,100.300,ad200.300,100.ad400". */
static const char *const declared[] = { "100", "ad200", "100.300", "ad200.300", "100.ad400" };
static const struct mdev devs[] = {
	{ 1, { { Q, 100 } } }, { 1, { { AD, 200 } } },
	{ 2, { { Q, 100 }, { Q, 300 } } }, { 2, { { AD, 200 }, { Q, 300 } } },
	{ 2, { { Q, 100 }, { AD, 400 } } },
};

struct mout {
	uint8_t pkt_type;	/* enum path_pkt_type */
	uint16_t proto;		/* the ethertype handed to the protocols */
	unsigned int vlan;	/* VLAN devices the frame went through */
	uint16_t l3_off;
	bool nodev;		/* check_vlan_id made it PACKET_OTHERHOST */
};

static bool
eth_type_vlan(uint16_t et)
{
	return et == Q || et == AD;
}

/* vlan_find_dev(dev, proto, vid): dev is the path from the port (depth
 * tags); is there a device for (proto, vid) on it in the table? */
static bool
vlan_find_dev(const struct mdev *tab, unsigned int n, const struct mtag *dev,
	      unsigned int depth, uint16_t proto, uint16_t vid)
{
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		if (tab[i].depth != depth + 1 || tab[i].t[depth].tpid != proto ||
		    tab[i].t[depth].tci != vid)
			continue;
		for (k = 0; k < depth; k++)
			if (tab[i].t[k].tpid != dev[k].tpid ||
			    tab[i].t[k].tci != dev[k].tci)
				break;
		if (k == depth)
			return true;
	}
	return false;
}

/*
 * __netif_receive_skb_core for a frame whose tags are t[0..n-1] (outermost
 * first) and whose ethertype after them is inner, on a port with the
 * devices tab[0..ndev-1] and no rx_handler; pkt_type is eth_type_trans's.
 */
static struct mout
kernel(const struct mtag *t, unsigned int n, uint16_t inner, uint8_t pkt_type,
       const struct mdev *tab, unsigned int ndev)
{
	struct mout o = { .pkt_type = pkt_type, .l3_off = 14 };
	struct mtag dev[MAXT], hw = { 0, 0 };	/* hw.tpid 0: no tag present */
	unsigned int next = 0;
	uint16_t protocol = n > 0 ? t[0].tpid : inner;	/* eth_type_trans */

another_round:
	/* if (eth_type_vlan(skb->protocol)) skb = skb_vlan_untag(skb); */
	if (eth_type_vlan(protocol)) {
		hw = t[next++];
		protocol = next < n ? t[next].tpid : inner;
		o.l3_off += 4;
	}
	/* (tc ingress runs here) if (skb_vlan_tag_present(skb))
	 * vlan_do_receive(): the device found takes the frame (its MAC is
	 * the port's: PACKET_OTHERHOST stays) and clears the tag. */
	if (hw.tpid != 0 &&
	    vlan_find_dev(tab, ndev, dev, o.vlan, hw.tpid, hw.tci & 0xfff)) {
		dev[o.vlan].tpid = hw.tpid;
		dev[o.vlan++].tci = hw.tci & 0xfff;
		hw.tpid = 0;
		goto another_round;
	}
	/* no rx_handler; then */
	if (hw.tpid != 0) {
check_vlan_id:
		if ((hw.tci & 0xfff) != 0) {
			o.pkt_type = PATH_PKT_OTHERHOST;
			o.nodev = true;
		} else if (eth_type_vlan(protocol)) {
			/* __vlan_hwaccel_clear_tag; skb_vlan_untag */
			hw = t[next++];
			protocol = next < n ? t[next].tpid : inner;
			o.l3_off += 4;
			if (vlan_find_dev(tab, ndev, dev, o.vlan, hw.tpid,
					  hw.tci & 0xfff)) {
				dev[o.vlan].tpid = hw.tpid;
				dev[o.vlan++].tci = hw.tci & 0xfff;
				hw.tpid = 0;
				goto another_round;
			}
			goto check_vlan_id;
		}
		hw.tpid = 0;	/* __vlan_hwaccel_clear_tag */
	}
	o.proto = protocol;	/* deliver_ptype_list_skb(..., type) */
	return o;
}

/* The model against answers read off the kernel's code by hand. */
static void
test_model(void **state)
{
	static const struct {
		const char *name;
		unsigned int n;
		struct mtag t[MAXT];
		bool with_devs;
		struct mout want;	/* pkt_type HOST unless said */
	} known[] = {
		{ "untagged", 0, { { 0, 0 } }, false, { PATH_PKT_HOST, 0x0800, 0, 14, false } },
		{ "priority tag", 1, { { Q, 0x6000 } }, false,
		  { PATH_PKT_HOST, 0x0800, 0, 18, false } },
		{ "802.1ad priority tag", 1, { { AD, 0 } }, false,
		  { PATH_PKT_HOST, 0x0800, 0, 18, false } },
		{ "tag, no device", 1, { { Q, 5 } }, false,
		  { PATH_PKT_OTHERHOST, 0x0800, 0, 18, true } },
		{ "tag 4095, no device", 1, { { Q, 4095 } }, true,
		  { PATH_PKT_OTHERHOST, 0x0800, 0, 18, true } },
		{ "tag, its device", 1, { { Q, 100 } }, true,
		  { PATH_PKT_HOST, 0x0800, 1, 18, false } },
		{ "PCP bits ignored", 1, { { Q, 0xe064 } }, true,
		  { PATH_PKT_HOST, 0x0800, 1, 18, false } },
		{ "802.1ad tag, an 802.1Q device only", 1, { { AD, 100 } }, true,
		  { PATH_PKT_OTHERHOST, 0x0800, 0, 18, true } },
		{ "two priority tags, then a tag with a device", 3,
		  { { AD, 0 }, { Q, 0 }, { Q, 100 } }, true,
		  { PATH_PKT_HOST, 0x0800, 1, 26, false } },
		{ "QinQ, both devices", 2, { { AD, 200 }, { Q, 300 } }, true,
		  { PATH_PKT_HOST, 0x0800, 2, 22, false } },
		{ "QinQ, inner device on another parent only", 2, { { AD, 200 }, { AD, 400 } }, true,
		  { PATH_PKT_OTHERHOST, 0x0800, 1, 22, true } },
		{ "QinQ, outer has no device: the inner tag is its ethertype", 2,
		  { { Q, 7 }, { Q, 100 } }, true, { PATH_PKT_OTHERHOST, Q, 0, 18, true } },
		{ "device, then a priority tag, then IPv4", 2, { { Q, 100 }, { Q, 0 } }, true,
		  { PATH_PKT_HOST, 0x0800, 1, 22, false } },
		{ "two devices deep, a third tag has none", 3,
		  { { Q, 100 }, { Q, 300 }, { Q, 100 } }, true,
		  { PATH_PKT_OTHERHOST, 0x0800, 2, 26, true } },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(known); i++) {
		struct mout o = kernel(known[i].t, known[i].n, 0x0800, PATH_PKT_HOST, devs,
				       known[i].with_devs ? RTE_DIM(devs) : 0);

		if (o.pkt_type != known[i].want.pkt_type || o.proto != known[i].want.proto ||
		    o.vlan != known[i].want.vlan || o.l3_off != known[i].want.l3_off ||
		    o.nodev != known[i].want.nodev)
			fail_msg("model, %s: pkt_type %u proto %04x vlan %u l3 %u nodev %d",
				 known[i].name, o.pkt_type, o.proto, o.vlan, o.l3_off, o.nodev);
	}
}

/* ---- frames from the generator ---- */

/* Frame of tags t[0..n-1], then inner, to mac class mc: the generator's
 * with the last two tags; a third is inserted in front. */
static uint16_t
build(const struct mtag *t, unsigned int n, uint16_t inner, enum mac_class mc,
      uint8_t *buf, size_t len)
{
	struct pkt_flow_conf c;
	unsigned int k, first = n > PKT_VLAN_DEPTH ? n - PKT_VLAN_DEPTH : 0;
	int rc;

	pkt_flow_conf_default(&c);
	c.dst_mac = macs[mc];
	c.dst_lo = c.dst_hi = LOCAL;
	c.n_tags = n - first;
	for (k = first; k < n; k++) {
		c.tags[k - first].tpid = t[k].tpid;
		c.tags[k - first].tci = t[k].tci;
	}
	c.pkt_size = (uint16_t)(14 + 4 * c.n_tags + L3LEN);
	rc = pkt_build_udp(&c, 0, buf, (uint16_t)len);
	assert_int_equal(rc, c.pkt_size);
	if (first) {	/* one more tag in front */
		memmove(buf + 16, buf + 12, (size_t)rc - 12);
		wire_put16(buf + 12, t[0].tpid);
		wire_put16(buf + 14, t[0].tci);
		rc += 4;
	}
	wire_put16(buf + 12 + 4 * n, inner);
	return (uint16_t)rc;
}

/* ---- the class ---- */

static struct path_conf conf;

struct symbol {
	uint16_t tpid, vid;
};

/* Each position of a stack takes one of these, with PCP bits set on every
 * other position: VID 0, the VIDs of the devices (each a device at one
 * depth only, or under one parent only), one with a device nowhere, and
 * 4095 (which no device can have). */
static const uint16_t vids[] = { 0, 100, 200, 300, 400, 7, 4095 };

static void
__run_class(const struct mdev *tab, unsigned int ndev, unsigned int *counts)
{
	static const uint16_t inners[] = { 0x0800, 0x0806 };
	struct mib_set *set = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	struct mib_block b;
	uint64_t before[MIB_FIELD_MAX], after[MIB_FIELD_MAX];
	unsigned int n, idx, mc, ie, f, bad = 0, frames = 0;
	uint8_t buf[128];

	assert_non_null(set);
	b = mib_set_block(set, 0);
	for (n = 0; n <= MAXT; n++) {
		unsigned int nsym = 2 * RTE_DIM(vids), combos = 1, k;

		for (k = 0; k < n; k++)
			combos *= nsym;
		for (idx = 0; idx < combos; idx++) {
			struct mtag t[MAXT];
			unsigned int x = idx;

			for (k = 0; k < n; k++, x /= nsym) {
				t[k].tpid = (x % nsym) & 1 ? AD : Q;
				t[k].tci = (uint16_t)(vids[(x % nsym) / 2] | (k & 1 ? 0xa000 : 0));
			}
			for (ie = 0; ie < RTE_DIM(inners); ie++)
			for (mc = 0; mc < MAC_MAX; mc++) {
				uint8_t ptype = mc == MAC_HOST ? PATH_PKT_HOST :
					mc == MAC_BCAST ? PATH_PKT_BROADCAST :
					mc == MAC_MCAST ? PATH_PKT_MULTICAST : PATH_PKT_OTHERHOST;
				struct mout o = kernel(t, n, inners[ie], ptype, tab, ndev);
				uint16_t len = build(t, n, inners[ie], mc, buf, sizeof(buf));
				uint64_t want[MIB_FIELD_MAX];
				unsigned int out, terminal;
				struct rte_mbuf m;
				struct path_l2 l2;
				char name[96];
				int p;

				p = snprintf(name, sizeof(name), "%s", n ? "" : "untagged");
				for (k = 0; k < n; k++)
					p += snprintf(name + p, sizeof(name) - (size_t)p, "%s%s%u",
						      k ? "." : "", t[k].tpid == AD ? "ad" : "",
						      t[k].tci & 0xfff);
				snprintf(name + p, sizeof(name) - (size_t)p, " %s to %s, %s",
					 inners[ie] == 0x0800 ? "ipv4" : "arp", mac_names[mc],
					 ndev ? "devices" : "no device");
				memset(&m, 0, sizeof(m));
				m.buf_addr = buf;
				m.buf_len = m.data_len = len;
				m.pkt_len = len;
				m.nb_segs = 1;
				mib_fold(set, MIB_FOLD_LCORE, before, NULL);
				path_l2(&conf, &m, &l2, &b);
				out = path_rcv(&conf, &m, &l2, &b);
				mib_fold(set, MIB_FOLD_LCORE, after, NULL);
				frames++;

				/* What the model's decision moves. */
				memset(want, 0, sizeof(want));
				want[MIB_F(RX, VLAN)] = n > 0;
				want[MIB_F(RX, VLANNODEVICE)] = o.nodev;
				want[MIB_F(RX, BROADCAST)] = mc == MAC_BCAST;
				want[MIB_F(RX, MULTICAST)] = mc == MAC_MCAST;
				if (o.proto != 0x0800) {
					terminal = MIB_F(RX, NOTIP);
				} else if (o.pkt_type == PATH_PKT_OTHERHOST) {
					terminal = MIB_F(RX, OTHERHOST);
				} else {
					terminal = MIB_F(UDP, INDATAGRAMS);
					want[MIB_F(IP, INRECEIVES)] = 1;
					want[MIB_F(IPEXT, INOCTETS)] = L3LEN;
					want[MIB_F(IPEXT, INNOECTPKTS)] = 1;
					want[MIB_F(IP, INDELIVERS)] = 1;
				}
				want[terminal] = 1;
				counts[terminal == MIB_F(UDP, INDATAGRAMS) ? 0 :
				       terminal == MIB_F(RX, OTHERHOST) ? 1 : 2]++;
				counts[3] += o.nodev;
				counts[4] += o.vlan == 2;
				if (out != terminal && bad++ < 20)
					print_error("[%s] outcome %s.%s, the kernel's %s.%s\n", name,
						    mib_group_name(mib_field_group(out)),
						    mib_field_name(out),
						    mib_group_name(mib_field_group(terminal)),
						    mib_field_name(terminal));
				for (f = 0; f < MIB_FIELD_MAX; f++)
					if (after[f] - before[f] != want[f] && bad++ < 20)
						print_error("[%s] %s.%s moved %" PRIu64 ", the kernel's "
							    "decision %" PRIu64 "\n", name,
							    mib_group_name(mib_field_group(f)),
							    mib_field_name(f), after[f] - before[f],
							    want[f]);
				if ((l2.vlan != o.vlan || l2.ethertype != o.proto ||
				     (o.proto == 0x0800 && l2.l3_off != o.l3_off) ||
				     l2.pkt_type != o.pkt_type) && bad++ < 20)
					print_error("[%s] path_l2: vlan %u ethertype %04x l3_off %u "
						    "pkt_type %u; the kernel: %u %04x %u %u\n", name,
						    l2.vlan, l2.ethertype, l2.l3_off, l2.pkt_type,
						    o.vlan, o.proto, o.l3_off, o.pkt_type);
			}
		}
	}
	mib_set_free(set);
	print_message("%u frames, %s: %u delivered, %u otherhost, %u not IP; %u made "
		      "otherhost by a tag, %u through two devices\n", frames,
		      ndev ? "devices" : "no device", counts[0], counts[1], counts[2],
		      counts[3], counts[4]);
	if (bad)
		fail_msg("%u disagreements with the kernel's decision", bad);
}

/* The default: no VLAN device, as on a host without any. */
static void
test_class_no_device(void **state)
{
	unsigned int counts[5] = { 0 };

	(void)state;
	memset(&conf.vlan, 0, sizeof(conf.vlan));
	__run_class(devs, 0, counts);
	/* Every kind of outcome was reached, and no tag was received. */
	assert_true(counts[0] > 0 && counts[1] > 0 && counts[2] > 0 && counts[3] > 0);
	assert_int_equal(counts[4], 0);
}

/* The devices of declared[], as --vlan would declare them. */
static void
test_class_devices(void **state)
{
	unsigned int counts[5] = { 0 }, i;
	char err[256];

	(void)state;
	memset(&conf.vlan, 0, sizeof(conf.vlan));
	for (i = 0; i < RTE_DIM(declared); i++) {
		struct pkt_vlan_stack s;

		assert_int_equal(pkt_parse_vlan_stack(declared[i], 1, 4094, true, &s, err,
						      sizeof(err)), 0);
		assert_int_equal(path_vlans_add(&conf.vlan, &s), 0);
	}
	__run_class(devs, RTE_DIM(devs), counts);
	assert_true(counts[0] > 0 && counts[1] > 0 && counts[2] > 0 && counts[3] > 0);
	assert_true(counts[4] > 0);
	memset(&conf.vlan, 0, sizeof(conf.vlan));
}

/* However many priority tags a frame carries (the kernel strips them one
 * by one, check_vlan_id's loop has no bound), it is a tagged frame and its
 * datagram is delivered: 255 to 600 of them, around every power of two a
 * counter of tags could wrap at. */
static void
test_many_priority_tags(void **state)
{
	static const unsigned int counts[] = { 255, 256, 257, 511, 512, 600 };
	struct mib_set *set = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	uint8_t *buf = malloc(14 + 4 * 600 + L3LEN);
	struct mib_block b;
	struct mtag none[1];
	unsigned int i, k;

	(void)state;
	assert_non_null(set);
	assert_non_null(buf);
	b = mib_set_block(set, 0);
	memset(&conf.vlan, 0, sizeof(conf.vlan));
	for (i = 0; i < RTE_DIM(counts); i++) {
		uint16_t len = build(none, 0, 0x0800, MAC_HOST, buf, 14 + L3LEN);
		struct rte_mbuf m;
		struct path_l2 l2;
		unsigned int out;

		memmove(buf + 12 + 4 * counts[i], buf + 12, len - 12u);
		for (k = 0; k < counts[i]; k++) {
			wire_put16(buf + 12 + 4 * k, k & 1 ? AD : Q);
			wire_put16(buf + 14 + 4 * k, 0x2000);
		}
		len = (uint16_t)(len + 4 * counts[i]);
		memset(&m, 0, sizeof(m));
		m.buf_addr = buf;
		m.buf_len = m.data_len = len;
		m.pkt_len = len;
		m.nb_segs = 1;
		path_l2(&conf, &m, &l2, &b);
		out = path_rcv(&conf, &m, &l2, &b);
		if (out != MIB_F(UDP, INDATAGRAMS) || l2.l3_off != 14 + 4 * counts[i])
			fail_msg("%u priority tags: outcome %s, l3_off %u", counts[i],
				 mib_field_name(out), l2.l3_off);
		if (mib_read(&b, MIB_F(RX, VLAN)) != i + 1)
			fail_msg("%u priority tags: not counted in RxVlan", counts[i]);
	}
	free(buf);
	mib_set_free(set);
}

/* path_vlans_add: ranges, repeats, refusals, the QinQ limit. */
static void
test_vlans_add(void **state)
{
	struct path_vlans *v = calloc(1, sizeof(*v));
	struct pkt_vlan_stack s = { 1, { { Q, 10, 12 } } };
	unsigned int i;

	(void)state;
	assert_non_null(v);
	assert_int_equal(path_vlans_add(v, &s), 0);
	assert_int_equal(path_vlans_add(v, &s), 0);	/* declared twice: one */
	for (i = 0; i < 4096; i++)
		assert_int_equal((v->port[0][i / 64] >> (i % 64)) & 1, i >= 10 && i <= 12);
	assert_int_equal(v->port[1][0], 0);
	assert_int_equal(v->n_qinq, 0);
	s = (struct pkt_vlan_stack){ 2, { { AD, 5, 6 }, { Q, 1, 3 } } };
	assert_int_equal(path_vlans_add(v, &s), 0);
	assert_int_equal(v->n_qinq, 6);
	assert_int_equal((v->port[1][0] >> 5) & 3, 3);
	for (i = 1; i < v->n_qinq; i++)
		assert_true(v->qinq[i - 1] < v->qinq[i]);
	/* Refused, v unchanged: no device has VID 0 or 4095. */
	s = (struct pkt_vlan_stack){ 1, { { Q, 0, 3 } } };
	assert_int_equal(path_vlans_add(v, &s), -EINVAL);
	s = (struct pkt_vlan_stack){ 1, { { Q, 4090, 4095 } } };
	assert_int_equal(path_vlans_add(v, &s), -EINVAL);
	s = (struct pkt_vlan_stack){ 1, { { 0x9100, 5, 5 } } };
	assert_int_equal(path_vlans_add(v, &s), -EINVAL);
	s = (struct pkt_vlan_stack){ 3, { { Q, 5, 5 }, { Q, 5, 5 } } };
	assert_int_equal(path_vlans_add(v, &s), -EINVAL);
	s = (struct pkt_vlan_stack){ 0, { { Q, 5, 5 } } };
	assert_int_equal(path_vlans_add(v, &s), -EINVAL);
	assert_int_equal((v->port[0][0] >> 5) & 1, 0);
	/* At most PATH_MAX_VLAN_QINQ devices on VLAN devices. */
	memset(v, 0, sizeof(*v));
	s = (struct pkt_vlan_stack){ 2, { { Q, 1, 4 }, { Q, 1, 1024 } } };
	assert_int_equal(path_vlans_add(v, &s), 0);
	assert_int_equal(v->n_qinq, PATH_MAX_VLAN_QINQ);
	assert_int_equal(path_vlans_add(v, &s), 0);	/* all there already */
	s = (struct pkt_vlan_stack){ 2, { { Q, 5, 5 }, { Q, 1, 1 } } };
	assert_int_equal(path_vlans_add(v, &s), -ENOSPC);
	free(v);
}

static int
__vlan_setup(void **state)
{
	(void)state;
	path_conf_init(&conf);
	conf.mac = port_mac;
	if (path_conf_add_local(&conf, LOCAL, 24) != 0)
		return -1;
	path_conf_add_udp_ports(&conf, 9, 9);	/* the generator's --dport */
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_vlans_add),
		cmocka_unit_test(test_class_no_device),
		cmocka_unit_test(test_class_devices),
		cmocka_unit_test(test_many_priority_tags),
	};

	return cmocka_run_group_tests(tests, __vlan_setup, NULL);
}
