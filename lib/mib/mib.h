/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_MIB_H
#define PKTPATH_MIB_H

/**
 * @file
 * SNMP-style MIBs, one block per worker lcore, folded by a reader.
 *
 * The schema follows Linux 6.18: one enum per group (Ip, Icmp, IcmpMsg, Tcp,
 * Udp, UdpLite as printed by /proc/net/snmp, IpExt as printed by
 * /proc/net/netstat, pktpath's own groups Rx, Path, Ingress, Peer, Capture,
 * Mode, Stage, then Ip6, Icmp6, Icmp6Msg, Udp6, UdpLite6 as printed by
 * /proc/net/snmp6), each ending in a *_MAX count. All groups are laid end to
 * end in one flat index space: field MIB_F(IP, INRECEIVES) is the index of
 * Ip.InReceives in a block. The IPv6 groups come last, so that the IPv4
 * path's counters keep their places (and cache lines) in a block.
 *
 * The field table
 * ---------------
 * Every group has one table in mib_schema.c, one row per field, checked
 * against the group's enum at compile time (as Linux's snmp.h and proc.c
 * do with ARRAY_SIZE, and more: every enumerator has exactly one row). A row
 * says everything pktpath knows about a counter:
 *
 *   - its name, exactly as Linux prints it;
 *   - its kind (enum mib_kind): a counter summed over blocks, a high-water
 *     mark maxed over blocks, or a constant Linux prints;
 *   - its role (enum mib_role): a terminal outcome of a frame (a delivery,
 *     a drop, or a sink), a drop counted after its delivery, or information;
 *   - the conservation laws it is a term of (enum mib_law_id);
 *   - a constant's value, and a one-line help text.
 *
 * Everything else is derived from it, with no second list anywhere: the
 * kinds and constants (mib_field_kind(), mib_field_const()), both folds'
 * treatment of high-water marks, mib_delta(), the terminal outcomes
 * (mib_terminals), "drops by reason" (mib_drop_fields), which outcomes are
 * deliveries (path_outcome_delivered()), every law's terms and the help
 * texts of every exporter.
 *
 * Adding a counter is one edit in two places: its enumerator, and its row.
 * A new terminal drop of the IP layer, say a Path IpBadFrag, is
 *
 *     enum mib_path { ..., MIB_PATH_PIMDELIVERED, MIB_PATH_IPBADFRAG, MIB_PATH_MAX };
 *
 *     F(G, IPBADFRAG, "IpBadFrag", SUM, 0, DROP, LAW(IP),
 *       "fragments refused before ip_defrag")       (in MIB_PATH_TABLE)
 *
 * and the path's mib_inc() of MIB_F(PATH, IPBADFRAG) where it happens. From
 * then on it is a terminal (test_path checks that exactly one terminal moves
 * per frame), a term of InReceives = InDelivers + IP drops, a drop in the
 * console's "drops:" line, pktpath_drops_total and telemetry's "drops",
 * exported everywhere with its help, and described in lib/mib/README.md
 * once that is regenerated (MIB_README_WRITE=1 build/app/test/test_mib_schema;
 * test_mib_schema fails until it is). A Udp row is UdpLite's too (UdpLite
 * mirrors Udp's table), so it needs UdpLite's twin enumerator.
 *
 * Writers and readers
 * -------------------
 * Every counter of a block has exactly one writer: a worker block's is its
 * worker lcore; the control block's are the control operations (serialised
 * by the application) for the Ingress group and the capture's writer
 * thread for its Capture counters. A writer updates a counter with a relaxed
 * atomic load followed by a relaxed atomic store: no locked instruction, and
 * a 64-bit aligned store is never torn, so a concurrent reader sees either
 * the old or the new value. Nobody else ever writes a block: "clearing" is
 * done by a reader keeping a baseline snapshot and subtracting it
 * (mib_delta()), as OVS pmd_counters.zero and VPP stats_last_clear do.
 *
 * Layouts
 * -------
 * MIB_LAYOUT_PERCPU: each block is its own page-aligned allocation of
 * MIB_BLOCK_BYTES on its lcore's socket, as a Linux per-CPU unit is: field f
 * sits at the same offset of its page in every block, so the blocks' copies
 * of a field share one L1 set (what snmp_fold_field's field-major order
 * pays for, block after block). MIB_LAYOUT_SHARED interleaves
 * all blocks: counter f of block l lives at f * stride + l, so neighbouring
 * lcores dirty the same cache lines -- the false-sharing layout, kept only to
 * measure its cost. Both are reached through the same struct mib_block, whose
 * shift is 0 for percpu and log2(stride) for shared, so the fast path is the
 * same code in both layouts.
 *
 * A set may hold its blocks in both layouts (mib_set_add_layout()): a
 * writer writes one copy of its block at a time and may move to the other
 * between two writes (--compare mib-layout=percpu,shared does it between
 * two phases, its workers paused), and every fold reads both copies and
 * adds them up, so that nothing is lost or counted twice, no total ever
 * goes down, and nothing is freed while a reader may fold it.
 *
 * Folding
 * -------
 * MIB_FOLD_FIELD walks, for each field, every block (Linux snmp_fold_field);
 * MIB_FOLD_LCORE walks, for each block, every field into a zeroed buffer
 * (Linux snmp_get_cpu_field64_batch). They give identical totals: both ask
 * the table's kind, through one shared test, whether a field is summed or
 * maxed.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Groups, in the order they are printed. */
enum mib_group {
	MIB_GRP_IP,
	MIB_GRP_ICMP,
	MIB_GRP_ICMPMSG,
	MIB_GRP_TCP,
	MIB_GRP_UDP,
	MIB_GRP_UDPLITE,
	MIB_GRP_IPEXT,
	MIB_GRP_RX,
	MIB_GRP_PATH,
	MIB_GRP_INGRESS,
	MIB_GRP_PEER,
	MIB_GRP_CAPTURE,
	MIB_GRP_MODE,
	MIB_GRP_STAGE,
	MIB_GRP_IP6,
	MIB_GRP_ICMP6,
	MIB_GRP_ICMP6MSG,
	MIB_GRP_UDP6,
	MIB_GRP_UDPLITE6,
	MIB_GRP_MAX
};

