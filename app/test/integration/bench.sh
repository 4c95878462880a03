#!/usr/bin/env bash
# pktpath-bench's receive floor (the "rx" group): skipped without a port,
# exact packet counts with one (net_null fills every burst); the ingress
# group; the link dump of per-device IPv6 MIBs (devdump: every D x L, both
# folds); the end-of-interval timer; a usage error for an unknown name.
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

# With net_null: eight variants (four on a pool in address order, two on a
# shuffled one, two on a packed one), each exactly 32 packets per poll.
loops=20000
$B $(eal b1) --vdev net_null0 -- --run rx --loops $loops --reps 2 --json "$TMP/rx.json" \
	> "$TMP/rx.out" 2>&1 || fail "--run rx on net_null0 exited $?: $(tail -3 "$TMP/rx.out")"
grep -q '^| rte_pktmbuf_free_bulk |' "$TMP/rx.out" || fail "no table row: $(cat "$TMP/rx.out")"
grep -q '^| rte_pktmbuf_free_bulk, pool packed |' "$TMP/rx.out" || fail "no packed row: $(cat "$TMP/rx.out")"
grep -q '^| rte_pktmbuf_free_bulk, pool shuffled |' "$TMP/rx.out" || fail "no shuffled row: $(cat "$TMP/rx.out")"
python3 - "$TMP/rx.json" "$loops" <<'PY' || fail "rx results"
import json, sys
d, loops = json.load(open(sys.argv[1])), int(sys.argv[2])
names = [r["name"] for r in d["results"]]
assert names == ["rx_free_bulk", "rx_free_bulk_tsc", "rx_free_each", "rx_free_each_tsc",
                 "rx_shuffled_free_bulk", "rx_shuffled_free_bulk_tsc",
                 "rx_packed_free_bulk", "rx_packed_free_bulk_tsc"], names
for r in d["results"]:
    assert r["step"] == 32 and r["loops"] == loops and r["reps"] == 2, r
    assert r["elems"] == 32 * loops, (r["name"], r["elems"])
    c = r["cycles_per_elem"]
    assert 0 < c["min"] <= c["median"] <= c["max"], (r["name"], c)
PY

# devdump: both folds at every D x L, one device fold an element, the
# table's rows with each set's size (1000 x 256 takes 69.0 MiB).
$B $(eal bd) -- --run devdump --loops 1000 --reps 1 --json "$TMP/dd.json" \
	> "$TMP/dd.out" 2>&1 || fail "--run devdump exited $?: $(tail -3 "$TMP/dd.out")"
grep -q '^| 1000 | 256 | 69.0 | [0-9.]* | [0-9.]* | [0-9.]* | [0-9.]* | [0-9.]*x | [0-9]* |$' \
	"$TMP/dd.out" || fail "devdump: no 1000 x 256 row: $(cat "$TMP/dd.out")"
[ "$(grep -c '^| [0-9]* | [0-9]* | [0-9.]* |' "$TMP/dd.out")" = 20 ] ||
	fail "devdump: not 20 rows: $(cat "$TMP/dd.out")"
python3 - "$TMP/dd.json" <<'PY' || fail "devdump results"
import json, sys
d = json.load(open(sys.argv[1]))
want = ["devdump_%s/D%dxL%d" % (f, n, l) for n in (1, 10, 100, 1000)
        for l in (2, 16, 64, 160, 256) for f in ("field", "lcore")]
names = [r["name"] for r in d["results"]]
assert names == want, names
for r in d["results"]:
    assert r["loops"] == 1000 and r["elems"] == 1000 and r["reps"] == 1, r
    assert r["step"] == int(r["name"].split("xL")[1]), r
PY

# The end-of-interval timer: named in the header and the JSON; the lfence
# fallback (what a CPU without rdtscp gets) forced by option and by the
# environment; rdtscp refused with one line where the CPU lacks it.
$B $(eal bt0) -- --run spinlock --loops 100000 --reps 2 --json "$TMP/t0.json" \
	> "$TMP/t0.out" 2>&1 || fail "--run spinlock exited $?: $(tail -3 "$TMP/t0.out")"
