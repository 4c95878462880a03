#!/usr/bin/env bash
# net_pcap as a port source on a finite file of known frames: the JSON totals
# must equal the hand-written expectations exactly.
. "$(dirname "$0")/lib.sh"
# net_pcap's first port MAC is 02:70:63:61:70:00 ("\x02pcap\x00").
"$MKPCAP" "$TMP/mix.pcap" 02:70:63:61:70:00 7 > "$TMP/expect.json"
"$PKTPATH" $(eal pcap) --vdev "net_pcap0,rx_pcap=$TMP/mix.pcap" -- --http 127.0.0.1:0 \
	--source port --duration 2 --warmup 0.5 --quiet --json "$TMP/out.json" \
	> "$TMP/out.txt" 2>&1 || { cat "$TMP/out.txt"; fail "pktpath exit"; }
python3 - "$TMP/out.json" "$TMP/expect.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); e = json.load(open(sys.argv[2]))
bad = 0
for k, v in e.items():
    g, f = k.split(".")
    if d["mib"][g][f] != v:
        print("%s = %d, expected %d" % (k, d["mib"][g][f], v)); bad = 1
if not d["conservation"]["ok"]:
    print("conservation:", d["conservation"]["detail"]); bad = 1
if d["info"]["config"]["source"] != "port": bad = 1
sys.exit(bad)
PY
# net_null: all-zero frames are counted as what they are, not IPv4.
"$PKTPATH" $(eal null) --vdev net_null0 -- --http 127.0.0.1:0 --source port --duration 1 \
	--warmup 0.2 --quiet --json "$TMP/null.json" > "$TMP/null.txt" 2>&1 ||
	{ cat "$TMP/null.txt"; fail "net_null run"; }
jcheck "$TMP/null.json" 'f("Rx.RxPackets") > 0' \
	'f("Rx.RxNotIp") == f("Rx.RxPackets")' 'f("Ip.InReceives") == 0' \
	'd["conservation"]["ok"]' 'd["info"]["config"]["loop"] == "full-prefetch"'
# rx-only on a port: its own loop (the testpmd comparison's), no path.
"$PKTPATH" $(eal nullrx) --vdev net_null0 -- --http off --source port --path rx-only \
	--duration 0.5 --warmup 0 --quiet --json "$TMP/nullrx.json" > "$TMP/nullrx.txt" 2>&1 ||
	{ cat "$TMP/nullrx.txt"; fail "net_null rx-only run"; }
jcheck "$TMP/nullrx.json" 'f("Rx.RxNoPath") == f("Rx.RxPackets") > 0' \
	'd["info"]["config"]["loop"] == "port-rx-only"'
# Two RX queues of one port (RSS), one per lcore, the main lcore polling too;
# then two ports with the default map (worker k polls port k).
"$PKTPATH" $(eal mq) --vdev net_null0 -- --http 127.0.0.1:0 --source port \
	--main-worker --rxq 0:0.0,1:0.1 --duration 1 --warmup 0.2 --quiet \
	--json "$TMP/mq.json" > "$TMP/mq.txt" 2>&1 || { cat "$TMP/mq.txt"; fail "two queues"; }
grep -q "RSS over 2 queues" "$TMP/mq.txt" || fail "no RSS line"
jcheck "$TMP/mq.json" 'len(d["lcores"]) == 2' 'all(l["run"]["packets"] > 0 for l in d["lcores"])' \
	'd["conservation"]["ok"]'
"$PKTPATH" $(eal mp) --vdev net_null0 --vdev net_null1 -- --http 127.0.0.1:0 \
	--source port --main-worker --duration 1 --warmup 0.2 --quiet \
	--json "$TMP/mp.json" > "$TMP/mp.txt" 2>&1 || { cat "$TMP/mp.txt"; fail "two ports"; }
[ "$(grep -c 'port [01] (net_null): 1 RX queue' "$TMP/mp.txt")" = 2 ] || fail "two ports not set up"
jcheck "$TMP/mp.json" 'all(l["run"]["packets"] > 0 for l in d["lcores"])' 'd["info"]["config"]["ports"] == 2'
echo "pcap: ok"
