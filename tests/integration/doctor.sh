#!/bin/sh
# SPDX-License-Identifier: ISC
# doctor.sh -- `dcbctl doctor` against real misconfigurations: two dcbxd in
# namespaces joined by one veth pair per case, each pair configured wrong
# in one way (PFC mismatch, both willing, IEEE against CEE, ETS that
# starves or gives 0 % to a PFC class, APP to a priority without PFC,
# headroom over the engine's queue memory, MTU over the lossless MTU,
# read-only with PFC), plus crafted peers: no LLDP at all, two LLDP
# neighbours on one link, LLDP without DCBX, PFC and 802.3x PAUSE frames
# (tests/engine/etool) on priorities without PFC.  A well-configured pair
# gives no finding on either end.  Not triggered here: firmware-managed
# (needs a NIC whose firmware runs DCBX) and pfc-storm (needs the PFC
# watchdog, which posts the storm notes it reads).
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/dcbx-lib.sh"
xd_need
need_cmd jq
ETOOL="$top_builddir/tests/engine/etool"
[ -x "$ETOOL" ] || skip_all "etool not built"
[ -c /dev/net/tun ] || skip_all "no /dev/net/tun (the engine's TAP)"
plan 27
xd_setup
ns_add a && ns_add b || bail "namespaces"
for c in g m w c n s d e h p t; do
	veth_add a xa$c b xb$c || bail "veth $c"
done
nsx a ip link set xah mtu 9000 && nsx b ip link set xbh mtu 9000 || bail "mtu"

ETS_OK='ets = { prio-tc = [0, 0, 0, 1, 0, 0, 0, 0]; tc-bw = [50, 50, 0, 0, 0, 0, 0, 0];
  tc-tsa = ["ets", "ets", "strict", "strict", "strict", "strict", "strict", "strict"]; };'
# Priority 3 (PFC) in TC 1 with 0 %, priority 6 alone in strict TC 2.
ETS_BAD='ets = { prio-tc = [0, 0, 0, 1, 0, 0, 2, 0]; tc-bw = [100, 0, 0, 0, 0, 0, 0, 0];
  tc-tsa = ["ets", "ets", "strict", "strict", "strict", "strict", "strict", "strict"]; };'
APP3='app = ( { selector = "dgram-port"; protocol = 4791; priority = 3; } );'
APP5='app = ( { selector = "dgram-port"; protocol = 4791; priority = 5; } );'
CTL='role = "controller"; mode = "ieee";'
RO='backend = "readonly";'
cat >"$NS_TMP/a.conf" <<EOF
dcbxd: { tx-interval = 5; };
ports = (
 { match = "xag"; $CTL engine = { speed = "10G"; }; $ETS_OK pfc = { prio-pfc = [3]; }; $APP3 },
 { match = "xam"; $CTL $RO $ETS_OK pfc = { prio-pfc = [3]; }; $APP3 },
 { match = "xaw"; role = "willing"; mode = "ieee"; $RO },
 { match = "xac"; $CTL $RO $ETS_OK pfc = { prio-pfc = [3]; }; },
 { match = "xan"; $CTL $RO },
 { match = "xas"; $CTL $RO },
 { match = "xad"; $CTL $RO },
 { match = "xae"; $CTL $RO $ETS_BAD pfc = { prio-pfc = [3]; }; $APP5 },
 { match = "xah"; $CTL engine = { mode = "relay"; speed = "10G"; queue-memory = "8K"; }; $ETS_OK
   pfc = { prio-pfc = [3]; cable-length = "1000m"; mtu = 1500; }; },
 { match = "xap"; $CTL engine = { speed = "1G"; }; $ETS_OK pfc = { prio-pfc = [3]; }; },
 { match = "xat"; $CTL $RO admin-status = "tx"; }
);
EOF
# b runs nothing on xbn, xbs, xbd, xbp: those are the crafted peers' links.
cat >"$NS_TMP/b.conf" <<EOF
dcbxd: { tx-interval = 5; };
ports = (
 { match = "xbg"; role = "willing"; mode = "auto"; engine = { speed = "10G"; }; },
 { match = "xbm"; $CTL $RO $ETS_OK pfc = { prio-pfc = [3, 5]; }; $APP3 },
 { match = "xbw"; role = "willing"; mode = "ieee"; $RO },
 { match = "xbc"; role = "controller"; mode = "cee"; $RO $ETS_OK pfc = { prio-pfc = [3]; }; },
 { match = "xbe"; role = "willing"; $RO },
 { match = "xbh"; role = "willing"; $RO }
);
EOF
xd_start a a && xd_start b b || bail "dcbxd did not start"
for c in g m w c n s d e h p t; do
	nsx a ip link set xa$c up; nsx b ip link set xb$c up
