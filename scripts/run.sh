#!/usr/bin/env bash
# Install what is missing, build, and run the default experiment: the full
# IPv4 receive path on the built-in generator, no NIC or hugepages needed.
#   scripts/run.sh [pktpath options]     e.g. scripts/run.sh --duration 3 --fold field
# EAL options can be replaced with EAL="...".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
EAL=${EAL:--l 0-1 --no-huge --no-shconf -m 512 --no-pci --file-prefix pktpath-run}
if [ $# -eq 0 ]; then
	set -- --duration 5
fi
# shellcheck disable=SC2086
exec build/app/pktpath/pktpath $EAL -- "$@"
