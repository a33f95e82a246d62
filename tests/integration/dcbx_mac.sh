#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbx_mac.sh -- the PFC tie-break follows the port's MAC when it changes
# under a running dcbxd (bonding rewrites a slave's MAC).  Two willing
# ports with different PFC: the lower MAC adopts the higher one's.  Raise
# the lower one's MAC above the other's: the roles swap on both sides,
# because the MAC we compare is the MAC our PDUs now carry.  See
# dcbx-lib.sh.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/dcbx-lib.sh"
xd_need
plan 5
xd_setup
ns_add a && ns_add b || bail "namespaces"
veth_add a xa0 b xb0 || bail "veth"
nsx a ip link set xa0 address 02:00:00:00:00:10 &&
    nsx b ip link set xb0 address 02:00:00:00:00:20 || bail "MACs"
# Both willing, PFC 3,4 (A) against 3,5 (C).
xd_conf a willing ieee A && xd_conf b willing ieee C || bail "configs"
xd_start a a && xd_start b b || bail "dcbxd did not start"
nsx a ip link set xa0 up; nsx b ip link set xb0 up

check "both willing: the lower MAC (a) adopts the higher one's PFC" \
    wait_for 10 xd_ok a xa0 pfc=peer "pfc~lower"
check "the higher MAC (b) keeps its own PFC" \
    wait_for 3 xd_ok b xb0 pfc=local "pfc~higher"

# a's MAC now above b's: a keeps its PFC and b adopts it.
nsx a ip link set xa0 address 02:00:00:00:00:30 || bail "MAC change"
check "a's MAC raised: a keeps its own PFC (tie-break on the new MAC)" \
    wait_for 10 xd_ok a xa0 pfc=local "pfc~higher"
check "b adopts a's PFC (3,4)" wait_for 3 xd_ok b xb0 pfc=peer "pfc~lower"
check_clean "no sanitizer report" "$NS_TMP/a.log" "$NS_TMP/b.log"
finish
