#!/usr/bin/env bash
# Which Quake 3 shader features luxel's renderer leaves out, on real maps: per map, how many of the
# materials with a shader script are drawn with every stage evaluated and how many partly; then every
# feature left out, by the number of distinct shaders that use it over all the maps.
# Usage: tools/shader_support.sh [LUXEL=build/luxel] [MAP...]   (default: every OpenArena map of the Debian
# install, then ../shared/maps/q3/*.bsp with the OpenArena game folder for textures)
set -euo pipefail
cd "$(dirname "$0")/.."
luxel=build/luxel
maps=()
for arg in "$@"; do
  case "$arg" in
    LUXEL=*) luxel="${arg#LUXEL=}" ;;
    *) maps+=("$arg") ;;
  esac
done
game=/usr/share/games/openarena/baseoa
if [ ${#maps[@]} -eq 0 ]; then
  [ -d "$game" ] && mapfile -t maps < <("$luxel" list "$game" | cut -f2)
  for m in ../shared/maps/q3/*.bsp; do [ -f "$m" ] && maps+=("$m"); done
fi
out=$(mktemp -d /tmp/luxel-shader-support.XXXXXX)
trap 'rm -rf "$out"' EXIT
printf '%-34s %8s %8s %8s\n' map shaders all partly
for m in "${maps[@]}"; do
  name=$(basename "${m##*:}" .bsp)
  if ! "$luxel" info "$m" --materials --json --game-dir "$game" > "$out/$name.json" 2> /dev/null; then
    echo "$name: luxel info failed" >&2
    continue
  fi
  # Materials with a shader script: those with flags or blend other than plain texture are not
  # distinguishable here, so count every material whose look has a texture or a program.
  jq -r --arg name "$name" '
    [.material_details.list[] | select(.texture != null or .program_stages != null)] as $m
    | "\($name) \($m | length) \([$m[] | select(.not_drawn == null)] | length) \([$m[] | select(.not_drawn != null)] | length)"' \
    "$out/$name.json" | awk '{ printf "%-34s %8d %8d %8d\n", $1, $2, $3, $4 }'
done
echo
echo "features left out (distinct shaders using each, over all maps):"
jq -s -r '[.[] | .material_details.list[] | select(.not_drawn != null) | {name, f: .not_drawn[]}] | unique
          | group_by(.f) | map({f: .[0].f, n: length}) | sort_by(-.n) | .[] | "  \(.n)\t\(.f)"' "$out"/*.json
