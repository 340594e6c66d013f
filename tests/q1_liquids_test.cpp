// QuakeSpasm's liquids on the synthetic floor map, by hand: see-through (R_ParseWorldspawn, GL_WaterAlphaForSurface:
// the worldspawn's "wateralpha", "lavaalpha", "slimealpha", "telealpha", one leading '_' dropped) and lit (r_litwater:
// liquids qbsp left without TEX_SPECIAL drawn texture x 2 x lightmap).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "support/q1_view.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// Face 0 of the floor map (x 0..64) with its texture renamed to a liquid `name`, seen straight down from 300 units
// above (32, 16) through a 4-degree view: every pixel on face 0 with nothing (black) behind it.
// lightByte >= 0: the liquid lit (no TEX_SPECIAL) by a block of that byte everywhere.
Image liquidFrom300(const std::string& name, const std::string& worldspawnKeys, const std::string& entityKeys = "",
                    int lightByte = -1) {
    Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
    b.miptex[0]->name = name;
    b.texinfos[0].flags = lightByte < 0 ? kQ1TexSpecial : 0;
    if (lightByte >= 0) {  // face 0's 5 x 3 luxels come first in the lump
        std::fill(b.lighting.begin(), b.lighting.begin() + 15, uint8_t(lightByte));
        std::fill(b.rgbLighting.begin(), b.rgbLighting.begin() + 45, uint8_t(lightByte));
    }
    b.entities = "{\n\"classname\" \"worldspawn\"\n" + worldspawnKeys + "}\n";
    if (!entityKeys.empty()) moveFloorFaceToFuncWall(b, entityKeys);
    return q1TopDownView(b, "lit", 4, 32);
}

// How many pixels of `seen` are `a` x `opaque` (over black) to 1e-5, and how many of `opaque` are not black.
struct Scaled {
    size_t scaled = 0, lit = 0;
};
Scaled scaledBy(const Image& seen, const Image& opaque, double a) {
    Scaled s;
    for (int y = 0; y < opaque.height; ++y)
        for (int x = 0; x < opaque.width; ++x) {
            const float *o = opaque.at(x, y), *c = seen.at(x, y);
            s.lit += o[0] + o[1] + o[2] > 0.01f;
            bool same = true;
            for (int k = 0; k < 3; ++k) same = same && std::fabs(c[k] - a * o[k]) < 1e-5;
            s.scaled += same;
        }
    return s;
}

}  // namespace

TEST_CASE("q1: a worldspawn's wateralpha blends every liquid over what is behind, unless its own kind's key is set",
          "[q1][render]") {
    const Image water = liquidFrom300("*water1", "");
    const Scaled opaque = scaledBy(water, water, 1.0);
    REQUIRE(opaque.lit > 32 * 32 * 9 / 10);  // the warped texture, all but its black texels

    // "_wateralpha" "0.5" (ericw-tools' spelling, the '_' dropped): half the opaque liquid over black.
    CHECK(scaledBy(liquidFrom300("*water1", "\"_wateralpha\" \"0.5\"\n"), water, 0.5).scaled == 32 * 32);
    // Lava without its own key takes the water's; with "_lavaalpha" its own; slime and teleporters likewise.
    const Image lava = liquidFrom300("*lava1", "");
    CHECK(scaledBy(liquidFrom300("*lava1", "\"_wateralpha\" \"0.5\"\n"), lava, 0.5).scaled == 32 * 32);
    CHECK(scaledBy(liquidFrom300("*lava1", "\"_wateralpha\" \"0.5\"\n\"_lavaalpha\" \"0.25\"\n"), lava, 0.25).scaled == 32 * 32);
    CHECK(scaledBy(liquidFrom300("*lava1", "\"lavaalpha\" \"0.25\"\n"), lava, 0.25).scaled == 32 * 32);
    // A kind's own key does not reach water or another kind.
    CHECK(scaledBy(liquidFrom300("*water1", "\"_lavaalpha\" \"0.25\"\n"), water, 1.0).scaled == 32 * 32);
    CHECK(scaledBy(liquidFrom300("*slime0", "\"_lavaalpha\" \"0.25\"\n"), liquidFrom300("*slime0", ""), 1.0).scaled == 32 * 32);
    const Image tele = liquidFrom300("*teleport", "");
    CHECK(scaledBy(liquidFrom300("*teleport", "\"_wateralpha\" \"0.5\"\n\"_telealpha\" \"1\"\n"), tele, 1.0).scaled == 32 * 32);
    CHECK(scaledBy(liquidFrom300("*teleport", "\"_telealpha\" \"0.25\"\n"), tele, 0.25).scaled == 32 * 32);
    // Out of range clamps as GL clamps a colour's alpha; garbage reads as 0 (atof), which for water is clear.
    CHECK(scaledBy(liquidFrom300("*water1", "\"_wateralpha\" \"3\"\n"), water, 1.0).scaled == 32 * 32);
    CHECK(scaledBy(liquidFrom300("*water1", "\"_wateralpha\" \"murky\"\n"), water, 0.0).scaled == 32 * 32);
    // A brush entity's own alpha wins over the map's (GL_WaterAlphaForEntitySurface): ENTALPHA 0.5 is 127 / 254.
    CHECK(scaledBy(liquidFrom300("*water1", "\"_wateralpha\" \"0.25\"\n", "\"alpha\" \"0.5\"\n"), water, 127.0 / 254.0).scaled ==
          32 * 32);
}

