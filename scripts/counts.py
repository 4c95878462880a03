#!/usr/bin/env python3
"""Deterministic evidence on any machine: valgrind's counts of pktpath's code.

  scripts/counts.py cachesim [--geometry sysfs|skylake-sp|milan] [--json FILE]
                             [--fold-lcores "2 16 64 160 256"] [--folds N]
                             [--peers "256 4096"] [--lookups N] [--secs S]
                             [--devdump "1000x160"]
                             [fold] [devdump] [peer] [path] [stages]
  scripts/counts.py instructions [--json FILE] [--secs S] [VARIANT ...]
  scripts/counts.py budget [--table FILE] [--secs S] [--json FILE] [VARIANT ...]
  scripts/counts.py geometry [--geometry NAME]

cachesim: valgrind's cache simulator (callgrind --cache-sim=yes: the model of
cachegrind, its D1/LL/I1 geometry given on the command line) over
  fold  pktpath-cachesim's fold of LCORES page-aligned MIB blocks of every
        field, field- against lcore-major: loads, D1 misses and their rate,
        LL misses and instructions per fold, the first fold after set-up
        and each later one (the snmp_fold_field thread's L1-miss table);
  devdump  pktpath-cachesim's link dump of DEVICES devices' per-device IPv6
        MIBs on LCORES lcores (lib/mib mib_dev.h), field- against
        lcore-major: per dump (the first after set-up and the next), loads,
        D1 and LL misses (the docker thread's dump at 1000 x 160);
  peer  the inetpeer stage of PEERS peers, shared against split, one thread:
        per lookup;
  path  pktpath itself (--no-huge, 1 worker, the generator, S seconds): the
        worker thread's (app_worker_main, inclusive) per packet, the default
        path and the variants a simulator can speak of (prefetch, bulk
        allocation, the peer layouts), then per stage (below);
  stages  per stage only: the default path's run and pktpath-stages'.
Each part runs alone in its own function, so a profile collected inside it
alone (--toggle-collect) is its cost. What a simulator cannot show is said
in the table: coherence misses (one thread at a time, no other core),
hardware prefetch and what a prefetch instruction hides (latency: the same
lines miss either way), timing of any kind.

instructions: callgrind without cache simulation, instructions per packet
of the worker's thread for pktpath's loop variants (default, --stage-cycles,
--perf-detail, --pmu ..., the ingress guards, rx-only, the IPv6 and mixed
families), the figures the performance notes made by hand.

budget: the instruction budget (issue 22). The same runs as instructions
for the variants a checked-in table lists (scripts/counts-budget.txt: a
figure per variant and one margin), each against its figure plus the
margin: a variant over it fails the run (exit 1). The table is for one kind
of build (its `build` line: buildtype, compiler, the compiler's and
DPDK's versions; not sanitized, not -Dnative, no c_args of its own), which
the build directory must match (exit 2 otherwise): another optimisation
level, compiler, compiler version or DPDK is other code.

Per stage (both, for the default path): pktpath-stages, the build of
pktpath whose burst stages are functions of their own (-Dstage_functions,
worker.c's STAGE()), run the same way; each stage's inclusive cost (its
functions and what they call) per packet, the rest of the loop (the poll's
bookkeeping, the calls) as one row, and the whole, which the rows add up
to, beside pktpath's own whole (what making the stages functions costs).

The geometry: by default this machine's, from /sys/devices/system/cpu/cpu0/
cache (the level-1 data and instruction caches, the last level as LL); a
cache whose set count is not a power of two (which the simulator requires)
is simulated with the largest power-of-two set count below it, and said so.
Exit status: 0, 1 when a run failed (or a variant went over its budget),
2 on a usage error.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVENTS = ["Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"]

# Named server geometries: (size, ways, line) of D1, LL, I1, and what the LL
# stands for.
GEOMETRIES = {
    "skylake-sp": {"D1": (32768, 8, 64), "LL": (1 << 20, 16, 64), "I1": (32768, 8, 64),
                   "what": "Intel Xeon Skylake-SP: L1d 32 KiB 8-way; LL stands for "
                           "the core's L2, 1 MiB 16-way (its L3, 1.375 MiB a core "
                           "11-way, has no power-of-two set count)"},
    "milan": {"D1": (32768, 8, 64), "LL": (32 << 20, 16, 64), "I1": (32768, 8, 64),
              "what": "AMD EPYC Milan (Zen 3): L1d 32 KiB 8-way; LL one CCD's "
                      "L3, 32 MiB 16-way"},
}


def die(msg, code=1):
    print("counts: " + msg, file=sys.stderr)
    sys.exit(code)


def kib(n):
    return "%d MiB" % (n >> 20) if n >= 1 << 20 and n % (1 << 20) == 0 else "%d KiB" % (n >> 10)


def size_of(text):
    m = re.fullmatch(r"(\d+)([KMG]?)", text.strip())
    if not m:
        return None
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]


def pow2_fit(size, ways, line):
    """(size, note): the largest size with a power-of-two set count."""
    sets = size // (ways * line)
    p = 1
    while p * 2 <= sets:
        p *= 2
    if p == sets and size == sets * ways * line:
        return size, ""
    fit = p * ways * line
    return fit, " (%s has %d sets, not a power of two: simulated as %s)" % (
        kib(size), sets, kib(fit))


def geometry(name, root="/"):
    """The simulated caches: {"name", "desc", "args", "D1", "LL", "I1"}."""
    if name in GEOMETRIES:
        g = GEOMETRIES[name]
        desc = "%s: D1 %s %d-way %d B, LL %s %d-way %d B, I1 %s %d-way %d B" % (
            g["what"], kib(g["D1"][0]), g["D1"][1], g["D1"][2], kib(g["LL"][0]),
            g["LL"][1], g["LL"][2], kib(g["I1"][0]), g["I1"][1], g["I1"][2])
        caches = {k: g[k] for k in ("D1", "LL", "I1")}
    elif name == "sysfs":
        base = os.path.join(root, "sys/devices/system/cpu/cpu0/cache")
        found, ll_level = {}, 0
        try:
            idx = sorted(d for d in os.listdir(base) if d.startswith("index"))
        except OSError:
            idx = []
        for d in idx:
            def rd(f):
                with open(os.path.join(base, d, f)) as fh:
                    return fh.read().strip()
            try:
                lvl, typ = int(rd("level")), rd("type")
                size, ways, line = size_of(rd("size")), int(rd("ways_of_associativity")), \
                    int(rd("coherency_line_size"))
            except (OSError, ValueError):
                continue
            if size is None or ways <= 0 or line <= 0:
                continue
            if lvl == 1 and typ == "Data":
                found["D1"] = (size, ways, line, "L1d")
            elif lvl == 1 and typ == "Instruction":
                found["I1"] = (size, ways, line, "L1i")
            elif typ in ("Unified", "Data") and lvl >= 2 and lvl > ll_level:
                found["LL"] = (size, ways, line, "L%d" % lvl)
                ll_level = lvl
        missing = [k for k in ("D1", "LL", "I1") if k not in found]
        if missing:
            die("geometry sysfs: %s has no %s (give --geometry %s)" % (
                base, " or ".join(missing), "|".join(GEOMETRIES)), 2)
        caches, notes = {}, []
        for k in ("D1", "LL", "I1"):
            size, ways, line, lvl = found[k]
            fit, note = pow2_fit(size, ways, line)
            caches[k] = (fit, ways, line)
            notes.append("%s %s %d-way %d B (%s)%s" % (k, kib(size), ways, line, lvl, note))
        desc = "this machine's (sysfs cpu0): " + ", ".join(notes)
    else:
        die("--geometry %s: not sysfs, %s" % (name, ", ".join(GEOMETRIES)), 2)
    args = ["--%s=%d,%d,%d" % (k, *caches[k]) for k in ("D1", "LL", "I1")]
    return {"name": name, "desc": desc, "args": args,
            **{k: {"size": caches[k][0], "ways": caches[k][1], "line": caches[k][2]}
               for k in caches}}


def valgrind_version():
    try:
        return subprocess.run(["valgrind", "--version"], capture_output=True,
                              text=True).stdout.strip()
    except OSError:
        die("no valgrind: run scripts/setup.sh")


def callgrind(out, toggle, cmd, cache=None, log=None):
    """Run cmd under callgrind collecting inside function toggle only; its
    totals as {event: count} (0 for an event the file leaves out)."""
    vg = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
          "--toggle-collect=" + toggle]
    if cache is not None:
        vg += ["--cache-sim=yes"] + cache["args"]
    r = subprocess.run(vg + cmd, capture_output=True, text=True)
    if log is not None:
        with open(log, "w") as f:
            f.write(r.stdout + r.stderr)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd[:3]), r.returncode,
                                                (r.stdout + r.stderr)[-600:]))
    events, totals = None, None
    with open(out) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("totals:") or (line.startswith("summary:") and totals is None):
                totals = [int(x) for x in line.split()[1:]]
    if events is None or totals is None:
        raise RuntimeError("%s: no totals" % out)
    totals += [0] * (len(events) - len(totals))
    return dict(zip(events, totals)), r.stdout


# ---- cachesim ------------------------------------------------------------------

def per(c, n):
    return {k: (v / n if n else 0.0) for k, v in c.items()}


def fold_table(build, cache, tmp, lcores, folds):
    exe = os.path.join(build, "app/pktpath-bench/pktpath-cachesim")
    rows = []
    for n in lcores:
        for strategy in ("field", "lcore"):
            res = {}
            for part, fn in (("first", "cs_fold_first"), ("next", "cs_fold_next")):
                c, _ = callgrind(os.path.join(tmp, "fold_%s_%d_%s.cg" % (strategy, n, part)),
                                 fn, [exe, "fold", strategy, str(n), str(folds)], cache)
                res[part] = per(c, 1 if part == "first" else folds)
            nx = res["next"]
            rows.append({"lcores": n, "fold": strategy, "first": res["first"], "next": nx,
                         "loads": nx["Dr"], "d1_misses_first": res["first"]["D1mr"],
                         "d1_misses": nx["D1mr"],
                         "d1_miss_rate": nx["D1mr"] / nx["Dr"] if nx["Dr"] else 0.0,
                         "ll_misses": nx["DLmr"], "instructions": nx["Ir"]})
    return rows


def print_fold(rows, folds):
    print("-- fold: mib_fold_part() over LCORES page-aligned blocks of every field, as "
          "pktpath's stats thread folds with 1 worker and --mib-lcores LCORES; per fold: "
          "the first after set-up, and each of the %d after it" % folds)
    print("| lcores | fold | loads | D1 misses, first | D1 misses | D1 miss rate "
          "| LL misses | instructions | D1 misses field/lcore |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    by = {(r["lcores"], r["fold"]): r for r in rows}
    for r in rows:
        other = by.get((r["lcores"], "lcore"))
        ratio = ""
        if r["fold"] == "field" and other is not None:
            ratio = "%.2fx" % (r["d1_misses"] / other["d1_misses"]) if other["d1_misses"] \
                else ("none" if r["d1_misses"] == 0 else "inf")
        print("| %d | %s | %.0f | %.0f | %.0f | %.2f%% | %.0f | %.0f | %s |" % (
            r["lcores"], r["fold"], r["loads"], r["d1_misses_first"], r["d1_misses"],
            100 * r["d1_miss_rate"], r["ll_misses"], r["instructions"], ratio))
    print("  not shown by a simulator: the misses a worker's writes cause the reader "
          "(coherence: the simulator runs one thread at a time, with no other core), "
          "hardware prefetch, time")


def devdump_table(build, cache, tmp, sizes):
    exe = os.path.join(build, "app/pktpath-bench/pktpath-cachesim")
    rows = []
    for devs, lcores in sizes:
        for strategy in ("field", "lcore"):
            res = {}
            for part, fn in (("first", "cs_dump_first"), ("next", "cs_dump_next")):
                c, _ = callgrind(os.path.join(tmp, "dump_%s_%d_%d_%s.cg" % (
                    strategy, devs, lcores, part)), fn,
                    [exe, "devdump", strategy, str(devs), str(lcores)], cache)
                res[part] = c
            nx = res["next"]
            rows.append({"devices": devs, "lcores": lcores, "fold": strategy,
                         "loads": nx["Dr"], "d1_misses_first": res["first"]["D1mr"],
                         "d1_misses": nx["D1mr"], "ll_misses": nx["DLmr"],
                         "instructions": nx["Ir"]})
    return rows


def print_devdump(rows):
    print("-- devdump: mib_dev_dump() of DEVICES devices' per-device IPv6 MIBs on LCORES "
          "lcores (per device: 33 Ip6 counters per lcore, 6 Icmp6 ones), per dump: the "
          "first after set-up, and the next")
    print("| devices | lcores | fold | loads | D1 misses, first | D1 misses | D1 miss rate "
          "| LL misses | instructions | D1 misses field/lcore |")
    print("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    by = {(r["devices"], r["lcores"], r["fold"]): r for r in rows}
    for r in rows:
        other = by.get((r["devices"], r["lcores"], "lcore"))
        ratio = ""
        if r["fold"] == "field" and other is not None:
            ratio = "%.2fx" % (r["d1_misses"] / other["d1_misses"]) if other["d1_misses"] \
                else ("none" if r["d1_misses"] == 0 else "inf")
        print("| %d | %d | %s | %d | %d | %d | %.2f%% | %d | %d | %s |" % (
            r["devices"], r["lcores"], r["fold"], r["loads"], r["d1_misses_first"],
            r["d1_misses"], 100.0 * r["d1_misses"] / r["loads"] if r["loads"] else 0,
            r["ll_misses"], r["instructions"], ratio))


def peer_table(build, cache, tmp, peers, lookups):
    exe = os.path.join(build, "app/pktpath-bench/pktpath-cachesim")
    rows = []
    for n in peers:
        for layout in ("shared", "split"):
            c, _ = callgrind(os.path.join(tmp, "peer_%s_%d.cg" % (layout, n)), "cs_peer_next",
                             [exe, "peer", layout, str(n), str(lookups)], cache)
            p = per(c, lookups)
            rows.append({"peers": n, "layout": layout, "per_lookup": p})
    return rows


def print_peer(rows, lookups):
    print("-- peer: the inetpeer stage, one thread, per lookup (lookup, get, touch, put; "
          "%d lookups in a scattered order after one of each peer)" % lookups)
    print("| peers | layout | instructions | loads | stores | D1 misses | LL misses "
          "| not shown by a simulator |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        p = r["per_lookup"]
        print("| %d | %s | %.2f | %.2f | %.2f | %.3f | %.3f | %s |" % (
            r["peers"], r["layout"], p["Ir"], p["Dr"], p["Dw"], p["D1mr"] + p["D1mw"],
            p["DLmr"] + p["DLmw"],
            "false sharing: the other lcores' writes to the key's line (what split "
            "removes)" if r["layout"] == "shared" else
            "what the split saves other lcores; here only its larger footprint"))


PATH_VARIANTS = [
    ("default", []),
    ("--prefetch off", ["--prefetch", "off"]),
    ("--alloc bulk", ["--alloc", "bulk"]),
    ("--alloc bulk --prefetch off", ["--alloc", "bulk", "--prefetch", "off"]),
    ("--peer on --peer-layout shared", ["--peer", "on", "--peer-layout", "shared"]),
    ("--peer on --peer-layout split", ["--peer", "on", "--peer-layout", "split"]),
]


def pktpath_run(build, tmp, name, args, secs, cache=None, exe="pktpath", out=None, eal=()):
    """pktpath (or exe) under callgrind, collected in its worker; (per packet,
    packets); its profile in out. eal: EAL arguments beyond the usual ones
    (a --vdev)."""
    out = out or os.path.join(tmp, name + ".cg")
    js = os.path.join(tmp, name + ".json")
    cmd = [os.path.join(build, "app/pktpath", exe), "-l", "0-1", "--no-huge",
           "--no-shconf", "-m", "512", "--no-pci", "--file-prefix",
           "counts_%s_%d" % (re.sub(r"[^a-z0-9]", "_", name), os.getpid()),
           "--log-level=lib.eal:error"] + list(eal) + [
               "--", "--duration", str(secs), "--warmup", "0", "--quiet", "--http", "off",
               "--json", js] + args
    c, _ = callgrind(out, "app_worker_main", cmd, cache, log=os.path.join(tmp, name + ".log"))
    with open(js) as f:
        pk = json.load(f)["mib"]["Rx"]["RxPackets"]
    if pk == 0:
        raise RuntimeError("%s: no packets" % name)
    return per(c, pk), pk


def path_table(build, cache, tmp, secs):
    rows = []
    for label, args in PATH_VARIANTS:
        p, pk = pktpath_run(build, tmp, "path_" + label, args, secs, cache)
        rows.append({"variant": label, "packets": pk, "per_pkt": p})
    return rows


def print_path(rows, secs):
    print("-- path: pktpath --no-huge (each mbuf its own 4 KiB page), 1 worker, the "
          "generator, %g s; the worker's thread (app_worker_main, inclusive) per packet"
          % secs)
    print("| variant | instructions | loads | stores | D1 misses | LL misses | packets "
          "| not shown by a simulator |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        p = r["per_pkt"]
        note = "false sharing between lcores (one thread here)" \
            if "peer" in r["variant"] else ""
        print("| `%s` | %.2f | %.2f | %.2f | %.3f | %.4f | %d | %s |" % (
            r["variant"], p["Ir"], p["Dr"], p["Dw"], p["D1mr"] + p["D1mw"],
            p["DLmr"] + p["DLmw"], r["packets"], note))
    print("  not shown by a simulator: what a prefetch hides (latency: a prefetched "
          "line misses all the same, and valgrind counts the prefetch as a load), "
          "hardware prefetch, coherence between cores, time")


# ---- per stage -----------------------------------------------------------------

# The burst's stages in their order (worker.c's STAGE() names, the Stage
# group's); the default path runs rx, l2, ip and free.
STAGES = ["rx", "l2", "ingress", "ip", "peer", "capture", "free"]
# The rows (stages and the rest) must add up to the whole: they do by
# construction (the rest is the whole less the stages), so what is checked
# is that no stage is counted twice or missed: the rest, the poll's
# bookkeeping and the stage calls, stays under this share of the whole.
STAGE_REST_MAX = 0.10


def stage_of(fn):
    """The stage a function of pktpath-stages belongs to (stage_l2.1,
    stage_l2.1.constprop.0, stage_rx.0.cold...), or None."""
    m = re.match(r"stage_([a-z0-9]+)\.", fn or "")
    return m.group(1) if m and m.group(1) in STAGES else None


def stage_costs(path, events):
    """Each stage's inclusive cost in a callgrind profile: its functions'
    own costs and their calls' to functions of no stage or another one (a
    function's .cold part is its own stage's, counted once)."""
    names, fn, cfn, in_call, cost = {}, None, None, False, {}
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?$", line)
        if m:
            if m.group(3):
                names[m.group(2)] = m.group(3)
            if m.group(1) == "fn":
                fn = names.get(m.group(2))
            else:
                cfn = names.get(m.group(2))
            continue
        if line.startswith("calls="):
            in_call = True  # the next cost line is the call's, inclusive
            continue
        if not line or line[0] not in "+-*0123456789":
            continue
        st, callee, in_call = stage_of(fn), (cfn if in_call else None), False
        if st is None or (callee is not None and stage_of(callee) == st):
            continue
        c = cost.setdefault(st, [0] * len(events))
        for i, v in enumerate(int(x) for x in line.split()[1:len(events) + 1]):
            c[i] += v
    return {st: dict(zip(events, c)) for st, c in cost.items()}


def stage_table(build, tmp, secs, whole_pktpath, cache=None):
    """pktpath-stages' default run: per packet, each stage, the rest, the
    whole; and pktpath's whole (whole_pktpath, Ir/pkt) beside."""
    exe = os.path.join(build, "app/pktpath/pktpath-stages")
    if not os.access(exe, os.X_OK):
        die("no %s: per stage needs pktpath-stages (meson -Dstage_functions=enabled, "
            "gcc)" % exe)
    out = os.path.join(tmp, "stages.cg")
    whole, pk = pktpath_run(build, tmp, "stages", [], secs, cache, exe="pktpath-stages",
                            out=out)
    with open(out) as f:
        events = next(ln.split()[1:] for ln in f if ln.startswith("events:"))
    costs = stage_costs(out, events)
    rows = []
    for st in STAGES:
        if st in costs:
            rows.append({"stage": st, "per_pkt": per(costs[st], pk)})
    rest = {k: whole[k] - sum(r["per_pkt"].get(k, 0) for r in rows) for k in whole}
    return {"packets": pk, "stages": rows, "rest": rest, "whole": whole,
            "whole_pktpath_ir": whole_pktpath, "rest_max": STAGE_REST_MAX}


