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

# ---- the shipped config and rules --------------------------------------------
promtool check config "$CONF/prometheus.yml" > "$TMP/check" 2>&1 ||
	{ cat "$TMP/check"; fail "promtool check config config/prometheus.yml"; }
promtool check rules "$CONF/pktpath.rules.yml" > "$TMP/check" 2>&1 ||
	{ cat "$TMP/check"; fail "promtool check rules config/pktpath.rules.yml"; }

# Unit test of the recording rules on synthetic series: server a runs 2
# lcores at 10 Mpps each in mode rcu, server b one lcore at 5 Mpps in mode
# lock with 1 Mpps of Udp NoPorts drops (series sampled every 5 s). Server c
# flips: 40 Mpps in off for 60 s, then 10 Mpps in lock. 5 s after the flip
# lock must read 10 Mpps (its own traffic only; the old join on
# pktpath_ingress_mode read the window's average, ~35) and off still 40.
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
      - series: 'pktpath_lcore_mode_packets_total{instance="a:9120",job="pktpath",lcore="1",mode="rcu"}'
        values: '0+50000000x24'
      - series: 'pktpath_lcore_mode_seconds_total{instance="a:9120",job="pktpath",lcore="1",mode="rcu"}'
        values: '0+5x24'
      - series: 'pktpath_lcore_mode_packets_total{instance="a:9120",job="pktpath",lcore="2",mode="rcu"}'
        values: '0+50000000x24'
      - series: 'pktpath_lcore_mode_seconds_total{instance="a:9120",job="pktpath",lcore="2",mode="rcu"}'
        values: '0+5x24'
      - series: 'pktpath_lcore_mode_packets_total{instance="a:9120",job="pktpath",lcore="1",mode="lock"}'
        values: '0x24'
      - series: 'pktpath_lcore_mode_seconds_total{instance="a:9120",job="pktpath",lcore="1",mode="lock"}'
        values: '0x24'
      - series: 'pktpath_lcore_mode_packets_total{instance="b:9120",job="pktpath",lcore="1",mode="lock"}'
        values: '0+25000000x24'
      - series: 'pktpath_lcore_mode_seconds_total{instance="b:9120",job="pktpath",lcore="1",mode="lock"}'
        values: '0+5x24'
      - series: 'pktpath_lcore_mode_busy_cycles_total{instance="b:9120",job="pktpath",lcore="1",mode="lock"}'
        values: '0+1000000000x24'
      - series: 'pktpath_lcore_mode_packets_total{instance="c:9120",job="pktpath",lcore="1",mode="off"}'
        values: '0+200000000x12 2400000000x12'
      - series: 'pktpath_lcore_mode_seconds_total{instance="c:9120",job="pktpath",lcore="1",mode="off"}'
        values: '0+5x12 60x12'
      - series: 'pktpath_lcore_mode_packets_total{instance="c:9120",job="pktpath",lcore="1",mode="lock"}'
        values: '0x12 50000000+50000000x12'
      - series: 'pktpath_lcore_mode_seconds_total{instance="c:9120",job="pktpath",lcore="1",mode="lock"}'
        values: '0x12 5+5x12'
      - series: 'pktpath_drops_total{instance="b:9120",job="pktpath",group="Udp",field="NoPorts"}'
        values: '0+5000000x24'
    promql_expr_test:
      - expr: fleet:pktpath_mpps:rate30s
        eval_time: 60s
        exp_samples:
          - labels: 'fleet:pktpath_mpps:rate30s'
            value: 25
      - expr: mode:pktpath_mpps:avg_rate30s{mode!="off"}
        eval_time: 50s
        exp_samples:
          - labels: 'mode:pktpath_mpps:avg_rate30s{mode="rcu"}'
            value: 20
          - labels: 'mode:pktpath_mpps:avg_rate30s{mode="lock"}'
            value: 5
      - expr: mode:pktpath_seconds_per_packet:avg_rate30s{mode!="off"} * 1e9
        eval_time: 50s
        exp_samples:
          - labels: '{mode="rcu"}'
            value: 50
          - labels: '{mode="lock"}'
            value: 200
      - expr: round(instance_mode:pktpath_packets_per_second:rate30s{instance="c:9120"} / 1e6, 0.001)
        eval_time: 65s
        exp_samples:
          - labels: '{instance="c:9120",job="pktpath",mode="off"}'
            value: 40
          - labels: '{instance="c:9120",job="pktpath",mode="lock"}'
            value: 10
      - expr: round(mode:pktpath_mpps:avg_rate30s, 0.001)
        eval_time: 65s
        exp_samples:
          - labels: '{mode="rcu"}'
            value: 20
          - labels: '{mode="off"}'
            value: 40
          - labels: '{mode="lock"}'
            value: 7.5
      - expr: instance_mode:pktpath_cycles_per_packet:rate30s
        eval_time: 60s
        exp_samples:
          - labels: 'instance_mode:pktpath_cycles_per_packet:rate30s{instance="b:9120",job="pktpath",mode="lock"}'
            value: 40
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
http_url pktpath "$TMP/pktpath.out" "$PKT"
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
# The per-mode rule needs no full window: it divides the mode's packets by
# the mode's own seconds.
assert 0.8 <= modes["rcu"] / ours <= 1.25, "mode rcu %.3f vs pktpath %.3f Mpps" % (modes["rcu"], ours)
assert families > 20, families
PY

