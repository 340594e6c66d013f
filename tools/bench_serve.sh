#!/usr/bin/env bash
# luxel serve under load: starts the service on 127.0.0.1 (an ephemeral port) with the Debian OpenArena
# install as its root, drives it with wrk (Debian's package) for a bounded time per phase, stops it, and
# prints per phase: requests/s, p50 / p99 latency, socket errors, status codes, and the server's peak RSS.
#   1 hit     the same thumbnail again (image-cache hits)                     target >= 5000 req/s
#   2 new     a new camera on a loaded map, 512x288 lit PNG (no cache hit)   target p50 <= 8 ms
#     2b      the same with camera=best and a new field of view each time (a camera search per request)
#     2c      camera=best at one size and field of view, a new light style weight each time (the best camera
#             kept per map, aspect and field of view; the frame's check still runs)  target p50 <= 15 ms
#   3 cold    maps not loaded yet, one request each, beside a cold `luxel render` of the same thumbnail
#             (alternating, one at a time)                                   target p50 <= 1/2 of render's
#   4 mix     80% hits, 15% new views, 5% hostile uploads                    target 0 5xx but 503, bounded RSS
#   5 kill -9 during a mixed load, restart: the same images again (no disk cache: nothing on disk to corrupt)
#   6 slow    2,000 connections sending a byte every 5 s + 500 sending nothing (tools/serve/slow_clients.py,
#             from 127.0.1.1-100, under the per-address limit) while /healthz and a cached thumbnail are
#             probed every 100 ms from 127.0.0.2 on new connections (tools/serve/probe.py): every probe answered,
#             p99 <= 50 ms; the server's RSS rise and open descriptors at the peak; every slow connection
#             closed by its head deadline
# Numbers only: nothing passes or fails. Usage:
#   tools/bench_serve.sh [LUXEL=build/luxel] [--seconds N (per phase, default 10)] [--cold N (maps, default 20)]
#                        [--slow-seconds N (phase 6, default 60)] [--only-slow]
set -euo pipefail
cd "$(dirname "$0")/.."
luxel=build/luxel seconds=10 cold=20 slow_seconds=60 only_slow=0
while [ $# -gt 0 ]; do
  case "$1" in
    LUXEL=*) luxel="${1#LUXEL=}" ;;
    --seconds) seconds=$2; shift ;;
    --cold) cold=$2; shift ;;
    --slow-seconds) slow_seconds=$2; shift ;;
    --only-slow) only_slow=1 ;;
    *) echo "bench_serve.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
# Phase 6 lets the attackers connect for 2 s, then probes for the rest less 2 s: shorter runs measure nothing.
[ "$slow_seconds" -ge 6 ] || { echo "bench_serve.sh: --slow-seconds must be at least 6 (2 s to connect, then probes)" >&2; exit 2; }
game=/usr/share/games/openarena/baseoa
[ -d "$game" ] || { echo "bench_serve.sh: $game missing (run tools/setup.sh)" >&2; exit 2; }
for tool in wrk curl python3; do
  command -v $tool >/dev/null || { echo "bench_serve.sh: needs $tool (tools/setup.sh)" >&2; exit 2; }
done
work=$(mktemp -d /tmp/luxel-bench-serve.XXXXXX)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export LUXEL_WRK_DIR="$PWD/tools/serve"
map_cache=1024 texture_cache=512 image_cache=64

