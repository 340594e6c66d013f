// Quake 2 .wal textures and PCX palettes written here from the format description, with palette colours
// chosen so every index maps to a known RGB; the [maps] test checks the real .wal files' headers and layout.
#include <catch2/catch.hpp>

#include <filesystem>

#include "luxel/io/map_source.hpp"
#include "luxel/material/wal.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

using Rgba = std::array<int, 4>;

// A palette with a different colour for every index: (i, 255 - i, 7 i mod 256).
Palette testPalette() {
    Palette p{};
    for (int i = 0; i < 256; ++i) p[size_t(i)] = {uint8_t(i), uint8_t(255 - i), uint8_t((7 * i) & 255)};
    return p;
}

Rgba paletteColour(int i, int alpha = 255) { return {i, 255 - i, (7 * i) & 255, alpha}; }

// A 4x4 .wal: header (name[32], width, height, offsets[4], animname[32], flags, contents, value = 100 bytes),
// then mip 0 (16 texels, indices 0..15), mip 1 (2x2: 200..203), mip 2 (1x1: 250), mip 3 (1x1: 255).
Bytes makeWal(uint32_t width = 4, uint32_t height = 4) {
    LeWriter w;
    w.fixedString("e1u1/floor1_3", 32);
    w.u32(width);
    w.u32(height);
    for (uint32_t o : {100u, 116u, 120u, 121u}) w.u32(o);
    w.fixedString("e1u1/floor1_4", 32);
    w.u32(0x8);  // SURF_SKY
    w.u32(1);    // CONTENTS_SOLID
    w.u32(300);
    REQUIRE(w.bytes.size() == 100);
    for (int i = 0; i < 16; ++i) w.u8(uint8_t(i));
    for (int i = 0; i < 4; ++i) w.u8(uint8_t(200 + i));
    w.u8(250);
    w.u8(255);
    return w.bytes;
}

Rgba texel(const RgbaImage& img, int x, int y) {
    const size_t i = (size_t(y) * size_t(img.width) + size_t(x)) * 4;
    return {img.rgba.at(i), img.rgba.at(i + 1), img.rgba.at(i + 2), img.rgba.at(i + 3)};
}

// An 8-bit, one-plane PCX: 128-byte header (manufacturer 0x0A, version 5, RLE encoding 1, 8 bits per pixel,
// 1 colour plane at byte 65), some image bytes, then 0x0C and 768 bytes of RGB.
Bytes makePcx(const Palette& palette, uint8_t marker = 0x0c) {
    Bytes b(128, 0);
    b[0] = 0x0a, b[1] = 5, b[2] = 1, b[3] = 8;
    b[65] = 1;
    for (int i = 0; i < 40; ++i) b.push_back(uint8_t(0xc1 + i % 3));  // stand-in for RLE image data
    b.push_back(marker);
    for (const auto& c : palette) b.insert(b.end(), c.begin(), c.end());
    return b;
}

template <class F>
std::string errorOf(F&& f) {
    try {
        f();
    } catch (const DecodeError& e) {
        return e.what();
    }
    FAIL("no DecodeError");
    return {};
}

}  // namespace

TEST_CASE("wal: header fields", "[texture_decode]") {
    const WalInfo info = readWalInfo(makeWal(), "floor.wal");
    CHECK(info.name == "e1u1/floor1_3");
    CHECK(info.nextName == "e1u1/floor1_4");
    CHECK(info.width == 4);
    CHECK(info.height == 4);
    CHECK(info.flags == 0x8);
    CHECK(info.contents == 1);
    CHECK(info.value == 300);
    CHECK(info.mipOffsets == std::array<uint32_t, 4>{100, 116, 120, 121});
}

TEST_CASE("wal: indices through the palette, each mip from its own offset", "[texture_decode]") {
    const Bytes wal = makeWal();
    const Palette pal = testPalette();
    const RgbaImage img = decodeWal(wal, "floor.wal", pal);
    REQUIRE(img.width == 4);
    REQUIRE(img.height == 4);
    REQUIRE(img.rgba.size() == 64);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) CHECK(texel(img, x, y) == paletteColour(4 * y + x));

    const RgbaImage mip1 = decodeWal(wal, "floor.wal", pal, 1);
    REQUIRE(mip1.width == 2);
    REQUIRE(mip1.height == 2);
    for (int i = 0; i < 4; ++i) CHECK(texel(mip1, i % 2, i / 2) == paletteColour(200 + i));
    const RgbaImage mip2 = decodeWal(wal, "floor.wal", pal, 2);
    REQUIRE(mip2.width == 1);
    CHECK(texel(mip2, 0, 0) == paletteColour(250));
    // Levels past 3 clamp to 3, below 0 to 0.
    CHECK(texel(decodeWal(wal, "floor.wal", pal, 7), 0, 0) == paletteColour(255));
    CHECK(decodeWal(wal, "floor.wal", pal, -1).width == 4);
}

