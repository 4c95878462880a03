#!/usr/bin/env bash
# The four experiments' recipes (config/experiments/*.ini, issue 23): each
# runs from its INI file, shortened on the command line (which overrides
# the file: --duration, --rounds, and a repeatable --compare), and its JSON
# has the comparison the kernel thread made: every pair of variants with
# its 95% intervals in ns/pkt and cycles/pkt, the printed table with a
# verdict per pair. The fold recipe's endless reader (--reader) folds in
# every phase. Structure and counts only: no figure against a threshold.
. "$(dirname "$0")/lib.sh"
EXP="$SOURCE_DIR/config/experiments"

# recipe NAME VARIANTS KNOBS [OPTIONS...]: run NAME.ini short, check that
# its variants are VARIANTS (python list) from KNOBS (python dict), that the
# command line's values replaced the file's, and that every pair has its
# intervals and verdicts.
recipe() {
	local name=$1 variants=$2 knobs=$3 n
	shift 3
	[ -f "$EXP/$name.ini" ] || fail "$name: no $EXP/$name.ini"
	"$PKTPATH" $(eal "$name") -- --config "$EXP/$name.ini" --http off \
		--duration 0.2 --rounds 2 --phase-warmup 0 --interval 0.1 \
		--json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 ||
		{ cat "$TMP/$name.out"; fail "$name: exit status"; }
	n=$(python3 -c "print(len($variants))")
	jcheck "$TMP/$name.json" 'd["conservation"]["ok"]' \
		"d['compare']['knobs'] == $knobs" \
		"[m['mode'] for m in d['compare']['modes']] == $variants" \
		'd["compare"]["rounds"] == 2 and d["compare"]["phase_s"] == 0.2' \
		'd["info"]["config"]["duration_s"] == 0.2' \
		"len(d['compare']['pairs']) == $n * ($n - 1) // 2" \
		'sorted(tuple(sorted((p["a"], p["b"]))) for p in d["compare"]["pairs"]) == sorted(tuple(sorted((a["mode"], b["mode"]))) for i, a in enumerate(d["compare"]["modes"]) for b in d["compare"]["modes"][i + 1:])' \
		'all(p[k]["method"] == "paired-t" and p[k]["n"] == 2 and p[k]["level"] == 0.95 and p[k]["lo"] <= p[k]["estimate"] <= p[k]["hi"] and p[k]["verdict"] in ("faster", "slower", "within noise") for p in d["compare"]["pairs"] for k in ("ns", "cycles"))' \
		'all(len(m["rounds_ns"]) == 2 for m in d["compare"]["modes"])' ||
		{ cat "$TMP/$name.out"; fail "$name: JSON"; }
	grep -q "every pair, b - a, 95% confidence intervals: paired t over 2 rounds" \
		"$TMP/$name.out" || { cat "$TMP/$name.out"; fail "$name: no pairs table"; }
	[ "$(grep -Ec "(faster|slower|within noise) *$" "$TMP/$name.out")" -ge \
		"$((n * (n - 1) / 2))" ] ||
		{ cat "$TMP/$name.out"; fail "$name: a pair without its verdict"; }
}

recipe ingress-lockless '["off", "lock", "rcu"]' '{"ingress": ["off", "lock", "rcu"]}'
grep -q "^lock .*%" "$TMP/ingress-lockless.out" ||
	{ cat "$TMP/ingress-lockless.out"; fail "ingress: no lock contention column"; }

recipe fold-snmp '["field", "lcore"]' '{"fold": ["field", "lcore"]}'
# the reader read (folded) in every phase, and the fold-on-read blocks are
# the thread's 160 CPUs
jcheck "$TMP/fold-snmp.json" 'd["info"]["config"]["reader"] == 1' \
	'd["info"]["config"]["mib_lcores"] == 160 and d["info"]["config"]["fold_on_read"]' \
	'all(m["reads_per_s_median"] > 0 and m["read_fold_ns_median"] > 0 and m["fold_ns_median"] > 0 for m in d["compare"]["modes"])' \
	'all(p[k]["lo"] <= p[k]["estimate"] <= p[k]["hi"] for p in d["compare"]["pairs"] for k in ("fold_ns", "read_fold_ns"))' ||
	{ cat "$TMP/fold-snmp.out"; fail "fold: the reader's figures"; }
grep -q "^reader: 1 thread folding back to back" "$TMP/fold-snmp.out" ||
	{ cat "$TMP/fold-snmp.out"; fail "fold: the reader's line"; }
grep -Eq "^ +read ns/fold " "$TMP/fold-snmp.out" ||
	{ cat "$TMP/fold-snmp.out"; fail "fold: no read fold interval"; }

recipe peer-false-sharing '["shared", "split"]' '{"peer-layout": ["shared", "split"]}'
jcheck "$TMP/peer-false-sharing.json" 'd["info"]["config"]["peer"] and d["info"]["config"]["main_worker"]' \
	'all(len(p["lcores"]) == 2 for p in d["compare"]["pairs"])' ||
	fail "peer: two workers sharing peers"

recipe alloc-bulk-prefetch '["reuse/off", "reuse/on", "slab/off", "slab/on"]' \
	'{"alloc": ["reuse", "slab"], "prefetch": ["off", "on"]}'
# a --compare on the command line replaces both of the file's (the command
# line overrides the INI file, a repeatable option's values included)
recipe alloc-bulk-prefetch '["off", "on"]' '{"prefetch": ["off", "on"]}' \
	--compare prefetch=off,on

# the recipes are installed with the rest of config
meson introspect --installed "$BUILD_DIR" > "$TMP/installed.json" ||
	fail "meson introspect --installed"
python3 - "$TMP/installed.json" <<'PY' || fail "the recipes are not installed"
import json, sys
dest = sorted(v for v in json.load(open(sys.argv[1])).values() if "/experiments/" in v)
names = sorted(v.rsplit("/", 1)[1] for v in dest)
assert names == ["alloc-bulk-prefetch.ini", "fold-snmp.ini", "ingress-lockless.ini",
                 "peer-false-sharing.ini"], dest
assert all(v.endswith("share/pktpath/experiments/" + n) for v, n in zip(dest, names)), dest
PY
echo "recipes: ok"
