/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pcap-filter and bpf kinds against references pktpath did not write
 * (cmocka, EAL without hugepages).
 *
 *  - generated_pcap: random tcpdump expressions over libpcap's grammar
 *    (every primitive class, accessors with sizes 1/2/4 and computed
 *    indexes, arithmetic with shifts, masks, division and modulo, named
 *    constants, vlan/mpls/pppoes/geneve, protochain, len, broadcast and
 *    multicast, and/or/not) against libpcap's own pcap_offline_filter on
 *    hand-made and random frames, each as one segment and as a chain of
 *    small segments; every engine (jit, interp, libpcap) must return
 *    exactly libpcap's value, and nothing libpcap compiles may be refused.
 *  - generated_ebpf: random loop-free eBPF programs (every ALU operator,
 *    byte swaps, context and stack access, jumps of every condition near
 *    and far, jset with small immediates) checked against the reference
 *    interpreter of bpfgen_ebpf.c, JIT and rte_bpf interpreter; the JIT
 *    must be used for every program it can compile (a program whose JIT
 *    code failed pktpath's check would mean its model of the JIT is wrong).
 *  - dpdk_faults: each fault of DPDK 22.11's lib/bpf (lib/ingress/README.md,
 *    "DPDK 22.11 lib/bpf faults") on its reproducer: what DPDK does
 *    (printed), what pktpath gives (checked against libpcap); fault C's
 *    program is caught by the JIT check and settled by the loader.
 *  - obj_refusals: the exact one-line refusals of the bpf kind (context
 *    write, loop, shift, size, verifier reason, timeout, signal), the
 *    JIT-form rewrites and their fallback.
 *  - engines: names and descriptions.
 *  - quoting: expressions and object names holding every control and high
 *    byte: libpcap's reasons and pktpath's lines stay one line, quoted.
 *  - work_generated: the verifier-work estimate against a brute-force walk
 *    of every path, on programs of any code bytes.
 *  - fields_generated: every opcode byte with random fields; the bpf kind
 *    accepts what rte_bpf_load accepts on the program as written, on both
 *    engines, whatever pktpath rewrites.
 * (dpdk_faults, obj_refusals, engines, quoting and work_generated are in
 * test_bpf_cases.c, fields_generated in test_bpf_fields.c.)
 *
 * PKTPATH_BPF_SEED (default 12), PKTPATH_BPF_EXPRS (default 2500, 800 in
 * the sanitized build) and PKTPATH_BPF_PROGS (default 1500, 500) choose the
 * run: a failure prints the seed, the expression or program, the frame in
 * hex and both values. PKTPATH_BPF_SLOW=1 names expressions whose checks
 * take over 50 ms. No test depends on timing.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <pcap/pcap.h>

#include <rte_bpf.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "bpf_pvt.h"
#include "bpfgen.h"
#include "test_bpf.h"

struct rte_mempool *big_pool, *seg_pool, *ctx_pool;
uint64_t seed = 12;

unsigned long
env_ul(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v != NULL && *v ? strtoul(v, NULL, 10) : def;
}

void
hex(const uint8_t *b, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n && i < 256; i++)
		fprintf(stderr, "%02x", b[i]);
	fprintf(stderr, "%s\n", n > 256 ? "..." : "");
}

/* One segment (from a pool with room for the largest frame). */
struct rte_mbuf *
mbuf_one(const uint8_t *d, uint32_t n)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(big_pool);

	assert_non_null(m);
	if (n)
		memcpy(rte_pktmbuf_append(m, (uint16_t)n), d, n);
	return m;
}

/* A chain of segments of 1..seg bytes. */
struct rte_mbuf *
mbuf_chain(struct gen_rng *r, const uint8_t *d, uint32_t n, uint32_t seg)
{
	struct rte_mbuf *head = NULL;
	uint32_t o = 0;

	do {
		struct rte_mbuf *m = rte_pktmbuf_alloc(seg_pool);
		uint32_t k = n - o < seg ? n - o : 1 + gen_below(r, seg);

		assert_non_null(m);
		if (k)
			memcpy(rte_pktmbuf_append(m, (uint16_t)k), d + o, k);
		o += k;
		if (head == NULL)
			head = m;
		else
			assert_int_equal(rte_pktmbuf_chain(head, m), 0);
	} while (o < n);
	return head;
}

