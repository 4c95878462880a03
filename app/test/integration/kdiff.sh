#!/usr/bin/env bash
# Kernel-differential test: the same generated frames to a Linux receiver in a
# network namespace and to pktpath, every field both count compared frame by
# frame (app/test/kdiff.py has the generator, the mapping table and the
# agents; README "Checked against the kernel").
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
"$PY" "$KDIFF" kernel "$RX" "$TX" "$VA" "$DIR" || fail "kernel side"
OPTS=(--local 10.99.0.1/24 --udp-ports 4242 --udplite-ports 4242)
"$KDIFFPATH" --mac 02:70:63:61:70:00 "${OPTS[@]}" "$DIR/pktpath.pcap" > "$DIR/path.txt" ||
	fail "kdiffpath"
"$PKTPATH" $(eal kdiff) --vdev "net_pcap0,rx_pcap=$DIR/pktpath.pcap" -- --http off \
	--source port --duration 1 --warmup 0 --quiet "${OPTS[@]}" \
	--json "$DIR/pktpath.json" > "$DIR/pktpath.txt" 2>&1 ||
	{ cat "$DIR/pktpath.txt"; fail "pktpath exit"; }
jcheck "$DIR/pktpath.json" 'd["conservation"]["ok"]' "f('Rx.RxPackets') == $(wc -l < "$DIR/path.txt")" ||
	fail "pktpath run"
"$PY" "$KDIFF" compare "$DIR" || fail "pktpath and the kernel disagree (seed $SEED)"
echo "kdiff: ok"
