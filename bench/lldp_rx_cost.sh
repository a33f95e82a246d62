#!/bin/sh
# SPDX-License-Identifier: ISC
# lldp_rx_cost.sh -- CPU per received LLDPDU, dcbxd beside lldpd: the
# daemon's own and the kernel's receive work for it.
#
# One sender namespace floods three veth links at a fixed rate for a
# bounded time (bench/lldp-flood): one ends at dcbxd (a willing port, mode
# auto), one at lldpd, one in a namespace with no daemon at all (the
# baseline).  The daemons' links are flooded in turn, never at once; the
# baseline link gets the same frames in the same run, interleaved frame
# by frame with the daemon's (a baseline from a separate run drifted by
# more than dcbxd's whole kernel share, +-1.5 us at 1k/s).  Per run:
#   daemon   CPU of the daemon's processes (schedstat, ns), before/after;
#   kernel   the sender's thread CPU inside send() (lldp-flood sums it):
#            on a veth the receiver's softirq -- netif_rx, the packet taps
#            and their filters, the fanout steering, the copy into a socket
#            queue or a packet ring, the wakeup -- runs in the sender's
#            context when the send re-enables bottom halves, and this
#            kernel has no IRQ_TIME_ACCOUNTING, so that time is the
#            sender's.  Minus the same per frame on the baseline link
#            in the same run (sending, and a veth with no tap).
# each divided by the PDUs the daemon counted (dcbxd statsFramesInTotal,
# lldpd "rx").  total = daemon + kernel; ratio = dcbxd/lldpd of totals;
# krn/ll = dcbxd's kernel share alone over lldpd's total: the ratio's
# floor for a flood whose every frame must reach dcbxd (a changing PDU),
# however little dcbxd itself then does with it.
# Limits: softirq work deferred to ksoftirqd is not counted (its CPU is
# logged, system-wide: on a shared box other load dominates it, 4-19 ms
# a second in trials, too noisy to subtract); nor the block-retire timer
# of a packet ring (timer softirq, 2 a second per ring); the wakeup of an
# idle CPU is partly paid by that CPU's idle task, counted for neither.

# The 100 neighbours' case sends TTL 1, and each case starts once dcbxd
# holds at most one neighbour: with the 100 still there (TTL 120) the
# cases after it measured no DCBX at all -- several neighbours on a port
# make dcbxd ignore their DCBX TLVs, an unchanged result it skips at once
# -- and "IEEE/CEE changing" looked 4-5x cheaper than it is.
#
# Cases: the same PDU again and again, and PDUs whose content changes
# every time (-v: the System Description; with DCBX TLVs also the DCBX
# content, alternating between two configurations, so every PDU is a DCBX
# change for a willing port), with basic TLVs only, with IEEE DCBX (ETS
# Config + Recommendation + PFC + APP of 20) and with CEE DCBX.  Each
# figure is the median of RUNS runs after one warm-up run; the spread
# (min-max of the totals) is printed too.
#
# Latency (LATENCY=1, default): while the IEEE/CEE flood runs at each rate,
# the sender switches to the other DCBX configuration; a poller (show-dcbx
# every 2 ms) reports how long until dcbxd's operational PFC follows.
#
# Usage: sudo bench/lldp_rx_cost.sh [--json]
#   env: RATES (frames/s, "10000 1000": every case at each), SECS (per
#        run, 2; at least 4 below 5000/s), RUNS (3), CASES (see below),
#        (empty: latency only), LATENCY (1), DXCONF (dcbxd's global
#        settings: "repeat-filter = false;" measures the ring without its
#        repeat filter), top_builddir (the build with daemon/dcbxd and
#        bench/lldp-flood)
# Goal (issue 18): dcbxd's total at most a tenth of lldpd's.

. "$(cd "$(dirname "$0")" && pwd)/lldp_bench_lib.sh"
RATES=${RATES:-${RATE:-10000 1000}}
SECS=${SECS:-2}
RUNS=${RUNS:-3}
LATENCY=${LATENCY:-1}
# name|neighbours|lldp-flood flags
CASES=${CASES-"basic, same PDU|1|
basic, changing PDU|1|-v
basic, changing, 100 nbrs|100|-v -T 1
IEEE DCBX, same PDU|1|-d ieee
IEEE DCBX, changing|1|-d ieee -v
CEE DCBX, same PDU|1|-d cee
CEE DCBX, changing|1|-d cee -v"}
bl_init "${1:-}"
bl_flood_setup 1000
ns_add nut || bl_die "namespace"
veth_add src bfn nut bn0 || bl_die "veth"
ip -n "$(ns_name src)" link set bfn up
ip -n "$(ns_name nut)" link set bn0 up

# rx_ksoftirqd: ns of CPU used so far by the ksoftirqd threads.
rx_ksoftirqd() {
	_t=0
	for _p in $(pgrep -x 'ksoftirqd/[0-9]*'); do
		read -r _ns _rest <"/proc/$_p/schedstat" 2>/dev/null && _t=$((_t + _ns))
	done
	echo "$_t"
}

# rx_count DAEMON: PDUs counted so far.
rx_count() {
	case $1 in
	dcbxd) bl_dx_stat dx bd0 statsFramesInTotal ;;
	lldpd) bl_ll_stat lut ll bl0 rx ;;
	esac
}

