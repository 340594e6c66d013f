// deformVertexes at draw time (render/deform.hpp): move and wave at a time t, autosprite quads facing the
// camera; expected positions computed by hand from ioquake3's formulas.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/noise.hpp"
#include "luxel/render/deform.hpp"
#include "support/render_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// A 20 x 20 quad in the plane x = 100 facing -X (towards a camera at the origin looking +X), centre (100, 0, 0).
RenderScene quad() {
    RenderScene s;
    s.world.materials.resize(1);
    std::vector<FixtureVertex> v{{{100, -10, 10}, {1, 1, 1, 1}, {}, {0, 0}},
                                 {{100, 10, 10}, {1, 1, 1, 1}, {}, {1, 0}},
                                 {{100, 10, -10}, {1, 1, 1, 1}, {}, {1, 1}},
                                 {{100, -10, -10}, {1, 1, 1, 1}, {}, {0, 1}}};
    addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Vertex, -1, false, 0);
    return s;
}

Wave sine(float base, float amplitude, float phase, float frequency) {
    Wave w;
    w.func = Wave::Func::Sin;
    w.base = base, w.amplitude = amplitude, w.phase = phase, w.frequency = frequency;
    return w;
}

void checkVec(Vec3 got, Vec3 want) {
    CHECK(got.x == Approx(want.x).margin(1e-3));
    CHECK(got.y == Approx(want.y).margin(1e-3));
    CHECK(got.z == Approx(want.z).margin(1e-3));
}

}  // namespace

TEST_CASE("deformVertexes move: every vertex by the vector times the wave at t", "[deform]") {
    const RenderScene s = quad();
    const View view = makeView(makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64));
    Deform d;
    d.kind = Deform::Kind::Move;
    d.move = {0, 0, 10};
    d.wave = sine(0, 1, 0, 1);  // sin(2 pi t): 1 at t = 0.25
    std::vector<DrawVertex> pool;
    std::vector<uint32_t> tris;
    deformSurface({d}, s.geometry, s.geometry.surfaces[0], view, 0.25f, pool, tris);
    REQUIRE(pool.size() == 4);
    REQUIRE(tris.size() == 6);
    for (size_t i = 0; i < 4; ++i) {
        const Vec3 before = s.geometry.vertices[i].position;
        checkVec(pool[i].position, before + Vec3{0, 0, 10});
    }
}

TEST_CASE("deformVertexes wave: along the normal, the phase shifted by (x + y + z) * spread", "[deform]") {
    const RenderScene s = quad();
    const View view = makeView(makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64));
    Deform d;
    d.kind = Deform::Kind::Wave;
    d.spread = 1.0f / 400.0f;  // deformVertexes wave 400 ...
    d.wave = sine(0, 2, 0, 1);
    std::vector<DrawVertex> pool;
    std::vector<uint32_t> tris;
    deformSurface({d}, s.geometry, s.geometry.surfaces[0], view, 0.0f, pool, tris);
    REQUIRE(pool.size() == 4);
    for (size_t i = 0; i < 4; ++i) {
        const Vec3 p = s.geometry.vertices[i].position;
        // Phase (x + y + z) / 400: vertex (100, 10, -10) -> 0.25 -> 2 sin(pi / 2) = 2 along the normal -X.
        const double shift = 2 * std::sin(2 * 3.14159265358979 * (p.x + p.y + p.z) / 400.0);
        checkVec(pool[i].position, p + Vec3{float(-shift), 0, 0});
    }
}

