#!/usr/bin/env bash
# The pcap-filter kind over IPv6 through the real binary, against tcpdump:
#  - differential: IPv6 expressions (ip6, hosts, nets, proto, udp/tcp/icmp6
#    over IPv6, port on both families, ip6[...] offsets, ip or ip6,
#    multicast, protochain, VLAN-tagged IPv6) on a generated pcap of IPv6
#    and IPv4 frames (extension header chains, first/later/atomic fragments,
#    multicast and link-local addresses, odd and cut lengths, tags, jumbos),
#    read by the pcap PMD; the frames pktpath's pcap-filter kind matches
#    equal those "tcpdump -r FILE -w OUT EXPR" writes, on every engine;
#  - the generator's IPv6 and mixed frames (its own mbufs, tagged and
#    with extension headers) matched exactly as many times as sent;
#  - the eBPF object reading IPv6 headers (config/bpf/drop_ip6_net.c)
#    drops what its tcpdump expression matches, JIT and interpreter.
. "$(dirname "$0")/lib.sh"
: "${PCAPCOUNT:?}"
command -v tcpdump > /dev/null || fail "no tcpdump: run scripts/setup.sh"
OBJ=${BUILD_DIR:?}/config

python3 - "$TMP/six.pcap" <<'PY'
import random, struct, sys
random.seed(25)
def a6(s):
    import ipaddress
    return ipaddress.IPv6Address(s).packed
srcs = [a6(x) for x in ("2001:db8::1", "2001:db8:1::5", "fe80::1", "2001:2::7", "::1", "::")]
dsts = [a6(x) for x in ("2001:db8::1", "2001:db8:2::9", "ff02::1", "ff05::1:3", "ff02::1:ff00:1",
                        "2001:2:0:1::1", "fe80::2")]
def l4(proto):
    sp, dp = random.choice([9, 53, 80, 443, 546, 1024, random.randint(0, 65535)]), \
             random.choice([9, 9, 53, 80, 547, random.randint(0, 65535)])
    if proto == 17:
        return struct.pack("!HHHH", sp, dp, 8 + 12, 0) + bytes(12)
    if proto == 6:
        return struct.pack("!HHIIBBHHH", sp, dp, 1, 0, 0x50, random.choice([2, 0x12, 0x10, 4]), 1024, 0, 0)
    if proto == 58:
        return bytes([random.choice([128, 129, 135, 136, 1, 3, 143]), 0, 0, 0]) + bytes(20)
    return bytes(random.randint(0, 24))
def ext(kind, nxt):
    if kind == 44:   # fragment: first, later, atomic
        off = random.choice([0, 0, 1, 0x100 | random.randint(0, 1), 0x5a8])
        return bytes([nxt, 0]) + struct.pack("!HI", off, random.getrandbits(32))
    if kind == 51:   # AH: length in 4-byte words - 2
        return bytes([nxt, 4]) + bytes(22)
    n = random.randint(0, 2)
    return bytes([nxt, n]) + bytes(6 + 8 * n)
def ip6(proto=None):
    kinds = [random.choice([0, 43, 44, 60, 60, 51]) for _ in range(random.choice([0, 0, 0, 1, 1, 2, 3, 9]))]
    up = proto if proto is not None else random.choice([17, 17, 6, 58, 132, 59, random.randint(0, 255)])
    chain = kinds + [up]
    body = l4(up)
    for i in range(len(kinds) - 1, -1, -1):
        body = ext(kinds[i], chain[i + 1]) + body
    h = struct.pack("!IHBB", 0x60000000 | random.getrandbits(20), len(body), chain[0],
                    random.choice([64, 255, 1])) + random.choice(srcs) + random.choice(dsts)
    return h + body
def ip4():
    proto = random.choice([17, 6, 1])
    pl = l4(proto) if proto != 1 else bytes([8, 0, 0, 0]) + bytes(12)
    return struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(pl), 1, 0, 64, proto, 0,
                       bytes([198, 18, 0, 1]), bytes([random.choice([198, 224]), 19, 0, 1])) + pl
frames = []
for i in range(3000):
    dst_mac = random.choice([bytes([0x33, 0x33, 0, 0, 0, 1]), bytes([2, 0x70, 0x63, 0x61, 0x70, 0]),
                             b"\xff" * 6])
    eth = dst_mac + bytes([2, 0, 0, 0, 0, 2])
    r = random.random()
    tag = b""
    if random.random() < 0.15:
        tag = b"\x81\x00" + struct.pack("!H", random.choice([100, 200, 7]))
    if r < 0.2:
        f = eth + tag + b"\x08\x00" + ip4()
    elif r < 0.23:
        f = eth + tag + b"\x86\xdd" + bytes(random.randint(0, 60))  # junk after 86dd
    else:
        f = eth + tag + b"\x86\xdd" + ip6()
    if random.random() < 0.06:
        f = f[:random.randint(14, len(f))]                  # cut anywhere
    elif random.random() < 0.05:
        f = f + bytes(random.choice([1, 3, 7, 1000, 8000])) # odd lengths, jumbos
    frames.append(f + bytes(max(0, 60 - len(f))))
with open(sys.argv[1], "wb") as out:
    out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for f in frames:
        out.write(struct.pack("<IIII", 0, 0, len(f), len(f)) + f)
PY

