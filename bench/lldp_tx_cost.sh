#!/bin/sh
# SPDX-License-Identifier: ISC
# lldp_tx_cost.sh -- what an LLDP daemon adds to every frame its port
# sends: the kernel's work for the daemon's packet socket on the transmit
# path (dev_queue_xmit_nit: a clone of the frame and the socket's filter,
# for each packet tap that does not ignore outgoing frames).  A server
# port sends far more data than LLDP, so this is paid on all of it.
#
# One namespace (dut) holds five veths, each sending into a second
# namespace where nothing listens: one with no daemon (the baseline), two
# ports of one dcbxd -- one never flooded, one that has been (a flood
# makes its socket join a fanout group, for the packet ring, and it stays
# there) -- and one port of lldpd.  bench/lldp-flood sends the same
# frames on all five in turn, frame by frame, and sums its thread's CPU
# inside send() per interface (the veth's receive side runs there too,
# and is the same on all five).  Per run: ns per frame sent, per port;
# the rows give the median over RUNS runs and the cost above the
# baseline.
#
# Usage: sudo bench/lldp_tx_cost.sh [--json]
#   env: FRAMES (per run and port, 100000), RUNS (5), top_builddir
. "$(cd "$(dirname "$0")" && pwd)/lldp_bench_lib.sh"
FRAMES=${FRAMES:-100000}
RUNS=${RUNS:-5}
bl_init "${1:-}"
[ -x "$FLOOD" ] || bl_die "lldp-flood not built: $FLOOD"
ns_add dut && ns_add sink || bl_die "namespaces"
for _i in tn tq tf tl; do
	veth_add dut "$_i" sink "${_i}s" || bl_die "veth"
	ip -n "$(ns_name dut)" link set "$_i" up
	ip -n "$(ns_name sink)" link set "${_i}s" up
done
bl_dx_start dut dx "t[qf]*"
bl_ll_start dut ll tl 4
sleep 1
# A flood into tf from its far end; the bench waits for its ring to close.
nsx sink "$FLOOD" -i tfs -r 2000 -t 1 >/dev/null
bl_wait 20 ctl_jq "$NS_TMP/dx.sock" '.[0].rx.floods >= 1 and .[0].rx.mode == "socket"' \
    show stats dev tf || bl_die "tf: no flood seen, or its ring did not close"
bl_log "tf: $(ctl "$NS_TMP/dx.sock" show stats dev tf | jq -c '.[0].rx')"

for _r in $(seq "$RUNS"); do
	nsx dut "$FLOOD" -i tn -i tq -i tf -i tl -r 100000 -c "$FRAMES" -t 60 |
	    awk '{ printf "%s %.0f\n", $15, $11 / $2 }' >>"$NS_TMP/tx"
done
med() { bl_median $(awk -v i="$1" '$1 == i { print $2 }' "$NS_TMP/tx"); }
base=$(med tn)
for _p in "tn|no daemon (baseline)" "tq|dcbxd, port never flooded" \
    "tf|dcbxd, port after a flood" "tl|lldpd"; do
	_i=${_p%%|*}; _m=$(med "$_i")
	_all=$(awk -v i="$_i" '$1 == i { printf "%s%.0f", s, $2; s = " " }' "$NS_TMP/tx")
	bl_row "${_p#*|}" "$_m" "$(awk -v a="$_m" -v b="$base" 'BEGIN { printf "%+.0f", a - b }')" "$_all"
done
bl_print "CPU per frame a port sends, ns: the sender's thread inside send() (median of $RUNS runs of $FRAMES frames a port, the ports taking turns frame by frame); extra: above the port with no daemon" \
    "port:28,ns/frame:9,extra:6,runs:40"
