// Patch surfaces cut into light emitters the way q3map2 does it for surface lights: the LOD group's longest
// curve (patch.cpp ExpandLongestCurve, PatchMapDrawSurfs / GrowGroup_r) gives the subdivision iterations
// (mesh.cpp IterationsForCurve), the control mesh is split (SubdivideMesh2), put on the curve
// (PutMeshOnCurve), stripped of linear rows and columns (RemoveLinearMeshColumnsRows) and walked in quads
// (light_bounce.cpp RadLightForPatch).
#include <algorithm>
#include <cmath>

#include "light_parts.hpp"

namespace luxel::q3light {

namespace {

constexpr int kMaxExpandedAxis = 128;  // MAX_EXPANDED_AXIS

struct MeshVert {
    Vec3 p, n;
};

// A mesh of up to kMaxExpandedAxis x kMaxExpandedAxis vertices, row r (height) and column c (width).
struct Mesh {
    int width = 0, height = 0;
    std::vector<MeshVert> v = std::vector<MeshVert>(size_t(kMaxExpandedAxis) * kMaxExpandedAxis);
    MeshVert& at(int r, int c) { return v[size_t(r) * kMaxExpandedAxis + size_t(c)]; }
};

// LerpDrawVert: the midpoint, the normals' sum normalised (a's normal when it vanishes).
MeshVert lerpHalf(const MeshVert& a, const MeshVert& b) {
    MeshVert out;
    out.p = (a.p + b.p) * 0.5f;
    const Vec3 n = a.n + b.n;
    out.n = length(n) == 0 ? a.n : normalize(n);
    return out;
}

// ExpandLongestCurve: the length of the (coarse, 8-step) curve through a, b, c when it is not straight.
void expandLongestCurve(float& longest, Vec3 a, Vec3 b, Vec3 c) {
    if (length(b - a) < 0.125f || length(c - b) < 0.125f || length(c - a) < 0.125f) return;
    const Vec3 ab = normalize(b - a), bc = normalize(c - b), ac = normalize(c - a);
    if (dot(ab, bc) > 0.99f && dot(ab, ac) > 0.99f) return;  // "this edge is linear"
    const Vec3 d0 = b - a, d1 = c - b;
    Vec3 last = a;
    float len = 0, t = 0;
    for (int i = 0; i < 8; ++i, t += 1.0f / 8.0f) {
        const Vec3 pt = a + (d0 * (1.0f - t) + d1 * t);
        len += length(pt - last);
        last = pt;
    }
    longest = std::max(longest, len);
}

float longestCurve(const std::vector<Vec3>& p, int w, int h) {
    float longest = 0;
    auto at = [&](int r, int c) { return p[size_t(r) * size_t(w) + size_t(c)]; };
    for (int c = 0; c + 2 < w; c += 2)
        for (int r = 0; r + 2 < h; r += 2) {
            expandLongestCurve(longest, at(r, c), at(r, c + 1), at(r, c + 2));  // row
            expandLongestCurve(longest, at(r, c), at(r + 1, c), at(r + 2, c));  // column
        }
    return longest;
}

int iterationsForCurve(float len, int subdivisions) {
    int it = 0;
    for (; it < 3; ++it) {
        const int facets = int(double(subdivisions) * 16 * std::pow(2.0, it));
        if (float(facets) >= len) break;
    }
    return it;
}

// ProjectPointOntoVector's distance: how far `p` is from the line through a and b.
float offLine(Vec3 p, Vec3 a, Vec3 b) {
    const Vec3 dir = normalize(b - a);
    return length(p - (a + dir * dot(p - a, dir)));
}

}  // namespace

std::vector<int> patchIterations(const World& world, int patchSubdivisions, Notes& notes) {
    std::vector<int> out(world.surfaces.size(), 0);
    for (const Model& model : world.models) {
        std::vector<size_t> patches;
        for (uint32_t k = 0; k < model.numSurfaces; ++k) {
            const size_t i = size_t(model.firstSurface) + k;
            if (i >= world.surfaces.size()) break;
            const Surface& s = world.surfaces[i];
            if (s.kind == SurfaceKind::Patch && s.firstVertex + uint64_t(s.numVertices) <= world.vertices.size() &&
                uint64_t(s.patchWidth) * uint64_t(s.patchHeight) == s.numVertices)
                patches.push_back(i);
        }
        const size_t n = patches.size();
        std::vector<float> curve(n);
        std::vector<Bounds> bounds(n);
        for (size_t a = 0; a < n; ++a) {
            const Surface& s = world.surfaces[patches[a]];
            std::vector<Vec3> p;
            for (uint32_t v = 0; v < s.numVertices; ++v) {
                p.push_back(world.vertices[s.firstVertex + v].position);
                bounds[a].grow(p.back());
            }
            curve[a] = longestCurve(p, s.patchWidth, s.patchHeight);
        }
        // LOD groups: patches sharing a control point within 1 unit on every axis, transitively, take the
        // longest curve among them.
        std::vector<size_t> group(n);
        for (size_t a = 0; a < n; ++a) group[a] = a;
        auto root = [&](size_t a) {
            while (group[a] != a) a = group[a] = group[group[a]];
            return a;
        };
        if (n > 8192) notes.add("more than 8192 patches in one model: patch LOD groups not joined");
        for (size_t a = 0; a < n && n <= 8192; ++a)
            for (size_t b = a + 1; b < n; ++b) {
                if (root(a) == root(b)) continue;
                const Bounds& x = bounds[a];
                const Bounds& y = bounds[b];
                if (x.mins.x > y.maxs.x + 1 || y.mins.x > x.maxs.x + 1 || x.mins.y > y.maxs.y + 1 ||
                    y.mins.y > x.maxs.y + 1 || x.mins.z > y.maxs.z + 1 || y.mins.z > x.maxs.z + 1)
                    continue;
                const Surface& sa = world.surfaces[patches[a]];
                const Surface& sb = world.surfaces[patches[b]];
                bool touch = false;
                for (uint32_t i = 0; i < sa.numVertices && !touch; ++i) {
                    const Vec3 p = world.vertices[sa.firstVertex + i].position;
                    for (uint32_t j = 0; j < sb.numVertices && !touch; ++j) {
                        const Vec3 q = world.vertices[sb.firstVertex + j].position;
                        touch = std::fabs(p.x - q.x) < 1 && std::fabs(p.y - q.y) < 1 && std::fabs(p.z - q.z) < 1;
                    }
                }
                if (touch) group[root(a)] = root(b);
            }
        std::vector<float> groupCurve(n, 0);
        for (size_t a = 0; a < n; ++a) groupCurve[root(a)] = std::max(groupCurve[root(a)], curve[a]);
        for (size_t a = 0; a < n; ++a) out[patches[a]] = iterationsForCurve(groupCurve[root(a)], patchSubdivisions);
    }
    return out;
}

std::vector<Piece> patchPieces(const std::vector<Vec3>& points, const std::vector<Vec3>& normals, int width,
                               int height, int iterations) {
    std::vector<Piece> out;
    if (width < 2 || height < 2 || width > kMaxExpandedAxis || height > kMaxExpandedAxis ||
        points.size() != size_t(width) * size_t(height) || normals.size() != points.size())
        return out;
    Mesh m;
    m.width = width;
    m.height = height;
    for (int r = 0; r < height; ++r)
        for (int c = 0; c < width; ++c) m.at(r, c) = {points[size_t(r * width + c)], normals[size_t(r * width + c)]};

    // SubdivideMesh2: each iteration halves every quadratic span across, then down.
    for (; iterations > 0; --iterations) {
        for (int j = 0; j + 2 < m.width; j += 4) {
            if (m.width + 2 >= kMaxExpandedAxis) break;
            m.width += 2;
            for (int r = 0; r < m.height; ++r) {
                for (int k = m.width - 1; k > j + 3; --k) m.at(r, k) = m.at(r, k - 2);
                m.at(r, j + 3) = lerpHalf(m.at(r, j + 1), m.at(r, j + 2));
                m.at(r, j + 1) = lerpHalf(m.at(r, j), m.at(r, j + 1));
                m.at(r, j + 2) = lerpHalf(m.at(r, j + 1), m.at(r, j + 3));
            }
        }
        for (int j = 0; j + 2 < m.height; j += 4) {
            if (m.height + 2 >= kMaxExpandedAxis) break;
            m.height += 2;
            for (int c = 0; c < m.width; ++c) {
                for (int k = m.height - 1; k > j + 3; --k) m.at(k, c) = m.at(k - 2, c);
                m.at(j + 3, c) = lerpHalf(m.at(j + 1, c), m.at(j + 2, c));
                m.at(j + 1, c) = lerpHalf(m.at(j, c), m.at(j + 1, c));
                m.at(j + 2, c) = lerpHalf(m.at(j + 1, c), m.at(j + 3, c));
            }
        }
    }
    // PutMeshOnCurve: odd rows, then odd columns, each (prev + 2 mid + next) / 4, in place.
    for (int c = 0; c < m.width; ++c)
        for (int r = 1; r + 1 < m.height; r += 2)
            m.at(r, c).p = (m.at(r - 1, c).p + m.at(r, c).p * 2 + m.at(r + 1, c).p) * 0.25f;
    for (int r = 0; r < m.height; ++r)
        for (int c = 1; c + 1 < m.width; c += 2)
            m.at(r, c).p = (m.at(r, c - 1).p + m.at(r, c).p * 2 + m.at(r, c + 1).p) * 0.25f;
    // RemoveLinearMeshColumnsRows: a column (then row) whose every point lies within 0.1 of the line through
    // its neighbours goes.
    for (int j = 1; j < m.width - 1; ++j) {
        double most = 0;
        for (int r = 0; r < m.height; ++r)
            most = std::max(most, double(offLine(m.at(r, j).p, m.at(r, j - 1).p, m.at(r, j + 1).p)));
        if (most < 0.1) {
            --m.width;
            for (int r = 0; r < m.height; ++r)
                for (int k = j; k < m.width; ++k) m.at(r, k) = m.at(r, k + 1);
            --j;
        }
    }
    for (int j = 1; j < m.height - 1; ++j) {
        double most = 0;
        for (int c = 0; c < m.width; ++c)
            most = std::max(most, double(offLine(m.at(j, c).p, m.at(j - 1, c).p, m.at(j + 1, c).p)));
        if (most < 0.1) {
            --m.height;
            for (int c = 0; c < m.width; ++c)
                for (int k = j; k < m.height; ++k) m.at(k, c) = m.at(k + 1, c);
            --j;
        }
    }
    // The quads, their diagonal alternating by (x + y) & 1. q3map2 tests flatness on a point of its own plane,
    // so every quad whose first three corners span a plane is one 4-point emitter; otherwise its fallback
    // builds the same degenerate triangle twice, which has no area: nothing.
    for (int y = 0; y + 1 < m.height; ++y)
        for (int x = 0; x + 1 < m.width; ++x) {
            const MeshVert* ring[5] = {&m.at(y, x), &m.at(y + 1, x), &m.at(y + 1, x + 1), &m.at(y, x + 1), &m.at(y, x)};
            const int r = (x + y) & 1;
            const MeshVert* dv[4] = {ring[r], ring[r + 1], ring[r + 2], ring[r + 3]};
            const Vec3 n = cross(dv[2]->p - dv[0]->p, dv[1]->p - dv[0]->p);
            if (length(n) == 0) continue;
            Piece piece;
            for (const MeshVert* v : dv) piece.points.push_back(v->p), piece.normals.push_back(v->n);
            out.push_back(std::move(piece));
        }
    return out;
}

}  // namespace luxel::q3light
