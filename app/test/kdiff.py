#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Kernel-differential test of pktpath's receive path (run by integration/kdiff.sh).

Frames generated from a seed go to a Linux receiver in a network namespace
(veth; 10.99.0.1/24, a UDP and a UDP-Lite socket bound on PORT and read,
forwarding, rp_filter and IPv6 off) one at a time, each followed by a sentinel
datagram to a second socket, so that the namespace's /proc/net/snmp and
/proc/net/netstat deltas of every single frame are known exactly (the
sentinel's own, constant, contribution is subtracted). The same frames go to
lib/path (kdiffpath, per frame) and to the pktpath binary (a pcap replayed by
net_pcap, totals), and every field both count is compared (MAPPING below).

Two passes. First every frame as it is, tags included, to a receiver with no
VLAN device, against pktpath with no --vlan (a host without VLAN devices).
Then the frames with a tag again, against pktpath with --vlan DECLARED: to
the receiver's own VLAN devices for DECLARED where the kernel has them
(CONFIG_VLAN_8021Q: kdiff.sh creates them), or else without the tags those
devices would take (strip_declared): vlan_do_receive hands the VLAN device
the frame without its tag, pkt_type unchanged (the device has the port's
MAC), and what the device does with the rest is what the port does with it
when, as here, no device exists for what is left; every further decision
(priority tags, tags without a device, otherhost, ip_rcv on) is the
kernel's own. ip_rcv then runs on the VLAN device, but nothing it looks at
differs from device to device here: the addresses and routes are the
host's, the sysctls are set for all and default, 224.0.0.1 is joined on
every device that is up.

Then a fragment pass (frag_pass): datagrams in fragments, each of f_dgram's
kinds, then a pause past ipfrag_time (FRAG_TIME, which kdiff.sh sets for
that pass) and one more frame, in whose deltas both sides count the
timeout of every queue left (Ip ReasmTimeout, ReasmFails): kdiffpath's
queues take the frames' pcap timestamps as their clock (--frag-time).

Subcommands:
  gen SEED COUNT DIR        DIR/v4frag.pcap, DIR/v4frag-labels.json (the
                            fragment pass, frag_pass); DIR/pktpath.pcap,
                            DIR/kernel.pcap, DIR/labels.json:
                            a fixed prelude (every ICMP type, one frame of
                            each class of issue 12, tag stacks), then COUNT
                            random frames; the second pass's frames
                            DIR/declared.json (their indexes),
                            DIR/declared-devices.pcap (as they are) and
                            DIR/declared-stripped.pcap (strip_declared)
  declared                  the DECLARED stacks, one a line (for kdiff.sh)
  frag-time                 FRAG_TIME (for kdiff.sh)
  agent-rx                  in the receiver namespace: sockets, snapshots
  agent-tx IFNAME DIR CPU PCAP   in the sender namespace: AF_PACKET sender
  kernel RXNS TXNS IFNAME DIR PCAP OUT   drive both agents: the frames of
                            DIR/PCAP, their deltas in DIR/OUT
  compare DIR MODE          kdiffpath's output (DIR/path.txt, and with
                            --vlan DIR/path-vlan.txt) and the pktpath JSON
                            (DIR/pktpath.json, DIR/pktpath-vlan.json) against
                            DIR/kernel.json and DIR/kernel-vlan.json, and
                            DIR/path-frag.txt against DIR/kernel-frag.json; MODE
                            (devices or stripped) says how the second pass
                            ran

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
import time

LOCAL = "10.99.0.1"
PEER = "10.99.0.2"
PREFIX = 24
PORT = 4242            # the bound UDP and UDP-Lite port
SENTINEL_PORT = 4243   # the sentinel socket's port: never generated
MAC_B = bytes.fromhex("027063617000")   # net_pcap's port MAC, also the veth's
MAC_A = bytes.fromhex("026b64696601")
IPPROTO_UDPLITE = 136
SENTINEL_LEN = 20 + 8 + 13

# The fields compared: pktpath's Group.Field -> the kernel's Group.Field (the
# same names: pktpath prints Linux's). Everything pktpath can move on the
# receive side. Not compared, on purpose (lib/path/README.md, "Where pktpath differs"):
# every Out* field and
# OutTransmits but Tcp's (nothing is transmitted: the resets to segments no
# socket takes are counted, as Linux counts them, in Tcp OutSegs and
# OutRsts), Tcp's connection fields (no socket),
# Udp RcvbufErrors/MemErrors (no socket buffer), IpExt InNoRoutes (forwarding
# off gives InAddrErrors).
MAPPING = {}
for _f in ("InReceives InHdrErrors InAddrErrors InUnknownProtos InDiscards "
           "InDelivers ReasmReqds ReasmOKs ReasmFails ReasmTimeout").split():
    MAPPING["Ip." + _f] = "Ip." + _f
for _f in ("InTruncatedPkts InMcastPkts InBcastPkts InOctets InMcastOctets "
           "InBcastOctets InCsumErrors InNoECTPkts InECT1Pkts InECT0Pkts "
           "InCEPkts ReasmOverlaps").split():
    MAPPING["IpExt." + _f] = "IpExt." + _f
for _f in ("InMsgs InErrors InCsumErrors InDestUnreachs InTimeExcds InParmProbs "
           "InSrcQuenchs InRedirects InEchos InEchoReps InTimestamps "
           "InTimestampReps InAddrMasks InAddrMaskReps").split():
    MAPPING["Icmp." + _f] = "Icmp." + _f
for _t in range(256):
    MAPPING["IcmpMsg.InType%d" % _t] = "IcmpMsg.InType%d" % _t
for _f in "InSegs InErrs InCsumErrors OutSegs OutRsts".split():
    MAPPING["Tcp." + _f] = "Tcp." + _f
for _g in ("Udp", "UdpLite"):
    for _f in "InDatagrams NoPorts InErrors InCsumErrors IgnoredMulti".split():
        MAPPING[_g + "." + _f] = _g + "." + _f

