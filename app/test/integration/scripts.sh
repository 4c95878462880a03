#!/usr/bin/env bash
# The front door's scripts: scripts/hugepages.sh in every state a machine
# can be in, under `set -euo pipefail` as run.sh sources it, and
# scripts/run.sh itself, on whatever this machine has and on --no-huge;
# scripts/flip-latency.py's refusals.
#
# hugepages.sh reads the machine through a few commands and functions
# (__huge_meminfo, __huge_mounted, id, dpdk-hugepages.py, mount, umount);
# the state matrix replaces each with a fake over variables, so that no
# state needs the machine to be in it and nothing of the machine changes.
# (Found this way: a machine whose hugepages were already reserved and
# mounted made run.sh exit 1 without a word, a `$(test && echo)` in an
# assignment under `set -e`.)
. "$(dirname "$0")/lib.sh"
HP="$SOURCE_DIR/scripts/hugepages.sh"

# state NAME EXPECT_MEM EXPECT_DESC_PART VARS...: huge_setup 512 and
# huge_release in a fresh shell under set -euo pipefail with the fakes set
# from VARS (PG TOTAL FREE MOUNTED UID RESERVE_OK MOUNT_OK NO_HUGE).
state() {
	local name=$1 mem=$2 part=$3; shift 3
	env "$@" HP="$HP" T="$TMP/$name" bash -c '
set -euo pipefail
mkdir -p "$T"
. "$HP"
HUGE_DIR=$T/hugepages
HUGE_NR=$T/nr_hugepages
echo 7 > "$HUGE_NR"
__huge_meminfo() {
	case $1 in
	Hugepagesize) echo "$PG" ;;
	HugePages_Total) echo "$TOTAL" ;;
	HugePages_Free) echo "$FREE" ;;
	esac
}
__huge_mounted() { [ "$MOUNTED" = 1 ]; }
id() { echo "$UID_"; }
dpdk-hugepages.py() { # --reserve NM
	[ "$RESERVE_OK" = 1 ] || return 1
	TOTAL=$(( ${2%M} * 1024 / PG )); FREE=$TOTAL
}
mount() { [ "$MOUNT_OK" = 1 ] || return 32; MOUNTED=1; }
umount() { MOUNTED=0; echo umounted >> "$T/log"; }
export PKTPATH_NO_HUGE=$NO_HUGE
huge_setup 512 > "$T/out"
echo "$HUGE_MEM|$HUGE_EAL|$HUGE_RESERVED|$HUGE_MOUNTED" >> "$T/log"
huge_release
echo "released $(cat "$HUGE_NR") $MOUNTED" >> "$T/log"
' || fail "$name: huge_setup/huge_release exited $? under set -e"
	local got
	got=$(sed -n 1p "$TMP/$name/log" | cut -d'|' -f1)
	[ "$got" = "$mem" ] || { cat "$TMP/$name/log"; fail "$name: HUGE_MEM $got, want $mem"; }
	grep -q "^memory: .*$part" "$TMP/$name/out" ||
		fail "$name: printed '$(cat "$TMP/$name/out")', want '$part'"
	[ "$(wc -l < "$TMP/$name/out")" = 1 ] || fail "$name: not one line"
	case $mem in
	hugepages) grep -q '^hugepages|--huge-unlink|' "$TMP/$name/log" || fail "$name: EAL options" ;;
	no-huge) grep -q '^no-huge|--no-huge -m 512|' "$TMP/$name/log" || fail "$name: EAL options" ;;
	esac
}
base=(PG=2048 TOTAL=256 FREE=256 MOUNTED=1 UID_=0 RESERVE_OK=1 MOUNT_OK=1 NO_HUGE=0)
state ready hugepages "512 MiB free; files unlinked: --huge-unlink)" "${base[@]}"
grep -q '^released 7 1$' "$TMP/ready/log" || fail "ready: huge_release changed what it did not set up"
state forced no-huge "PKTPATH_NO_HUGE=1" "${base[@]}" NO_HUGE=1
state nokernel no-huge "the kernel has no hugepages" "${base[@]}" PG=
state nokernel0 no-huge "the kernel has no hugepages" "${base[@]}" PG=0
state inuse no-huge "256 MiB of hugepages free, 512 MiB needed (in use by others)" "${base[@]}" FREE=128
state reserve hugepages "reserved for this run; files unlinked" "${base[@]}" TOTAL=0 FREE=0 MOUNTED=0
grep -q '^hugepages|--huge-unlink|1|1$' "$TMP/reserve/log" || fail "reserve: not reserved and mounted"
grep -q '^released 0 0$' "$TMP/reserve/log" || fail "reserve: not given back"
state noreserve no-huge "no hugepages reserved, and none could be" "${base[@]}" TOTAL=0 FREE=0 RESERVE_OK=0
state notroot no-huge "no hugepages reserved, and none could be" "${base[@]}" TOTAL=0 FREE=0 UID_=1000
state mount hugepages "512 MiB free; files unlinked" "${base[@]}" MOUNTED=0
grep -q '^released 7 0$' "$TMP/mount/log" || fail "mount: not unmounted at release"
state nomount no-huge "no hugetlbfs mounted" "${base[@]}" MOUNTED=0 MOUNT_OK=0
state notrootmount no-huge "no hugetlbfs mounted" "${base[@]}" MOUNTED=0 UID_=1000
echo "scripts: hugepages.sh: 12 states under set -e"

