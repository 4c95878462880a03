#!/usr/bin/env bash
# Soak: the sanitized build (build-asan/) under everything at once for
# DURATION seconds (default 600): 2 workers on the generator, rule churn,
# a live ingress mode flip every second, /metrics scraped at 20 Hz over a
# keep-alive connection and once a second over a new one, capture of drops
# on. At the end it checks: exit 0 and no sanitizer report, conservation,
# no counter of /metrics ever went backwards, under 1% of requests failed,
# and in the second half of the run neither the live heaps nor the thread
# count grew (it prints the figures, RSS too). Last line: "soak: PASS ..."
# or "soak: FAIL ...".
#
# --release runs the release build (build/) instead: no sanitizer, and there
# RSS itself must not grow (under ASan its allocator keeps freed memory in
# its size-class regions, so RSS there is reported and the live heaps
# checked).
#   scripts/soak.sh [--release] [DURATION]
set -uo pipefail
cd "$(dirname "$0")/.."
MODE=asan
if [ "${1:-}" = "--release" ]; then
	MODE=release; shift
fi
DURATION=${1:-600}
scripts/setup.sh
if [ "$MODE" = asan ]; then
	BUILD=build-asan
	BUILD_DIR=build-asan MESON_ARGS="-Dtests=true -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized" \
		scripts/build.sh || exit 1
	# A 1 MiB quarantine: the default (256 MiB) fills under rule churn,
	# which frees a classifier at every update, and would show as RSS growth.
	export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:exitcode=86:quarantine_size_mb=1"
	export LSAN_OPTIONS="suppressions=$PWD/config/lsan.supp"
	export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=87"
else
	BUILD=build
	scripts/build.sh || exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
$BUILD/app/pktpath/pktpath -l 0-1 --no-huge --no-shconf -m 512 --no-pci \
	--file-prefix soak$$ --log-level=lib.eal:error -- \
	--duration "$DURATION" --main-worker --ingress rcu \
	--rules config/rules/drop-udp-9.rules --rules-alt config/rules/mark-udp-9.rules \
	--update-rate 100 --http "127.0.0.1:$port" --http-control \
	--capture "$TMP/soak.pcap" --capture-what drops --capture-max 100000 \
	--interval 5 --quiet --json "$TMP/soak.json" > "$TMP/soak.out" 2>&1 &
pid=$!

# Scrape /metrics at 20 Hz over one keep-alive connection, as Prometheus
# does; every second also flip the mode and scrape once more, each over a
# new connection (the server's connection set-up and teardown); sample RSS
# and the thread count every 10 s.
python3 - "$port" "$pid" "$DURATION" "$TMP" <<'PY'
import http.client, json, os, sys, time, urllib.request
port, pid, duration, tmp = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
base = "http://127.0.0.1:%d" % port
modes = ["lock", "rwlock", "rcu", "off"]   # none refuses rule churn
last, backwards = {}, []
scrapes, fresh, flips, errors = 0, 0, 0, 0
rss, threads, why, heap = [], [], [], []
conn = None
# Wait for the endpoint (EAL init under ASan takes a few seconds).
t0 = time.time()
while time.time() < t0 + 60:
    try:
        urllib.request.urlopen(base + "/healthz", timeout=2).read()
        break
    except Exception:
        time.sleep(0.2)
start = time.time(); next_flip = start + 1; next_rss = start + 5
duration -= start - t0
def status(field):
    with open("/proc/%d/status" % pid) as f:
        for l in f:
            if l.startswith(field + ":"):
                return int(l.split()[1])
def check(text):
    mem = {}
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, val = line.rsplit(" ", 1)
        if name.startswith("pktpath_heap_inuse_bytes"):
            mem[name.split('"')[1]] = int(val)
        if name.split("{")[0].endswith("_total"):
            v = float(val)
            if name in last and v < last[name]:
                backwards.append("%s %s -> %s" % (name, last[name], v))
            last[name] = v
    if mem and (not heap or time.time() - start - heap[-1][0] >= 0.5):
        heap.append((round(time.time() - start, 1), mem.get("malloc", 0), mem.get("rte_malloc", 0)))
while time.time() < start + duration - 1:
    try:
        os.kill(pid, 0)
    except OSError:
        break
    try:
        if conn is None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", "/metrics")
        rsp = conn.getresponse()
        text = rsp.read().decode()
        if rsp.status != 200:
            raise RuntimeError("status %d" % rsp.status)
        scrapes += 1
        check(text)
    except Exception as e:
        errors += 1
        why.append("scrape: %r" % e)
        if conn is not None:
            conn.close()
        conn = None
    now = time.time()
    if now >= next_flip:
        try:
            urllib.request.urlopen(urllib.request.Request(base + "/ingress/mode",
                data=("mode=" + modes[flips % len(modes)]).encode()), timeout=5).read()
            flips += 1
            check(urllib.request.urlopen(base + "/metrics", timeout=2).read().decode())
            fresh += 1
        except Exception as e:
            errors += 1
            why.append("flip/fresh scrape: %r" % e)
        next_flip += 1
    if now >= next_rss:
        try:
            rss.append((round(now - start), status("VmRSS")))
            threads.append((round(now - start), status("Threads")))
        except Exception:
            pass
        next_rss += 10
    time.sleep(0.05)
