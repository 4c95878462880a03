#!/usr/bin/env bash
# --pmu: software events per worker in every output (console, --json with
# its intervals and summary, /stats.json, /metrics through promtool,
# telemetry), the stats thread's and the --fold-on-read readers' fold
# counts, --compare's per-mode table; hardware events refused in one line
# where the machine has no PMU (exit 2, never zeros), and counted where it
# has one (the test says which it did); bad names refused; no --pmu, no
# trace of it. Counts and identities only, no timing threshold: a worker
# that ran has task-clock > 0, and its events per packet are its counts
# over its packets.
. "$(dirname "$0")/lib.sh"

command -v promtool > /dev/null || fail "no promtool: run scripts/setup.sh"
command -v dpdk-telemetry.py > /dev/null || fail "no dpdk-telemetry.py: run scripts/setup.sh"
EV=task-clock,context-switches,page-faults

# ---- software events, live and at the end ------------------------------------
"$PKTPATH" $(eal sw) -- --pmu "$EV" --duration 0 --interval 0.5 --warmup 0.5 \
	--fold-on-read --http 127.0.0.1:0 --json "$TMP/sw.json" > "$TMP/sw.out" 2>&1 &
PIDS+=($!); PKT=$!
http_url sw "$TMP/sw.out" "$PKT"
sleep 2
for i in $(seq 5); do curl -sf "${URL}snmp" > /dev/null || fail "GET /snmp"; done
curl -sf "${URL}metrics" > "$TMP/metrics" || fail "GET /metrics"
curl -sf "${URL}stats.json" > "$TMP/stats.json" || fail "GET /stats.json"
printf '%s\n' /pktpath/pmu /pktpath/pmu,1 /pktpath/pmu,7 > "$TMP/cmds"
dpdk-telemetry.py -f "${PREFIX}_sw" < "$TMP/cmds" > "$TMP/tel" 2>&1 ||
	{ cat "$TMP/tel"; fail "dpdk-telemetry.py"; }
sleep 1
kill -INT "$PKT"
wait "$PKT" || { rc=$?; cat "$TMP/sw.out"; fail "sw: exit $rc"; }

promtool check metrics < "$TMP/metrics" || fail "promtool check metrics"
for e in task-clock context-switches page-faults; do
	grep -q "^pktpath_pmu_events_total{lcore=\"1\",event=\"$e\"} [0-9]" "$TMP/metrics" ||
		fail "/metrics: no pktpath_pmu_events_total of lcore 1, $e"
	grep -q "^pktpath_pmu_fold_events_total{fold=\"read\",event=\"$e\"} " "$TMP/metrics" ||
		fail "/metrics: no read-fold series of $e"
done
grep -q '^pktpath_pmu_running_seconds_total{lcore="1"} ' "$TMP/metrics" || fail "/metrics: running"
grep -q "^pmu: $EV on each worker's thread from its first poll, read each interval" \
	"$TMP/sw.out" || fail "no pmu banner line"
grep -Eq '^  pmu l1: +task-clock [0-9.e+-]+/pkt, context-switches [0-9.e+-]+/pkt, page-faults' \
	"$TMP/sw.out" || { cat "$TMP/sw.out"; fail "no per-interval pmu line"; }
grep -q '^pmu (after the warm-up, per packet):' "$TMP/sw.out" || fail "no summary table"
grep -Eq '^  lcore 1 +[0-9.e+-]+ +[0-9.e+-]+ +[0-9.e+-]+$' "$TMP/sw.out" ||
	{ cat "$TMP/sw.out"; fail "no lcore row in the summary table"; }
grep -Eq "^pmu: the stats thread's scheduled folds \(2 blocks each\): [0-9]+, per fold: task-clock" \
	"$TMP/sw.out" || fail "no stats-thread fold line"
grep -Eq '^pmu: the --fold-on-read folds: [0-9]+, per fold: task-clock' "$TMP/sw.out" ||
	fail "no read-fold line"

python3 - "$TMP/sw.json" "$TMP/stats.json" "$TMP/tel" <<'PY' || fail "sw: see above"
import json, sys
d = json.load(open(sys.argv[1]))
live = json.load(open(sys.argv[2]))
names = ["task-clock", "context-switches", "page-faults"]
bad = []
def expect(ok, what):
    if not ok:
        bad.append(what)
