/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mkpcap: write a pcap (with libpcap) of a known mix of valid and malformed
 * frames, and print the MIB counters the Linux receive path must move for
 * them, as JSON {"Group.Field": count, ...}. The expectations are written by
 * hand next to each frame: they are not computed by pktpath's own code.
 *
 * usage: mkpcap OUT.pcap DST_MAC [REPEAT [DROPS.pcap]]
 * DROPS.pcap receives, in order, the frames that do not end in a delivery
 * to a listener (what --capture-what drops must capture).
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "wire.h"

static uint8_t dmac[6];
static const uint8_t smac[6] = { 0x02, 0, 0, 0, 0, 0x02 };

struct exp { const char *field; unsigned long n; };
static struct exp exps[64];
static unsigned int n_exps;

static void
expect(const char *field, unsigned long n)
{
	unsigned int i;

	for (i = 0; i < n_exps; i++)
		if (strcmp(exps[i].field, field) == 0) {
			exps[i].n += n;
			return;
		}
	exps[n_exps].field = field;
	exps[n_exps].n = n;
	n_exps++;
}

/* Ethernet + IPv4 (20 bytes) + L4 payload of l4len bytes; frame padded to
 * 60. Returns the frame length. */
static size_t
ip_frame(uint8_t *f, const uint8_t *dst_mac, uint32_t src, uint32_t dst,
	 uint8_t proto, size_t l4len, uint16_t frag)
{
	uint8_t *ip = f + 14;
	size_t len = 14 + 20 + l4len;

	memset(f, 0, 1514);
	memcpy(f, dst_mac, 6);
	memcpy(f + 6, smac, 6);
	wire_put16(f + 12, 0x0800);
	ip[0] = 0x45;
	wire_put16(ip + 2, (uint16_t)(20 + l4len));
	wire_put16(ip + 6, frag);
	ip[8] = 64;
	ip[9] = proto;
	wire_put32(ip + 12, src);
	wire_put32(ip + 16, dst);
	wire_put16(ip + 10, wire_csum(wire_sum(ip, 20, 0)));
	return len < 60 ? 60 : len;
}

static size_t
udp_frame(uint8_t *f, const uint8_t *dst_mac, uint32_t dst, uint16_t dport,
	  int with_csum, int bad_csum)
{
	size_t len = ip_frame(f, dst_mac, 0xc6120001, dst, 17, 8 + 18, 0);
	uint8_t *u = f + 34;

	wire_put16(u, 1234);
	wire_put16(u + 2, dport);
	wire_put16(u + 4, 8 + 18);
	if (with_csum) {
		uint32_t ph = 0;
		uint16_t c;

		ph += 0xc612 + 0x0001 + (dst >> 16) + (dst & 0xffff) + 17 + 26;
		c = wire_csum(wire_sum(u, 26, ph));
		wire_put16(u + 6, (uint16_t)((c == 0 ? 0xffff : c) ^ (bad_csum ? 0x5a5a : 0)));
	}
	return len;
}

int
main(int argc, char **argv)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t other[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
	const uint32_t local = 0xc6130001;	/* 198.19.0.1 */
	uint8_t f[1600];
	unsigned int rep, r, i, total = 0;
	pcap_t *p;
	pcap_dumper_t *d, *dd = NULL;
	size_t len;

	if (argc < 3 || sscanf(argv[2], "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &dmac[0],
			       &dmac[1], &dmac[2], &dmac[3], &dmac[4], &dmac[5]) != 6) {
		fprintf(stderr, "usage: mkpcap OUT.pcap DST_MAC [REPEAT]\n");
		return 2;
	}
	rep = argc > 3 ? (unsigned int)atoi(argv[3]) : 1;
	p = pcap_open_dead(DLT_EN10MB, 65535);
	d = pcap_dump_open(p, argv[1]);
	if (d == NULL) {
		fprintf(stderr, "mkpcap: %s\n", pcap_geterr(p));
		return 1;
	}
	if (argc > 4) {
		dd = pcap_dump_open(p, argv[4]);
		if (dd == NULL) {
			fprintf(stderr, "mkpcap: %s\n", pcap_geterr(p));
			return 1;
		}
	}
#define EMIT(L) do { struct pcap_pkthdr h = { .caplen = (L), .len = (L) }; \
	pcap_dump((u_char *)d, &h, f); total++; } while (0)
	/* A frame that ends in a drop outcome: also into DROPS.pcap. */
