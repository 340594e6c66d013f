// The three studio files joined into triangles per mesh: the .vtx strip groups of LOD 0 name vertices of
// their .mdl mesh, which the .mdl places in the .vvd's vertex list.
#include "luxel/model/studio.hpp"

#include "luxel/util/error.hpp"

namespace luxel {

StudioModel buildStudioModel(std::string name, const MdlInfo& mdl, const VvdInfo& vvd, const VtxInfo& vtx) {
    auto fail = [&](const std::string& what) -> void { throw DecodeError(name, "model", 0, what); };
    if (vvd.checksum != mdl.checksum || vtx.checksum != mdl.checksum)
        fail("the .mdl, .vvd and .vtx checksums differ (" + std::to_string(mdl.checksum) + ", " +
             std::to_string(vvd.checksum) + ", " + std::to_string(vtx.checksum) + "): files of different builds");
    StudioModel model;
    model.name = std::move(name);
    model.mdl = mdl;
    model.vertices = vvd.vertices;
    // One StudioMesh per mesh of model 0 of each body part, in .mdl order.
    std::vector<std::vector<size_t>> meshSlot(mdl.bodyParts.size());
    for (size_t b = 0; b < mdl.bodyParts.size(); ++b) {
        if (mdl.bodyParts[b].models.empty()) continue;
        for (const MdlMesh& mesh : mdl.bodyParts[b].models[0].meshes) {
            meshSlot[b].push_back(model.meshes.size());
            model.meshes.push_back({mesh.skinRef, {}});
        }
    }
    for (const VtxStripGroup& g : vtx.groups) {
        model.groupVertexCounts.push_back(g.numVertices);
        std::vector<uint32_t>& vertices = model.groupVertices.emplace_back();
        if (g.lod != 0 || g.model != 0) continue;
        if (size_t(g.bodyPart) >= meshSlot.size() || size_t(g.mesh) >= meshSlot[size_t(g.bodyPart)].size())
            fail("the .vtx has a mesh (body part " + std::to_string(g.bodyPart) + ", mesh " + std::to_string(g.mesh) +
                 ") the .mdl does not");
        const MdlMesh& mesh = mdl.bodyParts[size_t(g.bodyPart)].models[0].meshes[size_t(g.mesh)];
        for (uint16_t v : g.meshVertex) {
            if (v >= mesh.numVertices || mesh.firstVertex + v >= model.vertices.size())
                fail("strip vertex " + std::to_string(v) + " outside its mesh (" + std::to_string(mesh.numVertices) +
                     " vertices from " + std::to_string(mesh.firstVertex) + ", file has " +
                     std::to_string(model.vertices.size()) + ")");
            vertices.push_back(mesh.firstVertex + v);
        }
        std::vector<uint32_t>& indices = model.meshes[meshSlot[size_t(g.bodyPart)][size_t(g.mesh)]].indices;
        for (uint32_t t : g.triangles) indices.push_back(vertices[t]);
    }
    return model;
}

}  // namespace luxel
