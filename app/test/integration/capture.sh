#!/usr/bin/env bash
# --capture: the written file, re-read, holds exactly the packets expected.
. "$(dirname "$0")/lib.sh"
R=${SOURCE_DIR:?}/config/rules

# A finite pcap through net_pcap: capture the drops, compare frame by frame
# with the drop frames mkpcap wrote, in order (one worker, one queue).
"$MKPCAP" "$TMP/mix.pcap" 02:70:63:61:70:00 3 "$TMP/drops.pcap" > /dev/null
"$PKTPATH" $(eal cap) --vdev "net_pcap0,rx_pcap=$TMP/mix.pcap" -- --http 127.0.0.1:0 --source port \
	--duration 1.5 --quiet --capture "$TMP/cap.pcap" --capture-what drops \
	--json "$TMP/cap.json" > "$TMP/cap.out" 2>&1 || { cat "$TMP/cap.out"; fail "capture run"; }
python3 - "$TMP/cap.pcap" "$TMP/drops.pcap" <<'PY' || fail "captured frames differ"
import struct, sys
def read(path):
    b = open(path, "rb").read()
    off, out = 24, []
    while off < len(b):
        ts, tu, caplen, length = struct.unpack("<IIII", b[off:off + 16])
        out.append((b[off + 16:off + 16 + caplen], length))
        off += 16 + caplen
    return out
got, want = read(sys.argv[1]), read(sys.argv[2])
if got != want:
    print("captured %d frames, expected %d" % (len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            print("first difference at frame", i); break
    sys.exit(1)
PY
jcheck "$TMP/cap.json" 'f("Capture.CapturePackets") == 3 * 18' 'f("Capture.CaptureOverflow") == 0' \
	'd["info"]["config"]["loop"] == "full-prefetch-capture"'
# tcpdump reads it too.
[ "$(tcpdump -r "$TMP/cap.pcap" -n 2>/dev/null | wc -l)" = 54 ] || fail "tcpdump count"

# --capture-max on the generator: exactly N frames, all valid generator frames.
"$PKTPATH" $(eal capmax) -- --http 127.0.0.1:0 --duration 1 --quiet --capture "$TMP/all.pcap" \
	--capture-what all --capture-max 100 --json "$TMP/all.json" > "$TMP/all.out" 2>&1 ||
	{ cat "$TMP/all.out"; fail "capture-max run"; }
[ "$(tcpdump -r "$TMP/all.pcap" -n 2>/dev/null | grep -c 'UDP, length 18')" = 100 ] || fail "capture-max"
jcheck "$TMP/all.json" 'f("Capture.CapturePackets") == 100' \
	'd["info"]["config"]["capture_max"] == 100' 'd["info"]["config"]["capture_ring"] == 4096'

# A limit past 2^63 is said unsigned in --json and in /config (it printed
# -1), and the capture options are said at all: an option is in
# info.config when what it needs (--capture) was given.
big=18446744073709551615
"$PKTPATH" $(eal capbig) -- --http 127.0.0.1:0 --duration 0 --quiet --capture "$TMP/big.pcap" \
	--capture-max "$big" --json "$TMP/big.json" > "$TMP/big.out" 2>&1 &
pid=$!
PIDS+=("$pid")
http_url big "$TMP/big.out" "$pid"
curl -sf "${URL}config" > "$TMP/big.config.json" || { kill -INT "$pid"; fail "capbig: /config"; }
echo /pktpath/config | dpdk-telemetry.py -f "${PREFIX}_capbig" > "$TMP/big.tel" 2>&1 ||
	{ kill -INT "$pid"; cat "$TMP/big.tel"; fail "capbig: telemetry"; }
grep '^{' "$TMP/big.tel" > "$TMP/big.tel.json" || { kill -INT "$pid"; fail "capbig: no telemetry reply"; }
kill -INT "$pid"
wait "$pid" || { cat "$TMP/big.out"; fail "capbig: exit $?"; }
for f in "$TMP/big.json" "$TMP/big.config.json" "$TMP/big.tel.json"; do
	python3 - "$f" "$big" <<'PY' || fail "capbig: $f"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["info"]["config"] if "info" in d else d.get("/pktpath/config", d)
assert c["capture_max"] == int(sys.argv[2]), c
assert c["capture_what"] == "drops" and c["capture_snaplen"] == 2048, c
PY
done

# Marked packets only; a tiny ring overflows without blocking anyone.
"$PKTPATH" $(eal capmark) -- --http 127.0.0.1:0 --duration 1 --quiet --ingress rcu \
	--rules "$R/mark-udp-9.rules" --capture "$TMP/m.pcap" --capture-what marked \
	--capture-ring 16 --json "$TMP/m.json" > "$TMP/m.out" 2>&1 || { cat "$TMP/m.out"; fail "marked"; }
jcheck "$TMP/m.json" 'd["conservation"]["ok"]' 'f("Capture.CapturePackets") > 0' \
	'f("Capture.CaptureOverflow") > 0' \
	'f("Capture.CapturePackets") + f("Capture.CaptureOverflow") == f("Ingress.IngressMarked")' \
	'd["info"]["config"]["loop"] == "generic"'
n=$(tcpdump -r "$TMP/m.pcap" -n 2>/dev/null | wc -l)
python3 -c "import json,sys; d=json.load(open('$TMP/m.json')); sys.exit(0 if d['mib']['Capture']['CapturePackets'] == $n else 1)" ||
	fail "file holds $n frames, CapturePackets differs"
echo "capture: ok"
