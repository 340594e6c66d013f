// PCX images built here byte by byte from the format description (ZSoft's RLE: a byte with both top bits
// set repeats the next byte that many times (low 6 bits); Quake 2's reader lets runs cross scanlines).
#include <catch2/catch.hpp>

#include "luxel/material/pcx.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

using Rgba = std::array<int, 4>;

Palette testPalette() {  // index i -> (i, 255 - i, 7 i mod 256)
    Palette p{};
    for (int i = 0; i < 256; ++i) p[size_t(i)] = {uint8_t(i), uint8_t(255 - i), uint8_t((7 * i) & 255)};
    return p;
}

// Header: manufacturer 0x0A, version 5, RLE, bits per pixel, window 0,0 to w-1,h-1, planes, bytes per line.
Bytes pcxHeader(int w, int h, uint8_t bits, uint8_t planes, int bytesPerLine) {
    LeWriter b;
    b.u8(0x0a), b.u8(5), b.u8(1), b.u8(bits);
    b.u16(0), b.u16(0), b.u16(uint16_t(w - 1)), b.u16(uint16_t(h - 1));
    while (b.bytes.size() < 65) b.u8(0);
    b.u8(planes);
    b.u16(uint16_t(bytesPerLine));
    while (b.bytes.size() < 128) b.u8(0);
    return b.bytes;
}

void appendPalette(Bytes& b, const Palette& p) {
    b.push_back(0x0c);
    for (const auto& c : p) b.insert(b.end(), c.begin(), c.end());
}

// 4x2, 8-bit paletted. Rows [7 7 7 5] [5 5 200 9]: a run of three 7s, a run of three 5s across the row end,
// 200 (>= 192, so it must be written as a run of one) and a literal 9.
Bytes paletted4x2() {
    Bytes b = pcxHeader(4, 2, 8, 1, 4);
    for (uint8_t v : {0xc3, 7, 0xc3, 5, 0xc1, 200, 9}) b.push_back(uint8_t(v));
    appendPalette(b, testPalette());
    return b;
}

Rgba texel(const RgbaImage& img, int x, int y) {
    const size_t i = (size_t(y) * size_t(img.width) + size_t(x)) * 4;
    return {img.rgba.at(i), img.rgba.at(i + 1), img.rgba.at(i + 2), img.rgba.at(i + 3)};
}

Rgba paletteColour(int i) { return {i, 255 - i, (7 * i) & 255, 255}; }

std::string errorOf(const Bytes& b) {
    try {
        decodePcx(b, "env/sky_rt.pcx");
    } catch (const DecodeError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("pcx: 8-bit paletted RLE, runs across scanlines", "[texture_decode]") {
    const RgbaImage img = decodePcx(paletted4x2(), "sky.pcx");
    REQUIRE(img.width == 4);
    REQUIRE(img.height == 2);
    const int expected[2][4] = {{7, 7, 7, 5}, {5, 5, 200, 9}};
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 4; ++x) {
            INFO(x << "," << y);
            CHECK(texel(img, x, y) == paletteColour(expected[y][x]));
        }
}

TEST_CASE("pcx: 24-bit as three planes per scanline, padding bytes skipped", "[texture_decode]") {
    // 2x2, 3 bytes per plane line (one pad byte): line y holds R R pad G G pad B B pad.
    Bytes b = pcxHeader(2, 2, 8, 3, 3);
    for (uint8_t v : {10, 20, 99, 30, 40, 99, 50, 60, 99, 11, 21, 99, 31, 41, 99, 51, 61, 99}) b.push_back(v);
    const RgbaImage img = decodePcx(b, "rgb.pcx");
    REQUIRE(img.width == 2);
    CHECK(texel(img, 0, 0) == Rgba{10, 30, 50, 255});
    CHECK(texel(img, 1, 0) == Rgba{20, 40, 60, 255});
    CHECK(texel(img, 1, 1) == Rgba{21, 41, 61, 255});
}

TEST_CASE("pcx: bad files give one error naming the file and the problem", "[texture_decode]") {
    CHECK_THAT(errorOf(Bytes(20, 0x0a)), Catch::Contains("env/sky_rt.pcx") && Catch::Contains("too small"));
    Bytes b = paletted4x2();
    b[0] = 0x0b;
    CHECK_THAT(errorOf(b), Catch::Contains("not a PCX"));
    b = paletted4x2();
    b[3] = 4;
    CHECK_THAT(errorOf(b), Catch::Contains("4 bits per pixel"));
    // Image data cut short: the palette still ends the file, so the RLE stream runs out.
    b = pcxHeader(4, 2, 8, 1, 4);
    for (uint8_t v : {0xc3, 7}) b.push_back(v);
    appendPalette(b, testPalette());
    CHECK_THAT(errorOf(b), Catch::Contains("image data ends after 3 of 8 bytes"));
    // A run byte with no value byte after it.
    b = pcxHeader(4, 2, 8, 1, 4);
    b.push_back(0xc3);
    appendPalette(b, testPalette());
    CHECK_THAT(errorOf(b), Catch::Contains("no value byte"));
    // Hostile sizes fail before any allocation.
    CHECK_THAT(errorOf(pcxHeader(65535, 65535, 8, 3, 65535)), Catch::Contains("outside 1..8192"));
    CHECK_THAT(errorOf(pcxHeader(8, 8, 8, 3, 4)), Catch::Contains("4 bytes per scanline"));
    b = pcxHeader(4, 4, 8, 1, 4);
    b[4] = 9;  // xmin 9 > xmax 3
    CHECK_THAT(errorOf(b), Catch::Contains("is empty"));
}
