#!/usr/bin/env bash
# Performance figures for the targets in the issues (numbers only; nothing here passes or fails).
# Usage: tools/bench.sh [luxel binary]   (default build/luxel; needs ../shared/maps)
set -euo pipefail
cd "$(dirname "$0")/.."
luxel=${1:-build/luxel}
maps=../shared/maps
[ -d "$maps" ] || { echo "bench.sh: $maps not found" >&2; exit 2; }

run() { echo "== $*"; "$luxel" bench "$@"; }
# Quake 3 target: <= 15 ms median per 1920x1080 lightmap frame from the first spawn, <= 150 ms load + tessellate.
run "$maps/q3/oa085_ctf_compromise.bsp" --camera spawn --size 1920x1080 --mode lightmap --frames 30
run "$maps/q3/oa085_ctf_compromise.bsp" --camera overview --size 1920x1080 --mode lightmap --frames 10
run "$maps/q3/oa088_am_thornish.bsp" --camera spawn --size 1920x1080 --mode lightmap --frames 20
# Textured target: <= 25 ms median for the lit 1920x1080 frame of compromise from its first spawn, textures
# loaded in <= 1 s (needs Debian's openarena-data).
baseoa=/usr/share/games/openarena/baseoa
if [ -d "$baseoa" ]; then
  run "$maps/q3/oa085_ctf_compromise.bsp" --game-dir "$baseoa" --camera spawn --size 1920x1080 --mode lit --frames 30
fi
# Quake 2 target: load + tessellate + first 1920x1080 frame of quakeless-ii_test1 <= 50 ms.
run "$maps/q2/quakeless-ii_test1.bsp" --camera spawn --size 1920x1080 --mode lightmap --frames 10
# Source target: load + tessellate + first 1920x1080 lit frame of sdk2013ce_sdk_vehicles_v20 <= 100 ms.
run "$maps/source/sdk2013ce_sdk_vehicles_v20.bsp" --camera spawn --size 1920x1080 --mode lit --frames 10
# Rebake target: the whole light grid of compromise (107,536 points) at 256 rays <= 5 s, scene build <= 0.5 s.
echo "== rebake $maps/q3/oa085_ctf_compromise.bsp --rays 256"
"$luxel" rebake "$maps/q3/oa085_ctf_compromise.bsp" --rays 256
# Sampling error at 64 / 256 / 1024 rays against a 4096-ray reference (Quake 3 grid, Source cubes).
echo "== rebake accuracy by ray count"
"$luxel" rebake "$maps/q3/oa085_ctf_compromise.bsp" --rays 4096 --compare-rays 64,256,1024
"$luxel" rebake "$maps/source/sdk2013ce_sdk_vehicles_v20.bsp" --rays 4096 --compare-rays 64,256,1024
