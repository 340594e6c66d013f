// VTF layout: a header (64 bytes in 7.0-7.1, 80 from 7.2), then for 7.0-7.2 the low-res thumbnail and the
// high-res data; from 7.3 a resource directory at byte 80 says where the high-res data starts. The high-res
// data holds every mip from the smallest to the largest, each mip holding frames, then faces, then slices.
#include "luxel/material/vtf.hpp"

#include <squish.h>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <span>

#include "luxel/io/reader.hpp"
#include "luxel/util/error.hpp"

namespace luxel {
namespace {

constexpr uint32_t kResourceDirectoryOffset = 80;
constexpr uint8_t kResourceFlagNoData = 0x02;  // the entry's offset field is the data itself
constexpr int kCubeFaces = 6;

// Bytes one texel takes in an uncompressed format; 0 for block-compressed or unknown formats.
int texelBytes(int32_t format) {
    switch (format) {
        case kVtfI8: case kVtfP8: case kVtfA8:
            return 1;
        case kVtfRGB565: case kVtfBGR565: case kVtfIA88: case kVtfBGRX5551: case kVtfBGRA4444: case kVtfBGRA5551:
        case kVtfUV88:
            return 2;
        case kVtfRGB888: case kVtfBGR888: case kVtfRGB888Bluescreen: case kVtfBGR888Bluescreen:
            return 3;
        case kVtfRGBA8888: case kVtfABGR8888: case kVtfARGB8888: case kVtfBGRA8888: case kVtfBGRX8888:
        case kVtfUVWQ8888: case kVtfUVLX8888:
            return 4;
        case kVtfRGBA16161616F: case kVtfRGBA16161616:
            return 8;
        default:
            return 0;
    }
}

// Bytes of one 4x4 block in a block-compressed format; 0 otherwise.
int blockBytes(int32_t format) {
    switch (format) {
        case kVtfDXT1: case kVtfDXT1OneBitAlpha: return 8;
        case kVtfDXT3: case kVtfDXT5: return 16;
        default: return 0;
    }
}

// Bytes of one w x h image; 0 when the format's size is unknown. Images smaller than a block still take a
// whole block. At most kMaxTextureSide^2 * 8 bytes.
uint64_t imageBytes(int32_t format, uint32_t w, uint32_t h) {
    if (int b = blockBytes(format))
        return uint64_t(std::max<uint32_t>(1, (w + 3) / 4)) * std::max<uint32_t>(1, (h + 3) / 4) * uint64_t(b);
    return uint64_t(w) * h * uint64_t(texelBytes(format));
}

// Mip counts go up to 255, past any shift a 32-bit side allows.
uint32_t mipSide(int32_t side, int mip) { return mip >= 31 ? 1 : std::max<uint32_t>(1, uint32_t(side) >> mip); }

struct Layout {
    VtfInfo info;
    uint64_t dataOffset = 0;               // where the smallest mip starts
    std::vector<uint64_t> mipBlockBytes;   // per mip: all frames, faces and slices
};

uint64_t lowResBytes(ByteReader& r, int32_t format, uint32_t w, uint32_t h) {
    // Files without a thumbnail store format -1 (and usually 0 x 0).
    if (format == -1 || w == 0 || h == 0) return 0;
    const uint64_t n = imageBytes(format, w, h);
    if (n == 0) r.fail(57, "unknown low-res image format " + std::to_string(format));
    return n;
}

// The high-res data offset from the 7.3+ resource directory; rejects Strata's compressed 7.6 data.
uint64_t highResOffsetFromResources(ByteReader& r) {
    r.seek(68);
    const uint32_t count = r.u32();
    r.seek(kResourceDirectoryOffset);
    std::optional<uint64_t> offset;
    // A hostile count runs into the end of the file after at most size/8 entries.
    for (uint32_t i = 0; i < count; ++i) {
        const size_t at = r.position();
        const auto tag = r.bytes(3);
        const uint8_t flags = r.u8();
        const uint32_t value = r.u32();
        if (tag[0] == 0x30 && tag[1] == 0 && tag[2] == 0) {
            if (flags & kResourceFlagNoData) r.fail(at, "high-res image resource has no data");
            offset = value;
        } else if (tag[0] == 'A' && tag[1] == 'X' && tag[2] == 'C' && !(flags & kResourceFlagNoData)) {
            // Strata 7.6 CPU compression: a length, then the deflate strength (0 = stored uncompressed).
            ByteReader axc = r.sub(value, 8, "AXC resource");
            axc.skip(4);
            if (axc.u32() != 0) r.fail(at, "deflate-compressed VTF 7.6 image data is not supported");
        }
    }
    if (!offset) r.fail(kResourceDirectoryOffset, "no high-res image resource among " + std::to_string(count));
    return *offset;
}

Layout readLayout(const std::vector<uint8_t>& bytes, const std::string& name) {
    ByteReader r(bytes, name, "header");
    const auto signature = r.bytes(4);
    if (signature[0] != 'V' || signature[1] != 'T' || signature[2] != 'F' || signature[3] != 0)
        r.fail(0, "not a VTF file (signature is not \"VTF\\0\")");
    Layout l;
    VtfInfo& info = l.info;
    info.versionMajor = r.u32();
    info.versionMinor = r.u32();
    // 7.6 is Strata Source's: the 7.5 header plus optional compression, refused below when used.
    if (info.versionMajor != 7 || info.versionMinor > 6)
        r.fail(4, "unsupported VTF version " + std::to_string(info.versionMajor) + "." +
                      std::to_string(info.versionMinor) + " (7.0-7.6 are known)");
    const uint32_t headerSize = r.u32();
    info.width = r.u16();
    info.height = r.u16();
    info.flags = r.u32();
    info.frames = r.u16();
    const uint16_t firstFrame = r.u16();
    r.seek(32);
    for (float& f : info.reflectivity) f = r.f32();
    r.seek(48);
    info.bumpScale = r.f32();
    info.format = r.i32();
    info.mips = r.u8();
    const int32_t lowFormat = r.i32();
    const uint32_t lowWidth = r.u8(), lowHeight = r.u8();
    if (info.versionMinor >= 2) info.depth = std::max<int32_t>(1, r.u16());  // some writers leave 0 for 2D
    info.hdr = info.format == kVtfRGBA16161616F;

    if (info.width < 1 || info.height < 1 || info.width > kMaxTextureSide || info.height > kMaxTextureSide ||
        info.depth > kMaxTextureSide)
        r.failLimit(16, "texture size " + std::to_string(info.width) + "x" + std::to_string(info.height) + "x" +
                       std::to_string(info.depth) + " is outside 1.." + std::to_string(kMaxTextureSide));
    if (info.frames < 1) r.fail(24, "texture has no frames");
    if (info.mips < 1) r.fail(56, "texture has no mip levels");
    if (imageBytes(info.format, 1, 1) == 0)
        r.fail(52, "unknown image format " + std::to_string(info.format));
    // Before 7.5 a cube map carries a seventh face (a sphere map) unless the first frame is marked -1.
    if (info.flags & kVtfFlagEnvmap)
        info.faces = (info.versionMinor < 5 && firstFrame != 0xffff) ? kCubeFaces + 1 : kCubeFaces;

    if (info.versionMinor >= 3) {
        l.dataOffset = highResOffsetFromResources(r);
    } else {
        l.dataOffset = uint64_t(headerSize) + lowResBytes(r, lowFormat, lowWidth, lowHeight);
        if (headerSize < r.position()) r.fail(12, "header size " + std::to_string(headerSize) + " is too small");
    }
    if (l.dataOffset > bytes.size())
        r.fail(12, "high-res image data starts at byte " + std::to_string(l.dataOffset) +
                       ", past the end of the file (" + std::to_string(bytes.size()) + " bytes)");

    // Each product stays below 2^61 (side limits, u16 frames, 7 faces); the running total is compared with
    // the file after every mip, so it cannot overflow either.
    const uint64_t available = bytes.size() - l.dataOffset;
    uint64_t total = 0;
    for (int m = 0; m < info.mips; ++m) {
        const uint64_t block = imageBytes(info.format, mipSide(info.width, m), mipSide(info.height, m)) *
                               mipSide(info.depth, m) * uint64_t(info.faces) * uint64_t(info.frames);
        l.mipBlockBytes.push_back(block);
        total += block;
        if (total > available)
            r.fail(12, "image data for " + std::to_string(info.width) + "x" + std::to_string(info.height) + " " +
                           vtfFormatName(info.format) + ", " + std::to_string(info.mips) + " mips, " +
                           std::to_string(info.frames) + " frames, " + std::to_string(info.faces) +
                           " faces needs more than the " + std::to_string(available) + " bytes after byte " +
                           std::to_string(l.dataOffset));
    }
    return l;
}

uint8_t expand(uint32_t v, int bits) {
    // Bit replication: maps the full-scale value to 255 and 0 to 0.
    switch (bits) {
        case 4: return uint8_t(v * 17);
        case 5: return uint8_t((v << 3) | (v >> 2));
        case 6: return uint8_t((v << 2) | (v >> 4));
        default: return uint8_t(v ? 255 : 0);
    }
}

float halfToFloat(uint16_t h) {
    const int exponent = (h >> 10) & 0x1f;
    const uint32_t mantissa = h & 0x3ff;
    using Limits = std::numeric_limits<float>;
    float v;
    if (exponent == 0) v = std::ldexp(float(mantissa), -24);
    else if (exponent == 31) v = mantissa ? Limits::quiet_NaN() : Limits::infinity();
    else v = std::ldexp(float(mantissa | 0x400), exponent - 25);
    return (h & 0x8000) ? -v : v;
}

uint8_t unitToByte(float v) {
    if (!(v > 0)) return 0;  // also NaN
    if (v >= 1) return 255;
    return uint8_t(std::lround(v * 255.0f));
}

uint8_t linearToSrgbByte(float v) {
    if (!(v > 0)) return 0;
    if (v >= 1) return 255;
    const float s = v <= 0.0031308f ? v * 12.92f : 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f;
    return unitToByte(s);
}

void put(uint8_t* d, uint8_t r, uint8_t g, uint8_t b, uint8_t a) { d[0] = r, d[1] = g, d[2] = b, d[3] = a; }

// P8 needs a palette the file does not hold; 16-bit integer RGBA has no agreed meaning to map to 8 bits.
bool canDecode(int32_t format) {
    return blockBytes(format) != 0 || (texelBytes(format) != 0 && format != kVtfP8 && format != kVtfRGBA16161616);
}

// Texel conversion for the uncompressed formats canDecode() accepts.
void convertTexels(int32_t format, std::span<const uint8_t> src, uint8_t* out, size_t texels) {
    const size_t n = size_t(texelBytes(format));
    for (size_t i = 0; i < texels; ++i) {
        const uint8_t* s = src.data() + i * n;
        const uint32_t v16 = n == 2 ? uint32_t(s[0] | (s[1] << 8)) : 0;
        uint8_t* d = out + i * 4;
        switch (format) {
            case kVtfRGBA8888: case kVtfUVWQ8888: case kVtfUVLX8888: put(d, s[0], s[1], s[2], s[3]); break;
            case kVtfABGR8888: put(d, s[3], s[2], s[1], s[0]); break;
            case kVtfARGB8888: put(d, s[1], s[2], s[3], s[0]); break;
            case kVtfBGRA8888: put(d, s[2], s[1], s[0], s[3]); break;
            case kVtfBGRX8888: put(d, s[2], s[1], s[0], 255); break;
            case kVtfRGB888: put(d, s[0], s[1], s[2], 255); break;
            case kVtfBGR888: put(d, s[2], s[1], s[0], 255); break;
            case kVtfRGB888Bluescreen: case kVtfBGR888Bluescreen:
                if (format == kVtfRGB888Bluescreen) put(d, s[0], s[1], s[2], 255);
                else put(d, s[2], s[1], s[0], 255);
                // Pure blue is the colour key; black under zero alpha keeps filtering from bleeding blue.
                if (d[0] == 0 && d[1] == 0 && d[2] == 255) put(d, 0, 0, 0, 0);
                break;
            case kVtfI8: put(d, s[0], s[0], s[0], 255); break;
            case kVtfIA88: put(d, s[0], s[0], s[0], s[1]); break;
            case kVtfA8: put(d, 0, 0, 0, s[0]); break;  // as Direct3D samples A8
            case kVtfUV88: put(d, s[0], s[1], 0, 255); break;
            // Valve names 16-bit formats from the least significant bits up: BGR565 has blue in bits 0-4.
            case kVtfBGR565:
                put(d, expand(v16 >> 11, 5), expand((v16 >> 5) & 63, 6), expand(v16 & 31, 5), 255);
                break;
            case kVtfRGB565:
                put(d, expand(v16 & 31, 5), expand((v16 >> 5) & 63, 6), expand(v16 >> 11, 5), 255);
                break;
            case kVtfBGRA5551: case kVtfBGRX5551:
                put(d, expand((v16 >> 10) & 31, 5), expand((v16 >> 5) & 31, 5), expand(v16 & 31, 5),
                    (format == kVtfBGRX5551 || (v16 & 0x8000)) ? 255 : 0);
                break;
            case kVtfBGRA4444:
                put(d, expand((v16 >> 8) & 15, 4), expand((v16 >> 4) & 15, 4), expand(v16 & 15, 4),
                    expand(v16 >> 12, 4));
                break;
            case kVtfRGBA16161616F: {
                float f[4];
                for (int c = 0; c < 4; ++c) f[c] = halfToFloat(uint16_t(s[2 * c] | (s[2 * c + 1] << 8)));
                put(d, linearToSrgbByte(f[0]), linearToSrgbByte(f[1]), linearToSrgbByte(f[2]), unitToByte(f[3]));
                break;
            }
            default:
                break;
        }
    }
}

}  // namespace

std::string vtfFormatName(int32_t format) {
    static const char* const kNames[] = {
        "RGBA8888", "ABGR8888", "RGB888", "BGR888", "RGB565", "I8", "IA88", "P8", "A8", "RGB888_BLUESCREEN",
        "BGR888_BLUESCREEN", "ARGB8888", "BGRA8888", "DXT1", "DXT3", "DXT5", "BGRX8888", "BGR565", "BGRX5551",
        "BGRA4444", "DXT1_ONEBITALPHA", "BGRA5551", "UV88", "UVWQ8888", "RGBA16161616F", "RGBA16161616",
        "UVLX8888"};
    if (format >= 0 && format < int32_t(std::size(kNames))) return kNames[format];
    return "format " + std::to_string(format);
}

VtfInfo readVtfInfo(const std::vector<uint8_t>& bytes, const std::string& name) {
    return readLayout(bytes, name).info;
}

RgbaImage decodeVtf(const std::vector<uint8_t>& bytes, const std::string& name, int mipLevel) {
    const Layout l = readLayout(bytes, name);
    const VtfInfo& info = l.info;
    const int mip = std::clamp(mipLevel, 0, info.mips - 1);
    uint64_t offset = l.dataOffset;
    for (int m = info.mips - 1; m > mip; --m) offset += l.mipBlockBytes[size_t(m)];

    const uint32_t w = mipSide(info.width, mip), h = mipSide(info.height, mip);
    const uint64_t size = imageBytes(info.format, w, h);
    ByteReader r = ByteReader(bytes, name).sub(offset, size, "mip " + std::to_string(mip));
    const auto src = r.bytes(size_t(size));
    if (!canDecode(info.format))
        r.fail(0, "image format " + vtfFormatName(info.format) + " (" + std::to_string(info.format) +
                      ") is not supported");

    RgbaImage img;
    img.width = int32_t(w);
    img.height = int32_t(h);
    img.rgba.resize(size_t(w) * h * 4);
    if (blockBytes(info.format) != 0) {
        const int flags = (info.format == kVtfDXT3) ? squish::kDxt3
                          : (info.format == kVtfDXT5) ? squish::kDxt5
                                                      : squish::kDxt1;
        // Block by block (squish::Decompress): Debian's DecompressImage runs an OpenMP team whose threads
        // spin after each image, beside the TBB workers that decode textures in parallel.
        const size_t stride = blockBytes(info.format);
        const uint8_t* block = src.data();
        for (uint32_t by = 0; by < h; by += 4)
            for (uint32_t bx = 0; bx < w; bx += 4, block += stride) {
                uint8_t texels[16 * 4];
                squish::Decompress(texels, block, flags);
                for (uint32_t y = by; y < std::min(h, by + 4); ++y)
                    std::memcpy(img.rgba.data() + (size_t(y) * w + bx) * 4, texels + ((y - by) * 4) * 4,
                                size_t(std::min<uint32_t>(4, w - bx)) * 4);
            }
    } else {
        convertTexels(info.format, src, img.rgba.data(), size_t(w) * h);
    }
    return img;
}

}  // namespace luxel
