// Lightmap texels as world points (see luxels.hpp).
#include "luxel/light/luxels.hpp"

#include "ericw_sample_points.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

namespace luxel {

Vec3 triangleNormal(const DrawVertex& a, const DrawVertex& b, const DrawVertex& c) {
    Vec3 n = cross(b.position - a.position, c.position - a.position);
    const float len = std::sqrt(dot(n, n));
    if (!(len > 0)) return {};
    n = n * (1.0f / len);
    // Winding differs between formats; the vertex normals say which side is the lit front.
    const Vec3 vn = a.normal + b.normal + c.normal;
    return dot(n, vn) < 0 ? n * -1.0f : n;
}

namespace {

// The point of triangle (a, b, c) nearest p, as barycentric weights (2D; Ericson, Real-Time Collision
// Detection 5.1.5).
std::array<float, 3> nearestOnTriangle(Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
    auto sub = [](Vec2 u, Vec2 v) { return Vec2{u.x - v.x, u.y - v.y}; };
    auto d2 = [](Vec2 u, Vec2 v) { return u.x * v.x + u.y * v.y; };
    const Vec2 ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
    const float d1 = d2(ab, ap), d2_ = d2(ac, ap);
    if (d1 <= 0 && d2_ <= 0) return {1, 0, 0};
    const Vec2 bp = sub(p, b);
    const float d3 = d2(ab, bp), d4 = d2(ac, bp);
    if (d3 >= 0 && d4 <= d3) return {0, 1, 0};
    const float vc = d1 * d4 - d3 * d2_;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        const float v = d1 / (d1 - d3);
        return {1 - v, v, 0};
    }
    const Vec2 cp = sub(p, c);
    const float d5 = d2(ab, cp), d6 = d2(ac, cp);
    if (d6 >= 0 && d5 <= d6) return {0, 0, 1};
    const float vb = d5 * d2_ - d1 * d6;
    if (vb <= 0 && d2_ >= 0 && d6 <= 0) {
        const float w = d2_ / (d2_ - d6);
        return {1 - w, 0, w};
    }
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return {0, 1 - w, w};
    }
    const float denom = 1.0f / (va + vb + vc);
    const float v = vb * denom, w = vc * denom;
    return {1 - v - w, v, w};
}

