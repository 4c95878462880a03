/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The INI reader behind --config (see ini.h for the grammar).
 *
 * Why not rte_cfgfile: DPDK 22.11's reader truncates values at 255
 * characters and key names at 63 without an error (a long udp-ports list
 * silently lost its last port), fails lines over 322 characters with no
 * reason, skips lines that are neither a section nor "key = value" without a
 * word, keeps a second [pktpath] section that its lookups never see, cuts
 * every value at a ';' (an inline comment) and reports no line numbers. A
 * pre-scan to catch all of that would be a parser of its own, so this is
 * one: a value is as long as the option it sets accepts, every mistake is
 * "FILE:LINE: reason" (the file's name and its words quoted: base_quote()),
 * and nothing is dropped silently.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "ini.h"

static char *
__trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* The whole file, NUL-terminated; NULL with the reason in err. A FIFO, a
 * device or a huge file is not a configuration (base.h, "Files"). */
static char *
__slurp(const char *file, size_t *len, char *err, size_t errlen)
{
	char why[APP_INI_ERR_LEN];
	char *buf;

	if (base_file_read(file, APP_INI_MAX_SIZE, &buf, len, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "--config %s", why);
		return NULL;
	}
	return buf;
}

int
app_ini_load(const char *file, const char *section, app_ini_entry_fn fn,
	     void *arg, char *err, size_t errlen)
{
	unsigned int line = 0, sec_line = 0;
	bool in_section = false;
	char why[APP_INI_ERR_LEN], qf[2 * BASE_QUOTE_LEN], q[BASE_QUOTE_LEN];
	char *buf, *p, *next;
	size_t len;
	int rc = -1;

	buf = __slurp(file, &len, err, errlen);
	if (buf == NULL)
		return -1;
	base_quote(qf, sizeof(qf), file);	/* every FILE:LINE names it so */
	for (p = buf; p != NULL && p < buf + len; p = next) {
		char *nl = memchr(p, '\n', (size_t)(buf + len - p));
		char *s, *eq, *key, *val;

		line++;
		next = nl != NULL ? nl + 1 : NULL;
		if (nl != NULL)
			*nl = '\0';
		if (strlen(p) != (size_t)((nl != NULL ? nl : buf + len) - p)) {
			snprintf(err, errlen, "%s:%u: NUL byte (not a text file)", qf,
				 line);
			goto out;
		}
		s = __trim(p);
		if (*s == '\0' || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *rb = strchr(s, ']'), *tail;

			tail = rb != NULL ? __trim(rb + 1) : NULL;
			if (rb == NULL || (*tail != '\0' && *tail != ';' && *tail != '#')) {
				snprintf(err, errlen, "%s:%u: section header without ']'%s",
					 qf, line, rb != NULL ? " at its end" : "");
				goto out;
			}
			*rb = '\0';
			s = __trim(s + 1);
			if (strcmp(s, section) != 0) {
				snprintf(err, errlen, "%s:%u: unknown section [%s] (only [%s])",
					 qf, line, base_quote(q, sizeof(q), s), section);
				goto out;
			}
			if (sec_line != 0) {
				snprintf(err, errlen, "%s:%u: second [%s] section (the first "
					 "is at line %u): merge them", qf, line, section,
					 sec_line);
				goto out;
			}
			sec_line = line;
			in_section = true;
			continue;
		}
		eq = strchr(s, '=');
		if (eq == NULL) {
			snprintf(err, errlen, "%s:%u: expected 'key = value' or '[section]'",
				 qf, line);
			goto out;
		}
		*eq = '\0';
		key = __trim(s);
		val = __trim(eq + 1);
		if (*key == '\0') {
			snprintf(err, errlen, "%s:%u: no key before '='", qf, line);
			goto out;
		}
		if (!in_section) {
			snprintf(err, errlen, "%s:%u: '%s' before the [%s] section",
				 qf, line, base_quote(q, sizeof(q), key), section);
			goto out;
		}
		why[0] = '\0';
		if (fn(arg, line, key, val, why, sizeof(why)) != 0) {
			snprintf(err, errlen, "%s:%u: %s", qf, line, why);
			goto out;
		}
	}
	if (sec_line == 0) {
		snprintf(err, errlen, "%s: no [%s] section", qf, section);
		goto out;
	}
	rc = 0;
out:
	free(buf);
	return rc;
}
