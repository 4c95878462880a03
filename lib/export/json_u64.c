/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unsigned 64-bit counters in JSON (export.h, "Counters above 2^63"):
 * jansson 2.14's only integer is json_int_t (long long), so a counter
 * past INT64_MAX cast to it prints negative, while telemetry and
 * Prometheus print it unsigned. export_json_u64() makes such a value a
 * placeholder, a string made of a NUL byte and the decimal digits, which
 * jansson prints as "\u0000DIGITS"; export_json_dumps() prints the
 * document and replaces each placeholder by its digits, a JSON number.
 * No other string can print so: a string from C text has no NUL byte,
 * and jansson's parser refuses "\u0000" (JSON_ALLOW_NUL is not used).
 * Below every writer, which call it and nothing else here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "export.h"

/* How jansson prints a placeholder's start: the quote, the NUL escaped. */
#define U64_MARK "\"\\u0000"

json_t *
export_json_u64(uint64_t v)
{
	char buf[1 + 21];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	buf[0] = '\0';
	return json_stringn(
		buf, 1 + (size_t)snprintf(buf + 1, sizeof(buf) - 1, "%" PRIu64, v));
}

bool
export_json_u64_value(const json_t *j, uint64_t *v)
{
	const char *t;
	char *end;

	if (json_is_integer(j) && json_integer_value(j) >= 0) {
		*v = (uint64_t)json_integer_value(j);
		return true;
	}
	if (!json_is_string(j) || json_string_length(j) < 2)
		return false;
	t = json_string_value(j);
	if (t[0] != '\0' || strspn(t + 1, "0123456789") != json_string_length(j) - 1)
		return false;
	errno = 0;
	*v = strtoull(t + 1, &end, 10);
	return errno == 0;
}

char *
export_json_dumps(const json_t *j, size_t flags)
{
	const size_t mark = strlen(U64_MARK);
	char *text = json_dumps(j, flags), *r, *w;
	size_t d;

	if (text == NULL)
		return NULL;
	for (r = w = text; *r != '\0';) {
		if (strncmp(r, U64_MARK, mark) == 0 &&
		    (d = strspn(r + mark, "0123456789")) > 0 && r[mark + d] == '"') {
			memmove(w, r + mark, d); /* the text only shrinks */
			w += d;
			r += mark + d + 1;
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
	return text;
}

int
export_json_dumpf(const json_t *j, FILE *f, size_t flags)
{
	char *text = export_json_dumps(j, flags);
	int rc = text != NULL && fputs(text, f) != EOF ? 0 : -1;

	free(text);
	return rc;
}