# rx_run DAEMON NBRS FLOOD-FLAGS: one run, the daemon's link and the
# baseline interleaved; prints "daemon_ns send_ns base_send_ns
# ksoftirqd_ns counted sent base_sent tx".
rx_run() {
	case $1 in
	dcbxd) _ns=dut; _if=bfd ;;
	lldpd) _ns=lut; _if=bfl ;;
	esac
	_r0=$(rx_count "$1")
	_t0=0; [ "$1" = dcbxd ] && _t0=$(bl_dx_stat dx bd0 statsFramesOutTotal)
	_c0=$(bl_cpu "$_ns"); _k0=$(rx_ksoftirqd)
	_o=$(nsx src "$FLOOD" -i "$_if" -i bfn -n "$2" -r "$RATE" -t "$SECS" $3)
	sleep 0.6			# let the daemon drain (ring blocks: 500 ms)
	_c1=$(bl_cpu "$_ns"); _k1=$(rx_ksoftirqd)
	_r1=$(rx_count "$1")
	_t1=0; [ "$1" = dcbxd ] && _t1=$(bl_dx_stat dx bd0 statsFramesOutTotal)
	_s=$(echo "$_o" | awk -v i="$_if" '$15 == i { print $11, $2 }')
	_b=$(echo "$_o" | awk '$15 == "bfn" { print $11, $2 }')
	set -- $_s $_b
	echo "$((_c1 - _c0)) $1 $3 $((_k1 - _k0)) $((_r1 - _r0)) $2 $4" \
	    "$((_t1 - _t0))"
}

# rx_case NAME NBRS FLOOD-FLAGS: warm-up, then RUNS runs of each.
rx_case() {
	bl_wait 10 ctl_jq "$NS_TMP/dx.sock" 'length <= 1' show neighbors ||
	    bl_log "$1: dcbxd still holds $(ctl "$NS_TMP/dx.sock" show neighbors |
	    jq length) neighbours from the case before"
	rx_run dcbxd "$2" "$3" >/dev/null
	rx_run lldpd "$2" "$3" >/dev/null
	: >"$NS_TMP/runs"
	_lost=0; _dtx=0
	for _i in $(seq "$RUNS"); do
		_d=$(rx_run dcbxd "$2" "$3")
		_l=$(rx_run lldpd "$2" "$3")
		bl_log "raw (daemon_ns send_ns base_send_ns ksoftirqd_ns counted sent base_sent tx): dcbxd $_d; lldpd $_l"
		# us per PDU: daemon, kernel, total, for dcbxd then lldpd; the
		# kernel's share: the send to the daemon's link minus the send
		# to the baseline link, each per frame sent, in the same run
		echo "$_d $_l" | awk '{
		    if ($5 == 0) $5 = 1; if ($13 == 0) $13 = 1
		    if ($7 == 0) $7 = 1; if ($15 == 0) $15 = 1
		    dd = $1 / $5 / 1e3; dk = ($2 / $6 - $3 / $7) / 1e3
		    ld = $9 / $13 / 1e3; lk = ($10 / $14 - $11 / $15) / 1e3
		    printf "%.3f %.3f %.3f %.3f %.3f %.3f %d %d\n", dd, dk, dd + dk,
		        ld, lk, ld + lk, ($6 - $5) + ($14 - $13), $8 }' >>"$NS_TMP/runs"
		bl_log "$1 @$RATE/s run $_i: $(tail -1 "$NS_TMP/runs" | awk '{
		    printf "dcbxd %s+%s us, lldpd %s+%s us, lost %s, dcbxd sent %s", $1, $2, $4, $5, $7, $8 }')"
	done
	_m() { bl_median $(cut -d' ' -f"$1" "$NS_TMP/runs"); }
	_sp() { bl_spread $(cut -d' ' -f"$1" "$NS_TMP/runs"); }
	_lost=$(awk '{ s += $7 } END { print s }' "$NS_TMP/runs")
	_dtx=$(_m 8)
	_tdx=$(_m 3); _tll=$(_m 6); _rat=$(bl_ratio "$_tdx" "$_tll")
	bl_row "$1" "$RATE" "$(_m 1)" "$(_m 2)" "$_tdx" "$(_sp 3)" "$(_m 4)" \
	    "$(_m 5)" "$_tll" "$(_sp 6)" "$_rat" "$(bl_ratio "$(_m 2)" "$_tll")" \
	    "$_lost" "$_dtx" \
	    "$(awk -v r="$_rat" 'BEGIN { print (r != "-" && r <= 0.1) ? "yes" : "NO" }')"
}

