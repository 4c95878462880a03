/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_BENCH_PVT_H
#define PKTPATH_BENCH_PVT_H

/*
 * lib/bench internals, shared by its .c files and its unit test. Other
 * modules use bench.h only.
 */

#include <stdbool.h>
#include <stddef.h>

#include "bench.h"

/*
 * For tests: make bench_cpu_has_rdtscp() answer false (pretend) or what
 * cpuid says (!pretend), so that the fallback and the refusal can be
 * tested on a CPU that has rdtscp. Not thread-safe.
 */
void __bench_cpu_pretend_no_rdtscp(bool pretend);

/*
 * If no timer was chosen yet, choose as bench_timer_select(NULL) does.
 * 0, or its error (a bad PKTPATH_BENCH_TIMER) in err.
 */
int __bench_timer_ensure(char *err, size_t len);

#endif /* PKTPATH_BENCH_PVT_H */
