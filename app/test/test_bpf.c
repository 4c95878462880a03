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
 *  - dpdk_faults: each fault of DPDK 22.11's lib/bpf (README, "DPDK 22.11
 *    lib/bpf faults") on its reproducer: what DPDK does (printed), what
 *    pktpath gives (checked against libpcap); fault C's program is caught by
 *    the JIT check and settled by the loader.
 *  - obj_refusals: the exact one-line refusals of the bpf kind (context
 *    write, backward jump, shift, size, verifier reason, timeout, signal),
 *    the jset rewrite and its fallback.
 *  - engines: names, descriptions, the libpcap engine on long chains.
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

static struct rte_mempool *big_pool, *seg_pool, *ctx_pool;
static uint64_t seed = 12;

static unsigned long
env_ul(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v != NULL && *v ? strtoul(v, NULL, 10) : def;
}

static void
hex(const uint8_t *b, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n && i < 256; i++)
		fprintf(stderr, "%02x", b[i]);
	fprintf(stderr, "%s\n", n > 256 ? "..." : "");
}

/* One segment (from a pool with room for the largest frame). */
static struct rte_mbuf *
mbuf_one(const uint8_t *d, uint32_t n)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(big_pool);

	assert_non_null(m);
	if (n)
		memcpy(rte_pktmbuf_append(m, (uint16_t)n), d, n);
	return m;
}

/* A chain of segments of 1..seg bytes. */
static struct rte_mbuf *
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
struct ref {
	struct bpf_insn *zero, *ones;
};

static void
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
}

static void
ref_free(struct ref *r)
{
	free(r->zero);
	free(r->ones);
}

static u_int
ref_run(const struct ref *r, const uint8_t *d, uint32_t n, bool *undef)
{
	u_int a = bpf_filter(r->zero, d, n, n);

	*undef = bpf_filter(r->ones, d, n, n) != a;
	return a;
}

static void
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

static const struct ingress_verdict_conf match_pass = { INGRESS_ACT_PASS, 0, 0 };

static struct ingress_classifier *
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

