# SPDX-License-Identifier: ISC
# dcbx-lib.sh -- helpers for the DCBX negotiation integration tests
# (sourced after tap.sh and netns.sh).  Two or three dcbxd run in their own
# namespaces, each with its own config ($NS_TMP/NAME.conf) and control
# socket ($NS_TMP/NAME.sock); the tests look at them through dcbctl -j
# (tests/lib/ctl.sh), and compare what they show with named policies in
# one python helper (the real interpreter, $PY, one start per wait: it
# polls dcbctl itself).
#
# Policies are named, defined once in the python below and used both to
# write configs (xd_conf) and to check the operational config (xd_wait):
#   A  the controller's first policy: PFC on 3,4; ETS 50/30/20 over TCs
#      0-2, priority 6 alone in strict TC 3; APP UDP 4791 -> 3, DSCP 26 -> 3
#   B  its second policy: PFC on 3 only, ETS 40/40/20, the same APP
#   C  another controller's policy: PFC on 3,5 (mismatch with A)
#   S  the server's own admin policy: no PFC, one ETS class, no APP
DCBXD=${DCBXD:-$top_builddir/daemon/dcbxd}
DCBCTL=${DCBCTL:-$top_builddir/ctl/dcbctl}
. "$top_srcdir/tests/lib/ctl.sh"

xd_need() {
	need_root
	need_cmd ip jq timeout
	[ -x "$DCBXD" ] || skip_all "dcbxd not built ($DCBXD)"
	[ -x "$DCBCTL" ] || skip_all "dcbctl not built ($DCBCTL)"
	command -v "$PY" >/dev/null 2>&1 || skip_all "needs python3 (not installed)"
	ip netns add "xprobe$$" 2>/dev/null ||
	    skip_all "cannot create network namespaces here"
	ip netns del "xprobe$$"
}

# xd_setup: namespaces and the python helper.
xd_setup() {
	ns_setup x
	XD_PY=$NS_TMP/xd.py
	xd_python >"$XD_PY"
	export DCBCTL
	# tshark wants a writable home for its profile.
	HOME=$NS_TMP; export HOME
}

# xd_conf NAME ROLE MODE POLICY [MATCH]: write $NS_TMP/NAME.conf
# (tx-interval $XD_TX_INTERVAL, default 30 s).
xd_conf() {
	$PY "$XD_PY" conf "$2" "$3" "$4" "${5:-x*}" >"$NS_TMP/$1.conf.new" &&
	    mv "$NS_TMP/$1.conf.new" "$NS_TMP/$1.conf"
}

# xd_start NS NAME: dcbxd -d in NS with NAME's config and socket.
xd_start() {
	rm -f "$NS_TMP/$2.sock"
	bg_start "$1" "$NS_TMP/$2.log" "$DCBXD" -d -D dcbx -c "$NS_TMP/$2.conf" \
	    -s "$NS_TMP/$2.sock"
	eval "XD_PID_$2=$BG_PID"
	wait_for 10 test -S "$NS_TMP/$2.sock"
}

xd_pid() { eval "echo \$XD_PID_$1"; }

# xd_stop NAME [SIGNAL]: stop a daemon and wait (bounded) for its exit.
xd_stop() {
	_p=$(xd_pid "$1")
	kill "-${2:-TERM}" "$_p" 2>/dev/null
	wait_for 20 sh -c "! kill -0 $_p 2>/dev/null"
}

xd_hup() { kill -HUP "$(xd_pid "$1")"; }

# xd_ctl NAME ARGS...: dcbctl -j ARGS on NAME's socket.
xd_ctl() { _xn=$1; shift; ctl "$NS_TMP/$_xn.sock" "$@"; }

# xd_wait NAME IF T0_NS LIMIT_S CHECK...: poll show dcbx (dcbctl -j, every
# 5 ms, inside one python process) until every CHECK holds; print the ms
# since T0_NS.  On failure print what differed last (for diag) and return
# 1.  CHECKs: see xd_python.
xd_wait() {
	_n=$1; shift
	$PY "$XD_PY" wait "$NS_TMP/$_n.sock" "$@"
}

