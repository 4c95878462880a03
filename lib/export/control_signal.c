/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control table's signals (export_control.h): a handler that only
 * records, and a runner for the application's control loop.
 *
 * The handler runs on whatever thread the kernel picks, at any moment: it
 * looks the signal up in the constant table and stores the value and the
 * sender, then the pending flag (a release store), in volatile
 * sig_atomic_t slots (one per row). The runner clears the flag (an
 * acquire-release exchange) before it reads them, so a signal that
 * comes meanwhile is run again at the next call, never lost; two signals
 * between two calls run once, with the last one's value (as one pending
 * signal of a kind does in the kernel).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include "export_control.h"

/* The log type pktpath.control (--log-level=pktpath.control:debug). */
RTE_LOG_REGISTER(export_control_logtype, pktpath.control, INFO);
#define CTL_LOG(level, fmt, ...)                                               \
	rte_log(RTE_LOG_##level, export_control_logtype, "pktpath: " fmt "\n", \
		##__VA_ARGS__)

#define SLOTS 32 /* rows of the table, at most */

static struct {
	volatile sig_atomic_t pending;
	volatile sig_atomic_t has_value; /* sigqueue(): value is set */
	volatile sig_atomic_t value;
	volatile sig_atomic_t pid;
} slot[SLOTS];

static void
__catch(int sig, siginfo_t *si, void *uc)
{
	unsigned int i, n;
	const struct export_ctl_cmd *t = export_control_table(&n);

	RTE_SET_USED(uc);
	for (i = 0; i < n && i < SLOTS; i++) {
		if (t[i].signal != sig)
			continue;
		slot[i].pid = si != NULL ? (sig_atomic_t)si->si_pid : 0;
		slot[i].has_value = si != NULL && si->si_code == SI_QUEUE;
		slot[i].value = si != NULL ? (sig_atomic_t)si->si_value.sival_int : 0;
		/* last, a release: the runner, on another thread maybe,
		 * reads the rest after its acquire of the flag (volatile
		 * orders the compiler's accesses, not a weakly ordered CPU's) */
		__atomic_store_n(&slot[i].pending, 1, __ATOMIC_RELEASE);
	}
}

void
export_control_signals_install(void)
{
	const struct export_ctl_cmd *t;
	struct sigaction sa;
	unsigned int i, n;

	t = export_control_table(&n);
	RTE_VERIFY(n <= SLOTS);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = __catch;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < n; i++)
		if (t[i].signal != 0)
			sigaction(t[i].signal, &sa, NULL);
}

void
export_control_signals_run(struct stats *s, const struct export_hooks *hooks)
{
	const struct export_ctl_cmd *t;
	struct export_ctl_ctx c;
	char src[64], raw[16];
	unsigned int i, n;
	bool given;
	int rc;

	t = export_control_table(&n);
	for (i = 0; i < n; i++) {
		if (t[i].signal == 0 ||
		    !__atomic_load_n(&slot[i].pending, __ATOMIC_ACQUIRE))
			continue;
		/* first, and before the reads below (a full barrier: the
		 * reads must not pass it): a signal from now on runs again */
		__atomic_exchange_n(&slot[i].pending, 0, __ATOMIC_ACQ_REL);
		given = slot[i].has_value && t[i].arg != EXPORT_CTL_ARG_NONE;
		snprintf(raw, sizeof(raw), "%d", (int)slot[i].value);
		if (t[i].signal_pid)
			snprintf(src, sizeof(src), "SIG%s from pid %d",
				 sigabbrev_np(t[i].signal), (int)slot[i].pid);
		else
			snprintf(src, sizeof(src), "SIG%s", sigabbrev_np(t[i].signal));
		memset(&c, 0, sizeof(c));
		c.s = s;
		c.hooks = hooks;
		c.source = src;
		c.request = src;
		c.argword = "value";
		rc = export_control_run(&t[i], given ? raw : NULL,
					given ? strlen(raw) : 0, true, &c);
		if (rc == 0)
			CTL_LOG(INFO, "%s: %s", src, c.msg);
		else
			CTL_LOG(WARNING, "%s: refused: %s", src, c.reason);
	}
}