for doc, where in ((d, "--json"), (live, "/stats.json")):
    p = doc.get("pmu")
    expect(p is not None, where + ": no pmu")
    if p is None:
        continue
    expect([e["name"] for e in p["events"]] == names, where + ": events")
    expect(not any(e["hardware"] for e in p["events"]), where + ": hardware?")
    l = p["lcores"][0]
    expect(l["lcore"] == 1 and l["known"] and l["counts"]["task-clock"] > 0,
           where + ": lcore 1's counts")
    iv = l["interval"]
    expect(iv["known"] and iv["packets"] > 0, where + ": lcore 1's interval")
    for e in names:
        expect(abs(iv["per_pkt"][e] * iv["packets"] - iv["counts"][e]) <=
               1e-6 * max(1, iv["counts"][e]), where + ": per_pkt * packets != counts, " + e)
    expect(p["fold"]["scheduled_folds"] > 0 and p["fold"]["scheduled_per_fold"]["known"],
           where + ": stats-thread folds")
    expect(p["fold"]["scheduled_per_fold"]["task-clock"] > 0, where + ": fold task-clock")
expect(live["pmu"]["fold"]["read_folds"] >= 5, "/stats.json: read folds %d" %
       live["pmu"]["fold"]["read_folds"])
expect(live["pmu"]["fold"]["last"]["known"], "/stats.json is a read fold: its own counts")
expect(d["info"]["config"]["pmu"] == ",".join(names), "info.config.pmu")
s = d["summary"]["pmu"]
expect(s["window"] == "after_warmup", "summary window %s" % s["window"])
l = s["lcores"][0]
expect(l["known"] and l["per_pkt"]["task-clock"] > 0 and l["ipc"] is None, "summary lcore 1")
# the summary's counts are the worker's from its begin to its end minus
# the warm-up: no more than its whole counts
expect(l["counts"]["task-clock"] <= d["pmu"]["lcores"][0]["counts"]["task-clock"],
       "summary task-clock above the run's")
ivs = [x for x in d["intervals"] if x["lcores"][0].get("pmu")]
expect(len(ivs) == len(d["intervals"]) and len(ivs) >= 3, "intervals with pmu: %d" % len(ivs))
expect(all(x["lcores"][0]["pmu"]["known"] for x in ivs[1:]), "an interval unknown")
# the intervals add up to the worker's whole count (from its begin on)
tc = sum(x["lcores"][0]["pmu"]["counts"]["task-clock"] or 0 for x in ivs)
expect(tc <= d["pmu"]["lcores"][0]["counts"]["task-clock"], "intervals above the total")
tel = [json.loads(x) for x in open(sys.argv[3]) if x.startswith("{")]
expect(len(tel) == 3, "telemetry: %d replies" % len(tel))
if len(tel) == 3:
    cols, one, none = [list(x.values())[0] for x in tel]
    expect(cols is not None and cols["lcore"] == [1] and
           len(cols["task_clock_per_pkt"]) == 1, "telemetry columns: %s" % cols)
    expect(one is not None and one["lcore"] == 1 and one["known"] == "true" and
           one["task_clock_total"] > 0 and float(one["page_faults_per_pkt"]) >= 0,
           "telemetry lcore 1: %s" % one)
    expect(none is not None and none.get("status") == 404 and
           "no worker" in none.get("error", ""),
           "telemetry: lcore 7 is no worker: %s" % none)
