#!/bin/sh
# SPDX-License-Identifier: ISC
# Two dcbxd in two namespaces joined by a veth pair: discovery time at
# link-up and at a simultaneous start, ageing out after SIGKILL, deletion
# at once on the shutdown LLDPDU of a clean stop.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
plan 13
ns_setup d
ns_add a && ns_add b || bail "namespaces"
veth_add a d0a b d0b || bail "veth"
dx_conf "$NS_TMP/c.conf" 5 2		# TTL = 5 * 2 + 1 = 11 s

# 1. Daemons running, links down; both ends up: discovery time.
dx_start a a "$NS_TMP/c.conf" && dx_start b b "$NS_TMP/c.conf" || bail "start"
nsx a ip link set d0a up
t0=$(date +%s%N)	# the link comes up with its second end
nsx b ip link set d0b up
if ms=$(dx_converge "$t0" 5 a b); then
	diag "discovery after link-up: $ms ms until both control sockets show it"
	ms=$(dx_logged_ms "$t0" "new neighbour" a b)
	diag "discovery after link-up: $ms ms until both daemons logged it (goal 100 ms)"
	check "both see each other within 100 ms of link-up" \
	    python3 -c "import sys; sys.exit(0 if $ms <= 100 else 1)"
else
	not_ok "both see each other within 100 ms of link-up (not within 5 s)"
fi
check "neighbour TTL is interval * hold + 1 = 11" dx_eval a 'r[0]["ttl"] == 11'
check "neighbour IDs: chassis MAC, port ifname d0b" \
    dx_eval a 'r[0]["port_id"] == "d0b" and r[0]["chassis_id_type"] == "mac" and r[0]["port_id_type"] == "ifname"'

# 2. SIGKILL: no shutdown PDU, the survivor ages the neighbour out at TTL.
kill -9 "$PID_b"
t0=$(date +%s%N)
if wait_for 20 dx_nbrs a 0; then
	s=$(( ($(date +%s%N) - t0) / 1000000 ))
	diag "aged out $s ms after SIGKILL (TTL 11 s)"
	check "killed neighbour ages out at its TTL (9-13 s)" [ "$s" -ge 9000 -a "$s" -le 13000 ]
else
	not_ok "killed neighbour ages out at its TTL"
fi
check "statsAgeoutsTotal counts it" [ "$(dx_stat a d0a statsAgeoutsTotal)" = 1 ]

# 3. Both started at the same moment on links that are already up.
kill "$PID_a"; sleep 0.3
t0=$(date +%s%N)
dx_start a a "$NS_TMP/c.conf" & w=$!
dx_start b b "$NS_TMP/c.conf"; wait "$w"
if ms=$(dx_converge "$t0" 5 a b); then
	diag "simultaneous start (links up): $ms ms from launch until both control sockets show it"
	ms=$(dx_logged_ms "$t0" "new neighbour" a b)
	diag "simultaneous start (links up): $ms ms from launch until both daemons logged it"
	check "simultaneous start: both see each other within 1 s of launch" \
	    python3 -c "import sys; sys.exit(0 if $ms <= 1000 else 1)"
else
	not_ok "simultaneous start: both see each other"
fi
# The second dcbxd of each pair was started by dx_start in a subshell;
# find the daemons by their sockets' namespaces for the clean stop.
PID_b=$(ip netns pids "$(ns_name b)" | head -1)

# 4. A clean stop sends a shutdown LLDPDU: deleted at once, not aged.
t0=$(date +%s%N)
kill -TERM "$PID_b"
if wait_for 3 dx_nbrs a 0; then
	s=$(( ($(date +%s%N) - t0) / 1000000 ))
	diag "deleted $s ms after SIGTERM of the peer"
	check "shutdown LLDPDU deletes the neighbour at once (< 1 s)" [ "$s" -lt 1000 ]
else
	not_ok "shutdown LLDPDU deletes the neighbour at once"
fi
check "that was a delete, not an ageout" [ "$(dx_stat a d0a statsAgeoutsTotal)" = 0 ]
check "remote table counted one insert and one delete" \
    dx_eval a 'r[0]["remote_tables"]["inserts"] == 1 and r[0]["remote_tables"]["deletes"] == 1' show-stats '{"dev":"d0a"}'
check "frames out and in are counted" \
    dx_eval a 'r[0]["lldp"]["statsFramesOutTotal"] > 0 and r[0]["lldp"]["statsFramesInTotal"] > 0' show-stats
check "show-ports: d0a up, no neighbours left" \
    dx_eval a 'r[0]["ifname"] == "d0a" and r[0]["link"] == "up" and r[0]["neighbors"] == 0' show-ports
wait_for 3 sh -c "! kill -0 $PID_b 2>/dev/null"
check "the stopped daemon exited cleanly (no sanitizer report)" dx_sanitizer_clean b
PID_a=$(ip netns pids "$(ns_name a)" | head -1)
kill -TERM "$PID_a"; wait_for 3 sh -c "! kill -0 $PID_a 2>/dev/null"
check "daemon a: no sanitizer report" dx_sanitizer_clean a
finish