/*
 * libpcap's verdict: its bpf_filter() on the program with "st M[0..15]"
 * (A is 0 on entry) put before it, so that scratch memory starts zeroed as
 * pktpath defines it (libpcap leaves it uninitialised). *undef is set when
 * the same program with the memory all ones first gives another verdict:
 * libpcap's own result then depends on what its stack held. Jumps are
 * relative, so the program after the prefix is unchanged.
 */
void
ref_make(const struct bpf_program *p, struct ref *r)
{
	unsigned int k;

	r->zero = malloc(sizeof(*r->zero) * (p->bf_len + 16));
	r->ones = malloc(sizeof(*r->ones) * (p->bf_len + 18));
	assert_non_null(r->zero);
	assert_non_null(r->ones);
	r->ones[0] = (struct bpf_insn){ .code = BPF_LD | BPF_IMM, .k = 0xffffffffu };
	for (k = 0; k < 16; k++) {
		r->zero[k] = (struct bpf_insn){ .code = BPF_ST, .k = k };
		r->ones[1 + k] = r->zero[k];
	}
	r->ones[17] = (struct bpf_insn){ .code = BPF_LD | BPF_IMM, .k = 0 };
	memcpy(r->zero + 16, p->bf_insns, sizeof(*p->bf_insns) * p->bf_len);
	memcpy(r->ones + 18, p->bf_insns, sizeof(*p->bf_insns) * p->bf_len);
	r->len = p->bf_len + 16;
	r->loops = __bpf_cbpf_loops(p->bf_insns, p->bf_len);
}

void
ref_free(struct ref *r)
{
	free(r->zero);
	free(r->ones);
}

u_int
ref_run(const struct ref *r, const uint8_t *d, uint32_t n, bool *undef,
	bool *forever)
{
	u_int a;

	*undef = false;
	*forever = false;
	if (r->loops != 0) {
		__bpf_cbpf_run(r->zero, r->len, r->loops, d, n, n, forever);
		if (*forever)
			return 0;	/* libpcap's protochain loops forever */
	}
	a = bpf_filter(r->zero, d, n, n);
	*undef = bpf_filter(r->ones, d, n, n) != a;
	return a;
}

void
dump_cbpf(const struct bpf_program *p)
{
	u_int i;

	for (i = 0; i < p->bf_len; i++)
		fprintf(stderr, "  %s\n", bpf_image(&p->bf_insns[i], (int)i));
}

/* ------------------------------------------------------------------ */

#define N_FRAMES_MAX 1024

struct frames {
	struct gen_frame f[N_FRAMES_MAX];
	struct rte_mbuf *one[N_FRAMES_MAX], *chain[N_FRAMES_MAX];
	size_t n;
};

static struct frames *
frames_make(struct gen_rng *r, size_t n_random)
{
	struct frames *fs = calloc(1, sizeof(*fs));
	size_t i;

	assert_non_null(fs);
	fs->n = gen_frames(r, n_random, fs->f, N_FRAMES_MAX);
	for (i = 0; i < fs->n; i++) {
		fs->one[i] = mbuf_one(fs->f[i].data, fs->f[i].len);
		fs->chain[i] = mbuf_chain(r, fs->f[i].data, fs->f[i].len,
					  fs->f[i].len > 2000 ? 256 : 1 + gen_below(r, 64));
	}
	return fs;
}

static void
frames_free(struct frames *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++) {
		rte_pktmbuf_free(fs->one[i]);
		rte_pktmbuf_free(fs->chain[i]);
	}
	gen_frames_free(fs->f, fs->n);
	free(fs);
}

const struct ingress_verdict_conf match_pass = { INGRESS_ACT_PASS, 0, 0 };

struct ingress_classifier *
filter(const char *expr, enum ingress_bpf_engine e, uint32_t netmask)
{
	struct ingress_bpf_conf bc;
	struct ingress_classifier *c = NULL;
	char err[512];

	ingress_bpf_conf_init(&bc);
	bc.engine = e;
	bc.netmask = netmask;
	bc.load_timeout_s = 1;	/* the few the verifier cannot do: libpcap */
	if (ingress_pcap_filter_create(expr, &match_pass, &bc, &c, err, sizeof(err)) != 0)
		fprintf(stderr, "refused: %s\n", err);
	return c;
}

