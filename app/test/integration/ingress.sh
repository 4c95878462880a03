#!/usr/bin/env bash
# The ingress hook in the real binary: verdicts, every guard mode, rule
# churn, live flips by signal, reloads, --compare, bad rules files.
. "$(dirname "$0")/lib.sh"
R=${SOURCE_DIR:?}/config/rules

run() { # run NAME ARGS...
	local name=$1; shift
	"$PKTPATH" $(eal "$name") -- --http 127.0.0.1:0 --duration 1.2 --warmup 0.3 --interval 0.3 \
		--quiet --json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 ||
		{ rc=$?; cat "$TMP/$name.out"; fail "$name: exit $rc"; }
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
# Each flip is logged ("ingress mode NAME"); the next SIGUSR1 waits for it,
# since signals sent while the control loop is held (a grace period under the
# lock, on a loaded machine) merge into one flip, as pending signals do.
for i in 1 2 3 4 5 6 7 8; do
	n=$(grep -c "ingress mode " "$TMP/live.out" || true)
	kill -USR1 $pid
	for k in $(seq 300); do
		[ "$(grep -c "ingress mode " "$TMP/live.out" || true)" -gt "$n" ] && break
		sleep 0.1
	done
done
echo "prio x action drop" > "$TMP/live.rules"
kill -HUP $pid
# Until the reload is refused (a flip under the lock can hold the control
# loop for a grace period: on a loaded machine, over a second), at most 30 s.
for i in $(seq 300); do grep -q "live.rules:1:" "$TMP/live.out" && break; sleep 0.1; done
kill -INT $pid
wait $pid || { rc=$?; cat "$TMP/live.out"; fail "live run exit $rc"; }
grep -q "live.rules:1:" "$TMP/live.out" || { cat "$TMP/live.out"; fail "bad reload not reported with file:line"; }
# Every packet and cycle is counted in the mode in force: the Mode group
# adds up to the Rx counters, per worker too, and the flips visited every
# mode but none (skipped under churn).
jcheck "$TMP/live.json" 'd["conservation"]["ok"]' 'f("Ingress.ModeFlips") >= 8' \
	'f("Ingress.RuleUpdates") > 0' \
	'all(sum(l["mib"]["Mode"]["Mode%s%s" % (m, k)] for m in ("Off", "None", "Lock", "Rwlock", "Rcu")) == l["mib"]["Rx"][r] for l in d["lcores"] for k, r in (("Packets", "RxPackets"), ("BusyCycles", "BusyCycles"), ("IdleCycles", "IdleCycles"), ("LostCycles", "LostCycles")))' \
	'f("Mode.ModeNonePackets") == 0' \
	'all(f("Mode.Mode%sPackets" % m) > 0 for m in ("Off", "Lock", "Rwlock", "Rcu"))'

# Reloads under churn: the updater goes on with the rules last installed.
# A = drop, B = count (matched, passed, unmarked), 200 updates a second.
# SIGHUP with A's file now a mark ruleset: from then on nothing may be
# dropped (exactly: rcu's grace period makes the old A's last burst counted
# before the reload returns), marks and B's counts go on. Then POST
# /ingress/rules with the drop rules: no mark any more, drops and B again.
# With the old behaviour the updater put the start-up A back within 5 ms.
cp "$R/drop-udp-9.rules" "$TMP/reload.rules"
printf 'default pass\nprio 1 action count\n' > "$TMP/count.rules"
"$PKTPATH" $(eal reload) -- --http 127.0.0.1:0 --http-control --duration 0 --ingress rcu \
	--rules "$TMP/reload.rules" --rules-alt "$TMP/count.rules" --update-rate 200 \
	--interval 0.1 --quiet --json "$TMP/reload.json" > "$TMP/reload.out" 2>&1 &
pid=$!
http_url reload "$TMP/reload.out" "$pid"
python3 - "$URL" "$TMP" "$pid" "$R" <<'PY' || { kill -9 $pid; cat "$TMP/reload.out"; fail "reload under churn"; }
import json, os, signal, sys, time, urllib.request
url, tmp, pid, rules = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def get():
    with urllib.request.urlopen(url + "stats.json", timeout=10) as r:
        return json.loads(r.read())
def after(seq):   # a snapshot folded after seq (and so after what came before)
    for _ in range(200):
        d = get()
        if d["seq"] >= seq + 2:
            return d
        time.sleep(0.05)
    sys.exit("no new snapshot after seq %d" % seq)
def delta(a, b, k):
    return b["mib"]["Ingress"][k] - a["mib"]["Ingress"][k]
def window(what, drop, mark):
    # At least a second, and on until every ruleset that should be seen
    # was (a loaded machine may starve the worker for a while): then the
    # one that must not be seen must have counted nothing.
    a = after(get()["seq"])
    t0 = time.time()
    while True:
        time.sleep(0.2)
        b = after(a["seq"])
        d, m = delta(a, b, "IngressDropped"), delta(a, b, "IngressMarked")
        cnt = delta(a, b, "IngressMatched") - d - m      # B's matches
        u = delta(a, b, "RuleUpdates")
        seen = u > 1 and cnt > 0 and (d > 0 or not drop) and (m > 0 or not mark)
        if time.time() - t0 >= 1.0 and seen or time.time() - t0 > 60:
            break
    print("ingress: %s: dropped %d, marked %d, counted %d, %d updates" % (what, d, m, cnt, u))
    assert u > 0, "no update in the window"
    assert cnt > 0, "B is not churned any more"
    assert (d > 0) == drop and (m > 0) == mark, what
for _ in range(600):   # traffic and churn first
    d0 = get()
    if d0["mib"]["Rx"]["RxPackets"] > 0 and d0["mib"]["Ingress"]["RuleUpdates"] > 0:
        break
    time.sleep(0.1)
window("start-up rules", True, False)
with open(os.path.join(tmp, "reload.rules"), "w") as f:
    f.write(open(os.path.join(rules, "mark-udp-9.rules")).read())
os.kill(pid, signal.SIGHUP)
for _ in range(200):
    if "SIGHUP: --rules reloaded" in open(os.path.join(tmp, "reload.out")).read():
        break
    time.sleep(0.05)
else:
    sys.exit("SIGHUP: no 'reloaded' line")
window("after SIGHUP", False, True)
body = open(os.path.join(rules, "drop-udp-9.rules"), "rb").read()
req = urllib.request.Request(url + "ingress/rules", data=body, method="POST")
with urllib.request.urlopen(req, timeout=30) as r:
    assert r.status == 200, r.status
window("after POST /ingress/rules", True, False)
PY
kill -INT $pid
wait $pid || { rc=$?; cat "$TMP/reload.out"; fail "reload run exit $rc"; }
# "stopped after N replaces" counts every run of the updater: three runs
# here (start, SIGHUP, POST), and the total is the JSON's and RuleUpdates
# less the two reloads.
grep -q "updater: run 3 stopped after [0-9]* replaces ([0-9]* over 3 runs)" "$TMP/reload.out" ||
	{ cat "$TMP/reload.out"; fail "no 'run 3 stopped' line"; }
total=$(sed -n 's/.*updater: run 3 stopped after [0-9]* replaces (\([0-9]*\) over 3 runs).*/\1/p' "$TMP/reload.out")
jcheck "$TMP/reload.json" 'd["conservation"]["ok"]' "d[\"ingress\"][\"updates\"] == $total" \
	'd["ingress"]["updater_runs"] == 3' "f(\"Ingress.RuleUpdates\") == $total + 2" \
	'd["ingress"]["kind"] == "rules" and d["ingress"]["rules"] in (1, 2)'

# --compare owns the mode and the rules: SIGUSR1 and SIGHUP are refused with
# a log line, POST /ingress/mode and /ingress/rules with 409 and the reason,
# a clear during a phase changes nothing; every phase's packets were counted
# in its own mode only, and ModeFlips is the phases' flips alone.
"$PKTPATH" $(eal cmpx) -- --http 127.0.0.1:0 --http-control --compare off,lock,rcu \
	--duration 0.6 --rounds 2 --phase-warmup 0.1 --rules "$R/match-all.rules" \
	--quiet --json "$TMP/cmpx.json" > "$TMP/cmpx.out" 2>&1 &
pid=$!
http_url compare "$TMP/cmpx.out" "$pid"
for i in $(seq 100); do grep -q "round 1 off" "$TMP/cmpx.out" && break; sleep 0.05; done
kill -USR1 $pid
kill -HUP $pid
code=$(curl -s -o "$TMP/cmpx.body" -w '%{http_code}' -d mode=none "${URL}ingress/mode")
[ "$code" = 409 ] && grep -qx "mode none: --compare is running: its phases own the mode and the rules until the table is printed" "$TMP/cmpx.body" ||
	{ cat "$TMP/cmpx.body"; fail "POST /ingress/mode during --compare: HTTP $code"; }
code=$(curl -s -o "$TMP/cmpx.body" -w '%{http_code}' --data-binary @"$R/drop-udp-9.rules" "${URL}ingress/rules")
[ "$code" = 409 ] && grep -qx "rules: --compare is running: its phases own the mode and the rules until the table is printed" "$TMP/cmpx.body" ||
	{ cat "$TMP/cmpx.body"; fail "POST /ingress/rules during --compare: HTTP $code"; }
curl -sf -X POST "${URL}stats/clear" > /dev/null || fail "clear during --compare"
wait $pid || { rc=$?; cat "$TMP/cmpx.out"; fail "compare run exit $rc"; }
grep -Eq "SIGUSR1 from pid [0-9]+: refused: --compare is running" "$TMP/cmpx.out" || { cat "$TMP/cmpx.out"; fail "no SIGUSR1 refusal line"; }
grep -q "SIGHUP: refused: --compare is running" "$TMP/cmpx.out" || { cat "$TMP/cmpx.out"; fail "no SIGHUP refusal line"; }
grep -q "dns vs off" "$TMP/cmpx.out" || { cat "$TMP/cmpx.out"; fail "no table"; }
grep -q "counted in another mode" "$TMP/cmpx.out" && { cat "$TMP/cmpx.out"; fail "a phase was mixed"; }
jcheck "$TMP/cmpx.json" 'd["conservation"]["ok"]' \
	'[m["mode"] for m in d["compare"]["modes"]] == ["off", "lock", "rcu"]' \
	'all(m["mpps_min"] > 0 for m in d["compare"]["modes"])' \
	'f("Ingress.ModeFlips") <= 6' \
	'f("Mode.ModeNonePackets") == 0 and f("Mode.ModeRwlockPackets") == 0' \
	'f("Mode.ModeLockPackets") > 0 and f("Mode.ModeRcuPackets") > 0' \
	'f("Ingress.IngressDropped") == 0'

# --compare: the table, the JSON, contention with two workers.
"$PKTPATH" $(eal cmp) -- --http 127.0.0.1:0 --main-worker --compare off,none,lock,rwlock,rcu \
	--duration 0.4 --rounds 2 --phase-warmup 0.1 --rules "$R/match-all.rules" \
	--quiet --json "$TMP/cmp.json" > "$TMP/cmp.out" 2>&1 || { cat "$TMP/cmp.out"; fail "compare"; }
grep -q "dns vs off" "$TMP/cmp.out" || fail "no compare table"
jcheck "$TMP/cmp.json" 'd["conservation"]["ok"]' \
	'[m["mode"] for m in d["compare"]["modes"]] == ["off", "none", "lock", "rwlock", "rcu"]' \
	'all(m["mpps_median"] > 0 for m in d["compare"]["modes"])' \
	'd["compare"]["modes"][0]["delta_ns"] == 0 and len(d["compare"]["pairs"]) == 10' \
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

# A rules file over the 16 MiB cap is refused before it is read (a sparse
# 2 GB file: reading it took 12 s before).
truncate -s 2G "$TMP/huge.rules"
set +e
"$PKTPATH" $(eal huge) -- --http 127.0.0.1:0 --rules "$TMP/huge.rules" > /dev/null 2> "$TMP/huge.err"
rc=$?
set -e
[ $rc = 2 ] && [ "$(grep -v '^EAL:\|^TELEMETRY:' "$TMP/huge.err" | grep -c .)" = 1 ] &&
	grep -qF -- "--rules $TMP/huge.rules: 2147483648 bytes, over the limit of 16 MiB (a rules file has at most 65536 rules)" "$TMP/huge.err" ||
	{ cat "$TMP/huge.err"; fail "2 GB rules file: exit $rc"; }
rm -f "$TMP/huge.rules"

# gen-rules.py writes only what pktpath accepts: at most 65536 rules, and
# priorities within 0..65535 up to the last one (65526 rules and more used
# to run past 65535). The top 16 of the biggest set go through pktpath's
# own parser (the linear walk: no rte_acl build of 65536 rules here).
GEN=${SOURCE_DIR}/scripts/gen-rules.py
set +e
"$GEN" --count 65537 > /dev/null 2> "$TMP/gen.err"
rc=$?
set -e
[ $rc = 2 ] && grep -q -- "--count 65537: pktpath accepts 1..65536 rules (priorities 0..65535)" "$TMP/gen.err" ||
	{ cat "$TMP/gen.err"; fail "gen-rules.py --count 65537: exit $rc"; }
for count in 65526 65527 65536; do
	"$GEN" --count $count -o "$TMP/gen.rules"
	python3 - "$TMP/gen.rules" $count <<'PY' || fail "gen-rules.py --count $count"
import re, sys
prios = [int(m.group(1)) for l in open(sys.argv[1]) for m in [re.match(r"prio (\d+) ", l)] if m]
assert len(prios) == int(sys.argv[2]), len(prios)
assert 0 <= min(prios) and max(prios) <= 65535, (min(prios), max(prios))
assert prios == sorted(prios) and len(set(prios)) == len(prios), "not strictly increasing"
PY
done
{ echo "default pass"; grep '^prio' "$TMP/gen.rules" | tail -16; } > "$TMP/gen16.rules"
run gen16 --ingress rcu --rules "$TMP/gen16.rules"
jcheck "$TMP/gen16.json" 'd["ingress"]["rules"] == 16' 'd["conservation"]["ok"]'
rm -f "$TMP/gen.rules"
[ $rc2 = 2 ] && grep -q "refused with --ingress none" "$TMP/bad2.err" || { cat "$TMP/bad2.err"; fail "none + churn"; }
echo "ingress: ok"
