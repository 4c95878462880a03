#!/usr/bin/env bash
# Configure build/ if needed and build. Used by run.sh, test.sh, bench.sh.
# BUILD_DIR and MESON_ARGS may be set by the caller.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
	meson setup "$BUILD_DIR" ${MESON_ARGS:-} >"$BUILD_DIR.setup.log" 2>&1 ||
		{ cat "$BUILD_DIR.setup.log" >&2; exit 1; }
	rm -f "$BUILD_DIR.setup.log"
elif [ -n "${MESON_ARGS:-}" ]; then
	meson configure "$BUILD_DIR" ${MESON_ARGS} >/dev/null
fi
ninja -C "$BUILD_DIR" >"$BUILD_DIR.ninja.log" 2>&1 ||
	{ cat "$BUILD_DIR.ninja.log" >&2; exit 1; }
rm -f "$BUILD_DIR.ninja.log"
