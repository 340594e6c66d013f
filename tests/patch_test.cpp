#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "luxel/geometry/patch.hpp"

using namespace luxel;

namespace {

// The analytic surface, in double: sum of B_a(v) B_b(u) P[a][b] with B = ((1-t)^2, 2t(1-t), t^2).
struct D3 {
    double x, y, z;
};

D3 bezier(const Vec3 ctrl[9], double u, double v) {
    const double bu[3] = {(1 - u) * (1 - u), 2 * u * (1 - u), u * u};
    const double bv[3] = {(1 - v) * (1 - v), 2 * v * (1 - v), v * v};
    D3 r{0, 0, 0};
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            const double w = bv[a] * bu[b];
            r.x += w * ctrl[a * 3 + b].x;
            r.y += w * ctrl[a * 3 + b].y;
            r.z += w * ctrl[a * 3 + b].z;
        }
    return r;
}

double dist(Vec3 p, D3 q) { return std::sqrt((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) + (p.z - q.z) * (p.z - q.z)); }

const Vec3 kCurved[9] = {{0, 0, 0},   {32, 0, 40},  {64, 0, 0},   //
                         {0, 32, 24}, {32, 32, -8}, {64, 32, 16},  //
                         {0, 64, 0},  {32, 64, 56}, {64, 64, 8}};

// A w x h control grid of Vertex with the given positions, normals +z, and attributes linear in the
// control indices (so the Bezier reproduces them as linear functions of the patch parameters).
std::vector<Vertex> controlGrid(int w, int h, Vec3 (*position)(int row, int col)) {
    std::vector<Vertex> v(size_t(w * h));
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) {
            Vertex& x = v[size_t(r * w + c)];
            x.position = position(r, c);
            x.normal = {0, 0, 1};
            x.lightmapUV = {0.125f + 0.0625f * float(c), 0.25f + 0.03125f * float(r)};
            x.texUV = {float(c) * 0.5f, float(r) * -0.25f};
            x.color = {0.5f, 0.25f, 1.0f, 1.0f};
        }
    return v;
}

// Rippled: curvature along both directions, different per piece.
Vec3 ripple(int r, int c) {
    return {float(c) * 16.0f, float(r) * 16.0f, (c % 2 ? 20.0f : 0.0f) + (r % 2 ? -12.0f : 0.0f) + float(c * r)};
}

PatchLevels levelsFor(const std::vector<Vertex>& ctrl, int w, int h, float tolerance, int maxLevel) {
    const PatchErrors e = patchErrors(ctrl.data(), w, h);
    PatchLevels l;
    for (float x : e.columns) l.columns.push_back(patchLevel(x, tolerance, maxLevel));
    for (float x : e.rows) l.rows.push_back(patchLevel(x, tolerance, maxLevel));
    return l;
}

}  // namespace

TEST_CASE("evalBiquadratic matches the Bernstein formula", "[geometry]") {
    for (int i = 0; i <= 16; ++i)
        for (int j = 0; j <= 16; ++j) {
            const float u = float(i) / 16.0f, v = float(j) / 16.0f;
            const Vec3 p = evalBiquadratic(kCurved, u, v);
            const D3 q = bezier(kCurved, u, v);
            REQUIRE(dist(p, q) < 1e-4);
        }
    // Corners are the corner control points, exactly.
    CHECK(evalBiquadratic(kCurved, 0, 0) == kCurved[0]);
    CHECK(evalBiquadratic(kCurved, 1, 0) == kCurved[2]);
    CHECK(evalBiquadratic(kCurved, 0, 1) == kCurved[6]);
    CHECK(evalBiquadratic(kCurved, 1, 1) == kCurved[8]);
    // Edge midpoints: (a + 2b + c) / 4 of the edge's control points, by hand.
    CHECK(evalBiquadratic(kCurved, 0.5f, 0) == Vec3{32, 0, 20});     // (0 + 80 + 0) / 4
    CHECK(evalBiquadratic(kCurved, 0, 0.5f) == Vec3{0, 32, 12});     // (0 + 48 + 0) / 4
    CHECK(evalBiquadratic(kCurved, 1, 0.5f) == Vec3{64, 32, 10});    // (0 + 32 + 8) / 4
    CHECK(evalBiquadratic(kCurved, 0.5f, 1) == Vec3{32, 64, 30});    // (0 + 112 + 8) / 4
    // Centre: weights 1/16, 2/16, 1/16 / 2/16, 4/16, 2/16 / 1/16, 2/16, 1/16.
    // z = (0 + 80 + 0 + 48 - 32 + 32 + 0 + 112 + 8) / 16 = 248 / 16
    CHECK(evalBiquadratic(kCurved, 0.5f, 0.5f) == Vec3{32, 32, 15.5f});
}

