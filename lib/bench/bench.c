/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The time_bench harness: repetitions, baseline, statistics, concurrent
 * runs over the EAL lcores, text and JSON output. See bench.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "base.h"
#include "bench_pvt.h"

#ifndef PKTPATH_VERSION
#define PKTPATH_VERSION "unknown"
#endif

#define __bench_err(out, ...) snprintf((out)->error, BENCH_ERR_LEN, __VA_ARGS__)

/* The empty loop the baseline measures: one compiler barrier per
 * iteration, so the loop is kept but nothing else is emitted. */
static int
__bench_empty(struct bench_rec *rec, void *arg)
{
	uint64_t i, n = rec->loops;

	RTE_SET_USED(arg);
	bench_start(rec);
	for (i = 0; i < n; i++)
		__asm__ volatile("" ::: "memory");
	bench_stop(rec, n);
	return 0;
}

/* Empty timed laps: the cost of one bench_start()/bench_stop() pair. */
static int
__bench_empty_laps(struct bench_rec *rec, void *arg)
{
	uint64_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < rec->loops; i++) {
		bench_start(rec);
		bench_stop(rec, 1);
	}
	return 0;
}

/*
 * Preemption: the share of a repetition's wall time during which the
 * thread was not running (another task had its CPU; with paravirtual steal
 * accounting, a hypervisor too). Thread CPU time vs monotonic time.
 */
struct __bench_clock {
	struct timespec wall, cpu;
};

static void
__bench_clock_now(struct __bench_clock *c)
{
	clock_gettime(CLOCK_MONOTONIC, &c->wall);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c->cpu);
}

static double
__bench_ts_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e9 +
		(double)(b->tv_nsec - a->tv_nsec);
}

/* Percentage of the wall time since c0 that the thread lost. */
static double
__bench_lost_pct(const struct __bench_clock *c0)
{
	struct __bench_clock c1;
	double wall, cpu;

	__bench_clock_now(&c1);
	wall = __bench_ts_diff(&c0->wall, &c1.wall);
	cpu = __bench_ts_diff(&c0->cpu, &c1.cpu);
	return wall > 0 && wall > cpu ? 100.0 * (wall - cpu) / wall : 0.0;
}

/* min / median / max of n values (n >= 1); v is sorted in place. */
static struct bench_stat
__bench_stat(double *v, unsigned int n)
{
	struct bench_stat s;

	s.median = base_median(v, n, &s.min, &s.max);
	return s;
}

double
bench_cycles_to_ns(double cycles)
{
	uint64_t hz = rte_get_tsc_hz();

	return hz ? cycles * 1e9 / (double)hz : 0.0;
}

static struct bench_stat
__bench_stat_ns(struct bench_stat c)
{
	struct bench_stat s = {
		.min = bench_cycles_to_ns(c.min),
		.median = bench_cycles_to_ns(c.median),
		.max = bench_cycles_to_ns(c.max),
	};

	return s;
}

/* Checks shared by both modes; fills out's identity fields. */
static int
__bench_check(const struct bench_spec *spec, uint64_t loops, unsigned int reps,
	      struct bench_result *out)
{
	const char *name;
	int ret;

	memset(out, 0, sizeof(*out));
	if (spec == NULL || spec->fn == NULL || spec->name == NULL ||
	    spec->name[0] == '\0' || strlen(spec->name) >= BENCH_NAME_LEN) {
		__bench_err(out, "bench: invalid benchmark (no function, or a name empty or longer than %d characters)",
			    BENCH_NAME_LEN - 1);
		return -EINVAL;
	}
	name = spec->name;
	snprintf(out->name, sizeof(out->name), "%s", name);
	out->step = spec->step;
	out->loops = loops;
	out->reps = reps;
	if (loops < BENCH_MIN_LOOPS) {
		__bench_err(out, "%s: %" PRIu64 " loops is below the minimum of %d: the two TSC reads around the loop would dominate the figure",
			    name, loops, BENCH_MIN_LOOPS);
		return -EINVAL;
	}
	if (reps == 0 || reps > BENCH_MAX_REPS) {
		__bench_err(out, "%s: %u repetitions is out of range 1..%d",
			    name, reps, BENCH_MAX_REPS);
		return -EINVAL;
	}
	out->tsc_hz = rte_get_tsc_hz();
	if (out->tsc_hz == 0) {
		__bench_err(out, "%s: TSC frequency unknown (is the EAL initialised?)",
			    name);
		return -ENOTSUP;
	}
	ret = __bench_timer_ensure(out->error, BENCH_ERR_LEN);
	if (ret < 0)
		return ret;
	out->timer = bench_timer_get();
	return 0;
}

