#!/bin/sh
# SPDX-License-Identifier: ISC
# pfcwd_latency.sh -- the PFC watchdog's detection and restoration latency on
# an engine port, as a table beside its reference bound (SONiC's: the storm
# is detected within detection-time plus one poll, restored within
# restoration-time plus one poll).
#
# dcbxd runs the pause engine on hp0 (100 Mb/s) with PFC on priority 3; the
# host sends priority 3; the peer storms XOFF 65535 every 10 ms (etool pfc
# --every) for STORM ms.  Detection latency: the storm's first frame
# (CLOCK_REALTIME from etool) to the daemon's "PFC storm" log line; restoration
# latency: the storm's last frame to "is over".  Each case is a SIGHUP of the
# same daemon; RUNS storms per case; median and max.
# Run as root from a build dir: sh ../bench/pfcwd_latency.sh   (about 1 min)
# env: RUNS (3), STORM (1500 ms), CASES ("detect/restore/poll ...").
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$(pwd)}"
export top_srcdir top_builddir
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
. "$top_srcdir/tests/engine/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
RUNS=${RUNS:-3}
STORM=${STORM:-1500}
CASES=${CASES:-"100/100/100 200/400/100 200/400/50 500/1000/100 1000/2000/200"}

ns_setup wb >/dev/null
ns_add h && ns_add p && veth_add h hp0 p pp0 || { echo "no namespaces"; exit 1; }
conf() {	# conf DETECT RESTORE POLL
	dx_conf "$NS_TMP/h.conf" 5 2 "pfc-watchdog-poll = $3;" "{ match = \"hp0\";
    role = \"controller\"; mode = \"ieee\"; pfc = { prio-pfc = [3]; };
    engine = { speed = \"100M\"; stall-timeout = 60000; };
    pfc-watchdog = { action = \"drop\"; detection-time = $1; restoration-time = $2; }; }"
}
conf 200 400 100
dx_start h h "$NS_TMP/h.conf" || { echo "dcbxd did not start"; exit 1; }
nsx h ip link set hp0 up; nsx p ip link set pp0 up
wait_for 10 nsx h ip link set dcb-hp0 up || { echo "no TAP"; exit 1; }
status() {
	"$top_builddir/ctl/dcbctl" -s "$NS_TMP/h.sock" -j show pfcwd dev hp0 |
	    jq -r '.[0] | "\(.status) \(.detection_time) \(.storms_restored)"'
}

# one DETECT RESTORE POLL: one storm; prints "detect_ms restore_ms".
one() {
	_n0=$(grep -c 'PFC storm on priority 3: the' "$NS_TMP/h.log")
	_r0=$(grep -c 'priority 3 is over' "$NS_TMP/h.log")
	bg_start h "$NS_TMP/gen.out" "$ETOOL" gen dcb-hp0 --stream 3:vlan:20M:0 \
	    --duration $((STORM + $2 + 1500))
	_gen=$BG_PID
	sleep 0.2
	nsx p "$ETOOL" pfc pp0 --prio 3 --quanta 65535 --every 10 \
	    --duration "$STORM" > "$NS_TMP/storm.out"
	over() { [ "$(grep -c 'priority 3 is over' "$NS_TMP/h.log")" -gt "$_r0" ]; }
	wait_for $(( ($2 + 3000) / 1000 + 2 )) over
	wait "$_gen"
	/usr/bin/python3 - "$NS_TMP/h.log" "$NS_TMP/storm.out" "$_n0" "$_r0" <<'EOP'
import json, sys
log, st, n0, r0 = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3]), int(sys.argv[4])
d = [float(l.split()[0]) for l in open(log) if 'PFC storm on priority 3: the' in l]
r = [float(l.split()[0]) for l in open(log) if 'priority 3 is over' in l]
det = (d[n0] - st['start']) * 1000 if len(d) > n0 else float('nan')
res = (r[r0] - st['end']) * 1000 if len(r) > r0 else float('nan')
print("%.1f %.1f" % (det, res))
EOP
}

echo "# load: $(cut -d' ' -f1-3 /proc/loadavg)  runs: $RUNS  storm: $STORM ms (XOFF 65535 every 10 ms, engine at 100M)"
printf '%-8s %-8s %-6s | %-10s %-10s %-10s %-6s | %-10s %-10s %-10s %-6s\n' \
    detect restore poll det_p50 det_max det_bound ratio res_p50 res_max \
    res_bound ratio
for c in $CASES; do
	d=${c%%/*}; r=${c#*/}; r=${r%%/*}; p=${c##*/}
	conf "$d" "$r" "$p"
	kill -HUP "$PID_h"
	wait_for 5 sh -c "[ \"\$(\"$top_builddir/ctl/dcbctl\" -s $NS_TMP/h.sock -j show pfcwd dev hp0 | jq '.[0].detection_time')\" = $d ]"
	sleep 0.5
	i=0; : > "$NS_TMP/rows"
	while [ "$i" -lt "$RUNS" ]; do
		one "$d" "$r" "$p" | tee -a "$NS_TMP/rows" | sed 's/^/# run: /' >&2
		i=$((i + 1))
	done
	/usr/bin/python3 - "$NS_TMP/rows" "$d" "$r" "$p" <<'EOP'
import statistics, sys
import math
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
d, r, p = (int(x) for x in sys.argv[2:5])
det = [float(x[0]) for x in rows if not math.isnan(float(x[0]))]
res = [float(x[1]) for x in rows if not math.isnan(float(x[1]))]
miss = len(rows) - min(len(det), len(res))
md = statistics.median(det) if det else float('nan')
mr = statistics.median(res) if res else float('nan')
print("%-8d %-8d %-6d | %-10.1f %-10.1f %-10d %-6.2f | %-10.1f %-10.1f %-10d %-6.2f %s" % (
    d, r, p, md, max(det or [md]), d + p, md / (d + p), mr, max(res or [mr]),
    r + p, mr / (r + p), "(%d of %d storms not seen)" % (miss, len(rows)) if miss else ""))
EOP
done
echo "# polls with no new engine sample (step skipped): $("$top_builddir/ctl/dcbctl" -s "$NS_TMP/h.sock" -j show pfcwd dev hp0 | jq '.[0].sample_skips')"
echo "# load: $(cut -d' ' -f1-3 /proc/loadavg)"
