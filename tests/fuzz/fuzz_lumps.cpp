// libFuzzer entry point for one map format's decoder, one lump at a time (built four times with -DLUXEL_FUZZ=ON
// as luxel_fuzz_lumps_q3, _q2, _vbsp and _q1; run by tools/fuzz.sh). An input is a selector byte (and, for Source, the
// lump's version byte) then one lump's bytes. A format's decode is its header and then a list of stages, each
// naming the lumps it reads (bsp::DecodeStage, e.g. q3::decodeStages()). The base map is decoded once, keeping the
// Context and World before every stage; an input then runs only the stages that read lump (selector mod the lump
// count), each on a copy of the state before it with that lump's window on the input. A mutation so costs the
// stage that reads it, not a whole map's decode: the whole-map target (fuzz_decode.cpp) covers what lumps do
// to each other and to tessellation.
//   Quake 3: the test writer's fullQ3Map (a room plus one of every surface type, brush, fog, light grid, PVS).
//   Quake 2: the test writer's floor map (a lit face, tree, brush, areas and portals, PVS).
//   Quake 1: the test writer's floor map (two lit faces, one with two styles, two miptex, leaf PVS) in each of
//     BSP29, 2PSB, BSP2 and BSP30: (selector / 21) mod 4 picks the variant, selector mod 21 the lump: the 15 lumps, then
//     the BSPX lumps the faces stage reads (RGBLIGHTING, LMSHIFT, LMOFFSET, LMSTYLE, DECOUPLED_LM; the input
//     replaces the base map's, which has none), then the .lit beside the map.
//   Source: bsptool_tf2_mp_lobby.bsp from ../shared/maps/source (LUXEL_FUZZ_MAPS names another maps folder). An
//     LZMA-framed input is decompressed as the header would. Selector 35 is the static prop game lump's payload
//     (the game lump directory's offsets are absolute, so the directory itself is left to the whole-map target).
// With LUXEL_FUZZ_WRITE_SEEDS=DIR set, the target writes seed inputs there (the base map's own lumps; for Source
// also those of three more small maps) and exits.
// The entity lump is text, and its inputs grew to tens of kilobytes of lexing each, 90% of the Quake 3 target's
// time: it is the formats target's (selector 3 runs the lexer and what the entities stages derive from it), and
// here its selector does nothing.
// A DecodeError is the expected answer to bad bytes; any other exception, crash, sanitizer report, hang or huge
// allocation is a finding.
#include <tbb/global_control.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "luxel/util/error.hpp"
#include "fuzz/lump_state.hpp"
#include "support/decode_helpers.hpp"
#include "support/q1_writer.hpp"
#include "support/q2_writer.hpp"
#include "support/q3_writer.hpp"

