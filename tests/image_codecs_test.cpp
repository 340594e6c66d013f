// luxel's own image codecs (PNG through libpng + libdeflate, JPEG through libjpeg-turbo, WebP through libwebp,
// TGA through stb_image) against OpenImageIO, through its module: every file decodes to the same samples both
// ways, what luxel writes decodes (with OpenImageIO) to the values it was given, and JPEG / WebP written either
// way decode to the same pixels. Without the module, PNG work goes on and other formats fail with one clear line.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <png.h>

#include <algorithm>
#include <thread>
#include <atomic>
#include <cmath>
#include <csetjmp>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../src/image/codecs.hpp"
#include "../src/io/zip_archive.hpp"
#include "luxel/util/cpu.hpp"
#include "luxel/image/image.hpp"
#include "luxel/image/oiio_module.hpp"
#include "luxel/util/error.hpp"
#include "support/allocation_probe.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
namespace fs = std::filesystem;

// libwebp's CPU-feature query (src/dsp/cpu.c): not in its public headers, exported from libwebp.so.
extern "C" {
typedef int (*VP8CPUInfo)(int feature);
extern VP8CPUInfo VP8GetCPUInfo;
}

namespace {

const OiioModule& oiio() { return oiioModule("the codec tests"); }

// A float image whose display bytes use every value: a gradient with noise, and alpha varying too.
Image testImage(int width, int height, int channels, uint32_t seed) {
    std::mt19937 rng(seed);
    Image image(width, height, channels);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < channels; ++c) {
                const int smooth = (x * 3 + y * 5 + c * 40) & 0xFF;
                image.at(x, y)[c] = float((smooth + int(rng() % 9)) & 0xFF) / 255.0f;
            }
    return image;
}

void requireSame(const ByteImage& a, const ByteImage& b) {
    REQUIRE(a.width == b.width);
    REQUIRE(a.height == b.height);
    REQUIRE(a.channels == b.channels);
    CHECK(a.bytes == b.bytes);
}

// Own decoder and OpenImageIO's on the same bytes: the same samples, as bytes and as floats.
void requireBothDecodersAgree(const Bytes& file, const std::string& name) {
    INFO(name);
    requireSame(decodeImageBytes(file, name), oiio().decodeImageBytes(file, name));
    const Image own = decodeImage(file, name), reference = oiio().decodeImage(file, name);
    REQUIRE(own.channels == reference.channels);
    CHECK(own.pixels == reference.pixels);
}

// A PNG written with libpng from rows of samples already in the file's layout.
struct PngLayout {
    int width, height, colourType, bitDepth;
    bool interlaced = false;
    std::vector<png_color> palette;
    std::vector<png_byte> transparency;  // tRNS for palette entries
};

void appendTo(png_structp png, png_bytep data, size_t length) {
    auto* out = static_cast<Bytes*>(png_get_io_ptr(png));
    out->insert(out->end(), data, data + length);
}

