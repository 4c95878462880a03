/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MIB schema (names exactly as Linux prints them), sets of per-lcore blocks,
 * the two fold strategies, baseline deltas and the conservation laws.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "mib.h"

static const char *const ip_names[] = {
	[MIB_IP_FORWARDING] = "Forwarding",
	[MIB_IP_DEFAULTTTL] = "DefaultTTL",
	[MIB_IP_INRECEIVES] = "InReceives",
	[MIB_IP_INHDRERRORS] = "InHdrErrors",
	[MIB_IP_INADDRERRORS] = "InAddrErrors",
	[MIB_IP_FORWDATAGRAMS] = "ForwDatagrams",
	[MIB_IP_INUNKNOWNPROTOS] = "InUnknownProtos",
	[MIB_IP_INDISCARDS] = "InDiscards",
	[MIB_IP_INDELIVERS] = "InDelivers",
	[MIB_IP_OUTREQUESTS] = "OutRequests",
	[MIB_IP_OUTDISCARDS] = "OutDiscards",
	[MIB_IP_OUTNOROUTES] = "OutNoRoutes",
	[MIB_IP_REASMTIMEOUT] = "ReasmTimeout",
	[MIB_IP_REASMREQDS] = "ReasmReqds",
	[MIB_IP_REASMOKS] = "ReasmOKs",
	[MIB_IP_REASMFAILS] = "ReasmFails",
	[MIB_IP_FRAGOKS] = "FragOKs",
	[MIB_IP_FRAGFAILS] = "FragFails",
	[MIB_IP_FRAGCREATES] = "FragCreates",
	[MIB_IP_OUTTRANSMITS] = "OutTransmits",
};
static_assert(RTE_DIM(ip_names) == MIB_IP_MAX, "Ip names and enum disagree");

static const char *const icmp_names[] = {
	[MIB_ICMP_INMSGS] = "InMsgs",
	[MIB_ICMP_INERRORS] = "InErrors",
	[MIB_ICMP_INCSUMERRORS] = "InCsumErrors",
	[MIB_ICMP_INDESTUNREACHS] = "InDestUnreachs",
	[MIB_ICMP_INTIMEEXCDS] = "InTimeExcds",
	[MIB_ICMP_INPARMPROBS] = "InParmProbs",
	[MIB_ICMP_INSRCQUENCHS] = "InSrcQuenchs",
	[MIB_ICMP_INREDIRECTS] = "InRedirects",
	[MIB_ICMP_INECHOS] = "InEchos",
	[MIB_ICMP_INECHOREPS] = "InEchoReps",
	[MIB_ICMP_INTIMESTAMPS] = "InTimestamps",
	[MIB_ICMP_INTIMESTAMPREPS] = "InTimestampReps",
	[MIB_ICMP_INADDRMASKS] = "InAddrMasks",
	[MIB_ICMP_INADDRMASKREPS] = "InAddrMaskReps",
	[MIB_ICMP_OUTMSGS] = "OutMsgs",
	[MIB_ICMP_OUTERRORS] = "OutErrors",
	[MIB_ICMP_OUTRATELIMITGLOBAL] = "OutRateLimitGlobal",
	[MIB_ICMP_OUTRATELIMITHOST] = "OutRateLimitHost",
	[MIB_ICMP_OUTDESTUNREACHS] = "OutDestUnreachs",
	[MIB_ICMP_OUTTIMEEXCDS] = "OutTimeExcds",
	[MIB_ICMP_OUTPARMPROBS] = "OutParmProbs",
	[MIB_ICMP_OUTSRCQUENCHS] = "OutSrcQuenchs",
	[MIB_ICMP_OUTREDIRECTS] = "OutRedirects",
	[MIB_ICMP_OUTECHOS] = "OutEchos",
	[MIB_ICMP_OUTECHOREPS] = "OutEchoReps",
	[MIB_ICMP_OUTTIMESTAMPS] = "OutTimestamps",
	[MIB_ICMP_OUTTIMESTAMPREPS] = "OutTimestampReps",
	[MIB_ICMP_OUTADDRMASKS] = "OutAddrMasks",
	[MIB_ICMP_OUTADDRMASKREPS] = "OutAddrMaskReps",
};
static_assert(RTE_DIM(icmp_names) == MIB_ICMP_MAX, "Icmp names and enum disagree");

