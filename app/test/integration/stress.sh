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

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$PKTPATH" $(eal stress) -- --http "127.0.0.1:$port" --http-control --main-worker \
	--duration $((SECS + 2)) --ingress rcu --rules "$R/drop-udp-9.rules" \
	--rules-alt "$R/mark-udp-9.rules" --update-rate 5000 --gp-log-us 1000000 \
	--quiet --json "$TMP/stress.json" > "$TMP/stress.out" 2>&1 &
pid=$!
python3 - "$port" "$SECS" > "$TMP/flips.out" <<'PY'
import sys, time, urllib.request
port, secs = int(sys.argv[1]), float(sys.argv[2])
base = "http://127.0.0.1:%d" % port
modes = ["lock", "rcu", "rwlock", "none", "off", "rcu"]
end = None; flips = 0; fails = 0; i = 0
for _ in range(100):          # wait for the endpoint
    try:
        urllib.request.urlopen(base + "/healthz", timeout=1); break
    except Exception:
        time.sleep(0.1)
end = time.time() + secs
while time.time() < end:
    m = modes[i % len(modes)]; i += 1
    try:
        urllib.request.urlopen(urllib.request.Request(base + "/ingress/mode",
            data=("mode=" + m).encode()), timeout=5).read()
        flips += 1
    except Exception as e:
        fails += 1
    time.sleep(0.003)
print(flips, fails)
PY
wait $pid || { cat "$TMP/stress.out"; fail "pktpath exit $?"; }
read -r flips fails < "$TMP/flips.out"
[ "$flips" -gt 100 ] || fail "only $flips flips ($fails failed)"
jcheck "$TMP/stress.json" 'd["conservation"]["ok"]' \
	"f(\"Ingress.ModeFlips\") >= $flips * 5 // 6 - 1" \
	'f("Ingress.RuleUpdates") > 0' 'f("Ingress.GracePeriods") == f("Ingress.RuleUpdates")' \
	'f("Ingress.IngressDropped") + f("Ingress.IngressMarked") == f("Ingress.IngressPackets")' \
	'f("Ingress.IngressPackets") < f("Rx.RxPackets")' \
	'f("Ingress.IngressDropped") > 0 and f("Ingress.IngressMarked") > 0'
echo "stress: ok ($flips flips)"
