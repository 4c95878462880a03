/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of base_quote() (lib/base/quote.c), linked with lib/base alone:
 * every byte value alone and among text, UTF-8 that passes and that does
 * not, and the length bound at every buffer size: the result is one line
 * with no raw control byte, and it can be read back to the input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base.h"

#define DIM(a) (sizeof(a) / sizeof((a)[0]))

/* No byte a terminal or a log would act on: C0, DEL, C1 (as UTF-8). */
static void
__assert_clean(const char *q)
{
	const unsigned char *p = (const unsigned char *)q;

	for (; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fail_msg("raw byte 0x%02x in \"%s\"", *p, q);
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fail_msg("raw C1 control U+%04X in \"%s\"", p[1], q);
	}
}

/* Read a rendering back: the bytes it stands for (no ellipsis in it). */
static size_t
__unquote(const char *q, char *out)
{
	size_t n = 0;
	unsigned int x;

	while (*q != '\0') {
		if (q[0] != '\\') {
			out[n++] = *q++;
			continue;
		}
		switch (q[1]) {
		case 'n': out[n++] = '\n'; q += 2; break;
		case 't': out[n++] = '\t'; q += 2; break;
		case 'r': out[n++] = '\r'; q += 2; break;
		case '\\': out[n++] = '\\'; q += 2; break;
		case 'x':
			assert_int_equal(sscanf(q + 2, "%2x", &x), 1);
			out[n++] = (char)x;
			q += 4;
			break;
		default:
			fail_msg("unknown escape in \"%s\"", q);
		}
	}
	out[n] = '\0';
	return n;
}

static void
test_every_byte(void **state)
{
	char in[8], q[64], back[64];
	unsigned int b;

	(void)state;
	for (b = 1; b < 256; b++) {
		snprintf(in, sizeof(in), "a%cz", (char)b);
		base_quote(q, sizeof(q), in);
		__assert_clean(q);
		__unquote(q, back);
		assert_string_equal(back, in);
		if ((b >= 0x20 && b < 0x7f && b != '\\'))
			assert_string_equal(q, in);
		else if (b >= 0x80)	/* alone, no byte >= 0x80 is UTF-8 */
			assert_int_equal(strlen(q), 6);
	}
	assert_string_equal(base_quote(q, sizeof(q), "\n\t\r\\\x1b[31m\x7f"),
			    "\\n\\t\\r\\\\\\x1b[31m\\x7f");
	assert_string_equal(base_quote(q, sizeof(q), NULL), "");
	assert_string_equal(base_quote(q, sizeof(q), ""), "");
}

static void
test_utf8(void **state)
{
	static const struct {
		const char *in, *out;
	} t[] = {
		{ "caf\xc3\xa9", "caf\xc3\xa9" },		/* U+00E9 */
		{ "\xe2\x82\xac", "\xe2\x82\xac" },		/* U+20AC */
		{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" },	/* U+1F600 */
		{ "\xc2\xa0", "\xc2\xa0" },			/* U+00A0 */
		{ "\xc2\x9b", "\\xc2\\x9b" },			/* C1: CSI */
		{ "\xc2\x85", "\\xc2\\x85" },			/* C1: NEL */
		{ "\xc0\xaf", "\\xc0\\xaf" },			/* overlong '/' */
		{ "\xe0\x80\xaf", "\\xe0\\x80\\xaf" },		/* overlong */
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },		/* surrogate */
		{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80" },	/* > U+10FFFF */
		{ "\xe2\x82", "\\xe2\\x82" },			/* cut short */
		{ "\xe2\x82x", "\\xe2\\x82x" },
		{ "\xff\xfe", "\\xff\\xfe" },
	};
	char q[64];
	unsigned int i;

	(void)state;
	for (i = 0; i < DIM(t); i++) {
		base_quote(q, sizeof(q), t[i].in);
		__assert_clean(q);
		if (strcmp(q, t[i].out) != 0)
			fail_msg("case %u: \"%s\", want \"%s\"", i, q, t[i].out);
	}
}

/* Every buffer size over inputs of escapes, UTF-8 and plain text: never
 * more than len - 1 bytes, a cut only between characters, "..." after it,
 * and the whole rendering whenever it fits. */
static void
test_bound(void **state)
{
	static const char *const in[] = {
		"plain text that is long enough to be cut",
		"\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b",
		"\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac",
		"a\nb\\c\xffz\xc3\xa9\x01",
	};
	char whole[128], q[128], back[128], pre[128];
	unsigned int i;
	size_t len, n;

	(void)state;
	for (i = 0; i < DIM(in); i++) {
		base_quote(whole, sizeof(whole), in[i]);
		for (len = 1; len <= strlen(whole) + 2; len++) {
			memset(q, 'Z', sizeof(q));
			base_quote(q, len, in[i]);
			assert_true(strlen(q) <= len - 1);
			__assert_clean(q);
			if (strlen(whole) <= len - 1) {
				assert_string_equal(q, whole);
				continue;
			}
			n = strlen(q);
			if (len < 4) {		/* room for dots only */
				assert_memory_equal(q, "...", len - 1);
				continue;
			}
			assert_true(n >= 3 && strcmp(q + n - 3, "...") == 0);
			q[n - 3] = '\0';
			/* the kept part is a whole prefix of the rendering, and
			 * reads back to a prefix of the input */
			assert_memory_equal(q, whole, strlen(q));
			n = __unquote(q, back);
			memcpy(pre, in[i], n);
			pre[n] = '\0';
			assert_string_equal(back, pre);
		}
	}
	/* len 0 writes nothing */
	q[0] = 'Z';
	base_quote(q, 0, "x");
	assert_int_equal(q[0], 'Z');
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
