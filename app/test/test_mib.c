/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/mib: the schema (names exactly as Linux 6.18 prints them
 * in /proc/net/snmp and /proc/net/netstat), kinds and constants, sets of
 * blocks in both layouts, both fold strategies on random data for 1..256
 * blocks, baseline deltas and the conservation laws. No EAL needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_common.h>

#include "mib.h"
#include "test_rand.h"

/* ---- schema ---- */

static const char *const grp_names[MIB_GRP_MAX] = {
	"Ip",  "Icmp",	"IcmpMsg",  "Tcp",  "Udp",     "UdpLite", "IpExt",
	"Rx",  "Path",	"Ingress",  "Peer", "Capture", "Mode",	  "Stage",
	"Ip6", "Icmp6", "Icmp6Msg", "Udp6", "UdpLite6"
};

/* Linux 6.18 net/ipv4/proc.c: snmp4_ipstats_list, icmp_put, snmp4_tcp_list,
 * snmp4_udp_list, snmp4_ipextstats_list, in print order (as this kernel's
 * /proc/net/snmp prints them). */
static const char *const linux_ip[] = { "Forwarding", "DefaultTTL", "InReceives",
	"InHdrErrors", "InAddrErrors", "ForwDatagrams", "InUnknownProtos", "InDiscards",
	"InDelivers", "OutRequests", "OutDiscards", "OutNoRoutes", "ReasmTimeout",
	"ReasmReqds", "ReasmOKs", "ReasmFails", "FragOKs", "FragFails", "FragCreates",
	"OutTransmits" };
static const char *const linux_icmp[] = { "InMsgs", "InErrors", "InCsumErrors",
	"InDestUnreachs", "InTimeExcds", "InParmProbs", "InSrcQuenchs", "InRedirects",
	"InEchos", "InEchoReps", "InTimestamps", "InTimestampReps", "InAddrMasks",
	"InAddrMaskReps", "OutMsgs", "OutErrors", "OutRateLimitGlobal", "OutRateLimitHost",
	"OutDestUnreachs", "OutTimeExcds",
	"OutParmProbs", "OutSrcQuenchs", "OutRedirects", "OutEchos", "OutEchoReps",
	"OutTimestamps", "OutTimestampReps", "OutAddrMasks", "OutAddrMaskReps" };
static const char *const linux_tcp[] = { "RtoAlgorithm", "RtoMin", "RtoMax", "MaxConn",
	"ActiveOpens", "PassiveOpens", "AttemptFails", "EstabResets", "CurrEstab", "InSegs",
	"OutSegs", "RetransSegs", "InErrs", "OutRsts", "InCsumErrors" };
static const char *const linux_udp[] = { "InDatagrams", "NoPorts", "InErrors",
	"OutDatagrams", "RcvbufErrors", "SndbufErrors", "InCsumErrors", "IgnoredMulti",
	"MemErrors" };
static const char *const linux_ipext[] = { "InNoRoutes", "InTruncatedPkts", "InMcastPkts",
	"OutMcastPkts", "InBcastPkts", "OutBcastPkts", "InOctets", "OutOctets",
	"InMcastOctets", "OutMcastOctets", "InBcastOctets", "OutBcastOctets", "InCsumErrors",
	"InNoECTPkts", "InECT1Pkts", "InECT0Pkts", "InCEPkts", "ReasmOverlaps" };
/* net/ipv6/proc.c: snmp6_ipstats_list, snmp6_icmp6_list, snmp6_udp6_list, as
 * this kernel's /proc/net/snmp6 prints them (without their "Ip6", "Icmp6",
 * "Udp6" prefix; UdpLite6 is Udp6's list but for IgnoredMulti, which the
 * kernel counts and does not print). */
static const char *const linux_ip6[] = {
	"InReceives",	 "InHdrErrors",	     "InTooBigErrors",	"InNoRoutes",
	"InAddrErrors",	 "InUnknownProtos",  "InTruncatedPkts", "InDiscards",
	"InDelivers",	 "OutForwDatagrams", "OutRequests",	"OutDiscards",
	"OutNoRoutes",	 "ReasmTimeout",     "ReasmReqds",	"ReasmOKs",
	"ReasmFails",	 "FragOKs",	     "FragFails",	"FragCreates",
	"InMcastPkts",	 "OutMcastPkts",     "InOctets",	"OutOctets",
	"InMcastOctets", "OutMcastOctets",   "InBcastOctets",	"OutBcastOctets",
	"InNoECTPkts",	 "InECT1Pkts",	     "InECT0Pkts",	"InCEPkts",
	"OutTransmits"
};
static const char *const linux_icmp6[] = {
	"InMsgs", "InErrors", "OutMsgs", "OutErrors", "InCsumErrors", "OutRateLimitHost"
};

static void
__check_linux_group(enum mib_group g, const char *const *names, unsigned int n)
{
	unsigned int i;

	assert_int_equal(mib_group_count(g), n);
	for (i = 0; i < n; i++)
		assert_string_equal(mib_field_name(mib_group_first(g) + i), names[i]);
}

