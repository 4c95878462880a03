#!/usr/bin/env bash
# The pcap-filter and bpf classifier kinds, through the real binary (the
# generated differential test of every engine against libpcap is the unit
# test app/test/test_bpf.c):
#  - differential: for 20 expressions on two pcaps of mixed traffic, and for
#    the reproducers of DPDK 22.11's lib/bpf faults on each engine (jit,
#    interp, libpcap), the packets pktpath's pcap-filter kind matches equal
#    what libpcap's own pcap_offline_filter matches; the engine in use is in
#    the JSON, a fallback in the log; a frame libpcap's protochain code
#    loops forever on ends (unmatched) and the next frame still matches;
#  - the same policy as a rules file, a pcap expression and an eBPF object
#    gives identical Ingress counters on the same traffic;
#  - JIT and interpreter give identical verdicts, packet by packet (the
#    marked packets captured by each are the same frames in the same order);
#  - objects with a hand-encoded jset (fault B) run JIT-compiled and right;
#  - bad filters, objects and sections, objects that write to their context,
#    loop, or are too complex to verify: one clear line, exit 2; SIGTERM and
#    SIGINT during a long load end the process at once.
. "$(dirname "$0")/lib.sh"
: "${PCAPCOUNT:?}"
R=${SOURCE_DIR:?}/config/rules
OBJ=${BUILD_DIR:?}/config

# Mixed traffic: mkpcap's hand-made frames plus 3000 random ones.
"$MKPCAP" "$TMP/mix.pcap" 02:70:63:61:70:00 2 > /dev/null
python3 - "$TMP/rand.pcap" <<'PY'
import random, struct, sys
random.seed(7)
def csum(b):
    if len(b) % 2: b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16: s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
def ip(src, dst, proto, payload, ihl=5, frag=0, tos=0):
    opts = b"\x01" * ((ihl - 5) * 4)
    h = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, tos, ihl * 4 + len(payload), 1, frag, 64, proto, 0, src, dst) + opts
    return h[:10] + struct.pack("!H", csum(h)) + h[12:] + payload
nets = [lambda: bytes([198, 18, 0, random.randint(1, 254)]), lambda: bytes([198, 19, 0, 1]),
        lambda: bytes([10, random.randint(0, 255), random.randint(0, 255), random.randint(1, 254)]),
        lambda: bytes([192, 168, 1, random.randint(1, 254)]), lambda: bytes([224, 0, 0, random.randint(1, 9)]),
        lambda: random.choice([bytes([192, 168, 1, 255]), b"\xff" * 4])]
macs = [bytes([2, 0x70, 0x63, 0x61, 0x70, 0]), b"\xff" * 6, bytes([1, 0, 0x5e, 0, 0, 1]), bytes([2, 9, 9, 9, 9, 9])]
frames = []
for i in range(3000):
    r = random.random()
    eth = random.choice(macs) + bytes([2, 0, 0, 0, 0, 2])
    if r < 0.04:
        frames.append(bytes(random.getrandbits(8) for _ in range(random.randint(0, 80)))); continue
    if r < 0.08:
        frames.append(eth + b"\x08\x06" + bytes(28)); continue
    if r < 0.10:
        frames.append(eth + b"\x86\xdd" + bytes(40)); continue
    proto = random.choice([6, 17, 17, 17, 1, 99])
    sport, dport = random.choice([9, 53, 80, 443, 1234, random.randint(1, 65535)]), random.choice([9, 9, 53, 80, 443, random.randint(1, 65535)])
    if proto == 17:
        pl = struct.pack("!HHHH", sport, dport, 8 + 10, 0) + bytes(10)
    elif proto == 6:
        pl = struct.pack("!HHIIBBHHH", sport, dport, 0, 0, 0x50, 2, 1024, 0, 0)
    elif proto == 1:
        pl = bytes([random.choice([0, 3, 8, 11]), 0, 0, 0]) + bytes(12)
    else:
        pl = bytes(16)
    frag = random.choice([0] * 8 + [0x2000, 0x0010])
    pkt = ip(random.choice(nets)(), random.choice(nets)(), proto, pl, ihl=random.choice([5] * 6 + [6, 8]), frag=frag, tos=random.randint(0, 255))
    l2 = eth + (b"\x81\x00" + struct.pack("!H", random.choice([100, 200])) if random.random() < 0.15 else b"") + b"\x08\x00"
    f = l2 + pkt
    if random.random() < 0.05:
        f = f[:random.randint(14, len(f))]
    frames.append(f + bytes(max(0, 60 - len(f))))
with open(sys.argv[1], "wb") as out:
    out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for f in frames:
        out.write(struct.pack("<IIII", 0, 0, len(f), len(f)) + f)
