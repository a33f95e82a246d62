#!/bin/sh
# SPDX-License-Identifier: ISC
# lldp_neighbors.sh -- 10,000 neighbours on one port, dcbxd beside lldpd:
# CPU per new neighbour and memory per neighbour as the table grows.
#
# A sender namespace floods two veth links (bench/lldp-flood): one ends at
# dcbxd, the other at lldpd (max-neighbors raised to 20000 on both).  The
# table grows in buckets of STEP new neighbours (each neighbour sends one
# LLDPDU, TTL 3600 s so that none ages out); per bucket and daemon: CPU
# time (schedstat, ns) over the bucket divided by the neighbours it
# actually inserted (dcbxd remote_tables inserts; lldpd: frames sent, see
# nb_inserts), and
# the RSS growth per inserted neighbour.  The daemons grow in turn,
# bucket by bucket, never at once.  A cost per new neighbour that rises
# with the bucket means a lookup that scans the table.
#
# Usage: sudo bench/lldp_neighbors.sh [--json]
#   env: TOTAL (10000), STEP (1000), RATE (new neighbours/s, 2000)
# Goal (the LLDP issue): dcbxd's cost per new neighbour does not rise
# with the table size.
. "$(cd "$(dirname "$0")" && pwd)/lldp_bench_lib.sh"
TOTAL=${TOTAL:-10000}
STEP=${STEP:-1000}
RATE=${RATE:-2000}
bl_init "${1:-}"
bl_flood_setup 20000

# lldpd cannot be asked: past about 2,000 neighbours on a port, lldpcli's
# "show statistics" (ports or summary) fails ("message received is too
# large", then a crash or a garbage total), so for lldpd the frames sent
# stand for the neighbours inserted (none lost at 2000/s while lldpcli
# could still count them).
nb_inserts() {	# DAEMON SENT
	if [ "$1" = dcbxd ]; then bl_dx_stat dx bd0 inserts
	else echo "$2"; fi
}

# nb_bucket DAEMON BASE: STEP new neighbours; prints "ns_per_new ins rss_kb".
nb_bucket() {
	[ "$1" = dcbxd ] && _ns=dut _if=bfd || _ns=lut _if=bfl
	_i0=$(nb_inserts "$1" 0); _m0=$(bl_rss "$_ns"); _c0=$(bl_cpu "$_ns")
	_s=$(nsx src "$FLOOD" -i "$_if" -n "$STEP" -b "$2" -c "$STEP" \
	    -r "$RATE" -t 60 -T 3600 | awk '{ print $2 }')
	sleep 0.3			# let the daemon drain its queue
	_c1=$(bl_cpu "$_ns"); _m1=$(bl_rss "$_ns"); _i1=$(nb_inserts "$1" "$_s")
	echo "$((_c1 - _c0)) $((_i1 - _i0)) $((_m1 - _m0))"
}

sdx=0; sll=0; tdx=0; tll=0; mdx0=$(bl_rss dut); mll0=$(bl_rss lut)
b=0
while [ "$b" -lt "$TOTAL" ]; do
	set -- $(nb_bucket dcbxd "$b"); cdx=$1; idx=$2; rdx=$3
	set -- $(nb_bucket lldpd "$b"); cll=$1; ill=$2; rll=$3
	udx=$(awk -v c="$cdx" -v n="$idx" 'BEGIN { printf "%.2f", n ? c / 1000 / n : 0 }')
	ull=$(awk -v c="$cll" -v n="$ill" 'BEGIN { printf "%.2f", n ? c / 1000 / n : 0 }')
	bl_row "$((b / 1000))k-$(((b + STEP) / 1000))k" "$idx" "$ill" "$udx" \
	    "$ull" "$(bl_ratio "$udx" "$ull")" \
	    "$(awk -v m="$rdx" -v n="$idx" 'BEGIN { printf "%.0f", n ? m * 1024 / n : 0 }')" \
	    "$(awk -v m="$rll" -v n="$ill" 'BEGIN { printf "%.0f", n ? m * 1024 / n : 0 }')"
	bl_log "bucket $b: dcbxd $udx us/new ($idx), lldpd $ull us/new ($ill)"
	tdx=$((tdx + cdx)); tll=$((tll + cll)); sdx=$((sdx + idx)); sll=$((sll + ill))
	b=$((b + STEP))
done
udx=$(awk -v c="$tdx" -v n="$sdx" 'BEGIN { printf "%.2f", n ? c / 1000 / n : 0 }')
ull=$(awk -v c="$tll" -v n="$sll" 'BEGIN { printf "%.2f", n ? c / 1000 / n : 0 }')
bl_row "all" "$sdx" "$sll" "$udx" "$ull" "$(bl_ratio "$udx" "$ull")" \
    "$(awk -v m="$(( $(bl_rss dut) - mdx0 ))" -v n="$sdx" 'BEGIN { printf "%.0f", n ? m * 1024 / n : 0 }')" \
    "$(awk -v m="$(( $(bl_rss lut) - mll0 ))" -v n="$sll" 'BEGIN { printf "%.0f", n ? m * 1024 / n : 0 }')"
bl_print "new neighbours on one port, per bucket of $STEP at $RATE/s (us = CPU per new neighbour, B = RSS growth per neighbour)" \
    "bucket:8,dcbxd_new:9,lldpd_new:9,dcbxd_us:9,lldpd_us:9,ratio:6,dcbxd_B:8,lldpd_B:8"
