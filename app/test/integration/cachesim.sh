#!/usr/bin/env bash
# scripts/counts.py cachesim: valgrind's cache simulator over pktpath's own
# fold, deterministic on any machine. Directions on counts, as CI may check
# them (no time): at 256 lcores the field-major fold misses the L1 at least
# 4 times as often as the lcore-major one (8 counters share a 64-byte line,
# and 256 page-aligned blocks put each field in one L1 set, far more blocks
# than ways), in this CPU's geometry and in a named server's; at 2 lcores a
# later fold misses less often per line read than the field-major fold at
# 256 (since IPv6 a block is 8 KiB: two blocks, the totals and the
# per-block sums, all page-aligned, take 10 ways of each set of a 32 KiB
# 8-way L1 such as milan's, so even 2 lcores' fold no longer stays there;
# a 48 KiB 12-way one such as Zen 5's still holds it); the table says
# which geometry it simulated. Then the link dump of per-device IPv6 MIBs
# (100 devices x 160 lcores): the field-major dump misses the L1 at least 4
# times as often as the lcore-major one, which misses at most once per line
# a device's block spans on each lcore. Then the peer stage in one thread,
# and the refusals (an unknown geometry, a bad argument).
. "$(dirname "$0")/lib.sh"
: "${SOURCE_DIR:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${BUILD_DIR:?BUILD_DIR must point to the build}"
command -v valgrind > /dev/null || fail "no valgrind: run scripts/setup.sh"
COUNTS=$SOURCE_DIR/scripts/counts.py
CS=$BUILD_DIR/app/pktpath-bench/pktpath-cachesim
[ -x "$CS" ] || fail "no $CS"

# valgrind cannot run an AddressSanitizer binary (their shadow memories
# collide): in the sanitized build the workloads run natively, under ASan
# and UBSan, and the simulation is the normal build's to test.
if [ -n "${PKTPATH_SANITIZED:-}" ]; then
	"$CS" fold field 256 2 > "$TMP/asan.out" 2>&1 && "$CS" fold lcore 256 2 >> "$TMP/asan.out" 2>&1 &&
		"$CS" devdump field 10 16 >> "$TMP/asan.out" 2>&1 &&
		"$CS" devdump lcore 10 16 >> "$TMP/asan.out" 2>&1 &&
		"$CS" peer split 256 1000 >> "$TMP/asan.out" 2>&1 ||
		{ cat "$TMP/asan.out"; fail "pktpath-cachesim under the sanitizers"; }
	grep -q '^peer split: 256 peers, 256 + 1000 lookups, refcounts sum 0' "$TMP/asan.out" ||
		{ cat "$TMP/asan.out"; fail "pktpath-cachesim: peer"; }
	[ "$(grep -c '^devdump [a-z]*: 10 devices x 16 lcores' "$TMP/asan.out")" = 2 ] ||
		{ cat "$TMP/asan.out"; fail "pktpath-cachesim: devdump"; }
	echo "cachesim: sanitized build: the workloads ran under ASan; the simulation" \
		"(valgrind) is tested in the normal build only"
	exit 0
fi

# the field count of a block, as the workload says it
"$CS" fold lcore 2 1 > "$TMP/fields.out" 2>&1 || { cat "$TMP/fields.out"; fail "pktpath-cachesim fold"; }
FIELDS=$(sed -n 's/^fold lcore: 2 blocks of \([0-9]*\) fields.*/\1/p' "$TMP/fields.out")
[ -n "$FIELDS" ] || { cat "$TMP/fields.out"; fail "pktpath-cachesim: no field count"; }

for geo in sysfs milan; do
	"$COUNTS" cachesim fold --build "$BUILD_DIR" --geometry "$geo" --fold-lcores "2 256" \
		--folds 4 --json "$TMP/$geo.json" > "$TMP/$geo.out" 2>&1 ||
		{ cat "$TMP/$geo.out"; fail "$geo: counts.py cachesim fold"; }
	grep -q "^   geometry $geo, .*D1 [0-9]* KiB [0-9]*-way 64 B" "$TMP/$geo.out" ||
		{ cat "$TMP/$geo.out"; fail "$geo: the geometry is not stated"; }
	grep -Eq '^\| 256 \| field \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9.]+% \| [0-9]+ \| [0-9]+ \| [0-9.]+x \|$' \
		"$TMP/$geo.out" || { cat "$TMP/$geo.out"; fail "$geo: no 256-lcore row"; }
	python3 - "$TMP/$geo.json" "$geo" "$FIELDS" <<'PY' || fail "$geo: see above"