TEST_CASE("deformVertexes autosprite: each quad becomes a square facing the camera", "[deform]") {
    const RenderScene s = quad();
    // Looking along +Y from below the quad's centre line: right is +X, up is +Z (Quake axes, yaw 90).
    const View view = makeView(makeCamera({100, -200, 0}, {0, 90, 0}, 64, 64));
    Deform d;
    d.kind = Deform::Kind::Autosprite;
    std::vector<DrawVertex> pool;
    std::vector<uint32_t> tris;
    deformSurface({d}, s.geometry, s.geometry.surfaces[0], view, 0.0f, pool, tris);
    REQUIRE(pool.size() == 4);
    CHECK(tris == std::vector<uint32_t>{0, 1, 3, 3, 1, 2});
    // Radius |v0 - centre| * 0.707 = sqrt(200) * 0.707 = 9.998; corners centre -right*r + up*r, ... .
    const float r = std::sqrt(200.0f) * 0.707f;
    checkVec(pool[0].position, {100 - r, 0, r});
    checkVec(pool[1].position, {100 + r, 0, r});
    checkVec(pool[2].position, {100 + r, 0, -r});
    checkVec(pool[3].position, {100 - r, 0, -r});
    CHECK(pool[2].texUV.x == 1.0f);
    CHECK(pool[2].texUV.y == 1.0f);
    checkVec(pool[0].normal, view.forward * -1.0f);  // facing the camera
}

TEST_CASE("deformVertexes bulge: along the normal by height * sin(s * width + t * speed), the engine's sine table",
          "[deform]") {
    const RenderScene s = quad();
    const View view = makeView(makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64));
    Deform d;
    d.kind = Deform::Kind::Bulge;
    d.bulgeWidth = 1;  // radians per unit of s
    d.bulgeHeight = 4;
    d.bulgeSpeed = 2;  // radians per second: 1 at t = 0.5
    std::vector<DrawVertex> pool;
    std::vector<uint32_t> tris;
    deformSurface({d}, s.geometry, s.geometry.surfaces[0], view, 0.5f, pool, tris);
    REQUIRE(pool.size() == 4);
    for (size_t i = 0; i < 4; ++i) {
        const DrawVertex& v = s.geometry.vertices[i];
        // The angle s + 1 read from the 1024-entry table at (int)(angle * 1024 / (2 pi)): s = 0 -> 162.97 ->
        // entry 162; s = 1 -> 325.95 -> entry 325.
        const int entry = v.texUV.x == 0 ? 162 : 325;
        const float want = 4 * float(std::sin(2 * 3.14159265358979 * entry / 1024));
        checkVec(pool[i].position, v.position + v.normal * want);
    }
}

TEST_CASE("deformVertexes normal: the engine's noise added to each normal component, then normalised", "[deform]") {
    const RenderScene s = quad();
    const View view = makeView(makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64));
    Deform d;
    d.kind = Deform::Kind::Normal;
    d.wave.amplitude = 0.5f;
    d.wave.frequency = 2;
    std::vector<DrawVertex> pool;
    std::vector<uint32_t> tris;
    deformSurface({d}, s.geometry, s.geometry.surfaces[0], view, 0.3f, pool, tris);
    REQUIRE(pool.size() == 4);
    bool changed = false;
    for (size_t i = 0; i < 4; ++i) {
        const Vec3 p = s.geometry.vertices[i].position * 0.98f;
        const Vec3 n = s.geometry.vertices[i].normal;
        const Vec3 want = normalize(n + Vec3{0.5f * engineNoise(p.x, p.y, p.z, 0.6), 0.5f * engineNoise(100 + p.x, p.y, p.z, 0.6),
                                             0.5f * engineNoise(200 + p.x, p.y, p.z, 0.6)});
        checkVec(pool[i].normal, want);
        CHECK(dot(pool[i].normal, pool[i].normal) == Approx(1.0f).margin(1e-5));
        CHECK(pool[i].position.x == s.geometry.vertices[i].position.x);  // positions stay
        changed = changed || std::abs(dot(pool[i].normal, n) - 1.0f) > 1e-4f;
    }
    CHECK(changed);
}

