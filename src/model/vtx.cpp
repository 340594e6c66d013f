// The .vtx strip file, version 7 (optimize.h; byte-packed records): body parts -> models -> LODs ->
// meshes -> strip groups -> strips. A strip group holds its vertices (each naming a vertex of its .mdl
// mesh) and an index list into them; its strips are triangle lists or strips over ranges of that list.
// Left 4 Dead 2 / CS:GO era files add two topology fields to strip groups and strips (33 and 35 bytes
// instead of 25 and 27); the file does not say which, so the classic layout is tried first.
#include <optional>

#include "luxel/model/studio.hpp"
#include "studio_read.hpp"

namespace luxel {
namespace {

using studio::checkTable;

struct Layout {
    size_t groupBytes, stripBytes;
};
constexpr Layout kClassic{25, 27}, kTopology{33, 35};
constexpr size_t kVertexBytes = 9;
constexpr uint8_t kStripTriList = 0x01, kStripTriStrip = 0x02;

// Records read at each level of the tree (see studio::TableBudget).
struct Budgets {
    studio::TableBudget models, lods, meshes, groups, vertices, indices, strips;
};

void readStrips(ByteReader& r, size_t groupAt, const Layout& layout, VtxStripGroup& g, const std::vector<uint16_t>& index,
                Budgets& budgets) {
    r.seek(groupAt + 16);
    const int32_t numStrips = r.i32(), stripOffset = r.i32();
    checkTable(r, groupAt + 16, int64_t(groupAt) + stripOffset, numStrips, layout.stripBytes, "strips", budgets.strips);
    for (int32_t s = 0; s < numStrips; ++s) {
        const size_t at = groupAt + size_t(stripOffset) + size_t(s) * layout.stripBytes;
        r.seek(at);
        const int32_t numIndices = r.i32(), indexOffset = r.i32();
        r.seek(at + 18);
        const uint8_t flags = r.u8();
        if (numIndices < 0 || indexOffset < 0 || uint64_t(indexOffset) + uint64_t(numIndices) > index.size())
            r.fail(at, "strip indices " + std::to_string(indexOffset) + " +" + std::to_string(numIndices) +
                           " outside the strip group's " + std::to_string(index.size()));
        // Strips partition the index list, so together they give at most three indices per index; more is
        // a hostile file making many strips over one range.
        if (g.triangles.size() + 3 * size_t(numIndices) > 3 * index.size() + 3 * size_t(numStrips))
            r.fail(at, "strips cover more indices than the strip group holds");
        const uint16_t* idx = index.data() + indexOffset;
        if (flags & kStripTriStrip) {
            for (int32_t i = 0; i + 2 < numIndices; ++i) {
                const bool odd = i & 1;  // every other triangle of a strip is wound the other way
                g.triangles.insert(g.triangles.end(), {idx[i], idx[odd ? i + 2 : i + 1], idx[odd ? i + 1 : i + 2]});
            }
        } else if (flags & kStripTriList) {
            for (int32_t i = 0; i + 2 < numIndices; i += 3) g.triangles.insert(g.triangles.end(), {idx[i], idx[i + 1], idx[i + 2]});
        }
    }
    for (uint32_t v : g.triangles)
        if (v >= g.meshVertex.size())
            r.fail(groupAt, "strip index " + std::to_string(v) + " past the strip group's " +
                                std::to_string(g.meshVertex.size()) + " vertices");
}

VtxInfo readWith(const Bytes& bytes, const std::string& name, const Layout& layout) {
    ByteReader r(bytes, name, "vtx");
    VtxInfo info;
    if (bytes.size() < 36) r.fail(0, "file too small for a strip file header");
    if (const int32_t version = r.i32(); version != 7)
        r.fail(0, "strip file version " + std::to_string(version) + " is not supported (7)");
    r.seek(16);
    info.checksum = r.u32();
    r.seek(28);
    const int32_t numBodyParts = r.i32(), bodyPartOffset = r.i32();
    checkTable(r, 28, bodyPartOffset, numBodyParts, 8, "body parts");
    Budgets budgets;
    for (int32_t b = 0; b < numBodyParts; ++b) {
        const size_t bodyAt = size_t(bodyPartOffset) + size_t(b) * 8;
        r.seek(bodyAt);
        const int32_t numModels = r.i32(), modelOffset = r.i32();
        checkTable(r, bodyAt, int64_t(bodyAt) + modelOffset, numModels, 8, "models", budgets.models);
        for (int32_t m = 0; m < numModels; ++m) {
            const size_t modelAt = bodyAt + size_t(modelOffset) + size_t(m) * 8;
            r.seek(modelAt);
            const int32_t numLods = r.i32(), lodOffset = r.i32();
            checkTable(r, modelAt, int64_t(modelAt) + lodOffset, numLods, 12, "LODs", budgets.lods);
            for (int32_t l = 0; l < numLods; ++l) {
                const size_t lodAt = modelAt + size_t(lodOffset) + size_t(l) * 12;
                r.seek(lodAt);
                const int32_t numMeshes = r.i32(), meshOffset = r.i32();
                checkTable(r, lodAt, int64_t(lodAt) + meshOffset, numMeshes, 9, "meshes", budgets.meshes);
                for (int32_t k = 0; k < numMeshes; ++k) {
                    const size_t meshAt = lodAt + size_t(meshOffset) + size_t(k) * 9;
                    r.seek(meshAt);
                    const int32_t numGroups = r.i32(), groupOffset = r.i32();
                    checkTable(r, meshAt, int64_t(meshAt) + groupOffset, numGroups, layout.groupBytes, "strip groups",
                               budgets.groups);
                    for (int32_t s = 0; s < numGroups; ++s) {
                        const size_t groupAt = meshAt + size_t(groupOffset) + size_t(s) * layout.groupBytes;
                        r.seek(groupAt);
                        const int32_t numVerts = r.i32(), vertOffset = r.i32(), numIndices = r.i32(), indexOffset = r.i32();
                        checkTable(r, groupAt, int64_t(groupAt) + vertOffset, numVerts, kVertexBytes, "strip group vertices",
                                   budgets.vertices);
                        checkTable(r, groupAt + 8, int64_t(groupAt) + indexOffset, numIndices, 2, "strip group indices",
                                   budgets.indices);
                        VtxStripGroup& g = info.groups.emplace_back();
                        g.bodyPart = b, g.model = m, g.lod = l, g.mesh = k;
                        g.numVertices = uint32_t(numVerts);
                        if (l != 0) continue;
                        g.meshVertex.resize(size_t(numVerts));
                        for (int32_t v = 0; v < numVerts; ++v) {
                            r.seek(groupAt + size_t(vertOffset) + size_t(v) * kVertexBytes + 4);
                            g.meshVertex[size_t(v)] = r.u16();
                        }
                        std::vector<uint16_t> index(static_cast<size_t>(numIndices));
                        r.seek(groupAt + size_t(indexOffset));
                        for (uint16_t& i : index) i = r.u16();
                        readStrips(r, groupAt, layout, g, index, budgets);
                    }
                }
            }
        }
    }
    return info;
}

}  // namespace

VtxInfo readVtx(const Bytes& bytes, const std::string& name) {
    try {
        return readWith(bytes, name, kClassic);
    } catch (const DecodeError& classic) {
        try {
            return readWith(bytes, name, kTopology);
        } catch (const DecodeError&) {
            throw classic;
        }
    }
}

}  // namespace luxel
