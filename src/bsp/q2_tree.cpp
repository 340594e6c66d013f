// Quake 2 BSP tree and collision lumps: brushes, areas, visibility, leaves, nodes, models.
#include "q2_format.hpp"
#include "rle_pvs.hpp"
#include "tree_records.hpp"

namespace luxel::q2 {

void decodeBrushes(Context& c, World&) {
    ByteReader& sides = c.lump(kBrushSides);
    c.numBrushSides = sides.recordCount(kBrushSideBytes);
    for (size_t i = 0; i < c.numBrushSides; ++i) {
        const size_t at = sides.position();
        checkIndex(sides, at, sides.u16(), c.numPlanes, "plane");
        // -1: a bevel side the compiler added, with no texture of its own.
        checkIndex(sides, at + 2, sides.i16(), c.numTexinfo, "texinfo", true);
    }
    ByteReader& brushes = c.lump(kBrushes);
    c.numBrushes = brushes.recordCount(kBrushBytes);
    for (size_t i = 0; i < c.numBrushes; ++i) {
        bsp::readRange(brushes, c.numBrushSides, "brush side");
        brushes.skip(4);  // contents
    }
    ByteReader& portals = c.lump(kAreaPortals);
    c.numAreaPortals = portals.recordCount(kAreaPortalBytes);
    ByteReader& areas = c.lump(kAreas);
    c.numAreas = areas.recordCount(kAreaBytes);
    for (size_t i = 0; i < c.numAreas; ++i) {
        const size_t at = areas.position();
        const int32_t count = areas.i32(), first = areas.i32();
        checkRange(areas, at, first, count, c.numAreaPortals, "area portal");
    }
    for (size_t i = 0; i < c.numAreaPortals; ++i) {
        const size_t at = portals.position();
        const int32_t portal = portals.i32();
        if (portal < 0) portals.fail(at, "negative portal number " + std::to_string(portal));
        checkIndex(portals, at + 4, portals.i32(), c.numAreas, "area");
    }
}

void decodeTree(Context& c, World& w) {
    c.numLeaves = c.lump(kLeafs).recordCount(kLeafBytes);
    bsp::decodeRlePvs(c.lump(kVisibility), c.numLeaves, w.pvs);
    c.numLeafFaces = bsp::readIndexLump(c.lump(kLeafFaces), kLeafFaceBytes, c.numFaces, "face", &w.leafSurfaces);
    c.numLeafBrushes = bsp::readIndexLump(c.lump(kLeafBrushes), kLeafBrushBytes, c.numBrushes, "brush", nullptr);
    bsp::readShortLeaves(c.lump(kLeafs), kLeafBytes, {c.numLeafFaces, c.numLeafBrushes, c.numAreas, bsp::LeafArea::Short},
                         w);
    c.numNodes = bsp::readShortNodes(c.lump(kNodes), kNodeBytes, c.numPlanes, c.numLeaves, c.numFaces, w);
    c.numModels = bsp::readQuakeModels(c.lump(kModels), c.numNodes, c.numLeaves, c.numFaces, w);
}

}  // namespace luxel::q2