TEST_CASE("engine noise: the table values at lattice points, linear in time between them", "[deform]") {
    // R_NoiseInit fills value[i] = rand() / RAND_MAX * 2 - 1 and perm[i] = (uint8)(rand() / RAND_MAX * 255) in
    // turn; an unseeded process's rand() (seed 1) gives the sequence, taken here from rand() itself.
    srand(1);
    float value[256];
    int perm[256];
    for (int i = 0; i < 256; ++i) {
        value[i] = float((float(rand()) / float(RAND_MAX)) * 2.0 - 1.0);
        perm[i] = int(static_cast<unsigned char>(float(rand()) / float(RAND_MAX) * 255));
    }
    auto at = [&](int a) { return perm[a & 255]; };
    for (int t : {0, 1, 7, 300}) {
        const float want = value[at(0 + at(0 + at(0 + at(t))))];
        CHECK(engineNoise(0, 0, 0, double(t)) == want);
        const float next = value[at(0 + at(0 + at(0 + at(t + 1))))];
        CHECK(engineNoise(0, 0, 0, t + 0.25) == Approx(want + (next - want) * 0.25f).margin(1e-6));
    }
    CHECK(engineNoise(0, 0, 0, -3) == value[at(at(at(at(-3))))]);
    CHECK(engineNoise(NAN, 0, 0, 1) == 0.0f);  // hostile positions give a value, not undefined behaviour
    CHECK(std::isfinite(engineNoise(1e30f, -1e30f, 0, 1e300)));
}

TEST_CASE("deformVertexes autosprite2: a long quad pivots about its long axis to face the camera", "[deform]") {
    // A 4 x 40 upright quad in the plane x = 100, seen from (100, -200, 0) looking +Y: its long axis is Z, so
    // the engine's minor axis normalize(major x forward) is +X or -X ((0, 0, -40) x (0, 1, 0) = (40, 0, 0))
    // and the quad turns into the plane y = 0, each end keeping its length 4 (2 either side of its middle).
    RenderScene s;
    s.world.materials.resize(1);
    std::vector<FixtureVertex> v{{{100, -2, 20}, {1, 1, 1, 1}, {}, {0, 0}},
                                 {{100, 2, 20}, {1, 1, 1, 1}, {}, {1, 0}},
                                 {{100, 2, -20}, {1, 1, 1, 1}, {}, {1, 1}},
                                 {{100, -2, -20}, {1, 1, 1, 1}, {}, {0, 1}}};
    addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Vertex, -1, false, 0);
    const View view = makeView(makeCamera({100, -200, 0}, {0, 90, 0}, 64, 64));
    Deform d;
    d.kind = Deform::Kind::Autosprite2;
    std::vector<DrawVertex> pool;
    std::vector<uint32_t> tris;
    deformSurface({d}, s.geometry, s.geometry.surfaces[0], view, 0.0f, pool, tris);
    REQUIRE(pool.size() == 4);
    REQUIRE(tris.size() == 6);
    // Which end vertex goes to +X follows whether the triangles use the end's edge (a, b) in that order.
    auto usedInOrder = [&](uint32_t a, uint32_t b) {
        for (size_t k = 0; k + 1 < 6; ++k)
            if (tris[k] == a && tris[k + 1] == b) return true;
        return false;
    };
    // The engine's first end is the first short edge in the order (0,1) (0,2) (0,3) (1,2) (1,3) (2,3): when it
    // is the top one, major points down and minor = +X, otherwise -X.
    const std::pair<uint32_t, uint32_t> kOrder[] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    float firstEndZ = 0;
    for (const auto& [a, b] : kOrder)
        if (s.geometry.vertices[a].position.z == s.geometry.vertices[b].position.z) {
            firstEndZ = s.geometry.vertices[a].position.z;
            break;
        }
    const float minorX = firstEndZ > 0 ? 1.0f : -1.0f;
    // The quad's ends: vertex pairs at the same height (the order the fixture's tessellation gave them).
    for (uint32_t a = 0; a < 4; ++a)
        for (uint32_t b = 0; b < 4; ++b) {
            const Vec3 pa = s.geometry.vertices[a].position, pb = s.geometry.vertices[b].position;
            if (a == b || pa.z != pb.z) continue;
            // The engine's edge list names each end (a, b) with a < b; used in that order: a to -minor.
            if (a > b) continue;
            const float side = (usedInOrder(a, b) ? -2.0f : 2.0f) * minorX;
            checkVec(pool[a].position, {100 + side, 0, pa.z});
            checkVec(pool[b].position, {100 - side, 0, pa.z});
        }
    CHECK(pool[0].texUV.x == s.geometry.vertices[0].texUV.x);  // texture coordinates stay with their vertices
    CHECK(pool[0].texUV.y == s.geometry.vertices[0].texUV.y);
}

