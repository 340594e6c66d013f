// Lightmap texels as world points (see luxels.hpp).
#include "luxel/light/luxels.hpp"

#include "luxel/light/ericw_luxel_frame.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <optional>

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

// ericw-tools' walk onto coplanar neighbours (CalcPointNormal, Face_EdgeIndexSmoothed): the polygons' directed
// edges by their end points, to find the face across an edge.
using PointKey = std::array<uint32_t, 3>;
PointKey pointKey(Vec3 p) {
    PointKey k;
    std::memcpy(k.data(), &p, sizeof(k));
    return k;
}
struct EdgeKeyHash {
    size_t operator()(const std::pair<PointKey, PointKey>& k) const {
        uint64_t h = 0xcbf29ce484222325ull;
        for (uint32_t v : k.first) h = (h ^ v) * 0x100000001b3ull;
        for (uint32_t v : k.second) h = (h ^ v) * 0x100000001b3ull;
        return size_t(h);
    }
};
// The polygons' directed edges, and each polygon's unit normal (zero: degenerate) and centroid.
struct EdgeMap {
    std::unordered_map<std::pair<PointKey, PointKey>, std::vector<uint32_t>, EdgeKeyHash> edges;
    std::vector<Vec3> normal, centroid;
};

EdgeMap polygonEdges(const Geometry& g) {
    EdgeMap m;
    m.normal.resize(g.surfaces.size());
    m.centroid.resize(g.surfaces.size());
    for (uint32_t s = 0; s < g.surfaces.size(); ++s) {
        const DrawSurface& d = g.surfaces[s];
        if (d.shading == SurfaceShading::Hidden || d.numVertices < 3) continue;
        Vec3 n, c;
        const Vec3 first = g.vertices[d.firstVertex].position;
        float largest = -1;
        for (uint32_t k = 0; k < d.numVertices; ++k) {
            const Vec3 a = g.vertices[d.firstVertex + k].position, b = g.vertices[d.firstVertex + (k + 1) % d.numVertices].position;
            m.edges[{pointKey(a), pointKey(b)}].push_back(s);
            // ericw-tools' FaceNormal: the normal of the fan's largest triangle (a sliver's folded corners
            // would cancel in a sum), none when that is under 0.0001 square units.
            if (k >= 1 && k + 1 < d.numVertices) {
                const Vec3 cr = cross(b - first, a - first);
                const float area = 0.5f * length(cr);
                if (area > largest) largest = area, n = cr;
            }
            c += a;
        }
        if (!(largest >= 0.0001f)) n = {};
        m.normal[s] = length(n) > 0 ? normalize(n) : n;
        // On the side the surface faces (its vertex normals'), whichever way its polygon winds.
        if (dot(m.normal[s], g.vertices[d.firstVertex].normal) < 0) m.normal[s] = -m.normal[s];
        m.centroid[s] = c / float(d.numVertices);
    }
    return m;
}

// ericw-tools' sample points lie this far off their face (sampleOffPlaneDist); a walk onto a smoothed
// neighbour projects the lifted point onto the neighbour's plane.
constexpr float kEricwSampleLift = 1.0f;

struct Walked {
    uint32_t surface;
    Vec3 point;  // on the surface's plane
};

// What ericw-tools' CalcPointNormal makes of a texel centre outside its face.
struct WalkResult {
    enum Kind : uint8_t {
        NoNeighbour,  // no coplanar or smoothed face across the edge it lies past: snap to the face itself
        Sampled,      // a point on `walked.surface`: inside it, or snapped to its edge from within a texel
        TooFar,       // walked onto neighbours, but more than a texel from the last one: no sample (light's occluded)
    } kind = NoNeighbour;
    Walked walked{};
};

bool smoothedWith(const std::vector<std::vector<uint32_t>>* smoothed, uint32_t s, uint32_t other) {
    if (!smoothed || s >= smoothed->size()) return false;
    const std::vector<uint32_t>& v = (*smoothed)[s];
    return std::find(v.begin(), v.end(), other) != v.end();
}

