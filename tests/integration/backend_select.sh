#!/bin/sh
# SPDX-License-Identifier: ISC
# backend_select.sh -- choosing a port's backend against the real kernel.
# A veth has no dcbnl ops: the RTM_GETDCB probe answers EOPNOTSUPP, so a
# port with an engine = { } block gets the software pause engine (on the
# port itself by default: port mode, no TAP), one without gets read-only,
# and dcbctl shows both with the reason.  The negotiated policy then reaches the engine: its per-priority
# view in show-stats has PFC on exactly the adopted priorities.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
DCBCTL=$top_builddir/ctl/dcbctl
[ -x "$DCBCTL" ] || skip_all "dcbctl not built"
plan 15

ns_setup g
ns_add c && ns_add s || bail "cannot create namespaces"
veth_add c gc0 s gs0 && veth_add c gc1 s gs1 || bail "cannot create veths"

dx_conf "$NS_TMP/c.conf" 5 2 "" '{ match = "gc*"; role = "controller"; mode = "ieee"; backend = "readonly";
    ets = { prio-tc = [0, 0, 0, 1, 1, 2, 3, 0]; tc-bw = [50, 30, 20, 0, 0, 0, 0, 0];
            tc-tsa = ["ets", "ets", "ets", "strict", "strict", "strict", "strict", "strict"]; };
    pfc = { prio-pfc = [3, 4]; }; }'
dx_conf "$NS_TMP/s.conf" 5 2 "" '{ match = "gs0"; role = "willing"; mode = "ieee";
    engine = { speed = "100M"; queue-memory = "2M"; }; },
  { match = "gs1"; role = "willing"; mode = "ieee"; }'
dx_start c c "$NS_TMP/c.conf" || bail "controller did not start"
dx_start s s "$NS_TMP/s.conf" || bail "server did not start"
for i in c0 c1; do nsx c ip link set g$i up; done
for i in s0 s1; do nsx s ip link set g$i up; done

ports() { "$DCBCTL" -s "$NS_TMP/s.sock" -j show ports; }
pj() {	# pj FILTER: FILTER over show ports, as an object by ifname
	ctl_jq "$NS_TMP/s.sock" "INDEX(.ifname) | $1" show ports
}
check "the engine port shows backend engine" \
    wait_for 20 pj '.gs0.backend == "engine"'
check "... because the dcbnl probe said the device has no dcbnl ops" \
    pj '.gs0.backend_why | ascii_downcase | contains("not supported") or contains("eopnotsupp")'
check "the port without an engine block is read-only, saying why" \
    pj '.gs1.backend == "readonly" and (.gs1.backend_why | contains("engine"))'
port_mode() {
	pj '.gs0.engine_mode == "port" and .gs0.host_interface == "gs0" and
	    .gs1.engine_mode == null' && ! nsx s ip link show dcb-gs0 >/dev/null 2>&1
}
check "the engine runs on the port itself by default: port mode, no TAP" port_mode
# issue 31: one backend logged for it (not "engine" and then "readonly"),
# and its WHY short enough that show ports fits a terminal.
check "gs1: one backend line in the log, readonly" sh -c \
    "[ \$(grep -c 'gs1: backend ' '$NS_TMP/s.log') -eq 1 ] &&
     grep -q 'gs1: backend readonly' '$NS_TMP/s.log'"
"$DCBCTL" -s "$NS_TMP/s.sock" show ports | awk 'length > 120' |
    while read -r l; do diag "too wide: $l"; done
check "show ports fits 120 columns" sh -c \
    "'$DCBCTL' -s '$NS_TMP/s.sock' show ports | awk 'length > 120 { exit 1 }'"
check "human output names the backend too" sh -c "'$DCBCTL' -s '$NS_TMP/s.sock' show ports | grep gs0 | grep -q engine"
check "show ports: the engine's host side holds senders back, the read-only port has none" \
    pj '.gs0.host_backpressure == true and .gs1.host_backpressure == null and .gs0.host_held_frames >= 0'

# The willing server adopts PFC 3,4; the engine must follow.
engine_pfc() {
	ctl_jq "$NS_TMP/s.sock" '(if type == "array" then .[0] else . end) |
	    [.engine.priorities[] | select(.pfc) | .priority] == [3, 4]' show stats dev gs0
}
check "the engine's PFC follows the negotiated policy (3, 4)" wait_for 10 engine_pfc
check "show stats has per-priority engine counters" sh -c "'$DCBCTL' -s '$NS_TMP/s.sock' -j show stats dev gs0 | grep -q '\"counters\"'"
host_stats() {
	"$DCBCTL" -s "$NS_TMP/s.sock" -j show stats dev gs0 | python3 -c "
import json, sys
st = json.load(sys.stdin)
st = st[0] if isinstance(st, list) else st
h = st['host']
sys.exit(0 if h['backpressure'] and len(h['held_frames']) == 8 and len(h['throttles']) == 8 else 1)"
}
check "show stats counts frames held back and throttles per priority" host_stats
ro_pfc() {
	ctl_jq "$NS_TMP/s.sock" '.pfc.oper.prio_pfc == [false, false, false, true, true, false, false, false]' show dcbx dev gs1
}
check "the read-only port adopted the same PFC (3, 4)" wait_for 20 ro_pfc
# ieee_pfc.delay comes from the headroom calculator when the config gives
# none: interface + cable delay both ways at the port's speed, 100 m cable.
# gs1 reports no speed (veth): 10G, 2 x 8192 + 2 x 5000 = 26384 bits.
# gs0's engine runs at 100M, which has no sourced interface delay: the
# delay is not computed (0, the driver's own), and the port says why
# (issue 31: it once counted the interface as 0 in silence, 100 bits).
pfc_delay() { ctl_jq "$NS_TMP/s.sock" ".pfc.oper.delay == $2" show dcbx dev "$1"; }
check "PFC delay at 10G over 100 m is 26384 bits" pfc_delay gs1 26384
check "PFC delay at the engine's 100M: not computed, and why" \
    ctl_jq "$NS_TMP/s.sock" '.pfc.oper.delay == 0 and
	(.pfc.delay_why | startswith("no sourced interface delay at 100M"))' \
    show dcbx dev gs0
check_clean "no sanitizer report" "$NS_TMP/s.log" "$NS_TMP/c.log"
finish
