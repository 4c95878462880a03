#!/usr/bin/env bash
# --mib-devices on the live binary: the generator's IPv6 traffic counted per
# device as well as globally (the devices' counters sum to the global ones),
# /dev_snmp6/DEV in /proc/net/dev_snmp6/DEV's layout for every device, /links
# with every device and its dump time, the telemetry twins, 404 for an
# unknown device, and a set too large refused with the figure it needs.
. "$(dirname "$0")/lib.sh"
command -v curl > /dev/null || fail "no curl: run scripts/setup.sh"

# The kernel's lists, from Linux 6.18 net/ipv6/proc.c: snmp6_ipstats_list,
# then snmp6_icmp6_list without its last item (snmp6_dev_seq_show prints
# ARRAY_SIZE(snmp6_icmp6_list) - 1 of them: "Per idev icmp stats do not
# have ICMP6_MIB_RATELIMITHOST", since 6.17), after the "ifIndex" line; then
# snmp6_seq_show_icmpv6msg's lines (the named types, then the non-zero
# ones by number), checked against /snmp6's own below.
cat > "$TMP/kernel.txt" <<'LIST'
ifIndex
Ip6InReceives Ip6InHdrErrors Ip6InTooBigErrors Ip6InNoRoutes Ip6InAddrErrors
Ip6InUnknownProtos Ip6InTruncatedPkts Ip6InDiscards Ip6InDelivers
Ip6OutForwDatagrams Ip6OutRequests Ip6OutDiscards Ip6OutNoRoutes Ip6ReasmTimeout
Ip6ReasmReqds Ip6ReasmOKs Ip6ReasmFails Ip6FragOKs Ip6FragFails Ip6FragCreates
Ip6InMcastPkts Ip6OutMcastPkts Ip6InOctets Ip6OutOctets Ip6InMcastOctets
Ip6OutMcastOctets Ip6InBcastOctets Ip6OutBcastOctets Ip6InNoECTPkts Ip6InECT1Pkts
Ip6InECT0Pkts Ip6InCEPkts Ip6OutTransmits
Icmp6InMsgs Icmp6InErrors Icmp6OutMsgs Icmp6OutErrors Icmp6InCsumErrors
LIST

# Echo requests from on-link sources: Ip6 and Icmp6 in and out, and the
# messages by type, on every device. 4 phantom devices and gen0.
# Long enough for every request under load; SIGINT ends it (the JSON is
# written then).
"$PKTPATH" $(eal devs) -- --duration 120 --interval 0.5 --quiet --http 127.0.0.1:0 \
	--family ipv6 --l4 icmp --src6 2001:2:0:1::2-2001:2:0:1::9 --mib-devices 4 \
	--json "$TMP/devs.json" > "$TMP/devs.out" 2>&1 &
PID=$!
PIDS+=("$PID")
http_url devs "$TMP/devs.out" "$PID"
grep -q "mib: .*; per-device IPv6 MIBs: 5 devices (1 of the run's, 4 phantom) x 2 lcores, [0-9]* KiB" \
	"$TMP/devs.out" || fail "no per-device memory on the mib: line: $(cat "$TMP/devs.out")"
for d in gen0 veth0 veth1 veth2 veth3; do
	curl -sf "${URL}dev_snmp6/$d" > "$TMP/dev.$d" || fail "GET /dev_snmp6/$d"
done
curl -sf "${URL}snmp6" > "$TMP/snmp6" || fail "GET /snmp6"
curl -sf "${URL}links" > "$TMP/links.json" || fail "GET /links"
code=$(curl -s -o "$TMP/nodev" -w '%{http_code}' "${URL}dev_snmp6/veth4")
[ "$code" = 404 ] && grep -q "no device 'veth4'" "$TMP/nodev" ||
	fail "unknown device: $code $(cat "$TMP/nodev")"
code=$(curl -s -o "$TMP/nodev" -w '%{http_code}' "${URL}dev_snmp6/")
[ "$code" = 404 ] || fail "no device: $code $(cat "$TMP/nodev")"
code=$(curl -s -o "$TMP/nodev" -w '%{http_code}' "${URL}dev_snmp6/%1b%5b2J")
[ "$code" = 404 ] && grep -qF "no device '\\x1b[2J'" "$TMP/nodev" ||
	fail "a device name with control bytes: $code $(cat "$TMP/nodev")"
# telemetry: the same device, an unknown one, the dump
tel() { # tel CMD: its reply (JSON) on stdout
	python3 - "/var/run/dpdk/${PREFIX}_devs/dpdk_telemetry.v2" "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect(sys.argv[1]); s.recv(1024)
s.send(sys.argv[2].encode()); print(s.recv(65536).decode())
PY
}
tel /pktpath/dev_snmp6,veth2 > "$TMP/tel.dev" || fail "telemetry dev_snmp6"
tel /pktpath/dev_snmp6,nope > "$TMP/tel.nodev" || fail "telemetry dev_snmp6,nope"
tel /pktpath/links > "$TMP/tel.links" || fail "telemetry links"
kill -INT "$PID"
wait "$PID" || { cat "$TMP/devs.out"; fail "pktpath exited $? after SIGINT"; }

