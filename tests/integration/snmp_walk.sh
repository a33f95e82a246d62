#!/bin/sh
# SPDX-License-Identifier: ISC
# snmp_walk.sh -- a controller (PFC 3,4, ETS 50/30/20, APP UDP 4791 -> 3)
# and a willing server joined by a veth; the server's dcbxd is an AgentX
# subagent of a real snmpd.  Walks of LLDP-MIB, the LLDP-EXT-DOT1 DCBX
# tables, IEEE8021-PFC-MIB and DCBXD-MIB show the neighbour and the
# negotiated values, checked one by one.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/snmp_lib.sh"

sn_need
sn_setup
plan 30
ns_add ctl && ns_add srv || bail "namespaces"
veth_add ctl s0 srv s1 02:00:00:00:c0:01 02:00:00:00:5e:01 || bail "veth"
nsx ctl ip link set s0 up; nsx srv ip link set s1 up
sn_snmpd || bail "snmpd did not start"
sn_conf ctl controller "3, 4" no
sn_conf srv willing "" yes
sn_start ctl ctl || bail "controller dcbxd"
sn_start srv srv || bail "server dcbxd"
IF=$(sn_ifindex srv s1)
L=$SN_OID_LLDP.1; D=$SN_OID_DCBX.1; O=$SN_OID_OURS.1

# Converged when DCBXD-MIB says PFC is adopted from the peer: peer(3).
check "the server adopts PFC (dcbxdFeatStatus.pfc = peer)" \
	wait_for 30 sh -c "[ \"\$(snmpget -v2c -c public -On -Oqv -t 1 -r 0 \
	    127.0.0.1:$SN_PORT $O.2.1.2.$IF.2 2>/dev/null)\" = 3 ]"

# LLDP-MIB: local system, port config, statistics, remote table.
sn_expect "lldpLocChassisIdSubtype = macAddress(4)" $L.3.1.0 4
cid=$(sn_get $L.3.2.0 | tr -d '"')
check "lldpLocChassisId is a MAC ($cid)" \
	sh -c "printf '%s' \"\$1\" | grep -Eq '^([0-9A-F]{2} ){5}[0-9A-F]{2} ?\$'" _ "$cid"
sn_expect "lldpLocSysName = srv" $L.3.3.0 srv
# A willing server is Station Only, alone (802.1AB 8.5.8.1): BITS
# stationOnly(7) = 0x01, enabled the same.
caps=$(snmpget -v2c -c public -On -Oqv -Ox -t 1 -r 1 "127.0.0.1:$SN_PORT" \
    $L.3.5.0 $L.3.6.0 2>/dev/null | tr -d ' "\n')
check "lldpLocSysCapSupported/Enabled = stationOnly only ($caps)" \
    [ "$caps" = "0101" ]
rcaps=$(snmpwalk -v2c -c public -On -Ox -t 2 -r 1 "127.0.0.1:$SN_PORT" \
    $L.4.1.1.11 2>/dev/null)
check "lldpRemSysCapSupported of the controller = bridge(2) only" \
    sh -c "printf '%s\n' \"\$1\" | grep -q '= Hex-STRING: 20 *\$'" _ "$rcaps"
sn_expect "lldpPortConfigAdminStatus = txAndRx(3)" $L.1.6.1.2.$IF 3
rx=$(sn_get $L.2.7.1.4.$IF)
check "lldpStatsRxPortFramesTotal counts frames ($rx)" [ "${rx:-0}" -ge 1 ]
ins=$(sn_get $L.2.2.0)
check "lldpStatsRemTablesInserts >= 1 ($ins)" [ "${ins:-0}" -ge 1 ]
rem=$(sn_walk $L.4.1.1)
check "lldpRemSysName of the neighbour is ctl" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^$L.4.1.1.9\.[0-9]*\.$IF\.[0-9]* = STRING: \"ctl\"'" _ "$rem"
check "lldpRemChassisId is the controller's chassis MAC (6 octets)" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^$L.4.1.1.5\..* = Hex-STRING: \([0-9A-F][0-9A-F] \)\{5\}[0-9A-F][0-9A-F]'" _ "$rem"
check "lldpRemPortIdSubtype = interfaceName(5), lldpRemPortId = s0" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^$L.4.1.1.6\..* = INTEGER: 5' &&
	    printf '%s\n' \"\$1\" | grep -q '^$L.4.1.1.7\..* = STRING: \"s0\"'" _ "$rem"