static void
test_schema(void **state)
{
	unsigned int g, f, i, next = 0, total = 0;

	(void)state;
	for (g = 0; g < MIB_GRP_MAX; g++) {
		const char *gn = mib_group_name((enum mib_group)g);
		unsigned int first = mib_group_first((enum mib_group)g);
		unsigned int cnt = mib_group_count((enum mib_group)g);

		assert_non_null(gn);
		assert_string_equal(gn, grp_names[g]);
		assert_int_equal(mib_group_lookup(gn), (int)g);
		assert_int_equal(first, next);	/* laid end to end */
		assert_true(cnt > 0);
		next = first + cnt;
		total += cnt;
		for (f = first; f < first + cnt; f++) {
			const char *fn = mib_field_name(f);

			assert_non_null(fn);
			assert_true(fn[0] != '\0');
			assert_int_equal(mib_field_group(f), g);
			assert_non_null(mib_field_help(f));
			assert_int_equal(mib_field_lookup(gn, fn), (int)f);
			for (i = first; i < f; i++)
				if (strcmp(mib_field_name(i), fn) == 0)
					fail_msg("%s.%s twice (fields %u and %u)", gn, fn, i, f);
		}
	}
	assert_int_equal(total, MIB_FIELD_MAX);

	__check_linux_group(MIB_GRP_IP, linux_ip, RTE_DIM(linux_ip));
	__check_linux_group(MIB_GRP_ICMP, linux_icmp, RTE_DIM(linux_icmp));
	__check_linux_group(MIB_GRP_TCP, linux_tcp, RTE_DIM(linux_tcp));
	__check_linux_group(MIB_GRP_UDP, linux_udp, RTE_DIM(linux_udp));
	__check_linux_group(MIB_GRP_UDPLITE, linux_udp, RTE_DIM(linux_udp));
	__check_linux_group(MIB_GRP_IP6, linux_ip6, RTE_DIM(linux_ip6));
	__check_linux_group(MIB_GRP_ICMP6, linux_icmp6, RTE_DIM(linux_icmp6));
	__check_linux_group(MIB_GRP_UDP6, linux_udp, RTE_DIM(linux_udp));
	__check_linux_group(MIB_GRP_UDPLITE6, linux_udp, RTE_DIM(linux_udp));
	/* Icmp6Msg: InType0..InType255, OutType0..OutType255 */
	assert_int_equal(mib_group_count(MIB_GRP_ICMP6MSG), 512);
	for (i = 0; i < 256; i++) {
		char n[16], l[32];

		snprintf(n, sizeof(n), "InType%u", i);
		assert_string_equal(mib_field_name(MIB_ICMP6MSG_IN(i)), n);
		snprintf(n, sizeof(n), "Icmp6InType%u", i);
		assert_string_equal(
			mib_field_linux_name(MIB_ICMP6MSG_IN(i), l, sizeof(l)), n);
		snprintf(n, sizeof(n), "OutType%u", i);
		assert_string_equal(mib_field_name(MIB_ICMP6MSG_OUT(i)), n);
	}
	{
		char l[32];

		assert_string_equal(
			mib_field_linux_name(MIB_F(IP6, INRECEIVES), l, sizeof(l)),
			"Ip6InReceives");
		assert_string_equal(
			mib_field_linux_name(MIB_F(UDPLITE6, NOPORTS), l, sizeof(l)),
			"UdpLite6NoPorts");
		assert_string_equal(
			mib_field_linux_name(MIB_F(IP, INRECEIVES), l, sizeof(l)),
			"InReceives");
		assert_null(mib_field_linux_name(MIB_FIELD_MAX, l, sizeof(l)));
		assert_string_equal(mib_icmp6_type_name(143), "MLDv2Reports");
		assert_null(mib_icmp6_type_name(0));
		assert_null(mib_icmp6_type_name(256));
	}
	/* IcmpMsg: InType0..InType255, sparse (with Icmp6Msg, the sparse groups) */
	assert_int_equal(mib_group_count(MIB_GRP_ICMPMSG), 256);
	for (i = 0; i < 256; i++) {
		char n[16];

		snprintf(n, sizeof(n), "InType%u", i);
		assert_string_equal(mib_field_name(MIB_ICMPMSG_IN(i)), n);
	}
	for (g = 0; g < MIB_GRP_MAX; g++)
		assert_int_equal(mib_group_sparse((enum mib_group)g),
				 g == MIB_GRP_ICMPMSG || g == MIB_GRP_ICMP6MSG);
	assert_false(mib_group_sparse(MIB_GRP_MAX));
	__check_linux_group(MIB_GRP_IPEXT, linux_ipext, RTE_DIM(linux_ipext));

	/* the flat index and the lookups agree */
	assert_int_equal(mib_field_lookup("Ip", "InReceives"), MIB_F(IP, INRECEIVES));
	assert_int_equal(mib_field_lookup("IpExt", "InCsumErrors"), MIB_F(IPEXT, INCSUMERRORS));
	assert_int_equal(mib_field_lookup("Udp", "InCsumErrors"), MIB_F(UDP, INCSUMERRORS));
	assert_int_equal(mib_field_lookup("Rx", "RxPackets"), MIB_F(RX, PACKETS));
	assert_int_equal(mib_field_lookup("Rx", "BusyCycles"), MIB_F(RX, BUSYCYCLES));
	assert_int_equal(mib_field_lookup("Path", "IpInvalidSource"), MIB_F(PATH, IPINVALIDSOURCE));
	assert_int_equal(mib_field_lookup("Ingress", "GracePeriodMaxUs"),
			 MIB_F(INGRESS, GRACEPERIODMAXUS));
	/* the Rx fields the issue names */
	{
		static const char *const rx[] = { "RxPackets", "RxOctets", "RxBursts",
			"RxEmptyPolls", "RxNotIp", "RxOtherHost", "BusyCycles", "IdleCycles" };

		for (i = 0; i < RTE_DIM(rx); i++)
			assert_true(mib_field_lookup("Rx", rx[i]) >= (int)MIB_BASE_RX);
	}
	/* misses and bounds */
	assert_int_equal(mib_group_lookup("ip"), -1);
	assert_int_equal(mib_group_lookup("IP"), -1);
	assert_int_equal(mib_group_lookup(""), -1);
	assert_int_equal(mib_group_lookup(NULL), -1);
	assert_int_equal(mib_field_lookup("Ip", "inreceives"), -1);
	assert_int_equal(mib_field_lookup("Ip", "InDatagrams"), -1);
	assert_int_equal(mib_field_lookup("Nope", "InReceives"), -1);
	assert_int_equal(mib_field_lookup(NULL, "InReceives"), -1);
	assert_int_equal(mib_field_lookup("Ip", NULL), -1);
	assert_null(mib_field_name(MIB_FIELD_MAX));
	assert_null(mib_field_name(~0u));
	assert_null(mib_field_help(MIB_FIELD_MAX));
	assert_int_equal(mib_field_group(MIB_FIELD_MAX), MIB_GRP_MAX);
	assert_string_equal(mib_group_name(MIB_GRP_MAX), "?");
	assert_int_equal(mib_group_count(MIB_GRP_MAX), 0);
	assert_int_equal(mib_group_first(MIB_GRP_MAX), MIB_FIELD_MAX);
}

