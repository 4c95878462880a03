/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pktpath-bench: time_bench-style micro-benchmarks of the primitives the
 * receive path uses, to set beside their in-path cost (pktpath --compare).
 *
 *   pktpath-bench [EAL options] -- --list
 *   pktpath-bench [EAL options] -- --run NAME[,NAME...] [--loops N]
 *                                  [--reps R] [--json FILE]
 *                                  [--timer auto|rdtscp|lfence]
 *                                  [--rules FILE[,FILE...]]
 *
 * Exit status: 0 when everything asked for ran (or was skipped for want of
 * lcores), 1 when a benchmark failed, 2 on a usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "base.h"
#include "host.h"
#include "pkt.h"
#include "pktpath_bench.h"

#define PB_DEFAULT_REPS 5
#define PB_MAX_SELECTED 128

static const struct pb_bench *const pb_registries[] = {
	pb_prim_benches, pb_rcu_benches, pb_conc_benches, pb_peer_benches,
	pb_alloc_benches, pb_fold_benches, pb_rx_benches, pb_ingress_benches,
};

static const char *const pb_groups[] = {
	"prim", "rcu", "conc", "peer", "alloc", "fold", "rx", "ingress",
};

/* ---- helpers for the benchmark files ---- */

uint64_t
pb_loops(const struct pb_ctx *ctx, uint64_t dflt)
{
	return ctx->loops ? ctx->loops : dflt;
}

int
pb_fail(struct pb_ctx *ctx, const char *name, int err, const char *what)
{
	fprintf(stderr, "pktpath-bench: %s: %s failed: %s\n", name, what,
		strerror(err < 0 ? -err : err));
	ctx->failures++;
	return err < 0 ? err : -err;
}

int
pb_run(struct pb_ctx *ctx, bool concurrent, const char *name, bench_fn fn,
       void *arg, uint32_t step, uint64_t loops, struct bench_result *res)
{
	struct bench_spec spec = {
		.name = name, .fn = fn, .arg = arg, .step = step,
	};
	struct bench_result local;
	int ret;

	if (res == NULL)
		res = &local;
	ret = concurrent ? bench_run_concurrent(&spec, loops, ctx->reps, res) :
		bench_run(&spec, loops, ctx->reps, res);
	if (ret < 0) {
		fprintf(stderr, "pktpath-bench: %s\n", res->error);
		ctx->failures++;
		return ret;
	}
	bench_print(stdout, res);
	fflush(stdout);
	if (bench_doc_add(ctx->doc, res) < 0) {
		fprintf(stderr, "pktpath-bench: %s: out of memory for the JSON result\n",
			name);
		ctx->failures++;
	}
	return 0;
}

/* ---- the registry ---- */

#define PB_FOREACH(b)							\
	for (unsigned int __r = 0; __r < RTE_DIM(pb_registries); __r++)	\
		for (const struct pb_bench *b = pb_registries[__r];	\
		     b->name != NULL; b++)

static const struct pb_bench *
pb_find(const char *name)
{
	PB_FOREACH(b)
		if (strcmp(b->name, name) == 0)
			return b;
	return NULL;
}

static void
pb_list(void)
{
	printf("%-22s %-6s %-8s %s\n", "NAME", "GROUP", "LCORES", "MEASURES");
	PB_FOREACH(b)
		printf("%-22s %-6s %-8u %s\n", b->name, b->group, b->min_lcores,
		       b->help);
	printf("Groups (also accepted by --run): all");
	for (unsigned int i = 0; i < RTE_DIM(pb_groups); i++)
		printf(", %s", pb_groups[i]);
	printf("\n");
}

/* Mark b selected (once). */
static void
pb_select(const struct pb_bench **sel, unsigned int *n,
	  const struct pb_bench *b)
{
	for (unsigned int i = 0; i < *n; i++)
		if (sel[i] == b)
			return;
	if (*n < PB_MAX_SELECTED)
		sel[(*n)++] = b;
}

