#!/usr/bin/env bash
# The HTTP endpoint and the DPDK telemetry commands of the live binary: every
# endpoint and error, slow and vanishing clients, floods of silent,
# slowloris and half-open connections against scrapes, oversized requests
# generated over their sizes, 100 scrapes with ingress
# mode flips and a clear in between (counters never go back), /snmp against
# /stats.json, promtool on /metrics in every mode, dpdk-telemetry.py on every
# /pktpath/ command.
. "$(dirname "$0")/lib.sh"

# curl comes with scripts/setup.sh: without it the set-up failed.
command -v curl > /dev/null || fail "no curl: run scripts/setup.sh"

# start NAME ARGS...: run pktpath in the background until stopped, wait for
# its "http: listening on URL" line; sets URL and PID.
start() {
	local name=$1; shift
	"$PKTPATH" $(eal "$name") -- --duration 120 --quiet "$@" \
		> "$TMP/$name.out" 2>&1 &
	PID=$!
	PIDS+=("$PID")
	http_url "$name" "$TMP/$name.out" "$PID"
}
stop() { # stop: SIGINT, must exit 0
	kill -INT "$PID"
	wait "$PID" || fail "pktpath exited $? after SIGINT"
}
# req METHOD PATH WANT-CODE [curl args...]: the status must be WANT-CODE;
# the body is left in $TMP/body, headers in $TMP/head.
req() {
	local m=$1 p=$2 want=$3 code; shift 3
	code=$(curl -s -o "$TMP/body" -D "$TMP/head" -w '%{http_code}' -X "$m" \
		--max-time 10 "$@" "$URL${p#/}") || true
	[ "$code" = "$want" ] ||
		fail "$m $p: HTTP $code, want $want: $(head -c 300 "$TMP/body")"
}
one_line() { # the error body is one line of text
	[ "$(wc -l < "$TMP/body")" = 1 ] || fail "error body is not one line: $(cat "$TMP/body")"
}
promcheck() { # promtool accepts $TMP/body
	promtool check metrics < "$TMP/body" || fail "promtool check metrics ($1)"
}
# promtool comes with scripts/setup.sh (prometheus): without it the set-up failed.
command -v promtool > /dev/null || fail "no promtool: run scripts/setup.sh"

# ---- read-only instance: endpoints and errors --------------------------------
start ro --http 127.0.0.1:0 --interval 2
case $URL in http://127.0.0.1:[0-9]*/) ;; *) fail "bad URL '$URL'" ;; esac
req GET / 200;           grep -q '/metrics' "$TMP/body" || fail "index"
# --help's --http names every path the index lists for GET (both are the
# control table's)
help=$("$PKTPATH" -- --help | tr -s ' \n' '  ')
n=0
for p in $(awk '$1 == "GET" { print $2 }' "$TMP/body"); do
	case $help in *" $p,"* | *" $p;"*) n=$((n + 1)) ;;
	*) fail "--help's --http does not name GET $p" ;; esac
done
[ "$n" -ge 19 ] || fail "the index lists $n GET paths"
req GET /healthz 200;    grep -q '^ok' "$TMP/body" || fail "healthz"
req GET /metrics 200
grep -qi '^Content-Type: text/plain; version=0.0.4' "$TMP/head" || fail "metrics content type"
grep -q '^pktpath_info{' "$TMP/body" || fail "no pktpath_info"
grep -q '^pktpath_lcore_packets_total{lcore="1"} ' "$TMP/body" || fail "no lcore series"
grep -q 'pktpath_lcore_mib_total' "$TMP/body" && fail "lcore MIB series without --metrics-lcore-mib"
promcheck default
req HEAD /metrics 200 -I
req GET /stats.json 200
grep -qi '^Content-Type: application/json' "$TMP/head" || fail "json content type"
req GET /netstat 200;    grep -q '^IpExt: InNoRoutes' "$TMP/body" || fail "netstat"

# /snmp parses back into the /stats.json totals of the same snapshot: the
# snapshot is the same when the seq before and after is.
ok=
for i in $(seq 20); do
	curl -sf "${URL}stats.json" > "$TMP/a.json"
	curl -sf "${URL}snmp" > "$TMP/snmp"
	curl -sf "${URL}stats.json" > "$TMP/b.json"
	rc=0
	python3 - "$TMP/a.json" "$TMP/snmp" "$TMP/b.json" <<'PY' || rc=$?
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[3]))
if a["seq"] != b["seq"] or a["mib"]["Ip"]["InReceives"] == 0:
    sys.exit(3)             # a fold in between, or no traffic yet: again