static void
test_kinds(void **state)
{
	static const struct { unsigned int f; int64_t v; } consts[] = {
		{ MIB_F(IP, FORWARDING), 2 }, { MIB_F(IP, DEFAULTTTL), 64 },
		{ MIB_F(TCP, RTOALGORITHM), 1 }, { MIB_F(TCP, RTOMIN), 200 },
		{ MIB_F(TCP, RTOMAX), 120000 }, { MIB_F(TCP, MAXCONN), -1 } };
	struct mib_set *s = mib_set_create(3, MIB_LAYOUT_PERCPU, NULL);
	uint64_t tot[MIB_FIELD_MAX];
	struct mib_block b;
	unsigned int f, i, nconst = 0, nmax = 0;
	char line[32];

	(void)state;
	for (f = 0; f < MIB_FIELD_MAX; f++) {
		enum mib_kind k = mib_field_kind(f);

		if (k == MIB_KIND_CONST) {
			nconst++;
			for (i = 0; i < RTE_DIM(consts) && consts[i].f != f; i++)
				;
			if (i == RTE_DIM(consts))
				fail_msg("%s is CONST", mib_field_name(f));
			assert_int_equal(mib_field_const(f), consts[i].v);
		} else if (k == MIB_KIND_HWM) {
			nmax++;
			assert_int_equal(f, MIB_F(INGRESS, GRACEPERIODMAXUS));
		} else {
			assert_int_equal(k, MIB_KIND_SUM);
			assert_int_equal(mib_field_const(f), 0);
		}
	}
	assert_int_equal(nconst, RTE_DIM(consts));
	assert_int_equal(nmax, 1);

	/* Constants fold to their value whatever the blocks hold; MaxConn
	 * prints as -1. */
	assert_non_null(s);
	b = mib_set_block(s, 1);
	mib_add(&b, MIB_F(IP, FORWARDING), 7);
	mib_add(&b, MIB_F(TCP, MAXCONN), 7);
	for (i = 0; i < MIB_FOLD_MAX; i++) {
		mib_fold(s, (enum mib_fold)i, tot, NULL);
		assert_int_equal(tot[MIB_F(IP, FORWARDING)], 2);
		assert_int_equal(tot[MIB_F(IP, DEFAULTTTL)], 64);
		assert_int_equal(tot[MIB_F(TCP, RTOMAX)], 120000);
		snprintf(line, sizeof(line), "%" PRId64, (int64_t)tot[MIB_F(TCP, MAXCONN)]);
		assert_string_equal(line, "-1");
	}
	mib_set_free(s);
}

static void
test_names_parse(void **state)
{
	enum mib_layout l = MIB_LAYOUT_SHARED;
	enum mib_fold fo = MIB_FOLD_LCORE;

	(void)state;
	assert_string_equal(mib_layout_name(MIB_LAYOUT_PERCPU), "percpu");
	assert_string_equal(mib_layout_name(MIB_LAYOUT_SHARED), "shared");
	assert_string_equal(mib_layout_name(MIB_LAYOUT_MAX), "?");
	assert_string_equal(mib_fold_name(MIB_FOLD_FIELD), "field");
	assert_string_equal(mib_fold_name(MIB_FOLD_LCORE), "lcore");
	assert_string_equal(mib_fold_name(MIB_FOLD_MAX), "?");
	assert_int_equal(mib_layout_parse("percpu", &l), 0);
	assert_int_equal(l, MIB_LAYOUT_PERCPU);
	assert_int_equal(mib_layout_parse("shared", &l), 0);
	assert_int_equal(l, MIB_LAYOUT_SHARED);
	assert_int_equal(mib_layout_parse("Shared", &l), -EINVAL);
	assert_int_equal(mib_layout_parse("", &l), -EINVAL);
	assert_int_equal(mib_layout_parse(NULL, &l), -EINVAL);
	assert_int_equal(l, MIB_LAYOUT_SHARED);	/* untouched on error */
	assert_int_equal(mib_fold_parse("field", &fo), 0);
	assert_int_equal(fo, MIB_FOLD_FIELD);
	assert_int_equal(mib_fold_parse("lcore", &fo), 0);
	assert_int_equal(fo, MIB_FOLD_LCORE);
	assert_int_equal(mib_fold_parse("cpu", &fo), -EINVAL);
	assert_int_equal(mib_fold_parse(NULL, &fo), -EINVAL);
	assert_int_equal(fo, MIB_FOLD_LCORE);
}

