#!/bin/sh
# SPDX-License-Identifier: ISC
# metrics_scrape.sh -- how long a scrape holds the daemon's event loop.
#
# One dcbxd runs PORTS engine ports (veth pairs, the peers in another
# namespace sending VLAN frames through each engine at RATE b/s with
# etool, so that the data planes are busy).  A client times REQS control
# requests of each kind, one after another: "version" (the loop's floor),
# "show-stats" (every engine's counters) and "metrics" (the whole
# exposition); each request runs on the loop, so its time is the time the
# loop was held.  With DCBXD_REF set (a dcbxd built from an older tree, e.g.
# the engine snapshot that waited for the data plane), the same run is made
# with it and printed beside.
#   sudo top_builddir=$PWD/build bench/metrics_scrape.sh
# STARVE=1 puts the engines' data-plane threads under SCHED_IDLE and runs
# one busy loop per CPU meanwhile: a host where the data plane gets the CPU
# late, which is when a reader that waits for it stalls the loop.
# BACKEND=readonly runs the ports without engines (no traffic): the cost of
# the rendering itself for many ports.
#   env: PORTS (8) REQS (200) RATE (200M) DCBXD_REF (none) STARVE (0)
#        BACKEND (engine) --json
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/netns.sh"
top_builddir=${top_builddir:-$PWD}
DCBXD=${DCBXD:-$top_builddir/daemon/dcbxd}
ETOOL=$top_builddir/tests/engine/etool
PORTS=${PORTS:-8} REQS=${REQS:-200} RATE=${RATE:-200M}
BACKEND=${BACKEND:-engine}
JSON=""; [ "$1" = --json ] && JSON=1
[ "$(id -u)" -eq 0 ] || { echo "run as root" >&2; exit 1; }
[ -x "$DCBXD" ] && [ -x "$ETOOL" ] || { echo "build first ($DCBXD, $ETOOL)" >&2; exit 1; }

ns_setup mb
ns_add a && ns_add b || exit 1
i=0
while [ $i -lt "$PORTS" ]; do
	veth_add a "ma$i" b "mb$i" || exit 1
	nsx a ip link set "ma$i" up; nsx b ip link set "mb$i" up
	i=$((i + 1))
done
if [ "$BACKEND" = engine ]; then BE='engine = { speed = "1G"; };'
else BE='backend = "readonly";'; RATE=0; fi
cat >"$NS_TMP/d.conf" <<EOF
metrics = { listen = "127.0.0.1:19417"; };
ports = ( { match = "ma*"; role = "controller"; mode = "ieee"; $BE
  pfc = { prio-pfc = [3]; }; } );
EOF
cat >"$NS_TMP/time.py" <<'EOF'
import http.client, json, socket, sys, time
path, reqs = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_UNIX); s.connect(path); f = s.makefile("rb")
out = {}
for cmd in ("version", "show-stats", "metrics"):
    line = (json.dumps({"cmd": cmd}) + "\n").encode()
    t = []
    for _ in range(reqs):
        t0 = time.perf_counter_ns(); s.sendall(line)
        r = json.loads(f.readline())
        t.append((time.perf_counter_ns() - t0) / 1e3)
        assert r.get("ok"), r
    t.sort()
    out[cmd] = (t[len(t) // 2], t[len(t) * 99 // 100], t[-1])
h, t = http.client.HTTPConnection("127.0.0.1", 19417, timeout=10), []
for _ in range(reqs):
    t0 = time.perf_counter_ns(); h.request("GET", "/metrics")
    r = h.getresponse(); body = r.read()
    t.append((time.perf_counter_ns() - t0) / 1e3)
    assert r.status == 200
t.sort()
out["GET /metrics"] = (t[len(t) // 2], t[len(t) * 99 // 100], t[-1])
out["bytes"] = len(body)
print(json.dumps(out))
EOF

# run NAME BINARY: one daemon, traffic on, the timings as one JSON line.
run() {
	rm -f "$NS_TMP/$1.sock"
	bg_start a "$NS_TMP/$1.log" "$2" -d -c "$NS_TMP/d.conf" -s "$NS_TMP/$1.sock"
	_d=$BG_PID
	_t=0; while [ ! -S "$NS_TMP/$1.sock" ] && [ $_t -lt 100 ]; do sleep 0.1; _t=$((_t + 1)); done
	sleep 1
	_g=""; i=0
	while [ "$RATE" != 0 ] && [ $i -lt "$PORTS" ]; do
		bg_start b "$NS_TMP/gen$i.log" "$ETOOL" gen "mb$i" --stream "0:vlan:$RATE:0" \
		    --duration 600000
		_g="$_g $BG_PID"; i=$((i + 1))
	done
	sleep 1
	_b=""
	if [ -n "$STARVE" ]; then
		_pid=$(pgrep -P "$_d" -x dcbxd || echo "$_d")
		for _t in /proc/"$_pid"/task/*; do
			[ "${_t##*/}" = "$_pid" ] || chrt -i -p 0 "${_t##*/}"
		done
		for _c in $(seq "$(nproc)"); do sh -c 'while :; do :; done' & _b="$_b $!"; done
	fi
	nsx a python3 "$NS_TMP/time.py" "$NS_TMP/$1.sock" "$REQS" >"$NS_TMP/$1.json"
	kill $_g $_b "$_d" 2>/dev/null; wait $_g $_b "$_d" 2>/dev/null
}
run new "$DCBXD"
[ -n "$DCBXD_REF" ] && run ref "$DCBXD_REF"

python3 - "$NS_TMP" "$PORTS" "$RATE" "$JSON" <<'EOF'
import json, os, sys
tmp, ports, rate, js = sys.argv[1:5]
runs = [(n, json.load(open(os.path.join(tmp, n + ".json"))))
        for n in ("new", "ref") if os.path.exists(os.path.join(tmp, n + ".json"))]
rows = []
for cmd in ("version", "show-stats", "metrics", "GET /metrics"):
    for n, r in runs:
        rows.append({"request": cmd, "daemon": n, "p50_us": r[cmd][0],
                     "p99_us": r[cmd][1], "max_us": r[cmd][2]})
if js:
    print(json.dumps(rows)); sys.exit(0)
print("# control requests on a loop with %s ports (%s)%s, load %s"
      % (ports, rate != "0" and "engines relaying %s b/s each" % rate or "read-only", os.environ.get("STARVE") and ", data planes starved" or "",
         open("/proc/loadavg").read().split()[0]))
print("# exposition: %d bytes" % runs[0][1]["bytes"])
print("%-12s %-6s %10s %10s %10s" % ("request", "daemon", "p50_us", "p99_us", "max_us"))
for r in rows:
    print("%-12s %-6s %10.0f %10.0f %10.0f" % (r["request"], r["daemon"],
          r["p50_us"], r["p99_us"], r["max_us"]))
EOF
