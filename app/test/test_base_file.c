/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/base's files (base_file.c), linked with lib/base alone:
 * every kind of path an input or an output may name, made in a private
 * directory (a FIFO with and without the other end open, a directory, a
 * socket, a device, a missing file, a file over the bound), each answered
 * at once (a blocking open would hang the test) with the errno and the
 * line base.h promises; writes to /dev/full fail with ENOSPC and say how
 * much was written.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <cmocka.h>

#include "base.h"

static char dir[64];

static const char *
__p(const char *name)
{
	static char path[4][128];
	static unsigned int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	return path[k];
}

static void
__put(const char *name, const char *text)
{
	FILE *f = fopen(__p(name), "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static int
setup(void **state)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_base_file.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	__put("text", "hello\nworld\n");
	if (mkfifo(__p("fifo"), 0600) != 0 || mkdir(__p("dir"), 0700) != 0)
		return -1;
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", __p("sock"));
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		return -1;
	close(s);
	return 0;
}

static int
teardown(void **state)
{
	static const char *const names[] = { "text", "fifo", "sock", "new", "big" };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(__p(names[i]));
	rmdir(__p("dir"));
	rmdir(dir);
	return 0;
}

/* Every kind of path an input may name: only the regular file is read. */
static void
test_inputs(void **state)
{
	static const struct {
		const char *name;	/* in dir, or absolute */
		int rc;
		const char *says;	/* after "PATH: " */
	} cases[] = {
		{ "fifo", -EINVAL, "a FIFO, not a regular file" },
		{ "dir", -EISDIR, "a directory, not a regular file" },
		{ "sock", -ENXIO, "a socket, not a regular file" },
		{ "/dev/null", -EINVAL, "a character device, not a regular file" },
		{ "missing", -ENOENT, "cannot open: No such file or directory" },
	};
	char err[256], want[256], *buf = NULL;
	unsigned int i;
	size_t len = 0;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *path = cases[i].name[0] == '/' ? cases[i].name :
				   __p(cases[i].name);

		err[0] = '\0';
		assert_int_equal(base_file_read(path, 0, &buf, &len, err,
						sizeof(err)), cases[i].rc);
		snprintf(want, sizeof(want), "%s: %s", path, cases[i].says);
		assert_string_equal(err, want);
		assert_int_equal(base_file_open_in(path, 0, NULL, err, sizeof(err)),
				 cases[i].rc);
	}
	assert_int_equal(base_file_read(__p("text"), 0, &buf, &len, err,
					sizeof(err)), 0);
	assert_int_equal(len, 12);
	assert_string_equal(buf, "hello\nworld\n");
	free(buf);
	/* the bound: at the size it is read, one byte under it is refused
	 * before a byte is read */
	assert_int_equal(base_file_read(__p("text"), 12, &buf, &len, err,
					sizeof(err)), 0);
	free(buf);
	assert_int_equal(base_file_read(__p("text"), 11, &buf, &len, err,
					sizeof(err)), -EFBIG);
	snprintf(want, sizeof(want), "%s: 12 bytes, over the limit of 11 bytes",
		 __p("text"));
	assert_string_equal(err, want);
	assert_int_equal(truncate(__p("text"), 3 << 20), 0);
	assert_int_equal(base_file_open_in(__p("text"), 2 << 20, NULL, err,
					   sizeof(err)), -EFBIG);
	snprintf(want, sizeof(want), "%s: 3145728 bytes, over the limit of 2 MiB",
		 __p("text"));
	assert_string_equal(err, want);
	__put("text", "hello\nworld\n");
}

/* A FIFO whose other end is open is refused too (and its reader sees EOF,
 * not data). */
