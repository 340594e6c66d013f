// deformVertexes as ioquake3 computes it (tr_shade_calc.c: RB_DeformTessGeometry, RB_CalcDeformVertexes,
// RB_CalcDeformNormals, RB_CalcBulgeVertexes, RB_CalcMoveVertexes, AutospriteDeform, Autosprite2Deform).
#include "luxel/render/deform.hpp"

#include <cmath>
#include <numbers>

#include "luxel/material/noise.hpp"

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

// Each quad pivots about the line through the middles of its two shortest edges so that its width faces the
// camera: the ends' vertices are put half the end's length either side of that middle along major x forward.
// Which vertex goes to which side follows the direction the quad's triangles use the edge in (the engine's
// test), so the winding is kept.
void autosprite2(std::vector<DrawVertex>& verts, const std::vector<uint32_t>& tris, const View& view) {
    static constexpr int kEdges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    if (verts.empty() || verts.size() % 4 != 0 || tris.size() != verts.size() / 4 * 6) return;
    for (size_t q = 0; q < verts.size() / 4; ++q) {
        const DrawVertex* v = verts.data() + 4 * q;
        const uint32_t* idx = tris.data() + 6 * q;
        int nums[2] = {0, 0};
        float lengths[2] = {999999, 999999};
        for (int j = 0; j < 6; ++j) {
            const Vec3 d = v[kEdges[j][0]].position - v[kEdges[j][1]].position;
            const float l = dot(d, d);
            if (l < lengths[0]) {
                nums[1] = nums[0], lengths[1] = lengths[0];
                nums[0] = j, lengths[0] = l;
            } else if (l < lengths[1]) {
                nums[1] = j, lengths[1] = l;
            }
        }
        Vec3 mid[2];
        for (int j = 0; j < 2; ++j)
            mid[j] = (v[kEdges[nums[j]][0]].position + v[kEdges[nums[j]][1]].position) * 0.5f;
        const Vec3 minor = normalize(cross(mid[1] - mid[0], view.forward));
        for (int j = 0; j < 2; ++j) {
            const uint32_t a = uint32_t(4 * q) + uint32_t(kEdges[nums[j]][0]);
            const uint32_t b = uint32_t(4 * q) + uint32_t(kEdges[nums[j]][1]);
            const float l = 0.5f * std::sqrt(lengths[j]);
            int k = 0;
            while (k < 5 && !(idx[k] == a && idx[k + 1] == b)) ++k;
            const float side = k == 5 ? 1.0f : -1.0f;
            verts[a].position = mid[j] + minor * (side * l);
            verts[b].position = mid[j] - minor * (side * l);
        }
    }
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
            case Deform::Kind::Normal:
                for (DrawVertex& v : verts) {
                    const Vec3 p = v.position * 0.98f;
                    const double t = double(time) * double(d.wave.frequency);
                    const float a = d.wave.amplitude;
                    v.normal = normalize(v.normal + Vec3{a * engineNoise(p.x, p.y, p.z, t),
                                                         a * engineNoise(100 + p.x, p.y, p.z, t),
                                                         a * engineNoise(200 + p.x, p.y, p.z, t)});
                }
                break;
            case Deform::Kind::Bulge:
                for (DrawVertex& v : verts) {
                    const double angle = double(v.texUV.x) * d.bulgeWidth + double(time) * d.bulgeSpeed;
                    v.position = v.position + v.normal * (engineSine(angle / (2.0 * std::numbers::pi)) * d.bulgeHeight);
                }
                break;
            case Deform::Kind::Move: {
                const Vec3 offset = d.move * float(evalWave(d.wave, time));
                for (DrawVertex& v : verts) v.position = v.position + offset;
                break;
            }
            case Deform::Kind::Autosprite: autosprite(verts, tris, view); break;
            case Deform::Kind::Autosprite2: autosprite2(verts, tris, view); break;
        }
    }
    const uint32_t base = uint32_t(pool.size());
    pool.insert(pool.end(), verts.begin(), verts.end());
    for (uint32_t i : tris) triangles.push_back(base + i);
}

}  // namespace luxel
