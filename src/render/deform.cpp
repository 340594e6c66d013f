// deformVertexes as ioquake3 computes it (tr_shade_calc.c: RB_DeformTessGeometry, RB_CalcDeformVertexes,
// RB_CalcMoveVertexes, AutospriteDeform).
#include "luxel/render/deform.hpp"

#include <cmath>

namespace luxel {

namespace {

// Each quad of four vertices becomes a camera-facing square around its centre, of radius |v0 - centre| *
// 0.707, with texture coordinates (0,0) top-left to (1,1) bottom-right and the first vertex's colour
// (RB_AddQuadStampExt).
void autosprite(std::vector<DrawVertex>& verts, std::vector<uint32_t>& tris, const View& view) {
    if (verts.empty() || verts.size() % 4 != 0) return;
    std::vector<DrawVertex> out;
    std::vector<uint32_t> idx;
    for (size_t q = 0; q + 4 <= verts.size(); q += 4) {
        Vec3 mid{0, 0, 0};
        for (size_t k = 0; k < 4; ++k) mid = mid + verts[q + k].position;
        mid = mid * 0.25f;
        const Vec3 d = verts[q].position - mid;
        const float radius = std::sqrt(dot(d, d)) * 0.707f;
        const Vec3 left = view.right * -radius, up = view.up * radius;
        const Vec3 corners[4] = {mid + left + up, mid - left + up, mid - left - up, mid + left - up};
        const Vec2 st[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        const uint32_t base = uint32_t(out.size());
        for (size_t k = 0; k < 4; ++k) {
            DrawVertex v = verts[q];
            v.position = corners[k];
            v.normal = view.forward * -1.0f;
            v.texUV = st[k];
            v.lightmapUV = st[k];
            out.push_back(v);
        }
        for (uint32_t k : {0u, 1u, 3u, 3u, 1u, 2u}) idx.push_back(base + k);
    }
    verts = std::move(out);
    tris = std::move(idx);
}

}  // namespace

void deformSurface(const std::vector<Deform>& deforms, const Geometry& g, const DrawSurface& ds, const View& view,
                   float time, std::vector<DrawVertex>& pool, std::vector<uint32_t>& triangles) {
    // The surface's own vertices, and its triangles in them.
    std::vector<DrawVertex> verts;
    std::vector<uint32_t> tris;
    const size_t first = ds.firstVertex, count = ds.numVertices;
    if (first + count > g.vertices.size() || size_t(ds.firstIndex) + ds.numIndices > g.indices.size()) return;
    verts.assign(g.vertices.begin() + std::ptrdiff_t(first), g.vertices.begin() + std::ptrdiff_t(first + count));
    for (uint32_t i = 0; i + 3 <= ds.numIndices; i += 3) {
        const uint32_t* t = g.indices.data() + ds.firstIndex + i;
        if (t[0] < first || t[1] < first || t[2] < first || t[0] >= first + count || t[1] >= first + count ||
            t[2] >= first + count)
            continue;
        for (int k = 0; k < 3; ++k) tris.push_back(uint32_t(t[k] - first));
    }
    for (const Deform& d : deforms) {
        switch (d.kind) {
            case Deform::Kind::Wave:
                for (DrawVertex& v : verts) {
                    Wave w = d.wave;
                    if (w.frequency != 0) w.phase += (v.position.x + v.position.y + v.position.z) * d.spread;
                    v.position = v.position + v.normal * float(evalWave(w, time));
                }
                break;
            case Deform::Kind::Move: {
                const Vec3 offset = d.move * float(evalWave(d.wave, time));
                for (DrawVertex& v : verts) v.position = v.position + offset;
                break;
            }
            case Deform::Kind::Autosprite: autosprite(verts, tris, view); break;
        }
    }
    const uint32_t base = uint32_t(pool.size());
    pool.insert(pool.end(), verts.begin(), verts.end());
    for (uint32_t i : tris) triangles.push_back(base + i);
}

}  // namespace luxel
