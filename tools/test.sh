#!/usr/bin/env bash
# Builds luxel and runs its tests.
#   tools/test.sh              Release build in build/, all tests (ctest)
#   tools/test.sh --sanitize   ASan+UBSan build in build-asan/, all tests
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache: hits across clones (paths are rewritten relative to the checkout).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

dir=build; flags=(-DCMAKE_BUILD_TYPE=Release)
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DLUXEL_SANITIZE=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$dir" -G Ninja "${flags[@]}" "${launcher[@]}" >/dev/null
cmake --build "$dir"
ctest --test-dir "$dir" --output-on-failure
