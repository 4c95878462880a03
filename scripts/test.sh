#!/usr/bin/env bash
# Install what is missing, build with -Werror, run the whole test suite (unit
# and integration), and print "N passed, N failed" as the last line.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh || exit 1
export BUILD_DIR=${BUILD_DIR:-build}
MESON_ARGS="-Dwerror=true -Dtests=true" scripts/build.sh || { echo "0 passed, 1 failed"; exit 1; }
meson test -C "$BUILD_DIR" --print-errorlogs --num-processes 1 "$@"
python3 - "$BUILD_DIR/meson-logs/testlog.json" <<'PY'
import json, sys
passed = failed = skipped = 0
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    r = json.loads(line)
    res = r.get("result")
    if res in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif res == "SKIP":
        skipped += 1
    else:
        failed += 1
        print("failed: %s (%s)" % (r.get("name"), res))
if passed + failed == 0:
    failed = 1
print("%d passed, %d failed%s" % (passed, failed,
      ", %d skipped" % skipped if skipped else ""))
sys.exit(1 if failed else 0)
PY
