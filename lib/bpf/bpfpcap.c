/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tcpdump expressions as programs (libpcap's side of lib/bpf): compiled by
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
#include "pktbpf_pvt.h"

/* Frames up to this size are made contiguous on the stack for libpcap;
 * longer multi-segment ones in a malloc'ed buffer. */
#define PF_LINEAR_STACK 16384

/* libpcap's verdict on the whole frame (its wire and captured length both
 * the mbuf's packet length). */
uint64_t
__pktbpf_run_libpcap(const struct pktbpf_prog *c, const struct rte_mbuf *m)
{
	uint8_t stack[PF_LINEAR_STACK];
	struct bpf_program prog = { .bf_len = c->cbpf_len, .bf_insns = c->cbpf };
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
	else if (c->cbpf_loops != 0)	/* bounded, libpcap's semantics */
		rc = __pktbpf_cbpf_run(prog.bf_insns, prog.bf_len, c->cbpf_loops, data,
				       h.len, h.caplen, &exhausted);
	else
		rc = pcap_offline_filter(&prog, &h, data);
	free(heap);
	return rc;
}

/*
 * The classic program for libpcap's engine: fp with "st M[k]" (A is 0 on
 * entry) prepended for each scratch word some path reads before writing,
 * so that the verdict never depends on what libpcap's uninitialised
 * mem[] held. Jumps are relative, so the rest is unchanged.
 */
static int
__libpcap_prog(const struct bpf_program *fp, struct pktbpf_prog *c)
{
	struct bpf_insn *out;
	uint16_t mask = 0;
	unsigned int k, n = 0;
	int rc;

	rc = __pktbpf_cbpf_uninit_mem(fp->bf_insns, fp->bf_len, &mask);
	if (rc != 0)
		return rc;
	out = malloc(sizeof(*out) * (fp->bf_len + 16));
	if (out == NULL)
		return -ENOMEM;
	for (k = 0; k < 16; k++)
		if (mask & (1u << k))
			out[n++] = (struct bpf_insn){ .code = BPF_ST, .k = k };
	memcpy(out + n, fp->bf_insns, sizeof(*fp->bf_insns) * fp->bf_len);
	c->cbpf = out;
	c->cbpf_len = fp->bf_len + n;
	c->cbpf_loops = __pktbpf_cbpf_loops(out, c->cbpf_len);
	return 0;
}

/* Run c on rte_bpf (JIT or interpreter), or say why not in why; qexpr is
 * the expression quoted, for messages. */
static int
__rte_bpf_engine(struct pktbpf_prog *c, const struct bpf_program *fp, const char *qexpr,
		 const struct pktbpf_conf *bc, char *why, size_t whylen)
{
	struct __pktbpf_load_req r;
	struct __pktbpf_loaded l;
	struct ebpf_insn *ins;
	char what[160];
	uint32_t n;
	int rc;

	rc = __pktbpf_convert(fp->bf_insns, fp->bf_len, &ins, &n, why, whylen);
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
	r.want_jit = bc->engine == PKTBPF_JIT;
	r.timeout_s = bc->load_timeout_s;
	r.cancel = bc->cancel;
	r.what = what;
	rc = __pktbpf_load(&r, &l, why, whylen);
	free(ins);
	if (rc != 0)
		return rc;
	c->bpf = l.bpf;
	c->jit = l.jit;
	c->engine = l.engine;
	if (bc->engine == PKTBPF_JIT && l.engine != PKTBPF_JIT)
		PKTBPF_LOG(WARNING, "%s: interpreted: %s", what, l.note);
	return 0;
}

int
pktbpf_filter_load(const char *expr, const struct pktbpf_conf *bc,
		   struct pktbpf_prog **out, char *err, size_t errlen)
{
	struct pktbpf_conf defaults;
	struct bpf_program fp;
	struct pktbpf_prog *c;
	char why[256] = "";
	char qx[100];		/* as a classifier's description holds it */
	char qe[2 * BASE_QUOTE_LEN];
	pcap_t *p;
	int rc;

	*out = NULL;
	if (bc == NULL) {
		pktbpf_conf_init(&defaults);
		bc = &defaults;
	}
	if (expr == NULL || (unsigned int)bc->engine >= PKTBPF_ENGINE_MAX) {
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
	c->engine = PKTBPF_LIBPCAP;
	rc = -ENOTSUP;
	if (bc->engine != PKTBPF_LIBPCAP) {
		rc = __rte_bpf_engine(c, &fp, qx, bc, why, sizeof(why));
		if (rc == -EINTR || rc == -ENOMEM) {
			pcap_freecode(&fp);
			free(c);
			snprintf(err, errlen, "'%s': %s", qx, rc == -EINTR ? why :
				 "out of memory");
			return rc;
		}
		if (rc != 0)
			PKTBPF_LOG(NOTICE, "filter '%s': run by libpcap: %s", qx, why);
	}
	if (rc != 0) {
		rc = __libpcap_prog(&fp, c);
		if (rc != 0) {
			pcap_freecode(&fp);
			free(c);
			snprintf(err, errlen, "'%s': %s", qx, rc == -ENOMEM ?
				 "out of memory" : "libpcap produced a malformed program");
			return rc;
		}
	}
	pcap_freecode(&fp);
	PKTBPF_LOG(DEBUG, "filter '%s': engine %s", qx, pktbpf_engine_names[c->engine]);
	*out = c;
	return 0;
}
