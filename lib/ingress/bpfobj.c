/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "bpf" classifier kind: an eBPF ELF object opened with libbpf
 * (bpf_object__open_file: no kernel load, no privilege), one program's
 * instructions handed to rte_bpf_load and run JIT-compiled (or interpreted).
 *
 * Context (config/bpf/pktpath_bpf.h): r1 points to {u32 len; u32 reserved;
 * u8 data[2048]}, the frame's length followed by the frame. It is built in
 * the mbuf's headroom, just before the packet data, so nothing is copied;
 * a frame without 8 bytes of headroom, not contiguous, or whose buffer ends
 * before data + 2048 is copied into a per-call buffer first.
 *
 * Return: 0 pass (TC_ACT_OK), 2 drop (TC_ACT_SHOT), all-ones no match
 * (TC_ACT_UNSPEC: the default, pass), (1 << 32) | m: pass with mark m.
 *
 * rte_bpf runs no maps, no helper calls and no tail calls: an object using
 * them is refused with that reason, before rte_bpf_load would refuse it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include <rte_bpf.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "ingress.h"

#define CTX_HDR 8
#define MAX_DATA 2048

struct bo_ctx {
	struct rte_bpf *bpf;
	uint64_t (*jit)(void *);
};

static inline uint64_t
__run(const struct bo_ctx *c, void *arg)
{
	return c->jit != NULL ? c->jit(arg) : rte_bpf_exec(c->bpf, arg);
}

static void
bo_classify(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
	    struct ingress_result *res)
{
	const struct bo_ctx *c = ctx;
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		struct ingress_result *r = &res[i];
		uint8_t *data = rte_pktmbuf_mtod(m, uint8_t *);
		uint64_t rc;

		if (likely(rte_pktmbuf_headroom(m) >= CTX_HDR &&
			   rte_pktmbuf_is_contiguous(m) &&
			   (size_t)(data - (uint8_t *)m->buf_addr) + MAX_DATA <= m->buf_len)) {
			uint32_t *hdr = (uint32_t *)(void *)(data - CTX_HDR);

			hdr[0] = rte_pktmbuf_pkt_len(m);
			hdr[1] = 0;
			rc = __run(c, hdr);
		} else {
			struct {
				uint32_t len, reserved;
				uint8_t data[MAX_DATA];
			} tmp;
			uint32_t len = RTE_MIN(rte_pktmbuf_pkt_len(m), (uint32_t)MAX_DATA);
			const void *p = rte_pktmbuf_read(m, 0, len, tmp.data);

			if (p != tmp.data)
				memcpy(tmp.data, p, len);
			tmp.len = len;
			tmp.reserved = 0;
			rc = __run(c, &tmp);
		}
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
	rte_bpf_destroy(c->bpf);
	memset(c, INGRESS_POISON, sizeof(*c));
	free(c);
}

static const struct ingress_classifier_ops bo_ops = {
	.kind = "bpf",
	.classify_burst = bo_classify,
	.free = bo_free,
};

/* What rte_bpf cannot run, said before rte_bpf_load says it less clearly. */
static int
__unsupported(const struct bpf_insn *ins, size_t n, char *why, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint8_t code = ins[i].code;

		if (code == (BPF_LD | BPF_IMM | BPF_DW) && ins[i].src_reg != 0) {
			snprintf(why, len, "instruction %zu loads a map (src_reg %u): "
				 "rte_bpf has no maps", i, ins[i].src_reg);
			return -1;
		}
		if (code == (BPF_JMP | BPF_CALL)) {
			if (ins[i].src_reg == BPF_PSEUDO_CALL)
				snprintf(why, len, "instruction %zu calls a BPF function: "
					 "rte_bpf runs no bpf-to-bpf calls", i);
			else if (ins[i].imm == 12)
				snprintf(why, len, "instruction %zu is a tail call "
					 "(bpf_tail_call): rte_bpf has none", i);
			else
				snprintf(why, len, "instruction %zu calls kernel helper #%d: "
					 "rte_bpf provides no kernel helpers", i, ins[i].imm);
			return -1;
		}
	}
	return 0;
}

int
ingress_bpf_create(const char *path, const char *sec, bool jit,
		   struct ingress_classifier **out, char *err, size_t errlen)
{
	struct bpf_object *obj;
	struct bpf_program *prog, *found = NULL;
	struct rte_bpf_prm prm;
	struct rte_bpf_jit j;
	struct bo_ctx *c;
	char secs[256] = "", why[256], desc[INGRESS_DESC_MAX];
	const struct bpf_insn *ins;
	size_t n;

	*out = NULL;
	if (path == NULL || sec == NULL) {
		snprintf(err, errlen, "no object or section");
		return -EINVAL;
	}
	libbpf_set_print(NULL);		/* its messages are ours to give */
	obj = bpf_object__open_file(path, NULL);
	if (obj == NULL) {
		char why[128];

		libbpf_strerror(errno, why, sizeof(why));
		snprintf(err, errlen, "%s: cannot open as an eBPF ELF object: %s",
			 path, why);
		return -EINVAL;
	}
	bpf_object__for_each_program(prog, obj) {
		const char *s = bpf_program__section_name(prog);

		if (strcmp(s, sec) == 0 || strcmp(bpf_program__name(prog), sec) == 0) {
			found = prog;
			break;
		}
		if (strlen(secs) + strlen(s) + 3 < sizeof(secs)) {
			strcat(secs, secs[0] ? ", " : "");
			strcat(secs, s);
		}
	}
	if (found == NULL) {
		snprintf(err, errlen, "%s: no program in section '%s' (sections: %s)",
			 path, sec, secs[0] ? secs : "none");
		bpf_object__close(obj);
		return -ENOENT;
	}
	if (bpf_object__next_map(obj, NULL) != NULL) {
		snprintf(err, errlen, "%s: the object defines maps: rte_bpf has none", path);
		bpf_object__close(obj);
		return -ENOTSUP;
	}
	ins = bpf_program__insns(found);
	n = bpf_program__insn_cnt(found);
	if (__unsupported(ins, n, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: section '%s': %s", path, sec, why);
		bpf_object__close(obj);
		return -ENOTSUP;
	}
	memset(&prm, 0, sizeof(prm));
	prm.ins = (const struct ebpf_insn *)(const void *)ins;	/* same layout */
	prm.nb_ins = (uint32_t)n;
	prm.prog_arg.type = RTE_BPF_ARG_PTR;
	prm.prog_arg.size = CTX_HDR + MAX_DATA;
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		bpf_object__close(obj);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c->bpf = rte_bpf_load(&prm);
	bpf_object__close(obj);
	if (c->bpf == NULL) {
		snprintf(err, errlen, "%s: section '%s': rte_bpf_load refused it: %s "
			 "(see EAL log at --log-level=lib.bpf:debug)", path, sec,
			 rte_strerror(rte_errno));
		free(c);
		return -EINVAL;
	}
	if (jit && rte_bpf_get_jit(c->bpf, &j) == 0 && j.func != NULL)
		c->jit = j.func;
	snprintf(desc, sizeof(desc), "bpf %.100s:%.32s %s", path, sec,
		 c->jit ? "jit" : "interp");
	*out = ingress_classifier_create(&bo_ops, c, desc);
	if (*out == NULL) {	/* c was freed by ingress_classifier_create */
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}