/** Ip: /proc/net/snmp (Linux 6.18 layout). */
enum mib_ip {
	MIB_IP_FORWARDING,	/**< constant 2: forwarding is off */
	MIB_IP_DEFAULTTTL,	/**< constant 64 */
	MIB_IP_INRECEIVES,
	MIB_IP_INHDRERRORS,
	MIB_IP_INADDRERRORS,
	MIB_IP_FORWDATAGRAMS,
	MIB_IP_INUNKNOWNPROTOS,
	MIB_IP_INDISCARDS,
	MIB_IP_INDELIVERS,
	MIB_IP_OUTREQUESTS,
	MIB_IP_OUTDISCARDS,
	MIB_IP_OUTNOROUTES,
	MIB_IP_REASMTIMEOUT,
	MIB_IP_REASMREQDS,
	MIB_IP_REASMOKS,
	MIB_IP_REASMFAILS,
	MIB_IP_FRAGOKS,
	MIB_IP_FRAGFAILS,
	MIB_IP_FRAGCREATES,
	MIB_IP_OUTTRANSMITS,	/**< Linux 6.3+ */
	MIB_IP_MAX
};

/** Icmp: /proc/net/snmp. */
enum mib_icmp {
	MIB_ICMP_INMSGS,
	MIB_ICMP_INERRORS,
	MIB_ICMP_INCSUMERRORS,
	MIB_ICMP_INDESTUNREACHS,
	MIB_ICMP_INTIMEEXCDS,
	MIB_ICMP_INPARMPROBS,
	MIB_ICMP_INSRCQUENCHS,
	MIB_ICMP_INREDIRECTS,
	MIB_ICMP_INECHOS,
	MIB_ICMP_INECHOREPS,
	MIB_ICMP_INTIMESTAMPS,
	MIB_ICMP_INTIMESTAMPREPS,
	MIB_ICMP_INADDRMASKS,
	MIB_ICMP_INADDRMASKREPS,
	MIB_ICMP_OUTMSGS,
	MIB_ICMP_OUTERRORS,
	MIB_ICMP_OUTRATELIMITGLOBAL,	/**< Linux 6.0+ */
	MIB_ICMP_OUTRATELIMITHOST,	/**< Linux 6.0+ */
	MIB_ICMP_OUTDESTUNREACHS,
	MIB_ICMP_OUTTIMEEXCDS,
	MIB_ICMP_OUTPARMPROBS,
	MIB_ICMP_OUTSRCQUENCHS,
	MIB_ICMP_OUTREDIRECTS,
	MIB_ICMP_OUTECHOS,
	MIB_ICMP_OUTECHOREPS,
	MIB_ICMP_OUTTIMESTAMPS,
	MIB_ICMP_OUTTIMESTAMPREPS,
	MIB_ICMP_OUTADDRMASKS,
	MIB_ICMP_OUTADDRMASKREPS,
	MIB_ICMP_MAX
};

/**
 * IcmpMsg: /proc/net/snmp, one counter per ICMP type received (Linux's
 * icmpmsg_statistics, ICMPMSGIN_INC_STATS in icmp_rcv), named InType0 ..
 * InType255. Linux prints only the non-zero ones (a sparse group, see
 * mib_group_sparse()). The Icmp per-type fields (InDestUnreachs...) are the
 * same counts for the types that have one. pktpath transmits nothing, so the
 * OutTypeN half of Linux's table is left out.
 */
enum mib_icmpmsg {
	MIB_ICMPMSG_INTYPE0,
	MIB_ICMPMSG_MAX = MIB_ICMPMSG_INTYPE0 + 256
};

/** Tcp: /proc/net/snmp. */
enum mib_tcp {
	MIB_TCP_RTOALGORITHM,	/**< constant 1 */
	MIB_TCP_RTOMIN,		/**< constant 200 */
	MIB_TCP_RTOMAX,		/**< constant 120000 */
	MIB_TCP_MAXCONN,	/**< constant -1 */
	MIB_TCP_ACTIVEOPENS,
	MIB_TCP_PASSIVEOPENS,
	MIB_TCP_ATTEMPTFAILS,
	MIB_TCP_ESTABRESETS,
	MIB_TCP_CURRESTAB,
	MIB_TCP_INSEGS,
	MIB_TCP_OUTSEGS,
	MIB_TCP_RETRANSSEGS,
	MIB_TCP_INERRS,
	MIB_TCP_OUTRSTS,
	MIB_TCP_INCSUMERRORS,
	MIB_TCP_MAX
};

/** Udp: /proc/net/snmp. */
enum mib_udp {
	MIB_UDP_INDATAGRAMS,
	MIB_UDP_NOPORTS,
	MIB_UDP_INERRORS,
	MIB_UDP_OUTDATAGRAMS,
	MIB_UDP_RCVBUFERRORS,
	MIB_UDP_SNDBUFERRORS,
	MIB_UDP_INCSUMERRORS,
	MIB_UDP_IGNOREDMULTI,
	MIB_UDP_MEMERRORS,
	MIB_UDP_MAX
};

/** UdpLite: /proc/net/snmp, the fields of Udp (IPPROTO_UDPLITE, 136). */
enum mib_udplite {
	MIB_UDPLITE_INDATAGRAMS,
	MIB_UDPLITE_NOPORTS,
	MIB_UDPLITE_INERRORS,
	MIB_UDPLITE_OUTDATAGRAMS,
	MIB_UDPLITE_RCVBUFERRORS,
	MIB_UDPLITE_SNDBUFERRORS,
	MIB_UDPLITE_INCSUMERRORS,
	MIB_UDPLITE_IGNOREDMULTI,
	MIB_UDPLITE_MEMERRORS,
	MIB_UDPLITE_MAX
};

/** IpExt: /proc/net/netstat. */
enum mib_ipext {
	MIB_IPEXT_INNOROUTES,
	MIB_IPEXT_INTRUNCATEDPKTS,
	MIB_IPEXT_INMCASTPKTS,
	MIB_IPEXT_OUTMCASTPKTS,
	MIB_IPEXT_INBCASTPKTS,
	MIB_IPEXT_OUTBCASTPKTS,
	MIB_IPEXT_INOCTETS,
	MIB_IPEXT_OUTOCTETS,
	MIB_IPEXT_INMCASTOCTETS,
	MIB_IPEXT_OUTMCASTOCTETS,
	MIB_IPEXT_INBCASTOCTETS,
	MIB_IPEXT_OUTBCASTOCTETS,
	MIB_IPEXT_INCSUMERRORS,
	MIB_IPEXT_INNOECTPKTS,
	MIB_IPEXT_INECT1PKTS,
	MIB_IPEXT_INECT0PKTS,
	MIB_IPEXT_INCEPKTS,
	MIB_IPEXT_REASMOVERLAPS,
	MIB_IPEXT_MAX
};

