// vrad's per-vertex static prop light (.vhv, "hardware verts" version 2): a 40-byte header (version,
// checksum, vertex flags, vertex size, vertex count, mesh count, 4 unused), 28-byte mesh records (LOD,
// vertex count, file offset, 4 unused), then per mesh 4 bytes per vertex, b g r a. One mesh record per
// .vtx strip group, in the order vrad's SerializeLighting walks them.
#include <cmath>

#include "luxel/model/props.hpp"
#include "studio_read.hpp"

namespace luxel {
namespace {

constexpr uint32_t kVertexColor = 0x0004;  // VERTEX_COLOR

float vertexLightToLinear(uint8_t c) { return std::pow(2.0f * float(c) / 255.0f, 2.2f); }

}  // namespace

std::vector<Vec3> readVertexLight(const Bytes& bytes, const std::string& name, const StudioModel& model) {
    ByteReader r(bytes, name, "vhv");
    if (const int32_t version = r.i32(); version != 2)
        r.fail(0, "vertex light file version " + std::to_string(version) + " is not supported (2)");
    if (const uint32_t checksum = r.u32(); checksum != model.mdl.checksum)
        r.fail(4, "made for another build of " + model.name + " (checksum " + std::to_string(checksum) + ", model " +
                      std::to_string(model.mdl.checksum) + ")");
    const uint32_t flags = r.u32(), vertexSize = r.u32();
    if (!(flags & kVertexColor) || vertexSize != 4)
        r.fail(8, "vertex format " + std::to_string(flags) + " / " + std::to_string(vertexSize) +
                      " bytes is not the colour-only one (4 bytes)");
    r.skip(4);
    const int32_t numMeshes = r.i32();
    if (numMeshes < 0 || size_t(numMeshes) != model.groupVertexCounts.size())
        r.fail(20, std::to_string(numMeshes) + " meshes, the model's strip file has " +
                       std::to_string(model.groupVertexCounts.size()) + " strip groups");
    studio::checkTable(r, 20, 40, numMeshes, 28, "meshes");
    std::vector<Vec3> light(model.vertices.size());
    for (size_t m = 0; m < size_t(numMeshes); ++m) {
        r.seek(40 + m * 28 + 4);
        const uint32_t count = r.u32(), offset = r.u32();
        if (count != model.groupVertexCounts[m])
            r.fail(40 + m * 28 + 4, "mesh " + std::to_string(m) + " has " + std::to_string(count) +
                                        " vertices, its strip group " + std::to_string(model.groupVertexCounts[m]));
        const std::vector<uint32_t>& vertices = model.groupVertices[m];
        if (vertices.empty()) continue;  // another LOD or body group: not drawn
        studio::checkTable(r, 40 + m * 28 + 8, offset, count, 4, "vertex colours");
        r.seek(offset);
        for (uint32_t v : vertices) {
            const uint8_t b = r.u8(), g = r.u8(), red = r.u8();
            r.u8();
            light[v] = {vertexLightToLinear(red), vertexLightToLinear(g), vertexLightToLinear(b)};
        }
    }
    return light;
}

}  // namespace luxel
