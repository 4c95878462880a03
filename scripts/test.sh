#!/usr/bin/env bash
# Install what is missing, build with -Werror, run the whole test suite (unit
# and integration), and print "N passed, N failed" as the last line.
#
#   scripts/test.sh               the normal build (build/)
#   scripts/test.sh --sanitize    AddressSanitizer + UBSan build (build-asan/)
#   scripts/test.sh --fuzz        every libFuzzer harness for FUZZ_SECS (default 20) s
#   scripts/test.sh --style       the lines changed since FORMAT_BASE (default
#                                 HEAD^: the last change landed) against
#                                 .clang-format and .editorconfig
#   scripts/test.sh --all         all four, one combined count (what CI runs)
# Further arguments go to `meson test` (e.g. a test name, --suite unit).
set -uo pipefail
cd "$(dirname "$0")/.."

modes=(normal)
case "${1:-}" in
--sanitize) modes=(sanitize); shift ;;
--fuzz) modes=(fuzz); shift ;;
--style) modes=(style); shift ;;
--all) modes=(style normal sanitize fuzz); shift ;;
esac

scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
skipped=0
for mode in "${modes[@]}"; do
	if [ "$mode" = style ]; then
		echo "== style (scripts/check-format.sh ${FORMAT_BASE:-HEAD^})"
		# a clone with one commit has no HEAD^: nothing landed to check
		if [ -z "${FORMAT_BASE:-}" ] && ! git rev-parse -q --verify 'HEAD^' > /dev/null; then
			echo "style: no parent commit, nothing to check"
			continue
		fi
		if scripts/check-format.sh ${FORMAT_BASE:-HEAD^}; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
		fi
		continue
	fi
	if [ "$mode" = fuzz ]; then
		echo "== fuzz (build-fuzz, ${FUZZ_SECS:-20} s per harness)"
		scripts/fuzz.sh "${FUZZ_SECS:-20}" > build-fuzz.log 2>&1
		cat build-fuzz.log
		p=$(grep -c '^fuzz .*: ok' build-fuzz.log)
		f=$(grep -c '^fuzz .*: FAILED' build-fuzz.log)
		if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
			f=1	# the fuzz build itself failed
		fi
		echo "fuzz: $p passed, $f failed"
		passed=$((passed + p))
		failed=$((failed + f))
		continue
	fi
	if [ "$mode" = sanitize ]; then
		export BUILD_DIR=build-asan
		# gcc 12's sanitizer instrumentation makes two warnings misfire: a
		# false -Wstringop-overflow on __atomic_store_n to a struct member,
		# and -Woverride-init-side-effects on designated initializers whose
		# overridden constant became a UBSan-checked shift. Those two are
		# warnings, not errors, in this build only.
		MESON_ARGS="-Dwerror=true -Dtests=true -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized"
		MESON_ARGS="$MESON_ARGS -Dc_args=['-Wno-error=stringop-overflow','-Wno-error=override-init-side-effects']"
		# A sanitizer report fails the test that provoked it. Leaks are
		# reported at exit (LeakSanitizer), suppressions listed in the file.
		export ASAN_OPTIONS="abort_on_error=0:halt_on_error=1:detect_leaks=1:exitcode=86"
		export LSAN_OPTIONS="suppressions=$PWD/config/lsan.supp:print_suppressions=0"
		export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=87"
		export PKTPATH_SANITIZED=1
	else
		export BUILD_DIR=build
		MESON_ARGS="-Dwerror=true -Dtests=true"
		unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS PKTPATH_SANITIZED
	fi
	echo "== $mode build ($BUILD_DIR)"
	if ! MESON_ARGS="$MESON_ARGS" scripts/build.sh; then
		failed=$((failed + 1))
		continue
	fi
	meson test -C "$BUILD_DIR" --print-errorlogs --num-processes 1 "$@"
	read -r p f k < <(python3 - "$BUILD_DIR/meson-logs/testlog.json" "$mode" <<'PY'
import json, sys
passed = failed = skipped = 0
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    r = json.loads(line)
    if r.get("result") in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif r.get("result") == "SKIP":
        skipped += 1
    else:
        failed += 1
        print("failed (%s): %s (%s)" % (sys.argv[2], r.get("name"), r.get("result")), file=sys.stderr)
print(passed, failed, skipped)
PY
	)
	echo "$mode: $p passed, $f failed, $k skipped"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + k))
done
if [ $((passed + failed)) -eq 0 ]; then
	failed=1
fi
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
