/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Text from outside (argv, option values, a file's name) as a JSON
 * string (export.h, export_json_text()): jansson's json_string() refuses
 * bytes that are not UTF-8 and returns NULL, which the object and array
 * setters then drop without a word, so an argument with such a byte
 * vanished from "args". Here each such byte is the text \x{XX}, as
 * telemetry writes it (telemetry.c), and valid UTF-8 is kept as it is.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "export_pvt.h"

size_t
__export_utf8_char(const unsigned char *s, size_t left, uint32_t *cp)
{
	size_t n, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else
		return 0;
	if (n > left)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong, a surrogate or beyond Unicode: not UTF-8 */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

json_t *
export_json_text(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len, i = 0, o = 0, k;
	uint32_t cp;
	json_t *j;
	char *t;

	if (s == NULL)
		return json_null();
	j = json_string(s);
	if (j != NULL)
		return j;
	len = strlen(s);
	t = malloc(len * 6 + 1);
	if (t == NULL)
		return NULL;
	while (i < len) {
		k = __export_utf8_char(u + i, len - i, &cp);
		if (k == 0) {
			o += (size_t)sprintf(t + o, "\\x{%02x}", u[i++]);
		} else {
			memcpy(t + o, s + i, k);
			o += k;
			i += k;
		}
	}
	t[o] = '\0';
	j = json_string(t);
	free(t);
	return j;
}
