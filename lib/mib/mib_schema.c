/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The field table: one table per MIB group, one row per field, and
 * everything derived from it (mib.h, "The field table"): the flat
 * mib_fields[], the kinds both folds use, the terminal and drop lists, the
 * conservation laws' terms and texts, the schema accessors.
 *
 * A table is a macro of rows F(G, ID, NAME, KIND, VALUE, ROLE, LAWS, HELP):
 *   G      the group, as in MIB_F(G, ID) (passed through by the table)
 *   ID     the enumerator without its prefix: INRECEIVES for MIB_IP_INRECEIVES
 *   NAME   the field's name, exactly as Linux prints it
 *   KIND   SUM, HWM or CONST (enum mib_kind)
 *   VALUE  a CONST field's value; 0 for the others
 *   ROLE   INFO, DELIVER, DROP, SINK or DROP_LATE (enum mib_role)
 *   LAWS   0, or LAW(X) | LAW(Y): the laws whose right-hand side holds it
 *   HELP   one line (at most MIB_HELP_MAX - 1 characters), lower case
 * Each consumer below expands every table with its own F. Every row is
 * checked at compile time against its group's enum (each enumerator
 * exactly once: no hole, no duplicate) and against the rules of mib.h
 * (a terminal is a term of exactly one outcome law, ...).
 */
#include <assert.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "base.h"
#include "mib.h"
#include "mib_pvt.h"

#define LAW(x) MIB_LAW_BIT(MIB_LAW_##x)

/* ---- the tables ---- */

/* one row a counter, laid out by hand */
/* clang-format off */

#define MIB_IP_TABLE(F, G) \
	F(G, FORWARDING, "Forwarding", CONST, 2, INFO, 0, \
	  "1 forwarding, 2 not (ip_forward): pktpath does not forward") \
	F(G, DEFAULTTTL, "DefaultTTL", CONST, 64, INFO, 0, \
	  "TTL of the datagrams this host sends (ip_default_ttl)") \
	F(G, INRECEIVES, "InReceives", SUM, 0, INFO, LAW(RX), \
	  "datagrams ip_rcv takes in: the IPv4 frames not to another host") \
	F(G, INHDRERRORS, "InHdrErrors", SUM, 0, DROP, LAW(IP), \
	  "datagrams with a bad header: version, IHL, lengths, checksum, options") \
	F(G, INADDRERRORS, "InAddrErrors", SUM, 0, DROP, LAW(IP), \
	  "datagrams to an address not local, forwarding off (ip_error)") \
	F(G, FORWDATAGRAMS, "ForwDatagrams", SUM, 0, INFO, 0, \
	  "datagrams forwarded (never: forwarding is off)") \
	F(G, INUNKNOWNPROTOS, "InUnknownProtos", SUM, 0, DROP, LAW(IP), \
	  "datagrams of a protocol with no handler (ip_protocol_deliver_rcu)") \
	F(G, INDISCARDS, "InDiscards", SUM, 0, DROP, LAW(IP), \
	  "datagrams ip_rcv_core had no memory for (never in pktpath)") \
	F(G, INDELIVERS, "InDelivers", SUM, 0, INFO, LAW(IP), \
	  "datagrams handed to a protocol handler (ip_local_deliver)") \
	F(G, OUTREQUESTS, "OutRequests", SUM, 0, INFO, 0, \
	  "datagrams sent (never: pktpath transmits nothing)") \
	F(G, OUTDISCARDS, "OutDiscards", SUM, 0, INFO, 0, \
	  "datagrams not sent for lack of resources (never)") \
	F(G, OUTNOROUTES, "OutNoRoutes", SUM, 0, INFO, 0, \
	  "datagrams not sent for want of a route (never)") \
	F(G, REASMTIMEOUT, "ReasmTimeout", SUM, 0, INFO, 0, \
	  "reassembly queues freed by ipfrag_time (within ReasmFails)") \
	F(G, REASMREQDS, "ReasmReqds", SUM, 0, INFO, 0, \
	  "fragments for this host ip_defrag took") \
	F(G, REASMOKS, "ReasmOKs", SUM, 0, INFO, LAW(REASM), \
	  "datagrams reassembled, delivered in place of their last fragment") \
	F(G, REASMFAILS, "ReasmFails", SUM, 0, INFO, 0, \
	  "reassembly failures: queues dropped, timed out, fragments over the memory") \
	F(G, FRAGOKS, "FragOKs", SUM, 0, INFO, 0, \
	  "datagrams fragmented on output (never)") \
	F(G, FRAGFAILS, "FragFails", SUM, 0, INFO, 0, \
	  "datagrams that could not be fragmented on output (never)") \
	F(G, FRAGCREATES, "FragCreates", SUM, 0, INFO, 0, \
	  "fragments created on output (never)") \
	F(G, OUTTRANSMITS, "OutTransmits", SUM, 0, INFO, 0, \
	  "datagrams handed to the device (never: pktpath transmits nothing)")

#define MIB_ICMP_IN(F, G, ID, NAME, WHAT) \
	F(G, ID, NAME, SUM, 0, INFO, 0, WHAT " messages received (within InMsgs)")
#define MIB_ICMP_OUT(F, G, ID, NAME, WHAT) \
	F(G, ID, NAME, SUM, 0, INFO, 0, WHAT " messages sent (never: pktpath sends no ICMP)")

#define MIB_ICMP_TABLE(F, G) \
	F(G, INMSGS, "InMsgs", SUM, 0, DELIVER, LAW(L4), \
	  "ICMP messages handed to icmp_rcv, the erroneous ones included") \
	F(G, INERRORS, "InErrors", SUM, 0, DROP_LATE, 0, \
	  "ICMP messages refused: checksum, length, type, no socket (within InMsgs)") \
	F(G, INCSUMERRORS, "InCsumErrors", SUM, 0, INFO, 0, \
	  "ICMP messages with a bad checksum (within InErrors)") \
	MIB_ICMP_IN(F, G, INDESTUNREACHS, "InDestUnreachs", "destination unreachable") \
	MIB_ICMP_IN(F, G, INTIMEEXCDS, "InTimeExcds", "time exceeded") \
	MIB_ICMP_IN(F, G, INPARMPROBS, "InParmProbs", "parameter problem") \
	MIB_ICMP_IN(F, G, INSRCQUENCHS, "InSrcQuenchs", "source quench") \
	MIB_ICMP_IN(F, G, INREDIRECTS, "InRedirects", "redirect") \
	MIB_ICMP_IN(F, G, INECHOS, "InEchos", "echo request") \
	MIB_ICMP_IN(F, G, INECHOREPS, "InEchoReps", "echo reply") \
	MIB_ICMP_IN(F, G, INTIMESTAMPS, "InTimestamps", "timestamp request") \
	MIB_ICMP_IN(F, G, INTIMESTAMPREPS, "InTimestampReps", "timestamp reply") \
	MIB_ICMP_IN(F, G, INADDRMASKS, "InAddrMasks", "address mask request") \
	MIB_ICMP_IN(F, G, INADDRMASKREPS, "InAddrMaskReps", "address mask reply") \
	MIB_ICMP_OUT(F, G, OUTMSGS, "OutMsgs", "ICMP") \
	MIB_ICMP_OUT(F, G, OUTERRORS, "OutErrors", "ICMP error") \
	F(G, OUTRATELIMITGLOBAL, "OutRateLimitGlobal", SUM, 0, INFO, 0, \
	  "ICMP messages not sent: global rate limit (the ICMPv6 errors'" \
	  " bucket, shared with IPv4 as in Linux)") \
	F(G, OUTRATELIMITHOST, "OutRateLimitHost", SUM, 0, INFO, 0, \
	  "ICMP messages not sent: per-host rate limit (never)") \
	MIB_ICMP_OUT(F, G, OUTDESTUNREACHS, "OutDestUnreachs", "destination unreachable") \
	MIB_ICMP_OUT(F, G, OUTTIMEEXCDS, "OutTimeExcds", "time exceeded") \
	MIB_ICMP_OUT(F, G, OUTPARMPROBS, "OutParmProbs", "parameter problem") \
	MIB_ICMP_OUT(F, G, OUTSRCQUENCHS, "OutSrcQuenchs", "source quench") \
	MIB_ICMP_OUT(F, G, OUTREDIRECTS, "OutRedirects", "redirect") \
	MIB_ICMP_OUT(F, G, OUTECHOS, "OutEchos", "echo request") \
	MIB_ICMP_OUT(F, G, OUTECHOREPS, "OutEchoReps", "echo reply") \
	MIB_ICMP_OUT(F, G, OUTTIMESTAMPS, "OutTimestamps", "timestamp request") \
	MIB_ICMP_OUT(F, G, OUTTIMESTAMPREPS, "OutTimestampReps", "timestamp reply") \
	MIB_ICMP_OUT(F, G, OUTADDRMASKS, "OutAddrMasks", "address mask request") \
	MIB_ICMP_OUT(F, G, OUTADDRMASKREPS, "OutAddrMaskReps", "address mask reply")

