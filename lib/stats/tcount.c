/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A thread's kernel counters: run time, run-queue wait, context switches
 * (stats_tcount.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "stats_tcount.h"

static const char *const src_names[] = {
	[STATS_TCOUNT_SRC_NONE] = "none",
	[STATS_TCOUNT_SRC_CLOCK] = "clock",
	[STATS_TCOUNT_SRC_SCHEDSTAT] = "schedstat",
};

const char *
stats_tcount_src_name(enum stats_tcount_src s)
{
	return BASE_ENUM_NAME(src_names, s);
}

void
stats_tcount_init(struct stats_tcount_reader *r)
{
	r->tid = 0;
	r->fd_sched = -1;
	r->fd_status = -1;
	r->clock = false;
	r->pmu = NULL;
}

void
stats_tcount_attach_pmu(struct stats_tcount_reader *r, const struct stats_pmu_group *g)
{
	r->pmu = g;
}

/* Linux's CPUCLOCK_SCHED clock of thread tid, the id pthread_getcpuclockid()
 * makes for a thread (include/linux/posix-timers.h: MAKE_THREAD_CPUCLOCK). */
static int
__thread_clock(int tid, uint64_t *ns)
{
	clockid_t cid = (clockid_t)((~(unsigned int)tid << 3) | 6u);
	struct timespec ts;

	if (clock_gettime(cid, &ts) != 0)
		return -errno;
	*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return 0;
}

static int
__open_one(const char *root, int tid, const char *file)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%d/%s", root, tid, file) >=
	    sizeof(path))
		return -1;
	return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
}

int
stats_tcount_open(struct stats_tcount_reader *r, int tid, const char *root)
{
	uint64_t ns;
	int err;

	stats_tcount_close(r);
	if (tid <= 0)
		return -EINVAL;
	r->clock = root == NULL;
	if (root == NULL)
		root = "/proc/self/task";
	r->fd_sched = __open_one(root, tid, "schedstat");
	err = errno;
	r->fd_status = __open_one(root, tid, "status");
	if (r->fd_status < 0 && r->fd_sched < 0 &&
	    (!r->clock || __thread_clock(tid, &ns) != 0)) {
		r->clock = false;
		return err == ENOENT ? -ESRCH : -err;
	}
	r->tid = tid;
	return 0;
}

void
stats_tcount_close(struct stats_tcount_reader *r)
{
	if (r->fd_sched >= 0)
		close(r->fd_sched);
	if (r->fd_status >= 0)
		close(r->fd_status);
	stats_tcount_init(r);
}

/* The whole file at fd (a procfs file: one read from offset 0) into buf. */
static int
__pread_all(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n <= 0)
		return n == 0 ? -ENODATA : -errno;
	buf[n] = '\0';
	return 0;
}

int
stats_tcount_parse_schedstat(const char *text, struct stats_tcount *c)
{
	unsigned long long run, wait;
	char *end;

	errno = 0;
	run = strtoull(text, &end, 10);
	if (end == text || errno != 0 || *end != ' ')
		return -EINVAL;
	text = end;
	wait = strtoull(text, &end, 10);
	if (end == text || errno != 0)
		return -EINVAL;
	c->run_ns = run;
	c->wait_ns = wait;
	return 0;
}

/* The value of the line "name:\tN" in a status text. */
static int
__status_field(const char *text, const char *name, uint64_t *v)
{
	size_t n = strlen(name);
	const char *p = text;
	char *end;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, n) == 0 && p[n] == ':') {
			unsigned long long x;

			p += n + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			errno = 0;
			x = strtoull(p, &end, 10);
			if (end == p || errno != 0)
				return -EINVAL;
			*v = x;
			return 0;
		}
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return -EINVAL;
}

int
stats_tcount_parse_status(const char *text, struct stats_tcount *c)
{
	const char *st = strstr(text, "\nState:");
	uint64_t v, iv;

	if (__status_field(text, "voluntary_ctxt_switches", &v) != 0 ||
	    __status_field(text, "nonvoluntary_ctxt_switches", &iv) != 0)
		return -EINVAL;
	c->vcsw = v;
	c->ivcsw = iv;
	c->state = 0;
	if (st == NULL && strncmp(text, "State:", 6) == 0)
		st = text - 1;
	if (st != NULL) {
		st += 7;
		while (*st == ' ' || *st == '\t')
			st++;
		if (*st >= 'A' && *st <= 'z')
			c->state = *st;
	}
	return 0;
}

int
stats_tcount_read(struct stats_tcount_reader *r, struct stats_tcount *c)
{
	char buf[2048];
	int rc = -ENOENT;

	memset(c, 0, sizeof(*c));
	if (r->pmu != NULL && stats_pmu_read(r->pmu, &c->pmu) == 0)
		rc = 0;
	if (r->tid <= 0)
		return rc == 0 ? 0 : -EINVAL;
	if (r->fd_sched >= 0 && __pread_all(r->fd_sched, buf, sizeof(buf)) == 0 &&
	    stats_tcount_parse_schedstat(buf, c) == 0) {
		c->src = STATS_TCOUNT_SRC_SCHEDSTAT;
		c->wait = true;
		rc = 0;
	}
	if (r->clock && __thread_clock(r->tid, &c->run_ns) == 0) {
		c->src = STATS_TCOUNT_SRC_CLOCK;
		rc = 0;
	}
	if (r->fd_status >= 0 && __pread_all(r->fd_status, buf, sizeof(buf)) == 0 &&
	    stats_tcount_parse_status(buf, c) == 0) {
		c->csw = true;
		rc = 0;
	}
	if (c->src == STATS_TCOUNT_SRC_NONE)
		c->run_ns = 0;
	return rc;
}
