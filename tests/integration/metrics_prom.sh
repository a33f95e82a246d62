#!/bin/sh
# SPDX-License-Identifier: ISC
# metrics_prom.sh -- a real Prometheus (Debian's) scrapes a running dcbxd's
# metrics listener in its namespace: the target is up, the series are
# there, and their values follow the state (a PFC change on the
# controller, the peer leaving); promtool lints both the HTTP and the
# `dcbctl metrics` text, which carry the same families; the listener's
# bounds (404, huge headers, a slow client, more clients than its cap:
# the oldest without a request gives way)
# give errors, never a daemon that stops answering.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/dcbx-lib.sh"
xd_need
need_cmd prometheus promtool curl
[ -c /dev/net/tun ] || skip_all "no /dev/net/tun (the engine's TAP)"
plan 29
xd_setup
ns_add a && ns_add b || bail "namespaces"
veth_add a xa b xb || bail "veth"
MPORT=9417 PPORT=19090

cat >"$NS_TMP/a.conf" <<EOF
dcbxd: { tx-interval = 5; };
metrics: { listen = "127.0.0.1:$MPORT"; max-connections = 4; timeout = 2; };
ports = ( { match = "xa"; role = "controller"; mode = "ieee";
  backend = "readonly";
  ets = { prio-tc = [0, 0, 0, 1, 1, 2, 2, 2]; tc-bw = [50, 30, 20, 0, 0, 0, 0, 0];
          tc-tsa = ["ets", "ets", "ets", "strict", "strict", "strict", "strict", "strict"]; };
  pfc = { prio-pfc = [3, 4]; };
  app = ( { selector = "dgram-port"; protocol = 4791; priority = 3; } ); } );
EOF
# The relay: it counts every frame it moves, by priority and direction
# (port mode leaves the data path to the kernel's qdisc tree).
cat >"$NS_TMP/b.conf" <<EOF
dcbxd: { tx-interval = 5; };
ports = ( { match = "xb"; role = "willing"; mode = "auto";
  engine = { mode = "relay"; speed = "1G"; }; } );
EOF
sed 's/listen = "127.0.0.1:[0-9]*"/listen = "localhost:80"/' "$NS_TMP/a.conf" \
    >"$NS_TMP/bad.conf"
check "dcbxd -t refuses a listen address that is not ADDR:PORT numeric" \
    sh -c "! '$DCBXD' -t -c '$NS_TMP/bad.conf' >'$NS_TMP/bad.out' 2>&1 &&
      grep -q 'bad.conf:2: listen \"localhost:80\"' '$NS_TMP/bad.out'"

xd_start a a && xd_start b b || bail "dcbxd did not start"
nsx a ip link set xa up; nsx b ip link set xb up

