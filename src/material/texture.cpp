// Mip chains and sampling of albedo textures.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "luxel/material/texture_sample.hpp"

namespace luxel {

namespace {

// The general loop below for an opaque texture of even sides: every block's alphas are 255, so each colour
// is (sum + 2) / 4 of its block. Written without the per-block tests so that it vectorizes.
void halveOpaque(const RgbaImage& src, RgbaImage& dst) {
    // Two channels per 32-bit half (bytes 0 and 2, then 1 and 3) in 16-bit lanes: four texels' sums plus 2 fit
    // in 10 bits, so one shift and mask divides both by 4.
    constexpr uint32_t kLow = 0x00FF00FFu;
    const size_t srcWidth = size_t(src.width);
    for (int y = 0; y < dst.height; ++y) {
        const uint8_t* row0 = src.rgba.data() + size_t(2 * y) * srcWidth * 4;
        const uint8_t* row1 = row0 + srcWidth * 4;
        uint8_t* q = dst.rgba.data() + size_t(y) * size_t(dst.width) * 4;
        for (int x = 0; x < dst.width; ++x) {
            uint32_t t[4];
            std::memcpy(&t[0], row0 + size_t(x) * 8, 4);
            std::memcpy(&t[1], row0 + size_t(x) * 8 + 4, 4);
            std::memcpy(&t[2], row1 + size_t(x) * 8, 4);
            std::memcpy(&t[3], row1 + size_t(x) * 8 + 4, 4);
            const uint32_t evens = (t[0] & kLow) + (t[1] & kLow) + (t[2] & kLow) + (t[3] & kLow) + 0x00020002u;
            const uint32_t odds =
                (t[0] >> 8 & kLow) + (t[1] >> 8 & kLow) + (t[2] >> 8 & kLow) + (t[3] >> 8 & kLow) + 0x00020002u;
            const uint32_t out = (evens >> 2 & kLow) | (odds >> 2 & kLow) << 8;
            std::memcpy(q + size_t(x) * 4, &out, 4);
        }
    }
}

// Whether any texel's alpha is below 255, eight bytes at a time.
bool anyTranslucent(const std::vector<uint8_t>& rgba) {
    constexpr uint64_t kAlphas = 0xFF000000FF000000ull;
    const size_t words = rgba.size() / 8;
    uint64_t all = kAlphas;
    for (size_t i = 0; i < words; ++i) {
        uint64_t w;
        std::memcpy(&w, rgba.data() + i * 8, 8);
        all &= w;
    }
    if ((all & kAlphas) != kAlphas) return true;
    for (size_t i = words * 8 + 3; i < rgba.size(); i += 4)
        if (rgba[i] != 255) return true;
    return false;
}


// The next mip level of `src`: each 2x2 block averaged (alpha-weighted colour when hasAlpha).
RgbaImage halveTexels(const RgbaImage& src, bool hasAlpha) {
    RgbaImage dst;
    dst.width = std::max(1, src.width / 2);
    dst.height = std::max(1, src.height / 2);
    dst.rgba.resize(size_t(dst.width) * size_t(dst.height) * 4);
    if (!hasAlpha && src.width == 2 * dst.width && src.height == 2 * dst.height) {
        halveOpaque(src, dst);
        return dst;
    }
    for (int y = 0; y < dst.height; ++y) {
        const uint8_t* row0 = src.rgba.data() + size_t(std::min(src.height - 1, 2 * y)) * size_t(src.width) * 4;
        const uint8_t* row1 = src.rgba.data() + size_t(std::min(src.height - 1, 2 * y + 1)) * size_t(src.width) * 4;
        for (int x = 0; x < dst.width; ++x) {
            // The 2x2 block (at odd or unit sides its last texel again); colour weighted by alpha + 1 so
            // transparent texels (often black) do not darken the edges of cut-outs.
            const size_t x0 = size_t(std::min(src.width - 1, 2 * x)) * 4, x1 = size_t(std::min(src.width - 1, 2 * x + 1)) * 4;
            const uint8_t* p[4] = {row0 + x0, row0 + x1, row1 + x0, row1 + x1};
            uint8_t* q = dst.rgba.data() + (size_t(y) * size_t(dst.width) + size_t(x)) * 4;
            if (p[0][3] == p[1][3] && p[0][3] == p[2][3] && p[0][3] == p[3][3]) {
                // Equal weights cancel: (sum c (a + 1) + 2 (a + 1)) / (4 (a + 1)) = (sum c + 2) / 4, the
                // same integer; most blocks of most textures (opaque ones all).
                for (int c = 0; c < 3; ++c) q[c] = uint8_t((p[0][c] + p[1][c] + p[2][c] + p[3][c] + 2u) >> 2);
                q[3] = p[0][3];
                continue;
            }
            uint32_t sum[4] = {0, 0, 0, 0}, alphaSum = 0;
            for (const uint8_t* texel : p) {
                for (int c = 0; c < 3; ++c) sum[c] += uint32_t(texel[c]) * (uint32_t(texel[3]) + 1);
                alphaSum += uint32_t(texel[3]) + 1;
                sum[3] += texel[3];
            }
            for (int c = 0; c < 3; ++c) q[c] = uint8_t((sum[c] + alphaSum / 2) / alphaSum);
            q[3] = uint8_t((sum[3] + 2) / 4);
        }
    }
    return dst;
}

}  // namespace

Texture makeTexture(std::string name, RgbaImage image) {
    const int32_t width = image.width, height = image.height;
    return makeTexture(std::move(name), std::move(image), 0, width, height);
}

Texture makeTexture(std::string name, RgbaImage image, int32_t firstLevel, int32_t fullWidth, int32_t fullHeight) {
    Texture t;
    t.name = std::move(name);
    t.hasAlpha = anyTranslucent(image.rgba);
    t.firstLevel = std::max(0, firstLevel);
    // The sizes of the levels not made: the chain's rule (half, at least 1) from the full size.
    for (int32_t level = 0, w = fullWidth, h = fullHeight; level < t.firstLevel; ++level) {
        t.mips.push_back({w, h});
        w = std::max(1, w / 2), h = std::max(1, h / 2);
    }
    // The chain is built unpadded (each level from the one before), each level padded and dropped in turn.
    std::vector<RgbaImage> chain;
    chain.push_back(std::move(image));
    while (chain.back().width > 1 || chain.back().height > 1) chain.push_back(halveTexels(chain.back(), t.hasAlpha));
    const size_t first = size_t(t.firstLevel), levels = first + chain.size();
    t.mips.resize(levels);
    t.paddedLevels.resize(levels);
    if (t.hasAlpha) t.alphaLevels.resize(levels), t.alphaCellRanges.resize(levels);
    for (size_t level = first; level < levels; ++level) {
        RgbaImage& m = chain[level - first];
        t.mips[level] = {m.width, m.height};
        const uint32_t* texels = reinterpret_cast<const uint32_t*>(m.rgba.data());
        std::vector<uint32_t>& p = t.paddedLevels[level];
        const size_t stride = size_t(m.width) + 1;
        p.resize(stride * (size_t(m.height) + 1));
        for (int y = 0; y <= m.height; ++y) {
            const uint32_t* row = texels + size_t(y % m.height) * size_t(m.width);
            uint32_t* out = p.data() + size_t(y) * stride;
            std::memcpy(out, row, size_t(m.width) * sizeof(uint32_t));
            out[m.width] = row[0];
        }
        if (t.hasAlpha) {
            std::vector<uint8_t>& a = t.alphaLevels[level];
            a.resize(m.rgba.size() / 4 + 3, 0);
            for (size_t i = 0; i + 3 < m.rgba.size(); i += 4) a[i / 4] = m.rgba[i + 3];
            std::vector<uint16_t>& r = t.alphaCellRanges[level];
            r.resize(size_t(m.width) * size_t(m.height) + 1, 0);
            for (int y = 0; y < m.height; ++y) {
                const uint8_t* row = a.data() + size_t(y) * size_t(m.width);
                const uint8_t* below = a.data() + size_t((y + 1) % m.height) * size_t(m.width);
                for (int x = 0; x < m.width; ++x) {
                    const int x1 = x + 1 < m.width ? x + 1 : 0;
                    const uint8_t lo = std::min({row[x], row[x1], below[x], below[x1]});
                    const uint8_t hi = std::max({row[x], row[x1], below[x], below[x1]});
                    r[size_t(y) * size_t(m.width) + size_t(x)] = uint16_t(lo | hi << 8);
                }
            }
        }
        // The next level was made from this one already: its unpadded texels can go.
        if (level + 1 < levels) m = RgbaImage{};
    }
    return t;
}

RgbaImage textureLevel(const Texture& t, size_t level) {
    RgbaImage out;
    if (level < size_t(t.firstLevel) || level >= t.mips.size() || level >= t.paddedLevels.size()) return out;
    out.width = t.mips[level].width;
    out.height = t.mips[level].height;
    out.rgba.resize(size_t(out.width) * size_t(out.height) * 4);
    const size_t stride = size_t(out.width) + 1;
    for (int y = 0; y < out.height; ++y)
        std::memcpy(out.rgba.data() + size_t(y) * size_t(out.width) * 4, t.paddedLevels[level].data() + size_t(y) * stride,
                    size_t(out.width) * 4);
    return out;
}

AlbedoTable makeAlbedoTable(float gamma) {
    // b * (1/255): the scale sampleLevel applies after filtering bytes, so a texel read through the table
    // (the rebaker's mean colours) matches a filtered one.
    constexpr float kInv255 = 1.0f / 255.0f;
    AlbedoTable t;
    t.identity = gamma == 1.0f;
    for (int b = 0; b < 256; ++b)
        t.value[size_t(b)] = gamma == 1.0f ? float(b) * kInv255 : std::pow(float(b) / 255.0f, gamma);
    return t;
}

}  // namespace luxel

namespace luxel {

std::optional<Vec3> meanTextureColour(const MaterialSet& set, int32_t material) {
    if (material < 0 || size_t(material) >= set.looks.size()) return std::nullopt;
    const int32_t t = set.looks[size_t(material)].texture;
    if (t < 0 || size_t(t) >= set.textures.size() || !set.textures[size_t(t)] || set.textures[size_t(t)]->paddedLevels.empty())
        return std::nullopt;
    const uint32_t mean = set.textures[size_t(t)]->paddedLevels.back()[0];  // RGBA8 in memory order
    return Vec3{float(mean & 0xFF), float(mean >> 8 & 0xFF), float(mean >> 16 & 0xFF)};
}

}  // namespace luxel
