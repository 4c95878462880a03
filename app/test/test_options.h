/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_OPTIONS_H
#define PKTPATH_TEST_OPTIONS_H

/* What test_options.c, test_options_values.c and test_options_needs.c
 * share. */

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

/* What f printed (NUL-terminated, malloc'd); --help's text. */
char *__print(void (*fn)(FILE *));
char *__print_usage(void);

/* An argument list a test builds (test_options_needs.c). */
struct test_args {
	unsigned int n;
	size_t off[64];		/* each argument's offset in pool */
	char pool[4096];
	size_t used;
	const char *opts[48];	/* the options __args_add() gave, by name */
	unsigned int n_opts;
};
/* arg appended as it is */
void __args_raw(struct test_args *a, const char *arg);
/* "--opt=v" ("--opt" for v NULL), unless opt is given already */
void __args_add(struct test_args *a, const char *opt, const char *v);
/* The arguments that meet d's needs (its first alternative), with what
 * the options they give need in turn. */
void __needs_args(const struct app_opt *d, struct test_args *a);
/* A value of d a user could give (its default or an example), and one
 * other than its default (NULL: a flag, given without a value). */
const char *__value_of(const struct app_opt *d, char *buf, size_t len);
const char *__value_set(const struct app_opt *d, char *buf, size_t len);
/* app_options_parse() over "pktpath", a's arguments and extra (if not
 * NULL), as __parse(). */
int __parse_args(struct app_options *opt, char *err, size_t len,
		 const struct test_args *a, const char *extra);

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
void test_vlan(void **state);
void test_getopt(void **state);
void test_ini(void **state);
void test_quoting(void **state);
void test_needs(void **state);
void test_needs_help(void **state);
void test_repeats(void **state);

#endif