PY

# pktpath over one pcap file through the pcap PMD (read once).
over() { # over NAME FILE APP-ARGS...
	local name=$1 file=$2; shift 2
	"$PKTPATH" $(eal "$name") --vdev "net_pcap0,rx_pcap=$file" -- --http 127.0.0.1:0 \
		--source port --duration 0.6 --warmup 0.1 --quiet --ingress none \
		--json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 ||
		{ cat "$TMP/$name.out"; fail "$name: exit"; }
}
ing() { # ing NAME FIELD
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["mib"]["Ingress"][sys.argv[2]])' \
		"$TMP/$1.json" "$2"
}

exprs=("udp" "tcp" "icmp" "arp" "not ip" "host 198.19.0.1" "src net 10.0.0.0/8"
	"dst port 9" "udp and dst port 53" "tcp dst port 80 or tcp src port 443"
	"vlan 100" "vlan and udp" "ip[9] == 99" "ether[12:2] = 0x0806" "ether broadcast"
	"ip multicast" "ip[6:2] & 0x3fff != 0" "src host 198.18.0.1 and (udp or icmp)"
	"ip[1] & 0xfc == 0x20" "len > 70")
n=0
for f in mix rand; do
	for e in "${exprs[@]}"; do
		n=$((n + 1))
		want=$("$PCAPCOUNT" "$TMP/$f.pcap" "$e")
		over "d$n" "$TMP/$f.pcap" --ingress-kind pcap-filter --filter "$e" --filter-action pass
		got=$(ing "d$n" IngressMatched)
		[ "$got" = "$want" ] || fail "$f.pcap '$e': pktpath matched $got, pcap_offline_filter $want"
	done
done
echo "differential: ${#exprs[@]} expressions x 2 files agree with pcap_offline_filter"

# DPDK 22.11 lib/bpf's faults (lib/bpf/README.md): each reproducer, on every engine.
# Before pktpath's own conversion and checks these crashed (B, C), matched
# wrongly (A, D) or were refused (E).
faults=("icmp[0] == 8" "udp[8:4] = 0" "tcp[13] & 2 != 0" "ether multicast or greater 2048"
	"(src portrange 4000-44000 or greater 100) and tcp port 67" "ip[8] << ip[1] = 0"
	"ip protochain 17" "geneve or vlan 200" "ip broadcast" "ether[0xfffff000] = 1")
for e in "${faults[@]}"; do
	want=$("$PCAPCOUNT" "$TMP/rand.pcap" "$e")
	for g in jit interp libpcap; do
		n=$((n + 1))
		over "f$n" "$TMP/rand.pcap" --ingress-kind pcap-filter --filter "$e" \
			--filter-action pass --bpf-engine $g
		got=$(ing "f$n" IngressMatched)
		[ "$got" = "$want" ] || fail "'$e' ($g): pktpath matched $got, pcap_offline_filter $want"
		desc=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ingress"]["classifier"])' "$TMP/f$n.json")
		case "$e:$g" in
		"ip protochain"*:libpcap) run=libpcap ;;
		"ip protochain"*:*) run=libpcap
			grep -q "run by libpcap: instruction .* jumps backwards" "$TMP/f$n.out" ||
				{ cat "$TMP/f$n.out"; fail "'$e': no log line for the libpcap fallback"; } ;;
		*) run=$g ;;
		esac
		[ "$desc" = "pcap-filter '$e' $run -> pass" ] || fail "'$e' ($g): classifier '$desc'"
	done
done
# libpcap's protochain walks an AH header with X = (len + 2) * 4 instead of
# X += ...: one with length 3 after a 20-byte IPv4 header points at itself
# and tcpdump -r loops forever on it. pktpath stops there (no match) and
# goes on: the TCP frame after it matches.
python3 - "$TMP/ahloop.pcap" <<'PY'
import struct, sys
def ip(proto, payload):
    return struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 1, 0, 64, proto, 0,
                       bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])) + payload
eth = bytes([2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 8, 0])
frames = [eth + ip(51, bytes([51, 3, 0, 0]) + bytes(12)),
          eth + ip(6, struct.pack("!HHIIBBHHH", 1234, 80, 0, 0, 0x50, 2, 1024, 0, 0))]
with open(sys.argv[1], "wb") as out:
    out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for f in frames:
        out.write(struct.pack("<IIII", 0, 0, len(f), len(f)) + f)
PY
over ahloop "$TMP/ahloop.pcap" --ingress-kind pcap-filter --filter "ip protochain 6" --filter-action pass
[ "$(ing ahloop IngressMatched)" = 1 ] && [ "$(ing ahloop IngressPackets)" = 2 ] ||
	fail "protochain over a looping AH header: matched $(ing ahloop IngressMatched) of $(ing ahloop IngressPackets)"
