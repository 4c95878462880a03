#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Generate an ingress ACL of N rules for pktpath (config/rules/acl-N.rules).

The rules are random but deterministic (--seed): tc flower-like lines mixing
protocols, source/destination prefixes of /8 to /32, single ports and port
ranges, a few VLAN and DSCP keys, and drop/pass/mark/count actions. None of
them matches the built-in generator's default traffic (UDP from
198.18.0.1-254, ports 1024-65535, to 198.19.0.1 port 9) except one rule
placed --hit-from-end rules before the end, so every generated packet makes
the classifier look past almost the whole list, and `default pass` keeps
anything else flowing.

    scripts/gen-rules.py --count 100 > config/rules/acl-100.rules
    scripts/gen-rules.py --count 10000 -o config/rules/acl-10000.rules
"""

import argparse
import ipaddress
import random
import sys

import pktpath_files

# The generator's default flows (lib/pkt pkt_flow_conf_default).
GEN_SRC = ipaddress.ip_network("198.18.0.0/24")
GEN_DST = ipaddress.ip_address("198.19.0.1")
GEN_DPORT = 9
# Random prefixes avoid this block entirely, so they never cover the traffic.
AVOID = ipaddress.ip_network("198.18.0.0/15")

WELL_KNOWN = [22, 25, 53, 80, 123, 161, 443, 514, 1812, 3306, 5060, 8080]

# pktpath's limits (lib/ingress: RULES_MAX rules, prio 0..65535).
RULES_MAX = 65536
PRIO_MAX = 65535


def rand_prefix(rng, lo=8, hi=32):
    """A random IPv4 prefix (host bits clear) disjoint from AVOID."""
    while True:
        length = rng.choice([lo, 16, 24, 24, 32, 32, rng.randint(lo, hi)])
        length = max(lo, min(hi, length))
        addr = rng.getrandbits(32)
        net = ipaddress.ip_network((addr, length), strict=False)
        first = net.network_address.packed[0]
        if first in (0, 127) or first >= 224:
            continue
        if net.overlaps(AVOID):
            continue
        return str(net)


def rand_ports(rng):
    r = rng.random()
    if r < 0.5:
        return str(rng.choice(WELL_KNOWN))
    if r < 0.8:
        lo = rng.randint(1, 65000)
        return "%d-%d" % (lo, min(65535, lo + rng.choice([1, 7, 15, 255, 1023])))
    return str(rng.randint(1, 65535))


def rand_rule(rng, prio):
    """One random rule that cannot match the generator's traffic."""
    keys = ["prio %d" % prio]
    near = rng.random() < 0.05   # same destination as the traffic, other port
    p = rng.random()
    proto = "udp" if p < 0.45 else "tcp" if p < 0.9 else "icmp" if p < 0.95 else str(rng.choice([47, 50, 89, 132]))
    if near:
        proto = rng.choice(["udp", "tcp"])
    if rng.random() < 0.85 or near:
        keys.append("proto " + proto)
    else:
        proto = None
    if rng.random() < 0.6:
        keys.append("src " + rand_prefix(rng))
    if near:
        keys.append("dst " + rng.choice(["198.19.0.1/32", "198.19.0.0/24"]))
    else:
        keys.append("dst " + rand_prefix(rng))   # disjoint from the traffic
    if proto in (None, "udp", "tcp"):
        if rng.random() < 0.2:
            keys.append("sport " + rng.choice(["1024-65535", rand_ports(rng)]))
        if rng.random() < 0.7 or near:
            while True:
                dp = rand_ports(rng)
                lo, _, hi = dp.partition("-")
                hi = hi or lo
                if not (near and proto == "udp" and int(lo) <= GEN_DPORT <= int(hi)):
                    break
            keys.append("dport " + dp)
    if rng.random() < 0.05:
        keys.append("vlan " + rng.choice(["none", str(rng.randint(1, 4094))]))
    if rng.random() < 0.05:
        keys.append("dscp %d" % rng.choice([0, 10, 18, 26, 34, 46]))
    a = rng.random()
    if a < 0.70:
        keys.append("action drop")
    elif a < 0.85:
        keys.append("action pass")
    elif a < 0.95:
        keys.append("action mark %d" % rng.randint(1, 1 << 20))
    else:
        keys.append("action count")
    return " ".join(keys)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", "-n", type=int, required=True,
                    help="number of rules, 1..%d (what pktpath accepts)" % RULES_MAX)
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--hit-from-end", type=int, default=3,
                    help="the traffic's rule is this many rules from the end (default 3)")
    ap.add_argument("--output", "-o", help="file to write (default stdout)")
    args = ap.parse_args()
    if args.count < 1 or args.count > RULES_MAX:
        ap.error("--count %d: pktpath accepts 1..%d rules (priorities 0..%d)"
                 % (args.count, RULES_MAX, PRIO_MAX))
    hit = max(0, args.count - max(1, args.hit_from_end))
    # Priorities 10, 20, 30... spread over 0..PRIO_MAX; past 6000 rules the
    # step shrinks to 1, and past PRIO_MAX - 9 rules they start below 10, so
    # that the last one is still a priority pktpath accepts.
    step = max(1, min(10, 60000 // args.count))
    base = min(10, PRIO_MAX + 1 - args.count)
    assert base >= 0 and base + (args.count - 1) * step <= PRIO_MAX

    rng = random.Random(args.seed)
    out = []
    out.append("# acl-%d.rules: generated by scripts/gen-rules.py --count %d --seed %d"
               % (args.count, args.count, args.seed))
    out.append("# Do not edit: regenerate. The built-in generator's default traffic")
    out.append("# (udp 198.18.0.1-254:1024-65535 -> 198.19.0.1:9) matches rule %d of %d"
               % (hit + 1, args.count))
    out.append("# only; nothing else matches it.")
    out.append("default pass")
    for i in range(args.count):
        prio = base + i * step
        if i == hit:
            out.append("# the generator's traffic")
            out.append("prio %d proto udp src %s dst %s/32 sport 1024-65535 dport %d action pass"
                       % (prio, GEN_SRC, GEN_DST, GEN_DPORT))
        else:
            out.append(rand_rule(rng, prio))
    text = "\n".join(out) + "\n"
    # as pktpath writes an output: never a FIFO, every write checked
    if args.output:
        pktpath_files.write_out("gen-rules.py", args.output, text.encode())
    else:
        pktpath_files.write_stdout("gen-rules.py", text)


if __name__ == "__main__":
    main()
