// Brush faces for the shadow tracer (see brush_faces.hpp). Windings are clipped in double precision: a base
// winding spans the whole world (+-2^17 units), and float clipping of it leaves errors near a unit.
#include "luxel/geometry/brush_faces.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace luxel {

namespace {

using D3 = DVec3;
D3 normalized(D3 a) {
    const double l = std::sqrt(dot(a, a));
    return l > 0 ? a * (1.0 / l) : a;
}

// Past every map's coordinates (Quake 3 and Source worlds end within +-2^16).
constexpr double kBaseSize = 131072.0;
// Past this a face point is on the base winding's edge: its brush is not closed.
constexpr float kWorldLimit = 98304.0f;
// Points this close to a clipping plane count as on it (the compilers' ON_EPSILON is 0.01 or 0.1).
constexpr double kOnEpsilon = 0.01;

// A square on the plane, kBaseSize from the plane's point nearest the origin (BaseWindingForPlane).
std::vector<D3> baseWinding(D3 normal, double dist) {
    const double ax = std::abs(normal.x), ay = std::abs(normal.y), az = std::abs(normal.z);
    const D3 up = az >= ax && az >= ay ? D3{1, 0, 0} : D3{0, 0, 1};
    const D3 v = normalized(up - normal * dot(up, normal));
    const D3 r = cross(v, normal);
    const D3 o = normal * dist;
    return {o - r * kBaseSize + v * kBaseSize, o + r * kBaseSize + v * kBaseSize, o + r * kBaseSize - v * kBaseSize,
            o - r * kBaseSize - v * kBaseSize};
}

// Keeps the part of the winding behind the plane (dot(n, p) <= dist), the inside of a brush side.
void clipBehind(std::vector<D3>& w, D3 normal, double dist, std::vector<D3>& scratch) {
    scratch.clear();
    const size_t n = w.size();
    for (size_t i = 0; i < n; ++i) {
        const D3 a = w[i], b = w[(i + 1) % n];
        const double da = dot(a, normal) - dist, db = dot(b, normal) - dist;
        if (da <= kOnEpsilon) scratch.push_back(a);
        if ((da < -kOnEpsilon && db > kOnEpsilon) || (da > kOnEpsilon && db < -kOnEpsilon))
            scratch.push_back(a + (b - a) * (da / (da - db)));
    }
    w.swap(scratch);
}

double area(const std::vector<D3>& w) {
    D3 sum{0, 0, 0};
    for (size_t i = 2; i < w.size(); ++i) sum = sum + cross(w[i - 1] - w[0], w[i] - w[0]);
    return 0.5 * std::sqrt(dot(sum, sum));
}

}  // namespace

std::vector<Vec3> brushFace(const std::vector<BrushSide>& sides, size_t self) {
    const BrushSide& s = sides[self];
    const D3 n = normalized({s.plane.normal.x, s.plane.normal.y, s.plane.normal.z});
    if (s.bevel || s.noFace || dot(n, n) == 0) return {};
    std::vector<D3> w = baseWinding(n, double(s.plane.dist)), scratch;
    for (size_t j = 0; j < sides.size() && w.size() >= 3; ++j) {
        if (j == self || sides[j].bevel) continue;
        const Plane& p = sides[j].plane;
        const D3 pn = normalized({p.normal.x, p.normal.y, p.normal.z});
        // The same plane again (a duplicated side) would clip the face to nothing: the first one keeps it.
        if (dot(pn, n) > 0.999999 && std::abs(double(p.dist) - double(s.plane.dist)) < kOnEpsilon) {
            if (j < self) return {};
            continue;
        }
        clipBehind(w, pn, double(p.dist), scratch);
    }
    if (w.size() < 3 || area(w) < 0.01) return {};
    std::vector<Vec3> out;
    out.reserve(w.size());
    for (const D3& p : w) out.push_back({float(p.x), float(p.y), float(p.z)});
    return out;
}

BrushFaces brushFaces(const World& world) {
    BrushFaces out;
    std::vector<BrushSide> sides;
    std::vector<std::vector<Vec3>> faces(kMaxBrushSides);
    for (const Brush& b : world.brushes) {
        if (size_t(b.firstSide) + b.numSides > world.brushSides.size() || b.numSides > kMaxBrushSides) continue;
        sides.assign(world.brushSides.begin() + b.firstSide, world.brushSides.begin() + b.firstSide + b.numSides);
        bool bounded = true;
        for (size_t i = 0; i < sides.size() && bounded; ++i) {
            faces[i] = brushFace(sides, i);
            for (const Vec3& p : faces[i])
                bounded = bounded && std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)}) < kWorldLimit;
        }
        // A brush open to one side (too few sides to close it: malformed) has faces reaching the base
        // winding's edge; it is left out rather than shadowing half the world.
        if (!bounded) continue;
        for (size_t i = 0; i < sides.size(); ++i) {
            const std::vector<Vec3>& face = faces[i];
            if (face.empty()) continue;
            const uint32_t base = uint32_t(out.vertices.size());
            out.vertices.insert(out.vertices.end(), face.begin(), face.end());
            for (uint32_t k = 2; k < face.size(); ++k) {
                out.indices.insert(out.indices.end(), {base, base + k - 1, base + k});
                out.sky.push_back(sides[i].sky ? 1 : 0);
            }
        }
    }
    return out;
}

}  // namespace luxel
