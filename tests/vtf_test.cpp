// VTF decoding against files written here byte by byte from the format description (header layout, resource
// directory, mip/frame/face/slice order), with texels whose colours follow from the format definitions and the
// DXT block rules, worked out by hand (the writer: tests/support/vtf_writer). The real maps' cube maps:
// vtf_maps_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <set>

#include "luxel/io/map_source.hpp"
#include "luxel/material/vtf.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/test_paths.hpp"
#include "support/vtf_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

using Rgba = std::array<int, 4>;

Rgba texel(const RgbaImage& img, int x, int y) {
    const size_t i = (size_t(y) * size_t(img.width) + size_t(x)) * 4;
    return {img.rgba.at(i), img.rgba.at(i + 1), img.rgba.at(i + 2), img.rgba.at(i + 3)};
}

// The colour the synthetic 4x4 images give texel (x, y): every channel differs between texels.
Rgba pattern(int x, int y) { return {10 * x + 1, 20 * y + 2, 100 + 4 * y + x, 250 - x - 4 * y}; }

// A byte for each channel of pattern(), in `order` ("bgr", "rgba", ...), for a w x h image.
Bytes patternBytes(const std::string& order, int w = 4, int h = 4) {
    Bytes b;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const Rgba c = pattern(x, y);
            for (char ch : order) b.push_back(uint8_t(c[size_t(std::string("rgba").find(ch))]));
        }
    return b;
}

std::string decodeError(const Bytes& file, const std::string& name = "bad.vtf", int mip = 0) {
    try {
        decodeVtf(file, name, mip);
    } catch (const DecodeError& e) {
        CHECK(e.file() == name);
        return e.what();
    }
    FAIL("no DecodeError");
    return {};
}

}  // namespace

TEST_CASE("vtf: 7.2 BGR888 with a thumbnail before the image", "[texture_decode]") {
    VtfSpec s;
    s.format = kVtfBGR888;
    s.flags = 0x4;  // clamp S: not an alpha or cube map flag
    // A 4x4 DXT1 thumbnail is one 8-byte block; its bytes must be skipped, not decoded.
    s.lowFormat = kVtfDXT1, s.lowWidth = 4, s.lowHeight = 4;
    s.lowData = Bytes(8, 0xee);
    s.data = patternBytes("bgr");
    const Bytes file = makeVtf(s);

    const VtfInfo info = readVtfInfo(file, "bgr.vtf");
    CHECK(info.versionMajor == 7);
    CHECK(info.versionMinor == 2);
    CHECK(info.width == 4);
    CHECK(info.height == 4);
    CHECK(info.depth == 1);
    CHECK(info.format == kVtfBGR888);
    CHECK(info.mips == 1);
    CHECK(info.frames == 1);
    CHECK(info.faces == 1);
    CHECK(info.flags == 0x4);
    CHECK(info.reflectivity == std::array<float, 3>{0.25f, 0.5f, 0.75f});
    CHECK(info.bumpScale == 1.5f);
    CHECK_FALSE(info.hasAlpha());
    CHECK_FALSE(info.hdr);

    const RgbaImage img = decodeVtf(file, "bgr.vtf");
    REQUIRE(img.width == 4);
    REQUIRE(img.height == 4);
    REQUIRE(img.rgba.size() == 64);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            Rgba want = pattern(x, y);
            want[3] = 255;
            CHECK(texel(img, x, y) == want);
        }
}

TEST_CASE("vtf: 7.0 and 7.1 headers are 64 bytes", "[texture_decode]") {
    for (uint32_t minor : {0u, 1u}) {
        VtfSpec s;
        s.minor = minor;
        s.format = kVtfRGBA8888;
        s.data = patternBytes("rgba");
        const RgbaImage img = decodeVtf(makeVtf(s), "old.vtf");
        CHECK(texel(img, 3, 2) == pattern(3, 2));
        CHECK(readVtfInfo(makeVtf(s), "old.vtf").depth == 1);
    }
}

