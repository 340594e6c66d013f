// Quake 3 BSP tree and collision lumps: visdata, brushes, effects, leaves, nodes, models.
#include "q3_format.hpp"

namespace luxel::q3 {

void decodeVisData(Context& c, World& w) {
    ByteReader& r = c.lump(kVisData);
    if (r.size() == 0) return;
    int32_t numVecs = r.i32();
    int32_t rowBytes = r.i32();
    if (numVecs < 0) r.fail(0, "negative cluster count " + std::to_string(numVecs));
    if (rowBytes < 0 || int64_t(rowBytes) < (int64_t(numVecs) + 7) / 8)
        r.fail(4, "row size " + std::to_string(rowBytes) + " bytes too small for " + std::to_string(numVecs) +
                      " clusters");
    uint64_t need = uint64_t(numVecs) * uint64_t(rowBytes);
    if (need > r.remaining())
        r.fail(0, std::to_string(numVecs) + " rows of " + std::to_string(rowBytes) + " bytes need " +
                      std::to_string(need) + " bytes, lump has " + std::to_string(r.remaining()));
    auto rows = r.bytes(size_t(need));
    w.pvs.numClusters = numVecs;
    w.pvs.rowBytes = rowBytes;
    w.pvs.rows.assign(rows.begin(), rows.end());
}

void decodeBrushes(Context& c, World& w) {
    ByteReader& sides = c.lump(kBrushSides);
    c.numBrushSides = sides.recordCount(kBrushSideBytes);
    std::vector<int32_t> sidePlane(c.numBrushSides);
    for (size_t i = 0; i < c.numBrushSides; ++i) {
        size_t at = sides.position();
        sidePlane[i] = sides.i32();
        checkIndex(sides, at, sidePlane[i], c.numPlanes, "plane");
        checkIndex(sides, at + 4, sides.i32(), c.numTextures, "texture");
    }
    ByteReader& brushes = c.lump(kBrushes);
    c.numBrushes = brushes.recordCount(kBrushBytes);
    std::vector<bsp::Range> brushSides(c.numBrushes);
    for (size_t i = 0; i < c.numBrushes; ++i) {
        brushSides[i] = bsp::readRange(brushes, c.numBrushSides, "brush side");
        const size_t at = brushes.position();
        checkIndex(brushes, at, brushes.i32(), c.numTextures, "texture");
    }
    ByteReader& effects = c.lump(kEffects);
    c.numEffects = effects.recordCount(kEffectBytes);
    w.fogs.resize(c.numEffects);
    for (size_t i = 0; i < c.numEffects; ++i) {
        FogVolume& fog = w.fogs[i];
        fog.shader = effects.fixedString(64);
        size_t at = effects.position();
        // -1: a global fog from worldspawn, not bound to a brush (q3map2 EmitFogs).
        const int32_t brush = effects.i32();
        checkIndex(effects, at, brush, c.numBrushes, "brush", true);
        // The side whose plane bounds what the eye sees of the fog (R_LoadFogs: its plane flipped); -1 none.
        const int32_t side = effects.i32();
        if (brush >= 0 && side >= 0 && uint32_t(side) < brushSides[size_t(brush)].count) {
            const Plane& p = w.planes[size_t(sidePlane[brushSides[size_t(brush)].first + uint32_t(side)])];
            fog.hasSurface = true;
            fog.surface = {p.normal * -1.0f, -p.dist};
        }
    }
}

void decodeLeaves(Context& c, World& w) {
    c.numLeafFaces = bsp::readIndexLump(c.lump(kLeafFaces), kIndexBytes, c.numFaces, "face", &w.leafSurfaces);
    c.numLeafBrushes = bsp::readIndexLump(c.lump(kLeafBrushes), kIndexBytes, c.numBrushes, "brush", nullptr);
    ByteReader& r = c.lump(kLeafs);
    c.numLeaves = r.recordCount(kLeafBytes);
    w.leaves.resize(c.numLeaves);
    for (auto& leaf : w.leaves) {
        size_t at = r.position();
        leaf.cluster = r.i32();
        if (leaf.cluster < -1 || (!w.pvs.empty() && leaf.cluster >= w.pvs.numClusters))
            r.fail(at, "cluster " + std::to_string(leaf.cluster) + " outside -1.." +
                           std::to_string(w.pvs.numClusters - 1) + (w.pvs.empty() ? "" : " (visdata clusters)"));
        leaf.area = r.i32();
        leaf.mins = bsp::readIntVec3(r);
        leaf.maxs = bsp::readIntVec3(r);
        const bsp::Range faces = bsp::readRange(r, c.numLeafFaces, "leaf face");
        leaf.firstLeafSurface = faces.first;
        leaf.numLeafSurfaces = faces.count;
        bsp::readRange(r, c.numLeafBrushes, "leaf brush");
    }
}

void decodeModels(Context& c, World& w) {
    ByteReader& r = c.lump(kModels);
    c.numModels = r.recordCount(kModelBytes);
    w.models.resize(c.numModels);
    for (auto& m : w.models) {
        m.mins = readVec3(r);
        m.maxs = readVec3(r);
        const bsp::Range faces = bsp::readRange(r, c.numFaces, "face");
        m.firstSurface = faces.first;
        m.numSurfaces = faces.count;
        bsp::readRange(r, c.numBrushes, "brush");
    }
}

}  // namespace luxel::q3
