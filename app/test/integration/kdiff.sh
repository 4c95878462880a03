#!/usr/bin/env bash
# Kernel-differential test: the same generated frames to a Linux receiver in a
# network namespace and to pktpath, every field both count compared frame by
# frame (app/test/kdiff.py has the generator, the mapping table and the
# agents; lib/path/README.md "Checked against the kernel"). Three passes: every
# frame, tags included, to a receiver with no VLAN device against pktpath
# without --vlan;
# then the tagged frames against pktpath with --vlan DECLARED (kdiff.py): to
# VLAN devices made for it where the kernel has CONFIG_VLAN_8021Q, else
# without the tags those devices would take (the output says which); then
# IPv6 frames (app/test/kdiff6.py) against /proc/net/snmp6, with IPv6 on.
#
#   KDIFF_SEED=N    generator seed (default 12; CI uses the default)
#   KDIFF_COUNT=N   random frames after the fixed prelude (default 1500)
#   KDIFF_SHOW=N    disagreeing frames printed in full (default 40)
#   KDIFF_KEEP=DIR  keep the frames, the kernel's and lib/path's deltas there
#
# Runs as root only, in two namespaces it makes (kdiffr$$: the receiver,
# 10.99.0.1/24; kdiffs$$: the sender), joined by a veth pair; both are removed
# by name on exit, also on failure. Skipped (exit 77) with the reason when not
# root or when a namespace or a veth pair cannot be made (a container
# without the rights); fails when what scripts/setup.sh installs is missing.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
KDIFF="$SOURCE_DIR/app/test/kdiff.py"
KDIFF6="$SOURCE_DIR/app/test/kdiff6.py"
SEED=${KDIFF_SEED:-12}
COUNT=${KDIFF_COUNT:-1500}
RX="kdiffr$$"
TX="kdiffs$$"
VA="kdiff$$a"	# sender side
VB="kdiff$$b"	# receiver side
skip() { echo "SKIP: kdiff: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root (network namespaces and veth pairs need it)"
# What scripts/setup.sh installs fails the test when absent: a skip would
# pass with nothing compared.
[ -x "$PY" ] || fail "no $PY (scripts/setup.sh installs python3)"
command -v nft > /dev/null || fail "no nft (scripts/setup.sh installs nftables)"
cleanup() {
	ip netns del "$RX" 2>/dev/null || true
	ip netns del "$TX" 2>/dev/null || true
	ip link del "$VA" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT
ip netns add "$RX" 2>/dev/null || skip "cannot make a network namespace"
ip netns add "$TX" 2>/dev/null || skip "cannot make a network namespace"
ip link add "$VA" type veth peer name "$VB" 2>/dev/null || skip "cannot make a veth pair"
ip link set "$VA" netns "$TX"
ip link set "$VB" netns "$RX"
nsx() { local ns=$1; shift; ip netns exec "$ns" "$@"; }
for ns in "$RX" "$TX"; do
	nsx "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
nsx "$RX" sysctl -qw net.ipv6.conf."$VB".disable_ipv6=1 net.ipv4.ip_forward=0 \
	net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
	net.ipv4.conf."$VB".rp_filter=0 net.ipv4.conf.all.accept_source_route=0 \
	net.ipv4.conf.all.accept_local=0 net.ipv4.conf.all.route_localnet=0 \
	net.ipv4.icmp_echo_ignore_broadcasts=1 net.ipv4.icmp_ignore_bogus_error_responses=1
# Fragment queues that outlive the first passes (no ReasmTimeout in the
# middle of them; the fragment pass sets its own ipfrag_time) and room for every fragment it leaves queued, in the kernel and in
# pktpath (--frag-high): their memory is counted differently.
nsx "$RX" sysctl -qw net.ipv4.ipfrag_time=3600 net.ipv4.ipfrag_high_thresh=33554432
nsx "$TX" sysctl -qw net.ipv6.conf."$VA".disable_ipv6=1
# Nothing the receiver sends may come back to it (pktpath transmits nothing):
# an ICMP error to a source that is a local broadcast address, or to a
# reversed source route through 0.0.0.0, would be looped back and counted
# again. Drop every locally generated IPv4 packet at LOCAL_OUT; netfilter has
# no SNMP counter, and no receive-side decision depends on it.
nsx "$RX" nft add table ip kdiff
nsx "$RX" nft add chain ip kdiff out '{ type filter hook output priority 0; policy drop; }'
# The receiver's MAC is net_pcap's port MAC, so that one capture serves both.
nsx "$RX" ip link set "$VB" address 02:70:63:61:70:00
nsx "$RX" ip addr add 10.99.0.1/24 dev "$VB"
nsx "$RX" ip link set lo up
nsx "$RX" ip link set "$VB" up
nsx "$TX" ip link set "$VA" up
DIR=${KDIFF_KEEP:-$TMP}
mkdir -p "$DIR"
echo "kdiff: seed $SEED, $COUNT frames (KDIFF_SEED, KDIFF_COUNT to change)"
"$PY" "$KDIFF" gen "$SEED" "$COUNT" "$DIR" || fail "frame generation"
"$PY" "$KDIFF" kernel "$RX" "$TX" "$VA" "$DIR" kernel.pcap kernel.json || fail "kernel side"

# The second pass. The devices of DECLARED, as `ip link add` makes them
# (kv<q|ad><VID>..., on the receiver's device or on each other), if this
# kernel can; a probe that fails for want of CONFIG_VLAN_8021Q leaves it to
# the stripped frames.
mapfile -t DECLARED < <("$PY" "$KDIFF" declared)
if nsx "$RX" ip link add link "$VB" name kvprobe type vlan id 4094 2> "$DIR/vlan-probe.txt"; then
	nsx "$RX" ip link del kvprobe
	MODE=devices
	for st in "${DECLARED[@]}"; do
		parent=$VB name=kv
		IFS=. read -ra tags <<< "$st"
		for t in "${tags[@]}"; do
			if [ "${t#ad}" != "$t" ]; then
				proto=802.1ad vid=${t#ad} name=${name}a${t#ad}
			else
				proto=802.1Q vid=$t name=${name}q$t
			fi
			if ! nsx "$RX" ip link show "$name" > /dev/null 2>&1; then
				nsx "$RX" ip link add link "$parent" name "$name" type vlan \
					protocol "$proto" id "$vid" || fail "ip link add $name"
				nsx "$RX" ip link set "$name" up
			fi
			parent=$name
		done
	done
	echo "kdiff: --vlan $(IFS=,; echo "${DECLARED[*]}"): the kernel's own VLAN devices" \
		"($(nsx "$RX" ip -o link show type vlan | awk -F': ' '{print $2}' | tr '\n' ' '))"
else
	MODE=stripped
	echo "kdiff: --vlan $(IFS=,; echo "${DECLARED[*]}"): this kernel makes no VLAN" \
		"device ($(head -c 200 "$DIR/vlan-probe.txt" | tr '\n' ' ')): the tagged frames" \
		"go to it without the tags those devices would take"
fi
"$PY" "$KDIFF" kernel "$RX" "$TX" "$VA" "$DIR" "declared-$MODE.pcap" kernel-vlan.json ||
	fail "kernel side, --vlan"
# The IPv4 fragment pass: queues that time out in the pass's pause
# (ipfrag_time small now; the earlier passes' queues keep their timers).
FRAG_TIME=$("$PY" "$KDIFF" frag-time)
nsx "$RX" sysctl -qw net.ipv4.ipfrag_time="$FRAG_TIME"
"$PY" "$KDIFF" kernel "$RX" "$TX" "$VA" "$DIR" v4frag.pcap kernel-frag.json ||
	fail "kernel side, fragments"

read -r RLIM_MS BIG < <("$PY" "$KDIFF6" rlim)
RL0=(--icmp6-ratelimit 0 --icmp-msgs-per-sec "$BIG" --icmp-msgs-burst "$BIG")
RLIM=(--icmp6-ratelimit "$RLIM_MS" --icmp-msgs-per-sec "$BIG" --icmp-msgs-burst "$BIG")
# The IPv6 pass (kdiff6.py): IPv6 on the receiver's port now, as
# test_path6.c has it: fd70::1/64, the link-local address from its MAC, the
# neighbours fd70::2 and fe80::2 (and the rate-limit pass's sources), no
# default route, no router solicitation, no duplicate address detection, no
# per-address ICMPv6 rate limit and a global bucket that never runs out
# (pktpath gets the same: RL0; the rate-limit pass sets its own), fragment queues that
# outlive the main pass (ip6frag_time: no timeout sends a time exceeded in
# the middle of it; the fragment pass after it sets its own); and no neighbour
# ever solicited (a reply to an unknown neighbour is counted and dropped,
# as pktpath counts what it would send), so that nothing moves the
# counters on a timer.
nsx "$RX" sysctl -qw net.ipv6.conf.all.forwarding=0 net.ipv6.conf."$VB".accept_ra=0 \
	net.ipv6.conf."$VB".router_solicitations=0 net.ipv6.conf."$VB".dad_transmits=0 \
	net.ipv6.icmp.ratelimit=0 net.ipv4.icmp_msgs_per_sec="$BIG" net.ipv4.icmp_msgs_burst="$BIG" \
	net.ipv6.ip6frag_time=3600 net.ipv6.neigh."$VB".mcast_solicit=0 \
	net.ipv6.neigh."$VB".ucast_solicit=0 net.ipv6.neigh."$VB".app_solicit=0 \
	net.ipv6.neigh."$VB".mcast_resolicit=0
nsx "$RX" sysctl -qw net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf."$VB".disable_ipv6=0
nsx "$RX" ip -6 addr add fd70::1/64 dev "$VB" nodad
for n in fd70::2 fe80::2 fd70::10 fd70::11 fe80::10; do
	nsx "$RX" ip -6 neigh replace "$n" lladdr 02:6b:64:69:66:01 nud permanent dev "$VB"
done
"$PY" "$KDIFF6" gen "$SEED" "$COUNT" "$DIR" || fail "IPv6 frame generation"
"$PY" "$KDIFF6" kernel "$RX" "$TX" "$VA" "$DIR" || fail "kernel side, IPv6"
# The IPv6 fragment pass: queues that time out in the pass's pause
# (ip6frag_time small now; the main pass's queues keep their timers).
FRAG6_TIME=$("$PY" "$KDIFF6" frag-time)
nsx "$RX" sysctl -qw net.ipv6.ip6frag_time="$FRAG6_TIME"
"$PY" "$KDIFF6" kernel-frag "$RX" "$TX" "$VA" "$DIR" || fail "kernel side, IPv6 fragments"
# The rate-limit pass: net.ipv6.icmp.ratelimit on, to sources new to the
# namespace (kdiff6.py says why its counts cannot depend on timing).
nsx "$RX" sysctl -qw net.ipv6.icmp.ratelimit="$RLIM_MS"
"$PY" "$KDIFF6" kernel-rlim "$RX" "$TX" "$VA" "$DIR" || fail "kernel side, IPv6 rate limits"

OPTS=(--local 10.99.0.1/24 --udp-ports 4242 --udplite-ports 4242 --frag-high 33554432)
# pktpath's --pim follows this kernel: pim_rcv is CONFIG_IP_PIMSM_V2's (from
# its config when it shows it, else CONFIG_IP_MROUTE's /proc/net/ip_mr_vif)
if [ -r /proc/config.gz ]; then
	zcat /proc/config.gz | grep -qx 'CONFIG_IP_PIMSM_V2=y' && PIM=on || PIM=off
else
	nsx "$RX" test -e /proc/net/ip_mr_vif && PIM=on || PIM=off
fi
OPTS+=(--pim "$PIM")
echo "kdiff: --pim $PIM (this kernel's CONFIG_IP_PIMSM_V2)"
VLAN=$(IFS=,; echo "${DECLARED[*]}")
KVLAN=()
for st in "${DECLARED[@]}"; do KVLAN+=(--vlan "$st"); done
"$KDIFFPATH" --mac 02:70:63:61:70:00 "${OPTS[@]}" "$DIR/pktpath.pcap" > "$DIR/path.txt" ||
	fail "kdiffpath"
"$KDIFFPATH" --mac 02:70:63:61:70:00 "${OPTS[@]}" "${KVLAN[@]}" "$DIR/pktpath.pcap" \
	> "$DIR/path-vlan.txt" || fail "kdiffpath --vlan"
"$KDIFFPATH" --mac 02:70:63:61:70:00 "${OPTS[@]}" --frag-time "$FRAG_TIME" \
	"$DIR/v4frag.pcap" > "$DIR/path-frag.txt" || fail "kdiffpath, fragments"
for run in pktpath:none pktpath-vlan:"$VLAN"; do
	out=${run%%:*}
	"$PKTPATH" $(eal "kdiff-$out") --vdev "net_pcap0,rx_pcap=$DIR/pktpath.pcap" -- --http off \
		--source port --duration 1 --warmup 0 --quiet "${OPTS[@]}" --vlan "${run#*:}" \
		--json "$DIR/$out.json" > "$DIR/$out.txt" 2>&1 ||
		{ cat "$DIR/$out.txt"; fail "$out exit"; }
	jcheck "$DIR/$out.json" 'd["conservation"]["ok"]' \
		"f('Rx.RxPackets') == $(wc -l < "$DIR/path.txt")" || fail "$out run"
done
OPTS6=(--local6 fd70::1/64 --udp-ports 9 --udplite-ports 9)
"$KDIFFPATH" --mac 02:70:63:61:70:00 "${OPTS6[@]}" "${RL0[@]}" "$DIR/v6.pcap" \
	> "$DIR/path6.txt" || fail "kdiffpath, IPv6"
"$KDIFFPATH" --mac 02:70:63:61:70:00 "${OPTS6[@]}" "${RL0[@]}" --frag6-time "$FRAG6_TIME" \
	"$DIR/v6frag.pcap" > "$DIR/path6frag.txt" || fail "kdiffpath, IPv6 fragments"
"$KDIFFPATH" --mac 02:70:63:61:70:00 "${OPTS6[@]}" "${RLIM[@]}" "$DIR/v6rlim.pcap" \
	> "$DIR/path6rlim.txt" || fail "kdiffpath, IPv6 rate limits"
for run in pktpath6:v6:RL0:path6 pktpath6rlim:v6rlim:RLIM:path6rlim; do
	IFS=: read -r out pcap lim txt <<< "$run"
	declare -n limits=$lim
	"$PKTPATH" $(eal "kdiff-$out") --vdev "net_pcap0,rx_pcap=$DIR/$pcap.pcap" -- --http off \
		--source port --duration 1 --warmup 0 --quiet "${OPTS6[@]}" "${limits[@]}" \
		--json "$DIR/$out.json" > "$DIR/$out.txt" 2>&1 ||
		{ cat "$DIR/$out.txt"; fail "$out exit"; }
	jcheck "$DIR/$out.json" 'd["conservation"]["ok"]' \
		"f('Rx.RxPackets') == $(wc -l < "$DIR/$txt.txt")" || fail "$out run"
	unset -n limits
done
"$PY" "$KDIFF" compare "$DIR" "$MODE" || fail "pktpath and the kernel disagree (seed $SEED)"
"$PY" "$KDIFF6" compare "$DIR" || fail "pktpath and the kernel disagree on IPv6 (seed $SEED)"
echo "kdiff: ok (VLAN devices: $MODE)"
