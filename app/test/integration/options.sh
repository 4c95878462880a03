#!/usr/bin/env bash
# Bad input: every user mistake gets one clear line and exit code 2, and the
# good ways of giving options (INI file, command line overriding it) work.
. "$(dirname "$0")/lib.sh"

n=0
http0() { # http0 APP-ARGS...: --http 127.0.0.1:0 unless they give --http
	local a
	for a in "$@"; do case $a in --http|--http=*) return ;; esac; done
	echo "--http 127.0.0.1:0"
}
bad() { # bad "EXPECTED TEXT" APP-ARGS...: must exit 2 with one stderr line
	local want=$1; shift
	n=$((n + 1))
	set +e
	# shellcheck disable=SC2046
	"$PKTPATH" $(eal "bad$n") -- $(http0 "$@") "$@" > "$TMP/o.txt" 2> "$TMP/e.txt"
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
bad "--rxq 1:0.0 has no effect with --source gen (it needs --source port)" --rxq 1:0.0
bad "--source port: no ethdev port" --source port
bad "unexpected argument 'stray'" stray
bad "--template" --template /nonexistent.pcap
bad "--json /nonexistent/dir/x.json" --json /nonexistent/dir/x.json
bad "--config" --config /nonexistent.ini
printf 'garbage\n' > "$TMP/x.pcap"
bad "x.pcap" --template "$TMP/x.pcap"

bad "--http: expected ADDR:PORT" --http nonsense
bad "--http: " --http 127.0.0.1:99999
bad "has no effect with --path rx-only (it needs --path full)" --path rx-only --capture "$TMP/x.pcap"
bad "--compare: needs --duration > 0" --compare off,rcu --duration 0
bad "--suspicious-us 1000 has no effect without --perf-detail (it needs --perf-detail)" --suspicious-us 1000
bad "--update-rate: refused with --ingress none" --ingress none --update-rate 5
bad "--compare: ingress: 'lock' is listed twice" --compare lock,rcu,lock
bad "--compare peer-layout=...: the knob has no effect (it needs --peer on)" --compare peer-layout=shared,split
bad "--compare alloc=...: --alloc bulk is given too; the phases set it: give one" --compare alloc=reuse,bulk --alloc bulk
bad "--compare: 'mtu' is not a knob" --compare mtu=1500,9000
bad "--baseline: 'x' is not one of the variants: off rcu" --compare off,rcu --baseline x
bad "--config /dev/null: a character device, not a regular file" --config /dev/null

# A busy port: the second process says so and exits 2.
python3 -c 'import socket, time, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(30)' > "$TMP/port" &
holder=$!
for _ in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
bad "--http 127.0.0.1:$(cat "$TMP/port"): bind: Address already in use; port in use: --http 127.0.0.1:0 picks a free one" \
	--http "127.0.0.1:$(cat "$TMP/port")"
kill $holder
# The default port (a second run with the default --http): held here if it
# is free, and the message says how to get another.
python3 -c 'import socket, time, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", 9120)); s.listen()
except OSError:
    print("taken", flush=True); sys.exit(0)
print("held", flush=True); time.sleep(30)' > "$TMP/held" &
holder=$!
for _ in $(seq 50); do [ -s "$TMP/held" ] && break; sleep 0.1; done
if [ "$(cat "$TMP/held")" = held ]; then
	n=$((n + 1))
	set +e
	"$PKTPATH" $(eal "bad$n") -- --duration 0.1 > "$TMP/o.txt" 2> "$TMP/e.txt"
	rc=$?
	set -e
	[ "$rc" = 2 ] && [ "$(grep -v '^EAL:\|^TELEMETRY:' "$TMP/e.txt" | grep -c .)" = 1 ] &&
		grep -qxF "pktpath: --http 127.0.0.1:9120: bind: Address already in use; port in use: --http 127.0.0.1:0 picks a free one" "$TMP/e.txt" ||
		{ cat "$TMP/e.txt"; fail "default --http on a busy 9120: exit $rc"; }
else
	echo "options: 127.0.0.1:9120 is used by another process: default-port check skipped"
fi
kill $holder 2> /dev/null || true

printf '[pktpath]\nburst = 16\nfoo = 1\n' > "$TMP/unk.ini"
bad "unk.ini:3: unknown key 'foo'" --config "$TMP/unk.ini"
printf '[pktpath]\nburst = 16\n\nfold = sideways\n' > "$TMP/val.ini"
bad "val.ini:4: fold: 'sideways' is not one of field|lcore" --config "$TMP/val.ini"
printf '[pktpath]\nburst 16\n' > "$TMP/syn.ini"
bad "syn.ini:2: expected 'key = value'" --config "$TMP/syn.ini"
printf '[other]\nburst = 16\n' > "$TMP/sec.ini"
bad "unknown section [other]" --config "$TMP/sec.ini"

# Integers are decimal: leading zeros are not octal, hexadecimal is refused.
bad "--burst: '0x10' is not a decimal number (hexadecimal is not accepted)" --burst 0x10
bad "--duration: '0x1' is not a decimal number (hexadecimal is not accepted)" --duration 0x1
bad "--dport: '0x50' is not a port or range P-Q (decimal, 0..65535)" --dport 0x50
bad "--burst: '+5' is not a number" --burst +5
bad "--burst: ' 5' is not a number" --burst " 5"
bad "--duration: 'inf' is not a number" --duration inf
bad "--duration: '1e999' is out of range" --duration 1e999
bad "--rxq: '1:+0.0' is not LCORE:PORT.QUEUE" --source port --rxq 1:+0.0
bad "--rxq: '4294967297:0.0' is not LCORE:PORT.QUEUE" --source port --rxq 4294967297:0.0
printf '[pktpath]\nburst = 0x20\n' > "$TMP/hex.ini"
bad "hex.ini:2: burst: '0x20' is not a decimal number (hexadecimal is not accepted)" --config "$TMP/hex.ini"
printf 'default pass\nprio 0x10 action drop\n' > "$TMP/hex.rules"
bad "hex.rules:2: prio: '0x10' is not a decimal number (hexadecimal is not accepted)" --rules "$TMP/hex.rules"
"$PKTPATH" $(eal dec) -- --http 127.0.0.1:0 --duration 0.5 --warmup 0 --quiet --burst 010 \
	--dport 080 --udp-ports 0080 --json "$TMP/dec.json" > "$TMP/dec.txt" 2>&1 ||
	{ cat "$TMP/dec.txt"; fail "decimal run"; }
jcheck "$TMP/dec.json" 'd["info"]["config"]["burst"] == 10' 'f("Rx.RxPackets") > 0' \
	'f("Udp.InDatagrams") == f("Rx.RxPackets")'
if [ -n "${PKTPATH_BENCH:-}" ]; then
	set +e
	"$PKTPATH_BENCH" -l 0 --no-huge --no-shconf -m 512 --no-pci --file-prefix "${PREFIX}_bench" \
		--log-level=lib.eal:error -- --run spinlock --reps 0x3 > /dev/null 2> "$TMP/e.txt"
	rc=$?
	set -e
	[ "$rc" = 2 ] && grep -qx -- "pktpath-bench: --reps: '0x3' is not a decimal number (hexadecimal is not accepted)" "$TMP/e.txt" ||
		{ cat "$TMP/e.txt"; fail "pktpath-bench --reps 0x3: exit $rc"; }
fi

# One parser (lib/pkt) for numbers, addresses, prefixes and port ranges: the
# same mistake gets the same reason from an option, an INI key and a rules
# file, after their own "--dport: ", "FILE:LINE: dport: ", "FILE:LINE: dport: ".
reason() { # reason PREFIX APP-ARGS...: the stderr line after PREFIX, exit 2
	local pre=$1; shift
	n=$((n + 1))
	set +e
	"$PKTPATH" $(eal "same$n") -- --http 127.0.0.1:0 "$@" > /dev/null 2> "$TMP/e.txt"
	local rc=$?
	set -e
	[ "$rc" = 2 ] || { cat "$TMP/e.txt"; fail "'$*': exit $rc, want 2"; }
	grep -v '^EAL:\|^TELEMETRY:' "$TMP/e.txt" | sed -n "s|^.*$pre||p"
}
same() { # same OPTION RULES-KEY VALUE: the option, the INI key and the rule agree
	local opt=$1 key=$2 v=$3 a b c
	a=$(reason "--$opt: " "--$opt" "$v")
	printf '[pktpath]\n%s = %s\n' "$opt" "$v" > "$TMP/same.ini"
	b=$(reason "same.ini:2: $opt: " --config "$TMP/same.ini")
	printf '%s %s action drop\n' "$key" "$v" > "$TMP/same.rules"
	c=$(reason "same.rules:1: $key: " --ingress rcu --rules "$TMP/same.rules")
	[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = "$c" ] ||
		fail "'$v': --$opt says '$a', the INI file '$b', a rules file '$c'"
}
for v in 70000 0x50 080x 9-5 -5 1-2-3 1-70000 99999999999999999999999; do
	same dport dport "$v"
done
same sport sport 7-6
# --local takes an address in its subnet, a rule a prefix: both refuse these
for v in 10.0.0.0/33 10.0.0.0/ 10.0.0 300.0.0.0/8 10.0.0.0/0x8 010.0.0.0/8 10.0.0.0/+8; do
	same local dst "$v"
done
# the reasons themselves
printf 'dport 70000 action drop\n' > "$TMP/p.rules"
bad "p.rules:1: dport: '70000' is not a port or range P-Q (decimal, 0..65535)" --rules "$TMP/p.rules"
printf 'src 10.0.0.1/8 action drop\n' > "$TMP/p.rules"
bad "p.rules:1: src: '10.0.0.1/8' has host bits set (did you mean 10.0.0.0/8?)" --rules "$TMP/p.rules"
bad "--local: '10.0.0.0/33' is not an address A.B.C.D[/LEN]: length '33' is out of range 0..32" --local 10.0.0.0/33
bad "--sport: '7-6': range is reversed" --sport 7-6
# leading zeros are decimal in a rules file too: prio 010 is ten, dport 09 nine
printf 'prio 010 dport 09 action drop\n' > "$TMP/z.rules"
"$PKTPATH" $(eal zero) -- --http 127.0.0.1:0 --duration 0.3 --warmup 0 --quiet --ingress rcu \
	--rules "$TMP/z.rules" --json "$TMP/z.json" > "$TMP/z.txt" 2>&1 || { cat "$TMP/z.txt"; fail "rules 09"; }
jcheck "$TMP/z.json" 'f("Rx.RxPackets") > 0' 'f("Ingress.IngressDropped") == f("Rx.RxPackets")'

# The smaller refusals: each one line naming the option.
bad "--ingress rcu has no effect with --path rx-only (it needs --path full)" --path rx-only --ingress rcu
bad "drop-udp-9.rules has no effect with --path rx-only (it needs --ingress-kind rules and --path full)" \
	--path rx-only --rules "$SOURCE_DIR/config/rules/drop-udp-9.rules"
bad "--update-rate 10 has no effect with --path rx-only (it needs --path full)" --path rx-only --update-rate 10
bad "--filter: empty expression (libpcap would match every frame); give one, e.g. 'udp dst port 9'" \
	--ingress-kind pcap-filter --filter ""
bad "--filter: empty expression (libpcap would match every frame); give one, e.g. 'udp dst port 9'" \
	--ingress-kind pcap-filter --filter " "
bad "--filter: empty expression (libpcap would match every frame)" --filter "	 "
bad "--local: ',' has an empty item (items are separated by single commas)" --local ,
bad "--local: '198.19.0.1/24,' has an empty item" --local 198.19.0.1/24,
bad "--udp-ports: '9,,10' has an empty item" --udp-ports 9,,10
bad "--compare: 'off,,rcu' has an empty item" --compare off,,rcu
bad "option '--co' is ambiguous (--config, --compare)" --co x
# An option given where it has no effect is refused, on the command line
# and from an INI file, naming what it needs (every row of the table:
# test_options); one given twice is refused naming both values, on the
# command line and across INI files, and the command line over an INI file
# is accepted (the "ini run" below).
bad "--rxd 512 has no effect with --source gen (it needs --source port)" --rxd 512
bad "--promisc on has no effect with --source gen (it needs --source port)" --promisc on
bad "--peers 8 has no effect with --peer off (it needs --peer on)" --peers 8
bad "--peer-layout split has no effect with --peer off (it needs --peer on)" --peer-layout split
bad "--capture-max 10 has no effect without --capture (it needs --capture)" --capture-max 10
printf '[pktpath]\nrxd = 512\n' > "$TMP/rxd.ini"
bad "rxd.ini:2: rxd = 512 has no effect with --source gen (it needs --source port)" --config "$TMP/rxd.ini"
bad "--burst given twice (16, then 8): give it once" --burst 16 --bu 8
printf '[pktpath]\nburst = 16\n' > "$TMP/b16.ini"
printf '[pktpath]\nburst = 8\n' > "$TMP/b8.ini"
bad "b8.ini:2: burst given twice (16 at $TMP/b16.ini:2, then 8): give it once" \
	--config "$TMP/b16.ini" --config "$TMP/b8.ini"
# Out of memory is an option mistake too: one line naming -m and --mbufs, exit
# 2, said before the pools are made (what they need, what the heap has).
bad "pktpath: out of memory for the mbuf pools of 1 worker (1000000 mbufs of 2176 bytes each): needs 3.8 GiB, EAL's heap has 512 MiB" \
	--mbufs 1000000
n=$((n + 1))
set +e
"$PKTPATH" --lcores "(0-31)@(0,1)" --no-huge --no-shconf -m 512 --no-pci --file-prefix "${PREFIX}_oom" \
	--log-level=lib.eal:error -- --http 127.0.0.1:0 --duration 0.1 > /dev/null 2> "$TMP/e.txt"
rc=$?
set -e
[ "$rc" = 2 ] && [ "$(grep -v '^EAL:\|^TELEMETRY:' "$TMP/e.txt" | grep -c .)" = 1 ] &&
	grep -q "out of memory for the mbuf pools of 31 workers (8191 mbufs of 2176 bytes each): needs [0-9.]* [GM]iB, EAL's heap has 512 MiB.*give EAL more memory (-m MB, or hugepages) or fewer mbufs per worker (--mbufs) or fewer workers (-l)" "$TMP/e.txt" ||
	{ cat "$TMP/e.txt"; fail "31 workers on -m 512: exit $rc"; }

# --config in every spelling getopt_long accepts is read (or refused) the
# same way; the INI reader has no 255-character limit and no silent loss.
for spelling in "--config /nonexistent.ini" "--config=/nonexistent.ini" "--conf /nonexistent.ini" \
	"--confi=/nonexistent.ini" "--con /nonexistent.ini"; do
	# shellcheck disable=SC2086
	bad "--config /nonexistent.ini: cannot open: No such file or directory" $spelling
done
printf '[pktpath]\nburst = 16\n[pktpath]\nfold = field\n' > "$TMP/dup.ini"
bad "dup.ini:3: second [pktpath] section (the first is at line 1): merge them" --config "$TMP/dup.ini"
printf '[pktpath]\nburst = 16\nburst = 8\n' > "$TMP/dupkey.ini"
bad "dupkey.ini:3: burst given twice (16 at $TMP/dupkey.ini:2, then 8): give it once" --config "$TMP/dupkey.ini"
printf 'burst = 16\n[pktpath]\n' > "$TMP/early.ini"
bad "early.ini:1: 'burst' before the [pktpath] section" --config "$TMP/early.ini"
printf '# only a comment\n' > "$TMP/nosec.ini"
bad "nosec.ini: no [pktpath] section" --config "$TMP/nosec.ini"
printf '[pktpath]\nburst = 16 ; sixteen\n' > "$TMP/inline.ini"
bad "inline.ini:2: burst: '16 ; sixteen' is not a number" --config "$TMP/inline.ini"
printf '[pktpath]\nburst = 1\0006\n' > "$TMP/nul.ini"
bad "nul.ini:2: NUL byte (not a text file)" --config "$TMP/nul.ini"
printf '[pktpath]\nfilter = %s\n' "$(head -c 1100 /dev/zero | tr '\0' 'u')" > "$TMP/longf.ini"
bad "longf.ini:2: filter: expression longer than 1023 characters" --config "$TMP/longf.ini"
# A udp-ports list of 368 characters whose last port is the traffic's: with
# a 255-character limit port 9 would be lost and every frame be NoPorts.
ports=$(seq -s, 10000 10060),9
[ ${#ports} -gt 300 ] || fail "test list too short (${#ports})"
filter="udp and dst port 9$(for i in $(seq 30); do printf ' and not src host 10.0.0.%d' "$i"; done)"
[ ${#filter} -gt 600 ] || fail "test filter too short (${#filter})"
cat > "$TMP/long.ini" <<INI
# '#' and ';' comment lines
; both kinds
[pktpath]   ; the section
udp-ports = $ports
ingress = rcu
ingress-kind = pcap-filter
filter = $filter
filter-action = pass
duration = 0.5
warmup = 0
quiet = on
INI
"$PKTPATH" $(eal long) -- --http 127.0.0.1:0 --conf "$TMP/long.ini" --json "$TMP/long.json" \
	> "$TMP/long.txt" 2>&1 || { cat "$TMP/long.txt"; fail "long INI values"; }
jcheck "$TMP/long.json" 'f("Rx.RxPackets") > 0' 'f("Udp.InDatagrams") == f("Rx.RxPackets")' \
	'f("Ingress.IngressMatched") == f("Rx.RxPackets")' 'd["info"]["config"]["duration_s"] == 0.5'

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
# --main-worker where --rxq maps nothing to the main lcore: no effect
set +e
"$PKTPATH" -l 0-1 --no-huge --no-shconf -m 512 --no-pci --file-prefix "${PREFIX}_rxq3" \
	--log-level=lib.eal:error --vdev net_null0 -- --http 127.0.0.1:0 --source port \
	--rxq 1:0.0 --main-worker > /dev/null 2> "$TMP/e.txt"
rc=$?
set -e
[ "$rc" = 2 ] && grep -qx "pktpath: --main-worker has no effect: --rxq maps no queue to the main lcore 0 (it needs --rxq 0:PORT.QUEUE)" "$TMP/e.txt" ||
	{ cat "$TMP/e.txt"; fail "--main-worker without a queue"; }

# --help without EAL, listing every option with its default.
"$PKTPATH" -- --help > "$TMP/help.txt"
for o in source path duration interval burst alloc prefetch mib-layout fold rxq local udp-ports; do
	grep -q -- "--$o" "$TMP/help.txt" || fail "--help lacks --$o"
done

# Every option --help lists is in app/pktpath/README.md, and the shipped
# config/default.ini is accepted as it is.
for o in $(sed -n 's/^  --\([a-z0-9-]*\).*/\1/p' "$TMP/help.txt"); do
	[ "$o" = help ] || grep -qE -- "\`--$o([^a-z0-9-]|\$)" "$SOURCE_DIR/app/pktpath/README.md" ||
		fail "app/pktpath/README.md lacks --$o"
done
"$PKTPATH" $(eal dflt) -- --http 127.0.0.1:0 --config "$SOURCE_DIR/config/default.ini" \
	--duration 0.3 --warmup 0 --quiet --json "$TMP/dflt.json" > "$TMP/dflt.txt" 2>&1 ||
	{ cat "$TMP/dflt.txt"; fail "config/default.ini refused"; }
jcheck "$TMP/dflt.json" 'f("Rx.RxPackets") > 0' 'f("Udp.InDatagrams") == f("Rx.RxPackets")'
# ... and it sets what no file sets: the run's configuration is the same.
"$PKTPATH" $(eal nodflt) -- --http 127.0.0.1:0 --duration 0.3 --warmup 0 --quiet \
	--json "$TMP/nodflt.json" > "$TMP/nodflt.txt" 2>&1 || { cat "$TMP/nodflt.txt"; fail "no config"; }
python3 - "$TMP/dflt.json" "$TMP/nodflt.json" <<'PY' || fail "config/default.ini changes the run's configuration"
import json, sys
a, b = (json.load(open(f))["info"]["config"] for f in sys.argv[1:])
diff = {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}
if diff:
    print("default.ini vs no file:", diff, file=sys.stderr)
    sys.exit(1)
PY

# config/default.ini and app/pktpath/README.md's options table are what the option
# table prints (--help-ini, --help-markdown): an option missing, a default
# or a help text that differs fails here, with the difference.
"$SOURCE_DIR/scripts/options-doc.sh" --check "$PKTPATH" > "$TMP/doc.txt" 2>&1 ||
	{ cat "$TMP/doc.txt"; fail "config/default.ini or app/pktpath/README.md differ from the option table"; }
# The help options need no EAL, and -h is --help.
for h in --help -h --help-ini --help-markdown; do
	"$PKTPATH" -- "$h" > "$TMP/h.txt" 2> "$TMP/h.err" || fail "$h: exit $?"
	[ -s "$TMP/h.txt" ] && [ ! -s "$TMP/h.err" ] || fail "$h: no text, or text on stderr"
done
"$PKTPATH" -- -h | cmp -s - "$TMP/help.txt" || fail "-h differs from --help"
# Every option of --help is a row of --help-markdown and a key (or a
# commented-out key) of --help-ini, but --config and the help options.
"$PKTPATH" -- --help-ini > "$TMP/ini.txt"
"$PKTPATH" -- --help-markdown > "$TMP/md.txt"
# Every section of app/pktpath/README.md the option table links to exists
# (GitHub's anchors; scripts/check-links.py checks the file's other links).
python3 - "$SOURCE_DIR/app/pktpath/README.md" "$TMP/md.txt" <<'PY' || fail "the option table links to a missing section of app/pktpath/README.md"
import re, sys
def anchor(h):
    return re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
heads = {anchor(m) for m in re.findall(r"^#+ (.*)$", open(sys.argv[1]).read(), re.M)}
links = re.findall(r"\]\(#([^)]+)\)", open(sys.argv[2]).read())
bad = [a for a in links if a not in heads]
if not links or bad:
    print("links %s, not README sections: %s" % (links, bad), file=sys.stderr)
    sys.exit(1)
PY
for o in $(sed -n 's/^  --\([a-z0-9-]*\).*/\1/p' "$TMP/help.txt"); do
	grep -q "^| \`--$o[ \`]" "$TMP/md.txt" || fail "--help-markdown lacks --$o"
	case $o in config|help*) continue ;; esac
	grep -qE "^;?$o = " "$TMP/ini.txt" || fail "--help-ini lacks $o"
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
for spelling in "--config $TMP/ok.ini" "--config=$TMP/ok.ini" "--conf $TMP/ok.ini" "--confi=$TMP/ok.ini"; do
	# shellcheck disable=SC2086
	"$PKTPATH" $(eal ini) -- --http 127.0.0.1:0 $spelling --fold lcore --json "$TMP/ini.json" \
		> "$TMP/ini.txt" 2>&1 || { cat "$TMP/ini.txt"; fail "ini run ($spelling)"; }
	jcheck "$TMP/ini.json" 'd["info"]["config"]["burst"] == 16' \
		'd["info"]["config"]["fold"] == "lcore"' 'd["info"]["config"]["duration_s"] == 0.6' ||
		fail "INI not applied with $spelling"
done
echo "options: ok"
