# SPDX-License-Identifier: ISC
# lib.sh -- helpers for the engine's shell tests and benchmarks (sourced
# after tests/lib/tap.sh and tests/lib/netns.sh).
ERUN="$top_builddir/tests/engine/engine-run"
ETOOL="$top_builddir/tests/engine/etool"

engine_need() {
	need_root
	need_cmd ip jq
	[ -x "$ERUN" ] && [ -x "$ETOOL" ] || skip_all "engine-run/etool not built"
	[ -c /dev/net/tun ] || skip_all "no /dev/net/tun"
}

# sockapp_need: the socket applications (tests/engine/sockapp.py) run by
# /usr/bin/python3 as $PY "$APP" (python3 on PATH may be a slow shim).
sockapp_need() {
	PY=/usr/bin/python3
	[ -x $PY ] || skip_all "no /usr/bin/python3"
	APP="$top_srcdir/tests/engine/sockapp.py"
}

# two_ns: namespaces A and B joined by veth a0 <-> b0, both up.
two_ns() {
	ns_setup "$1" || bail "ns_setup"
	ns_add A && ns_add B || bail "ip netns add"
	veth_add A a0 B b0 02:00:00:00:0a:00 02:00:00:00:0b:00 || bail "veth"
	nsx A ip link set a0 up && nsx B ip link set b0 up
}

# The mode a test runs the engine in: ENGINE_MODE=port (on a0 itself) or
# relay (the default, the TAP dcb-a).  host_if: where A's host sends.
ENGINE_MODE=${ENGINE_MODE:-relay}
if [ "$ENGINE_MODE" = port ]; then
	ENGINE_ARGS="--mode port"
	HOST_A=a0
else
	ENGINE_ARGS="--tap dcb-a"
	HOST_A=dcb-a
fi

# engine_start NS IF ARGS...: engine-run on IF in NS; waits until ready.
engine_start() {
	_ns=$1 _if=$2; shift 2
	rm -f "$NS_TMP/ready-$_if"
	bg_start "$_ns" "$NS_TMP/eng-$_if.out" "$ERUN" "$_if" \
	    --ready "$NS_TMP/ready-$_if" "$@"
	eval "EPID_$_if=$BG_PID"
	wait_for 20 test -e "$NS_TMP/ready-$_if"
}

# engine_json IF: a fresh show() of the engine on IF, on stdout.
engine_json() {
	eval "_pid=\$EPID_$1"
	_n=$(grep -c '^{"port"' "$NS_TMP/eng-$1.out" 2>/dev/null)
	kill -USR1 "$_pid" 2>/dev/null
	# (The count is read again on every poll: a stale line is no answer.)
	wait_for 20 sh -c '[ "$(grep -c "^{\"port\"" "$1")" -gt "$2" ]' _ \
	    "$NS_TMP/eng-$1.out" "$_n" || return 1
	grep '^{"port"' "$NS_TMP/eng-$1.out" | tail -1
}

# jget JSON FILTER: one value out of a JSON document.
jget() { printf '%s\n' "$1" | jq -r "$2"; }

# within V LO HI: LO <= V <= HI (numbers, possibly fractional).
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }

# pfc_loop_late JA JB: the PFC loop from B's XOFF to A's stop (B's rx lag,
# A's rx lag and A's reaction, the p99s each engine measured) took longer
# than B's headroom assumes (reaction_ns_used).  Only then may B count a
# lossless overflow: a machine that starves the engines past the headroom
# they sized costs frames, counted, never lost silently.
pfc_loop_late() {
	_late=$(( $(jget "$1" '.thresholds.rx_lag_p99_ns + .thresholds.reaction_p99_ns') + $(jget "$2" '.thresholds.rx_lag_p99_ns') ))
	_budget=$(jget "$2" '.thresholds.reaction_ns_used')
	diag "the PFC loop's p99s (B lag + A lag + A reaction) $_late ns, B's headroom assumes $_budget ns"
	[ "$_late" -gt "$_budget" ]
}
