#!/usr/bin/env bash
# Confidence and pictures (issue 15): a short --compare (two rounds: paired
# t; one round: Welch) and a short run with rule churn, each with --json;
# the JSON carries the intervals, their samples, the events and the steady
# state; then scripts/plot.py draws each kind from them, several files on
# one picture, and every SVG parses with the expected number of series.
# Structure only: no figure is compared with a threshold.
. "$(dirname "$0")/lib.sh"
PLOT="$SOURCE_DIR/scripts/plot.py"
/usr/bin/python3 -c "import matplotlib" 2>/dev/null ||
	fail "python3-matplotlib is missing: scripts/setup.sh installs it"

# --compare, 2 rounds of 2 modes, 4 intervals per phase (at least 4)
"$PKTPATH" $(eal cmp2) -- --http off --compare off,rcu --rounds 2 --duration 0.4 \
	--phase-warmup 0.1 --interval 0.2 --quiet --json "$TMP/cmp2.json" \
	> "$TMP/cmp2.out" 2>&1 || { cat "$TMP/cmp2.out"; fail "compare, 2 rounds"; }
grep -q "^  every pair, b - a, 95% confidence intervals: paired t over 2 rounds (1 df)$" "$TMP/cmp2.out" ||
	{ cat "$TMP/cmp2.out"; fail "no interval header (paired t)"; }
grep -Eq "^  rcu +off +[-+][0-9.]+ +\[ *[-+][0-9.]+, +[-+][0-9.]+\] (within noise|slower|faster) +[-+][0-9.]+ +\[ *[-+][0-9.]+, +[-+][0-9.]+\] (within noise|slower|faster)$" \
	"$TMP/cmp2.out" || { cat "$TMP/cmp2.out"; fail "no rcu vs off interval line"; }
jcheck "$TMP/cmp2.json" \
	'd["compare"]["ci_method"] == "paired-t" and d["compare"]["ci_level"] == 0.95' \
	'd["compare"]["intervals_per_phase"] == 4' \
	'all(len(m["rounds_ns"]) == 2 for m in d["compare"]["modes"])' \
	'all(len(m["rounds_intervals_mpps"]) == 2 and all(len(r) == 4 for r in m["rounds_intervals_mpps"]) for m in d["compare"]["modes"])' \
	'd["compare"]["modes"][0]["delta_ns"] == 0' \
	'd["compare"]["modes"][0]["delta_ns_ci"] is None' \
	'd["compare"]["modes"][1]["delta_ns_ci"]["method"] == "paired-t"' \
	'd["compare"]["modes"][1]["delta_ns_ci"]["df"] == 1' \
	'(lambda c: c["lo"] <= c["estimate"] <= c["hi"])(d["compare"]["modes"][1]["delta_ns_ci"])' \
	'(lambda c: c["verdict"] == ("within noise" if c["lo"] <= 0 <= c["hi"] else "slower" if c["lo"] > 0 else "faster"))(d["compare"]["modes"][1]["delta_ns_ci"])' \
	'(lambda m: abs(sum(a - b for a, b in zip(m[1]["rounds_ns"], m[0]["rounds_ns"])) / 2 - m[1]["delta_ns"]) < 1e-9 * max(1, abs(m[1]["delta_ns"])))(d["compare"]["modes"])' \
	'd["compare"]["baseline"] == "off" and [(p["a"], p["b"]) for p in d["compare"]["pairs"]] == [("off", "rcu")]' \
	'd["compare"]["pairs"][0]["ns"] == d["compare"]["modes"][1]["delta_ns_ci"]' \
	'"steady_state" not in d["summary"]' \
	'sum(1 for e in d["events"] if e["kind"] == "mode-flip") >= 1' \
	'len(d["intervals"]) >= 1'

# one round: Welch over the intervals of each phase
"$PKTPATH" $(eal cmp1) -- --http off --compare off,lock,rcu --rounds 1 --duration 0.4 \
	--phase-warmup 0.1 --interval 0.2 --quiet --json "$TMP/cmp1.json" \
	> "$TMP/cmp1.out" 2>&1 || { cat "$TMP/cmp1.out"; fail "compare, 1 round"; }
grep -q "^  every pair, b - a, 95% confidence intervals: Welch t over the 4 intervals of each phase" "$TMP/cmp1.out" ||
	{ cat "$TMP/cmp1.out"; fail "no interval header (Welch)"; }
