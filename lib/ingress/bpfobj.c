/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "bpf" classifier kind: an eBPF ELF object read as every input is
 * (base_file_read(): a regular file, never a FIFO that would block the
 * open) and opened from memory by libbpf (bpf_object__open_mem: no kernel
 * load, no privilege), one program's
 * instructions checked (bpfcheck.c), loaded by rte_bpf_load under limits
 * (bpfload.c) and run JIT-compiled when the JIT's code passes pktpath's
 * check, interpreted otherwise.
 *
 * Context (config/bpf/pktpath_bpf.h): r1 points to {u32 len; u32 reserved;
 * u8 data[2048]}, the frame's length followed by the frame. It is built in
 * the mbuf's headroom, just before the packet data, so nothing is copied;
 * a frame without 8 bytes of headroom, not contiguous, or whose buffer ends
 * before data + 2048 is copied into a per-call buffer first. The program
 * may only read it: stores through anything but a stack pointer are
 * refused before loading.
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

#include "base.h"
#include "bpf_pvt.h"
#include "ingress_pvt.h"

#define CTX_HDR 8
#define MAX_DATA 2048

struct bo_ctx {
	enum ingress_bpf_engine engine;
	struct rte_bpf *bpf;
	uint64_t (*jit)(void *);
};

static inline uint64_t
__bo_run(const struct bo_ctx *c, void *arg)
{
	return c->jit != NULL ? c->jit(arg) : rte_bpf_exec(c->bpf, arg);
}

/* The program's return value on m, its context built as described above. */
static inline uint64_t
__bo_rc(const struct bo_ctx *c, struct rte_mbuf *m)
{
	uint8_t *data = rte_pktmbuf_mtod(m, uint8_t *);

	if (likely(rte_pktmbuf_headroom(m) >= CTX_HDR &&
		   rte_pktmbuf_is_contiguous(m) &&
		   (size_t)(data - (uint8_t *)m->buf_addr) + MAX_DATA <= m->buf_len)) {
		uint32_t *hdr = (uint32_t *)(void *)(data - CTX_HDR);

		hdr[0] = rte_pktmbuf_pkt_len(m);
		hdr[1] = 0;
		return __bo_run(c, hdr);
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
		return __bo_run(c, &tmp);
	}
}

static void
bo_classify(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
	    struct ingress_result *res)
{
	const struct bo_ctx *c = ctx;
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct ingress_result *r = &res[i];
		uint64_t rc = __bo_rc(c, pkts[i]);

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

int
__ingress_bpfobj_engine(const struct ingress_classifier *cl)
{
	if (cl == NULL || cl->ops != &bo_ops)
		return -EINVAL;
	return ((const struct bo_ctx *)cl->ctx)->engine;
}

uint64_t
__ingress_bpfobj_run(const struct ingress_classifier *cl, struct rte_mbuf *m)
{
	if (cl == NULL || cl->ops != &bo_ops)
		return 0;
	return __bo_rc(cl->ctx, m);
}

/* What rte_bpf cannot run, said before rte_bpf_load says it less clearly. */
static int
__unsupported(const struct ebpf_insn *ins, uint32_t n, char *why, size_t len)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint8_t code = ins[i].code;

		if (code == (BPF_LD | BPF_IMM | EBPF_DW) && ins[i].src_reg != 0) {
			snprintf(why, len, "instruction %u loads a map (src_reg %u): "
				 "rte_bpf has no maps", i, ins[i].src_reg);
			return -1;
		}
		if (code == (BPF_JMP | EBPF_CALL)) {
			if (ins[i].src_reg == EBPF_PSEUDO_CALL)
				snprintf(why, len, "instruction %u calls a BPF function: "
					 "rte_bpf runs no bpf-to-bpf calls", i);
			else if (ins[i].imm == 12)
				snprintf(why, len, "instruction %u is a tail call "
					 "(bpf_tail_call): rte_bpf has none", i);
			else
				snprintf(why, len, "instruction %u calls kernel helper #%d: "
					 "rte_bpf provides no kernel helpers", i, ins[i].imm);
			return -1;
		}
		if (BPF_CLASS(code) == BPF_LD && (BPF_MODE(code) == BPF_ABS ||
						  BPF_MODE(code) == BPF_IND)) {
			snprintf(why, len, "instruction %u is a classic packet load "
				 "(LD_ABS/LD_IND): read the context instead", i);
			return -1;
		}
	}
	return 0;
}