TEST_CASE("vtf: 7.3-7.5 find the image through the resource directory", "[texture_decode]") {
    for (uint32_t minor : {3u, 4u, 5u}) {
        INFO("7." << minor);
        VtfSpec s;
        s.minor = minor;
        s.format = kVtfRGBA8888;
        s.flags = kVtfFlagEightBitAlpha;
        s.lowFormat = kVtfRGB888, s.lowWidth = 1, s.lowHeight = 1;
        s.lowData = {9, 9, 9};
        s.extraResource = Bytes(13, 0x77);  // an odd length: the image offset is not 4-aligned
        s.data = patternBytes("rgba");
        const Bytes file = makeVtf(s);
        const VtfInfo info = readVtfInfo(file, "res.vtf");
        CHECK(info.versionMinor == minor);
        CHECK(info.hasAlpha());
        const RgbaImage img = decodeVtf(file, "res.vtf");
        REQUIRE(img.width == 4);
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 4; ++x) CHECK(texel(img, x, y) == pattern(x, y));
    }
}

TEST_CASE("vtf: 7.6 is read like 7.5 unless its data is deflate-compressed", "[texture_decode]") {
    VtfSpec s;
    s.minor = 6;
    s.format = kVtfRGBA8888;
    s.data = patternBytes("rgba");
    s.axcStrength = 0;  // strength 0: stored uncompressed
    CHECK(texel(decodeVtf(makeVtf(s), "v76.vtf"), 1, 1) == pattern(1, 1));
    s.axcStrength = 6;
    CHECK_THAT(decodeError(makeVtf(s), "v76.vtf"), Catch::Contains("deflate"));
}

TEST_CASE("vtf: I8 and IA88 are grey levels", "[texture_decode]") {
    VtfSpec s;
    s.format = kVtfI8;
    s.data = patternBytes("r");
    RgbaImage img = decodeVtf(makeVtf(s), "i8.vtf");
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            const int i = pattern(x, y)[0];
            CHECK(texel(img, x, y) == Rgba{i, i, i, 255});
        }
    s.format = kVtfIA88;
    s.data = patternBytes("ra");
    img = decodeVtf(makeVtf(s), "ia88.vtf");
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            const Rgba p = pattern(x, y);
            CHECK(texel(img, x, y) == Rgba{p[0], p[0], p[0], p[3]});
        }
}