static void
__bench_rec_init(struct bench_rec *rec, uint64_t loops, unsigned int worker,
		 unsigned int n_workers)
{
	memset(rec, 0, sizeof(*rec));
	rec->loops = loops;
	rec->timer = bench_timer_get();
	rec->worker = worker;
	rec->n_workers = n_workers;
	rec->lcore_id = rte_lcore_id();
}

/* Check one finished repetition. */
static int
__bench_rec_check(const char *name, const struct bench_rec *rec, int ret,
		  bool check_len, char *err)
{
	if (ret < 0) {
		snprintf(err, BENCH_ERR_LEN, "%s: the benchmark failed: %s",
			 name, strerror(-ret));
		return ret;
	}
	if (rec->laps == 0 || rec->running || rec->elems == 0) {
		snprintf(err, BENCH_ERR_LEN, "%s: the benchmark did not time its loop (bench_start()/bench_stop() unpaired, or no element reported)",
			 name);
		return -EINVAL;
	}
	if (check_len && rec->cycles < BENCH_MIN_CYCLES) {
		snprintf(err, BENCH_ERR_LEN, "%s: a repetition of %" PRIu64 " loops lasted only %" PRIu64 " TSC cycles (minimum %d): the TSC reads would weigh more than 0.5%%; raise --loops",
			 name, rec->loops, rec->cycles, BENCH_MIN_CYCLES);
		return -ERANGE;
	}
	return 0;
}

/* Median cycles per element of fn over reps on this lcore (no length check). */
static double
__bench_quick_median(bench_fn fn, uint64_t loops, unsigned int reps)
{
	double v[16];
	struct bench_rec rec;
	unsigned int i;

	reps = RTE_MIN(reps, RTE_DIM(v));
	for (i = 0; i < reps; i++) {
		__bench_rec_init(&rec, loops, 0, 1);
		fn(&rec, NULL);
		v[i] = rec.elems ? (double)rec.cycles / (double)rec.elems : 0.0;
	}
	return __bench_stat(v, reps).median;
}

static void
__bench_baselines(struct bench_result *out, uint64_t loops, unsigned int reps)
{
	out->baseline_cycles = __bench_quick_median(__bench_empty, loops, reps);
	out->lap_overhead_cycles =
		__bench_quick_median(__bench_empty_laps, BENCH_MIN_LOOPS, reps);
}

int
bench_run(const struct bench_spec *spec, uint64_t loops, unsigned int reps,
	  struct bench_result *out)
{
	struct bench_rec rec;
	double *cpe;
	unsigned int r;
	int ret;

	ret = __bench_check(spec, loops, reps, out);
	if (ret < 0)
		return ret;
	cpe = calloc(reps, sizeof(*cpe));
	if (cpe == NULL) {
		__bench_err(out, "%s: out of memory", spec->name);
		return -ENOMEM;
	}
	/* Warm-up (caches, branch predictors, lazily faulted pages). */
	__bench_rec_init(&rec, loops, 0, 1);
	ret = __bench_rec_check(spec->name, &rec, spec->fn(&rec, spec->arg),
				false, out->error);
	for (r = 0; ret == 0 && r < reps; r++) {
		struct __bench_clock c0;
		double lost;

		__bench_clock_now(&c0);
		__bench_rec_init(&rec, loops, 0, 1);
		ret = __bench_rec_check(spec->name, &rec,
					spec->fn(&rec, spec->arg), true,
					out->error);
		if (ret < 0)
			break;
		lost = __bench_lost_pct(&c0);
		out->preempted_reps += lost > BENCH_PREEMPT_PCT;
		out->lost_pct_max = RTE_MAX(out->lost_pct_max, lost);
		cpe[r] = (double)rec.cycles / (double)rec.elems;
		out->elems = rec.elems;
		out->laps = rec.laps;
	}
	if (ret == 0) {
		out->cycles = __bench_stat(cpe, reps);
		out->ns = __bench_stat_ns(out->cycles);
		__bench_baselines(out, loops, reps);
	}
	free(cpe);
	return ret;
}

