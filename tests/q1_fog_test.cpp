// QuakeSpasm's world fog (the worldspawn's "fog" key) on the synthetic floor map, by hand.
#include <catch2/catch.hpp>

#include <cmath>

#include "support/q1_view.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// The floor map seen straight down from 300 units above face 0's middle through a 10-degree view (52 units
// across: the middle 8 x 8 pixels all on face 0).
Image floorFrom300(const std::string& worldspawnKeys, const std::string& mode) {
    Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
    b.entities = "{\n\"classname\" \"worldspawn\"\n" + worldspawnKeys + "}\n";
    return q1TopDownView(b, mode, 10, 64);
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
    b.entities = "{\n\"classname\" \"worldspawn\"\n" + worldspawnKeys + "}\n";
    moveFloorFaceToFuncWall(b, wallKeys);
    return q1TopDownView(b, "lit", 4, 32);
}

}  // namespace

TEST_CASE("q1: a brush entity's alpha blends it lit over what is behind, fogged before it is blended", "[q1][render]") {
    // alpha 0.5 (ENTALPHA: round(0.5 x 254 + 1) = 128, (128 - 1) / 254 = 0.5) over nothing (black): a = 0.5 c.
    // With fog 0.05 red at depth 300, f = 0.946550: 0.5 (f c + (1 - f) red).
    const double a = 127.0 / 254.0, f = std::exp(-std::pow(0.05 / 64.0 * 300.0, 2.0));
    const Image opaque = wallFrom300("", ""), half = wallFrom300("", "\"alpha\" \"0.5\"\n"),
                fogged = wallFrom300("\"fog\" \"0.05 1 0 0\"\n", "\"alpha\" \"0.5\"\n");
    // The floor texture holds every palette index; its fullbright texels (224-255) glow on the see-through
    // entity as on the opaque one (QuakeSpasm's world shader adds them before the alpha is applied): every
    // pixel is half the opaque one. The fog's relation to the unfogged blend holds on every pixel:
    // g = f h + a (1 - f) red.
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
    CHECK(halved == 32 * 32);
    // "alpha" "0" is FitzQuake's default: opaque.
    CHECK(wallFrom300("", "\"alpha\" \"0\"\n").pixels == opaque.pixels);
}
