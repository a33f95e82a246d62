#!/bin/sh
# SPDX-License-Identifier: ISC
# The engine's host interfaces and settings over reloads and link changes
# (issue 19 items 5, 9, 10): one dcbxd whose entries match the veth pair
# (both ends in one namespace) and, by name, its own TAPs ("dcb-*": a bare
# "*" no longer selects virtual devices), each with an engine block.
#   - it never manages the TAPs it created (before: dcb-dcb-dcb-... chains
#     whose frames put the real port into multiple peers), also after a
#     reload that reports every link again;
#   - a reload that changes the engine block's speed or the cable length
#     reaches the running engine (before: 1G stayed 1G after 100 SIGHUPs);
#   - a link MTU change reaches the engine and its TAP (before: 1500);
#   - after a port rename its TAP follows (dcb-<new name>).
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
[ -c /dev/net/tun ] || skip_all "no /dev/net/tun"
plan 12
ns_setup r
ns_add a || bail "namespace"
ip -n "$(ns_name a)" link add ra0 type veth peer name ra1 || bail "veth"
ip -n "$(ns_name a)" link set ra0 up && ip -n "$(ns_name a)" link set ra1 up
conf() {	# conf SPEED CABLE
	_e="role = \"willing\"; mode = \"ieee\"; pfc = { cable-length = \"$2\"; };
    engine = { mode = \"relay\"; speed = \"$1\"; queue-memory = \"1M\"; };"
	dx_conf "$NS_TMP/a.conf" 30 4 "" "{ match = \"r*\"; $_e }, { match = \"dcb-*\"; $_e }"
}
conf 1G 10m
dx_start a a "$NS_TMP/a.conf" || bail "dcbxd did not start: $(cat "$NS_TMP/a.log")"

ports() { ctl_get "$NS_TMP/a.sock" '[.[].ifname] | sort | join(" ")' show ports; }
eng() {		# eng DEV KEY: one field of the port's engine in show stats
	ctl_get "$NS_TMP/a.sock" ".[0].engine.$2" show stats dev "$1"
}
taps() { ip -n "$(ns_name a)" -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | grep '^dcb-' | sort | tr '\n' ' '; }
both_engines() { [ "$(eng ra0 tap)" = dcb-ra0 ] && [ "$(eng ra1 tap)" = dcb-ra1 ]; }
wait_for 20 both_engines || bail "no engines: $(tail -5 "$NS_TMP/a.log")"
dx_ctl a reload >/dev/null || bail "reload"
diag "ports: $(ports); TAPs: $(taps)"
check "only the veth ends are ports, never the daemon's own TAPs" [ "$(ports)" = "ra0 ra1" ]
check "one TAP per port, no dcb-dcb-*" [ "$(taps)" = "dcb-ra0 dcb-ra1 " ]
check "the engine runs at the configured 1G" [ "$(eng ra0 speed_bps)" = 1000000000 ]

conf 10G 10m
dx_ctl a reload >/dev/null || bail "reload"
check "a reload with speed 10G reaches the running engine" \
    [ "$(eng ra0 speed_bps)" = 10000000000 ]
n0=$(grep -c "reopening the backend" "$NS_TMP/a.log")
conf 10G 100m
dx_ctl a reload >/dev/null || bail "reload"
n1=$(grep -c "reopening the backend" "$NS_TMP/a.log")
check "a reload with a new cable length reopens both engines" [ $((n1 - n0)) -eq 2 ]
dx_ctl a reload >/dev/null || bail "reload"
n2=$(grep -c "reopening the backend" "$NS_TMP/a.log")
check "a reload that changes nothing reopens none" [ "$n2" -eq "$n1" ]

ip -n "$(ns_name a)" link set ra0 mtu 9000
mtu9000() { [ "$(eng ra0 mtu)" = 9000 ]; }
check "a link MTU of 9000 reaches the engine" wait_for 20 mtu9000
check "... and its TAP" sh -c "ip -n '$(ns_name a)' link show dcb-ra0 | grep -q 'mtu 9000'"

ip -n "$(ns_name a)" link set ra0 down
ip -n "$(ns_name a)" link set ra0 name rz0
ip -n "$(ns_name a)" link set rz0 up
renamed() { [ "$(eng rz0 tap)" = dcb-rz0 ]; }
check "after the rename ra0 -> rz0 the engine's TAP is dcb-rz0" wait_for 20 renamed
diag "ports: $(ports); TAPs: $(taps)"
check "dcb-ra0 is gone, no other TAP appeared" [ "$(taps)" = "dcb-ra1 dcb-rz0 " ]
check "the daemon is alive" kill -0 "$PID_a"
check_clean "no sanitizer report" "$NS_TMP/a.log"
finish
