#!/usr/bin/env bash
# `luxel bake` benchmark: the direct-light bake (light grid + lightmaps, load included) of the oacmpdm8 pair's
# base build (its lights from the .map source beside it) and of the largest shared Quake 3 map, at one thread
# and at every core. Prints per run set the median wall time (min-max) and, from the median run's report, the
# grid and lightmap times, shadow rays per second and luxels per second. q3map2's own `-light -fast` takes
# 33.40 s on oacmpdm8 at one thread (../shared/maps/pairs/README.md, times.tsv), the figure to beat.
# Then the Quake 2 maps ericw-tools built (../shared/maps/pairs/ericw-q2): luxel bake --compiler ericw (its
# surface lights, dirt, minlight and one face bounce) beside ericw-tools' own `light` time from that folder's
# times.tsv at the same thread count, with the bounce's speed in luxel bounces per second.
# Then the Quake 1 builds of ../shared/maps/q1 lit from their unlit state (NAME.unlit.bsp and NAME.texinfo.json
# copied under the name light reads them by; --write OUT.bsp --lit, as `light -lit`), with the time split
# (load, lights, layout with its dirt, direct with its suns' thread time, bounce, write) and ericw-tools' light time where ../shared records it
# (lq_e1m5: 3.42 s at 1 thread, 1.96 s at 2; its light logs give the others' time at 2 threads under nice).
# Usage: tools/bench_bake.sh [LUXEL=build/luxel] [RUNS=3] [ONLY=q3|ericw|q1] [extra luxel bake arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
luxel=build/luxel
runs=3
only=all  # ONLY=q3, ONLY=ericw or ONLY=q1: one of the sections
extra=()
for arg in "$@"; do
  case "$arg" in
    LUXEL=*) luxel="${arg#LUXEL=}" ;;
    RUNS=*) runs="${arg#RUNS=}" ;;
    ONLY=*) only="${arg#ONLY=}" ;;
    *) extra+=("$arg") ;;
  esac
done
maps=../shared/maps
[ -d "$maps" ] || { echo "bench_bake.sh: $maps missing" >&2; exit 2; }
game=/usr/share/games/openarena/baseoa
game_args=()
[ -d "$game" ] && game_args=(--game-dir "$game")
pair=$maps/pairs/oacmpdm8
out=$(mktemp -d /tmp/luxel-bench-bake.XXXXXX)
trap 'rm -rf "$out"' EXIT

