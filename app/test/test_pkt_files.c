/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/pkt's files and bounds (test_pkt.c has the rest):
 *  - the pcap writer on a file that fills up (RLIMIT_FSIZE: a write past
 *    it fails with EFBIG as one past a full file system fails with ENOSPC):
 *    the file is cut back to its last whole frame and libpcap reads back
 *    exactly the frames counted;
 *  - the capture on such a file: CapturePackets is what the file holds,
 *    CaptureWriteErrors every frame chosen after, the error said once;
 *    its refusals (a FIFO, /dev/full) and its out of memory, said as such
 *    whatever rte_errno held before;
 *  - the templates' bounds: a size over lim->mem_max refused before it is
 *    allocated, a cancel flag honoured, a pcap template that is a FIFO or
 *    larger than the bound refused before it is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <rte_errno.h>
#include <rte_mbuf.h>

#include "fixture_eal.h"
#include "mib.h"
#include "pkt.h"

#define FRAME 60u
#define REC (16u + FRAME)	/* a record of a FRAME-byte frame */
#define WHOLE 10u		/* whole records under the file size limit */
#define LIMIT (24u + WHOLE * REC + REC / 2)	/* and half of the next */

static char dir[64];

static const char *
__pf_path(const char *name)
{
	static char path[4][128];
	static unsigned int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	return path[k];
}

static struct pkt_templates *
__pf_tpl(uint32_t n)
{
	struct pkt_flow_conf c;

	pkt_flow_conf_default(&c);
	c.flows = n;
	c.pkt_size = FRAME;
	return pkt_templates_build(&c, NULL);
}

/* Writes past LIMIT bytes fail with EFBIG (and no SIGXFSZ) until undone. */
static void
__fsize(rlim_t lim)
{
	struct rlimit rl;

	assert_int_equal(getrlimit(RLIMIT_FSIZE, &rl), 0);
	rl.rlim_cur = lim;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &rl), 0);
}

