#!/bin/sh
# SPDX-License-Identifier: ISC
# A port that came up on a received LLDPDU, before the kernel reported
# carrier, keeps its neighbour across a reload (issue 17).
#
# The kernel reports carrier late (linkwatch, a NIC driver's link work):
# frames can arrive while it still says "no carrier".  dcbxd then takes
# the port up on the LLDPDU (port->up_by_rx).  A reload re-reads every
# link (link_resync()), which read the kernel's old "down" and took the
# port down, flushing the neighbour just learnt.
#
# Made deterministic with a TAP device whose carrier is off: frames
# written to its file descriptor are received on it all the same, so the
# kernel says "no carrier" for as long as the test needs.  Positive
# controls: the kernel's own down event still takes the port down (and
# flushes), and its up event brings it back.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
[ -c /dev/net/tun ] || skip_all "no /dev/net/tun"
plan 12
ns_setup u
ns_add a || bail "namespace"
A=$(ns_name a)

# holder.py IF DIR: create TAP IF, up, carrier off; DIR/ready when done.
# Each DIR/sendN that appears makes it write one LLDPDU (chassis
# 02:00:00:00:00:77, port "p", TTL 120); it reads and drops what dcbxd
# sends.  Bounded: it exits after 120 s or when DIR/stop appears.
cat >"$NS_TMP/holder.py" <<'EOP'
import fcntl, os, select, struct, subprocess, sys, time
ifname, d = sys.argv[1], sys.argv[2]
fd = os.open("/dev/net/tun", os.O_RDWR)
fcntl.ioctl(fd, 0x400454ca, struct.pack("16sH", ifname.encode(), 0x0002 | 0x1000))
subprocess.check_call(["ip", "link", "set", ifname, "address", "02:00:00:00:00:11", "up"])
subprocess.check_call(["ip", "link", "set", ifname, "carrier", "off"])
# Ready once the kernel's linkwatch has taken the carrier loss into the
# operational state too (IFF_RUNNING follows it, up to a second late).
for i in range(500):
    if open("/sys/class/net/%s/operstate" % ifname).read().strip() == "down":
        break
    time.sleep(0.01)
tlv = lambda t, v: struct.pack("!H", t << 9 | len(v)) + v
mac = bytes([2, 0, 0, 0, 0, 0x77])
pdu = tlv(1, b"\x04" + mac) + tlv(2, b"\x05p") + tlv(3, b"\x00\x78") + tlv(0, b"")
frame = bytes.fromhex("0180c200000e") + mac + b"\x88\xcc" + pdu
open(d + "/ready", "w").close()
sent = 0
end = time.time() + 120
while time.time() < end and not os.path.exists(d + "/stop"):
    if select.select([fd], [], [], 0.01)[0]:
        os.read(fd, 65536)
    if os.path.exists("%s/send%d" % (d, sent + 1)):
        os.write(fd, frame)
        sent += 1
EOP
bg_start a "$NS_TMP/holder.log" $PY "$NS_TMP/holder.py" u0 "$NS_TMP"
wait_for 10 test -e "$NS_TMP/ready" || bail "tap: $(cat "$NS_TMP/holder.log")"

dx_conf "$NS_TMP/a.conf" 30 4 "" '{ match = "u0"; }'
dx_start a a "$NS_TMP/a.conf" -D link || bail "dcbxd: $(cat "$NS_TMP/a.log")"
link() { ctl_get "$NS_TMP/a.sock" '.[] | select(.ifname == "u0") | .link' show ports; }
link_is() { [ "$(link)" = "$1" ]; }
deletes() { ctl_get "$NS_TMP/a.sock" '.[0].remote_tables.deletes' show stats dev u0; }
check "the kernel says no carrier: u0 is down" wait_for 10 link_is down
diag "$(ip -n "$A" link show u0 | head -1)"

touch "$NS_TMP/send1"
check "an LLDPDU arrives: u0 up, one neighbour" wait_for 20 dx_nbrs a 1
check "... up on the LLDPDU, the kernel still says no carrier" sh -c \
    "grep -q 'u0: link up (LLDPDU received)' '$NS_TMP/a.log' &&
     ip -n '$A' link show u0 | grep -q NO-CARRIER"

# The reload re-reads every link from the kernel: "no carrier" again.
reload_done() {
	dx_ctl a reload >/dev/null && grep -q "configuration reloaded" "$NS_TMP/a.log"
}
check "reload answered and logged" reload_done
check "u0 stays up across the reload" link_is up
check "the neighbour is still there" dx_nbrs a 1
check "nothing was deleted from the remote table" [ "$(deletes)" = 0 ]
# The log from the LLDPDU's link-up to the reload's end: no link-down.
no_down() {
	awk '/u0: link up \(LLDPDU received\)/ { on = 1 }
	    on && /u0: link down/ { bad = 1 }
	    /configuration reloaded/ && on { done = 1; exit }
	    END { exit !(done && !bad) }' "$NS_TMP/a.log"
}
check "no link-down was logged between the LLDPDU and the reload's end" no_down
check "the reload read 'no carrier' and kept u0 up (its debug line, before the reload's)" \
    log_before "$NS_TMP/a.log" "u0: re-read as down, but up on an LLDPDU" \
    "configuration reloaded"

# The kernel's own reports still count: down (flushes), then up again.
ip -n "$A" link set u0 down
down_flushed() { dx_nbrs a 0 && link_is down; }
check "the kernel's down event takes u0 down and flushes" wait_for 20 down_flushed
ip -n "$A" link set u0 up
touch "$NS_TMP/send2"
check "up again on the next LLDPDU" wait_for 20 dx_nbrs a 1
touch "$NS_TMP/stop"
check_clean "no sanitizer report" "$NS_TMP/a.log"
finish
