/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Folding per-lcore counters, after the snmp_fold_field threads: L blocks of
 * F 64-bit counters, summed field-major (for each field, walk every block:
 * snmp_fold_field) or lcore-major (for each block, add every field into a
 * zeroed buffer: snmp_get_cpu_field64_batch), with relaxed atomic loads as
 * mib_fold() does.
 *
 * Each block is its own page-aligned allocation, as per-CPU units are: so
 * field f of every block maps to the same L1 set, which is what made the
 * field-major walk miss in L1 once there are more blocks than ways.
 *
 * warm: folds back to back (everything cached after the first).
 * cold: every line of every block (and of the totals) flushed from the
 *       cache hierarchy before each fold (clflush, untimed; on a CPU or an
 *       architecture without it, a 64 MiB buffer is overwritten instead);
 *       each fold is a timed lap, so each carries one TSC-read pair
 *       (reported beside).
 *
 * devdump: the docker thread's link dump. D devices' per-device IPv6 MIBs
 * on L lcores (lib/mib's mib_dev.h, sized and laid out as the kernel's
 * inet6_dev statistics), folded device after device as every
 * RTM_NEWLINK message of a dump folds its device's (inet6_fill_ifla6_attrs
 * -> snmp6_fill_stats: IFLA_INET6_STATS and IFLA_INET6_ICMP6STATS),
 * field-major or lcore-major. One element is one
 * device's fold; a repetition is whole dumps (its loops a multiple of D),
 * back to back, so a dump finds in the caches what the previous one left.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#if defined(RTE_ARCH_X86)
#include <cpuid.h>
#endif

#include "mib_dev.h"
#include "pktpath_bench.h"

#define FOLD_MAX_L 256
#define FOLD_MAX_F 128
#define FOLD_ALIGN 4096		/* per-CPU units are page aligned */

static const unsigned int fold_ls[] = { 2, 8, 32, 128, 256 };
static const unsigned int fold_fs[] = { 8, 32, 128 };

enum fold_col { FC_FIELD_WARM, FC_LCORE_WARM, FC_FIELD_COLD, FC_LCORE_COLD,
		FC_MAX };

static const char *const fold_col_names[FC_MAX] = {
	[FC_FIELD_WARM] = "field_warm", [FC_LCORE_WARM] = "lcore_warm",
	[FC_FIELD_COLD] = "field_cold", [FC_LCORE_COLD] = "lcore_cold",
};

struct fold_bench {
	unsigned int l, f;
	uint64_t *blocks[FOLD_MAX_L];
	uint64_t totals[FOLD_MAX_F] __rte_cache_aligned;
	uint8_t *evict;		/* fallback eviction buffer (no clflush) */
	size_t evict_len;
};

static __rte_always_inline void
fold_field(struct fold_bench *fb)
{
	unsigned int f, l;

	for (f = 0; f < fb->f; f++) {
		uint64_t acc = 0;

		for (l = 0; l < fb->l; l++)
			acc += __atomic_load_n(&fb->blocks[l][f], __ATOMIC_RELAXED);
		fb->totals[f] = acc;
	}
}

static __rte_always_inline void
fold_lcore(struct fold_bench *fb)
{
	unsigned int f, l;

	memset(fb->totals, 0, fb->f * sizeof(uint64_t));
	for (l = 0; l < fb->l; l++) {
		const uint64_t *b = fb->blocks[l];

		for (f = 0; f < fb->f; f++)
			fb->totals[f] += __atomic_load_n(&b[f], __ATOMIC_RELAXED);
	}
}

/* CPUID 01h EDX bit 19: CLFSH (clflush). */
static bool
fold_has_clflush(void)
{
#if defined(RTE_ARCH_X86)
	unsigned int eax, ebx, ecx, edx;

	return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && ((edx >> 19) & 1);
#else
	return false;
#endif
}

/* Push the blocks and the totals out of every cache level. */
static void
fold_evict(struct fold_bench *fb)
{
	size_t off;

	if (fb->evict != NULL) {
		/* No user-mode flush: overwrite a buffer larger than the LLC. */
		for (off = 0; off < fb->evict_len; off += RTE_CACHE_LINE_SIZE)
			fb->evict[off]++;
		rte_mb();
		return;
	}
#if defined(RTE_ARCH_X86)
	unsigned int l;
	size_t len = fb->f * sizeof(uint64_t);

	for (l = 0; l < fb->l; l++)
		for (off = 0; off < len; off += RTE_CACHE_LINE_SIZE)
			__builtin_ia32_clflush((const uint8_t *)fb->blocks[l] + off);
	for (off = 0; off < len; off += RTE_CACHE_LINE_SIZE)
		__builtin_ia32_clflush((const uint8_t *)fb->totals + off);
	/* The flushes complete before the timed fold starts. */
	__builtin_ia32_mfence();
#endif
}

