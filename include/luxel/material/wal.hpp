#pragma once
// Quake 2 .wal textures: 8-bit palette indices in four mip levels, plus the surface flags a texture carries.
// The palette is the game's (pics/colormap.pcx); it is not shipped with luxel, so callers load it.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "luxel/material/pcx.hpp"
#include "luxel/material/rgba_image.hpp"

namespace luxel {


struct WalInfo {
    std::string name, nextName;  // the texture's own name and the next frame of its animation ("" if none)
    int32_t width = 0, height = 0;
    uint32_t flags = 0, contents = 0, value = 0;
    std::array<uint32_t, 4> mipOffsets{};  // byte offset of each level; level i is (width >> i) x (height >> i)
};

constexpr int kWalMips = 4;

// Reads and checks the 100-byte header; `name` is what errors call the file.
WalInfo readWalInfo(const std::vector<uint8_t>& bytes, const std::string& name);

// Mip `mipLevel` (0 = largest, clamped to 0..3) through `palette`. Every texel is opaque unless
// `transparent255` makes index 255 fully transparent (the caller decides from the surface flags).
RgbaImage decodeWal(const std::vector<uint8_t>& bytes, const std::string& name, const Palette& palette,
                    int mipLevel = 0, bool transparent255 = false);

}  // namespace luxel
