#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Pictures of pktpath runs, from their --json documents, as SVG.

  scripts/plot.py RUN.json [RUN.json ...] -o OUT.svg [--kind KIND] [--label L ...]

Kinds:
  compare     a --compare run of any knob (or two: "lock/split"): ns/pkt
              per variant (the median over rounds as a bar, each round as a
              dot), and the differences against the run's baseline
              (compare.baseline) with their 95% confidence intervals,
              coloured by verdict; a third panel stacks the per-stage
              ns/pkt of each variant, in path order, when the JSON has them
              (compare.modes[].stages, an object {stage: ns per received
              packet}, which pktpath writes with --stage-cycles).
  timeseries  Mpps per lcore over the run (the JSON's "intervals"), each
              interval's background in the colour of the ingress mode it
              ran in, the intervals the steady state left out shaded (its
              "steady": warm-up grey, lost time red and drawn as a gap in
              the lines: a worker that did not run has no rate), mode flips
              as vertical lines at their own time labelled with the mode
              they set (the JSON's "events"), intervals with rule updates
              as ticks along the bottom.
  histogram   a --perf-detail run's distributions (summary.perf_detail: the
              steady state, or the whole run): one panel per histogram
              (cycles per busy poll, cycles per packet of a busy poll, and
              the ingress stage's cycles per burst when a run had the hook),
              log-scale x, the share of the polls in each bin as a step
              line, one line per lcore of each file, the p50 and p99 of
              each line marked.
  auto        compare when every file has a "compare" object, else
              timeseries (the default).

Run by /usr/bin/python3: Debian's python3-matplotlib is installed for it.

Several files go on one picture (A/B across commits or machines), one
series each, labelled with --label (once per file) or the file's name.
Every drawn element of a series has an SVG id "series-KIND-N/K" (N the
series, K the element: a bar, an error bar's parts; a line is one element)
and every event mark "events-KIND-F/K", so that a test can count the
series: the distinct ids before the "/".
"""

import argparse
import io
import json
import math
import os
import sys

import pktpath_files

try:
    import matplotlib
    matplotlib.use("svg")
    import matplotlib.pyplot as plt
except ImportError:  # pragma: no cover - setup.sh installs it
    sys.exit("plot.py: needs matplotlib (Debian python3-matplotlib; "
             "scripts/setup.sh installs it)")

VERDICT_COLOUR = {"slower": "tab:red", "faster": "tab:green",
                  "within noise": "tab:gray", "no interval": "tab:gray"}


def load(path):
    # an input as pktpath opens one: a regular file, never a FIFO to wait on
    try:
        return json.loads(pktpath_files.read_in("plot.py", path))
    except ValueError as e:
        sys.exit("plot.py: %s: %s" % (path, e))


def save(fig, out):
    """The SVG, written whole to out (pktpath_files: a regular file or a
    device, never a FIFO; every write and the fsync checked)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="svg")
    pktpath_files.write_out("plot.py", out, buf.getvalue())


def finite(x):
    return isinstance(x, (int, float)) and math.isfinite(x)


def plot_compare(docs, labels, out):
    modes = []
    for d in docs:
        for m in d["compare"]["modes"]:
            if m["mode"] not in modes:
                modes.append(m["mode"])
    has_stages = any("stages" in m for d in docs for m in d["compare"]["modes"])
    npanel = 3 if has_stages else 2
    fig, axes = plt.subplots(1, npanel, figsize=(5.5 * npanel, 4.5))
    n = len(docs)
    width = 0.8 / n
    ax_ns, ax_d = axes[0], axes[1]
    for i, (d, lab) in enumerate(zip(docs, labels)):
        cmp = d["compare"]
        bym = {m["mode"]: m for m in cmp["modes"]}
        ref = cmp.get("baseline")
        xs = [k + (i - (n - 1) / 2) * width for k in range(len(modes))]
        ns = [bym[m]["ns_per_pkt"] if m in bym else float("nan") for m in modes]
        bars = ax_ns.bar(xs, ns, width * 0.9, label=lab, alpha=0.8)
        for k, b in enumerate(bars):
            b.set_gid("series-ns-%d/%d" % (i, k))
        for x, m in zip(xs, modes):
            if m in bym:
                rns = [v for v in bym[m].get("rounds_ns", []) if finite(v)]
                ax_ns.plot([x] * len(rns), rns, ".", color="black", ms=3)
        # the differences with their intervals, against ref
        dx, dy, lo, hi, col = [], [], [], [], []
        for x, m in zip(xs, modes):
            if ref is None or m not in bym or m == ref:
                continue
            ci = bym[m].get("delta_ns_ci") or {}
            est = bym[m].get("delta_ns")
            if not finite(est):
                continue
            dx.append(x)
            dy.append(est)
            lo.append(est - ci["lo"] if finite(ci.get("lo")) else 0)
            hi.append(ci["hi"] - est if finite(ci.get("hi")) else 0)
            col.append(VERDICT_COLOUR.get(ci.get("verdict"), "tab:gray"))
        grp = ax_d.errorbar(dx, dy, yerr=[lo, hi], fmt="o", capsize=4,
                            label="%s (vs %s)" % (lab, ref), color="C%d" % i)
        for k, art in enumerate(grp.get_children()):
            art.set_gid("series-delta-%d/%d" % (i, k))
        ax_d.scatter(dx, dy, c=col, zorder=3, s=18)
        if has_stages:
            ax_s = axes[2]
            bottom = [0.0] * len(modes)
            stages = []
            for m in cmp["modes"]:
                for s in m.get("stages", {}):
                    if s not in stages:
                        stages.append(s)
            for j, s in enumerate(stages):
                v = [bym[m].get("stages", {}).get(s, 0) if m in bym else 0
                     for m in modes]
                b = ax_s.bar(xs, v, width * 0.9, bottom=bottom,
                             label="%s %s" % (lab, s), color="C%d" % j,
                             alpha=1.0 - 0.4 * i / max(1, n - 1))
                for k, bb in enumerate(b):
                    bb.set_gid("series-stages-%d-%d/%d" % (i, j, k))
                bottom = [p + q for p, q in zip(bottom, v)]
    title = docs[0]["compare"]
    ax_ns.set_xticks(range(len(modes)), modes)
    ax_ns.set_ylabel("ns/pkt (median over rounds; dots: rounds)")
    ax_ns.set_title("%s: %d rounds x %.2f s phases" % (
        " x ".join(title.get("knobs", {"ingress": []})), title["rounds"],
        title["phase_s"]))
    ax_ns.legend(fontsize=8)
    ax_d.axhline(0, color="black", lw=0.8)
    ax_d.set_xticks(range(len(modes)), modes)
    ax_d.set_ylabel("Δns/pkt with its 95%% CI (%s)" % ", ".join(sorted(
        {d["compare"].get("ci_method", "?") for d in docs})))
    ax_d.set_title("difference (red slower, green faster, grey within noise)",
                   fontsize=9)
    ax_d.legend(fontsize=8)
    if has_stages:
        axes[2].set_xticks(range(len(modes)), modes)
        axes[2].set_ylabel("ns/pkt per stage")
        axes[2].legend(fontsize=7)
    fig.tight_layout()
    save(fig, out)


MODE_COLOUR = {"off": "tab:gray", "none": "tab:blue", "lock": "tab:red",
               "rwlock": "tab:orange", "rcu": "tab:green"}
USE_SHADE = {"warm-up": ("0.6", None), "lost": ("tab:red", "////")}


def plot_timeseries(docs, labels, out, total):
    fig, ax = plt.subplots(figsize=(10, 4.5))
    styles = ["-", "--", ":", "-."]
    ymax = 0.0
    nser = 0
    nev = 0
    modes_seen = []
    for i, (d, lab) in enumerate(zip(docs, labels)):
        iv = d.get("intervals")
        if not iv:
            sys.exit("plot.py: %s has no \"intervals\" (a run too short for "
                     "one interval, or an older pktpath)" % lab)
        t = [x["t_s"] for x in iv]
        # a lost interval is a gap: the line breaks there (NaN)
        gap = [((x.get("lost") or {}).get("flagged") or x.get("steady") == "lost")
               for x in iv]
        lcores = [l["lcore"] for l in iv[0]["lcores"]]
        for k, lc in enumerate(lcores):
            y = [float("nan") if g else x["lcores"][k]["mpps"] for x, g in zip(iv, gap)]
            ymax = max([ymax] + [v for v in y if finite(v)])
            (ln,) = ax.plot(t, y, styles[i % len(styles)], marker=".",
                            color="C%d" % (nser % 10), label="%s lcore %d" % (lab, lc))
            nser += 1
            ln.set_gid("series-mpps-%d-%d" % (i, lc))
        if total:
            y = [float("nan") if g else x["mpps"] for x, g in zip(iv, gap)]
            ymax = max([ymax] + [v for v in y if finite(v)])
            (ln,) = ax.plot(t, y, styles[i % len(styles)], color="black",
                            label="%s total" % lab)
            ln.set_gid("series-mpps-%d-total" % i)
        # each interval's mode as its background (the first file's only:
        # several files' modes would overlap), and what the steady state
        # left out of it
        for x in iv:
            m = x.get("mode")
            if i == 0 and m in MODE_COLOUR:
                span = ax.axvspan(x["t0_s"], x["t_s"], color=MODE_COLOUR[m],
                                  alpha=0.07, lw=0)
                span.set_gid("events-modespan-%d/%d" % (i, nev))
                nev += 1
                if m not in modes_seen:
                    modes_seen.append(m)
            use = x.get("steady")
            if use in USE_SHADE:
                colour, hatch = USE_SHADE[use]
                span = ax.axvspan(x["t0_s"], x["t_s"], ymax=0.06, color=colour,
                                  alpha=0.35, hatch=hatch, lw=0)
                span.set_gid("events-%s-%d/%d" % (use, i, nev))
                nev += 1
        st = (d.get("summary") or {}).get("steady_state") or {}
        if not any("steady" in x for x in iv) and finite(st.get("start_s")) \
                and st["start_s"] > 0:
            span = ax.axvspan(0, st["start_s"], color="C%d" % i, alpha=0.08)
            span.set_gid("events-warmup-%d" % i)
    for i, d in enumerate(docs):
        for e in d.get("events", []):
            if e["kind"] == "mode-flip":
                m = e.get("mode")
                ln = ax.axvline(e["t_s"], color=MODE_COLOUR.get(m, "C%d" % i),
                                ls=":", lw=1.2)
                ln.set_gid("events-mode-%d/%d" % (i, nev))
                nev += 1
                ax.annotate("\u2192" + (m or "flip"), (e["t_s"], ymax * 1.02),
                            fontsize=7, rotation=90, ha="right", va="bottom",
                            color=MODE_COLOUR.get(m, "black"))
            elif e["kind"] == "rule-updates":
                (ln,) = ax.plot([(e["t0_s"] + e["t_s"]) / 2], [0], "|",
                                color="C%d" % i, ms=10)
                ln.set_gid("events-rules-%d/%d" % (i, nev))
                nev += 1
    for m in modes_seen:
        ax.axvspan(0, 0, color=MODE_COLOUR[m], alpha=0.25, label="mode %s" % m)
    ax.set_ylim(0, ymax * 1.15 if ymax > 0 else 1)
    ax.set_xlabel("seconds since start (end of each interval)")
    ax.set_ylabel("Mpps")
    ax.set_title("Mpps per lcore; background: ingress mode; grey foot: warm-up; "
                 "red hatched foot and gap: lost time; dotted: mode flips; "
                 "ticks: rule updates", fontsize=8)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save(fig, out)


HIST_PANELS = [("poll_cycles", "TSC cycles per busy poll"),
               ("packet_cycles", "TSC cycles per packet of a busy poll"),
               ("ingress_cycles", "TSC cycles of the ingress stage per burst")]


def hist_lcores(d):
    """[(lcore, {kind: histogram})] of a run: the summary's window, else
    the final snapshot's lcores (since the last clear)."""
    pd = (d.get("summary") or {}).get("perf_detail")
    if pd:
        return [(l["lcore"], l) for l in pd["lcores"]], pd.get("window", "run")
    return [(l["lcore"], l["perf_detail"]) for l in d.get("lcores", [])
            if l.get("perf_detail")], "since the last clear"


def plot_histogram(docs, labels, files, out):
    runs = []
    for f, d in zip(files, docs):
        lc, window = hist_lcores(d)
        if not lc:
            sys.exit("plot.py: %s: histograms need --perf-detail (no "
                     "\"perf_detail\" in the JSON)" % f)
        runs.append((lc, window))
    panels = [(k, t) for k, t in HIST_PANELS
              if any(h.get(k, {}).get("count", 0) > 0 for lc, _ in runs for _, h in lc)]
    fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 4.5),
                             squeeze=False)
    styles = ["-", "--", ":", "-."]
    colour = {}  # one colour per (file, lcore) on every panel
    for i, (lc, _) in enumerate(runs):
        for lcore, _ in lc:
            colour[(i, lcore)] = len(colour) % 10
    for j, (kind, title) in enumerate(panels):
        ax = axes[0][j]
        for i, ((lc, window), lab) in enumerate(zip(runs, labels)):
            for lcore, h in lc:
                hk = h.get(kind)
                if not hk or hk["count"] == 0:
                    continue
                nser = colour[(i, lcore)]
                n = float(hk["count"])
                # step over the bins' lowest values; the open last bin as
                # wide as its predecessor's ratio (1.5). The JSON has the
                # non-empty bins only: between two that are not adjacent
                # the line breaks (a NaN), rather than holding the first
                # one's share over bins that hold no poll.
                xs, ys = [], []
                prev_top = None
                for lo, hi, c in hk["bins"]:
                    top = (hi + 1) if hi is not None else lo * 1.5
                    if prev_top is not None and lo != prev_top:
                        xs.append(max(prev_top, 1))
                        ys.append(float("nan"))
                    xs += [max(lo, 0.5), max(top, 1)]
                    ys += [c / n, c / n]
                    prev_top = top
                (ln,) = ax.plot(xs, ys, styles[i % len(styles)],
                                color="C%d" % (nser % 10), drawstyle="steps-post",
                                label="%s lcore %d (%s)" % (lab, lcore, window))
                ln.set_gid("series-hist-%s-%d-%d" % (kind, i, lcore))
                pct = hk.get("percentiles", {})
                for q, mk in (("p50", "v"), ("p99", "^")):
                    if finite(pct.get(q)) and pct[q] > 0:
                        m = ax.plot([pct[q]], [max(y for y in ys if y == y)], mk, color="C%d" % (nser % 10),
                                    ms=6)[0]
                        m.set_gid("marks-hist-%s-%d-%d/%s" % (kind, i, lcore, q))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(title + " (log scale; bins: two per octave)")
        ax.set_ylabel("share of the polls in the bin" if kind != "ingress_cycles"
                      else "share of the bursts in the bin")
        ax.set_title("%s; markers: p50 (v), p99 (^)" % kind, fontsize=9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("json", nargs="+", help="pktpath --json documents")
    p.add_argument("-o", "--output", required=True, help="the SVG to write")
    p.add_argument("--kind", choices=["auto", "compare", "timeseries", "histogram"],
                   default="auto")
    p.add_argument("--label", action="append", default=[],
                   help="a name per file, in order (default: the file name)")
    p.add_argument("--total", action="store_true",
                   help="timeseries: the total of all lcores too")
    a = p.parse_args()
    if a.label and len(a.label) != len(a.json):
        sys.exit("plot.py: %d --label for %d files" % (len(a.label), len(a.json)))
    labels = a.label or [os.path.basename(f) for f in a.json]
    docs = [load(f) for f in a.json]
    kind = a.kind
    if kind == "histogram":
        plot_histogram(docs, labels, a.json, a.output)
        return
    if kind == "auto":
        kind = "compare" if all("compare" in d for d in docs) else "timeseries"
    if kind == "compare":
        for f, d in zip(a.json, docs):
            if "compare" not in d:
                sys.exit("plot.py: %s is not a --compare run" % f)
        plot_compare(docs, labels, a.output)
    else:
        plot_timeseries(docs, labels, a.output, a.total)


if __name__ == "__main__":
    main()
