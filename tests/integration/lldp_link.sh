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
plan 20
ns_setup o
ns_pair o1a o1b
# tx-interval 30 s (TTL 121 s): nothing here ages out or is sent on the
# regular timer within a few seconds, so every frame counted is fast tx.
dx_conf "$NS_TMP/c.conf" 30 4 '' '{ match = "o*"; }'
dx_start a a "$NS_TMP/c.conf" -D lldp && dx_start b b "$NS_TMP/c.conf" || bail "start"
wait_for 20 dx_nbrs a 1 && wait_for 20 dx_nbrs b 1 || bail "no discovery"

out() { dx_stat a "$1" statsFramesOutTotal; }
# ports_are "NAMES": a's ports, sorted, are exactly NAMES ("" for none;
# a failed request is never "").
ports_are() { dx_jq a "([.[].ifname] | sort | join(\" \")) == \"$1\"" show ports; }
b_sees() { dx_jq b "length == 1 and .[0].port_id == \"$1\""; }

# 1. Link down: the agent stops, its neighbours go at once, not at the
# TTL (121 s): a flush, not an ageout.
nsx a ip link set o1a down
check "link down flushes the neighbours" wait_for 30 dx_nbrs a 0
check "... as a flush, not an ageout (statsAgeoutsTotal 0)" \
    [ "$(dx_stat a o1a statsAgeoutsTotal)" = 0 ]
check "show ports says the link is down" dx_jq a '.[0].link == "down"' show ports
n0=$(out o1a)
check "the peer flushed us too (its carrier went down)" wait_for 30 dx_nbrs b 0
sleep 1.5
n1=$(out o1a)
check "nothing is sent while the link is down ($n0 -> $n1)" \
    eval '[ -n "$n0" ] && [ "$n0" = "$n1" ]'

# 2. Link up: fast transmission, txFastInit (4) frames msgFastTx (1 s)
# apart.  With tx-interval 30 s the regular timer sends one frame per
# 30 s, so 4 frames within the bounded wait (25 s) are fast transmission;
# a's own log stamps (-D lldp logs each frame) show the gaps as a diag.
nsx a ip link set o1a up
check "link up: neighbours again" wait_for 20 dx_nbrs a 1
fast4() { [ "$(out o1a)" -ge $((n1 + 4)) ]; }
check "link up starts fast transmission (4 frames)" wait_for 25 fast4
up=$(log_last_ms "$NS_TMP/a.log" "o1a: link up")
g=$(awk -v up="$up" '/o1a: sent / { split($1, t, "."); ms = t[1] t[2];
    if (ms >= up) { if (p) printf "%d ", ms - p; p = ms } }' "$NS_TMP/a.log")
diag "gaps between a's frames after link up (ms, daemon log): $g"
# 3. Renamed (down, rename, up: the kernel renames only a down link) to a
# name the config still matches: the same port, under its new name.  Down
# until the peer has flushed us: a carrier flip shorter than the kernel's
# linkwatch delay (about a second) is no change at all for the peer, which
# would rightly keep our old port ID until its TTL.
nsx a ip link set o1a down
wait_for 30 dx_nbrs b 0 || diag "the peer did not flush us at link down"
nsx a ip link set o1a name o9a
nsx a ip link set o9a up
check "renamed port follows its new name (show ports: o9a)" \
    wait_for 20 ports_are o9a
check "the peer sees the new port ID o9a" wait_for 20 b_sees o9a

# 4. Renamed to a name the config does not match: the port is dropped,
# and no agent runs there -- the peer never inserts a neighbour between
# the rename and the rename back (its insert counter grows by one: o1a).
nsx a ip link set o9a down
wait_for 30 dx_nbrs b 0 || diag "the peer did not flush us at link down"
ins0=$(ctl_get "$NS_TMP/b.sock" '.[0].remote_tables.inserts' show stats dev o1b)
nsx a ip link set o9a name x1a
nsx a ip link set x1a up
check "rename to an unmatched name drops the port" \
    wait_for 20 ports_are ""
nsx a ip link set x1a down
wait_for 30 dx_nbrs b 0
nsx a ip link set x1a name o1a
nsx a ip link set o1a up
check "renamed back into the pattern: the port is added" \
    wait_for 20 ports_are o1a
check "and the peer sees port ID o1a" wait_for 20 b_sees o1a
ins1=$(ctl_get "$NS_TMP/b.sock" '.[0].remote_tables.inserts' show stats dev o1b)
check "no agent ran on x1a: the peer inserted only o1a since ($ins0 -> $ins1)" \
    eval '[ -n "$ins0" ] && [ "$ins1" = $((ins0 + 1)) ]'

# 5. A new interface while running: its agent starts without a restart.
veth_add a o2a b o2b || bail "second veth"
nsx a ip link set o2a up; nsx b ip link set o2b up
check "a new veth gets a port" wait_for 20 ports_are "o1a o2a"
check "and its neighbour is discovered" \
    wait_for 20 dx_jq a 'length == 1' show neighbors dev o2a

# 6. Deleted while running: the port goes, the daemon carries on.
nsx b ip link del o2b
check "a deleted interface's port is gone" \
    wait_for 20 ports_are o1a
check "the daemon is alive and answers" dx_nbrs a 1
check "the other port kept its neighbour (o1a: 1 insert, 0 deletes)" \
    dx_jq a '.[0].remote_tables | .inserts == 1 and .deletes == 0' show stats dev o1a
# Every change above came as a notification, none as a re-read of all
# links: a notification taken for an overrun costs a dump of every link.
check "no link notification was lost or misread (no resync)" \
    sh -c "! grep -q 'link notifications: .*resyncing' '$NS_TMP/a.log'"
kill -TERM "$PID_a"; wait_for 20 sh -c "! kill -0 $PID_a 2>/dev/null"
check_clean "no sanitizer report" "$NS_TMP/a.log"
finish
