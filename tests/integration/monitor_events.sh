#!/bin/sh
# SPDX-License-Identifier: ISC
# monitor_events.sh -- the monitor events no other test watched, from a
# real daemon through `dcbctl -j monitor`: reload, neighbor-added, then
# mode-changed (auto mode, which starts on IEEE, follows a CEE-only peer
# to CEE), engine (the pause
# engine's queue memory cannot hold the headroom once the peer's PFC is
# adopted), neighbor-aged-out (the peer killed without a shutdown
# LLDPDU: its TTL runs out), admin-changed from set --persist (applied,
# then written, or put back when the file cannot be written) and
# port-removed (the veth deleted).  Each
# is checked for its keys and for the order the causes imply, never for
# how long it took.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
[ -c /dev/net/tun ] || skip_all "no /dev/net/tun (the engine's TAP)"
plan 26

ns_setup m
ns_add c && ns_add s || bail "cannot create namespaces"
veth_add c mc0 s ms0 || bail "cannot create the veth"
MON=$NS_TMP/mon.json

dx_conf "$NS_TMP/c.conf" 5 2 "" '{ match = "mc0"; role = "controller";
    mode = "cee"; backend = "readonly"; pfc = { prio-pfc = [3]; }; }'
# 4 KiB of queue memory cannot hold the headroom of a lossless priority
# (the relay's queues: port mode has none of its own).
dx_conf "$NS_TMP/s.conf" 5 2 "" '{ match = "ms0"; role = "willing";
    mode = "auto"; engine = { mode = "relay"; speed = "100M"; queue-memory = "4K"; }; }'
dx_start c c "$NS_TMP/c.conf" || bail "controller did not start"
dx_start s s "$NS_TMP/s.conf" || bail "server did not start"

"$DCBCTL" -s "$NS_TMP/s.sock" -j monitor >"$MON" 2>"$NS_TMP/mon.err" &
BG_PIDS="$BG_PIDS $!"		# stopped by ns_cleanup

# ev NAME: the events named NAME, one JSON object a line.
ev() { jq -c --arg n "$1" 'select(.event == $n)' "$MON"; }
has() { [ -n "$(ev "$1")" ]; }
# any_ev 'COND': some event satisfies the jq condition COND.
any_ev() { jq -se "any(.[]; $1)" "$MON" >/dev/null; }
# seq_ok NAME...: the first of each named event comes in this order.
seq_ok() {
	jq -rs '[.[].event] | to_entries | map(select(.value as $v |
	    $ARGS.positional | index($v))) | group_by(.value) |
	    map(min_by(.key)) | sort_by(.key) | map(.value) | join(" ")' \
	    --args "$@" <"$MON" | grep -qx "$*"
}

# 1. reload: SIGHUP until the monitor hears one (it may not have
# subscribed yet when the first comes); "ifname" is "".
reloaded() { kill -HUP "$PID_s"; sleep 0.2; has reload; }
check "reload: a SIGHUP is a reload event" wait_for 30 reloaded
check "... with an empty ifname and nothing more" \
    any_ev '. == {"event": "reload", "ifname": ""}'

# 2. link up: a peer that speaks only CEE moves auto mode to cee.
nsx c ip link set mc0 up
nsx s ip link set ms0 up
check "neighbor-added for the controller" wait_for 30 has neighbor-added
check "mode-changed: auto mode now runs cee" \
    wait_for 30 any_ev '.event == "mode-changed" and .ifname == "ms0" and
	.mode == "auto" and .active == "cee"'
check "... after the neighbour that caused it" \
    seq_ok reload neighbor-added mode-changed

# 3. PFC 3 adopted: the engine's 4 KiB cannot hold its headroom.
check "engine: headroom_short, from the pause engine of ms0" \
    wait_for 30 any_ev '.event == "engine" and .ifname == "ms0" and
	.kind == "headroom_short" and .priority == -1'
check "... once the peer's PFC was the operational config" \
    seq_ok neighbor-added oper-changed engine
check "... logged as the whole port's, not as \"priority -1\"" \
    sh -c "grep -q 'ms0: headroom_short (port-wide)' '$NS_TMP/s.log' &&
        ! grep -q '(priority -1)' '$NS_TMP/s.log'"

# 4. The controller dies without a shutdown LLDPDU: TTL 11 s runs out.
# First the kernel must report the link up: a daemon that learned it from
# an LLDPDU hears the kernel's word later, and would flush the neighbour
# then (a flush, not the ageout this is about).
wait_for 20 nsx s grep -qx up /sys/class/net/ms0/operstate
kill -9 "$PID_c"
check "neighbor-aged-out once the TTL ran out" \
    wait_for 30 has neighbor-aged-out
