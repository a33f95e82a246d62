#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""sockapp.py -- ordinary socket applications for the engine's lossless tests.

  sockapp.py recv OUT PORT[,PORT...] [--tcp PORT] [--idle S] [--limit S]
          [--rate N] [--rcvbuf BYTES]
      UDP sockets on each PORT (and a TCP listener); records every datagram's
      (port, sequence) in arrival order and every TCP stream's byte count and
      pattern errors; writes a JSON summary to OUT when idle for S seconds
      after the first arrival (or after LIMIT seconds at most).  Prints
      "recv ready" once bound.  --rate: a slow application, N datagrams a
      second at most (its socket buffer, BYTES, 16 MiB, fills).
  sockapp.py udp HOST PORT COUNT SIZE [SENDERS [GAP_MS]]
      SENDERS threads (1) each send COUNT datagrams of SIZE octets with
      blocking sendto(), GAP_MS (0) apart; a datagram carries (sender,
      sequence).  Prints JSON.
  sockapp.py tcp HOST PORT BYTES
      One blocking TCP stream of BYTES (a counting pattern).  Prints JSON.

  sockapp.py macctrl IF KIND COUNT [RATE]
      COUNT MAC Control frames on IF (AF_PACKET), RATE a second (as fast
      as it can without): KIND
      pfc3 (valid PFC, priority 3, time 65535), xon3 (priority 3, time 0),
      badop (opcode 0x0999), short (18 octets), long (a PFC frame of 100
      octets), reserved (PFC with the vector's reserved octet set).

Sequence numbers let the receiver tell loss (gaps) from reordering; each
sender's numbers are checked separately.
"""
import json
import select
import socket
import struct
import sys
import threading
import time

SO_RCVBUFFORCE = 33


# Octet i of a stream is (i * 7) % 251: a shift or a hole shows.
PAT = bytes((i * 7) % 251 for i in range(251)) * 270


def pattern(off, n):
    return PAT[off % 251:off % 251 + n]


def recv(out, ports, tcp_port, idle, limit, rate=0.0, rcvbuf=16 << 20):
    socks = {}
    for p in ports:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, rcvbuf)
        s.bind(("0.0.0.0", p))
        s.setblocking(False)
        socks[s.fileno()] = (s, p)
    lst = None
    if tcp_port:
        lst = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        lst.bind(("0.0.0.0", tcp_port))
        lst.listen(16)
        lst.setblocking(False)
    streams = {}        # fd -> [sock, bytes, errors]
    done_streams = []
    print("recv ready", flush=True)
    order = []          # (port, sender, seq) in arrival order
    start = time.monotonic()
    last = None
    nread, t_first = 0, None
    while True:
        now = time.monotonic()
        if now - start > limit or (last is not None and now - last > idle):
            break
        fds = list(socks) + list(streams) + ([lst.fileno()] if lst else [])
        r, _, _ = select.select(fds, [], [], 0.05)
        for fd in r:
            if lst is not None and fd == lst.fileno():
                c, _ = lst.accept()
                c.setblocking(False)
                streams[c.fileno()] = [c, 0, 0]
                continue
            if fd in streams:
                st = streams[fd]
                try:
                    b = st[0].recv(1 << 16)
                except BlockingIOError:
                    continue
                last = time.monotonic()
                if not b:
                    done_streams.append({"bytes": st[1], "errors": st[2]})
                    st[0].close()
                    del streams[fd]
                    continue
                if b != pattern(st[1], len(b)):
                    st[2] += 1
                st[1] += len(b)
                continue
            s, p = socks[fd]
            while True:
                if rate > 0 and t_first is not None:    # N a second at most
                    ahead = t_first + nread / rate - time.monotonic()
                    if ahead > 0:
                        time.sleep(min(ahead, 0.05))
                        break
                try:
                    d = s.recv(65536)
                except BlockingIOError:
                    break
                nread += 1
                last = time.monotonic()
                if t_first is None:
                    t_first = last
                snd, seq = struct.unpack_from("!II", d)
                order.append((p, snd, seq))
    res = {"ports": {}, "tcp": done_streams, "order_len": len(order)}
    for p in ports:
        idx = [i for i, o in enumerate(order) if o[0] == p]
        nxt, gaps, reord, n = {}, 0, 0, 0
        for i in idx:
            _, snd, seq = order[i]
            n += 1
            exp = nxt.get(snd, 0)
            if seq > exp:
                gaps += seq - exp
            elif seq < exp:
                reord += 1
            nxt[snd] = max(exp, seq + 1)
        res["ports"][str(p)] = {
            "datagrams": n, "gaps": gaps, "reorders": reord,
            "senders": len(nxt),
            "first": idx[0] if idx else -1, "last": idx[-1] if idx else -1}
    with open(out, "w") as f:
        json.dump(res, f)
        f.write("\n")


def udp(host, port, count, size, senders, gap):
    errs = [0] * senders

    def one(k):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        buf = bytearray(size)
        for i in range(count):
            struct.pack_into("!II", buf, 0, k, i)
            try:
                s.sendto(buf, (host, port))
            except OSError:
                errs[k] += 1
            if gap:
                time.sleep(gap)
        s.close()

    t0 = time.monotonic()
    th = [threading.Thread(target=one, args=(k,)) for k in range(senders)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    print(json.dumps({"sent": count * senders, "errors": sum(errs),
                      "seconds": round(time.monotonic() - t0, 3)}), flush=True)


def tcp(host, port, nbytes):
    t0 = time.monotonic()
    s = socket.create_connection((host, port), timeout=60)
    off = 0
    while off < nbytes:
        n = min(65536, nbytes - off)
        s.sendall(pattern(off, n))
        off += n
    s.shutdown(socket.SHUT_WR)
    s.recv(1)
    s.close()
    print(json.dumps({"sent": nbytes,
                      "seconds": round(time.monotonic() - t0, 3)}), flush=True)


def macctrl(ifname, kind, count, rate):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    src = bytes.fromhex(open("/sys/class/net/%s/address" % ifname).read()
                        .strip().replace(":", ""))
    hdr = bytes.fromhex("0180c2000001") + src + b"\x88\x08"
    times = struct.pack("!8H", *[65535 if kind == "pfc3" else 0] * 8)
    pfc = struct.pack("!HH", 0x0101, 0x0008) + times
    body = {
        "pfc3": pfc, "xon3": pfc,
        "badop": struct.pack("!H", 0x0999) + bytes(44),
        "short": struct.pack("!HH", 0x0101, 0x0008),
        "long": pfc + bytes(40),
        "reserved": struct.pack("!HH", 0x0101, 0x0108) + times,
    }[kind]
    f = hdr + body
    if kind != "short" and len(f) < 60:
        f += bytes(60 - len(f))
    t0 = time.monotonic()
    for i in range(count):
        s.send(f)
        if rate and i % 100 == 99:
            ahead = t0 + (i + 1) / rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
    print(json.dumps({"sent": count, "kind": kind, "len": len(f)}), flush=True)


def main(a):
    if a[0] == "recv":
        ports = [int(x) for x in a[2].split(",")]
        opt = dict(zip(a[3::2], a[4::2]))
        recv(a[1], ports, int(opt.get("--tcp", 0)),
             float(opt.get("--idle", 3)), float(opt.get("--limit", 60)),
             float(opt.get("--rate", 0)), int(opt.get("--rcvbuf", 16 << 20)))
    elif a[0] == "udp":
        udp(a[1], int(a[2]), int(a[3]), int(a[4]),
            int(a[5]) if len(a) > 5 else 1,
            float(a[6]) / 1000 if len(a) > 6 else 0)
    elif a[0] == "macctrl":
        macctrl(a[1], a[2], int(a[3]), float(a[4]) if len(a) > 4 else 0)
    elif a[0] == "tcp":
        tcp(a[1], int(a[2]), int(a[3]))
    else:
        sys.exit("usage: see the header of sockapp.py")


if __name__ == "__main__":
    main(sys.argv[1:])
