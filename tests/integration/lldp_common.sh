# SPDX-License-Identifier: ISC
# lldp_common.sh -- helpers for the dcbxd integration tests (sourced).
# Needs tap.sh and netns.sh first.  Daemons run from $top_builddir with -d,
# their own control socket and config in $NS_TMP; they are queried with
# dcbctl -j and jq (tests/lib/ctl.sh), their times read from their logs.
DCBXD=${DCBXD:-$top_builddir/daemon/dcbxd}
. "$top_srcdir/tests/lib/ctl.sh"

dx_need() {
	need_root
	need_cmd ip jq
	[ -x "$DCBXD" ] || skip_all "dcbxd not built ($DCBXD)"
	[ -x "$DCBCTL" ] || skip_all "dcbctl not built ($DCBCTL)"
	ip netns add "dxprobe$$" 2>/dev/null || skip_all "cannot create network namespaces here"
	ip netns del "dxprobe$$"
}

# flood_need: $FLOOD, the bench's LLDPDU sender (bench/lldp-flood), or
# skip the whole file.
flood_need() {
	FLOOD=$top_builddir/bench/lldp-flood
	[ -x "$FLOOD" ] || skip_all "bench/lldp-flood not built"
}

# backlog_drops: frames the kernel dropped before any socket saw them
# (netdev backlog full), summed over CPUs, so far (whole machine).
backlog_drops() {
	$PY -c 'print(sum(int(l.split()[1], 16) for l in open("/proc/net/softnet_stat")))'
}

# dx_conf FILE [INTERVAL HOLD [EXTRA-GLOBAL [PORTS]]]
dx_conf() {
	_ports=${5:-}
	[ -n "$_ports" ] || _ports='{ match = "d*"; }'
	cat >"$1" <<EOC
dcbxd: { tx-interval = ${2:-5}; tx-hold = ${3:-2}; ${4:-} };
ports = ( $_ports );
EOC
}

# dx_start NS NAME CONF [ARGS...]: dcbxd in NS, socket $NS_TMP/NAME.sock.
dx_start() {
	_ns=$1; _name=$2; _conf=$3; shift 3
	rm -f "$NS_TMP/$_name.sock"
	bg_start "$_ns" "$NS_TMP/$_name.log" "$DCBXD" -d -c "$_conf" \
	    -s "$NS_TMP/$_name.sock" "$@"
	eval "PID_$_name=$BG_PID"
	wait_for 10 test -S "$NS_TMP/$_name.sock"
}

# dx_ctl NAME ARGS...: dcbctl -j ARGS on NAME's socket.
dx_ctl() { _dn=$1; shift; ctl "$NS_TMP/$_dn.sock" "$@"; }
# dx_jq NAME FILTER [ARGS...]: FILTER holds on the result of dcbctl -j
# ARGS (default: show neighbors).  Example: dx_jq a 'length == 1'
dx_jq() {
	_dn=$1 _df=$2; shift 2
	[ $# -gt 0 ] || set -- show neighbors
	ctl_jq "$NS_TMP/$_dn.sock" "$_df" "$@"
}
dx_nbrs() { dx_jq "$1" "length == $2"; }

# dx_stat NAME IFNAME COUNTER: print one 802.1AB counter (fails if absent).
dx_stat() { ctl_get "$NS_TMP/$1.sock" ".[0].lldp.$3" show stats dev "$2"; }

# dx_log_ms NAME PATTERN [N]: NAME's own stamp (ms) of its Nth line
# matching PATTERN.
dx_log_ms() { log_ms "$NS_TMP/$1.log" "$2" "${3:-1}"; }
