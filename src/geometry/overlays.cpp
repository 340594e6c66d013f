#include "luxel/geometry/overlays.hpp"

#include <algorithm>
#include <cmath>

#include "luxel/geometry/leaf_lists.hpp"

namespace luxel {
namespace {

constexpr float kClipEpsilon = 0.0001f;        // DoClipFragment's OVERLAY_EPSILON
constexpr float kOffFace = 0.1f;               // OVERLAY_AVOID_FLICKER_NORMAL_OFFSET
constexpr float kMinTriangleArea = 1.0f;       // Surf_CreateFragments skips smaller fan triangles
constexpr size_t kMaxFragmentCorners = 128;    // DoClipFragment's arrays; a triangle clips a quad to 7 at most

inline float cross2(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

struct Corner {
    Vec3 p;  // on the overlay plane
};

// The part of `poly` behind plane (n, d) (dot(n, p) - d < ε), as DoClipFragment keeps its back fragment: points
// on the plane stay, edges crossing it are split; nothing when no point is behind.
std::vector<Corner> clipBehind(const std::vector<Corner>& poly, Vec3 n, float d) {
    std::vector<float> dist(poly.size());
    std::vector<int> side(poly.size());  // 1 front, -1 back, 0 on
    int front = 0, back = 0;
    for (size_t i = 0; i < poly.size(); ++i) {
        dist[i] = dot(n, poly[i].p) - d;
        side[i] = dist[i] > kClipEpsilon ? 1 : dist[i] < -kClipEpsilon ? -1 : 0;
        front += side[i] == 1, back += side[i] == -1;
    }
    if (!front) return poly;
    if (!back) return {};
    std::vector<Corner> out;
    for (size_t i = 0; i < poly.size(); ++i) {
        const size_t j = (i + 1) % poly.size();
        if (side[i] <= 0) out.push_back(poly[i]);
        if (side[i] == 0 || side[j] == 0 || side[j] == side[i]) continue;
        const float f = dist[i] / (dist[i] - dist[j]);
        out.push_back({poly[i].p + (poly[j].p - poly[i].p) * f});
    }
    return out;
}

// Per face: the leaves that list it.
std::vector<std::vector<uint32_t>> leavesOfSurfaces(const World& world) {
    std::vector<std::vector<uint32_t>> out(world.surfaces.size());
    for (size_t l = 0; l < world.leaves.size(); ++l) {
        const Leaf& leaf = world.leaves[l];
        const size_t first = std::min<size_t>(leaf.firstLeafSurface, world.leafSurfaces.size());
        const size_t last = std::min<size_t>(first + leaf.numLeafSurfaces, world.leafSurfaces.size());
        for (size_t k = first; k < last; ++k)
            if (world.leafSurfaces[k] < out.size()) out[world.leafSurfaces[k]].push_back(uint32_t(l));
    }
    return out;
}

// Barycentric weights of p (on the triangle's plane) in triangle a b c; (1, 0, 0) for a degenerate one.
Vec3 barycentric(Vec3 a, Vec3 b, Vec3 c, Vec3 p) {
    const Vec3 n = cross(b - a, c - a);
    const float area2 = dot(n, n);
    if (!(area2 > 0)) return {1, 0, 0};
    const float wb = dot(cross(p - a, c - a), n) / area2, wc = dot(cross(b - a, p - a), n) / area2;
    return {1 - wb - wc, wb, wc};
}

// One overlay's quad on its plane, and the leaf lists fragments go to.
struct OverlayFrame {
    const Overlay& o;
    std::array<Vec3, 4> quad;
    std::array<Vec2, 4> quad2;  // the corners in basis units
    float uLen2 = 0, vLen2 = 0;
};

struct FragmentTarget {
    uint32_t surface;           // the face the fragment lies on (material of the look, lightmap, leaves)
    Vec3 normal;                // the plane the fragment lies on: the face's, or a displacement triangle's
    float dist = 0;
};

// The overlay clipped to triangle a b c (projected on the overlay plane), moved along the overlay normal onto the
// target's plane and 0.1 unit off it; appended as a Polygon surface listed by the face's leaves. False when
// nothing of the overlay covers the triangle.
bool addFragment(World& world, const OverlayFrame& f, const FragmentTarget& target, const Vertex& a, const Vertex& b,
                 const Vertex& c, const std::vector<uint32_t>& leaves, std::vector<std::vector<uint32_t>>& surfacesOfLeaf) {
    const Overlay& o = f.o;
    const Vec3 n = o.normal;
    Vec3 tri[3];
    for (int k = 0; k < 3; ++k) {
        const Vec3 p = (k == 0 ? a : k == 1 ? b : c).position;
        tri[k] = p - n * dot(n, p - o.origin);
    }
    std::vector<Corner> poly = {{f.quad[0]}, {f.quad[1]}, {f.quad[2]}, {f.quad[3]}};
    for (int k = 0; k < 3 && !poly.empty() && poly.size() <= kMaxFragmentCorners; ++k) {
        Vec3 pn = cross(n, normalize(tri[(k + 1) % 3] - tri[k]));
        float pd = dot(pn, tri[k]);
        if (dot(pn, tri[(k + 2) % 3]) - pd > 0) pn = pn * -1.0f, pd = -pd;
        poly = clipBehind(poly, pn, pd);
    }
    if (poly.size() < 3) return false;
    const Surface face = world.surfaces[target.surface];  // a copy: surfaces grows below
    Surface frag;
    frag.kind = SurfaceKind::Polygon;
    frag.material = o.material;
    frag.lightmapPage = face.lightmapPage;
    frag.styles = face.styles;
    frag.lightmapRect = face.lightmapRect;
    frag.normal = target.normal;
    frag.firstVertex = uint32_t(world.vertices.size());
    frag.numVertices = uint32_t(poly.size());
    frag.firstIndex = uint32_t(world.indices.size());
    frag.numIndices = uint32_t(poly.size() - 2) * 3;
    const float denom = dot(target.normal, n);
    for (const Corner& corner : poly) {
        const Vec3 rel = corner.p - o.origin;
        const Vec2 at{dot(rel, o.basisU) / f.uLen2, dot(rel, o.basisV) / f.vLen2};
        const Vec2 st = quadCoordinate(f.quad2[0], f.quad2[3], f.quad2[2], f.quad2[1], at);
        const float toFace = dot(target.normal, corner.p) - target.dist;
        const Vec3 onFace = corner.p - n * (denom != 0 ? toFace / denom : toFace);
        const Vec3 w = barycentric(a.position, b.position, c.position, onFace);
        Vertex v;
        v.position = onFace + target.normal * kOffFace;
        v.normal = target.normal;
        v.texUV = {o.u.x + st.x * (o.u.y - o.u.x), o.v.x + st.y * (o.v.y - o.v.x)};
        v.lightmapUV = a.lightmapUV * w.x + b.lightmapUV * w.y + c.lightmapUV * w.z;
        v.color = a.color;
        world.vertices.push_back(v);
    }
    // Wound like the face: reversed when the fragment's right-handed normal disagrees with the triangle (a, b, c).
    const Vec3 p0 = world.vertices[frag.firstVertex].position, p1 = world.vertices[frag.firstVertex + 1].position,
               p2 = world.vertices[frag.firstVertex + 2].position;
    const bool flip = dot(cross(p1 - p0, p2 - p0), cross(b.position - a.position, c.position - a.position)) < 0;
    for (uint32_t k = 0; k + 2 < frag.numVertices; ++k)
        for (uint32_t idx : {0u, k + 1, k + 2}) world.indices.push_back(flip ? (idx == 0 ? 0 : frag.numVertices - idx) : idx);
    const uint32_t id = uint32_t(world.surfaces.size());
    world.surfaces.push_back(frag);
    for (uint32_t leaf : leaves) surfacesOfLeaf[leaf].push_back(id);
    return true;
}

}  // namespace

Vec2 quadCoordinate(Vec2 a, Vec2 b, Vec2 c, Vec2 d, Vec2 p) {
    // p = a + s e + t f + s t g (Inigo Quilez's inverse bilinear map), the root inside the quad.
    const Vec2 e = b - a, f = d - a, g = a - b + c - d, h = p - a;
    const float k2 = cross2(g, f), k1 = cross2(e, f) + cross2(h, g), k0 = cross2(h, e);
    auto sFor = [&](float t) {
        const Vec2 axis = e + g * t, rest = h - f * t;
        const float len2 = axis.x * axis.x + axis.y * axis.y;
        return len2 > 0 ? (rest.x * axis.x + rest.y * axis.y) / len2 : 0.0f;
    };
    if (std::abs(k2) < 1e-6f * std::max(1.0f, std::abs(k1))) {  // a parallelogram: linear
        const float t = k1 != 0 ? -k0 / k1 : 0.0f;
        return {sFor(t), t};
    }
    const float w = std::sqrt(std::max(0.0f, k1 * k1 - 4 * k0 * k2));
    float t = (-k1 - w) / (2 * k2);
    float s = sFor(t);
    if (s < 0 || s > 1 || t < 0 || t > 1) {
        t = (-k1 + w) / (2 * k2);
        s = sFor(t);
    }
    return {s, t};
}

OverlaysPlaced placeOverlays(World& world) {
    OverlaysPlaced placed;
    if (world.overlays.empty()) return placed;
    const std::vector<std::vector<uint32_t>> leavesOf = leavesOfSurfaces(world);
    std::vector<std::vector<uint32_t>> surfacesOfLeaf(world.leaves.size());
    const size_t faces = world.surfaces.size();
    for (const Overlay& o : world.overlays) {
        OverlayFrame frame{o, {}, {}, dot(o.basisU, o.basisU), dot(o.basisV, o.basisV)};
        for (size_t k = 0; k < 4; ++k) {
            frame.quad[k] = o.origin + o.basisU * o.points[k].x + o.basisV * o.points[k].y;
            frame.quad2[k] = o.points[k];
        }
        size_t fragments = 0;
        for (uint32_t s : o.surfaces) {
            if (s >= faces) continue;
            const Surface face = world.surfaces[s];
            if (face.numVertices < 3 || uint64_t(face.firstVertex) + face.numVertices > world.vertices.size()) continue;
            if (face.kind == SurfaceKind::Displacement) {
                // Every displaced triangle the overlay normal sees from the face's side, on its own plane.
                if (uint64_t(face.firstIndex) + face.numIndices > world.indices.size()) continue;
                const float side = dot(face.normal, o.normal);
                const size_t before = fragments;
                for (uint32_t t = 0; t + 2 < face.numIndices; t += 3) {
                    const uint32_t i0 = world.indices[face.firstIndex + t], i1 = world.indices[face.firstIndex + t + 1],
                                   i2 = world.indices[face.firstIndex + t + 2];
                    if (std::max({i0, i1, i2}) >= face.numVertices) continue;
                    const Vertex a = world.vertices[face.firstVertex + i0], b = world.vertices[face.firstVertex + i1],
                                 c = world.vertices[face.firstVertex + i2];
                    Vec3 tn = cross(b.position - a.position, c.position - a.position);
                    if (!(length(tn) > 0)) continue;
                    tn = normalize(tn);
                    if (dot(tn, face.normal) < 0) tn = tn * -1.0f;
                    if (!(dot(tn, o.normal) * side > 0)) continue;  // edge-on or turned away from the projection
                    fragments += addFragment(world, frame, {s, tn, dot(tn, a.position)}, a, b, c, leavesOf[s], surfacesOfLeaf);
                }
                placed.displacementFaces += fragments > before;
                continue;
            }
            if (face.kind != SurfaceKind::Polygon) continue;
            const FragmentTarget target{s, face.normal, dot(face.normal, world.vertices[face.firstVertex].position)};
            for (uint32_t t = 0; t + 2 < face.numVertices; ++t) {
                const Vertex a = world.vertices[face.firstVertex], b = world.vertices[face.firstVertex + t + 1],
                             c = world.vertices[face.firstVertex + t + 2];
                if (0.5f * length(cross(b.position - a.position, c.position - a.position)) <= kMinTriangleArea) continue;
                fragments += addFragment(world, frame, target, a, b, c, leavesOf[s], surfacesOfLeaf);
            }
        }
        placed.fragments += fragments;
        placed.overlays += fragments > 0;
    }
    appendLeafSurfaces(world, surfacesOfLeaf);
    return placed;
}

}  // namespace luxel
