#!/bin/sh
# SPDX-License-Identifier: ISC
# ctl_robust.sh -- the control socket against hostile and broken clients,
# with a real dcbxd in a namespace (prefix "k"): garbage, a half line then
# a disconnect, a line over the 4 MiB limit, non-JSON, an unknown command,
# arguments of the wrong type each get an error line or are dropped, while
# a second client keeps getting answers throughout (its worst latency is
# printed); a subscriber that never reads is dropped without stalling the
# daemon; the socket is 0660 with the configured group, and a user outside
# that group gets dcbctl's "permission denied".
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/ctl.sh"
DCBXD=$top_builddir/daemon/dcbxd
DCBCTL=$top_builddir/ctl/dcbctl
need_root
need_cmd ip timeout stat
[ -x "$DCBXD" ] && [ -x "$DCBCTL" ] || skip_all "dcbxd or dcbctl not built"
ip netns add "kprobe$$" 2>/dev/null || skip_all "cannot create network namespaces here"
ip netns del "kprobe$$"
# A group that exists on Debian and that nobody (65534) is not in.
GRP=users
getent group "$GRP" >/dev/null || skip_all "group $GRP missing"
GID=$(getent group "$GRP" | cut -d: -f3)

plan 17
ns_setup k
chmod 755 "$NS_TMP"
ns_add r || bail "namespace"
ip -n "$(ns_name r)" link add kr0 type veth peer name kr1 || bail "veth"
ip -n "$(ns_name r)" link set kr0 up && ip -n "$(ns_name r)" link set kr1 up
cat >"$NS_TMP/r.conf" <<EOF
dcbxd: { tx-interval = 30; control-group = "$GRP"; };
ports = ( { match = "kr0"; role = "controller"; mode = "ieee";
  backend = "readonly"; } );
EOF
SOCK=$NS_TMP/r.sock
bg_start r "$NS_TMP/r.log" "$DCBXD" -d -c "$NS_TMP/r.conf" -s "$SOCK"
PID=$BG_PID
wait_for 10 test -S "$SOCK" || bail "dcbxd did not start: $(cat "$NS_TMP/r.log")"

cat >"$NS_TMP/robust.py" <<'EOP'
import json, os, socket, sys, threading, time

path = sys.argv[2]

def conn():
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(60)	# a bound (the script has 120 s), not a limit on latency
    s.connect(path)
    return s

def lines(s):
    buf = b""
    while True:
        while b"\n" in buf:
            l, buf = buf.split(b"\n", 1)
            yield json.loads(l)
        d = s.recv(1 << 20)
        if not d:
            return
        buf += d

def ask(s, it, raw):
    s.sendall(raw)
    return next(it)

