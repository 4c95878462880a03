/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The end-of-interval timer: `rdtscp; lfence` where the CPU has rdtscp,
 * `lfence; rdtsc; lfence` everywhere else. cpuid is read once per process.
 * See bench.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_pvt.h"	/* first: rte_config.h defines RTE_ARCH_X86 */
#include "base.h"

#if defined(RTE_ARCH_X86)
#include <cpuid.h>
#endif

static const char *const timer_names[BENCH_TIMER_MAX] = {
	[BENCH_TIMER_RDTSCP] = "rdtscp",
	[BENCH_TIMER_LFENCE] = "lfence",
};

static const char *const timer_insns[BENCH_TIMER_MAX] = {
#if defined(RTE_ARCH_X86)
	[BENCH_TIMER_RDTSCP] = "rdtscp; lfence",
	[BENCH_TIMER_LFENCE] = "lfence; rdtsc; lfence",
#else
	[BENCH_TIMER_RDTSCP] = "rte_rdtsc_precise()",
	[BENCH_TIMER_LFENCE] = "rte_rdtsc_precise()",
#endif
};

/* -1: not read yet; 0/1 what cpuid said. Set once by the first reader;
 * a second concurrent reader computes and stores the same value. */
static int cpu_rdtscp = -1;
static bool pretend_no_rdtscp;
/* -1: nothing chosen yet (auto on first use). */
static int timer_in_force = -1;

static bool
__bench_cpuid_rdtscp(void)
{
#if defined(RTE_ARCH_X86)
	unsigned int eax, ebx, ecx, edx;

	/* CPUID 8000_0001h EDX bit 27: RDTSCP (Intel SDM vol. 2A, AMD APM
	 * vol. 3). __get_cpuid() returns 0 if the leaf is not supported. */
	if (__get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx) == 0)
		return false;
	return (edx >> 27) & 1;
#else
	return false;
#endif
}

bool
bench_cpu_has_rdtscp(void)
{
	int v = __atomic_load_n(&cpu_rdtscp, __ATOMIC_RELAXED);

	if (v < 0) {
		v = __bench_cpuid_rdtscp();
		__atomic_store_n(&cpu_rdtscp, v, __ATOMIC_RELAXED);
	}
	return v && !pretend_no_rdtscp;
}

bool
bench_cpu_invariant_tsc(void)
{
#if defined(RTE_ARCH_X86)
	unsigned int eax, ebx, ecx, edx;

	if (__get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx) == 0)
		return false;
	return (edx >> 8) & 1;
#else
	return false;
#endif
}

void
__bench_cpu_pretend_no_rdtscp(bool pretend)
{
	pretend_no_rdtscp = pretend;
}

const char *
bench_timer_name(enum bench_timer t)
{
	return BASE_ENUM_NAME(timer_names, t);
}

const char *
bench_timer_insns(enum bench_timer t)
{
	return BASE_ENUM_NAME(timer_insns, t);
}

int
bench_timer_select(const char *name, char *err, size_t len)
{
	char q[BASE_QUOTE_LEN];
	const char *src = "timer";
	bool has = bench_cpu_has_rdtscp();
	enum bench_timer t;
	int i;

	if (name == NULL) {
		name = getenv("PKTPATH_BENCH_TIMER");
		src = "PKTPATH_BENCH_TIMER";
		if (name == NULL || name[0] == '\0')
			name = "auto";
	}
	i = strcmp(name, "auto") == 0 ? (has ? BENCH_TIMER_RDTSCP : BENCH_TIMER_LFENCE) :
		base_name_index(timer_names, BENCH_TIMER_MAX, name);
	if (i < 0) {
		if (err != NULL)
			snprintf(err, len, "%s '%s': unknown timer (auto, rdtscp or lfence)",
				 src, base_quote(q, sizeof(q), name));
		return -EINVAL;
	}
	t = (enum bench_timer)i;
	if (t == BENCH_TIMER_RDTSCP && !has) {
		if (err != NULL)
			snprintf(err, len, "%s rdtscp: this CPU has no rdtscp (cpuid 80000001h EDX bit 27); use lfence (lfence; rdtsc; lfence), which auto picks here",
				 src);
		return -ENOTSUP;
	}
	__atomic_store_n(&timer_in_force, (int)t, __ATOMIC_RELAXED);
	return 0;
}

int
__bench_timer_ensure(char *err, size_t len)
{
	if (__atomic_load_n(&timer_in_force, __ATOMIC_RELAXED) >= 0)
		return 0;
	return bench_timer_select(NULL, err, len);
}

enum bench_timer
bench_timer_get(void)
{
	int t = __atomic_load_n(&timer_in_force, __ATOMIC_RELAXED);

	if (t >= 0)
		return (enum bench_timer)t;
	/* Nothing chosen yet: what bench_timer_select(NULL) would choose. A
	 * bad PKTPATH_BENCH_TIMER is not stored here, so that the next
	 * bench_run() still refuses it with its message. */
	if (bench_timer_select(NULL, NULL, 0) == 0)
		return (enum bench_timer)__atomic_load_n(&timer_in_force,
							 __ATOMIC_RELAXED);
	return bench_cpu_has_rdtscp() ? BENCH_TIMER_RDTSCP : BENCH_TIMER_LFENCE;
}
