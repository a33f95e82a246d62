#!/bin/sh
# SPDX-License-Identifier: ISC
# A peer that changes its IEEE DCBX configuration with every LLDPDU
# (bench/lldp-flood -d ieee -v, two configurations alternating) towards a
# willing port.  First 150 a second for 4 s (under the packet ring's
# threshold: the socket queue, read in moderated bursts), then 2000 a
# second for 1 s (the packet ring):
#  - of the changes read together, the first and the last are negotiated,
#    those between are superseded and counted ("coalesced"); none is lost
#    and none counted twice, and the last PDU's configuration is the one
#    that operates;
#  - the DCBX change messages are limited per port and second, what is
#    left out counted in a later line (daemon/port/port_dcbx.c
#    port_dcbx_log_ok()), so that logging does not become the daemon's
#    main cost.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
flood_need
plan 12
ns_setup d
ns_pair d2a d2b
dx_conf "$NS_TMP/c.conf" 30 4
dx_start a a "$NS_TMP/c.conf" || bail "dcbxd"
# Changes the port makes on its own before the flood (link-up at a known
# speed re-derives the local side) are not the flood's.
wait_for 10 sh -c "grep -q 'd2a: link up' '$NS_TMP/a.log'"
# The log's DCBX change lines, and the changes left out of it so far.
# (An oper change is one line, "IF: PFC now 3 from MAC; ETS now ...": what
# moved first; "operational config changed" when no table did.)
changed_lines() { grep -Ec "INF/dcbx\] [^ ]+: (PFC now|ETS now|APP now|operational config changed)" "$NS_TMP/a.log"; }
left_out() {
	sed -n 's/.*: \([0-9]*\) DCBX change messages left out.*/\1/p' \
	    "$NS_TMP/a.log" | awk '{ s += $1 } END { print s + 0 }'
}
# show-dcbx of d2a: the port's object (an array of one, or the object).
DCBX0='(if type == "array" then .[0] else . end)'
coalesced() { ctl_get "$NS_TMP/a.sock" "$DCBX0 | .coalesced" show dcbx dev d2a; }
in_ge() { [ "$(dx_stat a d2a statsFramesInTotal)" -ge "$1" ]; }
oper_pfc_3() {
	dx_jq a "$DCBX0 |
	    [.pfc.oper.prio_pfc | to_entries[] | select(.value) | .key] == [3]" show dcbx dev d2a
}
lines0=$(changed_lines)
# Both phases end on variant 1 (PFC on priority 3 only): an even count
# of PDUs, each phase starting with variant 0.
sent=$(nsx b "$FLOOD" -i d2b -r 150 -t 5 -c 600 -d ieee -v | awk '{ print $2 }')
in1=$(dx_stat a d2a statsFramesInTotal)
# After a quiet second, two more PDUs (variant 0, then 1): a change in a
# new second, so that what the last busy second left out is written.
sleep 1.2
nsx b "$FLOOD" -i d2b -r 20 -c 2 -d ieee -v >/dev/null
wait_for 5 in_ge $((sent + 2))
lines=$(( $(changed_lines) - lines0 ))
left=$(left_out)
in2=$(dx_stat a d2a statsFramesInTotal)
co=$(coalesced)
perbucket=$(grep "operational config changed" "$NS_TMP/a.log" |
    awk '{ print int($1) }' | uniq -c | sort -n | tail -1 | awk '{ print $1 }')
diag "socket queue: sent $sent, received $in1 (+$((in2 - in1))), 'operational" \
    "config changed' lines $lines (at most $perbucket in one wall-clock" \
    "second), left out $left, coalesced $co"
check "the flood reached the daemon" [ "${in1:-0}" -ge 500 ]
check "messages were left out, and said so" [ "$left" -gt 0 ]
# The limiter's second is ev_now_ms()'s, the log's the wall clock's: one
# wall-clock second spans at most two of the limiter's (2 x 20).
check "at most 40 change lines in any wall-clock second" \
    [ "${perbucket:-0}" -le 40 ]
check "changes read together were coalesced, and counted" [ "${co:-0}" -gt 0 ]
# Every PDU after the first (a new neighbour) is a change: negotiated or
# superseded, never both.  Of the negotiated ones, the first of each read
# differs from the PDU before it, the last of a read from the first only
# if the read held an even number: at least half are changes, each one
# logged or counted as left out.
covered() { [ $((lines + left + co)) -le "$in2" ] &&
    [ $((2 * (lines + left))) -ge $((in1 - 1 - co)) ]; }
check "logged + left out + coalesced accounts for every change" covered
check "the last PDU's configuration is operational (PFC on 3 only)" oper_pfc_3
# The packet ring: reads of a hundred frames and more.
lines0=$(changed_lines)
left0=$left
sent=$(nsx b "$FLOOD" -i d2b -r 2000 -t 2 -c 2000 -d ieee -v | awk '{ print $2 }')
wait_for 5 in_ge $((in2 + sent))
in3=$(dx_stat a d2a statsFramesInTotal)
co2=$(coalesced)
lines=$(( $(changed_lines) - lines0 ))
left=$(left_out)
diag "ring: sent $sent, received $((in3 - in2)), lines $lines, left out" \
    "$((left - left0)) (written so far), coalesced $((co2 - co))"
check "the flood went to a packet ring" grep -q "switched to a packet ring" \
    "$NS_TMP/a.log"
check "most of the ring's changes were coalesced" \
    [ $((co2 - co)) -ge $(((in3 - in2) / 2)) ]
check "the last PDU's configuration is operational (PFC on 3 only)" oper_pfc_3
# A shutdown LLDPDU right behind changes, most likely in the same read:
# the neighbour goes with its waiting change (counted as superseded,
# never negotiated after it is gone), and the port is back on its admin
# config.
co=$(coalesced)
nsx b "$FLOOD" -i d2b -r 2000 -c 400 -d ieee -v >/dev/null
nsx b "$FLOOD" -i d2b -c 1 -T 0 -d ieee >/dev/null
check "a shutdown LLDPDU behind the changes removes the neighbour" \
    wait_for 5 dx_nbrs a 0
admin_pfc() {
	dx_jq a "$DCBX0 |
	    .pfc.status == \"no-peer\" and .pfc.oper == .pfc.admin" show dcbx dev d2a
}
check "the port runs its admin config again" wait_for 5 admin_pfc
diag "coalesced before $co, after $(coalesced)"
check_clean "no sanitizer report" "$NS_TMP/a.log"