static off_t
__size(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

/* pkt_templates_to_pcap() on a file that fills up: -EFBIG, the file cut to
 * its whole frames, which read back as they were written. */
static void
test_pcap_out_full(void **state)
{
	struct pkt_templates *t = __pf_tpl(100), *u;
	char err[256];
	unsigned int i;

	(void)state;
	__fsize(LIMIT);
	assert_int_equal(pkt_templates_to_pcap(t, __pf_path("full.pcap")), -EFBIG);
	__fsize(RLIM_INFINITY);
	assert_int_equal(__size(__pf_path("full.pcap")), 24 + WHOLE * REC);
	u = pkt_templates_from_pcap(__pf_path("full.pcap"), 2048, NULL, err, sizeof(err));
	if (u == NULL)
		fail_msg("%s", err);
	assert_int_equal(u->n, WHOLE);
	for (i = 0; i < WHOLE; i++)
		assert_memory_equal(u->data[i], t->data[i], FRAME);
	pkt_templates_free(u);
	/* what an output may not be, and a device that is always full */
	assert_int_equal(pkt_templates_to_pcap(t, __pf_path("fifo")), -ENXIO);
	assert_int_equal(pkt_templates_to_pcap(t, "/dev/full"), -ENOSPC);
	assert_int_equal(pkt_templates_to_pcap(t, "/dev/null"), 0);
	pkt_templates_free(t);
}

/* The capture on a file that fills up, its writer running: the counters
 * say what the file holds and what it lost. */
static void
test_capture_full(void **state)
{
	struct mib_set *set = mib_set_create(2, MIB_LAYOUT_PERCPU, NULL);
	struct mib_block wm = mib_set_block(set, 0), ctl = mib_set_block(set, 1);
	struct pkt_templates *t = __pf_tpl(1), *u;
	struct rte_mempool *mp;
	struct pkt_capture_status st;
	struct pkt_capture *c;
	struct rte_mbuf *m;
	char err[256];
	unsigned int i;

	(void)state;
	mp = pkt_pool_create("capfull", 1023, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
			     SOCKET_ID_ANY, 0);
	assert_non_null(mp);
	m = rte_pktmbuf_alloc(mp);
	assert_non_null(m);
	memcpy(rte_pktmbuf_append(m, FRAME), t->data[0], FRAME);
	__fsize(LIMIT);
	c = pkt_capture_create(__pf_path("cap.pcap"), 1, 0, 2048, 2048, ctl, err, sizeof(err));
	if (c == NULL)
		fail_msg("%s", err);
	assert_int_equal(pkt_capture_start(c), 0);
	for (i = 0; i < 1000; i++)	/* fewer than the ring's slots: no overflow */
		pkt_capture_packet(c, 0, m, rte_rdtsc(), &wm);
	pkt_capture_stop(c);
	__fsize(RLIM_INFINITY);
	pkt_capture_status(c, &st);
	assert_int_equal(st.error, -EFBIG);
	assert_int_equal(st.cut_error, 0);
	assert_int_equal(st.frames, WHOLE);
	assert_int_equal(mib_read(&ctl, MIB_F(CAPTURE, PACKETS)), WHOLE);
	assert_int_equal(mib_read(&wm, MIB_F(CAPTURE, PACKETS)), 0);
	assert_int_equal(mib_read(&wm, MIB_F(CAPTURE, OVERFLOW)), 0);
	assert_int_equal(mib_read(&ctl, MIB_F(CAPTURE, WRITEERRORS)) +
			 mib_read(&wm, MIB_F(CAPTURE, WRITEERRORS)), 1000 - WHOLE);
	/* what libpcap reads is what was counted */
	assert_int_equal(__size(__pf_path("cap.pcap")), 24 + WHOLE * REC);
	u = pkt_templates_from_pcap(__pf_path("cap.pcap"), 2048, NULL, err, sizeof(err));
	if (u == NULL)
		fail_msg("%s", err);
	assert_int_equal(u->n, WHOLE);
	pkt_templates_free(u);
	pkt_capture_free(c);

	/* a capture that is never full counts every frame written */
	c = pkt_capture_create("/dev/null", 1, 0, 2048, 2048, ctl, err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(pkt_capture_start(c), 0);
	for (i = 0; i < 100; i++)
		pkt_capture_packet(c, 0, m, rte_rdtsc(), &wm);
	pkt_capture_stop(c);
	pkt_capture_status(c, &st);
	assert_int_equal(st.error, 0);
	assert_int_equal(st.frames, 100);
	assert_int_equal(mib_read(&ctl, MIB_F(CAPTURE, PACKETS)), WHOLE + 100);
	pkt_capture_free(c);
	rte_pktmbuf_free(m);
	rte_mempool_free(mp);
	pkt_templates_free(t);
	mib_set_free(set);
}

/* The capture's refusals, each one line naming the file or what ran out. */
static void
test_capture_refused(void **state)
{
	struct mib_set *set = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	struct mib_block ctl = mib_set_block(set, 0);
	char err[256], want[256];

	(void)state;
	errno = 0;
	assert_null(pkt_capture_create(__pf_path("fifo"), 1, 0, 64, 2048, ctl, err,
				       sizeof(err)));
	snprintf(want, sizeof(want), "%s: a FIFO, not a regular file or a character "
		 "device", __pf_path("fifo"));
	assert_string_equal(err, want);
	assert_int_equal(errno, ENXIO);
	assert_null(pkt_capture_create("/dev/full", 1, 0, 64, 2048, ctl, err,
				       sizeof(err)));
	assert_string_equal(err, "/dev/full: write: No space left on device (0 of 24 "
			    "bytes written)");
	/* 2 x 2^20 slots of 64 KiB on a 256 MiB heap: out of memory, said as
	 * such (rte_malloc() sets no rte_errno: an earlier call's ENOENT
	 * used to be the reason given) */
	rte_errno = ENOENT;
	errno = 0;
	assert_null(pkt_capture_create(__pf_path("oom.pcap"), 2, 0, 1u << 20, 65535, ctl,
				       err, sizeof(err)));
	assert_int_equal(errno, ENOMEM);
	assert_non_null(strstr(err, "out of memory"));
	assert_null(strstr(err, "No such file"));
	assert_true(pkt_capture_bytes(2, 1u << 20, 65535) > (UINT64_C(2) << 20) * 65535);
	mib_set_free(set);
}

/* The templates: sized before anything is allocated, cancelled when asked;
 * a pcap template read as an input is (never a FIFO), bounded. */
static void
test_templates_bounds(void **state)
{
	struct pkt_templates *t;
	struct pkt_flow_conf c;
	volatile sig_atomic_t quit = 0;
	struct pkt_limits lim = { .cancel = &quit };
	char err[256], want[256];

	(void)state;
	pkt_flow_conf_default(&c);
	c.flows = 1000;
	c.pkt_size = 1000;
	lim.mem_max = pkt_templates_bytes(c.flows, c.pkt_size) - 1;
	errno = 0;
	assert_null(pkt_templates_build(&c, &lim));
	assert_int_equal(errno, ENOMEM);
	lim.mem_max++;
	t = pkt_templates_build(&c, &lim);
	assert_non_null(t);
	assert_int_equal(t->n, 1000);
	assert_int_equal(pkt_templates_to_pcap(t, __pf_path("t.pcap")), 0);
	pkt_templates_free(t);
	/* a million frames of 9000 bytes: 9.4 GB, about what it takes */
	assert_true(pkt_templates_bytes(1u << 20, 9000) >= (UINT64_C(1) << 20) * 9000);
	assert_true(pkt_templates_bytes(1u << 20, 9000) < (UINT64_C(1) << 20) * 9100);

	quit = 2;
	errno = 0;
	assert_null(pkt_templates_build(&c, &lim));
	assert_int_equal(errno, EINTR);
	lim.mem_max = 0;
	assert_null(pkt_templates_from_pcap(__pf_path("t.pcap"), 2048, &lim, err, sizeof(err)));
	assert_int_equal(errno, EINTR);
	quit = 0;
	/* the file's size over the bound: refused before a frame is read */
	lim.mem_max = (uint64_t)__size(__pf_path("t.pcap")) - 1;
	assert_null(pkt_templates_from_pcap(__pf_path("t.pcap"), 2048, &lim, err, sizeof(err)));
	assert_int_equal(errno, ENOMEM);
	assert_non_null(strstr(err, "(the file's size), more than the"));
	lim.mem_max++;
	t = pkt_templates_from_pcap(__pf_path("t.pcap"), 2048, &lim, err, sizeof(err));
	assert_non_null(t);
	pkt_templates_free(t);
	/* a FIFO: refused at once, not waited on */
	assert_null(pkt_templates_from_pcap(__pf_path("fifo"), 2048, NULL, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: a FIFO, not a regular file", __pf_path("fifo"));
	assert_string_equal(err, want);
}

static int
setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/test_pkt_files.XXXXXX");
	if (mkdtemp(dir) == NULL || mkfifo(__pf_path("fifo"), 0600) != 0)
		return -1;
	signal(SIGXFSZ, SIG_IGN);	/* RLIMIT_FSIZE: EFBIG, not a core */
	return fixture_eal_setup(state);
}

static int
teardown(void **state)
{
	static const char *const names[] = { "fifo", "full.pcap", "cap.pcap",
					     "oom.pcap", "t.pcap" };
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(__pf_path(names[i]));
	rmdir(dir);
	return fixture_eal_teardown(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcap_out_full),
		cmocka_unit_test(test_capture_full),
		cmocka_unit_test(test_capture_refused),
		cmocka_unit_test(test_templates_bounds),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
