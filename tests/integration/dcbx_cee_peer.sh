#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbx_cee_peer.sh -- dcbxd against a crafted CEE peer (cee-peer.c: hand-
# built CEE/CIN TLVs, acknowledges dcbxd's SeqNo unless told not to), so
# that what dcbxd puts on the wire is checked by a reading other than its
# own (issue 14):
#  1. a change made while dcbxd's SeqNo is unacknowledged does not ride on
#     that SeqNo: it goes out under the next one once the pending one is
#     acknowledged;
#  2. a peer that never acknowledges, repeating byte-identical PDUs, gets
#     a resend for each (credit permitting), not only every tx-interval;
#  3. auto mode stays IEEE for a CIN-only peer and reports no errors.
# See dcbx-lib.sh.  All waits are bounded; nothing is timed.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/dcbx-lib.sh"
PEER=$top_builddir/tests/integration/cee-peer
xd_need
[ -x "$PEER" ] || skip_all "cee-peer not built"
plan 7
xd_setup
ns_add d && ns_add p && ns_add e && ns_add q || bail "namespaces"
veth_add d xd0 p xp0 && veth_add e xe0 q xq0 || bail "veth"
LOG=$NS_TMP/peer.log
FREEZE=$NS_TMP/freeze

# rx_has AWK-CONDITION [LOG]: some "rx" line of the peer's log matches
# (fields: $2 ms, seq/ack/pfc as variables).
rx_has() {
	awk -v want="$1" '
	$1 == "rx" { for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	  ms = $2; seq = v["seq"]; ack = v["ack"]; pfc = v["pfc"]
	  if (eval_(want)) found = 1 }
	function eval_(w,  a, n, i, k) {
	  n = split(w, a, "&")
	  for (i = 1; i <= n; i++) {
	    split(a[i], k, ":")
	    if (k[1] == "seq" && seq != k[2]) return 0
	    if (k[1] == "pfc" && pfc != k[2]) return 0
	    if (k[1] == "msge" && ms + 0 < k[2] + 0) return 0
	    if (k[1] == "msle" && ms + 0 > k[2] + 0) return 0
	  }
	  return 1 }
	END { exit found ? 0 : 1 }' "${2:-$LOG}"
}
last_seq() { awk '$1 == "rx" { split($3, s, "="); x = s[2] } END { print x + 0 }' "$LOG"; }

# 1. dcbxd a CEE controller with policy A (PFC 3,4 = 0x18); the peer is
# willing and acks, except while $FREEZE exists.
xd_conf d controller cee A || bail "config"
xd_start d d || bail "dcbxd did not start"
bg_start p "$LOG" "$PEER" -s 60 -i 1000 -w -f "$FREEZE" xp0
nsx d ip link set xd0 up; nsx p ip link set xp0 up
check "the peer gets policy A (PFC 0x18) and acknowledges it" \
    xd_until 20 d xd0 active=cee pfc=local
S=$(last_seq)
diag "dcbxd's SeqNo once synchronised: $S"
touch "$FREEZE"
xd_conf d controller cee B && xd_hup d || bail "config B"
check "policy B (PFC 0x08) goes out under SeqNo $((S + 1))" \
    wait_for 10 rx_has "seq:$((S + 1))&pfc:0x08"
# B is pending (not acknowledged); now C (PFC 3,5 = 0x28).
xd_conf d controller cee C && xd_hup d || bail "config C"
# Several dcbxd PDUs pass meanwhile (it resends for each of ours).
# Without those PDUs the absence of 0x28 below would prove nothing.
n0=$(grep -c '^rx' "$LOG")
if ! wait_for 10 sh -c "[ \$(grep -c '^rx' '$LOG') -ge $((n0 + 3)) ]"; then
	not_ok "while $((S + 1)) is unacknowledged its content stays B (no dcbxd PDU seen after C)"
elif rx_has "seq:$((S + 1))&pfc:0x28"; then
	not_ok "while $((S + 1)) is unacknowledged its content stays B (no 0x28 under it)"
	diag "$(grep "^rx.* seq=$((S + 1)) " "$LOG" | tail -3)"
else
	ok "while $((S + 1)) is unacknowledged its content stays B (no 0x28 under it)"
fi
rm -f "$FREEZE"
check "once $((S + 1)) is acknowledged, C goes out under $((S + 2))" \
    wait_for 10 rx_has "seq:$((S + 2))&pfc:0x28"
xd_stop d; sleep 0.2

# 2. A peer that never acknowledges and repeats the same PDU every 300 ms
# (answering nothing): dcbxd resends for each (one credit a second), not
# only after its 30 s tx-interval.  Fast transmission for a new neighbour
# is over after 3 s; count dcbxd's PDUs between 4 and 8 s.
LOG2=$NS_TMP/peer2.log
xd_conf e controller cee A || bail "config e"
xd_start e e || bail "dcbxd e did not start"
bg_start q "$LOG2" "$PEER" -s 9 -i 300 -n -q xq0
P2=$BG_PID
nsx e ip link set xe0 up; nsx q ip link set xq0 up
wait_for 15 sh -c "grep -q '^tx 8[0-9][0-9][0-9] ' '$LOG2'"
n=$(awk '$1 == "rx" && $2 >= 4000 && $2 <= 8000' "$LOG2" | wc -l)
diag "dcbxd PDUs between 4 s and 8 s, peer never acking: $n"
check "each repeated unacknowledged PDU gets a resend (>= 3 in 4 s)" [ "$n" -ge 3 ]
xd_stop e
# The CEE peer must be gone before the CIN one speaks (same MAC, MSAP).
wait_for 20 sh -c "! kill -0 $P2 2>/dev/null" || bail "cee-peer did not exit"

# 3. Auto mode and a CIN-only peer: stay IEEE, no error.
LOG3=$NS_TMP/peer3.log
xd_conf e willing auto S || bail "config auto"
xd_start e e || bail "dcbxd e (auto) did not start"
bg_start q "$LOG3" "$PEER" -s 20 -i 500 -c xq0
check "auto mode stays IEEE for a CIN-only peer, status no-peer" \
    xd_until 20 e xe0 active=ieee status=no-peer "pfc~only CIN" ||
    diag "$(xd_ctl e show dcbx dev xe0)"
check_clean "no sanitizer report" "$NS_TMP/d.log" "$NS_TMP/e.log"
finish
