#!/usr/bin/env bash
# Untrusted text in messages, through the real binary: a value holding every
# control byte (0x01-0x1f, 0x7f) and every high byte, given as an option,
# an INI value and key, a rules file's word and name, a pcap-filter
# expression, a BPF object's and section's name, a template's name, an HTTP
# path, method and body: each error is exactly one line (exit 2, or one
# line of reply body), and no raw control byte reaches stderr, the log or
# the reply (base_quote(), lib/base).
. "$(dirname "$0")/lib.sh"
OBJ=${BUILD_DIR:?}/config

python3 - "$PKTPATH" "$TMP" "$PREFIX" "$OBJ" <<'PY'
import os, re, socket, subprocess, sys, time

pktpath, tmp, prefix, obj = sys.argv[1:5]
C0 = bytes(range(1, 0x20)) + b"\x7f"
HIGH = bytes(range(0x80, 0x100))
ALL = C0 + HIGH
n = 0


def bad(b):
    """What is wrong in the bytes of one line, or None."""
    try:
        t = b.decode("utf-8")
    except UnicodeDecodeError:
        return "a byte of no UTF-8 character"
    for ch in t:
        if ord(ch) < 0x20 or ord(ch) == 0x7f:
            return "raw control byte 0x%02x" % ord(ch)
        if 0x80 <= ord(ch) <= 0x9f:
            return "raw C1 control U+%04X" % ord(ch)
    return None


def check_stream(what, data):
    """Every line of data (stderr or stdout) is clean."""
    for line in data.split(b"\n"):
        why = bad(line)
        if why:
            sys.exit("FAIL: %s: %s in %r" % (what, why, line))


def refuse(what, app, eal_extra=()):
    """pktpath must exit 2 with one stderr line of its own, clean."""
    global n
    n += 1
    eal = ["-l", "0-1", "--no-huge", "--no-shconf", "-m", "512", "--no-pci",
           "--file-prefix", "%s_q%d" % (prefix, n), "--log-level=lib.eal:error"]
    p = subprocess.run([os.fsencode(pktpath)] + [os.fsencode(a) if isinstance(a, str) else a
                       for a in eal + list(eal_extra) + ["--", "--http", "127.0.0.1:0"]]
                       + app, capture_output=True, timeout=120)
    lines = [l for l in p.stderr.split(b"\n")
             if l and not l.startswith((b"EAL:", b"TELEMETRY:"))]
    if p.returncode != 2 or len(lines) != 1:
        sys.exit("FAIL: %s: exit %d, %d lines: %r" % (what, p.returncode, len(lines), p.stderr))
    check_stream(what, p.stderr)
    check_stream(what + " (stdout)", p.stdout)
    return lines[0]


def write(name, data):
    path = os.path.join(os.fsencode(tmp), name)
    with open(path, "wb") as f:
        f.write(data)
    return path


v = b"1" + ALL + b"2"
refuse("option value", [b"--burst", v])
refuse("option name", [b"--bu" + ALL])
refuse("stray word", [v])
refuse("template name", [b"--template", b"/nonexistent/" + ALL.replace(b"/", b"") + b".pcap"])
refuse("--json name", [b"--json", b"/nonexistent/" + ALL.replace(b"/", b"") + b".json"])
# an INI file: a value and a key (a newline ends the line: not in them)
noline = ALL.replace(b"\n", b"")
ini = write(b"v.ini", b"[pktpath]\nburst = 1" + noline + b"2\n")
refuse("INI value", [b"--config", ini])
ini = write(b"k.ini", b"[pktpath]\nbu" + noline + b"rst = 1\n")
refuse("INI key", [b"--config", ini])
ini = write(b"s.ini", b"[pk" + noline.replace(b"]", b"") + b"]\nburst = 1\n")
refuse("INI section", [b"--config", ini])
refuse("INI file name", [b"--config", b"/nonexistent/" + ALL.replace(b"/", b"")])
# a rules file: the words split at blanks and lines, so a word holds the rest
word = bytes(b for b in ALL if b not in b" \t\n\r\v\f#")
rules = write(b"w.rules", b"prio 1 dport 1" + word + b"2 action drop\n")
refuse("rules word", [b"--ingress", b"rcu", b"--rules", rules])
rules = write(b"a.rules", b"action dr" + word + b"op\n")
refuse("rules action", [b"--ingress", b"rcu", b"--rules", rules])
rules = write(b"r" + ALL.replace(b"/", b"") + b".rules", b"bogus\n")
refuse("rules file name", [b"--ingress", b"rcu", b"--rules", rules])
# a tcpdump expression: libpcap's reason quotes the word it stopped at
refuse("filter", [b"--ingress", b"rcu", b"--ingress-kind", b"pcap-filter",
                  b"--filter", b"udp and 1" + ALL + b"2"])
