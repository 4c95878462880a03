/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A thread's perf_event_open(2) group: event names, opening, reading,
 * deltas, and why it cannot be counted (stats_pmu.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base.h"
#include "stats_pmu.h"

/* ---- names ---- */

struct __pmu_name {
	const char *name;
	uint32_t type;
	uint64_t config;
};

/* perf list's names, the aliases after the name they stand for. */
static const struct __pmu_name pmu_names[] = {
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
};

/* The generic cache events: CACHE-OP-RESULT (perf's parse-events names). */
static const char *const pmu_caches[] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache",
	[PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC",
	[PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB",
	[PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};

static const struct {
	const char *suffix;
	unsigned int op, result;
} pmu_cache_ops[] = {
	{ "loads", PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "load-misses", PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS },
	{ "stores", PERF_COUNT_HW_CACHE_OP_WRITE, PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "store-misses", PERF_COUNT_HW_CACHE_OP_WRITE, PERF_COUNT_HW_CACHE_RESULT_MISS },
	{ "prefetches", PERF_COUNT_HW_CACHE_OP_PREFETCH,
	  PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "prefetch-misses", PERF_COUNT_HW_CACHE_OP_PREFETCH,
	  PERF_COUNT_HW_CACHE_RESULT_MISS },
};

static const char pmu_default[] =
	"cycles,instructions,L1-dcache-load-misses,LLC-load-misses,branch-misses";

/* name (len bytes, not terminated) as an event; false if perf has no such
 * name. */
static bool
__pmu_lookup(const char *name, size_t len, struct stats_pmu_event *e)
{
	unsigned int i, j;

	for (i = 0; i < RTE_DIM(pmu_names); i++)
		if (strlen(pmu_names[i].name) == len &&
		    memcmp(pmu_names[i].name, name, len) == 0) {
			e->type = pmu_names[i].type;
			e->config = pmu_names[i].config;
			return true;
		}
	for (i = 0; i < RTE_DIM(pmu_caches); i++) {
		size_t cl = strlen(pmu_caches[i]);

		if (len <= cl + 1 || memcmp(name, pmu_caches[i], cl) != 0 ||
		    name[cl] != '-')
			continue;
		for (j = 0; j < RTE_DIM(pmu_cache_ops); j++)
			if (strlen(pmu_cache_ops[j].suffix) == len - cl - 1 &&
			    memcmp(name + cl + 1, pmu_cache_ops[j].suffix,
				   len - cl - 1) == 0) {
				e->type = PERF_TYPE_HW_CACHE;
				e->config = i | (uint64_t)pmu_cache_ops[j].op << 8 |
					    (uint64_t)pmu_cache_ops[j].result << 16;
				return true;
			}
	}
	/* rNNNN: a raw code, 1 to 16 hexadecimal digits */
	if (len >= 2 && len <= 17 && name[0] == 'r') {
		uint64_t v = 0;

		for (i = 1; i < len; i++) {
			char c = name[i];
			unsigned int d;

			if (c >= '0' && c <= '9')
				d = (unsigned int)(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = (unsigned int)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = (unsigned int)(c - 'A' + 10);
			else
				return false;
			v = v << 4 | d;
		}
		e->type = PERF_TYPE_RAW;
		e->config = v;
		return true;
	}
	return false;
}

bool
stats_pmu_event_is_hw(const struct stats_pmu_event *e)
{
	return e->type != PERF_TYPE_SOFTWARE;
}

bool
stats_pmu_conf_has_hw(const struct stats_pmu_conf *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (stats_pmu_event_is_hw(&c->ev[i]))
			return true;
	return false;
}

/* The index of the event (type, config) in c, or -1. */
static int
__pmu_index(const struct stats_pmu_conf *c, uint32_t type, uint64_t config)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (c->ev[i].type == type && c->ev[i].config == config)
			return (int)i;
	return -1;
}

int
stats_pmu_conf_find(const struct stats_pmu_conf *c, const char *name)
{
	struct stats_pmu_event e;

	if (!__pmu_lookup(name, strlen(name), &e))
		return -1;
	return __pmu_index(c, e.type, e.config);
}

void
stats_pmu_conf_names(const struct stats_pmu_conf *c, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < c->n && off < len; i++) {
		int k = snprintf(buf + off, len - off, "%s%s", i ? "," : "",
				 c->ev[i].name);

		if (k < 0)
			break;
		off += (size_t)k;
	}
}

/* Add the names of list (comma-separated) to c, "default" expanded. A
 * refusal echoes the name quoted (base_quote()). */
static int
__pmu_parse_into(const char *list, struct stats_pmu_conf *c, char *err, size_t len)
{
	char word[BASE_QUOTE_LEN], q[BASE_QUOTE_LEN];
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, ",");
		struct stats_pmu_event e;

		memset(&e, 0, sizeof(e));
		snprintf(word, sizeof(word), "%.*s", (int)RTE_MIN(n, sizeof(word) - 1), p);
		base_quote(q, sizeof(q), word);
		if (n == 0) {
			snprintf(err, len, "'%s': an empty event name",
				 base_quote(q, sizeof(q), list));
			return -EINVAL;
		}
		if (n == 7 && memcmp(p, "default", 7) == 0) {
			if (__pmu_parse_into(pmu_default, c, err, len) != 0)
				return -EINVAL;
		} else if (!__pmu_lookup(p, n, &e) || n >= sizeof(e.name)) {
			snprintf(err, len, "'%s' is not an event perf names (perf "
				 "list: cycles, instructions, L1-dcache-load-misses, "
				 "rNNNN, task-clock, context-switches...; or default)", q);
			return -EINVAL;
		} else if (__pmu_index(c, e.type, e.config) >= 0) {
			snprintf(err, len, "'%s' is named twice", q);
			return -EINVAL;
		} else if (c->n == STATS_PMU_MAX) {
			snprintf(err, len, "'%s': more than %u events (a group counts "
				 "together on the PMU's few counters)", q, STATS_PMU_MAX);
			return -EINVAL;
		} else {
			memcpy(e.name, p, n);
			e.name[n] = '\0';
			c->ev[c->n++] = e;
		}
		if (p[n] == '\0')
			return 0;
		p += n + 1;
	}
}

