#!/usr/bin/env bash
# Fuzzes luxel's readers of untrusted files with libFuzzer, two targets one after the other:
#   luxel_fuzz_decode   the map decoders and tessellator, the studio model readers (.mdl .vvd .vtx), VPK directories;
#   luxel_fuzz_content  textures (VTF, PCX, WAL) and scripts (VMT, KeyValues / gameinfo.txt, Quake 3 shaders).
# Usage:
#   tools/fuzz.sh [seconds]   (default 60, two thirds to decode) explores: a random seed unless FUZZ_SEED is set,
#                             the corpora kept between runs;
#   tools/fuzz.sh --runs N    for CI: seed 1 (or FUZZ_SEED), fresh corpora, N inputs per target however long they
#                             take (libFuzzer's own timers still make two runs drift apart after a second or so).
# Builds build-san (the clang ASan/UBSan build of tools/test.sh --sanitize) with -DLUXEL_FUZZ=ON and seeds the
# corpora from ../shared: maps (whole and cut), VPK directories, studio models, textures and scripts (with the
# Quake 3 shader scripts of OpenArena when it is installed). Exits non-zero when a target finds a crash, a
# sanitizer report, an exception other than DecodeError, a timeout or an out-of-memory; the input that did it
# is left in build-san/artifacts/.
set -euo pipefail

runs=""
seconds=60
if [ "${1:-}" = --runs ]; then runs="${2:?--runs needs a count}"; else seconds="${1:-60}"; fi
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-san"  # shared with tools/test.sh --sanitize
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
shared="$root/../shared"
maps="$shared/maps"
content="$shared/source-content"

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DLUXEL_SANITIZE=ON -DLUXEL_FUZZ=ON "${launcher[@]}" >/dev/null
cmake --build "$build" -j2 --target luxel_fuzz_decode luxel_fuzz_content

artifacts="$build/artifacts"
mkdir -p "$artifacts"
[ -d "$shared" ] || echo "fuzz.sh: $shared not found: starting from empty corpora" >&2

# A target's corpus folder: kept when exploring, fresh for a run count.
corpus_dir() {
    local dir="$build/corpus-$1"
    [ "$1" = decode ] && [ -z "$runs" ] && dir="$build/corpus"  # its old name: keep what earlier runs found
    if [ -n "$runs" ]; then dir="$build/corpus-$1-repeatable"; rm -rf "$dir"; fi
    mkdir -p "$dir"
    echo "$dir"
}

decode_corpus="$(corpus_dir decode)"
if [ -d "$maps" ]; then
    for map in "$maps"/q3/*.bsp "$maps"/q2/*.bsp "$maps"/source/*.bsp; do
        name="$(basename "$map" .bsp)"
        size="$(stat -c %s "$map")"
        # Small maps whole; every map also as cut copies (header only, first lumps, half).
        if [ "$size" -le 1000000 ]; then cp "$map" "$decode_corpus/$name.bsp"; fi
        head -c 144 "$map" >"$decode_corpus/$name.header"
        head -c 4096 "$map" >"$decode_corpus/$name.4k"
        head -c 65536 "$map" >"$decode_corpus/$name.64k"
        head -c $((size / 2)) "$map" >"$decode_corpus/$name.half"
    done
fi
# VPK directory files (the decode target reads input with the VPK signature as one).
if [ -d "$content" ]; then
    for vpk in "$content"/valvepython_vpk/test_dir.vpk "$content"/plumber_core/vpk/test_dir.vpk "$content"/plumber_core/vpk/test.vpk; do
        cp "$vpk" "$decode_corpus/vpk_$(basename "$(dirname "$vpk")")_$(basename "$vpk")"
    done
fi
# Studio models (the decode target tries every input as .mdl, .vvd and .vtx).
for model in "$content"/*/models/*/*.{mdl,vvd,vtx} "$content"/plumber_core/fs_test_filesystem/game/models/props/*/*.{mdl,vvd,vtx}; do
    [ -f "$model" ] && cp "$model" "$decode_corpus/$(basename "$model")"
done

# Textures and scripts (the content target tries every input as each). Large textures are cut: the
# header and first mips are where the parsing is.
content_corpus="$(corpus_dir content)"
k=0
while IFS= read -r -d '' file; do
    k=$((k + 1))
    head -c 262144 "$file" >"$content_corpus/$k-$(basename "$file")"
done < <(find "$shared" \( -iname '*.vtf' -o -iname '*.wal' -o -iname '*.pcx' -o -iname '*.vmt' -o -iname 'gameinfo.txt' \) -print0 2>/dev/null | sort -z)
baseoa=/usr/share/games/openarena/baseoa
if [ -f "$baseoa/pak0.pk3" ]; then
    python3 - "$baseoa/pak0.pk3" "$content_corpus" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in sorted(n for n in z.namelist() if n.lower().endswith('.shader'))[:40]:
        with open(f"{sys.argv[2]}/oa-{name.replace('/', '_')}", 'wb') as out:
            out.write(z.read(name))
    # A few small JPEG textures (the TurboJPEG reader): whole, so the decode runs to the end.
    jpegs = sorted((z.getinfo(n).file_size, n) for n in z.namelist() if n.lower().endswith('.jpg'))
    for size, name in jpegs[:8]:
        with open(f"{sys.argv[2]}/oa-{name.replace('/', '_')}", 'wb') as out:
            out.write(z.read(name))
PY
fi

# -rss_limit_mb / -malloc_limit_mb catch allocations driven by counts in the file; -timeout catches hangs.
# A time limit makes the inputs tried depend on the machine's speed; a run count does not.
fuzz() {
    local target=$1 corpus=$2 limit
    if [ -n "$runs" ]; then limit=(-seed="${FUZZ_SEED:-1}" -runs="$runs"); else limit=(-seed="${FUZZ_SEED:-0}" -max_total_time="$3"); fi
    echo "== fuzz.sh: $target"
    "$build/luxel_fuzz_$target" "$corpus" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=1024 -max_len=4000000 -artifact_prefix="$artifacts/$target-" -print_final_stats=1
}
fuzz decode "$decode_corpus" $((seconds * 2 / 3))
fuzz content "$content_corpus" $((seconds - seconds * 2 / 3))