TEST_CASE("vtf: byte-order and packed 16-bit formats", "[texture_decode]") {
    struct Case {
        int32_t format;
        Bytes texel;  // one 1x1 image
        Rgba want;
    };
    // Valve names formats in memory byte order (BGRA8888 = bytes B, G, R, A). Packed 16-bit formats are
    // little-endian words whose fields are named from the low bits up (the SDK's BGR565_t bitfields:
    // b:5, g:6, r:5). Field expansion replicates the top bits: 5-bit 16 -> 132, 6-bit 32 -> 130,
    // 4-bit 8 -> 136 (the nearest 8-bit values to 16/31, 32/63, 8/15 of 255 as well).
    const std::vector<Case> cases = {
        {kVtfRGBA8888, {1, 2, 3, 4}, {1, 2, 3, 4}},
        {kVtfABGR8888, {1, 2, 3, 4}, {4, 3, 2, 1}},
        {kVtfARGB8888, {1, 2, 3, 4}, {2, 3, 4, 1}},
        {kVtfBGRA8888, {1, 2, 3, 4}, {3, 2, 1, 4}},
        {kVtfBGRX8888, {1, 2, 3, 4}, {3, 2, 1, 255}},
        {kVtfUVWQ8888, {1, 2, 3, 4}, {1, 2, 3, 4}},
        {kVtfUVLX8888, {1, 2, 3, 4}, {1, 2, 3, 4}},
        {kVtfRGB888, {1, 2, 3}, {1, 2, 3, 255}},
        {kVtfBGR888, {1, 2, 3}, {3, 2, 1, 255}},
        {kVtfBGR888Bluescreen, {1, 2, 3}, {3, 2, 1, 255}},
        {kVtfBGR888Bluescreen, {255, 0, 0}, {0, 0, 0, 0}},  // pure blue is the transparent key
        {kVtfRGB888Bluescreen, {0, 0, 255}, {0, 0, 0, 0}},
        {kVtfA8, {77}, {0, 0, 0, 77}},
        {kVtfUV88, {5, 250}, {5, 250, 0, 255}},
        // 0xF800: top five bits set. BGR565 keeps red there; RGB565 mirrors it, so blue.
        {kVtfBGR565, {0x00, 0xf8}, {255, 0, 0, 255}},
        {kVtfRGB565, {0x00, 0xf8}, {0, 0, 255, 255}},
        // 0x07E0: the six green bits.
        {kVtfBGR565, {0xe0, 0x07}, {0, 255, 0, 255}},
        // b = 16 (bits 0-4), g = 32 (bits 5-10), r = 0: 0x0410.
        {kVtfBGR565, {0x10, 0x04}, {0, 130, 132, 255}},
        {kVtfRGB565, {0x10, 0x04}, {132, 130, 0, 255}},
        // BGRA5551: b bits 0-4, g 5-9, r 10-14, a bit 15. r = 31, g = 0, b = 16, a = 1: 0xFC10.
        {kVtfBGRA5551, {0x10, 0xfc}, {255, 0, 132, 255}},
        {kVtfBGRA5551, {0x10, 0x7c}, {255, 0, 132, 0}},
        {kVtfBGRX5551, {0x10, 0x7c}, {255, 0, 132, 255}},
        // BGRA4444: b bits 0-3, g 4-7, r 8-11, a 12-15. b = 8, g = 15, r = 0, a = 4: 0x40F8.
        {kVtfBGRA4444, {0xf8, 0x40}, {0, 255, 136, 68}},
    };
    for (const Case& c : cases) {
        INFO(vtfFormatName(c.format) << " bytes " << int(c.texel[0]));
        VtfSpec s;
        s.width = s.height = 1;
        s.format = c.format;
        s.data = c.texel;
        const RgbaImage img = decodeVtf(makeVtf(s), "fmt.vtf");
        REQUIRE(img.width == 1);
        CHECK(texel(img, 0, 0) == c.want);
    }
}

TEST_CASE("vtf: RGBA16161616F clamps linear HDR values and stores them sRGB-encoded", "[texture_decode]") {
    // Half floats: 0x3C00 = 1.0, 0x3400 = 0.25, 0x4000 = 2.0, 0xBC00 = -1.0, 0x0000 = 0.
    // sRGB(0.25) = 1.055 * 0.25^(1/2.4) - 0.055 = 0.5371 -> 136.96 -> 137; alpha stays linear: 0.25 -> 63.75 -> 64.
    VtfSpec s;
    s.width = 2, s.height = 1;
    s.format = kVtfRGBA16161616F;
    LeWriter w;
    for (uint16_t h : {0x3400, 0x3c00, 0x4000, 0x3400}) w.u16(h);
    for (uint16_t h : {0xbc00, 0x0000, 0x3c00, 0x3c00}) w.u16(h);
    s.data = w.bytes;
    const Bytes file = makeVtf(s);
    CHECK(readVtfInfo(file, "hdr.vtf").hdr);
    const RgbaImage img = decodeVtf(file, "hdr.vtf");
    CHECK(texel(img, 0, 0) == Rgba{137, 255, 255, 64});
    CHECK(texel(img, 1, 0) == Rgba{0, 0, 255, 255});
}

