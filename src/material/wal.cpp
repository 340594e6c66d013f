// Quake 2 .wal header (100 bytes): name[32], width, height, offsets[4], animname[32], flags, contents, value.
// PCX header fields used: manufacturer (byte 0), bits per pixel (byte 3), colour planes (byte 65).
#include "luxel/material/wal.hpp"

#include <algorithm>

#include "luxel/io/reader.hpp"
#include "luxel/util/error.hpp"

namespace luxel {
namespace {

constexpr size_t kPcxHeaderBytes = 128;
constexpr size_t kPcxPaletteBytes = 769;  // marker + 256 * RGB
constexpr uint8_t kPcxPaletteMarker = 0x0c;

int32_t mipSide(int32_t side, int mip) { return std::max<int32_t>(1, side >> mip); }

}  // namespace

WalInfo readWalInfo(const std::vector<uint8_t>& bytes, const std::string& name) {
    ByteReader r(bytes, name, "header");
    WalInfo info;
    info.name = r.fixedString(32);
    const uint32_t width = r.u32(), height = r.u32();
    if (width < 1 || height < 1 || width > uint32_t(kMaxTextureSide) || height > uint32_t(kMaxTextureSide))
        r.fail(32, "texture size " + std::to_string(width) + "x" + std::to_string(height) + " is outside 1.." +
                       std::to_string(kMaxTextureSide));
    info.width = int32_t(width);
    info.height = int32_t(height);
    for (uint32_t& o : info.mipOffsets) o = r.u32();
    info.nextName = r.fixedString(32);
    info.flags = r.u32();
    info.contents = r.u32();
    info.value = r.u32();
    return info;
}

RgbaImage decodeWal(const std::vector<uint8_t>& bytes, const std::string& name, const Palette& palette,
                    int mipLevel, bool transparent255) {
    const WalInfo info = readWalInfo(bytes, name);
    const int mip = std::clamp(mipLevel, 0, kWalMips - 1);
    const int32_t w = mipSide(info.width, mip), h = mipSide(info.height, mip);
    const size_t texels = size_t(w) * size_t(h);
    // Throws before anything is allocated when the mip does not fit in the file.
    ByteReader r = ByteReader(bytes, name).sub(info.mipOffsets[size_t(mip)], texels, "mip " + std::to_string(mip));
    const auto indices = r.bytes(texels);

    RgbaImage img;
    img.width = w;
    img.height = h;
    img.rgba.resize(texels * 4);
    for (size_t i = 0; i < texels; ++i) {
        const auto& c = palette[indices[i]];
        uint8_t* d = &img.rgba[i * 4];
        d[0] = c[0];
        d[1] = c[1];
        d[2] = c[2];
        d[3] = (transparent255 && indices[i] == 255) ? 0 : 255;
    }
    return img;
}

Palette readPcxPalette(const std::vector<uint8_t>& bytes, const std::string& name) {
    ByteReader r(bytes, name, "header");
    if (r.size() < kPcxHeaderBytes + kPcxPaletteBytes)
        r.fail(0, "file of " + std::to_string(r.size()) +
                      " bytes is too small for a PCX header and a 256-colour palette");
    if (r.u8() != 0x0a) r.fail(0, "not a PCX file (manufacturer byte is not 0x0A)");
    r.seek(3);
    if (const uint8_t bits = r.u8(); bits != 8)
        r.fail(3, std::to_string(bits) + " bits per pixel; a 256-colour palette needs 8");
    r.seek(65);
    if (const uint8_t planes = r.u8(); planes != 1)
        r.fail(65, std::to_string(planes) + " colour planes; a 256-colour palette needs 1");

    const size_t at = r.size() - kPcxPaletteBytes;
    ByteReader p = r.sub(at, kPcxPaletteBytes, "palette");
    if (const uint8_t marker = p.u8(); marker != kPcxPaletteMarker)
        p.fail(0, "palette marker is " + std::to_string(marker) + ", not 12 (0x0C)");
    Palette palette{};
    for (auto& c : palette)
        for (uint8_t& v : c) v = p.u8();
    return palette;
}

}  // namespace luxel
