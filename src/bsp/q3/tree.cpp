// Quake 3 BSP tree and collision lumps: visdata, brushes, effects, leaves, nodes, models.
#include "format.hpp"

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
    std::vector<int32_t>& sidePlane = c.sidePlane;
    sidePlane.resize(c.numBrushSides);
    c.sideShader.resize(c.numBrushSides);
    for (size_t i = 0; i < c.numBrushSides; ++i) {
        size_t at = sides.position();
        sidePlane[i] = sides.i32();
        checkIndex(sides, at, sidePlane[i], c.numPlanes, "plane");
        c.sideShader[i] = sides.i32();
        checkIndex(sides, at + 4, c.sideShader[i], c.numTextures, "texture");
    }
    ByteReader& brushes = c.lump(kBrushes);
    c.numBrushes = brushes.recordCount(kBrushBytes);
    std::vector<bsp::Range>& brushSides = c.brushSides;
    brushSides.resize(c.numBrushes);
    c.brushShader.resize(c.numBrushes);
    c.brushAt.resize(c.numBrushes);
    for (size_t i = 0; i < c.numBrushes; ++i) {
        c.brushAt[i] = brushes.position();
        brushSides[i] = bsp::readRange(brushes, c.numBrushSides, "brush side");
        const size_t at = brushes.position();
        c.brushShader[i] = brushes.i32();
        checkIndex(brushes, at, c.brushShader[i], c.numTextures, "texture");
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
    c.numLeafBrushes = bsp::readIndexLump(c.lump(kLeafBrushes), kIndexBytes, c.numBrushes, "brush", &c.leafBrushes);
    ByteReader& r = c.lump(kLeafs);
    c.numLeaves = r.recordCount(kLeafBytes);
    w.leaves.resize(c.numLeaves);
    c.leafBrushRanges.reserve(c.numLeaves);
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
        c.leafBrushRanges.push_back(bsp::readRange(r, c.numLeafBrushes, "leaf brush"));
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
        const bsp::Range brushes = bsp::readRange(r, c.numBrushes, "brush");
        if (&m == &w.models.front()) c.worldBrushes = brushes;
    }
}

// q3map2 traces shadows through its BSP tree, not through brushes: SetupTraceNodes_r (light_trace.c) makes
// every leaf with cluster -1 a solid trace leaf that ends a ray, and only after that tests the triangles of
// the shadow-casting draw surfaces (PopulateWithBSPModel; caulk / nodraw faces have none). Cluster -1 leaves
// are those q3map2's FilterStructuralBrushesIntoTree filled with an opaque brush: a structural brush whose
// shader is not C_TRANSLUCENT (surfaceparm trans, water, slime, lava, fog, ...). The file marks neither
// "structural" nor C_TRANSLUCENT on a brush, so they are read back here as: a brush of model 0 (func_group
// brushes merge into it; other brush models cast no shadow by default, ENTITY_CAST_SHADOWS 0), listed by a
// cluster -1 leaf (detail brushes fill no leaf), whose content shader is CONTENTS_SOLID and not
// CONTENTS_TRANSLUCENT. A sky brush ends a ray too, but a sun's ray that reached its sky face counts as
// reaching the sky (TraceLine: C_SKY stacked by the sky triangle before the solid leaf): every side of a
// brush with a SURF_SKY shader on its contents or a side is marked sky.
void decodeBlockers(Context& c, World& w) {
    constexpr uint32_t kContentsSolid = 0x1, kContentsTranslucent = 0x20000000, kSurfSky = 0x4;
    std::vector<uint8_t> inSolidLeaf(c.numBrushes, 0);
    for (size_t l = 0; l < w.leaves.size(); ++l) {
        if (w.leaves[l].cluster != -1) continue;
        const bsp::Range lb = c.leafBrushRanges[l];
        for (uint32_t k = lb.first; k < lb.first + lb.count; ++k) inSolidLeaf[c.leafBrushes[k]] = 1;
    }
    auto material = [&](int32_t shader) -> const Material& { return w.materials[size_t(shader)]; };
    std::vector<BrushSide> sides;
    uint64_t sideSquares = 0;
    for (uint32_t b = c.worldBrushes.first; b < c.worldBrushes.first + c.worldBrushes.count; ++b) {
        const uint32_t contents = material(c.brushShader[b]).nativeContents;
        if (!inSolidLeaf[b] || !(contents & kContentsSolid) || (contents & kContentsTranslucent)) continue;
        const bsp::Range range = c.brushSides[b];
        bool sky = material(c.brushShader[b]).nativeSurfaceFlags & kSurfSky;
        sides.clear();
        for (uint32_t s = range.first; s < range.first + range.count; ++s) {
            sides.push_back({w.planes[size_t(c.sidePlane[s])], false, false, false});
            sky = sky || (material(c.sideShader[s]).nativeSurfaceFlags & kSurfSky);
        }
        for (BrushSide& s : sides) s.sky = sky;
        bsp::addBrush(w, c.lump(kBrushes), c.brushAt[b], sides, c.numBrushSides, sideSquares);
    }
}

}  // namespace luxel::q3