TEST_CASE("vtf: DXT1 blocks in four-colour and three-colour mode", "[texture_decode]") {
    // Endpoints are RGB565 words. Four-colour mode (c0 > c1): c2 = (2 c0 + c1) / 3, c3 = (c0 + 2 c1) / 3.
    // c0 = 0xF800 red (255, 0, 0), c1 = 0x001F blue (0, 0, 255): c2 = (170, 0, 85), c3 = (85, 0, 170) exactly.
    // Index bits: 2 per texel, row by row, texel 0 in the low bits of the first index byte;
    // 0xE4 = indices 0, 1, 2, 3 across a row.
    const Bytes fourColour = {0x00, 0xf8, 0x1f, 0x00, 0xe4, 0xe4, 0xe4, 0xe4};
    // Three-colour mode (c0 <= c1): c2 = (c0 + c1) / 2, index 3 transparent black.
    // c0 = 0x0000 black, c1 = 0x8000 (red field 16 -> 132): c2 = (66, 0, 0).
    const Bytes threeColour = {0x00, 0x00, 0x00, 0x80, 0xe4, 0xe4, 0xe4, 0xe4};
    const Rgba four[4] = {{255, 0, 0, 255}, {0, 0, 255, 255}, {170, 0, 85, 255}, {85, 0, 170, 255}};
    const Rgba three[4] = {{0, 0, 0, 255}, {132, 0, 0, 255}, {66, 0, 0, 255}, {0, 0, 0, 0}};
    for (int32_t format : {kVtfDXT1, kVtfDXT1OneBitAlpha}) {
        INFO(vtfFormatName(format));
        VtfSpec s;
        s.width = 8, s.height = 4;
        s.format = format;
        s.data = fourColour;  // blocks left to right
        s.data.insert(s.data.end(), threeColour.begin(), threeColour.end());
        const RgbaImage img = decodeVtf(makeVtf(s), "dxt1.vtf");
        REQUIRE(img.width == 8);
        REQUIRE(img.height == 4);
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 4; ++x) {
                CHECK(texel(img, x, y) == four[x]);
                CHECK(texel(img, x + 4, y) == three[x]);
            }
    }
}

TEST_CASE("vtf: DXT3 explicit alpha and DXT5 interpolated alpha", "[texture_decode]") {
    // The colour half of each block: c0 = c1 = 0xFFFF white, all indices 0 -> white everywhere.
    const Bytes white = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    SECTION("DXT3: 4 bits a texel, texel 0 in the low nibble; value n -> 17 n") {
        VtfSpec s;
        s.format = kVtfDXT3;
        for (int i = 0; i < 8; ++i) s.data.push_back(uint8_t((2 * i) | ((2 * i + 1) << 4)));  // texel i: alpha i
        s.data.insert(s.data.end(), white.begin(), white.end());
        const RgbaImage img = decodeVtf(makeVtf(s), "dxt3.vtf");
        for (int i = 0; i < 16; ++i) CHECK(texel(img, i % 4, i / 4) == Rgba{255, 255, 255, 17 * i});
    }
    SECTION("DXT5: 8-value and 6-value alpha blocks") {
        // Alpha indices: 3 bits a texel, 48 bits little-endian after a0 and a1; texel i gets index i % 8.
        // The 48-bit value with 3-bit fields 0..7 repeated twice: 0xFAC688 per 8 texels.
        Bytes indexBits;
        uint64_t bits = 0;
        for (int i = 0; i < 16; ++i) bits |= uint64_t(i % 8) << (3 * i);
        for (int i = 0; i < 6; ++i) indexBits.push_back(uint8_t(bits >> (8 * i)));
        CHECK(indexBits == Bytes{0x88, 0xc6, 0xfa, 0x88, 0xc6, 0xfa});
        VtfSpec s;
        s.width = 8, s.height = 4;
        s.format = kVtfDXT5;
        // a0 = 70 > a1 = 0: a_i = ((8 - i) a0 + (i - 1) a1) / 7 for i = 2..7 -> 60, 50, 40, 30, 20, 10.
        s.data = {70, 0};
        s.data.insert(s.data.end(), indexBits.begin(), indexBits.end());
        s.data.insert(s.data.end(), white.begin(), white.end());
        // a0 = 0 <= a1 = 100: a_i = ((6 - i) a0 + (i - 1) a1) / 5 for i = 2..5 -> 20, 40, 60, 80; 6 -> 0, 7 -> 255.
        s.data.insert(s.data.end(), {0, 100});
        s.data.insert(s.data.end(), indexBits.begin(), indexBits.end());
        s.data.insert(s.data.end(), white.begin(), white.end());
        const int eight[8] = {70, 0, 60, 50, 40, 30, 20, 10};
        const int six[8] = {0, 100, 20, 40, 60, 80, 0, 255};
        const RgbaImage img = decodeVtf(makeVtf(s), "dxt5.vtf");
        for (int i = 0; i < 16; ++i) {
            CHECK(texel(img, i % 4, i / 4) == Rgba{255, 255, 255, eight[i % 8]});
            CHECK(texel(img, 4 + i % 4, i / 4) == Rgba{255, 255, 255, six[i % 8]});
        }
    }
}

