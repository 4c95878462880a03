/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How pktpath opens the files it reads and writes (base.h, "Files"): one
 * rule for every input (a regular file, or a refusal naming what the path
 * is), one for every output (a regular file or a character device), never
 * blocking on the open, and every write checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"

const char *
base_file_kind(unsigned int st_mode)
{
	switch (st_mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symbolic link";
	default: return "a file of unknown type";
	}
}

/* "16 MiB", "64 KiB" or "1000 bytes": a limit as it was most likely set. */
static void
__base_size_str(uint64_t n, char *s, size_t len)
{
	if (n >= (1u << 20) && n % (1u << 20) == 0)
		snprintf(s, len, "%" PRIu64 " MiB", n >> 20);
	else if (n >= 1024 && n % 1024 == 0)
		snprintf(s, len, "%" PRIu64 " KiB", n >> 10);
	else
		snprintf(s, len, "%" PRIu64 " bytes", n);
}

/* Clear O_NONBLOCK once fstat() has said what fd is: reads and writes of a
 * regular file or a device then behave as everywhere else. */
static int
__base_blocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

int
base_file_open_in(const char *path, uint64_t max, uint64_t *size, char *err,
		  size_t errlen)
{
	char qp[2 * BASE_QUOTE_LEN];
	struct stat st;
	int fd, rc;

	/* the path as every message names it (base_quote()) */
	base_quote(qp, sizeof(qp), path);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		/* a socket (ENXIO): say what it is */
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
			snprintf(err, errlen, "%s: %s, not a regular file", qp,
				 base_file_kind(st.st_mode));
		else
			snprintf(err, errlen, "%s: cannot open: %s", qp,
				 strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: stat: %s", qp, strerror(-rc));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		snprintf(err, errlen, "%s: %s, not a regular file", qp,
			 base_file_kind(st.st_mode));
		goto fail;
	}
	if (max != 0 && (uint64_t)st.st_size > max) {
		char lim[32];

		__base_size_str(max, lim, sizeof(lim));
		rc = -EFBIG;
		snprintf(err, errlen, "%s: %jd bytes, over the limit of %s", qp,
			 (intmax_t)st.st_size, lim);
		goto fail;
	}
	rc = __base_blocking(fd);
	if (rc != 0) {
		snprintf(err, errlen, "%s: fcntl: %s", qp, strerror(-rc));
		goto fail;
	}
	if (size != NULL)
		*size = (uint64_t)st.st_size;
	return fd;
fail:
	close(fd);
	return rc;
}

int
base_file_read(const char *path, uint64_t max, char **buf, size_t *len,
	       char *err, size_t errlen)
{
	char qp[2 * BASE_QUOTE_LEN];
	uint64_t size;
	size_t n = 0;
	ssize_t got;
	char *b;
	int fd, rc;

	/* the path as every message names it (base_quote()) */
	base_quote(qp, sizeof(qp), path);
	fd = base_file_open_in(path, max, &size, err, errlen);
	if (fd < 0)
		return fd;
	if (size >= SIZE_MAX) {
		close(fd);
		snprintf(err, errlen, "%s: %" PRIu64 " bytes: too large", qp, size);
		return -EFBIG;
	}
	b = malloc((size_t)size + 1);
	if (b == NULL) {
		close(fd);
		snprintf(err, errlen, "%s: out of memory (%" PRIu64 " bytes)", qp,
			 size);
		return -ENOMEM;
	}
	/* At most what fstat() said: a file growing meanwhile is cut there,
	 * one shrinking ends early. */
	while (n < (size_t)size) {
		got = read(fd, b + n, (size_t)size - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: read: %s", qp, strerror(-rc));
			free(b);
			close(fd);
			return rc;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int
base_file_open_out(const char *path, char *err, size_t errlen)
{
	char qp[2 * BASE_QUOTE_LEN];
	struct stat st;
	int fd, rc;

	/* the path as every message names it (base_quote()) */
	base_quote(qp, sizeof(qp), path);
	/* O_NONBLOCK: a FIFO without a reader fails the open (ENXIO) instead
	 * of waiting for one; O_TRUNC does nothing to a FIFO or a device. */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
	if (fd < 0) {
		rc = -errno;
		/* ENXIO, EISDIR...: say what the path is when it is not
		 * something an output may be */
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode))
			snprintf(err, errlen, "%s: %s, not a regular file or a "
				 "character device", qp, base_file_kind(st.st_mode));
		else
			snprintf(err, errlen, "%s: cannot open: %s", qp,
				 strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: stat: %s", qp, strerror(-rc));
		goto fail;
	}
	if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode)) {
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		snprintf(err, errlen, "%s: %s, not a regular file or a character "
			 "device", qp, base_file_kind(st.st_mode));
		goto fail;
	}
	rc = __base_blocking(fd);
	if (rc != 0) {
		snprintf(err, errlen, "%s: fcntl: %s", qp, strerror(-rc));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return rc;
}

int
base_file_write_all(int fd, const void *buf, size_t len, size_t *done)
{
	const char *p = buf;
	size_t n = 0;
	ssize_t w;
	int rc = 0;

	while (n < len) {
		w = write(fd, p + n, len - n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			rc = -errno;
			break;
		}
		if (w == 0) {		/* no progress, no error: never loop */
			rc = -EIO;
			break;
		}
		n += (size_t)w;
	}
	if (done != NULL)
		*done = n;
	return rc;
}

int
base_file_close_out(int fd)
{
	struct stat st;
	int rc = 0;

	/* A regular file's delayed write errors (a full thin volume, NFS)
	 * come out of fsync(); a device has nothing to sync. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && fsync(fd) != 0)
		rc = -errno;
	if (close(fd) != 0 && rc == 0 && errno != EINTR)
		rc = -errno;
	return rc;
}

int
base_file_write_close(int fd, const char *path, const void *buf, size_t len,
		      char *err, size_t errlen)
{
	char qp[2 * BASE_QUOTE_LEN];
	size_t done = 0;
	int rc, rc2;

	/* the path as every message names it (base_quote()) */
	base_quote(qp, sizeof(qp), path);
	rc = base_file_write_all(fd, buf, len, &done);
	rc2 = base_file_close_out(fd);
	if (rc != 0) {
		snprintf(err, errlen, "%s: write: %s (%zu of %zu bytes written)", qp,
			 strerror(-rc), done, len);
		return rc;
	}
	if (rc2 != 0) {
		snprintf(err, errlen, "%s: close: %s", qp, strerror(-rc2));
		return rc2;
	}
	return 0;
}

int
base_file_write(const char *path, const void *buf, size_t len, char *err,
		size_t errlen)
{
	int fd = base_file_open_out(path, err, errlen);

	if (fd < 0)
		return fd;
	return base_file_write_close(fd, path, buf, len, err, errlen);
}
