// Cut-outs resolved in the visibility buffer, through the whole frame: the vector alpha test (alpha bytes,
// byte gathers) against the portable one, over many mip levels and texel positions.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>

#include "luxel/render/render.hpp"
#include "support/render_fixtures.hpp"
#include "../src/render/shade/parts.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// One alpha-tested, two-sided material on texture 0 of `m`.
void cutoutLook(MaterialSet& m, float ref, float opacity = 1.0f) {
    m.looks.resize(1);
    m.looks[0].texture = 0;
    m.looks[0].blend = BlendMode::AlphaTest;
    m.looks[0].alphaRef = ref;
    m.looks[0].opacity = opacity;
    m.looks[0].twoSided = true;
}

// `count` tilted square cards of radius 40 facing the camera at the origin (looking down +x), at depths in
// [nearest, farthest], each with the texture repeated repeat(c) times across it.
template <typename Repeat>
RenderScene layeredCards(std::mt19937& rng, int count, float spread, float nearest, float farthest, float maxTilt,
                         Repeat repeat) {
    RenderScene s;
    s.world.materials.push_back(Material{});
    std::uniform_real_distribution<float> at(-spread, spread), depth(nearest, farthest), tilt(-maxTilt, maxTilt);
    for (int c = 0; c < count; ++c) {
        const Vec3 o{depth(rng), at(rng), at(rng) * 0.5f};
        const float r = 40, k = tilt(rng), n = repeat(c);
        std::vector<FixtureVertex> v{{{o.x - r * k, o.y - r, o.z + r}, {1, 1, 1, 1}, {}, {0, 0}},
                                     {{o.x + r * k, o.y + r, o.z + r}, {1, 1, 1, 1}, {}, {n, 0}},
                                     {{o.x + r * k, o.y + r, o.z - r}, {1, 1, 1, 1}, {}, {n, n}},
                                     {{o.x - r * k, o.y - r, o.z - r}, {1, 1, 1, 1}, {}, {0, n}}};
        addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Vertex, -1, true, 0);
    }
    return s;
}

// The scene at 320x180, lit, through the vector and the portable loops: the same bits and the same coverage.
// Returns the pixels covered.
size_t sameOnBothPaths(const RenderScene& s, const MaterialSet& m) {
    RenderOptions o = materialOptions(RenderMode::Lit, m);
    o.background = {0, 0, 0};
    const BothPaths both = renderBothPaths(s, makeCamera({0, 0, 0}, {0, 0, 0}, 320, 180), o);
    REQUIRE(both.vec.pixels.size() == both.portable.pixels.size());
    CHECK(std::memcmp(both.vec.pixels.data(), both.portable.pixels.data(), both.vec.pixels.size() * sizeof(float)) == 0);
    CHECK(both.vecStats.pixelsCovered == both.portableStats.pixelsCovered);
    return both.vecStats.pixelsCovered;
}

}  // namespace

TEST_CASE("cut-outs: vector and portable alpha tests keep the same pixels on oblique, layered foliage", "[textured]") {
    // 64x64 texture of random alpha (a fifth of the texels opaque), tiled 6 times over 40 tilted cards at
    // depths 60..500: each frame samples several mip levels, wraps, and resolves many overlapping cut-outs.
    std::mt19937 rng(8);
    RgbaImage img;
    img.width = img.height = 64;
    for (int i = 0; i < 64 * 64; ++i) {
        const uint8_t a = rng() % 5 == 0 ? uint8_t(128 + rng() % 128) : uint8_t(rng() % 128);
        img.rgba.insert(img.rgba.end(), {uint8_t(rng()), uint8_t(rng()), uint8_t(rng()), a});
    }
    MaterialSet m;
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("leaves", img)));
    REQUIRE(m.textures[0]->alphaLevels.size() == m.textures[0]->mips.size());
    cutoutLook(m, 0.5f);
    const size_t covered = sameOnBothPaths(layeredCards(rng, 40, 150, 60, 500, 0.8f, [](int) { return 6.0f; }), m);
    // Something to compare: the cards keep some pixels and drop others.
    CHECK(covered > 500);
    CHECK(covered < 320u * 180u * 3 / 4);
}

