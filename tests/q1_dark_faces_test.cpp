// QuakeSpasm's R_BuildLightMap: a face's block starts at no light and gets its styles' maps added, so in a map with
// light data a face that has none of its own is black; a map without light data is full bright.
#include <catch2/catch.hpp>

#include <algorithm>

#include "support/q1_view.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

double redSum(const Image& im) {
    double sum = 0;
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width; ++x) sum += im.at(x, y)[0];
    return sum;
}

}  // namespace

TEST_CASE("q1: a face without light data in a lit map is black, its fullbright texels still glowing", "[q1][render]") {
    Q1MapBuilder dark = makeQ1FloorMap(Q1Variant::Bsp29);
    dark.faces[0].lightOffset = -1;  // light omits a face that is dark all over: offset -1, no styles
    dark.faces[0].styles = {255, 255, 255, 255};
    // r_lightmap: the block alone, zero everywhere on face 0 (the view sees nothing else).
    const Image lightmap = q1TopDownView(dark, "lightmap", 4, 32);
    CHECK(redSum(lightmap) == 0.0);
    // Lit: as the same face with a block of zero light (face 0's 5 x 3 luxels, the first in the lump): black but
    // for the texture's fullbright texels (indices 224-255, its last 2 of 16 rows), which glow.
    Q1MapBuilder zero = makeQ1FloorMap(Q1Variant::Bsp29);
    REQUIRE(zero.faces[0].lightOffset == 0);
    std::fill(zero.lighting.begin(), zero.lighting.begin() + 15, uint8_t(0));
    std::fill(zero.rgbLighting.begin(), zero.rgbLighting.begin() + 45, uint8_t(0));
    const Image unlit = q1TopDownView(dark, "lit", 4, 32), zeroLit = q1TopDownView(zero, "lit", 4, 32);
    size_t glowing = 0;
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 32; ++x) {
            INFO("pixel " << x << "," << y);
            for (int c = 0; c < 3; ++c) CHECK(unlit.at(x, y)[c] == Approx(zeroLit.at(x, y)[c]).margin(1e-6));
            glowing += unlit.at(x, y)[0] > 0.01f;
        }
    CHECK(glowing > 0);
    CHECK(glowing < 32 * 32 / 2);
    // The same face with styles but an offset of -1 (light -novanilla's records) is black too.
    dark.faces[0].styles = {0, 255, 255, 255};
    CHECK(redSum(q1TopDownView(dark, "lightmap", 4, 32)) == 0.0);
}

TEST_CASE("q1: a map without light data is full bright", "[q1][render]") {
    // An unlit build: an empty lighting lump, faces without offsets or styles. QuakeSpasm fills every block with
    // 255 (r_lightmap: white; gl_overbright halves the stored block and doubles it back).
    Q1MapBuilder unlit = makeQ1FloorMap(Q1Variant::Bsp29);
    unlit.lighting.clear();
    for (auto& f : unlit.faces) f.lightOffset = -1, f.styles = {255, 255, 255, 255};
    const Image lightmap = q1TopDownView(unlit, "lightmap", 4, 32);
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 32; ++x) {
            INFO("pixel " << x << "," << y);
            CHECK(lightmap.at(x, y)[0] > 0.99f);
        }
}
