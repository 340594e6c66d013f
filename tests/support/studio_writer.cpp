#include "studio_writer.hpp"

#include <array>
#include <cstring>

namespace luxel::test {
namespace {

struct Out {
    Bytes b;
    size_t at() const { return b.size(); }
    void i32(int32_t v) { u32(uint32_t(v)); }
    void u32(uint32_t v) { for (int k = 0; k < 4; ++k) b.push_back(uint8_t(v >> (8 * k))); }
    void u16(uint16_t v) { b.push_back(uint8_t(v)); b.push_back(uint8_t(v >> 8)); }
    void f32(float f) { uint32_t v; std::memcpy(&v, &f, 4); u32(v); }
    void vec(Vec3 v) { f32(v.x); f32(v.y); f32(v.z); }
    void zeros(size_t n) { b.insert(b.end(), n, 0); }
    void str(const std::string& s) { b.insert(b.end(), s.begin(), s.end()); b.push_back(0); }
    void put32(size_t pos, int32_t v) { for (int k = 0; k < 4; ++k) b[pos + size_t(k)] = uint8_t(uint32_t(v) >> (8 * k)); }
};

void vertex(Out& o, const StudioVertex& v) {
    o.f32(1); o.zeros(12);  // one bone, weight 1
    o.vec(v.position);
    o.vec(v.normal);
    o.f32(v.uv.x); o.f32(v.uv.y);
}

}  // namespace

SynthFiles writeStudio(const SynthStudio& m) {
    SynthFiles f;
    const size_t numMeshes = m.meshTriangles.size();
    std::vector<std::vector<int16_t>> skins = m.skins;
    if (skins.empty()) {
        skins.emplace_back();
        for (size_t k = 0; k < numMeshes; ++k) skins[0].push_back(int16_t(k));
    }
    // .mdl: header, textures, material folder table, skin table, body part, model, meshes, strings.
    Out o;
    o.b.assign(240, 0);
    std::memcpy(o.b.data(), "IDST", 4);
    o.put32(4, 48);
    o.put32(8, int32_t(m.checksum));
    for (int k = 0; k < 3; ++k) { float v = (&m.illumPosition.x)[k]; int32_t bits; std::memcpy(&bits, &v, 4); o.put32(92 + 4 * size_t(k), bits); }
    const size_t textureAt = o.at();
    o.zeros(64 * m.textures.size());
    const size_t cdAt = o.at();
    o.zeros(4 * m.materialDirs.size());
    const size_t skinAt = o.at();
    for (const auto& family : skins) for (int16_t t : family) o.u16(uint16_t(t));
    const size_t bodyAt = o.at();
    o.zeros(16);
    const size_t modelAt = o.at();
    o.zeros(148);
    const size_t meshAt = o.at();
    o.zeros(116 * numMeshes);
    o.put32(204, int32_t(m.textures.size())); o.put32(208, int32_t(textureAt));
    o.put32(212, int32_t(m.materialDirs.size())); o.put32(216, int32_t(cdAt));
    o.put32(220, int32_t(skins[0].size())); o.put32(224, int32_t(skins.size())); o.put32(228, int32_t(skinAt));
    o.put32(232, 1); o.put32(236, int32_t(bodyAt));
    o.put32(bodyAt + 4, 1); o.put32(bodyAt + 12, int32_t(modelAt - bodyAt));
    o.put32(modelAt + 72, int32_t(numMeshes)); o.put32(modelAt + 76, int32_t(meshAt - modelAt));
    o.put32(modelAt + 80, int32_t(m.vertices.size())); o.put32(modelAt + 84, 0);
    for (size_t k = 0; k < numMeshes; ++k) {
        o.put32(meshAt + 116 * k, int32_t(k));
        o.put32(meshAt + 116 * k + 8, int32_t(m.vertices.size()));
    }
    for (size_t t = 0; t < m.textures.size(); ++t) {
        o.put32(textureAt + 64 * t, int32_t(o.at() - (textureAt + 64 * t)));
        o.str(m.textures[t]);
    }
    for (size_t d = 0; d < m.materialDirs.size(); ++d) {
        o.put32(cdAt + 4 * d, int32_t(o.at()));
        o.str(m.materialDirs[d]);
    }
    f.mdl = std::move(o.b);

    f.vvd = writeVvdWithFixups(m.checksum, m.vertices, int32_t(m.vertices.size()), {});

    // .vtx: header, body part, model, LOD, meshes (9 bytes), strip groups (25), strips (27), vertices, indices.
    Out x;
    x.i32(7); x.i32(24); x.u16(53); x.u16(9); x.i32(3); x.u32(m.checksum); x.i32(1); x.i32(0); x.i32(1); x.i32(36);
    x.i32(1); x.i32(8);                          // body part at 36 -> model at 44
    x.i32(1); x.i32(8);                          // model at 44 -> LOD at 52
    x.i32(int32_t(numMeshes)); x.i32(12); x.f32(0);  // LOD at 52 -> meshes at 64
    const size_t meshesAt = x.at();
    x.zeros(9 * numMeshes);
    for (size_t k = 0; k < numMeshes; ++k) {
        const size_t groupAt = x.at();
        x.put32(meshesAt + 9 * k, 1);
        x.put32(meshesAt + 9 * k + 4, int32_t(groupAt - (meshesAt + 9 * k)));
        x.zeros(25);
        const size_t stripAt = x.at();
        x.i32(int32_t(m.meshTriangles[k].size())); x.i32(0); x.i32(int32_t(m.vertices.size())); x.i32(0);
        x.u16(0); x.b.push_back(1); x.i32(0); x.i32(0);  // bones, flags: triangle list, bone changes
        const size_t vertsAt = x.at();
        for (size_t v = 0; v < m.vertices.size(); ++v) { x.zeros(4); x.u16(uint16_t(v)); x.zeros(3); }
        const size_t indicesAt = x.at();
        for (uint16_t i : m.meshTriangles[k]) x.u16(i);
        x.put32(groupAt, int32_t(m.vertices.size())); x.put32(groupAt + 4, int32_t(vertsAt - groupAt));
        x.put32(groupAt + 8, int32_t(m.meshTriangles[k].size())); x.put32(groupAt + 12, int32_t(indicesAt - groupAt));
        x.put32(groupAt + 16, 1); x.put32(groupAt + 20, int32_t(stripAt - groupAt));
    }
    f.vtx = std::move(x.b);
    return f;
}

Bytes writeVvdWithFixups(uint32_t checksum, const std::vector<StudioVertex>& stored, int32_t lod0Count,
                         const std::vector<std::array<int32_t, 3>>& fixups) {
    Out o;
    o.b.assign(4, 0);
    std::memcpy(o.b.data(), "IDSV", 4);
    o.i32(4); o.u32(checksum); o.i32(1); o.i32(lod0Count); o.zeros(28);
    o.i32(int32_t(fixups.size())); o.i32(64); o.i32(int32_t(64 + 12 * fixups.size())); o.i32(0);
    for (const auto& f : fixups) { o.i32(f[0]); o.i32(f[1]); o.i32(f[2]); }
    for (const StudioVertex& v : stored) vertex(o, v);
    return o.b;
}

Bytes writeVhv(const SynthStudio& m, uint8_t r, uint8_t g, uint8_t b) {
    Out o;
    const size_t meshes = m.meshTriangles.size();
    o.i32(2); o.u32(m.checksum); o.u32(4); o.u32(4); o.u32(uint32_t(meshes * m.vertices.size())); o.i32(int32_t(meshes));
    o.zeros(16);
    const size_t dataAt = 512;  // vrad aligns the colours to 512 bytes
    for (size_t k = 0; k < meshes; ++k) {
        o.u32(0); o.u32(uint32_t(m.vertices.size())); o.u32(uint32_t(dataAt + 4 * k * m.vertices.size())); o.zeros(16);
    }
    o.zeros(dataAt - o.at());
    for (size_t k = 0; k < meshes * m.vertices.size(); ++k) { o.b.push_back(b); o.b.push_back(g); o.b.push_back(r); o.b.push_back(255); }
    return o.b;
}

}  // namespace luxel::test
