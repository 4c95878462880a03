#!/usr/bin/env bash
# Performance targets, measured as ratios side by side in one run (never in
# the tests: this machine is shared and noisy). Prints one line per figure
# and, at the end, every target with PASS or MISS; exits 1 if one is missed.
#
#   scripts/bench.sh [--build DIR] [--quick] [SECTION...]
# SECTIONS: rxonly matrix interval, and one per scripts/bench.d/NAME.sh
# (ingress kinds pool scrape csum fold devdump detail stages hotpath ipv6 cachesim
# instructions pmu stagepmu)
# (default: all). --quick: shorter phases.
# --build DIR: measure that existing build (DIR/app/pktpath/pktpath, an
# installed or another checkout's), with no set-up and no build here; so
# does PKTPATH=path/to/pktpath (a build tree's binary: its build is the
# directory above app/pktpath). Without either, scripts/setup.sh and
# scripts/build.sh run first and BUILD_DIR (default build/) is measured.
# Every run's EAL --file-prefix carries this script's PID, so two bench.sh
# can run at once (on different CPUs, for figures worth reading).
# Environment: ROUNDS (default 3), SECS (seconds per phase, default 4),
# BUILD_DIR, PKTPATH.
# Memory: hugepages when the machine has them free or, as root, can reserve
# them (given back at exit), else --no-huge; said in the first line and in
# the targets (scripts/hugepages.sh; PKTPATH_NO_HUGE=1 forces --no-huge).
set -uo pipefail
cd "$(dirname "$0")/.."

BUILD=
if [ "${1:-}" = "--build" ]; then
	[ -n "${2:-}" ] || { echo "bench.sh: --build needs a build directory" >&2; exit 2; }
	BUILD=${2%/}
	shift 2
	PKTPATH=$BUILD/app/pktpath/pktpath
elif [ -n "${PKTPATH:-}" ]; then
	BUILD=$(dirname "$(dirname "$(dirname "$PKTPATH")")")
fi
if [ -n "$BUILD" ]; then
	[ -x "$PKTPATH" ] || { echo "bench.sh: $PKTPATH: not an executable pktpath" >&2; exit 2; }
else
	scripts/setup.sh
	scripts/build.sh || exit 1
	# The build (BUILD_DIR, as scripts/build.sh: default build/).
	BUILD=${BUILD_DIR:-build}
	PKTPATH=$BUILD/app/pktpath/pktpath
fi
# This run's EAL file prefixes: bench<PID>_NAME.
RUN_ID=bench$$

ROUNDS=${ROUNDS:-3}
SECS=${SECS:-4}
if [ "${1:-}" = "--quick" ]; then
	ROUNDS=2; SECS=2; shift
