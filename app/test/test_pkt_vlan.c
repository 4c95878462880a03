/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/pkt's VLAN tags: the stacks users write (pkt_parse_vlan_stack: --vlan,
 * --vlan-tags) and the generator's tagged frames (pkt_build_udp with
 * pkt_flow_conf.tags), byte by byte. No EAL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_common.h>

#include "pkt.h"
#include "wire.h"

#define Q PKT_ETH_P_8021Q
#define AD PKT_ETH_P_8021AD

static void
test_parse_stack(void **state)
{
	static const struct {
		const char *s;
		bool ranges;
		struct pkt_vlan_stack want;
		const char *err;
	} cases[] = {
		{ "100", true, { 1, { { Q, 100, 100 } } }, NULL },
		{ "ad100", true, { 1, { { AD, 100, 100 } } }, NULL },
		{ "10-19", true, { 1, { { Q, 10, 19 } } }, NULL },
		{ "ad300.5", true, { 2, { { AD, 300, 300 }, { Q, 5, 5 } } }, NULL },
		{ "1-2.ad3-4094", true, { 2, { { Q, 1, 2 }, { AD, 3, 4094 } } }, NULL },
		{ "0100", true, { 1, { { Q, 100, 100 } } }, NULL },	/* decimal */
		{ "0", true, { 0, { { 0, 0, 0 } } }, "'0': VID '0' is out of range 1..4094" },
		{ "4095", true, { 0, { { 0, 0, 0 } } },
		  "'4095': VID '4095' is out of range 1..4094" },
		{ "100.5000", true, { 0, { { 0, 0, 0 } } },
		  "'100.5000': VID '5000' is out of range 1..4094" },
		{ "19-10", true, { 0, { { 0, 0, 0 } } }, "'19-10': range is reversed" },
		{ "1.2.3", true, { 0, { { 0, 0, 0 } } }, "'1.2.3' has more than 2 tags (QinQ: two)" },
		{ "", true, { 0, { { 0, 0, 0 } } },
		  "'' is not a VLAN tag stack TAG[.TAG], TAG = VID[-VID] (802.1Q) or "
		  "adVID[-VID] (802.1ad)" },
		{ "s100", true, { 0, { { 0, 0, 0 } } },
		  "'s100' is not a VLAN tag stack TAG[.TAG], TAG = VID[-VID] (802.1Q) or "
		  "adVID[-VID] (802.1ad)" },
		{ "100.", true, { 0, { { 0, 0, 0 } } },
		  "'100.' is not a VLAN tag stack TAG[.TAG], TAG = VID[-VID] (802.1Q) or "
		  "adVID[-VID] (802.1ad)" },
		{ "0x64", true, { 0, { { 0, 0, 0 } } },
		  "'0x64' is not a VLAN tag stack TAG[.TAG], TAG = VID[-VID] (802.1Q) or "
		  "adVID[-VID] (802.1ad)" },
		{ "5-", true, { 0, { { 0, 0, 0 } } },
		  "'5-' is not a VLAN tag stack TAG[.TAG], TAG = VID[-VID] (802.1Q) or "
		  "adVID[-VID] (802.1ad)" },
		{ "10-19", false, { 0, { { 0, 0, 0 } } },
		  "'10-19' is not a VLAN tag stack TAG[.TAG], TAG = VID (802.1Q) or "
		  "adVID (802.1ad)" },
		{ "ad ", true, { 0, { { 0, 0, 0 } } },
		  "'ad ' is not a VLAN tag stack TAG[.TAG], TAG = VID[-VID] (802.1Q) or "
		  "adVID[-VID] (802.1ad)" },
	};
	struct pkt_vlan_stack s;
	char err[256];
	unsigned int i, k;

	(void)state;
	for (i = 0; i < RTE_DIM(cases); i++) {
		int rc;

		memset(&s, 0x5a, sizeof(s));
		rc = pkt_parse_vlan_stack(cases[i].s, 1, 4094, cases[i].ranges, &s, err,
					  sizeof(err));
		if (cases[i].err != NULL) {
			if (rc == 0 || strcmp(err, cases[i].err) != 0 || s.depth != 0x5a5a5a5a)
				fail_msg("'%s': rc %d, \"%s\"", cases[i].s, rc, rc ? err : "");
			continue;
		}
		if (rc != 0 || s.depth != cases[i].want.depth)
			fail_msg("'%s': rc %d depth %u \"%s\"", cases[i].s, rc, s.depth,
				 rc ? err : "");
		for (k = 0; k < s.depth; k++)
			if (s.tag[k].tpid != cases[i].want.tag[k].tpid ||
			    s.tag[k].lo != cases[i].want.tag[k].lo ||
			    s.tag[k].hi != cases[i].want.tag[k].hi)
				fail_msg("'%s': tag %u %04x %u-%u", cases[i].s, k,
					 s.tag[k].tpid, s.tag[k].lo, s.tag[k].hi);
	}
	/* The generator's tags: VID 0 (a priority tag) and 4095 are frames'. */
	assert_int_equal(pkt_parse_vlan_stack("0.ad4095", 0, 4095, false, &s, err,
					      sizeof(err)), 0);
	assert_int_equal(s.depth, 2);
	assert_int_equal(s.tag[0].lo, 0);
	assert_int_equal(s.tag[1].tpid, AD);
	assert_int_equal(s.tag[1].hi, 4095);
	assert_int_equal(pkt_parse_vlan_stack(NULL, 0, 4095, false, &s, err, sizeof(err)),
			 -EINVAL);
}

