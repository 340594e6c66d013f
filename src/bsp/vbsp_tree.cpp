// Source BSP tree: planes, visibility (Quake 2's run-length encoded PVS), leaves (lump version 0: 56 bytes
// with an embedded ambient cube; version 1: 32 bytes), leaf faces, nodes and models.
#include "vbsp_format.hpp"

namespace luxel::vbsp {

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

// One run-length encoded row: a zero byte is followed by a count of zero bytes to emit.
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
        const uint32_t pvs = r.u32(), pas = r.u32();  // audible-set rows are checked, not decoded
        for (uint32_t offset : {pvs, pas})
            if (offset < headerBytes || offset >= r.size())
                r.fail(at, "cluster " + std::to_string(i) + " row offset " + std::to_string(offset) +
                               " outside the row data (" + std::to_string(headerBytes) + ".." +
                               std::to_string(r.size() - 1) + ")");
        ByteReader row = r.sub(pvs, r.size() - pvs, r.lump());
        decompressRow(row, w.pvs.rows.data() + size_t(i) * rowBytes, rowBytes, i);
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
    const size_t numLeafBrushes = c.lump(kLeafBrushes).recordCount(kLeafBrushBytes);

    ByteReader& r = c.lump(kLeafs);
    const size_t recordBytes = c.leafVersion == 0 ? kLeafBytesV0 : kLeafBytesV1;
    c.numLeaves = r.recordCount(recordBytes);
    if (c.numLeaves == 0) r.fail(0, "map has no leaves");
    w.leaves.resize(c.numLeaves);
    for (size_t i = 0; i < c.numLeaves; ++i) {
        Leaf& leaf = w.leaves[i];
        const size_t at = i * recordBytes;
        r.seek(at + 4);  // contents
        leaf.cluster = r.i16();
        if (leaf.cluster < -1 || (!w.pvs.empty() && leaf.cluster >= w.pvs.numClusters))
            r.fail(at + 4, "cluster " + std::to_string(leaf.cluster) + " outside -1.." +
                               std::to_string(w.pvs.numClusters - 1) + " (visibility clusters)");
        leaf.area = r.u16() & 0x1ff;  // area:9, flags:7
        leaf.mins = readShortVec3(r);
        leaf.maxs = readShortVec3(r);
        const uint16_t first = r.u16(), count = r.u16();
        checkRange(r, at + 20, first, count, c.numLeafFaces, "leaf face");
        leaf.firstLeafSurface = first;
        leaf.numLeafSurfaces = count;
        const uint16_t firstBrush = r.u16(), numBrushes = r.u16();
        checkRange(r, at + 24, firstBrush, numBrushes, numLeafBrushes, "leaf brush");
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
                // vbsp writes nodes in pre-order; requiring it rules out cycles that would hang a walk.
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
        const uint16_t first = r.u16(), count = r.u16();  // faces on the node's plane
        checkRange(r, at + 24, first, count, c.numFaces, "face");
        r.skip(4);  // area, padding
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
        r.skip(12);  // origin
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

}  // namespace luxel::vbsp
