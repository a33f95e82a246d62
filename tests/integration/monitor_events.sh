#!/bin/sh
# monitor_events.sh -- what `dcbctl -j monitor` streams, end to end, with
# two real dcbxd: a willing server "s" in mode auto whose port runs the
# software pause engine with too little queue memory for PFC's headroom
# at 100G, and a CEE controller "c" pushing PFC on 3 and 4.  Each event is
# checked for its content and its order against the others and against
# the daemon's counters: reload, neighbor-added, mode-changed (to CEE),
# oper-changed, engine (headroom_short), neighbor-aged-out after the
# controller's SIGKILL, mode-changed (back to IEEE), port-removed.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
[ -c /dev/net/tun ] || skip_all "no /dev/net/tun (the engine's TAP)"
plan 13
ns_setup m
ns_add c && ns_add s || bail "namespaces"
veth_add c m0c s m0s 02:00:00:00:0c:01 02:00:00:00:05:01 || bail "veth"
dx_conf "$NS_TMP/c.conf" 5 2 "" '{ match = "m*"; role = "controller"; mode = "cee";
    backend = "readonly"; pfc = { prio-pfc = [ 3, 4 ]; }; }'
dx_conf "$NS_TMP/s.conf" 5 2 "" '{ match = "m*"; role = "willing"; mode = "auto";
    engine = { speed = "100G"; queue-memory = "64K"; }; }'
M=$NS_TMP/mon.out
# ev N FILTER: line number of the first event (from line N on) that
# matches FILTER; fails if none.
ev() {
	_l=$(awk -v n="$1" 'NR >= n { print NR "\t" $0 }' "$M" | while IFS="$(printf '\t')" read -r _n _j; do
		if printf '%s\n' "$_j" | jq -e "$2" >/dev/null 2>&1; then echo "$_n"; break; fi
	done)
	[ -n "$_l" ] && echo "$_l"
}
has() { ev "${3:-1}" "$1" >/dev/null; }

dx_start s s "$NS_TMP/s.conf" || bail "server"
bg_start s "$M" "$DCBCTL" -s "$NS_TMP/s.sock" -j monitor
# The subscription is in place once a reload made after it is seen (the
# monitor may not have subscribed yet: reload until one is).
reloaded() { dx_ctl s reload >/dev/null && has '.event == "reload"'; }
check "reload: a 'reload' event" wait_for 20 reloaded
check "... logged by the daemon before the event was read (configuration reloaded)" \
    grep -q "configuration reloaded" "$NS_TMP/s.log"

nsx c ip link set m0c up; nsx s ip link set m0s up
dx_start c c "$NS_TMP/c.conf" || bail "controller"
check "the server adopts the CEE controller's PFC" \
    wait_for 30 dx_jq s '.pfc.status == "peer" and .active == "cee"' show dcbx dev m0s
check "neighbor-added: the controller's chassis and port" \
    wait_for 20 has '.event == "neighbor-added" and .ifname == "m0s" and .chassis_id == "02:00:00:00:0c:01" and .port_id == "m0c"'
na=$(ev 1 '.event == "neighbor-added"')
check "mode-changed to CEE, after the neighbour came" \
    has '.event == "mode-changed" and .ifname == "m0s" and .active == "cee"' "${na:-999999}"
mc=$(ev "${na:-1}" '.event == "mode-changed"')
check "oper-changed with PFC on 3 and 4, after the mode change" \
    wait_for 20 has '.event == "oper-changed" and .pfc.oper.prio_pfc == [false, false, false, true, true, false, false, false]' "${mc:-999999}"
oc=$(ev "${mc:-1}" '.event == "oper-changed" and .pfc.oper.prio_pfc[3]')
check "engine: headroom_short once PFC is on (64K cannot hold 100G headroom)" \
    wait_for 20 has '.event == "engine" and .ifname == "m0s" and .kind == "headroom_short"' "${oc:-999999}"

# The controller dies without a shutdown LLDPDU: the neighbour ages out
# (TTL 11 s).  Before that the kernel must report the link up (a daemon
# that learned it from an LLDPDU first gets the kernel's word later).
wait_for 20 nsx s grep -qx up /sys/class/net/m0s/operstate
n0=$(wc -l <"$M")
kill -9 "$PID_c"
check "neighbor-aged-out after the controller's SIGKILL" \
    wait_for 40 has '.event == "neighbor-aged-out" and .ifname == "m0s" and .chassis_id == "02:00:00:00:0c:01"' $((n0 + 1))
check "... and it was an ageout by the counters (statsAgeoutsTotal 1)" \
    [ "$(dx_stat s m0s statsAgeoutsTotal)" = 1 ]
ag=$(ev $((n0 + 1)) '.event == "neighbor-aged-out"')
check "mode-changed back to IEEE after the ageout" \
    wait_for 20 has '.event == "mode-changed" and .active == "ieee"' "${ag:-999999}"

nsx s ip link del m0s
check "port-removed when the interface goes" \
    wait_for 20 has '.event == "port-removed" and .ifname == "m0s"'
check "every line of the stream is one JSON event" \
    sh -c "jq -e -s 'length > 0 and all(.[]; type == \"object\" and (.event | type) == \"string\")' '$M' >/dev/null"
kill -TERM "$PID_s"; wait_for 20 sh -c "! kill -0 $PID_s 2>/dev/null"
check_clean "no sanitizer report" "$NS_TMP/s.log" "$NS_TMP/c.log"
finish
