#!/bin/sh
# SPDX-License-Identifier: ISC
# Interop with Debian's lldpd: each side shows the other's chassis ID,
# port ID, system name and TTL.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
need_cmd lldpd lldpcli
plan 8
ns_setup d
ns_pair d1a d1b 02:00:00:00:1a:01 02:00:00:00:1b:01
dx_conf "$NS_TMP/c.conf" 5 2 'system-name = "dcbxd-side";'
dx_start a a "$NS_TMP/c.conf" || bail "dcbxd"
# lldpd drops privileges (user _lldpd): it needs to reach its socket.
chmod 711 "$NS_TMP"; mkdir -m 777 "$NS_TMP/l"
# lldpd in the peer namespace, its own socket and pid file; -L: no lldpcli
# configuration run at startup.
bg_start b "$NS_TMP/lldpd.log" lldpd -d -u "$NS_TMP/l/lldpd.sock" \
    -p "$NS_TMP/l/lldpd.pid" -I d1b -L /bin/true
lc() { nsx b lldpcli -u "$NS_TMP/l/lldpd.sock" "$@"; }
lk() { lc -f keyvalue show neighbors; }
lk_has() { lk | grep -q "$1"; }
wait_for 10 test -S "$NS_TMP/l/lldpd.sock" || bail "lldpd did not start"
# lldpd's first LLDPDU waits for its tx-interval (30 s): shorten it.
# -S would set the system *description*; the name is "system hostname".
lc configure lldp tx-interval 1 >/dev/null
lc configure system hostname lldpd-side >/dev/null
# lldpd starts paused (no frame sent or received) until the lldpcli it
# spawns at startup has read its configuration and says "resume"; with
# -L /bin/true nobody does, which is why lldpd showed 0 frames on veth.
lc resume >/dev/null
wait_for 20 lk_has chassis
out=$(lk)
diag "$(echo "$out" | grep -E 'chassis.mac|port.ifname|chassis.name|port.ttl|\.ttl')"
check "lldpd shows dcbxd's chassis ID (d1a's MAC)" \
    sh -c "echo '$out' | grep -q 'chassis.mac=02:00:00:00:1a:01'"
check "lldpd shows dcbxd's port ID (ifname d1a)" \
    sh -c "echo '$out' | grep -q 'port.ifname=d1a'"
check "lldpd shows dcbxd's system name" \
    sh -c "echo '$out' | grep -q 'chassis.name=dcbxd-side'"
check "lldpd shows dcbxd's TTL (11)" \
    sh -c "echo '$out' | grep -Eq '\\.ttl=11\$'"
wait_for 30 dx_nbrs a 1
check "dcbxd shows lldpd's chassis ID and port" \
    dx_jq a '.[0] | .chassis_id == "02:00:00:00:1b:01" and (.port_id == "d1b" or .port_id == "02:00:00:00:1b:01")'
# lldpd advertises tx-interval x tx-hold = 1 x 4 s (its own view agrees).
lttl=$(lc -f keyvalue show interfaces | sed -n 's/^lldp\.d1b\.ttl\.ttl=//p')
diag "lldpd's own TTL: $lttl"
check "dcbxd shows lldpd's system name and TTL (4 s, as lldpd says)" \
    eval '[ "$lttl" = 4 ] && dx_jq a ".[0] | .sys_name == \"lldpd-side\" and .ttl == 4"'
# Neighbour details (issue 15): lldpd's 802.3 TLVs decoded and named, the
# same in dcbctl's text as in the JSON.
check "dcbxd names lldpd's 802.3 org TLVs and its capabilities" \
    dx_jq a '.[0] | ([.org_tlvs[].name] | index("mac-phy") != null and index("link-aggregation-8023") != null)
        and (.capabilities_enabled | index("station-only") != null)'
# lldpd's address is its link-local IPv6 one once the kernel has it (DAD):
# there or not, the text says what the JSON says (waited for, so that it
# does not change between the two questions).
wait_for 20 dx_jq a '.[0].mgmt_addrs | length > 0' || diag "lldpd sent no address"
mline=$(dx_ctl a show neighbors | jq -r '.[0].mgmt_addrs as $m |
    if ($m | length) > 0 then "  MgmtAddr: +\($m[0].family) \($m[0].address) "
    else "  MgmtAddr: +-$" end')
check "dcbctl show neighbors details prints them (${mline#  MgmtAddr: +}, mac-phy)" sh -c \
    "[ -n '$mline' ] && '$DCBCTL' -s '$NS_TMP/a.sock' show neighbors dev d1a details >'$NS_TMP/det' &&
     grep -Eq '^$mline' '$NS_TMP/det' && grep -q '00:12:0f/1 mac-phy' '$NS_TMP/det' &&
     grep -Eq '^d1a via nearest-bridge, TTL 4 ' '$NS_TMP/det'"
dx_ctl a show neighbors | sed 's/^/# /'
finish
