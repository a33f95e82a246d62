#!/bin/sh
# SPDX-License-Identifier: ISC
# lldp_tap_cost.sh -- what the kernel does per received LLDPDU for each
# kind of packet tap a daemon can hold, with no daemon work at all: the
# floor under lldp_rx_cost.sh's "kernel" column.
#
# One sender namespace has six veths (bench/lldp-flood, IEEE DCBX TLVs,
# ~430 octets, the same PDU each time), each into a namespace of its own:
# one where nothing listens (the baseline), and five where bench/tap-probe
# receives through
# dcbxd's own sockets (daemon/lldp/sock.c):
#   drop   a tap whose filter drops every frame
#   plain  the port socket read with recvmmsg() (dcbxd outside a flood;
#          lldpd's kind of socket)
#   ring   a TPACKET_V3 ring of dcbxd's geometry, in no fanout group
#   group  dcbxd in a flood: the port socket and a ring in one fanout
#          group steering every frame to the ring
#   repeat the same with the ring's repeat filter (sock_rep.h), armed with
#          the first frame read: the copies after it are dropped in the
#          kernel and counted (what dcbxd pays for an unchanged flood)
#   unarmed the repeat filter, never armed (what dcbxd pays for each frame
#          of a changing flood); not in the default KINDS
# Each run floods one kind's link and the baseline's, frame by frame, and
# the kinds take turns (run together, the plain socket's wakeups, one per
# frame, slowed the sends after them: a ring then cost 1.2-1.5 us for
# 0.9-1.0 alone).  lldp-flood sums its thread's CPU inside send() per
# interface; the veth's receive softirq runs there (see lldp_rx_cost.sh).
# Per run: ns per frame above the baseline's in the same run.  Rows:
# median of RUNS, spread min-max, frames the probe received (summed over
# the runs, of those sent; a probe drains what it holds at exit).
#
# Usage: sudo bench/lldp_tap_cost.sh [--json]
#   env: RATES ("10000 1000"), SECS (per run, 3; 4 below 5000/s),
#        RUNS (5), KINDS (all of the above), FFLAGS (lldp-flood's, "-d
#        ieee"; "-d ieee -v": a changing PDU, which the repeat filter
#        passes), top_builddir
. "$(cd "$(dirname "$0")" && pwd)/lldp_bench_lib.sh"
RATES=${RATES:-10000 1000}
SECS=${SECS:-3}
RUNS=${RUNS:-5}
PROBE=${PROBE:-$top_builddir/bench/tap-probe}
KINDS=${KINDS:-drop plain ring group repeat}
FFLAGS=${FFLAGS:--d ieee}
bl_init "${1:-}"
[ -x "$FLOOD" ] || bl_die "lldp-flood not built: $FLOOD"
[ -x "$PROBE" ] || bl_die "tap-probe not built: $PROBE"
ns_add src && ns_add none || bl_die "namespaces"
veth_add src tnone none rx || bl_die "veth"
for _k in $KINDS; do
	ns_add "$_k" && veth_add src "t$_k" "$_k" rx || bl_die "veth $_k"
done
for _k in none $KINDS; do
	ip -n "$(ns_name src)" link set "t$_k" up
	ip -n "$(ns_name "$_k")" link set rx up
done
sleep 1

# tc_run KIND RATE SECS: one run of one kind beside the baseline; appends
# "kind ns_over_baseline got sent" to $NS_TMP/runs.
tc_run() {
	bg_start "$1" "$NS_TMP/got" "$PROBE" -i rx -m "$1" -t $(($3 + 30))
	_p=$BG_PID
	sleep 0.5
	_o=$(nsx src "$FLOOD" -r "$2" -t "$3" $FFLAGS -i tnone -i "t$1")
	sleep 0.6		# the probe drains; the ring's last block too
	kill "$_p"; wait "$_p"
	echo "$_o" | awk -v k="$1" -v g="$(awk '{ print $3 }' "$NS_TMP/got")" '
	    $15 == "tnone" { bn = $2; bc = $11 }
	    $15 == "t" k { n = $2; c = $11 }
	    END { printf "%s %.0f %d %d\n", k, c / n - bc / bn, g, n }' \
	    >>"$NS_TMP/runs"
}

for RATE in $RATES; do
	_s=$SECS
	[ "$RATE" -lt 5000 ] && [ "$_s" -lt 4 ] && _s=4
	for _k in $KINDS; do tc_run "$_k" "$RATE" 1; done	# warm-up
	: >"$NS_TMP/runs"
	for _i in $(seq "$RUNS"); do
		for _k in $KINDS; do tc_run "$_k" "$RATE" "$_s"; done
		bl_log "$RATE/s run $_i: $(tail -4 "$NS_TMP/runs" | awk '{ printf "%s %s ns; ", $1, $2 }')"
	done
	_ring=$(bl_median $(awk '$1 == "ring" { print $2 }' "$NS_TMP/runs"))
	for _k in $KINDS; do
		_v=$(awk -v k="$_k" '$1 == k { print $2 }' "$NS_TMP/runs")
		_m=$(bl_median $_v)
		bl_row "$_k" "$RATE" "$_m" \
		    "$(bl_spread $_v)" \
		    "$(bl_ratio "$_m" "$_ring")" \
		    "$(awk -v k="$_k" '$1 == k { g += $3; n += $4 } END { print g "/" n }' "$NS_TMP/runs")"
	done
done

bl_print "kernel ns per received LLDPDU (lldp-flood $FFLAGS, ~430 octets) above a veth with no tap, by kind of tap, no daemon work (median of $RUNS runs, spread min-max; vs_ring: to a ring alone; got: frames the probe received of those sent)" \
    "tap:6,rate/s:7,ns:6,spread:12,vs_ring:8,got:14"