# xd_ok NAME IF CHECK...: the checks hold now (no output).
xd_ok() {
	_n=$1; _if=$2; shift 2
	$PY "$XD_PY" wait "$NS_TMP/$_n.sock" "$_if" "$(date +%s%N)" 0 "$@" \
	    >/dev/null
}
# xd_until SECONDS NAME IF CHECK...: the checks hold within SECONDS (a
# bound, not a measurement).
xd_until() {
	_s=$1 _n=$2 _if=$3; shift 3
	$PY "$XD_PY" wait "$NS_TMP/$_n.sock" "$_if" "$(date +%s%N)" "$_s" "$@" \
	    >/dev/null
}

# xd_conv DESC NAME IF T0_NS WAIT_S CHECK...: one TAP test: the checks
# come to hold (polled up to WAIT_S, a bound, not a limit on the time).
# The time goes to diag, as NAME's own log stamps it: from T0 (taken just
# before the trigger) to NAME's last "IF: status" line.
xd_conv() {
	_d=$1 _n=$2 _if=$3 _t0=$4 _w=$5; shift 5
	if _ms=$(xd_wait "$_n" "$_if" "$_t0" "$_w" "$@"); then
		_ls=$(log_last_ms "$NS_TMP/$_n.log" "$_if: status")
		if [ -n "$_ls" ] && [ "$_ls" -ge $((_t0 / 1000000)) ]; then
			diag "$_d: $((_ls - _t0 / 1000000)) ms by $_n's log ($_ms ms seen by polling)"
		else
			diag "$_d: no status line logged since ($_ms ms seen by polling)"
		fi
		ok "$_d"
	else
		diag "$_ms"
		not_ok "$_d (not within $_w s)"
	fi
}

# xd_dcbctl NAME IF CHECK...: dcbctl -j show dcbx shows the same.
xd_dcbctl() {
	_n=$1 _if=$2; shift 2
	timeout 10 "$DCBCTL" -s "$NS_TMP/$_n.sock" -j show dcbx dev "$_if" \
	    >"$NS_TMP/dcbctl.json" 2>"$NS_TMP/dcbctl.err" &&
	$PY "$XD_PY" check "$NS_TMP/dcbctl.json" "$@"
}

# xd_capture NS IF SECONDS FILE: capture LLDP (both directions) into a
# pcap in the background with an AF_PACKET socket, every frame written and
# flushed as it comes, until SECONDS pass or xd_capture_stop.  (tshark -w
# loses the last frames when interrupted.)  Waits until the socket is bound.
xd_capture() {
	rm -f "$4.ready" "$4.stop"
	bg_start "$1" "$NS_TMP/cap-$2.log" $PY "$XD_PY" capture "$2" "$3" "$4"
	XD_CAP_PID=$BG_PID
	wait_for 10 test -e "$4.ready"
}
xd_capture_stop() {
	touch "$1.stop"
	wait_for 20 sh -c "! kill -0 $XD_CAP_PID 2>/dev/null"
}

