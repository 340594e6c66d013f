// Quake 2 BSP tree and collision lumps: brushes, areas, visibility, leaves, nodes, models.
#include "format.hpp"
#include "../rle_pvs.hpp"
#include "../tree_records.hpp"

namespace luxel::q2 {

void decodeBrushes(Context& c, World&) {
    // A side's texinfo -1: a bevel the compiler added, with no texture of its own.
    c.brushes = bsp::readQuakeBrushes(c.lump(kBrushSides), kBrushSideBytes, c.lump(kBrushes), c.numPlanes, c.numTexinfo);
    c.numBrushSides = c.brushes.sides.size();
    c.numBrushes = c.brushes.brushSides.size();
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
    std::vector<uint32_t> leafBrushes;
    std::vector<bsp::Range> leafBrushRanges;
    c.numLeafBrushes = bsp::readIndexLump(c.lump(kLeafBrushes), kLeafBrushBytes, c.numBrushes, "brush", &leafBrushes);
    bsp::readShortLeaves(c.lump(kLeafs), kLeafBytes, {c.numLeafFaces, c.numLeafBrushes, c.numAreas, bsp::LeafArea::Short, kContentsLava | kContentsSlime | kContentsWater},
                         w, &leafBrushRanges);
    c.numNodes = bsp::readShortNodes(c.lump(kNodes), kNodeBytes, c.numPlanes, c.numLeaves, c.numFaces, w);
    c.numModels = bsp::readQuakeModels(c.lump(kModels), c.numNodes, c.numLeaves, c.numFaces, w);
    decodeBlockers(c, w, leafBrushRanges, leafBrushes);
}

// id's qrad3 traces shadows through the world's BSP tree alone (trace.c MakeTnode from node 0: a leaf whose
// contents have CONTENTS_SOLID ends a ray; faces block nothing of their own). A leaf is solid where a solid
// brush fills it, so the blockers are the world tree's brushes with CONTENTS_SOLID (windows, water and other
// non-solid contents let light through; brush entities have trees of their own and cast nothing). A sky brush
// is solid too; a sun's ray passes it (qrad3 has no sun; ericw-tools' suns need the sky): every side of a brush
// with a SURF_SKY side is marked sky. ericw-tools' own tracer (Embree over faces, with `{` fence textures) is
// not followed here.
void decodeBlockers(Context& c, World& w, const std::vector<bsp::Range>& leafBrushRanges,
                    const std::vector<uint32_t>& leafBrushes) {
    std::vector<BrushSide> sides;
    uint64_t sideSquares = 0;
    for (const uint32_t b : bsp::worldTreeBrushes(w, leafBrushRanges, leafBrushes)) {
        if (!(c.brushes.contents[b] & kContentsSolid)) continue;
        const bsp::Range range = c.brushes.brushSides[b];
        bool sky = false;
        sides.clear();
        for (uint32_t s = range.first; s < range.first + range.count; ++s) {
            const bsp::BrushSideRecord& r = c.brushes.sides[s];
            sides.push_back({w.planes[r.plane], false, r.texinfo < 0, false});
            sky = sky || (r.texinfo >= 0 && (w.materials[size_t(r.texinfo)].nativeSurfaceFlags & kSurfSky));
        }
        for (BrushSide& s : sides) s.sky = sky;
        bsp::addBrush(w, c.lump(kBrushes), c.brushes.brushAt[b], sides, c.numBrushSides, sideSquares);
    }
}

}  // namespace luxel::q2