/** Rx (pktpath): the source and L2 (netif_receive_skb_core). */
enum mib_rx {
	MIB_RX_PACKETS,		/**< frames handed to the path by the source */
	MIB_RX_OCTETS,		/**< their L2 bytes (no FCS) */
	MIB_RX_BURSTS,		/**< non-empty bursts */
	MIB_RX_EMPTYPOLLS,	/**< polls that returned nothing */
	MIB_RX_NOTIP,		/**< terminal: ethertype not IPv4 (or runt) */
	MIB_RX_RUNTS,		/**< info: subset of RxNotIp shorter than L2 hdr */
	MIB_RX_VLAN,		/**< info: frames with 802.1Q/802.1ad tags (VID 0 too) */
	MIB_RX_VLANNODEVICE,	/**< info: frames a tag with no VLAN device made
				     PACKET_OTHERHOST */
	MIB_RX_OTHERHOST,	/**< terminal: IPv4 PACKET_OTHERHOST (another
				     host's MAC, a tag with no VLAN device) */
	MIB_RX_BROADCAST,	/**< info: L2 broadcast destination */
	MIB_RX_MULTICAST,	/**< info: L2 multicast destination */
	MIB_RX_NOPATH,		/**< terminal: freed untouched (--path rx-only) */
	MIB_RX_NOMBUF,		/**< events: mbuf allocation failures (gen) */
	MIB_RX_BUSYCYCLES,	/**< TSC cycles of polls that carried packets */
	MIB_RX_IDLECYCLES,	/**< TSC cycles of empty polls */
	MIB_RX_SUSPICIOUSPOLLS,	/**< polls longer than --suspicious-us */
	MIB_RX_LOSTCYCLES,	/**< TSC cycles of polls longer than --stall-us:
				 *   time the worker did not run, neither busy
				 *   nor idle */
	MIB_RX_LOSTPOLLS,	/**< those polls */
	MIB_RX_MAX
};

/**
 * Path (pktpath): terminal outcomes Linux records only as a drop reason
 * (kfree_skb_reason) or in /proc/net/stat/rt_cache, never in /proc/net/snmp.
 */
enum mib_path {
	MIB_PATH_IPINVALIDSOURCE,	/**< martian source (SKB_DROP_REASON_IP_INVALID_SOURCE) */
	MIB_PATH_IPINVALIDDEST,		/**< martian destination (IP_INVALID_DEST) */
	MIB_PATH_IPMCASTNOTJOINED,	/**< multicast group not joined */
	MIB_PATH_IPSRCROUTE,		/**< source-routed, accept_source_route=0 */
	MIB_PATH_TCPNOTHOST,		/**< TCP to a non-PACKET_HOST frame */
	MIB_PATH_IGMPDELIVERED,		/**< handed to the IGMP handler */
	MIB_PATH_PIMDELIVERED,		/**< handed to pim_rcv (IP_PIMSM_V2, --pim on) */
	MIB_PATH_IP6MCASTNOTJOINED, /**< IPv6 multicast group not joined (ip6_mc_input) */
	MIB_PATH_IP6SEGROUTINGOFF,  /**< segment routing header, seg6/rpl off */
	MIB_PATH_IP6NONEXTHDR,	    /**< next header 59 (NONE): dst_discard, delivered */
	MIB_PATH_IP6FRAGQUEUED,	    /**< a fragment held by ipv6_frag_rcv's queues */
	MIB_PATH_IPFRAGQUEUED,	    /**< a fragment ip_defrag kept in a queue */
	MIB_PATH_IPFRAGDROPPED,	    /**< a fragment ip_defrag freed at once */
	MIB_PATH_IP6FRAGDROPPED,    /**< a fragment ipv6_frag_rcv freed at once */
	MIB_PATH_IP6REASMOVERLAPS,  /**< info: IPSTATS_MIB_REASM_OVERLAPS (IPv6) */
	MIB_PATH_IP6FRAGHDRERRORS, /**< info: a fragment ipv6_frag_rcv's header checks ended */
	MIB_PATH_MAX
};

/** Ingress (pktpath): the classifier hook and its guard. */
enum mib_ingress {
	MIB_INGRESS_PACKETS,
	MIB_INGRESS_MATCHED,
	MIB_INGRESS_PASSED,
	MIB_INGRESS_DROPPED,
	MIB_INGRESS_MARKED,
	MIB_INGRESS_LOCKACQUIRES,
	MIB_INGRESS_LOCKCONTENDED,
	MIB_INGRESS_RCUQUIESCENT,
	MIB_INGRESS_RULEUPDATES,	/**< control block */
	MIB_INGRESS_GRACEPERIODS,	/**< control block */
	MIB_INGRESS_GRACEPERIODMAXUS,	/**< control block, folded as max */
	MIB_INGRESS_MODEFLIPS,		/**< control block */
	MIB_INGRESS_MAX
};

/** Peer (pktpath): the inetpeer-like stage. */
enum mib_peer {
	MIB_PEER_LOOKUPS,
	MIB_PEER_HITS,
	MIB_PEER_MISSES,
	MIB_PEER_GETS,
	MIB_PEER_PUTS,
	MIB_PEER_MAX
};

/** Capture (pktpath): frames written to the capture file, and those that
 *  were not (a full ring, a failed write). Packets is written by the
 *  capture's writer thread into the control block, WriteErrors by it and
 *  by the workers, Overflow by the workers. */
enum mib_capture {
	MIB_CAPTURE_PACKETS,
	MIB_CAPTURE_OVERFLOW,
	MIB_CAPTURE_WRITEERRORS,
	MIB_CAPTURE_MAX
};

/**
 * Mode (pktpath): the worker's packets, busy, idle and lost cycles split by
 * the ingress guard mode in force (one quadruple per enum ingress_mode, in
 * its order: off none lock rwlock rcu), so that per-mode rates stay exact
 * across live flips and stalls. A burst counts in the mode it was
 * classified in; an empty or lost poll in the mode the worker was in.
 * Without an ingress hook everything is "off". The sums equal RxPackets,
 * BusyCycles, IdleCycles, LostCycles.
 */
enum mib_mode {
	MIB_MODE_OFFPACKETS,
	MIB_MODE_OFFBUSYCYCLES,
	MIB_MODE_OFFIDLECYCLES,
	MIB_MODE_OFFLOSTCYCLES,
	MIB_MODE_NONEPACKETS,
	MIB_MODE_NONEBUSYCYCLES,
	MIB_MODE_NONEIDLECYCLES,
	MIB_MODE_NONELOSTCYCLES,
	MIB_MODE_LOCKPACKETS,
	MIB_MODE_LOCKBUSYCYCLES,
	MIB_MODE_LOCKIDLECYCLES,
	MIB_MODE_LOCKLOSTCYCLES,
	MIB_MODE_RWLOCKPACKETS,
	MIB_MODE_RWLOCKBUSYCYCLES,
	MIB_MODE_RWLOCKIDLECYCLES,
	MIB_MODE_RWLOCKLOSTCYCLES,
	MIB_MODE_RCUPACKETS,
	MIB_MODE_RCUBUSYCYCLES,
	MIB_MODE_RCUIDLECYCLES,
	MIB_MODE_RCULOSTCYCLES,
	MIB_MODE_MAX
};

