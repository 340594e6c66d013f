// deformVertexes at draw time (render/deform.hpp): move and wave at a time t, autosprite quads facing the
// camera; expected positions computed by hand from ioquake3's formulas.
#include <catch2/catch.hpp>

#include <cmath>

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