/* ---- sets and blocks ---- */

static void
test_sets(void **state)
{
	static const unsigned int ns[] = { 1, 2, 3, 4, 5, 8, 9, 64, 255, 256, 257 };
	struct mib_set *s;
	struct mib_block b, c;
	unsigned int k, i, f;

	(void)state;
	errno = 0;
	assert_null(mib_set_create(0, MIB_LAYOUT_PERCPU, NULL));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(mib_set_create(4, MIB_LAYOUT_MAX, NULL));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(mib_set_create(65537, MIB_LAYOUT_PERCPU, NULL));
	assert_int_equal(errno, EINVAL);
	mib_set_free(NULL);

	for (k = 0; k < RTE_DIM(ns); k++) {
		unsigned int shift = 0;

		while ((1u << shift) < ns[k])
			shift++;
		/* percpu: aligned, distinct, zeroed blocks */
		s = mib_set_create(ns[k], MIB_LAYOUT_PERCPU, NULL);
		assert_non_null(s);
		assert_int_equal(mib_set_count(s), ns[k]);
		assert_int_equal(mib_set_layout(s), MIB_LAYOUT_PERCPU);
		for (i = 0; i < ns[k]; i++) {
			b = mib_set_block(s, i);
			assert_non_null(b.base);
			assert_int_equal(b.shift, 0);
			assert_int_equal((uintptr_t)b.base % RTE_CACHE_LINE_SIZE, 0);
			if (i > 0) {
				c = mib_set_block(s, i - 1);
				assert_true(b.base >= c.base + MIB_FIELD_MAX ||
					    c.base >= b.base + MIB_FIELD_MAX);
			}
			for (f = 0; f < MIB_FIELD_MAX; f++)
				assert_int_equal(mib_read(&b, f), 0);
		}
		assert_null(mib_set_block(s, ns[k]).base);
		mib_set_free(s);

		/* shared: counter f of block l at f * stride + l */
		s = mib_set_create(ns[k], MIB_LAYOUT_SHARED, NULL);
		assert_non_null(s);
		assert_int_equal(mib_set_layout(s), MIB_LAYOUT_SHARED);
		c = mib_set_block(s, 0);
		for (i = 0; i < ns[k]; i++) {
			b = mib_set_block(s, i);
			assert_ptr_equal(b.base, c.base + i);
			assert_int_equal(b.shift, shift);
			for (f = 0; f < MIB_FIELD_MAX; f++)
				assert_int_equal(mib_read(&b, f), 0);
		}
		assert_null(mib_set_block(s, ns[k]).base);
		mib_set_free(s);
	}

	/* add / inc / max / read */
	s = mib_set_create(2, MIB_LAYOUT_SHARED, NULL);
	assert_non_null(s);
	b = mib_set_block(s, 1);
	c = mib_set_block(s, 0);
	mib_inc(&b, MIB_F(IP, INRECEIVES));
	mib_add(&b, MIB_F(IP, INRECEIVES), 41);
	mib_max(&b, MIB_F(INGRESS, GRACEPERIODMAXUS), 10);
	mib_max(&b, MIB_F(INGRESS, GRACEPERIODMAXUS), 3);
	mib_add(&b, MIB_F(CAPTURE, OVERFLOW), UINT64_MAX);
	mib_inc(&b, MIB_F(CAPTURE, OVERFLOW));	/* wraps like a u64 */
	assert_int_equal(mib_read(&b, MIB_F(IP, INRECEIVES)), 42);
	assert_int_equal(mib_read(&b, MIB_F(INGRESS, GRACEPERIODMAXUS)), 10);
	assert_int_equal(mib_read(&b, MIB_F(CAPTURE, OVERFLOW)), 0);
	for (f = 0; f < MIB_FIELD_MAX; f++)
		assert_int_equal(mib_read(&c, f), 0);
	mib_set_free(s);
}

/* ---- folding ---- */

static uint64_t rng = 0x2545f4914f6cdd1dULL;

/* Some fields get huge values (the sums wrap), most small ones. */
static uint64_t
__rand_val(void)
{
	uint64_t r = test_rand(&rng);

	switch (r & 7) {
	case 0: return 0;
	case 1: return test_rand(&rng);
	default: return (r >> 8) & 0xffff;
	}
}

/*
 * Percpu blocks are whole pages, page-aligned (field f at the same page
 * offset in every block, as in Linux per-CPU units); mib_fold_part() keeps
 * the first blocks' values and still counts every block in the totals;
 * blocks nobody writes add nothing, in either strategy.
 */
