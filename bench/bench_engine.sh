#!/bin/sh
# SPDX-License-Identifier: ISC
# bench_engine.sh -- the pause engine's data path, as tables:
#  - one hop, host -> port: frames/s from a generator on the host interface
#    through the engine (unpaced) to a sink on the veth's far end, beside
#    bench/relay (the bare single-hop reference: one thread, epoll, batched
#    reads, sendmmsg) and a raw AF_PACKET generator on the veth itself, at
#    64 and 1500 octets, in the same run; with the frames the generator got
#    into the kernel (sent), the engine or relay took from its TAP
#    (accepted) and b0 received (delivered: a few more than the generator's,
#    the link's own IPv6 frames).  Goal: engine/relay >=
#    0.9 with every accepted frame delivered;
#  - frames/s through TAP -> engine -> veth -> engine -> TAP, unpaced,
#    beside the same binary in --bare mode;
#  - pause reaction: a PFC frame's kernel arrival to the last frame of that
#    priority leaving (engine's own measurement), p50 and p99, over 200
#    pauses while priority 3 flows at 1 Gb/s pacing.
# Run as root from a build dir: sh ../bench/bench_engine.sh  (about 2 min;
# RUNS=3 runs per case, medians).  Build without sanitizers (-O2).
# The scheduler's cost alone is bench/bench_engine_sched.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$(pwd)}"
export top_srcdir top_builddir
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/engine/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
RUNS=${RUNS:-3}

# fps MODE SIZE: delivered frames/s in one run.
fps() {
	ns_setup eb
	ns_add A && ns_add B
	veth_add A a0 B b0
	nsx A ip link set a0 up; nsx B ip link set b0 up
	_m=""; [ "$1" = bare ] && _m=--bare
	engine_start A a0 --tap dcb-a --unpaced $_m --qmem 4M
	engine_start B b0 --tap dcb-b --unpaced $_m --qmem 4M
	bg_start B "$NS_TMP/sink.out" "$ETOOL" sink dcb-b --duration 5000 \
	    --skip 500 --idle 1000
	wait_for 3 grep -q "sink ready" "$NS_TMP/sink.out"
	nsx A "$ETOOL" gen dcb-a --stream 0:raw:0:0 --size "$2" \
	    --duration 2500 >/dev/null
	wait_for 8 grep -q '"priorities"' "$NS_TMP/sink.out"
	grep '"priorities"' "$NS_TMP/sink.out" | jq -r \
	    ".priorities[0].window_bytes / $2 / .window_seconds | round"
	ns_cleanup; NS_LIST=""; BG_PIDS=""
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# hop MODE SIZE: "fps sent accepted delivered" for one run of one hop:
# MODE raw (generator on a0 itself), relay (bench/relay on a0, TAP dcb-a)
# or engine (engine-run --unpaced on a0, TAP dcb-a); the sink on b0.
hop() {
	ns_setup eh
	ns_add A && ns_add B
	veth_add A a0 B b0
	nsx A ip link set a0 up; nsx B ip link set b0 up
	_gif=dcb-a
	case $1 in
	raw) _gif=a0 ;;
	relay)	rm -f "$NS_TMP/ready-relay"
		bg_start A "$NS_TMP/relay.out" "$top_builddir/bench/relay" a0 dcb-a \
		    --ready "$NS_TMP/ready-relay"
		_rpid=$BG_PID
		wait_for 5 test -e "$NS_TMP/ready-relay" ;;
	engine) engine_start A a0 --tap dcb-a --unpaced --qmem 4M $ENGINE_OPTS ;;
	esac
	bg_start B "$NS_TMP/sink.out" "$ETOOL" sink b0 --duration 5000 \
	    --skip 500 --idle 1000
	wait_for 3 grep -q "sink ready" "$NS_TMP/sink.out"
	_sent=$(nsx A "$ETOOL" gen $_gif --stream 0:raw:0:0 --size "$2" \
	    --duration 2500 | jq .sent)
	wait_for 8 grep -q '"priorities"' "$NS_TMP/sink.out"
	_s=$(grep '"priorities"' "$NS_TMP/sink.out")
	case $1 in
	raw) _acc=$_sent ;;
	relay)	kill -USR1 "$_rpid"
		wait_for 3 grep -q host_in "$NS_TMP/relay.out"
		_acc=$(grep host_in "$NS_TMP/relay.out" | tail -1 | jq .host_in) ;;
	engine) _acc=$(jget "$(engine_json a0)" '[.priorities[].counters.host_in_frames] | add') ;;
	esac
	# Delivered: what b0 received (the kernel's count; the sink itself
	# may fall behind at these rates, which is not the path's loss).
	echo "$(jget "$_s" ".priorities[0].window_bytes / $2 / .window_seconds | round") $_sent $_acc $(nsx B cat /sys/class/net/b0/statistics/rx_packets)"
	ns_cleanup; NS_LIST=""; BG_PIDS=""
}

