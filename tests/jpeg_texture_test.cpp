// JPEG textures through TurboJPEG (decodeJpegRgba) against the same files through OpenImageIO's reader and
// the RGBA expansion (the path every other image takes): the same bytes on synthetic JPEGs of every kind
// OpenImageIO writes and, with [maps], on OpenArena's own textures; damaged and hostile files give a
// DecodeError or an image, never a crash or a huge allocation.
#include <catch2/catch.hpp>
#include <OpenImageIO/imageio.h>
#include <turbojpeg.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "../src/image/codecs.hpp"
#include "../src/io/zip_archive.hpp"
#include "../src/material/material_loaders.hpp"
#include "luxel/image/image.hpp"
#include "luxel/image/oiio_module.hpp"
#include "luxel/material/jpeg.hpp"
#include "luxel/util/error.hpp"
#include "support/allocation_probe.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
namespace fs = std::filesystem;

namespace {

// The reference: OpenImageIO's decode, expanded to RGBA as decodeGameImage does for other formats.
RgbaImage throughOpenImageIO(const Bytes& jpeg, const std::string& name) {
    return materials::toRgba(oiioModule("the JPEG tests").decodeImageBytes(jpeg, name), name);
}

// A JPEG written by OpenImageIO (libjpeg-turbo) of a noisy image with `channels` channels.
Bytes writeJpeg(int width, int height, int channels, int quality, const std::string& subsampling) {
    std::mt19937 rng(uint32_t(width * 131 + height * 7 + channels));
    std::vector<uint8_t> pixels(size_t(width) * size_t(height) * size_t(channels));
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = uint8_t((i * 7 + rng() % 64) & 0xFF);
    const fs::path file = fs::path(test::tempDir("jpeg_texture")) /
                          ("t" + std::to_string(width) + "x" + std::to_string(height) + "_" + std::to_string(channels) +
                           "_" + std::to_string(quality) + subsampling + ".jpg");
    OIIO::ImageSpec spec(width, height, channels, OIIO::TypeDesc::UINT8);
    spec.attribute("Compression", "jpeg:" + std::to_string(quality));
    if (!subsampling.empty()) spec.attribute("jpeg:subsampling", subsampling);
    auto out = OIIO::ImageOutput::create(file.string());
    REQUIRE(out);
    REQUIRE(out->open(file.string(), spec));
    REQUIRE(out->write_image(OIIO::TypeDesc::UINT8, pixels.data()));
    out->close();
    const std::string text = test::readFileText(file);
    return Bytes(text.begin(), text.end());
}

// A JPEG written by TurboJPEG at quality 90, for the layouts OpenImageIO's writer does not make (CMYK,
// progressive).
Bytes turboJpeg(const std::vector<uint8_t>& pixels, int width, int height, int pixelFormat, int subsampling,
                int flags) {
    tjhandle encoder = tjInitCompress();
    REQUIRE(encoder);
    unsigned char* packed = nullptr;
    unsigned long packedSize = 0;
    const int status =
        tjCompress2(encoder, pixels.data(), width, 0, height, pixelFormat, &packed, &packedSize, subsampling, 90, flags);
    const Bytes jpeg(packed, packed + (status == 0 ? packedSize : 0));
    tjFree(packed);
    tjDestroy(encoder);
    REQUIRE(status == 0);
    return jpeg;
}

void requireSame(const Bytes& jpeg, const std::string& name) {
    std::optional<RgbaImage> fast = decodeJpegRgba(jpeg, name);
    REQUIRE(fast.has_value());
    const RgbaImage reference = throughOpenImageIO(jpeg, name);
    CHECK(fast->width == reference.width);
    CHECK(fast->height == reference.height);
    CHECK(fast->rgba == reference.rgba);
}

}  // namespace

TEST_CASE("JPEG textures: TurboJPEG gives OpenImageIO's bytes for grey and colour, every subsampling, odd sizes", "[jpeg]") {
    for (const std::string& sub : {std::string("4:2:0"), std::string("4:2:2"), std::string("4:4:4")})
        for (auto [w, h] : {std::pair{16, 16}, std::pair{37, 21}, std::pair{1, 1}, std::pair{255, 3}}) {
            INFO(sub << " " << w << "x" << h);
            requireSame(writeJpeg(w, h, 3, 90, sub), "colour.jpg");
        }
    requireSame(writeJpeg(33, 17, 1, 75, ""), "grey.jpg");
    requireSame(writeJpeg(64, 64, 3, 100, ""), "best.jpg");
}

