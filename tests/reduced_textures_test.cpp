// Textures decoded from a coarser mip level (Texture::firstLevel): the chain below the first level is the
// whole chain's, the levels a need maps to, the cache's keys by level, and JPEG's scaled IDCT against a whole
// decode plus the box filter.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>

#include "../src/material/texture_cache.hpp"
#include "luxel/io/game_files.hpp"
#include "luxel/material/jpeg.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/material/texture_sample.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using luxel::test::noiseImage;

namespace {

double meanAbsRgb(const RgbaImage& a, const RgbaImage& b) {
    REQUIRE(a.width == b.width);
    REQUIRE(a.height == b.height);
    double sum = 0;
    for (size_t i = 0; i < a.rgba.size(); ++i)
        if (i % 4 != 3) sum += std::abs(int(a.rgba[i]) - int(b.rgba[i]));
    return sum / (double(a.width) * a.height * 3);
}

}  // namespace

TEST_CASE("a texture made from level L has the whole chain's levels from L down", "[texture]") {
    for (const bool translucent : {false, true}) {
        const RgbaImage full = noiseImage(64, 16, translucent ? 7u : 3u, !(translucent));
        const Texture whole = makeTexture("whole", full);
        for (int32_t first = 1; first <= 3; ++first) {
            INFO("translucent " << translucent << ", first level " << first);
            const Texture reduced = makeTexture("reduced", textureLevel(whole, size_t(first)), first, 64, 16);
            REQUIRE(reduced.mips.size() == whole.mips.size());  // 64x16 .. 1x1: 7 levels
            REQUIRE(reduced.mips.size() == 7);
            CHECK(reduced.firstLevel == first);
            CHECK(reduced.width() == 64);
            CHECK(reduced.height() == 16);
            for (size_t l = 0; l < whole.mips.size(); ++l) {
                CHECK(reduced.mips[l].width == whole.mips[l].width);
                CHECK(reduced.mips[l].height == whole.mips[l].height);
                if (l < size_t(first)) {
                    CHECK(reduced.paddedLevels[l].empty());  // not made
                    continue;
                }
                CHECK(reduced.paddedLevels[l] == whole.paddedLevels[l]);
                if (translucent) {
                    CHECK(reduced.alphaLevels[l] == whole.alphaLevels[l]);
                    CHECK(reduced.alphaCellRanges[l] == whole.alphaCellRanges[l]);
                }
            }
            // Sampling a finer level reads the first one.
            const LevelView finest = levelView(reduced, 0), first0 = levelView(reduced, first);
            CHECK(finest.texels == first0.texels);
            CHECK(finest.width == whole.mips[size_t(first)].width);
            CHECK(textureLevel(reduced, 0).empty());
        }
    }
}

TEST_CASE("a need maps to the level its finest pixel samples", "[texture]") {
    // Powers of two below, 0 for nothing usable.
    CHECK(reducedFootprint(3.0f) == 2.0f);
    CHECK(reducedFootprint(0.75f) == 0.5f);
    CHECK(reducedFootprint(1.0f) == 1.0f);
    CHECK(reducedFootprint(0.0f) == 0.0f);
    CHECK(reducedFootprint(-1.0f) == 0.0f);
    CHECK(reducedFootprint(std::nanf("")) == 0.0f);
    CHECK(reducedFootprint(INFINITY) == 0.0f);
    // A 256 x 256 texture whose pixels each span at least k texels has footprint (k / 256)^2 in repeats: level
    // round(log2 k) (mipLevelFromSquare: [2^(2L-1), 2^(2L+1)) in texels squared).
    const float texel2 = 1.0f / (256.0f * 256.0f);
    CHECK(reducedLevel(1.0f * texel2, 256, 256) == 0);
    CHECK(reducedLevel(1.9f * texel2, 256, 256) == 0);
    CHECK(reducedLevel(2.0f * texel2, 256, 256) == 1);  // a pixel 1.41 texels across
    CHECK(reducedLevel(16.0f * texel2, 256, 256) == 2);
    CHECK(reducedLevel(64.0f * texel2, 256, 256) == 3);
    CHECK(reducedLevel(1e9f, 256, 256) == 8);  // at most the 1x1 level
    // The shorter side decides: a 256 x 64 texture at 16 texels^2 of its 64-texel side.
    CHECK(reducedLevel(16.0f / (64.0f * 64.0f), 256, 64) == 2);
    // The start: at most 2 levels down, never under 16 texels a side.
    CHECK(reducedStart(64.0f * texel2, 256, 256) == 2);
    CHECK(reducedStart(2.0f * texel2, 256, 256) == 1);
    CHECK(reducedStart(1.0f, 32, 32) == 1);   // 16 texels at level 1
    CHECK(reducedStart(1.0f, 16, 256) == 0);  // its 16-texel side
}