/**
 * Stage (pktpath, --stage-cycles): per stage of a worker's burst (rx: the
 * source's rx_burst or the generator; l2; ingress: guard and classifier;
 * ip: IP, route and L4; peer; capture; free), the TSC cycles spent in it,
 * the packets that entered it and the bursts it ran on (its calls), as
 * VPP's `show runtime` counts clocks, vectors and calls per node. One
 * triple per stage, in that order. Counted under --stage-cycles only,
 * and only over busy polls, so their cycles add up to at most BusyCycles.
 */
enum mib_stage {
	MIB_STAGE_RXCYCLES,
	MIB_STAGE_RXPACKETS,
	MIB_STAGE_RXCALLS,
	MIB_STAGE_L2CYCLES,
	MIB_STAGE_L2PACKETS,
	MIB_STAGE_L2CALLS,
	MIB_STAGE_INGRESSCYCLES,
	MIB_STAGE_INGRESSPACKETS,
	MIB_STAGE_INGRESSCALLS,
	MIB_STAGE_IPCYCLES,
	MIB_STAGE_IPPACKETS,
	MIB_STAGE_IPCALLS,
	MIB_STAGE_PEERCYCLES,
	MIB_STAGE_PEERPACKETS,
	MIB_STAGE_PEERCALLS,
	MIB_STAGE_CAPTURECYCLES,
	MIB_STAGE_CAPTUREPACKETS,
	MIB_STAGE_CAPTURECALLS,
	MIB_STAGE_FREECYCLES,
	MIB_STAGE_FREEPACKETS,
	MIB_STAGE_FREECALLS,
	MIB_STAGE_MAX
};

/**
 * Ip6: /proc/net/snmp6's Ip6 lines (net/ipv6/proc.c snmp6_ipstats_list,
 * Linux 6.18), in its order, without the "Ip6" prefix Linux prints. The
 * kernel's ipstats_mib has four more (InBcastPkts, OutBcastPkts,
 * CsumErrors, ReasmOverlaps) that snmp6 does not print: pktpath counts
 * ReasmOverlaps in Path Ip6ReasmOverlaps, the others never move for IPv6.
 */
enum mib_ip6 {
	MIB_IP6_INRECEIVES,
	MIB_IP6_INHDRERRORS,
	MIB_IP6_INTOOBIGERRORS,
	MIB_IP6_INNOROUTES,
	MIB_IP6_INADDRERRORS,
	MIB_IP6_INUNKNOWNPROTOS,
	MIB_IP6_INTRUNCATEDPKTS,
	MIB_IP6_INDISCARDS,
	MIB_IP6_INDELIVERS,
	MIB_IP6_OUTFORWDATAGRAMS,
	MIB_IP6_OUTREQUESTS,
	MIB_IP6_OUTDISCARDS,
	MIB_IP6_OUTNOROUTES,
	MIB_IP6_REASMTIMEOUT,
	MIB_IP6_REASMREQDS,
	MIB_IP6_REASMOKS,
	MIB_IP6_REASMFAILS,
	MIB_IP6_FRAGOKS,
	MIB_IP6_FRAGFAILS,
	MIB_IP6_FRAGCREATES,
	MIB_IP6_INMCASTPKTS,
	MIB_IP6_OUTMCASTPKTS,
	MIB_IP6_INOCTETS,
	MIB_IP6_OUTOCTETS,
	MIB_IP6_INMCASTOCTETS,
	MIB_IP6_OUTMCASTOCTETS,
	MIB_IP6_INBCASTOCTETS,
	MIB_IP6_OUTBCASTOCTETS,
	MIB_IP6_INNOECTPKTS,
	MIB_IP6_INECT1PKTS,
	MIB_IP6_INECT0PKTS,
	MIB_IP6_INCEPKTS,
	MIB_IP6_OUTTRANSMITS,
	MIB_IP6_MAX
};

/** Icmp6: /proc/net/snmp6's Icmp6 lines (snmp6_icmp6_list), in its order. */
enum mib_icmp6 {
	MIB_ICMP6_INMSGS,
	MIB_ICMP6_INERRORS,
	MIB_ICMP6_OUTMSGS,
	MIB_ICMP6_OUTERRORS,
	MIB_ICMP6_INCSUMERRORS,
	MIB_ICMP6_OUTRATELIMITHOST,
	MIB_ICMP6_MAX
};

/**
 * Icmp6Msg: the ICMPv6 messages received and sent by type (Linux's
 * icmpv6msg_mib, ICMP6MSGIN_INC_STATS / ICMP6MSGOUT_INC_STATS): InType0 ..
 * InType255, then OutType0 .. OutType255, as Linux indexes them (0x100 is
 * the Out bit). /proc/net/snmp6 prints them twice (snmp6_seq_show_icmpv6msg):
 * the named types always, by name (Icmp6InDestUnreachs...), then every
 * non-zero one by number (Icmp6InType1...): a sparse group.
 */
enum mib_icmp6msg {
	MIB_ICMP6MSG_INTYPE0,
	MIB_ICMP6MSG_OUTTYPE0 = MIB_ICMP6MSG_INTYPE0 + 256,
	MIB_ICMP6MSG_MAX = MIB_ICMP6MSG_OUTTYPE0 + 256
};

/** Udp6: /proc/net/snmp6 (snmp6_udp6_list): the fields of Udp. */
enum mib_udp6 {
	MIB_UDP6_INDATAGRAMS,
	MIB_UDP6_NOPORTS,
	MIB_UDP6_INERRORS,
	MIB_UDP6_OUTDATAGRAMS,
	MIB_UDP6_RCVBUFERRORS,
	MIB_UDP6_SNDBUFERRORS,
	MIB_UDP6_INCSUMERRORS,
	MIB_UDP6_IGNOREDMULTI,
	MIB_UDP6_MEMERRORS,
	MIB_UDP6_MAX
};

/** UdpLite6: the fields of Udp; /proc/net/snmp6 (snmp6_udplite6_list)
 *  prints all but IgnoredMulti, which the kernel counts all the same. */
