#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The kernel-differential test's IPv6 pass (run by integration/kdiff.sh after
the IPv4 passes of kdiff.py, whose sender agent and sentinel it uses).

The receiver namespace gets IPv6 on its port as test_path6.c describes it:
fd70::1/64 (nodad), its link-local address from the MAC, the neighbours
fd70::2 and fe80::2 permanent, no default route, no router solicitation, no
per-address ICMPv6 rate limit and a global one that never runs out
(net.ipv6.icmp.ratelimit 0, icmp_msgs_per_sec and icmp_msgs_burst BIG_BUCKET:
pktpath is given the same, --icmp6-ratelimit 0 --icmp-msgs-per-sec and
--icmp-msgs-burst BIG_BUCKET); a UDP and a UDP-Lite socket bound to
[::]:PORT6 and read.
Frames generated from a seed (a prelude of one frame per class, then random
frames mutated from it) go to it one at a time, each followed by kdiff.py's
IPv4 sentinel, which moves nothing in /proc/net/snmp6: the deltas of every
frame in /proc/net/snmp6 (and Tcp in /proc/net/snmp) are known exactly. The
same frames go to lib/path (kdiffpath --local6 fd70::1/64 --udp-ports PORT6
--udplite-ports PORT6), and every field of MAPPING is compared frame by frame.

Then the fragment pass (frag_sequences): datagrams in fragments, in order,
reversed, shuffled, behind unfragmentable extension headers or none, with
duplicates, overlaps (RFC 5722), inconsistent ends, empty fragments, the
parameter problems, the 65535-byte limit, mixed ECN, and missing fragments,
the first one included; then a pause past the namespace's ip6frag_time
(FRAG6_TIME, which kdiff.sh sets), after which one frame is sent: every
queue left times out in the pause and both sides count its ReasmTimeout,
ReasmFails and the time exceeded sent for it in that frame's deltas
(kdiffpath's clock is the frames' pcap timestamps, --frag6-time FRAG6_TIME).
The memory limit (ip6frag_high_thresh) is not compared: the kernel charges
a fragment its skb's truesize, which the veth driver's allocation decides,
where pktpath charges its 2 KiB blocks (lib/path/README.md).