TEST_CASE("JPEG textures: CMYK is left to OpenImageIO, damage is a DecodeError or an image", "[jpeg]") {
    // CMYK: TurboJPEG does not convert it to RGB; the caller falls back.
    const Bytes cmykJpeg = turboJpeg(std::vector<uint8_t>(8 * 8 * 4, 128), 8, 8, TJPF_CMYK, TJSAMP_444, 0);
    CHECK_FALSE(decodeJpegRgba(cmykJpeg, "cmyk.jpg").has_value());

    const Bytes good = writeJpeg(40, 24, 3, 90, "");
    CHECK(looksLikeJpeg(good));
    CHECK_FALSE(looksLikeJpeg(test::tga1x1(1, 2, 3)));

    // A frame header (SOF0: FF C0, length, precision, height, width) claiming 60000 x 60000.
    Bytes huge = good;
    size_t sof = 0;
    for (size_t i = 2; i + 9 < huge.size(); ++i)
        if (huge[i] == 0xFF && huge[i + 1] == 0xC0) {
            sof = i;
            break;
        }
    REQUIRE(sof > 0);
    huge[sof + 5] = 0xEA, huge[sof + 6] = 0x60;  // height 60000
    huge[sof + 7] = 0xEA, huge[sof + 8] = 0x60;  // width 60000
    CHECK_THROWS_AS(decodeJpegRgba(huge, "huge.jpg"), DecodeError);
    // 4096 x 4096 is a size textures have, but not from a file of a few hundred bytes: refused without
    // allocating the 64 MB it claims.
    Bytes claims = good;
    claims[sof + 5] = 0x10, claims[sof + 6] = 0x00;
    claims[sof + 7] = 0x10, claims[sof + 8] = 0x00;
    std::string refused;
    const size_t largest = test::largestAllocationDuring([&] {
        try {
            (void)decodeJpegRgba(claims, "claims.jpg");
        } catch (const DecodeError& e) {
            refused = e.what();
        }
    });
    CHECK_THAT(refused, Catch::Contains("claims.jpg") && Catch::Contains("more than its"));
    CHECK(largest < (size_t(1) << 20));

    // Garbage after the markers: a DecodeError naming the file.
    Bytes garbage(good.begin(), good.begin() + 4);
    garbage.resize(200, 0x55);
    try {
        (void)decodeJpegRgba(garbage, "garbage.jpg");
        FAIL("garbage decoded");
    } catch (const DecodeError& e) {
        CHECK_THAT(e.what(), Catch::Contains("garbage.jpg"));
    }
    // Cut anywhere: an image of the stated size (libjpeg finishes a short stream in grey) or a DecodeError.
    for (size_t cut = 3; cut < good.size(); cut += 37) {
        const Bytes part(good.begin(), good.begin() + std::ptrdiff_t(cut));
        try {
            const std::optional<RgbaImage> image = decodeJpegRgba(part, "cut.jpg");
            REQUIRE(image.has_value());
            CHECK(image->rgba.size() == size_t(image->width) * size_t(image->height) * 4);
        } catch (const DecodeError&) {
        }
    }
    // A failure leaves nothing behind: the next file on this thread decodes as it would first.
    requireSame(good, "after.jpg");
}

TEST_CASE("JPEG: a progressive file repeating a scan past 500 times is a DecodeError, texture or image", "[jpeg]") {
    // Each scan walks every block of the image, so one short scan repeated is the known way to make a small file
    // take minutes ("Two Issues with the JPEG Standard", the reason TurboJPEG has TJFLAG_LIMITSCANS).
    std::vector<uint8_t> pixels(64 * 64 * 3);
    std::mt19937 rng(5);
    for (uint8_t& p : pixels) p = uint8_t(rng());
    const Bytes progressive = turboJpeg(pixels, 64, 64, TJPF_RGB, TJSAMP_420, TJFLAG_PROGRESSIVE);
    REQUIRE(decodeJpegRgba(progressive, "progressive.jpg").has_value());  // the file as written decodes
    // Its last scan (start of scan FF DA up to the end of image FF D9), repeated 600 times.
    size_t lastScan = 0;
    for (size_t i = 0; i + 1 < progressive.size(); ++i)
        if (progressive[i] == 0xFF && progressive[i + 1] == 0xDA) lastScan = i;
    REQUIRE(lastScan > 0);
    REQUIRE(progressive[progressive.size() - 2] == 0xFF);
    REQUIRE(progressive.back() == 0xD9);
    const Bytes scan(progressive.begin() + std::ptrdiff_t(lastScan), progressive.end() - 2);
    Bytes repeated(progressive.begin(), progressive.end() - 2);
    for (int i = 0; i < 600; ++i) repeated.insert(repeated.end(), scan.begin(), scan.end());
    repeated.push_back(0xFF);
    repeated.push_back(0xD9);
    try {
        (void)decodeJpegRgba(repeated, "scans.jpg");
        FAIL("600 repeated scans decoded as a texture");
    } catch (const DecodeError& e) {
        CHECK_THAT(e.what(), Catch::Contains("scans.jpg") && Catch::Contains("500 scans"));
    }
    try {
        (void)decodeJpegSamples(repeated, "scans.jpg");
        FAIL("600 repeated scans decoded as an image");
    } catch (const DecodeError& e) {
        CHECK_THAT(e.what(), Catch::Contains("scans.jpg") && Catch::Contains("500 scans"));
    }
}

TEST_CASE("JPEG textures: OpenArena's JPEGs decode to OpenImageIO's bytes", "[maps][jpeg]") {
    const fs::path baseoa = "/usr/share/games/openarena/baseoa";
    if (!fs::is_directory(baseoa)) {
        WARN("SKIPPED: " << baseoa << " not found (Debian package openarena-data)");
        return;
    }
    size_t compared = 0;
    for (const char* pak : {"pak4-textures.pk3", "pak6-patch088.pk3", "pak1-maps.pk3"}) {
        if (!fs::exists(baseoa / pak)) continue;
        ZipArchive archive((baseoa / pak).string());
        size_t seen = 0;
        for (const ZipEntry& e : archive.entries()) {
            if (e.name.size() < 4 || e.name.substr(e.name.size() - 4) != ".jpg") continue;
            if (seen++ % 8 != 0) continue;  // every eighth: a spread over the archive
            INFO(pak << ":" << e.name);
            requireSame(archive.read(e.index, e.name), e.name);
            ++compared;
        }
    }
    CHECK(compared >= 100);
}