enum mib_udplite6 {
	MIB_UDPLITE6_INDATAGRAMS,
	MIB_UDPLITE6_NOPORTS,
	MIB_UDPLITE6_INERRORS,
	MIB_UDPLITE6_OUTDATAGRAMS,
	MIB_UDPLITE6_RCVBUFERRORS,
	MIB_UDPLITE6_SNDBUFERRORS,
	MIB_UDPLITE6_INCSUMERRORS,
	MIB_UDPLITE6_IGNOREDMULTI,
	MIB_UDPLITE6_MEMERRORS,
	MIB_UDPLITE6_MAX
};

/** The stages of the Stage group, in its order (and a burst's). */
enum mib_stage_id {
	MIB_STAGE_RX, MIB_STAGE_L2, MIB_STAGE_INGRESS, MIB_STAGE_IP,
	MIB_STAGE_PEER, MIB_STAGE_CAPTURE, MIB_STAGE_FREE, MIB_STAGES
};
/** Of a stage's triple: cycles, packets, calls (bursts). */
enum mib_stage_kind {
	MIB_STAGE_K_CYCLES, MIB_STAGE_K_PACKETS, MIB_STAGE_K_CALLS, MIB_STAGE_K_MAX
};

/** Modes in the Mode group (enum ingress_mode's INGRESS_MODE_MAX). */
#define MIB_MODES 5
/** Of a mode's quadruple: packets, busy, idle and lost cycles. */
enum mib_mode_kind {
	MIB_MODE_K_PACKETS, MIB_MODE_K_BUSY, MIB_MODE_K_IDLE, MIB_MODE_K_LOST,
	MIB_MODE_K_MAX
};

/** First flat index of each group. */
enum mib_base {
	MIB_BASE_IP = 0,
	MIB_BASE_ICMP = MIB_BASE_IP + MIB_IP_MAX,
	MIB_BASE_ICMPMSG = MIB_BASE_ICMP + MIB_ICMP_MAX,
	MIB_BASE_TCP = MIB_BASE_ICMPMSG + MIB_ICMPMSG_MAX,
	MIB_BASE_UDP = MIB_BASE_TCP + MIB_TCP_MAX,
	MIB_BASE_UDPLITE = MIB_BASE_UDP + MIB_UDP_MAX,
	MIB_BASE_IPEXT = MIB_BASE_UDPLITE + MIB_UDPLITE_MAX,
	MIB_BASE_RX = MIB_BASE_IPEXT + MIB_IPEXT_MAX,
	MIB_BASE_PATH = MIB_BASE_RX + MIB_RX_MAX,
	MIB_BASE_INGRESS = MIB_BASE_PATH + MIB_PATH_MAX,
	MIB_BASE_PEER = MIB_BASE_INGRESS + MIB_INGRESS_MAX,
	MIB_BASE_CAPTURE = MIB_BASE_PEER + MIB_PEER_MAX,
	MIB_BASE_MODE = MIB_BASE_CAPTURE + MIB_CAPTURE_MAX,
	MIB_BASE_STAGE = MIB_BASE_MODE + MIB_MODE_MAX,
	/* The IPv6 groups last: the IPv4 fields keep their places. */
	MIB_BASE_IP6 = MIB_BASE_STAGE + MIB_STAGE_MAX,
	MIB_BASE_ICMP6 = MIB_BASE_IP6 + MIB_IP6_MAX,
	MIB_BASE_ICMP6MSG = MIB_BASE_ICMP6 + MIB_ICMP6_MAX,
	MIB_BASE_UDP6 = MIB_BASE_ICMP6MSG + MIB_ICMP6MSG_MAX,
	MIB_BASE_UDPLITE6 = MIB_BASE_UDP6 + MIB_UDP6_MAX,
	/** Number of fields in a block. */
	MIB_FIELD_MAX = MIB_BASE_UDPLITE6 + MIB_UDPLITE6_MAX
};

/** Flat index of field NAME of group GRP: MIB_F(IP, INRECEIVES). */
#define MIB_F(GRP, NAME) (MIB_BASE_##GRP + MIB_##GRP##_##NAME)
/** Flat index of IcmpMsg InType<type>. */
#define MIB_ICMPMSG_IN(type) (MIB_BASE_ICMPMSG + MIB_ICMPMSG_INTYPE0 + (unsigned int)(type))
/** Flat index of Icmp6Msg InType<type> and OutType<type>. */
#define MIB_ICMP6MSG_IN(type) \
	(MIB_BASE_ICMP6MSG + MIB_ICMP6MSG_INTYPE0 + (unsigned int)(type))
#define MIB_ICMP6MSG_OUT(type) \
	(MIB_BASE_ICMP6MSG + MIB_ICMP6MSG_OUTTYPE0 + (unsigned int)(type))

/** Label of mode m of the Mode group ("off", "none", "lock", "rwlock",
 *  "rcu": enum ingress_mode's names), or "?" if m >= MIB_MODES. */
const char *mib_mode_name(unsigned int m);

/** Flat index of the Mode field of kind k (enum mib_mode_kind) for mode m. */
#define MIB_MODE_F(m, k) (MIB_BASE_MODE + (unsigned int)(m) * MIB_MODE_K_MAX + (unsigned int)(k))

/** Label of stage s of the Stage group ("rx", "l2", "ingress", "ip",
 *  "peer", "capture", "free"), or "?" if s >= MIB_STAGES. */
const char *mib_stage_name(unsigned int s);

/** Flat index of the Stage field of kind k (enum mib_stage_kind) of stage s. */
#define MIB_STAGE_F(s, k) \
	(MIB_BASE_STAGE + (unsigned int)(s) * MIB_STAGE_K_MAX + (unsigned int)(k))

/** How a field is folded over blocks (the table's kind column). */
enum mib_kind {
	MIB_KIND_SUM,	/**< a counter: summed over blocks; cleared by baseline */
	MIB_KIND_HWM,	/**< a high-water mark: max over blocks; never cleared */
	MIB_KIND_CONST,	/**< a constant Linux prints (Forwarding, RtoMin...) */
	MIB_KIND_MAX
};

/**
 * What a field says about the frames that move it (the table's role
 * column). Every frame a worker receives moves exactly one terminal field:
 * a DELIVER, DROP or SINK one.
 */