namespace {

using luxel::Bytes;
using luxel::ByteReader;
using luxel::World;
using luxel::fuzz::State;
namespace format = luxel::fuzz::format;
using format::Context;
namespace t = luxel::test;

// The base map, and the state before each of its format's stages.
struct Base {
    luxel::MapSource source;
    std::vector<State> before;
};

#if defined(LUXEL_FUZZ_LUMPS_Q3)
constexpr size_t kHeadBytes = 1;  // selector
Bytes baseFile() { return t::fullQ3Map().build(); }
Context open(const luxel::MapSource& source, World& w) { return format::openQuake3(source, w); }
#elif defined(LUXEL_FUZZ_LUMPS_Q2)
constexpr size_t kHeadBytes = 1;
Bytes baseFile() { return t::makeQ2FloorMap().build(); }
Context open(const luxel::MapSource& source, World& w) { return format::openQuake2(source, w); }
#elif defined(LUXEL_FUZZ_LUMPS_Q1)
constexpr size_t kHeadBytes = 1;
// The selectors past the 15 lumps: the BSPX lumps the faces stage reads, then the .lit beside the map.
constexpr std::array<const char*, 5> kBspxNames = {"RGBLIGHTING", "LMSHIFT", "LMOFFSET", "LMSTYLE", "DECOUPLED_LM"};
constexpr size_t kLitSelector = size_t(format::kLumpCount) + kBspxNames.size();
constexpr size_t kSelectors = kLitSelector + 1;
constexpr size_t kBases = t::kQ1Variants.size();
Bytes baseFile(size_t k) { return t::makeQ1FloorMap(t::kQ1Variants[k]).build(); }
Context open(const luxel::MapSource& source, World& w) { return format::openQuake1(source, w); }
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

Bytes baseFile() {
    const std::string path = mapsFolder() + "/source/bsptool_tf2_mp_lobby.bsp";
    std::optional<Bytes> file = readWhole(path);
    if (!file) {
        std::fprintf(stderr, "fuzz_lumps: %s not found (set LUXEL_FUZZ_MAPS to a maps folder)\n", path.c_str());
        std::exit(2);
    }
    // Two lit faces in each face lump, the rest unlit: the lighting stage converts every lit face's luxels into
    // pages, and with all of the map's faces lit that was a millisecond an input. The lighting lumps stay whole,
    // for the face lumps' inputs to point into.
    for (const size_t faces : {size_t(format::kFaces), size_t(format::kFacesHdr)}) {
        const uint32_t offset = t::le32(*file, 8 + 16 * faces), length = t::le32(*file, 8 + 16 * faces + 4);
        int lit = 0;
        for (size_t record = offset; record + format::kFaceBytes <= offset + length; record += format::kFaceBytes)
            if (int32_t(t::le32(*file, record + 20)) >= 0 && ++lit > 2)
                for (size_t i = 0; i < 4; ++i) (*file)[record + 20 + i] = 0xff;
    }
    return std::move(*file);
}
Context open(const luxel::MapSource& source, World& w) { return format::openSource(source, w, false); }

// The static prop entry of a VBSP file's game lump directory (id, flags u16, version u16, offset, length), or 0.
size_t staticPropEntry(const Bytes& file) {
    const size_t directory = t::le32(file, 8 + 16 * format::kGameLump);
    const uint32_t count = t::le32(file, directory);
    for (size_t k = 0; k < count; ++k) {
        const size_t entry = directory + 4 + 16 * k;
        if (t::le32(file, entry) == format::kStaticPropLumpId) return entry;
    }
    return 0;
}
#endif

#if !defined(LUXEL_FUZZ_LUMPS_Q1)
// One base map, a selector per lump.
constexpr size_t kSelectors = size_t(format::kLumpCount);
constexpr size_t kBases = 1;
Bytes baseFile(size_t) { return baseFile(); }
#endif

// Base map k (of kBases; Quake 1 has one per variant). The states point at their base's source: the bases are
// made in place and never move.
const Base& base(size_t k = 0) {
    static const std::vector<Base>* made = [] {
        auto* all = new std::vector<Base>(kBases);
        for (size_t i = 0; i < kBases; ++i) {
            Base* b = &(*all)[i];
            b->source.displayName = "fuzz.bsp";
            b->source.mapName = "fuzz";
            b->source.bytes = baseFile(i);
            b->source.openRelated = [](const std::string&) { return std::optional<Bytes>(); };
            World w;
            Context c = open(b->source, w);
            for (const auto& stage : format::decodeStages()) {
                b->before.push_back({c, w});
                stage.run(c, w);
            }
        }
        return all;
    }();
    return (*made)[k];
}

// A lump's bytes in the base file, from its directory entry (offset, length at directory + 8 * lump for Quake 2
// and 3, after the 4-byte version or magic for Quake 1, + 16 * lump for Source).
Bytes lumpOf(const Bytes& file, size_t lump) {
#if defined(LUXEL_FUZZ_LUMPS_Q1)
    const size_t entry = 4 + 8 * lump;
#else
    const size_t entry = kHeadBytes == 1 ? 8 + 8 * lump : 8 + 16 * lump;
#endif
    const uint32_t offset = t::le32(file, entry), length = t::le32(file, entry + 4);
    return Bytes(file.begin() + offset, file.begin() + offset + length);
}

void writeSeed(const std::string& path, uint8_t selector, std::optional<uint8_t> version, const Bytes& body) {
    Bytes seed{selector};
    if (version) seed.push_back(*version);
    seed.insert(seed.end(), body.begin(), body.end());
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(seed.data()), std::streamsize(seed.size()));
}

