#!/bin/sh
# SPDX-License-Identifier: ISC
# pfcwd_engine.sh -- the PFC watchdog on an engine port, with real daemons
# and frames in namespaces.  dcbxd runs the pause engine on hp0 (100 Mb/s,
# so 65535 quanta are 336 ms: an XOFF every 10 ms never runs out, even when
# a loaded machine delays the sender by a few hundred ms) with PFC on
# priority 3 and pfc-watchdog { action = drop; detection 200; restoration
# 400 }.  The peer (namespace p, plain veth end pp0) storms: XOFF 65535 on
# priority 3 every 10 ms for 2 s (etool pfc --every, a raw socket), while
# the host sends priority-3 and priority-0 traffic into dcb-hp0.
#
# Asserted from counters, events and log order, never from wall time:
#   drop: stormed, then restored after the storm ended; tx_drop counts;
#         priority 0 lost nothing; priority 3 flows again after restoration.
#   SIGHUP to forward: the next storm keeps sending (tx_ok) and drops none.
#   SIGHUP to alert: reported, nothing sent or dropped (PFC still obeyed).
#   set pfcwd off: a storm goes unnoticed ("disabled"); on: watched again.
#   issue 19: PFC naming priority 0 (no PFC there) is ignored and counted.
#   802.3x PAUSE storm on this PFC port: ignored and counted (802.1Q
#   36.1.1; issue 34 item 3), priority 0 keeps flowing, no storm.
# ENGINE_MODE=port runs it all with the engine on the port itself
# (pfcwd_port.sh): the host sends on hp0, the drop action drops in the
# port's qdisc tree.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/pfcwd_lib.sh"
pfcwd_need
plan 41
ENGINE_MODE=${ENGINE_MODE:-relay}
if [ "$ENGINE_MODE" = port ]; then HOST=hp0; else HOST=dcb-hp0; fi

ns_setup w
ns_add h && ns_add p || bail "cannot create namespaces"
veth_add h hp0 p pp0 02:00:00:00:0c:00 02:00:00:00:0d:00 || bail "veth"

