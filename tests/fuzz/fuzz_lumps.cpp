// libFuzzer entry point for one map format's decoder, one lump at a time (built three times with -DLUXEL_FUZZ=ON
// as luxel_fuzz_lumps_q3, _q2 and _vbsp; run by tools/fuzz.sh). An input is a selector byte and a lump's bytes: the
// bytes are appended to a small valid base map and lump (selector mod the lump count) of its directory points at
// them; the map is then decoded and tessellated. The rest of the map stays valid, so the decoder gets past the
// other lumps to the one under test, and a mutation costs one lump's bytes rather than a whole map's: the
// whole-map target (fuzz_decode.cpp) spends its time copying and re-decoding lumps the mutation did not touch.
//   Quake 3: the test writer's fullQ3Map (a room plus one of every surface type, brush, fog, light grid, PVS),
//     without lightmap pages.
//   Quake 2: the test writer's floor map (a lit face, tree, brush, areas and portals, PVS).
//   Source: bsptool_tf2_mp_lobby.bsp from ../shared/maps/source (LUXEL_FUZZ_MAPS names another maps folder),
//     its faces unlit; a second byte is the lump's version. Selector 35 is the static prop game lump's payload (the game lump
//     directory's offsets are absolute, so the directory itself is left to the whole-map target).
// With LUXEL_FUZZ_WRITE_SEEDS=DIR set, the target writes seed inputs there (the base map's own lumps; for Source
// also those of three more small maps) and exits.
// A DecodeError is the expected answer to bad bytes; any other exception, crash, sanitizer report, hang or huge
// allocation is a finding.
#include <tbb/global_control.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/geometry/overlays.hpp"
#include "luxel/util/error.hpp"
#include "support/q2_writer.hpp"
#include "support/q3_writer.hpp"

#if !defined(LUXEL_FUZZ_LUMPS_Q3) && !defined(LUXEL_FUZZ_LUMPS_Q2) && !defined(LUXEL_FUZZ_LUMPS_VBSP)
#error "define one of LUXEL_FUZZ_LUMPS_Q3, LUXEL_FUZZ_LUMPS_Q2, LUXEL_FUZZ_LUMPS_VBSP"
#endif

