#!/bin/sh
# SPDX-License-Identifier: ISC
# lldp_ab.sh -- two (or more) dcbxd binaries side by side in one run: the
# daemon's CPU per received LLDPDU and its wakeups under the same flood,
# the binaries taking turns so that the machine's drift (2x within an
# hour on the VMs we use) falls on all of them alike.
#
# One sender namespace floods one veth to dcbxd (a willing port, mode
# auto) with bench/lldp-flood.  Each round restarts dcbxd with each binary
# in turn, warms it with one flood, then measures RUNS floods of SECS s
# each: its CPU (/proc/PID/task/*/schedstat, ns) per PDU it counted, and
# its wakeups (context switches) per run.  What the kernel does for the
# frames is not in it (lldp_rx_cost.sh measures that, beside lldpd).
#
# Usage: sudo A=path/to/dcbxd B=path/to/other/dcbxd bench/lldp_ab.sh [--json]
#   env: VARIANTS (which of A..E to run, "A B"), RATE (1000), SECS (4),
#        FLAGS (lldp-flood's, "-d ieee"), ROUNDS (3), RUNS (3 a round),
#        top_builddir (for bench/lldp-flood)
# Prints one row per binary: the median and spread of CPU per PDU over
# ROUNDS * RUNS runs, and the median wakeups per run.

. "$(cd "$(dirname "$0")" && pwd)/lldp_bench_lib.sh"
VARIANTS=${VARIANTS:-A B}
RATE=${RATE:-1000}
SECS=${SECS:-4}
FLAGS=${FLAGS--d ieee}
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-3}
for _v in $VARIANTS; do
	eval "_b=\${$_v:-}"
	[ -x "$_b" ] || bl_die "$_v: no dcbxd binary (set $_v=path)"
done
bl_init "${1:-}"
bl_flood_setup 1000

ab_pid() { ip netns pids "$(ns_name dut)" | head -1; }
ab_switches() {
	awk '/ctxt_switches/ { s += $2 } END { print s + 0 }' \
	    "/proc/$(ab_pid)/status"
}
ab_flood() {
	nsx src "$FLOOD" -i bfd -n 1 -r "$RATE" -t "$SECS" $FLAGS >/dev/null
	sleep 0.6		# the last ring block (500 ms) is read
}

: >"$NS_TMP/ab"
for _r in $(seq "$ROUNDS"); do
	for _v in $VARIANTS; do
		eval "DCBXD=\$$_v"
		bl_stop dut
		bl_dx_start dut dx bd0 "max-neighbors = 1000;"
		sleep 1
		ab_flood
		for _i in $(seq "$RUNS"); do
			sleep 2		# the ring closes; each run starts alike
			_c0=$(bl_cpu dut); _w0=$(ab_switches)
			_n0=$(bl_dx_stat dx bd0 statsFramesInTotal)
			ab_flood
			_c1=$(bl_cpu dut); _w1=$(ab_switches)
			_n1=$(bl_dx_stat dx bd0 statsFramesInTotal)
			echo "$_v $((_c1 - _c0)) $((_w1 - _w0)) $((_n1 - _n0))" >>"$NS_TMP/ab"
		done
		bl_log "round $_r $_v: $(awk -v v="$_v" '$1 == v { printf " %.3f/%d", $2 / ($4 ? $4 : 1) / 1e3, $3 }' "$NS_TMP/ab")"
	done
done

for _v in $VARIANTS; do
	eval "_b=\$$_v"
	_us=$(awk -v v="$_v" '$1 == v { printf "%.3f\n", $2 / ($4 ? $4 : 1) / 1e3 }' "$NS_TMP/ab")
	_sp=$(bl_spread $_us)
	_wk=$(awk -v v="$_v" '$1 == v { print $3 }' "$NS_TMP/ab")
	bl_row "$_v" "$_b" "$(bl_median $_us)" "$_sp" "$(bl_median $_wk)" \
	    "$(awk -v v="$_v" '$1 == v { n = $4 } END { print n }' "$NS_TMP/ab")"
done
bl_print "dcbxd's CPU per received LLDPDU, us, at $RATE/s for $SECS s ($FLAGS), median of $ROUNDS rounds x $RUNS runs, the binaries taking turns" \
    "bin:3,path:40,us/PDU:7,spread:12,wakeups:8,PDUs:6"
