// Source water drawn as its refraction's water fog over what lies below (render::waterOverPixel): the view
// depth seen through the water over $fogend - $fogstart, saturated (CalcWaterFogAlpha), blending towards
// $fogcolor. A floor under a water plane, seen straight down: every pixel's depths are the planes' distances.
#include <catch2/catch.hpp>

#include "luxel/render/render.hpp"
#include "support/render_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("water: the floor below blended towards the fog colour by the depth seen through the water", "[water]") {
    const Vec3 floorColor{0.5f, 0.5f, 0.5f}, fog{0.2f, 0.4f, 0.8f};
    auto centre = [&](float floorZ) {
        RenderScene s;
        addColoredPolygon(s, {{-500, -500, floorZ}, {500, -500, floorZ}, {500, 500, floorZ}, {-500, 500, floorZ}},
                          {0, 0, 1}, floorColor);
        addPolygon(s, {FixtureVertex{{-500, -500, 64}}, FixtureVertex{{500, -500, 64}}, FixtureVertex{{500, 500, 64}},
                       FixtureVertex{{-500, 500, 64}}},
                   {0, 0, 1}, SurfaceShading::Vertex, -1, false, 1);
        s.world.materials.resize(2);
        MaterialSet m;
        m.looks.resize(2);
        m.looks[1].water = SurfaceLook::Water{fog, 256};
        m.looks[1].blend = BlendMode::Blend;
        RenderOptions o;
        o.mode = RenderMode::Lit;
        o.look = Look::Linear;
        o.usePvs = false;
        o.materials = &m;
        const Image img = renderScene(s, makeCamera({0, 0, 128}, {90, 0, 0}, 17, 17), o);
        return std::pair{pixelAt(img, 8, 8), pixelAt(img, 1, 15)};
    };
    // Eye at 128, water at 64 (depth 64): a floor at 0 is 64 below the water -> a = 64 / 256 = 0.25; at -128,
    // 192 -> 0.75; at -300, past the range -> the fog colour.
    for (auto [floorZ, a] : {std::pair{0.0f, 0.25f}, std::pair{-128.0f, 0.75f}, std::pair{-300.0f, 1.0f}}) {
        INFO("floor at " << floorZ);
        const auto [mid, corner] = centre(floorZ);
        const Vec3 want = floorColor + (fog - floorColor) * a;
        CHECK(mid.x == Approx(want.x).margin(1e-5));
        CHECK(mid.y == Approx(want.y).margin(1e-5));
        CHECK(mid.z == Approx(want.z).margin(1e-5));
        // Off the axis the view depths (not the ray lengths) are the same: the same colour.
        CHECK(corner.x == Approx(want.x).margin(1e-4));
        CHECK(corner.z == Approx(want.z).margin(1e-4));
    }
}
