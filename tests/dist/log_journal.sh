#!/bin/sh
# SPDX-License-Identifier: ISC
# log_journal.sh -- under systemd (JOURNAL_STREAM names stderr's device and
# inode) each line of dcbxd -d carries its syslog priority as "<N>" and no
# timestamp of its own, so `journalctl -p warning` sees warnings and errors;
# anywhere else the line keeps its timestamp and "[ERR/main]" form.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
plan 6
ns_setup j
ns_add a || bail "namespace"
T=$NS_TMP

# stream FILE: "dev:ino" of FILE, as systemd writes JOURNAL_STREAM.
stream() { /usr/bin/python3 -c 'import os,sys; s=os.stat(sys.argv[1]); print("%d:%d" % (s.st_dev, s.st_ino))' "$1"; }

: >"$T/err"
JOURNAL_STREAM=$(stream "$T/err") "$DCBXD" -d -c "$T/missing.conf" 2>>"$T/err"
diag "$(cat "$T/err")"
check "a fatal error is <2> (LOG_CRIT), without a timestamp" \
	grep -Eq "^<2>\[main\] $T/missing.conf: No such file" "$T/err"
: >"$T/err2"
JOURNAL_STREAM=0:0 "$DCBXD" -d -c "$T/missing.conf" 2>>"$T/err2"
check "another stderr keeps the timestamped form" \
	grep -Eq '^[0-9]+\.[0-9]{3} \[ERR/main\] ' "$T/err2"

# A running daemon: its notice, info and debug lines.
echo 'dcbxd: { tx-interval = 5; };' >"$T/c.conf"
: >"$T/run"
# bg_start truncates the file: same inode, stdout and stderr both there.
bg_start a "$T/run" env JOURNAL_STREAM="$(stream "$T/run")" "$DCBXD" -d \
	-c "$T/c.conf" -s "$T/s.sock"
pid=$BG_PID
wait_for 10 test -S "$T/s.sock" || bail "dcbxd did not start"
kill -TERM "$pid"
wait_for 5 sh -c "! kill -0 $pid 2>/dev/null"
diag "$(cat "$T/run")"
check "info lines are <6>" grep -Eq '^<6>\[main\] dcbxd .* started' "$T/run"
check "the shutdown on SIGTERM is <6> too" grep -Eq '^<6>\[main\] signal 15' "$T/run"
check "every line has a priority and no timestamp" \
	sh -c "! grep -Ev '^<[0-7]>\[[a-z]+\] ' '$T/run' | grep -v Sanitizer | grep -q ."
check_clean "no sanitizer report" "$T/run" "$T/err"
finish
