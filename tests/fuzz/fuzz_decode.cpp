// libFuzzer entry point for the map decoders (also laying Quake-family lightmaps out anew and writing them back), the tessellator, the studio model readers (each input is also
// tried as a .mdl, .vvd and .vtx) and the VPK directory reader (built with -DLUXEL_FUZZ=ON, run by
// tools/fuzz.sh). Input that starts with the VPK signature is read as a VPK directory file (every entry read
// back); anything else as a map and as model files.
// With LUXEL_FUZZ_WRITE_SEEDS=DIR set, the target writes seed maps there (the tests' Quake 1 writer's floor map in
// BSP29, 2PSB, BSP2 and BSP30, plain and with BSPX RGBLIGHTING, LMSHIFT and DECOUPLED_LM lumps) and exits; the
// other formats' seeds are the shared maps tools/fuzz.sh copies.
// A DecodeError is the expected answer to bad bytes; any other exception, crash, sanitizer report,
// hang or huge allocation is a finding.
#include <tbb/global_control.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <utility>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/write_relaid_lighting.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/geometry/overlays.hpp"
#include "luxel/io/vpk_archive.hpp"
#include "luxel/model/studio.hpp"
#include "luxel/util/error.hpp"
#include "support/q1_writer.hpp"

namespace {

void writeQ1Seeds(const std::string& folder) {
    namespace t = luxel::test;
    for (const t::Q1Variant v : t::kQ1Variants) {
        const bool quake = v != t::Q1Variant::HalfLife;
        t::Q1FloorOptions rgb, shift, decoupled;
        rgb.bspxRgb = quake;
        shift.lmShift = std::array<uint8_t, 2>{3, 5};
        shift.bspxRgb = quake;
        decoupled.decoupled = true;
        const std::pair<const char*, t::Q1FloorOptions> builds[] = {
            {"plain", {}}, {"rgb", rgb}, {"lmshift", shift}, {"decoupled", decoupled}};
        for (const auto& [name, options] : builds) {
            const luxel::Bytes map = t::makeQ1FloorMap(v, options).build();
            std::ofstream(folder + "/q1-" + t::q1VariantName(v) + "-" + name + ".bsp", std::ios::binary)
                .write(reinterpret_cast<const char*>(map.data()), std::streamsize(map.size()));
        }
    }
}

void fuzzVpk(const uint8_t* data, size_t size) {
    try {
        const luxel::VpkArchive vpk("fuzz_dir.vpk", luxel::Bytes(data, data + size));
        for (size_t i = 0; i < vpk.entries().size(); ++i) {
            try {
                (void)vpk.read(i);
            } catch (const luxel::DecodeError&) {
            }
        }
        (void)vpk.warnings();
    } catch (const luxel::DecodeError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    if (const char* folder = std::getenv("LUXEL_FUZZ_WRITE_SEEDS")) {
        writeQ1Seeds(folder);
        std::exit(0);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // One thread: coverage then depends on the input alone, so a seeded run tries the same inputs every time.
    static const tbb::global_control oneThread(tbb::global_control::max_allowed_parallelism, 1);
    if (size >= 4 && data[0] == 0x34 && data[1] == 0x12 && data[2] == 0xaa && data[3] == 0x55) {
        fuzzVpk(data, size);
        return 0;
    }
    luxel::MapSource source;
    source.displayName = "fuzz.bsp";
    source.mapName = "fuzz";
    source.bytes.assign(data, data + size);
    source.openRelated = [](const std::string&) { return std::optional<luxel::Bytes>(); };
    try {
        // What decodes must also tessellate (hostile patch sizes, displacement and index data), overlays placed.
        luxel::World world = luxel::decodeMap(source);
        (void)luxel::placeOverlays(world);
        luxel::Geometry geometry = luxel::tessellate(world);
        (void)geometry;
    } catch (const luxel::DecodeError&) {
    }
    try {
        // The layout a light tool makes (Quake 1, 2, Half-Life), written back with its pages as the light.
        luxel::DecodeOptions relayout;
        relayout.relayoutLightmaps = true;
        luxel::World world = luxel::decodeMap(source, relayout);
        if (world.format == luxel::MapFormat::Quake1 || world.format == luxel::MapFormat::Quake2 ||
            world.format == luxel::MapFormat::HalfLife) {
            luxel::LightmapSet set;
            set.slots[0] = world.lightmaps;
            luxel::RelaidOutLightingOptions options;
            options.lit = options.bspxLit = world.format == luxel::MapFormat::Quake1;
            (void)luxel::writeRelaidOutLighting(source, world, set, options);
        }
    } catch (const luxel::DecodeError&) {
    }
    try {
        (void)luxel::readMdl(source.bytes, "fuzz.mdl");
    } catch (const luxel::DecodeError&) {
    }
    try {
        (void)luxel::readVvd(source.bytes, "fuzz.vvd");
    } catch (const luxel::DecodeError&) {
    }
    try {
        (void)luxel::readVtx(source.bytes, "fuzz.vtx");
    } catch (const luxel::DecodeError&) {
    }
    return 0;
}
