#!/usr/bin/env bash
# --pmu with --stage-cycles: each worker's events per stage of its bursts
# (software events here: read(2) at each mark, said in one line) in --json
# (since start, the last interval, the summary), /stats.json and /metrics
# (promtool), the console's table, and per variant in --compare; neither
# option alone shows a trace of it, and neither leaves its own loop variant.
# Counts only, no timing threshold: the stages' task-clock and context
# switches add up to no more than the lcore's own, exactly since start (the
# worker stores its stage events before the fold reads its group) and over
# the last interval (a stage's events are stored at most 32 polls before
# the fold that reads the group, while the stages leave out every poll's
# top of the loop and its empty polls: several per cent of the task-clock,
# against the events of 32 polls in a 0.5 s interval). The --json's
# interval records carry no stages (as for the stage cycles): the last
# interval is the document's and /stats.json's.
. "$(dirname "$0")/lib.sh"

command -v promtool > /dev/null || fail "no promtool: run scripts/setup.sh"
EV=task-clock,context-switches

"$PKTPATH" $(eal sp) -- --pmu "$EV" --stage-cycles --duration 0 --interval 0.5 \
	--warmup 0.5 --http 127.0.0.1:0 --json "$TMP/sp.json" > "$TMP/sp.out" 2>&1 &
PIDS+=($!); PKT=$!
http_url sp "$TMP/sp.out" "$PKT"
sleep 2
curl -sf "${URL}metrics" > "$TMP/metrics" || fail "GET /metrics"
curl -sf "${URL}stats.json" > "$TMP/stats.json" || fail "GET /stats.json"
sleep 0.5
kill -INT "$PKT"
wait "$PKT" || { rc=$?; cat "$TMP/sp.out"; fail "sp: exit $rc"; }

promtool check metrics < "$TMP/metrics" || fail "promtool check metrics"
grep -q '^# TYPE pktpath_pmu_stage_events_total counter' "$TMP/metrics" ||
	fail "/metrics: no pktpath_pmu_stage_events_total family"
for st in rx l2 ip free; do
	for e in task-clock context-switches; do
		grep -Eq "^pktpath_pmu_stage_events_total\{lcore=\"1\",stage=\"$st\",event=\"$e\"\} [0-9]+$" \
			"$TMP/metrics" || fail "/metrics: no $st $e of lcore 1"
	done
done
grep -q 'stage="ingress"' "$TMP/metrics" && fail "/metrics: a stage that did not run"
grep -q '^pmu: per stage (--stage-cycles): task-clock is a software event, which rdpmc cannot read: every stage mark reads the group with read(2)' \
	"$TMP/sp.out" || { cat "$TMP/sp.out"; fail "no read(2) line at start"; }
grep -q '^pmu per stage (after the warm-up, per packet that entered the stage' "$TMP/sp.out" ||
	{ cat "$TMP/sp.out"; fail "no per-stage summary table"; }
grep -Eq '^    ip +[0-9]+ +[0-9.e+-]+ +[0-9.e+-]+$' "$TMP/sp.out" ||
	{ cat "$TMP/sp.out"; fail "no ip row in the per-stage table"; }

python3 - "$TMP/sp.json" "$TMP/stats.json" <<'PY' || fail "sp: see above"
import json, sys
d = json.load(open(sys.argv[1]))
live = json.load(open(sys.argv[2]))
names = ["task-clock", "context-switches"]
stages = ["rx", "l2", "ip", "free"]
bad = []
def expect(ok, what):
    if not ok:
        bad.append(what)
def table(rows, where, packets=None):
    expect([r["stage"] for r in rows] == stages, "%s: stages %s" % (where, [r["stage"] for r in rows]))
    for r in rows:
        expect(r["known"], where + ": " + r["stage"] + " unknown")
        for e in names:
            c = r["counts"][e]
            expect(c is not None and c >= 0, "%s: %s %s count %s" % (where, r["stage"], e, c))
            if r["packets"]:
                expect(abs(r["per_pkt"][e] * r["packets"] - c) <= 1e-6 * max(1, c),
                       "%s: %s per_pkt * packets != counts" % (where, r["stage"]))
    return {e: sum(r["counts"][e] for r in rows) for e in names}
