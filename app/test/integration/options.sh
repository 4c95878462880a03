#!/usr/bin/env bash
# Bad input: every user mistake gets one clear line and exit code 2, and the
# good ways of giving options (INI file, command line overriding it) work.
. "$(dirname "$0")/lib.sh"

n=0
bad() { # bad "EXPECTED TEXT" APP-ARGS...: must exit 2 with one stderr line
	local want=$1; shift
	n=$((n + 1))
	set +e
	"$PKTPATH" $(eal "bad$n") -- --http 127.0.0.1:0 "$@" > "$TMP/o.txt" 2> "$TMP/e.txt"
	local rc=$?
	set -e
	local lines
	lines=$(grep -v '^EAL:\|^TELEMETRY:' "$TMP/e.txt" | grep -c . || true)
	[ "$rc" = 2 ] || { cat "$TMP/e.txt"; fail "'$*': exit $rc, want 2"; }
	[ "$lines" = 1 ] || { cat "$TMP/e.txt"; fail "'$*': $lines stderr lines, want 1"; }
	grep -qF -- "$want" "$TMP/e.txt" || { cat "$TMP/e.txt"; fail "'$*': no '$want'"; }
}

bad "unknown option '--nope'" --nope
bad "--burst: '0' is out of range" --burst 0
bad "--burst: 'x' is not a number" --burst x
bad "--burst needs a value" --burst
bad "--source: 'nic' is not one of gen|port" --source nic
bad "--pool-layout: 'huge' is not one of page|packed" --pool-layout huge
bad "--pool-order: 'random' is not one of address|shuffle" --pool-order random
bad "--src: '10.0.0.9-10.0.0.1': range is reversed" --src 10.0.0.9-10.0.0.1
bad "--dport: '70000' is not a port" --dport 70000
bad "--local: '1.2.3.4/33' is not an address" --local 1.2.3.4/33
bad "--mcast: '10.0.0.1' is not a multicast group" --mcast 10.0.0.1
bad "--pkt-size: '20' is out of range" --pkt-size 20
bad "--rxq: only with --source port" --rxq 1:0.0
bad "--source port: no ethdev port" --source port
bad "unexpected argument 'stray'" stray
bad "--template" --template /nonexistent.pcap
bad "--json /nonexistent/dir/x.json" --json /nonexistent/dir/x.json
bad "--config" --config /nonexistent.ini
printf 'garbage\n' > "$TMP/x.pcap"
bad "x.pcap" --template "$TMP/x.pcap"

bad "--http: expected ADDR:PORT" --http nonsense
bad "--http: " --http 127.0.0.1:99999
bad "--capture: needs --path full" --path rx-only --capture "$TMP/x.pcap"
bad "--compare: needs --duration > 0" --compare off,rcu --duration 0
bad "--update-rate: refused with --ingress none" --ingress none --update-rate 5
bad "--compare: 'lock' is listed twice" --compare lock,rcu,lock
bad "--config /dev/null: not a regular file" --config /dev/null

# A busy port: the second process says so and exits 2.
python3 -c 'import socket, time, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(30)' > "$TMP/port" &
holder=$!
for _ in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
bad "--http 127.0.0.1:$(cat "$TMP/port")" --http "127.0.0.1:$(cat "$TMP/port")"
kill $holder

printf '[pktpath]\nburst = 16\nfoo = 1\n' > "$TMP/unk.ini"
bad "unk.ini:3: unknown key 'foo'" --config "$TMP/unk.ini"
printf '[pktpath]\nburst = 16\n\nfold = sideways\n' > "$TMP/val.ini"
bad "val.ini:4: fold: 'sideways' is not one of field|lcore" --config "$TMP/val.ini"
printf '[pktpath]\nburst 16\n' > "$TMP/syn.ini"
bad "syn.ini:2: expected 'key = value'" --config "$TMP/syn.ini"
printf '[other]\nburst = 16\n' > "$TMP/sec.ini"
bad "unknown section [other]" --config "$TMP/sec.ini"

# Port maps that cannot be.
n=$((n + 1))
set +e
"$PKTPATH" -l 0-1 --no-huge --no-shconf -m 512 --no-pci --file-prefix "${PREFIX}_rxq" \
	--log-level=lib.eal:error --vdev net_null0 -- --source port --rxq 1:5.0 \
	> /dev/null 2> "$TMP/e.txt"
rc=$?
set -e
[ "$rc" = 2 ] && grep -q "port 5 does not exist" "$TMP/e.txt" || { cat "$TMP/e.txt"; fail "bad port"; }
set +e
"$PKTPATH" -l 0-1 --no-huge --no-shconf -m 512 --no-pci --file-prefix "${PREFIX}_rxq2" \
	--log-level=lib.eal:error --vdev net_null0 -- --source port --rxq 7:0.0 \
	> /dev/null 2> "$TMP/e.txt"
rc=$?
set -e
[ "$rc" = 2 ] && grep -q "lcore 7 is not enabled" "$TMP/e.txt" || { cat "$TMP/e.txt"; fail "bad lcore"; }

# --help without EAL, listing every option with its default.
"$PKTPATH" -- --help > "$TMP/help.txt"
for o in source path duration interval burst alloc prefetch mib-layout fold rxq local udp-ports; do
	grep -q -- "--$o" "$TMP/help.txt" || fail "--help lacks --$o"
done

# An INI file, and the command line overriding it.
cat > "$TMP/ok.ini" <<'INI'
; comment
[pktpath]
burst = 16
fold = field
duration = 0.6
warmup = 0.2
quiet = on
INI
"$PKTPATH" $(eal ini) -- --http 127.0.0.1:0 --config "$TMP/ok.ini" --fold lcore --json "$TMP/ini.json" \
	> "$TMP/ini.txt" 2>&1 || { cat "$TMP/ini.txt"; fail "ini run"; }
jcheck "$TMP/ini.json" 'd["info"]["config"]["burst"] == 16' \
	'd["info"]["config"]["fold"] == "lcore"' 'd["info"]["config"]["duration_s"] == 0.6'
echo "options: ok"
