# SPDX-License-Identifier: ISC
# lldp_common.sh -- helpers for the dcbxd integration tests (sourced).
# Needs tap.sh and netns.sh first.  Daemons run from $top_builddir with -d,
# their own control socket and config in $NS_TMP.
DCBXD=${DCBXD:-$top_builddir/daemon/dcbxd}

dx_need() {
	need_root
	need_cmd ip python3
	[ -x "$DCBXD" ] || skip_all "dcbxd not built ($DCBXD)"
	ip netns add "dxprobe$$" 2>/dev/null || skip_all "cannot create network namespaces here"
	ip netns del "dxprobe$$"
}

# dx_conf FILE [INTERVAL HOLD [EXTRA-GLOBAL [PORTS]]]
dx_conf() {
	_ports=${5:-}
	[ -n "$_ports" ] || _ports='{ match = "d*"; }'
	cat >"$1" <<EOC
dcbxd: { tx-interval = ${2:-5}; tx-hold = ${3:-2}; ${4:-} };
ports = ( $_ports );
EOC
}

# dx_start NS NAME CONF [ARGS...]: dcbxd in NS, socket $NS_TMP/NAME.sock.
dx_start() {
	_ns=$1; _name=$2; _conf=$3; shift 3
	rm -f "$NS_TMP/$_name.sock"
	bg_start "$_ns" "$NS_TMP/$_name.log" "$DCBXD" -d -c "$_conf" \
	    -s "$NS_TMP/$_name.sock" "$@"
	eval "PID_$_name=$BG_PID"
	wait_for 10 test -S "$NS_TMP/$_name.sock"
}

# dx_q NAME CMD [ARGS-JSON]: print the result (JSON), fail on an error.
dx_q() {
	python3 - "$NS_TMP/$1.sock" "$2" "${3:-{\}}" <<'EOP'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
s.connect(sys.argv[1])
s.sendall((json.dumps({"cmd": sys.argv[2], "args": json.loads(sys.argv[3])}) + "\n").encode())
r = json.loads(s.makefile().readline())
if not r.get("ok"):
    print(json.dumps(r)); sys.exit(1)
print(json.dumps(r["result"]))
EOP
}

# dx_py NAME 'EXPR': evaluate EXPR with r = result of CMD (default
# show-neighbors); exit 0 if true.  Example: dx_py a 'len(r) == 1'
dx_eval() {
	_n=$1; _e=$2; _c=${3:-show-neighbors}; _a=${4:-{\}}
	dx_q "$_n" "$_c" "$_a" | python3 -c "import json,sys; r=json.load(sys.stdin); sys.exit(0 if ($_e) else 1)"
}

dx_nbrs() { dx_eval "$1" "len(r) == $2"; }

# dx_stat NAME IFNAME COUNTER: print one 802.1AB counter.
dx_stat() {
	dx_q "$1" show-stats "{\"dev\":\"$2\"}" | python3 -c "import json,sys; print(json.load(sys.stdin)[0]['lldp']['$3'])"
}

dx_sanitizer_clean() {	# no ASan/UBSan report in a daemon's log
	! grep -q "Sanitizer" "$NS_TMP/$1.log"
}

# dx_converge T0_NS TIMEOUT_S NAME...: poll every 2 ms until every daemon
# named has a neighbour; print the ms since T0_NS (date +%s%N) or fail.
dx_converge() {
	python3 - "$NS_TMP" "$@" <<'EOP'
import json, socket, sys, time
tmp, t0, limit, names = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
def nbrs(n):
    try:
        s = socket.socket(socket.AF_UNIX); s.settimeout(2)
        s.connect("%s/%s.sock" % (tmp, n))
        s.sendall(b'{"cmd":"show-neighbors"}\n')
        r = json.loads(s.makefile().readline()); s.close()
        return len(r.get("result") or [])
    except OSError:
        return 0
end = time.time() + limit
todo = set(names)
while todo and time.time() < end:
    todo = {n for n in todo if nbrs(n) == 0}
    if todo:
        time.sleep(0.002)
if todo:
    sys.exit(1)
print("%.1f" % ((time.time_ns() - t0) / 1e6))
EOP
}

# dx_logged_ms T0_NS PATTERN NAME...: ms from T0_NS to the latest of the
# first log line matching PATTERN in each daemon's log (log time stamps).
dx_logged_ms() {
	_t0=$1; _pat=$2; shift 2
	for _n in "$@"; do
		grep -m1 "$_pat" "$NS_TMP/$_n.log" | cut -d' ' -f1
	done | python3 -c "
import sys
v = [float(l) for l in sys.stdin if l.strip()]
if len(v) != $#: sys.exit(1)
print('%.1f' % (max(v) * 1000 - $_t0 / 1e6))"
}
