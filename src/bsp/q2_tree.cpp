// Quake 2 BSP tree and collision lumps: planes, visibility, brushes, areas, leaves, nodes, models.
#include "q2_format.hpp"

namespace luxel::q2 {

void decodePlanes(Context& c, World& w) {
    ByteReader& r = c.lump(kPlanes);
    c.numPlanes = r.recordCount(kPlaneBytes);
    w.planes.resize(c.numPlanes);
    for (auto& p : w.planes) {
        p.normal = readVec3(r);
        p.dist = r.f32();
        r.skip(4);  // axial type, recomputable from the normal
    }
}

namespace {

// One run-length encoded row: a zero byte is followed by a count of zero bytes to emit. The row ends
// when `out` is full; a run past its end means a corrupt lump (qvis never writes one).
void decompressRow(ByteReader& r, uint8_t* out, size_t rowBytes, int32_t cluster) {
    size_t o = 0;
    while (o < rowBytes) {
        const uint8_t b = r.u8();
        if (b != 0) {
            out[o++] = b;
            continue;
        }
        const size_t at = r.position();
        const uint8_t run = r.u8();
        if (run > rowBytes - o)
            r.fail(at, "zero run of " + std::to_string(run) + " bytes passes the end of cluster " +
                           std::to_string(cluster) + "'s row (" + std::to_string(rowBytes - o) + " bytes left)");
        o += run;  // rows start zeroed
    }
}

}  // namespace

void decodeVisibility(Context& c, World& w) {
    ByteReader& r = c.lump(kVisibility);
    if (r.size() == 0) return;  // no vis: every cluster sees every other
    const int32_t n = r.i32();
    if (n < 0) r.fail(0, "negative cluster count " + std::to_string(n));
    if (n == 0) return;
    if (uint64_t(n) > c.numLeaves || n > kMaxClusters)
        r.fail(0, std::to_string(n) + " clusters but only " + std::to_string(c.numLeaves) +
                      " leaves (every cluster is made of leaves; the engine allows " + std::to_string(kMaxClusters) +
                      ")");
    const uint64_t headerBytes = 4 + 8 * uint64_t(n);
    if (headerBytes > r.size())
        r.fail(0, "directory of " + std::to_string(n) + " clusters needs " + std::to_string(headerBytes) +
                      " bytes, lump has " + std::to_string(r.size()));
    const size_t rowBytes = (size_t(n) + 7) / 8;
    if (uint64_t(n) * rowBytes > kMaxPvsBytes)
        r.fail(0, std::to_string(n) + " clusters need " + std::to_string(uint64_t(n) * rowBytes) +
                      " bytes uncompressed, more than the " + std::to_string(kMaxPvsBytes) + " allowed");

    w.pvs.numClusters = n;
    w.pvs.rowBytes = int32_t(rowBytes);
    w.pvs.rows.assign(size_t(n) * rowBytes, 0);
    for (int32_t i = 0; i < n; ++i) {
        const size_t at = r.position();
        const uint32_t pvs = r.u32(), phs = r.u32();  // PHS (hearable set) rows are checked, not decoded
        for (uint32_t offset : {pvs, phs})
            if (offset < headerBytes || offset >= r.size())
                r.fail(at, "cluster " + std::to_string(i) + " row offset " + std::to_string(offset) +
                               " outside the row data (" + std::to_string(headerBytes) + ".." +
                               std::to_string(r.size() - 1) + ")");
        ByteReader row = r.sub(pvs, r.size() - pvs, r.lump());
        decompressRow(row, w.pvs.rows.data() + size_t(i) * rowBytes, rowBytes, i);
    }
}

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
        const size_t at = brushes.position();
        const int32_t first = brushes.i32(), count = brushes.i32();
        checkRange(brushes, at, first, count, c.numBrushSides, "brush side");
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

void decodeLeaves(Context& c, World& w) {
    ByteReader& faces = c.lump(kLeafFaces);
    c.numLeafFaces = faces.recordCount(kLeafFaceBytes);
    w.leafSurfaces.resize(c.numLeafFaces);
    for (auto& s : w.leafSurfaces) {
        const size_t at = faces.position();
        const uint16_t v = faces.u16();
        checkIndex(faces, at, v, c.numFaces, "face");
        s = v;
    }
    ByteReader& brushes = c.lump(kLeafBrushes);
    c.numLeafBrushes = brushes.recordCount(kLeafBrushBytes);
    for (size_t i = 0; i < c.numLeafBrushes; ++i) {
        const size_t at = brushes.position();
        checkIndex(brushes, at, brushes.u16(), c.numBrushes, "brush");
    }
    ByteReader& r = c.lump(kLeafs);
    c.numLeaves = r.recordCount(kLeafBytes);
    if (c.numLeaves == 0) r.fail(0, "map has no leaves");
    w.leaves.resize(c.numLeaves);
    for (auto& leaf : w.leaves) {
        const size_t at = r.position();
        r.skip(4);  // contents
        leaf.cluster = r.i16();
        // Without a vis lump clusters are still numbered (quake-experiments_test1), just not checkable.
        if (leaf.cluster < -1 || (!w.pvs.empty() && leaf.cluster >= w.pvs.numClusters))
            r.fail(at + 4, "cluster " + std::to_string(leaf.cluster) + " outside -1.." +
                               std::to_string(w.pvs.numClusters - 1) + " (visibility clusters)");
        leaf.area = r.i16();
        if (c.numAreas > 0) checkIndex(r, at + 6, leaf.area, c.numAreas, "area");
        leaf.mins = readShortVec3(r);
        leaf.maxs = readShortVec3(r);
        const uint16_t first = r.u16(), count = r.u16();
        checkRange(r, at + 20, first, count, c.numLeafFaces, "leaf face");
        leaf.firstLeafSurface = first;
        leaf.numLeafSurfaces = count;
        const uint16_t firstBrush = r.u16(), numBrushes = r.u16();
        checkRange(r, at + 24, firstBrush, numBrushes, c.numLeafBrushes, "leaf brush");
    }
}

void decodeNodes(Context& c, World& w) {
    ByteReader& r = c.lump(kNodes);
    c.numNodes = r.recordCount(kNodeBytes);
    if (c.numNodes == 0) r.fail(0, "map has no nodes");
    w.nodes.resize(c.numNodes);
    for (size_t i = 0; i < c.numNodes; ++i) {
        Node& n = w.nodes[i];
        const size_t at = r.position();
        n.plane = r.i32();
        checkIndex(r, at, n.plane, c.numPlanes, "plane");
        for (int k = 0; k < 2; ++k) {
            const int32_t child = r.i32();
            const size_t fieldAt = at + 4 + size_t(k) * 4;
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
        n.mins = readShortVec3(r);
        n.maxs = readShortVec3(r);
        const uint16_t first = r.u16(), count = r.u16();  // faces on the node's plane, for collision
        checkRange(r, at + 24, first, count, c.numFaces, "face");
    }
}

void decodeModels(Context& c, World& w) {
    ByteReader& r = c.lump(kModels);
    c.numModels = r.recordCount(kModelBytes);
    if (c.numModels == 0) r.fail(0, "map has no models (model 0 is the world)");
    w.models.resize(c.numModels);
    for (auto& m : w.models) {
        const size_t at = r.position();
        m.mins = readVec3(r);
        m.maxs = readVec3(r);
        r.skip(12);  // origin, for rotating brush models
        const int32_t head = r.i32();
        if (head >= 0)
            checkIndex(r, at + 36, head, c.numNodes, "head node");
        else
            checkIndex(r, at + 36, -(int64_t(head) + 1), c.numLeaves, "head leaf");
        const int32_t first = r.i32(), count = r.i32();
        checkRange(r, at + 40, first, count, c.numFaces, "face");
        m.firstSurface = uint32_t(first);
        m.numSurfaces = uint32_t(count);
    }
}

}  // namespace luxel::q2
