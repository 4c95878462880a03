#!/usr/bin/env bash
# Every file pktpath, pktpath-bench and the scripts read or write is opened
# one way (lib/base/base.h, "Files"):
#  - a FIFO (or a directory) named by an input option is refused at once
#    with one line, never waited on; so is a SIGHUP reload of a rules file
#    or eBPF object that became a FIFO, and the run ends by itself at its
#    --duration (bounded waits: a run that hangs is killed and fails,
#    whatever the time it took);
#  - so is one named by an output option; every output on a full file
#    system (/dev/full, and a 256 KiB tmpfs mounted here) fails with its
#    errno in one line and exit status 1, and the capture's counters agree
#    with what tcpdump and libpcap read back;
#  - every allocation that grows with an option is refused before it is
#    made, with what it needs and what there is (sizes that cannot fit);
#  - SIGINT inside a long set-up step ends it there (pktpath-sigat.so
#    sends it at the 1000th item, and counts the items made after it);
#  - scripts/plot.py and scripts/gen-rules.py follow the same rules.
. "$(dirname "$0")/lib.sh"
R=${SOURCE_DIR:?}/config/rules
OBJ=${BUILD_DIR:?}/config
BOUND=120	# seconds a run may take before it counts as hung (never a measure)
mkfifo "$TMP/fifo"
mkdir "$TMP/dir"

# A tmpfs of our own, unmounted by name whatever happens.
FULL="$TMP/full"
mkdir "$FULL"
mount -t tmpfs -o size=256k "pktpath_files_$$" "$FULL" || fail "cannot mount a tmpfs on $FULL"
files_cleanup() {
	umount "$FULL" 2> /dev/null || true
	lib_cleanup
}
trap files_cleanup EXIT

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
	# (--duration 0.3 unless ARGS give one: an option is given once)
	local name=$1; shift
	case " $* " in
	*" --duration "*) echo "$PKTPATH $(eal "$name") -- --http off --quiet $*" ;;
	*) echo "$PKTPATH $(eal "$name") -- --http off --duration 0.3 --quiet $*" ;;
	esac
}
BENCH_ARGS=(-l 0-1 --no-huge --no-shconf -m 256 --no-pci --log-level=lib.eal:error)

