// Where ericw-tools' light samples the luxels of a Quake 1 map laid out anew (luxelCentres with
// LuxelReach::EricwCalcPoints): texels within a luxel of the face snap to its boundary, texels outside walk across
// an edge onto a coplanar or phong-smoothed neighbour. Hand-computed positions on synthetic maps.
#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <utility>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/light/ericw_luxel_frame.hpp"
#include "luxel/light/luxels.hpp"
#include "support/decode_helpers.hpp"
#include "support/q1_writer.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("luxels: ericw-tools' reach takes a texel within one luxel of the face, at the nearest boundary point", "[q1][relayout]") {
    DecodeOptions o;
    o.relayoutLightmaps = true;
    const World w = decodeMap(memorySource(makeQ1LayoutMap(Q1Variant::Bsp29).build(), "test.bsp"), o);
    const Geometry g = tessellate(w);
    // Face 2 in luxel coordinates (s / 16, t / 16 + 2): corners (0.1875, 2) (1.1875, 3) (3.1875, 1) (2.1875, 0). Texel
    // (1, 0) is 0.84 luxels from the edge x + y = 2.1875 (0.59 on each axis, past half a texel): its nearest point
    // (1.59375, 0.59375) is s 25.5, t -22.5, the world point (45, 0, 0).
    const Surface& s = w.surfaces[2];
    auto find = [&](const std::vector<Luxel>& luxels) -> const Luxel* {
        for (const Luxel& l : luxels)
            if (l.surface == 2 && l.x == s.lightmapRect[0] + 1 && l.y == s.lightmapRect[1]) return &l;
        return nullptr;
    };
    const std::vector<Luxel> half = luxelCentres(w, g), ericw = luxelCentres(w, g, nullptr, LuxelReach::EricwCalcPoints);
    CHECK(find(half) == nullptr);
    const Luxel* l = find(ericw);
    REQUIRE(l);
    CHECK(l->position.x == Approx(45).margin(1e-3));
    CHECK(l->position.y == Approx(0).margin(1e-3));
    CHECK(l->position.z == Approx(0).margin(1e-3));
    // Texel (0, 0) is 1.55 luxels out: neither takes it. Every luxel the half-texel reach takes, ericw's takes too.
    for (const auto* set : {&half, &ericw})
        for (const Luxel& x : *set) CHECK(!(x.surface == 2 && x.x == s.lightmapRect[0] && x.y == s.lightmapRect[1]));
    for (const Luxel& x : half) {
        const bool also = std::any_of(ericw.begin(), ericw.end(), [&](const Luxel& e) { return e.surface == x.surface && e.x == x.x && e.y == x.y; });
        CHECK(also);
    }
    CHECK(ericw.size() > half.size());
}

namespace {

// The floor map and two triangles across the diagonal of (0,0)-(64,32): T (0,0,0) (0,32,0) (64,0,0) on the floor
// and U (64,0,0) (0,32,0) `third` on plane `plane` (the floor's, 0, unless given), decoded laid out anew: T is
// surface 2, its block 5 x 3 luxels (s = x, t = y at 16-unit steps), U surface 3.
struct TwoTriangles {
    World world;
    Geometry geometry;
};
TwoTriangles twoTriangles(Vec3 third, std::optional<std::pair<Vec3, float>> plane = std::nullopt) {
    Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
    const int32_t uPlane = plane ? b.addPlane(plane->first, plane->second) : 0;
    b.addFace({{0, 0, 0}, {0, 32, 0}, {64, 0, 0}}, 0, false, 0);
    b.addFace({{64, 0, 0}, {0, 32, 0}, third}, uPlane, false, 0);
    b.models[0].numFaces = int32_t(b.faces.size());
    DecodeOptions o;
    o.relayoutLightmaps = true;
    TwoTriangles out{decodeMap(memorySource(b.build(), "test.bsp"), o), {}};
    out.geometry = tessellate(out.world);
    const Surface& t = out.world.surfaces[2];
    REQUIRE(t.lightmapRect[2] == 5);
    REQUIRE(t.lightmapRect[3] == 3);
    return out;
}

// T's luxel of texel (4, 2), at (64, 32): 1.8 luxels past T's diagonal (nullptr: none).
const Luxel* cornerLuxel(const World& w, const std::vector<Luxel>& luxels) {
    const Surface& t = w.surfaces[2];
    for (const Luxel& l : luxels)
        if (l.surface == 2 && l.x == t.lightmapRect[0] + 4 && l.y == t.lightmapRect[1] + 2) return &l;
    return nullptr;
}

}  // namespace

