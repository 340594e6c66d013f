#!/usr/bin/env bash
# Start-up and cold-command figures, side by side with a build of an earlier commit (numbers only; nothing here
# passes or fails): `luxel --version`, `luxel --help`, `luxel info MAP` (no image involved), a cold 512x288 best
# thumbnail of OpenArena's am_thornish, and a PNG written from an EXR-free render; each timed as a whole process by
# farm-bench (runs alternating with the base build, medians and the ratio new / base), then the dynamic
# loader's own figures (LD_DEBUG=statistics) for `luxel --version` of both builds.
# Usage: tools/bench_start.sh [--base COMMIT (default 04c6bbb)] [--runs N (default 20)] [LUXEL=build/luxel]
# Needs farm-bench (the tool library) and Debian's openarena-data.
set -euo pipefail
cd "$(dirname "$0")/.."
luxel=build/luxel base_commit=04c6bbb runs=20
while [ $# -gt 0 ]; do
  case "$1" in
    LUXEL=*) luxel="${1#LUXEL=}" ;;
    --base) base_commit=$2; shift ;;
    --runs) runs=$2; shift ;;
    *) echo "bench_start.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
command -v farm-bench >/dev/null || { echo "bench_start.sh: needs farm-bench" >&2; exit 2; }
game=/usr/share/games/openarena/baseoa
[ -d "$game" ] || { echo "bench_start.sh: $game missing (run tools/setup.sh)" >&2; exit 2; }
out=$(mktemp -d /tmp/luxel-bench-start.XXXXXX)
cleanup() { git worktree remove --force "$out/base" 2>/dev/null; rm -rf "$out"; }
trap cleanup EXIT
export CCACHE_NOHASHDIR=1
git worktree add --detach -q "$out/base" "$base_commit"
(cd "$out/base" && CCACHE_BASEDIR=$PWD cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DLUXEL_TESTS=OFF \
   -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null && CCACHE_BASEDIR=$PWD ninja -C build luxel >/dev/null)
base=$out/base/build/luxel
luxel=$(realpath "$luxel")
map=$game/pak6-patch088.pk3:maps/am_thornish.bsp
echo "new: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src include CMakeLists.txt || echo '+changes')  base: $base_commit  $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

row() {  # label, arguments after the binary
  local label=$1; shift
  echo "== $label"
  farm-bench -n "$runs" --timeout 600 --vs "$base $*" -- "$luxel" "$@" 2>&1 |
    grep -E '^(A|B) (wall s|peak MiB)|^A/B wall' | sed 's/^/  /'
}
row "luxel --version" --version
row "luxel --help" --help
row "luxel info (am_thornish)" info "$map"
row "cold thumbnail: render am_thornish --camera best --size 512x288 (PNG)" \
    render "$map" --camera best --size 512x288 -o "$out/thumb.png"
echo "== the dynamic loader for luxel --version (LD_DEBUG=statistics; A new, B base)"
for which in A B; do
  bin=$luxel; [ "$which" = B ] && bin=$base
  LD_DEBUG=statistics "$bin" --version 2>&1 >/dev/null |
    grep -E 'total startup time|time needed for relocation|number of relocations:|relative relocations' |
    sed -E "s/^ *[0-9]+: */  $which /"
  echo "  $which shared libraries loaded: $(ldd "$bin" | wc -l)"
done
