#!/usr/bin/env bash
# Performance figures, side by side with a build of an earlier commit (numbers only; nothing here passes or
# fails): the frame rows of issue 41 (oa_dm1 spawn, oa_dm4 and oasago2 intermission at 1920x1080, lit, lightmap and
# vertex, world only as the engine's reference frames are). The machine may be shared: every figure is a median over
# alternating runs of both builds.
#
# Usage: tools/bench.sh [--base COMMIT] [--runs N] [--frames N] [--instructions] [--no-thumbs] [--floor] [--targets] [--scale]
#   --base COMMIT   the build compared against (default 2dd99b0), made in a temporary git worktree (ccache)
#   --runs N        alternating `luxel bench` runs per build and row (default 5); frame figures are the median
#                   of the runs' medians, min-max the spread of those medians
#   --frames N      frames timed per run (default 30)
#   --instructions  also instructions per frame (valgrind's callgrind, 1 thread, (I(1+3) - I(1)) / 3): a figure
#                   the other sessions on the machine do not move (perf stat needs hardware counters, which
#                   virtual machines often lack)
#   --no-thumbs     leave out the cold thumbnails (hyperfine)
#   --floor         also the new build's frame floors on the same rows (luxel bench --shading-floor): flat (every
#                   surface one colour: raster, set-up, block walk and stores) and skip (culling, set-up and raster
#                   alone), beside issue 41's target of 0.33x the base frame
#   --targets       instead: the earlier issues' load / frame / rebake targets, for build/luxel alone
#   --scale         instead: how build/luxel's frame scales with resolution (640x360 .. 3840x2160), map size
#                   (every shared Quake 3 map's spawn) and threads, with the peak memory of each run
#                   (GNU time's maximum resident set) and its growth per frame pixel
#   --quake1        instead: issue 42's Quake 1 speed, for build/luxel alone: lq_e1m5 against oa_dm1 at 1920x1080 lit,
#                   the same camera kinds (spawn, intermission or the map's best view, overview), each map's runs
#                   alternating; frame ms, pixels covered and ns per covered pixel
#   --props         instead: static props' cost on ../shared/source-content's background_01 (issue 17's
#                   targets: a frame with props at most 1.25x one without; props and their materials loaded in
#                   at most 50 ms), for build/luxel alone
# Needs Debian's openarena-data and hyperfine (tools/setup.sh), and ../shared/maps for compromise.
set -euo pipefail
cd "$(dirname "$0")/.."
base_commit=2dd99b0 runs=5 frames=30 instructions=0 thumbs=1 targets=0 scale=0 props=0 quake1=0 floor=0
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base_commit=$2; shift ;;
    --runs) runs=$2; shift ;;
    --frames) frames=$2; shift ;;
    --instructions) instructions=1 ;;
    --no-thumbs) thumbs=0 ;;
    --floor) floor=1 ;;
    --targets) targets=1 ;;
    --scale) scale=1 ;;
    --props) props=1 ;;
    --quake1) quake1=1 ;;
    *) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
maps=../shared/maps
baseoa=/usr/share/games/openarena/baseoa
luxel=build/luxel

if [ "$targets" = 1 ]; then
  [ -d "$maps" ] || { echo "bench.sh: $maps not found" >&2; exit 2; }
  run() { echo "== $*"; "$luxel" bench "$@"; }
  # Quake 3 target: <= 15 ms median per 1920x1080 lightmap frame from the first spawn, <= 150 ms load + tessellate.
  run "$maps/q3/oa085_ctf_compromise.bsp" --camera spawn --size 1920x1080 --mode lightmap --frames 30
  run "$maps/q3/oa085_ctf_compromise.bsp" --camera overview --size 1920x1080 --mode lightmap --frames 10
  run "$maps/q3/oa088_am_thornish.bsp" --camera spawn --size 1920x1080 --mode lightmap --frames 20
  # Textured target: <= 25 ms median for the lit 1920x1080 frame of compromise from its first spawn.
  [ -d "$baseoa" ] && run "$maps/q3/oa085_ctf_compromise.bsp" --game-dir "$baseoa" --camera spawn --size 1920x1080 --mode lit --frames 30
  # Quake 2 target: load + tessellate + first 1920x1080 frame of quakeless-ii_test1 <= 50 ms.
  run "$maps/q2/quakeless-ii_test1.bsp" --camera spawn --size 1920x1080 --mode lightmap --frames 10
  # Source target: load + tessellate + first 1920x1080 lit frame of sdk2013ce_sdk_vehicles_v20 <= 100 ms.
  run "$maps/source/sdk2013ce_sdk_vehicles_v20.bsp" --camera spawn --size 1920x1080 --mode lit --frames 10
  # Rebake target: the whole light grid of compromise (107,536 points) at 256 rays <= 5 s, scene build <= 0.5 s.
  echo "== rebake $maps/q3/oa085_ctf_compromise.bsp --rays 256"
  "$luxel" rebake "$maps/q3/oa085_ctf_compromise.bsp" --rays 256
  echo "== rebake accuracy by ray count"
  "$luxel" rebake "$maps/q3/oa085_ctf_compromise.bsp" --rays 4096 --compare-rays 64,256,1024
  "$luxel" rebake "$maps/source/sdk2013ce_sdk_vehicles_v20.bsp" --rays 4096 --compare-rays 64,256,1024
  exit 0
