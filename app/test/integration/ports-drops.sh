#!/usr/bin/env bash
# Frames the port drops before pktpath sees them: pktpath stopped (SIGSTOP)
# while Linux sockets send, on net_af_packet (the packet socket's ring fills:
# tp_drops) and on net_tap (tun's queue to the fd fills: tx_dropped). The
# console, the summary, the JSON, /metrics and the telemetry command must
# all show them, the conservation line must name them, and frames offered =
# delivered + dropped must hold against tcpdump's capture of the interface.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ports_lib.sh"
FLOOD=3000

telemetry() { # telemetry PREFIX COMMAND: the reply's JSON
	python3 - "$1" "$2" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect("/var/run/dpdk/%s/dpdk_telemetry.v2" % sys.argv[1])
s.recv(16384)
s.send(sys.argv[2].encode())
print(json.dumps(json.loads(s.recv(65536).decode())[sys.argv[2].split(",")[0]]))
PY
}

check_drops() { # check_drops NAME CAPTURE METRICS TELEMETRY
	local name=$1
	python3 - "$TMP/$name.json" "$2" "$3" "$4" "$TMP/$name.out" <<'PY' || fail "$name: drops"
import json, re, struct, sys
d = json.load(open(sys.argv[1]))
cap = open(sys.argv[2], "rb").read()
n, off = 0, 24
while off + 16 <= len(cap):
    n += 1
    off += 16 + struct.unpack("<I", cap[off + 8:off + 12])[0]
metrics, tel, out = open(sys.argv[3]).read(), json.loads(open(sys.argv[4]).read()), open(sys.argv[5]).read()
p = d["ports"][0]
st, rx = p["stats"], d["mib"]["Rx"]["RxPackets"]
kd, bad = st["kernel_drops"], []
if kd <= 0:
    bad.append("no kernel drops: the worker was not stopped long enough?")
if st["kernel_packets"] != n:
    bad.append("kernel_packets %d, tcpdump saw %d" % (st["kernel_packets"], n))
if st["ipackets"] + kd != n:
    bad.append("ipackets %d + kernel_drops %d != offered %d" % (st["ipackets"], kd, n))
if st["ipackets"] != rx or p["dropped"] != kd:
    bad.append("ipackets %d, RxPackets %d, dropped %d" % (st["ipackets"], rx, p["dropped"]))
line = "ok; port 0: ipackets %d = RxPackets %d; dropped before pktpath: %d (port 0 kernel_drops %d)" % (rx, rx, kd, kd)
c = d["conservation"]
if not c["ok"] or c["line"] != line or c["port_dropped"] != kd:
    bad.append("JSON conservation %s, expected line %r" % (json.dumps(c), line))
if ("conservation: " + line + "\n") not in out:
    bad.append("summary lacks: conservation: " + line)
if re.search(r"^  port drops: 0:kernel_drops=\d+$", out, re.M) is None:
    bad.append("no console 'port drops' line")
if "dropped before pktpath %d:" % kd not in out:
    bad.append("summary port line lacks the drops")
for fam in ("kernel_drops", "dropped"):
    m = re.search(r'^pktpath_port_%s_total\{port="0"\} (\d+)$' % fam, metrics, re.M)
    if m is None or int(m.group(1)) != kd:
        bad.append("/metrics pktpath_port_%s_total: %s, expected %d" % (fam, m and m.group(1), kd))
if tel.get("kernel_drops") != kd or tel.get("dropped") != kd or tel.get("ipackets") != rx:
    bad.append("telemetry /pktpath/ports,0: %s" % json.dumps(tel))
print("offered %d, delivered %d, dropped by the kernel %d" % (n, rx, kd))
for b in bad:
    print("check failed: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# --- net_af_packet ---
veth_pair
inB sysctl -qw "net.ipv6.conf.$IF_B.disable_ipv6=1"
start_bg "$NS_A" "$TMP/afp.out" "$PKTPATH" $(pp_eal afp) --vdev "net_af_packet0,iface=$IF_A" -- \
	--source port --local "$ADDR_A/24" --udp-ports 9 --duration 0 --interval 0.3 \
	--http 127.0.0.1:9120 --json "$TMP/afp.json"
pp=$BGPID
wait_for "$TMP/afp.out" "http: listening"
peer_neigh "$(port_mac "$TMP/afp.out")"
start_bg "$NS_A" "$TMP/afp.tcpdump" tcpdump -i "$IF_A" -n -U -w "$TMP/afp.pcap"
td=$BGPID
wait_for "$TMP/afp.tcpdump" "listening on"
inB ip link set "$IF_B" up
kill -STOP "$pp"
inB python3 "$PORTS_PY" flood "$ADDR_A" "$FLOOD"
inB ip link set "$IF_B" down
kill -CONT "$pp"
rx_settle "$NS_A" 9120
sleep 0.5	# one more interval: the console line
inA curl -s http://127.0.0.1:9120/metrics > "$TMP/afp.metrics"
telemetry "ports${TOK}_afp" /pktpath/ports,0 > "$TMP/afp.tel"
stop_pid "$pp" INT
[ "$RC" = 0 ] || { cat "$TMP/afp.out"; fail "afp: exit $RC"; }
stop_pid "$td" INT
grep -q "^0 packets dropped by kernel" "$TMP/afp.tcpdump" || fail "afp: tcpdump lost frames"
check_drops afp "$TMP/afp.pcap" "$TMP/afp.metrics" "$TMP/afp.tel"
ip netns del "$NS_A"
ip netns del "$NS_B"

# --- net_tap ---
ip netns add "$NS_A"
inA ip link set lo up
inA sysctl -qw net.ipv6.conf.default.disable_ipv6=1
start_bg "$NS_A" "$TMP/tap.out" "$PKTPATH" $(pp_eal tap) --vdev "net_tap0,iface=$IF_A" -- \
	--source port --local "$ADDR_A/24" --udp-ports 9 --duration 0 --interval 0.3 \
	--http 127.0.0.1:9120 --json "$TMP/tap.json"
pp=$BGPID
wait_for "$TMP/tap.out" "http: listening"
inA ip addr add "$ADDR_B/24" dev "$IF_A"
inA ip neigh replace "$ADDR_A" lladdr "$(port_mac "$TMP/tap.out")" dev "$IF_A" nud permanent
start_bg "$NS_A" "$TMP/tap.tcpdump" tcpdump -i "$IF_A" -n -U -w "$TMP/tap.pcap"
td=$BGPID
wait_for "$TMP/tap.tcpdump" "listening on"
kill -STOP "$pp"
inA python3 "$PORTS_PY" flood "$ADDR_A" "$FLOOD"
inA ip link set "$IF_A" down
kill -CONT "$pp"
rx_settle "$NS_A" 9120
sleep 0.5
inA curl -s http://127.0.0.1:9120/metrics > "$TMP/tap.metrics"
telemetry "ports${TOK}_tap" /pktpath/ports,0 > "$TMP/tap.tel"
stop_pid "$pp" INT
[ "$RC" = 0 ] || { cat "$TMP/tap.out"; fail "tap: exit $RC"; }
stop_pid "$td" INT
grep -q "^0 packets dropped by kernel" "$TMP/tap.tcpdump" || fail "tap: tcpdump lost frames"
check_drops tap "$TMP/tap.pcap" "$TMP/tap.metrics" "$TMP/tap.tel"
echo "ports-drops: ok"
