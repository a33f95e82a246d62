#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbctl's contract with the operator, without the real daemon: a one-line
# reason and a non-zero exit when the daemon is absent, the socket is not
# ours, an argument is bad or the daemon refuses; requests and results on
# the wire as proto.h says (a stand-in server, tests/ctl/fakectl.py),
# including a 5000-neighbour answer on one line.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/ctl.sh"
command -v "$PY" >/dev/null 2>&1 || skip_all "needs python3 (not installed)"
dcbctl="$top_builddir/ctl/dcbctl"
[ -x "$dcbctl" ] || skip_all "ctl/dcbctl not built"
plan 15
tmp=$(mktemp -d)
chmod 755 "$tmp"
srv=""
cleanup() { [ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

# expect_err NAME LINE CMD...: CMD fails and stderr is exactly LINE.
expect_err() {
	_n=$1 _l=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	_rc=$?
	if [ $_rc -ne 0 ] && [ "$(cat "$tmp/err")" = "$_l" ]; then ok "$_n"
	else not_ok "$_n"; diag "rc $_rc, stderr: $(cat "$tmp/err")"; fi
}
json_is() {
	$PY -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}

expect_err "no socket: daemon not running?" \
    "dcbctl: cannot connect to $tmp/none.sock: daemon not running?" \
    "$dcbctl" -s "$tmp/none.sock" show ports
$PY -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$tmp/dead.sock"
expect_err "socket without a listener: daemon not running?" \
    "dcbctl: cannot connect to $tmp/dead.sock: daemon not running?" \
    "$dcbctl" -s "$tmp/dead.sock" show ports
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	mkdir "$tmp/priv" && chmod 700 "$tmp/priv"
	$PY -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$tmp/priv/d.sock"
	expect_err "socket we may not open: permission denied" \
	    "dcbctl: cannot connect to $tmp/priv/d.sock: permission denied" \
	    setpriv --reuid=65534 --regid=65534 --clear-groups "$dcbctl" -s "$tmp/priv/d.sock" show ports
else
	skip "needs root and setpriv to drop to nobody" "permission denied"
fi
expect_err "bad argument refused before connecting" \
    "dcbctl: In TC:BW mapping, BW is expected to be 0..100" \
    "$dcbctl" -s "$tmp/none.sock" set ets dev eth0 tc-bw 0:140
expect_err "unknown command" \
    'dcbctl: unknown command "shwo" (see dcbctl help)' "$dcbctl" shwo
expect_err "show dcbx without dev" \
    "dcbctl: show dcbx: expected dev IF" "$dcbctl" show dcbx

# The stand-in daemon's answers.
$PY - "$tmp/answers.json" <<'PY'
import json, sys
ets = {"willing": False, "ets_cap": 8, "cbs": False, "tc_bw": [50, 50, 0, 0, 0, 0, 0, 0],
       "tc_tsa": ["ets"] * 6 + ["strict", "ets"], "prio_tc": [0, 0, 0, 1, 1, 0, 6, 0]}
pfc = {"willing": False, "macsec_bypass": False, "pfc_cap": 8, "prio_pfc": [False] * 3 + [True] + [False] * 4, "delay": 0}
app = [{"selector": "dscp", "protocol": 26, "priority": 3}]
dcbx = {"ifname": "eth0", "mode": "auto", "active": "ieee", "role": "controller", "peer_mac": "02:00:00:00:00:02",
        "ets": {"status": "local", "reason": "", "admin": ets, "reco": None, "peer": None, "oper": ets},
        "pfc": {"status": "local", "reason": "", "admin": pfc, "peer": pfc, "oper": pfc},
        "app": {"status": "local", "reason": "", "admin": app, "peer": None, "oper": app}}
nb = [{"ifname": "eth%d" % (i % 64), "chassis_id": "02:00:00:%02x:%02x:01" % (i >> 8, i & 255),
       "chassis_id_type": "mac", "port_id": "port%d" % i, "port_id_type": "ifname",
       "sys_name": "sw%d" % i, "agent": "nearest-bridge", "ttl": 120, "ttl_left": 99,
       "dcbx": "ieee"} for i in range(5000)]
ans = {"show-dcbx": {"ok": True, "result": dcbx},
       "show-neighbors": {"ok": True, "result": nb},
       "set": {"ok": True, "result": dcbx},
       "show-ports": {"ok": False, "error": "no such port: eth9", "code": "ENODEV"},
       "subscribe": {"ok": True, "result": {}},
       "events": [{"event": "link", "ifname": "eth0", "link": "down"},
                  {"event": "dcbx", "ifname": "eth0", "feature": "pfc", "status": "peer", "reason": "adopted"}]}
json.dump(ans, open(sys.argv[1], "w"))
PY
sock="$tmp/d.sock"
$PY "$top_srcdir/tests/ctl/fakectl.py" "$sock" "$tmp/answers.json" "$tmp/log" --max 20 --timeout 60 &
srv=$!
wait_for 10 test -S "$sock" || bail "stand-in server did not start"

expect_err "the daemon's error is printed" "dcbctl: no such port: eth9" \
    "$dcbctl" -s "$sock" show ports
"$dcbctl" -s "$sock" -j show neighbors >"$tmp/nb.json"
check "5000 neighbours on one line arrive whole" json_is "$tmp/nb.json" \
    'len(j) == 5000 and j[4999]["sys_name"] == "sw4999"'
"$dcbctl" -s "$sock" show neighbors >"$tmp/nb.txt"
check "show neighbors prints a header and 5000 rows" \
    sh -c "[ \$(wc -l <'$tmp/nb.txt') -eq 5001 ] && head -1 '$tmp/nb.txt' | grep -q '^IFNAME  *AGENT  *CHASSIS-ID'"
"$dcbctl" -s "$sock" show ets dev eth0 >"$tmp/ets.txt"
check "show ets prints dcb's vocabulary" sh -c \
    "grep -qx 'willing off ets-cap 8 cbs off' '$tmp/ets.txt' && grep -qx 'tc-bw 0:50 1:50 2:0 3:0 4:0 5:0 6:0 7:0' '$tmp/ets.txt' && grep -qx 'tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets' '$tmp/ets.txt'"
"$dcbctl" -s "$sock" -j show pfc dev eth0 >"$tmp/pfc.json"
check "show pfc -j prints the oper PFC object" json_is "$tmp/pfc.json" \
    'j["prio_pfc"][3] is True and j["pfc_cap"] == 8'
"$dcbctl" -s "$sock" show app dev eth0 >"$tmp/app.txt"
check "show app prints dcb app's selector lines" grep -qx 'dscp-prio 26:3' "$tmp/app.txt"

: >"$tmp/log"
"$dcbctl" -s "$sock" set ets dev eth0 tc-bw 0:60 1:30 2:10 --persist
check "set sends only the edited elements, with persist" $PY -c '
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
assert [r["cmd"] for r in reqs] == ["show-dcbx", "set"], reqs
assert reqs[1]["args"] == {"dev": "eth0", "persist": True,
    "ets": {"tc_bw": [60, 30, 10, None, None, None, None, None]}}, reqs[1]' "$tmp/log"
expect_err "set is validated against the daemon's admin config" \
    "dcbctl: ets: tc-bw sums to 130, not 100, with a TC using ets" \
    "$dcbctl" -s "$sock" set ets dev eth0 tc-bw 2:30
"$dcbctl" -s "$sock" monitor >"$tmp/mon.txt" 2>/dev/null
check "monitor prints one line per event, time-stamped" sh -c \
    "[ \$(wc -l <'$tmp/mon.txt') -eq 2 ] && grep -Eqx '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}[+-][0-9]{4} dcbx eth0 feature=pfc status=peer reason=adopted' '$tmp/mon.txt'"
finish