if grep -qw rdtscp /proc/cpuinfo; then want=rdtscp; else want=lfence; fi
grep -q "timer $want (" "$TMP/t0.out" || fail "auto timer is not $want: $(head -1 "$TMP/t0.out")"
for how in option env; do
	if [ $how = option ]; then
		$B $(eal bt1) -- --run spinlock --loops 100000 --reps 2 --timer lfence \
			--json "$TMP/t1.json" > "$TMP/t1.out" 2>&1 || fail "--timer lfence exited $?: $(tail -3 "$TMP/t1.out")"
	else
		PKTPATH_BENCH_TIMER=lfence $B $(eal bt1) -- --run spinlock --loops 100000 --reps 2 \
			--json "$TMP/t1.json" > "$TMP/t1.out" 2>&1 || fail "PKTPATH_BENCH_TIMER=lfence exited $?: $(tail -3 "$TMP/t1.out")"
	fi
	grep -q 'timer lfence (lfence; rdtsc; lfence;' "$TMP/t1.out" || fail "$how: header: $(head -1 "$TMP/t1.out")"
	grep -q '^Type:spinlock Per elem:' "$TMP/t1.out" || fail "$how: no result line"
	python3 - "$TMP/t1.json" "$TMP/t0.json" "$want" <<'PY' || fail "$how: timer in the JSON"
import json, sys
d, d0 = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert d["timer"] == "lfence" and d["timer_insns"] == "lfence; rdtsc; lfence", d
assert [r["timer"] for r in d["results"]] == ["lfence"], d["results"]
assert d0["timer"] == sys.argv[3] and d0["results"][0]["timer"] == sys.argv[3], d0
PY
done
set +e
$B $(eal bt2) -- --run spinlock --timer hpet > /dev/null 2> "$TMP/t2.err"; rc=$?
set -e
[ "$rc" = 2 ] || fail "--timer hpet exited $rc, want 2"
grep -qx "pktpath-bench: --timer 'hpet': unknown timer (auto, rdtscp or lfence)" "$TMP/t2.err" ||
	fail "--timer hpet: $(cat "$TMP/t2.err")"
if [ $want = lfence ]; then
	set +e
	$B $(eal bt3) -- --run spinlock --timer rdtscp > /dev/null 2> "$TMP/t3.err"; rc=$?
	set -e
	[ "$rc" = 2 ] || fail "--timer rdtscp without rdtscp exited $rc, want 2"
	grep -q 'this CPU has no rdtscp' "$TMP/t3.err" || fail "--timer rdtscp: $(cat "$TMP/t3.err")"
fi

# The ingress group (the journal's classification and hook tables): every
# lookup and every mode x scope, 1 worker and 2 at once, exact packet counts
# in the JSON, one table per benchmark and rule file.
R1=$SOURCE_DIR/config/rules/drop-udp-9.rules
R2=$SOURCE_DIR/config/rules/acl-100.rules
$B $(eal bi) -- --run ingress --loops 10000 --reps 1 --rules "$R1,$R2" --json "$TMP/ig.json" \
	> "$TMP/ig.out" 2>&1 || fail "--run ingress exited $?: $(tail -3 "$TMP/ig.out")"
grep -q '^| drop-udp-9 | 1 | .* linear |' "$TMP/ig.out" || fail "no drop-udp-9 row: $(cat "$TMP/ig.out")"
grep -q '^| acl-100 | 100 | .* rte_acl |' "$TMP/ig.out" || fail "no acl-100 row: $(cat "$TMP/ig.out")"
grep -q '^| rcu | .* | .* |$' "$TMP/ig.out" || fail "no hook table: $(cat "$TMP/ig.out")"
grep -q '^| lock | .*% contended' "$TMP/ig.out" || fail "no contention figure: $(cat "$TMP/ig.out")"
python3 - "$TMP/ig.json" <<'PY' || fail "ingress results"
import json, sys
d = json.load(open(sys.argv[1]))
r = {x["name"]: x for x in d["results"]}
cols = ["default", "acl", "acl_1", "linear", "linear_1", "reference"]
want = ["ingress_classify/%s/%s" % (f, c) for f in ("drop-udp-9", "acl-100") for c in cols]
for b in ("ingress_hook", "ingress_hook_conc"):
    want += ["%s/%s/%s/%s" % (b, f, m, s) for f in ("drop-udp-9", "acl-100")
             for m in ("off", "none", "lock", "rwlock", "rcu") for s in ("packet", "burst")]