Bytes writeRawPng(const PngLayout& l, std::vector<std::vector<uint8_t>> rows) {
    Bytes out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    REQUIRE(info);
    std::vector<png_bytep> pointers;
    for (auto& r : rows) pointers.push_back(r.data());
    if (setjmp(png_jmpbuf(png))) FAIL("libpng failed to write the test file");
    png_set_write_fn(png, &out, appendTo, nullptr);
    png_set_IHDR(png, info, png_uint_32(l.width), png_uint_32(l.height), l.bitDepth, l.colourType,
                 l.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (!l.palette.empty()) png_set_PLTE(png, info, l.palette.data(), int(l.palette.size()));
    if (!l.transparency.empty())
        png_set_tRNS(png, info, l.transparency.data(), int(l.transparency.size()), nullptr);
    png_write_info(png, info);
    png_write_image(png, pointers.data());
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return out;
}

std::vector<std::vector<uint8_t>> noiseRows(int height, size_t rowBytes, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<std::vector<uint8_t>> rows(static_cast<size_t>(height), std::vector<uint8_t>(rowBytes));
    for (auto& r : rows)
        for (auto& b : r) b = uint8_t(rng());
    return rows;
}

// A TGA: the 18-byte header, an optional palette, then `pixels` as given (already run-length packed or not).
Bytes tga(int imageType, int bits, int width, int height, int descriptor, const std::vector<uint8_t>& pixels,
          int paletteBits = 0, int paletteEntries = 0, int paletteFirst = 0) {
    Bytes b(18, 0);
    b[1] = paletteEntries > 0 ? 1 : 0;
    b[2] = uint8_t(imageType);
    b[3] = uint8_t(paletteFirst), b[4] = uint8_t(paletteFirst >> 8);
    b[5] = uint8_t(paletteEntries), b[6] = uint8_t(paletteEntries >> 8);
    b[7] = uint8_t(paletteBits);
    b[12] = uint8_t(width), b[13] = uint8_t(width >> 8), b[14] = uint8_t(height), b[15] = uint8_t(height >> 8);
    b[16] = uint8_t(bits);
    b[17] = uint8_t(descriptor);
    for (int i = 0; i < paletteEntries * paletteBits / 8; ++i) b.push_back(uint8_t(i * 37 + 11));
    b.insert(b.end(), pixels.begin(), pixels.end());
    return b;
}

std::vector<uint8_t> noise(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> v(n);
    for (auto& b : v) b = uint8_t(rng());
    return v;
}

// Run-length packets for rows of `width` pixels of `bpp` bytes: runs of equal pixels as repeat packets, the
// rest raw; no packet crosses a row (TGA 2.0's rule).
std::vector<uint8_t> rlePack(const std::vector<uint8_t>& pixels, size_t bpp, size_t width) {
    std::vector<uint8_t> out;
    auto px = [&](size_t i) { return pixels.begin() + long(i * bpp); };
    auto same = [&](size_t a, size_t b) { return std::equal(px(a), px(a + 1), px(b)); };
    for (size_t rowStart = 0; rowStart < pixels.size() / bpp; rowStart += width) {
        const size_t end = rowStart + width;
        for (size_t i = rowStart; i < end;) {
            size_t run = 1;
            while (i + run < end && run < 128 && same(i, i + run)) ++run;
            if (run > 1) {
                out.push_back(uint8_t(0x80 | (run - 1)));
                out.insert(out.end(), px(i), px(i + 1));
                i += run;
                continue;
            }
            size_t raw = 1;
            while (i + raw < end && raw < 128 && !(i + raw + 1 < end && same(i + raw, i + raw + 1))) ++raw;
            out.push_back(uint8_t(raw - 1));
            out.insert(out.end(), px(i), px(i + raw));
            i += raw;
        }
    }
    return out;
}

}  // namespace

TEST_CASE("PNG written by luxel holds the display bytes it was given, read by OpenImageIO and by luxel", "[image]") {
    for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : {std::pair{1, 1}, std::pair{37, 21}, std::pair{640, 360}}) {
            INFO(channels << " channels, " << w << "x" << h);
            const Image image = testImage(w, h, channels, uint32_t(w * 7 + channels));
            const Bytes png = encodeImage("view.png", image, {{"Software", "luxel test"}, {"luxel:map", "m.bsp"}});
            const std::vector<uint8_t> expected = displayBytes(image);
            const ByteImage reference = oiio().decodeImageBytes(png, "view.png");
            REQUIRE(reference.channels == channels);
            CHECK(reference.bytes == expected);
            CHECK(decodeImageBytes(png, "view.png").bytes == expected);
        }
}

