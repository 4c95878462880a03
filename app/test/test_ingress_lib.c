/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The helpers the lib/ingress unit tests share (test_ingress.h).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "test_ingress.h"

struct rte_mempool *pool;
static char srcdir[2 * PATH_MAX + 16];

/* ------------------------------------------------------------------ */
/* Frames                                                              */
/* ------------------------------------------------------------------ */

/* Write the frame into m (reset). Returns m. */
struct rte_mbuf *
frame_fill(struct rte_mbuf *m, const struct fspec *f)
{
	uint8_t *p;
	uint32_t off = 0, ihl = f->ihl * 4u, total;

	rte_pktmbuf_reset(m);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	memset(p, 0, 256);
	memcpy(p, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02", 12);
	off = 12;
	if (f->vlan >= 0) {
		uint16_t tci = (uint16_t)(f->pcp << 13 | (f->vlan & 0xfff));

		*(uint16_t *)(p + off) = rte_cpu_to_be_16(f->tpid);
		*(uint16_t *)(p + off + 2) = rte_cpu_to_be_16(tci);
		off += 4;
		if (f->inner_tpid) {
			*(uint16_t *)(p + off) = rte_cpu_to_be_16(f->inner_tpid);
			*(uint16_t *)(p + off + 2) = rte_cpu_to_be_16(5);
			off += 4;
		}
	}
	*(uint16_t *)(p + off) = rte_cpu_to_be_16(f->etype);
	off += 2;
	if (f->etype == RTE_ETHER_TYPE_IPV4 && !f->inner_tpid) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + off);

		ip->version_ihl = (uint8_t)(f->version << 4 | (f->ihl & 0xf));
		ip->type_of_service = f->tos;
		ip->total_length = rte_cpu_to_be_16((uint16_t)(ihl + 20));
		ip->fragment_offset = rte_cpu_to_be_16(f->frag);
		ip->time_to_live = 64;
		ip->next_proto_id = f->proto;
		ip->src_addr = rte_cpu_to_be_32(f->src);
		ip->dst_addr = rte_cpu_to_be_32(f->dst);
		if (ihl > 20)
			memset(p + off + 20, 1, ihl - 20);	/* NOPs */
		*(uint16_t *)(p + off + ihl) = rte_cpu_to_be_16(f->sport);
		*(uint16_t *)(p + off + ihl + 2) = rte_cpu_to_be_16(f->dport);
		total = off + (ihl < 20 ? 20 : ihl) + 20;
	} else {
		total = off + 46;
	}
	if (total < 60)
		total = 60;
	if (f->len > 0)
		total = (uint32_t)f->len;
	m->data_len = (uint16_t)total;
	m->pkt_len = total;
	return m;
}

struct rte_mbuf *
frame(const struct fspec *f)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	assert_non_null(m);
	return frame_fill(m, f);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

struct ingress_classifier *
must_parse(const char *text)
{
	struct ingress_classifier *c = NULL;
	char err[256];
	int rc = ingress_rules_parse_string(text, "t.rules", &c, err, sizeof(err));

	if (rc)
		print_error("parse failed: %s\n", err);
	assert_int_equal(rc, 0);
	assert_non_null(c);
	return c;
}

static const char *
src_path(const char *rel, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", srcdir, rel);
	return buf;
}

/* Locate the source tree: $INGRESS_SRCDIR, or from __FILE__ (relative to
 * the build root, which is two levels above this executable). */