refuse("filter word", [b"--ingress", b"rcu", b"--ingress-kind", b"pcap-filter",
                       b"--filter", b"host a" + ALL])
# a BPF object's name, and a section the object does not have
refuse("BPF object name", [b"--ingress", b"rcu", b"--ingress-kind", b"bpf", b"--bpf-obj",
                           b"/nonexistent/" + ALL.replace(b"/", b"") + b".o"])
refuse("BPF section", [b"--ingress", b"rcu", b"--ingress-kind", b"bpf", b"--bpf-obj",
                       os.path.join(os.fsencode(obj), b"drop_udp_port.o"),
                       b"--bpf-sec", b"s" + ALL[:60]])

# HTTP: one live pktpath, every byte in a path (percent-encoded), a mode
# value, a mode key and the method; each reply body one clean line.
out = open(os.path.join(tmp, "http.out"), "wb")
p = subprocess.Popen([pktpath, "-l", "0-1", "--no-huge", "--no-shconf", "-m", "512",
                      "--no-pci", "--file-prefix", prefix + "_qhttp",
                      "--log-level=lib.eal:error", "--log-level=pktpath.http:debug",
                      "--", "--http", "127.0.0.1:0", "--http-control", "--ingress", "rcu",
                      "--duration", "0", "--quiet"], stdout=out, stderr=subprocess.STDOUT)
port = None
for _ in range(600):
    m = re.search(rb"http: listening on http://127\.0\.0\.1:(\d+)/",
                  open(os.path.join(tmp, "http.out"), "rb").read())
    if m:
        port = int(m.group(1))
        break
    if p.poll() is not None:
        break
    time.sleep(0.1)
if port is None:
    p.kill()
    sys.exit("FAIL: no 'http: listening on' line")


def http(req):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(req)
    data = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        data += d
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]) if head else 0, body


try:
    for b in ALL:
        cases = [("path", b"GET /x%%%02xy HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n" % b)]
        for what, body in (("mode value", b"mode=r" + bytes([b]) + b"u"),
                           ("mode key", b"mo" + bytes([b]) + b"de=rcu")):
            cases.append((what, b"POST /ingress/mode HTTP/1.1\r\nHost: t\r\n"
                          b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body)
                          + body))
        if b not in b"\r\n":
            cases.append(("method", b"G" + bytes([b]) + b"T / HTTP/1.1\r\nHost: t\r\n"
                          b"Connection: close\r\n\r\n"))
        for what, req in cases:
            code, body = http(req)
            if code == 0:
                continue    # libmicrohttpd closed on a malformed request
            if code < 400 or not body.endswith(b"\n") or b"\n" in body[:-1]:
                sys.exit("FAIL: HTTP %s byte 0x%02x: %d %r" % (what, b, code, body))
            why = bad(body[:-1])
            if why:
                sys.exit("FAIL: HTTP %s byte 0x%02x: %s in %r" % (what, b, why, body))
finally:
    p.send_signal(2)
    rc = p.wait(timeout=60)
    out.close()
log = open(os.path.join(tmp, "http.out"), "rb").read()
check_stream("pktpath's output under HTTP requests", log)
if rc != 0:
    sys.exit("FAIL: pktpath exited %d after SIGINT" % rc)
print("quoting: %d refusals and %d bytes over HTTP, each one clean line" % (n, len(ALL)))
PY
echo "quoting: ok"
