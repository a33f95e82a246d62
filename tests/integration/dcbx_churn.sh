#!/bin/sh
# SPDX-License-Identifier: ISC
# A peer that changes its IEEE DCBX configuration with every LLDPDU (500
# a second for 3 s, bench/lldp-flood -d ieee -v) towards a willing port:
# every change acts (the operational PFC follows the last PDU), and the
# DCBX change messages are limited per port and second, what is left out
# counted in a later line (daemon/port/port.c port_dcbx_log_ok()), so that logging
# does not become the daemon's main cost.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
FLOOD=$top_builddir/bench/lldp-flood
[ -x "$FLOOD" ] || skip_all "bench/lldp-flood not built"
plan 6
ns_setup d
ns_pair d2a d2b
dx_conf "$NS_TMP/c.conf" 30 4
dx_start a a "$NS_TMP/c.conf" || bail "dcbxd"
# Changes the port makes on its own before the flood (link-up at a known
# speed re-derives the local side) are not the flood's.
wait_for 10 sh -c "grep -q 'd2a: link up' '$NS_TMP/a.log'"
lines0=$(grep -c "operational config changed" "$NS_TMP/a.log")
sent=$(nsx b "$FLOOD" -i d2b -r 500 -t 3 -d ieee -v | awk '{ print $2 }')
in1=$(dx_stat a d2a statsFramesInTotal)
# After a quiet second, two more PDUs (variant 0, then 1): a change in a
# new second, so that what the last busy second left out is written.
sleep 1.2
nsx b "$FLOOD" -i d2b -r 20 -c 2 -d ieee -v >/dev/null
in_ge() { [ "$(dx_stat a d2a statsFramesInTotal)" -ge "$1" ]; }
# The flood's tail may still be in the ring (blocks retire after 100 ms):
# wait, bounded, for every frame sent; the frame count is read after the
# log, so that no change logged can come from a frame not yet counted.
wait_for 5 in_ge $((sent + 2))
lines=$(( $(grep -c "operational config changed" "$NS_TMP/a.log") - lines0 ))
left=$(sed -n 's/.*: \([0-9]*\) DCBX change messages left out.*/\1/p' \
    "$NS_TMP/a.log" | awk '{ s += $1 } END { print s + 0 }')
in2=$(dx_stat a d2a statsFramesInTotal)
perbucket=$(grep "operational config changed" "$NS_TMP/a.log" |
    awk '{ print int($1) }' | uniq -c | sort -n | tail -1 | awk '{ print $1 }')
diag "sent $sent, received $in1 (+$((in2 - in1))), 'operational config" \
    "changed' lines $lines (at most $perbucket in one wall-clock second)," \
    "left out $left"
check "the flood reached the daemon" [ "${in1:-0}" -ge 1000 ]
check "messages were left out, and said so" [ "$left" -gt 0 ]
# The limiter's second is ev_now_ms()'s, the log's the wall clock's: one
# wall-clock second spans at most two of the limiter's (2 x 20).
check "at most 40 change lines in any wall-clock second" \
    [ "${perbucket:-0}" -le 40 ]
# Every PDU of the flood was a change (two configurations, alternating):
# each one either logged or counted.
covered() { [ $((lines + left)) -ge $((in1 - 1)) ] &&
    [ $((lines + left)) -le "$in2" ]; }
check "logged + left out covers every change of the flood" covered
oper_pfc_3() {
	dx_jq a '(if type == "array" then .[0] else . end) |
	    [.pfc.oper.prio_pfc | to_entries[] | select(.value) | .key] == [3]' show dcbx dev d2a
}
check "the last PDU's configuration is operational (PFC on 3 only)" oper_pfc_3
check_clean "no sanitizer report" "$NS_TMP/a.log"
