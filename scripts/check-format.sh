#!/usr/bin/env bash
# The lines a change touches follow the tree's style: .clang-format for C
# (git clang-format formats only the changed lines, never the whole file)
# and .editorconfig's whitespace rules for every file (git diff --check:
# no trailing blanks, no space before a tab in the indent, no blank line
# at the end of a file).
#
#   scripts/check-format.sh [BASE]   (default: HEAD's first parent: the last
#                                     change landed, a merge's whole branch)
#   scripts/check-format.sh --fix [BASE]   rewrite the changed C lines
#
# Exit status 0 when they do, 1 with the diff that would fix them, 2 when
# BASE is not a commit.
set -euo pipefail
cd "$(dirname "$0")/.."
fix=false
if [ "${1:-}" = --fix ]; then
	fix=true
	shift
fi
base=${1:-HEAD^}
git rev-parse -q --verify "$base^{commit}" > /dev/null ||
	{ echo "check-format: '$base' is not a commit" >&2; exit 2; }
command -v clang-format > /dev/null ||
	{ echo "check-format: clang-format is missing (scripts/setup.sh installs it)" >&2; exit 1; }

if $fix; then
	git clang-format --force --binary clang-format --extensions c,h "$base" -- app lib
	exit 0
fi
rc=0
out=$(git clang-format --binary clang-format --diff --extensions c,h "$base" -- app lib) || true
case $out in
"" | "no modified files to format" | "clang-format did not modify any files") ;;
*)
	echo "$out"
	echo "check-format: C lines changed since $base differ from .clang-format (scripts/check-format.sh --fix $base rewrites them)" >&2
	rc=1 ;;
esac
# Markdown keeps trailing blanks (a hard line break); everything else not.
if ! git diff --check "$base" -- . ':(exclude)*.md' ':(exclude)app/test/fuzz/corpus'; then
	echo "check-format: whitespace errors in lines changed since $base (.editorconfig)" >&2
	rc=1
fi
[ $rc -eq 0 ] && echo "check-format: the lines changed since $base follow .clang-format and .editorconfig"
exit $rc
