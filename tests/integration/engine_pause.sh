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
# it was.  XON resumes before the timer would have; a PAUSE stops everyone.
# How long past its time a pause lasts is printed, not checked
# (bench/bench_engine.sh measures the reaction).
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
    --stream 0:vlan:20M:0 --duration 120000	# stopped at cleanup
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

r=$(nsx B "$ETOOL" pausecheck b0 --prio 3 --other 0 --pause 20000 --speed 100M)
diag "802.3x pause 20000: $r"
check "802.3x PAUSE stops priority 3 for its time (at least)" \
    test "$(jget "$r" .pause_ns)" -ge $((D - 600000))
check "802.3x PAUSE stops priority 0 too" test "$(jget "$r" .other_during)" -eq 0

r=$(nsx B "$ETOOL" pausecheck b0 --prio 0 --other 3 --pause 20000 --speed 100M)
check "802.3x PAUSE: priority 0 pauses as long (at least)" \
    test "$(jget "$r" .pause_ns)" -ge $((D - 600000))

j=$(engine_json a0)
check "engine counts 3 PFC indications for priority 3" \
    test "$(jget "$j" '.priorities[3].counters.pfc_indications')" -eq 3
check "engine counts 2 PAUSE frames" \
    test "$(jget "$j" .port_counters.pause_frames_rx)" -eq 2
pt=$(jget "$j" '.priorities[3].counters.paused_ns')
diag "priority 3 paused_ns $pt"
check "time paused for priority 3 adds up (3 x 102.4 ms + the 50 ms before XON, at least)" \
    test "$pt" -ge $((3 * (D - 600000) + 50000000 - 1000000))
finish
