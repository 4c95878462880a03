#!/usr/bin/env python3
"""Traffic and expectations for the real-interface tests (ports-*.sh).

  ports.py sockets DST N [IFACE]
      from Linux sockets in the calling namespace: N UDP datagrams to DST:9
      (a listener) and N to DST:10 (none), N TCP SYNs (connect, then close
      before any answer), N ICMP echo requests (a ping socket), 3 IPv6 UDP
      datagrams to ff02::1 and one ARP request (on IFACE): the kernel sets
      every checksum as it does for local traffic (partial on a veth).
  ports.py flood DST N          N UDP datagrams to DST:9, as fast as possible
  ports.py mkpcap OUT SMAC DMAC SRC DST N
      a pcap for tcpreplay: per kind N frames with complete, right checksums
      and N with deliberately wrong ones (UDP, TCP, ICMP, IPv4 header).
  ports.py check PKTPATH.json CAPTURE.pcap [--partial] [--queues L:Q,...]
      every MIB field pktpath reported against the expectation built from
      the capture of the same interface (tcpdump, the kernel's own copy of
      every frame): each IPv4 frame is one of ours, recognised by its tag
      (payload or port) and counted as Linux counts its kind; every other
      frame (ARP: what the kernel sends on its own too) is RxNotIp; the
      IPv6 ones are the test's datagrams to ff02::1 (delivered) or the
      kernel's own to groups the port has not joined (classify6).
      --partial: the capture must hold partial checksums (the case under
      test). --queues: each worker's RxPackets is its queue's q_ipackets.

Frame kinds are told by tags the test writes, never by pktpath's logic.
"""
import json
import socket
import struct
import sys
import time

UDP_LISTEN, UDP_CLOSED = 9, 10
TCP_SOCK, TCP_GOOD, TCP_BAD = 5000, 6000, 7000     # port ranges (+N)


def csum(data, s=0):
    if len(data) % 2:
        data += b"\0"
    for i in range(0, len(data), 2):
        s += data[i] << 8 | data[i + 1]
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def cmd_sockets(dst, n, iface=None):
    n = int(n)
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for i in range(n):
        u.sendto(b"tag:sock9:" + bytes([i & 0xff]) * 8, (dst, UDP_LISTEN))
        u.sendto(b"tag:sock10:" + bytes([i & 0xff]) * 8, (dst, UDP_CLOSED))
    for i in range(n):
        t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        t.setblocking(False)
        try:
            t.connect((dst, TCP_SOCK + i))
        except BlockingIOError:
            pass
        t.close()           # SYN_SENT -> CLOSE: no retransmission, no RST
    ic = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_ICMP)
    for i in range(n):
        ic.sendto(b"\x08\x00\x00\x00\x00\x00" + struct.pack("!H", i) +
                  b"tag:sockping", (dst, 0))
    if iface:
        idx = socket.if_nametoindex(iface)
        v6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        sent, tries = 0, 0
        while sent < 3:     # until IPv6 is up on the link (a few ms)
            try:
                v6.sendto(b"tag:v6", ("ff02::1", 9, 0, idx))
                sent += 1
            except OSError:
                tries += 1
                if tries > 300:
                    raise
                time.sleep(0.01)
        # An ARP request for an address nobody has, broadcast.
        p = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        p.bind((iface, 0))
        mac = p.getsockname()[4]
        arp = struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, 1, mac,
                          socket.inet_aton("198.51.100.2"), b"\0" * 6,
                          socket.inet_aton("198.51.100.77"))
        p.send(b"\xff" * 6 + mac + b"\x08\x06" + arp)


def cmd_flood(dst, n):
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for i in range(int(n)):
        u.sendto(b"tag:sock9:flood", (dst, UDP_LISTEN))


def mac_bytes(m):
    return bytes(int(x, 16) for x in m.split(":"))


def ipv4(src, dst, proto, l4, bad_ip=False, ident=0x1111):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), ident, 0x4000, 64,
                      proto, 0, socket.inet_aton(src), socket.inet_aton(dst))
    c = ~csum(hdr) & 0xffff
    if bad_ip:
        c ^= 0x0100
    return hdr[:10] + struct.pack("!H", c) + hdr[12:] + l4