TEST_CASE("wal: index 255 is transparent only when asked", "[texture_decode]") {
    const Bytes wal = makeWal();
    const Palette pal = testPalette();
    CHECK(texel(decodeWal(wal, "floor.wal", pal, 3), 0, 0) == paletteColour(255, 255));
    CHECK(texel(decodeWal(wal, "floor.wal", pal, 3, true), 0, 0) == paletteColour(255, 0));
    // Other indices stay opaque.
    CHECK(texel(decodeWal(wal, "floor.wal", pal, 2, true), 0, 0) == paletteColour(250, 255));
}

TEST_CASE("wal: bad files give DecodeErrors", "[texture_decode]") {
    const Palette pal = testPalette();
    Bytes wal = makeWal();
    wal.pop_back();  // mip 3 gone
    REQUIRE_NOTHROW(decodeWal(wal, "floor.wal", pal, 2));
    CHECK_THAT(errorOf([&] { decodeWal(wal, "floor.wal", pal, 3); }),
               Catch::Contains("floor.wal") && Catch::Contains("mip 3"));
    wal.resize(60);
    CHECK_THAT(errorOf([&] { readWalInfo(wal, "floor.wal"); }), Catch::Contains("unexpected end"));
    CHECK_THAT(errorOf([&] { decodeWal(makeWal(0, 4), "zero.wal", pal); }), Catch::Contains("0x4"));
    CHECK_THAT(errorOf([&] { decodeWal(makeWal(4, 0xffffffff), "huge.wal", pal); }),
               Catch::Contains("4x4294967295"));
    // Within the side limit, but the file holds 16 texels, not 8192 x 8192.
    CHECK_THAT(errorOf([&] { decodeWal(makeWal(8192, 8192), "big.wal", pal); }),
               Catch::Contains("extends past end"));
}

TEST_CASE("pcx: the palette is the last 769 bytes", "[texture_decode]") {
    const Palette pal = testPalette();
    const Palette read = readPcxPalette(makePcx(pal), "colormap.pcx");
    CHECK(read == pal);
    // The palette feeds decodeWal end to end.
    CHECK(texel(decodeWal(makeWal(), "floor.wal", read), 3, 3) == paletteColour(15));

    CHECK_THAT(errorOf([&] { readPcxPalette(makePcx(pal, 0x0b), "colormap.pcx"); }),
               Catch::Contains("colormap.pcx") && Catch::Contains("marker"));
    Bytes b = makePcx(pal);
    b[0] = 0x0b;
    CHECK_THAT(errorOf([&] { readPcxPalette(b, "colormap.pcx"); }), Catch::Contains("not a PCX"));
    b = makePcx(pal);
    b[3] = 4;
    CHECK_THAT(errorOf([&] { readPcxPalette(b, "colormap.pcx"); }), Catch::Contains("4 bits per pixel"));
    b = makePcx(pal);
    b[65] = 3;
    CHECK_THAT(errorOf([&] { readPcxPalette(b, "colormap.pcx"); }), Catch::Contains("3 colour planes"));
    b.resize(500);
    CHECK_THAT(errorOf([&] { readPcxPalette(b, "colormap.pcx"); }), Catch::Contains("too small"));
}

TEST_CASE("wal: the real qengine textures", "[texture_decode][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const auto files = sharedMapFiles("q2/qengine_textures/eq2", ".wal");
    REQUIRE(files.size() >= 3);
    Palette grey{};
    for (int i = 0; i < 256; ++i) grey[size_t(i)] = {uint8_t(i), uint8_t(i), uint8_t(i)};
    for (const std::string& path : files) {
        INFO(path);
        const Bytes bytes = readFile(path);
        const WalInfo info = readWalInfo(bytes, path);
        // The name field holds the texture's path without extension; these sit at the root of their set.
        CHECK(info.name == std::filesystem::path(path).stem().string());
        // Quake 2 tools make texture sides multiples of 16 so every mip level has whole texels.
        CHECK(info.width % 16 == 0);
        CHECK(info.height % 16 == 0);
        // Mips follow the 100-byte header back to back, each a quarter of the previous, and end the file.
        uint64_t at = 100;
        for (int m = 0; m < kWalMips; ++m) {
            CHECK(info.mipOffsets[size_t(m)] == at);
            at += uint64_t(info.width >> m) * uint64_t(info.height >> m);
        }
        CHECK(at == bytes.size());
        for (int m = 0; m < kWalMips; ++m) {
            const RgbaImage img = decodeWal(bytes, path, grey, m);
            CHECK(img.width == info.width >> m);
            CHECK(img.height == info.height >> m);
            // With the grey ramp, red is the index the file holds.
            CHECK(img.rgba[0] == bytes[info.mipOffsets[size_t(m)]]);
        }
    }
}