import json, sys
d = json.load(open(sys.argv[1]))
f = {(r["lcores"], r["fold"]): r for r in d["fold"]}
bad = []
fa, la = f[(256, "field")], f[(256, "lcore")]
if not fa["d1_misses"] >= 4 * la["d1_misses"] > 0:
    bad.append("256 lcores: field %.0f D1 misses per fold, lcore %.0f: not 4x or more"
               % (fa["d1_misses"], la["d1_misses"]))
# the lcore-major fold reads each line of each block once: blocks x lines
lines = (int(sys.argv[3]) * 8 + 63) // 64
if not la["d1_misses"] >= 256 * 0.9 * lines:
    bad.append("256 lcores, lcore: %.0f misses, fewer than the lines read" % la["d1_misses"])
for k in ("field", "lcore"):
    if not f[(2, k)]["d1_misses"] / (2 * lines) < fa["d1_misses"] / (256 * lines):
        bad.append("2 lcores, %s: %.0f D1 misses per later fold, not fewer per line than "
                   "the field-major fold's at 256 (%.0f)" % (k, f[(2, k)]["d1_misses"], fa["d1_misses"]))
    if not f[(2, k)]["d1_misses_first"] <= f[(256, k)]["d1_misses_first"]:
        bad.append("%s: the first fold misses fewer at 256 lcores than at 2" % k)
if d["geometry"]["name"] != sys.argv[2]:
    bad.append("geometry %s" % d["geometry"]["name"])
for b in bad:
    print("check failed: " + b, file=sys.stderr)
print("cachesim %s: 256 lcores, D1 misses per fold field %.0f, lcore %.0f (%.2fx); "
      "rate %.2f%% and %.2f%%" % (sys.argv[2], fa["d1_misses"], la["d1_misses"],
      fa["d1_misses"] / la["d1_misses"] if la["d1_misses"] else 0,
      100 * fa["d1_miss_rate"], 100 * la["d1_miss_rate"]))
sys.exit(1 if bad else 0)
PY
done

# the link dump: 100 devices x 160 lcores, this CPU's geometry
"$COUNTS" cachesim devdump --build "$BUILD_DIR" --devdump 100x160 --json "$TMP/dump.json" \
	> "$TMP/dump.out" 2>&1 || { cat "$TMP/dump.out"; fail "counts.py cachesim devdump"; }
grep -Eq '^\| 100 \| 160 \| field \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9.]+% \| [0-9]+ \| [0-9]+ \| [0-9.]+x \|$' \
	"$TMP/dump.out" || { cat "$TMP/dump.out"; fail "devdump: no field row"; }
python3 - "$TMP/dump.json" <<'PY' || { cat "$TMP/dump.out"; fail "devdump: see above"; }
import json, sys
f = {r["fold"]: r for r in json.load(open(sys.argv[1]))["devdump"]}
fa, la = f["field"], f["lcore"]
# a device's 33 Ip6 counters (264 bytes) span at most 6 lines of each lcore
if not fa["d1_misses"] >= 4 * la["d1_misses"] > 0:
    sys.exit("devdump: field %d D1 misses per dump, lcore %d: not 4x or more"
             % (fa["d1_misses"], la["d1_misses"]))
if not la["d1_misses"] <= 100 * 160 * 6 + 100:
    sys.exit("devdump: lcore %d D1 misses, more than the lines read" % la["d1_misses"])
print("cachesim devdump 100 x 160: D1 misses per dump field %d, lcore %d (%.2fx)"
      % (fa["d1_misses"], la["d1_misses"], fa["d1_misses"] / la["d1_misses"]))
PY

# the peer stage: the same instructions in both layouts, one thread
"$COUNTS" cachesim peer --build "$BUILD_DIR" --peers 256 --lookups 20000 \
	--json "$TMP/peer.json" > "$TMP/peer.out" 2>&1 || { cat "$TMP/peer.out"; fail "peer"; }
jcheck_peer() {
	python3 - "$TMP/peer.json" <<'PY'
import json, sys
r = {x["layout"]: x["per_lookup"] for x in json.load(open(sys.argv[1]))["peer"]}
assert r["shared"]["Ir"] == r["split"]["Ir"] > 0, r
assert r["shared"]["Dw"] == r["split"]["Dw"] > 0, r
PY
}
jcheck_peer || { cat "$TMP/peer.out"; fail "peer: the layouts differ in instructions"; }
grep -q 'false sharing' "$TMP/peer.out" || fail "peer: what a simulator cannot show is not said"