for b in bad:
    print("check failed: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# ---- --compare: the events of each mode ---------------------------------------
"$PKTPATH" $(eal cmp) -- --pmu task-clock --compare off,rcu --rounds 2 --duration 0.4 \
	--interval 0.2 --phase-warmup 0.1 --http off --quiet --json "$TMP/cmp.json" \
	> "$TMP/cmp.out" 2>&1 || { rc=$?; cat "$TMP/cmp.out"; fail "compare: exit $rc"; }
grep -q '^  pmu: events per packet, median of 2 rounds' "$TMP/cmp.out" ||
	{ cat "$TMP/cmp.out"; fail "compare: no pmu table"; }
grep -Eq '^  task-clock +rcu +[0-9.e+-]+ \[.*\]  vs off [+-]' "$TMP/cmp.out" ||
	{ cat "$TMP/cmp.out"; fail "compare: no rcu row against off"; }
jcheck "$TMP/cmp.json" \
	'd["compare"]["modes"][1]["pmu"]["task-clock"]["per_pkt_median"] > 0' \
	'len(d["compare"]["modes"][1]["pmu"]["task-clock"]["rounds_per_pkt"]) == 2' \
	'd["compare"]["modes"][1]["pmu"]["task-clock"]["delta_ci"]["method"] == "paired-t"' \
	'"delta" not in d["compare"]["modes"][0]["pmu"]["task-clock"]' ||
	fail "compare: JSON"

# ---- hardware events: refused here in one line, or counted ----------------------
set +e
"$PKTPATH" $(eal hw) -- --pmu cycles,instructions --duration 1 --interval 0.5 --http off \
	--quiet --json "$TMP/hw.json" > "$TMP/hw.out" 2> "$TMP/hw.err"
rc=$?
set -e
if [ ! -e /sys/bus/event_source/devices/cpu ] && ! ls -d /sys/bus/event_source/devices/cpu_* \
	/sys/bus/event_source/devices/armv* > /dev/null 2>&1; then
	[ "$rc" = 2 ] || { cat "$TMP/hw.out" "$TMP/hw.err"; fail "no PMU: --pmu cycles exited $rc, want 2"; }
	grep -q '^pktpath: --pmu cycles: no hardware PMU: the kernel has no PMU driver here' \
		"$TMP/hw.err" || { cat "$TMP/hw.err"; fail "no PMU: not the PMU line"; }
	[ "$(grep -c . "$TMP/hw.err")" -le 2 ] || { cat "$TMP/hw.err"; fail "more than one line"; }
	grep -q 'summary' "$TMP/hw.out" && fail "no PMU: it ran anyway"
	echo "pmu: the hardware path did not run: this machine has no PMU" \
		"($(grep -o 'no hardware PMU[^:]*' "$TMP/hw.err")); --pmu cycles exits 2 with that line"
elif [ "$rc" = 2 ]; then
	# a PMU, but not for us: the line says which (paranoid, rdpmc, the event)
	grep -Eq '^pktpath: --pmu (cycles|instructions|): .*(perf_event_paranoid|rdpmc|does not count)' \
		"$TMP/hw.err" || { cat "$TMP/hw.err"; fail "PMU refused without its reason"; }
	echo "pmu: the hardware path did not run: $(grep -- '--pmu' "$TMP/hw.err")"
else
	[ "$rc" = 0 ] || { cat "$TMP/hw.out" "$TMP/hw.err"; fail "hw: exit $rc"; }
	jcheck "$TMP/hw.json" 'd["pmu"]["lcores"][0]["known"]' \
		'd["summary"]["pmu"]["lcores"][0]["per_pkt"]["instructions"] > 0' \
		'd["summary"]["pmu"]["lcores"][0]["ipc"] > 0' || fail "hw: counts"
	echo "pmu: the hardware path ran: IPC $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["pmu"]["lcores"][0]["ipc"])' "$TMP/hw.json")"
fi

# ---- refusals and their absence ---------------------------------------------------
for bad in cycels "cycles,cpu-cycles" "" "task-clock,"; do
	set +e
	"$PKTPATH" $(eal bad) -- --pmu "$bad" --duration 0.2 --http off > "$TMP/bad.out" 2>&1
	rc=$?
	set -e
	[ "$rc" = 2 ] || { cat "$TMP/bad.out"; fail "--pmu '$bad': exit $rc, want 2"; }
	grep -q "^pktpath: --pmu: " "$TMP/bad.out" || { cat "$TMP/bad.out"; fail "--pmu '$bad': no line"; }
done
"$PKTPATH" $(eal off) -- --pmu off --duration 0.5 --interval 0.25 --http 127.0.0.1:0 \
	--json "$TMP/off.json" > "$TMP/off.out" 2>&1 || { rc=$?; cat "$TMP/off.out"; fail "off: exit $rc"; }
grep -Eq '^pmu|pmu l1' "$TMP/off.out" && fail "--pmu off: a pmu line"
jcheck "$TMP/off.json" '"pmu" not in d' '"pmu" not in d["summary"]' \
	'd["info"]["config"]["pmu"] is None' '"pmu" not in d["intervals"][0]["lcores"][0]' ||
	fail "--pmu off: JSON"
echo "pmu: software events in every output; hardware refused or counted; ok"
