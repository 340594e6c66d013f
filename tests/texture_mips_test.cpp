// makeTexture's mip chain and cut-out footprint ranges, against their definitions written out here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "luxel/material/material_set.hpp"

using namespace luxel;

namespace {

RgbaImage image(int w, int h, const std::vector<uint8_t>& rgba) {
    RgbaImage img;
    img.width = w, img.height = h, img.rgba = rgba;
    return img;
}

// The next level by its definition: each texel the 2x2 block below it (the last row or column again at odd or
// unit sides), colour weighted by alpha + 1 and rounded to nearest, alpha the rounded plain mean.
RgbaImage halve(const RgbaImage& src) {
    RgbaImage dst;
    dst.width = std::max(1, src.width / 2), dst.height = std::max(1, src.height / 2);
    for (int y = 0; y < dst.height; ++y)
        for (int x = 0; x < dst.width; ++x) {
            uint64_t weighted[3] = {0, 0, 0}, weights = 0, alpha = 0;
            for (int dy = 0; dy < 2; ++dy)
                for (int dx = 0; dx < 2; ++dx) {
                    const int sx = std::min(src.width - 1, 2 * x + dx), sy = std::min(src.height - 1, 2 * y + dy);
                    const uint8_t* t = &src.rgba[(size_t(sy) * size_t(src.width) + size_t(sx)) * 4];
                    for (int c = 0; c < 3; ++c) weighted[c] += uint64_t(t[c]) * (t[3] + 1u);
                    weights += t[3] + 1u;
                    alpha += t[3];
                }
            for (int c = 0; c < 3; ++c) dst.rgba.push_back(uint8_t((2 * weighted[c] + weights) / (2 * weights)));
            dst.rgba.push_back(uint8_t((2 * alpha + 4) / 8));
        }
    return dst;
}

}  // namespace

TEST_CASE("texture mips: a hand-worked 2x2 block", "[texture]") {
    // Opaque: plain rounded means. (10 + 20 + 30 + 41 + 2) / 4 = 25.75 -> 25; alpha stays 255.
    const Texture opaque = makeTexture("o", image(2, 2, {10, 0, 0, 255, 20, 0, 0, 255, 30, 0, 0, 255, 41, 0, 0, 255}));
    REQUIRE(opaque.mips.size() == 2);
    CHECK(textureLevel(opaque, 1).rgba == std::vector<uint8_t>{25, 0, 0, 255});
    // One opaque white texel among three transparent black ones: weights 256 and 1, 1, 1, so red is
    // (255 * 256 + 259 / 2) / 259 = 252.5 -> 252 and alpha (255 + 2) / 4 = 64.
    const Texture cut = makeTexture("c", image(2, 2, {255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    CHECK(textureLevel(cut, 1).rgba == std::vector<uint8_t>{252, 0, 0, 64});
}

TEST_CASE("texture mips: every level matches the definition on random textures of any size", "[texture]") {
    std::mt19937 rng(5);
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{16, 16}, {5, 3}, {1, 7}, {32, 8}, {9, 9}}) {
        CAPTURE(w, h);
        // Alpha in 4x4 blocks, half of them uniform (the equal-weight case) and half random per texel.
        std::vector<uint8_t> rgba;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const int block = (x / 4) + 7 * (y / 4);
                const uint8_t a = block % 2 ? uint8_t(rng()) : uint8_t(block * 37);
                rgba.insert(rgba.end(), {uint8_t(rng()), uint8_t(rng()), uint8_t(rng()), a});
            }
        const Texture t = makeTexture("t", image(w, h, rgba));
        RgbaImage expected = image(w, h, rgba);
        CHECK(textureLevel(t, 0).rgba == expected.rgba);
        for (size_t level = 1; level < t.mips.size(); ++level) {
            CAPTURE(level);
            expected = halve(expected);
            CHECK(t.mips[level].width == expected.width);
            CHECK(t.mips[level].height == expected.height);
            CHECK(textureLevel(t, level).rgba == expected.rgba);
        }
        CHECK(t.mips.back().width == 1);
        CHECK(t.mips.back().height == 1);
        // Footprint ranges: the smallest and largest alpha of texels (x, y) .. (x + 1, y + 1), wrapped.
        REQUIRE(t.alphaCellRanges.size() == t.mips.size());
        for (size_t level = 0; level < t.mips.size(); ++level) {
            const RgbaImage m = textureLevel(t, level);
            for (int y = 0; y < m.height; ++y)
                for (int x = 0; x < m.width; ++x) {
                    int lo = 255, hi = 0;
                    for (int dy = 0; dy < 2; ++dy)
                        for (int dx = 0; dx < 2; ++dx) {
                            const int a = m.rgba[(size_t((y + dy) % m.height) * size_t(m.width) + size_t((x + dx) % m.width)) * 4 + 3];
                            lo = std::min(lo, a), hi = std::max(hi, a);
                        }
                    const uint16_t range = t.alphaCellRanges[level][size_t(y) * size_t(m.width) + size_t(x)];
                    CHECK((range & 0xff) == lo);
                    CHECK((range >> 8) == hi);
                }
        }
    }
}

TEST_CASE("texture mips: opaque textures (the two-channels-per-word path) match the definition", "[texture]") {
    std::mt19937 rng(11);
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{16, 16}, {64, 8}, {2, 32}, {6, 10}, {7, 4}}) {
        CAPTURE(w, h);
        std::vector<uint8_t> rgba;
        for (int i = 0; i < w * h; ++i) rgba.insert(rgba.end(), {uint8_t(rng()), uint8_t(rng()), uint8_t(rng()), 255});
        const Texture t = makeTexture("t", image(w, h, rgba));
        CHECK_FALSE(t.hasAlpha);
        RgbaImage expected = image(w, h, rgba);
        for (size_t level = 0; level < t.mips.size(); ++level) {
            CAPTURE(level);
            if (level > 0) expected = halve(expected);
            const RgbaImage got = textureLevel(t, level);
            CHECK(got.width == expected.width);
            CHECK(got.height == expected.height);
            CHECK(got.rgba == expected.rgba);
            // The padded copy's wrap: its last column and row are column 0 and row 0 again.
            const std::vector<uint32_t>& p = t.paddedLevels[level];
            const size_t stride = size_t(got.width) + 1;
            REQUIRE(p.size() == stride * (size_t(got.height) + 1));
            for (int y = 0; y <= got.height; ++y) CHECK(p[size_t(y) * stride + size_t(got.width)] == p[size_t(y % got.height) * stride]);
            for (int x = 0; x < got.width; ++x) CHECK(p[size_t(got.height) * stride + size_t(x)] == p[size_t(x)]);
        }
    }
}