static int
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
	    unsigned int *undef_frames, int *engines_used)
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
		bool undef;
		u_int want = ref_run(&rf, fs->f[i].data, fs->f[i].len, &undef);

		*hits += want != 0;
		*undef_frames += undef;
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
		bool undef;

		ingress_classify_burst(c[e], fs->chain, n, res);
		for (i = 0; i < n; i++)
			if (res[i].matched != (ref_run(&rf, fs->f[i].data, fs->f[i].len,
						       &undef) != 0))
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
	unsigned int undef = 0, on_engine[INGRESS_BPF_ENGINE_MAX][INGRESS_BPF_ENGINE_MAX];
	struct gen_rng r = { seed };
	struct frames *fs;
	time_t t0 = time(NULL);
	char expr[512];

	(void)state;
	memset(on_engine, 0, sizeof(on_engine));
	fs = frames_make(&r, 360);
	for (i = 0; i < n; i++) {
		struct bpf_program fp;
		unsigned int hits = 0, u = 0;
		int used[INGRESS_BPF_ENGINE_MAX], e;

		gen_expr(&r, expr, sizeof(expr));
		if (compile(expr, 0, &fp) != 0)
			continue;		/* libpcap refuses it too */
		compiled++;
		{
			struct timespec a, b;

			clock_gettime(CLOCK_MONOTONIC, &a);
			bad += compare_all(expr, 0, fs, &fp, &budget, &hits, &u, used);
			clock_gettime(CLOCK_MONOTONIC, &b);
			if (getenv("PKTPATH_BPF_SLOW") && (b.tv_sec - a.tv_sec) * 1000 +
			    (b.tv_nsec - a.tv_nsec) / 1000000 > 50)
				fprintf(stderr, "slow (%ld ms, %u insns, engine %d): %s\n",
					(long)((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000),
					fp.bf_len, used[0], expr);
		}
		undef += u != 0;
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
	       "undefined; asked jit -> ran jit %u, interp %u, libpcap %u; asked "
	       "interp -> libpcap %u (%ld s)\n", seed, n, compiled, fs->n, bad,
	       some_match, some_miss, undef, on_engine[0][0], on_engine[0][1],
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

#define CTX_SIZE 2056

/* A context mbuf: the buffer filled with a pattern, then the frame. */
static struct rte_mbuf *
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

static struct ingress_classifier *
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

static void
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
		struct rte_bpf_prm prm;
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
		memset(&prm, 0, sizeof(prm));
		prm.ins = fixed;
		prm.nb_ins = fn;
		prm.prog_arg.type = RTE_BPF_ARG_PTR;
		prm.prog_arg.size = CTX_SIZE;
		b = rte_bpf_load(&prm);
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

/* An Ethernet/IPv4 frame: proto, tos, payload (L4) bytes. */
static uint32_t
ip4_frame(uint8_t *f, uint8_t proto, uint8_t tos, const uint8_t *l4, uint32_t l4n,
	  uint32_t dst)
{
	static const uint8_t eth[14] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0,
		0, 2, 0x08, 0x00 };
	uint32_t n = 14 + 20 + l4n;

	memcpy(f, eth, 14);
	memset(f + 14, 0, 20);
	f[14] = 0x45;
	f[15] = tos;
	f[16] = (uint8_t)((n - 14) >> 8);
	f[17] = (uint8_t)(n - 14);
	f[22] = 64;
	f[23] = proto;
	f[26] = 10, f[27] = 0, f[28] = 0, f[29] = 1;
	f[30] = (uint8_t)(dst >> 24), f[31] = (uint8_t)(dst >> 16);
	f[32] = (uint8_t)(dst >> 8), f[33] = (uint8_t)dst;
	memcpy(f + 34, l4, l4n);
	return n;
}

/* Every engine's value for expr on one frame, and libpcap's. */
static void
check_expr(const char *expr, const uint8_t *f, uint32_t n, uint32_t netmask,
	   u_int expect)
{
	struct bpf_program fp;
	struct rte_mbuf *m = mbuf_one(f, n);
	unsigned int e;
	struct ref rf;
	bool undef;

	assert_int_equal(compile(expr, netmask, &fp), 0);
	ref_make(&fp, &rf);
	if (ref_run(&rf, f, n, &undef) != expect)
		fprintf(stderr, "'%s': libpcap says %u\n", expr, ref_run(&rf, f, n, &undef));
	assert_int_equal(ref_run(&rf, f, n, &undef), expect);
	ref_free(&rf);
	for (e = 0; e < INGRESS_BPF_ENGINE_MAX; e++) {
		struct ingress_classifier *c = filter(expr, (enum ingress_bpf_engine)e, netmask);
		uint64_t got;

		assert_non_null(c);
		got = __ingress_bpf_run(c, m);
		if (got != expect)
			fprintf(stderr, "'%s' on %s: %" PRIu64 ", libpcap %u\n", expr,
				ingress_classifier_desc(c), got, expect);
		assert_int_equal(got, expect);
		ingress_classifier_free(c);
	}
	rte_pktmbuf_free(m);
	pcap_freecode(&fp);
}

/* What DPDK's own rte_bpf_convert + rte_bpf_load + JIT give, printed. */
static void
dpdk_says(const char *expr, const uint8_t *f, uint32_t n, u_int libpcap)
{
	struct bpf_program fp;
	struct rte_bpf_prm *prm;
	struct rte_bpf *b;
	struct rte_mbuf *m;

	assert_int_equal(compile(expr, 0, &fp), 0);
	prm = rte_bpf_convert(&fp);
	pcap_freecode(&fp);
	if (prm == NULL) {
		printf("  DPDK: '%s': rte_bpf_convert refuses it (%s)\n", expr,
		       rte_strerror(rte_errno));
		return;
	}
	b = rte_bpf_load(prm);
	rte_free(prm);
	if (b == NULL) {
		printf("  DPDK: '%s': rte_bpf_load refuses it (%s)\n", expr,
		       rte_strerror(rte_errno));
		return;
	}
	m = mbuf_one(f, n);
	printf("  DPDK: '%s': interpreter %" PRIu64 ", libpcap %u%s\n", expr,
	       rte_bpf_exec(b, m), libpcap, " (JIT not run: it may crash)");
	rte_pktmbuf_free(m);
	rte_bpf_destroy(b);
}

static void
test_dpdk_faults(void **state)
{
	static const uint8_t icmp_echo[16] = { 8, 0, 0, 0, 0, 1, 0, 1 };
	static const uint8_t tcp67[20] = { 0x0f, 0xa0, 0, 67, 0, 0, 0, 0, 0, 0, 0, 0,
		0x50, 0x12 };
	static const uint8_t udp0[12] = { 0, 53, 0, 53, 0, 12, 0, 0, 0, 0, 0, 0 };
	uint8_t f[128], big[20000];
	struct bpf_program fp;
	struct rte_bpf_prm *prm;
	struct rte_bpf *b;
	struct rte_bpf_jit j;
	struct __bpf_jit_layout l;
	struct __bpf_load_req rq;
	struct __bpf_loaded ld;
	char why[320];
	uint32_t n, ss;

	(void)state;
	/* A: indirect byte and word loads. */
	n = ip4_frame(f, 1, 0, icmp_echo, sizeof(icmp_echo), 0x0a000002);
	check_expr("icmp[0] == 8", f, n, 0, 65535);
	check_expr("icmp[icmptype] == icmp-echo", f, n, 0, 65535);
	dpdk_says("icmp[0] == 8", f, n, 65535);
	n = ip4_frame(f, 17, 0, udp0, sizeof(udp0), 0x0a000002);
	check_expr("udp[4] == 0", f, n, 0, 65535);
	check_expr("udp[8:4] = 0", f, n, 0, 65535);
	/* B: jset with a small immediate. */
	check_expr("ether multicast", f, n, 0, 65535);
	check_expr("ether multicast or greater 2048", f, n, 0, 65535);
	check_expr("ip[1] & 2 != 0", f, n, 0, 0);
	check_expr("ether[0] & 1 = 0", f, n, 0, 0);
	n = ip4_frame(f, 6, 0, tcp67, sizeof(tcp67), 0x0a000002);
	check_expr("tcp[tcpflags] & tcp-syn != 0", f, n, 0, 65535);
	/* D: shifts by X >= 32 give 0 in libpcap. */
	n = ip4_frame(f, 17, 0x40, udp0, sizeof(udp0), 0x0a000002);
	check_expr("ip[8] << ip[1] = 0", f, n, 0, 65535);
	check_expr("ip[8] >> (ip[1] - 30) = 0", f, n, 0, 65535);
	dpdk_says("ip[8] << ip[1] = 0", f, n, 65535);
	/* E: refused by DPDK, run by pktpath. */
	check_expr("ip protochain 17", f, n, 0, 65535);
	check_expr("geneve or vlan 200", f, n, 0, 0);
	check_expr("ether[0xfffff000] = 1", f, n, 0, 0);
	/* A load past the frame ends the filter with 0, "or" or not. */
	check_expr("ether[0x7ffffff0:4] = 1 or udp", f, n, 0, 0);
	check_expr("udp or ether[0x7ffffff0:4] = 1", f, n, 0, 65535);
	check_expr("ip[0] / (ip[1] - 64) = 1 or udp", f, n, 0, 0);
	n = ip4_frame(f, 17, 0, udp0, sizeof(udp0), 0xffffffff);
	check_expr("ip broadcast", f, n, 0, 65535);
	n = ip4_frame(f, 17, 0, udp0, sizeof(udp0), 0xc0a801ff);
	check_expr("ip broadcast", f, n, 0, 0);
	check_expr("ip broadcast", f, n, 0xffffff00, 65535);
	dpdk_says("ip protochain 17", f, n, 65535);
	dpdk_says("geneve or vlan 200", f, n, 0);
	{
		struct ingress_classifier *c = filter("ip protochain 6", INGRESS_BPF_JIT, 0);

		assert_non_null(c);
		assert_int_equal(ingress_bpf_engine_of(c), INGRESS_BPF_LIBPCAP);
		assert_non_null(strstr(ingress_classifier_desc(c), " libpcap -> pass"));
		ingress_classifier_free(c);
	}

	/* C: the jump-offset fault, on DPDK's own conversion of the issue's
	 * expression (whose loads are all "ldh [x + k]", the one form fault A
	 * spares, so its verdicts are right once the jumps are). */
	n = ip4_frame(f, 6, 0, tcp67, sizeof(tcp67), 0x0a000002);
	assert_int_equal(compile("(src portrange 4000-44000 or greater 100) and tcp port 67",
				 0, &fp), 0);
	prm = rte_bpf_convert(&fp);
	assert_non_null(prm);
	ss = __bpf_stack_size(prm->ins, prm->nb_ins);
	assert_int_equal(__bpf_jit_predict(prm->ins, prm->nb_ins, ss, &l), 0);
	printf("  fault C: %u passes, %zu bytes mapped, %zu written, %u of its "
	       "jumps stale\n", l.passes, l.alloc_sz, l.final_sz, l.wrong_jumps);
	assert_true(l.wrong);
	b = rte_bpf_load(prm);
	assert_non_null(b);
	assert_int_equal(rte_bpf_get_jit(b, &j), 0);
	assert_non_null(j.func);
	assert_int_equal(__bpf_jit_check(prm->ins, prm->nb_ins, ss, (void *)j.func,
					 j.sz, why, sizeof(why)), -EFAULT);
	printf("  fault C caught: %s\n", why);
	assert_non_null(strstr(why, "lands at"));
	rte_bpf_destroy(b);
	memset(&rq, 0, sizeof(rq));
	rq.ins = prm->ins;
	rq.n = prm->nb_ins;
	rq.arg = prm->prog_arg;
	rq.want_jit = true;
	rq.timeout_s = 5;
	rq.what = "fault C";
	assert_int_equal(__bpf_load(&rq, &ld, why, sizeof(why)), 0);
	assert_int_equal(ld.engine, INGRESS_BPF_JIT);	/* settled, checked */
	{
		struct rte_mbuf *m = mbuf_one(f, n);

		assert_int_equal(ld.jit(m), bpf_filter(fp.bf_insns, f, n, n));
		assert_int_equal(ld.jit(m), 65535);
		rte_pktmbuf_free(m);
	}
	rte_bpf_destroy(ld.bpf);
	rte_free(prm);
	pcap_freecode(&fp);

	/* The libpcap engine on a chain longer than its stack buffer. */
	memset(big, 0, sizeof(big));
	n = ip4_frame(big, 17, 0, udp0, sizeof(udp0), 0x0a000002);
	big[19000] = 7;
	{
		struct gen_rng r = { 5 };
		struct rte_mbuf *m = mbuf_chain(&r, big, sizeof(big), 256);
		struct ingress_classifier *c = filter("ether[19000] = 7 and udp",
						      INGRESS_BPF_LIBPCAP, 0);

		assert_non_null(c);
		assert_int_equal(__ingress_bpf_run(c, m), 65535);
		ingress_classifier_free(c);
		c = filter("ether[19000] = 7 and udp", INGRESS_BPF_JIT, 0);
		assert_int_equal(__ingress_bpf_run(c, m), 65535);
		ingress_classifier_free(c);
		rte_pktmbuf_free(m);
	}
}

/* ------------------------------------------------------------------ */

#define I(c, d, s, o, k) ((struct ebpf_insn){ .code = (c), .dst_reg = (d), \
	.src_reg = (s), .off = (o), .imm = (k) })
