#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbx_multi.sh -- two controllers and a willing server on one LAN (a
# bridge in its own namespace, forwarding the nearest-bridge group
# address): the server sees two neighbours, reports "multiple-peers" and
# keeps its admin config; when one controller stops, it adopts the other's.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/dcbx-lib.sh"
xd_need
plan 7
XD_TX_INTERVAL=5; export XD_TX_INTERVAL
xd_setup
for n in b s c d; do ns_add $n || bail "namespaces"; done
veth_add s xs0 b xbs || bail "veth"
veth_add c xc0 b xbc || bail "veth"
veth_add d xd0 b xbd || bail "veth"
nsx b ip link add xbr type bridge || bail "bridge"
# LLDP (01:80:c2:00:00:0e) is link-local: a bridge forwards it only when
# bit 14 of group_fwd_mask says so.
nsx b ip link set xbr type bridge group_fwd_mask 0x4000 ||
    skip_all "this kernel's bridge cannot forward LLDP"
for i in xbs xbc xbd; do nsx b ip link set $i master xbr up; done
nsx b ip link set xbr up
xd_conf s willing ieee S && xd_conf c controller ieee A &&
    xd_conf d controller ieee B || bail "configs"
xd_start s s && xd_start c c && xd_start d d || bail "dcbxd did not start"
t0=$(date +%s%N)
nsx s ip link set xs0 up; nsx c ip link set xc0 up; nsx d ip link set xd0 up

xd_conv "two controllers on the LAN: the server reports multiple-peers" \
    s xs0 "$t0" 30 status=multiple-peers "ets~"
check "... with a reason" ctl_jq "$NS_TMP/s.sock" \
    '[.ets, .pfc, .app] | all(.reason | length > 0)' show dcbx dev xs0
diag "reason: $(ctl_get "$NS_TMP/s.sock" .pfc.reason show dcbx dev xs0)"
check "... and keeps its admin config" xd_ok s xs0 oper=S admin=S
check "show ports counts two neighbours" \
    ctl_jq "$NS_TMP/s.sock" '.[0].neighbors == 2' show ports
check "a controller sees two neighbours too: multiple-peers" \
    xd_until 30 c xc0 status=multiple-peers

# When one of two neighbours leaves, the daemon negotiates at once with the
# survivor's kept LLDPDU (its next ones are byte-identical and take the
# agent's fast path, which does not reach DCBX).
t0=$(date +%s%N); xd_stop d TERM
xd_conv "one controller left: the server adopts the other's policy from its kept LLDPDU" \
    s xs0 "$t0" 30 status=peer oper=A peer=A
check_clean "no sanitizer report" "$NS_TMP/s.log" "$NS_TMP/c.log" "$NS_TMP/d.log"
finish