// A face's lightmap (texel) coordinates of a point, from one of its triangles' corners and their texel
// coordinates: the point's barycentric weights in the triangle's plane (a point off it counts as projected).
struct TexelMap {
    Vec3 a, e1, e2;
    Vec2 ta, tb, tc;
    float d11 = 0, d12 = 0, d22 = 0, det = 0;
    TexelMap(Vec3 pa, Vec3 pb, Vec3 pc, Vec2 ua, Vec2 ub, Vec2 uc)
        : a(pa), e1(pb - pa), e2(pc - pa), ta(ua), tb(ub), tc(uc), d11(dot(e1, e1)), d12(dot(e1, e2)), d22(dot(e2, e2)),
          det(d11 * d22 - d12 * d12) {}
    Vec2 operator()(Vec3 q) const {
        const Vec3 r = q - a;
        const float r1 = dot(r, e1), r2 = dot(r, e2);
        const float v = det != 0 ? (d22 * r1 - d12 * r2) / det : 0, w = det != 0 ? (d11 * r2 - d12 * r1) / det : 0;
        return {ta.x + (tb.x - ta.x) * v + (tc.x - ta.x) * w, ta.y + (tb.y - ta.y) * v + (tc.y - ta.y) * w};
    }
};

// Where a texel centre outside surface `s` is sampled, as CalcPointNormal finds it: `p` (on s's plane) walks
// across the edge it lies least past the ends of into a coplanar or smoothed neighbour, at most three faces on;
// on a neighbour that does not hold it either, and with no face to walk on to, it snaps to that neighbour's
// nearest edge point when that lies within a texel of it (`texelOf` measures in the first face's lightmap),
// else it is no sample. On the first face with no neighbour to walk onto, the caller snaps (NoNeighbour).
WalkResult walkToNeighbour(const Geometry& g, const EdgeMap& edges, const std::vector<std::vector<uint32_t>>* smoothed,
                           uint32_t s, Vec3 p, int depth, const TexelMap& texelOf) {
    const DrawSurface& d = g.surfaces[s];
    const Vec3 n = edges.normal[s], centroid = edges.centroid[s];
    if (!(length(n) > 0)) return {};
    bool inside = true;
    int best = -1;
    float bestDist = 1e30f;
    for (uint32_t k = 0; k < d.numVertices; ++k) {
        const Vec3 a = g.vertices[d.firstVertex + k].position, b = g.vertices[d.firstVertex + (k + 1) % d.numVertices].position;
        const Vec3 e = b - a;
        const float len = length(e);
        if (!(len > 0)) continue;
        Vec3 in = normalize(cross(n, e));
        if (dot(in, centroid - a) < 0) in = in * -1.0f;
        if (dot(in, p - a) >= -0.01f) continue;  // POINT_EQUAL_EPSILON
        inside = false;
        const float t = dot(p - a, e) / (len * len);
        const float past = t < 0 ? -t * len : t > 1 ? t * len : 0;
        if (past < bestDist) bestDist = past, best = int(k);
    }
    if (inside) return depth > 0 ? WalkResult{WalkResult::Sampled, {s, p}} : WalkResult{};
    if (best >= 0 && depth < 3) {
        const Vec3 a = g.vertices[d.firstVertex + uint32_t(best)].position;
        const Vec3 b = g.vertices[d.firstVertex + (uint32_t(best) + 1) % d.numVertices].position;
        if (const auto it = edges.edges.find({pointKey(b), pointKey(a)}); it != edges.edges.end())
            for (uint32_t other : it->second) {
                if (other == s) continue;
                const DrawSurface& od = g.surfaces[other];
                const Vec3 on = edges.normal[other];
                // The same plane, facing the same way, or smoothed with s: then the lifted point projected onto
                // its plane. Whatever the neighbour makes of the point is the answer (light does not come back).
                const Vec3 corner = g.vertices[od.firstVertex].position;
                if (dot(on, n) >= 0.9999f && std::fabs(dot(n, corner - a)) <= 0.01f)
                    return walkToNeighbour(g, edges, smoothed, other, p, depth + 1, texelOf);
                if (!smoothedWith(smoothed, s, other) || !(length(on) > 0)) continue;
                const Vec3 lifted = p + n * kEricwSampleLift;
                return walkToNeighbour(g, edges, smoothed, other, lifted - on * dot(on, lifted - corner), depth + 1, texelOf);
            }
    }
    if (depth == 0) return {};
    // On a neighbour: the nearest point of its boundary (ClosestPointOnPolyBoundary), kept within a texel.
    Vec3 nearest = p;
    float nearestD2 = 1e30f;
    for (uint32_t k = 0; k < d.numVertices; ++k) {
        const Vec3 a = g.vertices[d.firstVertex + k].position, b = g.vertices[d.firstVertex + (k + 1) % d.numVertices].position;
        const Vec3 e = b - a;
        const float len2 = dot(e, e);
        const float t = len2 > 0 ? std::clamp(dot(p - a, e) / len2, 0.0f, 1.0f) : 0.0f;
        const Vec3 q = a + e * t;
        const float d2 = dot(q - p, q - p);
        if (d2 < nearestD2) nearestD2 = d2, nearest = q;
    }
    const Vec2 tp = texelOf(p), tq = texelOf(nearest);
    if ((tp.x - tq.x) * (tp.x - tq.x) + (tp.y - tq.y) * (tp.y - tq.y) <= 1.0f) return {WalkResult::Sampled, {s, nearest}};
    return {WalkResult::TooFar, {}};
}

