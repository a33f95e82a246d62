#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""A stand-in control socket for dcbctl's tests, until golden tests run
against the real daemon: it speaks proto.h's protocol (one JSON request
line, one response line) and answers each "cmd" from a JSON file
{"cmd": response-object, ...}; "subscribe" answers ok then sends the
"events" list.  Every request line is appended to LOG.  Bounded: it exits
after --max connections or --timeout seconds.

usage: fakectl.py SOCKET ANSWERS.json LOG [--max N] [--timeout S]
"""
import json, os, socket, sys, time

def serve(path, answers, log, max_conn, timeout):
    if os.path.exists(path):
        os.unlink(path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(8)
    s.settimeout(timeout)
    deadline = time.time() + timeout
    for _ in range(max_conn):
        if time.time() > deadline:
            break
        try:
            c, _ = s.accept()
        except socket.timeout:
            break
        c.settimeout(5)
        f = c.makefile("rwb")
        try:
            for line in f:
                with open(log, "ab") as lf:
                    lf.write(line)
                req = json.loads(line)
                resp = answers.get(req.get("cmd"),
                                   {"ok": False, "error": "no answer for "
                                    + str(req.get("cmd")), "code": "EINVAL"})
                f.write(json.dumps(resp).encode() + b"\n")
                if req.get("cmd") == "subscribe":
                    for ev in answers.get("events", []):
                        f.write(json.dumps(ev).encode() + b"\n")
                    f.flush()
                    break
                f.flush()
        except (OSError, ValueError):
            pass
        c.close()
    s.close()
    os.unlink(path)

if __name__ == "__main__":
    a = sys.argv[1:]
    max_conn = int(a[a.index("--max") + 1]) if "--max" in a else 100
    timeout = float(a[a.index("--timeout") + 1]) if "--timeout" in a else 30
    with open(a[1]) as fp:
        answers = json.load(fp)
    serve(a[0], answers, a[2], max_conn, timeout)
