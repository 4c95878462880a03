#!/usr/bin/env bash
# --compare and the run's configuration, for every knob the binary has (its
# list read from its own refusal of a knob that is not one, so a knob added
# without a case here fails): info.config names the values the phases ran
# ("field,lcore"), not the option's default, and the loop each phase ran
# ("full,full-prefetch"), in --json, /stats.json, /config
# and, for the knobs pktpath_info carries, /metrics' labels; and one value is
# refused with one line, exit 2 (it compares nothing). Counts and text only.
. "$(dirname "$0")/lib.sh"

set +e
"$PKTPATH" $(eal list) -- --http off --compare nope=1,2 > /dev/null 2> "$TMP/list.err"
rc=$?
set -e
[ "$rc" = 2 ] || { cat "$TMP/list.err"; fail "not a knob: exit $rc"; }
knobs=$(sed -n "s/.*'nope' is not a knob: one of \([a-z|-]*\) .*/\1/p" "$TMP/list.err" | tr '|' ' ')
[ -n "$knobs" ] || { cat "$TMP/list.err"; fail "no knob list in the refusal"; }

# case KNOB: VALUES (two), EAL (extra EAL options), ARGS (what it needs)
case_of() {
	EAL= ARGS=
	case $1 in
	ingress) VALUES=none,rcu ;;
	lock-scope) VALUES=packet,burst ARGS="--ingress lock" ;;
	fold) VALUES=field,lcore ;;
	prefetch) VALUES=off,on ;;
	burst) VALUES=16,32 ;;
	alloc) VALUES=reuse,bulk ;;
	peer-layout) VALUES=shared,split ARGS="--peer on" ;;
	rx-csum) VALUES=auto,sw EAL="--vdev net_null0" ARGS="--source port" ;;
	mib-layout) VALUES=percpu,shared ;;
	*) fail "knob $1 has no case here: add one" ;;
	esac
}

n=0
for k in $knobs; do
	case_of "$k"
	key=${k//-/_}
	one=${VALUES%%,*}
	# one value: refused in one line, exit 2
	set +e
	# shellcheck disable=SC2086
	"$PKTPATH" $(eal "one$n") $EAL -- --http off $ARGS --compare "$k=$one" \
		> /dev/null 2> "$TMP/one.err"
	rc=$?
	set -e
	lines=$(grep -v '^EAL:\|^TELEMETRY:' "$TMP/one.err" | grep -c . || true)
	want="pktpath: --compare: $k: '$one' alone compares nothing: give two values or more, or --$k $one to run with it"
	[ "$rc" = 2 ] && [ "$lines" = 1 ] && grep -qxF -- "$want" "$TMP/one.err" ||
		{ cat "$TMP/one.err"; fail "$k=$one: exit $rc, $lines lines, want 2, 1: $want"; }

	# two values: every report of the configuration says them; the run is
	# stopped by SIGINT once read (a compare ends with its whole JSON)
	# shellcheck disable=SC2086
	"$PKTPATH" $(eal "two$n") $EAL -- --http 127.0.0.1:0 $ARGS --compare "$k=$VALUES" \
		--rounds 200 --duration 0.2 --phase-warmup 0 --interval 0.1 --quiet \
		--json "$TMP/$k.json" > "$TMP/$k.out" 2>&1 &
	pid=$!
	PIDS+=("$pid")
	http_url "$k" "$TMP/$k.out" "$pid"
	curl -sf "${URL}stats.json" > "$TMP/$k.live.json" || { kill -INT "$pid"; fail "$k: /stats.json"; }
	curl -sf "${URL}metrics" > "$TMP/$k.metrics" || { kill -INT "$pid"; fail "$k: /metrics"; }
	curl -sf "${URL}config" > "$TMP/$k.config.json" || { kill -INT "$pid"; fail "$k: /config"; }
	kill -INT "$pid"
	wait "$pid" || { cat "$TMP/$k.out"; fail "$k: exit $?"; }
	for f in "$TMP/$k.json" "$TMP/$k.live.json" "$TMP/$k.config.json"; do
		python3 - "$f" "$key" "$VALUES" <<'PY' || fail "$k: $(basename "$f"): info.config"
import json, sys
d = json.load(open(sys.argv[1]))
# /config is info flattened, info.config's members at its top
c = d["info"]["config"] if "info" in d else d
got = c.get(sys.argv[2])
if got != sys.argv[3]:
    sys.exit("%s: info.config.%s is %r, want %r" % (sys.argv[1], sys.argv[2], got, sys.argv[3]))
# the loop each phase ran, in the phases' order: prefetch=off,on runs
# two (it said worker 0's first loop for the whole run)
loops = c.get("loop", "").split(",")
if len(loops) != len(sys.argv[3].split(",")) or \
        (sys.argv[2] == "prefetch" and loops != ["full", "full-prefetch"]):
    sys.exit("%s: info.config.loop is %r for %s=%s" % (
        sys.argv[1], c.get("loop"), sys.argv[2], sys.argv[3]))
PY
	done
	case $key in fold | mib_layout | burst | alloc | prefetch)
		grep -q "^pktpath_info{.*,$key=\"$VALUES\"" "$TMP/$k.metrics" ||
			{ grep '^pktpath_info' "$TMP/$k.metrics"; fail "$k: pktpath_info"; } ;;
	esac
	n=$((n + 1))
done
[ "$n" -ge 9 ] || fail "only $n knobs"
echo "compare-info: $n knobs: ok"
