/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "pcap-filter" classifier kind: a tcpdump expression compiled by
 * libpcap (pcap_compile on a DLT_EN10MB handle, optimised, netmask 0 as
 * "tcpdump -r" compiles, or the one asked for), then run by one of:
 *
 *   jit, interp  pktpath's own classic -> eBPF conversion (bpfconv.c, with
 *                libpcap's semantics), loaded by rte_bpf_load under limits
 *                (bpfload.c), run on the mbuf by the x86 JIT when its code
 *                passes pktpath's check (bpfjit.c), by rte_bpf's
 *                interpreter otherwise;
 *   libpcap      libpcap's own interpreter on the frame (made contiguous
 *                when it is not): for what rte_bpf cannot run -- loops
 *                ("protochain"), programs its verifier refuses or cannot
 *                verify in time -- or when asked for. Programs with loops
 *                run on bpfcbpf.c's interpreter instead, which has
 *                libpcap's semantics but stops where libpcap's protochain
 *                code loops forever.
 *
 * So nothing tcpdump accepts is refused, and every engine gives libpcap's
 * verdict (the generated differential test in app/test/test_bpf.c checks
 * all three against pcap_offline_filter). DPDK's rte_bpf_convert is not
 * used: its indirect byte and word loads are indexed by the wrong
 * register (fault A in the README).
 *
 * Kept apart from bpfobj.c: pcap/bpf.h and linux/bpf.h (via libbpf) both
 * define struct bpf_insn.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include <rte_bpf.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "base.h"
#include "bpf_pvt.h"
#include "ingress_pvt.h"

/* Frames up to this size are made contiguous on the stack for libpcap;
 * longer multi-segment ones in a malloc'ed buffer. */
#define PF_LINEAR_STACK 16384

struct pf_ctx {
	enum ingress_bpf_engine engine;
	struct rte_bpf *bpf;		/* jit, interp */
	uint64_t (*jit)(void *);	/* jit */
	struct bpf_program prog;	/* libpcap */
	uint32_t loops;			/* backward jumps in prog: not run by
					   libpcap, which can loop forever */
	uint8_t action;
	uint8_t marked;
	uint32_t mark;
};

static inline void
__verdict(const struct pf_ctx *c, uint64_t rc, struct ingress_result *r)
{
	/* Classic BPF returns the snapshot length to keep: 0 is "no match". */
	r->matched = rc != 0;
	r->action = rc != 0 ? c->action : INGRESS_ACT_PASS;
	r->marked = rc != 0 && c->marked;
	r->mark = c->mark;
	r->rule = rc != 0;
}

/* libpcap's verdict on the whole frame (its wire and captured length both
 * the mbuf's packet length). */
static uint64_t
__libpcap_run(const struct pf_ctx *c, const struct rte_mbuf *m)
{
	uint8_t stack[PF_LINEAR_STACK];
	struct pcap_pkthdr h;
	const u_char *data;
	uint8_t *heap = NULL;
	uint32_t len = rte_pktmbuf_pkt_len(m);
	bool exhausted;
	uint64_t rc;

	memset(&h, 0, sizeof(h));
	h.len = len;
	h.caplen = len;
	if (rte_pktmbuf_is_contiguous(m)) {
		data = rte_pktmbuf_mtod(m, const u_char *);
	} else {
		uint8_t *buf = stack;

		if (len > sizeof(stack)) {
			heap = malloc(len);
			if (heap != NULL)
				buf = heap;
			else
				h.caplen = sizeof(stack);	/* as a snaplen would */
		}
		data = rte_pktmbuf_read(m, 0, h.caplen, buf);
	}
	if (data == NULL)
		rc = 0;
	else if (c->loops != 0)		/* bounded, libpcap's semantics */
		rc = __bpf_cbpf_run(c->prog.bf_insns, c->prog.bf_len, c->loops, data,
				    h.len, h.caplen, &exhausted);
	else
		rc = pcap_offline_filter(&c->prog, &h, data);
	free(heap);
	return rc;
}

static void
pf_classify(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
	    struct ingress_result *res)
{
	const struct pf_ctx *c = ctx;
	uint64_t rc[INGRESS_BURST_MAX];
	uint16_t i;