fi
SECTIONS=("$@")
if [ ${#SECTIONS[@]} -eq 0 ]; then
	SECTIONS=(rxonly matrix interval)
	for f in scripts/bench.d/*.sh; do
		[ -f "$f" ] && SECTIONS+=("$(basename "$f" .sh)")
	done
fi

TMP=$(mktemp -d)
# shellcheck source=scripts/hugepages.sh
. scripts/hugepages.sh
trap 'huge_release; rm -rf "$TMP"' EXIT
huge_setup 512 > /dev/null
RESULTS="$TMP/results"
: > "$RESULTS"
# IOVA as VA on hugepages too: --pool-layout packed needs it, vdevs do not care.
IOVA=$([ "$HUGE_MEM" = hugepages ] && echo "--iova-mode=va")
EAL="-l 0-1 $HUGE_EAL $IOVA --no-shconf --no-pci --log-level=lib.eal:error"
# Every run gets its own free HTTP port unless the section says otherwise.
HTTP_ANY="--http 127.0.0.1:0"

want() { # want SECTION
	local s
	for s in "${SECTIONS[@]}"; do [ "$s" = "$1" ] && return 0; done
	return 1
}

# pp NAME ARGS...: one pktpath run; prints "mpps ns/pkt cycles/pkt" (steady).
pp() {
	local name=$1; shift
	local extra=$HTTP_ANY
	case " $* " in *" --http "*) extra="" ;; esac
	$PKTPATH $EAL --file-prefix "${RUN_ID}_$name" "$@" $extra --quiet --json "$TMP/$name.json" \
		> "$TMP/$name.out" 2>&1 || { cat "$TMP/$name.out" >&2; echo "0 0 0"; return; }
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]["steady"] or d["summary"]["run"]
print("%.4f %.3f %.2f" % (s["mpps"], s["ns_per_pkt"], s["cycles_per_pkt"]))' "$TMP/$name.json"
}

# target NAME VALUE OP LIMIT: record a target check.
target() {
	local ok
	ok=$(python3 -c "print('PASS' if $2 $3 $4 else 'MISS')")
	printf '%-58s %10s %s %-8s %s\n' "$1" "$2" "$3" "$4" "$ok" >> "$RESULTS"
}

median() { python3 -c 'import sys, statistics; print("%.4f" % statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

echo "pktpath bench: $(nproc) cores, ROUNDS=$ROUNDS, SECS=$SECS, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "$HUGE_DESC"

# --- 1. rx-only against testpmd rxonly on the same net_null vdev ----------
if want rxonly; then
	echo "== rx-only: pktpath --path rx-only vs dpdk-testpmd --forward-mode=rxonly, net_null0, lcore 1, burst 32"
	# Which mbufs a receive loop recycles depends on its pool's order
	# (the journal's "Pool order"): pktpath shuffles its pools (the default), and
	# testpmd's comes out of its start-up partly scattered. So testpmd runs
	# as it is (the target), then with its pool shuffled as pktpath's by the
	# LD_PRELOAD module pktpath-poolshuffle.so, plain and with
	# --record-core-cycles (the TSC read around each burst, as pktpath reads
	# it every poll); pktpath also runs with --pool-order address.
	SHUF=$BUILD/app/pktpath-bench/pktpath-poolshuffle.so
	[ -f "$SHUF" ] || { echo "bench.sh: $SHUF not built" >&2; exit 1; }
	pp_v=(); pa_v=(); tp_v=(); ts_v=(); tc_v=(); fl_v=(); ft_v=(); fs_v=(); fst_v=(); fp_v=()
	tp_mpps() { # tp_mpps LOG: median Rx-pps after the first two seconds, in Mpps
		grep -E 'Rx-pps:' "$1" | awk '{print $2}' | tail -n +3 |
			python3 -c 'import sys, statistics; v=[float(x) for x in sys.stdin if x.strip()]; print("%.4f" % (statistics.median(v)/1e6 if v else 0))'
	}
	tp_run() { # tp_run NAME PRELOAD ARGS...: one testpmd rxonly run, its Mpps
		local name=$1 pre=$2; shift 2
		LD_PRELOAD=$pre timeout -s INT $((SECS + 3)) dpdk-testpmd $EAL --file-prefix "${RUN_ID}_$name" \
			--vdev net_null0 -- --forward-mode=rxonly --burst=32 \
			--total-num-mbufs=16384 --stats-period 1 -a "$@" > "$TMP/$name.out" 2>&1
		if [ -n "$pre" ] && ! grep -q 'pktpath-poolshuffle: pool .* shuffled' "$TMP/$name.out"; then
			echo "bench.sh: testpmd's pool was not shuffled ($name)" >&2
			echo 0; return
		fi
		tp_mpps "$TMP/$name.out"
	}
	for r in $(seq "$ROUNDS"); do
		v=$(pp "rx$r" --vdev net_null0 -- --source port --path rx-only --burst 32 \
			--mbufs 16384 --duration "$SECS" --warmup 1 | cut -d' ' -f1)
		pp_v+=("$v")
		a=$(pp "rxa$r" --vdev net_null0 -- --source port --path rx-only --burst 32 \
			--mbufs 16384 --duration "$SECS" --warmup 1 --pool-order address | cut -d' ' -f1)
		pa_v+=("$a")
		t=$(tp_run "tp$r" "")
		tp_v+=("$t")
		ts=$(tp_run "ts$r" "$PWD/$SHUF")
		ts_v+=("$ts")
		c=$(tp_run "tc$r" "$PWD/$SHUF" --record-core-cycles)
		tc_v+=("$c")
		# The floor: the barest rx_burst + rte_pktmbuf_free_bulk loop
		# compiled here (pktpath-bench rx), without and with one rdtsc
		# per poll, on the same lcore (-l 1: its main lcore).
		$BUILD/app/pktpath-bench/pktpath-bench -l 1 $HUGE_EAL $IOVA --no-shconf --no-pci \
			--log-level=lib.eal:error --file-prefix ${RUN_ID}_fl$r --vdev net_null0 -- \
			--run rx --reps 3 --loops $((SECS * 500000)) --json "$TMP/fl$r.json" > "$TMP/fl$r.out" 2>&1
		read -r f ft fs fst fp < <(python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    c = {x["name"]: x["cycles_per_elem"]["median"] for x in d["results"]}
    print(" ".join("%.4f" % (d["tsc_hz"] / c[n] / 1e6)
                   for n in ("rx_free_bulk", "rx_free_bulk_tsc", "rx_shuffled_free_bulk",
                             "rx_shuffled_free_bulk_tsc", "rx_packed_free_bulk")))
except Exception:
    print("0 0 0 0 0")' "$TMP/fl$r.json")
		fl_v+=("$f"); ft_v+=("$ft"); fs_v+=("$fs"); fst_v+=("$fst"); fp_v+=("$fp")
		echo "  round $r: pktpath $v (--pool-order address $a) Mpps; testpmd $t," \
			"pool shuffled $ts, and --record-core-cycles $c Mpps;" \
			"bare loop, shuffled $fs (+rdtsc $fst), address order $f (+rdtsc $ft)"
	done
	ratio() { python3 -c "print('%.3f' % ($1 / $2 if $2 else 0))"; }
	a=$(median "${pp_v[@]}"); aa=$(median "${pa_v[@]}")
	b=$(median "${tp_v[@]}"); bs=$(median "${ts_v[@]}"); c=$(median "${tc_v[@]}")
	echo "  median: pktpath $a Mpps, testpmd $b Mpps (ratio $(ratio "$a" "$b"))"
	echo "  same pool order (both shuffled): testpmd $bs Mpps (ratio $(ratio "$a" "$bs")), with --record-core-cycles $c Mpps (ratio $(ratio "$a" "$c"))"
	echo "  pktpath --pool-order address $aa Mpps: ratio to testpmd $(ratio "$aa" "$b")"
	target "rx-only Mpps ratio pktpath/testpmd (net_null)" "$(ratio "$a" "$b")" ">=" 0.97
	target "rx-only ratio, same pool order, --record-core-cycles" "$(ratio "$a" "$c")" ">=" 0.97
	fm=$(median "${fl_v[@]}"); ftm=$(median "${ft_v[@]}")
	fsm=$(median "${fs_v[@]}"); fstm=$(median "${fst_v[@]}")
	echo "  median bare rx_burst + free_bulk loop, pool shuffled: $fsm Mpps, with one rdtsc per poll $fstm Mpps" \
		"(pktpath/bare+rdtsc $(ratio "$a" "$fstm"))"
	echo "  the same, pool in address order: $fm Mpps, with one rdtsc per poll $ftm Mpps" \
		"(pktpath --pool-order address/bare+rdtsc $(ratio "$aa" "$ftm"))"
	echo "  the bare loop on a packed pool (as on hugepages; --no-huge gives each mbuf its own 4 KiB page): $(median "${fp_v[@]}") Mpps"
fi

# --- 2. the full path on the generator: the variants table ----------------
if want matrix; then
	echo "== full path, --source gen: steady Mpps, ns/pkt, cycles/pkt (median of $ROUNDS rounds)"
	printf '  %-10s %-34s %9s %9s %10s\n' workers variant Mpps ns/pkt cyc/pkt
	variants=("default::" "alloc bulk::--alloc bulk" "prefetch off::--prefetch off"
		"mib-layout shared::--mib-layout shared" "fold field::--fold field"
		"peer shared::--peer on --peer-layout shared" "peer split::--peer on --peer-layout split")
	for workers in 1 2; do
		extra=""
		[ "$workers" = 2 ] && extra="--main-worker"
		for v in "${variants[@]}"; do
			label=${v%%::*}; args=${v#*::}
			m=(); n=(); c=()
			for r in $(seq "$ROUNDS"); do
				read -r x y z < <(pp "m${workers}_${label// /_}_$r" -- --duration "$SECS" \
					--warmup 1 $extra $args)
				m+=("$x"); n+=("$y"); c+=("$z")
			done
			printf '  %-10s %-34s %9s %9s %10s\n' "$workers" "$label" "$(median "${m[@]}")" \
				"$(median "${n[@]}")" "$(median "${c[@]}")"
		done
	done
fi

# --- 3. the stats thread must not slow the workers -------------------------
if want interval; then
	echo "== stats thread: --interval 0.1 vs --interval 10, alternated"
	f=(); s=()
	for r in $(seq "$ROUNDS"); do
		x=$(pp "i01_$r" -- --duration $((SECS + 1)) --warmup 1 --interval 0.1 | cut -d' ' -f1)
		# With --interval 10 the steady window is the whole run after warm-up.
		y=$(pp "i10_$r" -- --duration $((SECS + 1)) --warmup 0 --interval 10 | cut -d' ' -f1)
		f+=("$x"); s+=("$y")
		echo "  round $r: interval 0.1 s $x Mpps, interval 10 s $y Mpps"
	done
	a=$(median "${f[@]}"); b=$(median "${s[@]}")
	ratio=$(python3 -c "print('%.4f' % ($a / $b if $b else 0))")
	echo "  median ratio $ratio"
	target "Mpps ratio --interval 0.1 / --interval 10" "$ratio" ">=" 0.99
fi

for f in scripts/bench.d/*.sh; do
	[ -f "$f" ] || continue
	sec=$(basename "$f" .sh)
	want "$sec" || continue
	# shellcheck disable=SC1090
	. "$f"
done

echo
echo "== targets ($HUGE_MEM)"
cat "$RESULTS"
! grep -q MISS "$RESULTS"
