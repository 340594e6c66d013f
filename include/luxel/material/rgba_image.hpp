#pragma once
// A decoded texture as the file stores it: 8-bit RGBA, row-major from the top row, colour channels in the
// file's (display, sRGB-like) encoding. Conversion to linear and mip-mapping happen when a texture is
// prepared for sampling, not in the decoders.
#include <cstdint>
#include <vector>

namespace luxel {

struct RgbaImage {
    int32_t width = 0, height = 0;
    std::vector<uint8_t> rgba;  // 4 bytes a texel
    bool empty() const { return width <= 0 || height <= 0; }
};

// Upper bound on one texture side any decoder accepts (Source and Quake textures are at most 4096).
constexpr int32_t kMaxTextureSide = 8192;

}  // namespace luxel
