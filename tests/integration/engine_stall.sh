#!/bin/sh
# SPDX-License-Identifier: ISC
# Stall prevention: B's host stops draining (its TAP is down, so writes
# fail).  After --stall-ms B must stop asking A to pause priority 3 (time 0),
# drop and count, and raise a "stall" event; A must not stay paused.  When
# the host drains again, B raises "recover".  The 1 MiB queue fills in
# about 80 ms at 100 Mb/s, well before the 300 ms stall time, so B has
# asked for a pause before it gives up even on a loaded machine.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/engine/lib.sh"
engine_need
plan 6
two_ns e
engine_start A a0 --tap dcb-a --speed 1G --pfc 3 --qmem 4M || bail "engine A"
engine_start B b0 --tap dcb-b --speed 1G --pfc 3 --qmem 1M --stall-ms 300 ||
	bail "engine B"
nsx B ip link set dcb-b down
nsx A "$ETOOL" gen dcb-a --stream 3:vlan:100M:2000 --duration 3000 >/dev/null
# A's engine sends what it took from its TAP (paced); B stalls on it.
sent_all() { [ "$(jget "$(engine_json a0)" '.priorities[3].counters.tx_frames')" -ge 2000 ]; }
wait_for 30 sent_all
wait_for 20 grep -q '"event":"stall","priority":3' "$NS_TMP/eng-b0.out"
ja=$(engine_json a0)
jb=$(engine_json b0)
diag "B prio 3: $(jget "$jb" '.priorities[3] | [.stalled, .counters.pfc_requests, .drops] | tostring')"
check "B raised a stall event for priority 3" \
    grep -q '"event":"stall","priority":3' "$NS_TMP/eng-b0.out"
check "B asked A to pause first" \
    test "$(jget "$jb" '.priorities[3].counters.pfc_requests')" -gt 1
check "B dropped priority 3 and counted it as stall" \
    test "$(jget "$jb" '.priorities[3].drops.stall')" -gt 0
check "A is not left paused: it sent all 2000 frames" \
    test "$(jget "$ja" '.priorities[3].counters.tx_frames')" -eq 2000
nsx B ip link set dcb-b up
nsx A "$ETOOL" gen dcb-a --stream 3:vlan:10M:20 --duration 1000 >/dev/null
check "B raised recover when its host drained again" \
    wait_for 20 grep -q '"event":"recover","priority":3' "$NS_TMP/eng-b0.out"
# The counters snapshot may trail the event by up to its 100 ms period.
unstalled() { test "$(jget "$(engine_json b0)" '.priorities[3].stalled')" = false; }
check "and priority 3 is lossless again" wait_for 20 unstalled
finish
