#!/bin/sh
# SPDX-License-Identifier: ISC
# daemon_files.sh -- the files a root-started dcbxd makes (issue 34 item
# 6).  A second dcbxd on the same control socket refuses to start (it
# used to take the socket over, and whichever exited first deleted the
# other's); a socket nobody answers on (a kill -9's) is replaced, a file
# that is not a socket is left alone.  The pid file is never opened
# through a symlink (root would truncate the link's target) and is 0600,
# so that no other user can hold a shared flock on it and stop every
# later start.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
need_cmd setpriv flock
id nobody >/dev/null 2>&1 || skip_all "no user nobody"
plan 12
ns_setup df
ns_pair df0 df1
T=$NS_TMP
chmod 755 "$T"
dx_conf "$T/c.conf" 5 2 '' '{ match = "df*"; backend = "readonly"; }'

dx_start a a "$T/c.conf" -p "$T/a.pid" || bail "dcbxd a"
check "the pid file is 0600" \
    sh -c "[ \"\$(stat -c %a '$T/a.pid')\" = 600 ]"

# A second daemon, its own pid file, the same socket: refused.
out=$(nsx a timeout 10 "$DCBXD" -d -c "$T/c.conf" -s "$T/a.sock" \
    -p "$T/b.pid" 2>&1); rc=$?
diag "second dcbxd on the same socket: rc $rc: $(echo "$out" | tail -1)"
check "a second dcbxd on a running one's socket exits 1, saying why" \
    sh -c "[ $rc -eq 1 ] && echo '$out' | grep -q 'a running daemon answers on it'"
check "the first still answers on its socket" dx_jq a 'length == 1' show ports
kill -KILL "$PID_a"; wait "$PID_a" 2>/dev/null
check "killed: its socket file is left behind" test -S "$T/a.sock"
# The pid file left by a crash: nobody else may hold a lock on it.
check "another user cannot open the pid file to hold a shared lock" \
    sh -c "! setpriv --reuid=nobody --regid=nogroup --clear-groups \
        flock -s -n '$T/a.pid' true 2>/dev/null"

# A stale socket is replaced; its log says so.  (Not dx_start: it would
# remove the file first.)
bg_start a "$T/a.log" "$DCBXD" -d -c "$T/c.conf" -s "$T/a.sock" -p "$T/a.pid"
PID_a=$BG_PID
wait_for 10 grep -q "dcbxd .* started" "$T/a.log" || bail "dcbxd a again"
check "a socket nobody answers on is replaced, and said so" \
    grep -q 'removed a stale socket' "$T/a.log"
check "... and the new daemon answers on it" dx_jq a 'length == 1' show ports
kill -TERM "$PID_a"; wait "$PID_a" 2>/dev/null

# Not a socket: left alone.
echo "precious" >"$T/a.sock"
out=$(nsx a timeout 10 "$DCBXD" -d -c "$T/c.conf" -s "$T/a.sock" 2>&1)
rc=$?
check "a file that is not a socket at the socket's path: exit 1, file kept" \
    sh -c "[ $rc -eq 1 ] && [ \"\$(cat '$T/a.sock')\" = precious ] &&
        echo '$out' | grep -q 'is not a socket'"
rm -f "$T/a.sock"

# The pid file through a symlink: refused, the target untouched.
echo "do not truncate" >"$T/victim"
ln -s "$T/victim" "$T/l.pid"
out=$(nsx a timeout 10 "$DCBXD" -d -c "$T/c.conf" -s "$T/l.sock" \
    -p "$T/l.pid" 2>&1); rc=$?
diag "pid file a symlink: rc $rc: $(echo "$out" | tail -1)"
check "a symlink as pid file: exit 1, not followed" \
    sh -c "[ $rc -eq 1 ] && echo '$out' | grep -q 'symbolic link'"
check "... its target untouched" \
    sh -c "[ \"\$(cat '$T/victim')\" = 'do not truncate' ]"

# A pid file left 0644 by an older dcbxd: made 0600.
rm -f "$T/a.pid"; echo 1 >"$T/a.pid"; chmod 644 "$T/a.pid"
dx_start a a "$T/c.conf" -p "$T/a.pid" || bail "dcbxd a, old pid file"
check "an old 0644 pid file is made 0600" \
    sh -c "[ \"\$(stat -c %a '$T/a.pid')\" = 600 ]"
kill -TERM "$PID_a"; wait "$PID_a" 2>/dev/null
check_clean "no sanitizer report" "$T/a.log"
finish