# --- inputs: a FIFO or a directory refused at once ---------------------------
# OPTION|the rest of the command line, for every option that names an input
inputs=("--config|" "--rules|--ingress rcu" "--rules-alt|--ingress rcu --update-rate 10"
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

# --- outputs: a FIFO or a directory refused at once --------------------------
outputs=("--json|" "--capture|--capture-what all")
for o in "${outputs[@]}"; do
	opt=${o%%|*}; rest=${o#*|}
	# shellcheck disable=SC2046
	expect 2 "pktpath: $opt $TMP/fifo: a FIFO, not a regular file or a character device" \
		$(pp "out$n") $rest "$opt" "$TMP/fifo"
	# shellcheck disable=SC2046
	expect 2 "pktpath: $opt $TMP/dir: a directory, not a regular file or a character device" \
		$(pp "out$n") $rest "$opt" "$TMP/dir"
	# a FIFO with its reader there (this shell, read-write: no wait) is
	# refused too, once opened
	exec 7<> "$TMP/fifo"
	# shellcheck disable=SC2046
	expect 2 "pktpath: $opt $TMP/fifo: a FIFO, not a regular file or a character device" \
		$(pp "out$n") $rest "$opt" "$TMP/fifo"
	exec 7<&-
done
expect 2 "pktpath-bench: --json $TMP/fifo: a FIFO, not a regular file or a character device" \
	"$PKTPATH_BENCH" "${BENCH_ARGS[@]}" --file-prefix "${PREFIX}_bj" -- --run empty --json "$TMP/fifo"
echo "files: outputs that are FIFOs or directories refused"

# --- outputs on full file systems ---------------------------------------------
# The capture on a 256 KiB tmpfs: it stops at the first failed write, the
# file keeps its whole frames (no "truncated dump file"), and the counters
# say exactly that.
run $(pp capfull --duration 1) --capture "$FULL/c.pcap" --capture-what all --json "$TMP/c.json"
[ "$rc" = 1 ] || { cat "$TMP/o" "$TMP/e"; fail "capture on a full tmpfs: exit $rc, want 1"; }
grep -qE "^pktpath: capture: $FULL/c.pcap: write failed after [0-9]+ frames: No space left on device; the capture stops" \
	"$TMP/e" || { cat "$TMP/e"; fail "capture: no write error line"; }
[ "$(grep -c 'write failed' "$TMP/e")" = 1 ] || { cat "$TMP/e"; fail "capture: the error said more than once"; }
grep -qE "^capture: $FULL/c.pcap: INCOMPLETE: a write failed after [0-9]+ frames \(No space left on device\)" \
	"$TMP/o" || { cat "$TMP/o"; fail "capture: no INCOMPLETE line in the summary"; }
tcpdump -r "$FULL/c.pcap" -n > "$TMP/td" 2> "$TMP/td.err" || { rc=$?; cat "$TMP/td.err"; fail "tcpdump -r: exit $rc"; }
grep -q truncated "$TMP/td.err" && { cat "$TMP/td.err"; fail "tcpdump: truncated dump file"; }
frames=$(wc -l < "$TMP/td")
[ "$frames" -gt 0 ] && [ "$("$PCAPCOUNT" "$FULL/c.pcap" "")" = "$frames" ] ||
	fail "tcpdump reads $frames frames, libpcap $("$PCAPCOUNT" "$FULL/c.pcap" "")"
jcheck "$TMP/c.json" "f('Capture.CapturePackets') == $frames" "d['capture']['frames'] == $frames" \
	'not d["capture"]["complete"]' 'd["capture"]["error"] == "No space left on device"' \
	'f("Capture.CaptureWriteErrors") > 0' \
	'd["capture"]["write_errors"] == f("Capture.CaptureWriteErrors")' \
	'f("Capture.CapturePackets") + f("Capture.CaptureOverflow") + f("Capture.CaptureWriteErrors") == f("Rx.RxPackets")'
rm -f "$FULL/c.pcap"
# /dev/full: not even the header fits, said at set-up
expect 2 "pktpath: --capture /dev/full: write: No space left on device (0 of 24 bytes written)" \
	$(pp capdev) --capture /dev/full
# /dev/null takes everything
run $(pp capnull) --capture /dev/null --capture-what all --json "$TMP/n.json"
[ "$rc" = 0 ] || { cat "$TMP/e"; fail "capture to /dev/null: exit $rc"; }
jcheck "$TMP/n.json" 'd["capture"]["complete"]' 'f("Capture.CaptureWriteErrors") == 0' \
	'f("Capture.CapturePackets") == d["capture"]["frames"] > 0'

# The other outputs, on /dev/full and on the tmpfs once full: one line with
# the errno, exit 1.
head -c 1M /dev/zero > "$FULL/filler" 2> /dev/null || true
for dev in /dev/full "$FULL/out"; do
	expect 1 "pktpath: --json $dev: write: No space left on device (0 of " $(pp "js$n") --json "$dev"
	set +e
	timeout -s KILL "$BOUND" $(pp "so$n") > "$dev" 2> "$TMP/e"
	rc=$?
	set -e
	[ "$rc" = 1 ] && grep -qF "pktpath: standard output: write failed: No space left on device" "$TMP/e" ||
		{ cat "$TMP/e"; fail "stdout on $dev: exit $rc"; }
	expect 1 "pktpath-bench: --json $dev: write: No space left on device (0 of " \
		"$PKTPATH_BENCH" "${BENCH_ARGS[@]}" --file-prefix "${PREFIX}_bf$n" -- --run empty \
		--loops 100000 --reps 1 --json "$dev"
done
echo "files: outputs on full file systems said, exit 1"

# --- allocations sized first ---------------------------------------------------
# WHAT|EAL OPTIONS (-m M: in place of eal's; others: added)|PKTPATH OPTIONS|the line's start
# (the history's size is left out: what a point keeps grows with the stats)
big=("templates||--flows 1048576 --pkt-size 9000|pktpath: out of memory for the templates of --flows 1048576 --pkt-size 9000: needs 8.8 GiB, the machine has "
	"mbufs||--mbufs 16777216|pktpath: out of memory for the mbuf pools of 1 worker (16777216 mbufs of 2176 bytes each): needs 64.3 GiB, EAL's heap has 512 MiB"
	"portpool|--vdev net_null0|--source port --mbufs 1000000|pktpath: out of memory for the mbuf pool of port 0 (1000000 mbufs of 2176 bytes): needs 3.8 GiB, EAL's heap has 512 MiB"
	"capture||--capture $TMP/r.pcap --capture-ring 262144|pktpath: out of memory for the capture rings of 1 worker (262144 slots of 2048 bytes each): needs 536 MiB, EAL's heap has 512 MiB"
	"peers|-m 64|--peer on --peers 1048576 --peer-layout split|pktpath: out of memory for the peer table (1048576 peers): needs 128 MiB, EAL's heap has 64 MiB"
	"mib|-m 40|--mib-lcores 8192|pktpath: out of memory for the MIB blocks of 8192 lcores (8193 blocks of 8192 bytes, page-aligned: 65544 KiB): needs 64 MiB, EAL's heap has 40 MiB"
	"history||--duration 1e7 --interval 0.01|pktpath: out of memory for the run's history (1000000001 intervals of --interval 0.01): needs ")
for b in "${big[@]}"; do
	IFS='|' read -r what mem args want <<< "$b"
	eargs=$(eal "big$what")
	case $mem in
	-m*) eargs=${eargs/-m 512/$mem} ;;
	?*) eargs="$eargs $mem" ;;
	esac
	# the templates: under a data limit that 8.8 GiB cannot fit on any
	# machine (not in a sanitized build: its shadow memory is data too, and
	# no sanitized program starts under such a limit; the 1 TiB --template
	# below checks the same bound there)
	pre=()
	if [ "$what" = templates ]; then
		[ -z "${PKTPATH_SANITIZED:-}" ] || continue
		pre=(prlimit --data=$((2 << 30)))
	fi
	dur="--duration 0.3"; case " $args " in *" --duration "*) dur= ;; esac
	# shellcheck disable=SC2086
	expect 2 "$want" "${pre[@]}" "$PKTPATH" $eargs -- --http off $dur --quiet $args
