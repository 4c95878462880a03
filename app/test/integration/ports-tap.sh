#!/usr/bin/env bash
# net_tap, one and two queues: pktpath and the kernel that sends to it in
# one network namespace made here. Linux sockets there send through the tap
# interface (UDP to a listener and a closed port, TCP SYN, ICMP echo, IPv6,
# ARP; the kernel completes the checksums before tun), tcpreplay replays
# right and wrong checksums, and the kernel sends its own IPv6 solicitations.
# Every MIB field must equal what tcpdump's capture of the interface
# implies; with two queues each worker's RxPackets is its queue's
# q_ipackets. Then jumbo frames: the interface's MTU raised to 9000 while
# pktpath runs, frames of 4 KB arrive scattered over 2 KB mbufs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ports_lib.sh"
N=20

tap_ns() {
	ip netns add "$NS_A"
	inA ip link set lo up
	# The tap interface is born with IPv6 off: it says nothing before the
	# capture starts.
	inA sysctl -qw net.ipv6.conf.default.disable_ipv6=1
	inA sysctl -qw net.ipv6.conf.default.accept_dad=0
	inA sysctl -qw net.ipv4.ping_group_range="0 2147483647"
}

run_case() { # run_case NAME PKTPATH_ARGS...
	local name=$1; shift
	local out="$TMP/$name.out" cap="$TMP/$name.pcap"
	tap_ns
	pp_start "$name" "net_tap0,iface=$IF_A" "$@"
	local pp=$PP mac=$MAC
	inA ip addr add "$ADDR_B/24" dev "$IF_A"
	inA ip neigh replace "$ADDR_A" lladdr "$mac" dev "$IF_A" nud permanent
	start_bg "$NS_A" "$TMP/$name.tcpdump" tcpdump -i "$IF_A" -n -U -w "$cap"
	local td=$BGPID
	wait_for "$TMP/$name.tcpdump" "listening on"
	inA sysctl -qw "net.ipv6.conf.$IF_A.disable_ipv6=0"
	send_stop "$name" "$NS_A" "$IF_A" "$mac" "$pp" "$td"
	python3 "$PORTS_PY" check "$TMP/$name.json" "$cap" ${QUEUES:+--queues=$QUEUES} ||
		{ cat "$out"; fail "$name: counters"; }
	ip netns del "$NS_A"
	echo "$name: ok"
}

QUEUES="" run_case tap1
grep -q "1 RX queue, 1 TX queue" "$TMP/tap1.out" || { cat "$TMP/tap1.out"; fail "tap1: queues"; }
grep -q "checksums hw (offload on)" "$TMP/tap1.out" || fail "tap1: --rx-csum auto did not use the offload"
# net_tap needs as many TX queues as RX queues.
QUEUES="0:0,1:1" run_case tap2 --main-worker --rxq 0:0.0,1:0.1
grep -q "2 RX queues, 2 TX queues" "$TMP/tap2.out" || { cat "$TMP/tap2.out"; fail "tap2: queues"; }
# The same traffic verified in software.
QUEUES="" run_case tap1sw --rx-csum sw
grep -q "checksums sw," "$TMP/tap1sw.out" || fail "tap1sw: --rx-csum sw"

# Jumbo: MTU 9000 on the interface while pktpath runs; 4000-byte datagrams
# arrive in one frame each, scattered over 2 KB mbufs.
tap_ns
start_bg "$NS_A" "$TMP/jumbo.out" "$PKTPATH" $(pp_eal jumbo) --vdev "net_tap0,iface=$IF_A" -- \
	--source port --local "$ADDR_A/24" --udp-ports 9 --duration 0 --http 127.0.0.1:9120 \
	--quiet --json "$TMP/jumbo.json"
pp=$BGPID
wait_for "$TMP/jumbo.out" "http: listening"
grep -q "scattered RX" "$TMP/jumbo.out" || { cat "$TMP/jumbo.out"; fail "jumbo: no scattered RX"; }
mac=$(port_mac "$TMP/jumbo.out")
inA ip link set "$IF_A" mtu 9000
inA ip addr add "$ADDR_B/24" dev "$IF_A"
inA ip neigh replace "$ADDR_A" lladdr "$mac" dev "$IF_A" nud permanent
inA python3 -c '
import socket
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(50):
    u.sendto(b"j" * 4000, ("'"$ADDR_A"'", 9))'
inA ip link set "$IF_A" down
rx_settle "$NS_A" 9120
stop_pid "$pp" INT
[ "$RC" = 0 ] || { cat "$TMP/jumbo.out"; fail "jumbo: exit $RC"; }
jcheck "$TMP/jumbo.json" 'f("Udp.InDatagrams") == 50' 'f("Udp.InErrors") == 0' \
	'f("IpExt.InTruncatedPkts") == 0' 'f("Rx.RxOctets") >= 50 * 4042' \
	'd["ports"][0]["stats"]["ierrors"] == 0' 'd["ports"][0]["dropped"] == 0' \
	'd["conservation"]["ok"]' || { cat "$TMP/jumbo.out"; fail "jumbo: counters"; }
ip netns del "$NS_A"
echo "jumbo: ok"
echo "ports-tap: ok"