namespace {

// Leaves `value` in every 16-bit word of the 1 MiB of stack below the caller, where the frames of the next call
// it makes will lie (an encode's reach 80 KiB deep): a field some code forgets to set then holds it.
[[gnu::noinline]] void fillStackBelow(uint16_t value) {
    volatile uint16_t words[512 * 1024];
    for (volatile uint16_t& w : words) w = value;
}

// A tile of 8 x 8 pixels repeated over the frame: matches 24 to 1,544 bytes back, so a compressor whose window
// or match choices depended on anything but the rows would show it.
Image tiledImage(int width, int height, uint32_t seed) {
    Image image(width, height, 3);
    std::mt19937 rng(seed);
    std::vector<float> tile(8 * 8 * 3);
    for (float& v : tile) v = float(rng() % 256) / 255.0f;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            for (int c = 0; c < 3; ++c) image.at(x, y)[c] = tile[size_t(((y % 8) * 8 + x % 8) * 3 + c)];
    return image;
}

}  // namespace

TEST_CASE("PNG written by luxel: the same pixels give the same bytes whatever the stack held before", "[image]") {
    // ISA-L's compressor (luxel's before) read its window size from a field its init left as the stack had it:
    // a stale 1 to 11 there gave other bytes. Every small value is tried.
    const Image image = tiledImage(64, 36, 11);
    const Bytes first = encodeImage("t.png", image, {});
    for (uint16_t value = 1; value <= 15; ++value) {
        INFO("stack words " << value);
        fillStackBelow(value);
        CHECK(encodeImage("t.png", image, {}) == first);
    }
}

TEST_CASE("PNG written by luxel: frames encoded on several threads at once give their one-thread bytes", "[image]") {
    // A batch encodes two maps' images at once: ISA-L's compressor gave other bytes for the same rows in about one
    // batch of 150 that way. Four threads encode four frames 50 times each, in turn with one another.
    std::vector<Image> images;
    std::vector<Bytes> alone;
    for (uint32_t i = 0; i < 4; ++i) {
        images.push_back(tiledImage(96 + int(i) * 16, 54, 20 + i));
        alone.push_back(encodeImage("t.png", images.back(), {}));
    }
    std::atomic<int> differing{0};
    std::vector<std::thread> threads;
    for (size_t t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (size_t round = 0; round < 50; ++round) {
                const size_t i = (t + round) % 4;
                if (encodeImage("t.png", images[i], {}) != alone[i]) ++differing;
            }
        });
    for (std::thread& thread : threads) thread.join();
    CHECK(differing == 0);
}

TEST_CASE("PNG written by luxel carries its text for OpenImageIO to read", "[image]") {
    const std::string dir = test::tempDir("image_codecs_text");
    const std::string file = dir + "/t.png";
    writeImage(file, testImage(8, 8, 3, 1), {{"Software", "luxel 9.9"}, {"luxel:camera", "pos 1 2 3"}});
    const Image back = oiio().readImage(file);
    CHECK(back.width == 8);
    // OpenImageIO's reader exposes tEXt chunks as attributes; the module's reader keeps only pixels, so the
    // chunks are checked in the bytes: keyword, NUL, text.
    const std::string bytes = test::readFileText(file);
    CHECK(bytes.find(std::string("tEXtSoftware\0luxel 9.9", 22)) != std::string::npos);
    CHECK(bytes.find(std::string("tEXtluxel:camera\0pos 1 2 3", 26)) != std::string::npos);
}

