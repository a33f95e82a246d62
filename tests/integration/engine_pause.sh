#!/bin/sh
# SPDX-License-Identifier: ISC
# The engine honours PFC and 802.3x PAUSE from its peer.  A at 100 Mb/s runs
# the engine on a0; B (no engine) sends pause frames on b0 and watches the
# arrivals of priority 3 and 0 (etool pausecheck).
#
# Why 100 Mb/s: one quantum is 5.12 us, so 20000 quanta are 102.4 ms, long
# against the ~1 ms wake-up jitter of a machine whose 2 cores are shared by
# many jobs, and 2 x 20 Mb/s of 1500-octet frames is little CPU.
# Tolerance: a correct engine cannot resume early -- its timer starts at the
# kernel receive time of the pause, after B sent it -- so the lower bound is
# the pause less one frame interval of the 20 Mb/s stream (0.6 ms); above, we
# allow 20 ms for the generator's and the engine's wake-up latency under load.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/engine/lib.sh"
engine_need
plan 10
two_ns e

engine_start A a0 --tap dcb-a --speed 100M --pfc 3 \
    --prio-tc 0,0,0,1,0,0,0,0 --tc-bw 50,50,0,0,0,0,0,0 ||
	bail "engine did not start: $(cat "$NS_TMP/eng-a0.out")"
bg_start A "$NS_TMP/gen.out" "$ETOOL" gen dcb-a --stream 3:vlan:20M:0 \
    --stream 0:vlan:20M:0 --duration 9000
sleep 0.3

D=102400000
r=$(nsx B "$ETOOL" pausecheck b0 --prio 3 --other 0 --quanta 20000 --speed 100M)
diag "pfc 20000 quanta: $r"
p=$(jget "$r" .pause_ns)
check "priority 3 stops for 20000 quanta at 100M (102.4 ms, -0.6/+20 ms): $p ns" \
    within "$p" $((D - 600000)) $((D + 20000000))
check "priority 0 keeps flowing while 3 is paused" \
    test "$(jget "$r" .other_during)" -gt 50

r=$(nsx B "$ETOOL" pausecheck b0 --prio 3 --other 0 --quanta 65535 \
    --speed 100M --xon-after 50)
diag "pfc 65535 then time 0 after 50 ms: $r"
check "time 0 resumes priority 3 at once (< 20 ms): $(jget "$r" .resume_after_xon_ns) ns" \
    within "$(jget "$r" .resume_after_xon_ns)" 0 20000000
check "and long before the 335 ms pause would have ended" \
    within "$(jget "$r" .pause_ns)" 40000000 100000000

r=$(nsx B "$ETOOL" pausecheck b0 --prio 3 --other 0 --pause 20000 --speed 100M)
diag "802.3x pause 20000: $r"
check "802.3x PAUSE stops priority 3 for its time" \
    within "$(jget "$r" .pause_ns)" $((D - 600000)) $((D + 20000000))
check "802.3x PAUSE stops priority 0 too" test "$(jget "$r" .other_during)" -eq 0

r=$(nsx B "$ETOOL" pausecheck b0 --prio 0 --other 3 --pause 20000 --speed 100M)
check "802.3x PAUSE: priority 0 pauses as long" \
    within "$(jget "$r" .pause_ns)" $((D - 600000)) $((D + 20000000))

j=$(engine_json a0)
check "engine counts 3 PFC indications for priority 3" \
    test "$(jget "$j" '.priorities[3].counters.pfc_indications')" -eq 3
check "engine counts 2 PAUSE frames" \
    test "$(jget "$j" .port_counters.pause_frames_rx)" -eq 2
pt=$(jget "$j" '.priorities[3].counters.paused_ns')
diag "priority 3 paused_ns $pt"
check "time paused for priority 3 adds up (3 x ~102 ms + 50 ms)" \
    within "$pt" 350000000 370000000
finish
