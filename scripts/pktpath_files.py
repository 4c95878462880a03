# SPDX-License-Identifier: BSD-3-Clause
"""Files as pktpath opens them (lib/base/base.h, "Files"), for the scripts.

An input is a regular file: the open never blocks (O_NONBLOCK: a FIFO with
no writer would hold the script forever), and anything else is refused with
one line naming the path and what it is. An output is a regular file
(created, or truncated) or a character device (/dev/null; /dev/full, whose
writes fail as a full file system's do); a FIFO, a socket, a directory or a
block device is refused. Every write is checked, and so are the fsync() and
close() that end an output: a failure is one line with its errno, and exit
status 1 (2 for a path that is not allowed).
"""
import os
import stat
import sys

KINDS = [(stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
         (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
         (stat.S_ISSOCK, "a socket"), (stat.S_ISREG, "a regular file")]


def kind(mode):
    """What an st_mode says a file is, as base_file_kind() says it."""
    for test, name in KINDS:
        if test(mode):
            return name
    return "a file of unknown type"


class _Exit(SystemExit):
    """SystemExit printing "PROG: MSG" with status code."""

    def __init__(self, prog, msg, code):
        print("%s: %s" % (prog, msg), file=sys.stderr)
        super().__init__(code)


def read_in(prog, path, limit=None):
    """The bytes of input path (a regular file of at most limit bytes)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode):
                raise _Exit(prog, "%s: %s, not a regular file" % (path, kind(st.st_mode)), 2)
        except OSError:
            pass
        raise _Exit(prog, "%s: cannot open: %s" % (path, e.strerror), 2) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _Exit(prog, "%s: %s, not a regular file" % (path, kind(st.st_mode)), 2)
        if limit is not None and st.st_size > limit:
            raise _Exit(prog, "%s: %d bytes, over the limit of %d" % (path, st.st_size, limit), 2)
        os.set_blocking(fd, True)
        chunks, left = [], st.st_size
        while left > 0:
            b = os.read(fd, left)
            if not b:
                break
            chunks.append(b)
            left -= len(b)
        return b"".join(chunks)
    except OSError as e:
        raise _Exit(prog, "%s: read: %s" % (path, e.strerror), 1) from None
    finally:
        os.close(fd)


def write_out(prog, path, data):
    """Write data (bytes) to output path, all of it, or exit with one line."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK |
                     os.O_CLOEXEC, 0o666)
    except OSError as e:
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode) and not stat.S_ISCHR(st.st_mode):
                raise _Exit(prog, "%s: %s, not a regular file or a character device"
                            % (path, kind(st.st_mode)), 2) from None
        except OSError:
            pass
        raise _Exit(prog, "%s: cannot open: %s" % (path, e.strerror), 2) from None
    done = 0
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) and not stat.S_ISCHR(st.st_mode):
            raise _Exit(prog, "%s: %s, not a regular file or a character device"
                        % (path, kind(st.st_mode)), 2)
        os.set_blocking(fd, True)
        view = memoryview(data)
        while done < len(data):
            done += os.write(fd, view[done:])
        if stat.S_ISREG(st.st_mode):
            os.fsync(fd)
    except OSError as e:
        os.close(fd)
        raise _Exit(prog, "%s: write: %s (%d of %d bytes written)"
                    % (path, e.strerror, done, len(data)), 1) from None
    try:
        os.close(fd)
    except OSError as e:
        raise _Exit(prog, "%s: close: %s" % (path, e.strerror), 1) from None


def write_stdout(prog, text):
    """text to stdout, flushed; a failed write is one line and exit 1."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as e:
        # nothing more may go to the broken stream at exit
        sys.stdout = open(os.devnull, "w")
        raise _Exit(prog, "standard output: write failed: %s" % e.strerror, 1) from None
