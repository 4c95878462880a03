/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ingress hook in isolation (lib/ingress), on the generator's default
 * frames (64 flows) in bursts of 32:
 *
 *  - ingress_classify: ingress_classify_burst() alone, no guard, no
 *    counter, for each rule file: the default lookup, then each lookup
 *    forced (ingress_rules_view(): rte_acl, the linear walk over the key,
 *    the naive reference), 32 packets a call and 1 packet a call. Where the
 *    default lookup switches from the linear walk to rte_acl is read off
 *    this table, with --rules listing gen-rules.py sets of 4..64 rules.
 *  - ingress_hook: ingress_burst() + ingress_worker_quiescent(), what a
 *    worker pays per burst, in every mode and scope, on one lcore.
 *  - ingress_hook_conc: the same on every lcore at once, sharing the hook
 *    (its lock, rwlock and QSBR variable), each lcore with its own packets
 *    and MIB block; the share of lock acquisitions that found the lock
 *    taken (LockContended / LockAcquires) beside each figure.
 *
 * --rules FILE[,FILE...] replaces the rule files (defaults below, relative
 * to the repository root, where scripts/bench.sh runs). The uncontended
 * spinlock's tight-loop cost, to set beside "lock", is the prim group's
 * "spinlock".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "base.h"
#include "ingress.h"
#include "ingress_rules.h"
#include "mib.h"
#include "pkt.h"
#include "pktpath_bench.h"

#define IG_BURST 32
#define IG_PKTS 64		/* two bursts, alternated */
#define IG_MAX_FILES 32
/* Beyond this many rules the linear lookups are so slow (the journal's
 * classification table) that they run 1/100 of the loops. */
#define IG_SLOW_RULES 1000

static const char ig_classify_files[] =
	"config/rules/drop-udp-9.rules,config/rules/acl-100.rules,config/rules/acl-10000.rules";
static const char ig_hook_files[] =
	"config/rules/match-all.rules,config/rules/acl-100.rules";

/* ---- shared set-up ---- */

/* The rule files: ctx->rules, or dflt. Returns the count (0: reported). */
static unsigned int
ig_files(struct pb_ctx *ctx, const struct pb_bench *b, const char *dflt,
	 char *buf, size_t len, const char **files)
{
	const char *list = ctx->rules ? ctx->rules : dflt;
	char *save = NULL, *tok;
	unsigned int n = 0;

	if (strlen(list) >= len) {
		fprintf(stderr, "pktpath-bench: %s: --rules: longer than %zu characters\n",
			b->name, len - 1);
		ctx->failures++;
		return 0;
	}
	snprintf(buf, len, "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == IG_MAX_FILES) {
			fprintf(stderr, "pktpath-bench: %s: --rules: more than %u files\n",
				b->name, IG_MAX_FILES);
			ctx->failures++;
			return 0;
		}
		files[n++] = tok;
	}
	if (n == 0) {
		char q[BASE_QUOTE_LEN];

		fprintf(stderr, "pktpath-bench: %s: --rules \"%s\": no file named\n",
			b->name, base_quote(q, sizeof(q), list));
		ctx->failures++;
	}
	return n;
}

/* The file's name without its folder and ".rules": a result name part. */
static void
ig_base(const char *file, char *out, size_t len)
{
	const char *s = strrchr(file, '/');
	size_t n;

	s = s ? s + 1 : file;
	n = strlen(s);
	if (n > 6 && strcmp(s + n - 6, ".rules") == 0)
		n -= 6;
	snprintf(out, len, "%.*s", (int)RTE_MIN(n, (size_t)24), s);
}

static struct ingress_classifier *
ig_parse(struct pb_ctx *ctx, const struct pb_bench *b, const char *file)
{
	struct ingress_classifier *c = NULL;
	char err[512];
	int ret = ingress_rules_parse_file(file, &c, err, sizeof(err));

	if (ret != 0) {
		fprintf(stderr, "pktpath-bench: %s: %s%s\n", b->name, err,
			ret == -ENOENT && ctx->rules == NULL ?
			" (run from the repository root, or give --rules)" : "");
		ctx->failures++;
		return NULL;
	}
	return c;
}

/* n bursts' worth of the generator's frames, from pool. */
static int
ig_frames(struct rte_mempool *pool, const struct pkt_templates *t,
	  struct rte_mbuf **pkts, unsigned int n)
{
	unsigned int i;

