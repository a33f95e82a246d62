#!/bin/sh
# SPDX-License-Identifier: ISC
# snmp_traps.sh -- two controllers that disagree on PFC (3,4 against 3,5):
# the one that is an AgentX subagent sends exactly one dcbxdFeatureMismatch
# with the port, the feature and both values; agreeing again sends
# dcbxdFeatureMismatchCleared; during 50 flaps of the peer's config no two
# notifications are closer than the hold-down (on the daemon's own clock,
# its log stamps), and the last notification tells the final state.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/snmp_lib.sh"

HOLD=2
MISMATCH=$SN_OID_OURS.0.1
CLEARED=$SN_OID_OURS.0.2

sn_need
sn_setup
plan 13
ns_pair s0 s1 02:00:00:00:0a:01 02:00:00:00:0b:01
sn_trapd || bail "snmptrapd did not start"
sn_snmpd || bail "snmpd did not start"
sn_conf a controller "3, 4" yes $HOLD
sn_conf b controller "3, 5" no
sn_start a a || bail "dcbxd a"
check "dcbxd a connects to the AgentX master" \
	wait_for 10 grep -q 'connected to the AgentX master' "$NS_TMP/a.log"
IF=$(sn_ifindex a s0)

t0=$(ms_now)
sn_start b b || bail "dcbxd b"
check "a mismatch trap reaches snmptrapd after the peer's start" \
    wait_for 30 sh -c "grep -q 'OID: $MISMATCH\([^.0-9]\|\$\)' $SN_TRAPS"
nt=$(log_ms "$NS_TMP/a.log" "notification dcbxdFeatureMismatch\$")
diag "a logged the notification $((${nt:-0} - t0)) ms after b was started (a's log)"
# Exactly one: nothing else may come within a hold-down and more (a
# duplicate that comes later still counts: the check is the log's).
sleep $((HOLD + 1))
n=$(sn_count $MISMATCH)
check "exactly one mismatch trap ($n)" [ "$n" -eq 1 ]
line=$(grep "OID: $MISMATCH\([^.0-9]\|\$\)" "$SN_TRAPS" | head -1)
check "varbinds: port name s0" \
	sh -c "printf '%s' \"\$1\" | grep -q '$SN_OID_OURS.1.1.1.2.$IF = STRING: \"s0\"'" _ "$line"
check "varbinds: dcbxdFeatStatus.$IF.pfc = mismatch(4)" \
	sh -c "printf '%s' \"\$1\" | grep -q '$SN_OID_OURS.1.2.1.2.$IF.2 = INTEGER: 4'" _ "$line"
check "varbinds: local value pfc 3,4 and peer value pfc 3,5" \
	sh -c "printf '%s' \"\$1\" | grep -q '$SN_OID_OURS.1.2.1.4.$IF.2 = STRING: \"pfc 3,4 cap 8\"' &&
	    printf '%s' \"\$1\" | grep -q '$SN_OID_OURS.1.2.1.5.$IF.2 = STRING: \"pfc 3,5 cap 8\"'" _ "$line"

rtc=$(grep "OID: $SN_OID_LLDP.0.0.1\([^.0-9]\|\$\)" "$SN_TRAPS" | head -1)
check "lldpRemTablesChange for the new neighbour (inserts = 1)" \
	sh -c "printf '%s' \"\$1\" | grep -q '$SN_OID_LLDP.1.2.2.0 = Gauge32: 1'" _ "$rtc"

# Agree again: the clearing notification.
sn_conf b controller "3, 4" no
kill -HUP "$(sn_pid b)"
check "agreeing again sends dcbxdFeatureMismatchCleared" \
    wait_for 30 sh -c "grep -q 'OID: $CLEARED\([^.0-9]\|\$\)' $SN_TRAPS"
check "exactly one cleared trap" [ "$(sn_count $CLEARED)" -eq 1 ]

# 50 flaps, 100 ms apart: mismatch, agree, mismatch, ... ending agreed.
sleep $((HOLD + 1))
before=$(( $(sn_count $MISMATCH) + $(sn_count $CLEARED) ))
seen0=$(grep -c 'pfc mismatch' "$NS_TMP/a.log")
t0=$(ms_now)
i=1
while [ $i -le 50 ]; do
	if [ $((i % 2)) -eq 1 ]; then p="3, 5"; else p="3, 4"; fi
	sn_conf b controller "$p" no
	kill -HUP "$(sn_pid b)"
	sleep 0.1
	i=$((i + 1))
done
# The final state (agreed) is told once its hold-down allows: wait for it.
last_cleared() {
	grep -o "OID: \($MISMATCH\|$CLEARED\)\([^.0-9]\|\$\)" "$SN_TRAPS" | tail -1 |
	    grep -q "$CLEARED"
}
check "the last trap tells the final state (cleared)" wait_for 30 last_cleared
seen=$(( $(grep -c 'pfc mismatch' "$NS_TMP/a.log") - seen0 ))
sent=$(( $(sn_count $MISMATCH) + $(sn_count $CLEARED) - before ))
# The hold-down, on a's own clock: two notifications of this port's PFC
# state are never less than HOLD s apart (late under load, never early).
gaps=$(grep "s0: notification dcbxdFeatureMismatch" "$NS_TMP/a.log" |
    awk -v t0="$t0" '{ split($1, t, "."); ms = t[1] t[2]; if (ms >= t0) {
        if (p) printf "%d ", ms - p; p = ms } }')
diag "flaps: $seen mismatches seen by a, $sent traps; gaps between a's notifications (ms): $gaps"
check "the flapping reached dcbxd a ($seen mismatch entries >= 5)" [ "$seen" -ge 5 ]
check "no two notifications within the hold-down (${HOLD} s, a's log)" \
    sh -c "echo '$gaps' | awk -v h=$((HOLD * 1000 - 2)) '{ for (i = 1; i <= NF; i++) if (\$i < h) exit 1 }'"

# An orderly stop of the subagent that sent all this: nothing leaks (a
# sanitizer build reports at exit; the cleanup's kill never waited).
kill -TERM "$(sn_pid a)" "$(sn_pid b)"
wait "$(sn_pid a)" "$(sn_pid b)"
check_clean "SIGTERM: the subagent and its peer exit clean" \
    "$NS_TMP/a.log" "$NS_TMP/b.log"
finish
