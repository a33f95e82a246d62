#!/bin/sh
# SPDX-License-Identifier: ISC
# pfcwd_deadlock.sh -- the deadlock of a cyclic pause between two engines,
# detected on both sides and broken by the watchdog's drop action.
#
# Two dcbxd, each running the pause engine on one end of a veth (namespaces
# a and b), PFC on priority 3, stall prevention out of the way (60 s).  Each
# host drains its engine at 1 Mb/s while the other sends priority 3 at
# 20 Mb/s: each ingress queue fills, each engine sends XOFF (its own XOFF:
# the host is slow -- counted apart, not a storm on that side), and each
# egress queue then fills behind the other's XOFF.  A pauses B while B
# pauses A, both with full queues: no frame moves.  On each side the peer
# keeps priority 3 paused while frames wait and none leave: a storm.
#
# forward: each side stops obeying the other's XOFF but keeps sending its
# own, so both sides detect, and frames move again both ways (tx_ok).  When
# the traffic ends the hosts catch up, the XOFFs stop and both restore.
# drop (after SIGHUP): the first side to detect drops priority 3 and stops
# its own XOFF, which releases the other side too -- which then may never
# reach detection-time: at least one detection, and both end restored.
# Asserted from counters and events only.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/pfcwd_lib.sh"
pfcwd_need
plan 13

ns_setup y
ns_add a && ns_add b || bail "cannot create namespaces"
veth_add a ya0 b yb0 02:00:00:00:0e:00 02:00:00:00:0f:00 || bail "veth"
conf() {	# conf NAME ACTION
	n=$1
	dx_conf "$NS_TMP/$n.conf" 5 2 "pfc-watchdog-poll = 100;" "{ match = \"y${n}0\";
    role = \"controller\"; mode = \"ieee\"; pfc = { prio-pfc = [3]; };
    engine = { speed = \"100M\"; queue-memory = \"256K\"; host-drain-rate = \"1M\";
               stall-timeout = 60000; };
    pfc-watchdog = { action = \"$2\"; detection-time = 200; restoration-time = 400; }; }"
}
for n in a b; do
	conf "$n" forward
	dx_start "$n" "$n" "$NS_TMP/$n.conf" || bail "dcbxd $n did not start"
done
nsx a ip link set ya0 up && nsx b ip link set yb0 up
tap_up() { nsx "$1" ip link set "dcb-y${1}0" up 2>/dev/null; }
wait_for 10 tap_up a && wait_for 10 tap_up b || bail "no engine TAPs"

row() { wd_row "$@"; }
eng3() {	# eng3 NAME KEY: an engine counter of priority 3
	"$DCBCTL" -s "$NS_TMP/$1.sock" -j show stats |
	    jq -r ".[0].engine.priorities[3].counters.$2"
}
wait_for 10 row a "r[0]['status'] == 'operational'" &&
    wait_for 10 row b "r[0]['status'] == 'operational'" || bail "not watching"

traffic() {
	bg_start a "$NS_TMP/gen-a.out" "$ETOOL" gen dcb-ya0 --stream 3:vlan:20M:0 --duration 3000
	bg_start b "$NS_TMP/gen-b.out" "$ETOOL" gen dcb-yb0 --stream 3:vlan:20M:0 --duration 3000
}
traffic
check "forward: A detects a storm on priority 3" wait_for 8 row a "r[0]['storms_detected'] >= 1"
check "forward: B detects a storm on priority 3" wait_for 8 row b "r[0]['storms_detected'] >= 1"
both_asked() { test "$(eng3 a pfc_requests)" -gt 0 && test "$(eng3 b pfc_requests)" -gt 0; }
check "both sent XOFF: the pause was cyclic (A $(eng3 a pfc_requests), B $(eng3 b pfc_requests))" both_asked
wait_for 5 row a "r[0]['tx_ok'] > 0" || diag "A: $("$DCBCTL" -s "$NS_TMP/a.sock" -j show pfcwd) $(grep -h 'pfcwd\|engine' "$NS_TMP/a.log" | tail -5)"
check "forward broke it on A: frames left while stormed" wait_for 5 row a "r[0]['tx_ok'] > 0"
check "forward broke it on B: frames left while stormed" wait_for 5 row b "r[0]['tx_ok'] > 0"
check "A restored once the hosts caught up" wait_for 15 row a "r[0]['storms_restored'] == r[0]['storms_detected'] and r[0]['status'] == 'operational'"
check "B restored too" wait_for 15 row b "r[0]['storms_restored'] == r[0]['storms_detected'] and r[0]['status'] == 'operational'"
xoff() { "$DCBCTL" -s "$NS_TMP/$1.sock" -j show pfcwd | jq '.[0].own_xoff_ms'; }
both_xoff() { test "$(xoff a)" -gt 0 && test "$(xoff b)" -gt 0; }
check "each side's own XOFF time is counted apart (A $(xoff a) ms, B $(xoff b) ms)" both_xoff

det() { "$DCBCTL" -s "$NS_TMP/$1.sock" -j show pfcwd | jq '.[0].storms_detected'; }
n0=$(( $(det a) + $(det b) ))
for n in a b; do
	conf "$n" drop
	eval "kill -HUP \$PID_$n"
done
on_drop() { row a "r[0]['action'] == 'drop'" && row b "r[0]['action'] == 'drop'"; }
check "SIGHUP: both on drop" wait_for 5 on_drop
traffic
more() { test $(( $(det a) + $(det b) )) -gt "$n0"; }
check "drop: the deadlock is detected again (on at least one side)" wait_for 8 more
dropped() { row a "r[0]['tx_drop'] + r[0]['rx_drop'] > 0" || row b "r[0]['tx_drop'] + r[0]['rx_drop'] > 0"; }
check "drop: the detecting side dropped priority-3 frames" wait_for 5 dropped
calm() {
	for n in a b; do
		row $n "r[0]['status'] == 'operational' and r[0]['storms_restored'] == r[0]['storms_detected']" || return 1
	done
}
check "drop: both end restored, none left stormed" wait_for 15 calm
check_clean "no sanitizer report" "$NS_TMP/a.log" "$NS_TMP/b.log"
finish