// The luxels of one surface (see luxelCentres).
void surfaceLuxels(const World& w, const Geometry& g, uint32_t s, LuxelReach reach, const EricwFaces* ericw,
                   std::vector<Luxel>& out, double& areaOut) {
    const DrawSurface& ds = g.surfaces[s];
    // ericw-tools' reach: light's own sample points (ericw_sample_points.hpp) for a face with a texinfo frame,
    // whether or not it is drawn with its lightmap (light lights Quake 2's sky and warp faces too).
    const bool sampledAsEricw = reach == LuxelReach::EricwCalcPoints && ericw && ericwSurfaceLuxels(w, *ericw, s, out);
    if (ds.shading != SurfaceShading::Lightmap) return;
    const LightmapPage* page = ds.lightmapPage >= 0 && size_t(ds.lightmapPage) < w.lightmaps.size()
                                   ? &w.lightmaps[size_t(ds.lightmapPage)] : nullptr;
    if (page && (page->width <= 0 || page->height <= 0)) page = nullptr;
    if (!page) return;
    const float W = float(page->width), H = float(page->height);
    // Texels already taken by this surface, over the box its lightmap coordinates span (plus a texel).
    float u0 = 1e30f, u1 = -1e30f, v0 = 1e30f, v1 = -1e30f;
    for (uint32_t k = 0; k < ds.numIndices && size_t(ds.firstIndex) + k < g.indices.size(); ++k) {
        const Vec2 uv = g.vertices[g.indices[size_t(ds.firstIndex) + k]].lightmapUV;
        u0 = std::min(u0, uv.x * W), u1 = std::max(u1, uv.x * W), v0 = std::min(v0, uv.y * H), v1 = std::max(v1, uv.y * H);
    }
    if (!(u0 <= u1 && v0 <= v1)) return;
    const int bx0 = std::max(0, int(std::floor(u0)) - 1), by0 = std::max(0, int(std::floor(v0)) - 1);
    const int bx1 = std::min(page->width - 1, int(std::ceil(u1)) + 1), by1 = std::min(page->height - 1, int(std::ceil(v1)) + 1);
    if (bx0 > bx1 || by0 > by1) return;
    const size_t bw = size_t(bx1 - bx0 + 1);
    std::vector<uint8_t> taken(bw * size_t(by1 - by0 + 1), 0);
    for (int pass = 0; pass < 2; ++pass) {
        for (uint32_t k = 0; k + 2 < ds.numIndices; k += 3) {
            const size_t i = size_t(ds.firstIndex) + k;
            if (i + 2 >= g.indices.size()) break;
            const DrawVertex &a = g.vertices[g.indices[i]], &b = g.vertices[g.indices[i + 1]],
                             &c = g.vertices[g.indices[i + 2]];
            const Vec3 n = triangleNormal(a, b, c);
            if (dot(n, n) == 0) continue;
            if (pass == 0) {
                const Vec3 cr = cross(b.position - a.position, c.position - a.position);
                areaOut += 0.5 * double(std::sqrt(dot(cr, cr)));
            }
            if (sampledAsEricw) continue;
            const Vec2 ta{a.lightmapUV.x * W, a.lightmapUV.y * H}, tb{b.lightmapUV.x * W, b.lightmapUV.y * H},
                tc{c.lightmapUV.x * W, c.lightmapUV.y * H};
            const float area = (tb.x - ta.x) * (tc.y - ta.y) - (tc.x - ta.x) * (tb.y - ta.y);
            if (!(std::fabs(area) > 1e-9f) || !std::isfinite(area)) continue;
            const float grow = pass == 0 ? 0.0f : 0.5f;
            const int x0 = std::max(bx0, int(std::floor(std::min({ta.x, tb.x, tc.x}) - grow)));
            const int x1 = std::min(bx1, int(std::ceil(std::max({ta.x, tb.x, tc.x}) + grow)));
            const int y0 = std::max(by0, int(std::floor(std::min({ta.y, tb.y, tc.y}) - grow)));
            const int y1 = std::min(by1, int(std::ceil(std::max({ta.y, tb.y, tc.y}) + grow)));
            constexpr float kEdge = -1e-4f;  // centres on a shared edge belong to both: `taken` dedups
            for (int y = y0; y <= y1; ++y)
                for (int x = x0; x <= x1; ++x) {
                    uint8_t& isTaken = taken[size_t(y - by0) * bw + size_t(x - bx0)];
                    if (isTaken) continue;
                    const Vec2 centre{float(x) + 0.5f, float(y) + 0.5f};
                    float wa = ((tb.x - centre.x) * (tc.y - centre.y) - (tc.x - centre.x) * (tb.y - centre.y)) / area;
                    float wb = ((tc.x - centre.x) * (ta.y - centre.y) - (ta.x - centre.x) * (tc.y - centre.y)) / area;
                    float wc = 1.0f - wa - wb;
                    const bool inside = wa >= kEdge && wb >= kEdge && wc >= kEdge;
                    if (pass == 0 && !inside) continue;
                    if (pass == 1) {
                        const std::array<float, 3> nw = nearestOnTriangle(centre, ta, tb, tc);
                        const Vec2 q{ta.x * nw[0] + tb.x * nw[1] + tc.x * nw[2], ta.y * nw[0] + tb.y * nw[1] + tc.y * nw[2]};
                        if (std::fabs(q.x - centre.x) > 0.5f || std::fabs(q.y - centre.y) > 0.5f) continue;
                        wa = nw[0], wb = nw[1], wc = nw[2];
                    }
                    Luxel l;
                    l.surface = l.sampleSurface = s;
                    l.page = ds.lightmapPage;
                    l.x = x;
                    l.y = y;
                    l.uv = {(ta.x * wa + tb.x * wb + tc.x * wc) / W, (ta.y * wa + tb.y * wb + tc.y * wc) / H};
                    l.position = a.position * wa + b.position * wb + c.position * wc;
                    // A hair toward the triangle's centre, for when the ray through the exact point (on, or a
                    // rounding error past, an edge of a curved patch) meets only the neighbouring triangle.
                    constexpr float kInset = 1e-3f;
                    const float third = 1.0f / 3.0f;
                    l.inset = a.position * (wa + (third - wa) * kInset) + b.position * (wb + (third - wb) * kInset) +
                              c.position * (wc + (third - wc) * kInset);
                    l.normal = n;
                    out.push_back(l);
                    isTaken = 1;
                }
        }
    }
}

}  // namespace

std::vector<Luxel> luxelCentres(const World& w, const Geometry& g, std::vector<double>* areas, LuxelReach reach,
                                const std::vector<std::vector<uint32_t>>* smoothed) {
    std::vector<std::vector<Luxel>> perSurface(g.surfaces.size());
    std::vector<double> area(g.surfaces.size(), 0.0);
    const std::shared_ptr<const EricwFaces> ericw = reach == LuxelReach::EricwCalcPoints ? ericwFaces(w, smoothed) : nullptr;
    tbb::parallel_for(tbb::blocked_range<size_t>(0, g.surfaces.size(), 16), [&](const tbb::blocked_range<size_t>& r) {
        for (size_t s = r.begin(); s != r.end(); ++s) surfaceLuxels(w, g, uint32_t(s), reach, ericw.get(), perSurface[s], area[s]);
    });
    size_t total = 0;
    for (const auto& v : perSurface) total += v.size();
    std::vector<Luxel> out;
    out.reserve(total);
    for (auto& v : perSurface) out.insert(out.end(), v.begin(), v.end());
    if (areas) *areas = std::move(area);
    return out;
}

}  // namespace luxel