static void
find_srcdir(void)
{
	const char *env = getenv("INGRESS_SRCDIR");
	const char *suffix = "app/test/test_ingress_lib.c";
	char file[PATH_MAX], exe[PATH_MAX];
	size_t fl;
	ssize_t n;
	int i;

	if (env) {
		snprintf(srcdir, sizeof(srcdir), "%s", env);
		return;
	}
	snprintf(file, sizeof(file), "%s", __FILE__);
	fl = strlen(file);
	if (fl >= strlen(suffix))
		file[fl - strlen(suffix)] = '\0';
	if (file[0] == '/') {
		snprintf(srcdir, sizeof(srcdir), "%s.", file);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(srcdir, sizeof(srcdir), "%s.", file);
		return;
	}
	exe[n] = '\0';
	for (i = 0; i < 3; i++) {
		char *s = strrchr(exe, '/');

		if (s)
			*s = '\0';
	}
	snprintf(srcdir, sizeof(srcdir), "%s/%s.", exe, file);
}

/* The built-in generator's default frames (64 flows). */
struct pkt_templates *
gen_templates(void)
{
	struct pkt_flow_conf fc;
	struct pkt_templates *t;

	pkt_flow_conf_default(&fc);
	t = pkt_templates_build(&fc, NULL);
	assert_non_null(t);
	return t;
}

struct rte_mbuf *
from_template(const struct pkt_templates *t, uint32_t i)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	assert_non_null(m);
	memcpy(rte_pktmbuf_mtod(m, void *), t->data[i % t->n], t->len[i % t->n]);
	m->data_len = t->len[i % t->n];
	m->pkt_len = t->len[i % t->n];
	return m;
}

struct ingress_classifier *
must_parse_file(const char *rel)
{
	struct ingress_classifier *c = NULL;
	char path[sizeof(srcdir) + 64], err[512];
	int rc = ingress_rules_parse_file(src_path(rel, path, sizeof(path)), &c,
					  err, sizeof(err));

	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	return c;
}

struct mib_set *
mibs_new(unsigned int n)
{
	struct mib_set *s = mib_set_create(n, MIB_LAYOUT_PERCPU, NULL);

	assert_non_null(s);
	return s;
}

/* ------------------------------------------------------------------ */
/* Threads                                                             */
/* ------------------------------------------------------------------ */

void
watchdog(int sig)
{
	static const char msg[] = "test_ingress: watchdog: a writer or a flip blocked\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

static struct {
	lcore_function_t *fn;
	void *arg;
	uint32_t go, done;
	int rc;
} launch_ctx;

static int
launch_tramp(void *unused)
{
	(void)unused;
	while (!__atomic_load_n(&launch_ctx.go, __ATOMIC_ACQUIRE))
		rte_pause();
	launch_ctx.rc = launch_ctx.fn(launch_ctx.arg);
	__atomic_store_n(&launch_ctx.done, 1, __ATOMIC_RELEASE);
	return 0;
}

int
launch(lcore_function_t *fn, void *arg, unsigned int lcore)
{
	launch_ctx.fn = fn;
	launch_ctx.arg = arg;
	launch_ctx.done = 0;
	__atomic_store_n(&launch_ctx.go, 1, __ATOMIC_RELEASE);
	return rte_eal_remote_launch(launch_tramp, NULL, lcore);
}

int
join(unsigned int lcore)
{
	rte_eal_wait_lcore(lcore);
	while (!__atomic_load_n(&launch_ctx.done, __ATOMIC_ACQUIRE))
		rte_pause();
	__atomic_store_n(&launch_ctx.go, 0, __ATOMIC_RELAXED);
	return launch_ctx.rc;
}

/* ------------------------------------------------------------------ */

int
ingress_test_setup(void **state)
{
	char *prog = program_invocation_short_name;
	char *argv[] = { prog, "--no-huge", "--no-shconf", "-m", "512",
			 "--no-pci", "--file-prefix", prog, "-l", "0-1",
			 "--log-level", "lib.eal:error" };

	(void)state;
	if (rte_eal_init(RTE_DIM(argv), argv) < 0) {
		print_error("rte_eal_init: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	pool = rte_pktmbuf_pool_create(prog, 4096, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (pool == NULL)
		return -1;
	find_srcdir();
	return 0;
}

int
ingress_test_teardown(void **state)
{
	(void)state;
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return 0;
}