# run.sh for real: this machine's memory, then --no-huge. It installs
# nothing here (scripts/setup.sh already ran) and builds nothing new
# (BUILD_DIR is this build, already built by meson test).
run() { # run NAME ENV...
	local name=$1; shift
	(cd "$SOURCE_DIR" && env "$@" scripts/run.sh --duration 1 --interval 0.5 --quiet \
		--http off) > "$TMP/$name.out" 2>&1 || { rc=$?; cat "$TMP/$name.out"; fail "run.sh ($name): exit $rc"; }
	grep -q '^conservation: ok' "$TMP/$name.out" || { cat "$TMP/$name.out"; fail "run.sh ($name): no summary"; }
	[ "$(grep -c '^memory: ' "$TMP/$name.out")" -ge 1 ] || fail "run.sh ($name): no memory line"
}
run machine
run nohuge PKTPATH_NO_HUGE=1
grep -q '^memory: --no-huge (4 KiB pages): PKTPATH_NO_HUGE=1' "$TMP/nohuge.out" ||
	{ cat "$TMP/nohuge.out"; fail "run.sh (nohuge): memory line"; }
echo "scripts: run.sh ok ($(grep -m1 '^memory: ' "$TMP/machine.out"))"

# flip-latency.py (its flips against pktpath are stress.sh's): one line and
# exit 2 for a bad argument; against a fake endpoint, exit 0 only when every
# flip succeeded and at least one (and --min-flips) did, the refusal's
# answer shown.
FL="$SOURCE_DIR/scripts/flip-latency.py"
for bad in "--modes , http://127.0.0.1:9/" "--gap-ms -1 http://127.0.0.1:9/" \
	"--timeout 0 http://127.0.0.1:9/" "--secs x http://127.0.0.1:9/" \
	"--secs nan http://127.0.0.1:9/" "--gap-ms inf http://127.0.0.1:9/" \
	"--min-flips -1 http://127.0.0.1:9/" "127.0.0.1:9"; do
	# shellcheck disable=SC2086
	"$FL" $bad > "$TMP/fl.out" 2>&1 && rc=0 || rc=$?
	[ "$rc" = 2 ] && [ "$(grep -c 'error:' "$TMP/fl.out")" = 1 ] ||
		{ cat "$TMP/fl.out"; fail "flip-latency.py $bad: exit $rc"; }