TEST_CASE("vtf: mips are stored smallest first and mip 0 is the largest", "[texture_decode]") {
    // 4x4, 2x2, 1x1 RGB888 mips, each a single colour, stored 1x1, 2x2, 4x4.
    VtfSpec s;
    s.format = kVtfRGB888;
    s.mips = 3;
    auto fill = [](Bytes& b, int texels, Rgba c) {
        for (int i = 0; i < texels; ++i) b.insert(b.end(), {uint8_t(c[0]), uint8_t(c[1]), uint8_t(c[2])});
    };
    fill(s.data, 1, {0, 0, 200, 255});
    fill(s.data, 4, {0, 200, 0, 255});
    fill(s.data, 16, {200, 0, 0, 255});
    const Bytes file = makeVtf(s);
    struct Want { int mip, side; Rgba colour; };
    for (const Want& want : {Want{0, 4, {200, 0, 0, 255}}, Want{1, 2, {0, 200, 0, 255}}, Want{2, 1, {0, 0, 200, 255}},
                             Want{9, 1, {0, 0, 200, 255}}, Want{-3, 4, {200, 0, 0, 255}}}) {
        INFO("mip " << want.mip);
        const RgbaImage img = decodeVtf(file, "mips.vtf", want.mip);
        REQUIRE(img.width == want.side);
        REQUIRE(img.height == want.side);
        CHECK(texel(img, want.side - 1, want.side - 1) == want.colour);
        CHECK(texel(img, 0, 0) == want.colour);
    }
}

TEST_CASE("vtf: mip counts past the texture's size are 1x1 levels", "[texture_decode]") {
    // The count is a byte: 40 levels of a 2x1 image are 2x1 and then 39 of 1x1 (sizes never shift below 1).
    VtfSpec s;
    s.width = 2, s.height = 1;
    s.format = kVtfI8;
    s.mips = 40;
    for (int m = 39; m >= 1; --m) s.data.push_back(uint8_t(m));
    s.data.insert(s.data.end(), {200, 201});
    const Bytes file = makeVtf(s);
    CHECK(texel(decodeVtf(file, "many.vtf"), 1, 0) == Rgba{201, 201, 201, 255});
    CHECK(texel(decodeVtf(file, "many.vtf", 35), 0, 0) == Rgba{35, 35, 35, 255});
}