TEST_CASE("q1: a see-through liquid is fogged before it is blended", "[q1][render]") {
    // fog 0.05 red at depth 300: f = exp(-(0.05 / 64 x 300)^2); the fragment f c + (1 - f) red, blended at 0.5.
    const double f = std::exp(-std::pow(0.05 / 64.0 * 300.0, 2.0)), a = 0.5;
    const Image half = liquidFrom300("*water1", "\"_wateralpha\" \"0.5\"\n"),
                fogged = liquidFrom300("*water1", "\"_wateralpha\" \"0.5\"\n\"fog\" \"0.05 1 0 0\"\n");
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 32; ++x) {
            INFO("pixel " << x << "," << y);
            const float *h = half.at(x, y), *g = fogged.at(x, y);
            CHECK(g[0] == Approx(f * h[0] + a * (1 - f)).margin(1e-5));
            CHECK(g[1] == Approx(f * h[1]).margin(1e-5));
            CHECK(g[2] == Approx(f * h[2]).margin(1e-5));
        }
}

TEST_CASE("q1: lit water is the warped texture x 2 x its lightmap, blended and fogged as the world shader does", "[q1][render]") {
    // A block of byte 64 everywhere: style 'm' gives 64 x 264 / 256 / 255 = 0.258824; the world shader doubles it
    // (gl_overbright), so every pixel is 0.517647 x the unlit liquid's (which is the warped texture alone).
    const double light = 2.0 * 64.0 * 264.0 / 256.0 / 255.0;
    const Image unlit = liquidFrom300("*water1", "");
    const Image lit = liquidFrom300("*water1", "", "", 64);
    CHECK(scaledBy(lit, unlit, light).scaled == 32 * 32);
    // Its liquid alpha blends the shaded result: half of it over black.
    CHECK(scaledBy(liquidFrom300("*water1", "\"_wateralpha\" \"0.5\"\n", "", 64), unlit, 0.5 * light).scaled == 32 * 32);
    // Fog before the blend: g = a (f c + (1 - f) red), c the opaque lit pixel.
    const double f = std::exp(-std::pow(0.05 / 64.0 * 300.0, 2.0)), a = 0.5;
    const Image fogged = liquidFrom300("*water1", "\"_wateralpha\" \"0.5\"\n\"fog\" \"0.05 1 0 0\"\n", "", 64);
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 32; ++x) {
            INFO("pixel " << x << "," << y);
            const float *c = lit.at(x, y), *g = fogged.at(x, y);
            CHECK(g[0] == Approx(a * (f * c[0] + (1 - f))).margin(1e-5));
            CHECK(g[1] == Approx(a * f * c[1]).margin(1e-5));
            CHECK(g[2] == Approx(a * f * c[2]).margin(1e-5));
        }
}