/* ---- concurrent mode ---- */

/*
 * A reusable barrier: the last of n arrivals resets the count and bumps the
 * generation; the others spin until the generation changes (or the run is
 * aborted by a failing worker).
 */
struct __bench_barrier {
	uint32_t n;
	uint32_t count;
	uint32_t gen;
	uint32_t abort;
};

static bool
__bench_barrier_wait(struct __bench_barrier *b)
{
	/* Read the generation before arriving, so that a release by the
	 * last arrival cannot be missed. */
	uint32_t g = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);

	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->n) {
		__atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
		/* Release: the count reset (and everything done before the
		 * barrier) is visible to whoever sees the new generation. */
		__atomic_store_n(&b->gen, g + 1, __ATOMIC_RELEASE);
	} else {
		while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == g) {
			if (__atomic_load_n(&b->abort, __ATOMIC_RELAXED))
				return false;
			rte_pause();
		}
	}
	return !__atomic_load_n(&b->abort, __ATOMIC_RELAXED);
}

struct __bench_worker {
	struct __bench_conc *run;
	unsigned int worker;
	int ret;
	char error[BENCH_ERR_LEN];
	double *cpe;		/* per rep: cycles per element */
	uint64_t *elems;	/* per rep */
	uint64_t *t_first;	/* per rep */
	uint64_t *t_last;	/* per rep */
	double *lost;		/* per rep: % of wall time preempted */
} __rte_cache_aligned;

struct __bench_conc {
	const struct bench_spec *spec;
	uint64_t loops;
	unsigned int reps;
	unsigned int n;
	struct __bench_barrier barrier __rte_cache_aligned;
	struct __bench_worker w[];
};

static int
__bench_conc_worker(void *arg)
{
	struct __bench_worker *w = arg;
	struct __bench_conc *run = w->run;
	struct bench_rec rec;
	int r;

	/* rep -1 is the warm-up. */
	for (r = -1; r < (int)run->reps; r++) {
		struct __bench_clock c0;

		if (!__bench_barrier_wait(&run->barrier))
			return 0;
		__bench_clock_now(&c0);
		__bench_rec_init(&rec, run->loops, w->worker, run->n);
		w->ret = __bench_rec_check(run->spec->name, &rec,
					   run->spec->fn(&rec, run->spec->arg),
					   r >= 0, w->error);
		if (w->ret < 0) {
			__atomic_store_n(&run->barrier.abort, 1, __ATOMIC_RELAXED);
			return w->ret;
		}
		if (r < 0)
			continue;
		w->cpe[r] = (double)rec.cycles / (double)rec.elems;
		w->elems[r] = rec.elems;
		w->t_first[r] = rec.t_first;
		w->t_last[r] = rec.t_last;
		w->lost[r] = __bench_lost_pct(&c0);
	}
	return 0;
}

static void
__bench_conc_free(struct __bench_conc *run)
{
	unsigned int i;

	if (run == NULL)
		return;
	for (i = 0; i < run->n; i++) {
		free(run->w[i].cpe);
		free(run->w[i].elems);
		free(run->w[i].t_first);
		free(run->w[i].t_last);
		free(run->w[i].lost);
	}
	free(run);
}