namespace {

using luxel::Bytes;
namespace t = luxel::test;

uint32_t get32(const Bytes& b, size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
void put32(Bytes& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
}

// A base map file and where its lump directory is: entry i at directory + i * entryBytes holds the lump's
// offset and length (and, in VBSP, its version).
struct Base {
    Bytes file;
    size_t lumpCount = 0, directory = 8, entryBytes = 8;
    size_t gameLumpEntry = 0;  // VBSP: the file offset of the static prop game lump's directory entry, 0 if none
};

// The map with lump `lump` replaced: the new bytes go at the end of the file and the directory entry points there,
// so nothing else moves (VBSP game lump offsets are absolute).
Bytes spliced(const Base& base, size_t entry, const uint8_t* data, size_t size) {
    Bytes file;
    file.reserve(base.file.size() + size + 4);
    file = base.file;
    file.resize((file.size() + 3) & ~size_t(3), 0);
    put32(file, entry, uint32_t(file.size()));
    put32(file, entry + 4, uint32_t(size));
    file.insert(file.end(), data, data + size);
    return file;
}

Bytes lumpOf(const Base& base, size_t lump) {
    const size_t entry = base.directory + lump * base.entryBytes;
    const uint32_t offset = get32(base.file, entry), length = get32(base.file, entry + 4);
    return Bytes(base.file.begin() + offset, base.file.begin() + offset + length);
}

#if defined(LUXEL_FUZZ_LUMPS_Q3)
constexpr size_t kHeadBytes = 1;  // selector
// fullQ3Map without lightmap pages (its faces use none): turning 128x128 pages into floats is most of a decode's
// time under coverage instrumentation, and it would be paid on every input. The lightmaps lump is fuzzed like any
// other, and the face lump can point faces at its pages.
Base makeBase() {
    t::Q3MapBuilder map = t::fullQ3Map();
    map.lightmaps.clear();
    for (t::Q3Face& face : map.faces) {
        if (face.lightmap >= 0) face.lightmap = -1;
    }
    return {map.build(), t::kQ3LumpCount};
}
#elif defined(LUXEL_FUZZ_LUMPS_Q2)
constexpr size_t kHeadBytes = 1;
Base makeBase() { return {t::makeQ2FloorMap().build(), t::kQ2LumpCount}; }
#else
constexpr size_t kHeadBytes = 2;  // selector, lump version

std::optional<Bytes> readWhole(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    return Bytes(std::istreambuf_iterator<char>(in), {});
}

std::string mapsFolder() {
    const char* folder = std::getenv("LUXEL_FUZZ_MAPS");
    return folder ? folder : LUXEL_FUZZ_DEFAULT_MAPS;
}

constexpr size_t kGameLumpSelector = 35;
constexpr uint32_t kStaticProps = (uint32_t('s') << 24) | (uint32_t('p') << 16) | (uint32_t('r') << 8) | 'p';

// The static prop entry of a VBSP file's game lump directory (id, flags u16, version u16, offset, length), or 0.
size_t staticPropEntry(const Bytes& file) {
    const size_t directory = get32(file, 8 + 16 * kGameLumpSelector);
    const uint32_t count = get32(file, directory);
    for (size_t k = 0; k < count; ++k) {
        const size_t entry = directory + 4 + 16 * k;
        if (get32(file, entry) == kStaticProps) return entry;
    }
    return 0;
}

Base makeBase() {
    const std::string path = mapsFolder() + "/source/bsptool_tf2_mp_lobby.bsp";
    std::optional<Bytes> file = readWhole(path);
    if (!file) {
        std::fprintf(stderr, "fuzz_lumps: %s not found (set LUXEL_FUZZ_MAPS to a maps folder)\n", path.c_str());
        std::exit(2);
    }
    Base base{std::move(*file), 64, 8, 16};
    base.gameLumpEntry = staticPropEntry(base.file);
    // Its faces unlit (lighting offset -1, in the LDR and HDR face lumps), for the reason the Quake 3 base has no
    // lightmap pages; the lighting lumps stay, for fuzzed faces to point into.
    for (const size_t faces : {size_t(7), size_t(58)}) {
        const size_t entry = base.directory + faces * base.entryBytes;
        const uint32_t offset = get32(base.file, entry), length = get32(base.file, entry + 4);
        for (size_t record = offset; record + 56 <= offset + length; record += 56) put32(base.file, record + 20, ~0u);
    }
    return base;
}
#endif

const Base& base() {
    static const Base made = makeBase();
    return made;
}

Bytes mapWith(const uint8_t* input, size_t size) {
    const Base& b = base();
    const size_t lump = input[0] % b.lumpCount;
    const uint8_t* data = input + kHeadBytes;
    const size_t length = size - kHeadBytes;
#if defined(LUXEL_FUZZ_LUMPS_VBSP)
    const uint8_t version = input[1];
    if (lump == kGameLumpSelector) {
        if (b.gameLumpEntry == 0) return b.file;
        Bytes file = spliced(b, b.gameLumpEntry + 8, data, length);
        file[b.gameLumpEntry + 6] = version, file[b.gameLumpEntry + 7] = 0;
        return file;
    }
    const size_t entry = b.directory + lump * b.entryBytes;
    Bytes file = spliced(b, entry, data, length);
    put32(file, entry + 8, version);
    put32(file, entry + 12, 0);  // not LZMA-framed by the directory's say (the data may still start with "LZMA")
    return file;
#else
    return spliced(b, b.directory + lump * b.entryBytes, data, length);
#endif
}

void writeSeed(const std::string& path, uint8_t selector, std::optional<uint8_t> version, const Bytes& body) {
    Bytes seed{selector};
    if (version) seed.push_back(*version);
    seed.insert(seed.end(), body.begin(), body.end());
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(seed.data()), std::streamsize(seed.size()));
}

// The seed corpus: each lump of the base map as it is, behind its selector; for Quake 3 also the lit faces and
// their pages; for VBSP also every lump and the static
// prop payload of the small v19/v20 maps in the maps folder (real records to mutate, LZMA framing included).
void writeSeeds(const std::string& folder) {
    const Base& b = base();
    for (size_t lump = 0; lump < b.lumpCount; ++lump) {
#if defined(LUXEL_FUZZ_LUMPS_VBSP)
        const size_t entry = b.directory + lump * b.entryBytes;
        writeSeed(folder + "/base-" + std::to_string(lump), uint8_t(lump), uint8_t(get32(b.file, entry + 8)), lumpOf(b, lump));
#else
        writeSeed(folder + "/base-" + std::to_string(lump), uint8_t(lump), std::nullopt, lumpOf(b, lump));
#endif
    }
#if defined(LUXEL_FUZZ_LUMPS_Q3)
    // The faces with their lightmap pages, and one page (every page costs a 49,152-step loop per input).
    const Base full{t::fullQ3Map().build(), t::kQ3LumpCount};
    writeSeed(folder + "/lit-faces", uint8_t(t::kQ3Faces), std::nullopt, lumpOf(full, t::kQ3Faces));
    const Bytes pages = lumpOf(full, t::kQ3Lightmaps);
    writeSeed(folder + "/lit-page", uint8_t(t::kQ3Lightmaps), std::nullopt,
              Bytes(pages.begin(), pages.begin() + long(t::kQ3LightmapBytes)));
#elif defined(LUXEL_FUZZ_LUMPS_VBSP)
    for (const char* name : {"bsptool_tf2_test2", "bsputils_gmod_map_v20", "sdk2013pr_ss_hl2_level_1_v20"}) {
        const std::optional<Bytes> file = readWhole(mapsFolder() + "/source/" + name + ".bsp");
        if (!file) continue;
        const Base other{*file, 64, 8, 16, staticPropEntry(*file)};
        for (size_t lump = 0; lump < 64; ++lump) {
            const Bytes body = lumpOf(other, lump);
            if (!body.empty() && body.size() <= 100000)
                writeSeed(folder + "/" + name + "-" + std::to_string(lump), uint8_t(lump),
                          uint8_t(get32(other.file, 8 + 16 * lump + 8)), body);
        }
        if (const size_t entry = other.gameLumpEntry) {
            const uint32_t offset = get32(other.file, entry + 8), length = get32(other.file, entry + 12);
            writeSeed(folder + "/" + name + "-sprp", uint8_t(kGameLumpSelector), other.file[entry + 6],
                      Bytes(other.file.begin() + offset, other.file.begin() + offset + length));
        }
    }
#endif
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    if (const char* folder = std::getenv("LUXEL_FUZZ_WRITE_SEEDS")) {
        writeSeeds(folder);
        std::exit(0);
    }
    (void)base();  // a missing base map stops the target before it runs
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // One thread: coverage then depends on the input alone, so a seeded run tries the same inputs every time.
    static const tbb::global_control oneThread(tbb::global_control::max_allowed_parallelism, 1);
    if (size < kHeadBytes) return 0;
    luxel::MapSource source;
    source.displayName = "fuzz.bsp";
    source.mapName = "fuzz";
    source.bytes = mapWith(data, size);
    source.openRelated = [](const std::string&) { return std::optional<luxel::Bytes>(); };
    try {
        luxel::World world = luxel::decodeMap(source);
        (void)luxel::placeOverlays(world);
        (void)luxel::tessellate(world);
    } catch (const luxel::DecodeError&) {
    }
    return 0;
}
