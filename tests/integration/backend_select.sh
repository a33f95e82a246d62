#!/bin/sh
# backend_select.sh -- choosing a port's backend against the real kernel.
# A veth has no dcbnl ops: the RTM_GETDCB probe answers EOPNOTSUPP, so a
# port with an engine = { } block gets the software pause engine (its TAP
# appears), one without gets read-only, and dcbctl shows both with the
# reason.  The negotiated policy then reaches the engine: its per-priority
# view in show-stats has PFC on exactly the adopted priorities.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
DCBCTL=$top_builddir/ctl/dcbctl
[ -x "$DCBCTL" ] || skip_all "dcbctl not built"
plan 11

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
pyj() {	# pyj EXPR: EXPR over r = show ports JSON, by ifname
	ports | python3 -c "import json,sys; r={p['ifname']:p for p in json.load(sys.stdin)}; sys.exit(0 if ($1) else 1)"
}
check "the engine port shows backend engine" \
    wait_for 10 pyj "r['gs0']['backend'] == 'engine'"
check "... because the dcbnl probe said the device has no dcbnl ops" \
    pyj "'not supported' in r['gs0']['backend_why'].lower() or 'eopnotsupp' in r['gs0']['backend_why'].lower()"
check "the port without an engine block is read-only, saying why" \
    pyj "r['gs1']['backend'] == 'readonly' and 'engine' in r['gs1']['backend_why']"
has_tap() { nsx s ip link show dcb-gs0 >/dev/null 2>&1; }
check "the engine created its TAP dcb-gs0" has_tap
check "human output names the backend too" sh -c "'$DCBCTL' -s '$NS_TMP/s.sock' show ports | grep gs0 | grep -q engine"

# The willing server adopts PFC 3,4; the engine must follow.
engine_pfc() {
	"$DCBCTL" -s "$NS_TMP/s.sock" -j show stats dev gs0 | python3 -c "
import json, sys
st = json.load(sys.stdin)
st = st[0] if isinstance(st, list) else st
e = st['engine']
on = sorted(p['priority'] for p in e['priorities'] if p.get('pfc'))
sys.exit(0 if on == [3, 4] else 1)"
}
check "the engine's PFC follows the negotiated policy (3, 4)" wait_for 10 engine_pfc
check "show stats has per-priority engine counters" sh -c "'$DCBCTL' -s '$NS_TMP/s.sock' -j show stats dev gs0 | grep -q '\"counters\"'"
ro_pfc() {
	dx_q s show-dcbx '{"dev":"gs1"}' | python3 -c "import json,sys; r=json.load(sys.stdin); sys.exit(0 if r['pfc']['oper']['prio_pfc']==[False]*3+[True,True]+[False]*3 else 1)"
}
check "the read-only port adopted the same PFC (3, 4)" wait_for 20 ro_pfc
# ieee_pfc.delay comes from the headroom calculator when the config gives
# none: interface + cable delay both ways at the port's speed, 100 m cable.
# gs1 reports no speed (veth): 10G, 2 x 8192 + 2 x 5000 = 26384 bits.
# gs0's engine runs at 100M, which has no tabled interface delay:
# 2 x 50 bits of cable = 100.
pfc_delay() {
	dx_q s show-dcbx "{\"dev\":\"$1\"}" | python3 -c "import json,sys; r=json.load(sys.stdin); sys.exit(0 if r['pfc']['oper']['delay'] == $2 else 1)"
}
check "PFC delay at 10G over 100 m is 26384 bits" pfc_delay gs1 26384
check "PFC delay at the engine's 100M over 100 m is 100 bits" pfc_delay gs0 100
check "no sanitizer report" sh -c "! grep -q Sanitizer $NS_TMP/s.log $NS_TMP/c.log"
finish