int
stats_pmu_parse(const char *list, struct stats_pmu_conf *c, char *err, size_t len)
{
	struct stats_pmu_conf t;
	unsigned int i, k = 0;

	memset(&t, 0, sizeof(t));
	if (__pmu_parse_into(list, &t, err, len) != 0)
		return -EINVAL;
	/* the hardware events lead the group, in their order, then the rest */
	memset(c, 0, sizeof(*c));
	for (i = 0; i < t.n; i++)
		if (stats_pmu_event_is_hw(&t.ev[i]))
			c->ev[k++] = t.ev[i];
	for (i = 0; i < t.n; i++)
		if (!stats_pmu_event_is_hw(&t.ev[i]))
			c->ev[k++] = t.ev[i];
	c->n = k;
	return 0;
}

/* ---- groups ---- */

static int
__pmu_open_one(const struct stats_pmu_event *e, int tid, int group_fd)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = e->type;
	a.config = e->config;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* The leader starts disabled, and the whole group is enabled once
	 * its pages are mapped (stats_pmu_open()). */
	a.disabled = group_fd < 0;
	if (stats_pmu_event_is_hw(e)) {
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
	}
	fd = syscall(SYS_perf_event_open, &a, tid, -1, group_fd,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

void
stats_pmu_close(struct stats_pmu_group *g)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned int i;

	for (i = 0; i < g->n; i++) {
		if (g->page[i] != NULL)
			munmap(g->page[i], (size_t)pg);
		close(g->fd[i]);
	}
	memset(g, 0, sizeof(*g));
}

int
stats_pmu_open(struct stats_pmu_group *g, const struct stats_pmu_conf *c,
	       int tid, bool self, unsigned int *failed)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned int i;
	int fd;

	memset(g, 0, sizeof(*g));
	if (c == NULL || c->n == 0 || c->n > STATS_PMU_MAX)
		return -EINVAL;
	g->tid = tid;
	g->rdpmc = self;
	for (i = 0; i < c->n; i++) {
		fd = __pmu_open_one(&c->ev[i], tid, i == 0 ? -1 : g->fd[0]);
		if (fd < 0)
			goto fail;
		g->fd[g->n++] = fd;
		if (!self)
			continue;
		g->page[i] = mmap(NULL, (size_t)pg, PROT_READ, MAP_SHARED, fd, 0);
		if (g->page[i] == MAP_FAILED) {
			g->page[i] = NULL;
			fd = -errno;
			goto fail;
		}
	}
	if (ioctl(g->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0) {
		fd = -errno;
		i = 0;
		goto fail;
	}
	/* Enabled, so each page says what its event allows now. */
	for (i = 0; self && i < g->n; i++) {
		const struct perf_event_mmap_page *p = g->page[i];

		g->rdpmc &= p->cap_user_rdpmc && p->cap_user_time;
	}
	return 0;
fail:
	if (failed != NULL)
		*failed = i;
	stats_pmu_close(g);
	return fd;
}