	switch (c->engine) {
	case INGRESS_BPF_JIT:
		for (i = 0; i < n; i++)
			__verdict(c, c->jit(pkts[i]), &res[i]);
		return;
	case INGRESS_BPF_INTERP:
		rte_bpf_exec_burst(c->bpf, (void **)pkts, rc, n);
		for (i = 0; i < n; i++)
			__verdict(c, rc[i], &res[i]);
		return;
	default:
		for (i = 0; i < n; i++)
			__verdict(c, __libpcap_run(c, pkts[i]), &res[i]);
		return;
	}
}

static void
pf_free(void *ctx)
{
	struct pf_ctx *c = ctx;

	if (c == NULL)
		return;
	rte_bpf_destroy(c->bpf);
	free(c->prog.bf_insns);
	memset(c, INGRESS_POISON, sizeof(*c));
	free(c);
}

static const struct ingress_classifier_ops pf_ops = {
	.kind = "pcap-filter",
	.classify_burst = pf_classify,
	.free = pf_free,
};

const char *const ingress_bpf_engine_names[INGRESS_BPF_ENGINE_MAX] = {
	[INGRESS_BPF_JIT] = "jit",
	[INGRESS_BPF_INTERP] = "interp",
	[INGRESS_BPF_LIBPCAP] = "libpcap",
};

const char *
ingress_bpf_engine_name(enum ingress_bpf_engine e)
{
	return (unsigned int)e < INGRESS_BPF_ENGINE_MAX ? ingress_bpf_engine_names[e] : NULL;
}

int
ingress_bpf_engine_parse(const char *s, enum ingress_bpf_engine *out)
{
	int i = base_name_index(ingress_bpf_engine_names, INGRESS_BPF_ENGINE_MAX, s);

	if (i < 0)
		return -EINVAL;
	*out = (enum ingress_bpf_engine)i;
	return 0;
}

void
ingress_bpf_conf_init(struct ingress_bpf_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->engine = INGRESS_BPF_JIT;
	c->netmask = 0;
	c->load_timeout_s = 5.0;
	c->cancel = NULL;
}

/*
 * The classic program for libpcap's engine: fp with "st M[k]" (A is 0 on
 * entry) prepended for each scratch word some path reads before writing,
 * so that the verdict never depends on what libpcap's uninitialised
 * mem[] held. Jumps are relative, so the rest is unchanged.
 */
static int
__libpcap_prog(const struct bpf_program *fp, struct bpf_program *out)
{
	uint16_t mask = 0;
	unsigned int k, n = 0;
	int rc;

	rc = __bpf_cbpf_uninit_mem(fp->bf_insns, fp->bf_len, &mask);
	if (rc != 0)
		return rc;
	out->bf_insns = malloc(sizeof(*out->bf_insns) * (fp->bf_len + 16));
	if (out->bf_insns == NULL)
		return -ENOMEM;
	for (k = 0; k < 16; k++)
		if (mask & (1u << k))
			out->bf_insns[n++] = (struct bpf_insn){ .code = BPF_ST, .k = k };
	memcpy(out->bf_insns + n, fp->bf_insns, sizeof(*fp->bf_insns) * fp->bf_len);
	out->bf_len = fp->bf_len + n;
	return 0;
}

/* Run c on rte_bpf (JIT or interpreter), or say why not in why; qexpr is
 * the expression quoted, for messages. */
static int
__rte_bpf_engine(struct pf_ctx *c, const struct bpf_program *fp, const char *qexpr,
		 const struct ingress_bpf_conf *bc, char *why, size_t whylen)
{
	struct __bpf_load_req r;
	struct __bpf_loaded l;
	struct ebpf_insn *ins;
	char what[160];
	uint32_t n;
	int rc;

	rc = __bpf_convert(fp->bf_insns, fp->bf_len, &ins, &n, why, whylen);
	if (rc != 0)
		return rc;
	snprintf(what, sizeof(what), "filter '%s'", qexpr);
	memset(&r, 0, sizeof(r));
	r.ins = ins;
	r.n = n;
	/* The mbuf is the argument (LD_ABS/LD_IND read the frame through it;
	 * the program reads pkt_len from it). */
	r.arg.type = RTE_BPF_ARG_PTR_MBUF;
	r.arg.size = sizeof(struct rte_mbuf);
	r.want_jit = bc->engine == INGRESS_BPF_JIT;
	r.timeout_s = bc->load_timeout_s;
	r.cancel = bc->cancel;
	r.what = what;
	rc = __bpf_load(&r, &l, why, whylen);
	free(ins);
	if (rc != 0)
		return rc;
	c->bpf = l.bpf;
	c->jit = l.jit;
	c->engine = l.engine;
	if (bc->engine == INGRESS_BPF_JIT && l.engine != INGRESS_BPF_JIT)
		INGRESS_LOG(WARNING, "%s: interpreted: %s", what, l.note);
	return 0;
}