static int
b_fold_field_warm(struct bench_rec *rec, void *arg)
{
	struct fold_bench *fb = arg;
	uint64_t i;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		fold_field(fb);
	bench_stop(rec, rec->loops);
	pb_sink = fb->totals[0];
	return 0;
}

static int
b_fold_lcore_warm(struct bench_rec *rec, void *arg)
{
	struct fold_bench *fb = arg;
	uint64_t i;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++)
		fold_lcore(fb);
	bench_stop(rec, rec->loops);
	pb_sink = fb->totals[0];
	return 0;
}

static int
b_fold_field_cold(struct bench_rec *rec, void *arg)
{
	struct fold_bench *fb = arg;
	uint64_t i;

	for (i = 0; i < rec->loops; i++) {
		fold_evict(fb);
		bench_start(rec);
		fold_field(fb);
		bench_stop(rec, 1);
	}
	pb_sink = fb->totals[0];
	return 0;
}

static int
b_fold_lcore_cold(struct bench_rec *rec, void *arg)
{
	struct fold_bench *fb = arg;
	uint64_t i;

	for (i = 0; i < rec->loops; i++) {
		fold_evict(fb);
		bench_start(rec);
		fold_lcore(fb);
		bench_stop(rec, 1);
	}
	pb_sink = fb->totals[0];
	return 0;
}

static const bench_fn fold_fns[FC_MAX] = {
	[FC_FIELD_WARM] = b_fold_field_warm, [FC_LCORE_WARM] = b_fold_lcore_warm,
	[FC_FIELD_COLD] = b_fold_field_cold, [FC_LCORE_COLD] = b_fold_lcore_cold,
};

static void
fold_bench_free(struct fold_bench *fb)
{
	unsigned int l;

	for (l = 0; l < FOLD_MAX_L; l++)
		rte_free(fb->blocks[l]);
	free(fb->evict);
	rte_free(fb);
}

static struct fold_bench *
fold_bench_alloc(void)
{
	struct fold_bench *fb = rte_zmalloc("pb_fold", sizeof(*fb),
					    RTE_CACHE_LINE_SIZE);
	unsigned int l, f;

	if (fb == NULL)
		return NULL;
	for (l = 0; l < FOLD_MAX_L; l++) {
		/* One allocation per lcore, as per-CPU areas are. */
		fb->blocks[l] = rte_zmalloc_socket("pb_fold_block",
						   FOLD_MAX_F * sizeof(uint64_t),
						   FOLD_ALIGN, (int)rte_socket_id());
		if (fb->blocks[l] == NULL)
			goto nomem;
		for (f = 0; f < FOLD_MAX_F; f++)
			fb->blocks[l][f] = l * FOLD_MAX_F + f;
	}
	if (!fold_has_clflush()) {
		fb->evict_len = 64u << 20;
		fb->evict = calloc(1, fb->evict_len);
		if (fb->evict == NULL)
			goto nomem;
	}
	return fb;
nomem:
	fold_bench_free(fb);
	return NULL;
}

/* Default folds per repetition: about 2M counter loads when warm. */
static uint64_t
fold_loops(const struct pb_ctx *ctx, const struct pb_bench *b,
	   unsigned int l, unsigned int f, bool cold)
{
	uint64_t n = cold ? BENCH_MIN_LOOPS : (2u << 20) / (l * f);

	RTE_SET_USED(b);
	return pb_loops(ctx, RTE_MAX(n, (uint64_t)BENCH_MIN_LOOPS));
}

