#!/usr/bin/env bash
# The built-in generator: counts, conservation, JSON schema, every variant.
. "$(dirname "$0")/lib.sh"

# --warmup 0.4, not 0.5: the fold due at 0.5 s is then the first after the
# warm-up even when it comes early, so the steady part is ~1 s and a loaded
# machine's late folds cannot shrink it below one interval (with 0.5 the
# steady part began at the 1.0 s fold whenever the 0.5 s one came a little
# early, and a late final fold made it "less than one stats interval").
# --lost-share 100: a neighbour that preempts the worker must not take the
# steady part away from these count checks (lost time: lost.sh).
run() { # run NAME ARGS...: a short generator run writing $TMP/NAME.json
	local name=$1; shift
	"$PKTPATH" $(eal "$name") -- --http 127.0.0.1:0 --duration 1.5 --warmup 0.4 --interval 0.5 \
		--lost-share 100 \
		--quiet --json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 ||
		{ rc=$?; cat "$TMP/$name.out"; fail "$name: exit $rc"; }
}

common=( 'd["conservation"]["ok"]'
	'f("Rx.RxPackets") > 0'
	'f("Rx.RxPackets") == d["summary"]["run"]["packets"]'
	'sum(l["run"]["packets"] for l in d["lcores"]) == f("Rx.RxPackets")'
	'sum(l["mib"]["Rx"]["RxPackets"] for l in d["lcores"]) == f("Rx.RxPackets")'
	'f("Ip.Forwarding") == 2 and f("Ip.DefaultTTL") == 64 and f("Tcp.MaxConn") == -1'
	'd["summary"]["run"]["mpps"] > 0 and d["summary"]["run"]["cycles_per_pkt"] > 0'
	'abs(d["summary"]["run"]["ns_per_pkt"] * d["summary"]["run"]["mpps"] - 1000) < 1e-6'
	'd["summary"]["steady"] is not None'
	'd["info"]["dpdk"].startswith("DPDK")'
	'd["fold"]["count"] >= 3' )

# Default: every generated frame is a valid datagram to a listener.
run default
jcheck "$TMP/default.json" "${common[@]}" \
	'f("Ip.InReceives") == f("Rx.RxPackets")' \
	'f("Udp.InDatagrams") == f("Rx.RxPackets")' \
	'f("IpExt.InOctets") == f("Rx.RxPackets") * 46' \
	'f("Rx.RxOctets") == f("Rx.RxPackets") * 60' \
	'f("IpExt.InNoECTPkts") == f("Rx.RxPackets")' \
	'd["info"]["config"]["alloc"] == "reuse"' \
	'd["info"]["config"]["pool_layout"] == "page"' \
	'd["info"]["config"]["pool_order"] == "shuffle"' \
	'd["info"]["config"]["loop"] == "full-prefetch"'
grep -q "conservation: ok" "$TMP/default.out" || fail "summary lacks conservation line"
# The run's conditions: in the JSON (the worker's CPU, as the EAL pinned it),
# on the banner, one "conditions:" line per warning of the JSON.
jcheck "$TMP/default.json" \
	'd["info"]["conditions"]["workers"][0]["lcore"] == 1 and d["info"]["conditions"]["workers"][0]["cpu"] == 1' \
	'd["info"]["conditions"]["main"]["lcore"] == 0' \
	'd["info"]["conditions"]["cpu"]["model"] == d["info"]["cpu"]' \
	'd["info"]["conditions"]["dpdk"] == d["info"]["dpdk"]' \
	'd["info"]["conditions"]["compiler"].startswith(("gcc", "clang"))' \
	'"buildtype=" in d["info"]["conditions"]["cflags"]' \
	'all(isinstance(w, str) and w for w in d["info"]["conditions"]["warnings"])'
grep -q "^host: lcore 1 on CPU 1 " "$TMP/default.out" || { cat "$TMP/default.out"; fail "no host line"; }
[ "$(grep -c '^conditions: ' "$TMP/default.out")" = "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["info"]["conditions"]["warnings"]))' "$TMP/default.json")" ] ||
	{ cat "$TMP/default.out"; fail "conditions: lines and JSON warnings differ"; }

# --duration equal to --warmup: no steady part (it would span a few
# milliseconds), null with the reason in the JSON, and said on the console.
"$PKTPATH" $(eal steady) -- --http 127.0.0.1:0 --duration 1 --warmup 1 --interval 1 --quiet \
	--json "$TMP/steady.json" > "$TMP/steady.out" 2>&1 || { cat "$TMP/steady.out"; fail "steady run"; }