jcheck "$TMP/cmp1.json" 'd["compare"]["ci_method"] == "welch"' \
	'd["compare"]["modes"][0]["delta_ns_ci"] is None' \
	'all(m["delta_ns_ci"]["method"] == "welch" for m in d["compare"]["modes"][1:])' \
	'all(2 <= m["delta_ns_ci"]["n"] <= 8 for m in d["compare"]["modes"][1:])' \
	'(lambda m: abs(m[1]["delta_ns"] - (m[1]["rounds_ns"][0] - m[0]["rounds_ns"][0])) < 1e-9 * max(1, abs(m[1]["delta_ns"])))(d["compare"]["modes"])' \
	'[(p["a"], p["b"]) for p in d["compare"]["pairs"]] == [("off", "lock"), ("off", "rcu"), ("lock", "rcu")]' \
	'all(p["ns"]["method"] == "welch" and p["cycles"]["method"] == "welch" for p in d["compare"]["pairs"])'

# a run: two workers, rule churn, warm-up detected (--lost-share 100: a
# preempted worker must not take the steady state away here; lost.sh)
"$PKTPATH" $(eal run) -- --http off --main-worker --duration 1.2 --interval 0.1 \
	--ingress rcu --update-rate 50 --lost-share 100 --quiet --json "$TMP/run.json" \
	> "$TMP/run.out" 2>&1 || { cat "$TMP/run.out"; fail "run"; }
grep -Eq "^steady state: from [0-9.]+ s \((warm-up detected: interval [0-9]+ of [0-9]+\)(; at the search limit \(half the run\): the rate never settled)?|no warm-up detected in [0-9]+ intervals\))$" "$TMP/run.out" ||
	{ cat "$TMP/run.out"; fail "no detected steady state line"; }
grep -Eq "^spread: [0-9]+ intervals, Mpps min [0-9.]+ median [0-9.]+ max [0-9.]+, CV [0-9.]+% (UNSTABLE: above|steady: at most) 5.0%" "$TMP/run.out" ||
	{ cat "$TMP/run.out"; fail "no spread line"; }
jcheck "$TMP/run.json" 'd["info"]["config"]["warmup_s"] == "auto"' \
	'd["summary"]["steady_state"]["warmup"] == "auto" and d["summary"]["steady_state"]["detected"]' \
	'd["summary"]["steady_state"]["intervals"] == len(d["intervals"]) >= 4' \
	'd["summary"]["steady_state"]["first_interval"] <= len(d["intervals"]) // 2' \
	'd["summary"]["steady_state"]["at_limit"] == (0 < d["summary"]["steady_state"]["first_interval"] == len(d["intervals"]) // 2)' \
	'd["summary"]["steady_state"]["start_s"] == d["intervals"][d["summary"]["steady_state"]["first_interval"]]["t0_s"]' \
	'(lambda s: s["min"] <= s["median"] <= s["max"] and s["n"] == len(d["intervals"]) - d["summary"]["steady_state"]["first_interval"])(d["summary"]["steady_state"]["spread_mpps"])' \
	'd["summary"]["steady_state"]["unstable"] == (d["summary"]["steady_state"]["spread_mpps"]["cv"] > 0.05 and d["summary"]["steady_state"]["spread_mpps"]["n"] >= 3)' \
	'd["summary"]["steady"] is not None' \
	'all(len(i["lcores"]) == 2 for i in d["intervals"])' \
	'all(abs(i["mpps"] - sum(l["mpps"] for l in i["lcores"])) < 1e-6 * max(1, i["mpps"]) for i in d["intervals"])' \
	'all(i["mode"] in ("rcu", None) for i in d["intervals"]) and any(i["mode"] == "rcu" for i in d["intervals"])' \
	'sum(i["rule_updates"] for i in d["intervals"]) == sum(e["count"] for e in d["events"] if e["kind"] == "rule-updates") > 0' \
	'not any(e["kind"] == "mode-flip" for e in d["events"])'

# --warmup SECONDS: the override, no detection
"$PKTPATH" $(eal expl) -- --http off --duration 0.6 --interval 0.1 --warmup 0.2 --quiet \
	--lost-share 100 \
	--json "$TMP/expl.json" > "$TMP/expl.out" 2>&1 || { cat "$TMP/expl.out"; fail "explicit warm-up"; }
grep -Eq "^steady state: from 0\.[0-9]+ s \(--warmup\)" "$TMP/expl.out" || { cat "$TMP/expl.out"; fail "no --warmup line"; }
jcheck "$TMP/expl.json" 'd["summary"]["steady_state"]["warmup"] == "explicit"' \
	'not d["summary"]["steady_state"]["detected"]' 'd["info"]["config"]["warmup_s"] == 0.2'

