#!/usr/bin/env bash
# IPv6 on the live binary: the generator's IPv6 and mixed traffic (every
# family, upper layer and extension header it writes) counted where it
# belongs, /snmp6 in /proc/net/snmp6's layout and equal to the /stats.json
# totals of the same snapshot, and the IPv6 options' refusals.
. "$(dirname "$0")/lib.sh"
command -v curl > /dev/null || fail "no curl: run scripts/setup.sh"

run() { # run NAME ARGS...: a short generator run writing $TMP/NAME.json
	local name=$1; shift
	"$PKTPATH" $(eal "$name") -- --http off --duration 1 --warmup 0.3 --interval 0.5 \
		--lost-share 100 --quiet --json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 ||
		{ rc=$?; cat "$TMP/$name.out"; fail "$name: exit $rc"; }
}
base=( 'd["conservation"]["ok"]' 'f("Rx.RxPackets") > 0' )

# IPv6 UDP to the default --local6 (--dst6 in its /64): every frame
# delivered; without --pkt-size the frame is its headers' 62 bytes.
run v6 --family ipv6
jcheck "$TMP/v6.json" "${base[@]}" \
	'f("Ip6.InReceives") == f("Ip6.InDelivers") == f("Udp6.InDatagrams") == f("Rx.RxPackets")' \
	'f("Ip.InReceives") == 0 and f("Rx.RxNotIp") == 0' \
	'f("Rx.RxOctets") == 62 * f("Rx.RxPackets")' \
	'f("Ip6.InOctets") == 48 * f("Rx.RxPackets")' \
	'f("Ip6.InNoECTPkts") == f("Rx.RxPackets")' || fail "--family ipv6"

# Mixed TCP SYNs: the families take turns (bursts of 32 from 64 flows), TCP
# over both counts in the one Tcp group. No route back to the sources (no
# default route): every reset is Ip6OutNoRoutes on the IPv6 side.
run mixed --family mixed --l4 tcp
jcheck "$TMP/mixed.json" "${base[@]}" \
	'f("Ip.InReceives") == f("Ip6.InReceives") == f("Rx.RxPackets") // 2' \
	'f("Tcp.InSegs") == f("Rx.RxPackets")' \
	'f("Ip.InDelivers") + f("Ip6.InDelivers") == f("Rx.RxPackets")' \
	'f("Ip6.OutNoRoutes") == f("Ip6.InReceives")' || fail "--family mixed --l4 tcp"

# Echo requests behind hop-by-hop, destination options, a routing header with
# no segment left and an atomic fragment; the sources on-link: replies sent.
run ext --family ipv6 --l4 icmp --ext6 hop,dst,rt,frag --src6 2001:2:0:1::2-2001:2:0:1::9
jcheck "$TMP/ext.json" "${base[@]}" \
	'f("Icmp6.InMsgs") == f("Icmp6Msg.InType128") == f("Rx.RxPackets")' \
	'f("Ip6.ReasmReqds") == f("Ip6.ReasmOKs") == f("Rx.RxPackets")' \
	'f("Icmp6Msg.OutType129") == f("Ip6.OutRequests") == f("Rx.RxPackets")' \
	'f("Ip6.InOctets") == (62 + 32 - 14) * f("Rx.RxPackets")' || fail "--ext6"

# A hop-by-hop header anywhere but first: an unknown next header, as Linux.
run hoplate --family ipv6 --ext6 dst,hop
jcheck "$TMP/hoplate.json" "${base[@]}" \
	'f("Ip6.InUnknownProtos") == f("Rx.RxPackets")' || fail "--ext6 dst,hop"

# /snmp6: /proc/net/snmp6's lines (the names this kernel prints, in its
# order, for the fields that are there), equal to /stats.json's totals of
# the same snapshot.
"$PKTPATH" $(eal snmp6) -- --duration 60 --quiet --http 127.0.0.1:0 --interval 0.5 \
	--family ipv6 --l4 icmp > "$TMP/snmp6.out" 2>&1 &
PID=$!
http_url snmp6 "$TMP/snmp6.out" "$PID"
ok=
for i in $(seq 20); do
	curl -sf "${URL}stats.json" > "$TMP/a.json"
	curl -sf "${URL}snmp6" > "$TMP/snmp6"
	curl -sf "${URL}stats.json" > "$TMP/b.json"
	rc=0
	python3 - "$TMP/a.json" "$TMP/snmp6" "$TMP/b.json" <<'PY' || rc=$?
import json, os, re, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[3]))
if a["seq"] != b["seq"] or a["mib"]["Ip6"]["InReceives"] == 0:
    sys.exit(3)
text = open(sys.argv[2]).read()
lines = text.splitlines()
names = []
for line in lines:
    col, v = line.split("\t")    # "%-32s\t%lu", as net/ipv6/proc.c prints
    n = col.rstrip(" ")
    assert re.fullmatch(r"\S+", n) and len(col) == max(32, len(n)) and v.isdigit(), line
    names.append(n)
    for g in ("UdpLite6", "Udp6", "Icmp6", "Ip6"):
        if n.startswith(g):
            k = n[len(g):]
            break
    m = re.fullmatch(r"(In|Out)Type(\d+)", k)
    if g == "Icmp6" and m:
        want = a["mib"]["Icmp6Msg"].get("%sType%s" % m.groups(), 0)
    elif g == "Icmp6" and k not in a["mib"]["Icmp6"]:
        continue            # a named type: checked by number below
    else:
        want = a["mib"][g][k]
    assert int(v) == want, (n, v, want)
assert "Icmp6InType128" in names and "Icmp6InEchos" in names
if os.path.exists("/proc/net/snmp6"):
    host = [l.split()[0] for l in open("/proc/net/snmp6")
            if not re.match(r"Icmp6(In|Out)Type\d", l)]
    ours = [n for n in names if not re.match(r"Icmp6(In|Out)Type\d", n)]
    assert ours == host, (ours, host)
print("ipv6: /snmp6: %d lines match /stats.json seq %d" % (len(lines), a["seq"]))
PY
	[ "$rc" = 0 ] && { ok=1; break; }
	[ "$rc" = 3 ] || { kill -INT "$PID"; fail "/snmp6 does not match /stats.json"; }
	sleep 0.3
done
kill -INT "$PID"
wait "$PID" || fail "pktpath exited $? after SIGINT"
[ -n "$ok" ] || fail "/snmp6: never got two requests within one snapshot"

# Refusals: one line naming the input, exit 2.
refuse() { # refuse WANT ARGS...
	local want=$1 rc=0; shift
	"$PKTPATH" $(eal refuse) -- --http off --duration 1 "$@" > "$TMP/r.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "$*: exit $rc, want 2: $(cat "$TMP/r.out")"
	grep -qF -- "$want" "$TMP/r.out" || fail "$*: no '$want' in: $(cat "$TMP/r.out")"
}
refuse "--local6: 'fe80::1/64' is not a unicast address" --local6 fe80::1/64
refuse "--mcast6: 'ff01::5' is not a multicast group" --mcast6 ff01::5
refuse "--dst6: '2001:db8::1-2001:db9::1': the ends of a range differ" \
	--family ipv6 --dst6 2001:db8::1-2001:db9::1
refuse "--ext6: 'jumbo' is not one of hop, dst, rt, frag" --family ipv6 --ext6 jumbo
refuse "--ext6" --ext6 hop
echo "ipv6: ok"
