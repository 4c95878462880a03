/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/base, linked with it alone (no EAL): base_name_index()
 * and base_name() (BASE_ENUM_NAME) over a table with a hole, and
 * base_median() over odd, even, one and no values, base_scale() against
 * 128-bit arithmetic. The libraries' own parse() of each enum is tested
 * with its library (test_mib, test_pkt, test_peer, test_ingress_rules).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base.h"

static void
test_name_index(void **state)
{
	static const char *const names[] = { "off", NULL, "on", "on-too" };

	(void)state;
	assert_int_equal(base_name_index(names, 4, "off"), 0);
	assert_int_equal(base_name_index(names, 4, "on"), 2);
	assert_int_equal(base_name_index(names, 4, "on-too"), 3);
	/* exact: no prefix, no case folding, nothing past n */
	assert_int_equal(base_name_index(names, 4, "o"), -1);
	assert_int_equal(base_name_index(names, 4, "OFF"), -1);
	assert_int_equal(base_name_index(names, 3, "on-too"), -1);
	assert_int_equal(base_name_index(names, 4, ""), -1);
	assert_int_equal(base_name_index(names, 4, NULL), -1);
	assert_int_equal(base_name_index(names, 0, "off"), -1);
}

enum colour {
	RED,
	GREEN,
	BLUE,
	COLOUR_MAX
};

static void
test_enum_name(void **state)
{
	static const char *const names[] = { "off", NULL, "on", "on-too" };
	/* BLUE has no name: the table is shorter than the enum */
	static const char *const colours[] = { [RED] = "red", [GREEN] = "green" };

	(void)state;
	assert_string_equal(base_name(names, 4, 0), "off");
	assert_string_equal(base_name(names, 4, 3), "on-too");
	/* never NULL: a hole, one past the end, far past it, an empty table */
	assert_string_equal(base_name(names, 4, 1), "?");
	assert_string_equal(base_name(names, 4, 4), "?");
	assert_string_equal(base_name(names, 4, ~0u), "?");
	assert_string_equal(base_name(names, 0, 0), "?");
	assert_int_equal(BASE_DIM(colours), 2);
	assert_string_equal(BASE_ENUM_NAME(colours, GREEN), "green");
	assert_string_equal(BASE_ENUM_NAME(colours, BLUE), "?");
	assert_string_equal(BASE_ENUM_NAME(colours, COLOUR_MAX), "?");
	assert_string_equal(BASE_ENUM_NAME(colours, (enum colour)99), "?");
}

static void
test_median(void **state)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 8, 2, 6 }, one[] = { 7 };
	double mn, mx;

	(void)state;
	assert_true(base_median(odd, 3, &mn, &mx) == 3);
	assert_true(mn == 1 && mx == 5 && odd[0] == 1 && odd[2] == 5);
	assert_true(base_median(even, 4, &mn, &mx) == 5);
	assert_true(mn == 2 && mx == 8);
	assert_true(base_median(one, 1, NULL, NULL) == 7);
	assert_true(base_median(NULL, 0, &mn, &mx) == 0 && mn == 0 && mx == 0);
}

/* base_quantile(): nearest rank, every boundary of a 10-value set */
static void
test_quantile(void **state)
{
	double v[] = { 5, 1, 4, 2, 3, 10, 9, 8, 7, 6 };
	unsigned int k;

	(void)state;
	assert_true(base_quantile(v, 10, 0.99) == 10);
	assert_true(base_quantile(v, 10, 0.5) == 5);
	assert_true(base_quantile(v, 10, 0.1) == 1);
	assert_true(base_quantile(v, 1, 0.99) == 1);
	assert_true(base_quantile(v, 0, 0.5) == 0);
	/* q = k/10 is the k-th smallest; just above it, the next */
	for (k = 1; k <= 10; k++) {
		assert_true(base_quantile(v, 10, k / 10.0) == k);
		if (k < 10)
			assert_true(base_quantile(v, 10, k / 10.0 + 0.01) == k + 1);
	}
}

/* The exact v * mul / div, saturated, the reference base_scale() must equal. */
static uint64_t
scale_ref(uint64_t v, uint64_t mul, uint64_t div)
{
	unsigned __int128 x = (unsigned __int128)v * mul / div;

	return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

/*
 * base_scale(): every cycles-to-time conversion (TSC hz 1 Hz .. 10 GHz, to
 * s, ms, us, ns) over values around each overflow boundary of v * mul
 * (where the naive product wraps: the capture's timestamps after ~2 h of a
 * 2.6 GHz TSC) and of the result, equal to 128-bit arithmetic.
 */
static void
test_scale(void **state)
{
	static const uint64_t hz[] = { 1, 1000, 2100000000u, 2600000000u, 10000000000u };
	static const uint64_t unit[] = { 1, 1000, 1000000, 1000000000 };
	uint64_t x = 88172645463325252u; /* xorshift64 */
	unsigned int h, u, i;

	(void)state;
	/* The capture's case: 3 h of a 2.6 GHz TSC in microseconds. */
	assert_int_equal(base_scale(3ull * 3600 * 2600000000u, 1000000, 2600000000u),
			 3ull * 3600 * 1000000);
	assert_int_equal(base_scale(5, 3, 0), 0);
	assert_int_equal(base_scale(UINT64_MAX, 1000, 1), UINT64_MAX);
	for (h = 0; h < BASE_DIM(hz); h++)
		for (u = 0; u < BASE_DIM(unit); u++) {
			uint64_t edge = UINT64_MAX / unit[u];
			const uint64_t v[] = { 0,	  1,	hz[h] - 1, hz[h],
					       edge - 1,  edge, edge + 1,  UINT64_MAX - 1,
					       UINT64_MAX };

			for (i = 0; i < BASE_DIM(v); i++)
				assert_int_equal(base_scale(v[i], unit[u], hz[h]),
						 scale_ref(v[i], unit[u], hz[h]));
			for (i = 0; i < 1000; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				assert_int_equal(
					base_scale(x >> (i % 64), unit[u], hz[h]),
					scale_ref(x >> (i % 64), unit[u], hz[h]));
			}
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_index), cmocka_unit_test(test_enum_name),
		cmocka_unit_test(test_median),	   cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
