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

--family ipv6 writes IPv6 rules (prefixes of /16 to /128 in 2000::/3,
disjoint from the generator's 2001:2::/48, proto icmp6 for icmp) and the
IPv6 traffic's rule (UDP from 2001:2::/64 to 2001:2:0:1::1 port 9) in that
place; --family mixed draws each rule's family and places both traffic
rules, IPv6 just before IPv4, for pktpath --family mixed. ipv4 (the
default) writes what it always wrote, byte for byte.
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
# The same for IPv6 (lib/pkt: --src6 2001:2::1-2001:2::fe, --dst6 2001:2:0:1::1).
GEN_SRC6 = ipaddress.ip_network("2001:2::/64")
GEN_DST6 = ipaddress.ip_address("2001:2:0:1::1")
AVOID6 = ipaddress.ip_network("2001:2::/48")

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


def rand_prefix6(rng):
    """A random IPv6 prefix (host bits clear) in 2000::/3, disjoint from AVOID6."""
    while True:
        length = rng.choice([16, 32, 48, 64, 64, 128, rng.randint(16, 128)])
        addr = (1 << 125) | rng.getrandbits(125)
        net = ipaddress.ip_network((addr, length), strict=False)
        if not net.overlaps(AVOID6):
            return str(net)


def rand_ports(rng):
    r = rng.random()
    if r < 0.5:
        return str(rng.choice(WELL_KNOWN))
    if r < 0.8:
        lo = rng.randint(1, 65000)
        return "%d-%d" % (lo, min(65535, lo + rng.choice([1, 7, 15, 255, 1023])))
    return str(rng.randint(1, 65535))


def rand_rule(rng, prio, v6=False):
    """One random rule that cannot match the generator's traffic (IPv6
    prefixes when v6)."""
    prefix = rand_prefix6 if v6 else rand_prefix
    keys = ["prio %d" % prio]
    near = rng.random() < 0.05   # same destination as the traffic, other port
    p = rng.random()
    proto = "udp" if p < 0.45 else "tcp" if p < 0.9 else "icmp" if p < 0.95 else str(rng.choice([47, 50, 89, 132]))
    if near:
        proto = rng.choice(["udp", "tcp"])
    if rng.random() < 0.85 or near:
        keys.append("proto " + ("icmp6" if v6 and proto == "icmp" else proto))
    else:
        proto = None
    if rng.random() < 0.6:
        keys.append("src " + prefix(rng))
    if near:
        keys.append("dst " + rng.choice(["2001:2:0:1::1/128", "2001:2:0:1::/64"] if v6 else
                                         ["198.19.0.1/32", "198.19.0.0/24"]))
    else:
        keys.append("dst " + prefix(rng))   # disjoint from the traffic
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
    ap.add_argument("--family", choices=["ipv4", "ipv6", "mixed"], default="ipv4",
                    help="the rules' family (default ipv4); mixed: each rule's drawn")
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
    fam = args.family
    if fam == "mixed" and args.count < 2:
        ap.error("--family mixed needs --count 2 or more (a rule for each family's traffic)")
    hit6 = -1 if fam == "ipv4" else hit if fam == "ipv6" else hit - 1 if hit > 0 else hit + 1
    hit4 = -1 if fam == "ipv6" else hit
    if fam == "ipv4":
        out.append("# acl-%d.rules: generated by scripts/gen-rules.py --count %d --seed %d"
                   % (args.count, args.count, args.seed))
    else:
        out.append("# generated by scripts/gen-rules.py --count %d --seed %d --family %s"
                   % (args.count, args.seed, fam))
    out.append("# Do not edit: regenerate. The built-in generator's default traffic")
    if hit4 >= 0:
        out.append("# (udp 198.18.0.1-254:1024-65535 -> 198.19.0.1:9) matches rule %d of %d"
                   % (hit4 + 1, args.count))
    if hit6 >= 0:
        out.append("# (udp6 2001:2::1-fe:1024-65535 -> 2001:2:0:1::1:9) matches rule %d of %d"
                   % (hit6 + 1, args.count))
    out.append("# only; nothing else matches it.")
    out.append("default pass")
    for i in range(args.count):
        prio = base + i * step
        if i == hit4:
            out.append("# the generator's traffic")
            out.append("prio %d proto udp src %s dst %s/32 sport 1024-65535 dport %d action pass"
                       % (prio, GEN_SRC, GEN_DST, GEN_DPORT))
        elif i == hit6:
            out.append("# the generator's IPv6 traffic")
            out.append("prio %d proto udp src %s dst %s/128 sport 1024-65535 dport %d action pass"
                       % (prio, GEN_SRC6, GEN_DST6, GEN_DPORT))
        else:
            v6 = fam == "ipv6" or (fam == "mixed" and rng.random() < 0.5)
            out.append(rand_rule(rng, prio, v6))
    text = "\n".join(out) + "\n"
    # as pktpath writes an output: never a FIFO, every write checked
    if args.output:
        pktpath_files.write_out("gen-rules.py", args.output, text.encode())
    else:
        pktpath_files.write_stdout("gen-rules.py", text)


if __name__ == "__main__":
    main()
