#!/bin/sh
# SPDX-License-Identifier: ISC
# The engine honours PFC and 802.3x PAUSE from its peer.  A at 100 Mb/s runs
# the engine on a0; B (no engine) sends pause frames on b0 and watches the
# arrivals of priority 3 and 0 (etool pausecheck).
#
# Why 100 Mb/s: one quantum is 5.12 us, so 20000 quanta are 102.4 ms, long
# against the ~1 ms wake-up jitter of a machine whose 2 cores are shared by
# many jobs, and 2 x 20 Mb/s of 1500-octet frames is little CPU.
# Only order is checked, never how late something happens (a busy machine
# makes everything late): a correct engine cannot resume early -- its
# timer starts at the kernel receive time of the pause, after B sent it --
# so the pause is at least its time less one frame interval of the 20 Mb/s
# stream (0.6 ms); pausecheck measures it from just before the send to the
# kernel's arrival stamp of the first frame after it, never shorter than
# it was.  XON resumes before the timer would have.  802.3x PAUSE: on a
# port with PFC it is ignored and counted (802.1Q 36.1.1; issue 34 item
# 3: it used to stop priority 0 with 3), a flood of them stops nothing;
# on a port without PFC it stops every priority for its time.
# How long past its time a pause lasts is printed, not checked
# (bench/bench_engine.sh measures the reaction).
# ENGINE_MODE=port runs the same on the port itself (engine_pause_port.sh).
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/engine/lib.sh"
engine_need
plan 15
two_ns e

# shellcheck disable=SC2086
engine_start A a0 $ENGINE_ARGS --speed 100M --pfc 3 \
    --prio-tc 0,0,0,1,0,0,0,0 --tc-bw 50,50,0,0,0,0,0,0 ||
	bail "engine did not start: $(cat "$NS_TMP/eng-a0.out")"
bg_start A "$NS_TMP/gen.out" "$ETOOL" gen $HOST_A --stream 3:vlan:20M:0 \
    --stream 0:vlan:20M:0 --duration 120000	# stopped at cleanup
GENPID=$BG_PID
# The streams flow before any pause is sent.
flowing() { [ "$(jget "$(engine_json a0)" '.priorities[3].counters.tx_frames')" -gt 10 ]; }
wait_for 20 flowing || bail "the generator's streams do not flow"

D=102400000
r=$(nsx B "$ETOOL" pausecheck b0 --prio 3 --other 0 --quanta 20000 --speed 100M)
diag "pfc 20000 quanta: $r"
p=$(jget "$r" .pause_ns)
check "priority 3 stops for 20000 quanta at 100M (at least 102.4 ms - 0.6 ms): $p ns" \
    test "$p" -ge $((D - 600000))
check "priority 0 keeps flowing while 3 is paused" \
    test "$(jget "$r" .other_during)" -gt 0

r=$(nsx B "$ETOOL" pausecheck b0 --prio 3 --other 0 --quanta 65535 \
    --speed 100M --xon-after 50)
diag "pfc 65535 then time 0 after 50 ms: $r"
check "time 0 resumes priority 3 after the XON was sent ($(jget "$r" .resume_after_xon_ns) ns later)" \
    test "$(jget "$r" .resume_after_xon_ns)" -ge 0
check "and before the 65535-quanta (335 ms) timer would have ended it" \
    test "$(jget "$r" .pause_ns)" -lt $((65535 * 512 * 10))

# A PAUSE on a port with PFC: ignored, counted; nothing stops.  (Counted
# from the engine's own frames: pausecheck's measure needs a real pause.)
j=$(engine_json a0)
n0=$(jget "$j" '.priorities[0].counters.tx_frames')
n3=$(jget "$j" '.priorities[3].counters.tx_frames')
t3=$(jget "$j" '.priorities[3].counters.paused_ns')
nsx B "$ETOOL" pfc b0 --pause 65535 --every 1 --duration 1000 >"$NS_TMP/flood.out"
diag "PAUSE flood: $(cat "$NS_TMP/flood.out")"
j=$(engine_json a0)
sent=$(jget "$(cat "$NS_TMP/flood.out")" .sent)
check "a flood of $sent PAUSE frames, 65535 quanta each: all counted as ignored" \
    test "$(jget "$j" .port_counters.pause_ignored)" -eq "$sent"
check "priority 0 kept flowing through the flood (+$(( $(jget "$j" '.priorities[0].counters.tx_frames') - n0 )) frames)" \
    test "$(jget "$j" '.priorities[0].counters.tx_frames')" -gt $((n0 + 500))
check "... and priority 3 too (+$(( $(jget "$j" '.priorities[3].counters.tx_frames') - n3 )) frames), not paused by it" \
    test "$(jget "$j" '.priorities[3].counters.tx_frames')" -gt $((n3 + 500)) -a \
    "$(jget "$j" '.priorities[3].counters.paused_ns')" -eq "$t3"
check "priority 0 was never paused" \
    test "$(jget "$j" '.priorities[0].counters.paused_ns')" -eq 0
check "engine counts 3 PFC indications for priority 3" \
    test "$(jget "$j" '.priorities[3].counters.pfc_indications')" -eq 3
check "engine counts every PAUSE frame received" \
    test "$(jget "$j" .port_counters.pause_frames_rx)" -eq "$sent"
pt=$(jget "$j" '.priorities[3].counters.paused_ns')
diag "priority 3 paused_ns $pt"
check "time paused for priority 3 adds up (102.4 ms + the 50 ms before XON, at least)" \
    test "$pt" -ge $((D - 600000 + 50000000 - 1000000))

# The same port without PFC: a PAUSE stops every priority.
kill "$GENPID" 2>/dev/null
eval "kill \$EPID_a0"
wait_for 10 sh -c "! kill -0 $EPID_a0 2>/dev/null"
# shellcheck disable=SC2086
engine_start A a0 $ENGINE_ARGS --speed 100M ||
	bail "engine (no PFC) did not start"
bg_start A "$NS_TMP/gen2.out" "$ETOOL" gen $HOST_A --stream 3:vlan:20M:0 \
    --stream 0:vlan:20M:0 --duration 120000
wait_for 20 flowing || bail "the streams do not flow (no PFC)"
r=$(nsx B "$ETOOL" pausecheck b0 --prio 3 --other 0 --pause 20000 --speed 100M)
diag "802.3x pause 20000 without PFC: $r"
check "without PFC, 802.3x PAUSE stops priority 3 for its time (at least)" \
    test "$(jget "$r" .pause_ns)" -ge $((D - 600000))
check "... and priority 0 too" test "$(jget "$r" .other_during)" -eq 0
r=$(nsx B "$ETOOL" pausecheck b0 --prio 0 --other 3 --pause 20000 --speed 100M)
check "802.3x PAUSE: priority 0 pauses as long (at least)" \
    test "$(jget "$r" .pause_ns)" -ge $((D - 600000))
check "none was ignored" test "$(jget "$(engine_json a0)" .port_counters.pause_ignored)" -eq 0
finish