lines = open(sys.argv[2]).read().splitlines()
assert len(lines) == 10, lines        # Ip Icmp Tcp Udp UdpLite, two lines each
n = 0
for h, v in zip(lines[0::2], lines[1::2]):
    g, names = h.split(":"); g2, vals = v.split(":")
    assert g == g2
    names, vals = names.split(), [int(x) for x in vals.split()]
    assert len(names) == len(vals)
    for k, x in zip(names, vals):
        want = 0 if g == "UdpLite" else a["mib"][g][k]
        assert x == want, (g, k, x, want)
        n += 1
assert a["mib"]["Tcp"]["MaxConn"] == -1
print("http: /snmp: %d values match /stats.json seq %d" % (n, a["seq"]))
PY
	[ "$rc" = 0 ] && { ok=1; break; }
	[ "$rc" = 3 ] || fail "/snmp does not match /stats.json"
	sleep 0.3
done
[ -n "$ok" ] || fail "/snmp: never got two requests within one snapshot"

req GET /nope 404;             one_line
req GET /metrics/ 404;         one_line
req POST /metrics 405 -d x=1;  one_line
grep -qi '^Allow: GET, HEAD' "$TMP/head" || fail "405 without Allow: GET, HEAD"
req GET /stats/clear 405;      one_line
grep -qi '^Allow: POST' "$TMP/head" || fail "405 without Allow: POST"
req POST /stats/clear 403;     one_line
req POST /ingress/mode 403 -d mode=rcu
req GET /healthz 200           # still serving

# A slow client (half a request line) and one that vanishes mid-body do not
# hold up the others: every request is answered within urlopen's 5 s, half
# the 10 s a held-up server would take (a bound, not a timing threshold).
python3 - "${URL#http://}" <<'PY' || fail "slow or vanished client blocked the server"
import socket, sys, time, urllib.request
host, port = sys.argv[1].rstrip("/").rsplit(":", 1)
slow = socket.create_connection((host, int(port))); slow.send(b"GET /metr")
gone = socket.create_connection((host, int(port)))
gone.send(b"POST /ingress/rules HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nrule ")
gone.close()
for i in range(20):
    with urllib.request.urlopen("http://%s:%s/healthz" % (host, port), timeout=5) as r:
        assert r.status == 200
slow.close()
PY

# 32 slow clients, each sending one header line a second and never the end
# of its headers (only on 127.0.0.1): /metrics and /healthz are served all
# along, and the server closes every slow one after its 10 s for the
# headers, though each keeps sending. Then framing that could smuggle a
# request: two different Content-Length headers, 400 in one line.
python3 - "${URL#http://}" <<'PY' || fail "slow clients locked the endpoint out"
import socket, sys, time, urllib.request
host, port = sys.argv[1].rstrip("/").rsplit(":", 1)
port = int(port)
assert host == "127.0.0.1"
slow = []
for i in range(32):
    s = socket.create_connection((host, port))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    slow.append(s)
t0 = time.time()
scrapes = 0
for sec in range(40):
    alive = []
    for s in slow:
        try:
            s.sendall(b"X-Slow-%d: y\r\n" % sec)
            s.setblocking(False)
            try:
                if s.recv(1) == b"":
                    raise ConnectionError
            except BlockingIOError:
                pass
            s.setblocking(True)
            alive.append(s)
        except (ConnectionError, OSError):
            s.close()
    if time.time() - t0 < 5:    # well within their 10 s
        assert len(alive) == 32, "only %d slow clients connected at second %d" % (len(alive), sec)
    slow = alive
    for p in ("metrics", "healthz"):
        with urllib.request.urlopen("http://%s:%d/%s" % (host, port, p), timeout=10) as r:
            assert r.status == 200, (p, r.status)
            r.read()
        scrapes += 1
    if not slow:
        break
    time.sleep(1)
