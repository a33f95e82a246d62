#!/bin/sh
# SPDX-License-Identifier: ISC
# A flood of malformed LLDP frames (bounded: 3 s) while the control socket
# keeps answering; the counters show the frames.  The flood switches the
# port to a packet ring and its end switches it back (port_rx.c); a valid
# LLDPDU afterwards is heard on the socket queue again.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
plan 15
ns_setup d
ns_pair d2a d2b
dx_conf "$NS_TMP/c.conf" 5 2
dx_start a a "$NS_TMP/c.conf" || bail "dcbxd"
bl0=$(backlog_drops)
# Sender: every kind of bad LLDPDU, as fast as one process can, for 3 s.
bg_start b "$NS_TMP/flood.out" $PY -c '
import socket, struct, time, random
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("d2b", 0))
hdr = bytes.fromhex("0180c200000e" "020000000002") + b"\x88\xcc"
tlv = lambda t, v: struct.pack("!H", t << 9 | len(v)) + v
good = tlv(1, b"\x04" + bytes(6)) + tlv(2, b"\x05x") + tlv(3, b"\x00\x78")
bad = [b"", b"\x02", tlv(2, b"\x05x") + tlv(1, b"\x04" + bytes(6)),
       tlv(1, b"\x04") , good[:-1], tlv(1, b"\x04" + bytes(6)) + tlv(2, b"\x05x"),
       good + tlv(1, b"\x04" + bytes(6)), struct.pack("!H", 1 << 9 | 300) + bytes(20)]
n = 0; end = time.time() + 3
while time.time() < end:
    f = hdr + random.choice(bad) + bytes(random.randrange(0, 40))
    s.send(f.ljust(60, b"\x00")); n += 1
print(n)'
FLOOD=$BG_PID
# While it runs: the control socket keeps answering, and the answers see
# the flood in progress (the error counter rising between them), so they
# were served during it, not after.  Answer times go to diag only.
: >"$NS_TMP/errs"
while kill -0 "$FLOOD" 2>/dev/null; do
	dx_stat a d2a statsFramesInErrorsTotal >>"$NS_TMP/errs"
done
wait_for 20 test -s "$NS_TMP/flood.out"
sent=$(cat "$NS_TMP/flood.out")
rises=$(awk 'NR > 1 && $1 > p { n++ } { p = $1 } END { print n + 0 }' "$NS_TMP/errs")
diag "flood: $sent malformed frames; control socket: $(wc -l <"$NS_TMP/errs") answers, the error counter rose between $rises of them"
check "the control socket answered during the flood (the counter rose between answers)" \
    [ "$rises" -ge 2 ]
err=$(dx_stat a d2a statsFramesInErrorsTotal)
disc=$(dx_stat a d2a statsFramesDiscardedTotal)
diag "statsFramesInErrorsTotal $err, statsFramesDiscardedTotal $disc"
check "malformed frames are counted as errors" [ "${err:-0}" -gt 1000 ]
check "and as discarded" [ "${disc:-0}" -gt 1000 ]
check "no malformed frame became a neighbour" dx_nbrs a 0
rx() { ctl_get "$NS_TMP/a.sock" ".[0].rx.$1" show stats dev d2a; }
diag "receive path: $(rx mode), floods $(rx floods), kernel drops $(rx kernel_drops)"
check "the flood switched the port to the packet ring" [ "$(rx floods)" -ge 1 ]
in=$(dx_stat a d2a statsFramesInTotal)
drops=$(rx kernel_drops)
bl1=$(backlog_drops)
diag "sent $sent, framesIn $in, discarded $disc, socket/ring drops $drops," \
    "input backlog drops $((bl1 - bl0)) (whole machine)"
check "every frame sent was counted once or dropped by the kernel (switching loses none)" \
    [ $((in + disc + drops)) -le "$sent" -a $((in + disc + drops + bl1 - bl0)) -ge "$sent" ]
rx_socket() { [ "$(rx mode)" = socket ]; }
check "back on the socket queue once the flood is over" \
    wait_for 30 rx_socket
check "... because the port went quiet (a's log)" \
    grep -q "d2a: port quiet again: back to the socket queue" "$NS_TMP/a.log"
# send_pdus N SECONDS: from namespace b, valid LLDPDUs (chassis MAC
# 02:00:00:00:00:0N, port ID N, TTL 120, End): one, or as many as one
# process can send for SECONDS.
cat >"$NS_TMP/send_pdus.py" <<'EOP'
import socket, struct, sys, time
n, secs = sys.argv[1], float(sys.argv[2])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("d2b", 0))
tlv = lambda t, v: struct.pack("!H", t << 9 | len(v)) + v
mac = bytes.fromhex("02000000000" + n)
f = (bytes.fromhex("0180c200000e") + mac + b"\x88\xcc" +
     tlv(1, b"\x04" + mac) + tlv(2, b"\x05" + n.encode()) +
     tlv(3, b"\x00\x78") + tlv(0, b"")).ljust(60, b"\x00")
end = time.time() + secs
while True:
    try: s.send(f)
    except OSError: time.sleep(0.001)
    if time.time() >= end: break
EOP
nsx b $PY "$NS_TMP/send_pdus.py" 2 0
check "a valid LLDPDU after the flood makes a neighbour (socket path)" \
    wait_for 20 dx_nbrs a 1
# A second flood (valid LLDPDUs, until stopped; bounded at 60 s): it opens
# the ring, and the link goes down under it: the ring goes with the link
# (the flood still runs, so it cannot be quiet).  Up again, the port works
# on its socket.
bg_start b "$NS_TMP/flood2.out" $PY "$NS_TMP/send_pdus.py" 3 60
FLOOD=$BG_PID
rx_ring() { [ "$(rx mode)" = ring ]; }
check "the second flood opened the ring" wait_for 30 rx_ring
nq=$(grep -c "port quiet again" "$NS_TMP/a.log")
ip -n "$(ns_name a)" link set d2a down
check "link down under a flood closes the ring" wait_for 30 rx_socket
check "... because of the link, not quiet (a's log)" \
    sh -c "[ \$(grep -c 'port quiet again' '$NS_TMP/a.log') = $nq ] &&
        grep 'back to the socket queue' '$NS_TMP/a.log' | tail -1 | grep -q link"
kill "$FLOOD"; wait_for 10 sh -c "! kill -0 $FLOOD 2>/dev/null"
ip -n "$(ns_name a)" link set d2a up
nsx b $PY "$NS_TMP/send_pdus.py" 4 0
check "after the link flap a new neighbour is heard again" \
    wait_for 20 dx_jq a 'any(.[]; .chassis_id == "02:00:00:00:00:04")'
check "the daemon is alive" kill -0 "$PID_a"
check_clean "no sanitizer report" "$NS_TMP/a.log"
finish