# Kernel fields the generated frames must move (summed over all frames), so
# that the test cannot pass by no longer exercising a class: each stands for
# one class of issue 12 (and the basics).
MUST_MOVE = ["Ip.InHdrErrors", "Ip.InAddrErrors", "Ip.InUnknownProtos",
             "Ip.ReasmReqds", "Ip.ReasmOKs", "Ip.ReasmFails", "IpExt.ReasmOverlaps",
             "IpExt.InTruncatedPkts", "IpExt.InCsumErrors",
             "IpExt.InBcastPkts", "IpExt.InMcastPkts", "IpExt.InECT0Pkts",
             "Udp.InDatagrams", "Udp.NoPorts", "Udp.InCsumErrors",
             "Udp.IgnoredMulti", "UdpLite.InDatagrams", "UdpLite.NoPorts",
             "UdpLite.InCsumErrors", "UdpLite.IgnoredMulti", "Tcp.InSegs", "Tcp.OutRsts",
             "Tcp.InErrs", "Tcp.InCsumErrors", "Icmp.InErrors",
             "Icmp.InCsumErrors", "IcmpMsg.InType3", "IcmpMsg.InType11",
             "IcmpMsg.InType42", "IcmpMsg.InType43", "IcmpMsg.InType200"]

# What the fragment pass (frag_pass) must move.
MUST_MOVE_FRAG = ["Ip.ReasmReqds", "Ip.ReasmOKs", "Ip.ReasmFails", "Ip.ReasmTimeout",
                  "IpExt.ReasmOverlaps", "IpExt.InCEPkts", "Udp.InDatagrams"]

# The VLAN devices of the second pass (pktpath's and kdiffpath's --vlan): an
# 802.1Q device 5 and an 802.1ad device 7 on the port, and QinQ: an 802.1Q
# device 200 on an 802.1Q device 100, an 802.1Q device 5 on an 802.1ad device
# 300. The generator's tags draw their VIDs from VLAN_VIDS often.
DECLARED = ["5", "ad7", "100.200", "ad300.5"]
VLAN_VIDS = [5, 7, 100, 200, 300]
VLAN_TPIDS = (0x8100, 0x88a8)

SENTINEL_DELTA = {"Ip.InReceives": 1, "Ip.InDelivers": 1, "Udp.InDatagrams": 1,
                  "IpExt.InOctets": SENTINEL_LEN, "IpExt.InNoECTPkts": 1}


# ---- packet building ----

def ip2b(a):
    return socket.inet_aton(a)


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def l4sum(src, dst, proto, seg, plen=None):
    ph = ip2b(src) + ip2b(dst) + struct.pack("!BBH", 0, proto,
                                             len(seg) if plen is None else plen)
    return csum(ph + seg)


def eth(dst, etype, payload, tags=()):
    h = dst + MAC_A
    for tpid, tci in tags:
        h += struct.pack("!HH", tpid, tci)
    return h + struct.pack("!H", etype) + payload


def ipv4(src, dst, proto, payload, opts=b"", tos=0, ttl=64, ident=0, frag=0,
         version=4, ihl=None, tot_len=None, bad_csum=False):
    if len(opts) % 4:
        opts += b"\0" * (4 - len(opts) % 4)
    hl = 20 + len(opts)
    if ihl is None:
        ihl = hl // 4
    if tot_len is None:
        tot_len = hl + len(payload)
    h = struct.pack("!BBHHHBBH4s4s", (version << 4) | (ihl & 0xf), tos,
                    tot_len & 0xffff, ident, frag, ttl, proto, 0, ip2b(src),
                    ip2b(dst)) + opts
    c = csum(h)
    if bad_csum:
        c ^= 0x5a5a
    h = h[:10] + struct.pack("!H", c) + h[12:]
    return h + payload


def udp(src, dst, sport, dport, payload, mode="good", length=None, proto=17):
    ln = 8 + len(payload) if length is None else length
    seg = struct.pack("!HHHH", sport, dport, ln, 0) + payload
    if mode == "zero":
        return seg
    c = l4sum(src, dst, proto, seg) or 0xffff
    if mode == "bad":
        c ^= 0x1234
    return seg[:6] + struct.pack("!H", c) + seg[8:]


def udplite(src, dst, sport, dport, payload, cov, mode="good"):
    seg = struct.pack("!HHHH", sport, dport, cov, 0) + payload
    n = len(seg) if cov == 0 or cov > len(seg) else max(cov, 8)
    c = l4sum(src, dst, IPPROTO_UDPLITE, seg[:n], len(seg)) or 0xffff
    if mode == "zero":
        c = 0
    elif mode == "bad":
        c ^= 0x0f0f
    return seg[:6] + struct.pack("!H", c) + seg[8:]


def tcp(src, dst, sport, dport, flags=0x02, doff=5, payload=b"", mode="good"):
    opts = b"\x01" * max(0, doff * 4 - 20)
    seg = struct.pack("!HHIIBBHHH", sport, dport, 1, 0, (doff & 0xf) << 4, flags,
                      1024, 0, 0) + opts + payload
    c = l4sum(src, dst, 6, seg)
    if mode == "bad":
        c ^= 0x4321
    return seg[:16] + struct.pack("!H", c) + seg[18:]


def icmp(typ, code, rest=b"\0\0\0\0", payload=b"", mode="good"):
    m = struct.pack("!BBH", typ, code, 0) + rest[:4] + payload
    c = csum(m)
    if mode == "bad":
        c ^= 0x00ff
    return m[:2] + struct.pack("!H", c) + m[4:]


# ---- the generator ----