start_server() {  # extra args...
  rm -f "$work/port"
  "$luxel" serve "$game" --listen 127.0.0.1:0 --port-file "$work/port" --no-access-log \
    --map-cache-mb $map_cache --texture-cache-mb $texture_cache --image-cache-mb $image_cache "$@" \
    2>>"$work/server.log" &
  server_pid=$!
  for _ in $(seq 600); do [ -s "$work/port" ] && break; sleep 0.05; done
  port=$(cat "$work/port")
  url="http://127.0.0.1:$port"
}
peak_rss_mb() { awk '/VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$server_pid/status"; }
rss_mb() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$server_pid/status"; }
stop_server() {
  kill -TERM "$server_pid"
  local status=0
  wait "$server_pid" || status=$?
  server_pid=""
  echo "  server stopped with SIGTERM: exit $status"
}
result() { grep '^RESULT' | sed 's/^RESULT //'; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "server: $luxel serve $game (caches: maps $map_cache MB, textures $texture_cache MB, images $image_cache MB)"
fds() { ls "/proc/$server_pid/fd" | wc -l; }

slow_phase() {
  echo "== 6 slow: 2000 slow + 500 silent connections for ${slow_seconds} s, probes every 100 ms (default deadlines)"
  # The attackers hold ~2,600 sockets: the shell's default of 1,024 open files is too few.
  ulimit -n 16384
  start_server
  local thumb="/maps/oa_dm1.jpg?size=320x180"
  curl -s -o /dev/null "$url$thumb"
  curl -s -o /dev/null "$url/healthz"
  sleep 1
  local idle_rss idle_fds
  idle_rss=$(rss_mb) idle_fds=$(fds)
  echo "  idle service: RSS $idle_rss MB, $idle_fds open descriptors"
  python3 tools/serve/slow_clients.py --port "$port" --slow 2000 --silent 500 --interval 5 --seconds "$slow_seconds" \
    --sources 127.0.1.1-100 > "$work/attackers.txt" &
  local attackers=$!
  sleep 2  # the attackers connected before the probing starts
  python3 tools/serve/probe.py --port "$port" --source 127.0.0.2 --every 0.1 --seconds $((slow_seconds - 4)) \
    /healthz "$thumb" > "$work/probe.txt" &
  local probe=$!
  local peak_rss=0 peak_fds=0 r f
  while kill -0 $attackers 2>/dev/null; do
    r=$(rss_mb) f=$(fds)
    [ "$r" -gt "$peak_rss" ] && peak_rss=$r
    [ "$f" -gt "$peak_fds" ] && peak_fds=$f
    sleep 0.5
  done
  wait $probe $attackers || true
  cat "$work/attackers.txt" "$work/probe.txt"
  echo "  server: peak RSS $peak_rss MB (+$((peak_rss - idle_rss)) MB over idle), peak open descriptors $peak_fds"
  curl -s "$url/metrics" | grep -E '^luxel_http_refused_total|^luxel_http_connections_open_peak|^luxel_http_connections_accepted' |
    grep -v ' 0$' | sed 's/^/  /'
  stop_server
}
if [ "$only_slow" = 1 ]; then slow_phase; exit 0; fi

start_server
maps=$(curl -s "$url/maps" | python3 -c 'import json,sys; print(",".join(m["name"] for m in json.load(sys.stdin)["maps"] if "error" not in m))')
IFS=, read -r -a all_maps <<<"$maps"
echo "  ${#all_maps[@]} maps listed; RSS after listing $(rss_mb) MB"
warm=(oa_dm1 oa_dm2 oa_dm3 oa_dm4 aggressor)
warm_list=$(IFS=,; echo "${warm[*]}")
for m in "${warm[@]}"; do curl -s -o /dev/null "$url/maps/$m.jpg?size=320x180"; done

echo "== 1 hit: the same thumbnail, ${seconds} s, wrk -t2 -c32"
HIT_PATH="/maps/oa_dm1.jpg?size=320x180" wrk -t2 -c32 -d${seconds}s -s tools/serve/hit.lua "$url" | result
echo "  peak RSS $(peak_rss_mb) MB"

for m in "${warm[@]}"; do curl -s -o /dev/null "$url/maps/$m.png?size=512x288&mode=lit&camera=spawn"; done
echo "== 2 new: a new camera (spawn point, fov stepped) on loaded maps, 512x288 lit PNG, ${seconds} s, wrk -t1 -c2"
CAMERA=spawn MAPS=$warm_list wrk -t1 -c2 -d${seconds}s -s tools/serve/new_views.lua "$url" | result
echo "== 2b new: the same with camera=best and a new field of view each time (the map searched for a view each time), ${seconds} s, wrk -t1 -c2"
CAMERA=best FOV_OFFSET=30 MAPS=$warm_list wrk -t1 -c2 -d${seconds}s -s tools/serve/new_views.lua "$url" | result
echo "== 2c new: camera=best at one size and field of view, a new light style weight (styles=0=W) each time (the best camera kept per map, aspect and field of view), ${seconds} s, wrk -t1 -c2"
for m in "${warm[@]}"; do curl -s -o /dev/null "$url/maps/$m.png?size=512x288&mode=lit&camera=best&fov=95.00"; done
STEP=styles CAMERA=best FOV_OFFSET=25 MAPS=$warm_list wrk -t1 -c2 -d${seconds}s -s tools/serve/new_views.lua "$url" | result
echo "  peak RSS $(peak_rss_mb) MB"

echo "== 3 cold: $cold maps not loaded yet, each once, beside a cold luxel render (512x288 lit PNG, best camera)"
"$luxel" list "$game" > "$work/list.tsv"
python3 - "$luxel" "$url" "$game" "$cold" "$work" <<'PY'
import statistics, subprocess, sys, time, urllib.request
luxel, url, game, count, work = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
warm = {"oa_dm1", "oa_dm2", "oa_dm3", "oa_dm4", "aggressor"}
# `luxel list` names each map's source as the catalogue does (the archive the game would load it from).
sources = [line.rstrip("\n").split("\t") for line in open(f"{work}/list.tsv")]
serve_ms, render_ms, same = [], [], 0
for name, source in [s for s in sources if s[0] not in warm][:count]:
    t0 = time.perf_counter()
    with urllib.request.urlopen(f"{url}/maps/{name}.png?size=512x288&mode=lit") as r:
        body = r.read()
    serve_ms.append((time.perf_counter() - t0) * 1000)
    t0 = time.perf_counter()
    subprocess.run([luxel, "render", source, "--game-dir", game, "--size", "512x288", "--mode", "lit",
                    "-o", f"{work}/cold.png"], check=True, capture_output=True)
    render_ms.append((time.perf_counter() - t0) * 1000)
    same += open(f"{work}/cold.png", "rb").read() == body
    print(f"  {name:24s} serve {serve_ms[-1]:7.1f} ms   luxel render {render_ms[-1]:7.1f} ms")
print(f"  p50 serve {statistics.median(serve_ms):.1f} ms (max {max(serve_ms):.1f}), "
      f"p50 luxel render {statistics.median(render_ms):.1f} ms (max {max(render_ms):.1f}); "
      f"ratio {statistics.median(serve_ms) / statistics.median(render_ms):.2f}; "
      f"{same} of {len(serve_ms)} served images byte-identical to the render's file")
PY
echo "  peak RSS $(peak_rss_mb) MB"

echo "== 4 mix: 80% hits, 15% new views, 5% hostile uploads, ${seconds} s, wrk -t2 -c16"
mkdir -p "$work/hostile"
echo "not a map at all" > "$work/hostile/text.bsp"
python3 - "$work/hostile" "$game/pak1-maps.pk3" <<'PY'
import sys, zipfile, io, struct
d = sys.argv[1]
with zipfile.ZipFile(sys.argv[2]) as pak:  # a real map cut off after 64 KiB
    open(f"{d}/truncated.bsp", "wb").write(pak.read("maps/oa_dm1.bsp")[:65536])
with zipfile.ZipFile(f"{d}/bomb.pk3", "w", zipfile.ZIP_DEFLATED) as z:   # 1.5 GB of zeros in ~1.5 MB
    z.writestr("maps/x.bsp", b"IBSP" + b"\0" * 100)
    with z.open("textures/bomb.tga", "w", force_zip64=True) as member:
        zeros = b"\0" * (1 << 20)
        for _ in range(1500):
            member.write(zeros)
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
    z.writestr("maps/x.bsp", b"IBSP" + struct.pack("<i", 46) + b"\0" * 200)
data = bytearray(buf.getvalue())
cd = data.rfind(b"PK\x01\x02")
struct.pack_into("<I", data, cd + 24, 900 << 20)  # the central directory claims 900 MB
open(f"{d}/lying.pk3", "wb").write(data)
PY
HOSTILE_DIR="$work/hostile" MAPS=$warm_list wrk -t2 -c16 -d${seconds}s -s tools/serve/mix.lua "$url" | result
echo "  peak RSS $(peak_rss_mb) MB, RSS now $(rss_mb) MB (caches' bounds: $((map_cache + texture_cache + image_cache)) MB)"
curl -s "$url/metrics" | grep -E '^luxel_cache_bytes|^luxel_cache_hit_ratio|^luxel_maps_loaded|^luxel_http_requests_total' | sed 's/^/  /'
stop_server

echo "== 5 kill -9 during a mixed load, then a restart"
start_server
for m in "${warm[@]}"; do curl -s -o "$work/before-$m.jpg" "$url/maps/$m.jpg?size=320x180"; done
HOSTILE_DIR="$work/hostile" MAPS=$warm_list timeout 20 wrk -t2 -c16 -d10s -s tools/serve/mix.lua "$url" > "$work/killed.txt" 2>&1 &
wrk_pid=$!
sleep 3
kill -9 "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
echo "  killed the server (SIGKILL) 3 s into the load"
wait $wrk_pid 2>/dev/null || true
start_server
same=0
for m in "${warm[@]}"; do
  curl -s -o "$work/after-$m.jpg" "$url/maps/$m.jpg?size=320x180"
  cmp -s "$work/before-$m.jpg" "$work/after-$m.jpg" && same=$((same + 1))
done
echo "  after the restart: $same of ${#warm[@]} thumbnails byte-identical to before the kill; healthz: $(curl -s "$url/healthz")"
echo "  disk: the service keeps no disk cache; upload folders left behind by the killed process: $(ls -d /tmp/luxel-upload-* 2>/dev/null | wc -l)"
stop_server

slow_phase