def print_stages(t, secs):
    cache = "D1mr" in t["whole"]
    print("-- per stage: pktpath-stages (each stage a function: -Dstage_functions), "
          "the default path, %g s, %d packets; per packet, inclusive" % (secs, t["packets"]))
    print("| stage | instructions | share |%s" % (
        " loads | D1 misses | LL misses |" if cache else ""))
    print("| --- | ---: | ---: |%s" % (" ---: | ---: | ---: |" if cache else ""))
    w = t["whole"]["Ir"]

    def row(name, p):
        line = "| %s | %.2f | %.1f%% |" % (name, p["Ir"], 100 * p["Ir"] / w if w else 0)
        if cache:
            line += " %.2f | %.3f | %.4f |" % (p.get("Dr", 0), p.get("D1mr", 0) +
                                               p.get("D1mw", 0), p.get("DLmr", 0) +
                                               p.get("DLmw", 0))
        print(line)
    for r in t["stages"]:
        row(r["stage"], r["per_pkt"])
    row("rest of the loop", t["rest"])
    row("whole (pktpath-stages)", t["whole"])
    wp = t["whole_pktpath_ir"]
    print("  the stages add up to the whole with the rest (the poll's bookkeeping and "
          "the calls: %.1f%% of it, at most %.0f%% expected); pktpath's own whole is "
          "%.2f instructions a packet, %+.2f (%+.1f%%) for the stages as functions" % (
              100 * t["rest"]["Ir"] / w if w else 0, 100 * t["rest_max"], wp, w - wp,
              100 * (w / wp - 1) if wp else 0))