#define EXIT I(BPF_JMP | EBPF_EXIT, 0, 0, 0, 0)
#define MOV64K(d, k) I(EBPF_ALU64 | EBPF_MOV | BPF_K, d, 0, 0, k)

static void
expect_refusal(const struct ebpf_insn *p, uint32_t n, int want_rc, const char *msg)
{
	char err[512];
	int rc;
	struct ingress_classifier *c = obj(p, n, INGRESS_BPF_JIT, err, sizeof(err), &rc);

	if (c != NULL || rc != want_rc || strcmp(err, msg) != 0)
		fprintf(stderr, "got %d '%s'\nwant %d '%s'\n", rc, c ? "(loaded)" : err,
			want_rc, msg);
	assert_null(c);
	assert_int_equal(rc, want_rc);
	assert_string_equal(err, msg);
}

/* 3 instructions per if, each adding a different constant: no two paths
 * leave the same state, so rte_bpf's verifier walks all 2^k of them. */
static uint32_t
exponential(struct ebpf_insn *p, uint32_t ifs)
{
	uint32_t n = 0, k;

	p[n++] = MOV64K(0, 0);
	for (k = 0; k < ifs; k++) {
		p[n++] = I(BPF_LDX | BPF_MEM | BPF_B, 2, 1, (int16_t)(8 + k), 0);
		p[n++] = I(BPF_JMP | EBPF_JNE | BPF_K, 2, 0, 1, 0x5a);
		p[n++] = I(EBPF_ALU64 | BPF_ADD | BPF_K, 0, 0, 0, (int32_t)(2654435761u * (k + 1) >> 1));
	}
	p[n++] = EXIT;
	return n;
}