TEST_CASE("JPEG and WebP written by luxel decode to the pixels OpenImageIO's writers give", "[image]") {
    for (const std::string ext : {".jpg", ".webp"})
        for (int channels : {1, 3, 4}) {
            if (ext == ".webp" && channels == 1) continue;  // WebP has no grey
            INFO(ext << " " << channels << " channels");
            Image image = testImage(97, 61, channels, uint32_t(channels * 3));
            // OpenImageIO's WebP writer takes alpha as premultiplied and divides colour by it, through a 2.2 power
            // on 8-bit values (which loses steps even where alpha is 1); luxel's alpha is coverage beside colour,
            // kept as given as in PNG. Checked on its own below.
            if (ext == ".webp" && channels == 4) continue;
            const Bytes own = encodeImage("view" + ext, image), reference = oiio().encodeImage("view" + ext, image, {});
            requireSame(oiio().decodeImageBytes(own, "own" + ext), oiio().decodeImageBytes(reference, "ref" + ext));
        }
    // Under partial alpha, WebP keeps the colour as given: no further from it than the same colour written
    // without alpha, within lossy coding (read with libwebp: OpenImageIO's reader premultiplies).
    const Image rgba = testImage(64, 64, 4, 11);
    Image rgb(64, 64, 3);
    for (size_t p = 0; p < 64 * 64; ++p) std::copy_n(rgba.pixels.begin() + long(p * 4), 3, rgb.pixels.begin() + long(p * 3));
    auto meanError = [](const ByteImage& got, const std::vector<uint8_t>& given, int channels, int first, int count) {
        double sum = 0;
        for (size_t i = 0; i < given.size(); ++i)
            if (int(i % size_t(channels)) >= first && int(i % size_t(channels)) < first + count)
                sum += std::abs(int(got.bytes[i]) - int(given[i]));
        return sum / double(given.size() / size_t(channels) * size_t(count));
    };
    const ByteImage backRgba = decodeImageBytes(encodeImage("a.webp", rgba), "a.webp");
    const ByteImage backRgb = decodeImageBytes(encodeImage("b.webp", rgb), "b.webp");
    REQUIRE(backRgba.channels == 4);
    const double withAlpha = meanError(backRgba, displayBytes(rgba), 4, 0, 3);
    const double without = meanError(backRgb, displayBytes(rgb), 3, 0, 3);
    INFO("colour error with alpha " << withAlpha << ", without " << without);
    CHECK(withAlpha <= without * 1.1 + 0.25);
    CHECK(meanError(backRgba, displayBytes(rgba), 4, 3, 1) < 1.0);  // alpha is stored losslessly
}

TEST_CASE("WebP written by luxel: the same bytes on libwebp's SIMD and plain C paths", "[image]") {
    // libwebp picks its SSE2 / SSE4.1 loops by CPU through the function it calls VP8GetCPUInfo (exported, and
    // checked again by each of its init functions): with it answering "no features", the plain C loops run, as on
    // a machine without them.
    const Image rgb = testImage(160, 90, 3, 21), rgba = testImage(96, 54, 4, 22);
    const Bytes simdRgb = encodeImage("a.webp", rgb), simdRgba = encodeImage("b.webp", rgba);
    const VP8CPUInfo detected = VP8GetCPUInfo;
    VP8GetCPUInfo = [](int) { return 0; };
    const Bytes plainRgb = encodeImage("a.webp", rgb), plainRgba = encodeImage("b.webp", rgba);
    VP8GetCPUInfo = detected;
    CHECK(plainRgb == simdRgb);
    CHECK(plainRgba == simdRgba);
}

TEST_CASE("PNG: luxel's reader gives OpenImageIO's samples for every colour type and bit depth", "[image]") {
    for (int channels = 1; channels <= 4; ++channels) {
        static constexpr int kTypes[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                          PNG_COLOR_TYPE_RGB_ALPHA};
        for (int depth : {8, 16})
            for (bool interlaced : {false, true}) {
                const PngLayout l{23, 9, kTypes[channels], depth, interlaced, {}, {}};
                requireBothDecodersAgree(writeRawPng(l, noiseRows(9, size_t(23 * channels * depth / 8), 5)),
                                         "c" + std::to_string(channels) + "d" + std::to_string(depth) + ".png");
            }
    }
    for (int depth : {1, 2, 4}) {  // low-bit grey, expanded to 8 bits
        const PngLayout l{19, 7, PNG_COLOR_TYPE_GRAY, depth, false, {}, {}};
        requireBothDecodersAgree(writeRawPng(l, noiseRows(7, size_t((19 * depth + 7) / 8), 6)), "grey" + std::to_string(depth) + ".png");
    }
    std::vector<png_color> palette(16);
    for (size_t i = 0; i < palette.size(); ++i) palette[i] = {uint8_t(i * 16), uint8_t(255 - i * 9), uint8_t(i * 5)};
    std::vector<std::vector<uint8_t>> rows = noiseRows(11, 13, 7);
    for (auto& r : rows)
        for (auto& b : r) b &= 0x0F;
    requireBothDecodersAgree(writeRawPng({13, 11, PNG_COLOR_TYPE_PALETTE, 8, false, palette, {}}, rows), "palette.png");
    requireBothDecodersAgree(
        writeRawPng({13, 11, PNG_COLOR_TYPE_PALETTE, 8, false, palette, {0, 128, 255, 7}}, rows), "palette_trns.png");
}

