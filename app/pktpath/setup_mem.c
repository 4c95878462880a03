/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What set-up may allocate, sized before it is allocated, and set-up's end
 * on a signal.
 *
 * Every allocation that grows with an option (the templates with --flows
 * and --pkt-size or --template, the mbuf pools with --mbufs and the
 * workers, the capture rings with --capture-ring and --capture-snaplen, the
 * peers, the MIB blocks with --mib-lcores, the run's interval history with
 * --duration and --interval) is computed first and compared with what
 * there is for it: EAL's heap (its free bytes, plus the free hugepages it
 * may grow on when it runs on hugepages) for rte_malloc()'s, the machine
 * (MemAvailable, and the process's own limits: RLIMIT_DATA, RLIMIT_AS, its
 * cgroup's memory limit, v2 or v1) for malloc()'s. Over it, set-up ends
 * with one line saying what it would need and what there is, and exit
 * code 2, before a byte is allocated: an allocation the kernel would grant
 * and then fail to back (9.4 GB of templates) must not start.
 *
 * A SIGINT or SIGTERM during set-up (the handler sets app_quit) ends it at
 * the next step, or inside a long step (templates, pcap templates: they
 * poll app_quit per frame), with one line and exit 128 + the signal.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "app.h"

/* "9.4 GiB", "512 MiB", "64 KiB". */
static const char *
__sz(uint64_t n, char *s, size_t len)
{
	if (n >= (UINT64_C(1) << 30))
		snprintf(s, len, "%.1f GiB", (double)n / (1 << 30));
	else if (n >= (1u << 20))
		snprintf(s, len, "%" PRIu64 " MiB", n >> 20);
	else
		snprintf(s, len, "%" PRIu64 " KiB", (n + 1023) >> 10);
	return s;
}

/* A "Key: N kB" line of a /proc file, in bytes; false when it has none. */
static bool
__proc_kb(const char *file, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);
	char line[256];
	bool found = false;
	FILE *f = fopen(file, "r");

	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
			*v = strtoull(line + kl + 1, NULL, 10) << 10;
			found = true;
		}
	fclose(f);
	return found;
}

/* One number from a cgroup file; false for "max", none, or v1's
 * "unlimited" (a page-rounded 2^63 - 1). */
static bool
__cg_read(const char *dir, const char *name, uint64_t *v)
{
	char path[640], buf[64];
	bool ok = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f == NULL)
		return false;
	if (fgets(buf, sizeof(buf), f) != NULL && buf[0] >= '0' && buf[0] <= '9') {
		*v = strtoull(buf, NULL, 10);
		ok = *v < (UINT64_C(1) << 62);
	}
	fclose(f);
	return ok;
}

/* A key's number in a cgroup's memory.stat; 0 if none. */
static uint64_t
__cg_stat(const char *dir, const char *key)
{
	size_t kl = strlen(key);
	char path[640], line[128];
	uint64_t v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, kl) == 0 && line[kl] == ' ')
			v = strtoull(line + kl + 1, NULL, 10);
	fclose(f);
	return v;
}

/* The process's cgroup memory limit and what it uses of it, less the page
 * cache the kernel gives back before it refuses (inactive_file, as
 * MemAvailable counts it): v2's memory.max and memory.current, or v1's
 * memory.limit_in_bytes and memory.usage_in_bytes. */
static bool
__cgroup(uint64_t *max, uint64_t *cur)
{
	char line[512], dir[600];
	bool ok = false;
	uint64_t cache = 0;
	FILE *f = fopen("/proc/self/cgroup", "r");

	if (f == NULL)
		return false;
	while (!ok && fgets(line, sizeof(line), f) != NULL) {
		char *ctl = strchr(line, ':'), *path = ctl ? strchr(ctl + 1, ':') : NULL;

		if (path == NULL)
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		if (strcmp(ctl + 1, "") == 0) {			/* v2 */
			snprintf(dir, sizeof(dir), "/sys/fs/cgroup%s", path);
			ok = __cg_read(dir, "memory.max", max) &&
			     __cg_read(dir, "memory.current", cur);
			cache = ok ? __cg_stat(dir, "inactive_file") : 0;
		} else if (strstr(ctl + 1, "memory") != NULL) {	/* v1 */
			snprintf(dir, sizeof(dir), "/sys/fs/cgroup/memory%s", path);
			ok = __cg_read(dir, "memory.limit_in_bytes", max) &&
			     __cg_read(dir, "memory.usage_in_bytes", cur);
			cache = ok ? __cg_stat(dir, "total_inactive_file") : 0;
		}
	}
	fclose(f);
	if (ok)
		*cur = *cur > cache ? *cur - cache : 0;
	return ok;
}

/* Lower *avail to limit - used if that is less, saying so in says. */
static void
__bound(uint64_t *avail, char *says, size_t len, const char *name,
	uint64_t limit, uint64_t used)
{
	uint64_t left = limit > used ? limit - used : 0;
	char a[32], b[32];

	if (left >= *avail)
		return;
	*avail = left;
	snprintf(says, len, "%s %s, %s in use", name, __sz(limit, a, sizeof(a)),
		 __sz(used, b, sizeof(b)));
}

