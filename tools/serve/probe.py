#!/usr/bin/env python3
"""A liveness probe against luxel serve (tools/bench_serve.sh's slow phase): every EVERY seconds, each PATH on a
new connection from SOURCE (as a kubelet's probe connects), with a TIMEOUT; prints per path how many answered
200, how many did not (with why), and the latency quantiles."""
import argparse, socket, statistics, time

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--source", default="127.0.0.2")
ap.add_argument("--every", type=float, default=0.1)
ap.add_argument("--seconds", type=float, default=60.0)
ap.add_argument("--timeout", type=float, default=10.0)
ap.add_argument("paths", nargs="+")
a = ap.parse_args()

def probe(path):
    t0 = time.monotonic()
    try:
        s = socket.socket()
        s.settimeout(a.timeout)
        s.bind((a.source, 0))
        s.connect(("127.0.0.1", a.port))
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
        status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/1.1 ") else "no answer"
    except OSError as e:
        status = type(e).__name__
    return status, (time.monotonic() - t0) * 1000

results = {p: [] for p in a.paths}
start = time.monotonic()
tick = start
while time.monotonic() - start < a.seconds:
    for p in a.paths:
        results[p].append(probe(p))
    tick += a.every
    time.sleep(max(0.0, tick - time.monotonic()))
for p, rs in results.items():
    ok = [ms for status, ms in rs if status == "200"]
    bad = {}
    for status, _ in rs:
        if status != "200":
            bad[status] = bad.get(status, 0) + 1
    ms = sorted(m for _, m in rs)
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else [ms[0]] * 99
    print(f"  probe {p}: {len(ok)} of {len(rs)} answered 200 {bad if bad else ''}; p50 {q[49]:.1f} ms, "
          f"p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms")