/* InType0 .. InType255, as proc.c's icmpmsg_put_line prints them. */
#define T4(n) "InType" #n
#define ICMPMSG_ROW(t) T4(t##0), T4(t##1), T4(t##2), T4(t##3), T4(t##4), \
	T4(t##5), T4(t##6), T4(t##7), T4(t##8), T4(t##9)
static const char *const icmpmsg_names[] = {
	"InType0", "InType1", "InType2", "InType3", "InType4", "InType5",
	"InType6", "InType7", "InType8", "InType9",
	ICMPMSG_ROW(1), ICMPMSG_ROW(2), ICMPMSG_ROW(3), ICMPMSG_ROW(4),
	ICMPMSG_ROW(5), ICMPMSG_ROW(6), ICMPMSG_ROW(7), ICMPMSG_ROW(8),
	ICMPMSG_ROW(9), ICMPMSG_ROW(10), ICMPMSG_ROW(11), ICMPMSG_ROW(12),
	ICMPMSG_ROW(13), ICMPMSG_ROW(14), ICMPMSG_ROW(15), ICMPMSG_ROW(16),
	ICMPMSG_ROW(17), ICMPMSG_ROW(18), ICMPMSG_ROW(19), ICMPMSG_ROW(20),
	ICMPMSG_ROW(21), ICMPMSG_ROW(22), ICMPMSG_ROW(23), ICMPMSG_ROW(24),
	T4(250), T4(251), T4(252), T4(253), T4(254), T4(255),
};
#undef ICMPMSG_ROW
#undef T4
static_assert(RTE_DIM(icmpmsg_names) == MIB_ICMPMSG_MAX, "IcmpMsg names and enum disagree");

static const char *const tcp_names[] = {
	[MIB_TCP_RTOALGORITHM] = "RtoAlgorithm",
	[MIB_TCP_RTOMIN] = "RtoMin",
	[MIB_TCP_RTOMAX] = "RtoMax",
	[MIB_TCP_MAXCONN] = "MaxConn",
	[MIB_TCP_ACTIVEOPENS] = "ActiveOpens",
	[MIB_TCP_PASSIVEOPENS] = "PassiveOpens",
	[MIB_TCP_ATTEMPTFAILS] = "AttemptFails",
	[MIB_TCP_ESTABRESETS] = "EstabResets",
	[MIB_TCP_CURRESTAB] = "CurrEstab",
	[MIB_TCP_INSEGS] = "InSegs",
	[MIB_TCP_OUTSEGS] = "OutSegs",
	[MIB_TCP_RETRANSSEGS] = "RetransSegs",
	[MIB_TCP_INERRS] = "InErrs",
	[MIB_TCP_OUTRSTS] = "OutRsts",
	[MIB_TCP_INCSUMERRORS] = "InCsumErrors",
};
static_assert(RTE_DIM(tcp_names) == MIB_TCP_MAX, "Tcp names and enum disagree");

static const char *const udp_names[] = {
	[MIB_UDP_INDATAGRAMS] = "InDatagrams",
	[MIB_UDP_NOPORTS] = "NoPorts",
	[MIB_UDP_INERRORS] = "InErrors",
	[MIB_UDP_OUTDATAGRAMS] = "OutDatagrams",
	[MIB_UDP_RCVBUFERRORS] = "RcvbufErrors",
	[MIB_UDP_SNDBUFERRORS] = "SndbufErrors",
	[MIB_UDP_INCSUMERRORS] = "InCsumErrors",
	[MIB_UDP_IGNOREDMULTI] = "IgnoredMulti",
	[MIB_UDP_MEMERRORS] = "MemErrors",
};
static_assert(RTE_DIM(udp_names) == MIB_UDP_MAX, "Udp names and enum disagree");

static const char *const udplite_names[] = {
	[MIB_UDPLITE_INDATAGRAMS] = "InDatagrams",
	[MIB_UDPLITE_NOPORTS] = "NoPorts",
	[MIB_UDPLITE_INERRORS] = "InErrors",
	[MIB_UDPLITE_OUTDATAGRAMS] = "OutDatagrams",
	[MIB_UDPLITE_RCVBUFERRORS] = "RcvbufErrors",
	[MIB_UDPLITE_SNDBUFERRORS] = "SndbufErrors",
	[MIB_UDPLITE_INCSUMERRORS] = "InCsumErrors",
	[MIB_UDPLITE_IGNOREDMULTI] = "IgnoredMulti",
	[MIB_UDPLITE_MEMERRORS] = "MemErrors",
};
static_assert(RTE_DIM(udplite_names) == MIB_UDPLITE_MAX, "UdpLite names and enum disagree");

static const char *const ipext_names[] = {
	[MIB_IPEXT_INNOROUTES] = "InNoRoutes",
	[MIB_IPEXT_INTRUNCATEDPKTS] = "InTruncatedPkts",
	[MIB_IPEXT_INMCASTPKTS] = "InMcastPkts",
	[MIB_IPEXT_OUTMCASTPKTS] = "OutMcastPkts",
	[MIB_IPEXT_INBCASTPKTS] = "InBcastPkts",
	[MIB_IPEXT_OUTBCASTPKTS] = "OutBcastPkts",
	[MIB_IPEXT_INOCTETS] = "InOctets",
	[MIB_IPEXT_OUTOCTETS] = "OutOctets",
	[MIB_IPEXT_INMCASTOCTETS] = "InMcastOctets",
	[MIB_IPEXT_OUTMCASTOCTETS] = "OutMcastOctets",
	[MIB_IPEXT_INBCASTOCTETS] = "InBcastOctets",
	[MIB_IPEXT_OUTBCASTOCTETS] = "OutBcastOctets",
	[MIB_IPEXT_INCSUMERRORS] = "InCsumErrors",
	[MIB_IPEXT_INNOECTPKTS] = "InNoECTPkts",
	[MIB_IPEXT_INECT1PKTS] = "InECT1Pkts",
	[MIB_IPEXT_INECT0PKTS] = "InECT0Pkts",
	[MIB_IPEXT_INCEPKTS] = "InCEPkts",
	[MIB_IPEXT_REASMOVERLAPS] = "ReasmOverlaps",
};
static_assert(RTE_DIM(ipext_names) == MIB_IPEXT_MAX, "IpExt names and enum disagree");

static const char *const rx_names[] = {
	[MIB_RX_PACKETS] = "RxPackets",
	[MIB_RX_OCTETS] = "RxOctets",
	[MIB_RX_BURSTS] = "RxBursts",
	[MIB_RX_EMPTYPOLLS] = "RxEmptyPolls",
	[MIB_RX_NOTIP] = "RxNotIp",
	[MIB_RX_RUNTS] = "RxRunts",
	[MIB_RX_VLAN] = "RxVlan",
	[MIB_RX_OTHERHOST] = "RxOtherHost",
	[MIB_RX_BROADCAST] = "RxBroadcast",
	[MIB_RX_MULTICAST] = "RxMulticast",
	[MIB_RX_NOPATH] = "RxNoPath",
	[MIB_RX_NOMBUF] = "RxNoMbuf",
	[MIB_RX_BUSYCYCLES] = "BusyCycles",
	[MIB_RX_IDLECYCLES] = "IdleCycles",
};
static_assert(RTE_DIM(rx_names) == MIB_RX_MAX, "Rx names and enum disagree");

static const char *const path_names[] = {
	[MIB_PATH_IPINVALIDSOURCE] = "IpInvalidSource",
	[MIB_PATH_IPINVALIDDEST] = "IpInvalidDest",
	[MIB_PATH_IPMCASTNOTJOINED] = "IpMcastNotJoined",
	[MIB_PATH_IPSRCROUTE] = "IpSrcRoute",
	[MIB_PATH_TCPNOTHOST] = "TcpNotHost",
	[MIB_PATH_IGMPDELIVERED] = "IgmpDelivered",
	[MIB_PATH_PIMDELIVERED] = "PimDelivered",
};
static_assert(RTE_DIM(path_names) == MIB_PATH_MAX, "Path names and enum disagree");

static const char *const ingress_names[] = {
	[MIB_INGRESS_PACKETS] = "IngressPackets",
	[MIB_INGRESS_MATCHED] = "IngressMatched",
	[MIB_INGRESS_PASSED] = "IngressPassed",
	[MIB_INGRESS_DROPPED] = "IngressDropped",
	[MIB_INGRESS_MARKED] = "IngressMarked",
	[MIB_INGRESS_LOCKACQUIRES] = "LockAcquires",
	[MIB_INGRESS_LOCKCONTENDED] = "LockContended",
	[MIB_INGRESS_RCUQUIESCENT] = "RcuQuiescent",
	[MIB_INGRESS_RULEUPDATES] = "RuleUpdates",
	[MIB_INGRESS_GRACEPERIODS] = "GracePeriods",
	[MIB_INGRESS_GRACEPERIODMAXUS] = "GracePeriodMaxUs",
	[MIB_INGRESS_MODEFLIPS] = "ModeFlips",
};
static_assert(RTE_DIM(ingress_names) == MIB_INGRESS_MAX, "Ingress names and enum disagree");

static const char *const peer_names[] = {
	[MIB_PEER_LOOKUPS] = "PeerLookups",
	[MIB_PEER_HITS] = "PeerHits",
	[MIB_PEER_MISSES] = "PeerMisses",
	[MIB_PEER_GETS] = "PeerGets",
	[MIB_PEER_PUTS] = "PeerPuts",
};
static_assert(RTE_DIM(peer_names) == MIB_PEER_MAX, "Peer names and enum disagree");

static const char *const capture_names[] = {
	[MIB_CAPTURE_PACKETS] = "CapturePackets",
	[MIB_CAPTURE_OVERFLOW] = "CaptureOverflow",
};
static_assert(RTE_DIM(capture_names) == MIB_CAPTURE_MAX, "Capture names and enum disagree");

static const char *const mode_names[] = {
	[MIB_MODE_OFFPACKETS] = "ModeOffPackets",
	[MIB_MODE_OFFBUSYCYCLES] = "ModeOffBusyCycles",
	[MIB_MODE_OFFIDLECYCLES] = "ModeOffIdleCycles",
	[MIB_MODE_NONEPACKETS] = "ModeNonePackets",
	[MIB_MODE_NONEBUSYCYCLES] = "ModeNoneBusyCycles",
	[MIB_MODE_NONEIDLECYCLES] = "ModeNoneIdleCycles",
	[MIB_MODE_LOCKPACKETS] = "ModeLockPackets",
	[MIB_MODE_LOCKBUSYCYCLES] = "ModeLockBusyCycles",
	[MIB_MODE_LOCKIDLECYCLES] = "ModeLockIdleCycles",
	[MIB_MODE_RWLOCKPACKETS] = "ModeRwlockPackets",
	[MIB_MODE_RWLOCKBUSYCYCLES] = "ModeRwlockBusyCycles",
	[MIB_MODE_RWLOCKIDLECYCLES] = "ModeRwlockIdleCycles",
	[MIB_MODE_RCUPACKETS] = "ModeRcuPackets",
	[MIB_MODE_RCUBUSYCYCLES] = "ModeRcuBusyCycles",
	[MIB_MODE_RCUIDLECYCLES] = "ModeRcuIdleCycles",
};
static_assert(RTE_DIM(mode_names) == MIB_MODE_MAX, "Mode names and enum disagree");
static_assert(MIB_MODE_MAX == MIB_MODES * MIB_MODE_K_MAX, "Mode: one triple per mode");
static_assert(MIB_MODE_F(4, MIB_MODE_K_IDLE) == MIB_F(MODE, RCUIDLECYCLES),
	      "MIB_MODE_F and the enum disagree");

static const char *const mode_labels[MIB_MODES] = {
	"off", "none", "lock", "rwlock", "rcu" };

const char *
mib_mode_name(unsigned int m)
{
	return m < MIB_MODES ? mode_labels[m] : NULL;
}

struct group_desc {
	const char *name;
	unsigned int first;
	unsigned int count;
	const char *const *names;
	const char *help;
	bool sparse;	/* Linux prints only the non-zero fields */
};

static const struct group_desc groups[] = {
	[MIB_GRP_IP] = { "Ip", MIB_BASE_IP, MIB_IP_MAX, ip_names,
		"Linux /proc/net/snmp Ip counter" },
	[MIB_GRP_ICMP] = { "Icmp", MIB_BASE_ICMP, MIB_ICMP_MAX, icmp_names,
		"Linux /proc/net/snmp Icmp counter" },
	[MIB_GRP_ICMPMSG] = { "IcmpMsg", MIB_BASE_ICMPMSG, MIB_ICMPMSG_MAX,
		icmpmsg_names, "Linux /proc/net/snmp IcmpMsg counter (ICMP messages "
		"received by type)", true },
	[MIB_GRP_TCP] = { "Tcp", MIB_BASE_TCP, MIB_TCP_MAX, tcp_names,
		"Linux /proc/net/snmp Tcp counter" },
	[MIB_GRP_UDP] = { "Udp", MIB_BASE_UDP, MIB_UDP_MAX, udp_names,
		"Linux /proc/net/snmp Udp counter" },
	[MIB_GRP_UDPLITE] = { "UdpLite", MIB_BASE_UDPLITE, MIB_UDPLITE_MAX,
		udplite_names, "Linux /proc/net/snmp UdpLite counter" },
	[MIB_GRP_IPEXT] = { "IpExt", MIB_BASE_IPEXT, MIB_IPEXT_MAX, ipext_names,
		"Linux /proc/net/netstat IpExt counter" },
	[MIB_GRP_RX] = { "Rx", MIB_BASE_RX, MIB_RX_MAX, rx_names,
		"pktpath source and L2 counter" },
	[MIB_GRP_PATH] = { "Path", MIB_BASE_PATH, MIB_PATH_MAX, path_names,
		"pktpath: a Linux drop reason with no /proc/net/snmp counter" },
	[MIB_GRP_INGRESS] = { "Ingress", MIB_BASE_INGRESS, MIB_INGRESS_MAX,
		ingress_names, "pktpath ingress classifier and guard counter" },
	[MIB_GRP_PEER] = { "Peer", MIB_BASE_PEER, MIB_PEER_MAX, peer_names,
		"pktpath inetpeer-like stage counter" },
	[MIB_GRP_CAPTURE] = { "Capture", MIB_BASE_CAPTURE, MIB_CAPTURE_MAX,
		capture_names, "pktpath capture counter" },
	[MIB_GRP_MODE] = { "Mode", MIB_BASE_MODE, MIB_MODE_MAX, mode_names,
		"pktpath packets and cycles by the ingress mode in force" },
};
static_assert(RTE_DIM(groups) == MIB_GRP_MAX, "group table and enum disagree");

const char *
mib_group_name(enum mib_group g)
{
	return (unsigned int)g < MIB_GRP_MAX ? groups[g].name : NULL;
}

unsigned int
mib_group_first(enum mib_group g)
{
	return (unsigned int)g < MIB_GRP_MAX ? groups[g].first : MIB_FIELD_MAX;
}

unsigned int
mib_group_count(enum mib_group g)
{
	return (unsigned int)g < MIB_GRP_MAX ? groups[g].count : 0;
}

bool
mib_group_sparse(enum mib_group g)
{
	return (unsigned int)g < MIB_GRP_MAX && groups[g].sparse;
}

enum mib_group
mib_field_group(unsigned int f)
{
	unsigned int g;

	for (g = 0; g < MIB_GRP_MAX; g++)
		if (f >= groups[g].first && f < groups[g].first + groups[g].count)
			return (enum mib_group)g;
	return MIB_GRP_MAX;
}

const char *
mib_field_name(unsigned int f)
{
	enum mib_group g = mib_field_group(f);

	if (g == MIB_GRP_MAX)
		return NULL;
	return groups[g].names[f - groups[g].first];
}

const char *
mib_field_help(unsigned int f)
{
	enum mib_group g = mib_field_group(f);

	return g == MIB_GRP_MAX ? NULL : groups[g].help;
}

enum mib_kind
mib_field_kind(unsigned int f)
{
	switch (f) {
	case MIB_F(IP, FORWARDING):
	case MIB_F(IP, DEFAULTTTL):
	case MIB_F(TCP, RTOALGORITHM):
	case MIB_F(TCP, RTOMIN):
	case MIB_F(TCP, RTOMAX):
	case MIB_F(TCP, MAXCONN):
		return MIB_KIND_CONST;
	case MIB_F(INGRESS, GRACEPERIODMAXUS):
		return MIB_KIND_MAX;
	default:
		return MIB_KIND_SUM;
	}
}

int64_t
mib_field_const(unsigned int f)
{
	switch (f) {
	case MIB_F(IP, FORWARDING): return 2;	/* 2 = not forwarding */
	case MIB_F(IP, DEFAULTTTL): return 64;
	case MIB_F(TCP, RTOALGORITHM): return 1;
	case MIB_F(TCP, RTOMIN): return 200;
	case MIB_F(TCP, RTOMAX): return 120000;
	case MIB_F(TCP, MAXCONN): return -1;
	default: return 0;
	}
}

int
mib_group_lookup(const char *name)
{
	unsigned int g;

	if (name == NULL)
		return -1;
	for (g = 0; g < MIB_GRP_MAX; g++)
		if (strcmp(groups[g].name, name) == 0)
			return (int)g;
	return -1;
}

int
mib_field_lookup(const char *group, const char *field)
{
	int g = mib_group_lookup(group);
	unsigned int i;

	if (g < 0 || field == NULL)
		return -1;
	for (i = 0; i < groups[g].count; i++)
		if (strcmp(groups[g].names[i], field) == 0)
			return (int)(groups[g].first + i);
	return -1;
}

const char *const mib_layout_names[] = {
	[MIB_LAYOUT_PERCPU] = "percpu", [MIB_LAYOUT_SHARED] = "shared" };
static_assert(RTE_DIM(mib_layout_names) == MIB_LAYOUT_MAX, "layout names");
const char *const mib_fold_names[] = {
	[MIB_FOLD_FIELD] = "field", [MIB_FOLD_LCORE] = "lcore" };
static_assert(RTE_DIM(mib_fold_names) == MIB_FOLD_MAX, "fold names");

const char *
mib_layout_name(enum mib_layout l)
{
	return (unsigned int)l < MIB_LAYOUT_MAX ? mib_layout_names[l] : "?";
}

const char *
mib_fold_name(enum mib_fold f)
{
	return (unsigned int)f < MIB_FOLD_MAX ? mib_fold_names[f] : "?";
}

int
mib_layout_parse(const char *s, enum mib_layout *out)
{
	unsigned int i;

	for (i = 0; s != NULL && i < MIB_LAYOUT_MAX; i++)
		if (strcmp(s, mib_layout_names[i]) == 0) {
			*out = (enum mib_layout)i;
			return 0;
		}
	return -EINVAL;
}

int
mib_fold_parse(const char *s, enum mib_fold *out)
{
	unsigned int i;

	for (i = 0; s != NULL && i < MIB_FOLD_MAX; i++)
		if (strcmp(s, mib_fold_names[i]) == 0) {
			*out = (enum mib_fold)i;
			return 0;
		}
	return -EINVAL;
}

/* ---- the receive path's terminal outcomes (mib.h) ---- */

const unsigned int mib_terminals[] = {
	MIB_F(RX, NOTIP), MIB_F(RX, OTHERHOST),
	MIB_F(IP, INHDRERRORS), MIB_F(IPEXT, INTRUNCATEDPKTS), MIB_F(IP, INDISCARDS),
	MIB_F(IP, INADDRERRORS), MIB_F(IP, INUNKNOWNPROTOS), MIB_F(IP, REASMREQDS),
	MIB_F(PATH, IPINVALIDSOURCE), MIB_F(PATH, IPINVALIDDEST),
	MIB_F(PATH, IPMCASTNOTJOINED), MIB_F(PATH, IPSRCROUTE),
	MIB_F(UDP, INDATAGRAMS), MIB_F(UDP, NOPORTS), MIB_F(UDP, INERRORS),
	MIB_F(UDP, IGNOREDMULTI), MIB_F(UDPLITE, INDATAGRAMS), MIB_F(UDPLITE, NOPORTS),
	MIB_F(UDPLITE, INERRORS), MIB_F(UDPLITE, IGNOREDMULTI),
	MIB_F(TCP, INSEGS), MIB_F(PATH, TCPNOTHOST),
	MIB_F(ICMP, INMSGS), MIB_F(PATH, IGMPDELIVERED), MIB_F(PATH, PIMDELIVERED),
};
const unsigned int mib_n_terminals = sizeof(mib_terminals) / sizeof(mib_terminals[0]);

/* ---- sets ---- */

#define BLOCK_BYTES RTE_ALIGN_CEIL(MIB_FIELD_MAX * sizeof(uint64_t), RTE_CACHE_LINE_SIZE)

struct mib_set {
	unsigned int n;
	enum mib_layout layout;
	bool rte;		/* allocated with rte_malloc */
	unsigned int shift;	/* shared layout: log2(stride) */
	uint64_t *shared;	/* shared layout: MIB_FIELD_MAX << shift words */
	uint64_t *blocks[];	/* percpu layout: n blocks of BLOCK_BYTES */
};

static void *
__mib_zalloc(size_t sz, int socket, bool rte)
{
	void *p = NULL;

	if (rte)
		return rte_zmalloc_socket("pktpath_mib", sz, RTE_CACHE_LINE_SIZE,
					  socket);
	if (posix_memalign(&p, RTE_CACHE_LINE_SIZE, sz) != 0)
		return NULL;
	memset(p, 0, sz);
	return p;
}

static void
__mib_zfree(void *p, bool rte)
{
	if (rte)
		rte_free(p);
	else
		free(p);
}

struct mib_set *
mib_set_create(unsigned int n, enum mib_layout layout, const int *sockets)
{
	struct mib_set *s;
	unsigned int i;

	if (n == 0 || n > 65536 || (unsigned int)layout >= MIB_LAYOUT_MAX) {
		rte_errno = errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s) + n * sizeof(s->blocks[0]));
	if (s == NULL) {
		rte_errno = errno = ENOMEM;
		return NULL;
	}
	s->n = n;
	s->layout = layout;
	s->rte = sockets != NULL;
	if (layout == MIB_LAYOUT_SHARED) {
		while ((1u << s->shift) < n)
			s->shift++;
		s->shared = __mib_zalloc(((size_t)MIB_FIELD_MAX << s->shift) *
					 sizeof(uint64_t),
					 s->rte ? sockets[0] : 0, s->rte);
		if (s->shared == NULL)
			goto nomem;
		return s;
	}
	for (i = 0; i < n; i++) {
		s->blocks[i] = __mib_zalloc(BLOCK_BYTES, s->rte ? sockets[i] : 0,
					    s->rte);
		if (s->blocks[i] == NULL)
			goto nomem;
	}
	return s;
nomem:
	mib_set_free(s);
	rte_errno = errno = ENOMEM;
	return NULL;
}

