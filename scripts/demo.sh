#!/bin/sh
# SPDX-License-Identifier: ISC
# Two-host demo in network namespaces, on a built-in default policy.
#
# A ToR ("tor1", DCBX controller) and a server ("server1", willing) are
# joined by a veth pair.  The controller pushes PFC on priorities 3 and 4,
# ETS 50/30/20 over three traffic classes with priority 6 strict, and APP
# UDP 4791 (RoCEv2) -> 3 and DSCP 26 -> 3.  The server adopts the policy;
# since a veth has no hardware PFC (dcbnl answers EOPNOTSUPP) the server's
# port runs the software pause engine, which enforces what was adopted.
# Everything is shown with dcbctl, then torn down.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
scripts/deps.sh
./autogen.sh >/dev/null
mkdir -p build-demo
cd build-demo
[ -f Makefile ] || ../configure -q
make -s -j"$(nproc)" daemon/dcbxd ctl/dcbctl >/dev/null
dcbxd=$top/build-demo/daemon/dcbxd
dcbctl=$top/build-demo/ctl/dcbctl

tmp=$(mktemp -d /tmp/dcbxd-demo.XXXXXX)
tor=dcbxdemo-tor$$ srv=dcbxdemo-srv$$
cleanup() {
	for ns in $tor $srv; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill "$p" 2>/dev/null || true; done
	done
	sleep 0.3
	for ns in $tor $srv; do ip netns del "$ns" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

ip netns add "$tor"; ip netns add "$srv"
ip link add swp1 netns "$tor" type veth peer name eth0 netns "$srv"

cat >"$tmp/tor.conf" <<'EOC'
dcbxd: { system-name = "tor1"; };
ports = ( {
	match = "swp1"; role = "controller"; mode = "ieee";
	ets = { prio-tc = [ 0, 0, 0, 1, 2, 0, 3, 0 ];
		tc-bw = [ 50, 30, 20, 0, 0, 0, 0, 0 ];
		tc-tsa = [ "ets", "ets", "ets", "strict", "strict", "strict",
		    "strict", "strict" ]; };
	pfc = { prio-pfc = [ 3, 4 ]; cable-length = "100m"; };
	app = ( { selector = "dgram-port"; protocol = 4791; priority = 3; },
		{ selector = "dscp"; protocol = 26; priority = 3; } );
} );
EOC
cat >"$tmp/srv.conf" <<'EOC'
dcbxd: { system-name = "server1"; };
ports = ( { match = "eth0"; role = "willing";
	    engine = { speed = "1G"; queue-memory = "2M"; }; } );
EOC
for f in tor srv; do "$dcbxd" -t -c "$tmp/$f.conf" >/dev/null; done

echo "demo: starting tor1 (controller) and server1 (willing), then the link"
ip netns exec "$tor" "$dcbxd" -d -c "$tmp/tor.conf" -s "$tmp/tor.sock" >"$tmp/tor.log" 2>&1 &
ip netns exec "$srv" "$dcbxd" -d -c "$tmp/srv.conf" -s "$tmp/srv.sock" >"$tmp/srv.log" 2>&1 &
i=0
while [ ! -S "$tmp/tor.sock" ] || [ ! -S "$tmp/srv.sock" ]; do
	i=$((i + 1)); [ $i -lt 250 ] || { echo "demo: daemons did not start" >&2; cat "$tmp"/*.log; exit 1; }
	sleep 0.02
done
ip -n "$tor" link set swp1 up
ip -n "$srv" link set eth0 up

srvctl() { "$dcbctl" -s "$tmp/srv.sock" "$@"; }
adopted() {
	_j=$(srvctl -j show dcbx dev eth0) && [ -n "$_j" ] &&
	    printf '%s\n' "$_j" | jq -e '[.ets, .pfc, .app] | all(.status == "peer")' >/dev/null
}
i=0
until adopted; do
	i=$((i + 1))
	if [ $i -ge 1500 ]; then
		echo "demo: the server did NOT adopt the controller's policy within 30 s" >&2
		srvctl show dcbx dev eth0 >&2 || true
		exit 1
	fi
	sleep 0.02
done
# The server's own time, from its log stamps ("SECONDS.MILLIS [...]"):
# its link-up, then the first status line with every feature from the peer.
stamp() { sed -n "/$1/{s/^\([0-9]*\)\.\([0-9]\{3\}\) .*/\1\2/p;q}" "$tmp/srv.log"; }
up=$(stamp 'eth0: link up')
done_=$(stamp 'eth0: status ets peer, pfc peer, app peer')
if [ -n "$up" ] && [ -n "$done_" ]; then
	ms="$((done_ - up)) ms after link-up (server1's log)"
else
	ms="(its log has no link-up or status line)"
fi

echo "demo: server1 adopted tor1's policy $ms"
echo
echo "\$ dcbctl show neighbors            (on server1)"
srvctl show neighbors
echo
echo "\$ dcbctl show dcbx dev eth0        (admin, peer and operational side by side)"
srvctl show dcbx dev eth0
echo
echo "\$ dcbctl show ets dev eth0"
srvctl show ets dev eth0
echo
echo "\$ dcbctl show pfc dev eth0"
srvctl show pfc dev eth0
echo
echo "\$ dcbctl show app dev eth0"
srvctl show app dev eth0
echo
echo "\$ dcbctl show ports                (veth: no dcbnl ops, so the software pause engine)"
srvctl show ports
echo
echo "demo: the pause engine on eth0 (TAP dcb-eth0) now runs PFC on priorities:"
srvctl -j show stats dev eth0 | jq -c \
    '(if type == "array" then .[0] else . end) | [.engine.priorities[]? | select(.pfc) | .priority]' |
    sed 's/^/   /'
echo "demo: done"