// The seed corpus: each lump of the base map but the entities, behind its selector; for VBSP also every lump and the
// static prop payload of the small v19/v20 maps in the maps folder (real records to mutate, LZMA framing included);
// for Quake 1 each variant's lumps, and BSPX lumps and a .lit that fit its base map.
void writeSeeds(const std::string& folder) {
#if defined(LUXEL_FUZZ_LUMPS_Q1)
    for (size_t k = 0; k < kBases; ++k) {
        const Bytes& file = base(k).source.bytes;
        const t::Q1MapBuilder map = t::makeQ1FloorMap(t::kQ1Variants[k]);
        const std::string prefix = folder + "/" + t::q1VariantName(t::kQ1Variants[k]) + "-";
        const uint8_t first = uint8_t(k * kSelectors);
        for (size_t lump = 0; lump < size_t(format::kLumpCount); ++lump)
            if (lump != size_t(format::kEntities))
                writeSeed(prefix + std::to_string(lump), uint8_t(first + lump), std::nullopt, lumpOf(file, lump));
        auto bspx = [&](size_t which, const std::string& name, const Bytes& body) {
            writeSeed(prefix + kBspxNames[which] + "-" + name, uint8_t(first + format::kLumpCount + which), std::nullopt, body);
        };
        if (t::kQ1Variants[k] != t::Q1Variant::HalfLife) bspx(0, "rgb", map.rgbLighting);  // Half-Life reads none
        bspx(1, "same", {4, 4});
        bspx(1, "finer", {3, 5});
        Bytes offsets;
        for (const auto& f : map.faces) t::append32(offsets, uint32_t(f.lightOffset));
        bspx(2, "same", offsets);
        Bytes styles;
        for (const auto& f : map.faces) styles.insert(styles.end(), f.styles.begin(), f.styles.end());
        bspx(3, "same", styles);
        // The blocks the face records describe, as decoupled records: face 0 5x3 at (x / 16, y / 16), face 1 4x4 at
        // ((x + 8) / 16 - 4, (y - 4) / 16 + 1).
        const t::Q1Decoupled d0{5, 3, map.faces[0].lightOffset, {{{1.0f / 16, 0, 0, 0}, {0, 1.0f / 16, 0, 0}}}};
        const t::Q1Decoupled d1{4, 4, map.faces[1].lightOffset, {{{1.0f / 16, 0, 0, 0.5f - 4}, {0, 1.0f / 16, 0, -0.25f + 1}}}};
        bspx(4, "same", t::q1DecoupledLump({d0, d1}));
        writeSeed(prefix + "lit", uint8_t(first + kLitSelector), std::nullopt, map.litFile());
    }
#else
    const Bytes& file = base().source.bytes;
    for (size_t lump = 0; lump < size_t(format::kLumpCount); ++lump) {
        if (lump == size_t(format::kEntities)) continue;
#if defined(LUXEL_FUZZ_LUMPS_VBSP)
        writeSeed(folder + "/base-" + std::to_string(lump), uint8_t(lump), uint8_t(t::le32(file, 8 + 16 * lump + 8)),
                  lumpOf(file, lump));
#else
        writeSeed(folder + "/base-" + std::to_string(lump), uint8_t(lump), std::nullopt, lumpOf(file, lump));
#endif
    }
#endif
#if defined(LUXEL_FUZZ_LUMPS_VBSP)
    for (const char* name : {"bsptool_tf2_mp_lobby", "bsptool_tf2_test2", "bsputils_gmod_map_v20", "sdk2013pr_ss_hl2_level_1_v20"}) {
        const std::optional<Bytes> other = readWhole(mapsFolder() + "/source/" + name + ".bsp");
        if (!other) continue;
        for (size_t lump = 1; lump < 64; ++lump) {  // not the entities (0)
            const Bytes body = lumpOf(*other, lump);
            if (!body.empty() && body.size() <= 100000)
                writeSeed(folder + "/" + name + "-" + std::to_string(lump), uint8_t(lump),
                          uint8_t(t::le32(*other, 8 + 16 * lump + 8)), body);
        }
        if (const size_t entry = staticPropEntry(*other)) {
            const uint32_t offset = t::le32(*other, entry + 8), length = t::le32(*other, entry + 12);
            writeSeed(folder + "/" + name + "-sprp", uint8_t(format::kGameLump), (*other)[entry + 6],
                      Bytes(other->begin() + offset, other->begin() + offset + length));
        }
    }
#endif
}

