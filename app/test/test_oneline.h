/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_ONELINE_H
#define PKTPATH_TEST_ONELINE_H

/*
 * What the unit tests of every input kind (test_options_values.c,
 * test_ingress_rules.c, test_bpf.c, test_export_http.c) check of a message
 * that echoes input made of every control and high byte: it is one line
 * with nothing a terminal or a log would act on (base_quote(), lib/base).
 */

#include <stddef.h>

/* The bytes a test puts in a value: every C0 control but NUL, DEL, and
 * every byte with the high bit set (alone, never valid UTF-8). */
static inline unsigned int
test_oneline_byte(unsigned int k)
{
	return k < 31 ? k + 1 : k == 31 ? 0x7f : k + 0x80 - 32;
}
#define TEST_ONELINE_BYTES (31 + 1 + 128)

/*
 * NULL if s (without a final newline) is one line of valid UTF-8 with no C0
 * control, DEL or C1 control (U+0080..U+009F) in it; else what is wrong.
 */
static inline const char *
test_oneline_bad(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		size_t n = 0, i;

		if (*p == '\n')
			return "a newline inside";
		if (*p < 0x20 || *p == 0x7f)
			return "a raw control byte";
		if (*p < 0x80) {
			p++;
			continue;
		}
		if (*p >= 0xc2 && *p <= 0xdf)
			n = 2;
		else if (*p >= 0xe0 && *p <= 0xef)
			n = 3;
		else if (*p >= 0xf0 && *p <= 0xf4)
			n = 4;
		if (n == 0)
			return "a byte of no UTF-8 character";
		for (i = 1; i < n; i++)
			if (p[i] < 0x80 || p[i] > 0xbf)
				return "a byte of no UTF-8 character";
		if (p[0] == 0xc2 && p[1] < 0xa0)
			return "a raw C1 control";
		p += n;
	}
	return NULL;
}

#endif /* PKTPATH_TEST_ONELINE_H */