static void
test_pages_part(void **state)
{
	static const unsigned int ns[] = { 1, 2, 255, 256 };
	uint64_t tot[MIB_FIELD_MAX], ref[MIB_FIELD_MAX], pb[3 * MIB_FIELD_MAX];
	unsigned int k, i, f, fo;

	(void)state;
	assert_int_equal(MIB_BLOCK_BYTES % 4096, 0);
	assert_true(MIB_BLOCK_BYTES >= MIB_FIELD_MAX * sizeof(uint64_t));
	assert_true(MIB_BLOCK_BYTES < MIB_FIELD_MAX * sizeof(uint64_t) + 4096);
	assert_int_equal(mib_set_bytes_for(256, MIB_LAYOUT_PERCPU),
			 256 * (size_t)MIB_BLOCK_BYTES);
	assert_int_equal(mib_set_bytes_for(3, MIB_LAYOUT_SHARED),
			 4 * (size_t)MIB_FIELD_MAX * sizeof(uint64_t));
	for (k = 0; k < RTE_DIM(ns); k++) {
		struct mib_set *s = mib_set_create(ns[k], MIB_LAYOUT_PERCPU, NULL);
		struct mib_set *r = mib_set_create(RTE_MIN(ns[k], 2u),
						   MIB_LAYOUT_PERCPU, NULL);

		assert_non_null(s);
		assert_non_null(r);
		assert_int_equal(mib_set_bytes(s), ns[k] * (size_t)MIB_BLOCK_BYTES);
		for (i = 0; i < ns[k]; i++)
			assert_int_equal((uintptr_t)mib_set_block(s, i).base % 4096, 0);
		/* the first two blocks written, the others are phantoms */
		for (i = 0; i < RTE_MIN(ns[k], 2u); i++) {
			struct mib_block b = mib_set_block(s, i), c = mib_set_block(r, i);

			for (f = 0; f < MIB_FIELD_MAX; f++) {
				uint64_t v = __rand_val();

				if (mib_field_kind(f) == MIB_KIND_HWM) {
					mib_max(&b, f, v);
					mib_max(&c, f, v);
				} else {
					mib_add(&b, f, v);
					mib_add(&c, f, v);
				}
			}
		}
		mib_fold(r, MIB_FOLD_FIELD, ref, NULL);
		for (fo = 0; fo < MIB_FOLD_MAX; fo++) {
			unsigned int np = RTE_MIN(ns[k], 3u);

			memset(pb, 0xee, sizeof(pb));
			mib_fold_part(s, (enum mib_fold)fo, tot, pb, np);
			assert_memory_equal(tot, ref, sizeof(tot));
			for (i = 0; i < np; i++) {
				struct mib_block b = mib_set_block(s, i);

				for (f = 0; f < MIB_FIELD_MAX; f++)
					assert_int_equal(pb[(size_t)i * MIB_FIELD_MAX + f],
							 mib_read(&b, f));
			}
			if (np < 3)	/* nothing past n_per_block is written */
				assert_int_equal(pb[(size_t)np * MIB_FIELD_MAX],
						 0xeeeeeeeeeeeeeeeeull);
			mib_fold_part(s, (enum mib_fold)fo, tot, NULL, np);
			assert_memory_equal(tot, ref, sizeof(tot));
			mib_fold(s, (enum mib_fold)fo, tot, NULL);
			assert_memory_equal(tot, ref, sizeof(tot));
		}
		mib_set_free(s);
		mib_set_free(r);
	}
}

static void
test_fold_random(void **state)
{
	uint64_t *want = malloc(256 * (size_t)MIB_FIELD_MAX * sizeof(uint64_t));
	uint64_t *pb_f = malloc(256 * (size_t)MIB_FIELD_MAX * sizeof(uint64_t));
	uint64_t *pb_l = malloc(256 * (size_t)MIB_FIELD_MAX * sizeof(uint64_t));
	uint64_t exp_tot[MIB_FIELD_MAX], tot_f[MIB_FIELD_MAX], tot_l[MIB_FIELD_MAX];
	uint64_t tot_n[MIB_FIELD_MAX];
	unsigned int lay, n, l, f;
	size_t i;

	(void)state;
	assert_non_null(want);
	assert_non_null(pb_f);
	assert_non_null(pb_l);
	for (lay = 0; lay < MIB_LAYOUT_MAX; lay++) {
		for (n = 1; n <= 256; n++) {
			struct mib_set *s = mib_set_create(n, (enum mib_layout)lay, NULL);

			assert_non_null(s);
			memset(exp_tot, 0, sizeof(exp_tot));
			for (l = 0; l < n; l++) {
				struct mib_block b = mib_set_block(s, l);

				for (f = 0; f < MIB_FIELD_MAX; f++) {
					uint64_t v = __rand_val();
					uint64_t *w = &want[(size_t)l * MIB_FIELD_MAX + f];

					if (mib_field_kind(f) == MIB_KIND_HWM) {
						mib_max(&b, f, v);
						mib_max(&b, f, v / 2);	/* no effect */
					} else {
						mib_add(&b, f, v / 3);
						mib_add(&b, f, v - v / 3);
					}
					*w = v;
					if (mib_field_kind(f) == MIB_KIND_HWM)
						exp_tot[f] = RTE_MAX(exp_tot[f], v);
					else
						exp_tot[f] += v;
				}
			}
			for (f = 0; f < MIB_FIELD_MAX; f++)
				if (mib_field_kind(f) == MIB_KIND_CONST)
					exp_tot[f] = (uint64_t)mib_field_const(f);
			memset(pb_f, 0xee, (size_t)n * MIB_FIELD_MAX * sizeof(uint64_t));
			memset(pb_l, 0xee, (size_t)n * MIB_FIELD_MAX * sizeof(uint64_t));
			mib_fold(s, MIB_FOLD_FIELD, tot_f, pb_f);
			mib_fold(s, MIB_FOLD_LCORE, tot_l, pb_l);
			mib_fold(s, MIB_FOLD_LCORE, tot_n, NULL);
			for (f = 0; f < MIB_FIELD_MAX; f++) {
				if (tot_f[f] != exp_tot[f] || tot_l[f] != exp_tot[f] ||
				    tot_n[f] != exp_tot[f])
					fail_msg("%s n=%u %s: field %" PRIu64 " lcore %" PRIu64
						 " expected %" PRIu64, mib_layout_name(lay), n,
						 mib_field_name(f), tot_f[f], tot_l[f], exp_tot[f]);
			}
			for (i = 0; i < (size_t)n * MIB_FIELD_MAX; i++)
				if (pb_f[i] != want[i] || pb_l[i] != want[i])
					fail_msg("%s n=%u block %zu %s: %" PRIu64 " %" PRIu64
						 " expected %" PRIu64, mib_layout_name(lay), n,
						 i / MIB_FIELD_MAX,
						 mib_field_name(i % MIB_FIELD_MAX),
						 pb_f[i], pb_l[i], want[i]);
			mib_set_free(s);
		}
	}
	free(want);
	free(pb_f);
	free(pb_l);
}

