#!/usr/bin/env bash
# Fuzzes luxel's readers of untrusted files with libFuzzer:
#   luxel_fuzz_decode   the map decoders and tessellator, the studio model readers (.mdl .vvd .vtx), VPK directories;
#   luxel_fuzz_lumps_q3, _q2, _vbsp  one format's decoder, an input being one lump: only the decoder stage that
#                       reads it runs, on the state a valid base map left before that stage;
#   luxel_fuzz_content  textures (VTF, PCX, WAL, JPEG, PNG, TGA, WebP) and scripts (VMT, KeyValues / gameinfo.txt, Quake 3 shaders);
#   luxel_fuzz_formats  scene TOML, zip / pk3 central directories and members, Quake 3 .map sources, entity lumps,
#                       gameinfo.txt search paths;
#   luxel_fuzz_serve    what `luxel serve` does with a request: routes, query strings, ETags, uploads;
#   luxel_fuzz_pak      id PACK archives (.pak): in memory, and on disk as a Quake game folder's pak0.pak.
# Usage:
#   tools/fuzz.sh [seconds]   (default 60, two thirds to decode) explores decode and content: a random seed unless
#                             FUZZ_SEED is set, the corpora kept between runs;
#   tools/fuzz.sh --runs N    for CI: seed 1 (or FUZZ_SEED), fresh corpora, N inputs per target (all eight) however
#                             long they take (libFuzzer's own timers still make two runs drift apart after a second);
#   tools/fuzz.sh --campaign [N | Ts] [TARGET...]  every target (or those named) for N inputs (default 1000000) or
#                             T seconds each, two at a time (FUZZ_JOBS),
#                             corpora and artifacts kept under build-san/campaign/TARGET/; prints per target the
#                             inputs run, execs/s, coverage (cov / ft), corpus size, peak RSS and findings.
# Builds build-san (the clang ASan/UBSan build of tools/test.sh --sanitize) with -DLUXEL_FUZZ=ON and seeds the
# corpora from ../shared: maps (whole and cut), VPK directories, studio models, textures and scripts (with the
# Quake 3 shader scripts of OpenArena when it is installed). Exits non-zero when a target finds a crash, a
# sanitizer report, an exception other than DecodeError, a timeout or an out-of-memory; the input that did it
# is left in build-san/artifacts/.
set -euo pipefail

runs=""
seconds=60
campaign_targets=()
campaign=""
if [ "${1:-}" = --runs ]; then runs="${2:?--runs needs a count}"
elif [ "${1:-}" = --campaign ]; then campaign="${2:-1000000}"; shift $(($# < 2 ? $# : 2)); campaign_targets=("$@")
elif [ "${1:-}" = --campaign-report ]; then campaign=report
else seconds="${1:-60}"; fi
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-san"  # shared with tools/test.sh --sanitize
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
shared="$root/../shared"

# The campaign's table from build-san/campaign/*/: the targets named (a campaign's own), else every target with a
# log (tools/fuzz.sh --campaign-report). Non-zero when a target left an artifact (a finding).
all_targets=(decode lumps_q3 lumps_q2 lumps_vbsp lumps_q1 content formats serve pak)

campaign_report() {
    local reported=("$@")
    [ "${#reported[@]}" -gt 0 ] || reported=("${all_targets[@]}")
    echo "| target | inputs | execs/s | cov | ft | corpus | peak RSS | findings | ended |"
    echo "|---|---|---|---|---|---|---|---|---|"
    local status=0 target dir inputs speed cov ft corpus peak findings ended
    for target in "${reported[@]}"; do
        dir="$build/campaign/$target"
        [ -f "$dir/log" ] || continue  # seeded but never run
        inputs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$dir/log" | tail -n 1 | awk '{print $2}')
        speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$dir/log" | tail -n 1 | awk '{print $2}')
        cov=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -n 1 | awk '{print $2}')
        ft=$(grep -o 'ft: [0-9]*' "$dir/log" | tail -n 1 | awk '{print $2}')
        corpus=$(find "$dir/corpus" -type f | wc -l)
        peak=$(( $(tail -n 1 "$dir/peak_kb" 2>/dev/null || echo 0) / 1024 ))  # time -o: a status line first on failure
        findings=$(find "$dir/artifacts" -type f | wc -l)
        case "$(cat "$dir/rc" 2>/dev/null)" in
            0) ended="all inputs run" ;;
            *) if grep -q 'run interrupted' "$dir/log"; then ended="interrupted"; else ended="stopped: $(grep -m1 -o 'ERROR: libFuzzer: [a-z-]*\|ERROR: AddressSanitizer: [a-z-]*' "$dir/log")"; fi ;;
        esac
        [ "$findings" = 0 ] || status=1
        echo "| $target | ${inputs:-?} | ${speed:-?} | ${cov:-?} | ${ft:-?} | $corpus | ${peak} MB | $findings | $ended |"
    done
    [ "$status" = 0 ] || echo "fuzz.sh: findings: see $build/campaign/*/log and */artifacts/" >&2
    return "$status"
}
if [ "$campaign" = report ]; then campaign_report; exit; fi

