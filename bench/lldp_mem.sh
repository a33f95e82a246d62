#!/bin/sh
# SPDX-License-Identifier: ISC
# lldp_mem.sh -- private memory per port, dcbxd beside lldpd.
#
# For each N in PORTS (default "64 512"): N veth pairs between two
# namespaces, all links up, the daemon under test on side A, and on side
# B either nothing (idle ports: no neighbour, nothing received) or the
# same daemon (one neighbour per port; for dcbxd a DCBX peer sending ETS,
# PFC and APP TLVs).  Once side A has seen every neighbour and SETTLE s
# have passed (fast transmission over, the links' IPv6 addresses
# settled), side A's RssAnon and VmRSS (/proc/PID/status, summed over
# the namespace's processes: lldpd runs two).  RssAnon is the private
# memory -- heap, malloc's free pages, stacks -- without the pages of the
# binary and its libraries, which do not grow with ports.
#
# Per port: (value at the larger N - value at the smaller) / (difference
# of N), the median over RUNS.  The issue's goal: <= 4 kB per idle port.
#
# Usage: sudo bench/lldp_mem.sh [--json]
#   env: PORTS ("64 512"), RUNS (3), SETTLE (6 s), LIMIT (60 s a wait)
. "$(cd "$(dirname "$0")" && pwd)/lldp_bench_lib.sh"
PORTS=${PORTS:-64 512}
RUNS=${RUNS:-3}
SETTLE=${SETTLE:-6}
LIMIT=${LIMIT:-60}
bl_init "${1:-}"
ROWS=$NS_TMP/mem_rows
: >"$ROWS"

set -- $PORTS
[ $# -eq 2 ] && [ "$1" -lt "$2" ] || bl_die "PORTS: two sizes, smaller first"
N1=$1 N2=$2

# mem_kb NS KEY: KEY (RssAnon, VmRSS) in kB, summed over NS's processes.
mem_kb() {
	_t=0
	for _p in $(ip netns pids "$(ns_name "$1")"); do
		_k=$(awk -v k="$2:" '$1 == k { print $2 }' /proc/"$_p"/status)
		_t=$((_t + ${_k:-0}))
	done
	echo "$_t"
}

# seen KIND NAME: neighbours side A's daemon knows of.
seen() {
	if [ "$1" = dcbxd ]; then
		ctl_get "$NS_TMP/$2.sock" '[.[].neighbors] | add // 0' show ports
	else
		bl_llcli ma "$2" show statistics summary | awk -F= '
		    /insert_cnt/ { i = $2 } /delete_cnt/ { d = $2 }
		    /ageout_cnt/ { a = $2 } END { print i - d - a }'
	fi
}

start() {	# KIND NS NAME PATTERN
	if [ "$1" = dcbxd ]; then
		bl_dx_start "$2" "$3" "$4" "max-neighbors = 4;"
	else
		bl_ll_start "$2" "$3" "$4" 4
	fi
}

# one KIND PEER N: one run, a row "KIND PEER N RssAnon VmRSS" in $ROWS.
one() {
	seq 0 $(($3 - 1)) | sed "s/.*/link add mva& netns $(ns_name ma) type veth peer name mvb& netns $(ns_name mb)/" >"$NS_TMP/mk"
	ip -batch "$NS_TMP/mk" || bl_die "ip -batch: $3 veth pairs"
	seq 0 $(($3 - 1)) | sed "s/.*/link set mva& up/" >"$NS_TMP/ua"
	seq 0 $(($3 - 1)) | sed "s/.*/link set mvb& up/" >"$NS_TMP/ub"
	ip -n "$(ns_name ma)" -batch "$NS_TMP/ua"
	ip -n "$(ns_name mb)" -batch "$NS_TMP/ub"
	start "$1" ma a 'mva*'
	want=0
	if [ "$2" = peer ]; then
		start "$1" mb b 'mvb*'
		want=$3
	fi
	_end=$(( $(date +%s) + LIMIT ))
	while [ "$(seen "$1" a 2>/dev/null || echo -1)" -lt "$want" ]; do
		[ "$(date +%s)" -ge "$_end" ] && { bl_log "$1 $2 $3: not all seen"; break; }
		sleep 0.2
	done
	sleep "$SETTLE"
	_a=$(mem_kb ma RssAnon); _r=$(mem_kb ma VmRSS)
	bl_log "$1, $2, $3 ports: RssAnon $_a kB, VmRSS $_r kB"
	echo "$1 $2 $3 $_a $_r" >>"$ROWS"
	bl_stop ma mb
	seq 0 $(($3 - 1)) | sed "s/.*/link del mva&/" >"$NS_TMP/rm"
	ip -n "$(ns_name ma)" -batch "$NS_TMP/rm"
}

ns_add ma && ns_add mb || bl_die "namespaces"
for i in $(seq "$RUNS"); do
	for k in dcbxd lldpd; do
		for p in idle peer; do
			for n in "$N1" "$N2"; do
				one "$k" "$p" "$n"
			done
		done
	done
done

# val KIND PEER N FIELD: the median over the runs (4 RssAnon, 5 VmRSS).
val() {
	bl_median $(awk -v k="$1" -v p="$2" -v n="$3" -v f="$4" \
	    '$1 == k && $2 == p && $3 == n { print $f }' "$ROWS")
}
# per KIND PEER FIELD: the median of the runs' per-port growth, kB.
per() {
	bl_median $(awk -v k="$1" -v p="$2" -v f="$3" -v a="$N1" -v b="$N2" '
	    $1 == k && $2 == p && $3 == a { lo[++x] = $f }
	    $1 == k && $2 == p && $3 == b { hi[++y] = $f }
	    END { for (i = 1; i <= x && i <= y; i++)
		printf "%.2f\n", (hi[i] - lo[i]) / (b - a) }' "$ROWS")
}

for p in idle peer; do
	for f in "4:RssAnon" "5:VmRSS"; do
		for n in "$N1" "$N2"; do
			_d=$(val dcbxd "$p" "$n" "${f%%:*}")
			_l=$(val lldpd "$p" "$n" "${f%%:*}")
			bl_row "$p, $n ports, ${f#*:} (kB)" "$_d" "$_l" \
			    "$(bl_ratio "$_d" "$_l")"
		done
		_d=$(per dcbxd "$p" "${f%%:*}"); _l=$(per lldpd "$p" "${f%%:*}")
		bl_row "$p, ${f#*:} per port (kB)" "$_d" "$_l" \
		    "$(bl_ratio "$_d" "$_l")"
	done
done
bl_print "memory of side A's daemon, ports idle (no neighbour) or each with one peer of the same kind (median of $RUNS; per port: growth from $N1 to $N2 ports)" \
    "case:32,dcbxd:9,lldpd:9,ratio:6"
