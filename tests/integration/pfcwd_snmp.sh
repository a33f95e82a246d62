#!/bin/sh
# SPDX-License-Identifier: ISC
# pfcwd_snmp.sh -- the PFC watchdog's SNMP notifications, through Debian's
# snmpd (AgentX master) to snmptrapd: a storm on an engine port's priority
# 3 sends dcbxdPfcStormDetected with the port name and the priority, its
# end dcbxdPfcStormRestored; each exactly once.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/snmp_lib.sh"
. "$top_srcdir/tests/engine/lib.sh"
DETECTED=$SN_OID_OURS.0.11
RESTORED=$SN_OID_OURS.0.12
PRIO=$SN_OID_OURS.1.3.1		# dcbxdNotifPriority

sn_need
engine_need
sn_setup
plan 6
ns_pair s0 s1 02:00:00:00:0a:05 02:00:00:00:0b:05
sn_trapd || bail "snmptrapd did not start"
sn_snmpd || bail "snmpd did not start"
cat >"$NS_TMP/a.conf" <<EOC
dcbxd: { tx-interval = 5; pfc-watchdog-poll = 100; };
snmp: { enabled = true; agentx-socket = "$SN_SOCK"; holddown = 1; };
ports = ( { match = "s0"; role = "controller"; mode = "ieee";
  pfc = { prio-pfc = [ 3 ]; };
  engine = { mode = "relay"; speed = "100M"; stall-timeout = 60000; };
  pfc-watchdog = { action = "drop"; detection-time = 200; restoration-time = 400; }; } );
EOC
sn_start a a || bail "dcbxd a"
wait_for 10 grep -q 'connected to the AgentX master' "$NS_TMP/a.log" ||
	bail "no AgentX connection"
wait_for 10 nsx a ip link set dcb-s0 up || bail "no engine TAP"
IF=$(sn_ifindex a s0)
bg_start a "$NS_TMP/gen.out" "$ETOOL" gen dcb-s0 --stream 3:vlan:20M:0 --duration 3000
sleep 0.3
nsx b "$ETOOL" pfc s1 --prio 3 --quanta 65535 --every 10 --duration 1500 >/dev/null
check "dcbxdPfcStormDetected sent" wait_for 5 sh -c "grep -q 'OID: $DETECTED\([^.0-9]\|\$\)' $SN_TRAPS"
line=$(grep "OID: $DETECTED\([^.0-9]\|\$\)" "$SN_TRAPS" | head -1)
check "varbinds: port name s0" \
	sh -c "printf '%s' \"\$1\" | grep -q '$SN_OID_OURS.1.1.1.2.$IF = STRING: \"s0\"'" _ "$line"
check "varbinds: priority 3" \
	sh -c "printf '%s' \"\$1\" | grep -q '${PRIO}[.0-9]* = \(INTEGER\|Gauge32\|Unsigned32\): 3'" _ "$line"
check "dcbxdPfcStormRestored after the storm" wait_for 5 sh -c "grep -q 'OID: $RESTORED\([^.0-9]\|\$\)' $SN_TRAPS"
sleep 2		# past the hold-down: anything more would have been sent
check "each exactly once ($(sn_count $DETECTED), $(sn_count $RESTORED))" \
	sh -c "[ $(sn_count $DETECTED) -eq 1 ] && [ $(sn_count $RESTORED) -eq 1 ]"
check_clean "no sanitizer report" "$NS_TMP/a.log"
finish
