#!/bin/sh
# SPDX-License-Identifier: ISC
# lldp_mgmt.sh -- what two dcbxd learn of each other's System Capabilities
# and Management Addresses (802.1AB-2016 8.5.8, 8.5.9), through the real
# encoder, a veth and the real decoder, as show-neighbors and dcbctl -j
# show it:
#  - a (willing, nothing configured) is a Station Only, alone, and sends
#    its port's own IPv4 and global IPv6 address (not the link-local one);
#  - b (controller, management-addresses and capabilities configured) is
#    what its config says;
#  - a port without any address sends its MAC (IANA family 6);
#  - an address that can never be sent (IPv6 link-local) costs no
#    re-read of the system's addresses (nor a frame); a global one after
#    it is sent at once;
#  - an address removed is no longer sent;
#  - a port renamed still sends its addresses, read again under the new
#    name (the kernel re-announces IPv4 addresses on a rename, not IPv6
#    ones: the port renamed has only an IPv6 one).
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
plan 12
ns_setup m
ns_add a && ns_add b || bail "namespaces"
veth_add a ma0 b mb0 02:00:00:00:0a:00 02:00:00:00:0b:00 &&
    veth_add a ma1 b mb1 02:00:00:00:0a:01 02:00:00:00:0b:01 || bail "veth"
nsx a ip addr add 192.0.2.1/24 dev ma0 &&
    nsx a ip addr add 2001:db8::1/64 dev ma0 nodad || bail "addresses"
dx_conf "$NS_TMP/a.conf" 30 4 '' '{ match = "ma*"; role = "willing"; }'
dx_conf "$NS_TMP/b.conf" 30 4 \
    'management-addresses = [ "198.51.100.7", "2001:db8:1::7" ];
     capabilities = [ "bridge", "router" ];
     capabilities-enabled = [ "bridge" ];' \
    '{ match = "mb*"; role = "controller"; }'
dx_start a a "$NS_TMP/a.conf" -D link && dx_start b b "$NS_TMP/b.conf" ||
    bail "start"
for i in 0 1; do nsx a ip link set ma$i up; nsx b ip link set mb$i up; done
wait_for 20 dx_nbrs a 2 && wait_for 20 dx_nbrs b 2 || bail "no discovery"
A_IDX=$(nsx a cat /sys/class/net/ma0/ifindex)

nbr() {	# nbr NAME IFNAME 'JQ': JQ holds on some neighbour on IFNAME
	dx_jq "$1" "any(.[]; .ifname == \"$2\" and ($3))"
}
check "a is a Station Only, alone (system and enabled)" \
    nbr b mb0 '.capabilities == ["station-only"] and .capabilities_enabled == ["station-only"]'
check "b is what its config says: bridge+router, bridge enabled" \
    nbr a ma0 '.capabilities == ["bridge", "router"] and .capabilities_enabled == ["bridge"]'
check "a sends its port's IPv4 and global IPv6 address, ifIndex $A_IDX" \
    wait_for 20 nbr b mb0 "[.mgmt_addrs[] | [.family, .address, .if_subtype, .if_number]] == [[\"ipv4\", \"192.0.2.1\", \"ifindex\", $A_IDX], [\"ipv6\", \"2001:db8::1\", \"ifindex\", $A_IDX]]"
check "b sends the configured addresses, on every port" \
    nbr a ma1 '[.mgmt_addrs[].address] == ["198.51.100.7", "2001:db8:1::7"]'
check "a port without an address sends its MAC (family 6)" \
    nbr b mb1 '[.mgmt_addrs[] | [.family, .family_number, .address]] == [["mac", 6, "02:00:00:00:0a:01"]]'
# An address added later is a local change: sent at once, not after the
# 30 s interval.
nsx a ip addr add 192.0.2.9/24 dev ma1 || bail "address"
check "an address added later is sent before the next regular frame (tx-interval 30 s)" \
    wait_for 20 nbr b mb1 '[.mgmt_addrs[].address] == ["192.0.2.9"]'
# Every link that comes up gets a link-local address, and a thousand
# links came up at once cost seconds of address re-reads (DAD ends with a
# second notification): such an address is seen and left alone.
LL="grep -c 'ma1: an address we never send changed: nothing to re-read' $NS_TMP/a.log"
LL0=$(sh -c "$LL")	# the kernel's own link-local address of ma1 so far
nsx a ip addr add fe80::99/64 dev ma1 nodad || bail "link-local address"
check "a link-local address is seen and costs no re-read" \
    wait_for 20 sh -c "[ \$($LL) -gt $LL0 ]"
nsx a ip addr add 2001:db8:5::9/64 dev ma1 nodad || bail "global address"
check "a global address after it is sent at once" \
    wait_for 20 nbr b mb1 '[.mgmt_addrs[].address] == ["192.0.2.9", "2001:db8:5::9"]'
check "dcbctl -j show neighbors dev mb0 carries them too" \
    dx_jq b '(if type == "array" then .[0] else . end) |
        [.mgmt_addrs[].address] == ["192.0.2.1", "2001:db8::1"] and .capabilities == ["station-only"]' \
    show neighbors dev mb0
nsx a ip addr del 192.0.2.9/24 dev ma1 || bail "address removal"
check "an address removed is no longer sent" \
    wait_for 20 nbr b mb1 '.port_id == "ma1" and [.mgmt_addrs[].address] == ["2001:db8:5::9"]'
# The address list is kept until it can be wrong (mgmt.c); renaming a
# port with only an IPv6 address brings no address notification, and the
# list has it under the old name.  The new port ID is a new neighbour for
# b: look for that one.
nsx a ip link set ma1 name ma7 || bail "rename"
check "a port renamed still sends its addresses (read again under its new name)" \
    wait_for 20 nbr b mb1 '.port_id == "ma7" and [.mgmt_addrs[].address] == ["2001:db8:5::9"]'
check_clean "no sanitizer report" "$NS_TMP/a.log" "$NS_TMP/b.log"
finish