done
python3 - "$TMP/fake.port" <<'PY' &
import sys, http.server
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def answer(self, code, text):
        b = text.encode()
        self.send_response(code); self.send_header("Content-Length", str(len(b)))
        self.end_headers(); self.wfile.write(b)
    def do_GET(self):
        self.answer(200 if self.path == "/healthz" else 404, "ok\n")
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        mode = body.split("=", 1)[1]
        if self.path == "/ingress/mode" and mode in ("lock", "rcu"):
            self.answer(200, "mode %s\n" % mode)
        else:
            self.answer(400, "mode %s: unknown mode '%s' (lock|rcu)\n" % (mode, mode))
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1] + ".tmp", "w").write(str(s.server_address[1]))
__import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
s.serve_forever()
PY
fake=$!
for _ in $(seq 100); do [ -s "$TMP/fake.port" ] && break; sleep 0.05; done
FU="http://127.0.0.1:$(cat "$TMP/fake.port")/"
flcase() { # flcase EXPECT_RC GREP ARGS...: flip-latency.py against the fake
	local want=$1 pat=$2 rc; shift 2
	{ "$FL" "$FU" "$@" > "$TMP/fl.out" 2>&1 && rc=0 || rc=$?; }
	[ "$rc" = "$want" ] && grep -q -- "$pat" "$TMP/fl.out" ||
		{ kill $fake; cat "$TMP/fl.out"; fail "flip-latency.py $*: exit $rc, want $want and '$pat'"; }
}
flcase 0 '^flips [1-9][0-9]* failed 0 in ' --secs 0.3
flcase 0 '^flips [0-9]* failed 0 ' --secs 0 --min-flips 20
read -r _ n _ < "$TMP/fl.out"; [ "$n" -ge 20 ] || { kill $fake; fail "flip-latency.py --min-flips 20: $n flips"; }
flcase 1 "unknown mode 'bogus'" --secs 0.3 --modes lock,bogus
flcase 1 '^flips 0 failed 0 ' --secs 0
kill $fake
echo "scripts: flip-latency.py refuses bad arguments and counts flips"

# scripts/bench.sh from an existing build: --build DIR (or PKTPATH) neither
# sets up nor builds in the checkout; a build without pktpath is refused
# with one line, exit 2; two at once do not share an EAL file prefix, so
# both measure (each round's Mpps above 0: "0 0 0" is a failed run).
BENCH="$SOURCE_DIR/scripts/bench.sh"
set +e
"$BENCH" --build "$TMP/nothing" interval > "$TMP/bn.out" 2> "$TMP/bn.err"
rc=$?
set -e
[ "$rc" = 2 ] && [ "$(wc -l < "$TMP/bn.err")" = 1 ] &&
	grep -qx "bench.sh: $TMP/nothing/app/pktpath/pktpath: not an executable pktpath" "$TMP/bn.err" ||
	{ cat "$TMP/bn.out" "$TMP/bn.err"; fail "bench.sh --build without pktpath: exit $rc"; }
BUILD_OF=$(dirname "$(dirname "$(dirname "$PKTPATH")")")
PKTPATH_NO_HUGE=1 ROUNDS=1 SECS=1 "$BENCH" --build "$BUILD_OF" interval > "$TMP/b1.out" 2>&1 &
b1=$!
PKTPATH_NO_HUGE=1 ROUNDS=1 SECS=1 PKTPATH="$PKTPATH" "$BENCH" interval > "$TMP/b2.out" 2>&1 &
b2=$!
wait $b1 || true	# a missed target is the machine's, not this test's
wait $b2 || true
for b in b1 b2; do
	grep -Eq "^  round 1: interval 0.1 s [0-9.]*[1-9][0-9.]* Mpps, interval 10 s [0-9.]*[1-9][0-9.]* Mpps$" \
		"$TMP/$b.out" || { cat "$TMP/$b.out"; fail "bench.sh ($b, two at once): a run failed"; }
done
echo "scripts: bench.sh runs from an existing build, two at once"