TEST_CASE("TGA: stb_image gives OpenImageIO's samples for the layouts it is given; the rest go to OpenImageIO", "[image]") {
    const int w = 29, h = 13;
    for (int descriptor : {0, 0x20}) {  // bottom-up, top-down
        for (int bits : {24, 32}) {
            const std::vector<uint8_t> px = noise(size_t(w * h * bits / 8), uint32_t(bits + descriptor));
            requireBothDecodersAgree(tga(2, bits, w, h, descriptor | (bits == 32 ? 8 : 0), px), "rgb.tga");
            // Runs of repeated pixels and raw stretches between them.
            std::vector<uint8_t> runs = px;
            for (size_t i = 0; i + 1 < size_t(w * h); i += 3)
                std::copy_n(runs.begin() + long(i * size_t(bits / 8)), bits / 8, runs.begin() + long((i + 1) * size_t(bits / 8)));
            const Bytes rle = tga(10, bits, w, h, descriptor, rlePack(runs, size_t(bits / 8), size_t(w)));
            requireBothDecodersAgree(rle, "rle.tga");
            CHECK(decodeImageBytes(rle, "rle.tga").bytes == decodeImageBytes(tga(2, bits, w, h, descriptor, runs), "plain.tga").bytes);
        }
        requireBothDecodersAgree(tga(3, 8, w, h, descriptor, noise(size_t(w * h), 3)), "grey.tga");
        requireBothDecodersAgree(tga(3, 16, w, h, descriptor | 8, noise(size_t(w * h * 2), 4)), "grey_alpha.tga");
        requireBothDecodersAgree(tga(1, 8, w, h, descriptor, noise(size_t(w * h), 5), 24, 256), "palette.tga");
    }
    // Layouts stb_image reads differently (5-bit channels, 32-bit palettes, right-to-left rows) go to OpenImageIO.
    const Bytes fiveBit = tga(2, 16, w, h, 0, noise(size_t(w * h * 2), 6));
    const Bytes mirrored = tga(2, 24, w, h, 0x10, noise(size_t(w * h * 3), 7));
    const Bytes palette32 = tga(1, 8, w, h, 0, noise(size_t(w * h), 8), 32, 256);
    for (const Bytes* b : {&fiveBit, &mirrored, &palette32}) {
        CHECK_FALSE(isOwnTga(*b));
        requireBothDecodersAgree(*b, "module.tga");
    }
}

TEST_CASE("TGA: a file that ends before its pixels do is a DecodeError, not zero padding", "[image]") {
    const int w = 16, h = 16;
    const Bytes plain = tga(2, 24, w, h, 0, noise(size_t(w * h * 3), 9));
    std::vector<uint8_t> runs(size_t(w * h * 3), 200);
    const Bytes rle = tga(10, 24, w, h, 0, rlePack(runs, 3, size_t(w)));
    for (const Bytes* whole : {&plain, &rle}) {
        const Bytes cut(whole->begin(), whole->end() - 2);
        CHECK_THROWS_AS(decodeImageBytes(cut, "cut.tga"), DecodeError);
        CHECK_THROWS_AS(oiio().decodeImageBytes(cut, "cut.tga"), DecodeError);  // OpenImageIO refuses it too
        CHECK_NOTHROW(decodeImageBytes(*whole, "whole.tga"));
    }
}

