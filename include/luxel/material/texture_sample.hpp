#pragma once
// Sampling a mip-mapped texture the way Quake 3 draws by default (GL_LINEAR_MIPMAP_NEAREST): the mip level
// nearest the pixel's footprint, bilinear within it, coordinates wrapping (GL_REPEAT).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "luxel/material/material_set.hpp"
#include "luxel/util/math.hpp"

namespace luxel {

// Texture byte -> albedo, (b / 255)^gamma; alpha stays b / 255.
struct AlbedoTable {
    std::array<float, 256> value{};
    // gamma 1: filtering runs on the bytes themselves and scales once by 1/255 (cheaper, and the vector
    // loop does the same operations).
    bool identity = false;
};
AlbedoTable makeAlbedoTable(float gamma);

// Mip level from the squared length f2 of a pixel's longer footprint side in level-0 texels: log2 of the
// length rounded to nearest, i.e. level L for f2 in [2^(2L-1), 2^(2L+1)), read off f2's exponent so scalar
// and vector code agree exactly; clamped to [0, maxLevel].
inline int mipLevelFromSquare(float f2, int maxLevel) {
    if (!(f2 > 1.0f)) return 0;  // magnified, or NaN
    uint32_t bits;
    std::memcpy(&bits, &f2, 4);
    const int e = int(bits >> 23) - 127;
    const int level = (e + 1) >> 1;
    return level < maxLevel ? level : maxLevel;
}

// footprint2 rounded down to a power of two (0 for none, not finite or below 2^-60): the steps reduced decodes
// are keyed by, so close needs share their textures. On a texture whose shorter side is a power of two the
// rounding never changes the level reducedLevel gives (mipLevelFromSquare's thresholds are powers of two).
inline float reducedFootprint(float footprint2) {
    if (!(footprint2 > 0x1p-60f) || !std::isfinite(footprint2)) return 0;
    int exponent = 0;
    (void)std::frexp(footprint2, &exponent);
    return std::ldexp(1.0f, exponent - 1);
}

// The mip level a texture of w x h texels (level 0) can start at when no pixel samples a footprint below
// footprint2 (squared, in repeats of the texture): mipLevelFromSquare's level for footprint2 on the shorter
// side. A pixel's own footprint in texels is at least that (its sides scale by the width and the height), so
// its level is at least this one.
inline int32_t reducedLevel(float footprint2, int32_t w, int32_t h) {
    int maxLevel = 0;
    for (int32_t x = w, y = h; x > 1 || y > 1; x = std::max(1, x / 2), y = std::max(1, y / 2)) ++maxLevel;
    const float side = float(std::max(1, std::min(w, h)));
    return mipLevelFromSquare(footprint2 * (side * side), maxLevel);
}

// The level a reduced texture starts at for that need: reducedLevel, but at most 2 levels down and never under
// 16 texels a side. Needs of level 2 and coarser then share one texture, and a reduced JPEG (libjpeg's scaled
// IDCT, whose colours drift further from the box filter's at 1/8 and on small images) stays close to the
// whole decode's chain.
inline int32_t reducedStart(float footprint2, int32_t w, int32_t h) {
    constexpr int32_t kMaxStart = 2, kMinSide = 16;
    int32_t level = std::min(reducedLevel(footprint2, w, h), kMaxStart);
    while (level > 0 && (std::min(w, h) >> level) < kMinSide) --level;
    return level;
}

// One mip level with its constants hoisted, for loops that sample it many times.
struct LevelView {
    const uint8_t* texels = nullptr;  // the level's padded texels (Texture::paddedLevels)
    int32_t width = 1, height = 1;
    float fw = 1, fh = 1;
    bool powerOfTwo = false;
};
// A level below the texture's firstLevel (not decoded) reads firstLevel.
inline LevelView levelView(const Texture& t, int level) {
    const size_t l = size_t(level < t.firstLevel ? t.firstLevel : level >= int(t.mips.size()) ? int(t.mips.size()) - 1 : level);
    const Texture::LevelSize& m = t.mips[l];
    return {reinterpret_cast<const uint8_t*>(t.paddedLevels[l].data()), m.width, m.height, float(m.width),
            float(m.height), (m.width & (m.width - 1)) == 0 && (m.height & (m.height - 1)) == 0};
}

// The four texels a bilinear sample blends and its weights.
struct BilinearTaps {
    const uint8_t *a, *b, *c, *d;  // (x0, y0), (x1, y0), (x0, y1), (x1, y1)
    float ax, ay;
};

// Bilinear, wrapping (GL_REPEAT): texel centres at (i + 0.5) / size. Coordinates are kept within 2^22
// texels of the origin first (beyond that a float has no fraction left to filter with).
inline BilinearTaps bilinearTaps(const LevelView& m, float u, float v) {
    constexpr float kLimit = 4194304.0f;
    float fx = u * m.fw - 0.5f, fy = v * m.fh - 0.5f;
    fx = fx > -kLimit ? (fx < kLimit ? fx : kLimit) : -kLimit;  // NaN -> -kLimit
    fy = fy > -kLimit ? (fy < kLimit ? fy : kLimit) : -kLimit;
    const float flx = std::floor(fx), fly = std::floor(fy);
    const int32_t ix = int32_t(flx), iy = int32_t(fly);
    int32_t x0, x1, y0, y1;
    if (m.powerOfTwo) {
        x0 = ix & (m.width - 1), x1 = (ix + 1) & (m.width - 1);
        y0 = iy & (m.height - 1), y1 = (iy + 1) & (m.height - 1);
    } else {
        x0 = ((ix % m.width) + m.width) % m.width, x1 = x0 + 1 == m.width ? 0 : x0 + 1;
        y0 = ((iy % m.height) + m.height) % m.height, y1 = y0 + 1 == m.height ? 0 : y0 + 1;
    }
    const uint8_t* r0 = m.texels + size_t(y0) * (size_t(m.width) + 1) * 4;  // padded rows: width + 1 texels
    const uint8_t* r1 = m.texels + size_t(y1) * (size_t(m.width) + 1) * 4;
    return {r0 + size_t(x0) * 4, r0 + size_t(x1) * 4, r1 + size_t(x0) * 4, r1 + size_t(x1) * 4, fx - flx, fy - fly};
}

// Channel k of the taps through a lookup table.
inline float bilinearChannel(const BilinearTaps& t, int k, const float* lut) {
    const float top = lut[t.a[k]] + (lut[t.b[k]] - lut[t.a[k]]) * t.ax;
    const float bottom = lut[t.c[k]] + (lut[t.d[k]] - lut[t.c[k]]) * t.ax;
    return top + (bottom - top) * t.ay;
}

inline constexpr auto kAlphaLut = [] {
    std::array<float, 256> t{};
    for (int i = 0; i < 256; ++i) t[size_t(i)] = float(i) / 255.0f;
    return t;
}();

inline Vec4 sampleLevel(const LevelView& m, float u, float v, const AlbedoTable& table) {
    const BilinearTaps t = bilinearTaps(m, u, v);
    if (table.identity) {
        static constexpr auto kBytes = [] {
            std::array<float, 256> t{};
            for (int i = 0; i < 256; ++i) t[size_t(i)] = float(i);
            return t;
        }();
        constexpr float kScale = 1.0f / 255.0f;
        return {bilinearChannel(t, 0, kBytes.data()) * kScale, bilinearChannel(t, 1, kBytes.data()) * kScale,
                bilinearChannel(t, 2, kBytes.data()) * kScale, bilinearChannel(t, 3, kAlphaLut.data())};
    }
    return {bilinearChannel(t, 0, table.value.data()), bilinearChannel(t, 1, table.value.data()),
            bilinearChannel(t, 2, table.value.data()), bilinearChannel(t, 3, kAlphaLut.data())};
}

// sampleLevel's alpha alone (the same value): for cut-out tests before any colour is needed.
inline float sampleAlphaLevel(const LevelView& m, float u, float v) {
    return bilinearChannel(bilinearTaps(m, u, v), 3, kAlphaLut.data());
}

// Bilinear sample of level `level` at normalised (u, v) with wrapping; rgb albedo through the table, alpha 0-1.
inline Vec4 sampleTexture(const Texture& t, int level, Vec2 uv, const AlbedoTable& table) {
    return sampleLevel(levelView(t, level), uv.x, uv.y, table);
}

}  // namespace luxel
