#!/bin/sh
# SPDX-License-Identifier: ISC
# snmp_lldpd.sh -- dcbxd's subagent beside Debian's lldpd -x, the usual
# LLDP agent of a server, on one snmpd (issue 31).  lldpd registers
# LLDP-MIB object by object; so does dcbxd, and the master refuses what
# lldpd has already (duplicateRegistration).  dcbxd must say so (a log
# warning, show stats, doctor), serve what it can (its own MIB, the
# objects lldpd lacks) and stand in for the rest: once lldpd goes, the
# master answers LLDP-MIB from dcbxd.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/snmp_lib.sh"

sn_need
need_cmd lldpd
sn_setup
plan 9
# lldpd drops privileges (user _lldpd): it needs to reach its sockets.
chmod 711 "$NS_TMP"; mkdir -m 777 "$NS_TMP/l"
printf 'agentXPerms 777 777\n' >>"$NS_TMP/snmpd.conf"
ns_pair s0 s1
sn_snmpd || bail "snmpd did not start"
bg_start b "$NS_TMP/lldpd.log" lldpd -d -x -X "$SN_SOCK" \
    -u "$NS_TMP/l/lldpd.sock" -p "$NS_TMP/l/lldpd.pid" -I s1 -L /bin/true
LLDPD=$BG_PID
L=$SN_OID_LLDP.1
# lldpd's chassis ID is its own (a MAC of its namespace): not s0's.
lldpd_serves() { [ -n "$(sn_get $L.3.2.0)" ]; }
wait_for 30 lldpd_serves || bail "lldpd's LLDP-MIB is not served"
# lldpLocChassisId as hex digits, and dcbxd's own (its first port's MAC).
chassis() { sn_get $L.3.2.0 | tr -d ' "\n' | tr a-f A-F; }
mac=$(nsx a cat /sys/class/net/s0/address | tr -d : | tr a-f A-F)
sn_conf a controller "3, 4" yes
sn_start a a || bail "dcbxd a"
check "dcbxd says, at warning, that the master refused lldpMIB (lldpd serves it)" \
    wait_for 30 grep -q 'WRN/snmp.*refused lldpMIB' "$NS_TMP/a.log"
check "show stats: the subtree refused, and the stand-in registered" \
    ctl_jq "$NS_TMP/a.sock" '.[0].snmp.agentx == "connected" and
	(.[0].snmp.refused | contains("lldpMIB")) and
	.[0].snmp.standby == "registered one priority lower"' show stats
# (doctor exits 2: the read-only controller port's PFC is an error.)
"$DCBCTL" -s "$NS_TMP/a.sock" -j doctor >"$NS_TMP/doctor.json"
check "doctor: agentx-refused, a daemon-wide warning" \
    jq -e 'any(.[]; .ifname == "" and .check == "agentx-refused" and
	.severity == "warning")' "$NS_TMP/doctor.json"
ours_named() { sn_get "$SN_OID_OURS.1.1.1.2.$(sn_ifindex a s0)" | grep -q s0; }
check "what lldpd does not serve is dcbxd's: its own MIB (the port's name)" \
    wait_for 30 ours_named
# (lldpd's own chassis ID may change as it scans its interfaces: only
# "not dcbxd's" is checked.)
got=$(chassis)
diag "lldpLocChassisId $got, dcbxd's $mac"
check "... while the master answers LLDP-MIB from lldpd (not dcbxd's chassis ID)" \
    sh -c '[ -n "$1" ] && [ "$1" != "$2" ]' _ "$got" "$mac"
# lldpd goes: the master falls back to dcbxd's stand-in registrations.
kill "$LLDPD"
wait_for 20 sh -c "! kill -0 $LLDPD 2>/dev/null"
ours() { [ "$(chassis)" = "$mac" ]; }
check "lldpd gone: LLDP-MIB is dcbxd's now (its chassis ID, s0's MAC)" \
    wait_for 30 ours
check "... and the stand-in still shows in show stats" ctl_jq "$NS_TMP/a.sock" \
    '.[0].snmp.standby == "registered one priority lower"' show stats
check "dcbxd kept running" kill -0 "$(sn_pid a)"
check_clean "no sanitizer report" "$NS_TMP/a.log"
finish