TEST_CASE("luxels: ericw-tools' reach walks across an edge onto a coplanar neighbour", "[q1][relayout]") {
    // Two triangles on the floor plane split the square (0, 0)-(64, 32) along its diagonal: T (0,0) (0,32) (64,0)
    // and U (64,0) (0,32) (64,32). T's block (s = x, t = y: 5 x 3 luxels at 16-unit steps) has a texel at (64, 32),
    // 1.8 luxels past T's diagonal: light walks across the diagonal into U, which holds it, and samples it there.
    const auto [w, g] = twoTriangles({64, 32, 0});
    CHECK(cornerLuxel(w, luxelCentres(w, g)) == nullptr);
    const std::vector<Luxel> ericw = luxelCentres(w, g, nullptr, LuxelReach::EricwCalcPoints);
    const Luxel* l = cornerLuxel(w, ericw);
    REQUIRE(l);
    CHECK(l->position.x == Approx(64).margin(1e-3));
    CHECK(l->position.y == Approx(32).margin(1e-3));
    CHECK(l->position.z == Approx(0).margin(1e-3));
}

TEST_CASE("luxels: ericw-tools' reach walks across an edge onto a smoothed neighbour, onto its plane", "[q1][relayout]") {
    // T (0,0,0) (0,32,0) (64,0,0) on the floor, as above, and U (64,0,0) (0,32,0) (64,32,16) across its diagonal,
    // tilted: U's plane has normal (-1,-2,4)/sqrt(21) through (64,0,0). T's texel at (64, 32) is 1.8 luxels past
    // the diagonal and U is not coplanar, so without phong smoothing there is no luxel there. With T smoothed
    // with U, light (CalcPointNormal) lifts the point 1 unit off T, (64,32,1), and projects it onto U's plane:
    // (64,32,1) + (-1,-2,4) x 60 / 21 = (61.1429, 26.2857, 12.4286), inside U; the luxel samples there, on U's plane.
    const float r21 = std::sqrt(21.0f);
    const auto [w, g] = twoTriangles({64, 32, 16}, std::pair{Vec3{-1 / r21, -2 / r21, 4 / r21}, -64 / r21});
    CHECK(cornerLuxel(w, luxelCentres(w, g, nullptr, LuxelReach::EricwCalcPoints)) == nullptr);
    std::vector<std::vector<uint32_t>> smoothed(w.surfaces.size());
    smoothed[2] = {3}, smoothed[3] = {2};
    const std::vector<Luxel> ericw = luxelCentres(w, g, nullptr, LuxelReach::EricwCalcPoints, &smoothed);
    const Luxel* l = cornerLuxel(w, ericw);
    REQUIRE(l);
    CHECK(l->sampleSurface == 3);
    CHECK(l->position.x == Approx(64 - 60.0 / 21).margin(1e-3));
    CHECK(l->position.y == Approx(32 - 120.0 / 21).margin(1e-3));
    CHECK(l->position.z == Approx(1 + 240.0 / 21).margin(1e-3));
    CHECK(l->normal.x == Approx(-1 / r21).margin(1e-5));
    CHECK(l->normal.y == Approx(-2 / r21).margin(1e-5));
    CHECK(l->normal.z == Approx(4 / r21).margin(1e-5));
    // The luxels T holds itself are T's, on T's plane.
    for (const Luxel& x : ericw)
        if (x.surface == 2 && x.sampleSurface == 2) CHECK(x.normal.z == Approx(1));
}

