#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbx_invalid.sh -- a peer whose ETS TLVs are invalid (TC bandwidths that
# sum to 110), injected raw over AF_PACKET into a willing dcbxd: not
# applied, status "error" with the reason, counted; the valid TLVs of the
# same LLDPDU still count, and a valid ETS afterwards is adopted.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/dcbx-lib.sh"
xd_need
plan 9
xd_setup
ns_add p && ns_add s || bail "namespaces"
veth_add p xp0 s xs0 || bail "veth"
xd_conf s willing ieee S || bail "config"
xd_start s s || bail "dcbxd did not start"
nsx p ip link set xp0 up; nsx s ip link set xs0 up

# Three identical LLDPDUs, 0.3 s apart (bounded: the injector exits).
t0=$(date +%s%N)
nsx p timeout 10 $PY "$XD_PY" inject xp0 3 0.3 60,50 & inj=$!
xd_conv "invalid peer ETS (tc-bw sums to 110): status error" s xs0 "$t0" \
    30 ets=error "ets~110" peer_mac=set
wait "$inj"
check "the invalid ETS is not applied: oper ETS is the admin one" \
    xd_ok s xs0 oper_ets=S admin=S
check "the rejection is counted (invalid_peer)" xd_ok s xs0 "invalid>=1"
check "dcbctl -j shows the error with its reason" xd_dcbctl s xs0 ets=error "ets~110"
check "the LLDPDU itself was valid: no frame counted in error" \
    ctl_jq "$NS_TMP/s.sock" '.[0].lldp | .statsFramesInErrorsTotal == 0 and .statsFramesInTotal >= 1' \
    show stats dev xs0
check "the valid PFC and APP TLVs of the same LLDPDU are adopted" \
    xd_ok s xs0 pfc=peer app=peer
n1=$(ctl_get "$NS_TMP/s.sock" .invalid_peer show dcbx dev xs0)
diag "invalid_peer after three identical invalid LLDPDUs: $n1"

# The peer corrects itself: 60/40.
t0=$(date +%s%N)
nsx p timeout 10 $PY "$XD_PY" inject xp0 2 0.3 60,40 & inj=$!
xd_conv "a valid ETS afterwards is adopted" s xs0 "$t0" 30 ets=peer \
    tc_bw=60,40
wait "$inj"
check "the counter is kept" xd_ok s xs0 "invalid>=${n1:-1}"
check_clean "no sanitizer report" "$NS_TMP/s.log"
finish
