#!/usr/bin/env bash
# Signals: SIGINT/SIGTERM sent at every point from the moment pktpath's
# handlers exist (its .preinit_array, before the libraries' initialisers) to
# the end of set-up, and at random moments of short runs, always end as the
# README says, never by the signal's default action: before the run (the
# libraries' initialisers, EAL init, set-up) set-up stops at its next step
# with one line and exit 128 + the signal (there is no run to report);
# during the run or a --compare phase the run ends with its summary and a
# whole JSON, exit 0. SIGHUP and SIGUSR1 never kill it; a second SIGINT
# during shutdown forces the exit.
. "$(dirname "$0")/lib.sh"
R=${SOURCE_DIR:?}/config/rules
ROUNDS=${SIGNAL_ROUNDS:-12}

caught() { # caught PID [MASK]: until PID, once it runs pktpath (before the
	# exec, the forked shell's own handlers are in /proc), catches the
	# signals of MASK (hex, default SIGHUP and SIGUSR1) by /proc's SigCgt,
	# or it is gone (5 s at most)
	local t m want=${2:-201} exe
	exe=$(readlink -f "$PKTPATH")
	for t in $(seq 5000); do
		[ "$(readlink "/proc/$1/exe" 2> /dev/null)" = "$exe" ] || {
			kill -0 "$1" 2> /dev/null || return 0
			continue
		}
		m=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2> /dev/null) || return 0
		[ -n "$m" ] || return 0
		(( (0x$m & 0x$want) == 0x$want )) && return 0
		sleep 0.001
	done
}
# stopped NAME RC OUT SIG: set-up a signal stopped ended as documented
stopped() {
	local want=$((128 + $(kill -l "$4")))
	[ "$2" = "$want" ] || { cat "$3"; fail "$1: exit $2, want $want"; }
	grep -Eq "^pktpath: SIG$4 during set-up \(.+\): stopped$" "$3" ||
		{ cat "$3"; fail "$1: no 'during set-up' line (the default action?)"; }
	! grep -q "== summary" "$3" || { cat "$3"; fail "$1: a summary of no run"; }
}
# either NAME RC OUT JSON SIG: one of the two documented ends
either() {
	if grep -q "during set-up (" "$3"; then
		stopped "$1" "$2" "$3" "$5"
	else
		ended "$1" "$2" "$3" "$4"
	fi
}
# ended NAME RC OUT JSON: a run a signal stopped ended as documented
ended() {
	[ "$2" = 0 ] || { cat "$3"; fail "$1: exit $2, want 0 (a signal's default action is 130/143)"; }
	grep -q "== summary" "$3" || { cat "$3"; fail "$1: no summary"; }
	[ -s "$4" ] && jcheck "$4" 'd["conservation"]["ok"]' || { cat "$3"; fail "$1: no whole JSON"; }
}

# At each point, deterministically: pktpath-sigprobe.so raises the signal
# there (not in sanitized builds, which cannot preload it).
if [ -n "${PKTPATH_SIGPROBE_SO:-}" ]; then
	for point in ctor eal telemetry eal-done setup pool port thread launch; do
		for sig in INT TERM; do
			src=(); [ $point = port ] && src=(--vdev net_null0)
			app=(); [ $point = port ] && app=(--source port)
			rm -f "$TMP/p.json"
			set +e
			LD_PRELOAD=$PKTPATH_SIGPROBE_SO PKTPATH_SIGPROBE=$point:$sig \
				"$PKTPATH" $(eal "probe_$point$sig") "${src[@]}" -- --http 127.0.0.1:0 \
				--duration 0 --quiet "${app[@]}" --json "$TMP/p.json" > "$TMP/p.out" 2>&1
			rc=$?
			set -e
			grep -q "^sigprobe: SIG$sig at $point\$" "$TMP/p.out" ||
				{ cat "$TMP/p.out"; fail "SIG$sig at $point: the probe did not fire"; }
			# the ports' set-up is the last step: a signal there
			# lets the run start and end, which puts them back
			case $point in
			port|thread|launch) ended "SIG$sig at $point" $rc "$TMP/p.out" "$TMP/p.json" ;;
			*) stopped "SIG$sig at $point" $rc "$TMP/p.out" $sig ;;
			esac
		done
	done
fi
# From outside: once /proc says the handlers are there (SigCgt: SIGINT and
# SIGTERM, bits 2 and 15), after 0 to 57 ms: EAL init and set-up.
for i in $(seq 20); do
	sig=$([ $((i % 2)) = 0 ] && echo INT || echo TERM)
	rm -f "$TMP/e.json"
	"$PKTPATH" $(eal "early$i") -- --http 127.0.0.1:0 --duration 0 --quiet \
		--json "$TMP/e.json" > "$TMP/e.out" 2>&1 &
	pid=$!
	caught $pid 4002
	sleep "$(printf '0.%03d' $(( (i * 3) % 60 )))"
	kill -$sig $pid
	set +e
	wait $pid
	rc=$?
	set -e
	either "SIG$sig $(( (i * 3) % 60 )) ms after the handlers" $rc "$TMP/e.out" \
		"$TMP/e.json" $sig
done

for i in $(seq "$ROUNDS"); do
	sig=$([ $((i % 2)) = 0 ] && echo INT || echo TERM)
	delay=$(python3 -c "import random; print('%.3f' % random.uniform(0.05, 2.0))")
	case $((i % 3)) in
	0) args=(--duration 0) ;;
	1) args=(--duration 0 --ingress rcu --rules "$R/drop-udp-9.rules" --rules-alt "$R/mark-udp-9.rules" --update-rate 200) ;;
	2) args=(--compare off,lock,rcu --duration 0.3 --rounds 5 --phase-warmup 0.05) ;;
	esac
	rm -f "$TMP/s.json"
	"$PKTPATH" $(eal "sig$i") -- --http 127.0.0.1:0 "${args[@]}" --quiet --json "$TMP/s.json" \
		> "$TMP/s.out" 2>&1 &
	pid=$!
	sleep "$delay"
	# SIGUSR1's and SIGHUP's default action ends a process: until the
	# loader runs pktpath's .preinit_array (after exec and its own work:
	# milliseconds, more under ASan) nothing can keep them from it. So
	# every signal goes once /proc says they are caught.
	caught $pid
	kill -USR1 $pid 2>/dev/null || true
	kill -HUP $pid 2>/dev/null || true
	sleep 0.05
	kill -$sig $pid 2>/dev/null || true
	set +e
	wait $pid
	rc=$?
	set -e
	# Wherever it landed: set-up stopped, or exit 0 and a whole JSON.
	either "round $i ($sig after ${delay}s)" $rc "$TMP/s.out" "$TMP/s.json" $sig
done

# A second SIGINT while the first one's shutdown is under way forces the exit.
"$PKTPATH" $(eal sig2) -- --http 127.0.0.1:0 --duration 0 --quiet > "$TMP/s2.out" 2>&1 &
pid=$!
sleep 1.5
kill -INT $pid; kill -INT $pid
set +e
wait $pid
rc=$?
set -e
case $rc in 0|130) ;; *) cat "$TMP/s2.out"; fail "double SIGINT: exit $rc" ;; esac
echo "signals: ok"
