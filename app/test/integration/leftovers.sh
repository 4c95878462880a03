#!/usr/bin/env bash
# A run leaves the EAL's runtime directory as it found it (lib/host): every
# kind of run of pktpath and pktpath-bench -- the generator, a port
# (net_null), --help, a refused option, an EAL failure, SIGTERM mid-run,
# with and without --no-shconf -- removes what it made there, the
# directory and its dpdk/ parent included, and nothing else: a directory
# that existed before stays as it was, and so does one another process with
# the same --file-prefix uses. The runs use RUNTIME_DIRECTORY (as the EAL
# does, from systemd) under TMP, so that other tests' runs on the machine
# do not show; one runs where the EAL puts it by default.
. "$(dirname "$0")/lib.sh"
: "${PKTPATH_BENCH:?PKTPATH_BENCH must point to pktpath-bench}"
RUN=$TMP/run
mkdir "$RUN"
export RUNTIME_DIRECTORY=$RUN
n=0

# as_found WHAT: nothing under RUN (the dpdk/ parent included)
as_found() {
	local left
	left=$(find "$RUN" -mindepth 1 | head -5)
	[ -z "$left" ] || { ls -laR "$RUN"; fail "$1: left $left"; }
}
# run WANT-RC WHAT PROGRAM ARGS...: run to the end, exit WANT-RC, nothing left
run() {
	local want=$1 what=$2 rc; shift 2
	n=$((n + 1))
	set +e
	"$@" > "$TMP/o$n.txt" 2>&1
	rc=$?
	set -e
	[ "$rc" = "$want" ] || { cat "$TMP/o$n.txt"; fail "$what: exit $rc, want $want"; }
	as_found "$what"
}
EAL=(-l 0-1 --no-huge -m 512 --no-pci --log-level=lib.eal:error)
APP=(--http 127.0.0.1:0 --duration 0.2 --warmup 0 --quiet)

for shconf in --no-shconf ""; do
	s=${shconf:+noshconf}; s=${s:-shconf}
	run 0 "generator ($s)" "$PKTPATH" "${EAL[@]}" $shconf --file-prefix "${PREFIX}_gen$s" -- "${APP[@]}"
	run 0 "port net_null ($s)" "$PKTPATH" "${EAL[@]}" $shconf --file-prefix "${PREFIX}_port$s" \
		--vdev net_null0 -- --source port "${APP[@]}"
	run 2 "a refused option ($s)" "$PKTPATH" "${EAL[@]}" $shconf --file-prefix "${PREFIX}_bad$s" \
		-- --burst x
	run 2 "an EAL failure ($s)" "$PKTPATH" "${EAL[@]}" -m 99999999 $shconf \
		--file-prefix "${PREFIX}_eal$s" -- "${APP[@]}"
	grep -q "rte_eal_init: Cannot allocate memory" "$TMP/o$n.txt" ||
		{ cat "$TMP/o$n.txt"; fail "the EAL did not fail as the test needs"; }
	# SIGTERM mid-run
	"$PKTPATH" "${EAL[@]}" $shconf --file-prefix "${PREFIX}_term$s" -- --http 127.0.0.1:0 \
		--duration 0 --quiet > "$TMP/term.out" 2>&1 &
	pid=$!
	http_url "SIGTERM run" "$TMP/term.out" "$pid"
	[ -n "$(find "$RUN" -mindepth 1)" ] || fail "the run made no runtime directory: the check cannot fail"
	kill -TERM "$pid"
	wait "$pid" || { rc=$?; cat "$TMP/term.out"; fail "SIGTERM run ($s): exit $rc"; }
	as_found "SIGTERM mid-run ($s)"
	# pktpath-bench
	run 0 "pktpath-bench --list ($s)" "$PKTPATH_BENCH" -l 0 --no-huge -m 512 --no-pci $shconf \
		--log-level=lib.eal:error --file-prefix "${PREFIX}_bl$s" -- --list
	run 0 "pktpath-bench --run ($s)" "$PKTPATH_BENCH" -l 0 --no-huge -m 512 --no-pci $shconf \
		--log-level=lib.eal:error --file-prefix "${PREFIX}_br$s" -- --run empty --reps 1
	run 2 "pktpath-bench, a refused option ($s)" "$PKTPATH_BENCH" -l 0 --no-huge -m 512 \
		--no-pci $shconf --log-level=lib.eal:error --file-prefix "${PREFIX}_bb$s" -- --reps 0x3
	run 1 "pktpath-bench, an EAL failure ($s)" "$PKTPATH_BENCH" -l 0 --no-huge -m 99999999 \
		--no-pci $shconf --log-level=lib.eal:error --file-prefix "${PREFIX}_be$s" -- --list
