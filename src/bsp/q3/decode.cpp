// Quake 3 IBSP v46: header and lump directory, then every part in dependency order
// (the parts live in q3_*.cpp beside this file).
#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/brush_entities.hpp"
#include "luxel/bsp/viewpoints.hpp"
#include "format.hpp"
#include "../tree_records.hpp"

namespace luxel {

World decodeQuake3(const MapSource& source) {
    using namespace q3;
    World w;
    w.format = MapFormat::Quake3;
    w.formatName = "Quake 3 IBSP";
    w.file = source.displayName;
    // Stored light is a quarter of what the engine shows, and the game shows up to 2x through hardware gamma.
    w.look.hueClampAt = 2.0f;
    w.look.windowedHueClampAt = 1.0f;

    ByteReader file = bsp::readIbspHeader(source, 46, w);
    Context c{source, {}};
    bsp::readLumpDirectory(file, kLumpNames, bsp::DirectoryCheck::AtEntry, c.lumps, w);
    // Entities first: the light grid needs worldspawn's gridsize.
    bsp::readEntities(c.lump(kEntities), w);
    w.viewpoints = findViewpoints(w);

    decodeMaterials(c, w);
    c.numPlanes = bsp::readPlanes(c.lump(kPlanes), kPlaneBytes, w);
    decodeVisData(c, w);
    decodeBrushes(c, w);
    decodeVertices(c, w);
    c.numInternalLightmaps = c.lump(kLightmaps).recordCount(kLightmapBytes);
    decodeSurfaces(c, w);
    decodeLeaves(c, w);
    c.numNodes = bsp::readIntNodes(c.lump(kNodes), c.numPlanes, c.numLeaves, w);
    decodeModels(c, w);
    placeBrushModels(w);
    decodeBlockers(c, w);
    decodeLightmaps(c, w);
    decodeLightGrid(c, w);

    w.otherCounts = {{"brushes", c.numBrushes},
                     {"brush sides", c.numBrushSides},
                     {"leaf brushes", c.numLeafBrushes},
                     {"effects", c.numEffects}};
    return w;
}

}  // namespace luxel