check "... naming the neighbour that went (port mc0, ttl 11)" \
    any_ev '.event == "neighbor-aged-out" and .ifname == "ms0" and
	.port_id == "mc0" and .ttl == 11'
check "... an ageout by the counters too (statsAgeoutsTotal 1)" \
    [ "$(dx_stat s ms0 statsAgeoutsTotal)" = 1 ]
back_to_ieee() {
	jq -se '(map(.event) | index("neighbor-aged-out")) as $a |
	    [to_entries[] | select(.key > $a and .value.event == "mode-changed"
	    and .value.active == "ieee")] | length > 0' "$MON" >/dev/null
}
check "... and auto mode went back to IEEE after it" wait_for 20 back_to_ieee

# 5. set --persist: the port runs the edited policy, then the file is
# written; a file that cannot be re-read refuses, and the port goes back.
C="$DCBCTL -s $NS_TMP/s.sock"
pfc_is() {	# pfc_is P...: ms0's admin PFC is on for exactly these
	$C -j show dcbx dev ms0 | jq -e --arg want "$*" \
	    '[.pfc.admin.prio_pfc | to_entries[] | select(.value) | .key |
	    tostring] | join(" ") == $want' >/dev/null
}
check "set --persist: answered" sh -c "$C set pfc dev ms0 prio-pfc 5:on --persist >/dev/null"
check "... the port ran it before the file was written (log order)" \
    log_before "$NS_TMP/s.log" "ms0: admin policy set at run time" "ms0: policy written to"
check "... the file has it" grep -q "prio-pfc = \\[ 5 \\]" "$NS_TMP/s.conf"
check "... admin-changed: parts pfc, persisted" wait_for 30 any_ev \
    '.event == "admin-changed" and .parts == "pfc" and .persist == true'
printf 'dcbxd: { tx-interval = 5; };\n' >>"$NS_TMP/s.conf"	# twice now
cp "$NS_TMP/s.conf" "$NS_TMP/s.conf.bad"
check "set --persist with a file that does not load: refused" \
    sh -c "! $C set pfc dev ms0 prio-pfc 6:on --persist 2>/dev/null"
check "... the file left alone" cmp -s "$NS_TMP/s.conf" "$NS_TMP/s.conf.bad"
check "... the port back on its policy (5, not 6)" pfc_is 5
check "... after running the edit, logged" \
    grep -q "ms0: policy not written (.*): old policy back" "$NS_TMP/s.log"

# 6. The link goes down under a live neighbour (issue 31): the monitor
# hears the cause first (link-changed link=down), then what it caused
# (neighbor-removed), not the other way round.
dx_start c c "$NS_TMP/c.conf" || bail "controller did not restart"
nadded() { [ "$(jq -s '[.[] | select(.event == "neighbor-added")] | length' "$MON")" -ge 2 ]; }
check "the controller back: neighbor-added again" wait_for 30 nadded
wait_for 20 nsx s grep -qx up /sys/class/net/ms0/operstate
nsx c ip link set mc0 down
down_first() {
	jq -se '[to_entries[] | select(.value.ifname == "ms0")] |
	    (map(select(.value.event == "link-changed" and .value.link ==
	    "down")) | last.key) as $d |
	    (map(select(.value.event == "neighbor-removed")) | last.key) as $r |
	    $d != null and $r != null and $d < $r' "$MON" >/dev/null
}
check "link down: link-changed before the neighbor-removed it caused" \
    wait_for 30 down_first

# 7. The interface goes: port-removed, the last event of the port.
nsx s ip link del ms0
check "port-removed when the veth is deleted" wait_for 30 has port-removed
last_is_removed() {
	jq -se '[.[] | select(.ifname == "ms0") | .event] | last ==
	    "port-removed"' "$MON" >/dev/null
}
check "... after everything else the port said" last_is_removed
[ -s "$NS_TMP/mon.err" ] && diag "monitor: $(cat "$NS_TMP/mon.err")"
check "every line of the stream is one JSON event" \
    jq -e -s 'length > 0 and all(.[]; type == "object" and (.event | type) == "string")' "$MON"
kill -TERM "$PID_s"; wait_for 20 sh -c "! kill -0 $PID_s 2>/dev/null"
check_clean "no sanitizer report" "$NS_TMP/s.log" "$NS_TMP/c.log"
finish
