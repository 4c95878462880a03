#!/usr/bin/env bash
# net_af_packet on a veth pair into a network namespace, one queue and
# qpairs=2 with two workers: traffic from Linux sockets in the peer
# namespace (UDP to a listener and to a closed port, TCP SYN, ICMP echo,
# IPv6, ARP; the kernel's partial checksums) and from tcpreplay (right and
# deliberately wrong checksums, a bad IPv4 header checksum). Every MIB
# field pktpath reports must equal what the kernel's own capture of the
# interface (tcpdump) implies, the port's counters must agree, and the
# capture must hold partial checksums (the case under test).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ports_lib.sh"
N=20

run_case() { # run_case NAME VDEV_ARGS PKTPATH_ARGS... ; checks
	local name=$1 vdev=$2; shift 2
	local out="$TMP/$name.out" cap="$TMP/$name.pcap"
	veth_pair
	pp_start "$name" "net_af_packet0,iface=$IF_A$vdev" "$@"
	local pp=$PP mac=$MAC
	start_bg "$NS_A" "$TMP/$name.tcpdump" tcpdump -i "$IF_A" -n -U -w "$cap"
	local td=$BGPID
	wait_for "$TMP/$name.tcpdump" "listening on"
	peer_neigh "$mac"
	inB ip link set "$IF_B" up	# carrier: the kernel starts talking now
	send_stop "$name" "$NS_B" "$IF_B" "$mac" "$pp" "$td"
	python3 "$PORTS_PY" check "$TMP/$name.json" "$cap" --partial ${QUEUES:+--queues=$QUEUES} ||
		{ cat "$out"; fail "$name: counters"; }
	grep -q "conservation: ok; port 0: ipackets" "$out" || { cat "$out"; fail "$name: summary"; }
	ip netns del "$NS_A"
	ip netns del "$NS_B"
	echo "$name: ok"
}

QUEUES="" run_case afp1 ""
grep -q "partial ones recognised" "$TMP/afp1.out" || fail "afp1: partial rule not on"
grep -q "no RSS" "$TMP/afp1.out" && fail "afp1: one queue, no RSS line expected"
# Two queue pairs (two packet sockets in one fanout group), two workers.
QUEUES="0:0,1:1" run_case afp2 ",qpairs=2" --main-worker --rxq 0:0.0,1:0.1
grep -q "no RSS (the driver reports no hash function): the driver decides which queue gets a frame (net_af_packet: the kernel's PACKET_FANOUT_HASH by flow)" \
	"$TMP/afp2.out" || { cat "$TMP/afp2.out"; fail "afp2: RSS claimed or not explained"; }
grep -q "RSS over" "$TMP/afp2.out" && fail "afp2: RSS claimed"
python3 - "$TMP/afp2.json" <<'PY' || fail "afp2: one queue got nothing"
import json, sys
q = json.load(open(sys.argv[1]))["ports"][0]["queues"]
# 2N TCP SYNs from 2N source ports: the fanout hash puts some on each queue
sys.exit(0 if all(x["q_ipackets"] > 0 for x in q) else 1)
PY
# Jumbo frames: MTU 9000 on the veth, framesz=16384 (the pool is sized for
# it): 4000-byte datagrams with partial checksums, none cut.
veth_pair
inA ip link set "$IF_A" mtu 9000
inB ip link set "$IF_B" mtu 9000
start_bg "$NS_A" "$TMP/jumbo.out" "$PKTPATH" $(pp_eal jumbo) \
	--vdev "net_af_packet0,iface=$IF_A,framesz=16384,blocksz=16384" -- --source port \
	--local "$ADDR_A/24" --udp-ports 9 --duration 0 --http 127.0.0.1:9120 --quiet \
	--json "$TMP/jumbo.json"
