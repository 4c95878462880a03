/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_OPTIONS_H
#define PKTPATH_TEST_OPTIONS_H

/* What test_options.c and test_options_values.c share. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "options_pvt.h"
#include "test_oneline.h"

#define IP4(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

/* Scratch options, the reference defaults, a directory for files. */
extern struct app_options o, ref;
extern char tmpdir[64];

/*
 * app_options_parse() over "pktpath" and the NULL-terminated args, with
 * stdout and stderr captured: what it wrote to stderr, without the final
 * newline, in err.
 */
int __parse(struct app_options *opt, char *err, size_t len, const char *a, ...);

/* A file in tmpdir with this text; its path in path. */
void __file(char *path, size_t len, const char *name, const char *text);

/* The args must parse (rc 0, nothing on stderr). */
#define OK(...) do {							\
	char e_[512];							\
	int rc_ = __parse(&o, e_, sizeof(e_), __VA_ARGS__, NULL);	\
	if (rc_ != 0 || e_[0] != '\0')					\
		fail_msg("%s:%d: rc %d: %s", __FILE__, __LINE__, rc_, e_); \
} while (0)

/* The args must be refused with exactly this one line. */
#define BAD(line, ...) do {						\
	char e_[512];							\
	int rc_ = __parse(&o, e_, sizeof(e_), __VA_ARGS__, NULL);	\
	if (rc_ != -1 || strcmp(e_, line) != 0)				\
		fail_msg("%s:%d: rc %d\n  got  \"%s\"\n  want \"%s\"",	\
			 __FILE__, __LINE__, rc_, e_, line);		\
} while (0)

void test_numbers(void **state);
void test_words(void **state);
void test_addresses(void **state);
void test_compare(void **state);
void test_checks(void **state);
void test_getopt(void **state);
void test_ini(void **state);
void test_quoting(void **state);

#endif