void
mib_set_free(struct mib_set *s)
{
	unsigned int i;

	if (s == NULL)
		return;
	__mib_zfree(s->shared, s->rte);
	for (i = 0; i < s->n; i++)
		__mib_zfree(s->blocks[i], s->rte);
	free(s);
}

unsigned int
mib_set_count(const struct mib_set *s)
{
	return s->n;
}

enum mib_layout
mib_set_layout(const struct mib_set *s)
{
	return s->layout;
}

struct mib_block
mib_set_block(const struct mib_set *s, unsigned int i)
{
	struct mib_block b = { NULL, 0 };

	if (i >= s->n)
		return b;
	if (s->layout == MIB_LAYOUT_SHARED) {
		b.base = s->shared + i;
		b.shift = s->shift;
	} else {
		b.base = s->blocks[i];
	}
	return b;
}

static inline uint64_t
__mib_load(const uint64_t *base, unsigned int shift, unsigned int f)
{
	return __atomic_load_n(base + ((size_t)f << shift), __ATOMIC_RELAXED);
}

static void
__mib_finish(uint64_t *totals)
{
	unsigned int f;

	for (f = 0; f < MIB_FIELD_MAX; f++)
		if (mib_field_kind(f) == MIB_KIND_CONST)
			totals[f] = (uint64_t)mib_field_const(f);
}

