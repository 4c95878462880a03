/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet capture: per-worker SP/SC rings of fixed-size slots filled by the
 * workers (pkt_capture_packet(), never blocking) and written to a pcap file
 * by a control thread (pcap_out.c), which counts what reached the file and
 * what a failed write lost (pkt.h, "Capture").
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>

#include "base.h"
#include "pkt.h"
#include "pkt_pvt.h"

RTE_LOG_REGISTER(pkt_capture_logtype, pktpath.capture, INFO);
#define PKT_CAP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, pkt_capture_logtype, "pktpath: capture: " fmt "\n", \
		##__VA_ARGS__)

const char *const pkt_capture_what_names[] = {
	[PKT_CAPTURE_DROPS] = "drops", [PKT_CAPTURE_MARKED] = "marked",
	[PKT_CAPTURE_ALL] = "all" };
static_assert(RTE_DIM(pkt_capture_what_names) == PKT_CAPTURE_MAX, "capture names");
/* The writer's fields off the workers' line (pkt.h, struct pkt_capture). */
static_assert(offsetof(struct pkt_capture, out) / RTE_CACHE_LINE_SIZE !=
	      offsetof(struct pkt_capture, taken) / RTE_CACHE_LINE_SIZE &&
	      offsetof(struct pkt_capture, failed) / RTE_CACHE_LINE_SIZE ==
	      offsetof(struct pkt_capture, taken) / RTE_CACHE_LINE_SIZE &&
	      offsetof(struct pkt_capture, stop) / RTE_CACHE_LINE_SIZE !=
	      offsetof(struct pkt_capture, snaplen) / RTE_CACHE_LINE_SIZE,
	      "capture: writer fields on the workers' line");

const char *
pkt_capture_what_name(enum pkt_capture_what w)
{
	return BASE_ENUM_NAME(pkt_capture_what_names, w);
}

int
pkt_capture_what_parse(const char *s, enum pkt_capture_what *out)
{
	int i = base_name_index(pkt_capture_what_names, PKT_CAPTURE_MAX, s);

	if (i < 0)
		return -EINVAL;
	*out = (enum pkt_capture_what)i;
	return 0;
}

uint64_t
pkt_capture_bytes(unsigned int n_workers, unsigned int ring_size, uint32_t snaplen)
{
	uint64_t slot = RTE_ALIGN_CEIL(sizeof(struct pkt_capture_slot) + (uint64_t)snaplen,
				       RTE_CACHE_LINE_SIZE);
	/* a ring: its header and a power of two of pointers (RING_F_EXACT_SZ
	 * rounds ring_size + 1 up) */
	uint64_t ring = (uint64_t)rte_ring_get_memsize(rte_align32pow2(ring_size + 1));

	return sizeof(struct pkt_capture) +
	       n_workers * (sizeof(struct pkt_capture_lane) + 2 * ring +
			    slot * ring_size);
}