static volatile sig_atomic_t cancel_flag;

static void *
cancel_later(void *arg)
{
	struct timespec d = { 0, 200 * 1000000L };

	(void)arg;
	nanosleep(&d, NULL);
	cancel_flag = 1;
	return NULL;
}

static void
test_obj_refusals(void **state)
{
	struct ebpf_insn p[4200];
	struct ingress_bpf_conf bc;
	struct ingress_classifier *c;
	struct gen_rng r = { 9 };
	uint8_t ctx[CTX_SIZE];
	pthread_t tid;
	char err[512], want[512];
	uint32_t n, k;
	int rc, ok;

	(void)state;
	/* A store to the context (the frame). */
	p[0] = MOV64K(2, 1);
	p[1] = I(BPF_STX | BPF_MEM | BPF_B, 1, 2, 8, 0);
	p[2] = MOV64K(0, 0);
	p[3] = EXIT;
	expect_refusal(p, 4, -ENOTSUP, "prog: instruction 1 stores 1 byte through r1 "
		       "(at r1+8), which is not a stack pointer: a classifier must not "
		       "write to its context (the frame)");
	p[1] = I(BPF_ST | BPF_MEM | BPF_W, 1, 0, 0, 7);
	expect_refusal(p, 4, -ENOTSUP, "prog: instruction 1 stores 4 bytes through r1 "
		       "(at r1+0), which is not a stack pointer: a classifier must not "
		       "write to its context (the frame)");
	/* Through a copy of r1 on one path only, and through a stack pointer
	 * spilled and reloaded (refused: not provably the stack). */
	p[0] = I(EBPF_ALU64 | EBPF_MOV | BPF_X, 3, 10, 0, 0);
	p[1] = I(BPF_LDX | BPF_MEM | BPF_W, 2, 1, 0, 0);
	p[2] = I(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 1, 0);
	p[3] = I(EBPF_ALU64 | EBPF_MOV | BPF_X, 3, 1, 0, 0);
	p[4] = I(BPF_STX | BPF_MEM | EBPF_DW, 3, 2, -8, 0);
	p[5] = MOV64K(0, 0);
	p[6] = EXIT;
	expect_refusal(p, 7, -ENOTSUP, "prog: instruction 4 stores 8 bytes through r3 "
		       "(at r3-8), which is not a stack pointer: a classifier must not "
		       "write to its context (the frame)");
	p[0] = I(BPF_STX | BPF_MEM | EBPF_DW, 10, 10, -8, 0);
	p[1] = I(BPF_LDX | BPF_MEM | EBPF_DW, 3, 10, -8, 0);
	p[2] = I(BPF_ST | BPF_MEM | EBPF_DW, 3, 0, -16, 0);
	p[3] = MOV64K(0, 0);
	p[4] = EXIT;
	expect_refusal(p, 5, -ENOTSUP, "prog: instruction 2 stores 8 bytes through r3 "
		       "(at r3-16), which is not a stack pointer: a classifier must not "
		       "write to its context (the frame)");
	/* Through a register derived from r10: accepted, and it works. */
	p[0] = I(EBPF_ALU64 | EBPF_MOV | BPF_X, 3, 10, 0, 0);
	p[1] = I(EBPF_ALU64 | BPF_ADD | BPF_K, 3, 0, 0, -16);
	p[2] = I(BPF_LDX | BPF_MEM | BPF_W, 2, 1, 0, 0);
	p[3] = I(BPF_STX | BPF_MEM | EBPF_DW, 3, 2, 8, 0);
	p[4] = I(BPF_LDX | BPF_MEM | EBPF_DW, 0, 10, -8, 0);
	p[5] = EXIT;
	c = obj(p, 6, INGRESS_BPF_JIT, err, sizeof(err), &rc);
	assert_non_null(c);
	{
		struct rte_mbuf *m = ctx_mbuf(&r, ctx);

		assert_int_equal(__ingress_bpf_run(c, m), ref_ebpf(p, 6, ctx, CTX_SIZE, &ok));
		assert_int_equal(__ingress_bpf_run(c, m), rte_pktmbuf_pkt_len(m));
		rte_pktmbuf_free(m);
	}
	ingress_classifier_free(c);
	/* A loop. */
	p[0] = MOV64K(0, 0);
	p[1] = I(EBPF_ALU64 | BPF_ADD | BPF_K, 0, 0, 0, 1);
	p[2] = I(BPF_JMP | BPF_JGT | BPF_K, 0, 0, 1, 9);
	p[3] = I(BPF_JMP | BPF_JA, 0, 0, -3, 0);
	p[4] = EXIT;
	expect_refusal(p, 5, -ENOTSUP, "prog: instruction 3 jumps back to 1, which "
		       "closes a loop: loops are refused (rte_bpf runs loop-free programs)");
	/* A backward jump that is no loop (clang jumps back to shared exits). */
	p[0] = MOV64K(0, 0);
	p[1] = I(BPF_JMP | BPF_JA, 0, 0, 1, 0);
	p[2] = EXIT;
	p[3] = I(BPF_JMP | BPF_JA, 0, 0, -2, 0);
	c = obj(p, 4, INGRESS_BPF_JIT, err, sizeof(err), &rc);
	assert_non_null(c);
	assert_int_equal(ingress_bpf_engine_of(c), INGRESS_BPF_JIT);
	ingress_classifier_free(c);
	/* Shifts the JIT encodes wrongly and the kernel refuses. */
	p[0] = MOV64K(0, 1);
	p[1] = I(BPF_ALU | BPF_LSH | BPF_K, 0, 0, 0, 40);
	p[2] = EXIT;
	expect_refusal(p, 3, -ENOTSUP, "prog: instruction 1 shifts by 40: more than 31 bits");
	p[1] = I(EBPF_ALU64 | EBPF_ARSH | BPF_K, 0, 0, 0, 200);
	expect_refusal(p, 3, -ENOTSUP, "prog: instruction 1 shifts by 200: more than 63 bits");
	/* Size. */
	for (k = 0; k < 4096; k++)
		p[k] = MOV64K(0, (int32_t)k);
	p[4096] = EXIT;
	expect_refusal(p, 4097, -E2BIG, "prog: 4097 instructions: more than 4096 "
		       "(rte_bpf's verifier walks every path)");
	/* The verifier's own reason. */
	p[0] = I(BPF_LDX | BPF_MEM | EBPF_DW, 0, 10, -8, 0);
	p[1] = EXIT;
	expect_refusal(p, 2, -EINVAL, "prog: rte_bpf_load refused it: evaluate: "
		       "undefined value on the stack at pc: 0");
	/* Too complex: the trial load is stopped at the timeout... */
	n = exponential(p, 40);
	ingress_bpf_conf_init(&bc);
	bc.load_timeout_s = 0.5;
	rc = __ingress_bpf_from_insns(p, n, "prog", "prog", &bc, &c, err, sizeof(err));
	assert_int_equal(rc, -ETIMEDOUT);
	snprintf(want, sizeof(want), "prog: rte_bpf_load did not finish within 0.5 s: "
		 "its verifier walks every path, about %" PRIu64 " instruction "
		 "evaluations here", __bpf_work(p, n));
	assert_string_equal(err, want);
	/* ... or when the cancel flag (pktpath's SIGINT/SIGTERM) is set. */
	bc.load_timeout_s = 3600;
	bc.cancel = &cancel_flag;
	cancel_flag = 0;
	assert_int_equal(pthread_create(&tid, NULL, cancel_later, NULL), 0);
	rc = __ingress_bpf_from_insns(p, n, "prog", "prog", &bc, &c, err, sizeof(err));
	pthread_join(tid, NULL);
	assert_int_equal(rc, -EINTR);
	assert_string_equal(err, "prog: loading interrupted by a signal");
	/* A moderately branchy one goes through the trial and loads. */
	n = exponential(p, 19);
	assert_true(__bpf_work(p, n) > BPFLOAD_WORK_FAST);
	bc.cancel = NULL;
	bc.load_timeout_s = 600;
	assert_int_equal(__ingress_bpf_from_insns(p, n, "prog", "prog", &bc, &c, err,
						  sizeof(err)), 0);
	{
		struct rte_mbuf *m = ctx_mbuf(&r, ctx);

		assert_int_equal(__ingress_bpf_run(c, m), ref_ebpf(p, n, ctx, CTX_SIZE, &ok));
		rte_pktmbuf_free(m);
	}
	ingress_classifier_free(c);

	/* jset with a small immediate (fault B): rewritten with a free
	 * register and JIT-compiled; interpreted when there is none. */
	p[0] = I(BPF_LDX | BPF_MEM | BPF_B, 2, 1, 8, 0);
	p[1] = MOV64K(0, 1);
	p[2] = I(BPF_JMP | BPF_JSET | BPF_K, 2, 0, 1, 1);
	p[3] = MOV64K(0, 2);
	p[4] = EXIT;
	c = obj(p, 5, INGRESS_BPF_JIT, err, sizeof(err), &rc);
	assert_non_null(c);
	assert_int_equal(ingress_bpf_engine_of(c), INGRESS_BPF_JIT);
	for (k = 0; k < 8; k++) {
		struct rte_mbuf *m = ctx_mbuf(&r, ctx);

		assert_int_equal(__ingress_bpf_run(c, m), ref_ebpf(p, 5, ctx, CTX_SIZE, &ok));
		rte_pktmbuf_free(m);
	}
	ingress_classifier_free(c);
	/* Every register used: r3-r9 set, r2 tested, r0 += r2..r9. */
	n = 0;
	for (k = 3; k <= 9; k++)
		p[n++] = MOV64K((uint8_t)k, (int32_t)k);
	p[n++] = I(BPF_LDX | BPF_MEM | BPF_B, 2, 1, 8, 0);
	p[n++] = MOV64K(0, 1);
	p[n++] = I(BPF_JMP | BPF_JSET | BPF_K, 2, 0, 1, 1);
	p[n++] = MOV64K(0, 2);
	for (k = 2; k <= 9; k++)
		p[n++] = I(EBPF_ALU64 | BPF_ADD | BPF_X, 0, (uint8_t)k, 0, 0);
	p[n++] = EXIT;
	c = obj(p, n, INGRESS_BPF_JIT, err, sizeof(err), &rc);
	assert_non_null(c);
	assert_int_equal(ingress_bpf_engine_of(c), INGRESS_BPF_INTERP);
	{
		struct rte_mbuf *m = ctx_mbuf(&r, ctx);

		assert_int_equal(__ingress_bpf_run(c, m), ref_ebpf(p, n, ctx, CTX_SIZE, &ok));
		rte_pktmbuf_free(m);
	}
	ingress_classifier_free(c);
	/* The libpcap engine is for tcpdump expressions only. */
	ingress_bpf_conf_init(&bc);
	bc.engine = INGRESS_BPF_LIBPCAP;
	assert_int_equal(__ingress_bpf_from_insns(p, n, "prog", "prog", &bc, &c, err,
						  sizeof(err)), -EINVAL);
	assert_string_equal(err, "prog: the libpcap engine runs tcpdump expressions "
			    "only (pcap-filter)");
}

