# SPDX-License-Identifier: ISC
# golden.py -- helpers for dcbctl_golden.sh.
#   mask TMPDIR < output > masked   volatile values out (see mask())
#   inject IF COUNT                 COUNT distinct LLDPDUs on IF
#   inject_rich IF                  one station with every TLV shown
#   inject_avl_bad IF               one with a malformed App VLAN TLV
#   inorder EXPECTED ACTUAL         every line of EXPECTED appears in
#                                   ACTUAL, in that order
import json, re, socket, sys, time

# Per-port LLDP counters, TTLs left and the PIDs/paths of this run vary;
# everything else dcbctl prints is fixed by the configs and the MACs.
VOLATILE = ("ttl_left", "host_held_frames")
# The pause engine (ks0): its counters move with whatever frames the
# kernel sends (IPv6 ND, LLDP) and its thresholds with its measured
# reaction; what it enforces (tc, pfc) and its settings are fixed.
ENGINE_FIXED = ("priority", "tc", "speed_bps", "host_drain_bps",
                "queue_memory", "mtu", "tap_ring", "open_burst", "high_bytes",
                "high2_bytes", "low_bytes")


def mask_json(v, parent=None, eng=False):
    if isinstance(v, dict) and isinstance(v.get("realtime"), bool):
        v = dict(v, realtime="<rt>")    # SCHED_FIFO: the machine's say
    if isinstance(v, dict):
        return {k: ("<n>" if isinstance(x, int) and not isinstance(x, bool)
                    and (k in VOLATILE or parent == "lldp" or
                         (eng and k not in ENGINE_FIXED))
                    else mask_json(x, k, eng or k in ("engine", "host")))
                for k, x in v.items()}
    if isinstance(v, list):
        return [mask_json(x, parent, eng) for x in v]
    if isinstance(v, str) and parent == "text":
        return mask_text(v)    # the metrics text
    return v


# Text rows of the engine whose values are fixed (the rest are masked).
ENGINE_ROWS = ("tc", "pfc", "port", "tap", "speed-bps", "host-drain-bps",
               "queue-memory", "unpaced", "bare", "mtu", "pfc-enabled",
               "host-tap-ring", "host-open-burst", "host-high-bytes",
               "host-high2-bytes", "host-low-bytes", "host-why-not",
               "host-backpressure", "host-tun-stops-queue")


def mask_text(text):
    out, ttl_col = [], None
    for line in text.split("\n"):
        if "TTL-LEFT" in line:
            ttl_col = line.index("TTL-LEFT")
        elif ttl_col is not None and len(line) > ttl_col and \
                line[ttl_col].isdigit():
            m = re.match(r"\d+", line[ttl_col:])
            w = m.end()
            line = line[:ttl_col] + "T" * w + line[ttl_col + w:]
        line = re.sub(r"^(  lldp [\w-]+\s+)\d+$", r"\1N", line)
        m = re.match(r"^  (engine|host|pfc|priority)( [\w-]+)?(\s+)(.*)$",
                     line)
        if m and m.group(1) in ("engine", "host") and not (
                m.group(1) == "engine" and m.group(2).strip() in ENGINE_ROWS):
            line = "  %s%s%s%s" % (m.group(1), m.group(2) or "", m.group(3),
                                   re.sub(r"\b\d+\b", "N", m.group(4)))
        line = re.sub(r"^(  (engine host-|host )realtime\s+)(on|off)$",
                      r"\1X", line)
        # the per-priority grid's columns are as wide as its widest
        # (masked) counter: one spacing instead
        m = re.match(r"^(  (engine|host|pfc|priority)( [\w-]+)?\s+)(\S.*"
                     r"(\s{2,}\S+){7})$", line)
        if m:
            line = m.group(1) + "  ".join(m.group(4).split())
        line = re.sub(r"(counters as of )\d+( ms ago)", r"\1N\2", line)
        # the engine's gauges move with the same frames
        line = re.sub(r"^(dcbxd_engine_\w+(\{[^}]*\})?) [\d.]+$", r"\1 N",
                      line)
        # monitor: the time dcbctl read each event
        line = re.sub(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d{4} ",
                      "TIME ", line)
        line = re.sub(r"( ttl_left=)\d+", r"\1N", line)
        line = re.sub(r"(, TTL \d+ \()\d+( left\))", r"\1N\2", line)
        # metrics: counters move with time (LLDP frames), the rest is state
        line = re.sub(r"^(dcbxd_\w+_total(\{[^}]*\})?) \d+$", r"\1 N", line)
        out.append(line)
    return "\n".join(out)


