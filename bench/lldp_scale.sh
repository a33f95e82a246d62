#!/bin/sh
# SPDX-License-Identifier: ISC
# lldp_scale.sh -- discovery time and footprint, dcbxd beside lldpd.
#
# Table 1, discovery on one veth pair between two namespaces, a daemon at
# each end: (a) both running, links down, then both ends set up: ms from
# link-up until each side sees the other; (b) both daemons started at the
# same moment on links already up: ms from the launch.  Median of RUNS.
#
# Table 2, scale: PAIRS veth pairs (default "256 1024") between two
# namespaces, created with ip -batch, one daemon on each side: ms from
# link-up (all of side A up, then side B in one ip -batch, whose own
# duration, part of the figure, is reported apart as up_ms) until every neighbour is seen on both sides, then RSS and open
# descriptors of side A's daemon, and its CPU while idle over IDLE seconds
# (percent of one CPU).  Medians of RUNS, with the spread (min-max).
# Neighbours are counted with show-ports (dcbxd) and "show statistics
# summary" inserts minus deletes and ageouts (lldpd); the polling itself
# costs both daemons a little.
#
# Table 3, mixed: the same with dcbxd on one side and lldpd on the other,
# both ways round; per direction, when one side has seen all of the
# other's neighbours.  lldpd sends on an interface only once its own view
# of it says IFF_RUNNING, refreshed one second after the last netlink
# notification; the kernel sets IFF_RUNNING (operstate) for at most 100
# devices a linkwatch run, non-urgent runs once a second (bench/README.md).
#
# Usage: sudo bench/lldp_scale.sh [--json]
#   env: PAIRS ("256 1024"), IDLE (20 s; 0: no idle figures), SETTLE (8 s
#        between all seen and the idle window: fast transmission, and the
#        IPv6 link-local addresses' notifications), RUNS (3), LIMIT (60 s
#        per wait)
# Goals (the LLDP issue): discovery within 100 ms of link-up; all 1024
# pairs within 1 s of link-up; idle CPU no higher than lldpd's.
. "$(cd "$(dirname "$0")" && pwd)/lldp_bench_lib.sh"
PAIRS=${PAIRS:-256 1024}
IDLE=${IDLE:-20}
SETTLE=${SETTLE:-8}
RUNS=${RUNS:-3}
LIMIT=${LIMIT:-60}
bl_init "${1:-}"
TABLE2=$NS_TMP/rows2
: >"$TABLE2"

# sc_poll LIMIT-S SPEC...: poll every 2 ms (lldpd: 100 ms) until each daemon reports its
# expected neighbour count; print ms since $T0 (date +%s%N) or "timeout".
# SPEC is dx:SOCKET:N or ll:SOCKET:N.  With $SC_RUN set (a command line)
# the poller, once started, runs it and counts from just before: the
# interpreter's start-up (~30 ms) is then not part of the figure.
sc_poll() {
	python3 - "${T0:-0}" "$@" <<'EOP'
import json, os, shlex, socket, subprocess, sys, time
t0, limit, specs = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
run_ms = ""
if os.environ.get("SC_RUN"):
    t0 = time.time_ns()
    subprocess.run(shlex.split(os.environ["SC_RUN"]), check=True)
    run_ms = " %.0f" % ((time.time_ns() - t0) / 1e6)
def count(kind, path):
    try:
        if kind == "dx":
            s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(path)
            s.sendall(b'{"cmd":"show-ports","args":{}}\n')
            r = json.loads(s.makefile().readline()); s.close()
            return sum(p.get("neighbors", 0) for p in r.get("result") or [])
        out = subprocess.run(["lldpcli", "-u", path, "-f", "keyvalue", "show",
            "statistics", "summary"], capture_output=True, text=True, timeout=5).stdout
        kv = dict(l.split("=", 1) for l in out.splitlines() if "=" in l)
        g = lambda k: int(kv.get("lldp.summary.%s.%s" % (k, k), 0))
        return g("insert_cnt") - g("delete_cnt") - g("ageout_cnt")
    except (OSError, ValueError, subprocess.SubprocessError):
        return -1
todo = [s.split(":") + [i] for i, s in enumerate(specs)]
done = ["timeout"] * len(specs)
end = time.time() + limit
while todo and time.time() < end:
    left = []
    for t in todo:
        if count(t[0], t[1]) < int(t[2]):
            left.append(t)
        else:
            done[t[3]] = "%.0f" % ((time.time_ns() - t0) / 1e6)
    todo = left
    # lldpcli is a process per poll, and lldpd answers it on the thread
    # that handles LLDP: poll it less often, so as not to slow it down.
    if todo:
        time.sleep(0.002 if all(t[0] == "dx" for t in todo) else 0.1)
for t in todo:
    print("# sc_poll: %s at %s of %s after %.0f s" % (t[1], count(t[0], t[1]),
          t[2], limit), file=sys.stderr)
print(("timeout" if todo else "%.0f" % ((time.time_ns() - t0) / 1e6)) + run_ms
      + (" " + " ".join(done) if len(specs) > 1 else ""))
EOP
}