conf() {	# conf ACTION: the host's config with that watchdog action
	dx_conf "$NS_TMP/h.conf" 5 2 "pfc-watchdog-poll = 100;" "{ match = \"hp0\";
    role = \"controller\"; mode = \"ieee\";
    ets = { prio-tc = [0, 0, 0, 1, 0, 0, 0, 0]; tc-bw = [50, 50, 0, 0, 0, 0, 0, 0];
            tc-tsa = [\"ets\", \"ets\", \"strict\", \"strict\", \"strict\", \"strict\", \"strict\", \"strict\"]; };
    pfc = { prio-pfc = [3]; };
    engine = { mode = \"$ENGINE_MODE\"; speed = \"100M\"; queue-memory = \"1M\"; stall-timeout = 60000; };
    pfc-watchdog = { action = \"$1\"; detection-time = 200; restoration-time = 400; }; }"
}
conf drop
dx_start h h "$NS_TMP/h.conf" || bail "dcbxd did not start"
nsx h ip link set hp0 up && nsx p ip link set pp0 up
dc() { "$DCBCTL" -s "$NS_TMP/h.sock" "$@"; }

wd() { wd_row h "$1"; }	# EXPR over r = [the priority-3 row]
# eng EXPR: EXPR over e = the engine's show-stats object.
eng() {
	dc -j show stats dev hp0 | /usr/bin/python3 -c "
import json, sys
e = json.load(sys.stdin)[0]['engine']
sys.exit(0 if ($1) else 1)" 2>/dev/null
}
wdv() {	# wdv KEY: a value of the priority-3 row
	dc -j show pfcwd dev hp0 | jq -r ".[] | select(.priority == 3) | .$1"
}
engv() {	# engv PRIO KEY: an engine counter
	dc -j show stats dev hp0 | jq -r ".[0].engine.priorities[$1].counters.$2"
}
has_host() { nsx h ip link show $HOST >/dev/null 2>&1; }
wait_for 10 has_host || bail "no engine host interface $HOST"
nsx h ip link set $HOST up
running() { dc -j show ports | jq -e ".[0].engine_mode == \"$ENGINE_MODE\"" >/dev/null; }
check "the engine runs in $ENGINE_MODE mode" wait_for 10 running
check "watching priority 3, operational, drop 200/400 ms" \
    wait_for 10 wd "r[0]['status'] == 'operational' and r[0]['action'] == 'drop' and r[0]['detection_time'] == 200 and r[0]['restoration_time'] == 400 and r[0]['last_storm'] is None"
table() {
	dc show pfcwd | awk 'NR == 1 { h = $1 " " $2 " " $3 " " $4 " " $13 }
	    NR == 2 { r = $1 " " $2 " " $3 " " $4 " " $5 " " $6 " " $13 }
	    END { exit !(h == "IFNAME PRIO STATUS ACTION LAST-STORM" &&
	    r == "hp0 3 operational drop 200 400 -" && NR == 2) }'
}
check "dcbctl show pfcwd: the table, one row" table
check "only PFC priorities are watched (one row)" \
    test "$(dc -j show pfcwd | jq length)" -eq 1
bg_start h "$NS_TMP/mon.out" "$DCBCTL" -s "$NS_TMP/h.sock" -j monitor
MONPID=$BG_PID

# storm SECONDS: host traffic on 3 and 0 around a storm of XOFF on 3.
storm() {
	bg_start h "$NS_TMP/gen.out" "$ETOOL" gen $HOST \
	    --stream 3:vlan:20M:0 --stream 0:vlan:20M:0 \
	    --duration $(( $1 * 1000 + 1500 ))
	GENPID=$BG_PID
	sleep 0.3
	nsx p "$ETOOL" pfc pp0 --prio 3 --quanta 65535 --every 10 \
	    --duration $(( $1 * 1000 )) > "$NS_TMP/storm.out"
	wait "$GENPID" 2>/dev/null
}
# restored N: the Nth restoration is in the counters.
restored() { wd "r[0]['storms_restored'] >= $1 and r[0]['status'] == 'operational'"; }

# ---- drop --------------------------------------------------------------
tx3_0=$(engv 3 tx_frames)
storm 2
diag "storm: $(cat "$NS_TMP/storm.out")"
check "drop: restored after the storm" wait_for 20 restored 1
check "drop: exactly one storm detected and restored" \
    wd "r[0]['storms_detected'] == 1 and r[0]['storms_restored'] == 1"
check "drop: the watchdog dropped priority-3 frames (tx_drop $(wdv tx_drop))" \
    wd "r[0]['tx_drop'] > 0"
check "drop: last_storm is an RFC 3339 time" \
    wd "r[0]['last_storm'].endswith('Z') and 'T' in r[0]['last_storm']"
diag "priority 0: $(dc -j show stats dev hp0 | jq -c '.[0].engine.priorities[0] | [.drops, .counters.host_in_frames, .counters.tx_frames]')"
# (A send() the kernel refuses is counted as port_send: not the watchdog's.)
check "drop: priority 0 was never paused nor held back (no queue drops)" \
    eng "e['priorities'][0]['counters']['paused_ns'] == 0 and e['priorities'][0]['drops'].get('egress_queue_full', 0) == 0"
if [ "$ENGINE_MODE" = port ]; then
	# The kernel's path: what the generator got into the kernel left.
	g0=$(jq '.streams[] | select(.priority == 0) | .sent' "$NS_TMP/gen.out")
	check "drop: priority 0 went out in full ($g0 sent, dropped by none)" \
	    eng "e['priorities'][0]['counters']['tx_frames'] >= $g0 > 0 and e['priorities'][0]['gate']['qdisc_drops'] == 0"
else
	check "drop: priority 0 went out in full (sent + refused = taken from the host)" \
	    eng "e['priorities'][0]['counters']['tx_frames'] + e['priorities'][0]['drops']['port_send'] == e['priorities'][0]['counters']['host_in_frames'] > 0"
fi
check "drop: our own XOFF is no storm: none sent (host drains)" \
    wd "r[0]['own_xoff_ms'] == 0"
# issue 31: every frame the engine took from the host is in the metrics,
# the watchdog's drops included: one scrape (one snapshot) adds up.
dc metrics >"$NS_TMP/drop.prom"
accounted() {	# accounted PRIO: from_host = to_port + drops + queued
	/usr/bin/python3 - "$NS_TMP/drop.prom" "$1" "$ENGINE_MODE" <<'EOP'
import re, sys
path, prio = sys.argv[1], sys.argv[2]
v = {}
for l in open(path):
    m = re.match(r'(dcbxd_engine_\w+)\{port="hp0",priority="%s"(.*)\} (\d+)$'
                 % prio, l)
    if m:
        v[(m.group(1), m.group(2))] = int(m.group(3))
tp = v[("dcbxd_engine_frames_total", ',direction="to_port"')]
dr = sum(n for (f, l), n in v.items() if f == "dcbxd_engine_drops_total"
         and 'direction="egress"' in l)
q = v[("dcbxd_engine_queue_frames", ',direction="egress"')]
wdd = v[("dcbxd_engine_drops_total",
         ',direction="egress",reason="pfc_watchdog"')]
fh = v.get(("dcbxd_engine_frames_total", ',direction="from_host"'))
if sys.argv[3] == "port":
    # The host's frames go through the qdisc: no from_host series (not a
    # 0 that would not add up); what went out and the watchdog's drops.
    print("to_port %d watchdog drops %d queued %d" % (tp, wdd, q))
    sys.exit(0 if fh is None and tp > 0 and (prio != "3" or wdd > 0)
             else 1)
print("from_host %d to_port %d drops %d (watchdog %d) queued %d"
      % (fh, tp, dr, wdd, q))
sys.exit(0 if fh == tp + dr + q and fh > 0 and
         (prio != "3" or wdd > 0) else 1)
EOP
}
diag "priority 3: $(accounted 3)"
check "metrics: priority 3's frames from the host all accounted for, the watchdog's drops among them" \
    accounted 3
check "metrics: priority 0's too" accounted 0
check "monitor: pfc-storm then pfc-storm-restored, priority 3, action drop" \
    /usr/bin/python3 -c "
import json, sys
ev = [json.loads(l) for l in open('$NS_TMP/mon.out') if l.strip()]
ev = [e for e in ev if e['event'].startswith('pfc-storm')]
sys.exit(0 if [e['event'] for e in ev] == ['pfc-storm', 'pfc-storm-restored'] and all(e['priority'] == 3 and e['action'] == 'drop' and e['ifname'] == 'hp0' for e in ev) else 1)"
# Causality from time stamps: the storm began before it was detected, and
# ended before it was declared over.
logt() { grep -m"$2" "$1" "$NS_TMP/h.log" | tail -1 | cut -d' ' -f1; }
st=$(jq -r .start "$NS_TMP/storm.out")
en=$(jq -r .end "$NS_TMP/storm.out")
check "log: storm warning after the first XOFF, restoration after the last" \
    awk -v s="$st" -v e="$en" -v d="$(logt 'PFC storm on priority 3: the' 1)" \
    -v r="$(logt 'priority 3 is over' 1)" 'BEGIN { exit !(d > s && r > e && r > d) }'
metric3() { dc metrics | grep "^dcbxd_pfc_storms_total{.*hp0.*priority=\"3\"} 1\$"; }
check "the notifier carried it: dcbxd_pfc_storms_total{hp0, 3} is 1" metric3
check "drop: priority 3 flows again after restoration" \
    test "$(engv 3 tx_frames)" -gt "$tx3_0"
no_override() { ! dc show dcbx dev hp0 | grep -q 'pfc-watchdog override'; }
check "show dcbx shows no override once restored" no_override

# ---- forward, by SIGHUP ------------------------------------------------
conf forward
kill -HUP "$PID_h"
check "SIGHUP: action forward without a restart" wait_for 20 wd "r[0]['action'] == 'forward'"
txd=$(wdv tx_drop)
storm 2 &
STORM=$!
check "forward: detected" wait_for 20 wd "r[0]['status'] == 'stormed'"
override() {
	dc show dcbx dev hp0 | grep -q 'pfc-watchdog override: PFC off on prio 3' &&
	    test "$(dc -j show pfc dev hp0 | jq -c '[.prio_pfc[3], .watchdog_override[3]]')" = '[true,true]'
}
check "show dcbx / show pfc: a watchdog override, oper PFC unchanged" override
wait "$STORM"
check "forward: restored" wait_for 20 restored 2
check "forward: frames kept going while stormed (tx_ok $(wdv tx_ok))" \
    wd "r[0]['tx_ok'] > 0"
check "forward: nothing more dropped" test "$(wdv tx_drop)" -eq "$txd"
check "dcbxd kept running through the reload (same pid)" kill -0 "$PID_h"

# ---- alert -------------------------------------------------------------
conf alert
kill -HUP "$PID_h"
check "SIGHUP: action alert" wait_for 20 wd "r[0]['action'] == 'alert'"
tok=$(wdv tx_ok)
bg_start p "$NS_TMP/storm3.out" "$ETOOL" pfc pp0 --prio 3 --quanta 65535 \
    --every 10 --duration 2000
STPID=$BG_PID
bg_start h "$NS_TMP/gen.out" "$ETOOL" gen $HOST --stream 3:vlan:20M:0 \
    --duration 2500
check "alert: detected" wait_for 20 wd "r[0]['storms_detected'] == 3 and r[0]['status'] == 'stormed'"
check "alert: no override in force while stormed" \
    wd "r[0]['override'] == False"
check "... and show dcbx says none" no_override
check "alert: PFC still obeyed: priority 3 held, nothing sent or dropped" \
    sh -c "test $(wdv tx_ok) -eq $tok && test $(wdv tx_drop) -eq $txd"
wait "$STPID" 2>/dev/null
check "alert: restored" wait_for 20 restored 3
check "a log warning per detection (3)" \
    test "$(grep -c 'PFC storm on priority 3: the' "$NS_TMP/h.log")" -eq 3

# ---- the big red switch ------------------------------------------------
dc set pfcwd off >/dev/null
check "set pfcwd off: status disabled" wd "r[0]['status'] == 'disabled'"
nsx p "$ETOOL" pfc pp0 --prio 3 --quanta 65535 --every 10 --duration 600 >/dev/null &
bg_start h "$NS_TMP/gen.out" "$ETOOL" gen $HOST --stream 3:vlan:20M:0 --duration 700
sleep 1
check "off: a storm goes unnoticed" \
    test "$(grep -c 'PFC storm on priority 3: the' "$NS_TMP/h.log")" -eq 3
dc set pfcwd on >/dev/null
check "set pfcwd on: operational again" wait_for 20 wd "r[0]['status'] == 'operational'"

# ---- bad input ---------------------------------------------------------
ig0=$(engv 0 pfc_ignored)
nsx p "$ETOOL" pfc pp0 --prio 0 --quanta 65535 --every 10 --duration 300 >/dev/null
check "PFC naming priority 0 (no PFC) is ignored and counted ($(engv 0 pfc_ignored))" \
    test "$(engv 0 pfc_ignored)" -gt "$ig0"
check "... and priority 0 was never paused" \
    eng "e['priorities'][0]['counters']['paused_ns'] == 0"
tx0=$(engv 0 tx_frames)
pi0=$(dc -j show stats dev hp0 | jq '.[0].engine.port_counters.pause_ignored')
bg_start h "$NS_TMP/gen.out" "$ETOOL" gen $HOST --stream 3:vlan:20M:0 \
    --stream 0:vlan:20M:0 --duration 1800
GENPID=$BG_PID
nsx p "$ETOOL" pfc pp0 --pause 65535 --every 10 --duration 1200 >"$NS_TMP/pause.out"
wait "$GENPID" 2>/dev/null
np=$(jq .sent "$NS_TMP/pause.out")
ignored() { test "$(dc -j show stats dev hp0 | jq '.[0].engine.port_counters.pause_ignored')" -eq $((pi0 + np)); }
check "802.3x PAUSE storm on this PFC port: each of $np frames ignored and counted" \
    wait_for 5 ignored
check "... priority 0 kept flowing (+$(( $(engv 0 tx_frames) - tx0 )))" \
    test "$(engv 0 tx_frames)" -gt $((tx0 + 1000))
no_storm() {
	wd "r[0]['storms_detected'] == 3" &&
	    ! grep -q '802.3x PAUSE storm: the peer' "$NS_TMP/h.log"
}
check "... no per-priority storm (detected stays 3), no PAUSE storm logged" no_storm
kill "$MONPID" 2>/dev/null
check_clean "no sanitizer report" "$NS_TMP/h.log"
finish
