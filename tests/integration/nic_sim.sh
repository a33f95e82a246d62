#!/bin/sh
# SPDX-License-Identifier: ISC
# nic_sim.sh -- the whole daemon against real drivers' dcbnl: the server's
# veth answers dcbnl and ethtool as an mlx5 or an ice would
# (tests/integration/nicsim.so, LD_PRELOAD, with the unit tests' driver
# personalities), a controller pushes the ToR's RoCE policy.  The server
# adopts it, fits it to the NIC (UDP 4791 left out: both take DSCP only),
# settles -- no write and no link bounce while more PDUs come, none when
# the link goes down and up -- and shows and diagnoses what the NIC holds.
# With the NIC's firmware running DCBX the server only receives; with
# firmware-dcbx = take-over it takes DCBX and hands it back at exit.
# Order and causality come from counters (PDUs received), never time.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/ctl.sh"
DCBXD=${DCBXD:-$top_builddir/daemon/dcbxd}
DCBCTL=${DCBCTL:-$top_builddir/ctl/dcbctl}
SIM=$top_builddir/tests/integration/nicsim.so

need_root
need_cmd ip jq timeout
[ -x "$DCBXD" ] || skip_all "dcbxd not built ($DCBXD)"
[ -f "$SIM" ] || skip_all "nicsim.so not built"
plan 47
ns_setup nic

cat >"$NS_TMP/c.conf" <<'EOF'
dcbxd: { tx-interval = 5; };
ports = ( { match = "nc0"; role = "controller"; mode = "ieee";
  backend = "readonly";
  ets = { prio-tc = [0, 0, 0, 1, 0, 0, 0, 0];
          tc-bw = [50, 50, 0, 0, 0, 0, 0, 0];
          tc-tsa = ["ets", "ets", "strict", "strict", "strict", "strict",
                    "strict", "strict"]; };
  pfc = { prio-pfc = [3]; };
  app = ( { selector = "dgram-port"; protocol = 4791; priority = 3; },
          { selector = "dscp"; protocol = 26; priority = 3; } ); } );
EOF

# server_conf [FIRMWARE-DCBX]
server_conf() {
	cat >"$NS_TMP/s.conf" <<EOF
dcbxd: { tx-interval = 5; };
ports = ( { match = "ns0"; role = "willing"; mode = "ieee";
  firmware-dcbx = "${1:-rx-only}"; pfc = { cable-length = "50m"; };
  pfc-watchdog = { detection-time = 300; restoration-time = 400; }; } );
EOF
}

S="$NS_TMP/s.sock"
C="$NS_TMP/c.sock"

# start DRIVER [FW [BUF]]: a fresh pair, the server's ns0 simulated as
# DRIVER (FW: its firmware runs DCBX; BUF=small: 8 kB lossless buffers).
start() {
	for _n in $NS_LIST; do
		for _p in $(ip netns pids "$_n" 2>/dev/null); do kill "$_p"; done
	done
	wait_for 10 sh -c "! ip netns pids $(ns_name a) 2>/dev/null | grep -q . &&
	    ! ip netns pids $(ns_name b) 2>/dev/null | grep -q ."
	ip netns del "$(ns_name a)" 2>/dev/null
	ip netns del "$(ns_name b)" 2>/dev/null
	NS_LIST=""
	ns_pair nc0 ns0 02:00:00:00:c0:00 02:00:00:00:50:00
	rm -f "$S" "$C" "$NS_TMP/sim.log" "$NS_TMP/storm"
	bg_start a "$NS_TMP/c.log" "$DCBXD" -d -D dcbx -c "$NS_TMP/c.conf" -s "$C"
	bg_start b "$NS_TMP/s.log" env LD_PRELOAD="$SIM" NICSIM="ns0=$1" \
	    NICSIM_FW="${2:-}" NICSIM_BUF="${3:-}" NICSIM_LOG="$NS_TMP/sim.log" \
	    NICSIM_STORM="$NS_TMP/storm" \
	    ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
	    "$DCBXD" -d -D dcbx,dcbnl -c "$NS_TMP/s.conf" -s "$S"
	SPID=$BG_PID
	wait_for 10 test -S "$S" && wait_for 10 test -S "$C"
}

