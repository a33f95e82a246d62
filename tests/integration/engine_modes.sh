#!/bin/sh
# SPDX-License-Identifier: ISC
# engine_modes.sh -- the host keeps its addresses and routes whatever the
# engine does (issue 30): a host h whose port hp0 has 10.8.0.1/24 and a
# route to 10.99.0.0/24 via its peer p (10.8.0.2, and 10.99.0.5 on lo).
#   - relay: the address and the route move to the TAP dcb-hp0, and the
#     host reaches p through the engine;
#   - a crash (SIGKILL) and an orderly stop leave the TAP with its
#     ifindex, MAC, address and route; the next start attaches to it;
#   - a link MTU change reaches the TAP in place (same ifindex, no reopen);
#   - reloads switch relay -> port -> relay: the address and the route
#     follow (the TAP deleted in port mode, made again for the relay);
#   - a reload that removes the engine gives the port back its address,
#     and takes the TAP and the qdisc tree away;
#   - a relay's port renamed: its TAP is renamed in place (same ifindex),
#     with its address and route.
# Reachability is a UDP exchange (sockapp.py); every wait is bounded.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
. "$top_srcdir/tests/engine/lib.sh"
dx_need
engine_need
sockapp_need
plan 28
ns_setup m
ns_add h && ns_add p || bail "namespaces"
veth_add h hp0 p pp0 02:00:00:00:0c:00 02:00:00:00:0d:00 || bail "veth"
nsx h ip link set hp0 up && nsx p ip link set pp0 up
nsx h ip addr add 10.8.0.1/24 dev hp0 && nsx p ip addr add 10.8.0.2/24 dev pp0 ||
	bail "addresses"
nsx p ip addr add 10.99.0.5/32 dev lo && nsx p ip link set lo up
nsx h ip route add 10.99.0.0/24 via 10.8.0.2 dev hp0 || bail "route"

conf() {	# conf MODE: the host's config, the engine in MODE ("" none)
	if [ -n "$1" ]; then _e="engine = { mode = \"$1\"; speed = \"1G\"; };"
	else _e='backend = "readonly";'; fi
	dx_conf "$NS_TMP/h.conf" 5 4 "" "{ match = \"h?0\"; role = \"willing\";
    mode = \"ieee\"; $_e }"
}
ifidx() { nsx h cat "/sys/class/net/$1/ifindex" 2>/dev/null; }
mac() { nsx h cat "/sys/class/net/$1/address" 2>/dev/null; }
has_addr() { nsx h ip -4 addr show dev "$1" 2>/dev/null | grep -q 10.8.0.1/24; }
has_route() { nsx h ip route show 10.99.0.0/24 | grep -q "via 10.8.0.2 dev $1"; }
mode() { ctl_get "$NS_TMP/h.sock" '.[0].engine_mode // "none"' show ports; }
# reach DST: the host's datagrams reach p at DST (bounded: 5 s idle).
N=0
reach() {
	N=$((N + 1))
	rm -f "$NS_TMP/r$N.json"
	bg_start p "$NS_TMP/r$N.log" $PY "$APP" recv "$NS_TMP/r$N.json" 4000 \
	    --idle 2 --limit 10
	wait_for 5 grep -q "recv ready" "$NS_TMP/r$N.log" || return 1
	nsx h $PY "$APP" udp "$1" 4000 20 200 1 20 >/dev/null 2>&1
	wait_for 15 test -s "$NS_TMP/r$N.json" || return 1
	test "$(jq '.ports["4000"].datagrams' "$NS_TMP/r$N.json")" -gt 0
}
at_tap() { has_addr dcb-hp0 && ! has_addr hp0 && has_route dcb-hp0; }
at_port() { has_addr hp0 && ! has_addr dcb-hp0 && has_route hp0; }

# Relay.
conf relay
dx_start h h "$NS_TMP/h.conf" || bail "dcbxd"
check "relay: the address and the route moved to dcb-hp0" wait_for 10 at_tap
check "the host reaches its peer through the relay" reach 10.8.0.2
check "... and the routed address" reach 10.99.0.5
hin() { ctl_get "$NS_TMP/h.sock" '[.[0].engine.priorities[].counters.host_in_frames] | add' show stats dev hp0; }
check "the engine carried those frames" test "$(hin)" -gt 0
IDX=$(ifidx dcb-hp0); MAC=$(mac dcb-hp0)
diag "dcb-hp0: ifindex $IDX, $MAC"

