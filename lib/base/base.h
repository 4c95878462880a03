/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_BASE_H
#define PKTPATH_BASE_H

/**
 * @file
 * What every library may use, lib/bench included: functions of plain values
 * that more than one library needs and no layer owns. No state, no
 * allocation, no DPDK: libc only, so that lib/bench, which stands apart from
 * the layers (app -> export -> stats -> ingress -> path -> pkt -> mib), can
 * depend on it as the layers do, and nothing here can reach up into them.
 *
 *  - Enum names: each enum's name table stands next to its enum, in its
 *    library's header (mib_fold_names[], ingress_mode_names[], ...), and
 *    every parse() of a name is base_name_index() over that table; the
 *    option parser reads the same tables for its choices.
 *  - Figures over repetitions: base_median(), the min/median/max that
 *    lib/bench reports for its repetitions and --compare for its rounds;
 *    base_quantile(), the p99 of the fold times the stats report.
 *  - Untrusted text in messages: base_quote() (its own section below).
 *
 * Thread-safety: every function is safe from any thread (they touch only
 * their arguments).
 */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The index of s in names[0 .. n-1] (exact, case-sensitive match; NULL
 * entries never match), or -1 when s is NULL or none matches.
 */
int base_name_index(const char *const *names, unsigned int n, const char *s);

/**
 * The median of n values (the mean of the middle two when n is even; 0 when
 * n is 0). Sorts v in place; min and max (may be NULL) get the extremes (0
 * when n is 0).
 */
double base_median(double *v, unsigned int n, double *min, double *max);

/**
 * The q-quantile (0 < q <= 1) of n values by the nearest-rank method (the
 * smallest value with at least q * n values at or below it; 0 when n is 0).
 * Sorts v in place.
 */
double base_quantile(double *v, unsigned int n, double q);

/*
 * Untrusted text in messages (quote.c)
 * ------------------------------------
 * Whatever came from outside -- an option's value, a line or a key of an INI
 * file, a word of a rules file, a pcap-filter expression and libpcap's
 * reason (which quotes it), a file, object or section name, an HTTP
 * request's path, body or parameter -- goes through base_quote() before an
 * error or log line echoes it: such a line stays one line, and no raw
 * control byte (an ESC that would drive the terminal, a newline that would
 * forge a second log line) reaches stderr, a log or an HTTP reply.
 */

/** A buffer for one quoted value in a message (base_quote()'s len). */
#define BASE_QUOTE_LEN 128

/**
 * s rendered for a one-line message into buf (len bytes; NUL-terminated
 * when len > 0): printable ASCII and valid UTF-8 characters as they are;
 * a backslash as \\; newline, tab and carriage return as \n, \t, \r;
 * every other control byte (0x01-0x1f, 0x7f), C1 control character
 * (U+0080-U+009F) and byte of no valid UTF-8 character (RFC 3629: no
 * overlong form, no surrogate) as \xNN. A rendering longer than len - 1
 * bytes is cut between two characters (never inside an escape or a UTF-8
 * sequence) and ends with "...". s NULL renders as "".
 *
 * @return buf, for use as a printf argument.
 */
const char *base_quote(char *buf, size_t len, const char *s);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_BASE_H */