xd_python() {
	cat <<'EOP'
import json, os, socket, subprocess, sys, time

TSA8 = ["strict"] * 8
def ets(prio_tc, bw):
    bw = bw + [0] * (8 - len(bw))
    tsa = ["ets" if bw[i] else "strict" for i in range(8)]
    if prio_tc == [0] * 8:
        tsa = ["ets"] + ["strict"] * 7
    return {"prio_tc": prio_tc, "tc_bw": bw,
            "tc_tsa": tsa}
A_TC = [0, 0, 0, 1, 1, 2, 3, 2]
# FCoE is there so that CEE, whose App carries only EtherType and TCP/UDP
# port entries, has something to adopt too.
APP = [("dgram-port", 4791, 3), ("dscp", 26, 3), ("ethertype", 0x8906, 3)]
APP_B = [("dgram-port", 4791, 3), ("dscp", 26, 3), ("ethertype", 0x8906, 4)]
POL = {
    "A": {"ets": ets(A_TC, [50, 30, 20]), "pfc": [3, 4], "app": APP},
    "B": {"ets": ets(A_TC, [40, 40, 20]), "pfc": [3], "app": APP_B},
    "C": {"ets": ets(A_TC, [50, 30, 20]), "pfc": [3, 5], "app": APP},
    "S": {"ets": ets([0] * 8, [100]), "pfc": [], "app": []},
}

def conf(role, mode, pol, match):
    p = POL[pol]
    q = lambda l: ", ".join('"%s"' % x for x in l)
    n = lambda l: ", ".join(str(x) for x in l)
    app = ",\n".join('  { selector = "%s"; protocol = %d; priority = %d; }'
                     % a for a in p["app"])
    app = app.replace("protocol = 35078;", "protocol = 0x8906;")
    print('dcbxd: { tx-interval = %d; tx-hold = 4; };' % TXI)
    print('ports = ( { match = "%s"; role = "%s"; mode = "%s";' %
          (match, role, mode))
    print(' backend = "readonly";')
    e = p["ets"]
    print(' ets = { prio-tc = [ %s ]; tc-bw = [ %s ]; tc-tsa = [ %s ]; };'
          % (n(e["prio_tc"]), n(e["tc_bw"]), q(e["tc_tsa"])))
    print(' pfc = { prio-pfc = [ %s ]; };' % n(p["pfc"]))
    print(' app = (\n%s\n );' % app)
    print('} );')

def show_dcbx(path, dev):
    """dcbctl -j show dcbx dev DEV: the port's object (the shared client)."""
    import subprocess
    r = subprocess.run([os.environ["DCBCTL"], "-s", path, "-j", "show",
                        "dcbx", "dev", dev], capture_output=True, timeout=10)
    if r.returncode != 0:
        raise ValueError("dcbctl: %s" % r.stderr.decode().strip())
    return json.loads(r.stdout)

def apps(l):
    return sorted((a["selector"], a["protocol"], a["priority"]) for a in l)

def pfcset(p):
    return [i for i in range(8) if p["prio_pfc"][i]]

# One CHECK is WHAT=VALUE:
#   oper=POL / admin=POL   ets, pfc and app of that block equal POL
#   peer=POL               the peer blocks equal POL
#   status=ST              every feature's status is ST
#   ets|pfc|app=ST         that feature's status
#   reason~TEXT            some feature's reason contains TEXT
#   oper_ets=POL           only the oper ETS equals POL's
#   tc_bw=50,30            the oper tc-bw starts so
#   active=M  mode=M  peer_mac=null|set  invalid>=N
#
# In CEE (r["active"] == "cee") a policy is seen through what CEE can say:
# PG has no TSA per class but PGID 15 for strict priorities, so ETS is
# compared per priority (strict, or the bandwidth of its group and the
# priorities sharing it); App carries only EtherType and TCP/UDP port
# entries: stream-port, dgram-port and port all travel as "port", and DSCP
# is left out.
def ets_canon(e):
    out = []
    for p in range(8):
        tc = e["prio_tc"][p]
        if e["tc_tsa"][tc] == "strict":
            out.append("strict")
        else:
            out.append((e["tc_bw"][tc], [q for q in range(8)
                                         if e["prio_tc"][q] == tc]))
    return out

def cee_app(l):
    # TCP, UDP and TCP/UDP port entries all become CEE "port" entries.
    ports = ("port", "stream-port", "dgram-port")
    return sorted({("port" if s in ports else s, n, p) for s, n, p in l
                   if s == "ethertype" or s in ports})

def cfg_diff(r, where, pol):
    p, bad = POL[pol], []
    # A controller runs its admin config whatever CEE can carry of it.
    cee = r["active"] == "cee" and (where == "peer" or
                                    where == "oper" and r["role"] == "willing")
    e = r["ets"][where]
    if e is None:
        return ["ets.%s is null" % where]
    if cee and ets_canon(e) != ets_canon(p["ets"]):
        bad.append("ets.%s (as CEE PG) %s != %s" % (where, ets_canon(e),
                   ets_canon(p["ets"])))
    for k in ("prio_tc", "tc_bw", "tc_tsa") if not cee else ():
        if e[k] != p["ets"][k]:
            bad.append("ets.%s.%s %s != %s" % (where, k, e[k], p["ets"][k]))
    f = r["pfc"][where]
    if f is None or pfcset(f) != p["pfc"]:
        bad.append("pfc.%s %s != %s" % (where, f and pfcset(f), p["pfc"]))
    a, want = r["app"][where], sorted(p["app"])
    if cee:
        want = cee_app(want)
    if a is None or apps(a) != want:
        bad.append("app.%s %s != %s" % (where, a and apps(a), want))
    return bad

def diff(r, checks):
    bad = []
    for c in checks:
        if "~" in c:
            k, v = c.split("~", 1)
            if not any(v in r[f]["reason"] for f in ("ets", "pfc", "app")):
                bad.append("no reason contains %r: %s" % (v, [r[f]["reason"]
                           for f in ("ets", "pfc", "app")]))
            continue
        if ">=" in c:
            k, v = c.split(">=", 1)
            if r["invalid_peer"] < int(v):
                bad.append("invalid_peer %d < %s" % (r["invalid_peer"], v))
            continue
        k, v = c.split("=", 1)
        if k == "oper_ets":
            bad += [b for b in cfg_diff(r, "oper", v) if b.startswith("ets")]
        elif k == "tc_bw":
            if r["ets"]["oper"]["tc_bw"][:len(v.split(","))] != \
                    [int(x) for x in v.split(",")]:
                bad.append("ets.oper.tc_bw %s" % r["ets"]["oper"]["tc_bw"])
        elif k in ("oper", "admin", "peer"):
            bad += cfg_diff(r, k, v)
        elif k == "status":
            for f in ("ets", "pfc", "app"):
                if r[f]["status"] != v:
                    bad.append("%s status %s != %s (%s)" % (f, r[f]["status"],
                               v, r[f]["reason"]))
        elif k in ("ets", "pfc", "app"):
            if r[k]["status"] != v:
                bad.append("%s status %s != %s (%s)" % (k, r[k]["status"], v,
                           r[k]["reason"]))
        elif k == "peer_mac":
            if (r["peer_mac"] is None) != (v == "null"):
                bad.append("peer_mac %s" % r["peer_mac"])
        elif r[k] != v:
            bad.append("%s %s != %s" % (k, r[k], v))
    return bad

def wait(path, dev, t0, limit, checks):
    end = time.time() + float(limit)
    last = ["no answer"]
    while True:
        try:
            last = diff(show_dcbx(path, dev), checks)
        except (OSError, ValueError, KeyError, TypeError,
                subprocess.TimeoutExpired) as e:
            last = ["%s: %s" % (type(e).__name__, e)]
        if not last:
            print("%.1f" % ((time.time_ns() - int(t0)) / 1e6))
            return 0
        if time.time() >= end:
            print("; ".join(last))
            return 1
        time.sleep(0.005)

# Frames as tshark decodes them (pdml-fields.awk: "N FIELD VALUE" lines).
def frames(path):
    fr = {}
    for line in open(path):
        n, f, v = (line.rstrip("\n").split(" ", 2) + [""])[:3]
        fr.setdefault(int(n), []).append((f, v))
    return [fr[k] for k in sorted(fr)]

TSA = {0: "strict", 1: "cbs", 2: "ets", 255: "vendor"}
SF = {1: "ethertype", 2: "stream-port", 3: "dgram-port", 4: "port", 5: "dscp"}
CSF = {0: "ethertype", 1: "port"}

def dcbx_of(fields):
    """The DCBX content of one frame: {"ets":..,"pfc":[..],"app":[..]}."""
    d, sub, ctype, cur = {}, None, None, None
    for f, v in fields:
        if f == "lldp.ieee.802_1.subtype":
            sub, ctype = int(v, 0), None
        elif f == "lldp.dcbx.type":
            ctype, sub = int(v, 0), None
        elif f == "lldp.tlv.type" and int(v, 0) != 127:
            sub = ctype = None
        key = {9: "ets", 10: "reco", 11: "pfc", 12: "app"}.get(sub) or \
            {2: "ets", 3: "pfc", 4: "app"}.get(ctype)
        if key is None:
            continue
        e = d.setdefault(key, {"prio_tc": [], "tc_bw": [], "tc_tsa": [],
                               "pfc": [], "app": []})
        if ".pgid_prio" in f:
            e["prio_tc"].append(int(v, 0))
        elif ".pg.per" in f:
            e["tc_bw"].append(int(v, 0))
        elif ".ets.tsa" in f:
            e["tc_tsa"].append(TSA.get(int(v, 0), v))
        elif ".pfc.prio" in f and int(v, 0):
            e["pfc"].append(int(f.rsplit("prio", 1)[1]))
        elif f == "lldp.dcbx.ieee.app.prio":
            cur = [None, None, int(v, 0)]
        elif f == "lldp.dcbx.iee.app.sf" and cur:
            cur[0] = SF.get(int(v, 0), v)
        elif f == "lldp.dcbx.feature.app.proto":
            if sub == 12 and cur:
                cur[1] = int(v, 0)
                e["app"].append(tuple(cur))
            else:
                cur = [None, int(v, 0), None]
        elif f == "lldp.dcbx.feature.app.sf" and cur:
            cur[0] = CSF.get(int(v, 0), v)
        elif f == "lldp.dcbx.feature.app.prio" and cur:
            # CEE sends a priority bitmap; tshark shows it as the priority.
            e["app"].append((cur[0], cur[1], int(v, 0)))
    return d

def frame_matches(d, pol, cee):
    """The policy as it appears in one frame, or the list of differences."""
    p, bad = POL[pol], []
    if "ets" not in d or "pfc" not in d or "app" not in d:
        return ["missing TLVs %s" % sorted(d)]
    e = d["ets"]
    if cee:
        pg = {"prio_tc": [7 if x == 15 else x for x in e["prio_tc"]],
              "tc_bw": e["tc_bw"], "tc_tsa": ["ets"] * 7 + ["strict"]}
        if 15 in e["prio_tc"] and pg["tc_bw"][7]:
            bad.append("PGID 15 in use but PG 7 has bandwidth")
        if ets_canon(pg) != ets_canon(p["ets"]):
            bad.append("PG %s" % e)
        want_app = cee_app(p["app"])
    else:
        for k in ("prio_tc", "tc_bw", "tc_tsa"):
            if e[k] != p["ets"][k]:
                bad.append("ets %s %s" % (k, e[k]))
        want_app = sorted(p["app"])
    if sorted(d["pfc"]["pfc"]) != p["pfc"]:
        bad.append("pfc %s" % d["pfc"]["pfc"])
    if sorted(d["app"]["app"]) != want_app:
        bad.append("app %s != %s" % (sorted(d["app"]["app"]), want_app))
    return bad

# pcapcheck FIELDS MAC MODE POL...: the frames from MAC carry each POL, in
# that order (each in some frame after the previous one).
def pcapcheck(path, mac, mode, pols):
    fl = [f for f in frames(path) if ("eth.src", mac) in f]
    i, last = 0, "no frame from %s" % mac
    for pol in pols:
        while i < len(fl):
            bad = frame_matches(dcbx_of(fl[i]), pol, mode == "cee")
            i += 1
            if not bad:
                break
            last = "; ".join(bad)
        else:
            print("policy %s not seen from %s (%d frames; last: %s)" %
                  (pol, mac, len(fl), last))
            return 1
    return 0

def capture(ifname, seconds, path):
    import struct
    # ETH_P_ALL: a socket bound to one EtherType misses outgoing frames.
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.bind((ifname, 0))
    s.settimeout(0.05)
    out = open(path, "wb")
    out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    out.flush()
    open(path + ".ready", "w").close()
    end = time.time() + float(seconds)
    while time.time() < end and not os.path.exists(path + ".stop"):
        try:
            b = s.recv(65535)
        except socket.timeout:
            continue
        if b[12:14] != b"\x88\xcc":
            continue
        t = time.time()
        out.write(struct.pack("<IIII", int(t), int(t % 1 * 1e6), len(b),
                              len(b)) + b)
        out.flush()
    out.close()

# inject IF COUNT INTERVAL BW: send COUNT LLDPDUs from a non-willing
# "switch" with IEEE ETS Configuration and Recommendation whose TC
# bandwidths are BW (comma-separated, TCs 0.. as "ets"; e.g. 60,50 sums to
# 110), PFC on 3 and APP UDP 4791 -> 3.  Bounded by COUNT.
def tlv(t, body):
    return bytes([t << 1 | len(body) >> 8, len(body) & 0xff]) + body

def inject(ifname, count, interval, bw):
    bw = [int(x) for x in bw.split(",")]
    bw += [0] * (8 - len(bw))
    prio_tc = [0, 0, 0, 1, 1, 1, 1, 1]
    pri = bytes(prio_tc[i] << 4 | prio_tc[i + 1] for i in range(0, 8, 2))
    tsa = bytes(2 if i < 2 else 0 for i in range(8))
    ets = bytes([0x08]) + pri + bytes(bw) + tsa		# not willing, 8 TCs
    oui = b"\x00\x80\xc2"
    mac = open("/sys/class/net/%s/address" % ifname).read().strip()
    mac = bytes.fromhex(mac.replace(":", ""))
    pdu = (tlv(1, b"\x04" + mac) + tlv(2, b"\x05inject") +
           tlv(3, b"\x00\x78") +
           tlv(127, oui + b"\x09" + ets) + tlv(127, oui + b"\x0a" + b"\x00" + ets[1:]) +
           tlv(127, oui + b"\x0b" + bytes([0x08, 0x08])) +
           tlv(127, oui + b"\x0c" + b"\x00" + bytes([3 << 5 | 3]) +
               (4791).to_bytes(2, "big")) + tlv(0, b""))
    frame = b"\x01\x80\xc2\x00\x00\x0e" + mac + b"\x88\xcc" + pdu
    frame += b"\x00" * max(0, 60 - len(frame))
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    for i in range(int(count)):
        s.send(frame)
        time.sleep(float(interval))

TXI = int(os.environ.get("XD_TX_INTERVAL", "30"))
cmd = sys.argv[1]
if cmd == "inject":
    inject(*sys.argv[2:6])
elif cmd == "capture":
    capture(sys.argv[2], sys.argv[3], sys.argv[4])
elif cmd == "pcapcheck":
    sys.exit(pcapcheck(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
elif cmd == "conf":
    conf(*sys.argv[2:6])
elif cmd == "wait":
    sys.exit(wait(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5],
                  sys.argv[6:]))
elif cmd == "check":
    bad = diff(json.load(open(sys.argv[2])), sys.argv[3:])
    if bad:
        print("; ".join(bad), file=sys.stderr)
    sys.exit(1 if bad else 0)
EOP
}

# xd_negotiation SERVER_MODE CTRL_MODE ACTIVE: the whole willing/controller
# story on one veth pair: a controller ("c", policy A, then B) and a
# willing server ("s", admin policy S), then both non-willing, then the
# controller stops.  ACTIVE is the mode the server must end up speaking.
# 17 tests.
xd_negotiation() {
	_sm=$1 _cm=$2 _act=$3
	ns_add c && ns_add s || bail "namespaces"
	veth_add c xc0 s xs0 || bail "veth"
	xd_conf c controller "$_cm" A && xd_conf s willing "$_sm" S ||
	    bail "configs"
	xd_start c c && xd_start s s || bail "dcbxd did not start"
	XD_CMAC=$(nsx c cat /sys/class/net/xc0/address)
	# The capture needs xs0 up; the link is up (carrier) with xc0.
	nsx s ip link set xs0 up
	XD_CAP=""
	if command -v tshark >/dev/null 2>&1 && xd_capture s xs0 120 \
	    "$NS_TMP/neg.pcap"; then
		XD_CAP=$NS_TMP/neg.pcap
	fi

	# 1. Link-up: the willing server runs the controller's policy.
	_t0=$(date +%s%N)
	nsx c ip link set xc0 up
	xd_conv "$_sm server adopts the $_cm controller's policy after link-up" \
	    s xs0 "$_t0" 30 oper=A peer=A status=peer active="$_act" \
	    peer_mac=set
	check "... after its link came up and the peer was heard (s's log order)" \
	    eval 'log_before "$NS_TMP/s.log" "xs0: link up" "new neighbour" &&
	        log_before "$NS_TMP/s.log" "new neighbour" "xs0: status.* peer"'
	check "the server's admin config is still its own" xd_ok s xs0 admin=S
	check "dcbctl -j show dcbx shows the adopted policy" \
	    xd_dcbctl s xs0 oper=A status=peer active="$_act"
	check "the controller keeps its own policy (status local)" \
	    xd_ok c xc0 oper=A admin=A status=local active="$_act"

	# 2. The controller's policy changes (SIGHUP): the server follows.
	xd_conf c controller "$_cm" B || bail "config B"
	_t0=$(date +%s%N); xd_hup c
	xd_conv "server follows the controller's new policy after SIGHUP" \
	    s xs0 "$_t0" 30 oper=B peer=B status=peer
	check "dcbctl -j shows the new policy" xd_dcbctl s xs0 oper=B status=peer

	# 3. Both non-willing, with different PFC: a mismatch on both sides.
	xd_conf s controller "$_sm" C || bail "config C"
	_t0=$(date +%s%N); xd_hup s
	xd_conv "both non-willing, PFC 3,4 vs 3,5: the server reports a mismatch" \
	    s xs0 "$_t0" 30 pfc=mismatch "pfc~PFC"
	check "... and runs its own PFC" xd_ok s xs0 oper=C
	check "the controller reports the mismatch too" \
	    xd_until 30 c xc0 pfc=mismatch "pfc~PFC" oper=B

	# 4. The server willing again, then the controller stops.
	xd_conf s willing "$_sm" S || bail "config S"
	xd_hup s
	check "willing again: the server adopts policy B again" \
	    xd_until 30 s xs0 oper=B status=peer
	_t0=$(date +%s%N); xd_stop c TERM
	# With no peer, a cee server speaks CEE, an ieee or auto one IEEE
	# (auto starts in IEEE and returns to it when the CEE peer is gone).
	_back=ieee
	[ "$_sm" = cee ] && _back=cee
	xd_conv "controller stopped (SIGTERM): the server reverts to its admin config, speaking $_back" \
	    s xs0 "$_t0" 30 status=no-peer oper=S admin=S peer_mac=null \
	    active="$_back"
	check_clean "controller and server: no sanitizer report" \
	    "$NS_TMP/c.log" "$NS_TMP/s.log"
	xd_interop "$_act"
}

# xd_interop MODE: 4 tests on what the capture of xd_negotiation holds.
xd_interop() {
	if [ -z "$XD_CAP" ]; then
		for _t in "no expert info" "controller A then B" "server C" \
		    "shutdown"; do skip "tshark missing or capture failed" "$_t"; done
		return
	fi
	xd_capture_stop "$XD_CAP"
	_cm=$(nsx c cat /sys/class/net/xc0/address 2>/dev/null) ||
	    _cm=$XD_CMAC
	_sm=$(nsx s cat /sys/class/net/xs0/address)
	timeout 60 tshark -n -r "$XD_CAP" -T pdml 2>"$NS_TMP/pdml.err" |
	    awk -f "$top_srcdir/tests/interop/pdml-fields.awk" >"$NS_TMP/neg.fields"
	grep -v "Running as user" "$NS_TMP/pdml.err" | head -3 | sed 's/^/tshark: /' |
	    while read -r _l; do diag "$_l"; done
	diag "captured $(awk '{print $1}' "$NS_TMP/neg.fields" | sort -u | wc -l) LLDPDUs"
	if ! _w=$(tshark_expert "$XD_CAP" warn); then
		not_ok "tshark: no malformed frame or expert warning (tshark failed)"
	elif [ -z "$_w" ]; then ok "tshark: no malformed frame or expert warning"
	else diag "$_w"; not_ok "tshark: no malformed frame or expert warning"; fi
	check "tshark decodes the controller's policy A, then B ($1)" \
	    $PY "$XD_PY" pcapcheck "$NS_TMP/neg.fields" "$_cm" "$1" A B
	check "tshark decodes the non-willing server's policy C ($1)" \
	    $PY "$XD_PY" pcapcheck "$NS_TMP/neg.fields" "$_sm" "$1" C
	check "the controller's last LLDPDU is a shutdown (TTL 0)" \
	    $PY -c 'import sys
m, ttl = sys.argv[2], None
cur = None
for l in open(sys.argv[1]):
    n, f, v = (l.split(" ", 2) + [""])[:3]
    if f == "eth.src": cur = v.strip()
    if f == "lldp.time_to_live" and cur == m: ttl = v.strip()
sys.exit(0 if ttl == "0" else 1)' "$NS_TMP/neg.fields" "$_cm"
}
