#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbctl_golden.sh -- what dcbctl prints, table and JSON, for every command
# against real daemons (prefix "k"): a controller "c" (kc0, policy A) and a
# willing server "s" (ks0) joined by a veth with fixed MACs, so neighbours
# and DCBX are real and the output is fixed.  Volatile values (TTL left,
# LLDP counters, the temp dir) are masked by golden.py.  Each case's stdout,
# stderr and exit code are compared with tests/ctl/golden/NAME; run with
# GOLDEN_UPDATE=1 to rewrite them (then read the diff!).  Also: set, then
# show reflects it; --persist rewrites the file and dcbxd -t accepts it;
# monitor sees neighbours come and go and the sets; every error path gives
# exit 1 and one line on stderr; 5000 neighbours on a port (kc1, injected
# by golden.py) are all printed.  The server's port runs the pause engine
# (a TAP), so that show stats and metrics cover an engine port too.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/ctl.sh"
DCBXD=$top_builddir/daemon/dcbxd
DCBCTL=$top_builddir/ctl/dcbctl
G=$top_srcdir/tests/ctl/golden
need_root
need_cmd ip jq timeout
[ -x "$DCBXD" ] && [ -x "$DCBCTL" ] || skip_all "dcbxd or dcbctl not built"
[ -c /dev/net/tun ] || skip_all "no /dev/net/tun (the server's engine TAP)"
ip netns add "kprobe$$" 2>/dev/null || skip_all "cannot create network namespaces here"
ip netns del "kprobe$$"

plan 110
ns_setup k
GPY="$PY $top_srcdir/tests/ctl/golden.py"
ns_add c && ns_add s && ns_add x || bail "namespaces"
veth_add c kc0 s ks0 02:00:00:00:0c:00 02:00:00:00:05:00 &&
    veth_add c kc1 x kx1 02:00:00:00:0c:01 02:00:00:00:0e:01 || bail "veth"
cat >"$NS_TMP/c.conf" <<'EOF'
dcbxd: { tx-interval = 30; tx-hold = 4; max-neighbors = 6000;
  system-name = "ctrl"; system-description = "golden controller"; };
ports = ( { match = "kc0"; role = "controller"; mode = "ieee";
  backend = "readonly";
  ets = { prio-tc = [ 0, 0, 0, 1, 1, 2, 3, 2 ];
    tc-bw = [ 50, 30, 20, 0, 0, 0, 0, 0 ];
    tc-tsa = [ "ets", "ets", "ets", "strict", "strict", "strict", "strict",
      "strict" ]; };
  pfc = { prio-pfc = [ 3, 4 ]; };
  app = ( { selector = "dgram-port"; protocol = 4791; priority = 3; } ); },
  { match = "kc1"; role = "controller"; mode = "ieee"; backend = "readonly"; } );
EOF
cat >"$NS_TMP/s.conf" <<'EOF'
dcbxd: { tx-interval = 30; tx-hold = 4; system-name = "srv";
  system-description = "golden server"; };
ports = ( { match = "ks0"; role = "willing"; mode = "ieee";
  backend = "engine"; engine = { mode = "relay"; speed = "10G";
    queue-memory = "2M"; }; } );
EOF
for n in c s; do
	bg_start $n "$NS_TMP/$n.log" "$DCBXD" -d -c "$NS_TMP/$n.conf" \
	    -s "$NS_TMP/$n.sock"
	eval "PID_$n=\$BG_PID"
	wait_for 10 test -S "$NS_TMP/$n.sock" || bail "dcbxd $n did not start"
done
C="$DCBCTL -s $NS_TMP/c.sock"
S="$DCBCTL -s $NS_TMP/s.sock"
# Monitors from the start: text on the server, JSON on the controller.
bg_start s "$NS_TMP/mon-s.txt" timeout 120 $S monitor
bg_start c "$NS_TMP/mon-c.txt" timeout 120 $C -j monitor
# Both are subscribed once a reload made after they started shows up in
# each (reload until it does: a monitor may not have subscribed yet).
subscribed() {
	$C reload >/dev/null; $S reload >/dev/null
	grep -Eq '(^|[[:space:]])reload( |$)' "$NS_TMP/mon-s.txt" && grep -q '"reload"' "$NS_TMP/mon-c.txt"
}
wait_for 20 subscribed || bail "the monitors did not subscribe"
nsx c ip link set kc0 up && nsx s ip link set ks0 up &&
    nsx c ip link set kc1 up && nsx x ip link set kx1 up