static int
fold_run(struct pb_ctx *ctx, const struct pb_bench *b)
{
	double ns[RTE_DIM(fold_ls)][RTE_DIM(fold_fs)][FC_MAX];
	struct fold_bench *fb = fold_bench_alloc();
	struct bench_result res;
	char name[BENCH_NAME_LEN];
	unsigned int i, j, c;
	double lap = 0;
	int ret = 0;

	if (fb == NULL)
		return pb_fail(ctx, b->name, -ENOMEM, "counter blocks");
	for (i = 0; i < RTE_DIM(fold_ls); i++)
		for (j = 0; j < RTE_DIM(fold_fs); j++) {
			fb->l = fold_ls[i];
			fb->f = fold_fs[j];
			for (c = 0; c < FC_MAX; c++) {
				snprintf(name, sizeof(name), "fold_%s/L%uxF%u",
					 fold_col_names[c], fb->l, fb->f);
				ret = pb_run(ctx, false, name, fold_fns[c], fb,
					     fb->l * fb->f,
					     fold_loops(ctx, b, fb->l, fb->f,
							c >= FC_FIELD_COLD),
					     &res);
				if (ret < 0)
					goto out;
				ns[i][j][c] = res.ns.median;
				lap = res.lap_overhead_cycles;
			}
		}
	printf("# fold: ns per fold of L lcores x F fields (median of %u reps); each block its own page-aligned allocation;\n"
	       "#   warm = folds back to back, cold = every block flushed from the caches before each fold (%s)\n"
	       "#   (cold figures include one TSC-read pair per fold, %.0f cycles = %.1f ns)\n",
	       ctx->reps, fb->evict ? "64 MiB overwritten: no clflush" : "clflush",
	       lap, bench_cycles_to_ns(lap));
	printf("| L | F | field warm | lcore warm | speed-up | field cold | lcore cold | speed-up |\n");
	printf("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (i = 0; i < RTE_DIM(fold_ls); i++)
		for (j = 0; j < RTE_DIM(fold_fs); j++) {
			const double *v = ns[i][j];

			printf("| %u | %u | %.1f | %.1f | %.2fx | %.1f | %.1f | %.2fx |\n",
			       fold_ls[i], fold_fs[j],
			       v[FC_FIELD_WARM], v[FC_LCORE_WARM],
			       v[FC_LCORE_WARM] > 0 ? v[FC_FIELD_WARM] / v[FC_LCORE_WARM] : 0,
			       v[FC_FIELD_COLD], v[FC_LCORE_COLD],
			       v[FC_LCORE_COLD] > 0 ? v[FC_FIELD_COLD] / v[FC_LCORE_COLD] : 0);
		}
out:
	fold_bench_free(fb);
	return ret;
}

static const unsigned int dump_ds[] = { 1, 10, 100, 1000 };
static const unsigned int dump_ls[] = { 2, 16, 64, 160, 256 };

struct dump_bench {
	struct mib_devset *ds;
	unsigned int devs;
	enum mib_fold fold;
	uint64_t out[MIB_DEV_LINK_FIELDS] __rte_cache_aligned;
};

/* One device's link fold per loop, devices in order, as a dump walks them. */
static int
b_devdump(struct bench_rec *rec, void *arg)
{
	struct dump_bench *db = arg;
	unsigned int d = 0;
	uint64_t i;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		mib_dev_fold_link(db->ds, d, db->fold, db->out);
		if (++d == db->devs)
			d = 0;
	}
	bench_stop(rec, rec->loops);
	pb_sink = db->out[0];
	return 0;
}

/* A set of D x L with every counter non-zero (and its pages touched). */
static struct mib_devset *
dump_set(unsigned int devs, unsigned int lcores)
{
	int sockets[256];
	struct mib_devset *ds;
	unsigned int d, l, f;

	for (l = 0; l < lcores; l++)
		sockets[l] = (int)rte_socket_id();
	ds = mib_devset_create(devs, lcores, sockets);
	if (ds == NULL)
		return NULL;
	for (l = 0; l < lcores; l++)
		for (d = 0; d < devs; d++) {
			uint64_t *blk = mib_dev_ip6_block(ds, d, l);

			for (f = 0; f < MIB_DEV_IP6; f++)
				mib_dev_ip6_add(blk, f, (uint64_t)l + d + f + 1);
		}
	return ds;
}

/* Loops per repetition: whole dumps, about 4M counter loads, at least
 * BENCH_MIN_LOOPS device folds. */
static uint64_t
dump_loops(const struct pb_ctx *ctx, unsigned int devs, unsigned int lcores)
{
	uint64_t n = (4u << 20) / ((uint64_t)lcores * MIB_DEV_IP6);

	n = RTE_MAX(n, (uint64_t)BENCH_MIN_LOOPS);
	return pb_loops(ctx, RTE_ALIGN_CEIL(n, (uint64_t)devs));
}

