#!/usr/bin/env bash
# Per-component log types: --log-level=pktpath.http:debug turns on the HTTP
# endpoint's debug log and nothing else's, likewise pktpath.ingress,
# pktpath.bpf, pktpath.stats, pktpath.telemetry and the application's own
# pktpath; 'pktpath*:debug' turns on all of them, and by default none is
# shown.
. "$(dirname "$0")/lib.sh"

# The debug line each component writes in every run of the command below
# (extended regular expressions).
declare -A line=(
	[pktpath]="^pktpath: worker 0 on lcore "
	[pktpath.http]="^pktpath: http: serving http://127\.0\.0\.1:"
	[pktpath.ingress]="^pktpath: ingress: hook for "
	[pktpath.bpf]="^pktpath: bpf: filter 'udp': engine "
	[pktpath.stats]="^pktpath: stats: thread started: "
	[pktpath.telemetry]="^pktpath: telemetry: [0-9]+ commands under /pktpath/"
)
n=0
run() { # run LOG-LEVEL-ARGS...: a short run with them, output in $TMP/out
	n=$((n + 1))
	"$PKTPATH" $(eal "logs$n") "$@" -- --http 127.0.0.1:0 --duration 0.3 \
		--warmup 0 --quiet --ingress rcu --ingress-kind pcap-filter --filter udp \
		--filter-action pass > "$TMP/out" 2>&1 ||
		{ rc=$?; cat "$TMP/out"; fail "run $n ($*): exit $rc"; }
}
# expect "TYPES ON" ARGS...: exactly the debug lines of the types listed.
expect() {
	local on=" $1 " t; shift
	run "$@"
	for t in "${!line[@]}"; do
		if [[ $on == *" $t "* ]]; then
			grep -qE -- "${line[$t]}" "$TMP/out" ||
				{ cat "$TMP/out"; fail "$*: no $t debug line '${line[$t]}'"; }
		elif grep -qE -- "${line[$t]}" "$TMP/out"; then
			cat "$TMP/out"
			fail "$*: $t debug line '${line[$t]}' without asking for it"
		fi
	done
}

expect ""
for t in "${!line[@]}"; do
	expect "$t" "--log-level=$t:debug"
done
expect "pktpath.http pktpath.stats" --log-level=pktpath.http:debug \
	--log-level=pktpath.stats:debug
expect "${!line[*]}" '--log-level=pktpath*:debug'
# The component's messages keep their prefix and reach the log: a stop
# line at the end of the run, with the fold figures.
run --log-level=pktpath.stats:debug
grep -qE '^pktpath: stats: stopped: [0-9]+ folds, mean [0-9]+ ns, max [0-9]+ ns, 0 clears$' \
	"$TMP/out" || { cat "$TMP/out"; fail "no 'pktpath: stats: stopped:' line"; }
echo "logs: ok ($n runs)"