/* Parse NAME[,NAME...] (names or groups); -EINVAL on an unknown one. */
static int
pb_parse_names(const char *arg, const struct pb_bench **sel, unsigned int *n)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	char qa[BASE_QUOTE_LEN], qt[BASE_QUOTE_LEN];
	int ret = 0;

	if (copy == NULL)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct pb_bench *b = pb_find(tok);
		bool group = false;

		if (b != NULL) {
			pb_select(sel, n, b);
			continue;
		}
		PB_FOREACH(g)
			if (strcmp(tok, "all") == 0 || strcmp(tok, g->group) == 0) {
				pb_select(sel, n, g);
				group = true;
			}
		if (!group) {
			fprintf(stderr, "pktpath-bench: --run %s: unknown benchmark \"%s\" (see --list)\n",
				base_quote(qa, sizeof(qa), arg),
				base_quote(qt, sizeof(qt), tok));
			ret = -EINVAL;
			break;
		}
	}
	if (ret == 0 && *n == 0) {
		fprintf(stderr, "pktpath-bench: --run \"%s\": no benchmark named\n",
			base_quote(qa, sizeof(qa), arg));
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

/* An option's number: decimal, lib/pkt's parser and reasons, as pktpath's
 * options ("--reps: '0x3' is not a decimal number ..."). */
static int
pb_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
	     uint64_t *out)
{
	char why[160];
	uint64_t v;

	if (strcmp(opt, "--loops") == 0 &&
	    pkt_parse_u64(s, 0, min - 1, &v, why, sizeof(why)) == 0) {
		fprintf(stderr, "pktpath-bench: --loops %s: below the minimum of %" PRIu64 " loops (fewer would let the TSC reads dominate the figure)\n",
			s, min);	/* digits: pkt_parse_u64() took it */
		return -EINVAL;
	}
	if (pkt_parse_u64(s, min, max, out, why, sizeof(why)) != 0) {
		fprintf(stderr, "pktpath-bench: %s: %s\n", opt, why);
		return -EINVAL;
	}
	return 0;
}

static void
pb_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [EAL options] -- --list\n"
		"       %s [EAL options] -- --run NAME[,NAME...] [--loops N] [--reps R] [--json FILE] [--timer T]\n"
		"                [--rules FILE[,FILE...]]\n"
		"  --list        list the benchmarks and groups\n"
		"  --run LIST    run benchmarks or groups (all, prim, rcu, conc, peer, alloc, fold, rx, ingress)\n"
		"  --loops N     iterations per repetition (default: each benchmark's own; >= %d)\n"
		"  --reps R      repetitions, min/median/max reported (default %d, 1..%d)\n"
		"  --json FILE   also write the results as JSON\n"
		"  --timer T     end-of-interval TSC read: auto (default: rdtscp where the CPU\n"
		"                has it, else lfence), rdtscp (rdtscp; lfence) or lfence\n"
		"                (lfence; rdtsc; lfence, every x86-64 CPU); the environment\n"
		"                variable PKTPATH_BENCH_TIMER sets the default\n"
		"  --rules LIST  rule files of the ingress group (default: config/rules/\n"
		"                drop-udp-9, acl-100 and acl-10000 for ingress_classify,\n"
		"                match-all and acl-100 for ingress_hook*, from the repository root)\n"
		"Concurrent benchmarks need at least 2 lcores (-l 0-1). Example:\n"
		"  %s -l 0-1 --no-huge --no-shconf -m 512 --no-pci -- --run prim\n",
		prog, prog, BENCH_MIN_LOOPS, PB_DEFAULT_REPS, BENCH_MAX_REPS,
		prog);
}

struct pb_args {
	bool list;
	const char *run;
	const char *json;
	const char *timer;	/* NULL: PKTPATH_BENCH_TIMER or auto */
	const char *rules;	/* NULL: each ingress benchmark's own files */
	uint64_t loops;
	uint64_t reps;
};

