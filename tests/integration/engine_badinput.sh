#!/bin/sh
# SPDX-License-Identifier: ISC
# Bad input to the engine, counted and never stalling the other priorities.
# A runs the engine at 100 Mb/s (PFC on priority 3); its host sends
# priorities 3 and 0 at 20 Mb/s each throughout.  B (no engine) sends from
# b0, with raw sockets:
#   1. malformed MAC Control frames (bad opcode, short, long, reserved
#      vector bits): counted as invalid, none taken for a pause;
#   2. a flood of PFC frames naming priority 3 with time 65535 (160000 at
#      20000/s, a frame per 50 us of the 335 ms it asks for): each counted,
#      priority 3 held while priority 0 keeps moving; one XON resumes it;
# and A's host raises its interface's MTU and sends frames larger than the
# port carries: counted as host oversize, never queued, others unharmed.
# No drop is counted on priority 3 throughout (its sender is held back).
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/engine/lib.sh"
engine_need
sockapp_need
plan 11
two_ns e

engine_start A a0 --tap dcb-a --speed 100M --pfc 3 || bail "engine A"
bg_start A "$NS_TMP/gen.out" "$ETOOL" gen dcb-a --stream 3:vlan:20M:0 \
    --stream 0:vlan:20M:0 --duration 60000
tx() { jget "$(engine_json a0)" ".priorities[$1].counters.tx_frames"; }
pc() { jget "$(engine_json a0)" ".port_counters.$1"; }
# moving P: priority P's frames leave A's engine (within 3 s)
moving() { _m0=$(tx "$1"); sleep 0.2; test "$(tx "$1")" -gt "$_m0"; }
wait_for 5 moving 3 || bail "the generator's frames do not flow"

# 1. Malformed MAC Control frames.
for k in badop short long reserved; do
	nsx B $PY "$APP" macctrl b0 $k 250 >/dev/null || bail "macctrl $k"
done
inv() { test "$(pc macctrl_invalid)" -eq 1000; }
check "1000 malformed MAC Control frames, each counted once as invalid" \
    wait_for 3 inv
check "none was taken for a pause" \
    test "$(jget "$(engine_json a0)" '.priorities[3].counters.pfc_indications')" -eq 0
check "priority 3 still moving after them" moving 3

# 2. A flood of PFC frames, priority 3, time 65535.
bg_start B "$NS_TMP/flood.out" $PY "$APP" macctrl b0 pfc3 160000 20000
nind() { jget "$(engine_json a0)" '.priorities[3].counters.pfc_indications'; }
flooding() { test "$(nind)" -gt 2000; }
wait_for 10 flooding || bail "the flood does not arrive"
# A window inside the flood (20000 frames/s for 8 s), from two snapshots
# (tx frames of 0 and 3, indications), retried if the flood ended in it.
snap() { jget "$(engine_json a0)" '[.priorities[0].counters.tx_frames, .priorities[3].counters.tx_frames, .priorities[3].counters.pfc_indications] | join(" ")'; }
inside=0
for _ in 1 2 3; do
	# shellcheck disable=SC2046 # the fields of one snapshot
	set -- $(snap); a0=$1 a3=$2
	sleep 0.3
	# shellcheck disable=SC2046
	set -- $(snap); b0=$1 b3=$2 mid=$3
	[ "$mid" -lt 160000 ] && { inside=1; break; }
done
diag "inside the flood (indications $mid): priority 0 +$((b0 - a0)), priority 3 +$((b3 - a3)) frames"
wait_for 30 test -s "$NS_TMP/flood.out"
ind() { test "$(nind)" -eq 160000; }
check "every PFC frame of the flood counted" wait_for 3 ind
check "priority 0 kept moving during the flood" test $((b0 - a0)) -gt 0
check "priority 3 was held (not one frame in the window)" \
    test $inside = 1 -a $((b3 - a3)) -eq 0
nsx B $PY "$APP" macctrl b0 xon3 1 >/dev/null
check "one XON (time 0) lets priority 3 go again" wait_for 3 moving 3

# 3. Frames larger than the port's MTU from the host.
nsx A ip link set dcb-a mtu 9000 || bail "mtu"
nsx A "$ETOOL" gen dcb-a --stream 0:raw:0:100 --size 4000 --duration 3000 >"$NS_TMP/big.out"
diag "oversize sender: $(cat "$NS_TMP/big.out")"
big() { test "$(pc host_oversize)" -eq 100; }
check "100 frames over the port's MTU counted as host oversize ($(pc host_oversize))" wait_for 3 big
unharmed() { moving 0 && moving 3; }
check "priorities 0 and 3 unharmed" unharmed
sleep 0.15	# the kernel's side is read at most every 100 ms
j=$(engine_json a0)
diag "A prio 3 drops: $(jget "$j" '.priorities[3].drops | tostring'), host side $(jget "$j" '.priorities[3].host_side | tostring')"
check "no drop counted on priority 3" \
    test "$(jget "$j" '[.priorities[3].drops[]] | add')" -eq 0
check "the TAP's ring dropped nothing" \
    test "$(jget "$j" .host_side.tap_ring_drops)" -eq 0
finish