m=$("$PCAPCOUNT" "$TMP/rand.pcap" "ip broadcast" 255.255.255.0)
over nm "$TMP/rand.pcap" --ingress-kind pcap-filter --filter "ip broadcast" \
	--filter-action pass --filter-netmask 255.255.255.0
[ "$(ing nm IngressMatched)" = "$m" ] || fail "--filter-netmask: $(ing nm IngressMatched), libpcap $m"
[ "$m" -gt "$("$PCAPCOUNT" "$TMP/rand.pcap" "ip broadcast")" ] || fail "no directed broadcast in rand.pcap"
echo "faults: ${#faults[@]} reproducers x 3 engines agree with pcap_offline_filter"

# One policy, three kinds: drop UDP to port 9 (untagged or one tag), no
# ports for fragments (tc flower's rule, which the rules kind follows).
over p_rules "$TMP/rand.pcap" --rules "$R/drop-udp-9.rules"
over p_pcap "$TMP/rand.pcap" --ingress-kind pcap-filter \
	--filter "(udp dst port 9 and ip[6:2] & 0x3fff == 0) or (vlan and udp dst port 9 and ip[6:2] & 0x3fff == 0)" \
	--filter-action drop
over p_bpf "$TMP/rand.pcap" --ingress-kind bpf --bpf-obj "$OBJ/drop_udp_port.o"
for k in IngressPackets IngressDropped IngressPassed; do
	a=$(ing p_rules $k); b=$(ing p_pcap $k); c=$(ing p_bpf $k)
	[ "$a" = "$b" ] && [ "$b" = "$c" ] || fail "$k: rules $a, pcap-filter $b, bpf $c"
done
[ "$(ing p_rules IngressDropped)" -gt 0 ] || fail "the policy dropped nothing"
echo "policy: rules, pcap-filter and bpf agree ($(ing p_rules IngressDropped) dropped)"

