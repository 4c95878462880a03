#!/usr/bin/env bash
# A real Prometheus scrapes a running pktpath: the samples it stores must be
# pktpath's counters (within what pktpath served before and after), and its
# rate() and the per-mode recording rule of config/pktpath.rules.yml must be
# their arithmetic, recomputed exactly from the stored samples
# (promcheck.py: no rate tolerance, so the machine's load cannot decide);
# across a live flip too. promtool must accept the fleet config, the rules
# (checked and unit-tested on synthetic series) and /metrics.
. "$(dirname "$0")/lib.sh"

# They come with scripts/setup.sh: without one the set-up failed.
for t in prometheus promtool curl; do
	command -v "$t" > /dev/null || fail "no $t: run scripts/setup.sh"
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
      - series: 'pktpath_lcore_mode_lost_seconds_total{instance="b:9120",job="pktpath",lcore="1",mode="lock"}'
        values: '0+1x24'
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
      # b lost 1 s of every 6 it spent in lock (5 polled, 1 lost): its
      # lock rate stays 5 Mpps (packets over the seconds it ran), the
      # lost ratio is 1/6
      - expr: round(instance_mode:pktpath_lost_ratio:rate30s, 0.0001)
        eval_time: 60s
        exp_samples:
          - labels: '{instance="b:9120",job="pktpath",mode="lock"}'
            value: 0.1667
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

# Ask Prometheus; check it against what pktpath served before and after.
python3 - "$URL" "$PROMURL" "$TMP" "$(dirname "$0")" <<'PY' || { tail -20 "$TMP/prom.log"; fail "Prometheus and pktpath disagree"; }
import os, sys, time
url, prom, tmp = sys.argv[1:4]
sys.path.insert(0, sys.argv[4])
import promcheck as pc
fam = ("pktpath_mib_total", "pktpath_lcore_mode_")
before = pc.parse(open(os.path.join(tmp, "metrics")).read(), fam)
# 2 s back: every scrape that began before t is committed (1 s timeout).
t = time.time() - 2
up = pc.query(prom, 'up{job="pktpath"}', t)
assert up and float(up[0]["value"][1]) == 1, "target down: %s" % up
sel = 'pktpath_mib_total{group="Ip",field="InReceives"}'
stored = pc.raw(prom, sel, t)
theirs = pc.query(prom, "rate(%s[5s])" % sel, t)
ts, rule, ours, pk, sec = pc.mode_rule(prom, t)
fleet = pc.query(prom, "fleet:pktpath_mpps:rate30s", t)
families = pc.query(prom, 'count(count by (__name__) ({job="pktpath",__name__=~"pktpath_.*"}))', t)
after = pc.metrics(url, fam)
mpps = [float(x) for x in open(os.path.join(tmp, "mpps")) if float(x) > 0]
assert mpps, "pktpath reported no traffic"
# The stored samples are pktpath's counters...
n = pc.bracketed(stored, pc.by_labels(before, "pktpath_mib_total"),
                 pc.by_labels(after, "pktpath_mib_total"), "InReceives")
for name, series in (("pktpath_lcore_mode_packets_total", pk),
                     ("pktpath_lcore_mode_seconds_total", sec)):
    pc.bracketed(series, pc.by_labels(before, name), pc.by_labels(after, name), name)
# ... and rate() and the per-mode rule are their arithmetic.
(labels, pts), = stored.items()
r = float(theirs[0]["value"][1])
pc.close(r, pc.rate(pts, round(t * 1000), 5), "rate(InReceives[5s])")
ours = pc.same_rule(rule, ours, {(("mode", "rcu"),)}, "mode:pktpath_mpps:avg_rate30s")
fleet = float(fleet[0]["value"][1])
families = int(float(families[0]["value"][1]))
print("prometheus: %d InReceives samples, all within pktpath's counter; "
      "rate(InReceives[5s]) %.3f Mpps (pktpath's own intervals: %.3f Mpps); "
      "mode rule %.3f Mpps at %.3f, recomputed exactly; fleet rule %.3f Mpps; "
      "%d families stored" % (n, r / 1e6, sum(mpps[-10:]) / len(mpps[-10:]),
                              rule[(("mode", "rcu"),)], ts / 1000, fleet, families))
# The fleet rule uses 30 s windows and only ~8 s exist yet: rate() divides
# by the whole window, so it only has to evaluate here (its arithmetic is
# checked by promtool test rules above).
assert fleet > 0, "fleet:pktpath_mpps:rate30s is %g" % fleet
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
python3 - "$URL" "$PROMURL" "$(dirname "$0")" <<'PY' || { tail -20 "$TMP/prom2.log"; cat "$TMP/flip.out"; fail "per-mode rate across a flip"; }
import sys, time, urllib.request
url, prom = sys.argv[1:3]
sys.path.insert(0, sys.argv[3])
import promcheck as pc
fam = ("pktpath_lcore_mode_",)
def up():
    for _ in range(100):
        r = pc.query(prom, 'up{job="pktpath"}')
        if r and float(r[0]["value"][1]) == 1:
            return
        time.sleep(0.2)
    sys.exit("pktpath target never up")
def mode_rate(a, b, m):   # pktpath's own pps in mode m between two reads
    p = 'pktpath_lcore_mode_packets_total{lcore="1",mode="%s"}' % m
    s = 'pktpath_lcore_mode_seconds_total{lcore="1",mode="%s"}' % m
    return (b[p] - a[p]) / (b[s] - a[s])
a = pc.metrics(url, fam)
up()
time.sleep(12)
b = pc.metrics(url, fam)
req = urllib.request.Request(url + "ingress/mode", data=b"mode=lock", method="POST")
with urllib.request.urlopen(req, timeout=30) as r:
    assert r.status == 200
time.sleep(1)
c = pc.metrics(url, fam)
time.sleep(5)
d = pc.metrics(url, fam)
time.sleep(1.5)    # two rule evaluations past d
ts, rule, ours, pk, sec = pc.mode_rule(prom, time.time())
e = pc.metrics(url, fam)
for name, series in (("pktpath_lcore_mode_packets_total", pk),
                     ("pktpath_lcore_mode_seconds_total", sec)):
    pc.bracketed(series, {}, pc.by_labels(e, name), name)
off, lock = mode_rate(a, b, "off"), mode_rate(c, d, "lock")
# The rule at its last evaluation, 6 s into lock, is each mode's own packets
# over its own seconds in the window, exactly: a rule that joined on
# pktpath_ingress_mode (the old one) would give lock the window's off
# traffic and differ. (promtool test rules above shows that case with
# synthetic series.)
ours = pc.same_rule(rule, ours, {(("mode", "off"),), (("mode", "lock"),)},
                    "mode:pktpath_mpps:avg_rate30s")
print("prometheus: flip off -> lock: pktpath off %.3f Mpps, lock %.3f Mpps; "
      "rules at %.3f: off %.3f lock %.3f Mpps, recomputed exactly from the "
      "stored Mode counters" % (off / 1e6, lock / 1e6, ts / 1000,
                                rule[(("mode", "off"),)], rule[(("mode", "lock"),)]))
PY
kill -TERM "$PROM"; wait "$PROM" || true
kill -INT "$PKT"
wait "$PKT" || fail "pktpath (flip) exited $?"
echo "prometheus: ok"