over() { # over NAME FILE APP-ARGS...: pktpath over one pcap file (read once)
	local name=$1 file=$2; shift 2
	"$PKTPATH" $(eal "$name") --vdev "net_pcap0,rx_pcap=$file" -- --http off \
		--source port --duration 0.6 --warmup 0.1 --quiet --ingress none \
		--json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 ||
		{ cat "$TMP/$name.out"; fail "$name: exit"; }
}
ing() { # ing NAME FIELD
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["mib"]["Ingress"][sys.argv[2]])' \
		"$TMP/$1.json" "$2"
}
tdcount() { # tdcount FILE EXPR: the frames tcpdump's filter keeps
	tcpdump -r "$1" -w "$TMP/td.pcap" "$2" 2> "$TMP/td.err" || { cat "$TMP/td.err"; fail "tcpdump '$2'"; }
	"$PCAPCOUNT" "$TMP/td.pcap" ""
}

exprs=("ip6" "not ip6" "ip6 src host 2001:db8::1" "ip6 dst host ff02::1" "ip6 net 2001:db8::/32"
	"src net fe80::/10" "dst net ff00::/8" "ip6 multicast" "ip6 proto 17" "ip6 proto 44"
	"udp" "tcp" "icmp6" "udp port 53" "port 9" "dst port 9 and ip6" "tcp dst port 80 or udp src port 546"
	"ip6[6] == 44" "ip6[40] == 17" "ip6[0] & 0xf0 != 0x60" "ip6[4:2] > 20" "ip or ip6" "ip and not ip6"
	"vlan and ip6" "vlan 100 and udp" "vlan and ip6 dst host ff02::1" "ip6 protochain 17"
	"icmp6[icmp6type] == icmp6-echo" "icmp6[0] == 135" "tcp[tcpflags] & tcp-syn != 0"
	"ip6 and len > 200" "ether multicast and ip6" "host 2001:db8::1 or host 198.18.0.1")
n=0
for e in "${exprs[@]}"; do
	want=$(tdcount "$TMP/six.pcap" "$e")
	[ "$want" = "$("$PCAPCOUNT" "$TMP/six.pcap" "$e")" ] || fail "'$e': tcpdump and pcap_offline_filter differ"
	for g in jit interp; do
		n=$((n + 1))
		over "d$n" "$TMP/six.pcap" --ingress-kind pcap-filter --filter "$e" --filter-action pass \
			--bpf-engine $g
		got=$(ing "d$n" IngressMatched)
		[ "$got" = "$want" ] || fail "six.pcap '$e' ($g): pktpath matched $got, tcpdump $want"
	done
done
[ "$(tdcount "$TMP/six.pcap" "ip6 proto 44")" -gt 0 ] && [ "$(tdcount "$TMP/six.pcap" "ip6 multicast")" -gt 0 ] &&
	[ "$(tdcount "$TMP/six.pcap" "vlan and ip6")" -gt 0 ] || fail "six.pcap lacks fragments, multicast or tags"
echo "differential: ${#exprs[@]} IPv6 expressions x 2 engines agree with tcpdump"

# The generator's own mbufs: IPv6 and mixed, tagged, behind extension
# headers; each family exactly half of a mixed run.
gen() { # gen NAME EXPR WANT GEN-ARGS...: WANT is a python expression of rx
	local name=$1 e=$2 want=$3; shift 3
	"$PKTPATH" $(eal "$name") -- --http off --duration 1 --warmup 0.3 --quiet --ingress rcu \
		--ingress-kind pcap-filter --filter "$e" --filter-action pass \
		--json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 || { cat "$TMP/$name.out"; fail "$name: exit"; }
	jcheck "$TMP/$name.json" 'f("Rx.RxPackets") > 0' "f(\"Ingress.IngressMatched\") == $want" ||
		fail "generator: '$e' ($*)"
}
gen g1 "ip6 and udp dst port 9" 'f("Rx.RxPackets") // 2' --family mixed
gen g2 "ip" 'f("Rx.RxPackets") // 2' --family mixed
gen g3 "ip6 dst host 2001:2:0:1::1 and ip6 src net 2001:2::/64" 'f("Rx.RxPackets")' --family ipv6
gen g4 "vlan 7 and ip6 and ip6[6] == 0" 'f("Rx.RxPackets")' --family ipv6 --ext6 hop,dst --vlan-tags 7 --vlan 7
gen g5 "udp" '0' --family ipv6 --ext6 hop        # libpcap's udp looks past no hop-by-hop header
gen g6 "ip6 protochain 17" 'f("Rx.RxPackets")' --family ipv6 --ext6 hop,dst,frag
gen g7 "icmp6 and ip6[40] == 128" 'f("Rx.RxPackets")' --family ipv6 --l4 icmp
echo "generator: IPv6 frames matched as sent"

# An eBPF object reading the IPv6 header: drops UDP from 2001:db8::/32
# (after none or one hop-by-hop, fragment or destination-options header),
# as its expression says (config/bpf/drop_ip6_net.c).
E="ip6[8:4] == 0x20010db8 and (ip6[6] == 17 or ((ip6[6] == 0 or ip6[6] == 44 or ip6[6] == 60) and ip6[40] == 17))"
e="($E) or (vlan and $E)"
want=$("$PCAPCOUNT" "$TMP/six.pcap" "$e")
[ "$want" -gt 0 ] || fail "six.pcap has no frame for drop_ip6_net"
for j in on off; do
	over "o_$j" "$TMP/six.pcap" --ingress-kind bpf --bpf-obj "$OBJ/drop_ip6_net.o" --bpf-jit $j
	[ "$(ing o_$j IngressDropped)" = "$want" ] ||
		fail "drop_ip6_net ($j): dropped $(ing o_$j IngressDropped), libpcap $want"
done
echo "bpf6: ok"