# ---- instructions --------------------------------------------------------------

INSTR_VARIANTS = [
    ("default", []),
    ("--stage-cycles", ["--stage-cycles"]),
    ("--perf-detail", ["--perf-detail"]),
    ("--pmu task-clock,context-switches", ["--pmu", "task-clock,context-switches"]),
    ("--prefetch off", ["--prefetch", "off"]),
    ("--alloc bulk", ["--alloc", "bulk"]),
    ("--peer on", ["--peer", "on"]),
    ("--ingress lock --rules match-all", ["--ingress", "lock", "--rules",
                                          os.path.join(ROOT, "config/rules/match-all.rules")]),
    ("--ingress rcu --rules match-all", ["--ingress", "rcu", "--rules",
                                         os.path.join(ROOT, "config/rules/match-all.rules")]),
    ("--path rx-only", ["--path", "rx-only"]),
    ("--source port --path rx-only", ["--source", "port", "--path", "rx-only"]),
    ("--ingress rcu --rules acl-100", ["--ingress", "rcu", "--rules",
                                       os.path.join(ROOT, "config/rules/acl-100.rules")]),
    ("--family ipv6", ["--family", "ipv6"]),
    ("--family mixed", ["--family", "mixed"]),
    ("--mib-devices 1000", ["--mib-devices", "1000"]),
    ("--family ipv6 --mib-devices 1000", ["--family", "ipv6", "--mib-devices", "1000"]),
    # every frame to a port with no listener: a port unreachable each, the
    # ICMP rate limits consulted each time (most stopped: the global bucket)
    ("--family ipv6 --udp-ports 10", ["--family", "ipv6", "--udp-ports", "10"]),
    # reassembly: 1500-byte datagrams whole, then each in 6 fragments
    ("--pkt-size 1500", ["--pkt-size", "1500"]),
    ("--pkt-size 1500 --frag 256", ["--pkt-size", "1500", "--frag", "256"]),
    ("--family ipv6 --pkt-size 1500", ["--family", "ipv6", "--pkt-size", "1500"]),
    ("--family ipv6 --pkt-size 1500 --frag 256",
     ["--family", "ipv6", "--pkt-size", "1500", "--frag", "256"]),
]


