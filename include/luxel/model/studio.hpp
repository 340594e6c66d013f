#pragma once
// Source studio models (the meshes static props draw): the .mdl header (versions 44-49) for textures,
// material folders, skin families and the body part / model / mesh tree; the .vvd vertices (version 4,
// LOD fix-ups applied); the .vtx strips (version 7) of LOD 0 into triangles. Only what a still needs:
// LOD 0, the first model of each body part (body group 0), no bones, flexes or animation (static props
// are drawn in their reference pose, which is what the vertex file stores).
//
// Each parser checks every count and offset against its file (bounds-checked reader) and throws a
// DecodeError naming the file on anything malformed; checksums of the three files must agree.
#include <cstdint>
#include <string>
#include <vector>

#include "luxel/io/map_source.hpp"
#include "luxel/util/math.hpp"

namespace luxel {

// The .mdl: what the mesh files need and how meshes get their materials.
struct MdlMesh {
    int32_t skinRef = 0;            // material slot, mapped through the skin family to a texture
    uint32_t firstVertex = 0;       // into the .vvd's vertices (model vertex start + mesh offset)
    uint32_t numVertices = 0;
};
struct MdlModel {
    std::vector<MdlMesh> meshes;
};
struct MdlBodyPart {
    std::vector<MdlModel> models;
};
struct MdlInfo {
    int32_t version = 0;
    uint32_t checksum = 0;
    Vec3 illumPosition;                     // where the engine samples a prop's ambient light (model space)
    std::vector<std::string> textures;      // names as stored ('\\' -> '/', lower case), no extension
    std::vector<std::string> materialDirs;  // $cdmaterials in order, as stored ('\\' -> '/', lower case)
    std::vector<std::vector<int16_t>> skins;  // [family][skinRef] -> texture index
    std::vector<MdlBodyPart> bodyParts;
};
MdlInfo readMdl(const Bytes& bytes, const std::string& name);

struct StudioVertex {
    Vec3 position, normal;
    Vec2 uv;
};
// The .vvd's vertices of LOD 0 (fix-up table applied).
struct VvdInfo {
    uint32_t checksum = 0;
    std::vector<StudioVertex> vertices;
};
VvdInfo readVvd(const Bytes& bytes, const std::string& name);

// The .vtx, flattened: one group per strip group in file order (body part, model, LOD, mesh, strip group),
// the order vrad writes per-vertex light (.vhv) in. Triangles and vertex ids are filled for LOD 0 only.
struct VtxStripGroup {
    int32_t bodyPart = 0, model = 0, lod = 0, mesh = 0;
    std::vector<uint16_t> meshVertex;  // per strip-group vertex: its vertex within the .mdl mesh
    std::vector<uint32_t> triangles;   // LOD 0: indices into meshVertex, three per triangle
    uint32_t numVertices = 0;          // every LOD
};
struct VtxInfo {
    uint32_t checksum = 0;
    std::vector<VtxStripGroup> groups;
};
VtxInfo readVtx(const Bytes& bytes, const std::string& name);

// A model ready to place: LOD 0 triangles of the first model of each body part, per mesh.
struct StudioMesh {
    int32_t skinRef = 0;
    std::vector<uint32_t> indices;  // into StudioModel::vertices, three per triangle
};
struct StudioModel {
    std::string name;
    MdlInfo mdl;
    std::vector<StudioVertex> vertices;  // the .vvd's LOD 0 vertices
    std::vector<StudioMesh> meshes;
    // Per .vtx strip group (VtxInfo order): for LOD 0 groups of drawn models, the .vvd vertex of each of
    // its vertices; for others only the count (empty list), so per-vertex light files can be matched.
    std::vector<uint32_t> groupVertexCounts;
    std::vector<std::vector<uint32_t>> groupVertices;
};
// Joins the three files; DecodeError when one is malformed or they do not belong together.
StudioModel buildStudioModel(std::string name, const MdlInfo& mdl, const VvdInfo& vvd, const VtxInfo& vtx);

// The material a mesh is drawn with for skin family `skin` (out of range: family 0, as the engine does):
// "DIR/TEXTURE" with the first material folder `exists` accepts for "materials/DIR/TEXTURE.vmt", else the
// first folder's. Empty when the model has no textures.
template <class Exists>
std::string studioMaterial(const MdlInfo& mdl, int32_t skin, int32_t skinRef, const Exists& exists) {
    if (mdl.textures.empty()) return {};
    int32_t texture = skinRef;
    if (!mdl.skins.empty()) {
        const auto& family = mdl.skins[skin >= 0 && size_t(skin) < mdl.skins.size() ? size_t(skin) : 0];
        texture = skinRef >= 0 && size_t(skinRef) < family.size() ? family[size_t(skinRef)] : skinRef;
    }
    if (texture < 0 || size_t(texture) >= mdl.textures.size()) texture = 0;
    const std::string& t = mdl.textures[size_t(texture)];
    for (const std::string& dir : mdl.materialDirs)
        if (exists("materials/" + dir + t + ".vmt")) return dir + t;
    return mdl.materialDirs.empty() ? t : mdl.materialDirs.front() + t;
}

}  // namespace luxel
