#!/bin/sh
# SPDX-License-Identifier: ISC
# Lossless to the application: ordinary socket programs talk through the
# host interfaces (dcb-a, dcb-b) of two engines at 500 Mb/s; B's host takes
# frames at 10 Mb/s (1/50 of the line).  (At 1 Gb/s of 1000-octet frames a
# sanitizer build of the engine is at its limit on a busy 2-CPU host.)  PFC on priority 3 (UDP 4791 and
# TCP 5001 by APP), priority 4 (UDP 4792) lossy in the same traffic class,
# everything else priority 0.  A's engine must hold its senders back (the
# host interface's qdisc) rather than drop:
#   1. a 5 MB burst of blocking UDP sendto() on priority 3: every datagram
#      arrives, in order, while a priority-0 flow sent beside it arrives in
#      full before the burst ends;
#   2. 3 MB over one TCP stream;
#   3. four UDP senders on priority 3 at once;
#   4. priority 3 and the lossy priority 4 of the same traffic class.
# No drop may be counted on priority 3 anywhere (engines, A's TAP ring),
# but one: when the machine starved the engines' PFC loop past the
# headroom B sized (pfc_loop_late), B counts each frame it could not hold
# as a lossless overflow, and exactly those datagrams are missing.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/engine/lib.sh"
engine_need
sockapp_need
plan 19
two_ns e

CFG="--speed 500M --pfc 3 --prio-tc 0,0,0,3,3,0,0,0 --app dgram-port:4791:3
    --app stream-port:5001:3 --app dgram-port:4792:4"
# shellcheck disable=SC2086
engine_start A a0 --tap dcb-a $CFG || bail "engine A did not start"
# shellcheck disable=SC2086
engine_start B b0 --tap dcb-b $CFG --drain 10M || bail "engine B did not start"
nsx A ip addr add 10.9.0.1/24 dev dcb-a && nsx B ip addr add 10.9.0.2/24 dev dcb-b ||
	bail "addresses"
# Static neighbours: the test is about data, not ARP through a paused link.
ma=$(nsx A cat /sys/class/net/dcb-a/address)
mb=$(nsx B cat /sys/class/net/dcb-b/address)
nsx A ip neigh replace 10.9.0.2 lladdr "$mb" dev dcb-a nud permanent
nsx B ip neigh replace 10.9.0.1 lladdr "$ma" dev dcb-b nud permanent