# sc_start KIND NS NAME PATTERN MAXN: a daemon, returns at once when
# started; the poll spec in $SPEC.
sc_start() {
	if [ "$1" = dcbxd ]; then
		bl_dx_start "$2" "$3" "$4" "max-neighbors = $5;"
		SPEC="dx:$NS_TMP/$3.sock"
	else
		bl_ll_start "$2" "$3" "$4" "$5"
		SPEC="ll:$NS_TMP/$3.lsock"
	fi
}


# sc_links NS PREFIX N up|down: every link PREFIX0..N-1 in NS, one batch.
sc_links() {
	seq 0 $(($3 - 1)) | sed "s/.*/link set $2& $4/" >"$NS_TMP/batch"
	ip -n "$(ns_name "$1")" -batch "$NS_TMP/batch"
}

# ---------------------------------------------------------- discovery
ns_add da && ns_add db || bl_die "namespaces"
veth_add da bxa db bxb || bl_die "veth"

disc_linkup() {	# KIND: one run, prints ms
	sc_start "$1" da a bxa 32; _sa=$SPEC
	sc_start "$1" db b bxb 32; _sb=$SPEC
	sleep 1
	ip -n "$(ns_name da)" link set bxa up
	SC_RUN="ip -n $(ns_name db) link set bxb up" \
	    sc_poll "$LIMIT" "$_sa:1" "$_sb:1" | cut -d' ' -f1
	bl_stop da db
	ip -n "$(ns_name da)" link set bxa down
	ip -n "$(ns_name db)" link set bxb down
}

disc_start() {	# KIND: one run on links already up, prints ms
	ip -n "$(ns_name da)" link set bxa up
	ip -n "$(ns_name db)" link set bxb up
	sleep 1
	T0=$(date +%s%N)
	# Not a bare "wait": that would wait for the daemons too.
	sc_start "$1" da a bxa 32 & _w=$!
	sc_start "$1" db b bxb 32; wait "$_w"
	[ "$1" = dcbxd ] && _x=dx:$NS_TMP/a.sock:1 _y=dx:$NS_TMP/b.sock:1 ||
	    _x=ll:$NS_TMP/a.lsock:1 _y=ll:$NS_TMP/b.lsock:1
	sc_poll "$LIMIT" "$_x" "$_y" | cut -d' ' -f1
	bl_stop da db
	ip -n "$(ns_name da)" link set bxa down
	ip -n "$(ns_name db)" link set bxb down
}