json.dump({"scrapes": scrapes, "fresh": fresh, "flips": flips, "errors": errors,
           "backwards": backwards[:20], "rss": rss, "threads": threads,
           "why": why[:10], "heap": heap},
          open(tmp + "/driver.json", "w"))
PY
wait $pid
rc=$?
python3 - "$TMP" "$rc" "$DURATION" "$MODE" <<'PY'
import json, sys
tmp, rc, duration, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
drv = json.load(open(tmp + "/driver.json"))
out = open(tmp + "/soak.out").read()
problems = []
if rc != 0:
    problems.append("exit %d" % rc)
for marker in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
    if marker in out:
        problems.append("sanitizer: " + marker)
try:
    d = json.load(open(tmp + "/soak.json"))
    if not d["conservation"]["ok"]:
        problems.append("conservation: " + d["conservation"]["detail"])
    pkts = d["mib"]["Rx"]["RxPackets"]
    upd = d["mib"]["Ingress"]["RuleUpdates"]
    cap = d["mib"]["Capture"]["CapturePackets"]
except Exception as e:
    problems.append("no JSON (%s)" % e)
    pkts = upd = cap = 0
if drv["backwards"]:
    problems.append("counters went backwards: " + "; ".join(drv["backwards"][:3]))
rss, thr, heap = drv["rss"], drv["threads"], drv["heap"]
half = float(duration) / 2
# The warm-up is the first half of the run: caches, allocator arenas and
# the sanitizer's bookkeeping settle there. After it:
# - the live heaps (pktpath_heap_inuse_bytes, sampled from the scrapes) must
#   not grow: their floor over the last quarter of the run against their
#   floor over the third quarter (floors, because a sample may catch a
#   classifier being replaced or a response being built), by at most
#   256 KiB -- 40 bytes a scrape, or 9 bytes a rule update;
# - no thread may be left behind;
# - with --release, RSS must not grow by more than 1 MiB. Under ASan RSS is
#   reported only: its allocator keeps freed chunks in per-size-class
#   regions and RSS creeps (~0.4 MiB a minute here, with the live heaps
#   flat); its runtime also keeps ~200 bytes per thread ever created (1 MiB
#   per 5,000 threads with a 20-line pthread_create loop), which is why the
#   20 Hz scrapes reuse one connection, as Prometheus does.
def floor_growth(col):
    h = [x[col] for x in heap if x[0] >= half]
    q = len(h) // 4
    return ((min(h[-q:]) - min(h[:q])) // 1024, min(h[-q:]) // 1024) if q >= 5 else (None, None)
hg, hf = {}, {}
for name, col in (("malloc", 1), ("rte_malloc", 2)):
    hg[name], hf[name] = floor_growth(col)
for name, g in hg.items():
    if g is None:
        problems.append("too few %s heap samples (%d)" % (name, len(heap)))
    elif g > 256:
        problems.append("live %s heap grew %d KiB after warm-up" % (name, g))
warm = [r for t, r in rss if t >= half]
growth = (warm[-1] - warm[0]) if len(warm) >= 2 else 0
if mode == "release" and growth > 1024:
    problems.append("RSS grew %d KiB after warm-up" % growth)
wthr = [n for t, n in thr if t >= half]
# (+2: a sample may catch a new connection's thread in flight)
if len(wthr) >= 2 and wthr[-1] > wthr[0] + 2:
    problems.append("threads %d -> %d after warm-up" % (wthr[0], wthr[-1]))
attempts = drv["scrapes"] + drv["fresh"] + drv["flips"] + drv["errors"]
if drv["errors"] * 100 > attempts:
    problems.append("%d of %d requests failed (%s)" % (drv["errors"], attempts,
                    "; ".join(drv["why"][:3])))
elif drv["errors"]:
    print("soak: %d of %d requests failed: %s" % (drv["errors"], attempts, "; ".join(drv["why"])))
mid = warm[len(warm) // 2] if warm else "?"
fmt = lambda n: "?" if hg[n] is None else "%d KiB (%+d KiB)" % (hf[n], hg[n])
line = ("%s %s s, %d packets, %d rule updates, %d mode flips, %d scrapes + %d on new connections "
        "(%d errors), %d captured, threads %s; after warm-up: live heap malloc %s, rte_malloc %s; "
        "RSS %s -> %s -> %s KiB (%+d KiB%s)" % (
        mode, duration, pkts, upd, drv["flips"], drv["scrapes"], drv["fresh"], drv["errors"], cap,
        "%d -> %d" % (wthr[0], wthr[-1]) if wthr else "?", fmt("malloc"), fmt("rte_malloc"),
        warm[0] if warm else "?", mid, warm[-1] if warm else "?", growth,
        "" if mode == "release" else ", reported only under ASan"))
if problems:
    print(out[-3000:])
    print("soak: FAIL: " + "; ".join(problems) + " -- " + line)
    sys.exit(1)
print("soak: PASS: " + line)
PY