void
mib_fold(const struct mib_set *s, enum mib_fold strategy, uint64_t *totals,
	 uint64_t *per_block)
{
	unsigned int f, l;

	if (strategy == MIB_FOLD_FIELD) {
		/* snmp_fold_field: one field at a time, across every block. */
		for (f = 0; f < MIB_FIELD_MAX; f++) {
			bool is_max = mib_field_kind(f) == MIB_KIND_MAX;
			uint64_t acc = 0;

			for (l = 0; l < s->n; l++) {
				struct mib_block b = mib_set_block(s, l);
				uint64_t v = __mib_load(b.base, b.shift, f);

				if (per_block != NULL)
					per_block[(size_t)l * MIB_FIELD_MAX + f] = v;
				if (is_max)
					acc = v > acc ? v : acc;
				else
					acc += v;
			}
			totals[f] = acc;
		}
	} else {
		/* snmp_get_cpu_field64_batch: one block at a time, all fields. */
		memset(totals, 0, MIB_FIELD_MAX * sizeof(*totals));
		for (l = 0; l < s->n; l++) {
			struct mib_block b = mib_set_block(s, l);

			for (f = 0; f < MIB_FIELD_MAX; f++) {
				uint64_t v = __mib_load(b.base, b.shift, f);

				if (per_block != NULL)
					per_block[(size_t)l * MIB_FIELD_MAX + f] = v;
				if (f == MIB_F(INGRESS, GRACEPERIODMAXUS))
					totals[f] = v > totals[f] ? v : totals[f];
				else
					totals[f] += v;
			}
		}
	}
	__mib_finish(totals);
}