int
stats_pmu_disable(struct stats_pmu_group *g)
{
	if (g->n == 0)
		return -EBADF;
	return ioctl(g->fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) == 0 ?
	       0 : -errno;
}

int
stats_pmu_parse_read(const uint64_t *buf, size_t len, unsigned int n,
		     struct stats_pmu_count *out)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (n > STATS_PMU_MAX || len < (3 + (size_t)n) * sizeof(uint64_t) ||
	    buf[0] != n)
		return -EINVAL;
	out->enabled_ns = buf[1];
	out->running_ns = buf[2];
	for (i = 0; i < n; i++)
		out->v[i] = buf[3 + i];
	out->n = (uint8_t)n;
	out->known = true;
	return 0;
}

int
stats_pmu_read(const struct stats_pmu_group *g, struct stats_pmu_count *out)
{
	uint64_t buf[3 + STATS_PMU_MAX];
	ssize_t k;

	memset(out, 0, sizeof(*out));
	if (g->n == 0)
		return -EBADF;
	k = read(g->fd[0], buf, sizeof(buf));
	if (k < 0)
		return -errno;
	return stats_pmu_parse_read(buf, (size_t)k, g->n, out);
}

/* ---- values ---- */

double
stats_pmu_scale(const struct stats_pmu_count *c, unsigned int i)
{
	if (!c->known || i >= c->n || c->running_ns == 0)
		return 0;
	if (c->running_ns >= c->enabled_ns)
		return (double)c->v[i];
	return (double)c->v[i] * (double)c->enabled_ns / (double)c->running_ns;
}