TEST_CASE("quadraticEdge gives bit-identical points both ways round", "[geometry]") {
    const Vec3 a{0.1f, 3.7f, -2.3f}, b{1.9f, 0.3f, 5.1f}, c{-4.4f, 2.2f, 0.7f};
    for (int n = 1; n <= 16; ++n)
        for (int k = 0; k <= n; ++k) {
            const Vec3 p = quadraticEdge(a, b, c, k, n), q = quadraticEdge(c, b, a, n - k, n);
            REQUIRE(std::memcmp(&p, &q, sizeof p) == 0);
            const double t = double(k) / n;
            const D3 want{(1 - t) * (1 - t) * a.x + 2 * t * (1 - t) * b.x + t * t * c.x,
                          (1 - t) * (1 - t) * a.y + 2 * t * (1 - t) * b.y + t * t * c.y,
                          (1 - t) * (1 - t) * a.z + 2 * t * (1 - t) * b.z + t * t * c.z};
            REQUIRE(dist(p, want) < 1e-5);
        }
    CHECK(quadraticEdge(a, b, c, 0, 4) == a);
    CHECK(quadraticEdge(a, b, c, 4, 4) == c);
}

TEST_CASE("patchErrors and patchLevel", "[geometry]") {
    // One curved row: (0,0,0) (1,0,2) (2,0,0): |a - 2b + c| / 4 = |(0,0,-4)| / 4 = 1.
    std::vector<Vertex> v(9);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) v[size_t(r * 3 + c)].position = {float(c), float(r), 0};
    v[1].position.z = 2;
    const PatchErrors e = patchErrors(v.data(), 3, 3);
    REQUIRE(e.columns.size() == 1);
    REQUIRE(e.rows.size() == 1);
    CHECK(e.columns[0] == 1.0f);
    // Control columns along v: the outer ones are straight; the middle one (1,0,2) (1,1,0) (1,2,0)
    // gives |(0,0,2)| / 4 = 0.5.
    CHECK(e.rows[0] == 0.5f);

    CHECK(patchLevel(0, 4, 16) == 1);
    CHECK(patchLevel(4, 4, 16) == 1);
    CHECK(patchLevel(16, 4, 16) == 2);   // sqrt(16 / 4) = 2
    CHECK(patchLevel(17, 4, 16) == 3);   // ceil(sqrt(4.25))
    CHECK(patchLevel(1e9f, 4, 16) == 16);
    CHECK(patchLevel(std::numeric_limits<float>::infinity(), 4, 16) == 16);
    CHECK(patchLevel(std::numeric_limits<float>::quiet_NaN(), 4, 16) == 1);
    CHECK(patchLevel(5, 0, 16) == 16);  // no tolerance: finest allowed
    CHECK(patchLevel(5, 4, 0) == 1);    // a silly ceiling still gives a valid count
    CHECK(patchLevel(1e30f, 4, 1 << 30) == kMaxPatchLevelCeiling);
}