static void
test_fifo_open_ends(void **state)
{
	char err[256];
	int other, fd;

	(void)state;
	/* a writer waiting: the input is still refused */
	other = open(__p("fifo"), O_RDWR);
	assert_true(other >= 0);
	assert_int_equal(base_file_open_in(__p("fifo"), 0, NULL, err, sizeof(err)),
			 -EINVAL);
	/* a reader waiting: the output is refused once opened */
	assert_int_equal(base_file_open_out(__p("fifo"), err, sizeof(err)), -EINVAL);
	close(other);
	/* no reader: the open fails at once (ENXIO), named as a FIFO */
	fd = base_file_open_out(__p("fifo"), err, sizeof(err));
	assert_int_equal(fd, -ENXIO);
	assert_non_null(strstr(err, ": a FIFO, not a regular file or a character device"));
}

/* Every kind of path an output may name. */
static void
test_outputs(void **state)
{
	static const struct {
		const char *name;
		int rc;		/* 1: accepted */
		const char *says;
	} cases[] = {
		{ "fifo", -ENXIO, "a FIFO, not a regular file or a character device" },
		{ "dir", -EISDIR, "a directory, not a regular file or a character device" },
		{ "sock", -ENXIO, "a socket, not a regular file or a character device" },
		{ "nodir/x", -ENOENT, "cannot open: No such file or directory" },
		{ "/dev/null", 1, NULL },
		{ "/dev/full", 1, NULL },
		{ "new", 1, NULL },
		{ "text", 1, NULL },
	};
	char err[256], want[256];
	unsigned int i;
	struct stat st;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *path = cases[i].name[0] == '/' ? cases[i].name :
				   __p(cases[i].name);
		int fd;

		err[0] = '\0';
		fd = base_file_open_out(path, err, sizeof(err));
		if (cases[i].rc == 1) {
			assert_true(fd >= 0);
			assert_int_equal(base_file_close_out(fd), 0);
			continue;
		}
		assert_int_equal(fd, cases[i].rc);
		snprintf(want, sizeof(want), "%s: %s", path, cases[i].says);
		assert_string_equal(err, want);
	}
	/* created, and an existing file truncated */
	assert_int_equal(stat(__p("new"), &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_size == 0);
	assert_int_equal(stat(__p("text"), &st), 0);
	assert_int_equal(st.st_size, 0);
	__put("text", "hello\nworld\n");
}

/* Writes: all of it to a file; to /dev/full the ENOSPC a full file system
 * gives, with what was written. */
static void
test_writes(void **state)
{
	static char big[200000];
	char err[256], want[256], *buf = NULL;
	size_t len = 0, done = 99;
	int fd;

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	assert_int_equal(base_file_write(__p("big"), big, sizeof(big) - 1, err,
					 sizeof(err)), 0);
	assert_int_equal(base_file_read(__p("big"), 0, &buf, &len, err,
					sizeof(err)), 0);
	assert_int_equal(len, sizeof(big) - 1);
	assert_memory_equal(buf, big, len);
	free(buf);

	fd = base_file_open_out("/dev/full", err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(base_file_write_all(fd, "abc", 3, &done), -ENOSPC);
	assert_int_equal(done, 0);
	assert_int_equal(base_file_close_out(fd), 0);
	assert_int_equal(base_file_write("/dev/full", "abc", 3, err, sizeof(err)),
			 -ENOSPC);
	snprintf(want, sizeof(want), "/dev/full: write: No space left on device "
		 "(0 of 3 bytes written)");
	assert_string_equal(err, want);
	/* nothing to write: nothing fails */
	assert_int_equal(base_file_write("/dev/full", "", 0, err, sizeof(err)), 0);
}

static void
test_kinds(void **state)
{
	(void)state;
	assert_string_equal(base_file_kind(S_IFREG | 0644), "a regular file");
	assert_string_equal(base_file_kind(S_IFIFO), "a FIFO");
	assert_string_equal(base_file_kind(S_IFBLK), "a block device");
	assert_string_equal(base_file_kind(S_IFLNK), "a symbolic link");
	assert_string_equal(base_file_kind(0), "a file of unknown type");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inputs),
		cmocka_unit_test(test_fifo_open_ends),
		cmocka_unit_test(test_outputs),
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_kinds),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
