# SPDX-License-Identifier: ISC
# snmp_lib.sh -- helpers for the SNMP integration tests (sourced after
# tap.sh and netns.sh): Debian's snmpd as AgentX master and snmptrapd on
# loopback ports of the root namespace, dcbxd in network namespaces (the
# AgentX socket is a path, so it crosses namespaces).  Everything runs
# under ns_setup's cleanup.  Namespace prefix "s".
DCBXD=${DCBXD:-$top_builddir/daemon/dcbxd}
SN_OID_LLDP=.1.0.8802.1.1.2
SN_OID_DCBX=.1.3.111.2.802.1.1.13.1.5.32962.5
SN_OID_PFC=.1.3.111.2.802.1.1.21
SN_OID_OURS=.1.3.6.1.4.1.$(sed -n "s/^#define DCBXD_PEN //p" "$top_builddir/config.h").1
MIBS=""; export MIBS		# numeric OIDs only, no MIB files needed
. "$top_srcdir/tests/lib/ctl.sh"

sn_need() {
	need_root
	need_cmd ip snmpd snmptrapd snmpget snmpwalk timeout
	[ -x "$DCBXD" ] || skip_all "dcbxd not built ($DCBXD)"
	# Built --without-snmp there is no subagent to test; built with it,
	# the subagent must work (no guess from strings in the binary).
	grep -q '^#define HAVE_SNMP 1' "$top_builddir/config.h" ||
	    skip_all "dcbxd built --without-snmp (config.h has no HAVE_SNMP)"
	ip netns add "sprobe$$" 2>/dev/null ||
	    skip_all "cannot create network namespaces here"
	ip netns del "sprobe$$"
}

sn_setup() {
	ns_setup s
	SN_PORT=$((20000 + $$ % 20000))
	SN_TPORT=$((SN_PORT + 1))
	SN_SOCK=$NS_TMP/agentx.sock
	SN_TRAPS=$NS_TMP/traps.log
	: >"$SN_TRAPS"
	cat >"$NS_TMP/snmpd.conf" <<EOC
master agentx
agentXSocket $SN_SOCK
agentXTimeout 5
rocommunity public 127.0.0.1
trap2sink 127.0.0.1:$SN_TPORT public
EOC
	cat >"$NS_TMP/snmptrapd.conf" <<EOC
disableAuthorization yes
EOC
}

# sn_snmpd: start (or restart) the master agent; waits for its socket.
sn_snmpd() {
	rm -f "$SN_SOCK"
	snmpd -f -Lo -C -c "$NS_TMP/snmpd.conf" -p "$NS_TMP/snmpd.pid" \
	    "udp:127.0.0.1:$SN_PORT" >>"$NS_TMP/snmpd.log" 2>&1 &
	SN_SNMPD=$!
	BG_PIDS="$BG_PIDS $SN_SNMPD"
	wait_for 10 test -S "$SN_SOCK"
}

sn_snmpd_stop() {
	kill "$SN_SNMPD" 2>/dev/null
	wait_for 20 sh -c "! kill -0 $SN_SNMPD 2>/dev/null"
}

sn_trapd() {
	snmptrapd -f -Lf "$SN_TRAPS" -C -c "$NS_TMP/snmptrapd.conf" -On \
	    "udp:127.0.0.1:$SN_TPORT" >"$NS_TMP/snmptrapd.out" 2>&1 &
	BG_PIDS="$BG_PIDS $!"
	wait_for 20 grep -q 'NET-SNMP version' "$SN_TRAPS"
}

sn_get() {
	snmpget -v2c -c public -On -Oqv -t 5 -r 1 "127.0.0.1:$SN_PORT" "$@" 2>/dev/null
}
sn_walk() {
	snmpwalk -v2c -c public -On -t 5 -r 1 "127.0.0.1:$SN_PORT" "$@" 2>/dev/null
}

# sn_conf NAME ROLE PFC-PRIOS SNMP(yes|no) [HOLDDOWN]: $NS_TMP/NAME.conf
# for ports s*: controller policy ETS 50/30/20 over TCs 0-2 (prio 3 ->
# TC 1, 4 -> TC 2), APP UDP 4791 -> 3; a willing port asks for nothing.
sn_conf() {
	_en=false; [ "$4" = yes ] && _en=true
	if [ "$2" = controller ]; then
		_pol='ets = { willing = false; prio-tc = [ 0, 0, 0, 1, 2, 0, 0, 0 ];
	    tc-bw = [ 50, 30, 20, 0, 0, 0, 0, 0 ];
	    tc-tsa = [ "ets", "ets", "ets", "strict", "strict", "strict", "strict", "strict" ]; };
	  pfc = { willing = false; prio-pfc = [ '"$3"' ]; };
	  app = ( { selector = "dgram-port"; protocol = 4791; priority = 3; } );'
	else
		_pol=''
	fi
	cat >"$NS_TMP/$1.conf.new" <<EOC
dcbxd: { tx-interval = 5; tx-credit-max = 100; system-name = "$1";
  system-description = "dcbxd test $1"; };
snmp: { enabled = $_en; agentx-socket = "$SN_SOCK";
  notification-interval = 5; holddown = ${5:-2}; };
ports = ( { match = "s*"; role = "$2"; mode = "ieee"; backend = "readonly";
  $_pol } );
EOC
	mv "$NS_TMP/$1.conf.new" "$NS_TMP/$1.conf"
}

# sn_start NS NAME: dcbxd -d in NS with NAME's config.
sn_start() {
	bg_start "$1" "$NS_TMP/$2.log" "$DCBXD" -d ${SN_DEBUG:+-D snmp} -c "$NS_TMP/$2.conf" \
	    -s "$NS_TMP/$2.sock"
	eval "SN_PID_$2=$BG_PID"
	wait_for 20 test -S "$NS_TMP/$2.sock"
}
sn_pid() { eval "echo \$SN_PID_$1"; }

# sn_ifindex NS IF
sn_ifindex() { nsx "$1" cat "/sys/class/net/$2/ifindex"; }

# sn_count OID: traps received whose snmpTrapOID is OID.
sn_count() { grep -c "OID: $1\([^.0-9]\|\$\)" "$SN_TRAPS"; }

# sn_expect NAME OID VALUE: one TAP check of an snmpget value.
sn_expect() {
	_v=$(sn_get "$2" | tr -d '"')
	if [ "$_v" = "$3" ]; then ok "$1"; else not_ok "$1"; diag "$2 = '$_v', want '$3'"; fi
}