static struct __bench_conc *
__bench_conc_alloc(const struct bench_spec *spec, uint64_t loops,
		   unsigned int reps, unsigned int n)
{
	struct __bench_conc *run;
	unsigned int i;

	run = aligned_alloc(RTE_CACHE_LINE_SIZE,
			    RTE_ALIGN_CEIL(sizeof(*run) + n * sizeof(run->w[0]),
					   RTE_CACHE_LINE_SIZE));
	if (run == NULL)
		return NULL;
	memset(run, 0, sizeof(*run) + n * sizeof(run->w[0]));
	run->spec = spec;
	run->loops = loops;
	run->reps = reps;
	run->n = n;
	run->barrier.n = n;
	for (i = 0; i < n; i++) {
		struct __bench_worker *w = &run->w[i];

		w->run = run;
		w->worker = i;
		w->cpe = calloc(reps, sizeof(*w->cpe));
		w->elems = calloc(reps, sizeof(*w->elems));
		w->t_first = calloc(reps, sizeof(*w->t_first));
		w->t_last = calloc(reps, sizeof(*w->t_last));
		w->lost = calloc(reps, sizeof(*w->lost));
		if (!w->cpe || !w->elems || !w->t_first || !w->t_last ||
		    !w->lost) {
			__bench_conc_free(run);
			return NULL;
		}
	}
	return run;
}

/* Per-lcore, mean and summed figures from the samples. */
static int
__bench_conc_stats(struct __bench_conc *run, struct bench_result *out)
{
	unsigned int n = run->n, reps = run->reps, i, r;
	double *mean = calloc(reps, sizeof(double));
	double *cpe = calloc(reps, sizeof(double));
	double *mops = calloc(reps, sizeof(double));
	int ret = -ENOMEM;

	if (mean == NULL || cpe == NULL || mops == NULL)
		goto out;
	for (r = 0; r < reps; r++) {
		uint64_t first = UINT64_MAX, last = 0, total = 0;
		bool preempted = false;

		for (i = 0; i < n; i++) {
			const struct __bench_worker *w = &run->w[i];

			preempted |= w->lost[r] > BENCH_PREEMPT_PCT;
			out->lost_pct_max = RTE_MAX(out->lost_pct_max, w->lost[r]);
			mean[r] += w->cpe[r] / n;
			total += w->elems[r];
			first = RTE_MIN(first, w->t_first[r]);
			last = RTE_MAX(last, w->t_last[r]);
		}
		/* The TSC is synchronised across cores (constant_tsc); a
		 * negative wall time would mean it is not. */
		cpe[r] = last > first ? (double)(last - first) / total : 0.0;
		mops[r] = last > first ? total * (double)out->tsc_hz /
				(double)(last - first) / 1e6 : 0.0;
		out->preempted_reps += preempted;
	}
	out->cycles = __bench_stat(mean, reps);
	out->ns = __bench_stat_ns(out->cycles);
	out->sum_cycles_per_elem = __bench_stat(cpe, reps).median;
	out->sum_mops = __bench_stat(mops, reps).median;
	out->elems = 0;
	for (i = 0; i < n; i++)
		out->elems += run->w[i].elems[0];
	out->elems /= n;
	for (i = 0; i < n; i++) {
		struct bench_lcore_result *l = &out->lcore[i];

		for (r = 0; r < reps; r++)
			cpe[r] = run->w[i].cpe[r];
		l->cycles = __bench_stat(cpe, reps);
		l->ns = __bench_stat_ns(l->cycles);
		l->elems = run->w[i].elems[0];
	}
	ret = 0;
out:
	free(mean);
	free(cpe);
	free(mops);
	return ret;
}