TEST_CASE("vtf: frame 0 of an animated DXT1 texture with mips", "[texture_decode]") {
    // 8x8, 2 mips, 2 frames: [4x4 frame 0][4x4 frame 1][8x8 frame 0: 4 blocks][8x8 frame 1: 4 blocks].
    // Every block is solid (all indices 0 -> c0); each block gets its own c0 so a wrong offset shows.
    auto solid = [](uint16_t c0) { return Bytes{uint8_t(c0), uint8_t(c0 >> 8), 0, 0, 0, 0, 0, 0}; };
    VtfSpec s;
    s.width = s.height = 8;
    s.format = kVtfDXT1;
    s.mips = 2;
    s.frames = 2;
    const uint16_t words[10] = {0x001f, 0x07e0, 0xf800, 0xffe0, 0xf81f, 0x07ff, 0x0010, 0x0400, 0x8000, 0x8010};
    for (uint16_t c : words) {
        const Bytes b = solid(c);
        s.data.insert(s.data.end(), b.begin(), b.end());
    }
    const Bytes file = makeVtf(s);
    CHECK(readVtfInfo(file, "anim.vtf").frames == 2);
    // Mip 0 of frame 0 is blocks 2..5: red, yellow, magenta, cyan (top-left, top-right, bottom-left, bottom-right).
    const RgbaImage img = decodeVtf(file, "anim.vtf");
    REQUIRE(img.width == 8);
    CHECK(texel(img, 0, 0) == Rgba{255, 0, 0, 255});
    CHECK(texel(img, 7, 3) == Rgba{255, 255, 0, 255});
    CHECK(texel(img, 3, 4) == Rgba{255, 0, 255, 255});
    CHECK(texel(img, 4, 7) == Rgba{0, 255, 255, 255});
    // Mip 1 of frame 0 is block 0: blue.
    const RgbaImage small = decodeVtf(file, "anim.vtf", 1);
    REQUIRE(small.width == 4);
    CHECK(texel(small, 2, 2) == Rgba{0, 0, 255, 255});
}

TEST_CASE("vtf: cube maps carry a sphere-map face before 7.5", "[texture_decode]") {
    // 2x2 RGB888 cube map, 2 mips (2x2, 1x1): mip 1 holds every face, then mip 0 face 0. Each face is filled
    // with its own index so reading past the wrong number of faces shows.
    struct Case { uint32_t minor; uint16_t firstFrame; int faces; };
    for (const Case& c : {Case{4, 0, 7}, Case{4, 0xffff, 6}, Case{5, 0, 6}, Case{1, 0, 7}}) {
        INFO("7." << c.minor << " first frame " << c.firstFrame);
        VtfSpec s;
        s.minor = c.minor;
        s.width = s.height = 2;
        s.format = kVtfRGB888;
        s.mips = 2;
        s.flags = kVtfFlagEnvmap;
        s.firstFrame = c.firstFrame;
        for (int f = 0; f < c.faces; ++f) s.data.insert(s.data.end(), {uint8_t(100 + f), 0, 0});
        for (int f = 0; f < c.faces; ++f)
            for (int i = 0; i < 4; ++i) s.data.insert(s.data.end(), {uint8_t(10 + f), uint8_t(i), 0});
        const Bytes file = makeVtf(s);
        CHECK(readVtfInfo(file, "cube.vtf").faces == c.faces);
        const RgbaImage img = decodeVtf(file, "cube.vtf");
        CHECK(texel(img, 0, 0) == Rgba{10, 0, 0, 255});
        CHECK(texel(img, 1, 1) == Rgba{10, 3, 0, 255});
        CHECK(texel(decodeVtf(file, "cube.vtf", 1), 0, 0) == Rgba{100, 0, 0, 255});
        // One face too few in the file is a truncated file.
        Bytes cut = file;
        cut.resize(cut.size() - 12);
        CHECK_THROWS_AS(decodeVtf(cut, "cube.vtf"), DecodeError);
    }
}

TEST_CASE("vtf: slice 0 of a volume texture", "[texture_decode]") {
    // 2x2x2 I8, 2 mips: mip 1 (1x1x1), then mip 0 slice 0, slice 1.
    VtfSpec s;
    s.width = s.height = 2;
    s.depth = 2;
    s.format = kVtfI8;
    s.mips = 2;
    s.data = {99, 1, 2, 3, 4, 5, 6, 7, 8};
    const Bytes file = makeVtf(s);
    CHECK(readVtfInfo(file, "vol.vtf").depth == 2);
    const RgbaImage img = decodeVtf(file, "vol.vtf");
    CHECK(texel(img, 1, 1) == Rgba{4, 4, 4, 255});
    Bytes cut = file;
    cut.pop_back();  // slice 1 is needed for the size check even though it is not decoded
    CHECK_THROWS_AS(decodeVtf(cut, "vol.vtf"), DecodeError);
}