static void
test_engines(void **state)
{
	enum ingress_bpf_engine e;
	struct ingress_classifier *c;
	unsigned int i;

	(void)state;
	for (i = 0; i < INGRESS_BPF_ENGINE_MAX; i++) {
		assert_int_equal(ingress_bpf_engine_parse(ingress_bpf_engine_name(i), &e), 0);
		assert_int_equal(e, i);
	}
	assert_int_equal(ingress_bpf_engine_parse("JIT", &e), -EINVAL);
	assert_null(ingress_bpf_engine_name(INGRESS_BPF_ENGINE_MAX));
	c = filter("udp and dst port 9", INGRESS_BPF_JIT, 0);
	assert_string_equal(ingress_classifier_desc(c), "pcap-filter 'udp and dst port 9' jit -> pass");
	ingress_classifier_free(c);
	c = filter("udp and dst port 9", INGRESS_BPF_INTERP, 0);
	assert_string_equal(ingress_classifier_desc(c), "pcap-filter 'udp and dst port 9' interp -> pass");
	ingress_classifier_free(c);
	c = filter("udp and dst port 9", INGRESS_BPF_LIBPCAP, 0);
	assert_string_equal(ingress_classifier_desc(c), "pcap-filter 'udp and dst port 9' libpcap -> pass");
	assert_int_equal(ingress_bpf_engine_of(c), INGRESS_BPF_LIBPCAP);
	ingress_classifier_free(c);
	assert_int_equal(ingress_bpf_engine_of(NULL), -EINVAL);
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
		cmocka_unit_test(test_dpdk_faults),
		cmocka_unit_test(test_obj_refusals),
		cmocka_unit_test(test_generated_pcap),
		cmocka_unit_test(test_generated_ebpf),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