int
bench_run_concurrent(const struct bench_spec *spec, uint64_t loops,
		     unsigned int reps, struct bench_result *out)
{
	struct __bench_conc *run;
	unsigned int n = rte_lcore_count(), i, lcore;
	int ret;

	ret = __bench_check(spec, loops, reps, out);
	if (ret < 0)
		return ret;
	out->concurrent = true;
	if (n < 2) {
		__bench_err(out, "%s: a concurrent benchmark needs at least 2 lcores, the EAL has %u (run with -l 0-1)",
			    spec->name, n);
		return -ENODEV;
	}
	if (rte_lcore_id() != rte_get_main_lcore()) {
		__bench_err(out, "%s: concurrent runs are launched from the main lcore only",
			    spec->name);
		return -EBUSY;
	}
	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (rte_eal_get_lcore_state(lcore) != WAIT) {
			__bench_err(out, "%s: worker lcore %u is busy", spec->name,
				    lcore);
			return -EBUSY;
		}
	}
	run = __bench_conc_alloc(spec, loops, reps, n);
	if (run == NULL) {
		__bench_err(out, "%s: out of memory", spec->name);
		return -ENOMEM;
	}
	out->n_lcores = n;
	out->lcore[0].lcore_id = rte_lcore_id();
	i = 1;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		out->lcore[i].lcore_id = lcore;
		ret = rte_eal_remote_launch(__bench_conc_worker, &run->w[i],
					    lcore);
		if (ret < 0) {
			/* Release those already launched. */
			__atomic_store_n(&run->barrier.abort, 1, __ATOMIC_RELAXED);
			__bench_err(out, "%s: cannot launch on lcore %u: %s",
				    spec->name, lcore, strerror(-ret));
			break;
		}
		i++;
	}
	if (ret == 0)
		__bench_conc_worker(&run->w[0]);
	rte_eal_mp_wait_lcore();
	for (i = 0; ret == 0 && i < n; i++)
		if (run->w[i].ret < 0) {
			ret = run->w[i].ret;
			memcpy(out->error, run->w[i].error, BENCH_ERR_LEN);
		}
	if (ret == 0) {
		ret = __bench_conc_stats(run, out);
		if (ret < 0)
			__bench_err(out, "%s: out of memory", spec->name);
	}
	if (ret == 0) {
		out->laps = 1;
		__bench_baselines(out, loops, reps);
	}
	__bench_conc_free(run);
	return ret;
}

/* ---- output ---- */

static void
__bench_print_line(FILE *f, const char *name, const char *suffix,
		   uint32_t step, struct bench_stat c, struct bench_stat ns)
{
	fprintf(f, "Type:%s%s Per elem: %.0f cycles(tsc) %.3f ns (step:%" PRIu32 ")",
		name, suffix, round(c.median), ns.median, step);
}

void
bench_print(FILE *f, const struct bench_result *r)
{
	char sfx[32];
	unsigned int i;

	if (r->concurrent) {
		for (i = 0; i < r->n_lcores; i++) {
			const struct bench_lcore_result *l = &r->lcore[i];

			snprintf(sfx, sizeof(sfx), "@lcore%u", l->lcore_id);
			__bench_print_line(f, r->name, sfx, r->step, l->cycles,
					   l->ns);
			fprintf(f, " - min/median/max %.2f/%.2f/%.2f cycles\n",
				l->cycles.min, l->cycles.median, l->cycles.max);
		}
	}
	__bench_print_line(f, r->name, "", r->step, r->cycles, r->ns);
	fprintf(f, " - min/median/max %.2f/%.2f/%.2f cycles over %u reps of %" PRIu64 " loops; empty loop %.2f cycles/loop",
		r->cycles.min, r->cycles.median, r->cycles.max, r->reps,
		r->loops, r->baseline_cycles);
	if (r->laps > 1)
		fprintf(f, "; %u timed laps, %.0f cycles each are TSC reads",
			r->laps, r->lap_overhead_cycles);
	if (r->preempted_reps)
		fprintf(f, "; WARNING: %u of %u reps preempted (up to %.1f%% of a rep's time went to other tasks)",
			r->preempted_reps, r->reps, r->lost_pct_max);
	if (r->concurrent)
		fprintf(f, "; average of %u lcores, together %.2f Mops/s (%.2f cycles of wall time per elem)",
			r->n_lcores, r->sum_mops, r->sum_cycles_per_elem);
	fputc('\n', f);
}

static json_t *
__bench_stat_json(struct bench_stat s)
{
	return json_pack("{s:f, s:f, s:f}", "min", s.min, "median", s.median,
			 "max", s.max);
}