def l4sum(src, dst, proto, seg):
    ph = socket.inet_aton(src) + socket.inet_aton(dst) + struct.pack("!BBH", 0, proto, len(seg))
    return ~csum(ph + seg) & 0xffff


def cmd_mkpcap(out, smac, dmac, src, dst, n):
    n = int(n)
    frames = []
    eth = mac_bytes(dmac) + mac_bytes(smac) + b"\x08\x00"
    for i in range(n):
        for bad in (False, True):
            tag = b"tag:pcap%s:" % (b"bad" if bad else b"good")
            pay = tag + bytes([i & 0xff]) * 6
            u = struct.pack("!HHHH", 40000 + i, UDP_LISTEN, 8 + len(pay), 0) + pay
            c = l4sum(src, dst, 17, u) or 0xffff
            u = u[:6] + struct.pack("!H", c ^ (0x0010 if bad else 0)) + u[8:]
            frames.append(eth + ipv4(src, dst, 17, u))
            t = struct.pack("!HHIIBBHHH", 41000 + i, (TCP_BAD if bad else TCP_GOOD) + i,
                            1000 + i, 0, 5 << 4, 0x02, 64240, 0, 0)
            c = l4sum(src, dst, 6, t)
            t = t[:16] + struct.pack("!H", c ^ (0x0010 if bad else 0)) + t[18:]
            frames.append(eth + ipv4(src, dst, 6, t))
            ic = struct.pack("!BBHHH", 8, 0, 0, 0x4242, i) + pay
            c = ~csum(ic) & 0xffff
            ic = ic[:2] + struct.pack("!H", c ^ (0x0010 if bad else 0)) + ic[4:]
            frames.append(eth + ipv4(src, dst, 1, ic))
        # A right UDP datagram under a wrong IPv4 header checksum.
        pay = b"tag:badip:" + bytes([i & 0xff]) * 6
        u = struct.pack("!HHHH", 42000 + i, UDP_LISTEN, 8 + len(pay), 0) + pay
        u = u[:6] + struct.pack("!H", l4sum(src, dst, 17, u) or 0xffff) + u[8:]
        frames.append(eth + ipv4(src, dst, 17, u, bad_ip=True))
    with open(out, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1, i, len(fr), len(fr)) + fr)


