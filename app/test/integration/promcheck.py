"""Exact checks of what a real Prometheus (2.x) stored and computed from a
live pktpath, for integration/prometheus.sh: no rate tolerance, so a loaded
machine cannot make them fail or pass.

 - every sample Prometheus stored of a pktpath counter lies between the
   value pktpath served before the scrapes began and the one it served
   after, and never decreases: they are pktpath's counters;
 - rate() and the recording rules are recomputed here from those very
   samples with Prometheus 2.x's extrapolation (promql/functions.go,
   extrapolatedRate; 2.x range selectors are closed on both ends) at the
   timestamp Prometheus evaluated them, and must agree to 1e-9: so the
   per-mode rule counts a mode's own packets over its own seconds, which
   is what the README says it does.
"""
import json
import urllib.parse
import urllib.request

EPS = 1e-9


def get(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def parse(text, prefixes):
    """An exposition: {series text: value} for the given name prefixes."""
    d = {}
    for line in text.splitlines():
        if line.startswith(tuple(prefixes)):
            k, v = line.rsplit(" ", 1)
            d[k] = float(v)
    return d


def metrics(url, prefixes):
    """pktpath's /metrics, parsed."""
    return parse(get(url + "metrics"), prefixes)


def query(prom, q, t=None):
    p = {"query": q}
    if t is not None:
        p["time"] = "%.3f" % t
    d = json.loads(get(prom + "/api/v1/query?" + urllib.parse.urlencode(p)))
    assert d["status"] == "success", d
    return d["data"]["result"]


def key(metric, drop=("__name__", "instance", "job", "role")):
    return tuple(sorted((k, v) for k, v in metric.items() if k not in drop))


def raw(prom, selector, t, seconds=120):
    """The samples stored of selector in (t - seconds, t]: {labels: [(ms, v)]}."""
    out = {}
    for r in query(prom, "%s[%ds]" % (selector, seconds), t):
        out[key(r["metric"])] = [(round(float(ts) * 1000), float(v))
                                 for ts, v in r["values"]]
    return out


def rate(points, t_ms, range_s):
    """Prometheus 2.x rate() of a counter at t over [t - range, t]."""
    start = t_ms - range_s * 1000
    s = [(ts, v) for ts, v in points if start <= ts <= t_ms]
    if len(s) < 2:
        return None
    result = s[-1][1] - s[0][1]
    last = 0.0
    for _, v in s:
        if v < last:
            result += last
        last = v
    to_start = (s[0][0] - start) / 1000
    to_end = (t_ms - s[-1][0]) / 1000
    sampled = (s[-1][0] - s[0][0]) / 1000
    avg = sampled / (len(s) - 1)
    if result > 0 and s[0][1] >= 0:
        to_zero = sampled * (s[0][1] / result)
        if to_zero < to_start:
            to_start = to_zero
    thr = avg * 1.1
    span = sampled + (to_start if to_start < thr else avg / 2)
    span += to_end if to_end < thr else avg / 2
    return result * (span / sampled) / range_s


def close(a, b, what):
    assert abs(a - b) <= EPS * max(abs(a), abs(b), 1e-300), \
        "%s: Prometheus %r, recomputed %r" % (what, a, b)


def bracketed(series, before, after, what):
    """Samples non-decreasing and within pktpath's values before and after."""
    n = 0
    for labels, pts in series.items():
        lo = before.get(labels, 0.0)
        hi = after[labels]
        prev = lo
        for ts, v in pts:
            assert prev <= v <= hi, "%s %s: sample %r at %d outside [%r, %r] " \
                "or decreasing" % (what, labels, v, ts, prev, hi)
            prev = v
            n += 1
    assert n >= 3, "%s: only %d samples stored" % (what, n)
    return n


def by_labels(d, name):
    """/metrics series of one family as {labels tuple: value}."""
    out = {}
    for k, v in d.items():
        if not k.startswith(name + "{"):
            continue
        body = k[len(name) + 1:-1]
        labels = dict(p.split("=", 1) for p in body.split(","))
        out[tuple(sorted((a, b.strip('"')) for a, b in labels.items()))] = v
    return out


def last_eval(prom, record, t):
    """The last evaluation of a recording rule before t: (ms, {labels: v})."""
    series = raw(prom, record, t, 30)
    assert series, "%s: never evaluated" % record
    ts = max(pts[-1][0] for pts in series.values())
    return ts, {k: v for k, pts in series.items() for tt, v in pts if tt == ts}


def mode_rule(prom, t):
    """mode:pktpath_mpps:avg_rate30s at its last evaluation before t, and the
    same recomputed from the stored per-lcore Mode counters (one instance:
    the sum over lcores of rate(packets) / rate(seconds), in Mpps).

    A scrape is stored with the time it began but committed when it ends,
    so an evaluation that fell in between did not see it, and on a loaded
    machine the last few scrapes may all have been in flight (a scrape's
    samples commit together, in order): ours is a list of answers, one per
    prefix of the stored scrapes, with every sample and without each of
    the last four; one of them is what Prometheus computed."""
    ts, theirs = last_eval(prom, "mode:pktpath_mpps:avg_rate30s", t)
    pk = raw(prom, "pktpath_lcore_mode_packets_total", ts / 1000)
    sec = raw(prom, "pktpath_lcore_mode_seconds_total", ts / 1000)
    scrapes = sorted({x[0] for pts in pk.values() for x in pts if x[0] <= ts})
    answers = []
    for cut in [ts] + [x - 1 for x in reversed(scrapes[-4:])]:
        ours = {}
        for labels, pts in pk.items():
            p = [x for x in pts if x[0] <= cut]
            s = [x for x in sec[labels] if x[0] <= cut]
            rp, rs = rate(p, ts, 30), rate(s, ts, 30)
            if rp is None or rs is None or not rs > 0:
                continue
            m = (("mode", dict(labels)["mode"]),)
            ours[m] = ours.get(m, 0.0) + rp / rs / 1e6
        answers.append(ours)
    return ts, theirs, answers, pk, sec


def same_rule(theirs, answers, modes, what):
    """theirs equals one of the answers for every mode, which are modes."""
    bad = []
    for ours in answers:
        try:
            assert set(theirs) == set(ours) == modes, (theirs, ours)
            for k in theirs:
                close(theirs[k], ours[k], "%s%s" % (what, k))
            return ours
        except AssertionError as e:
            bad.append(str(e))
    raise AssertionError("; ".join(bad))