json_t *
bench_result_json(const struct bench_result *r)
{
	json_t *o, *arr, *x;
	unsigned int i;

	o = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:s, s:I, s:f, s:o, s:o, s:f, s:f}",
		      "name", r->name,
		      "mode", r->concurrent ? "concurrent" : "single",
		      "step", (json_int_t)r->step,
		      "loops", (json_int_t)r->loops,
		      "reps", (json_int_t)r->reps,
		      "elems", (json_int_t)r->elems,
		      "laps", (json_int_t)r->laps,
		      "tsc_hz", (json_int_t)r->tsc_hz,
		      "timer", bench_timer_name(r->timer),
		      "preempted_reps", (json_int_t)r->preempted_reps,
		      "lost_pct_max", r->lost_pct_max,
		      "cycles_per_elem", __bench_stat_json(r->cycles),
		      "ns_per_elem", __bench_stat_json(r->ns),
		      "baseline_cycles_per_loop", r->baseline_cycles,
		      "lap_overhead_cycles", r->lap_overhead_cycles);
	if (o == NULL || !r->concurrent)
		return o;
	arr = json_array();
	if (arr == NULL || json_object_set_new(o, "lcores", arr) < 0)
		goto nomem;
	for (i = 0; i < r->n_lcores; i++) {
		const struct bench_lcore_result *l = &r->lcore[i];

		x = json_pack("{s:I, s:I, s:o, s:o}",
			      "lcore", (json_int_t)l->lcore_id,
			      "elems", (json_int_t)l->elems,
			      "cycles_per_elem", __bench_stat_json(l->cycles),
			      "ns_per_elem", __bench_stat_json(l->ns));
		if (x == NULL || json_array_append_new(arr, x) < 0)
			goto nomem;
	}
	x = json_pack("{s:I, s:f, s:f}", "lcores", (json_int_t)r->n_lcores,
		      "mops", r->sum_mops,
		      "cycles_per_elem", r->sum_cycles_per_elem);
	if (x == NULL || json_object_set_new(o, "sum", x) < 0)
		goto nomem;
	return o;
nomem:
	json_decref(o);
	return NULL;
}

json_t *
bench_doc_new(void)
{
	enum bench_timer t = bench_timer_get();

	return json_pack("{s:s, s:s, s:I, s:s, s:s, s:b, s:b, s:I, s:[], s:[]}",
			 "schema", "pktpath-bench/1",
			 "version", PKTPATH_VERSION,
			 "tsc_hz", (json_int_t)rte_get_tsc_hz(),
			 "timer", bench_timer_name(t),
			 "timer_insns", bench_timer_insns(t),
			 "cpu_has_rdtscp", bench_cpu_has_rdtscp(),
			 "invariant_tsc", bench_cpu_invariant_tsc(),
			 "lcores", (json_int_t)rte_lcore_count(),
			 "results", "skipped");
}

int
bench_doc_add(json_t *doc, const struct bench_result *r)
{
	json_t *o = bench_result_json(r);

	if (o == NULL)
		return -ENOMEM;
	return json_array_append_new(json_object_get(doc, "results"), o) < 0 ?
		-ENOMEM : 0;
}

int
bench_doc_skip(json_t *doc, const char *name, const char *reason)
{
	json_t *o = json_pack("{s:s, s:s}", "name", name, "reason", reason);

	if (o == NULL)
		return -ENOMEM;
	return json_array_append_new(json_object_get(doc, "skipped"), o) < 0 ?
		-ENOMEM : 0;
}

int
bench_doc_write(const json_t *doc, const char *path, char *err)
{
	char why[BENCH_ERR_LEN - 8];
	size_t len;
	char *text;
	int ret;

	text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	if (text == NULL) {
		snprintf(err, BENCH_ERR_LEN, "--json %s: out of memory", path);
		return -ENOMEM;
	}
	len = strlen(text);
	text[len] = '\n';	/* in place of the NUL: the length is known */
	/* as every output: a regular file or a device, each write checked */
	ret = base_file_write(path, text, len + 1, why, sizeof(why));
	free(text);
	if (ret != 0)
		snprintf(err, BENCH_ERR_LEN, "--json %s", why);
	return ret;
}

/* ---- schema check ---- */

#define __bench_fail(...) do {					\
		if (err != NULL)				\
			snprintf(err, len, __VA_ARGS__);	\
		return -EINVAL;					\
	} while (0)

