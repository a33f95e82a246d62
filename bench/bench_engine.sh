#!/bin/sh
# SPDX-License-Identifier: ISC
# bench_engine.sh -- the pause engine's data path as users run it, beside
# what it is measured against, in one run, modes interleaved:
#
#   veth   raw veth a0 -> b0 (noqueue), nothing of ours;
#   tree   veth with the port mode's qdisc tree left on a0, no engine;
#   port   dcbxd running the engine in port mode on a0 (its defaults:
#          paced at the link's speed, SCHED_FIFO where allowed);
#   relay  dcbxd running the engine as the relay, the host on dcb-a0;
#   bare   bench/relay, the bare single-hop TAP -> port reference.
#
# Traffic: bench/flow, blocking UDP with sendmmsg() of 64 and a recvmmsg()
# sink, 64-octet and 1514-octet frames; TCP, one stream, writes of 64
# octets (TCP_NODELAY) and of 1 MiB.  Pinned (taskset; PIN0/PIN1): the
# generator and the sink on CPU 0, dcbxd or bench/relay on CPU 1, so that
# a relay gets a CPU of its own and the veth modes run on one.  Each row is the median of ROUNDS (3) interleaved rounds, with
# the min-max spread; UDP rows count the loss of accepted datagrams (sent
# with success, never received: the path's, plus the sink socket's own
# drops, shown apart).  Ratios: port/tree (the engine's own cost on its
# tree), tree/veth (the tree's), relay/bare.
#
# Then the gate's reaction, PAUSES (1000) pauses a mode: etool gatecheck
# on b0 sends XOFF on priority 3 (65535 quanta: 3.36 ms at the veth's
# 10G), watches 2 ms, sends XON, while A's host sends priorities 3 and 0;
# from just before the XOFF to the kernel arrival stamp of the last
# priority-3 frame after it, p50/p99/max, beside the pause time and the
# engine's own figure (responder in show stats).
#
# Run as root from an -O2 build dir: sh ../bench/bench_engine.sh  (ROUNDS,
# SECS per case (3), PAUSES, SIZES, PROTOS, MODES).  The load average at
# start and end is printed: compare ratios of one run.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$(pwd)}"
export top_srcdir top_builddir
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/engine/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-3}
PAUSES=${PAUSES:-1000}
SIZES=${SIZES:-64 1514}
PROTOS=${PROTOS:-udp tcp}
MODES=${MODES:-veth tree port relay bare}
PIN0=${PIN0:-0}
PIN1=${PIN1:-1}
FLOW=$top_builddir/bench/flow
DCBXD=$top_builddir/daemon/dcbxd
DCBCTL=$top_builddir/ctl/dcbctl
OUT=$(mktemp -d /tmp/bench_engine.XXXXXX)
for b in "$FLOW" "$DCBXD" "$ERUN" "$ETOOL" "$top_builddir/bench/relay"; do
	[ -x "$b" ] || { echo "not built: $b"; exit 1; }
done

# up MODE: namespaces A and B, a0 <-> b0, and MODE's part on A; sets HOSTIF.
up() {
	ns_setup eb
	ns_add A && ns_add B
	veth_add A a0 B b0 02:00:00:00:0a:00 02:00:00:00:0b:00
	nsx A ip link set a0 up; nsx B ip link set b0 up
	nsx A ip addr add 10.7.0.1/24 dev a0; nsx B ip addr add 10.7.0.2/24 dev b0
	HOSTIF=a0
	# A relay copies frames: b0's checksums must be whole (a veth leaves
	# them to the hardware; dcbxd's relay finishes them, bench/relay not).
	case $1 in relay|bare) nsx B "$ETOOL" feature b0 \
	    tx-checksum-ip-generic off >/dev/null 2>&1 ;; esac
	case $1 in
	tree)	engine_start A a0 --mode port
		eval "kill -KILL \$EPID_a0"	# its tree stays, no engine
		sleep 0.2 ;;
	port|relay)
		cat >"$NS_TMP/d.conf" <<EOC
dcbxd: { tx-interval = 30; };
ports = ( { match = "a0"; role = "willing"; mode = "ieee";
  engine = { mode = "$1"; }; } );
EOC
		bg_start A "$NS_TMP/d.log" taskset -c "$PIN1" "$DCBXD" -d \
		    -c "$NS_TMP/d.conf" -s "$NS_TMP/d.sock"
		DPID=$BG_PID
		[ "$1" = relay ] && HOSTIF=dcb-a0
		wait_for 10 sh -c "ip netns exec $(ns_name A) ip -4 addr show dev $HOSTIF 2>/dev/null | grep -q 10.7.0.1" ;;
	bare)	nsx A ip addr del 10.7.0.1/24 dev a0
		bg_start A "$NS_TMP/relay.out" taskset -c "$PIN1" \
		    "$top_builddir/bench/relay" a0 dcb-a --ready "$NS_TMP/rdy"
		wait_for 5 test -e "$NS_TMP/rdy"
		nsx A ip addr add 10.7.0.1/24 dev dcb-a
		HOSTIF=dcb-a ;;
	esac
	# ARP once, outside the measurement.
	nsx A "$FLOW" udp-send 10.7.0.2 9 64 0.2 1 >/dev/null 2>&1
}

