// The Quake engines' resampling of images whose sides are not powers of two (ResampleTexture), against
// values worked out by hand from its sampling positions.
#include <catch2/catch.hpp>

#include "luxel/material/engine_resample.hpp"

using namespace luxel;

namespace {

RgbaImage image(int w, int h, uint8_t (*value)(int x, int y)) {
    RgbaImage img;
    img.width = w, img.height = h;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 4; ++c) img.rgba.push_back(uint8_t(value(x, y) + c));
    return img;
}

uint8_t at(const RgbaImage& img, int x, int y, int c = 0) { return img.rgba[(size_t(y) * size_t(img.width) + size_t(x)) * 4 + size_t(c)]; }

}  // namespace

TEST_CASE("engine resample: sides go down to a power of two, each texel the mean of 4 (truncated)", "[materials]") {
    // 3x3 -> 2x2. Columns: fracstep = 3 * 65536 / 2 = 98304; first taps at frac 24576 and 122880 -> 0, 1;
    // second taps at 73728 and 172032 -> 1, 2. Rows: (i + 0.25) * 3 / 2 and (i + 0.75) * 3 / 2 truncated:
    // 0 and 1 for i = 0, 1 and 2 for i = 1.
    const RgbaImage in = image(3, 3, [](int x, int y) { return uint8_t(10 * x + 40 * y); });
    const RgbaImage out = resampleToPowerOfTwo(in);
    REQUIRE(out.width == 2);
    REQUIRE(out.height == 2);
    // (in(0,0) + in(1,0) + in(0,1) + in(1,1)) / 4 = (0 + 10 + 40 + 50) / 4 = 25
    CHECK(at(out, 0, 0) == 25);
    // cols 1, 2, rows 0, 1: (10 + 20 + 50 + 60) / 4 = 35
    CHECK(at(out, 1, 0) == 35);
    // cols 0, 1, rows 1, 2: (40 + 50 + 80 + 90) / 4 = 65
    CHECK(at(out, 0, 1) == 65);
    // cols 1, 2, rows 1, 2: (50 + 60 + 90 + 100) / 4 = 75; alpha channel (value + 3) the same way: 78
    CHECK(at(out, 1, 1) == 75);
    CHECK(at(out, 1, 1, 3) == 78);
    // Truncation: (1 + 2 + 1 + 2) / 4 = 1.5 -> 1.
    const RgbaImage odd = resampleToPowerOfTwo(image(3, 1, [](int x, int) { return uint8_t(1 + x % 2); }));
    REQUIRE(odd.width == 2);
    REQUIRE(odd.height == 1);
    CHECK(at(odd, 0, 0) == 1);
}

TEST_CASE("engine resample: power-of-two sides are kept, others round down, never up", "[materials]") {
    auto sides = [](int w, int h) {
        const RgbaImage out = resampleToPowerOfTwo(image(w, h, [](int, int) { return uint8_t(7); }));
        for (size_t i = 0; i < out.rgba.size(); i += 4) REQUIRE(out.rgba[i] == 7);  // a flat image stays flat
        return std::pair{out.width, out.height};
    };
    CHECK(sides(64, 32) == std::pair{64, 32});
    CHECK(sides(100, 64) == std::pair{64, 64});
    CHECK(sides(127, 129) == std::pair{64, 128});
    CHECK(sides(1, 5) == std::pair{1, 4});
    CHECK(sides(1, 1) == std::pair{1, 1});
}