# rx_latency FLAGS RATE AT: flood variant 0, switch to variant 1 after AT
# s; ms until dcbxd's operational PFC follows (show-dcbx every 2 ms).
# The runs spread AT over half a second, the ring's block timeout: with
# one fixed AT every run met a block at the same phase (76-78 ms three
# times), which says nothing of the spread.
rx_latency() {
	case $1 in
	*ieee*) _want=3 ;;		# variant 1: PFC on 3 only
	*) _want=3,4 ;;			# CEE variant 1: on 3 and 4
	esac
	# A carrier bounce first: "auto" stays in CEE once it saw CEE, until
	# the link goes down (like lldpad).  Down until dcbxd has seen it:
	# both ends of these veths have ifindex 2 in their namespaces, so the
	# kernel's linkwatch treats their carrier changes as not urgent and
	# reports them up to a second late, in one message with the state at
	# that time -- a 0.2 s bounce was often reported as "up" alone, and
	# the IEEE run after a CEE one then never saw its change.
	ip -n "$(ns_name src)" link set bfd down
	bl_wait 5 ctl_jq "$NS_TMP/dx.sock" \
	    'INDEX(.ifname) | .bd0.link == "down" and .bd0.active != "cee"' \
	    show ports || bl_log "dcbxd did not see bd0 go down within 5 s:" \
	    "$(ctl "$NS_TMP/dx.sock" show ports | jq -c '.[0] | {link, active}')" \
	    "$(tail -5 "$NS_TMP/dx.log" | tr '\n' '|')"
	ip -n "$(ns_name src)" link set bfd up
	bl_wait 5 ctl_jq "$NS_TMP/dx.sock" 'INDEX(.ifname) | .bd0.link == "up"' \
	    show ports || bl_log "dcbxd did not see bd0 come up within 5 s"
	sleep 1.5
	nsx src "$FLOOD" -i bfd -r "$2" -t 3 -S "$3" $1 >"$NS_TMP/lat.out" &
	_f=$!
	python3 - "$NS_TMP/dx.sock" "$_want" 5 >"$NS_TMP/lat.seen" 2>"$NS_TMP/lat.err" <<'EOP'
import json, socket, sys, time
path, want, limit = sys.argv[1], [int(x) for x in sys.argv[2].split(",")], float(sys.argv[3])
end = time.time() + limit
seen = 0
while time.time() < end:
    s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(path)
    s.sendall(b'{"cmd":"show-dcbx","args":{"dev":"bd0"}}\n')
    r = json.loads(s.makefile().readline()); s.close()
    t = time.time_ns()
    res = r.get("result")
    d = res[0] if isinstance(res, list) else res
    f = (d or {}).get("pfc", {}).get("oper")
    if f and [i for i in range(8) if f["prio_pfc"][i]] == want:
        seen = t
        break
    time.sleep(0.002)
print(seen)
EOP
	wait "$_f"
	_sw=$(awk '{ print $13 }' "$NS_TMP/lat.out"); _seen=$(cat "$NS_TMP/lat.seen")
	if [ "${_seen:-0}" = 0 ] || [ "${_sw:-0}" = 0 ]; then echo timeout
	else echo $(( (_seen - _sw) / 1000000 )); fi
	sleep 3.5			# the ring (if any) closes; the next run starts alike
}

SECS0=$SECS
: >"$NS_TMP/lat"
for RATE in $RATES; do
	SECS=$SECS0
	[ "$RATE" -lt 5000 ] && [ "$SECS" -lt 4 ] && SECS=4
	echo "$CASES" | while IFS='|' read -r _name _n _flags; do
		[ -n "$_name" ] && rx_case "$_name" "$_n" "$_flags" </dev/null
	done
	if [ "$LATENCY" = 1 ]; then
		for _d in ieee cee; do
			_l=""
			for _i in $(seq "$RUNS"); do
				_at=$(awk -v i="$_i" -v n="$RUNS" 'BEGIN { printf "%.3f", 1.5 + 0.5 * (i - 0.5) / n }')
				_l="$_l $(rx_latency "-d $_d" "$RATE" "$_at")"
			done
			bl_log "DCBX change under a $RATE/s $_d flood: ms$_l"
			echo "$_d	$RATE	$(bl_median $(echo "$_l" | sed 's/timeout/999999/g'))	$_l" >>"$NS_TMP/lat"
		done
	fi
done

bl_print "CPU per received LLDPDU, us: daemon + kernel (receive softirq) = total; median of $RUNS runs ($SECS0 s, at least 4 s below 5000/s); spread: min-max of the totals" \
    "case:26,rate/s:6,dx_dmn:7,dx_krn:7,dx_tot:7,dx_spread:12,ll_dmn:7,ll_krn:7,ll_tot:7,ll_spread:13,ratio:6,krn/ll:6,lost:5,dx_tx:5,<=0.1:5"
if [ -s "$NS_TMP/lat" ]; then
	: >"$BL_ROWS"
	while IFS='	' read -r _d _r _m _all; do bl_row "$_d" "$_r" "$_m" "$_all"; done <"$NS_TMP/lat"
	bl_print "a DCBX change during a flood of the same PDU: ms from the switch until dcbxd's operational PFC follows (median of $RUNS, the switch 1.5-2 s into the flood; poll every 2 ms)" \
	    "dcbx:5,rate/s:7,median_ms:10,runs_ms:24"
fi