/* The generator's frames with 0, 1 and 2 tags: the untagged frame's bytes
 * with the tags after the MACs, inside the same frame size (pktgen's
 * accounting: the payload shrinks). */
static void
test_build_tagged(void **state)
{
	static const struct pkt_vlan_tag tags[] = { { AD, 0xe0c8 }, { Q, 0x0005 } };
	uint8_t plain[128], tagged[128];
	struct pkt_flow_conf c;
	unsigned int n;

	(void)state;
	for (n = 1; n <= PKT_VLAN_DEPTH; n++) {
		int rc;

		pkt_flow_conf_default(&c);
		c.pkt_size = (uint16_t)(64 + 4 * n);
		c.udp_csum = true;
		assert_int_equal(pkt_build_udp(&c, 3, plain, sizeof(plain)), 64 + 4 * n);
		c.n_tags = n;
		memcpy(c.tags, tags, sizeof(tags));
		memset(tagged, 0xee, sizeof(tagged));
		rc = pkt_build_udp(&c, 3, tagged, sizeof(tagged));
		assert_int_equal(rc, 64 + 4 * n);
		assert_int_equal(tagged[rc], 0xee);
		assert_memory_equal(tagged, plain, 12);
		assert_int_equal(wire_get16(tagged + 12), AD);
		assert_int_equal(wire_get16(tagged + 14), 0xe0c8);
		if (n == 2) {
			assert_int_equal(wire_get16(tagged + 16), Q);
			assert_int_equal(wire_get16(tagged + 18), 5);
		}
		assert_int_equal(wire_get16(tagged + 12 + 4 * n), 0x0800);
		/* The IP datagram is the untagged frame's, 4 bytes a tag shorter:
		 * its own length, header checksum and UDP checksum say so. */
		assert_int_equal(wire_get16(tagged + 14 + 4 * n + 2), 50);
		assert_int_equal(wire_fold(wire_sum(tagged + 14 + 4 * n, 20, 0)), 0xffff);
		assert_int_equal(wire_get16(tagged + 14 + 4 * n + 24), 30);
		assert_memory_equal(tagged + 14 + 4 * n + 12, plain + 26, 8);	/* addresses */
	}
	/* Too small for the tags, or too many. */
	pkt_flow_conf_default(&c);
	c.n_tags = 2;
	c.pkt_size = PKT_MIN_SIZE + 7;
	assert_int_equal(pkt_build_udp(&c, 0, tagged, sizeof(tagged)), -EINVAL);
	assert_null(pkt_templates_build(&c, NULL));
	c.pkt_size = PKT_MIN_SIZE + 8;
	assert_int_equal(pkt_build_udp(&c, 0, tagged, sizeof(tagged)), PKT_MIN_SIZE + 8);
	c.n_tags = PKT_VLAN_DEPTH + 1;
	c.pkt_size = 100;
	assert_int_equal(pkt_build_udp(&c, 0, tagged, sizeof(tagged)), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stack),
		cmocka_unit_test(test_build_tagged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
