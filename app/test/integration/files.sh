#!/usr/bin/env bash
# Every file pktpath and pktpath-bench read or write is opened
# one way (lib/base/base.h, "Files"):
#  - a FIFO (or a directory) named by an input option is refused at once
#    with one line, never waited on; so is a SIGHUP reload of a rules file
#    or eBPF object that became a FIFO, and the run ends by itself at its
#    --duration (bounded waits: a run that hangs is killed and fails,
#    whatever the time it took);
. "$(dirname "$0")/lib.sh"
R=${SOURCE_DIR:?}/config/rules
OBJ=${BUILD_DIR:?}/config
BOUND=120	# seconds a run may take before it counts as hung (never a measure)
mkfifo "$TMP/fifo"
mkdir "$TMP/dir"

n=0
# run CMD...: CMD under the bound, its stdout in $TMP/o, stderr in $TMP/e,
# its status in rc (a run that hangs is killed: it fails here).
run() {
	n=$((n + 1))
	set +e
	timeout -s KILL "$BOUND" "$@" > "$TMP/o" 2> "$TMP/e"
	rc=$?
	set -e
	[ "$rc" != 137 ] || { cat "$TMP/e"; fail "'$*': hung (killed after ${BOUND}s)"; }
}
# lines: the stderr lines that are not EAL's
lines() { grep -v '^EAL:\|^TELEMETRY:' "$TMP/e" | grep -c . || true; }
# expect CODE TEXT CMD...: exit CODE, and one stderr line holding TEXT
expect() {
	local code=$1 want=$2; shift 2
	run "$@"
	[ "$rc" = "$code" ] || { cat "$TMP/e"; fail "'$*': exit $rc, want $code"; }
	[ "$(lines)" = 1 ] || { cat "$TMP/e"; fail "'$*': $(lines) stderr lines, want 1"; }
	grep -qF -- "$want" "$TMP/e" || { cat "$TMP/e"; fail "'$*': no '$want'"; }
}
pp() { # pp NAME ARGS...: pktpath, a short run's arguments after ours
	local name=$1; shift
	echo "$PKTPATH $(eal "$name") -- --http off --duration 0.3 --quiet $*"
}
BENCH_ARGS=(-l 0-1 --no-huge --no-shconf -m 256 --no-pci --log-level=lib.eal:error)

# --- inputs: a FIFO or a directory refused at once ---------------------------
# OPTION|the rest of the command line, for every option that names an input
inputs=("--config|" "--rules|--ingress rcu" "--rules-alt|--ingress rcu"
	"--template|" "--bpf-obj|--ingress rcu --ingress-kind bpf")
for o in "${inputs[@]}"; do
	opt=${o%%|*}; rest=${o#*|}
	# shellcheck disable=SC2046
	expect 2 "pktpath: $opt $TMP/fifo: a FIFO, not a regular file" $(pp "in$n") $rest "$opt" "$TMP/fifo"
	# shellcheck disable=SC2046
	expect 2 "pktpath: $opt $TMP/dir: a directory, not a regular file" $(pp "in$n") $rest "$opt" "$TMP/dir"
done
run "$PKTPATH_BENCH" "${BENCH_ARGS[@]}" --file-prefix "${PREFIX}_br" -- --run ingress_classify \
	--loops 1000 --reps 1 --rules "$TMP/fifo"
[ "$rc" != 0 ] && grep -qF "$TMP/fifo: a FIFO, not a regular file" "$TMP/e" ||
	{ cat "$TMP/e"; fail "pktpath-bench --rules FIFO: exit $rc"; }
echo "files: inputs that are FIFOs or directories refused ($n runs)"

# A SIGHUP reload of a file that became a FIFO is refused with a line; the
# control loop goes on and the run ends at its --duration, by itself.
for kind in "rules|--rules|$R/drop-udp-9.rules" "bpf|--bpf-obj|$OBJ/drop_udp_port.o"; do
	IFS='|' read -r k opt src <<< "$kind"
	cp "$src" "$TMP/hup.$k"
	"$PKTPATH" $(eal "hup$k") -- --http 127.0.0.1:0 --duration 3 --quiet --ingress rcu \
		--ingress-kind "$k" "$opt" "$TMP/hup.$k" --json "$TMP/hup$k.json" > "$TMP/hup$k.out" 2>&1 &
	pid=$!; PIDS+=("$pid")
	http_url "hup $k" "$TMP/hup$k.out" "$pid"
	rm "$TMP/hup.$k"; mkfifo "$TMP/hup.$k"
	kill -HUP "$pid"
	for _ in $(seq $((BOUND * 10))); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
	kill -0 "$pid" 2> /dev/null && { kill -9 "$pid"; cat "$TMP/hup$k.out"; fail "SIGHUP $k: the run hung on the FIFO"; }
	wait "$pid" || { rc=$?; cat "$TMP/hup$k.out"; fail "SIGHUP $k: exit $rc"; }
	grep -qF "SIGHUP: refused: $opt $TMP/hup.$k: a FIFO, not a regular file (the running classifier stays)" \
		"$TMP/hup$k.out" || { cat "$TMP/hup$k.out"; fail "SIGHUP $k: no refusal line"; }
	jcheck "$TMP/hup$k.json" 'f("Ingress.RuleUpdates") == 0' 'f("Rx.RxPackets") > 0'
done
echo "files: SIGHUP of a FIFO refused, the run ended by itself"
echo "files: ok"