#define EMITD(L) do { struct pcap_pkthdr h = { .caplen = (L), .len = (L) }; \
	pcap_dump((u_char *)d, &h, f); total++; \
	if (dd) pcap_dump((u_char *)dd, &h, f); } while (0)

	for (r = 0; r < rep; r++) {
		/* 10 valid UDP datagrams to a listener, with checksums. */
		for (i = 0; i < 10; i++) {
			len = udp_frame(f, dmac, local, 9, 1, 0);
			EMIT(len);
		}
		expect("Udp.InDatagrams", 10);
		/* 3 to a closed port: NoPorts. */
		for (i = 0; i < 3; i++) {
			len = udp_frame(f, dmac, local, 10, 0, 0);
			EMITD(len);
		}
		expect("Udp.NoPorts", 3);
		/* 2 with a broken IP header checksum. */
		for (i = 0; i < 2; i++) {
			len = udp_frame(f, dmac, local, 9, 0, 0);
			f[14 + 10] ^= 0xff;
			EMITD(len);
		}
		expect("Ip.InHdrErrors", 2);
		expect("IpExt.InCsumErrors", 2);
		/* 2 whose tot_len exceeds the frame. */
		for (i = 0; i < 2; i++) {
			len = ip_frame(f, dmac, 0xc6120001, local, 17, 400, 0);
			EMITD(100);
		}
		expect("IpExt.InTruncatedPkts", 2);
		/* 2 ARP. */
		for (i = 0; i < 2; i++) {
			memset(f, 0, 60);
			memcpy(f, bcast, 6);
			memcpy(f + 6, smac, 6);
			wire_put16(f + 12, 0x0806);
			EMITD(60);
		}
		expect("Rx.RxNotIp", 2);
		expect("Rx.RxBroadcast", 2);
		/* 1 to another host's MAC. */
		len = udp_frame(f, other, local, 9, 0, 0);
		EMITD(len);
		expect("Rx.RxOtherHost", 1);
		/* 1 to a non-local unicast address, forwarding off. */
		len = udp_frame(f, dmac, 0x0a000001, 9, 0, 0);
		EMITD(len);
		expect("Ip.InAddrErrors", 1);
		/* 1 UDP with a wrong checksum. */
		len = udp_frame(f, dmac, local, 9, 1, 1);
		EMITD(len);
		expect("Udp.InCsumErrors", 1);
		expect("Udp.InErrors", 1);
		/* 1 runt. */
		memset(f, 0, 60);
		EMITD(10);
		expect("Rx.RxNotIp", 1);
		expect("Rx.RxRunts", 1);
		/* 1 with IP version 6 in an IPv4 ethertype. */
		len = udp_frame(f, dmac, local, 9, 0, 0);
		f[14] = 0x65;
		EMITD(len);
		expect("Ip.InHdrErrors", 1);
		/* 1 first fragment. */
		len = ip_frame(f, dmac, 0xc6120001, local, 17, 26, 0x2000);
		EMITD(len);
		expect("Ip.ReasmReqds", 1);
		/* 1 unknown protocol. */
		len = ip_frame(f, dmac, 0xc6120001, local, 99, 26, 0);
		EMITD(len);
		expect("Ip.InUnknownProtos", 1);
		/* 1 ICMP echo request. */
		len = ip_frame(f, dmac, 0xc6120001, local, 1, 16, 0);
		f[34] = 8;
		wire_put16(f + 36, wire_csum(wire_sum(f + 34, 16, 0)));
		EMIT(len);
		expect("Icmp.InMsgs", 1);
		expect("Icmp.InEchos", 1);
		/* 1 TCP SYN with a valid checksum. */
		len = ip_frame(f, dmac, 0xc6120001, local, 6, 20, 0);
		wire_put16(f + 34, 4321);
		wire_put16(f + 36, 80);
		f[46] = 5 << 4;
		f[47] = 0x02;
		wire_put16(f + 50, wire_csum(wire_sum(f + 34, 20, 0xc612 + 0x0001 + 0xc613 + 0x0001 + 6 + 20)));
		EMIT(len);
		expect("Tcp.InSegs", 1);
		/* 1 valid datagram with a priority tag (VID 0): stripped, as
		 * Linux strips it with or without VLAN devices. */
		len = udp_frame(f + 4, dmac, local, 9, 0, 0);
		memmove(f, f + 4, 12);
		wire_put16(f + 12, 0x8100);
		wire_put16(f + 14, 0xa000);
		wire_put16(f + 16, 0x0800);
		EMIT(len + 4);
		expect("Udp.InDatagrams", 1);
		expect("Rx.RxVlan", 1);
		/* 1 valid datagram tagged VID 100: no VLAN device has it (none
		 * is declared), so it is PACKET_OTHERHOST, as on a host
		 * without one. */
		len = udp_frame(f + 4, dmac, local, 9, 0, 0);
		memmove(f, f + 4, 12);
		wire_put16(f + 12, 0x8100);
		wire_put16(f + 14, 100);
		wire_put16(f + 16, 0x0800);
		EMITD(len + 4);
		expect("Rx.RxOtherHost", 1);
		expect("Rx.RxVlan", 1);
		expect("Rx.RxVlanNoDevice", 1);
		/* 1 limited broadcast to a listener. */
		len = udp_frame(f, bcast, 0xffffffff, 9, 0, 0);
		EMIT(len);
		expect("Udp.InDatagrams", 1);
		expect("IpExt.InBcastPkts", 1);
		expect("Rx.RxBroadcast", 1);
		/* 1 all-zero frame, as net_null delivers. */
		memset(f, 0, 64);
		EMITD(64);
		expect("Rx.RxNotIp", 1);
	}
	pcap_dump_close(d);
	if (dd)
		pcap_dump_close(dd);
	pcap_close(p);

	expect("Rx.RxPackets", total);
	/* Everything that reached ip_rcv. */
	expect("Ip.InReceives", total - 6 * rep);
	/* Delivered to L4: 10+3+1(udp csum)+1 icmp +1 tcp +1 priority-tagged
	 * +1 bcast. */
	expect("Ip.InDelivers", 18ul * rep);
	printf("{");
	for (i = 0; i < n_exps; i++)
		printf("%s\"%s\": %lu", i ? ", " : "", exps[i].field, exps[i].n);
	printf("}\n");
	return 0;
}
