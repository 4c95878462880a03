#!/usr/bin/env bash
# config/default.ini and app/pktpath/README.md's options table are made from pktpath's
# option table (app/pktpath/options_table.c) by `pktpath -- --help-ini` and
# `pktpath -- --help-markdown`. This script writes them again, or with
# --check fails, showing the difference, unless both are what pktpath prints
# (integration/options.sh runs it so).
#
#   scripts/options-doc.sh [--check] [PKTPATH]    (default build/app/pktpath/pktpath)
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
if [ "${1:-}" = --check ]; then
	check=true
	shift
fi
bin=${1:-build/app/pktpath/pktpath}
begin='<!-- options table: written by scripts/options-doc.sh from `pktpath -- --help-markdown`; edit app/pktpath/options_table.c, not this table -->'
end='<!-- end of the options table -->'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" -- --help-ini > "$tmp/default.ini"
"$bin" -- --help-markdown > "$tmp/table.md"
grep -qxF -- "$begin" app/pktpath/README.md && grep -qxF -- "$end" app/pktpath/README.md ||
	{ echo "options-doc: app/pktpath/README.md lacks the options table's marker lines" >&2; exit 1; }
# app/pktpath/README.md with the lines between the markers replaced by the table
awk -v b="$begin" -v e="$end" -v t="$tmp/table.md" '
	$0 == b { print; while ((getline l < t) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip { print }' app/pktpath/README.md > "$tmp/README.md"

if $check; then
	rc=0
	diff -u config/default.ini "$tmp/default.ini" ||
		{ echo "options-doc: config/default.ini differs from pktpath -- --help-ini (scripts/options-doc.sh rewrites it)" >&2; rc=1; }
	diff -u app/pktpath/README.md "$tmp/README.md" ||
		{ echo "options-doc: app/pktpath/README.md's options table differs from pktpath -- --help-markdown (scripts/options-doc.sh rewrites it)" >&2; rc=1; }
	exit $rc
fi
cp "$tmp/default.ini" config/default.ini
cp "$tmp/README.md" app/pktpath/README.md
echo "options-doc: config/default.ini and app/pktpath/README.md's options table written from $bin"
