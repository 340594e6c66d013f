#pragma once
// Sampling a mip-mapped texture the way Quake 3 draws by default (GL_LINEAR_MIPMAP_NEAREST): the mip level
// nearest the pixel's footprint, bilinear within it, coordinates wrapping (GL_REPEAT).
#include <array>
#include <cmath>

#include "luxel/material/material_set.hpp"
#include "luxel/util/math.hpp"

namespace luxel {

// Texture byte -> albedo, (b / 255)^gamma; alpha stays b / 255.
struct AlbedoTable {
    std::array<float, 256> value{};
};
AlbedoTable makeAlbedoTable(float gamma);

// Mip level for a pixel whose texture coordinates change by (dudx, dvdx) and (dudy, dvdy) per pixel
// (in normalised units): log2 of the longer footprint side in level-0 texels, rounded to nearest, clamped to
// the chain.
int mipLevelFor(const Texture& t, float dudx, float dvdx, float dudy, float dvdy);

// Bilinear sample of level `level` at normalised (u, v) with wrapping; rgb albedo through the table, alpha 0-1.
Vec4 sampleTexture(const Texture& t, int level, Vec2 uv, const AlbedoTable& table);

}  // namespace luxel
