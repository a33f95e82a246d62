#!/bin/sh
# SPDX-License-Identifier: ISC
# Process-level behaviour of dcbxd: a locked pid file (a second dcbxd with
# the same pid file refuses to start and says why), sd_notify READY=1,
# RELOADING=1 and STOPPING=1 (read from our own NOTIFY_SOCKET), and -u:
# running as an unprivileged user with only CAP_NET_RAW and CAP_NET_ADMIN,
# still able to open packet sockets for an interface created afterwards.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
plan 14
ns_setup o
ns_pair o1a o1b
dx_conf "$NS_TMP/c.conf" 5 2 '' '{ match = "o*"; }'
T=$NS_TMP
chmod 755 "$T"			# user nobody reads the config

# A NOTIFY_SOCKET listener: every datagram, one line per field, to a file.
$PY - "$T/notify.sock" "$T/notify.txt" <<'EOP' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1]); s.settimeout(1)
end = time.time() + 60
with open(sys.argv[2], "a", buffering=1) as f:
    while time.time() < end:
        try:
            f.write(s.recv(4096).decode() + "\n")
        except socket.timeout:
            pass
EOP
BG_PIDS="$BG_PIDS $!"
wait_for 20 test -S "$T/notify.sock" || bail "notify listener"
notified() { grep -qx "$1" "$T/notify.txt"; }

bg_start a "$T/a.log" env NOTIFY_SOCKET="$T/notify.sock" "$DCBXD" -d \
    -c "$T/c.conf" -s "$T/a.sock" -p "$T/a.pid"
PID_a=$BG_PID
wait_for 10 test -S "$T/a.sock" || bail "dcbxd a"
if grep -q '^#define HAVE_SYSTEMD 1' "$top_builddir/config.h"; then
	check "sd_notify READY=1 once running" wait_for 20 notified READY=1
	check "MAINPID is the daemon's pid" notified "MAINPID=$PID_a"
	kill -HUP "$PID_a"
	check "SIGHUP: RELOADING=1, then READY=1 again" \
	    wait_for 20 sh -c "grep -A3 -x RELOADING=1 '$T/notify.txt' | grep -qx READY=1"
else
	for i in 1 2 3; do skip "built without libsystemd" "sd_notify $i"; done
fi
check "the pid file holds the daemon's pid" \
    wait_for 20 sh -c "[ \"\$(cat '$T/a.pid')\" = $PID_a ]"

# A second daemon with the same pid file: exit 1 at once, clear message.
out=$(nsx a timeout 5 "$DCBXD" -d -c "$T/c.conf" -s "$T/a2.sock" \
    -p "$T/a.pid" 2>&1); rc=$?
diag "second dcbxd: rc $rc: $out"
check "a second dcbxd with the same pid file exits 1" [ "$rc" -eq 1 ]
check "and says the pid file is locked by the first (pid $PID_a)" \
    sh -c "echo '$out' | grep -q 'pid file $T/a.pid is locked by a running dcbxd (pid $PID_a)'"
check "the first one is untouched" \
    sh -c "kill -0 $PID_a && [ \"\$(cat '$T/a.pid')\" = $PID_a ]"

# -u nobody in b: uid, capabilities, and it still works.
dx_start b b "$T/c.conf" -u nobody || bail "dcbxd b"
# The control socket opens before the privileges go; the daemon says when
# it runs as the user ("running as ..."), and only then is it read.
check "-u nobody: the daemon says it runs as nobody" \
    wait_for 20 grep -q "running as nobody" "$T/b.log"
st=$(cat "/proc/$PID_b/status")
diag "$(echo "$st" | grep -E '^(Uid|Gid|CapEff|CapPrm)')"
check "-u nobody: every uid is nobody's (65534)" \
    sh -c "echo '$st' | grep -Eq '^Uid:[[:space:]]+65534[[:space:]]+65534[[:space:]]+65534[[:space:]]+65534$'"
check "-u: only CAP_NET_RAW and CAP_NET_ADMIN (0x3000) effective and permitted" \
    sh -c "echo '$st' | grep -q '^CapEff:.*0000000000003000$' && echo '$st' | grep -q '^CapPrm:.*0000000000003000$'"
check "the unprivileged daemon sees its neighbour" wait_for 20 dx_nbrs b 1
veth_add a o2a b o2b || bail "second veth"
nsx a ip link set o2a up; nsx b ip link set o2b up
check "and opens a packet socket for a new interface (CAP_NET_RAW kept)" \
    wait_for 20 dx_nbrs b 2

kill -TERM "$PID_a"
if grep -q '^#define HAVE_SYSTEMD 1' "$top_builddir/config.h"; then
	check "SIGTERM: STOPPING=1" wait_for 20 notified STOPPING=1
else
	skip "built without libsystemd" "STOPPING=1"
fi
kill -TERM "$PID_b"; wait_for 20 sh -c "! kill -0 $PID_b 2>/dev/null"
check_clean "no sanitizer report" "$T/a.log" "$T/b.log"
finish
