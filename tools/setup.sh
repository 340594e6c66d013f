#!/usr/bin/env bash
# Installs every Debian 12 package luxel needs and builds it (Release) into build/.
# Usage: tools/setup.sh [--no-build] [--no-data]
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache: hits across clones (paths are rewritten relative to the checkout).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

build=1; data=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    --no-data) data=0 ;;
    *) echo "setup.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

packages=(
  build-essential cmake ninja-build pkg-config ccache clang libclang-rt-14-dev
  libtbb-dev libopenimageio-dev openimageio-tools libembree-dev catch2
  libcli11-dev nlohmann-json3-dev libfmt-dev libzip-dev liblzma-dev libsquish-dev
  libtomlplusplus-dev libxxhash-dev libdeflate-dev libturbojpeg0-dev fonts-dejavu-core
  # image files luxel codes itself (OpenImageIO only in the module loaded on demand): PNG framing (deflated by
  # libdeflate), JPEG writing, WebP, TGA through stb_image; contact sheet thumbnails fitted by stb_image_resize, labels
  # drawn by FreeType
  libpng-dev libjpeg62-turbo-dev libwebp-dev libstb-dev libfreetype-dev
  # luxel serve: Boost.Beast / Asio is the server's event loop and HTTP parser, uriparser decodes request targets;
  # cpp-httplib's client drives the tests; wrk and ab drive tools/bench_serve.sh, chromium tests the page
  libboost-dev liburiparser-dev libcpp-httplib-dev wrk apache2-utils chromium curl
  # tests: JUnit reports of luxel diff parsed back with a real XML parser
  libpugixml-dev
  # tools/slurm: the local single-node cluster the batch shards run on; jq compares manifests
  slurm-wlm munge jq
  # tools/bench.sh: whole commands timed side by side; profiles and instruction counts
  hyperfine linux-perf valgrind time
)
# openarena-oacmp1: the textures and shaders (q3map_surfacelight, q3map_skyLight) of the oacmpdm8 lighting pairs
[ "$data" = 1 ] && packages+=(openarena-data openarena-088-data openarena-oacmp1)

sudo_cmd=""
[ "$(id -u)" = 0 ] || sudo_cmd="sudo"
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -q
  $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ "$build" = 1 ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
  cmake --build build
fi