enum mib_role {
	MIB_ROLE_INFO,		/**< not an outcome: a count, a subset, a sub-total */
	MIB_ROLE_DELIVER,	/**< terminal: handed to a listener (Udp InDatagrams) */
	MIB_ROLE_DROP,		/**< terminal: dropped here (Ip InHdrErrors) */
	MIB_ROLE_SINK,		/**< terminal: freed by design, neither (RxNoPath) */
	MIB_ROLE_DROP_LATE,	/**< not terminal: dropped after its terminal, a
				 *   delivery, moved (Tcp InErrs within InSegs) */
	MIB_ROLE_MAX
};

/**
 * The conservation laws, in the order they are evaluated and printed: the
 * left-hand side is one field, or the sum of two (MIB_LAW_LHS_MAX), the
 * right-hand side the sum of the fields whose row names the law. L4's left
 * side is InDelivers + Ip6InDelivers: TCP over either family counts in the
 * one Tcp group, as Linux counts it.
 */
enum mib_law_id {
	MIB_LAW_RX, /**< RxPackets = Rx-level terminals + InReceives + Ip6InReceives */
	MIB_LAW_INGRESS, /**< IngressPackets = IngressPassed + IngressDropped */
	MIB_LAW_IP,	 /**< InReceives = InDelivers + IP-level terminals */
	MIB_LAW_IP6,	 /**< Ip6InReceives = Ip6InDelivers + IPv6-level terminals */
	MIB_LAW_L4,	 /**< InDelivers + Ip6InDelivers = the L4 outcomes */
	MIB_LAW_MODE,	 /**< RxPackets = the Mode group's packets */
	MIB_LAW_REASM,	 /**< ReasmReqds = IpFragQueued + IpFragDropped + ReasmOKs */
	MIB_LAW_REASM6,	 /**< Ip6ReasmReqds = Ip6FragQueued + Ip6FragDropped
			  *   + Ip6ReasmOKs + Ip6FragHdrErrors */
	MIB_LAW_MAX
};

/** Most fields on a law's left-hand side. */
#define MIB_LAW_LHS_MAX 2

/** Number of laws (struct mib_law arrays are this long). */
#define MIB_N_LAWS MIB_LAW_MAX
/** Bit of law l in a field's laws mask. */
#define MIB_LAW_BIT(l) (1u << (l))
/** The outcome laws: their terms are terminals and the left-hand sides of
 *  the next outcome law (RxPackets -> InReceives -> InDelivers), so that
 *  every frame is in exactly one terminal when they hold. */
#define MIB_LAWS_OUTCOME                                                                \
	(MIB_LAW_BIT(MIB_LAW_RX) | MIB_LAW_BIT(MIB_LAW_IP) | MIB_LAW_BIT(MIB_LAW_IP6) | \
	 MIB_LAW_BIT(MIB_LAW_L4))
/** The laws of the receive path alone, which mib_check_conservation()
 *  checks (Mode is filled by the application's workers only). */
#define MIB_LAWS_PATH (MIB_LAW_BIT(MIB_N_LAWS) - 1u - MIB_LAW_BIT(MIB_LAW_MODE))

/** Longest field name, and longest help text, with their NUL (checked for
 *  every row at compile time: a help text fits a line, and a DPDK telemetry
 *  string). */
#define MIB_NAME_MAX 32
#define MIB_HELP_MAX 100

/** One row of the field table. */
struct mib_field {
	const char *name;	/**< as Linux prints it ("InReceives") */
	const char *help;	/**< one line, lower case, no full stop */
	int64_t value;		/**< a MIB_KIND_CONST field's value (MaxConn -1) */
	uint8_t group;		/**< enum mib_group */
	uint8_t kind;		/**< enum mib_kind */
	uint8_t role;		/**< enum mib_role */
	uint16_t laws;		/**< MIB_LAW_BIT() of every law it is a term of */
};

/** The field table, by flat index (constant; thread-safe). */
extern const struct mib_field mib_fields[MIB_FIELD_MAX];

enum mib_layout { MIB_LAYOUT_PERCPU, MIB_LAYOUT_SHARED, MIB_LAYOUT_MAX };
enum mib_fold { MIB_FOLD_FIELD, MIB_FOLD_LCORE, MIB_FOLD_MAX };

/**
 * A writer's handle on its block. Counter f is at base[f << shift]:
 * shift is 0 in the percpu layout, log2(stride) in the shared one.
 */
struct mib_block {
	uint64_t *base;
	unsigned int shift;
};

/**
 * Add v to counter f. Single writer only (the block's owner); wait-free,
 * no locked instruction. The relaxed store is atomic so that a concurrent
 * reader never sees a torn value; no ordering with other counters is
 * implied (readers must not assume cross-field consistency mid-burst).
 */
static __rte_always_inline void
mib_add(struct mib_block *b, unsigned int f, uint64_t v)
{
	uint64_t *p = b->base + ((size_t)f << b->shift);

	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + v,
			 __ATOMIC_RELAXED);
}

/** mib_add(b, f, 1). Single writer only. */
static __rte_always_inline void
mib_inc(struct mib_block *b, unsigned int f)
{
	mib_add(b, f, 1);
}

