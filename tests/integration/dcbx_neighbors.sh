#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbx_neighbors.sh -- two corner cases an audit found (issue 31), with a
# real dcbxd ("s", willing, IEEE, max-neighbors = 1) and crafted LLDPDUs
# from namespace c (a raw socket on xc0: exact bytes, exact source MACs).
#   A. A second chassis is refused (tooManyNeighbors): DCBX must not go on
#      with the first as if the link were point to point; it counts the
#      refused one until its TTL passes, then the first is the peer again.
#   B. The same LLDPDU from a new source MAC (bond failover) reaches
#      DCBX: the PFC tie-break between two willing ends compares that MAC,
#      so the outcome turns when the MAC's order against ours does.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/dcbx-lib.sh"
xd_need
plan 9
xd_setup
ns_add c && ns_add s || bail "namespaces"
# s's MAC 02:00:00:00:05:00 sits between the two MACs of part B.
veth_add c xc0 s xs0 02:00:00:00:0c:00 02:00:00:00:05:00 || bail "veth"
cat >"$NS_TMP/s.conf" <<'EOC'
dcbxd: { tx-interval = 5; tx-hold = 4; max-neighbors = 1; };
ports = ( { match = "x*"; role = "willing"; mode = "ieee";
  backend = "readonly"; } );
EOC
cat >"$NS_TMP/inj.py" <<'EOP'
# inj.py IF COUNT INTERVAL CHASSIS SRC TTL PFC_WILLING: COUNT copies of one
# LLDPDU (IEEE ETS, reco, PFC on 3,4), bounded by COUNT x INTERVAL.
import socket, sys, time
ifn, count, ival, chassis, src, ttl, pw = sys.argv[1:8]
mac = lambda s: bytes.fromhex(s.replace(":", ""))
def tlv(t, b): return bytes([t << 1 | len(b) >> 8, len(b) & 0xff]) + b
oui = b"\x00\x80\xc2"
ets = bytes([0x08, 0, 0, 0x11, 0, 50, 50, 0, 0, 0, 0, 0, 0] + [2] * 8)
pfc = bytes([(0x80 if pw == "1" else 0) | 8, 0x18])
pdu = (tlv(1, b"\x04" + mac(chassis)) + tlv(2, b"\x07p1") +
       tlv(3, int(ttl).to_bytes(2, "big")) + tlv(127, oui + b"\x09" + ets) +
       tlv(127, oui + b"\x0a" + b"\x00" + ets[1:]) +
       tlv(127, oui + b"\x0b" + pfc) + tlv(0, b""))
fr = b"\x01\x80\xc2\x00\x00\x0e" + mac(src) + b"\x88\xcc" + pdu
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifn, 0))
for i in range(int(count)):
    s.send(fr + b"\x00" * max(0, 60 - len(fr)))
    time.sleep(float(ival))
EOP
inj() { bg_start c "$NS_TMP/inj-$1.log" $PY "$NS_TMP/inj.py" xc0 "$2" "$3" \
    "$4" "$5" "$6" "$7"; eval "INJ_$1=\$BG_PID"; }
xd_start s s || bail "dcbxd did not start"
nsx c ip link set xc0 up; nsx s ip link set xs0 up
nbrs() { ctl_jq "$NS_TMP/s.sock" ".[0].neighbors == $1" show ports; }

# A. max-neighbors = 1, a second chassis.
inj a 60 0.5 02:00:00:00:0a:0a 02:00:00:00:0c:00 6 0
check "A: the first chassis's PFC is adopted" \
    xd_until 30 s xs0 pfc=peer "reason~non-willing"
inj b 10 0.5 02:00:00:00:0b:0b 02:00:00:00:0c:00 3 0
check "A: a second chassis, refused (one kept): DCBX says multiple peers" \
    xd_until 30 s xs0 status=multiple-peers
check "... the table kept one neighbour, the other counted as dropped" \
    ctl_jq "$NS_TMP/s.sock" '.[0].neighbors == 1 and .[0].too_many_neighbors == true' show ports
wait "$INJ_b" 2>/dev/null
check "A: the refused one gone quiet (its TTL passed): the first is the peer again" \
    xd_until 30 s xs0 pfc=peer "reason~non-willing"
kill "$INJ_a" 2>/dev/null; wait "$INJ_a" 2>/dev/null
check "A: its neighbour ages out" wait_for 30 nbrs 0

# B. Both willing: the lower MAC adopts.  The same bytes, two MACs.
inj c 60 0.5 02:00:00:00:0c:0c 02:00:00:00:0d:00 120 1
check "B: peer MAC 02:00:00:00:0d:00, above ours: we adopt its PFC" \
    xd_until 30 s xs0 pfc=peer "reason~our MAC is lower"
kill "$INJ_c" 2>/dev/null; wait "$INJ_c" 2>/dev/null
inj d 60 0.5 02:00:00:00:0c:0c 02:00:00:00:01:00 120 1
check "B: the same LLDPDU from 02:00:00:00:01:00, below ours: we keep our own" \
    xd_until 30 s xs0 pfc=local "reason~our MAC is higher"
check "... one neighbour all along (the same MSAP)" nbrs 1
kill "$INJ_d" 2>/dev/null
check_clean "no sanitizer report" "$NS_TMP/s.log"
finish