jcheck "$TMP/steady.json" 'd["summary"]["steady"] is None' \
	'"less than one stats interval (1.00 s)" in d["summary"]["steady_reason"] or "ended before the warm-up" in d["summary"]["steady_reason"]' \
	'all(l["steady"] is None for l in d["lcores"])' 'd["summary"]["run"]["packets"] > 0' \
	'd["conservation"]["ok"] and d["conservation"]["exact"] and d["conservation"]["tolerance"] == 0' \
	'len(d["conservation"]["laws"]) == 8 and all(l["diff"] == 0 for l in d["conservation"]["laws"])' \
	'f("Mode.ModeOffPackets") == f("Rx.RxPackets")' \
	'f("Mode.ModeOffBusyCycles") == f("Rx.BusyCycles") and f("Mode.ModeOffIdleCycles") == f("Rx.IdleCycles")' \
	'f("Mode.ModeOffLostCycles") == f("Rx.LostCycles")'
grep -q "^steady: none: " "$TMP/steady.out" || { cat "$TMP/steady.out"; fail "no 'steady: none:' line"; }
grep -q "^note: no steady summary: --duration 1 ends before --warmup 1 + one --interval 1" "$TMP/steady.out" ||
	{ cat "$TMP/steady.out"; fail "no start-up note"; }

# Packed mbufs (--pool-layout packed), allocated and freed every burst: the
# same packets, the same counts.
run packed --pool-layout packed --alloc bulk --pkt-size 128
jcheck "$TMP/packed.json" "${common[@]}" \
	'f("Udp.InDatagrams") == f("Rx.RxPackets")' \
	'f("Rx.RxOctets") == f("Rx.RxPackets") * 128' \
	'd["info"]["config"]["pool_layout"] == "packed"'

# The pool in address order (--pool-order address): the same counts.
run address --pool-order address --alloc bulk
jcheck "$TMP/address.json" "${common[@]}" \
	'f("Udp.InDatagrams") == f("Rx.RxPackets")' \
	'd["info"]["config"]["pool_order"] == "address"'

# Closed port, ECN CE, bulk alloc, no prefetch, shared layout, field fold.
run noports --dport 7 --udp-ports 9 --tos 3 --alloc bulk --prefetch off \
	--mib-layout shared --fold field --pkt-size 128 --flows 1000
jcheck "$TMP/noports.json" "${common[@]}" \
	'f("Udp.NoPorts") == f("Rx.RxPackets")' \
	'f("IpExt.InCEPkts") == f("Rx.RxPackets")' \
	'f("Rx.RxOctets") == f("Rx.RxPackets") * 128' \
	'd["info"]["config"]["mib_layout"] == "shared"' \
	'd["info"]["config"]["loop"] == "full"'

# Not our address: InAddrErrors; the MAC of another host: RxOtherHost.
run addr --dst 10.9.9.9 --local 198.19.0.1/24
jcheck "$TMP/addr.json" "${common[@]}" 'f("Ip.InAddrErrors") == f("Rx.RxPackets")'
run other --dst-mac 02:00:00:00:00:77 --src-mac 02:00:00:00:00:01
jcheck "$TMP/other.json" "${common[@]}" 'f("Rx.RxOtherHost") == f("Rx.RxPackets")' \
	'f("Ip.InReceives") == 0'

# VLAN tags (--vlan-tags): with no VLAN device (the default, a host without
# any) a tagged frame is PACKET_OTHERHOST and reaches no IP counter; with the
# device declared (--vlan) it is delivered, QinQ too; a priority tag (VID 0)
# is stripped without one. The frame size includes the tags (pktgen's way).
run vlan_nodev --vlan-tags 100
jcheck "$TMP/vlan_nodev.json" "${common[@]}" 'f("Rx.RxOtherHost") == f("Rx.RxPackets")' \
	'f("Rx.RxVlanNoDevice") == f("Rx.RxPackets") == f("Rx.RxVlan")' \
	'f("Ip.InReceives") == 0'
run vlan_qinq --vlan-tags ad300.5 --vlan 100,ad300.5
jcheck "$TMP/vlan_qinq.json" "${common[@]}" 'f("Udp.InDatagrams") == f("Rx.RxPackets")' \
	'f("Rx.RxVlan") == f("Rx.RxPackets")' 'f("Rx.RxVlanNoDevice") == 0' \
	'f("IpExt.InOctets") == f("Rx.RxPackets") * 38' 'f("Rx.RxOctets") == f("Rx.RxPackets") * 60'
run vlan_outer --vlan-tags ad300.5 --vlan ad300
jcheck "$TMP/vlan_outer.json" "${common[@]}" 'f("Rx.RxOtherHost") == f("Rx.RxPackets")' \
	'f("Rx.RxVlanNoDevice") == f("Rx.RxPackets")'