kill -TERM "$PROM"; wait "$PROM" || true
kill -INT "$PKT"
wait "$PKT" || fail "pktpath exited $?"

# ---- per-mode rates across a live flip ------------------------------------------
# off (no classification) for ~12 s, then lock with 10,000 rules classified
# one packet per lock (several times slower). 6 s after the flip, the
# recording rules' lock rate must be pktpath's own lock rate (from its Mode
# counters over nearly the same seconds, within 30 %), and not the window's
# mix: with the old rules it read mostly off traffic.
"$PKTPATH" $(eal flip) -- --duration 120 --quiet --interval 0.5 --ingress off --lock-scope packet \
	--rules "$CONF/rules/acl-10000.rules" --http 127.0.0.1:0 --http-control \
	> "$TMP/flip.out" 2>&1 &
PIDS+=($!); PKT=$!
URL=
http_url flip "$TMP/flip.out" "$PKT" 200
TARGET=${URL#http://}; TARGET=${TARGET%/}
sed -i "s/- targets: \['[^']*'\]/- targets: ['$TARGET']/" "$TMP/prometheus.yml"
rm -rf "$TMP/data"
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/data" \
	--web.listen-address="127.0.0.1:$PPORT" > "$TMP/prom2.log" 2>&1 &
PIDS+=($!); PROM=$!
for i in $(seq 300); do
	curl -sf "$PROMURL/-/ready" > /dev/null 2>&1 && break
	kill -0 "$PROM" 2> /dev/null || { cat "$TMP/prom2.log"; fail "prometheus exited"; }
	sleep 0.1
done
python3 - "$URL" "$PROMURL" <<'PY' || { tail -20 "$TMP/prom2.log"; cat "$TMP/flip.out"; fail "per-mode rate across a flip"; }
import json, sys, time, urllib.parse, urllib.request
url, prom = sys.argv[1], sys.argv[2]
def metrics():
    with urllib.request.urlopen(url + "metrics", timeout=10) as r:
        d = {}
        for l in r.read().decode().splitlines():
            if l.startswith("pktpath_lcore_mode_"):
                k, v = l.rsplit(" ", 1)
                d[k] = float(v)
        return d
def mode_rate(a, b, m):   # pktpath's own pps in mode m between two scrapes
    p = 'pktpath_lcore_mode_packets_total{lcore="1",mode="%s"}' % m
    s = 'pktpath_lcore_mode_seconds_total{lcore="1",mode="%s"}' % m
    return (b[p] - a[p]) / (b[s] - a[s])
def query(q):
    u = prom + "/api/v1/query?" + urllib.parse.urlencode({"query": q})
    with urllib.request.urlopen(u, timeout=10) as r:
        d = json.loads(r.read())
    assert d["status"] == "success", d
    return {x["metric"].get("mode", ""): float(x["value"][1]) for x in d["data"]["result"]}
def up():
    for _ in range(100):
        if query('up{job="pktpath"}').get("") == 1:
            return
        time.sleep(0.2)
    sys.exit("pktpath target never up")
up()
a = metrics()
time.sleep(12)
b = metrics()
off = mode_rate(a, b, "off")
req = urllib.request.Request(url + "ingress/mode", data=b"mode=lock", method="POST")
with urllib.request.urlopen(req, timeout=30) as r:
    assert r.status == 200
time.sleep(1)
c = metrics()
time.sleep(5)
d = metrics()
lock = mode_rate(c, d, "lock")
time.sleep(1.5)    # two rule evaluations past d
theirs = query("mode:pktpath_mpps:avg_rate30s")
mix = query('sum(rate(pktpath_lcore_packets_total[30s])) / 1e6')
print("prometheus: flip off -> lock: pktpath off %.3f Mpps, lock %.3f Mpps; rules %s; "
      "all modes mixed over 30 s %s" % (off / 1e6, lock / 1e6, theirs, mix))
# With off at 2.5 times lock or more, a lock rate fed by the window's mix
# would be 1.9 times the real one or more (12 s of off, 7 of lock): the
# bounds below tell the two apart whatever the machine's load.
assert off > 2.5 * lock, "off %.3f vs lock %.3f Mpps: too close to tell a mix" % (off / 1e6, lock / 1e6)
assert set(theirs) == {"off", "lock"}, theirs
assert 0.7 <= theirs["lock"] * 1e6 / lock <= 1.4, "lock: rules %.3f, pktpath %.3f Mpps" % (theirs["lock"], lock / 1e6)
assert 0.7 <= theirs["off"] * 1e6 / off <= 1.4, "off: rules %.3f, pktpath %.3f Mpps" % (theirs["off"], off / 1e6)
PY
kill -TERM "$PROM"; wait "$PROM" || true
kill -INT "$PKT"
wait "$PKT" || fail "pktpath (flip) exited $?"
echo "prometheus: ok"