maps="$shared/maps"
content="$shared/source-content"

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DLUXEL_SANITIZE=ON -DLUXEL_FUZZ=ON "${launcher[@]}" >/dev/null
targets=("${all_targets[@]}")
cmake --build "$build" -j2 --target "${targets[@]/#/luxel_fuzz_}"
# The Source lump target's base map is a real one from ../shared.
if [ ! -f "$shared/maps/source/bsptool_tf2_mp_lobby.bsp" ]; then
    echo "fuzz.sh: $shared/maps/source/bsptool_tf2_mp_lobby.bsp not found: lumps_vbsp left out" >&2
    targets=(decode lumps_q3 lumps_q2 lumps_q1 content formats serve pak)
fi

artifacts="$build/artifacts"
mkdir -p "$artifacts"
[ -d "$shared" ] || echo "fuzz.sh: $shared not found: starting from empty corpora" >&2

# A target's corpus folder: kept when exploring and in a campaign, fresh for a run count.
corpus_dir() {
    local dir="$build/corpus-$1"
    if [ -n "$campaign" ]; then dir="$build/campaign/$1/corpus"; mkdir -p "$dir"; echo "$dir"; return; fi
    [ "$1" = decode ] && [ -z "$runs" ] && dir="$build/corpus"  # its old name: keep what earlier runs found
    if [ -n "$runs" ]; then dir="$build/corpus-$1-repeatable"; rm -rf "$dir"; fi
    mkdir -p "$dir"
    echo "$dir"
}

