// QuakeSpasm's world fog (the worldspawn's "fog" key) on the synthetic floor map, by hand.
#include <catch2/catch.hpp>

#include <cmath>

#include "luxel/render/map_view.hpp"
#include "support/decode_helpers.hpp"
#include "support/q1_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// The floor map seen straight down from 300 units above face 0's middle: every floor pixel is 300 deep in eye space.
Image floorFrom300(const std::string& worldspawnKeys, const std::string& mode) {
    Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
    b.entities = "{\n\"classname\" \"worldspawn\"\n" + worldspawnKeys + "}\n";
    LoadedMap map = loadMap(memorySource(b.build(), "fog.bsp"), {}, {{}, "", 0});
    ViewRequest r;
    r.pos = Vec3{32, 16, 300};
    r.angles = Vec3{90, 0, 0};
    r.fov = 10;  // 52 units across: the middle 8 x 8 pixels all on face 0
    r.width = r.height = 64;
    r.mode = mode;
    r.look = Look::Engine;
    r.ldrOutput = false;  // floats: the fog checked to 1e-5
    return renderView(map, r).image;
}

}  // namespace

TEST_CASE("q1: the worldspawn's fog is GL_EXP2 of the view depth at density / 64, over lit and lightmap frames", "[q1][render]") {
    // fog 0.05 red: f = exp(-(0.05 / 64 x 300)^2) = exp(-0.0549316) = 0.946550; a floor pixel is f x itself plus
    // (1 - f) x (1, 0, 0).
    const double f = std::exp(-std::pow(0.05 / 64.0 * 300.0, 2.0));
    REQUIRE(f == Approx(0.946550).epsilon(1e-5));
    for (const std::string mode : {"lit", "lightmap"}) {
        INFO(mode);
        const Image clear = floorFrom300("", mode), fogged = floorFrom300("\"fog\" \"0.05 1 0 0\"\n", mode);
        size_t checked = 0;
        for (int y = 28; y < 36; ++y)
            for (int x = 28; x < 36; ++x) {
                const float* c = clear.at(x, y);
                const float* g = fogged.at(x, y);
                INFO("pixel " << x << "," << y);
                CHECK(g[0] == Approx(c[0] * f + (1 - f)).margin(1e-5));
                CHECK(g[1] == Approx(c[1] * f).margin(1e-5));
                CHECK(g[2] == Approx(c[2] * f).margin(1e-5));
                checked += c[0] > 0.02f;  // lit floor, not background
            }
        CHECK(checked == 64);
    }
}
