#!/usr/bin/env bash
# Stress: 2 workers on the generator, the ruleset replaced thousands of times
# a second (drop and mark alternately), the guard mode flipped every few
# milliseconds over HTTP through every mode, for seconds. Run in the
# sanitized suite too (scripts/test.sh --sanitize): freed rulesets are
# poisoned, so a use-after-free shows. Checks: exit 0, conservation across
# every flip, every classified packet dropped or marked (one of the two
# rulesets, nothing else), rule updates and grace periods all counted.
. "$(dirname "$0")/lib.sh"
R=${SOURCE_DIR:?}/config/rules
SECS=${STRESS_SECS:-5}
FLIPS=${STRESS_FLIPS:-200}

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# The run lasts until the flipper has flipped FLIPS times and SECS have
# passed (however slow a loaded machine makes each flip), then SIGINT ends
# it with the JSON written; --duration is only a backstop.
"$PKTPATH" $(eal stress) -- --http "127.0.0.1:$port" --http-control --main-worker \
	--duration 300 --ingress rcu --rules "$R/drop-udp-9.rules" \
	--rules-alt "$R/mark-udp-9.rules" --update-rate 5000 --gp-log-us 1000000 \
	--quiet --json "$TMP/stress.json" > "$TMP/stress.out" 2>&1 &
pid=$!
# scripts/flip-latency.py flips through every mode until SECS have passed
# and FLIPS succeeded; on a failure its lines say the slowest flip and the
# first errors (CI once saw 280 flips take 300 s, not again).
"$SOURCE_DIR/scripts/flip-latency.py" "http://127.0.0.1:$port/" --secs "$SECS" \
	--min-flips "$FLIPS" --modes lock,rcu,rwlock,none,off,rcu \
	> "$TMP/flips.out" 2>&1 && frc=0 || frc=$?
kill -INT $pid 2>/dev/null || true
wait $pid || { rc=$?; cat "$TMP/stress.out"; fail "pktpath exit $rc"; }
read -r _ flips _ fails _ < "$TMP/flips.out" || true
[ "$frc" = 0 ] && [ "${flips:-0}" -ge "$FLIPS" ] && [ "$fails" = 0 ] ||
	{ cat "$TMP/flips.out"; tail -20 "$TMP/stress.out"
	  fail "flip-latency.py exit $frc: ${flips:-?} flips, ${fails:-?} failed (want $FLIPS, none failed)"; }
jcheck "$TMP/stress.json" 'd["conservation"]["ok"]' \
	"f(\"Ingress.ModeFlips\") >= $flips * 5 // 6 - 1" \
	'f("Ingress.RuleUpdates") > 0' 'f("Ingress.GracePeriods") == f("Ingress.RuleUpdates")' \
	'f("Ingress.IngressDropped") + f("Ingress.IngressMarked") == f("Ingress.IngressPackets")' \
	'f("Ingress.IngressPackets") < f("Rx.RxPackets")' \
	'f("Ingress.IngressDropped") > 0 and f("Ingress.IngressMarked") > 0'
echo "stress: ok ($(head -1 "$TMP/flips.out"))"