int
compile(const char *expr, uint32_t netmask, struct bpf_program *fp)
{
	pcap_t *p = pcap_open_dead(DLT_EN10MB, 65535);
	int rc;

	assert_non_null(p);
	rc = pcap_compile(p, fp, expr, 1, netmask);
	if (rc != 0 && getenv("PKTPATH_BPF_VERBOSE"))
		fprintf(stderr, "'%s': %s\n", expr, pcap_geterr(p));
	pcap_close(p);
	return rc;
}

/*
 * Every engine on every frame (one segment and chained) against libpcap.
 * Returns the number of mismatches (printed, at most *budget of them).
 */
static unsigned int
compare_all(const char *expr, uint32_t netmask, struct frames *fs,
	    const struct bpf_program *fp, unsigned int *budget, unsigned int *hits,
	    unsigned int *undef_frames, unsigned int *forever_frames,
	    int *engines_used)
{
	static const char *const form[] = { "one segment", "chained" };
	struct ingress_classifier *c[INGRESS_BPF_ENGINE_MAX];
	struct ingress_result res[32];
	unsigned int bad = 0, e, i, k;
	struct ref rf;

	ref_make(fp, &rf);
	for (e = 0; e < INGRESS_BPF_ENGINE_MAX; e++) {
		c[e] = filter(expr, (enum ingress_bpf_engine)e, netmask);
		if (c[e] == NULL) {
			fprintf(stderr, "seed %" PRIu64 ": '%s': libpcap compiles it, "
				"pktpath (%s) refuses it\n", seed, expr,
				ingress_bpf_engine_name(e));
			bad++;
			goto out;
		}
		engines_used[e] = ingress_bpf_engine_of(c[e]);
	}
	for (i = 0; i < fs->n; i++) {
		bool undef, forever;
		u_int want = ref_run(&rf, fs->f[i].data, fs->f[i].len, &undef, &forever);

		*hits += want != 0;
		*undef_frames += undef;
		*forever_frames += forever;
		for (e = 0; e < INGRESS_BPF_ENGINE_MAX; e++) {
			for (k = 0; k < 2; k++) {
				struct rte_mbuf *m = k ? fs->chain[i] : fs->one[i];
				uint64_t got = __ingress_bpf_run(c[e], m);

				if (got == want)
					continue;
				bad++;
				if (*budget == 0)
					continue;
				(*budget)--;
				fprintf(stderr, "MISMATCH seed %" PRIu64 ": '%s' engine %s "
					"(asked %s), %s frame (%s, %u bytes): pktpath %" PRIu64
					", libpcap %u%s\n  frame: ", seed, expr,
					ingress_bpf_engine_name(ingress_bpf_engine_of(c[e])),
					ingress_bpf_engine_name(e), form[k], fs->f[i].kind,
					fs->f[i].len, got, want,
					undef ? " (libpcap reads scratch memory it never wrote here)" : "");
				hex(fs->f[i].data, fs->f[i].len);
				dump_cbpf(fp);
			}
		}
	}
	/* The verdict path too, on a burst. */
	for (e = 0; e < INGRESS_BPF_ENGINE_MAX; e++) {
		uint16_t n = (uint16_t)(fs->n < 32 ? fs->n : 32);
		bool undef, forever;

		ingress_classify_burst(c[e], fs->chain, n, res);
		for (i = 0; i < n; i++)
			if (res[i].matched != (ref_run(&rf, fs->f[i].data, fs->f[i].len,
						       &undef, &forever) != 0))
				bad++;
	}
out:
	for (e = 0; e < INGRESS_BPF_ENGINE_MAX; e++)
		if (c[e] != NULL)
			ingress_classifier_free(c[e]);
	ref_free(&rf);
	return bad;
}

