/* SPDX-License-Identifier: BSD-3-Clause */
/* Untrusted text made fit for a one-line message. See base.h. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base.h"

/*
 * The length of the valid UTF-8 character at s that is not a C1 control
 * (U+0080..U+009F), or 0: RFC 3629's table, so no overlong form, no
 * surrogate and nothing past U+10FFFF passes.
 */
static size_t
__quote_utf8(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xc2)
		lo = 0xa0;		/* U+0080..U+009F: C1 controls */
	else if (c == 0xe0)
		lo = 0xa0;		/* overlong */
	else if (c == 0xed)
		hi = 0x9f;		/* surrogates */
	else if (c == 0xf0)
		lo = 0x90;		/* overlong */
	else if (c == 0xf4)
		hi = 0x8f;		/* past U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* The rendering of the character at s into piece (5 bytes at least): its
 * length; *used gets the input bytes it stands for. */
static size_t
__quote_piece(const unsigned char *s, char *piece, size_t *used)
{
	size_t n;

	*used = 1;
	switch (s[0]) {
	case '\n':
		memcpy(piece, "\\n", 2);
		return 2;
	case '\t':
		memcpy(piece, "\\t", 2);
		return 2;
	case '\r':
		memcpy(piece, "\\r", 2);
		return 2;
	case '\\':
		memcpy(piece, "\\\\", 2);
		return 2;
	default:
		break;
	}
	if (s[0] >= 0x20 && s[0] < 0x7f) {
		piece[0] = (char)s[0];
		return 1;
	}
	n = s[0] >= 0x80 ? __quote_utf8(s) : 0;
	if (n > 0) {
		memcpy(piece, s, n);
		*used = n;
		return n;
	}
	snprintf(piece, 5, "\\x%02x", s[0]);
	return 4;
}

const char *
base_quote(char *buf, size_t len, const char *s)
{
	static const char ellipsis[] = "...";
	const unsigned char *p = (const unsigned char *)(s != NULL ? s : "");
	const unsigned char *q;
	size_t out = 0, total = 0, k, used;
	char piece[8];

	if (len == 0)
		return buf;
	/* Does all of it fit? Then no ellipsis is needed. */
	for (q = p; *q != '\0'; q += used)
		total += __quote_piece(q, piece, &used);
	for (q = p; *q != '\0'; q += used) {
		k = __quote_piece(q, piece, &used);
		if (total > len - 1 ?
		    out + k + sizeof(ellipsis) - 1 > len - 1 : out + k > len - 1)
			break;
		memcpy(buf + out, piece, k);
		out += k;
	}
	if (*q != '\0') {
		k = sizeof(ellipsis) - 1;
		if (k > len - 1 - out)
			k = len - 1 - out;
		memcpy(buf + out, ellipsis, k);
		out += k;
	}
	buf[out] = '\0';
	return buf;
}
