#!/bin/sh
# SPDX-License-Identifier: ISC
# event_latency.sh -- how long dcbxd takes to react, as a table: the
# latencies the integration tests no longer assert (they check order and
# causality; a busy machine makes any figure late).  Two dcbxd in
# namespaces joined by a veth (a controller with a policy, a willing
# server), RUNS times:
#   link-up -> neighbour        the server's "new neighbour"
#   link-up -> policy adopted   its "status ets peer, pfc peer, ..."
#   SIGHUP -> peer follows      its next "operational config changed"
#   SIGTERM -> neighbour gone   its "neighbour shut down"
# Each row gives the median, over the runs, of the time from just before
# the trigger (ip link set, kill) to the server's log line (the daemons
# stamp with CLOCK_REALTIME, like date), and, as the reference measured in
# the same run, what a poller sees (dcbctl -j every 20 ms from the same
# instant): the gap is the cost of looking, not of dcbxd.  The server's
# "link up" itself often is the LLDPDU's arrival (the kernel reports the
# carrier later), which is why no row starts from it.
# Run as root from the top of the tree: top_builddir=$PWD/build-rel
# bench/event_latency.sh   (env RUNS, default 5).
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir/build}"
export top_srcdir top_builddir
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/ctl.sh"
DCBXD=${DCBXD:-$top_builddir/daemon/dcbxd}
RUNS=${RUNS:-5}
[ "$(id -u)" -eq 0 ] || { echo "needs root" >&2; exit 1; }
[ -x "$DCBXD" ] && [ -x "$DCBCTL" ] || { echo "build first ($top_builddir)" >&2; exit 1; }
command -v jq >/dev/null || { echo "needs jq" >&2; exit 1; }
OUT=$(mktemp -d /tmp/dcbxd-bench-lat.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
echo "# event_latency.sh: $RUNS runs, load average at start $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"

conf() {	# conf ROLE PFC
	cat <<EOC
dcbxd: { tx-interval = 30; tx-hold = 4; };
ports = ( { match = "l*"; role = "$1"; mode = "ieee"; backend = "readonly";
  pfc = { prio-pfc = [ $2 ]; }; } );
EOC
}
# poll_ms T0_MS SOCK FILTER ARGS...: ms from T0 until FILTER holds (10 ms polls).
poll_ms() {
	_t0=$1; shift
	wait_for 30 ctl_jq "$@" || { echo -1; return; }
	echo $(( $(ms_now) - _t0 ))
}
lms() { log_ms "$1" "$2" "${3:-1}"; }

one_run() {
	ns_setup l
	ns_add c && ns_add s
	veth_add c l0c s l0s
	conf controller "3, 4" >"$NS_TMP/c.conf"; conf willing "" >"$NS_TMP/s.conf"
	for n in c s; do
		bg_start $n "$NS_TMP/$n.log" "$DCBXD" -d -c "$NS_TMP/$n.conf" -s "$NS_TMP/$n.sock"
		wait_for 10 test -S "$NS_TMP/$n.sock"
	done
	S=$NS_TMP/s.sock
	nsx c ip link set l0c up
	t0=$(ms_now)
	nsx s ip link set l0s up
	pn=$(poll_ms "$t0" "$S" 'length == 1' show neighbors)
	pa=$(poll_ms "$t0" "$S" '.pfc.status == "peer"' show dcbx dev l0s)
	echo "neighbour $(( $(lms "$NS_TMP/s.log" "new neighbour") - t0 )) $pn"
	echo "adopted $(( $(lms "$NS_TMP/s.log" "status ets peer, pfc peer") - t0 )) $pa"
	conf controller "3" >"$NS_TMP/c.conf"
	n0=$(grep -c "operational config changed" "$NS_TMP/s.log")
	t0=$(ms_now)
	kill -HUP "$(ip netns pids "$(ns_name c)" | head -1)"
	p=$(poll_ms "$t0" "$S" '.pfc.oper.prio_pfc[4] == false and .pfc.oper.prio_pfc[3]' show dcbx dev l0s)
	wait_for 10 sh -c "[ \$(grep -c 'operational config changed' '$NS_TMP/s.log') -gt $n0 ]"
	echo "follows $(( $(lms "$NS_TMP/s.log" "operational config changed" $((n0 + 1))) - t0 )) $p"
	t0=$(ms_now)
	kill -TERM "$(ip netns pids "$(ns_name c)" | head -1)"
	p=$(poll_ms "$t0" "$S" 'length == 0' show neighbors)
	wait_for 10 grep -q "neighbour shut down" "$NS_TMP/s.log"
	echo "gone $(( $(lms "$NS_TMP/s.log" "neighbour shut down") - t0 )) $p"
	ns_cleanup; NS_LIST=""; BG_PIDS=""
}

i=0
while [ $i -lt "$RUNS" ]; do one_run >>"$OUT/rows"; i=$((i + 1)); done
med() { awk -v k="$1" -v f="$2" '$1 == k { print $f }' "$OUT/rows" | sort -n |
    awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }'; }
printf "%-28s %14s %14s %5s\n" "event (ms from trigger)" "dcbxd_log" "poller" "runs"
for e in "neighbour:link-up -> neighbour" "adopted:link-up -> policy adopted" \
    "follows:SIGHUP -> peer follows" "gone:SIGTERM -> neighbour gone"; do
	k=${e%%:*}
	printf "%-28s %14s %14s %5s\n" "${e#*:}" "$(med "$k" 2)" "$(med "$k" 3)" \
	    "$(grep -c "^$k " "$OUT/rows")"
done
echo "# load average at end $(cut -d' ' -f1-3 /proc/loadavg)"