/* IcmpMsg: InType0 .. InType255, as proc.c's icmpmsg_put_line names them. */
#define MIB_ICMPMSG_ROW(F, G, n) \
	F(G, INTYPE0 + n, "InType" #n, SUM, 0, INFO, 0, \
	  "ICMP messages of type " #n " received")
#define MIB_ICMPMSG_TEN(F, G, t) \
	MIB_ICMPMSG_ROW(F, G, t##0) MIB_ICMPMSG_ROW(F, G, t##1) \
	MIB_ICMPMSG_ROW(F, G, t##2) MIB_ICMPMSG_ROW(F, G, t##3) \
	MIB_ICMPMSG_ROW(F, G, t##4) MIB_ICMPMSG_ROW(F, G, t##5) \
	MIB_ICMPMSG_ROW(F, G, t##6) MIB_ICMPMSG_ROW(F, G, t##7) \
	MIB_ICMPMSG_ROW(F, G, t##8) MIB_ICMPMSG_ROW(F, G, t##9)
#define MIB_ICMPMSG_TABLE(F, G) \
	MIB_ICMPMSG_ROW(F, G, 0) MIB_ICMPMSG_ROW(F, G, 1) MIB_ICMPMSG_ROW(F, G, 2) \
	MIB_ICMPMSG_ROW(F, G, 3) MIB_ICMPMSG_ROW(F, G, 4) MIB_ICMPMSG_ROW(F, G, 5) \
	MIB_ICMPMSG_ROW(F, G, 6) MIB_ICMPMSG_ROW(F, G, 7) MIB_ICMPMSG_ROW(F, G, 8) \
	MIB_ICMPMSG_ROW(F, G, 9) \
	MIB_ICMPMSG_TEN(F, G, 1) MIB_ICMPMSG_TEN(F, G, 2) MIB_ICMPMSG_TEN(F, G, 3) \
	MIB_ICMPMSG_TEN(F, G, 4) MIB_ICMPMSG_TEN(F, G, 5) MIB_ICMPMSG_TEN(F, G, 6) \
	MIB_ICMPMSG_TEN(F, G, 7) MIB_ICMPMSG_TEN(F, G, 8) MIB_ICMPMSG_TEN(F, G, 9) \
	MIB_ICMPMSG_TEN(F, G, 10) MIB_ICMPMSG_TEN(F, G, 11) MIB_ICMPMSG_TEN(F, G, 12) \
	MIB_ICMPMSG_TEN(F, G, 13) MIB_ICMPMSG_TEN(F, G, 14) MIB_ICMPMSG_TEN(F, G, 15) \
	MIB_ICMPMSG_TEN(F, G, 16) MIB_ICMPMSG_TEN(F, G, 17) MIB_ICMPMSG_TEN(F, G, 18) \
	MIB_ICMPMSG_TEN(F, G, 19) MIB_ICMPMSG_TEN(F, G, 20) MIB_ICMPMSG_TEN(F, G, 21) \
	MIB_ICMPMSG_TEN(F, G, 22) MIB_ICMPMSG_TEN(F, G, 23) MIB_ICMPMSG_TEN(F, G, 24) \
	MIB_ICMPMSG_ROW(F, G, 250) MIB_ICMPMSG_ROW(F, G, 251) \
	MIB_ICMPMSG_ROW(F, G, 252) MIB_ICMPMSG_ROW(F, G, 253) \
	MIB_ICMPMSG_ROW(F, G, 254) MIB_ICMPMSG_ROW(F, G, 255)

#define MIB_TCP_TABLE(F, G) \
	F(G, RTOALGORITHM, "RtoAlgorithm", CONST, 1, INFO, 0, \
	  "retransmission timeout algorithm: 1, other (RFC 1213)") \
	F(G, RTOMIN, "RtoMin", CONST, 200, INFO, 0, \
	  "minimum retransmission timeout, ms (TCP_RTO_MIN)") \
	F(G, RTOMAX, "RtoMax", CONST, 120000, INFO, 0, \
	  "maximum retransmission timeout, ms (TCP_RTO_MAX)") \
	F(G, MAXCONN, "MaxConn", CONST, -1, INFO, 0, \
	  "maximum connections: -1, no fixed limit") \
	F(G, ACTIVEOPENS, "ActiveOpens", SUM, 0, INFO, 0, \
	  "connections opened by connect() (never: no TCP socket)") \
	F(G, PASSIVEOPENS, "PassiveOpens", SUM, 0, INFO, 0, \
	  "connections accepted on a listener (never: no TCP socket)") \
	F(G, ATTEMPTFAILS, "AttemptFails", SUM, 0, INFO, 0, \
	  "connection attempts that failed (never: no TCP socket)") \
	F(G, ESTABRESETS, "EstabResets", SUM, 0, INFO, 0, \
	  "established connections reset (never: no TCP socket)") \
	F(G, CURRESTAB, "CurrEstab", SUM, 0, INFO, 0, \
	  "connections established now (never: no TCP socket)") \
	F(G, INSEGS, "InSegs", SUM, 0, DELIVER, LAW(L4), \
	  "segments handed to tcp_v4_rcv in host frames, the erroneous ones included") \
	F(G, OUTSEGS, "OutSegs", SUM, 0, INFO, 0, \
	  "segments the stack would send: the resets to segments no socket takes") \
	F(G, RETRANSSEGS, "RetransSegs", SUM, 0, INFO, 0, \
	  "segments retransmitted (never)") \
	F(G, INERRS, "InErrs", SUM, 0, DROP_LATE, 0, \
	  "segments tcp_v4_rcv refused: header length, checksum (within InSegs)") \
	F(G, OUTRSTS, "OutRsts", SUM, 0, INFO, 0, \
	  "resets the stack would send (tcp_v4/v6_send_reset), nothing sent") \
	F(G, INCSUMERRORS, "InCsumErrors", SUM, 0, INFO, 0, \
	  "segments with a bad checksum (within InErrs)")

/* Udp and UdpLite: the same table, P the protocol's name. */
#define MIB_UDP_ROWS(F, G, P) \
	F(G, INDATAGRAMS, "InDatagrams", SUM, 0, DELIVER, LAW(L4), \
	  P " datagrams delivered to a port listened on") \
	F(G, NOPORTS, "NoPorts", SUM, 0, DROP, LAW(L4), \
	  P " datagrams to a port nobody listens on") \
	F(G, INERRORS, "InErrors", SUM, 0, DROP, LAW(L4), \
	  P " datagrams dropped for a bad length or checksum") \
	F(G, OUTDATAGRAMS, "OutDatagrams", SUM, 0, INFO, 0, \
	  P " datagrams sent (never: pktpath transmits nothing)") \
	F(G, RCVBUFERRORS, "RcvbufErrors", SUM, 0, INFO, 0, \
	  P " datagrams dropped, socket buffer full (never: no socket queue)") \
	F(G, SNDBUFERRORS, "SndbufErrors", SUM, 0, INFO, 0, \
	  P " datagrams not sent, socket buffer full (never)") \
	F(G, INCSUMERRORS, "InCsumErrors", SUM, 0, INFO, 0, \
	  P " datagrams with a bad checksum (within InErrors)") \
	F(G, IGNOREDMULTI, "IgnoredMulti", SUM, 0, DROP, LAW(L4), \
	  P " broadcast or multicast datagrams to a port nobody listens on") \
	F(G, MEMERRORS, "MemErrors", SUM, 0, INFO, 0, \
	  P " datagrams dropped, socket memory limit (never: no socket queue)")
#define MIB_UDP_TABLE(F, G) MIB_UDP_ROWS(F, G, "UDP")
#define MIB_UDPLITE_TABLE(F, G) MIB_UDP_ROWS(F, G, "UDP-Lite")

#define MIB_IPEXT_TABLE(F, G) \
	F(G, INNOROUTES, "InNoRoutes", SUM, 0, INFO, 0, \
	  "datagrams with no route, forwarding on (never: see InAddrErrors)") \
	F(G, INTRUNCATEDPKTS, "InTruncatedPkts", SUM, 0, DROP, LAW(IP), \
	  "datagrams shorter than their IP total length (ip_rcv_core)") \
	F(G, INMCASTPKTS, "InMcastPkts", SUM, 0, INFO, 0, \
	  "multicast datagrams routed to a joined group") \
	F(G, OUTMCASTPKTS, "OutMcastPkts", SUM, 0, INFO, 0, \
	  "multicast datagrams sent (never)") \
	F(G, INBCASTPKTS, "InBcastPkts", SUM, 0, INFO, 0, \
	  "broadcast datagrams: limited or a local subnet's") \
	F(G, OUTBCASTPKTS, "OutBcastPkts", SUM, 0, INFO, 0, \
	  "broadcast datagrams sent (never)") \
	F(G, INOCTETS, "InOctets", SUM, 0, INFO, 0, \
	  "bytes of the InReceives datagrams, from the IP header to the frame's end") \
	F(G, OUTOCTETS, "OutOctets", SUM, 0, INFO, 0, \
	  "bytes sent (never)") \
	F(G, INMCASTOCTETS, "InMcastOctets", SUM, 0, INFO, 0, \
	  "bytes of the InMcastPkts datagrams") \
	F(G, OUTMCASTOCTETS, "OutMcastOctets", SUM, 0, INFO, 0, \
	  "multicast bytes sent (never)") \
	F(G, INBCASTOCTETS, "InBcastOctets", SUM, 0, INFO, 0, \
	  "bytes of the InBcastPkts datagrams") \
	F(G, OUTBCASTOCTETS, "OutBcastOctets", SUM, 0, INFO, 0, \
	  "broadcast bytes sent (never)") \
	F(G, INCSUMERRORS, "InCsumErrors", SUM, 0, INFO, 0, \
	  "datagrams with a bad header checksum (within InHdrErrors)") \
	F(G, INNOECTPKTS, "InNoECTPkts", SUM, 0, INFO, 0, \
	  "datagrams with ECN field 00, not ECN-capable") \
	F(G, INECT1PKTS, "InECT1Pkts", SUM, 0, INFO, 0, \
	  "datagrams with ECN field 01, ECT(1)") \
	F(G, INECT0PKTS, "InECT0Pkts", SUM, 0, INFO, 0, \
	  "datagrams with ECN field 10, ECT(0)") \
	F(G, INCEPKTS, "InCEPkts", SUM, 0, INFO, 0, \
	  "datagrams with ECN field 11, congestion experienced") \
	F(G, REASMOVERLAPS, "ReasmOverlaps", SUM, 0, INFO, 0, \
	  "fragments overlapping queued data: the queue is dropped (RFC 5722)")

#define MIB_IP6_TABLE(F, G) \
	F(G, INRECEIVES, "InReceives", SUM, 0, INFO, LAW(RX), \
	  "packets ipv6_rcv takes in: the IPv6 frames not to another host") \
	F(G, INHDRERRORS, "InHdrErrors", SUM, 0, DROP, LAW(IP6), \
	  "packets with a bad header: version, addresses, options, extension headers") \
	F(G, INTOOBIGERRORS, "InTooBigErrors", SUM, 0, INFO, 0, \
	  "packets too big to forward (never: forwarding is off)") \
	F(G, INNOROUTES, "InNoRoutes", SUM, 0, DROP, LAW(IP6), \
	  "packets with no route to their destination (ip6_pkt_discard)") \
	F(G, INADDRERRORS, "InAddrErrors", SUM, 0, DROP, LAW(IP6), \
	  "packets to an address not local, forwarding off (ip6_forward)") \
	F(G, INUNKNOWNPROTOS, "InUnknownProtos", SUM, 0, DROP, LAW(IP6), \
	  "packets whose next header has no handler (ip6_protocol_deliver_rcu)") \
	F(G, INTRUNCATEDPKTS, "InTruncatedPkts", SUM, 0, DROP, LAW(IP6), \
	  "packets shorter than their payload length (ip6_rcv_core)") \
	F(G, INDISCARDS, "InDiscards", SUM, 0, DROP, LAW(IP6), \
	  "packets discarded in ip6_protocol_deliver_rcu: a final header after another") \
	F(G, INDELIVERS, "InDelivers", SUM, 0, INFO, LAW(IP6), \
	  "packets handed to a final protocol handler (ip6_protocol_deliver_rcu)") \
	F(G, OUTFORWDATAGRAMS, "OutForwDatagrams", SUM, 0, INFO, 0, \
	  "packets forwarded (never: forwarding is off)") \
	F(G, OUTREQUESTS, "OutRequests", SUM, 0, INFO, 0, \
	  "packets the host would send: ICMPv6 errors, replies, advertisements") \
	F(G, OUTDISCARDS, "OutDiscards", SUM, 0, INFO, 0, \
	  "packets not sent for lack of resources (never)") \
	F(G, OUTNOROUTES, "OutNoRoutes", SUM, 0, INFO, 0, \
	  "ICMPv6 errors not sent for want of a route back to the source") \
	F(G, REASMTIMEOUT, "ReasmTimeout", SUM, 0, INFO, 0, \
	  "reassemblies timed out") \
	F(G, REASMREQDS, "ReasmReqds", SUM, 0, INFO, 0, \
	  "fragment headers ipv6_frag_rcv took, atomic and refused ones included") \
	F(G, REASMOKS, "ReasmOKs", SUM, 0, INFO, LAW(REASM6), \
	  "packets reassembled") \
	F(G, REASMFAILS, "ReasmFails", SUM, 0, INFO, 0, \
	  "reassembly failures: bad fragments, overlaps, timeouts, memory limit") \
	F(G, FRAGOKS, "FragOKs", SUM, 0, INFO, 0, \
	  "packets fragmented on output (never)") \
	F(G, FRAGFAILS, "FragFails", SUM, 0, INFO, 0, \
	  "packets that could not be fragmented on output (never)") \
	F(G, FRAGCREATES, "FragCreates", SUM, 0, INFO, 0, \
	  "fragments created on output (never)") \
	F(G, INMCASTPKTS, "InMcastPkts", SUM, 0, INFO, 0, \
	  "multicast packets routed to ip6_mc_input") \
	F(G, OUTMCASTPKTS, "OutMcastPkts", SUM, 0, INFO, 0, \
	  "multicast packets the host would send") \
	F(G, INOCTETS, "InOctets", SUM, 0, INFO, 0, \
	  "bytes of the InReceives packets, from the IPv6 header to the frame's end") \
	F(G, OUTOCTETS, "OutOctets", SUM, 0, INFO, 0, \
	  "bytes the host would send") \
	F(G, INMCASTOCTETS, "InMcastOctets", SUM, 0, INFO, 0, \
	  "bytes of the InMcastPkts packets") \
	F(G, OUTMCASTOCTETS, "OutMcastOctets", SUM, 0, INFO, 0, \
	  "multicast bytes the host would send") \
	F(G, INBCASTOCTETS, "InBcastOctets", SUM, 0, INFO, 0, \
	  "broadcast bytes (never: IPv6 has no broadcast)") \
	F(G, OUTBCASTOCTETS, "OutBcastOctets", SUM, 0, INFO, 0, \
	  "broadcast bytes sent (never)") \
	F(G, INNOECTPKTS, "InNoECTPkts", SUM, 0, INFO, 0, \
	  "packets with ECN field 00, not ECN-capable") \
	F(G, INECT1PKTS, "InECT1Pkts", SUM, 0, INFO, 0, \
	  "packets with ECN field 01, ECT(1)") \
	F(G, INECT0PKTS, "InECT0Pkts", SUM, 0, INFO, 0, \
	  "packets with ECN field 10, ECT(0)") \
	F(G, INCEPKTS, "InCEPkts", SUM, 0, INFO, 0, \
	  "packets with ECN field 11, congestion experienced") \
	F(G, OUTTRANSMITS, "OutTransmits", SUM, 0, INFO, 0, \
	  "packets the host would hand to the device")

#define MIB_ICMP6_TABLE(F, G) \
	F(G, INMSGS, "InMsgs", SUM, 0, DELIVER, LAW(L4), \
	  "ICMPv6 messages handed to icmpv6_rcv, the erroneous ones included") \
	F(G, INERRORS, "InErrors", SUM, 0, DROP_LATE, 0, \
	  "ICMPv6 messages refused: checksum, length, quote, no socket (within InMsgs)") \
	F(G, OUTMSGS, "OutMsgs", SUM, 0, INFO, 0, \
	  "ICMPv6 messages the host would send: errors, echo replies, advertisements") \
	F(G, OUTERRORS, "OutErrors", SUM, 0, INFO, 0, \
	  "ICMPv6 messages that could not be sent (never)") \
	F(G, INCSUMERRORS, "InCsumErrors", SUM, 0, INFO, 0, \
	  "ICMPv6 messages with a bad checksum (within InErrors)") \
	F(G, OUTRATELIMITHOST, "OutRateLimitHost", SUM, 0, INFO, 0, \
	  "ICMPv6 errors not sent: no route to the source, or its rate " \
	  "limit (--icmp6-ratelimit)")

/* Icmp6Msg: InType0 .. InType255, then OutType0 .. OutType255. R(F, G, n)
 * for every type n. */
#define MIB_ICMP6MSG_TEN(R, F, G, t) \
	R(F, G, t##0) R(F, G, t##1) R(F, G, t##2) R(F, G, t##3) R(F, G, t##4) \
	R(F, G, t##5) R(F, G, t##6) R(F, G, t##7) R(F, G, t##8) R(F, G, t##9)
#define MIB_ICMP6MSG_TYPES(R, F, G) \
	R(F, G, 0) R(F, G, 1) R(F, G, 2) R(F, G, 3) R(F, G, 4) R(F, G, 5) \
	R(F, G, 6) R(F, G, 7) R(F, G, 8) R(F, G, 9) \
	MIB_ICMP6MSG_TEN(R, F, G, 1) MIB_ICMP6MSG_TEN(R, F, G, 2) \
	MIB_ICMP6MSG_TEN(R, F, G, 3) MIB_ICMP6MSG_TEN(R, F, G, 4) \
	MIB_ICMP6MSG_TEN(R, F, G, 5) MIB_ICMP6MSG_TEN(R, F, G, 6) \
	MIB_ICMP6MSG_TEN(R, F, G, 7) MIB_ICMP6MSG_TEN(R, F, G, 8) \
	MIB_ICMP6MSG_TEN(R, F, G, 9) MIB_ICMP6MSG_TEN(R, F, G, 10) \
	MIB_ICMP6MSG_TEN(R, F, G, 11) MIB_ICMP6MSG_TEN(R, F, G, 12) \
	MIB_ICMP6MSG_TEN(R, F, G, 13) MIB_ICMP6MSG_TEN(R, F, G, 14) \
	MIB_ICMP6MSG_TEN(R, F, G, 15) MIB_ICMP6MSG_TEN(R, F, G, 16) \
	MIB_ICMP6MSG_TEN(R, F, G, 17) MIB_ICMP6MSG_TEN(R, F, G, 18) \
	MIB_ICMP6MSG_TEN(R, F, G, 19) MIB_ICMP6MSG_TEN(R, F, G, 20) \
	MIB_ICMP6MSG_TEN(R, F, G, 21) MIB_ICMP6MSG_TEN(R, F, G, 22) \
	MIB_ICMP6MSG_TEN(R, F, G, 23) MIB_ICMP6MSG_TEN(R, F, G, 24) \
	R(F, G, 250) R(F, G, 251) R(F, G, 252) R(F, G, 253) R(F, G, 254) \
	R(F, G, 255)
#define MIB_ICMP6MSG_IN_ROW(F, G, n) \
	F(G, INTYPE0 + n, "InType" #n, SUM, 0, INFO, 0, \
	  "messages of type " #n " received by icmpv6_rcv")
#define MIB_ICMP6MSG_OUT_ROW(F, G, n) \
	F(G, OUTTYPE0 + n, "OutType" #n, SUM, 0, INFO, 0, \
	  "messages of type " #n " the host would send over ICMPv6")
#define MIB_ICMP6MSG_TABLE(F, G) \
	MIB_ICMP6MSG_TYPES(MIB_ICMP6MSG_IN_ROW, F, G) \
	MIB_ICMP6MSG_TYPES(MIB_ICMP6MSG_OUT_ROW, F, G)

#define MIB_UDP6_TABLE(F, G) MIB_UDP_ROWS(F, G, "UDP over IPv6")
#define MIB_UDPLITE6_TABLE(F, G) MIB_UDP_ROWS(F, G, "UDP-Lite over IPv6")

#define MIB_RX_TABLE(F, G) \
	F(G, PACKETS, "RxPackets", SUM, 0, INFO, 0, \
	  "frames the source handed to the path") \
	F(G, OCTETS, "RxOctets", SUM, 0, INFO, 0, \
	  "L2 bytes of the RxPackets frames, without FCS") \
	F(G, BURSTS, "RxBursts", SUM, 0, INFO, 0, \
	  "polls that returned frames") \
	F(G, EMPTYPOLLS, "RxEmptyPolls", SUM, 0, INFO, 0, \
	  "polls that returned nothing") \
	F(G, NOTIP, "RxNotIp", SUM, 0, DROP, LAW(RX), \
	  "frames not IPv4 or IPv6 by their ethertype, or too short for their L2 header") \
	F(G, RUNTS, "RxRunts", SUM, 0, INFO, 0, \
	  "frames too short for their Ethernet header or a VLAN tag") \
	F(G, VLAN, "RxVlan", SUM, 0, INFO, 0, \
	  "frames with an 802.1Q or 802.1ad tag, VID 0 included") \
	F(G, VLANNODEVICE, "RxVlanNoDevice", SUM, 0, INFO, 0, \
	  "frames made PACKET_OTHERHOST by a tag whose VID has no VLAN device (--vlan)") \
	F(G, OTHERHOST, "RxOtherHost", SUM, 0, DROP, LAW(RX), \
	  "IPv4 and IPv6 frames PACKET_OTHERHOST: to another host's MAC, or by a VLAN tag") \
	F(G, BROADCAST, "RxBroadcast", SUM, 0, INFO, 0, \
	  "frames to the L2 broadcast address") \
	F(G, MULTICAST, "RxMulticast", SUM, 0, INFO, 0, \
	  "frames to an L2 multicast address") \
	F(G, NOPATH, "RxNoPath", SUM, 0, SINK, LAW(RX), \
	  "frames freed without going through the path (--path rx-only)") \
	F(G, NOMBUF, "RxNoMbuf", SUM, 0, INFO, 0, \
	  "mbuf allocation failures of the generator") \
	F(G, BUSYCYCLES, "BusyCycles", SUM, 0, INFO, 0, \
	  "TSC cycles of the polls that returned frames") \
	F(G, IDLECYCLES, "IdleCycles", SUM, 0, INFO, 0, \
	  "TSC cycles of the empty polls") \
	F(G, SUSPICIOUSPOLLS, "SuspiciousPolls", SUM, 0, INFO, 0, \
	  "polls longer than --suspicious-us (--perf-detail)") \
	F(G, LOSTCYCLES, "LostCycles", SUM, 0, INFO, 0, \
	  "TSC cycles of polls longer than --stall-us: time not run, not work") \
	F(G, LOSTPOLLS, "LostPolls", SUM, 0, INFO, 0, \
	  "polls longer than --stall-us (packets counted, cycles lost)")

#define MIB_PATH_TABLE(F, G) \
	F(G, IPINVALIDSOURCE, "IpInvalidSource", SUM, 0, DROP, LAW(IP), \
	  "datagrams from a martian source (SKB_DROP_REASON_IP_INVALID_SOURCE)") \
	F(G, IPINVALIDDEST, "IpInvalidDest", SUM, 0, DROP, LAW(IP), \
	  "datagrams to 0.0.0.0 or loopback (SKB_DROP_REASON_IP_INVALID_DEST)") \
	F(G, IPMCASTNOTJOINED, "IpMcastNotJoined", SUM, 0, DROP, LAW(IP), \
	  "multicast datagrams to a group not joined (--mcast)") \
	F(G, IPSRCROUTE, "IpSrcRoute", SUM, 0, DROP, LAW(IP), \
	  "source-routed datagrams (accept_source_route=0)") \
	F(G, TCPNOTHOST, "TcpNotHost", SUM, 0, DROP, LAW(L4), \
	  "TCP segments in broadcast or multicast frames (not PACKET_HOST)") \
	F(G, IGMPDELIVERED, "IgmpDelivered", SUM, 0, DELIVER, LAW(L4), \
	  "datagrams handed to the IGMP handler") \
	F(G, PIMDELIVERED, "PimDelivered", SUM, 0, DELIVER, LAW(L4), \
	  "datagrams handed to pim_rcv or pim6_rcv (--pim on)") \
	F(G, IP6MCASTNOTJOINED, "Ip6McastNotJoined", SUM, 0, DROP, LAW(IP6), \
	  "IPv6 multicast packets to a group not joined (ip6_mc_input frees them)") \
	F(G, IP6SEGROUTINGOFF, "Ip6SegRoutingOff", SUM, 0, DROP, LAW(IP6), \
	  "IPv6 packets with a segment routing header, seg6_enabled and rpl_seg_enabled 0") \
	F(G, IP6NONEXTHDR, "Ip6NoNextHdr", SUM, 0, DELIVER, LAW(L4), \
	  "IPv6 packets whose next header is 59, none: delivered to dst_discard") \
	F(G, IP6FRAGQUEUED, "Ip6FragQueued", SUM, 0, SINK, LAW(IP6) | LAW(REASM6), \
	  "IPv6 fragments ipv6_frag_rcv kept (then reassembled, timed out or dropped)") \
	F(G, IPFRAGQUEUED, "IpFragQueued", SUM, 0, SINK, LAW(IP) | LAW(REASM), \
	  "IPv4 fragments ip_defrag kept (then reassembled, timed out or dropped)") \
	F(G, IPFRAGDROPPED, "IpFragDropped", SUM, 0, DROP, LAW(IP) | LAW(REASM), \
	  "IPv4 fragments ip_defrag freed at once: duplicate, bad end, overlap, memory") \
	F(G, IP6FRAGDROPPED, "Ip6FragDropped", SUM, 0, DROP, LAW(IP6) | LAW(REASM6), \
	  "IPv6 fragments ipv6_frag_rcv freed at once: duplicate, bad end, overlap, memory") \
	F(G, IP6REASMOVERLAPS, "Ip6ReasmOverlaps", SUM, 0, INFO, 0, \
	  "IPv6 fragments overlapping a queued one (RFC 5722; snmp6 does not print it)") \
	F(G, IP6FRAGHDRERRORS, "Ip6FragHdrErrors", SUM, 0, INFO, LAW(REASM6), \
	  "IPv6 fragments ipv6_frag_rcv took and its header checks ended (Ip6 InHdrErrors)")

#define MIB_INGRESS_TABLE(F, G) \
	F(G, PACKETS, "IngressPackets", SUM, 0, INFO, 0, \
	  "frames the ingress classifier saw") \
	F(G, MATCHED, "IngressMatched", SUM, 0, INFO, 0, \
	  "frames a rule matched") \
	F(G, PASSED, "IngressPassed", SUM, 0, INFO, LAW(INGRESS), \
	  "frames the classifier let through") \
	F(G, DROPPED, "IngressDropped", SUM, 0, DROP, LAW(RX) | LAW(INGRESS), \
	  "frames the classifier dropped") \
	F(G, MARKED, "IngressMarked", SUM, 0, INFO, 0, \
	  "frames the classifier let through with a mark") \
	F(G, LOCKACQUIRES, "LockAcquires", SUM, 0, INFO, 0, \
	  "guard lock acquisitions (--ingress lock, rwlock)") \
	F(G, LOCKCONTENDED, "LockContended", SUM, 0, INFO, 0, \
	  "guard lock acquisitions that found it taken") \
	F(G, RCUQUIESCENT, "RcuQuiescent", SUM, 0, INFO, 0, \
	  "RCU quiescent states the workers reported (--ingress rcu)") \
	F(G, RULEUPDATES, "RuleUpdates", SUM, 0, INFO, 0, \
	  "rule sets the control thread published") \
	F(G, GRACEPERIODS, "GracePeriods", SUM, 0, INFO, 0, \
	  "RCU grace periods the ingress writers waited for") \
	F(G, GRACEPERIODMAXUS, "GracePeriodMaxUs", HWM, 0, INFO, 0, \
	  "longest RCU grace period an ingress writer waited for, in microseconds") \
	F(G, MODEFLIPS, "ModeFlips", SUM, 0, INFO, 0, \
	  "live changes of the ingress guard mode")

#define MIB_PEER_TABLE(F, G) \
	F(G, LOOKUPS, "PeerLookups", SUM, 0, INFO, 0, \
	  "inetpeer lookups of delivered packets' sources (--peer on)") \
	F(G, HITS, "PeerHits", SUM, 0, INFO, 0, \
	  "lookups that found the source's entry") \
	F(G, MISSES, "PeerMisses", SUM, 0, INFO, 0, \
	  "lookups that found no entry") \
	F(G, GETS, "PeerGets", SUM, 0, INFO, 0, \
	  "entry references taken") \
	F(G, PUTS, "PeerPuts", SUM, 0, INFO, 0, \
	  "entry references dropped")

#define MIB_CAPTURE_TABLE(F, G) \
	F(G, PACKETS, "CapturePackets", SUM, 0, INFO, 0, \
	  "frames written whole to the capture file (--capture)") \
	F(G, OVERFLOW, "CaptureOverflow", SUM, 0, INFO, 0, \
	  "frames not copied: the capture ring was full") \
	F(G, WRITEERRORS, "CaptureWriteErrors", SUM, 0, INFO, 0, \
	  "frames not written: a write to the capture file failed (it stopped)")

/* Mode: one quadruple per ingress mode, in enum ingress_mode's order.
 * M(F, G, ID prefix, name part, label). */
#define MIB_MODE_LIST(M, F, G) \
	M(F, G, OFF, "Off", "off") M(F, G, NONE, "None", "none") \
	M(F, G, LOCK, "Lock", "lock") M(F, G, RWLOCK, "Rwlock", "rwlock") \
	M(F, G, RCU, "Rcu", "rcu")
#define MIB_MODE_ROWS(F, G, M, NAME, LABEL) \
	F(G, M##PACKETS, "Mode" NAME "Packets", SUM, 0, INFO, LAW(MODE), \
	  "frames received while ingress mode " LABEL " was in force") \
	F(G, M##BUSYCYCLES, "Mode" NAME "BusyCycles", SUM, 0, INFO, 0, \
	  "busy TSC cycles while ingress mode " LABEL " was in force") \
	F(G, M##IDLECYCLES, "Mode" NAME "IdleCycles", SUM, 0, INFO, 0, \
	  "idle TSC cycles while ingress mode " LABEL " was in force") \
	F(G, M##LOSTCYCLES, "Mode" NAME "LostCycles", SUM, 0, INFO, 0, \
	  "lost TSC cycles (--stall-us) while ingress mode " LABEL " was in force")
#define MIB_MODE_TABLE(F, G) MIB_MODE_LIST(MIB_MODE_ROWS, F, G)

/* Stage: one triple per stage, in enum mib_stage_id's order.
 * S(F, G, ID prefix, name part, label, what the stage is). */
#define MIB_STAGE_LIST(S, F, G) \
	S(F, G, RX, "Rx", "rx", "the source's receive (rx_burst or the generator)") \
	S(F, G, L2, "L2", "l2", "the L2 stage") \
	S(F, G, INGRESS, "Ingress", "ingress", "the ingress guard and classifier") \
	S(F, G, IP, "Ip", "ip", "the IP, route and L4 stages") \
	S(F, G, PEER, "Peer", "peer", "the inetpeer-like stage") \
	S(F, G, CAPTURE, "Capture", "capture", "the capture stage") \
	S(F, G, FREE, "Free", "free", "freeing or recycling the burst")
#define MIB_STAGE_ROWS(F, G, S, NAME, LABEL, WHAT) \
	F(G, S##CYCLES, "Stage" NAME "Cycles", SUM, 0, INFO, 0, \
	  "TSC cycles in " WHAT " (--stage-cycles)") \
	F(G, S##PACKETS, "Stage" NAME "Packets", SUM, 0, INFO, 0, \
	  "packets that entered " WHAT " (--stage-cycles)") \
	F(G, S##CALLS, "Stage" NAME "Calls", SUM, 0, INFO, 0, \
	  "bursts " WHAT " ran on (--stage-cycles)")
#define MIB_STAGE_TABLE(F, G) MIB_STAGE_LIST(MIB_STAGE_ROWS, F, G)

/* Every table, in flat order. */
#define MIB_ALL_TABLES(F) \
	MIB_IP_TABLE(F, IP) MIB_ICMP_TABLE(F, ICMP) MIB_ICMPMSG_TABLE(F, ICMPMSG) \
	MIB_TCP_TABLE(F, TCP) MIB_UDP_TABLE(F, UDP) MIB_UDPLITE_TABLE(F, UDPLITE) \
	MIB_IPEXT_TABLE(F, IPEXT) MIB_RX_TABLE(F, RX) MIB_PATH_TABLE(F, PATH) \
	MIB_INGRESS_TABLE(F, INGRESS) MIB_PEER_TABLE(F, PEER) \
	MIB_CAPTURE_TABLE(F, CAPTURE) MIB_MODE_TABLE(F, MODE) \
	MIB_STAGE_TABLE(F, STAGE) MIB_IP6_TABLE(F, IP6) MIB_ICMP6_TABLE(F, ICMP6) \
	MIB_ICMP6MSG_TABLE(F, ICMP6MSG) MIB_UDP6_TABLE(F, UDP6) \
	MIB_UDPLITE6_TABLE(F, UDPLITE6)

/* The flat index of a row. */
#define MIB_ROW_INDEX(G, ID) (MIB_BASE_##G + (MIB_##G##_##ID))

/* ---- compile-time checks ---- */

/* Each table has exactly one row per enumerator of its group: as many rows
 * as the enum counts, and (a designated initializer given twice is an
 * error with -Werror: -Woverride-init, clang's -Winitializer-overrides)
 * no index twice. */
#define MIB_ROW_ONE(...) + 1
static_assert((0 MIB_IP_TABLE(MIB_ROW_ONE, IP)) == MIB_IP_MAX, "Ip table and enum disagree");
static_assert((0 MIB_ICMP_TABLE(MIB_ROW_ONE, ICMP)) == MIB_ICMP_MAX,
	      "Icmp table and enum disagree");
static_assert((0 MIB_ICMPMSG_TABLE(MIB_ROW_ONE, ICMPMSG)) == MIB_ICMPMSG_MAX,
	      "IcmpMsg table and enum disagree");
static_assert((0 MIB_TCP_TABLE(MIB_ROW_ONE, TCP)) == MIB_TCP_MAX, "Tcp table and enum disagree");
static_assert((0 MIB_UDP_TABLE(MIB_ROW_ONE, UDP)) == MIB_UDP_MAX, "Udp table and enum disagree");
static_assert((0 MIB_UDPLITE_TABLE(MIB_ROW_ONE, UDPLITE)) == MIB_UDPLITE_MAX,
	      "UdpLite table and enum disagree");
static_assert((0 MIB_IPEXT_TABLE(MIB_ROW_ONE, IPEXT)) == MIB_IPEXT_MAX,
	      "IpExt table and enum disagree");
static_assert((0 MIB_RX_TABLE(MIB_ROW_ONE, RX)) == MIB_RX_MAX, "Rx table and enum disagree");
static_assert((0 MIB_PATH_TABLE(MIB_ROW_ONE, PATH)) == MIB_PATH_MAX,
	      "Path table and enum disagree");
static_assert((0 MIB_INGRESS_TABLE(MIB_ROW_ONE, INGRESS)) == MIB_INGRESS_MAX,
	      "Ingress table and enum disagree");
static_assert((0 MIB_PEER_TABLE(MIB_ROW_ONE, PEER)) == MIB_PEER_MAX,
	      "Peer table and enum disagree");
static_assert((0 MIB_CAPTURE_TABLE(MIB_ROW_ONE, CAPTURE)) == MIB_CAPTURE_MAX,
	      "Capture table and enum disagree");
static_assert((0 MIB_MODE_TABLE(MIB_ROW_ONE, MODE)) == MIB_MODE_MAX,
	      "Mode table and enum disagree");
static_assert((0 MIB_STAGE_TABLE(MIB_ROW_ONE, STAGE)) == MIB_STAGE_MAX,
	      "Stage table and enum disagree");
static_assert((0 MIB_IP6_TABLE(MIB_ROW_ONE, IP6)) == MIB_IP6_MAX, "Ip6 table and enum disagree");
static_assert((0 MIB_ICMP6_TABLE(MIB_ROW_ONE, ICMP6)) == MIB_ICMP6_MAX,
	      "Icmp6 table and enum disagree");
static_assert((0 MIB_ICMP6MSG_TABLE(MIB_ROW_ONE, ICMP6MSG)) == MIB_ICMP6MSG_MAX,
	      "Icmp6Msg table and enum disagree");
static_assert((0 MIB_UDP6_TABLE(MIB_ROW_ONE, UDP6)) == MIB_UDP6_MAX, "Udp6 table and enum disagree");
static_assert((0 MIB_UDPLITE6_TABLE(MIB_ROW_ONE, UDPLITE6)) == MIB_UDPLITE6_MAX,
	      "UdpLite6 table and enum disagree");
#define MIB_MODE_ONE(...) + 1
static_assert((0 MIB_STAGE_LIST(MIB_MODE_ONE, ~, ~)) == MIB_STAGES, "Stage: one triple per stage");
static_assert(MIB_STAGE_MAX == MIB_STAGES * MIB_STAGE_K_MAX, "Stage: one triple per stage");
static_assert(MIB_STAGE_F(MIB_STAGE_FREE, MIB_STAGE_K_CALLS) == MIB_F(STAGE, FREECALLS),
	      "MIB_STAGE_F and the enum disagree");
static_assert((0 MIB_MODE_LIST(MIB_MODE_ONE, ~, ~)) == MIB_MODES, "Mode: one quadruple per mode");
static_assert(MIB_MODE_MAX == MIB_MODES * MIB_MODE_K_MAX, "Mode: one quadruple per mode");
static_assert(MIB_MODE_F(4, MIB_MODE_K_LOST) == MIB_F(MODE, RCULOSTCYCLES),
	      "MIB_MODE_F and the enum disagree");
static_assert(MIB_LAW_MAX <= 16, "a field's laws mask is a uint16_t");

/* UdpLite, Udp6 and UdpLite6 mirror Udp: the same enumerators, in the same
 * places (lib/path maps one onto the other by their group bases). */
#define MIB_UDPLITE_SAME(G, ID, ...) \
	static_assert((int)MIB_UDPLITE_##ID == (int)MIB_UDP_##ID, "UdpLite " #ID " is not Udp's"); \
	static_assert((int)MIB_UDP6_##ID == (int)MIB_UDP_##ID, "Udp6 " #ID " is not Udp's"); \
	static_assert((int)MIB_UDPLITE6_##ID == (int)MIB_UDP_##ID, "UdpLite6 " #ID " is not Udp's");
MIB_UDP_TABLE(MIB_UDPLITE_SAME, UDP)

/* The rules of mib.h, per row: a terminal (DELIVER, DROP, SINK) is a term
 * of exactly one outcome law; a late drop of none; a constant or a
 * high-water mark is information, in no law; only a constant has a value;
 * names and help texts fit. */
#define MIB_TERM_INFO 0
#define MIB_TERM_DELIVER 1
#define MIB_TERM_DROP 1
#define MIB_TERM_SINK 1
#define MIB_TERM_DROP_LATE 0
#define MIB_ONE_BIT(x) ((x) != 0 && ((x) & ((x) - 1)) == 0)
#define MIB_ROW_CHECK(G, ID, NAME, K, V, R, LAWS, HELP) \
	static_assert(!MIB_TERM_##R || MIB_ONE_BIT((LAWS) & MIB_LAWS_OUTCOME), \
		      #G " " NAME ": a terminal is a term of exactly one outcome law"); \
	static_assert(MIB_ROLE_##R != MIB_ROLE_DROP_LATE || (LAWS) == 0, \
		      #G " " NAME ": a late drop is in no law"); \
	static_assert(MIB_KIND_##K == MIB_KIND_SUM || \
		      (MIB_ROLE_##R == MIB_ROLE_INFO && (LAWS) == 0), \
		      #G " " NAME ": a constant or high-water mark is in no law"); \
	static_assert(MIB_KIND_##K == MIB_KIND_CONST || (V) == 0, \
		      #G " " NAME ": only a constant has a value"); \
	static_assert(sizeof(NAME) > 1 && sizeof(NAME) <= MIB_NAME_MAX, \
		      #G " " NAME ": name empty or too long"); \
	static_assert(sizeof(HELP) > 1 && sizeof(HELP) <= MIB_HELP_MAX, \
		      #G " " NAME ": help empty or longer than a line");
MIB_ALL_TABLES(MIB_ROW_CHECK)

/* ---- derived: the flat table, the kinds, the lists ---- */

#define MIB_ROW_FIELD(G, ID, NAME, K, V, R, LAWS, HELP) \
	[MIB_ROW_INDEX(G, ID)] = { NAME, HELP, V, MIB_GRP_##G, MIB_KIND_##K, \
				   MIB_ROLE_##R, LAWS },
const struct mib_field mib_fields[MIB_FIELD_MAX] = { MIB_ALL_TABLES(MIB_ROW_FIELD) };

/* The kinds alone, one byte per field: what both folds read per field per
 * block, 7 cache lines instead of the whole table. */
#define MIB_ROW_KIND(G, ID, NAME, K, ...) [MIB_ROW_INDEX(G, ID)] = MIB_KIND_##K,
const uint8_t __mib_kinds[MIB_FIELD_MAX] = { MIB_ALL_TABLES(MIB_ROW_KIND) };

/* The high-water marks, in order, then MIB_FIELD_MAX (mib_pvt.h). */
#define MIB_IF_HWM_SUM(i)
#define MIB_IF_HWM_HWM(i) i,
#define MIB_IF_HWM_CONST(i)
#define MIB_ROW_HWM(G, ID, NAME, K, ...) MIB_IF_HWM_##K(MIB_ROW_INDEX(G, ID))
const uint16_t __mib_hwm[] = { MIB_ALL_TABLES(MIB_ROW_HWM) MIB_FIELD_MAX };

/* A row's index if its role is one of the list's, else nothing. */
#define MIB_IF_TERM_INFO(i)
#define MIB_IF_TERM_DELIVER(i) i,
#define MIB_IF_TERM_DROP(i) i,
#define MIB_IF_TERM_SINK(i) i,
#define MIB_IF_TERM_DROP_LATE(i)
#define MIB_ROW_TERMINAL(G, ID, NAME, K, V, R, ...) MIB_IF_TERM_##R(MIB_ROW_INDEX(G, ID))
const unsigned int mib_terminals[] = { MIB_ALL_TABLES(MIB_ROW_TERMINAL) };
const unsigned int mib_n_terminals = RTE_DIM(mib_terminals);

#define MIB_IF_DROP_INFO(i)
#define MIB_IF_DROP_DELIVER(i)
#define MIB_IF_DROP_DROP(i) i,
#define MIB_IF_DROP_SINK(i)
#define MIB_IF_DROP_DROP_LATE(i) i,
#define MIB_ROW_DROP(G, ID, NAME, K, V, R, ...) MIB_IF_DROP_##R(MIB_ROW_INDEX(G, ID))
const unsigned int mib_drop_fields[] = { MIB_ALL_TABLES(MIB_ROW_DROP) };
const unsigned int mib_n_drop_fields = RTE_DIM(mib_drop_fields);

#define MIB_MODE_LABEL(F, G, M, NAME, LABEL) LABEL,
static const char *const mode_labels[] = { MIB_MODE_LIST(MIB_MODE_LABEL, ~, ~) };
#define MIB_STAGE_LABEL(F, G, S, NAME, LABEL, WHAT) LABEL,
static const char *const stage_labels[] = { MIB_STAGE_LIST(MIB_STAGE_LABEL, ~, ~) };

/* clang-format on */

/* ---- groups ---- */

struct group_desc {
	const char *name;
	unsigned int first;
	unsigned int count;
	const char *help;
	bool sparse;		/* Linux prints only the non-zero fields */
	const char *proc;	/* the /proc file Linux prints it in, or NULL */
};

#define SNMP "/proc/net/snmp"
#define NETSTAT "/proc/net/netstat"
#define SNMP6	"/proc/net/snmp6"

static const struct group_desc groups[] = {
	[MIB_GRP_IP] = { "Ip", MIB_BASE_IP, MIB_IP_MAX, "Linux /proc/net/snmp Ip counter",
			 false, SNMP },
	[MIB_GRP_ICMP] = { "Icmp", MIB_BASE_ICMP, MIB_ICMP_MAX,
			   "Linux /proc/net/snmp Icmp counter", false, SNMP },
	[MIB_GRP_ICMPMSG] = { "IcmpMsg", MIB_BASE_ICMPMSG, MIB_ICMPMSG_MAX,
			      "Linux /proc/net/snmp IcmpMsg counter (ICMP messages received "
			      "by type)",
			      true, SNMP },
	[MIB_GRP_TCP] = { "Tcp", MIB_BASE_TCP, MIB_TCP_MAX,
			  "Linux /proc/net/snmp Tcp counter", false, SNMP },
	[MIB_GRP_UDP] = { "Udp", MIB_BASE_UDP, MIB_UDP_MAX,
			  "Linux /proc/net/snmp Udp counter", false, SNMP },
	[MIB_GRP_UDPLITE] = { "UdpLite", MIB_BASE_UDPLITE, MIB_UDPLITE_MAX,
			      "Linux /proc/net/snmp UdpLite counter", false, SNMP },
	[MIB_GRP_IPEXT] = { "IpExt", MIB_BASE_IPEXT, MIB_IPEXT_MAX,
			    "Linux /proc/net/netstat IpExt counter", false, NETSTAT },
	[MIB_GRP_RX] = { "Rx", MIB_BASE_RX, MIB_RX_MAX, "pktpath source and L2 counter" },
	[MIB_GRP_PATH] = { "Path", MIB_BASE_PATH, MIB_PATH_MAX,
			   "pktpath: a Linux drop reason with no /proc/net/snmp counter" },
	[MIB_GRP_INGRESS] = { "Ingress", MIB_BASE_INGRESS, MIB_INGRESS_MAX,
			      "pktpath ingress classifier and guard counter" },
	[MIB_GRP_PEER] = { "Peer", MIB_BASE_PEER, MIB_PEER_MAX,
			   "pktpath inetpeer-like stage counter" },
	[MIB_GRP_CAPTURE] = { "Capture", MIB_BASE_CAPTURE, MIB_CAPTURE_MAX,
			      "pktpath capture counter" },
	[MIB_GRP_MODE] = { "Mode", MIB_BASE_MODE, MIB_MODE_MAX,
			   "pktpath packets and cycles by the ingress mode in force" },
	[MIB_GRP_STAGE] = { "Stage", MIB_BASE_STAGE, MIB_STAGE_MAX,
			    "pktpath cycles, packets and bursts per stage of the burst "
			    "(--stage-cycles)" },
	[MIB_GRP_IP6] = { "Ip6", MIB_BASE_IP6, MIB_IP6_MAX,
			  "Linux /proc/net/snmp6 Ip6 counter", false, SNMP6 },
	[MIB_GRP_ICMP6] = { "Icmp6", MIB_BASE_ICMP6, MIB_ICMP6_MAX,
			    "Linux /proc/net/snmp6 Icmp6 counter", false, SNMP6 },
	[MIB_GRP_ICMP6MSG] = { "Icmp6Msg", MIB_BASE_ICMP6MSG, MIB_ICMP6MSG_MAX,
			       "Linux /proc/net/snmp6 Icmp6 counter by message type (Icmp6InTypeN, "
			       "Icmp6OutTypeN)",
			       true, SNMP6 },
	[MIB_GRP_UDP6] = { "Udp6", MIB_BASE_UDP6, MIB_UDP6_MAX,
			   "Linux /proc/net/snmp6 Udp6 counter", false, SNMP6 },
	[MIB_GRP_UDPLITE6] = { "UdpLite6", MIB_BASE_UDPLITE6, MIB_UDPLITE6_MAX,
			       "Linux /proc/net/snmp6 UdpLite6 counter", false, SNMP6 },
};
static_assert(RTE_DIM(groups) == MIB_GRP_MAX, "group table and enum disagree");

/* net/ipv6/proc.c icmp6type2name: the ICMPv6 types snmp6 prints by name. */
static const char *const icmp6_type_names[256] = {
	[1] = "DestUnreachs",
	[2] = "PktTooBigs",
	[3] = "TimeExcds",
	[4] = "ParmProblems",
	[128] = "Echos",
	[129] = "EchoReplies",
	[130] = "GroupMembQueries",
	[131] = "GroupMembResponses",
	[132] = "GroupMembReductions",
	[143] = "MLDv2Reports",
	[134] = "RouterAdvertisements",
	[133] = "RouterSolicits",
	[136] = "NeighborAdvertisements",
	[135] = "NeighborSolicits",
	[137] = "Redirects",
};

const char *
mib_icmp6_type_name(unsigned int type)
{
	return type < RTE_DIM(icmp6_type_names) ? icmp6_type_names[type] : NULL;
}

const char *
mib_mode_name(unsigned int m)
{
	return BASE_ENUM_NAME(mode_labels, m);
}

const char *
mib_stage_name(unsigned int s)
{
	return BASE_ENUM_NAME(stage_labels, s);
}

const char *
mib_group_name(enum mib_group g)
{
	return (unsigned int)g < MIB_GRP_MAX ? groups[g].name : "?";
}

const char *
mib_group_linux(enum mib_group g)
{
	return (unsigned int)g < MIB_GRP_MAX ? groups[g].proc : NULL;
}

const char *
mib_group_help(enum mib_group g)
{
	return (unsigned int)g < MIB_GRP_MAX ? groups[g].help : NULL;
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
	return f < MIB_FIELD_MAX ? (enum mib_group)mib_fields[f].group : MIB_GRP_MAX;
}

const char *
mib_field_name(unsigned int f)
{
	return f < MIB_FIELD_MAX ? mib_fields[f].name : NULL;
}

const char *
mib_field_help(unsigned int f)
{
	return f < MIB_FIELD_MAX ? mib_fields[f].help : NULL;
}

int64_t
mib_field_const(unsigned int f)
{
	return mib_field_kind(f) == MIB_KIND_CONST ? mib_fields[f].value : 0;
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
	for (i = groups[g].first; i < groups[g].first + groups[g].count; i++)
		if (strcmp(mib_fields[i].name, field) == 0)
			return (int)i;
	return -1;
}

static const char *const kind_names[] = {
	[MIB_KIND_SUM] = "sum", [MIB_KIND_HWM] = "high-water", [MIB_KIND_CONST] = "constant" };
static_assert(RTE_DIM(kind_names) == MIB_KIND_MAX, "kind names");
static const char *const role_names[] = {
	[MIB_ROLE_INFO] = "info", [MIB_ROLE_DELIVER] = "deliver", [MIB_ROLE_DROP] = "drop",
	[MIB_ROLE_SINK] = "sink", [MIB_ROLE_DROP_LATE] = "late drop" };
static_assert(RTE_DIM(role_names) == MIB_ROLE_MAX, "role names");

const char *
mib_kind_name(enum mib_kind k)
{
	return BASE_ENUM_NAME(kind_names, k);
}

const char *
mib_role_name(enum mib_role r)
{
	return BASE_ENUM_NAME(role_names, r);
}

uint64_t
mib_drops_total(const uint64_t *v)
{
	uint64_t d = 0;
	unsigned int i;

	for (i = 0; i < mib_n_drop_fields; i++)
		d += v[mib_drop_fields[i]];
	return d;
}

/* ---- the conservation laws ---- */

/*
 * A law is its left-hand side, one field or the sum of two; its terms are
 * the rows that name it. The right-hand side prints as rhs: a summary that
 * stays true when a term is added ("L4 outcomes"), or, when NULL, every
 * term by name (terms that are themselves an outcome law's left-hand side
 * last), or with abbrev the summary and the first and last term ("Mode
 * packets (A + ... + Z)"). Names are printed as Linux prints them in their
 * file (mib_field_linux_name(): Ip6InReceives beside InReceives).
 */
#define NO_LHS MIB_FIELD_MAX
static const struct {
	const char *name;
	unsigned int lhs[MIB_LAW_LHS_MAX];
	const char *rhs;
	bool abbrev;
} law_defs[] = {
	[MIB_LAW_RX] = { "rx", { MIB_F(RX, PACKETS), NO_LHS }, NULL, false },
	[MIB_LAW_INGRESS] = { "ingress",
			      { MIB_F(INGRESS, PACKETS), NO_LHS },
			      NULL,
			      false },
	[MIB_LAW_IP] = { "ip",
			 { MIB_F(IP, INRECEIVES), NO_LHS },
			 "InDelivers + IP drops",
			 false },
	[MIB_LAW_IP6] = { "ip6",
			  { MIB_F(IP6, INRECEIVES), NO_LHS },
			  "Ip6InDelivers + IPv6 drops",
			  false },
	[MIB_LAW_L4] = { "l4",
			 { MIB_F(IP, INDELIVERS), MIB_F(IP6, INDELIVERS) },
			 "L4 outcomes",
			 false },
	[MIB_LAW_MODE] = { "mode", { MIB_F(RX, PACKETS), NO_LHS }, "Mode packets", true },
	[MIB_LAW_REASM] = { "reasm", { MIB_F(IP, REASMREQDS), NO_LHS }, NULL, false },
	[MIB_LAW_REASM6] = { "reasm6", { MIB_F(IP6, REASMREQDS), NO_LHS }, NULL, false },
};
static_assert(RTE_DIM(law_defs) == MIB_LAW_MAX, "law table and enum disagree");

/* Built once from the table (law_init): each law's terms and texts. */
static struct {
	unsigned int n;
	unsigned int terms[MIB_FIELD_MAX];
	char lhs[96];
	char rhs[512];
} laws_built[MIB_LAW_MAX];
static pthread_once_t laws_once = PTHREAD_ONCE_INIT;

const char *
mib_field_linux_name(unsigned int f, char *buf, size_t len)
{
	enum mib_group g = mib_field_group(f);

	if (g == MIB_GRP_MAX || buf == NULL || len == 0)
		return NULL;
	if (groups[g].proc != NULL && strcmp(groups[g].proc, SNMP6) == 0)
		/* snmp6 prefixes every name with its group; Icmp6Msg's types
		 * print as Icmp6InTypeN (snmp6_seq_show_icmpv6msg). */
		snprintf(buf, len, "%s%s",
			 g == MIB_GRP_ICMP6MSG ? "Icmp6" : groups[g].name,
			 mib_fields[f].name);
	else
		snprintf(buf, len, "%s", mib_fields[f].name);
	return buf;
}

static bool
__mib_outcome_lhs(unsigned int f)
{
	unsigned int l, k;

	for (l = 0; l < MIB_LAW_MAX; l++)
		for (k = 0; k < MIB_LAW_LHS_MAX; k++)
			if ((MIB_LAWS_OUTCOME & MIB_LAW_BIT(l)) &&
			    law_defs[l].lhs[k] == f)
				return true;
	return false;
}

static void
__mib_law_text(unsigned int l)
{
	char *b = laws_built[l].rhs, a[MIB_NAME_MAX + 8], z[MIB_NAME_MAX + 8];
	size_t len = sizeof(laws_built[l].rhs), off = 0;
	unsigned int i, k, pass, n = laws_built[l].n;

	for (k = 0; k < MIB_LAW_LHS_MAX && law_defs[l].lhs[k] != NO_LHS; k++)
		off += (size_t)snprintf(
			laws_built[l].lhs + off, sizeof(laws_built[l].lhs) - off, "%s%s",
			k ? " + " : "",
			mib_field_linux_name(law_defs[l].lhs[k], a, sizeof(a)));
	off = 0;
	if (law_defs[l].rhs != NULL && !law_defs[l].abbrev) {
		snprintf(b, len, "%s", law_defs[l].rhs);
		return;
	}
	if (law_defs[l].abbrev) {
		snprintf(
			b, len, "%s (%s + ... + %s)", law_defs[l].rhs,
			n ? mib_field_linux_name(laws_built[l].terms[0], a, sizeof(a))
			  : "",
			n ? mib_field_linux_name(laws_built[l].terms[n - 1], z, sizeof(z))
			  : "");
		return;
	}
	/* The terms by name: outcomes first, the next law's sub-total last. */
	b[0] = '\0';
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n && off < len; i++) {
			unsigned int f = laws_built[l].terms[i];

			if (__mib_outcome_lhs(f) != (pass == 1))
				continue;
			off += (size_t)snprintf(b + off, len - off, "%s%s",
						off ? " + " : "",
						mib_field_linux_name(f, a, sizeof(a)));
		}
}

static void
__mib_laws_init(void)
{
	unsigned int f, l;

	for (f = 0; f < MIB_FIELD_MAX; f++)
		for (l = 0; l < MIB_LAW_MAX; l++)
			if (mib_fields[f].laws & MIB_LAW_BIT(l))
				laws_built[l].terms[laws_built[l].n++] = f;
	for (l = 0; l < MIB_LAW_MAX; l++)
		__mib_law_text(l);
}

const char *
mib_law_name(enum mib_law_id l)
{
	return (unsigned int)l < MIB_LAW_MAX ? law_defs[l].name : "?";
}

unsigned int
mib_law_lhs(enum mib_law_id l)
{
	return (unsigned int)l < MIB_LAW_MAX ? law_defs[l].lhs[0] : MIB_FIELD_MAX;
}

unsigned int
mib_law_lhs_fields(enum mib_law_id l, unsigned int lhs[MIB_LAW_LHS_MAX])
{
	unsigned int k;

	if ((unsigned int)l >= MIB_LAW_MAX)
		return 0;
	for (k = 0; k < MIB_LAW_LHS_MAX && law_defs[l].lhs[k] != NO_LHS; k++)
		lhs[k] = law_defs[l].lhs[k];
	return k;
}

const char *
mib_law_lhs_name(enum mib_law_id l)
{
	if ((unsigned int)l >= MIB_LAW_MAX)
		return NULL;
	pthread_once(&laws_once, __mib_laws_init);
	return laws_built[l].lhs;
}

const char *
mib_law_rhs_name(enum mib_law_id l)
{
	if ((unsigned int)l >= MIB_LAW_MAX)
		return NULL;
	pthread_once(&laws_once, __mib_laws_init);
	return laws_built[l].rhs;
}

void
mib_conservation_eval(const uint64_t *t, struct mib_law laws[MIB_N_LAWS])
{
	unsigned int l, i, k;

	pthread_once(&laws_once, __mib_laws_init);
	for (l = 0; l < MIB_LAW_MAX; l++) {
		laws[l].lhs_name = laws_built[l].lhs;
		laws[l].rhs_name = laws_built[l].rhs;
		laws[l].lhs = 0;
		for (k = 0; k < MIB_LAW_LHS_MAX && law_defs[l].lhs[k] != NO_LHS; k++)
			laws[l].lhs += t[law_defs[l].lhs[k]];
		laws[l].rhs = 0;
		for (i = 0; i < laws_built[l].n; i++)
			laws[l].rhs += t[laws_built[l].terms[i]];
	}
}

int
mib_check_conservation(const uint64_t *t, char *why, size_t len)
{
	struct mib_law laws[MIB_N_LAWS];
	unsigned int l;

	mib_conservation_eval(t, laws);
	for (l = 0; l < MIB_LAW_MAX; l++) {
		if (!(MIB_LAWS_PATH & MIB_LAW_BIT(l)) || laws[l].lhs == laws[l].rhs)
			continue;
		if (why)
			snprintf(why, len, "%s %" PRIu64 " != %s %" PRIu64,
				 laws[l].lhs_name, laws[l].lhs, laws[l].rhs_name,
				 laws[l].rhs);
		return -1;
	}
	if (why && len)
		why[0] = '\0';
	return 0;
}