# The series of an SVG: distinct ids before the "/" (scripts/plot.py).
series() { # series SVG PREFIX: how many series whose id starts with PREFIX
	/usr/bin/python3 - "$1" "$2" <<'PY'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
ids = {e.get("id").split("/")[0] for e in root.iter()
       if (e.get("id") or "").startswith(sys.argv[2])}
print(len(ids))
PY
}
elements() { # elements SVG PREFIX: how many elements
	/usr/bin/python3 - "$1" "$2" <<'PY'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
print(sum(1 for e in root.iter() if (e.get("id") or "").startswith(sys.argv[2])))
PY
}

# compare: two files, one series of bars (one per mode) and one of
# intervals each; no stage panel (run without --stage-cycles: no stages)
"$PLOT" "$TMP/cmp2.json" "$TMP/cmp1.json" --label "2 rounds" --label "1 round" \
	-o "$TMP/cmp.svg" || fail "plot compare"
[ "$(series "$TMP/cmp.svg" series-ns-)" = 2 ] || fail "compare: ns series $(series "$TMP/cmp.svg" series-ns-)"
[ "$(series "$TMP/cmp.svg" series-delta-)" = 2 ] || fail "compare: delta series"
[ "$(elements "$TMP/cmp.svg" series-ns-0/)" = 3 ] || fail "compare: bars of file 1 (3 modes in all)"
[ "$(series "$TMP/cmp.svg" series-stages-)" = 0 ] || fail "compare: stages without data"

# per-stage stacked bars: drawn from compare.modes[].stages when a JSON
# has them (pktpath writes them with --stage-cycles, see stages.sh; here
# added by hand, so that the count of series is known)
/usr/bin/python3 - "$TMP/cmp2.json" "$TMP/stages.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for m in d["compare"]["modes"]:
    m["stages"] = {"rx": 10.0, "parse": 5.0, "ingress": 2.0}
json.dump(d, open(sys.argv[2], "w"))
PY
"$PLOT" "$TMP/stages.json" -o "$TMP/stages.svg" || fail "plot compare with stages"
[ "$(series "$TMP/stages.svg" series-stages-0-)" = 3 ] || fail "compare: stage series"
[ "$(elements "$TMP/stages.svg" series-stages-0-0/)" = 2 ] || fail "compare: a stage's bars (2 modes)"

# timeseries: the run (2 lcores) and the compare run (1 lcore), totals
"$PLOT" "$TMP/run.json" "$TMP/cmp2.json" --kind timeseries --total -o "$TMP/ts.svg" ||
	fail "plot timeseries"
[ "$(series "$TMP/ts.svg" series-mpps-0-)" = 3 ] || fail "timeseries: run series $(series "$TMP/ts.svg" series-mpps-0-)"
[ "$(series "$TMP/ts.svg" series-mpps-1-)" = 2 ] || fail "timeseries: compare series"
flips=$(/usr/bin/python3 -c 'import json,sys; print(sum(1 for e in json.load(open(sys.argv[1]))["events"] if e["kind"] == "mode-flip"))' "$TMP/cmp2.json")
rules=$(/usr/bin/python3 -c 'import json,sys; print(sum(1 for e in json.load(open(sys.argv[1]))["events"] if e["kind"] == "rule-updates"))' "$TMP/run.json")
[ "$(elements "$TMP/ts.svg" events-mode-1/)" = "$flips" ] || fail "timeseries: mode flips marked"
[ "$(elements "$TMP/ts.svg" events-rules-0/)" = "$rules" ] || fail "timeseries: rule updates marked"
[ "$(elements "$TMP/ts.svg" events-mode-0/)" = 0 ] || fail "timeseries: flips in a run without any"

# timeseries of a run whose mode changed and that lost time (the run's JSON
# made so): each interval's mode as its background, the warm-up and the
# lost intervals as feet, the lost ones as gaps in the lines, the flip at
# its own time with the mode it set
/usr/bin/python3 - "$TMP/run.json" "$TMP/lostrun.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
iv = d["intervals"]
half = len(iv) // 2
for k, i in enumerate(iv):
    i["mode"] = "lock" if k < half else "rcu"
    i["steady"] = "warm-up" if k == 0 else "lost" if k in (2, 3) else "kept"
    for x in [i] + i["lcores"]:
        x["lost"]["flagged"] = k in (2, 3)
d["events"] = [e for e in d["events"] if e["kind"] != "mode-flip"] + [
    {"kind": "mode-flip", "t_s": iv[half]["t0_s"] - 0.01, "from": "lock",
     "mode": "rcu", "source": "test"}]
