#!/bin/sh
# bench_engine.sh -- the pause engine's data path, as a table:
#  - frames/s through TAP -> engine -> veth -> engine -> TAP, unpaced, for
#    64- and 1500-octet frames, beside the same binary in --bare mode (the
#    same reads and writes with no classification, queueing or scheduling);
#    the ratio is the engine's share of the bare relay (goal >= 0.8);
#  - pause reaction: a PFC frame's kernel arrival to the last frame of that
#    priority leaving (engine's own measurement), p50 and p99, over 200
#    pauses while priority 3 flows at 1 Gb/s pacing.
# Run as root from a build dir: sh ../bench/bench_engine.sh  (about 40 s).
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
