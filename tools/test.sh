#!/usr/bin/env bash
# Builds luxel and runs its tests.
#   tools/test.sh              Release build in build/, all tests (ctest)
#   tools/test.sh --sanitize   clang ASan+UBSan build in build-san/, all tests; the same build holds the
#                              libFuzzer target that tools/fuzz.sh runs, so CI compiles the code twice, not three times
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache: hits across clones (paths are rewritten relative to the checkout).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

dir=build; flags=(-DCMAKE_BUILD_TYPE=Release)
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-san
  export CC=clang CXX=clang++
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DLUXEL_SANITIZE=ON -DLUXEL_FUZZ=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$dir" -G Ninja "${flags[@]}" "${launcher[@]}" >/dev/null
cmake --build "$dir"
# As many entries at a time as cores: much of each is serial (decoding, process start-up, the Slurm cluster starting).
ctest --test-dir "$dir" --output-on-failure --parallel "$(nproc)"
