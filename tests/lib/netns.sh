# SPDX-License-Identifier: ISC
# netns.sh -- network namespaces for tests, always cleaned up.
#
# ns_setup PREFIX creates a unique namespace prefix ($NS_PREFIX); ns_add NAME
# creates "$NS_PREFIX-NAME"; veth_add NS1 IF1 NS2 IF2 joins two of them;
# ns_pair IF1 IF2 does all three for the usual namespaces a and b.
# Everything created, and every process started with bg_start, is removed
# on exit, whether the test passes, fails or is interrupted.
NS_LIST=""
BG_PIDS=""
NS_TMP=""

ns_setup() {
	NS_PREFIX="dx$1$$"
	NS_TMP=$(mktemp -d "/tmp/dcbxd-test-$1.XXXXXX")
	trap ns_cleanup EXIT
	trap 'exit 130' INT TERM
}

ns_cleanup() {
	for _p in $BG_PIDS; do kill "$_p" 2>/dev/null; done
	sleep 0.1
	for _p in $BG_PIDS; do kill -9 "$_p" 2>/dev/null; done
	for _n in $NS_LIST; do
		# Kill anything still running inside, then the namespace.
		for _p in $(ip netns pids "$_n" 2>/dev/null); do kill -9 "$_p" 2>/dev/null; done
		ip netns del "$_n" 2>/dev/null
	done
	[ -n "$NS_TMP" ] && [ -z "$KEEP_TMP" ] && rm -rf "$NS_TMP"
}

ns_name() { echo "$NS_PREFIX-$1"; }

ns_add() {
	_n=$(ns_name "$1")
	ip netns add "$_n" || return 1
	NS_LIST="$NS_LIST $_n"
	ip -n "$_n" link set lo up
}

# veth_add NS1 IF1 NS2 IF2 [MAC1 MAC2]
veth_add() {
	ip link add "$2" netns "$(ns_name "$1")" type veth peer name "$4" netns "$(ns_name "$3")" || return 1
	[ -n "$5" ] && ip -n "$(ns_name "$1")" link set "$2" address "$5"
	[ -n "$6" ] && ip -n "$(ns_name "$3")" link set "$4" address "$6"
	return 0
}

# ns_pair IF1 IF2 [MAC1 MAC2]: namespaces a and b joined by a veth pair,
# IF1 in a and IF2 in b, both ends up; bails out without them.
ns_pair() {
	ns_add a && ns_add b || bail "namespaces"
	veth_add a "$1" b "$2" "${3:-}" "${4:-}" || bail "veth"
	nsx a ip link set "$1" up; nsx b ip link set "$2" up
}

# nsx NS CMD...: run CMD inside a namespace.
nsx() { _n=$(ns_name "$1"); shift; ip netns exec "$_n" "$@"; }

# bg_start NS LOGFILE CMD...: start CMD in NS in the background, remembered
# for cleanup; the pid is in $BG_PID.
bg_start() {
	_n=$(ns_name "$1"); _log=$2; shift 2
	ip netns exec "$_n" "$@" >"$_log" 2>&1 &
	BG_PID=$!
	BG_PIDS="$BG_PIDS $BG_PID"
}