	if (rte_pktmbuf_alloc_bulk(pool, pkts, n) != 0)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		memcpy(rte_pktmbuf_mtod(pkts[i], void *), t->data[i % t->n],
		       t->len[i % t->n]);
		pkts[i]->data_len = t->len[i % t->n];
		pkts[i]->pkt_len = t->len[i % t->n];
	}
	return 0;
}

/* The pool and the templates every benchmark here uses. */
struct ig_env {
	struct rte_mempool *pool;
	struct pkt_templates *t;
};

static int
ig_env_init(struct pb_ctx *ctx, const struct pb_bench *b, struct ig_env *e,
	    unsigned int n_mbufs)
{
	struct pkt_flow_conf fc;

	pkt_flow_conf_default(&fc);
	e->t = pkt_templates_build(&fc, NULL);
	if (e->t == NULL)
		return pb_fail(ctx, b->name, -ENOMEM, "pkt_templates_build");
	/* pkt_pool_create(): rte_errno is the failure's own, never stale */
	e->pool = pkt_pool_create("pb_ingress", n_mbufs, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				  (int)rte_socket_id(), 0);
	if (e->pool == NULL) {
		pkt_templates_free(e->t);
		return pb_fail(ctx, b->name, -rte_errno, "rte_pktmbuf_pool_create");
	}
	return 0;
}

static void
ig_env_free(struct ig_env *e)
{
	rte_mempool_free(e->pool);
	pkt_templates_free(e->t);
}

/* ---- ingress_classify ---- */

struct ig_classify {
	const struct ingress_classifier *c;
	struct rte_mbuf *pkts[IG_PKTS];
};

static int
b_classify_burst(struct bench_rec *rec, void *arg)
{
	struct ig_classify *x = arg;
	struct ingress_result res[IG_BURST];
	uint64_t i;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		ingress_classify_burst(x->c, x->pkts + (i & 1) * IG_BURST,
				       IG_BURST, res);
		/* The results are used: the call is not removed. */
		__asm__ volatile("" : : "r"(res) : "memory");
	}
	bench_stop(rec, rec->loops * IG_BURST);
	return 0;
}

static int
b_classify_one(struct bench_rec *rec, void *arg)
{
	struct ig_classify *x = arg;
	struct ingress_result res[IG_BURST];
	uint64_t i;
	uint16_t j;

	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		struct rte_mbuf **p = x->pkts + (i & 1) * IG_BURST;

		for (j = 0; j < IG_BURST; j++)
			ingress_classify_burst(x->c, &p[j], 1, &res[j]);
		__asm__ volatile("" : : "r"(res) : "memory");
	}
	bench_stop(rec, rec->loops * IG_BURST);
	return 0;
}

/* The columns: the default lookup, then each view, by burst and 1 by 1. */
enum ig_col {
	IC_DEFAULT, IC_ACL, IC_ACL_ONE, IC_SMALL, IC_SMALL_ONE, IC_REF, IC_MAX
};

static const struct {
	const char *name;		/* result name part */
	int view;			/* -1: the classifier as parsed */
	bool one;			/* 1 packet a call */
} ig_cols[IC_MAX] = {
	[IC_DEFAULT] = { "default", -1, false },
	[IC_ACL] = { "acl", INGRESS_RULES_VIEW_ACL, false },
	[IC_ACL_ONE] = { "acl_1", INGRESS_RULES_VIEW_ACL, true },
	[IC_SMALL] = { "linear", INGRESS_RULES_VIEW_SMALL, false },
	[IC_SMALL_ONE] = { "linear_1", INGRESS_RULES_VIEW_SMALL, true },
	[IC_REF] = { "reference", INGRESS_RULES_VIEW_REFERENCE, false },
};

struct ig_row {
	char base[32];
	int n_rules;
	bool default_acl;		/* the default lookup is rte_acl */
	double cyc[IC_MAX], ns[IC_MAX];
};

/* Is c's default lookup rte_acl? (Its ops are the rte_acl view's.) */
static bool
ig_default_is_acl(const struct ingress_classifier *c)
{
	struct ingress_classifier *acl = ingress_rules_view(c, INGRESS_RULES_VIEW_ACL);
	bool same = acl != NULL && acl->ops == c->ops;

	ingress_classifier_free(acl);
	return same;
}