TEST_CASE("deformVertexes autosprite2 on real OpenArena surfaces: quads stay flat and turn their width across the view",
          "[deform][maps]") {
    const std::string game = "/usr/share/games/openarena/baseoa";
    if (!std::filesystem::exists(game + "/pak1-maps.pk3")) {
        WARN("SKIPPED: openarena-data is not installed");
        return;
    }
    size_t quads = 0;
    for (const char* map : {"oa_spirit3", "oa_ctf2", "slimefac"}) {
        MapSource src = openMapPath(game + "/pak1-maps.pk3:maps/" + map + ".bsp");
        const World world = decodeMap(src);
        const Geometry g = tessellate(world);
        MaterialOptions mo;
        mo.gameDirs = {game};
        const MaterialSet set = loadMaterials(world, src, mo);
        // A level view: the quads pivot about their long axes, which are upright on these maps, so they end up
        // facing the camera squarely.
        const View view = makeView(makeCamera({0, 0, 0}, {0, 30, 0}, 64, 64));
        for (const DrawSurface& ds : g.surfaces) {
            if (ds.material < 0) continue;
            const auto& deforms = set.looks[size_t(ds.material)].deforms;
            if (deforms.empty() || deforms[0].kind != Deform::Kind::Autosprite2) continue;
            std::vector<DrawVertex> pool;
            std::vector<uint32_t> tris;
            deformSurface(deforms, g, ds, view, 0.0f, pool, tris);
            REQUIRE(tris.size() == size_t(ds.numIndices));
            for (size_t q = 0; q + 6 <= tris.size(); q += 6) {
                auto normalOf = [&](size_t t) {
                    const Vec3 a = pool[tris[t]].position, b = pool[tris[t + 1]].position, c = pool[tris[t + 2]].position;
                    return cross(b - a, c - a);
                };
                const Vec3 n0 = normalOf(q), n1 = normalOf(q + 3);
                // Both triangles of the quad face the same way (no bow tie), and the quad's width runs across
                // the view: the plane holds major x forward, where major joins the middles of the two short ends.
                // (Which side faces the camera does not matter: these shaders are all cull none.)
                CHECK(dot(n0, n1) > 0);
                const uint32_t first = *std::min_element(tris.begin() + std::ptrdiff_t(q), tris.begin() + std::ptrdiff_t(q + 6));
                std::vector<std::pair<float, Vec3>> edges;  // (length^2, middle)
                for (uint32_t a = first; a < first + 4; ++a)
                    for (uint32_t b = a + 1; b < first + 4; ++b) {
                        const Vec3 d = pool[a].position - pool[b].position;
                        edges.push_back({dot(d, d), (pool[a].position + pool[b].position) * 0.5f});
                    }
                std::sort(edges.begin(), edges.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
                const Vec3 across = normalize(cross(edges[1].second - edges[0].second, view.forward));
                CHECK(std::abs(dot(normalize(n0), across)) < 1e-3f);
                ++quads;
            }
        }
    }
    CHECK(quads > 0);
    WARN(quads << " autosprite2 quads");
}