# per stage (pktpath-stages, each stage a function): the default path's
# stages are rx, l2, ip and free, each counted (> 0); with the rest of the
# loop they add up to the whole, event by event; the rest (the poll's
# bookkeeping, the calls) is at most the stated share of the whole (10%),
# so no stage was lost or counted twice; and making the stages functions
# costs pktpath's default at most a third more instructions. Counts, no time.
[ -x "$BUILD_DIR/app/pktpath/pktpath-stages" ] ||
	fail "no pktpath-stages: the build needs -Dstage_functions (gcc)"
"$COUNTS" cachesim stages --build "$BUILD_DIR" --geometry milan --secs 0.3 \
	--json "$TMP/stages.json" > "$TMP/stages.out" 2>&1 || { cat "$TMP/stages.out"; fail "stages"; }
python3 - "$TMP/stages.json" <<'PY' || { cat "$TMP/stages.out"; fail "stages: see above"; }
import json, sys
t = json.load(open(sys.argv[1]))["stages"]
st = {r["stage"]: r["per_pkt"] for r in t["stages"]}
bad = []
if sorted(st) != sorted(["rx", "l2", "ip", "free"]):
    bad.append("the default path's stages are %s" % sorted(st))
w = t["whole"]
for k in ("Ir", "Dr", "D1mr", "DLmr"):
    s = sum(p[k] for p in st.values()) + t["rest"][k]
    if abs(s - w[k]) > 1e-6 * max(1, w[k]):
        bad.append("%s: stages and rest %.4f, whole %.4f" % (k, s, w[k]))
for name, p in st.items():
    if not p["Ir"] > 0:
        bad.append("%s: no instructions" % name)
if not 0 <= t["rest"]["Ir"] <= t["rest_max"] * w["Ir"]:
    bad.append("the rest %.2f of %.2f instructions a packet: over %.0f%%"
               % (t["rest"]["Ir"], w["Ir"], 100 * t["rest_max"]))
if not t["whole_pktpath_ir"] <= w["Ir"] <= 4 / 3 * t["whole_pktpath_ir"]:
    bad.append("pktpath-stages %.2f against pktpath %.2f instructions a packet"
               % (w["Ir"], t["whole_pktpath_ir"]))
for b in bad:
    print("check failed: " + b, file=sys.stderr)
print("stages: %s; rest %.2f of %.2f Ir/pkt (pktpath %.2f)" % (
    ", ".join("%s %.2f" % (k, p["Ir"]) for k, p in st.items()), t["rest"]["Ir"],
    w["Ir"], t["whole_pktpath_ir"]))
sys.exit(1 if bad else 0)
PY
grep -q '^| rest of the loop | ' "$TMP/stages.out" && ! grep -q 'waits for the burst pipeline' "$TMP/stages.out" ||
	{ cat "$TMP/stages.out"; fail "stages: no per-stage table"; }

# refusals
set +e
"$COUNTS" cachesim fold --geometry nehalem > "$TMP/bad.out" 2>&1; rc=$?
set -e
[ "$rc" = 2 ] && grep -q -- "--geometry nehalem: not sysfs, skylake-sp, milan" "$TMP/bad.out" ||
	{ cat "$TMP/bad.out"; fail "an unknown geometry: exit $rc"; }
set +e
"$CS" fold sideways 4 1 > "$TMP/bad.out" 2>&1; rc=$?
set -e
[ "$rc" = 2 ] && grep -q '^usage:' "$TMP/bad.out" || { cat "$TMP/bad.out"; fail "pktpath-cachesim: a bad fold, exit $rc"; }
# the instruction budget's table is for one build: another compiler
# version, another DPDK or a build line without them is refused (exit 2,
# what differs) before anything runs
for bl in "gcc 99.1 22.11:cc_version" "gcc 12.2 99.11:dpdk" "clang 12.2 22.11:compiler" \
	"gcc:build BUILDTYPE COMPILER CC-VERSION DPDK-VERSION"; do
	want=${bl#*:}
	sed "s/^build .*/build release ${bl%%:*}/" "$SOURCE_DIR/scripts/counts-budget.txt" > "$TMP/budget.txt"
	set +e
	"$COUNTS" budget --build "$BUILD_DIR" --table "$TMP/budget.txt" > "$TMP/bad.out" 2>&1; rc=$?
	set -e
	[ "$rc" = 2 ] && grep -qF -- "$want" "$TMP/bad.out" ||
		{ cat "$TMP/bad.out"; fail "budget table 'build release ${bl%%:*}': exit $rc, want 2 and '$want'"; }
done
echo "cachesim: fold directions hold in both geometries; devdump; peer; per stage; refusals ok"
