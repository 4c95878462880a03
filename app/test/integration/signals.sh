#!/usr/bin/env bash
# Signals at random moments of short runs: SIGINT/SIGTERM always end the run
# cleanly (exit 0, summary printed, JSON complete) whether they land during
# EAL init, set-up, the run or a --compare phase; SIGHUP and SIGUSR1 never
# kill it; a second SIGINT during shutdown forces the exit.
. "$(dirname "$0")/lib.sh"
R=${SOURCE_DIR:?}/config/rules
ROUNDS=${SIGNAL_ROUNDS:-12}

caught() { # caught PID: until PID catches SIGHUP and SIGUSR1 (or 5 s, or it is gone)
	local t m
	for t in $(seq 500); do
		m=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2> /dev/null) || return 0
		[ -n "$m" ] || return 0
		(( (0x$m & 0x201) == 0x201 )) && return 0
		sleep 0.01
	done
}

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
	# SIGUSR1's and SIGHUP's default action ends a process: until
	# pktpath's first statement installs its handlers (after exec, the
	# dynamic loader and DPDK's constructors: 60 ms and more under ASan)
	# nothing can keep them from it. So they go once /proc says both are
	# caught; SIGINT/SIGTERM still land at any moment.
	caught $pid
	kill -USR1 $pid 2>/dev/null || true
	kill -HUP $pid 2>/dev/null || true
	sleep 0.05
	kill -$sig $pid 2>/dev/null || true
	set +e
	wait $pid
	rc=$?
	set -e
	if [ -s "$TMP/s.json" ]; then
		# Landed after set-up: exit 0 and a whole, consistent JSON.
		[ $rc = 0 ] || { cat "$TMP/s.out"; fail "round $i ($sig after ${delay}s): exit $rc"; }
		jcheck "$TMP/s.json" 'd["conservation"]["ok"]' || fail "round $i: conservation"
		grep -q "== summary" "$TMP/s.out" || fail "round $i: no summary"
	else
		# Landed during EAL init or set-up: the default action or a clean exit,
		# never a crash (SIGSEGV/SIGABRT).
		case $rc in 0|130|143) ;; *) cat "$TMP/s.out"; fail "round $i ($sig after ${delay}s): exit $rc, no JSON" ;; esac
	fi
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
