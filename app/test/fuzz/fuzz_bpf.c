/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: any bytes as a BPF program, first byte the kind.
 *
 *  even: classic BPF (8-byte instructions). One libpcap's bpf_validate()
 *        accepts is converted by pktpath (bpfconv.c), loaded (bpfload.c:
 *        JIT layout settled, code checked) and run, JIT and interpreter, on
 *        frames made of the input; each verdict must equal libpcap's
 *        bpf_filter() on the same program with its scratch memory zeroed
 *        (as pktpath defines it).
 *  odd:  eBPF (8-byte instructions) on the bpf kind's context
 *        (pktbpf_ebpf_load): refused with one line naming the input, or
 *        loaded; then the JIT (after pktpath's rewrites and check) and the
 *        interpreter must return the same value on a context.
 * Never a crash, a leak or a disagreement.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_mbuf.h>

#include "pktbpf_pvt.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rte_mempool *pool;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *eal[] = { "fuzz_bpf", "--no-huge", "--no-shconf", "-m", "256",
			"--no-pci", "--file-prefix", "fuzz_bpf",
			"--log-level", "*:crit", NULL };

	(void)argc;
	(void)argv;
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0)
		return 1;
	pool = rte_pktmbuf_pool_create("fuzz_bpf", 64, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	return pool == NULL;
}

static struct rte_mbuf *
mbuf(const uint8_t *d, uint32_t n)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	if (m == NULL)
		abort();
	memset(m->buf_addr, 0x5a, m->buf_len);
	if (n)
		memcpy(rte_pktmbuf_append(m, (uint16_t)n), d, n);
	return m;
}

static void
classic(const uint8_t *data, size_t size)
{
	static const uint8_t frame0[60] = {
		0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00,
		0x45, 0, 0, 46, 0, 0, 0, 0, 64, 17, 0, 0,
		10, 0, 0, 1, 10, 0, 0, 2, 0x04, 0xd2, 0, 53, 0, 26, 0, 0 };
	struct bpf_insn prog[256 + 16];
	struct __pktbpf_load_req r;
	struct __pktbpf_loaded l;
	struct ebpf_insn *ins;
	uint32_t n = (uint32_t)(size / 8), ni, k, f;
	char why[320];
	int rc;

	if (n == 0 || n > 256)
		return;
	for (k = 0; k < n; k++)
		memcpy(&prog[k + 16], data + 8 * k, 8);
	if (!bpf_validate(prog + 16, (int)n))
		return;
	if (__pktbpf_convert(prog + 16, n, &ins, &ni, why, sizeof(why)) != 0)
		return;			/* e.g. too long: libpcap runs it */
	memset(&r, 0, sizeof(r));
	r.ins = ins;
	r.n = ni;
	r.arg.type = RTE_BPF_ARG_PTR_MBUF;
	r.arg.size = sizeof(struct rte_mbuf);
	r.want_jit = true;
	r.timeout_s = 0.5;
	r.what = "fuzz";
	rc = __pktbpf_load(&r, &l, why, sizeof(why));
	free(ins);
	if (rc != 0)
		return;			/* verifier refusal: libpcap runs it */
	/* The reference: libpcap on the program with its scratch memory
	 * zeroed first (st M[0..15], A being 0), as pktpath defines it. */
	for (k = 0; k < 16; k++)
		prog[k] = (struct bpf_insn){ .code = BPF_ST, .k = k };
	f = 0;
	for (k = 0; k < 3; k++) {
		const uint8_t *d = k == 0 ? frame0 : data;
		uint32_t len = k == 0 ? sizeof(frame0) : k == 1 ? (uint32_t)RTE_MIN(size, 1500u) :
			       (uint32_t)RTE_MIN(size / 2, 40u);
		struct rte_mbuf *m = mbuf(d, len);
		u_int want = bpf_filter(prog + f, d, len, len);
		uint64_t gi = rte_bpf_exec(l.bpf, m), gj = l.jit ? l.jit(m) : gi;

		if (gi != want || gj != want) {
			fprintf(stderr, "classic program: libpcap %u, interpreter %" PRIu64
				", JIT %" PRIu64 "\n", want, gi, gj);
			abort();
		}
		rte_pktmbuf_free(m);
	}
	rte_bpf_destroy(l.bpf);
}

static void
extended(const uint8_t *data, size_t size)
{
	struct pktbpf_conf bc;
	struct pktbpf_prog *cj = NULL, *ci = NULL;
	uint32_t n = (uint32_t)(size / 8);
	struct ebpf_insn *ins;
	char err[512];
	int rj, ri;

	if (n == 0)
		return;
	ins = malloc(sizeof(*ins) * n);
	if (ins == NULL)
		return;
	memcpy(ins, data, sizeof(*ins) * n);
	pktbpf_conf_init(&bc);
	bc.load_timeout_s = 0.5;
	err[0] = '\0';
	rj = pktbpf_ebpf_load(ins, n, "fuzz", &bc, &cj, err, sizeof(err));
	if (rj != 0 && strncmp(err, "fuzz", 4) != 0) {
		fprintf(stderr, "eBPF program refused (%d) with an error not naming it: %s\n",
			rj, err);
		abort();		/* the error names the input */
	}
	bc.engine = PKTBPF_INTERP;
	ri = pktbpf_ebpf_load(ins, n, "fuzz", &bc, &ci, err, sizeof(err));
	if ((rj == 0) != (ri == 0) && rj != -ETIMEDOUT && ri != -ETIMEDOUT) {
		fprintf(stderr, "eBPF program: JIT load %d, interpreter load %d: %s\n",
			rj, ri, err);
		abort();		/* the engines accept the same programs */
	}
	if (cj != NULL && ci != NULL) {
		struct rte_mbuf *m = mbuf(data, (uint32_t)RTE_MIN(size, 2048u));
		uint64_t a = pktbpf_run(cj, m), b = pktbpf_run(ci, m);

		if (a != b) {
			fprintf(stderr, "eBPF program: JIT %#" PRIx64 ", interpreter %#"
				PRIx64 "\n", a, b);
			abort();
		}
		rte_pktmbuf_free(m);
	}
	pktbpf_prog_free(cj);
	pktbpf_prog_free(ci);
	free(ins);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1)
		extended(data + 1, size - 1);
	else
		classic(data + 1, size - 1);
	return 0;
}
