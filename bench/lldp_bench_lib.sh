# SPDX-License-Identifier: ISC
# lldp_bench_lib.sh -- shared by the LLDP daemon benchmarks (sourced).
#
# Namespaces come from tests/lib/netns.sh with prefix "b" (dxb<pid>-NAME),
# so every namespace, veth and daemon is removed on exit.  CPU time is read
# from /proc/PID/task/*/schedstat (nanoseconds on CPU, summed over every
# process in the daemon's namespace: lldpd runs as two processes, its
# privileged monitor and the unprivileged worker); /proc/PID/stat's
# utime+stime counts 10 ms ticks, too coarse for a few microseconds a PDU.
#
# Rows are collected as tab-separated lines in $BL_ROWS; bl_print renders
# them as a fixed-width table (or JSON with --json) under a header line.
BL_DIR=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$BL_DIR/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/build}
DCBXD=${DCBXD:-$top_builddir/daemon/dcbxd}
FLOOD=${FLOOD:-$top_builddir/bench/lldp-flood}
LLDPD=${LLDPD:-lldpd}
LLDPCLI=${LLDPCLI:-lldpcli}
BL_JSON=0

. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/ctl.sh"

bl_die() { echo "$0: $*" >&2; exit 1; }
bl_log() { echo "# $*" >&2; }
bl_load() { cut -d' ' -f1-3 /proc/loadavg; }

# bl_init [--json]: check what the benchmark needs, set up the cleanup.
bl_init() {
	[ "${1:-}" = "--json" ] && BL_JSON=1
	[ "$(id -u)" -eq 0 ] || bl_die "needs root (network namespaces)"
	for _c in ip jq python3 "$LLDPD" "$LLDPCLI"; do
		command -v "$_c" >/dev/null 2>&1 || bl_die "needs $_c"
	done
	[ -x "$DCBXD" ] || bl_die "dcbxd not built: $DCBXD (set top_builddir)"
	[ -x "$DCBCTL" ] || bl_die "dcbctl not built: $DCBCTL (set top_builddir)"
	ns_setup b
	chmod 755 "$NS_TMP"	# lldpcli must reach the sockets
	BL_ROWS=$NS_TMP/rows
	: >"$BL_ROWS"
	BL_LOAD0=$(bl_load)
	bl_log "$(basename "$0"): load average at start $BL_LOAD0," \
	    "$(nproc) CPUs, dcbxd $DCBXD, $($LLDPD -v 2>&1 | head -1)"
}

