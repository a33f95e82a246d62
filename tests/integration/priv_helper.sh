#!/bin/sh
# SPDX-License-Identifier: ISC
# priv_helper.sh -- dcbxd -u and its root helper as a running daemon sees
# them (issue 34 item 2).  A stopped helper (SIGSTOP; a slow fsync of /etc
# is the same to the daemon) stops only what waits for it: while a
# `set --persist` waits, the loop answers other requests; the persist is
# answered once the helper runs again.  Who set a policy and who reloaded
# is logged (SO_PEERCRED uid).  A helper killed is reaped (its signal is
# logged) and the daemon exits 75 for systemd's Restart=, without the
# orderly shutdown.  An orderly stop has the helper remove the socket and
# the pid file.  Before the fix the loop sat 10 s in the helper's
# receive, then gave the helper up for good, and the helper's exit
# removed the live daemon's socket.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
id nobody >/dev/null 2>&1 || skip_all "no user nobody"
plan 12
ns_setup ph
ns_pair ph0 ph1
T=$NS_TMP
chmod 755 "$T"			# user nobody reads the config again
cat >"$T/c.conf" <<'EOC'
dcbxd: { tx-interval = 5; };
ports = ( { match = "ph*"; role = "controller"; backend = "readonly"; } );
EOC

dx_start a a "$T/c.conf" -u nobody -p "$T/a.pid" || bail "dcbxd"
wait_for 20 grep -q "running as nobody" "$T/a.log" || bail "no drop"
helper() { pgrep -P "$PID_a" -x dcbxd-priv; }
HP=$(helper) || bail "no helper process"
diag "daemon $PID_a, helper $HP"

# 1. The helper stopped, a persist waiting: the loop answers meanwhile.
kill -STOP "$HP"
( timeout 60 "$DCBCTL" -s "$T/a.sock" -j set pfc dev ph0 prio-pfc 3:on \
    --persist >"$T/persist.out" 2>&1; echo $? >"$T/persist.rc" ) &
PERSIST=$!
BG_PIDS="$BG_PIDS $PERSIST"
wait_for 20 grep -q "ph0: policy set by uid 0 (pfc), to be persisted" \
    "$T/a.log" || bail "the persist did not arrive"
answered=0
for _ in 1 2 3 4 5; do
	dx_jq a 'length == 1' show ports && answered=$((answered + 1))
done
check "5 show-ports answered while the persist waits for the stopped helper" \
    [ "$answered" -eq 5 ]
check "... and the persist is still waiting (no answer yet)" \
    sh -c "kill -0 $PERSIST 2>/dev/null && [ ! -s '$T/persist.out' ]"
check "the port already runs the new PFC (before the file has it)" \
    dx_jq a '.pfc.oper.prio_pfc[3] == true' show dcbx dev ph0

kill -CONT "$HP"
check "the helper runs again: the persist is answered, ok" \
    wait_for 30 sh -c "[ \"\$(cat '$T/persist.rc' 2>/dev/null)\" = 0 ]"
check "the file has the policy, written by the helper (uid 0's request logged)" \
    sh -c "grep -q 'prio-pfc = \[ 3 \]' '$T/c.conf' &&
        grep -q 'ph0: policy written to $T/c.conf (set by uid 0)' '$T/a.log'"
dx_ctl a reload >/dev/null
check "a reload says whose it was" grep -q "reload asked by uid 0" "$T/a.log"

# 2. The helper killed: reaped, and the daemon exits 75 at once.
kill -KILL "$HP"
wait "$PID_a"
rc=$?
check "the helper killed: the daemon exits 75 (Restart=on-failure)" \
    [ "$rc" -eq 75 ]
check "... having reaped it (its signal logged) and said why" \
    sh -c "grep -q 'privileged helper (pid $HP) killed by signal 9' '$T/a.log' &&
        grep -q 'privileged helper lost' '$T/a.log'"
check "... without the orderly shutdown (no TTL-0 LLDPDU sent)" \
    sh -c "! grep -q 'shutdown LLDPDU\|shutting down' '$T/a.log'"

# 3. An orderly stop: the helper removes the socket and the pid file.
rm -f "$T/a.sock"
dx_start a a "$T/c.conf" -u nobody -p "$T/a.pid" || bail "dcbxd again"
wait_for 20 grep -q "running as nobody" "$T/a.log" || bail "no drop"
kill -TERM "$PID_a"
wait "$PID_a"
rc=$?
check "SIGTERM: exit 0" [ "$rc" -eq 0 ]
check "the socket and the pid file are gone (removed by the helper)" \
    sh -c "[ ! -e '$T/a.sock' ] && [ ! -e '$T/a.pid' ]"
check_clean "no sanitizer report" "$T/a.log"
finish
