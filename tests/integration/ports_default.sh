#!/bin/sh
# SPDX-License-Identifier: ISC
# Which interfaces dcbxd manages by default (issue 15, "Defaults"): with no
# ports list, physical Ethernet ports only -- none of the veth, dummy, ifb,
# bridge, tap and vlan devices here; an entry that names a virtual device
# (its exact name, or a pattern with a literal prefix) makes it managed,
# a bare "*" names none.  A namespace has no NIC: the physical side is
# link_is_physical() (no link kind, ARPHRD_ETHER), which the log shows
# deciding for every kind here ("(veth): not managed: virtual ...").
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
plan 8
ns_setup pd
ns_pair pa0 pb0
nsx a ip link add pbr0 type bridge || bail "bridge"
nsx a ip tuntap add mode tap name pt0 || bail "tap"
nsx a ip link set pbr0 up; nsx a ip link set pt0 up
# The kinds this kernel has (a container may lack dummy, vlan, ifb).
kinds="veth bridge tun"
try() {	# try KIND NAME ARGS...: one more device of KIND, up, if possible
	_k=$1; shift
	nsx a ip link add "$@" 2>/dev/null || return 0
	nsx a ip link set "$2" up; kinds="$kinds $_k"
}
try dummy name pd0 type dummy
try ifb name pi0 type ifb
try vlan link pa0 name pa0.7 type vlan id 7
diag "virtual kinds here: $kinds"

T=$NS_TMP
printf 'dcbxd: { tx-interval = 5; };\n' >"$T/a.conf"
dx_conf "$T/b.conf" 5 2 '' '{ match = "pb0"; }'
dx_start a a "$T/a.conf" -D link || bail "dcbxd a"
dx_start b b "$T/b.conf" || bail "dcbxd b"
# is_ports "NAMES": a's ports, sorted, are exactly NAMES ("" for none; a
# failed request is never "").
is_ports() { dx_jq a "([.[].ifname] | sort | join(\" \")) == \"$1\"" show ports; }

# The control socket opens after the first link dump: ports are settled.
check "no ports list: nothing managed in a namespace of virtual devices" \
    is_ports ""
all_logged() {
	for _k in $kinds; do
		grep -q "($_k): not managed: virtual, and no ports list" "$T/a.log" || return 1
	done
}
check "every virtual kind logged as not managed ($kinds)" all_logged

# reload CONF-LINE EXPECTED: rewrite a's config, SIGHUP, wait for the set.
reload() {
	printf '%s\n' "$1" >"$T/a.conf"
	kill -HUP "$PID_a"
	wait_for 20 is_ports "$2"
}
check "match = \"pa0\" names the veth: managed, alone" \
    reload 'ports = ( { match = "pa0"; } );' pa0
check "... and b hears a's LLDPDUs on it" wait_for 30 dx_nbrs b 1
check "match = \"*\" names no virtual device: none managed" \
    reload 'ports = ( { match = "*"; } );' ""
check "a pattern with a literal prefix names them: pb* takes the bridge" \
    reload 'ports = ( { match = "pb*"; } );' pbr0
check "p[at]* takes the veth and the tap (and the vlan)" \
    reload 'ports = ( { match = "p[at]*"; } );' \
    "$(case $kinds in *vlan*) echo pa0 pa0.7 pt0;; *) echo pa0 pt0;; esac)"
check_clean "no sanitizer report" "$T/a.log"
finish
