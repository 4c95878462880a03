#!/usr/bin/env bash
# A real Prometheus scrapes a running pktpath: the rate of Ip InReceives it
# computes must agree with the Mpps pktpath reports (a consistency check
# with a generous ratio, not a timing threshold), the recording rules of
# config/pktpath.rules.yml must evaluate, and promtool must accept the
# fleet config, the rules (checked and unit-tested) and /metrics.
. "$(dirname "$0")/lib.sh"

"$PKTPATH" -- --help | grep -q -- '--http ' ||
	{ echo "prometheus: SKIP: this pktpath has no --http option"; exit 77; }
for t in prometheus promtool curl; do
	command -v "$t" > /dev/null || { echo "prometheus: SKIP: no $t"; exit 77; }
done
: "${SOURCE_DIR:=$(cd "$(dirname "$0")/../../.." && pwd)}"
CONF=$SOURCE_DIR/config

PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -9 "$p" 2> /dev/null || true; done
	rm -rf "$TMP"
}
trap cleanup EXIT

# ---- the shipped config and rules --------------------------------------------
promtool check config "$CONF/prometheus.yml" > "$TMP/check" 2>&1 ||
	{ cat "$TMP/check"; fail "promtool check config config/prometheus.yml"; }
promtool check rules "$CONF/pktpath.rules.yml" > "$TMP/check" 2>&1 ||
	{ cat "$TMP/check"; fail "promtool check rules config/pktpath.rules.yml"; }

# Unit test of the recording rules on synthetic series: server a runs 2
# lcores at 10 Mpps each in mode rcu, server b one lcore at 5 Mpps in mode
# lock with 1 Mpps of Udp NoPorts drops (series sampled every 5 s).
cat > "$TMP/rules_test.yml" <<EOF
rule_files: ['$CONF/pktpath.rules.yml']
evaluation_interval: 5s
tests:
  - interval: 5s
    input_series:
      - series: 'pktpath_lcore_packets_total{instance="a:9120",job="pktpath",lcore="1"}'
        values: '0+50000000x24'
      - series: 'pktpath_lcore_packets_total{instance="a:9120",job="pktpath",lcore="2"}'
        values: '0+50000000x24'
      - series: 'pktpath_lcore_packets_total{instance="b:9120",job="pktpath",lcore="1"}'
        values: '0+25000000x24'
      - series: 'pktpath_lcore_busy_cycles_total{instance="b:9120",job="pktpath",lcore="1"}'
        values: '0+1000000000x24'
      - series: 'pktpath_ingress_mode{instance="a:9120",job="pktpath",mode="rcu"}'
        values: '1x24'
      - series: 'pktpath_ingress_mode{instance="a:9120",job="pktpath",mode="lock"}'
        values: '0x24'
      - series: 'pktpath_ingress_mode{instance="b:9120",job="pktpath",mode="lock"}'
        values: '1x24'
      - series: 'pktpath_drops_total{instance="b:9120",job="pktpath",group="Udp",field="NoPorts"}'
        values: '0+5000000x24'
    promql_expr_test:
      - expr: fleet:pktpath_mpps:rate30s
        eval_time: 60s
        exp_samples:
          - labels: 'fleet:pktpath_mpps:rate30s'
            value: 25
      - expr: mode:pktpath_mpps:avg_rate30s
        eval_time: 60s
        exp_samples:
          - labels: 'mode:pktpath_mpps:avg_rate30s{mode="rcu"}'
            value: 20
          - labels: 'mode:pktpath_mpps:avg_rate30s{mode="lock"}'
            value: 5
      - expr: mode:pktpath_seconds_per_packet:avg_rate30s * 1e9
        eval_time: 60s
        exp_samples:
          - labels: '{mode="rcu"}'
            value: 50
          - labels: '{mode="lock"}'
            value: 200
      - expr: instance:pktpath_cycles_per_packet:rate30s
        eval_time: 60s
        exp_samples:
          - labels: 'instance:pktpath_cycles_per_packet:rate30s{instance="b:9120",job="pktpath"}'
            value: 40
      - expr: instance:pktpath_drop_ratio:rate30s
        eval_time: 60s
        exp_samples:
          - labels: 'instance:pktpath_drop_ratio:rate30s{instance="b:9120",job="pktpath"}'
            value: 0.2
      - expr: fleet:pktpath_drops_by_reason:rate30s
        eval_time: 60s
        exp_samples:
          - labels: 'fleet:pktpath_drops_by_reason:rate30s{group="Udp",field="NoPorts"}'
            value: 1000000
EOF
promtool test rules "$TMP/rules_test.yml" > "$TMP/check" 2>&1 ||
	{ cat "$TMP/check"; fail "promtool test rules"; }

