#!/bin/sh
# SPDX-License-Identifier: ISC
# ETS in the engine: priorities 0, 1, 2 in TCs 0, 1, 2 at 50/30/20 %,
# priority 6 in strict TC 6.  A's engine at 10 Mb/s; B (no engine) counts
# what arrives on b0 per priority after a 500 ms warm-up.
#
# Shares are ratios of what a saturated link carries, so they hold at any
# speed; 10 Mb/s (830 full frames/s) is what a busy 2-core machine
# saturates with room to spare.  Saturation is not assumed: every class
# whose share is checked must have run its queue full (dropped frames or
# held its host back) -- it was offered more than it got.  No rate or throughput is checked here
# (bench/bench_engine.sh prints the link utilisation).
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/engine/lib.sh"
engine_need
plan 8
two_ns e
engine_start A a0 --tap dcb-a --speed 10M --qmem 256K --prio-tc 0,1,2,3,4,5,6,7 \
    --tc-bw 50,30,20,0,0,0,0,0 --tc-tsa ets,ets,ets,ets,ets,ets,strict,ets ||
	bail "engine did not start"

# phase STREAMS...: offer the streams for 2.5 s, print B's sink JSON.
phase() {
	bg_start B "$NS_TMP/sink.out" "$ETOOL" sink b0 --duration 2300 --skip 500
	wait_for 20 grep -q "sink ready" "$NS_TMP/sink.out"
	_args=""
	for _s in "$@"; do _args="$_args --stream $_s"; done
	# shellcheck disable=SC2086
	nsx A "$ETOOL" gen dcb-a $_args --duration 2500 >"$NS_TMP/gen.out"
	wait_for 20 grep -q '"priorities"' "$NS_TMP/sink.out"
	grep '"priorities"' "$NS_TMP/sink.out"
}
# share JSON P [Q ...]: P's percentage of the window bytes of P and Q...
share() {
	_j=$1 _p=$2; shift 2
	_sel=".priorities[$_p].window_bytes"
	_tot=$_sel
	for _q in "$@"; do _tot="$_tot + .priorities[$_q].window_bytes"; done
	jget "$_j" "($_sel) * 100 / ($_tot) | . * 10 | round / 10"
}
rate() { jget "$1" ".priorities[$2].window_bytes * 8 / .window_seconds / 1000 | round"; }

# backlogged BEFORE P...: since the engine JSON BEFORE, each P was offered
# more than it got: its egress queue ran full, and the engine either
# dropped for it or held the host back (host-side backpressure: throttles).
qfull() { jget "$1" ".priorities[$2].drops.egress_queue_full"; }
held() { jget "$1" ".priorities[$2].host_side.throttles // 0"; }
backlogged() {
	_eb=$1; shift
	_ej=$(engine_json a0)
	for _p in "$@"; do
		[ $(( $(qfull "$_ej" "$_p") + $(held "$_ej" "$_p") )) -gt \
		    $(( $(qfull "$_eb" "$_p") + $(held "$_eb" "$_p") )) ] || return 1
	done
}

j0=$(engine_json a0)
s=$(phase 0:vlan:6M:0 1:vlan:6M:0 2:vlan:6M:0)
a=$(share "$s" 0 1 2) b=$(share "$s" 1 0 2) c=$(share "$s" 2 0 1)
diag "saturated: $a / $b / $c % (kb/s $(rate "$s" 0) $(rate "$s" 1) $(rate "$s" 2))"
check "every class was offered more than it got (queue-full drops or host held back, on 0, 1, 2)" \
    backlogged "$j0" 0 1 2
check "TC 0 gets 50 +-5 % ($a)" within "$a" 45 55
check "TC 1 gets 30 +-5 % ($b)" within "$b" 25 35
check "TC 2 gets 20 +-5 % ($c)" within "$c" 15 25

j0=$(engine_json a0)
s=$(phase 0:vlan:6M:0 1:vlan:6M:0 2:vlan:6M:0 6:vlan:3M:0)
sent6=$(jget "$(cat "$NS_TMP/gen.out")" '.streams[] | select(.priority == 6) | .sent')
tx6() { echo $(( $(jget "$(engine_json a0)" '.priorities[6].counters.tx_frames') - $(jget "$j0" '.priorities[6].counters.tx_frames') )); }
# What was queued when the generator stopped still leaves: wait for it.
until_sent() { [ "$(tx6)" -ge "${sent6:-1}" ]; }
wait_for 20 until_sent
j=$(engine_json a0)
tx6=$(tx6)
diag "with strict 6: kb/s $(rate "$s" 6) / $(rate "$s" 0) $(rate "$s" 1) $(rate "$s" 2); shares of the rest $(share "$s" 0 1 2) / $(share "$s" 1 0 2) / $(share "$s" 2 0 1); priority 6: $sent6 offered, $tx6 sent"
diag "A's TAP ring: $(jget "$j" '.host_side | "\(.tap_ring) frames, \(.tap_ring_drops) dropped"')"
check "strict priority 6 goes first: every frame offered was sent ($tx6 of $sent6)" \
    eval '[ -n "$sent6" ] && [ "$sent6" -gt 0 ] && [ "$tx6" -eq "$sent6" ]'
check "and none of it waited long enough to be dropped" \
    test "$(qfull "$j" 6)" -eq "$(qfull "$j0" 6)"
j0=$(engine_json a0)

s=$(phase 0:vlan:9M:0 2:vlan:9M:0)
a=$(share "$s" 0 2) c=$(share "$s" 2 0)
diag "TC 1 idle: $a / $c % (kb/s $(rate "$s" 0) $(rate "$s" 2))"
check "TCs 0 and 2 were offered more than they got (drops or host held back)" \
    backlogged "$j0" 0 2
check "idle TC 1's share goes to TCs 0 and 2 at 50:20 (71.4 +-5 %: $a)" \
    within "$a" 66.4 76.4
finish
