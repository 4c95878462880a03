# bench.sh section "fold" (sourced): the seeds' reader, in the application.
#
# The two snmp threads timed a program reading /proc/net/snmp in an endless
# loop (read, lseek 0, read) on a 160-CPU server: every read folds the
# per-CPU MIBs, field-major (snmp_fold_field) or lcore-major
# (snmp_get_cpu_field64_batch). Here pktpath runs its worker on the
# generator with --mib-lcores N (the worker's block and N - 1 phantom ones,
# page-aligned as per-CPU units) and --fold-on-read, and a client reads
# /snmp back to back over one keep-alive connection for SECS seconds: the
# seed's test program over HTTP. Per --fold and N, rounds interleaved, the
# medians of: reads/s, the fold's ns per read (median and p99 of that run's
# X-Pktpath-Fold-Ns headers), the worker's Mpps while read, and its Mpps in
# a run with no reader (the same client, idle between its two samples).
# The client is pinned to CPU 0 (the main lcore's), the worker is lcore 1.
# Then the stats thread's own fold per interval (--interval 0.01, no
# reader) at FOLD_STATS_LCORES.
# Environment: FOLD_LCORES (default "2 16 64 160 256"), FOLD_STATS_LCORES
# (default "2 160 256").
FOLD_LCORES=${FOLD_LCORES:-"2 16 64 160 256"}
FOLD_STATS_LCORES=${FOLD_STATS_LCORES:-"2 160 256"}
echo "== fold: /snmp read back to back over one keep-alive connection (--fold-on-read)," \
	"--fold field|lcore x --mib-lcores ($FOLD_LCORES), $SECS s per run, median of $ROUNDS interleaved rounds"
echo "  L1d $(getconf LEVEL1_DCACHE_SIZE 2>/dev/null) B, $(getconf LEVEL1_DCACHE_ASSOC 2>/dev/null)-way," \
	"$(getconf LEVEL1_DCACHE_LINESIZE 2>/dev/null) B lines; L2 $(getconf LEVEL2_CACHE_SIZE 2>/dev/null) B," \
	"$(getconf LEVEL2_CACHE_ASSOC 2>/dev/null)-way; load average $(cut -d' ' -f1-3 /proc/loadavg)"
cat > "$TMP/fold_reader.py" <<'PY'
# fold_reader.py PORT SECS read|idle: wait for the endpoint and a 1 s
# warm-up, sample the worker's RxPackets (a /stats.json read folds too),
# read /snmp back to back (or sleep) for SECS, sample again. Prints
# "reads reads_per_s fold_p50_ns fold_p99_ns worker_mpps".
import http.client, json, math, sys, time
port, secs, mode = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
for _ in range(400):
    try:
        c.request("GET", "/healthz"); c.getresponse().read(); break
    except Exception:
        c.close(); time.sleep(0.05)
time.sleep(1.0)
def sample():
    c.request("GET", "/stats.json")
    d = json.loads(c.getresponse().read())
    return d["uptime_s"], d["mib"]["Rx"]["RxPackets"]
u0, p0 = sample()
folds, n = [], 0
t0 = time.perf_counter(); end = t0 + secs; t = t0
if mode == "read":
    while t < end:
        c.request("GET", "/snmp")
        r = c.getresponse(); r.read()
        h = r.getheader("X-Pktpath-Fold-Ns")
        if h is not None:
            folds.append(float(h))
        n += 1
        t = time.perf_counter()
else:
    time.sleep(secs); t = time.perf_counter()
u1, p1 = sample()
folds.sort()
q = lambda p: folds[max(0, math.ceil(p * len(folds)) - 1)] if folds else 0
print("%d %.1f %.0f %.0f %.4f" % (n, n / (t - t0), q(0.5), q(0.99),
                                  (p1 - p0) / (u1 - u0) / 1e6 if u1 > u0 else 0))
PY
# The client runs on the main lcore's CPU (0), beside the HTTP and stats
# threads, never on the worker's (1): what it costs the worker is then the
# fold's memory traffic and the endpoint's, not a stolen CPU.
FOLD_PIN=$(command -v taskset > /dev/null && echo "taskset -c 0")
fold_free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# fold_run NAME MODE FOLD N: one pktpath run with the client; prints the
# client's line, or "0 0 0 0 0".
fold_run() {
	local name=$1 mode=$2 fold=$3 n=$4 port pid out
	port=$(fold_free_port)
	# shellcheck disable=SC2086
	$PKTPATH $EAL --file-prefix "${RUN_ID}_$name" -- --duration 0 --warmup 0 --quiet \
		--fold "$fold" --mib-lcores "$n" --fold-on-read --http "127.0.0.1:$port" \
		--json "$TMP/$name.json" > "$TMP/$name.out" 2>&1 &
	pid=$!
	out=$($FOLD_PIN python3 "$TMP/fold_reader.py" "$port" "$SECS" "$mode" 2> "$TMP/$name.err")
	kill -INT "$pid" 2> /dev/null
	wait "$pid" || { echo "fold: run $name failed:" >&2; cat "$TMP/$name.out" "$TMP/$name.err" >&2; out=""; }
	echo "${out:-0 0 0 0 0}"
}
declare -A FR
for r in $(seq "$ROUNDS"); do
	for n in $FOLD_LCORES; do
		# the order of the three runs turns with the round
		runs=("read field" "read lcore" "idle lcore")
		k=$(( (r - 1) % 3 ))
		runs=("${runs[@]:k}" "${runs[@]:0:k}")
		for x in "${runs[@]}"; do
			# shellcheck disable=SC2086
			set -- $x
			v=$(fold_run "fold_$1_$2_${n}_$r" "$1" "$2" "$n")
			FR["$1 $2 $n"]+="$v;"
			echo "  round $r, --mib-lcores $n, $1 --fold $2: reads $(cut -d' ' -f1 <<< "$v")," \
				"$(cut -d' ' -f2 <<< "$v")/s, fold ns p50 $(cut -d' ' -f3 <<< "$v")" \
				"p99 $(cut -d' ' -f4 <<< "$v"), worker $(cut -d' ' -f5 <<< "$v") Mpps"
		done
	done