fi

if [ "$quake1" = 1 ]; then
  [ -d "$maps/q1" ] && [ -d "$baseoa" ] || { echo "bench.sh: needs $maps/q1 and $baseoa" >&2; exit 2; }
  command -v jq >/dev/null || { echo "bench.sh: needs jq (tools/setup.sh)" >&2; exit 2; }
  median() { sort -g | awk '{v[NR]=$1} END {print NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
  q1=$maps/q1/lq_e1m5/bsp29_lit/lq_e1m5.bsp
  echo "build/luxel $(git rev-parse --short HEAD)  runs: $runs x $frames frames  $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "1920x1080 lit, frame median of $runs alternating runs; ns per covered pixel = frame / pixels covered"
  echo
  echo "| camera | lq_e1m5 ms | pixels | ns/pixel | oa_dm1 ms | pixels | ns/pixel | lq_e1m5 ÷ oa_dm1 per pixel |"
  echo "|---|---|---|---|---|---|---|---|"
  # camera name | lq_e1m5's camera | oa_dm1's (its info_player_intermission: the best view when it has none)
  for row in "spawn|--camera spawn|--pos 1128 1424 124 --angles 0 -135 0" "intermission|--camera intermission|--camera intermission" \
             "best|--camera best|--camera best" "overview|--camera overview|--camera overview"; do
    IFS='|' read -r name q1cam oacam <<<"$row"
    q1ms=() oams=()
    for ((r = 0; r < runs; ++r)); do
      # shellcheck disable=SC2086  # the cameras are word lists
      jq1=$("$luxel" bench "$q1" $q1cam --size 1920x1080 --mode lit --frames "$frames" --no-encode --json 2>/dev/null)
      # shellcheck disable=SC2086
      joa=$("$luxel" bench --game-dir "$baseoa" --map oa_dm1 --world-only $oacam --size 1920x1080 --mode lit --frames "$frames" --no-encode --json 2>/dev/null)
      q1ms+=("$(jq -r .frame_ms_median <<<"$jq1")") oams+=("$(jq -r .frame_ms_median <<<"$joa")")
    done
    a=$(printf '%s\n' "${q1ms[@]}" | median) b=$(printf '%s\n' "${oams[@]}" | median)
    pa=$(jq -r .pixels_covered <<<"$jq1") pb=$(jq -r .pixels_covered <<<"$joa")
    awk -v n="$name" -v a="$a" -v pa="$pa" -v b="$b" -v pb="$pb" 'BEGIN {
      printf "| %s | %.2f | %d | %.2f | %.2f | %d | %.2f | %.2f |\n", n, a, pa, a * 1e6 / pa, b, pb, b * 1e6 / pb, (a / pa) / (b / pb) }'
  done
  exit 0
fi