assert [x["name"] for x in d["results"]] == want, [x["name"] for x in d["results"]]
for n, x in r.items():
    assert x["loops"] == 10000 and x["elems"] == 32 * 10000, (n, x["loops"], x["elems"])
    assert x["step"] == (1 if n.endswith("_1") else 32), (n, x["step"])
    assert x["mode"] == ("concurrent" if "_conc/" in n else "single"), (n, x["mode"])
    if x["mode"] == "concurrent":
        assert [l["elems"] for l in x["lcores"]] == [320000, 320000], (n, x["lcores"])
PY
# A rule file that is not there: one line naming it, exit 1.
set +e
$B $(eal bj) -- --run ingress_classify --loops 1000 --rules "$TMP/nosuch.rules" \
	> /dev/null 2> "$TMP/igbad.err"; rc=$?
set -e
[ "$rc" = 1 ] || fail "--rules nosuch exited $rc, want 1"
grep -q "ingress_classify: $TMP/nosuch.rules: cannot open" "$TMP/igbad.err" || fail "$(cat "$TMP/igbad.err")"

# A usage error names the option.
set +e
$B $(eal b2) -- --run rx,nosuch > /dev/null 2> "$TMP/bad.err"; rc=$?
set -e
[ "$rc" = 2 ] || fail "--run rx,nosuch exited $rc, want 2"
grep -q 'unknown benchmark "nosuch"' "$TMP/bad.err" || fail "$(cat "$TMP/bad.err")"
# The LD_PRELOAD module bench.sh gives dpdk-testpmd: its pool comes back
# shuffled (one line per pool) and testpmd still receives.
if [ -n "${PKTPATH_POOLSHUFFLE:-}" ] && command -v dpdk-testpmd > /dev/null; then
	# Stopped once it has forwarded for one stats period (its first Rx-pps
	# line: a loaded machine may take more than 3 s to get there), at most
	# 60 s; then the forward statistics testpmd prints at exit are checked,
	# not the periodic Rx-pps lines (the first of those always says 0).
	LD_PRELOAD=$PKTPATH_POOLSHUFFLE timeout -s INT 60 dpdk-testpmd $(eal tp) --vdev net_null0 -- \
		--forward-mode=rxonly --total-num-mbufs=4096 --stats-period 1 -a \
		> "$TMP/tp.out" 2>&1 &
	tp=$!
	for _ in $(seq 600); do
		grep -q 'Rx-pps:' "$TMP/tp.out" && break
		kill -0 $tp 2> /dev/null || break
		sleep 0.1
	done
	kill -INT $tp 2> /dev/null || true
	wait $tp || true	# the output is checked
	grep -q 'pktpath-poolshuffle: pool mb_pool_0: 4096 mbufs shuffled' "$TMP/tp.out" ||
		fail "testpmd's pool not shuffled: $(grep -i -m3 'pool\|error' "$TMP/tp.out")"
	grep 'RX-packets:' "$TMP/tp.out" | awk '$2 > 0 { ok = 1 } END { exit !ok }' ||
		fail "testpmd with the shuffled pool received nothing: $(tail -5 "$TMP/tp.out")"
fi
# The probe module, preloaded into pktpath: a new pool in address order
# makes the loop recycle 32 consecutive pages; the default shuffled order
# scatters them (the journal's "Pool order").
if [ -n "${PKTPATH_RXPROBE:-}" ]; then
	for order in address shuffle; do
		LD_PRELOAD=$PKTPATH_RXPROBE PKTPATH_RXPROBE_BURST=1000 "$PKTPATH" $(eal "pr$order") \
			--vdev net_null0 -- --source port --path rx-only --http off --duration 1 \
			--warmup 0 --quiet --pool-order "$order" > "$TMP/probe_$order.out" 2>&1 ||
			fail "pktpath with the probe ($order) exited $?: $(tail -3 "$TMP/probe_$order.out")"
	done
	grep -q 'pktpath-rxprobe: port 0 queue 0 burst 1000: 32 mbufs, runs of consecutive pages: 32;' \
		"$TMP/probe_address.out" || fail "address order: $(grep rxprobe "$TMP/probe_address.out")"
	runs=$(sed -n 's/.*runs of consecutive pages:\([0-9 ]*\);.*/\1/p' "$TMP/probe_shuffle.out")
	[ -n "$runs" ] || fail "shuffled: no probe line: $(tail -3 "$TMP/probe_shuffle.out")"
	for n in $runs; do
		[ "$n" -le 4 ] || fail "shuffled pool: a run of $n consecutive pages ($runs)"
	done
fi
echo "bench: ok"
