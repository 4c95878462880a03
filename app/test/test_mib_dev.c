/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/mib's per-device IPv6 MIBs (mib_dev.h): a device's fold,
 * its link message's and a link dump, with both strategies, equal what was counted into it on
 * every lcore (random counts, D devices x L lcores up to 1000 x 2 and
 * 3 x 256); the sizing of 1000 devices x 256 lcores and its bound; a set too
 * large refused before it is allocated, with the figure it needs; bad
 * devices, fields and strategies refused. No EAL needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_common.h>

#include "mib.h"
#include "mib_dev.h"
#include "test_rand.h"

/* Every field a device folds is a counter: a fold is a plain sum. */
static void
test_dev_kinds(void **state)
{
	unsigned int f;

	(void)state;
	for (f = MIB_BASE_IP6; f < MIB_BASE_IP6 + MIB_DEV_FIELDS; f++) {
		if (mib_field_kind(f) != MIB_KIND_SUM)
			fail_msg("%s is not a counter", mib_field_name(f));
		assert_true(mib_field_group(f) == MIB_GRP_IP6 ||
			    mib_field_group(f) == MIB_GRP_ICMP6 ||
			    mib_field_group(f) == MIB_GRP_ICMP6MSG);
	}
	assert_int_equal(MIB_DEV_FIELDS, MIB_BASE_UDP6 - MIB_BASE_IP6);
	assert_int_equal(MIB_DEV_LINK_FIELDS, MIB_BASE_ICMP6MSG - MIB_BASE_IP6);
}

/* Count random amounts into random fields of every (device, lcore), fold
 * each device and dump them all with both strategies: each value is what
 * was counted into that device, summed over its lcores. */
static void
check_fold(unsigned int devs, unsigned int lcores, uint64_t seed)
{
	struct mib_devset *ds = mib_devset_create(devs, lcores, NULL);
	uint64_t *want = calloc((size_t)devs * MIB_DEV_FIELDS, sizeof(uint64_t));
	uint64_t *got = calloc((size_t)devs * MIB_DEV_LINK_FIELDS, sizeof(uint64_t));
	uint64_t one[MIB_DEV_FIELDS], link[MIB_DEV_LINK_FIELDS + 1];
	unsigned int d, l, i, s;

	assert_non_null(ds);
	assert_non_null(want);
	assert_non_null(got);
	assert_int_equal(mib_devset_devs(ds), devs);
	assert_int_equal(mib_devset_lcores(ds), lcores);
	assert_int_equal(mib_devset_bytes(ds), mib_devset_bytes_for(devs, lcores));
	for (d = 0; d < devs; d++) {
		uint64_t *w = want + (size_t)d * MIB_DEV_FIELDS;

		for (l = 0; l < lcores; l++) {
			uint64_t *blk = mib_dev_ip6_block(ds, d, l);

			assert_non_null(blk);
			for (i = 0; i < 4; i++) {
				unsigned int f =
					(unsigned int)(test_rand(&seed) % MIB_DEV_IP6);
				uint64_t v = 1 + test_rand(&seed) % 1000;

				mib_dev_ip6_add(blk, f, v);
				w[f] += v;
			}
		}
		/* One of the Icmp6 group's (which a link message carries) for
		 * sure, then any of the ICMPv6 counters. */
		assert_int_equal(mib_dev_icmp6_add(ds, d,
						   MIB_BASE_ICMP6 + d % MIB_ICMP6_MAX,
						   d + 1),
				 0);
		w[MIB_DEV_IP6 + d % MIB_ICMP6_MAX] += d + 1;
		for (i = 0; i < 8; i++) {
			unsigned int k = (unsigned int)(test_rand(&seed) % MIB_DEV_ICMP);
			uint64_t v = 1 + test_rand(&seed) % 1000;

			assert_int_equal(mib_dev_icmp6_add(ds, d, MIB_BASE_ICMP6 + k, v),
					 0);
			w[MIB_DEV_IP6 + k] += v;
		}
	}
	for (s = 0; s < MIB_FOLD_MAX; s++) {
		const char *fn = mib_fold_name((enum mib_fold)s);

		for (d = 0; d < devs; d++) {
			const uint64_t *w = want + (size_t)d * MIB_DEV_FIELDS;

			memset(one, 0xa5, sizeof(one));
			assert_int_equal(mib_dev_fold(ds, d, (enum mib_fold)s, one), 0);
			if (memcmp(one, w, sizeof(one)) != 0)
				fail_msg("%u x %u, %s fold of device %u differs", devs,
					 lcores, fn, d);
			/* A link message's: Ip6 and Icmp6, nothing past them. */
			memset(link, 0xa5, sizeof(link));
			assert_int_equal(mib_dev_fold_link(ds, d, (enum mib_fold)s, link),
					 0);
			if (memcmp(link, w, MIB_DEV_LINK_FIELDS * sizeof(uint64_t)) != 0)
				fail_msg("%u x %u, %s link fold of device %u differs",
					 devs, lcores, fn, d);
			assert_true(link[MIB_DEV_LINK_FIELDS] == 0xa5a5a5a5a5a5a5a5ull);
		}
		memset(got, 0xa5, (size_t)devs * MIB_DEV_LINK_FIELDS * sizeof(uint64_t));
		assert_int_equal(mib_dev_dump(ds, (enum mib_fold)s, got), 0);
		for (d = 0; d < devs; d++)
			if (memcmp(got + (size_t)d * MIB_DEV_LINK_FIELDS,
				   want + (size_t)d * MIB_DEV_FIELDS,
				   MIB_DEV_LINK_FIELDS * sizeof(uint64_t)) != 0)
				fail_msg("%u x %u, %s dump differs at device %u", devs,
					 lcores, fn, d);
	}
	free(got);
	free(want);
	mib_devset_free(ds);
}

