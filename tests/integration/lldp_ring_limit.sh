#!/bin/sh
# SPDX-License-Identifier: ISC
# packet-rings bounds the ports that receive through a packet ring at once
# (1 MiB each while a flood lasts): with packet-rings = 1, a flood on a
# second port while the first holds the ring stays on its socket queue,
# says so, is counted and loses no frame; once the first port's ring
# closes, the second port gets one.  Floods: bench/lldp-flood, bounded.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
flood_need
plan 11
ns_setup r
ns_pair d2a d2b
veth_add a d3a b d3b || bail "veth"
nsx a ip link set d3a up; nsx b ip link set d3b up
dx_conf "$NS_TMP/c.conf" 5 2 "packet-rings = 1;"
dx_start a a "$NS_TMP/c.conf" || bail "dcbxd"
rx() { ctl_get "$NS_TMP/a.sock" ".[0].rx.$2" show stats dev "$1"; }
mode_is() { [ "$(rx "$1" mode)" = "$2" ]; }

# Port d2a: a flood until stopped (bounded at 60 s) takes the one ring.
bg_start b "$NS_TMP/fa.out" "$FLOOD" -i d2b -b 1 -r 2000 -t 60
FA=$BG_PID
check "the first flooded port took the ring" wait_for 30 mode_is d2a ring

# Port d3a: a bounded flood meanwhile is refused a ring, and counted.
in0=$(dx_stat a d3a statsFramesInTotal)
bl0=$(backlog_drops)
sent=$(nsx b "$FLOOD" -i d3b -b 100 -r 2000 -t 3 | awk '{ print $2 }')
check "the second flood was refused a ring (counted)" \
    [ "$(rx d3a ring_refused)" -ge 1 ]
check "... and stayed on the socket queue" mode_is d3a socket
check "... and said why (a's log)" \
    grep -q "d3a: busy port .*: no packet ring, 1 of packet-rings = 1 open; staying on the socket queue" \
    "$NS_TMP/a.log"
check "... once, not at every retry" \
    [ "$(grep -c 'd3a: busy port .*no packet ring' "$NS_TMP/a.log")" = 1 ]
check "the first port kept its ring" mode_is d2a ring
in1=$(dx_stat a d3a statsFramesInTotal)
drops=$(rx d3a kernel_drops)
bl1=$(backlog_drops)
diag "d3a: sent $sent, framesIn $((in1 - in0)), socket drops $drops," \
    "input backlog drops $((bl1 - bl0)) (whole machine)," \
    "refused $(rx d3a ring_refused) times"
check "every frame of the refused flood was counted or dropped by the kernel" \
    [ $((in1 - in0 + drops)) -le "${sent:-0}" -a \
    $((in1 - in0 + drops + bl1 - bl0)) -ge "${sent:-1}" ]

# The ring comes free: d3a, flooded again, gets it within a few windows.
bg_start b "$NS_TMP/fb.out" "$FLOOD" -i d3b -b 100 -r 2000 -t 60
FB=$BG_PID
kill "$FA"
check "the first port's ring closed when its flood ended" \
    wait_for 30 mode_is d2a socket
check "then the second port got the ring" wait_for 30 mode_is d3a ring
kill "$FB"
check "... and gave it back" wait_for 30 mode_is d3a socket
check_clean "no sanitizer report" "$NS_TMP/a.log"
finish
