#!/usr/bin/env bash
# pktpath-bench's receive floor (the "rx" group): skipped without a port,
# exact packet counts with one (net_null fills every burst), a usage error
# for an unknown name.
. "$(dirname "$0")/lib.sh"
: "${PKTPATH_BENCH:?PKTPATH_BENCH must point to pktpath-bench}"
B=$PKTPATH_BENCH

$B $(eal bl) -- --list > "$TMP/list.txt" || fail "--list exited $?"
grep -q '^rx  *rx ' "$TMP/list.txt" || fail "--list does not show the rx benchmark"
grep -q 'Groups.*, rx' "$TMP/list.txt" || fail "--list does not show the rx group"

# No ethdev port: skipped with one line, recorded, exit 0.
$B $(eal b0) -- --run rx --loops 1000 --reps 1 --json "$TMP/skip.json" \
	> "$TMP/skip.out" 2> "$TMP/skip.err" || fail "--run rx without a port exited $?"
grep -q 'rx skipped: needs an ethdev port' "$TMP/skip.err" || fail "no skip line: $(cat "$TMP/skip.err")"
python3 - "$TMP/skip.json" <<'PY' || fail "skip not recorded in the JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["results"] == [], d["results"]
assert [s["name"] for s in d["skipped"]] == ["rx"], d["skipped"]
PY

# With net_null: six variants (the last two on a packed pool), each exactly
# 32 packets per poll.
loops=20000
$B $(eal b1) --vdev net_null0 -- --run rx --loops $loops --reps 2 --json "$TMP/rx.json" \
	> "$TMP/rx.out" 2>&1 || fail "--run rx on net_null0 exited $?: $(tail -3 "$TMP/rx.out")"
grep -q '^| rte_pktmbuf_free_bulk |' "$TMP/rx.out" || fail "no table row: $(cat "$TMP/rx.out")"
grep -q '^| rte_pktmbuf_free_bulk, pool packed |' "$TMP/rx.out" || fail "no packed row: $(cat "$TMP/rx.out")"
python3 - "$TMP/rx.json" "$loops" <<'PY' || fail "rx results"
import json, sys
d, loops = json.load(open(sys.argv[1])), int(sys.argv[2])
names = [r["name"] for r in d["results"]]
assert names == ["rx_free_bulk", "rx_free_bulk_tsc", "rx_free_each", "rx_free_each_tsc",
                 "rx_packed_free_bulk", "rx_packed_free_bulk_tsc"], names
for r in d["results"]:
    assert r["step"] == 32 and r["loops"] == loops and r["reps"] == 2, r
    assert r["elems"] == 32 * loops, (r["name"], r["elems"])
    c = r["cycles_per_elem"]
    assert 0 < c["min"] <= c["median"] <= c["max"], (r["name"], c)
PY

# A usage error names the option.
set +e
$B $(eal b2) -- --run rx,nosuch > /dev/null 2> "$TMP/bad.err"; rc=$?
set -e
[ "$rc" = 2 ] || fail "--run rx,nosuch exited $rc, want 2"
grep -q 'unknown benchmark "nosuch"' "$TMP/bad.err" || fail "$(cat "$TMP/bad.err")"
echo "bench: ok"
