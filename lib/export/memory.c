/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The process's memory as /metrics shows it: resident set, live malloc()
 * bytes, live rte_malloc() bytes. A leak shows in the live heaps whatever
 * the allocator does with its free memory; RSS also moves with that (a
 * sanitizer's allocator above all), so the soak checks the heaps and
 * reports RSS beside them.
 */
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_malloc.h>
#include <rte_lcore.h>
#include <rte_memory.h>
#include <rte_eal.h>

/* gcc says __SANITIZE_ADDRESS__, clang __has_feature(address_sanitizer). */
#if defined(__SANITIZE_ADDRESS__)
#define PP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PP_ASAN 1
#endif
#endif

#ifdef PP_ASAN
/* libasan's (sanitizer/allocator_interface.h, which gcc does not install). */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

#include "export.h"

/* Live bytes handed out by malloc(): under AddressSanitizer its allocator's
 * own count (glibc's arenas are not used there); else glibc's in-use bytes
 * in arenas plus its mmap()ed chunks. */
static uint64_t
__malloc_live(void)
{
#ifdef PP_ASAN
	return (uint64_t)__sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 mi = mallinfo2();

	return (uint64_t)mi.uordblks + (uint64_t)mi.hblkhd;
#endif
}

int
export_memory_read(struct export_memory *m, bool eal)
{
	unsigned long size = 0, resident = 0;
	FILE *f;
	int n;

	if (m == NULL)
		return -EINVAL;
	m->rss_bytes = 0;
	f = fopen("/proc/self/statm", "r");
	if (f != NULL) {
		n = fscanf(f, "%lu %lu", &size, &resident);
		fclose(f);
		if (n == 2)
			m->rss_bytes = (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
	}
	m->heap_bytes = __malloc_live();
	m->eal_heap_bytes = 0;
	m->eal = eal;
	if (eal) {
		unsigned int i;

		for (i = 0; i < rte_socket_count(); i++) {
			struct rte_malloc_socket_stats st;
			int sock = rte_socket_id_by_idx(i);

			if (sock >= 0 && rte_malloc_get_socket_stats(sock, &st) == 0)
				m->eal_heap_bytes += st.heap_allocsz_bytes;
		}
	}
	return m->rss_bytes != 0 ? 0 : -EIO;
}

static int
__page_size(const struct rte_memseg_list *msl, void *arg)
{
	uint64_t *sz = arg;

	if (msl->external)
		return 0;
	*sz = msl->page_sz;
	return 1;
}

const char *
export_memory_kind(void)
{
	static char buf[64];
	uint64_t sz = 0;

	if (!rte_eal_has_hugepages())
		return "no-huge (4 KiB pages)";
	rte_memseg_list_walk(__page_size, &sz);
	if (sz >= (1u << 30))
		snprintf(buf, sizeof(buf), "hugepages (%" PRIu64 " GiB)", sz >> 30);
	else
		snprintf(buf, sizeof(buf), "hugepages (%" PRIu64 " MiB)", sz >> 20);
	return buf;
}