done

# Crafted LLDP peers: N LLDPDUs from N chassis, TTL 120, no DCBX TLVs.
cat >"$NS_TMP/lldp.py" <<'EOF'
import socket, struct, sys
ifn, n = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifn, 0))
tlv = lambda t, v: struct.pack("!H", (t << 9) | len(v)) + v
for i in range(n):
    mac = bytes([2, 0, 0, 0, 0x10, i + 1])
    pdu = (tlv(1, b"\x04" + mac) + tlv(2, b"\x03" + mac) +
           tlv(3, struct.pack("!H", 120)) + tlv(0, b""))
    f = b"\x01\x80\xc2\x00\x00\x0e" + mac + b"\x88\xcc" + pdu
    s.send(f + b"\0" * max(0, 60 - len(f)))
EOF
nsx b $PY "$NS_TMP/lldp.py" xbs 2 || diag "lldp.py xbs failed"
nsx b $PY "$NS_TMP/lldp.py" xbd 1 || diag "lldp.py xbd failed"

# doc NAME DEV: doctor's findings of one port into $NS_TMP/doc.json
# (its exit status in $NS_TMP/doc.rc); has NAME DEV CHECK: one is CHECK.
doc() {
	timeout 10 "$DCBCTL" -s "$NS_TMP/$1.sock" -j doctor dev "$2" \
	    >"$NS_TMP/doc.json" 2>"$NS_TMP/doc.err"
	echo $? >"$NS_TMP/doc.rc"
}
has() {
	doc "$1" "$2"
	jq -e --arg c "$3" 'any(.[]; .check == $c)' "$NS_TMP/doc.json" >/dev/null
}
# Negotiation first: the mismatch needs both ends' TLVs.
wait_for 10 has a xam pfc-mismatch
xd_until 20 b xbg status=peer

check "a well-configured pair: no finding on the controller, exit 0" sh -c "
    '$DCBCTL' -s '$NS_TMP/a.sock' -j doctor dev xag >'$NS_TMP/g.json' &&
    jq -e 'length == 0' '$NS_TMP/g.json' >/dev/null"
diag "xag: $(cat "$NS_TMP/g.json")"
check "... and none on the willing server (engine backend), exit 0" sh -c "
    '$DCBCTL' -s '$NS_TMP/b.sock' -j doctor dev xbg >'$NS_TMP/g.json' &&
    jq -e 'length == 0' '$NS_TMP/g.json' >/dev/null"
diag "xbg: $(cat "$NS_TMP/g.json")"
check "the text output says so" sh -c "
    test \"\$('$DCBCTL' -s '$NS_TMP/a.sock' doctor dev xag)\" = 'no findings'"

check "PFC 3 against the peer's 3,5: pfc-mismatch" has a xam pfc-mismatch
check "... an error: dcbctl doctor exits 2" test "$(cat "$NS_TMP/doc.rc")" = 2
check "... and the other end sees it too" wait_for 10 has b xbm pfc-mismatch
check "read-only backend with PFC wanted: readonly-pfc" has a xam readonly-pfc
check "findings are {ifname, severity, check, message}" jq -e \
    'all(.[]; (keys == ["check","ifname","message","severity"]) and .ifname == "xam")' \
    "$NS_TMP/doc.json"
check "the text output names port, severity and check" sh -c "
    '$DCBCTL' -s '$NS_TMP/a.sock' doctor dev xam | grep -Eq '^xam +error +pfc-mismatch +PFC is on priorities 3 here and 3,5 on the peer'"
check "both ends willing: both-willing" wait_for 10 has a xaw both-willing
check "IEEE only against CEE only: mode-mismatch" wait_for 10 has a xac mode-mismatch
check "a link without LLDP: no-peer" has a xan no-peer
only_receive_off() {
	has a xat lldp-receive-off &&
	    jq -e 'all(.[]; .check != "no-peer")' "$NS_TMP/doc.json" >/dev/null
}
check "admin-status tx (nothing received): lldp-receive-off, not no-peer" \
    only_receive_off
