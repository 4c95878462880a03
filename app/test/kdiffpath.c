/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * kdiffpath: every frame of a pcap file through lib/path (path_l2 +
 * path_rcv_frag with one worker's reassembly queues, the code pktpath's
 * workers run), one line per frame with the MIB fields it moved:
 *
 *   INDEX Group.Field=DELTA Group.Field=DELTA ...
 *
 * The kernel-differential test (integration/kdiff.sh) compares these lines
 * with the kernel's per-frame /proc/net/snmp deltas to name the frames and
 * fields that disagree. Options: --mac MAC (the receiving port's),
 * --local A/L (repeatable), --mcast G (repeatable), --local6 A/L and
 * --mcast6 G (IPv6, repeatable), --udp-ports P,
 * --udplite-ports P, --netlabel on|off, --pim on|off, --vlan STACK
 * (repeatable: VLAN devices, as pktpath's --vlan), --frag-high BYTES (as
 * pktpath's), --frag-time S and --frag6-time S (ipfrag_time and
 * ip6frag_time, 3600 by default as kdiff.sh sets the namespace's),
 * --icmp-msgs-per-sec N, --icmp-msgs-burst N and --icmp6-ratelimit MS
 * (the ICMP rate limits, pktpath's options and defaults). The queues'
 * and the rate limits' clock is the frames' pcap timestamps: before a frame, the queues
 * whose time has passed by its timestamp time out, as the kernel's timers
 * fire in the pause before the frame is sent (kdiff6.py's fragment pass).
 * No EAL.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>
#include <rte_mbuf.h>

#include "mib.h"
#include "path.h"
#include "pkt.h"

#define KDIFF_US_PER_S UINT64_C(1000000) /* the pcap clock */

static int
__usage(const char *why)
{
	fprintf(stderr,
		"kdiffpath: %s\nusage: kdiffpath [--mac MAC] [--local A/L]... "
		"[--mcast G]... [--local6 A/L]... [--mcast6 G]... [--udp-ports P] "
		"[--udplite-ports P] [--netlabel on|off] "
		"[--pim on|off] [--vlan STACK]... [--frag-high BYTES] "
		"[--frag-time S] [--frag6-time S] [--icmp-msgs-per-sec N] "
		"[--icmp-msgs-burst N] [--icmp6-ratelimit MS] FILE.pcap\n",
		why);
	return 2;
}

static int
__onoff(const char *v, bool *out)
{
	if (strcmp(v, "on") == 0)
		*out = true;
	else if (strcmp(v, "off") == 0)
		*out = false;
	else
		return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	static struct path_conf conf;
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	/* The clock counts microseconds (the pcap timestamps'). */
	struct path_frag_conf fc = {
		.high_thresh = PATH_FRAG_HIGH_DEFAULT,
		.timeout = 3600 * KDIFF_US_PER_S,
		.high_thresh6 = PATH_FRAG_HIGH_DEFAULT,
		.timeout6 = 3600 * KDIFF_US_PER_S,
		.rlim = { .on = true,
			  .msgs_per_sec = PATH_RLIM_MSGS_PER_SEC_DEFAULT,
			  .msgs_burst = PATH_RLIM_MSGS_BURST_DEFAULT,
			  .ratelimit6_ms = PATH_RLIM_RATELIMIT6_DEFAULT,
			  .hz = KDIFF_US_PER_S,
			  .seed = PATH_RLIM_SEED }
	};
	struct path_frag *frag;
	struct mib_set *set;
	struct mib_block b;
	uint64_t before[MIB_FIELD_MAX], after[MIB_FIELD_MAX];
	const char *file = NULL;
	pcap_t *p;
	unsigned long idx = 0;
	int i, rc;

	path_conf_init(&conf);
	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		unsigned int m[6], plen = 32, port;
		char addr[32];
		struct in_addr a;

		if (argv[i][0] != '-') {
			file = argv[i];
			continue;
		}
		if (v == NULL)
			return __usage("option without a value");
		i++;
		if (strcmp(argv[i - 1], "--mac") == 0) {
			if (sscanf(v, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3],
				   &m[4], &m[5]) != 6)
				return __usage("bad --mac");
			for (rc = 0; rc < 6; rc++)
				conf.mac.addr_bytes[rc] = (uint8_t)m[rc];
		} else if (strcmp(argv[i - 1], "--local") == 0 ||
			   strcmp(argv[i - 1], "--mcast") == 0) {
			if (sscanf(v, "%31[0-9.]/%u", addr, &plen) < 1 ||
			    inet_pton(AF_INET, addr, &a) != 1 || plen > 32)
				return __usage("bad address");
			if (argv[i - 1][2] == 'l')
				rc = path_conf_add_local(&conf, ntohl(a.s_addr), (uint8_t)plen);
			else
				rc = path_conf_add_mcast(&conf, ntohl(a.s_addr));
			if (rc != 0)
				return __usage("address refused");
		} else if (strcmp(argv[i - 1], "--local6") == 0 ||
			   strcmp(argv[i - 1], "--mcast6") == 0) {
			struct in6_addr a6;
			char addr6[64];

			plen = 128;
			if (sscanf(v, "%63[0-9a-fA-F:.]/%u", addr6, &plen) < 1 ||
			    inet_pton(AF_INET6, addr6, &a6) != 1 || plen > 128)
				return __usage("bad IPv6 address");
			if (argv[i - 1][2] == 'l')
				rc = path_conf_add_local6(&conf, a6.s6_addr,
							  (uint8_t)plen);
			else
				rc = path_conf_add_mcast6(&conf, a6.s6_addr);
			if (rc != 0)
				return __usage("IPv6 address refused");
		} else if (strcmp(argv[i - 1], "--udp-ports") == 0 ||
			   strcmp(argv[i - 1], "--udplite-ports") == 0) {
			if (sscanf(v, "%u", &port) != 1 || port > 65535)
				return __usage("bad port");
			if (argv[i - 1][5] == 'l')
				path_conf_add_udplite_ports(&conf, (uint16_t)port, (uint16_t)port);
			else
				path_conf_add_udp_ports(&conf, (uint16_t)port, (uint16_t)port);
		} else if (strcmp(argv[i - 1], "--netlabel") == 0) {
			if (__onoff(v, &conf.netlabel) != 0)
				return __usage("bad --netlabel");
		} else if (strcmp(argv[i - 1], "--frag-high") == 0) {
			char *end;

			errno = 0;
			fc.high_thresh = strtoull(v, &end, 10);
			if (errno != 0 || *end != '\0' || end == v || v[0] == '-')
				return __usage("bad --frag-high");
		} else if (strcmp(argv[i - 1], "--frag-time") == 0 ||
			   strcmp(argv[i - 1], "--frag6-time") == 0) {
			char *end;
			unsigned long long secs;

			errno = 0;
			secs = strtoull(v, &end, 10);
			if (errno != 0 || *end != '\0' || end == v || v[0] == '-' ||
			    secs == 0 || secs > 86400)
				return __usage("bad --frag-time or --frag6-time "
					       "(seconds, 1 to 86400)");
			if (argv[i - 1][6] == '6')
				fc.timeout6 = secs * KDIFF_US_PER_S;
			else
				fc.timeout = secs * KDIFF_US_PER_S;
		} else if (strcmp(argv[i - 1], "--icmp-msgs-per-sec") == 0 ||
			   strcmp(argv[i - 1], "--icmp-msgs-burst") == 0 ||
			   strcmp(argv[i - 1], "--icmp6-ratelimit") == 0) {
			char *end;
			unsigned long long n;

			errno = 0;
			n = strtoull(v, &end, 10);
			if (errno != 0 || *end != '\0' || end == v || v[0] == '-' ||
			    n > INT32_MAX)
				return __usage(
					"bad --icmp-msgs-per-sec, --icmp-msgs-burst "
					"or --icmp6-ratelimit (0 to 2147483647)");
			if (argv[i - 1][6] == '6')
				fc.rlim.ratelimit6_ms = (uint32_t)n;
			else if (argv[i - 1][12] == 'p')
				fc.rlim.msgs_per_sec = (uint32_t)n;
			else
				fc.rlim.msgs_burst = (uint32_t)n;
		} else if (strcmp(argv[i - 1], "--pim") == 0) {
			if (__onoff(v, &conf.pim) != 0)
				return __usage("bad --pim");
		} else if (strcmp(argv[i - 1], "--vlan") == 0) {
			struct pkt_vlan_stack st;
			char why[256];

			if (pkt_parse_vlan_stack(v, 1, 4094, true, &st, why,
						 sizeof(why)) != 0)
				return __usage(why);
			if (path_vlans_add(&conf.vlan, &st) != 0)
				return __usage("--vlan: too many devices");
		} else {
			return __usage("unknown option");
		}
	}
	if (file == NULL)
		return __usage("no pcap file");
	p = pcap_open_offline(file, errbuf);
	if (p == NULL) {
		fprintf(stderr, "kdiffpath: %s: %s\n", file, errbuf);
		return 1;
	}
	set = mib_set_create(1, MIB_LAYOUT_PERCPU, NULL);
	frag = path_frag_create(&fc, -1);
	if (set == NULL || frag == NULL)
		return 1;
	b = mib_set_block(set, 0);
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		struct rte_mbuf mb;
		struct path_l2 l2;
		uint8_t *buf = malloc(h->caplen ? h->caplen : 1);
		unsigned int f;

		if (buf == NULL)
			return 1;
		memcpy(buf, data, h->caplen);
		memset(&mb, 0, sizeof(mb));
		mb.buf_addr = buf;
		mb.buf_len = (uint16_t)h->caplen;
		mb.data_len = (uint16_t)h->caplen;
		mb.pkt_len = h->caplen;
		mb.nb_segs = 1;
		mib_fold(set, MIB_FOLD_LCORE, before, NULL);
		/* the timers that fired before the frame came: its deltas */
		path_frag_tick(frag,
			       (uint64_t)h->ts.tv_sec * KDIFF_US_PER_S +
				       (uint64_t)h->ts.tv_usec,
			       &b);
		mib_add(&b, MIB_F(RX, PACKETS), 1);
		path_l2(&conf, &mb, &l2, &b);
		path_rcv_frag(&conf, &mb, &l2, &b, frag);
		mib_fold(set, MIB_FOLD_LCORE, after, NULL);
		printf("%lu", idx++);
		for (f = 0; f < MIB_FIELD_MAX; f++)
			if (mib_field_kind(f) == MIB_KIND_SUM && after[f] != before[f])
				printf(" %s.%s=%llu", mib_group_name(mib_field_group(f)),
				       mib_field_name(f),
				       (unsigned long long)(after[f] - before[f]));
		putchar('\n');
		free(buf);
	}
	if (rc != PCAP_ERROR_BREAK) {
		fprintf(stderr, "kdiffpath: %s: %s\n", file, pcap_geterr(p));
		return 1;
	}
	pcap_close(p);
	path_frag_free(frag);
	mib_set_free(set);
	return 0;
}