static void
test_generated_pcap(void **state)
{
	unsigned long n = env_ul("PKTPATH_BPF_EXPRS", getenv("PKTPATH_SANITIZED") ? 800 : 2500), i;
	unsigned int bad = 0, budget = 10, compiled = 0, some_match = 0, some_miss = 0;
	unsigned int undef = 0, forever = 0;
	unsigned int on_engine[INGRESS_BPF_ENGINE_MAX][INGRESS_BPF_ENGINE_MAX];
	struct gen_rng r = { seed };
	struct frames *fs;
	time_t t0 = time(NULL);
	char expr[512];

	(void)state;
	memset(on_engine, 0, sizeof(on_engine));
	fs = frames_make(&r, 360);
	for (i = 0; i < n; i++) {
		struct bpf_program fp;
		unsigned int hits = 0, u = 0, fv = 0;
		int used[INGRESS_BPF_ENGINE_MAX], e;

		gen_expr(&r, expr, sizeof(expr));
		if (getenv("PKTPATH_BPF_TRACE"))
			fprintf(stderr, "expression %lu: %s\n", i, expr);
		if (compile(expr, 0, &fp) != 0)
			continue;		/* libpcap refuses it too */
		compiled++;
		{
			struct timespec a, b;

			clock_gettime(CLOCK_MONOTONIC, &a);
			bad += compare_all(expr, 0, fs, &fp, &budget, &hits, &u, &fv, used);
			clock_gettime(CLOCK_MONOTONIC, &b);
			if (getenv("PKTPATH_BPF_SLOW") && (b.tv_sec - a.tv_sec) * 1000 +
			    (b.tv_nsec - a.tv_nsec) / 1000000 > 50)
				fprintf(stderr, "slow (%ld ms, %u insns, engine %d): %s\n",
					(long)((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000),
					fp.bf_len, used[0], expr);
		}
		undef += u != 0;
		forever += fv;
		some_match += hits > 0;
		some_miss += hits < fs->n;
		for (e = 0; e < INGRESS_BPF_ENGINE_MAX; e++)
			if (used[e] >= 0 && used[e] < INGRESS_BPF_ENGINE_MAX)
				on_engine[e][used[e]]++;
		pcap_freecode(&fp);
	}
	printf("generated_pcap: seed %" PRIu64 ", %lu expressions, %u compiled by "
	       "libpcap, %zu frames x 2 forms x 3 engines: %u mismatches; %u match "
	       "some frame, %u miss some; %u read scratch memory libpcap leaves "
	       "undefined; %u (expression, frame) pairs where libpcap loops "
	       "forever; asked jit -> ran jit %u, interp %u, libpcap %u; asked "
	       "interp -> libpcap %u (%ld s)\n", seed, n, compiled, fs->n, bad,
	       some_match, some_miss, undef, forever, on_engine[0][0], on_engine[0][1],
	       on_engine[0][2], on_engine[1][2], (long)(time(NULL) - t0));
	frames_free(fs);
	assert_int_equal(bad, 0);
	if (n < 100)
		return;
	/* Not vacuous: most expressions compile, both answers are common, and
	 * the JIT runs nearly all of them. */
	assert_true(compiled > n / 2);
	assert_true(some_match > compiled / 4 && some_miss > compiled / 4);
	assert_true(on_engine[0][0] > compiled * 9 / 10);
}

/* ------------------------------------------------------------------ */

/* A context mbuf: the buffer filled with a pattern, then the frame. */
struct rte_mbuf *
ctx_mbuf(struct gen_rng *r, uint8_t *ctx)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(ctx_pool);
	uint32_t len = gen_pct(r, 30) ? gen_below(r, 64) : gen_below(r, 2049), i;
	uint8_t *d;

	assert_non_null(m);
	for (i = 0; i < m->buf_len; i++)
		((uint8_t *)m->buf_addr)[i] = (uint8_t)(i * 7 + 3);
	d = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
	assert_true(len == 0 || d != NULL);
	for (i = 0; i < len; i++)
		d[i] = gen_pct(r, 30) ? 0x5a : (uint8_t)gen_u64(r);
	/* What the bpf kind hands the program: {len, 0, 2048 bytes}. */
	memcpy(ctx, &len, 4);
	memset(ctx + 4, 0, 4);
	memcpy(ctx + 8, rte_pktmbuf_mtod(m, uint8_t *), 2048);
	return m;
}

static bool
needs_free_reg(const struct ebpf_insn *p, uint32_t n)
{
	struct ebpf_insn *c = malloc(sizeof(*c) * n);
	bool owned = true;
	uint32_t k = n;
	int rc;

	assert_non_null(c);
	memcpy(c, p, sizeof(*c) * n);
	rc = __bpf_fix_forms(&c, &k, &owned, true);
	free(c);
	return rc == -ENOSPC;
}

struct ingress_classifier *
obj(const struct ebpf_insn *p, uint32_t n, enum ingress_bpf_engine e, char *err,
    size_t errlen, int *rc)
{
	struct ingress_bpf_conf bc;
	struct ingress_classifier *c = NULL;

	ingress_bpf_conf_init(&bc);
	bc.engine = e;
	*rc = __ingress_bpf_from_insns(p, n, "prog", "prog", &bc, &c, err, errlen);
	return c;
}

