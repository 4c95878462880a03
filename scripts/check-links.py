#!/usr/bin/env python3
"""Every relative link of every markdown file of the tree leads somewhere.

    scripts/check-links.py [SOURCE_DIR]     (the `links` unit test)

For each tracked *.md file (git ls-files; every *.md under SOURCE_DIR when
it is not a git checkout), each markdown link [text](target) outside code
blocks and code spans whose target is not a URL must name a file or folder
that exists, and its #anchor, if any, a heading of the target file (the
anchor GitHub makes of it: lower case, punctuation but '-' and '_' dropped,
spaces made '-', a repeated heading suffixed -1, -2 ...). A file named
with an anchor must be markdown. Prints one line a broken link
(FILE:LINE: target: why), then a count; exit status 1 when any.
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r"(?<!\!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")
SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def md_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "*.md", "**/*.md"],
                             capture_output=True, text=True, check=True).stdout
        files = sorted(set(f for f in out.splitlines() if f))
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") and not x.startswith("build")]
        files += [os.path.relpath(os.path.join(d, n), root) for n in names if n.endswith(".md")]
    return sorted(files)


def lines_outside_code(text):
    """(line number, line, line with code spans blanked) outside fenced
    blocks."""
    fence = None
    for no, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield no, line, SPAN.sub(lambda s: " " * len(s.group(0)), line)


def anchor(heading):
    h = re.sub(r"<[^>]+>", "", heading).strip().lower()
    h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", h)
    return re.sub(r"[^\w\- ]", "", h).replace(" ", "-")


_anchors = {}


def anchors(path):
    if path not in _anchors:
        seen = {}
        out = set()
        with open(path, encoding="utf-8") as f:
            for _, line, _ in lines_outside_code(f.read()):
                m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if not m:
                    continue
                a = anchor(m.group(1))
                n = seen.get(a, 0)
                seen[a] = n + 1
                out.add(a if n == 0 else "%s-%d" % (a, n))
        # explicit HTML anchors: <a name="x"></a> or id="x"
        with open(path, encoding="utf-8") as f:
            out |= set(re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", f.read()))
        _anchors[path] = out
    return _anchors[path]


def blanked(text):
    """The text with fenced blocks and code spans blanked, offsets kept."""
    out = text.split("\n")
    keep = {no: b for no, _, b in lines_outside_code(text)}
    return "\n".join(keep.get(i + 1, " " * len(line)) for i, line in enumerate(out))


def check(root):
    bad = []
    files = md_files(root)
    for rel in files:
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as f:
            text = blanked(f.read())
        # a link's text may run over lines; its target may not
        for m in list(LINK.finditer(text)) + list(IMAGE.finditer(text)):
            target = m.group(1)
            no = text.count("\n", 0, m.start(1)) + 1
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto:
            file_part, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                if file_part else path
            where = "%s:%d: %s" % (rel, no, target)
            if not os.path.realpath(dest).startswith(os.path.realpath(root)):
                bad.append("%s: leaves the tree" % where)
                continue
            if not os.path.exists(dest):
                bad.append("%s: no such file" % where)
                continue
            if not frag:
                continue
            if not dest.endswith(".md"):
                bad.append("%s: an anchor into a file that is not markdown" % where)
            elif frag not in anchors(dest):
                bad.append("%s: no heading '%s' in %s" %
                           (where, frag, os.path.relpath(dest, root)))
    return files, bad


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    files, bad = check(root)
    for b in bad:
        print(b)
    print("%d markdown files, %d broken links" % (len(files), len(bad)))
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