def mask(tmp):
    text = sys.stdin.read().replace(tmp, "TMP")
    try:
        # -j output: one value per line (monitor -j: many).
        vals = [json.loads(l) for l in text.splitlines() if l]
        if vals:
            for v in vals:
                print(json.dumps(mask_json(v), indent=1))
            return
    except ValueError:
        pass
    sys.stdout.write(mask_text(text))


def tlv(t, body):
    return bytes([t << 1 | len(body) >> 8, len(body) & 0xff]) + body


# COUNT stations, each its own chassis (locally administered MAC
# 02:00:5e:xx:xx:xx) and port "p<i>", TTL 600 s; sent with a pause every
# 100 frames so that the socket buffers keep up, then once more (the
# second round only refreshes what arrived).
def inject(ifname, count):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    frames = []
    for i in range(int(count)):
        mac = bytes([2, 0, 0x5e, i >> 16 & 0xff, i >> 8 & 0xff, i & 0xff])
        pdu = (tlv(1, b"\x04" + mac) + tlv(2, b"\x07p%d" % i) +
               tlv(3, b"\x02\x58") + tlv(5, b"sta%d" % i) + tlv(0, b""))
        fr = b"\x01\x80\xc2\x00\x00\x0e" + mac + b"\x88\xcc" + pdu
        frames.append(fr + b"\x00" * max(0, 60 - len(fr)))
    for rnd in range(2):
        for i, fr in enumerate(frames):
            s.send(fr)
            if i % 100 == 99:
                time.sleep(0.01)


# One station with every TLV dcbctl's details show: capabilities, a
# management address, 802.1 PVID, VLAN Name and Application VLAN (FCoE on
# VLAN 100, DSCP 46 on VLAN 200), 802.3 Max Frame Size, an org TLV nobody
# knows and a reserved TLV type.
def inject_rich(ifname):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    mac = bytes([2, 0, 0x5e, 0xff, 0xff, 0xfe])
    dot1, dot3 = b"\x00\x80\xc2", b"\x00\x12\x0f"
    pdu = (tlv(1, b"\x04" + mac) + tlv(2, b"\x05swp7") + tlv(3, b"\x02\x58") +
           tlv(4, b"to server7") + tlv(5, b"rich") + tlv(6, b"leaf 1") +
           tlv(7, b"\x00\x14\x00\x04") +
           tlv(8, b"\x05\x01\xc0\x00\x02\x07\x02\x00\x00\x00\x09\x00") +
           tlv(127, dot1 + b"\x01\x00\x0a") +
           tlv(127, dot1 + b"\x03\x00\x14\x07storage") +
           tlv(127, dot1 + b"\x10\x06\x41\x89\x06\x0c\x85\x00\x2e") +
           tlv(127, dot3 + b"\x04\x24\x00") +
           tlv(127, b"\x00\x00\x5e\x2a\xde\xad") +
           tlv(100, b"\x01\x02\x03") + tlv(0, b""))
    s.send(b"\x01\x80\xc2\x00\x00\x0e" + mac + b"\x88\xcc" + pdu)


# One station whose Application VLAN TLV is 7 octets long (4 + 4N is the
# rule): dcbxd must count it and say why, and keep the rest.
def inject_avl_bad(ifname):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    mac = bytes([2, 0, 0x5e, 0xff, 0xff, 0xfd])
    pdu = (tlv(1, b"\x04" + mac) + tlv(2, b"\x05swp8") + tlv(3, b"\x02\x58") +
           tlv(5, b"avl-bad") +
           tlv(127, b"\x00\x80\xc2\x10\x06\x41\x89") + tlv(0, b""))
    s.send(b"\x01\x80\xc2\x00\x00\x0e" + mac + b"\x88\xcc" + pdu)


def inorder(exp, act):
    want = [l for l in open(exp).read().split("\n") if l]
    have = open(act).read().split("\n")
    i = 0
    for l in have:
        if i < len(want) and l == want[i]:
            i += 1
    if i < len(want):
        print("missing, in order: %r" % want[i])
        return 1
    return 0


cmd = sys.argv[1]
if cmd == "mask":
    mask(sys.argv[2])
elif cmd == "inject":
    inject(sys.argv[2], sys.argv[3])
elif cmd == "inject_rich":
    inject_rich(sys.argv[2])
elif cmd == "inject_avl_bad":
    inject_avl_bad(sys.argv[2])
elif cmd == "inorder":
    sys.exit(inorder(sys.argv[2], sys.argv[3]))