class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.ident = 1   # IP IDs: unique, so that only f_dgram's fragments meet
        self.pending = []  # the rest of f_dgram's fragments, sent next

    def nid(self):
        self.ident += 1
        return self.ident & 0xffff

    def port(self):
        r = self.r.random()
        if r < 0.4:
            return PORT
        p = self.r.randrange(1, 65536)
        return p if p not in (PORT, SENTINEL_PORT) else 9

    def src(self):
        r = self.r
        if r.random() < 0.8:
            return r.choice([PEER, "192.0.2.7", "10.99.0.200"])
        return r.choice(["10.99.0.1", "127.0.0.1", "127.0.0.2", "0.0.0.0",
                         "0.1.2.3", "255.255.255.255", "224.0.0.9", "239.1.1.1",
                         "240.0.0.1", "10.99.0.255", "10.99.0.0", "0.255.0.1"])

    def dst(self):
        r = self.r
        if r.random() < 0.6:
            return LOCAL
        return r.choice(["255.255.255.255", "10.99.0.255", "10.99.0.0", "0.0.0.0",
                         "0.1.2.3", "127.0.0.1", "224.0.0.1", "224.0.0.2",
                         "224.0.0.251", "239.1.2.3", "10.99.0.7", "192.0.2.1",
                         "240.0.0.1", "0.0.0.9"])

    def l2dst(self, dst):
        r = self.r.random()
        a = ip2b(dst)
        if r < 0.08:
            return bytes.fromhex("020000000099")          # another host
        if a[0] >= 224 and a[0] < 240 and r < 0.7:
            return bytes([1, 0, 0x5e, a[1] & 0x7f, a[2], a[3]])
        if dst.endswith(".255") and r < 0.7:
            return b"\xff" * 6
        if r < 0.15:
            return b"\xff" * 6
        if r < 0.2:
            return bytes.fromhex("01005e000001")
        return MAC_B

    def payload(self, short=None):
        if short is None:
            short = self.r.random() < 0.5
        n = self.r.randrange(0, 40) if short else self.r.randrange(60, 300)
        return bytes(self.r.randrange(256) for _ in range(n))

    def addrs(self, local_bias=0.7):
        if self.r.random() < local_bias:
            return self.r.choice([PEER, "192.0.2.7"]), LOCAL
        return self.src(), self.dst()

    # each returns (frame, label)
    def f_udp(self):
        s, d = self.addrs(0.6)
        mode = self.r.choice(["good", "good", "zero", "bad"])
        dp = self.port()
        seg = udp(s, d, self.r.randrange(1, 65536), dp, self.payload(), mode)
        if self.r.random() < 0.1:   # a wrong length field
            ln = self.r.choice([0, 7, len(seg) + 1, len(seg) - 1, 8])
            seg = seg[:4] + struct.pack("!H", ln) + seg[6:]
        return self.ip_frame(s, d, 17, seg), "udp %s>%s:%d %s" % (s, d, dp, mode)

    def f_udplite(self):
        s, d = self.addrs(0.6)
        pay = self.payload()
        n = 8 + len(pay)
        cov = self.r.choice([0, 0, 8, n, max(8, n // 2), n + 1, 4, 1])
        mode = self.r.choice(["good", "good", "zero", "bad"])
        dp = self.port()
        seg = udplite(s, d, self.r.randrange(1, 65536), dp, pay, cov, mode)
        return (self.ip_frame(s, d, IPPROTO_UDPLITE, seg),
                "udplite %s>%s:%d cov %d %s" % (s, d, dp, cov, mode))

    def f_tcp(self):
        s, d = self.addrs(0.7)
        doff = self.r.choice([5, 5, 6, 8, 4, 0, 15])
        mode = self.r.choice(["good", "good", "bad"])
        seg = tcp(s, d, self.r.randrange(1, 65536), self.port(),
                  self.r.choice([0x02, 0x10, 0x04, 0x12, 0x11, 0]), doff,
                  self.payload(), mode)
        if self.r.random() < 0.15:
            seg = seg[:self.r.randrange(0, 20)]
        return self.ip_frame(s, d, 6, seg), "tcp %s>%s doff %d %s" % (s, d, doff, mode)

    def quote(self):
        """The datagram an ICMP error quotes: one we sent, in full or cut."""
        r = self.r
        proto = r.choice([17, 17, 17, IPPROTO_UDPLITE, IPPROTO_UDPLITE, 6, 6, 1,
                          2, 103, 255, r.randrange(256)])
        qs = LOCAL if r.random() < 0.8 else r.choice([PEER, "192.0.2.9"])
        qd = r.choice([PEER, "192.0.2.9", "198.51.100.3"])
        sport = PORT if r.random() < 0.5 else self.port()
        if proto in (17, IPPROTO_UDPLITE):
            l4 = struct.pack("!HHHH", sport, r.randrange(1, 65536), 40, 0x1111)
        elif proto == 6:
            l4 = struct.pack("!HHI", sport, r.randrange(1, 65536), 7)
        elif proto == 1:
            l4 = struct.pack("!BBHHH", r.choice([8, 0, 13]), 0, 0, r.randrange(65536), 1)
        else:
            l4 = bytes(r.randrange(256) for _ in range(8))
        l4 += self.payload(True)
        opts = b""
        if r.random() < 0.15:
            opts = b"\x01" * r.choice([4, 8, 12])
        q = ipv4(qs, qd, proto, l4, opts, ident=r.randrange(65536))
        if r.random() < 0.12:   # a mangled quoted header length
            q = bytes([(q[0] & 0xf0) | r.randrange(0, 16)]) + q[1:]
        hl = (q[0] & 0xf) * 4
        cut = r.random()
        if cut < 0.1:
            q = q[:r.randrange(0, 20)]
        elif cut < 0.25:
            q = q[:r.randrange(20, 28)]
        elif cut < 0.4:
            q = q[:hl + 8]
        elif cut < 0.5:
            q = q[:max(0, hl + 7)]
        return q, "quote proto %d sport %d len %d" % (proto, sport, len(q))

    def f_icmp_error(self):
        r = self.r
        typ = r.choice([3, 3, 3, 4, 5, 11, 11, 12])
        code = {3: r.choice([0, 1, 2, 3, 3, 4, 13, 15, 16, 200]),
                4: 0, 5: r.choice([0, 1, 2, 3, 9]),
                11: r.choice([0, 1, 1, 2]), 12: r.choice([0, 1, 2])}[typ]
        q, ql = self.quote()
        s, d = self.addrs(0.85)
        rest = struct.pack("!HH", 0, 1400) if typ == 3 else bytes(
            r.randrange(256) for _ in range(4))
        m = icmp(typ, code, rest, q, "bad" if r.random() < 0.05 else "good")
        return self.ip_frame(s, d, 1, m), "icmp %d/%d %s>%s %s" % (typ, code, s, d, ql)

    def f_icmp_any(self):
        r = self.r
        typ = r.choice([r.randrange(0, 20), r.randrange(0, 20), 40, 41, 42, 43,
                        44, r.randrange(256)])
        code = r.choice([0, 0, r.randrange(256)])
        s, d = self.addrs(0.6)
        mode = "bad" if r.random() < 0.1 else "good"
        m = icmp(typ, code, bytes(r.randrange(256) for _ in range(4)),
                 self.payload(), mode)
        if r.random() < 0.08:
            m = m[:r.randrange(0, 8)]
            if len(m) >= 4 and mode == "good":
                c = csum(m[:2] + b"\0\0" + m[4:])
                m = m[:2] + struct.pack("!H", c) + m[4:]
        return self.ip_frame(s, d, 1, m), "icmp %d/%d %s>%s %s len %d" % (
            typ, code, s, d, mode, len(m))

    def option(self):
        r = self.r
        k = r.randrange(15)
        if k == 0:
            return b"\x01"
        if k == 1:
            return b"\x00"
        if k in (2, 3):   # record route
            ln = r.choice([3, 7, 11, 39, 2])
            return bytes([7, ln, r.choice([4, 4, 5, 3, ln + 1, ln - 2])]) + b"\0" * max(0, ln - 3)
        if k in (4, 5):   # timestamp
            ln = r.choice([4, 8, 12, 20, 40, 3])
            return bytes([68, ln, r.choice([5, 5, 9, 4, ln + 1, ln - 2]),
                          (r.randrange(16) << 4) | r.choice([0, 1, 3, 2, 15])]) + b"\0" * max(0, ln - 4)
        if k == 6:        # source routes
            ln = r.choice([3, 7, 11, 2])
            return bytes([r.choice([131, 137]), ln, r.choice([4, 3, 8])]) + b"\0" * max(0, ln - 3)
        if k == 7:        # router alert
            ln = r.choice([4, 4, 2, 3])
            return bytes([148, ln]) + b"\0" * max(0, ln - 2)
        if k in (8, 9):   # CIPSO
            tags = r.choice([b"\x01\x04\x00\x00", b"\x01\x04\x00\x00\x05\x03\x00",
                             b"\x01\x00", b"\x01", b"", b"\x07\x08\x00\x00\x00\x00\x00\x00"])
            doi = r.choice([b"\0\0\0\0", b"\0\0\0\1", b"\x12\x34\x56\x78"])
            body = doi + tags
            ln = 2 + len(body)
            if r.random() < 0.2:
                ln = r.choice([6, 7, ln + 2])
            return bytes([134, ln & 0xff]) + body
        if k == 10:       # security, stream id
            return r.choice([bytes([130, 11]) + b"\0" * 9, bytes([136, 4, 0, 1])])
        if k == 11:       # unknown
            ln = r.randrange(2, 9)
            return bytes([r.choice([25, 82, 94, 200, 30, 158]), ln]) + b"\0" * (ln - 2)
        if k == 12:       # bad lengths
            return bytes([r.choice([7, 68, 148, 25, 134]), r.choice([0, 1, 60])])
        if k == 13:
            return bytes([r.choice([7, 68, 25])])   # cut at the end
        return b"\x01\x01"

    def f_options(self):
        opts = b""
        for _ in range(self.r.randrange(1, 4)):
            opts += self.option()
        opts = opts[:40]
        s, d = self.addrs(0.8)
        proto = self.r.choice([17, 1, 6])
        if proto == 17:
            l4 = udp(s, d, 1000, self.port(), self.payload())
        elif proto == 1:
            l4 = icmp(8, 0, b"\0\1\0\1", self.payload())
        else:
            l4 = tcp(s, d, 1000, 80)
        return (self.ip_frame(s, d, proto, l4, opts=opts),
                "options %s proto %d %s>%s" % (opts.hex(), proto, s, d))

    def f_mutate(self):
        r = self.r
        s, d = self.addrs(0.8)
        l4 = udp(s, d, 1000, self.port(), self.payload())
        kw = {}
        what = r.choice(["version", "ihl", "totlen", "totlen", "csum", "ttl",
                         "proto", "tos", "short", "long"])
        if what == "version":
            kw["version"] = r.choice([0, 5, 6, 15])
        elif what == "ihl":
            kw["ihl"] = r.choice([0, 1, 4, 6, 15])
        elif what == "totlen":
            kw["tot_len"] = r.choice([0, 19, 20, 27, 28 + len(l4) - 3,
                                      28 + len(l4) + 1, 65535])
        elif what == "csum":
            kw["bad_csum"] = True
        elif what == "ttl":
            kw["ttl"] = 0
        elif what == "proto":
            proto = r.choice([0, 3, 4, 41, 47, 50, 103, 132, 136, 255, r.randrange(256)])
            f = self.ip_frame(s, d, proto, self.payload(), **kw)
            return f, "proto %d %s>%s" % (proto, s, d)
        elif what == "tos":
            kw["tos"] = r.randrange(256)
        f = self.ip_frame(s, d, 17, l4, **kw)
        if what == "short":
            f = f[:14 + r.randrange(0, 20)]
        elif what == "long":
            f = f + bytes(r.randrange(1, 30))   # padding beyond tot_len
        return f, "mutate %s %r %s>%s" % (what, kw, s, d)

    def f_addr(self):
        s, d = self.src(), self.dst()
        proto = self.r.choice([17, 17, 1, 6, 2])
        if proto == 17:
            l4 = udp(s, d, 1000, self.port(), self.payload())
        elif proto == 1:
            l4 = icmp(self.r.choice([8, 0, 17, 18, 13, 3]), 0, b"\0\1\0\1",
                      self.payload())
        elif proto == 6:
            l4 = tcp(s, d, 1000, 80)
        else:
            l4 = bytes([0x11, 0, 0, 0]) + ip2b("0.0.0.0")
            l4 = l4[:2] + struct.pack("!H", csum(l4)) + l4[4:]
        return self.ip_frame(s, d, proto, l4), "addr proto %d %s>%s" % (proto, s, d)

    def f_frag(self):
        r = self.r
        s, d = self.addrs(0.8)
        l4 = udp(s, d, 1000, self.port(), self.payload(False))
        off = r.choice([0, 0, 1, 8, 100, 8191])
        mf = r.random() < 0.6
        frag = (0x2000 if mf else 0) | off | (0x8000 if r.random() < 0.1 else 0)
        if off == 0 and not mf:
            frag |= 0x2000
        body = l4[:r.choice([len(l4), 0, 3, 7, 8, 16])]
        f = self.ip_frame(s, d, 17, body, frag=frag)
        return f, "frag off %d mf %d len %d %s>%s" % (off, mf, len(body), s, d)

    DGRAM_HOWS = ["order", "reverse", "shuffle", "dup", "overlap", "missing", "ecn",
                  "big"]

    def f_dgram(self, how=None):
        """A datagram in fragments (sent one after the other: the first
        now, the rest by frame()): in order, reversed, shuffled, with a
        duplicate, with an overlap, with one missing, with a Not-ECT and a
        CE fragment, or 65535 bytes and more (how, or one of them drawn)."""
        r = self.r
        s, d = r.choice([PEER, "192.0.2.7"]), LOCAL
        if how is None:
            how = r.choice(["order", "reverse", "shuffle", "dup", "dup", "overlap",
                            "overlap", "missing", "ecn", "big"])
        if how == "big":
            n = r.choice([65515 - 8, 65520 - 8])
            pay = bytes(n)
            step = 1480
        else:
            pay = self.payload(False) + self.payload(True)
            step = 8 * r.randrange(1, 12)
        k = r.randrange(3)
        if k == 0:
            l4, proto = icmp(8, 0, b"\0\1\0\1", pay), 1
        else:
            l4, proto = udp(s, d, 1000, self.port(), pay, r.choice(["good"] * 5 + ["bad"])), 17
        parts = [(o, min(o + step, len(l4))) for o in range(0, len(l4), step)]
        if len(parts) < 2:
            parts = [(0, 8), (8, len(l4))]
        if how == "reverse":
            parts.reverse()
        elif how == "shuffle":
            r.shuffle(parts)
        elif how == "dup":
            i = r.randrange(len(parts) - 1)
            parts.insert(r.randrange(i + 1, len(parts)), parts[i])
        elif how == "overlap":
            o, e = parts[r.randrange(len(parts))]
            o2 = max(0, o + 8 * r.choice([-1, 1]))
            parts.insert(r.randrange(1, len(parts)), (o2, min(len(l4), o2 + (e - o))))
        elif how == "missing":
            del parts[r.randrange(len(parts))]
        ident = self.nid()
        frames = []
        for j, (o, e) in enumerate(parts):
            mf = 0x2000 if e < len(l4) else 0
            tos = 3 if how == "ecn" and j == len(parts) - 1 else 0
            frames.append((self.ip_frame(s, d, proto, l4[o:e], ident=ident,
                                         frag=mf | (o // 8), tos=tos),
                           "dgram %s id %d proto %d %d..%d of %d %s>%s" %
                           (how, ident, proto, o, e, len(l4), s, d)))
        self.pending = frames[1:]
        return frames[0]

    def f_proto(self):
        r = self.r
        s, d = self.addrs(0.7)
        proto = r.choice([2, 103, 103, 255, 136, 50, 47, 4, 41, 132, 0, r.randrange(256)])
        pay = self.payload()
        if proto == 103 and r.random() < 0.5:   # a PIM register header
            pay = bytes([0x21, 0, 0, 0, 0, 0, 0, 0]) + pay
        return self.ip_frame(s, d, proto, pay), "proto %d %s>%s" % (proto, s, d)

    def f_vlan(self):
        r = self.r
        tags = []
        for _ in range(r.choice([1, 1, 2, 3])):
            vid = r.choice(VLAN_VIDS) | (r.choice([0, 0, 5, 8]) << 12)
            tags.append((r.choice([0x8100, 0x8100, 0x88a8]),
                         r.choice([0, 0, 0x2000, vid, vid, vid,
                                   r.randrange(1, 4096), r.randrange(65536)])))
        s, d = self.addrs(0.8)
        l4 = udp(s, d, 1000, self.port(), self.payload())
        f, lab = self.ip_frame(s, d, 17, l4, tags=tags, labelled=True)
        return f, "vlan %s %s" % (["%04x/%04x" % t for t in tags], lab)

    def f_other(self):
        r = self.r
        k = r.randrange(5)
        if k == 0:
            return eth(b"\xff" * 6, 0x0806, bytes(28)), "arp"
        if k == 1:
            return eth(MAC_B, 0x86dd, bytes(48)), "ipv6"
        if k == 2:
            return eth(MAC_B, 0x9100, bytes(46)), "9100"
        if k == 3:
            return eth(MAC_B, 0x0040, bytes(46)), "802.3"
        return eth(MAC_B, 0x0800, bytes(r.randrange(0, 19))), "runt ip"

    def ip_frame(self, s, d, proto, l4, tags=(), labelled=False, **kw):
        if "ident" not in kw:
            kw["ident"] = self.nid()
        f = eth(self.l2dst(d), 0x0800, ipv4(s, d, proto, l4, **kw), tags)
        return (f, "") if labelled else f

    CLASSES = [("f_udp", 14), ("f_udplite", 8), ("f_tcp", 6), ("f_icmp_error", 16),
               ("f_icmp_any", 10), ("f_options", 10), ("f_mutate", 10),
               ("f_addr", 10), ("f_frag", 5), ("f_proto", 5), ("f_vlan", 6),
               ("f_other", 2), ("f_dgram", 3)]

    def prelude(self):
        """Frames every seed starts with: each ICMP type once (code 0, then
        a random code), and one of each class issue 12 named."""
        out = []
        for t in range(256):
            m = icmp(t, self.r.choice([0, self.r.randrange(256)]), b"\0\1\0\1",
                     self.payload(True))
            out.append((self.ip_frame(PEER, LOCAL, 1, m), "icmp %d prelude" % t))
        q = ipv4(LOCAL, "192.0.2.9", 17, struct.pack("!HHHH", 999, 53, 16, 0) + bytes(8))
        for typ, code in ((3, 3), (4, 0), (5, 1), (11, 0), (12, 0)):
            out.append((self.ip_frame(PEER, LOCAL, 1, icmp(typ, code, bytes(4), q)),
                        "icmp %d/%d quoting udp to no socket" % (typ, code)))
        out.append((self.ip_frame(PEER, LOCAL, 1, icmp(11, 1, bytes(4), q[:20])),
                    "icmp 11/1 short quote"))
        pay = bytes(20)
        for d, mac in (("255.255.255.255", b"\xff" * 6), ("224.0.0.1", bytes.fromhex("01005e000001"))):
            out.append((eth(mac, 0x0800, ipv4(PEER, d, 17, udp(PEER, d, 7, 999, pay, "bad"))),
                        "udp short bad csum to %s" % d))
            out.append((eth(mac, 0x0800, ipv4(PEER, d, IPPROTO_UDPLITE,
                                            udplite(PEER, d, 7, 999, pay, 0))),
                        "udplite to %s no listener" % d))
        out.append((self.ip_frame(PEER, LOCAL, 17, udp(PEER, LOCAL, 7, PORT, pay),
                                  opts=bytes([134, 10, 0, 0, 0, 1, 1, 4, 0, 0])),
                    "cipso"))
        for proto in (103, 136):
            seg = udplite(PEER, LOCAL, 7, PORT, pay, 0) if proto == 136 else bytes(28)
            out.append((self.ip_frame(PEER, LOCAL, proto, seg), "proto %d" % proto))
        out.append((self.ip_frame("0.1.2.3", LOCAL, 17, udp("0.1.2.3", LOCAL, 7, PORT, pay)),
                    "source 0.1.2.3"))
        out.append((self.ip_frame(PEER, "0.1.2.3", 17, udp(PEER, "0.1.2.3", 7, PORT, pay)),
                    "destination 0.1.2.3"))
        out.append((eth(b"\xff" * 6, 0x0800, ipv4("127.0.0.1", "255.255.255.255", 17,
                                                  udp("127.0.0.1", "255.255.255.255", 7, PORT, pay))),
                    "source 127.0.0.1 to broadcast"))
        # Tag stacks: priority tags, each declared device and QinQ stack,
        # the same VIDs under the other TPID or parent, a device's tag
        # behind an undeclared one, to the host and to broadcast.
        for tags in (((0x88a8, 0), (0x8100, 0)), ((0x8100, 0), (0x8100, 0), (0x8100, 0)),
                     ((0x88a8, 0), (0x8100, 5)), ((0x8100, 5),), ((0x8100, 0xa005),),
                     ((0x88a8, 5),), ((0x88a8, 7),), ((0x8100, 7),),
                     ((0x8100, 100), (0x8100, 200)), ((0x8100, 100),),
                     ((0x8100, 100), (0x88a8, 200)), ((0x88a8, 300), (0x8100, 5)),
                     ((0x88a8, 300), (0x8100, 0), (0x8100, 5)), ((0x8100, 5), (0x8100, 0)),
                     ((0x8100, 5), (0x8100, 5)), ((0x8100, 9), (0x8100, 5)),
                     ((0x8100, 4095),), ((0x8100, 100), (0x8100, 200), (0x8100, 5))):
            for d, mac in ((LOCAL, MAC_B), ("10.99.0.255", b"\xff" * 6)):
                out.append((eth(mac, 0x0800, ipv4(PEER, d, 17, udp(PEER, d, 7, PORT, pay)),
                                tags),
                            "vlan %s to %s" % (["%04x/%04x" % t for t in tags], d)))
        return out

    def frame(self):
        if self.pending:
            return self.pending.pop(0)
        names = [c for c, _ in self.CLASSES]
        weights = [w for _, w in self.CLASSES]
        return getattr(self, self.r.choices(names, weights)[0])()


def kernel_frame(f):
    """What the kernel is given: the frame as it is, tags included (the
    receiver has no VLAN device, as pktpath without --vlan), but for the
    zeros AF_PACKET pads a short header with (CAP_SYS_RAWIO)."""
    if len(f) < 14:
        return f + bytes(14 - len(f))
    return f


def parse_stack(s):
    """A DECLARED stack: [(tpid, vid), ...], outermost first."""
    return [(0x88a8, int(t[2:])) if t.startswith("ad") else (0x8100, int(t))
            for t in s.split(".")]


def declared_devices():
    """Every device DECLARED makes, as its path from the port: A.B makes A,
    and B on A."""
    devs = set()
    for s in DECLARED:
        st = parse_stack(s)
        for k in range(1, len(st) + 1):
            devs.add(tuple(st[:k]))
    return devs


def tagged(f):
    return len(f) >= 14 and struct.unpack("!H", f[12:14])[0] in VLAN_TPIDS


def inner_ethertype(f):
    """The ethertype behind all of f's tags (None if cut short)."""
    off = 12
    while off + 2 <= len(f):
        et = struct.unpack("!H", f[off:off + 2])[0]
        if et not in VLAN_TPIDS:
            return et
        off += 4
    return None


def strip_declared(f, devs):
    """The frame without the tags that devs take, round by round as
    __netif_receive_skb_core offers them to vlan_do_receive: the outer tag
    (if skb_vlan_untag can pull it with the 2 bytes after it) is taken by
    the device for its TPID and VID (PCP and DEI aside) on the device that
    has the frame; with none, a VID-0 tag stays (the kernel strips it) and
    the next one is offered, any other stays and ends the taking (the
    kernel makes the frame otherhost)."""
    off, dev = 12, ()
    while off + 8 <= len(f) and struct.unpack("!H", f[off:off + 2])[0] in VLAN_TPIDS:
        tpid, tci = struct.unpack("!HH", f[off:off + 4])
        child = dev + ((tpid, tci & 0xfff),)
        if child in devs:
            f = f[:off] + f[off + 4:]
            dev = child
        elif tci & 0xfff:
            break
        else:
            off += 4
    return f


def write_pcap(path, frames, secs=None):
    """Frame i at 1 s + i us, or, with secs, at 1 + secs[i] s + i us: the
    clock of kdiffpath's reassembly queues, and the pauses the kernel
    driver makes (read_pcap_secs)."""
    with open(path, "wb") as o:
        o.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, f in enumerate(frames):
            o.write(struct.pack("<IIII", 1 + (secs[i] if secs else 0), i, len(f),
                                len(f)) + f)


def read_pcap_secs(path):
    """The frames of path with their timestamps' seconds."""
    out = []
    with open(path, "rb") as i:
        d = i.read()
    off = 24
    while off < len(d):
        sec, _, cap, _ = struct.unpack("<IIII", d[off:off + 16])
        out.append((d[off + 16:off + 16 + cap], sec))
        off += 16 + cap
    return out


def read_pcap(path):
    return [f for f, _ in read_pcap_secs(path)]


# The fragment pass's ipfrag_time (kdiff.sh sets it, kdiffpath gets it as
# --frag-time) and the pause after its datagrams, long enough for every
# queue they leave to time out (the timer wheel fires up to 1/8 late).
FRAG_TIME = 15
FRAG_PAUSE = FRAG_TIME + 4


def frag_pass(seed):
    """The IPv4 fragment pass: f_dgram's datagrams, each kind three times
    (65535 bytes once), then a pause past ipfrag_time and one datagram:
    every queue they leave times out in the pause (ReasmTimeout,
    ReasmFails), counted in that frame's deltas by both sides. IDs from
    0x8000: no queue of the first passes is met. [(frame, label, secs)]."""
    g = Gen(seed * 7919 + 4)
    g.ident = 0x8000
    out = []
    for rep in range(3):
        for how in Gen.DGRAM_HOWS:
            if how == "big" and rep:
                continue
            out.append(g.f_dgram(how) + (0,))
            out.extend(p + (0,) for p in g.pending)
            g.pending = []
    out.append((eth(MAC_B, 0x0800, ipv4(PEER, LOCAL, 17, udp(PEER, LOCAL, 7, PORT,
                                                               bytes(20)), ident=1)),
                "after the timeout", FRAG_PAUSE))
    return out


def cmd_gen(seed, count, outdir):
    fp = frag_pass(seed)
    write_pcap(os.path.join(outdir, "v4frag.pcap"), [f for f, _, _ in fp],
               [t for _, _, t in fp])
    with open(os.path.join(outdir, "v4frag-labels.json"), "w") as o:
        json.dump([lab for _, lab, _ in fp], o)
    g = Gen(seed)
    frames, labels = [], []
    for f, lab in g.prelude():
        frames.append(f)
        labels.append(lab)
    for _ in range(count):
        f, lab = g.frame()
        frames.append(f)
        labels.append(lab)
    write_pcap(os.path.join(outdir, "pktpath.pcap"), frames)
    write_pcap(os.path.join(outdir, "kernel.pcap"), [kernel_frame(f) for f in frames])
    with open(os.path.join(outdir, "labels.json"), "w") as o:
        json.dump(labels, o)
    # The second pass: the frames a VLAN device can change, as they are for
    # a kernel with DECLARED's devices, without their tags for one without.
    devs = declared_devices()
    idx = [i for i, f in enumerate(frames) if tagged(f)]
    write_pcap(os.path.join(outdir, "declared-devices.pcap"),
               [kernel_frame(frames[i]) for i in idx])
    write_pcap(os.path.join(outdir, "declared-stripped.pcap"),
               [kernel_frame(strip_declared(frames[i], devs)) for i in idx])
    with open(os.path.join(outdir, "declared.json"), "w") as o:
        json.dump(idx, o)


# ---- the receiver namespace ----

def read_snmp():
    v = {}
    for path in ("/proc/net/snmp", "/proc/net/netstat"):
        with open(path) as i:
            lines = i.read().splitlines()
        for a, b in zip(lines[0::2], lines[1::2]):
            g, names = a.split(":", 1)
            _, vals = b.split(":", 1)
            for n, x in zip(names.split(), vals.split()):
                v[g + "." + n] = int(x)
    return v


def cmd_agent_rx():
    socks = []
    for proto in (socket.IPPROTO_UDP, IPPROTO_UDPLITE):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, proto)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        s.bind(("0.0.0.0", PORT))
        s.setblocking(False)
        socks.append(s)
    sen = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sen.bind(("0.0.0.0", SENTINEL_PORT))
    print("ready", flush=True)
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "wait":
            want = b"kdiff%08d" % int(w[1])
            while True:
                r, _, _ = select.select([sen], [], [], 5.0)
                if not r:
                    print("timeout", flush=True)
                    break
                if sen.recv(2048) == want:
                    break
            for s in socks:   # everything before the sentinel is queued
                while True:
                    try:
                        s.recv(65536)
                    except BlockingIOError:
                        break
        print(json.dumps(read_snmp()), flush=True)


# ---- the sender namespace ----

def sentinel(i):
    pay = b"kdiff%08d" % i
    seg = udp(PEER, LOCAL, 40000, SENTINEL_PORT, pay)
    return eth(MAC_B, 0x0800, ipv4(PEER, LOCAL, 17, seg, ident=0))


def cmd_agent_tx(ifname, outdir, cpu, pcap):
    os.sched_setaffinity(0, {cpu})   # one CPU: one backlog, frames in order
    frames = read_pcap(os.path.join(outdir, pcap))
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
    s.bind((ifname, 0))
    print("ready", flush=True)
    for line in sys.stdin:
        w = line.split()
        i = int(w[1])
        if w[0] == "send":
            s.send(frames[i])
        s.send(sentinel(i))
        print("ok", flush=True)


def paced(secs, limit, who, knob, const):
    """The frames' indexes, in order, each yielded when it is time to send
    it: a frame whose timestamp (secs) is later than the one before it is
    sent that much later (the fragment pass's pause past knob, the
    namespace's reassembly timeout of limit seconds). The frames before a
    pause must take less than limit, so that none of their queues times
    out before it: exit with one line if they did not."""
    start, first = time.monotonic(), 0
    for i in range(len(secs)):
        if i and secs[i] > secs[i - 1]:
            took = time.monotonic() - start
            if took >= limit:
                sys.exit("%s: frames %d to %d took %.1f s, not less than "
                         "%s (%d s): a queue may have timed out before "
                         "the pause (the machine is too busy; raise %s)" % (
                             who, first, i - 1, took, knob, limit, const))
            time.sleep(secs[i] - secs[i - 1])
            start, first = time.monotonic(), i
        yield i


def cmd_kernel(rxns, txns, ifname, outdir, pcap, out):
    py = sys.executable or "/usr/bin/python3"
    me = os.path.abspath(__file__)
    cpu = sorted(os.sched_getaffinity(0))[0]
    rx = subprocess.Popen(["ip", "netns", "exec", rxns, py, me, "agent-rx"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    tx = subprocess.Popen(["ip", "netns", "exec", txns, py, me, "agent-tx", ifname,
                           outdir, str(cpu), pcap],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert rx.stdout.readline().strip() == "ready"
    assert tx.stdout.readline().strip() == "ready"
    secs = [t for _, t in read_pcap_secs(os.path.join(outdir, pcap))]

    def step(cmd, i):
        tx.stdin.write("%s %d\n" % (cmd, i))
        tx.stdin.flush()
        if tx.stdout.readline().strip() != "ok":
            sys.exit("kdiff: the sender agent failed")
        rx.stdin.write("wait %d\n" % i)
        rx.stdin.flush()
        line = rx.stdout.readline().strip()
        if line == "timeout":
            sys.exit("kdiff: sentinel %d lost (frame %d)" % (i, i))
        return json.loads(line)

    # A sentinel alone first: the baseline, and a check that nothing else
    # moves the namespace's counters.
    prev = step("sentinel", 1 << 24)
    cur = step("sentinel", (1 << 24) + 1)
    noise = {k: cur[k] - prev.get(k, 0) for k in cur if cur[k] != prev.get(k, 0)}
    if noise != {k: v for k, v in SENTINEL_DELTA.items()}:
        sys.exit("kdiff: the namespace's counters move by themselves: %r" % noise)
    deltas = []
    prev = cur
    for i in paced(secs, FRAG_TIME, "kdiff", "ipfrag_time", "FRAG_TIME"):
        cur = step("send", i)
        d = {k: cur[k] - prev.get(k, 0) for k in cur if cur[k] != prev.get(k, 0)}
        for k, v in SENTINEL_DELTA.items():
            d[k] = d.get(k, 0) - v
        deltas.append({k: v for k, v in d.items() if v != 0})
        prev = cur
    for p in (rx, tx):
        p.stdin.close()
        p.wait()
    with open(os.path.join(outdir, out), "w") as o:
        json.dump(deltas, o)


# ---- comparison ----

def read_path(path):
    out = []
    with open(path) as i:
        for line in i:
            w = line.split()
            out.append({k: int(v) for k, v in (x.split("=") for x in w[1:])})
    return out


def totals(name, mib, kern, mapping):
    """The binary's totals (mib, pktpath's JSON "mib") against the sums of
    the kernel's per-frame deltas (kern), field by field of mapping (pktpath
    Group.Field -> the kernel's): the fields that differ, printed. kdiff6.py
    calls it with its own mapping."""
    tdiff = []
    for pf, kf in mapping.items():
        g, f = pf.split(".")
        pv, kv = mib.get(g, {}).get(f, 0), sum(k.get(kf, 0) for k in kern)
        if pv != kv:
            tdiff.append("%s kernel %d pktpath %d" % (pf, kv, pv))
    if tdiff:
        print("%s: pktpath binary totals differ from the kernel's:" % name)
        for x in tdiff:
            print("  " + x)
    return tdiff


def compare_pass(name, kern, path, mib, frames, kframes, labels):
    """One pass: lib/path's deltas (path) against the kernel's (kern) frame
    by frame, the binary's totals (mib) against their sums. Returns the
    number of disagreeing frames and of differing totals."""
    if len(path) != len(kern):
        print("kdiff, %s: %d frames in lib/path, %d in the kernel" % (
            name, len(path), len(kern)))
        return 1, 0
    bad = shown = 0
    classes = {}
    for i, (k, p) in enumerate(zip(kern, path)):
        diff = []
        for pf, kf in MAPPING.items():
            if p.get(pf, 0) != k.get(kf, 0):
                diff.append("%s kernel %d pktpath %d" % (pf, k.get(kf, 0), p.get(pf, 0)))
        if diff:
            bad += 1
            cls = labels[i].split()[0]
            classes[cls] = classes.get(cls, 0) + 1
            if shown < int(os.environ.get("KDIFF_SHOW", "40")):
                shown += 1
                print("%s, frame %d: %s" % (name, i, labels[i]))
                print("  hex %s" % frames[i].hex())
                if kframes[i] != frames[i]:
                    print("  kernel got %s" % kframes[i].hex())
                for x in diff:
                    print("  " + x)
    # The binary: its totals must be the sums of the kernel's per-frame
    # deltas (none for the fragment pass: mib None).
    tdiff = totals(name, mib, kern, MAPPING) if mib is not None else []
    print("kdiff, %s: %d frames, %d disagree %s, %s; %d fields "
          "compared (%d non-zero in the kernel)" % (
              name, len(kern), bad, json.dumps(classes, sort_keys=True),
              "%d total fields differ" % len(tdiff) if mib is not None else
              "no binary run",
              len(MAPPING), len({kf for k in kern for kf in k if kf in MAPPING.values()})))
    return bad, len(tdiff)


def cmd_compare(outdir, mode):
    def load(name):
        with open(os.path.join(outdir, name)) as i:
            return json.load(i)

    labels = load("labels.json")
    frames = read_pcap(os.path.join(outdir, "pktpath.pcap"))
    kern = load("kernel.json")
    bad, tdiff = compare_pass("no VLAN device", kern,
                              read_path(os.path.join(outdir, "path.txt")),
                              load("pktpath.json")["mib"], frames,
                              read_pcap(os.path.join(outdir, "kernel.pcap")), labels)
    unmoved = [f for f in MUST_MOVE if not any(k.get(f, 0) for k in kern)]
    if unmoved:
        print("kdiff: the frames never moved %s in the kernel: a class is no "
              "longer exercised" % " ".join(unmoved))
        bad += 1
    # The second pass: the tagged frames' deltas with DECLARED's devices,
    # the others' as in the first (no VLAN code touches an untagged frame).
    idx = load("declared.json")
    kvlan = load("kernel-vlan.json")
    sent = read_pcap(os.path.join(outdir, "declared-%s.pcap" % mode))
    if len(kvlan) != len(idx):
        print("kdiff: %d tagged frames, %d kernel deltas" % (len(idx), len(kvlan)))
        return 1
    kern2, kframes2 = list(kern), read_pcap(os.path.join(outdir, "kernel.pcap"))
    for j, i in enumerate(idx):
        kern2[i] = kvlan[j]
        kframes2[i] = sent[j]
    b2, t2 = compare_pass("--vlan " + ",".join(DECLARED), kern2,
                          read_path(os.path.join(outdir, "path-vlan.txt")),
                          load("pktpath-vlan.json")["mib"], frames, kframes2, labels)
    # Both passes must have met what they are there for: tagged IPv4 that
    # only a device lets in, and tags no device takes.
    taken = sum(1 for j, i in enumerate(idx)
                if kvlan[j].get("Ip.InReceives") and not kern[i].get("Ip.InReceives"))
    untaken = sum(1 for j, i in enumerate(idx) if inner_ethertype(frames[i]) == 0x0800
                  and not kvlan[j].get("Ip.InReceives"))
    print("kdiff: %d tagged frames: %d let in only by a declared device, %d IPv4 "
          "ones with a tag no device takes (none reached ip_rcv); the declared "
          "devices %s" % (
              len(idx), taken, untaken,
              "were the kernel's own VLAN devices" if mode == "devices" else
              "were checked against the same frames without the tags they take "
              "(this kernel has no VLAN devices: CONFIG_VLAN_8021Q)"))
    if not taken or not untaken:
        print("kdiff: the tagged frames no longer exercise the VLAN devices")
        bad += 1
    # The fragment pass: kdiffpath alone (its clock is the frames'
    # timestamps; the binary's is the TSC, its timeouts would not fall on
    # the same frames).
    kfrag = load("kernel-frag.json")
    ffr = read_pcap(os.path.join(outdir, "v4frag.pcap"))
    b3, _ = compare_pass("fragments", kfrag, read_path(os.path.join(outdir, "path-frag.txt")),
                         None, ffr, ffr, load("v4frag-labels.json"))
    unmoved = [f for f in MUST_MOVE_FRAG if not any(k.get(f, 0) for k in kfrag)]
    if unmoved:
        print("kdiff, fragments: the frames never moved %s in the kernel" % " ".join(unmoved))
        b3 += 1
    return 1 if bad or tdiff or b2 or t2 or b3 else 0


def main(argv):
    c = argv[1] if len(argv) > 1 else ""
    if c == "gen":
        cmd_gen(int(argv[2]), int(argv[3]), argv[4])
    elif c == "agent-rx":
        cmd_agent_rx()
    elif c == "declared":
        print("\n".join(DECLARED))
    elif c == "frag-time":
        print(FRAG_TIME)
    elif c == "agent-tx":
        cmd_agent_tx(argv[2], argv[3], int(argv[4]), argv[5])
    elif c == "kernel":
        cmd_kernel(argv[2], argv[3], argv[4], argv[5], argv[6], argv[7])
    elif c == "compare":
        return cmd_compare(argv[2], argv[3])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