if [ "$props" = 1 ]; then
  content=../shared/source-content/momentum_background_01
  [ -d "$content" ] || { echo "bench.sh: $content not found" >&2; exit 2; }
  command -v jq >/dev/null || { echo "bench.sh: needs jq (tools/setup.sh)" >&2; exit 2; }
  median() { sort -g | awk '{v[NR]=$1} END {print NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
  # One figure (a jq path) of `runs` luxel bench runs, median.
  figure() {
    local path=$1 r
    shift
    for ((r = 0; r < runs; ++r)); do "$luxel" bench "$@" --frames "$frames" --no-encode --json 2>/dev/null | jq -r "$path"; done | median
  }
  map=("$content/maps/background_01.bsp" --game-dir "$content" --size 1920x1080 --mode lit)
  echo "build/luxel $(git rev-parse --short HEAD)  background_01 1920x1080 lit, frame median of $runs runs x $frames frames  $(nproc) cores"
  echo
  echo "| view | with props ms | without ms | with / without |"
  echo "|---|---|---|---|"
  for view in "spawn|--camera spawn" "intermission (the menu's view of the tree)|--camera intermission" \
              "under the canopy (-32 -500 250; 5 90 0)|--pos -32 -500 250 --angles 5 90 0"; do
    IFS='|' read -r name cam <<<"$view"
    # shellcheck disable=SC2086
    with=$(figure .frame_ms_median "${map[@]}" $cam)
    # shellcheck disable=SC2086
    without=$(figure .frame_ms_median "${map[@]}" $cam --no-props)
    echo "| $name | $(printf '%.2f' "$with") | $(printf '%.2f' "$without") | $(awk -v a="$with" -v b="$without" 'BEGIN {printf "%.2f", a / b}') |"
  done
  echo
  props_ms=$(figure .props_ms "${map[@]}" --camera spawn)
  materials_ms=$(figure .materials_ms "${map[@]}" --camera spawn)
  materials_bare=$(figure .materials_ms "${map[@]}" --camera spawn --no-props)
  echo "props placed (models decoded): $(printf '%.1f' "$props_ms") ms; materials $(printf '%.1f' "$materials_ms") ms with props," \
       "$(printf '%.1f' "$materials_bare") ms without: props and their materials $(awk -v p="$props_ms" -v a="$materials_ms" -v b="$materials_bare" 'BEGIN {printf "%.1f", p + a - b}') ms"
  exit 0
fi

if [ "$scale" = 1 ]; then
  [ -d "$baseoa" ] || { echo "bench.sh: $baseoa not found (tools/setup.sh installs openarena-data)" >&2; exit 2; }
  command -v jq >/dev/null && [ -x /usr/bin/time ] || { echo "bench.sh: needs jq and GNU time (tools/setup.sh)" >&2; exit 2; }
  median() { sort -g | awk '{v[NR]=$1} END {print NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # One row: `runs` runs of luxel bench; prints "median-frame-ms triangles-drawn triangles-in peak-rss-kB".
  measure() {
    local ms=() rss=() j
    for ((r = 0; r < runs; ++r)); do
      /usr/bin/time -f %M -o "$tmp/rss" "$luxel" "$@" --frames "$frames" --no-encode --json >"$tmp/j" 2>/dev/null
      j=$(cat "$tmp/j")
      ms+=("$(jq -r .frame_ms_median <<<"$j")")
      rss+=("$(cat "$tmp/rss")")
    done
    echo "$(printf '%s\n' "${ms[@]}" | median) $(jq -r .triangles_drawn <<<"$j") $(jq -r .triangles_in <<<"$j") $(printf '%s\n' "${rss[@]}" | median)"
  }
  echo "build/luxel $(git rev-parse --short HEAD)  runs: $runs x $frames frames  $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "Resolution: oa_dm1 spawn (1128 1424 124; 0 -135 0), frame median of $runs runs; peak RSS of the whole run"
  echo
  echo "| size | mode | frame ms | ns per pixel (x threads) | peak RSS MB | RSS over 640x360 per pixel, bytes |"
  echo "|---|---|---|---|---|---|"
  threads=$(nproc)
  for mode in lit lightmap; do
    base_rss=""
    for size in 640x360 1280x720 1920x1080 2560x1440 3840x2160; do
      read -r ms _ _ rss < <(measure bench --map oa_dm1 --game-dir "$baseoa" --pos 1128 1424 124 --angles 0 -135 0 --size "$size" --mode "$mode")
      px=$(( ${size%x*} * ${size#*x} ))
      [ -z "$base_rss" ] && base_rss=$rss base_px=$px
      per=$(awk -v a="$rss" -v b="$base_rss" -v p="$px" -v q="$base_px" 'BEGIN {if (p > q) printf "%.1f", (a - b) * 1024 / (p - q); else printf "-"}')
      echo "| $size | $mode | $(printf '%.2f' "$ms") | $(awk -v m="$ms" -v p="$px" -v t="$threads" 'BEGIN {printf "%.2f", m * 1e6 * t / p}') | $(awk -v r="$rss" 'BEGIN {printf "%.0f", r / 1024}') | $per |"
    done
  done
  echo
  echo "Map size: each shared Quake 3 map from its first spawn, 1920x1080 lightmap (lit with the OpenArena data where it has textures)"
  echo
  echo "| map | triangles in view set | triangles drawn | lightmap frame ms | lit frame ms | peak RSS MB (lit) |"
  echo "|---|---|---|---|---|---|"
  for map in "$maps"/q3/*.bsp "--map oa_dm1" "--map oa_dm4" "--map oasago2"; do
    [ -e "$map" ] || [[ "$map" == --map* ]] || continue
    # shellcheck disable=SC2086  # "--map NAME" is two words
    read -r lm drawn tin _ < <(measure bench $map --game-dir "$baseoa" --camera spawn --size 1920x1080 --mode lightmap)
    # shellcheck disable=SC2086
    read -r lit _ _ rss < <(measure bench $map --game-dir "$baseoa" --camera spawn --size 1920x1080 --mode lit)
    echo "| $(basename "${map#--map }" .bsp) | $tin | $drawn | $(printf '%.2f' "$lm") | $(printf '%.2f' "$lit") | $(awk -v r="$rss" 'BEGIN {printf "%.0f", r / 1024}') |"
  done
  echo
  echo "Threads: 1920x1080 lit, frame median; speed-up over 1 thread"
  echo
  echo "| view | threads | frame ms | speed-up |"
  echo "|---|---|---|---|"
  for view in "oa_dm1 spawn|--map oa_dm1|--pos 1128 1424 124 --angles 0 -135 0" "oasago2 intermission|--map oasago2|--pos -60 -1536 436 --angles 0 90 0"; do
    IFS='|' read -r name maparg cam <<<"$view"
    one=""
    for t in $(seq 1 "$threads"); do
      # shellcheck disable=SC2086
      read -r ms _ _ _ < <(measure --threads "$t" bench $maparg --game-dir "$baseoa" $cam --size 1920x1080 --mode lit)
      [ -z "$one" ] && one=$ms
      echo "| $name | $t | $(printf '%.2f' "$ms") | $(awk -v a="$one" -v b="$ms" 'BEGIN {printf "%.2f", a / b}') |"
    done
  done
  exit 0
fi

[ -d "$baseoa" ] || { echo "bench.sh: $baseoa not found (tools/setup.sh installs openarena-data)" >&2; exit 2; }
command -v jq >/dev/null || { echo "bench.sh: needs jq (tools/setup.sh)" >&2; exit 2; }
[ "$thumbs" = 0 ] || command -v hyperfine >/dev/null || { echo "bench.sh: needs hyperfine (tools/setup.sh)" >&2; exit 2; }

# Both builds: this checkout's, and the base commit's in a temporary worktree (ccache makes it cheap).
export CCACHE_NOHASHDIR=1
jobs=${BENCH_JOBS:-2}
CCACHE_BASEDIR=$PWD cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
CCACHE_BASEDIR=$PWD ninja -C build -j"$jobs" luxel >/dev/null
tmp=$(mktemp -d)
cleanup() { git worktree remove --force "$tmp/base" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
git worktree add --detach -q "$tmp/base" "$base_commit"
(cd "$tmp/base" && CCACHE_BASEDIR=$PWD cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
   -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null && CCACHE_BASEDIR=$PWD ninja -C build -j"$jobs" luxel >/dev/null)
old=$tmp/base/build/luxel new=$luxel
echo "new: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src include CMakeLists.txt || echo '+changes')  base: $(git -C "$tmp/base" rev-parse --short HEAD)  runs: $runs x $frames frames  $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# The views of the issue: name | map arguments | camera.
views=(
  "oa_dm1 spawn|--map oa_dm1|--pos 1128 1424 124 --angles 0 -135 0"
  "oa_dm4 intermission|--map oa_dm4|--pos 464 -112 48 --angles 43.090 -155.433 0"
  "oasago2 intermission|--map oasago2|--pos -60 -1536 436 --angles 0 90 0"
)
median() { sort -g | awk '{v[NR]=$1} END {print NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
floor_rows=()  # --floor: one table row per frame row, printed after the frame table
# Builds that can leave the encoding figures out do (they take longer than the frames); older ones time them too.
declare -A noencode=()
for which in old new; do
  if "${!which}" bench --help 2>/dev/null | grep -q -- --no-encode; then noencode[$which]=--no-encode; else noencode[$which]=""; fi
done

echo
echo "1920x1080, luxel bench --world-only (the engine reference frames' view): frame median of $runs runs' medians (min-max of those), ms; split cull / setup / raster / shade"
echo
echo "| view | mode | base frame | new frame | new ÷ base | base split | new split |"
echo "|---|---|---|---|---|---|---|"
for view in "${views[@]}"; do
  IFS='|' read -r name maparg cam <<<"$view"
  for mode in lit lightmap vertex; do
    declare -A got=()
    for ((r = 0; r < runs; ++r)); do
      for which in old new; do
        bin=${!which}
        # shellcheck disable=SC2086  # maparg and cam are word lists
        j=$("$bin" bench --game-dir "$baseoa" $maparg $cam --world-only --size 1920x1080 --mode "$mode" --frames "$frames" ${noencode[$which]:-} --json 2>/dev/null)
        for k in frame_ms_median cull_ms_median setup_ms_median raster_ms_median shade_ms_median; do
          got[$which.$k]+="$(jq -r ".$k" <<<"$j") "
        done
      done
    done
    cell() { # median (min-max)
      local v; v=$(tr ' ' '\n' <<<"${got[$1.frame_ms_median]}" | grep . | median)
      local lo hi; lo=$(tr ' ' '\n' <<<"${got[$1.frame_ms_median]}" | grep . | sort -g | head -1)
      hi=$(tr ' ' '\n' <<<"${got[$1.frame_ms_median]}" | grep . | sort -g | tail -1)
      printf '%.2f (%.2f-%.2f)' "$v" "$lo" "$hi"
    }
    split() {
      local out="" k
      for k in cull setup raster shade; do
        out+="$(printf '%.2f' "$(tr ' ' '\n' <<<"${got[$1.${k}_ms_median]}" | grep . | median)") / "
      done
      echo "${out% / }"
    }
    mo=$(tr ' ' '\n' <<<"${got[old.frame_ms_median]}" | grep . | median)
    mn=$(tr ' ' '\n' <<<"${got[new.frame_ms_median]}" | grep . | median)
    echo "| $name | $mode | $(cell old) | $(cell new) | $(awk -v a="$mn" -v b="$mo" 'BEGIN {printf "%.2f", a / b}') | $(split old) | $(split new) |"
    if [ "$floor" = 1 ]; then
      t=$(awk -v b="$mo" 'BEGIN {printf "%.2f", 0.33 * b}')
      row="| $name | $mode | $t | $(printf '%.2f' "$mn") |" ratios=""
      for kind in flat skip; do
        ms=()
        for ((r = 0; r < runs; ++r)); do
          # shellcheck disable=SC2086
          ms+=("$("$new" bench --game-dir "$baseoa" $maparg $cam --world-only --size 1920x1080 --mode "$mode" --frames "$frames" --shading-floor "$kind" --json 2>/dev/null | jq -r .frame_ms_median)")
        done
        f=$(printf '%s\n' "${ms[@]}" | median)
        row+=" $(printf '%.2f' "$f") |" ratios+=" $(awk -v a="$f" -v b="$t" 'BEGIN {printf "%.2f", a / b}') |"
      done
      floor_rows+=("$row$ratios")
    fi
    unset got
  done
done

if [ "$floor" = 1 ]; then
  echo
  echo "floors of the new build (luxel bench --shading-floor, the same rows, median of $runs runs' medians, ms): flat = every"
  echo "surface one colour (raster, set-up, block walk, stores); skip = culling, set-up and raster alone. Target: 0.33 x base."
  echo
  echo "| view | mode | target | new frame | flat floor | skip floor | flat ÷ target | skip ÷ target |"
  echo "|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${floor_rows[@]}"
fi

if [ "$instructions" = 1 ]; then
  echo
  echo "instructions per 1920x1080 frame (callgrind, --threads 1, (I(4) - I(1)) / 3), millions"
  echo
  echo "| view | mode | base | new | new ÷ base |"
  echo "|---|---|---|---|---|"
  frames=3
  instr() { # binary, frames, args...
    local bin=$1 n=$2; shift 2
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" --threads 1 bench "$@" --frames "$n" --json \
      >/dev/null 2>&1
    awk '/^summary:/ {print $2}' "$tmp/cg.out"
  }
  for view in "${views[@]}"; do
    IFS='|' read -r name maparg cam <<<"$view"
    for mode in lit lightmap vertex; do
      per=()
      for bin in "$old" "$new"; do
        # shellcheck disable=SC2086
        a=$(instr "$bin" 1 --game-dir "$baseoa" $maparg $cam --world-only --size 1920x1080 --mode "$mode")
        # shellcheck disable=SC2086
        b=$(instr "$bin" $((1 + frames)) --game-dir "$baseoa" $maparg $cam --world-only --size 1920x1080 --mode "$mode")
        per+=("$(awk -v a="$a" -v b="$b" -v f="$frames" 'BEGIN {printf "%.1f", (b - a) / f / 1e6}')")
      done
      echo "| $name | $mode | ${per[0]} | ${per[1]} | $(awk -v a="${per[1]}" -v b="${per[0]}" 'BEGIN {printf "%.2f", a / b}') |"
    done
  done
fi

if [ "$thumbs" = 1 ]; then
  echo
  echo "cold 512x288 lit thumbnail, whole process (hyperfine median, s); past start-up = render - (luxel --help)"
  echo
  echo "| command | base | new | new ÷ base |"
  echo "|---|---|---|---|"
  render="render --game-dir $baseoa --mode lit --size 512x288 -o $tmp/t.png"
  # name | map | camera; the best camera is newer than the base commit: timed for the new build only, and
  # reported as what it adds over the spawn camera.
  thumbs=(
    "luxel --help||"
    "oa_dm1 spawn|--map oa_dm1|spawn"
    "compromise spawn|$maps/q3/oa085_ctf_compromise.bsp|spawn"
    "oa_dm1 best|--map oa_dm1|best"
    "compromise best|$maps/q3/oa085_ctf_compromise.bsp|best"
  )
  declare -A wall=()
  for t in "${thumbs[@]}"; do
    IFS='|' read -r name map camera <<<"$t"
    args="--help"
    [ -n "$camera" ] && args="$render $map --camera $camera"
    cmds=("$old $args" "$new $args")
    [ "$camera" = best ] && cmds=("$new $args")
    hyperfine -N --warmup 2 --runs "${BENCH_THUMB_RUNS:-15}" --export-json "$tmp/h.json" "${cmds[@]}" >/dev/null 2>&1
    if [ "$camera" = best ]; then
      wall[new.$name]=$(jq '.results[0].median' "$tmp/h.json")
    else
      wall[old.$name]=$(jq '.results[0].median' "$tmp/h.json")
      wall[new.$name]=$(jq '.results[1].median' "$tmp/h.json")
    fi
  done
  for t in "${thumbs[@]}"; do
    IFS='|' read -r name map camera <<<"$t"
    n=${wall[new.$name]}
    if [ "$camera" = best ]; then
      spawn=${wall[new.${name% best} spawn]}
      echo "| $name (adds over spawn: $(awk -v a="$n" -v b="$spawn" 'BEGIN {printf "%.3f", a - b}')) | - | $(printf '%.3f' "$n") | - |"
      continue
    fi
    o=${wall[old.$name]}
    echo "| $name | $(printf '%.3f' "$o") | $(printf '%.3f' "$n") | $(awk -v a="$n" -v b="$o" 'BEGIN {printf "%.2f", a / b}') |"
    if [ -n "$camera" ]; then
      o=$(awk -v a="$o" -v h="${wall[old.luxel --help]}" 'BEGIN {print a - h}')
      n=$(awk -v a="$n" -v h="${wall[new.luxel --help]}" 'BEGIN {print a - h}')
      echo "| $name, past start-up | $(printf '%.3f' "$o") | $(printf '%.3f' "$n") | $(awk -v a="$n" -v b="$o" 'BEGIN {printf "%.2f", a / b}') |"
    fi
  done
fi