pp=$BGPID
wait_for "$TMP/jumbo.out" "http: listening"
grep -q "16352-byte mbufs" "$TMP/jumbo.out" || { cat "$TMP/jumbo.out"; fail "jumbo: pool not sized for framesz"; }
grep -q "cuts longer frames" "$TMP/jumbo.out" && { cat "$TMP/jumbo.out"; fail "jumbo: warned"; }
peer_neigh "$(port_mac "$TMP/jumbo.out")"
inB sysctl -qw "net.ipv6.conf.$IF_B.disable_ipv6=1"
inB ip link set "$IF_B" up
inB python3 -c '
import socket
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(50):
    u.sendto(b"j" * 4000, ("'"$ADDR_A"'", 9))'
inB ip link set "$IF_B" down
rx_settle "$NS_A" 9120
stop_pid "$pp" INT
[ "$RC" = 0 ] || { cat "$TMP/jumbo.out"; fail "jumbo: exit $RC"; }
jcheck "$TMP/jumbo.json" 'f("Udp.InDatagrams") == 50' 'f("Udp.InErrors") == 0' \
	'f("IpExt.InTruncatedPkts") == 0' 'f("Rx.RxOctets") == 50 * 4042' \
	'd["ports"][0]["dropped"] == 0' 'd["conservation"]["ok"]' ||
	{ cat "$TMP/jumbo.out"; fail "jumbo: counters"; }
echo "jumbo: ok"

# VLAN tags through a kernel interface. The kernel hands AF_PACKET the outer
# tag apart from the frame (skb_vlan_untag runs before the taps) and
# net_af_packet writes it back as 802.1Q (rte_vlan_insert): with --vlan 7
# the datagrams tagged 802.1Q 7 and 802.1ad 7 are both delivered, those
# tagged 8 are PACKET_OTHERHOST; an 802.1ad device on such a port is refused.
ip netns del "$NS_A"
ip netns del "$NS_B"
veth_pair
set +e
inA "$PKTPATH" $(pp_eal vlanad) --vdev "net_af_packet0,iface=$IF_A" -- --source port \
	--local "$ADDR_A/24" --duration 1 --http off --vlan 5,ad7 > "$TMP/vlanad.out" 2>&1
rc=$?
set -e
[ "$rc" = 2 ] && grep -qx "pktpath: --vlan: port 0 (net_af_packet) cannot have 802.1ad devices (adVID): the kernel hands it the outer tag apart from the frame and DPDK writes it back as 802.1Q, so declare VID instead" \
	"$TMP/vlanad.out" || { cat "$TMP/vlanad.out"; fail "vlan: an 802.1ad device on net_af_packet: exit $rc"; }
pp_start vlan "net_af_packet0,iface=$IF_A" --vlan 7
inB sysctl -qw "net.ipv6.conf.$IF_B.disable_ipv6=1"
inB ip link set "$IF_B" up
inB python3 - "$IF_B" "$MAC" "$ADDR_B" "$ADDR_A" <<'PY'
import socket, struct, sys
ifc, mac, src, dst = sys.argv[1:5]
def csum(d):
    s = sum(struct.unpack("!%dH" % (len(d) // 2), d))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff
ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 28, 1, 0, 64, 17, 0, socket.inet_aton(src),
                 socket.inet_aton(dst))
ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:] + struct.pack("!HHHH", 1000, 9, 8, 0)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
s.bind((ifc, 0))
eth = bytes.fromhex(mac.replace(":", "")) + bytes.fromhex("020000000b02")
for tpid, vid in ((0x8100, 7), (0x88a8, 7), (0x8100, 8)):
    for _ in range(10):
        s.send(eth + struct.pack("!HHH", tpid, vid, 0x0800) + ip)
PY
inB ip link set "$IF_B" down
rx_settle "$NS_A" 9120
stop_pid "$PP" INT
[ "$RC" = 0 ] || { cat "$TMP/vlan.out"; fail "vlan: exit $RC"; }
jcheck "$TMP/vlan.json" 'f("Udp.InDatagrams") == 20' 'f("Rx.RxVlan") == 30' \
	'f("Rx.RxVlanNoDevice") == 10' 'f("Rx.RxOtherHost") == 10' 'd["conservation"]["ok"]' ||
	{ cat "$TMP/vlan.out"; fail "vlan: counters"; }
echo "vlan: ok"
echo "ports-afpacket: ok"
