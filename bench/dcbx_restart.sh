#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbx_restart.sh -- how long a willing server killed (-9) and started
# again, as Restart=on-failure does, takes to run the controller's policy
# again (issue 34 item 9; tests/integration/dcbx_restart.sh asserts the
# order and cause, this measures).  Both daemons run with tx-interval
# 3600 s, so the controller sends only when something makes it: the
# server's restart.  RUNS restarts (default 20) per mode, IEEE and CEE;
# each row is one mode of one binary, columns in ms:
#   start   from the exec to the server's "started" log line
#   adopt   from the exec to its "status ets peer, pfc peer" line
#   after   adopt - start: what the daemon, not the process start, costs
#   p50/max over the runs, and the spread (max - min)
# Stamps are the server's own (CLOCK_REALTIME, like date) against date's
# instant just before the exec.  DCBXD_B=path adds rows for a second
# binary in the same run (A/B: the same namespaces, interleaved runs).
# Run as root from the top of the tree:
#   top_builddir=$PWD/build-o2 bench/dcbx_restart.sh
#   DCBXD_B=/tmp/main/build-o2/daemon/dcbxd RUNS=20 bench/dcbx_restart.sh
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir/build}"
export top_srcdir top_builddir
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/ctl.sh"
DCBXD_A=${DCBXD:-$top_builddir/daemon/dcbxd}
RUNS=${RUNS:-20}
[ "$(id -u)" -eq 0 ] || { echo "needs root" >&2; exit 1; }
[ -x "$DCBXD_A" ] && [ -x "$DCBCTL" ] || { echo "build first ($top_builddir)" >&2; exit 1; }
OUT=$(mktemp -d /tmp/dcbxd-bench-restart.XXXXXX)
echo "# dcbx_restart.sh: $RUNS restarts per mode, load average at start $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
echo "# A = $DCBXD_A${DCBXD_B:+, B = $DCBXD_B}"

conf() {	# conf ROLE MODE PFC
	cat <<EOC
dcbxd: { tx-interval = 3600; tx-hold = 4; };
ports = ( { match = "r*"; role = "$1"; mode = "$2"; backend = "readonly";
  pfc = { prio-pfc = [ $3 ]; }; } );
EOC
}
lms() { log_ms "$1" "$2" "${3:-1}"; }
# Start NAME with BIN in its namespace; the pid in $PID_NAME.
start() {
	# Removed here, not by the child's redirection (which comes later):
	# a wait must never read the previous run's lines.
	rm -f "$NS_TMP/$1.sock" "$NS_TMP/$1.log"
	bg_start "$1" "$NS_TMP/$1.log" "$2" -d -c "$NS_TMP/$1.conf" \
	    -s "$NS_TMP/$1.sock"
	eval "PID_$1=$BG_PID"
}
adopted() { grep -q "status ets peer, pfc peer" "$NS_TMP/s.log"; }

# one_mode MODE BIN TAG: RUNS restarts, a line "TAG MODE start adopt" each.
one_mode() {
	ns_setup r
	ns_add c && ns_add s
	veth_add c r0c s r0s
	conf controller "$1" "3, 4" >"$NS_TMP/c.conf"
	conf willing "$1" "" >"$NS_TMP/s.conf"
	start c "$2"; start s "$2"
	wait_for 10 test -S "$NS_TMP/c.sock"
	nsx c ip link set r0c up; nsx s ip link set r0s up
	wait_for 20 adopted || echo "$3 $1 first adoption failed" >&2
	i=0
	while [ $i -lt "$RUNS" ]; do
		# The controller's fast transmissions for a new neighbour end
		# first (from then on it sends only when something makes it).
		sleep "${GAP:-5}"
		kill -KILL "$PID_s"; wait "$PID_s" 2>/dev/null
		t0=$(ms_now)
		start s "$2"
		if wait_for 20 adopted; then
			echo "$3 $1 $(( $(lms "$NS_TMP/s.log" "dcbxd .* started") - t0 )) $(( $(lms "$NS_TMP/s.log" "status ets peer, pfc peer") - t0 ))"
		else
			echo "$3 $1 -1 -1"
		fi
		i=$((i + 1))
	done
	ns_cleanup; NS_LIST=""; BG_PIDS=""
}

for m in ieee cee; do
	one_mode "$m" "$DCBXD_A" A >>"$OUT/runs"
	[ -n "$DCBXD_B" ] && one_mode "$m" "$DCBXD_B" B >>"$OUT/runs"
done
printf "%-9s %5s %8s %8s %8s %8s %8s %8s %8s\n" binary runs start adopt \
    adopt adopt after after failed
printf "%-9s %5s %8s %8s %8s %8s %8s %8s %8s\n" mode "" p50 p50 max spread \
    p50 max ""
awk '
function p50(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ k = $1 " " $2; n[k]++; s[k, n[k]] = $3; d[k, n[k]] = $4; x[k, n[k]] = $4 - $3
  if ($4 < 0) fail[k]++ }
END {
	for (k in n) {
		mx = -1; mn = 1e9; ma = -1
		for (i = 1; i <= n[k]; i++) {
			a[i] = s[k, i]; b[i] = d[k, i]; c[i] = x[k, i]
			if (b[i] > mx) mx = b[i]; if (b[i] < mn) mn = b[i]
			if (c[i] > ma) ma = c[i]
		}
		printf "%-9s %5d %8.0f %8.0f %8d %8d %8.0f %8d %8d\n", k, n[k],
		    p50(a, n[k]), p50(b, n[k]), mx, mx - mn, p50(c, n[k]), ma,
		    fail[k] + 0
	}
}' "$OUT/runs" | sort -k1,1r
echo "# raw: $OUT/runs (binary mode start adopt, ms)"