done
run 0 "--help" "$PKTPATH" -- --help
# the default --file-prefix (rte), and its abbreviation
run 0 "the default prefix" "$PKTPATH" "${EAL[@]}" --no-shconf -- "${APP[@]}"
run 0 "--file-pre=" "$PKTPATH" "${EAL[@]}" --no-shconf --file-pre="${PREFIX}_abbr" -- "${APP[@]}"

# A directory that was there stays, with what is in it.
mkdir -p "$RUN/dpdk/${PREFIX}_old"
: > "$RUN/dpdk/${PREFIX}_old/mp_socket_1_1"
n=$((n + 1))
"$PKTPATH" "${EAL[@]}" --no-shconf --file-prefix "${PREFIX}_old" -- "${APP[@]}" > "$TMP/old.txt" 2>&1 ||
	{ cat "$TMP/old.txt"; fail "run in an existing directory"; }
[ -f "$RUN/dpdk/${PREFIX}_old/mp_socket_1_1" ] || fail "an existing directory's file was removed"
rm -r "$RUN/dpdk"
mkdir -p "$RUN/dpdk/${PREFIX}_old2"
run_keep() { "$PKTPATH" "${EAL[@]}" "$@" -- "${APP[@]}" > "$TMP/keep.txt" 2>&1 ||
	{ cat "$TMP/keep.txt"; fail "run in an existing empty directory"; }; }
run_keep --no-shconf --file-prefix "${PREFIX}_old2"
[ -d "$RUN/dpdk/${PREFIX}_old2" ] || fail "an existing empty directory was removed"
rm -r "$RUN/dpdk"

# Another process with the same prefix: A makes the directory, B comes
# (its telemetry socket goes there), A ends first and leaves it to B.
"$PKTPATH" "${EAL[@]}" --no-shconf --file-prefix "${PREFIX}_same" -- --http 127.0.0.1:0 \
	--duration 0 --quiet > "$TMP/a.out" 2>&1 &
a=$!
http_url "A" "$TMP/a.out" "$a"
"$PKTPATH" "${EAL[@]}" --no-shconf --file-prefix "${PREFIX}_same" -- --http 127.0.0.1:0 \
	--duration 0 --quiet > "$TMP/b.out" 2>&1 &
b=$!
http_url "B" "$TMP/b.out" "$b"
kill -TERM "$a"
wait "$a" || { rc=$?; cat "$TMP/a.out"; fail "A: exit $rc"; }
[ -d "$RUN/dpdk/${PREFIX}_same" ] || fail "A removed the directory B uses"
kill -TERM "$b"
wait "$b" || { rc=$?; cat "$TMP/b.out"; fail "B: exit $rc"; }
rm -r "$RUN/dpdk"

# Where the EAL puts it by default (/var/run/dpdk as root).
unset RUNTIME_DIRECTORY
if [ "$(id -u)" = 0 ]; then dflt=/var/run/dpdk; else dflt=${XDG_RUNTIME_DIR:-/tmp}/dpdk; fi
"$PKTPATH" "${EAL[@]}" --no-shconf --file-prefix "${PREFIX}_dflt" -- "${APP[@]}" > "$TMP/d.txt" 2>&1 ||
	{ cat "$TMP/d.txt"; fail "default runtime directory run"; }
[ ! -e "$dflt/${PREFIX}_dflt" ] || fail "$dflt/${PREFIX}_dflt left"
echo "leftovers: ok"
