#!/usr/bin/env bash
# Batch preview benchmark: every map of the Debian OpenArena install as one 512x288 `best` lit thumbnail
# (plus sheet and index), in one `luxel batch` process, and the same work as a loop of single `luxel render`
# processes on all cores for comparison; then the shipped scene (thumbnail + overview per map).
# Prints wall time, peak RSS, maps per second, time per map (median, max), the texture cache hit rate and
# where the time goes (sums over maps of each phase).
# Usage: tools/bench_batch.sh [LUXEL=build/luxel] [--no-loop]
set -euo pipefail
cd "$(dirname "$0")/.."
luxel=build/luxel
loop=1
for arg in "$@"; do
  case "$arg" in
    LUXEL=*) luxel="${arg#LUXEL=}" ;;
    --no-loop) loop=0 ;;
    *) echo "bench_batch.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
game=/usr/share/games/openarena/baseoa
[ -d "$game" ] || { echo "bench_batch.sh: $game missing (run tools/setup.sh)" >&2; exit 2; }
out=$(mktemp -d /tmp/luxel-bench-batch.XXXXXX)
trap 'rm -rf "$out"' EXIT
threads=$(nproc)

report() {  # manifest, wall seconds, peak KB
  jq -r --arg wall "$2" --arg rss "$3" '
    def median: sort | if length == 0 then 0 elif length % 2 == 1 then .[length/2|floor] else (.[length/2-1] + .[length/2]) / 2 end;
    [.maps[] | .ms.total] as $t
    | "  maps \(.summary.maps) (\(.summary.failed) failed), views \(.summary.views); wall \($wall) s, peak RSS \(($rss|tonumber)/1024|floor) MB",
      "  maps/s \((.summary.maps / ($wall|tonumber)) * 100 | round / 100); per map median \($t|median) ms, max \($t|max) ms (in-process, \(.timings.maps_in_flight) maps in flight)",
      "  texture cache: \(.timings.texture_cache.lookups) lookups, hit rate \(.timings.texture_cache.hit_rate), \(.timings.texture_cache.decodes) decodes, \(.timings.texture_cache.megabytes) MB kept; Quake 3 shader mounts \(.timings.shader_mounts)",
      "  time by phase (sum over maps, ms): open \([.maps[].ms.open] | add | round), decode \([.maps[].ms.decode] | add | round), tessellate \([.maps[].ms.tessellate] | add | round), materials \([.maps[].ms.materials // 0] | add | round), camera \([.maps[].views[]?.ms.camera] | add | round), frame \([.maps[].views[]?.ms.frame] | add | round), write \([.maps[].views[]?.ms.write] | add | round)"
  ' "$1"
}

timed() {  # label, command...: runs it under /usr/bin/time, sets wall and rss
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$out/time" "$@"
  read -r wall rss < "$out/time"
}

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
