#!/usr/bin/env bash
# Reassembly on the live binary: the generator's --frag (1500-byte frames,
# 256 bytes of data a fragment: 6 fragments a datagram in both families)
# in every --frag-order, one worker replaying the fragments of each
# datagram one after another. Every 6th fragment completes a datagram,
# which is delivered: ReasmOKs = Udp InDatagrams = the frames / 6 (the
# last datagram may be cut by the end of the run), nothing fails, the
# other fragments are queued; and --frag's refusals.
. "$(dirname "$0")/lib.sh"

run() { # run NAME ARGS...: a short generator run writing $TMP/NAME.json
	local name=$1; shift
	"$PKTPATH" $(eal "$name") -- --http off --duration 1 --warmup 0.3 --interval 0.5 \
		--lost-share 100 --quiet --json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 ||
		{ rc=$?; cat "$TMP/$name.out"; fail "$name: exit $rc"; }
}

for order in in reverse shuffle; do
	run "v4$order" --pkt-size 1500 --frag 256 --frag-order "$order"
	jcheck "$TMP/v4$order.json" 'd["conservation"]["ok"]' 'f("Rx.RxPackets") >= 6' \
		'f("Ip.ReasmReqds") == f("Ip.InReceives") == f("Rx.RxPackets")' \
		'f("Ip.ReasmOKs") == f("Udp.InDatagrams") == f("Rx.RxPackets") // 6' \
		'f("Ip.ReasmFails") == 0 and f("Path.IpFragDropped") == 0' \
		'f("Path.IpFragQueued") == f("Ip.ReasmReqds") - f("Ip.ReasmOKs")' \
		'[l["diff"] for l in d["conservation"]["laws"]
		  if l["law"].startswith("ReasmReqds = ") and l["lhs"] > 0] == [0]' ||
		fail "IPv4 --frag-order $order"
	run "v6$order" --family ipv6 --pkt-size 1500 --frag 256 --frag-order "$order"
	jcheck "$TMP/v6$order.json" 'd["conservation"]["ok"]' 'f("Rx.RxPackets") >= 6' \
		'f("Ip6.ReasmReqds") == f("Ip6.InReceives") == f("Rx.RxPackets")' \
		'f("Ip6.ReasmOKs") == f("Udp6.InDatagrams") == f("Rx.RxPackets") // 6' \
		'f("Ip6.ReasmFails") == 0 and f("Path.Ip6FragDropped") == 0' \
		'f("Path.Ip6FragQueued") == f("Ip6.ReasmReqds") - f("Ip6.ReasmOKs")' \
		'[l["diff"] for l in d["conservation"]["laws"]
		  if l["law"].startswith("Ip6ReasmReqds = ") and l["lhs"] > 0] == [0]' ||
		fail "IPv6 --frag-order $order"
done

# Behind hop-by-hop and destination options (both unfragmentable, as
# ip6_find_1stfragopt has them).
run ext --family ipv6 --ext6 hop,dst --pkt-size 1000 --frag 64
jcheck "$TMP/ext.json" 'd["conservation"]["ok"]' \
	'f("Ip6.ReasmOKs") == f("Udp6.InDatagrams") == f("Rx.RxPackets") // 15' ||
	fail "--ext6 hop,dst --frag 64"

refused() { # refused WHAT ARGS...: exit 2, one line naming --frag
	local what=$1; shift
	rc=0
	"$PKTPATH" $(eal refused) -- --duration 1 "$@" > "$TMP/refused.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] && grep -q -- "--frag" "$TMP/refused.out" ||
		{ cat "$TMP/refused.out"; fail "$what: exit $rc"; }
}
refused "not a multiple of 8" --frag 100
refused "no room for TCP" --l4 tcp --frag 16
refused "--ext6 frag" --family ipv6 --ext6 frag --frag 256
refused "a datagram in one fragment" --pkt-size 1500 --frag 4000
refused "mixed: IPv6 in one fragment" --family mixed --pkt-size 1500 --frag 1456
refused "--frag-order without --frag" --frag-order reverse
echo "frag: ok"
