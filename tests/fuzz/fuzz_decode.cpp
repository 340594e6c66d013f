// libFuzzer entry point for the map decoders and the tessellator, and the studio model readers (each input
// is also tried as a .mdl, .vvd and .vtx) (built with -DLUXEL_FUZZ=ON, run by tools/fuzz.sh).
// A DecodeError is the expected answer to bad bytes; any other exception, crash, sanitizer report,
// hang or huge allocation is a finding.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/model/studio.hpp"
#include "luxel/util/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    luxel::MapSource source;
    source.displayName = "fuzz.bsp";
    source.mapName = "fuzz";
    source.bytes.assign(data, data + size);
    source.openRelated = [](const std::string&) { return std::optional<luxel::Bytes>(); };
    try {
        // What decodes must also tessellate (hostile patch sizes, displacement and index data).
        luxel::World world = luxel::decodeMap(source);
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