# bl_cpu NS: nanoseconds of CPU used so far by every process in NS.
bl_cpu() {
	_t=0
	for _p in $(ip netns pids "$(ns_name "$1")"); do
		for _f in /proc/"$_p"/task/*/schedstat; do
			read -r _ns _rest <"$_f" 2>/dev/null && _t=$((_t + _ns))
		done
	done
	echo "$_t"
}

# bl_rss NS / bl_fds NS: resident kB and open descriptors, summed over NS.
bl_rss() {
	_t=0
	for _p in $(ip netns pids "$(ns_name "$1")"); do
		_k=$(awk '/^VmRSS:/ { print $2 }' /proc/"$_p"/status)
		_t=$((_t + ${_k:-0}))
	done
	echo "$_t"
}
bl_fds() {
	_t=0
	for _p in $(ip netns pids "$(ns_name "$1")"); do
		_t=$((_t + $(ls /proc/"$_p"/fd | wc -l)))
	done
	echo "$_t"
}

# bl_dx_start NS NAME PORT-MATCH [GLOBAL-SETTINGS]: dcbxd in NS, control
# socket $NS_TMP/NAME.sock, config $NS_TMP/NAME.conf.
bl_dx_start() {
	cat >"$NS_TMP/$2.conf" <<EOC
dcbxd: { ${4:-} };
ports = ( { match = "$3"; } );
EOC
	rm -f "$NS_TMP/$2.sock"
	bg_start "$1" "$NS_TMP/$2.log" "$DCBXD" $DXARGS -d -c "$NS_TMP/$2.conf" \
	    -s "$NS_TMP/$2.sock"
	bl_wait 10 test -S "$NS_TMP/$2.sock" || bl_die "dcbxd $2 did not start"
}

# bl_ll_start NS NAME IFACES MAX-NEIGHBORS [nowait]: lldpd in NS on IFACES
# (a -I pattern), socket $NS_TMP/NAME.lsock; configured, then resumed
# (lldpd starts paused until its configuration is done).
bl_ll_start() {
	rm -f "$NS_TMP/$2.lsock"
	bg_start "$1" "$NS_TMP/$2.log" "$LLDPD" -d -u "$NS_TMP/$2.lsock" \
	    -p "$NS_TMP/$2.pid" -I "$3" -L /bin/true
	bl_wait 10 test -S "$NS_TMP/$2.lsock" || bl_die "lldpd $2 did not start"
	bl_llcli "$1" "$2" configure system max-neighbors "$4" >/dev/null
	bl_llcli "$1" "$2" resume >/dev/null
}

bl_llcli() {
	_n=$1; _s=$2; shift 2
	nsx "$_n" "$LLDPCLI" -u "$NS_TMP/$_s.lsock" -f keyvalue "$@"
}

# bl_stop NS...: stop every daemon in these namespaces, bounded.
bl_stop() {
	for _ns in "$@"; do
		for _p in $(ip netns pids "$(ns_name "$_ns")"); do kill "$_p"; done
	done
	for _ns in "$@"; do
		bl_wait 10 sh -c "[ -z \"\$(ip netns pids $(ns_name "$_ns"))\" ]" ||
		    for _p in $(ip netns pids "$(ns_name "$_ns")"); do kill -9 "$_p"; done
	done
}

# bl_wait SECONDS CMD...: poll every 20 ms, bounded.
bl_wait() {
	_deadline=$(( $(date +%s%N) + $1 * 1000000000 )); shift
	while ! "$@" >/dev/null 2>&1; do
		[ "$(date +%s%N)" -ge "$_deadline" ] && return 1
		sleep 0.02
	done
}

# bl_dx_stat NAME IFACE COUNTER / bl_ll_stat NS NAME IFACE COUNTER
# (lldpd's keys: rx, tx, insert_cnt, ...).  dcbxd is asked with dcbctl
# -j (tests/lib/ctl.sh), like the tests.
bl_dx_stat() {
	ctl_get "$NS_TMP/$1.sock" ".[0] | .lldp.$3 // .remote_tables.$3" \
	    show stats dev "$2"
}
bl_ll_stat() {
	bl_llcli "$1" "$2" show statistics ports "$3" |
	    awk -F= -v k="lldp.$3.$4.$4" '$1 == k { print $2 }'
}

# bl_row FIELD...: one row of the table (tab-separated).
bl_row() {
	_IFS=$IFS; IFS='	'; echo "$*" >>"$BL_ROWS"; IFS=$_IFS
}

# bl_print TITLE "col:width,col:width,...": the table, or JSON rows.
bl_print() {
	python3 - "$BL_ROWS" "$BL_JSON" "$1" "$2" "$(bl_load)" "${BL_LOAD0:-}" <<'EOP'
import json, os, sys
rows_f, js, title, spec, load, load0 = sys.argv[1:7]
cols = [c.rsplit(":", 1) for c in spec.split(",")]
rows = [l.rstrip("\n").split("\t") for l in open(rows_f) if l.strip()]
if js == "1":
    print(json.dumps([dict(zip([c[0] for c in cols], r)) for r in rows], indent=1))
    sys.exit(0)
ncpu = os.cpu_count() or 1
print("# %s (load average at start %s, at end %s; %d CPUs, %.1f per CPU)"
      % (title, load0 or "?", load, ncpu, float(load.split()[0]) / ncpu))
fmt = " ".join(("%%-%ss" if i == 0 else "%%%ss") % w for i, (_, w) in enumerate(cols))
print(fmt % tuple(c[0] for c in cols))
for r in rows:
    print(fmt % tuple((r + [""] * len(cols))[:len(cols)]))
EOP
}

# bl_median V...: the median of numbers (for the rows).
bl_median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
	    if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2];
	    else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bl_spread V...: "min-max" of numbers ("-" when there are none).
bl_spread() {
	printf '%s\n' "$@" | sort -g | awk 'NF { if (!n++) a = $1; b = $1 }
	    END { print (n ? a "-" b : "-") }'
}

# bl_ratio A B: A/B to two decimals ("-" when B is 0 or missing).
bl_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "-";
	    else printf "%.2f\n", a / b }'
}

# bl_flood_setup MAX_NEIGHBORS: a sender namespace (src) with one veth to
# dcbxd (dut, port bd0) and one to lldpd (lut, port bl0), both daemons
# started with room for MAX_NEIGHBORS neighbours on that port; DXCONF:
# more of dcbxd's global settings (e.g. "repeat-filter = false;").
bl_flood_setup() {
	_max=$1
	[ -x "$FLOOD" ] || bl_die "lldp-flood not built: $FLOOD"
	ns_add src && ns_add dut && ns_add lut || bl_die "namespaces"
	veth_add src bfd dut bd0 && veth_add src bfl lut bl0 || bl_die "veth"
	for _l in "src bfd" "src bfl" "dut bd0" "lut bl0"; do
		set -- $_l; ip -n "$(ns_name "$1")" link set "$2" up
	done
	bl_dx_start dut dx bd0 "max-neighbors = $_max; ${DXCONF:-}"
	bl_ll_start lut ll bl0 "$_max"
	sleep 1
}