TEST_CASE("gridParams lays out pieces and steps", "[geometry]") {
    const auto p = gridParams({2, 3});
    REQUIRE(p.size() == 6);  // 1 + 2 + 3
    CHECK((p[0].piece == 0 && p[0].k == 0 && p[0].t == 0.0f));
    CHECK((p[1].piece == 0 && p[1].k == 1 && p[1].t == 0.5f));
    CHECK((p[2].piece == 1 && p[2].k == 0 && p[2].t == 0.0f));
    CHECK((p[4].piece == 1 && p[4].k == 2 && p[4].n == 3));
    CHECK((p[5].piece == 1 && p[5].k == 3 && p[5].t == 1.0f));
}

TEST_CASE("every patch vertex lies on the analytic surface at its own parameter", "[geometry]") {
    const int w = 5, h = 7;
    const auto ctrl = controlGrid(w, h, ripple);
    const PatchLevels levels = levelsFor(ctrl, w, h, 0.5f, 16);
    const PatchGrid grid = evaluatePatch(ctrl.data(), w, h, levels);
    REQUIRE(grid.width == int32_t(grid.columns.size()));
    REQUIRE(grid.height == int32_t(grid.rows.size()));
    REQUIRE(grid.width > 2 * 2 + 1);  // subdivided beyond the control grid
    REQUIRE(grid.height > 3 * 2 + 1);
    for (int i = 0; i < grid.height; ++i)
        for (int j = 0; j < grid.width; ++j) {
            const GridParam& pu = grid.columns[size_t(j)];
            const GridParam& pv = grid.rows[size_t(i)];
            Vec3 piece[9];
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b)
                    piece[a * 3 + b] = ctrl[size_t((2 * pv.piece + a) * w + 2 * pu.piece + b)].position;
            const D3 want = bezier(piece, double(pu.k) / pu.n, double(pv.k) / pv.n);
            REQUIRE(dist(grid.vertices[size_t(i * grid.width + j)].position, want) < 1e-4);
        }
}

TEST_CASE("levels keep the chord error within the tolerance", "[geometry]") {
    const int w = 5, h = 7;
    const auto ctrl = controlGrid(w, h, ripple);
    const float tolerance = 0.5f;
    const PatchLevels levels = levelsFor(ctrl, w, h, tolerance, 64);
    const PatchGrid grid = evaluatePatch(ctrl.data(), w, h, levels);
    // Along every grid row and column, the true curve between two neighbouring vertices stays within the
    // tolerance of the straight segment (checked at the midpoint parameter, where a parabola bulges most).
    auto surfaceAt = [&](const GridParam& pu, double tu, const GridParam& pv, double tv) {
        Vec3 piece[9];
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
                piece[a * 3 + b] = ctrl[size_t((2 * pv.piece + a) * w + 2 * pu.piece + b)].position;
        return bezier(piece, tu, tv);
    };
    for (int i = 0; i < grid.height; ++i)
        for (int j = 0; j + 1 < grid.width; ++j) {
            const GridParam& pu = grid.columns[size_t(j)];
            const GridParam& pv = grid.rows[size_t(i)];
            const D3 mid = surfaceAt(pu, (pu.k + 0.5) / pu.n, pv, double(pv.k) / pv.n);
            const Vec3 a = grid.vertices[size_t(i * grid.width + j)].position;
            const Vec3 b = grid.vertices[size_t(i * grid.width + j + 1)].position;
            REQUIRE(dist((a + b) * 0.5f, mid) <= tolerance * 1.001 + 1e-4);
        }
}