def read_pcap(path):
    data = open(path, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        end = "<"
    elif magic in (0xd4c3b2a1, 0x4d3cb2a1):
        end = ">"
    else:
        raise SystemExit("%s: not a pcap file" % path)
    link = struct.unpack(end + "I", data[20:24])[0]
    if link != 1:
        raise SystemExit("%s: link type %d, not Ethernet" % (path, link))
    off, out = 24, []
    while off + 16 <= len(data):
        _, _, caplen, wirelen = struct.unpack(end + "IIII", data[off:off + 16])
        out.append((data[off + 16:off + 16 + caplen], wirelen))
        off += 16 + caplen
    return out


def classify(fr):
    """(kind, checksum state) of one of our IPv4 frames, from its tags."""
    ip = fr[14:]
    ihl = (ip[0] & 15) * 4
    proto, l4 = ip[9], ip[ihl:struct.unpack("!H", ip[2:4])[0]]
    src, dst = socket.inet_ntoa(ip[12:16]), socket.inet_ntoa(ip[16:20])
    state = "right"
    if proto in (6, 17):
        f = 16 if proto == 6 else 6
        field = struct.unpack("!H", l4[f:f + 2])[0]
        seg = l4[:f] + b"\0\0" + l4[f + 2:]
        ph = socket.inet_aton(src) + socket.inet_aton(dst) + struct.pack("!BBH", 0, proto, len(l4))
        if field != (l4sum(src, dst, proto, seg) or (0xffff if proto == 17 else 0)):
            state = "partial" if field == csum(ph) else "wrong"
    elif proto == 1:
        state = "right" if csum(l4) == 0xffff else "wrong"
    if proto == 17:
        pay = l4[8:]
        for t in (b"tag:sock9:", b"tag:sock10:", b"tag:pcapgood:", b"tag:pcapbad:", b"tag:badip:"):
            if pay.startswith(t):
                return t[4:-1].decode(), state
    elif proto == 6:
        dport = struct.unpack("!H", l4[2:4])[0]
        for base, name in ((TCP_SOCK, "tcpsock"), (TCP_GOOD, "tcpgood"), (TCP_BAD, "tcpbad")):
            if base <= dport < base + 1000:
                return name, state
    elif proto == 1:
        if b"tag:sockping" in l4:
            return "pingsock", state
        if b"tag:pcapgood:" in l4:
            return "pinggood", state
        if b"tag:pcapbad:" in l4:
            return "pingbad", state
    return None, state


# What Linux counts for each kind (pktpath: --local DST/24 --udp-ports 9).
KINDS = {
    "sock9": ["Ip.InDelivers", "Udp.InDatagrams"],
    "pcapgood": ["Ip.InDelivers", "Udp.InDatagrams"],
    "sock10": ["Ip.InDelivers", "Udp.NoPorts"],
    "pcapbad": ["Ip.InDelivers", "Udp.InErrors", "Udp.InCsumErrors"],
    # a SYN no socket takes: tcp_v4_send_reset answers
    "tcpsock": ["Ip.InDelivers", "Tcp.InSegs", "Tcp.OutSegs", "Tcp.OutRsts"],
    "tcpgood": ["Ip.InDelivers", "Tcp.InSegs", "Tcp.OutSegs", "Tcp.OutRsts"],
    "tcpbad": ["Ip.InDelivers", "Tcp.InSegs", "Tcp.InErrs", "Tcp.InCsumErrors"],
    "pingsock": ["Ip.InDelivers", "Icmp.InMsgs", "Icmp.InEchos", "IcmpMsg.InType8"],
    "pinggood": ["Ip.InDelivers", "Icmp.InMsgs", "Icmp.InEchos", "IcmpMsg.InType8"],
    "pingbad": ["Ip.InDelivers", "Icmp.InMsgs", "Icmp.InErrors", "Icmp.InCsumErrors"],
    "badip": ["Ip.InHdrErrors", "IpExt.InCsumErrors"],
}
# Checksum state each kind must have on the wire (None: right or partial).
WIRE = {"pcapgood": "right", "tcpgood": "right", "pinggood": "right",
        "pcapbad": "wrong", "tcpbad": "wrong", "pingbad": "wrong", "badip": "right"}
TIMING = {"Rx.BusyCycles", "Rx.IdleCycles", "Rx.RxBursts", "Rx.RxEmptyPolls",
          "Rx.LostCycles", "Rx.LostPolls"}
CONSTS = {"Ip.Forwarding": 2, "Ip.DefaultTTL": 64, "Tcp.RtoAlgorithm": 1,
          "Tcp.RtoMin": 200, "Tcp.RtoMax": 120000, "Tcp.MaxConn": -1}


def classify6(fr):
    """An IPv6 frame on the link: the test's datagrams to ff02::1 port 9
    (a group the port has joined, a listener: delivered), or what the
    kernel sends to a group the port has not joined (MLD reports to
    ff02::16, router solicitations to ff02::2), freed by ip6_mc_input."""
    dst = fr[38:54]
    if dst[0] != 0xff:
        return None
    if dst == bytes([0xff, 2] + [0] * 13 + [1]):
        if fr[20] == 17 and fr[56:58] == b"\x00\x09" and fr[62:68] == b"tag:v6":
            return "v6-tagged"
        return None
    return "v6-not-joined"


def cmd_check(jpath, cap, *opts):
    d = json.load(open(jpath))
    frames = read_pcap(cap)
    exp, kinds, states, bad = {}, {}, {}, []

    def add(k, v=1):
        exp[k] = exp.get(k, 0) + v

    for fr, wirelen in frames:
        if len(fr) != wirelen:
            bad.append("capture truncated a frame (%d of %d bytes)" % (len(fr), wirelen))
        add("Rx.RxPackets")
        add("Rx.RxOctets", len(fr))
        if fr[0] & 1:
            add("Rx.RxBroadcast" if fr[:6] == b"\xff" * 6 else "Rx.RxMulticast")
        if fr[12:14] == b"\x86\xdd":
            kind = classify6(fr)
            if kind is None:
                bad.append("an IPv6 frame the test does not model: %s" % fr[:64].hex())
                continue
            kinds[kind] = kinds.get(kind, 0) + 1
            plen = 40 + struct.unpack("!H", fr[18:20])[0]
            add("Ip6.InReceives")
            add("Ip6.InOctets", len(fr) - 14)
            add("Ip6.InNoECTPkts")
            add("Ip6.InMcastPkts")
            add("Ip6.InMcastOctets", plen)
            if kind == "v6-not-joined":
                add("Path.Ip6McastNotJoined")
            else:
                add("Ip6.InDelivers")
                add("Udp6.InDatagrams")
            continue
        if fr[12:14] != b"\x08\x00":
            add("Rx.RxNotIp")
            kinds["not-ipv4"] = kinds.get("not-ipv4", 0) + 1
            continue
        kind, state = classify(fr)
        if kind is None:
            bad.append("an IPv4 frame the test did not send: %s" % fr[:48].hex())
            continue
        kinds[kind] = kinds.get(kind, 0) + 1
        states[state] = states.get(state, 0) + 1
        if WIRE.get(kind) and WIRE[kind] != state:
            bad.append("%s frame with a %s checksum on the wire" % (kind, state))
        if WIRE.get(kind) is None and state == "wrong":
            bad.append("%s frame (from a socket) with a wrong checksum" % kind)
        add("Ip.InReceives")
        add("IpExt.InOctets", len(fr) - 14)
        add("IpExt.InNoECTPkts")
        for k in KINDS[kind]:
            add(k)
    print("capture: %d frames; %s; checksums %s" % (len(frames), json.dumps(kinds, sort_keys=True),
                                                   json.dumps(states, sort_keys=True)))
    if "--partial" in opts and states.get("partial", 0) == 0:
        bad.append("no partial checksum in the capture: the case under test did not happen")
    # The Mode group: every frame in the one ingress mode of the run (no
    # flips here: "off" without a hook); its cycles are timing.
    mode = d.get("ingress", {}).get("mode", "off")
    add("Mode.Mode%sPackets" % mode.capitalize(), exp.get("Rx.RxPackets", 0))
    for g, fields in d["mib"].items():
        for f, v in fields.items():
            k = "%s.%s" % (g, f)
            if k in TIMING or (g == "Mode" and f.endswith("Cycles")):
                continue
            want = CONSTS.get(k, exp.get(k, 0))
            if v != want:
                bad.append("%s = %d, expected %d" % (k, v, want))
    for k in exp:
        g, f = k.split(".")
        if f not in d["mib"].get(g, {}):
            bad.append("%s expected but not reported" % k)
    ports = d.get("ports", [])
    if len(ports) != 1:
        bad.append("%d ports in the JSON" % len(ports))
    else:
        p = ports[0]
        n = exp.get("Rx.RxPackets", 0)
        if p["stats"]["ipackets"] != n or p["rx_packets"] != n:
            bad.append("port ipackets %d, rx_packets %d, capture %d" %
                       (p["stats"]["ipackets"], p["rx_packets"], n))
        if p["dropped"] != 0:
            bad.append("port dropped %d" % p["dropped"])
        if sum(q["q_ipackets"] for q in p["queues"]) != p["stats"]["ipackets"]:
            bad.append("q_ipackets do not add up to ipackets")
        for o in opts:
            if not o.startswith("--queues="):
                continue
            for lq in o.split("=", 1)[1].split(","):
                lc, q = (int(x) for x in lq.split(":"))
                lrx = [l["mib"]["Rx"]["RxPackets"] for l in d["lcores"] if l["lcore"] == lc]
                qi = p["queues"][q]["q_ipackets"]
                if lrx != [qi]:
                    bad.append("lcore %d RxPackets %s, its queue %d q_ipackets %d" % (lc, lrx, q, qi))
                print("lcore %d: queue %d, %d frames" % (lc, q, qi))
    c = d["conservation"]
    if not c["ok"] or c["port_dropped"] != 0 or \
            c["line"] != "ok; port 0: ipackets %d = RxPackets %d" % (exp["Rx.RxPackets"], exp["Rx.RxPackets"]):
        bad.append("conservation: %s" % json.dumps(c))
    for b in bad:
        print("check failed: " + b, file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    cmds = {"sockets": cmd_sockets, "flood": cmd_flood, "mkpcap": cmd_mkpcap, "check": cmd_check}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        raise SystemExit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])
