#!/usr/bin/env bash
# Build the libFuzzer harnesses (clang, -Dfuzz=true, into build-fuzz/) and run
# each for SECONDS (default 60) from its seed corpus in app/test/fuzz/corpus/.
#   scripts/fuzz.sh [SECONDS] [HARNESS...]
# Prints "fuzz NAME: ok (N runs)" or the crash file; exits 1 on any crash.
# A crash found becomes a regression input: copy it into the seed corpus.
set -uo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
shift || true
scripts/setup.sh
export CC=clang
BUILD_DIR=build-fuzz MESON_ARGS="-Dfuzz=true -Dtests=false" scripts/build.sh || exit 1
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for f in build-fuzz/app/test/fuzz/fuzz_*; do
		[ -f "$f" ] && [ -x "$f" ] && names+=("$(basename "$f")")
	done
fi
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
rc=0
for n in "${names[@]}"; do
	seed=app/test/fuzz/corpus/${n#fuzz_}
	work=build-fuzz/corpus/${n#fuzz_}
	crashes=build-fuzz/crashes/${n#fuzz_}
	mkdir -p "$work" "$crashes"
	log=build-fuzz/$n.log
	if build-fuzz/app/test/fuzz/$n -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$crashes/" -print_final_stats=1 "$work" "$seed" > "$log" 2>&1; then
		runs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
		echo "fuzz $n: ok (${runs:-?} runs in ${SECS}s)"
	else
		echo "fuzz $n: FAILED, see $log and $crashes/"
		grep -m5 -E 'ERROR|SUMMARY|runtime error' "$log"
		rc=1
	fi
done
exit $rc
