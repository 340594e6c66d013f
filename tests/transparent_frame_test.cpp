// RenderOptions::drawSky and ::transparentBackground, and their PNG output.
#include <catch2/catch.hpp>

#include <filesystem>

#include "luxel/image/image.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// Looking along +X from the origin at a 64x64 frame: a grey wall on the right half (y < 0), a sky panel on
// the left (y > 0), both at x = 100 and |z| <= 20; nothing above or below.
RenderScene wallAndSky() {
    RenderScene scene;
    addColoredPolygon(scene, {{100, -40, -20}, {100, -10, -20}, {100, -10, 20}, {100, -40, 20}}, {-1, 0, 0},
                      {0.5f, 0.5f, 0.5f});
    addPolygon(scene, {{{100, 10, -20}}, {{100, 40, -20}}, {{100, 40, 20}}, {{100, 10, 20}}}, {-1, 0, 0},
               SurfaceShading::Sky);
    return scene;
}

constexpr int kWall = 40, kSky = 24, kMid = 32;  // pixel columns of the wall and the sky; the middle row

}  // namespace

TEST_CASE("transparent background: alpha 1 where drawn, 0 where not; drawSky false hides sky", "[camera][frame]") {
    const RenderScene scene = wallAndSky();
    const Camera camera = makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64);
    RenderOptions o;
    o.mode = RenderMode::Vertex;
    o.look = Look::Linear;
    o.skyColor = {0, 0, 1};
    o.background = {1, 0, 0};

    const Image plain = renderScene(scene, camera, o);
    REQUIRE(plain.channels == 3);
    CHECK(pixelAt(plain, kSky, kMid) == Vec3{0, 0, 1});
    CHECK(pixelAt(plain, 2, 2) == Vec3{1, 0, 0});

    o.transparentBackground = true;
    const Image rgba = renderScene(scene, camera, o);
    REQUIRE(rgba.channels == 4);
    REQUIRE(rgba.width == 64);
    // Colour as without transparency, alpha marks what was drawn (sky included while it is drawn).
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x)
            for (int c = 0; c < 3; ++c) REQUIRE(rgba.at(x, y)[c] == plain.at(x, y)[c]);
    CHECK(rgba.at(kWall, kMid)[3] == 1.0f);
    CHECK(rgba.at(kSky, kMid)[3] == 1.0f);
    CHECK(rgba.at(2, 2)[3] == 0.0f);
    CHECK(rgba.at(kWall, 2)[3] == 0.0f);  // above the wall

    o.drawSky = false;
    const Image hidden = renderScene(scene, camera, o);
    CHECK(hidden.at(kSky, kMid)[3] == 0.0f);
    CHECK(pixelAt(hidden, kSky, kMid) == Vec3{1, 0, 0});  // the background shows where the sky was
    CHECK(hidden.at(kWall, kMid)[3] == 1.0f);

    SECTION("supersampled edges get fractional alpha") {
        o.spp = 4;
        const Image soft = renderScene(scene, makeCamera({0, 0, 0}, {0, 0, 0}, 61, 61), o);
        size_t partial = 0;
        for (int y = 0; y < 61; ++y)
            for (int x = 0; x < 61; ++x) {
                const float a = soft.at(x, y)[3];
                REQUIRE(a >= 0.0f);
                REQUIRE(a <= 1.0f);
                partial += a > 0 && a < 1;
            }
        CHECK(partial > 0);
    }

    SECTION("PNG keeps alpha and the colour under it; JPEG drops alpha") {
        const std::string dir = tempDir("luxel_transparent_png");
        writeImage(dir + "/t.png", hidden);
        const Image back = readImage(dir + "/t.png");
        REQUIRE(back.channels == 4);
        CHECK(back.at(kSky, kMid)[3] == 0.0f);
        CHECK(back.at(kWall, kMid)[3] == 1.0f);
        // Not premultiplied by alpha: the grey wall keeps its value.
        CHECK(pixelAt(back, kWall, kMid).x == Approx(128.0 / 255).margin(1e-6));
        writeImage(dir + "/t.jpg", hidden);
        CHECK(readImage(dir + "/t.jpg").channels == 3);
    }
}