static inline uint64_t
__pmu_grown(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

void
stats_pmu_delta(const struct stats_pmu_count *a, const struct stats_pmu_count *b,
		struct stats_pmu_delta *d)
{
	static const struct stats_pmu_count zero;
	unsigned int i;

	memset(d, 0, sizeof(*d));
	if (a == NULL)
		a = &zero;
	if (!b->known || (a != &zero && (!a->known || a->n != b->n)))
		return;
	d->n = b->n;
	d->enabled_ns = __pmu_grown(a->enabled_ns, b->enabled_ns);
	d->running_ns = __pmu_grown(a->running_ns, b->running_ns);
	/* enabled without running: the group never had the PMU (unknown);
	 * neither: nothing elapsed (the group was stopped), exactly 0 */
	if (d->running_ns == 0 && d->enabled_ns > 0)
		return;
	d->scaled = d->running_ns < d->enabled_ns;
	for (i = 0; i < d->n; i++) {
		double v = (double)__pmu_grown(a->v[i], b->v[i]);

		d->v[i] = d->scaled ? v * (double)d->enabled_ns /
				      (double)d->running_ns : v;
	}
	d->known = true;
}

void
stats_pmu_delta_add(struct stats_pmu_delta *sum, const struct stats_pmu_delta *d)
{
	unsigned int i;

	if (sum->n == 0) {
		*sum = *d;
		return;
	}
	sum->known &= d->known && d->n == sum->n;
	sum->scaled |= d->scaled;
	sum->enabled_ns += d->enabled_ns;
	sum->running_ns += d->running_ns;
	for (i = 0; i < sum->n && i < d->n; i++)
		sum->v[i] += d->v[i];
}

double
stats_pmu_ipc(const struct stats_pmu_conf *c, const struct stats_pmu_delta *d)
{
	int cy = __pmu_index(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	int in = __pmu_index(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);

	if (cy < 0 || in < 0 || !d->known || d->v[cy] <= 0)
		return NAN;
	return d->v[in] / d->v[cy];
}

/* ---- why not ---- */

/* The first line of root/path into buf (no newline); false if unreadable. */
static bool
__pmu_line(const char *root, const char *path, char *buf, size_t len)
{
	char p[PATH_MAX];
	FILE *f;
	bool ok;

	snprintf(p, sizeof(p), "%s/%s", root != NULL ? root : "", path);
	f = fopen(p, "re");
	if (f == NULL)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* The name of the CPU's PMU among root's event sources into buf ("cpu",
 * "cpu_core", "armv8_pmuv3_0"...); false when there is none. */
static bool
__pmu_device(const char *root, char *buf, size_t len)
{
	char p[PATH_MAX];
	struct dirent *e;
	DIR *d;
	bool found = false;

	snprintf(p, sizeof(p), "%s/sys/bus/event_source/devices",
		 root != NULL ? root : "");
	d = opendir(p);
	if (d == NULL)
		return false;
	while (!found && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, "cpu") == 0 ||
		    strncmp(e->d_name, "cpu_", 4) == 0 ||
		    strncmp(e->d_name, "armv", 4) == 0 ||
		    strstr(e->d_name, "pmu") != NULL) {
			snprintf(buf, len, "%.*s", (int)(len > 1 ? len - 1 : 0),
				 e->d_name);
			found = true;
		}
	closedir(d);
	return found;
}

void
stats_pmu_explain(const struct stats_pmu_conf *c, unsigned int ev, int err,
		  const char *root, char *line, size_t len)
{
	const struct stats_pmu_event *e = &c->ev[ev < c->n ? ev : 0];
	bool hw = stats_pmu_event_is_hw(e);
	char par[32], dev[64];

	if (root == NULL)
		root = "";
	switch (err) {
	case -EACCES:
	case -EPERM:
		if (!__pmu_line(root, "proc/sys/kernel/perf_event_paranoid", par,
				sizeof(par)))
			snprintf(par, sizeof(par), "unknown");
		snprintf(line, len, "--pmu %s: perf_event_open refused (%s): "
			 "kernel.perf_event_paranoid is %s, and a process's own %s "
			 "need %d or less (or CAP_PERFMON): as root, sysctl -w "
			 "kernel.perf_event_paranoid=%d", e->name, strerror(-err), par,
			 hw ? "hardware events in user space" :
			 "software events (they count in the kernel)", hw ? 2 : 1,
			 hw ? 2 : 1);
		return;
	case -ENOSYS:
		snprintf(line, len, "--pmu %s: this kernel has no perf_event_open "
			 "(CONFIG_PERF_EVENTS is off): no counter can be read", e->name);
		return;
	case -EMFILE:
	case -ENFILE:
		snprintf(line, len, "--pmu %s: out of file descriptors (%s): one per "
			 "event for each worker and reading thread: raise ulimit -n",
			 e->name, strerror(-err));
		return;
	case -ENOENT:
	case -ENODEV:
	case -EOPNOTSUPP:
	case -EINVAL:
		if (!hw)
			break;
		if (!__pmu_device(root, dev, sizeof(dev))) {
			snprintf(line, len, "--pmu %s: no hardware PMU: the kernel has "
				 "no PMU driver here (no /sys/bus/event_source/devices/cpu: "
				 "a VM without a virtual PMU?): only software events count "
				 "(task-clock, context-switches, cpu-migrations, "
				 "page-faults); scripts/bench.sh cachesim simulates the "
				 "caches on any machine", e->name);
			return;
		}
		snprintf(line, len, "--pmu %s: the CPU's PMU (%s) does not count this "
			 "event (%s): perf list shows what it counts", e->name, dev,
			 strerror(-err));
		return;
	default:
		break;
	}
	snprintf(line, len, "--pmu %s: perf_event_open failed: %s", e->name,
		 strerror(err < 0 ? -err : err));
}

void
stats_pmu_explain_rdpmc(const char *root, char *line, size_t len)
{
	char dev[64], path[128], v[32];

	if (!__pmu_device(root, dev, sizeof(dev)))
		snprintf(dev, sizeof(dev), "cpu");
	snprintf(path, sizeof(path), "sys/bus/event_source/devices/%s/rdpmc", dev);
	if (__pmu_line(root, path, v, sizeof(v)))
		snprintf(line, len, "--pmu: rdpmc is not allowed in user space (/%s "
			 "is %s): as root, echo 1 > /%s (1: for a thread whose "
			 "counters are mapped, the kernel's default)", path, v, path);
	else
		snprintf(line, len, "--pmu: the PMU's pages do not allow rdpmc, and "
			 "there is no /%s to allow it: hardware events cannot be read "
			 "without a system call here", path);
}

int
stats_pmu_probe(const struct stats_pmu_conf *c, const char *root, char *line,
		size_t len)
{
	struct stats_pmu_group g;
	unsigned int failed = 0, i;
	int rc = stats_pmu_open(&g, c, 0, true, &failed);

	if (rc != 0) {
		stats_pmu_explain(c, failed, rc, root, line, len);
		return rc;
	}
	for (i = 0; i < g.n; i++) {
		const struct perf_event_mmap_page *p = g.page[i];

		if (stats_pmu_event_is_hw(&c->ev[i]) && !p->cap_user_rdpmc) {
			stats_pmu_explain_rdpmc(root, line, len);
			rc = -EACCES;
			break;
		}
	}
	stats_pmu_close(&g);
	return rc;
}
