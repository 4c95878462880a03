#!/usr/bin/env bash
# --alloc slab (lib/slab; issue 23): a run, --compare alloc=reuse,slab and
# --alloc slab --compare prefetch=off,on, each with every packet
# counted once in one outcome (conservation, exact) and no allocation
# failed (RxNoMbuf 0), every phase of a compare with packets; the banner
# and the JSON say alloc slab; bad values refused in one line, exit 2.
# Structure only: no figure is compared with a threshold.
. "$(dirname "$0")/lib.sh"

# one run
"$PKTPATH" $(eal run) -- --http off --alloc slab --duration 0.3 --interval 0.1 \
	--json "$TMP/run.json" > "$TMP/run.out" 2>&1 || { cat "$TMP/run.out"; fail "run: exit status"; }
grep -q "^conservation: ok" "$TMP/run.out" || { cat "$TMP/run.out"; fail "run: conservation"; }
grep -q "alloc slab, prefetch on" "$TMP/run.out" || { cat "$TMP/run.out"; fail "run: banner"; }
jcheck "$TMP/run.json" 'd["conservation"]["ok"] and d["conservation"]["exact"]' \
	'd["info"]["config"]["alloc"] == "slab"' 'f("Rx.RxNoMbuf") == 0' \
	'f("Rx.RxPackets") > 0' || fail "run: JSON"

# compare NAME ARGS...: a compare run, conserving, no failed allocation,
# every phase of every round with packets; the variants' names in $want
compare() {
	local name=$1; shift
	"$PKTPATH" $(eal "$name") -- --http off "$@" --rounds 2 --duration 0.2 \
		--phase-warmup 0 --interval 0.1 --quiet --json "$TMP/$name.json" \
		> "$TMP/$name.out" 2>&1 || { cat "$TMP/$name.out"; fail "$name: exit status"; }
	grep -q "^conservation: ok" "$TMP/$name.out" ||
		{ cat "$TMP/$name.out"; fail "$name: conservation"; }
	jcheck "$TMP/$name.json" 'd["conservation"]["ok"] and d["conservation"]["exact"]' \
		'f("Rx.RxNoMbuf") == 0' \
		"[m['mode'] for m in d['compare']['modes']] == $want" \
		'all(x > 0 for m in d["compare"]["modes"] for x in m["rounds_mpps"])' \
		'len(d["compare"]["pairs"]) == 1' ||
		{ cat "$TMP/$name.out"; fail "$name: JSON"; }
}
want='["reuse", "slab"]' compare alloc --compare alloc=reuse,slab
grep -Eq "^  round [12] slab .*\(switch [0-9.]+ s, excluded\)" "$TMP/alloc.out" ||
	{ cat "$TMP/alloc.out"; fail "alloc: no switch said"; }
want='["off", "on"]' compare prefetch --alloc slab --compare prefetch=off,on
grep -q "alloc slab, prefetch off|on (compared)" "$TMP/prefetch.out" ||
	{ cat "$TMP/prefetch.out"; fail "prefetch: banner"; }

# bad values: one line, exit 2
bad() { # bad "EXPECTED TEXT" APP-ARGS...
	local want=$1 rc lines; shift
	set +e
	"$PKTPATH" $(eal bad) -- --http off "$@" > "$TMP/o.txt" 2> "$TMP/e.txt"
	rc=$?
	set -e
	lines=$(grep -v '^EAL:\|^TELEMETRY:' "$TMP/e.txt" | grep -c . || true)
	[ "$rc" = 2 ] || { cat "$TMP/e.txt"; fail "'$*': exit $rc, want 2"; }
	[ "$lines" = 1 ] || { cat "$TMP/e.txt"; fail "'$*': $lines stderr lines, want 1"; }
	grep -qF -- "$want" "$TMP/e.txt" || { cat "$TMP/e.txt"; fail "'$*': no '$want'"; }
}
bad "--alloc: 'slub' is not one of reuse|bulk|slab" --alloc slub
bad "--alloc: 'Slab' is not one of reuse|bulk|slab" --alloc Slab
bad "--compare: alloc: 'slub' is not one of reuse|bulk|slab" --compare alloc=reuse,slub
bad "--compare: alloc: 'slab' is listed twice" --compare alloc=slab,slab
bad "--compare: alloc: 'slab' alone compares nothing: give two values or more, or --alloc slab to run with it" \
	--compare alloc=slab --compare prefetch=off,on
echo "slab: ok"