/** Raise counter f to v if v is larger (a MIB_KIND_HWM field). Single writer. */
static inline void
mib_max(struct mib_block *b, unsigned int f, uint64_t v)
{
	uint64_t *p = b->base + ((size_t)f << b->shift);

	if (v > __atomic_load_n(p, __ATOMIC_RELAXED))
		__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/** Read counter f of a block (any thread). */
static inline uint64_t
mib_read(const struct mib_block *b, unsigned int f)
{
	return __atomic_load_n(b->base + ((size_t)f << b->shift),
			       __ATOMIC_RELAXED);
}

/* ---- schema (thread-safe: constant tables) ---- */

/** Group name as Linux prints it ("Ip", "IpExt", ...), or "?" out of range. */
const char *mib_group_name(enum mib_group g);
/** First flat index of group g. */
unsigned int mib_group_first(enum mib_group g);
/** Number of fields in group g. */
unsigned int mib_group_count(enum mib_group g);
/** Field name as Linux prints it ("InReceives"), or NULL if f is out of range. */
const char *mib_field_name(unsigned int f);
/** Group of field f (MIB_GRP_MAX if out of range). */
enum mib_group mib_field_group(unsigned int f);
/** How field f folds (MIB_KIND_SUM if f is out of range). */
static inline enum mib_kind
mib_field_kind(unsigned int f)
{
	return f < MIB_FIELD_MAX ? (enum mib_kind)mib_fields[f].kind : MIB_KIND_SUM;
}

/** Role of field f (MIB_ROLE_INFO if f is out of range). One load: fit for
 *  the packet path. */
static inline enum mib_role
mib_field_role(unsigned int f)
{
	return f < MIB_FIELD_MAX ? (enum mib_role)mib_fields[f].role : MIB_ROLE_INFO;
}

/** The laws field f is a term of (MIB_LAW_BIT() mask; 0 if out of range). */
static inline unsigned int
mib_field_laws(unsigned int f)
{
	return f < MIB_FIELD_MAX ? mib_fields[f].laws : 0;
}

/** True if f is a terminal outcome: a MIB_ROLE_DELIVER, _DROP or _SINK field. */
static inline bool
mib_field_terminal(unsigned int f)
{
	enum mib_role r = mib_field_role(f);

	return r == MIB_ROLE_DELIVER || r == MIB_ROLE_DROP || r == MIB_ROLE_SINK;
}

/** Value of a MIB_KIND_CONST field (as Linux prints it; MaxConn is -1), 0
 *  for any other field. */
int64_t mib_field_const(unsigned int f);
/**
 * True for a group Linux prints sparsely: only its non-zero fields, and the
 * group not at all when all are zero (IcmpMsg). Every printer of pktpath
 * (/snmp, /metrics, JSON, telemetry) does the same.
 */
bool mib_group_sparse(enum mib_group g);
/** Group index by name (case-sensitive), or -1. */
int mib_group_lookup(const char *name);
/** Flat field index by group and field name, or -1. */
int mib_field_lookup(const char *group, const char *field);
/**
 * Field f's name as Linux prints it in its file, in buf (len bytes): the
 * name itself ("InReceives"), but for the /proc/net/snmp6 groups, whose
 * lines carry their group: "Ip6InReceives", "Udp6NoPorts", "Icmp6InType1"
 * (Icmp6Msg). Returns buf, or NULL if f is out of range. Thread-safe.
 */
const char *mib_field_linux_name(unsigned int f, char *buf, size_t len);
/** The name /proc/net/snmp6 gives ICMPv6 type (net/ipv6/proc.c
 *  icmp6type2name: "DestUnreachs" for 1), or NULL for a type it prints by
 *  number only. Thread-safe. */
const char *mib_icmp6_type_name(unsigned int type);
/** One-line description of field f (its row's help), or NULL if out of range. */
const char *mib_field_help(unsigned int f);
/** The file Linux prints group g in ("/proc/net/snmp", "/proc/net/netstat"),
 *  whose spelling and order its fields follow; NULL for pktpath's groups. */
const char *mib_group_linux(enum mib_group g);
/** One-line description of group g, or NULL. */
const char *mib_group_help(enum mib_group g);
/** Names of the kinds, roles and laws ("sum", "drop", "InReceives": a law
 *  by its left-hand side): the kinds' and roles' "?" if out of range, a
 *  law's NULL. */
const char *mib_kind_name(enum mib_kind k);
const char *mib_role_name(enum mib_role r);

/** "percpu", "shared" (resp. "field", "lcore"), indexed by the enum. */
extern const char *const mib_layout_names[MIB_LAYOUT_MAX];
extern const char *const mib_fold_names[MIB_FOLD_MAX];
const char *mib_layout_name(enum mib_layout l);
const char *mib_fold_name(enum mib_fold f);
/** Parse "percpu"/"shared" (resp. "field"/"lcore"); -EINVAL if unknown. */
int mib_layout_parse(const char *s, enum mib_layout *out);
int mib_fold_parse(const char *s, enum mib_fold *out);

/* ---- sets of blocks ---- */

/** Alignment of a percpu block (a page, as a Linux per-CPU unit). */
#define MIB_BLOCK_ALIGN 4096u
/** Bytes of a percpu block: MIB_FIELD_MAX counters rounded up to pages. */
#define MIB_BLOCK_BYTES (((MIB_FIELD_MAX * 8u) + MIB_BLOCK_ALIGN - 1u) / \
			 MIB_BLOCK_ALIGN * MIB_BLOCK_ALIGN)
/** Most blocks in a set. */
#define MIB_SET_MAX 65536u

/** All the blocks of one run. Opaque. */
struct mib_set;

/**
 * Allocate n zeroed blocks in the given layout.
 *
 * @param n        number of blocks (workers, plus one for the control thread)
 * @param layout   percpu or shared
 * @param sockets  NUMA socket of each block (rte_zmalloc_socket), or NULL to
 *                 use the C allocator (unit tests without EAL).
 * @return the set, or NULL with rte_errno/errno set (EINVAL, ENOMEM).
 * Not thread-safe; call once at set-up.
 */
struct mib_set *mib_set_create(unsigned int n, enum mib_layout layout,
			       const int *sockets);
/**
 * Give set s a second copy of its blocks, zeroed, in layout (the other one):
 * a set in two layouts, for --compare mib-layout=percpu,shared. Its writers
 * write one copy of their block at a time (mib_set_block_in()), and may
 * move from one copy to the other between two writes, with nothing lost
 * or counted twice: every fold (mib_fold(), mib_fold_part()) reads both
 * copies of every block and adds them up (maxes them for a high-water
 * mark), so that totals and per-block values go on as one set's would,
 * whichever copy took the writes. Nothing is freed before the set is, so
 * a reader never folds freed memory. mib_set_block() and mib_set_layout()
 * stay those of the first layout.
 *
 * @param sockets  as given to mib_set_create() (NULL for a set made without)
 * @return 0; -EEXIST if s has that layout already; -EINVAL (a bad layout,
 *         sockets not as at creation); -ENOMEM (what was allocated is
 *         freed with the set).
 * Not thread-safe: at set-up, before any writer or reader uses s.
 */
int mib_set_add_layout(struct mib_set *s, enum mib_layout layout, const int *sockets);
/** Whether s has its blocks in layout (its first, or one added). Thread-safe. */
bool mib_set_has_layout(const struct mib_set *s, enum mib_layout layout);
/** Free a set (NULL is a no-op). No writer or reader may use it any more. */
void mib_set_free(struct mib_set *s);
/** Number of blocks. */
unsigned int mib_set_count(const struct mib_set *s);
/** Bytes the blocks of a set of n blocks in layout take (percpu: n *
 *  MIB_BLOCK_BYTES; shared: the interleaved array), without the allocator's
 *  own overhead. Thread-safe. */
size_t mib_set_bytes_for(unsigned int n, enum mib_layout layout);
/** mib_set_bytes_for() of s's count in each of its layouts, added. */
size_t mib_set_bytes(const struct mib_set *s);
/** mib_set_bytes_for() of n blocks in each of s's layouts, added (what s
 *  would take with n blocks). */
size_t mib_set_bytes_n(const struct mib_set *s, unsigned int n);
/** Bytes of s's blocks in layout: mib_set_bytes_for() of its count, 0 if
 *  s has none in that layout. */