declare -A corpus  # target: its corpus folder (corpus_dir empties a repeatable one: call it once a target)
for target in "${targets[@]}"; do corpus[$target]="$(corpus_dir "$target")"; done
decode_corpus="${corpus[decode]}"
if [ -d "$maps" ]; then
    for map in "$maps"/q3/*.bsp "$maps"/q2/*.bsp "$maps"/source/*.bsp "$maps"/q1/*/*/*.bsp "$maps"/hl/*/*.bsp; do
        name="$(basename "$map" .bsp)"
        # Quake 1 builds of one map share its file name: named with their build folder too.
        case "$map" in "$maps"/q1/*) name="$(basename "$(dirname "$map")")-$name" ;; esac
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
content_corpus="${corpus[content]}"
# A seed file: the reader's selector byte (see the target's source), then the file (cut to its first 256 KiB).
seed() {  # seed SELECTOR FILE OUT
    { printf "\\$(printf %o "$1")"; head -c 262144 "$2"; } >"$3"
}
k=0
while IFS= read -r -d '' file; do
    k=$((k + 1))
    case "${file,,}" in
        *.vtf) selector=0 ;; *.pcx) selector=1 ;; *.wal) selector=2 ;; *.vmt) selector=4 ;; *) selector=5 ;;
    esac
    seed "$selector" "$file" "$content_corpus/$k-$(basename "$file")"
done < <(find "$shared" \( -iname '*.vtf' -o -iname '*.wal' -o -iname '*.pcx' -o -iname '*.vmt' -o -iname 'gameinfo.txt' \) -print0 2>/dev/null | sort -z)
baseoa=/usr/share/games/openarena/baseoa
if [ -f "$baseoa/pak0.pk3" ]; then
    python3 - "$baseoa/pak0.pk3" "$content_corpus" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in sorted(n for n in z.namelist() if n.lower().endswith('.shader'))[:40]:
        with open(f"{sys.argv[2]}/oa-{name.replace('/', '_')}", 'wb') as out:
            out.write(bytes([9]) + z.read(name))
    # A few small JPEG textures (the TurboJPEG reader): whole, so the decode runs to the end.
    jpegs = sorted((z.getinfo(n).file_size, n) for n in z.namelist() if n.lower().endswith('.jpg'))
    for size, name in jpegs[:8]:
        with open(f"{sys.argv[2]}/oa-{name.replace('/', '_')}", 'wb') as out:
            out.write(bytes([3]) + z.read(name))
    # Small TGA and PNG textures (stb_image, libpng): selectors 7 and 6.
    for ext, selector in (('.tga', 7), ('.png', 6)):
        files = sorted((z.getinfo(n).file_size, n) for n in z.namelist() if n.lower().endswith(ext))
        for size, name in files[:8]:
            with open(f"{sys.argv[2]}/oa-{name.replace('/', '_')}", 'wb') as out:
                out.write(bytes([selector]) + z.read(name))
PY
fi

# Scene files, archives, .map sources, entity lumps and gameinfo.txt files (formats); request lines with
# bodies (serve).
formats_corpus="${corpus[formats]}"
serve_corpus="${corpus[serve]}"
for scene in "$root"/scenes/*.toml; do seed 0 "$scene" "$formats_corpus/$(basename "$scene")"; done
find "$shared" \( -iname '*.map' -o -iname 'gameinfo.txt' \) -size -300k -print0 2>/dev/null | sort -z |
    while IFS= read -r -d '' f; do
        case "${f,,}" in *.map) selector=2 ;; *) selector=4 ;; esac
        seed "$selector" "$f" "$formats_corpus/$(basename "$(dirname "$f")")-$(basename "$f")"
    done
python3 - "$formats_corpus" "$serve_corpus" "$maps" <<'PY'
import io, os, sys, zipfile, glob
formats, serve, maps = sys.argv[1:4]
def zipped(members, method=zipfile.ZIP_DEFLATED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in members: z.writestr(name, data)
    return buf.getvalue()
small = sorted(glob.glob(f"{maps}/q2/*.bsp") + glob.glob(f"{maps}/q3/*.bsp"), key=os.path.getsize)[:2]
room = open(small[0], "rb").read() if small else b"IBSP" + bytes(200)
for i, data in enumerate([zipped([("maps/x.bsp", room[:20000]), ("textures/a.tga", bytes(64))]),
                          zipped([("maps/x.bsp", room[:4000])], zipfile.ZIP_STORED),
                          zipped([("scripts/a.shader", b"textures/a\n{\n}\n"), ("maps/y.bsp", b"IBSP")])]):
    open(f"{formats}/zip-{i}.pk3", "wb").write(bytes([1]) + data)
    open(f"{serve}/upload-{i}", "wb").write(b"/render?size=64x36&map=x\n" + data)
for path in small:  # entity lumps: the text between the first '{' and the end of its lump, roughly
    data = open(path, "rb").read()
    start = data.find(b'{\n"')
    if start >= 0: open(f"{formats}/entities-{os.path.basename(path)}.txt", "wb").write(bytes([3]) + data[start:start + 20000].split(b"\0")[0])
for i, line in enumerate([b"/maps/oa_dm1.png?size=512x288&camera=spawn:2&mode=lit\n\"abc\", W/\"def\"",
                          b"/maps/..%2Fx.webp?camera=best&fov=95.5&time=2&world-only=1&styles=0\n*",
                          b"/maps/a.jpg?look=engine&unlit=black&spp=4&transparent=true\nIBSP\x2e\0\0\0"]):
    open(f"{serve}/request-{i}", "wb").write(line)
# A form as browsers send it: the first line is its Content-Type, the rest the body.
form = (b"multipart/form-data; boundary=\"x-b\"\n--x-b\r\nContent-Disposition: form-data; name=\"size\"\r\n\r\n64x36\r\n"
        b"--x-b\r\nContent-Disposition: form-data; name=\"map\"; filename=\"r.bsp\"\r\n\r\n" + room[:2000] + b"\r\n--x-b--\r\n")
open(f"{serve}/form-0", "wb").write(form)
PY
# PACK archives (pak): the selector byte (0 in memory, 1 on disk as a game folder's pak0.pak), then the archive;
# the first also as an upload (serve).
python3 - "${corpus[pak]}" "$maps" "$serve_corpus" <<'PY'
import glob, os, struct, sys
out, maps, serve = sys.argv[1:4]
def pak(files):
    body, records = b"", b""
    for name, data in files:
        records += name.encode().ljust(56, b"\0") + struct.pack("<ii", 12 + len(body), len(data))
        body += data
    return b"PACK" + struct.pack("<ii", 12 + len(body), len(records)) + body + records
small = sorted(glob.glob(f"{maps}/q2/*.bsp"), key=os.path.getsize)[:1]
room = open(small[0], "rb").read()[:20000] if small else b"IBSP" + bytes(200)
seeds = [pak([("maps/q2dm1.bsp", room), ("textures/e1u1/floor.wal", bytes(100)), ("pics/colormap.pcx", bytes(64))]),
         pak([("maps/a.bsp", b"IBSP"), ("MAPS/A.BSP", b"dup"), ("maps\\b.bsp", b"x"), ("../up.txt", b"u")]),
         pak([]),
         pak([(f"sound/s{i}.wav", bytes([i]) * i) for i in range(40)])]
for i, data in enumerate(seeds):
    for selector in (0, 1):
        open(f"{out}/pak-{i}-{selector}", "wb").write(bytes([selector]) + data)
open(f"{serve}/upload-pak", "wb").write(b"/render?size=64x36&map=q2dm1\n" + seeds[0])
PY

# The lump targets write their own seeds: each lump of their base map behind its selector.
for target in "${targets[@]}"; do
    if [[ "$target" == lumps_* || "$target" == decode ]]; then  # decode: the Quake 1 writer's maps
        LUXEL_FUZZ_MAPS="$maps" LUXEL_FUZZ_WRITE_SEEDS="${corpus[$target]}" "$build/luxel_fuzz_$target"
    fi
done

# -rss_limit_mb / -malloc_limit_mb catch allocations driven by counts in the file; -timeout catches hangs.
# A time limit makes the inputs tried depend on the machine's speed; a run count does not.
# Inputs are cut to a length that keeps the slow targets near a thousand inputs a second: whole maps past 256 KiB
# make decode ten times slower (its corpus has every map cut that short), and the shader script parser takes about
# a microsecond a byte under the sanitizers (textures keep their header and small mips).
# The lump targets stop at 128 KiB: a lump's records are decoded by the same loop however many there are, and
# multi-page Quake 3 lightmap lumps (48 KiB a page) took half of that target's time.
max_len() {
    case "$1" in decode) echo 262144 ;; content) echo 16384 ;; lumps_*) echo 131072 ;; *) echo 4000000 ;; esac
}
fuzz() {
    local target=$1 corpus=$2 limit
    if [ -n "$runs" ]; then limit=(-seed="${FUZZ_SEED:-1}" -runs="$runs"); else limit=(-seed="${FUZZ_SEED:-0}" -max_total_time="$3"); fi
    echo "== fuzz.sh: $target"
    "$build/luxel_fuzz_$target" "$corpus" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=1024 -max_len="$(max_len "$target")" -artifact_prefix="$artifacts/$target-" -print_final_stats=1
}


if [ -n "$campaign" ]; then
    # One target's campaign: its log, corpus and artifacts under campaign/TARGET/.
    run_campaign() {
        local target=$1 dir="$build/campaign/$1" limit
        mkdir -p "$dir/artifacts"
        case "$campaign" in *s) limit=(-max_total_time="${campaign%s}") ;; *) limit=(-runs="$campaign") ;; esac
        /usr/bin/time -f "%M" -o "$dir/peak_kb" "$build/luxel_fuzz_$target" "$dir/corpus" "${limit[@]}" \
            -seed="${FUZZ_SEED:-0}" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len="$(max_len "$target")" \
            -artifact_prefix="$dir/artifacts/" -print_final_stats=1 >"$dir/log" 2>&1
        echo $? >"$dir/rc"
    }
    start=$SECONDS
    [ "${#campaign_targets[@]}" -gt 0 ] || campaign_targets=("${targets[@]}")
    for target in "${campaign_targets[@]}"; do  # FUZZ_JOBS (2) at a time, the next one starting when one ends
        [ "$(jobs -rp | wc -l)" -lt "${FUZZ_JOBS:-2}" ] || wait -n || true  # a finding is in the report, not an exit
        run_campaign "$target" &
    done
    wait
    echo "fuzz.sh --campaign $campaign: $((SECONDS - start)) s on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
    campaign_report "${campaign_targets[@]}"
    status=$?
    exit "$status"
fi

if [ -n "$runs" ]; then
    for target in "${targets[@]}"; do fuzz "$target" "${corpus[$target]}" 0; done
else
    fuzz decode "$decode_corpus" $((seconds * 2 / 3))
    fuzz content "$content_corpus" $((seconds - seconds * 2 / 3))
fi