Then the rate-limit pass (rlim_frames): net.ipv6.icmp.ratelimit RLIM_MS
(10 s) on both sides, errors to sources nothing has answered before, from
an on-link address, another one, a link-local one and an off-link one, with
echo requests (out of the ratemask) among them: each peer gets its burst of
6 errors, the next are Icmp6 OutRateLimitHost, the off-link source's are
OutNoRoutes and OutRateLimitHost. Timing cannot change that: the pass takes
less than RLIM_MS (a peer's next token), and the global bucket cannot run
out (BIG_BUCKET, at most 2 credits a message whatever the random credit).

Subcommands:
  gen SEED COUNT DIR        DIR/v6.pcap, DIR/v6-labels.json; the fragment
                            pass's DIR/v6frag.pcap, DIR/v6frag-labels.json
  agent-rx                  in the receiver namespace: sockets, snapshots
  kernel RXNS TXNS IFNAME DIR   both agents: the deltas of DIR/v6.pcap's
                            frames in DIR/kernel6.json
  kernel-frag RXNS TXNS IFNAME DIR   the same for DIR/v6frag.pcap, with its
                            pause, in DIR/kernel6frag.json
  kernel-rlim RXNS TXNS IFNAME DIR   the same for DIR/v6rlim.pcap, in
                            DIR/kernel6rlim.json
  frag-time                 FRAG6_TIME (for kdiff.sh)
  rlim                      RLIM_MS and BIG_BUCKET (for kdiff.sh)
  compare DIR               DIR/path6.txt (kdiffpath) frame by frame and the
                            pktpath binary's totals (DIR/pktpath6.json)
                            against DIR/kernel6.json; DIR/path6frag.txt
                            against DIR/kernel6frag.json; DIR/path6rlim.txt
                            and DIR/pktpath6rlim.json against
                            DIR/kernel6rlim.json

Only Debian's python3 and its standard library are used.
"""
import json
import os
import random
import select
import socket
import struct
import subprocess
import sys

import kdiff

LOCAL6 = "fd70::1"
PEER6 = "fd70::2"
LL6 = "fe80::70:63ff:fe61:7000"     # the port's, from kdiff.MAC_B
PEER_LL6 = "fe80::2"
OFFLINK6 = "2001:db8::7"
PORT6 = 9                            # the bound UDP and UDP-Lite port
RLIM_MS = 10000      # the rate-limit pass's net.ipv6.icmp.ratelimit: a new
                     # peer's burst is 6 (6 * tmo <= 60 s), the next token
                     # comes 10 s later
BIG_BUCKET = 1000000  # icmp_msgs_per_sec and icmp_msgs_burst: never empty
RLIM_SOURCES = ("fd70::10", "fd70::11", "fe80::10")   # permanent neighbours
MC_ALL = bytes.fromhex("333300000001")

# /proc/net/snmp6's ICMPv6 types by name (net/ipv6/proc.c icmp6type2name).
ICMP6_NAMES = {1: "DestUnreachs", 2: "PktTooBigs", 3: "TimeExcds", 4: "ParmProblems",
               128: "Echos", 129: "EchoReplies", 130: "GroupMembQueries",
               131: "GroupMembResponses", 132: "GroupMembReductions",
               133: "RouterSolicits", 134: "RouterAdvertisements",
               135: "NeighborSolicits", 136: "NeighborAdvertisements",
               137: "Redirects", 143: "MLDv2Reports"}

# pktpath's Group.Field -> the kernel's name in /proc/net/snmp6 (or Tcp.X in
# /proc/net/snmp): everything pktpath moves for IPv6, what the host sends
# included (a reassembly timeout's time exceeded too). Not compared: Tcp's
# connection fields (no socket).
MAPPING = {}
for _f in ("InReceives InHdrErrors InNoRoutes InAddrErrors InUnknownProtos "
           "InTruncatedPkts InDiscards InDelivers ReasmReqds ReasmOKs ReasmFails "
           "ReasmTimeout InMcastPkts InOctets "
           "InMcastOctets InNoECTPkts InECT1Pkts InECT0Pkts InCEPkts OutRequests "
           "OutNoRoutes OutOctets OutMcastPkts OutMcastOctets OutTransmits").split():
    MAPPING["Ip6." + _f] = "Ip6" + _f
for _f in "InMsgs InErrors InCsumErrors OutMsgs OutRateLimitHost".split():
    MAPPING["Icmp6." + _f] = "Icmp6" + _f
# icmpv6_global_allow counts in IPv4's Icmp group (/proc/net/snmp)
MAPPING["Icmp.OutRateLimitGlobal"] = "Icmp.OutRateLimitGlobal"
for _t in range(256):
    for _d in ("In", "Out"):
        MAPPING["Icmp6Msg.%sType%d" % (_d, _t)] = "Icmp6%s%s" % (
            _d, ICMP6_NAMES.get(_t, "Type%d" % _t))
for _g in ("Udp6", "UdpLite6"):
    for _f in "InDatagrams NoPorts InErrors InCsumErrors".split():
        MAPPING[_g + "." + _f] = _g + _f
MAPPING["Udp6.IgnoredMulti"] = "Udp6IgnoredMulti"
for _f in "InSegs InErrs InCsumErrors OutSegs OutRsts".split():
    MAPPING["Tcp." + _f] = "Tcp." + _f

# Kernel fields the frames must move, so that a class cannot stop being
# exercised unnoticed.
MUST_MOVE = ["Ip6InHdrErrors", "Ip6InNoRoutes", "Ip6InAddrErrors",
             "Ip6InUnknownProtos", "Ip6InTruncatedPkts", "Ip6InMcastPkts",
             "Ip6ReasmReqds", "Ip6InCEPkts", "Udp6InDatagrams", "Udp6NoPorts",
             "Udp6InCsumErrors", "Udp6IgnoredMulti", "UdpLite6InDatagrams",
             "Icmp6InMsgs", "Icmp6InErrors", "Icmp6InCsumErrors",
             "Icmp6OutEchoReplies", "Icmp6OutNeighborAdvertisements",
             "Icmp6OutParmProblems", "Icmp6OutDestUnreachs", "Tcp.InSegs",
             "Tcp.InCsumErrors", "Tcp.OutRsts"]


# What the fragment pass must move: reassembly, its failures and timeouts,
# the time exceeded sent and not sent, delivery of the datagrams.
MUST_MOVE_FRAG = ["Ip6ReasmReqds", "Ip6ReasmOKs", "Ip6ReasmFails", "Ip6ReasmTimeout",
                  "Ip6InHdrErrors", "Ip6InCEPkts", "Icmp6OutTimeExcds",
                  "Icmp6OutRateLimitHost", "Icmp6OutParmProblems",
                  "Icmp6OutDestUnreachs", "Icmp6OutEchoReplies", "Udp6InDatagrams",
                  "Udp6NoPorts"]

# What the rate-limit pass must move.
MUST_MOVE_RLIM = ["Icmp6OutRateLimitHost", "Icmp6OutDestUnreachs", "Icmp6OutParmProblems",
                  "Icmp6OutEchoReplies", "Ip6OutNoRoutes", "Tcp.OutRsts"]


# ---- packet building ----

def a6(s):
    return socket.inet_pton(socket.AF_INET6, s)


def sum6(src, dst, proto, seg, plen=None):
    ph = a6(src) + a6(dst) + struct.pack("!IxxxB", len(seg) if plen is None else plen,
                                         proto)
    return kdiff.csum(ph + seg)


def ipv6(src, dst, nh, payload, tc=0, hlim=64, plen=None, ver=6):
    return struct.pack("!IHBB", ver << 28 | tc << 20,
                       len(payload) if plen is None else plen, nh, hlim) + \
        a6(src) + a6(dst) + payload


def udp6(src, dst, dport, pay, mode="good", length=None, proto=17):
    n = 8 + len(pay)
    ulen = n if length is None else length
    seg = struct.pack("!HHHH", 7, dport, ulen, 0) + pay
    if mode != "zero":
        cov = seg if proto == 17 else seg[:ulen or n]
        c = sum6(src, dst, proto, cov, n) or 0xffff
        if mode == "bad":
            c ^= 0x1234
        seg = seg[:6] + struct.pack("!H", c) + seg[8:]
    return seg


def tcp6(src, dst, flags=0x02, mode="good"):
    seg = struct.pack("!HHIIBBHHH", 40000, 80, 1000, 0, 5 << 4, flags, 1024, 0, 0)
    c = sum6(src, dst, 6, seg) ^ (0x4321 if mode == "bad" else 0)
    return seg[:16] + struct.pack("!H", c) + seg[18:]


def icmp6(src, dst, typ, code, body, mode="good"):
    seg = struct.pack("!BBH", typ, code, 0) + body
    c = sum6(src, dst, 58, seg) ^ (0xff if mode == "bad" else 0)
    return seg[:2] + struct.pack("!H", c) + seg[4:]


def frame(src=PEER6, dst=LOCAL6, nh=17, l4=b"", ext=b"", dmac=kdiff.MAC_B, **kw):
    return kdiff.eth(dmac, 0x86dd, ipv6(src, dst, nh, ext + l4, **kw))


def prelude():
    """One frame per class of test_path6.c, with its name."""
    pay = bytes(range(20))
    u = lambda **kw: udp6(PEER6, LOCAL6, PORT6, pay, **kw)
    echo = b"\0\1\0\1" + bytes(20)
    ns = b"\0" * 4 + a6(LOCAL6) + b"\1\1" + kdiff.MAC_A
    quote = lambda port: (b"\0" * 4 + ipv6(LOCAL6, PEER6, 17, struct.pack(
        "!HHHH", port, 53, 8, 0)))
    out = [
        ("udp to a listened port", frame(l4=u())),
        ("udp no listener", frame(l4=udp6(PEER6, LOCAL6, 4242, pay))),
        ("udp no listener, off-link source", frame(
            src=OFFLINK6, l4=udp6(OFFLINK6, LOCAL6, 4242, pay))),
        ("udp bad checksum", frame(l4=u(mode="bad"))),
        ("udp zero checksum", frame(l4=u(mode="zero"))),
        ("udp zero checksum to ff02::1", frame(
            dst="ff02::1", dmac=MC_ALL, l4=udp6(PEER6, "ff02::1", PORT6, pay, mode="zero"))),
        ("udp length beyond the payload", frame(l4=u(length=40))),
        ("udplite to a listened port", frame(nh=136, l4=udp6(
            PEER6, LOCAL6, PORT6, pay, proto=136, length=0))),
        ("version 4", frame(l4=u(), ver=4)),
        ("loopback destination", frame(dst="::1", l4=udp6(PEER6, "::1", PORT6, pay))),
        ("multicast source", frame(src="ff02::9", l4=u())),
        ("interface-local multicast", frame(dst="ff01::1", dmac=MC_ALL, l4=u())),
        ("payload length beyond the frame", frame(l4=u(), plen=100)),
        ("padding beyond the payload length", frame(l4=u()) + bytes(10)),
        ("ecn ce", frame(l4=u(), tc=3)),
        ("on-link, not local", frame(dst="fd70::9", l4=udp6(PEER6, "fd70::9", PORT6, pay))),
        ("no route", frame(dst="2001:db8::9", l4=udp6(PEER6, "2001:db8::9", PORT6, pay))),
        ("group not joined", frame(dst="ff02::5", dmac=MC_ALL,
                                   l4=udp6(PEER6, "ff02::5", PORT6, pay))),
        ("link-local destination", frame(src=PEER_LL6, dst=LL6,
                                         l4=udp6(PEER_LL6, LL6, PORT6, pay))),
        ("unknown next header", frame(nh=200, l4=pay)),
        ("no next header", frame(nh=59, l4=pay)),
        ("tcp syn", frame(nh=6, l4=tcp6(PEER6, LOCAL6))),
        ("tcp reset", frame(nh=6, l4=tcp6(PEER6, LOCAL6, flags=0x04))),
        ("tcp bad checksum", frame(nh=6, l4=tcp6(PEER6, LOCAL6, mode="bad"))),
        ("echo request", frame(nh=58, l4=icmp6(PEER6, LOCAL6, 128, 0, echo))),
        ("icmp bad checksum", frame(nh=58, l4=icmp6(PEER6, LOCAL6, 128, 0, echo, "bad"))),
        ("unreachable quoting a bound port", frame(nh=58, l4=icmp6(
            PEER6, LOCAL6, 1, 0, quote(PORT6)))),
        ("unreachable quoting an unbound port", frame(nh=58, l4=icmp6(
            PEER6, LOCAL6, 1, 0, quote(10)))),
        ("neighbour solicitation", frame(dst="ff02::1:ff00:1", dmac=MC_ALL, hlim=255,
                                         nh=58, l4=icmp6(PEER6, "ff02::1:ff00:1", 135, 0,
                                                         ns))),
        ("dad", frame(src="::", dst="ff02::1:ff00:1", dmac=MC_ALL, hlim=255, nh=58,
                      l4=icmp6("::", "ff02::1:ff00:1", 135, 0, ns[:20]))),
    ]
    # extension headers before a UDP datagram (their first byte: next header)
    exts = [
        ("hop-by-hop padding", 0, bytes([17, 0, 1, 4, 0, 0, 0, 0])),
        ("hop-by-hop padding not zero", 0, bytes([17, 0, 1, 4, 1, 0, 0, 0])),
        ("hop-by-hop unknown option, skip", 0, bytes([17, 0, 0x3e, 0, 1, 2, 0, 0])),
        ("hop-by-hop unknown option, drop", 0, bytes([17, 0, 0x7e, 0, 1, 2, 0, 0])),
        ("hop-by-hop unknown option, icmp", 0, bytes([17, 0, 0xbe, 0, 1, 2, 0, 0])),
        ("jumbo option with a payload length", 0, bytes([17, 0, 0xc2, 4, 0, 1, 0x11, 0x70])),
        ("router alert", 0, bytes([17, 0, 5, 2, 0, 0, 1, 0])),
        ("destination option, icmp unless multicast", 60, bytes([17, 0, 0xfe, 0, 1, 2, 0, 0])),
        ("routing header type 0, a segment left", 43,
         bytes([17, 2, 0, 1, 0, 0, 0, 0]) + a6("2001:db8::1")),
        ("routing header type 0, none left", 43,
         bytes([17, 2, 0, 0, 0, 0, 0, 0]) + a6("2001:db8::1")),
        ("segment routing header", 43, bytes([17, 2, 4, 1, 0, 0, 0, 0]) + a6("2001:db8::1")),
        ("atomic fragment", 44, bytes([17, 0, 0, 0, 0, 0, 0, 7])),
        ("fragment with more, not on 8 bytes", 44, bytes([17, 0, 0, 9, 0, 0, 0, 10])),
        ("fragment beyond 65535 bytes", 44, bytes([17, 0, 0xff, 0xf8, 0, 0, 0, 11])),
        ("two atomic fragment headers", 44, bytes([44, 0, 0, 0, 0, 0, 0, 12,
                                                    17, 0, 0, 0, 0, 0, 0, 13])),
        ("hop-by-hop after a fragment header", 44,
         bytes([0, 0, 0, 0, 0, 0, 0, 9, 17, 0, 1, 4, 0, 0, 0, 0])),
    ]
    for name, nh, ext in exts:
        out.append((name, frame(nh=nh, ext=ext, l4=u())))
    # a first fragment that ends on 8 bytes: held by the queues (their
    # timeout, ip6frag_time, is longer than the test)
    out.append(("first fragment, queued", frame(nh=44, ext=bytes([17, 0, 0, 1, 0, 0, 0, 14]),
                                                l4=udp6(PEER6, LOCAL6, PORT6, bytes(24)))))
    return out


# ---- the fragment pass ----

# The namespace's ip6frag_time in the fragment pass (kdiff.sh sets it,
# kdiffpath gets it as --frag6-time), and the pause after the pass's
# sequences, long enough for every queue they leave to time out (the
# kernel's timer wheel fires a timer of this length up to 1/8 late).
FRAG6_TIME = 15
FRAG6_PAUSE = FRAG6_TIME + 4

# Unfragmentable extension headers before the fragment header: (type, the
# header with its next-header byte 0, set when chained).
UNFRAG = {"hbh": (0, bytes([0, 0, 1, 4, 0, 0, 0, 0])),
          "dst": (60, bytes([0, 0, 1, 4, 0, 0, 0, 0])),
          "rt0": (43, bytes([0, 2, 0, 0, 0, 0, 0, 0]) + a6("2001:db8::1"))}
UNFRAG_CHAINS = [(), (), ("dst",), ("hbh",), ("hbh", "dst"), ("rt0",),
                 ("hbh", "dst", "rt0")]


def frag6(src, dst, ident, upper, data, off, mf, chain=(), tc=0, dmac=kdiff.MAC_B):
    """An IPv6 fragment of a datagram whose fragmentable part starts with
    header upper: data at offset off, MF if mf, after chain's headers."""
    types = [UNFRAG[c][0] for c in chain] + [44]
    ext = b""
    for k, c in enumerate(chain):
        ext += bytes([types[k + 1]]) + UNFRAG[c][1][1:]
    fh = struct.pack("!BBHI", upper, 0, off | (1 if mf else 0), ident)
    return kdiff.eth(dmac, 0x86dd, ipv6(src, dst, types[0], ext + fh + data, tc=tc))


def frag_sequences(seed):
    """The fragment pass: generated datagrams in fragments, one sequence
    after another, then a pause past ip6frag_time and one datagram: every
    queue a sequence leaves times out in the pause (ReasmTimeout, a time
    exceeded when it holds its first fragment), counted in that last
    frame's deltas by both sides. [(label, frame, secs)]."""
    rnd = random.Random(seed * 7919 + 6)
    hows = ["order", "reverse", "shuffle", "dup", "overlap", "missing",
            "first only", "no first", "last twice", "past the last", "empty",
            "not on 8", "ecn mixed", "ecn ce", "big", "big, headers past 65535"]
    out = []
    ident = 0x6b000000
    for rep in range(3):
        for how in hows:
            if how.startswith("big") and rep:
                continue
            ident += 1
            chain = rnd.choice(UNFRAG_CHAINS)
            src, dst, dmac = PEER6, LOCAL6, kdiff.MAC_B
            w = rnd.random()
            if how in ("first only", "missing") and w < 0.3:
                src = OFFLINK6   # no route back: the time exceeded is not sent
            elif how in ("first only", "order") and w > 0.8:
                dst, dmac = "ff02::1", MC_ALL   # not sent to a group either
            kind = rnd.choice(["udp", "udp", "udp no port", "echo"])
            if how == "big":
                kind, n, step = "udp", 65535 - 8, 1400   # 65535 bytes after reassembly
                chain = ()
            elif how.startswith("big"):
                kind, n, step = "udp", 65535 - 8, 1400   # and 8 bytes of header
                chain = ("dst",)
            else:
                n = rnd.randrange(40, 1100)
                step = 8 * rnd.randrange(2, 40)
            pay = bytes(rnd.randrange(256) for _ in range(n))
            if kind == "echo":
                upper, l4 = 58, icmp6(src, dst, 128, 0, b"\0\7\0\1" + pay)
            else:
                upper = 17
                l4 = udp6(src, dst, PORT6 if kind == "udp" else 4242, pay)
            last = len(l4)
            if not how.startswith("big"):   # six fragments at most
                step = max(step, 8 * -(-last // 48))
            # [offset, end, MF]
            parts = [[o, min(o + step, last), o + step < last] for o in range(0, last, step)]
            if len(parts) < 3:
                parts = [[0, 8, True], [8, 16, True], [16, last, False]]
            tcs = [0] * len(parts)
            if how == "reverse":
                parts.reverse()
            elif how == "shuffle":
                rnd.shuffle(parts)
            elif how == "dup":
                i = rnd.randrange(len(parts) - 1)
                parts.insert(rnd.randrange(i + 1, len(parts) + 1), list(parts[i]))
            elif how == "overlap":
                o, e, _ = parts[rnd.randrange(len(parts))]
                o2 = max(0, o + 8 * rnd.choice([-1, 1]))
                e2 = min(last, o2 + e - o)
                parts.insert(rnd.randrange(1, len(parts)), [o2, e2, e2 < last])
            elif how == "missing":
                del parts[rnd.randrange(1, len(parts) - 1)]
            elif how == "first only":
                parts = parts[:1]
            elif how == "no first":
                parts = parts[1:]
            elif how == "last twice":   # a second last fragment, another end
                o, e, _ = parts[-1]
                parts.insert(rnd.randrange(1, len(parts)),
                             [o, e - 8 if e - 8 > o else e + 8, False])
            elif how == "past the last":   # more to come past the end
                parts.insert(rnd.randrange(1, len(parts)), [last, last + 8, True])
            elif how == "empty":
                o = parts[rnd.randrange(1, len(parts))][0]
                parts.insert(rnd.randrange(len(parts)), [o, o, True])
            elif how == "not on 8":   # more to come, not ending on 8 bytes
                o = parts[0][1]
                parts.insert(rnd.randrange(1, len(parts)), [o, o + 5, True])
            elif how.startswith("ecn"):
                # one CE among ECT fragments (combined: CE), or among Not-ECT
                # ones (the mix fails reassembly)
                tcs = [rnd.choice([1, 2]) if how == "ecn ce" else 0 for _ in parts]
                tcs[rnd.randrange(len(parts))] = 3
            for j, (o, e, mf) in enumerate(parts):
                out.append(("frag %s %s %s id %#x %s %d..%d of %d %s>%s" % (
                    how, kind, "+".join(chain) or "-", ident, "mf" if mf else "last",
                    o, e, last, src, dst),
                    frag6(src, dst, ident, upper, (l4 + bytes(16))[o:e], o, mf, chain,
                          tcs[j] if j < len(tcs) else 0, dmac), 0))
    pay = bytes(range(20))
    out.append(("after the timeout", frame(l4=udp6(PEER6, LOCAL6, PORT6, pay)),
                FRAG6_PAUSE))
    return out


def rlim_frames():
    """The rate-limit pass: errors from sources new to the namespace, in a
    fixed order, with their names."""
    pay = bytes(range(20))
    echo = b"\0\1\0\1" + bytes(20)
    on1, on2, ll = RLIM_SOURCES
    off = "2001:db8::77"

    def closed(src, dst=LOCAL6):
        return ("udp no listener from %s" % src,
                frame(src=src, dst=dst, l4=udp6(src, dst, 4242, pay)))
    out = []
    for k in range(10):
        out.append(closed(on1))
        if k % 3 == 0:
            out.append(("echo request from %s" % on1,
                        frame(src=on1, nh=58, l4=icmp6(on1, LOCAL6, 128, 0, echo))))
        if k % 2 == 0:
            out.append(closed(on2))
        if k < 8:
            out.append(closed(ll, LL6))
        if k < 3:
            out.append(closed(off))
    for _ in range(3):   # parameter problems, to a peer with one token left
        out.append(("unknown next header from %s" % on2,
                    frame(src=on2, nh=200, l4=pay)))
    out.append(("tcp syn from %s" % on1, frame(src=on1, nh=6, l4=tcp6(on1, LOCAL6))))
    for _ in range(2):
        out.append(closed(on2))
    return out


def gen(seed, count):
    rnd = random.Random(seed)
    base = prelude()
    out = list(base)
    for k in range(count):
        name, f = base[rnd.randrange(len(base))]
        f = bytearray(f)
        for _ in range(rnd.randrange(4)):
            pos = 14 + rnd.randrange(48 if rnd.random() < 0.5 else min(120, len(f) - 14))
            if pos < len(f):
                f[pos] ^= 1 + rnd.randrange(255)
        r = rnd.randrange(10)
        if r < 2:
            f = f[:rnd.randrange(len(f) + 1)]
        elif r < 4:
            f += bytes(rnd.randrange(64))
        out.append(("random %d from %s" % (k, name), bytes(f)))
    return out


def cmd_gen(seed, count, outdir):
    frames = gen(seed, count)
    kdiff.write_pcap(os.path.join(outdir, "v6.pcap"),
                     [kdiff.kernel_frame(f) for _, f in frames])
    with open(os.path.join(outdir, "v6-labels.json"), "w") as o:
        json.dump([n for n, _ in frames], o)
    frags = frag_sequences(seed)
    kdiff.write_pcap(os.path.join(outdir, "v6frag.pcap"), [f for _, f, _ in frags],
                     [t for _, _, t in frags])
    with open(os.path.join(outdir, "v6frag-labels.json"), "w") as o:
        json.dump([n for n, _, _ in frags], o)
    rl = rlim_frames()
    kdiff.write_pcap(os.path.join(outdir, "v6rlim.pcap"), [f for _, f in rl])
    with open(os.path.join(outdir, "v6rlim-labels.json"), "w") as o:
        json.dump([n for n, _ in rl], o)


# ---- the receiver namespace ----

def read_snmp6():
    v = {}
    with open("/proc/net/snmp6") as i:
        for line in i:
            w = line.split()
            if len(w) == 2:
                v[w[0]] = int(w[1])
    for k, x in kdiff.read_snmp().items():
        if k.startswith("Tcp.") or k == "Icmp.OutRateLimitGlobal":
            v[k] = x
    return v


def cmd_agent_rx():
    socks = []
    for proto in (socket.IPPROTO_UDP, kdiff.IPPROTO_UDPLITE):
        s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM, proto)
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        s.bind(("::", PORT6))
        s.setblocking(False)
        socks.append(s)
    sen = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sen.bind(("0.0.0.0", kdiff.SENTINEL_PORT))
    print("ready", flush=True)
    for line in sys.stdin:
        w = line.split()
        if w and w[0] == "wait":
            want = b"kdiff%08d" % int(w[1])
            while True:
                r, _, _ = select.select([sen], [], [], 5.0)
                if not r:
                    print("timeout", flush=True)
                    break
                if sen.recv(2048) == want:
                    break
            for s in socks:   # udpv6_recvmsg counts InDatagrams (and errors)
                while True:
                    try:
                        s.recv(65536)
                    except (BlockingIOError, InterruptedError):
                        break
                    except OSError:
                        continue
        print(json.dumps(read_snmp6()), flush=True)


def cmd_kernel(rxns, txns, ifname, outdir, pcap, out):
    py = sys.executable or "/usr/bin/python3"
    here = os.path.dirname(os.path.abspath(__file__))
    cpu = sorted(os.sched_getaffinity(0))[0]
    rx = subprocess.Popen(["ip", "netns", "exec", rxns, py,
                           os.path.join(here, "kdiff6.py"), "agent-rx"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    tx = subprocess.Popen(["ip", "netns", "exec", txns, py,
                           os.path.join(here, "kdiff.py"), "agent-tx", ifname, outdir,
                           str(cpu), pcap],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert rx.stdout.readline().strip() == "ready"
    assert tx.stdout.readline().strip() == "ready"
    secs = [t for _, t in kdiff.read_pcap_secs(os.path.join(outdir, pcap))]

    def step(cmd, i):
        tx.stdin.write("%s %d\n" % (cmd, i))
        tx.stdin.flush()
        if tx.stdout.readline().strip() != "ok":
            sys.exit("kdiff6: the sender agent failed")
        rx.stdin.write("wait %d\n" % i)
        rx.stdin.flush()
        line = rx.stdout.readline().strip()
        if line == "timeout":
            sys.exit("kdiff6: sentinel %d lost" % i)
        return json.loads(line)

    def delta(a, b):
        return {k: b[k] - a.get(k, 0) for k in b if b[k] != a.get(k, 0)}

    # Sentinels alone until the namespace has been quiet for 3 s: MLD sends
    # its unsolicited reports (robustness 2, up to 1 s apart) after IPv6
    # came up on the port. The IPv4 sentinel moves nothing here.
    prev = step("sentinel", 1 << 24)
    quiet = 0
    for k in range(1, 80):
        select.select([], [], [], 0.25)
        cur = step("sentinel", (1 << 24) + k)
        noise = delta(prev, cur)
        prev = cur
        quiet = 0 if noise else quiet + 1
        if quiet == 12:
            break
    else:
        sys.exit("kdiff6: the namespace's IPv6 counters move by themselves: %r" % noise)
    deltas = []
    for i in kdiff.paced(secs, FRAG6_TIME, "kdiff6", "ip6frag_time", "FRAG6_TIME"):
        cur = step("send", i)
        deltas.append(delta(prev, cur))
        prev = cur
    for p in (rx, tx):
        p.stdin.close()
        p.wait()
    with open(os.path.join(outdir, out), "w") as o:
        json.dump(deltas, o)


# ---- comparison ----

def compare_frames(name, kern, path, frames, labels):
    """lib/path's deltas (path) against the kernel's (kern) frame by frame:
    the number of frames that disagree."""
    if len(path) != len(kern):
        print("kdiff6, %s: %d frames in lib/path, %d in the kernel" % (
            name, len(path), len(kern)))
        return 1
    bad = shown = 0
    classes = {}
    for i, (k, p) in enumerate(zip(kern, path)):
        diff = ["%s kernel %d pktpath %d" % (pf, k.get(kf, 0), p.get(pf, 0))
                for pf, kf in MAPPING.items() if p.get(pf, 0) != k.get(kf, 0)]
        if diff:
            bad += 1
            cls = labels[i].split(" from ")[-1].split(" id ")[0]
            classes[cls] = classes.get(cls, 0) + 1
            if shown < int(os.environ.get("KDIFF_SHOW", "40")):
                shown += 1
                print("%s, frame %d: %s" % (name, i, labels[i]))
                print("  hex %s" % frames[i].hex())
                for x in diff:
                    print("  " + x)
    print("kdiff, %s: %d frames, %d disagree %s; %d fields compared (%d non-zero "
          "in the kernel)" % (
              name, len(kern), bad, json.dumps(classes, sort_keys=True), len(MAPPING),
              len({f for k in kern for f in k if f in MAPPING.values()})))
    return bad


def unmoved(name, kern, fields):
    """The fields of fields the kernel never moved (a class no longer
    exercised), printed."""
    out = [f for f in fields if not any(k.get(f, 0) for k in kern)]
    if out:
        print("kdiff6, %s: the frames never moved %s in the kernel: a class is no "
              "longer exercised" % (name, " ".join(out)))
    return out


def totals(name, mib, kern):
    """kdiff.totals() over the IPv6 fields (MAPPING)."""
    return kdiff.totals(name, mib, kern, MAPPING)


def cmd_compare(outdir):
    def load(name):
        with open(os.path.join(outdir, name)) as i:
            return json.load(i)

    kern = load("kernel6.json")
    bad = compare_frames("ipv6", kern, kdiff.read_path(os.path.join(outdir, "path6.txt")),
                         kdiff.read_pcap(os.path.join(outdir, "v6.pcap")),
                         load("v6-labels.json"))
    # The binary (net_pcap replaying the frames): its totals are the sums of
    # the kernel's per-frame deltas.
    tdiff = totals("ipv6", load("pktpath6.json")["mib"], kern)
    gone = unmoved("ipv6", kern, MUST_MOVE)
    # The fragment pass: kdiffpath alone (its clock is the frames'
    # timestamps; the binary's is the TSC, and its timeouts would not fall
    # on the same frames).
    kfrag = load("kernel6frag.json")
    bad += compare_frames("ipv6 fragments", kfrag,
                          kdiff.read_path(os.path.join(outdir, "path6frag.txt")),
                          kdiff.read_pcap(os.path.join(outdir, "v6frag.pcap")),
                          load("v6frag-labels.json"))
    gone += unmoved("ipv6 fragments", kfrag, MUST_MOVE_FRAG)
    # The rate-limit pass: kdiffpath and the binary (timing cannot change
    # its counts: see the top).
    krl = load("kernel6rlim.json")
    bad += compare_frames("ipv6 rate limits", krl,
                          kdiff.read_path(os.path.join(outdir, "path6rlim.txt")),
                          kdiff.read_pcap(os.path.join(outdir, "v6rlim.pcap")),
                          load("v6rlim-labels.json"))
    tdiff += totals("ipv6 rate limits", load("pktpath6rlim.json")["mib"], krl)
    gone += unmoved("ipv6 rate limits", krl, MUST_MOVE_RLIM)
    return 1 if bad or tdiff or gone else 0


def main(argv):
    c = argv[1] if len(argv) > 1 else ""
    if c == "gen":
        cmd_gen(int(argv[2]), int(argv[3]), argv[4])
    elif c == "agent-rx":
        cmd_agent_rx()
    elif c == "kernel":
        cmd_kernel(argv[2], argv[3], argv[4], argv[5], "v6.pcap", "kernel6.json")
    elif c == "kernel-frag":
        cmd_kernel(argv[2], argv[3], argv[4], argv[5], "v6frag.pcap", "kernel6frag.json")
    elif c == "kernel-rlim":
        cmd_kernel(argv[2], argv[3], argv[4], argv[5], "v6rlim.pcap", "kernel6rlim.json")
    elif c == "frag-time":
        print(FRAG6_TIME)
    elif c == "rlim":
        print(RLIM_MS, BIG_BUCKET)
    elif c == "compare":
        return cmd_compare(argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
