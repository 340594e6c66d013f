// The .mdl header of versions 44-49 (studio.h, studiohdr_t; the fields read here sit at the same offsets
// in all of them): textures, $cdmaterials, the skin table and the body part / model / mesh tree.
#include "luxel/model/studio.hpp"

#include <cstring>

#include "studio_read.hpp"

namespace luxel {
namespace {

using studio::checkTable;

constexpr size_t kTextureBytes = 64;   // mstudiotexture_t
constexpr size_t kBodyPartBytes = 16;  // mstudiobodyparts_t
constexpr size_t kModelBytes = 148;    // mstudiomodel_t
constexpr size_t kMeshBytes = 116;     // mstudiomesh_t
constexpr size_t kVvdVertexBytes = 48; // mstudiovertex_t: mstudiomodel_t::vertexindex counts bytes of these

MdlModel readModel(ByteReader& r, size_t at, studio::TableBudget& meshBudget) {
    r.seek(at + 72);
    const int32_t numMeshes = r.i32(), meshIndex = r.i32(), numVertices = r.i32(), vertexIndex = r.i32();
    checkTable(r, at + 72, int64_t(at) + meshIndex, numMeshes, kMeshBytes, "meshes", meshBudget);
    if (numVertices < 0 || vertexIndex < 0 || vertexIndex % int32_t(kVvdVertexBytes) != 0)
        r.fail(at + 80, "model vertex range " + std::to_string(vertexIndex) + " +" + std::to_string(numVertices) + " is not valid");
    const uint32_t first = uint32_t(vertexIndex) / kVvdVertexBytes;
    MdlModel m;
    m.meshes.resize(size_t(numMeshes));
    for (size_t k = 0; k < m.meshes.size(); ++k) {
        const size_t meshAt = at + size_t(meshIndex) + k * kMeshBytes;
        r.seek(meshAt);
        MdlMesh& mesh = m.meshes[k];
        mesh.skinRef = r.i32();
        r.skip(4);  // model index
        const int32_t count = r.i32(), offset = r.i32();
        if (count < 0 || offset < 0 || int64_t(offset) + count > numVertices)
            r.fail(meshAt + 8, "mesh vertices " + std::to_string(offset) + " +" + std::to_string(count) +
                                   " outside the model's " + std::to_string(numVertices));
        mesh.firstVertex = first + uint32_t(offset);
        mesh.numVertices = uint32_t(count);
    }
    return m;
}

}  // namespace

MdlInfo readMdl(const Bytes& bytes, const std::string& name) {
    ByteReader r(bytes, name, "mdl");
    if (bytes.size() < 240 || std::memcmp(bytes.data(), "IDST", 4) != 0) r.fail(0, "not a studio model (no IDST header)");
    MdlInfo info;
    r.seek(4);
    info.version = r.i32();
    if (info.version < 44 || info.version > 49)
        r.fail(4, "studio model version " + std::to_string(info.version) + " is not supported (44-49)");
    info.checksum = r.u32();
    r.seek(92);
    info.illumPosition = {r.f32(), r.f32(), r.f32()};

    r.seek(204);
    const int32_t numTextures = r.i32(), textureIndex = r.i32(), numCdTextures = r.i32(), cdTextureIndex = r.i32();
    const int32_t numSkinRefs = r.i32(), numSkinFamilies = r.i32(), skinIndex = r.i32();
    const int32_t numBodyParts = r.i32(), bodyPartIndex = r.i32();
    checkTable(r, 204, textureIndex, numTextures, kTextureBytes, "textures");
    checkTable(r, 212, cdTextureIndex, numCdTextures, 4, "material folders");
    if (numSkinRefs < 0 || numSkinFamilies < 0) r.fail(220, "negative skin table size");
    checkTable(r, 228, skinIndex, int64_t(numSkinRefs) * numSkinFamilies, 2, "skin table entries");
    checkTable(r, 236, bodyPartIndex, numBodyParts, kBodyPartBytes, "body parts");

    for (int32_t i = 0; i < numTextures; ++i) {
        const size_t at = size_t(textureIndex) + size_t(i) * kTextureBytes;
        r.seek(at);
        const int32_t nameOffset = r.i32();  // from the texture record
        info.textures.push_back(studio::gamePathForm(studio::cString(r, int64_t(at) + nameOffset, 255, "texture")));
    }
    for (int32_t i = 0; i < numCdTextures; ++i) {
        r.seek(size_t(cdTextureIndex) + size_t(i) * 4);
        const int32_t at = r.i32();  // from the file start
        info.materialDirs.push_back(studio::gamePathForm(studio::cString(r, at, 255, "material folder")));
    }
    // A table with no refs or no families holds nothing; then the other count is bounded by nothing in the file,
    // and no row may be sized from it (a row of 838,860,800 refs was built for zero families: fuzz-findings).
    // With both counts above zero, checkTable has bounded their product by the file.
    r.seek(size_t(skinIndex));
    if (numSkinRefs > 0 && numSkinFamilies > 0)
        info.skins.assign(size_t(numSkinFamilies), std::vector<int16_t>(size_t(numSkinRefs)));
    for (auto& family : info.skins)
        for (int16_t& t : family) t = r.i16();

    info.bodyParts.resize(size_t(numBodyParts));
    studio::TableBudget modelBudget, meshBudget;
    for (size_t i = 0; i < info.bodyParts.size(); ++i) {
        const size_t at = size_t(bodyPartIndex) + i * kBodyPartBytes;
        r.seek(at + 4);
        const int32_t numModels = r.i32();
        r.skip(4);  // base: body group arithmetic, body 0 picks model 0
        const int32_t modelIndex = r.i32();
        checkTable(r, at + 4, int64_t(at) + modelIndex, numModels, kModelBytes, "models", modelBudget);
        for (int32_t j = 0; j < numModels; ++j)
            info.bodyParts[i].models.push_back(
                readModel(r, at + size_t(modelIndex) + size_t(j) * kModelBytes, meshBudget));
    }
    return info;
}

}  // namespace luxel
