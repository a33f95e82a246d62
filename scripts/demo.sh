#!/bin/sh
# Two-host demo in network namespaces: a controller pushes its policy
# (PFC on 3,4; ETS 50/30/20 over three TCs with priority 6 strict; APP
# UDP 4791 -> 3 and DSCP 26 -> 3), the willing server adopts it, and the
# server's control socket shows what it adopted and from whom.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
scripts/deps.sh
./autogen.sh >/dev/null
mkdir -p build-demo
cd build-demo
[ -f Makefile ] || ../configure -q
make -s -j"$(nproc)" daemon/dcbxd >/dev/null
dcbxd=$top/build-demo/daemon/dcbxd

tmp=$(mktemp -d /tmp/dcbxd-demo.XXXXXX)
ctl_ns=dcbxdemo-tor$$ srv_ns=dcbxdemo-srv$$
cleanup() {
	for ns in $ctl_ns $srv_ns; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill "$p" 2>/dev/null || true; done
	done
	sleep 0.3
	ip netns del "$ctl_ns" 2>/dev/null || true
	ip netns del "$srv_ns" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

ip netns add "$ctl_ns"; ip netns add "$srv_ns"
ip link add swp1 netns "$ctl_ns" type veth peer name eth0 netns "$srv_ns"

cat >"$tmp/tor.conf" <<'EOC'
dcbxd: { system-name = "tor1"; tx-interval = 5; };
ports = ( {
	match = "swp1"; role = "controller"; mode = "ieee";
	ets = { willing = false; ets-cap = 8;
		prio-tc = [ 0, 0, 0, 1, 2, 0, 3, 0 ];
		tc-bw = [ 50, 30, 20, 0, 0, 0, 0, 0 ];
		tc-tsa = [ "ets", "ets", "ets", "strict", "strict", "strict",
		    "strict", "strict" ]; };
	pfc = { willing = false; prio-pfc = [ 3, 4 ]; pfc-cap = 8; };
	app = ( { selector = "dgram-port"; protocol = 4791; priority = 3; },
		{ selector = "dscp"; protocol = 26; priority = 3; } );
} );
EOC
cat >"$tmp/srv.conf" <<'EOC'
dcbxd: { system-name = "server1"; tx-interval = 5; };
ports = ( { match = "eth0"; role = "willing"; } );
EOC
for f in tor srv; do "$dcbxd" -t -c "$tmp/$f.conf" >/dev/null; done

echo "demo: starting the controller (tor1) and the willing server (server1)"
ip netns exec "$ctl_ns" "$dcbxd" -d -c "$tmp/tor.conf" -s "$tmp/tor.sock" >"$tmp/tor.log" 2>&1 &
ip netns exec "$srv_ns" "$dcbxd" -d -c "$tmp/srv.conf" -s "$tmp/srv.sock" >"$tmp/srv.log" 2>&1 &
sleep 0.5
ip -n "$ctl_ns" link set swp1 up
ip -n "$srv_ns" link set eth0 up

python3 - "$tmp/srv.sock" <<'EOP'
import json, socket, sys, time

def ask(cmd, **args):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    s.sendall((json.dumps({"cmd": cmd, "args": args}) + "\n").encode())
    r = json.loads(s.makefile().readline())
    s.close()
    return r["result"]

t0 = time.time()
while time.time() - t0 < 10:
    d = ask("show-dcbx", dev="eth0")
    if all(d[f]["status"] == "peer" for f in ("ets", "pfc", "app")):
        break
    time.sleep(0.05)
n = ask("show-neighbors", dev="eth0")
print("server1/eth0 neighbour: %s port %s (chassis %s), after %.0f ms" % (
    n[0]["sys_name"], n[0]["port_id"], n[0]["chassis_id"],
    (time.time() - t0) * 1000) if n else "server1/eth0: no neighbour")
e, p, a = d["ets"]["oper"], d["pfc"]["oper"], d["app"]["oper"]
print("  DCBX mode      : %s, peer %s" % (d["active"], d["peer_mac"]))
print("  ETS  (%s)     : prio->tc %s, tc-bw %s, tsa %s" % (
    d["ets"]["status"], e["prio_tc"], e["tc_bw"][:4], e["tc_tsa"][:4]))
print("  PFC  (%s)     : lossless priorities %s" % (
    d["pfc"]["status"], [i for i, on in enumerate(p["prio_pfc"]) if on]))
print("  APP  (%s)     : %s" % (d["app"]["status"], ", ".join(
    "%s %d -> %d" % (x["selector"], x["protocol"], x["priority"]) for x in a)))
ok = all(d[f]["status"] == "peer" for f in ("ets", "pfc", "app"))
print("demo: the server %s the controller's policy" % ("ADOPTED" if ok else "did NOT adopt"))
sys.exit(0 if ok else 1)
EOP