dcbx_is() { $1 -j show dcbx dev "$2" | grep -q "\"status\":\"$3\""; }
wait_for 10 dcbx_is "$S" ks0 peer || bail "the server did not adopt the policy"
wait_for 10 dcbx_is "$C" kc0 local || bail "the controller sees no peer"

# golden NAME CMD...: CMD's masked stdout, stderr and exit code equal
# golden/NAME.
golden() {
	_g=$1; shift
	"$@" >"$NS_TMP/o" 2>"$NS_TMP/e"
	_rc=$?
	{ $GPY mask "$NS_TMP" <"$NS_TMP/o"
	  sed "s|$NS_TMP|TMP|g; s/^/stderr: /" "$NS_TMP/e"
	  echo "exit: $_rc"; } >"$NS_TMP/g"
	if [ -n "$GOLDEN_UPDATE" ]; then cp "$NS_TMP/g" "$G/$_g"; fi
	if cmp -s "$NS_TMP/g" "$G/$_g"; then ok "golden $_g"
	else not_ok "golden $_g"; diag "$(diff -u "$G/$_g" "$NS_TMP/g" | head -40)"
	fi
}

# 1. Every show, as a table and as JSON.
for j in "" -j; do
	sfx=${j:+.json}
	golden "ports$sfx" $C $j show ports
	golden "neighbors$sfx" $C $j show neighbors
	golden "neighbors-dev$sfx" $S $j show neighbors dev ks0
	golden "neighbors-details$sfx" $S $j show neighbors dev ks0 details
	golden "dcbx-controller$sfx" $C $j show dcbx dev kc0
	golden "dcbx-server$sfx" $S $j show dcbx dev ks0
	golden "ets$sfx" $S $j show ets dev ks0
	golden "pfc$sfx" $S $j show pfc dev ks0
	golden "app$sfx" $S $j show app dev ks0
	golden "stats$sfx" $C $j show stats dev kc0
	golden "stats-engine$sfx" $S $j show stats dev ks0
done
golden version $C version
# metrics and doctor: kc0 is read-only with PFC and has a strict class
# above its PFC class; kc1 has no neighbour yet.
golden metrics $C metrics
golden metrics.json $C -j metrics
golden metrics-engine $S metrics
golden doctor $C doctor
golden doctor.json $C -j doctor
golden doctor-dev $S doctor dev ks0
golden err-doctor-no-port $C doctor dev nosuch
golden err-doctor-extra $C doctor now
golden err-metrics-extra $C metrics now
check "-j prints one line" [ "$($C -j show dcbx dev kc0 | wc -l)" -eq 1 ]
check "-p prints indented JSON" sh -c "$C -p show ports | grep -q '^  {'"

# 2. set, then show reflects it, on the controller and on the server.
golden set-pfc $C set pfc dev kc0 prio-pfc 5:on
check "the server adopts PFC 3,4,5" wait_for 20 sh -c \
    "$S show pfc dev ks0 | grep -q 'prio-pfc 0:off 1:off 2:off 3:on 4:on 5:on 6:off'"
golden set-pfc-shown $C show pfc dev kc0
golden set-app.json $C -j set app dev kc0 add dscp-prio 26:5 del dgram-port 4791:3
check "the server adopts the APP table" wait_for 20 sh -c \
    "$S show app dev ks0 | grep -qx 'dscp-prio 26:5'"
golden set-app-server $S show app dev ks0
golden set-willing-note $S set pfc dev ks0 delay 26384
# The engine enforces what the port adopted, as soon as the port has it
# (the state is not a counters snapshot: issue 31).
eng_pfc_is() {
	$S -j show stats dev ks0 | jq -e --argjson w "$1" \
	    '.[0].engine.pfc_enabled == $w and
	    ([.[0].engine.priorities[] | select(.pfc) | .priority] == $w)' \
	    >/dev/null
}
check "show stats: the server's engine runs PFC 3,4,5, as adopted" \
    eng_pfc_is '[3,4,5]'
# Willing feature by feature: PFC off on the server, ETS and APP still
# taken; the controller hears the bit.
golden set-willing-off $S set pfc dev ks0 willing off
check "willing off: the server runs its own PFC (none), the rest the peer's" \
    ctl_jq "$NS_TMP/s.sock" '.pfc.status == "mismatch" and .ets.status == "peer" and
	.app.status == "peer" and (.pfc.oper.prio_pfc | any) == false and
	.pfc.admin.willing == false' show dcbx dev ks0
check "... and its engine follows (PFC on none)" eng_pfc_is '[]'
check "... the controller sees the server's PFC willing bit clear" wait_for 20 \
    ctl_jq "$NS_TMP/c.sock" '.pfc.peer.willing == false and .ets.peer.willing == true' \
    show dcbx dev kc0
