#pragma once
// ZSoft PCX images as Quake 2 ships them (pics/colormap.pcx, env/*.pcx sky faces): 8-bit paletted with the
// 256-colour palette at the end of the file, or 24-bit as three 8-bit planes per scanline; RLE encoded.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "luxel/material/rgba_image.hpp"

namespace luxel {

using Palette = std::array<std::array<uint8_t, 3>, 256>;

// The 256-colour palette at the end of an 8-bit PCX image: a 0x0C marker, then 768 bytes of RGB.
Palette readPcxPalette(const std::vector<uint8_t>& bytes, const std::string& name);

// The whole image, opaque. `name` is what errors call the file.
RgbaImage decodePcx(const std::vector<uint8_t>& bytes, const std::string& name);

}  // namespace luxel
