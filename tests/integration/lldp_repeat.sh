#!/bin/sh
# SPDX-License-Identifier: ISC
# The packet ring's repeat filter (daemon/lldp/sock_rep.h) under real
# floods of IEEE DCBX LLDPDUs (bench/lldp-flood):
#  - one unchanged LLDPDU, 2000 a second for 8 s with a TTL of 3 s: the
#    ring opens with the filter, the kernel drops most copies and dcbxd
#    counts every one (statsFramesInTotal: every frame sent, less what the
#    kernel dropped for want of room); the neighbour's TTL is refreshed
#    from the count, so it is never aged out while the flood lasts, and is
#    once it ends;
#  - a PDU that changes every time: nothing is dropped as a repeat, every
#    PDU is counted, the last one is what the neighbour holds;
#  - repeat-filter = false: a ring without it.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
flood_need
ns_setup d
ns_pair d2a d2b
dx_conf "$NS_TMP/c.conf" 5 2
dx_start a a "$NS_TMP/c.conf" || bail "dcbxd"
if grep -q "no repeat filter for packet rings" "$NS_TMP/a.log"; then
	skip_all "no BPF here: $(grep "no repeat filter" "$NS_TMP/a.log")"
fi
plan 14
rx() { ctl_get "$NS_TMP/a.sock" ".[0].rx.$1" show stats dev d2a; }
in_total() { dx_stat a d2a statsFramesInTotal; }
ageouts() { dx_stat a d2a statsAgeoutsTotal; }
rx_socket() { [ "$(rx mode)" = socket ]; }
# counted_ge N: frames in plus kernel drops reach N
counted_ge() { [ $(( $(in_total) + $(rx kernel_drops) )) -ge "$1" ]; }

# 1. One unchanged LLDPDU, once the port listens.
wait_for 10 grep -q "d2a: agent created" "$NS_TMP/a.log"
bl0=$(backlog_drops)
bg_start b "$NS_TMP/flood1.out" "$FLOOD" -i d2b -r 2000 -t 8 -T 3 -d ieee
F=$BG_PID
: >"$NS_TMP/ages"
while kill -0 "$F" 2>/dev/null; do
	echo "$(ageouts) $(dx_jq a 'length == 1' && echo 1 || echo 0)" \
	    >>"$NS_TMP/ages"
	sleep 0.2
done
wait_for 20 test -s "$NS_TMP/flood1.out"
sent=$(awk '{ print $2 }' "$NS_TMP/flood1.out")
bl1=$(backlog_drops)
samples=$(wc -l <"$NS_TMP/ages")
# Samples from when the neighbour was first heard to the flood's end.
aged=$(awk '$2 == 1 { s = 1 } s && $1 != 0 { n++ } END { print n + 0 }' "$NS_TMP/ages")
listed=$(awk '$2 == 1 { s = 1 } s && $2 == 0 { n++ } END { print n + 0 }' "$NS_TMP/ages")
diag "flood 1: $sent frames; $samples samples of statsAgeoutsTotal during it"
check "the flood opened a ring with a repeat filter" \
    grep -q "d2a: busy port .*switched to a packet ring with a repeat filter" "$NS_TMP/a.log"
check "no ageout while the flood lasted (TTL 3 s, 8 s of copies dropped in the kernel)" \
    [ "$samples" -ge 1 -a "$aged" = 0 ]
check "... and the neighbour stayed listed throughout" [ "$listed" = 0 ]
# The count left in the filter comes at its next tick, or as the ring
# closes; the input backlog may have lost some on a busy machine.
wait_for 30 counted_ge $((sent - (bl1 - bl0)))
in1=$(in_total); k1=$(rx kernel_drops); r1=$(rx repeats)
diag "statsFramesInTotal $in1, rx repeats $r1, kernel drops $k1, input backlog drops $((bl1 - bl0)) (whole machine)"
check "most copies were dropped in the kernel (rx repeats $r1 of $sent)" \
    [ "${r1:-0}" -ge $((sent / 2)) ]
check "every frame sent was counted once, or dropped by the kernel" \
    [ $((in1 + k1)) -le "$sent" -a $((in1 + k1 + bl1 - bl0)) -ge "$sent" ]
aged_once() { [ "$(ageouts)" = 1 ]; }
check "the neighbour ages out once the copies stop (its TTL runs from the last)" \
    wait_for 30 aged_once
check "the ring closed after the flood" wait_for 30 rx_socket

# 2. A PDU that changes every time.
in0=$(in_total); k0=$(rx kernel_drops); bl0=$(backlog_drops)
sent2=$(nsx b "$FLOOD" -i d2b -r 2000 -t 3 -T 120 -v -d ieee | awk '{ print $2 }')
bl1=$(backlog_drops)
wait_for 30 counted_ge $((in0 + k0 + sent2 - (bl1 - bl0)))
in2=$(in_total); k2=$(rx kernel_drops); r2=$(rx repeats)
diag "flood 2: $sent2 changing PDUs; in $((in2 - in0)), kernel drops $((k2 - k0)), rx repeats $r2"
check "the changing flood used a ring too" \
    [ "$(grep -c 'd2a: busy port .*with a repeat filter' "$NS_TMP/a.log")" -ge 2 ]
check "no changed PDU was dropped as a repeat" [ "$r2" = "$r1" ]
check "every changing PDU was counted" \
    [ $((in2 - in0 + k2 - k0 + bl1 - bl0)) -ge "$sent2" ]
ctr=$(printf '%010d' "$sent2")
check "the neighbour holds the last PDU sent (System Description ...$ctr)" \
    wait_for 10 dx_jq a "any(.[]; .sys_desc | endswith(\"$ctr\"))"

# 3. repeat-filter = false: the ring takes every frame.
kill "$PID_a"; wait_for 20 sh -c "! kill -0 $PID_a 2>/dev/null"
dx_conf "$NS_TMP/c2.conf" 5 2 "repeat-filter = false;"
dx_start a a2 "$NS_TMP/c2.conf" || bail "dcbxd"
wait_for 10 grep -q "d2a: agent created" "$NS_TMP/a2.log"
nsx b "$FLOOD" -i d2b -r 2000 -t 2 -T 120 -d ieee >/dev/null
check "repeat-filter = false: a ring without the filter" \
    grep -q 'd2a: busy port .*switched to a packet ring$' "$NS_TMP/a2.log"
check "... and no repeat dropped" \
    [ "$(ctl_get "$NS_TMP/a2.sock" '.[0].rx.repeats' show stats dev d2a)" = 0 ]
check_clean "no sanitizer report" "$NS_TMP/a.log" "$NS_TMP/a2.log"
finish
