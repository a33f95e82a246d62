#!/bin/sh
# SPDX-License-Identifier: ISC
# lldp_rx_cost.sh -- daemon CPU per received LLDPDU, dcbxd beside lldpd.
#
# One sender namespace floods two veth links at a fixed rate for a bounded
# time (bench/lldp-flood): one ends at dcbxd, the other at lldpd, each in
# its own namespace.  The daemons are flooded in turn, never at once.  Per
# run: CPU time of the daemon's processes (schedstat, ns) before and after,
# divided by the PDUs it actually counted (dcbxd statsFramesInTotal, lldpd
# "rx").  Cases: the same PDU again and again from 1, 10 and 100
# neighbours, and PDUs whose content changes every time (-v).  Each figure
# is the median of RUNS runs after one warm-up run.
#
# Usage: sudo bench/lldp_rx_cost.sh [--json]
#   env: RATES (frames/s, "10000 1000": every case at each), SECS (per
#        run, 2; at least 4 below 5000/s), RUNS (3),
#        top_builddir (the build with daemon/dcbxd and bench/lldp-flood)
# Goal (the LLDP issue): dcbxd at most a fifth of lldpd's figure.

. "$(cd "$(dirname "$0")" && pwd)/lldp_bench_lib.sh"
RATES=${RATES:-${RATE:-10000 1000}}
SECS=${SECS:-2}
RUNS=${RUNS:-3}
bl_init "${1:-}"
bl_flood_setup 1000

# rx_run DAEMON NBRS FLOOD-FLAGS: one run, prints "us_per_pdu rx sent".
rx_run() {
	if [ "$1" = dcbxd ]; then
		_ns=dut; _if=bfd
		_r0=$(bl_dx_stat dx bd0 statsFramesInTotal)
	else
		_ns=lut; _if=bfl
		_r0=$(bl_ll_stat lut ll bl0 rx)
	fi
	_c0=$(bl_cpu "$_ns")
	_sent=$(nsx src "$FLOOD" -i "$_if" -n "$2" -r "$RATE" -t "$SECS" $3 |
	    awk '{ print $2 }')
	sleep 0.3			# let the daemon drain its queue
	_c1=$(bl_cpu "$_ns")
	if [ "$1" = dcbxd ]; then
		_r1=$(bl_dx_stat dx bd0 statsFramesInTotal)
	else
		_r1=$(bl_ll_stat lut ll bl0 rx)
	fi
	awk -v c="$((_c1 - _c0))" -v r="$((_r1 - _r0))" -v s="$_sent" \
	    'BEGIN { printf "%.3f %d %d\n", r ? c / 1000 / r : 0, r, s }'
}

# rx_case NAME NBRS FLOOD-FLAGS: warm-up, then RUNS runs of each daemon.
rx_case() {
	rx_run dcbxd "$2" "$3" >/dev/null
	rx_run lldpd "$2" "$3" >/dev/null
	_dx=""; _ll=""; _lost=0
	for _i in $(seq "$RUNS"); do
		_o=$(rx_run dcbxd "$2" "$3")
		_dx="$_dx ${_o%% *}"; _lost=$((_lost + $(echo "$_o" | awk '{ print $3 - $2 }')))
		_o=$(rx_run lldpd "$2" "$3")
		_ll="$_ll ${_o%% *}"; _lost=$((_lost + $(echo "$_o" | awk '{ print $3 - $2 }')))
		bl_log "$1 run $_i: dcbxd$(echo "$_dx" | awk '{ print " " $NF }') us," \
		    "lldpd$(echo "$_ll" | awk '{ print " " $NF }') us"
	done
	_mdx=$(bl_median $_dx); _mll=$(bl_median $_ll)
	_rat=$(bl_ratio "$_mdx" "$_mll")
	bl_row "$1" "$RATE" "$((RATE * SECS))" "$_mdx" "$_mll" "$_rat" "$_lost" \
	    "$(awk -v r="$_rat" 'BEGIN { print (r != "-" && r <= 0.2) ? "yes" : "NO" }')"
}

SECS0=$SECS
for RATE in $RATES; do
	SECS=$SECS0
	[ "$RATE" -lt 5000 ] && [ "$SECS" -lt 4 ] && SECS=4
	rx_case "same PDU, 1 neighbour" 1 ""
	rx_case "same PDU, 10 neighbours" 10 ""
	rx_case "same PDU, 100 neighbours" 100 ""
	rx_case "changing PDU, 1 neighbour" 1 -v
	rx_case "changing PDU, 100 neighbours" 100 -v
done

bl_print "daemon CPU per received LLDPDU, median of $RUNS runs ($SECS0 s, at least 4 s below 5000/s)" \
    "case:30,rate/s:7,PDUs/run:9,dcbxd_us:9,lldpd_us:9,ratio:6,lost:5,goal<=0.2:9"
