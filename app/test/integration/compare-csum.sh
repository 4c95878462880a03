#!/usr/bin/env bash
# --compare rx-csum=V1,V2 (issue 23): a port's knob. Refused with one line
# and exit 2 where it has no effect (the generator) or cannot be had (hw on
# a port without the offload); on net_tap, which offloads, the phases
# switch whether the path trusts the port's checksum flags (the workers
# paused at each switch, the port configured once with its offload on)
# while the kernel sends through the tap, and every frame is counted once
# (conservation, port ipackets = RxPackets). The sender starts once the tap
# exists, so the first phase may see no frame: frames are asked of the
# run, not of each phase. Counts only: no figure against a threshold.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ports_lib.sh"

refused() { # refused NAME LINE PKTPATH_ARGS...: exit 2 and LINE on stderr
	local name=$1 line=$2 rc=0; shift 2
	"$PKTPATH" "$@" > "$TMP/$name.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$TMP/$name.out"; fail "$name: exit $rc, not 2"; }
	grep -qxF -- "$line" "$TMP/$name.out" || { cat "$TMP/$name.out"; fail "$name: not said"; }
}
refused nullhw "pktpath: --compare rx-csum=...,hw: port 0 (net_null) does not offload RX checksums (it lacks IPV4_CKSUM, UDP_CKSUM, TCP_CKSUM); compare sw or auto" \
	$(eal nullhw) --vdev net_null0 -- --source port --compare rx-csum=hw,sw \
	--duration 0.1 --http off
refused gen "pktpath: --compare rx-csum=...: the knob has no effect (it needs --source port and --path full)" \
	$(eal gen) -- --compare rx-csum=auto,sw --duration 0.1 --http off
refused rxonly "pktpath: --compare rx-csum=...: the knob has no effect (it needs --source port and --path full)" \
	$(eal rxonly) --vdev net_null0 -- --source port --path rx-only \
	--compare rx-csum=auto,sw --duration 0.1 --http off

# net_tap in a namespace of our own; the kernel sends UDP to pktpath's
# address through it during every phase
ip netns add "$NS_A"
inA ip link set lo up
inA sysctl -qw net.ipv6.conf.default.disable_ipv6=1
start_bg "$NS_A" "$TMP/tap.out" "$PKTPATH" $(pp_eal tap) --vdev "net_tap0,iface=$IF_A" -- \
	--source port --local "$ADDR_A/24" --udp-ports 9 --http 127.0.0.1:0 \
	--compare rx-csum=hw,sw --rounds 2 --duration 0.3 --phase-warmup 0.2 \
	--interval 0.1 --quiet --json "$TMP/tap.json"
pp=$BGPID
wait_for "$TMP/tap.out" "http: listening"
mac=$(port_mac "$TMP/tap.out")
[ -n "$mac" ] || { cat "$TMP/tap.out"; fail "tap: no port MAC in the log"; }
inA ip addr add "$ADDR_B/24" dev "$IF_A"
inA ip neigh replace "$ADDR_A" lladdr "$mac" dev "$IF_A" nud permanent
start_bg "$NS_A" "$TMP/send.out" python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
end = time.monotonic() + 120
while time.monotonic() < end:
    try:
        s.sendto(b"x" * 64, (sys.argv[1], 9))
    except OSError:
        time.sleep(0.001)
' "$ADDR_A"
sender=$BGPID
rc=0
wait "$pp" || rc=$?
kill "$sender" 2> /dev/null || true
[ "$rc" = 0 ] || { cat "$TMP/tap.out"; fail "tap: pktpath exit $rc"; }
grep -q "checksums hw (offload on)" "$TMP/tap.out" ||
	{ cat "$TMP/tap.out"; fail "tap: the offload is not on for the hw variant"; }
jcheck "$TMP/tap.json" 'd["conservation"]["ok"]' \
	'd["compare"]["knobs"] == {"rx-csum": ["hw", "sw"]}' \
	'[m["mode"] for m in d["compare"]["modes"]] == ["hw", "sw"]' \
	'all(len(m["rounds_ns"]) == 2 for m in d["compare"]["modes"])' \
	'f("Rx.RxPackets") > 0 and d["compare"]["switch_s_max"] > 0' \
	'len(d["compare"]["pairs"]) == 1 and d["compare"]["pairs"][0]["ns"]["n"] == 2' ||
	{ cat "$TMP/tap.out"; fail "tap: JSON"; }
grep -q "conservation: ok; port 0: ipackets [0-9]* = RxPackets" "$TMP/tap.out" ||
	{ cat "$TMP/tap.out"; fail "tap: port conservation"; }
ip netns del "$NS_A"
echo "compare-csum: ok"
