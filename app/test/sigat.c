/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pktpath-sigat.so: LD_PRELOAD it into pktpath to send it a signal in the
 * middle of a long set-up step, at a point fixed by a count rather than by
 * a time, and to count how far the step went on after it:
 *   PKTPATH_SIGAT=SIZE:N[:SIG]  at the N-th malloc(SIZE), raise SIG (2,
 *                               SIGINT, by default) in the calling thread
 * At exit it prints "sigat: K malloc(SIZE) after the signal" on stderr:
 * a step that stops when asked makes no more of its per-item allocations
 * (K is 0); one that does not makes all of them. Pick a SIZE that only the
 * step allocates (a --pkt-size, a pcap's frame length). It wraps malloc()
 * (glibc's __libc_malloc underneath) and changes nothing else.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void *__libc_malloc(size_t size);

static size_t at_size;
static unsigned long at_n, seen, after;
static int at_sig = SIGINT, armed = -1;

static void
__sigat_conf(void)
{
	const char *e = getenv("PKTPATH_SIGAT");
	unsigned long sz = 0, n = 0;
	int sig = SIGINT;

	armed = 0;
	if (e != NULL && sscanf(e, "%lu:%lu:%d", &sz, &n, &sig) >= 2 && sz && n) {
		at_size = sz;
		at_n = n;
		at_sig = sig;
		armed = 1;
	}
}

void *
malloc(size_t size)
{
	if (armed < 0)
		__sigat_conf();
	/* atomic: other threads allocate too (of other sizes, as a rule) */
	if (armed && size == at_size) {
		if (__atomic_load_n(&seen, __ATOMIC_RELAXED) >= at_n)
			__atomic_add_fetch(&after, 1, __ATOMIC_RELAXED);
		else if (__atomic_add_fetch(&seen, 1, __ATOMIC_RELAXED) == at_n)
			raise(at_sig);
	}
	return __libc_malloc(size);
}

static void __attribute__((destructor))
__sigat_report(void)
{
	char line[96];
	int n;

	if (armed <= 0)
		return;
	n = snprintf(line, sizeof(line), "sigat: %lu malloc(%zu) after the signal%s\n",
		     after, at_size, seen < at_n ? " (never sent)" : "");
	if (n > 0 && write(STDERR_FILENO, line, (size_t)n) < 0)
		return;
}
