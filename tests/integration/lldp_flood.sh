#!/bin/sh
# A flood of malformed LLDP frames (bounded: 3 s) while the control socket
# keeps answering; the counters show the frames.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
plan 5
ns_setup d
ns_pair d2a d2b
dx_conf "$NS_TMP/c.conf" 5 2
dx_start a a "$NS_TMP/c.conf" || bail "dcbxd"
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
check "the daemon is alive and clean" sh -c "kill -0 $PID_a && ! grep -q Sanitizer $NS_TMP/a.log"
finish
