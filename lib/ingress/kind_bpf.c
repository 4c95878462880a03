/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "bpf" classifier kind: an eBPF ELF object's program made a program by
 * lib/bpf (pktbpf_object_load()), its return code the verdict, as cls_bpf's
 * direct action: 0 pass (TC_ACT_OK), 2 drop (TC_ACT_SHOT), all-ones no
 * match (TC_ACT_UNSPEC: the default, pass), (1 << 32) | m: pass with mark m.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "base.h"
#include "ingress_bpf.h"
#include "ingress_pvt.h"

struct bo_ctx {
	struct pktbpf_prog *prog;
};

static void
bo_classify(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
	    struct ingress_result *res)
{
	const struct bo_ctx *c = ctx;
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct ingress_result *r = &res[i];
		uint64_t rc = pktbpf_run(c->prog, pkts[i]);

		memset(r, 0, sizeof(*r));
		if (rc == UINT64_MAX) {			/* TC_ACT_UNSPEC */
			r->action = INGRESS_ACT_PASS;
		} else if (rc == 2) {			/* TC_ACT_SHOT */
			r->action = INGRESS_ACT_DROP;
			r->matched = 1;
		} else if ((rc >> 32) == 1) {		/* mark */
			r->action = INGRESS_ACT_PASS;
			r->matched = 1;
			r->marked = 1;
			r->mark = (uint32_t)rc;
		} else {				/* TC_ACT_OK and the rest */
			r->action = INGRESS_ACT_PASS;
			r->matched = 1;
		}
		r->rule = r->matched;
	}
}

static void
bo_free(void *ctx)
{
	struct bo_ctx *c = ctx;

	if (c == NULL)
		return;
	pktbpf_prog_free(c->prog);
	__ingress_poison(c, sizeof(*c));
	free(c);
}

static const struct ingress_classifier_ops bo_ops = {
	.kind = "bpf",
	.classify_burst = bo_classify,
	.free = bo_free,
};

int
ingress_bpf_create(const char *path, const char *sec,
		   const struct pktbpf_conf *bc,
		   struct ingress_classifier **out, char *err, size_t errlen)
{
	struct pktbpf_prog *prog;
	struct bo_ctx *c;
	char desc[INGRESS_DESC_MAX], label[300];
	char qp[2 * BASE_QUOTE_LEN], qsec[80];
	int rc;

	*out = NULL;
	rc = pktbpf_object_load(path, sec, bc, &prog, err, errlen);
	if (rc != 0)
		return rc;
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		pktbpf_prog_free(prog);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c->prog = prog;
	/* The path and the section are quoted (base.h): they echo input. */
	snprintf(label, sizeof(label), "%.200s:%.32s",
		 base_quote(qp, sizeof(qp), path), base_quote(qsec, sizeof(qsec), sec));
	snprintf(desc, sizeof(desc), "bpf %.132s %s", label,
		 pktbpf_engine_name(pktbpf_prog_engine(prog)));
	*out = ingress_classifier_create(&bo_ops, c, desc);
	if (*out == NULL) {	/* c was freed by ingress_classifier_create */
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}
