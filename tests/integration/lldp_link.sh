#!/bin/sh
# SPDX-License-Identifier: ISC
# Links that change under a running dcbxd: down/up (agent stops and starts,
# neighbours flushed at link down, fast transmission at link up), renamed
# (the port follows the new name while the config still matches it; a name
# the config does not match drops the port, a matching one adds it), and
# interfaces created and deleted while running.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
plan 18
ns_setup o
ns_pair o1a o1b
# tx-interval 30 s (TTL 121 s): nothing here ages out or is sent on the
# regular timer within a few seconds, so every frame counted is fast tx.
dx_conf "$NS_TMP/c.conf" 30 4 '' '{ match = "o*"; }'
dx_start a a "$NS_TMP/c.conf" && dx_start b b "$NS_TMP/c.conf" || bail "start"
wait_for 5 dx_nbrs a 1 && wait_for 5 dx_nbrs b 1 || bail "no discovery"

out() { dx_stat a "$1" statsFramesOutTotal; }
ports() { dx_q a show-ports | python3 -c "import json,sys; print(' '.join(sorted(p['ifname'] for p in json.load(sys.stdin))))"; }
ports_are() { [ "$(ports)" = "$1" ]; }
b_sees() { dx_eval b "len(r) == 1 and r[0]['port_id'] == '$1'"; }

# 1. Link down: the agent stops, its neighbours go at once (not at TTL).
t0=$(date +%s%N)
nsx a ip link set o1a down
if wait_for 2 dx_nbrs a 0; then
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	diag "neighbour flushed $ms ms after link down (TTL 121 s)"
	check "link down flushes the neighbours at once (< 1 s)" [ "$ms" -lt 1000 ]
else
	not_ok "link down flushes the neighbours at once"
fi
check "show-ports says the link is down" \
    dx_eval a 'r[0]["link"] == "down"' show-ports
n0=$(out o1a); sleep 1.5; n1=$(out o1a)
check "nothing is sent while the link is down ($n0 -> $n1)" [ "$n0" = "$n1" ]
check "the peer flushed us too (its carrier went down)" dx_nbrs b 0

# 2. Link up: fast transmission, msgFastTx (1 s) apart, txFastInit (4).
nsx a ip link set o1a up
t0=$(date +%s%N)
check "link up: neighbours again within 2 s" wait_for 2 dx_nbrs a 1
sleep 3.5
n2=$(out o1a)
diag "frames sent in the 3.5 s after link up: $((n2 - n1)) (tx-interval 30 s)"
check "link up starts fast transmission (>= 4 frames in 3.5 s)" \
    [ $((n2 - n1)) -ge 4 ]

# 3. Renamed (down, rename, up: the kernel renames only a down link) to a
# name the config still matches: the same port, under its new name.
nsx a ip link set o1a down
nsx a ip link set o1a name o9a
nsx a ip link set o9a up
check "renamed port follows its new name (show-ports: o9a)" \
    wait_for 3 ports_are o9a
check "the peer sees the new port ID o9a" wait_for 3 b_sees o9a

# 4. Renamed to a name the config does not match: the port is dropped.
# Down for 1.2 s: the kernel's linkwatch reports a carrier flip shorter
# than about a second to the peer as no change at all, and the peer would
# rightly keep us until our TTL.
nsx a ip link set o9a down
sleep 1.2
nsx a ip link set o9a name x1a
nsx a ip link set x1a up
check "rename to an unmatched name drops the port" \
    wait_for 3 ports_are ""
sleep 1.5
check "no agent runs there: the peer sees nobody" dx_nbrs b 0
nsx a ip link set x1a down
nsx a ip link set x1a name o1a
nsx a ip link set o1a up
check "renamed back into the pattern: the port is added" \
    wait_for 3 ports_are o1a
check "and the peer sees port ID o1a" wait_for 3 b_sees o1a

# 5. A new interface while running: its agent starts without a restart.
veth_add a o2a b o2b || bail "second veth"
nsx a ip link set o2a up; nsx b ip link set o2b up
check "a new veth gets a port" wait_for 3 ports_are "o1a o2a"
check "and its neighbour is discovered within 3 s" \
    wait_for 3 dx_eval a 'len(r) == 1' show-neighbors '{"dev":"o2a"}'

# 6. Deleted while running: the port goes, the daemon carries on.
nsx b ip link del o2b
check "a deleted interface's port is gone" \
    wait_for 3 ports_are o1a
check "the daemon is alive and answers" dx_nbrs a 1
check "the other port kept its neighbour (o1a: 1 insert, 0 deletes)" \
    dx_eval a 'r[0]["remote_tables"]["inserts"] == 1 and r[0]["remote_tables"]["deletes"] == 0' show-stats '{"dev":"o1a"}'
kill -TERM "$PID_a"; wait_for 3 sh -c "! kill -0 $PID_a 2>/dev/null"
check "no sanitizer report" dx_sanitizer_clean a
finish
