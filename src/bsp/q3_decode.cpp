// Quake 3 IBSP v46: header and lump directory, then every part in dependency order
// (the parts live in q3_*.cpp beside this file).
#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/entities.hpp"
#include "q3_format.hpp"

#include <cstring>

namespace luxel {

World decodeQuake3(const MapSource& source) {
    using namespace q3;
    ByteReader file(source.bytes, source.displayName, "header", 0);
    World w;
    w.format = MapFormat::Quake3;
    w.formatName = "Quake 3 IBSP";
    w.file = source.displayName;
    // Stored light is a quarter of what the engine shows, and the game shows up to 2x through hardware gamma.
    w.look.hueClampAt = 2.0f;

    if (file.fixedString(4) != "IBSP") file.fail(0, "not an IBSP file");
    w.version = file.i32();
    if (w.version != 46) file.fail(4, "unsupported IBSP version " + std::to_string(w.version) + " (supported: 46)");

    Context c{source, {}};
    c.lumps.reserve(kLumpCount);
    w.lumps.reserve(kLumpCount);
    for (int i = 0; i < kLumpCount; ++i) {
        size_t at = file.position();
        int32_t offset = file.i32();
        int32_t length = file.i32();
        if (offset < 0 || length < 0 || uint64_t(offset) + uint64_t(length) > source.bytes.size())
            throw DecodeError(source.displayName, kLumpNames[size_t(i)], at,
                              "lump directory entry (offset " + std::to_string(offset) + ", length " +
                                  std::to_string(length) + ") lies outside the " +
                                  std::to_string(source.bytes.size()) + "-byte file");
        c.lumps.push_back(file.sub(uint64_t(offset), uint64_t(length), kLumpNames[size_t(i)]));
        w.lumps.push_back({kLumpNames[size_t(i)], uint64_t(offset), uint64_t(length), 0, false});
    }

    // Entities first: the light grid needs worldspawn's gridsize.
    {
        auto text = c.lump(kEntities).data();
        const char* p = reinterpret_cast<const char*>(text.data());
        size_t len = text.empty() ? 0 : strnlen(p, text.size());
        w.entityText.assign(p, len);
        w.entities = parseEntities(w.entityText, source.displayName, c.lump(kEntities).absolute(0));
    }

    decodeMaterials(c, w);
    decodePlanes(c, w);
    decodeVisData(c, w);
    decodeBrushes(c, w);
    decodeVertices(c, w);
    c.numInternalLightmaps = c.lump(kLightmaps).recordCount(kLightmapBytes);
    decodeSurfaces(c, w);
    decodeLeaves(c, w);
    decodeNodes(c, w);
    decodeModels(c, w);
    decodeLightmaps(c, w);
    decodeLightGrid(c, w);

    w.otherCounts = {{"brushes", c.numBrushes},
                     {"brush sides", c.numBrushSides},
                     {"leaf brushes", c.numLeafBrushes},
                     {"effects", c.numEffects}};
    return w;
}

}  // namespace luxel
