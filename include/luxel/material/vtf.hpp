#pragma once
// Valve Texture Format (Source engine .vtf, versions 7.0-7.5, and Strata's 7.6 when uncompressed): the
// header fields a material needs and the decoder for one mip of frame 0 (face 0, slice 0).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "luxel/material/rgba_image.hpp"

namespace luxel {

// Image format numbers as the header stores them (Valve's ImageFormat enum).
enum VtfFormat : int32_t {
    kVtfRGBA8888 = 0, kVtfABGR8888 = 1, kVtfRGB888 = 2, kVtfBGR888 = 3, kVtfRGB565 = 4, kVtfI8 = 5, kVtfIA88 = 6,
    kVtfP8 = 7, kVtfA8 = 8, kVtfRGB888Bluescreen = 9, kVtfBGR888Bluescreen = 10, kVtfARGB8888 = 11,
    kVtfBGRA8888 = 12, kVtfDXT1 = 13, kVtfDXT3 = 14, kVtfDXT5 = 15, kVtfBGRX8888 = 16, kVtfBGR565 = 17,
    kVtfBGRX5551 = 18, kVtfBGRA4444 = 19, kVtfDXT1OneBitAlpha = 20, kVtfBGRA5551 = 21, kVtfUV88 = 22,
    kVtfUVWQ8888 = 23, kVtfRGBA16161616F = 24, kVtfRGBA16161616 = 25, kVtfUVLX8888 = 26,
};

// Texture flags (header `flags`) a renderer cares about.
constexpr uint32_t kVtfFlagOneBitAlpha = 0x1000;    // alpha-tested
constexpr uint32_t kVtfFlagEightBitAlpha = 0x2000;  // alpha-blended
constexpr uint32_t kVtfFlagEnvmap = 0x4000;         // cube map: 6 faces (7 with a sphere map before 7.5)

struct VtfInfo {
    uint32_t versionMajor = 0, versionMinor = 0;
    int32_t width = 0, height = 0, depth = 1;
    int32_t format = -1;  // VtfFormat of the high-res image
    int32_t mips = 0, frames = 0, faces = 1;
    uint32_t flags = 0;
    std::array<float, 3> reflectivity{};
    float bumpScale = 1;
    // RGBA16161616F holds linear HDR values; the decoder clamps them to [0, 1] and stores them
    // sRGB-encoded like every other RgbaImage.
    bool hdr = false;
    bool hasAlpha() const { return (flags & (kVtfFlagOneBitAlpha | kVtfFlagEightBitAlpha)) != 0; }
};

// "DXT5", "BGR888", ... or "format 99" for a number outside the enum.
std::string vtfFormatName(int32_t format);

// Reads and checks the header (version, sizes, counts); `name` is what errors call the file.
VtfInfo readVtfInfo(const std::vector<uint8_t>& bytes, const std::string& name);

// Decodes mip `mipLevel` (0 = largest, clamped to the mips present) of frame 0, face 0, slice 0. Every size is
// checked against the file before anything is allocated; bad or unsupported data throws DecodeError.
RgbaImage decodeVtf(const std::vector<uint8_t>& bytes, const std::string& name, int mipLevel = 0);

}  // namespace luxel
