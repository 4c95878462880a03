#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Flip a running pktpath's ingress mode over HTTP and time each flip.

    scripts/flip-latency.py URL [--secs S] [--min-flips N] [--modes M,M,...]
                            [--gap-ms G] [--timeout T]

URL is pktpath's endpoint (http://127.0.0.1:9120/), started with
--http-control and an ingress hook. Every G ms (3) it POSTs mode=M to
/ingress/mode, cycling through the modes (lock,rcu), until S seconds (10)
have passed and N flips (0) have succeeded. A flip's time is the request's
(connect, the control thread, ingress_set_mode() returning once every
running worker has taken the mode, the answer), measured by the client.

Prints one line (flips, failures, p50/p99/max in ms by nearest rank, as
pktpath's base_quantile(), and the mode of the slowest) and, when any
failed, the first three errors with pktpath's answer. Exit status: 0 when
every flip succeeded (at least one, and N), 1 otherwise, 2 for a bad
argument or an endpoint that never answered /healthz.
"""
import argparse
import math
import sys
import time
import urllib.error
import urllib.request


def quantile(sorted_v, q):
    """The q-quantile of sorted values, nearest rank."""
    if not sorted_v:
        return float("nan")
    return sorted_v[max(0, math.ceil(q * len(sorted_v)) - 1)]


def main():
    ap = argparse.ArgumentParser(
        description="time ingress mode flips of a running pktpath over HTTP")
    ap.add_argument("url", help="pktpath's endpoint, e.g. http://127.0.0.1:9120/")
    ap.add_argument("--secs", type=float, default=10.0,
                    help="flip for at least this long (10)")
    ap.add_argument("--min-flips", type=int, default=0,
                    help="and until this many flips succeeded (0)")
    ap.add_argument("--modes", default="lock,rcu",
                    help="modes to cycle through, comma-separated (lock,rcu)")
    ap.add_argument("--gap-ms", type=float, default=3.0,
                    help="pause between two flips in ms (3)")
    ap.add_argument("--timeout", type=float, default=5.0,
                    help="one flip's timeout in s (5)")
    a = ap.parse_args()
    modes = [m for m in a.modes.split(",") if m]
    if not modes:
        ap.error("--modes needs a mode")
    for name, v, low in (("--secs", a.secs, 0), ("--gap-ms", a.gap_ms, 0),
                         ("--timeout", a.timeout, 1e-3)):
        # nan and inf too: nan would end the run at once, inf never
        if not (math.isfinite(v) and low <= v <= 86400e3):
            ap.error("%s %s: not a finite number >= %g" % (name, v, low))
    if a.min_flips < 0:
        ap.error("--min-flips %d: not >= 0" % a.min_flips)
    if not a.url.startswith(("http://", "https://")):
        ap.error("%s: not an http:// URL" % a.url)
    base = a.url.rstrip("/")
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1).read()
            break
        except Exception:
            time.sleep(0.1)
    else:
        print("flip-latency: %s/healthz never answered" % base, file=sys.stderr)
        return 2
    lat, errors = [], []
    i = fails = 0
    t0 = time.time()
    end = t0 + a.secs
    while time.time() < end or len(lat) < a.min_flips:
        m = modes[i % len(modes)]
        i += 1
        t = time.time()
        try:
            urllib.request.urlopen(urllib.request.Request(
                base + "/ingress/mode", data=("mode=" + m).encode()),
                timeout=a.timeout).read()
            lat.append((time.time() - t, m))
        except Exception as e:
            fails += 1
            why = str(e)
            if isinstance(e, urllib.error.HTTPError):
                why += ": " + e.read().decode(errors="replace").strip()
            errors.append("%.3f s: %s: %s" % (t - t0, m, why))
            if fails > max(a.min_flips, 100):
                break
        time.sleep(a.gap_ms / 1000.0)
    v = sorted(x[0] for x in lat)
    slowest = max(lat) if lat else (float("nan"), "-")
    print("flips %d failed %d in %.1f s: p50 %.2f ms p99 %.2f ms max %.2f ms "
          "(to %s)" % (len(lat), fails, time.time() - t0,
                       quantile(v, 0.5) * 1e3, quantile(v, 0.99) * 1e3,
                       slowest[0] * 1e3, slowest[1]))
    for e in errors[:3]:
        print("  error at " + e)
    return 0 if fails == 0 and lat and len(lat) >= a.min_flips else 1


if __name__ == "__main__":
    sys.exit(main())