# JIT vs interpreter, verdict by verdict: the marked frames, captured in
# order by the single worker, are identical.
for e in "udp and dst port 9" "ip[6:2] & 0x3fff != 0 or tcp" "vlan 200"; do
	for j in on off; do
		over "j_$j" "$TMP/rand.pcap" --ingress-kind pcap-filter --filter "$e" \
			--filter-action "mark 7" --bpf-jit $j --capture "$TMP/j_$j.pcap" --capture-what marked
	done
	cmp -s <(tail -c +25 "$TMP/j_on.pcap" | python3 -c 'import sys
b = sys.stdin.buffer.read(); o = 0
while o < len(b):
    l = int.from_bytes(b[o + 8:o + 12], "little"); sys.stdout.buffer.write(b[o + 16:o + 16 + l]); o += 16 + l') \
		<(tail -c +25 "$TMP/j_off.pcap" | python3 -c 'import sys
b = sys.stdin.buffer.read(); o = 0
while o < len(b):
    l = int.from_bytes(b[o + 8:o + 12], "little"); sys.stdout.buffer.write(b[o + 16:o + 16 + l]); o += 16 + l') ||
		fail "'$e': JIT and interpreter marked different frames"
	[ "$(ing j_on IngressMarked)" = "$(ing j_off IngressMarked)" ] || fail "'$e': marked counts differ"
	grep -q "interp" <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ingress"]["classifier"])' "$TMP/j_off.json") ||
		fail "--bpf-jit off did not interpret"
done
for o in mark_dscp count_src_prefix; do
	for j in on off; do over "b_${o}_$j" "$TMP/rand.pcap" --ingress-kind bpf --bpf-obj "$OBJ/$o.o" --bpf-jit $j; done
	for k in IngressMatched IngressMarked IngressDropped; do
		[ "$(ing b_${o}_on $k)" = "$(ing b_${o}_off $k)" ] || fail "$o: $k differs between JIT and interpreter"
	done
done
# A hand-encoded "jset r2, 1" (fault B: crashes DPDK's JIT as it is) drops
# exactly the group-addressed frames, JIT-compiled after pktpath's rewrite.
want=$("$PCAPCOUNT" "$TMP/rand.pcap" "ether multicast and len >= 14")
for j in on off; do
	over "js_$j" "$TMP/rand.pcap" --ingress-kind bpf --bpf-obj "$OBJ/jset_small.o" --bpf-jit $j
	[ "$(ing js_$j IngressDropped)" = "$want" ] || fail "jset_small ($j): $(ing js_$j IngressDropped), libpcap $want"
done
grep -q "jset_small.o:classifier jit" <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ingress"]["classifier"])' "$TMP/js_on.json") ||
	fail "jset_small is not JIT-compiled"
echo "jit: identical verdicts"

# SIGHUP replaces a running filter and a running eBPF object through the
# writer protocol (rcu here, lock in the second run).
for kind in "pcap-filter --filter udp" "bpf --bpf-obj $OBJ/mark_dscp.o"; do
	"$PKTPATH" $(eal hup) -- --http 127.0.0.1:0 --duration 0 --quiet \
		--ingress rcu --ingress-kind $kind --json "$TMP/hup.json" > "$TMP/hup.out" 2>&1 &
	pid=$!
	sleep 1.5
	kill -HUP $pid; sleep 0.5; kill -HUP $pid; sleep 0.5
	kill -INT $pid
	wait $pid || { cat "$TMP/hup.out"; fail "SIGHUP run ($kind)"; }
	[ "$(grep -c 'SIGHUP: .* reloaded' "$TMP/hup.out")" = 2 ] || { cat "$TMP/hup.out"; fail "no reload ($kind)"; }
	jcheck "$TMP/hup.json" 'f("Ingress.RuleUpdates") == 2' 'd["conservation"]["ok"]'
done

# Bad input: one line, exit 2.
bad() { # bad TEXT APP-ARGS...
	local want=$1; shift
	n=$((n + 1))
	set +e
	"$PKTPATH" $(eal "bad$n") -- --http 127.0.0.1:0 "$@" > /dev/null 2> "$TMP/e.txt"
	local rc=$?
	set -e
	[ $rc = 2 ] && grep -qF -- "$want" "$TMP/e.txt" &&
		[ "$(grep -vc '^EAL:\|^TELEMETRY:' "$TMP/e.txt")" = 1 ] || { cat "$TMP/e.txt"; fail "'$*': exit $rc"; }
}
bad "--filter 'udp and dst prot 9': " --ingress-kind pcap-filter --filter "udp and dst prot 9"
bad "needs --filter EXPR" --ingress-kind pcap-filter
bad "No such file or directory" --ingress-kind bpf --bpf-obj "$TMP/nope.o"
bad "cannot open as an eBPF ELF object" --ingress-kind bpf --bpf-obj "$R/match-all.rules"
bad "no program in section 'nope' (sections: classifier)" --ingress-kind bpf --bpf-obj "$OBJ/drop_udp_port.o" --bpf-sec nope
bad "calls kernel helper #7: rte_bpf provides no kernel helpers" --ingress-kind bpf --bpf-obj "$OBJ/uses_helper.o"
bad "'mark x' is not drop, pass or 'mark N'" --ingress-kind pcap-filter --filter udp --filter-action "mark x"
bad "--bpf-engine: 'jot' is not one of jit|interp|libpcap" --ingress-kind pcap-filter --filter udp --bpf-engine jot
bad "--filter-netmask: '255.255.0' is not an IPv4 netmask A.B.C.D" --ingress-kind pcap-filter --filter udp --filter-netmask 255.255.0
bad "the libpcap engine runs tcpdump expressions only (pcap-filter)" --ingress-kind bpf --bpf-obj "$OBJ/mark_dscp.o" --bpf-engine libpcap
bad "section 'classifier': instruction 5 stores 1 byte through r1 (at r1+8), which is not a stack pointer: a classifier must not write to its context (the frame)" \
	--ingress-kind bpf --bpf-obj "$OBJ/writes_ctx.o"
bad "which closes a loop: loops are refused (rte_bpf runs loop-free programs)" --ingress-kind bpf --bpf-obj "$OBJ/loops.o"
bad "section 'classifier': rte_bpf_load did not finish within 1.0 s: its verifier walks every path" \
	--ingress-kind bpf --bpf-obj "$OBJ/branchy.o" --bpf-load-timeout 1

# SIGTERM / SIGINT during a load that would take hours: the process ends at
# once with the signal's status and one line.
for sig in TERM INT; do
	"$PKTPATH" $(eal "load$sig") -- --http 127.0.0.1:0 --ingress-kind bpf \
		--bpf-obj "$OBJ/branchy.o" --bpf-load-timeout 3600 > "$TMP/l.out" 2>&1 &
	pid=$!
	sleep 2
	kill -$sig $pid
	for i in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.2; done
	if kill -0 $pid 2>/dev/null; then kill -KILL $pid; fail "SIG$sig did not end the load"; fi
	set +e
	wait $pid
	rc=$?
	set -e
	want=$([ $sig = TERM ] && echo 143 || echo 130)
	[ $rc = "$want" ] && grep -q "section 'classifier': loading interrupted by a signal" "$TMP/l.out" ||
		{ cat "$TMP/l.out"; fail "SIG$sig during the load: exit $rc"; }
done
echo "bpf: ok"
