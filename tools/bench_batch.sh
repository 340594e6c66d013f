#!/usr/bin/env bash
# Batch preview benchmark: every map of the Debian OpenArena install as one 512x288 `best` lit thumbnail
# (plus sheet and index), in one `luxel batch` process, and the same work as a loop of single `luxel render`
# processes on all cores for comparison; then the shipped scene (thumbnail + overview per map).
# Prints wall time, peak RSS, maps per second, time per map (median, max), the texture cache hit rate and
# where the time goes (sums over maps of each phase).
# Usage: tools/bench_batch.sh [LUXEL=build/luxel] [--no-loop] [--base COMMIT] [--runs N]
#   --base COMMIT  also a build of COMMIT (a temporary git worktree, ccache): both batches run alternately,
#                  base then new, --runs times (default 3); the figures are each build's median run (by wall
#                  time) and the ratio new / base of the medians. Numbers only: nothing passes or fails.
#   --base-luxel PATH  the base's binary, already built (instead of building --base COMMIT; give both to name it)
set -euo pipefail
cd "$(dirname "$0")/.."
luxel=build/luxel
loop=1 base_commit="" base_luxel="" runs=3
while [ $# -gt 0 ]; do
  case "$1" in
    LUXEL=*) luxel="${1#LUXEL=}" ;;
    --no-loop) loop=0 ;;
    --base) base_commit=$2; shift ;;
    --base-luxel) base_luxel=$2; shift ;;
    --runs) runs=$2; shift ;;
    *) echo "bench_batch.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
game=/usr/share/games/openarena/baseoa
[ -d "$game" ] || { echo "bench_batch.sh: $game missing (run tools/setup.sh)" >&2; exit 2; }
command -v jq >/dev/null || { echo "bench_batch.sh: needs jq (tools/setup.sh)" >&2; exit 2; }
out=$(mktemp -d /tmp/luxel-bench-batch.XXXXXX)
cleanup() {
  [ -n "$base_commit" ] && [ -z "$base_luxel" ] && git worktree remove --force "$out/base" 2>/dev/null
  rm -rf "$out"
}
trap cleanup EXIT
threads=$(nproc)

report() {  # manifest, wall seconds, peak KB
  jq -r --arg wall "$2" --arg rss "$3" '
    def median: sort | if length == 0 then 0 elif length % 2 == 1 then .[length/2|floor] else (.[length/2-1] + .[length/2]) / 2 end;
    [.maps[] | .ms.total] as $t
    | "  maps \(.summary.maps) (\(.summary.failed) failed), views \(.summary.views); wall \($wall) s, peak RSS \(($rss|tonumber)/1024|floor) MB",
      "  maps/s \((.summary.maps / ($wall|tonumber)) * 100 | round / 100); per map median \($t|median) ms, max \($t|max) ms (in-process, \(.timings.maps_in_flight) maps in flight)",
      "  texture cache: \(.timings.texture_cache.lookups) lookups, hit rate \(.timings.texture_cache.hit_rate), \(.timings.texture_cache.decodes) decodes, \(.timings.texture_cache.megabytes) MB kept; Quake 3 shader mounts \(.timings.shader_mounts)",
      "  time by phase (sum over maps, ms): open \([.maps[].ms.open] | add | round), decode \([.maps[].ms.decode] | add | round), tessellate \([.maps[].ms.tessellate] | add | round), materials \([.maps[].ms.materials // 0] | add | round), camera \([.maps[].views[]?.ms.camera] | add | round), frame \([.maps[].views[]?.ms.frame] | add | round), write \([.maps[].views[]?.ms.write] | add | round)",
      "  per view (sum, ms; builds from 59e88a3 on): materials with the visibility pass \([.maps[].views[]?.ms.materials // 0] | add | round), figures \([.maps[].views[]?.ms.figures // 0] | add | round); camera by view name: \([.maps[].views[]?] | group_by(.name) | map("\(.[0].name) \(map(.ms.camera) | add | round)") | join(", "))"
  ' "$1"
}

timed() {  # label, command...: runs it under /usr/bin/time, sets wall and rss
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$out/time" "$@"
  read -r wall rss < "$out/time"
}