// The luxels of one surface (see luxelCentres).
void surfaceLuxels(const World& w, const Geometry& g, uint32_t s, LuxelReach reach, const EdgeMap* edges,
                   const std::vector<std::vector<uint32_t>>* smoothed, std::vector<Luxel>& out, double& areaOut) {
    const DrawSurface& ds = g.surfaces[s];
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
    // EricwOneTexel's second pass: per texel not taken, the nearest point over all triangles.
    struct Nearest {
        float d2 = 1e30f;
        std::array<float, 3> w{};
        size_t first = 0;
        Vec3 normal;
    };
    std::vector<Nearest> nearest(reach == LuxelReach::EricwOneTexel ? taken.size() : 0);
    // ericw-tools places a Quake face's luxels by its texinfo's matrices (ericw_luxel_frame.hpp), not from the
    // triangles: the same bits, and no extrapolation off a sliver's triangle. A brush entity drawn moved takes
    // its move; one drawn turned keeps the triangles' points.
    std::optional<EricwLuxelFrame> frame;
    Vec3 moved;
    const auto& rect = w.surfaces[s].lightmapRect;
    if (reach == LuxelReach::EricwOneTexel && s < w.texinfoLuxels.size() && ds.numVertices > 0) {
        const uint32_t first = w.surfaces[s].firstVertex;
        if (first < w.vertices.size() && g.vertices[ds.firstVertex].normal == w.vertices[first].normal) {
            frame = ericwLuxelFrame(w.texinfoLuxels[s]);
            moved = g.vertices[ds.firstVertex].position - w.vertices[first].position;
        }
    }
    auto framePoint = [&](int x, int y) { return ericwLuxelOnPlane(*frame, float(x - rect[0]), float(y - rect[1])) + moved; };
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
            const Vec2 ta{a.lightmapUV.x * W, a.lightmapUV.y * H}, tb{b.lightmapUV.x * W, b.lightmapUV.y * H},
                tc{c.lightmapUV.x * W, c.lightmapUV.y * H};
            const float area = (tb.x - ta.x) * (tc.y - ta.y) - (tc.x - ta.x) * (tb.y - ta.y);
            if (!(std::fabs(area) > 1e-9f) || !std::isfinite(area)) continue;
            const float grow = pass == 0 ? 0.0f : reach == LuxelReach::EricwOneTexel ? 1.0f : 0.5f;
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
                    if (pass == 1 && reach == LuxelReach::EricwOneTexel) {
                        const std::array<float, 3> nw = nearestOnTriangle(centre, ta, tb, tc);
                        const Vec2 q{ta.x * nw[0] + tb.x * nw[1] + tc.x * nw[2], ta.y * nw[0] + tb.y * nw[1] + tc.y * nw[2]};
                        const float d2 = (q.x - centre.x) * (q.x - centre.x) + (q.y - centre.y) * (q.y - centre.y);
                        Nearest& best = nearest[size_t(y - by0) * bw + size_t(x - bx0)];
                        if (d2 <= 1.0f && d2 < best.d2) best = {d2, nw, i, n};
                        continue;
                    }
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
                    l.position = frame && pass == 0 ? framePoint(x, y) : a.position * wa + b.position * wb + c.position * wc;
                    // A hair toward the triangle's centre, for when the ray through the exact point (on, or a
                    // rounding error past, an edge of a curved patch) meets only the neighbouring triangle.
                    constexpr float kInset = 1e-3f;
                    const float third = 1.0f / 3.0f;
                    l.inset = a.position * (wa + (third - wa) * kInset) + b.position * (wb + (third - wb) * kInset) +
                              c.position * (wc + (third - wc) * kInset);
                    l.normal = frame && pass == 0 ? frame->plane.normal : n;
                    out.push_back(l);
                    isTaken = 1;
                }
        }
    }
    // A texel outside the polygon first walks onto coplanar neighbours, where light samples it in place.
    if (edges && reach == LuxelReach::EricwOneTexel && ds.numIndices >= 3) {
        const DrawVertex &a = g.vertices[g.indices[ds.firstIndex]], &b = g.vertices[g.indices[ds.firstIndex + 1]],
                         &c = g.vertices[g.indices[ds.firstIndex + 2]];
        const Vec2 ta{a.lightmapUV.x * W, a.lightmapUV.y * H}, tb{b.lightmapUV.x * W, b.lightmapUV.y * H},
            tc{c.lightmapUV.x * W, c.lightmapUV.y * H};
        const float area = (tb.x - ta.x) * (tc.y - ta.y) - (tc.x - ta.x) * (tb.y - ta.y);
        const Vec3 n = frame ? frame->plane.normal : triangleNormal(a, b, c);
        if (std::fabs(area) > 1e-9f && std::isfinite(area) && dot(n, n) > 0 && rect[2] > 0 && rect[3] > 0) {
            // light measures the snap onto a neighbour's edge in this face's own luxels.
            const TexelMap texelOf(a.position, b.position, c.position, ta, tb, tc);
            for (int y = std::max(by0, rect[1]); y <= std::min(by1, rect[1] + rect[3] - 1); ++y)
                for (int x = std::max(bx0, rect[0]); x <= std::min(bx1, rect[0] + rect[2] - 1); ++x) {
                    const size_t t = size_t(y - by0) * bw + size_t(x - bx0);
                    if (taken[t]) continue;
                    const Vec2 centre{float(x) + 0.5f, float(y) + 0.5f};
                    const float wa = ((tb.x - centre.x) * (tc.y - centre.y) - (tc.x - centre.x) * (tb.y - centre.y)) / area;
                    const float wb = ((tc.x - centre.x) * (ta.y - centre.y) - (ta.x - centre.x) * (tc.y - centre.y)) / area;
                    const float wc = 1.0f - wa - wb;
                    const Vec3 p = frame ? framePoint(x, y) : a.position * wa + b.position * wb + c.position * wc;
                    const WalkResult result = walkToNeighbour(g, *edges, smoothed, s, p, 0, texelOf);
                    if (result.kind == WalkResult::NoNeighbour) continue;
                    taken[t] = 1;  // sampled on a neighbour, or too far past it: not snapped to this face
                    if (result.kind == WalkResult::TooFar) continue;
                    const Walked& walked = result.walked;
                    Luxel l;
                    l.surface = s;
                    l.sampleSurface = walked.surface;
                    l.page = ds.lightmapPage;
                    l.x = x, l.y = y;
                    l.uv = {centre.x / W, centre.y / H};
                    l.position = l.inset = walked.point;
                    // A smoothed neighbour's own plane (a coplanar one's is n).
                    l.normal = dot(edges->normal[walked.surface], n) >= 0.9999f ? n : edges->normal[walked.surface];
                    out.push_back(l);
                }
        }
    }
    for (size_t t = 0; t < nearest.size(); ++t) {
        const Nearest& best = nearest[t];
        if (best.d2 > 1.0f || taken[t]) continue;
        const DrawVertex &a = g.vertices[g.indices[best.first]], &b = g.vertices[g.indices[best.first + 1]],
                         &c = g.vertices[g.indices[best.first + 2]];
        const auto [wa, wb, wc] = best.w;
        Luxel l;
        l.surface = l.sampleSurface = s;
        l.page = ds.lightmapPage;
        l.x = bx0 + int(t % bw);
        l.y = by0 + int(t / bw);
        l.uv = {(a.lightmapUV.x * wa + b.lightmapUV.x * wb + c.lightmapUV.x * wc),
                (a.lightmapUV.y * wa + b.lightmapUV.y * wb + c.lightmapUV.y * wc)};
        l.position = a.position * wa + b.position * wb + c.position * wc;
        constexpr float kInset = 1e-3f;
        const float third = 1.0f / 3.0f;
        l.inset = a.position * (wa + (third - wa) * kInset) + b.position * (wb + (third - wb) * kInset) +
                  c.position * (wc + (third - wc) * kInset);
        l.normal = best.normal;
        out.push_back(l);
    }
}

}  // namespace

std::vector<Luxel> luxelCentres(const World& w, const Geometry& g, std::vector<double>* areas, LuxelReach reach,
                                const std::vector<std::vector<uint32_t>>* smoothed) {
    std::vector<std::vector<Luxel>> perSurface(g.surfaces.size());
    std::vector<double> area(g.surfaces.size(), 0.0);
    const std::optional<EdgeMap> edges = reach == LuxelReach::EricwOneTexel ? std::optional<EdgeMap>(polygonEdges(g)) : std::nullopt;
    tbb::parallel_for(tbb::blocked_range<size_t>(0, g.surfaces.size(), 16), [&](const tbb::blocked_range<size_t>& r) {
        for (size_t s = r.begin(); s != r.end(); ++s) surfaceLuxels(w, g, uint32_t(s), reach, edges ? &*edges : nullptr, smoothed, perSurface[s], area[s]);
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