int
__ingress_bpf_from_insns(const struct ebpf_insn *ins, uint32_t n,
			 const char *name, const char *label,
			 const struct ingress_bpf_conf *bc,
			 struct ingress_classifier **out, char *err, size_t errlen)
{
	struct ingress_bpf_conf defaults;
	struct __bpf_load_req r;
	struct __bpf_loaded l;
	struct ebpf_insn *prog = (struct ebpf_insn *)(uintptr_t)ins;
	char why[320], desc[INGRESS_DESC_MAX], note[320] = "";
	struct bo_ctx *c;
	bool owned = false, jit;
	uint32_t n0 = n;
	int rc;

	*out = NULL;
	if (bc == NULL) {
		ingress_bpf_conf_init(&defaults);
		bc = &defaults;
	}
	if (bc->engine == INGRESS_BPF_LIBPCAP) {
		snprintf(err, errlen, "%s: the libpcap engine runs tcpdump "
			 "expressions only (pcap-filter)", name);
		return -EINVAL;
	}
	if (__unsupported(ins, n, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: %s", name, why);
		return -ENOTSUP;
	}
	rc = __bpf_obj_check(ins, n, why, sizeof(why));
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", name, why);
		return rc;
	}
	jit = bc->engine == INGRESS_BPF_JIT;
	rc = __bpf_fix_forms(&prog, &n, &owned, jit);
	if (rc == -ENOMEM) {
		if (owned)
			free(prog);
		snprintf(err, errlen, "out of memory");
		return rc;
	}
	if (rc == -ENOSPC) {
		jit = false;
		snprintf(note, sizeof(note), "it has a form DPDK 22.11's JIT compiles "
			 "wrongly (jset with a small immediate, a shift by its own "
			 "register, a 32-bit division by a register, r0 or r3 divided "
			 "by itself) and no free register to rewrite it with");
	} else if (rc > 0) {
		INGRESS_LOG(DEBUG, "%s: %d instructions added around DPDK 22.11 "
			    "JIT faults", name, rc);
	}
	memset(&r, 0, sizeof(r));
	r.ins = prog;
	r.n = n;
	r.arg.type = RTE_BPF_ARG_PTR;
	r.arg.size = CTX_HDR + MAX_DATA;
	r.want_jit = jit;
	r.timeout_s = bc->load_timeout_s;
	r.cancel = bc->cancel;
	r.what = name;
	rc = __bpf_load(&r, &l, why, sizeof(why));
	if (rc == -EINVAL && owned && jit) {
		/* Refused after pktpath's rewrites for the JIT: load the
		 * program as written (with only the interpreter's rewrite),
		 * whose reason names instructions where the user wrote them;
		 * if it loads, a rewrite was at fault and it is interpreted. */
		free(prog);
		prog = (struct ebpf_insn *)(uintptr_t)ins;
		n = n0;
		owned = false;
		rc = __bpf_fix_forms(&prog, &n, &owned, false);
		if (rc < 0)
			snprintf(why, sizeof(why), "out of memory");
		if (rc >= 0) {
			r.ins = prog;
			r.n = n;
			r.want_jit = false;
			rc = __bpf_load(&r, &l, why, sizeof(why));
			if (rc == 0)	/* logged below, as interpreted */
				snprintf(note, sizeof(note), "rte_bpf refused pktpath's "
					 "rewrite of it for DPDK's JIT");
		}
	}
	if (owned)
		free(prog);
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", name, why);
		return rc;
	}
	if (note[0] == '\0')
		snprintf(note, sizeof(note), "%s", l.note);
	if (bc->engine == INGRESS_BPF_JIT && l.engine != INGRESS_BPF_JIT)
		INGRESS_LOG(WARNING, "%s: interpreted: %s", name, note);
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		rte_bpf_destroy(l.bpf);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c->bpf = l.bpf;
	c->jit = l.jit;
	c->engine = l.engine;
	snprintf(desc, sizeof(desc), "bpf %.132s %s", label,
		 ingress_bpf_engine_name(c->engine));
	*out = ingress_classifier_create(&bo_ops, c, desc);
	if (*out == NULL) {	/* c was freed by ingress_classifier_create */
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int
ingress_bpf_create(const char *path, const char *sec,
		   const struct ingress_bpf_conf *bc,
		   struct ingress_classifier **out, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = path);
	struct bpf_object *obj;
	struct bpf_program *prog, *found = NULL;
	char secs[256] = "", name[512], label[300];
	char qp[2 * BASE_QUOTE_LEN], qs[80], qsec[80];
	char *elf;
	size_t len;
	int rc;

	*out = NULL;
	if (path == NULL || sec == NULL) {
		snprintf(err, errlen, "no object or section");
		return -EINVAL;
	}
	/* The path, the section asked for and the object's own section names
	 * are quoted (base.h) wherever a message names them. */
	base_quote(qp, sizeof(qp), path);
	base_quote(qsec, sizeof(qsec), sec);
	rc = base_file_read(path, INGRESS_BPF_OBJ_MAX, &elf, &len, err, errlen);
	if (rc != 0)
		return rc;
	libbpf_set_print(NULL);		/* its messages are ours to give */
	/* libbpf reads the ELF in place: elf lives until the object is closed */
	obj = bpf_object__open_mem(elf, len, &oo);
	if (obj == NULL) {
		char why[128];

		libbpf_strerror(errno, why, sizeof(why));
		snprintf(err, errlen, "%s: cannot open as an eBPF ELF object: %s",
			 qp, why);
		free(elf);
		return -EINVAL;
	}
	bpf_object__for_each_program(prog, obj) {
		const char *s = bpf_program__section_name(prog);

		if (strcmp(s, sec) == 0 || strcmp(bpf_program__name(prog), sec) == 0) {
			found = prog;
			break;
		}
		base_quote(qs, sizeof(qs), s);
		if (strlen(secs) + strlen(qs) + 3 < sizeof(secs)) {
			strcat(secs, secs[0] ? ", " : "");
			strcat(secs, qs);
		}
	}
	if (found == NULL) {
		snprintf(err, errlen, "%s: no program in section '%s' (sections: %s)",
			 qp, qsec, secs[0] ? secs : "none");
		bpf_object__close(obj);
		free(elf);
		return -ENOENT;
	}
	if (bpf_object__next_map(obj, NULL) != NULL) {
		snprintf(err, errlen, "%s: the object defines maps: rte_bpf has none", qp);
		bpf_object__close(obj);
		free(elf);
		return -ENOTSUP;
	}
	snprintf(name, sizeof(name), "%s: section '%s'", qp, qsec);
	snprintf(label, sizeof(label), "%.200s:%.32s", qp, qsec);
	/* struct bpf_insn (linux/bpf.h) and struct ebpf_insn have one layout. */
	RTE_BUILD_BUG_ON(sizeof(struct bpf_insn) != sizeof(struct ebpf_insn));
	rc = __ingress_bpf_from_insns(
		(const struct ebpf_insn *)(const void *)bpf_program__insns(found),
		(uint32_t)bpf_program__insn_cnt(found), name, label, bc, out, err,
		errlen);
	bpf_object__close(obj);
	free(elf);
	return rc;
}