$S set pfc dev ks0 willing on >/dev/null 2>&1
check "willing on again: the server adopts PFC 3,4,5 again" wait_for 20 \
    ctl_jq "$NS_TMP/s.sock" '.pfc.status == "peer"' show dcbx dev ks0
# No reco block: a set ets changes the recommendation too (dcbxd.conf(5)).
golden set-ets-reco-follows $C set ets dev kc0 tc-bw 0:60 1:20 2:20
check "the server follows the new ETS, recommended without a reco edit" \
    wait_for 20 sh -c "$S show ets dev ks0 | grep -q '^tc-bw 0:60 1:20 2:20'"
check "the config file is untouched by set without --persist" \
    grep -q 'protocol = 4791' "$NS_TMP/c.conf"

# 3. --persist: the file changes, dcbxd -t accepts it, reload keeps it.
cp "$NS_TMP/c.conf" "$NS_TMP/c.conf.orig"
golden set-ets-persist $C set ets dev kc0 tc-bw 0:40 1:40 reco-tc-bw 0:40 1:40 --persist
check "--persist changed the file" sh -c \
    "! cmp -s '$NS_TMP/c.conf' '$NS_TMP/c.conf.orig'"
check "the file has the new tc-bw" grep -q 'tc-bw = \[ 40, 40, 20,' "$NS_TMP/c.conf"
check "dcbxd -t accepts the written file" sh -c \
    "'$DCBXD' -t -c '$NS_TMP/c.conf' | grep -qx 'configuration OK'"
golden persisted-file cat "$NS_TMP/c.conf"
check "the server follows the new recommendation" wait_for 20 sh -c \
    "$S show ets dev ks0 | grep -q '^tc-bw 0:40 1:40 2:20'"
golden reload $C reload
golden after-reload $C show ets dev kc0
# Now with a reco block of its own: an ETS edit leaves it, and says so.
golden set-ets-own-reco $C set ets dev kc0 tc-bw 0:50 1:30 2:20
check "... the server still runs the recommendation (40/40/20)" \
    sh -c "$S show ets dev ks0 | grep -q '^tc-bw 0:40 1:40 2:20'"

# 4. monitor: the lines of the events so far, and a neighbour going away.
nsx c ip link set kc0 down
check "the server drops its neighbour" wait_for 10 sh -c \
    "$S show neighbors dev ks0 | wc -l | grep -qx 1"
nsx c ip link set kc0 up
wait_for 20 dcbx_is "$S" ks0 peer
# The monitor prints the last event after the state changed: wait for it.
mon_s_done() {
	$GPY mask "$NS_TMP" <"$NS_TMP/mon-s.txt" >"$NS_TMP/mon-s.masked" &&
	    $GPY inorder "$G/monitor-s.expect" "$NS_TMP/mon-s.masked"
}
wait_for 20 mon_s_done
$GPY mask "$NS_TMP" <"$NS_TMP/mon-s.txt" >"$NS_TMP/mon-s.masked"
$GPY mask "$NS_TMP" <"$NS_TMP/mon-c.txt" >"$NS_TMP/mon-c.masked"
# (GOLDEN_UPDATE: pick monitor-s.expect's lines from this file by hand.)
[ -n "$GOLDEN_UPDATE" ] && cp "$NS_TMP/mon-s.masked" "$NS_TMP/../monitor-s.seen"
if $GPY inorder "$G/monitor-s.expect" "$NS_TMP/mon-s.masked" >"$NS_TMP/io"
then ok "monitor (text) saw the expected lines in order"
else not_ok "monitor (text) saw the expected lines in order"
	diag "$(cat "$NS_TMP/io")"
fi
check "monitor -j saw admin-changed for each set" sh -c \
    "grep -c '\"event\": \"admin-changed\"' '$NS_TMP/mon-c.masked' | grep -qx 5"
check "monitor -j: oper-changed carries the DCBX object" \
    grep -q '"event": "oper-changed"' "$NS_TMP/mon-c.masked"

# A set lasts until the next reload: kc0's link flap above kept it.
check "the controller's set ETS outlived its link flap (50/30/20)" \
    sh -c "$C show ets dev kc0 | grep -q '^tc-bw 0:50 1:30 2:20'"

