/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "pcap-filter" classifier kind: a tcpdump expression compiled by
 * libpcap (pcap_compile on a DLT_EN10MB handle), converted from classic BPF
 * to eBPF by rte_bpf_convert, loaded by rte_bpf_load and run on the mbuf,
 * JIT-compiled when rte_bpf_get_jit gives a function, interpreted otherwise.
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
#include <rte_malloc.h>

#include "ingress.h"

struct pf_ctx {
	struct rte_bpf *bpf;
	uint64_t (*jit)(void *);	/* NULL: interpreter */
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

static void
pf_classify(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
	    struct ingress_result *res)
{
	const struct pf_ctx *c = ctx;
	uint64_t rc[INGRESS_BURST_MAX];
	uint16_t i;

	if (c->jit != NULL) {
		for (i = 0; i < n; i++)
			__verdict(c, c->jit(pkts[i]), &res[i]);
		return;
	}
	rte_bpf_exec_burst(c->bpf, (void **)pkts, rc, n);
	for (i = 0; i < n; i++)
		__verdict(c, rc[i], &res[i]);
}

static void
pf_free(void *ctx)
{
	struct pf_ctx *c = ctx;

	if (c == NULL)
		return;
	rte_bpf_destroy(c->bpf);
	memset(c, INGRESS_POISON, sizeof(*c));
	free(c);
}

static const struct ingress_classifier_ops pf_ops = {
	.kind = "pcap-filter",
	.classify_burst = pf_classify,
	.free = pf_free,
};

int
ingress_pcap_filter_create(const char *expr, const struct ingress_verdict_conf *v,
			   bool jit, struct ingress_classifier **out, char *err,
			   size_t errlen)
{
	struct bpf_program fp;
	struct rte_bpf_prm *prm;
	struct rte_bpf_jit j;
	struct pf_ctx *c;
	char desc[INGRESS_DESC_MAX];
	pcap_t *p;

	*out = NULL;
	if (expr == NULL) {
		snprintf(err, errlen, "no filter expression");
		return -EINVAL;
	}
	p = pcap_open_dead(DLT_EN10MB, 65535);
	if (p == NULL) {
		snprintf(err, errlen, "pcap_open_dead failed");
		return -ENOMEM;
	}
	if (pcap_compile(p, &fp, expr, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		snprintf(err, errlen, "'%s': %s", expr, pcap_geterr(p));
		pcap_close(p);
		return -EINVAL;
	}
	prm = rte_bpf_convert(&fp);
	pcap_freecode(&fp);
	pcap_close(p);
	if (prm == NULL) {
		snprintf(err, errlen, "'%s': rte_bpf_convert: %s", expr,
			 rte_strerror(rte_errno));
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		rte_free(prm);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* prm's argument is the mbuf (RTE_BPF_ARG_PTR_MBUF): kept as is. */
	c->bpf = rte_bpf_load(prm);
	rte_free(prm);
	if (c->bpf == NULL) {
		snprintf(err, errlen, "'%s': rte_bpf_load: %s", expr,
			 rte_strerror(rte_errno));
		free(c);
		return -EINVAL;
	}
	if (jit && rte_bpf_get_jit(c->bpf, &j) == 0 && j.func != NULL)
		c->jit = j.func;
	else if (jit)
		RTE_LOG(WARNING, USER1, "pktpath: filter '%s': no JIT here, interpreted\n",
			expr);
	c->action = v->action;
	c->marked = v->marked;
	c->mark = v->mark;
	snprintf(desc, sizeof(desc), "pcap-filter '%.96s' %s -> %s", expr,
		 c->jit ? "jit" : "interp",
		 v->marked ? "mark" : v->action == INGRESS_ACT_DROP ? "drop" : "pass");
	*out = ingress_classifier_create(&pf_ops, c, desc);
	if (*out == NULL) {	/* c was freed by ingress_classifier_create */
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int
ingress_pcap_filter_is_jit(const struct ingress_classifier *cl)
{
	if (cl == NULL || cl->ops != &pf_ops)
		return -EINVAL;
	return ((const struct pf_ctx *)cl->ctx)->jit != NULL;
}
