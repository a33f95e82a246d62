#!/bin/sh
# SPDX-License-Identifier: ISC
# metrics_slow.sh -- the metrics listener against slow clients and
# smuggling (issue 34 item 5).  200 clients that trickle a request (a byte
# every 100 ms, reconnecting when closed: evhttp's idle timeout never
# fires) do not starve the scrapes, from another address nor from their
# own: a whole request has request-timeout (1 s here) from the connect, a
# newcomer at a cap takes the place of the connection waiting longest,
# and one address holds at most max-connections-per-address; each of
# these is counted and logged.  Requests whose framing a proxy could read
# otherwise get 400 and the connection closed before they run, so nothing
# after them is read as a request.  Before the fix: 0 of 6 scrapes.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
need_cmd curl
plan 13
ns_setup ms
ns_add a || bail "namespace"
T=$NS_TMP
MPORT=9427
cat >"$T/a.conf" <<EOF
dcbxd: { tx-interval = 5; };
metrics: { listen = "0.0.0.0:$MPORT"; max-connections = 8;
  max-connections-per-address = 4; timeout = 30; request-timeout = 1; };
ports = ( );
EOF
dx_start a a "$T/a.conf" || bail "dcbxd"
wait_for 10 grep -q "metrics on http" "$T/a.log" || bail "no listener"

cat >"$T/slow.py" <<'EOF'
# slow.py PORT SRC N SECONDS: N clients from SRC trickling "GET /metrics"
# one byte every 100 ms, each reconnecting when the daemon closes it,
# for SECONDS (a bound).  Prints "up" once all N are connected.
import select, socket, sys, time
port, src, n, secs = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
req = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100000
def conn():
    s = socket.socket()
    s.bind((src, 0))
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    return [s, 0]
cl = [conn() for _ in range(n)]
print("up", flush=True)
end = time.time() + secs
while time.time() < end:
    for c in cl:
        try:
            c[0].send(req[c[1]:c[1] + 1])
            c[1] += 1
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            c[0].close()
            c[:] = conn()
    r, _, _ = select.select([c[0] for c in cl], [], [], 0)
    for s in r:
        try:
            if s.recv(4096) == b"":
                raise OSError
        except BlockingIOError:
            pass
        except OSError:
            for c in cl:
                if c[0] is s:
                    s.close()
                    c[:] = conn()
    time.sleep(0.1)
EOF

nsx a ip addr add 127.0.0.2/8 dev lo 2>/dev/null
nsx a ip addr add 127.0.0.3/8 dev lo 2>/dev/null
bg_start a "$T/slow.out" $PY "$T/slow.py" "$MPORT" 127.0.0.2 200 40
wait_for 20 grep -q up "$T/slow.out" || bail "slow clients"
sleep 1		# they hold every place they can get

scrapes() {	# scrapes SRC: how many of 6 scrapes from SRC succeed
	_ok=0
	for _i in 1 2 3 4 5 6; do
		nsx a curl -sf -m 10 --interface "$1" -o "$T/scrape.out" \
		    "http://127.0.0.1:$MPORT/metrics" &&
		    grep -q '^dcbxd_build_info' "$T/scrape.out" && _ok=$((_ok + 1))
	done
	echo "$_ok"
}
n=$(scrapes 127.0.0.3)
check "200 slow clients from one address: 6 of 6 scrapes from another ($n)" \
    [ "$n" -eq 6 ]
# From the slow clients' own address a scrape competes with them for the
# address's places (best effort: shown, not asserted).
diag "scrapes from the slow clients' own address: $(scrapes 127.0.0.2) of 6"

mval() {	# mval SERIES: its value in `dcbctl metrics`
	"$DCBCTL" -s "$T/a.sock" metrics | awk -v s="$1" '$1 == s { print $2 }'
}
check "the control socket answers meanwhile" \
    "$DCBCTL" -s "$T/a.sock" version
cap=$(mval 'dcbxd_metrics_closed_total{reason="address_cap"}')
open=$(mval dcbxd_metrics_open_connections)
diag "closed at the address cap: $cap, open: $open"
check "connections closed at the address's cap are counted" [ "${cap:-0}" -gt 0 ]
check "at most max-connections (8) open" [ "${open:-99}" -le 8 ]
check "the cap is logged (not silent)" \
    grep -q "metrics listener: the address is at its cap" "$T/a.log"
kill "$BG_PID" 2>/dev/null

# Three slow clients, within every cap: the request timeout closes them.
dl0=$(mval 'dcbxd_metrics_closed_total{reason="request_timeout"}')
bg_start a "$T/slow3.out" $PY "$T/slow.py" "$MPORT" 127.0.0.4 3 20
wait_for 20 grep -q up "$T/slow3.out" || bail "three slow clients"
past_deadline() {
	_dl=$(mval 'dcbxd_metrics_closed_total{reason="request_timeout"}')
	[ "${_dl:-0}" -ge $((dl0 + 3)) ]
}
check "3 clients trickling a request: closed past request-timeout, counted" \
    wait_for 20 past_deadline
kill "$BG_PID" 2>/dev/null

cat >"$T/smuggle.py" <<'EOF'
# smuggle.py PORT CASE: send one crafted request (and a second request
# behind it); print the status codes answered, then "eof" if closed.
import socket, sys
port, case = int(sys.argv[1]), sys.argv[2]
follow = b"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
reqs = {
    "dup-cl": b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
              b"Content-Length: 33\r\n\r\n" + follow,
    "te-space": b"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : "
                b"chunked\r\n\r\n0\r\n\r\n" + follow,
    "te": b"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked"
          b"\r\n\r\n0\r\n\r\n" + follow,
    "no-host": b"GET /metrics HTTP/1.1\r\n\r\n" + follow,
    "two-hosts": b"GET /metrics HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n" + follow,
    "cl-0": b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n" + follow,
    "http10": b"GET / HTTP/1.0\r\n\r\n",
}
s = socket.create_connection(("127.0.0.1", port), timeout=10)
s.sendall(reqs[case])
d = b""
try:
    while True:
        c = s.recv(65536)
        if not c:
            d += b"\nEOF"
            break
        d += c
except socket.timeout:
    pass
codes = [l.split(b" ")[1].decode() for l in d.split(b"\r\n")
         if l.startswith(b"HTTP/1.")]
print(" ".join(codes + (["eof"] if d.endswith(b"EOF") else [])))
EOF
sm() { nsx a $PY "$T/smuggle.py" "$MPORT" "$1"; }
r0=$(mval dcbxd_metrics_refused_total)
for c in dup-cl te-space te no-host two-hosts; do
	r=$(sm $c)
	check "$c: 400, closed, the request behind it never read ($r)" \
	    [ "$r" = "400 eof" ]
done
r=$(sm cl-0)
r10=$(sm http10)
r1=$(mval dcbxd_metrics_refused_total)
diag "Content-Length: 0 then a second request: $r; HTTP/1.0 without Host: $r10"
check "an empty body and HTTP/1.0 without Host are served; the five refusals counted ($r0 -> $r1)" \
    eval '[ "${r%% *}" = 200 ] && [ "$r10" = "200 eof" ] && [ $((r1 - r0)) -eq 5 ]'
check_clean "no sanitizer report" "$T/a.log"
finish
