#!/bin/sh
# SPDX-License-Identifier: ISC
# Two dcbxd in two namespaces joined by a veth pair: discovery at link-up
# and at a simultaneous start, ageing out after SIGKILL (not before the
# TTL), deletion on the shutdown LLDPDU of a clean stop (a delete, not an
# ageout).  Nothing here is timed by the test: order and causality come
# from the daemons' counters and log stamps; the latencies they log are
# printed as diagnostics (bench/ measures them).
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
plan 16
ns_setup d
ns_add a && ns_add b || bail "namespaces"
veth_add a d0a b d0b || bail "veth"
dx_conf "$NS_TMP/c.conf" 5 2		# TTL = 5 * 2 + 1 = 11 s

# 1. Daemons running, links down; both ends up: discovery.
dx_start a a "$NS_TMP/c.conf" && dx_start b b "$NS_TMP/c.conf" -D lldp || bail "start"
nsx a ip link set d0a up
nsx b ip link set d0b up
check "both see each other after link-up" \
    eval 'wait_for 20 dx_nbrs a 1 && wait_for 20 dx_nbrs b 1'
for n in a b; do
	up=$(dx_log_ms $n ": link up") nb=$(dx_log_ms $n "new neighbour")
	diag "$n: new neighbour $((${nb:-0} - ${up:-0})) ms after its link-up (daemon log)"
done
check "each learned its neighbour after its link came up (log order)" \
    eval 'log_before "$NS_TMP/a.log" ": link up" "new neighbour" &&
        log_before "$NS_TMP/b.log" ": link up" "new neighbour"'
check "neighbour TTL is interval * hold + 1 = 11" dx_jq a '.[0].ttl == 11'
check "neighbour IDs: chassis MAC, port ifname d0b" \
    dx_jq a '.[0] | .port_id == "d0b" and .chassis_id_type == "mac" and .port_id_type == "ifname"'

# 2. SIGKILL: no shutdown PDU, the survivor ages the neighbour out at TTL.
kill -9 "$PID_b"
check "killed neighbour ages out" wait_for 30 dx_nbrs a 0
check "statsAgeoutsTotal counts it" [ "$(dx_stat a d0a statsAgeoutsTotal)" = 1 ]
# b logged every frame it sent (-D lldp); a ages out on its own clock:
# never earlier than TTL after the last frame b sent.
last=$(log_last_ms "$NS_TMP/b.log" ": sent ") aged=$(dx_log_ms a "aged out")
diag "aged out $((${aged:-0} - ${last:-0})) ms after the last frame b sent (TTL 11 s; daemon logs)"
check "not before its TTL: ageout >= b's last frame + 11 s (log stamps, ms truncation 2 ms)" \
    eval '[ -n "$last" ] && [ -n "$aged" ] && [ $((aged - last)) -ge 10998 ]'

# 3. Both started at the same moment on links that are already up.
kill "$PID_a"; wait_for 20 sh -c "! kill -0 $PID_a 2>/dev/null"
mv "$NS_TMP/a.log" "$NS_TMP/a1.log"; mv "$NS_TMP/b.log" "$NS_TMP/b1.log"
t0=$(ms_now)
dx_start a a "$NS_TMP/c.conf" & w=$!
dx_start b b "$NS_TMP/c.conf" -D lldp; wait "$w"
check "simultaneous start: both see each other" \
    eval 'wait_for 20 dx_nbrs a 1 && wait_for 20 dx_nbrs b 1'
diag "simultaneous start: new neighbour logged $(( $(dx_log_ms a "new neighbour") - t0 )) / $(( $(dx_log_ms b "new neighbour") - t0 )) ms after launch"
# The second dcbxd of each pair was started by dx_start in a subshell;
# find the daemons by their namespaces for the clean stop.
PID_a=$(ip netns pids "$(ns_name a)" | head -1)
PID_b=$(ip netns pids "$(ns_name b)" | head -1)

# 4. A clean stop sends a shutdown LLDPDU: deleted at once, not aged.
kill -TERM "$PID_b"
check "the peer's clean stop removes the neighbour" wait_for 30 dx_nbrs a 0
check "by its shutdown LLDPDU: a logged 'neighbour shut down'" \
    grep -q "d0a: neighbour shut down" "$NS_TMP/a.log"
# b logs the signal, then sends (and logs "sent" once the send returned,
# which a busy machine may stamp after a's delete): the signal's stamp is
# the one that must come first.
sd=$(dx_log_ms b "signal 15: shutting down") del=$(dx_log_ms a "neighbour shut down")
diag "deleted $((${del:-0} - ${sd:-0})) ms after b took SIGTERM (daemon logs)"
check "b took SIGTERM before a deleted the neighbour (log stamps)" \
    eval '[ -n "$sd" ] && [ -n "$del" ] && [ "$del" -ge "$sd" ]'
check "that was a delete, not an ageout" [ "$(dx_stat a d0a statsAgeoutsTotal)" = 0 ]
check "remote table counted one insert and one delete" \
    dx_jq a '.[0].remote_tables | .inserts == 1 and .deletes == 1' show stats dev d0a
check "frames out and in are counted" \
    dx_jq a '.[0].lldp | .statsFramesOutTotal > 0 and .statsFramesInTotal > 0' show stats
check "show ports: d0a up, no neighbours left" \
    dx_jq a '.[0] | .ifname == "d0a" and .link == "up" and .neighbors == 0' show ports
wait_for 20 sh -c "! kill -0 $PID_b 2>/dev/null"
kill -TERM "$PID_a"; wait_for 20 sh -c "! kill -0 $PID_a 2>/dev/null"
check_clean "no sanitizer report from either daemon (both runs)" \
    "$NS_TMP/a.log" "$NS_TMP/b.log" "$NS_TMP/a1.log" "$NS_TMP/b1.log"
finish
