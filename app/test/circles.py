#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Two files of one library do not use each other in a circle (DESIGN.md:
what two files share goes below both).

For every library (each folder of lib/ in the source tree: its static
library lib/NAME/libpktpath_NAME.a in the build tree must exist), `nm -A`
lists the symbols each object defines and those it leaves undefined; file A
uses file B when A leaves undefined a global symbol B defines -- a function
or a variable (a log type, a table): both tie A to B. A strongly connected
component of that graph with more than one file is a circle: the test
prints its files and one cycle through them, each step with the symbol
that makes it, and fails. There is no list of allowed circles: the last
ones (issue 22) are gone.

  circles.py BUILD_DIR SOURCE_DIR    exit 0 when no library has a circle,
                                     1 otherwise.
The nm run is $NM, or nm.
"""
import collections
import os
import subprocess
import sys


def symbols(nm, archive):
    """{object: set of defined globals}, {object: set of undefined}."""
    out = subprocess.run([nm, "-A", archive], capture_output=True, text=True,
                         check=True).stdout
    defined = collections.defaultdict(set)
    undefined = collections.defaultdict(set)
    for line in out.splitlines():
        # ARCHIVE:MEMBER:[ADDRESS] TYPE NAME
        where, _, rest = line.rpartition(":")
        member = os.path.basename(where.split(":")[-1])
        fields = rest.split()
        if len(fields) < 2:
            continue
        typ, name = fields[-2], fields[-1]
        src = member[:-2] if member.endswith(".o") else member
        if typ == "U":
            undefined[src].add(name)
        elif typ.isupper():		# lower case: local to its object
            defined[src].add(name)
    return defined, undefined


def graph(defined, undefined):
    """{A: {B: symbol}}: A uses B (one of the symbols, the first by name)."""
    owner = {}
    for obj, names in defined.items():
        for n in names:
            owner.setdefault(n, obj)
    g = collections.defaultdict(dict)
    for obj, names in undefined.items():
        for n in sorted(names):
            b = owner.get(n)
            if b is not None and b != obj:
                g[obj].setdefault(b, n)
    return g


def components(nodes, g):
    """Tarjan's strongly connected components with more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def cycle(comp, g):
    """One cycle through the component's first file, as text."""
    start = min(comp)
    prev = {start: None}
    queue = collections.deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(g.get(v, {})):
            if w not in comp:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                path.reverse()
                steps = [f"{a} -> {b} ({g[a][b]})"
                         for a, b in zip(path, path[1:] + [start])]
                return "; ".join(steps)
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return "?"


def main():
    build, source = sys.argv[1], sys.argv[2]
    nm = os.environ.get("NM", "nm")
    libs = sorted(d for d in os.listdir(os.path.join(source, "lib"))
                  if os.path.isfile(os.path.join(source, "lib", d, "meson.build")))
    failed = 0
    for lib in libs:
        archive = os.path.join(build, "lib", lib, f"libpktpath_{lib}.a")
        if not os.path.isfile(archive):
            print(f"FAIL lib/{lib}: no {archive}")
            failed += 1
            continue
        defined, undefined = symbols(nm, archive)
        g = graph(defined, undefined)
        found = components(set(defined) | set(undefined), g)
        for comp in found:
            names = ", ".join(sorted(comp))
            print(f"FAIL lib/{lib}: files that use each other in a circle: {{{names}}}: "
                  f"{cycle(comp, g)}")
            failed += 1
        if not found:
            print(f"ok   lib/{lib}: {len(defined)} files, no circle")
    print(f"{len(libs)} libraries, {failed} failed")
    return 1 if failed or not libs else 0


if __name__ == "__main__":
    sys.exit(main())
