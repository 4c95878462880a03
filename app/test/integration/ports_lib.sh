# Shared by the ports-*.sh tests (sourced after lib.sh): network namespaces
# and veth pairs made by the test itself, named ports<token>..., removed by
# name on exit; pktpath and tcpdump started in them and stopped by PID.
# Traffic only inside these namespaces, on 198.51.100.0/24 (TEST-NET-2).
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: needs root (network namespaces, veth pairs)"
	exit 77
fi
for t in ip tcpdump tcpreplay curl; do
	command -v $t >/dev/null 2>&1 || { echo "FAIL: $t not installed: run scripts/setup.sh" >&2; exit 1; }
done
PORTS_PY="$(dirname "$0")/ports.py"
TOK=$(printf '%04x' $(( ($$ ^ RANDOM) & 0xffff )))
NS_A="ports${TOK}a"		# pktpath's side
NS_B="ports${TOK}b"		# the peer
IF_A="ports${TOK}a0"
IF_B="ports${TOK}b0"
ADDR_A=198.51.100.1		# pktpath's --local
ADDR_B=198.51.100.2

ports_cleanup() {
	lib_cleanup
	ip netns del "$NS_A" 2>/dev/null || true
	ip netns del "$NS_B" 2>/dev/null || true
}
trap ports_cleanup EXIT

inA() { ip netns exec "$NS_A" "$@"; }
inB() { ip netns exec "$NS_B" "$@"; }

# veth_pair: NS_A/IF_A (IPv6 off: it sends nothing) <-> NS_B/IF_B (down,
# IPv4 ADDR_B, a permanent neighbour entry for ADDR_A -> MAC).
veth_pair() {
	ip netns add "$NS_A"
	ip netns add "$NS_B"
	inA ip link set lo up
	inB ip link set lo up
	ip link add "$IF_A" netns "$NS_A" type veth peer name "$IF_B" netns "$NS_B"
	inA sysctl -qw "net.ipv6.conf.$IF_A.disable_ipv6=1"
	inA ip link set "$IF_A" up
	inB ip addr add "$ADDR_B/24" dev "$IF_B"
	# Its link-local address usable at once (the IPv6 datagrams); it still
	# sends its router solicitations and MLD reports on its own.
	inB sysctl -qw "net.ipv6.conf.$IF_B.accept_dad=0"
	inB sysctl -qw net.ipv4.ping_group_range="0 2147483647"
}

# peer_neigh MAC: the peer's frames to ADDR_A go to MAC (pktpath's port).
peer_neigh() { inB ip neigh replace "$ADDR_A" lladdr "$1" dev "$IF_B" nud permanent; }

# start_bg NS OUT CMD...: run CMD in NS in the background; PID in BGPID.
start_bg() {
	local ns=$1 out=$2; shift 2
	ip netns exec "$ns" "$@" > "$out" 2>&1 &
	BGPID=$!
	PIDS+=("$BGPID")
}

# wait_for FILE PATTERN [SECONDS]: until FILE has a line matching PATTERN.
wait_for() {
	local i
	for i in $(seq $(( ${3:-30} * 10 ))); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	cat "$1" >&2
	fail "timed out waiting for '$2' in $1"
}

# pp_eal NAME: EAL options of a pktpath run in a namespace.
pp_eal() {
	echo "-l 0-1 --no-huge --no-shconf -m 512 --no-pci --file-prefix ports${TOK}_$1 --log-level=lib.eal:error"
}

# rx_settle NS PORT: until pktpath's worker has polled (RxEmptyPolls moved)
# without receiving anything more (RxPackets did not), by its /stats.json:
# every frame sent has been received, however slow the machine.
rx_settle() {
	local last="" now i
	for i in $(seq 150); do
		now=$(ip netns exec "$1" curl -s "http://127.0.0.1:$2/stats.json" |
			python3 -c 'import json,sys; r=json.load(sys.stdin)["mib"]["Rx"]; print(r["RxPackets"], r["RxEmptyPolls"])' 2>/dev/null || true)
		if [ -n "$now" ] && [ -n "$last" ] && [ "${now% *}" = "${last% *}" ] &&
			[ "${now#* }" -gt "${last#* }" ]; then
			return 0
		fi
		[ -n "$now" ] && last=$now
		sleep 0.3
	done
	fail "RxPackets never settled"
}

# stop_pid PID SIGNAL: send SIGNAL, wait for the exit; its status in RC.
stop_pid() {
	kill -"$2" "$1" 2>/dev/null || true
	set +e
	wait "$1"
	RC=$?
	set -e
}

# pp_start NAME VDEV PKTPATH_ARGS...: pktpath in NS_A on the port VDEV
# (--source port, --local ADDR_A, HTTP on 9120, its JSON $TMP/NAME.json,
# its output $TMP/NAME.out), once it listens; its PID in PP and its port's
# MAC in MAC.
pp_start() {
	local name=$1 vdev=$2 out="$TMP/$1.out"; shift 2
	start_bg "$NS_A" "$out" "$PKTPATH" $(pp_eal "$name") \
		--vdev "$vdev" -- --source port \
		--local "$ADDR_A/24" --udp-ports 9 --duration 0 --interval 0.5 \
		--http 127.0.0.1:9120 --json "$TMP/$name.json" "$@"
	PP=$BGPID
	wait_for "$out" "http: listening"
	MAC=$(port_mac "$out")
	[ -n "$MAC" ] || { cat "$out"; fail "$name: no port MAC in the log"; }
}

# send_stop NAME NS IF MAC PP TD: from namespace NS through IF, ports.py's
# Linux sockets send, then tcpreplay replays its right and wrong checksums
# to MAC (pktpath's port); IF goes down, and once pktpath's counters settle
# pktpath (PP) and tcpdump (TD) stop. Fails unless pktpath exits 0 and
# tcpdump lost nothing. Files: $TMP/NAME.{out,tcpdump,replay.pcap,tcpreplay}.
send_stop() {
	local name=$1 ns=$2 ifc=$3 mac=$4 pp=$5 td=$6
	local in="ip netns exec $ns"
	$in python3 "$PORTS_PY" sockets "$ADDR_A" "$N" "$ifc"
	$in python3 "$PORTS_PY" mkpcap "$TMP/$name.replay.pcap" \
		"$($in cat "/sys/class/net/$ifc/address")" "$mac" "$ADDR_B" "$ADDR_A" "$N"
	$in tcpreplay -q -t -i "$ifc" "$TMP/$name.replay.pcap" > "$TMP/$name.tcpreplay" 2>&1 ||
		{ cat "$TMP/$name.tcpreplay"; fail "$name: tcpreplay"; }
	$in ip link set "$ifc" down	# nothing more is sent
	rx_settle "$NS_A" 9120
	stop_pid "$pp" INT
	[ "$RC" = 0 ] || { cat "$TMP/$name.out"; fail "$name: pktpath exit $RC"; }
	stop_pid "$td" INT
	grep -q "^0 packets dropped by kernel" "$TMP/$name.tcpdump" ||
		{ cat "$TMP/$name.tcpdump"; fail "$name: tcpdump lost frames"; }
}

# port_mac OUT: the "MAC xx:..." of pktpath's port line in its output.
port_mac() {
	sed -n 's/.*, MAC \([0-9A-Fa-f:]\{17\}\).*/\1/p' "$1" | head -1 | tr 'A-F' 'a-f'
}