python3 - "$TMP" <<'PY' || fail "per-device MIBs"
import json, re, sys
t = sys.argv[1]
kernel = open(t + "/kernel.txt").read().split()
def parse(path):
    out = []
    for line in open(path).read().splitlines():
        col, v = line.split("\t")    # "%-32s\t%lu", as net/ipv6/proc.c prints
        n = col.rstrip(" ")
        assert len(col) == max(32, len(n)) and v.isdigit(), line
        out.append((n, int(v)))
    return out
# /snmp6's ICMPv6 message lines: the named ones this build prints
msg_named = [n for n, _ in parse(t + "/snmp6") if re.match(r"Icmp6(In|Out)[A-Z]", n)
             and not re.match(r"Icmp6(In|Out)(Msgs|Errors|CsumErrors|RateLimitHost)$", n)]
names = ["gen0", "veth0", "veth1", "veth2", "veth3"]
for i, d in enumerate(names):
    lines = parse(t + "/dev." + d)
    got = [n for n, _ in lines]
    assert got[:len(kernel)] == kernel, (d, got[:len(kernel)])
    rest = got[len(kernel):]
    assert rest[:len(msg_named)] == msg_named, (d, rest[:len(msg_named)])
    assert all(re.fullmatch(r"Icmp6(In|Out)Type\d+", n) for n in rest[len(msg_named):]), rest
    v = dict(lines)
    assert v["ifIndex"] == i + 1, (d, v["ifIndex"])
    # every device received echo requests and sent replies
    assert v["Ip6InReceives"] > 0 and v["Icmp6InEchos"] > 0, (d, v)
    assert v["Icmp6InType128"] == v["Icmp6InEchos"] and v["Icmp6OutType129"] > 0, d
    assert "Icmp6OutRateLimitHost" not in v
# the run's last link dump (the workers stopped): the devices sum to the
# global counters, field by field
j = json.load(open(t + "/devs.json"))
m, links = j["mib"], j["links"]
assert [l["name"] for l in links["links"]] == names and links["devices"] == 5
assert links["lcores"] == 2 and links["fields"] == 39 and links["fold"] == "lcore"
for g in ("Ip6", "Icmp6"):
    for k, want in m[g].items():
        if g == "Icmp6" and k == "OutRateLimitHost":
            continue
        s = sum(l["stats6"][g + k] for l in links["links"])
        assert s == want, (g, k, s, want)
assert m["Ip6"]["InReceives"] > 0 and m["Icmp6"]["OutMsgs"] > 0
# GET /links: every device, its time
live = json.load(open(t + "/links.json"))
assert [l["ifindex"] for l in live["links"]] == [1, 2, 3, 4, 5]
assert live["dump_us"] > 0 and live["per_device_us"] > 0
assert all(l["stats6"]["Ip6InReceives"] > 0 for l in live["links"])
tel = json.loads(open(t + "/tel.dev").read())["/pktpath/dev_snmp6"]
assert tel["ifIndex"] == 4 and tel["Ip6InReceives"] > 0 and tel["Icmp6InEchos"] > 0
assert list(tel)[1:1 + len(kernel) - 1] == kernel[1:], list(tel)
err = json.loads(open(t + "/tel.nodev").read())["/pktpath/dev_snmp6"]
assert err["status"] == 404 and "no device 'nope'" in err["error"], err
tl = json.loads(open(t + "/tel.links").read())["/pktpath/links"]
assert tl["devices"] == 5 and tl["fold"] == "lcore" and float(tl["dump_us"]) > 0, tl
print("devices: 5 devices in the kernel's layout, summing to the global MIB")
PY

# --fold field: the dump says so, and the same sums hold
"$PKTPATH" $(eal field) -- --duration 1 --warmup 0 --interval 0.5 --quiet --http off \
	--family ipv6 --mib-devices 2 --fold field --json "$TMP/field.json" \
	> "$TMP/field.out" 2>&1 || { cat "$TMP/field.out"; fail "--fold field: exit"; }
python3 - "$TMP/field.json" <<'PY' || fail "--fold field"
import json, sys
j = json.load(open(sys.argv[1]))
l = j["links"]
assert l["fold"] == "field" and l["devices"] == 3
assert sum(x["stats6"]["Ip6InReceives"] for x in l["links"]) == j["mib"]["Ip6"]["InReceives"] > 0
PY

