#!/bin/sh
# SPDX-License-Identifier: ISC
# engine_port_badinput.sh -- bad input to the engine on the port itself
# (port mode, 100 Mb/s, PFC on priority 3), counted, never stalling the
# other priorities; A's host sends priorities 3 and 0 at 20 Mb/s each on
# a0 itself throughout.  B (no engine) sends from b0 with raw sockets:
#   1. malformed MAC Control frames (bad opcode, short, long, reserved
#      vector bits): counted as invalid, none taken for a pause;
#   2. a flood of PFC frames naming priority 3 with time 65535: each
#      counted, 3 held while 0 keeps moving; one XON resumes it;
#   3. a flood of 802.3x PAUSE frames (65535 quanta, 1 ms apart): on a PFC
#      port ignored and counted, and priority 0 keeps flowing (issue 34);
#   4. frames larger than the MTU, from the wire (b0 at MTU 9000) and from
#      A's host: the kernel refuses them, nothing of the engine's moves;
#   5. the qdisc tree changed behind the engine's back (root deleted, a
#      leaf replaced, the filter deleted, a class changed), also while a
#      priority is held: restored each time, counted, reported
#      (qdisc_tree_restored), the held priority still held.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/engine/lib.sh"
engine_need
sockapp_need
need_cmd tc
plan 21
two_ns e

engine_start A a0 --mode port --speed 100M --pfc 3 || bail "engine A"
bg_start A "$NS_TMP/gen.out" "$ETOOL" gen a0 --stream 3:vlan:20M:0 \
    --stream 0:vlan:20M:0 --duration 120000
tx() { jget "$(engine_json a0)" ".priorities[$1].counters.tx_frames"; }
pc() { jget "$(engine_json a0)" ".port_counters.$1"; }
tree() { jget "$(engine_json a0)" ".tree.$1"; }
# moving P: priority P's frames leave A's port
moving() { _m0=$(tx "$1"); sleep 0.3; test "$(tx "$1")" -gt "$_m0"; }
wait_for 10 moving 3 || bail "the generator's frames do not flow"

# 1. Malformed MAC Control frames.
for k in badop short long reserved; do
	nsx B $PY "$APP" macctrl b0 $k 250 >/dev/null || bail "macctrl $k"
done
inv() { test "$(pc macctrl_invalid)" -eq 1000; }
check "1000 malformed MAC Control frames, each counted once as invalid" \
    wait_for 5 inv
check "none was taken for a pause" \
    test "$(jget "$(engine_json a0)" '.priorities[3].counters.pfc_indications')" -eq 0
check "priority 3 still moving after them" moving 3

# 2. A flood of PFC frames, priority 3, time 65535 (335 ms at 100M).
bg_start B "$NS_TMP/flood.out" $PY "$APP" macctrl b0 pfc3 100000 20000
nind() { jget "$(engine_json a0)" '.priorities[3].counters.pfc_indications'; }
flooding() { test "$(nind)" -gt 2000; }
wait_for 10 flooding || bail "the flood does not arrive"
snap() { jget "$(engine_json a0)" '[.priorities[0].counters.tx_frames, .priorities[3].counters.tx_frames, .priorities[3].counters.pfc_indications] | join(" ")'; }
inside=0
for _ in 1 2 3; do
	# shellcheck disable=SC2046 # three numbers, split on purpose
	set -- $(snap); a0=$1 a3=$2
	sleep 0.3
	# shellcheck disable=SC2046 # the same
	set -- $(snap); b0=$1 b3=$2 mid=$3
	[ "$mid" -lt 100000 ] && { inside=1; break; }
done
diag "inside the flood (indications $mid): priority 0 +$((b0 - a0)), priority 3 +$((b3 - a3)) frames"
wait_for 30 test -s "$NS_TMP/flood.out"
ind() { test "$(nind)" -eq 100000; }
check "every PFC frame of the flood counted" wait_for 5 ind
check "priority 0 kept moving during the flood" test $((b0 - a0)) -gt 0
check "priority 3 was held (not one frame in the window)" \
    test $inside = 1 -a $((b3 - a3)) -eq 0
nsx B $PY "$APP" macctrl b0 xon3 1 >/dev/null
check "one XON (time 0) lets priority 3 go again" wait_for 5 moving 3

