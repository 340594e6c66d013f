#include "luxel/bsp/decode.hpp"

#include <cstring>

#include "luxel/io/reader.hpp"

namespace luxel {

std::optional<MapFormat> mapFormatOf(const Bytes& bytes) {
    if (bytes.size() < 8) return std::nullopt;
    ByteReader header(bytes, "", "header", 0);
    const std::string magic = header.fixedString(4);
    const int32_t version = header.i32();
    if (magic == "IBSP" && version == 46) return MapFormat::Quake3;
    if (magic == "IBSP" && version == 38) return MapFormat::Quake2;
    if (magic == "VBSP") return MapFormat::Source;
    // Quake 1 and Half-Life start with their version, or BSP2's magic, instead of a magic and a version.
    const int32_t first = int32_t(uint32_t(bytes[0]) | uint32_t(bytes[1]) << 8 | uint32_t(bytes[2]) << 16 | uint32_t(bytes[3]) << 24);
    if (magic == "BSP2" || magic == "2PSB" || first == 29) return MapFormat::Quake1;
    if (first == 30) return MapFormat::HalfLife;
    return std::nullopt;
}

World decodeMap(const MapSource& source, const DecodeOptions& options) {
    ByteReader header(source.bytes, source.displayName, "header", 0);
    if (source.bytes.size() < 8) header.fail(0, "file too small to be a map (" + std::to_string(source.bytes.size()) + " bytes)");
    if (const std::optional<MapFormat> format = mapFormatOf(source.bytes)) {
        switch (*format) {
            case MapFormat::Quake3: return decodeQuake3(source, options.lightSamples);
            case MapFormat::Quake2: return decodeQuake2(source, options.relayoutLightmaps);
            case MapFormat::Source: return decodeSource(source, options.preferLdr);
            case MapFormat::Quake1:
            case MapFormat::HalfLife: return decodeQuake1(source, options);
        }
    }
    if (header.fixedString(4) == "IBSP")
        header.fail(4, "unsupported IBSP version " + std::to_string(header.i32()) + " (supported: 38 Quake 2, 46 Quake 3)");
    header.fail(0, "not a BSP file (magic bytes are not IBSP, VBSP, BSP2 or 2PSB, and the version is not 29 or 30)");
}

}  // namespace luxel
