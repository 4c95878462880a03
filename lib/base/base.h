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
 *    every parse() of a name is base_name_index() over that table and
 *    every *_name() of a value BASE_ENUM_NAME() ("?" out of range); the
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
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The number of entries of an array (an array, not a pointer). */
#define BASE_DIM(a) (sizeof(a) / sizeof((a)[0]))

/**
 * The name of value v in names[0 .. n-1], or "?" when v is out of range or
 * its entry is NULL: never NULL, so that a name can always be printed. Every
 * enum's *_name() is BASE_ENUM_NAME() over the enum's name table.
 */
const char *base_name(const char *const *names, unsigned int n, unsigned int v);

/** The name of enum value v in names[], a complete array (see base_name()). */
#define BASE_ENUM_NAME(names, v) \
	base_name((names), (unsigned int)BASE_DIM(names), (unsigned int)(v))

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

/**
 * v * mul / div without the overflow of computing v * mul first: TSC
 * cycles to a unit (cycles, 1000000, hz: microseconds) wrapped after
 * 2^64 / mul cycles (two hours of a 2.6 GHz TSC for microseconds). Exact
 * (the floor of the true quotient) when the result fits in 64 bits and
 * (div - 1) * mul does; saturates at UINT64_MAX when the result does not
 * fit; 0 when div is 0.
 */
uint64_t base_scale(uint64_t v, uint64_t mul, uint64_t div);

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
/* ------------------------------------------------------------------ */
/* Files (base_file.c): how every file pktpath reads or writes is     */
/* opened, so that none blocks the process and no write fails         */
/* silently.                                                          */
/* ------------------------------------------------------------------ */

/*
 * Inputs (--config, --rules and its SIGHUP reload, --rules-alt, --template,
 * --bpf-obj and its SIGHUP reload, pktpath-bench --rules) are regular
 * files: the open never blocks (O_NONBLOCK: a FIFO with no writer, a tty,
 * a device that waits), fstat() then refuses anything else with one line
 * naming the path and what it is ("x: a FIFO, not a regular file"), and a
 * size bound where the input has one is checked before a byte is read. A
 * regular file's reads end in bounded time, so a reload never hangs the
 * loop that asked for it.
 *
 * Outputs (--json, --capture, pktpath-bench --json) are regular files
 * (created, or truncated) or character devices (/dev/null; /dev/full,
 * whose writes fail with ENOSPC as a full file system's do; a terminal).
 * A FIFO, a socket, a directory or a block device is refused at the open,
 * with one line: a FIFO's reader may come late or never, and pktpath never
 * waits on one. Every write is checked, short writes are carried on, and
 * the last step of an output (fsync() of a regular file, close()) is
 * checked too: a full file system, a quota or an I/O error is reported
 * with its errno, never dropped.
 *
 * Messages name the path first ("PATH: reason"); callers put the option
 * before it ("pktpath: --rules PATH: a FIFO, not a regular file").
 * base_file_read() is the one function of lib/base that allocates (the
 * buffer it returns). Thread-safety: every function is safe from any
 * thread (each touches only its arguments and the descriptor it is given).
 */

#include <stddef.h>
#include <stdint.h>

/**
 * What an st_mode says a file is, for a refusal: "a regular file", "a
 * directory", "a FIFO", "a character device", "a block device", "a
 * socket", "a symbolic link" or "a file of unknown type".
 */
const char *base_file_kind(unsigned int st_mode);

/**
 * Open an input: path must name a regular file (through symbolic links)
 * of at most max bytes (0: no bound).
 * @param size    out (may be NULL): its size when opened
 * @param err     on failure one line naming path ("PATH: cannot open:
 *                No such file or directory", "PATH: a FIFO, not a regular
 *                file", "PATH: 2147483648 bytes, over the limit of 16 MiB")
 * @return a descriptor (O_CLOEXEC, blocking), or -errno: open()'s, -EISDIR
 *         (a directory), -EINVAL (any other non-regular file), -EFBIG.
 */
int base_file_open_in(const char *path, uint64_t max, uint64_t *size,
		      char *err, size_t errlen);

/**
 * Read a whole input (base_file_open_in(), then at most the size it had
 * when opened) into *buf, malloc()'d and NUL-terminated (free() it); *len
 * is its length without the NUL.
 * @return 0, or -errno with one line in err (those of base_file_open_in(),
 *         "PATH: read: Input/output error", "PATH: out of memory (N bytes)").
 */
int base_file_read(const char *path, uint64_t max, char **buf, size_t *len,
		   char *err, size_t errlen);

/**
 * Open an output: a regular file (created with mode 0666 less the umask,
 * or truncated) or a character device; anything else is refused.
 * @param err  on failure one line naming path ("PATH: a FIFO, not a
 *             regular file or a character device", "PATH: cannot open:
 *             Permission denied")
 * @return a descriptor (O_CLOEXEC, blocking), or -errno (open()'s;
 *         -EISDIR, -EINVAL for what an output may not be).
 */
int base_file_open_out(const char *path, char *err, size_t errlen);

/**
 * Write len bytes to fd, going on after short writes and EINTR.
 * @param done  out (may be NULL): the bytes written, whatever the result
 * @return 0, or -errno of the write that failed (-ENOSPC, -EIO, -EDQUOT,
 *         -EFBIG...; -EIO for a write that wrote nothing without an error).
 */
int base_file_write_all(int fd, const void *buf, size_t len, size_t *done);

/**
 * Finish an output: fsync() when fd is a regular file (a delayed write
 * error shows there), then close(). fd is closed either way.
 * @return 0, or the first -errno.
 */
int base_file_close_out(int fd);

/**
 * base_file_write_all() of buf, then base_file_close_out() (fd is closed
 * either way).
 * @return 0, or -errno with one line in err naming path: "PATH: write: No
 *         space left on device (4096 of 10000 bytes written)", "PATH:
 *         close: Input/output error".
 */
int base_file_write_close(int fd, const char *path, const void *buf,
			  size_t len, char *err, size_t errlen);

/**
 * A whole output in one call: base_file_open_out(), then
 * base_file_write_close(). 0, or -errno with one line in err.
 */
int base_file_write(const char *path, const void *buf, size_t len,
		    char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_BASE_H */
