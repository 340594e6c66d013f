#include "tree_records.hpp"

#include <string>

#include "decode_common.hpp"

namespace luxel::bsp {

namespace {

[[noreturn]] void failChild(const ByteReader& r, size_t fieldAt, int32_t child, size_t index, size_t numNodes,
                            size_t numLeaves) {
    if (child >= 0)
        r.fail(fieldAt, "child node " + std::to_string(child) + " must be after node " + std::to_string(index) +
                            " and below " + std::to_string(numNodes));
    r.fail(fieldAt, "child leaf " + std::to_string(-(int64_t(child) + 1)) + " outside 0.." +
                        std::to_string(int64_t(numLeaves) - 1));
}

// Plane and children of node `index`, at the reader's position (error text built out of line, so this
// inlines into the record loops).
inline void readNodeLinks(ByteReader& r, size_t index, size_t numNodes, size_t numPlanes, size_t numLeaves,
                          Node& n) {
    const size_t at = r.position();
    n.plane = r.i32();
    checkIndex(r, at, n.plane, numPlanes, "plane");
    for (size_t k = 0; k < 2; ++k) {
        const int32_t child = r.i32();
        const bool bad = child >= 0 ? uint64_t(child) <= index || uint64_t(child) >= numNodes
                                    : uint64_t(-(int64_t(child) + 1)) >= numLeaves;
        if (bad) failChild(r, at + 4 + k * 4, child, index, numNodes, numLeaves);
        n.children[k] = child;
    }
}

}  // namespace

size_t readIntNodes(ByteReader& r, size_t numPlanes, size_t numLeaves, World& w) {
    const size_t numNodes = r.recordCount(36);
    w.nodes.resize(numNodes);
    for (size_t i = 0; i < numNodes; ++i) {
        Node& n = w.nodes[i];
        readNodeLinks(r, i, numNodes, numPlanes, numLeaves, n);
        n.mins = readIntVec3(r);
        n.maxs = readIntVec3(r);
    }
    return numNodes;
}

size_t readShortNodes(ByteReader& r, size_t recordBytes, size_t numPlanes, size_t numLeaves, size_t numFaces,
                      World& w) {
    const size_t numNodes = r.recordCount(recordBytes);
    if (numNodes == 0) r.fail(0, "map has no nodes");
    w.nodes.resize(numNodes);
    for (size_t i = 0; i < numNodes; ++i) {
        Node& n = w.nodes[i];
        const size_t at = r.position();
        readNodeLinks(r, i, numNodes, numPlanes, numLeaves, n);
        n.mins = readShortVec3(r);
        n.maxs = readShortVec3(r);
        const uint16_t first = r.u16(), count = r.u16();
        checkRange(r, at + 24, first, count, numFaces, "face");
        r.seek(at + recordBytes);
    }
    return numNodes;
}

size_t readShortLeaves(ByteReader& r, size_t recordBytes, const ShortLeafLimits& limits, World& w,
                       std::vector<Range>* leafBrushes) {
    const size_t numLeaves = r.recordCount(recordBytes);
    if (numLeaves == 0) r.fail(0, "map has no leaves");
    w.leaves.resize(numLeaves);
    for (Leaf& leaf : w.leaves) {
        const size_t at = r.position();
        leaf.liquid = (uint32_t(r.i32()) & limits.liquidContents) != 0;
        leaf.cluster = r.i16();
        // Without a vis lump clusters are still numbered (quake-experiments_test1), just not checkable.
        if (leaf.cluster < -1 || (!w.pvs.empty() && leaf.cluster >= w.pvs.numClusters))
            r.fail(at + 4, "cluster " + std::to_string(leaf.cluster) + " outside -1.." +
                               std::to_string(w.pvs.numClusters - 1) + " (visibility clusters)");
        if (limits.area == LeafArea::Short) {
            leaf.area = r.i16();
            if (limits.numAreas > 0) checkIndex(r, at + 6, leaf.area, limits.numAreas, "area");
        } else {
            leaf.area = r.u16() & 0x1ff;
        }
        leaf.mins = readShortVec3(r);
        leaf.maxs = readShortVec3(r);
        const uint16_t first = r.u16(), count = r.u16();
        checkRange(r, at + 20, first, count, limits.numLeafFaces, "leaf face");
        leaf.firstLeafSurface = first;
        leaf.numLeafSurfaces = count;
        const uint16_t firstBrush = r.u16(), numBrushes = r.u16();
        checkRange(r, at + 24, firstBrush, numBrushes, limits.numLeafBrushes, "leaf brush");
        if (leafBrushes) leafBrushes->push_back({firstBrush, numBrushes});
        r.seek(at + recordBytes);  // Source: ambient cube (version 0, read by source/ambient.cpp) or padding
    }
    return numLeaves;
}

size_t readQuakeModels(ByteReader& r, size_t numNodes, size_t numLeaves, size_t numFaces, World& w) {
    const size_t numModels = r.recordCount(48);
    if (numModels == 0) r.fail(0, "map has no models (model 0 is the world)");
    w.models.resize(numModels);
    for (auto& m : w.models) {
        const size_t at = r.position();
        m.mins = readVec3(r);
        m.maxs = readVec3(r);
        r.skip(12);  // origin, for rotating brush models
        const int32_t head = r.i32();
        if (head >= 0)
            checkIndex(r, at + 36, head, numNodes, "head node");
        else
            checkIndex(r, at + 36, -(int64_t(head) + 1), numLeaves, "head leaf");
        const Range faces = readRange(r, numFaces, "face");
        m.firstSurface = faces.first;
        m.numSurfaces = faces.count;
    }
    return numModels;
}

}  // namespace luxel::bsp