struct rte_bpf *
ctx_load(const struct ebpf_insn *p, uint32_t n)
{
	struct rte_bpf_prm prm;

	memset(&prm, 0, sizeof(prm));
	prm.ins = p;
	prm.nb_ins = n;
	prm.prog_arg.type = RTE_BPF_ARG_PTR;
	prm.prog_arg.size = CTX_SIZE;
	return rte_bpf_load(&prm);
}

void
dump_ebpf(const struct ebpf_insn *p, uint32_t n)
{
	rte_bpf_dump(stderr, p, n);
}

static void
test_generated_ebpf(void **state)
{
	unsigned long n = env_ul("PKTPATH_BPF_PROGS", getenv("PKTPATH_SANITIZED") ? 500 : 1500), i;
	unsigned int bad = 0, budget = 5, stale = 0, nojit = 0, jset = 0, runs = 0;
	unsigned int stale_settled = 0, stale_checked = 0;
	struct gen_rng r = { seed ^ 0xeb9f };
	struct ebpf_insn *p = malloc(sizeof(*p) * 4096);
	uint8_t *ctx = malloc(CTX_SIZE);
	char err[512];
	time_t t0 = time(NULL);

	(void)state;
	assert_non_null(p);
	assert_non_null(ctx);
	for (i = 0; i < n; i++) {
		uint32_t len = gen_ebpf(&r, p, 4096), k;
		struct ingress_classifier *cj, *ci;
		struct __bpf_jit_layout l;
		int rc, ok;

		cj = obj(p, len, INGRESS_BPF_JIT, err, sizeof(err), &rc);
		if (cj == NULL) {
			fprintf(stderr, "seed %" PRIu64 " program %lu: refused: %s\n", seed, i, err);
			dump_ebpf(p, len);
			bad++;
			continue;
		}
		ci = obj(p, len, INGRESS_BPF_INTERP, err, sizeof(err), &rc);
		assert_non_null(ci);
		if (__bpf_jit_predict(p, len, __bpf_stack_size(p, len), &l) == 0 && l.wrong)
			stale++;
		for (k = 0; k < len; k++)
			if (p[k].code == (BPF_JMP | BPF_JSET | BPF_K) && p[k].imm >= -128 &&
			    p[k].imm <= 127)
				break;
		jset += k < len;
		if (ingress_bpf_engine_of(cj) != INGRESS_BPF_JIT) {
			nojit++;
			if (!needs_free_reg(p, len)) {
				struct ingress_classifier *again;

				fprintf(stderr, "seed %" PRIu64 " program %lu: not JIT-compiled, "
					"though it can be:\n", seed, i);
				rte_log_set_level_pattern("pktpath", RTE_LOG_DEBUG);
				again = obj(p, len, INGRESS_BPF_JIT, err, sizeof(err), &rc);
				rte_log_set_level_pattern("pktpath", RTE_LOG_ERR);
				ingress_classifier_free(again);
				dump_ebpf(p, len);
				bad++;
			}
		}
		for (k = 0; k < 12; k++) {
			struct rte_mbuf *m = ctx_mbuf(&r, ctx);
			uint64_t want = ref_ebpf(p, len, ctx, CTX_SIZE, &ok);
			uint64_t gj = __ingress_bpf_run(cj, m), gi = __ingress_bpf_run(ci, m);

			runs++;
			assert_true(ok);
			if (gj != want || gi != want) {
				bad++;
				if (budget > 0) {
					budget--;
					fprintf(stderr, "MISMATCH seed %" PRIu64 " program %lu: "
						"reference %#" PRIx64 ", JIT (%s) %#" PRIx64
						", interpreter %#" PRIx64 "\n  context: ", seed, i,
						want, ingress_bpf_engine_name(ingress_bpf_engine_of(cj)),
						gj, gi);
					hex(ctx, 64);
					dump_ebpf(p, len);
				}
			}
			rte_pktmbuf_free(m);
		}
		ingress_classifier_free(cj);
		ingress_classifier_free(ci);
	}
	/* Fault C strikes about one random program in 2000: look for some the
	 * model says it strikes, check that DPDK's JIT really emits wrong jumps
	 * for them (the model is right), and that the loader settles them. */
	for (i = 0; i < 16 && n > 0; i++) {
		struct __bpf_jit_layout l;
		struct rte_bpf_jit j;
		struct rte_bpf *b;
		struct ingress_classifier *c;
		struct ebpf_insn *fixed = p;
		uint32_t len = 0, tries, k, ss = 0, fn = 0;
		int rc, ok;

		for (tries = 0; tries < 40000; tries++) {
			bool owned = false;

			len = gen_ebpf(&r, p, 4096);
			/* What the loader would hand rte_bpf_load. */
			fixed = p;
			fn = len;
			if (__bpf_fix_forms(&fixed, &fn, &owned, true) >= 0) {
				ss = __bpf_stack_size(fixed, fn);
				if (__bpf_jit_predict(fixed, fn, ss, &l) == 0 && l.wrong &&
				    l.final_sz <= (l.alloc_sz + 4095) / 4096 * 4096)
					break;
			}
			if (owned)
				free(fixed);
		}
		if (tries == 40000)
			break;
		/* DPDK's JIT really emits wrong jumps for it. */
		b = ctx_load(fixed, fn);
		assert_non_null(b);
		assert_int_equal(rte_bpf_get_jit(b, &j), 0);
		assert_int_equal(__bpf_jit_check(fixed, fn, ss, (void *)j.func, j.sz,
						 err, sizeof(err)), -EFAULT);
		rte_bpf_destroy(b);
		stale_checked++;
		if (fixed != p)
			free(fixed);
		c = obj(p, len, INGRESS_BPF_JIT, err, sizeof(err), &rc);
		if (c == NULL)
			fprintf(stderr, "refused: %s\n", err);
		assert_non_null(c);
		assert_int_equal(ingress_bpf_engine_of(c), INGRESS_BPF_JIT);
		for (k = 0; k < 12; k++) {
			struct rte_mbuf *m = ctx_mbuf(&r, ctx);

			assert_int_equal(__ingress_bpf_run(c, m), ref_ebpf(p, len, ctx,
									   CTX_SIZE, &ok));
			rte_pktmbuf_free(m);
		}
		ingress_classifier_free(c);
		stale_settled++;
	}
	printf("generated_ebpf: seed %" PRIu64 ", %lu programs, %u runs: %u "
	       "mismatches; %u with jset #small (rewritten, or interpreted: %u "
	       "lacked a free register); %u where DPDK's JIT would emit wrong "
	       "jumps (faults C, J); %u more such programs found: DPDK's JIT code for %u "
	       "failed the check, the loader settled all and they are right "
	       "(%ld s)\n", seed, n, runs, bad, jset, nojit, stale, stale_settled,
	       stale_checked, (long)(time(NULL) - t0));
	if (n >= 100)
		assert_true(stale_settled > 0 && stale_checked == stale_settled);
	free(p);
	free(ctx);
	assert_int_equal(bad, 0);
}

