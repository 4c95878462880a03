/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "pcap-filter" classifier kind: a tcpdump expression made a program by
 * lib/bpf (pktbpf_filter_load()), whose match -- a non-zero return, the
 * snapshot length classic BPF keeps -- applies one verdict.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "base.h"
#include "ingress_pcap.h"
#include "ingress_pvt.h"

struct pf_ctx {
	struct pktbpf_prog *prog;
	uint8_t action;
	uint8_t marked;
	uint32_t mark;
};

static inline void
__pf_verdict(const struct pf_ctx *c, uint64_t rc, struct ingress_result *r)
{
	/* Classic BPF returns the snapshot length to keep: 0 is "no match". */
	r->matched = rc != 0;
	r->action = rc != 0 ? c->action : INGRESS_ACT_PASS;
	r->marked = rc != 0 && c->marked;
	r->mark = c->mark;
	r->rule = rc != 0;
}

static void
pf_classify(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
	    struct ingress_result *res)
{
	const struct pf_ctx *c = ctx;
	uint64_t rc[INGRESS_BURST_MAX];
	uint16_t i;

	pktbpf_run_burst(c->prog, pkts, n, rc);
	for (i = 0; i < n; i++)
		__pf_verdict(c, rc[i], &res[i]);
}

static void
pf_free(void *ctx)
{
	struct pf_ctx *c = ctx;

	if (c == NULL)
		return;
	pktbpf_prog_free(c->prog);
	__ingress_poison(c, sizeof(*c));
	free(c);
}

static const struct ingress_classifier_ops pf_ops = {
	.kind = "pcap-filter",
	.classify_burst = pf_classify,
	.free = pf_free,
};

int
ingress_pcap_filter_create(const char *expr, const struct ingress_verdict_conf *v,
			   const struct pktbpf_conf *bc,
			   struct ingress_classifier **out, char *err, size_t errlen)
{
	struct pktbpf_prog *prog;
	struct pf_ctx *c;
	char desc[INGRESS_DESC_MAX];
	char qx[100];		/* the expression quoted (base.h), as desc holds it */
	int rc;

	*out = NULL;
	if (expr == NULL || v == NULL) {
		snprintf(err, errlen, "no filter expression");
		return -EINVAL;
	}
	rc = pktbpf_filter_load(expr, bc, &prog, err, errlen);
	if (rc != 0)
		return rc;
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		pktbpf_prog_free(prog);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c->prog = prog;
	c->action = v->action;
	c->marked = v->marked;
	c->mark = v->mark;
	snprintf(desc, sizeof(desc), "pcap-filter '%s' %s -> %s",
		 base_quote(qx, sizeof(qx), expr),
		 pktbpf_engine_name(pktbpf_prog_engine(prog)),
		 v->marked ? "mark" : v->action == INGRESS_ACT_DROP ? "drop" : "pass");
	*out = ingress_classifier_create(&pf_ops, c, desc);
	if (*out == NULL) {	/* c was freed by ingress_classifier_create */
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

const struct pktbpf_prog *
ingress_pcap_filter_prog(const struct ingress_classifier *cl)
{
	if (cl == NULL || cl->ops != &pf_ops)
		return NULL;
	return ((const struct pf_ctx *)cl->ctx)->prog;
}