# 5. Error paths: exit 1, one line on stderr.
golden err-no-port $C show dcbx dev nosuch
golden err-set-no-port $C set ets dev nosuch tc-bw 0:100
golden err-bw-sum $C set ets dev kc0 tc-bw 0:60
golden err-app-absent $C set app dev kc0 del dscp 63:1
golden err-nothing $C set ets dev kc0
golden err-bad-word $C set pfc dev kc0 prio-pfc 9:on
golden err-show-object $C show bogus
golden err-show-extra $C show ports dev kc0
golden err-monitor-extra $C monitor now
golden err-command $C shwo
golden err-no-socket $DCBCTL -s "$NS_TMP/none.sock" show ports
golden version-offline $DCBCTL -s "$NS_TMP/none.sock" --version
golden err-version-offline $DCBCTL -s "$NS_TMP/none.sock" version
golden help-set $DCBCTL -s "$NS_TMP/none.sock" set ets --help
golden err-help-bogus $DCBCTL help bogus
# A broken file: reload and set --persist refuse, nothing changes.
cp "$NS_TMP/c.conf" "$NS_TMP/c.conf.good"
printf 'dcbxd: { tx-interval = 1; };\n' >>"$NS_TMP/c.conf"
cp "$NS_TMP/c.conf" "$NS_TMP/c.conf.bad"
golden err-reload $C reload
golden err-persist $C set pfc dev kc0 prio-pfc 6:on --persist
check "the refused --persist left the file alone" \
    cmp -s "$NS_TMP/c.conf" "$NS_TMP/c.conf.bad"
check "... and the port's policy (PFC 3,4: the reload dropped 5:on)" sh -c \
    "$C show pfc dev kc0 | grep -q '3:on 4:on 5:off 6:off'"
cp "$NS_TMP/c.conf.good" "$NS_TMP/c.conf"

# 6. 5000 neighbours on kc1.
nsx x timeout 60 $GPY inject kx1 5000
check "dcbxd holds 5000 neighbours on kc1" wait_for 30 \
    ctl_jq "$NS_TMP/c.sock" '.[] | select(.ifname == "kc1") | .neighbors == 5000' show ports
$C show neighbors dev kc1 >"$NS_TMP/n5000" 2>"$NS_TMP/n5000.err"
rc=$?
check "show neighbors of 5000: exit 0" [ $rc -eq 0 ]
check "... 5000 rows and a header" [ "$(wc -l <"$NS_TMP/n5000")" -eq 5001 ]
check "... 5000 distinct chassis IDs" sh -c \
    "awk 'NR>1 {print \$3}' '$NS_TMP/n5000' | sort -u | wc -l | grep -qx 5000"
check "... sorted: sta0's row right after the header" sh -c \
    "sed -n 2p '$NS_TMP/n5000' | grep -q '02:00:5e:00:00:00  p0 .*sta0 '"
$C -j show neighbors dev kc1 >"$NS_TMP/n5000.json"
check "-j: 5000 objects" sh -c "[ -s '$NS_TMP/n5000.json' ] && jq -e 'length == 5000' '$NS_TMP/n5000.json' >/dev/null"
check "show neighbors (all ports) has 5001 rows" sh -c \
    "$C show neighbors | wc -l | grep -qx 5002"

# 7. Every TLV in the details (issue 15): one station sends them all.
nsx x $GPY inject_rich kx1
check "the rich station is stored" wait_for 30 \
    ctl_jq "$NS_TMP/c.sock" '.[] | select(.ifname == "kc1") | .neighbors == 5001' show ports
$C show neighbors dev kc1 details |
    awk 'BEGIN { RS = ""; ORS = "\n" } /\n  SysName: +rich\n/' >"$NS_TMP/rich"
golden neighbors-rich cat "$NS_TMP/rich"
$C -j show neighbors dev kc1 | jq -c '[.[] | select(.sys_name == "rich")]' >"$NS_TMP/rich.json"
golden neighbors-rich.json cat "$NS_TMP/rich.json"

# 8. A malformed Application VLAN TLV (length 7): counted as a discarded
# TLV, said in the details, the station itself kept.
disc0=$(ctl_get "$NS_TMP/c.sock" '.[0].lldp.statsTLVsDiscardedTotal' show stats dev kc1)
nsx x $GPY inject_avl_bad kx1
check "the station with the bad App VLAN TLV is stored" wait_for 30 \
    ctl_jq "$NS_TMP/c.sock" '.[] | select(.ifname == "kc1") | .neighbors == 5002' show ports
check "... its App VLAN TLV is rejected with the reason" \
    ctl_jq "$NS_TMP/c.sock" '[.[] | select(.sys_name == "avl-bad")][0].app_vlan ==
        {"entries": [], "error": "Application VLAN TLV: length 7 must be 4 + 4N, N <= 126"}' \
    show neighbors dev kc1
check "... and counted in statsTLVsDiscardedTotal" \
    ctl_jq "$NS_TMP/c.sock" ".[0].lldp.statsTLVsDiscardedTotal == ${disc0:-0} + 1" show stats dev kc1