def instr_eal(args):
    """The EAL arguments a variant's run needs beyond the usual: a port
    (net_null0, all-zero frames) when it takes --source port."""
    return ["--vdev", "net_null0"] if "--source" in args and \
        args[args.index("--source") + 1:][:1] == ["port"] else []


# ---- budget --------------------------------------------------------------------

BUDGET_TABLE = os.path.join(ROOT, "scripts/counts-budget.txt")


def budget_read(path):
    """The budget table: {"build": {buildtype, compiler, cc_version, dpdk},
    "margin": fraction, "rows": [(label, figure)]}. Lines: `build BUILDTYPE
    COMPILER CC-VERSION DPDK-VERSION` (versions as prefixes: 12.2 is any
    12.2.x), `margin
    P%`, then `FIGURE VARIANT` (the variant a label of INSTR_VARIANTS); `#`
    starts a comment."""
    t = {"build": None, "margin": None, "rows": []}
    known = dict(INSTR_VARIANTS)
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        die("--table %s: %s" % (path, e.strerror), 2)
    for no, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = "%s:%d" % (path, no)
        key, _, rest = line.partition(" ")
        rest = rest.strip()
        if key == "build":
            words = rest.split()
            if len(words) != 4:
                die("%s: build BUILDTYPE COMPILER CC-VERSION DPDK-VERSION (\"build "
                    "release gcc 12.2 22.11\"), not '%s'" % (where, rest), 2)
            t["build"] = dict(zip(("buildtype", "compiler", "cc_version", "dpdk"), words))
        elif key == "margin":
            m = re.fullmatch(r"(\d+(?:\.\d+)?)%", rest)
            if not m or not 0 <= float(m.group(1)) < 100:
                die("%s: margin P%% (0 to 100, \"0.5%%\"), not '%s'" % (where, rest), 2)
            t["margin"] = float(m.group(1)) / 100
        else:
            try:
                fig = float(key)
            except ValueError:
                die("%s: FIGURE VARIANT, build or margin, not '%s'" % (where, line), 2)
            if fig <= 0 or rest not in known:
                die("%s: '%s': a figure > 0 and a variant of instructions (%s)" % (
                    where, line, ", ".join(v[0] for v in INSTR_VARIANTS)), 2)
            if rest in (r[0] for r in t["rows"]):
                die("%s: variant '%s' twice" % (where, rest), 2)
            t["rows"].append((rest, fig))
    if t["build"] is None or t["margin"] is None or not t["rows"]:
        die("--table %s: needs a build line, a margin line and a figure" % path, 2)
    return t


