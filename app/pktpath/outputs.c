/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a run writes, and how it says whether it did: the rule for every
 * output is base.h's ("Files": a regular file, created or truncated, or a
 * character device such as /dev/null; a FIFO, socket, directory or block
 * device is refused at set-up with one line and exit code 2).
 *
 *  - --json is opened at set-up (a refusal comes before the run, not after
 *    it) and written whole at the end: every write, and the fsync() and
 *    close() that end it, checked.
 *  - --capture: the writer counts what reached the file (pkt.h, "Capture");
 *    the summary and the JSON say whether the file is complete.
 *  - The console (stdout: the banner, the interval lines, the summary) is
 *    flushed and checked at the end. stdout is a stream of ours
 *    (app_console_open()) whose writes keep the errno of the first that
 *    failed: stdio forgets it (a failed flush drops its buffer, and the
 *    next flush, with nothing to write, succeeds), so the end could only
 *    have said that something failed, not what.
 *
 * An output asked for and not written whole is said once, with its errno,
 * and makes the exit status 1 (the run's figures are still printed).
 * Main thread only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "base.h"

void
app_outputs_setup(struct app *a)
{
	char err[512];
	int fd;

	if (a->opt.json[0] == '\0')
		return;
	fd = base_file_open_out(a->opt.json, err, sizeof(err));
	if (fd < 0)
		app_usage_exit("pktpath: --json %s", err);
	close(fd);
}

int
app_json_write(const struct app *a, const json_t *root)
{
	char err[512], *text, q[2 * BASE_QUOTE_LEN];
	int rc;

	text = export_json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
	if (text == NULL) {
		fprintf(stderr, "pktpath: --json %s: out of memory\n",
			base_quote(q, sizeof(q), a->opt.json));
		return -1;
	}
	rc = base_file_write(a->opt.json, text, strlen(text), err, sizeof(err));
	free(text);
	if (rc != 0) {
		fprintf(stderr, "pktpath: --json %s\n", err);
		return -1;
	}
	return 0;
}

/* The capture's frames lost to a failed write, all of them (raw: a
 * POST /stats/clear does not hide them). */
static uint64_t
__write_errors(const struct stats_snapshot *fin)
{
	return fin != NULL ? fin->raw_totals[MIB_F(CAPTURE, WRITEERRORS)] : 0;
}

int
app_capture_report(const struct app *a, const struct stats_snapshot *fin,
		   FILE *out)
{
	struct pkt_capture_status st;
	char q[2 * BASE_QUOTE_LEN];

	if (a->cap == NULL)
		return 0;
	pkt_capture_status(a->cap, &st);
	base_quote(q, sizeof(q), a->opt.capture);
	if (st.error == 0) {
		fprintf(out, "capture: %s: %" PRIu64 " frames written\n", q, st.frames);
		return 0;
	}
	fprintf(out, "capture: %s: INCOMPLETE: a write failed after %" PRIu64
		" frames (%s), the capture stopped there; %" PRIu64 " frames not "
		"written (Capture CaptureWriteErrors)%s%s\n", q,
		st.frames, strerror(-st.error), __write_errors(fin),
		st.cut_error ? "; its partial last frame stayed: " : "",
		st.cut_error ? strerror(-st.cut_error) : "");
	return 1;
}

json_t *
app_capture_json(const struct app *a, const struct stats_snapshot *fin)
{
	struct pkt_capture_status st;

	pkt_capture_status(a->cap, &st);
	return json_pack("{s:s, s:I, s:b, s:o, s:I}",
		"file", a->opt.capture,
		"frames", (json_int_t)st.frames,
		"complete", st.error == 0,
		"error", st.error ? json_string(strerror(-st.error)) : json_null(),
		"write_errors", (json_int_t)__write_errors(fin));
}

/* The errno of the console's first failed write (0: none yet). */
static int console_errno;

static ssize_t
__console_write(void *cookie, const char *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	RTE_SET_USED(cookie);
	while (done < len) {
		n = write(STDOUT_FILENO, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (console_errno == 0)
				console_errno = n < 0 ? errno : EIO;
			return done > 0 ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)len;
}

void
app_console_open(void)
{
	cookie_io_functions_t io = { .write = __console_write };
	FILE *f;

	fflush(stdout);
	f = fopencookie(NULL, "w", io);
	if (f == NULL)
		return;		/* the libc's stdout stays: errno unknown at the end */
	setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	stdout = f;
}

int
app_console_check(void)
{
	bool bad = ferror(stdout) != 0;
	int e = 0;

	if (fflush(stdout) != 0) {
		e = errno;
		bad = true;
	}
	if (console_errno != 0)
		e = console_errno;
	if (bad)
		fprintf(stderr, "pktpath: standard output: write failed%s%s: the "
			"console's lines are incomplete\n", e ? ": " : "",
			e ? strerror(e) : "");
	/* stderr has nowhere else to say it: the exit status does */
	if (ferror(stderr) || fflush(stderr) != 0)
		bad = true;
	return bad ? -1 : 0;
}