/* ---- delta ---- */

static void
test_delta(void **state)
{
	uint64_t cur[MIB_FIELD_MAX], base[MIB_FIELD_MAX], out[MIB_FIELD_MAX];
	uint64_t add[MIB_FIELD_MAX];
	struct mib_set *s;
	struct mib_block b;
	unsigned int f, l;

	(void)state;
	for (f = 0; f < MIB_FIELD_MAX; f++) {
		base[f] = test_rand(&rng);
		cur[f] = base[f] + (test_rand(&rng) & 0xffffff);
	}
	mib_delta(cur, base, out);
	for (f = 0; f < MIB_FIELD_MAX; f++)
		assert_int_equal(out[f], mib_field_kind(f) == MIB_KIND_SUM ?
				 cur[f] - base[f] : cur[f]);
	memcpy(add, cur, sizeof(cur));
	mib_delta(add, base, add);	/* out aliases cur */
	assert_memory_equal(add, out, sizeof(out));

	/* Clear by baseline: snapshot, write more, fold, subtract. */
	s = mib_set_create(4, MIB_LAYOUT_SHARED, NULL);
	assert_non_null(s);
	for (l = 0; l < 4; l++) {
		b = mib_set_block(s, l);
		for (f = 0; f < MIB_FIELD_MAX; f++)
			if (mib_field_kind(f) == MIB_KIND_HWM)
				mib_max(&b, f, 100 + l);
			else
				mib_add(&b, f, test_rand(&rng) & 0xffff);
	}
	mib_fold(s, MIB_FOLD_LCORE, base, NULL);
	memset(add, 0, sizeof(add));
	for (l = 0; l < 4; l++) {
		b = mib_set_block(s, l);
		for (f = 0; f < MIB_FIELD_MAX; f++) {
			uint64_t v = test_rand(&rng) & 0xff;

			if (mib_field_kind(f) == MIB_KIND_HWM)
				continue;
			mib_add(&b, f, v);
			add[f] += v;
		}
	}
	mib_fold(s, MIB_FOLD_FIELD, cur, NULL);
	mib_delta(cur, base, out);
	for (f = 0; f < MIB_FIELD_MAX; f++) {
		switch (mib_field_kind(f)) {
		case MIB_KIND_SUM:
			assert_int_equal(out[f], add[f]);
			break;
		case MIB_KIND_HWM:
			assert_int_equal(out[f], 103);	/* a high-water mark is kept */
			break;
		default:
			assert_int_equal(out[f], (uint64_t)mib_field_const(f));
			break;
		}
	}
	mib_set_free(s);
}

/* ---- conservation ---- */

struct term {
	unsigned int f;
	uint64_t v;
	int law;	/* first law the field takes part in */
};

#define T(G, N, V, L) { MIB_F(G, N), V, L }