int
ingress_pcap_filter_create(const char *expr, const struct ingress_verdict_conf *v,
			   const struct ingress_bpf_conf *bc,
			   struct ingress_classifier **out, char *err, size_t errlen)
{
	struct ingress_bpf_conf defaults;
	struct bpf_program fp;
	struct pf_ctx *c;
	char desc[INGRESS_DESC_MAX], why[256] = "";
	char qx[100];		/* as the classifier's description holds it */
	char qe[2 * BASE_QUOTE_LEN];
	pcap_t *p;
	int rc;

	*out = NULL;
	if (bc == NULL) {
		ingress_bpf_conf_init(&defaults);
		bc = &defaults;
	}
	if (expr == NULL || v == NULL || (unsigned int)bc->engine >= INGRESS_BPF_ENGINE_MAX) {
		snprintf(err, errlen, "no filter expression");
		return -EINVAL;
	}
	/* The expression, and libpcap's reasons (which quote its words), are
	 * quoted (base.h) wherever a message or a log line echoes them. */
	base_quote(qx, sizeof(qx), expr);
	p = pcap_open_dead(DLT_EN10MB, 65535);
	if (p == NULL) {
		snprintf(err, errlen, "pcap_open_dead failed");
		return -ENOMEM;
	}
	if (pcap_compile(p, &fp, expr, 1, bc->netmask) != 0) {
		snprintf(err, errlen, "'%s': %s", qx,
			 base_quote(qe, sizeof(qe), pcap_geterr(p)));
		pcap_close(p);
		return -EINVAL;
	}
	pcap_close(p);
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		pcap_freecode(&fp);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c->action = v->action;
	c->marked = v->marked;
	c->mark = v->mark;
	c->engine = INGRESS_BPF_LIBPCAP;
	rc = -ENOTSUP;
	if (bc->engine != INGRESS_BPF_LIBPCAP) {
		rc = __rte_bpf_engine(c, &fp, qx, bc, why, sizeof(why));
		if (rc == -EINTR || rc == -ENOMEM) {
			pcap_freecode(&fp);
			free(c);
			snprintf(err, errlen, "'%s': %s", qx, rc == -EINTR ? why :
				 "out of memory");
			return rc;
		}
		if (rc != 0)
			INGRESS_LOG(NOTICE, "filter '%s': run by libpcap: %s", qx, why);
	}
	if (rc != 0) {
		rc = __libpcap_prog(&fp, &c->prog);
		c->loops = rc == 0 ? __bpf_cbpf_loops(c->prog.bf_insns, c->prog.bf_len) : 0;
		if (rc != 0) {
			pcap_freecode(&fp);
			free(c);
			snprintf(err, errlen, "'%s': %s", qx, rc == -ENOMEM ?
				 "out of memory" : "libpcap produced a malformed program");
			return rc;
		}
	}
	pcap_freecode(&fp);
	INGRESS_LOG(DEBUG, "filter '%s': engine %s", qx, ingress_bpf_engine_names[c->engine]);
	snprintf(desc, sizeof(desc), "pcap-filter '%s' %s -> %s", qx,
		 ingress_bpf_engine_names[c->engine],
		 v->marked ? "mark" : v->action == INGRESS_ACT_DROP ? "drop" : "pass");
	*out = ingress_classifier_create(&pf_ops, c, desc);
	if (*out == NULL) {	/* c was freed by ingress_classifier_create */
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int
ingress_bpf_engine_of(const struct ingress_classifier *cl)
{
	if (cl == NULL)
		return -EINVAL;
	if (cl->ops == &pf_ops)
		return ((const struct pf_ctx *)cl->ctx)->engine;
	return __ingress_bpfobj_engine(cl);
}

uint64_t
__ingress_bpf_run(const struct ingress_classifier *cl, struct rte_mbuf *m)
{
	const struct pf_ctx *c;

	if (cl->ops != &pf_ops)
		return __ingress_bpfobj_run(cl, m);
	c = cl->ctx;
	switch (c->engine) {
	case INGRESS_BPF_JIT:
		return c->jit(m);
	case INGRESS_BPF_INTERP:
		return rte_bpf_exec(c->bpf, m);
	default:
		return __libpcap_run(c, m);
	}
}