static int
devdump_run(struct pb_ctx *ctx, const struct pb_bench *b)
{
	double ns[RTE_DIM(dump_ds)][RTE_DIM(dump_ls)][MIB_FOLD_MAX];
	unsigned int pre[RTE_DIM(dump_ds)][RTE_DIM(dump_ls)];
	struct dump_bench *db =
		rte_zmalloc("pb_devdump", sizeof(*db), RTE_CACHE_LINE_SIZE);
	struct bench_result res;
	char name[BENCH_NAME_LEN];
	unsigned int i, j, s;
	int ret = 0;

	RTE_BUILD_BUG_ON(RTE_DIM(dump_ls) == 0 || dump_ls[RTE_DIM(dump_ls) - 1] > 256);
	if (db == NULL)
		return pb_fail(ctx, b->name, -ENOMEM, "dump state");
	for (i = 0; i < RTE_DIM(dump_ds); i++)
		for (j = 0; j < RTE_DIM(dump_ls); j++) {
			db->devs = dump_ds[i];
			db->ds = dump_set(dump_ds[i], dump_ls[j]);
			if (db->ds == NULL) {
				snprintf(name, sizeof(name),
					 "%u devices x %u lcores (%zu bytes)", dump_ds[i],
					 dump_ls[j],
					 mib_devset_bytes_for(dump_ds[i], dump_ls[j]));
				ret = pb_fail(ctx, b->name, -ENOMEM, name);
				goto out;
			}
			pre[i][j] = 0;
			for (s = 0; s < MIB_FOLD_MAX; s++) {
				db->fold = (enum mib_fold)s;
				snprintf(name, sizeof(name), "devdump_%s/D%uxL%u",
					 mib_fold_name(db->fold), dump_ds[i], dump_ls[j]);
				ret = pb_run(ctx, false, name, b_devdump, db, dump_ls[j],
					     dump_loops(ctx, dump_ds[i], dump_ls[j]),
					     &res);
				if (ret < 0)
					break;
				ns[i][j][s] = res.ns.median;
				pre[i][j] += res.preempted_reps;
			}
			mib_devset_free(db->ds);
			db->ds = NULL;
			if (ret < 0)
				goto out;
		}
	printf("# devdump: a link dump of D devices' per-device IPv6 MIBs on L lcores: per device, %u Ip6 counters\n"
	       "#   on every lcore (each lcore's region page-aligned) folded field-major or lcore-major, and %u Icmp6 ones\n"
	       "#   (IFLA_INET6_STATS, IFLA_INET6_ICMP6STATS); us per dump = ns per device x D (median of %u reps,\n"
	       "#   dumps back to back)\n",
	       MIB_DEV_IP6, (unsigned int)MIB_ICMP6_MAX, ctx->reps);
	printf("| D | L | MiB | field us/dump | lcore us/dump | field ns/dev | lcore ns/dev | field/lcore | preempted reps, both folds |\n");
	printf("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (i = 0; i < RTE_DIM(dump_ds); i++)
		for (j = 0; j < RTE_DIM(dump_ls); j++) {
			const double *v = ns[i][j];

			printf("| %u | %u | %.1f | %.2f | %.2f | %.1f | %.1f | %.2fx | %u |\n",
			       dump_ds[i], dump_ls[j],
			       (double)mib_devset_bytes_for(dump_ds[i], dump_ls[j]) /
				       (1 << 20),
			       v[MIB_FOLD_FIELD] * dump_ds[i] / 1e3,
			       v[MIB_FOLD_LCORE] * dump_ds[i] / 1e3, v[MIB_FOLD_FIELD],
			       v[MIB_FOLD_LCORE],
			       v[MIB_FOLD_LCORE] > 0
				       ? v[MIB_FOLD_FIELD] / v[MIB_FOLD_LCORE]
				       : 0,
			       pre[i][j]);
		}
out:
	rte_free(db);
	return ret;
}

const struct pb_bench pb_fold_benches[] = {
	{ "fold", "fold", 1, 0,
	  "table: field-major vs lcore-major fold of L (2..256) lcores x F (8..128) fields, warm and cold",
	  fold_run, 0 },
	{ "devdump", "fold", 1, 0,
	  "table: link dump of D (1..1000) devices' IPv6 MIBs x L (2..256) lcores, field- vs lcore-major",
	  devdump_run, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};