# --reader-links: the endless reader dumps the links, and --compare
# fold=field,lcore compares the two folds on the dump (reads/s, ns a dump)
"$PKTPATH" $(eal rd) -- --http off --family ipv6 --mib-devices 50 --mib-lcores 8 \
	--fold-on-read --reader 1 --reader-links --compare fold=field,lcore --rounds 2 \
	--duration 0.2 --phase-warmup 0 --interval 0.05 --quiet --json "$TMP/rd.json" \
	> "$TMP/rd.out" 2>&1 || { cat "$TMP/rd.out"; fail "--reader-links: exit status"; }
grep -q "^reader: 1 thread dumping the links back to back (the fold of /links: 51 devices)" \
	"$TMP/rd.out" || { cat "$TMP/rd.out"; fail "--reader-links: no reader line"; }
jcheck "$TMP/rd.json" 'd["conservation"]["ok"]' \
	'[m["variant"]["fold"] for m in d["compare"]["modes"]] == ["field", "lcore"]' \
	'all(m["reads_per_s_median"] > 0 for m in d["compare"]["modes"])' \
	'all(m["read_fold_ns_median"] > 0 for m in d["compare"]["modes"])' \
	'd["links"]["devices"] == 51 and d["links"]["lcores"] == 9' || fail "--reader-links: JSON"

# What the reassembly timer counts reaches the devices too, on idle polls:
# 20 first IPv6 fragments through a port, never completed, then nothing;
# at the end every device's Ip6 counters sum to the global ones, the
# timeouts (ReasmTimeout, ReasmFails) included.
python3 - "$TMP/first6.pcap" <<'PY'
import struct, sys
src = bytes.fromhex("20010002000000010000000000000002")
dst = bytes.fromhex("20010002000000010000000000000001")
out = open(sys.argv[1], "wb")
out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
for i in range(20):
    frag = struct.pack("!BBHI", 17, 0, 1, 1000 + i)      # offset 0, M=1
    pl = frag + bytes(64)
    ip = struct.pack("!IHBB", 0x60000000, len(pl), 44, 64) + src + dst
    eth = bytes.fromhex("027063617000") + bytes.fromhex("020000000002") + b"\x86\xdd"
    f = eth + ip + pl
    out.write(struct.pack("<IIII", 0, i, len(f), len(f)) + f)
PY
"$PKTPATH" $(eal tmo) --vdev "net_pcap0,rx_pcap=$TMP/first6.pcap" -- --source port \
	--http off --quiet --mib-devices 1 --local6 2001:2:0:1::1/128 --frag6-time 1 \
	--duration 3 --json "$TMP/tmo.json" > "$TMP/tmo.out" 2>&1 ||
	{ cat "$TMP/tmo.out"; fail "reassembly timeouts: exit status"; }
jcheck "$TMP/tmo.json" 'f("Ip6.ReasmReqds") == 20' 'f("Ip6.ReasmTimeout") > 0' \
	'all(sum(l["stats6"].get(k, 0) for l in d["links"]["links"]) == f("Ip6." + k[3:]) for k in ("Ip6InReceives", "Ip6ReasmReqds", "Ip6ReasmTimeout", "Ip6ReasmFails"))' ||
	{ cat "$TMP/tmo.out"; fail "reassembly timeouts: the devices do not sum to the MIB"; }

# Without --mib-devices: no devices, 404
"$PKTPATH" $(eal none) -- --duration 30 --quiet --http 127.0.0.1:0 > "$TMP/none.out" 2>&1 &
PID=$!
PIDS+=("$PID")
http_url none "$TMP/none.out" "$PID"
for p in links dev_snmp6/gen0; do
	code=$(curl -s -o "$TMP/r" -w '%{http_code}' "${URL}$p")
	[ "$code" = 404 ] && grep -q "no per-device MIBs in this run" "$TMP/r" ||
		{ kill -INT "$PID"; fail "/$p without --mib-devices: $code $(cat "$TMP/r")"; }
done
kill -INT "$PID"
wait "$PID" || fail "pktpath exited $? after SIGINT"

# Too large for the machine: refused before allocating, with the figure.
rc=0
"$PKTPATH" $(eal big) -- --http off --duration 1 --mib-devices 4000 --mib-lcores 1000 \
	> "$TMP/big.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "a set too large: exit $rc: $(cat "$TMP/big.out")"
grep -q "out of memory for the per-device IPv6 MIBs (4001 devices x 1001 lcores: 1024.7 MiB): needs 1.0 GiB" \
	"$TMP/big.out" || fail "a set too large: $(cat "$TMP/big.out")"
rc=0
"$PKTPATH" $(eal big) -- --http off --duration 1 --mib-devices 4001 > "$TMP/big.out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q -- "--mib-devices: '4001' is out of range 0..4000" "$TMP/big.out" ||
	fail "--mib-devices 4001: exit $rc: $(cat "$TMP/big.out")"
echo "devices: ok"
