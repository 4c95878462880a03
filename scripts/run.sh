#!/usr/bin/env bash
# Install what is missing, build, and run the default experiment: the full
# IPv4 receive path on the built-in generator, no NIC needed. On hugepages
# when the machine has them free or, as root, can reserve them (given back
# at exit); else --no-huge, with one line saying why (scripts/hugepages.sh).
#   scripts/run.sh [pktpath options]     e.g. scripts/run.sh --duration 3 --fold field
# EAL options can be replaced with EAL="..."; PKTPATH_NO_HUGE=1 forces --no-huge.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
# shellcheck source=scripts/hugepages.sh
. scripts/hugepages.sh
if [ -z "${EAL:-}" ]; then
	huge_setup 512
	trap huge_release EXIT
	EAL="-l 0-1 $HUGE_EAL --no-shconf --no-pci --file-prefix pktpath-run-$$"
fi
if [ $# -eq 0 ]; then
	set -- --duration 5
fi
# shellcheck disable=SC2086
"${BUILD_DIR:-build}"/app/pktpath/pktpath $EAL -- "$@"