/* ------------------------------------------------------------------ */

static int
setup(void **state)
{
	char *argv[] = { "test_bpf", "--no-huge", "--no-shconf", "-m", "512",
			 "--no-pci", "--file-prefix", "test_bpf", "-l", "0-1",
			 "--log-level", "lib.eal:error", "--log-level", "pktpath:error" };

	(void)state;
	seed = env_ul("PKTPATH_BPF_SEED", 12);
	if (rte_eal_init(RTE_DIM(argv), argv) < 0) {
		print_error("rte_eal_init: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	big_pool = rte_pktmbuf_pool_create("bpf_big", 2 * N_FRAMES_MAX, 0, 0,
					   GEN_FRAME_MAX + RTE_PKTMBUF_HEADROOM, SOCKET_ID_ANY);
	seg_pool = rte_pktmbuf_pool_create("bpf_seg", 32768, 0, 0,
					   256 + RTE_PKTMBUF_HEADROOM, SOCKET_ID_ANY);
	ctx_pool = rte_pktmbuf_pool_create("bpf_ctx", 256, 0, 0,
					   RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	return big_pool && seg_pool && ctx_pool ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	rte_mempool_free(big_pool);
	rte_mempool_free(seg_pool);
	rte_mempool_free(ctx_pool);
	rte_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engines),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_dpdk_faults),
		cmocka_unit_test(test_obj_refusals),
		cmocka_unit_test(test_work_generated),
		cmocka_unit_test(test_generated_pcap),
		cmocka_unit_test(test_generated_ebpf),
		cmocka_unit_test(test_fields_generated),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
