/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reproducers of DPDK 22.11's lib/bpf faults, with DPDK and libpcap alone
 * (no pktpath code), for DPDK maintainers:
 *
 *   cc -O2 dpdk_bpf_faults.c $(pkg-config --cflags --libs libdpdk) -lpcap \
 *      -DALLOW_EXPERIMENTAL_API -o dpdk_bpf_faults
 *   ./dpdk_bpf_faults [--no-huge ...EAL options]
 *
 * Each case builds one program (a tcpdump expression through pcap_compile
 * and rte_bpf_convert, or hand-written eBPF), loads it with rte_bpf_load,
 * runs rte_bpf_exec and the JIT (in a child process, so a crash is a
 * result, not the end) and prints both with the right answer (libpcap's
 * bpf_filter for classic programs, the eBPF instruction set's semantics
 * otherwise). lib/bpf/README.md ("DPDK 22.11 lib/bpf faults")
 * explains each.
 * Exit status: the number of cases whose fault is still there.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include <rte_bpf.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_version.h>

#define I(c, d, s, o, k) ((struct ebpf_insn){ .code = (c), .dst_reg = (d), \
	.src_reg = (s), .off = (o), .imm = (k) })
#define MOV64K(d, k) I(EBPF_ALU64 | EBPF_MOV | BPF_K, d, 0, 0, k)
#define EXIT I(BPF_JMP | EBPF_EXIT, 0, 0, 0, 0)

static struct rte_mempool *pool;
static int present;

/* Ethernet + IPv4 (tos) + payload. */
static uint32_t
frame(uint8_t *f, uint8_t proto, uint8_t tos, const uint8_t *l4, uint32_t n)
{
	static const uint8_t head[34] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0,
		0, 0, 2, 0x08, 0x00, 0x45, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 0, 10, 0,
		0, 1, 10, 0, 0, 2 };

	memcpy(f, head, sizeof(head));
	f[15] = tos;
	f[17] = (uint8_t)(20 + n);
	f[23] = proto;
	memcpy(f + 34, l4, n);
	return 34 + n;
}

/* The JIT's value, run in a child: -1 and *sig if it died. */
static int64_t
jit_run(const struct rte_bpf *b, void *arg, int *sig)
{
	struct rte_bpf_jit j;
	int fd[2], st;
	uint64_t v = 0;
	pid_t pid;

	*sig = 0;
	if (rte_bpf_get_jit(b, &j) != 0 || j.func == NULL || pipe(fd) != 0)
		return -2;
	pid = fork();
	if (pid == 0) {
		v = j.func(arg);
		if (write(fd[1], &v, sizeof(v)) != sizeof(v))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &v, sizeof(v)) != sizeof(v))
		v = UINT64_MAX;
	close(fd[0]);
	waitpid(pid, &st, 0);
	if (WIFSIGNALED(st)) {
		*sig = WTERMSIG(st);
		return -1;
	}
	return (int64_t)v;
}

static void
report(const char *name, const struct rte_bpf *b, void *arg, uint64_t want)
{
	uint64_t in = rte_bpf_exec(b, arg);
	int sig;
	int64_t j = jit_run(b, arg, &sig);
	int bad = in != want || (j >= 0 && (uint64_t)j != want) || j == -1;

	printf("%-2s interpreter %#" PRIx64 ", JIT ", name, in);
	if (j == -1)
		printf("killed by signal %d (%s)", sig, strsignal(sig));
	else if (j == -2)
		printf("none");
	else
		printf("%#" PRIx64, (uint64_t)j);
	printf(", right %#" PRIx64 ": %s\n", want, bad ? "FAULT" : "ok");
	present += bad;
}

/* A tcpdump expression through rte_bpf_convert, run on a frame. */
static void
classic(const char *name, const char *expr, const uint8_t *f, uint32_t n)
{
	pcap_t *p = pcap_open_dead(DLT_EN10MB, 65535);
	struct bpf_program fp;
	struct rte_bpf_prm *prm;
	struct rte_bpf *b;
	struct rte_mbuf *m;
	u_int want;

	if (pcap_compile(p, &fp, expr, 1, 0) != 0) {
		printf("%-2s '%s': %s\n", name, expr, pcap_geterr(p));
		return;
	}
	want = bpf_filter(fp.bf_insns, f, n, n);
	printf("%-2s '%s' (libpcap: %u)\n", name, expr, want);
	prm = rte_bpf_convert(&fp);
	pcap_freecode(&fp);
	pcap_close(p);
	if (prm == NULL) {
		printf("   rte_bpf_convert: %s: FAULT (tcpdump runs it)\n", rte_strerror(rte_errno));
		present++;
		return;
	}
	b = rte_bpf_load(prm);
	rte_free(prm);
	if (b == NULL) {
		printf("   rte_bpf_load: %s: FAULT (tcpdump runs it)\n", rte_strerror(rte_errno));
		present++;
		return;
	}
	m = rte_pktmbuf_alloc(pool);
	memcpy(rte_pktmbuf_append(m, (uint16_t)n), f, n);
	report("  ", b, m, want);
	rte_pktmbuf_free(m);
	rte_bpf_destroy(b);
}

