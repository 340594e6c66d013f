// libFuzzer entry point for the map decoders, the tessellator, the studio model readers (each input is also
// tried as a .mdl, .vvd and .vtx) and the VPK directory reader (built with -DLUXEL_FUZZ=ON, run by
// tools/fuzz.sh). Input that starts with the VPK signature is read as a VPK directory file (every entry read
// back); anything else as a map and as model files.
// A DecodeError is the expected answer to bad bytes; any other exception, crash, sanitizer report,
// hang or huge allocation is a finding.
#include <tbb/global_control.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/geometry/overlays.hpp"
#include "luxel/io/vpk_archive.hpp"
#include "luxel/model/studio.hpp"
#include "luxel/util/error.hpp"

namespace {

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
