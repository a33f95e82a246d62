#!/bin/sh
# SPDX-License-Identifier: ISC
# Lossless end to end: engines on both ends of a0 <-> b0 at 1 Gb/s; B's host
# takes frames at only 100 Mb/s.  A's host sends a bounded burst on priority
# 3 (PFC on) and on priority 0 (PFC off), VLAN-tagged (B classifies by the
# tag it gets back from PACKET_AUXDATA, so this also shows tags survive).
# Every priority-3 frame must reach B's host in order -- unless A's engine,
# starved by a busy machine, reacts later than B's headroom allows: then
# B counts what it could not hold (lossless_overflow) and A's own figures
# show it was late; priority 0 drops, and the drops are counted; PFC
# frames are on the wire (tshark on a0).
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/engine/lib.sh"
engine_need
plan 12
two_ns e
N=3000

engine_start A a0 --tap dcb-a --speed 1G --pfc 3 --qmem 8M ||
	bail "engine A did not start"
engine_start B b0 --tap dcb-b --speed 1G --pfc 3 --qmem 2M --drain 100M ||
	bail "engine B did not start"
have_tshark=0
if command -v tshark >/dev/null 2>&1; then
	bg_start A "$NS_TMP/tshark.out" tshark -q -i a0 -f "ether proto 0x8808" \
	    -w "$NS_TMP/pfc.pcap" -a duration:15
	TSPID=$BG_PID
	have_tshark=1
	wait_for 20 grep -q "Capturing" "$NS_TMP/tshark.out"
fi
bg_start B "$NS_TMP/sink.out" "$ETOOL" sink dcb-b --duration 12000 --idle 2000
wait_for 20 grep -q "sink ready" "$NS_TMP/sink.out"
# Frames the kernel drops on A's TAP before the engine reads them (its
# queue overflows when a busy machine leaves the engine's thread waiting):
# outside PFC's reach, counted by the kernel, not lost without a trace.
tapdrops() { nsx A ip -j -s link show dev dcb-a | jq '.[0].stats64.tx.dropped'; }
td0=$(tapdrops)
nsx A "$ETOOL" gen dcb-a --stream 3:vlan:100M:$N --stream 0:vlan:100M:$N \
    --duration 10000 >"$NS_TMP/gen.out"
diag "gen: $(cat "$NS_TMP/gen.out")"
wait_for 15 grep -q '"priorities"' "$NS_TMP/sink.out"
s=$(grep '"priorities"' "$NS_TMP/sink.out")
ja=$(engine_json a0)
jb=$(engine_json b0)
diag "sink: $s"
diag "B prio 3: $(jget "$jb" '.priorities[3] | [.counters, .drops, .queues] | tostring')"
diag "B prio 0: $(jget "$jb" '.priorities[0] | [.counters, .drops, .queues] | tostring')"
diag "B thresholds: $(jget "$jb" '.thresholds | tostring')"
diag "A thresholds: $(jget "$ja" '.thresholds | tostring')"
diag "A prio 3: $(jget "$ja" '.priorities[3] | [.counters, .drops] | tostring')"

in3=$(jget "$ja" '.priorities[3].counters.host_in_frames')
in0=$(jget "$ja" '.priorities[0].counters.host_in_frames')
tdrop=$(( $(tapdrops) - td0 ))
diag "A's engine took $in3 + $in0 frames from its TAP; the kernel dropped $tdrop there"
check "every frame the generator sent was taken by A's engine or dropped by its TAP ($in3 + $in0 + $tdrop >= 2 x $N)" \
    test $((in3 + in0 + tdrop)) -ge $((2 * N))
# Lossless holds while A reacts to B's PFC within what B's headroom allows
# for (B sizes it from its own measured lag: reaction_ns_used).  A busy
# machine can starve the engines longer (their rx_lag and reaction p99
# say so); then B must count each frame it could not hold as a lossless
# overflow -- never lose one silently, never drop one otherwise.
rx3=$(jget "$jb" '.priorities[3].counters.rx_frames')
out3=$(jget "$jb" '.priorities[3].counters.host_out_frames')
ov3=$(jget "$jb" '.priorities[3].drops.lossless_overflow')
# The PFC loop: B reads the frame (B's rx lag), sends XOFF, A reads it
# (A's rx lag) and stops (A's reaction); each engine measures its part.
diag "priority 3: A took $in3, B received $rx3, gave its host $out3, overflowed $ov3"
late=0; pfc_loop_late "$ja" "$jb" && late=1
check "every priority-3 frame A's engine took reached B ($rx3 of $in3)" \
    test "$rx3" -eq "$in3"
check "B gave its host every one, but those it counted as overflow" \
    test $((out3 + ov3)) -eq "$rx3" -a "$(jget "$s" '.priorities[3].frames')" -eq "$out3"
check "in order, with no gap but those of counted drops (TAP, overflow)" \
    test "$(jget "$s" '.priorities[3].reorders')" -eq 0 -a \
    "$(jget "$s" '.priorities[3].gaps')" -le $((N - in3 + ov3))
check "lossless, or the engines were later than B's headroom allows (no overflow otherwise)" \
    test "$ov3" -eq 0 -o "$late" -eq 1
check "B dropped priority 3 for no other reason" test "$(jget "$jb" \
    '[.priorities[3].drops | to_entries[] | select(.key != "lossless_overflow") | .value] | add')" -eq 0
got0=$(jget "$s" '.priorities[0].frames')
drop0=$(jget "$jb" '.priorities[0].drops.ingress_queue_full')
check "priority 0 lost frames at B ($got0 of $in0 arrived)" test "$got0" -lt "$in0"
rx0=$(jget "$jb" '.priorities[0].counters.rx_frames')
out0=$(jget "$jb" '.priorities[0].counters.host_out_frames')
check "B accounts for every priority-0 frame: $rx0 in = $out0 out + $drop0 dropped" \
    test "$rx0" -eq $((out0 + drop0))
# The sink may miss a frame the kernel drops between B's TAP and its socket.
# A's engine also took what A's host sends by itself (neighbour discovery
# on the TAP), which the sink does not count.
check "the drops B counted explain the loss ($drop0 + $got0 of $in0 taken, $rx0 received)" \
    within $((drop0 + got0)) $((in0 - 10)) "$rx0"
check "B sent PFC requests for priority 3" \
    test "$(jget "$jb" '.priorities[3].counters.pfc_requests')" -gt 0
check "A received them as indications" \
    test "$(jget "$ja" '.priorities[3].counters.pfc_indications')" -gt 0
if [ $have_tshark = 1 ]; then
	kill -INT "$TSPID" 2>/dev/null
	wait_for 20 test -s "$NS_TMP/pfc.pcap"
	n=$(tshark -r "$NS_TMP/pfc.pcap" -Y "macc.opcode == 0x0101" 2>/dev/null | wc -l)
	check "tshark sees $n PFC frames on the wire" test "$n" -gt 0
else
	skip "tshark not installed" "PFC frames on the wire"
fi
finish
