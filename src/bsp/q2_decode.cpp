// Quake 2 IBSP v38: header and lump directory, then every part in dependency order
// (the parts live in q2_*.cpp beside this file).
#include <cstring>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/entities.hpp"
#include "q2_format.hpp"

namespace luxel {

World decodeQuake2(const MapSource& source) {
    using namespace q2;
    ByteReader file(source.bytes, source.displayName, "header", 0);
    World w;
    w.format = MapFormat::Quake2;
    w.formatName = "Quake 2 IBSP";
    w.eyeHeight = 22.0f;  // Quake 2 player viewheight
    w.file = source.displayName;
    // Linear 1.0 = lightmap byte 255; the engine clamps lightmaps at that, keeping hue, and yquake2 shows
    // the frame through a 1.2 gamma ramp (see q2_lighting.cpp).
    w.look.hueClampAt = 1.0f;
    w.look.gamma = 1.2f;

    if (file.fixedString(4) != "IBSP") file.fail(0, "not an IBSP file");
    w.version = file.i32();
    if (w.version != 38) file.fail(4, "unsupported IBSP version " + std::to_string(w.version) + " (supported: 38)");

    Context c(source);
    c.lumps.reserve(kLumpCount);
    w.lumps.reserve(kLumpCount);
    for (int i = 0; i < kLumpCount; ++i) {
        const uint32_t offset = file.u32(), length = file.u32();
        // sub() throws naming the lump at its own offset when the window leaves the file.
        c.lumps.push_back(file.sub(offset, length, kLumpNames[size_t(i)]));
        w.lumps.push_back({kLumpNames[size_t(i)], offset, length, 0, false});
    }

    {
        auto text = c.lump(kEntities).data();
        const char* p = reinterpret_cast<const char*>(text.data());
        const size_t len = text.empty() ? 0 : strnlen(p, text.size());
        w.entityText.assign(p, len);
        w.entities = parseEntities(w.entityText, source.displayName, c.lump(kEntities).absolute(0));
    }

    decodePlanes(c, w);
    decodeMaterials(c, w);
    decodeFaces(c, w);  // with vertices, edges, surfedges and lighting
    decodeBrushes(c, w);
    c.numLeaves = c.lump(kLeafs).recordCount(kLeafBytes);
    decodeVisibility(c, w);
    decodeLeaves(c, w);
    decodeNodes(c, w);
    decodeModels(c, w);

    w.otherCounts = {{"brushes", c.numBrushes},
                     {"brush sides", c.numBrushSides},
                     {"leaf brushes", c.numLeafBrushes},
                     {"edges", c.numEdges},
                     {"surfedges", c.numSurfEdges},
                     {"areas", c.numAreas},
                     {"area portals", c.numAreaPortals},
                     {"pop bytes", c.lump(kPop).size()}};
    return w;
}

}  // namespace luxel
