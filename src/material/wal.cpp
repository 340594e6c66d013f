// Quake 2 .wal header (100 bytes): name[32], width, height, offsets[4], animname[32], flags, contents, value.
#include "luxel/material/wal.hpp"

#include <algorithm>

#include "luxel/io/reader.hpp"
#include "luxel/util/error.hpp"

namespace luxel {
namespace {

int32_t mipSide(int32_t side, int mip) { return std::max<int32_t>(1, side >> mip); }

}  // namespace

WalInfo readWalInfo(const std::vector<uint8_t>& bytes, const std::string& name) {
    ByteReader r(bytes, name, "header");
    WalInfo info;
    info.name = r.fixedString(32);
    const uint32_t width = r.u32(), height = r.u32();
    if (width < 1 || height < 1 || width > uint32_t(kMaxTextureSide) || height > uint32_t(kMaxTextureSide))
        r.failLimit(32, "texture size " + std::to_string(width) + "x" + std::to_string(height) + " is outside 1.." +
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

}  // namespace luxel