for c in linkup start; do
	dx=""; ll=""
	for i in $(seq "$RUNS"); do
		dx="$dx $(disc_$c dcbxd)"; ll="$ll $(disc_$c lldpd)"
		bl_log "discovery $c run $i: dcbxd$dx ms, lldpd$ll ms"
	done
	mdx=$(bl_median $(echo "$dx" | sed 's/timeout/999999/g'))
	mll=$(bl_median $(echo "$ll" | sed 's/timeout/999999/g'))
	case $c in
	linkup) name="1 pair, link-up"; goal=100 ;;
	start) name="1 pair, simultaneous start"; goal=1000 ;;
	esac
	bl_row "$name" "$mdx" "$mll" "$(bl_ratio "$mdx" "$mll")" "$goal" \
	    "$(awk -v m="$mdx" -v g="$goal" 'BEGIN { print m <= g ? "yes" : "NO" }')"
done
bl_stop da db

# sc_ll_why NS NAME N: after a timeout waiting for lldpd's neighbours to
# be seen, say on how many of its N interfaces lldpd itself has sent
# nothing, and whether its link notifications overran.  Seen here, 1024
# links coming up at once: "netlink receive buffer too small" in lldpd's
# log, and no frame ever sent on the interfaces whose notifications were
# lost (lldpd does not dump its links again; SONiC raised lldpd's buffer
# for this), so dcbxd facing it had nothing to see there.
sc_ll_why() {
	_silent=$(bl_llcli "$1" "$2" show statistics |
	    awk -F= '$1 ~ /^lldp\.[^.]*\.tx\.tx$/ && $2 == 0 { n++ } END { print n + 0 }')
	_ovr=$(grep -c "netlink receive buffer too small" "$NS_TMP/$2.log")
	bl_log "lldpd ($1) has sent nothing on $_silent of its $3 interfaces;" \
	    "its link notifications overran $_ovr times (log: netlink receive buffer too small)"
}

# ---------------------------------------------------------------- scale
# scale_run KIND-A KIND-B N: one run, one row in $TABLE2: side A's daemon
# on bva* (links set up first, no carrier yet), side B's on bvb* (set up
# in one ip -batch run by the poller), then both until every neighbour is
# seen.  Same kind on both sides: RSS, fds and idle CPU of side A too.
scale_run() {
	sc_start "$1" sa a 'bva*' 32; _sa=$SPEC
	sc_start "$2" sb b 'bvb*' 32; _sb=$SPEC
	sleep 2
	sc_links sa bva "$3" up
	seq 0 $(($3 - 1)) | sed "s/.*/link set bvb& up/" >"$NS_TMP/batch"
	_o=$(SC_RUN="ip -n $(ns_name sb) -batch $NS_TMP/batch" \
	    sc_poll "$LIMIT" "$_sa:$3" "$_sb:$3")
	# "ALL UP A B": all seen, the ip -batch, A saw all of B, B all of A
	set -- "$1" "$2" "$3" $_o
	[ "$6" = timeout ] && [ "$2" = lldpd ] && sc_ll_why sb b "$3"
	[ "$7" = timeout ] && [ "$1" = lldpd ] && sc_ll_why sa a "$3"
	_rss=-; _fds=-; _cpu=-
	if [ "$1" = "$2" ] && [ "$IDLE" -gt 0 ]; then
		sleep "$SETTLE"		# past fast transmission, IPv6 DAD
		_c0=$(bl_cpu sa); _c1=$(bl_cpu sb)
		sleep "$IDLE"
		_c0=$(( ($(bl_cpu sa) - _c0 + $(bl_cpu sb) - _c1) / 2 ))
		_rss=$(bl_rss sa); _fds=$(bl_fds sa)
		_cpu=$(awk -v c="$_c0" -v t="$IDLE" 'BEGIN { printf "%.3f", c / 1e7 / t }')
	fi
	bl_log "scale $1/$2 $3 pairs: all seen $4 ms (A saw B's $6 ms, B saw A's $7 ms," \
	    "ip -batch up $5 ms), rss $_rss kB, fds $_fds, idle $_cpu%"
	echo "$1/$2	$3	$4	$5	$6	$7	$_rss	$_fds	$_cpu" >>"$TABLE2"
	bl_stop sa sb
	sc_links sa bva "$3" down
	sc_links sb bvb "$3" down
}