check "two LLDP neighbours on one link: several-peers" wait_for 10 has a xas several-peers
check "a neighbour with LLDP but no DCBX: peer-without-dcbx" wait_for 10 has a xad peer-without-dcbx
check "APP UDP 4791 to priority 5 without PFC: app-without-pfc" has a xae app-without-pfc
check "PFC priority's TC at 0 %: pfc-tc-no-bandwidth" has a xae pfc-tc-no-bandwidth
check "PFC priority's TC below a strict TC: pfc-tc-starved" has a xae pfc-tc-starved
check "1000 m at 10G over 8 KiB of engine queue memory: headroom" has a xah headroom
check "link MTU 9000 over the lossless 1500: mtu-above-lossless" has a xah mtu-above-lossless
# issue 31: 1G has no sourced interface delay: said, not counted as 0.
unsourced() { has a xap no-interface-delay && has a xap headroom-unchecked; }
check "an engine at 1G with PFC: no-interface-delay, the headroom unchecked" \
    unsourced

# Pause counters "rising": above the daemon's own periodic sample before
# the last (every 10 s), so no run takes them from another.  A baseline
# with no frame, then PFC frames on priority 2 (PFC is on 3 only) and
# 802.3x PAUSE from the crafted peer.
doc a xap
check "before any pause frame: no pause-without-pfc" sh -c "
    ! jq -e 'any(.[]; .check == \"pause-without-pfc\")' '$NS_TMP/doc.json' >/dev/null"
frames() {
	nsx b "$ETOOL" pfc xbp --prio 2 --quanta 100 >/dev/null 2>&1 || diag "etool pfc failed"
	nsx b "$ETOOL" pfc xbp --pause 100 >/dev/null 2>&1 || diag "etool pause failed"
}
frames
# The engine publishes its counters every 100 ms: the two frames may
# show in different runs.
pause_seen() {
	doc a xap
	jq -r '.[].check' "$NS_TMP/doc.json" >>"$NS_TMP/pause.seen"
	grep -qx pause-without-pfc "$NS_TMP/pause.seen" &&
	    grep -qx link-pause "$NS_TMP/pause.seen"
}
check "PFC on priority 2 and 802.3x PAUSE received: pause-without-pfc, link-pause" \
    wait_for 20 pause_seen
# Two operators, one right after the other: both see the frames (the
# first run took no baseline away).  Only a periodic sample between the
# two runs may move the base; then the case is run again with new frames
# (at most 3 times; the sample count in show stats tells).
samples() {
	"$DCBCTL" -s "$NS_TMP/a.sock" -j show stats dev xap | jq '.[0].pfc.samples'
}
both() {
	jq -e 'any(.[]; .check == "pause-without-pfc") and
	    any(.[]; .check == "link-pause")' "$1" >/dev/null
}
twice() {
	_k=0
	while [ $_k -lt 3 ]; do
		_k=$((_k + 1))
		: >"$NS_TMP/pause.seen"
		[ $_k -gt 1 ] && { frames; wait_for 20 pause_seen || continue; }
		_s0=$(samples)
		doc a xap; cp "$NS_TMP/doc.json" "$NS_TMP/d1.json"
		doc a xap; cp "$NS_TMP/doc.json" "$NS_TMP/d2.json"
		[ "$(samples)" = "$_s0" ] || continue
		both "$NS_TMP/d1.json" && both "$NS_TMP/d2.json"
		return
	done
	diag "a periodic sample fell between the runs 3 times"
	return 1
}
check "a second operator's run right after sees the same frames" twice
# Two samples later the base holds every frame sent: neither.
neither() {
	doc a xap
	! jq -e 'any(.[]; .check == "pause-without-pfc" or .check == "link-pause")' \
	    "$NS_TMP/doc.json" >/dev/null
}
check "nothing new for two samples (10 s each): neither" wait_for 30 neither
nsx b ip link set xbn down
check "the peer's end down: link-down" wait_for 20 has a xan link-down
check_clean "no sanitizer report" "$NS_TMP/a.log" "$NS_TMP/b.log"
finish
