/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_APP_H
#define PKTPATH_APP_H

/*
 * Application state shared by main.c, worker.c and port.c. Everything here
 * is set up by the main thread before the workers are launched and is
 * read-only for them, except each worker's own struct app_worker.
 */

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_mempool.h>

#include "mib.h"
#include "options.h"
#include "path.h"
#include "pkt.h"
#include "stats.h"

extern int pktpath_logtype;
#define APP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, pktpath_logtype, "pktpath: " fmt "\n", ##__VA_ARGS__)

/* One receive loop. Owned by its lcore once launched. */
struct app_worker {
	unsigned int idx;		/* 0..n_workers-1, also its MIB block */
	unsigned int lcore;
	int socket;
	struct mib_block mib;
	const struct path_conf *pc;
	enum app_source source;
	struct pkt_gen gen;		/* source gen */
	struct rte_mempool *mp;		/* source gen: this worker's pool */
	uint16_t port, queue;		/* source port */
	uint16_t burst;
	bool prefetch;
	bool full;			/* --path full */
} __rte_cache_aligned;

struct app_port {
	uint16_t id;
	uint16_t nb_rxq;
	struct rte_mempool *mp;
	struct path_conf pc;
	bool started;
};

struct app {
	struct app_options opt;
	unsigned int n_workers;
	struct app_worker *workers;
	unsigned int *lcore_ids;	/* lcore of each worker */
	struct mib_set *mibs;		/* n_workers blocks + the control block */
	struct mib_block ctl_mib;	/* the control thread's block */
	struct path_conf gen_pc;	/* path conf for the generator */
	struct pkt_templates *tpl;
	unsigned int n_ports;
	struct app_port *ports;
	struct stats *stats;
	/* Workers poll this (relaxed): 1 while they must run. */
	volatile int run;
};

/* Signals set these; the control loop acts on them. */
extern volatile sig_atomic_t app_quit;
extern volatile sig_atomic_t app_sighup;
extern volatile sig_atomic_t app_sigusr1;

/* worker.c */
int app_worker_main(void *arg);	/* lcore entry point: arg is struct app_worker */
void app_workers_bind(struct app *a);	/* the app the workers read */

/* port.c */
int app_ports_setup(struct app *a);	/* 0 or -1 (message printed) */
void app_ports_close(struct app *a);

#endif