port() { ctl "$S" show ports | jq -r ".[0]$1"; }
rx() { ctl "$S" show stats | jq '.[0].lldp.statsFramesInTotal'; }
bounces() { grep -c "^bounce ns0" "$NS_TMP/sim.log" 2>/dev/null || true; }
PFC3='[false,false,false,true,false,false,false,false]'
oper_pfc() { ctl "$S" show dcbx dev ns0 | jq -c '.pfc.oper.prio_pfc'; }
adopted() {
	[ "$(oper_pfc)" = "$PFC3" ] && [ "$(port .device.nic.pfc.pfc_en)" = 8 ]
}
# more_pdus N: the server has received N more LLDPDUs than now.
more_pdus() {
	_want=$(( $(rx) + $1 ))
	wait_for 60 sh -c "[ \$(timeout 10 $DCBCTL -s $S -j show stats |
	    jq '.[0].lldp.statsFramesInTotal') -ge $_want ]"
}

for drv in mlx5 ice; do
	server_conf
	start "$drv"
	check "$drv: the server sees the NIC's driver" wait_for 20 sh -c \
	    "timeout 10 $DCBCTL -s $S -j show ports | jq -e '.[0].device.driver' |
	    grep -q '$drv'"
	check "$drv: the server adopted PFC 3 and the NIC holds it" \
	    wait_for 30 adopted
	check "$drv: UDP 4791 is left out (the NIC takes DSCP only)" sh -c \
	    "timeout 10 $DCBCTL -s $S -j show ports | jq -e '.[0].device.app_left_out[] |
	    select(.selector == \"dgram-port\" and .protocol == 4791 and
	    .why == \"selector not held\")'"
	check "$drv: DSCP 26 -> 3 is on the NIC" sh -c "timeout 10 $DCBCTL -s $S -j \
	    show ports | jq -e '.[0].device.nic.app[] | select(.selector ==
	    \"dscp\" and .protocol == 26 and .priority == 3)'"
	w=$(port .device.writes); b=$(bounces)
	diag "$drv: $w writes, $b link bounces to adopt"
	more_pdus 2
	check "$drv: settled: no write, no bounce while PDUs come" \
	    [ "$(port .device.writes)" = "$w" -a "$(bounces)" = "$b" ]
	check "$drv: no foreign change seen (echoes known for ours)" \
	    [ "$(port .device.foreign_changes)" = 0 ]
	check "$drv: doctor: the lossless UDP entry the NIC cannot map" sh -c \
	    "timeout 10 $DCBCTL -s $S -j doctor | jq -e '.[] |
	    select(.check == \"nic-app-left-out\")'"
	check "$drv: show ports says it in words" sh -c "timeout 10 $DCBCTL -s $S \
	    show ports | grep -q 'left out of the NIC: APP dgram-port 4791 -> 3'"
	check "$drv: the metrics name the NIC and what it left out" sh -c \
	    "timeout 10 $DCBCTL -s $S metrics >$NS_TMP/m &&
	    grep -q '^dcbxd_nic_info{port=\"ns0\",driver=\"$(port .device.driver)\"' $NS_TMP/m &&
	    grep -qx 'dcbxd_nic_app_left_out{port=\"ns0\"} 1' $NS_TMP/m"
	if [ "$drv" = mlx5 ]; then
		check "mlx5: the NIC's storm timeout is the watchdog's 300 ms" \
		    [ "$(port .device.storm_timeout_ms)" = 300 ]
		check "mlx5: show pfc gives the NIC's buffers" sh -c \
		    "timeout 10 $DCBCTL -s $S show pfc dev ns0 |
		    grep -q '^nic-buffer buffer-size 0:32768 1:79872'"
		check "mlx5: doctor is content with them" sh -c \
		    "! timeout 10 $DCBCTL -s $S -j doctor | jq -e '.[] |
		    select(.check == \"nic-buffer\")'"
	else
		check "ice: no storm timeout to set" \
		    [ "$(port .device.storm_timeout_ms)" = null ]
	fi
	# The link goes down and up (from the switch's side): nothing written.
	nsx a ip link set nc0 down
	wait_for 10 sh -c "timeout 10 $DCBCTL -s $S -j show ports |
	    jq -e '.[0].link == \"down\"'"
	check "$drv: link down: the NIC is not written" \
	    [ "$(port .device.writes)" = "$w" ]
	check "$drv: link down: the peer's config is held" \
	    [ "$(oper_pfc)" = "$PFC3" ]
	nsx a ip link set nc0 up
	wait_for 30 adopted
	more_pdus 2
	check "$drv: link up again: nothing written, nothing bounced" \
	    [ "$(port .device.writes)" = "$w" -a "$(bounces)" = "$b" ]
done

# The switch storms priority 3 (the NIC counts pause frames arriving,
# nothing leaves): the watchdog turns PFC off on 3 in the NIC -- which
# mlx5 answers with a link bounce -- keeps the peer's policy, and turns
# it on again once the storm is over; then the port settles.
wd() { ctl "$S" show pfcwd dev ns0 | jq -e ".[] | select(.priority == 3) | $1" \
    >/dev/null; }
nic_pfc() { [ "$(port .device.nic.pfc.pfc_en)" = "$1" ]; }
server_conf
start mlx5
wait_for 30 adopted
more_pdus 1
w=$(port .device.writes); b=$(bounces)
echo "ns0 3" >"$NS_TMP/storm"
check "storm: detected on priority 3 from the NIC's counters" \
    wait_for 30 wd '.status == "stormed" and .storms_detected == 1'
check "storm: PFC off on 3 in the NIC" wait_for 20 nic_pfc 0
check "storm: the peer's policy stays the operational one" \
    [ "$(oper_pfc)" = "$PFC3" ]
check "storm: one more write" [ "$(port .device.writes)" = $((w + 1)) ]
rm -f "$NS_TMP/storm"
check "storm over: restored after restoration-time" \
    wait_for 30 wd '.status == "operational" and .storms_restored == 1'
check "storm over: PFC on 3 in the NIC again" wait_for 20 nic_pfc 8
more_pdus 2
diag "storm: $(( $(port .device.writes) - w )) writes, $(( $(bounces) - b )) bounces"
check "storm over: settled: one write each way, one mlx5 bounce each" \
    [ "$(port .device.writes)" = $((w + 2)) -a "$(bounces)" = $((b + 2)) ]
check "storm over: one storm, no second detection" \
    wd '.storms_detected == 1 and .storms_restored == 1'
check "storm: the log says the PFC write bounces the link, both ways" sh -c \
    "grep -q 'ns0: PFC off on priorities 0x08: this NIC.s driver takes the link down' $NS_TMP/s.log &&
    grep -q 'ns0: PFC on again on priorities 0x08: this NIC.s driver' $NS_TMP/s.log"

# An mlx5 whose buffer for the lossless priority is below the headroom.
server_conf
start mlx5 "" small
wait_for 30 adopted
check "small buffer: doctor says the NIC's buffer is below the headroom" \
    sh -c "timeout 10 $DCBCTL -s $S -j doctor | jq -e '.[] |
    select(.check == \"nic-buffer\" and .severity == \"error\")'"

# A bnxt with 4 queues, 2 of them lossless: we advertise what it holds.
server_conf
start bnxt
check "bnxt: the controller hears MaxTCs 4 and PFC cap 2 from the server" \
    wait_for 30 sh -c "timeout 10 $DCBCTL -s $C -j show dcbx dev nc0 |
    jq -e '.ets.peer.ets_cap == 4 and .pfc.peer.pfc_cap == 2'"
check "bnxt: and the server adopts the policy on them" wait_for 30 adopted

# The NIC's firmware runs DCBX: one speaker on the port, ours receives.
server_conf
start mlx5 ns0
check "firmware: the server says the firmware speaks" wait_for 20 sh -c \
    "timeout 10 $DCBCTL -s $S -j show ports | jq -e '.[0].speaker == \"nic-firmware\"'"
more_pdus 2
check "firmware: the server sends no LLDPDU" \
    [ "$(ctl "$S" show stats | jq '.[0].lldp.statsFramesOutTotal')" = 0 ]
check "firmware: nothing written to the NIC" [ "$(port .device.writes)" = 0 ]

# firmware-dcbx = take-over: taken at start, handed back at exit.
server_conf take-over
start mlx5 ns0
check "take-over: dcbxd runs DCBX" wait_for 20 sh -c \
    "timeout 10 $DCBCTL -s $S -j show ports | jq -e '.[0].device.took_over'"
check "take-over: and adopts the policy" wait_for 30 adopted
kill "$SPID"
wait_for 20 sh -c "! kill -0 $SPID 2>/dev/null"
check "take-over: handed back at exit" \
    grep -q "DCBX handed back to the NIC's firmware" "$NS_TMP/s.log"
if grep -q "ERROR: AddressSanitizer\|runtime error:" "$NS_TMP/s.log" "$NS_TMP/c.log"; then
	not_ok "no sanitizer report"
	grep -h "ERROR: AddressSanitizer\|runtime error:" "$NS_TMP/s.log" \
	    "$NS_TMP/c.log" | head -5 | while read -r l; do diag "$l"; done
else
	ok "no sanitizer report"
fi
finish
