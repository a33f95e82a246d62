#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbx_restart.sh -- a willing server killed (-9) and restarted, as
# Restart=on-failure does, is back on the controller's policy at once
# (issue 19 item 4), in IEEE and in CEE mode.  Both daemons run with
# tx-interval 3600 s: the controller still holds the server's MSAP (no
# newNeighbor), so only its fast transmission on the server's changed DCBX
# TLVs can explain the server's adoption within the 20 s we wait.  Before
# the fix the server ran its admin config until the controller's next
# periodic LLDPDU (up to tx-interval).  In IEEE the controller answers
# the restart and not the adoption that follows (issue 34 item 9: two
# answers a restart spent the transmit credits of restarts 1-2 s apart);
# the time it takes is bench/dcbx_restart.sh's.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/dcbx-lib.sh"
xd_need
plan 10
xd_setup
XD_TX_INTERVAL=3600; export XD_TX_INTERVAL

frames_out() {	# frames_out NAME: its statsFramesOutTotal on xc0
	ctl_get "$NS_TMP/$1.sock" '.[0].lldp.statsFramesOutTotal' show stats dev xc0
}
quiet() {	# quiet NAME: sent nothing for 1.5 s (both counts read: no "" = "")
	_a=$(frames_out "$1") || return 1
	sleep 1.5
	_b=$(frames_out "$1") || return 1
	[ "$_b" = "$_a" ]
}

# restart_round MODE: one pair of daemons in MODE, the server restarted.
restart_round() {
	_m=$1
	ns_add "c$_m" && ns_add "s$_m" || bail "namespaces"
	veth_add "c$_m" xc0 "s$_m" xs0 || bail "veth"
	xd_conf "c$_m" controller "$_m" A && xd_conf "s$_m" willing "$_m" S ||
	    bail "configs"
	xd_start "c$_m" "c$_m" && xd_start "s$_m" "s$_m" || bail "dcbxd did not start"
	nsx "c$_m" ip link set xc0 up; nsx "s$_m" ip link set xs0 up
	_t0=$(date +%s%N)
	_ms=$(xd_wait "s$_m" xs0 "$_t0" 20 oper=A status=peer) ||
	    bail "$_m: no first adoption: $_ms"
	diag "$_m: first adoption after link-up: $_ms ms"
	# Let the controller's fast transmissions for the new neighbour end
	# (txFastInit x msgFastTx): from then on it sends every 3600 s.
	wait_for 30 quiet "c$_m" || bail "$_m: the controller keeps sending"
	_out0=$(frames_out "c$_m")
	xd_stop "s$_m" KILL
	xd_start "s$_m" "s$_m" || bail "the server did not restart"
	_t0=$(date +%s%N)
	if _ms=$(xd_wait "s$_m" xs0 "$_t0" 20 oper=A status=peer); then
		ok "$_m: the restarted server runs the controller's policy again (tx-interval 3600 s)"
		diag "$_m: re-adopted $_ms ms after the restart"
	else
		not_ok "$_m: the restarted server runs the controller's policy again (tx-interval 3600 s)"
		diag "$_m: $_ms"
	fi
	wait_for 30 quiet "c$_m" || diag "$_m: the controller keeps sending"
	_out1=$(frames_out "c$_m")
	diag "$_m: the controller sent $((_out1 - _out0)) LLDPDUs since the restart"
	check "$_m: the controller sent because of the restart (statsFramesOutTotal $_out0 -> $_out1)" \
	    eval '[ -n "$_out0" ] && [ "$_out1" -gt "$_out0" ]'
	check "$_m: the controller kept the server's MSAP (one new neighbour in its log)" \
	    [ "$(grep -c 'new neighbour' "$NS_TMP/c$_m.log")" -eq 1 ]
	# IEEE has no handshake: only the new rule explains it.  CEE's
	# SeqNo/AckNo already make the controller answer a reset peer (its
	# AckNo changes, and with it its TLVs).
	if [ "$_m" = ieee ]; then
		check "$_m: the controller answered the changed TLVs at once" \
		    grep -q "DCBX TLVs changed: an answer now" "$NS_TMP/c$_m.log"
		# ... and only those: the server's next PDU, its adoption of
		# the controller's config, is not answered (a credit kept for
		# the next restart: restarts 1 s apart waited ~0.9 s for one).
		check "$_m: one LLDPDU for the restart, none for the adoption ($_out0 -> $_out1)" \
		    [ $((_out1 - _out0)) -eq 1 ]
	fi
	check_clean "$_m: both daemons clean" "$NS_TMP/c$_m.log" "$NS_TMP/s$_m.log"
}
restart_round ieee
restart_round cee
finish