TEST_CASE("luxels: a texel walked onto a neighbour that does not hold it snaps to the neighbour's nearest edge point", "[q1][relayout]") {
    // T (0,0) (0,32) (64,0) on the floor, as above, and a smaller coplanar U (64,0) (0,32) (56,28) across T's
    // diagonal. T's texel at (64, 32) is 1.8 luxels past the diagonal: it walks into U (ericw-tools'
    // CalcPointNormal), which does not hold it either. Of U's edges it lies behind, it is least past the ends of
    // (56,28)-(64,0) (by 0.057 of its length, against 0.137 of (0,32)-(56,28)), and no face lies across that edge:
    // light snaps it to U's nearest boundary point, the corner (56, 28), 8.94 units (0.56 luxels) away, and
    // samples it there on U. T's own nearest point is 1.8 luxels away, too far to snap to.
    const auto [w, g] = twoTriangles({56, 28, 0});
    const std::vector<Luxel> ericw = luxelCentres(w, g, nullptr, LuxelReach::EricwCalcPoints);
    const Luxel* l = cornerLuxel(w, ericw);
    REQUIRE(l);
    CHECK(l->sampleSurface == 3);
    CHECK(l->position.x == Approx(56).margin(1e-3));
    CHECK(l->position.y == Approx(28).margin(1e-3));
    CHECK(l->position.z == Approx(0).margin(1e-3));
    // With U's third corner at (40, 24) the texel is 22.6 units (1.41 luxels) from U's edge (40,24)-(64,0): no sample.
    const auto [w2, g2] = twoTriangles({40, 24, 0});
    CHECK(cornerLuxel(w2, luxelCentres(w2, g2, nullptr, LuxelReach::EricwCalcPoints)) == nullptr);
}

TEST_CASE("luxels: ericw-tools' luxel frame puts luxel (i, j) at texture coordinates (mins + i, mins + j) x 16 on the plane", "[q1][relayout]") {
    // A texinfo turned 45 degrees and scaled by 0.5 on the floor plane: s = 0.5 x + 0.5 y + 3, t = -0.5 x + 0.5 y,
    // so x = (s - 3) - t and y = (s - 3) + t at z = 0. With block mins (-2, 1) luxel (i, j) lies at s = 16 (i - 2),
    // t = 16 (j + 1): luxel (3, 0) at s 16, t 16: (-3, 29, 0); luxel (0, 2) at s -32, t 48: (-83, 13, 0).
    TexinfoLuxels face;
    face.vecs = {0.5f, 0.5f, 0, 3, -0.5f, 0.5f, 0, 0};
    face.plane = {{0, 0, 1}, 0};
    face.mins = {-2, 1};
    face.luxelSize = 16;
    const std::optional<EricwLuxelFrame> frame = ericwLuxelFrame(face);
    REQUIRE(frame);
    const Vec3 a = ericwLuxelOnPlane(*frame, 3, 0), b = ericwLuxelOnPlane(*frame, 0, 2);
    CHECK(a.x == Approx(-3).margin(1e-4));
    CHECK(a.y == Approx(29).margin(1e-4));
    CHECK(a.z == Approx(0).margin(1e-5));
    CHECK(b.x == Approx(-83).margin(1e-4));
    CHECK(b.y == Approx(13).margin(1e-4));
    CHECK(b.z == Approx(0).margin(1e-5));
    // Off the plane's normal by the vectors: a point 1 unit above the plane still lands on it.
    face.plane = {{0, 0, 1}, 5};
    const Vec3 c = ericwLuxelOnPlane(*ericwLuxelFrame(face), 3, 0);
    CHECK(c.z == Approx(5).margin(1e-5));
    // No frame without a luxel size, or with texture axes in the plane's normal (no inverse).
    CHECK(!ericwLuxelFrame(TexinfoLuxels{}));
    face.vecs = {0, 0, 1, 0, 0, 0, 2, 0};
    CHECK(!ericwLuxelFrame(face));
}
