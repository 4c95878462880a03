#!/usr/bin/env bash
# The rules kind over IPv6 and mixed traffic in the real binary: the
# generator's --family mixed frames (IPv4 and IPv6 in turn: exactly half
# each) classified each by its family's rules, every rule's verdict counted
# where it belongs (Ingress and the IP groups of what passed), the same with
# extension headers and a VLAN tag, rule churn between IPv6 rulesets, and a
# bad IPv6 rule refused with one line naming the file and line (exit 2).
. "$(dirname "$0")/lib.sh"

run() { # run NAME ARGS...
	local name=$1; shift
	local rc=0
	"$PKTPATH" $(eal "$name") -- --http off --duration 1 --warmup 0.3 --interval 0.5 \
		--quiet --json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 || rc=$?
	[ $rc = 0 ] || { cat "$TMP/$name.out"; fail "$name: exit $rc"; }
}
base=( 'd["conservation"]["ok"]' 'f("Rx.RxPackets") > 0' 'f("Rx.RxPackets") % 2 == 0' )

# IPv6 (2001:2::/64 by default) marked 6 and passed, IPv4 (198.18.0.0/15)
# dropped; a count rule of no family sees both first.
cat > "$TMP/mixed.rules" <<'R'
default pass
prio 1 proto udp dport 9 action count
prio 2 src 2001:2::/64 dst 2001:2:0:1::/64 proto udp dport 9 action mark 6
prio 3 src 198.18.0.0/15 dst 198.19.0.1 action drop
prio 4 action drop
R
for lookup in small acl; do
	rules=$TMP/mixed.rules
	if [ $lookup = acl ]; then	# more than 16 rules: rte_acl
		rules=$TMP/mixed-acl.rules
		{ cat "$TMP/mixed.rules"; for i in $(seq 100 120); do
			echo "prio $i src 2001:db8:$i::/48 action drop"; done; } > "$rules"
	fi
	run "mixed_$lookup" --family mixed --ingress rcu --ingress-kind rules --rules "$rules"
	jcheck "$TMP/mixed_$lookup.json" "${base[@]}" \
		'f("Ingress.IngressPackets") == f("Ingress.IngressMatched") == f("Rx.RxPackets")' \
		'f("Ingress.IngressMarked") == f("Ip6.InReceives") == f("Rx.RxPackets") // 2' \
		'f("Ingress.IngressDropped") == f("Rx.RxPackets") // 2' \
		'f("Ip.InReceives") == 0' \
		'f("Udp6.InDatagrams") == f("Ingress.IngressMarked")' || fail "mixed ($lookup)"
done

# The other way round, behind IPv6 extension headers and an 802.1Q tag:
# IPv4 marked, IPv6 dropped by a prefix that is not the first 64 bits.
cat > "$TMP/swap.rules" <<'R'
vlan 7 dst 2001:2:0:1::1/128 action drop
vlan 7 dst 198.19.0.1/32 proto udp sport 1024-65535 action mark 4
R
run swap --family mixed --ext6 hop,dst --vlan-tags 7 --vlan 7 --ingress lock --ingress-kind rules \
	--rules "$TMP/swap.rules"
jcheck "$TMP/swap.json" "${base[@]}" \
	'f("Ingress.IngressDropped") == f("Ingress.IngressMarked") == f("Rx.RxPackets") // 2' \
	'f("Ip.InReceives") == f("Ingress.IngressMarked")' 'f("Ip6.InReceives") == 0' ||
	fail "swap"

# Rule churn between two IPv6 rulesets: both verdicts seen, nothing lost.
echo "src 2001:2::/64 action drop" > "$TMP/a6.rules"
echo "dst 2001:2:0:1::/64 proto udp action mark 9" > "$TMP/b6.rules"
run churn --family ipv6 --main-worker --ingress rcu --ingress-kind rules \
	--rules "$TMP/a6.rules" --rules-alt "$TMP/b6.rules" --update-rate 2000
jcheck "$TMP/churn.json" 'd["conservation"]["ok"]' 'f("Ingress.RuleUpdates") > 0' \
	'f("Ingress.IngressDropped") > 0' 'f("Ingress.IngressMarked") > 0' \
	'f("Ingress.IngressDropped") + f("Ingress.IngressMarked") == f("Rx.RxPackets")' \
	'f("Ip6.InReceives") == f("Ingress.IngressMarked")' || fail "churn"

# gen-rules.py --family mixed: 1000 rules of both families, the traffic's
# two rules just before the end; every frame passed by its family's.
"$SOURCE_DIR/scripts/gen-rules.py" --count 1000 --family mixed -o "$TMP/gen.rules"
run gen --family mixed --ingress rcu --lock-scope burst --rules "$TMP/gen.rules"
jcheck "$TMP/gen.json" "${base[@]}" 'd["ingress"]["rules"] == 1000' \
	'f("Ingress.IngressMatched") == f("Ingress.IngressPassed") == f("Rx.RxPackets")' \
	'f("Ip.InReceives") == f("Ip6.InReceives") == f("Rx.RxPackets") // 2' || fail "gen-rules"

# A bad IPv6 rule: one line, FILE:LINE: reason, exit 2, nothing run.
printf 'action pass\nsrc 2001:2::1/64 action drop\n' > "$TMP/bad6.rules"
set +e
"$PKTPATH" $(eal bad6) -- --http off --duration 1 --ingress rcu --rules "$TMP/bad6.rules" \
	> "$TMP/bad6.out" 2> "$TMP/bad6.err"
rc=$?
set -e
want="pktpath: --rules $TMP/bad6.rules:2: src: '2001:2::1/64' has host bits set (did you mean 2001:2::/64?)"
[ $rc = 2 ] && [ "$(grep -c '^pktpath' "$TMP/bad6.err")" = 1 ] && grep -qxF "$want" "$TMP/bad6.err" ||
	{ cat "$TMP/bad6.err"; fail "bad IPv6 rule: exit $rc"; }
echo "ingress6: ok"
