/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_INGRESS_RULES_H
#define PKTPATH_INGRESS_RULES_H

/**
 * @file
 * The "rules" classifier kind (rules_parse.c, rules.c, rules_key.c,
 * rules_ref.c): tc flower-like rules of IPv4, IPv6 or both from a file or a
 * string, looked up by a linear walk over a per-frame key for small sets
 * and by rte_acl for larger ones. The grammar
 * and the lookup are in lib/ingress/README.md ("Rules", "The lookup"); the
 * classifier objects and the hook that runs them are in ingress.h.
 */

#include <stddef.h>

#include "ingress.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest rules file ingress_rules_parse_file() reads: 65,536 rules (the
 *  most a set may have) of gen-rules.py's kind take 6 MiB. */
#define INGRESS_RULES_FILE_MAX (16 << 20)

/**
 * Parse and compile a rules file (grammar in the README and in
 * ingress_rules_parse_string()).
 *
 * @param path    the file
 * @param out     on success, the new classifier (caller owns it); untouched
 *                on failure
 * @param err     on failure, one line "FILE:LINE: reason" (or "FILE: reason"
 *                for errors without a line: unreadable file, compilation);
 *                the file's name and words are quoted (base_quote())
 * @param errlen  size of err (may be 0 with err NULL)
 * @return 0, or -EINVAL (syntax or value error, binary file, a path that
 *         is not a regular file: a FIFO is refused, never waited on),
 *         -ENOENT/-EACCES/-EISDIR/-EIO... (file), -EFBIG (a file over
 *         INGRESS_RULES_FILE_MAX, refused before it is read), -E2BIG (more
 *         than 65536 rules), -ENOMEM, or rte_acl_build()'s error (-ENOMEM,
 *         -ERANGE).
 *         Thread-safe (needs EAL: rte_acl allocates with rte_malloc).
 */
int ingress_rules_parse_file(const char *path, struct ingress_classifier **out,
			     char *err, size_t errlen);

/**
 * Parse and compile rules from a string.
 *
 * One rule a line; '#' starts a comment; blank lines are ignored.
 *   [prio N] [proto udp|tcp|icmp|icmp6|NUM] [src PREFIX] [dst PREFIX]
 *   [sport P|LO-HI] [dport P|LO-HI] [vlan ID|none] [dscp N]
 *   action pass|drop|mark N|count
 *   default pass|drop
 * PREFIX is A.B.C.D[/L] (L 0..32) or an IPv6 A[/L] (L 0..128), host bits
 * clear; an address makes the rule one family's (src and dst of one rule
 * agree), a rule without one is of both. Keys come in any order, each at
 * most once; every key but action is optional. prio is 0..65535 (default
 * 32768); rules are tried by ascending prio, ties in file order; the first
 * pass/drop/mark rule that matches decides; a count rule that matches sets
 * "matched" and the search goes on. No match: the default action (pass
 * unless a default line says drop).
 * IP keys (proto, src, dst, dscp) match only IPv4 frames whose header is
 * complete and IPv6 frames whose fixed header is (IPv6's proto: the upper
 * layer after at most 8 hop-by-hop, routing, destination-options and
 * fragment headers; its dscp: the traffic class's); ports only
 * unfragmented UDP/TCP with 4 bytes of L4 header (no IPv6 frame with a
 * fragment header has ports); a rule with no IP key also matches non-IP
 * and truncated frames. vlan ID matches the VID of one 802.1Q tag, vlan
 * none untagged frames.
 *
 * Each frame is reduced to a key once (20 bytes, 44 for IPv6); each family
 * has its own rules (its own and the family-less) and lookups: up to 16
 * rules are walked linearly over the key, more go through rte_acl, one
 * context per family (whose per-call cost only pays off beyond that: the
 * README's "The lookup"; rte_acl uses AVX512 when EAL runs with
 * --force-max-simd-bitwidth=512, AVX2 otherwise).
 * Both lookups are built for every set (ingress_rules_view()). Compiling
 * is done on the calling thread and is not cheap for big sets (seconds of
 * CPU and tens of MB of rte_malloc memory for config/rules/acl-10000.rules:
 * the README's "The lookup"); reuse a compiled set with
 * ingress_classifier_clone() rather than parsing it again.
 *
 * @param text  NUL-terminated rules
 * @param name  the FILE part of error messages and the description
 * Other params and return as ingress_rules_parse_file().
 */
int ingress_rules_parse_string(const char *text, const char *name,
			       struct ingress_classifier **out, char *err,
			       size_t errlen);

/** Number of rules (count rules included) of a "rules" classifier, or -EINVAL. */
int ingress_rules_count(const struct ingress_classifier *c);

/** The lookups a "rules" classifier has (all are built for every set). */
enum ingress_rules_view {
	INGRESS_RULES_VIEW_ACL,		/**< rte_acl */
	INGRESS_RULES_VIEW_SMALL,	/**< a linear walk over the extracted key */
	INGRESS_RULES_VIEW_REFERENCE,	/**< the naive reference: the frame parsed
					     again, the rules walked in order */
	INGRESS_RULES_VIEW_MAX		/**< count */
};

/**
 * A clone of a "rules" classifier that always uses lookup v (it shares c's
 * compiled data, as ingress_classifier_clone()): for tests and
 * measurements (pktpath-bench's ingress group), where the default choice
 * (the linear walk up to 16 rules, rte_acl above) must be overridden.
 * @return the clone (caller owns it), or NULL with rte_errno = EINVAL (c is
 *         not a "rules" classifier, v out of range) or ENOMEM.
 * Thread-safe, as ingress_classifier_clone().
 */
struct ingress_classifier *
ingress_rules_view(const struct ingress_classifier *c,
		   enum ingress_rules_view v);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_INGRESS_RULES_H */