down() { ns_cleanup; NS_LIST=""; BG_PIDS=""; }

# one MODE PROTO SIZE: a line "MODE PROTO SIZE rate loss sockdrops reorders"
one() {
	up "$1"
	if [ "$2" = udp ]; then
		bg_start B "$NS_TMP/sink.out" taskset -c "$PIN0" "$FLOW" udp-recv \
		    5001 $((SECS + 5))
		wait_for 5 grep -q "flow ready" "$NS_TMP/sink.out"
		s=$(nsx A timeout $((SECS + 10)) taskset -c "$PIN0" "$FLOW" \
		    udp-send 10.7.0.2 5001 $(($3 - 42)) "$SECS" 64 | jq .sent)
		[ -n "$s" ] || s=0
		wait_for $((SECS + 8)) grep -q received "$NS_TMP/sink.out"
		r=$(grep received "$NS_TMP/sink.out")
		# Of the lost, the TAP's ring's (relay, bare: the kernel counts).
		# (dcbxd's count leaves out its own probe of the ring.)
		rd=0
		[ "$1" = bare ] && rd=$(nsx A cat "/sys/class/net/$HOSTIF/statistics/tx_dropped")
		if [ "$1" = relay ]; then
			"$DCBCTL" -s "$NS_TMP/d.sock" -j show stats dev a0 |
			    jq -c '.[0].engine | [.host_side, .port_counters]' >>"$OUT/relay.stats"
			rd=$(jq -s '.[-1][0].tap_ring_drops' "$OUT/relay.stats")
		fi
		echo "$1 $2 $3 $(jget "$r" .pps) $((s - $(jget "$r" .received))) $(jget "$r" .sock_drops) $(jget "$r" .reorders) $rd"
	else
		w=1048576; nd=""
		[ "$3" -le 64 ] && { w=64; nd=nodelay; }
		bg_start B "$NS_TMP/sink.out" timeout $((SECS + 10)) \
		    taskset -c "$PIN0" "$FLOW" tcp-recv 5002 $((SECS + 5))
		wait_for 5 grep -q "flow ready" "$NS_TMP/sink.out"
		nsx A timeout $((SECS + 10)) taskset -c "$PIN0" "$FLOW" tcp-send \
		    10.7.0.2 5002 $w "$SECS" $nd >/dev/null
		wait_for $((SECS + 8)) grep -q bps "$NS_TMP/sink.out"
		r=$(grep bps "$NS_TMP/sink.out")
		echo "$1 $2 $3 $(jget "$r" .bps) 0 0 0 0"
	fi
	down
}

# Medians and spread of the rounds' column 4 for MODE PROTO SIZE.
stat() {
	awk -v m="$1" -v p="$2" -v z="$3" '$1 == m && $2 == p && $3 == z {
	    v[n++] = $4; l[k++] = $5; d[j++] = $6; o[q++] = $7; g[w++] = $8 }
	    function med(a, c,   i, t, s) { for (i = 0; i < c; i++) s[i] = a[i]
	        for (i = 0; i < c; i++) for (t = i + 1; t < c; t++)
	            if (s[t] < s[i]) { x = s[i]; s[i] = s[t]; s[t] = x }
	        return s[int((c - 1) / 2)] }
	    END { if (n == 0) { print "- - - - - - -"; exit }
	        lo = v[0]; hi = v[0]; for (i = 1; i < n; i++) {
	            if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
	        printf "%.0f %.0f %.0f %.0f %.0f %.0f %.0f\n", med(v, n), lo, hi,
	            med(l, k), med(d, j), med(o, q), med(g, w) }' "$OUT/rows"
}

echo "# bench_engine.sh: $ROUNDS rounds x ${SECS}s, pinned gen and sink CPU $PIN0, daemon/relay CPU $PIN1; load $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$OUT/rows"
round=1
while [ $round -le "$ROUNDS" ]; do
	for z in $SIZES; do for p in $PROTOS; do for m in $MODES; do
		one "$m" "$p" "$z" >>"$OUT/rows" 2>/dev/null ||
		    echo "$m $p $z 0 0 0 0 0" >>"$OUT/rows"
	done; done; done
	round=$((round + 1))
done
printf "%-6s %-4s %5s %14s %22s %10s %10s %10s %8s\n" mode prot size \
    "rate (p|b)/s" "min-max" "lost" "sockdrop" "tapring" "reorder"