/* the laws' terms, laid out by hand */
/* clang-format off */
static const struct term terms[] = {
	/* RxPackets = RxNotIp + RxOtherHost + RxNoPath + IngressDropped
	 *             + InReceives + Ip6InReceives */
	T(RX, PACKETS, 120, 0), T(RX, NOTIP, 5, 0), T(RX, OTHERHOST, 3, 0),
	T(RX, NOPATH, 2, 0), T(INGRESS, DROPPED, 4, 0), T(IP, INRECEIVES, 86, 0),
	T(IP6, INRECEIVES, 20, 0),
	/* IngressPackets = IngressPassed + IngressDropped */
	T(INGRESS, PACKETS, 30, 1), T(INGRESS, PASSED, 26, 1),
	/* InReceives = InDelivers + IP drops */
	T(IP, INDELIVERS, 50, 2), T(IP, INHDRERRORS, 10, 2), T(IPEXT, INTRUNCATEDPKTS, 3, 2),
	T(IP, INDISCARDS, 1, 2), T(IP, INADDRERRORS, 4, 2), T(IP, INUNKNOWNPROTOS, 2, 2),
	T(PATH, IPFRAGQUEUED, 3, 2), T(PATH, IPFRAGDROPPED, 2, 2), T(PATH, IPINVALIDSOURCE, 3, 2),
	T(PATH, IPINVALIDDEST, 2, 2),
	T(PATH, IPMCASTNOTJOINED, 4, 2), T(PATH, IPSRCROUTE, 2, 2),
	/* Ip6InReceives = Ip6InDelivers + IPv6 drops */
	T(IP6, INDELIVERS, 10, 3), T(IP6, INHDRERRORS, 2, 3), T(IP6, INNOROUTES, 1, 3),
	T(IP6, INADDRERRORS, 1, 3), T(IP6, INUNKNOWNPROTOS, 1, 3),
	T(IP6, INTRUNCATEDPKTS, 1, 3), T(IP6, INDISCARDS, 1, 3), T(PATH, IP6FRAGQUEUED, 1, 3),
	T(PATH, IP6MCASTNOTJOINED, 1, 3), T(PATH, IP6SEGROUTINGOFF, 1, 3),
	/* InDelivers + Ip6InDelivers = L4 outcomes */
	T(UDP, INDATAGRAMS, 14, 4), T(UDP, NOPORTS, 5, 4), T(UDP, INERRORS, 4, 4),
	T(UDP, IGNOREDMULTI, 3, 4), T(UDPLITE, INDATAGRAMS, 2, 4), T(UDPLITE, NOPORTS, 1, 4),
	T(UDPLITE, INERRORS, 1, 4), T(UDPLITE, IGNOREDMULTI, 1, 4),
	T(TCP, INSEGS, 8, 4), T(PATH, TCPNOTHOST, 2, 4),
	T(ICMP, INMSGS, 6, 4), T(PATH, IGMPDELIVERED, 2, 4), T(PATH, PIMDELIVERED, 1, 4),
	T(UDP6, INDATAGRAMS, 3, 4), T(UDP6, NOPORTS, 1, 4), T(UDP6, INERRORS, 1, 4),
	T(UDP6, IGNOREDMULTI, 1, 4), T(UDPLITE6, INDATAGRAMS, 1, 4), T(ICMP6, INMSGS, 2, 4),
	T(PATH, IP6NONEXTHDR, 1, 4),
	/* ReasmReqds = IpFragQueued + IpFragDropped + ReasmOKs (laws 2 and 6) */
	T(IP, REASMREQDS, 7, 6), T(IP, REASMOKS, 2, 6),
	/* Ip6ReasmReqds = Ip6FragQueued + Ip6FragDropped + Ip6ReasmOKs
	 *                 + Ip6FragHdrErrors (Ip6FragDropped 0) */
	T(IP6, REASMREQDS, 4, 7), T(IP6, REASMOKS, 1, 7), T(PATH, IP6FRAGHDRERRORS, 2, 7),
};
/* clang-format on */

/* the path laws' left-hand sides (Mode's is not one) */
static const char *const law_name[MIB_LAW_MAX] = {
	[MIB_LAW_RX] = "RxPackets ",
	[MIB_LAW_INGRESS] = "IngressPackets ",
	[MIB_LAW_IP] = "InReceives ",
	[MIB_LAW_IP6] = "Ip6InReceives ",
	[MIB_LAW_L4] = "InDelivers + Ip6InDelivers ",
	[MIB_LAW_REASM] = "ReasmReqds ",
	[MIB_LAW_REASM6] = "Ip6ReasmReqds ",
};

static void
__consistent(uint64_t *t)
{
	unsigned int f, i;

	/* every field not in a law is noise the check must ignore; a term of
	 * a law that the list below leaves out (the table has more) is 0 */
	for (f = 0; f < MIB_FIELD_MAX; f++)
		t[f] = mib_field_laws(f) != 0 ? 0 : test_rand(&rng);
	for (i = 0; i < RTE_DIM(terms); i++)
		t[terms[i].f] = terms[i].v;
}