# The bystander: a request every 10 ms, every answer checked; it records
# its worst latency and any failure.
class Bystander(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.stop, self.n, self.worst, self.err = False, 0, 0.0, None
    def run(self):
        try:
            s = conn(); it = lines(s)
            while not self.stop:
                t = time.time()
                r = ask(s, it, b'{"cmd":"show-ports"}\n')
                if not r.get("ok") or r["result"][0]["ifname"] != "kr0":
                    self.err = "bad answer %r" % r
                    return
                self.worst = max(self.worst, time.time() - t)
                self.n += 1
                time.sleep(0.01)
        except Exception as e:
            self.err = "%s: %s" % (type(e).__name__, e)

def expect_error(raw, code, text=None):
    s = conn(); it = lines(s)
    r = ask(s, it, raw)
    s.close()
    good = r.get("ok") is False and r.get("code") == code and \
        (text is None or text in r.get("error", ""))
    if not good:
        print("got %r" % r, file=sys.stderr)
    return good

def wait_until(cond, limit):
    end = time.time() + limit
    while not cond() and time.time() < end:
        time.sleep(0.01)
    return cond()

# The bystander is answered before the hostile case and again after it
# has done its damage (bounded waits, not a latency limit: a busy machine
# only makes them longer); its worst latency is printed.
def case(name):
    by = Bystander(); by.start()
    served = wait_until(lambda: by.n > 0 or by.err, 20) and not by.err
    ok = CASES[name]()
    n_after = by.n
    served = served and wait_until(lambda: by.n > n_after or by.err, 20)
    by.stop = True; by.join(10)
    if by.err or not served:
        print("bystander: %s (%d answers)" % (by.err, by.n), file=sys.stderr)
        ok = False
    print("%s: bystander %d answers, worst %.1f ms" % (name, by.n,
          by.worst * 1000))
    return ok

def garbage():
    return expect_error(bytes(range(1, 256)).replace(b"\n", b"") + b"\n",
                        "EINVAL", "invalid JSON")

def half_line():
    for i in range(50):
        s = conn(); s.sendall(b'{"cmd":"show-po'); s.close()
    s = conn(); s.sendall(b'{"cmd":"version"}')	# no newline, then EOF
    s.shutdown(socket.SHUT_WR)
    r = s.recv(100)
    s.close()
    return r == b""		# nothing answered, connection closed

def huge():
    s = conn(); it = lines(s)
    try:
        s.sendall(b'{"cmd":"version","args":{"x":"' + b"a" * (5 << 20))
    except (BrokenPipeError, ConnectionResetError):
        pass
    r = next(it)
    try:
        eof = next(it, "eof")
    except ConnectionResetError:	# closed with our bytes unread
        eof = "eof"
    s.close()
    return (r.get("code") == "EINVAL" and "longer than" in r["error"] and
            eof == "eof")

def non_json():
    return (expect_error(b"hello\n", "EINVAL") and
            expect_error(b"[1,2]\n", "EINVAL", "JSON object") and
            expect_error(b'{"cmd":"version"} trailing\n', "EINVAL"))

def unknown_cmd():
    return expect_error(b'{"cmd":"format-disk"}\n', "EOPNOTSUPP")

def wrong_types():
    bad = [b'{"cmd":5}', b'{"cmd":"show-dcbx","args":{"dev":5}}',
           b'{"cmd":"show-dcbx","args":[]}',
           b'{"cmd":"show-dcbx","args":{"dev":"kr0","x":1}}',
           b'{"cmd":"show-dcbx","args":{"dev":"' + b"x" * 40 + b'"}}',
           b'{"cmd":"set","args":{"dev":"kr0","ets":{"tc_bw":"x"}}}',
           b'{"cmd":"set","args":{"dev":"kr0","ets":{"tc_bw":[1,2]}}}',
           b'{"cmd":"set","args":{"dev":"kr0","pfc":{"prio_pfc":[1,0,0,0,0,0,0,0]}}}',
           b'{"cmd":"set","args":{"dev":"kr0","app":[{"selector":"dscp"}]}}',
           b'{"cmd":"set","args":{"dev":"kr0","pfc":{},"persist":"yes"}}',
           b'{"cmd":"set","args":{"dev":"kr0","ets":{"tc_bw":[90,20,0,0,0,0,0,0]}}}',
           b'{"cmd":"version","cmd":"version"}']
    ok = all(expect_error(b + b"\n", "EINVAL") for b in bad)
    # Nothing of it changed the port's policy.
    s = conn(); it = lines(s)
    r = ask(s, it, b'{"cmd":"show-dcbx","args":{"dev":"kr0"}}\n')["result"]
    return ok and r["ets"]["admin"]["tc_bw"] == [100] + [0] * 7 and \
        not any(r["pfc"]["admin"]["prio_pfc"])

def pipelined():
    s = conn(); it = lines(s)
    s.sendall(b'{"cmd":"version"}\nnot json\n' * 500)
    rs = [next(it) for _ in range(1000)]
    return all(r["ok"] for r in rs[0::2]) and not any(r["ok"] for r in rs[1::2])

# A subscriber that never reads while 10000 changes make 20000 events (each
# oper-changed carries the port's DCBX object): it must be dropped at its
# 8 MiB backlog and the daemon keep answering.
def slow_subscriber():
    sub = conn()
    sub.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sub.sendall(b'{"cmd":"subscribe"}\n')
    s = conn(); it = lines(s)
    # The daemon reads our requests only as fast as it answers them (and
    # we read the answers): sendall's timeout is for all 950 kB at once.
    s.settimeout(30)
    req = b''.join(b'{"cmd":"set","args":{"dev":"kr0","pfc":{"prio_pfc":'
                   b'[false,false,false,%s,false,false,false,false]}}}\n' %
                   (b"true" if i % 2 else b"false") for i in range(10000))
    t = time.time()
    # The daemon stops reading while our answers pile up: write from a
    # thread and read here.
    w = threading.Thread(target=s.sendall, args=(req,), daemon=True)
    w.start()
    rs = [next(it) for _ in range(10000)]
    w.join(10)
    print("10000 set requests answered in %.2f s" % (time.time() - t))
    # Now drain the subscriber: it must end (dropped), well before the
    # 4000 x 2 events it would otherwise get.
    sub.settimeout(5)
    n = 0
    try:
        while True:
            d = sub.recv(1 << 16)
            if not d:
                break
            n += d.count(b"\n")
    except (ConnectionResetError, socket.timeout):
        pass
    print("the slow subscriber got %d lines before it was dropped" % n)
    return all(r["ok"] for r in rs) and 0 < n < 20000

CASES = {"garbage": garbage, "half-line": half_line, "huge": huge,
         "non-json": non_json, "unknown-cmd": unknown_cmd,
         "wrong-types": wrong_types, "pipelined": pipelined,
         "slow-subscriber": slow_subscriber}
sys.exit(0 if case(sys.argv[1]) else 1)
EOP

robust() {
	_name=$1; shift
	if timeout 120 $PY "$NS_TMP/robust.py" "$1" "$SOCK" >"$NS_TMP/out" 2>&1
	then ok "$_name"; else not_ok "$_name"; fi
	diag "$(cat "$NS_TMP/out")"
}
robust "garbage bytes: EINVAL, bystander served" garbage
robust "half lines then disconnect: nothing answered, bystander served" half-line
robust "a 5 MiB line: EINVAL \"longer than\", then closed" huge
robust "non-JSON, a non-object, trailing junk: EINVAL" non-json
robust "unknown command: EOPNOTSUPP" unknown-cmd
robust "wrong argument types and bad values: EINVAL, nothing changed" wrong-types
robust "1000 pipelined requests in one write: 1000 answers in order" pipelined
robust "a subscriber that never reads is dropped; 10000 sets answered" slow-subscriber
check "the daemon logged the slow subscriber's drop" \
    grep -q "subscriber too slow" "$NS_TMP/r.log"
check "the daemon is still running" kill -0 "$PID"
check "dcbctl still answers" sh -c "timeout 10 '$DCBCTL' -s '$SOCK' show ports >/dev/null"

# Permissions.
check "socket mode 0660" [ "$(stat -c %a "$SOCK")" = 660 ]
check "socket group is control-group ($GRP)" [ "$(stat -c %G "$SOCK")" = "$GRP" ]
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$DCBCTL" -s "$SOCK" show ports >"$NS_TMP/o" 2>"$NS_TMP/e"
	rc=$?
	check "nobody outside $GRP: exit 5 (permission denied)" [ $rc -eq 5 ]
	check "... with \"permission denied\"" [ "$(cat "$NS_TMP/e")" = \
	    "dcbctl: cannot connect to $SOCK: permission denied" ]
	check "nobody inside $GRP may use it" sh -c "setpriv --reuid=65534 \
	    --regid=65534 --groups=$GID '$DCBCTL' -s '$SOCK' version >/dev/null"
else
	skip "setpriv missing" "nobody: exit 5"
	skip "setpriv missing" "permission denied"
	skip "setpriv missing" "group member"
fi
check_clean "no sanitizer report" "$NS_TMP/r.log"
finish
