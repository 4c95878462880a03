/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The layout of /proc/net/snmp6 (/snmp6), as net/ipv6/proc.c (Linux 6.18)
 * prints it: one "%-32s\t%lu" line per counter, the name carrying its group
 * (snmp6_seq_show): Ip6 (snmp6_ipstats_list), Icmp6 (snmp6_icmp6_list), the
 * ICMPv6 messages by type (snmp6_seq_show_icmpv6msg: the named types always,
 * In then Out, then every non-zero type by number), Udp6, then UdpLite6
 * without IgnoredMulti (snmp6_udplite6_list leaves it out).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "export_pvt.h"

static void
__snmp6_line(FILE *out, const char *name, uint64_t v)
{
	fprintf(out, "%-32s\t%" PRIu64 "\n", name, v);
}

/* The fields of group g, each under its snmp6 name; skip: a field left out. */
static void
__snmp6_group(FILE *out, enum mib_group g, const uint64_t *v, unsigned int skip)
{
	unsigned int f, end = mib_group_first(g) + mib_group_count(g);
	char name[MIB_NAME_MAX + 16];

	for (f = mib_group_first(g); f < end; f++)
		if (f != skip)
			__snmp6_line(out, mib_field_linux_name(f, name, sizeof(name)),
				     v[f]);
}

/* snmp6_seq_show_icmpv6msg over msg (the 512 counters, In then Out). */
void
__export_snmp6_icmp6msg(FILE *out, const uint64_t *msg)
{
	char name[48];
	unsigned int i;

	for (i = 0; i < MIB_ICMP6MSG_MAX; i++) {
		const char *p = mib_icmp6_type_name(i & 0xff);

		if (p == NULL)
			continue;
		snprintf(name, sizeof(name), "Icmp6%s%s", i & 0x100 ? "Out" : "In", p);
		__snmp6_line(out, name, msg[i]);
	}
	for (i = 0; i < MIB_ICMP6MSG_MAX; i++) {
		if (msg[i] == 0)
			continue;
		snprintf(name, sizeof(name), "Icmp6%sType%u", i & 0x100 ? "Out" : "In",
			 i & 0xff);
		__snmp6_line(out, name, msg[i]);
	}
}

int
__export_snmp6(FILE *out, const uint64_t *v)
{
	__snmp6_group(out, MIB_GRP_IP6, v, MIB_FIELD_MAX);
	__snmp6_group(out, MIB_GRP_ICMP6, v, MIB_FIELD_MAX);
	__export_snmp6_icmp6msg(out, v + MIB_BASE_ICMP6MSG);
	__snmp6_group(out, MIB_GRP_UDP6, v, MIB_FIELD_MAX);
	__snmp6_group(out, MIB_GRP_UDPLITE6, v, MIB_F(UDPLITE6, IGNOREDMULTI));
	return ferror(out) ? -EIO : 0;
}