# A crash: the TAP stays as it was.
kill -KILL "$PID_h"
wait_for 10 sh -c "! kill -0 $PID_h 2>/dev/null"
check "after a crash the TAP is still there, same ifindex" test "$(ifidx dcb-hp0)" = "$IDX"
same_tap() { test "$(ifidx dcb-hp0)" = "$IDX" -a "$(mac dcb-hp0)" = "$MAC" && at_tap; }
check "... same MAC, address and route" same_tap
dx_start h h "$NS_TMP/h.conf" || bail "dcbxd again"
relay_up() { test "$(mode)" = relay && same_tap; }
check "restarted: the relay attached to the same TAP (ifindex, MAC, address, route)" \
    wait_for 10 relay_up
check "... and the host reaches its peer" reach 10.8.0.2
check "the daemon said it kept the host interface" \
    grep -q "dcb-hp0: host interface kept (ifindex $IDX)" "$NS_TMP/h.log"

# An orderly stop and start.
kill -TERM "$PID_h"
wait_for 10 sh -c "! kill -0 $PID_h 2>/dev/null"
check "after an orderly stop the TAP keeps its ifindex, MAC, address, route" \
    same_tap
dx_start h h "$NS_TMP/h.conf" || bail "dcbxd a third time"
again() { relay_up && reach 10.8.0.2; }
check "started again: same TAP, and the host reaches its peer" wait_for 20 again

# The link's MTU, in place.
r0=$(grep -c "reopening the backend" "$NS_TMP/h.log")
nsx h ip link set hp0 mtu 1400
mtu1400() { nsx h ip link show dcb-hp0 | grep -q 'mtu 1400' &&
    test "$(ctl_get "$NS_TMP/h.sock" '.[0].engine.mtu' show stats dev hp0)" = 1400; }
check "a link MTU of 1400 reaches the engine and its TAP" wait_for 10 mtu1400
check "... in place: same ifindex, no reopen" \
    test "$(ifidx dcb-hp0)" = "$IDX" -a "$(grep -c "reopening the backend" "$NS_TMP/h.log")" -eq "$r0"
check "... the address and the route still there" at_tap

# Reload to port mode, and back.
conf port
dx_ctl h reload >/dev/null || bail "reload"
is_port() { test "$(mode)" = port; }
check "reload to port mode: show ports says port" wait_for 10 is_port
check "the address and the route are back on hp0" wait_for 10 at_port
check "the TAP is gone" sh -c "! ip netns exec $(ns_name h) ip link show dcb-hp0 >/dev/null 2>&1"
check "the host reaches its peer on hp0 itself" reach 10.8.0.2
check "... and the routed address" reach 10.99.0.5
conf relay
dx_ctl h reload >/dev/null || bail "reload"
relay_again() { test "$(mode)" = relay && at_tap; }
check "reload to the relay: address and route on the (new) TAP" wait_for 10 relay_again
check "the port's qdisc tree is gone" \
    sh -c "! ip netns exec $(ns_name h) tc qdisc show dev hp0 | grep -q htb"
check "the host reaches its peer through the relay again" reach 10.8.0.2

# No engine any more.
conf ""
dx_ctl h reload >/dev/null || bail "reload"
ro() { test "$(mode)" = none && at_port &&
    ! nsx h ip link show dcb-hp0 >/dev/null 2>&1; }
check "reload without an engine: the TAP gone, its address and route on hp0" \
    wait_for 10 ro
check "the host reaches its peer on hp0" reach 10.8.0.2

# A relay's port renamed: the TAP follows in place.
conf relay
dx_ctl h reload >/dev/null || bail "reload"
wait_for 10 relay_again || bail "relay again"
IDX=$(ifidx dcb-hp0)
nsx h ip link set hp0 down && nsx h ip link set hp0 name hq0 &&
    nsx h ip link set hq0 up || bail "rename"
renamed() {
	test "$(ctl_get "$NS_TMP/h.sock" '.[0].host_interface' show ports)" = dcb-hq0 &&
	    test "$(ifidx dcb-hq0)" = "$IDX" && has_addr dcb-hq0 && has_route dcb-hq0
}
check "port renamed hp0 -> hq0: the TAP is dcb-hq0, same ifindex, address and route" \
    wait_for 20 renamed
check "the host reaches its peer through the renamed relay" reach 10.8.0.2
check "the daemon is alive" kill -0 "$PID_h"
check_clean "no sanitizer report" "$NS_TMP/h.log"
finish
