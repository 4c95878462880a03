/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of app/pktpath/options.c, through options.h only: what a
 * command line and an INI file put into struct app_options, that the
 * command line overrides the file, that parsing starts from the defaults
 * every time, and that a mistake returns -1 with exactly one line on
 * stderr naming the option (the wording of each message is checked by
 * integration/options.sh against the real binary). No EAL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <rte_common.h>

#include "options.h"

static struct app_options o, d;

/* app_options_parse() over the arguments after "pktpath", with stderr
 * captured into err (one line or none). */
static int
__parse(char *err, size_t len, int n, ...)
{
	char *argv[32] = { "pktpath" };
	char path[] = "/tmp/test_options_err_XXXXXX";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO), rc, i;
	va_list ap;
	FILE *f;
	size_t got;

	assert_true(n < (int)RTE_DIM(argv) - 1);
	va_start(ap, n);
	for (i = 0; i < n; i++)
		argv[i + 1] = va_arg(ap, char *);
	va_end(ap);
	argv[n + 1] = NULL;
	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	rc = app_options_parse(n + 1, argv, &o);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	f = fdopen(fd, "r");
	rewind(f);
	got = fread(err, 1, len - 1, f);
	err[got] = '\0';
	fclose(f);
	unlink(path);
	return rc;
}

/* A mistake: -1, one line on stderr, naming what. */
static void
__bad(const char *what, int n, ...)
{
	char err[1024], *argv[8];
	va_list ap;
	int i, rc;

	assert_true(n <= (int)RTE_DIM(argv));
	va_start(ap, n);
	for (i = 0; i < n; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	switch (n) {
	case 1: rc = __parse(err, sizeof(err), 1, argv[0]); break;
	case 2: rc = __parse(err, sizeof(err), 2, argv[0], argv[1]); break;
	default: rc = __parse(err, sizeof(err), 3, argv[0], argv[1], argv[2]); break;
	}
	if (rc != -1 || strchr(err, '\n') == NULL ||
	    strchr(err, '\n')[1] != '\0' || strstr(err, what) == NULL)
		fail_msg("'%s ...': rc %d, stderr '%s', want -1 and one line with '%s'",
			 argv[0], rc, err, what);
}

static void
test_defaults(void **state)
{
	char err[256];

	(void)state;
	app_options_default(&d);
	memset(&o, 0xa5, sizeof(o));
	assert_int_equal(__parse(err, sizeof(err), 0), 0);
	assert_string_equal(err, "");
	assert_memory_equal(&o, &d, sizeof(o));
	assert_false(app_options_want_ingress(&o));
	assert_string_equal(app_source_name(o.source), "gen");
	assert_string_equal(app_path_name(o.path), "full");
	assert_string_equal(o.http, "127.0.0.1:9120");
	/* Every parse starts from the defaults, not from the last one. */
	assert_int_equal(__parse(err, sizeof(err), 2, "--burst", "64"), 0);
	assert_int_equal(o.burst, 64);
	assert_int_equal(__parse(err, sizeof(err), 0), 0);
	assert_int_equal(o.burst, d.burst);
}

static void
test_values(void **state)
{
	char err[256];

	(void)state;
	/* Integers are decimal: a leading zero is not octal. */
	assert_int_equal(__parse(err, sizeof(err), 6, "--burst", "010", "--duration",
				 "2.5", "--dport", "080"), 0);
	assert_int_equal(o.burst, 10);
	assert_true(o.duration_s == 2.5);
	assert_int_equal(o.flow.dport_lo, 80);
	assert_int_equal(o.flow.dport_hi, 80);
	/* --opt=value is the same as --opt value. */
	assert_int_equal(__parse(err, sizeof(err), 3, "--fold=field", "--http", "off"), 0);
	assert_int_equal(o.fold, MIB_FOLD_FIELD);
	assert_string_equal(o.http, "");
	assert_int_equal(__parse(err, sizeof(err), 2, "--ingress", "rcu"), 0);
	assert_int_equal(o.ingress_mode, INGRESS_RCU);
	assert_true(app_options_want_ingress(&o));
	assert_int_equal(__parse(err, sizeof(err), 1, "--quiet"), 0);
	assert_true(o.quiet);
	assert_int_equal(__parse(err, sizeof(err), 2, "--path", "rx-only"), 0);
	assert_string_equal(app_path_name(o.path), "rx-only");
	assert_string_equal(err, "");
}

static void
test_config(void **state)
{
	char ini[] = "/tmp/test_options_XXXXXX", err[256];
	int fd = mkstemp(ini);
	static const char text[] = "; a comment\n[pktpath]\nburst = 16\nfold = field\n";

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	assert_int_equal(__parse(err, sizeof(err), 2, "--config", ini), 0);
	assert_int_equal(o.burst, 16);
	assert_int_equal(o.fold, MIB_FOLD_FIELD);
	/* The command line overrides the file, wherever it stands. */
	assert_int_equal(__parse(err, sizeof(err), 4, "--burst", "8", "--config", ini), 0);
	assert_int_equal(o.burst, 8);
	assert_int_equal(o.fold, MIB_FOLD_FIELD);
	unlink(ini);
	__bad("--config", 2, "--config", ini);		/* gone */
}

static void
test_errors(void **state)
{
	char err[256];

	(void)state;
	__bad("'--nope'", 1, "--nope");
	__bad("--burst", 2, "--burst", "0");
	__bad("--burst", 2, "--burst", "x");
	__bad("--burst", 2, "--burst", "0x10");
	__bad("--burst", 1, "--burst");
	__bad("--fold", 2, "--fold", "sideways");
	__bad("--http", 2, "--http", "1.2.3:80");
	__bad("--dport", 2, "--dport", "70000");
	__bad("'stray'", 1, "stray");
	__bad("--rxq", 2, "--rxq", "1:0.0");		/* only with --source port */
	/* --help: printed on stdout, 1 (exit 0), nothing on stderr. */
	{
		char out[] = "/tmp/test_options_help_XXXXXX", *text;
		int fd = mkstemp(out), saved = dup(STDOUT_FILENO);
		FILE *f;
		long n;

		assert_true(fd >= 0 && saved >= 0);
		fflush(stdout);
		dup2(fd, STDOUT_FILENO);
		assert_int_equal(__parse(err, sizeof(err), 1, "--help"), 1);
		fflush(stdout);
		dup2(saved, STDOUT_FILENO);
		close(saved);
		f = fdopen(fd, "r");
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		text = calloc(1, (size_t)n + 1);
		assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
		fclose(f);
		unlink(out);
		assert_string_equal(err, "");
		assert_non_null(strstr(text, "--burst"));
		assert_non_null(strstr(text, "--http"));
		free(text);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