def budget_build_check(build, want):
    """The build directory's meson options against the table's build: the
    same buildtype, compiler, compiler version and DPDK version (the
    table's versions are prefixes), no c_args, no sanitizer, no fuzzing,
    no -Dnative."""
    try:
        with open(os.path.join(build, "meson-info/intro-buildoptions.json")) as f:
            opts = {o["name"]: o["value"] for o in json.load(f)}
        with open(os.path.join(build, "meson-logs/meson-log.txt")) as f:
            log = f.read()
    except (OSError, ValueError, KeyError) as e:
        die("--build %s: no meson build (%s)" % (build, e), 2)
    cc = re.search(r"C compiler for the host machine: \S+ \((\w+) (\S+)", log)
    # "Run-time dependency libdpdk found: YES 22.11.11" when configured,
    # "Dependency libdpdk found: YES 22.11.11 (cached)" when reconfigured
    dpdk = re.findall(r"[Dd]ependency libdpdk found: YES (\S+)", log)
    have = {"buildtype": opts.get("buildtype"), "compiler": cc.group(1) if cc else None,
            "cc_version": cc.group(2) if cc else None, "dpdk": dpdk[-1] if dpdk else None}
    odd = ["%s %s" % (k, have[k]) for k in ("buildtype", "compiler") if have[k] != want[k]]
    odd += ["%s %s" % (k, have[k] or "unknown (not in meson-log.txt)")
            for k in ("cc_version", "dpdk")
            if have[k] is None or not (have[k] + ".").startswith(want[k] + ".")]
    odd += ["c_args %s" % " ".join(opts["c_args"])] if opts.get("c_args") else []
    odd += ["b_sanitize=%s" % opts["b_sanitize"]] if opts.get("b_sanitize", "none") != "none" \
        else []
    odd += ["-D%s=true" % k for k in ("native", "fuzz") if opts.get(k) is True]
    if odd:
        die("--build %s: %s, where the budget table is for buildtype %s, %s %s, DPDK "
            "%s, no c_args, not sanitized, not -Dnative or -Dfuzz (other code, other "
            "counts)" % (build, ", ".join(odd), want["buildtype"], want["compiler"],
                         want["cc_version"], want["dpdk"]), 2)


