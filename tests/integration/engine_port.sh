#!/bin/sh
# SPDX-License-Identifier: ISC
# engine_port.sh -- the pause engine on the port itself, between two real
# daemons (issue 30): applications keep a0 and b0 with their IP
# addresses; A is the controller (PFC on 3: UDP 4791 and TCP 5001 by APP;
# UDP 4792 is priority 4, lossy, in the same traffic class; the rest 0),
# B is willing and adopts it.  Both engines in port mode at 1 Gb/s (65535
# quanta are 33 ms), no TAP anywhere.
#   1. a slow application on B (4000 datagrams a second, 8 MiB socket
#      buffer) under a blocking UDP sender on A (12000 datagrams): B's
#      engine sees the socket fill and sends XOFF, A's gate holds the
#      sender; every datagram arrives, in order, none dropped by B's
#      socket, while a priority-0 flow beside it arrives whole and early;
#   2. four blocking senders on priority 3 at once, the same;
#   3. 3 MB over TCP on priority 3 while B's side storms XOFF on 3:
#      held (A's gate counts holds) and intact;
#   4. lossless 3 beside lossy 4 (same traffic class): 3 loses nothing.
# Order and loss come from sequence numbers and counters, never time.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
. "$top_srcdir/tests/engine/lib.sh"
dx_need
engine_need
sockapp_need
DCBCTL=$top_builddir/ctl/dcbctl
plan 27
ns_setup p
ns_add a && ns_add b || bail "namespaces"
veth_add a a0 b b0 02:00:00:00:0a:00 02:00:00:00:0b:00 || bail "veth"