void
mib_delta(const uint64_t *cur, const uint64_t *base, uint64_t *out)
{
	unsigned int f;

	for (f = 0; f < MIB_FIELD_MAX; f++)
		out[f] = mib_field_kind(f) == MIB_KIND_SUM ? cur[f] - base[f] : cur[f];
}

#define T(g, n) t[MIB_F(g, n)]

void
mib_conservation_eval(const uint64_t *t, struct mib_law laws[MIB_N_LAWS])
{
	unsigned int m;

	laws[0] = (struct mib_law){ "RxPackets", "RxNotIp + RxOtherHost + "
		"RxNoPath + IngressDropped + InReceives", T(RX, PACKETS),
		T(RX, NOTIP) + T(RX, OTHERHOST) + T(RX, NOPATH) +
		T(INGRESS, DROPPED) + T(IP, INRECEIVES) };
	laws[1] = (struct mib_law){ "IngressPackets",
		"IngressPassed + IngressDropped", T(INGRESS, PACKETS),
		T(INGRESS, PASSED) + T(INGRESS, DROPPED) };
	laws[2] = (struct mib_law){ "InReceives", "InDelivers + IP drops",
		T(IP, INRECEIVES), T(IP, INDELIVERS) + T(IP, INHDRERRORS) +
		T(IPEXT, INTRUNCATEDPKTS) + T(IP, INDISCARDS) +
		T(IP, INADDRERRORS) + T(IP, INUNKNOWNPROTOS) + T(IP, REASMREQDS) +
		T(PATH, IPINVALIDSOURCE) + T(PATH, IPINVALIDDEST) +
		T(PATH, IPMCASTNOTJOINED) + T(PATH, IPSRCROUTE) };
	laws[3] = (struct mib_law){ "InDelivers", "L4 outcomes", T(IP, INDELIVERS),
		T(UDP, INDATAGRAMS) + T(UDP, NOPORTS) + T(UDP, INERRORS) +
		T(UDP, IGNOREDMULTI) + T(UDPLITE, INDATAGRAMS) +
		T(UDPLITE, NOPORTS) + T(UDPLITE, INERRORS) +
		T(UDPLITE, IGNOREDMULTI) + T(TCP, INSEGS) + T(PATH, TCPNOTHOST) +
		T(ICMP, INMSGS) + T(PATH, IGMPDELIVERED) + T(PATH, PIMDELIVERED) };
	laws[4] = (struct mib_law){ "RxPackets", "Mode packets (ModeOffPackets + "
		"... + ModeRcuPackets)", T(RX, PACKETS), 0 };
	for (m = 0; m < MIB_MODES; m++)
		laws[4].rhs += t[MIB_MODE_F(m, MIB_MODE_K_PACKETS)];
}

/* Laws of the receive path (the rest need the application's workers). */
#define PATH_LAWS 4

int
mib_check_conservation(const uint64_t *t, char *why, size_t len)
{
	struct mib_law laws[MIB_N_LAWS];
	unsigned int i;

	mib_conservation_eval(t, laws);
	for (i = 0; i < PATH_LAWS; i++) {
		if (laws[i].lhs == laws[i].rhs)
			continue;
		if (why)
			snprintf(why, len, "%s %" PRIu64 " != %s %" PRIu64,
				 laws[i].lhs_name, laws[i].lhs, laws[i].rhs_name,
				 laws[i].rhs);
		return -1;
	}
	if (why && len)
		why[0] = '\0';
	return 0;
}
