// libFuzzer entry point for the map decoders (built with -DLUXEL_FUZZ=ON, run by tools/fuzz.sh).
// A DecodeError is the expected answer to bad bytes; any other exception, crash, sanitizer report,
// hang or huge allocation is a finding.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "luxel/bsp/decode.hpp"
#include "luxel/util/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    luxel::MapSource source;
    source.displayName = "fuzz.bsp";
    source.mapName = "fuzz";
    source.bytes.assign(data, data + size);
    source.openRelated = [](const std::string&) { return std::optional<luxel::Bytes>(); };
    try {
        luxel::World world = luxel::decodeMap(source);
        (void)world;
    } catch (const luxel::DecodeError&) {
    }
    return 0;
}