# Management addresses: neither end has an IP address, so each sends its
# port's MAC (family 6): lldpLocManAddrTable and lldpRemManAddrTable,
# indexed by subtype, length and the address octets.
CIF=$(sn_ifindex ctl s0)
sn_expect "lldpLocManAddrIfSubtype (s1's MAC) = ifIndex(2)" \
	$L.3.8.1.4.6.6.2.0.0.0.94.1 2
sn_expect "lldpLocManAddrIfId (s1's MAC) = s1's ifIndex" \
	$L.3.8.1.5.6.6.2.0.0.0.94.1 "$IF"
rm_=$(sn_walk $L.4.2.1.4)
check "lldpRemManAddrIfId of the controller's MAC = its s0 ifIndex ($CIF)" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^$L.4.2.1.4\.[0-9]*\.$IF\.[0-9]*\.6\.6\.2\.0\.0\.0\.192\.1 = INTEGER: $CIF\$'" _ "$rm_"

# DCBX local (operational) data of the server: the controller's policy.
sn_expect "LocETSConTrafficClassBandwidth TC0 = 50" $D.2.1.3.1.2.$IF.0 50
sn_expect "LocETSConTrafficClassBandwidth TC1 = 30" $D.2.1.3.1.2.$IF.1 30
sn_expect "LocETSConTrafficClassBandwidth TC2 = 20" $D.2.1.3.1.2.$IF.2 20
sn_expect "LocETSConPriTrafficClass prio 4 = TC 2" $D.2.1.2.1.2.$IF.4 2
sn_expect "LocETSConTrafficSelectionAlgorithm TC0 = ets(2)" $D.2.1.4.1.2.$IF.0 2
sn_expect "LocPFCEnableEnabled prio 3 = true(1)" $D.2.3.2.1.2.$IF.3 1
sn_expect "LocPFCEnableEnabled prio 5 = false(2)" $D.2.3.2.1.2.$IF.5 2
sn_expect "LocApplicationPriorityAEPriority UDP 4791 = 3" $D.2.4.1.3.$IF.3.4791 3
# Admin data: the server asks for no PFC itself.
sn_expect "AdminPFCEnableEnabled prio 3 = false(2)" $D.4.3.2.1.2.$IF.3 2
# Remote data, indexed by time mark, ifIndex, dest address 1, rem index.
dr=$(sn_walk $D.3)
check "RemPFCEnableEnabled prio 4 = true" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^$D.3.3.2.1.2\.[0-9]*\.$IF\.1\.[0-9]*\.4 = INTEGER: 1'" _ "$dr"
check "RemETSConWilling = false(2)" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^$D.3.1.1.1.3\.[0-9]*\.$IF\.1\.[0-9]* = INTEGER: 2'" _ "$dr"
check "RemApplicationPriorityAEPriority UDP 4791 = 3" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^$D.3.4.1.3\.[0-9]*\.$IF\.1\.[0-9]*\.3\.4791 = Gauge32: 3'" _ "$dr"
# IEEE8021-PFC-MIB and DCBXD-MIB.
pf=$(sn_walk $SN_OID_PFC)
check "ieee8021PfcLinkDelayAllowance has a row for the port" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^$SN_OID_PFC.1.1.1.1.$IF = Gauge32: '" _ "$pf"
pv=$(sn_get $O.2.1.5.$IF.2)
check "dcbxdFeatPeerValue.pfc names priorities 3,4 ($pv)" \
	sh -c "printf '%s' \"\$1\" | grep -q '^\"pfc 3,4 cap '" _ "$pv"
# An orderly stop after every table was walked: nothing leaks (a
# sanitizer build reports at exit; the cleanup's kill never waited).
kill -TERM "$(sn_pid ctl)" "$(sn_pid srv)"
wait "$(sn_pid ctl)" "$(sn_pid srv)"
check_clean "SIGTERM after the walks: both exit clean" "$NS_TMP/ctl.log" \
    "$NS_TMP/srv.log"
finish