run vlan_prio --vlan-tags 0
jcheck "$TMP/vlan_prio.json" "${common[@]}" 'f("Udp.InDatagrams") == f("Rx.RxPackets")' \
	'f("Rx.RxVlan") == f("Rx.RxPackets")' 'f("Rx.RxVlanNoDevice") == 0'
# The ingress hook is tc ingress on the port: it sees the tag whether a VLAN
# device exists or not, before the frame is found to be another host's.
printf 'vlan 100 action drop\n' > "$TMP/vlan100.rules"
run vlan_hook --vlan-tags 100 --ingress rcu --rules "$TMP/vlan100.rules"
jcheck "$TMP/vlan_hook.json" "${common[@]}" 'f("Ingress.IngressDropped") == f("Rx.RxPackets")' \
	'f("Rx.RxOtherHost") == 0' 'f("Rx.RxVlanNoDevice") == f("Rx.RxPackets")'
printf 'vlan 100 action count\n' > "$TMP/vlan100c.rules"
run vlan_hookc --vlan-tags 100 --ingress rcu --rules "$TMP/vlan100c.rules"
jcheck "$TMP/vlan_hookc.json" "${common[@]}" 'f("Ingress.IngressMatched") == f("Rx.RxPackets")' \
	'f("Rx.RxOtherHost") == f("Rx.RxPackets")'

# Multicast: a joined group is delivered (InMcastPkts), another is dropped
# as Linux drops it (Path IpMcastNotJoined), both after InReceives.
run mcast --dst 239.1.1.1 --local 198.19.0.1/24 --mcast 239.1.1.1
jcheck "$TMP/mcast.json" "${common[@]}" 'f("IpExt.InMcastPkts") == f("Rx.RxPackets")' \
	'f("Udp.InDatagrams") == f("Rx.RxPackets")'
run nomcast --dst 239.1.1.2 --local 198.19.0.1/24 --mcast 239.1.1.1
jcheck "$TMP/nomcast.json" "${common[@]}" 'f("Path.IpMcastNotJoined") == f("Rx.RxPackets")' \
	'f("Ip.InReceives") == f("Rx.RxPackets")'

# rx-only: nothing reaches the path.
run rxonly --path rx-only
jcheck "$TMP/rxonly.json" "${common[@]}" 'f("Rx.RxNoPath") == f("Rx.RxPackets")' \
	'f("Ip.InReceives") == 0' 'd["info"]["config"]["loop"] == "gen-rx-only"'

# Two workers with the main lcore polling too, UDP checksums on.
run twoworkers --main-worker --udp-csum on
jcheck "$TMP/twoworkers.json" "${common[@]}" 'len(d["lcores"]) == 2' \
	'all(l["run"]["packets"] > 0 for l in d["lcores"])' \
	'f("Udp.InDatagrams") == f("Rx.RxPackets")'

# The inetpeer-like stage, 2 workers on the same peers, both layouts, half
# the lookups shared (the default) and none: every delivered packet looks
# its source up; every get has its put.
for l in shared split; do
	for s in 50 0; do
		run "peer_$l$s" --main-worker --peer on --peer-layout $l --peers 100 --flows 200 \
			$([ $s = 50 ] || echo --peer-share $s)
		jcheck "$TMP/peer_$l$s.json" "${common[@]}" \
			'f("Peer.PeerLookups") == f("Udp.InDatagrams")' \
			'f("Peer.PeerLookups") == f("Peer.PeerHits") + f("Peer.PeerMisses")' \
			'f("Peer.PeerGets") == f("Peer.PeerPuts") == f("Peer.PeerHits")' \
			'f("Peer.PeerMisses") > 0 and f("Peer.PeerHits") > 0' \
			'd["peer"]["refcnt_sum"] == 0' "d[\"peer\"][\"layout\"] == \"$l\"" \
			"d[\"peer\"][\"share_pct\"] == $s" \
			'd["info"]["config"]["loop"] == "full-prefetch-peer"'
	done
done

# A pcap template: the generator replays its frames round-robin.
"$MKPCAP" "$TMP/mix.pcap" 02:00:00:00:00:01 > "$TMP/mix.expect"
run template --template "$TMP/mix.pcap"
python3 - "$TMP/template.json" "$TMP/mix.expect" <<'PY' || fail "template ratios"
import json, sys
d = json.load(open(sys.argv[1])); e = json.load(open(sys.argv[2]))
m = d["mib"]; n = m["Rx"]["RxPackets"]; per = e["Rx.RxPackets"]
# Whole rounds of the file plus a partial one: each counter is within one
# round of its expected share.
for k, v in e.items():
    g, f = k.split(".")
    want = n * v / per
    if abs(m[g][f] - want) > v + 1:
        print("template: %s = %d, expected about %.0f" % (k, m[g][f], want)); sys.exit(1)
if not d["conservation"]["ok"]: sys.exit(1)
PY
echo "gen: ok"
