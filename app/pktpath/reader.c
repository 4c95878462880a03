/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --reader N: the fold experiment's endless reader, shipped with pktpath.
 * The snmp_fold_field thread timed a program that read /proc/net/snmp in
 * an endless loop while the machine worked: every read folded every CPU's
 * MIB. Here N control threads call stats_read() back to back, the very
 * fold-on-read code that serves /snmp, /netstat, /metrics and /stats.json
 * (--fold-on-read), without the HTTP request around it: what is measured is
 * the fold and what it does to the workers' caches, not a client's socket
 * and parser. They are DPDK control threads, on the CPUs EAL gives those
 * (the main lcore's when the lcores take them all), never on a worker's;
 * each read is counted and timed by lib/stats (read_folds,
 * read_fold_s_sum), which the summary, the JSON and --compare's phases
 * report (reads/s and ns per fold per variant).
 *
 * --reader-links: each read is a link dump instead (export_devices_dump():
 * every device's Ip6 and Icmp6 counters folded, as rtnl_fill_ifinfo folds
 * them for each link of an RTM_GETLINK dump, the docker thread's cost),
 * counted and timed as a fold (stats_read_note()), so that the same figures
 * and --compare fold=field,lcore compare the folds on the dump.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_lcore.h>

#include "app.h"

struct app_readers {
	struct stats *stats;
	bool links; /* --reader-links */
	unsigned int n;
	pthread_t *tid;
	bool stop;	/* atomic: the readers end at their next read */
	int err;	/* atomic: the first reader's failure (errno), 0 if none */
	uint64_t reads; /* atomic: reads made, all readers */
};

static void *
__reader_main(void *arg)
{
	struct app_readers *r = arg;
	uint64_t n = 0;

	/* Acquire: pairs with app_readers_stop()'s release; nothing after it
	 * reads the stats once the flag is seen. */
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		struct stats_snapshot *s = NULL;
		int zero = 0, rc;
		double ns;

		if (r->links) {
			rc = export_devices_dump(&ns);
			if (rc == 0) {
				stats_read_note(r->stats, ns);
				n++;
				continue;
			}
			rte_errno = -rc;
		} else {
			s = stats_read(r->stats);
		}
		if (s == NULL) {
			/* the first failure is said at the stop */
			__atomic_compare_exchange_n(&r->err, &zero, rte_errno, false,
						    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
			break;
		}
		stats_put(r->stats, s);
		n++;
	}
	__atomic_fetch_add(&r->reads, n, __ATOMIC_RELAXED);
	return NULL;
}

int
app_readers_start(struct app *a)
{
	struct app_readers *r;
	unsigned int i;
	char name[RTE_MAX_THREAD_NAME_LEN];
	int rc = 0;

	if (a->opt.readers == 0)
		return 0;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	r->tid = calloc(a->opt.readers, sizeof(*r->tid));
	if (r->tid == NULL) {
		free(r);
		return -ENOMEM;
	}
	r->stats = a->stats;
	r->links = a->opt.reader_links;
	a->readers = r;
	for (i = 0; i < a->opt.readers; i++) {
		/* i < 64, --reader's range: the name fits */
		snprintf(name, sizeof(name), "pktpath-rd%u", i % 64);
		rc = rte_ctrl_thread_create(&r->tid[i], name, NULL, __reader_main, r);
		if (rc != 0)
			break;
		r->n++;
	}
	if (rc != 0) {
		app_readers_stop(a);
		return rc < 0 ? rc : -rc;
	}
	if (r->links)
		printf("reader: %u thread%s dumping the links back to back (the "
		       "fold of /links: %u devices), on the control threads' CPUs\n",
		       r->n, r->n == 1 ? "" : "s", a->n_devs);
	else
		printf("reader: %u thread%s folding back to back through the "
		       "endpoint's read path (stats_read()), on the control "
		       "threads' CPUs\n",
		       r->n, r->n == 1 ? "" : "s");
	fflush(stdout);
	return 0;
}

void
app_readers_stop(struct app *a)
{
	struct app_readers *r = a->readers;
	unsigned int i;
	int err;

	if (r == NULL)
		return;
	/* Release: pairs with the readers' acquire load. */
	__atomic_store_n(&r->stop, true, __ATOMIC_RELEASE);
	for (i = 0; i < r->n; i++)
		pthread_join(r->tid[i], NULL);
	err = __atomic_load_n(&r->err, __ATOMIC_RELAXED);
	if (err != 0)
		fprintf(stderr,
			"pktpath: --reader: a reader stopped after %" PRIu64
			" reads in all: %s: %s\n",
			__atomic_load_n(&r->reads, __ATOMIC_RELAXED),
			r->links ? "export_devices_dump" : "stats_read",
			rte_strerror(err));
	free(r->tid);
	free(r);
	a->readers = NULL;
}
