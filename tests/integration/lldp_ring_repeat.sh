#!/bin/sh
# SPDX-License-Identifier: ISC
# A flood that repeats one LLDPDU: once the packet ring has seen it twice
# in a row, the ring's filter marks each repeat instead of copying it
# (sock.h), and dcbxd handles the mark as the frame it stands for.  Every
# frame still counts (statsFramesInTotal), a change amid the repeats still
# takes effect, and a flood whose every PDU differs is never marked.
# Floods: bench/lldp-flood, bounded.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
flood_need
plan 11
ns_setup r
ns_pair d2a d2b
dx_conf "$NS_TMP/c.conf" 5 2 "" '{ match = "d*"; role = "willing"; mode = "ieee"; backend = "readonly"; }'
dx_start a a "$NS_TMP/c.conf" || bail "dcbxd"
rx() { ctl_get "$NS_TMP/a.sock" ".[0].rx.$1" show stats dev d2a; }
mode_is() { [ "$(rx mode)" = "$1" ]; }
# The priorities with PFC in d2a's operational config, "3,4".
oper_pfc() {
	ctl_get "$NS_TMP/a.sock" \
	    '[.pfc.oper.prio_pfc | to_entries[] | select(.value) | .key] | map(tostring) | join(",")' \
	    show dcbx dev d2a
}
pfc_is() { [ "$(oper_pfc)" = "$1" ]; }

# The peer's first configuration (bench_switch_config() variant 0: PFC
# on priorities 3 and 4), from a few LLDPDUs: no flood yet.
nsx b "$FLOOD" -i d2b -b 1 -d ieee -r 20 -c 3 -t 10 >/dev/null
check "a willing port adopts the peer's PFC, 3,4" wait_for 10 pfc_is 3,4

# 8000 of them at 2000/s; after 2 s (about 4000 frames) the other
# configuration (variant 1: PFC on 3 only), repeated as well.
in0=$(dx_stat a d2a statsFramesInTotal)
bl0=$(backlog_drops)
sent=$(nsx b "$FLOOD" -i d2b -b 1 -d ieee -r 2000 -c 8000 -t 30 -S 2 |
    awk '{ print $2 }')
check "the flood switched the port to the packet ring" \
    [ "$(rx floods)" -ge 1 ]
rep=$(rx repeats)
diag "sent ${sent:-?}, marked as repeats ${rep:-?}"
check "most repeats were marked, not copied" \
    [ "${rep:-0}" -ge $((${sent:-0} / 2)) ]
check "the change amid the repeats took effect" \
    wait_for 10 pfc_is 3
check "back on the socket queue once the flood is over" \
    wait_for 30 mode_is socket
in1=$(dx_stat a d2a statsFramesInTotal)
drops=$(rx kernel_drops)
bl1=$(backlog_drops)
diag "framesIn $((in1 - in0)), kernel drops $drops, backlog drops $((bl1 - bl0))"
check "every frame sent was counted once or dropped by the kernel" \
    [ $((in1 - in0 + drops)) -le "${sent:-0}" -a \
    $((in1 - in0 + drops + bl1 - bl0)) -ge "${sent:-1}" ]
check "no frame was taken for an error" \
    [ "$(dx_stat a d2a statsFramesInErrorsTotal)" = 0 ]
check "one neighbour, the flood's" dx_nbrs a 1

# Every PDU differs (-v: the System Description and the DCBX content):
# nothing to mark.
rep0=$(rx repeats)
in0=$(dx_stat a d2a statsFramesInTotal)
nsx b "$FLOOD" -i d2b -b 1 -d ieee -v -r 2000 -c 6000 -t 30 >/dev/null
check "a flood of changing PDUs opened the ring again" \
    [ "$(rx floods)" -ge 2 ]
check "... and none of its frames was marked" [ "$(rx repeats)" = "$rep0" ]
diag "changing flood: framesIn $(($(dx_stat a d2a statsFramesInTotal) - in0))"
check_clean "no sanitizer report" "$NS_TMP/a.log"
finish