TEST_CASE("cut-outs: the byte bounds that decide an alpha test without filtering", "[textured]") {
    using render::shading::cutoutBytes;
    // ref 0.5: byte 128 is 0.50196 (keeps), 127 is 0.49804 (drops); each farther than the 1e-5 margin.
    auto half = cutoutBytes(0.5f, 1.0f);
    CHECK(half.passMin == 128);
    CHECK(half.failMax == 127);
    // A reference exactly on a byte's value: that byte's footprints are filtered, its neighbours decide.
    auto exact = cutoutBytes(128.0f / 255.0f, 1.0f);
    CHECK(exact.passMin == 129);
    CHECK(exact.failMax == 127);
    // Opacity 0.5 with ref 0.25: byte b keeps when b / 255 * 0.5 >= 0.25, the same bytes as above.
    auto faded = cutoutBytes(0.25f, 0.5f);
    CHECK(faded.passMin == 128);
    CHECK(faded.failMax == 127);
    // ref 0 keeps everything; a reference above 1 keeps nothing; opacity 0 drops everything with ref > 0.
    CHECK(cutoutBytes(0.0f, 1.0f).passMin == 1);  // byte 0 filters to exactly 0: at the reference, filtered
    CHECK(cutoutBytes(0.0f, 1.0f).failMax == -1);
    CHECK(cutoutBytes(1.5f, 1.0f).passMin == 256);
    CHECK(cutoutBytes(1.5f, 1.0f).failMax == 255);
    CHECK(cutoutBytes(0.5f, 0.0f).failMax == 255);
    // A negative (or NaN) opacity decides nothing from bytes.
    CHECK(cutoutBytes(0.5f, -1.0f).passMin == 256);
    CHECK(cutoutBytes(0.5f, -1.0f).failMax == -1);
}

TEST_CASE("cut-outs: footprint ranges (vector) and filtering (portable) keep the same pixels at references on texel values",
          "[textured]") {
    // Flat 4x4 blocks of alpha 0, 127, 128, 129 and 255 with sharp edges between them, so most footprints are
    // uniform (decided from their range) and the rest straddle a reference; references exactly on texel values
    // and opacities below 1 put the filtered alpha right at the test's edge.
    std::mt19937 rng(21);
    const uint8_t levels[5] = {0, 127, 128, 129, 255};
    RgbaImage img;
    img.width = img.height = 32;
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 32; ++x) {
            const uint8_t a = levels[((x / 4) * 7 + (y / 4) * 3) % 5];
            img.rgba.insert(img.rgba.end(), {uint8_t(rng()), uint8_t(rng()), uint8_t(rng()), a});
        }
    const auto texture = std::make_shared<const Texture>(makeTexture("blocks", img));
    REQUIRE(texture->alphaCellRanges.size() == texture->mips.size());
    // The level-0 range of texel (3, 0): bytes of (3, 0), (4, 0), (3, 1), (4, 1): blocks 0 and 1 of the first row.
    CHECK((texture->alphaCellRanges[0][3] & 0xff) == std::min(levels[0], levels[7 % 5]));
    CHECK((texture->alphaCellRanges[0][3] >> 8) == std::max(levels[0], levels[7 % 5]));
    size_t everything = 0;
    for (const auto& [ref, opacity] : std::vector<std::pair<float, float>>{
             {0.0f, 1.0f}, {0.5f, 1.0f}, {128.0f / 255.0f, 1.0f}, {127.0f / 255.0f, 1.0f}, {0.25f, 0.5f}, {64.0f / 255.0f, 0.5f},
             // One float either side of a texel value: a uniform footprint of byte 128 drops, then keeps.
             {std::nextafter(128.0f / 255.0f, 1.0f), 1.0f}, {std::nextafter(128.0f / 255.0f, 0.0f), 1.0f}}) {
        CAPTURE(ref, opacity);
        MaterialSet m;
        m.textures.push_back(texture);
        cutoutLook(m, ref, opacity);
        const size_t covered = sameOnBothPaths(layeredCards(rng, 24, 120, 40, 400, 0.9f, [](int c) { return 1.0f + float(c % 4); }), m);
        // Something to compare: ref 0 keeps every card's pixels, the others drop some of them.
        if (ref == 0) everything = covered;
        CHECK(covered > 500);
        if (ref > 0) CHECK(covered < everything);
    }
}