uint64_t
app_mem_host(char *says, size_t len)
{
	uint64_t avail = UINT64_MAX, v = 0, max, cur;
	struct rlimit rl;
	char a[32];

	snprintf(says, len, "no figure");
	if (__proc_kb("/proc/meminfo", "MemAvailable", &v)) {
		avail = v;
		snprintf(says, len, "MemAvailable %s", __sz(v, a, sizeof(a)));
	}
	if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    __proc_kb("/proc/self/status", "VmData", &v))
		__bound(&avail, says, len, "RLIMIT_DATA", rl.rlim_cur, v);
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    __proc_kb("/proc/self/status", "VmSize", &v))
		__bound(&avail, says, len, "RLIMIT_AS", rl.rlim_cur, v);
	if (__cgroup(&max, &cur))
		__bound(&avail, says, len, "the cgroup's memory limit", max, cur);
	return avail;
}

/* Free hugepages EAL's heap may grow on: every size's free pages less the
 * ones promised to mappings already (resv). */
static uint64_t
__free_hugepages(void)
{
	static const char *const dir = "/sys/kernel/mm/hugepages";
	static const unsigned int kb[] = { 2048, 1048576 };
	uint64_t total = 0, f, r;
	unsigned int i;
	char path[128];

	for (i = 0; i < RTE_DIM(kb); i++) {
		FILE *fp;

		f = r = 0;
		snprintf(path, sizeof(path), "%s/hugepages-%ukB/free_hugepages", dir, kb[i]);
		fp = fopen(path, "r");
		if (fp == NULL)
			continue;
		if (fscanf(fp, "%" SCNu64, &f) != 1)
			f = 0;
		fclose(fp);
		snprintf(path, sizeof(path), "%s/hugepages-%ukB/resv_hugepages", dir, kb[i]);
		fp = fopen(path, "r");
		if (fp != NULL) {
			if (fscanf(fp, "%" SCNu64, &r) != 1)
				r = 0;
			fclose(fp);
		}
		total += (f > r ? f - r : 0) * ((uint64_t)kb[i] << 10);
	}
	return total;
}

uint64_t
app_mem_eal(char *says, size_t len)
{
	struct rte_malloc_socket_stats st;
	uint64_t total = 0, avail = 0, huge = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) == 0) {
			total += st.heap_totalsz_bytes;
			avail += st.heap_freesz_bytes;
		}
	/* On hugepages the heap grows as long as free pages remain (unless
	 * -m or --legacy-mem fixed it: the allocation then fails, and says
	 * so, after the check). */
	if (rte_eal_has_hugepages())
		huge = __free_hugepages();
	snprintf(says, len, "EAL's heap has %" PRIu64 " MiB, %" PRIu64 " MiB free",
		 total >> 20, avail >> 20);
	if (huge != 0) {
		size_t l = strlen(says);
		char a[32];

		snprintf(says + l, len - l, " and %s of free hugepages to grow on",
			 __sz(huge, a, sizeof(a)));
	}
	return avail + huge;
}

static int
__eal_page_size(const struct rte_memseg_list *msl, void *arg)
{
	uint64_t *sz = arg;

	if (msl->external)
		return 0;
	*sz = msl->page_sz;
	return 1;
}

uint64_t
app_mem_eal_page(void)
{
	uint64_t sz = 0;

	if (!rte_eal_has_hugepages())
		return (uint64_t)sysconf(_SC_PAGESIZE);
	rte_memseg_list_walk(__eal_page_size, &sz);
	return sz;
}

int
app_mem_fits(enum app_mem_kind kind, const char *what, uint64_t need,
	     const char *fix)
{
	char says[160], n[32], a[32];
	uint64_t avail = kind == APP_MEM_EAL ? app_mem_eal(says, sizeof(says)) :
			 app_mem_host(says, sizeof(says));

	if (need <= avail)
		return 0;
	if (kind == APP_MEM_EAL)
		fprintf(stderr, "pktpath: out of memory for %s: needs %s, %s; give EAL "
			"more memory (-m MB, or hugepages) or %s\n", what,
			__sz(need, n, sizeof(n)), says, fix);
	else
		fprintf(stderr, "pktpath: out of memory for %s: needs %s, the machine "
			"has %s for it (%s); %s\n", what, __sz(need, n, sizeof(n)),
			__sz(avail, a, sizeof(a)), says, fix);
	return -1;
}

void
app_mem_need(enum app_mem_kind kind, const char *what, uint64_t need,
	     const char *fix)
{
	if (app_mem_fits(kind, what, need, fix) != 0)
		app_usage_exit(NULL);
}

/* EAL's memory could not hold what the options ask for after all (the
 * check passed: fragments, --legacy-mem): the same line, with what the
 * allocation asked for. */
void
app_oom_exit(const char *what, uint64_t need, const char *fix)
{
	char says[160], n[32];

	app_mem_eal(says, sizeof(says));
	app_usage_exit("pktpath: out of memory for %s: needs %s, %s; give EAL more "
		       "memory (-m MB, or hugepages) or %s", what,
		       __sz(need, n, sizeof(n)), says, fix);
}

void
app_setup_quit(const char *step)
{
	int sig = app_quit;

	if (sig == 0)
		return;
	fprintf(stderr, "pktpath: %s during set-up (%s): stopped\n",
		sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal",
		step);
	rte_eal_cleanup();
	exit(128 + sig);
}
