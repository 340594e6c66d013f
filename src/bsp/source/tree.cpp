// Source BSP tree: visibility (Quake 2's run-length encoded PVS), leaf faces, leaves (lump version 0: 56 bytes
// with an embedded ambient cube; version 1: 32 bytes), nodes and models, laid out as Quake 2's with fields
// appended; and the world's light-blocking brushes.
#include "../quake_brushes.hpp"
#include "../rle_pvs.hpp"
#include "../tree_records.hpp"
#include "format.hpp"

namespace luxel::vbsp {

namespace {

// vrad's AddBrushesForRayTrace (trace.cpp): the brushes the leaves under model 0's head node list, those
// with contents in MASK_OPAQUE ("everything that blocks lighting"), one face per side clipped by the other
// sides' planes (AddBrushToRaytraceEnvironment: ChopWindingInPlace, bevel sides clip nothing). A SURF_SKY
// or displacement side has no brush face there: the sky faces are added as sky triangles from the drawn
// faces (luxel's drawn sky), displacements as their own triangles. Brush entities cast only with
// _vradshadows (ExtractBrushEntityShadowCasters), not followed here.
void decodeBlockers(Context& c, World& w, const bsp::QuakeBrushes& brushes,
                    const std::vector<bsp::Range>& leafBrushRanges, const std::vector<uint32_t>& leafBrushes) {
    std::vector<BrushSide> sides;
    uint64_t sideSquares = 0;
    for (const uint32_t b : bsp::worldTreeBrushes(w, leafBrushRanges, leafBrushes)) {
        if (!(uint32_t(brushes.contents[b]) & kMaskOpaque)) continue;
        const bsp::Range range = brushes.brushSides[b];
        sides.clear();
        for (uint32_t s = range.first; s < range.first + range.count; ++s) {
            const bsp::BrushSideRecord& r = brushes.sides[s];
            const bool sky = r.texinfo >= 0 && (c.texinfo[size_t(r.texinfo)].flags & kSurfSky);
            sides.push_back({w.planes[r.plane], false, r.bevel, sky || r.displacement});
        }
        bsp::addBrush(w, c.lump(kBrushes), brushes.brushAt[b], sides, brushes.sides.size(), sideSquares);
    }
}

}  // namespace

void decodeTree(Context& c, World& w) {
    const size_t leafBytes = c.leafVersion == 0 ? kLeafBytesV0 : kLeafBytesV1;
    c.numLeaves = c.lump(kLeafs).recordCount(leafBytes);
    bsp::decodeRlePvs(c.lump(kVisibility), c.numLeaves, w.pvs);
    c.numLeafFaces = bsp::readIndexLump(c.lump(kLeafFaces), kLeafFaceBytes, c.numFaces, "face", &w.leafSurfaces);
    const bsp::QuakeBrushes brushes =
        bsp::readQuakeBrushes(c.lump(kBrushSides), kBrushSideBytes, c.lump(kBrushes), c.numPlanes, c.numTexinfo);
    std::vector<uint32_t> leafBrushes;
    std::vector<bsp::Range> leafBrushRanges;
    const size_t numLeafBrushes =
        bsp::readIndexLump(c.lump(kLeafBrushes), kLeafBrushBytes, brushes.brushSides.size(), "brush", &leafBrushes);
    bsp::readShortLeaves(c.lump(kLeafs), leafBytes, {c.numLeafFaces, numLeafBrushes, 0, bsp::LeafArea::Packed9}, w,
                         &leafBrushRanges);
    c.numNodes = bsp::readShortNodes(c.lump(kNodes), kNodeBytes, c.numPlanes, c.numLeaves, c.numFaces, w);
    c.numModels = bsp::readQuakeModels(c.lump(kModels), c.numNodes, c.numLeaves, c.numFaces, w);
    decodeBlockers(c, w, brushes, leafBrushRanges, leafBrushes);
}

}  // namespace luxel::vbsp