TEST_CASE("a flat patch tessellates to a flat grid", "[geometry]") {
    auto flat = [](int r, int c) { return Vec3{float(c) * 8.0f, float(r) * 8.0f + float(c) * 2.0f, 12.0f}; };
    auto ctrl = controlGrid(3, 3, flat);
    ctrl[4].position.x += 3;  // pulls the middle sideways: still in the plane z = 12
    const PatchLevels levels = levelsFor(ctrl, 3, 3, 0.25f, 16);
    const PatchGrid grid = evaluatePatch(ctrl.data(), 3, 3, levels);
    REQUIRE(grid.vertices.size() > 9);
    for (const DrawVertex& v : grid.vertices) {
        REQUIRE(std::abs(v.position.z - 12.0f) < 1e-5f);  // Bernstein weights sum to 1 up to rounding
        REQUIRE(v.normal == Vec3{0, 0, 1});
    }
    std::vector<uint32_t> tris;
    patchTriangles(grid, 0, tris);
    REQUIRE(tris.size() == size_t((grid.width - 1) * (grid.height - 1) * 6));
    // Winding: cross(b - a, c - a) points away from the front (+z normals): clockwise seen from above.
    for (size_t t = 0; t < tris.size(); t += 3) {
        const Vec3 a = grid.vertices[tris[t]].position, b = grid.vertices[tris[t + 1]].position,
                   c = grid.vertices[tris[t + 2]].position;
        REQUIRE(cross(b - a, c - a).z < 0);
    }
}

TEST_CASE("attributes follow the same basis: linear lightmap UVs stay linear", "[geometry]") {
    const int w = 5, h = 3;
    const auto ctrl = controlGrid(w, h, ripple);
    const PatchLevels levels = levelsFor(ctrl, w, h, 0.5f, 16);
    const PatchGrid grid = evaluatePatch(ctrl.data(), w, h, levels);
    REQUIRE(grid.width > 3);
    for (int i = 0; i < grid.height; ++i)
        for (int j = 0; j < grid.width; ++j) {
            const GridParam& pu = grid.columns[size_t(j)];
            const GridParam& pv = grid.rows[size_t(i)];
            // Control lightmap UVs are 0.125 + 0.0625 col, 0.25 + 0.03125 row, and control column 2p + 2t
            // sits at parameter p + t, so the surface value is that line at col = 2 (piece + t).
            const double U = 2.0 * (pu.piece + double(pu.k) / pu.n), V = 2.0 * (pv.piece + double(pv.k) / pv.n);
            const DrawVertex& v = grid.vertices[size_t(i * grid.width + j)];
            REQUIRE(std::abs(v.lightmapUV.x - (0.125 + 0.0625 * U)) < 1e-6);
            REQUIRE(std::abs(v.lightmapUV.y - (0.25 + 0.03125 * V)) < 1e-6);
            REQUIRE(std::abs(v.texUV.x - 0.5 * U) < 1e-5);
            REQUIRE(std::abs(v.texUV.y - -0.25 * V) < 1e-5);
            REQUIRE(std::abs(v.color.y - 0.25f) < 1e-6);  // constant stays constant (weights sum to 1)
            REQUIRE(std::abs(length(v.normal) - 1.0f) < 1e-6);
        }
}

TEST_CASE("normals are renormalised, or taken from the surface when they cancel", "[geometry]") {
    auto flat = [](int r, int c) { return Vec3{float(c) * 8.0f, float(r) * 8.0f, 0.0f}; };
    auto ctrl = controlGrid(3, 3, flat);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) ctrl[size_t(r * 3 + c)].normal = r == 1 ? Vec3{0, 0, 0} : Vec3{0, 0, 4};
    const PatchGrid grid = evaluatePatch(ctrl.data(), 3, 3, PatchLevels{{2}, {2}});
    for (const DrawVertex& v : grid.vertices) REQUIRE(v.normal == Vec3{0, 0, 1});

    for (auto& v : ctrl) v.normal = {0, 0, 0};  // all missing: du x dv of a grid along +x, +y is +z
    const PatchGrid fallback = evaluatePatch(ctrl.data(), 3, 3, PatchLevels{{2}, {2}});
    for (const DrawVertex& v : fallback.vertices) REQUIRE(v.normal == Vec3{0, 0, 1});
}
