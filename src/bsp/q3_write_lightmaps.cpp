// Quake 3 lightmaps written back: the lightmaps lump keeps its size (128x128 RGB pages in the decoder's
// order), so it is overwritten in place and nothing else in the file moves.
#include <string>

#include "luxel/bsp/write_probes.hpp"
#include "luxel/util/error.hpp"
#include "q3_format.hpp"
#include "write_probes_parts.hpp"

namespace luxel::q3 {

Bytes writeLightmapPages(const MapSource& source, const World& world, std::span<const std::vector<LightmapPage>> slots) {
    for (size_t k = 1; k < slots.size(); ++k)
        if (!slots[k].empty()) throw UsageError(world.file + ": Quake 3 lightmaps hold style 0 only");
    if (slots.empty() || slots[0].empty()) return source.bytes;
    const std::vector<LightmapPage>& pages = slots[0];
    ByteReader file(source.bytes, source.displayName, "header", 0);
    constexpr size_t kHeaderBytes = 8 + 8 * size_t(q3::kLumpCount);
    if (file.size() < kHeaderBytes) file.fail(0, "file too small for a Quake 3 header");
    if (file.fixedString(4) != "IBSP" || file.i32() != 46) file.fail(0, "not a Quake 3 (IBSP 46) file");
    const size_t entry = 8 + 8 * size_t(q3::kLightmaps);
    file.seek(entry);
    const int32_t offset = file.i32(), length = file.i32();
    const char* name = q3::kLumpNames[q3::kLightmaps];
    if (offset < 0 || length < 0) file.fail(entry, std::string(name) + " directory entry is negative");
    ByteReader lump = file.sub(uint64_t(offset), uint64_t(length), name);
    if (lump.size() == 0 && !pages.empty())
        throw UsageError(world.file + ": the lightmaps are external images (lm_NNNN.tga); writing them is not supported yet");
    if (lump.size() != pages.size() * q3::kLightmapBytes)
        lump.fail(0, "lump has " + std::to_string(lump.size()) + " bytes for " + std::to_string(pages.size()) + " pages");
    const std::span<const uint8_t> stored = lump.bytes(lump.size());
    Bytes data(stored.begin(), stored.end());
    for (size_t p = 0; p < pages.size(); ++p) {
        const LightmapPage& page = pages[p];
        if (world.lightmaps[p].width == 0) continue;  // a deluxe direction page: kept
        if (page.width != int32_t(q3::kLightmapSide) || page.height != int32_t(q3::kLightmapSide) ||
            page.rgb.size() != q3::kLightmapBytes)
            throw UsageError(world.file + ": baked lightmap page " + std::to_string(p) + " is not 128x128");
        uint8_t* out = data.data() + p * q3::kLightmapBytes;
        for (size_t t = 0; t < q3::kLightmapBytes / 3; ++t) {
            const auto b = encodeQuake3Light({page.rgb[3 * t], page.rgb[3 * t + 1], page.rgb[3 * t + 2]});
            out[3 * t] = b[0], out[3 * t + 1] = b[1], out[3 * t + 2] = b[2];
        }
    }
    Bytes result = source.bytes;
    bsp::placeLump(result, {source.displayName, name, uint64_t(offset), uint64_t(length), entry, entry + 4}, data, true);
    return result;
}

}  // namespace luxel::q3