ENG='engine = { mode = "port"; speed = "1G"; };'
dx_conf "$NS_TMP/a.conf" 5 4 "" "{ match = \"a0\"; role = \"controller\";
    mode = \"ieee\"; $ENG
    ets = { prio-tc = [0, 0, 0, 3, 3, 0, 0, 0]; tc-bw = [50, 0, 0, 50, 0, 0, 0, 0];
            tc-tsa = [\"ets\", \"ets\", \"ets\", \"ets\", \"ets\", \"ets\", \"ets\", \"ets\"]; };
    pfc = { prio-pfc = [3]; };
    app = ( { selector = \"dgram-port\"; protocol = 4791; priority = 3; },
            { selector = \"stream-port\"; protocol = 5001; priority = 3; },
            { selector = \"dgram-port\"; protocol = 4792; priority = 4; } ); }"
dx_conf "$NS_TMP/b.conf" 5 4 "" "{ match = \"b0\"; role = \"willing\";
    mode = \"ieee\"; $ENG }"
dx_start a a "$NS_TMP/a.conf" || bail "dcbxd a"
dx_start b b "$NS_TMP/b.conf" || bail "dcbxd b"
nsx a ip link set a0 up && nsx b ip link set b0 up
# Both receiving ends on NAPI (one FIFO ring): a veth without it hands a
# frame up on the CPU that sent it, and the application's CPU and the
# gate's kick (which runs the qdisc on the engine's CPU) race there
# (etool.c, feature).  A NIC's TX ring keeps the order by itself.
for e in a:a0 b:b0; do
	nsx ${e%:*} "$ETOOL" feature ${e#*:} rx-gro on rx-udp-gro-forwarding on ||
		bail "veth NAPI"
done
nsx a ip addr add 10.9.0.1/24 dev a0 && nsx b ip addr add 10.9.0.2/24 dev b0 ||
	bail "addresses"
nsx a ip neigh replace 10.9.0.2 lladdr 02:00:00:00:0b:00 dev a0 nud permanent
nsx b ip neigh replace 10.9.0.1 lladdr 02:00:00:00:0a:00 dev b0 nud permanent

# eng NAME DEV FILTER: one value of the engine's show-stats object.
eng() { ctl_get "$NS_TMP/$1.sock" ".[0].engine | $3" show stats dev "$2"; }
adopted() { dx_jq b '.pfc.oper.prio_pfc[3] == true' show dcbx dev b0; }
wait_for 30 adopted || bail "B did not adopt PFC on 3"
# The APP table too: B classifies its sockets with it.
app_adopted() { dx_jq b '[.app.oper[] | select(.protocol == 4791)] | length == 1' show dcbx dev b0; }
wait_for 30 app_adopted || bail "B did not take A's APP table"

check "show ports: both engines in port mode, the host sends from the port" \
    sh -c "'$DCBCTL' -s '$NS_TMP/a.sock' -j show ports | jq -e '.[0] | .engine_mode == \"port\" and .host_interface == \"a0\"' >/dev/null &&
    '$DCBCTL' -s '$NS_TMP/b.sock' -j show ports | jq -e '.[0] | .engine_mode == \"port\" and .host_interface == \"b0\"' >/dev/null"
check "show ports says why (text)" sh -c "'$DCBCTL' -s '$NS_TMP/a.sock' show ports |
    grep -q 'a0: engine in port mode (mode = port in the config); the host sends from a0'"
check "show stats (text): port mode's gates, receive side and tree, the state now" \
    sh -c "'$DCBCTL' -s '$NS_TMP/b.sock' show stats dev b0 >'$NS_TMP/stats.txt' &&
    grep -q '^  engine gate-state  *open' '$NS_TMP/stats.txt' &&
    grep -q '^  engine receive-sockets ' '$NS_TMP/stats.txt' &&
    grep -q '^  engine tree-intact  *on' '$NS_TMP/stats.txt' &&
    grep -q '^  engine pfc-enabled  *3' '$NS_TMP/stats.txt'"
notap() { ! nsx a ip -o link | grep -q dcb- && ! nsx b ip -o link | grep -q dcb-; }
check "no TAP anywhere" notap
check "A's port carries the engine's tree (htb root, a TBF per priority)" \
    sh -c "nsx() { ip netns exec '$(ns_name a)' \"\$@\"; }; nsx tc qdisc show dev a0 | grep -q '^qdisc htb 1: root' &&
    test \$(nsx tc qdisc show dev a0 | grep -c '^qdisc tbf') -eq 8"

start_recv() {	# start_recv NAME ARGS...: the receiver on B, ready
	_o=$1; shift
	bg_start b "$NS_TMP/$_o.log" $PY "$APP" recv "$NS_TMP/$_o.json" "$@"
	wait_for 5 grep -q "recv ready" "$NS_TMP/$_o.log" || bail "receiver"
}
res() {
	wait_for 60 test -s "$NS_TMP/$1.json" || { echo -1; return; }
	jq -r "$2" "$NS_TMP/$1.json"
}
whole() {	# whole NAME PORT N: N datagrams, no gap, no reordering
	[ "$(res "$1" ".ports[\"$2\"].datagrams")" -eq "$3" ] &&
	[ "$(res "$1" ".ports[\"$2\"].gaps")" -eq 0 ] &&
	[ "$(res "$1" ".ports[\"$2\"].reorders")" -eq 0 ]
}

# 1. A slow application on B, a blocking sender on A.
r0=$(eng b b0 '.priorities[3].counters.pfc_requests')
h0=$(eng a a0 '.priorities[3].gate.holds')
start_recv u1 4791,4000 --idle 3 --rate 4000 --rcvbuf 8388608
bg_start a "$NS_TMP/burst.out" $PY "$APP" udp 10.9.0.2 4791 12000 1000
nsx a $PY "$APP" udp 10.9.0.2 4000 300 1000 1 1 >"$NS_TMP/p0.out"
wait_for 60 test -s "$NS_TMP/burst.out"
diag "sender: $(cat "$NS_TMP/burst.out")"
diag "receiver: $(res u1 .ports | tr -d '\n ')"
diag "B receive side: $(eng b b0 '[.receive, .priorities[3].receive] | tostring')"
diag "A gate 3: $(eng a a0 '.priorities[3].gate | tostring'), responder $(eng a a0 '.responder | tostring')"
check "every one of 12000 datagrams reached the slow application, in order" \
    whole u1 4791 12000
check "B's socket dropped none (its engine's count)" \
    test "$(eng b b0 '.priorities[3].receive.socket_drops')" -eq 0
check "B sent XOFF for priority 3 ($(eng b b0 '.priorities[3].counters.pfc_requests') PFC frames)" \
    test "$(eng b b0 '.priorities[3].counters.pfc_requests')" -gt "$r0"
check "A's gate held priority 3" \
    test "$(eng a a0 '.priorities[3].gate.holds')" -gt "$h0"
check "A measured its reaction (samples)" \
    test "$(eng a a0 '.responder.samples')" -gt 0
check "all 300 priority-0 datagrams arrived" whole u1 4000 300
l0=$(res u1 '.ports["4000"].last')
check "priority 0 got through while priority 3 was held" \
    test "$l0" -ge 0 -a "$l0" -lt "$(res u1 '.ports["4791"].last')"
check "priority 0 was never held at A" \
    test "$(eng a a0 '.priorities[0].gate.holds')" -eq 0

# 2. Four blocking senders at once.
start_recv m2 4791 --idle 3 --rate 4000 --rcvbuf 8388608
nsx a $PY "$APP" udp 10.9.0.2 4791 2500 1000 4 >"$NS_TMP/many.out"
diag "4 senders: $(cat "$NS_TMP/many.out")"
check "all 10000 datagrams of four senders arrived, each in order" whole m2 4791 10000
check "four senders seen" test "$(res m2 '.ports["4791"].senders')" -eq 4
check "B's socket dropped none" \
    test "$(eng b b0 '.priorities[3].receive.socket_drops')" -eq 0

# 3. TCP while the peer's side storms XOFF on 3 (a raw socket on b0).
h1=$(eng a a0 '.priorities[3].gate.holds')
start_recv t3 4999 --tcp 5001 --idle 3
bg_start b "$NS_TMP/storm.out" "$ETOOL" pfc b0 --prio 3 --quanta 20000 \
    --every 5 --duration 3000
nsx a $PY "$APP" tcp 10.9.0.2 5001 3000000 >"$NS_TMP/tcp.out"
diag "tcp: $(cat "$NS_TMP/tcp.out"), storm $(cat "$NS_TMP/storm.out")"
check "the TCP stream arrived whole and intact" \
    test "$(res t3 '.tcp[0].bytes')" -eq 3000000 -a "$(res t3 '.tcp[0].errors')" -eq 0
check "A held it during the storm" \
    test "$(eng a a0 '.priorities[3].gate.holds')" -gt "$h1"
check "A's leaves dropped nothing" \
    test "$(eng a a0 '[.priorities[].gate.qdisc_drops] | add')" -eq 0

# 4. Lossless 3 beside lossy 4 (one traffic class), the slow application.
start_recv l4 4791,4792 --idle 3 --rate 4000 --rcvbuf 8388608
bg_start a "$NS_TMP/lossy.out" $PY "$APP" udp 10.9.0.2 4792 4000 1000
nsx a $PY "$APP" udp 10.9.0.2 4791 4000 1000 >"$NS_TMP/lossless.out"
wait_for 60 test -s "$NS_TMP/lossy.out"
diag "receiver: $(res l4 .ports | tr -d '\n ')"
check "every lossless datagram arrived beside a lossy flow, in order" \
    whole l4 4791 4000
check "the lossy priority moved too" \
    test "$(res l4 '.ports["4792"].datagrams')" -gt 0
check "priority 4 (no PFC) was never held by B's XOFF" \
    test "$(eng a a0 '.priorities[4].gate.holds')" -eq 0
check "A's tree is intact, never restored (nobody touched it)" \
    test "$(eng a a0 '.tree.intact')" = true -a "$(eng a a0 '.tree.restores')" -eq 0
check "A's addresses stayed on a0" \
    sh -c "ip -n '$(ns_name a)' -4 addr show dev a0 | grep -q 10.9.0.1/24"
kill "$PID_a" "$PID_b"
wait_for 10 sh -c "! kill -0 $PID_a 2>/dev/null"
check "A's tree is gone once the daemon stopped" \
    sh -c "! ip netns exec '$(ns_name a)' tc qdisc show dev a0 | grep -q htb"
check_clean "no sanitizer report (A)" "$NS_TMP/a.log"
check_clean "no sanitizer report (B)" "$NS_TMP/b.log"
finish
