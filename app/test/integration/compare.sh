#!/usr/bin/env bash
# --compare KNOB=V1,V2 (issue 23): a 2x2 of two knobs, one switched live
# (the ingress mode) and one with the workers paused (the peer layout),
# gives four variants, and every pair its intervals in ns/pkt and
# cycles/pkt, in all and per lcore, in the table and in the JSON; a knob
# that pauses the workers (alloc) loses no packet across the switches
# (conservation), and each switch is said. Structure only: no figure is
# compared with a threshold.
. "$(dirname "$0")/lib.sh"

# the 2x2, two workers (the main lcore one of them), the baseline chosen
"$PKTPATH" $(eal x22) -- --http off --main-worker --peer on \
	--compare ingress=lock,rcu --compare peer-layout=shared,split \
	--baseline rcu/shared --rounds 2 --duration 0.2 --phase-warmup 0 \
	--interval 0.1 --quiet --json "$TMP/x22.json" > "$TMP/x22.out" 2>&1 ||
	{ cat "$TMP/x22.out"; fail "2x2: exit status"; }
grep -q "^== compare ingress x peer-layout: 2 rounds x 4 variants (baseline rcu/shared)" \
	"$TMP/x22.out" || { cat "$TMP/x22.out"; fail "2x2: no banner"; }
grep -Eq "^variant .* dns vs rcu/shared +dcyc vs rcu/shared" "$TMP/x22.out" ||
	{ cat "$TMP/x22.out"; fail "2x2: no table against the baseline"; }
for v in lock/shared lock/split rcu/shared rcu/split; do
	[ "$(grep -Ec "^  round [12] $v " "$TMP/x22.out")" = 2 ] ||
		{ cat "$TMP/x22.out"; fail "2x2: $v not measured in 2 rounds"; }
done
# the second round runs backwards
grep "^  round 2 " "$TMP/x22.out" | head -1 | grep -q "rcu/split" ||
	{ cat "$TMP/x22.out"; fail "2x2: round 2 not in the other order"; }
jcheck "$TMP/x22.json" 'd["conservation"]["ok"]' \
	'd["compare"]["knobs"] == {"ingress": ["lock", "rcu"], "peer-layout": ["shared", "split"]}' \
	'd["compare"]["baseline"] == "rcu/shared" and d["compare"]["order"] == "alternated"' \
	'[m["mode"] for m in d["compare"]["modes"]] == ["lock/shared", "lock/split", "rcu/shared", "rcu/split"]' \
	'[m["variant"] for m in d["compare"]["modes"]][1] == {"ingress": "lock", "peer-layout": "split"}' \
	'len(d["compare"]["pairs"]) == 6' \
	'sorted(tuple(sorted((p["a"], p["b"]))) for p in d["compare"]["pairs"]) == sorted(tuple(sorted((a["mode"], b["mode"]))) for i, a in enumerate(d["compare"]["modes"]) for b in d["compare"]["modes"][i + 1:])' \
	'[p["a"] for p in d["compare"]["pairs"][:3]] == ["rcu/shared"] * 3' \
	'all(p[k]["method"] == "paired-t" and p[k]["df"] == 1 and p[k]["n"] == 2 for p in d["compare"]["pairs"] for k in ("ns", "cycles"))' \
	'all(p[k]["lo"] <= p[k]["estimate"] <= p[k]["hi"] for p in d["compare"]["pairs"] for k in ("ns", "cycles"))' \
	'all(len(p["lcores"]) == 2 and all("ns" in l and "cycles" in l for l in p["lcores"]) for p in d["compare"]["pairs"])' \
	'(lambda m: all(abs(sum(x - y for x, y in zip(v["rounds_ns"], m[2]["rounds_ns"])) / 2 - v["delta_ns"]) < 1e-9 * max(1, abs(v["delta_ns"])) for v in m))(d["compare"]["modes"])' \
	'(lambda m: all(abs(sum(x - y for x, y in zip(v["rounds_cycles"], m[2]["rounds_cycles"])) / 2 - v["delta_cycles"]) < 1e-9 * max(1, abs(v["delta_cycles"])) for v in m))(d["compare"]["modes"])' \
	'd["compare"]["modes"][2]["delta_ns_ci"] is None and d["compare"]["modes"][0]["delta_ns_ci"] == d["compare"]["pairs"][0]["ns"]' \
	'all(len(m["lcores"]) == 2 for m in d["compare"]["modes"])' \
	'd["compare"]["switch_s_max"] > 0 and all(len(m["rounds_switch_s"]) == 2 for m in d["compare"]["modes"])' ||
	fail "2x2: JSON"

# scripts/plot.py draws the 2x2 as it draws ingress modes: a bar per
# variant, a difference (with its interval) per variant but the baseline
/usr/bin/python3 "$SOURCE_DIR/scripts/plot.py" "$TMP/x22.json" -o "$TMP/x22.svg" ||
	fail "2x2: plot.py"
/usr/bin/python3 - "$TMP/x22.svg" <<'PY' || fail "2x2: the picture's series"
import re, sys
ids = set(re.findall(r'id="(series-[a-z]+-0/[0-9]+)"', open(sys.argv[1]).read()))
ns = [i for i in ids if i.startswith("series-ns-")]
assert len(ns) == 4, sorted(ids)
assert any(i.startswith("series-delta-") for i in ids), sorted(ids)
PY

# alloc: the workers paused at each switch; every packet counted once
"$PKTPATH" $(eal alloc) -- --http off --compare alloc=reuse,bulk --rounds 2 \
	--duration 0.2 --phase-warmup 0 --interval 0.1 --quiet --json "$TMP/alloc.json" \
	> "$TMP/alloc.out" 2>&1 || { cat "$TMP/alloc.out"; fail "alloc: exit status"; }
grep -q "^conservation: ok" "$TMP/alloc.out" || { cat "$TMP/alloc.out"; fail "alloc: conservation"; }
grep -Eq "^  round [12] bulk .*\(switch [0-9.]+ s, excluded\)" "$TMP/alloc.out" ||
	{ cat "$TMP/alloc.out"; fail "alloc: no switch said"; }
grep -q "^switches: the workers paused at most " "$TMP/alloc.out" ||
	{ cat "$TMP/alloc.out"; fail "alloc: no switch line"; }
jcheck "$TMP/alloc.json" 'd["conservation"]["ok"]' \
	'[m["mode"] for m in d["compare"]["modes"]] == ["reuse", "bulk"]' \
	'len(d["compare"]["pairs"]) == 1 and d["compare"]["pairs"][0]["a"] == "reuse"' \
	'all(m["mpps_min"] > 0 for m in d["compare"]["modes"])' ||
	fail "alloc: JSON"
# fold: switched live; each variant's fold time, and the pair's interval
"$PKTPATH" $(eal fold) -- --http off --compare fold=field,lcore --mib-lcores 64 \
	--rounds 2 --duration 0.2 --phase-warmup 0 --interval 0.05 --quiet \
	--json "$TMP/fold.json" > "$TMP/fold.out" 2>&1 || { cat "$TMP/fold.out"; fail "fold: exit status"; }
grep -Eq "^variant .* ns/fold$" "$TMP/fold.out" || { cat "$TMP/fold.out"; fail "fold: no ns/fold column"; }
jcheck "$TMP/fold.json" 'd["conservation"]["ok"]' \
	'all(m["fold_ns_median"] > 0 for m in d["compare"]["modes"])' \
	'd["compare"]["pairs"][0]["fold_ns"]["method"] == "paired-t"' \
	'd["compare"]["switch_s_max"] == 0' || fail "fold: JSON"
echo "compare: ok"
