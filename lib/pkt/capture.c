/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet capture: per-worker SP/SC rings of fixed-size slots filled by the
 * workers (pkt_capture_packet(), never blocking) and written to a pcap file
 * by a control thread with pcap_dump.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <pcap/pcap.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "base.h"
#include "pkt.h"

const char *const pkt_capture_what_names[] = {
	[PKT_CAPTURE_DROPS] = "drops", [PKT_CAPTURE_MARKED] = "marked",
	[PKT_CAPTURE_ALL] = "all" };
static_assert(RTE_DIM(pkt_capture_what_names) == PKT_CAPTURE_MAX, "capture names");
/* The writer's fields off the workers' line (pkt.h, struct pkt_capture). */
static_assert(offsetof(struct pkt_capture, written) / RTE_CACHE_LINE_SIZE !=
	      offsetof(struct pkt_capture, taken) / RTE_CACHE_LINE_SIZE &&
	      offsetof(struct pkt_capture, stop) / RTE_CACHE_LINE_SIZE !=
	      offsetof(struct pkt_capture, snaplen) / RTE_CACHE_LINE_SIZE,
	      "capture: writer fields on the workers' line");

const char *
pkt_capture_what_name(enum pkt_capture_what w)
{
	return (unsigned int)w < PKT_CAPTURE_MAX ? pkt_capture_what_names[w] : "?";
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

struct pkt_capture *
pkt_capture_create(const char *file, unsigned int n_workers, uint64_t max,
		   unsigned int ring_size, uint32_t snaplen, char *err,
		   size_t errlen)
{
	char qf[2 * BASE_QUOTE_LEN], qe[2 * BASE_QUOTE_LEN];
	struct pkt_capture *c;
	size_t slot_sz = RTE_ALIGN_CEIL(sizeof(struct pkt_capture_slot) + snaplen,
					RTE_CACHE_LINE_SIZE);
	unsigned int w, i;
	struct timeval tv;

	if (n_workers == 0 || ring_size < 2 || snaplen < 14) {
		snprintf(err, errlen, "invalid capture parameters");
		return NULL;
	}
	c = rte_zmalloc("pkt_capture", sizeof(*c) + n_workers * sizeof(c->lane[0]),
			RTE_CACHE_LINE_SIZE);
	if (c == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	c->max = max;
	c->snaplen = snaplen;
	c->n_lanes = n_workers;
	c->pcap = pcap_open_dead(DLT_EN10MB, (int)snaplen);
	if (c->pcap == NULL) {
		snprintf(err, errlen, "%s: pcap_open_dead failed",
			 base_quote(qf, sizeof(qf), file));
		goto fail;
	}
	c->dumper = pcap_dump_open(c->pcap, file);
	if (c->dumper == NULL) {
		/* libpcap's reason may name the file: both quoted */
		snprintf(err, errlen, "%s: %s", base_quote(qf, sizeof(qf), file),
			 base_quote(qe, sizeof(qe), pcap_geterr(c->pcap)));
		goto fail;
	}
	for (w = 0; w < n_workers; w++) {
		struct pkt_capture_lane *l = &c->lane[w];
		char name[RTE_RING_NAMESIZE];

		snprintf(name, sizeof(name), "capf%u_%p", w, (void *)c);
		l->free = rte_ring_create(name, ring_size, SOCKET_ID_ANY,
					  RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
		snprintf(name, sizeof(name), "capq%u_%p", w, (void *)c);
		l->full = rte_ring_create(name, ring_size, SOCKET_ID_ANY,
					  RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
		l->mem = rte_zmalloc("capture_slots", slot_sz * ring_size,
				     RTE_CACHE_LINE_SIZE);
		if (l->free == NULL || l->full == NULL || l->mem == NULL) {
			snprintf(err, errlen, "capture rings: %s", rte_strerror(rte_errno));
			goto fail;
		}
		for (i = 0; i < ring_size; i++)
			rte_ring_sp_enqueue(l->free, (uint8_t *)l->mem + i * slot_sz);
	}
	gettimeofday(&tv, NULL);
	c->tsc0 = rte_rdtsc();
	c->usec0 = (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
	return c;
fail:
	pkt_capture_free(c);
	return NULL;
}

/* Write everything queued; returns the number written. Writer only. */
static unsigned int
__drain(struct pkt_capture *c)
{
	uint64_t hz = rte_get_tsc_hz();
	unsigned int w, n, i, total = 0;
	void *slots[64];

	for (w = 0; w < c->n_lanes; w++) {
		struct pkt_capture_lane *l = &c->lane[w];

		while ((n = rte_ring_sc_dequeue_burst(l->full, slots, RTE_DIM(slots),
						      NULL)) > 0) {
			for (i = 0; i < n; i++) {
				const struct pkt_capture_slot *s = slots[i];
				uint64_t us = c->usec0 + (s->tsc - c->tsc0) * 1000000u / hz;
				struct pcap_pkthdr h;

				h.ts.tv_sec = (time_t)(us / 1000000u);
				h.ts.tv_usec = (suseconds_t)(us % 1000000u);
				h.caplen = s->caplen;
				h.len = s->len;
				pcap_dump(c->dumper, &h, s->data);
			}
			rte_ring_sp_enqueue_bulk(l->free, slots, n, NULL);
			c->written += n;
			total += n;
		}
	}
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
	if (c == NULL)
		return;
	if (c->running) {
		__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
		pthread_join(c->tid, NULL);
		c->running = false;
	}
	if (c->dumper != NULL) {
		__drain(c);
		pcap_dump_close(c->dumper);
		c->dumper = NULL;
	}
}

void
pkt_capture_free(struct pkt_capture *c)
{
	unsigned int w;

	if (c == NULL)
		return;
	pkt_capture_stop(c);
	if (c->pcap != NULL)
		pcap_close(c->pcap);
	for (w = 0; w < c->n_lanes; w++) {
		rte_ring_free(c->lane[w].free);
		rte_ring_free(c->lane[w].full);
		rte_free(c->lane[w].mem);
	}
	rte_free(c);
}
