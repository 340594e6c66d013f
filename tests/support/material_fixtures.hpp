#pragma once
// Shared by the material loader tests (materials_test.cpp, materials_q2_test.cpp, materials_source_test.cpp):
// PNGs of known texels, a texture's top level as texels, and three small texel sets.
#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "luxel/material/material_set.hpp"

namespace luxel::test {

using Texels = std::vector<std::array<uint8_t, 4>>;

// A PNG of RGBA bytes, through writeImage (8-bit, round to nearest of byte / 255: exact).
void writePng(const std::filesystem::path& path, int w, int h, const Texels& rgba);
// A texture's mip 0 as texels, row by row from the top.
Texels level0(const Texture& t);
// The texture material `material` is drawn with (REQUIREs one).
const Texture& textureOf(const MaterialSet& set, size_t material);

// 2x2 texel sets: opaque primaries, an opaque photo-like set, and one with every kind of alpha (0, 128, 127, 255).
extern const Texels kWall, kPhoto, kPic;

}  // namespace luxel::test