assert not slow, "%d slow clients still open after %.0f s" % (len(slow), time.time() - t0)
print("http: 32 slow clients closed by the server after %.0f s; %d scrapes served meanwhile"
      % (time.time() - t0, scrapes))
s = socket.create_connection((host, port))
s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
          b"Content-Length: 0\r\nContent-Length: 5\r\n\r\nhello")
resp = b""
while True:
    b = s.recv(4096)
    if not b:
        break
    resp += b
head, _, body = resp.partition(b"\r\n\r\n")
assert head.startswith(b"HTTP/1.1 400"), head
assert body == b"conflicting Content-Length headers (2 given, the first '0')\n", body
PY

# Floods from the scraper's own address (127.0.0.1, the default listen
# address) and from others, at and beyond the per-address (64) and global
# (256) limits: silent connections, slowloris ones (a header line now and
# then), half-open ones (the client gone without a FIN: TCP_REPAIR), while
# a scraper's new connections ask /metrics. Every scrape must be answered
# 200 (64 silent connections used to let 1 scrape in 20 through), the
# endpoint must hold no more than 256, and the closes are counted.
python3 - "${URL#http://}" <<'PY' || fail "floods locked the scraper out"
import socket, sys, urllib.request
host, port = sys.argv[1].rstrip("/").rsplit(":", 1)
port = int(port)
TCP_REPAIR = 19
def metrics():
    with urllib.request.urlopen("http://%s:%d/metrics" % (host, port), timeout=10) as r:
        assert r.status == 200
        return dict(l.rsplit(" ", 1) for l in r.read().decode().splitlines()
                    if l.startswith("pktpath_http_"))
def flood(kind, src):
    s = socket.socket()
    s.bind(("127.0.0.%d" % src, 0))
    s.connect((host, port))
    if kind == "slowloris":
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    elif kind == "half-open":
        s.sendall(b"GET /met")
        s.setsockopt(socket.IPPROTO_TCP, TCP_REPAIR, 1)  # close() sends nothing
        s.close()
        return None
    return s
