#!/usr/bin/env bash
# --compare mib-layout=percpu,shared (issue 23): the workers write the copy
# of their MIB block in the phase's layout, every fold adds both copies.
# Both layouts' phases run (the workers paused at each switch, said), the
# summary has the pair's intervals and each variant's fold time, the
# banner and the memory line say both layouts, the conservation laws hold
# on the final totals, and no counter of /metrics ever goes down while it
# is scraped across the switches: from the stats thread's snapshots, and
# folded at each request (--fold-on-read, with a --reader folding
# endlessly) in a 2x2 with the fold strategy. Structure and counts only:
# no figure is compared with a threshold.
. "$(dirname "$0")/lib.sh"

# scrape URL OUT PID: /metrics until PID ends; every sample of a counter
# family must never be below its previous scrape's. Prints the scrapes.
scrape() {
	python3 - "$1" "$3" > "$2" <<'PY'
import os, sys, urllib.request
url, pid = sys.argv[1] + "metrics", int(sys.argv[2])
prev, scrapes, moved, bad = {}, 0, 0, []
while True:
    try:
        body = urllib.request.urlopen(url, timeout=5).read().decode()
    except OSError:
        try:
            os.kill(pid, 0)
            continue
        except OSError:
            break
    counters, cur = set(), {}
    for line in body.splitlines():
        if line.startswith("# TYPE ") and line.split()[3] == "counter":
            counters.add(line.split()[2])
        elif line and not line.startswith("#"):
            key, val = line.rsplit(" ", 1)
            if key.split("{")[0] in counters:
                cur[key] = float(val)
    for k, v in cur.items():
        if k in prev and v < prev[k]:
            bad.append("%s: %r after %r" % (k, v, prev[k]))
    rx = 'pktpath_mib_total{group="Rx",field="RxPackets"}'
    if rx in prev and cur.get(rx, 0) > prev[rx]:
        moved += 1
    prev = cur
    scrapes += 1
print("scrapes %d moved %d" % (scrapes, moved))
for b in bad[:10]:
    print("DOWN " + b)
PY
}

# run NAME ARGS...: pktpath with the endpoint, scraped until it ends
run() {
	local name=$1 pid
	shift
	"$PKTPATH" $(eal "$name") -- --http 127.0.0.1:0 --main-worker --rounds 2 \
		--duration 0.3 --phase-warmup 0 --interval 0.05 --quiet \
		--json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 &
	pid=$!
	PIDS+=("$pid")
	http_url "$name" "$TMP/$name.out" "$pid"
	scrape "$URL" "$TMP/$name.scrapes" "$pid"
	wait "$pid" || { cat "$TMP/$name.out"; fail "$name: exit status"; }
	! grep -q "^DOWN " "$TMP/$name.scrapes" ||
		{ cat "$TMP/$name.scrapes"; fail "$name: a /metrics counter went down"; }
	# the counters moved between scrapes (the run was scraped while it ran)
	grep -Eq "^scrapes [0-9]+ moved [1-9]" "$TMP/$name.scrapes" ||
		{ cat "$TMP/$name.scrapes"; fail "$name: not scraped while packets moved"; }
	grep -q "^conservation: ok" "$TMP/$name.out" ||
		{ cat "$TMP/$name.out"; fail "$name: conservation"; }
	echo "$name: $(head -1 "$TMP/$name.scrapes")"
}

# the stats thread's snapshots
run ml --compare mib-layout=percpu,shared
grep -q "^== compare mib-layout: 2 rounds x 2 variants (baseline percpu)" "$TMP/ml.out" ||
	{ cat "$TMP/ml.out"; fail "ml: no banner"; }
grep -q "mib-layout percpu|shared (compared)" "$TMP/ml.out" ||
	{ cat "$TMP/ml.out"; fail "ml: the banner's variant knobs"; }
grep -Eq "^mib: 2 lcores' blocks \(2 workers, 0 phantom\), [0-9]+ bytes each, percpu page-aligned [0-9]+ KiB, shared interleaved [0-9]+ KiB, folded together: [0-9]+ KiB" \
	"$TMP/ml.out" || { cat "$TMP/ml.out"; fail "ml: the memory line"; }
for v in percpu shared; do
	[ "$(grep -Ec "^  round [12] $v .*\(switch [0-9.]+ s, excluded\)" "$TMP/ml.out")" -ge 1 ] ||
		{ cat "$TMP/ml.out"; fail "ml: $v's switch not said"; }
	[ "$(grep -Ec "^  round [12] $v " "$TMP/ml.out")" = 2 ] ||
		{ cat "$TMP/ml.out"; fail "ml: $v not measured in 2 rounds"; }
done
grep -Eq "^variant .* ns/fold$" "$TMP/ml.out" || { cat "$TMP/ml.out"; fail "ml: no ns/fold column"; }
jcheck "$TMP/ml.json" 'd["conservation"]["ok"] and d["conservation"]["exact"]' \
	'd["compare"]["knobs"] == {"mib-layout": ["percpu", "shared"]}' \
	'[m["mode"] for m in d["compare"]["modes"]] == ["percpu", "shared"]' \
	'[m["variant"] for m in d["compare"]["modes"]] == [{"mib-layout": "percpu"}, {"mib-layout": "shared"}]' \
	'all(m["mpps_min"] > 0 and m["fold_ns_median"] > 0 for m in d["compare"]["modes"])' \
	'len(d["compare"]["pairs"]) == 1 and d["compare"]["pairs"][0]["a"] == "percpu"' \
	'all(d["compare"]["pairs"][0][k]["lo"] <= d["compare"]["pairs"][0][k]["estimate"] <= d["compare"]["pairs"][0][k]["hi"] for k in ("ns", "cycles", "fold_ns"))' \
	'd["compare"]["switch_s_max"] > 0' \
	'f("Rx.RxPackets") == sum(l["run"]["packets"] for l in d["lcores"]) > 0' ||
	fail "ml: JSON"

# a 2x2 with the fold strategy, every read a fold of both copies
run x22 --compare mib-layout=percpu,shared --compare fold=field,lcore \
	--fold-on-read --reader 1
jcheck "$TMP/x22.json" 'd["conservation"]["ok"] and d["conservation"]["exact"]' \
	'[m["mode"] for m in d["compare"]["modes"]] == ["percpu/field", "percpu/lcore", "shared/field", "shared/lcore"]' \
	'len(d["compare"]["pairs"]) == 6' \
	'all(m["reads_per_s_median"] > 0 for m in d["compare"]["modes"])' \
	'f("Rx.RxPackets") == sum(l["run"]["packets"] for l in d["lcores"]) > 0' ||
	fail "x22: JSON"
echo "compare-mib: ok"
