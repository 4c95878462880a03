/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_bpf_load under limits, and the JIT's code used only when it checks
 * out.
 *
 * Time: rte_bpf's verifier (DPDK 22.11 bpf_validate.c evaluate()) walks
 * every path of the program, pruning only states it finds "within" one of
 * at most 32 safe states kept per jump target, out of a pool of 2 * (jumps
 * + 1); a program whose branches leave different constants in registers
 * defeats it, and the walk is exponential (the README's "Loading under
 * limits" has an object that kept it busy for minutes). Nothing in
 * rte_bpf_load can be interrupted. So:
 *  - the work it can do is estimated first (__pktbpf_work: the sum of the
 *    lengths of all paths, which is what it evaluates without pruning);
 *  - up to PKTBPF_LOAD_WORK_FAST it is loaded in-process directly (what that
 *    costs at most: the README's "Loading under limits");
 *  - beyond, a trial load runs in a forked child first, killed after the
 *    timeout or as soon as *cancel is set (pktpath points it at its
 *    SIGINT/SIGTERM flag), so a signal ends the wait at once; the real
 *    load, which then takes about as long as the trial did, runs in a
 *    thread while the caller keeps watching *cancel (on cancel the thread
 *    is left to finish and free its result, and the caller returns).
 * The child is a copy of this process that only runs rte_bpf_load (mmap,
 * calloc, the log: its log goes to a memory stream whose first line is
 * sent back as the reason of a refusal) and exits with _exit(); it dies
 * with its parent (PR_SET_PDEATHSIG).
 *
 * Memory safety: rte_bpf_load always runs the JIT (x86-64), and fault C
 * can make the JIT's final pass longer than the buffer it mapped. The
 * prediction (bpfjit.c) says when; __pktbpf_jit_settle() then changes the
 * layout with a no-op jump, and a program it cannot settle whose final
 * pass would cross its buffer's last page is not loaded at all (-ENOTSUP).
 * A trial load that crashes is reported (-EFAULT) and never repeated in
 * this process.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_log.h>

#include "pktbpf_pvt.h"

#define POLL_MS 10

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX / 4 - b ? UINT64_MAX / 4 : a + b;
}

uint64_t
__pktbpf_work(const struct ebpf_insn *ins, uint32_t n)
{
	uint64_t *paths, *work, w = UINT64_MAX / 4;
	uint32_t *order, norder, from, to, k;

	if (n == 0)
		return 0;
	paths = calloc(n, sizeof(*paths));
	work = calloc(n, sizeof(*work));
	order = malloc(sizeof(*order) * n);
	if (paths == NULL || work == NULL || order == NULL ||
	    __pktbpf_topo(ins, n, order, &norder, &from, &to) != 0)
		goto out;
	/* Reverse topological order: successors first. The number of paths
	 * from i, and the sum of their lengths. */
	for (k = norder; k-- > 0;) {
		uint32_t i = order[k], s[2], j;
		int ns = __pktbpf_succ(ins, n, i, s);

		if (ns < 0)	/* __pktbpf_topo refused such a program */
			goto out;
		paths[i] = ns == 0;
		for (j = 0; j < (uint32_t)ns; j++) {
			paths[i] = sat_add(paths[i], paths[s[j]]);
			work[i] = sat_add(work[i], work[s[j]]);
		}
		work[i] = sat_add(work[i], paths[i]);
	}
	w = work[0];
out:
	free(paths);
	free(work);
	free(order);
	return w;
}

static double
now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static bool
cancelled(const volatile sig_atomic_t *c)
{
	return c != NULL && *c != 0;
}

/* What a trial child reports. */
struct trial_res {
	int rc;			/* 0 or -rte_errno */
	char msg[200];		/* the first line rte_bpf logged */
};

/* The first line of what rte_bpf logged, without its pointers. */
static void
first_line(const char *log, char *out, size_t len)
{
	size_t o = 0;

	while (*log && *log != '\n' && o + 1 < len) {
		if (log[0] == '(' && log[1] == '0' && log[2] == 'x') {
			const char *e = strchr(log, ')');

			if (e != NULL) {
				log = e + 1;
				continue;
			}
		}
		out[o++] = *log++;
	}
	out[o] = '\0';
}

static void __rte_noreturn
trial_child(const struct rte_bpf_prm *prm, int fd, pid_t parent)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGPIPE };
	struct trial_res res;
	struct rte_bpf *b;
	char *buf = NULL;
	size_t blen = 0;
	FILE *log;
	unsigned int i;

	for (i = 0; i < RTE_DIM(sigs); i++)
		signal(sigs[i], SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	memset(&res, 0, sizeof(res));
	log = open_memstream(&buf, &blen);
	if (log != NULL) {
		rte_openlog_stream(log);
		rte_log_set_level_pattern("lib.bpf", RTE_LOG_ERR);
	}
	b = rte_bpf_load(prm);
	res.rc = b != NULL ? 0 : -rte_errno;
	if (log != NULL) {
		fflush(log);
		if (buf != NULL)
			first_line(buf, res.msg, sizeof(res.msg));
	}
	if (write(fd, &res, sizeof(res)) != (ssize_t)sizeof(res))
		_exit(1);
	_exit(0);
}

