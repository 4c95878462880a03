/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcapcount FILE EXPR [NETMASK]: the number of frames of FILE that
 * libpcap's own pcap_offline_filter matches with EXPR, compiled as pktpath
 * (and "tcpdump -r") compiles it: DLT_EN10MB, optimised, netmask 0 unless
 * NETMASK (A.B.C.D) is given. The reference of the pcap-filter
 * differential test.
 */
#include <arpa/inet.h>
#include <stdio.h>

#include <pcap/pcap.h>

int
main(int argc, char **argv)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	struct bpf_program fp;
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned long n = 0;
	struct in_addr mask = { 0 };
	pcap_t *p;

	if (argc < 3 || argc > 4 || (argc == 4 && inet_pton(AF_INET, argv[3], &mask) != 1)) {
		fprintf(stderr, "usage: pcapcount FILE EXPR [NETMASK]\n");
		return 2;
	}
	p = pcap_open_offline(argv[1], ebuf);
	if (p == NULL) {
		fprintf(stderr, "pcapcount: %s\n", ebuf);
		return 1;
	}
	if (pcap_compile(p, &fp, argv[2], 1, ntohl(mask.s_addr)) != 0) {
		fprintf(stderr, "pcapcount: %s\n", pcap_geterr(p));
		return 1;
	}
	while (pcap_next_ex(p, &h, &data) == 1)
		n += pcap_offline_filter(&fp, h, data) != 0;
	printf("%lu\n", n);
	pcap_freecode(&fp);
	pcap_close(p);
	return 0;
}