if [ -n "$base_luxel" ]; then
  [ -x "$base_luxel" ] || { echo "bench_batch.sh: $base_luxel is not an executable" >&2; exit 2; }
  base_commit=${base_commit:-"$base_luxel"}
fi
if [ -n "$base_commit" ]; then
  if [ -n "$base_luxel" ]; then
    base=$base_luxel base_name=$base_commit
  else
    export CCACHE_NOHASHDIR=1
    git worktree add --detach -q "$out/base" "$base_commit"
    (cd "$out/base" && CCACHE_BASEDIR=$PWD cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
       -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null && CCACHE_BASEDIR=$PWD ninja -C build luxel >/dev/null)
    base=$out/base/build/luxel base_name=$(git -C "$out/base" rev-parse --short HEAD)
  fi
  echo "new: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src include CMakeLists.txt || echo '+changes')  base: $base_name  runs: $runs  $threads cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  # name | batch arguments after the binary
  batches=(
    "thumbnails (every map, best lit 512x288, sheet + index)|batch $game --mode lit -q"
    "scenes/openarena.toml (thumbnail + overview per map)|batch scenes/openarena.toml -q"
    "scenes/openarena.toml --isolate (each map in a child process)|batch scenes/openarena.toml -q --isolate"
  )
  for b in "${batches[@]}"; do
    IFS='|' read -r name args <<<"$b"
    echo
    echo "== $name"
    for which in base new; do : > "$out/runs-$which"; done
    for ((r = 0; r < runs; ++r)); do
      for which in base new; do
        bin=$luxel; [ "$which" = base ] && bin=$base
        dir="$out/$which-$(echo "$name" | cksum | cut -d' ' -f1)-$r"  # a fresh folder per batch row and run
        # shellcheck disable=SC2086
        timed "$which" "$bin" $args -o "$dir" || true
        echo "$wall $rss $dir" >> "$out/runs-$which"
      done
    done
    for which in base new; do
      read -r wall rss dir < <(sort -g "$out/runs-$which" | awk -v n="$runs" 'NR == int((n + 1) / 2)')
      echo "$which: median run of $runs by wall time (all: $(cut -d' ' -f1 "$out/runs-$which" | sort -g | tr '\n' ' ')s)"
      report "$dir/manifest.json" "$wall" "$rss"
      declare "wall_$which=$wall" "rss_$which=$rss"
    done
    echo "new / base: wall $(awk -v a="$wall_new" -v b="$wall_base" 'BEGIN { printf "%.2f", a / b }'), peak RSS $(awk -v a="$rss_new" -v b="$rss_base" 'BEGIN { printf "%.2f", a / b }')"
    case "$args" in
      *--isolate*) for which in base new; do
          a=wall_$which b=scene_wall_$which
          echo "$which: --isolate / in-process $(awk -v a="${!a}" -v b="${!b}" 'BEGIN { printf "%.2f", a / b }')x"
        done ;;
      *scenes/*) scene_wall_base=$wall_base scene_wall_new=$wall_new ;;
    esac
  done
  exit 0
fi

echo "== luxel batch: every OpenArena map, one best lit 512x288 thumbnail, sheet + index ($threads threads)"
timed batch "$luxel" batch "$game" -o "$out/thumbs" --mode lit -q || true
report "$out/thumbs/manifest.json" "$wall" "$rss"
batch_wall=$wall

if [ "$loop" = 1 ]; then
  echo "== the same as a loop of single 'luxel render' processes, $threads at a time"
  "$luxel" list "$game" | cut -f2 > "$out/maps.txt"
  mkdir -p "$out/loop"
  timed loop sh -c "xargs -P $threads -I{} sh -c 'n=\$(basename \"{}\" .bsp); \"$luxel\" render \"{}\" --mode lit --camera best --size 512x288 -o \"$out/loop/\$n.png\" 2>/dev/null' < '$out/maps.txt'"
  echo "  $(wc -l < "$out/maps.txt") maps; wall $wall s, peak RSS of one process $((rss / 1024)) MB; batch speed-up $(awk -v a="$wall" -v b="$batch_wall" 'BEGIN { printf "%.2f", a / b }')x"
fi

echo "== scenes/openarena.toml (thumbnail + overview per map)"
timed scene "$luxel" batch scenes/openarena.toml -o "$out/scene" -q || true
report "$out/scene/manifest.json" "$wall" "$rss"