static int
ig_classify_file(struct pb_ctx *ctx, const struct pb_bench *b,
		 const char *file, struct ig_classify *x, struct ig_row *row)
{
	struct ingress_classifier *c = ig_parse(ctx, b, file);
	uint64_t loops = pb_loops(ctx, b->loops);
	char name[BENCH_NAME_LEN];
	struct bench_result res;
	unsigned int k;
	int ret = 0;

	if (c == NULL)
		return -EINVAL;
	ig_base(file, row->base, sizeof(row->base));
	row->n_rules = ingress_rules_count(c);
	row->default_acl = ig_default_is_acl(c);
	for (k = 0; k < IC_MAX && ret == 0; k++) {
		struct ingress_classifier *v = ig_cols[k].view < 0 ? c :
			ingress_rules_view(c, (enum ingress_rules_view)ig_cols[k].view);
		uint64_t n = loops;

		if (v == NULL) {
			ret = pb_fail(ctx, b->name, -rte_errno, "ingress_rules_view");
			break;
		}
		/* The linear lookups of a big set: 1/100 of the loops. */
		if (row->n_rules > IG_SLOW_RULES &&
		    (ig_cols[k].view == INGRESS_RULES_VIEW_SMALL ||
		     ig_cols[k].view == INGRESS_RULES_VIEW_REFERENCE ||
		     (ig_cols[k].view < 0 && !row->default_acl)))
			n = RTE_MAX(loops / 100, (uint64_t)BENCH_MIN_LOOPS);
		x->c = v;
		snprintf(name, sizeof(name), "ingress_classify/%s/%s", row->base,
			 ig_cols[k].name);
		ret = pb_run(ctx, false, name,
			     ig_cols[k].one ? b_classify_one : b_classify_burst,
			     x, ig_cols[k].one ? 1 : IG_BURST, n, &res);
		if (ret == 0) {
			row->cyc[k] = res.cycles.median;
			row->ns[k] = res.ns.median;
		}
		if (v != c)
			ingress_classifier_free(v);
	}
	ingress_classifier_free(c);
	return ret;
}

static int
ig_classify_run(struct pb_ctx *ctx, const struct pb_bench *b)
{
	char buf[4096];
	const char *files[IG_MAX_FILES];
	unsigned int n = ig_files(ctx, b, ig_classify_files, buf, sizeof(buf), files);
	struct ig_row *rows = calloc(IG_MAX_FILES, sizeof(*rows));
	struct ig_classify x;
	struct ig_env e;
	unsigned int f, k;
	int ret;

	if (n == 0 || rows == NULL) {
		free(rows);
		return n == 0 ? -EINVAL : pb_fail(ctx, b->name, -ENOMEM, "result rows");
	}
	ret = ig_env_init(ctx, b, &e, 2 * IG_PKTS);
	if (ret < 0) {
		free(rows);
		return ret;
	}
	ret = ig_frames(e.pool, e.t, x.pkts, IG_PKTS);
	if (ret < 0) {
		ig_env_free(&e);
		free(rows);
		return pb_fail(ctx, b->name, ret, "mbufs");
	}
	for (f = 0; f < n && ret == 0; f++)
		ret = ig_classify_file(ctx, b, files[f], &x, &rows[f]);
	if (ret == 0) {
		printf("# ingress_classify: ns/pkt (cycles/pkt) of ingress_classify_burst, median of %u reps;\n"
		       "#   generator frames (64 flows); burst = 32 packets a call, 1 pkt/call = one packet a call\n",
		       ctx->reps);
		printf("| rules | n | default lookup, burst of 32 | rte_acl burst | rte_acl 1 pkt/call | linear-over-key burst | linear 1 pkt/call | naive reference |\n");
		printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (f = 0; f < n; f++) {
			const struct ig_row *r = &rows[f];

			printf("| %s | %d | %.1f (%.0f) %s", r->base, r->n_rules,
			       r->ns[IC_DEFAULT], r->cyc[IC_DEFAULT],
			       r->default_acl ? "rte_acl" : "linear");
			for (k = IC_ACL; k < IC_MAX; k++)
				printf(" | %.1f (%.0f)", r->ns[k], r->cyc[k]);
			printf(" |\n");
		}
	}
	rte_pktmbuf_free_bulk(x.pkts, IG_PKTS);
	ig_env_free(&e);
	free(rows);
	return ret;
}

/* ---- ingress_hook, ingress_hook_conc ---- */

struct ig_worker {
	struct mib_block mib;
	struct rte_mbuf *pkts[IG_PKTS];
} __rte_cache_aligned;

struct ig_hook {
	struct ingress *ing;
	struct mib_set *mibs;		/* n workers + the control block */
	unsigned int n;
	struct ig_worker w[];
};

