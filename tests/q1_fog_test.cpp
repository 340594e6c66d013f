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

namespace {

// Face 0 of the floor map (x 0..64; face 1 is a fence) moved into a func_wall with these keys, seen straight down
// from 300 units above (32, 16) through a 4-degree view (21 units across: every pixel on face 0, nothing behind).
Image wallFrom300(const std::string& worldspawnKeys, const std::string& wallKeys) {
    Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
    Q1Model wall = b.models[0];
    b.models[0].firstFace = 1, b.models[0].numFaces = 1;
    wall.firstFace = 0, wall.numFaces = 1, wall.visLeaves = 0;
    b.models.push_back(wall);
    b.entities = "{\n\"classname\" \"worldspawn\"\n" + worldspawnKeys + "}\n{\n\"classname\" \"func_wall\"\n\"model\" \"*1\"\n" +
                 wallKeys + "}\n";
    LoadedMap map = loadMap(memorySource(b.build(), "alpha.bsp"), {}, {{}, "", 0});
    ViewRequest r;
    r.pos = Vec3{32, 16, 300};
    r.angles = Vec3{90, 0, 0};
    r.fov = 4;
    r.width = r.height = 32;
    r.mode = "lit";
    r.look = Look::Engine;
    r.ldrOutput = false;
    return renderView(map, r).image;
}

}  // namespace

TEST_CASE("q1: a brush entity's alpha blends it lit over what is behind, fogged before it is blended", "[q1][render]") {
    // alpha 0.5 (ENTALPHA: round(0.5 x 254 + 1) = 128, (128 - 1) / 254 = 0.5) over nothing (black): a = 0.5 c.
    // With fog 0.05 red at depth 300, f = 0.946550: 0.5 (f c + (1 - f) red).
    const double a = 127.0 / 254.0, f = std::exp(-std::pow(0.05 / 64.0 * 300.0, 2.0));
    const Image opaque = wallFrom300("", ""), half = wallFrom300("", "\"alpha\" \"0.5\"\n"),
                fogged = wallFrom300("\"fog\" \"0.05 1 0 0\"\n", "\"alpha\" \"0.5\"\n");
    // The floor texture holds every palette index; its fullbright texels (224-255) stay in a see-through
    // entity's texture, lit, instead of glowing: those pixels are not half the opaque ones. The fog's relation to
    // the unfogged blend holds on every pixel: g = f h + a (1 - f) red.
    size_t lit = 0, halved = 0;
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 32; ++x) {
            INFO("pixel " << x << "," << y);
            const float *c = opaque.at(x, y), *h = half.at(x, y), *g = fogged.at(x, y);
            lit += h[0] > 0.01f;
            halved += std::fabs(h[0] - a * c[0]) < 1e-5 && std::fabs(h[2] - a * c[2]) < 1e-5;
            CHECK(g[0] == Approx(f * h[0] + a * (1 - f)).margin(1e-5));
            CHECK(g[1] == Approx(f * h[1]).margin(1e-5));
            CHECK(g[2] == Approx(f * h[2]).margin(1e-5));
        }
    CHECK(lit > 32 * 32 * 9 / 10);  // all but the texture's black texels
    CHECK(halved > 32 * 32 * 3 / 4);
    // "alpha" "0" is FitzQuake's default: opaque.
    CHECK(wallFrom300("", "\"alpha\" \"0\"\n").pixels == opaque.pixels);
}
