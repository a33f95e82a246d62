#!/bin/sh
# SPDX-License-Identifier: ISC
# Oversized LLDPDUs on a link with MTU 9000 (issue 19 item 8): 802.1AB
# allows an LLDPDU of at most 1500 octets, so LLDPDUs of 1501 (just over),
# 1600, 3742 and 8944 octets, otherwise valid, are discarded and counted,
# on the socket path (single frames) and on the ring path (a flood), while
# a 1500-octet one from another chassis is a neighbour.  Before the fix the
# socket's filter cut frames to 1522 octets, which then looked whole: 1600,
# 3742 and 8944-octet LLDPDUs became neighbours.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
plan 9
ns_setup o
ns_pair o2a o2b
ip -n "$(ns_name a)" link set o2a mtu 9000 || bail "mtu"
ip -n "$(ns_name b)" link set o2b mtu 9000 || bail "mtu"
dx_conf "$NS_TMP/c.conf" 30 4 "" '{ match = "o2a"; }'
dx_start a a "$NS_TMP/c.conf" || bail "dcbxd"

# send.py CHASSIS-BYTE PDU-LEN COUNT SECONDS: valid LLDPDUs of exactly
# PDU-LEN octets (chassis MAC 02:00:00:00:00:CC, port "p", TTL 120, org
# TLVs of an unknown OUI to fill, End), COUNT times or for SECONDS.
cat >"$NS_TMP/send.py" <<'EOP'
import socket, struct, sys, time
cc, plen, count, secs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("o2b", 0))
tlv = lambda t, v: struct.pack("!H", t << 9 | len(v)) + v
mac = bytes([2, 0, 0, 0, 0, cc])
pdu = tlv(1, b"\x04" + mac) + tlv(2, b"\x05p") + tlv(3, b"\x00\x78")
end = tlv(0, b"")
fill = plen - len(pdu) - len(end)	# org TLVs of 6..513 octets each
k = -(-fill // 513)
for i in range(k):
    n = fill // k + (1 if i < fill % k else 0) - 2
    pdu += tlv(127, b"\x00\x00\x01\x01" + bytes(n - 4))
pdu += end
assert len(pdu) == plen, (len(pdu), plen)
f = bytes.fromhex("0180c200000e") + mac + b"\x88\xcc" + pdu
stop = time.time() + secs
sent = 0
while sent < count or time.time() < stop:
    try:
        s.send(f); sent += 1
    except OSError:
        time.sleep(0.001)
print(sent)
EOP
disc() { dx_stat a o2a statsFramesDiscardedTotal; }
rx() { ctl_get "$NS_TMP/a.sock" ".[0].rx.$1" show stats dev o2a; }

d0=$(disc)
for spec in "1 1500" "2 1501" "3 1600" "4 3742" "5 8944"; do
	nsx b $PY "$NS_TMP/send.py" $spec 1 0 >/dev/null
done
check "the 1500-octet LLDPDU is a neighbour" \
    wait_for 20 dx_jq a 'any(.[]; .chassis_id == "02:00:00:00:00:01")'
more_disc() { [ $(($(disc) - d0)) -ge 4 ]; }
check "1501, 1600, 3742, 8944 octets: discarded and counted (socket path)" \
    wait_for 20 more_disc
diag "statsFramesDiscardedTotal +$(($(disc) - d0)), receive path $(rx mode)"
check "... and none of them is a neighbour" dx_nbrs a 1

# The ring path: a flood of 8944-octet LLDPDUs switches the port to it.
d1=$(disc) k1=$(rx kernel_drops) b1=$(backlog_drops)
sent=$(nsx b $PY "$NS_TMP/send.py" 6 8944 0 1)
diag "flood: $sent LLDPDUs of 8944 octets; floods $(rx floods)"
check "the flood went to the packet ring" [ "$(rx floods)" -ge 1 ]
# Each one discarded and counted, or dropped by the kernel and counted
# there (a busy machine drops more): none taken, none unaccounted for.
accounted() {
	[ $(( $(disc) - d1 + $(rx kernel_drops) - k1 + $(backlog_drops) - b1 )) -ge "$sent" ]
}
check "the flood's LLDPDUs were discarded and counted (ring path), or dropped by the kernel" \
    wait_for 20 accounted
check "... some of them by dcbxd itself" [ $(( $(disc) - d1 )) -ge 1 ]
diag "statsFramesDiscardedTotal +$(($(disc) - d1)) of $sent sent, kernel drops +$(($(rx kernel_drops) - k1)), backlog +$(($(backlog_drops) - b1))"
check "still only the 1500-octet neighbour" dx_nbrs a 1
check "the daemon is alive" kill -0 "$PID_a"
check_clean "no sanitizer report" "$NS_TMP/a.log"
finish
