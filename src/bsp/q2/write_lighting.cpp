// Quake 2 lightmaps written back: each lit face's luxels of each style, RGB bytes at the face's lightofs
// (the layout q2/lighting.cpp decodes), overwritten in place; nothing else in the file moves.
#include <string>

#include "luxel/bsp/write_probes.hpp"
#include "luxel/util/error.hpp"
#include "format.hpp"
#include "../write_probes_parts.hpp"

namespace luxel::q2 {

Bytes writeLighting(const MapSource& source, const World& world, std::span<const std::vector<LightmapPage>> slots) {
    World header;  // the directory's facts, read again from the file itself
    ByteReader file = bsp::readIbspHeader(source, 38, header);
    Context c(source);
    bsp::readLumpDirectory(file, kLumpNames, bsp::DirectoryCheck::AtLumpOffset, c.lumps, header);
    ByteReader& faces = c.lump(kFaces);
    const ByteReader& lighting = c.lump(kLighting);
    if (faces.recordCount(kFaceBytes) != world.surfaces.size())
        faces.fail(0, std::to_string(faces.recordCount(kFaceBytes)) + " faces for " +
                          std::to_string(world.surfaces.size()) + " surfaces of the map decoded");
    Bytes data(lighting.data().begin(), lighting.data().end());
    for (size_t i = 0; i < world.surfaces.size(); ++i) {
        const Surface& s = world.surfaces[i];
        if (s.lightmapPage < 0) continue;
        faces.seek(i * kFaceBytes + 16);
        const int32_t offset = faces.i32();
        const int32_t width = s.lightmapRect[2], height = s.lightmapRect[3];
        const size_t luxels = size_t(width) * size_t(height);
        const size_t styles = size_t(bsp::styleCount(s.styles));
        if (offset < 0 || uint64_t(offset) + styles * luxels * 3 > data.size())
            faces.fail(i * kFaceBytes + 16, "face " + std::to_string(i) + " lightmap does not lie where the map decoded it");
        for (size_t k = 0; k < styles && k < slots.size(); ++k) {
            if (slots[k].empty()) continue;
            uint8_t* out = data.data() + size_t(offset) + k * luxels * 3;
            for (int32_t t = 0; t < height; ++t)
                for (int32_t u = 0; u < width; ++u) {
                    const auto b = encodeQuake2Light(bsp::surfaceLuxel(slots[k], s, u, t));
                    out[0] = b[0], out[1] = b[1], out[2] = b[2];
                    out += 3;
                }
        }
    }
    Bytes result = source.bytes;
    const LumpInfo& l = header.lumps[size_t(kLighting)];
    const size_t entry = 8 + 8 * size_t(kLighting);
    bsp::placeLump(result, {source.displayName, kLumpNames[kLighting], l.offset, l.length, entry, entry + 4}, data, true);
    return result;
}

}  // namespace luxel::q2