TEST_CASE("the cache keeps reduced textures by their first level", "[texture][cache]") {
    clearTextureCache();
    const RgbaImage full = noiseImage(64, 64, 11u, true);
    const Texture whole = makeTexture("whole", full);
    int decodes = 0;
    auto job = [&](const std::string& key, float footprint2, bool reducible) {
        TextureJob j{key, key, [&] { return full; }, footprint2, {}};
        j.decodeFrom = [&, reducible](float need) {
            ++decodes;
            const int32_t start = reducible ? reducedStart(need, 64, 64) : 0;
            return LevelImage{textureLevel(whole, size_t(start)), start, 64, 64, reducible};
        };
        return j;
    };
    const float texel2 = 1.0f / (64.0f * 64.0f);
    // Level 2: footprints of 16 texels^2 and more (all share the level-2 texture, reducedStart's cap).
    const auto a = loadTextures({job("rt-a", 16 * texel2, true)});
    REQUIRE(a[0].texture);
    CHECK(a[0].texture->firstLevel == 2);
    CHECK(decodes == 1);
    const auto b = loadTextures({job("rt-a", 256 * texel2, true), job("rt-a", 64 * texel2, true)});
    CHECK(b[0].texture == a[0].texture);
    CHECK(b[1].texture == a[0].texture);
    CHECK(decodes == 1);
    // Level 1 is another texture; no need (0) is the whole one, decoded by `decode`.
    const auto c = loadTextures({job("rt-a", 2 * texel2, true), job("rt-a", 0, true)});
    CHECK(c[0].texture->firstLevel == 1);
    CHECK(c[1].texture->firstLevel == 0);
    CHECK(c[0].texture != a[0].texture);
    CHECK(decodes == 2);
    CHECK(c[1].texture->paddedLevels[2] == a[0].texture->paddedLevels[2]);  // the same chain below
    // A file that is not reducible is decoded whole once and serves every need after.
    const auto d = loadTextures({job("rt-b", 16 * texel2, false)});
    CHECK(d[0].texture->firstLevel == 0);
    const auto e = loadTextures({job("rt-b", 2 * texel2, false), job("rt-b", 0, false)});
    CHECK(e[0].texture == d[0].texture);
    CHECK(e[1].texture == d[0].texture);
    CHECK(decodes == 3);
    clearTextureCache();
}

TEST_CASE("JPEG's scaled decodes are within a level of the box filter on OpenArena's textures", "[texture][jpeg][maps]") {
    LUXEL_REQUIRE_OPENARENA();
    GameFiles files;
    files.addArchive((test::kOpenArenaDir / "pak4-textures.pk3").string());
    const std::vector<std::string> paths = files.list("textures", ".jpg");
    REQUIRE(paths.size() > 500);
    double sum[3] = {0, 0, 0};
    int counted[3] = {0, 0, 0};
    // Every 4th texture (about 300): a whole decode's box-filtered levels 1 and 2 against the scaled decode.
    for (size_t i = 0; i < paths.size(); i += 4) {
        const auto bytes = files.read(paths[i]);
        REQUIRE(bytes);
        const std::optional<JpegSize> size = jpegSize(*bytes);
        if (!size || (size->width & (size->width - 1)) || (size->height & (size->height - 1))) continue;
        const std::optional<RgbaImage> full = decodeJpegRgba(*bytes, paths[i]);
        REQUIRE(full);
        const Texture whole = makeTexture(paths[i], *full);
        for (int halvings = 1; halvings <= 2; ++halvings) {
            if (reducedStart(1e9f, size->width, size->height) < halvings) continue;  // under 16 texels a side
            const std::optional<RgbaImage> scaled = decodeJpegRgba(*bytes, paths[i], halvings);
            REQUIRE(scaled);
            sum[halvings] += meanAbsRgb(*scaled, textureLevel(whole, size_t(halvings)));
            ++counted[halvings];
        }
    }
    for (int halvings = 1; halvings <= 2; ++halvings) {
        INFO("1/" << (1 << halvings) << " scale over " << counted[halvings] << " textures");
        REQUIRE(counted[halvings] > 100);
        const double mean = sum[halvings] / counted[halvings];
        CHECK(mean <= 1.0);  // levels of 255: the bound for a format
        CHECK(mean > 0.0);   // a different decode, not the box filter's bytes
        WARN("JPEG at 1/" << (1 << halvings) << ": mean absolute difference " << mean << "/255 over " << counted[halvings]
                          << " textures");
    }
}
