#!/bin/sh
# SPDX-License-Identifier: ISC
# A link-down with LLDPDUs still queued for the daemon: the port goes down
# and stays down.  Frames that came before the carrier went are read as
# they came, while the port was up, and not after the kernel's report,
# where their first one would take the port up again ("link up (LLDPDU
# received)", port_rx.c) and undo the down: the neighbour and a CEE
# peer's mode then outlived the link (seen in bench/lldp_rx_cost.sh).
#
# The window: a flood puts the port on its packet ring, whose last block
# the kernel hands over only SOCK_RING_TOV_MS after its first frame; a
# link-down reported within that time found frames there.  Which comes
# first is the kernel's timing, so each try floods (about 5000 LLDPDUs a
# second) and takes the link down mid-flood; without the fix most tries
# failed (4 of 6 in trials).  A try whose down the kernel did not report
# (linkwatch can fold a down and an up together) is skipped, not judged.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
TRIES=4
plan $((TRIES * 2))
ns_setup q
ns_pair d2a d2b
dx_conf "$NS_TMP/c.conf" 5 2
dx_start a a "$NS_TMP/c.conf" -D link || bail "dcbxd"
link() { ctl_get "$NS_TMP/a.sock" 'INDEX(.ifname) | .d2a.link' show ports; }
is_link() { [ "$(link)" = "$1" ]; }
downs() { grep -c "d2a: link down$" "$NS_TMP/a.log"; }
wait_for 10 is_link up || bail "d2a not up"

for t in $(seq "$TRIES"); do
	# About 5000 LLDPDUs a second until the link goes (bounded: 10 s).
	bg_start b "$NS_TMP/send$t.out" $PY -c '
import socket, struct, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("d2b", 0))
tlv = lambda t, v: struct.pack("!H", t << 9 | len(v)) + v
f = (bytes.fromhex("0180c200000e" "020000000077") + b"\x88\xcc" +
     tlv(1, b"\x04" + bytes.fromhex("020000000077")) + tlv(2, b"\x05p") +
     tlv(3, b"\x00\x78") + tlv(0, b"")).ljust(60, b"\x00")
end = time.time() + 10
n = 0
try:
    while time.time() < end:
        for i in range(50):
            s.send(f)
        n += 50
        time.sleep(0.01)
except OSError:
    pass
print(n)'
	SENDER=$BG_PID
	wait_for 10 dx_nbrs a 1 || diag "try $t: no neighbour yet"
	sleep 1.5			# the flood is on the ring
	d0=$(downs)
	ip -n "$(ns_name b)" link set d2b down
	wait "$SENDER" 2>/dev/null
	if wait_for 5 sh -c "[ \$(grep -c 'd2a: link down\$' $NS_TMP/a.log) -gt $d0 ]"; then
		sleep 0.5		# a hold, a ring block: long over
		l=$(link)
		up_rx=$(awk -v n="$((d0 + 1))" '/d2a: link down$/ { d++ }
		    d >= n && /link up \(LLDPDU received\)/ { c++ } END { print c + 0 }' \
		    "$NS_TMP/a.log")
		diag "try $t: $(cat "$NS_TMP/send$t.out") frames sent; after the reported down: link $l, $up_rx ups by LLDPDU"
		check "try $t: the port stays down after the kernel's link-down" [ "$l" = down ]
		check "try $t: no queued LLDPDU took it up again" [ "$up_rx" = 0 ]
	else
		skip "the kernel did not report this down (linkwatch)" "try $t: stays down"
		skip "the kernel did not report this down (linkwatch)" "try $t: no up by LLDPDU"
	fi
	ip -n "$(ns_name b)" link set d2b up
	wait_for 10 is_link up || diag "try $t: d2a not up again"
done
finish
