#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbx_willing.sh -- what issue 31 found told wrong, with two real dcbxd:
# a controller ("c", policy A: PFC 3,4) and a server ("s").
#   1. Willing feature by feature: the server takes ETS and APP but keeps
#      its own PFC (pfc.willing = false): PFC is a mismatch on both ends,
#      the controller hears the server's PFC willing bit clear, and
#      `dcbctl set pfc ... willing on|off` moves it at run time, the note
#      after the set saying what the port runs.  A set outlives a link
#      flap (it lasts until the next reload).
#   2. A reload from mode "cee" to auto, facing this IEEE-only controller,
#      leaves the server where a fresh start would: on IEEE, adopted.
#      Before it, doctor finds the mode mismatch.
#   3. Logs at warning for what an operator must hear (a mismatch, a peer
#      lost), "PFC now 3,4 from MAC" for what changed; a reload that
#      cannot apply a setting says so to its caller (exit 7).
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
XD_TX_INTERVAL=5; export XD_TX_INTERVAL
. "$top_srcdir/tests/integration/dcbx-lib.sh"
xd_need
plan 26
xd_setup
ns_add c && ns_add s || bail "namespaces"
veth_add c xc0 s xs0 02:00:00:00:0c:00 02:00:00:00:05:00 || bail "veth"
xd_conf c controller ieee A || bail "config c"
# sconf MODE PFC-WILLING [MORE]: the server's config.
sconf() {
	cat >"$NS_TMP/s.conf.new" <<EOC
dcbxd: { tx-interval = 5; tx-hold = 4; };
$3
ports = ( { match = "x*"; role = "willing"; mode = "$1";
  backend = "readonly"; pfc = { willing = $2; }; } );
EOC
	mv "$NS_TMP/s.conf.new" "$NS_TMP/s.conf"
}
sconf ieee false
xd_start c c && xd_start s s || bail "dcbxd did not start"
nsx c ip link set xc0 up; nsx s ip link set xs0 up
S="$DCBCTL -s $NS_TMP/s.sock"
check "log: one port is \"1 port\"" grep -q "started, 1 port, control socket" "$NS_TMP/s.log"

# 1. pfc.willing = false on a willing port.
check "server: ETS and APP taken, PFC its own (none): a mismatch" \
    xd_until 30 s xs0 ets=peer app=peer pfc=mismatch oper_ets=A
check "... its admin PFC willing bit is off, its oper PFC on no priority" \
    ctl_jq "$NS_TMP/s.sock" '.pfc.admin.willing == false and
	(.pfc.oper.prio_pfc | any) == false' show dcbx dev xs0
check "the controller hears the server's PFC TLV with willing clear" \
    xd_until 30 c xc0 pfc=mismatch
check "... and its ETS TLV willing" ctl_jq "$NS_TMP/c.sock" \
    '.pfc.peer.willing == false and .ets.peer.willing == true' show dcbx dev xc0
$S set pfc dev xs0 willing on >/dev/null 2>"$NS_TMP/note-on"
check "set pfc willing on: the server adopts PFC 3,4" \
    xd_until 10 s xs0 status=peer oper=A
check "... and says it runs the peer's PFC, and how to run its own" \
    grep -q "xs0 is willing for PFC and runs the peer's PFC .*willing off" "$NS_TMP/note-on"
$S set pfc dev xs0 willing off >/dev/null 2>"$NS_TMP/note-off"
check "set pfc willing off: its own PFC again, ETS and APP still the peer's" \
    xd_until 10 s xs0 ets=peer app=peer pfc=mismatch
check "... and the note names the mismatch" \
    grep -q "xs0's new admin PFC is not the peer's and neither gives way" "$NS_TMP/note-off"
check "log: the mismatch is a warning, with its reason" \
    grep -q "WRN/dcbx\] xs0: status ets peer, pfc mismatch, app peer (pfc: neither side is willing" "$NS_TMP/s.log"
check "log: what changed, and from whom" \
    grep -q "INF/dcbx\] xs0: PFC now 3,4 from 02:00:00:00:0c:00" "$NS_TMP/s.log"

# A set lasts until the next reload (dcbctl(8)): a link flap keeps it,
# the reload puts the file's policy (pfc.willing = false) back.
$S set pfc dev xs0 willing on >/dev/null 2>&1
check "set pfc willing on again: adopted" xd_until 10 s xs0 status=peer oper=A
nsx c ip link set xc0 down
wait_for 10 nsx s grep -qx down /sys/class/net/xs0/operstate
nsx c ip link set xc0 up
check "a link flap keeps the set: PFC adopted again, willing on" \
    xd_until 30 s xs0 status=peer oper=A
check "... the admin PFC willing bit still the set's" ctl_jq "$NS_TMP/s.sock" \
    '.pfc.admin.willing == true' show dcbx dev xs0
check "... and no settings re-read from the config" \
    sh -c "! grep -q 'xs0: DCBX settings changed' '$NS_TMP/s.log'"
xd_hup s
check "a reload puts the file's policy back: PFC its own, a mismatch" \
    xd_until 30 s xs0 ets=peer app=peer pfc=mismatch

# 2. mode cee, then auto: where a fresh start would be.
sconf cee true
xd_hup s
check "mode cee: an IEEE-only peer, nothing negotiated" \
    xd_until 30 s xs0 active=cee status=no-peer "reason~set to CEE"
"$DCBCTL" -s "$NS_TMP/s.sock" -j doctor dev xs0 >"$NS_TMP/doc1.json"
check "... doctor: mode-mismatch" \
    jq -e 'any(.[]; .check == "mode-mismatch")' "$NS_TMP/doc1.json"
sconf auto true
_t0=$(date +%s%N); xd_hup s
xd_conv "reload to auto: IEEE, the controller's policy adopted, as a fresh start" \
    s xs0 "$_t0" 30 active=ieee status=peer oper=A mode=auto
"$DCBCTL" -s "$NS_TMP/s.sock" -j doctor dev xs0 >"$NS_TMP/doc2.json"
check "... doctor: no mode-mismatch any more" \
    jq -e 'all(.[]; .check != "mode-mismatch")' "$NS_TMP/doc2.json"

# 3. A reload with a setting only a start applies.
sconf auto true 'snmp: { enabled = true; agentx-socket = "/nonexistent"; };'
$S reload >"$NS_TMP/reload.out" 2>"$NS_TMP/reload.err"
rc=$?
check "reload with snmp enabled: exit 7 (applied, but for that)" [ $rc -eq 7 ]
check "... the caller told what waits for a restart" \
    grep -qx "dcbctl: reload: not applied until dcbxd restarts: snmp enabled = true takes effect at the next start" "$NS_TMP/reload.err"
$S -j reload >"$NS_TMP/reload.json" 2>/dev/null
check "... -j: in not_applied" jq -e \
    '.not_applied == ["snmp enabled = true takes effect at the next start"]' \
    "$NS_TMP/reload.json"
check "... and the log says it at warning" \
    grep -q "WRN/conf\] reload: snmp enabled = true takes effect at the next start" "$NS_TMP/s.log"

# The controller stops: a peer lost is a warning, with why.
xd_stop c TERM
check "log: the peer lost, at warning, saying why" \
    wait_for 30 grep -q "WRN/dcbx\] xs0: DCBX peer lost (it sent a shutdown LLDPDU)" "$NS_TMP/s.log"
check_clean "no sanitizer report" "$NS_TMP/c.log" "$NS_TMP/s.log"
finish
