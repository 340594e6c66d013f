#!/usr/bin/env python3
"""Slow and silent HTTP clients against luxel serve (tools/bench_serve.sh's slow phase), on 127.0.0.1 only.

Keeps SLOW connections that send a request line and then one byte every INTERVAL seconds (never finishing the
head) and SILENT ones that send nothing, spread round-robin over the given loopback source addresses; a
connection the server closes is replaced at once, so the pressure lasts the whole run. Prints what the server did
with them: how long each was open until the server closed it, whether it closed with an orderly end of stream
(read returns 0) or a reset, and what it answered first.
"""
import argparse, selectors, socket, statistics, time

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--slow", type=int, default=2000)
ap.add_argument("--silent", type=int, default=500)
ap.add_argument("--interval", type=float, default=5.0)
ap.add_argument("--seconds", type=float, default=60.0)
ap.add_argument("--sources", default="127.0.1.1-100", help="127.0.1.A-B: the source addresses")
a = ap.parse_args()
prefix, span = a.sources.rsplit(".", 1)
lo, hi = (int(x) for x in span.split("-"))
sources = [f"{prefix}.{i}" for i in range(lo, hi + 1)]

sel = selectors.DefaultSelector()
state = {}  # socket -> [slow, opened, next_byte, first_bytes]
opened = refused_connect = 0
closed_orderly, closed_reset, answers = [], [], {}
turn = 0

def open_one(slow):
    global opened, refused_connect, turn
    s = socket.socket()
    s.bind((sources[turn % len(sources)], 0))
    turn += 1
    try:
        s.connect(("127.0.0.1", a.port))
    except OSError:
        refused_connect += 1
        s.close()
        return
    s.setblocking(False)
    now = time.monotonic()
    if slow:
        s.send(b"GET /maps HTTP/1.1\r\n")
    state[s] = [slow, now, now + a.interval, b""]
    sel.register(s, selectors.EVENT_READ)
    opened += 1

def close_one(s, orderly):
    slow, t0, _, got = state.pop(s)
    sel.unregister(s)
    s.close()
    (closed_orderly if orderly else closed_reset).append(time.monotonic() - t0)
    first = got.split(b"\r\n", 1)[0].decode("latin-1") if got else "(nothing)"
    key = ("slow" if slow else "silent") + ": " + first
    answers[key] = answers.get(key, 0) + 1
    open_one(slow)

start = time.monotonic()
for i in range(a.slow + a.silent):
    open_one(i < a.slow)
peak = len(state)
print(f"  attackers: {a.slow} slow (a byte every {a.interval:g} s) + {a.silent} silent connections from "
      f"{len(sources)} addresses, opened in {time.monotonic() - start:.2f} s", flush=True)
while time.monotonic() - start < a.seconds:
    for key, _ in sel.select(timeout=0.05):
        s = key.fileobj
        try:
            data = s.recv(4096)
        except (ConnectionResetError, BrokenPipeError):
            close_one(s, False)
            continue
        except BlockingIOError:
            continue
        if data:
            state[s][3] += data
        else:
            close_one(s, True)
    now = time.monotonic()
    for s, st in list(state.items()):
        if st[0] and now >= st[2]:
            st[2] = now + a.interval
            try:
                s.send(b"X")
            except OSError:
                pass
    peak = max(peak, len(state))
for s in list(state):
    sel.unregister(s)
    s.close()
closed = closed_orderly + closed_reset
print(f"  attackers: {opened} connections opened, {refused_connect} refused at connect, at most {peak} open at once")
if closed:
    q = statistics.quantiles(closed, n=100) if len(closed) > 1 else [closed[0]] * 99
    print(f"  attackers: {len(closed)} closed by the server ({len(closed_orderly)} with an orderly end of stream, "
          f"{len(closed_reset)} reset); open for min {min(closed):.2f} s, p50 {q[49]:.2f} s, p99 {q[98]:.2f} s, "
          f"max {max(closed):.2f} s")
for key, n in sorted(answers.items()):
    print(f"  attackers: {n:6d} x {key}")
