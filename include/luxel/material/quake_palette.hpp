#pragma once
// Quake 1's 256-colour palette, built in (Quake 1 maps carry their textures but not the palette).
#include <cstdint>
#include <string>
#include <vector>

#include "luxel/material/pcx.hpp"

namespace luxel {

const Palette& defaultQuakePalette();

// A gfx/palette.lmp file: 768 bytes, RGB for each of the 256 indices. Throws DecodeError naming `name`
// otherwise.
Palette readLmpPalette(const std::vector<uint8_t>& bytes, const std::string& name);

}  // namespace luxel