/* Worker rec->worker: its own packets and MIB block, the shared hook. */
static int
b_hook(struct bench_rec *rec, void *arg)
{
	struct ig_hook *h = arg;
	unsigned int wid = rec->worker;
	struct ig_worker *w = &h->w[wid];
	uint8_t keep[IG_BURST];
	uint64_t i;

	if (wid >= h->n)
		return -EINVAL;
	ingress_worker_start(h->ing, wid);
	bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		ingress_burst(h->ing, wid, w->pkts + (i & 1) * IG_BURST,
			      IG_BURST, keep, &w->mib);
		ingress_worker_quiescent(h->ing, wid, &w->mib);
		__asm__ volatile("" : : "r"(keep) : "memory");
	}
	bench_stop(rec, rec->loops * IG_BURST);
	/* Offline (rcu) before the next mode flip, which waits for running
	 * workers only. */
	ingress_worker_stop(h->ing, wid);
	return 0;
}

static uint64_t
ig_sum(const struct ig_hook *h, unsigned int f)
{
	uint64_t s = 0;
	unsigned int k;

	for (k = 0; k < h->n; k++)
		s += mib_read(&h->w[k].mib, f);
	return s;
}

static void
ig_hook_free(struct ig_hook *h)
{
	unsigned int k;

	if (h == NULL)
		return;
	ingress_free(h->ing);
	for (k = 0; k < h->n; k++)
		if (h->w[k].pkts[0] != NULL)
			rte_pktmbuf_free_bulk(h->w[k].pkts, IG_PKTS);
	mib_set_free(h->mibs);
	rte_free(h);
}

static struct ig_hook *
ig_hook_new(struct pb_ctx *ctx, const struct pb_bench *b, struct ig_env *e,
	    const char *file, unsigned int n)
{
	struct ingress_classifier *c = ig_parse(ctx, b, file);
	struct ig_hook *h;
	unsigned int k;

	if (c == NULL)
		return NULL;
	h = rte_zmalloc("pb_ingress_hook", sizeof(*h) + n * sizeof(h->w[0]),
			RTE_CACHE_LINE_SIZE);
	if (h == NULL) {
		ingress_classifier_free(c);
		pb_fail(ctx, b->name, -ENOMEM, "the hook's workers");
		return NULL;
	}
	h->n = n;
	h->mibs = mib_set_create(n + 1, MIB_LAYOUT_PERCPU, NULL);
	if (h->mibs == NULL) {
		ingress_classifier_free(c);
		pb_fail(ctx, b->name, -ENOMEM, "mib_set_create");
		ig_hook_free(h);
		return NULL;
	}
	/* The hook owns c from here, even on failure. */
	h->ing = ingress_create(n, INGRESS_OFF, INGRESS_SCOPE_PACKET, c,
				mib_set_block(h->mibs, n), (int)rte_socket_id());
	if (h->ing == NULL) {
		pb_fail(ctx, b->name, -rte_errno, "ingress_create");
		ig_hook_free(h);
		return NULL;
	}
	for (k = 0; k < n; k++) {
		h->w[k].mib = mib_set_block(h->mibs, k);
		if (ig_frames(e->pool, e->t, h->w[k].pkts, IG_PKTS) < 0) {
			h->w[k].pkts[0] = NULL;
			pb_fail(ctx, b->name, -ENOMEM, "mbufs");
			ig_hook_free(h);
			return NULL;
		}
	}
	return h;
}

