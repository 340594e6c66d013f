#!/usr/bin/env bash
# luxel's levelshots (`luxel batch --preset levelshots`: intermission camera, 640x480 lit frame in the engine
# look, R_LevelShot's 4x3 point-sample reduction to 128x128) against the levelshots OpenArena ships, per map:
# the mean absolute difference of Rec.601 luma (Y' = 0.299 R' + 0.587 G' + 0.114 B' on the 8-bit values,
# 0..255) and the signed mean (luxel minus shipped: + is luxel brighter), then the median over the maps
# that ship one. A shipped levelshot of another size (OpenArena has 256x256 ones) is resized to 128x128 by
# oiiotool's default filter first. Images are compared with OpenImageIO's oiiotool (--chsum, --diff).
# The shipped one is the file the game would load: levelshots/NAME.tga before .jpg, the last pk3 in sorted
# order holding it.
# Usage: tools/levelshots_vs_openarena.sh [LUXEL=build/luxel] [OUT=out/levelshots-vs-openarena] [GAME=DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
luxel=build/luxel
out=out/levelshots-vs-openarena
game=/usr/share/games/openarena/baseoa
for arg in "$@"; do
  case "$arg" in
    LUXEL=*) luxel="${arg#LUXEL=}" ;;
    OUT=*) out="${arg#OUT=}" ;;
    GAME=*) game="${arg#GAME=}" ;;
    *) echo "usage: $0 [LUXEL=build/luxel] [OUT=dir] [GAME=baseoa dir]" >&2; exit 2 ;;
  esac
done
[ -d "$game" ] || { echo "$game: not found (tools/setup.sh installs openarena-data)" >&2; exit 2; }
command -v oiiotool > /dev/null || { echo "oiiotool not found (openimageio-tools)" >&2; exit 2; }

# Exit code 1 (some maps failed) still leaves the others' levelshots to compare.
"$luxel" batch --preset levelshots "$game" -o "$out/luxel" -q --no-index --sheet - || [ $? -eq 1 ]

shipped="$out/shipped"
rm -rf "$shipped"
mkdir -p "$shipped"
for pk3 in $(ls "$game"/*.pk3 | sort); do  # later archives overwrite earlier ones, as the game's precedence
  unzip -o -q -j "$pk3" 'levelshots/*' -d "$shipped" 2> /dev/null || true
done

luma='--chsum:weight=0.299,0.587,0.114'
errors=()
printf '%-24s %10s %10s %s\n' map 'mean|dY|' 'mean dY' shipped
for mine in "$out"/luxel/levelshots/*.jpg; do
  name=$(basename "$mine" .jpg)
  ref=""
  for ext in tga jpg; do  # matched without regard to case, as the game's pk3 lookups are
    found=$(find "$shipped" -maxdepth 1 -iname "$name.$ext" | head -n 1)
    if [ -n "$found" ]; then ref=$found; break; fi
  done
  [ -n "$ref" ] || continue
  size=$(oiiotool --info "$ref" | sed -nE 's/.*: +([0-9]+) x +([0-9]+),.*/\1x\2/p' | head -n 1)
  resize=()
  [ "$size" = 128x128 ] || resize=(--resize 128x128)
  # Both as one luma channel in 0..1; --diff prints the mean absolute difference, --sub + --printstats the signed mean.
  diff=$(oiiotool "$mine" --ch R,G,B $luma "$ref" --ch R,G,B "${resize[@]}" $luma --diff 2>&1 || true)
  mean=$(sed -n 's/.*Mean error = \([0-9.eE+-]*\).*/\1/p' <<< "$diff" | head -n 1)
  signed=$(oiiotool "$mine" --ch R,G,B $luma "$ref" --ch R,G,B "${resize[@]}" $luma --sub --printstats 2>&1 |
           sed -n 's/.*Stats Avg: *\([0-9.eE+-]*\).*/\1/p' | head -n 1)
  [ -n "$mean" ] || { echo "$name: oiiotool could not compare" >&2; continue; }
  abs255=$(awk -v m="$mean" 'BEGIN { printf "%.2f", m * 255 }')
  signed255=$(awk -v m="${signed:-0}" 'BEGIN { printf "%+.2f", m * 255 }')
  printf '%-24s %10s %10s %s (%s)\n' "$name" "$abs255" "$signed255" "$(basename "$ref")" "$size"
  errors+=("$abs255")
done
[ ${#errors[@]} -gt 0 ] || { echo "no map ships a levelshot that luxel rendered" >&2; exit 1; }
printf '%s\n' "${errors[@]}" | sort -g | awk '{ v[NR] = $1 } END {
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  printf "%d maps with a shipped levelshot: median mean |dY| (Rec.601 luma, 0..255) = %.2f\n", NR, m }'