done
# a pcap template larger than the machine's memory (sparse: nothing on disk)
truncate -s 1T "$TMP/huge.pcap"
expect 2 "pktpath: --template $TMP/huge.pcap: its frames need about 1024.0 GiB (the file's size), more than the " \
	$(pp hugepcap) --template "$TMP/huge.pcap"
rm -f "$TMP/huge.pcap"
echo "files: allocations refused before they are made"

# --- SIGINT inside a long set-up step -------------------------------------------
# (pktpath-sigat.so is not built for sanitized builds: it could not be
# preloaded into them)
if [ -n "${PKTPATH_SIGAT_MOD:-}" ] && [ -f "$PKTPATH_SIGAT_MOD" ]; then
	# 20000 frames of 1111 bytes for --template
	python3 - "$TMP/many.pcap" <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as o:
    o.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    frame = b"\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x08\x00" + bytes(1097)
    for i in range(20000):
        o.write(struct.pack("<IIII", 1, i, len(frame), len(frame)) + frame)
PY
	for step in "the templates|4321|--flows 20000 --pkt-size 4321" "--template|1111|--template $TMP/many.pcap"; do
		IFS='|' read -r name size args <<< "$step"
		# shellcheck disable=SC2046
		PKTPATH_SIGAT="$size:1000" LD_PRELOAD=$PKTPATH_SIGAT_MOD run $(pp "int$size") $args
		[ "$rc" = 130 ] || { cat "$TMP/o" "$TMP/e"; fail "SIGINT in $name: exit $rc, want 130"; }
		grep -qxF "pktpath: SIGINT during set-up ($name): stopped" "$TMP/e" ||
			{ cat "$TMP/e"; fail "SIGINT in $name: no line"; }
		grep -qxF "sigat: 0 malloc($size) after the signal" "$TMP/e" ||
			{ cat "$TMP/e"; fail "SIGINT in $name: the step went on"; }
		grep -q "^pktpath .* worker" "$TMP/o" && { cat "$TMP/o"; fail "SIGINT in $name: the run started"; }
	done
	echo "files: SIGINT ends a long set-up step"
fi

# --- the scripts: the same rules ------------------------------------------------
PLOT="$SOURCE_DIR/scripts/plot.py"
GENRULES="$SOURCE_DIR/scripts/gen-rules.py"
expect 2 "plot.py: $TMP/fifo: a FIFO, not a regular file" /usr/bin/python3 "$PLOT" "$TMP/fifo" -o "$TMP/x.svg"
expect 2 "plot.py: $TMP/dir: a directory, not a regular file" /usr/bin/python3 "$PLOT" "$TMP/dir" -o "$TMP/x.svg"
run $(pp plotsrc --duration 1) --interval 0.1 --json "$TMP/so.json"	# for plot.py
[ "$rc" = 0 ] || { cat "$TMP/e"; fail "a run for plot.py: exit $rc"; }
for out in "$TMP/fifo" "$TMP/dir"; do
	what="a FIFO"; [ -d "$out" ] && what="a directory"
	expect 2 "plot.py: $out: $what, not a regular file or a character device" \
		/usr/bin/python3 "$PLOT" "$TMP/so.json" -o "$out"
	expect 2 "gen-rules.py: $out: $what, not a regular file or a character device" \
		python3 "$GENRULES" -n 3 -o "$out"
done
head -c 1M /dev/zero > "$FULL/filler" 2> /dev/null || true
for dev in /dev/full "$FULL/out"; do
	expect 1 "plot.py: $dev: write: No space left on device (0 of " \
		/usr/bin/python3 "$PLOT" "$TMP/so.json" -o "$dev"
	expect 1 "gen-rules.py: $dev: write: No space left on device (0 of " \
		python3 "$GENRULES" -n 3 -o "$dev"
	set +e
	timeout -s KILL "$BOUND" python3 "$GENRULES" -n 3 > "$dev" 2> "$TMP/e"
	rc=$?
	set -e
	[ "$rc" = 1 ] && [ "$(lines)" = 1 ] &&
		grep -qF "gen-rules.py: standard output: write failed: No space left on device" "$TMP/e" ||
		{ cat "$TMP/e"; fail "gen-rules.py > $dev: exit $rc"; }
done
echo "files: the scripts' inputs and outputs"
echo "files: ok"