# col N: field N of each line, the median.
col() { awk -v n="$1" '{ print $n }' | median; }

printf "# one hop, host -> port (median of %s runs; load %s)\n" "$RUNS" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-22s %10s %10s %10s %10s %14s\n" "case" "frames/s" "sent" \
    "accepted" "delivered" "accepted-lost"
for size in 64 1500; do
	for m in raw relay engine; do
		for i in $(seq "$RUNS"); do hop $m "$size"; done >"/tmp/bench_hop.$$"
		f=$(col 1 <"/tmp/bench_hop.$$")
		eval "F_$m=$f"
		printf "%-22s %10s %10s %10s %10s %14s\n" "$m $size B" "$f" \
		    "$(col 2 <"/tmp/bench_hop.$$")" "$(col 3 <"/tmp/bench_hop.$$")" \
		    "$(col 4 <"/tmp/bench_hop.$$")" \
		    "$(awk '{ print $3 - $4 }' "/tmp/bench_hop.$$" | median)"
	done
	printf "%-22s %s/relay %.2f  %s/raw-veth %.2f\n" "ratios $size B" engine \
	    "$(awk -v e="$F_engine" -v b="$F_relay" 'BEGIN { print b ? e / b : 0 }')" engine \
	    "$(awk -v e="$F_engine" -v b="$F_raw" 'BEGIN { print b ? e / b : 0 }')"
done
rm -f "/tmp/bench_hop.$$"
[ -n "$HOP_ONLY" ] && exit 0
echo

printf "%-34s %12s %12s %8s\n" "case" "engine f/s" "bare f/s" "ratio"
for size in 64 1500; do
	e=$(for i in $(seq "$RUNS"); do fps engine "$size"; done | median)
	b=$(for i in $(seq "$RUNS"); do fps bare "$size"; done | median)
	printf "%-34s %12s %12s %8s\n" "tap-engine-veth-engine-tap $size B" \
	    "$e" "$b" "$(awk -v e="$e" -v b="$b" 'BEGIN { printf "%.2f", b ? e / b : 0 }')"
done

ns_setup eb
ns_add A && ns_add B
veth_add A a0 B b0
nsx A ip link set a0 up; nsx B ip link set b0 up
engine_start A a0 --tap dcb-a --speed 1G
bg_start A "$NS_TMP/gen.out" "$ETOOL" gen dcb-a --stream 3:vlan:200M:0 \
    --size 1500 --duration 30000
sleep 0.3
for i in $(seq 200); do
	nsx B "$ETOOL" pfc b0 --prio 3 --quanta 2000
	sleep 0.01
done
j=$(engine_json a0)
printf "\n%-34s %12s %12s %8s\n" "case" "p50 us" "p99 us" "samples"
printf "%-34s %12s %12s %8s\n" "pause reaction (PFC in -> last out)" \
    "$(jget "$j" '.thresholds.reaction_p50_ns / 1000 | . * 10 | round / 10')" \
    "$(jget "$j" '.thresholds.reaction_p99_ns / 1000 | . * 10 | round / 10')" \
    "$(jget "$j" .thresholds.reaction_samples)"
ns_cleanup; NS_LIST=""; BG_PIDS=""

# ETS work conservation at 100M (tests/integration/engine_ets.sh checks
# the shares only): TC 0 and TC 2 offered 90 Mb/s each, TC 1 idle; what
# the link carries against its speed, the reference.
ets_use() {
	ns_setup eb
	ns_add A && ns_add B
	veth_add A a0 B b0
	nsx A ip link set a0 up; nsx B ip link set b0 up
	engine_start A a0 --tap dcb-a --speed 100M --prio-tc 0,1,2,3,4,5,6,7 \
	    --tc-bw 50,30,20,0,0,0,0,0 --tc-tsa ets,ets,ets,ets,ets,ets,strict,ets
	bg_start B "$NS_TMP/sink.out" "$ETOOL" sink b0 --duration 2300 --skip 500
	wait_for 20 grep -q "sink ready" "$NS_TMP/sink.out"
	nsx A "$ETOOL" gen dcb-a --stream 0:vlan:90M:0 --stream 2:vlan:90M:0 \
	    --duration 2500 >/dev/null
	wait_for 20 grep -q '"priorities"' "$NS_TMP/sink.out"
	grep '"priorities"' "$NS_TMP/sink.out" | jq -r \
	    '(.priorities[0].window_bytes + .priorities[2].window_bytes) * 8 / .window_seconds / 1000000 | . * 10 | round / 10'
	ns_cleanup; NS_LIST=""; BG_PIDS=""
}
u=$(for i in $(seq "$RUNS"); do ets_use; done | median)
printf "\n%-34s %12s %12s %8s\n" "case" "Mb/s" "link Mb/s" "ratio"
printf "%-34s %12s %12s %8s\n" "ETS, TC 1 idle, 2 x 90M offered" "$u" 100 \
    "$(awk -v u="$u" 'BEGIN { printf "%.2f", u / 100 }')"
