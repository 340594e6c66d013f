#!/usr/bin/env bash
# `luxel diff` benchmark: the largest shared Quake 3 map (lightmaps + light grid, load included) compared
# with itself through the shared ray pass (same lit geometry) and through the full two-scene matching, then
# with three 1080p views, then a real re-packed q3map2 pair. Prints the median wall time of RUNS runs (min-max)
# and luxels compared per second (luxels of A and B over the in-process lightmap time).
# Usage: tools/bench_diff.sh [LUXEL=build/luxel] [RUNS=5]
set -euo pipefail
cd "$(dirname "$0")/.."
luxel=build/luxel
runs=5
for arg in "$@"; do
  case "$arg" in
    LUXEL=*) luxel="${arg#LUXEL=}" ;;
    RUNS=*) runs="${arg#RUNS=}" ;;
    *) echo "bench_diff.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
maps=../shared/maps
[ -d "$maps" ] || { echo "bench_diff.sh: $maps missing" >&2; exit 2; }
big=$maps/q3/oa085_ctf_compromise.bsp
pair=$maps/pairs/oacmpdm8
out=$(mktemp -d /tmp/luxel-bench-diff.XXXXXX)
trap 'rm -rf "$out"' EXIT

bench() {  # label, luxel diff arguments...
  local label=$1; shift
  local times=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$luxel" diff "$@" --json "$out/d.json" > /dev/null || [ $? -eq 1 ]
    t1=$(date +%s.%N)
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
  done
  local sorted median
  sorted=$(printf '%s\n' "${times[@]}" | sort -g)
  median=$(echo "$sorted" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  jq -r --arg name "$label" --arg median "$median" --arg min "$(echo "$sorted" | head -1)" --arg max "$(echo "$sorted" | tail -1)" '
    .lightmaps as $l
    | "\($name): wall median \($median) s (\($min)-\($max)); lightmaps \($l.ms | round) ms in process, \($l.luxels_a) + \($l.luxels_b) luxels, \((($l.luxels_a + $l.luxels_b) / $l.ms * 1000 / 1e6) * 100 | round / 100) M luxels/s, same geometry \($l.same_geometry)"' "$out/d.json"
}

echo "== $runs runs each, $(nproc) threads; 'luxel --help' (process start-up) for reference:"
bench_help() { local t0 t1; t0=$(date +%s.%N); "$luxel" --help > /dev/null; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "  start-up %.3f s\n", b - a }'; }
bench_help
bench "largest Q3 map vs itself, lightmaps + grid (shared ray pass)" "$big" "$big" --no-views
bench "largest Q3 map vs itself, lightmaps + grid (--full-matching)" "$big" "$big" --no-views --full-matching
bench "largest Q3 map vs itself, + spawn/intermission/overview at 1920x1080" "$big" "$big" --size 1920x1080
bench "oacmpdm8 base vs light (one light's colour), lightmaps + grid" "$pair/base.bsp" "$pair/light.bsp" --no-views
bench "oacmpdm8 base vs settings (re-packed atlas), lightmaps + grid" "$pair/base.bsp" "$pair/settings.bsp" --no-views