def budget(a, tmp, ver):
    """Each variant of the table (or of a.parts) against its budget; the
    rows, and whether all are within."""
    t = budget_read(a.table)
    budget_build_check(a.build, t["build"])
    figures = dict(t["rows"])
    want = a.parts or [r[0] for r in t["rows"]]
    bad = [w for w in want if w not in figures]
    if bad:
        die("budget: no variant '%s' in %s (%s)" % (bad[0], a.table, ", ".join(figures)), 2)
    known = dict(INSTR_VARIANTS)
    print("== budget: %s callgrind, pktpath --no-huge, 1 worker, %g s; the worker's "
          "thread per packet against %s (margin %g%%)" % (
              ver, a.secs, a.table, 100 * t["margin"]))
    print("| variant | instructions/pkt | budget | limit | against the budget | verdict |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    rows, over = [], 0
    for label in want:
        args = known[label]
        p, pk = pktpath_run(a.build, tmp, "budget_" + label, args, a.secs,
                            eal=instr_eal(args))
        fig, ir = figures[label], p["Ir"]
        limit = fig * (1 + t["margin"])
        ok = ir <= limit
        over += not ok
        rows.append({"variant": label, "ir_per_pkt": ir, "budget": fig, "limit": limit,
                     "packets": pk, "within": ok})
        print("| `%s` | %.2f | %.2f | %.2f | %+.2f%% | %s |" % (
            label, ir, fig, limit, 100 * (ir / fig - 1),
            "within" if ok else "OVER BUDGET"))
    if over:
        print("budget: %d of %d variants over their budget: find the instructions "
              "(callgrind_annotate, the journal's method) before raising a figure" % (
                  over, len(rows)))
    return rows, over == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["cachesim", "instructions", "budget", "geometry"])
    ap.add_argument("parts", nargs="*", help="cachesim: fold devdump peer path (default: all); "
                    "instructions: variants by label (default: all); budget: the table's "
                    "variants to check (default: all)")
    ap.add_argument("--build", default=os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")))
    ap.add_argument("--geometry", default="sysfs")
    ap.add_argument("--json")
    ap.add_argument("--fold-lcores", default="2 16 64 160 256")
    ap.add_argument("--folds", type=int, default=8)
    ap.add_argument("--peers", default="256 4096")
    ap.add_argument("--lookups", type=int, default=100000)
    ap.add_argument("--secs", type=float, default=1.0)
    ap.add_argument("--devdump", default="1000x160")
    ap.add_argument("--table", default=os.path.relpath(BUDGET_TABLE), help="budget: the table (default: %(default)s)")
    a = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # each table row as it comes
    cache = geometry(a.geometry)
    if a.what == "geometry":
        print("geometry %s: %s" % (cache["name"], cache["desc"]))
        print(" ".join(cache["args"]))
        return 0
    ver = valgrind_version()
    doc = {"valgrind": ver}
    try:
        lcores = [int(x) for x in a.fold_lcores.split()]
        peers = [int(x) for x in a.peers.split()]
        sizes = [tuple(int(v) for v in x.split("x", 1)) for x in a.devdump.split()]
    except ValueError:
        die("--fold-lcores and --peers take numbers, --devdump DEVICESxLCORES", 2)
    if any(len(x) != 2 or min(x) < 1 for x in sizes):
        die("--devdump: DEVICESxLCORES, both >= 1 (\"1000x160\")", 2)
    if a.folds < 1 or a.lookups < 1 or a.secs <= 0 or min(lcores + [2]) < 2:
        die("--folds, --lookups >= 1, --secs > 0, lcores >= 2", 2)
    rc = 0
    with tempfile.TemporaryDirectory(prefix="counts.") as tmp:
        try:
            if a.what == "budget":
                doc["budget"], ok = budget(a, tmp, ver)
                rc = 0 if ok else 1
            elif a.what == "cachesim":
                parts = a.parts or ["fold", "devdump", "peer", "path"]
                bad = [p for p in parts if p not in ("fold", "devdump", "peer", "path",
                                                     "stages")]
                if bad:
                    die("cachesim: no part %s (fold, devdump, peer, path, stages)" % bad[0], 2)
                print("== cachesim: %s callgrind --cache-sim=yes (cachegrind's model: "
                      "LRU, write-allocate, one thread at a time, no prefetch)" % ver)
                print("   geometry %s, %s" % (cache["name"], cache["desc"]))
                doc["geometry"] = cache
                if "fold" in parts:
                    doc["fold"] = fold_table(a.build, cache, tmp, lcores, a.folds)
                    print_fold(doc["fold"], a.folds)
                if "devdump" in parts:
                    doc["devdump"] = devdump_table(a.build, cache, tmp, sizes)
                    print_devdump(doc["devdump"])
                if "peer" in parts:
                    doc["peer"] = peer_table(a.build, cache, tmp, peers, a.lookups)
                    print_peer(doc["peer"], a.lookups)
                if "path" in parts:
                    doc["path"] = path_table(a.build, cache, tmp, a.secs)
                    print_path(doc["path"], a.secs)
                if "path" in parts or "stages" in parts:
                    whole = doc["path"][0]["per_pkt"] if "path" in doc else \
                        pktpath_run(a.build, tmp, "stages_default", [], a.secs, cache)[0]
                    doc["stages"] = stage_table(a.build, tmp, a.secs, whole["Ir"], cache)
                    print_stages(doc["stages"], a.secs)
            else:
                want = a.parts or [v[0] for v in INSTR_VARIANTS]
                known = dict(INSTR_VARIANTS)
                bad = [w for w in want if w not in known]
                if bad:
                    die("instructions: no variant '%s' (%s)" % (
                        bad[0], ", ".join(v[0] for v in INSTR_VARIANTS)), 2)
                print("== instructions: %s callgrind, pktpath --no-huge, 1 worker, the "
                      "generator, %g s; the worker's thread (app_worker_main, inclusive) "
                      "per packet" % (ver, a.secs))
                print("| variant | instructions/pkt | over the default | packets |")
                print("| --- | ---: | ---: | ---: |")
                rows, base = [], None
                for label in want:
                    p, pk = pktpath_run(a.build, tmp, "instr_" + label, known[label], a.secs,
                                        eal=instr_eal(known[label]))
                    if label == "default":
                        base = p["Ir"]
                    rows.append({"variant": label, "ir_per_pkt": p["Ir"], "packets": pk})
                    print("| `%s` | %.2f | %s | %d |" % (
                        label, p["Ir"], "" if base is None or label == "default" else
                        "%+.2f (%+.1f%%)" % (p["Ir"] - base, 100 * (p["Ir"] / base - 1)), pk))
                doc["instructions"] = rows
                if "default" in want:
                    doc["stages"] = stage_table(a.build, tmp, a.secs, base)
                    print_stages(doc["stages"], a.secs)
        except RuntimeError as e:
            die(str(e))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=2, sort_keys=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
