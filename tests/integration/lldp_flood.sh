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
plan 11
ns_setup d
ns_pair d2a d2b
dx_conf "$NS_TMP/c.conf" 5 2
dx_start a a "$NS_TMP/c.conf" || bail "dcbxd"
# Frames the kernel drops before any socket sees them (netdev backlog full).
backlog_drops() {
	python3 -c 'print(sum(int(l.split()[1], 16) for l in open("/proc/net/softnet_stat")))'
}
bl0=$(backlog_drops)
# Sender: every kind of bad LLDPDU, as fast as one process can, for 3 s.
bg_start b "$NS_TMP/flood.out" python3 -c '
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
lat=$(python3 - "$NS_TMP/a.sock" <<'EOP'
import json, socket, sys, time
worst, n, end = 0.0, 0, time.time() + 3
while time.time() < end:
    t = time.time()
    s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(sys.argv[1])
    s.sendall(b'{"cmd":"show-stats"}\n'); json.loads(s.makefile().readline()); s.close()
    worst = max(worst, time.time() - t); n += 1
    time.sleep(0.01)
print("%d %.1f" % (n, worst * 1000))
EOP
)
sleep 0.5
sent=$(cat "$NS_TMP/flood.out")
diag "flood: $sent malformed frames in 3 s; control socket: ${lat% *} answers, worst ${lat#* } ms"
check "the control socket answered during the flood (worst < 1 s)" \
    python3 -c "import sys; sys.exit(0 if ${lat#* } < 1000 and ${lat% *} > 10 else 1)"
err=$(dx_stat a d2a statsFramesInErrorsTotal)
disc=$(dx_stat a d2a statsFramesDiscardedTotal)
diag "statsFramesInErrorsTotal $err, statsFramesDiscardedTotal $disc"
check "malformed frames are counted as errors" [ "${err:-0}" -gt 1000 ]
check "and as discarded" [ "${disc:-0}" -gt 1000 ]
check "no malformed frame became a neighbour" dx_nbrs a 0
rx() { dx_q a show-stats '{"dev":"d2a"}' | python3 -c "import json,sys; print(json.load(sys.stdin)[0]['rx']['$1'])"; }
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
check "back on the socket queue once the flood is over (< 8 s)" \
    wait_for 8 rx_socket
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
nsx b python3 "$NS_TMP/send_pdus.py" 2 0
check "a valid LLDPDU after the flood makes a neighbour (socket path)" \
    wait_for 3 dx_nbrs a 1
# A second flood (2 s, valid LLDPDUs), and the link goes down under it:
# the ring goes at once; up again, the port works on its socket.
bg_start b "$NS_TMP/flood2.out" python3 "$NS_TMP/send_pdus.py" 3 2
rx_ring() { [ "$(rx mode)" = ring ]; }
wait_for 2 rx_ring || diag "the second flood did not open the ring"
ip -n "$(ns_name a)" link set d2a down
check "link down under a flood closes the ring at once (< 1 s)" \
    wait_for 1 rx_socket
ip -n "$(ns_name a)" link set d2a up
sleep 2.2	# the sender is done
nsx b python3 "$NS_TMP/send_pdus.py" 4 0
check "after the link flap a new neighbour is heard again" \
    wait_for 3 dx_eval a "any(n['chassis_id'] == '02:00:00:00:00:04' for n in r)"
check "the daemon is alive and clean" sh -c "kill -0 $PID_a && ! grep -q Sanitizer $NS_TMP/a.log"
finish