TEST_CASE("vtf: bad files give DecodeErrors that say what is wrong", "[texture_decode]") {
    VtfSpec good;
    good.format = kVtfRGBA8888;
    good.data = patternBytes("rgba");
    const Bytes file = makeVtf(good);
    REQUIRE_NOTHROW(decodeVtf(file, "bad.vtf"));

    SECTION("truncated image data") {
        for (size_t cut : {size_t(1), size_t(64), file.size() - 80, file.size() - 30, file.size()}) {
            INFO("cut " << cut);
            Bytes b = file;
            b.resize(b.size() - cut);
            const std::string what = decodeError(b);
            CHECK_THAT(what, Catch::Contains("bad.vtf"));
        }
        Bytes b = file;
        b.pop_back();
        CHECK_THAT(decodeError(b), Catch::Contains("needs more than the 63 bytes"));
    }
    SECTION("absurd and oversized dimensions are refused before any allocation") {
        VtfSpec s = good;
        s.width = 65535;
        CHECK_THAT(decodeError(makeVtf(s)), Catch::Contains("65535x4"));
        s.width = 0;
        CHECK_THAT(decodeError(makeVtf(s)), Catch::Contains("outside"));
        // Within the side limit but far more data than the file holds.
        s.width = s.height = 8192;
        s.mips = 14;
        CHECK_THAT(decodeError(makeVtf(s)), Catch::Contains("needs more than"));
        s = good;
        s.depth = 65535;
        CHECK_THAT(decodeError(makeVtf(s)), Catch::Contains("4x4x65535"));
        s = good;
        s.frames = 65535;
        s.mips = 255;
        CHECK_THAT(decodeError(makeVtf(s)), Catch::Contains("65535 frames"));
    }
    SECTION("unknown and unsupported formats name the format number") {
        VtfSpec s = good;
        s.format = 99;
        CHECK_THAT(decodeError(makeVtf(s)), Catch::Contains("format 99"));
        s.format = kVtfP8;  // palette-indexed, no palette in the file
        s.data.resize(16);
        const std::string what = decodeError(makeVtf(s));
        CHECK_THAT(what, Catch::Contains("P8 (7)") && Catch::Contains("not supported"));
        s = good;
        s.lowFormat = 77, s.lowWidth = 1, s.lowHeight = 1;
        CHECK_THAT(decodeError(makeVtf(s)), Catch::Contains("low-res image format 77"));
    }
    SECTION("header problems") {
        CHECK_THAT(decodeError({}), Catch::Contains("unexpected end"));
        Bytes b = file;
        b[1] = 'X';
        CHECK_THAT(decodeError(b), Catch::Contains("not a VTF"));
        b = file;
        b[4] = 8;
        CHECK_THAT(decodeError(b), Catch::Contains("version 8.2"));
        b = file;
        b.resize(40);
        CHECK_THAT(decodeError(b), Catch::Contains("unexpected end"));
        VtfSpec s = good;
        s.frames = 0;
        CHECK_THAT(decodeError(makeVtf(s)), Catch::Contains("no frames"));
        s = good;
        s.mips = 0;
        CHECK_THAT(decodeError(makeVtf(s)), Catch::Contains("no mip"));
    }
    SECTION("resource directory problems") {
        VtfSpec s = good;
        s.minor = 4;
        Bytes b = makeVtf(s);
        REQUIRE_NOTHROW(decodeVtf(b, "bad.vtf"));
        // Entry count 0x7fffffff: the directory runs off the end of the file.
        Bytes huge = b;
        huge[71] = 0x7f, huge[70] = huge[69] = huge[68] = 0xff;
        CHECK_THAT(decodeError(huge), Catch::Contains("unexpected end"));
        // The image entry (the second) pointing past the end of the file.
        Bytes past = b;
        past[92] = 0xff, past[93] = 0xff;
        CHECK_THAT(decodeError(past), Catch::Contains("past the end"));
        // No image entry: retag it.
        Bytes none = b;
        none[88] = 0x31;
        CHECK_THAT(decodeError(none), Catch::Contains("no high-res image resource"));
    }
}