size_t mib_set_layout_bytes(const struct mib_set *s, enum mib_layout layout);
/** The layout s was created in. */
enum mib_layout mib_set_layout(const struct mib_set *s);
/** Handle on block i (i < count) for its single writer, in s's first layout. */
struct mib_block mib_set_block(const struct mib_set *s, unsigned int i);
/** Handle on block i's copy in layout (mib_set_add_layout()); base is NULL
 *  if i >= count or s has no copy in that layout. Thread-safe. */
struct mib_block mib_set_block_in(const struct mib_set *s, unsigned int i,
				  enum mib_layout layout);

/**
 * Fold all blocks.
 *
 * @param s          the set
 * @param strategy   MIB_FOLD_FIELD or MIB_FOLD_LCORE
 * @param totals     out: MIB_FIELD_MAX totals (sum, max or const by kind)
 * @param per_block  out, may be NULL: count * MIB_FIELD_MAX values, block
 *                   major, read in the same pass so that they add up to
 *                   totals exactly.
 * A set in two layouts: both copies of every block, the first layout's
 * first, block l's values being the sum (max) of its two copies.
 * Thread-safe against the writers (relaxed atomic loads); one reader per
 * output buffer.
 */
void mib_fold(const struct mib_set *s, enum mib_fold strategy,
	      uint64_t *totals, uint64_t *per_block);

/**
 * mib_fold() over all blocks, per_block (n_per_block * MIB_FIELD_MAX values)
 * filled for the first n_per_block blocks only: the totals still count
 * every block. For sets whose last blocks are nobody's (phantom lcores,
 * --mib-lcores), whose per-block values would be zeros. Same
 * thread-safety as mib_fold().
 */
void mib_fold_part(const struct mib_set *s, enum mib_fold strategy,
		   uint64_t *totals, uint64_t *per_block, unsigned int n_per_block);

/**
 * out = cur - base for MIB_KIND_SUM fields, cur for the others.
 * Used to clear by baseline. out may alias cur.
 */
void mib_delta(const uint64_t *cur, const uint64_t *base, uint64_t *out);

/**
 * The terminal outcomes, in flat order: every MIB_ROLE_DELIVER, _DROP and
 * _SINK field of the table. Exactly one of them moves per frame (path_rcv()
 * returns the one it moved; the worker moves RxNoPath and IngressDropped
 * itself), and the outcome laws tie them to RxPackets. mib_n_terminals
 * entries. Constant; thread-safe.
 */
extern const unsigned int mib_terminals[];
extern const unsigned int mib_n_terminals;

/**
 * "Drops by reason": every MIB_ROLE_DROP (terminal) and MIB_ROLE_DROP_LATE
 * (dropped after its delivery: Tcp InErrs, Icmp InErrors) field of every
 * group, in flat order. mib_n_drop_fields entries. A frame is in at most one
 * of them, so their sum is the frames dropped. Constant; thread-safe.
 */
extern const unsigned int mib_drop_fields[];
extern const unsigned int mib_n_drop_fields;

/** Sum of the mib_drop_fields of the MIB_FIELD_MAX values v (totals or one
 *  block): the frames dropped, all reasons. Thread-safe. */
uint64_t mib_drops_total(const uint64_t *v);

/**
 * Check the laws of the receive path (MIB_LAWS_PATH: every law but Mode's)
 * on folded totals, in the order of enum mib_law_id:
 *   RxPackets      = RxNotIp + RxOtherHost + RxNoPath + IngressDropped
 *                    + InReceives + Ip6InReceives
 *   IngressPackets = IngressPassed + IngressDropped
 *   InReceives     = InDelivers + IP drops (InHdrErrors, ..., Path IpSrcRoute)
 *   Ip6InReceives  = Ip6InDelivers + IPv6 drops (Ip6 InHdrErrors, ...)
 *   InDelivers + Ip6InDelivers = L4 outcomes (Udp InDatagrams, ..., Udp6 ...)
 *   ReasmReqds     = IpFragQueued + IpFragDropped + ReasmOKs
 *   Ip6ReasmReqds  = Ip6FragQueued + Ip6FragDropped + Ip6ReasmOKs
 *                    + Ip6FragHdrErrors
 * each right-hand side being every field whose row names the law (the two
 * reassembly laws: every fragment ip_defrag or ipv6_frag_rcv takes is
 * queued, dropped, completes its datagram or, IPv6, fails a header check).
 * Only meaningful when no worker is mid-burst (at the end of a run, or in a
 * test). Returns 0, or -1 with a one-line description of the first broken law
 * in why (if non-NULL): "InDelivers 50 != L4 outcomes 51".
 */
int mib_check_conservation(const uint64_t *t, char *why, size_t len);

/** One conservation law evaluated on totals: lhs must equal rhs. */
struct mib_law {
	const char *lhs_name;	/**< "RxPackets", "InDelivers + Ip6InDelivers" */
	const char *rhs_name;	/**< "RxNotIp + RxOtherHost + ..." */
	uint64_t lhs;
	uint64_t rhs;
};

/**
 * Evaluate every law on totals t (no verdict: the caller decides how far
 * a live snapshot may be off), indexed by enum mib_law_id: the five first of
 * mib_check_conservation(), in its order, then RxPackets = the sum of the
 * Mode group's packets, which only the application's workers fill, then its
 * two reassembly laws. Thread-safe.
 */
void mib_conservation_eval(const uint64_t *t, struct mib_law laws[MIB_N_LAWS]);

/** Short name of law l ("rx", "ingress", "ip", "ip6", "l4", "mode", "reasm",
 *  "reasm6"), or "?". */
const char *mib_law_name(enum mib_law_id l);
/** The first field of law l's left-hand side (a flat field index), or
 *  MIB_FIELD_MAX. */
unsigned int mib_law_lhs(enum mib_law_id l);
/** Every field of law l's left-hand side, in lhs (at most
 *  MIB_LAW_LHS_MAX); returns how many (0 if l is out of range). */
unsigned int mib_law_lhs_fields(enum mib_law_id l, unsigned int lhs[MIB_LAW_LHS_MAX]);
/** Left-hand side of law l as the laws print it ("RxPackets",
 *  "InDelivers + Ip6InDelivers"), or NULL. Thread-safe. */
const char *mib_law_lhs_name(enum mib_law_id l);
/** Right-hand side of law l as the laws print it ("InDelivers + IP
 *  drops"), or NULL. Thread-safe. */
const char *mib_law_rhs_name(enum mib_law_id l);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_MIB_H */
