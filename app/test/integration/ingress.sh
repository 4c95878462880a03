#!/usr/bin/env bash
# The ingress hook in the real binary: verdicts, every guard mode, rule
# churn, live flips by signal, reloads, --compare, bad rules files.
. "$(dirname "$0")/lib.sh"
R=${SOURCE_DIR:?}/config/rules

run() { # run NAME ARGS...
	local name=$1; shift
	"$PKTPATH" $(eal "$name") -- --http 127.0.0.1:0 --duration 1.2 --warmup 0.3 --interval 0.3 \
		--quiet --json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 ||
		{ cat "$TMP/$name.out"; fail "$name: exit $?"; }
}

# Every mode drops the generator's UDP port 9 traffic before ip_rcv.
for m in none lock rwlock rcu; do
	for scope in packet burst; do
		run "drop_${m}_$scope" --ingress $m --lock-scope $scope --rules "$R/drop-udp-9.rules"
		jcheck "$TMP/drop_${m}_$scope.json" 'd["conservation"]["ok"]' \
			'f("Rx.RxPackets") > 0' \
			'f("Ingress.IngressDropped") == f("Rx.RxPackets")' \
			'f("Ingress.IngressPackets") == f("Rx.RxPackets")' \
			'f("Ingress.IngressMatched") == f("Rx.RxPackets")' \
			'f("Ip.InReceives") == 0' \
			"d[\"ingress\"][\"mode\"] == \"$m\""
	done
done
jcheck "$TMP/drop_lock_packet.json" 'f("Ingress.LockAcquires") == f("Rx.RxPackets")'
jcheck "$TMP/drop_lock_burst.json" 'f("Ingress.LockAcquires") == f("Rx.RxBursts")'
jcheck "$TMP/drop_rcu_burst.json" 'f("Ingress.RcuQuiescent") > 0' 'f("Ingress.LockAcquires") == 0'

# Marks pass to the path; off means no hook at all.
run mark --ingress rcu --rules "$R/mark-udp-9.rules"
jcheck "$TMP/mark.json" 'd["conservation"]["ok"]' \
	'f("Ingress.IngressMarked") == f("Rx.RxPackets")' \
	'f("Udp.InDatagrams") == f("Rx.RxPackets")'
run off --ingress off --rules "$R/drop-udp-9.rules"
jcheck "$TMP/off.json" 'f("Ingress.IngressPackets") == 0' \
	'f("Udp.InDatagrams") == f("Rx.RxPackets")'

# 10,000 rules: the generator's traffic hits one near the end.
run acl --ingress rcu --lock-scope burst --rules "$R/acl-10000.rules"
jcheck "$TMP/acl.json" 'd["conservation"]["ok"]' \
	'f("Ingress.IngressMatched") == f("Rx.RxPackets")'

# Rule churn, two workers, alternating drop and mark: both visible.
run churn --main-worker --ingress rcu --rules "$R/drop-udp-9.rules" \
	--rules-alt "$R/mark-udp-9.rules" --update-rate 2000
jcheck "$TMP/churn.json" 'd["conservation"]["ok"]' \
	'f("Ingress.RuleUpdates") > 0' 'f("Ingress.GracePeriods") == f("Ingress.RuleUpdates")' \
	'f("Ingress.IngressDropped") > 0' 'f("Ingress.IngressMarked") > 0' \
	'f("Ingress.IngressDropped") + f("Ingress.IngressMarked") == f("Rx.RxPackets")'

# Live flips by SIGUSR1 under churn, a bad reload kept out by SIGHUP, then
# SIGINT: the final report and JSON are written, exit 0.
cp "$R/drop-udp-9.rules" "$TMP/live.rules"
"$PKTPATH" $(eal live) -- --http 127.0.0.1:0 --duration 0 --main-worker --ingress lock \
	--rules "$TMP/live.rules" --rules-alt "$R/mark-udp-9.rules" --update-rate 500 \
	--quiet --json "$TMP/live.json" > "$TMP/live.out" 2>&1 &
pid=$!
sleep 2
for i in 1 2 3 4 5 6 7 8; do kill -USR1 $pid; sleep 0.15; done
echo "prio x action drop" > "$TMP/live.rules"
kill -HUP $pid
sleep 0.3
kill -INT $pid
wait $pid || { cat "$TMP/live.out"; fail "live run exit $?"; }
grep -q "live.rules:1:" "$TMP/live.out" || { cat "$TMP/live.out"; fail "bad reload not reported with file:line"; }
jcheck "$TMP/live.json" 'd["conservation"]["ok"]' 'f("Ingress.ModeFlips") >= 8' \
	'f("Ingress.RuleUpdates") > 0'

# --compare: the table, the JSON, contention with two workers.
"$PKTPATH" $(eal cmp) -- --http 127.0.0.1:0 --main-worker --compare off,none,lock,rwlock,rcu \
	--duration 0.4 --rounds 2 --phase-warmup 0.1 --rules "$R/match-all.rules" \
	--quiet --json "$TMP/cmp.json" > "$TMP/cmp.out" 2>&1 || { cat "$TMP/cmp.out"; fail "compare"; }
grep -q "dns vs lock" "$TMP/cmp.out" || fail "no compare table"
jcheck "$TMP/cmp.json" 'd["conservation"]["ok"]' \
	'[m["mode"] for m in d["compare"]["modes"]] == ["off", "none", "lock", "rwlock", "rcu"]' \
	'all(m["mpps_median"] > 0 for m in d["compare"]["modes"])' \
	'd["compare"]["modes"][0]["delta_ns_vs_off"] == 0' \
	'all(len(m["lcores"]) == 2 for m in d["compare"]["modes"])' \
	'd["compare"]["modes"][2]["lock_contended"] > 0'

# Bad input.
printf 'default pass\nprio 1 proto udp dport 99999 action drop\n' > "$TMP/bad.rules"
set +e
"$PKTPATH" $(eal bad) -- --http 127.0.0.1:0 --rules "$TMP/bad.rules" > /dev/null 2> "$TMP/bad.err"
rc=$?
"$PKTPATH" $(eal bad2) -- --http 127.0.0.1:0 --ingress none --update-rate 10 > /dev/null 2> "$TMP/bad2.err"
rc2=$?
set -e
[ $rc = 2 ] && grep -q "bad.rules:2:" "$TMP/bad.err" || { cat "$TMP/bad.err"; fail "bad rules"; }
[ $rc2 = 2 ] && grep -q "refused with --ingress none" "$TMP/bad2.err" || { cat "$TMP/bad2.err"; fail "none + churn"; }
echo "ingress: ok"
