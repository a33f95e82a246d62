#!/bin/sh
# SPDX-License-Identifier: ISC
# snmp_master.sh -- the subagent and its master agent's life: dcbxd starts
# with no snmpd (runs normally, says so once), connects when snmpd comes,
# and reconnects within a few seconds after snmpd restarts.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/snmp_lib.sh"

sn_need
sn_setup
plan 10
ns_pair s0 s1
sn_conf a willing "" yes
sn_conf b controller "3, 4" no
sn_start a a || bail "dcbxd a"
sn_start b b || bail "dcbxd b"
L=$SN_OID_LLDP.1

# No master: dcbxd negotiates anyway and logs the fact once.
check "without a master, dcbxd still learns its neighbour" \
	wait_for 30 grep -q 'new neighbour' "$NS_TMP/a.log"
# A negative check needs a window: any second message would come with a
# reconnect attempt (every few seconds); under load fewer attempts fit in
# it, which can only make this weaker, never fail a correct daemon.
sleep 7
n=$(grep -c 'no AgentX master' "$NS_TMP/a.log")
check "'no AgentX master' logged exactly once ($n)" [ "$n" -eq 1 ]
check "dcbxd is still running" kill -0 "$(sn_pid a)"

# The master comes: dcbxd connects and serves.
sn_snmpd || bail "snmpd did not start"
if wait_for 30 sh -c "snmpget -v2c -c public -On -Oqv -t 1 -r 0 \
    127.0.0.1:$SN_PORT $L.3.3.0 2>/dev/null | grep -q '\"a\"'"; then
	ok "a master started later gets dcbxd's objects"
else
	not_ok "a master started later gets dcbxd's objects"
fi

# The master restarts: dcbxd reconnects within a few seconds.
sn_snmpd_stop
check "dcbxd notices the master is gone" \
	wait_for 30 grep -q 'lost the AgentX master' "$NS_TMP/a.log"
sn_snmpd || bail "snmpd did not restart"
check "reconnected and serving again" wait_for 30 sh -c "snmpget -v2c -c public -On -Oqv -t 1 -r 0 \
    127.0.0.1:$SN_PORT $L.3.3.0 2>/dev/null | grep -q '\"a\"'"
lost=$(log_last_ms "$NS_TMP/a.log" "lost the AgentX master")
back=$(log_last_ms "$NS_TMP/a.log" "connected to the AgentX master")
diag "reconnected $((${back:-0} - ${lost:-0})) ms after losing the master (a's log; includes snmpd's restart)"
check "the reconnection came after the loss (a's log order)" \
    eval '[ -n "$lost" ] && [ -n "$back" ] && [ "$back" -ge "$lost" ]'
n=$(grep -c 'connected to the AgentX master' "$NS_TMP/a.log")
check "two connections logged ($n)" [ "$n" -eq 2 ]
check "dcbxd is still running after the restart" kill -0 "$(sn_pid a)"
# An orderly stop after a lost and a new session: nothing leaks (a
# sanitizer build reports at exit; the cleanup's kill never waited).
kill -TERM "$(sn_pid a)"
wait "$(sn_pid a)"
check_clean "SIGTERM after a reconnection: dcbxd exits clean" "$NS_TMP/a.log"
finish