# start_recv NAME ARGS...: the receiver on B, ready before we send.
start_recv() {
	_o=$1; shift
	bg_start B "$NS_TMP/$_o.log" $PY "$APP" recv "$NS_TMP/$_o.json" "$@"
	wait_for 5 grep -q "recv ready" "$NS_TMP/$_o.log" || bail "receiver"
}
# res NAME FILTER: a value of a receiver's summary (waits for it).
res() {
	wait_for 40 test -s "$NS_TMP/$1.json" || { echo -1; return; }
	jq -r "$2" "$NS_TMP/$1.json"
}
# drops IF PRIO: every drop the engine on IF counted for PRIO (and why,
# on stderr, when there are any).
drops() {
	_j=$(engine_json "$1")
	_d=$(jget "$_j" "[.priorities[$2].drops[]] | add")
	[ "$_d" = 0 ] || diag "$1 priority $2 drops: $(jget "$_j" ".priorities[$2].drops | tostring")" >&2
	echo "$_d"
}
# drops3 IF: priority 3's drops on IF for any reason but a lossless
# overflow; ov3: B's lossless overflows on priority 3.
drops3() {
	_j=$(engine_json "$1")
	_d=$(jget "$_j" '[.priorities[3].drops | to_entries[] | select(.key != "lossless_overflow") | .value] | add')
	[ "$_d" = 0 ] || diag "$1 priority 3 drops: $(jget "$_j" ".priorities[3].drops | tostring")" >&2
	echo "$_d"
}
ov3() { jget "$(engine_json b0)" '.priorities[3].drops.lossless_overflow'; }
# held NAME PORT N OV0: N datagrams on PORT arrived in order; or B counted
# each missing one as an overflow since OV0 while the PFC loop was late,
# and the gaps are those.
held() {
	_got=$(res "$1" ".ports[\"$2\"].datagrams")
	_gaps=$(res "$1" ".ports[\"$2\"].gaps")
	_ov=$(( $(ov3) - $4 ))
	[ "$(res "$1" ".ports[\"$2\"].reorders")" -eq 0 ] || return 1
	[ "$_got" -eq "$3" ] && [ "$_gaps" -eq 0 ] && [ "$_ov" -eq 0 ] && return 0
	diag "$1: $_got of $3 arrived, $_gaps gaps, B counted $_ov overflows"
	[ $((_got + _ov)) -eq "$3" ] && [ "$_gaps" -le "$_ov" ] &&
	    pfc_loop_late "$(engine_json a0)" "$(engine_json b0)"
}
# The engine's count of its TAP's ring drops (less its own probe's).
tapdrops() { sleep 0.15; jget "$(engine_json a0)" .host_side.tap_ring_drops; }

# 1. UDP burst on priority 3, and priority 0 moving during it.
ov0=$(ov3)
start_recv u1 4791,4000 --idle 3
bg_start A "$NS_TMP/burst.out" $PY "$APP" udp 10.9.0.2 4791 5200 1000
# Priority 0: 300 datagrams 1 ms apart, from the burst's start on.
nsx A $PY "$APP" udp 10.9.0.2 4000 300 1000 1 1 >"$NS_TMP/p0.out"
diag "priority 0 sender: $(cat "$NS_TMP/p0.out")"
wait_for 30 test -s "$NS_TMP/burst.out"
diag "burst sender: $(cat "$NS_TMP/burst.out")"
diag "receiver: $(res u1 .ports | tr -d '\n ')"
check "all 5200 priority-3 datagrams arrived, in order (or B counted the missing: late PFC loop)" \
    held u1 4791 5200 "$ov0"
check "priority 3's receiver saw no reordering" test "$(res u1 '.ports["4791"].reorders')" -eq 0
check "all 300 priority-0 datagrams arrived" test "$(res u1 '.ports["4000"].datagrams')" -eq 300
l0=$(res u1 '.ports["4000"].last')
check "priority 0 got through while the burst was still arriving" \
    test "$l0" -ge 0 -a "$l0" -lt "$(res u1 '.ports["4791"].last')"
ja=$(engine_json a0)
jb=$(engine_json b0)
for p in 0 3; do
	diag "A prio $p: $(jget "$ja" ".priorities[$p] | [.counters, .drops, .host_side] | tostring")"
	diag "B prio $p: $(jget "$jb" ".priorities[$p] | [.counters, .drops] | tostring")"
done
diag "A host side: $(jget "$ja" '.host_side | tostring')"
check "no drop counted on priority 3 at A" test "$(drops a0 3)" -eq 0
check "no drop counted on priority 3 at B (but late-loop overflows)" test "$(drops3 b0)" -eq 0
check "A's TAP dropped nothing" test "$(tapdrops)" -eq 0
check "A held its priority-3 senders back" \
    test "$(jget "$ja" '.priorities[3].host_side.throttles')" -gt 0

# 2. TCP, one stream of 3 MB on priority 3 (TCP resends what overflowed).
start_recv t2 4999 --tcp 5001 --idle 3
nsx A $PY "$APP" tcp 10.9.0.2 5001 3000000 >"$NS_TMP/tcp.out"
diag "tcp sender: $(cat "$NS_TMP/tcp.out")"
check "the TCP stream arrived whole and intact" \
    test "$(res t2 '.tcp[0].bytes')" -eq 3000000 -a "$(res t2 '.tcp[0].errors')" -eq 0
check "no drop counted on priority 3 at A or B (TCP; but late-loop overflows)" \
    test "$(drops a0 3)" -eq 0 -a "$(drops3 b0)" -eq 0

# 3. Four senders on priority 3.
ov0=$(ov3)
start_recv m3 4791 --idle 3
nsx A $PY "$APP" udp 10.9.0.2 4791 1000 1000 4 >"$NS_TMP/many.out"
diag "4 senders: $(cat "$NS_TMP/many.out")"
check "all 4000 datagrams of the four senders arrived, each sender's in order (or B counted the missing: late PFC loop)" \
    held m3 4791 4000 "$ov0"
check "no sender's datagrams were reordered" test "$(res m3 '.ports["4791"].reorders')" -eq 0
check "four senders seen" test "$(res m3 '.ports["4791"].senders')" -eq 4
check "no drop counted on priority 3 (four senders; but late-loop overflows)" \
    test "$(drops a0 3)" -eq 0 -a "$(drops3 b0)" -eq 0

# 4. Lossless 3 and lossy 4, both in traffic class 3.
ov0=$(ov3)
start_recv l4 4791,4792 --idle 3
bg_start A "$NS_TMP/lossy.out" $PY "$APP" udp 10.9.0.2 4792 2000 1000
nsx A $PY "$APP" udp 10.9.0.2 4791 2000 1000 >"$NS_TMP/lossless.out"
wait_for 30 test -s "$NS_TMP/lossy.out"
diag "receiver: $(res l4 .ports | tr -d '\n ')"
check "every lossless datagram arrived beside a lossy flow, in order (or B counted the missing: late PFC loop)" \
    held l4 4791 2000 "$ov0"
check "lossless not reordered" test "$(res l4 '.ports["4791"].reorders')" -eq 0
check "the lossy priority moved too" test "$(res l4 '.ports["4792"].datagrams')" -gt 0
jb=$(engine_json b0)
got4=$(res l4 '.ports["4792"].datagrams')
d4=$(jget "$jb" '[.priorities[4].drops[]] | add')
diag "lossy priority 4: $got4 of 2000 arrived, B counted $d4 drops"
check "no drop counted on priority 3 (beside lossy; but late-loop overflows)" \
    test "$(drops a0 3)" -eq 0 -a "$(drops3 b0)" -eq 0
check "A's TAP dropped nothing over the whole run" test "$(tapdrops)" -eq 0
finish
