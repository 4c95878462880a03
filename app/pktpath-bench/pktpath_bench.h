/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_BENCH_APP_H
#define PKTPATH_BENCH_APP_H

/*
 * pktpath-bench internals: the benchmark registry and the helpers every
 * benchmark file uses to run, print and record a result. Single-threaded
 * (the main lcore) except inside the benchmark functions themselves.
 */

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "bench.h"

/** What one invocation asked for, and where results go. */
struct pb_ctx {
	uint64_t loops;		/**< --loops, or 0 for each benchmark's default */
	unsigned int reps;	/**< --reps */
	const char *rules;	/**< --rules: the ingress group's files, or NULL */
	json_t *doc;		/**< bench_doc_new() */
	unsigned int failures;	/**< benchmarks that reported an error */
};

/** A benchmark as --list shows it and --run runs it. */
struct pb_bench {
	const char *name;
	const char *group;	/**< prim, rcu, conc, peer, alloc, fold, rx, ingress */
	unsigned int min_lcores;	/**< 2 for anything concurrent */
	uint64_t loops;		/**< default iterations */
	const char *help;	/**< one line: what it measures */
	/** Run it (print, record); 0 or negative errno (already reported). */
	int (*run)(struct pb_ctx *ctx, const struct pb_bench *b);
	uintptr_t param;	/**< benchmark-specific constant */
};

/* Registries, one per file, each terminated by a NULL name. */
extern const struct pb_bench pb_prim_benches[];
extern const struct pb_bench pb_rcu_benches[];
extern const struct pb_bench pb_conc_benches[];
extern const struct pb_bench pb_peer_benches[];
extern const struct pb_bench pb_alloc_benches[];
extern const struct pb_bench pb_fold_benches[];
extern const struct pb_bench pb_rx_benches[];
extern const struct pb_bench pb_ingress_benches[];

/** Iterations to run: --loops if given, else dflt. */
uint64_t pb_loops(const struct pb_ctx *ctx, uint64_t dflt);

/**
 * Run fn on this lcore (bench_run()), or on every lcore (concurrent), print
 * its time_bench lines, add it to the JSON document; on failure print the
 * error line to stderr and count it. res may be NULL.
 * @return 0 or the harness's negative errno.
 */
int pb_run(struct pb_ctx *ctx, bool concurrent, const char *name, bench_fn fn,
	   void *arg, uint32_t step, uint64_t loops, struct bench_result *res);

/** Report a set-up failure of benchmark name (one line on stderr). */
int pb_fail(struct pb_ctx *ctx, const char *name, int err, const char *what);

/** A value the compiler must assume is used (defeats dead-code removal). */
extern volatile uint64_t pb_sink;

#endif /* PKTPATH_BENCH_APP_H */