json.dump(d, open(sys.argv[2], "w"))
PY
"$PLOT" "$TMP/lostrun.json" --kind timeseries -o "$TMP/lost.svg" || fail "plot timeseries with lost time"
niv=$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["intervals"]))' "$TMP/lostrun.json")
[ "$(elements "$TMP/lost.svg" events-modespan-0/)" = "$niv" ] || fail "timeseries: a mode background per interval"
[ "$(elements "$TMP/lost.svg" events-lost-0/)" = 2 ] || fail "timeseries: lost intervals marked"
[ "$(elements "$TMP/lost.svg" events-warm-up-0/)" = 1 ] || fail "timeseries: warm-up marked"
[ "$(elements "$TMP/lost.svg" events-mode-0/)" = 1 ] || fail "timeseries: the flip marked"
grep -q "→rcu" "$TMP/lost.svg" || fail "timeseries: the flip not labelled with the mode it set"
# the gap: each lcore's line is drawn in two pieces around the lost intervals
/usr/bin/python3 - "$TMP/lost.svg" <<'PY' || fail "timeseries: no gap at the lost intervals"
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
lines = [e for e in root.iter() if (e.get("id") or "").startswith("series-mpps-0-")]
assert len(lines) == 2, len(lines)
for g in lines:
    # the line's own path (the first: the markers' shapes follow it)
    d = [p.get("d", "") for p in g.iter() if p.tag.endswith("path")][0]
    assert d.count("M") == 2, (g.get("id"), d[:200])
PY

# histogram: a --perf-detail run of two workers and one of one worker with
# the ingress hook: a line per lcore and file on the poll and packet
# panels, the ingress panel only for the run that had the hook
"$PKTPATH" $(eal hist2) -- --http off --main-worker --duration 0.6 --perf-detail \
	--quiet --json "$TMP/hist2.json" > "$TMP/hist2.out" 2>&1 ||
	{ cat "$TMP/hist2.out"; fail "perf-detail run, 2 workers"; }
"$PKTPATH" $(eal hist1) -- --http off --duration 0.6 --perf-detail --ingress rcu \
	--quiet --json "$TMP/hist1.json" > "$TMP/hist1.out" 2>&1 ||
	{ cat "$TMP/hist1.out"; fail "perf-detail run, ingress rcu"; }
"$PLOT" "$TMP/hist2.json" "$TMP/hist1.json" --kind histogram --label "2 workers" \
	--label rcu -o "$TMP/hist.svg" || fail "plot histogram"
[ "$(series "$TMP/hist.svg" series-hist-poll_cycles-)" = 3 ] ||
	fail "histogram: poll series $(series "$TMP/hist.svg" series-hist-poll_cycles-)"
[ "$(series "$TMP/hist.svg" series-hist-packet_cycles-)" = 3 ] || fail "histogram: packet series"
[ "$(series "$TMP/hist.svg" series-hist-ingress_cycles-)" = 1 ] || fail "histogram: ingress series"
[ "$(series "$TMP/hist.svg" series-hist-ingress_cycles-1-)" = 1 ] || fail "histogram: ingress series of the rcu run"
[ "$(series "$TMP/hist.svg" series-hist-poll_packets-)" = 0 ] || fail "histogram: no packets panel"
[ "$(elements "$TMP/hist.svg" marks-hist-poll_cycles-0-)" = 4 ] || fail "histogram: p50/p99 marks"

# auto picks the kind; histograms are refused without --perf-detail
"$PLOT" "$TMP/cmp1.json" -o "$TMP/auto.svg" && [ "$(series "$TMP/auto.svg" series-ns-)" = 1 ] ||
	fail "plot auto (compare)"
"$PLOT" "$TMP/run.json" -o "$TMP/auto2.svg" && [ "$(series "$TMP/auto2.svg" series-mpps-)" = 2 ] ||
	fail "plot auto (timeseries)"
if "$PLOT" "$TMP/run.json" --kind histogram -o "$TMP/h.svg" 2> "$TMP/h.err"; then
	fail "histogram drawn without data"
fi
grep -q "histograms need --perf-detail" "$TMP/h.err" || fail "histogram refusal: $(cat "$TMP/h.err")"
if "$PLOT" "$TMP/run.json" --kind compare -o "$TMP/c.svg" 2> "$TMP/c.err"; then
	fail "compare drawn from a plain run"
fi
grep -q "is not a --compare run" "$TMP/c.err" || fail "compare refusal: $(cat "$TMP/c.err")"
echo "plot: ok"