# sc_med KINDS N FIELD / sc_spread KINDS N FIELD: median, "min-max" of a
# field over the runs (a timeout counts as 999999).
sc_vals() {
	awk -F'\t' -v k="$1" -v n="$2" -v f="$3" '$1 == k && $2 == n {
	    print ($f == "timeout" ? 999999 : $f) }' "$TABLE2"
}
sc_med() { bl_median $(sc_vals "$@"); }
sc_spread() { bl_spread $(sc_vals "$@"); }

ns_add sa && ns_add sb || bl_die "namespaces"
made=0
for n in $PAIRS; do
	seq "$made" $((n - 1)) | sed "s/.*/link add bva& netns $(ns_name sa) type veth peer name bvb& netns $(ns_name sb)/" >"$NS_TMP/mk"
	t=$(date +%s%N)
	ip -batch "$NS_TMP/mk" || bl_die "ip -batch: creating $n veth pairs failed"
	bl_log "created veth pairs $made..$((n - 1)) in $(( ($(date +%s%N) - t) / 1000000 )) ms"
	made=$n
	for i in $(seq "$RUNS"); do
		for k in dcbxd/dcbxd lldpd/lldpd dcbxd/lldpd lldpd/dcbxd; do
			scale_run "${k%/*}" "${k#*/}" "$n"
		done
	done
done

bl_print "discovery, one veth pair, ms (median of $RUNS)" \
    "case:28,dcbxd_ms:9,lldpd_ms:9,ratio:6,goal_ms:8,met:4"
: >"$BL_ROWS"
for n in $PAIRS; do
	# field: 3 all seen, 4 ip -batch, 7 RSS, 8 fds, 9 idle CPU
	for f in "3:all seen (ms)" "7:RSS (kB)" "8:open fds" "9:idle CPU (%)"; do
		_dx=$(sc_med dcbxd/dcbxd "$n" "${f%%:*}")
		_ll=$(sc_med lldpd/lldpd "$n" "${f%%:*}")
		bl_row "$n pairs, ${f#*:}" "$_dx" "$_ll" "$(bl_ratio "$_dx" "$_ll")" \
		    "$(sc_spread dcbxd/dcbxd "$n" "${f%%:*}")" \
		    "$(sc_spread lldpd/lldpd "$n" "${f%%:*}")"
	done
	bl_row "$n pairs, ip -batch up (ms)" "$(sc_med dcbxd/dcbxd "$n" 4)" \
	    "$(sc_med lldpd/lldpd "$n" 4)" "" "$(sc_spread dcbxd/dcbxd "$n" 4)" \
	    "$(sc_spread lldpd/lldpd "$n" 4)"
done
bl_print "scale: PAIRS veth pairs, the same daemon on both sides (median of $RUNS; RSS, fds, idle CPU over $IDLE s: side A's daemon; spread min-max)" \
    "case:30,dcbxd:9,lldpd:9,ratio:6,dcbxd_spread:13,lldpd_spread:13"
: >"$BL_ROWS"
for n in $PAIRS; do
	for k in dcbxd/dcbxd lldpd/lldpd dcbxd/lldpd lldpd/dcbxd; do
		bl_row "$n pairs, A $k B" "$(sc_med "$k" "$n" 5)" "$(sc_spread "$k" "$n" 5)" \
		    "$(sc_med "$k" "$n" 6)" "$(sc_spread "$k" "$n" 6)" \
		    "$(sc_med "$k" "$n" 3)" "$(sc_med "$k" "$n" 4)"
	done
done
bl_print "mixed: ms from side B's ip -batch until A has seen all of B's neighbours and B all of A's (side A's links up first; median of $RUNS, spread min-max; 999999: not within LIMIT)" \
    "case:28,A_saw_B:8,spread:13,B_saw_A:8,spread:13,all:8,up_ms:6"