# ---- a live pktpath ------------------------------------------------------------
"$PKTPATH" $(eal prom) -- --duration 120 --quiet --interval 1 --ingress rcu \
	--http 127.0.0.1:0 > "$TMP/pktpath.out" 2>&1 &
PIDS+=($!); PKT=$!
for i in $(seq 100); do
	URL=$(grep -so 'http: listening on http://[^ ]*/' "$TMP/pktpath.out" |
		sed 's/http: listening on //') || true
	[ -n "$URL" ] && break
	kill -0 "$PKT" 2> /dev/null || break
	sleep 0.1
done
[ -n "$URL" ] || { cat "$TMP/pktpath.out"; fail "pktpath: no 'http: listening on' line"; }
TARGET=${URL#http://}; TARGET=${TARGET%/}
curl -sf "${URL}metrics" > "$TMP/metrics" || fail "GET /metrics"
promtool check metrics < "$TMP/metrics" || fail "promtool check metrics"

# ---- a real Prometheus: 1 s scrapes, a temporary data dir, a free port ---------
PPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files: ['$CONF/pktpath.rules.yml']
scrape_configs:
  - job_name: pktpath
    static_configs:
      - targets: ['$TARGET']
        labels: {role: test}
EOF
promtool check config "$TMP/prometheus.yml" > "$TMP/check" 2>&1 ||
	{ cat "$TMP/check"; fail "promtool check config (test config)"; }
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/data" \
	--web.listen-address="127.0.0.1:$PPORT" > "$TMP/prom.log" 2>&1 &
PIDS+=($!); PROM=$!
PROMURL=http://127.0.0.1:$PPORT
for i in $(seq 300); do
	curl -sf "$PROMURL/-/ready" > /dev/null 2>&1 && break
	kill -0 "$PROM" 2> /dev/null || { cat "$TMP/prom.log"; fail "prometheus exited"; }
	sleep 0.1
done
curl -sf "$PROMURL/-/ready" > /dev/null || { tail -20 "$TMP/prom.log"; fail "prometheus not ready"; }

# Let it scrape for ~8 s, sampling pktpath's own Mpps meanwhile.
: > "$TMP/mpps"
for i in $(seq 16); do
	sleep 0.5
	curl -sf "${URL}stats.json" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["interval"]["mpps"])' >> "$TMP/mpps"
done

# Ask Prometheus; compare with what pktpath says.
q() { curl -sf "$PROMURL/api/v1/query" --data-urlencode "query=$1"; }
q 'up{job="pktpath"}' > "$TMP/up.json"
q 'rate(pktpath_mib_total{group="Ip",field="InReceives"}[5s])' > "$TMP/rate.json"
q 'fleet:pktpath_mpps:rate30s' > "$TMP/fleet.json"
q 'mode:pktpath_mpps:avg_rate30s' > "$TMP/mode.json"
q 'count(count by (__name__) ({job="pktpath",__name__=~"pktpath_.*"}))' > "$TMP/families.json"
python3 - "$TMP" <<'PY' || { tail -20 "$TMP/prom.log"; fail "Prometheus and pktpath disagree"; }
import json, sys, os
t = sys.argv[1]
def val(name):
    d = json.load(open(os.path.join(t, name)))
    assert d["status"] == "success", d
    r = d["data"]["result"]
    assert r, "%s: empty result (no samples scraped?)" % name
    return r
mpps = [float(x) for x in open(os.path.join(t, "mpps")) if float(x) > 0]
assert mpps, "pktpath reported no traffic"
ours = sum(mpps[-10:]) / len(mpps[-10:])
assert float(val("up.json")[0]["value"][1]) == 1, "target down"
theirs = float(val("rate.json")[0]["value"][1]) / 1e6
fleet = float(val("fleet.json")[0]["value"][1])
modes = {r["metric"]["mode"]: float(r["value"][1]) for r in val("mode.json")}
families = int(float(val("families.json")[0]["value"][1]))
print("prometheus: rate(InReceives[5s]) %.3f Mpps, fleet rule %.3f Mpps, "
      "pktpath %.3f Mpps, modes %s, %d families stored" %
      (theirs, fleet, ours, modes, families))
assert 0.5 <= theirs / ours <= 1.5, "rate(InReceives) %.3f vs pktpath %.3f Mpps" % (theirs, ours)
# The rules use 30 s windows and only ~8 s exist yet: rate() divides by the
# whole window, so they only have to evaluate here (their arithmetic is
# checked by promtool test rules above).
assert fleet > 0, "fleet:pktpath_mpps:rate30s is %g" % fleet
assert list(modes) == ["rcu"], modes
assert families > 20, families
PY

kill -TERM "$PROM"; wait "$PROM" || true
kill -INT "$PKT"
wait "$PKT" || fail "pktpath exited $?"
echo "prometheus: ok"