static int
__bench_check_stat(const json_t *o, const char *key, char *err, size_t len)
{
	const json_t *s = json_object_get(o, key);
	const char *k[] = { "min", "median", "max" };
	double v[3];
	unsigned int i;

	if (!json_is_object(s))
		__bench_fail("\"%s\" is not an object", key);
	for (i = 0; i < RTE_DIM(k); i++) {
		const json_t *x = json_object_get(s, k[i]);

		if (!json_is_number(x))
			__bench_fail("\"%s.%s\" is not a number", key, k[i]);
		v[i] = json_number_value(x);
		if (v[i] < 0)
			__bench_fail("\"%s.%s\" is negative", key, k[i]);
	}
	if (!(v[0] <= v[1] && v[1] <= v[2]))
		__bench_fail("\"%s\": not min <= median <= max", key);
	return 0;
}

int
bench_result_json_check(const json_t *o, char *err, size_t len)
{
	const char *ints[] = { "step", "loops", "reps", "elems", "laps", "tsc_hz",
			       "preempted_reps" };
	const char *reals[] = { "baseline_cycles_per_loop", "lap_overhead_cycles",
				"lost_pct_max" };
	const json_t *mode, *arr, *x;
	unsigned int i;
	size_t j;

	if (!json_is_object(o))
		__bench_fail("result is not an object");
	if (!json_is_string(json_object_get(o, "name")))
		__bench_fail("\"name\" is not a string");
	mode = json_object_get(o, "mode");
	if (!json_is_string(mode) ||
	    (strcmp(json_string_value(mode), "single") != 0 &&
	     strcmp(json_string_value(mode), "concurrent") != 0))
		__bench_fail("\"mode\" is not \"single\" or \"concurrent\"");
	for (i = 0; i < RTE_DIM(ints); i++)
		if (!json_is_integer(json_object_get(o, ints[i])) ||
		    json_integer_value(json_object_get(o, ints[i])) < 0)
			__bench_fail("\"%s\" is not a non-negative integer", ints[i]);
	x = json_object_get(o, "timer");
	if (!json_is_string(x) ||
	    (strcmp(json_string_value(x), "rdtscp") != 0 &&
	     strcmp(json_string_value(x), "lfence") != 0))
		__bench_fail("\"timer\" is not \"rdtscp\" or \"lfence\"");
	if (json_integer_value(json_object_get(o, "loops")) < BENCH_MIN_LOOPS)
		__bench_fail("\"loops\" is below %d", BENCH_MIN_LOOPS);
	for (i = 0; i < RTE_DIM(reals); i++)
		if (!json_is_number(json_object_get(o, reals[i])))
			__bench_fail("\"%s\" is not a number", reals[i]);
	if (__bench_check_stat(o, "cycles_per_elem", err, len) < 0 ||
	    __bench_check_stat(o, "ns_per_elem", err, len) < 0)
		return -EINVAL;
	if (strcmp(json_string_value(mode), "concurrent") != 0)
		return 0;
	arr = json_object_get(o, "lcores");
	if (!json_is_array(arr) || json_array_size(arr) < 2)
		__bench_fail("\"lcores\" is not an array of at least 2 lcores");
	json_array_foreach(arr, j, x) {
		if (!json_is_integer(json_object_get(x, "lcore")) ||
		    !json_is_integer(json_object_get(x, "elems")))
			__bench_fail("\"lcores[%zu]\" lacks \"lcore\" or \"elems\"", j);
		if (__bench_check_stat(x, "cycles_per_elem", err, len) < 0 ||
		    __bench_check_stat(x, "ns_per_elem", err, len) < 0)
			return -EINVAL;
	}
	x = json_object_get(o, "sum");
	if (!json_is_object(x) ||
	    json_integer_value(json_object_get(x, "lcores")) !=
	    (json_int_t)json_array_size(arr) ||
	    !json_is_number(json_object_get(x, "mops")) ||
	    !json_is_number(json_object_get(x, "cycles_per_elem")))
		__bench_fail("\"sum\" is not {lcores (= size of lcores), mops, cycles_per_elem}");
	return 0;
}