TEST_CASE("PNG: an ancillary chunk claiming 2 GB in a small file is a DecodeError with no allocation near it", "[image]") {
    // Found by the CI's fuzzing (luxel_fuzz_content, libFuzzer's out-of-memory): libpng's chunk limit is a
    // warning on read, and it allocated a text chunk's claimed length + 1 (2,113,929,259 bytes) before reading it.
    const Bytes png = encodeImage("t.png", testImage(2, 2, 3, 5), {{"Comment", "hello"}});
    const size_t type = std::string(png.begin(), png.end()).find("tEXt");
    REQUIRE(type != std::string::npos);
    for (const char* name : {"tEXt", "zTXt", "iTXt", "iCCP", "sPLT", "pCAL", "sCAL", "eXIf", "prVt"}) {
        INFO(name);
        Bytes hostile = png;
        const uint8_t claimed[4] = {0x7E, 0x00, 0x00, 0x2A};  // 2,113,929,258 bytes
        std::copy(claimed, claimed + 4, hostile.begin() + std::ptrdiff_t(type) - 4);
        std::copy(name, name + 4, hostile.begin() + std::ptrdiff_t(type));
        std::string message;
        const size_t largest = test::largestAllocationDuring([&] {
            try {
                (void)decodeImageBytes(hostile, "hostile.png");
            } catch (const DecodeError& e) {
                message = e.what();
            }
        });
        CHECK(largest <= (size_t(64) << 20));
        CHECK(message.find("hostile.png") != std::string::npos);  // a DecodeError, naming the file
    }
}

TEST_CASE("Image codecs: OpenArena's TGA, JPEG and PNG textures decode to OpenImageIO's samples", "[maps][image]") {
    const fs::path baseoa = "/usr/share/games/openarena/baseoa";
    if (!fs::is_directory(baseoa)) {
        WARN("SKIPPED: " << baseoa << " not found (Debian package openarena-data)");
        return;
    }
    size_t compared = 0;
    for (const char* pak : {"pak4-textures.pk3", "pak6-patch088.pk3", "pak2-players.pk3"}) {
        if (!fs::exists(baseoa / pak)) continue;
        ZipArchive archive((baseoa / pak).string());
        size_t seen = 0;
        for (const ZipEntry& e : archive.entries()) {
            const std::string ext = e.name.size() > 4 ? e.name.substr(e.name.size() - 4) : "";
            if (ext != ".tga" && ext != ".png") continue;
            if (seen++ % 6 != 0) continue;  // a spread over the archive
            requireBothDecodersAgree(archive.read(e.index, e.name), e.name);
            ++compared;
        }
    }
    CHECK(compared >= 100);
}

