#!/usr/bin/env bash
# Fuzzes the map decoders, the studio model readers and the VPK reader with libFuzzer:
#   tools/fuzz.sh [seconds]   (default 60) explores: a random seed unless FUZZ_SEED is set, the corpus kept between runs;
#   tools/fuzz.sh --runs N    for CI: seed 1 (or FUZZ_SEED), a fresh corpus, N inputs however long they take (libFuzzer's
#                             own timers still make two runs drift apart after the first second or so).
# Builds build-san (the clang ASan/UBSan build of tools/test.sh --sanitize) + ASan/UBSan, seeds a corpus from ../shared/maps/{q3,q2,source}/*.bsp (real maps plus
# truncated and cut copies) and ../shared/source-content's VPK directory files, and runs. Exits non-zero when the fuzzer finds a crash,
# a sanitizer report, an exception other than DecodeError, a timeout or an out-of-memory; the input that
# did it is left in build-san/artifacts/.
set -euo pipefail

runs=""
seconds=60
if [ "${1:-}" = --runs ]; then runs="${2:?--runs needs a count}"; else seconds="${1:-60}"; fi
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-san"  # shared with tools/test.sh --sanitize
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
maps="$root/../shared/maps"

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DLUXEL_SANITIZE=ON -DLUXEL_FUZZ=ON "${launcher[@]}" >/dev/null
cmake --build "$build" -j2 --target luxel_fuzz_decode

corpus="$build/corpus"
if [ -n "$runs" ]; then corpus="$build/corpus-repeatable"; rm -rf "$corpus"; fi
artifacts="$build/artifacts"
mkdir -p "$corpus" "$artifacts"
if [ -d "$maps" ]; then
    for map in "$maps"/q3/*.bsp "$maps"/q2/*.bsp "$maps"/source/*.bsp; do
        name="$(basename "$map" .bsp)"
        size="$(stat -c %s "$map")"
        # Small maps whole; every map also as cut copies (header only, first lumps, half).
        if [ "$size" -le 1000000 ]; then cp "$map" "$corpus/$name.bsp"; fi
        head -c 144 "$map" >"$corpus/$name.header"
        head -c 4096 "$map" >"$corpus/$name.4k"
        head -c 65536 "$map" >"$corpus/$name.64k"
        head -c $((size / 2)) "$map" >"$corpus/$name.half"
    done
else
    echo "fuzz.sh: $maps not found: starting from an empty corpus" >&2
fi
# VPK directory files (the fuzz target reads input with the VPK signature as one).
content="$root/../shared/source-content"
if [ -d "$content" ]; then
    for vpk in "$content"/valvepython_vpk/test_dir.vpk "$content"/plumber_core/vpk/test_dir.vpk "$content"/plumber_core/vpk/test.vpk; do
        cp "$vpk" "$corpus/vpk_$(basename "$(dirname "$vpk")")_$(basename "$vpk")"
    done
fi
# Studio models (the same target tries every input as .mdl, .vvd and .vtx).
for model in "$root"/../shared/source-content/*/models/*/*.{mdl,vvd,vtx} \
             "$root"/../shared/source-content/plumber_core/fs_test_filesystem/game/models/props/*/*.{mdl,vvd,vtx}; do
    [ -f "$model" ] && cp "$model" "$corpus/$(basename "$model")"
done

# -rss_limit_mb / -malloc_limit_mb catch allocations driven by counts in the file; -timeout catches hangs.
# A time limit makes the inputs tried depend on the machine's speed; a run count does not.
if [ -n "$runs" ]; then limit=(-seed="${FUZZ_SEED:-1}" -runs="$runs"); else limit=(-seed="${FUZZ_SEED:-0}" -max_total_time="$seconds"); fi
exec "$build/luxel_fuzz_decode" "$corpus" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -max_len=4000000 -artifact_prefix="$artifacts/" -print_final_stats=1