static void
test_dev_fold(void **state)
{
	static const unsigned int dl[][2] = {
		{ 1, 1 },   { 1, 2 },	{ 2, 1 },    { 3, 7 },	  { 10, 16 },
		{ 100, 3 }, { 3, 256 }, { 1000, 2 }, { 16, 160 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(dl); i++)
		check_fold(dl[i][0], dl[i][1], 0x9e3779b97f4a7c15ull + i);
}

/* The counters, not a page per block: the docker thread's 1000 devices on
 * 256 lcores fit in 128 MiB. */
static void
test_dev_sizing(void **state)
{
	const size_t region = RTE_ALIGN_CEIL((size_t)1000 * MIB_IP6_MAX * 8, 4096);
	const size_t icmp =
		RTE_ALIGN_CEIL((size_t)(MIB_ICMP6_MAX + MIB_ICMP6MSG_MAX) * 8, 64);
	size_t b = mib_devset_bytes_for(1000, 256);

	(void)state;
	print_message("1000 devices x 256 lcores: %zu bytes (%.1f MiB)\n", b,
		      (double)b / (1 << 20));
	assert_int_equal(b, 256 * region + 1000 * icmp);
	assert_true(b <= (size_t)128 << 20);
	assert_int_equal(mib_devset_bytes_for(1, 1), 4096 + icmp);
	assert_int_equal(mib_devset_bytes_for(MIB_DEV_MAX, MIB_SET_MAX),
			 (size_t)MIB_SET_MAX * RTE_ALIGN_CEIL((size_t)MIB_DEV_MAX *
								      MIB_IP6_MAX * 8,
							      4096) +
				 (size_t)MIB_DEV_MAX * icmp);
	assert_int_equal(mib_devset_bytes_for(0, 1), 0);
	assert_int_equal(mib_devset_bytes_for(1, 0), 0);
	assert_int_equal(mib_devset_bytes_for(MIB_DEV_MAX + 1, 1), 0);
	assert_int_equal(mib_devset_bytes_for(1, MIB_SET_MAX + 1), 0);
}

/* A set larger than what there is is refused before it is allocated, in
 * one line with the figure it would need. */
static void
test_dev_refusal(void **state)
{
	char why[160], want[160];
	size_t need = mib_devset_bytes_for(1000, 256);

	(void)state;
	assert_int_equal(mib_devset_check(1000, 256, need, why, sizeof(why)), 0);
	assert_int_equal(mib_devset_check(1000, 256, need - 1, why, sizeof(why)),
			 -ENOMEM);
	snprintf(
		want, sizeof(want),
		"1000 devices x 256 lcores need %.1f MiB of per-device IPv6 MIBs, %.1f MiB available",
		(double)need / (1 << 20), (double)(need - 1) / (1 << 20));
	assert_string_equal(why, want);
	assert_int_equal(mib_devset_check(1000, 256, 64u << 20, why, sizeof(why)),
			 -ENOMEM);
	assert_non_null(strstr(why, "need 69.0 MiB"));
	assert_non_null(strstr(why, "64.0 MiB available"));
	assert_int_equal(
		mib_devset_check(MIB_DEV_MAX, MIB_SET_MAX, UINT64_MAX >> 1, NULL, 0), 0);
	assert_int_equal(
		mib_devset_check(MIB_DEV_MAX + 1, 2, UINT64_MAX, why, sizeof(why)),
		-EINVAL);
	assert_non_null(strstr(why, "4097 devices x 2 lcores: devices must be 1..4096"));
	assert_int_equal(mib_devset_check(1, 0, UINT64_MAX, why, sizeof(why)), -EINVAL);
	errno = 0;
	assert_null(mib_devset_create(0, 2, NULL));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(mib_devset_create(2, MIB_SET_MAX + 1, NULL));
	assert_int_equal(errno, EINVAL);
}

/* Devices, lcores, fields and strategies out of range are refused, and
 * nothing is written. */
static void
test_dev_bad(void **state)
{
	struct mib_devset *ds = mib_devset_create(2, 2, NULL);
	uint64_t out[MIB_DEV_FIELDS];
	uint64_t dump[2 * MIB_DEV_LINK_FIELDS];
	unsigned int s;

	(void)state;
	assert_non_null(ds);
	assert_null(mib_dev_ip6_block(ds, 2, 0));
	assert_null(mib_dev_ip6_block(ds, 0, 2));
	assert_int_equal(mib_dev_icmp6_add(ds, 2, MIB_F(ICMP6, INMSGS), 1), -EINVAL);
	assert_int_equal(mib_dev_icmp6_add(ds, 0, MIB_F(IP6, INRECEIVES), 1), -EINVAL);
	assert_int_equal(mib_dev_icmp6_add(ds, 0, MIB_F(UDP6, INDATAGRAMS), 1), -EINVAL);
	assert_int_equal(mib_dev_icmp6_add(ds, 0, MIB_ICMP6MSG_OUT(255), 3), 0);
	assert_int_equal(mib_dev_fold(ds, 2, MIB_FOLD_FIELD, out), -EINVAL);
	assert_int_equal(mib_dev_fold(ds, 0, MIB_FOLD_MAX, out), -EINVAL);
	assert_int_equal(mib_dev_fold_link(ds, 2, MIB_FOLD_LCORE, out), -EINVAL);
	assert_int_equal(mib_dev_fold_link(ds, 0, MIB_FOLD_MAX, out), -EINVAL);
	assert_int_equal(mib_dev_dump(ds, MIB_FOLD_MAX, dump), -EINVAL);
	for (s = 0; s < MIB_FOLD_MAX; s++) {
		assert_int_equal(mib_dev_fold(ds, 0, (enum mib_fold)s, out), 0);
		assert_int_equal(out[MIB_ICMP6MSG_OUT(255) - MIB_BASE_IP6], 3);
		assert_int_equal(out[MIB_F(ICMP6, INMSGS) - MIB_BASE_IP6], 0);
		assert_int_equal(mib_dev_fold(ds, 1, (enum mib_fold)s, out), 0);
		assert_int_equal(out[MIB_ICMP6MSG_OUT(255) - MIB_BASE_IP6], 0);
	}
	mib_devset_free(ds);
	mib_devset_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dev_kinds),  cmocka_unit_test(test_dev_fold),
		cmocka_unit_test(test_dev_sizing), cmocka_unit_test(test_dev_refusal),
		cmocka_unit_test(test_dev_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
