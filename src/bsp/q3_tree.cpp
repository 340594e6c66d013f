// Quake 3 BSP tree and collision lumps: planes, nodes, leaves, models, brushes, effects, visdata.
#include "q3_format.hpp"

namespace luxel::q3 {

namespace {
Vec3 readVec3(ByteReader& r) {
    Vec3 v;
    v.x = r.f32();
    v.y = r.f32();
    v.z = r.f32();
    return v;
}
Vec3 readIntVec3(ByteReader& r) {
    Vec3 v;
    v.x = float(r.i32());
    v.y = float(r.i32());
    v.z = float(r.i32());
    return v;
}
}  // namespace

void decodePlanes(Context& c, World& w) {
    ByteReader& r = c.lump(kPlanes);
    c.numPlanes = r.recordCount(kPlaneBytes);
    w.planes.resize(c.numPlanes);
    for (auto& p : w.planes) {
        p.normal = readVec3(r);
        p.dist = r.f32();
    }
}

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

void decodeBrushes(Context& c, World&) {
    ByteReader& sides = c.lump(kBrushSides);
    c.numBrushSides = sides.recordCount(kBrushSideBytes);
    for (size_t i = 0; i < c.numBrushSides; ++i) {
        size_t at = sides.position();
        checkIndex(sides, at, sides.i32(), c.numPlanes, "plane");
        checkIndex(sides, at + 4, sides.i32(), c.numTextures, "texture");
    }
    ByteReader& brushes = c.lump(kBrushes);
    c.numBrushes = brushes.recordCount(kBrushBytes);
    for (size_t i = 0; i < c.numBrushes; ++i) {
        size_t at = brushes.position();
        int32_t first = brushes.i32();
        int32_t count = brushes.i32();
        checkRange(brushes, at, first, count, c.numBrushSides, "brush side");
        checkIndex(brushes, at + 8, brushes.i32(), c.numTextures, "texture");
    }
    ByteReader& effects = c.lump(kEffects);
    c.numEffects = effects.recordCount(kEffectBytes);
    for (size_t i = 0; i < c.numEffects; ++i) {
        effects.skip(64);
        size_t at = effects.position();
        // -1: a global fog from worldspawn, not bound to a brush (q3map2 EmitFogs).
        checkIndex(effects, at, effects.i32(), c.numBrushes, "brush", true);
        effects.skip(4);  // visible side, unused
    }
}

void decodeLeaves(Context& c, World& w) {
    ByteReader& faces = c.lump(kLeafFaces);
    c.numLeafFaces = faces.recordCount(kIndexBytes);
    w.leafSurfaces.resize(c.numLeafFaces);
    for (auto& s : w.leafSurfaces) {
        size_t at = faces.position();
        int32_t v = faces.i32();
        checkIndex(faces, at, v, c.numFaces, "face");
        s = uint32_t(v);
    }
    ByteReader& brushes = c.lump(kLeafBrushes);
    c.numLeafBrushes = brushes.recordCount(kIndexBytes);
    for (size_t i = 0; i < c.numLeafBrushes; ++i) {
        size_t at = brushes.position();
        checkIndex(brushes, at, brushes.i32(), c.numBrushes, "brush");
    }
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
        leaf.mins = readIntVec3(r);
        leaf.maxs = readIntVec3(r);
        int32_t first = r.i32(), count = r.i32();
        checkRange(r, at + 32, first, count, c.numLeafFaces, "leaf face");
        leaf.firstLeafSurface = uint32_t(first);
        leaf.numLeafSurfaces = uint32_t(count);
        first = r.i32();
        count = r.i32();
        checkRange(r, at + 40, first, count, c.numLeafBrushes, "leaf brush");
    }
}

void decodeNodes(Context& c, World& w) {
    ByteReader& r = c.lump(kNodes);
    c.numNodes = r.recordCount(kNodeBytes);
    w.nodes.resize(c.numNodes);
    for (size_t i = 0; i < c.numNodes; ++i) {
        Node& n = w.nodes[i];
        size_t at = r.position();
        n.plane = r.i32();
        checkIndex(r, at, n.plane, c.numPlanes, "plane");
        for (int k = 0; k < 2; ++k) {
            int32_t child = r.i32();
            size_t fieldAt = at + 4 + size_t(k) * 4;
            if (child >= 0) {
                // Compilers write nodes in pre-order; requiring it rules out cycles that would hang a walk.
                if (uint64_t(child) <= i || uint64_t(child) >= c.numNodes)
                    r.fail(fieldAt, "child node " + std::to_string(child) + " must be after node " +
                                        std::to_string(i) + " and below " + std::to_string(c.numNodes));
            } else if (uint64_t(-(int64_t(child) + 1)) >= c.numLeaves) {
                r.fail(fieldAt, "child leaf " + std::to_string(-(int64_t(child) + 1)) + " outside 0.." +
                                    std::to_string(int64_t(c.numLeaves) - 1));
            }
            n.children[size_t(k)] = child;
        }
        n.mins = readIntVec3(r);
        n.maxs = readIntVec3(r);
    }
}

void decodeModels(Context& c, World& w) {
    ByteReader& r = c.lump(kModels);
    c.numModels = r.recordCount(kModelBytes);
    w.models.resize(c.numModels);
    for (auto& m : w.models) {
        size_t at = r.position();
        m.mins = readVec3(r);
        m.maxs = readVec3(r);
        int32_t first = r.i32(), count = r.i32();
        checkRange(r, at + 24, first, count, c.numFaces, "face");
        m.firstSurface = uint32_t(first);
        m.numSurfaces = uint32_t(count);
        first = r.i32();
        count = r.i32();
        checkRange(r, at + 32, first, count, c.numBrushes, "brush");
    }
}

}  // namespace luxel::q3