TEST_CASE("Without the OpenImageIO module PNG renders go on and other formats fail with one clear line", "[cli]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string map = *test::sharedMaps() + "/q3/bsptool_q3_mp_lobby.bsp";
    const std::string dir = test::tempDir("no_oiio_module");
    ::setenv("LUXEL_OIIO_MODULE", "/nonexistent/luxel-oiio.so", 1);
    const test::CommandResult png = test::runLuxel("render '" + map + "' --size 64x36 -o '" + dir + "/a.png'");
    const test::CommandResult exr = test::runLuxel("render '" + map + "' --size 64x36 -o '" + dir + "/a.exr'");
    const test::CommandResult version = test::runLuxel("--version");
    // A batch renders its maps, contact sheet and index without the module.
    const test::CommandResult batch = test::runLuxel("batch '" + map + "' --size 64x36 -q -o '" + dir + "/batch'");
    // A sheet in a format only the module writes is a warning; the maps stay rendered.
    const test::CommandResult tiff = test::runLuxel("batch '" + map + "' --size 64x36 -q -o '" + dir +
                                                    "/batch-tiff' --sheet '" + dir + "/batch-tiff/sheet.tif'");
    ::unsetenv("LUXEL_OIIO_MODULE");
    CHECK(batch.exitCode == 0);
    const nlohmann::json manifest = nlohmann::json::parse(test::readFileText(dir + "/batch/manifest.json"));
    CHECK(manifest["summary"]["ok"] == 1);
    CHECK(manifest["summary"]["failed"] == 0);
    CHECK_FALSE(manifest.contains("warnings"));
    CHECK(fs::exists(dir + "/batch/index.html"));
    CHECK(fs::exists(dir + "/batch/sheet.png"));
    CHECK(tiff.exitCode == 0);
    const nlohmann::json tiffManifest = nlohmann::json::parse(test::readFileText(dir + "/batch-tiff/manifest.json"));
    CHECK(tiffManifest["summary"]["ok"] == 1);
    CHECK_THAT(tiffManifest["warnings"].dump(), Catch::Contains("contact sheet not written") && Catch::Contains("/nonexistent/luxel-oiio.so"));
    CHECK_FALSE(fs::exists(dir + "/batch-tiff/sheet.tif"));
    CHECK(png.exitCode == 0);
    CHECK(version.exitCode == 0);
    CHECK(exr.exitCode == 2);
    INFO(exr.err);
    CHECK(exr.err.find("a.exr") != std::string::npos);
    CHECK(exr.err.find("OpenImageIO") != std::string::npos);
    CHECK(exr.err.find("/nonexistent/luxel-oiio.so") != std::string::npos);
    CHECK(exr.err.find("luxel: error") != std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/a.exr"));
    // The PNG made without the module has the pixels of one made with it.
    REQUIRE(test::runLuxel("render '" + map + "' --size 64x36 -o '" + dir + "/b.png'").exitCode == 0);
    CHECK(oiio().readImage(dir + "/a.png").pixels == oiio().readImage(dir + "/b.png").pixels);
}

TEST_CASE("display bytes: every value clamped, NaN and infinities 0, v x 255 rounded half up, on every path", "[image]") {
    // Values at and beside every step k / 255 and every rounding boundary (k + 0.5) / 255 (a few ulps either
    // side), out of range, -0, NaN and infinities: each byte must be floor(float(v x 255) + 0.5), computed here
    // in double from the clamped value. The count is odd, so the vector loop's tail runs too.
    std::vector<float> values{-0.0f, -1.0f, 2.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::denorm_min(), 1e30f};
    for (int k = 0; k <= 255; ++k)
        for (float centre : {float(k) / 255.0f, (float(k) + 0.5f) / 255.0f}) {
            float below = centre, above = centre;
            for (int u = 0; u < 4; ++u) {
                below = std::nextafter(below, -1.0f), above = std::nextafter(above, 2.0f);
                values.push_back(below), values.push_back(above);
            }
            values.push_back(centre);
        }
    if (values.size() % 3 == 0) values.push_back(0.25f);
    while (values.size() % 3 != 0) values.push_back(0.75f);
    values.push_back(0.5f), values.push_back(0.5f), values.push_back(0.5f);  // whole pixels, and 3 more
    Image image(int(values.size() / 3), 1, 3);
    image.pixels.assign(values.begin(), values.end());
    for (bool avx2 : {true, false}) {
        INFO("AVX2 allowed: " << avx2);
        allowAvx2(avx2);
        const std::vector<uint8_t> bytes = displayBytes(image);
        allowAvx2(true);
        REQUIRE(bytes.size() == values.size());
        size_t wrong = 0;
        for (size_t i = 0; i < values.size(); ++i) {
            const float v = values[i];
            const float c = std::isnan(v) || std::isinf(v) ? 0.0f : std::min(std::max(v, 0.0f), 1.0f);
            const int want = int(std::floor(double(c * 255.0f) + 0.5));
            if (bytes[i] != want) {
                if (wrong < 5) WARN("value " << v << ": byte " << int(bytes[i]) << ", want " << want);
                ++wrong;
            }
        }
        CHECK(wrong == 0);
    }
}
