// Source BSP tree: visibility (Quake 2's run-length encoded PVS), leaf faces, leaves (lump version 0: 56 bytes
// with an embedded ambient cube; version 1: 32 bytes), nodes and models, laid out as Quake 2's with fields
// appended.
#include "rle_pvs.hpp"
#include "tree_records.hpp"
#include "vbsp_format.hpp"

namespace luxel::vbsp {

void decodeTree(Context& c, World& w) {
    const size_t leafBytes = c.leafVersion == 0 ? kLeafBytesV0 : kLeafBytesV1;
    c.numLeaves = c.lump(kLeafs).recordCount(leafBytes);
    bsp::decodeRlePvs(c.lump(kVisibility), c.numLeaves, w.pvs);
    c.numLeafFaces = bsp::readIndexLump(c.lump(kLeafFaces), kLeafFaceBytes, c.numFaces, "face", &w.leafSurfaces);
    // Leaf brushes are only counted: brushes are not decoded (collision only).
    const size_t numLeafBrushes = c.lump(kLeafBrushes).recordCount(kLeafBrushBytes);
    bsp::readShortLeaves(c.lump(kLeafs), leafBytes, {c.numLeafFaces, numLeafBrushes, 0, bsp::LeafArea::Packed9}, w);
    c.numNodes = bsp::readShortNodes(c.lump(kNodes), kNodeBytes, c.numPlanes, c.numLeaves, c.numFaces, w);
    c.numModels = bsp::readQuakeModels(c.lump(kModels), c.numNodes, c.numLeaves, c.numFaces, w);
}

}  // namespace luxel::vbsp