# Runs `luxel bake ARGS... --json OUT/PREFIXk.json` once untimed, then RUNS times; sets t_median, t_min, t_max (seconds) and
# median_json (the report of the median run).
timed_runs() {  # prefix, luxel bake arguments...
  local prefix=$1; shift
  local times=() k t0 t1 sorted median_run
  # One run untimed first, so that the timed ones find the files cached; the clock is bash's own
  # (EPOCHREALTIME), not a `date` process each side, which added milliseconds to a 10 ms bake.
  "$luxel" bake "$@" --json "$out/${prefix}warm.json" > /dev/null 2>&1 || true
  for k in $(seq "$runs"); do
    t0=$EPOCHREALTIME
    "$luxel" bake "$@" --json "$out/$prefix$k.json" > /dev/null 2>&1
    t1=$EPOCHREALTIME
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') $k")
  done
  sorted=$(printf '%s\n' "${times[@]}" | sort -g)
  median_run=$(echo "$sorted" | awk '{ v[NR] = $0 } END { print v[int((NR + 1) / 2)] }')
  t_median=${median_run% *}
  t_min=$(echo "$sorted" | head -1 | cut -d' ' -f1)
  t_max=$(echo "$sorted" | tail -1 | cut -d' ' -f1)
  median_json=$out/$prefix${median_run##* }.json
}

bench() {  # label, threads, luxel bake arguments...
  local label=$1 threads=$2; shift 2
  timed_runs r "$@" "${game_args[@]}" ${extra[@]+"${extra[@]}"} --threads "$threads"
  jq -r --arg name "$label" --arg threads "$threads" --arg median "$t_median" --arg min "$t_min" --arg max "$t_max" '
    def r1: . * 10 | round / 10;
    def r2: . * 100 | round / 100;
    (.grid.ms // 0) as $g | .lightmaps.ms as $l
    | ((.shadow_rays.probes // 0) + .shadow_rays.lightmaps) as $rays
    | "\($name), \($threads) thread(s): wall median \($median) s (\($min)-\($max)); grid \($g | r1) ms, lightmaps \($l | r1) ms; "
      + "\(.lightmaps.luxels // 0) luxels at \(if $l > 0 then ((.lightmaps.luxels // 0) / $l / 1000 | r2) else 0 end) M luxels/s; "
      + "\($rays) shadow rays at \(if ($g + $l) > 0 then ($rays / ($g + $l) / 1000 | r2) else 0 end) M rays/s"' \
     "$median_json"
}

cores=$(nproc)
if [ "$only" = all ] || [ "$only" = q3 ]; then
echo "== $runs runs each; q3map2 -light -fast on oacmpdm8: 33.40 s at 1 thread, 17.43 s at 2 (pairs README)"
for t in 1 "$cores"; do
  bench "oacmpdm8 base (lights from oacmpdm8.map)" "$t" "$pair/base.bsp" --lights "$pair/oacmpdm8.map"
done
for t in 1 "$cores"; do
  bench "oa085_ctf_compromise (largest Q3 map; no .map source: sky and surface lights only)" "$t" "$maps/q3/oa085_ctf_compromise.bsp"
done
fi

ericw=$maps/pairs/ericw-q2
bench_ericw() {  # folder/map (as in times.tsv), threads, extra luxel bake arguments...
  local name=$1 threads=$2; shift 2
  local file theirs
  file=$(ls "$ericw/$name"/*.bsp | grep -v unlit | head -1)
  timed_runs e "$file" --compiler ericw --write "$out/ericw-out.bsp" "$@" --threads "$threads"
  theirs=$(awk -F'\t' -v m="$name" -v t="$threads" '$1 == m && $2 == t { print $3 }' "$ericw/times.tsv")
  jq -r --arg name "$name" --arg threads "$threads" --arg median "$t_median" --arg theirs "${theirs:-?}" \
     --arg min "$t_min" --arg max "$t_max" '
    def r1: . * 10 | round / 10;
    "\($name), \($threads) thread(s): luxel wall median \($median) s (\($min)-\($max)), ericw-tools light \($theirs) s"
    + (if $theirs != "?" then " (luxel / ericw \(($median | tonumber) / ($theirs | tonumber) * 100 | round / 100)x)" else "" end)
    + "; direct \(.lightmaps.ms | r1) ms"
    + (if .bounce != null then ", bounce \(.bounce.ms | r1) ms at \(.bounce.luxel_bounces_per_s / 1e6 * 1000 | round / 1000) M luxel bounces/s" else "" end)' \
     "$median_json"
}
if [ -d "$ericw" ] && { [ "$only" = all ] || [ "$only" = ericw ]; }; then
  echo "== ericw-tools' Quake 2 builds ($runs runs each; process start included on both sides)"
  for t in 1 2; do
    bench_ericw light_q2_emissive_cube "$t"
    bench_ericw q2_dirt "$t"
    bench_ericw q2_door "$t"
    bench_ericw q2_light_cone "$t"
    bench_ericw q2_light_translucency/base "$t"
    bench_ericw quakeless-ii_test1/base "$t" --game-dir "$maps/q2/quakeless-ii_textures"
  done
fi

bench_q1() {  # map, threads, ericw-tools' seconds (or ?)
  local name=$1 threads=$2 theirs=$3 from=$maps/q1/$1/bsp29_lit
  [ -f "$from/$name.unlit.bsp" ] || return 0
  mkdir -p "$out/q1"
  cp "$from/$name.unlit.bsp" "$out/q1/$name.bsp"
  cp "$from/$name.texinfo.json" "$out/q1/"
  timed_runs q "$out/q1/$name.bsp" --write "$out/q1/out.bsp" --lit --threads "$threads"
  jq -r --arg name "$name" --arg threads "$threads" --arg median "$t_median" --arg theirs "$theirs" \
     --arg min "$t_min" --arg max "$t_max" '
    def r: . | round;
    "\($name) from unlit, \($threads) thread(s): luxel wall median \($median) s (\($min)-\($max)), ericw-tools light \($theirs) s"
    + (if $theirs != "?" then " (luxel / ericw \(($median | tonumber) / ($theirs | tonumber) * 100 | round / 100)x)" else "" end)
    + "; ms: load \(.time_ms.load | r), lights \(.time_ms.lights | r), layout \(.time_ms.layout | r) (dirt \(.time_ms.dirt | r)), direct \(.time_ms.direct | r) (sun \(.time_ms.sun_thread | r) thread ms), bounce \(.time_ms.bounce | r), write \(.time_ms.write | r)"' \
     "$median_json"
}
if [ -d "$maps/q1" ] && { [ "$only" = all ] || [ "$only" = q1 ]; }; then
  echo "== Quake 1 builds lit from their unlit state ($runs runs each; process start included)"
  bench_q1 lqdm1 1 ?
  bench_q1 lqdm1 2 0.94
  bench_q1 lq_e1m2 1 ?
  bench_q1 lq_e1m2 2 3.02
  bench_q1 lq_e1m5 1 3.42
  bench_q1 lq_e1m5 2 1.96
fi