for z in $SIZES; do for p in $PROTOS; do
	for m in $MODES; do
		set -- $(stat "$m" "$p" "$z")
		eval "R_$m=$1"
		printf "%-6s %-4s %5s %14s %22s %10s %10s %10s %8s\n" "$m" "$p" \
		    "$z" "$1" "$2-$3" "$4" "$5" "$7" "$6"
	done
	printf "%-11s %5s  port/tree %.2f  tree/veth %.2f  port/veth %.2f  relay/bare %.2f\n" \
	    "ratios $p" "$z" \
	    "$(awk -v a="${R_port:-0}" -v b="${R_tree:-0}" 'BEGIN { print b ? a / b : 0 }')" \
	    "$(awk -v a="${R_tree:-0}" -v b="${R_veth:-0}" 'BEGIN { print b ? a / b : 0 }')" \
	    "$(awk -v a="${R_port:-0}" -v b="${R_veth:-0}" 'BEGIN { print b ? a / b : 0 }')" \
	    "$(awk -v a="${R_relay:-0}" -v b="${R_bare:-0}" 'BEGIN { print b ? a / b : 0 }')"
done; done
echo "(udp: datagrams/s at the sink; tcp: b/s; lost: sent with success, never received; of those, sockdrop: the sink socket's own, tapring: dropped by the TAP's ring)"
echo

# The gate's reaction: a controller's PFC on priority 3, its own policy.
printf "%-6s %9s %9s %9s %9s %9s %7s %9s %9s %9s %9s\n" mode "p50 us" \
    "p99 us" "max us" "resume50" "resume99" "frames" "eng p50" "eng p99" \
    "eng max" "pause us"
for m in port relay; do
	ns_setup eg; ns_add A && ns_add B
	veth_add A a0 B b0 02:00:00:00:0a:00 02:00:00:00:0b:00
	nsx A ip link set a0 up; nsx B ip link set b0 up
	cat >"$NS_TMP/d.conf" <<EOC
dcbxd: { tx-interval = 30; };
ports = ( { match = "a0"; role = "controller"; mode = "ieee";
  pfc = { prio-pfc = [3]; }; engine = { mode = "$m"; }; } );
EOC
	bg_start A "$NS_TMP/d.log" taskset -c "$PIN1" "$DCBXD" -d -c "$NS_TMP/d.conf" \
	    -s "$NS_TMP/d.sock"
	_if=a0; [ "$m" = relay ] && _if=dcb-a0
	wait_for 10 sh -c "ip netns exec $(ns_name A) ip link show $_if >/dev/null 2>&1"
	nsx A ip link set "$_if" up
	bg_start A "$NS_TMP/gen.out" taskset -c "$PIN0" "$ETOOL" gen "$_if" \
	    --stream 3:vlan:200M:0 --stream 0:vlan:200M:0 --size 1500 \
	    --duration 600000
	sleep 0.5
	g=$(nsx B taskset -c "$PIN0" "$ETOOL" gatecheck b0 --prio 3 --other 0 \
	    --pauses "$PAUSES" --quanta 65535 --hold-us 2000)
	e=$("$DCBCTL" -s "$NS_TMP/d.sock" -j show stats dev a0 | jq -c '.[0].engine.responder')
	printf "%-6s %9s %9s %9s %9s %9s %7s %9s %9s %9s %9s\n" "$m" \
	    "$(jget "$g" .reaction_p50_us)" "$(jget "$g" .reaction_p99_us)" \
	    "$(jget "$g" .reaction_max_us)" "$(jget "$g" .resume_p50_us)" \
	    "$(jget "$g" .resume_p99_us)" "$(jget "$g" .after_xoff_mean)" \
	    "$(jget "$e" '.reaction_p50_ns / 1000 | floor')" \
	    "$(jget "$e" '.reaction_p99_ns / 1000 | floor')" \
	    "$(jget "$e" '.reaction_max_ns / 1000 | floor')" 3355
	echo "#   $m: peer headroom $(jget "$e" .peer_headroom_bytes) octets for this responder ($(jget "$e" .response_quanta) quanta), $(jget "$e" .peer_headroom_8023_bytes) for 802.3's"
	down
done
echo "(gatecheck on b0, $PAUSES pauses of 65535 quanta at 10G = 3355 us, each held 2 ms; frames: priority-3 frames after each XOFF, mean; eng: the engine's own, PFC arrival to gate held (port) / last frame sent (relay))"
echo "# load at end $(cut -d' ' -f1-3 /proc/loadavg)"
cp "$OUT/rows" /tmp/bench_engine.rows 2>/dev/null
cp "$OUT/relay.stats" /tmp/bench_engine.relay 2>/dev/null
rm -rf "$OUT"