scrapes = 0
for kind in ("silent", "slowloris", "half-open"):
    for own, other in ((64, 0), (65, 0), (200, 0), (0, 256), (0, 300), (64, 256)):
        held = [flood(kind, 1) for i in range(own)]
        held += [flood(kind, 2 + i // 64) for i in range(other)]
        for i in range(10):
            with urllib.request.urlopen("http://%s:%d/metrics" % (host, port),
                                        timeout=10) as r:
                assert r.status == 200, (kind, own, other, i, r.status)
                r.read()
            scrapes += 1
            for s in held:
                if s is not None and kind == "slowloris":
                    try:
                        s.sendall(b"X-Slow: y\r\n")
                    except OSError:
                        pass
        m = metrics()
        assert int(m["pktpath_http_connections"]) <= 256, (kind, own, other, m)
        for s in held:
            if s is not None:
                s.close()
m = metrics()
assert int(m['pktpath_http_closed_total{reason="address_limit"}']) > 0, m
assert int(m['pktpath_http_closed_total{reason="connection_limit"}']) > 0, m
print("http: floods: %d scrapes, all answered 200; closed %s over the address "
      "limit, %s over the connection limit" % (scrapes,
      m['pktpath_http_closed_total{reason="address_limit"}'],
      m['pktpath_http_closed_total{reason="connection_limit"}']))
PY

# Oversized and malformed requests, generated over their sizes: query
# strings are ignored (500 parameters, a 2 KiB URL, got an empty reply)
# until the request line nears 32 KiB (414, 431); whatever libmicrohttpd
# closes unanswered is counted.
python3 - "${URL#http://}" <<'PY' || fail "oversized requests"
import socket, sys, time, urllib.request
host, port = sys.argv[1].rstrip("/").rsplit(":", 1)
port = int(port)
def unanswered():
    with urllib.request.urlopen("http://%s:%d/metrics" % (host, port), timeout=10) as r:
        for l in r.read().decode().splitlines():
            if l.startswith('pktpath_http_closed_total{reason="unanswered"}'):
                return int(l.split()[1])
def status(raw):
    s = socket.create_connection((host, port), timeout=30)
    s.sendall(raw)
    out = b""
    while True:
        try:
            b = s.recv(65536)
        except ConnectionResetError:
            break
        if not b:
            break
        out += b
    s.close()
    return int(out.split()[1]) if out.startswith(b"HTTP/1.1 ") else None
want = unanswered()
n = 0
for count in range(0, 20000, 251):
    st = status(b"GET /metrics?x" + b"&a" * count + b" HTTP/1.1\r\nHost: x\r\n"
                b"Connection: close\r\n\r\n")
    # past the request line's room: 414, or at its edge 431 or a count
    assert st == 200 or (count > 8000 and st in (414, 431, None)), (count, st)
    want += st is None
    n += 1
for count in range(0, 800, 7):
    st = status(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"a:b\r\n" * count +
                b"Connection: close\r\n\r\n")
    assert st in (200, 431, None), (count, st)
    want += st is None
    n += 1
assert status(b"GET\r\n\r\n") is None
want += 1
for i in range(100):            # counted when libmicrohttpd has let go of it
    if unanswered() == want:
        break
    time.sleep(0.1)
assert unanswered() == want, (unanswered(), want)
print("http: %d oversized requests answered or counted (%d unanswered)" % (n, want))
PY
stop
# (Only without a clear: a baseline folded while a worker is mid-burst is
# off by up to one burst between counters.)
grep -q "conservation: ok" "$TMP/ro.out" || { cat "$TMP/ro.out"; fail "ro run: conservation"; }

# ---- control instance: modes, rules, clear ----------------------------------
start ctl --http 127.0.0.1:0 --http-control --metrics-lcore-mib --ingress rcu
req GET /metrics 200
grep -q '^pktpath_lcore_mib_total{lcore="1",group="Ip",field="InReceives"} ' "$TMP/body" ||
	fail "--metrics-lcore-mib: no per-lcore MIB series"
promcheck lcore-mib
req POST /ingress/mode 400 -d 'mode=bogus';   one_line
req POST /ingress/mode 400 -d 'speed=fast';   one_line
req POST /ingress/mode 400 -d '';             one_line
req POST /ingress/rules 400 --data-binary 'this is not a rule';   one_line
req POST /stats/clear 400 -d 'x';             one_line
head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' 'r' > "$TMP/big"
req POST /ingress/rules 413 --data-binary @"$TMP/big";   one_line
req POST /ingress/rules 413 -H 'Transfer-Encoding: chunked' --data-binary @"$TMP/big"
req GET /metrics 200
grep -q '^pktpath_ingress_mode{mode="rcu"} 1' "$TMP/body" || fail "rejected requests changed the mode"
# The modes the run offers, as /metrics reports them.
modes=$(sed -n 's/^pktpath_ingress_mode{mode="\([a-z]*\)"} [01]$/\1/p' "$TMP/body" | tr '\n' ' ')
echo "http: available modes: $modes"
printf 'default pass\n' > "$TMP/pass.rules"
req POST /ingress/rules 200 --data-binary @"$TMP/pass.rules"
# SIGHUP's reload, over HTTP: this run has no rules file to reload.
req POST /ingress/reload 501;   one_line
grep -q "no --rules, --filter or --bpf-obj to reload" "$TMP/body" || fail "POST /ingress/reload: $(cat "$TMP/body")"

# 100 scrapes; every 10th, flip to the next mode (each new mode checked by
# promtool once); one clear in the middle. Every counter sample must be >=
# its previous value; the flipped mode must show at once.
python3 - "$URL" "$TMP" $modes <<'PY' || fail "monotonic scrapes with flips"
import subprocess, shutil, sys, time, urllib.request
url, tmp, modes = sys.argv[1], sys.argv[2], sys.argv[3:]
promtool = shutil.which("promtool")
def get(p):
    with urllib.request.urlopen(url + p, timeout=10) as r:
        return r.read().decode()
def post(p, data):
    req = urllib.request.Request(url + p, data=data.encode(), method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status, r.read().decode()
def samples(text):
    d = {}
    for l in text.splitlines():
        if l and not l.startswith("#"):
            k, v = l.rsplit(" ", 1)
            d[k] = float(v)
    return d
if len(modes) < 2:
    print("http: only mode(s) %s available: flips skipped" % modes)
# Traffic first (the first fold is all zeros), then 100 scrapes over ~5 s
# (several stats intervals) so that they cross folds.
for i in range(100):
    if samples(get("metrics")).get('pktpath_mib_total{group="Ip",field="InReceives"}', 0) > 0:
        break
    time.sleep(0.1)
prev, flips, checked, cur = None, 0, set(), None
for i in range(100):
    time.sleep(0.05)
    text = get("metrics")
    s = samples(text)
    if cur is not None and s.get('pktpath_ingress_mode{mode="%s"}' % cur) != 1:
        sys.exit("scrape %d: mode %s not shown" % (i, cur))
    if cur is not None and cur not in checked and promtool:
        p = subprocess.run([promtool, "check", "metrics"], input=text.encode(),
                           capture_output=True)
        if p.returncode != 0:
            sys.exit("promtool, mode %s: %s" % (cur, p.stdout + p.stderr))
        checked.add(cur)
    if prev is not None:
        for k, v in s.items():
            name = k.split("{")[0]
            if name.endswith("_total") and k in prev and v < prev[k]:
                sys.exit("scrape %d: %s went back %g -> %g" % (i, k, prev[k], v))
    prev = s
    if i == 50:
        before = int(get("snmp").splitlines()[1].split()[3])
        st, body = post("stats/clear", "")
        after = int(get("snmp").splitlines()[1].split()[3])
        assert st == 200 and after < before, (before, after)
    if i % 10 == 9 and len(modes) >= 2:
        cur = modes[(flips + 1) % len(modes)]
        st, body = post("ingress/mode", "mode=" + cur)
        assert st == 200, (st, body)
        flips += 1
print("http: 100 scrapes, %d flips, 1 clear: counters monotonic; promtool ok in %s"
      % (flips, sorted(checked) or "-"))
PY

# ---- DPDK telemetry: every /pktpath/ command ---------------------------------
# dpdk-telemetry.py comes with scripts/setup.sh (dpdk-dev).
command -v dpdk-telemetry.py > /dev/null || fail "no dpdk-telemetry.py: run scripts/setup.sh"
printf '%s\n' /pktpath/mib /pktpath/mib,Ip /pktpath/mib,IpExt /pktpath/mib,Rx,1 \
	/pktpath/rates /pktpath/lcores /pktpath/lcores,1 /pktpath/ingress \
	/pktpath/config > "$TMP/cmds"
dpdk-telemetry.py -f "${PREFIX}_ctl" < "$TMP/cmds" > "$TMP/tel" 2>&1 ||
	{ cat "$TMP/tel"; fail "dpdk-telemetry.py"; }
python3 - "$TMP/tel" <<'PY' || { cat "$TMP/tel"; fail "telemetry replies"; }
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
assert len(r) == 9, "%d replies" % len(r)
for x in r:
    (k, v), = x.items()
    assert v is not None, "%s: null" % k
mib, ip, ipext, rx1, rates, lc, lc1, ing, cfg = [list(x.values())[0] for x in r]
assert "Ip" in mib and "Capture" in mib
assert ip["Forwarding"] == 2 and ip["InReceives"] > 0 and "InNoECTPkts" in ipext
assert rx1["RxPackets"] > 0
assert float(rates["mpps"]) > 0 and rates["workers"] == 1
assert lc["lcore"] == [1] and len(lc["pps"]) == 1 and lc1["lcore"] == 1
assert ing["mode"] in ing.get("modes", [ing["mode"]]) and "GracePeriods" in ing
assert cfg["version"] and cfg["dpdk"].startswith("DPDK") and "ingress_modes" in cfg
print("http: telemetry: 9 commands ok, %d bytes at most" %
      max(len(l) for l in open(sys.argv[1])))
PY
# The control table's commands over telemetry (--http-control): the line
# POST gives, a refusal with HTTP's status, the flip seen by /metrics.
printf '%s\n' /pktpath/ingress_mode,lock /pktpath/ingress_mode,bogus \
	/pktpath/stats_clear > "$TMP/ctlcmds"
dpdk-telemetry.py -f "${PREFIX}_ctl" < "$TMP/ctlcmds" > "$TMP/telctl" 2>&1 ||
	{ cat "$TMP/telctl"; fail "dpdk-telemetry.py (control)"; }
python3 - "$TMP/telctl" <<'PY' || { cat "$TMP/telctl"; fail "telemetry control replies"; }
import json, sys
r = [list(json.loads(l).values())[0] for l in open(sys.argv[1]) if l.startswith("{")]
assert len(r) == 3, "%d replies" % len(r)
assert r[0] == {"result": "mode lock", "mode": "lock"}, r[0]
assert r[1]["status"] == 400 and r[1]["error"].startswith("mode bogus: unknown mode"), r[1]
assert r[2]["result"].startswith("cleared (clear ") and r[2]["clears"] >= 1, r[2]
PY
req GET /metrics 200
grep -q '^pktpath_ingress_mode{mode="lock"} 1' "$TMP/body" || fail "/pktpath/ingress_mode,lock did not flip"
req GET /healthz 200
stop
grep -q "== summary" "$TMP/ctl.out" || { cat "$TMP/ctl.out"; fail "ctl run: no summary"; }

# ---- the run's history: GET /history live, then --json's at the end ----------
start hist --http 127.0.0.1:0 --interval 0.1 --json "$TMP/hist.json"
# intervals() N: how many intervals GET /history has (the body in $TMP/body)
intervals() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["intervals"]))' "$TMP/body"; }
first=0
for i in $(seq 300); do # until two intervals (a count, not a time: 30 s at most)
	req GET /history 200
	first=$(intervals)
	[ "$first" -ge 2 ] && break
	sleep 0.1
done
[ "$first" -ge 2 ] || fail "GET /history: $first intervals after 300 polls"
grep -qi '^Content-Type: application/json' "$TMP/head" || fail "history content type"
cp "$TMP/body" "$TMP/live.json"
now=$first
for i in $(seq 300); do # it grows while the run goes on
	req GET /history 200
	now=$(intervals)
	[ "$now" -gt "$first" ] && break
	sleep 0.1
done
[ "$now" -gt "$first" ] || fail "GET /history: still $now intervals"
req POST /history 405;     one_line
req GET /history/1 404;    one_line
stop
# the same document as --json's: the same members, intervals of one shape
python3 - "$TMP/live.json" "$TMP/hist.json" <<'PY' || fail "GET /history and --json's history differ"
import json, sys
live = json.load(open(sys.argv[1])); end = json.load(open(sys.argv[2]))
for k in ("intervals", "events", "intervals_dropped"):
    assert k in live and k in end, k
iv, ie = live["intervals"][0], end["intervals"][0]
assert sorted(iv) == sorted(ie), (sorted(iv), sorted(ie))
assert sorted(iv["lcores"][0]) == sorted(ie["lcores"][0])
assert sorted(iv["lost"]) == sorted(ie["lost"])
assert iv["steady"] is None          # the steady state is the end's
assert len(end["intervals"]) >= len(live["intervals"])
assert iv["t_s"] == ie["t_s"] and iv["mpps"] == ie["mpps"]  # the same points
PY

# ---- the listen address: errors, a port in use, IPv6 --------------------------
bad() { # bad NAME WANT ARGS...: exit 2 with one stderr line containing WANT
	local name=$1 want=$2 rc; shift 2
	set +e
	"$PKTPATH" $(eal "$name") -- --duration 1 "$@" > "$TMP/o" 2> "$TMP/e"; rc=$?
	set -e
	[ "$rc" = 2 ] || { cat "$TMP/e"; fail "$*: exit $rc, want 2"; }
	[ "$(grep -v '^EAL:\|^TELEMETRY:' "$TMP/e" | grep -c .)" = 1 ] &&
		grep -qF -- "$want" "$TMP/e" || { cat "$TMP/e"; fail "$*: want one line with '$want'"; }
}
bad bad1 "is not an IPv4 address" --http 1.2.3:80
bad bad2 "port '99999'" --http 127.0.0.1:99999
start busy --http 127.0.0.1:0
addr=${URL#http://}
bad bad3 "--http ${addr%/}: bind: Address already in use; port in use: --http 127.0.0.1:0 picks a free one" \
	--http "${addr%/}"
stop
if python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2> /dev/null; then
	start v6 --http '[::1]:0'
	case $URL in http://\[::1\]:[0-9]*/) ;; *) fail "IPv6 URL '$URL'" ;; esac
	req GET /healthz 200
	stop
else
	echo "http: no IPv6 loopback: [::1] skipped"
fi

echo "http: ok"