check "... the details say it" sh -c "$C show neighbors dev kc1 details |
    grep -qx '  AppVLAN:      rejected: Application VLAN TLV: length 7 must be 4 + 4N, N <= 126'"

kill "$PID_c" "$PID_s"
wait_for 20 sh -c "! kill -0 $PID_c 2>/dev/null && ! kill -0 $PID_s 2>/dev/null"
check_clean "no sanitizer report" "$NS_TMP/c.log" "$NS_TMP/s.log"
# The goldens were written by GOLDEN_UPDATE=1, i.e. by the implementation:
# what they say is checked here against the configs above, by hand, so
# that a regenerated golden cannot bake in a wrong answer.
gj() {	# gj NAME FILTER: FILTER holds on golden/NAME (a .json golden)
	sed '/^exit: /d; /^stderr: /d' "$G/$1" | jq -e "$2" >/dev/null 2>&1
}
check "golden facts: the server runs policy A from c.conf (ETS 50/30/20, prio-tc, strict 3-7)" \
    gj dcbx-server.json '.ets.oper | .tc_bw == [50, 30, 20, 0, 0, 0, 0, 0] and
        .prio_tc == [0, 0, 0, 1, 1, 2, 3, 2] and
        .tc_tsa == ["ets", "ets", "ets", "strict", "strict", "strict", "strict", "strict"]'
check "golden facts: ... PFC on 3 and 4 only, APP UDP 4791 -> 3, all from the peer" \
    gj dcbx-server.json '(.pfc.oper.prio_pfc == [false, false, false, true, true, false, false, false]) and
        .app.oper == [{"selector": "dgram-port", "protocol": 4791, "priority": 3}] and
        [.ets.status, .pfc.status, .app.status] == ["peer", "peer", "peer"] and
        .peer_mac == "02:00:00:00:0c:00"'
check "golden facts: PFC delay at 10G over 100 m is 2 x 8192 + 2 x 5000 = 26384 bits" \
    gj dcbx-server.json '.pfc.oper.delay == 26384'
check "golden facts: the controller runs its own policy (status local)" \
    gj dcbx-controller.json '.ets.oper.tc_bw == [50, 30, 20, 0, 0, 0, 0, 0] and
        [.ets.status, .pfc.status, .app.status] == ["local", "local", "local"]'
check "golden facts: the server's neighbour is the controller (MAC, port kc0, name ctrl)" \
    gj neighbors-dev.json '.[0] | .chassis_id == "02:00:00:00:0c:00" and .port_id == "kc0" and .sys_name == "ctrl"'
check "golden facts: the controller's ports are kc0 and kc1, both controller" \
    gj ports.json '[.[] | [.ifname, .role]] == [["kc0", "controller"], ["kc1", "controller"]]'
check "golden facts: the server's engine enforces the adopted PFC 3,4, and says how old its counters are" \
    sh -c "grep -q '^  engine pfc-enabled  *3,4\$' '$G/stats-engine' &&
        grep -q '^  engine pfc  *off  off  off  on  on  off  off  off\$' '$G/stats-engine' &&
        grep -q 'counters as of N ms ago' '$G/stats-engine'"
check "golden facts: ... so does its JSON" \
    gj stats-engine.json '.[0].engine.pfc_enabled == [3, 4] and
        ([.[0].engine.priorities[] | select(.pfc) | .priority] == [3, 4])'
check "golden facts: the engine's metrics carry the watchdog's drops and the queued frames" \
    sh -c "grep -q '^dcbxd_engine_drops_total{port=\"ks0\",priority=\"3\",direction=\"egress\",reason=\"pfc_watchdog\"} N\$' '$G/metrics-engine' &&
        grep -q '^dcbxd_engine_queue_frames{port=\"ks0\",priority=\"3\",direction=\"ingress\"} N\$' '$G/metrics-engine'"
check "golden facts: the rich station's Application VLAN table (FCoE -> 100, DSCP 46 -> 200)" \
    gj neighbors-rich.json '.[0].app_vlan == {"entries": [
        {"selector": "ethertype", "protocol": 35078, "vid": 100},
        {"selector": "dscp", "protocol": 46, "vid": 200}], "error": null}'
check "golden facts: the table output says the same (ets, pfc, app)" \
    sh -c "grep -q '^tc-bw 0:50 1:30 2:20 3:0' '$G/ets' &&
        grep -q '^prio-pfc 0:off 1:off 2:off 3:on 4:on 5:off 6:off 7:off' '$G/pfc' &&
        grep -qx 'dgram-port-prio 4791:3' '$G/app'"
finish