/* One rule file: every mode and scope. Prints its table. */
static int
ig_hook_file(struct pb_ctx *ctx, const struct pb_bench *b, struct ig_env *e,
	     const char *file, bool concurrent)
{
	unsigned int n = concurrent ? rte_lcore_count() : 1, m, s, k;
	double ns[INGRESS_MODE_MAX][INGRESS_SCOPE_MAX][RTE_MAX_LCORE];
	double cyc[INGRESS_MODE_MAX][INGRESS_SCOPE_MAX];
	double contended[INGRESS_MODE_MAX][INGRESS_SCOPE_MAX];
	uint64_t loops = pb_loops(ctx, b->loops);
	struct bench_result *res = malloc(sizeof(*res));
	char base[32], name[BENCH_NAME_LEN];
	struct ig_hook *h;
	int ret = 0;

	if (res == NULL)
		return pb_fail(ctx, b->name, -ENOMEM, "result");
	h = ig_hook_new(ctx, b, e, file, n);
	if (h == NULL) {
		free(res);
		return -EINVAL;
	}
	ig_base(file, base, sizeof(base));
	for (m = 0; m < INGRESS_MODE_MAX && ret == 0; m++)
		for (s = 0; s < INGRESS_SCOPE_MAX && ret == 0; s++) {
			uint64_t acq0, con0, acq, con;

			/* Every worker is stopped: neither call waits. */
			ret = ingress_set_mode(h->ing, m);
			if (ret == 0)
				ret = ingress_set_scope(h->ing, s);
			if (ret < 0) {
				pb_fail(ctx, b->name, ret, "ingress_set_mode/scope");
				break;
			}
			acq0 = ig_sum(h, MIB_F(INGRESS, LOCKACQUIRES));
			con0 = ig_sum(h, MIB_F(INGRESS, LOCKCONTENDED));
			snprintf(name, sizeof(name), "%s/%s/%s/%s", b->name, base,
				 ingress_mode_name(m), ingress_scope_name(s));
			ret = pb_run(ctx, concurrent, name, b_hook, h, IG_BURST,
				     loops, res);
			if (ret < 0)
				break;
			acq = ig_sum(h, MIB_F(INGRESS, LOCKACQUIRES)) - acq0;
			con = ig_sum(h, MIB_F(INGRESS, LOCKCONTENDED)) - con0;
			contended[m][s] = acq ? 100.0 * (double)con / (double)acq : -1;
			cyc[m][s] = res->cycles.median;
			for (k = 0; k < n; k++)
				ns[m][s][k] = concurrent ? res->lcore[k].ns.median :
					res->ns.median;
		}
	if (ret == 0 && !concurrent) {
		printf("# ingress_hook, %s: ns/pkt (cycles/pkt) of ingress_burst + ingress_worker_quiescent,\n"
		       "#   1 worker, bursts of 32, median of %u reps\n", base, ctx->reps);
		printf("| `%s.rules` | 1 worker, packet | 1 worker, burst |\n", base);
		printf("| --- | ---: | ---: |\n");
		for (m = 0; m < INGRESS_MODE_MAX; m++)
			printf("| %s | %.2f (%.1f) | %.2f (%.1f) |\n",
			       ingress_mode_name(m),
			       ns[m][INGRESS_SCOPE_PACKET][0], cyc[m][INGRESS_SCOPE_PACKET],
			       ns[m][INGRESS_SCOPE_BURST][0], cyc[m][INGRESS_SCOPE_BURST]);
	} else if (ret == 0) {
		printf("# ingress_hook_conc, %s: ns/pkt of each of %u workers (one per lcore, all at once),\n"
		       "#   ingress_burst + ingress_worker_quiescent, bursts of 32, median of %u reps;\n"
		       "#   LockContended / LockAcquires over the run\n", base, n, ctx->reps);
		printf("| `%s.rules` | %u workers, packet | %u workers, burst |\n", base, n, n);
		printf("| --- | ---: | ---: |\n");
		for (m = 0; m < INGRESS_MODE_MAX; m++) {
			printf("| %s", ingress_mode_name(m));
			for (s = 0; s < INGRESS_SCOPE_MAX; s++) {
				printf(" |");
				for (k = 0; k < n; k++)
					printf("%s%.2f", k ? " / " : " ", ns[m][s][k]);
				if (contended[m][s] >= 0)
					printf(", %.1f%% contended", contended[m][s]);
			}
			printf(" |\n");
		}
	}
	ig_hook_free(h);
	free(res);
	return ret;
}

static int
ig_hook_run(struct pb_ctx *ctx, const struct pb_bench *b)
{
	bool concurrent = b->param != 0;
	unsigned int n_lcores = concurrent ? rte_lcore_count() : 1, n, f;
	const char *files[IG_MAX_FILES];
	char buf[4096];
	struct ig_env e;
	int ret;

	n = ig_files(ctx, b, ig_hook_files, buf, sizeof(buf), files);
	if (n == 0)
		return -EINVAL;
	ret = ig_env_init(ctx, b, &e, n_lcores * IG_PKTS + 64);
	if (ret < 0)
		return ret;
	for (f = 0; f < n && ret == 0; f++)
		ret = ig_hook_file(ctx, b, &e, files[f], concurrent);
	ig_env_free(&e);
	return ret;
}

const struct pb_bench pb_ingress_benches[] = {
	{ "ingress_classify", "ingress", 1, 200000, "table: ingress_classify_burst per rule file: the default lookup, rte_acl, the linear walk, the reference; 32 and 1 packets a call",
	  ig_classify_run, 0 },
	{ "ingress_hook", "ingress", 1, 100000, "table: ingress_burst + ingress_worker_quiescent in every mode and scope, 1 worker",
	  ig_hook_run, 0 },
	{ "ingress_hook_conc", "ingress", 2, 100000, "table: the same on every lcore at once sharing the hook, with LockContended / LockAcquires",
	  ig_hook_run, 1 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};