# 3. A flood of 802.3x PAUSE on the PFC port: ignored, counted.
p0=$(tx 0); p3=$(tx 3)
nsx B "$ETOOL" pfc b0 --pause 65535 --every 1 --duration 1500 >"$NS_TMP/pause.out"
sent=$(jget "$(cat "$NS_TMP/pause.out")" .sent)
j=$(engine_json a0)
diag "PAUSE flood of $sent: priority 0 +$(( $(jget "$j" '.priorities[0].counters.tx_frames') - p0 )), 3 +$(( $(jget "$j" '.priorities[3].counters.tx_frames') - p3 ))"
check "every PAUSE frame counted as received and ignored ($sent)" \
    test "$(jget "$j" .port_counters.pause_ignored)" -eq "$sent" -a \
    "$(jget "$j" .port_counters.pause_frames_rx)" -eq "$sent"
check "priority 0 kept flowing through the PAUSE flood" \
    test "$(jget "$j" '.priorities[0].counters.tx_frames')" -gt $((p0 + 1000))
check "... and priority 3 too (nothing held)" \
    test "$(jget "$j" '.priorities[3].counters.tx_frames')" -gt $((p3 + 1000))
check "priority 0 was never held" \
    test "$(jget "$j" '.priorities[0].gate.holds')" -eq 0

# 4. Frames larger than the MTU: from the wire, and from A's host.
inv0=$(pc macctrl_invalid)
nsx B ip link set b0 mtu 9000
d0=$(nsx B cat /sys/class/net/b0/statistics/tx_dropped)
nsx B "$ETOOL" gen b0 --stream 0:raw:0:100 --size 4000 --duration 2000 >/dev/null
d1=$(nsx B cat /sys/class/net/b0/statistics/tx_dropped)
diag "b0 tx_dropped $d0 -> $d1"
big=$(nsx A "$ETOOL" gen a0 --stream 0:raw:0:100 --size 4000 --duration 500 | jq .sent)
check "A's host cannot send a frame over the port's MTU (sent $big)" test "$big" -eq 0
check "the kernel dropped B's oversized frames before A (veth: $((d1 - d0)))" \
    test $((d1 - d0)) -ge 100
unmoved() { test "$(pc macctrl_invalid)" -eq "$inv0" && moving 0 && moving 3; }
check "nothing of the engine's moved: no MAC Control counted, priorities move" \
    unmoved

# 5. The tree changed behind the engine's back.
r0=$(tree restores)
restored() { test "$(tree restores)" -gt "$1" && test "$(tree intact)" = true &&
    nsx A tc qdisc show dev a0 | grep -q '^qdisc htb 1: root' &&
    test "$(nsx A tc qdisc show dev a0 | grep -c '^qdisc tbf')" -eq 8 &&
    nsx A tc filter show dev a0 | grep -q bpf; }
nsx A tc qdisc del dev a0 root
check "root deleted: restored" wait_for 10 restored "$r0"
r0=$(tree restores)
nsx A tc qdisc replace dev a0 parent 1:4 handle 33: pfifo limit 10
check "a leaf replaced: restored" wait_for 10 restored "$r0"
r0=$(tree restores)
nsx A tc filter del dev a0 parent 1:
check "the filter deleted: restored" wait_for 10 restored "$r0"
r0=$(tree restores)
nsx A tc class change dev a0 parent 1:ff classid 1:4 htb rate 1kbit ceil 1kbit
rate_back() { restored "$1" && ! nsx A tc class show dev a0 classid 1:4 | grep -q 'ceil 1Kbit'; }
check "a class changed: restored" wait_for 10 rate_back "$r0"
# While priority 3 is held (a PFC of 65535 quanta every 50 ms).
bg_start B "$NS_TMP/hold.out" "$ETOOL" pfc b0 --prio 3 --quanta 65535 \
    --every 50 --duration 3000
held() { _h0=$(tx 3); sleep 0.3; test "$(tx 3)" -eq "$_h0"; }
wait_for 10 held || bail "priority 3 not held"
r0=$(tree restores)
nsx A tc qdisc del dev a0 root
wait_for 10 restored "$r0"
check "restored while priority 3 was held: still held after" held
check "... while priority 0 moves" moving 0
wait_for 10 test -s "$NS_TMP/hold.out"
nev=$(grep -c '"event":"qdisc_tree_restored"' "$NS_TMP/eng-a0.out")
check "each restore was reported as an event ($nev) and logged" \
    test "$nev" -ge 5 -a "$(grep -c 'changed behind its back' "$NS_TMP/eng-a0.out")" -ge 5
finish
