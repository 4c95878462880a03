/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: any bytes as one frame through the receive path. No crash, no
 * read beyond the frame (the frame is copied into an exactly-sized heap
 * buffer so that AddressSanitizer sees any over-read), exactly one terminal
 * outcome, and the conservation laws after every input (the reassembly
 * laws among them: every fragment ip_defrag or ipv6_frag_rcv takes is
 * queued, dropped, completes its datagram or fails a header check, and a
 * queue's expiry moves none of those).
 *
 * The path is the workers' (path_rcv_frag()) with IPv4 and IPv6
 * reassembly queues that live across inputs, so that fragments of different inputs meet in
 * them (in any order, overlapping, duplicated): a small memory limit (its
 * refusals are reached), and a clock that moves one tick an input with a
 * timeout of FRAG_TIMEOUT ticks (queues expire). A queue holds copies of
 * its fragments' data, never the inputs' buffers (freed after each).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "mib.h"
#include "path.h"


static struct path_conf conf;
static struct mib_set *set;
static struct path_frag *frag;
static uint64_t clock_ticks;

#define FRAG_TIMEOUT 4096 /* inputs a queue lives */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const struct rte_ether_addr mac = {{ 0x02, 0, 0, 0, 0, 0x01 }};
	static const uint8_t local6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

	(void)argc;
	(void)argv;
	path_conf_init(&conf);
	conf.mac = mac;
	path_conf_add_local(&conf, 0xc6130001, 24);	/* 198.19.0.1/24 */
	path_conf_add_mcast(&conf, 0xe0000005);
	path_conf_add_local6(&conf, local6, 64); /* 2001:db8::1/64 */
	path_conf_add_udp_ports(&conf, 9, 9);
	path_conf_add_udplite_ports(&conf, 9, 9);
	set = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	frag = path_frag_create(
		&(const struct path_frag_conf){ .high_thresh = 64 * 1024,
						.timeout = FRAG_TIMEOUT,
						.high_thresh6 = 64 * 1024,
						.timeout6 = FRAG_TIMEOUT },
		-1);
	return set == NULL || frag == NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_mbuf m;
	struct path_l2 l2;
	struct mib_block b = mib_set_block(set, 0);
	uint64_t before[MIB_FIELD_MAX], after[MIB_FIELD_MAX];
	uint8_t *buf;
	unsigned int out, f, moved = 0;

	if (size > 9000)
		return 0;
	buf = malloc(size ? size : 1);
	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	memset(&m, 0, sizeof(m));
	m.buf_addr = buf;
	m.buf_len = (uint16_t)size;
	m.data_off = 0;
	m.data_len = (uint16_t)size;
	m.pkt_len = (uint32_t)size;
	m.nb_segs = 1;

	/* a queue's expiry moves no terminal (its fragments ended in
	 * IpFragQueued or Ip6FragQueued when they came): tick before the
	 * snapshot */
	path_frag_tick(frag, ++clock_ticks, &b);
	mib_fold(set, MIB_FOLD_LCORE, before, NULL);
	mib_add(&b, MIB_F(RX, PACKETS), 1);
	path_l2(&conf, &m, &l2, &b);
	out = path_rcv_frag(&conf, &m, &l2, &b, frag);
	mib_fold(set, MIB_FOLD_FIELD, after, NULL);
	if (mib_check_conservation(after, NULL, 0) != 0)
		abort();
	/* The outcome path_rcv names moved by exactly one... */
	if (out >= MIB_FIELD_MAX || after[out] != before[out] + 1)
		abort();
	/* ...and it is the only terminal that moved: with RxPackets up by one,
	 * the conservation laws leave room for no second terminal, so the
	 * sum of all terminal outcomes moved by exactly one. */
	for (f = 0; f < mib_n_terminals; f++)
		moved += (unsigned int)(after[mib_terminals[f]] - before[mib_terminals[f]]);
	if (moved != 1)
		abort();
	free(buf);
	return 0;
}
