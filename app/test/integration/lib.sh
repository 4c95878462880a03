# Shared helpers for the integration tests (sourced).
set -euo pipefail
: "${PKTPATH:?PKTPATH must point to the pktpath binary}"
TMP=$(mktemp -d)
# PIDS: what a test starts in the background (PIDS+=("$!")); on exit each is
# killed, and so is every process the test started and left running (a
# pktpath under timeout or in a pipeline a failing check cut short: the
# whole tree under this shell), and TMP removed (lib_cleanup, the EXIT
# trap; a test with more to undo calls it from its own).
PIDS=()
lib_descendants() { # lib_descendants PID: every process below PID, deepest first
	local c
	for c in $(ps -o pid= --ppid "$1" 2> /dev/null); do
		lib_descendants "$c"
		echo "$c"
	done
}
lib_cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -9 "$p" 2> /dev/null || true; done
	for p in $(lib_descendants $$); do
		[ "$p" = "$BASHPID" ] || kill -9 "$p" 2> /dev/null || true
	done
	rm -rf "$TMP"
}
trap lib_cleanup EXIT
# A signal (meson's timeout sends TERM, a user's ^C INT) ends the test
# through exit, so that the EXIT trap -- this one, or a test's own that
# calls it (ports_lib.sh removes its network namespaces) -- runs on every
# exit path: bash skips EXIT traps on a fatal signal left untrapped.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
PREFIX="pt$$"
eal() { # eal NAME: EAL options for a test process with its own file prefix
	echo "-l 0-1 --no-huge --no-shconf -m 512 --no-pci --file-prefix ${PREFIX}_$1 --log-level=lib.eal:error"
}
fail() { echo "FAIL: $*" >&2; exit 1; }
# http_url NAME OUT PID [TRIES]: until pktpath (PID, its output in OUT)
# prints "http: listening on URL", every 0.1 s, TRIES times (100); URL gets
# it. Fails with OUT if it never does or PID exits first.
http_url() {
	local name=$1 out=$2 pid=$3 i
	URL=
	for i in $(seq "${4:-100}"); do
		URL=$(grep -so 'http: listening on http://[^ ]*/' "$out" |
			sed 's/http: listening on //') || true
		[ -n "$URL" ] && return 0
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.1
	done
	cat "$out"
	fail "$name: no 'http: listening on' line"
}
# jcheck FILE PYTHON-EXPR...: each expression over d (the JSON) must be true.
jcheck() {
	local f=$1; shift
	python3 - "$f" "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["mib"]
def f(name):
    g, k = name.split(".")
    return m[g][k]
bad = 0
for e in sys.argv[2:]:
    try:
        ok = eval(e)
    except Exception as ex:
        ok = False
        e += " (%r)" % ex
    if not ok:
        print("check failed: " + e, file=sys.stderr)
        bad = 1
sys.exit(bad)
PY
}
