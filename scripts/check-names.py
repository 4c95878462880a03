#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""List internal helpers (functions and macros named __x) defined in more
than one file of the tree, so that every __name is unique: a grep for one
finds one definition (DESIGN.md: internal helpers start with `__`, and carry
their module or file concept when the short name is taken).

    scripts/check-names.py [ROOT]

Reads the .c and .h files git tracks under ROOT (all of them when ROOT
is not a git checkout) (default: the repository
this script is in). Prints one line per name defined in two or more files,
"NAME: FILE FILE...", and exits 1 if there is one; prints nothing and exits 0
otherwise. A definition is a `#define __x` or a function body `__x(...) {` at
file scope (comments, strings and preprocessor lines are skipped first);
declarations, calls and attribute macros (`__rte_*`, `__attribute__`) are not
definitions.
"""

import collections
import os
import re
import subprocess
import sys

ATTRIBUTES = re.compile(r"__(rte_|attribute__|aligned|packed|extension__|asm__|volatile__)")


def strip(text):
    """Comments, strings and character literals blanked (newlines kept)."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(?:\\.|[^'\\\n])*'", "''", text)


def definitions(text):
    """The __names a file defines: macros and file-scope function bodies."""
    text = strip(text)
    names = set(re.findall(r"^[ \t]*#[ \t]*define[ \t]+(__\w+)", text, re.M))
    body = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", text, flags=re.M)
    depth = 0
    for m in re.finditer(r"[{}]|\b(__\w+)\s*\(", body):
        tok = m.group(0)
        if tok == "{":
            depth += 1
            continue
        if tok == "}":
            depth -= 1
            continue
        name = m.group(1)
        if depth != 0 or ATTRIBUTES.match(name):
            continue
        # the matching ')', then attributes, then '{': a definition
        i, open_ = m.end(), 1
        while i < len(body) and open_:
            open_ += {"(": 1, ")": -1}.get(body[i], 0)
            i += 1
        if re.match(r"\s*(?:__\w+(?:\s*\([^)]*\))?\s*)*\{", body[i:i + 400]):
            names.add(name)
    return names


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        # the stage-0 entries only: during a merge, one path per file
        files = sorted(set(subprocess.run(
            ["git", "-C", root, "ls-files", "*.c", "*.h"],
            capture_output=True, text=True, check=True).stdout.split()))
    except (OSError, subprocess.CalledProcessError):
        # not a git checkout (an exported tree): every .c and .h under it
        files = sorted(os.path.relpath(os.path.join(d, f), root)
                       for d, _, fs in os.walk(root)
                       if "/build" not in d and "/." not in d
                       for f in fs if f.endswith((".c", ".h")))
    where = collections.defaultdict(list)
    for f in files:
        with open(os.path.join(root, f), errors="replace") as fh:
            for name in definitions(fh.read()):
                where[name].append(f)
    dups = {n: fs for n, fs in where.items() if len(fs) > 1}
    for name in sorted(dups):
        print("%s: %s" % (name, " ".join(sorted(dups[name]))))
    return 1 if dups else 0


if __name__ == "__main__":
    sys.exit(main())
