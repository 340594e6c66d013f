#include "luxel/bsp/decode.hpp"

#include <cstring>

#include "luxel/io/reader.hpp"

namespace luxel {

World decodeMap(const MapSource& source, const DecodeOptions& options) {
    ByteReader header(source.bytes, source.displayName, "header", 0);
    if (source.bytes.size() < 8) header.fail(0, "file too small to be a map (" + std::to_string(source.bytes.size()) + " bytes)");
    auto magic = header.fixedString(4);
    int32_t version = header.i32();
    if (magic == "IBSP" && version == 46) return decodeQuake3(source);
    if (magic == "IBSP" && version == 38) return decodeQuake2(source);
    if (magic == "IBSP")
        header.fail(4, "unsupported IBSP version " + std::to_string(version) + " (supported: 38 Quake 2, 46 Quake 3)");
    if (magic == "VBSP") return decodeSource(source, options.preferLdr);
    header.fail(0, "not a BSP file (magic bytes are not IBSP or VBSP)");
}

}  // namespace luxel