cat >"$NS_TMP/prom.yml" <<EOF
global: { scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: dcbxd
    static_configs: [ { targets: ["127.0.0.1:$MPORT"] } ]
EOF
bg_start a "$NS_TMP/prom.log" prometheus --config.file="$NS_TMP/prom.yml" \
    --storage.tsdb.path="$NS_TMP/prom" --web.listen-address="127.0.0.1:$PPORT"

# promq EXPR WANT LIMIT_S: poll Prometheus' query API until EXPR's first
# sample equals WANT (a number, or "none" for no sample); print the last.
cat >"$NS_TMP/promq.py" <<'EOF'
import json, sys, time, urllib.parse, urllib.request
url, expr, want, limit = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
end, got = time.time() + limit, "unreachable"
while True:
    try:
        q = url + "/api/v1/query?" + urllib.parse.urlencode({"query": expr})
        r = json.load(urllib.request.urlopen(q, timeout=2))["data"]["result"]
        got = "none" if not r else r[0]["value"][1]
    except Exception as e:
        got = "error: %s" % e
    if got == want or (want != "none" and got not in ("none",) and
                       not got.startswith("error") and float(got) == float(want)):
        print(got); sys.exit(0)
    if time.time() > end:
        print(got); sys.exit(1)
    time.sleep(0.2)
EOF
promq() {
	nsx a $PY "$NS_TMP/promq.py" "http://127.0.0.1:$PPORT" "$@" \
	    >"$NS_TMP/promq.out" || { diag "$1: $(cat "$NS_TMP/promq.out")"; return 1; }
}

check "Prometheus scrapes dcbxd: the target is up" promq 'up{job="dcbxd"}' 1 60
check "dcbxd_build_info is there" promq 'dcbxd_build_info' 1 10
check "the controller sees one neighbour" promq 'dcbxd_neighbors{port="xa"}' 1 20
pfc_3_not_5() {
	promq 'dcbxd_pfc_enabled{port="xa",priority="3"}' 1 10 &&
	    promq 'dcbxd_pfc_enabled{port="xa",priority="5"}' 0 10
}
check "PFC is on priority 3, off on 5" pfc_3_not_5
check "ETS bandwidth of TC 0 is 50 %" \
    promq 'dcbxd_ets_bandwidth_percent{port="xa",tc="0"}' 50 10
check "LLDP frames were sent and received" \
    promq 'dcbxd_lldp_frames_total{port="xa",direction="rx",result="ok"} > bool 0' 1 20

# A PFC change on the controller shows in the next scrapes.
"$DCBCTL" -s "$NS_TMP/a.sock" set pfc dev xa prio-pfc 5:on >/dev/null ||
    diag "dcbctl set failed"
check "after dcbctl set pfc: priority 5 has PFC in Prometheus" \
    promq 'dcbxd_pfc_enabled{port="xa",priority="5"}' 1 20

# The engine side: its per-priority counters, through dcbctl metrics.  The
# families are there before any traffic (their values may be 0 yet); the
# values are judged below, where traffic was sent.
check "dcbctl metrics on the engine port: engine and PFC families present" sh -c "
    '$DCBCTL' -s '$NS_TMP/b.sock' metrics >'$NS_TMP/b.prom' &&
    grep -q '^dcbxd_engine_frames_total{port=\"xb\",priority=\"0\",direction=\"to_port\"} ' '$NS_TMP/b.prom' &&
    grep -q '^dcbxd_engine_drops_total{port=\"xb\",priority=\"3\",direction=\"egress\",reason=\"pfc_watchdog\"} ' '$NS_TMP/b.prom' &&
    grep -q '^dcbxd_engine_queue_bytes{port=\"xb\",priority=\"3\",direction=\"ingress\"} ' '$NS_TMP/b.prom' &&
    grep -q '^dcbxd_pfc_requests_total{port=\"xb\",priority=\"3\"} ' '$NS_TMP/b.prom' &&
    grep -q '^dcbxd_backend{port=\"xb\",backend=\"engine\"} 1' '$NS_TMP/b.prom'"
# Frames into the engine port show in its counters.
[ -x "$top_builddir/tests/engine/etool" ] &&
    nsx a "$top_builddir/tests/engine/etool" gen xa --stream 3:vlan:10M:100 \
    >/dev/null 2>&1 || diag "etool gen failed"
engine_counted() {
	"$DCBCTL" -s "$NS_TMP/b.sock" metrics | awk '
	    /^dcbxd_engine_frames_total\{port="xb",priority="3",direction="from_port"\} / { n = $2 }
	    END { exit !(n >= 100) }'
}
check "100 frames of priority 3 sent to the engine port: from_port >= 100" \
    wait_for 10 engine_counted
# ev SERIES: the value of one series of the engine port's metrics (0 when
# absent), from the last snapshot taken by snap_b.
snap_b() { "$DCBCTL" -s "$NS_TMP/b.sock" metrics >"$NS_TMP/b2.prom"; }
ev() {
	awk -v s="$1" 'index($0, s " ") == 1 { v = $2 } END { printf "%d\n", v }' \
	    "$NS_TMP/b2.prom"
}
# Every frame from the port is delivered to the host or dropped with a
# reason: wait until the engine has published them all (its snapshot
# lags by up to 100 ms), then hold it to that.
P3='port="xb",priority="3"'
delivered() {
	snap_b && f=$(ev "dcbxd_engine_frames_total{$P3,direction=\"from_port\"}") &&
	    t=$(ev "dcbxd_engine_frames_total{$P3,direction=\"to_host\"}") &&
	    d=$(awk -v s="dcbxd_engine_drops_total{$P3," \
		'index($0, s) == 1 { n += $2 } END { printf "%d\n", n }' "$NS_TMP/b2.prom") &&
	    [ "$f" -ge 100 ] && [ "$t" -gt 0 ] && [ "$f" -eq $((t + d)) ]
}
check "... delivered to the host: to_host > 0 and from_port = to_host + drops" \
    wait_for 10 delivered
diag "priority 3: from_port $f, to_host $t, dropped $d"
check "... their bytes are counted: from_port bytes >= 100 x 64" \
    [ "$(ev "dcbxd_engine_bytes_total{$P3,direction=\"from_port\"}")" -ge 6400 ]
check "... and no other priority saw them: priority 5 from_port is 0" \
    [ "$(ev 'dcbxd_engine_frames_total{port="xb",priority="5",direction="from_port"}')" -eq 0 ]
check "the server adopted PFC 3,4,5 (dcbxd_pfc_enabled follows negotiation)" \
    wait_for 10 sh -c "'$DCBCTL' -s '$NS_TMP/b.sock' metrics |
      grep -q '^dcbxd_pfc_enabled{port=\"xb\",priority=\"5\"} 1'"
check "promtool check metrics: dcbctl metrics (engine port) is clean" \
    sh -c "promtool check metrics <'$NS_TMP/b.prom' >'$NS_TMP/lint.out' 2>&1"
diag "$(cat "$NS_TMP/lint.out")"
http_lint() {
	nsx a curl -sf "http://127.0.0.1:$MPORT/metrics" >"$NS_TMP/a.prom" &&
	    promtool check metrics <"$NS_TMP/a.prom"
}
check "promtool check metrics: the HTTP endpoint is clean" http_lint
check "HTTP and dcbctl metrics carry the same families" sh -c "
    '$DCBCTL' -s '$NS_TMP/a.sock' metrics | grep '^# TYPE' >'$NS_TMP/t1' &&
    grep '^# TYPE' '$NS_TMP/a.prom' >'$NS_TMP/t2' && cmp -s '$NS_TMP/t1' '$NS_TMP/t2'"

# The peer leaves (shutdown LLDPDU): the neighbour and status series follow.
xd_stop b TERM
check "the peer left: dcbxd_neighbors is 0 in Prometheus" \
    promq 'dcbxd_neighbors{port="xa"}' 0 20
check "... and the PFC status is no-peer" \
    promq 'dcbxd_dcbx_status{port="xa",feature="pfc",status="no-peer"}' 1 10

# Bounds.  lim.py prints one word per case.
cat >"$NS_TMP/lim.py" <<'EOF'
import socket, sys
A = ("127.0.0.1", int(sys.argv[1]))
def status(req):
    s = socket.create_connection(A, timeout=10)
    s.sendall(req)
    d = b""
    while b"\r\n" not in d:
        c = s.recv(4096)
        if not c:
            break
        d += c
    s.close()
    return d.split(b" ")[1].decode() if d.startswith(b"HTTP/1.1") else "closed"
case = sys.argv[2]
if case == "404":
    print(status(b"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"))
elif case == "huge":
    print(status(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " +
                 b"a" * 65536 + b"\r\n\r\n"))
elif case == "post":
    print(status(b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"))
elif case == "body":
    print(status(b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"))
elif case == "slow":
    # Half a request line, then nothing: the daemon's timeout closes it.
    s = socket.create_connection(A, timeout=30)
    s.sendall(b"GET /metr")
    print("closed" if s.recv(100) == b"" else "answered")
elif case == "flood":
    # More idle clients than the cap; the caller checks the daemon meanwhile.
    idle = [socket.create_connection(A) for _ in range(12)]
    sys.stdout.write("open\n"); sys.stdout.flush()
    sys.stdin.readline()
    for s in idle:
        s.close()
EOF
lim() { nsx a $PY "$NS_TMP/lim.py" "$MPORT" "$1"; }
check "an unknown path gets 404" test "$(lim 404)" = 404
check "a 64 KiB header gets 400 and the connection closed" test "$(lim huge)" = 400
post_refused() { r=$(lim post); diag "POST: $r"; test "$r" = 405 || test "$r" = 501; }
check "a POST is refused (GET and HEAD only)" post_refused
check "a request with a body gets 413 (no body is taken)" test "$(lim body)" = 413
check "a client that stops mid-request is closed by the daemon's timeout" \
    test "$(lim slow)" = closed

# 12 idle clients against a cap of 4: each newcomer takes the place of
# the one waiting longest for a request, the daemon keeps answering its
# control socket, and counts what it did.
mkfifo "$NS_TMP/flood.in"
bg_start a "$NS_TMP/flood.out" sh -c "$PY '$NS_TMP/lim.py' $MPORT flood <'$NS_TMP/flood.in'"
exec 7>"$NS_TMP/flood.in"
wait_for 10 grep -q open "$NS_TMP/flood.out"
check "with more clients than the cap: the daemon answers, at most 4 open, the oldest closed" sh -c "
    '$DCBCTL' -s '$NS_TMP/a.sock' metrics >'$NS_TMP/cap.prom' &&
    awk '/^dcbxd_metrics_open_connections /{o=\$2} /^dcbxd_metrics_closed_total/{c+=\$2}
         END { exit !(o >= 1 && o <= 4 && c >= 8) }' '$NS_TMP/cap.prom'"
diag "$(grep '^dcbxd_metrics' "$NS_TMP/cap.prom")"
exec 7>&-

# Reload changing only the limits: the listener stays (its counters go
# on from where they were; a new listener would start again from 0).
mcount() {	# mcount FAMILY: its value in `dcbctl metrics`
	"$DCBCTL" -s "$NS_TMP/a.sock" metrics | awk -v f="$1" '$1 == f { print $2 }'
}
c0=$(mcount dcbxd_metrics_connections_total)
n0=$(grep -c 'configuration reloaded' "$NS_TMP/a.log")
sed -i 's/max-connections = 4; timeout = 2;/max-connections = 6; timeout = 3;/' \
    "$NS_TMP/a.conf"
xd_hup a
wait_for 10 sh -c "[ \$(grep -c 'configuration reloaded' '$NS_TMP/a.log') -gt $n0 ]"
nsx a curl -sf -o /dev/null "http://127.0.0.1:$MPORT/metrics"
c1=$(mcount dcbxd_metrics_connections_total)
diag "connections accepted: $c0 before the reload, $c1 after one more"
check "a reload of the limits only keeps the listener (connections $c0 -> $c1)" \
    [ "${c1:-0}" -gt "${c0:-0}" ]

# Reload: a new address moves the listener; one that cannot be bound is
# logged and the daemon runs on without it.
sed -i "s/127.0.0.1:$MPORT/127.0.0.1:$((MPORT + 1))/" "$NS_TMP/a.conf"
xd_hup a
moved() {
	nsx a curl -sf -o /dev/null "http://127.0.0.1:$((MPORT + 1))/metrics" &&
	    ! nsx a curl -sf -o /dev/null "http://127.0.0.1:$MPORT/metrics"
}
check "after a reload with another port: served there, not on the old one" \
    wait_for 10 moved
sed -i "s/127.0.0.1:$((MPORT + 1))/10.255.0.1:$MPORT/" "$NS_TMP/a.conf"
xd_hup a
bind_failed() {
	grep -q "metrics listen 10.255.0.1:$MPORT: Cannot assign" "$NS_TMP/a.log" &&
	    "$DCBCTL" -s "$NS_TMP/a.sock" version >/dev/null
}
check "an address it cannot bind: logged, and the daemon answers" \
    wait_for 10 bind_failed
check_clean "no sanitizer report" "$NS_TMP/a.log" "$NS_TMP/b.log"
finish