done
fold_med() { # fold_med "KEY" COLUMN [SCALE]: a column's median over the rounds
	# a failed run (all zeros, its output on stderr) is left out
	tr ';' '\n' <<< "${FR[$1]}" | awk -v c="$2" 'NF && $5 != 0 { print $c }' |
		python3 -c 'import sys, statistics; s=float(sys.argv[1]); v=[float(x) / s for x in sys.stdin]; print("%.1f" % statistics.median(v) if v else 0)' "${3:-1}"
}
fold_ratio() { python3 -c "print('%.2f' % ($1 / $2 if $2 else 0))"; }
echo "  median of $ROUNDS rounds (fold: the X-Pktpath-Fold-Ns of each /snmp answer; Mpps: the worker's while read, and with no reader):"
printf '  | %6s | %5s | %7s | %11s | %11s | %12s | %12s | %18s |\n' lcores fold reads/s \
	"fold us p50" "fold us p99" "Mpps, reader" "Mpps, none" "field/lcore: fold"
printf '  |%s|\n' "--------|-------|---------|-------------|-------------|--------------|--------------|--------------------"
for n in $FOLD_LCORES; do
	fl=$(fold_med "read field $n" 3); lc=$(fold_med "read lcore $n" 3)
	rf=$(fold_med "read field $n" 2); rl=$(fold_med "read lcore $n" 2)
	rt=$(fold_ratio "$fl" "$lc")
	none=$(fold_med "idle lcore $n" 5)
	for f in field lcore; do
		printf '  | %6s | %5s | %7s | %11s | %11s | %12s | %12s | %18s |\n' "$n" "$f" \
			"$(fold_med "read $f $n" 2)" "$(fold_med "read $f $n" 3 1000)" \
			"$(fold_med "read $f $n" 4 1000)" "$(fold_med "read $f $n" 5)" "$none" \
			"$([ $f = field ] && echo "$rt x time" || echo "$(fold_ratio "$rl" "$rf") x reads/s")"
	done
	if [ "$n" = 160 ] || [ "$n" = 256 ]; then
		target "fold ns per /snmp read, field/lcore, --mib-lcores $n" "$rt" ">=" 1.5
	fi
done

# The stats thread's own fold: every 10 ms, no reader.
echo "== fold: the stats thread's fold per interval (--interval 0.01, no reader), median of $ROUNDS rounds"
declare -A FS
for r in $(seq "$ROUNDS"); do
	for n in $FOLD_STATS_LCORES; do
		folds=(field lcore)
		[ $((r % 2)) = 0 ] && folds=(lcore field)
		for f in "${folds[@]}"; do
			name="fold_st_${f}_${n}_$r"
			m=$(pp "$name" -- --duration $((SECS + 1)) --warmup 1 --interval 0.01 --fold "$f" \
				--mib-lcores "$n" | cut -d' ' -f1)
			v=$(python3 -c '
import json, sys
try:
    s = json.load(open(sys.argv[1]))["summary"]["fold"]
    print("%.0f %.0f %d" % (s["p50_ns"], s["p99_ns"], s["scheduled"]))
except Exception:
    print("0 0 0")' "$TMP/$name.json")
			FS["$f $n"]+="$v $m;"
			echo "  round $r, --mib-lcores $n, --fold $f: fold ns p50 $(cut -d' ' -f1 <<< "$v")" \
				"p99 $(cut -d' ' -f2 <<< "$v") over $(cut -d' ' -f3 <<< "$v") folds, worker $m Mpps"
		done
	done
done
fs_med() { # fs_med "KEY" COLUMN [SCALE]
	tr ';' '\n' <<< "${FS[$1]}" | awk -v c="$2" 'NF && $1 != 0 && $4 != 0 { print $c }' |
		python3 -c 'import sys, statistics; s=float(sys.argv[1]); v=[float(x) / s for x in sys.stdin]; print("%.1f" % statistics.median(v) if v else 0)' "${3:-1}"
}
printf '  | %6s | %5s | %11s | %11s | %8s | %17s |\n' lcores fold "fold us p50" "fold us p99" Mpps \
	"field/lcore: fold"
printf '  |%s|\n' "--------|-------|-------------|-------------|----------|-------------------"
for n in $FOLD_STATS_LCORES; do
	rt=$(fold_ratio "$(fs_med "field $n" 1)" "$(fs_med "lcore $n" 1)")
	for f in field lcore; do
		printf '  | %6s | %5s | %11s | %11s | %8s | %17s |\n' "$n" "$f" "$(fs_med "$f $n" 1 1000)" \
			"$(fs_med "$f $n" 2 1000)" "$(fs_med "$f $n" 4)" "$([ $f = field ] && echo "$rt x time")"
	done
done