/*
 * Load prm in a child: 0 (it loads), -EINVAL (refused: msg), -ETIMEDOUT,
 * -EINTR, -EFAULT (it crashed: msg), -ECHILD (no child: msg), -errno.
 */
static int
trial(const struct rte_bpf_prm *prm, double timeout_s,
      const volatile sig_atomic_t *cancel, char *msg, size_t msglen,
      double *took)
{
	struct trial_res res;
	double t0 = now_s();
	pid_t pid, self = getpid();
	int fd[2], st = 0, rc = 1;
	ssize_t got = 0;

	msg[0] = '\0';
	if (pipe(fd) != 0) {
		snprintf(msg, msglen, "pipe: %s", strerror(errno));
		return -ECHILD;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(msg, msglen, "fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -ECHILD;
	}
	if (pid == 0) {
		close(fd[0]);
		trial_child(prm, fd[1], self);
	}
	close(fd[1]);
	while (rc == 1) {
		struct pollfd p = { .fd = fd[0], .events = POLLIN };
		int r = poll(&p, 1, POLL_MS);

		if (r > 0) {
			ssize_t k = read(fd[0], (char *)&res + got, sizeof(res) - got);

			if (k > 0)
				got += k;
			if (k <= 0 || got == (ssize_t)sizeof(res))
				rc = 0;		/* result or EOF: reap below */
		} else if (r < 0 && errno != EINTR) {
			rc = -errno;
		}
		if (rc == 1 && cancelled(cancel))
			rc = -EINTR;
		else if (rc == 1 && now_s() - t0 > timeout_s)
			rc = -ETIMEDOUT;
	}
	if (rc != 0)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	close(fd[0]);
	*took = now_s() - t0;
	if (rc != 0)
		return rc;
	if (got != (ssize_t)sizeof(res)) {
		if (WIFSIGNALED(st))
			snprintf(msg, msglen, "it crashed (signal %d)", WTERMSIG(st));
		else
			snprintf(msg, msglen, "it exited with %d", WEXITSTATUS(st));
		return -EFAULT;
	}
	res.msg[sizeof(res.msg) - 1] = '\0';
	snprintf(msg, msglen, "%s", res.msg);
	return res.rc == 0 ? 0 : -EINVAL;
}

/*
 * rte_bpf logs a refusal's reason at ERR level itself; pktpath's one-line
 * error carries it (from a trial child), so in-process loads keep lib.bpf
 * quiet -- unless the user asked for its debug output. Nested across
 * threads: the first in saves the level, the last out restores it.
 */
static pthread_mutex_t quiet_mtx = PTHREAD_MUTEX_INITIALIZER;
static unsigned int quiet_depth;	/* under quiet_mtx */
static int quiet_saved = -1;		/* under quiet_mtx */

static void
bpf_log_quiet(bool on)
{
	int t = rte_log_register("lib.bpf");

	if (t < 0)
		return;
	pthread_mutex_lock(&quiet_mtx);
	if (on && quiet_depth++ == 0) {
		quiet_saved = rte_log_get_level(t);
		if (quiet_saved >= 0 && quiet_saved < (int)RTE_LOG_DEBUG)
			rte_log_set_level(t, RTE_LOG_CRIT);
		else
			quiet_saved = -1;
	} else if (!on && --quiet_depth == 0 && quiet_saved >= 0) {
		rte_log_set_level(t, (uint32_t)quiet_saved);
	}
	pthread_mutex_unlock(&quiet_mtx);
}

static struct rte_bpf *
quiet_load(const struct rte_bpf_prm *prm)
{
	struct rte_bpf *b;
	int e;

	bpf_log_quiet(true);
	b = rte_bpf_load(prm);
	e = rte_errno;
	bpf_log_quiet(false);
	rte_errno = e;
	return b;
}

/* The in-process load, in a thread the caller can walk away from. */
struct load_job {
	struct rte_bpf_prm prm;
	struct ebpf_insn *ins;		/* owned copy */
	struct rte_bpf *bpf;
	int err;
	int state;			/* atomic: JOB_* */
};
enum { JOB_RUNNING, JOB_DONE, JOB_ABANDONED };

static void
job_free(struct load_job *j)
{
	rte_bpf_destroy(j->bpf);
	free(j->ins);
	free(j);
}

static void *
job_run(void *arg)
{
	struct load_job *j = arg;

	j->bpf = quiet_load(&j->prm);
	j->err = j->bpf != NULL ? 0 : rte_errno;
	/* Release: bpf and err are visible to whoever sees DONE. Acquire: if
	 * the caller abandoned the job, its last use of j came before. */
	if (__atomic_exchange_n(&j->state, JOB_DONE, __ATOMIC_ACQ_REL) ==
	    JOB_ABANDONED)
		job_free(j);
	return NULL;
}

/* rte_bpf_load in a thread, giving up (and leaving it to finish) when
 * *cancel is set. NULL with rte_errno (EINTR when cancelled). */
static struct rte_bpf *
load_watched(const struct rte_bpf_prm *prm, const volatile sig_atomic_t *cancel)
{
	struct timespec d = { 0, POLL_MS * 1000000L };
	struct load_job *j = calloc(1, sizeof(*j));
	struct rte_bpf *b;
	pthread_t tid;
	int rc;

	if (j == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	j->ins = malloc(sizeof(*j->ins) * prm->nb_ins);
	if (j->ins == NULL) {
		free(j);
		rte_errno = ENOMEM;
		return NULL;
	}
	memcpy(j->ins, prm->ins, sizeof(*j->ins) * prm->nb_ins);
	j->prm = *prm;
	j->prm.ins = j->ins;
	rc = pthread_create(&tid, NULL, job_run, j);
	if (rc != 0) {
		free(j->ins);
		free(j);
		rte_errno = rc;
		return NULL;
	}
	/* Acquire pairs with the thread's exchange: bpf and err. */
	while (__atomic_load_n(&j->state, __ATOMIC_ACQUIRE) != JOB_DONE) {
		if (cancelled(cancel) &&
		    __atomic_exchange_n(&j->state, JOB_ABANDONED, __ATOMIC_ACQ_REL) ==
		    JOB_RUNNING) {
			pthread_detach(tid);	/* it frees j when done */
			rte_errno = EINTR;
			return NULL;
		}
		nanosleep(&d, NULL);
	}
	pthread_join(tid, NULL);
	b = j->bpf;
	rc = j->err;
	j->bpf = NULL;
	free(j->ins);
	free(j);
	if (b == NULL)
		rte_errno = rc;
	return b;
}

/* Would the JIT's final pass write past the pages it mapped? */
static bool
jit_overruns(const struct ebpf_insn *ins, uint32_t n, uint32_t ss)
{
	struct __pktbpf_jit_layout l;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	if (__pktbpf_jit_predict(ins, n, ss, &l) != 0)
		return false;		/* the JIT refuses it too */
	return l.final_sz > (l.alloc_sz + pg - 1) / pg * pg;
}

int
__pktbpf_load(const struct __pktbpf_load_req *r, struct __pktbpf_loaded *out,
	      char *err, size_t errlen)
{
	struct ebpf_insn *ins = (struct ebpf_insn *)(uintptr_t)r->ins;
	struct rte_bpf_prm prm;
	struct rte_bpf_jit j;
	char msg[200];
	uint32_t n = r->n, ss;
	bool owned = false;
	double took = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->engine = PKTBPF_INTERP;
	out->work = __pktbpf_work(r->ins, r->n);
	ss = __pktbpf_stack_size(r->ins, r->n);
	rc = __pktbpf_jit_settle(&ins, &n, ss, &owned);
	if (rc == -ENOMEM) {
		snprintf(err, errlen, "out of memory");
		return rc;
	}
	if (rc == -EAGAIN && jit_overruns(ins, n, ss)) {
		snprintf(err, errlen, "DPDK 22.11's x86 JIT would write past the end "
			 "of its code buffer for this program (its jump sizing does "
			 "not converge), so rte_bpf_load cannot be called on it");
		return -ENOTSUP;
	}
	if (rc == 1)
		PKTBPF_LOG(DEBUG, "%s: a no-op jump makes DPDK's JIT converge", r->what);
	memset(&prm, 0, sizeof(prm));
	prm.ins = ins;
	prm.nb_ins = n;
	prm.prog_arg = r->arg;

	if (out->work > PKTBPF_LOAD_WORK_FAST) {
		rc = trial(&prm, r->timeout_s, r->cancel, msg, sizeof(msg), &took);
		if (rc == 0) {
			PKTBPF_LOG(INFO, "%s: rte_bpf_load verified it in %.2f s "
				   "(about %" PRIu64 " evaluations without pruning)",
				   r->what, took, out->work);
			out->bpf = load_watched(&prm, r->cancel);
			rc = out->bpf != NULL ? 0 : -rte_errno;
			if (rc != 0 && rc != -EINTR)
				snprintf(msg, sizeof(msg), "%s", rte_strerror(-rc));
		}
	} else {
		out->bpf = quiet_load(&prm);
		rc = out->bpf != NULL ? 0 : -EINVAL;
		if (rc != 0) {
			/* Again in a child, for the verifier's reason. */
			int t = trial(&prm, r->timeout_s, r->cancel, msg, sizeof(msg),
				      &took);

			if (t == -EINTR)
				rc = t;
			else if (t != -EINVAL || msg[0] == '\0')
				snprintf(msg, sizeof(msg), "%s", rte_strerror(EINVAL));
		}
	}
	switch (rc) {
	case 0:
		break;
	case -ETIMEDOUT:
		snprintf(err, errlen, "rte_bpf_load did not finish within %.1f s: its "
			 "verifier walks every path, about %" PRIu64 " instruction "
			 "evaluations here", r->timeout_s, out->work);
		break;
	case -EINTR:
		snprintf(err, errlen, "loading interrupted by a signal");
		break;
	case -EFAULT:
		snprintf(err, errlen, "rte_bpf_load crashed on it in a trial "
			 "process: %s", msg);
		break;
	case -ECHILD:
		snprintf(err, errlen, "cannot start the trial load: %s", msg);
		break;
	default:
		if (owned && rc != -ENOMEM) {
			/* The reason names instructions by position: give the
			 * one for the program as written, not the one with
			 * no-op jumps inserted. */
			prm.ins = r->ins;
			prm.nb_ins = r->n;
			if (trial(&prm, r->timeout_s, r->cancel, msg, sizeof(msg),
				  &took) == 0)
				snprintf(msg, sizeof(msg), "its no-op jumps for DPDK's "
					 "JIT made it invalid");
		}
		snprintf(err, errlen, "rte_bpf_load refused it: %s", msg);
		rc = rc == -ENOMEM ? rc : -EINVAL;
		break;
	}
	if (rc != 0) {
		if (owned)
			free(ins);
		return rc;
	}

	if (r->want_jit) {
		if (rte_bpf_get_jit(out->bpf, &j) != 0 || j.func == NULL) {
			snprintf(out->note, sizeof(out->note), "rte_bpf has no JIT "
				 "for it here");
		} else if (__pktbpf_jit_check(ins, n, ss, (const void *)j.func, j.sz, msg,
					      sizeof(msg)) != 0) {
			snprintf(out->note, sizeof(out->note), "the JIT's code failed "
				 "pktpath's check (%s)", msg);
		} else {
			out->jit = j.func;
			out->engine = PKTBPF_JIT;
		}
	}
	if (owned)
		free(ins);
	return 0;
}