// The state before stage k of base `which`, restored into a scratch copy kept per stage (lump_state.cpp), which
// reuses its buffers: a fresh copy per input (hundreds of allocations under ASan) was a third of the time.
State& scratchBefore(size_t which, size_t k) {
    static std::vector<std::vector<State>> scratch = [] {
        std::vector<std::vector<State>> all;
        for (size_t i = 0; i < kBases; ++i) all.push_back(base(i).before);
        return all;
    }();
    State& s = scratch[which][k];
    luxel::fuzz::restore(s, base(which).before[k]);
    return s;
}

// Runs stage k of base `which` on the state before it with lump `lump` reading `bytes`.
template <class Stage>
void runStage(const Stage& stage, size_t which, size_t k, int lump, const ByteReader& bytes, [[maybe_unused]] uint8_t version) {
    State& s = scratchBefore(which, k);
    s.context.lumps[size_t(lump)] = bytes;
#if defined(LUXEL_FUZZ_LUMPS_VBSP)
    s.world.lumps[size_t(lump)].version = version;
    if (lump == format::kLeafs) s.context.leafVersion = version;
#endif
    stage.run(s.context, s.world);
}

#if defined(LUXEL_FUZZ_LUMPS_Q1)
// Quake 1's selectors past the lumps: a BSPX lump in place of the base map's (it has none), or the .lit the map
// source offers, on the state before the faces stage (the stage that reads both).
void runQ1Extra(size_t which, size_t selector, std::span<const uint8_t> input) {
    static Bytes lit;
    static std::vector<luxel::MapSource> withLit = [] {
        std::vector<luxel::MapSource> all;
        for (size_t i = 0; i < kBases; ++i) {
            luxel::MapSource s = base(i).source;
            s.openRelated = [](const std::string&) { return std::optional<Bytes>(lit); };
            all.push_back(std::move(s));
        }
        return all;
    }();
    const auto& stages = format::decodeStages();
    for (size_t k = 0; k < stages.size(); ++k) {
        if (std::string(stages[k].name) != "faces") continue;
        State& s = scratchBefore(which, k);
        if (selector == kLitSelector) {
            lit.assign(input.begin(), input.end());
            s.context.source = &withLit[which];
        } else {
            const std::string name = kBspxNames[selector - size_t(format::kLumpCount)];
            s.context.bspx.emplace_back(name, ByteReader(input, "fuzz.bsp", name, 0));
        }
        try {
            stages[k].run(s.context, s.world);
        } catch (const luxel::DecodeError&) {
        }
    }
}
#endif

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
    const size_t selector = data[0] % kSelectors, which = data[0] / kSelectors % kBases;
#if defined(LUXEL_FUZZ_LUMPS_Q1)
    if (selector >= size_t(format::kLumpCount)) {
        runQ1Extra(which, selector, std::span<const uint8_t>(data + 1, size - 1));
        return 0;
    }
#endif
    const int lump = int(selector);
    if (lump == format::kEntities) return 0;  // the formats target's
    const uint8_t version = kHeadBytes > 1 ? data[1] : 0;
    const char* name = format::kLumpNames[size_t(lump)];
    ByteReader bytes(std::span<const uint8_t>(data + kHeadBytes, size - kHeadBytes), "fuzz.bsp", name, 0);
    const auto& stages = format::decodeStages();
    try {
#if defined(LUXEL_FUZZ_LUMPS_VBSP)
        Bytes storage;
        if (lump != format::kPakfile && luxel::vbsp::isLzmaFramed(bytes)) {  // as decodeHeader reads such a lump
            storage = luxel::vbsp::decompressLzma(bytes, format::kMaxLumpBytes);
            bytes = ByteReader(storage, "fuzz.bsp", name, 0);
        }
        if (lump == format::kGameLump) {  // the static prop payload, on the state the game lump stage starts from
            static World scratch;
            for (size_t k = 0; k < stages.size(); ++k)
                if (std::string(stages[k].name) == "game lumps") {
                    luxel::fuzz::restore(scratch, base().before[k].world);
                    format::decodeStaticProps(bytes, version, scratch);
                }
            return 0;
        }
#endif
        for (size_t k = 0; k < stages.size(); ++k) {
            const auto& reads = stages[k].lumps;
            if (std::find(reads.begin(), reads.end(), lump) == reads.end()) continue;
            try {
                runStage(stages[k], which, k, lump, bytes, version);
            } catch (const luxel::DecodeError&) {
            }
        }
    } catch (const luxel::DecodeError&) {
    }
    return 0;
}