static void
test_conservation(void **state)
{
	uint64_t t[MIB_FIELD_MAX];
	char why[256];
	unsigned int i, d;

	(void)state;
	__consistent(t);
	memset(why, 'x', sizeof(why));
	assert_int_equal(mib_check_conservation(t, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(mib_check_conservation(t, NULL, 0), 0);

	/* all zero is consistent too */
	memset(t, 0, sizeof(t));
	assert_int_equal(mib_check_conservation(t, why, sizeof(why)), 0);

	/* moving any single term by +1 or -1 breaks its (first) law */
	for (i = 0; i < RTE_DIM(terms); i++) {
		for (d = 0; d < 2; d++) {
			__consistent(t);
			t[terms[i].f] += d == 0 ? 1 : (uint64_t)-1;
			why[0] = '\0';
			if (mib_check_conservation(t, why, sizeof(why)) != -1)
				fail_msg("%s %s1 accepted", mib_field_name(terms[i].f),
					 d == 0 ? "+" : "-");
			if (strncmp(why, law_name[terms[i].law],
				    strlen(law_name[terms[i].law])) != 0 ||
			    strstr(why, " != ") == NULL)
				fail_msg("%s %s1: \"%s\"", mib_field_name(terms[i].f),
					 d == 0 ? "+" : "-", why);
			assert_int_equal(mib_check_conservation(t, NULL, 0), -1);
		}
	}

	/* the message carries both sides */
	__consistent(t);
	t[MIB_F(UDP, NOPORTS)]++;
	assert_int_equal(mib_check_conservation(t, why, sizeof(why)), -1);
	assert_string_equal(why, "InDelivers + Ip6InDelivers 60 != L4 outcomes 61");
	__consistent(t);
	t[MIB_F(RX, NOTIP)] += 2;
	assert_int_equal(mib_check_conservation(t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "RxPackets 120 != "));
	assert_non_null(strstr(why, " 122"));
	/* a short buffer is truncated, not overrun */
	memset(why, 'x', sizeof(why));
	assert_int_equal(mib_check_conservation(t, why, 8), -1);
	assert_int_equal(strlen(why), 7);
	assert_int_equal(why[8], 'x');
}

/* mib_conservation_eval: the same five laws as mib_check_conservation, in
 * its order and with its names, then RxPackets = the Mode packets. */
static void
test_conservation_eval(void **state)
{
	static const char *const mode_fields[MIB_MODES] = { "ModeOffPackets",
		"ModeNonePackets", "ModeLockPackets", "ModeRwlockPackets", "ModeRcuPackets" };
	struct mib_law laws[MIB_N_LAWS];
	uint64_t t[MIB_FIELD_MAX];
	char why[256];
	unsigned int i, m, k;

	(void)state;
	__consistent(t);
	mib_conservation_eval(t, laws);
	for (i = 0; i < RTE_DIM(law_name); i++) {
		size_t n = strlen(laws[i].lhs_name);

		if (law_name[i] == NULL)
			continue;
		assert_int_equal(laws[i].lhs, laws[i].rhs);
		/* law_name[i] is the name and a blank */
		assert_int_equal(strlen(law_name[i]), n + 1);
		assert_int_equal(strncmp(law_name[i], laws[i].lhs_name, n), 0);
	}
	/* each term breaks exactly its first law, by exactly its amount */
	for (i = 0; i < RTE_DIM(terms); i++) {
		__consistent(t);
		t[terms[i].f] += 7;
		assert_int_equal(mib_check_conservation(t, why, sizeof(why)), -1);
		mib_conservation_eval(t, laws);
		for (k = 0; k <= (unsigned int)terms[i].law; k++) {
			int64_t d = (int64_t)(laws[k].rhs - laws[k].lhs);

			if (k == MIB_LAW_MODE) /* not the path's: broken here */
				continue;
			if (k < (unsigned int)terms[i].law)
				assert_int_equal(d, 0);
			else
				assert_true(d == 7 || d == -7);
		}
		assert_non_null(strstr(why, laws[terms[i].law].rhs_name));
	}
	/* the Mode law: every mode's packets, and nothing else of the group */
	__consistent(t);
	for (m = 0; m < MIB_MODES; m++) {
		assert_int_equal(mib_field_lookup("Mode", mode_fields[m]),
				 (int)MIB_MODE_F(m, MIB_MODE_K_PACKETS));
		t[MIB_MODE_F(m, MIB_MODE_K_PACKETS)] = m == 2 ? 80 : 10;
		t[MIB_MODE_F(m, MIB_MODE_K_BUSY)] = 12345;
		t[MIB_MODE_F(m, MIB_MODE_K_IDLE)] = 678;
	}
	mib_conservation_eval(t, laws);
	assert_string_equal(laws[MIB_LAW_MODE].lhs_name, "RxPackets");
	assert_int_equal(laws[MIB_LAW_MODE].lhs, 120);
	assert_int_equal(laws[MIB_LAW_MODE].rhs, 120);
	t[MIB_MODE_F(4, MIB_MODE_K_PACKETS)]++;
	mib_conservation_eval(t, laws);
	assert_int_equal(laws[MIB_LAW_MODE].rhs, 121);
	/* the path laws do not look at the Mode group */
	assert_int_equal(mib_check_conservation(t, NULL, 0), 0);
	assert_int_equal(mib_field_lookup("Mode", "ModeRcuIdleCycles"),
			 (int)MIB_MODE_F(4, MIB_MODE_K_IDLE));
	assert_int_equal(mib_field_kind(MIB_MODE_F(3, MIB_MODE_K_BUSY)), MIB_KIND_SUM);
}

/* The Stage group: a triple per stage, named after its label, in no law
 * (its counters say where cycles go, not where packets end). */
static void
test_stage_group(void **state)
{
	static const char *const labels[] = { "rx", "l2", "ingress", "ip", "peer",
					      "capture", "free" };
	static const char *const names[] = { "Rx", "L2", "Ingress", "Ip", "Peer",
					     "Capture", "Free" };
	static const char *const kinds[] = { "Cycles", "Packets", "Calls" };
	char name[64];
	unsigned int s, k;

	(void)state;
	assert_int_equal(RTE_DIM(labels), MIB_STAGES);
	assert_int_equal(mib_group_count(MIB_GRP_STAGE), MIB_STAGES * MIB_STAGE_K_MAX);
	for (s = 0; s < MIB_STAGES; s++) {
		assert_string_equal(mib_stage_name(s), labels[s]);
		for (k = 0; k < MIB_STAGE_K_MAX; k++) {
			unsigned int f = MIB_STAGE_F(s, k);

			snprintf(name, sizeof(name), "Stage%s%s", names[s], kinds[k]);
			assert_int_equal(mib_field_lookup("Stage", name), (int)f);
			assert_int_equal(mib_field_kind(f), MIB_KIND_SUM);
			assert_int_equal(mib_field_role(f), MIB_ROLE_INFO);
			assert_int_equal(mib_field_laws(f), 0);
		}
	}
	assert_string_equal(mib_stage_name(MIB_STAGES), "?");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_stage_group),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_names_parse),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_fold_random),
		cmocka_unit_test(test_pages_part),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_conservation),
		cmocka_unit_test(test_conservation_eval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
