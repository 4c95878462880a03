#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The build enforces the layers: app -> export -> stats -> ingress -> path
-> pkt -> mib, with lib/bpf beside lib/path (below lib/ingress; it may use
lib/pkt and lib/mib, not lib/path), lib/slab beside lib/mib (below
lib/pkt, using neither), lib/bench and lib/host apart, lib/base below all
of them (lib/bench too).

For every library, one of its sources' compile commands (from the build's
compile_commands.json) compiles a scratch file holding one #include of
each library's public header, and of the application's headers: a header
of a library it may not use (above it, beside it, lib/bench or lib/host,
the application; for lib/bench and lib/host any other library's but
lib/base; for lib/base any other) must fail with "No such file", its own
and lib/base's must compile; the application reaches every library but
lib/bench. The
scratch file sits outside the source tree, so only the
include path the build gives the library counts.

  layers.py BUILD_DIR     exit 0 when every case holds, 1 otherwise.
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

# What each library uses directly; it may use those and what they may use.
LAYERS = {
    "mib": [],
    "slab": [],
    "pkt": ["mib", "slab"],
    "path": ["pkt"],
    "bpf": ["pkt"],
    "ingress": ["bpf", "path"],
    "stats": ["ingress"],
    "export": ["stats"],
}
BASE = "base"  # below every library, lib/bench included
APART = ["bench", "host"]  # beside the layers: only the applications use them
# lib/bpf's header is pktbpf.h: <bpf/bpf.h> is libbpf's (lib/bpf/README.md).
HEADERS = {lib: lib + ".h" for lib in [BASE] + list(LAYERS) + APART}
HEADERS["bpf"] = "pktbpf.h"
APP_HEADERS = ["app.h", "options.h"]


def below(lib):
    """The libraries lib may use (lib/base aside)."""
    out = set()
    for d in LAYERS[lib]:
        out |= {d} | below(d)
    return out


def allowed(lib, hdr_lib):
    """None: the design allows it (the library may or may not use it);
    False: forbidden; True: must compile (its own header, lib/base's)."""
    if hdr_lib == lib:
        return True
    if lib == BASE:
        return False
    if hdr_lib == BASE:
        return True
    if lib in APART or hdr_lib in APART:
        return False
    return None if hdr_lib in below(lib) else False


def command_for(entries, folder):
    for e in entries:
        if f"/{folder}/" in "/" + os.path.normpath(e["file"]).replace(os.sep, "/"):
            return e
    return None


def try_compile(entry, header, tmp):
    src = os.path.join(tmp, "scratch.c")
    with open(src, "w") as f:
        f.write(f'#include "{header}"\nint scratch_unused;\n')
    argv = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out = []
    skip = False
    for i, a in enumerate(argv):
        if skip:
            skip = False
            continue
        if a in ("-o", "-MQ", "-MF", "-c"):
            skip = True
            continue
        if a in ("-MD",) or a == entry["file"]:
            continue
        out.append(a)
    out += ["-fsyntax-only", src]
    r = subprocess.run(out, cwd=entry["directory"], capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def main():
    build = sys.argv[1]
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    failed = checked = 0
    with tempfile.TemporaryDirectory(prefix="export-layers-") as tmp:
        for lib in [BASE] + list(LAYERS) + APART + ["app"]:
            folder = "app/pktpath" if lib == "app" else "lib/" + lib
            e = command_for(entries, folder)
            if e is None:
                print(f"FAIL {folder}: no compile command in compile_commands.json")
                failed += 1
                continue
            if lib == "app":	# everything but lib/bench
                cases = [(h, hl != "bench") for hl, h in HEADERS.items()]
                cases += [(h, True) for h in APP_HEADERS]
            else:
                cases = [(h, allowed(lib, hl)) for hl, h in HEADERS.items()]
                cases += [(h, False) for h in APP_HEADERS]
            for header, want in cases:
                if want is None:
                    continue
                ok, err = try_compile(e, header, tmp)
                checked += 1
                if want and not ok:
                    print(f"FAIL {folder}: {header} does not compile:\n{err}")
                    failed += 1
                elif not want and ok:
                    print(f"FAIL {folder} can #include \"{header}\": against the layers")
                    failed += 1
                elif not want and "No such file" not in err:
                    print(f"FAIL {folder}: #include \"{header}\" fails, not for the "
                          f"include path:\n{err}")
                    failed += 1
                else:
                    print(f"ok   {folder}: #include \"{header}\" "
                          f"{'compiles' if want else 'refused'}")
    print(f"{checked} cases, {failed} failed")
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