expect(d["info"]["config"]["loop"] == "generic", "loop %s" % d["info"]["config"]["loop"])
for doc, where in ((d, "--json"), (live, "/stats.json")):
    l = doc["lcores"][0]
    s = table(l.get("pmu_stages", []), where + " lcore 1")
    tot = doc["pmu"]["lcores"][0]["counts"]
    expect(s["task-clock"] > 0, where + ": no stage task-clock")
    # each stage's own: every stage ends with a read of the group (a
    # read(2) with software events), so each has task-clock of its own;
    # a mark that credits its neighbour, or a read left out, leaves one 0
    for r in l.get("pmu_stages", []):
        expect(r["counts"]["task-clock"] > 0, "%s: %s has no task-clock" % (where, r["stage"]))
    for e in names:
        expect(s[e] <= tot[e], "%s: stages' %s %s above the lcore's %s" % (where, e, s[e], tot[e]))
    # the stages' packets are the Stage group's
    for r in l["pmu_stages"]:
        st = {x["stage"]: x for x in l["stages"]["stages"]}
        expect(r["packets"] == st[r["stage"]]["packets"],
               "%s: %s packets %d, Stage group %d" % (where, r["stage"], r["packets"], st[r["stage"]]["packets"]))
    table(doc.get("pmu_stages", []), where + " total")
    for rows, iv, w in ((l.get("interval_pmu_stages", []), doc["pmu"]["lcores"][0]["interval"], "lcore 1"),
                        (doc.get("interval_pmu_stages", []), doc["pmu"]["interval"], "total")):
        s = table(rows, where + " interval " + w)
        expect(iv["known"], where + ": interval unknown")
        for e in names:
            expect(s[e] <= iv["counts"][e], "%s: interval's stages' %s %s above the %s's %s"
                   % (where, e, s[e], w, iv["counts"][e]))
sm = d["summary"]["pmu_stages"]
expect(sm["window"] == "after_warmup", "summary window")
s = table(sm["lcores"][0]["stages"], "summary lcore 1")
expect(s["task-clock"] <= d["summary"]["pmu"]["lcores"][0]["counts"]["task-clock"],
       "summary: stages' task-clock above the lcore's")
for b in bad:
    print("check failed: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# ---- either option alone: no trace; the default loop -------------------------------
"$PKTPATH" $(eal st) -- --stage-cycles --duration 0.5 --interval 0.25 --http off --quiet \
	--json "$TMP/st.json" > "$TMP/st.out" 2>&1 || { rc=$?; cat "$TMP/st.out"; fail "st: exit $rc"; }
jcheck "$TMP/st.json" 'd["info"]["config"]["loop"] == "full-prefetch-stages"' \
	'"pmu_stages" not in d' '"pmu_stages" not in d["lcores"][0]' || fail "--stage-cycles alone"
"$PKTPATH" $(eal pm) -- --pmu task-clock --duration 0.5 --interval 0.25 --http off --quiet \
	--json "$TMP/pm.json" > "$TMP/pm.out" 2>&1 || { rc=$?; cat "$TMP/pm.out"; fail "pm: exit $rc"; }
jcheck "$TMP/pm.json" 'd["info"]["config"]["loop"] == "full-prefetch"' \
	'"pmu_stages" not in d' '"pmu_stages" not in d["summary"]' || fail "--pmu alone"
grep -q 'per stage' "$TMP/pm.out" && fail "--pmu alone: a per-stage line"

# ---- --compare: each variant's events per stage -------------------------------------
"$PKTPATH" $(eal cmp) -- --pmu task-clock --stage-cycles --compare off,rcu --rounds 2 \
	--duration 0.4 --interval 0.2 --phase-warmup 0.1 --http off --quiet \
	--json "$TMP/cmp.json" > "$TMP/cmp.out" 2>&1 || { rc=$?; cat "$TMP/cmp.out"; fail "compare: exit $rc"; }
grep -Eq '^  ip: task-clock +rcu +[0-9.e+-]+ \[.*\]  vs off [+-]' "$TMP/cmp.out" ||
	{ cat "$TMP/cmp.out"; fail "compare: no ip stage row of rcu against off"; }
grep -Eq '^  ingress: task-clock +rcu +[0-9.e+-]+ \[' "$TMP/cmp.out" ||
	{ cat "$TMP/cmp.out"; fail "compare: no ingress stage row of rcu"; }
jcheck "$TMP/cmp.json" \
	'd["compare"]["modes"][1]["pmu_stages"]["ip"]["task-clock"]["per_pkt_median"] > 0' \
	'len(d["compare"]["modes"][1]["pmu_stages"]["rx"]["task-clock"]["rounds_per_pkt"]) == 2' \
	'd["compare"]["modes"][1]["pmu_stages"]["ip"]["task-clock"]["delta_ci"]["method"] == "paired-t"' \
	'all(sorted(m["pmu_stages"]) == sorted(["rx", "l2", "ingress", "ip", "free"]) for m in d["compare"]["modes"])' ||
	fail "compare: JSON"
echo "stagepmu: events per stage in every output, per variant in --compare; ok"