/* 0, 1 (help printed: exit 0) or -EINVAL (reported: exit 2). */
static int
pb_parse_args(int argc, char **argv, struct pb_args *a)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "run", required_argument, NULL, 'r' },
		{ "loops", required_argument, NULL, 'n' },
		{ "reps", required_argument, NULL, 'R' },
		{ "json", required_argument, NULL, 'j' },
		{ "timer", required_argument, NULL, 't' },
		{ "rules", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[BENCH_ERR_LEN], q[BASE_QUOTE_LEN];
	int c;

	a->reps = PB_DEFAULT_REPS;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			a->list = true;
			break;
		case 'r':
			a->run = optarg;
			break;
		case 'n':
			if (pb_parse_u64("--loops", optarg, BENCH_MIN_LOOPS,
					 UINT64_C(1) << 40, &a->loops) < 0)
				return -EINVAL;
			break;
		case 'R':
			if (pb_parse_u64("--reps", optarg, 1, BENCH_MAX_REPS,
					 &a->reps) < 0)
				return -EINVAL;
			break;
		case 'j':
			a->json = optarg;
			break;
		case 't':
			a->timer = optarg;
			break;
		case 'u':
			a->rules = optarg;
			break;
		case 'h':
			pb_usage(stdout, argv[0]);
			return 1;
		default:
			fprintf(stderr, "pktpath-bench: %s: unknown option or missing argument (see --help)\n",
				base_quote(q, sizeof(q), argv[optind - 1]));
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pktpath-bench: unexpected argument \"%s\" (see --help)\n",
			base_quote(q, sizeof(q), argv[optind]));
		return -EINVAL;
	}
	if (a->list == (a->run != NULL)) {
		fprintf(stderr, "pktpath-bench: give exactly one of --list or --run NAME[,NAME...] (see --help)\n");
		return -EINVAL;
	}
	if (bench_timer_select(a->timer, err, sizeof(err)) < 0) {
		fprintf(stderr, "pktpath-bench: %s%s\n", a->timer ? "--" : "", err);
		return -EINVAL;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const struct pb_bench *sel[PB_MAX_SELECTED];
	struct pb_args args = { 0 };
	struct pb_ctx ctx = { 0 };
	char err[BENCH_ERR_LEN];
	unsigned int n = 0, i, lcores;
	int ret;

	/* hugepage files never outlive the process, nor what it makes of
	 * the EAL's runtime directory (host.h) */
	argv = host_eal_args(&argc, argv);
	host_leave_as_found(argc, argv);
	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		rte_exit(EXIT_FAILURE, "rte_eal_init: %s\n", rte_strerror(rte_errno));
	argc -= ret;
	argv += ret;
	argv[0] = (char *)"pktpath-bench";

	ret = pb_parse_args(argc, argv, &args);
	if (ret == 0 && args.run != NULL)
		ret = pb_parse_names(args.run, sel, &n) < 0 ? -EINVAL : 0;
	if (ret != 0) {
		rte_eal_cleanup();
		return ret > 0 ? 0 : 2;
	}
	if (args.list) {
		pb_list();
		rte_eal_cleanup();
		return 0;
	}
	/* Find out now, not after the benchmarks, that the file is unwritable
	 * or no output (a FIFO: base.h "Files"). */
	if (args.json != NULL) {
		int fd = base_file_open_out(args.json, err, sizeof(err));

		if (fd < 0) {
			fprintf(stderr, "pktpath-bench: --json %s\n", err);
			rte_eal_cleanup();
			return 2;
		}
		close(fd);
	}

	ctx.loops = args.loops;
	ctx.reps = (unsigned int)args.reps;
	ctx.rules = args.rules;
	ctx.doc = bench_doc_new();
	if (ctx.doc == NULL)
		rte_exit(EXIT_FAILURE, "bench_doc_new: out of memory\n");
	lcores = rte_lcore_count();
	printf("# pktpath-bench %s: TSC %.3f GHz, timer %s (%s; CPU %s rdtscp), %u lcore(s), %u reps; headline = median, cycles(tsc)\n",
	       PKTPATH_VERSION, rte_get_tsc_hz() / 1e9,
	       bench_timer_name(bench_timer_get()),
	       bench_timer_insns(bench_timer_get()),
	       bench_cpu_has_rdtscp() ? "has" : "has no", lcores, ctx.reps);
	if (!bench_cpu_invariant_tsc())
		printf("# WARNING: cpuid does not report an invariant TSC (80000007h EDX bit 8): cycles(tsc) assume a constant TSC rate\n");
	for (i = 0; i < n; i++) {
		const struct pb_bench *b = sel[i];

		if (lcores < b->min_lcores) {
			char why[96];

			snprintf(why, sizeof(why), "needs %u lcores, the EAL has %u (run with -l 0-1)",
				 b->min_lcores, lcores);
			fprintf(stderr, "pktpath-bench: %s skipped: %s\n", b->name, why);
			if (bench_doc_skip(ctx.doc, b->name, why) < 0)
				ctx.failures++;
			continue;
		}
		b->run(&ctx, b);
	}
	if (args.json != NULL && bench_doc_write(ctx.doc, args.json, err) < 0) {
		fprintf(stderr, "pktpath-bench: %s\n", err);
		ctx.failures++;
	}
	json_decref(ctx.doc);
	rte_eal_cleanup();
	/* the results on stdout: a write that failed is said, not lost */
	ret = ferror(stdout) ? -EIO : 0;
	if (fflush(stdout) != 0)
		ret = -errno;
	if (ret != 0) {
		fprintf(stderr, "pktpath-bench: standard output: write failed: %s\n",
			strerror(-ret));
		ctx.failures++;
	}
	return ctx.failures ? 1 : 0;
}