/* Hand-written eBPF over a 64-byte buffer. */
static void
extended(const char *name, const char *what, const struct ebpf_insn *ins,
	 uint32_t n, uint64_t want)
{
	static uint8_t ctx[64];
	struct rte_bpf_prm prm = { .ins = ins, .nb_ins = n,
		.prog_arg = { .type = RTE_BPF_ARG_PTR, .size = sizeof(ctx) } };
	struct rte_bpf *b = rte_bpf_load(&prm);

	printf("%-2s %s\n", name, what);
	if (b == NULL) {
		printf("   rte_bpf_load: %s\n", rte_strerror(rte_errno));
		return;
	}
	report("  ", b, ctx, want);
	rte_bpf_destroy(b);
}

int
main(int argc, char **argv)
{
	static const uint8_t echo[8] = { 8, 0, 0, 0, 0, 1, 0, 1 };
	static const uint8_t udp[8] = { 0, 53, 0, 53, 0, 8, 0, 0 };
	static const uint8_t tcp[20] = { 0x0f, 0xa0, 0, 67, 0, 0, 0, 0, 0, 0, 0, 0, 0x50, 0x12 };
	struct ebpf_insn p[64];
	uint8_t f[128];
	uint32_t n, k;

	if (rte_eal_init(argc, argv) < 0)
		return 100;
	pool = rte_pktmbuf_pool_create("faults", 63, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	if (pool == NULL)
		return 100;
	printf("%s lib/bpf\n", rte_version());

	/* A: rte_bpf_convert indexes "ldb [x + k]" and "ld [x + k]" by A. */
	n = frame(f, 1, 0, echo, sizeof(echo));
	classic("A", "icmp[0] == 8", f, n);
	/* B: the x86 JIT encodes "jset rD, K" with K in -128..127 as TEST
	 * r/m64, imm8, which does not exist: the next bytes are misdecoded. */
	p[0] = MOV64K(0, 1);
	p[1] = MOV64K(2, 1);
	p[2] = I(BPF_JMP | BPF_JSET | BPF_K, 2, 0, 1, 1);
	p[3] = MOV64K(0, 0);
	p[4] = EXIT;
	extended("B", "r0 = 1; r2 = 1; if r2 & 1 goto +1; r0 = 0; exit", p, 5, 1);
	/* C: the JIT's sizing loop stops when the total size repeats, while
	 * jumps still move: the code jumps into the middle of instructions. */
	n = frame(f, 6, 0, tcp, sizeof(tcp));
	classic("C", "(src portrange 4000-44000 or greater 100) and tcp port 67", f, n);
	/* D: shifts by X of 32 or more: libpcap gives 0, x86 shifts by X & 31. */
	n = frame(f, 17, 0x40, udp, sizeof(udp));
	classic("D", "ip[8] << ip[1] = 0", f, n);
	/* E: what tcpdump runs and DPDK refuses. */
	classic("E1", "ip protochain 17", f, n);
	classic("E2", "geneve or vlan 200", f, n);
	classic("E3", "ether[0xfffff000] = 1", f, n);
	/* F: "lsh rD, rD": the count is swapped into rcx, then the register
	 * shifted is rD, which now holds rcx's old value. */
	p[0] = MOV64K(4, 3);
	p[1] = MOV64K(2, 5);
	p[2] = I(EBPF_ALU64 | BPF_LSH | BPF_X, 2, 2, 0, 0);
	p[3] = I(EBPF_ALU64 | EBPF_MOV | BPF_X, 0, 2, 0, 0);
	p[4] = EXIT;
	extended("F", "r4 = 3; r2 = 5; r2 <<= r2; r0 = r2; exit", p, 5, 160);
	/* G: "div r0, r0": the divisor is a scratch register saved only when
	 * the destination is not rax. */
	p[0] = I(BPF_LD | BPF_IMM | EBPF_DW, 0, 0, 0, 7);
	p[1] = I(0, 0, 0, 0, 0);
	p[2] = I(EBPF_ALU64 | BPF_DIV | BPF_X, 0, 0, 0, 0);
	p[3] = EXIT;
	extended("G", "r0 = 7; r0 /= r0; exit", p, 4, 1);
	/* H: the interpreter's le16/le32 do not truncate (rte_cpu_to_le_16 is
	 * the identity on x86); the JIT's do, as Linux's. */
	p[0] = I(BPF_LD | BPF_IMM | EBPF_DW, 0, 0, 0, 0x12345678);
	p[1] = I(0, 0, 0, 0, 0);
	p[2] = I(BPF_ALU | EBPF_END | EBPF_TO_LE, 0, 0, 0, 16);
	p[3] = EXIT;
	extended("H", "r0 = 0x12345678; r0 = le16 r0; exit", p, 4, 0x5678);
	/* I: a 32-bit division by a register checks the divisor with a 32-bit
	 * CMOV into eax, which clears rax's upper half even when it does not
	 * move: r0 is damaged whatever the destination. */
	p[0] = I(BPF_LD | BPF_IMM | EBPF_DW, 0, 0, 0, 1);
	p[1] = I(0, 0, 0, 0, 1);
	p[2] = MOV64K(2, 3);
	p[3] = MOV64K(3, 5);
	p[4] = I(BPF_ALU | BPF_DIV | BPF_X, 3, 2, 0, 0);
	p[5] = EXIT;
	extended("I", "r0 = 0x100000001; r2 = 3; r3 = 5; w3 /= w2; exit", p, 6,
		 0x100000001ull);
	/* J: a backward jump of -127 or -128 bytes: the JIT picks rel8 from
	 * the distance to the start of the jump, but the displacement is from
	 * its end (-129, -130): it lands 256 bytes off. Here: ja back to an
	 * exit 127 bytes before it, over 18 7-byte moves. */
	n = 0;
	p[n++] = MOV64K(0, 1);
	p[n++] = I(BPF_JMP | BPF_JA, 0, 0, 1, 0);
	p[n++] = EXIT;
	for (k = 0; k < 18; k++)
		p[n++] = MOV64K(0, (int32_t)(0x1000 + k));
	p[n] = I(BPF_JMP | BPF_JA, 0, 0, (int16_t)(2 - (int)n - 1), 0);
	n++;
	extended("J", "r0 = 1; goto L; E: exit; L: 18 x (r0 = K); goto E", p, n, 0x1011);
	/* The verifier: a loop-free program of k independent ifs that each
	 * add their own constant has 2^k paths that no state pruning merges,
	 * and rte_bpf_load walks all of them. */
	printf("V  rte_bpf_load of k ifs (r2 = *(u8 *)(r1 + i); if r2 != 0x5a goto +1; r0 += C_i):\n");
	for (k = 12; k <= 20; k += 2) {
		struct ebpf_insn q[3 * 24 + 2];
		struct rte_bpf_prm prm = { .ins = q, .prog_arg = { .type = RTE_BPF_ARG_PTR,
			.size = 64 } };
		struct timespec a, b;
		struct rte_bpf *bp;
		uint32_t i, m = 0;

		q[m++] = MOV64K(0, 0);
		for (i = 0; i < k; i++) {
			q[m++] = I(BPF_LDX | BPF_MEM | BPF_B, 2, 1, (int16_t)i, 0);
			q[m++] = I(BPF_JMP | EBPF_JNE | BPF_K, 2, 0, 1, 0x5a);
			q[m++] = I(EBPF_ALU64 | BPF_ADD | BPF_K, 0, 0, 0,
				   (int32_t)(2654435761u * (i + 1) >> 1));
		}
		q[m++] = EXIT;
		prm.nb_ins = m;
		clock_gettime(CLOCK_MONOTONIC, &a);
		bp = rte_bpf_load(&prm);
		clock_gettime(CLOCK_MONOTONIC, &b);
		printf("   k = %2u (%3u instructions): %8.1f ms\n", k, m,
		       (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
		rte_bpf_destroy(bp);
	}
	printf("%d faults present\n", present);
	rte_eal_cleanup();
	return present;
}