struct pkt_capture *
pkt_capture_create(const char *file, unsigned int n_workers, uint64_t max,
		   unsigned int ring_size, uint32_t snaplen, struct mib_block ctl,
		   char *err, size_t errlen)
{
	struct pkt_capture *c;
	size_t slot_sz = RTE_ALIGN_CEIL(sizeof(struct pkt_capture_slot) + snaplen,
					RTE_CACHE_LINE_SIZE);
	unsigned int w, i;
	struct timeval tv;
	int rc;

	if (n_workers == 0 || ring_size < 2 || snaplen < 14 || snaplen > UINT16_MAX ||
	    ctl.base == NULL) {
		snprintf(err, errlen, "invalid capture parameters");
		errno = EINVAL;
		return NULL;
	}
	c = rte_zmalloc("pkt_capture", sizeof(*c) + n_workers * sizeof(c->lane[0]),
			RTE_CACHE_LINE_SIZE);
	if (c == NULL) {
		snprintf(err, errlen, "capture: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	c->max = max;
	c->snaplen = snaplen;
	c->n_lanes = n_workers;
	c->mib = ctl;
	c->file = strdup(file);
	if (c->file == NULL) {
		snprintf(err, errlen, "capture: out of memory");
		errno = ENOMEM;
		goto fail;
	}
	/* rte_zmalloc() sets neither errno nor rte_errno: its failure is said
	 * as what it is (rte_ring_create() does set rte_errno) */
	for (w = 0; w < n_workers; w++) {
		struct pkt_capture_lane *l = &c->lane[w];
		char name[RTE_RING_NAMESIZE];

		snprintf(name, sizeof(name), "capf%u_%p", w, (void *)c);
		l->free = rte_ring_create(name, ring_size, SOCKET_ID_ANY,
					  RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
		if (l->free == NULL)
			goto ring_fail;
		snprintf(name, sizeof(name), "capq%u_%p", w, (void *)c);
		l->full = rte_ring_create(name, ring_size, SOCKET_ID_ANY,
					  RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
		if (l->full == NULL)
			goto ring_fail;
		l->mem = rte_zmalloc("capture_slots", slot_sz * ring_size,
				     RTE_CACHE_LINE_SIZE);
		if (l->mem == NULL) {
			snprintf(err, errlen, "capture rings: out of memory (%u slots "
				 "of %zu bytes for worker %u)", ring_size, slot_sz, w);
			errno = ENOMEM;
			goto fail;
		}
		for (i = 0; i < ring_size; i++)
			rte_ring_sp_enqueue(l->free, (uint8_t *)l->mem + i * slot_sz);
	}
	c->out = malloc(sizeof(*c->out));
	if (c->out == NULL) {
		snprintf(err, errlen, "capture: out of memory");
		errno = ENOMEM;
		goto fail;
	}
	/* the file last: nothing is left behind by a refusal above */
	rc = pkt_pcap_out_open(c->out, file, snaplen, err, errlen);
	if (rc != 0) {
		free(c->out);
		c->out = NULL;
		errno = -rc;
		goto fail;
	}
	gettimeofday(&tv, NULL);
	c->tsc0 = rte_rdtsc();
	c->usec0 = (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
	return c;
ring_fail:
	/* rte_ring_create() sets rte_errno */
	snprintf(err, errlen, "capture rings: %s", rte_strerror(rte_errno));
	errno = rte_errno;
fail:
	rc = errno;
	pkt_capture_free(c);
	errno = rc;
	return NULL;
}

/* The first failed write: said once, and every frame chosen from now on is
 * counted instead of copied. Writer only. */
static void
__failed(struct pkt_capture *c, int rc)
{
	struct pkt_capture_status st;

	pkt_capture_status(c, &st);
	PKT_CAP_LOG(ERR, "%s: write failed after %" PRIu64 " frames: %s; the "
		    "capture stops (frames not written count Capture "
		    "CaptureWriteErrors)%s%s", c->file, st.frames, strerror(-rc),
		    st.cut_error ? "; cutting its partial last frame failed: " : "",
		    st.cut_error ? strerror(-st.cut_error) : "");
	/* Relaxed: it orders nothing; the workers only need to see it soon,
	 * and a frame one copies meanwhile is drained and counted here. */
	__atomic_store_n(&c->failed, rc, __ATOMIC_RELAXED);
}

/* Count the frames the file gained and, on the first failed write, those
 * it lost. queued: frames handed to the writer since the last call. */
static void
__account(struct pkt_capture *c, uint64_t frames0, uint64_t queued, int rc)
{
	uint64_t got = c->out->frames - frames0;

	if (got != 0)
		mib_add(&c->mib, MIB_F(CAPTURE, PACKETS), got);
	if (queued > got)
		mib_add(&c->mib, MIB_F(CAPTURE, WRITEERRORS), queued - got);
	if (rc != 0 && __atomic_load_n(&c->failed, __ATOMIC_RELAXED) == 0)
		__failed(c, rc);
}

/* Write everything queued (all of it is in the file or counted lost when
 * it returns); the number of frames taken off the rings. Writer only. */
static unsigned int
__drain(struct pkt_capture *c)
{
	uint64_t hz = rte_get_tsc_hz();
	uint64_t frames0 = c->out->frames, queued = c->out->n_buf;
	unsigned int w, n, i, total = 0;
	void *slots[64];
	int rc = c->out->err;

	for (w = 0; w < c->n_lanes; w++) {
		struct pkt_capture_lane *l = &c->lane[w];

		while ((n = rte_ring_sc_dequeue_burst(l->full, slots, RTE_DIM(slots),
						      NULL)) > 0) {
			for (i = 0; i < n; i++) {
				const struct pkt_capture_slot *s = slots[i];
				uint64_t us = c->usec0 +
					      base_scale(s->tsc - c->tsc0, 1000000u, hz);

				if (pkt_pcap_out_add(c->out, us, s->caplen, s->len,
						     s->data) != 0)
					rc = c->out->err;
			}
			rte_ring_sp_enqueue_bulk(l->free, slots, n, NULL);
			queued += n;
			total += n;
		}
	}
	/* Idle (or stopping): write what is queued, so that the file is
	 * current when frames are few. */
	if (total == 0 && pkt_pcap_out_flush(c->out) != 0)
		rc = c->out->err;
	__account(c, frames0, queued - c->out->n_buf, rc);
	return total;
}

static void *
__writer(void *arg)
{
	struct pkt_capture *c = arg;
	struct timespec tick = { 0, 1000 * 1000 };

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		if (__drain(c) == 0)
			nanosleep(&tick, NULL);
	}
	return NULL;
}

int
pkt_capture_start(struct pkt_capture *c)
{
	int rc = rte_ctrl_thread_create(&c->tid, "pktpath-capture", NULL,
					__writer, c);

	if (rc != 0)		/* a negative errno */
		return rc;
	c->running = true;
	return 0;
}

void
pkt_capture_stop(struct pkt_capture *c)
{
	uint64_t frames0, queued;
	int rc;

	if (c == NULL)
		return;
	if (c->running) {
		__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
		pthread_join(c->tid, NULL);
		c->running = false;
	}
	if (c->out != NULL && c->out->fd >= 0) {
		while (__drain(c) != 0)
			;
		/* the last step of the file: a delayed error shows here */
		frames0 = c->out->frames;
		queued = c->out->n_buf;
		rc = pkt_pcap_out_close(c->out);
		__account(c, frames0, queued, rc);
	}
}

void
pkt_capture_status(const struct pkt_capture *c, struct pkt_capture_status *st)
{
	memset(st, 0, sizeof(*st));
	if (c == NULL || c->out == NULL)
		return;
	st->frames = c->out->frames;
	st->error = c->out->err;
	st->cut_error = c->out->cut_err;
}

void
pkt_capture_free(struct pkt_capture *c)
{
	unsigned int w;

	if (c == NULL)
		return;
	pkt_capture_stop(c);
	free(c->out);
	free(c->file);
	for (w = 0; w < c->n_lanes; w++) {
		rte_ring_free(c->lane[w].free);
		rte_ring_free(c->lane[w].full);
		rte_free(c->lane[w].mem);
	}
	rte_free(c);
}
