// Quake 1 BSP tree: models, leaf-based visibility, marksurfaces, leaves, nodes (and clipnodes, counted).
#include "format.hpp"
#include "../rle_pvs.hpp"

namespace luxel::q1 {

namespace {

Vec3 readBounds(ByteReader& r, bool floats) { return floats ? bsp::readVec3(r) : bsp::readShortVec3(r); }

// Models: bounds, origin, four head nodes (hull 0 drawn; the others are clipping hulls), the leaves the world's
// visibility covers, and a face range.
void readModels(Context& c, World& w, std::vector<int32_t>& visLeaves) {
    ByteReader& r = c.lump(kModels);
    c.numModels = r.recordCount(kModelBytes);
    if (c.numModels == 0) r.fail(0, "map has no models (model 0 is the world)");
    w.models.resize(c.numModels);
    visLeaves.resize(c.numModels);
    for (size_t i = 0; i < c.numModels; ++i) {
        Model& m = w.models[i];
        const size_t at = r.position();
        m.mins = bsp::readVec3(r);
        m.maxs = bsp::readVec3(r);
        r.skip(12);  // origin: unused by the engines
        const int32_t head = r.i32();
        if (head >= 0)
            checkIndex(r, at + 36, head, c.numNodes, "head node");
        else
            checkIndex(r, at + 36, -(int64_t(head) + 1), c.numLeaves, "head leaf");
        r.skip(12);  // clipping hulls 1-3
        visLeaves[i] = r.i32();
        const bsp::Range faces = bsp::readRange(r, c.numFaces, "face");
        m.firstSurface = faces.first;
        m.numSurfaces = faces.count;
    }
    if (visLeaves[0] < 0 || uint64_t(visLeaves[0]) >= c.numLeaves)
        r.fail(48, "the world's " + std::to_string(visLeaves[0]) + " visible leaves do not fit the " +
                       std::to_string(c.numLeaves) + " leaves (leaf 0 is the solid leaf)");
}

}  // namespace

void decodeTree(Context& c, World& w) {
    const Layout& l = c.layout;
    ByteReader& leafLump = c.lump(kLeafs);
    ByteReader& nodeLump = c.lump(kNodes);
    c.numLeaves = leafLump.recordCount(l.leafBytes);
    c.numNodes = nodeLump.recordCount(l.nodeBytes);
    if (c.numLeaves == 0) leafLump.fail(0, "map has no leaves");
    if (c.numNodes == 0) nodeLump.fail(0, "map has no nodes");
    c.numClipnodes = c.lump(kClipnodes).recordCount(l.clipnodeBytes);
    std::vector<int32_t> visLeaves;
    readModels(c, w, visLeaves);

    // Leaf-based visibility: leaf i >= 1 is cluster i - 1; its row, run-length encoded at its visofs, has a bit
    // for each of the world's visible leaves (leaf 0, solid, has none). No vis data: every leaf sees all.
    const int32_t clusters = visLeaves[0];
    ByteReader& vis = c.lump(kVisibility);
    const size_t rowBytes = (size_t(clusters) + 7) / 8;
    if (uint64_t(clusters) * rowBytes > bsp::kMaxPvsBytes)
        vis.fail(0, std::to_string(clusters) + " visible leaves need " + std::to_string(uint64_t(clusters) * rowBytes) +
                        " bytes of visibility uncompressed, more than the " + std::to_string(bsp::kMaxPvsBytes) + " allowed");
    const bool haveVis = vis.size() > 0 && clusters > 0;
    if (haveVis) {
        w.pvs.numClusters = clusters;
        w.pvs.rowBytes = int32_t(rowBytes);
        w.pvs.rows.assign(size_t(clusters) * rowBytes, 0);
    }

    c.numMarkSurfaces = bsp::readIndexLump(c.lump(kMarkSurfaces), l.markSurfaceBytes, c.numFaces, "face", &w.leafSurfaces);
    w.leaves.resize(c.numLeaves);
    for (size_t i = 0; i < c.numLeaves; ++i) {
        Leaf& leaf = w.leaves[i];
        const size_t at = leafLump.position();
        const int32_t contents = leafLump.i32();
        const int32_t visOffset = leafLump.i32();
        leaf.mins = readBounds(leafLump, l.floatBounds);
        leaf.maxs = readBounds(leafLump, l.floatBounds);
        const size_t rangeAt = leafLump.position();
        const uint32_t first = l.wide ? leafLump.u32() : leafLump.u16();
        const uint32_t count = l.wide ? leafLump.u32() : leafLump.u16();
        checkRange(leafLump, rangeAt, first, count, c.numMarkSurfaces, "marksurface");
        leaf.firstLeafSurface = first;
        leaf.numLeafSurfaces = count;
        leafLump.skip(4);  // ambient sound levels
        const bool visible = i >= 1 && int64_t(i) <= clusters;
        leaf.cluster = visible && contents != kContentsSolid ? int32_t(i - 1) : -1;
        leaf.sky = contents == kContentsSky;
        leaf.liquid = contents == kContentsWater || contents == kContentsSlime || contents == kContentsLava;
        if (!haveVis || !visible) continue;
        uint8_t* row = w.pvs.rows.data() + size_t(i - 1) * rowBytes;
        if (visOffset < 0) {
            std::fill(row, row + rowBytes, uint8_t(0xff));
            continue;
        }
        if (uint64_t(visOffset) >= vis.size())
            leafLump.fail(at + 4, "leaf " + std::to_string(i) + " visibility offset " + std::to_string(visOffset) +
                                      " outside the " + std::to_string(vis.size()) + "-byte visibility lump");
        ByteReader rle = vis.sub(uint64_t(visOffset), vis.size() - uint64_t(visOffset), vis.lump());
        bsp::decompressPvsRow(rle, row, rowBytes, int32_t(i - 1));
    }

    w.nodes.resize(c.numNodes);
    for (size_t i = 0; i < c.numNodes; ++i) {
        Node& n = w.nodes[i];
        const size_t at = nodeLump.position();
        n.plane = nodeLump.i32();
        checkIndex(nodeLump, at, n.plane, c.numPlanes, "plane");
        for (size_t k = 0; k < 2; ++k) {
            int32_t child;
            if (l.wide) {
                child = nodeLump.i32();
            } else {
                // As QuakeSpasm reads them: unsigned, a node below the node count, else leaf 65535 - p (maps
                // past 32767 nodes use the range int16 cannot).
                const uint16_t p = nodeLump.u16();
                child = p < c.numNodes ? int32_t(p) : -1 - (65535 - int32_t(p));
            }
            const bool bad = child >= 0 ? uint64_t(child) <= i || uint64_t(child) >= c.numNodes
                                        : uint64_t(-(int64_t(child) + 1)) >= c.numLeaves;
            if (bad)
                nodeLump.fail(at + 4 + k * (l.wide ? 4 : 2),
                              "node " + std::to_string(i) + " child " + std::to_string(child) +
                                  " is neither a later node (below " + std::to_string(c.numNodes) +
                                  ") nor a leaf (below " + std::to_string(c.numLeaves) + ")");
            n.children[k] = child;
        }
        n.mins = readBounds(nodeLump, l.floatBounds);
        n.maxs = readBounds(nodeLump, l.floatBounds);
        const size_t facesAt = nodeLump.position();
        const uint32_t first = l.wide ? nodeLump.u32() : nodeLump.u16();
        const uint32_t count = l.wide ? nodeLump.u32() : nodeLump.u16();
        checkRange(nodeLump, facesAt, first, count, c.numFaces, "face");
    }
}

}  // namespace luxel::q1
